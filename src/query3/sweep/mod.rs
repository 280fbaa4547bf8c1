//! Swept SAT in 3D: when do two polyhedra translating at constant velocities first touch,
//! and when do they part?
//!
//! Algorithm (Ericson, *Real-Time Collision Detection*, 5.5.8, generalised to every
//! separating axis of two polyhedra; Eberly, "Dynamic collision detection using oriented
//! bounding boxes"):
//!
//! ```text
//! axes = the SAT axes at t = 0: faces of A, faces of B, edge pairs that pass the parallel
//!        and Gauss-map tests (pure translation moves A - B without turning it, so these
//!        stay exactly the face normals of A - B for every t)
//! (small bodies: all of it in A's local frame, B turned into it once; the normal is placed
//!  in the world at the end)
//! v = vB - vA; on axis u, B's interval slides at speed s = v . u
//!     s > 0: t_enter = (minA - maxB) / s,  t_exit = (maxA - minB) / s
//!     s < 0: t_enter = (maxA - minB) / s,  t_exit = (minA - maxB) / s
//!     s = 0: always (intervals overlap) or never
//! t_first = max t_enter, t_last = min t_exit over all axes
//! hit when max(t_first, 0) <= min(t_last, t_max); the axis with the latest t_enter gives the
//! normal (+u when s < 0, -u when s > 0); the manifold is built at t_first along it
//! ```
//!
//! On a tie of t_enter (the two opposite faces of a box give the same line) the face that
//! faces the contact is kept, and a face axis is kept over an edge axis.
//!
//! Every axis is tested, traced or not, with the same arithmetic; only the untraced
//! small-body path may skip an edge axis's far-end scans when witnesses prove the axis
//! cannot change the answer, the offers of a group of four face axes none of which can, and
//! whole edges of A none of whose axes can (below), so both return the same answer, to the
//! bit, but for the count of axes tested.
//!
//! Small bodies (up to 32 vertices, 64 faces and 64 edges each: `LocalPair`) are swept in
//! A's local frame, as Box2D and Box3D do: B's vertices, face normals and Gauss-map arcs are
//! turned into it once per query (one matrix product per group of four), A's are used as
//! stored, and the relative velocity is turned once. With pure translation nothing turns
//! during the sweep, so every axis and its speed are found once. There:
//! - a body's interval along its own face normal is stored ([`crate::geom3::FeatureLanes`]),
//!   so a face axis projects only the other body; face axes go four at a time (their
//!   projections, with AVX one scan of the other body's vertices for all four normals,
//!   speeds and entry and exit times side by side, then the tie rule one axis at a time,
//!   in order); untraced, a group is only counted when every axis in it enters before the
//!   best one by more than the tie tolerance and leaves after the earliest exit
//!   (`Latest::unchanged_by_four`: each offer would leave the state as the one before did);
//! - an edge axis comes from a crossing of the two Gauss-map arcs, where A's edge is A's
//!   extreme along the axis and B's edge B's extreme against it: those two ends are read off
//!   the edges, the other two are projected;
//! - the Gauss-map test runs on sign bits, one bit per edge of B in a `u64`: A's face
//!   normals against B's arc planes once per query (`adc`, `bdc`), and, per edge of A, B's
//!   face normals against A's arc, four faces at a time (eight with AVX: two groups of
//!   four), spread to B's edges by a table, one group of four at a time (`cba`, `dba`: an
//!   edge's numbers are its two faces', negated); those sign bits only sort out
//!   candidates: a pair they pass is decided by Gregorius's products of the very numbers
//!   the lanes computed (`sat::arcs_cross`'s test), then gets SAT's parallel test and
//!   orientation, without SAT's separation, which the sweep does not use;
//! - the pairs the sign bits pass are gathered four at a time, eight with AVX
//!   (`EdgePairLanes`): their Gauss-map products, axes, facing extremes, speeds and
//!   witness bounds (below) are computed side by side, each lane with the scalar
//!   operations in their order (the same bits); then, one pair at a time in order, the
//!   count, the skip or the full test, and the offer (what a pair gets does not depend on
//!   how many were gathered with it);
//! - untraced, an edge axis is skipped (counted, not offered) when it can change neither
//!   the latest entry nor the earliest exit:
//!   ```text
//!   near ends (A's edge, B's edge) exact, as the full test computes them
//!   far ends: witnesses w_A = u . (antipode of A's edge's first face) >= A's min,
//!             w_B = u . (antipode of B's edge's first face) + shift <= B's max
//!   |s| > still: the time that uses only near ends is exact, the other one bounded
//!             (rounding is monotone): enter <= E, exit >= X
//!   skip when E < best.t_enter - tie and X > earliest_exit
//!   ```
//!   `offer` would then keep its best (it enters earlier by more than the tie tolerance,
//!   so neither a later entry nor the tie rule takes it, and it is never a NaN: every
//!   number is finite below [`WITNESS_LIMIT`] and |s| > still > 0) and its earliest exit
//!   (strictly later); every later offer then sees the same state, so the answer is the
//!   same bits. A test compares it with the traced run (which skips nothing) on 24,000
//!   random and tied pairs;
//! - untraced, a whole edge of A is left out (neither tested nor counted) when no axis its
//!   arc can give could change the answer, which a bound over the arc proves from the face
//!   axes' state ([`LocalPair::arcs_to_visit`]):
//!   ```text
//!   E = best entry - tie,  X = min(earliest exit, t_max)   (an exit after t_max leaves t_last)
//!   p  = tail of A's edge - (B's lowest vertex along a face normal n_k of the edge) - T
//!   p' = (B's highest vertex along n_k) + T - (A's lowest vertex along n_k)
//!        (p is a point of A - B and p' of B - A: closing >= u . p, opening >= u . p')
//!   approaching (u . v < 0): entry = closing / s <= E  when u . (p - E v) >= 0
//!                            exit = -opening / s >= X  when u . (p' + X v) >= 0
//!   leaving (u . v > 0):     entry = -opening / s <= E when u . (p' + E v) >= 0
//!                            exit = closing / s >= X   when u . (p - X v) >= 0
//!   all four at once hold for every sign of s (a still axis then overlaps); each is
//!   linear in u, so holding at the arc's ends n0 and n1 (with p and p' some mix of the
//!   two faces' points) it holds along the arc, and with a margin it holds for every axis
//!   within `arc_slack` of it (the edges' skew and rounding over the parallel tolerance)
//!   ```
//!   The best entry only rises and the earliest exit only falls after the face axes (an
//!   edge axis never wins a tie), so the state each left-out axis would have met leaves it
//!   unchanged too. A test compares the answers with the traced run's on 24,000 random and
//!   tied pairs; on the bench's hulls about four edges of A in five are left out. So an
//!   untraced call's `axes_tested` counts the axes it tested, and may be lower than the
//!   traced call's, which counts every axis;
//! - the winner's normal is placed in the world as the general loop places it, and the
//!   recorded axes and intervals are turned back to the world.
//!
//! Untraced, where the processor has AVX, the small-body path's axis tests run as compiled
//! for AVX and take some of their lanes eight at a time (`SweepLanes`): each lane does the
//! scalar operations of the four-lane code in their order (no fused multiply-add, compares
//! with the same predicates and operand order), so the bits are the same; tests compare
//! the traced run (four lanes, compiled for the baseline) with the untraced one and, on
//! one thread, four lanes with eight.
//!
//! The numbers differ from the general loop's in the last bits (a property test compares the
//! two: same axes, same winner, numbers within 1e-5 of the pair's scale).

#[cfg(target_arch = "x86_64")]
use super::lanes::{Avx, Eight};
use super::lanes::{Four, Lanes};
use super::manifold::{contact_manifold, Output as Manifold};
use super::sat::{edge_pair_axis, sat_test, AxisId, EdgeFrame, EdgeFrames, PARALLEL_TOLERANCE};
use super::{Interval, PolyPair};
use crate::geom3::{FeatureLanes, Polyhedron};
use crate::trace::Tracer;
use placed::PlacedVertices;

mod placed;
mod reference;
use glam::{Mat3A, Vec3, Vec3A};
use std::mem::MaybeUninit;

/// A relative speed along an axis below this times the pair's scale (per unit time) counts
/// as no motion along it: the test then asks whether the intervals overlap at all.
pub const STILL_SPEED: f32 = 1.0e-9;

/// Entry times within this fraction of the sweep time count as a tie (see the header).
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
    /// Some axis keeps them apart for the whole interval.
    Miss,
    /// A NaN or infinite number in the input: reported as a miss.
    NonFinite,
    /// A sphere or a capsule takes part: swept SAT has no finite axis set for round shapes
    /// (the closest-point axis turns as the bodies move), so the sweep does not run and
    /// reports no hit. See [`Output::refused_round`].
    RoundShapesUnsupported,
}

