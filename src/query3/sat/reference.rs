//! SAT in 3D, the reference: the textbook loop, and the only path that records its steps
//! (the window, `trace`, the slides and the golden traces all come from it).
//!
//! Algorithm (Gottschalk 1996; Ericson, *Real-Time Collision Detection*, 5.2.1; the
//! Gauss-map pruning and the one-sided separations of Gregorius, "The Separating Axis Test
//! between Convex Polyhedra", GDC 2013):
//!
//! ```text
//! for each face i of A, outward normal n, plane n . p = d:
//!     separation = n . support_B(-n) - d               how far B's nearest point is above the face
//! for each face j of B: the same with the roles exchanged (the normal A -> B is -n)
//! for each edge i of A (between faces with normals a, b) and edge j of B (normals c, d):
//!     skip if the edges are parallel: |eA x eB| < PARALLEL_TOLERANCE |eA| |eB|
//!     skip unless the arcs a-b and (-c)-(-d) cross on the unit sphere (Gauss map): only then
//!         is eA x eB the normal of a face of the Minkowski difference A - B
//!     u = normalize(eA x eB), turned to point away from A's centroid
//!     separation = u . (tail of eB - tail of eA)       the two edges are extreme along u
//! best = the largest separation; they intersect iff best <= touch tolerance
//! depth = -best (when intersecting), separation = best (when apart), normal from A to B
//! ```
//!
//! Conventions: everything is computed in the work frame of [`PolyPair`] (A's position at the
//! origin). Every axis points from A toward B (for a face of B: minus its outward normal). A
//! separation is positive when the bodies are apart along the axis, negative when they
//! overlap. A's faces are tested first, then B's, then the edge pairs in order (A's edge, then
//! B's). Each tested axis is recorded with both bodies' projection intervals onto it, in world
//! coordinates (for display: no decision reads them); each skipped pair with its reason. The
//! parallel test runs before the Gauss-map test, so that a parallel pair is recorded as
//! parallel (a pair must pass both; their order changes only the reason given). For
//! separated bodies the best separation is a lower bound on the distance (exact when a face
//! or an edge pair is the closest feature pair).
//!
//! Tolerances:
//! - [`PARALLEL_TOLERANCE`] (the sine of the edges' angle below 1e-3): the Minkowski
//!   difference has no face spanned by two parallel edges, and for nearly parallel ones the
//!   normalised cross product would carry `f32` rounding magnified a thousandfold.
//! - Face or edge ([`preference_tolerance`]): a face axis (A's before B's) is kept unless the
//!   best edge axis has a separation larger by 1e-4 of the smaller body's size, never less
//!   than the touch tolerance. Near-ties are common (a box resting on a slab, turned by a
//!   hair, ties its face axis with edge axes along almost the same normal), and the face
//!   gives a stable, larger manifold; the edge must win clearly. This is Box3D's and
//!   Gregorius's rule, with an absolute tolerance because depths are lengths; it follows the
//!   smaller body so that a 0.05 cube on a 100-wide slab is not judged on the slab's scale.
//! - The touch tolerance ([`PolyPair::touch_tolerance`]): gaps within it count as touching.
//!
//! The numbers of each step are computed as the untraced fast path for such a pair computes
//! them (listed in [`super`]), so that every path gives this loop's answer to the bit:
//! - a face normal is turned into the work frame by the body's rotation matrix ([`turned`]),
//!   and the other body's support value along `-n` is taken in that body's frame
//!   ([`face_support_value`]); for two boxes the face separations are Gottschalk's closed
//!   form instead (face of A with local normal `u`: `u . t - |u| . (h_A + |R| h_B)`, `R` and
//!   `t` B's rotation and centre in A's frame, `h` the half extents: the same number up to
//!   rounding, [`CuboidPair`]) along the normals turned by the quaternion;
//! - edges are placed by the quaternion ([`EdgeFrame::new`]), except between two small
//!   bodies that are not two boxes ([`is_small`]), whose edges take the face loops' normals
//!   and their vertices turned by the rotation matrix;
//! - the intervals are the extremes of the placed vertices ([`placed_interval`]); for two
//!   boxes, [`Placed3::project`]'s.

