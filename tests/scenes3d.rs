//! Every scene in `scenes/3d/` is a regression test: it loads, its hand-derived
//! expectations hold, and it is readable (title, notes, an expectation). A few scenes pin
//! more than an `expect` block can say (the clip count, the winning axis kind, the points),
//! and the loaders keep 2D and 3D files apart with clear messages.

use collision_lab::query3::pair::query_pair3;
use collision_lab::query3::sat::AxisId;
use collision_lab::scene::{
    load_scene3_file, load_scene_file, parse_any_scene, parse_scene, parse_scene3, scene_files,
    settings_for_scene3, LoadedScene, Scene3, SceneBody3, TWO_D_ONLY,
};
use glam::Vec3;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::scene_runs::expectation_failures;

fn scene_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join("3d")
}

fn all_scenes() -> Vec<PathBuf> {
    let files = scene_files(&[scene_dir()]).expect("scenes/3d can be listed");
    assert!(
        files.len() >= 14,
        "expected at least 14 3D scenes, found {}",
        files.len()
    );
    files
}

fn load(name: &str) -> (Scene3, Vec<SceneBody3>) {
    load_scene3_file(&scene_dir().join(name)).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_expectation_in_3d_scenes_holds() {
    let (failures, checked) = expectation_failures(&all_scenes());
    assert!(
        failures.is_empty(),
        "{} of {checked} expectations failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked >= 16);
}

#[test]
fn every_3d_scene_has_a_title_notes_and_an_expectation() {
    for path in all_scenes() {
        let (scene, _) = load_scene3_file(&path).unwrap_or_else(|e| panic!("{e}"));
        let name = path.display();
        assert!(
            scene.title.as_deref().is_some_and(|t| !t.trim().is_empty()),
            "{name}: no title"
        );
        let notes = scene.notes.as_deref().unwrap_or("");
        assert!(
            notes.starts_with("Hand-derived:") || name.to_string().ends_with("welcome.ron"),
            "{name}: notes should say how the expectations were derived"
        );
        assert!(
            notes.matches(". ").count() >= 1 && notes.ends_with('.'),
            "{name}: notes should be a few sentences"
        );
        assert!(!scene.expect.is_empty(), "{name}: no expectations");
        assert!(scene.view.is_some(), "{name}: no camera");
    }
}

/// The four feature pairs of the seeds are each covered by a scene.
#[test]
fn the_scenes_cover_every_feature_pair_and_both_sweep_outcomes() {
    let mut features = Vec::new();
    let (mut hits, mut misses) = (0, 0);
    for path in all_scenes() {
        let (scene, _) = load_scene3_file(&path).unwrap();
        for e in &scene.expect {
            features.extend(e.feature.clone());
            match e.hit {
                Some(true) => hits += 1,
                Some(false) => misses += 1,
                None => {}
            }
        }
    }
    for f in ["vertex_face", "edge_edge", "edge_face", "face_face"] {
        assert!(features.iter().any(|x| x == f), "no scene expects {f}");
    }
    assert!(hits >= 2 && misses >= 1);
}

fn query(
    scene: &Scene3,
    bodies: &[SceneBody3],
    a: usize,
    b: usize,
) -> collision_lab::query3::pair::PairQuery3 {
    query_pair3(
        &bodies[a].body_ref(),
        &bodies[b].body_ref(),
        &settings_for_scene3(scene),
    )
}

/// The issue's first hand-checked case: slab face 0.1 deep, four points (+-0.5, 0.4,
/// +-0.5) on the cube (the incident body), and the edge axes that tie at 0.1 lose to the
/// slab's face.
#[test]
fn face_face_case_wins_on_the_slab_face_with_the_four_corners() {
    let (scene, bodies) = load("face_face_box_on_slab.ron");
    let q = query(&scene, &bodies, 0, 1);
    assert!(matches!(q.sat.axis, AxisId::FaceA(_)), "{:?}", q.sat.axis);
    let m = q.manifold.expect("a manifold");
    assert_eq!(m.reference.key(), "a");
    assert_eq!(m.clipped, 4);
    let mut corners: Vec<(i32, i32)> = m
        .points
        .iter()
        .map(|p| {
            assert!((p.point.y - 0.4).abs() < 1e-5, "{}", p.point);
            assert!((p.depth - 0.1).abs() < 1e-5);
            (
                (p.point.x * 2.0).round() as i32,
                (p.point.z * 2.0).round() as i32,
            )
        })
        .collect();
    corners.sort();
    assert_eq!(corners, vec![(-1, -1), (-1, 1), (1, -1), (1, 1)]);
}

/// The octagon: clipping produces 8 points, the reduction keeps 4 of them, all 0.1 deep.
#[test]
fn clip_eight_reduces_to_four() {
    let (scene, bodies) = load("face_face_clip_eight.ron");
    let q = query(&scene, &bodies, 0, 1);
    let m = q.manifold.expect("a manifold");
    assert_eq!(m.clipped, 8);
    assert_eq!(m.points.len(), 4);
    let octagon = 2f32.sqrt() - 1.0;
    for p in m.points.iter() {
        assert!((p.depth - 0.1).abs() < 1e-5);
        // Each kept point is an octagon corner: one coordinate +-1, the other +-0.414.
        let (x, z) = (p.point.x.abs(), p.point.z.abs());
        let corner = ((x - 1.0).abs() < 1e-4 && (z - octagon).abs() < 1e-4)
            || ((z - 1.0).abs() < 1e-4 && (x - octagon).abs() < 1e-4);
        assert!(corner, "{}", p.point);
    }
}

#[test]
fn crossed_ridges_are_decided_by_an_edge_axis() {
    for (name, intersecting) in [
        ("edge_edge_crossed_ridges.ron", true),
        ("edge_edge_separated.ron", false),
    ] {
        let (scene, bodies) = load(name);
        let q = query(&scene, &bodies, 0, 1);
        assert!(
            matches!(q.sat.axis, AxisId::Edges(..)),
            "{name}: {:?}",
            q.sat.axis
        );
        assert_eq!(q.sat.intersecting, intersecting, "{name}");
    }
}

/// The exactly parallel ridge and box edges give no axis: SAT records them as skipped for
/// being parallel, and the box's face decides.
#[test]
fn parallel_edges_are_skipped_and_the_face_decides() {
    use collision_lab::query3::pair::trace_pair3;
    use collision_lab::query3::sat::{SkipReason, Step};
    for name in ["parallel_edges.ron", "nearly_parallel_edges.ron"] {
        let (scene, bodies) = load(name);
        let (q, t) = trace_pair3(
            &bodies[0].body_ref(),
            &bodies[1].body_ref(),
            &settings_for_scene3(&scene),
        );
        assert!(
            matches!(q.sat.axis, AxisId::FaceB(_)),
            "{name}: {:?}",
            q.sat.axis
        );
        let parallel = t
            .sat
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
        assert!(parallel >= 1, "{name}: no edge pair skipped as parallel");
    }
}

/// The issue's second hand-checked case, with t_last and the axis that set t_first.
#[test]
fn sweep_case_first_and_last_contact() {
    let (scene, bodies) = load("sweep_hit.ron");
    let q = query(&scene, &bodies, 0, 1);
    let w = q.sweep.expect("a sweep");
    assert!(w.hit);
    assert!((w.t_first.unwrap() - 0.358579).abs() < 1e-5);
    assert!((w.t_last.unwrap() - 0.841421).abs() < 1e-5);
    assert!((w.normal - Vec3::X).length() < 1e-5);
    assert!(matches!(w.axis, AxisId::FaceA(_)), "{:?}", w.axis);
}

/// The round sweep scenes' times beyond `t_first` (derived in their notes): t_last, the
/// normal at first contact and what set it, and the miss's closest approach.
#[test]
fn round_sweep_scenes_first_and_last_contact() {
    use collision_lab::query3::sweep::Status;
    let (scene, bodies) = load("round_sweep_sphere_onto_box_face.ron");
    for (b, t_last) in [(1, 0.8), (2, 1.0)] {
        let w = query(&scene, &bodies, 0, b).sweep.expect("a sweep");
        assert_eq!(w.status, Status::Hit);
        assert!((w.t_last.unwrap() - t_last).abs() < 1e-5, "{w:?}");
        assert!((w.normal - Vec3::Y).length() < 1e-6, "{w:?}");
        assert!(matches!(w.axis, AxisId::FaceA(_)), "{:?}", w.axis);
    }
    let (scene, bodies) = load("round_sweep_capsules_crossing.ron");
    let w = query(&scene, &bodies, 0, 1).sweep.expect("a sweep");
    assert!((w.t_last.unwrap() - 0.6).abs() < 1e-5, "{w:?}");
    assert!(
        (w.normal - Vec3::new(0.6, 0.0, 0.8)).length() < 1e-4,
        "{w:?}"
    );
    assert_eq!(w.axis, AxisId::Closest);
    // At t_first both capsules have moved (upright by 0.4 along z, across by -1.2): one
    // point on across's surface, (0.3, 0.6, 0.8) - 0.25 (0.6, 0, 0.8).
    let m = w.manifold.expect("a manifold at t_first");
    assert_eq!(m.points.len(), 1);
    let p = m.points.as_slice()[0];
    assert!(
        (p.point - Vec3::new(0.15, 0.6, 0.6)).length() < 1e-4,
        "{p:?}"
    );
    let (scene, bodies) = load("round_sweep_capsule_past_box_edge.ron");
    let settings = settings_for_scene3(&scene);
    let (q, t) = collision_lab::query3::pair::trace_pair3(
        &bodies[0].body_ref(),
        &bodies[1].body_ref(),
        &settings,
    );
    assert_eq!(q.sweep.expect("a sweep").status, Status::Miss);
    // The bracket leaves room, so a Newton step decides; it measures no less than the
    // closest approach, 0.25 sqrt 2 - 0.3.
    let closest = 0.25 * 2f32.sqrt() - 0.3;
    let newton: Vec<_> = t
        .sweep
        .iter()
        .filter_map(|s| match s {
            collision_lab::query3::sweep::Step::Refine(n) => Some(*n),
            collision_lab::query3::sweep::Step::Axis(_) => None,
        })
        .collect();
    assert!(!newton.is_empty());
    assert!(
        newton.iter().all(|n| n.distance >= closest - 1e-5),
        "{newton:?}"
    );
}

#[test]
fn the_2d_loader_refuses_a_3d_scene_with_a_sentence() {
    let path = scene_dir().join("welcome.ron");
    let e = load_scene_file(&path).unwrap_err();
    assert!(e.message.contains(TWO_D_ONLY), "{e}");
    // It points at the `dimensions` field (line 3 of every scene here).
    assert_eq!(e.position.map(|p| p.0), Some(3), "{e}");
    assert!(matches!(
        collision_lab::scene::load_any_scene_file(&path),
        Ok(LoadedScene::Three(..))
    ));
}

#[test]
fn a_2d_scene_may_say_dimensions_2_and_loads_unchanged() {
    let text = "(version: 1, dimensions: 2, bodies: [(name: \"A\", shape: Circle(radius: 1))])";
    let (scene, bodies) = parse_scene(text, "two.ron").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scene.dimensions, Some(2));
    assert_eq!(bodies.len(), 1);
    assert!(matches!(
        parse_any_scene(text, "two.ron"),
        Ok(LoadedScene::Two(..))
    ));
    // A file without the field is 2D, as before.
    let plain = "(version: 1, bodies: [])";
    assert!(matches!(
        parse_any_scene(plain, "plain.ron"),
        Ok(LoadedScene::Two(..))
    ));
}

#[test]
fn mistakes_from_2d_habits_are_named_with_a_position() {
    let cases = [
        ("shape: Box(half_extents: (1, 1))", "`Box` is a 2D shape"),
        (
            "shape: Cuboid(half_extents: (1, 1, 1)), position: (1, 2)",
            "three numbers (x, y, z), this one has 2",
        ),
        (
            "shape: Cuboid(half_extents: (1, 1, 1)), angle: 30",
            "rotation: (x, y, z)",
        ),
    ];
    for (body, phrase) in cases {
        let text = format!(
            "(\n    version: 1,\n    dimensions: 3,\n    bodies: [\n        (name: \"A\", {body}),\n    ],\n)\n"
        );
        let e = parse_scene3(&text, "x.ron").unwrap_err();
        assert!(e.message.contains(phrase), "{e}");
        assert_eq!(e.position.map(|p| p.0), Some(5), "{e}");
    }
    // A bad shape names the body.
    let text = "(version: 1, dimensions: 3, bodies: [(name: \"gem\", shape: Hull(points: [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)]))])";
    let e = parse_scene3(text, "x.ron").unwrap_err();
    assert!(e.message.starts_with("body \"gem\": Hull: "), "{e}");
    assert!(e.message.contains("one plane"), "{e}");
}

/// The complete example in docs/scene-format.md loads and its expectations hold.
#[test]
fn the_documented_3d_example_loads_and_passes() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/scene-format.md"))
            .unwrap();
    let start = doc
        .find("### A complete 3D example")
        .expect("the 3D example");
    let block = &doc[start..];
    let open = block.find("```ron\n").unwrap() + "```ron\n".len();
    let close = open + block[open..].find("```").unwrap();
    let (scene, bodies) =
        parse_scene3(&block[open..close], "docs/scene-format.md").unwrap_or_else(|e| panic!("{e}"));
    let checks = collision_lab::scene::check_scene3(&scene, &bodies);
    // The cube, the gem and the column, and the round ball and rod.
    assert_eq!(checks.len(), 5);
    for c in checks {
        assert!(c.passed(), "{} vs {}: {}", c.a, c.b, c.describe());
    }
}

