//! The contact manifold in 3D, built from the pair of features that touch.
//!
//! Algorithm (Ericson, *Real-Time Collision Detection*, 5.1 and 8.3.4; Gregorius,
//! "Robust Contact Creation for Physics Simulations", GDC 2015; Catto, Box2D/Box3D
//! `manifold.c`; Sutherland and Hodgman 1974):
//!
//! ```text
//! n = SAT's normal (A toward B)
//! feature of A along n, of B along -n: the support vertex s and its neighbours within
//!     FEATURE_TOLERANCE of s's height: none -> vertex s, one -> their edge, more -> the face at
//!     s most aligned with the direction
//!     (a cuboid reads a vertex or an edge off its height drops 2 |h_i n_i| when every drop
//!     is clear of the tolerance by more than rounding: the same answer without the search)
//! dispatch on the unordered pair of kinds:
//!     vertex-face:   the vertex, depth = how far it is below the face plane
//!     edge-edge:     closest points of the segments; nearly parallel: both ends of the overlap
//!     edge-face:     clip the edge by the side planes of the face, keep the points below it;
//!                    nothing left: the edge's deepest end
//!     face-face:     reference = the face most aligned with n, incident = the other body's face
//!                    most anti-parallel to it; clip the incident polygon by each side plane of
//!                    the reference face, drop points above the reference face, then keep at
//!                    most 4: the deepest, the farthest from it, the one making the largest
//!                    triangle, the one adding the most area
//!     vertex-edge, vertex-vertex: one point on B's feature
//! ```
//!
//! Points lie on the incident body (the body that does not hold the reference face; B when
//! there is no face), in world coordinates, each with its depth (>= 0) and the features of A
//! and B it comes from, which do not change under small motions.
//!
//! Untraced runs allocate nothing for faces of up to [`CLIP_CAPACITY`] / 2 vertices: the clip
//! polygon lives in a fixed array and only spills to the heap beyond it.

use super::sat::{AxisId, Output as SatOutput, PARALLEL_TOLERANCE};
pub use super::Side;
use super::{Placed3, PolyPair};
use crate::geom3::{FaceView, Polyhedron, Shape3Kind};
use crate::inline_vec::InlineVec;
use crate::trace::Tracer;
use glam::Vec3;
use std::mem::MaybeUninit;

/// A vertex belongs to a body's supporting feature when it lies within this fraction of the
/// body's size (its largest distance from its centroid) of the extreme height along the
/// normal. 1e-3 of the size groups a
/// face tilted by up to about 0.06 degrees as a face (a resting box stays face-on while it
/// settles), far above `f32` rounding (1e-7) and far below a tilt anyone would draw.
pub const FEATURE_TOLERANCE: f32 = 1.0e-3;

/// B's face is the reference only when it is more aligned with the normal than A's by this
/// much, a difference of cosines (1 - cos reaches 1e-5 at about 0.26 degrees): ties within
/// rounding go to A, so the reference does not flip between frames of a resting pair.
pub const REFERENCE_PREFERENCE: f32 = 1.0e-5;

/// The clip polygon's fixed capacity. Clipping a k-gon by m side planes gives at most k + m
/// points, so faces of up to 32 vertices never leave the stack.
pub const CLIP_CAPACITY: usize = 64;

/// The most points a manifold keeps.
pub const MAX_POINTS: usize = 4;

/// [`manifold_with`]'s work, writing the output into `slot`.
fn manifold_into<T: Tracer<Step>>(
    pair: &PolyPair,
    normal: Vec3,
    known: Option<(Side, u32)>,
    tracer: &mut T,
    slot: &mut MaybeUninit<Output>,
) {
    let n = if normal.is_finite() && normal.length_squared() > 0.0 {
        normal.normalize()
    } else {
        Vec3::Y
    };
    let feature_a = match known {
        Some((Side::A, f)) => Feature::Face(f),
        _ => supporting_feature(&pair.a, n),
    };
    let feature_b = match known {
        Some((Side::B, f)) => Feature::Face(f),
        _ => supporting_feature(&pair.b, -n),
    };
    let case = FeaturePair::of(feature_a, feature_b);
    // The step naming both supporting features, the case and which body holds the reference.
    let features_step = |reference, reference_feature, incident_feature| Step::Features {
        feature_a,
        feature_b,
        case,
        reference,
        reference_feature,
        incident_feature,
    };
    let out = slot.write(Output {
        normal: n,
        feature_a,
        feature_b,
        feature: case,
        reference: Side::A,
        clipped: 1,
        points: ContactPoints::new(),
    });
    let touch = pair.touch_tolerance();
    match (feature_a, feature_b) {
        (Feature::Face(fa), Feature::Face(fb)) => {
            let align_a = pair.a.face_normal(fa as usize).dot(n);
            let align_b = -pair.b.face_normal(fb as usize).dot(n);
            let side = if align_b > align_a + REFERENCE_PREFERENCE {
                Side::B
            } else {
                Side::A
            };
            let (reference, incident, r) = bodies(pair, side, fa, fb);
            let inc = most_antiparallel_face(incident, reference.face_normal(r as usize));
            out.reference = side;
            tracer.record(|| features_step(side, Feature::Face(r), Feature::Face(inc)));
            face_face(pair, side, r, inc, touch, out, tracer);
        }
        (Feature::Face(f), Feature::Edge(e)) | (Feature::Edge(e), Feature::Face(f)) => {
            let side = if matches!(feature_a, Feature::Face(_)) {
                Side::A
            } else {
                Side::B
            };
            out.reference = side;
            tracer.record(|| features_step(side, Feature::Face(f), Feature::Edge(e)));
            edge_face(pair, side, f, e, touch, out, tracer);
        }
        (Feature::Face(f), Feature::Vertex(v)) | (Feature::Vertex(v), Feature::Face(f)) => {
            let side = if matches!(feature_a, Feature::Face(_)) {
                Side::A
            } else {
                Side::B
            };
            out.reference = side;
            tracer.record(|| features_step(side, Feature::Face(f), Feature::Vertex(v)));
            let (reference, incident) = match side {
                Side::A => (&pair.a, &pair.b),
                Side::B => (&pair.b, &pair.a),
            };
            let p = incident.vertex(v as usize);
            let height =
                reference.face_normal(f as usize).dot(p) - reference.face_offset(f as usize);
            out.points.push(ContactPoint3 {
                point: pair.to_world(p),
                depth: (-height).max(0.0),
                id: FeatureId3::new(side, Feature::Face(f), Feature::Vertex(v)),
            });
        }
        (Feature::Edge(ea), Feature::Edge(eb)) => {
            tracer.record(|| features_step(Side::A, feature_a, feature_b));
            edge_edge(pair, n, ea, eb, out);
        }
        _ => {
            // Vertex-edge and vertex-vertex: the closest point of B's feature to A's.
            tracer.record(|| features_step(Side::A, feature_a, feature_b));
            let (a0, a1) = feature_segment(&pair.a, feature_a);
            let (b0, b1) = feature_segment(&pair.b, feature_b);
            let (pa, pb) = closest_points(a0, a1, b0, b1);
            out.points.push(ContactPoint3 {
                point: pair.to_world(pb),
                depth: (-(pb - pa).dot(n)).max(0.0),
                id: FeatureId3 {
                    a: feature_a,
                    b: feature_b,
                },
            });
        }
    }
    tracer.record(|| Step::Points {
        points: out.points.as_slice().to_vec(),
    });
}

/// A feature of one body: vertex, edge or face index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    Vertex(u32),
    Edge(u32),
    Face(u32),
}

impl Feature {
    pub fn key(&self) -> &'static str {
        match self {
            Feature::Vertex(_) => "vertex",
            Feature::Edge(_) => "edge",
            Feature::Face(_) => "face",
        }
    }

    pub fn index(&self) -> u32 {
        match *self {
            Feature::Vertex(i) | Feature::Edge(i) | Feature::Face(i) => i,
        }
    }

    /// 0 vertex, 1 edge, 2 face.
    pub fn code(&self) -> u32 {
        match self {
            Feature::Vertex(_) => 0,
            Feature::Edge(_) => 1,
            Feature::Face(_) => 2,
        }
    }
}

/// The features of A and of B a contact point comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FeatureId3 {
    pub a: Feature,
    pub b: Feature,
}

