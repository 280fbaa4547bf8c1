use super::cuboid::CuboidPair;
use super::large::{EdgeFrames, EDGE_FRAME_CACHE};
use super::reference::{arcs_cross, crosses, oriented_axis, prefer, turned, EdgeFrame};
use super::small::{
    self, bounded, face_support_values, place_small_frames, place_small_frames_turned, turn_all,
    TABLE_MIN_PAIRS,
};
use super::support::{face_support_value, is_small, SMALL_BODY};
use super::*;
use crate::geom3::{Pose3, Shape3Kind};
use crate::inline_vec::InlineVec;
use crate::query3::testing::*;
use crate::query3::Placed3;

#[test]
fn gauss_map_skips_group_per_edge_of_a_and_everything_else_keeps_its_place() {
    let skip = |a, b, reason| Step::Skipped {
        edge_a: a,
        edge_b: b,
        reason,
    };
    let axis = Step::Axis(AxisTest {
        ordinal: 0,
        id: AxisId::Edges(0, 2),
        axis: Vec3::X,
        interval_a: Interval { min: 0.0, max: 1.0 },
        interval_b: Interval { min: 2.0, max: 3.0 },
        separation: 1.0,
    });
    let mut steps = vec![
        skip(0, 0, SkipReason::GaussMap),
        skip(0, 1, SkipReason::GaussMap),
        axis,
        skip(0, 3, SkipReason::GaussMap),
        skip(0, 4, SkipReason::Parallel),
        skip(1, 0, SkipReason::GaussMap),
    ];
    group_gauss_map_skips(&mut steps);
    assert_eq!(
        steps,
        [
            Step::GaussMapPruned {
                edge_a: 0,
                count: 3
            },
            axis,
            skip(0, 4, SkipReason::Parallel),
            Step::GaussMapPruned {
                edge_a: 1,
                count: 1
            },
        ]
    );
}

fn run(
    a: &crate::geom3::Polyhedron,
    pa: Pose3,
    b: &crate::geom3::Polyhedron,
    pb: Pose3,
) -> (Output, Vec<Step>) {
    let pair = PolyPair::new(a, &pa, b, &pb);
    let mut steps = Vec::new();
    let out = sat(&pair, &mut steps);
    assert_eq!(out, sat_test(&pair), "traced and untraced differ");
    (out, steps)
}

#[test]
fn slab_and_cube_face_axis_wins_and_the_tying_edge_pairs_are_pruned() {
    // The hand-checked case: normal (0, 1, 0), depth 0.1.
    let slab = cuboid(1.0, 0.5, 1.0);
    let cube = cuboid(0.5, 0.5, 0.5);
    let (out, steps) = run(&slab, at(0., 0., 0.), &cube, at(0., 0.9, 0.));
    assert!(out.intersecting);
    assert_eq!(out.status, Status::Overlapping);
    assert!(close(out.depth, 0.1, 1e-6), "{}", out.depth);
    assert_eq!(out.normal, Vec3::Y);
    let AxisId::FaceA(f) = out.axis else {
        panic!("{:?}", out.axis)
    };
    assert_eq!(slab.face_normal(f as usize), Vec3::Y);
    // Axis-aligned boxes: every edge pair is parallel or Gauss-pruned; 12 face axes.
    // The edge pairs whose cross product is (0, 1, 0) (an x edge of one box and a z edge
    // of the other, both at the contact) would tie with the face at 0.1; their Gauss
    // arcs only touch at an end (at (0, 1, 0)), not cross, so the strict test prunes
    // them before the face-over-edge rule is needed (that rule has its own test below).
    assert_eq!(out.axes_tested, 12);
    assert_eq!(out.axes_pruned, 144);
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
    assert_eq!(parallel, 48);
    // The face axis records both intervals: A [-0.5, 0.5], B [0.4, 1.4] on +y.
    let Some(Step::Axis(t)) = steps
        .iter()
        .find(|s| matches!(s, Step::Axis(t) if t.id == out.axis))
    else {
        panic!()
    };
    assert!(close(t.interval_a.min, -0.5, 1e-6) && close(t.interval_a.max, 0.5, 1e-6));
    assert!(close(t.interval_b.min, 0.4, 1e-6) && close(t.interval_b.max, 1.4, 1e-6));
}

#[test]
fn face_of_b_wins_when_b_has_the_shallow_face() {
    // A is a cube turned 45 degrees about z (a ridge along z on top), B an axis-aligned
    // cube resting 0.05 deep on that ridge. A's slanted faces overlap B by more than B's
    // bottom face does, so B's face axis wins: normal (0, 1, 0), depth 0.05.
    let a = cuboid(0.5, 0.5, 0.5);
    let b = cuboid(0.5, 0.5, 0.5);
    let ridge = 0.5 * 2f32.sqrt();
    let (out, _) = run(
        &a,
        at_deg(Vec3::ZERO, Vec3::new(0., 0., 45.)),
        &b,
        at(0., ridge + 0.5 - 0.05, 0.),
    );
    assert!(matches!(out.axis, AxisId::FaceB(_)), "{:?}", out.axis);
    assert!(close_v(out.normal, Vec3::Y, 1e-6));
    assert!(close(out.depth, 0.05, 1e-5), "{}", out.depth);
}

