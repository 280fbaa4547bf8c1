//! The words never contradict the numbers: on every 2D scene of `scenes/`, the sentence of
//! each algorithm's final step states the numbers the Results panel shows, in the one
//! readable form; GJK says where the origin on its simplex lies (inside A - B or on its
//! boundary); statuses read as words in text output; and a tiny non-zero number never
//! prints as 0.

use collision_lab::app::session::Session;
use collision_lab::app::state::Document;
use collision_lab::app::timeline::TimelineModel;
use collision_lab::query::epa::EpaStatus;
use collision_lab::query::gjk::{GjkStatus, OriginPlace};
use collision_lab::query::Algorithm;
use collision_lab::text::readable;
use std::path::{Path, PathBuf};
use std::process::Command;

fn scenes_2d() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir("scenes")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    paths.sort();
    assert!(paths.len() > 20);
    paths
}

fn session(path: &Path) -> Session {
    Session::new(Document::load(path).unwrap())
}

fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_collision-lab"))
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The issue's case: the inset said EPA d = 0.502 (its step 2) while Results said 0.516.
/// Whatever the timeline shows, EPA's final step states the depth the Results show.
#[test]
fn final_steps_state_the_results_numbers_on_every_scene() {
    for path in scenes_2d() {
        let s = session(&path);
        let Some(run) = s.run() else { continue };
        let q = &run.query;
        if let (Some(e), Some(last)) = (q.epa, run.trace.epa.last()) {
            if e.status == EpaStatus::Converged {
                assert_eq!(
                    readable(last.distance + last.radii),
                    readable(e.depth),
                    "{}: EPA's last step and the Results",
                    path.display()
                );
                let sentence = run.sentence(Algorithm::Epa, run.step_count(Algorithm::Epa) - 1);
                assert!(sentence.unwrap().contains(&readable(e.depth)));
            }
        }
        let last = run.trace.gjk.last().expect("GJK always records a step");
        if !q.gjk.intersecting && last.radii == 0.0 {
            assert_eq!(
                readable(last.distance),
                readable(q.gjk.distance),
                "{}",
                path.display()
            );
        }
        if last.radii > 0.0 && last.status != Some(GjkStatus::Enclosed) {
            // The rounded shapes' gap or overlap is said, and it is the Results' distance.
            let text = run.sentence(Algorithm::Gjk, run.step_count(Algorithm::Gjk) - 1);
            let text = text.unwrap();
            if !q.gjk.intersecting {
                assert!(
                    text.contains(&format!("are {} apart", readable(q.gjk.distance))),
                    "{}: {text}",
                    path.display()
                );
            } else {
                assert!(!text.contains("apart"), "{}: {text}", path.display());
            }
        }
        // The timeline opens on the final step, the one whose numbers the Results show.
        let (n, k) = s.timeline_position().unwrap();
        let a = s.timeline();
        assert_eq!(k, run.final_step(a), "{}", path.display());
        assert!(k < n);
    }
}

#[test]
fn gjk_says_whether_the_origin_on_the_simplex_is_inside_or_on_the_boundary() {
    // sat_tie overlaps by 0.5 and arena_128 by 1000: the origin sits on a simplex edge
    // that runs through A - B. The touching scenes have it on the boundary.
    for (scene, place, words) in [
        ("sat_tie", OriginPlace::InsideEdge, "so the shapes overlap"),
        (
            "arena_128",
            OriginPlace::InsideEdge,
            "so the shapes overlap",
        ),
        (
            "edge_touching",
            OriginPlace::Boundary,
            "so the shapes touch",
        ),
        (
            "vertex_vertex_touching",
            OriginPlace::Boundary,
            "so the shapes touch",
        ),
        (
            "vertex_on_edge",
            OriginPlace::Boundary,
            "so the shapes touch",
        ),
    ] {
        let path = PathBuf::from(format!("scenes/{scene}.ron"));
        let s = session(&path);
        let run = s.run().unwrap();
        let last = run.trace.gjk.last().unwrap();
        assert_eq!(last.status, Some(GjkStatus::OriginOnSimplex), "{scene}");
        assert_eq!(last.origin_place, Some(place), "{scene}");
        let text = run
            .sentence(Algorithm::Gjk, run.step_count(Algorithm::Gjk) - 1)
            .unwrap();
        assert!(text.contains(words), "{scene}: {text}");
        if place == OriginPlace::InsideEdge {
            assert!(!text.contains("touch"), "{scene}: {text}");
            assert!(run.query.epa.unwrap().depth > 0.1, "{scene} overlaps");
        }
        let printed = run_trace(scene);
        assert!(
            printed.contains("through the inside of A - B") == (place == OriginPlace::InsideEdge)
        );
    }
}

