//! Shapes, poses and the support function.
//!
//! Conventions used everywhere in the crate:
//! - Polygons are stored counter-clockwise; edge `i` runs from vertex `i` to vertex `i + 1`
//!   and its normal is the outward unit normal (the edge direction turned clockwise).
//! - Angles are radians inside the crate and degrees in scene files.
//! - Every shape is a convex *core* (a polygon, a segment or a point) inflated by a *radius*:
//!   a circle is a point core, a capsule a segment core, a polygon has radius 0.

mod hull;
mod lanes;
mod pose;
mod shape;
#[cfg(test)]
pub(crate) mod test_outlines;

pub use hull::{convex_hull, signed_area};
pub use lanes::{
    CoreLanes, LanesOfWidth, ShapeLanes, SmallLanes, FACE_TURN_CLEARANCE, LANE_LIMIT,
    SUPPORT_CLEARANCE, WIDE_LANES,
};
pub use pose::{Placed, Pose};
pub(crate) use shape::{pseudo_angle, MovedSmallCore};
pub use shape::{
    rounded_outline as rounded_outline_of, Shape, ShapeError, ShapeKind, MAX_COORDINATE,
    MAX_POLYGON_VERTICES,
};

use glam::Vec2;

/// The 2D cross product `a.x * b.y - a.y * b.x`: positive when `b` lies counter-clockwise of `a`.
#[inline]
pub fn cross(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}

/// `v` turned 90 degrees clockwise: for an edge direction of a counter-clockwise polygon
/// this is the outward side.
#[inline]
pub fn right_perp(v: Vec2) -> Vec2 {
    Vec2::new(v.y, -v.x)
}