#[test]
fn crossed_edges_win_on_an_edge_axis() {
    // Two cubes each turned 45 degrees: A about z (ridge along z on top), B about x
    // (ridge along x underneath), B above: their ridges cross, the contact is edge-edge
    // with normal (0, 1, 0) and depth 0.02.
    let a = cuboid(0.5, 0.5, 0.5);
    let ridge = 0.5 * 2f32.sqrt();
    let (out, steps) = run(
        &a,
        at_deg(Vec3::ZERO, Vec3::new(0., 0., 45.)),
        &a,
        at_deg(Vec3::new(0., 2. * ridge - 0.02, 0.), Vec3::new(45., 0., 0.)),
    );
    assert!(matches!(out.axis, AxisId::Edges(..)), "{:?}", out.axis);
    assert!(close_v(out.normal, Vec3::Y, 1e-5), "{}", out.normal);
    assert!(close(out.depth, 0.02, 1e-5), "{}", out.depth);
    assert!(steps.iter().any(|s| matches!(
        s,
        Step::Skipped {
            reason: SkipReason::GaussMap,
            ..
        }
    )));
    // Gauss-map pruning keeps few of the 144 pairs.
    assert!(out.axes_tested - 12 < 20, "{}", out.axes_tested);
}

#[test]
fn separated_boxes_report_the_gap_on_a_face() {
    let a = cuboid(0.5, 0.5, 0.5);
    let (out, _) = run(&a, at(0., 0., 0.), &a, at(2.25, 0.3, 0.));
    assert!(!out.intersecting);
    assert_eq!(out.status, Status::Separated);
    assert!(close(out.separation, 1.25, 1e-6));
    assert_eq!(out.depth, 0.0);
    assert_eq!(out.normal, Vec3::X);
    let (out, _) = run(&a, at(0., 0., 0.), &a, at(1.0, 0.3, 0.));
    assert_eq!(out.status, Status::Touching);
    assert!(out.intersecting && out.depth == 0.0);
}

#[test]
fn far_from_the_origin_keeps_precision() {
    let slab = cuboid(1.0, 0.5, 1.0);
    let cube = cuboid(0.5, 0.5, 0.5);
    let base = Vec3::new(1.0e5, -1.0e5, 3.0e4);
    let (out, _) = run(
        &slab,
        at(base.x, base.y, base.z),
        &cube,
        at(base.x, base.y + 0.9, base.z),
    );
    assert!(close(out.depth, 0.1, 1e-2), "{}", out.depth);
    assert_eq!(out.normal, Vec3::Y);
}

#[test]
fn an_edge_axis_must_beat_the_face_by_the_preference_tolerance() {
    let best = |separation: f32, id: AxisId| Best {
        separation,
        axis: Vec3::Y,
        id,
    };
    let (fa, fb, e) = (AxisId::FaceA(1), AxisId::FaceB(2), AxisId::Edges(3, 4));
    let tol = 1e-4;
    // Ties, and wins by less than the tolerance, keep the face (A's before B's).
    assert_eq!(
        prefer(best(-0.1, fa), best(-0.1, fb), best(-0.1, e), tol).id,
        fa
    );
    assert_eq!(
        prefer(best(-0.1, fa), best(-0.3, fb), best(-0.09995, e), tol).id,
        fa
    );
    assert_eq!(
        prefer(best(-0.1, fa), best(-0.09995, fb), best(-0.2, e), tol).id,
        fa
    );
    // Clearly better axes win.
    assert_eq!(
        prefer(best(-0.1, fa), best(-0.05, fb), best(-0.2, e), tol).id,
        fb
    );
    assert_eq!(
        prefer(best(-0.1, fa), best(-0.3, fb), best(-0.0998, e), tol).id,
        e
    );
    assert_eq!(
        prefer(best(0.2, fa), best(0.1, fb), best(0.5, e), tol).id,
        e
    );
}

#[test]
fn bodies_beyond_the_edge_frame_cache_give_the_same_answer_swapped() {
    // A 200-point hull has far more than EDGE_FRAME_CACHE edges: as B it is placed edge
    // by edge, as A (the cube as B) from the cache. Swapping must only flip the normal.
    let points = (0..200)
        .map(|k| {
            let t = k as f32 + 0.5;
            let polar = (1.0 - t / 100.0).acos();
            let azimuth = t * 2.399_963;
            Vec3::new(
                1.1 * polar.sin() * azimuth.cos(),
                0.8 * polar.cos(),
                0.9 * polar.sin() * azimuth.sin(),
            )
        })
        .collect();
    let blob = crate::geom3::Polyhedron::new(&crate::geom3::Shape3Kind::Hull { points }).unwrap();
    assert!(blob.edges().len() > EDGE_FRAME_CACHE);
    let cube = cuboid(0.5, 0.5, 0.5);
    for (k, offset) in [
        Vec3::new(0.3, 1.1, 0.2),
        Vec3::new(1.2, 0.4, -0.5),
        Vec3::new(0.9, 0.9, 0.6),
    ]
    .into_iter()
    .enumerate()
    {
        let pose = at_deg(offset, Vec3::new(10. * k as f32, 35., -20.));
        let (s, _) = run(&cube, at(0., 0., 0.), &blob, pose);
        let (w, _) = run(&blob, pose, &cube, at(0., 0., 0.));
        assert_eq!(s.intersecting, w.intersecting);
        assert!(close(s.depth, w.depth, 1e-5) && close(s.separation, w.separation, 1e-5));
        assert!(
            close_v(s.normal, -w.normal, 1e-4),
            "{} vs {}",
            s.normal,
            w.normal
        );
    }
}

#[test]
fn nan_poses_do_not_panic() {
    let a = cuboid(0.5, 0.5, 0.5);
    let (out, _) = run(&a, at(0., 0., 0.), &a, at(f32::NAN, 0., 0.));
    assert_eq!(out.status, Status::NonFinite);
    assert!(!out.intersecting);
}

/// A regular `sides`-gon prism of radius `r` and half height `h`.
fn prism(sides: u32, r: f32, h: f32) -> crate::geom3::Polyhedron {
    crate::geom3::Polyhedron::new(&Shape3Kind::Prism {
        sides,
        radius: r,
        half_height: h,
    })
    .unwrap()
}

