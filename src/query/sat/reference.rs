//! SAT, the reference: every candidate axis, both shapes projected on it, the least overlap.
//!
//! Algorithm (Gottschalk 1996 and Ericson, *Real-Time Collision Detection*, 4.4 and 5.2.1):
//!
//! ```text
//! for each candidate axis u (a unit vector):
//!     project both shapes: [minA, maxA] and [minB, maxB] on u
//!     overlap(u) = min(maxA - minB, maxB - minA)      negative: a gap along u
//! the shapes overlap iff overlap(u) >= 0 on every candidate axis
//! best axis = the one with the smallest overlap; depth (or separation) = |overlap|,
//! normal = u if B lies on the + side of A along u (maxA - minB is the smaller term), else -u
//! ```
//!
//! Candidate axes, in the order they are tested: the outward edge normals of A's core, then
//! of B's (a segment core has two, a point core none). When either shape is round, also the
//! *vertex axes*: from each core vertex of A, then of B, to the closest point of the other
//! core. When no axis exists at all (two circles with the same centre), the +x axis. For two
//! polygons the edge normals suffice for the overlap test and give the exact penetration
//! depth; the separation they give is a lower bound on the distance (exact when a face is
//! the closest feature). With the vertex axes, round shapes get exact depths and
//! separations too.
//!
//! Conventions. Projections are computed in the work frame centred on A (see
//! `query/mod.rs`) and shifted to world coordinates in what is recorded and returned. The
//! normal points from A toward B. The best axis is the first with the least overlap (A's
//! edges before B's), except that an axis whose edge faces the other body replaces an
//! earlier one of exactly the same overlap that faces away: opposite edges of a box give the
//! same line and the same overlap, and the one facing the contact is the one to show. An
//! overlap that is not a number (a pose that is not) loses to any number below infinity;
//! when no overlap is one, the first axis stands.
//!
//! Tolerance. The shapes touch when the best overlap is a gap no larger than the pair's
//! touch tolerance ([`ShapePair::touch_tolerance`]: a small fraction of the pair's size,
//! the rounding of the projections, not geometry). A recorded axis `ties_with` the best so
//! far when their overlaps are within that tolerance.
//!
//! Projections. On its own edge normal a polygon needs no search: the edge is the high end,
//! and the low end lies a fixed distance behind it (the shape's back extent for that edge,
//! computed once when the shape is built). The other core is projected vertex by vertex
//! when both cores are small; otherwise by rotating calipers: as the edge normals of a
//! convex polygon turn counter-clockwise, the extreme vertices in those directions move
//! forward round the outline, so each is found by stepping from the previous one and the
//! whole test costs O(n + m), not O(n * m) (see `projection.rs`).

use super::projection::{step_to_extreme, SmallCore, Width};
use super::{AxisSource, SatAxis, SatOutput, SMALL_CORE};
use crate::geom::{cross, Placed};
use crate::query::{Body, Interval, ShapePair};
use crate::trace::Tracer;
use glam::Vec2;

/// SAT on any pair, recording every axis tested (with `()`, nothing).
pub(crate) fn sat<T: Tracer<SatAxis>>(pair: &ShapePair, tracer: &mut T) -> SatOutput {
    let mut search = BestAxis {
        pair,
        tracer,
        best: None,
        tested: 0,
    };
    // The edge normals of both cores, A's first.
    edge_axes(&pair.a, &pair.b, Body::A, &mut |axis| search.consider(axis));
    edge_axes(&pair.b, &pair.a, Body::B, &mut |axis| search.consider(axis));
    // A round shape: the vertex axes too.
    if !pair.edge_normals_suffice() {
        vertex_axes(&pair.a, &pair.b, Body::A, &mut |axis| search.consider(axis));
        vertex_axes(&pair.b, &pair.a, Body::B, &mut |axis| search.consider(axis));
    }
    // No axis at all: the +x axis.
    let best = match search.best {
        Some(best) => best,
        None => {
            let fallback = project(pair, Vec2::X, AxisSource::Fallback);
            search.consider(fallback);
            fallback
        }
    };
    finish(pair, best, search.tested)
}

/// Keeps the axis with the smallest overlap and records every axis it is shown.
struct BestAxis<'p, 'a, T> {
    pair: &'p ShapePair<'a>,
    tracer: &'p mut T,
    best: Option<SatAxis>,
    tested: u32,
}

