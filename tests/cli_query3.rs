//! `collision-lab query` and `trace` on 3D scenes: the JSON a user scripts against (pinned
//! on hand-derived scenes), the text form, and the exit statuses.

use serde_json::Value;

mod common;
use common::scene_runs::run_binary;

fn run(args: &[&str]) -> (i32, String, String) {
    run_binary(args)
}

fn json(args: &[&str]) -> Value {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("valid JSON")
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("a number: {v}"))
}

fn vec3(v: &Value) -> [f64; 3] {
    let a = v.as_array().expect("an array");
    assert_eq!(a.len(), 3, "{v}");
    [num(&a[0]), num(&a[1]), num(&a[2])]
}

fn close(a: [f64; 3], b: [f64; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
}

/// The face-face case, field by field.
#[test]
fn json_pins_the_face_face_case() {
    let v = json(&["query", "scenes/3d/face_face_box_on_slab.ron", "--json"]);
    assert_eq!(v["dimensions"], 3);
    assert_eq!(
        v["scene"],
        "Face-face: a cube resting on a slab, four contact points"
    );
    assert_eq!(v["file"], "scenes/3d/face_face_box_on_slab.ron");
    let pairs = v["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 1);
    let p = &pairs[0];
    let keys: Vec<&str> = p.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "a",
            "b",
            "intersecting",
            "gjk",
            "epa",
            "sat",
            "manifold",
            "sweep"
        ]
    );
    // GJK: the origin lies in A - B; EPA: depth 0.1 along +y, point_a - point_b = depth * n.
    let g = &p["gjk"];
    assert_eq!(g["intersecting"], true);
    assert_eq!(num(&g["distance"]), 0.0);
    assert!(g["closest_a"].is_null() && g["closest_b"].is_null());
    assert!(g["iterations"].as_u64().unwrap() >= 1);
    assert!(g["status"] == "enclosed" || g["status"] == "origin_on_simplex");
    let e = &p["epa"];
    assert!((num(&e["depth"]) - 0.1).abs() < 1e-5);
    assert!(close(vec3(&e["normal"]), [0.0, 1.0, 0.0]));
    let (pa, pb) = (vec3(&e["point_a"]), vec3(&e["point_b"]));
    assert!(close(
        [pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]],
        [0.0, 0.1, 0.0]
    ));
    assert_eq!(e["status"], "converged");
    let keys: Vec<&str> = e.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "depth",
            "normal",
            "point_a",
            "point_b",
            "iterations",
            "status"
        ]
    );
    assert_eq!(
        (p["a"].as_str(), p["b"].as_str()),
        (Some("slab"), Some("cube"))
    );
    assert_eq!(p["intersecting"], true);
    let s = &p["sat"];
    assert_eq!(s["intersecting"], true);
    assert!((num(&s["depth"]) - 0.1).abs() < 1e-6);
    assert!(s["separation"].is_null());
    assert!(close(vec3(&s["normal"]), [0.0, 1.0, 0.0]));
    assert_eq!(s["axis"]["kind"], "face_a");
    assert!(s["axis"]["index"].is_u64(), "{}", s["axis"]);
    // 6 + 6 faces, and edge pairs: every pair of box edges is parallel or crosses on a
    // face normal, so each is tested or pruned.
    assert!(num(&s["axes_tested"]) >= 12.0);
    assert_eq!(
        num(&s["axes_tested"]) + num(&s["axes_pruned"]),
        12.0 + 144.0
    );
    let m = &p["manifold"];
    assert_eq!(m["feature"], "face_face");
    assert_eq!(m["reference"], "a");
    assert_eq!(m["clipped"], 4);
    assert!(close(vec3(&m["normal"]), [0.0, 1.0, 0.0]));
    let points = m["points"].as_array().unwrap();
    assert_eq!(points.len(), 4);
    for point in points {
        let [x, y, z] = vec3(&point["point"]);
        assert!(
            (x.abs() - 0.5).abs() < 1e-6 && (y - 0.4).abs() < 1e-6 && (z.abs() - 0.5).abs() < 1e-6
        );
        assert!((num(&point["depth"]) - 0.1).abs() < 1e-6);
        assert_eq!(point["id"].as_array().unwrap().len(), 4);
    }
    // Four distinct feature ids.
    let mut ids: Vec<String> = points.iter().map(|p| p["id"].to_string()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 4);
    assert!(p["sweep"].is_null());
}