use super::obb::CuboidPair;
use super::support::face_support_value;
use super::support::is_small;
use super::{
    preference_tolerance, AxisId, AxisTest, Best, Output, SkipReason, Status, Step,
    PARALLEL_TOLERANCE,
};
use crate::geom3::Edge;
use crate::query3::{Interval, Placed3, PolyPair};
use crate::simd::Four;
use crate::trace::Tracer;
use glam::{Mat3A, Vec3, Vec3A};

/// Runs the loop above, recording every axis tested and every edge pair skipped.
pub(crate) fn sat<T: Tracer<Step>>(pair: &PolyPair, tracer: &mut T) -> Output {
    let (a, b) = (&pair.a, &pair.b);
    // One step per face and one per edge pair: room for them all at once.
    let faces = a.shape.face_count() + b.shape.face_count();
    tracer.reserve(faces + a.shape.edges().len() * b.shape.edges().len());
    // Two boxes take Gottschalk's face separations (see the header).
    let boxes = CuboidPair::new(pair);
    let projections = T::ENABLED.then(|| Projections::new(pair, boxes.is_none()));
    let mut tested = 0u32;
    let mut record = |tracer: &mut T, id: AxisId, axis: Vec3, separation: f32| {
        let ordinal = tested;
        tested += 1;
        if let Some(projections) = &projections {
            let (interval_a, interval_b) = projections.along(axis);
            tracer.record(|| {
                Step::Axis(AxisTest {
                    ordinal,
                    id,
                    axis,
                    interval_a,
                    interval_b,
                    separation,
                })
            });
        }
    };

    // Faces of A: how far B's nearest point lies above each face's plane. (A large body's
    // support search starts from the previous face's support vertex: `start_b`.)
    let (mut normals_a, mut start_b) = (Vec::new(), 0);
    let mut face_a = Best::none(AxisId::FaceA(0));
    for i in 0..a.shape.face_count() {
        let (n, separation) = match &boxes {
            Some(boxes) => (
                a.face_normal(i),
                boxes.face_separation_a(a.shape.face_normal(i)),
            ),
            None => face_separation(a, b, i, &mut start_b),
        };
        let id = AxisId::FaceA(i as u32);
        face_a.offer(separation, n, id);
        record(tracer, id, n, separation);
        normals_a.push(n);
    }
    // Faces of B: the same with the roles exchanged; the axis from A toward B is -n.
    let (mut normals_b, mut start_a) = (Vec::new(), 0);
    let mut face_b = Best::none(AxisId::FaceB(0));
    for j in 0..b.shape.face_count() {
        let (n, separation) = match &boxes {
            Some(boxes) => (
                b.face_normal(j),
                boxes.face_separation_b(b.shape.face_normal(j)),
            ),
            None => face_separation(b, a, j, &mut start_a),
        };
        let id = AxisId::FaceB(j as u32);
        face_b.offer(separation, -n, id);
        record(tracer, id, -n, separation);
        normals_b.push(n);
    }

    // Every edge pair: the parallel test, the Gauss-map test, then the separation along the
    // cross product.
    let centroid_a = a.centroid();
    // Placed by the quaternion, or by the face loops' normals and the matrices (the header).
    let by_matrix = boxes.is_none() && is_small(a) && is_small(b);
    let frames_a = edge_frames(a, by_matrix.then_some(&normals_a));
    let frames_b = edge_frames(b, by_matrix.then_some(&normals_b));
    let (mut edge, mut pruned) = (Best::none(AxisId::Edges(0, 0)), 0u32);
    for (i, frame_a) in frames_a.iter().enumerate() {
        for (j, frame_b) in frames_b.iter().enumerate() {
            let (edge_a, edge_b) = (i as u32, j as u32);
            match edge_pair_axis(frame_a, frame_b, centroid_a, true) {
                Ok((axis, separation)) => {
                    let id = AxisId::Edges(edge_a, edge_b);
                    edge.offer(separation, axis, id);
                    record(tracer, id, axis, separation);
                }
                Err(reason) => {
                    pruned += 1;
                    tracer.record(|| Step::Skipped {
                        edge_a,
                        edge_b,
                        reason,
                    });
                }
            }
        }
    }

    let best = prefer(face_a, face_b, edge, preference_tolerance(pair));
    finish(pair, best, tested, pruned)
}

