//! What is built once with a polyhedron for the fast paths, beside its geometry: the
//! vertices in lanes of four (the support scan of small bodies), the tree of bounding caps
//! over the edges' Gauss-map arcs (SAT's and the sweep's edge pairs on large bodies), the
//! faces, edges and arcs in lanes ([`FeatureLanes`], small bodies only) and a cuboid's
//! tables of edges and faces by axis. [`Polyhedron`] keeps the geometry the algorithms'
//! reference loops read (vertices, faces, edges, adjacency, the Gauss-map arcs); the
//! searches below read these and give the same answers as the plain ones, bit for bit,
//! which the agreement harness (`src/agreement.rs`) checks.

use super::arc_tree::ArcTree;
use super::{Edge, Shape3Kind};
use glam::{DVec3, Vec3};

/// The most vertices and faces, and the most edges, of a small polyhedron: boxes, prisms
/// and hulls of up to about 32 points (a 32-point hull has about 60 faces and 90 edges).
/// Only these carry [`FeatureLanes`], which SAT's and the swept SAT's small-body paths read
/// (B's edges as bits of two `u64` words); larger bodies take the general paths.
pub const SMALL_VERTICES: usize = 64;
pub const SMALL_FACES: usize = 64;
pub const SMALL_EDGES: usize = 128;

/// The accelerators of one polyhedron (see the module header), built by [`Prepared::new`]
/// with the shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    /// The vertices again, four at a time with their coordinates side by side (x of four
    /// vertices, then y, then z), for the support scan of small bodies; the last group is
    /// filled up with copies of vertex 0.
    pub(super) vertex_lanes: Vec<[[f32; 4]; 3]>,
    /// Bounding caps over the edges' arcs, for the edge-pair searches of large bodies.
    pub(super) arc_tree: ArcTree,
    /// Face normals, face extents and edge arcs laid out four at a time ([`FeatureLanes`]),
    /// for small polyhedra only ([`SMALL_VERTICES`], [`SMALL_FACES`], [`SMALL_EDGES`]).
    pub(super) feature_lanes: Option<FeatureLanes>,
    /// A cuboid's edges by direction and side ([`Polyhedron::cuboid_edges`]); `None` for
    /// every other body.
    pub(super) cuboid_edges: Option<CuboidEdges>,
    /// A cuboid's faces by normal ([`Polyhedron::cuboid_faces`]); `None` for every other
    /// body.
    pub(super) cuboid_faces: Option<CuboidFaces>,
}

impl Prepared {
    /// Builds the accelerators of a polyhedron from its geometry: its description, its
    /// vertices, its face normals (in face order), its edges and their Gauss-map arcs.
    pub(super) fn new(
        kind: &Shape3Kind,
        vertices: &[Vec3],
        normals: &[Vec3],
        edges: &[Edge],
        edge_arcs: &[[Vec3; 3]],
    ) -> Prepared {
        let small = vertices.len() <= SMALL_VERTICES
            && normals.len() <= SMALL_FACES
            && edges.len() <= SMALL_EDGES;
        let cuboid = matches!(kind, Shape3Kind::Cuboid { .. });
        Prepared {
            vertex_lanes: vertex_lanes(vertices),
            arc_tree: ArcTree::new(edge_arcs.iter().map(|[n0, n1, _]| (*n0, *n1))),
            feature_lanes: small.then(|| feature_lanes(vertices, normals, edges, edge_arcs)),
            cuboid_edges: cuboid.then(|| cuboid_edges(edge_arcs)).flatten(),
            cuboid_faces: cuboid.then(|| cuboid_faces(normals)).flatten(),
        }
    }
}

