//! SAT for two small bodies, untraced: at most 64 vertices and 64 faces and at most 128 edges
//! each ([`is_small`]: up to about 32-point hulls, every prism the scenes use), when they are
//! not two boxes ([`super::cuboid`]).
//!
//! Why it gives the reference's answer: it runs the reference's loop on the same numbers,
//! only in another arrangement. The face normals are placed once by the rotation matrices,
//! as the reference places them, and the support values along all of one body's normals are
//! taken in one pass over the other's vertices, four normals at a time
//! ([`face_support_values`]: [`face_support_value`]'s bits). The edges are placed once, from
//! those normals and the vertices turned by the same matrices (the reference's frames). Every
//! edge pair takes the Gauss-map test before the parallel test (a pair must pass both, so the
//! order changes no axis), and the test's numbers are the reference's products and sums,
//! computed in vector lanes or read from tables of side values ([`small_edge_pairs`]); only
//! the pairs that cross take the parallel test and the axis, in the reference's order, so the
//! same axes, separations, winner and counts.

use super::reference::{crossing_axis, finish, prefer, turned, EdgeFrame};
use super::support::{face_support_value, SMALL_BODY, SMALL_EDGES};
use super::{preference_tolerance, AxisId, Best, Output};
use crate::geom3::{FaceEdges, Shape3Kind};
use crate::inline_vec::InlineVec;
use crate::query3::{Placed3, PolyPair};
use crate::simd::Four;
use glam::{Mat3A, Vec3};
use std::mem::MaybeUninit;

/// SAT for two small bodies ([`is_small`]), untraced: the face loops with the support values
/// of all of a body's normals at once, then [`small_edge_pairs`]. `seen` is told each pair
/// the side tables find crossing ([`small_edge_pairs`]).
pub(crate) fn sat(pair: &PolyPair, seen: &mut impl FnMut(u32, u32)) -> Output {
    let (a, b) = (&pair.a, &pair.b);
    let (mut tested, mut pruned) = (0u32, 0u32);
    // Each face normal placed by the body's rotation matrix ([`turned`], as the reference
    // places it), and the other body's support values along all of them in one pass
    // ([`face_support_values`]).
    let mut normals_a: InlineVec<Vec3, SMALL_BODY> = InlineVec::new();
    let mut normals_b: InlineVec<Vec3, SMALL_BODY> = InlineVec::new();
    let (mut tops_a, mut tops_b) = ([0.0f32; SMALL_BODY], [0.0f32; SMALL_BODY]);
    for i in 0..a.shape.face_count() {
        normals_a.push(turned(&a.frame, a.shape.face_normal(i)));
    }
    for j in 0..b.shape.face_count() {
        normals_b.push(turned(&b.frame, b.shape.face_normal(j)));
    }
    face_support_values(b, &b.frame_inverse, normals_a.as_slice(), &mut tops_b);
    face_support_values(a, &a.frame_inverse, normals_b.as_slice(), &mut tops_a);
    let mut face_a = Best::none(AxisId::FaceA(0));
    for (i, (&n, &support)) in normals_a.as_slice().iter().zip(&tops_b).enumerate() {
        let offset = a.shape.face_offset(i) + n.dot(a.translation);
        let separation = -support - offset;
        face_a.offer(separation, n, AxisId::FaceA(i as u32));
        tested += 1;
    }
    let mut face_b = Best::none(AxisId::FaceB(0));
    for (j, (&n, &support)) in normals_b.as_slice().iter().zip(&tops_a).enumerate() {
        let offset = b.shape.face_offset(j) + n.dot(b.translation);
        let separation = -support - offset;
        face_b.offer(separation, -n, AxisId::FaceB(j as u32));
        tested += 1;
    }
    let mut edge = Best::none(AxisId::Edges(0, 0));
    let normals = Some([normals_a.as_slice(), normals_b.as_slice()]);
    let counts = (&mut tested, &mut pruned);
    small_edge_pairs(pair, normals, a.centroid(), &mut edge, counts, seen);
    let best = prefer(face_a, face_b, edge, preference_tolerance(pair));
    finish(pair, best, tested, pruned)
}

/// B's edges that cross one edge of A are looked up this many at a time (a `u64` of bytes).
const LANES: usize = 8;