impl<T: Tracer<SatAxis>> BestAxis<'_, '_, T> {
    #[inline]
    fn consider(&mut self, axis: SatAxis) {
        self.tested += 1;
        let pair = self.pair;
        let before = self.best;
        // Strictly smaller wins, so on a tie the earlier axis (A's edges first) is kept,
        // unless the earlier one is the back of a parallel pair (same line, same overlap).
        // A best overlap that is not a number (a pose that is not) loses to any number
        // below infinity.
        let better = |b: SatAxis| {
            axis.overlap < b.overlap
                || (axis.overlap == b.overlap && axis.faces_contact() && !b.faces_contact())
                || (b.overlap.is_nan() && axis.overlap < f32::INFINITY)
        };
        if self.best.is_none_or(better) {
            self.best = Some(axis);
        }
        let best = self.best.map_or(axis.source, |b| b.source);
        self.tracer.record(|| {
            let tie = |b: &SatAxis| (b.overlap - axis.overlap).abs() <= pair.touch_tolerance();
            SatAxis {
                best_so_far: best,
                ties_with: before.filter(tie).map(|b| b.source),
                ..to_world(pair, axis)
            }
        });
    }
}

/// Tests the edge normals of `own` (body `body`) against `other`: for each edge with a
/// length, `own`'s interval from the edge and its back extent, `other`'s from its extreme
/// vertices along the normal. When both cores are small, every vertex of `other` is
/// projected ([`edge_axes_small`]); otherwise the calipers step its lowest and highest
/// vertex round the outline as the normal turns.
pub(crate) fn edge_axes(
    own: &Placed,
    other: &Placed,
    body: Body,
    consider: &mut impl FnMut(SatAxis),
) {
    if own.vertex_count() <= SMALL_CORE && other.vertex_count() <= SMALL_CORE {
        return edge_axes_small(own, other, body, consider);
    }
    let edges = own.edge_count();
    let mut started = false;
    let (mut other_low, mut other_high) = (0, 0);
    for i in 0..edges {
        let n = own.normal(i);
        if n == Vec2::ZERO {
            continue; // a repeated vertex: no edge, no axis
        }
        if started {
            // The calipers step over `other`'s stored (local) vertices, with the normal
            // turned into its frame: the same order of projections, no vertex transformed.
            let local = other.local_direction(n);
            let core = other.shape.core();
            other_low = step_to_extreme(core, other_low, -local);
            other_high = step_to_extreme(core, other_high, local);
        } else {
            other_low = other.support_index(-n);
            other_high = other.support_index(n);
            started = true;
        }
        let own_interval = own_edge_interval(own, i, n);
        let other_interval = Interval::new(
            other.vertex(other_low).dot(n),
            other.vertex(other_high).dot(n),
        );
        consider(edge_axis(
            own,
            other,
            body,
            i,
            n,
            own_interval,
            other_interval,
        ));
    }
}

/// [`edge_axes`] for two small cores: the same axes in the same order, each end of the
/// other body's interval the same projection of the same vertex (the extreme value of a full
/// pass is the value the calipers stop at). The other core is placed once, in fixed lanes
/// of 4, 8 or 16 ([`Width`]).
fn edge_axes_small(own: &Placed, other: &Placed, body: Body, consider: &mut impl FnMut(SatAxis)) {
    match Width::of(other) {
        Width::Four => edge_axes_fixed(own, other, &SmallCore::<4>::new(other), body, consider),
        Width::Eight => edge_axes_fixed(own, other, &SmallCore::<8>::new(other), body, consider),
        Width::Sixteen => edge_axes_fixed(own, other, &SmallCore::<16>::new(other), body, consider),
    }
}

/// The pass of [`edge_axes_small`] with `other`'s core in fixed lanes of `N`.
#[inline]
fn edge_axes_fixed<const N: usize>(
    own: &Placed,
    other: &Placed,
    other_core: &SmallCore<N>,
    body: Body,
    consider: &mut impl FnMut(SatAxis),
) {
    for i in 0..own.edge_count() {
        let n = own.normal(i);
        if n == Vec2::ZERO {
            continue; // a repeated vertex: no edge, no axis
        }
        let (other_low, other_high) = other_core.extent(n);
        consider(edge_axis(
            own,
            other,
            body,
            i,
            n,
            own_edge_interval(own, i, n),
            Interval::new(other_low, other_high),
        ));
    }
}

/// `own`'s core projected on its own edge normal `n` (edge `i`): the edge is the high end,
/// and the low end lies the core's back extent behind it (a property of the shape, so no
/// vertex is projected but the edge's own).
#[inline]
pub(super) fn own_edge_interval(own: &Placed, i: usize, n: Vec2) -> Interval {
    let high = own.vertex(i).dot(n);
    Interval::new(high - own.back_extent(i), high)
}

