//! Drives the 3D workspace of a real window under Xvfb with xdotool, on the welcome scene
//! (`scenes/3d/welcome.ron`, copied into a temporary folder): orbiting moves the eye only,
//! dragging a body moves it and changes the Results (undo puts it back exactly), Ctrl+S
//! writes a file `collision-lab check` accepts, a bad edit on disk is reported with its
//! position while the last good scene stays, the view keys (2, O), and Ctrl+click picking
//! the focused pair's B. The window reports what it shows through COLLISION_LAB_STATE_FILE
//! (`test_state3`). The split view (V): A - B in the right half, orbited there on its own,
//! handed back to the bodies' camera by F. Skipped (with a message) without Xvfb and xdotool, unless
//! COLLISION_LAB_REQUIRE_X=1.

mod window_common;

use collision_lab::app::title::UNSAVED_MARK;
use collision_lab::scene::parse_scene3;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};
use window_common::*;

const GROUND: usize = 0;
const CRATE: usize = 1;
const COLUMN: usize = 2;
const GEM: usize = 3;

fn welcome() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/3d/welcome.ron");
    std::fs::read_to_string(path).unwrap()
}

fn setup(name: &str) -> Option<(XServer, PathBuf, PathBuf)> {
    if !have(&["Xvfb", "xdotool"]) {
        return None;
    }
    let dir = temp_dir(&format!("window3d-{name}"));
    let scene = dir.join("welcome.ron");
    std::fs::write(&scene, welcome()).unwrap();
    Some((XServer::start(), dir, scene))
}

/// The window on the welcome scene, its canvas laid out.
fn open(x: &XServer, dir: &Path, scene: &Path) -> (Window, Value) {
    let w = Window::open(x, dir, scene);
    let s = w.wait_for(
        |s| {
            s["dimensions"] == 3
                && s["canvas"][2].as_f64().unwrap_or(0.0) > 100.0
                && s["bodies"][CRATE]["screen"].is_array()
        },
        "the 3D canvas laid out",
    );
    (w, s)
}

fn sleep(ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
}

fn px(v: f32) -> String {
    format!("{}", v.round() as i32)
}

fn f(v: &Value) -> f32 {
    v.as_f64().unwrap_or(f64::NAN) as f32
}

fn vec3(v: &Value) -> [f32; 3] {
    [f(&v[0]), f(&v[1]), f(&v[2])]
}

fn eye(s: &Value) -> [f32; 3] {
    vec3(&s["camera"]["eye"])
}

fn target(s: &Value) -> [f32; 3] {
    vec3(&s["camera"]["target"])
}

fn position(s: &Value, i: usize) -> [f32; 3] {
    vec3(&s["bodies"][i]["position"])
}

/// Where body `i`'s centre is drawn, as the window reports it.
fn screen_of(s: &Value, i: usize) -> (f32, f32) {
    let p = &s["bodies"][i]["screen"];
    (f(&p[0]), f(&p[1]))
}

/// A point of the canvas at fractions (`u`, `v`) of its width and height.
fn canvas_point(s: &Value, u: f32, v: f32) -> (f32, f32) {
    let c = &s["canvas"];
    (f(&c[0]) + u * f(&c[2]), f(&c[1]) + v * f(&c[3]))
}

fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f32>().sqrt()
}

/// Every body's name, position and rotation (what an edit changes; not where it is drawn).
fn poses(s: &Value) -> Vec<Value> {
    s["bodies"]
        .as_array()
        .expect("the bodies")
        .iter()
        .map(|b| serde_json::json!([b["name"], b["position"], b["rotation"]]))
        .collect()
}

/// The state once the window has taken in all the input sent so far: the bodies and the
/// camera the same in two reports 150 ms apart (a frame comes every 16 ms while input
/// arrives).
fn settled(w: &Window, mut last: Value) -> Value {
    let view = |s: &Value| (poses(s), s["camera"].clone(), s["focus"].clone());
    for _ in 0..40 {
        sleep(150);
        let now = w.state().unwrap_or_else(|| last.clone());
        if view(&now) == view(&last) {
            return now;
        }
        last = now;
    }
    panic!("the window did not settle; last state: {last}");
}

fn marked(s: &Value) -> bool {
    s["title"]
        .as_str()
        .unwrap_or_default()
        .starts_with(UNSAVED_MARK)
}

/// A key combination pressed and released with pauses, as a person would.
fn press(x: &XServer, combo: &str) {
    let keys: Vec<&str> = combo.split('+').collect();
    sleep(100);
    for k in &keys {
        x.xdotool(&["keydown", k]);
        sleep(40);
    }
    for k in keys.iter().rev() {
        x.xdotool(&["keyup", k]);
        sleep(40);
    }
}

