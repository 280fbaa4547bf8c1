//! `collision-lab scan`: the flips of the issue pinned where they were derived by hand (2D
//! box corner, 2D box turning on an edge, 3D crossed ridges), samples equal to `query --json`
//! at the same poses, the regression scenes `--write-events` writes, the output forms, and
//! every bad input.

use collision_lab::scan::{pose_at, scene_at, MovedPose, Param, ScanSpec};
use collision_lab::scene::{
    load_any_scene_file, parse_any_scene, save_scene3_atomic, save_scene_atomic, LoadedScene,
};
use serde_json::Value;
use std::path::{Path, PathBuf};

mod common;
use common::scene_runs::run_binary;

/// Two unit boxes; B above A's top edge and to the side, so that sliding along x takes it
/// through the corner region.
const CORNER: &str = r#"(
    version: 1,
    title: "Two unit boxes: B slides along x past A's corner",
    bodies: [
        (name: "A", shape: Box(half_extents: (0.5, 0.5))),
        (name: "B", shape: Box(half_extents: (0.5, 0.5)), position: (0.5, 0.8)),
    ],
)"#;

/// A unit box sunk 0.1 into a wide slab, turning about its centre.
const TURN: &str = r#"(
    version: 1,
    bodies: [
        (name: "ground", shape: Box(half_extents: (2, 0.5))),
        (name: "box", shape: Box(half_extents: (0.5, 0.5)), position: (0, 0.9)),
    ],
)"#;

/// Two unit cubes turned 45 degrees about z: ridges along z, the lower one's on top
/// (y = 1/sqrt 2), the upper one's below, 0.4 into it; the upper one 0.05 along x, so that
/// the lower one's two upper faces do not tie.
const RIDGES: &str = r#"(
    version: 1,
    dimensions: 3,
    bodies: [
        (name: "below", shape: Cuboid(half_extents: (0.5, 0.5, 0.5)), rotation: (0, 0, 45)),
        (name: "above", shape: Cuboid(half_extents: (0.5, 0.5, 0.5)),
         position: (0.05, 1.0142135, 0), rotation: (0, 0, 45)),
    ],
)"#;

/// A fresh folder for one test.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cli_scan_{}_{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes scene text to `name` in a fresh folder.
fn scene_file(name: &str, text: &str) -> PathBuf {
    let path = folder(name).join(format!("{name}.ron"));
    std::fs::write(&path, text).unwrap();
    path
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn scan_json(args: &[&str]) -> Value {
    let mut all = vec!["scan"];
    all.extend_from_slice(args);
    all.push("--json");
    let (code, out, err) = run_binary(&all);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("valid JSON")
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("a number: {v}"))
}

fn events_with<'v>(v: &'v Value, key: &str) -> Vec<&'v Value> {
    v["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["what"].as_array().unwrap().iter().any(|w| w == key))
        .collect()
}

/// The event's interval holds `expected` to `tolerance`: both ends are within it.
fn assert_pinned(e: &Value, expected: f64, tolerance: f64) {
    let (lo, hi) = (num(&e["lo"]), num(&e["hi"]));
    assert!(
        (lo - expected).abs() <= tolerance && (hi - expected).abs() <= tolerance,
        "[{lo}, {hi}] does not hold {expected} to {tolerance}: {e}"
    );
}

