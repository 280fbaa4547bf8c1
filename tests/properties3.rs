//! Property tests over random convex polyhedra and poses for the 3D core: SAT agrees with an
//! independent referee (the convex hull of all pairwise vertex differences, A - B, which
//! contains the origin exactly when the bodies overlap, and whose face planes give the exact
//! depth and the SAT separation), and the manifold and sweep satisfy the geometry they
//! claim.

use collision_lab::geom3::{
    Polyhedron, Pose3, Shape3Kind, FACE_MERGE_ANGLE_DEGREES, HULL_TOLERANCE,
};
use collision_lab::query3::manifold::{manifold, Feature, FeaturePair, Step as ClipStep};
use collision_lab::query3::sat::sat_test;
use collision_lab::query3::sweep::{sweep_test, Motion3, Status as SweepStatus};
use collision_lab::query3::PolyPair;
use glam::{Quat, Vec3};
use proptest::prelude::*;

/// Answers closer than this (times the pair's scale) to touching are not compared for the
/// yes/no verdict: both answers are right there.
const MARGIN: f32 = 2.0e-3;

/// Depths and separations agree within this times the pair's scale: SAT may skip nearly
/// parallel edge pairs (sine below 1e-3) and prefers a face by up to 1e-4 of the scale.
const AGREE: f32 = 2.0e-3;

/// The referee: A - B built from every pair of world vertices with the hull builder.
/// Returns the signed distance of the origin from the hull as the largest plane distance:
/// negative inside (minus the exact penetration depth), positive outside (the largest
/// separation along a face normal of A - B, which is what SAT reports).
fn referee(p: &PolyPair) -> f32 {
    let mut diffs = Vec::new();
    for i in 0..p.a.shape.vertices().len() {
        for j in 0..p.b.shape.vertices().len() {
            diffs.push(p.a.vertex(i) - p.b.vertex(j));
        }
    }
    // A - B has volume whenever A and B do, so the builder must take the cloud. (It used to
    // refuse some: 64 differences of two boxes, many of them coplanar, were reported flat
    // until the hull's decisions became exact.)
    let hull = Polyhedron::new(&Shape3Kind::Hull { points: diffs })
        .expect("A - B has volume: the hull builder must take it");
    (0..hull.face_count())
        .map(|f| -hull.face(f).offset)
        .fold(f32::NEG_INFINITY, f32::max)
}

/// [`referee`] without a hull, a second referee for the first: the largest `-h(u)` over every candidate direction `u` (both
/// bodies' face normals and every edge-pair cross product, both ways round), where
/// `h(u) = max over A of u . a - min over B of u . b` is the support of A - B; in f64. The
/// largest is reached at a face normal of A - B (inside: minus the depth; outside: the
/// largest face separation), and no other direction exceeds it.
fn brute_force_referee(p: &PolyPair) -> f32 {
    let world = |body: &collision_lab::query3::Placed3, i: usize| body.vertex(i).as_dvec3();
    let points = |body: &collision_lab::query3::Placed3| -> Vec<glam::DVec3> {
        (0..body.shape.vertices().len())
            .map(|i| world(body, i))
            .collect()
    };
    let (pa, pb) = (points(&p.a), points(&p.b));
    let mut directions: Vec<glam::DVec3> = Vec::new();
    for body in [&p.a, &p.b] {
        for f in 0..body.shape.face_count() {
            directions.push(body.face_normal(f).as_dvec3());
        }
    }
    let edge = |body: &collision_lab::query3::Placed3, e: &collision_lab::geom3::Edge| {
        world(body, e.head as usize) - world(body, e.tail as usize)
    };
    for ea in p.a.shape.edges() {
        for eb in p.b.shape.edges() {
            let (da, db) = (edge(&p.a, ea), edge(&p.b, eb));
            let c = da.cross(db);
            if c.length() > 1e-9 * da.length() * db.length() {
                directions.push(c.normalize());
            }
        }
    }
    let support = |u: glam::DVec3| {
        let high = pa
            .iter()
            .map(|a| u.dot(*a))
            .fold(f64::NEG_INFINITY, f64::max);
        let low = pb.iter().map(|b| u.dot(*b)).fold(f64::INFINITY, f64::min);
        high - low
    };
    directions
        .iter()
        .flat_map(|&u| [-support(u), -support(-u)])
        .fold(f64::NEG_INFINITY, f64::max) as f32
}