/// A small deterministic generator for the property tests below.
struct Rng(u64);

impl Rng {
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        crate::query3::testing::next_uniform(&mut self.0, lo, hi)
    }

    fn rotation(&mut self) -> glam::Quat {
        let q = glam::Quat::from_xyzw(
            self.f(-1., 1.),
            self.f(-1., 1.),
            self.f(-1., 1.),
            self.f(-1., 1.),
        );
        if q.length_squared() < 1e-3 {
            glam::Quat::IDENTITY
        } else {
            q.normalize()
        }
    }

    fn hull(&mut self, n: usize) -> crate::geom3::Polyhedron {
        let (rx, ry, rz) = (self.f(0.3, 2.0), self.f(0.3, 2.0), self.f(0.3, 2.0));
        let points = (0..n)
            .map(|_| {
                let d = Vec3::new(self.f(-1., 1.), self.f(-1., 1.), self.f(-1., 1.))
                    .normalize_or(Vec3::Y);
                Vec3::new(d.x * rx, d.y * ry, d.z * rz)
            })
            .collect();
        crate::geom3::Polyhedron::new(&crate::geom3::Shape3Kind::Hull { points }).unwrap()
    }
}

#[test]
fn a_cuboids_face_support_value_equals_the_vertex_scan_bit_for_bit() {
    let mut rng = Rng(0xb0c5);
    for _ in 0..200 {
        let h = Vec3::new(rng.f(0.01, 3.0), rng.f(0.01, 3.0), rng.f(0.01, 3.0));
        let shape = cuboid(h.x, h.y, h.z);
        for v in shape.vertices() {
            assert_eq!(v.abs(), h, "a cuboid's vertices are (+-x, +-y, +-z)");
        }
        let pose = Pose3::new(
            Vec3::new(rng.f(-1e3, 1e3), rng.f(-1e3, 1e3), rng.f(-1e3, 1e3)),
            rng.rotation(),
        );
        let placed = Placed3::new(&shape, &pose, Vec3::new(3.0, -2.0, 1.0));
        for _ in 0..50 {
            let dir =
                Vec3::new(rng.f(-1., 1.), rng.f(-1., 1.), rng.f(-1., 1.)).normalize_or(Vec3::Y);
            for d in [dir, Vec3::X, -Vec3::Z, pose.rotation * Vec3::Y] {
                assert_eq!(
                    face_support_value(&placed, d, placed.rotation.inverse() * d, &mut 0).to_bits(),
                    placed.support_value(d).to_bits()
                );
            }
        }
    }
}

#[test]
fn the_batched_face_support_values_equal_face_support_value_bit_for_bit() {
    // The face loops of two small bodies take `face_support_values` (four normals at a
    // time against every vertex); it must give `face_support_value`'s bits, on hulls,
    // prisms and boxes, with random normals and tied ones (axis-aligned, a face's own
    // normal, zero and NaN directions: the fallback lanes).
    let mut rng = Rng(0xfa5e_7095);
    for round in 0..120 {
        let body = match round % 5 {
            0 => cuboid(rng.f(0.1, 2.0), rng.f(0.1, 2.0), rng.f(0.1, 2.0)),
            1 => crate::geom3::Polyhedron::new(&Shape3Kind::Prism {
                sides: 3 + round as u32 % 9,
                radius: rng.f(0.2, 2.0),
                half_height: rng.f(0.1, 2.0),
            })
            .unwrap(),
            2 => rng.hull(4 + round % 9),
            3 => rng.hull(20),
            _ => rng.hull(32),
        };
        let pose = Pose3::new(
            Vec3::new(rng.f(-50., 50.), rng.f(-50., 50.), rng.f(-50., 50.)),
            if round % 4 == 0 {
                glam::Quat::IDENTITY
            } else {
                rng.rotation()
            },
        );
        let placed = Placed3::new(&body, &pose, Vec3::new(1.0, -2.0, 0.5));
        assert!(is_small(&placed));
        let mut normals: Vec<Vec3> = (0..body.face_count().min(40))
            .map(|_| {
                Vec3::new(rng.f(-1., 1.), rng.f(-1., 1.), rng.f(-1., 1.)).normalize_or(Vec3::Y)
            })
            .collect();
        normals.extend([Vec3::X, -Vec3::Y, Vec3::Z, Vec3::ZERO, Vec3::NAN]);
        normals.extend((0..body.face_count().min(19)).map(|f| placed.face_normal(f)));
        normals.truncate(SMALL_BODY);
        let mut batched = [0.0f32; SMALL_BODY];
        face_support_values(&placed, &placed.frame_inverse, &normals, &mut batched);
        let mut start = 0;
        for (k, n) in normals.iter().enumerate() {
            let one =
                face_support_value(&placed, -*n, turned(&placed.frame_inverse, -*n), &mut start);
            assert_eq!(
                batched[k].to_bits(),
                one.to_bits(),
                "round {round} normal {k}: {n}"
            );
        }
    }
}