/// `out[k] = face_support_value(body, -n, into * -n)` for each placed face normal `n =
/// normals[k]` of the other body (`into`: `body`'s inverse rotation matrix), bit for bit,
/// for a small body ([`is_small`]). A cuboid takes [`face_support_value`]'s closed form per
/// face. Other bodies take four normals at a time against every vertex: per lane the largest
/// dot product `(v.x l.x + v.y l.y) + v.z l.z` of the scan (`Polyhedron::support_value_scan`:
/// the same products and sums, and the same maximum, a NaN never taken), with no reduction
/// across lanes and no call per face; a lane whose top is zero or no number takes
/// [`face_support_value`] itself, in face order, as the scan's `None` does.
pub(super) fn face_support_values(
    body: &Placed3,
    into: &Mat3A,
    normals: &[Vec3],
    out: &mut [f32; SMALL_BODY],
) {
    let mut start = 0usize;
    if let Shape3Kind::Cuboid { .. } = body.shape.kind() {
        for (slot, n) in out.iter_mut().zip(normals) {
            *slot = face_support_value(body, -*n, turned(into, -*n), &mut start);
        }
        return;
    }
    // `into`'s columns and the translation, one coordinate a register.
    let splat3 = |v: Vec3| [v.x, v.y, v.z].map(Four::splat);
    let [ix, iy, iz] = [into.x_axis, into.y_axis, into.z_axis].map(|c| splat3(c.into()));
    let [tx, ty, tz] = splat3(body.translation);
    let (zero, none) = (Four::splat(0.0), Four::splat(f32::NEG_INFINITY));
    // Each vertex's coordinates splatted once per call, not once per group of normals.
    let mut splats: InlineVec<[Four; 3], SMALL_BODY> = InlineVec::new();
    for v in body.shape.vertices().iter().take(SMALL_BODY) {
        splats.push([v.x, v.y, v.z].map(Four::splat));
    }
    let splats = splats.as_slice();
    for (group, slots) in normals.chunks(4).zip(out.chunks_mut(4)) {
        // The directions `-n` by coordinate (negating is exact), padded with zeros.
        let mut dirs = [[0.0f32; 4]; 3];
        for (l, n) in group.iter().enumerate() {
            (dirs[0][l], dirs[1][l], dirs[2][l]) = (-n.x, -n.y, -n.z);
        }
        let [dx, dy, dz] = dirs.each_ref().map(Four::load);
        // `turned(into, d)` per lane, `(x_axis d.x + y_axis d.y) + z_axis d.z` by coordinate.
        let [x, y, z] = [0, 1, 2].map(|k| Four::dot3(ix[k], iy[k], iz[k], dx, dy, dz));
        let mut best = none;
        for [vx, vy, vz] in splats {
            // Per lane `if d > best { d } else { best }`, as the scan.
            best = Four::dot3(*vx, *vy, *vz, x, y, z).max(best);
        }
        // `top + dir.dot(body.translation)` per lane.
        let values = best.add(Four::dot3(dx, dy, dz, tx, ty, tz)).to_array();
        // Lanes whose top is zero or no number (never a NaN: `max` keeps `best`); one
        // branch a group, the padding's lanes masked off.
        let rare = best
            .le(zero)
            .and(zero.le(best))
            .or(best.le(none))
            .mask_bits()
            & ((1u32 << group.len()) - 1);
        if rare == 0 {
            slots[..group.len()].copy_from_slice(&values[..group.len()]);
            continue;
        }
        for (l, ((slot, n), value)) in slots.iter_mut().zip(group).zip(values).enumerate() {
            let dir = -*n;
            *slot = if rare & (1 << l) == 0 {
                value
            } else {
                face_support_value(body, dir, turned(into, dir), &mut start)
            };
        }
    }
}

