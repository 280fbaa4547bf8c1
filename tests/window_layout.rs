//! The projector layout, driven at 1280x720 (a common projector) under Xvfb with xdotool:
//! the side panels leave the canvas half the window, presentation mode (F5) gives it the
//! whole width at UI scale 1 and 2, the step buttons hold still while stepping, and the
//! canvas keeps its size while a body is dragged. Widths are read from the pictures as well
//! as from the window's reported state. Skipped (with a message) without Xvfb and
//! xdotool, unless COLLISION_LAB_REQUIRE_X=1.

mod window_common;

use collision_lab::app::draw::palette;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;
use window_common::*;

const SCREEN: &str = "1280x720x24";

fn welcome() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/welcome.ron")
}

fn f(v: &Value) -> f32 {
    v.as_f64().unwrap() as f32
}

fn canvas(s: &Value) -> [f32; 4] {
    [0, 1, 2, 3].map(|i| f(&s["canvas"][i]))
}

/// The width the pictures get: the canvas, or both halves of the split view.
fn drawing_width(s: &Value) -> f32 {
    let c = canvas(s);
    match s["split"]["canvas"].as_array() {
        Some(r) => f(&r[0]) + f(&r[2]) - c[0],
        None => c[2],
    }
}

/// Every label lies wholly inside its own view (the bodies' canvas, the inset or the A - B
/// half), every view inside the window, and no label is smaller than `min_height`.
fn assert_labels_whole(s: &Value, min_height: f32) {
    let labels = s["labels"].as_array().unwrap();
    assert!(labels.len() >= 3, "labels: {labels:?}");
    for l in labels {
        let r = [0, 1, 2, 3].map(|i| f(&l["rect"][i]));
        let v = [0, 1, 2, 3].map(|i| f(&l["view"][i]));
        assert!(
            r[0] >= v[0] - 0.01
                && r[1] >= v[1] - 0.01
                && r[0] + r[2] <= v[0] + v[2] + 0.01
                && r[1] + r[3] <= v[1] + v[3] + 0.01,
            "whole: {l}"
        );
        assert!(v[0] >= 0.0 && v[1] >= 0.0 && v[0] + v[2] <= 1280.01 && v[1] + v[3] <= 720.01);
        assert!(r[3] >= min_height, "readable: {l}");
    }
}

fn px(v: f32) -> String {
    format!("{}", v.round() as i32)
}

fn press(x: &XServer, key: &str) {
    std::thread::sleep(Duration::from_millis(150));
    x.xdotool(&["keydown", key]);
    std::thread::sleep(Duration::from_millis(60));
    x.xdotool(&["keyup", key]);
}

fn click_at(x: &XServer, p: (f32, f32)) {
    x.xdotool(&["mousemove", &px(p.0), &px(p.1)]);
    std::thread::sleep(Duration::from_millis(150));
    x.xdotool(&["click", "1"]);
}

fn widget_center(s: &Value, name: &str) -> (f32, f32) {
    let r = &s["widgets"][name];
    (f(&r[0]) + f(&r[2]) / 2.0, f(&r[1]) + f(&r[3]) / 2.0)
}