/// The axis of edge `index` of `own` (body `body`) from both cores' projections on its
/// normal `n`, widened by the radii and put in A, B order.
#[inline]
pub(super) fn edge_axis(
    own: &Placed,
    other: &Placed,
    body: Body,
    index: usize,
    n: Vec2,
    own_core: Interval,
    other_core: Interval,
) -> SatAxis {
    let own_interval = own_core.inflated(own.radius());
    let other_interval = other_core.inflated(other.radius());
    let (a, b) = match body {
        Body::A => (own_interval, other_interval),
        Body::B => (other_interval, own_interval),
    };
    let source = AxisSource::Edge {
        body,
        index: index as u32,
    };
    make_axis(source, n, a, b)
}

/// Tests the axes from each core vertex of `own` toward the closest point of `other`'s core.
fn vertex_axes(own: &Placed, other: &Placed, body: Body, consider: &mut impl FnMut(SatAxis)) {
    for i in 0..own.vertex_count() {
        let p = own.vertex(i);
        let q = closest_point_on_core(other, p);
        let Some(u) = (q - p).try_normalize() else {
            continue; // the vertex is inside or on the other core: no direction
        };
        let source = AxisSource::Vertex {
            body,
            index: i as u32,
        };
        let (a, b) = match body {
            Body::A => (own, other),
            Body::B => (other, own),
        };
        let ia = Interval::new(a.support(-u).dot(u), a.support(u).dot(u)).inflated(a.radius());
        let ib = Interval::new(b.support(-u).dot(u), b.support(u).dot(u)).inflated(b.radius());
        consider(make_axis(source, u, ia, ib));
    }
}

/// Projects both shapes on `axis` by their support points (any axis).
pub(super) fn project(pair: &ShapePair, axis: Vec2, source: AxisSource) -> SatAxis {
    let a = Interval::new(
        pair.a.support(-axis).dot(axis),
        pair.a.support(axis).dot(axis),
    )
    .inflated(pair.a.radius());
    let b = Interval::new(
        pair.b.support(-axis).dot(axis),
        pair.b.support(axis).dot(axis),
    )
    .inflated(pair.b.radius());
    make_axis(source, axis, a, b)
}

/// An axis from both intervals (work frame), its overlap computed.
pub(super) fn make_axis(source: AxisSource, axis: Vec2, a: Interval, b: Interval) -> SatAxis {
    SatAxis {
        source,
        axis,
        interval_a: a,
        interval_b: b,
        overlap: (a.max - b.min).min(b.max - a.min),
        best_so_far: source,
        ties_with: None,
    }
}

/// The output for the best axis (in the work frame) after `tested` axes.
#[inline]
pub(super) fn finish(pair: &ShapePair, best: SatAxis, tested: u32) -> SatOutput {
    finish_inline(pair, best, tested)
}

/// [`finish`], always inlined (the pass written out in SSE builds its output in place).
#[inline(always)]
pub(super) fn finish_inline(pair: &ShapePair, best: SatAxis, tested: u32) -> SatOutput {
    let best = to_world(pair, best);
    // The tolerance (a square root) is needed only when the best overlap is a gap: any
    // overlap >= 0 is within it.
    let intersecting = best.overlap >= 0.0 || best.overlap >= -pair.touch_tolerance();
    SatOutput {
        intersecting,
        depth: intersecting.then_some(best.overlap.max(0.0)),
        separation: (!intersecting).then_some(-best.overlap),
        normal: best.normal(),
        axis: best.source,
        best,
        axes_tested: tested,
    }
}

/// Work-frame projections shifted to world projections.
fn to_world(pair: &ShapePair, axis: SatAxis) -> SatAxis {
    let shift = axis.axis.dot(pair.origin);
    SatAxis {
        interval_a: axis.interval_a.shifted(shift),
        interval_b: axis.interval_b.shifted(shift),
        ..axis
    }
}

/// The point of `core` (a point, a segment or a convex polygon) closest to `p`; `p` itself
/// when `p` is inside.
fn closest_point_on_core(core: &Placed, p: Vec2) -> Vec2 {
    let n = core.vertex_count();
    if n == 1 {
        return core.vertex(0);
    }
    let mut inside = n >= 3;
    let mut best = core.vertex(0);
    let mut best_d = f32::INFINITY;
    for i in 0..n {
        let s = core.vertex(i);
        let e = core.vertex((i + 1) % n) - s;
        if n >= 3 && cross(e, p - s) < 0.0 {
            inside = false; // p is on the outer (right) side of this counter-clockwise edge
        }
        let len2 = e.length_squared();
        let t = if len2 > 0.0 {
            ((p - s).dot(e) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let c = s + t * e;
        let d = (p - c).length_squared();
        if d < best_d {
            best = c;
            best_d = d;
        }
    }
    if inside {
        p
    } else {
        best
    }
}