/// Writes each edge's frame of a small body into `frames`, from its vertices and face
/// normals placed once (the same arithmetic as [`EdgeFrame::new`], so the same bits, with
/// each vertex and normal turned once instead of once per edge that uses it).
pub(super) fn place_small_frames(body: &Placed3, frames: &mut InlineVec<EdgeFrame, SMALL_EDGES>) {
    let shape = body.shape;
    let mut vertices = [Vec3::ZERO; SMALL_BODY];
    let vertices = &mut vertices[..shape.vertices().len()];
    turn_all(body.rotation, vertices, |v| shape.vertex(v));
    for v in vertices.iter_mut() {
        *v += body.translation;
    }
    let mut normals = [Vec3::ZERO; SMALL_BODY];
    let normals = &mut normals[..shape.face_count()];
    turn_all(body.rotation, normals, |f| shape.face_normal(f));
    let normals = &*normals;
    let vertices = &*vertices;
    for e in shape.edges() {
        let tail = vertices[e.tail as usize];
        let (n0, n1) = (normals[e.faces[0] as usize], normals[e.faces[1] as usize]);
        frames.push(EdgeFrame {
            tail,
            dir: vertices[e.head as usize] - tail,
            n0,
            n1,
            arc: n1.cross(n0),
        });
    }
}

/// Writes each edge's frame of a small body into `frames`, from its vertices placed once by
/// the body's rotation matrix ([`turned`]) and its face normals as the face loops of [`sat`]
/// placed them (by the same matrix): [`place_small_frames`]'s arithmetic with the matrix in
/// place of the quaternion, so the same frames up to the last bits.
pub(super) fn place_small_frames_turned(
    body: &Placed3,
    normals: &[Vec3],
    frames: &mut InlineVec<EdgeFrame, SMALL_EDGES>,
) {
    let shape = body.shape;
    let mut vertices = [Vec3::ZERO; SMALL_BODY];
    let vertices = &mut vertices[..shape.vertices().len()];
    for (v, local) in vertices.iter_mut().zip(shape.vertices()) {
        *v = turned(&body.frame, *local) + body.translation;
    }
    let vertices = &*vertices;
    // Appended with the length set once (`is_small` bounds the edges).
    let edges = shape.edges();
    debug_assert!(frames.is_empty() && edges.len() <= SMALL_EDGES);
    frames.extend(edges.iter().map(|e| {
        let tail = vertices[e.tail as usize];
        let (n0, n1) = (normals[e.faces[0] as usize], normals[e.faces[1] as usize]);
        EdgeFrame {
            tail,
            dir: vertices[e.head as usize] - tail,
            n0,
            n1,
            arc: n1.cross(n0),
        }
    }));
}

/// `out[i] = rotation * local(i)` for every `i`, bit for bit the product glam's `Quat * Vec3`
/// gives (see [`Turn`]), with the quaternion's terms computed once for all the vectors.
#[inline]
pub(super) fn turn_all(rotation: glam::Quat, out: &mut [Vec3], local: impl Fn(usize) -> Vec3) {
    let turn = Turn::new(rotation);
    for (i, o) in out.iter_mut().enumerate() {
        *o = turn.apply(local(i));
    }
}

/// A rotation by the quaternion `(b, w)` with its terms computed once: `apply(v)` is
/// `v (w^2 - b.b) + b (2 (v.b)) + (b x v) 2w`, the operations of glam's `Quat * Vec3` in
/// the same order, so the same bits (tested), and plain arithmetic when many vectors are
/// turned by one rotation.
#[derive(Clone, Copy)]
pub(super) struct Turn {
    b: [f32; 3],
    /// `w^2 - b.b` and `2w`.
    k: f32,
    w2: f32,
}

impl Turn {
    #[inline]
    pub(super) fn new(rotation: glam::Quat) -> Self {
        let [bx, by, bz, w] = rotation.to_array();
        Turn {
            b: [bx, by, bz],
            k: w * w - ((bx * bx + by * by) + bz * bz),
            w2: w * 2.0,
        }
    }

    #[inline]
    pub(super) fn apply(&self, v: Vec3) -> Vec3 {
        let ([bx, by, bz], k, w2) = (self.b, self.k, self.w2);
        let d2 = ((v.x * bx + v.y * by) + v.z * bz) * 2.0;
        let cross = Vec3::new(
            by * v.z - v.y * bz,
            bz * v.x - v.z * bx,
            bx * v.y - v.x * by,
        );
        Vec3::new(
            (v.x * k + bx * d2) + cross.x * w2,
            (v.y * k + by * d2) + cross.y * w2,
            (v.z * k + bz * d2) + cross.z * w2,
        )
    }
}

