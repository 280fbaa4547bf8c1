//! `collision-lab render` on 3D scenes, end to end under Xvfb: every scene in `scenes/3d`
//! renders, and overlay colours sit at the screen positions projected from the core's
//! numbers (a contact point, an edge-edge axis). Skipped (with a message) without xvfb-run,
//! unless COLLISION_LAB_REQUIRE_X=1.

mod window_common;

use collision_lab::app::canvas::caption_strip_height;
use collision_lab::app::draw::palette;
use collision_lab::app::session::Recorded;
use collision_lab::app::state3::Document3;
use collision_lab::app::timeline::TimelineModel;
use collision_lab::app::workspace::Workspace;
use collision_lab::app::workspace3::Workspace3d;
use collision_lab::query::Algorithm;
use collision_lab::query3::sat::{AxisId, Step};
use collision_lab::scene::parse_scene3;
use glam::{Vec2, Vec3};
use std::path::{Path, PathBuf};
use window_common::*;

const W: u32 = 1000;
const H: u32 = 700;

fn scene_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes/3d")
        .join(name)
}

/// The workspace `render` builds for a scene, at step `step` (from 1) of `algorithm`, to
/// ask where things are drawn.
fn workspace_for(name: &str, step: Option<(Algorithm, usize)>) -> Workspace3d {
    let text = std::fs::read_to_string(scene_path(name)).unwrap();
    let (scene, bodies) = parse_scene3(&text, name).unwrap();
    let mut w = Workspace3d::new(Document3::from_parts(scene, bodies));
    let canvas = Vec2::new(W as f32, H as f32 - caption_strip_height(1.0));
    w.set_viewport(Vec2::ZERO, canvas);
    w.fit_all_if_unsaved();
    if let Some((a, n)) = step {
        w.session_mut().show_step(a, n - 1).unwrap();
    }
    w
}

fn render_3d(name: &str, extra: &[&str]) -> Option<Picture> {
    let dir = format!("render3-{}", name.trim_end_matches(".ron"));
    let picture = render_picture(&scene_path(name), &dir, (W, H), extra)?;
    assert_eq!(picture.size(), (W, H), "{name}: the requested size");
    Some(picture)
}

#[test]
fn every_3d_scene_renders_its_bodies() {
    let mut names: Vec<String> = std::fs::read_dir(scene_path(""))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ron"))
        .collect();
    names.sort();
    assert!(names.len() >= 28, "{names:?}");
    for name in names {
        let Some(picture) = render_3d(&name, &[]) else {
            return;
        };
        // Something other than the background covers a good part of the picture.
        let background = picture.count(palette::BACKGROUND, 3);
        let total = (W * H) as usize;
        assert!(
            background < total * 97 / 100,
            "{name}: the picture is nearly empty ({background} of {total} background)"
        );
    }
}

#[test]
fn the_clip_s_final_step_draws_each_contact_point_where_the_core_put_it() {
    let name = "face_face_clip_eight.ron";
    let w = workspace_for(name, None);
    let run = w.session().run().unwrap();
    let last = run.step_count(Algorithm::Clip);
    let m = run.query.manifold.expect("the slabs overlap");
    assert_eq!(m.points.len(), 4);
    let step = format!("clip:{last}");
    let Some(picture) = render_3d(name, &["--step", &step]) else {
        return;
    };
    let w = workspace_for(name, Some((Algorithm::Clip, last)));
    for c in m.points.iter() {
        let at = w.camera.to_screen(c.point).expect("in front of the eye");
        assert!(
            picture.count_near(at.x, at.y, 4.0, palette::RESULT, 40) > 0,
            "contact point {} at {at}",
            c.point
        );
    }
    // Away from the bodies there is no contact colour.
    let far = w.camera.to_screen(Vec3::new(3.0, 0.5, 3.0)).unwrap();
    assert_eq!(
        picture.count_near(far.x, far.y, 4.0, palette::RESULT, 40),
        0
    );
}

#[test]
fn an_edge_edge_step_draws_its_axis_from_between_the_two_edges() {
    let name = "edge_edge_crossed_ridges.ron";
    let w = workspace_for(name, None);
    let run = w.session().run().unwrap();
    let k = run.best_sat_step().unwrap();
    let Step::Axis(t) = run.trace.sat[k] else {
        panic!("the answer is an axis");
    };
    let AxisId::Edges(i, j) = t.id else {
        panic!("the crossed ridges meet edge on edge: {:?}", t.id);
    };
    let step = format!("sat:{}", k + 1);
    let Some(picture) = render_3d(name, &["--step", &step]) else {
        return;
    };
    let w = workspace_for(name, Some((Algorithm::Sat, k + 1)));
    let doc = w.doc();
    let edge = |body: usize, e: u32| {
        let b = &doc.bodies[body];
        let p = b.shape.as_polyhedron().unwrap();
        let edge = p.edges()[e as usize];
        [edge.tail, edge.head].map(|v| b.pose.transform_point(p.vertex(v as usize)))
    };
    let (ea, eb) = (edge(run.a, i), edge(run.b, j));
    let middle = 0.25 * (ea[0] + ea[1] + eb[0] + eb[1]);
    let at = w.camera.to_screen(middle).unwrap();
    assert!(
        picture.count_near(at.x, at.y, 5.0, palette::CURRENT_AXIS, 45) > 0,
        "the cross product's arrow starts between the edges, at {at}"
    );
    // Both edges are highlighted at their middles.
    for e in [ea, eb] {
        let p = w.camera.to_screen(0.5 * (e[0] + e[1])).unwrap();
        assert!(
            picture.count_near(p.x, p.y, 4.0, palette::HIGHLIGHT, 45) > 0,
            "edge middle at {p}"
        );
    }
    // The sentence under the picture names the same edges.
    let sentence = w.session().timeline_sentence().unwrap();
    assert!(
        sentence.contains(&format!("edge {i} of A"))
            && sentence.contains(&format!("edge {j} of B")),
        "{sentence}"
    );
}
