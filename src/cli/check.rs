//! `collision-lab check`: evaluates the `expect` blocks of scene files.
//!
//! One line per expectation (`pass  FILE  A vs B` or `FAIL  FILE  A vs B: what differed`),
//! errors on stderr, and last the summary `N passed, N failed` alone on its line (CI reads
//! it). Exit status: 0 all passed, 1 some failed, 2 a file could not be read or is invalid.

use super::CheckArgs;
use crate::scene::{check_file, scene_files};
use std::path::PathBuf;

pub fn run_check(args: &CheckArgs) -> u8 {
    let paths = if args.paths.is_empty() {
        // The 3D scenes live in a subfolder, so that the window's Examples list skips them.
        let scenes_3d = Some(PathBuf::from("scenes/3d")).filter(|p| p.is_dir());
        std::iter::once(PathBuf::from("scenes"))
            .chain(scenes_3d)
            .collect()
    } else {
        args.paths.clone()
    };
    let files = match scene_files(&paths) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: {e}");
            println!("0 passed, 0 failed");
            return 2;
        }
    };
    let (mut passed, mut failed, mut invalid) = (0usize, 0usize, 0usize);
    for path in &files {
        let file = path.display();
        match check_file(path).outcome {
            Err(e) => {
                eprintln!("error: {e}");
                invalid += 1;
            }
            Ok(checks) => {
                if checks.is_empty() {
                    eprintln!("warning: {file}: the scene has no expectations");
                }
                for c in checks {
                    if c.passed() {
                        passed += 1;
                        let mut line = format!("pass  {file}  {} vs {}", c.a, c.b);
                        for remark in &c.remarks {
                            line += &format!("  (note: {remark})");
                        }
                        println!("{line}");
                    } else {
                        failed += 1;
                        println!("FAIL  {file}  {} vs {}: {}", c.a, c.b, c.describe());
                    }
                }
            }
        }
    }
    if files.is_empty() {
        eprintln!("warning: no scene files found");
    }
    println!("{passed} passed, {failed} failed");
    if invalid > 0 {
        2
    } else if failed > 0 {
        1
    } else {
        0
    }
}
