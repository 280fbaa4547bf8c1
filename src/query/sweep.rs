//! Swept SAT: when do two bodies moving at constant velocities first touch, and when do
//! they part?
//!
//! Algorithm (Ericson, *Real-Time Collision Detection*, 5.5.8 "Intersecting moving AABBs",
//! generalised to every separating axis; Gomez, "Simple intersection tests for games"):
//!
//! ```text
//! v = vB - vA (B's velocity seen from A); B's interval on axis u slides at speed s = v . u
//! per axis: the times when the intervals overlap form one interval [t_enter, t_exit]
//!     s > 0: t_enter = (minA - maxB) / s,  t_exit = (maxA - minB) / s
//!     s < 0: t_enter = (maxA - minB) / s,  t_exit = (minA - maxB) / s
//!     s = 0: always overlapping, or never
//! the shapes overlap when every axis does: t_first = max t_enter, t_last = min t_exit
//! hit when max(t_first, 0) <= min(t_last, t_max); the axis with the latest t_enter is the
//! contact normal
//! ```
//!
//! Over all edge normals this is exact for polygons: two convex polygons translating
//! without rotation keep the same candidate axes. Round shapes' vertex axes turn as the
//! bodies move, so for them the edge-axis interval is only a bracket; it is narrowed by
//! Newton steps on the distance between the cores (a convex function of time under
//! translation, so each step lands before the root, never past it).

use super::clip::{contact_manifold, Manifold};
use super::gjk::gjk_distance;
use super::sat::{edge_axes, sat_test, AxisSource, SatAxis};
use super::{Body, Interval, ShapePair};
use crate::trace::Tracer;
use glam::Vec2;

/// Most Newton steps on each end of the bracket for round shapes.
const MAX_REFINEMENT_STEPS: u32 = 32;

/// A relative speed below this (in units per unit time, relative to the pair's scale) is
/// treated as no motion along an axis.
const STILL_SPEED: f32 = 1.0e-9;

/// Both bodies' linear velocities and the end of the time interval, which starts at 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion {
    pub velocity_a: Vec2,
    pub velocity_b: Vec2,
    pub t_max: f32,
}

/// How the sweep ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SweepStatus {
    /// The bodies first touch at `t_first` in [0, t_max].
    Hit,
    /// The bodies overlap already at t = 0.
    InitiallyOverlapping,
    /// Some axis keeps them apart for the whole interval.
    Miss,
    /// Round shapes: the Newton refinement hit its step cap; times are the best bracket.
    MaxIterations,
}

impl SweepStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            SweepStatus::Hit => "hit",
            SweepStatus::InitiallyOverlapping => "initially_overlapping",
            SweepStatus::Miss => "miss",
            SweepStatus::MaxIterations => "max_iterations",
        }
    }

    /// The sweep's verdict in words for people (JSON keeps [`Self::as_str`]).
    pub fn in_words(self) -> &'static str {
        match self {
            SweepStatus::Hit => "hit: first contact inside the interval",
            SweepStatus::InitiallyOverlapping => "hit, already overlapping at t = 0",
            SweepStatus::Miss => "miss: the bodies stay apart throughout",
            SweepStatus::MaxIterations => {
                "stopped at the iteration cap: the times are the best bracket found"
            }
        }
    }
}

/// One axis of the sweep: intervals at t = 0 (world projections), B's speed along it
/// relative to A, and the times its intervals overlap (`t_enter > t_exit` when never).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepAxis {
    pub source: AxisSource,
    pub axis: Vec2,
    pub interval_a: Interval,
    pub interval_b: Interval,
    pub speed: f32,
    pub t_enter: f32,
    pub t_exit: f32,
}

/// A recorded step of the sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SweepStep {
    Axis(SweepAxis),
    /// Round shapes: a Newton step on the distance at time `t`.
    Refine {
        t: f32,
        distance: f32,
        /// true when refining the first contact, false the last.
        first: bool,
    },
}

/// What the sweep found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepOutput {
    pub hit: bool,
    /// Time of first contact, in [0, t_max], when hit.
    pub t_first: Option<f32>,
    /// Time of last contact, in [t_first, t_max], when hit.
    pub t_last: Option<f32>,
    /// Unit contact normal at `t_first`, from A toward B.
    pub normal: Vec2,
    /// The axis that set `t_first` (none when the bodies already overlap at 0 or are round).
    pub axis: Option<AxisSource>,
    pub status: SweepStatus,
    pub axes_tested: u32,
    /// The contact manifold at `t_first`.
    pub manifold: Option<Manifold>,
}

/// Sweeps without recording.
pub fn sweep_test(pair: &ShapePair, motion: &Motion) -> SweepOutput {
    sweep(pair, motion, &mut ())
}

/// Sweeps the pair over [0, motion.t_max], recording every axis.
pub fn sweep<T: Tracer<SweepStep>>(
    pair: &ShapePair,
    motion: &Motion,
    tracer: &mut T,
) -> SweepOutput {
    let mut out = time_of_impact(pair, motion, tracer);
    if let Some(t) = out.t_first {
        let at_contact = pair.translated_both(motion.velocity_a * t, motion.velocity_b * t);
        out.manifold = Some(contact_manifold(&at_contact, out.normal));
    }
    out
}