/// A polyhedron's faces and edges four at a time, coordinates side by side, for the swept
/// SAT, which turns them into the other body's frame with one matrix product per group and
/// tests one edge against four at a time. Everything is in the local frame.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct FeatureLanes {
    /// Face normals in groups of four: `[x, y, z]` rows, the last group padded with zeros.
    pub normals: Vec<[[f32; 4]; 3]>,
    /// Face `i`'s extent along its own normal: `[min, max]` over the vertices of
    /// `normal . v` (the max is the face's offset, to rounding). It does not depend on the
    /// pose, so a face axis needs only the other body's projection.
    pub face_extents: Vec<[f32; 2]>,
    /// Face `i`'s antipode: the first vertex where `face_extents[i][0]` (the minimum along
    /// the face's normal) is reached. The swept SAT projects it as a witness: the far end
    /// of the body along an axis near that normal is at most the witness's projection.
    pub face_antipodes: Vec<u32>,
    /// Faces four at a time (the groups of `normals`) as masks of the edges on them, for the
    /// swept SAT and SAT's small-body walk, which take one sign bit per face of a group and
    /// need one per edge: word `face_edges[g][e / 64][s][m]` has bit `e % 64` set when edge
    /// `e`'s face `faces[s]` is face `4 g + k` for a bit `k` set in `m` (edges from the 128th
    /// on are left out; padding faces have no edges). The word index comes first, so that a
    /// reader of the first word alone steps through `u64`s.
    pub face_edges: Vec<FaceEdges>,
    /// Edges' Gauss-map arcs ([`Polyhedron::edge_arc`]) in groups of four: rows `n0.x, n0.y,
    /// n0.z, n1.x, n1.y, n1.z, arc.x, arc.y, arc.z`, the last group padded with zeros (a
    /// zero arc fails every sign test of the Gauss-map test).
    pub arcs: Vec<[[f32; 4]; 9]>,
    /// Edges eight at a time for the swept SAT's bound over a whole Gauss-map arc: rows
    /// `n0.x, n0.y, n0.z, n1.x, n1.y, n1.z` (the edge's faces' normals), `n0 . tail`,
    /// `n1 . tail`, then `n0 . w0`, `n1 . w0`, `n0 . w1`, `n1 . w1`, where `w0` and `w1` are
    /// the faces' antipodes (the body's lowest vertices along `n0` and `n1`); the last
    /// group padded with zeros.
    pub arc_reach: Vec<[[f32; 8]; 12]>,
    /// The largest `|n . d|` of an edge's unit direction `d` and the normal `n` of either of
    /// its faces (rounding, about 1e-7, where faces are flat; more where a merged face is
    /// only nearly flat), plus the angle by which `f32` arithmetic may turn the edge's
    /// direction (four roundings of its ends' coordinates over its length): an edge's
    /// Gauss-map arc lies within this angle of the great circle square to the edge as
    /// computed, on which the axes made from the edge lie.
    pub arc_skew: f32,
}

/// One group of four faces as masks of the edges on them ([`FeatureLanes::face_edges`]):
/// `[word][side][mask]`, words of 64 edges, an edge's first or second face, the group's
/// faces as a 4-bit mask.
pub type FaceEdges = [[[u64; 16]; 2]; 2];

/// A cuboid's twelve edges by direction and side: `edges[k][s]` is the edge along local
/// axis `k` whose two faces have normals `+-e_p` and `+-e_q`, with `p = (k + 1) % 3`,
/// `q = (k + 2) % 3`, bit 0 of `s` set when the `e_p` normal is positive and bit 1 when the
/// `e_q` normal is. SAT's closed-form Gauss-map test for two cuboids looks edges up here.
pub type CuboidEdges = [[u8; 4]; 3];

/// A cuboid's six faces by normal: face `i`'s normal is exactly `+e_k` when `faces[i]` is
/// `k`, exactly `-e_k` when it is `3 + k` (the other two coordinates exactly zero). SAT's
/// face axes of two cuboids read a face's separation off the box's reach along its axis.
pub type CuboidFaces = [u8; 6];