impl Status {
    pub fn key(self) -> &'static str {
        match self {
            Status::Hit => "hit",
            Status::InitiallyOverlapping => "initially_overlapping",
            Status::Miss => "miss",
            Status::NonFinite => "non_finite",
            Status::RoundShapesUnsupported => "round_shapes_unsupported",
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

/// A recorded step of the sweep.
pub type Step = SweepAxis;

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
    /// The axis that set `t_first` (when they overlap at t = 0: SAT's axis then).
    pub axis: AxisId,
    pub status: Status,
    /// The axes this call tested: traced, every axis (one recorded step each); untraced,
    /// the small-body path leaves out the edges of A none of whose axes can change the
    /// answer (see the header), so it may count fewer.
    pub axes_tested: u32,
    /// The contact manifold at `t_first`, along `normal`.
    pub manifold: Option<Manifold>,
}

impl Output {
    /// The sweep's answer for a pair with a round shape: not run, no hit, no times
    /// ([`Status::RoundShapesUnsupported`]).
    pub fn refused_round() -> Output {
        Output {
            hit: false,
            t_first: None,
            t_last: None,
            normal: Vec3::ZERO,
            axis: AxisId::Closest,
            status: Status::RoundShapesUnsupported,
            axes_tested: 0,
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

/// The sweep's times and normal only, without the manifold (what an engine's continuous
/// collision step asks for). `manifold` is `None`.
pub fn time_of_impact<T: Tracer<Step>>(
    pair: &PolyPair,
    motion: &Motion3,
    tracer: &mut T,
) -> Output {
    if T::ENABLED {
        return reference::time_of_impact(pair, motion, tracer);
    }
    time_of_impact_with(pair, motion, tracer, true)
}

/// [`time_of_impact`], with the small-body path ([`LocalPair`]) allowed or not (a test runs
/// both and compares the answers).
fn time_of_impact_with<T: Tracer<Step>>(
    pair: &PolyPair,
    motion: &Motion3,
    tracer: &mut T,
    small_path: bool,
) -> Output {
    let v = motion.velocity_b - motion.velocity_a;
    let still = STILL_SPEED * pair.scale();
    let touch = pair.touch_tolerance();
    let mut latest = Latest {
        best: None,
        earliest_exit: f32::INFINITY,
        tested: 0,
        tie: TIE_TOLERANCE * motion.t_max.abs(),
        t_max: motion.t_max,
    };
    let (a, b) = (&pair.a, &pair.b);
    // One step per face axis and per edge pair whose Gauss-map arcs cross (on the order of
    // the two edge counts, the overlay of two Gauss maps): room for them made once.
    let faces = a.shape.face_count() + b.shape.face_count();
    tracer.reserve(faces + a.shape.edges().len() + b.shape.edges().len());
    // The frame the axes are found in, turned to the world's orientation at the end.
    let mut to_world = None;
    match small_path.then(|| LocalPair::placement(pair, v)).flatten() {
        Some(placement) => {
            let mut turned_b = TurnedB::new();
            let local = LocalPair::new(pair, placement, &mut turned_b);
            local.visit_axes(still, touch, &mut latest, tracer);
            to_world = Some(a.frame);
        }
        None => {
            let placed_a = PlacedVertices::new(a);
            let placed_b = PlacedVertices::new(b);
            let mut consider = |id: AxisId, axis: Vec3| {
                let swept = time_interval(
                    pair,
                    id,
                    axis,
                    placed_a.project(a, axis),
                    placed_b.project(b, axis),
                    v,
                    still,
                );
                tracer.record(|| swept);
                latest.offer(
                    Candidate {
                        id,
                        axis,
                        speed: swept.speed,
                        t_enter: swept.t_enter,
                    },
                    swept.t_exit,
                );
            };
            for i in 0..a.shape.face_count() {
                consider(AxisId::FaceA(i as u32), a.face_normal(i));
            }
            for j in 0..b.shape.face_count() {
                consider(AxisId::FaceB(j as u32), -b.face_normal(j));
            }
            let centroid_a = a.centroid();
            let frames_b = EdgeFrames::new(b);
            for (i, ea) in a.shape.edges().iter().enumerate() {
                let frame_a = EdgeFrame::new(a, ea);
                let local_a = frames_b.local_arc(&frame_a);
                for j in 0..b.shape.edges().len() {
                    if let Some(local_a) = &local_a {
                        if frames_b.surely_apart(local_a, j) {
                            continue;
                        }
                    }
                    if let Ok((axis, _)) = frames_b.with(j, |frame_b| {
                        edge_pair_axis(&frame_a, frame_b, centroid_a, false)
                    }) {
                        consider(AxisId::Edges(i as u32, j as u32), axis);
                    }
                }
            }
        }
    }
    let Latest {
        best: latest,
        earliest_exit,
        tested,
        ..
    } = latest;
    let miss = |status| Output {
        hit: false,
        t_first: None,
        t_last: None,
        normal: Vec3::X,
        axis: latest.map_or(AxisId::FaceA(0), |l| l.id),
        status,
        axes_tested: tested,
        manifold: None,
    };
    let Some(best) = latest else {
        return miss(Status::Miss);
    };
    if best.t_enter.is_nan() || earliest_exit.is_nan() || !v.is_finite() {
        return miss(Status::NonFinite);
    }
    let t_first = best.t_enter.max(0.0);
    let t_last = earliest_exit.min(motion.t_max);
    if t_first > t_last {
        return miss(Status::Miss);
    }
    let (status, normal, axis) = if best.t_enter <= 0.0 {
        let s = sat_test(pair);
        (Status::InitiallyOverlapping, s.normal, s.axis)
    } else {
        let normal = if best.speed > 0.0 {
            -best.axis
        } else {
            best.axis
        };
        let normal = match to_world {
            Some(frame) => world_normal(pair, best.id, best.speed)
                .unwrap_or_else(|| Vec3::from(frame * Vec3A::from(normal))),
            None => normal,
        };
        (Status::Hit, normal, best.id)
    };
    Output {
        hit: true,
        t_first: Some(t_first),
        t_last: Some(t_last.max(t_first)),
        normal,
        axis,
        status,
        axes_tested: tested,
        manifold: None,
    }
}

/// The contact normal of the winning axis placed in the work frame as the general loop
/// places it (a face normal turned by its body's rotation, or SAT's axis of the two edges
/// placed there), so that the answer does not carry the rounding of turning A's frame back;
/// `None` if the edge pair gives no axis there (a Gauss-map test decided by rounding).
fn world_normal(pair: &PolyPair, id: AxisId, speed: f32) -> Option<Vec3> {
    let (a, b) = (&pair.a, &pair.b);
    let axis = match id {
        AxisId::FaceA(i) => a.face_normal(i as usize),
        AxisId::FaceB(j) => -b.face_normal(j as usize),
        AxisId::Edges(i, j) => {
            let frame_a = EdgeFrame::new(a, &a.shape.edges()[i as usize]);
            let frame_b = EdgeFrame::new(b, &b.shape.edges()[j as usize]);
            edge_pair_axis(&frame_a, &frame_b, a.centroid(), false)
                .ok()?
                .0
        }
        AxisId::Closest => return None,
    };
    Some(if speed > 0.0 { -axis } else { axis })
}

/// What the tie rule keeps of an axis (its direction in the frame the axes are found in).
#[derive(Clone, Copy, Debug)]
struct Candidate {
    id: AxisId,
    axis: Vec3,
    speed: f32,
    t_enter: f32,
}

/// The axis with the latest entry so far (under the tie rule of the header), the earliest
/// exit, and the count of axes tested.
struct Latest {
    best: Option<Candidate>,
    earliest_exit: f32,
    tested: u32,
    /// [`TIE_TOLERANCE`] times the sweep time.
    tie: f32,
    /// The sweep time: an exit after it cannot change `t_last`, which it caps.
    t_max: f32,
}

impl Latest {
    #[inline(always)]
    fn offer(&mut self, swept: Candidate, t_exit: f32) {
        self.tested += 1;
        let tie = self.tie;
        let better = match self.best {
            None => true,
            Some(best) => {
                swept.t_enter > best.t_enter + tie
                    || (swept.t_enter >= best.t_enter - tie
                        && rank(swept.id, swept.speed) > rank(best.id, best.speed)
                        && swept.t_enter.is_finite())
                    || swept.t_enter.is_nan()
            }
        };
        if better {
            self.best = Some(swept);
        }
        self.earliest_exit = self.earliest_exit.min(t_exit);
    }

    /// Whether an axis whose entry time is at most `enter_at_most` and whose exit time is
    /// at least `exit_at_least` (neither a NaN) would leave the best axis and the earliest
    /// exit as they are, if offered now: it enters before the best one by more than the tie
    /// tolerance, so neither `offer`'s later entry nor its tie rule can take it (`best -
    /// tie <= best + tie`, as rounding is monotone), and it leaves after the earliest exit
    /// (strictly: an equal exit could swap a zero's sign).
    #[inline(always)]
    fn unchanged_by(&self, enter_at_most: f32, exit_at_least: f32) -> bool {
        match self.best {
            Some(best) => {
                enter_at_most < best.t_enter - self.tie && exit_at_least > self.earliest_exit
            }
            None => false,
        }
    }

    /// [`Self::unchanged_by`] for four face axes at once (lanes below `count`, with their
    /// entry and exit times as `offer` would take them): when each lane leaves the state as
    /// it is now, offering them in order changes nothing (each sees the state the one before
    /// left), so the group is only counted. A NaN fails the compares, and the group is offered.
    #[inline(always)]
    fn unchanged_by_four(&self, enter: Four, exit: Four, count: usize) -> bool {
        let Some(best) = self.best else {
            return false;
        };
        let earlier = Four::splat(best.t_enter - self.tie).gt(enter);
        let later = exit.gt(Four::splat(self.earliest_exit));
        let lanes = (1u32 << count) - 1;
        earlier.and(later).mask_bits() & lanes == lanes
    }
}

/// Bodies larger than this (bounding radius about their origin) are not pruned by
/// witnesses: below it, with B's placement bounded as [`LocalPair::placement`] requires,
/// every projection and difference of projections stays far from overflow, so no entry
/// time can be a NaN.
const WITNESS_LIMIT: f32 = 1.0e30;

/// Whether some mix of two tangent points keeps `value - m >= 0` at both ends of an arc
/// (`values[k][j]`: tangent point `k` at end `j`): the mixes are points of the same
/// Minkowski difference, and the segment from the second point's two numbers to the first's
/// must meet the closed positive quadrant (at an end, or crossing it: the sign of their
/// cross product says on which side of the origin the segment passes).
#[inline(always)]
fn mixable<L: Lanes>(values: [[L; 2]; 2], m: L, zero: L) -> L {
    let [[q0, q1], [p0, p1]] = values;
    let [q0, q1, p0, p1] = [q0.minus(m), q1.minus(m), p0.minus(m), p1.minus(m)];
    let cross = p0.mul(q1).minus(p1.mul(q0));
    let [p0_in, p1_in, q0_in, q1_in] = [p0, p1, q0, q1].map(|v| zero.le(v));
    let [p0_out, p1_out, q0_out, q1_out] = [p0, p1, q0, q1].map(|v| zero.gt(v));
    let either_end = p0_in.and(p1_in).or(q0_in.and(q1_in));
    let rising = p0_out.and(p1_in).and(q0_in).and(q1_out).and(cross.le(zero));
    let falling = p1_out.and(p0_in).and(q1_in).and(q0_out).and(zero.le(cross));
    either_end.or(rising).or(falling)
}

/// `values[k][j] + c s[j]` (a tangent point's number at an end of an arc moved by a time
/// `c`: `n . (p + c v)`).
#[inline(always)]
fn moved<L: Lanes>(values: &[[L; 2]; 2], c: L, s: &[L; 2]) -> [[L; 2]; 2] {
    let [[a, b], [d, e]] = *values;
    [
        [a.add(c.mul(s[0])), b.add(c.mul(s[1]))],
        [d.add(c.mul(s[0])), e.add(c.mul(s[1]))],
    ]
}

/// How far an edge axis may lie from its two arcs, for the bound over whole arcs (see the
/// header), or `None` where that is too far for the bound to be worth using: the axis
/// (their edges' cross product) is on each edge's great circle; where an arc's pole leaves
/// its edge by `skew` (a merged face that is only nearly flat), and with the rounding of
/// the sign tests and the cross product, the crossing moves along the circles by up to
/// their sum over the sine of the angle between the edges, which is at least
/// [`PARALLEL_TOLERANCE`]; four times that.
fn arc_slack(skew_a: f32, skew_b: f32) -> Option<f32> {
    let slack = 4.0 * (skew_a + skew_b + ARC_ROUNDING) / PARALLEL_TOLERANCE;
    (slack <= 0.05).then_some(slack)
}

/// The rounding allowed for, relative to the sizes, in [`arc_slack`] and in the full
/// test's numbers (about sixteen `f32` roundings).
const ARC_ROUNDING: f32 = 1.0e-6;

/// Whether the untraced small-body path may leave out whole arcs (a test turns it off on
/// its thread to compare the counts).
#[inline(always)]
fn arc_bound_enabled() -> bool {
    #[cfg(test)]
    if tests::NO_ARC_BOUND.with(std::cell::Cell::get) {
        return false;
    }
    true
}

/// Tie-break order: a face facing the contact, then any face, then an edge pair.
fn rank(id: AxisId, speed: f32) -> u8 {
    // Moving toward each other along -axis (speed < 0) means the +axis side faces B.
    let facing = speed < 0.0;
    match (id.is_face(), facing) {
        (true, true) => 2,
        (true, false) => 1,
        _ => 0,
    }
}

/// The most vertices, and the most faces and edges, of a body on the small-body path
/// ([`LocalPair`]; B's edges are one bit each of a `u64` per edge of A): within the
/// polyhedron's own small size ([`crate::geom3::SMALL_VERTICES`]), so it carries its lanes.
const SMALL_VERTICES: usize = 32;
const SMALL_FEATURES: usize = 64;
const _: () = assert!(
    SMALL_VERTICES <= crate::geom3::SMALL_VERTICES
        && SMALL_FEATURES <= crate::geom3::SMALL_FACES
        && SMALL_FEATURES <= crate::geom3::SMALL_EDGES
);

/// B turned into A's local frame once per query, for pairs of small bodies (up to
/// [`SMALL_VERTICES`] vertices and [`SMALL_FEATURES`] faces and edges each; Box2D and Box3D
/// work this way). A's vertices, normals, arcs and face extents are used as the polyhedron
/// stores them; B's vertices, normals and arcs are turned with one matrix product per group
/// of four ([`crate::geom3::FeatureLanes`]). With pure translation neither body turns, so
/// every axis is found once, in A's frame, and the answer is turned back to the world at the
/// end (the recorded steps at once).
struct LocalPair<'p, 'a> {
    pair: &'p PolyPair<'a>,
    /// B's position in A's frame: a point `p` of B's polyhedron is at `rotation p +
    /// translation`.
    translation: Vec3,
    /// B's velocity relative to A, in A's frame.
    velocity: Vec3,
    /// B's vertices, normals and arcs in A's frame.
    b: &'p TurnedB,
    /// Both bodies' stored lanes (A's used as they are, B's turned into `b`).
    lanes_a: &'a FeatureLanes,
    lanes_b: &'a FeatureLanes,
}

/// What [`LocalPair::placement`] finds for a pair of small bodies: B's rotation and
/// translation in A's frame, B's velocity relative to A in A's frame, and both bodies'
/// [`FeatureLanes`].
struct Placement<'a> {
    rotation: Mat3A,
    translation: Vec3,
    velocity: Vec3,
    lanes: [&'a FeatureLanes; 2],
}

/// B's features turned into A's frame ([`LocalPair`]), on the caller's stack.
struct TurnedB {
    /// B's vertices turned into A's frame but not moved (`rotation p`), four at a time
    /// (`[x, y, z]` rows). A projection adds `axis . translation` once: two parallel edges
    /// or opposite faces of a symmetric body then give the same numbers (a box's edge pairs
    /// that share an axis tie exactly, as the tie rule expects), and an edge's direction
    /// carries no rounding of the translation.
    vertices: Groups<[[f32; 4]; 3], { SMALL_VERTICES / 4 }>,
    /// The same vertices one point each (the edge pairs gather their ends and witnesses).
    points: Groups<[Vec3; 4], { SMALL_VERTICES / 4 }>,
    /// B's face normals in A's frame, four at a time (two groups side by side).
    normals: PairedRows<{ SMALL_FEATURES / 8 }>,
    /// The planes of B's Gauss-map arcs in A's frame as `sat::arcs_cross` takes them for B
    /// (`c = -n0`, `d = -n1`, the plane `d x c = n1 x n0`), four at a time (two groups side
    /// by side). Padding is zero, which the first sign test rejects.
    planes: PairedRows<{ SMALL_FEATURES / 8 }>,
    /// The arcs' ends `c` and `d` (rows `c.x, c.y, c.z, d.x, d.y, d.z`), which only a test
    /// reads.
    #[cfg(test)]
    arc_ends: Groups<[[f32; 4]; 6], { SMALL_FEATURES / 4 }>,
}

impl TurnedB {
    #[inline(always)]
    fn new() -> Self {
        TurnedB {
            vertices: Groups::new(),
            points: Groups::new(),
            normals: PairedRows::new(),
            planes: PairedRows::new(),
            #[cfg(test)]
            arc_ends: Groups::new(),
        }
    }
}

/// Groups of four lanes by coordinate (`[x, y, z]` rows), two groups to a pair: row `c` of
/// groups `2 p` and `2 p + 1` lies in eight consecutive numbers, so the eight-lane loops
/// load both as one `Eight` and the four-lane loops one half. Written in order, on the
/// stack, never zeroed; only what is written is read (a pair's second half only once its
/// group is written).
struct PairedRows<const P: usize> {
    pairs: [MaybeUninit<[[[f32; 4]; 2]; 3]>; P],
    /// Groups of four written.
    len: usize,
}

impl<const P: usize> PairedRows<P> {
    #[inline(always)]
    fn new() -> Self {
        PairedRows {
            pairs: [const { MaybeUninit::uninit() }; P],
            len: 0,
        }
    }

    /// Appends a group of four (the callers stay within the capacity:
    /// [`LocalPair::placement`]).
    #[inline(always)]
    fn push(&mut self, rows: [[f32; 4]; 3]) {
        let (p, half) = (self.len / 2, self.len % 2);
        let pair = self.pairs[p].as_mut_ptr();
        for (c, row) in rows.into_iter().enumerate() {
            // SAFETY: `pair` points to pair `p`, in bounds; the write fills one half row
            // without reading or dropping what is there.
            unsafe { std::ptr::addr_of_mut!((*pair)[c][half]).write(row) };
        }
        self.len += 1;
    }

    /// Group `g` (`g < self.len`), by coordinate.
    #[inline(always)]
    fn group(&self, g: usize) -> [[f32; 4]; 3] {
        assert!(g < self.len);
        let pair = self.pairs[g / 2].as_ptr();
        // SAFETY: group `g` was written by `push` (one half of each row of pair `g / 2`).
        std::array::from_fn(|c| unsafe { std::ptr::addr_of!((*pair)[c][g % 2]).read() })
    }

    /// How many whole pairs (both groups written).
    #[inline(always)]
    fn pair_count(&self) -> usize {
        self.len / 2
    }

    /// Pair `p` (`p < self.pair_count()`), by coordinate: groups `2 p` and `2 p + 1`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn pair(&self, p: usize) -> &[[[f32; 4]; 2]; 3] {
        assert!(p < self.pair_count());
        // SAFETY: both groups of pair `p` were written by `push`.
        unsafe { self.pairs[p].assume_init_ref() }
    }
}

/// Up to `N` groups on the stack, written in order; only those written are read, so the
/// rest is never initialised (zeroing 3.5 KB per query cost more than the turning).
struct Groups<T: Copy, const N: usize> {
    items: [MaybeUninit<T>; N],
    len: usize,
}

impl<T: Copy, const N: usize> Groups<T, N> {
    // A function, not a `const`: copying a constant copies its (zeroed) bytes.
    #[inline(always)]
    fn new() -> Self {
        Groups {
            items: [const { MaybeUninit::uninit() }; N],
            len: 0,
        }
    }

    /// Appends `group` (the callers stay within the capacity: [`LocalPair::placement`]).
    #[inline(always)]
    fn push(&mut self, group: T) {
        self.items[self.len] = MaybeUninit::new(group);
        self.len += 1;
    }

    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        // SAFETY: the first `len` items were written by `push`; T is Copy (no drop).
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<T>(), self.len) }
    }
}

