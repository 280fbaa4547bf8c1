//! The contact manifold in 3D when a sphere or a capsule takes part: the same feature pairs
//! as [`super::manifold`], found on the cores, with the points moved out by the radii.
//!
//! Algorithm (as [`super::manifold`]; Ericson, *Real-Time Collision Detection*, 5.1.9 for
//! the closest points of two segments; Sutherland and Hodgman 1974 for the clip):
//!
//! ```text
//! n = SAT's normal (A toward B)
//! each body's supporting feature: a polyhedron's as in the polyhedral manifold; a sphere's
//!     centre is vertex 0; a capsule's segment is edge 0 when its ends lie within
//!     FEATURE_TOLERANCE of the same height along the direction, else its higher end
//!     (vertex 0 at local (0, -h, 0), vertex 1 at (0, h, 0))
//! capsule edge against a polyhedron's face (edge-face, a capsule lying on a face):
//!     clip the segment by the face's side planes; each end moved by the radius toward the
//!     face; ends above the face dropped; nothing left: one point as below
//! two parallel edges (a capsule along a polyhedron's edge, two parallel capsules): the
//!     overlap of the segments, both ends, moved by the radii (two points)
//! otherwise one point: the closest points of the two features' cores (a face: the round
//!     core's point itself), on the incident body's surface: its core point moved by its
//!     radius toward the other body
//! ```
//!
//! The incident body holds the points, as in 2D and in the polyhedral manifold: the round
//! body against a polyhedron's face (the face is the reference), B otherwise. Depths are
//! measured along the normal (from the face's plane for a face), >= 0. Nothing here
//! allocates unless a tracer records.

use super::manifold::{
    clip_segment_by_side_planes, closest_points, supporting_feature, ContactPoint3, ContactPoints,
    Feature, FeatureId3, FeaturePair, Output, Step, FEATURE_TOLERANCE,
};
use super::round::{BodyPair3, PlacedBody3, PlacedRound};
use super::sat::PARALLEL_TOLERANCE;
use super::{Placed3, Side};
use crate::trace::Tracer;
use glam::Vec3;

/// Builds the manifold of a pair with a round shape along `normal` without recording.
pub fn contact_manifold_round(pair: &BodyPair3, normal: Vec3) -> Output {
    manifold_round(pair, normal, &mut ())
}

/// The supporting feature of a round shape's core along `dir`.
pub fn round_feature(body: &PlacedRound, dir: Vec3) -> Feature {
    if !body.is_segment() {
        return Feature::Vertex(0);
    }
    let [e0, e1] = body.ends();
    let (h0, h1) = (e0.dot(dir), e1.dot(dir));
    if (h0 - h1).abs() <= FEATURE_TOLERANCE * body.shape.bounding_radius() {
        Feature::Edge(0)
    } else if h1 > h0 {
        Feature::Vertex(1)
    } else {
        Feature::Vertex(0)
    }
}

fn body_feature(body: &PlacedBody3, dir: Vec3) -> Feature {
    match body {
        PlacedBody3::Poly(p) => supporting_feature(p, dir),
        PlacedBody3::Round(r) => round_feature(r, dir),
    }
}

/// A vertex or edge feature as a segment of its core (a vertex twice); `None` for a face.
fn feature_core(body: &PlacedBody3, f: Feature) -> Option<(Vec3, Vec3)> {
    match (body, f) {
        (_, Feature::Face(_)) => None,
        (PlacedBody3::Poly(p), Feature::Vertex(v)) => {
            let q = p.vertex(v as usize);
            Some((q, q))
        }
        (PlacedBody3::Poly(p), Feature::Edge(e)) => {
            let edge = p.shape.edges()[e as usize];
            Some((p.vertex(edge.tail as usize), p.vertex(edge.head as usize)))
        }
        (PlacedBody3::Round(r), Feature::Vertex(k)) => {
            let q = r.ends()[(k as usize).min(1)];
            Some((q, q))
        }
        (PlacedBody3::Round(r), Feature::Edge(_)) => {
            let [e0, e1] = r.ends();
            Some((e0, e1))
        }
    }
}

