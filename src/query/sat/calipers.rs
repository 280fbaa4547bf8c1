//! SAT for two plain polygons (no radius) of which at least one has more than `SMALL_CORE`
//! vertices, untraced: the calipers pass of `edge_axes` with `BestAxis` (sat.rs), keeping
//! only what the choice of the best axis reads. Most axes cannot beat the best one found
//! so far; for those the pass needs three projections and one compare, and builds no
//! `SatAxis`, computes no `f32::min` (whose NaN handling costs several instructions) and
//! no facing test.
//!
//! Algorithm (the calipers of `edge_axes`, every value the same arithmetic):
//!
//! ```text
//! bound = NaN                               (no best axis yet: every axis is a candidate)
//! for each body X (A, then B), Y the other:
//!     for each edge i of X with a length:  n = X's normal i, turned
//!         Y's lowest and highest vertex on n: the calipers (first axis: support look-ups;
//!             then stepped from the previous ones, with n turned into Y's frame)
//!         high = X's vertex i . n;  own = [high - back_i, high];  other = [low . n, high . n]
//!         if lower(high - other.min, other.max - own.min) > bound: next axis (cannot win)
//!         else: the axis whole (make_axis), shown to BestAxis's rule; bound = best overlap
//! no axis at all: the general path (which tests the fallback axis)
//! ```
//!
//! Why a skipped axis is one `BestAxis` keeps out. Its overlap is `f32::min(x, y)` of the
//! two terms `x = a.max - b.min`, `y = b.max - a.min`; for A's edges these are the two terms
//! above in that order, for B's in the other, and the radii are zero (a plain pair), so
//! widening changes no value (at most the sign of a zero, which no compare sees).
//! `lower(p, q)` is `p < q ? p : q`. If it returns a number v > bound, then either neither
//! term is NaN and v is their minimum, or the other term is NaN and `f32::min` returns v
//! too (it returns the number of a number and a NaN). So the overlap is v > bound = the
//! best overlap: not smaller, not equal, and `BestAxis` keeps its best. When the compare
//! fails (a NaN anywhere, the bound NaN before the first axis or after a NaN best) the axis
//! goes through the rule whole, as in the general path. Guard test:
//! `large_lean_pass_matches_the_general_path_bit_for_bit` (sat.rs).

use super::{edge_axis, finish, general, lower, step_to_extreme};
use super::{SatAxis, SatOutput};
use crate::geom::Placed;
use crate::query::{Body, Interval, ShapePair};
use glam::Vec2;

/// [`super::general`] untraced for a plain pair (both radii zero, at least 3 vertices each)
/// that is not two small polygons: the same output, bit for bit.
pub(super) fn sat_large(pair: &ShapePair) -> SatOutput {
    let mut choice = Choice {
        best: None,
        bound: f32::NAN,
        tested: 0,
    };
    edge_axes_lean(&pair.a, &pair.b, Body::A, &mut choice);
    edge_axes_lean(&pair.b, &pair.a, Body::B, &mut choice);
    match choice.best {
        Some(best) => finish(pair, best, choice.tested),
        // No edge of either polygon has a length.
        None => general(pair, &mut ()),
    }
}

/// The best axis so far, as `BestAxis` keeps it, and the overlap an axis must not exceed to
/// be shown to its rule (NaN: every axis is shown).
struct Choice {
    best: Option<SatAxis>,
    bound: f32,
    tested: u32,
}

impl Choice {
    /// `BestAxis::consider` without the tracer: strictly smaller wins, and on an equal
    /// overlap an axis that faces the contact replaces one that does not.
    /// Out of line: few axes get here.
    #[cold]
    #[inline(never)]
    fn consider(&mut self, axis: SatAxis) {
        let better = |b: SatAxis| {
            axis.overlap < b.overlap
                || (axis.overlap == b.overlap && axis.faces_contact() && !b.faces_contact())
        };
        if self.best.is_none_or(better) {
            self.best = Some(axis);
            self.bound = axis.overlap;
        }
    }
}

/// The edge axes of `own` (body `body`) against `other`, as `edge_axes` steps its calipers,
/// each shown to `choice` only when it may beat the best so far.
#[inline(always)]
fn edge_axes_lean(own: &Placed, other: &Placed, body: Body, choice: &mut Choice) {
    let shape = own.shape;
    let core = other.shape.core();
    let mut edges = shape
        .normals()
        .iter()
        .zip(shape.core())
        .zip(shape.back_extents())
        .enumerate();
    // The first edge with a length starts the calipers with support look-ups.
    let (mut other_low, mut other_high) = loop {
        let Some((i, ((&normal, &vertex), &back))) = edges.next() else {
            return; // no edge with a length
        };
        let n = own.rotation.rotate(normal);
        if n == Vec2::ZERO {
            continue; // a repeated vertex: no edge, no axis
        }
        let (low, high) = (other.support_index(-n), other.support_index(n));
        edge_axis_lean(
            own, other, body, i, n, vertex, back, core[low], core[high], choice,
        );
        break (low, high);
    };
    for (i, ((&normal, &vertex), &back)) in edges {
        let n = own.rotation.rotate(normal);
        if n == Vec2::ZERO {
            continue;
        }
        let local = other.local_direction(n);
        other_low = step_to_extreme(core, other_low, -local);
        other_high = step_to_extreme(core, other_high, local);
        let (low, high) = (core[other_low], core[other_high]);
        edge_axis_lean(own, other, body, i, n, vertex, back, low, high, choice);
    }
}

/// One edge axis: the projections of `edge_axes` (own vertex `vertex` of edge `index`, its
/// back extent `back`, the other body's local extreme vertices `low` and `high`, each placed
/// as `Placed::vertex` places it), the skip test, and the whole axis for a candidate.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn edge_axis_lean(
    own: &Placed,
    other: &Placed,
    body: Body,
    index: usize,
    n: Vec2,
    vertex: Vec2,
    back: f32,
    low: Vec2,
    high: Vec2,
    choice: &mut Choice,
) {
    let top = (own.rotation.rotate(vertex) + own.translation).dot(n);
    let bottom = top - back;
    let other_min = (other.rotation.rotate(low) + other.translation).dot(n);
    let other_max = (other.rotation.rotate(high) + other.translation).dot(n);
    choice.tested += 1;
    // Own high end over the other's low end, and the other's high end over own low end:
    // the overlap's two terms (see the header for why this skip is exact).
    if lower(top - other_min, other_max - bottom) > choice.bound {
        return;
    }
    let own_interval = Interval::new(bottom, top);
    let other_interval = Interval::new(other_min, other_max);
    choice.consider(edge_axis(
        own,
        other,
        body,
        index,
        n,
        own_interval,
        other_interval,
    ));
}
