//! SAT in 3D: the face axes of both bodies and the cross products of one edge of each.
//!
//! `reference.rs` holds the algorithm as the textbook gives it, with its pseudo-code, its
//! sources, its conventions and its tolerances: it is the only path that records steps, so
//! what the window, `trace`, the slides and the golden traces show is that loop. Untraced
//! queries ([`sat_test`], or [`sat`] with a tracer that records nothing) take the first fast
//! path that applies, each in its own file, each giving the reference's output to the bit:
//! - `cuboid.rs`: two boxes, Gottschalk's closed forms;
//! - `small.rs`: two small bodies (up to 64 vertices and faces, 128 edges), their Gauss-map
//!   tests in vector lanes or from tables of side values;
//! - `arc_tree.rs`: a larger body with finite poses, whose arc tree names the edge pairs that
//!   may cross;
//! - `large.rs`: the rest (a large body with a pose that is not finite), every edge pair.
//!
//! `support.rs` holds the support values of the face axes, which every path shares. The
//! agreement harness (`src/agreement.rs`) compares each fast path with the reference, bit
//! for bit, on random, tied and degenerate poses.

pub(crate) mod arc_tree;
pub(crate) mod cuboid;
pub(crate) mod large;
mod obb;
pub(crate) mod reference;
pub(crate) mod small;
pub(crate) mod support;
#[cfg(test)]
mod tests;

pub(crate) use cuboid::cuboid_setup;
pub(crate) use large::EdgeFrames;
pub(crate) use reference::{edge_pair_axis, finish_with, EdgeFrame};

use super::{Interval, PolyPair};
use crate::trace::Tracer;
use glam::Vec3;

/// Runs SAT, recording every axis tested and every edge pair skipped: the reference loop
/// when `tracer` records, else the untraced dispatch ([`sat_test`]).
pub fn sat<T: Tracer<Step>>(pair: &PolyPair, tracer: &mut T) -> Output {
    if T::ENABLED {
        reference::sat(pair, tracer)
    } else {
        sat_test(pair)
    }
}

/// Runs SAT without recording, through the first fast path that applies (see the module's
/// header); each gives the reference loop's output to the bit.
pub fn sat_test(pair: &PolyPair) -> Output {
    // Bound by reference: moving the pair out of the `Option` cost a 144-byte copy a query.
    if let Some(boxes) = &cuboid::CuboidPair::new(pair) {
        return boxes.sat(pair);
    }
    if support::is_small(&pair.a) && support::is_small(&pair.b) {
        return small::sat(pair, &mut |_, _| {});
    }
    if arc_tree::uses_arc_tree(pair) {
        return arc_tree::sat(pair);
    }
    large::sat(pair)
}

/// Two edges count as parallel when `|eA x eB| < PARALLEL_TOLERANCE * |eA| * |eB|`, the sine
/// of their angle below 1e-3 (0.06 degrees). The Minkowski difference has no face spanned by
/// two parallel edges (the faces beside them are tested already), and for nearly parallel
/// ones the normalised cross product would carry f32 rounding magnified a thousandfold.
pub const PARALLEL_TOLERANCE: f32 = 1.0e-3;

/// An edge axis beats the best face axis only when its separation is larger by this times
/// the smaller body's size (`reference.rs`'s header, [`preference_tolerance`]): ten times the
/// relative touch tolerance, above the rounding of a rotated box, below anything visible.
pub const AXIS_PREFERENCE_TOLERANCE: f32 = 1.0e-4;

/// The absolute margin by which an edge axis must beat a face axis (and B's face A's):
/// [`AXIS_PREFERENCE_TOLERANCE`] times the smaller body's size (its largest distance from
/// its centroid), at least the pair's touch tolerance (below that, rounding decides).
pub fn preference_tolerance(pair: &PolyPair) -> f32 {
    let smaller = pair
        .a
        .shape
        .centroid_radius()
        .min(pair.b.shape.centroid_radius());
    (AXIS_PREFERENCE_TOLERANCE * smaller).max(pair.touch_tolerance())
}

/// Which axis: a face of A, a face of B, or edge `i` of A crossed with edge `j` of B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AxisId {
    FaceA(u32),
    FaceB(u32),
    Edges(u32, u32),
    /// With round shapes: the direction from A's core to B's core at their closest points
    /// (`sat_round`). A capsule's segment is its edge 0 in [`AxisId::Edges`].
    Closest,
}

impl AxisId {
    /// `"face_a"`, `"face_b"` or `"edges"`.
    pub fn kind_key(&self) -> &'static str {
        match self {
            AxisId::FaceA(_) => "face_a",
            AxisId::FaceB(_) => "face_b",
            AxisId::Edges(..) => "edges",
            AxisId::Closest => "closest",
        }
    }

    pub fn is_face(&self) -> bool {
        matches!(self, AxisId::FaceA(_) | AxisId::FaceB(_))
    }
}

/// Why an edge pair gave no axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// The arcs of the two edges on the Gauss map do not cross: no face of A - B.
    GaussMap,
    /// The edges are parallel within [`PARALLEL_TOLERANCE`].
    Parallel,
}

impl SkipReason {
    pub fn key(self) -> &'static str {
        match self {
            SkipReason::GaussMap => "gauss_map",
            SkipReason::Parallel => "parallel",
        }
    }
}

/// One tested axis. Intervals are world projections onto `axis` (filled only in a trace).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisTest {
    /// The position of this axis among the tested ones, from 0.
    pub ordinal: u32,
    pub id: AxisId,
    /// The unit axis, pointing from A toward B (for B's faces: minus B's face normal).
    pub axis: Vec3,
    pub interval_a: Interval,
    pub interval_b: Interval,
    /// Gap between the bodies along `axis`: positive apart, negative overlapping.
    pub separation: f32,
}

