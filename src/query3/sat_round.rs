//! SAT in 3D with round shapes (spheres and capsules) on either side or both.
//!
//! Algorithm (Ericson, *Real-Time Collision Detection*, 5.2.1 and 4.5 on the axes of
//! swept spheres; van den Bergen, 4.3.3: a core inflated by r projects to the core's
//! interval widened by r on each side):
//!
//! ```text
//! a polyhedron and a round shape (core C, radius r):
//!     the polyhedron's face normals, as in polyhedral SAT
//!     a capsule (segment direction s): each edge e of the polyhedron with faces of
//!         normals n0, n1 gives e x s, unless e and s are parallel (|e x s| < PARALLEL_TOLERANCE
//!         |e| |s|) or the arc n0-n1 does not cross the great circle of directions square to s
//!         (the capsule's Gauss map): (n0 . s)(n1 . s) > 0
//!     the closest-point axis: GJK on the polyhedron and the core; when they are apart, the
//!         direction between their closest points (the exact separating direction)
//! two round shapes: the one axis between the cores' closest points (segment-segment, Ericson
//!     5.1.9); when the cores touch: the segments' cross product, else a direction square
//!     to the segment, else A's centre toward B's
//! separation on an axis u (A toward B) = min of B along u - max of A along u, radii included
//! best = the largest separation, a face axis kept unless another is larger by the
//!     preference tolerance (as polyhedral SAT)
//! ```
//!
//! Why this is exact: the Minkowski difference of a polyhedron and a point core is the
//! polyhedron (faces only), with a segment core its faces are the polyhedron's and the
//! parallelograms e x s, so when the cores overlap these axes hold the answer; when they are
//! apart the closest-point axis is the answer (the largest separation of a rounded set is
//! along the direction of its closest point) and no axis does better. For two round shapes
//! the cores' closest points give it directly.
//!
//! The axes are recorded as polyhedral SAT records them ([`sat::Step`]): a capsule's segment
//! is edge 0 of its body, the closest-point axis is [`AxisId::Closest`] (not recorded when
//! the cores of a polyhedron and a round shape overlap, as it has no direction then).

use super::gjk;
use super::round::{round_round_axis, BodyPair3, PlacedBody3, PlacedRound};
use super::sat::{
    self, finish_with, AxisId, AxisTest, Best, SkipReason, Step, AXIS_PREFERENCE_TOLERANCE,
    PARALLEL_TOLERANCE,
};
use super::{Placed3, Side};
use crate::trace::Tracer;
use glam::Vec3;

/// Runs SAT on a pair with at least one round shape without recording.
pub fn sat_round_test(pair: &BodyPair3) -> sat::Output {
    sat_round(pair, &mut ())
}

/// Counts and records the axes as they are tested.
struct Axes<'p, 'a, T> {
    pair: &'p BodyPair3<'a>,
    tracer: &'p mut T,
    tested: u32,
    pruned: u32,
}

impl<T: Tracer<Step>> Axes<'_, '_, T> {
    /// The separation along the unit axis `u` (A toward B), recorded as axis `id`.
    fn test(&mut self, id: AxisId, u: Vec3) -> f32 {
        let (ia, ib) = (self.pair.a.project(u), self.pair.b.project(u));
        let separation = ib.min - ia.max;
        let ordinal = self.tested;
        self.tested += 1;
        let shift = u.dot(self.pair.origin);
        self.tracer.record(|| {
            Step::Axis(AxisTest {
                ordinal,
                id,
                axis: u,
                interval_a: ia.shifted(shift),
                interval_b: ib.shifted(shift),
                separation,
            })
        });
        separation
    }

    fn skip(&mut self, edge_a: u32, edge_b: u32, reason: SkipReason) {
        self.pruned += 1;
        self.tracer.record(|| Step::Skipped {
            edge_a,
            edge_b,
            reason,
        });
    }
}

