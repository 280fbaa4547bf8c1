//! Every algorithm on one pair of bodies: what `query`, `check`, `trace` and the window show.

use super::algorithm::Algorithm;
use super::clip::{clip_after_sat, ClipStep, Manifold};
use super::epa::{epa, EpaConfig, EpaOutput, EpaStep};
use super::explain::Explain;
use super::gjk::{gjk, GjkConfig, GjkOutput, GjkStep};
use super::sat::{sat, SatAxis, SatOutput};
use super::sweep::{sweep, Motion, SweepOutput, SweepStep};
use super::ShapePair;
use crate::geom::{Pose, Shape};
use crate::trace::Tracer;
use glam::Vec2;

/// A body as the queries see it.
#[derive(Clone, Copy, Debug)]
pub struct BodyRef<'a> {
    pub shape: &'a Shape,
    pub pose: Pose,
    /// Present (even zero) when the body takes part in sweeps.
    pub velocity: Option<Vec2>,
}

/// Limits for the iterative algorithms and the sweep interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairSettings {
    pub gjk: GjkConfig,
    pub epa: EpaConfig,
    /// The sweep covers t in [0, sweep_time].
    pub sweep_time: f32,
}

impl Default for PairSettings {
    fn default() -> Self {
        PairSettings {
            gjk: GjkConfig::default(),
            epa: EpaConfig::default(),
            sweep_time: 1.0,
        }
    }
}

/// Every algorithm's result for a pair.
#[derive(Clone, Debug, PartialEq)]
pub struct PairQuery {
    pub gjk: GjkOutput,
    /// Present when GJK found the shapes intersecting.
    pub epa: Option<EpaOutput>,
    pub sat: SatOutput,
    /// Clipped along SAT's normal, present when the shapes intersect.
    pub manifold: Option<Manifold>,
    /// Present when either body has a velocity.
    pub sweep: Option<SweepOutput>,
}

impl PairQuery {
    /// GJK's verdict: the pair overlaps or touches.
    pub fn intersecting(&self) -> bool {
        self.gjk.intersecting
    }
}

/// Every algorithm's recorded steps for a pair.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairTrace {
    pub gjk: Vec<GjkStep>,
    pub epa: Vec<EpaStep>,
    pub sat: Vec<SatAxis>,
    pub clip: Vec<ClipStep>,
    pub sweep: Vec<SweepStep>,
}

/// One algorithm's recorded steps, whatever their type.
trait RecordedSteps {
    fn count(&self) -> usize;
    fn sentence(&self, k: usize) -> Option<String>;
}

impl<S: Explain> RecordedSteps for Vec<S> {
    fn count(&self) -> usize {
        self.len()
    }

    fn sentence(&self, k: usize) -> Option<String> {
        self.get(k).map(Explain::explain)
    }
}

/// The Minkowski difference is a picture, not a loop: it records no steps.
impl RecordedSteps for () {
    fn count(&self) -> usize {
        0
    }

    fn sentence(&self, _k: usize) -> Option<String> {
        None
    }
}

impl PairTrace {
    /// The one `match` from an algorithm to its recorded steps: the window's timeline and
    /// the `trace` command both go through it.
    fn steps(&self, algorithm: Algorithm) -> &dyn RecordedSteps {
        match algorithm {
            Algorithm::Minkowski => &(),
            Algorithm::Gjk => &self.gjk,
            Algorithm::Epa => &self.epa,
            Algorithm::Sat => &self.sat,
            Algorithm::Clip => &self.clip,
            Algorithm::Sweep => &self.sweep,
        }
    }

    /// How many steps `algorithm` recorded.
    pub fn step_count(&self, algorithm: Algorithm) -> usize {
        self.steps(algorithm).count()
    }

    /// The teaching sentence for step `k` of `algorithm`, when that step was recorded.
    pub fn sentence(&self, algorithm: Algorithm, k: usize) -> Option<String> {
        self.steps(algorithm).sentence(k)
    }

    /// Every sentence of `algorithm`, in order.
    pub fn sentences(&self, algorithm: Algorithm) -> Vec<String> {
        (0..self.step_count(algorithm))
            .filter_map(|k| self.sentence(algorithm, k))
            .collect()
    }
}