/// The pointer onto the canvas (keys then reach the window, not a panel).
fn hover(x: &XServer, at: (f32, f32)) {
    x.xdotool(&["mousemove", &px(at.0), &px(at.1)]);
    sleep(150);
}

/// Presses `button` at `from`, moves to `to` in steps, releases.
fn drag(x: &XServer, button: &str, from: (f32, f32), to: (f32, f32)) {
    hover(x, from);
    x.xdotool(&["mousedown", button]);
    sleep(100);
    for k in 1..=10 {
        let t = k as f32 / 10.0;
        let p = (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t);
        x.xdotool(&["mousemove", &px(p.0), &px(p.1)]);
        sleep(40);
    }
    sleep(100);
    x.xdotool(&["mouseup", button]);
}

/// Replaces the file's text and moves its modification time on, so the watcher sees a
/// change however quickly it follows the last one.
fn write_later(path: &Path, text: &str, seconds_later: u64) {
    std::fs::write(path, text).unwrap();
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() + Duration::from_secs(seconds_later))
        .unwrap();
}

#[test]
fn right_drag_orbits_the_eye_about_the_target_and_edits_nothing() {
    let Some((x, dir, scene)) = setup("orbit") else {
        return;
    };
    let (w, before) = open(&x, &dir, &scene);
    assert_eq!(before["bodies"].as_array().unwrap().len(), 4);
    assert_eq!(before["dirty"], false);
    let from = canvas_point(&before, 0.5, 0.75);
    drag(&x, "3", from, (from.0 + 150.0, from.1 + 40.0));
    let after = w.wait_for(
        |s| distance(eye(s), eye(&before)) > 0.5,
        "the eye to move with the right drag",
    );
    let after = settled(&w, after);
    assert!(
        distance(target(&after), target(&before)) < 1e-5,
        "orbiting keeps the target: {:?} then {:?}",
        target(&before),
        target(&after)
    );
    let radius = |s: &Value| distance(eye(s), target(s));
    assert!(
        (radius(&after) - radius(&before)).abs() < 1e-3,
        "orbiting keeps the distance: {} then {}",
        radius(&before),
        radius(&after)
    );
    // Dragging right turns the world right: the eye goes round to the left (its yaw, the
    // angle from +z toward +x, decreases).
    let yaw = |s: &Value| {
        let (e, t) = (eye(s), target(s));
        (e[0] - t[0]).atan2(e[2] - t[2])
    };
    assert!(
        yaw(&after) < yaw(&before),
        "{} then {}",
        yaw(&before),
        yaw(&after)
    );
    assert_eq!(poses(&after), poses(&before), "orbiting moves no body");
    assert_eq!(after["dirty"], false);
    assert_eq!(after["can_undo"], false);
    assert!(!marked(&after), "{}", after["title"]);
}

#[test]
fn dragging_the_crate_moves_it_changes_the_results_and_undo_puts_it_back_exactly() {
    let Some((x, dir, scene)) = setup("drag") else {
        return;
    };
    let (w, before) = open(&x, &dir, &scene);
    let start = position(&before, CRATE);
    assert_eq!(start, [-1.5, 0.95, 0.0]);
    assert_eq!(before["results"]["intersecting"], true);
    assert!((f(&before["results"]["sat_depth"]) - 0.05).abs() < 1e-4);
    // Up the screen: the crate rises off the ground.
    let from = screen_of(&before, CRATE);
    drag(&x, "1", from, (from.0, from.1 - 100.0));
    let moved = w.wait_for(
        |s| position(s, CRATE)[1] > start[1] + 0.5,
        "the crate to rise with the drag",
    );
    let moved = settled(&w, moved);
    assert!(
        moved["dirty"] == true && marked(&moved),
        "{}",
        moved["title"]
    );
    assert_eq!(moved["can_undo"], true);
    assert_ne!(moved["results"], before["results"]);
    assert_eq!(
        moved["results"]["contacts"],
        Value::Null,
        "no contact when apart"
    );
    assert!(f(&moved["results"]["sat_separation"]) > 0.1);
    for i in [GROUND, COLUMN, GEM] {
        assert_eq!(poses(&moved)[i], poses(&before)[i], "only the crate moves");
    }
    press(&x, "ctrl+z");
    let undone = w.wait_for(|s| s["can_undo"] == false, "the undo");
    assert_eq!(position(&undone, CRATE), start, "exactly where it was");
    assert_eq!(poses(&undone), poses(&before));
    assert_eq!(undone["dirty"], false);
    assert!(!marked(&undone), "{}", undone["title"]);
    assert_eq!(undone["results"], before["results"]);
}