/// The lane searches: the plain searches' answers, bit for bit.
impl Prepared {
    /// [`Polyhedron::support_scan`]'s answer (the lowest index of the largest dot product, vertex 0
    /// when every dot product is NaN), four vertices at a time: each of four lanes keeps the
    /// first best vertex among those it sees, and the lanes are merged by value, then by the
    /// lower index. The dot products are the same sums in the same order as `Vec3::dot`, so
    /// ties break exactly as in the one-at-a-time scan.
    #[inline(always)]
    pub fn support_scan_lanes(&self, dir: Vec3) -> usize {
        let mut best_dot = [f32::NEG_INFINITY; 4];
        let mut best = [0u32; 4];
        for (group, [xs, ys, zs]) in self.vertex_lanes.iter().enumerate() {
            let first = 4 * group as u32;
            for k in 0..4 {
                let d = xs[k] * dir.x + ys[k] * dir.y + zs[k] * dir.z;
                // All ones where d is better: a select by masks, which vectorizes.
                let better = 0u32.wrapping_sub((d > best_dot[k]) as u32);
                best_dot[k] =
                    f32::from_bits(d.to_bits() & better | best_dot[k].to_bits() & !better);
                best[k] = (first + k as u32) & better | best[k] & !better;
            }
        }
        let mut winner = 0;
        for k in 1..4 {
            let (d, w) = (best_dot[k], best_dot[winner]);
            if d > w || (d == w && best[k] < best[winner]) {
                winner = k;
            }
        }
        best[winner] as usize
    }

    /// Both support vertices along an axis, `(support(-dir), support(dir))` of the lane scan,
    /// in one pass over the vertices: the two lane scans run side by side, each with exactly
    /// the products, the order and the tie rule of [`Self::support_scan_lanes`] (the low
    /// end's products are taken with `-dir` itself, not by negating the high end's), so both
    /// indices are the ones the two calls give.
    #[inline]
    pub fn support_pair_lanes(&self, dir: Vec3) -> (usize, usize) {
        let low_dir = -dir;
        let mut high_dot = [f32::NEG_INFINITY; 4];
        let mut high = [0u32; 4];
        let mut low_dot = [f32::NEG_INFINITY; 4];
        let mut low = [0u32; 4];
        for (group, [xs, ys, zs]) in self.vertex_lanes.iter().enumerate() {
            let first = 4 * group as u32;
            for k in 0..4 {
                let index = first + k as u32;
                let d = xs[k] * dir.x + ys[k] * dir.y + zs[k] * dir.z;
                let better = 0u32.wrapping_sub((d > high_dot[k]) as u32);
                high_dot[k] =
                    f32::from_bits(d.to_bits() & better | high_dot[k].to_bits() & !better);
                high[k] = index & better | high[k] & !better;
                let e = xs[k] * low_dir.x + ys[k] * low_dir.y + zs[k] * low_dir.z;
                let better = 0u32.wrapping_sub((e > low_dot[k]) as u32);
                low_dot[k] = f32::from_bits(e.to_bits() & better | low_dot[k].to_bits() & !better);
                low[k] = index & better | low[k] & !better;
            }
        }
        let merge = |dots: [f32; 4], indices: [u32; 4]| {
            let mut winner = 0;
            for k in 1..4 {
                let (d, w) = (dots[k], dots[winner]);
                if d > w || (d == w && indices[k] < indices[winner]) {
                    winner = k;
                }
            }
            indices[winner] as usize
        };
        (merge(low_dot, low), merge(high_dot, high))
    }

    /// The largest dot product of every vertex with `dir`, four vertices at a time without
    /// keeping indices (see [`Polyhedron::support_value_lanes`] for when it is the bits of
    /// the support vertex's own dot product), or `None` for a largest value of zero (+0 and
    /// -0 are equal but print differently) and when no dot product is a number.
    pub fn support_value_scan(&self, dir: Vec3) -> Option<f32> {
        let mut best = [f32::NEG_INFINITY; 4];
        for [xs, ys, zs] in &self.vertex_lanes {
            for k in 0..4 {
                let d = xs[k] * dir.x + ys[k] * dir.y + zs[k] * dir.z;
                // A NaN is never taken, as in the scan.
                best[k] = if d > best[k] { d } else { best[k] };
            }
        }
        let top = best[0].max(best[1]).max(best[2].max(best[3]));
        (top != 0.0 && top != f32::NEG_INFINITY).then_some(top)
    }
}

