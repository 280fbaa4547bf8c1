//! Saving never damages the file on disk: `save_scene_atomic` writes a temporary file beside
//! the target, flushes it, and renames it over the target. These tests interrupt saves (by
//! killing the saving process at random moments, and by making the write or the rename
//! fail) and show the old file is still whole and loads. Every scene in `scenes/` survives a
//! save and a load unchanged.

use collision_lab::scene::{load_scene_file, parse_scene, save_scene_atomic, scene_files, Scene};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Set in the child process that saves in a loop until it is killed.
const CHILD_TARGET: &str = "COLLISION_LAB_SAVE_LOOP_TARGET";

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("collision-lab-save-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A scene large enough (a few hundred kilobytes) that a save takes a while to write.
fn big_scene(title: &str) -> Scene {
    let text = {
        let mut t = String::from("(version: 1, bodies: [\n");
        for i in 0..4000 {
            t += &format!(
                "(name: \"b{i}\", shape: Polygon(points: [(0, 0), (1, 0), (1, 1), (0, 1)]), position: ({}, {}), color: \"#4f86c6\"),\n",
                i % 64,
                i / 64
            );
        }
        t + "])"
    };
    let (mut scene, _) = parse_scene(&text, "big").unwrap();
    scene.title = Some(title.into());
    scene
}

/// Not a test on its own: in the child process started by
/// `killing_a_save_midway_leaves_a_whole_file`, saves two versions of a big scene in turn
/// until killed. In a normal test run it returns at once.
#[test]
fn save_loop_child() {
    let Ok(target) = std::env::var(CHILD_TARGET) else {
        return;
    };
    let versions = [big_scene("first"), big_scene("second")];
    for k in 0.. {
        save_scene_atomic(Path::new(&target), &versions[k % 2]).unwrap();
    }
}

#[test]
fn killing_a_save_midway_leaves_a_whole_file() {
    let dir = temp_dir("kill");
    let target = dir.join("scene.ron");
    let first = big_scene("first");
    let second = big_scene("second");
    save_scene_atomic(&target, &first).unwrap();
    let mut seen_second = false;
    for round in 0..12u64 {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "save_loop_child", "--test-threads", "1"])
            .env(CHILD_TARGET, &target)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Kill at a different moment each round, from before the first save to many saves in.
        std::thread::sleep(Duration::from_millis(20 + 37 * round));
        child.kill().unwrap();
        child.wait().unwrap();
        let (scene, bodies) = load_scene_file(&target)
            .unwrap_or_else(|e| panic!("round {round}: the file was damaged: {e}"));
        assert!(
            scene == first || scene == second,
            "round {round}: neither version"
        );
        assert_eq!(bodies.len(), 4000);
        seen_second |= scene == second;
    }
    assert!(
        seen_second,
        "the child never completed a save; the test proves nothing"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failed_rename_leaves_the_target_and_no_temporary_file() {
    // The target is a folder holding a file: renaming a file over it fails.
    let dir = temp_dir("rename");
    let target = dir.join("scene.ron");
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("keep.txt"), "still here").unwrap();
    let err = save_scene_atomic(&target, &big_scene("new"));
    assert!(err.is_err());
    assert_eq!(
        std::fs::read_to_string(target.join("keep.txt")).unwrap(),
        "still here"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "scene.ron")
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary files left behind: {leftovers:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failed_temporary_write_leaves_the_old_file() {
    // The temporary file's name is taken by a folder, so creating it fails before the old
    // file is touched.
    let dir = temp_dir("write");
    let target = dir.join("scene.ron");
    let old = big_scene("old");
    save_scene_atomic(&target, &old).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        assert_eq!(
            entry.unwrap().file_name(),
            "scene.ron",
            "no temporary file after a save"
        );
    }
    let blocker = dir.join(format!(".scene.ron.{}.tmp", std::process::id()));
    std::fs::create_dir(&blocker).unwrap();
    std::fs::write(blocker.join("x"), "x").unwrap();
    assert!(save_scene_atomic(&target, &big_scene("new")).is_err());
    let (scene, _) = load_scene_file(&target).unwrap();
    assert_eq!(scene, old);
    // Saving into a folder that does not exist fails cleanly too.
    assert!(save_scene_atomic(&dir.join("missing").join("scene.ron"), &old).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_scene_saves_and_loads_back_equal() {
    let dir = temp_dir("round");
    let scenes = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let files = scene_files(&[scenes]).unwrap();
    assert!(!files.is_empty());
    for path in files {
        let (scene, bodies) = load_scene_file(&path).unwrap_or_else(|e| panic!("{e}"));
        let copy = dir.join(path.file_name().unwrap());
        save_scene_atomic(&copy, &scene).unwrap();
        let (again, again_bodies) = load_scene_file(&copy).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again, scene, "{}", path.display());
        assert_eq!(again_bodies, bodies, "{}", path.display());
        // Saving over an existing file replaces it.
        save_scene_atomic(&copy, &scene).unwrap();
        assert_eq!(load_scene_file(&copy).unwrap().0, scene);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
