//! Drives the window under Xvfb with xdotool for what a teacher or a debugger does with
//! files and the timeline: typing a number (applied on Enter, never half-typed), the unsaved
//! mark and undo back to the saved state, Home/End on the timeline, recording the current
//! results as expectations and saving them with the overlays and the focused pair (then
//! `collision-lab check` on the file), and exporting slides from the File menu. Skipped
//! (with a message) without Xvfb and xdotool, unless COLLISION_LAB_REQUIRE_X=1.

mod window_common;

use collision_lab::app::title::UNSAVED_MARK;
use collision_lab::query::Algorithm;
use collision_lab::scene::{load_scene_file, Scene};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;
use window_common::*;

/// Two boxes apart (the focused pair) and a pentagon "lid" whose vertex 3, (-0.5, 0.99),
/// may move left but not right of x = -0.05: past that it dents the outline. Typing
/// "-0.15" there passes through "-0" (a dent) on the way.
const SCENE: &str = r#"(
    version: 1,
    title: "files test",
    bodies: [
        (name: "left", shape: Box(half_extents: (1.0, 1.0)), position: (-3.0, 0.0)),
        (name: "right", shape: Box(half_extents: (1.0, 1.0)), position: (3.0, 0.0)),
        (name: "lid", shape: Polygon(points: [(-1, -1), (1, -1), (1, 1.2), (-0.5, 0.99), (-1, 0.8)]), position: (0.0, 3.5)),
    ],
    view: (center: (0.0, 1.5), zoom: 40.0),
    overlays: [Gjk],
)"#;

fn setup(name: &str) -> Option<(XServer, PathBuf, PathBuf)> {
    if !have(&["Xvfb", "xdotool"]) {
        return None;
    }
    let dir = temp_dir(&format!("files-{name}"));
    let scene = dir.join("lesson.ron");
    std::fs::write(&scene, SCENE).unwrap();
    Some((XServer::start(), dir, scene))
}

fn sleep(ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
}

fn px(v: f32) -> String {
    format!("{}", v.round() as i32)
}

/// A key pressed and released with pauses, as a person would.
fn press(x: &XServer, combo: &str) {
    let keys: Vec<&str> = combo.split('+').collect();
    sleep(150);
    for k in &keys {
        x.xdotool(&["keydown", k]);
        sleep(40);
    }
    for k in keys.iter().rev() {
        x.xdotool(&["keyup", k]);
        sleep(40);
    }
}

fn click_at(x: &XServer, p: (f32, f32)) {
    x.xdotool(&["mousemove", &px(p.0), &px(p.1)]);
    sleep(200);
    x.xdotool(&["click", "1"]);
}

fn widget_center(state: &Value, name: &str) -> (f32, f32) {
    let r = &state["widgets"][name];
    let f = |i: usize| r[i].as_f64().unwrap() as f32;
    (f(0) + f(2) / 2.0, f(1) + f(3) / 2.0)
}

fn hover_canvas(x: &XServer, state: &Value) {
    let c = to_screen(state, [0.0, -2.0]);
    x.xdotool(&["mousemove", &px(c.0), &px(c.1)]);
    sleep(200);
}

fn canvas_ready(w: &Window) -> Value {
    w.wait_for(
        |s| s["canvas"][2].as_f64().unwrap_or(0.0) > 100.0,
        "a laid-out canvas",
    )
}

fn status(s: &Value) -> String {
    s["status"].as_str().unwrap_or_default().to_string()
}

/// The selected body's vertex nearest `local`, as (index, x, y).
fn vertex_near(s: &Value, local: [f32; 2]) -> (usize, f32, f32) {
    let core = s["selected_core"].as_array().expect("a selected polygon");
    core.iter()
        .enumerate()
        .map(|(i, p)| {
            (
                i,
                p[0].as_f64().unwrap() as f32,
                p[1].as_f64().unwrap() as f32,
            )
        })
        .min_by(|a, b| {
            let d = |v: &(usize, f32, f32)| (v.1 - local[0]).hypot(v.2 - local[1]);
            d(a).total_cmp(&d(b))
        })
        .unwrap()
}