/// The sweep's times and normal only, without the contact manifold at `t_first` (what an
/// engine's continuous collision step asks for). `manifold` is `None`.
pub fn time_of_impact<T: Tracer<SweepStep>>(
    pair: &ShapePair,
    motion: &Motion,
    tracer: &mut T,
) -> SweepOutput {
    let v = motion.velocity_b - motion.velocity_a;
    let still = STILL_SPEED * pair.scale();
    let mut latest_enter: Option<SweepAxis> = None;
    let mut earliest_exit = f32::INFINITY;
    let mut tested = 0;
    let mut consider = |axis: SatAxis| {
        let swept = time_interval(&axis, v, still);
        tested += 1;
        tracer.record(|| SweepStep::Axis(to_world(pair, swept)));
        if latest_enter.is_none_or(|best| swept.t_enter > best.t_enter) {
            latest_enter = Some(swept);
        }
        earliest_exit = earliest_exit.min(swept.t_exit);
    };
    edge_axes(&pair.a, &pair.b, Body::A, &mut consider);
    edge_axes(&pair.b, &pair.a, Body::B, &mut consider);
    let t_enter = latest_enter.map_or(f32::NEG_INFINITY, |a| a.t_enter);
    let mut t_first = t_enter.max(0.0);
    let mut t_last = earliest_exit.min(motion.t_max);
    let mut axis = latest_enter.filter(|_| t_enter > 0.0);
    if t_first > t_last {
        return miss(tested);
    }
    let mut capped = false;
    if !pair.edge_normals_suffice() {
        let first = refine(pair, v, t_first, t_last, true, tracer);
        let last = refine(pair, v, t_last, first.time, false, tracer);
        match (first.outcome, last.outcome) {
            (Refined::Miss, _) | (_, Refined::Miss) => return miss(tested),
            (Refined::Capped, _) | (_, Refined::Capped) => capped = true,
            _ => {}
        }
        if first.time > t_first {
            axis = None; // the contact came from a rounded part, not an edge axis
        }
        t_first = first.time;
        t_last = last.time;
    }
    let status = if capped {
        SweepStatus::MaxIterations
    } else if t_first <= 0.0 {
        SweepStatus::InitiallyOverlapping
    } else {
        SweepStatus::Hit
    };
    // SAT at the contact time only decides the normal when no edge axis set `t_first`.
    let normal = match axis {
        Some(a) if a.speed > 0.0 => -a.axis,
        Some(a) => a.axis,
        None => {
            let at_contact =
                pair.translated_both(motion.velocity_a * t_first, motion.velocity_b * t_first);
            sat_test(&at_contact).normal
        }
    };
    SweepOutput {
        hit: true,
        t_first: Some(t_first),
        t_last: Some(t_last.max(t_first)),
        normal,
        axis: axis.map(|a| a.source),
        status,
        axes_tested: tested,
        manifold: None,
    }
}

fn miss(tested: u32) -> SweepOutput {
    SweepOutput {
        hit: false,
        t_first: None,
        t_last: None,
        normal: Vec2::ZERO,
        axis: None,
        status: SweepStatus::Miss,
        axes_tested: tested,
        manifold: None,
    }
}

/// The times at which B's interval, sliding at `v . axis`, overlaps A's.
fn time_interval(axis: &SatAxis, v: Vec2, still: f32) -> SweepAxis {
    let (a, b) = (axis.interval_a, axis.interval_b);
    let speed = v.dot(axis.axis);
    let (t_enter, t_exit) = if speed.abs() <= still {
        if b.min <= a.max && b.max >= a.min {
            (f32::NEG_INFINITY, f32::INFINITY)
        } else {
            (f32::INFINITY, f32::NEG_INFINITY)
        }
    } else if speed > 0.0 {
        ((a.min - b.max) / speed, (a.max - b.min) / speed)
    } else {
        ((a.max - b.min) / speed, (a.min - b.max) / speed)
    };
    SweepAxis {
        source: axis.source,
        axis: axis.axis,
        interval_a: a,
        interval_b: b,
        speed,
        t_enter,
        t_exit,
    }
}

fn to_world(pair: &ShapePair, axis: SweepAxis) -> SweepAxis {
    let shift = axis.axis.dot(pair.origin);
    SweepAxis {
        interval_a: axis.interval_a.shifted(shift),
        interval_b: axis.interval_b.shifted(shift),
        ..axis
    }
}

enum Refined {
    Touching,
    Miss,
    Capped,
}

struct Refinement {
    time: f32,
    outcome: Refined,
}

