use super::Shape;
use glam::Vec2;

/// Where a body is: the world position of its local origin and its counter-clockwise angle
/// in radians.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Pose {
    pub position: Vec2,
    pub angle: f32,
}

impl Pose {
    pub fn new(position: Vec2, angle: f32) -> Self {
        Pose { position, angle }
    }

    /// Maps a point from the body's local frame to the world.
    pub fn transform_point(&self, local: Vec2) -> Vec2 {
        Vec2::from_angle(self.angle).rotate(local) + self.position
    }

    /// Maps a world point into the body's local frame.
    pub fn inverse_transform_point(&self, world: Vec2) -> Vec2 {
        Vec2::from_angle(-self.angle).rotate(world - self.position)
    }
}

/// A shape placed in a *work frame*: the world translated so that body A's position is the
/// origin. Queries run in that frame so that bodies far from the world origin (coordinates
/// near 1e5) keep full `f32` precision relative to each other; results are shifted back to
/// world coordinates on the way out. Directions are the same in both frames.
#[derive(Clone, Copy, Debug)]
pub struct Placed<'a> {
    pub shape: &'a Shape,
    /// `(cos, sin)` of the body's angle.
    pub rotation: Vec2,
    /// The body's position in the work frame.
    pub translation: Vec2,
}

impl<'a> Placed<'a> {
    /// Places `shape` at `pose`, in the work frame whose origin is the world point `origin`.
    pub fn new(shape: &'a Shape, pose: Pose, origin: Vec2) -> Self {
        Placed {
            shape,
            rotation: Vec2::from_angle(pose.angle),
            translation: pose.position - origin,
        }
    }

    /// The same placement moved by `offset`.
    pub fn translated(self, offset: Vec2) -> Self {
        Placed {
            translation: self.translation + offset,
            ..self
        }
    }

    /// The core's radius (0 for polygons).
    #[inline]
    pub fn radius(&self) -> f32 {
        self.shape.radius()
    }

    /// Number of core vertices (1 for a circle, 2 for a capsule).
    #[inline]
    pub fn vertex_count(&self) -> usize {
        self.shape.core().len()
    }

    /// Number of core edges: a point has none, a segment two (one per side), a polygon `n`.
    #[inline]
    pub fn edge_count(&self) -> usize {
        self.shape.edge_count()
    }

    /// Core vertex `i` in the work frame.
    #[inline]
    pub fn vertex(&self, i: usize) -> Vec2 {
        self.rotation.rotate(self.shape.core()[i]) + self.translation
    }

    /// Outward unit normal of core edge `i` in the work frame (zero for a zero-length edge).
    #[inline]
    pub fn normal(&self, i: usize) -> Vec2 {
        self.rotation.rotate(self.shape.normals()[i])
    }

    /// How far the core reaches behind core edge `i` (see [`Shape::back_extent`]).
    #[inline]
    pub fn back_extent(&self, i: usize) -> f32 {
        self.shape.back_extent(i)
    }

    /// The index of the core vertex farthest along `direction` (a work-frame direction).
    #[inline(always)]
    pub fn support_index(&self, direction: Vec2) -> usize {
        self.shape.support_index(self.local_direction(direction))
    }

    /// The core vertex farthest along `direction`.
    #[inline]
    pub fn support(&self, direction: Vec2) -> Vec2 {
        self.vertex(self.support_index(direction))
    }

    /// The farthest point of the whole (inflated) shape along `direction`.
    pub fn support_with_radius(&self, direction: Vec2) -> Vec2 {
        self.support(direction) + self.radius() * direction.normalize_or_zero()
    }

    /// Work-frame position of the shape's centroid.
    pub fn centroid(&self) -> Vec2 {
        self.rotation.rotate(self.shape.centroid()) + self.translation
    }

    /// A work-frame direction in the shape's local frame.
    #[inline]
    pub fn local_direction(&self, d: Vec2) -> Vec2 {
        // Rotating by the conjugate of (cos, sin) undoes the body's rotation.
        Vec2::new(
            self.rotation.x * d.x + self.rotation.y * d.y,
            self.rotation.x * d.y - self.rotation.y * d.x,
        )
    }
}
