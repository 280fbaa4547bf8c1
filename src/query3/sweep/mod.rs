//! Swept SAT in 3D: when do two bodies translating at constant velocities first touch, and
//! when do they part? For two polyhedra the algorithm, its sources, conventions and
//! tolerances are in [`reference`], the textbook loop over the candidate axes and the only
//! path that records its steps. With a sphere or a capsule, [`rounded`]: the same sweep
//! over the round pair's axes gives a bracket, narrowed by Newton steps on the distance
//! between the bodies ([`sweep_round`]).
//!
//! Untraced, small polyhedra (the pairs the reference sweeps in A's frame) take the fast
//! path beside it, which gives the reference's answer to the bit: [`small`] (the face axes
//! four at a time, its entry point), [`edge_pairs`] (the Gauss-map test by sign bits and the
//! edge pairs in lanes, with the witnesses' skip), [`arc_bound`] (whole edges of A left
//! out), in four or eight lanes ([`crate::simd::run`]). Other pairs run the reference
//! itself, in the work frame, its projections from [`placed`] vertices.

use super::manifold::{contact_manifold, Output as Manifold};
use super::manifold_round::contact_manifold_round;
use super::round::BodyPair3;
use super::sat::AxisId;
use super::{Interval, PolyPair};
use crate::simd::Build;
use crate::trace::Tracer;
use glam::Vec3;
use reference::{PlacementInA, WorkFrame};

mod arc_bound;
mod edge_pairs;
mod placed;
pub(crate) mod reference;
pub mod rounded;
pub(crate) mod small;
#[cfg(test)]
mod tests;

/// A relative speed along an axis below this times the pair's scale (per unit time) counts
/// as no motion along it: the test then asks whether the intervals overlap at all.
pub const STILL_SPEED: f32 = 1.0e-9;

/// Entry times within this fraction of the sweep time count as a tie (see
/// [`reference`]'s header).
pub const TIE_TOLERANCE: f32 = 1.0e-6;

/// Both bodies' linear velocities and the end of the time interval, which starts at 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion3 {
    pub velocity_a: Vec3,
    pub velocity_b: Vec3,
    pub t_max: f32,
}

/// How the sweep ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The bodies first touch at `t_first` in (0, t_max].
    Hit,
    /// The bodies overlap (or touch) already at t = 0.
    InitiallyOverlapping,
    /// Some axis keeps them apart for the whole interval (round shapes: or the Newton steps
    /// show that the distance between them never reaches zero in it).
    Miss,
    /// A NaN or infinite number in the input: reported as a miss.
    NonFinite,
    /// Round shapes: the Newton steps reached their cap
    /// ([`rounded::MAX_REFINEMENT_STEPS`]); the times are the bracket reached, `t_first` no
    /// later and `t_last` no earlier than the contact.
    MaxIterations,
}

impl Status {
    pub fn key(self) -> &'static str {
        match self {
            Status::Hit => "hit",
            Status::InitiallyOverlapping => "initially_overlapping",
            Status::Miss => "miss",
            Status::NonFinite => "non_finite",
            Status::MaxIterations => "max_iterations",
        }
    }
}

/// One axis of the sweep: intervals at t = 0 (world projections), B's speed along it
/// relative to A, and the times its intervals overlap (`t_enter > t_exit` when never).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepAxis {
    pub id: AxisId,
    /// The unit axis as SAT orients it (A toward B at t = 0).
    pub axis: Vec3,
    pub interval_a: Interval,
    pub interval_b: Interval,
    pub speed: f32,
    pub t_enter: f32,
    pub t_exit: f32,
}

/// A recorded step of the sweep: an axis's time interval, or (round shapes) a Newton step
/// on the distance between the bodies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    Axis(SweepAxis),
    Refine(NewtonStep),
}

