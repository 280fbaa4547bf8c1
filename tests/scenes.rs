//! Every scene in `scenes/` is a regression test: its expectations must hold, it must be
//! readable by a student (title, notes, at least one expectation), and it must survive a
//! save and load unchanged. The `check` command's exit statuses are tested on the real
//! binary.

use collision_lab::geom::ShapeKind;
use collision_lab::scene::{load_scene_file, parse_scene, scene_files, scene_to_string};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::scene_runs::{expectation_failures, run_binary};

fn scene_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes")
}

fn all_scenes() -> Vec<PathBuf> {
    let files = scene_files(&[scene_dir()]).expect("scenes/ can be listed");
    assert!(
        files.len() >= 30,
        "expected at least 30 scenes, found {}",
        files.len()
    );
    files
}

#[test]
fn every_expectation_in_scenes_holds() {
    let (failures, checked) = expectation_failures(&all_scenes());
    assert!(
        failures.is_empty(),
        "{} of {checked} expectations failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_scene_has_a_title_notes_and_an_expectation() {
    for path in all_scenes() {
        let (scene, _) = load_scene_file(&path).unwrap_or_else(|e| panic!("{e}"));
        let name = path.display();
        assert!(
            scene.title.as_deref().is_some_and(|t| !t.trim().is_empty()),
            "{name}: no title"
        );
        let notes = scene.notes.as_deref().unwrap_or("");
        let sentences = notes
            .split_whitespace()
            .filter(|w| w.ends_with('.') || w.ends_with(':'))
            .count();
        assert!(
            sentences >= 2,
            "{name}: notes should be two or three sentences"
        );
        assert!(!scene.expect.is_empty(), "{name}: no expectations");
        // The window's welcome scene is framed and coloured by the window's own defaults.
        if path.file_name().is_some_and(|n| n == "welcome.ron") {
            continue;
        }
        assert!(scene.view.is_some(), "{name}: no view");
        for body in &scene.bodies {
            assert!(
                body.color.is_some(),
                "{name}: body {} has no color",
                body.name
            );
        }
    }
}

#[test]
fn every_scene_round_trips_through_text() {
    for path in all_scenes() {
        let (scene, _) = load_scene_file(&path).unwrap_or_else(|e| panic!("{e}"));
        let text = scene_to_string(&scene);
        let (again, _) =
            parse_scene(&text, "round trip").unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            again,
            scene,
            "{} changed in a save and load",
            path.display()
        );
    }
}

/// Every shape kind (and the radius-0 capsule, a segment) appears in at least two scenes.
#[test]
fn every_shape_kind_appears_in_two_scenes() {
    let mut scenes_with: HashMap<&'static str, usize> = HashMap::new();
    for path in all_scenes() {
        let (scene, _) = load_scene_file(&path).unwrap();
        let mut kinds: Vec<&'static str> = scene
            .bodies
            .iter()
            .map(|b| match &b.shape {
                ShapeKind::Polygon { .. } => "polygon",
                ShapeKind::Box { .. } => "box",
                ShapeKind::Regular { .. } => "regular",
                ShapeKind::Circle { .. } => "circle",
                ShapeKind::Capsule { radius, .. } if *radius == 0.0 => "segment",
                ShapeKind::Capsule { .. } => "capsule",
            })
            .collect();
        kinds.sort();
        kinds.dedup();
        for k in kinds {
            *scenes_with.entry(k).or_default() += 1;
        }
    }
    for kind in ["polygon", "box", "regular", "circle", "capsule", "segment"] {
        let n = scenes_with.get(kind).copied().unwrap_or(0);
        assert!(n >= 2, "{kind} appears in {n} scenes");
    }
}

