//! The small-body path's edge pairs ([`super::small`]): the candidates of the Gauss-map
//! test found by sign bits, gathered four at a time, eight with AVX
//! ([`EdgePairLanes`]), their numbers computed side by side, then one pair at a time, in the
//! reference's order, the count, the witnesses' skip or the full test and the offer.
//! Untraced only; the answer is the reference's to the bit.
//!
//! Why the same candidates. The Gauss-map test runs on sign bits, one bit per edge of B in
//! a `u64`: A's face normals against B's arc planes once per query (`adc`, `bdc`,
//! [`LocalPair::face_sides`]), and, per edge of A, B's face normals against A's arc, four
//! faces at a time (eight with AVX), spread to B's edges by a table (`cba`, `dba`: an
//! edge's numbers are its two faces', negated: [`LocalPair::crossing_arcs`]). The sign bits
//! only sort out candidates: a pair they pass is decided by Gregorius's products of the very
//! numbers the lanes computed, which are the reference's (`sat::edge_pair_axis` on B's
//! turned features) but for a zero's sign, and a zero fails the products whatever its sign.
//! The pair then gets SAT's parallel test and orientation, lane by lane with the scalar
//! operations in their order ([`EdgePairLanes::numbers`]), without SAT's separation, which
//! the sweep does not use. What a pair gets does not depend on how many were gathered with
//! it.
//!
//! The witnesses' skip: an edge axis is only counted (not offered) when it can change
//! neither the latest entry nor the earliest exit:
//!
//! ```text
//! near ends (A's edge, B's edge) exact, as the full test computes them
//! far ends: witnesses w_A = u . (antipode of A's edge's first face) >= A's min,
//!           w_B = u . (antipode of B's edge's first face) + shift <= B's max
//! |s| > still: the time that uses only near ends is exact, the other one bounded
//!           (rounding is monotone): enter <= E, exit >= X
//! skip when E < best.t_enter - tie and X > earliest_exit
//! ```
//!
//! `offer` would then keep its best (the axis enters earlier by more than the tie
//! tolerance, so neither a later entry nor the tie rule takes it, and it is never a NaN:
//! every number is finite below [`WITNESS_LIMIT`] and |s| > still > 0) and its earliest
//! exit (strictly later); every later offer then sees the same state, so the answer is the
//! same bits.

use super::reference::{entry_and_exit, Candidate, Latest, SMALL_FEATURES};
use super::small::{extent, LocalPair};
use super::Variant;
use crate::query3::sat::{AxisId, PARALLEL_TOLERANCE};
use crate::query3::Interval;
#[cfg(target_arch = "x86_64")]
use crate::simd::Eight;
use crate::simd::{EightLanes, Four, Lanes};
use glam::Vec3;
use std::mem::MaybeUninit;

/// Bodies larger than this (bounding radius about their origin) are not pruned by
/// witnesses: below it, with B's placement bounded as [`super::reference::PlacementInA`]
/// requires, every projection and difference of projections stays far from overflow, so no
/// entry time can be a NaN.
pub(super) const WITNESS_LIMIT: f32 = 1.0e30;

