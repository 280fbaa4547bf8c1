//! `collision-lab render` end to end: pictures drawn under Xvfb, checked for overlay colours
//! where the core's numbers say they must be. Skipped (with a message) without xvfb-run,
//! unless COLLISION_LAB_REQUIRE_X=1.

mod window_common;

use collision_lab::app::camera::Camera;
use collision_lab::app::canvas::caption_strip_height;
use collision_lab::app::draw::palette;
use collision_lab::app::layout::CornersTaken;
use collision_lab::app::state::Document;
use collision_lab::app::workspace::{Workspace, Workspace2d};
use collision_lab::query::Algorithm;
use glam::Vec2;
use std::path::Path;
use window_common::*;

/// What `render` draws beside the inset: the legend (the caption has its own strip).
/// (The legend's measured box is left out: at scale 1 it stays above every corner the
/// inset may take in these scenes.)
const RENDERED: CornersTaken = CornersTaken {
    legend: true,
    legend_box: None,
};

const W: u32 = 1000;
const H: u32 = 700;

/// The canvas of a `W` x `H` render: the picture above the strip that holds the step's
/// sentence.
fn picture_canvas() -> Vec2 {
    Vec2::new(W as f32, H as f32 - caption_strip_height(1.0))
}

/// Two overlapping boxes (A at the origin, B up and to the right) with a fixed view.
fn boxes_scene(overlays: &str) -> String {
    format!(
        r#"(
    version: 1,
    bodies: [
        (name: "a", shape: Box(half_extents: (2.0, 1.0)), position: (0.0, 0.0)),
        (name: "b", shape: Box(half_extents: (1.0, 1.0)), position: (2.5, 1.5), angle: 10.0),
    ],
    view: (center: (0.0, 0.0), zoom: 60.0),
    overlays: [{overlays}],
)"#
    )
}

/// The workspace the renderer builds for this text, to ask where things are drawn.
fn session_for(text: &str) -> Workspace2d {
    let doc = Document::parse(text, "test.ron").unwrap();
    let camera = Camera {
        size: picture_canvas(),
        ..Camera::default()
    };
    Workspace2d::new(doc, camera)
}

fn render_scene(name: &str, text: &str, extra: &[&str]) -> Option<(Picture, Workspace2d)> {
    if !have(&["xvfb-run"]) {
        return None;
    }
    let dir = temp_dir(name);
    let scene = dir.join("scene.ron");
    std::fs::write(&scene, text).unwrap();
    let out = dir.join("out.png");
    let size = format!("{W}x{H}");
    let mut args = vec!["--size", size.as_str()];
    args.extend_from_slice(extra);
    let result = render(&scene, &out, &args);
    assert!(
        result.status.success(),
        "render failed: {}",
        String::from_utf8_lossy(&result.stderr)
    );
    let picture = Picture::open(&out);
    assert_eq!(picture.size(), (W, H), "the picture has the requested size");
    Some((picture, session_for(text)))
}

#[test]
fn bodies_are_outlined_in_their_pair_colours() {
    let Some((pic, s)) = render_scene("bodies", &boxes_scene(""), &[]) else {
        return;
    };
    // The middle of A's bottom edge (y = -1) and of B's left edge carry the role colours.
    let a_edge = s.camera.to_screen(Vec2::new(0.0, -1.0));
    assert!(
        pic.count_near(a_edge.x, a_edge.y, 3.0, palette::BODY_A, 40) > 0,
        "A's outline"
    );
    let b = &s.session.doc.bodies[1];
    let b_edge = b.pose.transform_point(Vec2::new(0.0, 1.0));
    let p = s.camera.to_screen(b_edge);
    assert!(
        pic.count_near(p.x, p.y, 3.0, palette::BODY_B, 40) > 0,
        "B's outline"
    );
    // Far from every body there is only background and grid.
    let empty = s.camera.to_screen(Vec2::new(-6.0, 4.0));
    assert_eq!(
        pic.count_near(empty.x, empty.y, 3.0, palette::BODY_A, 40),
        0
    );
}

#[test]
fn the_legend_leaves_a_body_in_its_usual_corner_visible() {
    // A saved view framed for a larger window puts B in the top right, where the legend
    // usually sits (gjk_separated.ron at 1280x720): the legend moves to the top left and
    // B's outline shows in its own colour.
    let text = r#"(
    version: 1,
    bodies: [
        (name: "a", shape: Box(half_extents: (1.0, 1.0)), position: (-2.0, -2.0)),
        (name: "b", shape: Box(half_extents: (1.0, 1.0)), position: (6.5, 4.0)),
    ],
    view: (center: (0.0, 0.0), zoom: 60.0),
    overlays: [Minkowski, Gjk],
)"#;
    let Some((pic, s)) = render_scene("legend-corner", text, &[]) else {
        return;
    };
    let b = &s.session.doc.bodies[1];
    for local in [
        Vec2::new(-1.0, 0.0),
        Vec2::new(0.0, -1.0),
        Vec2::new(-1.0, 0.5),
    ] {
        let p = s.camera.to_screen(b.pose.transform_point(local));
        assert!(
            pic.count_near(p.x, p.y, 3.0, palette::BODY_B, 40) > 0,
            "B's outline at {p} (under the legend's usual place)"
        );
    }
}

