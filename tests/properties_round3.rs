//! Properties of the 3D queries with spheres and capsules, over random shapes and poses:
//! swapping A and B flips the normal and keeps the depth; moving B by depth * normal leaves
//! them touching; SAT's separation equals GJK's distance (the closest-point axis makes SAT
//! exact for round shapes); EPA's depth equals SAT's; a common rigid motion changes nothing
//! but the frame; the manifold's points are no deeper than the contact.

use collision_lab::geom3::{Pose3, Shape3, Shape3Kind};
use collision_lab::query3::manifold_round::contact_manifold_round;
use collision_lab::query3::round::{epa_rounded, with_radii, BodyPair3};
use collision_lab::query3::sat_round::sat_round_test;
use collision_lab::query3::{epa, gjk};
use glam::{Quat, Vec3};
use proptest::prelude::*;

fn round_kind() -> impl Strategy<Value = Shape3Kind> {
    prop_oneof![
        (0.1f32..1.0).prop_map(|radius| Shape3Kind::Sphere { radius }),
        (0.05f32..1.2, 0.05f32..0.8).prop_map(|(half_length, radius)| Shape3Kind::Capsule {
            half_length,
            radius
        }),
    ]
}

fn any_kind() -> impl Strategy<Value = Shape3Kind> {
    prop_oneof![
        round_kind(),
        (0.2f32..1.0, 0.2f32..1.0, 0.2f32..1.0).prop_map(|(x, y, z)| Shape3Kind::Cuboid {
            half_extents: Vec3::new(x, y, z)
        }),
        (3u32..9, 0.2f32..1.0, 0.2f32..1.0).prop_map(|(sides, radius, half_height)| {
            Shape3Kind::Prism {
                sides,
                radius,
                half_height,
            }
        }),
    ]
}