#[test]
fn the_small_body_pair_loop_equals_the_exhaustive_loop() {
    // Untraced SAT on small bodies takes `small_edge_pairs` (vectorised Gauss-map test,
    // then only the crossing pairs); traced SAT takes the reference's per-pair loop. The
    // outputs (best axis, separation bits, axes_tested, axes_pruned) must be equal on
    // random hulls, boxes and poses, including boxes resting face to face (near-ties
    // between face and edge axes) and the same body against itself.
    let mut rng = Rng(0x5a11_b0d7);
    let mut compared = 0;
    for round in 0..60 {
        let a = match round % 3 {
            0 => cuboid(rng.f(0.2, 1.0), rng.f(0.2, 1.0), rng.f(0.2, 1.0)),
            1 => rng.hull(8),
            _ => rng.hull(20),
        };
        let b = match round % 4 {
            0 => cuboid(rng.f(0.2, 1.0), rng.f(0.2, 1.0), rng.f(0.2, 1.0)),
            1 => rng.hull(12),
            2 => rng.hull(18),
            _ => a.clone(),
        };
        let placed = PolyPair::new(&a, &at(0., 0., 0.), &b, &at(0., 0., 0.));
        assert!(is_small(&placed.a) && is_small(&placed.b));
        for k in 0..60 {
            let pose_a = Pose3::new(
                Vec3::new(rng.f(-5., 5.), rng.f(-5., 5.), rng.f(-5., 5.)),
                rng.rotation(),
            );
            let pose_b = if k % 6 == 0 {
                // Axis-aligned and resting on top, shifted sideways: ties galore.
                let lift = a.bounding_radius().min(b.bounding_radius()) * rng.f(0.5, 1.5);
                Pose3::new(
                    pose_a.position + Vec3::new(rng.f(-0.3, 0.3), lift, 0.0),
                    pose_a.rotation,
                )
            } else {
                let reach = a.bounding_radius() + b.bounding_radius();
                let dir =
                    Vec3::new(rng.f(-1., 1.), rng.f(-1., 1.), rng.f(-1., 1.)).normalize_or(Vec3::X);
                Pose3::new(
                    pose_a.position + dir * reach * rng.f(0.1, 1.1),
                    rng.rotation(),
                )
            };
            let pair = PolyPair::new(&a, &pose_a, &b, &pose_b);
            let untraced = sat_test(&pair);
            let traced = sat(&pair, &mut Vec::new());
            assert_eq!(untraced, traced, "round {round} pose {k}");
            assert_eq!(
                untraced.separation.to_bits(),
                traced.separation.to_bits(),
                "round {round} pose {k}"
            );
            assert_eq!(untraced.depth.to_bits(), traced.depth.to_bits());
            compared += 1;
        }
    }
    assert_eq!(compared, 3600);
}

/// Random box-box poses with the ties the closed form must hand to the exact test:
/// axis-aligned, turned about one axis only, turned by multiples of 90 degrees, resting
/// face to face or exactly touching, and equal boxes.
fn box_pose(rng: &mut Rng, k: usize, a: &crate::geom3::Polyhedron) -> (Pose3, Pose3) {
    let pose_a = Pose3::new(
        Vec3::new(rng.f(-5., 5.), rng.f(-5., 5.), rng.f(-5., 5.)),
        if k.is_multiple_of(5) {
            glam::Quat::IDENTITY
        } else {
            rng.rotation()
        },
    );
    let quarter = |n: f32| n.round() * std::f32::consts::FRAC_PI_2;
    let turn = match k % 7 {
        0 => glam::Quat::IDENTITY,
        1 => glam::Quat::from_rotation_y(rng.f(-3.2, 3.2)),
        2 => glam::Quat::from_rotation_x(quarter(rng.f(-2., 2.))),
        3 => glam::Quat::from_euler(
            glam::EulerRot::XYZ,
            quarter(rng.f(-2., 2.)),
            quarter(rng.f(-2., 2.)),
            rng.f(-0.01, 0.01),
        ),
        4 => glam::Quat::from_rotation_z(1e-6 * rng.f(-1., 1.)),
        _ => rng.rotation(),
    };
    let reach = a.bounding_radius() * 2.5;
    let offset = match k % 3 {
        // Resting on top (touching when the lift is the sum of the half heights).
        0 => pose_a.rotation * Vec3::new(rng.f(-0.3, 0.3), rng.f(0.5, 2.0), 0.0),
        _ => Vec3::new(rng.f(-1., 1.), rng.f(-1., 1.), rng.f(-1., 1.)) * reach,
    };
    (
        pose_a,
        Pose3::new(pose_a.position + offset, pose_a.rotation * turn),
    )
}

#[test]
fn the_side_table_search_equals_the_lane_loop_on_tied_poses() {
    // Untraced small bodies with many edge pairs take `table_edge_pairs`, traced ones the
    // reference's loop. On prisms and hulls posed with the ties of `box_pose` (aligned,
    // quarter turns, 1e-6 turns, resting on top, a body against itself), where side
    // values are zero or tiny, the outputs must be equal bit for bit.
    let mut rng = Rng(0x51de_7ab1);
    let mut compared = 0;
    for round in 0..40 {
        let a = match round % 4 {
            0 => prism(3 + round as u32 % 6, rng.f(0.3, 1.0), rng.f(0.2, 1.0)),
            1 => rng.hull(10),
            2 => rng.hull(30),
            _ => prism(4, 0.7, 0.5),
        };
        let b = match round % 5 {
            0 => a.clone(),
            1 => prism(3 + round as u32 % 9, rng.f(0.3, 1.0), rng.f(0.2, 1.0)),
            2 => rng.hull(16),
            3 => cuboid(rng.f(0.2, 1.0), rng.f(0.2, 1.0), rng.f(0.2, 1.0)),
            _ => rng.hull(32),
        };
        for k in 0..100 {
            let (pose_a, pose_b) = box_pose(&mut rng, k, &a);
            let pair = PolyPair::new(&a, &pose_a, &b, &pose_b);
            if !(is_small(&pair.a) && is_small(&pair.b)) {
                continue;
            }
            let untraced = sat_test(&pair);
            let traced = sat(&pair, &mut Vec::new());
            assert_eq!(untraced, traced, "round {round} pose {k}");
            assert_eq!(untraced.separation.to_bits(), traced.separation.to_bits());
            assert_eq!(untraced.depth.to_bits(), traced.depth.to_bits());
            compared += 1;
        }
    }
    assert!(compared > 3_000, "{compared}");
}

