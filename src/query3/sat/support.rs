//! The support values of the face axes, shared by the reference and every fast path: how far
//! a body reaches along `-n` for a face normal `n` of the other body, `max over the body of
//! -n . p`, the same value as [`Placed3::support_value`] ([`face_support_value`]).

use crate::geom3::{self, Shape3Kind, HILL_CLIMB_MIN_VERTICES};
use crate::query3::Placed3;
use glam::Vec3;

/// `body.support_value(dir)`, bit for bit, for the face axes. A cuboid's vertices are
/// (+-x, +-y, +-z) in its frame, so its eight dot products `(v.x l.x + v.y l.y) + v.z l.z`
/// differ only in the signs of their three (exactly negated) terms; rounding is monotone, so
/// the largest is the one with every term positive, `(|x l.x| + |y l.y|) + |z l.z|`, which
/// is the value the vertex scan finds. Other small bodies take the largest dot product of a
/// scan that keeps no indices (`Polyhedron::support_value_lanes`, the same bits); bodies of
/// up to 64 vertices scan the same way, larger ones climb from `start` (the previous call's
/// support vertex, updated here): on a convex body every climb ends at a vertex of the
/// largest dot product, and one that starts next door takes a step or two instead of
/// crossing the body.
/// `local` is `dir` in the body's frame, `body.rotation.inverse() * dir` (bit for bit).
#[inline]
pub(super) fn face_support_value(body: &Placed3, dir: Vec3, local: Vec3, start: &mut usize) -> f32 {
    let top = if let Shape3Kind::Cuboid { half_extents: h } = body.shape.kind() {
        Some((h.x * local.x).abs() + (h.y * local.y).abs() + (h.z * local.z).abs())
    } else if body.shape.vertices().len() <= SMALL_BODY {
        // `support_value_lanes` below HILL_CLIMB_MIN_VERTICES, and the scan
        // `searched_support_value` takes up to SMALL_BODY (with `local`, the same bits).
        body.shape.support_value_scan(local)
    } else {
        None
    };
    match top {
        // `body.support_value(dir)`'s own sum, with the same largest dot product.
        Some(top) => top + dir.dot(body.translation),
        None => searched_support_value(body, dir, start),
    }
}

/// Large bodies, and the rare values the index-free scan hands back (zero, no number).
#[cold]
#[inline(never)]
fn searched_support_value(body: &Placed3, dir: Vec3, start: &mut usize) -> f32 {
    let vertices = body.shape.vertices().len();
    if vertices < HILL_CLIMB_MIN_VERTICES {
        return body.support_value(dir);
    }
    let local = body.rotation.inverse() * dir;
    // Up to the small-body bound a scan of every vertex, four at a time, costs less than a
    // climb.
    if vertices <= SMALL_BODY {
        if let Some(top) = body.shape.support_value_scan(local) {
            return top + dir.dot(body.translation);
        }
    }
    // As `body.support_value(dir)`, climbing from `start` instead of vertex 0.
    *start = body.shape.support_climb_from(*start, local);
    body.shape.vertex(*start).dot(local) + dir.dot(body.translation)
}

/// The most vertices and faces a body may have for the small-body pair loop
/// (`small.rs`), and the most edges: a small polyhedron's
/// ([`crate::geom3::SMALL_VERTICES`]), which carries the lanes the loop's tables read. Its
/// arrays live on the stack.
pub(crate) const SMALL_BODY: usize = geom3::SMALL_VERTICES;

pub(crate) const SMALL_EDGES: usize = geom3::SMALL_EDGES;

const _: () = assert!(geom3::SMALL_FACES == SMALL_BODY);

/// Whether a body is small: the small-body fast path's condition (`small.rs`), and the
/// reference's for placing two small bodies' edges as that path does.
#[inline]
pub(crate) fn is_small(body: &Placed3) -> bool {
    let s = body.shape;
    s.vertices().len() <= SMALL_BODY
        && s.face_count() <= SMALL_BODY
        && s.edges().len() <= SMALL_EDGES
}
