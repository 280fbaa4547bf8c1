//! The one list of algorithms reaches everywhere: for every entry of `Algorithm::ALL`, its
//! key round-trips (the command line's values, the scene's overlay names), the window has a
//! lab for it, the `trace` command's dispatcher prints it, and each step it records on the
//! welcome scene has a sentence, the same in the window and in `trace`.

use collision_lab::app::analysis::{Analysis, PairSettings};
use collision_lab::app::examples;
use collision_lab::app::labs::registry;
use collision_lab::app::render::parse_step;
use collision_lab::app::state::Document;
use collision_lab::cli::trace_text;
use collision_lab::query::pair::trace_pair;
use collision_lab::query::Algorithm;
use collision_lab::scene::{parse_scene, scene_to_string};

/// Whitespace collapsed, so that text wrapped for print compares with the sentence.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_algorithm_has_a_key_a_lab_a_trace_arm_and_a_sentence_per_step() {
    let doc = Document::parse(examples::welcome(), "welcome.ron").unwrap();
    let run = Analysis::run(&doc, &PairSettings::default()).unwrap();
    let (a, b) = (&doc.bodies[run.a], &doc.bodies[run.b]);
    let settings = PairSettings {
        sweep_time: doc.meta.sweep_time(),
        ..PairSettings::default()
    };
    let (query, trace) = trace_pair(&a.body_ref(), &b.body_ref(), &settings);
    let labs = registry();
    assert_eq!(labs.len(), Algorithm::COUNT, "one lab per algorithm");
    for algorithm in Algorithm::ALL {
        let key = algorithm.key();
        assert_eq!(Algorithm::from_key(key), Some(algorithm), "{key}");
        assert_eq!(parse_step(&format!("{key}:1")), Ok((algorithm, 1)));
        let lab = labs.iter().find(|l| l.algorithm() == algorithm);
        assert!(lab.is_some(), "{key} has no lab");
        assert_eq!(lab.unwrap().name(), algorithm.title());

        let n = trace.step_count(algorithm);
        assert_eq!(
            run.step_count(algorithm),
            n,
            "{key}: window and trace agree"
        );
        if algorithm == Algorithm::Minkowski {
            assert_eq!(n, 0, "the Minkowski difference records no steps");
        } else {
            assert!(n > 0, "{key} records steps on the welcome scene");
        }
        let printed = words(&trace_text(algorithm, a, b, &query, &trace));
        assert!(printed.contains("Result"), "{key}: {printed}");
        for k in 0..n {
            let sentence = trace.sentence(algorithm, k).unwrap();
            assert!(!sentence.trim().is_empty(), "{key} step {k}");
            assert!(
                run.sentence(algorithm, k).unwrap().starts_with(&sentence),
                "{key} step {k}: the window shows the core's sentence"
            );
            assert!(
                printed.contains(&format!("Step {} of {n} {}", k + 1, words(&sentence))),
                "{key} step {k} is missing from trace: {printed}"
            );
        }
        assert_eq!(trace.sentence(algorithm, n), None, "{key}: past the end");
    }
}

#[test]
fn scene_overlay_names_are_the_algorithm_variant_names() {
    let mut scene = parse_scene(examples::welcome(), "welcome.ron").unwrap().0;
    scene.overlays = Some(Algorithm::ALL.to_vec());
    let text = scene_to_string(&scene);
    let squeezed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(
        squeezed.contains("overlays:[Minkowski,Gjk,Epa,Sat,Clip,Sweep"),
        "{text}"
    );
    let again = parse_scene(&text, "again.ron").unwrap().0;
    assert_eq!(again.overlays, Some(Algorithm::ALL.to_vec()));
}

#[test]
fn trace_accepts_every_key_on_the_command_line() {
    let exe = env!("CARGO_BIN_EXE_collision-lab");
    for algorithm in Algorithm::ALL {
        let out = std::process::Command::new(exe)
            .args([
                "trace",
                "scenes/welcome.ron",
                "--algorithm",
                algorithm.key(),
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", algorithm.key());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("\nResult\n"), "{text}");
    }
    let out = std::process::Command::new(exe)
        .args(["trace", "scenes/welcome.ron", "--algorithm", "bogus"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&Algorithm::keys_joined()),
        "clap lists every key: {err}"
    );
}

#[test]
fn render_names_every_key_when_a_step_is_unknown() {
    let exe = env!("CARGO_BIN_EXE_collision-lab");
    let out = std::process::Command::new(exe)
        .args([
            "render",
            "scenes/welcome.ron",
            "--out",
            "target/never-written.png",
            "--step",
            "bogus:1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("(minkowski, gjk, epa, sat, clip or sweep)"),
        "{err}"
    );
    for algorithm in Algorithm::ALL {
        assert!(err.contains(algorithm.key()), "{err}");
    }
}