impl LocalPair<'_, '_> {
    /// For each face `f` of A in `faces` (bit `f`), the sides of B's arcs' planes its normal
    /// lies on: bit `j` of `signs[f]` is the sign bit of `n_f . plane_j` (set when `< 0`,
    /// and for a `-0.0`); the values themselves go to `values[f][j]` (written for every such
    /// face and every edge of B, with the padding of the last group of four). An edge of A takes
    /// `sat::arcs_cross`'s `adc` and `bdc` for every edge of B from the entries of its two
    /// faces. With `eight`, two groups of four edges at a time (the same products and sums
    /// per lane, so the same bits), the last odd group four at a time.
    #[inline(always)]
    pub(super) fn face_sides(
        &self,
        eight: EightLanes,
        faces: u64,
        signs: &mut [u64],
        values: &mut SideValues,
    ) {
        #[cfg(not(target_arch = "x86_64"))]
        let _ = eight;
        let shape_a = self.pair.a.shape;
        let planes = &self.b.planes;
        for (f, (signs, values)) in signs.iter_mut().zip(values.iter_mut()).enumerate() {
            if faces & (1 << f) == 0 {
                continue;
            }
            let n = shape_a.face_normal(f);
            let mut bits = 0u64;
            // Groups of four done by eight lanes (none without x86-64's eight-lane type).
            #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
            let mut done = 0;
            #[cfg(target_arch = "x86_64")]
            if let Some(avx) = eight {
                let splat = |v: f32| Eight::splat(avx, v);
                let (x, y, z) = (splat(n.x), splat(n.y), splat(n.z));
                for p in 0..planes.pair_count() {
                    let rows = planes.pair(p);
                    let row = |c: usize| Eight::load_from(avx, rows[c].as_flattened());
                    let side = Eight::dot3(x, y, z, row(0), row(1), row(2));
                    bits |= (side.mask_bits() as u64) << (8 * p);
                    write_lanes(&mut values[8 * p..], side.to_array());
                }
                done = 2 * planes.pair_count();
            }
            let (x, y, z) = (Four::splat(n.x), Four::splat(n.y), Four::splat(n.z));
            for r in done..planes.len {
                let rows = planes.group(r);
                let side = Four::dot3(
                    x,
                    y,
                    z,
                    Four::load(&rows[0]),
                    Four::load(&rows[1]),
                    Four::load(&rows[2]),
                );
                bits |= (side.sign_bits() as u64) << (4 * r);
                write_lanes(&mut values[4 * r..], side.to_array());
            }
            *signs = bits;
        }
    }

    /// Candidates for a crossing of the Gauss-map arcs of edge `i` of A (`arc` its plane,
    /// between faces `f0` and `f1`) and B's edge `j` (bit `j`): the three sign tests of
    /// [`crate::query3::sat::arc_crossing_candidates`] (the same numbers and bits, written
    /// here for B's normals two groups to a pair) on B's turned normals and B's
    /// [`crate::geom3::FeatureLanes::face_edges`], with the sign bits of `adc` and `bdc`
    /// from [`Self::face_sides`]. `sides[f]` gets `n_f . arc` for every face of B (and the
    /// padding of the last group of four). B's normals turned into A's frame against A's
    /// arc give `cba`'s negation exactly (`c = -n` is turned by the negated matrix, whose
    /// products and sums are the negated ones, so the two differ at most in a zero's sign);
    /// the caller decides a candidate by the products ([`EdgePairLanes::numbers`]), where a
    /// zero fails whatever its sign. With `eight`, two groups of four faces at a time (the
    /// table still spreads each group's four sign bits), the last odd group four at a time.
    #[inline(always)]
    pub(super) fn crossing_arcs(
        &self,
        eight: EightLanes,
        arc: Vec3,
        [f0, f1]: [usize; 2],
        signs: &[u64],
        sides: &mut [f32; SMALL_FEATURES],
    ) -> u64 {
        #[cfg(not(target_arch = "x86_64"))]
        let _ = eight;
        let face_edges = &self.lanes_b.face_edges;
        let normals = &self.b.normals;
        // Edges of B whose first (second) face has `n . arc` with its sign bit set: `cba`
        // (`dba`) has it clear.
        let (mut first, mut second) = (0u64, 0u64);
        // Groups of four done by eight lanes (none without x86-64's eight-lane type).
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut done = 0;
        #[cfg(target_arch = "x86_64")]
        if let Some(avx) = eight {
            let splat = |v: f32| Eight::splat(avx, v);
            let (x, y, z) = (splat(arc.x), splat(arc.y), splat(arc.z));
            for p in 0..normals.pair_count() {
                let rows = normals.pair(p);
                let row = |c: usize| Eight::load_from(avx, rows[c].as_flattened());
                let n_arc = Eight::dot3(row(0), row(1), row(2), x, y, z);
                let m = n_arc.mask_bits() as usize;
                let (low, high) = (&face_edges[2 * p][0], &face_edges[2 * p + 1][0]);
                first |= low[0][m & 0xf] | high[0][m >> 4];
                second |= low[1][m & 0xf] | high[1][m >> 4];
                n_arc.store_to(&mut sides[8 * p..]);
            }
            done = 2 * normals.pair_count();
        }
        let (x, y, z) = (Four::splat(arc.x), Four::splat(arc.y), Four::splat(arc.z));
        for g in done..normals.len {
            let rows = normals.group(g);
            let row = |c: usize| Four::load(&rows[c]);
            let n_arc = Four::dot3(row(0), row(1), row(2), x, y, z);
            let m = (n_arc.sign_bits() & 0xf) as usize;
            first |= face_edges[g][0][0][m];
            second |= face_edges[g][0][1][m];
            sides[4 * g..4 * g + 4].copy_from_slice(&n_arc.to_array());
        }
        // adc and bdc of opposite signs, cba and dba of opposite signs, cba and bdc of the
        // same sign (cba's sign bit is `!first`).
        let (adc, bdc) = (signs[f0], signs[f1]);
        (adc ^ bdc) & (first ^ second) & (first ^ bdc)
    }