impl Step {
    /// The axis step, `None` for a Newton step.
    pub fn axis(&self) -> Option<&SweepAxis> {
        match self {
            Step::Axis(a) => Some(a),
            Step::Refine(_) => None,
        }
    }
}

/// One Newton step of the round sweep on the distance between the bodies (the cores'
/// distance minus both radii) at time `t`, B moved by the relative velocity times `t`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewtonStep {
    pub t: f32,
    /// The distance between the bodies at `t` (0 when they touch or overlap).
    pub distance: f32,
    /// How fast that distance shrinks as time runs in this step's direction (forward toward
    /// the first contact, backward toward the last): `-v . normal` forward, `v . normal`
    /// backward, `v` the relative velocity. 0 when the bodies touch.
    pub closing: f32,
    /// The unit direction between the cores' closest points at `t`, A toward B (zero when
    /// the cores overlap).
    pub normal: Vec3,
    /// true when refining the first contact, false the last.
    pub first: bool,
    pub outcome: NewtonOutcome,
}

/// What a Newton step concluded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NewtonOutcome {
    /// The bodies touch (or overlap) at `t`: it is the contact time sought.
    Touching,
    /// Still apart and closing: the next guess, `t + distance / closing` in the step's
    /// direction, which the convexity of the distance keeps short of the contact.
    Next(f32),
    /// Apart and not closing: the distance, convex in time, only grows from here on this
    /// side, so the bodies never touch (the sweep misses).
    NotClosing,
    /// The next guess lies beyond the other end of the bracket: no contact inside it (the
    /// sweep misses).
    PastBracket(f32),
}

/// What the sweep found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Output {
    pub hit: bool,
    /// Time of first contact, in [0, t_max], when hit (0 when they overlap at the start).
    pub t_first: Option<f32>,
    /// Time of last contact, in [t_first, t_max], when hit.
    pub t_last: Option<f32>,
    /// Unit contact normal at `t_first`, from A toward B.
    pub normal: Vec3,
    /// The axis that set `t_first` (when they overlap at t = 0: SAT's axis then; round
    /// shapes: the closest points of the cores when a Newton step moved `t_first`).
    pub axis: AxisId,
    pub status: Status,
    /// The axes this call tested: traced, every axis (one recorded step each); untraced,
    /// the small-body path leaves out the edges of A none of whose axes can change the
    /// answer ([`arc_bound`]), so it may count fewer.
    pub axes_tested: u32,
    /// The contact manifold at `t_first`, along `normal`.
    pub manifold: Option<Manifold>,
}

impl Output {
    /// No contact in the interval (`Miss`) or none computable (`NonFinite`): no times, the
    /// normal a placeholder, `axis` the one the sweep would name, `tested` axes counted.
    pub(crate) fn missed(status: Status, axis: AxisId, tested: u32) -> Output {
        Output {
            hit: false,
            t_first: None,
            t_last: None,
            normal: Vec3::X,
            axis,
            status,
            axes_tested: tested,
            manifold: None,
        }
    }
}

/// Sweeps without recording.
pub fn sweep_test(pair: &PolyPair, motion: &Motion3) -> Output {
    sweep(pair, motion, &mut ())
}

/// Sweeps the pair over [0, motion.t_max], recording every axis's time interval.
pub fn sweep<T: Tracer<Step>>(pair: &PolyPair, motion: &Motion3, tracer: &mut T) -> Output {
    let mut out = time_of_impact(pair, motion, tracer);
    if let Some(t) = out.t_first {
        let at_contact = PolyPair {
            a: pair.a.translated(motion.velocity_a * t),
            b: pair.b.translated(motion.velocity_b * t),
            origin: pair.origin,
        };
        out.manifold = Some(contact_manifold(&at_contact, out.normal));
    }
    out
}

/// Sweeps a pair with a sphere or a capsule without recording.
pub fn sweep_round_test(pair: &BodyPair3, motion: &Motion3) -> Output {
    sweep_round(pair, motion, &mut ())
}

