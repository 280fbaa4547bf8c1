//! The course of Help > Lessons: the scenes in `scenes/lessons/`, numbered 1 to 10 in file
//! order, each passing `check`, each with a question, an answer and an exercise whose goal
//! is not met as the lesson opens and is met at a known solution (the one
//! `docs/teaching.md` gives the teacher).

use collision_lab::query::pair::{query_pair, trace_pair, PairSettings};
use collision_lab::query3::pair::{query_pair3, trace_pair3, PairSettings3};
use collision_lab::scene::{
    check_file, load_any_scene_file, Answers, Lesson, LoadedScene, Scene, Scene3, SceneBody,
    SceneBody3,
};
use glam::{Quat, Vec2, Vec3};
use std::path::{Path, PathBuf};

fn lesson_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lessons");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("scenes/lessons exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files
}

/// Where a solution puts the moved body.
enum Place {
    /// 2D: position and angle in degrees.
    Plane(&'static str, Vec2, f32),
    /// 3D: the body turned about world axes, as a Shift + drag turns it: degrees about x,
    /// then y, then z, applied after the body's own rotation.
    Space(&'static str, Vec3),
}

/// One solution per lesson, in course order. Each is derived in `docs/teaching.md`.
fn solution(number: u32) -> Place {
    match number {
        // The box's corner (1.05, 1) is 0.05 / sqrt 2 = 0.035 from x + y = 2.
        1 => Place::Plane("box", Vec2::new(1.55, 1.5), 0.0),
        // Level with the box's centre, the hexagon's vertex points at the face's middle.
        2 => Place::Plane("hexagon", Vec2::new(3.0, 0.3), 0.0),
        // B's lower-left corner faces A's upper-right corner.
        3 => Place::Plane("B", Vec2::new(3.4, 0.6), -20.0),
        // Corner (1, 1) of A on corner (-1, -1) of B: depth 0 on both axes.
        4 => Place::Plane("B", Vec2::new(2.0, 2.0), 0.0),
        // Over the plank's right end, the plank's corner pokes into the hexagon's side.
        5 => Place::Plane("hexagon", Vec2::new(2.4, 0.8), 0.0),
        // Tilted 10 degrees, one corner of the crate's bottom stays below the ground's top.
        6 => Place::Plane("crate", Vec2::new(0.5, 1.4), 10.0),
        // From x = -1.5 to x = 1: left of the wall at the start, right of it at the end.
        7 => Place::Plane("bullet", Vec2::new(-1.5, 0.0), 0.0),
        // Turned 30 degrees about y, past the 25.57 degrees where the ridges' pair wins.
        8 => Place::Space("above", Vec3::new(0.0, 30.0, 0.0)),
        // Tilted 7 degrees about x and about z: the overhanging corner dips, and the upper
        // slab's bottom edge crosses the lower one's top edge.
        9 => Place::Space("upper", Vec3::new(7.0, 0.0, 7.0)),
        // Face x = 1 of A on face x = -1 of B.
        10 => Place::Plane("B", Vec2::new(2.0, 0.5), 0.0),
        _ => panic!("no solution for lesson {number}"),
    }
}

fn answers_2d(scene: &Scene, bodies: &[SceneBody]) -> Answers {
    let (a, b) = scene.focus_indices().expect("a focused pair");
    let settings = PairSettings {
        sweep_time: scene.sweep_time(),
        ..PairSettings::default()
    };
    let q = query_pair(&bodies[a].body_ref(), &bodies[b].body_ref(), &settings);
    Answers::from_query(&q, scene.sweep_time())
}

fn answers_3d(scene: &Scene3, bodies: &[SceneBody3]) -> Answers {
    let (a, b) = scene.focus_indices().expect("a focused pair");
    let settings = PairSettings3 {
        sweep_time: scene.sweep_time(),
        ..PairSettings3::default()
    };
    let q = query_pair3(&bodies[a].body_ref(), &bodies[b].body_ref(), &settings);
    Answers::from_query3(&q, scene.sweep_time())
}

/// The lesson, its answers as it opens, and its answers at the solution.
fn before_and_after(path: &Path) -> (Lesson, Answers, Answers) {
    match load_any_scene_file(path).unwrap_or_else(|e| panic!("{e}")) {
        LoadedScene::Two(scene, mut bodies) => {
            let lesson = scene.lesson.clone().expect("a lesson");
            let before = answers_2d(&scene, &bodies);
            let Place::Plane(name, position, angle) = solution(lesson.number) else {
                panic!("lesson {} is 2D", lesson.number)
            };
            let i = scene.bodies.iter().position(|d| d.name == name).unwrap();
            let mut def = scene.bodies[i].clone();
            (def.position, def.angle) = (position, angle);
            bodies[i].pose = def.pose();
            (lesson, before, answers_2d(&scene, &bodies))
        }
        LoadedScene::Three(scene, mut bodies) => {
            let lesson = scene.lesson.clone().expect("a lesson");
            let before = answers_3d(&scene, &bodies);
            let Place::Space(name, turn) = solution(lesson.number) else {
                panic!("lesson {} is 3D", lesson.number)
            };
            let i = scene.bodies.iter().position(|d| d.name == name).unwrap();
            let t = turn * std::f32::consts::PI / 180.0;
            let turn = Quat::from_rotation_z(t.z)
                * Quat::from_rotation_y(t.y)
                * Quat::from_rotation_x(t.x);
            bodies[i].pose.rotation = turn * bodies[i].pose.rotation;
            (lesson, before, answers_3d(&scene, &bodies))
        }
    }
}

#[test]
fn the_course_is_ten_lessons_numbered_in_file_order() {
    let files = lesson_files();
    assert_eq!(files.len(), 10, "{files:?}");
    for (k, path) in files.iter().enumerate() {
        let (lesson, _, _) = before_and_after(path);
        assert_eq!(lesson.number as usize, k + 1, "{}", path.display());
        let prefix = format!("{:02}_", k + 1);
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(
            name.starts_with(&prefix),
            "{name} should start with {prefix}"
        );
        assert!(lesson.step.is_some(), "{name}: the lesson opens on a step");
    }
}

#[test]
fn every_lesson_passes_check() {
    for path in lesson_files() {
        let check = check_file(&path);
        let results = check
            .outcome
            .as_ref()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!results.is_empty(), "{}: no expectations", path.display());
        for r in results {
            assert!(r.passed(), "{}: {r:?}", path.display());
        }
    }
}

#[test]
fn every_exercise_is_open_as_the_lesson_opens_and_done_at_its_solution() {
    for path in lesson_files() {
        let (lesson, before, after) = before_and_after(&path);
        let goal = &lesson.exercise.expect("an exercise").goal;
        assert!(
            !goal.met(&before),
            "lesson {}: {goal:?} is already met: {before:?}",
            lesson.number
        );
        assert!(
            goal.met(&after),
            "lesson {}: {goal:?} not met at the solution: {after:?}",
            lesson.number
        );
    }
}

#[test]
fn lessons_8_and_9_are_the_3d_ones() {
    for path in lesson_files() {
        let three = matches!(load_any_scene_file(&path), Ok(LoadedScene::Three(..)));
        let (lesson, _, _) = before_and_after(&path);
        assert_eq!(three, matches!(lesson.number, 8 | 9), "{}", path.display());
    }
}

#[test]
fn every_lesson_opens_on_a_step_that_exists_with_its_overlay_on() {
    for path in lesson_files() {
        let (lesson, count, overlays) = match load_any_scene_file(&path).unwrap() {
            LoadedScene::Two(scene, bodies) => {
                let (a, b) = scene.focus_indices().unwrap();
                let (_, trace) = trace_pair(
                    &bodies[a].body_ref(),
                    &bodies[b].body_ref(),
                    &PairSettings::default(),
                );
                let lesson = scene.lesson.unwrap();
                let count = trace.step_count(lesson.step.unwrap().0);
                (lesson, count, scene.overlays.unwrap_or_default())
            }
            LoadedScene::Three(scene, bodies) => {
                let (a, b) = scene.focus_indices().unwrap();
                let (_, trace) = trace_pair3(
                    &bodies[a].body_ref(),
                    &bodies[b].body_ref(),
                    &PairSettings3::default(),
                );
                let lesson = scene.lesson.unwrap();
                let count = trace.step_count(lesson.step.unwrap().0);
                (lesson, count, scene.overlays.clone())
            }
        };
        let (algorithm, n) = lesson.step.unwrap();
        assert!(
            (1..=count).contains(&n),
            "lesson {}: step {n} of {count}",
            lesson.number
        );
        assert!(overlays.contains(&algorithm), "lesson {}", lesson.number);
    }
}
