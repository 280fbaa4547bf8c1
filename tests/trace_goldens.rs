//! Every recorded step and every result, pinned to the bit: for each scene in `scenes/`
//! (both dimensions) and for a fixed set of generated pairs, a fingerprint of the untraced
//! results and of the traced results and steps (their `Debug` text, which prints every
//! `f32` exactly) is compared with `tests/golden/traces.txt`.
//!
//! A change to an algorithm's arithmetic or to what it records shows here as the pairs it
//! moved. When the change is meant, write the file anew and read its diff:
//! `COLLISION_LAB_BLESS=1 cargo test --test trace_goldens`.

mod common;

use collision_lab::query::pair::{query_pair, trace_pair};
use collision_lab::query3::pair::{query_pair3, trace_pair3};
use collision_lab::scene::{parse_any_scene, settings_for_scene, settings_for_scene3, LoadedScene};
use common::Rng;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const GOLDEN: &str = "tests/golden/traces.txt";

/// At most this many pairs of one scene (in the order of its bodies), so that a crowded
/// scene does not dominate the run.
const PAIRS_PER_SCENE: usize = 24;

/// FNV-1a, 64 bits: a fingerprint that does not change between Rust versions.
fn fingerprint(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The pairs `(i, j)`, `i < j`, of `n` bodies, at most [`PAIRS_PER_SCENE`].
fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n)
        .flat_map(move |i| (i + 1..n).map(move |j| (i, j)))
        .take(PAIRS_PER_SCENE)
}

/// One line per pair of `text`'s scene: its label, the untraced results' fingerprint, the
/// traced results' and the steps'.
fn scene_lines(label: &str, text: &str, out: &mut String) {
    let loaded = parse_any_scene(text, label).unwrap_or_else(|e| panic!("{label}: {e}"));
    match loaded {
        LoadedScene::Two(scene, bodies) => {
            let settings = settings_for_scene(&scene);
            for (i, j) in pairs(bodies.len()) {
                let (a, b) = (bodies[i].body_ref(), bodies[j].body_ref());
                let untraced = query_pair(&a, &b, &settings);
                let (traced, steps) = trace_pair(&a, &b, &settings);
                line(
                    out,
                    label,
                    &bodies[i].name,
                    &bodies[j].name,
                    &untraced,
                    &traced,
                    &steps,
                );
            }
        }
        LoadedScene::Three(scene, bodies) => {
            let settings = settings_for_scene3(&scene);
            for (i, j) in pairs(bodies.len()) {
                let (a, b) = (bodies[i].body_ref(), bodies[j].body_ref());
                let untraced = query_pair3(&a, &b, &settings);
                let (traced, steps) = trace_pair3(&a, &b, &settings);
                line(
                    out,
                    label,
                    &bodies[i].name,
                    &bodies[j].name,
                    &untraced,
                    &traced,
                    &steps,
                );
            }
        }
    }
}

fn line(
    out: &mut String,
    label: &str,
    a: &str,
    b: &str,
    untraced: &dyn std::fmt::Debug,
    traced: &dyn std::fmt::Debug,
    steps: &dyn std::fmt::Debug,
) {
    let [u, t, s] = [untraced, traced, steps].map(|x| fingerprint(&format!("{x:?}")));
    writeln!(out, "{label}\t{a}\t{b}\t{u:016x}\t{t:016x}\t{s:016x}").unwrap();
}

fn scene_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            scene_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "ron") {
            files.push(path);
        }
    }
}

/// A generated 2D scene: boxes, polygons, circles and capsules, some turned, some moving.
fn generated_2d(rng: &mut Rng) -> String {
    let mut bodies = String::new();
    for name in ["a", "b", "c"] {
        let shape = match rng.next() % 5 {
            0 => format!(
                "Box(half_extents: ({}, {}))",
                rng.f(0.2, 2.0),
                rng.f(0.2, 2.0)
            ),
            1 => format!(
                "Regular(sides: {}, radius: {})",
                3 + rng.next() % 14,
                rng.f(0.3, 2.0)
            ),
            2 => format!("Circle(radius: {})", rng.f(0.2, 1.5)),
            3 => format!(
                "Capsule(half_length: {}, radius: {})",
                rng.f(0.1, 1.5),
                rng.f(0.1, 0.8)
            ),
            _ => format!("Box(half_extents: ({}, {}))", 0.5, 0.5),
        };
        let velocity = if rng.next().is_multiple_of(2) {
            format!(", velocity: ({}, {})", rng.f(-6.0, 6.0), rng.f(-6.0, 6.0))
        } else {
            String::new()
        };
        // Axis-aligned now and then: ties and parallel edges are what the fast paths must
        // get exactly right.
        let angle = if rng.next().is_multiple_of(3) {
            0.0
        } else {
            rng.f(-180.0, 180.0)
        };
        writeln!(
            bodies,
            "(name: \"{name}\", shape: {shape}, position: ({}, {}), angle: {angle}{velocity}),",
            rng.f(-2.0, 2.0),
            rng.f(-2.0, 2.0),
        )
        .unwrap();
    }
    format!("(version: 1, bodies: [{bodies}])")
}

