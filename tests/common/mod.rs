//! Shared generators for the property and oracle tests.
#![allow(dead_code)]

pub mod referee3;
pub mod scene_runs;

use collision_lab::geom::{Pose, Shape};
use collision_lab::query::sat::{sat, sat_test, SatAxis};
use collision_lab::query::ShapePair;
use glam::Vec2;
use proptest::prelude::*;

/// A convex polygon: `n` points on an ellipse at sorted random angles (so always convex),
/// with random semi-axes.
pub fn convex_polygon(max_sides: usize) -> impl Strategy<Value = Shape> {
    convex_polygon_sized(3, max_sides)
}

/// A convex polygon with between `min_sides` and `max_sides` vertices (fewer when random
/// angles fall too close together).
pub fn convex_polygon_sized(min_sides: usize, max_sides: usize) -> impl Strategy<Value = Shape> {
    let spacing = 0.2 / max_sides as f32;
    (
        prop::collection::vec(0.0f32..1.0, min_sides.max(3)..=max_sides.max(3)),
        0.3f32..2.5,
        0.3f32..2.5,
    )
        .prop_filter_map("needs area", move |(mut ts, rx, ry)| {
            ts.sort_by(f32::total_cmp);
            ts.dedup_by(|a, b| (*a - *b).abs() < spacing);
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

/// How much the best SAT axis beats the best axis with another normal. Small means the
/// contact normal is not unique (a tie), so normals may legitimately differ.
pub fn normal_margin(p: &ShapePair) -> f32 {
    let mut axes: Vec<SatAxis> = Vec::new();
    sat(p, &mut axes);
    let best = sat_test(p);
    axes.iter()
        .filter(|a| (a.normal() - best.normal).length() > 1e-3)
        .map(|a| a.overlap - best.best.overlap)
        .fold(f32::INFINITY, f32::min)
}

/// splitmix64: a fixed-seed generator so every run tests the same cases.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [lo, hi).
    pub fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}