    /// [`Self::visit_axes`]'s edge pairs: the candidates of the sign bits, four or eight at a
    /// time ([`EdgePairLanes`]), then, one at a time in order, the count, the witnesses'
    /// skip or the full test and the offer. (Out of line, so that its registers do not
    /// crowd the face axes' projections; it enters `variant`'s build again, as it runs out
    /// of line.)
    #[inline(never)]
    pub(super) fn visit_edge_axes(
        &self,
        variant: Variant,
        still: f32,
        touch: f32,
        latest: &mut Latest,
    ) {
        self.visit::<true>(variant, still, touch, latest)
    }

    /// [`Self::visit_edge_axes`] with the edge pairs gathered and settled `L::COUNT` at a
    /// time (and with eight, the Gauss-map loops eight lanes at a time too).
    #[inline(always)]
    pub(super) fn visit_edge_axes_in<L: Lanes>(
        &self,
        isa: L::Isa,
        variant: Variant,
        still: f32,
        touch: f32,
        latest: &mut Latest,
    ) {
        let (shape_a, shape_b) = (self.pair.a.shape, self.pair.b.shape);
        let (lanes_a, lanes_b) = (self.lanes_a, self.lanes_b);
        let edges_b = shape_b.edges();
        let eight = L::eight_wide(isa);
        let (antipodes_a, antipodes_b) = (&lanes_a.face_antipodes, &lanes_b.face_antipodes);
        // The witnesses' argument needs every projection finite (no NaN from an overflow).
        let witnesses =
            shape_a.bounding_radius() < WITNESS_LIMIT && shape_b.bounding_radius() < WITNESS_LIMIT;
        let faces_a = shape_a.face_count();
        let mut signs = [0u64; SMALL_FEATURES];
        let signs = &mut signs[..faces_a];
        let mut side_values: SideValues =
            [const { [const { MaybeUninit::uninit() }; SMALL_FEATURES] }; SMALL_FEATURES];
        // The edges of A none of whose axes can change the answer are left out, and only
        // the faces of the others are compared with B's arcs.
        let (visit, faces) = if witnesses && variant.arc_bound() {
            let visit = self.arcs_to_visit::<L>(isa, latest, still, touch);
            let mut faces = 0u64;
            for (i, ea) in shape_a.edges().iter().enumerate() {
                if visit & (1 << i) != 0 {
                    faces |= (1 << ea.faces[0]) | (1 << ea.faces[1]);
                }
            }
            (visit, faces)
        } else {
            (u64::MAX, u64::MAX)
        };
        self.face_sides(eight, faces, signs, &mut side_values);
        let signs = &*signs;
        // SAFETY: `face_sides` wrote `side_values[f][j]` for every face `f` of A in `faces`
        // and every edge `j` of B, and only those are read (the faces of the edges visited).
        let side = |f: usize, j: usize| unsafe { side_values[f][j].assume_init() };
        // B's face normals against A's edge's arc, written by `crossing_arcs` for every face
        // of B.
        let mut normal_sides = [0.0f32; SMALL_FEATURES];
        // Candidates `L::COUNT` at a time, in the order they are found; each full group is
        // settled before the next is gathered.
        let mut pairs = EdgePairLanes::new();
        for (i, ea) in shape_a.edges().iter().enumerate() {
            if visit & (1 << i) == 0 {
                latest.pruned.arcs += 1;
                continue;
            }
            let arc = shape_a.edge_arc(i)[2];
            let faces = [ea.faces[0] as usize, ea.faces[1] as usize];
            let mut mask = self.crossing_arcs(eight, arc, faces, signs, &mut normal_sides);
            if mask == 0 {
                continue;
            }
            let edge_a = EdgeA {
                index: i as u32,
                tail: shape_a.vertex(ea.tail as usize),
                head: shape_a.vertex(ea.head as usize),
                far: shape_a.vertex(antipodes_a[faces[0]] as usize),
            };
            while mask != 0 {
                let j = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let eb = &edges_b[j];
                let normal_side = |f: u32| normal_sides[f as usize];
                let edge_b = EdgeB {
                    index: j as u32,
                    tail: self.vertex_b(eb.tail as usize),
                    head: self.vertex_b(eb.head as usize),
                    far: self.vertex_b(antipodes_b[eb.faces[0] as usize] as usize),
                };
                let sides = [
                    normal_side(eb.faces[0]),
                    normal_side(eb.faces[1]),
                    side(faces[0], j),
                    side(faces[1], j),
                ];
                pairs.push(&edge_a, &edge_b, sides);
                if pairs.len == L::COUNT {
                    self.settle::<L>(isa, &pairs, still, touch, witnesses, latest);
                    pairs.len = 0;
                }
            }
        }
        self.settle::<L>(isa, &pairs, still, touch, witnesses, latest);
    }