#[test]
fn gjk_step_draws_the_simplex_in_the_inset() {
    let text = boxes_scene("Gjk");
    let Some((pic, s)) = render_scene("gjk", &text, &["--step", "gjk:2"]) else {
        return;
    };
    let run = s.session.run().unwrap();
    let inset = s.inset_camera(1.0, RENDERED).unwrap();
    let step = &run.trace.gjk[1];
    for w in step.simplex().points() {
        let p = inset.to_screen(w.point);
        assert!(
            pic.count_near(p.x, p.y, 4.0, palette::STRUCTURE, 40) > 0,
            "simplex vertex {:?} drawn at {p}",
            w.point
        );
    }
    // The origin of A - B is marked in the inset.
    let o = inset.to_screen(Vec2::ZERO);
    assert!(
        pic.count_near(o.x, o.y, 3.0, palette::ORIGIN, 50) > 0,
        "origin marker"
    );
}

/// The workspace `render --split` builds for this text, laid out on the picture.
fn split_session_for(text: &str) -> Workspace2d {
    let mut w = session_for(text);
    w.set_split(true);
    w.set_viewport(Vec2::ZERO, picture_canvas());
    w
}

#[test]
fn split_view_draws_a_minus_b_beside_the_bodies_with_the_support_sources_on_them() {
    let text = boxes_scene("Minkowski, Gjk");
    // --step counts from 1 as the timeline does: gjk:2 is the step at index 1.
    let Some((pic, _)) = render_scene("split", &text, &["--step", "gjk:2", "--split"]) else {
        return;
    };
    let mut s = split_session_for(&text);
    s.session.show_step(Algorithm::Gjk, 1).unwrap();
    let k = s.session.overlays().step(Algorithm::Gjk).unwrap();
    let (world, diff) = (s.camera, s.split.camera);
    // The bodies on the left half, A - B on the right half at the same size.
    assert_eq!(world.size, diff.size, "equal halves");
    assert!(diff.origin.x >= world.origin.x + world.size.x);
    assert!(diff.origin.x + diff.size.x <= W as f32 + 0.5);
    let run = s.session.run().unwrap();
    let step = &run.trace.gjk[k];
    for w in step.simplex().points() {
        let p = diff.to_screen(w.point);
        assert!(
            diff.contains_screen(p),
            "simplex vertex inside the A - B half"
        );
        assert!(
            pic.count_near(p.x, p.y, 4.0, palette::STRUCTURE, 40) > 5,
            "simplex vertex {:?} drawn at {p} in the A - B half",
            w.point
        );
    }
    let o = diff.to_screen(Vec2::ZERO);
    assert!(
        pic.count_near(o.x, o.y, 3.0, palette::ORIGIN, 50) > 3,
        "the origin of A - B at {o}"
    );
    // The A - B half is as large as the body half: its outline reaches across most of it.
    let outline_px = pic.count(palette::MINKOWSKI, 30);
    assert!(outline_px > 1500, "A - B drawn large: {outline_px} pixels");
    // The support point of this step in A - B, and its sources on the bodies.
    let w = step.support.expect("this step searched");
    let p = diff.to_screen(w.point);
    assert!(
        pic.count_near(p.x, p.y, 9.0, palette::SEARCH, 40) > 5,
        "new w at {p}"
    );
    for (source, colour, name) in [
        (w.on_a, palette::BODY_A, "a"),
        (w.on_b, palette::BODY_B, "b"),
    ] {
        let q = world.to_screen(source);
        assert!(world.contains_screen(q), "{name} on the body half");
        assert!(
            pic.count_near(q.x, q.y, 9.0, colour, 40) > 5,
            "support source {name} ring at {q}"
        );
    }
    // The core's numbers agree with the picture's story: w = a - b.
    assert!((w.point - (w.on_a - w.on_b)).length() < 1e-4);
}