/// Builds the manifold along SAT's `normal` (A toward B) for a pair with at least one round
/// shape, recording every step (see the header).
pub fn manifold_round<T: Tracer<Step>>(pair: &BodyPair3, normal: Vec3, tracer: &mut T) -> Output {
    let n = if normal.is_finite() && normal.length_squared() > 0.0 {
        normal.normalize()
    } else {
        Vec3::Y
    };
    let feature_a = body_feature(&pair.a, n);
    let feature_b = body_feature(&pair.b, -n);
    let case = FeaturePair::of(feature_a, feature_b);
    let mut out = Output {
        normal: n,
        feature_a,
        feature_b,
        feature: case,
        reference: Side::A,
        clipped: 1,
        points: ContactPoints::new(),
    };
    let features_step = |reference, reference_feature, incident_feature| Step::Features {
        feature_a,
        feature_b,
        case,
        reference,
        reference_feature,
        incident_feature,
    };
    let face = match (&pair.a, feature_a, &pair.b, feature_b) {
        (PlacedBody3::Poly(p), Feature::Face(f), PlacedBody3::Round(r), _) => {
            Some((Side::A, p, f, r, feature_b))
        }
        (PlacedBody3::Round(r), _, PlacedBody3::Poly(p), Feature::Face(f)) => {
            Some((Side::B, p, f, r, feature_a))
        }
        _ => None,
    };
    if let Some((side, poly, f, round, round_feature)) = face {
        out.reference = side;
        tracer.record(|| features_step(side, Feature::Face(f), round_feature));
        let face = FaceContact {
            pair,
            side,
            poly,
            f,
            round,
        };
        match round_feature {
            Feature::Edge(_) => face.clip_segment(&mut out, tracer),
            _ => face.one_point(round_feature, &mut out),
        }
    } else {
        tracer.record(|| features_step(Side::A, feature_a, feature_b));
        let a = feature_core(&pair.a, feature_a);
        let b = feature_core(&pair.b, feature_b);
        if let (Some(a), Some(b)) = (a, b) {
            edges_or_point(
                pair,
                n,
                a,
                b,
                FeatureId3 {
                    a: feature_a,
                    b: feature_b,
                },
                &mut out,
            );
        }
    }
    tracer.record(|| Step::Points {
        points: out.points.as_slice().to_vec(),
    });
    out
}

/// Two vertex or edge features (`a` on A, `b` on B, as core segments): both ends of their
/// overlap when they are parallel edges, else their closest points; the points on B's
/// surface, depth along `n` with both radii.
fn edges_or_point(
    pair: &BodyPair3,
    n: Vec3,
    (a0, a1): (Vec3, Vec3),
    (b0, b1): (Vec3, Vec3),
    id: FeatureId3,
    out: &mut Output,
) {
    let (ra, rb) = (pair.a.radius(), pair.b.radius());
    let push = |out: &mut Output, on_a: Vec3, on_b: Vec3| {
        out.points.push(ContactPoint3 {
            point: pair.to_world(on_b - rb * n),
            depth: (ra + rb - (on_b - on_a).dot(n)).max(0.0),
            id,
        });
    };
    let (da, db) = (a1 - a0, b1 - b0);
    let (la, lb) = (da.length_squared(), db.length_squared());
    let parallel = la > 0.0
        && lb > 0.0
        && da.cross(db).length_squared() < PARALLEL_TOLERANCE * PARALLEL_TOLERANCE * la * lb;
    if parallel {
        // B's ends as parameters along A's segment; the overlap of [0, 1] with their span.
        let t0 = (b0 - a0).dot(da) / la;
        let t1 = (b1 - a0).dot(da) / la;
        let (lo, hi) = (t0.min(t1).max(0.0), t0.max(t1).min(1.0));
        if lo < hi {
            out.clipped = 2;
            for t in [lo, hi] {
                let on_a = a0 + da * t;
                let s = ((on_a - b0).dot(db) / lb).clamp(0.0, 1.0);
                push(out, on_a, b0 + db * s);
            }
            return;
        }
    }
    let (pa, pb) = closest_points(a0, a1, b0, b1);
    push(out, pa, pb);
}

