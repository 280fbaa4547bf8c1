//! The clip after SAT, untraced: SAT's winning edge handed over as its body's best side,
//! the same manifold as the reference's clip along SAT's normal, bit for bit.
//!
//! Started from SAT's answer (`clip_after_sat`, which `query_pair` runs), when SAT's best
//! axis is edge `i` of one body facing the contact, the normal is that edge's own normal,
//! and the search along it would find edge `i` alone whenever the shape says edge `i`
//! stands clearly above its other vertices and turns clearly from both neighbours
//! (`Shape::clear_faces`, stored with the shape): then edge `i` is that body's best edge and
//! only the other body is searched. When edge `i` faces away (on a box, its opposite side
//! ties it but for rounding), the normal is the back of edge `i`'s, and the face whose
//! stored normal is exactly its negation (`Shape::opposite_face`) is handed over in the
//! same way. The choice of the reference between the two sides stays the reference's.
//! Checked against the reference in the agreement harness (`src/agreement.rs`: the three
//! "clip after SAT" lines, SAT's edge handed over, the opposite face, neither).

use super::lone_side::{best_side, lone_side, COLLINEAR_MARGIN};
use super::reference::{
    clip_chosen, single_point, BestSide, COLLINEAR_TOLERANCE, REFERENCE_PREFERENCE,
};
use super::{contact_manifold, EdgeFeature, Manifold};
use crate::geom::Placed;
use crate::query::sat::{AxisSource, SatOutput};
use crate::query::{Body, ShapePair};
use glam::Vec2;

/// The manifold along SAT's normal, untraced: the reference's, with one search fewer when
/// SAT's winning edge (or the face opposite it) is handed over as its body's best side.
pub(crate) fn contact_manifold_after_sat(pair: &ShapePair, sat: &SatOutput) -> Manifold {
    let h = Handoff::of(pair, sat);
    if let Some(side_x) = h.x_side() {
        // Y's best side is usually one edge (`lone_side`); the other sides are searched
        // out of line ([`clip_handed_searched`]).
        let Some(edge) = (h.y.edge_count() != 0)
            .then(|| lone_side(h.y, -h.toward_y, h.winner.other()))
            .flatten()
        else {
            return clip_handed_searched(pair, sat);
        };
        let side_y = BestSide { edge, lone: true };
        return clip_handed(pair, sat.normal, h.toward_y, h.x_is_b, side_x, Some(side_y));
    }
    contact_manifold(pair, sat.normal)
}

/// SAT's winner X (the body whose edge gave the best axis, A when no edge did) and the other
/// body Y, picked by selects; X's best side faces along `toward_y`.
struct Handoff<'p, 's> {
    winner: Body,
    /// The winning edge of X (`usize::MAX` when no edge won).
    index: usize,
    x_is_b: bool,
    x: &'p Placed<'s>,
    y: &'p Placed<'s>,
    toward_y: Vec2,
}

impl<'p, 's> Handoff<'p, 's> {
    #[inline(always)]
    fn of(pair: &'p ShapePair<'s>, sat: &SatOutput) -> Self {
        let (winner, index) = match sat.axis {
            AxisSource::Edge { body, index } => (body, index as usize),
            _ => (Body::A, usize::MAX),
        };
        let x_is_b = winner == Body::B;
        let (x, y) = if x_is_b {
            (&pair.b, &pair.a)
        } else {
            (&pair.a, &pair.b)
        };
        Handoff {
            winner,
            index,
            x_is_b,
            x,
            y,
            toward_y: if x_is_b { -sat.normal } else { sat.normal },
        }
    }

    /// X's best side when SAT's winning edge hands it over ([`handed_side`]).
    #[inline(always)]
    fn x_side(&self) -> Option<BestSide> {
        handed_side(self.x, self.toward_y, self.winner, self.index)
    }
}

/// [`contact_manifold_after_sat`] when the other body's best side is not one edge (or it
/// has none): the handoff worked out again and that side searched by `best_side`. Out of
/// line on purpose (see `docs/performance.md`).
#[inline(never)]
fn clip_handed_searched(pair: &ShapePair, sat: &SatOutput) -> Manifold {
    let h = Handoff::of(pair, sat);
    let Some(side_x) = h.x_side() else {
        return contact_manifold(pair, sat.normal);
    };
    let side_y = best_side(h.y, -h.toward_y, h.winner.other());
    clip_handed(pair, sat.normal, h.toward_y, h.x_is_b, side_x, side_y)
}

