//! The window's per-frame work without drawing: every algorithm recorded for the focused
//! pair, the Minkowski outline, the overlay geometry (each body's outline in the world), and
//! every pair's results, the pairs whose bounding circles are apart culled first
//! ([`collision_lab::query::bounds`]).

use crate::inputs::{random_convex_polygon, SplitMix64};
use crate::SEED;
use collision_lab::geom::{Pose, Shape};
use collision_lab::query::bounds::may_touch;
use collision_lab::query::minkowski::minkowski_difference;
use collision_lab::query::pair::{query_pair, trace_pair, BodyRef, PairSettings};
use collision_lab::query::ShapePair;
use collision_lab::scene::load_scene_file;
use criterion::Criterion;
use glam::Vec2;
use std::f32::consts::TAU;
use std::hint::black_box;
use std::path::Path;

pub struct Body {
    shape: Shape,
    pose: Pose,
    velocity: Option<Vec2>,
}

impl Body {
    fn body_ref(&self) -> BodyRef<'_> {
        BodyRef {
            shape: &self.shape,
            pose: self.pose,
            velocity: self.velocity,
        }
    }
}

/// The scene the window opens on, read from `scenes/welcome.ron`.
pub fn welcome_scene() -> Vec<Body> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/welcome.ron");
    let (_, bodies) = load_scene_file(&path).expect("scenes/welcome.ron loads");
    bodies
        .into_iter()
        .map(|b| Body {
            shape: b.shape,
            pose: b.pose,
            velocity: b.velocity,
        })
        .collect()
}

/// 100 bodies of every kind on a jittered 10 x 10 grid with spacing 2.2 (neighbours often
/// overlap), a third of them moving.
pub fn crowd_scene() -> Vec<Body> {
    let mut rng = SplitMix64(SEED ^ 100);
    (0..100)
        .map(|k| {
            let shape = match k % 5 {
                0 => Shape::rect(Vec2::new(rng.range(0.4, 1.2), rng.range(0.4, 1.2))).unwrap(),
                1 => Shape::circle(rng.range(0.4, 1.2)).unwrap(),
                2 => Shape::capsule(rng.range(0.3, 0.9), rng.range(0.2, 0.5)).unwrap(),
                3 => Shape::regular(3 + rng.below(6) as u32, rng.range(0.5, 1.2)).unwrap(),
                _ => {
                    let n = 4 + rng.below(12);
                    Shape::polygon(random_convex_polygon(&mut rng, n)).unwrap()
                }
            };
            let position = Vec2::new(
                (k % 10) as f32 * 2.2 + rng.range(-0.5, 0.5),
                (k / 10) as f32 * 2.2 + rng.range(-0.5, 0.5),
            );
            let velocity =
                (k % 3 == 0).then(|| Vec2::from_angle(rng.range(0.0, TAU)) * rng.range(0.5, 2.0));
            Body {
                shape,
                pose: Pose::new(position, rng.range(-3.0, 3.0)),
                velocity,
            }
        })
        .collect()
}

/// What one frame did: a number that depends on all of it, and how many pairs the bounding
/// circles culled before the narrow phase.
#[derive(Clone, Copy, Debug)]
pub struct FrameWork {
    pub total: usize,
    pub culled: usize,
}

/// One frame's work; `cull` skips the pairs whose bounding circles stay apart (off: every
/// pair goes through the narrow phase, as before the cull).
pub fn frame(
    bodies: &[Body],
    focus: (usize, usize),
    settings: &PairSettings,
    cull: bool,
) -> FrameWork {
    let (a, b) = (bodies[focus.0].body_ref(), bodies[focus.1].body_ref());
    let (_, trace) = trace_pair(&a, &b, settings);
    let pair = ShapePair::new(a.shape, a.pose, b.shape, b.pose);
    let minkowski = minkowski_difference(&pair);
    let mut total =
        trace.gjk.len() + trace.epa.len() + trace.sat.len() + trace.clip.len() + trace.sweep.len();
    total += minkowski.outline.len();
    for body in bodies {
        let outline: Vec<Vec2> = body
            .shape
            .outline(64)
            .into_iter()
            .map(|p| body.pose.transform_point(p))
            .collect();
        total += black_box(outline).len();
    }
    let mut culled = 0;
    for i in 0..bodies.len() {
        for j in i + 1..bodies.len() {
            let (a, b) = (bodies[i].body_ref(), bodies[j].body_ref());
            if cull && !may_touch(&a, &b, settings.sweep_time) {
                culled += 1;
                continue;
            }
            let q = query_pair(&a, &b, settings);
            total += usize::from(black_box(q).intersecting());
        }
    }
    FrameWork { total, culled }
}

pub fn bench_frame(c: &mut Criterion) {
    let settings = PairSettings::default();
    let mut group = c.benchmark_group("frame");
    let welcome = welcome_scene();
    group.bench_function("welcome", |b| {
        b.iter(|| frame(black_box(&welcome), (0, 1), &settings, true).total)
    });
    let crowd = crowd_scene();
    group.bench_function("bodies_100", |b| {
        b.iter(|| frame(black_box(&crowd), (0, 1), &settings, true).total)
    });
    group.finish();
}