/// The swept case: separated at t = 0, hit at 0.358579 until 0.841421 along +x.
#[test]
fn json_pins_the_sweep_case() {
    let v = json(&["query", "scenes/3d/sweep_hit.ron", "--json"]);
    let p = &v["pairs"][0];
    assert_eq!(p["intersecting"], false);
    assert!(p["sat"]["depth"].is_null());
    assert!((num(&p["sat"]["separation"]) - 1.792893).abs() < 1e-5);
    assert!(p["manifold"].is_null());
    let w = &p["sweep"];
    assert_eq!(w["hit"], true);
    assert!((num(&w["t_first"]) - 0.358579).abs() < 1e-5);
    assert!((num(&w["t_last"]) - 0.841421).abs() < 1e-5);
    assert!(close(vec3(&w["normal"]), [1.0, 0.0, 0.0]));
    let keys: Vec<&str> = w.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(keys, ["hit", "t_first", "t_last", "normal", "status"]);
    assert_eq!(w["status"], "hit");

    let miss = json(&["query", "scenes/3d/sweep_miss.ron", "--json"]);
    let w = &miss["pairs"][0]["sweep"];
    assert_eq!(w["hit"], false);
    assert_eq!(w["status"], "miss");
    assert!(w["t_first"].is_null() && w["t_last"].is_null() && w["normal"].is_null());
}

/// Round shapes: a sphere on a face (closest-point axis tied, face kept, one point at the
/// bottom of the sphere), GJK and EPA with the radii, and the sweep refused with a status.
#[test]
fn json_pins_round_shapes() {
    let v = json(&[
        "query",
        "scenes/3d/round_sphere_on_box_face.ron",
        "--pair",
        "slab",
        "ball",
        "--json",
    ]);
    let p = &v["pairs"][0];
    assert_eq!(p["sat"]["axis"]["kind"], "face_a");
    assert!((num(&p["sat"]["depth"]) - 0.1).abs() < 1e-5);
    let m = &p["manifold"];
    assert_eq!(m["feature"], "vertex_face");
    assert!(close(vec3(&m["points"][0]["point"]), [0.3, 0.4, -0.2]));
    assert_eq!(p["gjk"]["intersecting"], true);
    assert_eq!(p["epa"]["status"], "cores_apart");
    assert!((num(&p["epa"]["depth"]) - 0.1).abs() < 1e-5);

    let v = json(&[
        "query",
        "scenes/3d/round_spheres.ron",
        "--pair",
        "big",
        "far",
        "--json",
    ]);
    let p = &v["pairs"][0];
    assert_eq!(p["sat"]["axis"]["kind"], "closest");
    assert!(p["sat"]["axis"]["index"].is_null());
    assert!((num(&p["gjk"]["distance"]) - 1.5).abs() < 1e-5);
    assert!(close(vec3(&p["gjk"]["closest_a"]), [1.0, 0.0, 0.0]));
    assert!(close(vec3(&p["gjk"]["closest_b"]), [2.5, 0.0, 0.0]));
    // Gap 1.5 closed head-on at 4 per unit time.
    assert_eq!(p["sweep"]["hit"], true);
    assert_eq!(p["sweep"]["status"], "hit");
    assert!((num(&p["sweep"]["t_first"]) - 0.375).abs() < 1e-5);
    assert!(close(vec3(&p["sweep"]["normal"]), [1.0, 0.0, 0.0]));

    let (_, text, _) = run(&[
        "query",
        "scenes/3d/round_spheres.ron",
        "--pair",
        "big",
        "far",
    ]);
    assert!(text.contains("sweep     hit  t_first 0.375"), "{text}");
    let (_, trace, _) = run(&[
        "trace",
        "scenes/3d/round_capsule_over_box_side.ron",
        "--algorithm",
        "clip",
    ]);
    assert!(trace.contains("edge against face"), "{trace}");
    assert!(trace.contains("(1, 0.4, 0.2887) (depth 0.1)"), "{trace}");
}

/// The hand-derived GJK scene: a corner-to-corner pair and an apex over a face.
#[test]
fn json_pins_gjk_distance_and_closest_points() {
    let v = json(&["query", "scenes/3d/gjk_separated_boxes.ron", "--json"]);
    let pairs = v["pairs"].as_array().unwrap();
    let find = |a: &str, b: &str| {
        pairs
            .iter()
            .find(|p| p["a"] == a && p["b"] == b)
            .unwrap_or_else(|| panic!("{a} vs {b}"))
    };
    let p = find("box", "cube");
    let g = &p["gjk"];
    let keys: Vec<&str> = g.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "intersecting",
            "distance",
            "closest_a",
            "closest_b",
            "iterations",
            "status"
        ]
    );
    assert_eq!(g["intersecting"], false);
    assert!((num(&g["distance"]) - 3.5f64.sqrt()).abs() < 1e-5);
    assert!(close(vec3(&g["closest_a"]), [1.0, 0.5, 0.5]));
    assert!(close(vec3(&g["closest_b"]), [2.5, 1.5, 1.0]));
    assert!(p["epa"].is_null());
    let g = &find("box", "pyramid")["gjk"];
    assert!((num(&g["distance"]) - 0.75).abs() < 1e-5);
    assert!(close(vec3(&g["closest_a"]), [0.3, 0.5, 0.1]));
    assert!(close(vec3(&g["closest_b"]), [0.3, 1.25, 0.1]));
    let (code, out, err) = run(&["query", "scenes/3d/gjk_separated_boxes.ron"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("  gjk       distance 1.8708  iterations "),
        "{out}"
    );
    assert!(
        out.contains("            closest on box (1, 0.5, 0.5)  on cube (2.5, 1.5, 1)\n"),
        "{out}"
    );
    assert!(out.contains("  epa       not run (separated)\n"), "{out}");
}