fn run_trace(scene: &str) -> String {
    run(&[
        "trace",
        &format!("scenes/{scene}.ron"),
        "--algorithm",
        "gjk",
    ])
}

#[test]
fn text_output_says_statuses_in_words_and_keeps_the_digits_that_tell_cases_apart() {
    // thin_sliver: the notes teach depth 0.1006 along (-0.00025, 1), not 0.101 along (0, 1).
    let out = run(&["query", "scenes/thin_sliver.ron"]);
    assert!(out.contains("depth 0.1006  normal (-0.00025, 1)"), "{out}");
    let out = run(&["query", "scenes/sweep_initially_overlapping.ron"]);
    assert!(out.contains("hit, already overlapping at t = 0"), "{out}");
    let keys = [
        "repeated_support",
        "origin_on_simplex",
        "initially_overlapping",
        "max_iterations",
        "rounded_shallow",
        "status converged",
        "status enclosed",
        "(hit)",
    ];
    for path in scenes_2d() {
        let p = path.to_str().unwrap();
        let mut text = run(&["query", p]);
        for a in ["gjk", "epa", "sweep"] {
            text += &run(&["trace", p, "--algorithm", a]);
        }
        // The file's own name is printed in the headers.
        let text = text.replace(p, "SCENE");
        for key in keys {
            assert!(!text.contains(key), "{p}: {key} in\n{text}");
        }
    }
    // JSON keeps its machine keys.
    let json = run(&["query", "scenes/sweep_initially_overlapping.ron", "--json"]);
    assert!(json.contains("\"initially_overlapping\""), "{json}");
}

#[test]
fn a_tiny_distance_is_never_printed_as_zero_next_to_intersecting_false() {
    let dir = std::env::temp_dir().join(format!("truth-tiny-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scene = dir.join("tiny.ron");
    std::fs::write(
        &scene,
        r#"(
    version: 1,
    bodies: [
        (name: "a", shape: Box(half_extents: (1.0, 1.0)), position: (0.0, 0.0)),
        (name: "b", shape: Box(half_extents: (1.0, 1.0)), position: (2.0001, 0.0)),
    ],
)"#,
    )
    .unwrap();
    let s = session(&scene);
    let q = &s.run().unwrap().query;
    assert!(!q.gjk.intersecting, "1e-4 apart");
    // The Results panel and the labels (three decimals before) said 0 here.
    assert_ne!(readable(q.gjk.distance), "0");
    assert_ne!(collision_lab::app::labs::num(q.gjk.distance), "0");
    let out = run(&["query", scene.to_str().unwrap()]);
    assert!(out.contains("separated"), "{out}");
    assert!(!out.contains("distance 0 "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sat_says_a_tie_with_the_best_axis_so_far() {
    let printed = run(&["trace", "scenes/sat_tie.ron", "--algorithm", "sat"]);
    let flat = printed.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("It ties with edge 1 of A"), "{flat}");
    assert!(flat.contains("the best so far stays edge 1 of A"), "{flat}");
    let s = session(Path::new("scenes/sat_tie.ron"));
    let run = s.run().unwrap();
    // Each step's best so far is the smallest overlap among the steps up to it.
    for (k, step) in run.trace.sat.iter().enumerate() {
        let best = run.trace.sat[..=k]
            .iter()
            .find(|x| x.source == step.best_so_far)
            .unwrap();
        let smallest = run.trace.sat[..=k]
            .iter()
            .map(|x| x.overlap)
            .fold(f32::INFINITY, f32::min);
        assert_eq!(best.overlap, smallest, "step {}", k + 1);
    }
}

#[test]
fn three_d_text_says_gjk_and_epa_statuses_in_words_too() {
    let mut paths: Vec<PathBuf> = std::fs::read_dir("scenes/3d")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    paths.sort();
    for path in paths {
        let p = path.to_str().unwrap();
        let mut text = run(&["query", p]);
        for a in ["gjk", "epa"] {
            text += &run(&["trace", p, "--algorithm", a]);
        }
        let text = text.replace(p, "SCENE");
        for key in [
            "repeated_support",
            "origin_on_simplex",
            "status converged",
            "status enclosed",
        ] {
            assert!(!text.contains(key), "{p}: {key} in\n{text}");
        }
    }
}
