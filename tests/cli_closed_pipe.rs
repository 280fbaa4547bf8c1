//! Headless commands whose reader goes away early (`collision-lab query scene | head -1`)
//! end quietly, as Unix tools do: no panic message, no exit status 101. Found by piping
//! `query scenes/welcome.ron` into `head -1`, which printed "failed printing to stdout:
//! Broken pipe" from a panic.

use std::io::Read;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_collision-lab");

fn scene(name: &str) -> String {
    format!("{}/scenes/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs the command with its stdout a pipe whose reading end is closed before the command
/// writes anything (so its first write fails with EPIPE); returns (status, stderr).
fn run_with_closed_stdout(args: &[&str]) -> (std::process::ExitStatus, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (child.wait().unwrap(), stderr)
}

/// Ended by SIGPIPE (the default action) or exited without the panic status.
fn ended_quietly(status: std::process::ExitStatus) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if status.signal() == Some(libc::SIGPIPE) {
            return true;
        }
    }
    status.code().is_some_and(|c| c != 101)
}

#[test]
fn every_headless_command_ends_quietly_when_stdout_is_closed() {
    let welcome = scene("welcome.ron");
    let scenes = format!("{}/scenes", env!("CARGO_MANIFEST_DIR"));
    let commands: [&[&str]; 5] = [
        &["query", &welcome],
        &["query", &welcome, "--json"],
        &["trace", &welcome, "--algorithm", "gjk"],
        &["check", &scenes],
        &["--help"],
    ];
    for args in commands {
        let (status, stderr) = run_with_closed_stdout(args);
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "{args:?} complained on a closed stdout: {stderr}"
        );
        assert!(ended_quietly(status), "{args:?} ended with {status:?}");
    }
}