/// Face `i` of `body` against the `other` body: the face's outward normal `n` in the work
/// frame, and how far the other body's nearest point lies above the face's plane
/// (`-support_other(-n) - d`, with `n . p = d` on the face).
#[inline(always)]
pub(super) fn face_separation(
    body: &Placed3,
    other: &Placed3,
    i: usize,
    start: &mut usize,
) -> (Vec3, f32) {
    let n = turned(&body.frame, body.shape.face_normal(i));
    let support = face_support_value(other, -n, turned(&other.frame_inverse, -n), start);
    let offset = body.shape.face_offset(i) + n.dot(body.translation);
    (n, -support - offset)
}

/// Every edge of `body` placed in the work frame: by the quaternion ([`EdgeFrame::new`]), or,
/// given the face loop's `normals`, with those normals and the vertices turned by the rotation
/// matrix (as the small-body path places them, [`super::small`]).
fn edge_frames(body: &Placed3, normals: Option<&Vec<Vec3>>) -> Vec<EdgeFrame> {
    let edges = body.shape.edges().iter();
    let Some(normals) = normals else {
        return edges.map(|e| EdgeFrame::new(body, e)).collect();
    };
    let vertex = |v: u32| turned(&body.frame, body.shape.vertex(v as usize)) + body.translation;
    let frame = |e: &Edge| {
        let (n0, n1) = (normals[e.faces[0] as usize], normals[e.faces[1] as usize]);
        EdgeFrame::from_placed(vertex(e.tail), vertex(e.head), n0, n1)
    };
    edges.map(frame).collect()
}

/// Both bodies' projections onto the recorded axes, in world coordinates (traced only).
struct Projections<'p, 'a> {
    pair: &'p PolyPair<'a>,
    /// Each body's placed vertices, for [`placed_interval`]; `None` for two boxes, which take
    /// [`Placed3::project`].
    placed: Option<[PlacedVertices; 2]>,
}

/// A body's vertices placed in the work frame once, and by coordinate four at a time
/// ([`placed_lanes`]).
type PlacedVertices = (Vec<Vec3>, Vec<[Four; 3]>);

impl<'p, 'a> Projections<'p, 'a> {
    fn new(pair: &'p PolyPair<'a>, placed: bool) -> Self {
        let place = |body: &Placed3| {
            let vertices = body.placed_vertices();
            let lanes = placed_lanes(&vertices);
            (vertices, lanes)
        };
        Projections {
            pair,
            placed: placed.then(|| [place(&pair.a), place(&pair.b)]),
        }
    }

    /// A's interval and B's along `axis`, shifted to the world frame.
    fn along(&self, axis: Vec3) -> (Interval, Interval) {
        let (a, b) = (&self.pair.a, &self.pair.b);
        let shift = axis.dot(self.pair.origin);
        let (interval_a, interval_b) = match &self.placed {
            Some([placed_a, placed_b]) => (
                placed_interval(a, axis, placed_a),
                placed_interval(b, axis, placed_b),
            ),
            None => (a.project(axis), b.project(axis)),
        };
        (interval_a.shifted(shift), interval_b.shifted(shift))
    }
}

