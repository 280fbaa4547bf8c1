//! `collision-lab render SCENE --steps ALG --out DIR/`: one captioned PNG per step, as many
//! as `trace` prints, and an animated GIF with `--gif`; bad input exits 2 with a message.
//! The pictures need X (skipped with a message without Xvfb, unless
//! COLLISION_LAB_REQUIRE_X=1); the refusals do not.

mod window_common;

use image::AnimationDecoder;
use std::path::{Path, PathBuf};
use std::process::Command;
use window_common::*;

fn scene(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(format!("{name}.ron"))
}

/// How many steps `trace` prints for the scene's focused pair.
fn trace_steps(scene: &Path, algorithm: &str) -> usize {
    let out = Command::new(BIN)
        .args(["trace", scene.to_str().unwrap(), "--algorithm", algorithm])
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("Step "))
        .count()
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn one_slide_per_step_as_many_as_trace_prints_and_a_gif_of_them() {
    if !have(&["Xvfb"]) {
        return;
    }
    // A 3D scene's slides too: the manifold's clips and reduction, one slide a step.
    for (name, algorithm) in [
        ("sat_tie", "sat"),
        ("epa_expansion", "epa"),
        ("3d/face_face_clip_eight", "clip"),
    ] {
        let dir = temp_dir(&format!("slides-{}", name.replace('/', "-"))).join("slides");
        let file = scene(name);
        let result = render(
            &file,
            &dir,
            &["--steps", algorithm, "--size", "640x400", "--gif"],
        );
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert!(result.status.success(), "{name}: {stderr}");
        let n = trace_steps(&file, algorithm);
        assert!(n >= 2, "{name} has steps to show");
        let mut expected: Vec<String> = (1..=n)
            .map(|k| {
                let width = n.to_string().len();
                format!("{algorithm}-{k:0width$}.png")
            })
            .collect();
        expected.push(format!("{algorithm}.gif"));
        expected.sort();
        assert_eq!(files_in(&dir), expected, "{name}");
        let stdout = String::from_utf8_lossy(&result.stdout);
        assert!(stdout.contains(&format!("wrote {n} slides")), "{stdout}");
        // Each slide is the requested size, and the slides differ (each shows its own step).
        let first = Picture::open(&dir.join(&expected[0]));
        let second = Picture::open(&dir.join(&expected[1]));
        assert_eq!(first.size(), (640, 400));
        assert_ne!(first.image, second.image, "two steps, two pictures");
        // The GIF holds every slide, in order.
        let gif = std::fs::File::open(dir.join(format!("{algorithm}.gif"))).unwrap();
        let decoder = image::codecs::gif::GifDecoder::new(std::io::BufReader::new(gif)).unwrap();
        let frames = decoder.into_frames().collect_frames().unwrap();
        assert_eq!(frames.len(), n, "{name}: one GIF frame per slide");
    }
}

#[test]
fn a_bad_algorithm_an_algorithm_without_steps_or_an_unwritable_folder_exit_2() {
    let dir = temp_dir("slides-bad");
    let file = scene("sat_tie");
    let not_a_folder = dir.join("a-file");
    std::fs::write(&not_a_folder, "x").unwrap();
    let cases: [(&[&str], PathBuf, &str); 4] = [
        (
            &["--steps", "gkj"],
            dir.join("out"),
            "--steps must name an algorithm with steps (gjk, epa, sat, clip, sweep), got \"gkj\"",
        ),
        (
            &["--steps", "minkowski"],
            dir.join("out"),
            "got \"minkowski\"",
        ),
        // sat_tie's bodies do not move: the sweep records nothing.
        (
            &["--steps", "sweep"],
            dir.join("out"),
            "has no steps for the focused pair",
        ),
        (
            &["--steps", "sat"],
            not_a_folder.join("slides"),
            "cannot write slides into",
        ),
    ];
    for (args, out, message) in cases {
        let result = Command::new(BIN)
            .arg("render")
            .arg(&file)
            .arg("--out")
            .arg(&out)
            .args(args)
            .env("DISPLAY", ":9999")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(message),
            "{args:?}: {stderr}"
        );
    }
    assert!(!dir.join("out").exists(), "nothing written on a refusal");
    // --gif needs --steps; --step and --steps exclude each other (clap's exit status 2).
    for args in [&["--gif"][..], &["--steps", "sat", "--step", "sat:1"][..]] {
        let result = Command::new(BIN)
            .arg("render")
            .arg(&file)
            .args(["--out", "x.png"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(result.status.code(), Some(2), "{args:?}");
    }
}