/// The edge-pair loop for two small bodies ([`is_small`]), in the reference's order with
/// the reference loop's arithmetic, so the same axes and the same bits as
/// [`edge_pair_axis`] pair by pair, with less work:
/// - each vertex and face normal is placed once, not once per edge that uses it (the
///   normals by the face loops, when they pass them in `normals`, A's then B's; the hull
///   path places both by the bodies' rotation matrices, [`place_small_frames_turned`]);
/// - with finite normals ([`bounded`]) and more than [`TABLE_MIN_PAIRS`] edge pairs, the
///   Gauss-map test's numbers come from two
///   tables of side values and only the pairs whose sign bits allow a crossing take it
///   ([`table_edge_pairs`]: the same numbers and products, so the same pairs cross);
/// - otherwise B's edges are kept one array per coordinate (their Gauss-map arcs `c = -n0`,
///   `d = -n1` and the plane `d x c`), so that the Gauss-map tests of one edge of A against
///   every edge of B are a loop the compiler turns into vector instructions, term for term
///   the products and sums of [`arcs_cross`]; only the pairs whose arcs cross take the
///   parallel test and the axis ([`crossing_axis`]).
///
/// `seen` is told each pair the side tables find crossing, in order (the tests watch the
/// walk through it; the dispatcher passes a no-op).
pub(super) fn small_edge_pairs(
    pair: &PolyPair,
    normals: Option<[&[Vec3]; 2]>,
    centroid_a: Vec3,
    edge: &mut Best,
    (tested, pruned): (&mut u32, &mut u32),
    seen: &mut impl FnMut(u32, u32),
) {
    let mut frames_a = InlineVec::new();
    let mut frames_b = InlineVec::new();
    match normals {
        // The hull path: normals and vertices placed by the bodies' matrices.
        Some([normals_a, normals_b]) => {
            place_small_frames_turned(&pair.a, normals_a, &mut frames_a);
            place_small_frames_turned(&pair.b, normals_b, &mut frames_b);
        }
        None => {
            place_small_frames(&pair.a, &mut frames_a);
            place_small_frames(&pair.b, &mut frames_b);
        }
    }
    let frames_b = frames_b.as_slice();
    // With finite normals and many pairs: the pairs that cross, from tables of side values.
    // (Every small body carries its lanes; without them the lane loop below runs.)
    let lanes_b = pair.b.shape.feature_lanes();
    if let (Some([normals_a, normals_b]), Some(lanes_b)) = (normals, lanes_b) {
        let many = frames_a.as_slice().len() * frames_b.len() > TABLE_MIN_PAIRS;
        if many && bounded(normals_a) && bounded(normals_b) {
            let frames_a = frames_a.as_slice();
            let normals = [normals_a, normals_b];
            let face_edges = &lanes_b.face_edges;
            let axes = table_edge_pairs(
                pair, frames_a, frames_b, normals, face_edges, centroid_a, edge, seen,
            );
            *tested += axes;
            // Every other pair was pruned (Gauss map or parallel).
            *pruned += (frames_a.len() * frames_b.len()) as u32 - axes;
            return;
        }
    }
    // Otherwise every pair in turn. B's edges by coordinate: c (x, y, z), d (x, y, z), the
    // plane d x c (x, y, z), padded with zeros (which never cross) to a whole number of
    // LANES.
    let n = frames_b.len();
    let padded = n.div_ceil(LANES) * LANES;
    let mut columns: [InlineVec<f32, SMALL_EDGES>; 9] = std::array::from_fn(|_| InlineVec::new());
    for f in frames_b {
        let (c, d) = (-f.n0, -f.n1);
        for (column, value) in columns
            .iter_mut()
            .zip([c.x, c.y, c.z, d.x, d.y, d.z, f.arc.x, f.arc.y, f.arc.z])
        {
            column.push(value);
        }
    }
    for column in columns.iter_mut() {
        for _ in n..padded {
            column.push(0.0);
        }
    }
    let [cx, cy, cz, dx, dy, dz, px, py, pz] = columns.each_ref().map(|c| &c.as_slice()[..padded]);
    let mut crossing = [0u8; SMALL_EDGES];
    let crossing = &mut crossing[..padded];
    let before = *tested;
    for (i, a) in frames_a.as_slice().iter().enumerate() {
        let (arc, a0, a1) = (a.arc, a.n0, a.n1);
        for j in 0..padded {
            // As `arcs_cross(a.n0, a.n1, a.arc, c, d, d x c)`, without its early exit (a NaN
            // product goes on to the other two tests there too: hence the negation).
            let cba = (cx[j] * arc.x) + (cy[j] * arc.y) + (cz[j] * arc.z);
            let dba = (dx[j] * arc.x) + (dy[j] * arc.y) + (dz[j] * arc.z);
            let adc = (a0.x * px[j]) + (a0.y * py[j]) + (a0.z * pz[j]);
            let bdc = (a1.x * px[j]) + (a1.y * py[j]) + (a1.z * pz[j]);
            #[allow(clippy::neg_cmp_op_on_partial_ord)]
            let apart_ends = !(cba * dba >= 0.0);
            crossing[j] = (apart_ends & (adc * bdc < 0.0) & (cba * bdc > 0.0)) as u8;
        }
        // One byte per edge of B, LANES at a time: visit the ones that cross, in
        // order.
        for (k, block) in crossing.chunks_exact(LANES).enumerate() {
            let mut lanes = u64::from_le_bytes(block.try_into().expect("LANES bytes"));
            while lanes != 0 {
                let l = (lanes.trailing_zeros() / 8) as usize;
                lanes &= !(0xff << (8 * l));
                let j = k * LANES + l;
                let b = &frames_b[j];
                if let Some((axis, separation)) = crossing_axis(a, b, centroid_a) {
                    edge.offer(separation, axis, AxisId::Edges(i as u32, j as u32));
                    *tested += 1;
                }
            }
        }
    }
    // Every other pair was pruned (Gauss map or parallel).
    let pairs = frames_a.as_slice().len() * frames_b.len();
    *pruned += pairs as u32 - (*tested - before);
}