fn vec3(reach: f32) -> impl Strategy<Value = Vec3> {
    (-reach..reach, -reach..reach, -reach..reach).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn pose(reach: f32) -> impl Strategy<Value = Pose3> {
    (vec3(reach), vec3(180.0)).prop_map(|(p, r)| Pose3::from_degrees(p, r))
}

/// A round shape against any shape, in either order, near each other.
fn case() -> impl Strategy<Value = (Shape3, Pose3, Shape3, Pose3)> {
    (
        round_kind(),
        any_kind(),
        pose(0.3),
        pose(1.2),
        any::<bool>(),
    )
        .prop_map(|(round, other, pa, pb, swap)| {
            let (round, other) = (Shape3::new(&round).unwrap(), Shape3::new(&other).unwrap());
            if swap {
                (other, pa, round, pb)
            } else {
                (round, pa, other, pb)
            }
        })
}

fn pair<'a>(a: &'a Shape3, pa: &Pose3, b: &'a Shape3, pb: &Pose3) -> BodyPair3<'a> {
    BodyPair3::new(a.as_ref(), pa, b.as_ref(), pb)
}

fn size(a: &Shape3, b: &Shape3) -> f32 {
    a.bounding_radius() + b.bounding_radius()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1_500, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    #[test]
    fn swapping_the_bodies_flips_the_normal_and_keeps_the_depth((a, pa, b, pb) in case()) {
        let ab = sat_round_test(&pair(&a, &pa, &b, &pb));
        let ba = sat_round_test(&pair(&b, &pb, &a, &pa));
        let tol = 1e-4 * size(&a, &b);
        prop_assert_eq!(ab.intersecting, ba.intersecting);
        prop_assert!((ab.depth - ba.depth).abs() <= 2.0 * tol, "{:?} {:?}", ab, ba);
        prop_assert!((ab.separation - ba.separation).abs() <= 2.0 * tol, "{:?} {:?}", ab, ba);
        if ab.intersecting {
            // Axes that tie may give different normals of one depth: either must push B out.
            let out = Pose3::new(pb.position - ba.depth * ba.normal, pb.rotation);
            let after = sat_round_test(&pair(&a, &pa, &b, &out));
            prop_assert!(
                (ab.normal + ba.normal).length() <= 1e-3
                    || (after.depth <= 4.0 * tol && after.separation <= 4.0 * tol),
                "{:?} {:?} {:?}", ab, ba, after
            );
        } else {
            prop_assert!(ab.normal.dot(-ba.normal) > 0.99, "{:?} {:?}", ab, ba);
        }
    }

    #[test]
    fn moving_b_by_depth_times_normal_leaves_them_touching((a, pa, b, pb) in case()) {
        let s = sat_round_test(&pair(&a, &pa, &b, &pb));
        prop_assume!(s.intersecting);
        let moved = Pose3::new(pb.position + s.depth * s.normal, pb.rotation);
        let after = sat_round_test(&pair(&a, &pa, &b, &moved));
        let tol = 1e-4 * size(&a, &b);
        prop_assert!(after.depth <= 4.0 * tol && after.separation <= 4.0 * tol, "{:?} then {:?}", s, after);
    }

    #[test]
    fn sat_separation_is_gjk_distance_and_sat_depth_is_epa_depth((a, pa, b, pb) in case()) {
        let p = pair(&a, &pa, &b, &pb);
        let s = sat_round_test(&p);
        let core = gjk::gjk(&p, &gjk::Config::default(), &mut ());
        let e = epa_rounded(&p, &core, &epa::Config::default(), &mut ());
        let g = with_radii(&p, core);
        let tol = 1e-3 * size(&a, &b);
        prop_assert_eq!(g.intersecting, s.intersecting, "{:?} {:?}", g, s);
        if s.intersecting {
            let e = e.unwrap();
            prop_assert!((e.depth - s.depth).abs() <= tol, "EPA {:?} SAT {:?}", e, s);
        } else {
            prop_assert!((g.distance - s.separation).abs() <= tol, "GJK {:?} SAT {:?}", g, s);
        }
    }

    #[test]
    fn a_common_rigid_motion_changes_only_the_frame(
        (a, pa, b, pb) in case(),
        shift in vec3(100.0),
        turn in vec3(180.0),
    ) {
        let motion = Pose3::from_degrees(shift, turn);
        let s = sat_round_test(&pair(&a, &pa, &b, &pb));
        let t = sat_round_test(&pair(&a, &pa.moved_by(&motion), &b, &pb.moved_by(&motion)));
        let tol = 1e-3 * size(&a, &b);
        prop_assert_eq!(s.intersecting, t.intersecting);
        prop_assert!((s.depth - t.depth).abs() <= tol && (s.separation - t.separation).abs() <= tol, "{:?} {:?}", s, t);
        let turned: Quat = motion.rotation;
        if s.depth > tol || s.separation > tol {
            // The normal turns with the bodies unless two axes tie.
            let n = turned * s.normal;
            let moved = sat_round_test(&pair(&a, &pa.moved_by(&motion), &b, &Pose3::new(pb.moved_by(&motion).position + t.depth * n, pb.moved_by(&motion).rotation)));
            prop_assert!(n.dot(t.normal) > 0.999 || moved.depth <= 4.0 * tol, "{:?} {:?}", s, t);
        }
    }

    #[test]
    fn manifold_points_are_no_deeper_than_the_contact((a, pa, b, pb) in case()) {
        let p = pair(&a, &pa, &b, &pb);
        let s = sat_round_test(&p);
        prop_assume!(s.intersecting);
        let m = contact_manifold_round(&p, s.normal);
        prop_assert!(!m.points.is_empty() && m.points.len() <= 2);
        for c in m.points.iter() {
            prop_assert!(c.point.is_finite() && c.depth >= 0.0);
            prop_assert!(c.depth <= s.depth + 1e-3 * size(&a, &b), "{:?} {:?}", c, s);
        }
    }
}
