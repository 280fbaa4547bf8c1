//! Box2D v3 through `boxdd-sys`: its C functions called directly, as an engine calls them
//! (the safe `boxdd` wrappers validate every input and take a lock, which is not Box2D's
//! cost). Box2D holds at most 8 vertices per polygon.
//!
//! The calls compared:
//! - `b2CollidePolygons` (radius 0): the contact manifold, in A's frame, with B placed by
//!   its transform relative to A. Box2D returns up to two points and keeps speculative ones
//!   (separation > 0, up to 4 linear slops); a point sits midway between the two bodies.
//! - `b2ShapeDistance`: distance and closest points, the simplex cache zeroed each call (a
//!   cold start, as our GJK always is).
//! - `b2ShapeCast`: linear cast of B against A; it stops at a target gap of one linear slop
//!   (0.005), by design.
//!
//! Box2D v3 has no boolean overlap test on two proxies; the intersection row times
//! `b2ShapeDistance` (distance zero means overlap).

use boxdd_sys::ffi::{
    b2CastOutput, b2CollidePolygons, b2ComputeHull, b2DistanceInput, b2DistanceOutput,
    b2LocalManifold, b2MakePolygon, b2MakeProxy, b2Polygon, b2Rot, b2ShapeCast,
    b2ShapeCastPairInput, b2ShapeDistance, b2ShapeProxy, b2SimplexCache, b2Transform, b2Vec2,
};
use collision_lab::geom::Pose;
use glam::Vec2;

/// The largest polygon Box2D holds.
pub const MAX_VERTICES: usize = 8;

/// Box2D's linear slop: the target gap of `b2ShapeCast`.
pub const LINEAR_SLOP: f32 = 0.005;

/// One polygon in Box2D's two forms: the collision polygon and the distance proxy.
#[derive(Clone, Copy)]
pub struct BoxPolygon {
    polygon: b2Polygon,
    proxy: b2ShapeProxy,
}

fn b2(v: Vec2) -> b2Vec2 {
    b2Vec2 { x: v.x, y: v.y }
}

pub fn glam(v: b2Vec2) -> Vec2 {
    Vec2::new(v.x, v.y)
}

impl BoxPolygon {
    /// Box2D's polygon of these counter-clockwise vertices, or `None` when it has more than 8
    /// or Box2D's hull would drop one (it welds points closer than a linear slop and removes
    /// nearly collinear ones).
    pub fn new(points: &[Vec2]) -> Option<BoxPolygon> {
        if points.len() > MAX_VERTICES {
            return None;
        }
        let points: Vec<b2Vec2> = points.iter().map(|p| b2(*p)).collect();
        let count = points.len() as i32;
        // SAFETY: `points` holds `count` <= 8 initialized vectors; the hull and polygon are
        // plain values, and `b2MakePolygon` is only called on a hull Box2D accepted.
        unsafe {
            let hull = b2ComputeHull(points.as_ptr(), count);
            if hull.count != count {
                return None;
            }
            Some(BoxPolygon {
                polygon: b2MakePolygon(&hull, 0.0),
                proxy: b2MakeProxy(points.as_ptr(), count, 0.0),
            })
        }
    }
}

/// A case's placement as Box2D takes it: B's transform in A's frame, and B's translation
/// over the sweep in A's frame. Built outside the timed loops, like the other libraries'.
#[derive(Clone, Copy)]
pub struct BoxPlacement {
    pub transform: b2Transform,
    pub translation_b: b2Vec2,
}

impl BoxPlacement {
    /// B's pose and velocity (world) seen from A: what `b2CollidePolygons` and
    /// `b2TimeOfImpact` take.
    pub fn new(pose_a: Pose, pose_b: Pose, velocity_b: Vec2) -> BoxPlacement {
        let angle = pose_b.angle - pose_a.angle;
        let to_a = Vec2::from_angle(-pose_a.angle);
        let offset = to_a.rotate(pose_b.position - pose_a.position);
        BoxPlacement {
            transform: b2Transform {
                p: b2(offset),
                q: b2Rot {
                    c: angle.cos(),
                    s: angle.sin(),
                },
            },
            translation_b: b2(to_a.rotate(velocity_b)),
        }
    }
}

/// `b2CollidePolygons` with radius 0, in A's frame.
#[inline]
pub fn collide(a: &BoxPolygon, b: &BoxPolygon, placement: &BoxPlacement) -> b2LocalManifold {
    // SAFETY: both polygons came from `b2MakePolygon`; the transform is a unit rotation.
    unsafe { b2CollidePolygons(&a.polygon, &b.polygon, placement.transform) }
}

/// `b2ShapeDistance` from a zeroed simplex cache, without radii.
#[inline]
pub fn distance(a: &BoxPolygon, b: &BoxPolygon, placement: &BoxPlacement) -> b2DistanceOutput {
    let input = b2DistanceInput {
        proxyA: a.proxy,
        proxyB: b.proxy,
        transform: placement.transform,
        useRadii: false,
    };
    let mut cache = b2SimplexCache {
        count: 0,
        indexA: [0; 3],
        indexB: [0; 3],
    };
    // SAFETY: valid proxies, a zeroed cache, no simplex buffer (capacity 0).
    unsafe { b2ShapeDistance(&input, &mut cache, std::ptr::null_mut(), 0) }
}

/// `b2ShapeCast`: B moves by its translation over t in [0, 1], A stays.
#[inline]
pub fn cast(a: &BoxPolygon, b: &BoxPolygon, placement: &BoxPlacement) -> b2CastOutput {
    let input = b2ShapeCastPairInput {
        proxyA: a.proxy,
        proxyB: b.proxy,
        transform: placement.transform,
        translationB: placement.translation_b,
        maxFraction: 1.0,
        canEncroach: false,
    };
    // SAFETY: valid proxies and a finite translation.
    unsafe { b2ShapeCast(&input) }
}