/// Whether every component of the placed face normals is within 2 in size (they are unit
/// vectors turned by a unit quaternion; a NaN fails). Then every arc plane (a cross product of
/// two normals) has components within 8, every side value of a [`SideTable`] is finite
/// (within 48) and so are their products: none is a NaN or an infinity.
pub(super) fn bounded(normals: &[Vec3]) -> bool {
    normals
        .iter()
        .all(|n| n.x.abs() <= 2.0 && n.y.abs() <= 2.0 && n.z.abs() <= 2.0)
}

/// Untraced, two small bodies with more edge pairs than this find their crossing pairs from
/// side tables ([`table_edge_pairs`]) instead of the lane loop of [`small_edge_pairs`] (the
/// same pairs, axes and bits either way): the tables' setup costs a fixed amount, the lane
/// loop's cost grows with the pairs (the measurements are in `docs/performance.md`).
pub(super) const TABLE_MIN_PAIRS: usize = 256;

/// Bit masks over up to [`SMALL_EDGES`] edges (bit `j % 64` of word `j / 64`).
type EdgeBits = [u64; 2];

/// The face normals of one body against the Gauss-map arc planes of the other's edges:
/// `values[g][j] = n[g] . arc[j]` (`(n.x arc.x + n.y arc.y) + n.z arc.z`), and per face the
/// sign bits of its row (bit `j` set for a negative value or `-0`).
struct SideTable {
    values: [[MaybeUninit<[f32; 4]>; SMALL_EDGES / 4]; SMALL_BODY],
    signs: [MaybeUninit<EdgeBits>; SMALL_BODY],
}

impl SideTable {
    #[inline]
    fn new() -> Self {
        SideTable {
            values: [const { [const { MaybeUninit::uninit() }; SMALL_EDGES / 4] }; SMALL_BODY],
            signs: [const { MaybeUninit::uninit() }; SMALL_BODY],
        }
    }

