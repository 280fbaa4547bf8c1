//! Awkward outlines shared by the tests of the lanes and the clip: each stresses one decision
//! of the search for the side a core shows along a direction.

use crate::geom::Shape;
use glam::Vec2;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// A square of half size 1 with a point in the middle of its top side (collinear neighbours).
pub(crate) fn split_top() -> Shape {
    Shape::polygon(vec![
        v(-1.0, -1.0),
        v(1.0, -1.0),
        v(1.0, 1.0),
        v(0.0, 1.0),
        v(-1.0, 1.0),
    ])
    .unwrap()
}

/// A 2 x 1 box with its top-right corner listed twice (a zero-length edge).
pub(crate) fn repeated_point() -> Shape {
    Shape::polygon(vec![
        v(-1.0, -0.5),
        v(1.0, -0.5),
        v(1.0, 0.5),
        v(1.0, 0.5),
        v(-1.0, 0.5),
    ])
    .unwrap()
}

/// The square with its top side bent by 1e-3 rad at x = 0: just past the collinear
/// tolerance.
pub(crate) fn bent_top() -> Shape {
    Shape::polygon(vec![
        v(-1.0, -1.0),
        v(1.0, -1.0),
        v(1.0, 1.0),
        v(0.0, 1.001),
        v(-1.0, 1.0),
    ])
    .unwrap()
}

/// The square with its top-right corner cut off by an edge 1e-6 long: the support along a
/// neighbouring side's normal is a near tie between far-apart indices.
pub(crate) fn cut_corner() -> Shape {
    Shape::polygon(vec![
        v(-1.0, -1.0),
        v(1.0, -1.0),
        v(1.0, 1.0 - 1.0e-6),
        v(1.0 - 1.0e-6, 1.0),
        v(-1.0, 1.0),
    ])
    .unwrap()
}