fn run_check(args: &[&Path]) -> (i32, String, String) {
    let mut all = vec![Path::new("check")];
    all.extend_from_slice(args);
    run_binary(&all)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "collision-lab-scenes-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const FAILING: &str = r#"(
    version: 1,
    title: "wrong on purpose",
    bodies: [
        (name: "A", shape: Box(half_extents: (1, 1))),
        (name: "B", shape: Box(half_extents: (1, 1)), position: (1.5, 0)),
    ],
    expect: [
        (a: "A", b: "B", depth: 0.5),
        (a: "A", b: "B", depth: 0.3),
    ],
)"#;

/// Exit status 0 on the library, with the summary alone on the last line. (This fails, like
/// `every_expectation_in_scenes_holds`, while a scene's expectation does not hold.)
#[test]
fn check_command_passes_on_scenes() {
    let (code, stdout, stderr) = run_check(&[Path::new("scenes")]);
    let last = stdout.lines().last().unwrap_or("");
    assert!(
        last.ends_with(" passed, 0 failed"),
        "last line: {last}\n{stdout}"
    );
    assert_eq!(code, 0, "check scenes failed:\n{stdout}\n{stderr}");
    assert!(stdout.lines().filter(|l| l.starts_with("pass  ")).count() >= 30);
}

/// Exit statuses 1 (a failed expectation) and 2 (a file that cannot be read or is invalid).
#[test]
fn check_command_exit_statuses() {
    // 1: an expectation that does not hold, reported with how far off it is.
    let dir = temp_dir("fail");
    std::fs::write(dir.join("wrong.ron"), FAILING).unwrap();
    let (code, stdout, _) = run_check(&[&dir]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains(
            "A vs B: depth (EPA) 0.5000 expected 0.3000 (off by 0.2000, tolerance 1.00e-4)"
        ),
        "{stdout}"
    );
    assert_eq!(stdout.lines().last(), Some("1 passed, 1 failed"));

    // 2: an invalid file next to a failing one wins.
    std::fs::write(dir.join("broken.ron"), "(version: 1, bodies: [").unwrap();
    let (code, stdout, stderr) = run_check(&[&dir]);
    assert_eq!(code, 2, "{stdout}\n{stderr}");
    assert!(
        stderr.starts_with(&format!("error: {}", dir.join("broken.ron").display())),
        "{stderr}"
    );
    assert_eq!(stdout.lines().last(), Some("1 passed, 1 failed"));

    // 2: a file that does not exist.
    let (code, _, stderr) = run_check(&[&dir.join("missing.ron")]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot read"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn trace_prints_one_block_per_step() {
    let out = Command::new(env!("CARGO_BIN_EXE_collision-lab"))
        .args(["trace", "scenes/epa_expansion.ron", "--algorithm", "epa"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(text.contains("Step 1 of "), "{text}");
    assert!(
        text.matches("\nStep ").count() >= 3,
        "EPA should take several expansions:\n{text}"
    );
    assert!(
        text.contains("Expansion 1. The polytope has 3 vertices"),
        "{text}"
    );
    for algorithm in ["gjk", "sat", "clip", "sweep"] {
        let out = Command::new(env!("CARGO_BIN_EXE_collision-lab"))
            .args([
                "trace",
                "scenes/sweep_hit.ron",
                "--pair",
                "wall",
                "mover",
                "--algorithm",
                algorithm,
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{algorithm}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("\nResult\n"));
    }
}

/// The complete example in `docs/scene-format.md` loads and its expectations hold.
#[test]
fn documented_example_is_a_passing_scene() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/scene-format.md"))
            .unwrap();
    let start = doc
        .find("## A complete example")
        .expect("the example section");
    let block = &doc[start..];
    let open = block.find("```ron\n").unwrap() + "```ron\n".len();
    let close = open + block[open..].find("```").unwrap();
    let (scene, bodies) =
        parse_scene(&block[open..close], "docs example").unwrap_or_else(|e| panic!("{e}"));
    let checks = collision_lab::scene::check_scene(&scene, &bodies);
    assert!(!checks.is_empty());
    for c in checks {
        assert!(c.passed(), "{} vs {}: {}", c.a, c.b, c.describe());
    }
}

/// The teaching scenes show what their notes say: these features are not expressible as
/// `expect` fields, so they are pinned here from the recorded steps.
#[test]
fn teaching_scenes_show_what_their_notes_say() {
    use collision_lab::query::pair::{trace_pair, PairQuery, PairTrace};
    use collision_lab::query::sat::AxisSource;
    use collision_lab::query::sweep::SweepStep;
    use collision_lab::query::Body;
    use collision_lab::scene::settings_for_scene;

    let traced = |file: &str, a: &str, b: &str| -> (PairQuery, PairTrace) {
        let path = scene_dir().join(file);
        let (scene, bodies) = load_scene_file(&path).unwrap_or_else(|e| panic!("{e}"));
        let find = |n: &str| bodies.iter().find(|x| x.name == n).unwrap().body_ref();
        trace_pair(&find(a), &find(b), &settings_for_scene(&scene))
    };

    // GJK walks at least two steps before it settles on the closest vertex.
    let (q, t) = traced("gjk_separated.ron", "A", "B");
    assert!(t.gjk.len() >= 2 && !q.intersecting());

    // EPA takes several expansions.
    let (q, t) = traced("epa_expansion.ron", "octagon", "tilted");
    assert!(t.epa.len() >= 3, "{} expansions", t.epa.len());
    assert_eq!(q.epa.unwrap().status.as_str(), "converged");

    // A owns the reference edge in clip_one_point, B in its mirror image.
    let (q, _) = traced("clip_one_point.ron", "block", "diamond");
    assert_eq!(q.manifold.unwrap().reference, Body::A);
    let (q, _) = traced("clip_reference_flip.ron", "diamond", "block");
    assert_eq!(q.manifold.unwrap().reference, Body::B);

    // SAT keeps the first of two equal axes whose edge faces B (A's edge 1, its right side;
    // edge 0, the bottom, gives the same overlap on the same line but faces away); EPA and
    // SAT agree on the depth.
    let (q, _) = traced("sat_tie.ron", "A", "B");
    assert_eq!(
        q.sat.axis,
        AxisSource::Edge {
            body: Body::A,
            index: 1
        }
    );

    // Only a vertex axis (corner to centre) finds the circle's depth at the corner.
    let (q, _) = traced("circle_at_vertex.ron", "box", "ball");
    assert!(
        matches!(q.sat.axis, AxisSource::Vertex { .. }),
        "{:?}",
        q.sat.axis
    );

    // The corner contact comes from the Newton steps, not from a face axis.
    let (q, t) = traced("sweep_circle_corner.ron", "box", "ball");
    assert!(t
        .sweep
        .iter()
        .any(|s| matches!(s, SweepStep::Refine { .. })));
    assert!(q.sweep.unwrap().t_first.unwrap() > 0.5667 + 0.01);

    // The bullet is clear of the wall at both ends of the frame, yet the sweep hits.
    let (q, _) = traced("sweep_tunnelling.ron", "wall", "bullet");
    assert!(!q.intersecting() && q.sweep.unwrap().hit);
    let (q, _) = traced("sweep_tunnelling.ron", "wall", "ghost");
    assert!(!q.intersecting());
}