    /// [`Self::visit_edge_axes`]'s gathered edge pairs: their numbers side by side
    /// ([`EdgePairLanes::numbers`]), then one pair at a time in order the count, the
    /// witnesses' skip (when `witnesses`) or the full test and the offer. (Inlined at both
    /// calls: compiled with its caller, for AVX where it runs so.)
    #[inline(always)]
    fn settle<L: Lanes>(
        &self,
        isa: L::Isa,
        pairs: &EdgePairLanes,
        still: f32,
        touch: f32,
        witnesses: bool,
        latest: &mut Latest,
    ) {
        let vertices_a = self.pair.a.shape.vertex_lanes();
        let vertices_b = self.b.vertices.as_slice();
        let centroid_a = self.pair.a.shape.centroid();
        let numbers = pairs.numbers::<L>(isa, centroid_a, self.translation, self.velocity, still);
        let [x, y, z] = numbers.axis;
        for k in 0..pairs.len {
            if numbers.axes & (1 << k) == 0 {
                continue;
            }
            let may_skip = witnesses && numbers.moving & (1 << k) != 0;
            if may_skip && latest.unchanged_by(numbers.enter[k], numbers.exit[k]) {
                latest.tested += 1;
                latest.pruned.edges += 1;
                continue;
            }
            // The arcs cross at `axis`: A's edge is A's extreme along it and B's edge is
            // B's extreme along -axis.
            let axis = Vec3::new(x[k], y[k], z[k]);
            let ia = Interval::new(extent(vertices_a, axis).min, numbers.near_a[k]);
            let ib = Interval::new(numbers.near_b[k], extent(vertices_b, axis).max)
                .shifted(numbers.shift[k]);
            let speed = numbers.speed[k];
            let (t_enter, t_exit) = entry_and_exit(ia, ib, speed, still, touch);
            let id = AxisId::Edges(pairs.edge_a[k], pairs.edge_b[k]);
            let candidate = Candidate {
                id,
                axis,
                speed,
                t_enter,
            };
            latest.offer(candidate, t_exit);
        }
    }
}

