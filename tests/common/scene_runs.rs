//! Running the binary and the scenes' expectations, for the scene and command tests of
//! both dimensions (`scenes.rs`, `scenes3d.rs`, `cli_query.rs`, `cli_query3.rs`).

use collision_lab::scene::check_file;
use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::Command;

/// Runs the binary with `args` in the package folder: its exit status (-1 when killed),
/// standard output and standard error.
pub fn run_binary<S: AsRef<OsStr>>(args: &[S]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_collision-lab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Checks every expectation of these scene files: one line per failure (or per file that
/// cannot be loaded), and how many expectations were checked.
pub fn expectation_failures(files: &[PathBuf]) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in files {
        match check_file(path).outcome {
            Err(e) => failures.push(format!("{e}")),
            Ok(checks) => {
                for c in checks {
                    checked += 1;
                    if !c.passed() {
                        failures.push(format!(
                            "{}  {} vs {}: {}",
                            path.display(),
                            c.a,
                            c.b,
                            c.describe()
                        ));
                    }
                }
            }
        }
    }
    (failures, checked)
}
