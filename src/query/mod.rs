//! The narrow-phase algorithms, one per file, each a function of two placed shapes that
//! returns a named output with a status and records its steps through a [`crate::trace::Tracer`].
//!
//! Conventions shared by every query:
//! - Inputs and outputs are in world coordinates. Inside, each query works in the frame of
//!   [`ShapePair`]: the world shifted so that body A sits at the origin, which keeps `f32`
//!   precision for bodies far from the world origin.
//! - A normal is a unit vector pointing from A toward B: moving B by `depth * normal`
//!   leaves the two shapes just touching.
//! - Depths are >= 0; a separation or distance is >= 0 too and says how far apart they are.
//! - The Minkowski difference is A - B = { a - b }. The shapes overlap exactly when it
//!   contains the origin.

pub mod algorithm;
pub mod bounds;
pub mod clip;
pub mod epa;
pub mod explain;
pub mod gjk;
pub mod minkowski;
pub mod pair;
pub mod sat;
pub mod sweep;

pub use algorithm::Algorithm;

use crate::geom::{Placed, Pose, Shape};
use glam::Vec2;

/// Relative size of the tolerances used to decide "touching": distances below
/// `TOUCH_TOLERANCE * scale` count as zero, where `scale` is the size of the pair
/// (see [`ShapePair::scale`]). About 80 times `f32::EPSILON`: room for the rounding of a few
/// rotations and products, far below anything visible.
pub const TOUCH_TOLERANCE: f32 = 1.0e-5;

/// Two shapes placed in a common work frame whose origin is body A's world position.
#[derive(Clone, Copy, Debug)]
pub struct ShapePair<'a> {
    pub a: Placed<'a>,
    pub b: Placed<'a>,
    /// The world position of the work frame's origin.
    pub origin: Vec2,
}

impl<'a> ShapePair<'a> {
    pub fn new(a: &'a Shape, pose_a: Pose, b: &'a Shape, pose_b: Pose) -> Self {
        let origin = pose_a.position;
        ShapePair {
            a: Placed::new(a, pose_a, origin),
            b: Placed::new(b, pose_b, origin),
            origin,
        }
    }

    /// The same pair with A and B exchanged (same work frame).
    pub fn swapped(&self) -> Self {
        ShapePair {
            a: self.b,
            b: self.a,
            origin: self.origin,
        }
    }

    /// The same pair with B moved by `offset`.
    pub fn with_b_moved(&self, offset: Vec2) -> Self {
        ShapePair {
            b: self.b.translated(offset),
            ..*self
        }
    }

    /// Whether edge normals alone decide every question for this pair: both are polygons
    /// with area and no radius. Otherwise (circles, capsules, segments, points) the axes
    /// from a vertex to the other shape's closest point are needed too, and a sweep has to
    /// check the distance itself.
    pub fn edge_normals_suffice(&self) -> bool {
        let plain = |p: &Placed| p.radius() == 0.0 && p.vertex_count() >= 3;
        plain(&self.a) && plain(&self.b)
    }

    /// A length that sets the scale of the tolerances: the sum of both bounding radii and the
    /// distance between the bodies, at least 1.
    pub fn scale(&self) -> f32 {
        self.scale_and_centroid_offset().0
    }

    /// [`Self::scale`] and the offset from A's centroid to B's it is computed from (GJK starts
    /// its search from that offset too).
    #[inline]
    pub fn scale_and_centroid_offset(&self) -> (f32, Vec2) {
        let reach = self.a.shape.bounding_radius() + self.b.shape.bounding_radius();
        let offset = self.b.centroid() - self.a.centroid();
        ((reach + offset.length()).max(1.0), offset)
    }

    /// Distances below this count as zero for this pair.
    pub fn touch_tolerance(&self) -> f32 {
        TOUCH_TOLERANCE * self.scale()
    }

    /// Bounds on [`ShapePair::touch_tolerance`] without its square root: the distance
    /// between the centroids lies between the larger coordinate of their difference and
    /// the sum of both.
    #[inline]
    pub fn touch_tolerance_bounds(&self) -> (f32, f32) {
        let reach = self.a.shape.bounding_radius() + self.b.shape.bounding_radius();
        let d = (self.b.centroid() - self.a.centroid()).abs();
        let low = TOUCH_TOLERANCE * (reach + d.max_element()).max(1.0);
        let high = TOUCH_TOLERANCE * (reach + (d.x + d.y)).max(1.0);
        (low, high)
    }