impl<'p, 'a> LocalPair<'p, 'a> {
    /// B's rotation and translation in A's frame and the relative velocity in A's frame;
    /// `None` when a body is too large or the placement is not finite (or so large that a
    /// placed coordinate could overflow): the general loop then runs.
    fn placement(pair: &PolyPair<'a>, velocity: Vec3) -> Option<Placement<'a>> {
        let (a, b) = (&pair.a, &pair.b);
        let small = |s: &'a Polyhedron| {
            let fits = s.vertices().len() <= SMALL_VERTICES
                && s.face_count() <= SMALL_FEATURES
                && s.edges().len() <= SMALL_FEATURES;
            // Small bodies carry their lanes (see the constants).
            s.feature_lanes().filter(|_| fits)
        };
        let (Some(lanes_a), Some(lanes_b)) = (small(a.shape), small(b.shape)) else {
            return None;
        };
        let rotation = a.frame_inverse * b.frame;
        let translation = Vec3::from(a.frame_inverse * Vec3A::from(b.translation - a.translation));
        let velocity = Vec3::from(a.frame_inverse * Vec3A::from(velocity));
        // Coordinates stay below 1e6 times this, far from f32::MAX.
        const LARGEST: f32 = 1.0e30;
        let bounded = |v: Vec3| v.is_finite() && v.abs().max_element() < LARGEST;
        if !(bounded(translation) && bounded(velocity) && rotation.is_finite()) {
            return None;
        }
        Some(Placement {
            rotation,
            translation,
            velocity,
            lanes: [lanes_a, lanes_b],
        })
    }

