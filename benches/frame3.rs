//! The 3D window's per-frame work without drawing: every algorithm recorded for the focused
//! pair (`trace_pair3`, as `Analysis3::run` does after each edit), A - B's hull
//! (`body_difference`, the same) and its surface, and every body's surface rebuilt at its
//! pose (`FaceMesh::of_shape`, as the workspace does after each edit), for the 3D welcome
//! scene, for two 256-point hulls (prisms of 128 sides), and for a capsule over a box (A - B
//! sampled from 400 directions).
//!
//! `cargo bench --bench frame3`; the issues' budgets are 2 ms (welcome, with all five
//! algorithms and A - B shown) and 8 ms (256-point hulls) a frame. Each row is measured
//! without A - B (the analysis builds its hull only when the A - B view asks) and with it.

use collision_lab::app::paint3::FaceMesh;
use collision_lab::geom3::{Pose3, Shape3Ref};
use collision_lab::query3::minkowski::body_difference;
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

/// One frame's work after an edit (with A - B's hull when the A - B view shows); a number
/// that depends on all of it.
fn frame(bodies: &[SceneBody3], focus: (usize, usize), difference: bool) -> usize {
    let settings = PairSettings3::default();
    let (a, b) = (bodies[focus.0].body_ref(), bodies[focus.1].body_ref());
    let (_, t) = trace_pair3(&a, &b, &settings);
    let mut total = t.gjk.len() + t.epa.len() + t.sat.len() + t.clip.len() + t.sweep.len();
    let (pa, pb) = (&bodies[focus.0], &bodies[focus.1]);
    let d = difference
        .then(|| body_difference((pa.shape.as_ref(), &pa.pose), (pb.shape.as_ref(), &pb.pose)));
    if let Some(Ok(d)) = d {
        let hull = Shape3Ref::Polyhedron(&d.difference.hull);
        total += FaceMesh::of_shape(hull, &Pose3::default()).faces.len();
    }
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
    let round =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/3d/round_capsule_across_box_edge.ron");
    let (round_scene, round) = load_scene3_file(&round).expect("the capsule scene loads");
    let round_focus = round_scene.focus_indices().expect("a focused pair");
    for (name, bodies, focus) in [
        ("welcome", &welcome, focus),
        ("hulls_256", &big, (0, 1)),
        ("capsule_box", &round, round_focus),
    ] {
        group.bench_function(name, |b| b.iter(|| frame(black_box(bodies), focus, false)));
        let shown = format!("{name}_with_a_minus_b");
        group.bench_function(shown, |b| b.iter(|| frame(black_box(bodies), focus, true)));
    }
    group.finish();
}

criterion_group!(benches, bench_frame3);
criterion_main!(benches);
