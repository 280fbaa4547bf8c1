//! SAT for two boxes, untraced: Gottschalk's OBB test (Gottschalk, Lin and Manocha 1996;
//! Ericson 4.4.1) with R = B's rotation in A's frame, t = B's centre in A's frame, h_A and
//! h_B the half extents:
//!
//! ```text
//! face of A with local normal u = +-e_k:  separation = u . t - h_A[k] - sum_l h_B[l] |R[k][l]|
//! face of B with local normal v = +-e_l:  the same seen from B (t and R in B's frame)
//! edge pairs: for each axis k of A and l of B, the great circles of their Gauss-map arcs
//!     meet at +-L, L = A_k x B_l; exactly the two pairs whose quarter arcs hold those
//!     points cross, read off the signs of four entries of R, and they separate by
//!     (+-L . t - reach_A(L) - reach_B(L)) / |L|
//!     a direction pair with an entry near zero, nearly parallel axes or an ill-conditioned
//!     axis takes the reference's test on the placed edges; the pairs that may beat the best
//!     face (and every other pair) by more than the closed form's rounding bound take the
//!     reference's arithmetic on the placed vertices
//! ```
//!
//! It applies to two cuboids placed with finite numbers ([`CuboidPair::new`]). Why it gives
//! the reference's answer: the reference reads the face separations of two boxes off the
//! same closed form (the six values by normal here are its dot products, the same bits), and
//! places the winning face's normal as this does. The edge pairs' closed form differs from
//! the reference's arithmetic only by rounding, which [`EdgeGroups`] bounds: a direction pair
//! is used only where its Gauss-map signs, its parallel test and its orientation are sure,
//! and every axis that could win by the bound is computed on the placed edges as the
//! reference computes it; so the winner, its bits and the counts are the reference's.

use super::large::GAUSS_PREFILTER_MARGIN;
pub(crate) use super::obb::CuboidPair;
use super::reference::{
    arcs_cross, crosses, crossing_axis, finish, oriented_axis, prefer, EdgeFrame,
};
use super::small::{place_small_frames, small_edge_pairs, Turn};
use super::{preference_tolerance, AxisId, Best, Output};
use crate::geom3::CuboidEdges;
use crate::inline_vec::InlineVec;
use crate::query3::{Placed3, PolyPair};
use crate::simd::Four;
use glam::{Mat3A, Vec3, Vec3A};

impl CuboidPair {
    /// SAT for two cuboids, untraced: the face axes in closed form ([`Self::face_axes`]), the
    /// edge pairs in closed form where that is sure and on the placed edges elsewhere
    /// ([`Self::edge_axes`]).
    pub(crate) fn sat(&self, pair: &PolyPair) -> Output {
        let mut tested = 0;
        let mut pruned = 0;
        let (face_a, face_b) = self.face_axes(pair, &mut tested);
        let mut edge = Best::none(AxisId::Edges(0, 0));
        let tol = preference_tolerance(pair);
        let centroid_a = pair.a.centroid();
        let counts = (&mut tested, &mut pruned);
        match (pair.a.shape.cuboid_edges(), pair.b.shape.cuboid_edges()) {
            (Some(edges_a), Some(edges_b)) => {
                // `prefer`'s bar for an edge axis: the better face's separation plus `tol`.
                let face = prefer(face_a, face_b, edge, tol);
                let threshold = face.separation + tol;
                let edges = (edges_a, edges_b);
                self.edge_axes(pair, edges, threshold, centroid_a, &mut edge, counts);
            }
            _ => small_edge_pairs(pair, None, centroid_a, &mut edge, counts, &mut |_, _| {}),
        }
        let best = prefer(face_a, face_b, edge, tol);
        finish(pair, best, tested, pruned)
    }