    /// B turned into A's frame by a [`Self::placement`] (inlined: built where it is used,
    /// not copied there).
    #[inline(always)]
    fn new(
        pair: &'p PolyPair<'a>,
        Placement {
            rotation,
            translation,
            velocity,
            lanes: [lanes_a, lanes_b],
        }: Placement<'a>,
        turned_b: &'p mut TurnedB,
    ) -> Self {
        let b = &pair.b;
        let turn_by = |m: Mat3A| {
            let row = |k: usize| {
                let r = m.row(k);
                [Four::splat(r.x), Four::splat(r.y), Four::splat(r.z)]
            };
            [row(0), row(1), row(2)]
        };
        // B's arcs are kept for -B (`c = -n0`, `d = -n1`), turned by -rotation (exactly the
        // negated products).
        let (turn, turn_back) = (turn_by(rotation), turn_by(-rotation));
        for rows in b.shape.vertex_lanes() {
            let [x, y, z] = turned(&turn, rows[0], rows[1], rows[2]).map(Four::to_array);
            turned_b.vertices.push([x, y, z]);
            turned_b
                .points
                .push(std::array::from_fn(|k| Vec3::new(x[k], y[k], z[k])));
        }
        let lanes = lanes_b;
        for rows in &lanes.normals {
            let [x, y, z] = turned(&turn, rows[0], rows[1], rows[2]);
            turned_b
                .normals
                .push([x.to_array(), y.to_array(), z.to_array()]);
        }
        for rows in &lanes.arcs {
            let c = turned(&turn_back, rows[0], rows[1], rows[2]);
            let d = turned(&turn_back, rows[3], rows[4], rows[5]);
            // `d x c` as `Vec3::cross` computes it, which is what `EdgeFrame::from_placed`
            // gives for `n1 x n0` (`-d x -c`, the same products): the lanes' Gauss-map test
            // and `edge_pair_axis`'s then agree bit for bit.
            let plane = [
                d[1].mul(c[2]).sub(c[1].mul(d[2])),
                d[2].mul(c[0]).sub(c[2].mul(d[0])),
                d[0].mul(c[1]).sub(c[0].mul(d[1])),
            ];
            turned_b.planes.push(plane.map(Four::to_array));
            #[cfg(test)]
            turned_b
                .arc_ends
                .push([c[0], c[1], c[2], d[0], d[1], d[2]].map(Four::to_array));
        }
        LocalPair {
            pair,
            translation,
            velocity,
            b: turned_b,
            lanes_a,
            lanes_b,
        }
    }

    #[inline(always)]
    fn vertex_b(&self, k: usize) -> Vec3 {
        self.b.points.as_slice().as_flattened()[k]
    }

    #[inline(always)]
    fn normal_b(&self, k: usize) -> Vec3 {
        let rows = self.b.normals.group(k / 4);
        Vec3::new(rows[0][k % 4], rows[1][k % 4], rows[2][k % 4])
    }

    /// For each face `f` of A in `faces` (bit `f`), the sides of B's arcs' planes its normal
    /// lies on: bit `j` of `signs[f]` is the sign bit of `n_f . plane_j` (set when `< 0`,
    /// and for a `-0.0`); the values themselves go to `values[f][j]` (written for every such
    /// face and every edge of B, with the padding of the last group of four). An edge of A takes
    /// `sat::arcs_cross`'s `adc` and `bdc` for every edge of B from the entries of its two
    /// faces. With `eight`, two groups of four edges at a time (the same products and sums
    /// per lane, so the same bits), the last odd group four at a time.
    #[inline(always)]
    fn face_sides(
        &self,
        eight: EightLanes,
        faces: u64,
        signs: &mut [u64],
        values: &mut SideValues,
    ) {
        let shape_a = self.pair.a.shape;
        let planes = &self.b.planes;
        for (f, (signs, values)) in signs.iter_mut().zip(values.iter_mut()).enumerate() {
            if faces & (1 << f) == 0 {
                continue;
            }
            let n = shape_a.face_normal(f);
            let mut bits = 0u64;
            // Groups of four done by eight lanes.
            let mut done = 0;
            #[cfg(target_arch = "x86_64")]
            if let Some(avx) = eight {
                let splat = |v: f32| Eight::splat(avx, v);
                let (x, y, z) = (splat(n.x), splat(n.y), splat(n.z));
                for p in 0..planes.pair_count() {
                    let rows = planes.pair(p);
                    let row = |c: usize| Eight::load_from(avx, rows[c].as_flattened());
                    let side = Eight::dot3(x, y, z, row(0), row(1), row(2));
                    bits |= (side.mask_bits() as u64) << (8 * p);
                    write_lanes(&mut values[8 * p..], side.to_array());
                }
                done = 2 * planes.pair_count();
            }
            let (x, y, z) = (Four::splat(n.x), Four::splat(n.y), Four::splat(n.z));
            for r in done..planes.len {
                let rows = planes.group(r);
                let side = Four::dot3(
                    x,
                    y,
                    z,
                    Four::load(&rows[0]),
                    Four::load(&rows[1]),
                    Four::load(&rows[2]),
                );
                bits |= (side.sign_bits() as u64) << (4 * r);
                write_lanes(&mut values[4 * r..], side.to_array());
            }
            *signs = bits;
        }
    }

    /// Candidates for a crossing of the Gauss-map arcs of edge `i` of A (`arc` its plane,
    /// between faces `f0` and `f1`) and B's edge `j` (bit `j`): the three sign tests of
    /// [`super::sat::arc_crossing_candidates`] (the same numbers and bits, written here for B's
    /// normals two groups to a pair) on B's turned normals and B's
    /// [`crate::geom3::FeatureLanes::face_edges`], with the sign bits of `adc` and `bdc`
    /// from [`Self::face_sides`]. `sides[f]` gets `n_f . arc` for every face of B (and the
    /// padding of the last group of four). B's normals turned into A's frame against A's
    /// arc give `cba`'s negation exactly (`c = -n` is turned by the negated matrix, whose
    /// products and sums are the negated ones, so the two differ at most in a zero's sign);
    /// the caller decides a candidate by the products ([`gauss_map_crossing`]), where a
    /// zero fails whatever its sign. With `eight`, two groups of four faces at a time (the
    /// table still spreads each group's four sign bits), the last odd group four at a time.
    #[inline(always)]
    fn crossing_arcs(
        &self,
        eight: EightLanes,
        arc: Vec3,
        [f0, f1]: [usize; 2],
        signs: &[u64],
        sides: &mut [f32; SMALL_FEATURES],
    ) -> u64 {
        let face_edges = &self.lanes_b.face_edges;
        let normals = &self.b.normals;
        // Edges of B whose first (second) face has `n . arc` with its sign bit set: `cba`
        // (`dba`) has it clear.
        let (mut first, mut second) = (0u64, 0u64);
        // Groups of four done by eight lanes.
        let mut done = 0;
        #[cfg(target_arch = "x86_64")]
        if let Some(avx) = eight {
            let splat = |v: f32| Eight::splat(avx, v);
            let (x, y, z) = (splat(arc.x), splat(arc.y), splat(arc.z));
            for p in 0..normals.pair_count() {
                let rows = normals.pair(p);
                let row = |c: usize| Eight::load_from(avx, rows[c].as_flattened());
                let n_arc = Eight::dot3(row(0), row(1), row(2), x, y, z);
                let m = n_arc.mask_bits() as usize;
                let (low, high) = (&face_edges[2 * p][0], &face_edges[2 * p + 1][0]);
                first |= low[0][m & 0xf] | high[0][m >> 4];
                second |= low[1][m & 0xf] | high[1][m >> 4];
                n_arc.store_to(&mut sides[8 * p..]);
            }
            done = 2 * normals.pair_count();
        }
        let (x, y, z) = (Four::splat(arc.x), Four::splat(arc.y), Four::splat(arc.z));
        for g in done..normals.len {
            let rows = normals.group(g);
            let row = |c: usize| Four::load(&rows[c]);
            let n_arc = Four::dot3(row(0), row(1), row(2), x, y, z);
            let m = (n_arc.sign_bits() & 0xf) as usize;
            first |= face_edges[g][0][0][m];
            second |= face_edges[g][0][1][m];
            sides[4 * g..4 * g + 4].copy_from_slice(&n_arc.to_array());
        }
        // adc and bdc of opposite signs, cba and dba of opposite signs, cba and bdc of the
        // same sign (cba's sign bit is `!first`).
        let (adc, bdc) = (signs[f0], signs[f1]);
        (adc ^ bdc) & (first ^ second) & (first ^ bdc)
    }

    /// Tests every axis in the general loop's order (A's faces, B's faces, then the edge
    /// pairs, A's edge major, that pass the Gauss-map and parallel tests), all in A's frame.
    /// A face axis needs only the other body's projection: a body's extent along its own
    /// face normal is stored. Face axes are taken four at a time (projections, speeds and
    /// entry and exit times side by side; the tie rule one axis at a time, in order). On an
    /// edge axis the two edges are the extremes facing each other (the arcs cross at the
    /// axis), so only A's far end and B's far end are scanned.
    ///
    /// Untraced, where the processor has AVX, this and [`Self::visit_edge_axes`] run as
    /// compiled for AVX ([`Self::visit_axes_avx`]): the same operations, encoded with three
    /// operands (no register copies before each destructive SSE operation), and some loops
    /// eight lanes at a time ([`SweepLanes`]). Nothing is fused or reordered (Rust never
    /// contracts a product and a sum into an FMA), so the bits are the same; the tests that
    /// compare the traced sweep (compiled for the baseline) with the untraced one check it,
    /// and a test compares eight lanes with four. (The turning of B stays out of it: run
    /// in the AVX function too, it measured no faster.)
    fn visit_axes<T: Tracer<Step>>(
        &self,
        still: f32,
        touch: f32,
        latest: &mut Latest,
        tracer: &mut T,
    ) {
        #[cfg(target_arch = "x86_64")]
        if !T::ENABLED {
            if let Some(avx) = compiled_for_avx() {
                // SAFETY: `avx` proves that the processor has AVX.
                return unsafe { self.visit_axes_avx(avx, still, touch, latest, tracer) };
            }
        }
        self.visit_axes_in::<T, Four>((), still, touch, latest, tracer)
    }