/// Runs SAT on a pair with at least one round shape, recording every axis (see the header).
/// A pair of polyhedra gives the same verdict as [`sat::sat`] with fewer axes (faces and the
/// closest-point axis only): use that one for them.
pub fn sat_round<T: Tracer<Step>>(pair: &BodyPair3, tracer: &mut T) -> sat::Output {
    let core = gjk::gjk(pair, &gjk::Config::default(), &mut ());
    sat_round_with_cores(pair, &core, tracer)
}

/// [`sat_round`] given GJK's answer on the cores (`gjk::gjk` on the same pair, without the
/// radii), so a caller that runs GJK anyway (the pair query) does not run it twice.
pub fn sat_round_with_cores<T: Tracer<Step>>(
    pair: &BodyPair3,
    core: &gjk::Output,
    tracer: &mut T,
) -> sat::Output {
    let touch = pair.touch_tolerance();
    let mut axes = Axes {
        pair,
        tracer,
        tested: 0,
        pruned: 0,
    };
    let best = match (&pair.a, &pair.b) {
        (PlacedBody3::Round(a), PlacedBody3::Round(b)) => {
            let u = round_round_axis(a, b, touch);
            let mut best = Best::none(AxisId::Closest);
            best.offer(axes.test(AxisId::Closest, u), u, AxisId::Closest);
            best
        }
        (PlacedBody3::Poly(poly), PlacedBody3::Round(round)) => {
            poly_round(&mut axes, poly, Side::A, round, core)
        }
        (PlacedBody3::Round(round), PlacedBody3::Poly(poly)) => {
            poly_round(&mut axes, poly, Side::B, round, core)
        }
        (PlacedBody3::Poly(_), PlacedBody3::Poly(_)) => {
            let mut best = Best::none(AxisId::Closest);
            if let Some(u) = closest_direction(core) {
                best.offer(axes.test(AxisId::Closest, u), u, AxisId::Closest);
            }
            best
        }
    };
    finish_with(touch, best, axes.tested, axes.pruned)
}

/// The axes of a polyhedron (on side `side`) against a round shape: the best of the face
/// axes, then of the edge axes and the closest-point axis, each group kept unless the next
/// beats it by the preference tolerance.
fn poly_round<T: Tracer<Step>>(
    axes: &mut Axes<'_, '_, T>,
    poly: &Placed3,
    side: Side,
    round: &PlacedRound,
    core: &gjk::Output,
) -> Best {
    let tol = (AXIS_PREFERENCE_TOLERANCE * poly.shape.centroid_radius().min(round.radius()))
        .max(axes.pair.touch_tolerance());
    let face_id = match side {
        Side::A => AxisId::FaceA,
        Side::B => AxisId::FaceB,
    };
    let mut face = Best::none(face_id(0));
    let mut edge = Best::none(AxisId::Edges(0, 0));
    let mut closest = Best::none(AxisId::Closest);
    poly_round_axes(poly, side, round, core, &mut |candidate| match candidate {
        RoundAxis::Axis(id, u) => {
            let group = match id {
                AxisId::FaceA(_) | AxisId::FaceB(_) => &mut face,
                AxisId::Edges(..) => &mut edge,
                AxisId::Closest => &mut closest,
            };
            group.offer(axes.test(id, u), u, id);
        }
        RoundAxis::Skipped(ea, eb, reason) => axes.skip(ea, eb, reason),
    });
    let mut best = face;
    if edge.separation > best.separation + tol {
        best = edge;
    }
    if closest.separation > best.separation + tol {
        best = closest;
    }
    best
}

/// A candidate axis of a pair with a round shape: the unit axis (A toward B at t = 0) and
/// its id, or an edge pair SAT skips (edge of A, edge of B, why).
#[derive(Clone, Copy, Debug)]
pub(crate) enum RoundAxis {
    Axis(AxisId, Vec3),
    Skipped(u32, u32, SkipReason),
}

