//! `collision-lab query`: the text and JSON a user scripts against, and its exit statuses.

use serde_json::Value;
use std::process::Command;

fn query(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_collision-lab"))
        .arg("query")
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scene(text: &str) -> tempfile_path::TempScene {
    tempfile_path::TempScene::new(text)
}

mod tempfile_path {
    /// A scene written to a unique file that is removed when dropped.
    pub struct TempScene(pub std::path::PathBuf);

    impl TempScene {
        pub fn new(text: &str) -> Self {
            use std::sync::atomic::{AtomicU32, Ordering};
            static N: AtomicU32 = AtomicU32::new(0);
            let path = std::env::temp_dir().join(format!(
                "collision-lab-query-{}-{}.ron",
                std::process::id(),
                N.fetch_add(1, Ordering::Relaxed)
            ));
            std::fs::write(&path, text).unwrap();
            TempScene(path)
        }

        pub fn path(&self) -> &str {
            self.0.to_str().unwrap()
        }
    }

    impl Drop for TempScene {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

const BOXES: &str = r#"(
    version: 1,
    title: "box on box",
    bodies: [
        (name: "floor", shape: Box(half_extents: (2.0, 0.5))),
        (name: "crate", shape: Box(half_extents: (0.5, 0.5)), position: (0.25, 0.9), velocity: (0.0, 0.0)),
        (name: "ball", shape: Circle(radius: 0.5), position: (5.0, 0.0)),
    ],
)"#;

fn num(v: &Value) -> f64 {
    v.as_f64().expect("a number")
}

#[test]
fn json_has_every_algorithm_with_the_documented_conventions() {
    let s = scene(BOXES);
    let (code, out, err) = query(&[s.path(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).expect("valid JSON");
    assert_eq!(v["scene"], "box on box");
    let pairs = v["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 3, "every pair in file order");
    assert_eq!(
        (pairs[0]["a"].as_str(), pairs[0]["b"].as_str()),
        (Some("floor"), Some("crate"))
    );
    assert_eq!(
        (pairs[2]["a"].as_str(), pairs[2]["b"].as_str()),
        (Some("crate"), Some("ball"))
    );

    // floor top at y = 0.5, crate bottom at y = 0.4: 0.1 deep, normal +y from floor to crate.
    let p = &pairs[0];
    assert_eq!(p["intersecting"], true);
    assert_eq!(p["gjk"]["intersecting"], true);
    assert_eq!(num(&p["gjk"]["distance"]), 0.0);
    assert!(p["gjk"]["closest_a"].is_null());
    assert!((num(&p["epa"]["depth"]) - 0.1).abs() < 1e-5);
    assert_eq!(p["epa"]["normal"][1].as_f64(), Some(1.0));
    assert_eq!(p["epa"]["status"], "converged");
    assert!((num(&p["sat"]["depth"]) - 0.1).abs() < 1e-5);
    assert!(p["sat"]["separation"].is_null());
    assert_eq!(p["sat"]["axis"]["body"], "a");
    assert_eq!(p["sat"]["axis"]["index"], 2, "the floor's top edge");
    assert_eq!(p["manifold"]["reference"], "a");
    let points = p["manifold"]["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    for c in points {
        assert!((num(&c["depth"]) - 0.1).abs() < 1e-5);
        assert!(
            (num(&c["point"][1]) - 0.4).abs() < 1e-5,
            "on the incident crate"
        );
        assert_eq!(c["id"].as_array().unwrap().len(), 2);
    }
    // The crate has a (zero) velocity, so its pairs carry a sweep; floor vs ball does not.
    assert_eq!(p["sweep"]["hit"], true);
    assert_eq!(num(&p["sweep"]["t_first"]), 0.0);
    assert!(pairs[1]["sweep"].is_null());

    // floor vs ball: separated by 5 - 2 - 0.5 = 2.5.
    let q = &pairs[1];
    assert_eq!(q["intersecting"], false);
    assert!((num(&q["gjk"]["distance"]) - 2.5).abs() < 1e-5);
    assert_eq!(q["gjk"]["closest_a"][0].as_f64(), Some(2.0));
    assert_eq!(q["gjk"]["closest_b"][0].as_f64(), Some(4.5));
    assert!(q["epa"].is_null() && q["manifold"].is_null());
    assert!((num(&q["sat"]["separation"]) - 2.5).abs() < 1e-5);
    assert!(q["sat"]["depth"].is_null());
}

#[test]
fn pair_option_selects_and_orders_one_pair() {
    let s = scene(BOXES);
    let (code, out, _) = query(&[s.path(), "--json", "--pair", "crate", "floor"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    let pairs = v["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 1);
    assert_eq!(pairs[0]["a"], "crate");
    // Seen from the crate, the normal points down toward the floor.
    assert_eq!(pairs[0]["epa"]["normal"][1].as_f64(), Some(-1.0));
}

#[test]
fn text_output_names_every_algorithm() {
    let s = scene(BOXES);
    let (code, out, _) = query(&[s.path(), "--pair", "floor", "crate"]);
    assert_eq!(code, 0);
    for word in [
        "floor vs crate: intersecting",
        "gjk",
        "epa",
        "depth 0.1",
        "sat",
        "manifold",
        "sweep",
    ] {
        assert!(out.contains(word), "missing {word:?} in\n{out}");
    }
}

#[test]
fn bad_input_exits_2_with_a_positioned_error() {
    let s = scene("(version: 1, bodies: [(name: \"a\", shape: Blob(radius: 1.0))])");
    let (code, out, err) = query(&[s.path()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.starts_with(&format!("error: {}:1:", s.path())), "{err}");
    assert!(!err.contains("panicked"));
    let s = scene(BOXES);
    let (code, _, err) = query(&[s.path(), "--pair", "floor", "nobody"]);
    assert_eq!(code, 2);
    assert!(err.contains("no body is named \"nobody\""), "{err}");
    let (code, _, err) = query(&["/nonexistent/scene.ron"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: /nonexistent/scene.ron: cannot read"),
        "{err}"
    );
}

#[test]
fn too_many_pairs_asks_for_one_instead_of_running_for_minutes() {
    let bodies: Vec<String> = (0..500)
        .map(|i| format!("(name: \"b{i}\", shape: Circle(radius: 0.1), position: ({i}.0, 0.0))"))
        .collect();
    let s = scene(&format!("(version: 1, bodies: [{}])", bodies.join(", ")));
    let (code, _, err) = query(&[s.path()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("124750 pairs") && err.contains("--pair"),
        "{err}"
    );
    let (code, out, _) = query(&[s.path(), "--pair", "b1", "b2"]);
    assert_eq!(code, 0);
    assert!(out.contains("b1 vs b2: separated"));
}