    /// Every face axis of both boxes, in the reference's order. A face of A with local normal
    /// `u` (an axis, `+-e_k`) has separation `u . t - |u| . reach_a` (B's centre above the
    /// face, less both boxes' reach along it: [`Self::face_separation_a`]); a face of B with
    /// local normal `v` has `-v . t - |v| . reach_b`, the same seen from B. The winning
    /// faces' normals are placed as the reference places them.
    pub(super) fn face_axes(&self, pair: &PolyPair, tested: &mut u32) -> (Best, Best) {
        let (a, b) = (&pair.a, &pair.b);
        // With normals exactly +-e_k (`CuboidFaces`), `u . t` is `+-t[k]` and `|u| . reach`
        // is `reach[k]` exactly (the other terms are zeros), so each face's separation is
        // read off six precomputed values: the same bits.
        let by_normal = |t: Vec3A, reach: Vec3A| {
            let (plus, minus) = (t - reach, -t - reach);
            [plus.x, plus.y, plus.z, minus.x, minus.y, minus.z]
        };
        let tables = a.shape.cuboid_faces().zip(b.shape.cuboid_faces());
        let (of_a, of_b) = (
            by_normal(self.t_in_a, self.reach_a),
            by_normal(-self.t_in_b, self.reach_b),
        );
        let mut face_a = Best::none(AxisId::FaceA(0));
        for i in 0..a.shape.face_count() {
            let separation = match tables {
                Some((lanes, _)) => of_a[lanes[i] as usize],
                None => self.face_separation_a(a.shape.face_normal(i)),
            };
            let id = AxisId::FaceA(i as u32);
            face_a.offer(separation, Vec3::ZERO, id);
            *tested += 1;
        }
        let mut face_b = Best::none(AxisId::FaceB(0));
        for j in 0..b.shape.face_count() {
            let separation = match tables {
                Some((_, lanes)) => of_b[lanes[j] as usize],
                None => self.face_separation_b(b.shape.face_normal(j)),
            };
            let id = AxisId::FaceB(j as u32);
            face_b.offer(separation, Vec3::ZERO, id);
            *tested += 1;
        }
        if let AxisId::FaceA(i) = face_a.id {
            face_a.axis = a.face_normal(i as usize);
        }
        if let AxisId::FaceB(j) = face_b.id {
            face_b.axis = -b.face_normal(j as usize);
        }
        (face_a, face_b)
    }
}

/// The untraced edge axes of two cuboids in closed form.
///
/// For A's axis k and B's axis l the two edge pairs whose Gauss-map arcs cross (see
/// [`CuboidPair::crossing_pairs`]) have the axes `+-L/|L|`, `L = A_k x B_l`, and, as Gottschalk's OBB
/// test reads them in A's frame, the separations
///
/// ```text
/// (+-L . t - reach) / |L|,   reach = h_A[p] |R[q][l]| + h_A[q] |R[p][l]|     A's edge
///                                   + h_B[r] |R[k][s]| + h_B[s] |R[k][r]|     B's edge
/// ```
///
/// (`L = (-R[q][l], R[p][l])` along A's `(e_p, e_q)`; `p, q` and `r, s` the axes after k
/// and l). The reference loop computes the same numbers from the placed vertices, and the
/// two differ only by rounding: [`EdgeGroups::bound`] bounds the difference. Candidates
/// that cannot win by that bound are never placed; those that might (usually one, or none
/// when a face wins clearly) take the reference loop's arithmetic, so the winner, its
/// bits and the counts are the loop's.
pub(super) struct EdgeGroups {
    /// `plus[k]` lane l, `minus[k]` lane l: the closed-form separations along `+L` and
    /// `-L` (lane 3 is padding).
    pub(super) plus: [Four; 3],
    pub(super) minus: [Four; 3],
    /// How far the reference loop's separation of either pair can be from the closed form.
    pub(super) bound: [Four; 3],
    /// Bit `4k + l`: the closed form is sure of this direction pair (below); the others go
    /// to [`exact_cuboid_groups`].
    pub(super) sure: u16,
    /// The largest lower bound of a sure pair's separation: `max(plus, minus) - bound`.
    surest: f32,
}

/// `f32`'s relative rounding, the unit of [`EdgeGroups`]'s error bounds.
const ROUNDING: f32 = f32::EPSILON;