impl FeatureId3 {
    pub(crate) fn new(side_of_first: Side, first: Feature, second: Feature) -> Self {
        match side_of_first {
            Side::A => FeatureId3 {
                a: first,
                b: second,
            },
            Side::B => FeatureId3 {
                a: second,
                b: first,
            },
        }
    }

    /// `[kind of A's feature, its index, kind of B's feature, its index]`, kinds coded 0
    /// vertex, 1 edge, 2 face: what `query --json` prints as `id`.
    pub fn to_array(&self) -> [u32; 4] {
        [self.a.code(), self.a.index(), self.b.code(), self.b.index()]
    }
}

/// Which pair of features touch (unordered: `VertexFace` whichever body holds the vertex).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeaturePair {
    VertexFace,
    EdgeEdge,
    EdgeFace,
    FaceFace,
    VertexEdge,
    VertexVertex,
}

impl FeaturePair {
    pub fn key(self) -> &'static str {
        match self {
            FeaturePair::VertexFace => "vertex_face",
            FeaturePair::EdgeEdge => "edge_edge",
            FeaturePair::EdgeFace => "edge_face",
            FeaturePair::FaceFace => "face_face",
            FeaturePair::VertexEdge => "vertex_edge",
            FeaturePair::VertexVertex => "vertex_vertex",
        }
    }

    /// The case in words, for sentences and text output (`key` is for JSON and files).
    pub fn words(self) -> &'static str {
        match self {
            FeaturePair::VertexFace => "vertex against face",
            FeaturePair::EdgeEdge => "edge against edge",
            FeaturePair::EdgeFace => "edge against face",
            FeaturePair::FaceFace => "face against face",
            FeaturePair::VertexEdge => "vertex against edge",
            FeaturePair::VertexVertex => "vertex against vertex",
        }
    }

    pub(crate) fn of(a: Feature, b: Feature) -> Self {
        use Feature::*;
        match (a, b) {
            (Vertex(_), Face(_)) | (Face(_), Vertex(_)) => FeaturePair::VertexFace,
            (Edge(_), Edge(_)) => FeaturePair::EdgeEdge,
            (Edge(_), Face(_)) | (Face(_), Edge(_)) => FeaturePair::EdgeFace,
            (Face(_), Face(_)) => FeaturePair::FaceFace,
            (Vertex(_), Edge(_)) | (Edge(_), Vertex(_)) => FeaturePair::VertexEdge,
            (Vertex(_), Vertex(_)) => FeaturePair::VertexVertex,
        }
    }
}

/// One contact point: on the incident body, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPoint3 {
    pub point: Vec3,
    /// How far the point is inside the other body along the normal, >= 0.
    pub depth: f32,
    pub id: FeatureId3,
}

/// Up to [`MAX_POINTS`] contact points, stored inline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPoints {
    points: [ContactPoint3; MAX_POINTS],
    len: u8,
}

impl ContactPoints {
    pub(crate) fn new() -> Self {
        let empty = ContactPoint3 {
            point: Vec3::ZERO,
            depth: 0.0,
            id: FeatureId3 {
                a: Feature::Vertex(0),
                b: Feature::Vertex(0),
            },
        };
        ContactPoints {
            points: [empty; MAX_POINTS],
            len: 0,
        }
    }

    pub(crate) fn push(&mut self, p: ContactPoint3) {
        if (self.len as usize) < MAX_POINTS {
            self.points[self.len as usize] = p;
            self.len += 1;
        }
    }

    pub fn as_slice(&self) -> &[ContactPoint3] {
        &self.points[..self.len as usize]
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn iter(&self) -> std::slice::Iter<'_, ContactPoint3> {
        self.as_slice().iter()
    }

    /// The largest depth, 0 when empty.
    pub fn deepest(&self) -> f32 {
        self.iter().map(|p| p.depth).fold(0.0, f32::max)
    }
}

/// What the manifold builder found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Output {
    /// The normal it was built for, from A toward B.
    pub normal: Vec3,
    /// The supporting features of A (along the normal) and of B (against it).
    pub feature_a: Feature,
    pub feature_b: Feature,
    pub feature: FeaturePair,
    /// The body that holds the reference face (A when neither or both hold a face and A's is
    /// at least as aligned).
    pub reference: Side,
    /// How many points clipping produced before dropping and reduction (1 for the
    /// one-point cases, 2 for parallel edges).
    pub clipped: u32,
    pub points: ContactPoints,
}

/// Why a reduction step picked a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceRule {
    /// The deepest point; score = its depth.
    Deepest,
    /// The point farthest from the first; score = the distance.
    Farthest,
    /// The point making the largest triangle with the first two; score = its area.
    LargestTriangle,
    /// The point adding the most area outside the triangle; score = that area.
    MostAddedArea,
}

/// One recorded step. Points are in world coordinates.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Both supporting features and the case chosen.
    Features {
        feature_a: Feature,
        feature_b: Feature,
        case: FeaturePair,
        reference: Side,
        /// The reference face and the incident feature (face-face: the incident face).
        reference_feature: Feature,
        incident_feature: Feature,
    },
    /// The polygon (or segment) before and after clipping by the side plane of reference
    /// edge `edge`; the plane is `normal . p = offset`, points with `normal . p <= offset`
    /// are kept.
    ClipPlane {
        edge: u32,
        normal: Vec3,
        offset: f32,
        before: Vec<Vec3>,
        after: Vec<Vec3>,
    },
    /// A clipped point above the reference face by `height`: dropped.
    Dropped { point: Vec3, height: f32 },
    /// A point kept by the reduction, and the score that chose it.
    Reduce {
        rule: ReduceRule,
        point: Vec3,
        score: f32,
    },
    /// The final points.
    Points { points: Vec<ContactPoint3> },
}

/// Builds the manifold along `normal` without recording.
pub fn contact_manifold(pair: &PolyPair, normal: Vec3) -> Output {
    manifold(pair, normal, &mut ())
}

/// Builds the manifold from SAT's answer without recording: [`contact_manifold`] along
/// `sat.normal`, the same output, with less searching. When two cuboids meet on a face axis,
/// that face is the supporting feature of its body along the normal (see
/// [`face_known_from_sat`]), so only the other body's feature is searched for.
#[inline]
pub fn contact_manifold_after_sat(pair: &PolyPair, sat: &SatOutput) -> Output {
    manifold_with(pair, sat.normal, face_known_from_sat(pair, sat), &mut ())
}

/// The body and face SAT's winning axis names, when [`supporting_feature`] is sure to name
/// it too: two cuboids and a face axis. The normal is then that face's placed normal n (or
/// -n for B's), so the face's four vertices share the top height along it up to rounding
/// (1e-7 of the size, far below [`FEATURE_TOLERANCE`]): the support vertex has at least
/// two near neighbours, and of the three faces at it the face itself is the most aligned
/// (the other two are perpendicular: cosines of rounding size). Other bodies keep the
/// search (a hull's neighbouring faces may be nearly coplanar). The agreement harness
/// compares the two (`src/agreement.rs`, the manifold after SAT).
fn face_known_from_sat(pair: &PolyPair, sat: &SatOutput) -> Option<(Side, u32)> {
    let cuboids = pair.a.shape.cuboid_edges().is_some() && pair.b.shape.cuboid_edges().is_some();
    if !cuboids || !sat.intersecting || !sat.normal.is_finite() {
        return None;
    }
    match sat.axis {
        AxisId::FaceA(i) => Some((Side::A, i)),
        AxisId::FaceB(j) => Some((Side::B, j)),
        _ => None,
    }
}

/// [`contact_manifold_after_sat`], recording every step: the same steps as [`manifold`]
/// along `sat.normal` (they are made from the supporting features, which are the same),
/// without searching for the face SAT already names.
#[inline(never)]
pub fn manifold_after_sat<T: Tracer<Step>>(
    pair: &PolyPair,
    sat: &SatOutput,
    tracer: &mut T,
) -> Output {
    manifold_with(pair, sat.normal, face_known_from_sat(pair, sat), tracer)
}

/// Builds the manifold along SAT's `normal` (A toward B), recording every step.
///
/// Kept out of line (why: docs/performance.md, "Notes moved out of the source headers").
#[inline(never)]
pub fn manifold<T: Tracer<Step>>(pair: &PolyPair, normal: Vec3, tracer: &mut T) -> Output {
    manifold_with(pair, normal, None, tracer)
}