#[test]
fn the_face_sign_walk_finds_exactly_the_pairs_arcs_cross_finds() {
    // `table_edge_pairs` takes B's faces against each edge of A's plane and turns their
    // sign bits into B's edges through `face_edges` (one word of edges, or two beyond 64
    // edges). For every edge pair of every case it must hand `crossing_axes` exactly the
    // pairs `arcs_cross` passes on the frames the lane loop uses, in the exhaustive
    // order. Cases: hulls of 8 to 32 points (the 32-point ones have more than 64 edges),
    // prisms and boxes against hulls, a body against itself, at scales 1, 1e-3 and 1e3,
    // posed with `box_pose`'s ties (aligned, quarter turns, 1e-6 turns, resting on top)
    // or at random; a NaN position every 97th case (the walk runs: the normals are
    // finite) and a NaN rotation after it (the walk must not run).
    let mut rng = Rng(0xface_5167);
    let scaled = |body: &crate::geom3::Polyhedron, s: f32| {
        let points = body.vertices().iter().map(|v| *v * s).collect();
        crate::geom3::Polyhedron::new(&Shape3Kind::Hull { points }).unwrap()
    };
    let (mut walks, mut wide, mut pairs, mut crossing) = (0u32, 0u32, 0u64, 0u64);
    for round in 0..90u32 {
        let a = match round % 5 {
            0 => rng.hull(12),
            1 => rng.hull(32),
            2 => prism(3 + round % 7, rng.f(0.3, 1.0), rng.f(0.2, 1.0)),
            3 => rng.hull(8),
            _ => rng.hull(20),
        };
        let b = match round % 6 {
            0 => a.clone(),
            1 => rng.hull(32),
            2 => cuboid(rng.f(0.2, 1.0), rng.f(0.2, 1.0), rng.f(0.2, 1.0)),
            3 => prism(4 + round % 5, rng.f(0.3, 1.0), rng.f(0.2, 1.0)),
            _ => rng.hull(12 + round as usize % 9),
        };
        let scale = [1.0, 1e-3, 1e3][(round / 6 % 3) as usize];
        let (a, b) = if scale == 1.0 {
            (a, b)
        } else {
            (scaled(&a, scale), scaled(&b, scale))
        };
        for k in 0..60usize {
            let (mut pose_a, mut pose_b) = if k.is_multiple_of(2) {
                box_pose(&mut rng, k, &a)
            } else {
                let pose_a = Pose3::new(Vec3::ZERO, rng.rotation());
                let reach = (a.bounding_radius() + b.bounding_radius()) * 0.6;
                let dir = Vec3::new(rng.f(-1., 1.), rng.f(-1., 1.), rng.f(-1., 1.));
                (pose_a, Pose3::new(dir * reach, rng.rotation()))
            };
            if scale != 1.0 {
                pose_a.position *= scale;
                pose_b.position *= scale;
            }
            let case = round as usize * 60 + k;
            if case.is_multiple_of(97) {
                pose_b.position.x = f32::NAN;
            } else if case % 97 == 1 {
                pose_b.rotation = glam::Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0);
            }
            let pair = PolyPair::new(&a, &pose_a, &b, &pose_b);
            if !(is_small(&pair.a) && is_small(&pair.b)) || CuboidPair::new(&pair).is_some() {
                continue;
            }
            // The frames and normals as `sat` and `small_edge_pairs` place them.
            let normals = |body: &Placed3| {
                (0..body.shape.face_count())
                    .map(|f| turned(&body.frame, body.shape.face_normal(f)))
                    .collect::<Vec<_>>()
            };
            let (normals_a, normals_b) = (normals(&pair.a), normals(&pair.b));
            let (mut frames_a, mut frames_b) = (InlineVec::new(), InlineVec::new());
            place_small_frames_turned(&pair.a, &normals_a, &mut frames_a);
            place_small_frames_turned(&pair.b, &normals_b, &mut frames_b);
            let (frames_a, frames_b) = (frames_a.as_slice(), frames_b.as_slice());
            let mut expected = Vec::new();
            for (i, fa) in frames_a.iter().enumerate() {
                for (j, fb) in frames_b.iter().enumerate() {
                    if arcs_cross(fa.n0, fa.n1, fa.arc, -fb.n0, -fb.n1, fb.arc) {
                        expected.push((i as u32, j as u32));
                    }
                }
            }
            let mut found = Vec::new();
            let untraced = small::sat(&pair, &mut |i, j| found.push((i, j)));
            assert_eq!(format!("{untraced:?}"), format!("{:?}", sat_test(&pair)));
            let walked = frames_a.len() * frames_b.len() > TABLE_MIN_PAIRS
                && bounded(&normals_a)
                && bounded(&normals_b);
            if case % 97 == 1 {
                assert!(
                    !walked && found.is_empty(),
                    "case {case}: a NaN turn walked"
                );
                continue;
            }
            if !walked {
                continue;
            }
            assert_eq!(found, expected, "case {case} round {round} pose {k}");
            // And the whole answer is the lane loop's (traced), bit for bit (NaNs too:
            // compared as printed).
            let traced = sat(&pair, &mut Vec::new());
            assert_eq!(
                format!("{untraced:?}"),
                format!("{traced:?}"),
                "case {case}"
            );
            assert_eq!(untraced.separation.to_bits(), traced.separation.to_bits());
            assert_eq!(untraced.depth.to_bits(), traced.depth.to_bits());
            walks += 1;
            wide += u32::from(frames_b.len() > 64);
            pairs += (frames_a.len() * frames_b.len()) as u64;
            crossing += expected.len() as u64;
        }
    }
    assert!(
        walks > 3_000 && wide > 500,
        "{walks} walks, {wide} with two words"
    );
    assert!(
        pairs > 2_000_000 && crossing > 50_000,
        "{pairs} pairs, {crossing}"
    );
}

