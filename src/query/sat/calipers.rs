//! SAT for two plain polygons (no radius) of which at least one has more than `SMALL_CORE`
//! vertices, untraced: the reference's calipers pass (`edge_axes` with `BestAxis`,
//! `reference.rs`), keeping only what the choice of the best axis reads. Most axes cannot
//! beat the best one found so far; for those the pass needs three projections and one
//! compare, and builds no `SatAxis`.
//!
//! Algorithm (the calipers of `edge_axes`, every value the same arithmetic):
//!
//! ```text
//! bound = NaN                               (no best axis yet: every axis is a candidate)
//! for each body X (A, then B), Y the other:
//!     for each edge i of X with a length:  n = X's normal i, turned
//!         Y's lowest and highest vertex on n: the calipers (first axis: support look-ups;
//!             then stepped from the previous ones, with n turned into Y's frame)
//!         quick: the two overlap terms from numbers at hand (below); if their lower one
//!             exceeds bound + margin: next axis (cannot win)
//!         high = X's vertex i . n;  own = [high - back_i, high];  other = [low . n, high . n]
//!         if lower(high - other.min, other.max - own.min) > bound: next axis (cannot win)
//!         else: the axis whole (make_axis), shown to BestAxis's rule; bound = best overlap
//! no axis at all: the reference (which tests the fallback axis)
//! ```
//!
//! The quick test. Placing three vertices in the work frame costs more than the rest of an
//! axis, and almost every axis is far from the best. Without placing anything, the terms
//! are nearly known: the calipers' last compares read `low . (-m)` and `high . m` (`m` the
//! direction turned into Y's frame), X's vertex `v` dots with its stored normal `e` in X's
//! own frame (a rotation keeps dot products), and the bodies' translations add
//! `(t_X - t_Y) . n`:
//!
//! ```text
//! term 1 ~ v . e + (t_X - t_Y) . n + low . (-m)
//! term 2 ~ high . m - (t_X - t_Y) . n - v . e + back_i
//! ```
//!
//! Each differs from the placed term by rounding only: a few units of the last place of the
//! numbers involved, whose sizes are bounded by the pair's scale `S` (each body's farthest
//! vertex from its own origin plus the length of its translation). Counting every rounding
//! of both ways of computing a term (the rotations, which are orthogonal only to about
//! 5 units of `f32::EPSILON / 2`, the sums and the dot products) bounds the difference by
//! about `12 EPSILON S`; the margin is [`QUICK_MARGIN`] `EPSILON S`, five times that. So an
//! axis the quick test skips has both placed terms above the bound, and the placed test
//! would skip it too. A NaN anywhere fails the compare and takes the placed test; a scale
//! that is not finite makes the margin infinite or NaN, and every axis takes it. Test:
//! `quick_terms_stay_well_inside_their_margin` (tests.rs) measures the difference.
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
//! goes through the rule whole, as in the reference. Guard test:
//! `large_lean_pass_matches_the_reference_bit_for_bit` (tests.rs).

use super::projection::{lower, step_to_extreme_valued};
use super::reference::{edge_axis, finish};
use super::{SatAxis, SatOutput};
use crate::geom::Placed;
use crate::query::{Body, Interval, ShapePair};
use glam::Vec2;

/// The reference's SAT untraced for a plain pair (both radii zero, at least 3 vertices each)
/// that is not two small polygons: the same output, bit for bit.
pub(crate) fn sat_large(pair: &ShapePair) -> SatOutput {
    let margin = QUICK_MARGIN * f32::EPSILON * (reach(&pair.a) + reach(&pair.b));
    let mut choice = Choice {
        best: None,
        bound: f32::NAN,
        quick_bound: f32::NAN,
        margin,
        tested: 0,
    };
    edge_axes_lean(&pair.a, &pair.b, Body::A, &mut choice);
    edge_axes_lean(&pair.b, &pair.a, Body::B, &mut choice);
    match choice.best {
        Some(best) => finish(pair, best, choice.tested),
        // No edge of either polygon has a length.
        None => super::reference::sat(pair, &mut ()),
    }
}