/// A generated 3D scene: cuboids (the cuboid fast paths), prisms and hulls (the small-body
/// paths), spheres and capsules, some turned, some moving.
fn generated_3d(rng: &mut Rng) -> String {
    let mut bodies = String::new();
    for name in ["a", "b", "c"] {
        let shape = match rng.next() % 6 {
            0 | 1 => format!(
                "Cuboid(half_extents: ({}, {}, {}))",
                rng.f(0.2, 2.0),
                rng.f(0.2, 2.0),
                rng.f(0.2, 2.0)
            ),
            2 => format!(
                "Prism(sides: {}, radius: {}, half_height: {})",
                3 + rng.next() % 12,
                rng.f(0.3, 1.5),
                rng.f(0.2, 1.0)
            ),
            3 => {
                let points: Vec<String> = (0..4 + rng.next() % 12)
                    .map(|_| {
                        format!(
                            "({}, {}, {})",
                            rng.f(-1.0, 1.0),
                            rng.f(-1.0, 1.0),
                            rng.f(-1.0, 1.0)
                        )
                    })
                    .collect();
                format!("Hull(points: [{}])", points.join(", "))
            }
            4 => format!("Sphere(radius: {})", rng.f(0.2, 1.2)),
            _ => format!(
                "Capsule(half_length: {}, radius: {})",
                rng.f(0.1, 1.2),
                rng.f(0.1, 0.6)
            ),
        };
        let velocity = if rng.next().is_multiple_of(2) {
            format!(
                ", velocity: ({}, {}, {})",
                rng.f(-5.0, 5.0),
                rng.f(-5.0, 5.0),
                rng.f(-5.0, 5.0)
            )
        } else {
            String::new()
        };
        let rotation = match rng.next() % 3 {
            0 => "(0, 0, 0)".to_string(),
            1 => format!("(0, {}, 0)", rng.f(-90.0, 90.0)),
            _ => format!(
                "({}, {}, {})",
                rng.f(-180.0, 180.0),
                rng.f(-90.0, 90.0),
                rng.f(-180.0, 180.0)
            ),
        };
        writeln!(
            bodies,
            "(name: \"{name}\", shape: {shape}, position: ({}, {}, {}), rotation: {rotation}{velocity}),",
            rng.f(-1.5, 1.5),
            rng.f(-1.5, 1.5),
            rng.f(-1.5, 1.5),
        )
        .unwrap();
    }
    format!("(version: 1, dimensions: 3, bodies: [{bodies}])")
}

/// Generated scenes that fail validation (a flat hull, say) are left out: the same ones on
/// every run, since the generator's seed is fixed.
fn generated_lines(out: &mut String) {
    let mut rng = Rng(35);
    for k in 0..150 {
        let text = generated_2d(&mut rng);
        if parse_any_scene(&text, "generated").is_ok() {
            scene_lines(&format!("generated-2d-{k}"), &text, out);
        }
        let text = generated_3d(&mut rng);
        if parse_any_scene(&text, "generated").is_ok() {
            scene_lines(&format!("generated-3d-{k}"), &text, out);
        }
    }
}

#[test]
fn every_trace_and_result_matches_its_golden_fingerprint() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    scene_files(&root.join("scenes"), &mut files);
    let mut now = String::new();
    for path in &files {
        let label = path.strip_prefix(root).unwrap().display().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        scene_lines(&label, &text, &mut now);
    }
    generated_lines(&mut now);
    let golden_path = root.join(GOLDEN);
    if std::env::var_os("COLLISION_LAB_BLESS").is_some() {
        std::fs::create_dir_all(golden_path.parent().unwrap()).unwrap();
        std::fs::write(&golden_path, &now).unwrap();
        return;
    }
    let golden = std::fs::read_to_string(&golden_path)
        .unwrap_or_else(|e| panic!("{GOLDEN}: {e} (write it with COLLISION_LAB_BLESS=1)"));
    let moved: Vec<String> = now
        .lines()
        .zip(golden.lines())
        .filter(|(n, g)| n != g)
        .map(|(n, g)| format!("  now    {n}\n  golden {g}"))
        .collect();
    assert!(
        moved.is_empty() && now.lines().count() == golden.lines().count(),
        "{} of {} pairs moved ({} lines now, {} golden):\n{}",
        moved.len(),
        now.lines().count(),
        now.lines().count(),
        golden.lines().count(),
        moved
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