/// [`manifold`], with one body's supporting feature already known to be a face (`known`,
/// from [`face_known_from_sat`]: the face the search would find).
///
/// The output is built in the caller's place ([`manifold_into`] writes through a pointer),
/// not built here and copied out (why: docs/performance.md, "Notes moved out of the source
/// headers").
#[inline(always)]
fn manifold_with<T: Tracer<Step>>(
    pair: &PolyPair,
    normal: Vec3,
    known: Option<(Side, u32)>,
    tracer: &mut T,
) -> Output {
    let mut out = MaybeUninit::uninit();
    manifold_into(pair, normal, known, tracer, &mut out);
    // SAFETY: `manifold_into` writes the whole output before it reads or returns.
    unsafe { out.assume_init() }
}

/// (reference body, incident body, reference face) for a face-face pair.
fn bodies<'p, 'a>(
    pair: &'p PolyPair<'a>,
    side: Side,
    fa: u32,
    fb: u32,
) -> (&'p Placed3<'a>, &'p Placed3<'a>, u32) {
    match side {
        Side::A => (&pair.a, &pair.b, fa),
        Side::B => (&pair.b, &pair.a, fb),
    }
}

/// The support vertex along `dir`, widened to an edge or a face when neighbours lie within
/// [`FEATURE_TOLERANCE`] of its height. The heights are measured in the body's own frame
/// (`dir` turned into it once, as the support search does), not on vertices placed in the
/// work frame: the two differ by rounding, 1e-7 of the size, far inside the tolerance.
///
/// Always inlined (why: docs/performance.md, "Notes moved out of the source headers"); the
/// search stays out of line.
#[inline(always)]
pub fn supporting_feature(body: &Placed3, dir: Vec3) -> Feature {
    let local = body.rotation.inverse() * dir;
    let tol = FEATURE_TOLERANCE * body.shape.centroid_radius();
    if let Some(feature) = cuboid_vertex_or_edge(body.shape, local, tol) {
        return feature;
    }
    searched_feature(body, dir, local, tol)
}

/// [`supporting_feature`] by the search: the support vertex, its neighbours' heights.
#[inline(never)]
fn searched_feature(body: &Placed3, dir: Vec3, local: Vec3, tol: f32) -> Feature {
    let s = body.shape.support(local);
    let top = body.shape.vertex(s).dot(local);
    let mut near = 0;
    let mut edge = 0;
    for &(v, e) in body.shape.neighbours(s) {
        if body.shape.vertex(v as usize).dot(local) >= top - tol {
            near += 1;
            edge = e;
        }
    }
    match near {
        0 => Feature::Vertex(s as u32),
        1 => Feature::Edge(edge),
        _ => {
            // The face at s most aligned with dir: faces at s are those of its edges.
            let mut best = (f32::NEG_INFINITY, 0u32);
            for &(_, e) in body.shape.neighbours(s) {
                for f in body.shape.edges()[e as usize].faces {
                    let d = body.face_normal(f as usize).dot(dir);
                    if d > best.0 {
                        best = (d, f);
                    }
                }
            }
            Feature::Face(best.1)
        }
    }
}

/// [`supporting_feature`] of a cuboid along `local` (its own frame) when that is a vertex or
/// an edge clear of the tolerance band, without the search; `None` otherwise (a face, or a
/// neighbour's height within rounding of `top - tol`), and for other bodies.
///
/// A cuboid's vertices are `(+-x, +-y, +-z)`, so two vertices that differ in the sign of
/// coordinate i differ in height by exactly `d_i = 2 |h_i local_i|`. If `d_k < tol` and
/// the other two `d` are above `tol`, the two ends of the edge along axis k on the side of
/// `local`'s signs are the highest vertices, the others lower by more than `tol`: the
/// search's support vertex is one of those ends, its only neighbour within `tol` the other,
/// and it answers that edge. If every `d` is above `tol`, the corner with `local`'s signs
/// is the only vertex in the band: a vertex. The search compares rounded dot products, off
/// by at most about `3 e (|h_x l_x| + |h_y l_y| + |h_z l_z|)` each; each comparison here
/// keeps twice that and more ([`f32::EPSILON`] `e`) from `tol`, so the answer is the
/// search's (a unit test compares the two near the band's edges).
#[inline]
fn cuboid_vertex_or_edge(shape: &Polyhedron, local: Vec3, tol: f32) -> Option<Feature> {
    let (Shape3Kind::Cuboid { half_extents: h }, Some(edges)) =
        (shape.kind(), shape.cuboid_edges())
    else {
        return None;
    };
    let heights = (*h * local).abs();
    let drops = heights * 2.0;
    let slack = 6.0 * f32::EPSILON * (heights.x + heights.y + heights.z + tol);
    let near = drops.cmplt(Vec3::splat(tol - slack)).bitmask();
    let far = drops.cmpgt(Vec3::splat(tol + slack)).bitmask();
    if near | far != 0b111 {
        return None;
    }
    // The edge along k on the side of local's p and q signs (the layout of `CuboidEdges`).
    let edge_along = |k: usize| {
        let (p, q) = ((k + 1) % 3, (k + 2) % 3);
        edges[k][(local[p] > 0.0) as usize | ((local[q] > 0.0) as usize) << 1]
    };
    match near {
        0b000 => {
            // The end of the x edge on local's side of x.
            let e = shape.edges()[edge_along(0) as usize];
            let tail_side = shape.vertex(e.tail as usize).x > 0.0;
            let v = if tail_side == (local.x > 0.0) {
                e.tail
            } else {
                e.head
            };
            Some(Feature::Vertex(v))
        }
        0b001 => Some(Feature::Edge(edge_along(0) as u32)),
        0b010 => Some(Feature::Edge(edge_along(1) as u32)),
        0b100 => Some(Feature::Edge(edge_along(2) as u32)),
        _ => None,
    }
}

fn most_antiparallel_face(body: &Placed3, normal: Vec3) -> u32 {
    let mut best = (f32::INFINITY, 0u32);
    for f in 0..body.shape.face_count() {
        let d = body.face_normal(f).dot(normal);
        if d < best.0 {
            best = (d, f as u32);
        }
    }
    best.1
}

fn feature_segment(body: &Placed3, f: Feature) -> (Vec3, Vec3) {
    match f {
        Feature::Vertex(v) => {
            let p = body.vertex(v as usize);
            (p, p)
        }
        Feature::Edge(e) | Feature::Face(e) => {
            // Faces never reach here; an edge gives its ends.
            let edge = body.shape.edges()[e as usize];
            (
                body.vertex(edge.tail as usize),
                body.vertex(edge.head as usize),
            )
        }
    }
}

/// Closest points of segments p0-p1 and q0-q1 (Ericson 5.1.9), degenerate segments allowed.
pub fn closest_points(p0: Vec3, p1: Vec3, q0: Vec3, q1: Vec3) -> (Vec3, Vec3) {
    let d1 = p1 - p0;
    let d2 = q1 - q0;
    let r = p0 - q0;
    let a = d1.dot(d1);
    let e = d2.dot(d2);
    let f = d2.dot(r);
    let tiny = f32::MIN_POSITIVE;
    let (s, t);
    if a <= tiny && e <= tiny {
        return (p0, q0);
    }
    if a <= tiny {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if e <= tiny {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let s0 = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            } else {
                t = t0;
                s = s0;
            }
        }
    }
    (p0 + d1 * s, q0 + d2 * t)
}

