//! The picture never contradicts the words: `collision-lab render --step ALG:N` draws step N
//! as the timeline and `trace` number it, SAT's step draws that step's axis and the best
//! axis so far (not the final best), GJK's last step draws no EPA polytope over its
//! simplex, and EPA's polytope has its own colour. Colours are checked at positions the core
//! computes. Skipped (with a message) without xvfb-run, unless COLLISION_LAB_REQUIRE_X=1.

mod window_common;

use collision_lab::app::camera::Camera;
use collision_lab::app::canvas::caption_strip_height;
use collision_lab::app::draw::palette;
use collision_lab::app::layout::CornersTaken;
use collision_lab::app::state::Document;
use collision_lab::app::workspace::Workspace2d;
use collision_lab::query::sat::SatAxis;
use collision_lab::query::Algorithm;
use glam::Vec2;
use std::path::Path;
use window_common::*;

const W: u32 = 1000;
const H: u32 = 700;

/// The canvas of a `W` x `H` render: the picture above the strip that holds the step's
/// sentence.
fn picture_canvas() -> Vec2 {
    Vec2::new(W as f32, H as f32 - caption_strip_height(1.0))
}

/// Two overlapping boxes, B turned by 10 degrees so that its axes differ from A's.
fn boxes_scene(overlays: &str) -> String {
    format!(
        r#"(
    version: 1,
    bodies: [
        (name: "a", shape: Box(half_extents: (2.0, 1.0)), position: (0.0, 0.0)),
        (name: "b", shape: Box(half_extents: (1.0, 1.0)), position: (2.5, 1.5), angle: 10.0),
    ],
    view: (center: (0.5, 0.5), zoom: 60.0),
    overlays: [{overlays}],
)"#
    )
}

fn workspace_for(text: &str) -> Workspace2d {
    let doc = Document::parse(text, "test.ron").unwrap();
    let camera = Camera {
        size: picture_canvas(),
        ..Camera::default()
    };
    Workspace2d::new(doc, camera)
}

fn write_scene(name: &str, text: &str) -> Option<std::path::PathBuf> {
    if !have(&["xvfb-run"]) {
        return None;
    }
    let dir = temp_dir(name);
    let scene = dir.join("scene.ron");
    std::fs::write(&scene, text).unwrap();
    Some(scene)
}

fn render_step(scene: &Path, step: &str) -> (Option<Picture>, std::process::Output) {
    let out = scene.with_file_name(format!("{}.png", step.replace(':', "-")));
    let size = format!("{W}x{H}");
    let result = render(scene, &out, &["--size", &size, "--step", step]);
    let picture = result.status.success().then(|| Picture::open(&out));
    (picture, result)
}

/// Pixels of `color` (within 30 per channel) inside a screen rectangle.
fn count_in(pic: &Picture, origin: Vec2, size: Vec2, color: macroquad::prelude::Color) -> usize {
    let target = rgb(color);
    let (w, h) = pic.size();
    let mut n = 0;
    for y in origin.y.max(0.0) as u32..((origin.y + size.y) as u32).min(h) {
        for x in origin.x.max(0.0) as u32..((origin.x + size.x) as u32).min(w) {
            let p = pic.image.get_pixel(x, y);
            if (0..3).all(|c| p[c].abs_diff(target[c]) <= 30) {
                n += 1;
            }
        }
    }
    n
}

/// Of a few points along the line of `axis` through `center` (world) that fall on the
/// canvas, how many have `color` drawn within 3 pixels.
fn hits_along(
    pic: &Picture,
    s: &Workspace2d,
    center: Vec2,
    axis: &SatAxis,
    reach: f32,
    color: macroquad::prelude::Color,
) -> usize {
    [-0.9f32, -0.6, 0.6, 0.9]
        .iter()
        .map(|f| s.camera.to_screen(center + axis.axis * reach * *f))
        .filter(|p| {
            let (lo, hi) = (s.camera.origin, s.camera.origin + s.camera.size);
            p.cmpge(lo).all() && p.cmple(hi).all()
        })
        .filter(|p| pic.count_near(p.x, p.y, 3.0, color, 30) > 0)
        .count()
}