#[test]
fn ctrl_s_saves_the_orbited_view_and_check_accepts_the_file() {
    let Some((x, dir, scene)) = setup("save") else {
        return;
    };
    let (w, before) = open(&x, &dir, &scene);
    // Turn the view first, so the file written differs from the one opened.
    let from = canvas_point(&before, 0.5, 0.75);
    drag(&x, "3", from, (from.0 - 120.0, from.1));
    let turned = w.wait_for(|s| distance(eye(s), eye(&before)) > 0.5, "the eye to move");
    let turned = settled(&w, turned);
    hover(&x, canvas_point(&turned, 0.5, 0.75));
    press(&x, "ctrl+s");
    let saved_eye = eye(&turned);
    let written = || {
        let text = std::fs::read_to_string(&scene).ok()?;
        let (parsed, _) = parse_scene3(&text, "welcome.ron").ok()?;
        let view = parsed.view?;
        (distance(view.eye.to_array(), saved_eye) < 1e-3).then_some((text, parsed))
    };
    let start = std::time::Instant::now();
    let (text, parsed) = loop {
        if let Some(done) = written() {
            break done;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "Ctrl+S did not write the view; status {}, file:\n{}",
            w.state().unwrap_or_default()["status"],
            std::fs::read_to_string(&scene).unwrap_or_default()
        );
        sleep(50);
    };
    // Saved in the form every saved scene has (RON's pretty form): the view's eye and
    // target on the lines after `view: (`.
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let view = lines.iter().position(|l| *l == "view: (");
    assert!(
        view.is_some_and(|k| {
            lines[k + 1].starts_with("eye: (") && lines[k + 2].starts_with("target: (")
        }),
        "a view with its eye and target:\n{text}"
    );
    assert_eq!(parsed.bodies.len(), 4, "{text}");
    let t = parsed.view.unwrap().target.to_array();
    assert!(distance(t, target(&turned)) < 1e-4, "{t:?}");
    let s = w.wait_for(|s| s["dirty"] == false, "the saved state");
    assert!(!marked(&s), "{}", s["title"]);
    let out = run_with_timeout(
        Command::new(BIN).arg("check").arg(&scene),
        Duration::from_secs(30),
    );
    assert!(
        out.status.success(),
        "check {}: {}{}",
        scene.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("3 passed, 0 failed"), "{stdout}");
}

#[test]
fn a_syntax_error_on_disk_is_shown_at_its_line_and_the_fixed_file_reloads() {
    let Some((x, dir, scene)) = setup("reload") else {
        return;
    };
    let (w, before) = open(&x, &dir, &scene);
    let good = welcome();
    let crate_line = "position: (-1.5, 0.95, 0)";
    let line = 1 + good
        .lines()
        .position(|l| l.contains(crate_line))
        .expect("the crate's line");
    let broken = good.replace(crate_line, "position: (-1.5, 0.95; 0)");
    write_later(&scene, &broken, 2);
    let s = w.wait_for(|s| s["load_error"].is_string(), "the load error");
    let error = s["load_error"].as_str().unwrap();
    assert!(
        error.contains(&format!("welcome.ron:{line}:")),
        "the file and line {line} in: {error}"
    );
    assert_eq!(poses(&s), poses(&before), "the last good scene stays");
    assert_eq!(s["dimensions"], 3);
    write_later(
        &scene,
        &good.replace(crate_line, "position: (-1.5, 2.25, 0)"),
        4,
    );
    let s = w.wait_for(
        |s| s["load_error"].is_null() && position(s, CRATE) == [-1.5, 2.25, 0.0],
        "the fixed file reloaded",
    );
    assert_eq!(
        s["results"]["intersecting"], false,
        "the crate is off the ground"
    );
    for i in [GROUND, COLUMN, GEM] {
        assert_eq!(poses(&s)[i], poses(&before)[i]);
    }
    assert_eq!(s["dirty"], false);
}

#[test]
fn key_2_looks_straight_down_and_o_toggles_the_orthographic_projection() {
    let Some((x, dir, scene)) = setup("keys") else {
        return;
    };
    let (w, before) = open(&x, &dir, &scene);
    assert_eq!(before["camera"]["orthographic"], false);
    hover(&x, canvas_point(&before, 0.5, 0.75));
    press(&x, "2");
    let s = w.wait_for(
        |s| {
            let (e, t) = (eye(s), target(s));
            let across = (e[0] - t[0]).hypot(e[2] - t[2]);
            e[1] - t[1] > 0.0 && across < 0.02 * (e[1] - t[1])
        },
        "the eye straight above the target",
    );
    assert_eq!(s["camera"]["orthographic"], false);
    assert_eq!(poses(&s), poses(&before));
    press(&x, "o");
    let s = w.wait_for(|s| s["camera"]["orthographic"] == true, "orthographic");
    assert!(eye(&s)[1] > target(&s)[1], "still from above");
    press(&x, "o");
    let s = w.wait_for(
        |s| s["camera"]["orthographic"] == false,
        "perspective again",
    );
    assert_eq!(s["dirty"], false, "a view key is no edit");
    assert_eq!(s["can_undo"], false);
}

