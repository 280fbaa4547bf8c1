//! Drives the Scan window under Xvfb with xdotool, as someone hunting a flip does: View >
//! Scan, Scan, then "go after" on an event moves the body to the far side of the flip (one
//! undoable edit) and the Results follow; Ctrl+Z puts it back. Skipped (with a message)
//! without Xvfb and xdotool, unless COLLISION_LAB_REQUIRE_X=1.

mod window_common;

use serde_json::Value;
use std::time::Duration;
use window_common::*;

/// Two unit boxes; B starts over A's top right corner, overlapping by 0.5 in x and 0.2 in y
/// (B at (1.5, 1.8)). Moving B along x from -2 to 2 (the Scan window's default range),
/// SAT's smallest overlap is y's (0.2) while |x| > 1.8 and x's (2 - |x|) between: the
/// normal flips at x = -1.8 and x = 1.8. (A's and B's parallel sides tie on the x axis as
/// well, so the winning axis also swaps between them where rounding tips the tie: events
/// without a normal change, which this test passes over.)
const SCENE: &str = r#"(
    version: 1,
    title: "scan test",
    bodies: [
        (name: "a", shape: Box(half_extents: (1.0, 1.0))),
        (name: "b", shape: Box(half_extents: (1.0, 1.0)), position: (1.5, 1.8)),
    ],
    focus: ("a", "b"),
    view: (center: (0.0, 1.0), zoom: 60.0),
    overlays: [Sat],
)"#;

fn sleep(ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
}

fn b_position(s: &Value) -> (f64, f64) {
    let p = &s["bodies"][1]["position"];
    (p[0].as_f64().unwrap(), p[1].as_f64().unwrap())
}

#[test]
fn go_after_moves_the_body_across_the_flip_and_undo_brings_it_back() {
    if !have(&["Xvfb", "xdotool"]) {
        return;
    }
    let dir = temp_dir("scan-window");
    let scene = dir.join("scan.ron");
    std::fs::write(&scene, SCENE).unwrap();
    let x = XServer::start();
    let w = Window::open(&x, &dir, &scene);
    let s = w.wait_for(|s| s["widgets"]["menu:view"].is_array(), "the menu");
    click_widget(&x, &s, "menu:view");
    let s = w.wait_for(|s| s["widgets"]["menu:view:scan"].is_array(), "View > Scan");
    click_widget(&x, &s, "menu:view:scan");
    x.xdotool(&["key", "Escape"]);
    let s = w.wait_for(|s| s["widgets"]["scan:go"].is_array(), "the Scan window");
    sleep(300);
    click_widget(&x, &s, "scan:go");
    let s = w.wait_for(
        |s| {
            s["scan"]["result"]["events"]
                .as_array()
                .is_some_and(|e| !e.is_empty())
                && s["widgets"]["scan:event:2:after"].is_array()
        },
        "a finished scan with events",
    );
    let events = s["scan"]["result"]["events"].as_array().unwrap().clone();
    assert_eq!(s["scan"]["result"]["samples"], 1000);
    let k = events
        .iter()
        .position(|e| e["what"].as_array().unwrap().iter().any(|w| w == "normal"))
        .expect("a normal flip");
    let first = &events[k];
    let (lo, hi) = (first["lo"].as_f64().unwrap(), first["hi"].as_f64().unwrap());
    assert!(
        lo <= -1.8 + 1e-5 && hi >= -1.8 - 1e-5 && hi - lo < 1e-5,
        "the first flip is at x = -1.8 (SAT's x and y overlaps equal): [{lo}, {hi}]"
    );
    let what: Vec<&str> = first["what"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        what.contains(&"normal") && what.contains(&"axis"),
        "{what:?}"
    );
    let before = b_position(&s);
    sleep(300);
    click_widget(&x, &s, &format!("scan:event:{k}:after"));
    let s = w.wait_for(
        |s| (b_position(s).0 - hi).abs() < 1e-6,
        "B at the event's far side",
    );
    assert_eq!(b_position(&s).1, before.1, "only x moves");
    assert_eq!(s["dirty"], true, "a move is an edit");
    // One undo puts B back where it was before the move.
    let c = to_screen(&s, [0.0, -3.0]);
    x.xdotool(&[
        "mousemove",
        &format!("{}", c.0 as i32),
        &format!("{}", c.1 as i32),
    ]);
    sleep(200);
    x.xdotool(&["key", "ctrl+z"]);
    let s = w.wait_for(|s| b_position(s) == before, "B back after one undo");
    // Save both sides: two regression scenes beside the scene, each passing `check`.
    click_widget(&x, &s, &format!("scan:event:{k}:save"));
    let s = w.wait_for(
        |s| s["status"].as_str().is_some_and(|t| t.starts_with("Wrote")),
        "the sides written",
    );
    let folder = dir.join("scan-scan");
    let written: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(written.len(), 2, "{:?} ({})", written, s["status"]);
    let check = std::process::Command::new(BIN)
        .arg("check")
        .arg(&folder)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{out}");
    assert!(out.contains("2 passed, 0 failed"), "{out}");
}
