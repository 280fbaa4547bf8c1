//! Recording overhead: each algorithm untraced and traced into a fresh `Vec`, as the
//! window records one run.

use crate::inputs::Inputs;
use crate::runners::pairs;
use collision_lab::query::clip::clip_after_sat;
use collision_lab::query::epa::{epa, EpaConfig};
use collision_lab::query::gjk::{gjk, GjkConfig, GjkOutput};
use collision_lab::query::pair::{query_pair, trace_pair, BodyRef, PairSettings};
use collision_lab::query::sat::{sat, SatOutput};
use collision_lab::query::sweep::{sweep, Motion};
use collision_lab::query::ShapePair;
use criterion::{BenchmarkId, Criterion};
use glam::Vec2;
use std::hint::black_box;

pub const ALGORITHMS: [&str; 6] = ["gjk", "epa", "sat", "clip", "sweep", "pair"];

/// Inputs of the recording benchmarks, built once.
pub struct RecordingInputs<'a> {
    mixed: Vec<ShapePair<'a>>,
    penetrating: Vec<ShapePair<'a>>,
    gjk_outputs: Vec<GjkOutput>,
    sat_outputs: Vec<SatOutput>,
    approaching: Vec<ShapePair<'a>>,
    motions: Vec<Motion>,
    bodies: Vec<(BodyRef<'a>, BodyRef<'a>)>,
}

impl<'a> RecordingInputs<'a> {
    pub fn new(inputs: &'a Inputs) -> Self {
        let set = &inputs.set;
        let penetrating = pairs(&inputs.penetrating, set);
        RecordingInputs {
            mixed: pairs(&inputs.mixed, set),
            gjk_outputs: penetrating
                .iter()
                .map(|p| gjk(p, &GjkConfig::default(), &mut ()))
                .collect(),
            sat_outputs: penetrating.iter().map(|p| sat(p, &mut ())).collect(),
            penetrating,
            approaching: pairs(&inputs.approaching, set),
            motions: inputs
                .approaching
                .iter()
                .map(|c| Motion {
                    velocity_a: Vec2::ZERO,
                    velocity_b: c.velocity_b,
                    t_max: 1.0,
                })
                .collect(),
            bodies: inputs
                .mixed
                .iter()
                .map(|c| {
                    (
                        BodyRef {
                            shape: &set.ours[c.a],
                            pose: c.pose_a,
                            velocity: Some(Vec2::ZERO),
                        },
                        BodyRef {
                            shape: &set.ours[c.b],
                            pose: c.pose_b,
                            velocity: Some(c.velocity_b),
                        },
                    )
                })
                .collect(),
        }
    }

    /// Runs `algorithm` over its cases, recording into a fresh `Vec` per call when `traced`.
    pub fn run(&self, algorithm: &str, traced: bool) {
        let gjk_config = GjkConfig::default();
        let epa_config = EpaConfig::default();
        let settings = PairSettings::default();
        macro_rules! run {
            ($call:expr) => {
                if traced {
                    let mut steps = Vec::new();
                    black_box($call(&mut steps));
                    black_box(steps);
                } else {
                    black_box($call(&mut ()));
                }
            };
        }
        match algorithm {
            "gjk" => {
                for pair in &self.mixed {
                    run!(|t| gjk(black_box(pair), &gjk_config, t));
                }
            }
            "epa" => {
                for (pair, g) in self.penetrating.iter().zip(&self.gjk_outputs) {
                    run!(|t| epa(black_box(pair), g, &epa_config, t));
                }
            }
            "sat" => {
                for pair in &self.mixed {
                    run!(|t| sat(black_box(pair), t));
                }
            }
            "clip" => {
                for (pair, s) in self.penetrating.iter().zip(&self.sat_outputs) {
                    run!(|t| clip_after_sat(black_box(pair), s, t));
                }
            }
            "sweep" => {
                for (pair, motion) in self.approaching.iter().zip(&self.motions) {
                    run!(|t| sweep(black_box(pair), motion, t));
                }
            }
            "pair" => {
                for (a, b) in &self.bodies {
                    if traced {
                        black_box(trace_pair(black_box(a), b, &settings));
                    } else {
                        black_box(query_pair(black_box(a), b, &settings));
                    }
                }
            }
            other => panic!("no algorithm {other}"),
        }
    }
}

pub fn bench_recording(c: &mut Criterion, recording: &RecordingInputs) {
    let mut group = c.benchmark_group("recording");
    for algorithm in ALGORITHMS {
        for traced in [false, true] {
            let mode = if traced { "traced" } else { "untraced" };
            group.bench_function(BenchmarkId::new(algorithm, mode), |b| {
                b.iter(|| recording.run(algorithm, traced))
            });
        }
    }
    group.finish();
}
