//! `collision-lab render` of EPA in 3D, end to end under Xvfb: in the split view's A - B
//! half, the support point of an expansion and the origin's foot on its closest face sit
//! where the core's numbers project; on the bodies, the answer's depth vector runs between
//! the deepest points the core reports. Skipped (with a message) without xvfb-run, unless
//! COLLISION_LAB_REQUIRE_X=1.

mod window_common;

use collision_lab::app::canvas::caption_strip_height;
use collision_lab::app::draw::palette;
use collision_lab::app::session::Recorded;
use collision_lab::app::state3::Document3;
use collision_lab::app::workspace::Workspace;
use collision_lab::app::workspace3::Workspace3d;
use collision_lab::query::Algorithm;
use collision_lab::query3::epa::Step;
use collision_lab::scene::parse_scene3;
use glam::{Vec2, Vec3};
use std::path::{Path, PathBuf};
use window_common::*;

const W: u32 = 1000;
const H: u32 = 700;
const SCENE: &str = "epa_several_expansions.ron";

fn scene_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes/3d")
        .join(SCENE)
}

/// The workspace `render` builds, split or not, at step `n` (from 1) of EPA.
fn workspace_at(n: usize, split: bool) -> Workspace3d {
    let text = std::fs::read_to_string(scene_path()).unwrap();
    let (scene, bodies) = parse_scene3(&text, SCENE).unwrap();
    let mut w = Workspace3d::new(Document3::from_parts(scene, bodies));
    let canvas = Vec2::new(W as f32, H as f32 - caption_strip_height(1.0));
    w.set_viewport(Vec2::ZERO, canvas);
    w.set_split(split);
    w.fit_all_if_unsaved();
    w.session_mut().show_step(Algorithm::Epa, n - 1).unwrap();
    w
}

fn render_step(n: usize, split: bool) -> Option<Picture> {
    let step = format!("epa:{n}");
    let mut args = vec!["--step", step.as_str()];
    if split {
        args.push("--split");
    }
    render_picture(
        &scene_path(),
        &format!("render-epa3-{n}-{split}"),
        (W, H),
        &args,
    )
}

#[test]
fn an_expansion_draws_its_support_point_and_the_closest_face_s_foot_where_the_core_put_them() {
    // Step 3 is the second expansion: the scene's GJK simplex is a tetrahedron (step 1, the
    // seed) and the first expansion (step 2) is far from the answer.
    let n = 3;
    let w = workspace_at(n, true);
    let run = w.session().run().unwrap();
    assert!(
        run.step_count(Algorithm::Epa) > n,
        "an expansion before the last"
    );
    let Step::Expansion(e) = &run.trace.epa[n - 1] else {
        panic!("step {n} expands");
    };
    let camera = w.difference_camera(1.0).expect("the split's A - B half");
    let Some(picture) = render_step(n, true) else {
        return;
    };
    let w_at = camera
        .to_screen(e.support.point)
        .expect("w in front of the eye");
    assert!(
        picture.count_near(w_at.x, w_at.y, 6.0, palette::SEARCH, 40) > 0,
        "support point {} at {w_at}",
        e.support.point
    );
    let foot = camera.to_screen(e.distance * e.normal).unwrap();
    assert!(
        picture.count_near(foot.x, foot.y, 4.0, palette::HIGHLIGHT, 40) > 0,
        "the foot of face {} at {foot}",
        e.closest_face
    );
    // The support point is drawn in A - B only: not at the same spot of the bodies' half.
    let bodies = w.camera;
    let mirrored = Vec2::new(w_at.x - camera.origin.x + bodies.origin.x, w_at.y);
    assert_eq!(
        picture.count_near(mirrored.x, mirrored.y, 3.0, palette::SEARCH, 20),
        0,
        "{mirrored}"
    );
}

#[test]
fn the_answer_draws_the_depth_vector_between_the_deepest_points() {
    let w = workspace_at(1, false);
    let run = w.session().run().unwrap();
    let last = run.step_count(Algorithm::Epa);
    let e = run.query.epa.expect("the cube is sunk into the slab");
    // Hand-derived in the scene's notes: 0.407107 deep along +y.
    assert!((e.depth - 0.407107).abs() < 1e-5, "{e:?}");
    let Some(picture) = render_step(last, false) else {
        return;
    };
    let w = workspace_at(last, false);
    // The arrow runs from B's deepest point to A's (`point_a - point_b = depth * n`): its
    // head ends at A's, under A's dot (5 pixels across); a body's name may cover its shaft.
    let (a, b) = (e.point_a, e.point_b);
    let (tip, tail) = (
        w.camera.to_screen(a).unwrap(),
        w.camera.to_screen(b).unwrap(),
    );
    assert!(
        (tip - tail).length() > 30.0,
        "a readable arrow: {tail} to {tip}"
    );
    // 9 pixels back from the tip the head is about 8 pixels wide, the shaft 3: a point
    // 3.5 pixels beside the line is in the head only, so the arrow points toward A's.
    let along = (tail - tip).normalize();
    let head = tip + along * 9.0 + Vec2::new(-along.y, along.x) * 3.5;
    assert!(
        picture.count_near(head.x, head.y, 1.0, palette::RESULT, 40) > 0,
        "the depth vector's head at {head}, toward {a}"
    );
    let near_tail = tail - along * 9.0 + Vec2::new(-along.y, along.x) * 3.5;
    assert_eq!(
        picture.count_near(near_tail.x, near_tail.y, 1.0, palette::RESULT, 40),
        0,
        "no head at B's end ({b})"
    );
    // A point of the slab's top away from the contact shows no answer colour.
    let away = w.camera.to_screen(Vec3::new(-1.5, 0.5, 1.5)).unwrap();
    assert_eq!(
        picture.count_near(away.x, away.y, 4.0, palette::RESULT, 40),
        0
    );
}