/// [`LocalPair::face_sides`]'s values: for every face of A, every edge of B (on the stack,
/// written before read, never zeroed: 16 KB).
pub(super) type SideValues = [[MaybeUninit<f32>; SMALL_FEATURES]; SMALL_FEATURES];

/// Writes `lanes` to the first `N` places of `to`.
#[inline(always)]
fn write_lanes<const N: usize>(to: &mut [MaybeUninit<f32>], lanes: [f32; N]) {
    let to: &mut [MaybeUninit<f32>; N] = (&mut to[..N]).try_into().expect("N places");
    *to = lanes.map(MaybeUninit::new);
}

/// An edge of A on the small-body path (A's frame): its ends and the antipode of its first
/// face (the witness of A's far end).
pub(super) struct EdgeA {
    pub(super) index: u32,
    pub(super) tail: Vec3,
    pub(super) head: Vec3,
    pub(super) far: Vec3,
}

/// An edge of B turned into A's frame (not moved): its ends and the antipode of its first
/// face (the witness of B's far end).
pub(super) struct EdgeB {
    pub(super) index: u32,
    pub(super) tail: Vec3,
    pub(super) head: Vec3,
    pub(super) far: Vec3,
}

/// The most edge pairs [`EdgePairLanes`] holds: eight, for [`Eight`]; [`Four`] takes the
/// first four places.
const PAIR_LANES: usize = 8;

/// Up to [`PAIR_LANES`] edge pairs that passed the sign bits, side by side (lane `k` is the
/// `k`-th pair found; `[x, y, z]` rows), for [`Self::numbers`].
pub(super) struct EdgePairLanes {
    edge_a: [u32; PAIR_LANES],
    edge_b: [u32; PAIR_LANES],
    tail_a: [[f32; PAIR_LANES]; 3],
    head_a: [[f32; PAIR_LANES]; 3],
    far_a: [[f32; PAIR_LANES]; 3],
    tail_b: [[f32; PAIR_LANES]; 3],
    head_b: [[f32; PAIR_LANES]; 3],
    far_b: [[f32; PAIR_LANES]; 3],
    /// `n . arc` of B's edge's two faces against A's arc (`cba` and `dba` negated), then
    /// `adc` and `bdc` ([`LocalPair::face_sides`]).
    sides: [[f32; PAIR_LANES]; 4],
    pub(super) len: usize,
}

/// What [`EdgePairLanes::numbers`] finds, lane by lane.
pub(super) struct EdgePairNumbers {
    /// Bit `k`: the pair's arcs cross and its edges are not parallel (an axis to test).
    pub(super) axes: u32,
    /// Bit `k`: `|speed| > still` (a witness bound may skip the axis).
    pub(super) moving: u32,
    pub(super) axis: [[f32; PAIR_LANES]; 3],
    /// A's edge along the axis (A's maximum), B's edge along it unshifted (B's minimum
    /// before the shift), and the shift `axis . translation`.
    pub(super) near_a: [f32; PAIR_LANES],
    pub(super) near_b: [f32; PAIR_LANES],
    pub(super) shift: [f32; PAIR_LANES],
    pub(super) speed: [f32; PAIR_LANES],
    /// The witnesses' bounds on the entry and exit times (see [`EdgePairLanes::numbers`]).
    pub(super) enter: [f32; PAIR_LANES],
    pub(super) exit: [f32; PAIR_LANES],
}