/// The reference's `clip_sides` after a handoff: SAT's winner X's side `side_x` (facing
/// along `toward_y`, which is `normal` or, when X is B, `-normal`) and the other body Y's
/// searched side, without first laying them out as A's and B's. The same choice as
/// `clip_sides`: B's side is the reference when it faces `-normal` more squarely than A's
/// faces `normal` by more than [`REFERENCE_PREFERENCE`]; X's own dot is with `toward_y` and
/// Y's with `-toward_y`, the very vectors `clip_sides` dots them with.
#[inline(always)]
fn clip_handed(
    pair: &ShapePair,
    normal: Vec2,
    toward_y: Vec2,
    x_is_b: bool,
    side_x: BestSide,
    side_y: Option<BestSide>,
) -> Manifold {
    let Some(side_y) = side_y else {
        // Y has no edges: X's side and Y's one point.
        let y_body = if x_is_b { Body::A } else { Body::B };
        return single_point(pair, normal, Some(side_x.edge), y_body, &mut ());
    };
    let x_dot = side_x.edge.normal.dot(toward_y);
    let y_dot = side_y.edge.normal.dot(-toward_y);
    let b_is_reference = if x_is_b {
        x_dot > y_dot + REFERENCE_PREFERENCE
    } else {
        y_dot > x_dot + REFERENCE_PREFERENCE
    };
    let reference_is_x = b_is_reference == x_is_b;
    let (reference_side, incident) = if reference_is_x {
        (side_x, side_y.edge)
    } else {
        (side_y, side_x.edge)
    };
    clip_chosen(
        pair,
        normal,
        reference_side.edge,
        reference_side,
        incident,
        &mut (),
    )
}

/// The best side of `shape` along `direction` when that is SAT's winning axis, edge `i`'s
/// own placed normal or its back: edge `i` alone, or the opposite face, as `best_side`
/// finds it, or `None` when the shape cannot vouch for that (the caller then searches).
///
/// SAT's winning edge `i` usually faces the contact, and `direction` is its normal. On a
/// box or a parallelogram, the opposite side gives the same overlap but for rounding, and
/// SAT may win on the side facing away: `direction` is then the back of edge `i`'s normal,
/// and the side along it is the face whose stored normal is exactly the negation of edge
/// `i`'s ([`opposite_face`](crate::geom::Shape::opposite_face)). Either way, call that
/// edge `f`: the shape vouches with its [`clear_faces`](crate::geom::Shape::clear_faces)
/// bit for `f`, `f`'s placed normal is checked to be `direction` to the bit, and
/// `best_side` would then find edge `f` alone because:
/// - edge `f` is clearly the top of the core along its normal, so the support search
///   returns vertex `f` or `f + 1`;
/// - from vertex `f` it compares edges `f - 1` and `f`, from `f + 1` edges `f` and `f + 1`:
///   `direction` is edge `f`'s normal, whose square is 1 within a few roundings, while a
///   neighbour's normal dotted with it is their stored turn cosine within a few roundings,
///   below `1 - FACE_TURN_CLEARANCE`: edge `f` wins either compare;
/// - every edge has a length and edge `f` turns from both neighbours by more than
///   `lone_best_edge` asks (`FACE_TURN_CLEARANCE` exceeds [`COLLINEAR_TOLERANCE`] plus
///   [`COLLINEAR_MARGIN`]), so it takes edge `f` unwidened.
///
/// Any other `direction` (one that is neither face's placed normal to the bit) is searched.
#[inline(always)]
pub(super) fn handed_side(
    shape: &Placed,
    direction: Vec2,
    body: Body,
    i: usize,
) -> Option<BestSide> {
    if i >= 32 {
        return None;
    }
    let vouched = |face: usize, normal: Vec2| {
        (shape.shape.clear_faces() & (1 << face) != 0 && normal == direction).then(|| BestSide {
            edge: EdgeFeature::single(shape, body, face, normal),
            lone: true,
        })
    };
    let normal = shape.normal(i);
    if normal == direction {
        return vouched(i, normal);
    }
    // SAT's edge faces away: its opposite face, if the shape has one.
    let face = shape.shape.opposite_face(i);
    if face >= 32 {
        return None;
    }
    vouched(face, shape.normal(face))
}

// The faces a shape vouches for turn from their neighbours by more than the best edge's
// own guard asks (see `handed_side`).
const _: () =
    assert!(1.0 - crate::geom::FACE_TURN_CLEARANCE < 1.0 - COLLINEAR_TOLERANCE - COLLINEAR_MARGIN);