#[test]
fn render_counts_steps_from_one_like_the_timeline_and_trace() {
    let text = boxes_scene("Gjk");
    let Some(scene) = write_scene("truth-count", &text) else {
        return;
    };
    let n = workspace_for(&text)
        .session
        .run()
        .unwrap()
        .step_count(Algorithm::Gjk);
    let (pic, out) = render_step(&scene, &format!("gjk:{n}"));
    assert!(
        pic.is_some(),
        "the last step, numbered {n}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    for bad in [0, n + 1] {
        let (pic, out) = render_step(&scene, &format!("gjk:{bad}"));
        assert!(pic.is_none() && out.status.code() == Some(2), "gjk:{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("1 to {n}")), "{err}");
    }
}

#[test]
fn sat_step_draws_its_own_axis_and_the_best_axis_so_far() {
    let text = boxes_scene("Sat");
    let Some(scene) = write_scene("truth-sat", &text) else {
        return;
    };
    let s = workspace_for(&text);
    let run = s.session.run().unwrap();
    let (a, b) = (&s.session.doc.bodies[run.a], &s.session.doc.bodies[run.b]);
    let center = 0.5 * (a.pose.position + b.pose.position);
    let reach = (a.shape.bounding_radius()
        + b.shape.bounding_radius()
        + 0.5 * (a.pose.position - b.pose.position).length())
        * 1.3;
    let steps = &run.trace.sat;
    let final_best = run.query.sat.best;
    let mut checked_a_best_so_far_before_the_end = false;
    for (k, step) in steps.iter().enumerate() {
        let (pic, out) = render_step(&scene, &format!("sat:{}", k + 1));
        let pic = pic.unwrap_or_else(|| panic!("{}", String::from_utf8_lossy(&out.stderr)));
        assert!(
            hits_along(&pic, &s, center, step, reach, palette::CURRENT_AXIS) >= 2,
            "step {}: the current axis {} is drawn through the pair",
            k + 1,
            step.axis
        );
        let best = steps[..=k]
            .iter()
            .find(|x| x.source == step.best_so_far)
            .expect("the best so far is a step already taken");
        assert!(
            hits_along(&pic, &s, center, best, reach, palette::HIGHLIGHT) >= 2,
            "step {}: the best axis so far {} is highlighted",
            k + 1,
            best.axis
        );
        // Before the final best is reached, its line (when it is another line) is not
        // highlighted: the picture shows the best so far, not the answer.
        let other_line = best.axis.dot(final_best.axis).abs() < 0.99;
        if other_line && step.best_so_far != final_best.source {
            assert_eq!(
                hits_along(&pic, &s, center, &final_best, reach, palette::HIGHLIGHT),
                0,
                "step {}: the final best axis is not drawn yet",
                k + 1
            );
            checked_a_best_so_far_before_the_end = true;
        }
    }
    assert!(
        checked_a_best_so_far_before_the_end
            || steps.iter().all(|x| x.best_so_far == final_best.source),
        "the scene has a step whose best so far is not the answer"
    );
}

#[test]
fn gjk_last_step_draws_no_epa_polytope_and_epa_has_its_own_colour() {
    let text = boxes_scene("Minkowski, Gjk, Epa");
    let Some(scene) = write_scene("truth-gjk-epa", &text) else {
        return;
    };
    let s = workspace_for(&text);
    let run = s.session.run().unwrap();
    // Where `render` puts the inset (beside its legend, off the pair).
    let rendered = CornersTaken {
        legend: true,
        legend_box: None,
    };
    let inset = s.inset_camera(1.0, rendered).unwrap();
    let n = run.step_count(Algorithm::Gjk);
    let (pic, out) = render_step(&scene, &format!("gjk:{n}"));
    let pic = pic.unwrap_or_else(|| panic!("{}", String::from_utf8_lossy(&out.stderr)));
    for w in run.trace.gjk[n - 1].simplex().points() {
        let p = inset.to_screen(w.point);
        assert!(
            pic.count_near(p.x, p.y, 4.0, palette::STRUCTURE, 40) > 0,
            "GJK's simplex vertex at {p}"
        );
    }
    assert_eq!(
        count_in(&pic, inset.origin, inset.size, palette::POLYTOPE),
        0,
        "no EPA polytope in the inset at GJK's last step"
    );
    let m = run.step_count(Algorithm::Epa);
    assert!(m >= 1, "the boxes overlap: EPA expands");
    let (pic, out) = render_step(&scene, "epa:1");
    let pic = pic.unwrap_or_else(|| panic!("{}", String::from_utf8_lossy(&out.stderr)));
    let polytope = &run.trace.epa[0].polytope;
    for w in polytope {
        let p = inset.to_screen(w.point);
        assert!(
            pic.count_near(p.x, p.y, 4.0, palette::POLYTOPE, 40) > 0,
            "EPA's polytope vertex at {p} in its own colour"
        );
    }
    assert!(
        count_in(&pic, inset.origin, inset.size, palette::STRUCTURE) < 10,
        "no GJK simplex colour in the inset at an EPA step"
    );
}