/// Newton steps on the distance between the rounded shapes from `start` toward `limit`
/// (forward for the first contact, backward for the last), B moved by `v * t`.
fn refine<T: Tracer<SweepStep>>(
    pair: &ShapePair,
    v: Vec2,
    start: f32,
    limit: f32,
    first: bool,
    tracer: &mut T,
) -> Refinement {
    let mut t = start;
    let direction = if first { 1.0 } else { -1.0 };
    for _ in 0..MAX_REFINEMENT_STEPS {
        let g = gjk_distance(&pair.with_b_moved(v * t));
        tracer.record(|| SweepStep::Refine {
            t,
            distance: g.distance,
            first,
        });
        if g.intersecting {
            return Refinement {
                time: t,
                outcome: Refined::Touching,
            };
        }
        // Rate at which the gap closes while moving in time `direction`.
        let closing = -direction * v.dot(g.core_normal);
        if closing <= 0.0 {
            return Refinement {
                time: t,
                outcome: Refined::Miss,
            };
        }
        t += direction * g.distance / closing;
        if (first && t > limit) || (!first && t < limit) {
            return Refinement {
                time: t,
                outcome: Refined::Miss,
            };
        }
    }
    Refinement {
        time: t,
        outcome: Refined::Capped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Shape;
    use crate::query::testing::*;

    fn motion(vb: Vec2) -> Motion {
        Motion {
            velocity_a: Vec2::ZERO,
            velocity_b: vb,
            t_max: 1.0,
        }
    }

    #[test]
    fn box_moving_left_hits_at_the_gap_over_speed() {
        // Gap 2 (faces at 1 and 3), closing at 4 per unit time: t_first 0.5; B leaves when
        // its right face (5 - 4t) passes -1: t = 1.5, clamped to 1.
        let s = square(1.0);
        let pair = ShapePair::new(&s, at(0.0, 0.0), &s, at(4.0, 0.2));
        let mut steps = Vec::new();
        let out = sweep(&pair, &motion(v(-4.0, 0.0)), &mut steps);
        assert!(out.hit);
        assert!(close(out.t_first.unwrap(), 0.5, 1e-6));
        assert!(close(out.t_last.unwrap(), 1.0, 1e-6));
        assert!(close_v(out.normal, v(1.0, 0.0), 1e-6));
        assert_eq!(out.status, SweepStatus::Hit);
        assert_eq!(out.manifold.unwrap().count, 2);
        assert_eq!(steps.len(), 8);
    }

    #[test]
    fn tunnelling_is_caught() {
        // A thin wall and a fast box that jumps from one side to the other within the step.
        let wall = Shape::rect(v(0.05, 2.0)).unwrap();
        let b = square(0.25);
        let pair = ShapePair::new(&wall, at(0.0, 0.0), &b, at(-3.0, 0.0));
        let out = sweep_test(&pair, &motion(v(6.0, 0.0)));
        assert!(out.hit);
        assert!(close(out.t_first.unwrap(), (3.0 - 0.3) / 6.0, 1e-6));
        assert!(close(out.t_last.unwrap(), (3.0 + 0.3) / 6.0, 1e-6));
        assert!(close_v(out.normal, v(-1.0, 0.0), 1e-6));
    }

    #[test]
    fn passing_by_misses() {
        let s = square(1.0);
        let pair = ShapePair::new(&s, at(0.0, 0.0), &s, at(4.0, 2.5));
        let out = sweep_test(&pair, &motion(v(-8.0, 0.0)));
        assert!(!out.hit);
        assert_eq!(out.status, SweepStatus::Miss);
    }

    #[test]
    fn zero_relative_velocity_keeps_the_static_answer() {
        let s = square(1.0);
        let apart = ShapePair::new(&s, at(0.0, 0.0), &s, at(3.0, 0.0));
        let same = Motion {
            velocity_a: v(1.0, 1.0),
            velocity_b: v(1.0, 1.0),
            t_max: 1.0,
        };
        assert!(!sweep_test(&apart, &same).hit);
        let touching = ShapePair::new(&s, at(0.0, 0.0), &s, at(1.5, 0.0));
        let out = sweep_test(&touching, &same);
        assert!(out.hit);
        assert_eq!(out.status, SweepStatus::InitiallyOverlapping);
        assert_eq!(out.t_first, Some(0.0));
    }

    #[test]
    fn circle_reaching_a_corner_is_refined_exactly() {
        // Circle of radius 0.5 moving along y = 1.3 toward the square's corner (1, 1):
        // contact when the centre is 0.5 from the corner: x = 1 + 0.4, i.e. after 3 - 1.4
        // = 1.6 units at speed 2: t = 0.8.
        let s = square(1.0);
        let c = Shape::circle(0.5).unwrap();
        let pair = ShapePair::new(&s, at(0.0, 0.0), &c, at(3.0, 1.3));
        let mut steps = Vec::new();
        let out = sweep(&pair, &motion(v(-2.0, 0.0)), &mut steps);
        assert!(out.hit);
        assert!(close(out.t_first.unwrap(), 0.8, 1e-4), "{:?}", out.t_first);
        assert!(close_v(out.normal, v(0.8, 0.6), 1e-3), "{}", out.normal);
        assert!(steps.iter().any(|s| matches!(s, SweepStep::Refine { .. })));
    }
}
