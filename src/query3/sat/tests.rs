use super::cuboid::CuboidPair;
use super::large::{EdgeFrames, EDGE_FRAME_CACHE};
use super::reference::{arcs_cross, crosses, oriented_axis, prefer, EdgeFrame};
use super::small::{self, place_small_frames, turn_all};
use super::support::is_small;
use super::*;
use crate::geom3::Pose3;
use crate::inline_vec::InlineVec;
use crate::query3::testing::*;

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
fn the_large_body_gauss_prefilter_rejects_only_pairs_the_exact_test_rejects() {
    // B beyond EDGE_FRAME_CACHE edges takes the local-frame prefilter. Every pair it
    // rejects must fail the work-frame Gauss-map test, on random hulls and poses. (That
    // untraced SAT, prefiltered, gives the exhaustive reference's answer is the agreement
    // harness's, `src/agreement.rs`.)
    let mut rng = Rng(0x0005_a73d);
    let mut rejected = 0u64;
    for round in 0..40 {
        let a = rng.hull(if round % 4 == 0 { 8 } else { 40 });
        let b = rng.hull(48);
        assert!(b.edges().len() > EDGE_FRAME_CACHE);
        for _ in 0..6 {
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
    // The prefilter does reject most pairs (otherwise it would be pointless).
    assert!(rejected > 100_000, "{rejected}");
}

#[test]
fn a_non_number_turn_takes_no_face_sign_walk() {
    // The face-sign walk of two small bodies (`table_edge_pairs`, past `TABLE_MIN_PAIRS`
    // edge pairs) reads the signs of B's face normals turned into A's frame: with a NaN in
    // B's rotation every sign is meaningless, and the walk must not run (it hands the edge
    // loop no pair). The same pair turned by a number walks.
    let mut rng = Rng(0xface_5167);
    let (a, b) = (rng.hull(20), rng.hull(32));
    let walked = |rotation: glam::Quat| {
        let pose_b = Pose3::new(Vec3::new(0.4, 0.3, -0.2), rotation);
        let pair = PolyPair::new(&a, &at(0., 0., 0.), &b, &pose_b);
        assert!(is_small(&pair.a) && is_small(&pair.b));
        let mut found = Vec::new();
        small::sat(&pair, &mut |i, j| found.push((i, j)));
        found.len()
    };
    assert!(walked(rng.rotation()) > 0);
    assert_eq!(walked(glam::Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)), 0);
}