    /// [`Self::visit_axes`] compiled for AVX, eight lanes at a time where [`SweepLanes`] can
    /// (unless a test asked its thread for four: [`eight_lanes`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    fn visit_axes_avx<T: Tracer<Step>>(
        &self,
        avx: Avx,
        still: f32,
        touch: f32,
        latest: &mut Latest,
        tracer: &mut T,
    ) {
        match eight_lanes(avx) {
            Some(avx) => self.visit_axes_in::<T, Eight>(avx, still, touch, latest, tracer),
            None => self.visit_axes_in::<T, Four>((), still, touch, latest, tracer),
        }
    }

    /// [`Self::visit_axes`], the face axes' projections [`SweepLanes::extents_of_four`].
    #[inline(always)]
    fn visit_axes_in<T: Tracer<Step>, L: SweepLanes>(
        &self,
        isa: L::Isa,
        still: f32,
        touch: f32,
        latest: &mut Latest,
        tracer: &mut T,
    ) {
        let a = &self.pair.a;
        let shape_a = a.shape;
        let (lanes_a, lanes_b) = (self.lanes_a, self.lanes_b);
        let vertices_a = shape_a.vertex_lanes();
        let vertices_b = self.b.vertices.as_slice();
        // Recorded steps are in the world: axes turned back, intervals shifted by the
        // projection of A's world position.
        let position_a = self.pair.origin + a.translation;
        let mut offer = |latest: &mut Latest,
                         id: AxisId,
                         axis: Vec3,
                         ia: Interval,
                         ib: Interval,
                         speed: f32,
                         t: (f32, f32)| {
            let (t_enter, t_exit) = t;
            tracer.record(|| {
                let world = Vec3::from(a.frame * Vec3A::from(axis));
                let shift = world.dot(position_a);
                SweepAxis {
                    id,
                    axis: world,
                    interval_a: ia.shifted(shift),
                    interval_b: ib.shifted(shift),
                    speed,
                    t_enter,
                    t_exit,
                }
            });
            let candidate = Candidate {
                id,
                axis,
                speed,
                t_enter,
            };
            latest.offer(candidate, t_exit);
        };
        let splat = |v: Vec3| (Four::splat(v.x), Four::splat(v.y), Four::splat(v.z));
        let (tx, ty, tz) = splat(self.translation);
        let (vx, vy, vz) = splat(self.velocity);
        // A body's stored extents along its own face normals, four faces at a time.
        let stored = |extents: &[[f32; 2]], g: usize| {
            let group = &extents[4 * g..extents.len().min(4 * g + 4)];
            let side = |s: usize| std::array::from_fn(|k| group.get(k).map_or(0.0, |e| e[s]));
            (Four::load(&side(0)), Four::load(&side(1)), group.len())
        };
        for (g, rows) in lanes_a.normals.iter().enumerate() {
            let (nx, ny, nz) = (
                Four::load(&rows[0]),
                Four::load(&rows[1]),
                Four::load(&rows[2]),
            );
            let (low, high) = L::extents_of_four(isa, vertices_b, rows);
            let shift = Four::dot3(nx, ny, nz, tx, ty, tz);
            let (b_low, b_high) = (low.add(shift), high.add(shift));
            let (a_low, a_high, count) = stored(&lanes_a.face_extents, g);
            let speed = Four::dot3(nx, ny, nz, vx, vy, vz);
            let (enter, exit) =
                entry_and_exit_four([a_low, a_high, b_low, b_high], speed, still, touch);
            if !T::ENABLED && latest.unchanged_by_four(enter, exit, count) {
                latest.tested += count as u32;
                #[cfg(test)]
                tests::SKIPPED_FACES.with(|n| n.set(n.get() + count as u64));
                continue;
            }
            let [a_low, a_high, b_low, b_high, speed, enter, exit] =
                [a_low, a_high, b_low, b_high, speed, enter, exit].map(Four::to_array);
            for k in 0..count {
                let i = 4 * g + k;
                offer(
                    latest,
                    AxisId::FaceA(i as u32),
                    shape_a.face_normal(i),
                    Interval::new(a_low[k], a_high[k]),
                    Interval::new(b_low[k], b_high[k]),
                    speed[k],
                    (enter[k], exit[k]),
                );
            }
        }
        for g in 0..self.b.normals.len {
            let rows = &self.b.normals.group(g);
            // The axis is -n: both intervals turn over, and the speed changes sign.
            let (nx, ny, nz) = (
                Four::load(&rows[0]),
                Four::load(&rows[1]),
                Four::load(&rows[2]),
            );
            let (low, high) = L::extents_of_four(isa, vertices_a, rows);
            let (a_low, a_high) = (high.neg(), low.neg());
            let shift = Four::dot3(nx, ny, nz, tx, ty, tz);
            let (low, high, count) = stored(&lanes_b.face_extents, g);
            let (b_low, b_high) = (high.add(shift).neg(), low.add(shift).neg());
            let speed = Four::dot3(nx, ny, nz, vx, vy, vz).neg();
            let (enter, exit) =
                entry_and_exit_four([a_low, a_high, b_low, b_high], speed, still, touch);
            if !T::ENABLED && latest.unchanged_by_four(enter, exit, count) {
                latest.tested += count as u32;
                #[cfg(test)]
                tests::SKIPPED_FACES.with(|n| n.set(n.get() + count as u64));
                continue;
            }
            let [a_low, a_high, b_low, b_high, speed, enter, exit] =
                [a_low, a_high, b_low, b_high, speed, enter, exit].map(Four::to_array);
            for k in 0..count {
                let j = 4 * g + k;
                offer(
                    latest,
                    AxisId::FaceB(j as u32),
                    -self.normal_b(j),
                    Interval::new(a_low[k], a_high[k]),
                    Interval::new(b_low[k], b_high[k]),
                    speed[k],
                    (enter[k], exit[k]),
                );
            }
        }
        self.visit_edge_axes::<T>(still, touch, latest, &mut offer);
    }

    /// [`Self::visit_axes`]'s edge pairs: the candidates of the sign bits, four or eight at a
    /// time ([`EdgePairLanes`]), then, one at a time in order, the count, the witnesses'
    /// skip (untraced) or the full test and the offer. (Out of line: inlined, its registers
    /// crowd the face axes' projections. It checks for AVX again, as it runs out of line.)
    #[inline(never)]
    fn visit_edge_axes<T: Tracer<Step>>(
        &self,
        still: f32,
        touch: f32,
        latest: &mut Latest,
        offer: &mut impl FnMut(&mut Latest, AxisId, Vec3, Interval, Interval, f32, (f32, f32)),
    ) {
        #[cfg(target_arch = "x86_64")]
        if !T::ENABLED {
            if let Some(avx) = compiled_for_avx() {
                // SAFETY: `avx` proves that the processor has AVX.
                return unsafe { self.visit_edge_axes_avx::<T>(avx, still, touch, latest, offer) };
            }
        }
        self.visit_edge_axes_in::<T, Four>((), still, touch, latest, offer)
    }

    /// [`Self::visit_edge_axes`] compiled for AVX (see [`Self::visit_axes`]), its
    /// Gauss-map loops eight lanes at a time (unless a test asked its thread for four:
    /// [`eight_lanes`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    fn visit_edge_axes_avx<T: Tracer<Step>>(
        &self,
        avx: Avx,
        still: f32,
        touch: f32,
        latest: &mut Latest,
        offer: &mut impl FnMut(&mut Latest, AxisId, Vec3, Interval, Interval, f32, (f32, f32)),
    ) {
        match eight_lanes(avx) {
            Some(avx) => self.visit_edge_axes_in::<T, Eight>(avx, still, touch, latest, offer),
            None => self.visit_edge_axes_in::<T, Four>((), still, touch, latest, offer),
        }
    }

    /// [`Self::visit_edge_axes`] with the edge pairs gathered and settled `L::COUNT` at a
    /// time (and with eight, the Gauss-map loops eight lanes at a time too).
    #[inline(always)]
    fn visit_edge_axes_in<T: Tracer<Step>, L: SweepLanes>(
        &self,
        isa: L::Isa,
        still: f32,
        touch: f32,
        latest: &mut Latest,
        offer: &mut impl FnMut(&mut Latest, AxisId, Vec3, Interval, Interval, f32, (f32, f32)),
    ) {
        let (shape_a, shape_b) = (self.pair.a.shape, self.pair.b.shape);
        let (lanes_a, lanes_b) = (self.lanes_a, self.lanes_b);
        let edges_b = shape_b.edges();
        let eight = L::eight(isa);
        let (antipodes_a, antipodes_b) = (&lanes_a.face_antipodes, &lanes_b.face_antipodes);
        // The witnesses' argument needs every projection finite (no NaN from an overflow).
        let witnesses =
            shape_a.bounding_radius() < WITNESS_LIMIT && shape_b.bounding_radius() < WITNESS_LIMIT;
        let faces_a = shape_a.face_count();
        let mut signs = [0u64; SMALL_FEATURES];
        let signs = &mut signs[..faces_a];
        let mut side_values: SideValues =
            [const { [const { MaybeUninit::uninit() }; SMALL_FEATURES] }; SMALL_FEATURES];
        // Untraced, the edges of A none of whose axes can change the answer are left out,
        // and only the faces of the others are compared with B's arcs.
        let (visit, faces) = if !T::ENABLED && witnesses && arc_bound_enabled() {
            let visit = self.arcs_to_visit::<L>(isa, latest, still, touch);
            let mut faces = 0u64;
            for (i, ea) in shape_a.edges().iter().enumerate() {
                if visit & (1 << i) != 0 {
                    faces |= (1 << ea.faces[0]) | (1 << ea.faces[1]);
                }
            }
            (visit, faces)
        } else {
            (u64::MAX, u64::MAX)
        };
        self.face_sides(eight, faces, signs, &mut side_values);
        let signs = &*signs;
        // SAFETY: `face_sides` wrote `side_values[f][j]` for every face `f` of A in `faces`
        // and every edge `j` of B, and only those are read (the faces of the edges visited).
        let side = |f: usize, j: usize| unsafe { side_values[f][j].assume_init() };
        // B's face normals against A's edge's arc, written by `crossing_arcs` for every face
        // of B.
        let mut normal_sides = [0.0f32; SMALL_FEATURES];
        // Candidates `L::COUNT` at a time, in the order they are found; each full group is
        // settled before the next is gathered.
        let mut pairs = EdgePairLanes::new();
        for (i, ea) in shape_a.edges().iter().enumerate() {
            if visit & (1 << i) == 0 {
                #[cfg(test)]
                tests::SKIPPED_ARCS.with(|n| n.set(n.get() + 1));
                continue;
            }
            let arc = shape_a.edge_arc(i)[2];
            let faces = [ea.faces[0] as usize, ea.faces[1] as usize];
            let mut mask = self.crossing_arcs(eight, arc, faces, signs, &mut normal_sides);
            if mask == 0 {
                continue;
            }
            let edge_a = EdgeA {
                index: i as u32,
                tail: shape_a.vertex(ea.tail as usize),
                head: shape_a.vertex(ea.head as usize),
                far: shape_a.vertex(antipodes_a[faces[0]] as usize),
            };
            while mask != 0 {
                let j = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let eb = &edges_b[j];
                let normal_side = |f: u32| normal_sides[f as usize];
                let edge_b = EdgeB {
                    index: j as u32,
                    tail: self.vertex_b(eb.tail as usize),
                    head: self.vertex_b(eb.head as usize),
                    far: self.vertex_b(antipodes_b[eb.faces[0] as usize] as usize),
                };
                let sides = [
                    normal_side(eb.faces[0]),
                    normal_side(eb.faces[1]),
                    side(faces[0], j),
                    side(faces[1], j),
                ];
                pairs.push(&edge_a, &edge_b, sides);
                if pairs.len == L::COUNT {
                    self.settle::<T, L>(isa, &pairs, still, touch, witnesses, latest, offer);
                    pairs.len = 0;
                }
            }
        }
        self.settle::<T, L>(isa, &pairs, still, touch, witnesses, latest, offer);
    }

    /// The edges of A whose axes might change the answer, as bits (all set when the bound
    /// cannot be used): the others are left out, untraced (the header's bound over whole
    /// arcs). For each edge, `L::COUNT` at a time: B's lowest and highest vertices along
    /// each face normal of the edge (`w_k`, `w'_k`, the first found), so the points `p_k =
    /// tail - w_k - T` and `p'_k = w'_k + T - a_k` (`a_k` A's lowest vertex along `n_k`,
    /// stored) projected on both ends; then each of the four conditions must hold at both
    /// ends, with a margin, for some mix of the two faces' points ([`mixable`]). The margin
    /// of a time `c`: an axis within `slack` of the arc sees each point move by at most the
    /// slack times its length (`|p| <= R_A + R_B + |T|`, `|c v|`) and the near end of B's
    /// edge rise above B's lowest by at most the slack times B's diameter, and the full
    /// test's numbers carry rounding; `E s` and `X s` within the touch tolerance on a still
    /// axis (`|s| <= still`) keep it overlapping.
    #[inline(always)]
    fn arcs_to_visit<L: Lanes>(&self, isa: L::Isa, latest: &Latest, still: f32, touch: f32) -> u64 {
        let (lanes_a, shape_a, shape_b) = (self.lanes_a, self.pair.a.shape, self.pair.b.shape);
        let Some(best) = latest.best else {
            return u64::MAX;
        };
        // An exit after the sweep time leaves `t_last` (the earliest exit, capped by it) as
        // it is, whatever it does to the earliest exit: exits need only stay above the cap.
        let (enter, exit) = (
            best.t_enter - latest.tie,
            latest.earliest_exit.min(latest.t_max),
        );
        let Some(slack) = arc_slack(lanes_a.arc_skew, self.lanes_b.arc_skew) else {
            return u64::MAX;
        };
        // Still axes must be seen to overlap: `E s` and `X s` stay within the touch tolerance.
        if !(enter.is_finite() && exit.is_finite())
            || enter.abs() * still > touch
            || exit.abs() * still > touch
        {
            return u64::MAX;
        }
        let (radius_a, radius_b) = (shape_a.bounding_radius(), shape_b.bounding_radius());
        let reach = radius_a + radius_b + self.translation.length();
        let speed = self.velocity.length();
        // The margin of a time `c` (see above).
        let margin =
            |c: f32| slack * (reach + 2.0 * radius_b + c.abs() * speed) + ARC_ROUNDING * reach;
        let splat = |v: f32| L::splat(isa, v);
        let (m_enter, m_exit) = (splat(margin(enter)), splat(margin(exit)));
        let (e, x) = (splat(enter), splat(exit));
        let zero = splat(0.0);
        let [tx, ty, tz] = self.translation.to_array().map(splat);
        let [vx, vy, vz] = self.velocity.to_array().map(splat);
        let points = &self.b.points.as_slice().as_flattened()[..shape_b.vertices().len()];
        let mut visit = 0u64;
        for (g, rows) in lanes_a.arc_reach.iter().enumerate() {
            for half in (0..8).step_by(L::COUNT) {
                let mut r = [zero; 12];
                for (lanes, row) in r.iter_mut().zip(rows) {
                    *lanes = L::load_from(isa, &row[half..]);
                }
                let (n0, n1) = ([r[0], r[1], r[2]], [r[3], r[4], r[5]]);
                // B's lowest and highest vertices along each normal (the first of each),
                // with their projections on both normals: `low[k][j]`, B's lowest along
                // `n_k` projected on `n_j`.
                let mut low = [[zero; 2]; 2];
                let mut high = [[zero; 2]; 2];
                for (i, p) in points.iter().enumerate() {
                    let (px, py, pz) = (splat(p.x), splat(p.y), splat(p.z));
                    let d = [
                        L::dot3(n0[0], n0[1], n0[2], px, py, pz),
                        L::dot3(n1[0], n1[1], n1[2], px, py, pz),
                    ];
                    if i == 0 {
                        (low, high) = ([d; 2], [d; 2]);
                        continue;
                    }
                    for k in 0..2 {
                        let lower = low[k][k].gt(d[k]);
                        low[k] = [lower.select(d[0], low[k][0]), lower.select(d[1], low[k][1])];
                        let higher = d[k].gt(high[k][k]);
                        high[k] = [
                            higher.select(d[0], high[k][0]),
                            higher.select(d[1], high[k][1]),
                        ];
                    }
                }
                let dot = |n: &[L; 3], p: [L; 3]| L::dot3(n[0], n[1], n[2], p[0], p[1], p[2]);
                let shift = [dot(&n0, [tx, ty, tz]), dot(&n1, [tx, ty, tz])];
                let s = [dot(&n0, [vx, vy, vz]), dot(&n1, [vx, vy, vz])];
                // At end `j`, with the tangent point of face `k`: `n_j . p_k` (p_k = tail -
                // B's lowest along n_k - T) and `n_j . p'_k` (p'_k = B's highest along n_k +
                // T - A's lowest along n_k).
                let mut near = [[zero; 2]; 2];
                let mut far = [[zero; 2]; 2];
                for k in 0..2 {
                    for j in 0..2 {
                        near[k][j] = r[6 + j].minus(low[k][j]).minus(shift[j]);
                        far[k][j] = high[k][j].add(shift[j]).minus(r[8 + 2 * k + j]);
                    }
                }
                let unchanged = mixable(moved(&near, e.neg(), &s), m_enter, zero)
                    .and(mixable(moved(&far, e, &s), m_enter, zero))
                    .and(mixable(moved(&far, x, &s), m_exit, zero))
                    .and(mixable(moved(&near, x.neg(), &s), m_exit, zero));
                let lanes = (1u64 << L::COUNT) - 1;
                visit |= (!(unchanged.mask_bits() as u64) & lanes) << (8 * g + half);
            }
        }
        visit
    }

    /// [`Self::visit_edge_axes`]'s gathered edge pairs: their numbers side by side
    /// ([`EdgePairLanes::numbers`]), then one pair at a time in order the count, the
    /// witnesses' skip (untraced, when `witnesses`) or the full test and the offer. (Inlined
    /// at both calls: compiled with its caller, for AVX where it runs so.)
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn settle<T: Tracer<Step>, L: Lanes>(
        &self,
        isa: L::Isa,
        pairs: &EdgePairLanes,
        still: f32,
        touch: f32,
        witnesses: bool,
        latest: &mut Latest,
        offer: &mut impl FnMut(&mut Latest, AxisId, Vec3, Interval, Interval, f32, (f32, f32)),
    ) {
        let vertices_a = self.pair.a.shape.vertex_lanes();
        let vertices_b = self.b.vertices.as_slice();
        let centroid_a = self.pair.a.shape.centroid();
        let numbers = pairs.numbers::<L>(isa, centroid_a, self.translation, self.velocity, still);
        let [x, y, z] = numbers.axis;
        for k in 0..pairs.len {
            if numbers.axes & (1 << k) == 0 {
                continue;
            }
            let may_skip = !T::ENABLED && witnesses && numbers.moving & (1 << k) != 0;
            if may_skip && latest.unchanged_by(numbers.enter[k], numbers.exit[k]) {
                latest.tested += 1;
                #[cfg(test)]
                tests::SKIPPED.with(|n| n.set(n.get() + 1));
                continue;
            }
            // The arcs cross at `axis`: A's edge is A's extreme along it and B's edge is
            // B's extreme along -axis.
            let axis = Vec3::new(x[k], y[k], z[k]);
            let ia = Interval::new(extent(vertices_a, axis).min, numbers.near_a[k]);
            let ib = Interval::new(numbers.near_b[k], extent(vertices_b, axis).max)
                .shifted(numbers.shift[k]);
            let speed = numbers.speed[k];
            let t = entry_and_exit(ia, ib, speed, still, touch);
            let id = AxisId::Edges(pairs.edge_a[k], pairs.edge_b[k]);
            offer(latest, id, axis, ia, ib, speed, t);
        }
    }
}