/// The [`CuboidEdges`] table of a cuboid, from its edges' face normals (each `+-e_p` or
/// `+-e_q` to within 1e-6; `None` if the mesh is not the expected twelve such edges).
fn cuboid_edges(edge_arcs: &[[Vec3; 3]]) -> Option<CuboidEdges> {
    let mut table = [[u8::MAX; 4]; 3];
    if edge_arcs.len() != 12 {
        return None;
    }
    for (j, &[n0, n1, _]) in edge_arcs.iter().enumerate() {
        let sum = n0 + n1;
        // The direction is the axis neither normal has a component along.
        let k = (0..3).find(|&k| sum[k].abs() < 1e-6)?;
        let (p, q) = ((k + 1) % 3, (k + 2) % 3);
        for n in [n0, n1] {
            let axis = (n[p].abs() > 0.5) as usize;
            let on_axis = if axis == 1 { p } else { q };
            if (n[on_axis].abs() - 1.0).abs() > 1e-6 {
                return None;
            }
        }
        if sum[p].abs() < 0.5 || sum[q].abs() < 0.5 {
            return None;
        }
        let side = (sum[p] > 0.0) as usize | ((sum[q] > 0.0) as usize) << 1;
        if table[k][side] != u8::MAX {
            return None;
        }
        table[k][side] = j as u8;
    }
    Some(table)
}

/// The [`CuboidFaces`] table of a cuboid: `None` unless it has six faces whose normals are
/// exactly the six signed axes.
fn cuboid_faces(normals: &[Vec3]) -> Option<CuboidFaces> {
    if normals.len() != 6 {
        return None;
    }
    let mut table = [u8::MAX; 6];
    let mut seen = [false; 6];
    for (i, &n) in normals.iter().enumerate() {
        let k = (0..3).find(|&k| n[k].abs() == 1.0)?;
        if (0..3).any(|j| j != k && n[j] != 0.0) {
            return None;
        }
        let lane = k + if n[k] < 0.0 { 3 } else { 0 };
        if std::mem::replace(&mut seen[lane], true) {
            return None;
        }
        table[i] = lane as u8;
    }
    Some(table)
}