impl CuboidPair {
    /// The closed form of every direction pair, with its error bound.
    ///
    /// Error bound (generous: about twice the sums below, and a unit test measures the
    /// actual differences far inside it). With `P` the pair's extent (both translations and
    /// half diagonals, so every separation is at most `P`) and `e` = [`ROUNDING`]: a placed
    /// vertex is off by at most `10 e P`; an edge direction of length `2 h` then by `20 e P`,
    /// so the cross product of two is off by `eta |dA| |dB|`, `eta = 20 e P (1/h_A[k] +
    /// 1/h_B[l]) + 5 e` (doubled), and the unit axis by `2 eta / |L|`; the loop's separation,
    /// a dot product with a vector no longer than `2P`, by `P (4 eta + 6 e) / |L| + 28 e P`.
    /// The closed form's entries of R are off by at most `16 e`, t by `9 e |t|`, so its
    /// separation by about `104 e P / |L|`. Bound: `P (8 eta + 256 e) / |L| + 64 e P`.
    ///
    /// A direction pair is sure when the loop's three decisions are: the Gauss-map signs
    /// (the four entries of R clear of zero by [`GAUSS_PREFILTER_MARGIN`], as
    /// [`CuboidPair::crossing_pairs`]), not parallel (`|L| >= 2e-3`, twice [`PARALLEL_TOLERANCE`],
    /// with `eta <= 5e-4`), and the axis turned away from A's centroid (A's reach along it,
    /// `reach_A / |L|`, above twice its error bound).
    pub(super) fn edge_groups(&self, pair: &PolyPair) -> EdgeGroups {
        let rows = self.r.transpose();
        let (t, h_a, h_b) = (self.t_in_a, self.h_a, self.h_b);
        let size_a = h_a.length();
        let extent =
            pair.a.translation.length() + pair.b.translation.length() + size_a + h_b.length();
        let rounding = ROUNDING * extent;
        let splat = Four::splat;
        // Lane l of a vector `v` read at l (`v`), at l + 1 (`next`) and at l + 2 (`after`).
        let lanes = |v: Vec3A| Four::load(&[v.x, v.y, v.z, 0.0]);
        let next = |v: Vec3A| Four::load(&[v.y, v.z, v.x, 0.0]);
        let after = |v: Vec3A| Four::load(&[v.z, v.x, v.y, 0.0]);
        let abs = |v: Four| v.max(v.neg());
        let (h_b_next, h_b_after) = (next(h_b), after(h_b));
        let inverse_h_b = lanes(h_b.recip());
        let margin = splat(GAUSS_PREFILTER_MARGIN);
        let mut groups = EdgeGroups {
            plus: [splat(0.0); 3],
            minus: [splat(0.0); 3],
            bound: [splat(0.0); 3],
            sure: 0,
            surest: f32::NEG_INFINITY,
        };
        for k in 0..3 {
            let (p, q) = ((k + 1) % 3, (k + 2) % 3);
            // Lane l: R[p][l], R[q][l]; R[k][s] and R[k][r] (r, s after l).
            let (row_p, row_q) = (lanes(rows.col(p)), lanes(rows.col(q)));
            let (k_r, k_s) = (next(rows.col(k)), after(rows.col(k)));
            let (abs_p, abs_q, abs_r, abs_s) = (abs(row_p), abs(row_q), abs(k_r), abs(k_s));
            let clear = abs_p.gt(margin).and(abs_q.gt(margin));
            let clear = clear.and(abs_r.gt(margin)).and(abs_s.gt(margin));
            let squared = row_p.mul(row_p).add(row_q.mul(row_q)).to_array();
            let length = Four::load(&squared.map(f32::sqrt));
            let along = row_p.mul(splat(t[q])).minus(row_q.mul(splat(t[p])));
            let reach_a = abs_q.mul(splat(h_a[p])).add(abs_p.mul(splat(h_a[q])));
            let reach = reach_a.add(abs_s.mul(h_b_next)).add(abs_r.mul(h_b_after));
            let eta = inverse_h_b
                .add(splat(1.0 / h_a[k]))
                .mul(splat(20.0 * rounding))
                .add(splat(5.0 * ROUNDING));
            let bound = eta
                .mul(splat(8.0 * extent))
                .add(splat(256.0 * rounding))
                .div(length)
                .add(splat(64.0 * rounding));
            let oriented = eta
                .mul(splat(4.0 * size_a))
                .add(length.mul(splat(64.0 * rounding)));
            let sure = clear
                .and(splat(2.0e-3).le(length))
                .and(eta.le(splat(5.0e-4)))
                .and(reach_a.gt(oriented))
                .and(bound.le(splat(f32::MAX)));
            groups.plus[k] = along.minus(reach).div(length);
            groups.minus[k] = along.neg().minus(reach).div(length);
            groups.bound[k] = bound;
            groups.sure |= ((sure.mask_bits() & 0b111) as u16) << (4 * k);
            let surest = groups.plus[k].max(groups.minus[k]).minus(bound);
            let surest = sure.select(surest, splat(f32::NEG_INFINITY)).max_lane();
            groups.surest = groups.surest.max(surest);
        }
        groups
    }