fn edge_edge(pair: &PolyPair, n: Vec3, ea: u32, eb: u32, out: &mut Output) {
    let a_edge = pair.a.shape.edges()[ea as usize];
    let b_edge = pair.b.shape.edges()[eb as usize];
    let (a0, a1) = (
        pair.a.vertex(a_edge.tail as usize),
        pair.a.vertex(a_edge.head as usize),
    );
    let (b0, b1) = (
        pair.b.vertex(b_edge.tail as usize),
        pair.b.vertex(b_edge.head as usize),
    );
    let (da, db) = (a1 - a0, b1 - b0);
    let id = FeatureId3 {
        a: Feature::Edge(ea),
        b: Feature::Edge(eb),
    };
    let parallel = da.cross(db).length_squared()
        < PARALLEL_TOLERANCE * PARALLEL_TOLERANCE * da.length_squared() * db.length_squared();
    if parallel && da.length_squared() > 0.0 {
        // B's ends as parameters along A's edge; the overlap of [0, 1] with their span.
        let len2 = da.length_squared();
        let t0 = (b0 - a0).dot(da) / len2;
        let t1 = (b1 - a0).dot(da) / len2;
        let lo = t0.min(t1).max(0.0);
        let hi = t0.max(t1).min(1.0);
        if lo < hi {
            out.clipped = 2;
            for t in [lo, hi] {
                let on_a = a0 + da * t;
                // The point of B's edge beside it.
                let s = ((on_a - b0).dot(db) / db.length_squared()).clamp(0.0, 1.0);
                let on_b = b0 + db * s;
                out.points.push(ContactPoint3 {
                    point: pair.to_world(on_b),
                    depth: (-(on_b - on_a).dot(n)).max(0.0),
                    id,
                });
            }
            return;
        }
    }
    let (pa, pb) = closest_points(a0, a1, b0, b1);
    out.points.push(ContactPoint3 {
        point: pair.to_world(pb),
        depth: (-(pb - pa).dot(n)).max(0.0),
        id,
    });
}

/// A vertex of the clip polygon (work frame) with its features, and the feature the
/// polygon's side from this vertex to the next lies on.
#[derive(Clone, Copy, Debug)]
struct ClipVertex {
    point: Vec3,
    /// (reference body's feature, incident body's feature).
    reference: Feature,
    incident: Feature,
    next: Along,
}

/// What the side of the clip polygon that starts at a vertex lies on.
#[derive(Clone, Copy, Debug)]
enum Along {
    /// An edge of the incident face.
    IncidentEdge(u32),
    /// The side plane of the reference face's loop edge at this position.
    ReferenceSide(usize),
}

/// A polygon in a fixed array that spills to the heap beyond [`CLIP_CAPACITY`].
struct ClipBuffer {
    inline: InlineVec<ClipVertex, CLIP_CAPACITY>,
    heap: Vec<ClipVertex>,
}