fn feature_lanes(
    vertices: &[Vec3],
    faces: &[Vec3],
    edges: &[Edge],
    arcs: &[[Vec3; 3]],
) -> FeatureLanes {
    let edge_arcs = arcs;
    let normals = faces
        .chunks(4)
        .map(|group| {
            let n = |k: usize| group.get(k).copied().unwrap_or(Vec3::ZERO);
            let lane = |c: fn(Vec3) -> f32| [c(n(0)), c(n(1)), c(n(2)), c(n(3))];
            [lane(|p| p.x), lane(|p| p.y), lane(|p| p.z)]
        })
        .collect();
    let face_extents = faces
        .iter()
        .map(|f| {
            let (mut low, mut high) = (f32::INFINITY, f32::NEG_INFINITY);
            for v in vertices {
                let d = f.dot(*v);
                low = low.min(d);
                high = high.max(d);
            }
            [low, high]
        })
        .collect();
    let face_antipodes: Vec<u32> = faces
        .iter()
        .map(|f| {
            let mut lowest = 0;
            for (k, v) in vertices.iter().enumerate() {
                if f.dot(*v) < f.dot(vertices[lowest]) {
                    lowest = k;
                }
            }
            lowest as u32
        })
        .collect();
    let mut face_edges = vec![[[[0u64; 16]; 2]; 2]; faces.len().div_ceil(4)];
    for (e, edge) in edges.iter().enumerate().take(SMALL_EDGES) {
        for (s, &f) in edge.faces.iter().enumerate() {
            let (g, k) = (f as usize / 4, f as usize % 4);
            for (m, bits) in face_edges[g][e / 64][s].iter_mut().enumerate() {
                if m & (1 << k) != 0 {
                    *bits |= 1 << (e % 64);
                }
            }
        }
    }
    let arcs = arcs
        .chunks(4)
        .map(|group| {
            let mut rows = [[0.0; 4]; 9];
            for (k, arc) in group.iter().enumerate() {
                for (v, n) in arc.iter().enumerate() {
                    rows[3 * v][k] = n.x;
                    rows[3 * v + 1][k] = n.y;
                    rows[3 * v + 2][k] = n.z;
                }
            }
            rows
        })
        .collect();
    let mut arc_reach = vec![[[0.0; 8]; 12]; edges.len().div_ceil(8)];
    let mut arc_skew = 0.0f64;
    for (e, edge) in edges.iter().enumerate() {
        let (tail, head) = (vertices[edge.tail as usize], vertices[edge.head as usize]);
        let [n0, n1, _] = edge_arcs[e];
        let low = edge
            .faces
            .map(|f| vertices[face_antipodes[f as usize] as usize]);
        let rows = &mut arc_reach[e / 8];
        let numbers = [
            n0.x,
            n0.y,
            n0.z,
            n1.x,
            n1.y,
            n1.z,
            n0.dot(tail),
            n1.dot(tail),
            n0.dot(low[0]),
            n1.dot(low[0]),
            n0.dot(low[1]),
            n1.dot(low[1]),
        ];
        for (row, value) in rows.iter_mut().zip(numbers) {
            row[e % 8] = value;
        }
        // In f64, so that the skew's own rounding stays far below it. An edge's direction
        // as `f32` arithmetic finds it (`head - tail`, after turning for the other body)
        // is off by a few roundings of the coordinates: that angle is added.
        let edge = head.as_dvec3() - tail.as_dvec3();
        let direction = edge.normalize_or_zero();
        let sine = if direction == DVec3::ZERO {
            1.0
        } else {
            let coordinates = tail.abs().max(head.abs()).as_dvec3().length();
            let rounding = 4.0 * f32::EPSILON as f64 * coordinates / edge.length();
            n0.as_dvec3()
                .dot(direction)
                .abs()
                .max(n1.as_dvec3().dot(direction).abs())
                + rounding
        };
        arc_skew = arc_skew.max(sine);
    }
    FeatureLanes {
        normals,
        face_extents,
        face_antipodes,
        face_edges,
        arcs,
        arc_reach,
        arc_skew: arc_skew as f32,
    }
}

/// The vertices in groups of four, coordinates side by side, the last group padded with
/// copies of vertex 0 (a copy ties with vertex 0 and has a higher index, so it never wins).
fn vertex_lanes(vertices: &[Vec3]) -> Vec<[[f32; 4]; 3]> {
    vertices
        .chunks(4)
        .map(|group| {
            let v = |k: usize| group.get(k).copied().unwrap_or(vertices[0]);
            let lane = |c: fn(Vec3) -> f32| [c(v(0)), c(v(1)), c(v(2)), c(v(3))];
            [lane(|p| p.x), lane(|p| p.y), lane(|p| p.z)]
        })
        .collect()
}

/// How far clear of a tie the cuboid closed form ([`Polyhedron::cuboid_support`]) needs
/// every component of the direction to be, relative to the direction's reach over the box:
/// `4 f32::EPSILON`, more than twice the rounding of the scan's three-term dot products
/// (the proof is on that function).
pub const CUBOID_SUPPORT_CLEARANCE: f32 = 4.0 * f32::EPSILON;

/// The smallest product `h_k |d_k|` the cuboid closed form accepts, `2^-100`: products this
/// large are normal numbers, so their rounding is relative, as the proof needs.
const CUBOID_SUPPORT_FLOOR: f32 = 7.888_609e-31;

