//! The projector, driven at 1280x720 under Xvfb with xdotool (issue 39): a scene's saved
//! view is a region of the world fitted to the canvas that opens it, so
//! `clip_reference_flip.ron` (saved at 295 px/unit on a larger canvas) shows its whole
//! diamond at UI scale 1.5 and 2; the legend folds into a one-line button rather than cover
//! the focused pair, and a click opens and folds it; presentation mode (F5) gives the
//! bodies the whole canvas while no overlay draws on A - B, and splits again once one does.
//! Skipped (with a message) without Xvfb and xdotool, unless COLLISION_LAB_REQUIRE_X=1.

mod window_common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;
use window_common::*;

const SCREEN: &str = "1280x720x24";

fn scene(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(name)
}

fn f(v: &Value) -> f32 {
    v.as_f64().unwrap() as f32
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

/// `[x0, y0, x1, y1]` of the folded legend's button (or the legend opened from it).
fn legend_toggle(s: &Value) -> Option<[f32; 4]> {
    let r = s["legend_fold"]["toggle"].as_array()?;
    Some([0, 1, 2, 3].map(|i| f(&r[i])))
}

/// The screen boxes `[x0, y0, x1, y1]` of clip_reference_flip's diamond (a unit square
/// turned 45 degrees at the origin: corners at +-sqrt(2)/2 on the axes) and block (x from
/// 0.5 to 2.5, y from -0.5 to 0.5), from the camera the window reports.
fn pair_boxes(s: &Value) -> [[f32; 4]; 2] {
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let boxed = |lo: [f32; 2], hi: [f32; 2]| {
        let (a, b) = (to_screen(s, [lo[0], hi[1]]), to_screen(s, [hi[0], lo[1]]));
        [a.0, a.1, b.0, b.1]
    };
    [boxed([-h, -h], [h, h]), boxed([0.5, -0.5], [2.5, 0.5])]
}

fn overlaps(a: [f32; 4], b: [f32; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

#[test]
fn clip_reference_flip_shows_its_whole_pair_at_a_projector_scale_and_folds_the_legend() {
    if !have(&["Xvfb", "xdotool"]) {
        return;
    }
    for scale in ["1.5", "2"] {
        let dir = temp_dir(&format!("projector-{scale}"));
        let x = XServer::start_sized(SCREEN);
        let w = Window::open_with_env(
            &x,
            &dir,
            &scene("clip_reference_flip.ron"),
            &[("COLLISION_LAB_UI_SCALE", scale)],
        );
        // The saved region, 3.48 x 2.57 units about (0.9, 0), fitted: the zoom is the
        // smaller of width / 3.48 and height / 2.57, centred on (0.9, 0).
        let s = w.wait_for(
            |s| {
                let c = &s["canvas"];
                let fit = (f(&c[2]) / 3.48).min(f(&c[3]) / 2.57);
                f(&c[2]) > 100.0
                    && (f(&s["camera"]["zoom"]) / fit - 1.0).abs() < 1e-4
                    && legend_toggle(s).is_some()
            },
            "the saved region fitted to the canvas, the legend folded",
        );
        assert_eq!(s["camera"]["center"][0].as_f64().unwrap() as f32, 0.9);
        let c = [0, 1, 2, 3].map(|i| f(&s["canvas"][i]));
        let canvas = [c[0], c[1], c[0] + c[2], c[1] + c[3]];
        let pair = pair_boxes(&s);
        for b in pair {
            assert!(
                b[0] >= canvas[0] && b[1] >= canvas[1] && b[2] <= canvas[2] && b[3] <= canvas[3],
                "scale {scale}: the body {b:?} lies inside the canvas {canvas:?}"
            );
        }
        // Both top corners would cover the pair: the legend is a one-line button, clear of it.
        let button = legend_toggle(&s).unwrap();
        assert!(button[3] - button[1] < 60.0, "one line: {button:?}");
        for b in pair {
            assert!(
                !overlaps(button, b),
                "scale {scale}: {button:?} covers {b:?}"
            );
        }
        // A click opens it (the click edits nothing underneath), a second folds it.
        let centre = |r: [f32; 4]| ((r[0] + r[2]) / 2.0, (r[1] + r[3]) / 2.0);
        click_at(&x, centre(button));
        let open = w.wait_for(|s| s["legend_fold"]["open"] == true, "the legend to open");
        let opened = legend_toggle(&open).unwrap();
        assert!(
            opened[3] - opened[1] > 3.0 * (button[3] - button[1]),
            "{opened:?}"
        );
        assert_eq!(open["selected"], Value::Null, "the click selected nothing");
        assert!(!open["dirty"].as_bool().unwrap());
        click_at(&x, (opened[0] + 20.0, opened[1] + 10.0));
        w.wait_for(
            |s| s["legend_fold"]["open"] == false,
            "the legend to fold again",
        );
    }
}

#[test]
fn presentation_mode_gives_the_bodies_the_whole_canvas_until_an_overlay_draws_on_a_minus_b() {
    if !have(&["Xvfb", "xdotool"]) {
        return;
    }
    let dir = temp_dir("projector-present");
    let x = XServer::start_sized(SCREEN);
    let w = Window::open_with_env(
        &x,
        &dir,
        &scene("clip_reference_flip.ron"),
        &[("COLLISION_LAB_UI_SCALE", "2")],
    );
    let s = w.wait_for(
        |s| f(&s["canvas"][2]) > 100.0 && s["widgets"]["overlay:gjk"].is_array(),
        "a laid-out window",
    );
    assert_eq!(s["overlays"]["clip"], true);
    assert_eq!(s["overlays"]["gjk"], false);
    // Only contact clipping is on: nothing draws on A - B, so F5 does not split.
    press(&x, "F5");
    let shown = w.wait_for(
        |s| {
            s["presentation"] == true
                && f(&s["canvas"][2]) > 1270.0
                && (f(&s["camera"]["center"][0]) - 0.8964).abs() < 0.01
        },
        "presentation mode over the whole window, the pair centred in it",
    );
    // Centred: the pair spans x from -sqrt(2)/2 (the diamond) to 2.5 (the block), whose
    // middle is 0.8964; no column is kept for an inset or a legend that are not drawn.
    assert_eq!(shown["split"], Value::Null, "no empty A - B half");
    press(&x, "F5");
    let back = w.wait_for(
        |s| s["presentation"] == false && s["widgets"]["overlay:gjk"].is_array(),
        "the panels back",
    );
    // GJK draws its simplex on A - B: now F5 splits.
    let r = &back["widgets"]["overlay:gjk"];
    click_at(&x, (f(&r[0]) + f(&r[2]) / 2.0, f(&r[1]) + f(&r[3]) / 2.0));
    w.wait_for(|s| s["overlays"]["gjk"] == true, "GJK on");
    press(&x, "F5");
    let split = w.wait_for(
        |s| s["presentation"] == true && s["split"].is_object(),
        "presentation mode split",
    );
    // The halves share the window: the bodies' half about half of 1280 pixels.
    let half = f(&split["canvas"][2]);
    assert!((half - 637.0).abs() < 8.0, "{half}");
}

/// In 3D too: at UI scale 2 on 1280x720 the legend of lesson 9 (two slabs filling the
/// middle of a small canvas) would cover them, so it folds into a one-line button; a click
/// opens it and another folds it, selecting nothing. At scale 1 on a 1600x1000 screen the
/// 3D welcome scene's legend stays unfolded in its corner.
#[test]
fn the_3d_legend_folds_rather_than_cover_the_pair_and_a_click_opens_it() {
    if !have(&["Xvfb", "xdotool"]) {
        return;
    }
    let x = XServer::start_sized(SCREEN);
    let dir = temp_dir("projector-3d-legend");
    let lesson = scene("lessons").join("09_contacts_3d.ron");
    let w = Window::open_with_env(&x, &dir, &lesson, &[("COLLISION_LAB_UI_SCALE", "2")]);
    let s = w.wait_for(|s| legend_toggle(s).is_some(), "the folded legend");
    let [x0, y0, x1, y1] = legend_toggle(&s).unwrap();
    // One line of text at scale 2: far shorter than the unfolded legend (about 600 px).
    assert!(y1 - y0 < 80.0, "a one-line button: {:?}", [x0, y0, x1, y1]);
    assert_eq!(s["legend_fold"]["open"], false);
    click_at(&x, ((x0 + x1) / 2.0, (y0 + y1) / 2.0));
    let s = w.wait_for(|s| s["legend_fold"]["open"] == true, "the legend opened");
    let [_, y0, _, y1] = legend_toggle(&s).unwrap();
    assert!(y1 - y0 > 200.0, "the whole legend: {y0}..{y1}");
    assert_eq!(s["selected"], Value::Null, "the click selected nothing");
    let [x0, y0, x1, _] = legend_toggle(&s).unwrap();
    click_at(&x, ((x0 + x1) / 2.0, y0 + 10.0));
    w.wait_for(
        |s| s["legend_fold"]["open"] == false,
        "the legend folded again",
    );
    drop(w);
    drop(x);
    let x = XServer::start();
    let dir = temp_dir("projector-3d-legend-1");
    let w = Window::open(&x, &dir, &scene("3d").join("welcome.ron"));
    let s = w.wait_for(|s| s["legend_fold"].is_object(), "the 3D welcome scene");
    std::thread::sleep(Duration::from_millis(500));
    let s = w.state().unwrap_or(s);
    assert_eq!(
        s["legend_fold"]["toggle"],
        Value::Null,
        "unfolded at scale 1"
    );
}