#[test]
fn edge_axes_report_both_edges() {
    let v = json(&["query", "scenes/3d/edge_edge_crossed_ridges.ron", "--json"]);
    let s = &v["pairs"][0]["sat"];
    assert_eq!(s["axis"]["kind"], "edges");
    assert_eq!(s["axis"]["index"].as_array().unwrap().len(), 2);
    assert!((num(&s["depth"]) - 0.114214).abs() < 1e-5);
    assert_eq!(v["pairs"][0]["manifold"]["feature"], "edge_edge");
}

/// `--pair B A` swaps the roles: the normal flips, the depth stays.
#[test]
fn pair_order_flips_the_normal() {
    let v = json(&[
        "query",
        "scenes/3d/face_face_box_on_slab.ron",
        "--pair",
        "cube",
        "slab",
        "--json",
    ]);
    let p = &v["pairs"][0];
    assert_eq!(p["a"], "cube");
    assert!(close(vec3(&p["sat"]["normal"]), [0.0, -1.0, 0.0]));
    assert!((num(&p["sat"]["depth"]) - 0.1).abs() < 1e-6);
}

#[test]
fn text_form_reads_like_the_2d_one() {
    let (code, out, err) = run(&["query", "scenes/3d/face_face_box_on_slab.ron"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("Face-face: a cube resting on a slab"),
        "{out}"
    );
    assert!(out.contains("slab vs cube: intersecting"), "{out}");
    assert!(
        out.contains("  sat       depth 0.1  normal (0, 1, 0)  axis face "),
        "{out}"
    );
    assert!(
        out.contains("  manifold  face against face  normal (0, 1, 0)  reference slab  clipped 4"),
        "{out}"
    );
    assert_eq!(out.matches("            point (").count(), 4, "{out}");
    let (_, out, _) = run(&["query", "scenes/3d/sweep_hit.ron"]);
    assert!(
        out.contains("  sweep     hit  t_first 0.3586  t_last 0.8414  normal (1, 0, 0)"),
        "{out}"
    );
}

#[test]
fn trace_prints_each_3d_algorithm_with_sentences() {
    for (scene, algorithm, phrase) in [
        (
            "scenes/3d/gjk_separated_boxes.ron",
            "gjk",
            "box and cube are 1.8708 apart",
        ),
        (
            "scenes/3d/epa_several_expansions.ron",
            "epa",
            "The depth is 0.4071 along (0, 1, 0)",
        ),
        ("scenes/3d/edge_edge_crossed_ridges.ron", "sat", "edge"),
        (
            "scenes/3d/face_face_clip_eight.ron",
            "clip",
            "clipping gave 8 points, kept 4",
        ),
        (
            "scenes/3d/sweep_hit.ron",
            "sweep",
            "from t = 0.3586 to t = 0.8414",
        ),
    ] {
        let (code, out, err) = run(&["trace", scene, "--algorithm", algorithm]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("Step 1 of "), "{out}");
        assert!(out.contains("\nResult\n"), "{out}");
        assert!(out.contains(phrase), "{algorithm}: {out}");
        assert!(
            out.lines().skip(2).all(|l| l.chars().count() <= 88),
            "{out}"
        );
    }
}

#[test]
fn algorithms_without_a_3d_version_are_refused() {
    let (code, _, err) = run(&["trace", "scenes/3d/welcome.ron", "--algorithm", "minkowski"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(
            "error: scenes/3d/welcome.ron: --algorithm minkowski has no 3D version yet; a 3D scene traces gjk, epa, sat, clip, sweep"
        ),
        "{err}"
    );
}

#[test]
fn unknown_pair_names_and_bad_files_exit_2() {
    let (code, _, err) = run(&[
        "query",
        "scenes/3d/welcome.ron",
        "--pair",
        "ground",
        "ghost",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("no body is named \"ghost\""), "{err}");
    let (code, _, err) = run(&["query", "tests/hostile/3d_2d_shape.ron"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: tests/hostile/3d_2d_shape.ron:6:"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one error, not two: {err}");
}
