//! SAT: the separating axis test, with projection intervals on every candidate axis.
//!
//! The algorithm, its pseudo-code and its sources are in `reference.rs`: the textbook loop
//! over every candidate axis, generic over the [`Tracer`]. It is the only traced path, so
//! what the window, `trace` and the goldens show is that loop.
//!
//! Untraced, [`sat`] takes a fast path where one applies, each in its own file and each
//! giving the reference's output bit for bit (the guard tests are in `tests.rs`):
//! - `small.rs`: two plain polygons (no radius) of at most `SMALL_CORE` vertices, every
//!   edge axis of one body at once, one lane per edge;
//! - `registers.rs`: the same pass in vector registers, for cores of at most 8 vertices;
//! - `calipers.rs`: two plain polygons of which one is larger, the rotating calipers
//!   building only the axes that may win.
//!
//! `projection.rs` holds the two ways the reference and the fast paths project a core on a
//! run of edge normals: every vertex of a small core in fixed lanes, or the rotating
//! calipers' walk.

pub(crate) mod calipers;
mod projection;
pub(crate) mod reference;
pub(crate) mod registers;
pub(crate) mod small;
#[cfg(test)]
pub(crate) mod tests;

pub(crate) use reference::edge_axes;

use super::{Body, Interval, ShapePair};
use crate::trace::Tracer;
use glam::Vec2;

/// Where a candidate axis came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AxisSource {
    /// The outward normal of core edge `index` of `body`.
    Edge { body: Body, index: u32 },
    /// From core vertex `index` of `body` toward the closest point of the other core.
    Vertex { body: Body, index: u32 },
    /// The +x axis, tested when no other axis exists (two circles with the same centre).
    Fallback,
}

impl AxisSource {
    pub fn body(&self) -> Option<Body> {
        match self {
            AxisSource::Edge { body, .. } | AxisSource::Vertex { body, .. } => Some(*body),
            AxisSource::Fallback => None,
        }
    }

    pub fn index(&self) -> u32 {
        match self {
            AxisSource::Edge { index, .. } | AxisSource::Vertex { index, .. } => *index,
            AxisSource::Fallback => 0,
        }
    }

    pub fn kind_str(&self) -> &'static str {
        match self {
            AxisSource::Edge { .. } => "edge",
            AxisSource::Vertex { .. } => "vertex",
            AxisSource::Fallback => "fallback",
        }
    }
}

/// One tested axis, with both projection intervals in world coordinates (projections of
/// world points onto `axis`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatAxis {
    pub source: AxisSource,
    /// Unit direction of the axis.
    pub axis: Vec2,
    pub interval_a: Interval,
    pub interval_b: Interval,
    /// `min(maxA - minB, maxB - minA)`: positive is an overlap, negative a gap.
    pub overlap: f32,
    /// In a recorded step: the best axis among those tested so far, this one included (in
    /// an unrecorded axis, its own source).
    pub best_so_far: AxisSource,
    /// In a recorded step: the best axis so far that this one ties with (the same overlap
    /// within the touch tolerance), which SAT keeps as the earlier of the two.
    pub ties_with: Option<AxisSource>,
}

impl SatAxis {
    /// Which way B has to move along this axis to get out the short way: `axis` or `-axis`,
    /// pointing from A toward B.
    pub fn normal(&self) -> Vec2 {
        let b_above = self.interval_a.max - self.interval_b.min;
        let b_below = self.interval_b.max - self.interval_a.min;
        if b_above <= b_below {
            self.axis
        } else {
            -self.axis
        }
    }

    pub fn separates(&self) -> bool {
        self.overlap < 0.0
    }

    /// Whether the edge this axis came from faces the other body: A's edge normal points
    /// toward B, or B's toward A. Opposite edges of a box give the same axis line and the
    /// same overlap; the one facing the contact is the one to show.
    pub fn faces_contact(&self) -> bool {
        match self.source {
            AxisSource::Edge { body: Body::A, .. } => self.normal().dot(self.axis) > 0.0,
            AxisSource::Edge { body: Body::B, .. } => self.normal().dot(self.axis) < 0.0,
            _ => true,
        }
    }
}

/// What SAT found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatOutput {
    /// No axis shows a gap larger than the touch tolerance.
    pub intersecting: bool,
    /// When intersecting: the smallest overlap, >= 0.
    pub depth: Option<f32>,
    /// When separated: the largest gap found on any axis.
    pub separation: Option<f32>,
    /// Unit normal of the best axis, from A toward B.
    pub normal: Vec2,
    /// The best axis: smallest overlap, or largest gap.
    pub axis: AxisSource,
    pub best: SatAxis,
    pub axes_tested: u32,
}

/// Runs SAT without recording.
pub fn sat_test(pair: &ShapePair) -> SatOutput {
    sat(pair, &mut ())
}

/// Runs SAT, recording every axis tested, including those after the first separating one.
///
/// Traced, and untraced for a round shape (where the vertex axes count), it runs the
/// reference. Untraced, two plain polygons take a fast path: the same output, bit for bit
/// (for poses that are numbers; the guard tests are in `tests.rs`).
pub fn sat<T: Tracer<SatAxis>>(pair: &ShapePair, tracer: &mut T) -> SatOutput {
    if T::ENABLED || !pair.edge_normals_suffice() {
        return reference::sat(pair, tracer);
    }
    if pair.a.vertex_count() <= SMALL_CORE && pair.b.vertex_count() <= SMALL_CORE {
        // Cores of at most 8 vertices with lanes: the small pass in vector registers.
        if registers::applies(pair) {
            return registers::sat_small(pair);
        }
        return small::sat_small(pair);
    }
    calipers::sat_large(pair)
}

/// Cores with at most this many vertices are projected whole on every axis instead of by
/// the calipers' walk: for small polygons a straight pass of multiply-adds and compares
/// costs less than the walk's data-dependent steps.
const SMALL_CORE: usize = 16;
