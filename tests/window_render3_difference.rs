//! `collision-lab render` of A - B in 3D, end to end under Xvfb: the origin marker, GJK's
//! simplex and its support point sit at the screen positions projected from the core's
//! numbers through the A - B view's own camera (the split view's right half, or the inset),
//! and w's sources sit on the bodies; the sweep's contact points at t_first; and every 3D
//! scene renders every step of every algorithm its timeline offers (`render --steps`, half
//! of them split). Skipped (with a message) without xvfb-run, unless
//! COLLISION_LAB_REQUIRE_X=1.

mod window_common;

use collision_lab::app::canvas::caption_strip_height;
use collision_lab::app::draw::palette;
use collision_lab::app::state3::Document3;
use collision_lab::app::workspace::Workspace;
use collision_lab::app::workspace3::Workspace3d;
use collision_lab::query::Algorithm;
use collision_lab::query3::simplex::Region;
use collision_lab::scene::parse_scene3;
use glam::{Vec2, Vec3};
use std::path::{Path, PathBuf};
use window_common::*;

const W: u32 = 1100;
const H: u32 = 700;

fn scene_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes/3d")
        .join(name)
}

/// The workspace `render` builds, split or not, at step `n` (from 1) of `algorithm`.
fn workspace_for(name: &str, split: bool, (a, n): (Algorithm, usize)) -> Workspace3d {
    let text = std::fs::read_to_string(scene_path(name)).unwrap();
    let (scene, bodies) = parse_scene3(&text, name).unwrap();
    let mut w = Workspace3d::new(Document3::from_parts(scene, bodies));
    let canvas = Vec2::new(W as f32, H as f32 - caption_strip_height(1.0));
    w.set_viewport(Vec2::ZERO, canvas);
    w.set_split(split);
    w.fit_all_if_unsaved();
    w.session_mut().show_step(a, n - 1).unwrap();
    w
}

fn render_3d(name: &str, extra: &[&str]) -> Option<Picture> {
    let dir = format!("render3-difference-{}", name.trim_end_matches(".ron"));
    render_picture(&scene_path(name), &dir, (W, H), extra)
}

#[test]
fn gjk_s_tetrahedron_in_the_split_view_sits_around_the_origin_marker() {
    let name = "welcome.ron";
    let w = workspace_for(name, true, (Algorithm::Gjk, 1));
    let steps = &w.session().run().unwrap().trace.gjk;
    let n = steps.len();
    let last = steps[n - 1].clone();
    assert_eq!(last.region, Region::Inside, "the welcome's boxes overlap");
    let step = format!("gjk:{n}");
    let Some(picture) = render_3d(name, &["--step", &step, "--split"]) else {
        return;
    };
    let w = workspace_for(name, true, (Algorithm::Gjk, n));
    let c = w.difference_camera(1.0).expect("the split shows A - B");
    assert!(c.origin.x > W as f32 * 0.45, "the right half: {c:?}");
    let o = c.to_screen(Vec3::ZERO).unwrap();
    assert!(
        picture.count_near(o.x, o.y, 3.0, palette::ORIGIN, 40) > 0,
        "the origin marker at {o}"
    );
    for v in last.candidate.points() {
        let at = c.to_screen(v.point).unwrap();
        assert!(
            picture.count_near(at.x, at.y, 4.0, palette::STRUCTURE, 45) > 0,
            "tetrahedron vertex {} at {at}",
            v.point
        );
    }
}

#[test]
fn the_support_point_shows_in_the_inset_and_its_sources_on_the_bodies() {
    let name = "gjk_separated_boxes.ron";
    let w = workspace_for(name, false, (Algorithm::Gjk, 1));
    let steps = &w.session().run().unwrap().trace.gjk;
    let k = steps.iter().position(|s| s.support.is_some()).unwrap() + 1;
    let Some(picture) = render_3d(name, &["--step", &format!("gjk:{k}")]) else {
        return;
    };
    let w = workspace_for(name, false, (Algorithm::Gjk, k));
    let s = w.session().run().unwrap().trace.gjk[k - 1].clone();
    let support = s.support.unwrap();
    let c = w.difference_camera(1.0).expect("GJK opens the A - B inset");
    assert!(c.size.x < W as f32 * 0.5, "an inset: {c:?}");
    let at = c.to_screen(support.point).unwrap();
    assert!(
        picture.count_near(at.x, at.y, 5.0, palette::SEARCH, 45) > 0,
        "w at {at} in the inset"
    );
    for source in [support.on_a, support.on_b] {
        let at = w.camera.to_screen(source).unwrap();
        assert!(
            picture.count_near(at.x, at.y, 3.0, palette::SEARCH, 45) > 0,
            "w's source {source} at {at} on the bodies"
        );
    }
    let o = c.to_screen(Vec3::ZERO).unwrap();
    assert!(picture.count_near(o.x, o.y, 3.0, palette::ORIGIN, 40) > 0);
}

#[test]
fn the_sweep_s_contact_points_at_t_first_are_drawn_where_the_core_put_them() {
    let name = "sweep_hit.ron";
    let w = workspace_for(name, false, (Algorithm::Sweep, 1));
    let out = w.session().run().unwrap().query.sweep.expect("B moves");
    let points = out.manifold.expect("B reaches A").points;
    assert!(!points.is_empty());
    let Some(picture) = render_3d(name, &["--step", "sweep:1", "--sweep-at", "0.2"]) else {
        return;
    };
    for c in points.iter() {
        let at = w.camera.to_screen(c.point).unwrap();
        assert!(
            picture.count_near(at.x, at.y, 3.0, palette::RESULT, 40) > 0,
            "contact point {} at t_first at {at}",
            c.point
        );
    }
}

#[test]
fn every_3d_scene_renders_every_step_of_every_algorithm_its_timeline_offers() {
    if !have(&["Xvfb"]) {
        return;
    }
    let mut names: Vec<String> = std::fs::read_dir(scene_path(""))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ron"))
        .collect();
    names.sort();
    let mut slides = 0;
    for (i, name) in names.iter().enumerate() {
        let text = std::fs::read_to_string(scene_path(name)).unwrap();
        let (scene, bodies) = parse_scene3(&text, name).unwrap();
        let mut w = Workspace3d::new(Document3::from_parts(scene, bodies));
        for (algorithm, _) in w.timeline_model().timeline_choices() {
            let count = w.picture().step_count(algorithm);
            let dir = temp_dir(&format!(
                "smoke3-{}-{}",
                name.trim_end_matches(".ron"),
                algorithm.key()
            ));
            let mut args = vec!["--size", "320x200", "--steps", algorithm.key()];
            if i % 2 == 1 {
                args.push("--split");
            }
            let result = render(&scene_path(name), &dir, &args);
            assert!(
                result.status.success(),
                "render {name} --steps {}: {}",
                algorithm.key(),
                String::from_utf8_lossy(&result.stderr)
            );
            let pngs = std::fs::read_dir(&dir)
                .unwrap()
                .filter(|e| {
                    e.as_ref()
                        .unwrap()
                        .path()
                        .extension()
                        .is_some_and(|x| x == "png")
                })
                .count();
            assert_eq!(
                pngs,
                count,
                "{name} {}: one slide per step",
                algorithm.key()
            );
            slides += count;
        }
    }
    assert!(slides > 1000, "{slides} slides");
}