/// Presses F12 with the pointer at `at` and opens the screenshot numbered `n`.
fn screenshot(x: &XServer, dir: &Path, n: u32, at: (f32, f32)) -> Picture {
    x.xdotool(&["mousemove", &px(at.0), &px(at.1)]);
    press(x, "F12");
    let shot = dir.join(format!("collision-lab-{n:03}.png"));
    let start = std::time::Instant::now();
    while !shot.exists() && start.elapsed().as_secs() < 15 {
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(shot.exists(), "F12 wrote {}", shot.display());
    Picture::open(&shot)
}

/// The canvas's horizontal extent as the picture shows it: the leftmost and rightmost
/// pixels of the canvas background (exactly its colour; egui's panels are grey, not
/// cream) on rows across the canvas's height.
fn canvas_extent_in_pixels(pic: &Picture, rows: std::ops::Range<u32>) -> (u32, u32) {
    let bg = rgb(palette::BACKGROUND);
    let (w, _) = pic.size();
    let (mut lo, mut hi) = (w, 0);
    for y in rows.step_by(7) {
        for x in 0..w {
            let p = pic.image.get_pixel(x, y);
            if (0..3).all(|c| p[c].abs_diff(bg[c]) <= 1) {
                lo = lo.min(x);
                hi = hi.max(x);
            }
        }
    }
    (lo, hi)
}

fn laid_out(w: &Window) -> Value {
    w.wait_for(
        |s| f(&s["canvas"][2]) > 100.0 && s["widgets"]["timeline:next"].is_array(),
        "a laid-out window",
    )
}

#[test]
fn at_1280x720_the_canvas_keeps_half_the_width_and_presentation_mode_takes_the_window() {
    if !have(&["Xvfb", "xdotool"]) {
        return;
    }
    let x = XServer::start_sized(SCREEN);
    let dir = temp_dir("layout-scale1");
    let w = Window::open(&x, &dir, &welcome());
    let s = laid_out(&w);
    assert_eq!(
        s["screen"],
        serde_json::json!([1280.0, 720.0]),
        "the window fits the screen"
    );
    let c = canvas(&s);
    assert!(
        c[2] >= 640.0,
        "the canvas keeps half the width with both panels: {c:?}"
    );
    let rows = (c[1] as u32 + 10)..(c[1] + c[3] * 0.5) as u32;
    let pic = screenshot(&x, &dir, 1, (c[0] + c[2] * 0.5, c[1] + 5.0));
    let (lo, hi) = canvas_extent_in_pixels(&pic, rows.clone());
    assert!(
        (lo as f32 - c[0]).abs() <= 3.0 && hi - lo + 1 >= 640,
        "the picture's canvas spans {lo}..{hi}; the window says {c:?}"
    );
    assert_labels_whole(&s, 8.0);
    // Presentation mode: no side panels, no legend; the bodies and A - B share the
    // window's width in equal halves.
    press(&x, "F5");
    let p = w.wait_for(
        |s| s["presentation"] == true && drawing_width(s) >= 1279.0,
        "presentation mode",
    );
    assert!(
        f(&p["split"]["canvas"][2]) >= 0.45 * 1280.0,
        "A - B has its half: {}",
        p["split"]
    );
    let pic = screenshot(&x, &dir, 2, (640.0, c[1] + 5.0));
    let (lo, hi) = canvas_extent_in_pixels(&pic, rows);
    assert!(
        lo <= 2 && hi >= 1277,
        "the picture's canvas spans {lo}..{hi}"
    );
    assert_labels_whole(&p, 8.0);
    // And back: the panels return, the split goes, and the canvas keeps half again.
    press(&x, "F5");
    w.wait_for(
        |s| {
            s["presentation"] == false
                && s["split"].is_null()
                && f(&s["canvas"][2]) >= 640.0
                && f(&s["canvas"][2]) < 1200.0
        },
        "the panels back",
    );
}

#[test]
fn at_ui_scale_2_presentation_mode_fills_the_window_with_readable_labels() {
    if !have(&["Xvfb", "xdotool"]) {
        return;
    }
    let x = XServer::start_sized(SCREEN);
    let dir = temp_dir("layout-scale2");
    let w = Window::open_with_env(&x, &dir, &welcome(), &[("COLLISION_LAB_UI_SCALE", "2")]);
    let s = laid_out(&w);
    let c = canvas(&s);
    // With both panels open at scale 2 the canvas still keeps half (it was 15 px).
    assert!(c[2] >= 600.0, "{c:?}");
    x.xdotool(&["mousemove", &px(c[0] + c[2] * 0.5), &px(c[1] + 5.0)]);
    press(&x, "F5");
    let p = w.wait_for(
        |s| s["presentation"] == true && drawing_width(s) >= 1279.0,
        "presentation mode",
    );
    let v = canvas(&p);
    assert!(
        v[3] >= 0.55 * 720.0,
        "the canvas takes most of the height: {v:?}"
    );
    assert!(
        f(&p["split"]["canvas"][2]) >= 0.45 * 1280.0,
        "A - B as large as the bodies"
    );
    let labels = p["labels"].as_array().unwrap();
    let texts: Vec<&str> = labels.iter().map(|l| l["text"].as_str().unwrap()).collect();
    assert!(
        texts.iter().any(|t| t.contains("hexagon")),
        "the bodies are named: {texts:?}"
    );
    // 15-point labels at scale 2: text about 20 px tall on its backing.
    assert_labels_whole(&p, 18.0);
    let pic = screenshot(&x, &dir, 1, (640.0, v[1] + 5.0));
    let (lo, hi) = canvas_extent_in_pixels(&pic, (v[1] as u32 + 10)..(v[1] + v[3] * 0.5) as u32);
    assert!(
        lo <= 2 && hi >= 1277,
        "the picture's canvas spans {lo}..{hi}"
    );
}

#[test]
fn two_clicks_on_next_advance_two_steps_and_the_canvas_holds_still_while_dragging() {
    if !have(&["Xvfb", "xdotool"]) {
        return;
    }
    let x = XServer::start_sized(SCREEN);
    let dir = temp_dir("layout-next");
    let w = Window::open(&x, &dir, &welcome());
    let s = laid_out(&w);
    click_at(&x, widget_center(&s, "timeline:first"));
    let first = w.wait_for(|s| s["timeline_step"]["step"] == 0, "the first step");
    assert!(first["timeline_step"]["count"].as_u64().unwrap() >= 3);
    // Two clicks at the same place: the sentence changes length in between, and neither
    // the button nor the canvas moves.
    let next = widget_center(&first, "timeline:next");
    click_at(&x, next);
    let one = w.wait_for(|s| s["timeline_step"]["step"] == 1, "one step on");
    assert_eq!(
        widget_center(&one, "timeline:next"),
        next,
        "the Next button stays put"
    );
    std::thread::sleep(Duration::from_millis(300));
    click_at(&x, next);
    let two = w.wait_for(|s| s["timeline_step"]["step"] == 2, "two steps on");
    assert_eq!(
        canvas(&two),
        canvas(&first),
        "the canvas holds still while stepping"
    );
    // Drag the quad about: the numbers in Results change width, the panels do not.
    let from = to_screen(&two, [0.8, -0.2]);
    x.xdotool(&["mousemove", &px(from.0), &px(from.1)]);
    std::thread::sleep(Duration::from_millis(150));
    x.xdotool(&["mousedown", "1"]);
    let mut seen = Vec::new();
    for k in 1..=12 {
        let dx = 9.0 * k as f32;
        x.xdotool(&["mousemove", &px(from.0 + dx), &px(from.1 + dx * 0.3)]);
        std::thread::sleep(Duration::from_millis(60));
        if let Some(s) = w.state() {
            seen.push(canvas(&s));
        }
    }
    x.xdotool(&["mouseup", "1"]);
    let after = w.wait_for(|s| s["dirty"] == true, "the drag");
    seen.push(canvas(&after));
    assert!(
        seen.iter().all(|c| *c == canvas(&first)),
        "the canvas (and so both panels) kept its size: {seen:?} vs {:?}",
        canvas(&first)
    );
}

#[test]
fn a_press_after_a_pause_acts_where_it_happened_not_where_the_pointer_went_next() {
    if !have(&["Xvfb", "xdotool"]) {
        return;
    }
    let x = XServer::start_sized(SCREEN);
    let dir = temp_dir("layout-press");
    let scene = dir.join("boxes.ron");
    std::fs::write(
        &scene,
        r#"(
    version: 1,
    bodies: [
        (name: "left", shape: Box(half_extents: (1.0, 1.0)), position: (-3.0, 0.0)),
        (name: "right", shape: Box(half_extents: (1.0, 1.0)), position: (3.0, 0.0)),
    ],
    view: (center: (0.0, 0.0), zoom: 40.0),
)"#,
    )
    .unwrap();
    let w = Window::open(&x, &dir, &scene);
    let s = laid_out(&w);
    click_at(&x, to_screen(&s, [-3.0, 0.0]));
    w.wait_for(|s| s["selected"] == 0, "the selection");
    let corner = to_screen(&s, [-2.0, 1.0]);
    let out = to_screen(&s, [-1.5, 1.5]);
    x.xdotool(&["mousemove", &px(corner.0), &px(corner.1)]);
    // The window goes idle (it sleeps between frames), then the press and the first move
    // come at once, as from a quick hand.
    std::thread::sleep(Duration::from_millis(1500));
    x.xdotool(&["mousedown", "1", "mousemove", &px(out.0), &px(out.1)]);
    std::thread::sleep(Duration::from_millis(300));
    x.xdotool(&["mouseup", "1"]);
    let s = w.wait_for(|s| s["dirty"] == true, "the edit");
    let core = s["selected_core"].as_array().unwrap();
    let moved = core
        .iter()
        .any(|p| (f(&p[0]) - 1.5).abs() < 0.15 && (f(&p[1]) - 1.5).abs() < 0.15);
    assert!(
        moved,
        "the corner was dragged: {core:?}; bodies {}",
        s["bodies"]
    );
}