/// [`LocalPair::face_sides`]'s values: for every face of A, every edge of B (on the stack,
/// written before read, never zeroed: 16 KB).
type SideValues = [[MaybeUninit<f32>; SMALL_FEATURES]; SMALL_FEATURES];

/// Writes `lanes` to the first `N` places of `to`.
#[inline(always)]
fn write_lanes<const N: usize>(to: &mut [MaybeUninit<f32>], lanes: [f32; N]) {
    let to: &mut [MaybeUninit<f32>; N] = (&mut to[..N]).try_into().expect("N places");
    *to = lanes.map(MaybeUninit::new);
}

/// AVX's token when the untraced small-body path's Gauss-map loops take eight lanes at a
/// time ([`LocalPair::face_sides`], [`LocalPair::crossing_arcs`]); `None` takes four.
#[cfg(target_arch = "x86_64")]
type EightLanes = Option<Avx>;
/// Elsewhere there are only four lanes.
#[cfg(not(target_arch = "x86_64"))]
type EightLanes = Option<std::convert::Infallible>;

/// The lanes the untraced small-body path settles its edge pairs with ([`Four`], or
/// [`Eight`] where the processor has AVX), and whether its Gauss-map loops take eight.
trait SweepLanes: Lanes {
    fn eight(isa: Self::Isa) -> EightLanes;