/// `check` with no paths covers scenes/ and scenes/3d/ (run where the scenes are).
#[test]
fn check_without_paths_checks_the_3d_scenes_too() {
    let out = Command::new(env!("CARGO_BIN_EXE_collision-lab"))
        .arg("check")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("pass  scenes/3d/face_face_box_on_slab.ron  slab vs cube"),
        "{stdout}"
    );
    assert!(stdout.contains("pass  scenes/welcome.ron"), "{stdout}");
}

/// What the GJK and EPA scenes show beyond their `expect` blocks: how GJK's loop ended, on
/// which simplex, and how many expansions EPA needed.
#[test]
fn gjk_and_epa_scenes_end_the_way_their_notes_say() {
    use collision_lab::query3::pair::trace_pair3;
    use collision_lab::query3::{epa, gjk};
    let traced = |name: &str, a: usize, b: usize| {
        let (scene, bodies) = load(name);
        trace_pair3(
            &bodies[a].body_ref(),
            &bodies[b].body_ref(),
            &settings_for_scene3(&scene),
        )
    };
    // Boxes edge to edge: GJK's last simplex is a segment (two support points).
    let (q, t) = traced("gjk_two_point_simplex.ron", 0, 1);
    assert_eq!(q.gjk.simplex.len, 2, "{:?}", q.gjk);
    assert_eq!(t.gjk.last().unwrap().simplex.len, 2);
    assert!((q.gjk.distance - 0.5f32.hypot(0.5)).abs() < 1e-5);
    // SAT's separation is only a lower bound here.
    assert!((q.sat.separation - 0.5).abs() < 1e-5);
    // Touching face to face and corner to corner: the origin on GJK's simplex, and EPA
    // grows that simplex into a tetrahedron in its seed step.
    for b in [1, 2] {
        let (q, t) = traced("gjk_touching_boxes.ron", 0, b);
        assert_eq!(q.gjk.status, gjk::Status::OriginOnSimplex, "body {b}");
        assert!(q.gjk.simplex.len < 4);
        match &t.epa[0] {
            epa::Step::Seed(seed) => assert!(!seed.added.is_empty(), "body {b}"),
            other => panic!("EPA starts with its seed: {other:?}"),
        }
        assert!(q.epa.unwrap().depth.abs() < 1e-5);
    }
    // Several expansions: at least three expansions remove faces before it converges.
    let (q, t) = traced("epa_several_expansions.ron", 0, 1);
    let e = q.epa.unwrap();
    assert_eq!(e.status, epa::Status::Converged);
    let grew = t
        .epa
        .iter()
        .filter(|s| matches!(s, epa::Step::Expansion(x) if !x.removed.is_empty()))
        .count();
    assert!(grew >= 3, "{grew} expansions");
    // The tie: both normals are right (moving B by depth along either leaves them touching)
    // and they differ.
    let (q, _) = traced("tie_sat_face_epa_normal.ron", 0, 1);
    let e = q.epa.unwrap();
    assert!((e.normal - q.sat.normal).length() > 1.0);
    assert!((e.depth - q.sat.depth).abs() < 1e-5);
    // Coincident copies: GJK encloses or touches at once, the depth is the height.
    let (q, _) = traced("coincident_hulls.ron", 0, 1);
    assert!(q.gjk.intersecting);
    assert!((q.epa.unwrap().depth - 0.8).abs() < 1e-4);
}
