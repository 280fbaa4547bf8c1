//! Snapping while dragging, driven with xdotool under Xvfb: a body dragged near another
//! body's edge lands exactly touching it (checked with `query` on the saved file), the
//! snapped edge is highlighted in the screenshot, and holding Alt drags freely. Skipped
//! (with a message) without Xvfb and xdotool, unless COLLISION_LAB_REQUIRE_X=1.

mod window_common;

use collision_lab::app::draw::palette;
use serde_json::Value;
use std::path::Path;
use std::time::Duration;
use window_common::*;

/// A wall (x in [-1, 1]) and a square turned 45 degrees whose left corner is at
/// x = 3 - 0.6 * sqrt(2) = 2.1515.
const SCENE: &str = r#"(
    version: 1,
    title: "snap test",
    bodies: [
        (name: "wall", shape: Box(half_extents: (1.0, 1.0)), position: (0.0, 0.0)),
        (name: "gem", shape: Box(half_extents: (0.6, 0.6)), position: (3.0, 0.3), angle: 45.0),
    ],
    view: (center: (0.0, 0.0), zoom: 40.0),
    overlays: [Gjk],
)"#;

const HALF_DIAGONAL: f32 = 0.6 * std::f32::consts::SQRT_2;

fn body_x(state: &Value, i: usize) -> f32 {
    state["bodies"][i]["position"][0].as_f64().unwrap() as f32
}

/// Pixels per unit: the scene's view is a region, fitted to the canvas the window has.
fn zoom(state: &Value) -> f32 {
    state["camera"]["zoom"].as_f64().unwrap() as f32
}

fn pause(ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
}

fn px(v: f32) -> String {
    format!("{}", v.round() as i32)
}

/// Presses at `from`, moves to `to` in steps and keeps the button held.
fn drag_and_hold(x: &XServer, from: (f32, f32), to: (f32, f32), alt: bool) {
    x.xdotool(&["mousemove", &px(from.0), &px(from.1)]);
    pause(150);
    x.xdotool(&["mousedown", "1"]);
    pause(100);
    if alt {
        x.xdotool(&["keydown", "alt"]);
        pause(60);
    }
    for k in 1..=10 {
        let t = k as f32 / 10.0;
        let (mx, my) = (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t);
        x.xdotool(&["mousemove", &px(mx), &px(my)]);
        pause(40);
    }
    pause(200);
}

fn release(x: &XServer, alt: bool) {
    x.xdotool(&["mouseup", "1"]);
    if alt {
        pause(60);
        x.xdotool(&["keyup", "alt"]);
    }
    pause(100);
}

fn query_json(scene: &Path) -> Value {
    let mut cmd = std::process::Command::new(BIN);
    cmd.args(["query", "--json"]).arg(scene);
    let out = run_with_timeout(&mut cmd, Duration::from_secs(30));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn screenshot(dir: &Path) -> Option<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("collision-lab-"))
                && p.extension().is_some_and(|e| e == "png")
        })
}