/// One recorded SAT step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    Axis(AxisTest),
    Skipped {
        edge_a: u32,
        edge_b: u32,
        reason: SkipReason,
    },
    /// The `count` edges of B whose Gauss-map arcs do not cross edge `edge_a`'s, in one
    /// step: a large pair's trace holds this in place of one [`Step::Skipped`] step per pair
    /// ([`group_gauss_map_skips`]). The edges of B it stands for are those that no other
    /// step pairs with `edge_a`.
    GaussMapPruned {
        edge_a: u32,
        count: u32,
    },
}

/// Above this many edge pairs a trace groups the Gauss-map skips of each edge of A into one
/// step ([`group_gauss_map_skips`]): two 22-sided prisms (66 edges each) and larger. Below
/// it (two boxes: 144 pairs; the welcome scene's column on the ground: 216) every pair keeps
/// its step. Two 256-point prisms go from 147,716 steps to about 9,000: every tested axis
/// keeps its step, and the ruled-out pairs of each edge of A take one.
pub const GROUPED_ABOVE: usize = 4096;

/// Replaces each run of Gauss-map skips of one edge of A by one [`Step::GaussMapPruned`]
/// step at the place of the first (tested axes and parallel skips keep theirs, in order).
pub fn group_gauss_map_skips(steps: &mut Vec<Step>) {
    let recorded = std::mem::take(steps);
    let mut grouping = GroupingTracer::new(steps);
    for step in recorded {
        grouping.push(step);
    }
}

/// A recording tracer that groups as the steps arrive ([`group_gauss_map_skips`]), so a
/// large pair's Gauss-map skips are never stored one by one: what a large pair's trace
/// records SAT with.
pub struct GroupingTracer<'a> {
    steps: &'a mut Vec<Step>,
    /// The edge of A of the open group, and where it is.
    open: Option<(u32, usize)>,
}

impl<'a> GroupingTracer<'a> {
    pub fn new(steps: &'a mut Vec<Step>) -> Self {
        GroupingTracer { steps, open: None }
    }

    fn push(&mut self, step: Step) {
        let Step::Skipped {
            edge_a,
            reason: SkipReason::GaussMap,
            ..
        } = step
        else {
            self.steps.push(step);
            return;
        };
        match self.open {
            Some((a, k)) if a == edge_a => {
                if let Some(Step::GaussMapPruned { count, .. }) = self.steps.get_mut(k) {
                    *count += 1;
                }
            }
            _ => {
                self.open = Some((edge_a, self.steps.len()));
                self.steps.push(Step::GaussMapPruned { edge_a, count: 1 });
            }
        }
    }
}

impl Tracer<Step> for GroupingTracer<'_> {
    const ENABLED: bool = true;

    #[inline]
    fn record(&mut self, make: impl FnOnce() -> Step) {
        self.push(make());
    }

    /// Most announced steps are pairs that fold into groups: room for a few of them.
    fn reserve(&mut self, additional: usize) {
        self.steps.reserve(additional / 16);
    }
}

/// How SAT ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every axis shows an overlap: depth > 0.
    Overlapping,
    /// The best axis shows a gap within the touch tolerance.
    Touching,
    /// Some axis shows a gap.
    Separated,
    /// A NaN or infinite separation: the input was not finite. Reported as not intersecting.
    NonFinite,
}

impl Status {
    pub fn key(self) -> &'static str {
        match self {
            Status::Overlapping => "overlapping",
            Status::Touching => "touching",
            Status::Separated => "separated",
            Status::NonFinite => "non_finite",
        }
    }
}

/// What SAT found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Output {
    pub intersecting: bool,
    /// The overlap along `normal` when intersecting (>= 0), else 0.
    pub depth: f32,
    /// The gap along `normal` when apart (>= 0), else 0.
    pub separation: f32,
    /// Unit normal of the winning axis, from A toward B.
    pub normal: Vec3,
    pub axis: AxisId,
    /// Face axes plus edge pairs that gave an axis.
    pub axes_tested: u32,
    /// Edge pairs skipped (Gauss map or parallel).
    pub axes_pruned: u32,
    pub status: Status,
}

/// The best axis so far of one kind (round shapes' SAT shares it: `sat_round`).
#[derive(Clone, Copy)]
pub(crate) struct Best {
    pub(crate) separation: f32,
    pub(crate) axis: Vec3,
    pub(crate) id: AxisId,
}

impl Best {
    pub(crate) fn none(id: AxisId) -> Self {
        Best {
            separation: f32::NEG_INFINITY,
            axis: Vec3::X,
            id,
        }
    }

    /// [`Self::offer`] for candidates that arrive in any order: the result is the one
    /// offering them in the exhaustive order (edge pairs by A's edge, then B's) would give.
    /// That order keeps the first of equal separations and the last NaN.
    #[inline]
    pub(crate) fn offer_in_order(&mut self, separation: f32, axis: Vec3, id: AxisId) {
        let key = |id: AxisId| match id {
            AxisId::Edges(i, j) => (i, j),
            _ => (0, 0),
        };
        let earlier = key(id) < key(self.id);
        let takes = if separation.is_nan() {
            !self.separation.is_nan() || !earlier
        } else {
            separation > self.separation || (separation == self.separation && earlier)
        };
        if takes {
            *self = Best {
                separation,
                axis,
                id,
            };
        }
    }

    #[inline]
    pub(crate) fn offer(&mut self, separation: f32, axis: Vec3, id: AxisId) {
        // A NaN is taken so that it is reported, not silently skipped.
        if separation > self.separation || separation.is_nan() {
            *self = Best {
                separation,
                axis,
                id,
            };
        }
    }
}
