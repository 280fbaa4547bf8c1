//! "Record current results as expectations" end to end without a window: for every 2D scene
//! of `scenes/`, record every pair (the focused pair where there are too many), save the
//! scene atomically as the window does, and `check` the saved file: it must pass, since a
//! debugged case is meant to become a passing regression test in one action.

use collision_lab::scene::{
    check_file, every_pair, load_scene_file, record_expectations, save_scene_atomic,
    scene_dimensions, MAX_RECORDED_PAIRS,
};
use std::path::{Path, PathBuf};
use std::process::Command;

fn scenes_2d() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .filter(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            !matches!(scene_dimensions(&text), Some((3, _)))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_scene_recorded_and_saved_passes_check() {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("record-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let files = scenes_2d();
    assert!(files.len() >= 40, "the 2D scenes were found");
    let mut recorded = 0;
    let mut left_out = Vec::new();
    for file in &files {
        let (mut scene, bodies) = load_scene_file(file).unwrap();
        let mut pairs = every_pair(bodies.len());
        if pairs.len() > MAX_RECORDED_PAIRS {
            pairs = vec![scene.focus_indices().unwrap()];
        }
        // What the window saves: the scene's fields with the bodies as they are.
        scene.bodies = bodies.iter().map(|b| b.to_def()).collect();
        for r in record_expectations(&mut scene, &bodies, &pairs).unwrap() {
            recorded += 1;
            left_out.extend(
                r.left_out
                    .iter()
                    .map(|w| format!("{}: {w}", file.display())),
            );
        }
        let saved = out.join(file.file_name().unwrap());
        save_scene_atomic(&saved, &scene).unwrap();
        let check = check_file(&saved);
        let checks = check
            .outcome
            .as_ref()
            .unwrap_or_else(|e| panic!("{}: the saved scene does not load: {e}", saved.display()));
        for c in checks {
            assert!(c.passed(), "{}: {}", saved.display(), c.describe());
        }
    }
    assert!(recorded >= files.len(), "{recorded} pairs recorded");
    // The command agrees on the whole folder.
    let run = Command::new(env!("CARGO_BIN_EXE_collision-lab"))
        .arg("check")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}");
    assert!(stdout.contains(" 0 failed"), "{stdout}");
    println!("{recorded} pairs recorded; left out: {left_out:#?}");
}