fn point() -> impl Strategy<Value = Vec3> {
    (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// A random hull of 4 to 16 points, stretched per axis.
fn any_hull() -> impl Strategy<Value = Polyhedron> {
    (
        prop::collection::vec(point(), 4..16),
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
        (0.1f32..1.0, 0.1f32..1.0, 0.1f32..1.0).prop_map(|(x, y, z)| {
            Polyhedron::new(&Shape3Kind::Cuboid {
                half_extents: Vec3::new(x, y, z),
            })
            .unwrap()
        }),
        (3u32..9, 0.2f32..1.0, 0.1f32..1.0).prop_map(|(sides, radius, half_height)| {
            Polyhedron::new(&Shape3Kind::Prism {
                sides,
                radius,
                half_height,
            })
            .unwrap()
        }),
        any_hull(),
    ]
}

fn pose(reach: f32) -> impl Strategy<Value = Pose3> {
    (
        point(),
        (-180.0f32..180.0, -180.0f32..180.0, -180.0f32..180.0),
    )
        .prop_map(move |(p, (x, y, z))| Pose3::from_degrees(p * reach, Vec3::new(x, y, z)))
}

/// A box or prism resting face-down on a wider box, turned about y and tilted by up to 0.02
/// degrees (within the feature tolerance, so still face-down, but with unequal depths), sunk
/// by 0 to 0.1: face-face contacts whose footprint lies inside the lower top face.
fn stacked() -> impl Strategy<Value = (Polyhedron, Polyhedron, Pose3, Pose3)> {
    (
        (1.0f32..2.0, 0.2f32..1.0, 1.0f32..2.0),
        prop_oneof![
            (0.2f32..0.6, 0.2f32..0.6, 0.2f32..0.6).prop_map(|(x, y, z)| Shape3Kind::Cuboid {
                half_extents: Vec3::new(x, y, z)
            }),
            (3u32..9, 0.2f32..0.6, 0.2f32..0.6).prop_map(|(sides, radius, half_height)| {
                Shape3Kind::Prism {
                    sides,
                    radius,
                    half_height,
                }
            }),
        ],
        (-0.02f32..0.02, -180.0f32..180.0, -0.02f32..0.02),
        (-0.3f32..0.3, 0.0f32..0.1, -0.3f32..0.3),
    )
        .prop_map(|((ax, ay, az), kind_b, turn, (dx, sink, dz))| {
            let a = Polyhedron::new(&Shape3Kind::Cuboid {
                half_extents: Vec3::new(ax, ay, az),
            })
            .unwrap();
            let hb = match &kind_b {
                Shape3Kind::Cuboid { half_extents } => half_extents.y,
                Shape3Kind::Prism { half_height, .. } => *half_height,
                _ => unreachable!("the strategy makes cuboids and prisms"),
            };
            let b = Polyhedron::new(&kind_b).unwrap();
            let pb = Pose3::from_degrees(Vec3::new(dx, ay + hb - sink, dz), Vec3::from(turn));
            (a, b, Pose3::default(), pb)
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 250,
        max_global_rejects: 100_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn sat_agrees_with_the_minkowski_hull(a in any_shape(), b in any_shape(), pa in pose(1.0), pb in pose(1.0)) {
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let s = sat_test(&p);
        let r = referee(&p);
        let scale = p.scale();
        if r.abs() > MARGIN * scale {
            prop_assert_eq!(s.intersecting, r < 0.0, "sat {:?} referee {}", s, r);
        }
        if s.intersecting {
            prop_assert!((s.depth - (-r).max(0.0)).abs() <= AGREE * scale, "sat depth {} referee {}", s.depth, r);
        } else {
            prop_assert!((s.separation - r).abs() <= AGREE * scale, "sat separation {} referee {}", s.separation, r);
        }
        prop_assert!((s.normal.length() - 1.0).abs() < 1e-4);
    }

    #[test]
    fn moving_b_by_depth_along_the_normal_makes_them_touch(a in any_shape(), b in any_shape(), pa in pose(0.6), pb in pose(0.6)) {
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let s = sat_test(&p);
        prop_assume!(s.intersecting && s.depth > MARGIN * p.scale());
        let moved = p.with_b_moved(s.normal * s.depth);
        let r = referee(&moved);
        prop_assert!(r.abs() <= AGREE * p.scale(), "after moving by {} along {}: referee {}", s.depth, s.normal, r);
    }

    #[test]
    fn swapping_a_and_b_flips_the_normal(a in any_shape(), b in any_shape(), pa in pose(1.0), pb in pose(1.0)) {
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let s = sat_test(&p);
        let w = sat_test(&p.swapped());
        let tol = AGREE * p.scale();
        prop_assert_eq!(s.intersecting, w.intersecting);
        prop_assert!((s.depth - w.depth).abs() <= tol && (s.separation - w.separation).abs() <= tol);
        if (s.normal + w.normal).length() > 1e-3 {
            // A near tie between two axes: each normal must still be a valid way out.
            prop_assume!(s.intersecting && s.depth > MARGIN * p.scale());
            let r = referee(&p.with_b_moved(-w.normal * w.depth));
            prop_assert!(r.abs() <= tol, "swapped normal {} does not separate: {}", w.normal, r);
        }
    }

    #[test]
    fn a_common_rigid_motion_changes_nothing_but_the_frame(a in any_shape(), b in any_shape(), pa in pose(1.0), pb in pose(1.0), motion in pose(50.0)) {
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let (ma, mb) = (pa.moved_by(&motion), pb.moved_by(&motion));
        let q = PolyPair::new(&a, &ma, &b, &mb);
        let (s, t) = (sat_test(&p), sat_test(&q));
        let tol = AGREE * p.scale();
        if s.depth.max(s.separation) > MARGIN * p.scale() {
            prop_assert_eq!(s.intersecting, t.intersecting);
        }
        prop_assert!((s.depth - t.depth).abs() <= tol && (s.separation - t.separation).abs() <= tol, "{:?} vs {:?}", s, t);
        if s.axis == t.axis {
            prop_assert!((motion.rotation * s.normal - t.normal).length() <= 1e-3);
        }
    }

    #[test]
    fn reduced_points_come_from_the_clipped_ones_and_keep_the_deepest((a, b, pa, pb) in stacked()) {
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let s = sat_test(&p);
        prop_assume!(s.intersecting);
        let mut steps = Vec::new();
        let m = manifold(&p, s.normal, &mut steps);
        prop_assert!(!m.points.is_empty() && m.points.len() <= 4);
        prop_assert!(m.points.iter().all(|c| c.depth >= 0.0));
        if m.feature == FeaturePair::FaceFace {
            let Some(ClipStep::ClipPlane { after, .. }) = steps.iter().rfind(|s| matches!(s, ClipStep::ClipPlane { .. })) else {
                panic!("face-face without a clip step");
            };
            prop_assert_eq!(after.len() as u32, m.clipped);
            for c in m.points.iter() {
                prop_assert!(after.iter().any(|q| (*q - c.point).length() <= 1e-6), "{:?} not among the clipped points", c);
            }
            // The deepest clipped point below the face is kept. A face-face point's depth is
            // how far it lies below the reference face's plane (the face's own normal, which
            // may differ from SAT's normal by up to the preference tolerance's angle).
            let Some(ClipStep::Features { reference_feature: Feature::Face(r), .. }) =
                steps.iter().find(|s| matches!(s, ClipStep::Features { .. }))
            else {
                panic!("face-face without a reference face");
            };
            let body = match m.reference {
                collision_lab::query3::Side::A => &p.a,
                collision_lab::query3::Side::B => &p.b,
            };
            let (face_normal, face_offset) = (body.face_normal(*r as usize), body.face_offset(*r as usize));
            let deepest_clipped = after
                .iter()
                .map(|q| face_offset - face_normal.dot(*q - p.origin))
                .fold(0.0f32, f32::max);
            prop_assert!((m.points.deepest() - deepest_clipped).abs() <= 1e-5, "kept {} clipped {}", m.points.deepest(), deepest_clipped);
        }
    }

    #[test]
    fn the_deepest_point_is_sat_s_depth_for_face_contacts((a, b, pa, pb) in stacked()) {
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let s = sat_test(&p);
        prop_assume!(s.intersecting && s.axis.is_face());
        let m = manifold(&p, s.normal, &mut ());
        prop_assume!(matches!(m.feature, FeaturePair::FaceFace | FeaturePair::EdgeFace | FeaturePair::VertexFace));
        prop_assert!((m.points.deepest() - s.depth).abs() <= 1e-4, "manifold {} sat {}", m.points.deepest(), s.depth);
    }

    #[test]
    fn the_sweep_s_first_time_makes_them_touch(a in any_shape(), b in any_shape(), pb in pose(1.0), va in point(), vb in point()) {
        // B starts 4 away along x and comes back toward A.
        let pa = Pose3::default();
        let pb = Pose3 { position: pb.position + Vec3::new(4.0, 0.0, 0.0), ..pb };
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let motion = Motion3 { velocity_a: va, velocity_b: vb - Vec3::new(6.0, 0.0, 0.0), t_max: 1.0 };
        let out = sweep_test(&p, &motion);
        prop_assume!(out.status == SweepStatus::Hit);
        let t = out.t_first.unwrap();
        let at = PolyPair { a: p.a.translated(motion.velocity_a * t), b: p.b.translated(motion.velocity_b * t), origin: p.origin };
        let r = referee(&at);
        prop_assert!(r.abs() <= AGREE * p.scale(), "at t_first {} the referee says {}", t, r);
        prop_assert!(out.manifold.is_some());
    }
}

#[test]
fn the_referee_sees_the_slab_case() {
    let slab = Polyhedron::new(&Shape3Kind::Cuboid {
        half_extents: Vec3::new(1.0, 0.5, 1.0),
    })
    .unwrap();
    let cube = Polyhedron::new(&Shape3Kind::Cuboid {
        half_extents: Vec3::splat(0.5),
    })
    .unwrap();
    let p = PolyPair::new(
        &slab,
        &Pose3::default(),
        &cube,
        &Pose3::new(Vec3::new(0.0, 0.9, 0.0), Quat::IDENTITY),
    );
    assert!((referee(&p) + 0.1).abs() < 1e-6);
    assert!((brute_force_referee(&p) + 0.1).abs() < 1e-6);
}

#[test]
fn both_referees_and_sat_agree_on_the_boxes_the_hull_builder_once_refused() {
    // The pair of boxes whose A - B (64 differences, many coplanar) the hull builder once
    // refused as flat at five of these six offsets (found by
    // `sat_agrees_with_the_minkowski_hull`), apart and overlapping; the slab case above checks
    // both referees against the hand-computed depth.
    let cuboid = |x: f32, y: f32, z: f32| {
        Polyhedron::new(&Shape3Kind::Cuboid {
            half_extents: Vec3::new(x, y, z),
        })
        .unwrap()
    };
    let (a, b) = (
        cuboid(0.6711813, 0.1, 0.1),
        cuboid(0.8428714, 0.1, 0.86065495),
    );
    let turned = |x, y, z, w| Quat::from_xyzw(x, y, z, w).normalize();
    let pa = Pose3::new(
        Vec3::ZERO,
        turned(-0.42076272, -0.5517686, -0.33971488, 0.6349046),
    );
    let (mut apart, mut overlapping) = (0, 0);
    for offset in [0.0f32, 0.25, 0.5, 1.0, 2.0, 4.0] {
        let position = offset * Vec3::new(0.0, 0.41301256, -0.48041803);
        let pb = Pose3::new(
            position,
            turned(0.6356697, -0.47368994, -0.54793966, -0.26702818),
        );
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let brute = brute_force_referee(&p);
        let hull = referee(&p);
        assert!(
            (hull - brute).abs() < 1e-5,
            "offset {offset}: hull referee {hull}, brute force {brute}"
        );
        let s = sat_test(&p);
        let sat_value = if s.intersecting {
            -s.depth
        } else {
            s.separation
        };
        assert!(
            (sat_value - brute).abs() < 1e-4,
            "offset {offset}: sat {sat_value}, brute {brute}"
        );
        if s.intersecting {
            overlapping += 1;
        } else {
            apart += 1;
        }
    }
    assert!(
        apart >= 1 && overlapping >= 1,
        "{apart} apart, {overlapping} overlapping"
    );
}

/// Random clouds, some nearly flat, some with repeated points: the hull builder returns a
/// closed convex polyhedron holding every input point, or a typed error; never a panic.
fn cloud() -> impl Strategy<Value = Vec<Vec3>> {
    (
        prop::collection::vec(point(), 1..80),
        prop_oneof![Just(1.0f32), Just(1e-3), Just(1e-5), Just(0.0)],
        0usize..4,
    )
        .prop_map(|(mut points, flatness, repeats)| {
            for p in &mut points {
                p.y *= flatness;
            }
            for k in 0..repeats.min(points.len()) {
                let q = points[k];
                points.push(q);
            }
            points
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn the_hull_holds_every_point_or_refuses(points in cloud()) {
        match Polyhedron::new(&Shape3Kind::Hull { points: points.clone() }) {
            Err(e) => prop_assert!(!e.to_string().is_empty()),
            Ok(poly) => holds_every_point(&points, &poly)?,
        }
    }

    #[test]
    fn the_hull_of_a_minkowski_difference_is_built_and_holds_every_point(a in any_shape(), b in any_shape(), pa in pose_or_quarter_turns(), pb in pose_or_quarter_turns()) {
        // A - B of two bodies with volume has volume, so the builder must take it: clouds
        // of up to a few thousand points, many of them coplanar (every face of A - B holds a
        // whole face of A or B, or a parallelogram of two edges), exactly so when the bodies
        // are turned by quarter turns.
        let p = PolyPair::new(&a, &pa, &b, &pb);
        let mut points = Vec::new();
        for i in 0..a.vertices().len() {
            for j in 0..b.vertices().len() {
                points.push(p.a.vertex(i) - p.b.vertex(j));
            }
        }
        points.truncate(collision_lab::geom3::MAX_HULL_POINTS);
        let poly = Polyhedron::new(&Shape3Kind::Hull { points: points.clone() });
        prop_assert!(poly.is_ok(), "refused: {:?}", poly.err().map(|e| e.to_string()));
        let r = holds_every_point(&points, &poly.unwrap());
        if r.is_err() { let t: Vec<String> = points.iter().map(|p| format!("Vec3::new({:?}, {:?}, {:?})", p.x, p.y, p.z)).collect(); std::fs::write("/tmp/failcloud.txt", t.join(",\n")).unwrap(); }
        r?;
    }
}

/// A pose as [`pose`] gives, or one turned by whole quarter turns about each axis (faces
/// parallel to the other body's faces, edges parallel to its edges: exact coplanarities).
fn pose_or_quarter_turns() -> impl Strategy<Value = Pose3> {
    prop_oneof![
        pose(1.0),
        (point(), (-2i32..3, -2i32..3, -2i32..3)).prop_map(|(p, (x, y, z))| {
            Pose3::from_degrees(
                p,
                Vec3::new(90.0 * x as f32, 90.0 * y as f32, 90.0 * z as f32),
            )
        }),
    ]
}

/// The hull `poly` of `points` is a closed convex polyhedron on the points that holds them
/// all: every vertex is a given point, every given point a vertex or dropped, Euler's
/// formula holds, and no point lies above a face by more than the builder's bound.
fn holds_every_point(points: &[Vec3], poly: &Polyhedron) -> Result<(), TestCaseError> {
    let size = poly.centroid_radius();
    // The builder's bound on a point above a face: 4 times its tolerance (HULL_TOLERANCE of
    // the cloud's bounding-box diagonal) plus 1e-6 of the hull's size (`assemble`'s
    // convexity check), and the rounding of the `f32` plane test here. The hull's decisions
    // are exact, so its first attempt holds; a retry at a coarser tolerance would fail this.
    let (lo, hi) = points.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    let reach = points
        .iter()
        .map(|p| p.abs().max_element())
        .fold(0.0, f32::max);
    let above =
        (4.0 * HULL_TOLERANCE as f32 + 2e-6) * (hi - lo).length() + 8.0 * f32::EPSILON * reach;
    prop_assert_eq!(
        poly.vertices().len() + poly.dropped_points().len(),
        points.len()
    );
    prop_assert_eq!(
        poly.vertices().len() + poly.face_count(),
        poly.edges().len() + 2
    );
    for v in poly.vertices() {
        prop_assert!(points.contains(v));
    }
    for f in 0..poly.face_count() {
        let face = poly.face(f);
        prop_assert!(face.vertices.len() >= 3);
        prop_assert!((face.normal.length() - 1.0).abs() < 1e-4);
        for p in points {
            prop_assert!(
                face.normal.dot(*p) - face.offset <= above,
                "point {} above face {} by {}",
                p,
                f,
                face.normal.dot(*p) - face.offset
            );
        }
    }
    for e in poly.edges() {
        prop_assert!(e.faces[0] != e.faces[1]);
    }
    // Hill climbing and the scan agree on every face normal direction, up to the face-merge
    // angle: a merged face is flat only within that angle, so its vertices may differ in
    // height by that much and a climb may stop on any.
    let merge = (FACE_MERGE_ANGLE_DEGREES as f32).to_radians().sin();
    for f in 0..poly.face_count() {
        let d = poly.face(f).normal;
        let (c, s) = (poly.support_climb(d), poly.support_scan(d));
        prop_assert!(
            (poly.vertex(c).dot(d) - poly.vertex(s).dot(d)).abs()
                <= 2.0 * merge * size + 1e-5 * size,
            "face {}: climb {} at {}, scan {} at {}, {} vertices",
            f,
            c,
            poly.vertex(c).dot(d),
            s,
            poly.vertex(s).dot(d),
            poly.vertices().len()
        );
    }
    Ok(())
}
