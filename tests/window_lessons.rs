//! Help > Lessons in the real window under Xvfb: every lesson opens on its step and renders
//! it; a student does lesson 4's exercise by dragging (B's corner snapped onto A's corner,
//! where SAT and EPA break the tie differently) and the window says "Found it"; Show answer
//! and Next work. Skipped (with a message) without Xvfb and xdotool, unless
//! COLLISION_LAB_REQUIRE_X=1.

mod window_common;

use collision_lab::scene::{load_any_scene_file, LoadedScene};
use serde_json::Value;
use std::path::{Path, PathBuf};
use window_common::*;

fn lesson_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lessons");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files
}

/// The lesson's number and the step it opens on (algorithm key, counted from 1).
fn lesson_step(path: &Path) -> (u32, String, usize) {
    let lesson = match load_any_scene_file(path).unwrap() {
        LoadedScene::Two(s, _) => s.lesson,
        LoadedScene::Three(s, _) => s.lesson,
    }
    .expect("a lesson");
    let (algorithm, n) = lesson.step.expect("a step");
    (lesson.number, algorithm.key().to_string(), n)
}

#[test]
fn every_lesson_opens_on_its_step_and_renders_it() {
    if !have(&["Xvfb"]) {
        return;
    }
    let x = XServer::start();
    for path in lesson_files() {
        let (number, algorithm, n) = lesson_step(&path);
        let dir = temp_dir(&format!("lesson-{number}"));
        let w = Window::open(&x, &dir, &path);
        let s = w.wait_for(
            |s| s["lesson"]["number"] == number && s["timeline_step"].is_object(),
            "the lesson and its timeline",
        );
        assert_eq!(s["load_error"], Value::Null, "lesson {number}");
        assert_eq!(
            s["timeline_step"]["algorithm"],
            algorithm.as_str(),
            "lesson {number}"
        );
        assert_eq!(
            s["timeline_step"]["step"],
            n - 1,
            "lesson {number}: step {n}"
        );
        assert_eq!(
            s["lesson"]["found"], false,
            "lesson {number} starts unsolved"
        );
    }
    // The same steps as pictures (render draws a lesson at its step); each render takes
    // its own X server, so after this one is gone.
    drop(x);
    for path in lesson_files() {
        let (number, _, _) = lesson_step(&path);
        let out = temp_dir(&format!("lesson-{number}-picture")).join("lesson.png");
        let result = render(&path, &out, &["--size", "640x360"]);
        assert!(
            result.status.success(),
            "render lesson {number}: {}",
            String::from_utf8_lossy(&result.stderr)
        );
        let picture = Picture::open(&out);
        assert_eq!(picture.size(), (640, 360));
        // Bodies, overlays and the step's sentence drawn over the background: body A is
        // blue (#4f86c6 in every lesson), so the picture holds bluish pixels, and many
        // pixels differ from the top-left corner's background.
        let image = &picture.image;
        let background = *image.get_pixel(0, 0);
        let drawn = image.pixels().filter(|p| **p != background).count();
        let bluish = image
            .pixels()
            .filter(|p| p[2] as i32 - p[0] as i32 > 40 && p[2] > 120)
            .count();
        assert!(drawn > 20_000, "lesson {number}: {drawn} pixels drawn");
        assert!(bluish > 2_000, "lesson {number}: {bluish} bluish pixels");
    }
}

#[test]
fn snapping_b_corner_onto_a_corner_completes_lesson_4() {
    if !have(&["Xvfb", "xdotool"]) {
        return;
    }
    let path = lesson_files()[3].clone();
    let dir = temp_dir("lesson-4-drive");
    let x = XServer::start();
    let w = Window::open(&x, &dir, &path);
    let s = w.wait_for(
        |s| s["lesson"]["number"] == 4 && s["widgets"]["lesson:answer"].is_array(),
        "lesson 4 and its notes",
    );
    assert_eq!(s["lesson"]["met"], false);
    // B (a 2 x 2 box at (1.6, 1.3)) dragged by its middle so that its lower-left corner
    // (0.6, 0.3) lands 0.03 from A's upper-right corner (1, 1): the body snap (on by
    // default, 12 px) puts the corners together, B at (2, 2).
    let from = to_screen(&s, [1.6, 1.3]);
    let to = to_screen(&s, [2.03, 1.98]);
    drag(&x, from, to);
    let s = w.wait_for(|s| s["lesson"]["met"] == true, "the exercise found");
    let p = &s["bodies"][1]["position"];
    assert_eq!(
        (p[0].as_f64(), p[1].as_f64()),
        (Some(2.0), Some(2.0)),
        "snapped"
    );
    assert_eq!(s["lesson"]["found"], true);
    assert!(s["widgets"]["lesson:status"].is_array());
    // The status bar says it too (presentation mode hides the Notes panel, not the bar).
    let status = s["status"].as_str().unwrap_or_default();
    assert!(status.starts_with("Lesson 4: found it!"), "{status}");
    // The answer behind its button.
    click_widget(&x, &s, "lesson:answer");
    let s = w.wait_for(|s| s["lesson"]["answer_shown"] == true, "the answer");
    // Moving away keeps "found" and drops "met".
    let from = to_screen(&s, [2.0, 2.0]);
    let to = to_screen(&s, [1.6, 1.4]);
    drag(&x, from, to);
    let s = w.wait_for(|s| s["lesson"]["met"] == false, "B moved away");
    assert_eq!(s["lesson"]["found"], true);
    // Next asks about the unsaved drag first; discarding opens lesson 5 afresh.
    click_widget(&x, &s, "lesson:next");
    let s = w.wait_for(|s| s["confirm"].is_string(), "the unsaved-changes question");
    assert!(s["confirm"].as_str().unwrap().contains("lessons/05_sat_2d"));
    let s = w.wait_for(|s| s["widgets"]["confirm:discard"].is_array(), "Discard");
    click_widget(&x, &s, "confirm:discard");
    let s = w.wait_for(|s| s["lesson"]["number"] == 5, "lesson 5");
    assert_eq!(s["lesson"]["found"], false);
    assert_eq!(s["lesson"]["answer_shown"], false);
    assert_eq!(s["timeline_step"]["algorithm"], "sat");
}