/// A recorded axis's projection interval (display only: no decision reads it): the smallest
/// and largest dot products of the placed vertices with the axis, one pass with no support
/// search and no turn (the same numbers as [`Placed3::project_placed`] up to the last bits,
/// where the frame-side search may name another of two vertices tied along the axis), four
/// vertices at a time from their coordinates ([`placed_lanes`]; per lane `p.dot(axis)`'s
/// products and sums, and plain compares). An axis or a vertex that is no number takes
/// [`Placed3::project_placed`], which reports it.
fn placed_interval(body: &Placed3, axis: Vec3, (placed, lanes): &PlacedVertices) -> Interval {
    let (x, y, z) = (
        Four::splat(axis.x),
        Four::splat(axis.y),
        Four::splat(axis.z),
    );
    let (mut low, mut high) = (Four::splat(f32::INFINITY), Four::splat(f32::NEG_INFINITY));
    for [px, py, pz] in lanes {
        let d = Four::dot3(*px, *py, *pz, x, y, z);
        low = d.min(low);
        high = d.max(high);
    }
    let (low, high) = (low.min_lane(), high.max_lane());
    if low.is_finite() && high.is_finite() {
        Interval::new(low, high)
    } else {
        body.project_placed(axis, placed)
    }
}

/// Placed vertices by coordinate, four a group, for [`placed_interval`] (traced only); the
/// last group is padded with the first vertex, which changes no extreme.
fn placed_lanes(placed: &[Vec3]) -> Vec<[Four; 3]> {
    placed
        .chunks(4)
        .map(|group| {
            let p: [Vec3; 4] = std::array::from_fn(|l| *group.get(l).unwrap_or(&placed[0]));
            [p.map(|p| p.x), p.map(|p| p.y), p.map(|p| p.z)]
                .each_ref()
                .map(Four::load)
        })
        .collect()
}

/// The header's rule: A's best face unless B's is larger by `tol`, then that face unless the
/// best edge axis is larger by `tol`.
#[inline]
pub(super) fn prefer(face_a: Best, face_b: Best, edge: Best, tol: f32) -> Best {
    let face = if face_b.separation > face_a.separation + tol {
        face_b
    } else {
        face_a
    };
    if edge.separation > face.separation + tol {
        edge
    } else {
        face
    }
}

#[inline]
pub(super) fn finish(pair: &PolyPair, best: Best, tested: u32, pruned: u32) -> Output {
    finish_with(pair.touch_tolerance(), best, tested, pruned)
}

/// The verdict from the best axis: gaps within `touch` count as touching.
#[inline]
pub(crate) fn finish_with(touch: f32, best: Best, tested: u32, pruned: u32) -> Output {
    let s = best.separation;
    let status = if !s.is_finite() || !best.axis.is_finite() {
        Status::NonFinite
    } else if s > touch {
        Status::Separated
    } else if s >= -touch {
        Status::Touching
    } else {
        Status::Overlapping
    };
    let intersecting = matches!(status, Status::Overlapping | Status::Touching);
    Output {
        intersecting,
        depth: if intersecting { (-s).max(0.0) } else { 0.0 },
        separation: if status == Status::Separated { s } else { 0.0 },
        normal: if best.axis.is_finite() {
            best.axis
        } else {
            Vec3::X
        },
        axis: best.id,
        axes_tested: tested,
        axes_pruned: pruned,
        status,
    }
}

/// An edge placed in the work frame, with the normals of its two faces and the normal of
/// the plane of its arc on the Gauss map (`n1 x n0`, the same for the negated normals).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeFrame {
    pub(super) tail: Vec3,
    pub(super) dir: Vec3,
    pub(crate) n0: Vec3,
    pub(crate) n1: Vec3,
    pub(crate) arc: Vec3,
}

impl EdgeFrame {
    #[inline]
    pub(crate) fn new(body: &Placed3, e: &Edge) -> Self {
        Self::from_placed(
            body.vertex(e.tail as usize),
            body.vertex(e.head as usize),
            body.face_normal(e.faces[0] as usize),
            body.face_normal(e.faces[1] as usize),
        )
    }

    /// The frame of an edge from its ends and its faces' normals already placed in the work
    /// frame (the sweep places each vertex and normal once per query instead of once per
    /// edge; [`EdgeFrame::new`] places them here).
    #[inline]
    pub(crate) fn from_placed(tail: Vec3, head: Vec3, n0: Vec3, n1: Vec3) -> Self {
        EdgeFrame {
            tail,
            dir: head - tail,
            n0,
            n1,
            arc: n1.cross(n0),
        }
    }
}