/// A round shape's vertex or edge against face `f` of a polyhedron (the reference, on
/// `side`).
struct FaceContact<'p, 'a> {
    pair: &'p BodyPair3<'a>,
    side: Side,
    poly: &'p Placed3<'a>,
    f: u32,
    round: &'p PlacedRound<'a>,
}

impl FaceContact<'_, '_> {
    /// From the reference face toward the round body: the normal when the face is A's.
    fn toward_round(&self, n: Vec3) -> Vec3 {
        match self.side {
            Side::A => n,
            Side::B => -n,
        }
    }

    /// The round body's surface point over core point `c`, its height above the face's
    /// plane (negative below), and the contact's feature id.
    fn surface(&self, c: Vec3, n: Vec3) -> (Vec3, f32) {
        let s = c - self.round.radius() * self.toward_round(n);
        let m = self.poly.face_normal(self.f as usize);
        (s, m.dot(s) - self.poly.face_offset(self.f as usize))
    }

    fn id(&self, reference: Feature, incident: Feature) -> FeatureId3 {
        FeatureId3::new(self.side, reference, incident)
    }

    /// One point: the round core's vertex `v` (or, for an edge that clipped away, its end
    /// deepest toward the face), moved by the radius; depth from the polyhedron's extent
    /// along the normal.
    fn one_point(&self, v: Feature, out: &mut Output) {
        let d = self.toward_round(out.normal);
        let [e0, e1] = self.round.ends();
        let k = match v {
            Feature::Vertex(k) => k.min(1),
            _ => u32::from(e1.dot(d) < e0.dot(d)),
        };
        let c = self.round.ends()[k as usize];
        let s = c - self.round.radius() * d;
        let top = self.poly.vertex(self.poly.support_index(d)).dot(d);
        out.points.push(ContactPoint3 {
            point: self.pair.to_world(s),
            depth: (top - s.dot(d)).max(0.0),
            id: self.id(Feature::Face(self.f), Feature::Vertex(k)),
        });
    }