#[test]
fn a_typed_vertex_coordinate_applies_on_enter_without_trying_the_half_typed_number() {
    let Some((x, dir, scene)) = setup("typing") else {
        return;
    };
    let w = Window::open(&x, &dir, &scene);
    let state = canvas_ready(&w);
    click_at(&x, to_screen(&state, [0.0, 3.5]));
    let s = w.wait_for(
        |s| s["selected"] == 2 && s["widgets"]["inspector:vertices"].is_array(),
        "the lid selected, its vertex list in the inspector",
    );
    click_at(&x, widget_center(&s, "inspector:vertices"));
    let (k, vx, vy) = vertex_near(&s, [-0.5, 0.99]);
    assert_eq!((vx, vy), (-0.5, 0.99));
    let field = format!("inspector:vertex:{k}:x");
    let s = w.wait_for(|s| s["widgets"][&field].is_array(), "the vertex fields");
    // A click on a number field starts typing with its text selected.
    click_at(&x, widget_center(&s, &field));
    w.wait_for(
        |s| s["keyboard_taken"] == true,
        "the field to take the keys",
    );
    sleep(200);
    for key in ["minus", "0", "period", "1", "5"] {
        press(&x, key);
        sleep(150);
        let s = w.state().unwrap();
        assert_eq!(
            vertex_near(&s, [-0.5, 0.99]),
            (k, -0.5, 0.99),
            "nothing applies while typing (after {key})"
        );
        assert!(!status(&s).contains("Refused"), "{}", status(&s));
    }
    press(&x, "Return");
    let s = w.wait_for(
        |s| vertex_near(s, [-0.15, 0.99]).1 == -0.15,
        "the typed value applied on Enter",
    );
    assert!(
        !status(&s).contains("Refused"),
        "no refusal on the way: {}",
        status(&s)
    );
    assert_eq!(s["bodies"][2]["vertices"], 5);
    assert_eq!(s["dirty"], true);
    // Saved, the file holds the typed number.
    hover_canvas(&x, &s);
    press(&x, "ctrl+s");
    w.wait_for(|s| s["dirty"] == false, "the save");
    let (_, bodies) = load_scene_file(&scene).unwrap();
    assert!(
        bodies[2]
            .shape
            .core()
            .iter()
            .any(|p| (p.x + 0.15).abs() < 1e-6 && (p.y - 0.99).abs() < 1e-6),
        "{:?}",
        bodies[2].shape.core()
    );
}

fn drag(x: &XServer, from: (f32, f32), to: (f32, f32)) {
    x.xdotool(&["mousemove", &px(from.0), &px(from.1)]);
    sleep(150);
    x.xdotool(&["mousedown", "1"]);
    sleep(100);
    for k in 1..=8 {
        let t = k as f32 / 8.0;
        let p = (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t);
        x.xdotool(&["mousemove", &px(p.0), &px(p.1)]);
        sleep(40);
    }
    x.xdotool(&["mouseup", "1"]);
}

fn marked(s: &Value) -> bool {
    s["title"].as_str().unwrap().starts_with(UNSAVED_MARK)
}

#[test]
fn undo_back_to_the_saved_state_clears_the_unsaved_mark_and_the_menu_bar_shows_it() {
    let Some((x, dir, scene)) = setup("mark") else {
        return;
    };
    let w = Window::open(&x, &dir, &scene);
    let state = canvas_ready(&w);
    let from = to_screen(&state, [3.0, 0.0]);
    drag(&x, from, (from.0 + 40.0, from.1));
    let s = w.wait_for(|s| s["dirty"] == true, "an unsaved change");
    assert!(marked(&s), "{}", s["title"]);
    // The menu bar shows the title in red with the mark: take a screenshot of it.
    press(&x, "F12");
    let shot = dir.join("collision-lab-001.png");
    let start = std::time::Instant::now();
    while !shot.exists() && start.elapsed().as_secs() < 15 {
        sleep(100);
    }
    sleep(300);
    let pic = Picture::open(&shot);
    let red = pic
        .image
        .enumerate_pixels()
        .filter(|(_, y, p)| *y < 30 && p[0] > 150 && p[1] < 90 && p[2] < 90)
        .count();
    assert!(
        red > 20,
        "the red, marked title in the menu bar ({red} pixels)"
    );
    press(&x, "ctrl+z");
    let s = w.wait_for(|s| s["dirty"] == false, "undo to the opened state");
    assert!(!marked(&s), "{}", s["title"]);
    press(&x, "ctrl+shift+z");
    w.wait_for(|s| s["dirty"] == true, "redo marks it again");
    press(&x, "ctrl+s");
    w.wait_for(|s| s["dirty"] == false, "the save");
    let s = w.state().unwrap();
    let from = to_screen(&s, [3.5, 0.0]);
    drag(&x, from, (from.0, from.1 + 40.0));
    w.wait_for(|s| s["dirty"] == true, "another change");
    press(&x, "ctrl+z");
    let s = w.wait_for(|s| s["dirty"] == false, "undo to the saved state");
    assert!(!marked(&s));
    press(&x, "ctrl+z");
    w.wait_for(|s| s["dirty"] == true, "undo past the save is unsaved");
}