/// How many `f32::EPSILON`s of the pair's scale the quick test leaves between its terms and
/// the bound: five times the rounding it has to cover (see the header).
pub(super) const QUICK_MARGIN: f32 = 64.0;

/// A body's part of the pair's scale for the quick test: an upper bound on the length of
/// any of its core vertices in its own frame (its centroid's distance from its origin plus
/// its bounding radius, which is measured from the centroid), plus its translation's length.
pub(super) fn reach(body: &Placed) -> f32 {
    let shape = body.shape;
    shape.centroid().length() + shape.bounding_radius() + body.translation.length()
}

/// The best axis so far, as `BestAxis` keeps it, and the overlap an axis must not exceed to
/// be shown to its rule (NaN: every axis is shown); the quick test's bar is that plus the
/// margin.
struct Choice {
    best: Option<SatAxis>,
    bound: f32,
    quick_bound: f32,
    margin: f32,
    tested: u32,
}

impl Choice {
    /// `BestAxis::consider` without the tracer: strictly smaller wins, and on an equal
    /// overlap an axis that faces the contact replaces one that does not, and an overlap
    /// below infinity replaces one that is not a number.
    /// Out of line: few axes get here.
    #[cold]
    #[inline(never)]
    fn consider(&mut self, axis: SatAxis) {
        let better = |b: SatAxis| {
            axis.overlap < b.overlap
                || (axis.overlap == b.overlap && axis.faces_contact() && !b.faces_contact())
                || (b.overlap.is_nan() && axis.overlap < f32::INFINITY)
        };
        if self.best.is_none_or(better) {
            self.best = Some(axis);
            self.bound = axis.overlap;
            self.quick_bound = axis.overlap + self.margin;
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
    // The translations' part of the quick terms.
    let offset = own.translation - other.translation;
    // The axes the quick test skips, counted as tested at the end.
    let mut skipped = 0;
    for (i, ((&normal, &vertex), &back)) in edges {
        let n = own.rotation.rotate(normal);
        if n == Vec2::ZERO {
            continue;
        }
        let local = other.local_direction(n);
        let below;
        (other_low, below) = step_to_extreme_valued(core, other_low, -local);
        let above;
        (other_high, above) = step_to_extreme_valued(core, other_high, local);
        let (top, shift) = (vertex.dot(normal), offset.dot(n));
        if quick_skip(top, shift, below, above, back, choice.quick_bound) {
            skipped += 1;
            continue;
        }
        let (low, high) = (core[other_low], core[other_high]);
        edge_axis_lean(own, other, body, i, n, vertex, back, low, high, choice);
    }
    choice.tested += skipped;
}

/// The quick test (see the header): whether the lower of the two overlap terms, from X's
/// vertex's projection on its own normal `top`, the translations' `shift`, the calipers'
/// `below` (`low . -m`) and `above` (`high . m`), and the back extent, exceeds `quick_bound`
/// (the bound plus the margin). False on a NaN.
#[inline(always)]
pub(super) fn quick_skip(
    top: f32,
    shift: f32,
    below: f32,
    above: f32,
    back: f32,
    quick_bound: f32,
) -> bool {
    let (first, second) = quick_terms(top, shift, below, above, back);
    lower(first, second) > quick_bound
}

/// The quick test's two terms, in the order of the placed ones.
#[inline(always)]
pub(super) fn quick_terms(top: f32, shift: f32, below: f32, above: f32, back: f32) -> (f32, f32) {
    ((top + shift) + below, (above - shift) - top + back)
}

/// One edge axis: the projections of `edge_axes` (own vertex `vertex` of edge `index`, its
/// back extent `back`, the other body's local extreme vertices `low` and `high`, each placed
/// as `Placed::vertex` places it), the skip test, and the whole axis for a candidate.
/// Out of line: after the quick test few axes get here, and the loop keeps its registers.
#[inline(never)]
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