#[test]
fn turn_all_equals_glams_quaternion_product_bit_for_bit() {
    let mut rng = Rng(0x7a11);
    let mut vectors: Vec<Vec3> = (0..200)
        .map(|_| Vec3::new(rng.f(-3., 3.), rng.f(-3., 3.), rng.f(-3., 3.)))
        .collect();
    vectors.extend([
        Vec3::ZERO,
        -Vec3::ZERO,
        Vec3::X,
        -Vec3::Y,
        Vec3::Z,
        Vec3::NAN,
    ]);
    vectors.push(Vec3::new(-0.0, 1e-30, -1e30));
    let mut rotations: Vec<glam::Quat> = (0..200).map(|_| rng.rotation()).collect();
    rotations.extend([
        glam::Quat::IDENTITY,
        glam::Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        glam::Quat::from_xyzw(0.0, -0.0, 0.0, -1.0),
    ]);
    // SAT's face loops turn normals into a body's frame with the inverse rotations.
    let inverses: Vec<glam::Quat> = rotations.iter().map(|q| q.inverse()).collect();
    rotations.extend(inverses);
    for q in rotations {
        let mut out = vec![Vec3::ZERO; vectors.len()];
        turn_all(q, &mut out, |i| vectors[i]);
        for (v, o) in vectors.iter().zip(&out) {
            assert_eq!(
                o.to_array().map(f32::to_bits),
                (q * *v).to_array().map(f32::to_bits),
                "{q} {v}"
            );
        }
    }
}

/// Two random cuboids, the same one every fourth round (equal boxes tie everywhere).
fn random_cuboids(
    rng: &mut Rng,
    round: u32,
) -> (crate::geom3::Polyhedron, crate::geom3::Polyhedron) {
    let a = cuboid(rng.f(0.2, 1.0), rng.f(0.2, 1.0), rng.f(0.2, 1.0));
    let b = if round.is_multiple_of(4) {
        a.clone()
    } else {
        cuboid(rng.f(0.2, 1.0), rng.f(0.2, 1.0), rng.f(0.2, 1.0))
    };
    (a, b)
}

#[test]
fn the_cuboid_closed_form_edge_axes_equal_the_exhaustive_loop_within_their_bound() {
    // For every direction pair the closed form is sure of: its two crossing pairs are
    // exactly the pairs of that direction pair `arcs_cross` passes on the placed edges,
    // both pass the parallel test, and the loop's separations (placed vertices) are
    // within the closed form's bound, by a wide margin.
    let mut rng = Rng(0xc0b0_1d5e);
    let (mut sure, mut open, mut worst) = (0u32, 0u32, 0.0f32);
    for round in 0..40u32 {
        let (a, b) = random_cuboids(&mut rng, round);
        let (ea, eb) = (a.cuboid_edges().unwrap(), b.cuboid_edges().unwrap());
        for k in 0..100 {
            let (pose_a, pose_b) = box_pose(&mut rng, k, &a);
            let pair = PolyPair::new(&a, &pose_a, &b, &pose_b);
            let boxes = CuboidPair::new(&pair).unwrap();
            let groups = boxes.edge_groups(&pair);
            let (mut fa, mut fb) = (InlineVec::new(), InlineVec::new());
            place_small_frames(&pair.a, &mut fa);
            place_small_frames(&pair.b, &mut fb);
            let centroid_a = pair.a.centroid();
            for g in (0..12).filter(|g| g % 4 != 3) {
                let (dk, dl) = (g / 4, g % 4);
                if groups.sure & (1 << g) == 0 {
                    open += 1;
                    continue;
                }
                sure += 1;
                let mut crossing = Vec::new();
                for &i in &ea[dk] {
                    for &j in &eb[dl] {
                        let (x, y) = (&fa.as_slice()[i as usize], &fb.as_slice()[j as usize]);
                        if arcs_cross(x.n0, x.n1, x.arc, -y.n0, -y.n1, y.arc) {
                            crossing.push((i, j));
                        }
                    }
                }
                let pairs = boxes.crossing_pairs(dk, dl, ea, eb);
                let mut expected = pairs.to_vec();
                expected.sort();
                crossing.sort();
                assert_eq!(crossing, expected, "round {round} pose {k} group {g}");
                let closed = [groups.plus[dk], groups.minus[dk]].map(|v| v.to_array()[dl]);
                for ((i, j), approx) in pairs.into_iter().zip(closed) {
                    let (x, y) = (&fa.as_slice()[i as usize], &fb.as_slice()[j as usize]);
                    let cross = x.dir.cross(y.dir);
                    assert!(crosses(x, y, cross), "round {round} pose {k} ({i}, {j})");
                    let (_, separation) = oriented_axis(x, y, cross, centroid_a);
                    let ratio = (separation - approx).abs() / groups.bound[dk].to_array()[dl];
                    assert!(ratio < 1.0, "round {round} pose {k} ({i}, {j}): {ratio}");
                    worst = worst.max(ratio);
                }
            }
        }
    }
    // Most direction pairs are decided in closed form; the bound is far from tight.
    assert!(sure > 8_000 && open > 2_000, "{sure} sure, {open} open");
    eprintln!("closed-form edge axes: {sure} sure, {open} open, worst {worst}");
    assert!(worst < 0.05, "closest to the bound: {worst}");
}