/// Sweeps a pair with a sphere or a capsule over [0, motion.t_max], recording every axis
/// and every Newton step ([`rounded`]); the manifold at `t_first` is the round pair's, along
/// the normal.
pub fn sweep_round<T: Tracer<Step>>(pair: &BodyPair3, motion: &Motion3, tracer: &mut T) -> Output {
    let mut out = rounded::time_of_impact(pair, motion, rounded::MAX_REFINEMENT_STEPS, tracer);
    if let Some(t) = out.t_first {
        let at_contact = BodyPair3 {
            a: pair.a.translated(motion.velocity_a * t),
            b: pair.b.translated(motion.velocity_b * t),
            origin: pair.origin,
        };
        out.manifold = Some(contact_manifold_round(&at_contact, out.normal));
    }
    out
}

/// The sweep's times and normal only, without the manifold (what an engine's continuous
/// collision step asks for). `manifold` is `None`. Traced, the reference runs; untraced,
/// the fast path where it applies ([`time_of_impact_untraced`]).
pub fn time_of_impact<T: Tracer<Step>>(
    pair: &PolyPair,
    motion: &Motion3,
    tracer: &mut T,
) -> Output {
    if T::ENABLED {
        return reference::time_of_impact(pair, motion, tracer);
    }
    time_of_impact_untraced(pair, motion, Variant::Default).0
}

/// The untraced sweep in `variant`, with what the fast path's prunings left out: small
/// bodies take the fast path in A's frame ([`small`]); other pairs, which the reference
/// sweeps in the work frame, run the reference there.
pub(crate) fn time_of_impact_untraced(
    pair: &PolyPair,
    motion: &Motion3,
    variant: Variant,
) -> (Output, Pruned) {
    let v = motion.velocity_b - motion.velocity_a;
    match small::Placement::new(pair, v) {
        Some(placement) => small::time_of_impact(pair, motion, placement, variant),
        None => {
            debug_assert!(PlacementInA::new(pair, v).is_none());
            let frame = WorkFrame::new(pair, v);
            let out = reference::time_of_impact_in(&frame, pair, motion, &mut ());
            (out, Pruned::default())
        }
    }
}

/// How the untraced small-body path runs: as it does by default, or as a test asks, to
/// compare its builds, its widths and its prunings (each gives the same bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// Only the tests construct the variants other than `Default`.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) enum Variant {
    /// As compiled for AVX where the processor has it (eight lanes at a time where
    /// [`crate::simd::Lanes::eight_wide`] allows), every pruning on.
    Default,
    /// As compiled for the x86_64 baseline (four lanes), as a processor without AVX runs it.
    Baseline,
    /// As compiled for AVX where the processor has it, but four lanes at a time.
    FourLanes,
    /// Without the bound over whole arcs ([`arc_bound`]): every edge of A is visited, so
    /// `axes_tested` is the reference's.
    NoArcBound,
}

impl Variant {
    /// The build of the small-body path's lane loops ([`crate::simd::run`]).
    #[inline]
    fn build(self) -> Build {
        match self {
            Variant::Baseline => Build::Baseline,
            Variant::FourLanes => Build::compiled_for_avx(false),
            Variant::Default | Variant::NoArcBound => Build::widest(),
        }
    }

    /// Whether the bound over whole arcs may leave edges of A out.
    #[inline]
    fn arc_bound(self) -> bool {
        self != Variant::NoArcBound
    }
}

/// What the untraced small-body path's prunings left out in one call (zero on every other
/// path): tests check that their cases exercise each pruning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pruned {
    /// Face axes only counted, by groups of four none of which could change the answer.
    pub(crate) faces: u32,
    /// Edge axes only counted, their witnesses proving they could not change the answer.
    pub(crate) edges: u32,
    /// Edges of A left out whole by the bound over their arcs (their axes not counted).
    pub(crate) arcs: u32,
}