    /// Lane `k`: the interval of the projections onto the `k`-th of four normals (`[x, y,
    /// z]` rows) of vertices stored four at a time (see [`extent`]).
    fn extents_of_four(
        isa: Self::Isa,
        groups: &[[[f32; 4]; 3]],
        normals: &[[f32; 4]; 3],
    ) -> (Four, Four);
}

impl SweepLanes for Four {
    #[inline(always)]
    fn eight(_: ()) -> EightLanes {
        None
    }

    /// The vertices are scanned twice, two normals at a time: four splatted normals and
    /// eight running extremes would not fit SSE's sixteen registers (each normal's numbers
    /// are the same either way).
    #[inline(always)]
    fn extents_of_four(_: (), groups: &[[[f32; 4]; 3]], normals: &[[f32; 4]; 3]) -> (Four, Four) {
        let axis = |k: usize| {
            (
                Four::splat(normals[0][k]),
                Four::splat(normals[1][k]),
                Four::splat(normals[2][k]),
            )
        };
        let two = |axes: [(Four, Four, Four); 2]| {
            let project = |g: &[[f32; 4]; 3]| {
                let (x, y, z) = (Four::load(&g[0]), Four::load(&g[1]), Four::load(&g[2]));
                axes.map(|(ax, ay, az)| Four::dot3(x, y, z, ax, ay, az))
            };
            let (mut low, mut high) = (project(&groups[0]), project(&groups[0]));
            for g in &groups[1..] {
                let d = project(g);
                for k in 0..2 {
                    low[k] = low[k].min(d[k]);
                    high[k] = high[k].max(d[k]);
                }
            }
            (low, high)
        };
        let ([l0, l1], [h0, h1]) = two([axis(0), axis(1)]);
        let ([l2, l3], [h2, h3]) = two([axis(2), axis(3)]);
        (
            Four::min_lanes_of([l0, l1, l2, l3]),
            Four::max_lanes_of([h0, h1, h2, h3]),
        )
    }
}

#[cfg(target_arch = "x86_64")]
impl SweepLanes for Eight {
    #[inline(always)]
    fn eight(avx: Avx) -> EightLanes {
        Some(avx)
    }

    /// One scan for all four normals: each register holds two normals (one in each half),
    /// and each group of four vertices is loaded into both halves. Each half computes what
    /// [`Four`]'s scan computes for its normal (the same products, sums, and compares with
    /// the running extreme first), so the bits are the same.
    #[inline(always)]
    fn extents_of_four(
        avx: Avx,
        groups: &[[[f32; 4]; 3]],
        normals: &[[f32; 4]; 3],
    ) -> (Four, Four) {
        // Functions, not closures: an out-of-line closure would be compiled without AVX and
        // call each AVX operation.
        #[inline(always)]
        fn two(avx: Avx, normals: &[[f32; 4]; 3], c: usize, k: usize) -> Eight {
            Eight::from_halves(
                avx,
                Four::splat(normals[c][k]),
                Four::splat(normals[c][k + 1]),
            )
        }
        #[inline(always)]
        fn both(avx: Avx, row: &[f32; 4]) -> Eight {
            Eight::from_halves(avx, Four::load(row), Four::load(row))
        }
        let (x01, y01, z01) = (
            two(avx, normals, 0, 0),
            two(avx, normals, 1, 0),
            two(avx, normals, 2, 0),
        );
        let (x23, y23, z23) = (
            two(avx, normals, 0, 2),
            two(avx, normals, 1, 2),
            two(avx, normals, 2, 2),
        );
        let (x, y, z) = (
            both(avx, &groups[0][0]),
            both(avx, &groups[0][1]),
            both(avx, &groups[0][2]),
        );
        let (mut low01, mut low23) = (
            Eight::dot3(x, y, z, x01, y01, z01),
            Eight::dot3(x, y, z, x23, y23, z23),
        );
        let (mut high01, mut high23) = (low01, low23);
        for g in &groups[1..] {
            let (x, y, z) = (both(avx, &g[0]), both(avx, &g[1]), both(avx, &g[2]));
            let (d01, d23) = (
                Eight::dot3(x, y, z, x01, y01, z01),
                Eight::dot3(x, y, z, x23, y23, z23),
            );
            low01 = low01.min(d01);
            low23 = low23.min(d23);
            high01 = high01.max(d01);
            high23 = high23.max(d23);
        }
        let ((l0, l1), (l2, l3)) = (low01.halves(), low23.halves());
        let ((h0, h1), (h2, h3)) = (high01.halves(), high23.halves());
        (
            Four::min_lanes_of([l0, l1, l2, l3]),
            Four::max_lanes_of([h0, h1, h2, h3]),
        )
    }
}

/// AVX's token when the untraced small-body path runs as compiled for AVX
/// ([`LocalPair::visit_axes`]): where the processor has AVX, unless a test has asked its
/// thread for the baseline build (`tests::BASELINE_ONLY`, to compare the two).
#[cfg(target_arch = "x86_64")]
#[inline]
fn compiled_for_avx() -> Option<Avx> {
    #[cfg(test)]
    if tests::BASELINE_ONLY.with(std::cell::Cell::get) {
        return None;
    }
    Avx::detect()
}

/// [`EightLanes`] in the code compiled for AVX: eight lanes, unless a test has asked its
/// thread for four (`tests::FOUR_LANES_ONLY`, to compare the two).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn eight_lanes(avx: Avx) -> EightLanes {
    #[cfg(test)]
    if tests::FOUR_LANES_ONLY.with(std::cell::Cell::get) {
        return None;
    }
    Some(avx)
}

/// Gregorius's test of `sat::arcs_cross` on its four numbers, the same products: arcs
/// `a-b` (A's edge) and `c-d` (B's, negated) cross when c and d lie on opposite sides of
/// plane `b x a` (`cba dba < 0`), a and b on opposite sides of plane `d x c`
/// (`adc bdc < 0`), and the arcs lie in the same hemisphere (`cba bdc > 0`).
/// (Everything is finite here, so `x < 0` is `arcs_cross`'s `!(x >= 0)`.)
/// [`EdgePairLanes::numbers`] takes the same products lane by lane; this scalar statement
/// is the tests' reference.
#[cfg(test)]
fn gauss_map_crossing(cba: f32, dba: f32, adc: f32, bdc: f32) -> bool {
    cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0
}

/// An edge of A on the small-body path (A's frame): its ends and the antipode of its first
/// face (the witness of A's far end).
struct EdgeA {
    index: u32,
    tail: Vec3,
    head: Vec3,
    far: Vec3,
}

/// An edge of B turned into A's frame (not moved): its ends and the antipode of its first
/// face (the witness of B's far end).
struct EdgeB {
    index: u32,
    tail: Vec3,
    head: Vec3,
    far: Vec3,
}

/// The most edge pairs [`EdgePairLanes`] holds: eight, for [`Eight`]; [`Four`] takes the
/// first four places.
const PAIR_LANES: usize = 8;

/// Up to [`PAIR_LANES`] edge pairs that passed the sign bits, side by side (lane `k` is the
/// `k`-th pair found; `[x, y, z]` rows), for [`Self::numbers`].
struct EdgePairLanes {
    edge_a: [u32; PAIR_LANES],
    edge_b: [u32; PAIR_LANES],
    tail_a: [[f32; PAIR_LANES]; 3],
    head_a: [[f32; PAIR_LANES]; 3],
    far_a: [[f32; PAIR_LANES]; 3],
    tail_b: [[f32; PAIR_LANES]; 3],
    head_b: [[f32; PAIR_LANES]; 3],
    far_b: [[f32; PAIR_LANES]; 3],
    /// `n . arc` of B's edge's two faces against A's arc (`cba` and `dba` negated), then
    /// `adc` and `bdc` ([`LocalPair::face_sides`]).
    sides: [[f32; PAIR_LANES]; 4],
    len: usize,
}

/// What [`EdgePairLanes::numbers`] finds, lane by lane.
struct EdgePairNumbers {
    /// Bit `k`: the pair's arcs cross and its edges are not parallel (an axis to test).
    axes: u32,
    /// Bit `k`: `|speed| > still` (a witness bound may skip the axis).
    moving: u32,
    axis: [[f32; PAIR_LANES]; 3],
    /// A's edge along the axis (A's maximum), B's edge along it unshifted (B's minimum
    /// before the shift), and the shift `axis . translation`.
    near_a: [f32; PAIR_LANES],
    near_b: [f32; PAIR_LANES],
    shift: [f32; PAIR_LANES],
    speed: [f32; PAIR_LANES],
    /// The witnesses' bounds on the entry and exit times (see [`EdgePairLanes::numbers`]).
    enter: [f32; PAIR_LANES],
    exit: [f32; PAIR_LANES],
}

impl EdgePairLanes {
    #[inline(always)]
    fn new() -> Self {
        // Zeroed once: lanes beyond `len` are computed (from an earlier group's numbers or
        // zeros) and never read.
        EdgePairLanes {
            edge_a: [0; PAIR_LANES],
            edge_b: [0; PAIR_LANES],
            tail_a: [[0.0; PAIR_LANES]; 3],
            head_a: [[0.0; PAIR_LANES]; 3],
            far_a: [[0.0; PAIR_LANES]; 3],
            tail_b: [[0.0; PAIR_LANES]; 3],
            head_b: [[0.0; PAIR_LANES]; 3],
            far_b: [[0.0; PAIR_LANES]; 3],
            sides: [[0.0; PAIR_LANES]; 4],
            len: 0,
        }
    }

    /// Appends a pair (the caller settles the group when it holds as many as its lanes).
    #[inline(always)]
    fn push(&mut self, a: &EdgeA, b: &EdgeB, sides: [f32; 4]) {
        let k = self.len;
        let put = |rows: &mut [[f32; PAIR_LANES]; 3], v: Vec3| {
            rows[0][k] = v.x;
            rows[1][k] = v.y;
            rows[2][k] = v.z;
        };
        self.edge_a[k] = a.index;
        self.edge_b[k] = b.index;
        put(&mut self.tail_a, a.tail);
        put(&mut self.head_a, a.head);
        put(&mut self.far_a, a.far);
        put(&mut self.tail_b, b.tail);
        put(&mut self.head_b, b.head);
        put(&mut self.far_b, b.far);
        for (row, side) in self.sides.iter_mut().zip(sides) {
            row[k] = side;
        }
        self.len += 1;
    }

