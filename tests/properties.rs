//! Property tests over random convex shapes and poses: the algorithms agree with each other,
//! with the explicit Minkowski difference, and with the geometry they claim.

mod common;

use collision_lab::geom::{Pose, Shape};
use collision_lab::query::clip::contact_manifold;
use collision_lab::query::epa::epa_penetration;
use collision_lab::query::gjk::gjk_distance;
use collision_lab::query::minkowski::minkowski_difference;
use collision_lab::query::sat::sat_test;
use collision_lab::query::sweep::{sweep_test, Motion};
use collision_lab::query::ShapePair;
use common::*;
use glam::Vec2;
use proptest::prelude::*;

/// Results closer than this to a decision boundary (touching) are not compared: both
/// answers are right there.
const MARGIN: f32 = 2.0e-3;

fn pair<'a>(a: &'a Shape, pa: Pose, b: &'a Shape, pb: Pose) -> ShapePair<'a> {
    ShapePair::new(a, pa, b, pb)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        max_global_rejects: 1_000_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn gjk_and_sat_agree_on_intersection(a in any_shape(), b in any_shape(), pa in pose(2.0), pb in pose(2.0)) {
        let p = pair(&a, pa, &b, pb);
        let g = gjk_distance(&p);
        let s = sat_test(&p);
        let near_touch = g.distance < MARGIN && s.depth.is_none_or(|d| d < MARGIN);
        if !near_touch {
            prop_assert_eq!(g.intersecting, s.intersecting, "gjk {:?} sat {:?}", g, s);
        }
    }

    #[test]
    fn epa_agrees_with_sat_and_the_minkowski_difference(a in any_shape(), b in any_shape(), pa in pose(1.5), pb in pose(1.5)) {
        let p = pair(&a, pa, &b, pb);
        let g = gjk_distance(&p);
        prop_assume!(g.intersecting);
        let e = epa_penetration(&p, &g).unwrap();
        let s = sat_test(&p);
        prop_assume!(s.intersecting);
        let tol = 1e-3 * p.scale();
        prop_assert!((e.depth - s.depth.unwrap()).abs() <= tol, "epa {} sat {}", e.depth, s.depth.unwrap());
        let m = minkowski_difference(&p).origin_query();
        prop_assert!(m.contains_origin || m.distance <= tol);
        prop_assert!((e.depth - m.distance).abs() <= tol, "epa {} minkowski {}", e.depth, m.distance);
        if normal_margin(&p) > 1e-2 && e.depth > MARGIN {
            prop_assert!((e.normal - s.normal).length() <= 1e-2, "epa {} sat {}", e.normal, s.normal);
        }
    }

    #[test]
    fn moving_b_by_depth_along_the_normal_makes_them_touch(a in any_shape(), b in any_shape(), pa in pose(1.5), pb in pose(1.5)) {
        let p = pair(&a, pa, &b, pb);
        let g = gjk_distance(&p);
        prop_assume!(g.intersecting);
        let e = epa_penetration(&p, &g).unwrap();
        prop_assume!(e.depth > MARGIN);
        let slack = 1e-3;
        let out = pair(&a, pa, &b, moved(pb, (e.depth + slack) * e.normal));
        let gout = gjk_distance(&out);
        prop_assert!(!gout.intersecting, "still overlapping after moving out by depth + slack");
        prop_assert!(gout.distance <= 2.0 * slack, "moved too far: distance {}", gout.distance);
        let inside = pair(&a, pa, &b, moved(pb, (e.depth - slack) * e.normal));
        prop_assert!(gjk_distance(&inside).intersecting, "{:?} {:?} | {:?} {:?} | {:?}", a.kind(), pa, b.kind(), pb, e);
    }

    #[test]
    fn swapping_a_and_b_flips_the_normal(a in any_shape(), b in any_shape(), pa in pose(1.5), pb in pose(1.5)) {
        let p = pair(&a, pa, &b, pb);
        let q = pair(&b, pb, &a, pa);
        let (gp, gq) = (gjk_distance(&p), gjk_distance(&q));
        prop_assert!((gp.distance - gq.distance).abs() <= 1e-4);
        if gp.intersecting && gq.intersecting && normal_margin(&p) > 1e-2 {
            let (ep, eq) = (epa_penetration(&p, &gp).unwrap(), epa_penetration(&q, &gq).unwrap());
            prop_assert!((ep.depth - eq.depth).abs() <= 1e-3);
            if ep.depth > MARGIN {
                prop_assert!((ep.normal + eq.normal).length() <= 1e-2, "{} vs {}", ep.normal, eq.normal);
            }
        }
    }

    #[test]
    fn results_are_invariant_under_a_common_rigid_motion(
        a in any_shape(), b in any_shape(), pa in pose(1.5), pb in pose(1.5),
        shift in (-50.0f32..50.0, -50.0f32..50.0), turn in 0.0f32..std::f32::consts::TAU,
    ) {
        let rot = Vec2::from_angle(turn);
        let shift = Vec2::new(shift.0, shift.1);
        let carry = |p: Pose| Pose::new(rot.rotate(p.position) + shift, p.angle + turn);
        let p = pair(&a, pa, &b, pb);
        let q = pair(&a, carry(pa), &b, carry(pb));
        let (gp, gq) = (gjk_distance(&p), gjk_distance(&q));
        prop_assert!((gp.distance - gq.distance).abs() <= 1e-3);
        if let (Some(ca), Some(cq)) = (gp.closest_a, gq.closest_a) {
            if gp.distance > MARGIN {
                prop_assert!((rot.rotate(ca) + shift - cq).length() <= 1e-2);
            }
        }
        if gp.intersecting && gq.intersecting {
            let (ep, eq) = (epa_penetration(&p, &gp).unwrap(), epa_penetration(&q, &gq).unwrap());
            prop_assert!((ep.depth - eq.depth).abs() <= 1e-3);
            if normal_margin(&p) > 1e-2 && ep.depth > MARGIN {
                prop_assert!((rot.rotate(ep.normal) - eq.normal).length() <= 1e-2);
            }
        }
    }

    #[test]
    fn contact_points_lie_on_both_shapes(
        a in any_shape(), b in any_shape(), pa in pose(1.5), pb in pose(1.5), shallow in 0.0f32..0.05,
    ) {
        // Clipping is meant for the shallow contacts a solver keeps: bring B out along the
        // EPA normal until it penetrates by `shallow` only.
        let deep = pair(&a, pa, &b, pb);
        let g = gjk_distance(&deep);
        prop_assume!(g.intersecting);
        let e = epa_penetration(&deep, &g).unwrap();
        let pb = moved(pb, (e.depth - shallow) * e.normal);
        let p = pair(&a, pa, &b, pb);
        let s = sat_test(&p);
        prop_assume!(s.intersecting);
        let m = contact_manifold(&p, s.normal);
        prop_assert!(m.count >= 1);
        let dot = Shape::circle(0.0).unwrap();
        let tol = 2e-3;
        let depth = s.depth.unwrap();
        for c in m.points() {
            prop_assert!(c.depth >= 0.0 && c.depth <= depth + tol, "depth {} sat {}", c.depth, depth);
            let here = Pose::new(c.point, 0.0);
            let (incident, inc_pose, reference, ref_pose) = match m.reference {
                collision_lab::query::Body::A => (&b, pb, &a, pa),
                collision_lab::query::Body::B => (&a, pa, &b, pb),
            };
            // On the incident body's boundary.
            let to_inc = gjk_distance(&pair(&dot, here, incident, inc_pose));
            prop_assert!(to_inc.distance <= tol, "point {} is {} from the incident body", c.point, to_inc.distance);
            // Inside the reference body, or no farther from it than the penetration depth.
            let to_ref = gjk_distance(&pair(&dot, here, reference, ref_pose));
            prop_assert!(to_ref.distance <= depth + tol, "point {} is {} outside the reference body (depth {})\n{:?} {:?} | {:?} {:?} | {:?}", c.point, to_ref.distance, depth, a.kind(), pa, b.kind(), pb, m);
        }
    }

    #[test]
    fn swept_first_contact_makes_the_shapes_touch(
        a in any_shape(), b in any_shape(), pa in pose(1.0), pb in pose(1.0),
        va in (-3.0f32..3.0, -3.0f32..3.0), vb in (-3.0f32..3.0, -3.0f32..3.0),
        start in (-6.0f32..6.0, -6.0f32..6.0),
    ) {
        let pb = moved(pb, Vec2::new(start.0, start.1));
        let motion = Motion { velocity_a: Vec2::new(va.0, va.1), velocity_b: Vec2::new(vb.0, vb.1), t_max: 2.0 };
        let p = pair(&a, pa, &b, pb);
        let out = sweep_test(&p, &motion);
        let at = |t: f32| pair(&a, moved(pa, motion.velocity_a * t), &b, moved(pb, motion.velocity_b * t));
        if out.hit {
            let t = out.t_first.unwrap();
            prop_assert!((0.0..=2.0).contains(&t));
            let g = gjk_distance(&at(t));
            prop_assert!(g.distance <= 1e-3, "distance {} at t_first {}", g.distance, t);
            if t > 1e-3 {
                // Just before, they must not overlap deeply.
                let before = at(t - 1e-3);
                let e = gjk_distance(&before);
                if e.intersecting {
                    let depth = epa_penetration(&before, &e).unwrap().depth;
                    prop_assert!(depth <= 1e-2, "depth {} just before t_first", depth);
                }
            }
        } else {
            // A miss: sampled times along the path never overlap by more than a hair.
            for k in 0..=40 {
                let g = gjk_distance(&at(2.0 * k as f32 / 40.0));
                prop_assert!(!g.intersecting || g.core_distance >= 0.0);
                if g.intersecting {
                    let e = epa_penetration(&at(2.0 * k as f32 / 40.0), &g).unwrap();
                    prop_assert!(e.depth <= 1e-2, "missed but overlapping by {}", e.depth);
                }
            }
        }
    }
}