    /// The two edge pairs of direction pair `(k, l)` whose Gauss-map arcs cross, when the
    /// four entries of R below are clear of zero: along `+L`, then along `-L`.
    ///
    /// A cuboid's edges run along its three axes, four per axis, and the arcs of the four
    /// edges along axis k are the four quarters of the great circle perpendicular to k (the
    /// arc of the edge between the faces `+-e_p` and `+-e_q` is the quarter where the p and q
    /// coordinates have those signs). B's negated arcs along its axis l likewise tile the
    /// circle perpendicular to l. Two such great circles meet at `+-L`, `L = A_k x B_l`, so
    /// for each of the 3 x 3 direction pairs exactly two of its sixteen edge pairs cross: A's
    /// edge whose quarter holds `L` with B's edge whose negated quarter holds `L`, and the
    /// same for `-L`. With `R[k][l] = A_k . B_l`, `L` has the coordinates `(-R[q][l],
    /// R[p][l])` along A's `(e_p, e_q)` and `(R[k][s], -R[k][r])` along B's `(f_r, f_s)`.
    /// These four entries are, up to sign, the four dot products [`arcs_cross`] takes the
    /// signs of, so when all four are clear of zero by [`GAUSS_PREFILTER_MARGIN`] this is
    /// that test's answer (a unit test compares the two on random and aligned poses); A's
    /// edge is then A's extreme edge along `+-L` and B's is B's along `-+L`, which gives the
    /// separations of [`EdgeGroups`].
    pub(super) fn crossing_pairs(
        &self,
        k: usize,
        l: usize,
        edges_a: &CuboidEdges,
        edges_b: &CuboidEdges,
    ) -> [(u8, u8); 2] {
        let (p, q) = ((k + 1) % 3, (k + 2) % 3);
        let (r, s) = ((l + 1) % 3, (l + 2) % 3);
        let m = |i: usize, j: usize| self.r.col(j)[i];
        let side_a = (-m(q, l) > 0.0) as usize | ((m(p, l) > 0.0) as usize) << 1;
        let side_b = (m(k, s) < 0.0) as usize | ((-m(k, r) < 0.0) as usize) << 1;
        [
            (edges_a[k][side_a], edges_b[l][side_b]),
            (edges_a[k][side_a ^ 3], edges_b[l][side_b ^ 3]),
        ]
    }

    /// The untraced edge-pair search of two cuboids ([`EdgeGroups`]): offers `edge` the
    /// reference loop's best edge axis whenever it could beat `threshold` (the best face's
    /// separation plus the preference tolerance, as [`prefer`] adds them), and counts the
    /// tested and pruned pairs as the loop does.
    #[allow(clippy::too_many_arguments)]
    fn edge_axes(
        &self,
        pair: &PolyPair,
        (edges_a, edges_b): (&CuboidEdges, &CuboidEdges),
        threshold: f32,
        centroid_a: Vec3,
        edge: &mut Best,
        (tested, pruned): (&mut u32, &mut u32),
    ) {
        let groups = self.edge_groups(pair);
        let mut axes = 2 * groups.sure.count_ones();
        let open = !groups.sure & ALL_DIRECTION_PAIRS;
        if open != 0 {
            axes += exact_cuboid_groups(pair, (edges_a, edges_b), open, centroid_a, edge);
        }
        *tested += axes;
        *pruned += 144 - axes;
        // A pair below `bar` by its bound cannot be the winner: the face is better, or an
        // exact edge axis, or the sure pair with the best lower bound.
        let bar = Four::splat(threshold.max(edge.separation).max(groups.surest));
        let mut contenders = 0u32;
        for k in 0..3 {
            let plus = bar.le(groups.plus[k].add(groups.bound[k])).mask_bits();
            let minus = bar.le(groups.minus[k].add(groups.bound[k])).mask_bits();
            let sure = (groups.sure as u32 >> (4 * k)) & 0b111;
            contenders |= ((plus | minus << 4) & (sure | sure << 4)) << (8 * k);
        }
        let turns = (Turn::new(pair.a.rotation), Turn::new(pair.b.rotation));
        while contenders != 0 {
            let bit = contenders.trailing_zeros() as usize;
            contenders &= contenders - 1;
            let (k, l, minus) = (bit / 8, bit % 4, (bit / 4) % 2);
            let (i, j) = self.crossing_pairs(k, l, edges_a, edges_b)[minus];
            let a = placed_edge(&pair.a, &turns.0, i);
            let b = placed_edge(&pair.b, &turns.1, j);
            let cross = a.dir.cross(b.dir);
            debug_assert!(crosses(&a, &b, cross), "a sure pair is not parallel");
            let (axis, separation) = oriented_axis(&a, &b, cross, centroid_a);
            edge.offer_in_order(separation, axis, AxisId::Edges(i as u32, j as u32));
        }
    }
}

