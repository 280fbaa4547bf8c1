//! A body's best side without walking its outline, untraced: the usual case of the
//! reference's `best_side` (`reference.rs`), the same side, bit for bit.
//!
//! On a small core (at most 8 vertices) whose edges all have a length and turn clearly more
//! than the collinear tolerance, the best edge is the chosen edge at the support vertex
//! with no walk: the shape stores how far each edge turns into the next
//! (`Shape::turn_cosines`), so no neighbour needs comparing to know that nothing widens.
//! The choice between the two edges at the support vertex is the walk's compare on the
//! same numbers. Otherwise the walk runs. Checked against the reference in the agreement
//! harness (`src/agreement.rs`: the clip along SAT's normal and along directions that tie).

use super::reference::{previous, walk_to_best_side, BestSide, COLLINEAR_TOLERANCE};
use super::EdgeFeature;
use crate::geom::{CoreLanes, Placed, LANE_LIMIT};
use crate::query::Body;
use glam::Vec2;

/// How far below the collinear bound a cosine between two stored (local-frame) normals
/// must lie for [`best_side`] to skip the walk's widening loops. The loops compare the normals
/// turned into the work frame, whose cosine differs from the stored one by a few `f32`
/// roundings (under 1e-6): a cosine this far below the bound is below it in either frame.
pub(super) const COLLINEAR_MARGIN: f32 = 1.0e-5;

/// The reference's `best_side`, without the walk where the side is one edge.
pub(super) fn best_side(shape: &Placed, direction: Vec2, body: Body) -> Option<BestSide> {
    if shape.edge_count() == 0 {
        return None;
    }
    if let Some(edge) = lone_side(shape, direction, body) {
        return Some(BestSide { edge, lone: true });
    }
    walk_to_best_side(shape, direction, body, shape.support_index(direction))
}

/// [`best_side`] in the usual case: the side is one edge, found without walking the outline
/// ([`lone_best_edge`]); `None` when the shape's turns are not stored, when a neighbour is
/// nearly collinear, or (callers check it first) when the shape has no edges.
#[inline(always)]
pub(super) fn lone_side(shape: &Placed, direction: Vec2, body: Body) -> Option<EdgeFeature> {
    let n = shape.vertex_count();
    if let Some(turn_cosines) = shape.shape.turn_cosines() {
        // How squarely every edge faces `direction`, worked out beside the support search
        // rather than after it (the same arithmetic as `shape.normal(e).dot(direction)`).
        let lone = if let Some(lanes) = shape.shape.lanes::<4>() {
            let facing = Facing::new(shape, lanes, direction);
            let k = shape.support_index(direction);
            facing.lone_best_edge(shape, body, previous(k, n), k, turn_cosines)
        } else if let Some(lanes) = shape.shape.lanes::<LANE_LIMIT>() {
            let facing = Facing::new(shape, lanes, direction);
            let k = shape.support_index(direction);
            facing.lone_best_edge(shape, body, previous(k, n), k, turn_cosines)
        } else {
            let k = shape.support_index(direction);
            lone_best_edge(shape, direction, body, previous(k, n), k, turn_cosines)
        };
        return lone;
    }
    None
}

/// Every edge of a small core placed in the work frame, one lane per edge, and how squarely
/// it faces a direction: lane `e` holds `shape.normal(e)` and `shape.normal(e).dot(direction)`,
/// the same arithmetic, so [`Facing::lone_best_edge`] is [`lone_best_edge`] to the bit.
struct Facing<const N: usize> {
    x: [f32; N],
    y: [f32; N],
    facing: [f32; N],
}

impl<const N: usize> Facing<N> {
    #[inline(always)]
    fn new(shape: &Placed, lanes: &CoreLanes<N>, direction: Vec2) -> Self {
        let (cos, sin) = (shape.rotation.x, shape.rotation.y);
        let x: [f32; N] =
            std::array::from_fn(|e| cos * lanes.normal_x[e] - sin * lanes.normal_y[e]);
        let y: [f32; N] =
            std::array::from_fn(|e| sin * lanes.normal_x[e] + cos * lanes.normal_y[e]);
        let facing = std::array::from_fn(|e| x[e] * direction.x + y[e] * direction.y);
        Facing { x, y, facing }
    }

    /// [`lone_best_edge`] from these lanes (`N` a power of two above every edge index, so
    /// `% N` changes no index).
    #[inline(always)]
    fn lone_best_edge(
        &self,
        shape: &Placed,
        body: Body,
        before: usize,
        after: usize,
        turn_cosines: &[f32],
    ) -> Option<EdgeFeature> {
        let (before, after) = (before % N, after % N);
        let chosen = if self.facing[after] >= self.facing[before] {
            after
        } else {
            before
        };
        let normal = Vec2::new(self.x[chosen], self.y[chosen]);
        unwidened_edge(shape, body, chosen, normal, turn_cosines)
    }
}

/// The best side in the usual case, without the walk's loops: every edge of the (small) core has a
/// length, and the chosen edge turns from both neighbours by clearly more than the collinear
/// tolerance, so no widening happens. The choice between the two edges at the support
/// vertex is the same compare on the same numbers; `None` (the caller then walks the loops)
/// when a neighbour is within [`COLLINEAR_MARGIN`] of collinear.
#[inline(always)]
fn lone_best_edge(
    shape: &Placed,
    direction: Vec2,
    body: Body,
    before: usize,
    after: usize,
    turn_cosines: &[f32],
) -> Option<EdgeFeature> {
    let (normal_before, normal_after) = (shape.normal(before), shape.normal(after));
    let (chosen, normal) = if normal_after.dot(direction) >= normal_before.dot(direction) {
        (after, normal_after)
    } else {
        (before, normal_before)
    };
    unwidened_edge(shape, body, chosen, normal, turn_cosines)
}

/// The chosen edge alone, or `None` when a neighbour is within [`COLLINEAR_MARGIN`] of
/// collinear with it (the walk then decides whether to widen): the guard both forms of
/// [`lone_best_edge`] share.
#[inline(always)]
fn unwidened_edge(
    shape: &Placed,
    body: Body,
    chosen: usize,
    normal: Vec2,
    turn_cosines: &[f32],
) -> Option<EdgeFeature> {
    let clear = 1.0 - COLLINEAR_TOLERANCE - COLLINEAR_MARGIN;
    let n = shape.vertex_count();
    if turn_cosines[previous(chosen, n)] >= clear || turn_cosines[chosen] >= clear {
        return None;
    }
    Some(EdgeFeature::single(shape, body, chosen, normal))
}