/// Every candidate axis of a pair with a round shape, in SAT's order (see the header): for
/// a polyhedron and a round shape its faces, its edges against a capsule's segment, then
/// the closest-point axis when GJK found the cores (`core`) apart; for two round shapes the
/// one axis between their cores. The swept SAT of round pairs takes the same axes.
pub(crate) fn round_pair_axes(
    pair: &BodyPair3,
    core: &gjk::Output,
    visit: &mut impl FnMut(RoundAxis),
) {
    match (&pair.a, &pair.b) {
        (PlacedBody3::Round(a), PlacedBody3::Round(b)) => {
            let u = round_round_axis(a, b, pair.touch_tolerance());
            visit(RoundAxis::Axis(AxisId::Closest, u));
        }
        (PlacedBody3::Poly(poly), PlacedBody3::Round(round)) => {
            poly_round_axes(poly, Side::A, round, core, visit)
        }
        (PlacedBody3::Round(round), PlacedBody3::Poly(poly)) => {
            poly_round_axes(poly, Side::B, round, core, visit)
        }
        (PlacedBody3::Poly(_), PlacedBody3::Poly(_)) => {
            if let Some(u) = closest_direction(core) {
                visit(RoundAxis::Axis(AxisId::Closest, u));
            }
        }
    }
}

/// The axes of a polyhedron (on side `side`) against a round shape, in order: faces, edges
/// against a capsule's segment, the closest-point axis.
fn poly_round_axes(
    poly: &Placed3,
    side: Side,
    round: &PlacedRound,
    core: &gjk::Output,
    visit: &mut impl FnMut(RoundAxis),
) {
    // Faces: the normal from A toward B is the face normal on A, reversed on B.
    let (face_id, sign): (fn(u32) -> AxisId, f32) = match side {
        Side::A => (AxisId::FaceA, 1.0),
        Side::B => (AxisId::FaceB, -1.0),
    };
    for i in 0..poly.shape.face_count() {
        visit(RoundAxis::Axis(
            face_id(i as u32),
            sign * poly.face_normal(i),
        ));
    }
    if round.is_segment() {
        let [s0, s1] = round.ends();
        let s = s1 - s0;
        let centroid = poly.centroid();
        for (i, e) in poly.shape.edges().iter().enumerate() {
            let tail = poly.vertex(e.tail as usize);
            let d = poly.vertex(e.head as usize) - tail;
            let (ea, eb) = match side {
                Side::A => (i as u32, 0),
                Side::B => (0, i as u32),
            };
            let c = d.cross(s);
            if c.length() < PARALLEL_TOLERANCE * d.length() * s.length() {
                visit(RoundAxis::Skipped(ea, eb, SkipReason::Parallel));
                continue;
            }
            let n0 = poly.face_normal(e.faces[0] as usize);
            let n1 = poly.face_normal(e.faces[1] as usize);
            if n0.dot(s) * n1.dot(s) > 0.0 {
                visit(RoundAxis::Skipped(ea, eb, SkipReason::GaussMap));
                continue;
            }
            // Away from the polyhedron at its edge; from A toward B.
            let mut u = c.normalize();
            if u.dot(tail - centroid) < 0.0 {
                u = -u;
            }
            visit(RoundAxis::Axis(AxisId::Edges(ea, eb), sign * u));
        }
    }
    if let Some(u) = closest_direction(core) {
        visit(RoundAxis::Axis(AxisId::Closest, u));
    }
}