#[test]
fn a_cuboids_face_separations_by_normal_equal_the_references_bit_for_bit() {
    // `CuboidPair::face_axes` reads each face's separation off the table of its exact
    // normal; the reference records the dot products they stand for
    // (`CuboidPair::face_separation_a` and `_b`): the same bits, zeros included.
    let mut rng = Rng(0xfa_ce5);
    for round in 0..40u32 {
        let (a, b) = random_cuboids(&mut rng, round);
        assert!(a.cuboid_faces().is_some() && b.cuboid_faces().is_some());
        for k in 0..100 {
            let (pose_a, pose_b) = box_pose(&mut rng, k, &a);
            let pair = PolyPair::new(&a, &pose_a, &b, &pose_b);
            let boxes = CuboidPair::new(&pair).unwrap();
            let mut tabled = Vec::new();
            boxes.face_axes(&pair, &mut 0, |id, separation| {
                tabled.push((id, separation))
            });
            let mut steps = Vec::new();
            sat(&pair, &mut steps);
            let recorded = steps.iter().filter_map(|step| match step {
                Step::Axis(t) if t.id.is_face() => Some((t.id, t.separation)),
                _ => None,
            });
            let recorded: Vec<_> = recorded.collect();
            assert_eq!(tabled.len(), 12);
            assert_eq!(recorded.len(), 12);
            for ((id, separation), (recorded_id, expected)) in tabled.into_iter().zip(recorded) {
                assert_eq!(id, recorded_id);
                assert_eq!(separation.to_bits(), expected.to_bits(), "{id:?}");
            }
        }
    }
}

#[test]
fn untraced_cuboid_sat_equals_traced_sat_ties_included() {
    // Untraced SAT on two cuboids takes the closed-form edge axes (only the pairs that
    // may win by the rounding bound are computed on placed vertices); traced SAT the
    // reference's pair loop. Same axis, same bits, same counts, on 8,000 poses: tied ones
    // (see `box_pose`), deep overlaps, a 100:1 size ratio and bodies near 1e4.
    let mut edge_wins = 0;
    for_each_tied_cuboid_pair(0x0b0c_5a75, |round, k, pair| {
        let untraced = sat_test(pair);
        let traced = sat(pair, &mut Vec::new());
        assert_eq!(untraced, traced, "round {round} pose {k}");
        assert_eq!(untraced.separation.to_bits(), traced.separation.to_bits());
        assert_eq!(untraced.depth.to_bits(), traced.depth.to_bits());
        assert_eq!(
            untraced.normal.to_array().map(f32::to_bits),
            traced.normal.to_array().map(f32::to_bits)
        );
        edge_wins += matches!(untraced.axis, AxisId::Edges(..)) as u32;
    });
    assert!(edge_wins > 500, "{edge_wins} edge wins");
}

/// The tied cuboid pairs of the bit-for-bit tests, 8,000 from `seed`: 80 rounds of two
/// random cuboids (from round 40, every fourth a 100:1 slab against a small box), 100
/// poses each from `box_pose`'s ties, odd poses with B pulled in toward A (deeper
/// overlaps, edge axes that win), and from round 60 both bodies near 1e4.
fn for_each_tied_cuboid_pair(seed: u64, mut visit: impl FnMut(u32, usize, &PolyPair)) {
    let mut rng = Rng(seed);
    for round in 0..80u32 {
        let (a, b) = match round % 4 {
            3 if round >= 40 => (cuboid(50.0, 0.5, 50.0), cuboid(0.3, 0.4, 0.5)),
            _ => random_cuboids(&mut rng, round),
        };
        for k in 0..100 {
            let (mut pose_a, mut pose_b) = box_pose(&mut rng, k, &a);
            if k % 2 == 1 {
                let pull = rng.f(0.0, 0.9);
                pose_b.position = pose_a.position + (pose_b.position - pose_a.position) * pull;
            }
            if round >= 60 {
                let far = Vec3::new(1.0e4, -2.0e4, 3.0e4);
                (pose_a.position, pose_b.position) = (pose_a.position + far, pose_b.position + far);
            }
            visit(round, k, &PolyPair::new(&a, &pose_a, &b, &pose_b));
        }
    }
}

#[test]
fn the_manifold_after_sat_equals_the_searched_manifold_on_cuboids() {
    // `contact_manifold_after_sat` takes SAT's winning face of two cuboids as that
    // body's supporting feature instead of searching for it: the same output, bit for
    // bit (features, case, reference, clipped count, points, depths and ids), on poses
    // full of ties (aligned, resting, quarter turns, equal boxes) and deep overlaps;
    // traced (`manifold_after_sat`), the same recorded steps as the searching `manifold`.
    use crate::query3::manifold::{
        contact_manifold, contact_manifold_after_sat, manifold, manifold_after_sat,
    };
    let mut rng = Rng(0x3a1f_0b0c);
    let (mut faces, mut others) = (0, 0);
    for round in 0..40u32 {
        let (a, b) = random_cuboids(&mut rng, round);
        for k in 0..150 {
            let (pose_a, mut pose_b) = box_pose(&mut rng, k, &a);
            if k % 2 == 1 {
                // Pull B in toward A: deeper overlaps.
                let pull = rng.f(0.0, 0.9);
                pose_b.position = pose_a.position + (pose_b.position - pose_a.position) * pull;
            }
            let pair = PolyPair::new(&a, &pose_a, &b, &pose_b);
            let sat = sat_test(&pair);
            if !sat.intersecting {
                continue;
            }
            let searched = contact_manifold(&pair, sat.normal);
            let handed = contact_manifold_after_sat(&pair, &sat);
            assert_eq!(
                handed, searched,
                "round {round} pose {k} axis {:?}",
                sat.axis
            );
            let (mut searched_steps, mut handed_steps) = (Vec::new(), Vec::new());
            let searched_traced = manifold(&pair, sat.normal, &mut searched_steps);
            let handed_traced = manifold_after_sat(&pair, &sat, &mut handed_steps);
            assert_eq!(handed_traced, searched_traced, "round {round} pose {k}");
            assert_eq!(handed_traced, handed, "round {round} pose {k}");
            assert_eq!(
                format!("{handed_steps:?}"),
                format!("{searched_steps:?}"),
                "round {round} pose {k}: the recorded steps"
            );
            for (p, q) in handed.points.iter().zip(searched.points.iter()) {
                assert_eq!(p.depth.to_bits(), q.depth.to_bits());
                assert_eq!(
                    p.point.to_array().map(f32::to_bits),
                    q.point.to_array().map(f32::to_bits)
                );
            }
            if sat.axis.is_face() {
                faces += 1;
            } else {
                others += 1;
            }
        }
    }
    assert!(
        faces > 1000 && others > 100,
        "{faces} face wins, {others} edge wins"
    );
}