    /// Fills the rows of `normals` (one body's placed face normals) against the planes of
    /// `frames` (the other body's edges), four edges at a time.
    fn fill(&mut self, normals: &[Vec3], frames: &[EdgeFrame]) {
        // The planes four edges at a time, by coordinate, padded with zeros (no side).
        let groups = frames.len().div_ceil(4);
        let mut planes = [const { MaybeUninit::<[Four; 3]>::uninit() }; SMALL_EDGES / 4];
        for (slot, chunk) in planes.iter_mut().zip(frames.chunks(4)) {
            let mut xyz = [[0.0f32; 4]; 3];
            for (l, f) in chunk.iter().enumerate() {
                (xyz[0][l], xyz[1][l], xyz[2][l]) = (f.arc.x, f.arc.y, f.arc.z);
            }
            *slot = MaybeUninit::new(xyz.each_ref().map(Four::load));
        }
        // SAFETY: the first `groups` entries were written above.
        let planes: &[[Four; 3]] =
            unsafe { std::slice::from_raw_parts(planes.as_ptr().cast(), groups) };
        let edges = frames.len();
        let real = [0, 1].map(|w| match edges.saturating_sub(64 * w) {
            0 => 0,
            n @ 1..64 => (1u64 << n) - 1,
            _ => u64::MAX,
        });
        for (g, n) in normals.iter().enumerate() {
            let (x, y, z) = (Four::splat(n.x), Four::splat(n.y), Four::splat(n.z));
            let row = &mut self.values[g];
            let mut signs = [0u64; 2];
            for (word, (planes, row)) in planes.chunks(16).zip(row.chunks_mut(16)).enumerate() {
                let mut bits = 0u64;
                for (k, (p, slot)) in planes.iter().zip(row).enumerate() {
                    // `(n.x * arc.x) + (n.y * arc.y) + (n.z * arc.z)` per lane.
                    let side = Four::dot3(x, y, z, p[0], p[1], p[2]);
                    *slot = MaybeUninit::new(side.to_array());
                    bits |= u64::from(side.mask_bits()) << (4 * k);
                }
                // The padding's zeros may be -0: not edges.
                signs[word] = bits & real[word];
            }
            self.signs[g] = MaybeUninit::new(signs);
        }
    }

    /// The sign bits of row `g` over the first `64 W` edges (bit `j % 64` of word `j / 64`
    /// set for a negative value or `-0` of edge `j`). Only rows written by [`Self::fill`]
    /// may be asked for.
    #[inline(always)]
    fn sign_words<const W: usize>(&self, g: usize) -> [u64; W] {
        // SAFETY: `fill` wrote the rows of every face of its body; the callers ask for faces
        // of that body.
        let words = unsafe { self.signs[g].assume_init_ref() };
        std::array::from_fn(|w| words[w])
    }

    /// `values[g][j]`, written by [`Self::fill`].
    #[inline]
    fn value(&self, g: usize, j: usize) -> f32 {
        // SAFETY: as in `sign_words`, and `j` is an edge of the other body.
        unsafe { self.values[g].as_ptr().cast::<f32>().add(j).read() }
    }
}

/// The untraced edge-pair loop of two small bodies: the pairs the lane loop of
/// [`small_edge_pairs`] finds crossing, in its order, with its numbers, from side values.
///
/// Each of the four numbers of the Gauss-map test of edge `i` of A (faces `g0`, `g1`, arc
/// plane `b x a`) and edge `j` of B (faces `f0`, `f1`; `c = -n_B[f0]`, `d = -n_B[f1]`, plane
/// `d x c`) is one face normal of a body against one arc plane of the other:
/// `adc, bdc = n_A[g0], n_A[g1] . (d x c)_j` and `cba, dba = -(n_B[f0], n_B[f1] . (b x a)_i)`
/// (negating is exact). So a table holds A's faces (`normals_a`, placed) against B's edges,
/// and B's faces against A's edge's plane are taken per edge of A, `2 x faces x edges` dot
/// products a query instead of `4 x edges x edges`. The test needs `cba * dba < 0`,
/// `adc * bdc < 0` and `cba * bdc > 0`, and with finite values ([`bounded`]) a product is
/// negative (positive) only if its factors are non-zero with opposite (equal) signs: so only
/// the edges `j` whose numbers' sign bits allow all three can cross (a few a query). Each of
/// them then takes the whole test on the stored numbers, products included (a product of two
/// tiny factors that rounds to zero fails here as it does there), then the parallel test and
/// the axis. Returns the number of axes tested.
///
/// B's face normals are taken against A's edge's plane four faces at a time, their sign bits
/// turned into B's edges' bits by B's [`crate::geom3::FeatureLanes::face_edges`]
/// ([`arc_crossing_candidates`], the sweep's machinery): all three sign tests, one word of
/// candidates per edge of A (two when B has more than 64 edges: the 32-point hulls).
/// The walk is branch-light: every candidate takes the whole test with its answer kept as a
/// bit (no branch on it), and only then are the crossing ones visited, in order.
/// Its own function (not inlined) so that only the pairs that take it carry the tables'
/// stack.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn table_edge_pairs(
    pair: &PolyPair,
    frames_a: &[EdgeFrame],
    frames_b: &[EdgeFrame],
    [normals_a, normals_b]: [&[Vec3]; 2],
    face_edges_b: &[FaceEdges],
    centroid_a: Vec3,
    edge: &mut Best,
    seen: &mut impl FnMut(u32, u32),
) -> u32 {
    let mut sides_a = SideTable::new();
    sides_a.fill(normals_a, frames_b);
    let walk = (pair, &sides_a, frames_a, frames_b, normals_b);
    if frames_b.len() <= 64 {
        face_bit_edge_pairs::<1>(walk, face_edges_b, centroid_a, edge, seen)
    } else {
        face_bit_edge_pairs::<2>(walk, face_edges_b, centroid_a, edge, seen)
    }
}