impl EdgePairLanes {
    #[inline(always)]
    pub(super) fn new() -> Self {
        // Zeroed once: lanes beyond `len` are computed (from an earlier group's numbers or
        // zeros) and never read.
        EdgePairLanes {
            edge_a: [0; PAIR_LANES],
            edge_b: [0; PAIR_LANES],
            tail_a: [[0.0; PAIR_LANES]; 3],
            head_a: [[0.0; PAIR_LANES]; 3],
            far_a: [[0.0; PAIR_LANES]; 3],
            tail_b: [[0.0; PAIR_LANES]; 3],
            head_b: [[0.0; PAIR_LANES]; 3],
            far_b: [[0.0; PAIR_LANES]; 3],
            sides: [[0.0; PAIR_LANES]; 4],
            len: 0,
        }
    }

    /// Appends a pair (the caller settles the group when it holds as many as its lanes).
    #[inline(always)]
    pub(super) fn push(&mut self, a: &EdgeA, b: &EdgeB, sides: [f32; 4]) {
        let k = self.len;
        let put = |rows: &mut [[f32; PAIR_LANES]; 3], v: Vec3| {
            rows[0][k] = v.x;
            rows[1][k] = v.y;
            rows[2][k] = v.z;
        };
        self.edge_a[k] = a.index;
        self.edge_b[k] = b.index;
        put(&mut self.tail_a, a.tail);
        put(&mut self.head_a, a.head);
        put(&mut self.far_a, a.far);
        put(&mut self.tail_b, b.tail);
        put(&mut self.head_b, b.head);
        put(&mut self.far_b, b.far);
        for (row, side) in self.sides.iter_mut().zip(sides) {
            row[k] = side;
        }
        self.len += 1;
    }