/// Runs every algorithm without recording.
pub fn query_pair(a: &BodyRef, b: &BodyRef, settings: &PairSettings) -> PairQuery {
    run_pair(a, b, settings, &mut (), &mut (), &mut (), &mut (), &mut ())
}

/// Runs every algorithm and records all their steps.
pub fn trace_pair(a: &BodyRef, b: &BodyRef, settings: &PairSettings) -> (PairQuery, PairTrace) {
    let mut t = PairTrace::default();
    let q = run_pair(
        a,
        b,
        settings,
        &mut t.gjk,
        &mut t.epa,
        &mut t.sat,
        &mut t.clip,
        &mut t.sweep,
    );
    (q, t)
}

#[allow(clippy::too_many_arguments)]
fn run_pair(
    a: &BodyRef,
    b: &BodyRef,
    settings: &PairSettings,
    gjk_tracer: &mut impl Tracer<GjkStep>,
    epa_tracer: &mut impl Tracer<EpaStep>,
    sat_tracer: &mut impl Tracer<SatAxis>,
    clip_tracer: &mut impl Tracer<ClipStep>,
    sweep_tracer: &mut impl Tracer<SweepStep>,
) -> PairQuery {
    let pair = ShapePair::new(a.shape, a.pose, b.shape, b.pose);
    let g = gjk(&pair, &settings.gjk, gjk_tracer);
    let e = epa(&pair, &g, &settings.epa, epa_tracer);
    let s = sat(&pair, sat_tracer);
    // Along SAT's normal, starting from SAT's winning edge where the shape vouches that the
    // clip's search would find it (the same manifold and steps; see `clip_after_sat`).
    let manifold = g
        .intersecting
        .then(|| clip_after_sat(&pair, &s, clip_tracer));
    let sweep_result = (a.velocity.is_some() || b.velocity.is_some()).then(|| {
        let motion = Motion {
            velocity_a: a.velocity.unwrap_or(Vec2::ZERO),
            velocity_b: b.velocity.unwrap_or(Vec2::ZERO),
            t_max: settings.sweep_time,
        };
        sweep(&pair, &motion, sweep_tracer)
    });
    PairQuery {
        gjk: g,
        epa: e,
        sat: s,
        manifold,
        sweep: sweep_result,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the z2m speed round (2026-11-23): SAT's small-polygon choice indexed lane 32
    /// when a pose with a non-number made every overlap NaN, and panicked. Scenes refuse
    /// such poses, but the library takes any; every algorithm must answer, traced or not.
    #[test]
    fn non_number_poses_are_answered_not_panicked() {
        let shapes = [
            Shape::rect(Vec2::new(1.0, 0.5)).unwrap(),
            Shape::regular(4, 1.0).unwrap(),
            Shape::regular(6, 1.0).unwrap(),
            Shape::regular(8, 1.0).unwrap(),
            Shape::regular(12, 1.0).unwrap(),
        ];
        let bad = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];
        let settings = PairSettings::default();
        let mut answered = 0;
        for a in &shapes {
            for b in &shapes {
                for &x in &bad {
                    let poses = [
                        (
                            Pose::new(Vec2::ZERO, 0.0),
                            Pose::new(Vec2::new(x, 0.5), 0.3),
                        ),
                        (Pose::new(Vec2::new(0.2, x), 0.0), Pose::new(Vec2::ONE, 0.3)),
                        (
                            Pose::new(Vec2::ZERO, x),
                            Pose::new(Vec2::new(0.5, 0.5), 0.0),
                        ),
                        (Pose::new(Vec2::ZERO, 0.0), Pose::new(Vec2::new(x, x), x)),
                    ];
                    for (pa, pb) in poses {
                        let body = |shape, pose| BodyRef {
                            shape,
                            pose,
                            velocity: Some(Vec2::new(1.0, 0.0)),
                        };
                        let (a, b) = (body(a, pa), body(b, pb));
                        let untraced = query_pair(&a, &b, &settings);
                        let (traced, _) = trace_pair(&a, &b, &settings);
                        // SAT names the same axis traced or not (its numbers are NaN).
                        assert_eq!(untraced.sat.axis, traced.sat.axis);
                        assert_eq!(untraced.sat.intersecting, traced.sat.intersecting);
                        answered += 1;
                    }
                }
            }
        }
        assert_eq!(answered, 5 * 5 * 3 * 4);
    }
}