    /// The pairs' axes and the numbers the skip test and the full test share, `L::COUNT`
    /// at a time (A's centroid in every lane), each
    /// lane computed with the scalar operations of SAT's edge axis, in their order (IEEE
    /// products, sums, square root and quotient, no fused multiply-add: the same bits):
    ///
    /// ```text
    /// Gauss map: cba dba < 0, adc bdc < 0, cba bdc > 0     (cba = -sides[0], dba = -sides[1])
    /// cross = dir_a x dir_b;  parallel when |cross|^2 < tol^2 |dir_a|^2 |dir_b|^2 (or a NaN)
    /// axis = cross * (1 / sqrt(|cross|^2)), negated when axis . (tail_a - centroid_a) < 0
    /// near_a = axis . tail_a,  near_b = axis . tail_b,  shift = axis . translation,
    /// speed = velocity . axis
    /// ```
    ///
    /// and the witnesses' bounds for `Latest::unchanged_by`: the far ends `far_a = axis .
    /// (A's witness) >= A's min` and `far_b = axis . (B's witness) + shift <= B's max`
    /// (each computed as the scan computes a vertex's projection, so bounded by the scan's
    /// extreme). With the facing extremes exact (`near_a` is A's maximum, `near_b + shift`
    /// B's minimum, as the full test computes them) the time that uses only them is exact
    /// and the other bounded, as rounding is monotone (a larger numerator gives a quotient
    /// at least as large for a positive speed and at most as large for a negative one):
    ///
    /// ```text
    /// closing = near_a - (near_b + shift),  opening = far_a - far_b  (opening >= the exact one)
    /// speed > 0: enter = opening / speed >= the entry,  exit = closing / speed, exact
    /// speed < 0: enter = closing / speed, exact,        exit = opening / speed <= the exit
    /// ```
    ///
    /// (`enter` an upper bound of the entry, `exit` a lower bound of the exit). Still axes
    /// (`|speed| <= still`, or a NaN) are not `moving` and are not skipped.
    #[inline(always)]
    fn numbers<L: Lanes>(
        &self,
        isa: L::Isa,
        centroid_a: Vec3,
        translation: Vec3,
        velocity: Vec3,
        still: f32,
    ) -> EdgePairNumbers {
        // Loops, not `map`, where `Eight`s are made: built inside AVX code only when inlined
        // there (see `sat::corner_lanes`).
        let load = |row: &[f32; PAIR_LANES]| L::load_from(isa, row);
        let rows = |r: &[[f32; PAIR_LANES]; 3]| [load(&r[0]), load(&r[1]), load(&r[2])];
        let splat = |v: Vec3| [L::splat(isa, v.x), L::splat(isa, v.y), L::splat(isa, v.z)];
        let dot = |[x, y, z]: [L; 3], [a, b, c]: [L; 3]| L::dot3(x, y, z, a, b, c);
        let minus = |p: [L; 3], q: [L; 3]| [p[0].minus(q[0]), p[1].minus(q[1]), p[2].minus(q[2])];
        let scale = |p: [L; 3], s: L| [p[0].mul(s), p[1].mul(s), p[2].mul(s)];
        let zero = L::splat(isa, 0.0);
        // The Gauss-map test.
        let [n0, n1, adc, bdc] = [0, 1, 2, 3].map(|r| load(&self.sides[r]));
        let (cba, dba) = (n0.neg(), n1.neg());
        let crossing = zero
            .gt(cba.mul(dba))
            .and(zero.gt(adc.mul(bdc)))
            .and(cba.mul(bdc).gt(zero));
        // SAT's edge axis: `Vec3::cross`, the parallel test, `Vec3::normalize`, the turn.
        let (tail_a, tail_b) = (rows(&self.tail_a), rows(&self.tail_b));
        let dir_a = minus(rows(&self.head_a), tail_a);
        let dir_b = minus(rows(&self.head_b), tail_b);
        let [ax, ay, az] = dir_a;
        let [bx, by, bz] = dir_b;
        let cross = [
            ay.mul(bz).minus(by.mul(az)),
            az.mul(bx).minus(bz.mul(ax)),
            ax.mul(by).minus(bx.mul(ay)),
        ];
        let cross_squared = dot(cross, cross);
        let least = L::splat(isa, PARALLEL_TOLERANCE * PARALLEL_TOLERANCE)
            .mul(dot(dir_a, dir_a))
            .mul(dot(dir_b, dir_b));
        let crosses = least.le(cross_squared);
        let recip = L::splat(isa, 1.0).div(cross_squared.sqrt());
        let unit = scale(cross, recip);
        let outward = minus(tail_a, splat(centroid_a));
        let inward = zero.gt(dot(unit, outward));
        let turn = |c: L| inward.select(c.neg(), c);
        let axis = [turn(unit[0]), turn(unit[1]), turn(unit[2])];
        // The facing extremes, the shift and the speed.
        let near_a = dot(axis, tail_a);
        let near_b = dot(axis, tail_b);
        let shift = dot(axis, splat(translation));
        let speed = dot(splat(velocity), axis);
        // The witnesses' bounds.
        let far_a = dot(axis, rows(&self.far_a));
        let far_b = dot(axis, rows(&self.far_b)).add(shift);
        let closing = near_a.minus(near_b.add(shift));
        let opening = far_a.minus(far_b);
        let approaching = zero.gt(speed);
        let enter = approaching.select(closing, opening).div(speed);
        let exit = approaching.select(opening, closing).div(speed);
        let still = L::splat(isa, still);
        let moving = speed.gt(still).or(still.neg().gt(speed));
        let mut numbers = EdgePairNumbers {
            axes: crossing.and(crosses).mask_bits(),
            moving: moving.mask_bits(),
            axis: [[0.0; PAIR_LANES]; 3],
            near_a: [0.0; PAIR_LANES],
            near_b: [0.0; PAIR_LANES],
            shift: [0.0; PAIR_LANES],
            speed: [0.0; PAIR_LANES],
            enter: [0.0; PAIR_LANES],
            exit: [0.0; PAIR_LANES],
        };
        for (c, lanes) in axis.into_iter().enumerate() {
            lanes.store_to(&mut numbers.axis[c]);
        }
        near_a.store_to(&mut numbers.near_a);
        near_b.store_to(&mut numbers.near_b);
        shift.store_to(&mut numbers.shift);
        speed.store_to(&mut numbers.speed);
        enter.store_to(&mut numbers.enter);
        exit.store_to(&mut numbers.exit);
        numbers
    }
}

/// [`entry_and_exit`] for four axes at once (`[a.min, a.max, b.min, b.max]` by lane).
#[inline(always)]
fn entry_and_exit_four(
    [a_low, a_high, b_low, b_high]: [Four; 4],
    speed: Four,
    still: f32,
    touch: f32,
) -> (Four, Four) {
    let ahead = speed.gt(Four::splat(still));
    let behind = Four::splat(-still).gt(speed);
    let (closing, opening) = (a_low.minus(b_high), a_high.minus(b_low));
    let enter = ahead.select(closing, opening).div(speed);
    let exit = ahead.select(opening, closing).div(speed);
    let touch = Four::splat(touch);
    let overlap = b_low.le(a_high.add(touch)).and(a_low.le(b_high.add(touch)));
    let (never, always) = (Four::splat(f32::INFINITY), Four::splat(f32::NEG_INFINITY));
    let moving = ahead.or(behind);
    (
        moving.select(enter, overlap.select(always, never)),
        moving.select(exit, overlap.select(never, always)),
    )
}

/// `m` (rows of splatted entries) times four vectors given by coordinate rows.
#[inline(always)]
fn turned(m: &[[Four; 3]; 3], x: [f32; 4], y: [f32; 4], z: [f32; 4]) -> [Four; 3] {
    let (x, y, z) = (Four::load(&x), Four::load(&y), Four::load(&z));
    m.map(|[p, q, r]| Four::dot3(x, y, z, p, q, r))
}

/// The interval of the projections onto `axis` of vertices stored four at a time (padding
/// repeats a vertex, which leaves the extremes unchanged). Everything is finite here.
#[inline(always)]
fn extent(groups: &[[[f32; 4]; 3]], axis: Vec3) -> Interval {
    let (ax, ay, az) = (
        Four::splat(axis.x),
        Four::splat(axis.y),
        Four::splat(axis.z),
    );
    let row = |g: &[[f32; 4]; 3]| {
        Four::dot3(
            Four::load(&g[0]),
            Four::load(&g[1]),
            Four::load(&g[2]),
            ax,
            ay,
            az,
        )
    };
    let first = row(&groups[0]);
    let (mut low, mut high) = (first, first);
    for g in &groups[1..] {
        let d = row(g);
        low = low.min(d);
        high = high.max(d);
    }
    Interval::new(low.min_lane(), high.max_lane())
}

/// The times B's interval enters and leaves A's on an axis where B moves at `speed`
/// (`t_enter > t_exit` when never; see the header).
#[inline(always)]
fn entry_and_exit(ia: Interval, ib: Interval, speed: f32, still: f32, touch: f32) -> (f32, f32) {
    if speed > still {
        ((ia.min - ib.max) / speed, (ia.max - ib.min) / speed)
    } else if speed < -still {
        ((ia.max - ib.min) / speed, (ia.min - ib.max) / speed)
    } else if ib.min <= ia.max + touch && ia.min <= ib.max + touch {
        (f32::NEG_INFINITY, f32::INFINITY)
    } else {
        (f32::INFINITY, f32::NEG_INFINITY)
    }
}

fn time_interval(
    pair: &PolyPair,
    id: AxisId,
    axis: Vec3,
    ia: Interval,
    ib: Interval,
    v: Vec3,
    still: f32,
) -> SweepAxis {
    let speed = v.dot(axis);
    let (t_enter, t_exit) = entry_and_exit(ia, ib, speed, still, pair.touch_tolerance());
    let shift = axis.dot(pair.origin);
    SweepAxis {
        id,
        axis,
        interval_a: ia.shifted(shift),
        interval_b: ib.shifted(shift),
        speed,
        t_enter,
        t_exit,
    }
}

#[cfg(test)]
mod tests;