impl ClipBuffer {
    fn new() -> Self {
        ClipBuffer {
            inline: InlineVec::new(),
            heap: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.inline.clear();
        self.heap.clear();
    }

    fn push(&mut self, v: ClipVertex) {
        if self.inline.len() < CLIP_CAPACITY {
            self.inline.push(v);
        } else {
            if self.heap.is_empty() {
                self.heap = self.inline.as_slice().to_vec();
            }
            self.heap.push(v);
        }
    }

    fn as_slice(&self) -> &[ClipVertex] {
        if !self.heap.is_empty() {
            return &self.heap;
        }
        self.inline.as_slice()
    }
}

fn points_of(pair: &PolyPair, poly: &[ClipVertex]) -> Vec<Vec3> {
    poly.iter().map(|v| pair.to_world(v.point)).collect()
}

#[allow(clippy::too_many_arguments)]
fn face_face<T: Tracer<Step>>(
    pair: &PolyPair,
    side: Side,
    r: u32,
    inc: u32,
    touch: f32,
    out: &mut Output,
    tracer: &mut T,
) {
    let (reference, incident) = match side {
        Side::A => (&pair.a, &pair.b),
        Side::B => (&pair.b, &pair.a),
    };
    let mut poly = ClipBuffer::new();
    let mut scratch = ClipBuffer::new();
    let inc_face = incident.shape.face(inc as usize);
    for (k, &v) in inc_face.vertices.iter().enumerate() {
        poly.push(ClipVertex {
            point: incident.vertex(v as usize),
            reference: Feature::Face(r),
            incident: Feature::Vertex(v),
            next: Along::IncidentEdge(inc_face.edges[k]),
        });
    }
    let ref_face = reference.shape.face(r as usize);
    let ref_normal = reference.face_normal(r as usize);
    let ref_offset = reference.face_offset(r as usize);
    for k in 0..ref_face.vertices.len() {
        let (side_normal, side_offset) = side_plane(reference, r, k);
        let ref_edge = ref_face.edges[k];
        scratch.clear();
        clip_polygon(
            poly.as_slice(),
            side_normal,
            side_offset,
            &ref_face,
            k,
            inc,
            &mut scratch,
        );
        tracer.record(|| Step::ClipPlane {
            edge: ref_edge,
            normal: side_normal,
            offset: side_offset + side_normal.dot(pair.origin),
            before: points_of(pair, poly.as_slice()),
            after: points_of(pair, scratch.as_slice()),
        });
        std::mem::swap(&mut poly, &mut scratch);
    }
    out.clipped = poly.as_slice().len() as u32;
    // Keep the points below (or touching) the reference face.
    let mut kept = ClipBuffer::new();
    for v in poly.as_slice() {
        let height = ref_normal.dot(v.point) - ref_offset;
        if height > touch {
            tracer.record(|| Step::Dropped {
                point: pair.to_world(v.point),
                height,
            });
        } else {
            kept.push(*v);
        }
    }
    let kept = kept.as_slice();
    let to_point = |v: &ClipVertex| ContactPoint3 {
        point: pair.to_world(v.point),
        depth: (ref_offset - ref_normal.dot(v.point)).max(0.0),
        id: FeatureId3::new(side, v.reference, v.incident),
    };
    if kept.is_empty() {
        // Nothing under the face (a tolerance-selected face slightly off the overlap): the
        // incident body's deepest vertex along the normal, as deep as the bodies overlap
        // along it (not as deep as it is below the face's plane, beyond the face).
        let d = toward_incident(side, out.normal);
        let v = incident.support_index(-d) as u32;
        let p = incident.vertex(v as usize);
        out.points.push(ContactPoint3 {
            point: pair.to_world(p),
            depth: depth_along(reference, d, p),
            id: FeatureId3::new(side, Feature::Face(r), Feature::Vertex(v)),
        });
        return;
    }
    if kept.len() <= MAX_POINTS {
        for v in kept {
            out.points.push(to_point(v));
        }
        return;
    }
    reduce(pair, kept, ref_normal, ref_offset, &to_point, out, tracer);
}

/// Sutherland-Hodgman: the part of `poly` with `normal . p <= offset`, the side plane of
/// the reference face's loop edge `k`.
fn clip_polygon(
    poly: &[ClipVertex],
    normal: Vec3,
    offset: f32,
    ref_face: &FaceView,
    k: usize,
    incident_face: u32,
    out: &mut ClipBuffer,
) {
    let n = poly.len();
    let count = ref_face.vertices.len();
    for i in 0..n {
        let p = poly[i];
        let q = poly[(i + 1) % n];
        let dp = normal.dot(p.point) - offset;
        let dq = normal.dot(q.point) - offset;
        if dp <= 0.0 {
            out.push(p);
        }
        if (dp <= 0.0) != (dq <= 0.0) {
            let t = dp / (dp - dq);
            // Where the side p-q meets this side plane: on an incident edge it is an
            // edge-edge crossing; on an earlier side plane it is the reference face's corner
            // between the two side planes, over the incident face.
            let (reference, incident) = match p.next {
                Along::IncidentEdge(e) => (Feature::Edge(ref_face.edges[k]), Feature::Edge(e)),
                Along::ReferenceSide(j) => {
                    let corner = if (j + 1) % count == k { k } else { j };
                    (
                        Feature::Vertex(ref_face.vertices[corner]),
                        Feature::Face(incident_face),
                    )
                }
            };
            out.push(ClipVertex {
                point: p.point + (q.point - p.point) * t,
                reference,
                incident,
                // Leaving, the polygon now runs along this side plane; entering, along the
                // side it came in on.
                next: if dp <= 0.0 {
                    Along::ReferenceSide(k)
                } else {
                    p.next
                },
            });
        }
    }
}

fn reduce<T: Tracer<Step>>(
    pair: &PolyPair,
    kept: &[ClipVertex],
    normal: Vec3,
    offset: f32,
    to_point: &impl Fn(&ClipVertex) -> ContactPoint3,
    out: &mut Output,
    tracer: &mut T,
) {
    let depth = |v: &ClipVertex| offset - normal.dot(v.point);
    let mut chosen = [0usize; MAX_POINTS];
    // 1. the deepest
    let mut first = (f32::NEG_INFINITY, 0usize);
    for (i, v) in kept.iter().enumerate() {
        if depth(v) > first.0 {
            first = (depth(v), i);
        }
    }
    chosen[0] = first.1;
    let p1 = kept[first.1].point;
    tracer.record(|| Step::Reduce {
        rule: ReduceRule::Deepest,
        point: pair.to_world(p1),
        score: first.0,
    });
    // 2. the farthest from it
    let mut second = (-1.0f32, first.1);
    for (i, v) in kept.iter().enumerate() {
        let d = (v.point - p1).length_squared();
        if d > second.0 {
            second = (d, i);
        }
    }
    chosen[1] = second.1;
    let p2 = kept[second.1].point;
    tracer.record(|| Step::Reduce {
        rule: ReduceRule::Farthest,
        point: pair.to_world(p2),
        score: second.0.sqrt(),
    });
    // 3. the largest triangle with them (signed area about the normal, either sign)
    let area = |a: Vec3, b: Vec3, c: Vec3| 0.5 * (b - a).cross(c - a).dot(normal);
    let mut third = (-1.0f32, first.1, 0.0f32);
    for (i, v) in kept.iter().enumerate() {
        let s = area(p1, p2, v.point);
        if s.abs() > third.0 {
            third = (s.abs(), i, s);
        }
    }
    chosen[2] = third.1;
    let p3 = kept[third.1].point;
    tracer.record(|| Step::Reduce {
        rule: ReduceRule::LargestTriangle,
        point: pair.to_world(p3),
        score: third.0,
    });
    // 4. the point adding the most area outside the triangle (on the far side of one of
    // its edges, measured with the triangle's orientation)
    let sign = if third.2 < 0.0 { -1.0 } else { 1.0 };
    let mut fourth = (0.0f32, usize::MAX);
    for (i, v) in kept.iter().enumerate() {
        if chosen[..3].contains(&i) {
            continue;
        }
        let q = v.point;
        let added = [(p1, p2), (p2, p3), (p3, p1)]
            .iter()
            .map(|&(a, b)| -sign * area(a, b, q))
            .fold(0.0f32, f32::max);
        if added > fourth.0 {
            fourth = (added, i);
        }
    }
    let mut count = 3;
    if fourth.1 != usize::MAX {
        chosen[3] = fourth.1;
        count = 4;
        let p4 = kept[fourth.1].point;
        tracer.record(|| Step::Reduce {
            rule: ReduceRule::MostAddedArea,
            point: pair.to_world(p4),
            score: fourth.0,
        });
    }
    // Keep the polygon's order, so the four points go round the patch.
    let mut order = chosen;
    order[..count].sort_unstable();
    let mut last = usize::MAX;
    for &i in &order[..count] {
        if i != last {
            out.points.push(to_point(&kept[i]));
        }
        last = i;
    }
}

#[allow(clippy::too_many_arguments)]
fn edge_face<T: Tracer<Step>>(
    pair: &PolyPair,
    side: Side,
    f: u32,
    e: u32,
    touch: f32,
    out: &mut Output,
    tracer: &mut T,
) {
    let (reference, incident) = match side {
        Side::A => (&pair.a, &pair.b),
        Side::B => (&pair.b, &pair.a),
    };
    let edge = incident.shape.edges()[e as usize];
    let mut ends = [
        (
            incident.vertex(edge.tail as usize),
            Feature::Face(f),
            Feature::Vertex(edge.tail),
        ),
        (
            incident.vertex(edge.head as usize),
            Feature::Face(f),
            Feature::Vertex(edge.head),
        ),
    ];
    let ref_normal = reference.face_normal(f as usize);
    let ref_offset = reference.face_offset(f as usize);
    let alive = clip_segment_by_side_planes(reference, f, &mut ends, e, pair.origin, tracer);
    out.clipped = if alive { 2 } else { 0 };
    if alive {
        for (p, rf, inf) in ends {
            let height = ref_normal.dot(p) - ref_offset;
            if height > touch {
                tracer.record(|| Step::Dropped {
                    point: pair.to_world(p),
                    height,
                });
                continue;
            }
            out.points.push(ContactPoint3 {
                point: pair.to_world(p),
                depth: (-height).max(0.0),
                id: FeatureId3::new(side, rf, inf),
            });
        }
        // Two ends clipped to one point (the edge crosses the face's corner): keep one.
        if out.points.len() == 2
            && (out.points.points[0].point - out.points.points[1].point).length_squared() == 0.0
        {
            out.points.len = 1;
        }
    }
    if out.points.is_empty() {
        // Nothing left (the edge lies beside the face, not over it): the edge's deeper end
        // along the normal, as deep as the bodies overlap along the normal there. Measured
        // against the face's plane instead, an end beside a face tilted from the normal
        // would count as deep as the plane runs below it (robustness case 3770: 0.95 deep
        // at a sweep's first contact, where the bodies just touch).
        let d = toward_incident(side, out.normal);
        let (t, h) = (edge.tail, edge.head);
        let height = |v: u32| incident.vertex(v as usize).dot(d);
        let v = if height(h) < height(t) { h } else { t };
        let p = incident.vertex(v as usize);
        out.points.push(ContactPoint3 {
            point: pair.to_world(p),
            depth: depth_along(reference, d, p),
            id: FeatureId3::new(side, Feature::Face(f), Feature::Vertex(v)),
        });
    }
}

/// The direction from the reference body toward the incident one: the normal when A holds
/// the reference face, its opposite when B does.
fn toward_incident(side: Side, normal: Vec3) -> Vec3 {
    match side {
        Side::A => normal,
        Side::B => -normal,
    }
}

/// How far the incident body's point `p` lies inside the reference body's extent along `d`
/// (from the reference toward the incident body), >= 0. No deeper than the overlap of the
/// two bodies' projections on `d`.
fn depth_along(reference: &Placed3, d: Vec3, p: Vec3) -> f32 {
    let top = reference.vertex(reference.support_index(d)).dot(d);
    (top - p.dot(d)).max(0.0)
}

/// One end of a segment being clipped: the point (work frame) and the features of the
/// reference and incident bodies it comes from.
pub(super) type SegmentEnd = (Vec3, Feature, Feature);

/// The side plane through edge `k` of face `f` of `reference` (from the face's vertex `k`
/// to the next): perpendicular to the face, its unit normal pointing out of the face, as
/// (normal, offset) with `normal . p <= offset` on the face's side (work frame).
#[inline]
fn side_plane(reference: &Placed3, f: u32, k: usize) -> (Vec3, f32) {
    let face = reference.shape.face(f as usize);
    let count = face.vertices.len();
    let p0 = reference.vertex(face.vertices[k] as usize);
    let p1 = reference.vertex(face.vertices[(k + 1) % count] as usize);
    let normal = (p1 - p0)
        .cross(reference.face_normal(f as usize))
        .normalize_or_zero();
    (normal, normal.dot(p0))
}

/// Clips the segment `ends` by each side plane of face `f` of `reference` in turn
/// (Sutherland-Hodgman on two points): an end outside a side plane moves to where the segment
/// crosses it and takes that side's edge (and `incident_edge`) as its features. Records each
/// plane with the segment before and after (in world coordinates, `origin` being the work
/// frame's). Returns false when the whole segment lies outside one plane.
pub(super) fn clip_segment_by_side_planes<T: Tracer<Step>>(
    reference: &Placed3,
    f: u32,
    ends: &mut [SegmentEnd; 2],
    incident_edge: u32,
    origin: Vec3,
    tracer: &mut T,
) -> bool {
    let face = reference.shape.face(f as usize);
    for k in 0..face.vertices.len() {
        let (side_normal, side_offset) = side_plane(reference, f, k);
        let before = *ends;
        let d0 = side_normal.dot(ends[0].0) - side_offset;
        let d1 = side_normal.dot(ends[1].0) - side_offset;
        let alive = !(d0 > 0.0 && d1 > 0.0);
        if alive && (d0 > 0.0 || d1 > 0.0) {
            let out_end = if d0 > 0.0 { 0 } else { 1 };
            let t = d0 / (d0 - d1);
            ends[out_end] = (
                ends[0].0 + (ends[1].0 - ends[0].0) * t,
                Feature::Edge(face.edges[k]),
                Feature::Edge(incident_edge),
            );
        }
        tracer.record(|| Step::ClipPlane {
            edge: face.edges[k],
            normal: side_normal,
            offset: side_offset + side_normal.dot(origin),
            before: before.iter().map(|x| x.0 + origin).collect(),
            after: if alive {
                ends.iter().map(|x| x.0 + origin).collect()
            } else {
                Vec::new()
            },
        });
        if !alive {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom3::{Polyhedron, Pose3};
    use crate::query3::sat::sat_test;
    use crate::query3::testing::*;
    use glam::Quat;

    const RIDGE: f32 = std::f32::consts::FRAC_1_SQRT_2;

    /// A cube's body diagonal along y: vertex (0.5, 0.5, 0.5) on top at (0, sqrt(3)/2, 0).
    fn corner_up(p: Vec3) -> Pose3 {
        let tilt = -(1.0f32 / 2f32.sqrt()).atan();
        Pose3::new(
            p,
            Quat::from_rotation_x(tilt) * Quat::from_rotation_z(45f32.to_radians()),
        )
    }

    fn run_with(
        a: &Polyhedron,
        pa: Pose3,
        b: &Polyhedron,
        pb: Pose3,
        normal: Option<Vec3>,
    ) -> (Output, Vec<Step>) {
        let pair = PolyPair::new(a, &pa, b, &pb);
        let n = normal.unwrap_or_else(|| sat_test(&pair).normal);
        let mut steps = Vec::new();
        let out = manifold(&pair, n, &mut steps);
        assert_eq!(
            out,
            contact_manifold(&pair, n),
            "traced and untraced differ"
        );
        (out, steps)
    }

    fn has_point(out: &Output, p: Vec3, depth: f32) -> bool {
        out.points
            .iter()
            .any(|c| close_v(c.point, p, 1e-5) && close(c.depth, depth, 1e-5))
    }

    #[test]
    fn a_cuboids_vertex_or_edge_in_closed_form_is_the_searched_feature() {
        // Directions near each face normal, edge and corner, tilted by amounts around the
        // tolerance band's edge (where a neighbour's height is within rounding of it), and
        // random ones: wherever the closed form answers, the search answers the same.
        let mut f = uniform(0x5eed_c0b0);
        let (mut answered, mut edges, mut vertices) = (0, 0, 0);
        for round in 0..200 {
            let shape = cuboid(f(0.05, 2.0), f(0.05, 2.0), f(0.05, 2.0));
            let pose = Pose3::new(
                Vec3::new(f(-9.0, 9.0), f(-9.0, 9.0), f(-9.0, 9.0)),
                glam::Quat::from_euler(
                    glam::EulerRot::XYZ,
                    f(-3.0, 3.0),
                    f(-1.5, 1.5),
                    f(-3.0, 3.0),
                ),
            );
            let body = Placed3::new(&shape, &pose, Vec3::new(1.0, 2.0, 3.0));
            let tol = FEATURE_TOLERANCE * shape.centroid_radius();
            for k in 0..300 {
                let base = match k % 3 {
                    0 => Vec3::from(std::array::from_fn(
                        |i| if i == k % 9 / 3 { 1.0 } else { 0.0 },
                    )),
                    1 => Vec3::new(f(-1.0, 1.0).signum(), f(-1.0, 1.0).signum(), 0.0),
                    _ => Vec3::new(f(-1.0, 1.0), f(-1.0, 1.0), f(-1.0, 1.0)),
                };
                // Tilts from 1e-7 to 1e-1 of a radian, most of them near the band's edge.
                let tilt = 10f32.powf(f(-7.0, -1.0)) * f(-1.0, 1.0);
                let local = (base + Vec3::new(f(-1.0, 1.0), f(-1.0, 1.0), f(-1.0, 1.0)) * tilt)
                    .normalize_or(Vec3::Y);
                let dir = body.rotation * local;
                let local = body.rotation.inverse() * dir;
                let Some(fast) = cuboid_vertex_or_edge(&shape, local, tol) else {
                    continue;
                };
                let searched = searched_feature(&body, dir, local, tol);
                assert_eq!(fast, searched, "round {round} direction {k}: {local:?}");
                answered += 1;
                match fast {
                    Feature::Edge(_) => edges += 1,
                    Feature::Vertex(_) => vertices += 1,
                    Feature::Face(_) => unreachable!(),
                }
            }
        }
        assert!(
            answered > 20_000 && edges > 5_000 && vertices > 5_000,
            "{answered} {edges} {vertices}"
        );
    }

    #[test]
    fn slab_and_cube_give_four_face_face_points() {
        // The issue's hand-checked case.
        let (out, steps) = run_with(
            &cuboid(1.0, 0.5, 1.0),
            at(0., 0., 0.),
            &cuboid(0.5, 0.5, 0.5),
            at(0., 0.9, 0.),
            None,
        );
        assert_eq!(out.feature, FeaturePair::FaceFace);
        assert_eq!(out.reference, Side::A);
        assert_eq!(out.normal, Vec3::Y);
        assert_eq!(out.clipped, 4);
        assert_eq!(out.points.len(), 4);
        for (x, z) in [(0.5, 0.5), (0.5, -0.5), (-0.5, 0.5), (-0.5, -0.5)] {
            assert!(has_point(&out, Vec3::new(x, 0.4, z), 0.1), "{out:?}");
        }
        // Four side planes, each keeping the incident square whole.
        let clips = steps
            .iter()
            .filter(|s| matches!(s, Step::ClipPlane { before, after, .. } if before.len() == 4 && after.len() == 4))
            .count();
        assert_eq!(clips, 4);
        // Ids: A's top face against each of B's bottom vertices.
        for c in out.points.iter() {
            assert!(matches!(c.id.a, Feature::Face(_)) && matches!(c.id.b, Feature::Vertex(_)));
        }
    }

    #[test]
    fn an_octagon_of_clipped_points_reduces_to_four() {
        // B's bottom square (half 0.9) turned 45 degrees about y reaches 1.27 along x and z,
        // beyond the slab's top face (half 1): each of its 4 corners is cut off, 8 points.
        let (out, steps) = run_with(
            &cuboid(1.0, 0.5, 1.0),
            at(0., 0., 0.),
            &cuboid(0.9, 0.5, 0.9),
            at_deg(Vec3::new(0., 0.9, 0.), Vec3::new(0., 45., 0.)),
            None,
        );
        assert_eq!(out.feature, FeaturePair::FaceFace);
        assert_eq!(out.clipped, 8);
        assert_eq!(out.points.len(), 4);
        let Some(Step::ClipPlane { after, .. }) =
            steps.iter().rfind(|s| matches!(s, Step::ClipPlane { .. }))
        else {
            panic!()
        };
        for c in out.points.iter() {
            assert!(close(c.depth, 0.1, 1e-5));
            assert!(after.iter().any(|p| close_v(*p, c.point, 1e-6)));
            // Octagon corners: on the slab's edge lines x = +-1 or z = +-1.
            assert!(close(c.point.x.abs(), 1.0, 1e-5) || close(c.point.z.abs(), 1.0, 1e-5));
        }
        let reductions = steps
            .iter()
            .filter(|s| matches!(s, Step::Reduce { .. }))
            .count();
        assert_eq!(reductions, 4);
        // Clipped corners are edge-edge crossings: an edge of A's face and an edge of B's.
        assert!(out
            .points
            .iter()
            .all(|c| matches!((c.id.a, c.id.b), (Feature::Edge(_), Feature::Edge(_)))));
    }

    #[test]
    fn a_corner_on_a_slab_is_vertex_face() {
        let half_diagonal = 0.75f32.sqrt();
        let (out, _) = run_with(
            &cuboid(1.0, 0.5, 1.0),
            at(0., 0., 0.),
            &cuboid(0.5, 0.5, 0.5),
            corner_up(Vec3::new(0.1, 0.5 + half_diagonal - 0.05, 0.2)),
            None,
        );
        assert_eq!(out.feature, FeaturePair::VertexFace);
        assert_eq!(out.reference, Side::A);
        assert_eq!(out.points.len(), 1);
        assert!(has_point(&out, Vec3::new(0.1, 0.45, 0.2), 0.05), "{out:?}");
        assert!(matches!(out.feature_b, Feature::Vertex(_)));
    }

    #[test]
    fn a_ridge_on_a_slab_is_edge_face_clipped_by_the_side_planes() {
        // B turned 45 degrees about z rests its bottom edge (along z, length 1) on the slab.
        let b = cuboid(0.5, 0.5, 0.5);
        let pose_b = at_deg(
            Vec3::new(0., 0.5 + RIDGE - 0.05, 0.),
            Vec3::new(0., 0., 45.),
        );
        let (out, _) = run_with(&cuboid(1.0, 0.5, 1.0), at(0., 0., 0.), &b, pose_b, None);
        assert_eq!(out.feature, FeaturePair::EdgeFace);
        assert_eq!(out.points.len(), 2);
        assert!(has_point(&out, Vec3::new(0., 0.45, 0.5), 0.05), "{out:?}");
        assert!(has_point(&out, Vec3::new(0., 0.45, -0.5), 0.05), "{out:?}");
        // A narrower slab (half 0.3 in z) cuts the edge at its side planes.
        let (out, steps) = run_with(&cuboid(1.0, 0.5, 0.3), at(0., 0., 0.), &b, pose_b, None);
        assert_eq!(out.feature, FeaturePair::EdgeFace);
        assert!(has_point(&out, Vec3::new(0., 0.45, 0.3), 0.05), "{out:?}");
        assert!(has_point(&out, Vec3::new(0., 0.45, -0.3), 0.05), "{out:?}");
        assert!(out
            .points
            .iter()
            .all(|c| matches!((c.id.a, c.id.b), (Feature::Edge(_), Feature::Edge(_)))));
        assert!(steps
            .iter()
            .any(|s| matches!(s, Step::ClipPlane { before, after, .. } if before != after)));
        // A slab beside the edge's line leaves nothing: one point, the deeper end.
        let (out, _) = run_with(
            &cuboid(1.0, 0.5, 1.0),
            at(0., 0., 0.),
            &b,
            at_deg(
                Vec3::new(0., 0.5 + RIDGE - 0.05, 1.6),
                Vec3::new(0., 0., 45.),
            ),
            Some(Vec3::Y),
        );
        assert_eq!(out.feature, FeaturePair::EdgeFace);
        assert_eq!(out.points.len(), 1);
        assert_eq!(out.clipped, 0);
    }

    #[test]
    fn crossed_ridges_are_edge_edge_at_the_closest_points() {
        let a = cuboid(0.5, 0.5, 0.5);
        let (out, _) = run_with(
            &a,
            at_deg(Vec3::ZERO, Vec3::new(0., 0., 45.)),
            &a,
            at_deg(Vec3::new(0., 2. * RIDGE - 0.02, 0.), Vec3::new(45., 0., 0.)),
            None,
        );
        assert_eq!(out.feature, FeaturePair::EdgeEdge);
        assert_eq!(out.points.len(), 1);
        assert!(
            has_point(&out, Vec3::new(0., RIDGE - 0.02, 0.), 0.02),
            "{out:?}"
        );
    }

    #[test]
    fn parallel_ridges_give_two_points_at_the_ends_of_their_overlap() {
        // Both turned 45 degrees about z: A's top ridge and B's bottom ridge run along z;
        // B shifted 0.3 along z, so they overlap over z in [-0.2, 0.5].
        let a = cuboid(0.5, 0.5, 0.5);
        let (out, _) = run_with(
            &a,
            at_deg(Vec3::ZERO, Vec3::new(0., 0., 45.)),
            &a,
            at_deg(
                Vec3::new(0., 2. * RIDGE - 0.02, 0.3),
                Vec3::new(0., 0., 45.),
            ),
            Some(Vec3::Y),
        );
        assert_eq!(out.feature, FeaturePair::EdgeEdge);
        assert_eq!(out.clipped, 2);
        assert!(
            has_point(&out, Vec3::new(0., RIDGE - 0.02, -0.2), 0.02),
            "{out:?}"
        );
        assert!(
            has_point(&out, Vec3::new(0., RIDGE - 0.02, 0.5), 0.02),
            "{out:?}"
        );
    }

    #[test]
    fn corner_against_ridge_and_corner_against_corner_give_one_point() {
        let a = cuboid(0.5, 0.5, 0.5);
        let half_diagonal = 0.75f32.sqrt();
        let (out, _) = run_with(
            &a,
            corner_up(Vec3::ZERO),
            &a,
            at_deg(
                Vec3::new(0., half_diagonal + RIDGE - 0.01, 0.1),
                Vec3::new(0., 0., 45.),
            ),
            Some(Vec3::Y),
        );
        assert_eq!(out.feature, FeaturePair::VertexEdge);
        assert!(
            has_point(&out, Vec3::new(0., half_diagonal - 0.01, 0.), 0.01),
            "{out:?}"
        );
        let (out, _) = run_with(
            &a,
            corner_up(Vec3::ZERO),
            &a,
            corner_up(Vec3::new(0., 2. * half_diagonal - 0.01, 0.)),
            Some(Vec3::Y),
        );
        assert_eq!(out.feature, FeaturePair::VertexVertex);
        assert!(
            has_point(&out, Vec3::new(0., half_diagonal - 0.01, 0.), 0.01),
            "{out:?}"
        );
    }

    #[test]
    fn equal_alignment_keeps_a_as_reference_and_a_clearly_better_b_face_wins() {
        let (out, _) = run_with(
            &cuboid(0.5, 0.5, 0.5),
            at(0., 0., 0.),
            &cuboid(1.0, 0.5, 1.0),
            at(0., 0.9, 0.),
            None,
        );
        assert_eq!(out.feature, FeaturePair::FaceFace);
        assert_eq!(out.reference, Side::A);
        assert!(has_point(&out, Vec3::new(0.5, 0.4, 0.5), 0.1), "{out:?}");
        // A tall post (top face 0.2 wide, bounding radius 5) tilted 1 degree about x: its
        // top face is still a face within the feature tolerance, but B's bottom face is
        // exactly anti-parallel to the normal (0, 1, 0): B is the reference and the points
        // are the post's top corners.
        let tilt = 1f32.to_radians();
        let top = Vec3::new(0., 5. * tilt.cos(), 5. * tilt.sin());
        let (out, _) = run_with(
            &cuboid(0.1, 5.0, 0.1),
            at_deg(Vec3::ZERO, Vec3::new(1., 0., 0.)),
            &cuboid(0.5, 0.5, 0.5),
            at(0., top.y + 0.45, top.z),
            Some(Vec3::Y),
        );
        assert_eq!(out.feature, FeaturePair::FaceFace);
        assert_eq!(out.reference, Side::B);
        assert_eq!(out.points.len(), 4);
        for c in out.points.iter() {
            assert!(close(c.depth, 0.05, 0.002), "{out:?}");
            assert!(matches!(
                (c.id.a, c.id.b),
                (Feature::Vertex(_), Feature::Face(_))
            ));
        }
    }

    #[test]
    fn points_above_the_reference_face_are_dropped() {
        // B tilted 0.03 degrees about x (its bottom corners differ in height by 5.2e-4,
        // within the feature tolerance, so still a face) and sunk 1e-4 at its centre: the
        // corners at z = +0.5 are 3.6e-4 deep, those at z = -0.5 1.6e-4 above: dropped.
        let (out, steps) = run_with(
            &cuboid(1.0, 0.5, 1.0),
            at(0., 0., 0.),
            &cuboid(0.5, 0.5, 0.5),
            at_deg(Vec3::new(0., 1.0 - 1e-4, 0.), Vec3::new(0.03, 0., 0.)),
            None,
        );
        assert_eq!(out.feature, FeaturePair::FaceFace);
        assert_eq!(out.clipped, 4);
        assert_eq!(out.points.len(), 2);
        let dropped: Vec<f32> = steps
            .iter()
            .filter_map(|s| match s {
                Step::Dropped { height, .. } => Some(*height),
                _ => None,
            })
            .collect();
        assert_eq!(dropped.len(), 2);
        for h in dropped {
            assert!(close(h, 1.618e-4, 2e-6), "{h}");
        }
        for c in out.points.iter() {
            assert!(
                close(c.point.z, 0.5, 1e-3) && close(c.depth, 3.618e-4, 2e-6),
                "{c:?}"
            );
        }
    }

    #[test]
    fn feature_ids_stay_the_same_under_small_motions() {
        let ids = |offset: Vec3, turn: f32| {
            let (out, _) = run_with(
                &cuboid(1.0, 0.5, 1.0),
                at(0., 0., 0.),
                &cuboid(0.9, 0.5, 0.9),
                at_deg(
                    Vec3::new(0., 0.9, 0.) + offset,
                    Vec3::new(0., 45. + turn, 0.),
                ),
                None,
            );
            let mut ids: Vec<[u32; 4]> = out.points.iter().map(|c| c.id.to_array()).collect();
            ids.sort_unstable();
            ids
        };
        let base = ids(Vec3::ZERO, 0.0);
        assert_eq!(base.len(), 4);
        assert_eq!(ids(Vec3::new(0.01, -0.002, 0.015), 0.0), base);
        assert_eq!(ids(Vec3::new(-0.02, 0.001, 0.0), 0.5), base);
    }

    #[test]
    fn a_small_cube_on_a_huge_slab_keeps_its_own_scale() {
        // A 0.05 cube sunk 0.01 into a 100-wide slab, away from the slab's centre.
        let (out, _) = run_with(
            &cuboid(50.0, 0.5, 50.0),
            at(0., 0., 0.),
            &cuboid(0.025, 0.025, 0.025),
            at(10., 0.5 + 0.025 - 0.01, -7.),
            None,
        );
        assert_eq!(out.feature, FeaturePair::FaceFace);
        assert_eq!(out.normal, Vec3::Y);
        assert_eq!(out.points.len(), 4);
        for c in out.points.iter() {
            assert!(close(c.depth, 0.01, 1e-6), "{c:?}");
            assert!(close(c.point.y, 0.49, 1e-6), "{c:?}");
            assert!(close((c.point.x - 10.).abs(), 0.025, 1e-6));
        }
    }

    #[test]
    fn the_clip_buffer_spills_to_the_heap_beyond_its_capacity() {
        let mut buffer = ClipBuffer::new();
        for k in 0..CLIP_CAPACITY + 3 {
            buffer.push(ClipVertex {
                point: Vec3::splat(k as f32),
                reference: Feature::Vertex(0),
                incident: Feature::Vertex(k as u32),
                next: Along::IncidentEdge(0),
            });
        }
        let s = buffer.as_slice();
        assert_eq!(s.len(), CLIP_CAPACITY + 3);
        assert_eq!(s[10].point, Vec3::splat(10.0));
        assert_eq!(
            s[CLIP_CAPACITY + 2].point,
            Vec3::splat((CLIP_CAPACITY + 2) as f32)
        );
    }

    /// Found by the robustness run (3D seed 1 case 3770): a nearly flat hull swept into a
    /// thin box at about 20,000 units per time. At the sweep's first contact the manifold is
    /// edge-face and clipping leaves nothing; the stand-in end of the edge lies beside A's
    /// face, about 0.95 below that face's plane, while the bodies' projections on the normal
    /// overlap by about 0. Its depth must be the overlap along the normal, not the plane's.
    #[test]
    fn edge_face_stand_in_beside_the_face_is_no_deeper_than_the_overlap_case_3770() {
        use crate::geom3::Shape3Kind;
        use crate::query3::sweep::{sweep_test, Motion3};
        let a = cuboid(8.825456, 0.22174597, 11.58475);
        let b = Polyhedron::new(&Shape3Kind::Hull {
            points: vec![
                Vec3::new(4.565361, -0.0026908345, 0.48654184),
                Vec3::new(3.8887043, -0.0012341414, -0.0774034),
                Vec3::new(4.888872, 0.002687152, 0.5022701),
                Vec3::new(5.1104097, 0.0048786444, 0.10434328),
                Vec3::new(0.5737996, -0.00041600806, -0.28526476),
                Vec3::new(-4.565036, -0.0032196206, -0.009777349),
                Vec3::new(-3.516038, 0.0034880817, -0.38109773),
                Vec3::new(0.663074, -0.0032877554, 0.3594152),
                Vec3::new(2.5984135, 0.0063991756, -0.00058455573),
                Vec3::new(5.077504, -0.0069568665, -0.51616997),
                Vec3::new(-1.090847, -0.0034517783, -0.21345285),
                Vec3::new(2.132945, 0.00062255294, 0.11469155),
                Vec3::new(-4.3912783, 0.00503393, 0.13930473),
                Vec3::new(-0.80082417, 0.0053227646, -0.24966823),
                Vec3::new(3.276349, 0.001002274, -0.4797611),
                Vec3::new(0.6690364, 0.0004975237, 0.49148026),
                Vec3::new(1.8071251, 0.00072336895, 0.4593391),
                Vec3::new(-1.6000578, -0.0010559206, -0.30087972),
                Vec3::new(3.6078377, -0.0002440402, 0.3279768),
                Vec3::new(0.28124952, 0.0017569772, -0.33622295),
                Vec3::new(-2.0815156, 0.0055761733, 0.21380605),
                Vec3::new(-4.17245, 0.004975686, -0.4657255),
                Vec3::new(3.7173843, 0.007081587, 0.2554522),
                Vec3::new(2.2379885, 0.003908986, 0.31482342),
                Vec3::new(2.7472038, 0.0023841786, -0.42977497),
                Vec3::new(-3.044199, 5.3507607e-5, 0.017742917),
                Vec3::new(0.32557774, 0.0016086783, -0.34920108),
                Vec3::new(-0.98106813, -0.0044487156, 0.5796891),
                Vec3::new(-3.3698618, -0.00023810985, -0.44541666),
                Vec3::new(-1.6000578, -0.0010559206, -0.30087972),
                Vec3::new(4.2270327, -0.001962488, 0.20456922),
            ],
        })
        .unwrap();
        let pose_a = Pose3 {
            position: Vec3::new(3.0124016, -4.417837, 3.241167),
            rotation: Quat::from_xyzw(0.27059808, 0.27059808, 0.6532815, 0.6532815),
        };
        let pose_b = Pose3 {
            position: Vec3::new(-15.117777, 2.1311626, 13.010328),
            rotation: Quat::from_xyzw(0.4782351, 0.4904988, -0.56317246, 0.46210277),
        };
        let pair = PolyPair::new(&a, &pose_a, &b, &pose_b);
        let motion = Motion3 {
            velocity_a: Vec3::ZERO,
            velocity_b: Vec3::new(9991.887, -11248.495, -12755.119),
            t_max: 0.34122586,
        };
        let swept = sweep_test(&pair, &motion);
        let t = swept.t_first.expect("the sweep hits");
        let then = pair.with_b_moved(motion.velocity_b * t);
        let n = swept.manifold.expect("a manifold at t_first").normal;
        let mut steps = Vec::new();
        let out = manifold(&then, n, &mut steps);
        assert_eq!(
            out,
            contact_manifold(&then, n),
            "traced and untraced differ"
        );
        assert_eq!(out.feature, FeaturePair::EdgeFace);
        assert_eq!(out.clipped, 0);
        assert_eq!(out.points.len(), 1);
        // The overlap of the projections on n, vertex by vertex (an independent measure).
        let proj = |body: &Placed3| {
            (0..body.shape.vertices().len())
                .map(|i| body.vertex(i).dot(n))
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), x| {
                    (lo.min(x), hi.max(x))
                })
        };
        let overlap = proj(&then.a).1 - proj(&then.b).0;
        let scale = then.scale();
        assert!(overlap.abs() < 1e-5 * scale, "overlap {overlap}");
        let c = out.points.as_slice()[0];
        assert!(c.depth <= overlap.max(0.0) + 1e-5 * scale, "{c:?}");
        // The case does exercise the stand-in beside the face: B's (flat hull's) face plane
        // runs far below an end of A's edge (what the depth used to be).
        let (Feature::Edge(e), Feature::Face(f)) = (out.feature_a, out.feature_b) else {
            panic!("A's edge on B's face: {out:?}")
        };
        assert_eq!(out.reference, Side::B);
        let edge = then.a.shape.edges()[e as usize];
        let below_plane = [edge.tail, edge.head]
            .map(|v| {
                then.b.face_offset(f as usize)
                    - then
                        .b
                        .face_normal(f as usize)
                        .dot(then.a.vertex(v as usize))
            })
            .into_iter()
            .fold(f32::NEG_INFINITY, f32::max);
        assert!(below_plane > 0.5, "{below_plane}");
    }
}