#[test]
fn ctrl_click_on_the_column_makes_it_b_of_the_focused_pair() {
    let Some((x, dir, scene)) = setup("focus") else {
        return;
    };
    let (w, before) = open(&x, &dir, &scene);
    assert_eq!(before["focus"], serde_json::json!([GROUND, CRATE]));
    assert_eq!(
        before["results"]["pair"],
        serde_json::json!(["ground", "crate"])
    );
    hover(&x, screen_of(&before, COLUMN));
    x.xdotool(&["keydown", "ctrl"]);
    sleep(100);
    x.xdotool(&["click", "1"]);
    sleep(100);
    x.xdotool(&["keyup", "ctrl"]);
    let s = w.wait_for(
        |s| s["focus"] == serde_json::json!([GROUND, COLUMN]),
        "the column as B",
    );
    let s = settled(&w, s);
    assert_eq!(
        s["results"]["pair"],
        serde_json::json!(["ground", "column"])
    );
    assert_ne!(
        s["results"]["contacts"], before["results"]["contacts"],
        "the contacts are the column's"
    );
    // The column's contacts lie under it (x about 1.5), the crate's under the crate.
    let xs = |s: &Value| -> Vec<f32> {
        s["results"]["contacts"]
            .as_array()
            .expect("contacts")
            .iter()
            .map(|p| f(&p[0]))
            .collect()
    };
    assert!(xs(&s).iter().all(|x| *x > 0.5), "{:?}", xs(&s));
    assert!(xs(&before).iter().all(|x| *x < -0.5), "{:?}", xs(&before));
    assert_ne!(
        s["sentence"], before["sentence"],
        "the sentence tells the new pair"
    );
    assert_eq!(poses(&s), poses(&before), "a Ctrl+click moves nothing");
    assert_eq!(s["selected"], before["selected"], "and selects nothing");
    assert_eq!(s["can_undo"], true, "picking the pair is an undoable edit");
}

#[test]
fn v_splits_off_a_minus_b_which_orbits_on_its_own_until_f_hands_it_back() {
    let Some((x, dir, scene)) = setup("split") else {
        return;
    };
    let (w, before) = open(&x, &dir, &scene);
    assert_eq!(
        before["difference"]["shown"],
        Value::Null,
        "SAT and the manifold only"
    );
    hover(&x, canvas_point(&before, 0.3, 0.75));
    press(&x, "v");
    let s = w.wait_for(
        |s| s["difference"]["shown"].is_object(),
        "A - B in the right half",
    );
    let rect = &s["difference"]["shown"]["rect"];
    let (left, width) = (f(&rect[0]), f(&rect[2]));
    assert!(left > f(&s["canvas"][0]) + 0.9 * f(&s["canvas"][2]), "{s}");
    let turned = vec3(&s["difference"]["shown"]["eye"]);
    let bodies_eye = eye(&s);
    // Right-drag in the A - B half: its eye moves, the bodies' stays, nothing is edited.
    let from = (left + 0.5 * width, f(&rect[1]) + 0.5 * f(&rect[3]));
    drag(&x, "3", from, (from.0 + 160.0, from.1));
    let s = w.wait_for(
        |s| s["difference"]["moved_by_hand"] == true,
        "the A - B camera taken by hand",
    );
    let s = settled(&w, s);
    assert!(distance(vec3(&s["difference"]["shown"]["eye"]), turned) > 1e-3);
    assert!(
        distance(eye(&s), bodies_eye) < 1e-4,
        "the bodies' camera stays"
    );
    assert_eq!(poses(&s), poses(&before));
    assert_eq!(s["dirty"], false);
    // F frames both: A - B follows the bodies' camera again.
    hover(&x, canvas_point(&s, 0.3, 0.75));
    press(&x, "f");
    let s = w.wait_for(
        |s| s["difference"]["moved_by_hand"] == false,
        "A - B following again",
    );
    assert_eq!(s["difference"]["split"], true);
    press(&x, "v");
    w.wait_for(
        |s| s["difference"]["shown"] == Value::Null,
        "the split off again",
    );
}
