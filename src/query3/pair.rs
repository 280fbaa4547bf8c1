//! Every 3D algorithm on one pair of bodies: what `query`, `check`, `trace` and the window
//! show for a 3D scene.

use super::epa::{self, epa};
use super::gjk::{self, gjk};
use super::manifold;
use super::manifold_round::manifold_round;
use super::round::{epa_rounded, with_radii, BodyPair3};
use super::sat::{self, sat};
use super::sat_round::sat_round_with_cores;
use super::sweep::{self, sweep, sweep_round, Motion3};
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

/// Settings for a 3D pair query: the limits of the iterative algorithms and the sweep
/// interval. The geometric tolerances are the named constants of each algorithm
/// (`sat::PARALLEL_TOLERANCE`, `sat::AXIS_PREFERENCE_TOLERANCE`,
/// `manifold::FEATURE_TOLERANCE`, ...), each relative to the pair's or the body's size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairSettings3 {
    pub gjk: gjk::Config,
    pub epa: epa::Config,
    /// The sweep covers t in [0, sweep_time].
    pub sweep_time: f32,
}

impl Default for PairSettings3 {
    fn default() -> Self {
        PairSettings3 {
            gjk: gjk::Config::default(),
            epa: epa::Config::default(),
            sweep_time: 1.0,
        }
    }
}

/// Every 3D algorithm's result for a pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairQuery3 {
    /// SAT's verdict: the bodies overlap or touch. GJK's own verdict is `gjk.intersecting`;
    /// the two agree up to the touch tolerance (a property test holds them to it).
    pub intersecting: bool,
    /// Distance and closest points (or the verdict "intersecting").
    pub gjk: gjk::Output,
    /// Depth and normal from GJK's simplex, present when GJK found the bodies intersecting.
    pub epa: Option<epa::Output>,
    pub sat: sat::Output,
    /// Built along SAT's normal, present when the bodies intersect.
    pub manifold: Option<manifold::Output>,
    /// Present when either body has a velocity.
    pub sweep: Option<sweep::Output>,
}

/// Every 3D algorithm's recorded steps for a pair.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairTrace3 {
    pub gjk: Vec<gjk::Step>,
    pub epa: Vec<epa::Step>,
    pub sat: Vec<sat::Step>,
    pub clip: Vec<manifold::Step>,
    pub sweep: Vec<sweep::Step>,
}

impl PairTrace3 {
    /// The algorithms 3D has, in [`Algorithm::ALL`] order.
    /// The Minkowski difference records no steps (a picture, as in 2D) and is not listed.
    pub const ALGORITHMS: [Algorithm; 5] = [
        Algorithm::Gjk,
        Algorithm::Epa,
        Algorithm::Sat,
        Algorithm::Clip,
        Algorithm::Sweep,
    ];

    /// How many steps `algorithm` recorded (0 for the algorithms 3D does not run).
    pub fn step_count(&self, algorithm: Algorithm) -> usize {
        match algorithm {
            Algorithm::Gjk => self.gjk.len(),
            Algorithm::Epa => self.epa.len(),
            Algorithm::Sat => self.sat.len(),
            Algorithm::Clip => self.clip.len(),
            Algorithm::Sweep => self.sweep.len(),
            Algorithm::Minkowski => 0,
        }
    }