/// The axis of edge pair (A's edge, B's edge), turned away from A's centroid, and the
/// separation along it; or why the pair gives no axis.
///
/// Both tests must pass, so their order does not change which axes are tested; it only
/// changes the reason given for a pair that fails both. With `parallel_first` (when
/// recording) a parallel pair is called parallel; without it (untraced) the Gauss-map test,
/// which rejects most pairs after two dot products, runs first.
#[inline]
pub(crate) fn edge_pair_axis(
    a: &EdgeFrame,
    b: &EdgeFrame,
    centroid_a: Vec3,
    parallel_first: bool,
) -> Result<(Vec3, f32), SkipReason> {
    // B's arc is negated: (-n0) and (-n1), whose plane normal (-n1) x (-n0) is B's `arc`.
    let gauss = || arcs_cross(a.n0, a.n1, a.arc, -b.n0, -b.n1, b.arc);
    if !parallel_first && !gauss() {
        return Err(SkipReason::GaussMap);
    }
    let cross = a.dir.cross(b.dir);
    if !crosses(a, b, cross) {
        return Err(SkipReason::Parallel);
    }
    if parallel_first && !gauss() {
        return Err(SkipReason::GaussMap);
    }
    Ok(oriented_axis(a, b, cross, centroid_a))
}

/// The parallel test of [`edge_pair_axis`]: whether `cross = a.dir x b.dir` is long enough.
#[inline]
pub(super) fn crosses(a: &EdgeFrame, b: &EdgeFrame, cross: Vec3) -> bool {
    // Written so that a NaN cross product counts as parallel.
    cross.length_squared()
        >= (PARALLEL_TOLERANCE * PARALLEL_TOLERANCE)
            * a.dir.length_squared()
            * b.dir.length_squared()
}

/// The axis of an edge pair whose Gauss-map arcs cross, with the separation along it:
/// `None` when the edges are parallel ([`crosses`]), else [`oriented_axis`] along
/// `a.dir x b.dir`.
#[inline]
pub(super) fn crossing_axis(a: &EdgeFrame, b: &EdgeFrame, centroid_a: Vec3) -> Option<(Vec3, f32)> {
    let cross = a.dir.cross(b.dir);
    crosses(a, b, cross).then(|| oriented_axis(a, b, cross, centroid_a))
}

/// The unit axis along `cross`, turned away from A's centroid, and the separation along it.
#[inline]
pub(super) fn oriented_axis(
    a: &EdgeFrame,
    b: &EdgeFrame,
    cross: Vec3,
    centroid_a: Vec3,
) -> (Vec3, f32) {
    let mut axis = cross.normalize();
    if axis.dot(a.tail - centroid_a) < 0.0 {
        axis = -axis;
    }
    (axis, axis.dot(b.tail - a.tail))
}

/// Whether arc a-b and arc c-d (each the shorter great arc between two unit normals, the
/// Gauss-map image of an edge) cross on the unit sphere. `b_x_a = b x a` and `d_x_c = d x c`
/// are the planes of the arcs. Gregorius's test: c and d lie on opposite sides of plane
/// b x a, a and b on opposite sides of plane d x c, and the arcs lie in the same hemisphere
/// (c . (b x a) and b . (d x c) have the same sign).
#[inline]
pub(super) fn arcs_cross(a: Vec3, b: Vec3, b_x_a: Vec3, c: Vec3, d: Vec3, d_x_c: Vec3) -> bool {
    let cba = c.dot(b_x_a);
    let dba = d.dot(b_x_a);
    if cba * dba >= 0.0 {
        return false;
    }
    let adc = a.dot(d_x_c);
    let bdc = b.dot(d_x_c);
    adc * bdc < 0.0 && cba * bdc > 0.0
}

/// `frame * v`: a vector turned by a rotation matrix (a body's `frame` or `frame_inverse`),
/// `(x_axis v.x + y_axis v.y) + z_axis v.z` in vector lanes.
#[inline]
pub(super) fn turned(frame: &Mat3A, v: Vec3) -> Vec3 {
    Vec3::from(*frame * Vec3A::from(v))
}