/// Edge `e` of a cuboid placed as [`place_small_frames`] places it (the same bits), without
/// its Gauss-map arc (zeros). Always inlined: out of line, the frame came back through
/// memory.
#[inline(always)]
fn placed_edge(body: &Placed3, turn: &Turn, e: u8) -> EdgeFrame {
    let edge = &body.shape.edges()[e as usize];
    let place = |v: u32| turn.apply(body.shape.vertex(v as usize)) + body.translation;
    EdgeFrame::from_placed(place(edge.tail), place(edge.head), Vec3::ZERO, Vec3::ZERO)
}

/// Bit `4k + l` for each of the nine direction pairs (A's axis k, B's axis l), as
/// [`EdgeGroups::sure`] holds them.
const ALL_DIRECTION_PAIRS: u16 = 0b0111_0111_0111;

/// The direction pairs [`EdgeGroups`] is not sure of (bit `4k + l` of `open`), by the
/// reference loop's tests pair by pair: [`arcs_cross`], the parallel test and the axis on
/// the edges placed as [`place_small_frames`] places them. Returns how many pairs gave an axis.
#[cold]
#[inline(never)]
fn exact_cuboid_groups(
    pair: &PolyPair,
    (edges_a, edges_b): (&CuboidEdges, &CuboidEdges),
    open: u16,
    centroid_a: Vec3,
    edge: &mut Best,
) -> u32 {
    let mut frames_a = InlineVec::new();
    let mut frames_b = InlineVec::new();
    place_small_frames(&pair.a, &mut frames_a);
    place_small_frames(&pair.b, &mut frames_b);
    let (frames_a, frames_b) = (frames_a.as_slice(), frames_b.as_slice());
    let mut axes = 0;
    for group in (0..12).filter(|g| open & (1 << g) != 0) {
        let (k, l) = (group / 4, group % 4);
        for &i in &edges_a[k] {
            for &j in &edges_b[l] {
                let (a, b) = (&frames_a[i as usize], &frames_b[j as usize]);
                if !arcs_cross(a.n0, a.n1, a.arc, -b.n0, -b.n1, b.arc) {
                    continue;
                }
                if let Some((axis, separation)) = crossing_axis(a, b, centroid_a) {
                    edge.offer_in_order(separation, axis, AxisId::Edges(i as u32, j as u32));
                    axes += 1;
                }
            }
        }
    }
    axes
}

/// Gottschalk's setup of two cuboids as [`CuboidPair::new`] computes it (B's rotation and
/// centre in A's frame, the centre offset in B's frame, both reaches, the half extents), for
/// the closed-form verdict of GJK's intersection test ([`super::cuboid_verdict`]); `None`
/// unless both bodies are cuboids placed with finite numbers.
pub(crate) fn cuboid_setup(pair: &PolyPair) -> Option<CuboidSetup> {
    let c = CuboidPair::new(pair)?;
    Some(CuboidSetup {
        r: c.r,
        t_in_a: c.t_in_a,
        t_in_b: c.t_in_b,
        reach_a: c.reach_a,
        reach_b: c.reach_b,
        h_a: c.h_a,
        h_b: c.h_b,
    })
}

/// The fields of [`CuboidPair`], read by [`cuboid_setup`]'s callers.
pub(crate) struct CuboidSetup {
    /// `r.col(l)` is B's axis l in A's frame: `R[k][l] = A_k . B_l`.
    pub(crate) r: Mat3A,
    /// From A's centre to B's in A's frame, and the same vector in B's frame.
    pub(crate) t_in_a: Vec3A,
    pub(crate) t_in_b: Vec3A,
    /// `h_a[k] + sum_l h_b[l] |R[k][l]|` and `h_b[l] + sum_k h_a[k] |R[k][l]|`.
    pub(crate) reach_a: Vec3A,
    pub(crate) reach_b: Vec3A,
    pub(crate) h_a: Vec3A,
    pub(crate) h_b: Vec3A,
}
