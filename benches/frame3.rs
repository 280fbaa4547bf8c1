//! The 3D window's per-frame work without drawing: every algorithm recorded for the focused
//! pair (`trace_pair3`, as `Analysis3::run` does after each edit) and every body's surface
//! rebuilt at its pose (`FaceMesh::of_shape`, as the workspace does after each edit), for the
//! 3D welcome scene and for two 256-point hulls (prisms of 128 sides).
//!
//! `cargo bench --bench frame3`; the issue's budgets are 2 ms (welcome) and 8 ms (256-point
//! hulls) a frame.

use collision_lab::app::paint3::FaceMesh;
use collision_lab::query3::pair::{trace_pair3, PairSettings3};
use collision_lab::scene::{load_scene3_file, parse_scene3, SceneBody3};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::path::Path;

/// The two 256-point prisms, turned and overlapping.
const BIG: &str = r#"(
    version: 1,
    dimensions: 3,
    bodies: [
        (name: "a", shape: Prism(sides: 128, radius: 1, half_height: 0.5)),
        (name: "b", shape: Prism(sides: 128, radius: 1, half_height: 0.5), position: (0.3, 0.9, 0.2), rotation: (20, 10, 35)),
    ],
)"#;

/// One frame's work after an edit; a number that depends on all of it.
fn frame(bodies: &[SceneBody3], focus: (usize, usize)) -> usize {
    let settings = PairSettings3::default();
    let (a, b) = (bodies[focus.0].body_ref(), bodies[focus.1].body_ref());
    let (_, t) = trace_pair3(&a, &b, &settings);
    let mut total = t.gjk.len() + t.epa.len() + t.sat.len() + t.clip.len() + t.sweep.len();
    for body in bodies {
        total += FaceMesh::of_shape(body.shape.as_ref(), &body.pose)
            .faces
            .len();
    }
    total
}

fn bench_frame3(c: &mut Criterion) {
    let welcome = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/3d/welcome.ron");
    let (scene, welcome) = load_scene3_file(&welcome).expect("scenes/3d/welcome.ron loads");
    let focus = scene.focus_indices().expect("a focused pair");
    let (_, big) = parse_scene3(BIG, "big.ron").expect("the prisms load");
    let mut group = c.benchmark_group("frame3");
    group.bench_function("welcome", |b| b.iter(|| frame(black_box(&welcome), focus)));
    group.bench_function("hulls_256", |b| b.iter(|| frame(black_box(&big), (0, 1))));
    group.finish();
}

criterion_group!(benches, bench_frame3);
criterion_main!(benches);
