//! The split view in the real window, driven with xdotool under Xvfb: V splits the canvas
//! into two equal halves (bodies | A - B), the wheel and a drag over the A - B half zoom and
//! pan it without touching the bodies' view, F hands its framing back, and V again joins
//! the halves. Skipped (with a message) without Xvfb and xdotool, unless
//! COLLISION_LAB_REQUIRE_X=1.

mod window_common;

use collision_lab::app::draw::palette;
use serde_json::Value;
use std::time::Duration;
use window_common::*;

const SCENE: &str = r#"(
    version: 1,
    title: "split test",
    bodies: [
        (name: "a", shape: Box(half_extents: (2.0, 1.0)), position: (0.0, 0.0)),
        (name: "b", shape: Box(half_extents: (1.0, 1.0)), position: (2.5, 1.5), angle: 10.0),
    ],
    view: (center: (0.0, 0.0), zoom: 40.0),
    overlays: [Minkowski, Gjk],
)"#;

fn pause(ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
}

fn px(v: f64) -> String {
    format!("{}", v.round() as i32)
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

fn key(x: &XServer, k: &str) {
    pause(150);
    x.xdotool(&["key", k]);
}

#[test]
fn v_splits_the_canvas_and_each_half_zooms_and_pans_on_its_own() {
    if !have(&["Xvfb", "xdotool"]) {
        return;
    }
    let dir = temp_dir("split");
    let scene = dir.join("split.ron");
    std::fs::write(&scene, SCENE).unwrap();
    let x = XServer::start();
    let w = Window::open(&x, &dir, &scene);
    let before = w.wait_for(|s| s["widgets"]["overlay:sat"].is_array(), "the panels");
    assert!(before["split"].is_null(), "the inset by default");
    let full_width = f(&before["canvas"][2]);
    // Click on an empty spot of the canvas so the keys go to it, then split.
    let empty = to_screen(&before, [-6.0, -5.0]);
    x.xdotool(&["mousemove", &px(empty.0 as f64), &px(empty.1 as f64)]);
    key(&x, "v");
    let s = w.wait_for(|s| s["split"].is_object(), "the split view");
    let left = &s["canvas"];
    let right = &s["split"]["canvas"];
    assert_eq!(f(&left[2]), f(&right[2]), "equal halves");
    assert!(
        f(&left[2]) > 0.45 * full_width,
        "each half about half the canvas"
    );
    assert!(
        f(&right[0]) >= f(&left[0]) + f(&left[2]),
        "A - B on the right"
    );
    // The wheel over the A - B half zooms it, not the bodies' view.
    let mid = (
        f(&right[0]) + f(&right[2]) / 2.0,
        f(&right[1]) + f(&right[3]) / 2.0,
    );
    x.xdotool(&["mousemove", &px(mid.0), &px(mid.1)]);
    pause(200);
    x.xdotool(&["click", "--repeat", "3", "--delay", "50", "4"]);
    let zoomed = w.wait_for(
        |z| f(&z["split"]["zoom"]) > f(&s["split"]["zoom"]) * 1.2,
        "the A - B half to zoom",
    );
    assert_eq!(zoomed["camera"], s["camera"], "the bodies' view stays");
    // A drag there pans it; no body moves.
    x.xdotool(&["mousedown", "1"]);
    for k in 1..=8 {
        x.xdotool(&["mousemove", &px(mid.0 - 10.0 * k as f64), &px(mid.1)]);
        pause(40);
    }
    x.xdotool(&["mouseup", "1"]);
    let panned = w.wait_for(
        |p| f(&p["split"]["center"][0]) > f(&zoomed["split"]["center"][0]) + 0.1,
        "the A - B half to pan",
    );
    assert_eq!(panned["bodies"], before["bodies"], "nothing was edited");
    assert_eq!(panned["dirty"], false);
    // The screenshot shows A - B on the right half, the bodies on the left.
    key(&x, "F12");
    let shot = wait_for_file(&dir);
    let pic = Picture::open(&shot);
    let (l, r) = (&panned["canvas"], &panned["split"]["canvas"]);
    let in_rect = |rect: &Value, c| {
        let (x0, y0) = (f(&rect[0]) as u32, f(&rect[1]) as u32);
        let (w_, h_) = (f(&rect[2]) as u32, f(&rect[3]) as u32);
        let mut n = 0;
        for y in (y0..y0 + h_).step_by(2) {
            for x_ in (x0..x0 + w_).step_by(2) {
                let p = pic.image.get_pixel(x_, y);
                let t = rgb(c);
                if (0..3).all(|i| p[i].abs_diff(t[i]) <= 30) {
                    n += 1;
                }
            }
        }
        n
    };
    assert!(
        in_rect(r, palette::MINKOWSKI) > 100,
        "A - B on the right half"
    );
    assert!(in_rect(l, palette::BODY_A) > 50, "body A on the left half");
    // F fits the bodies and hands the A - B framing back; V joins the halves again.
    key(&x, "f");
    w.wait_for(
        |p| f(&p["split"]["zoom"]) < f(&zoomed["split"]["zoom"]),
        "the A - B half framed again",
    );
    key(&x, "v");
    let joined = w.wait_for(|j| j["split"].is_null(), "the inset back");
    // (The side panels may have changed width meanwhile: compare with the last halves.)
    let halves = f(&panned["canvas"][2]) + f(&panned["split"]["canvas"][2]);
    assert!(
        f(&joined["canvas"][2]) >= halves,
        "the bodies' view takes the whole canvas again: {} vs {halves}",
        joined["canvas"]
    );
}

fn wait_for_file(dir: &std::path::Path) -> std::path::PathBuf {
    let start = std::time::Instant::now();
    loop {
        let found = std::fs::read_dir(dir).ok().and_then(|entries| {
            entries.filter_map(|e| e.ok()).map(|e| e.path()).find(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("collision-lab-"))
                    && p.extension().is_some_and(|e| e == "png")
            })
        });
        if let Some(p) = found {
            pause(200);
            return p;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "no screenshot");
        pause(100);
    }
}