    /// An upper bound on [`ShapePair::touch_tolerance`] that places neither centroid: a
    /// placed centroid lies `|c|` from the body's position (a turn keeps lengths), and
    /// `|c| <= |c.x| + |c.y|`, so the centroids lie at most `|tB - tA|_1 + |cA|_1 + |cB|_1`
    /// apart (`t` the positions, `c` the local centroids). Its roundings, and those of the
    /// placed centroids the tolerance is computed from, are a few `f32` ulps of these
    /// lengths: far inside a 0.1 % margin. Always inlined: the clip asks for it on every
    /// manifold, and inlined it is worked out beside the clip rather than after a call.
    #[inline(always)]
    pub fn touch_tolerance_high(&self) -> f32 {
        let reach = self.a.shape.bounding_radius() + self.b.shape.bounding_radius();
        let d = (self.b.translation - self.a.translation).abs()
            + (self.a.shape.centroid().abs() + self.b.shape.centroid().abs());
        TOUCH_TOLERANCE * (reach + (d.x + d.y)).max(1.0)
    }

    /// A work-frame point in world coordinates.
    #[inline]
    pub fn to_world(&self, p: Vec2) -> Vec2 {
        p + self.origin
    }

    /// The support point of the Minkowski difference of the cores, A - B, in `direction`,
    /// with the points of A and B it came from.
    #[inline(always)]
    pub fn support(&self, direction: Vec2) -> SupportPoint {
        let index_a = self.a.support_index(direction);
        let index_b = self.b.support_index(-direction);
        SupportPoint::from_sources(
            self.a.vertex(index_a),
            self.b.vertex(index_b),
            index_a,
            index_b,
        )
    }
}

/// A vertex of the Minkowski difference of the cores, with its sources: `point = on_a - on_b`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SupportPoint {
    pub point: Vec2,
    pub on_a: Vec2,
    pub on_b: Vec2,
    /// Core vertex indices on A and on B.
    pub index_a: u32,
    pub index_b: u32,
}

impl SupportPoint {
    /// `on_a - on_b`, from core vertex `index_a` of A and `index_b` of B.
    #[inline(always)]
    pub fn from_sources(on_a: Vec2, on_b: Vec2, index_a: usize, index_b: usize) -> Self {
        SupportPoint {
            point: on_a - on_b,
            on_a,
            on_b,
            index_a: index_a as u32,
            index_b: index_b as u32,
        }
    }

    /// The same point with its source points moved from the work frame to the world (the
    /// difference itself does not depend on the frame).
    pub fn to_world(self, pair: &ShapePair) -> Self {
        SupportPoint {
            on_a: pair.to_world(self.on_a),
            on_b: pair.to_world(self.on_b),
            ..self
        }
    }

    pub(crate) fn same_sources(&self, other: &SupportPoint) -> bool {
        self.index_a == other.index_a && self.index_b == other.index_b
    }
}

/// One of the two bodies of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Body {
    A,
    B,
}

impl Body {
    pub fn as_str(self) -> &'static str {
        match self {
            Body::A => "a",
            Body::B => "b",
        }
    }

    pub fn other(self) -> Body {
        match self {
            Body::A => Body::B,
            Body::B => Body::A,
        }
    }
}

/// An interval of a projection onto an axis: `min <= max`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Interval {
    pub min: f32,
    pub max: f32,
}

impl Interval {
    pub fn new(min: f32, max: f32) -> Self {
        Interval { min, max }
    }

    /// The interval widened by `r` on both sides (the radius of a rounded shape).
    pub fn inflated(self, r: f32) -> Self {
        Interval::new(self.min - r, self.max + r)
    }

    pub fn shifted(self, by: f32) -> Self {
        Interval::new(self.min + by, self.max + by)
    }
}

impl ShapePair<'_> {
    /// The pair with A moved by `offset_a` and B by `offset_b` (the work frame stays put).
    pub fn translated_both(&self, offset_a: Vec2, offset_b: Vec2) -> Self {
        ShapePair {
            a: self.a.translated(offset_a),
            b: self.b.translated(offset_b),
            origin: self.origin,
        }
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use crate::geom::{Pose, Shape};
    use glam::Vec2;

    pub fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    pub fn at(x: f32, y: f32) -> Pose {
        Pose::new(v(x, y), 0.0)
    }

    pub fn at_deg(x: f32, y: f32, degrees: f32) -> Pose {
        Pose::new(v(x, y), degrees.to_radians())
    }

    pub fn square(half: f32) -> Shape {
        Shape::rect(v(half, half)).unwrap()
    }

    pub fn close(a: f32, b: f32, tol: f32) -> bool {
        (a - b).abs() <= tol
    }

    pub fn close_v(a: Vec2, b: Vec2, tol: f32) -> bool {
        (a - b).length() <= tol
    }
}