#[test]
fn sweep_at_shows_the_moving_body_at_that_time_and_keeps_the_ghosts() {
    // A box moving right at 8 units per unit time into a wall, shown at t = 0.25.
    let text = r#"(
    version: 1,
    bodies: [
        (name: "wall", shape: Box(half_extents: (0.5, 2.0)), position: (3.0, 0.0)),
        (name: "mover", shape: Box(half_extents: (0.5, 0.5)), position: (-3.0, 0.0),
            velocity: (8.0, 0.0)),
    ],
    view: (center: (0.0, 0.0), zoom: 60.0),
    overlays: [Sweep],
)"#;
    let Some((pic, s)) = render_scene("sweep_at", text, &["--sweep-at", "0.25"]) else {
        return;
    };
    let out = s.session.run().unwrap().query.sweep.unwrap();
    // First contact when the gap of 5 closes at speed 8.
    assert!((out.t_first.unwrap() - 0.625).abs() < 1e-4, "{out:?}");
    // At t = 0.25 the mover's centre is at x = -1: its top edge y = 0.5 there, outlined in
    // B's colour, where nothing else is drawn.
    let top = s.camera.to_screen(glam::Vec2::new(-1.0, 0.5));
    assert!(
        pic.count_near(top.x, top.y, 3.0, palette::BODY_B, 40) > 3,
        "the mover at t = 0.25, top edge at {top}"
    );
    // The ghost at t_first (centre x = 2) is still drawn, in the result colour (dashed: look
    // along more than one dash).
    let ghost = s.camera.to_screen(glam::Vec2::new(2.0, 0.5));
    assert!(
        pic.count_near(ghost.x, ghost.y, 10.0, palette::RESULT, 40) > 3,
        "the ghost at t_first, top edge at {ghost}"
    );
}

#[test]
fn epa_final_normal_and_depth_are_drawn_at_the_witness_points() {
    let Some((pic, s)) = render_scene("epa", &boxes_scene("Epa"), &[]) else {
        return;
    };
    let e = s.session.run().unwrap().query.epa.unwrap();
    // The normal ray starts at point_a and runs 60 px along the normal.
    let start = s.camera.to_screen(e.point_a);
    let dir = Vec2::new(e.normal.x, -e.normal.y);
    let along = start + dir * 30.0;
    assert!(
        pic.count_near(along.x, along.y, 3.0, palette::RESULT, 40) > 0,
        "EPA normal ray"
    );
}

#[test]
fn sat_highlights_the_best_axis_and_clip_marks_the_contacts() {
    let Some((pic, s)) = render_scene("clip", &boxes_scene("Clip"), &[]) else {
        return;
    };
    let m = s.session.run().unwrap().query.manifold.unwrap();
    assert!(m.count >= 1);
    for c in m.points() {
        let p = s.camera.to_screen(c.point);
        assert!(
            pic.count_near(p.x, p.y, 4.0, palette::RESULT, 40) > 5,
            "contact dot at {p}"
        );
    }
    let Some((pic, _)) = render_scene("sat", &boxes_scene("Sat"), &[]) else {
        return;
    };
    assert!(
        pic.count(palette::HIGHLIGHT, 30) > 100,
        "the best axis is highlighted"
    );
    assert!(pic.count(palette::RESULT, 30) > 20, "the overlap is marked");
}

#[test]
fn a_bad_scene_is_an_error_with_a_position_and_status_2() {
    if !have(&["xvfb-run"]) {
        return;
    }
    let dir = temp_dir("bad");
    let scene = dir.join("bad.ron");
    std::fs::write(&scene, "(\n    version: 1,\n    bodies: [\n        (name: \"x\", shape: Circle(radius: -1.0)),\n    ],\n)\n").unwrap();
    let out = render(&scene, &dir.join("out.png"), &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.contains("bad.ron:4:"), "file:line:col in {stderr}");
    assert!(!dir.join("out.png").exists());
    let out = render(
        Path::new("scenes/welcome.ron"),
        &dir.join("o.png"),
        &["--step", "gjk:999"],
    );
    assert_eq!(out.status.code(), Some(2), "a step past the end is refused");
}

#[test]
fn without_a_reachable_display_render_says_so_and_exits_2() {
    let dir = temp_dir("nodisplay");
    let mut cmd = std::process::Command::new(BIN);
    cmd.args(["render", "scenes/welcome.ron", "--out"])
        .arg(dir.join("x.png"))
        .env("DISPLAY", ":987")
        .env_remove("WAYLAND_DISPLAY");
    let out = run_with_timeout(&mut cmd, std::time::Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: ") && stderr.contains("xvfb-run"),
        "{stderr}"
    );
}