/// The support vertex along `dir` (local frame) of a cuboid of half extents `h`, in closed
/// form, when it is surely [`Polyhedron::support`]'s answer: the corner whose coordinate signs are `dir`'s (vertex
/// `k` of a cuboid has its x, y, z positive where bits 0, 1, 2 of `k` are set, as the
/// constructor lays them out and the hull keeps them), with that index. `None` when some component of `dir` is too close to a tie to be sure (then the
/// caller scans). No branch on the direction's signs: the index comes from comparisons,
/// the corner from the half extents with `dir`'s signs, so the corner does not wait for
/// the index.
///
/// Why the scan picks the same vertex. Let `a_k = h_k |d_k|` (exact reals), `S = a_x +
/// a_y + a_z` and `m = min a_k`. Vertex `j`'s exact dot product is `S` minus `2 a_k` for
/// each axis `k` where its sign differs from `d_k`'s, so every other vertex is at most
/// `S - 2m`. The scan rounds each dot product (three products, two sums, no fused
/// operations) to within `g S`, `g = 3u / (1 - 3u)`, `u = f32::EPSILON / 2` (the
/// standard bound for a rounded dot product, the `|x_k d_k|` summing to `S` for every
/// vertex; the floor keeps every product normal, where rounding is relative). If
/// `m > g S`, the matching corner's rounded value is above `S - m` and every other one
/// below it: the maximum is unique, so the lowest-index rule never comes into play and
/// the scan (and the lane scan, which merges lanes by value first) returns this corner.
/// The test is computed in `f32`: with `c` = [`CUBOID_SUPPORT_CLEARANCE`] `= 8u` (a
/// power of two, so `c S^` is exact), the computed `min^ > c S^` gives
/// `m >= min^ / (1 + u) > c S (1 - u)^3 / (1 + u) >= 8u (1 - 4u) S > g S`. A NaN or
/// infinite component fails the test (comparisons with NaN are false, an infinite `S^`
/// admits nothing).
#[inline(always)]
pub fn cuboid_support(h: Vec3, dir: Vec3) -> Option<(usize, Vec3)> {
    let a = h * dir.abs();
    let least = a.x.min(a.y).min(a.z);
    let reach = a.x + a.y + a.z;
    if !(least > CUBOID_SUPPORT_CLEARANCE * reach && least >= CUBOID_SUPPORT_FLOOR) {
        return None;
    }
    let index =
        (dir.x > 0.0) as usize | ((dir.y > 0.0) as usize) << 1 | ((dir.z > 0.0) as usize) << 2;
    Some((index, h.copysign(dir)))
}
#[cfg(test)]
mod cuboid_support_tests {
    use super::*;
    use crate::geom3::Polyhedron;

    fn cuboid(h: Vec3) -> Polyhedron {
        Polyhedron::new(&Shape3Kind::Cuboid { half_extents: h }).expect("a cuboid")
    }

    /// The closed form's layout: corner `k` has the signs of `k`'s bits (bit 0 for x, 1 for
    /// y, 2 for z), which is how it names a vertex; a hull with a cube's vertices has no
    /// closed form. (That the closed form names the scan's vertex with the scan's bits,
    /// ties included, is the agreement harness's, `src/agreement.rs`.)
    #[test]
    fn corner_k_has_the_signs_of_k_s_bits() {
        for h in [
            Vec3::ONE,
            Vec3::new(0.5, 2.0, 1e-3),
            Vec3::new(100.0, 0.05, 3.0),
        ] {
            for (k, v) in cuboid(h).vertices().iter().enumerate() {
                let bit = |b: usize, c: f32| (k & b != 0) == (c > 0.0);
                assert!(
                    bit(1, v.x) && bit(2, v.y) && bit(4, v.z),
                    "corner {k} is {v}"
                );
            }
        }
        let hull = Polyhedron::new(&Shape3Kind::Hull {
            points: cuboid(Vec3::ONE).vertices().to_vec(),
        })
        .expect("a hull");
        assert_eq!(hull.cuboid_support(Vec3::ONE), None);
    }
}
