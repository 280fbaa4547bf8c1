//! Saving never damages the file on disk: `save_scene_atomic` writes a temporary file beside
//! the target, flushes it, and renames it over the target. These tests interrupt saves (by
//! killing the saving process at random moments, and by making the write or the rename
//! fail) and show the old file is still whole and loads. Every scene in `scenes/` survives a
//! save and a load unchanged.

use collision_lab::scene::{load_scene_file, parse_scene, save_scene_atomic, scene_files, Scene};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
/// until killed, writing `ready` once the scenes are built and `saved K` after each
/// completed save to stdout, so that the parent can time its kill by the child's progress
/// rather than by the clock. In a normal test run it returns at once.
#[test]
fn save_loop_child() {
    let Ok(target) = std::env::var(CHILD_TARGET) else {
        return;
    };
    let versions = [big_scene("first"), big_scene("second")];
    // Straight to stdout (not `println!`, which the test harness captures).
    let mut out = std::io::stdout();
    writeln!(out, "ready").unwrap();
    out.flush().unwrap();
    for k in 0.. {
        save_scene_atomic(Path::new(&target), &versions[k % 2]).unwrap();
        writeln!(out, "saved {}", k + 1).unwrap();
        out.flush().unwrap();
    }
}

/// The saving child's progress as it reports it: whether it is ready, and how many saves it
/// has completed.
#[derive(Default)]
struct Progress {
    ready: AtomicBool,
    saves: AtomicUsize,
}

/// Starts the saving child and a thread reading its reports; the thread ends when the
/// child does.
fn start_saving_child(target: &Path) -> (Child, Arc<Progress>, std::thread::JoinHandle<()>) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "save_loop_child", "--test-threads", "1"])
        .env(CHILD_TARGET, target)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let progress = Arc::new(Progress::default());
    let reports = BufReader::new(child.stdout.take().unwrap());
    let seen = Arc::clone(&progress);
    let reader = std::thread::spawn(move || {
        // The harness's own "test save_loop_child ... " may precede a report on its line.
        for line in reports.lines().map_while(Result::ok) {
            if line.ends_with("ready") {
                seen.ready.store(true, Ordering::SeqCst);
            } else if let Some((_, k)) = line.rsplit_once("saved ") {
                seen.saves.store(k.parse().unwrap(), Ordering::SeqCst);
            }
        }
    });
    (child, progress, reader)
}

/// Waits (up to a minute: a loaded machine is slow, not stuck) until `done` holds.
fn wait_until(done: impl Fn() -> bool, what: &str) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the saving child never {what}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn killing_a_save_midway_leaves_a_whole_file() {
    let dir = temp_dir("kill");
    let target = dir.join("scene.ron");
    let first = big_scene("first");
    let second = big_scene("second");
    save_scene_atomic(&target, &first).unwrap();
    let (mut seen_first, mut seen_second) = (false, false);
    let mut most_saves = 0;
    for round in 0..12u64 {
        let (mut child, progress, reader) = start_saving_child(&target);
        // Kill at a different moment each round, counted from the child's progress (so a
        // loaded machine changes only how long a round takes): after 0, 1, ... 5 completed
        // saves, once at once (the file then holds the last completed save, or the one
        // after if its rename beat the kill) and once after a pause that grows (some way
        // into the next save).
        let saves_before = (round / 2) as usize;
        wait_until(|| progress.ready.load(Ordering::SeqCst), "got ready");
        wait_until(
            || progress.saves.load(Ordering::SeqCst) >= saves_before,
            "completed a save",
        );
        if round % 2 == 1 {
            std::thread::sleep(Duration::from_millis(2 + 4 * round));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        reader.join().unwrap();
        most_saves = most_saves.max(progress.saves.load(Ordering::SeqCst));
        let (scene, bodies) = load_scene_file(&target)
            .unwrap_or_else(|e| panic!("round {round}: the file was damaged: {e}"));
        assert!(
            scene == first || scene == second,
            "round {round}: neither version"
        );
        assert_eq!(bodies.len(), 4000);
        seen_first |= scene == first;
        seen_second |= scene == second;
    }
    // The kills interrupted saves that were replacing one version with the other: the
    // child completed saves of both versions (the second is its save 2) before some kill.
    assert!(
        most_saves >= 5,
        "the child completed only {most_saves} saves; the test proves little"
    );
    assert!(
        seen_first && seen_second,
        "the file was always {}; the kills never caught both versions",
        if seen_first {
            "the first"
        } else {
            "the second"
        }
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