#[test]
fn the_2d_corner_flip_is_pinned_where_the_two_overlaps_are_equal() {
    // A spans [-0.5, 0.5]^2; B, a unit box at (x, 0.8), spans [x - 0.5, x + 0.5] x
    // [0.3, 1.3]. Overlap along y: 0.5 - 0.3 = 0.2; along x: 0.5 - (x - 0.5) = 1 - x. SAT
    // takes the strictly smaller overlap (the earlier axis on a tie), so its normal is A's
    // top edge's (0, 1) up to x = 0.8 and A's right edge's (1, 0) beyond it.
    let file = scene_file("corner", CORNER);
    let v = scan_json(&[
        path_str(&file),
        "--pair",
        "A",
        "B",
        "--move",
        "B",
        "--param",
        "x",
        "--from",
        "0.5",
        "--to",
        "0.95",
        "--samples",
        "100",
    ]);
    assert_eq!(v["pair"], serde_json::json!(["A", "B"]));
    assert_eq!(
        (v["move"].as_str(), v["param"].as_str()),
        (Some("B"), Some("x"))
    );
    assert_eq!(v["samples"].as_array().unwrap().len(), 100);
    let flips = events_with(&v, "normal");
    assert_eq!(flips.len(), 1, "{}", v["events"]);
    let e = flips[0];
    assert_pinned(e, 0.8, 1e-5);
    assert_eq!(e["before"]["normal"], serde_json::json!([0.0, 1.0]));
    assert_eq!(e["after"]["normal"], serde_json::json!([1.0, 0.0]));
    assert_eq!(e["before"]["axis"]["kind"], "edge_a");
    assert!(e["what"].as_array().unwrap().iter().any(|w| w == "axis"));
    // Narrowed to 1e-6 of the range (0.45) or to neighbouring f32 values.
    let (lo, hi) = (num(&e["lo"]) as f32, num(&e["hi"]) as f32);
    assert!(hi - lo <= 0.45e-6 || f32::from_bits(lo.to_bits() + 1) == hi);
    // The text form: one line per event, the changes in words.
    let (code, out, _) = run_binary(&[
        "scan",
        path_str(&file),
        "--move",
        "B",
        "--param",
        "x",
        "--from",
        "0.5",
        "--to",
        "0.95",
        "--samples",
        "100",
    ]);
    assert_eq!(code, 0);
    let line = out
        .lines()
        .find(|l| l.starts_with("x in [") && l.contains("normal"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains("]: normal (0, 1) -> (1, 0); SAT axis edge 2 of A -> edge 1 of A"),
        "{line}"
    );
    assert!(out.starts_with("Two unit boxes: B slides along x past A's corner: A vs B"));
    assert!(
        out.lines().last().unwrap().starts_with("100 samples, "),
        "{out}"
    );
}

#[test]
fn a_box_turning_on_a_slab_goes_from_two_contacts_to_one_and_back_to_two() {
    // The box's corners are its centre (0, 0.9) plus (+-0.5, -0.5) turned by theta. For
    // theta in [0, 45] the higher of the two lower corners is at 0.9 - 0.5 cos + 0.5 sin,
    // 0.4 - 0.5 (cos - sin) above the slab's top (y = 0.5). The clip keeps a point up to
    // the pair's touch tolerance above the face: 1e-5 times the pair's scale, the two
    // bounding radii plus the centres' distance, sqrt(4.25) + sqrt(0.5) + 0.9 = 3.668659,
    // so tol = 3.668659e-5. Two contacts while cos - sin >= 0.8 - 2 tol, that is
    // sqrt 2 cos(theta + 45) >= 0.8 - 2 tol: theta <= acos((0.8 - 2 tol) / sqrt 2) - 45 =
    // 10.5537028 degrees; by symmetry two again from 90 - 10.5537028 = 79.4462972.
    let file = scene_file("turn", TURN);
    let v = scan_json(&[
        path_str(&file),
        "--pair",
        "ground",
        "box",
        "--move",
        "box",
        "--param",
        "angle",
        "--from",
        "0",
        "--to",
        "90",
        "--samples",
        "90",
    ]);
    let flips = events_with(&v, "contacts");
    assert_eq!(flips.len(), 2, "{}", v["events"]);
    let counts = |e: &Value| {
        (
            e["before"]["contacts"].clone(),
            e["after"]["contacts"].clone(),
        )
    };
    assert_eq!(counts(flips[0]), (2.into(), 1.into()));
    assert_eq!(counts(flips[1]), (1.into(), 2.into()));
    assert_pinned(flips[0], 10.5537028, 1e-4);
    assert_pinned(flips[1], 79.4462972, 1e-4);
}

#[test]
fn the_3d_cube_turning_over_a_cube_changes_from_a_face_to_an_edge_pair_where_derived() {
    // Hand derivation (c = 1/sqrt 2, y0 = 1.0142135, d = sqrt 2 - y0 = 0.4, x0 = 0.05):
    // - Edge pair: the upper cube turned by psi about y has its lower ridge along
    //   (sin psi, 0, cos psi), crossing the lower ridge (along z); their cross product is
    //   y, along which each cube reaches 0.5 sqrt 2 = c from its centre: overlap d.
    // - Best face: the lower cube's face n = (1, 1, 0) c. The lower cube reaches 0.5 along
    //   it. The upper cube's axes are Ry(psi) Rz(45) applied to x, y, z: (c cos psi, c,
    //   -c sin psi), (-c cos psi, c, c sin psi), (sin psi, 0, cos psi), whose dot products
    //   with n are (1 + cos psi)/2, (1 - cos psi)/2 and c sin psi, so it reaches
    //   0.5 + c sin(psi)/2. The centres are (x0 + y0) c apart along n, so the overlap is
    //   f = 1 + c sin(psi)/2 - (x0 + y0) c = c sin(psi)/2 + (d - x0) c. (The face
    //   (-1, 1, 0) c has x0 with the other sign, and the upper cube's faces give
    //   c sin(psi)/2 + (d - x0 cos psi) c: both larger.)
    // - SAT takes an edge axis only when its separation beats the best face's by the
    //   preference tolerance, 1e-4 times the smaller body's centroid radius sqrt 0.75:
    //   t = 8.660254e-5. So the edge pair wins once f > d + t:
    //   sin psi = 2 d (sqrt 2 - 1) + 2 x0 + 2 sqrt 2 t, psi = 25.5701466 degrees.
    let file = scene_file("ridges", RIDGES);
    let v = scan_json(&[
        path_str(&file),
        "--pair",
        "below",
        "above",
        "--move",
        "above",
        "--param",
        "ry",
        "--from",
        "15",
        "--to",
        "45",
        "--samples",
        "60",
    ]);
    let to_edges: Vec<&Value> = events_with(&v, "axis")
        .into_iter()
        .filter(|e| {
            e["before"]["axis"]["kind"]
                .as_str()
                .unwrap()
                .starts_with("face")
                && e["after"]["axis"]["kind"] == "edges"
        })
        .collect();
    assert_eq!(to_edges.len(), 1, "{}", v["events"]);
    let e = to_edges[0];
    assert_pinned(e, 25.5701466, 1e-4);
    let normal =
        |s: &Value| -> Vec<f64> { s["normal"].as_array().unwrap().iter().map(num).collect() };
    let up = normal(&e["after"]);
    assert!(
        (up[0].abs() + (up[1] - 1.0).abs() + up[2].abs()) < 1e-6,
        "{up:?}"
    );
    // Before: the face (1, 1, 0) c.
    let face = normal(&e["before"]);
    let c = std::f64::consts::FRAC_1_SQRT_2;
    assert!(
        ((face[0] - c).abs() + (face[1] - c).abs() + face[2].abs()) < 1e-6,
        "{face:?}"
    );
    assert_eq!(e["after"]["feature"], "edge_edge");
}

/// The spec of the 3D and 2D rotation scans compared with `query` below.
fn spec(a: &str, b: &str, param: Param, from: f32, to: f32, samples: usize) -> ScanSpec {
    ScanSpec {
        a: a.into(),
        b: b.into(),
        moving: b.into(),
        param,
        from,
        to,
        samples,
    }
}

/// `query --json`'s pair, as the scan's sample keys spell it.
fn query_as_sample(pair: &Value) -> Value {
    let sat = &pair["sat"];
    let m = &pair["manifold"];
    let points = m["points"].as_array().cloned().unwrap_or_default();
    let ids: Vec<Value> = points
        .iter()
        .map(|p| {
            // 2D ids are [reference edge, incident edge] plus the end; 3D ids are whole.
            let mut id = p["id"].as_array().unwrap().clone();
            if let Some(end) = p.get("end") {
                id.push(end.clone());
            }
            Value::Array(id)
        })
        .collect();
    let feature = match (m.get("feature"), m.get("reference_edge")) {
        (Some(f), _) if !f.is_null() => f.clone(),
        (_, Some(r)) if !r.is_null() => {
            let reference = m["reference"].as_str().unwrap();
            let other = if reference == "a" { "b" } else { "a" };
            format!(
                "edge {r} of {reference} / edge {} of {other}",
                m["incident_edge"]
            )
            .into()
        }
        _ => Value::Null,
    };
    let axis = &sat["axis"];
    let kind = match axis.get("body") {
        Some(body) if !body.is_null() => format!(
            "{}_{}",
            axis["kind"].as_str().unwrap(),
            body.as_str().unwrap()
        )
        .into(),
        _ => axis["kind"].clone(),
    };
    let gjk = pair["gjk"]["intersecting"].as_bool().unwrap();
    serde_json::json!({
        "intersecting": sat["intersecting"],
        "gjk_intersecting": gjk,
        "depth": if sat["intersecting"].as_bool().unwrap() { sat["depth"].clone() } else { Value::Null },
        "distance": if gjk { Value::Null } else { pair["gjk"]["distance"].clone() },
        "normal": sat["normal"],
        "axis": { "kind": kind, "index": axis["index"] },
        "feature": feature,
        "reference": m.get("reference").cloned().unwrap_or(Value::Null),
        "contacts": points.len(),
        "ids": ids,
    })
}

/// Each of the sample indices `picks` of the scan equals `query --json` on the scene
/// written at that sample's pose, and the written scene loads back to `pose_at`'s pose.
fn samples_equal_query(name: &str, text: &str, spec: &ScanSpec, picks: &[usize]) {
    let file = scene_file(name, text);
    let scene = parse_any_scene(text, name).unwrap();
    let v = scan_json(&[
        path_str(&file),
        "--pair",
        &spec.a,
        &spec.b,
        "--move",
        &spec.moving,
        "--param",
        spec.param.key(),
        "--from",
        &spec.from.to_string(),
        "--to",
        &spec.to.to_string(),
        "--samples",
        &spec.samples.to_string(),
    ]);
    for &k in picks {
        let sample = &v["samples"][k];
        let t = num(&sample["t"]) as f32;
        assert_eq!(t, spec.sample_t(k));
        let at = folder(&format!("{name}_{k}")).join("at.ron");
        let moved = scene_at(&scene, spec, t).unwrap();
        let index = match &moved {
            LoadedScene::Two(file, _) => {
                save_scene_atomic(&at, file).unwrap();
                file.bodies.iter().position(|b| b.name == spec.moving)
            }
            LoadedScene::Three(file, _) => {
                save_scene3_atomic(&at, file).unwrap();
                file.bodies.iter().position(|b| b.name == spec.moving)
            }
        };
        let index = index.unwrap();
        let loaded = match load_any_scene_file(&at).unwrap() {
            LoadedScene::Two(_, bodies) => MovedPose::Two(bodies[index].pose),
            LoadedScene::Three(_, bodies) => MovedPose::Three(bodies[index].pose),
        };
        assert_eq!(
            loaded,
            pose_at(&scene, spec, t).unwrap(),
            "the file keeps the pose"
        );
        let (code, out, err) =
            run_binary(&["query", path_str(&at), "--pair", &spec.a, &spec.b, "--json"]);
        assert_eq!(code, 0, "{err}");
        let q: Value = serde_json::from_str(&out).unwrap();
        let mut expected = query_as_sample(&q["pairs"][0]);
        let mut got = sample.clone();
        for key in ["t", "t_first"] {
            got.as_object_mut().unwrap().remove(key);
        }
        expected.as_object_mut().unwrap().remove("t_first");
        assert_eq!(got, expected, "{name}: sample {k} at {t}");
    }
}

#[test]
fn samples_equal_query_runs_at_the_same_poses() {
    let turn = spec("ground", "box", Param::Angle, 0.0, 90.0, 91);
    samples_equal_query("q_turn", TURN, &turn, &[0, 7, 10, 11, 45, 80, 90]);
    let corner = spec("A", "B", Param::X, 0.5, 0.95, 10);
    samples_equal_query("q_corner", CORNER, &corner, &[0, 6, 7, 9]);
    let ridges = spec("below", "above", Param::Ry, -30.0, 60.0, 37);
    samples_equal_query("q_ridges", RIDGES, &ridges, &[0, 9, 12, 18, 22, 36]);
    let tilt = spec("below", "above", Param::Rx, 0.0, 30.0, 4);
    samples_equal_query("q_tilt", RIDGES, &tilt, &[1, 2, 3]);
}

/// Runs `check` on every scene `--write-events` wrote and returns the events' JSON.
fn write_and_check(name: &str, text: &str, args: &[&str]) -> (Value, PathBuf) {
    let file = scene_file(name, text);
    let out_dir = folder(&format!("{name}_events")).join("written");
    let mut all = vec![path_str(&file)];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--write-events", path_str(&out_dir)]);
    let v = scan_json(&all);
    let count = v["events"].as_array().unwrap().len();
    assert!(count > 0);
    for k in 1..=count {
        for side in ["before", "after"] {
            assert!(out_dir.join(format!("event-{k}-{side}.ron")).is_file());
        }
    }
    let written = std::fs::read_dir(&out_dir).unwrap().count();
    assert_eq!(written, 2 * count, "two files per event, no temporary left");
    let (code, out, err) = run_binary(&["check", path_str(&out_dir)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.ends_with(&format!("{} passed, 0 failed\n", 2 * count)),
        "{out}"
    );
    (v, out_dir)
}

#[test]
fn write_events_writes_both_sides_as_scenes_that_check_passes() {
    let (v, dir) = write_and_check(
        "w_turn",
        TURN,
        &[
            "--move",
            "box",
            "--param",
            "angle",
            "--from",
            "0",
            "--to",
            "90",
            "--samples",
            "30",
        ],
    );
    // The first contact flip's two sides record 2 and 1 contacts: the pair really is on
    // either side of the flip in the files.
    let k = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .position(|e| {
            e["what"]
                .as_array()
                .unwrap()
                .iter()
                .any(|w| w == "contacts")
        })
        .unwrap()
        + 1;
    for (side, contacts) in [("before", 2), ("after", 1)] {
        let text = std::fs::read_to_string(dir.join(format!("event-{k}-{side}.ron"))).unwrap();
        assert!(text.contains(&format!("contacts: {contacts}")), "{text}");
        assert!(text.contains("Written by `collision-lab scan`"), "{text}");
    }
    write_and_check(
        "w_ridges",
        RIDGES,
        &[
            "--pair",
            "below",
            "above",
            "--move",
            "above",
            "--param",
            "ry",
            "--from",
            "20",
            "--to",
            "30",
            "--samples",
            "10",
        ],
    );
}

#[test]
fn csv_has_a_header_and_one_row_per_sample() {
    let file = scene_file("csv", RIDGES);
    let (code, out, err) = run_binary(&[
        "scan",
        path_str(&file),
        "--move",
        "above",
        "--param",
        "ry",
        "--from",
        "0",
        "--to",
        "45",
        "--samples",
        "12",
        "--csv",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 13);
    assert_eq!(
        lines[0],
        "t,intersecting,gjk_intersecting,depth,distance,normal_x,normal_y,normal_z,axis_kind,axis_index,feature,reference,contacts,ids,t_first"
    );
    assert!(lines[1].starts_with("0,true,true,"), "{}", lines[1]);
    assert!(lines[12].starts_with("45,true,true,"), "{}", lines[12]);
}

/// Runs `scan` and expects exit status 2, nothing on stdout and `error: ...` naming `what`.
fn refused(args: &[&str], what: &str) {
    let mut all = vec!["scan"];
    all.extend_from_slice(args);
    let (code, out, err) = run_binary(&all);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    assert!(out.is_empty(), "{args:?}: {out}");
    assert!(
        err.starts_with("error: ") && err.contains(what),
        "{args:?}: {err}"
    );
}

#[test]
fn bad_input_is_refused_with_a_clear_error_and_exit_status_2() {
    let two = scene_file("bad2", CORNER);
    let three = scene_file("bad3", RIDGES);
    let (two, three) = (path_str(&two), path_str(&three));
    let base = |scene: &'static str, param: &'static str| {
        vec![
            scene, "--move", "B", "--param", param, "--from", "0", "--to", "1",
        ]
    };
    let with = |mut v: Vec<&'static str>, more: &[&'static str]| {
        v.extend_from_slice(more);
        v
    };
    // The scenes' paths live as long as the test; leak them to share the closures.
    let two: &'static str = Box::leak(two.to_string().into_boxed_str());
    let three: &'static str = Box::leak(three.to_string().into_boxed_str());
    refused(&base(two, "w"), "unknown parameter \"w\"");
    refused(&base(two, "z"), "`z` is not a parameter of this scene");
    refused(&base(two, "rx"), "`rx` is not a parameter of this scene");
    refused(
        &[
            three, "--move", "above", "--param", "angle", "--from", "0", "--to", "1",
        ],
        "`angle` is not a parameter of this scene: a 3D scene takes",
    );
    refused(
        &[
            two, "--move", "B", "--param", "x", "--from", "1", "--to", "1",
        ],
        "the range is empty",
    );
    refused(
        &[
            two, "--move", "B", "--param", "x", "--from", "NaN", "--to", "1",
        ],
        "not made of finite numbers",
    );
    refused(
        &[
            two, "--move", "B", "--param", "x", "--from", "0", "--to", "2e6",
        ],
        "goes beyond",
    );
    refused(&with(base(two, "x"), &["--samples", "0"]), "0 samples");
    refused(
        &with(base(two, "x"), &["--samples", "1000001"]),
        "1000001 samples",
    );
    refused(
        &with(base(two, "x"), &["--pair", "A", "C"]),
        "no body is named \"C\"",
    );
    refused(
        &[
            two, "--move", "C", "--param", "x", "--from", "0", "--to", "1",
        ],
        "no body is named \"C\"",
    );
    // A third body, not one of the pair.
    let three_bodies = CORNER.replace(
        "    ],\n)",
        "        (name: \"C\", shape: Circle(radius: 0.5), position: (4, 0)),\n    ],\n)",
    );
    let third = scene_file("bad_third", &three_bodies);
    refused(
        &[
            path_str(&third),
            "--pair",
            "A",
            "B",
            "--move",
            "C",
            "--param",
            "x",
            "--from",
            "0",
            "--to",
            "1",
        ],
        "the moving body \"C\" is not one of the pair",
    );
    refused(
        &[
            "no/such/scene.ron",
            "--move",
            "B",
            "--param",
            "x",
            "--from",
            "0",
            "--to",
            "1",
        ],
        "no/such/scene.ron",
    );
}