#[test]
fn home_and_end_jump_to_the_first_and_last_step() {
    let Some((x, dir, scene)) = setup("home") else {
        return;
    };
    let w = Window::open(&x, &dir, &scene);
    let s = w.wait_for(|s| s["timeline"].is_array(), "the timeline");
    let n = s["timeline"][0].as_u64().unwrap();
    assert!(n >= 2, "GJK has steps here");
    hover_canvas(&x, &s);
    press(&x, "Home");
    w.wait_for(|s| s["timeline"][1] == 0, "Home: the first step");
    press(&x, "Right");
    w.wait_for(|s| s["timeline"][1] == 1, "Right: the second step");
    press(&x, "End");
    w.wait_for(|s| s["timeline"][1] == n - 1, "End: the last step");
    press(&x, "Home");
    w.wait_for(|s| s["timeline"][1] == 0, "Home again");
}

/// Opens File and clicks `entry`, hovering each submenu of `via` on the way.
fn file_menu(x: &XServer, w: &Window, via: &[&str], entry: &str) {
    let s = w.wait_for(|s| s["widgets"]["menu:file"].is_array(), "the File menu");
    click_at(x, widget_center(&s, "menu:file"));
    for sub in via {
        let s = w.wait_for(|s| s["widgets"][sub].is_array(), sub);
        let r = &s["widgets"][sub];
        let f = |i: usize| r[i].as_f64().unwrap() as f32;
        // In from the left, then along the row to its right end, where the submenu opens.
        let y = px(f(1) + f(3) / 2.0);
        x.xdotool(&["mousemove", &px(f(0) + 10.0), &y]);
        sleep(300);
        x.xdotool(&["mousemove", &px(f(0) + f(2) - 6.0), &y]);
        sleep(400);
    }
    let s = w.wait_for(|s| s["widgets"][entry].is_array(), entry);
    let r = &s["widgets"][entry];
    let f = |i: usize| r[i].as_f64().unwrap() as f32;
    // Straight across into the submenu, along the row, so no other entry is crossed.
    x.xdotool(&["mousemove", &px(f(0) + 8.0), &px(f(1) + f(3) / 2.0)]);
    sleep(300);
    x.xdotool(&["click", "1"]);
}

#[test]
fn file_examples_lists_scenes_by_topic_and_opens_them() {
    let Some((x, dir, scene)) = setup("examples") else {
        return;
    };
    let w = Window::open(&x, &dir, &scene);
    canvas_ready(&w);
    let via = ["menu:examples", "menu:topic:Sweep"];
    file_menu(&x, &w, &via, "menu:example:sweep_tunnelling");
    let s = w.wait_for(
        |s| {
            s["title"]
                .as_str()
                .unwrap()
                .starts_with("sweep_tunnelling.ron (example)")
        },
        "the example",
    );
    assert!(s["load_error"].is_null());
    // A 3D example opens in the 3D workspace.
    let via = ["menu:examples", "menu:topic:ThreeD"];
    file_menu(&x, &w, &via, "menu:example:3d/welcome");
    let s = w.wait_for(|s| s["dimensions"] == 3, "the 3D workspace");
    assert!(s["load_error"].is_null(), "{s}");
    assert!(s["title"]
        .as_str()
        .unwrap()
        .starts_with("3d/welcome.ron (example)"));
    assert_eq!(s["bodies"].as_array().unwrap().len(), 4);
}