/// [`table_edge_pairs`]'s walk over the edges of A, for B with at most `64 W` edges: per
/// edge of A, B's face normals against its plane ([`arc_crossing_candidates`]) give `cba`
/// and `dba` and, with the table's sign bits of `adc` and `bdc`, `W` words of candidates.
#[inline(always)]
fn face_bit_edge_pairs<const W: usize>(
    (pair, sides_a, frames_a, frames_b, normals_b): (
        &PolyPair,
        &SideTable,
        &[EdgeFrame],
        &[EdgeFrame],
        &[Vec3],
    ),
    face_edges: &[FaceEdges],
    centroid_a: Vec3,
    edge: &mut Best,
    seen: &mut impl FnMut(u32, u32),
) -> u32 {
    let (edges_a, edges_b) = (pair.a.shape.edges(), pair.b.shape.edges());
    // B's placed face normals four at a time by coordinate, padded with zeros (padding faces
    // hold no edge in `face_edges`).
    let mut lanes: InlineVec<[[f32; 4]; 3], { SMALL_BODY / 4 }> = InlineVec::new();
    for group in normals_b.chunks(4).take(SMALL_BODY / 4) {
        let mut rows = [[0.0f32; 4]; 3];
        for (l, n) in group.iter().enumerate() {
            (rows[0][l], rows[1][l], rows[2][l]) = (n.x, n.y, n.z);
        }
        lanes.push(rows);
    }
    let lanes = lanes.as_slice();
    // `n . arc` of B's faces against the current edge of A, written for every face of B.
    let mut normal_sides = [[0.0f32; 4]; SMALL_BODY / 4];
    let mut axes = 0u32;
    for (i, (a, e)) in frames_a.iter().zip(edges_a).enumerate() {
        let (g0, g1) = (e.faces[0] as usize, e.faces[1] as usize);
        let signs = [sides_a.sign_words::<W>(g0), sides_a.sign_words::<W>(g1)];
        let candidates =
            arc_crossing_candidates(lanes, face_edges, a.arc, signs, &mut normal_sides);
        let normal_side = |f: u32| normal_sides[f as usize / 4][f as usize % 4];
        for (w, mut candidates) in candidates.into_iter().enumerate() {
            // The whole test on every candidate, its answers as bits, then the axes.
            let mut crossing = 0u64;
            while candidates != 0 {
                let l = candidates.trailing_zeros();
                candidates &= candidates - 1;
                let j = 64 * w + l as usize;
                let eb = &edges_b[j];
                // As `arcs_cross(a.n0, a.n1, a.arc, c, d, d x c)` in the lane loop.
                let (cba, dba) = (-normal_side(eb.faces[0]), -normal_side(eb.faces[1]));
                let (adc, bdc) = (sides_a.value(g0, j), sides_a.value(g1, j));
                crossing |= u64::from(gauss_map_crossing(cba, dba, adc, bdc)) << l;
            }
            let bits = (64 * w, crossing);
            axes += crossing_axes(a, i, frames_b, bits, centroid_a, edge, seen);
        }
    }
    axes
}

