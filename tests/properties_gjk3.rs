//! Property tests for 3D GJK and EPA over random convex polyhedra and poses: they agree with
//! SAT, with a brute-force distance referee written here (the closest pair of features:
//! vertex against face, edge against edge), with the explicit Minkowski difference, and
//! with the geometry they claim (moving B by depth * normal makes the bodies touch; swapping
//! the bodies flips the normal; a common rigid motion changes nothing but the frame).

use collision_lab::geom3::{Polyhedron, Pose3, Shape3Kind};
use collision_lab::query3::epa::{
    epa, epa_penetration, Config as EpaConfig, Output as EpaOutput, Step as EpaStep,
};
use collision_lab::query3::gjk::{gjk, gjk_distance, gjk_intersects, Config as GjkConfig};
use collision_lab::query3::minkowski::minkowski_difference;
use collision_lab::query3::sat::sat_test;
use collision_lab::query3::{Placed3, PolyPair};
use glam::Vec3;
use proptest::prelude::*;

/// Answers closer than this (times the pair's scale) to touching are not compared for the
/// yes/no verdict: both answers are right there.
const MARGIN: f32 = 2.0e-3;

/// Depths and distances agree within this times the pair's scale: SAT skips nearly
/// parallel edge pairs (sine below 1e-3) and prefers a face by up to 1e-4 of the scale;
/// EPA stops within 1e-5 of the scale.
const AGREE: f32 = 2.0e-3;

