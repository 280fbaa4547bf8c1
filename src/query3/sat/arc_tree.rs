//! SAT for large bodies through the arc tree, untraced: a pair that is neither two boxes nor
//! two small bodies, with more than [`EDGE_FRAME_CACHE`] edges on one body and both poses
//! finite ([`uses_arc_tree`]). The face loops are the reference's ([`face_axes`]); the edge
//! pairs are those the larger body's [`crate::geom3::ArcTree`] cannot rule out.
//!
//! Why it gives the reference's answer: a pair the tree leaves out has Gauss-map arcs that
//! cannot cross, so the reference prunes it too; every other pair takes the reference's test
//! on the reference's frames ([`edge_pair_axis`], [`EdgeFrame::new`]). Candidates arrive out
//! of order, so equal separations go to the pair the reference meets first
//! ([`Best::offer_in_order`]); the counts are the reference's (every pair without an axis is
//! pruned).

use super::large::{face_axes, surely_apart, EDGE_FRAME_CACHE};
use super::reference::{edge_pair_axis, finish, prefer, EdgeFrame};
use super::{preference_tolerance, AxisId, Best, Output};
use crate::geom3::Cap;
use crate::query3::{Placed3, PolyPair};
use glam::Vec3;

/// SAT for large bodies ([`uses_arc_tree`]), untraced: the reference's face loops, then the
/// edge pairs the arc tree names ([`arc_tree_edge_pairs`]).
pub(crate) fn sat(pair: &PolyPair) -> Output {
    let (mut tested, mut pruned) = (0u32, 0u32);
    let (face_a, face_b) = face_axes(pair, &mut tested);
    let mut edge = Best::none(AxisId::Edges(0, 0));
    pruned += arc_tree_edge_pairs(pair, pair.a.centroid(), &mut edge, &mut tested);
    let best = prefer(face_a, face_b, edge, preference_tolerance(pair));
    finish(pair, best, tested, pruned)
}

/// Whether the untraced edge-pair search asks a body's [`crate::geom3::ArcTree`] for the edges that may
/// cross (instead of visiting every pair): one body has more edges than
/// [`EDGE_FRAME_CACHE`], and both poses are finite (a NaN pose takes [`super::large`],
/// which reports it).
#[inline]
pub(crate) fn uses_arc_tree(pair: &PolyPair) -> bool {
    let large = pair.a.shape.edges().len().max(pair.b.shape.edges().len()) > EDGE_FRAME_CACHE;
    let finite = |p: &Placed3| p.rotation.is_finite() && p.translation.is_finite();
    large && finite(&pair.a) && finite(&pair.b)
}

/// The edge-pair loop of large bodies, untraced: the same axes, separations and winner as
/// the reference loop, visiting only the pairs the tree cannot rule out. The body with more
/// edges holds the tree; each edge of the other asks it for the edges whose (negated) arcs
/// come near its own, turned into the tree's frame, and each of those pairs takes the
/// reference loop's test ([`edge_pair_axis`], in the work frame). A pair the tree leaves
/// out cannot cross ([`crate::geom3::ArcTree`]), so it would have been pruned; an edge whose arc is too
/// short for a cap is tested against every edge. Candidates arrive out of order, so equal
/// separations go to the pair the reference loop meets first ([`Best::offer_in_order`]).
/// Returns the number of pruned pairs: every pair that gave no axis.
#[inline(never)]
fn arc_tree_edge_pairs(
    pair: &PolyPair,
    centroid_a: Vec3,
    edge: &mut Best,
    tested: &mut u32,
) -> u32 {
    let (a, b) = (&pair.a, &pair.b);
    let (edges_a, edges_b) = (a.shape.edges(), b.shape.edges());
    let tree_is_b = edges_b.len() >= edges_a.len();
    let (asker, holder) = if tree_is_b { (a, b) } else { (b, a) };
    // The asker's stored arcs turned into the holder's frame by one matrix.
    let relative = glam::Mat3::from_quat(holder.rotation.inverse() * asker.rotation);
    let tree = holder.shape.arc_tree();
    let mut axes = 0u32;
    for (k, e) in asker.shape.edges().iter().enumerate() {
        let local = asker.shape.edge_arc(k).map(|v| relative * v);
        // Placed in the work frame only once a pair survives the prefilter.
        let mut frame_k = None;
        let mut visit = |m: usize| {
            if surely_apart(&local, &holder.shape.edge_arc(m)) {
                return;
            }
            let frame_k = *frame_k.get_or_insert_with(|| EdgeFrame::new(asker, e));
            let frame_m = EdgeFrame::new(holder, &holder.shape.edges()[m]);
            let (i, j, frame_a, frame_b) = if tree_is_b {
                (k, m, &frame_k, &frame_m)
            } else {
                (m, k, &frame_m, &frame_k)
            };
            if let Ok((axis, separation)) = edge_pair_axis(frame_a, frame_b, centroid_a, false) {
                edge.offer_in_order(separation, axis, AxisId::Edges(i as u32, j as u32));
                axes += 1;
            }
        };
        // The pair test compares A's arc with B's negated one; the tree holds the holder's
        // own arcs, so the query is the asker's arc negated, whichever body holds the tree
        // (B's negated arc crosses A's arc exactly when B's arc crosses A's negated one).
        match Cap::of_arc(local[0], local[1]) {
            Some(cap) => tree.for_each_near(&cap.negated(), |m| visit(m as usize)),
            None => (0..holder.shape.edges().len()).for_each(&mut visit),
        }
    }
    *tested += axes;
    (edges_a.len() * edges_b.len()) as u32 - axes
}
