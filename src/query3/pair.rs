//! Every 3D algorithm on one pair of bodies: what `query`, `check`, `trace` and the window
//! show for a 3D scene.

use super::manifold::{self, manifold};
use super::manifold_round::manifold_round;
use super::round::BodyPair3;
use super::sat::{self, sat};
use super::sat_round::sat_round;
use super::sweep::{self, sweep, Motion3};
use super::PolyPair;
use crate::geom3::{Pose3, Shape3Ref};
use crate::query::Algorithm;
use crate::trace::Tracer;
use glam::Vec3;

/// A body as the 3D queries see it.
#[derive(Clone, Copy, Debug)]
pub struct BodyRef3<'a> {
    /// A polyhedron or a round shape (`(&polyhedron).into()` makes one).
    pub shape: Shape3Ref<'a>,
    pub pose: Pose3,
    /// Present (even zero) when the body takes part in sweeps.
    pub velocity: Option<Vec3>,
}

/// Settings for a 3D pair query. The geometric tolerances are the named constants of each
/// algorithm (`sat::PARALLEL_TOLERANCE`, `sat::AXIS_PREFERENCE_TOLERANCE`,
/// `manifold::FEATURE_TOLERANCE`, ...), each relative to the pair's or the body's size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairSettings3 {
    /// The sweep covers t in [0, sweep_time].
    pub sweep_time: f32,
}

impl Default for PairSettings3 {
    fn default() -> Self {
        PairSettings3 { sweep_time: 1.0 }
    }
}

/// Every 3D algorithm's result for a pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairQuery3 {
    /// SAT's verdict: the bodies overlap or touch.
    pub intersecting: bool,
    pub sat: sat::Output,
    /// Built along SAT's normal, present when the bodies intersect.
    pub manifold: Option<manifold::Output>,
    /// Present when either body has a velocity (with a round shape: not run, status
    /// `round_shapes_unsupported`).
    pub sweep: Option<sweep::Output>,
}

/// Every 3D algorithm's recorded steps for a pair.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairTrace3 {
    pub sat: Vec<sat::Step>,
    pub clip: Vec<manifold::Step>,
    pub sweep: Vec<sweep::Step>,
}

impl PairTrace3 {
    /// The algorithms 3D has, in [`Algorithm::ALL`] order.
    pub const ALGORITHMS: [Algorithm; 3] = [Algorithm::Sat, Algorithm::Clip, Algorithm::Sweep];

    /// How many steps `algorithm` recorded (0 for the algorithms 3D does not run).
    pub fn step_count(&self, algorithm: Algorithm) -> usize {
        match algorithm {
            Algorithm::Sat => self.sat.len(),
            Algorithm::Clip => self.clip.len(),
            Algorithm::Sweep => self.sweep.len(),
            Algorithm::Minkowski | Algorithm::Gjk | Algorithm::Epa => 0,
        }
    }

    /// The teaching sentence of step `k` (from 0) of `algorithm`.
    pub fn sentence(&self, algorithm: Algorithm, k: usize) -> String {
        let text = match algorithm {
            Algorithm::Sat => self.sat.get(k).map(|s| s.explain()),
            Algorithm::Clip => self.clip.get(k).map(|s| s.explain()),
            Algorithm::Sweep => self.sweep.get(k).map(|s| s.explain()),
            Algorithm::Minkowski | Algorithm::Gjk | Algorithm::Epa => {
                return format!("{} has no 3D steps.", algorithm.title());
            }
        };
        text.unwrap_or_else(|| {
            format!(
                "{} recorded {} steps; there is no step {k}.",
                algorithm.title(),
                self.step_count(algorithm)
            )
        })
    }
}

/// Runs every 3D algorithm without recording (allocates nothing).
pub fn query_pair3(a: &BodyRef3, b: &BodyRef3, settings: &PairSettings3) -> PairQuery3 {
    run_pair(a, b, settings, &mut (), &mut (), &mut ())
}

/// Runs every 3D algorithm and records all their steps.
pub fn trace_pair3(
    a: &BodyRef3,
    b: &BodyRef3,
    settings: &PairSettings3,
) -> (PairQuery3, PairTrace3) {
    let mut t = PairTrace3::default();
    let q = run_pair(a, b, settings, &mut t.sat, &mut t.clip, &mut t.sweep);
    (q, t)
}