    /// The pairs' axes and the numbers the skip test and the full test share, `L::COUNT`
    /// at a time (A's centroid in every lane), each
    /// lane computed with the scalar operations of SAT's edge axis, in their order (IEEE
    /// products, sums, square root and quotient, no fused multiply-add: the same bits):
    ///
    /// ```text
    /// Gauss map: cba dba < 0, adc bdc < 0, cba bdc > 0     (cba = -sides[0], dba = -sides[1])
    /// cross = dir_a x dir_b;  parallel when |cross|^2 < tol^2 |dir_a|^2 |dir_b|^2 (or a NaN)
    /// axis = cross * (1 / sqrt(|cross|^2)), negated when axis . (tail_a - centroid_a) < 0
    /// near_a = axis . tail_a,  near_b = axis . tail_b,  shift = axis . translation,
    /// speed = velocity . axis
    /// ```
    ///
    /// and the witnesses' bounds for `Latest::unchanged_by`: the far ends `far_a = axis .
    /// (A's witness) >= A's min` and `far_b = axis . (B's witness) + shift <= B's max`
    /// (each computed as the scan computes a vertex's projection, so bounded by the scan's
    /// extreme). With the facing extremes exact (`near_a` is A's maximum, `near_b + shift`
    /// B's minimum, as the full test computes them) the time that uses only them is exact
    /// and the other bounded, as rounding is monotone (a larger numerator gives a quotient
    /// at least as large for a positive speed and at most as large for a negative one):
    ///
    /// ```text
    /// closing = near_a - (near_b + shift),  opening = far_a - far_b  (opening >= the exact one)
    /// speed > 0: enter = opening / speed >= the entry,  exit = closing / speed, exact
    /// speed < 0: enter = closing / speed, exact,        exit = opening / speed <= the exit
    /// ```
    ///
    /// (`enter` an upper bound of the entry, `exit` a lower bound of the exit). Still axes
    /// (`|speed| <= still`, or a NaN) are not `moving` and are not skipped.
    #[inline(always)]
    pub(super) fn numbers<L: Lanes>(
        &self,
        isa: L::Isa,
        centroid_a: Vec3,
        translation: Vec3,
        velocity: Vec3,
        still: f32,
    ) -> EdgePairNumbers {
        // Loops, not `map`, where `Eight`s are made: built inside AVX code only when inlined
        // there (see `sat::corner_lanes`).
        let load = |row: &[f32; PAIR_LANES]| L::load_from(isa, row);
        let rows = |r: &[[f32; PAIR_LANES]; 3]| [load(&r[0]), load(&r[1]), load(&r[2])];
        let splat = |v: Vec3| [L::splat(isa, v.x), L::splat(isa, v.y), L::splat(isa, v.z)];
        let dot = |[x, y, z]: [L; 3], [a, b, c]: [L; 3]| L::dot3(x, y, z, a, b, c);
        let minus = |p: [L; 3], q: [L; 3]| [p[0].minus(q[0]), p[1].minus(q[1]), p[2].minus(q[2])];
        let scale = |p: [L; 3], s: L| [p[0].mul(s), p[1].mul(s), p[2].mul(s)];
        let zero = L::splat(isa, 0.0);
        // The Gauss-map test.
        let [n0, n1, adc, bdc] = [0, 1, 2, 3].map(|r| load(&self.sides[r]));
        let (cba, dba) = (n0.neg(), n1.neg());
        let crossing = zero
            .gt(cba.mul(dba))
            .and(zero.gt(adc.mul(bdc)))
            .and(cba.mul(bdc).gt(zero));
        // SAT's edge axis: `Vec3::cross`, the parallel test, `Vec3::normalize`, the turn.
        let (tail_a, tail_b) = (rows(&self.tail_a), rows(&self.tail_b));
        let dir_a = minus(rows(&self.head_a), tail_a);
        let dir_b = minus(rows(&self.head_b), tail_b);
        let [ax, ay, az] = dir_a;
        let [bx, by, bz] = dir_b;
        let cross = [
            ay.mul(bz).minus(by.mul(az)),
            az.mul(bx).minus(bz.mul(ax)),
            ax.mul(by).minus(bx.mul(ay)),
        ];
        let cross_squared = dot(cross, cross);
        let least = L::splat(isa, PARALLEL_TOLERANCE * PARALLEL_TOLERANCE)
            .mul(dot(dir_a, dir_a))
            .mul(dot(dir_b, dir_b));
        let crosses = least.le(cross_squared);
        let recip = L::splat(isa, 1.0).div(cross_squared.sqrt());
        let unit = scale(cross, recip);
        let outward = minus(tail_a, splat(centroid_a));
        let inward = zero.gt(dot(unit, outward));
        let turn = |c: L| inward.select(c.neg(), c);
        let axis = [turn(unit[0]), turn(unit[1]), turn(unit[2])];
        // The facing extremes, the shift and the speed.
        let near_a = dot(axis, tail_a);
        let near_b = dot(axis, tail_b);
        let shift = dot(axis, splat(translation));
        let speed = dot(splat(velocity), axis);
        // The witnesses' bounds.
        let far_a = dot(axis, rows(&self.far_a));
        let far_b = dot(axis, rows(&self.far_b)).add(shift);
        let closing = near_a.minus(near_b.add(shift));
        let opening = far_a.minus(far_b);
        let approaching = zero.gt(speed);
        let enter = approaching.select(closing, opening).div(speed);
        let exit = approaching.select(opening, closing).div(speed);
        let still = L::splat(isa, still);
        let moving = speed.gt(still).or(still.neg().gt(speed));
        let mut numbers = EdgePairNumbers {
            axes: crossing.and(crosses).mask_bits(),
            moving: moving.mask_bits(),
            axis: [[0.0; PAIR_LANES]; 3],
            near_a: [0.0; PAIR_LANES],
            near_b: [0.0; PAIR_LANES],
            shift: [0.0; PAIR_LANES],
            speed: [0.0; PAIR_LANES],
            enter: [0.0; PAIR_LANES],
            exit: [0.0; PAIR_LANES],
        };
        for (c, lanes) in axis.into_iter().enumerate() {
            lanes.store_to(&mut numbers.axis[c]);
        }
        near_a.store_to(&mut numbers.near_a);
        near_b.store_to(&mut numbers.near_b);
        shift.store_to(&mut numbers.shift);
        speed.store_to(&mut numbers.speed);
        enter.store_to(&mut numbers.enter);
        exit.store_to(&mut numbers.exit);
        numbers
    }
}
