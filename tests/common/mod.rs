//! Shared generators for the property and oracle tests.
#![allow(dead_code)]

use collision_lab::geom::{Pose, Shape};
use glam::Vec2;
use proptest::prelude::*;

/// A convex polygon: `n` points on an ellipse at sorted random angles (so always convex),
/// with random semi-axes.
pub fn convex_polygon(max_sides: usize) -> impl Strategy<Value = Shape> {
    (
        prop::collection::vec(0.0f32..1.0, 3..=max_sides),
        0.3f32..2.5,
        0.3f32..2.5,
    )
        .prop_filter_map("needs area", |(mut ts, rx, ry)| {
            ts.sort_by(f32::total_cmp);
            ts.dedup_by(|a, b| (*a - *b).abs() < 0.02);
            let points: Vec<Vec2> = ts
                .iter()
                .map(|t| {
                    let a = t * std::f32::consts::TAU;
                    Vec2::new(rx * a.cos(), ry * a.sin())
                })
                .collect();
            let shape = Shape::polygon(points).ok()?;
            (collision_lab::geom::signed_area(shape.core()) > 0.05).then_some(shape)
        })
}

/// Any shape kind: polygons mostly, then circles, capsules and boxes.
pub fn any_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        6 => convex_polygon(10),
        1 => (0.2f32..1.5).prop_map(|r| Shape::circle(r).unwrap()),
        1 => (0.1f32..1.5, 0.1f32..0.8).prop_map(|(h, r)| Shape::capsule(h, r).unwrap()),
        1 => (0.2f32..1.5, 0.2f32..1.5).prop_map(|(x, y)| Shape::rect(Vec2::new(x, y)).unwrap()),
    ]
}

pub fn pose(range: f32) -> impl Strategy<Value = Pose> {
    (-range..range, -range..range, 0.0f32..std::f32::consts::TAU)
        .prop_map(|(x, y, a)| Pose::new(Vec2::new(x, y), a))
}

pub fn moved(p: Pose, by: Vec2) -> Pose {
    Pose::new(p.position + by, p.angle)
}