fn point() -> impl Strategy<Value = Vec3> {
    (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// A random hull of 4 to 24 points, stretched per axis.
fn any_hull() -> impl Strategy<Value = Polyhedron> {
    (
        prop::collection::vec(point(), 4..24),
        (0.3f32..1.5, 0.3f32..1.5, 0.3f32..1.5),
    )
        .prop_filter_map("flat hull", |(points, (sx, sy, sz))| {
            let points = points
                .into_iter()
                .map(|p| p * Vec3::new(sx, sy, sz))
                .collect();
            Polyhedron::new(&Shape3Kind::Hull { points }).ok()
        })
}

/// A cuboid, a prism or a hull.
fn any_shape() -> impl Strategy<Value = Polyhedron> {
    prop_oneof![
        1 => (0.1f32..1.0, 0.1f32..1.0, 0.1f32..1.0).prop_map(|(x, y, z)| {
            Polyhedron::new(&Shape3Kind::Cuboid {
                half_extents: Vec3::new(x, y, z),
            })
            .unwrap()
        }),
        1 => (3u32..12, 0.2f32..1.0, 0.1f32..1.0).prop_map(|(sides, radius, half_height)| {
            Polyhedron::new(&Shape3Kind::Prism {
                sides,
                radius,
                half_height,
            })
            .unwrap()
        }),
        2 => any_hull(),
    ]
}

fn pose(reach: f32) -> impl Strategy<Value = Pose3> {
    (
        point(),
        (-180.0f32..180.0, -180.0f32..180.0, -180.0f32..180.0),
    )
        .prop_map(move |(p, (x, y, z))| Pose3::from_degrees(p * reach, Vec3::new(x, y, z)))
}

// ---- The brute-force distance referee -------------------------------------------------

/// The closest point of segment `p q` to `x`.
fn closest_on_segment(p: Vec3, q: Vec3, x: Vec3) -> Vec3 {
    let e = q - p;
    let len2 = e.length_squared();
    if len2 == 0.0 {
        return p;
    }
    p + ((x - p).dot(e) / len2).clamp(0.0, 1.0) * e
}

/// Distance between segments `p1 q1` and `p2 q2`, by minimising over a fine parameter grid
/// refined around the best cell (no closed form shared with the code under test).
fn segment_distance(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3) -> f32 {
    // For a fixed point on the first segment the closest point on the second is exact; the
    // distance is convex in the first parameter, so a ternary search finds its minimum.
    let f = |s: f32| {
        let x = p1 + s * (q1 - p1);
        (closest_on_segment(p2, q2, x) - x).length()
    };
    let (mut lo, mut hi) = (0.0f32, 1.0f32);
    for _ in 0..60 {
        let m1 = lo + (hi - lo) / 3.0;
        let m2 = hi - (hi - lo) / 3.0;
        if f(m1) <= f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    f(0.5 * (lo + hi)).min(f(0.0)).min(f(1.0))
}

/// Distance from `x` to a face of a placed polyhedron: to its plane when the foot of the
/// perpendicular is inside the polygon (on the inner side of every edge), else to the
/// nearest edge.
fn point_face_distance(body: &Placed3, face: usize, x: Vec3) -> f32 {
    let f = body.shape.face(face);
    let n = body.face_normal(face);
    let vertices: Vec<Vec3> = f
        .vertices
        .iter()
        .map(|&v| body.vertex(v as usize))
        .collect();
    let foot = x - (x - vertices[0]).dot(n) * n;
    let k = vertices.len();
    let inside = (0..k).all(|i| {
        let (p, q) = (vertices[i], vertices[(i + 1) % k]);
        (q - p).cross(foot - p).dot(n) >= 0.0
    });
    if inside {
        return (x - foot).length();
    }
    (0..k)
        .map(|i| (closest_on_segment(vertices[i], vertices[(i + 1) % k], x) - x).length())
        .fold(f32::INFINITY, f32::min)
}

/// The distance between two separated convex polyhedra: the smallest over every vertex of
/// one against every face of the other, and every edge of one against every edge of the
/// other. The closest pair of points of two convex polyhedra is always realised by one of
/// these feature pairs.
fn referee_distance(p: &PolyPair) -> f32 {
    let mut best = f32::INFINITY;
    for (x, y) in [(&p.a, &p.b), (&p.b, &p.a)] {
        for v in 0..x.shape.vertices().len() {
            let point = x.vertex(v);
            for f in 0..y.shape.face_count() {
                best = best.min(point_face_distance(y, f, point));
            }
        }
    }
    for ea in p.a.shape.edges() {
        let (p1, q1) = (p.a.vertex(ea.tail as usize), p.a.vertex(ea.head as usize));
        for eb in p.b.shape.edges() {
            let (p2, q2) = (p.b.vertex(eb.tail as usize), p.b.vertex(eb.head as usize));
            best = best.min(segment_distance(p1, q1, p2, q2));
        }
    }
    best
}

/// How far `x` (world) lies outside a placed body: the largest height above a face plane.
fn outside_by(body: &Placed3, origin: Vec3, x: Vec3) -> f32 {
    let local = x - origin;
    (0..body.shape.face_count())
        .map(|f| body.face_normal(f).dot(local) - body.face_offset(f))
        .fold(f32::NEG_INFINITY, f32::max)
}

/// Whether moving B by `depth * normal` leaves the bodies touching (SAT's verdict: in
/// contact, with no more than `tol` overlap).
fn touches_after(p: &PolyPair, e: &EpaOutput, tol: f32) -> Result<(), String> {
    let s = sat_test(&p.with_b_moved(e.depth * e.normal));
    let gap = if s.intersecting {
        -s.depth
    } else {
        s.separation
    };
    if gap.abs() <= tol {
        Ok(())
    } else {
        Err(format!(
            "after moving B by {} along {}: SAT gap {gap}",
            e.depth, e.normal
        ))
    }
}

proptest! {
    // Cheap runs, many poses: near-ties in the support scan and in EPA's face choice.
    #![proptest_config(ProptestConfig {
        cases: 3_000,
        max_global_rejects: 1_000_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn untraced_gjk_and_epa_equal_traced(a in any_shape(), b in any_shape(), pa in pose(0.9), pb in pose(0.9)) {
        // The untraced runs take their own paths (the lane support scan is shared; EPA tries
        // a small polytope first): every number must be the traced run's, bit for bit.
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let mut gjk_steps = Vec::new();
        let traced = gjk(&p, &GjkConfig::default(), &mut gjk_steps);
        let untraced = gjk_distance(&p);
        prop_assert_eq!(untraced, traced);
        prop_assert_eq!(gjk_intersects(&p, &GjkConfig::default()), traced.intersecting);
        let mut epa_steps: Vec<EpaStep> = Vec::new();
        let traced_epa = epa(&p, &traced, &EpaConfig::default(), &mut epa_steps);
        prop_assert_eq!(epa_penetration(&p, &untraced), traced_epa);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        max_global_rejects: 1_000_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn gjk_and_sat_agree_on_intersection(a in any_shape(), b in any_shape(), pa in pose(1.2), pb in pose(1.2)) {
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let g = gjk_distance(&p);
        let s = sat_test(&p);
        // SAT's signed gap: its separation is a lower bound on the distance, its depth the
        // exact overlap; within the margin of zero both verdicts are right.
        let gap = if s.intersecting { -s.depth } else { s.separation };
        if gap.abs() > MARGIN * p.scale() {
            prop_assert_eq!(g.intersecting, s.intersecting, "gjk {:?} sat {:?}", g, s);
        }
        prop_assert_eq!(gjk_intersects(&p, &GjkConfig::default()), g.intersecting, "the boolean test disagrees: {:?}", g);
    }

    #[test]
    fn gjk_distance_matches_the_feature_pair_referee(a in any_shape(), b in any_shape(), pa in pose(1.5), pb in pose(1.5)) {
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let g = gjk_distance(&p);
        let s = sat_test(&p);
        prop_assume!(!g.intersecting && !s.intersecting);
        let r = referee_distance(&p);
        let tol = 1e-4 * p.scale();
        prop_assert!((g.distance - r).abs() <= tol, "gjk {} referee {} ({:?})", g.distance, r, g.status);
        // The closest points lie on the bodies and are the distance apart.
        let (ca, cb) = (g.closest_a.unwrap(), g.closest_b.unwrap());
        prop_assert!(((cb - ca).length() - g.distance).abs() <= tol);
        prop_assert!(outside_by(&p.a, p.origin, ca).abs() <= tol, "closest_a {} off A", ca);
        prop_assert!(outside_by(&p.b, p.origin, cb).abs() <= tol, "closest_b {} off B", cb);
        prop_assert!((g.normal - (cb - ca).normalize()).length() <= 1e-3);
    }

    #[test]
    fn epa_depth_equals_sat_depth(a in any_shape(), b in any_shape(), pa in pose(0.8), pb in pose(0.8)) {
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let g = gjk_distance(&p);
        let s = sat_test(&p);
        prop_assume!(g.intersecting && s.intersecting);
        let e = epa_penetration(&p, &g).unwrap();
        prop_assert!((e.depth - s.depth).abs() <= AGREE * p.scale(), "epa {:?} sat {:?}", e, s);
        prop_assert!((e.normal.length() - 1.0).abs() <= 1e-5);
        prop_assert!((e.point_a - e.point_b - e.depth * e.normal).length() <= 1e-4 * p.scale(), "{:?}", e);
    }

    #[test]
    fn moving_b_by_depth_along_the_normal_makes_them_touch(a in any_shape(), b in any_shape(), pa in pose(0.8), pb in pose(0.8)) {
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let g = gjk_distance(&p);
        prop_assume!(g.intersecting);
        let e = epa_penetration(&p, &g).unwrap();
        let r = touches_after(&p, &e, AGREE * p.scale());
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
        // GJK agrees: after the move the distance is within the margin of zero.
        let after = gjk_distance(&p.with_b_moved(e.depth * e.normal));
        prop_assert!(after.distance <= AGREE * p.scale(), "{:?}", after);
    }

    #[test]
    fn epa_s_closest_face_lies_on_the_minkowski_difference(a in any_shape(), b in any_shape(), pa in pose(0.8), pb in pose(0.8)) {
        prop_assume!(a.vertices().len() * b.vertices().len() <= 1024);
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let g = gjk_distance(&p);
        prop_assume!(g.intersecting);
        let e = epa_penetration(&p, &g).unwrap();
        let m = minkowski_difference(&p).unwrap();
        let tol = AGREE * p.scale();
        prop_assert!(m.plane_on_boundary(e.normal, e.depth, tol), "gap {}", m.plane_gap(e.normal, e.depth));
        prop_assert!(m.origin.contains_origin || m.origin.distance <= tol);
        prop_assert!((m.origin.distance - e.depth).abs() <= tol, "minkowski {} epa {}", m.origin.distance, e.depth);
    }

    #[test]
    fn swapping_a_and_b_flips_the_normal(a in any_shape(), b in any_shape(), pa in pose(1.0), pb in pose(1.0)) {
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let q = p.swapped();
        let (g, h) = (gjk_distance(&p), gjk_distance(&q));
        let tol = AGREE * p.scale();
        prop_assert!((g.distance - h.distance).abs() <= 1e-4 * p.scale(), "{} {}", g.distance, h.distance);
        if !g.intersecting && !h.intersecting && g.distance > MARGIN * p.scale() {
            prop_assert!((g.normal + h.normal).length() <= 1e-3, "{} {}", g.normal, h.normal);
        }
        prop_assume!(g.intersecting && h.intersecting);
        let (e, f) = (epa_penetration(&p, &g).unwrap(), epa_penetration(&q, &h).unwrap());
        prop_assert!((e.depth - f.depth).abs() <= tol, "{} {}", e.depth, f.depth);
        if (e.normal + f.normal).length() > 1e-3 {
            // A tie between two directions out: the swapped answer, flipped, must be a valid
            // way out for the original pair too.
            let flipped = EpaOutput { normal: -f.normal, ..f };
            let r = touches_after(&p, &flipped, tol);
            prop_assert!(r.is_ok(), "swapped normal {} vs {}: {}", f.normal, e.normal, r.unwrap_err());
        }
    }

    #[test]
    fn a_common_rigid_motion_changes_nothing_but_the_frame(a in any_shape(), b in any_shape(), pa in pose(1.0), pb in pose(1.0), motion in pose(50.0)) {
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let q = PolyPair::new(&a, &pa.moved_by(&motion), &b, &pb.moved_by(&motion));
        let (g, h) = (gjk_distance(&p), gjk_distance(&q));
        let tol = AGREE * p.scale();
        prop_assert!((g.distance - h.distance).abs() <= 1e-4 * p.scale() + 1e-5 * 50.0, "{} {}", g.distance, h.distance);
        if g.distance > MARGIN * p.scale() {
            prop_assert!(!h.intersecting);
            prop_assert!((motion.rotation * g.normal - h.normal).length() <= 1e-3, "{} {}", g.normal, h.normal);
            let moved_a = motion.transform_point(g.closest_a.unwrap());
            prop_assert!(outside_by(&q.a, q.origin, moved_a).abs() <= tol);
        }
        prop_assume!(g.intersecting && h.intersecting);
        let (e, f) = (epa_penetration(&p, &g).unwrap(), epa_penetration(&q, &h).unwrap());
        prop_assert!((e.depth - f.depth).abs() <= tol, "{} {}", e.depth, f.depth);
        if (motion.rotation * e.normal - f.normal).length() > 1e-3 {
            // A tie: the moved pair's normal, brought back, must be a valid way out here.
            let back = EpaOutput { normal: motion.rotation.inverse() * f.normal, ..f };
            let r = touches_after(&p, &back, tol);
            prop_assert!(r.is_ok(), "{}", r.unwrap_err());
        }
    }
}

/// The referee itself, on the hand-computed cases: unit cubes offset (2, 0.5, 0) are 1 apart;
/// a unit cube turned 45 degrees about z is 1.5 - sqrt(2)/2 from an axis-aligned one at
/// (2, 0, 0); corner to corner at (2, 2, 2) they are sqrt(3) apart.
#[test]
fn the_referee_measures_the_hand_computed_cases() {
    let cube = Polyhedron::new(&Shape3Kind::Cuboid {
        half_extents: Vec3::splat(0.5),
    })
    .unwrap();
    let at = |x: f32, y: f32, z: f32| Pose3::from_degrees(Vec3::new(x, y, z), Vec3::ZERO);
    let d = referee_distance(&PolyPair::new(
        &cube,
        &at(0., 0., 0.),
        &cube,
        &at(2., 0.5, 0.),
    ));
    assert!((d - 1.0).abs() < 1e-6, "{d}");
    let turned = Pose3::from_degrees(Vec3::ZERO, Vec3::new(0., 0., 45.));
    let d = referee_distance(&PolyPair::new(&cube, &turned, &cube, &at(2., 0., 0.)));
    assert!((d - (1.5 - 0.5 * 2f32.sqrt())).abs() < 1e-6, "{d}");
    let d = referee_distance(&PolyPair::new(
        &cube,
        &at(0., 0., 0.),
        &cube,
        &at(2., 2., 2.),
    ));
    assert!((d - 3f32.sqrt()).abs() < 1e-6, "{d}");
    // Crossed ridges: edge against edge, 2 - sqrt(2) apart.
    let ridge_b = Pose3::from_degrees(Vec3::new(0., 2., 0.), Vec3::new(45., 0., 0.));
    let d = referee_distance(&PolyPair::new(&cube, &turned, &cube, &ridge_b));
    assert!((d - (2.0 - 2f32.sqrt())).abs() < 1e-5, "{d}");
}