    /// The teaching sentence of step `k` (from 0) of `algorithm`.
    pub fn sentence(&self, algorithm: Algorithm, k: usize) -> String {
        let text = match algorithm {
            Algorithm::Gjk => self.gjk.get(k).map(gjk::sentence),
            Algorithm::Epa => self.epa.get(k).map(epa::sentence),
            Algorithm::Sat => self.sat.get(k).map(|s| s.explain()),
            Algorithm::Clip => self.clip.get(k).map(|s| s.explain()),
            Algorithm::Sweep => self.sweep.get(k).map(|s| s.explain()),
            Algorithm::Minkowski => {
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
    let untraced = Tracers {
        gjk: &mut (),
        epa: &mut (),
        sat: &mut (),
        clip: &mut (),
        sweep: &mut (),
    };
    run_pair(a, b, settings, untraced)
}

/// Runs every 3D algorithm and records all their steps.
pub fn trace_pair3(
    a: &BodyRef3,
    b: &BodyRef3,
    settings: &PairSettings3,
) -> (PairQuery3, PairTrace3) {
    let mut t = PairTrace3::default();
    // A large pair's SAT groups its Gauss-map skips as they are recorded (`GROUPED_ABOVE`).
    let q = if edge_count(a) * edge_count(b) > sat::GROUPED_ABOVE {
        let tracers = Tracers {
            gjk: &mut t.gjk,
            epa: &mut t.epa,
            sat: &mut sat::GroupingTracer::new(&mut t.sat),
            clip: &mut t.clip,
            sweep: &mut t.sweep,
        };
        run_pair(a, b, settings, tracers)
    } else {
        let tracers = Tracers {
            gjk: &mut t.gjk,
            epa: &mut t.epa,
            sat: &mut t.sat,
            clip: &mut t.clip,
            sweep: &mut t.sweep,
        };
        run_pair(a, b, settings, tracers)
    };
    (q, t)
}

/// A body's edges as SAT pairs them (a capsule's segment is one edge, a sphere has none).
fn edge_count(body: &BodyRef3) -> usize {
    match body.shape.as_polyhedron() {
        Some(p) => p.edges().len(),
        None => 1,
    }
}

/// One tracer per algorithm: all `()` (untraced) or all the vectors of a [`PairTrace3`].
struct Tracers<'t, G, E, S, C, W> {
    gjk: &'t mut G,
    epa: &'t mut E,
    sat: &'t mut S,
    clip: &'t mut C,
    sweep: &'t mut W,
}

fn run_pair<G, E, S, C, W>(
    a: &BodyRef3,
    b: &BodyRef3,
    settings: &PairSettings3,
    tracers: Tracers<G, E, S, C, W>,
) -> PairQuery3
where
    G: Tracer<gjk::Step>,
    E: Tracer<epa::Step>,
    S: Tracer<sat::Step>,
    C: Tracer<manifold::Step>,
    W: Tracer<sweep::Step>,
{
    let moving = a.velocity.is_some() || b.velocity.is_some();
    let (Some(poly_a), Some(poly_b)) = (a.shape.as_polyhedron(), b.shape.as_polyhedron()) else {
        return run_round_pair(a, b, settings, tracers);
    };
    let pair = PolyPair::new(poly_a, &a.pose, poly_b, &b.pose);
    let g = gjk(&pair, &settings.gjk, tracers.gjk);
    let e = epa(&pair, &g, &settings.epa, tracers.epa);
    let s = sat(&pair, tracers.sat);
    // The manifold starts from SAT's winning feature where that is sure to be the one its
    // search would find (the same output and steps, bit for bit; see
    // `contact_manifold_after_sat`).
    let m = s.intersecting.then(|| {
        if C::ENABLED {
            manifold::manifold_after_sat(&pair, &s, tracers.clip)
        } else {
            manifold::contact_manifold_after_sat(&pair, &s)
        }
    });
    let sw = moving.then(|| sweep(&pair, &motion(a, b, settings), tracers.sweep));
    PairQuery3 {
        intersecting: s.intersecting,
        gjk: g,
        epa: e,
        sat: s,
        manifold: m,
        sweep: sw,
    }
}

/// Both bodies' velocities (none: standing still) over the settings' sweep time.
fn motion(a: &BodyRef3, b: &BodyRef3, settings: &PairSettings3) -> Motion3 {
    Motion3 {
        velocity_a: a.velocity.unwrap_or(Vec3::ZERO),
        velocity_b: b.velocity.unwrap_or(Vec3::ZERO),
        t_max: settings.sweep_time,
    }
}

/// A pair with a sphere or a capsule: GJK and EPA on the cores plus the radii, SAT with the
/// closest-point axis and the manifold on the cores (`round`, `sat_round`,
/// `manifold_round`) and the sweep's bracket narrowed by Newton steps
/// (`sweep::rounded`).
fn run_round_pair<G, E, S, C, W>(
    a: &BodyRef3,
    b: &BodyRef3,
    settings: &PairSettings3,
    tracers: Tracers<G, E, S, C, W>,
) -> PairQuery3
where
    G: Tracer<gjk::Step>,
    E: Tracer<epa::Step>,
    S: Tracer<sat::Step>,
    C: Tracer<manifold::Step>,
    W: Tracer<sweep::Step>,
{
    let pair = BodyPair3::new(a.shape, &a.pose, b.shape, &b.pose);
    let core = gjk(&pair, &settings.gjk, tracers.gjk);
    let e = epa_rounded(&pair, &core, &settings.epa, tracers.epa);
    let s = sat_round_with_cores(&pair, &core, tracers.sat);
    let m = s
        .intersecting
        .then(|| manifold_round(&pair, s.normal, tracers.clip));
    let moving = a.velocity.is_some() || b.velocity.is_some();
    let sw = moving.then(|| sweep_round(&pair, &motion(a, b, settings), tracers.sweep));
    PairQuery3 {
        intersecting: s.intersecting,
        gjk: with_radii(&pair, core),
        epa: e,
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
        assert!(q.gjk.intersecting && q.gjk.distance == 0.0);
        let e = q.epa.expect("EPA runs when GJK finds them intersecting");
        assert!(close(e.depth, 0.1, 1e-5), "{e:?}");
        assert!(close_v(e.normal, Vec3::Y, 1e-5), "{e:?}");
        assert!(t.step_count(Algorithm::Gjk) > 0 && t.step_count(Algorithm::Epa) > 1);
        assert_eq!(t.step_count(Algorithm::Minkowski), 0);
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
    fn a_large_pair_s_trace_groups_the_gauss_map_skips_of_each_edge_of_a() {
        // Two 256-point prisms: 384 edges each, 147,456 edge pairs.
        let kind = crate::geom3::Shape3Kind::Prism {
            sides: 128,
            radius: 1.0,
            half_height: 0.5,
        };
        let prism = Polyhedron::new(&kind).unwrap();
        let body = |pose| BodyRef3 {
            shape: (&prism).into(),
            pose,
            velocity: None,
        };
        let pose_b = Pose3::from_degrees(Vec3::new(0.3, 0.9, 0.2), Vec3::new(20.0, 10.0, 35.0));
        let (a, b) = (body(at(0., 0., 0.)), body(pose_b));
        let settings = PairSettings3::default();
        let (q, t) = trace_pair3(&a, &b, &settings);
        assert_eq!(
            q,
            query_pair3(&a, &b, &settings),
            "grouping changes no answer"
        );
        let tested = t
            .sat
            .iter()
            .filter(|s| matches!(s, sat::Step::Axis(_)))
            .count();
        assert_eq!(
            tested as u32, q.sat.axes_tested,
            "every tested axis keeps its step"
        );
        let pruned: u32 = t
            .sat
            .iter()
            .map(|s| match s {
                sat::Step::GaussMapPruned { count, .. } => *count,
                sat::Step::Skipped { .. } => 1,
                sat::Step::Axis(_) => 0,
            })
            .sum();
        assert_eq!(pruned, q.sat.axes_pruned, "every skipped pair is counted");
        let groups = t
            .sat
            .iter()
            .filter(|s| matches!(s, sat::Step::GaussMapPruned { .. }))
            .count();
        assert!(
            groups <= prism.edges().len(),
            "one group per edge of A: {groups}"
        );
        assert!(t.sat.len() < 10_000, "{} steps", t.sat.len());
        for k in 0..t.sat.len() {
            assert!(t.sentence(Algorithm::Sat, k).ends_with('.'));
        }
        // A small pair keeps a step per pair.
        let cube = cuboid(0.5, 0.5, 0.5);
        let small = |x| BodyRef3 {
            shape: (&cube).into(),
            pose: at(x, 0., 0.),
            velocity: None,
        };
        let (_, t) = trace_pair3(&small(0.0), &small(0.8), &settings);
        assert_eq!(t.sat.len(), 156);
    }

    #[test]
    fn a_separated_pair_gives_gjk_s_distance_and_no_epa() {
        // Unit cubes, B at (2, 0, 0): faces x = 0.5 and x = 1.5, distance 1.
        let cube = cuboid(0.5, 0.5, 0.5);
        let body = |x: f32| BodyRef3 {
            shape: (&cube).into(),
            pose: at(x, 0., 0.),
            velocity: None,
        };
        let settings = PairSettings3::default();
        let (q, t) = trace_pair3(&body(0.0), &body(2.0), &settings);
        assert_eq!(q, query_pair3(&body(0.0), &body(2.0), &settings));
        assert!(!q.intersecting && !q.gjk.intersecting);
        assert!(close(q.gjk.distance, 1.0, 1e-6));
        assert_eq!(q.epa, None);
        assert_eq!(t.step_count(Algorithm::Epa), 0);
        assert_eq!(t.gjk.len() as u32, q.gjk.iterations);
        assert!(t.sentence(Algorithm::Gjk, 0).starts_with("Iteration 1: "));
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