#[test]
fn recorded_expectations_and_the_overlays_are_saved_and_check_passes_on_the_file() {
    let Some((x, dir, scene)) = setup("record") else {
        return;
    };
    let w = Window::open(&x, &dir, &scene);
    let s = w.wait_for(|s| s["widgets"]["overlay:sat"].is_array(), "the panels");
    click_at(&x, widget_center(&s, "overlay:sat"));
    w.wait_for(|s| s["overlays"]["sat"] == true, "SAT on");
    file_menu(&x, &w, &["menu:record"], "menu:record:focused");
    let s = w.wait_for(|s| s["expect"] == 1, "one expectation recorded");
    assert_eq!(s["dirty"], true, "recording is an unsaved change");
    assert!(
        status(&s).contains("Recorded left vs right"),
        "{}",
        status(&s)
    );
    hover_canvas(&x, &s);
    press(&x, "ctrl+s");
    w.wait_for(|s| s["dirty"] == false, "the save");
    let text = std::fs::read_to_string(&scene).unwrap();
    let (saved, _): (Scene, _) = load_scene_file(&scene).unwrap();
    assert_eq!(
        saved.overlays.as_deref(),
        Some(&[Algorithm::Gjk, Algorithm::Sat][..]),
        "{text}"
    );
    assert_eq!(saved.focus, Some(("left".into(), "right".into())));
    let e = &saved.expect[0];
    assert_eq!((e.a.as_str(), e.b.as_str()), ("left", "right"));
    assert_eq!(e.intersecting, Some(false));
    assert!((e.distance.unwrap() - 4.0).abs() < 1e-5, "{e:?}");
    assert_eq!(e.contacts, Some(0));
    // The saved scene is a regression test that passes.
    let check = Command::new(BIN).arg("check").arg(&scene).output().unwrap();
    let out = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{out}");
    assert!(out.contains("1 passed, 0 failed"), "{out}");
    // Undo takes the expectation back out.
    press(&x, "ctrl+z");
    w.wait_for(|s| s["expect"] == 0, "undo of the recording");
}

#[test]
fn file_export_slides_writes_one_picture_per_step_of_the_timeline() {
    let Some((x, dir, scene)) = setup("slides") else {
        return;
    };
    let w = Window::open(&x, &dir, &scene);
    let s = w.wait_for(|s| s["timeline"].is_array(), "the timeline");
    let (n, k) = (s["timeline"][0].as_u64().unwrap(), s["timeline"][1].clone());
    file_menu(&x, &w, &[], "menu:slides");
    let s = w.wait_for(|s| status(s).starts_with("Wrote"), "the slides");
    let folder: PathBuf = dir.join("lesson-slides");
    assert!(
        status(&s).contains(&format!("Wrote {n} slides of GJK")),
        "{}",
        status(&s)
    );
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let expected: Vec<String> = (1..=n).map(|k| format!("gjk-{k}.png")).collect();
    assert_eq!(names, expected);
    // A slide is the whole window: the canvas without the panels, captioned.
    let slide = Picture::open(&folder.join("gjk-1.png"));
    assert!(slide.size().0 >= 1000, "{:?}", slide.size());
    assert_eq!(s["timeline"][1], k, "the timeline is back where it was");
}

#[test]
fn the_share_button_gives_a_link_that_open_link_writes_back_as_the_edited_scene() {
    let Some((x, dir, scene)) = setup("share") else {
        return;
    };
    let w = Window::open(&x, &dir, &scene);
    let s = w.wait_for(|s| s["widgets"]["overlay:sat"].is_array(), "the panels");
    // An edit first (SAT on), so the link carries the window's scene, not the file's.
    click_at(&x, widget_center(&s, "overlay:sat"));
    let s = w.wait_for(|s| s["overlays"]["sat"] == true, "SAT on");
    click_at(&x, widget_center(&s, "menu:share-button"));
    let s = w.wait_for(|s| s["share"].is_string(), "the share link");
    let link = s["share"].as_str().unwrap().to_string();
    assert!(
        link.starts_with("http://localhost:8000/#s1="),
        "the desktop's links use the README's address: {link}"
    );
    click_at(&x, widget_center(&s, "share:copy"));
    w.wait_for(|s| status(s) == "Link copied", "the copy");
    let out = dir.join("from-link.ron");
    let back = Command::new(BIN)
        .args(["open-link", &link, "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        back.status.success(),
        "{}",
        String::from_utf8_lossy(&back.stderr)
    );
    let (shared, _): (Scene, _) = load_scene_file(&out).unwrap();
    assert_eq!(
        shared.overlays.as_deref(),
        Some(&[Algorithm::Gjk, Algorithm::Sat][..]),
        "the link holds the overlays as shown"
    );
    assert_eq!(shared.bodies.len(), 3);
    assert_eq!(shared.title.as_deref(), Some("files test"));
    let file = std::fs::read_to_string(&scene).unwrap();
    assert!(
        file.contains("overlays: [Gjk]"),
        "sharing is not saving: the file is as it was\n{file}"
    );
}