/// Gregorius's test of [`arcs_cross`] on its four numbers, the same products: arcs `a-b`
/// (A's edge) and `c-d` (B's, negated) cross when c and d lie on opposite sides of plane
/// `b x a` (`cba dba < 0`), a and b on opposite sides of plane `d x c` (`adc bdc < 0`), and
/// the arcs lie in the same hemisphere (`cba bdc > 0`). Everything is finite where it is
/// used, so `x < 0` is `arcs_cross`'s `!(x >= 0)`. No branch: both walks keep the answer as
/// a bit.
#[inline(always)]
pub(crate) fn gauss_map_crossing(cba: f32, dba: f32, adc: f32, bdc: f32) -> bool {
    (cba * dba < 0.0) & (adc * bdc < 0.0) & (cba * bdc > 0.0)
}

/// Offers the axes of edge `i` of A (`a`) and the edges `base + l` of B for the bits `l` of
/// `crossing` (pairs whose arcs cross), in order, each told to `seen`; returns how many gave
/// an axis.
#[inline(always)]
fn crossing_axes(
    a: &EdgeFrame,
    i: usize,
    frames_b: &[EdgeFrame],
    (base, mut crossing): (usize, u64),
    centroid_a: Vec3,
    edge: &mut Best,
    seen: &mut impl FnMut(u32, u32),
) -> u32 {
    let mut axes = 0;
    while crossing != 0 {
        let j = base + crossing.trailing_zeros() as usize;
        crossing &= crossing - 1;
        let b = &frames_b[j];
        seen(i as u32, j as u32);
        if let Some((axis, separation)) = crossing_axis(a, b, centroid_a) {
            edge.offer(separation, axis, AxisId::Edges(i as u32, j as u32));
            axes += 1;
        }
    }
    axes
}

/// Candidates for a crossing of the Gauss-map arc of one edge of A (its plane `arc`) with
/// B's edges (bit `j % 64` of word `j / 64` for edge `j` of B; `W` words, B with at most
/// `64 W` edges): the three sign tests of Gregorius's test ([`gauss_map_crossing`]:
/// `cba dba < 0`, `adc bdc < 0`, `cba bdc > 0`) on sign bits. `adc` and `bdc` are A's edge's
/// two face normals against B's arc planes, and their sign bits come in `[adc, bdc]`.
/// `cba` and `dba` are B's negated face normals against `arc`; B has fewer faces than edges,
/// so they are taken once per face of B, four faces at a time (`normals`: B's normals in A's
/// frame, or placed, by coordinate): `sides[g]` gets `n . arc` for B's faces `4 g..4 g + 4`
/// (`cba` is exactly its negation, up to a zero's sign), and the faces' sign bits become
/// edges' bits through B's table [`crate::geom3::FeatureLanes::face_edges`] (`face_edges`).
/// A number's sign bit is set when it is negative (and for `-0.0`), clear when positive:
/// each test on signs passes every pair whose products pass, so the caller decides a
/// candidate by the products, where a zero fails whatever its sign. The swept SAT (`W = 1`)
/// and SAT's small-body walk share it.
#[inline(always)]
pub(crate) fn arc_crossing_candidates<const W: usize>(
    normals: &[[[f32; 4]; 3]],
    face_edges: &[FaceEdges],
    arc: Vec3,
    [adc, bdc]: [[u64; W]; 2],
    sides: &mut [[f32; 4]],
) -> [u64; W] {
    let (arc_x, arc_y, arc_z) = (Four::splat(arc.x), Four::splat(arc.y), Four::splat(arc.z));
    // Edges of B whose first (second) face has `n . arc` with its sign bit set: `cba`
    // (`dba`) has it clear.
    let (mut first, mut second) = ([0u64; W], [0u64; W]);
    let groups = normals.iter().zip(face_edges);
    for ((rows, edges), side) in groups.zip(sides.iter_mut()) {
        let row = |k: usize| Four::load(&rows[k]);
        let n_arc = Four::dot3(row(0), row(1), row(2), arc_x, arc_y, arc_z);
        let m = (n_arc.sign_bits() & 0xf) as usize;
        for w in 0..W {
            first[w] |= edges[w][0][m];
            second[w] |= edges[w][1][m];
        }
        *side = n_arc.to_array();
    }
    // adc and bdc of opposite signs, cba and dba of opposite signs, cba and bdc of the
    // same sign (cba's sign bit is `!first`).
    std::array::from_fn(|w| (adc[w] ^ bdc[w]) & (first[w] ^ second[w]) & (first[w] ^ bdc[w]))
}