fn run_pair(
    a: &BodyRef3,
    b: &BodyRef3,
    settings: &PairSettings3,
    sat_tracer: &mut impl Tracer<sat::Step>,
    clip_tracer: &mut impl Tracer<manifold::Step>,
    sweep_tracer: &mut impl Tracer<sweep::Step>,
) -> PairQuery3 {
    let moving = a.velocity.is_some() || b.velocity.is_some();
    let (Some(poly_a), Some(poly_b)) = (a.shape.as_polyhedron(), b.shape.as_polyhedron()) else {
        // A sphere or a capsule: SAT and the manifold on the cores plus radii; no sweep.
        let pair = BodyPair3::new(a.shape, &a.pose, b.shape, &b.pose);
        let s = sat_round(&pair, sat_tracer);
        let m = s
            .intersecting
            .then(|| manifold_round(&pair, s.normal, clip_tracer));
        return PairQuery3 {
            intersecting: s.intersecting,
            sat: s,
            manifold: m,
            sweep: moving.then(sweep::Output::refused_round),
        };
    };
    let pair = PolyPair::new(poly_a, &a.pose, poly_b, &b.pose);
    let s = sat(&pair, sat_tracer);
    let m = s
        .intersecting
        .then(|| manifold(&pair, s.normal, clip_tracer));
    let sw = moving.then(|| {
        let motion = Motion3 {
            velocity_a: a.velocity.unwrap_or(Vec3::ZERO),
            velocity_b: b.velocity.unwrap_or(Vec3::ZERO),
            t_max: settings.sweep_time,
        };
        sweep(&pair, &motion, sweep_tracer)
    });
    PairQuery3 {
        intersecting: s.intersecting,
        sat: s,
        manifold: m,
        sweep: sw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom3::Polyhedron;
    use crate::query3::testing::*;

    #[test]
    fn the_slab_pair_runs_sat_and_the_manifold_and_explains_every_step() {
        let slab = cuboid(1.0, 0.5, 1.0);
        let cube = cuboid(0.5, 0.5, 0.5);
        let a = BodyRef3 {
            shape: (&slab).into(),
            pose: at(0., 0., 0.),
            velocity: None,
        };
        let b = BodyRef3 {
            shape: (&cube).into(),
            pose: at(0., 0.9, 0.),
            velocity: Some(Vec3::new(0., 1., 0.)),
        };
        let settings = PairSettings3::default();
        let (q, t) = trace_pair3(&a, &b, &settings);
        assert_eq!(q, query_pair3(&a, &b, &settings));
        assert!(q.intersecting);
        assert_eq!(q.manifold.unwrap().points.len(), 4);
        assert_eq!(q.sweep.unwrap().status, sweep::Status::InitiallyOverlapping);
        // 12 face axes and 144 skipped edge pairs.
        assert_eq!(t.step_count(Algorithm::Sat), 156);
        assert_eq!(t.step_count(Algorithm::Gjk), 0);
        for algorithm in PairTrace3::ALGORITHMS {
            assert!(t.step_count(algorithm) > 0);
            for k in 0..t.step_count(algorithm) {
                let s = t.sentence(algorithm, k);
                assert!(s.ends_with('.'), "{s}");
            }
        }
        assert!(t.sentence(Algorithm::Sat, 999).contains("no step 999"));
    }

    #[test]
    fn non_finite_and_huge_inputs_end_without_panicking() {
        let cube = cuboid(0.5, 0.5, 0.5);
        let hull = {
            let points = (0..300)
                .map(|k| {
                    let t = k as f32 * 0.7;
                    Vec3::new(t.sin(), (1.3 * t).cos(), (0.37 * t).sin() * t.cos())
                })
                .collect();
            Polyhedron::new(&crate::geom3::Shape3Kind::Hull { points }).unwrap()
        };
        let bad = [
            Vec3::NAN,
            Vec3::INFINITY,
            Vec3::new(1e30, -1e30, 0.0),
            Vec3::new(f32::MAX, 0.0, 0.0),
        ];
        let settings = PairSettings3::default();
        for shape in [&cube, &hull] {
            for value in bad {
                for (pose_b, velocity) in [
                    (Pose3::new(value, glam::Quat::IDENTITY), Some(Vec3::ONE)),
                    (at(0.2, 0.3, 0.), Some(value)),
                    (
                        Pose3::new(Vec3::ZERO, glam::Quat::from_xyzw(value.x, 0., 0., 1.)),
                        None,
                    ),
                ] {
                    let a = BodyRef3 {
                        shape: (&cube).into(),
                        pose: at(0., 0., 0.),
                        velocity: Some(Vec3::ZERO),
                    };
                    let b = BodyRef3 {
                        shape: shape.into(),
                        pose: pose_b,
                        velocity,
                    };
                    let q = query_pair3(&a, &b, &settings);
                    let (t, trace) = trace_pair3(&a, &b, &settings);
                    assert_eq!(q.intersecting, t.intersecting);
                    for algorithm in PairTrace3::ALGORITHMS {
                        for k in 0..trace.step_count(algorithm) {
                            trace.sentence(algorithm, k);
                        }
                    }
                }
            }
        }
    }
}