    /// A capsule lying along the face: its segment clipped by the face's side planes, the
    /// ends below the face kept.
    fn clip_segment<T: Tracer<Step>>(&self, out: &mut Output, tracer: &mut T) {
        let (pair, poly) = (self.pair, self.poly);
        let [e0, e1] = self.round.ends();
        let mut ends = [
            (e0, Feature::Face(self.f), Feature::Vertex(0)),
            (e1, Feature::Face(self.f), Feature::Vertex(1)),
        ];
        let alive = clip_segment_by_side_planes(poly, self.f, &mut ends, 0, pair.origin, tracer);
        out.clipped = if alive { 2 } else { 0 };
        let touch = pair.touch_tolerance();
        if alive {
            for (c, reference, incident) in ends {
                let (s, height) = self.surface(c, out.normal);
                if height > touch {
                    tracer.record(|| Step::Dropped {
                        point: pair.to_world(s),
                        height,
                    });
                    continue;
                }
                out.points.push(ContactPoint3 {
                    point: pair.to_world(s),
                    depth: (-height).max(0.0),
                    id: self.id(reference, incident),
                });
            }
            // Both ends clipped to one point (the segment crosses a corner): keep one.
            let p = out.points.as_slice();
            if p.len() == 2 && (p[0].point - p[1].point).length_squared() == 0.0 {
                let first = p[0];
                out.points = ContactPoints::new();
                out.points.push(first);
            }
        }
        if out.points.is_empty() {
            self.one_point(Feature::Edge(0), out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom3::{Pose3, Round3, Shape3Ref};
    use crate::query3::manifold::FeaturePair;
    use crate::query3::sat_round::sat_round_test;
    use crate::query3::testing::*;

    fn run<'a>(
        a: impl Into<Shape3Ref<'a>>,
        pa: Pose3,
        b: impl Into<Shape3Ref<'a>>,
        pb: Pose3,
    ) -> (Output, Vec<Step>, f32) {
        let pair = BodyPair3::new(a.into(), &pa, b.into(), &pb);
        let s = sat_round_test(&pair);
        assert!(s.intersecting, "{s:?}");
        let mut steps = Vec::new();
        let out = manifold_round(&pair, s.normal, &mut steps);
        assert_eq!(out, contact_manifold_round(&pair, s.normal));
        (out, steps, s.depth)
    }

    #[test]
    fn sphere_on_a_box_face_gives_one_vertex_face_point_at_the_bottom_of_the_sphere() {
        let slab = cuboid(1.0, 0.5, 1.0);
        let ball = Round3::sphere(0.5).unwrap();
        let (out, _, depth) = run(&slab, at(0., 0., 0.), &ball, at(0.3, 0.9, 0.2));
        assert_eq!(out.feature, FeaturePair::VertexFace);
        assert_eq!(out.reference, Side::A);
        assert_eq!(out.points.len(), 1);
        let p = out.points.as_slice()[0];
        assert!(close_v(p.point, Vec3::new(0.3, 0.4, 0.2), 1e-5), "{p:?}");
        assert!(close(p.depth, 0.1, 1e-5) && close(depth, 0.1, 1e-5));
    }

    #[test]
    fn capsule_lying_on_a_box_gives_two_edge_face_points() {
        let slab = cuboid(1.0, 0.5, 1.0);
        let cap = Round3::capsule(0.5, 0.25).unwrap();
        // Along x (y turned to x by -90 degrees about z), core 0.15 above the top face.
        let pose = at_deg(Vec3::new(0.2, 0.65, 0.), Vec3::new(0., 0., -90.));
        let (out, steps, _) = run(&slab, at(0., 0., 0.), &cap, pose);
        assert_eq!(out.feature, FeaturePair::EdgeFace);
        assert_eq!((out.clipped, out.points.len()), (2, 2));
        let mut xs: Vec<f32> = out.points.iter().map(|p| p.point.x).collect();
        xs.sort_by(f32::total_cmp);
        assert!(
            close(xs[0], -0.3, 1e-5) && close(xs[1], 0.7, 1e-5),
            "{xs:?}"
        );
        for p in out.points.iter() {
            assert!(
                close(p.point.y, 0.4, 1e-5) && close(p.depth, 0.1, 1e-5),
                "{p:?}"
            );
        }
        // Four side planes of the top face.
        let clips = steps
            .iter()
            .filter(|s| matches!(s, Step::ClipPlane { .. }))
            .count();
        assert_eq!(clips, 4);
    }

    #[test]
    fn capsule_hanging_over_a_box_side_is_clipped_at_the_side_plane() {
        let slab = cuboid(1.0, 0.5, 1.0);
        let cap = Round3::capsule(0.5, 0.25).unwrap();
        let pose = at_deg(Vec3::new(0.9, 0.65, 0.), Vec3::new(0., 0., -90.));
        let (out, _, _) = run(&slab, at(0., 0., 0.), &cap, pose);
        assert_eq!(out.feature, FeaturePair::EdgeFace);
        let mut xs: Vec<f32> = out.points.iter().map(|p| p.point.x).collect();
        xs.sort_by(f32::total_cmp);
        assert!(close(xs[0], 0.4, 1e-5) && close(xs[1], 1.0, 1e-5), "{xs:?}");
        let clipped = out
            .points
            .iter()
            .filter(|p| matches!(p.id.a, Feature::Edge(_)))
            .count();
        assert_eq!(clipped, 1);
    }

    #[test]
    fn capsule_crossing_a_box_edge_gives_one_edge_edge_point() {
        // A capsule along (-1, 1, 0)/sqrt2 across the box's edge (0.5, 0.5, z), its core
        // 0.25 out along the diagonal, radius 0.3: depth 0.05.
        let cube = cuboid(0.5, 0.5, 0.5);
        let cap = Round3::capsule(1.0, 0.3).unwrap();
        let u = Vec3::new(1.0, 1.0, 0.0) / 2f32.sqrt();
        let c = Vec3::new(0.5, 0.5, 0.2) + u * 0.25;
        let (out, _, depth) = run(
            &cube,
            at(0., 0., 0.),
            &cap,
            at_deg(c, Vec3::new(0., 0., 45.)),
        );
        assert_eq!(out.feature, FeaturePair::EdgeEdge);
        assert_eq!(out.points.len(), 1);
        let p = out.points.as_slice()[0];
        assert!(close(depth, 0.05, 1e-5), "{depth}");
        assert!(close(p.depth, 0.05, 1e-5), "{p:?}");
        assert!(
            close_v(p.point, Vec3::new(0.5, 0.5, 0.2) - u * 0.05, 1e-5),
            "{p:?}"
        );
    }

    #[test]
    fn sphere_sphere_gives_one_vertex_vertex_point_on_b() {
        let a = Round3::sphere(1.0).unwrap();
        let b = Round3::sphere(0.5).unwrap();
        let (out, _, depth) = run(&a, at(0., 0., 0.), &b, at(1.2, 0., 0.));
        assert_eq!(out.feature, FeaturePair::VertexVertex);
        let p = out.points.as_slice()[0];
        assert!(close(depth, 0.3, 1e-6) && close(p.depth, 0.3, 1e-6));
        assert!(close_v(p.point, Vec3::new(0.7, 0., 0.), 1e-6), "{p:?}");
    }

    #[test]
    fn parallel_capsules_give_two_points_at_the_overlap_ends() {
        let c = Round3::capsule(1.0, 0.25).unwrap();
        let (out, _, _) = run(&c, at(0., 0., 0.), &c, at(0.4, 0.5, 0.));
        assert_eq!(out.feature, FeaturePair::EdgeEdge);
        assert_eq!((out.clipped, out.points.len()), (2, 2));
        let mut ys: Vec<f32> = out.points.iter().map(|p| p.point.y).collect();
        ys.sort_by(f32::total_cmp);
        assert!(
            close(ys[0], -0.5, 1e-5) && close(ys[1], 1.0, 1e-5),
            "{ys:?}"
        );
        for p in out.points.iter() {
            assert!(
                close(p.depth, 0.1, 1e-5) && close(p.point.x, 0.15, 1e-5),
                "{p:?}"
            );
        }
    }

    #[test]
    fn capsules_crossing_give_one_edge_edge_point() {
        let c = Round3::capsule(1.0, 0.25).unwrap();
        let pose = at_deg(Vec3::new(0., 0.2, 0.3), Vec3::new(0., 0., 90.));
        let (out, _, _) = run(&c, at(0., 0., 0.), &c, pose);
        assert_eq!(out.feature, FeaturePair::EdgeEdge);
        assert_eq!(out.points.len(), 1);
        let p = out.points.as_slice()[0];
        assert!(close_v(p.point, Vec3::new(0., 0.2, 0.05), 1e-5), "{p:?}");
        assert!(close(p.depth, 0.2, 1e-5), "{p:?}");
    }

    #[test]
    fn box_on_a_sphere_puts_the_point_on_the_sphere_under_b_s_face() {
        // A is the sphere, B the box resting on it: B's bottom face is the reference.
        let ball = Round3::sphere(0.5).unwrap();
        let cube = cuboid(0.5, 0.5, 0.5);
        let (out, _, _) = run(&ball, at(0., 0., 0.), &cube, at(0.1, 0.95, 0.));
        assert_eq!(out.feature, FeaturePair::VertexFace);
        assert_eq!(out.reference, Side::B);
        let p = out.points.as_slice()[0];
        assert!(close_v(p.point, Vec3::new(0., 0.5, 0.), 1e-5), "{p:?}");
        assert!(close(p.depth, 0.05, 1e-5), "{p:?}");
        assert_eq!(p.id.a, Feature::Vertex(0));
        assert!(matches!(p.id.b, Feature::Face(_)));
    }
}