/// The direction between the cores' closest points when GJK finds the cores apart, else
/// nothing (tested and offered as the closest-point axis).
fn closest_direction(core: &gjk::Output) -> Option<Vec3> {
    if core.intersecting || core.status == gjk::Status::NonFinite {
        return None;
    }
    let u = core.normal;
    (u.is_finite() && u.length_squared() > 0.5).then_some(u)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom3::Round3;
    use crate::query3::testing::*;

    use crate::query3::testing::round_pair as pair;

    fn traced(p: &BodyPair3) -> (sat::Output, Vec<Step>) {
        let mut steps = Vec::new();
        let out = sat_round(p, &mut steps);
        assert_eq!(out, sat_round_test(p));
        (out, steps)
    }

    #[test]
    fn sphere_on_a_box_face_wins_on_the_face_axis() {
        let slab = cuboid(1.0, 0.5, 1.0);
        let ball = Round3::sphere(0.5).unwrap();
        let (out, steps) = traced(&pair(&slab, at(0., 0., 0.), &ball, at(0.3, 0.9, 0.2)));
        assert!(out.intersecting);
        assert!(close(out.depth, 0.1, 1e-5), "{out:?}");
        assert_eq!(out.axis, AxisId::FaceA(face_up(&slab)));
        assert!(close_v(out.normal, Vec3::Y, 1e-6));
        // Six faces, the closest-point axis (the cores are apart): 7 axes, no edges.
        assert_eq!((out.axes_tested, out.axes_pruned), (7, 0));
        assert_eq!(steps.len(), 7);
    }

    fn face_up(p: &crate::geom3::Polyhedron) -> u32 {
        (0..p.face_count())
            .find(|&f| p.face_normal(f).y > 0.99)
            .unwrap() as u32
    }

    #[test]
    fn sphere_near_a_box_corner_separates_along_the_closest_point_axis() {
        let cube = cuboid(0.5, 0.5, 0.5);
        let ball = Round3::sphere(0.5).unwrap();
        // Centre 1 from the corner (0.5, 0.5, 0.5) along the diagonal: gap 0.5.
        let d = 1.0 / 3f32.sqrt();
        let c = Vec3::splat(0.5 + d);
        let (out, _) = traced(&pair(&cube, at(0., 0., 0.), &ball, at(c.x, c.y, c.z)));
        assert!(!out.intersecting);
        assert_eq!(out.axis, AxisId::Closest);
        assert!(close(out.separation, 0.5, 1e-5), "{out:?}");
        assert!(close_v(out.normal, Vec3::splat(d), 1e-5));
    }

    #[test]
    fn capsule_parallel_to_box_edges_skips_them_as_parallel() {
        let cube = cuboid(0.5, 0.5, 0.5);
        let cap = Round3::capsule(1.0, 0.1).unwrap();
        // Along y, beside the +x face: the four y edges are parallel to the segment.
        let (out, steps) = traced(&pair(&cube, at(0., 0., 0.), &cap, at(0.7, 0., 0.)));
        let parallel = steps
            .iter()
            .filter(|s| {
                matches!(
                    s,
                    Step::Skipped {
                        reason: SkipReason::Parallel,
                        ..
                    }
                )
            })
            .count();
        assert_eq!(parallel, 4);
        assert!(close(out.separation, 0.1, 1e-5), "{out:?}");
        assert!(out.axis.is_face(), "{out:?}");
    }

    #[test]
    fn sphere_centre_inside_a_box_leaves_by_the_nearest_face() {
        let slab = cuboid(1.0, 0.5, 1.0);
        let ball = Round3::sphere(0.25).unwrap();
        let (out, steps) = traced(&pair(&ball, at(0.1, 0.4, 0.), &slab, at(0., 0., 0.)));
        assert!(out.intersecting);
        // B's top face, reversed: the normal from the ball (A) toward the slab (B) is -y.
        assert!(matches!(out.axis, AxisId::FaceB(_)), "{out:?}");
        assert!(close(out.depth, 0.35, 1e-5), "{out:?}");
        assert!(close_v(out.normal, -Vec3::Y, 1e-6));
        // The cores overlap: no closest-point axis.
        assert_eq!(steps.len(), 6);
    }

    #[test]
    fn capsule_across_a_box_edge_separates_on_an_edge_cross_axis() {
        // A capsule turned 45 degrees about z runs along (-1, 1, 0)/sqrt2, square to the
        // diagonal (1, 1, 0)/sqrt2, its centre 0.3 out from the cube's edge (0.5, 0.5, z):
        // its core is 0.3 from the cube, the capsule 0.2.
        let cube = cuboid(0.5, 0.5, 0.5);
        let cap = Round3::capsule(1.0, 0.1).unwrap();
        let centre = Vec3::new(0.5, 0.5, 0.0) + Vec3::new(1.0, 1.0, 0.0) / 2f32.sqrt() * 0.3;
        let pose = at_deg(centre, Vec3::new(0., 0., 45.));
        let (out, steps) = traced(&pair(&cube, at(0., 0., 0.), &cap, pose));
        assert!(!out.intersecting);
        assert!(close(out.separation, 0.2, 1e-5), "{out:?}");
        assert!(close_v(
            out.normal,
            Vec3::new(1., 1., 0.) / 2f32.sqrt(),
            1e-5
        ));
        // The edge axis and the closest-point axis tie; the edge (found first) is kept.
        assert!(matches!(out.axis, AxisId::Edges(_, 0)), "{out:?}");
        // The edge along z between faces +x and -y: both normals have the same sign along
        // the segment, so the arcs do not cross.
        assert!(steps.iter().any(|s| matches!(
            s,
            Step::Skipped {
                reason: SkipReason::GaussMap,
                ..
            }
        )));
    }

    #[test]
    fn capsules_crossing_use_the_cross_product_of_their_segments() {
        let c = Round3::capsule(1.0, 0.25).unwrap();
        let (out, steps) = traced(&pair(
            &c,
            at(0., 0., 0.),
            &c,
            at_deg(Vec3::new(0., 0., 0.3), Vec3::new(0., 0., 90.)),
        ));
        assert!(out.intersecting);
        assert!(close(out.depth, 0.2, 1e-5), "{out:?}");
        assert!(close_v(out.normal, Vec3::Z, 1e-6));
        assert_eq!(out.axis, AxisId::Closest);
        assert_eq!(steps.len(), 1);
        // Cores that cross exactly: the cross product, toward B.
        let (out, _) = traced(&pair(
            &c,
            at(0., 0., 0.),
            &c,
            at_deg(Vec3::new(0., 0., 0.), Vec3::new(0., 0., 90.)),
        ));
        assert!(close(out.depth, 0.5, 1e-5), "{out:?}");
        assert!(close(out.normal.z.abs(), 1.0, 1e-6), "{out:?}");
    }

    #[test]
    fn spheres_touching_and_coincident() {
        let s = Round3::sphere(1.0).unwrap();
        let (out, _) = traced(&pair(&s, at(0., 0., 0.), &s, at(0., 2., 0.)));
        assert_eq!(out.status, sat::Status::Touching);
        assert!(close_v(out.normal, Vec3::Y, 1e-6));
        let (out, _) = traced(&pair(&s, at(0., 0., 0.), &s, at(0., 0., 0.)));
        assert!(out.intersecting && close(out.depth, 2.0, 1e-6));
        assert!(close(out.normal.length(), 1.0, 1e-6));
    }

    #[test]
    fn swapping_a_round_pair_flips_the_normal() {
        let slab = cuboid(1.0, 0.5, 1.0);
        let cap = Round3::capsule(0.6, 0.2).unwrap();
        let pa = at(0., 0., 0.);
        let pb = at_deg(Vec3::new(0.9, 0.6, 0.1), Vec3::new(10., 20., 70.));
        let ab = sat_round_test(&pair(&slab, pa, &cap, pb));
        let ba = sat_round_test(&pair(&cap, pb, &slab, pa));
        assert_eq!(ab.intersecting, ba.intersecting);
        assert!(close(ab.depth, ba.depth, 1e-5), "{ab:?} {ba:?}");
        assert!(close_v(ab.normal, -ba.normal, 1e-4), "{ab:?} {ba:?}");
    }
}