#[test]
fn dragging_a_corner_near_an_edge_snaps_to_exact_touching_and_alt_drags_freely() {
    if !have(&["Xvfb", "xdotool"]) {
        return;
    }
    let dir = temp_dir("snap");
    let scene = dir.join("snap.ron");
    std::fs::write(&scene, SCENE).unwrap();
    let x = XServer::start();
    let w = Window::open(&x, &dir, &scene);
    let state = w.wait_for(
        |s| s["canvas"][2].as_f64().unwrap_or(0.0) > 100.0,
        "a laid-out canvas",
    );
    // Drag the gem 1.1 units left: its corner would stop 0.05 (a few pixels) short of the
    // wall's right edge; the snap closes the gap.
    let from = to_screen(&state, [3.0, 0.3]);
    let to = (from.0 - 1.1 * zoom(&state), from.1);
    drag_and_hold(&x, from, to, false);
    let during = aim(&x, &w, to);
    let corner = body_x(&during, 1) - HALF_DIAGONAL;
    assert!(
        (corner - 1.0).abs() < 1e-5,
        "the corner lands on the wall's edge: {corner}"
    );
    x.xdotool(&["key", "F12"]);
    let shot = {
        let start = std::time::Instant::now();
        loop {
            if let Some(p) = screenshot(&dir) {
                break p;
            }
            assert!(start.elapsed() < Duration::from_secs(20), "no screenshot");
            pause(100);
        }
    };
    release(&x, false);
    let moved = settled(&w);
    assert_eq!(
        body_x(&moved, 1),
        body_x(&during, 1),
        "the release keeps it"
    );
    // The screenshot (taken while dragging) highlights the snapped edge x = 1.
    let pic = Picture::open(&shot);
    for y in [-0.6, 0.9] {
        let p = to_screen(&during, [1.0, y]);
        assert!(
            pic.count_near(p.0, p.1, 3.0, palette::SELECTION, 40) > 3,
            "the wall's right edge highlighted at {p:?} in {}",
            shot.display()
        );
    }
    // Saved, the file's pair touches exactly: distance 0 and no depth.
    press_keys(&x, &["ctrl", "s"]);
    w.wait_for(|s| s["dirty"] == false, "the save");
    let q = query_json(&scene);
    let pair = &q["pairs"][0];
    let distance = pair["gjk"]["distance"].as_f64().unwrap();
    assert!(distance.abs() <= 1e-6, "distance {distance}");
    let depth = pair["epa"]["depth"].as_f64().unwrap_or(0.0);
    assert!(
        depth.abs() <= 1e-6,
        "depth {depth}: touching, not overlapping"
    );
    // Undo, then the same drag with Alt held: no snap, the 2-pixel gap stays.
    press_keys(&x, &["ctrl", "z"]);
    w.wait_for(|s| (body_x(s, 1) - 3.0).abs() < 1e-4, "undo");
    drag_and_hold(&x, from, to, true);
    aim(&x, &w, to);
    release(&x, true);
    let free = settled(&w);
    let corner = body_x(&free, 1) - HALF_DIAGONAL;
    assert!(
        corner > 1.02 && corner < 1.09,
        "with Alt the corner stops where the pointer put it: {corner}"
    );
}

/// With the button held, moves the pointer until the unsnapped gem's corner would sit at
/// x = 1.05 (the side panels may change width while dragging, which shifts the canvas under
/// the pointer); returns the settled state.
fn aim(x: &XServer, w: &Window, mut at: (f32, f32)) -> Value {
    for _ in 0..6 {
        let s = settled(w);
        let corner = body_x(&s, 1) - HALF_DIAGONAL;
        let off = 1.05 - corner;
        if (corner - 1.0).abs() < 1e-5 || off.abs() < 0.015 {
            return s;
        }
        at.0 += off * zoom(&s);
        x.xdotool(&["mousemove", &px(at.0), &px(at.1)]);
    }
    settled(w)
}

/// The window's state once the gem has stopped moving (the pointer events of a drag may
/// still be arriving when the first moved state is written).
fn settled(w: &Window) -> Value {
    let mut last = w.state().unwrap();
    let mut same_since = std::time::Instant::now();
    let start = std::time::Instant::now();
    while same_since.elapsed() < Duration::from_millis(600) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the gem never settles"
        );
        pause(50);
        let now = w.state().unwrap_or_else(|| last.clone());
        if body_x(&now, 1) != body_x(&last, 1) {
            same_since = std::time::Instant::now();
        }
        last = now;
    }
    last
}

fn press_keys(x: &XServer, keys: &[&str]) {
    pause(150);
    for k in keys {
        x.xdotool(&["keydown", k]);
        pause(40);
    }
    for k in keys.iter().rev() {
        x.xdotool(&["keyup", k]);
        pause(40);
    }
}