#[test]
fn the_large_body_gauss_prefilter_rejects_only_pairs_the_exact_test_rejects() {
    // B beyond EDGE_FRAME_CACHE edges takes the local-frame prefilter. Every pair it
    // rejects must fail the work-frame Gauss-map test, on random hulls and poses, and
    // untraced SAT (prefiltered) must equal traced SAT (exhaustive) bit for bit.
    let mut rng = Rng(0x0005_a73d);
    let mut rejected = 0u64;
    let mut compared = 0;
    for round in 0..40 {
        let a = rng.hull(if round % 4 == 0 { 8 } else { 40 });
        let b = rng.hull(48);
        assert!(b.edges().len() > EDGE_FRAME_CACHE);
        for k in 0..60 {
            let pose_a = Pose3::new(
                Vec3::new(rng.f(-5., 5.), rng.f(-5., 5.), rng.f(-5., 5.)),
                rng.rotation(),
            );
            let reach = a.bounding_radius() + b.bounding_radius();
            let dir =
                Vec3::new(rng.f(-1., 1.), rng.f(-1., 1.), rng.f(-1., 1.)).normalize_or(Vec3::X);
            let pose_b = Pose3::new(
                pose_a.position + dir * reach * rng.f(0.2, 1.1),
                rng.rotation(),
            );
            let pair = PolyPair::new(&a, &pose_a, &b, &pose_b);
            let mut steps = Vec::new();
            assert_eq!(
                sat_test(&pair),
                sat(&pair, &mut steps),
                "round {round} pose {k}"
            );
            compared += 1;
            if k % 10 != 0 {
                continue;
            }
            let frames_b = EdgeFrames::new(&pair.b);
            let centroid_a = pair.a.centroid();
            for ea in a.edges() {
                let frame_a = EdgeFrame::new(&pair.a, ea);
                let local = frames_b.local_arc(&frame_a).expect("B is not cached");
                for (j, eb) in b.edges().iter().enumerate() {
                    if frames_b.surely_apart(&local, j) {
                        rejected += 1;
                        let frame_b = EdgeFrame::new(&pair.b, eb);
                        assert_eq!(
                            edge_pair_axis(&frame_a, &frame_b, centroid_a, false),
                            Err(SkipReason::GaussMap)
                        );
                    }
                }
            }
        }
    }
    assert_eq!(compared, 2400);
    // The prefilter does reject most pairs (otherwise it would be pointless).
    assert!(rejected > 100_000, "{rejected}");
}

#[test]
fn the_arc_tree_search_equals_the_exhaustive_loop_on_tied_poses() {
    // Untraced SAT asks the larger body's arc tree for candidate pairs; traced SAT visits
    // every pair. Symmetric prisms at equal or quarter-turned rotations put arcs exactly
    // on top of each other (ties decided by rounding), the worst case for a filter.
    let prism = |sides: u32| {
        crate::geom3::Polyhedron::new(&crate::geom3::Shape3Kind::Prism {
            sides,
            radius: 1.0,
            half_height: 0.7,
        })
        .unwrap()
    };
    let mut rng = Rng(0x0a2c_7ee5);
    let bodies = [prism(40), prism(33), rng.hull(60), cuboid(0.5, 0.8, 0.3)];
    let mut compared = 0;
    for a in &bodies {
        for b in &bodies {
            if a.edges().len().max(b.edges().len()) <= EDGE_FRAME_CACHE {
                continue;
            }
            for k in 0..40 {
                let turn = match k % 4 {
                    0 => glam::Quat::IDENTITY,
                    1 => glam::Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
                    2 => glam::Quat::from_rotation_z(std::f32::consts::PI),
                    _ => rng.rotation(),
                };
                let wobble = if k % 8 < 4 { 0.0 } else { 1.0e-6 };
                let rotation = (turn * glam::Quat::from_rotation_x(wobble)).normalize();
                let offset = match k % 5 {
                    0 => Vec3::new(0.0, 1.4, 0.0),
                    1 => Vec3::new(2.0, 0.0, 0.0),
                    2 => Vec3::ZERO,
                    _ => Vec3::new(rng.f(-2., 2.), rng.f(-2., 2.), rng.f(-2., 2.)),
                };
                let pose_a = Pose3::new(Vec3::new(3.0, -1.0, 2.0), glam::Quat::IDENTITY);
                let pose_b = Pose3::new(pose_a.position + offset, rotation);
                let pair = PolyPair::new(a, &pose_a, b, &pose_b);
                let mut steps = Vec::new();
                assert_eq!(sat_test(&pair), sat(&pair, &mut steps), "pose {k}");
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 15 * 40);
}