/// Renders `scene` (at 1280x720, UI scale `scale`, optionally at a step) and returns the
/// labels the placer put on the picture.
fn placed_labels(scene: &str, step: Option<&str>, scale: &str) -> Option<Vec<serde_json::Value>> {
    if !have(&["Xvfb"]) {
        return None;
    }
    let dir = temp_dir(&format!(
        "labels-{scene}-{}",
        step.unwrap_or("final").replace(':', "-")
    ));
    let (out, json) = (dir.join("out.png"), dir.join("labels.json"));
    let mut args = vec!["--size", "1280x720"];
    if let Some(s) = step {
        args.extend(["--step", s]);
    }
    let env = [
        ("COLLISION_LAB_LABELS_FILE", json.to_str().unwrap()),
        ("COLLISION_LAB_UI_SCALE", scale),
    ];
    let path = format!("scenes/{scene}.ron");
    let result = render_with_env(Path::new(&path), &out, &args, &env);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let text = std::fs::read_to_string(&json).expect("render wrote the labels");
    Some(
        serde_json::from_str::<serde_json::Value>(&text)
            .unwrap()
            .as_array()
            .unwrap()
            .clone(),
    )
}

fn rect_of(v: &serde_json::Value) -> [f32; 4] {
    let f = |i: usize| v[i].as_f64().unwrap() as f32;
    [f(0), f(1), f(0) + f(2), f(1) + f(3)]
}

#[test]
fn labels_never_overlap_or_leave_their_view_on_the_welcome_and_clipping_scenes() {
    let cases = [
        ("welcome", None, "1"),
        ("welcome", Some("gjk:2"), "1"),
        ("welcome", Some("epa:1"), "1"),
        ("welcome", None, "2"),
        ("clip_one_point", None, "1"),
        ("clip_reference_flip", Some("clip:2"), "1"),
        ("clip_two_points", None, "1"),
        ("clip_two_points", Some("clip:3"), "2"),
    ];
    for (scene, step, scale) in cases {
        let Some(labels) = placed_labels(scene, step, scale) else {
            return;
        };
        let what = format!("{scene} {step:?} at scale {scale}");
        assert!(
            labels.len() >= 3,
            "{what}: the picture has labels: {labels:?}"
        );
        let rects: Vec<[f32; 4]> = labels.iter().map(|l| rect_of(&l["rect"])).collect();
        for (l, r) in labels.iter().zip(&rects) {
            let v = rect_of(&l["view"]);
            assert!(
                r[0] >= v[0] - 0.01
                    && r[1] >= v[1] - 0.01
                    && r[2] <= v[2] + 0.01
                    && r[3] <= v[3] + 0.01,
                "{what}: {} at {r:?} crosses its view's border {v:?}",
                l["text"]
            );
            assert!(r[0] >= 0.0 && r[1] >= 0.0 && r[2] <= 1280.0 && r[3] <= 720.0);
        }
        for i in 0..rects.len() {
            for j in i + 1..rects.len() {
                let (a, b) = (rects[i], rects[j]);
                let overlap = a[0] < b[2] - 0.01
                    && b[0] < a[2] - 0.01
                    && a[1] < b[3] - 0.01
                    && b[1] < a[3] - 0.01;
                assert!(
                    !overlap,
                    "{what}: {} and {} overlap",
                    labels[i]["text"], labels[j]["text"]
                );
            }
        }
    }
}

#[test]
fn the_inset_moves_off_a_pair_that_sits_in_its_usual_corner() {
    // The focused pair sits in the lower-right corner of a fixed view, where the inset
    // usually goes.
    let text = r#"(
    version: 1,
    bodies: [
        (name: "a", shape: Box(half_extents: (1.0, 1.0)), position: (5.0, -3.5)),
        (name: "b", shape: Box(half_extents: (1.0, 1.0)), position: (6.0, -3.0)),
    ],
    view: (center: (0.0, 0.0), zoom: 60.0),
    overlays: [Minkowski, Gjk],
)"#;
    let Some((pic, s)) = render_scene("inset_corner", text, &[]) else {
        return;
    };
    let inset = s.inset_camera(1.0, RENDERED).unwrap();
    let (lo, hi) = (inset.origin, inset.origin + inset.size);
    for corner in [(4.0, -4.5), (7.0, -2.0)] {
        let p = s.camera.to_screen(Vec2::new(corner.0, corner.1));
        assert!(
            !(p.x > lo.x && p.x < hi.x && p.y > lo.y && p.y < hi.y),
            "the inset {lo}..{hi} covers the pair's corner {p}"
        );
    }
    assert!(lo.cmpge(Vec2::ZERO).all() && hi.cmple(Vec2::new(W as f32, H as f32)).all());
    // A's bottom edge is drawn in full colour: nothing lies over it.
    let edge = s.camera.to_screen(Vec2::new(5.0, -4.5));
    assert!(
        pic.count_near(edge.x, edge.y, 3.0, palette::BODY_A, 20) > 0,
        "A's outline is visible at {edge}"
    );
    // The inset is drawn where the workspace says: its purple frame.
    assert!(pic.count_near(lo.x + 30.0, lo.y, 3.0, palette::MINKOWSKI, 30) > 0);
}
