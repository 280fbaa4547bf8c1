//! The 3D narrow-phase algorithms, one per file, each recording its steps through a
//! [`crate::trace::Tracer`], as in 2D.
//!
//! Conventions shared by every 3D query:
//! - Inputs and outputs are in world coordinates. Inside, each query works in the frame of
//!   [`PolyPair`]: the world shifted so that body A's position is the origin, which keeps
//!   `f32` precision for bodies far from the world origin.
//! - A normal is a unit vector pointing from A toward B: moving B by `depth * normal`
//!   leaves the two bodies just touching.
//! - Depths are >= 0; a separation is >= 0 too and says how far apart they are along the
//!   best separating axis (a lower bound on their distance).
//! - Tolerances are relative: to the pair's scale ([`PolyPair::scale`]) or a body's size,
//!   each named beside the algorithm that uses it.
//!
//! Entry points: [`sat::sat`], [`manifold::manifold`], [`sweep::sweep`] (with a sphere or a
//! capsule: [`sat_round::sat_round`], [`manifold_round::manifold_round`],
//! [`sweep::sweep_round`]; each with an untraced shorthand), and [`pair::query_pair3`] / [`pair::trace_pair3`] for everything at
//! once; [`explain`] turns each recorded step into a sentence.

mod cuboid_verdict;
pub mod epa;
pub mod explain;
pub mod gjk;
pub mod manifold;
pub mod manifold_round;
pub mod minkowski;
pub mod pair;
pub mod round;
pub mod sat;
pub mod sat_round;
pub mod simplex;
pub mod sweep;

use crate::geom3::{Polyhedron, Pose3};
pub use crate::query::Interval;
use glam::{Mat3A, Quat, Vec3, Vec3A};

/// Relative size of the "touching" tolerance: gaps below `TOUCH_TOLERANCE * scale` count as
/// contact, where `scale` is the size of the pair ([`PolyPair::scale`]). About 80 times
/// `f32::EPSILON`, as in 2D: room for the rounding of a rotation and a few products.
pub const TOUCH_TOLERANCE: f32 = 1.0e-5;

/// A polyhedron placed in the work frame (the world shifted so that body A's position is
/// the origin). Vertices, normals and planes are transformed on the fly, so placing a body
/// costs nothing and allocates nothing.
#[derive(Clone, Copy, Debug)]
pub struct Placed3<'a> {
    pub shape: &'a Polyhedron,
    pub rotation: Quat,
    /// The body's position in the work frame.
    pub translation: Vec3,
    /// `rotation` as a matrix, and its inverse (the transpose): GJK and EPA take a support
    /// point per iteration, and a matrix turns a vector with three multiply-adds where the
    /// quaternion needs two cross products. Kept equal to `rotation` by every constructor.
    frame: Mat3A,
    frame_inverse: Mat3A,
}

impl<'a> Placed3<'a> {
    pub fn new(shape: &'a Polyhedron, pose: &Pose3, origin: Vec3) -> Self {
        let frame = Mat3A::from_quat(pose.rotation);
        Placed3 {
            shape,
            rotation: pose.rotation,
            translation: pose.position - origin,
            frame,
            frame_inverse: frame.transpose(),
        }
    }

    /// Vertex `i` in the work frame.
    #[inline]
    pub fn vertex(&self, i: usize) -> Vec3 {
        self.rotation * self.shape.vertex(i) + self.translation
    }

    /// The outward unit normal of face `i`.
    #[inline]
    pub fn face_normal(&self, i: usize) -> Vec3 {
        self.rotation * self.shape.face_normal(i)
    }

    /// The plane offset of face `i`: `face_normal(i) . p = face_offset(i)` on the face.
    #[inline]
    pub fn face_offset(&self, i: usize) -> f32 {
        self.shape.face_offset(i) + self.face_normal(i).dot(self.translation)
    }

    /// The index of the vertex farthest along `dir` (work frame).
    #[inline]
    pub fn support_index(&self, dir: Vec3) -> usize {
        self.shape.support(self.rotation.inverse() * dir)
    }

    /// The point farthest along `dir`.
    #[inline]
    pub fn support(&self, dir: Vec3) -> Vec3 {
        self.vertex(self.support_index(dir))
    }

    /// The vertex farthest along `dir` (work frame), with its index: the support search of
    /// GJK and EPA, turning vectors with the cached matrices (equal to [`Self::support`] up
    /// to `f32` rounding; ties within rounding may pick another vertex of the same height).
    ///
    /// A cuboid's vertex is found in closed form (the corner with the direction's signs,
    /// [`Polyhedron::cuboid_support`]) wherever that is provably the scan's vertex, and by
    /// the scan elsewhere: the same vertex and the same bits either way. The closed form
    /// takes the scan and its lane merge off the chain from one support point to the next.
    #[inline(always)]
    pub fn support_fast(&self, dir: Vec3) -> (usize, Vec3) {
        let local = Vec3::from(self.frame_inverse * Vec3A::from(dir));
        let (i, corner) = match self.shape.cuboid_support(local) {
            Some(found) => found,
            None => {
                let i = self.shape.support(local);
                (i, self.shape.vertex(i))
            }
        };
        let v = self.frame * Vec3A::from(corner);
        (i, Vec3::from(v) + self.translation)
    }

    /// `max over the body of dir . p`, computed in the body's frame (one rotation, no vertex
    /// transform).
    #[inline]
    pub fn support_value(&self, dir: Vec3) -> f32 {
        let local = self.rotation.inverse() * dir;
        self.shape.vertex(self.shape.support(local)).dot(local) + dir.dot(self.translation)
    }

    /// The interval of the body's projection onto `axis`.
    pub fn project(&self, axis: Vec3) -> Interval {
        // One rotation of the axis into the body's frame serves both ends (rotating the
        // negated axis gives the negated result: the rotation is linear).
        // Both support vertices come from one pass over the vertices (`support_pair`: the
        // same indices as two `support` calls).
        let local = self.rotation.inverse() * axis;
        let (low, high) = self.shape.support_pair(local);
        Interval::new(self.vertex(low).dot(axis), self.vertex(high).dot(axis))
    }

    /// [`Placed3::project`] with the body's vertices already placed (`placed[i]` holding
    /// [`Placed3::vertex`]`(i)`, e.g. from [`Placed3::placed_vertices`]): the same
    /// arithmetic on the same bits, without placing the two support vertices again. For
    /// traced runs, which project both bodies on every axis they record.
    pub fn project_placed(&self, axis: Vec3, placed: &[Vec3]) -> Interval {
        let local = self.rotation.inverse() * axis;
        let (low, high) = self.shape.support_pair(local);
        Interval::new(placed[low].dot(axis), placed[high].dot(axis))
    }

    /// Every vertex placed ([`Placed3::vertex`]), for [`Placed3::project_placed`].
    pub fn placed_vertices(&self) -> Vec<Vec3> {
        (0..self.shape.vertices().len())
            .map(|i| self.vertex(i))
            .collect()
    }

    /// A point strictly inside.
    #[inline]
    pub fn centroid(&self) -> Vec3 {
        self.rotation * self.shape.centroid() + self.translation
    }

    /// The same placement moved by `offset`.
    pub fn translated(self, offset: Vec3) -> Self {
        Placed3 {
            translation: self.translation + offset,
            ..self
        }
    }
}

/// Two polyhedra placed in a common work frame whose origin is body A's world position.
#[derive(Clone, Copy, Debug)]
pub struct PolyPair<'a> {
    pub a: Placed3<'a>,
    pub b: Placed3<'a>,
    /// The world position of the work frame's origin.
    pub origin: Vec3,
}

impl<'a> PolyPair<'a> {
    pub fn new(a: &'a Polyhedron, pose_a: &Pose3, b: &'a Polyhedron, pose_b: &Pose3) -> Self {
        let origin = pose_a.position;
        PolyPair {
            a: Placed3::new(a, pose_a, origin),
            b: Placed3::new(b, pose_b, origin),
            origin,
        }
    }

    /// The same pair with A and B exchanged (same work frame).
    pub fn swapped(&self) -> Self {
        PolyPair {
            a: self.b,
            b: self.a,
            origin: self.origin,
        }
    }

    /// The same pair with B moved by `offset`.
    pub fn with_b_moved(&self, offset: Vec3) -> Self {
        PolyPair {
            b: self.b.translated(offset),
            ..*self
        }
    }

    /// The length that sets the scale of the tolerances: both bounding radii plus the
    /// distance between the bodies' positions.
    pub fn scale(&self) -> f32 {
        self.a.shape.bounding_radius()
            + self.b.shape.bounding_radius()
            + (self.b.translation - self.a.translation).length()
    }

    /// Gaps below this count as contact for this pair.
    pub fn touch_tolerance(&self) -> f32 {
        TOUCH_TOLERANCE * self.scale()
    }

    /// A work-frame point in world coordinates.
    #[inline]
    pub fn to_world(&self, p: Vec3) -> Vec3 {
        p + self.origin
    }
}

/// One of the two bodies of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    A,
    B,
}

impl Side {
    /// `"a"` or `"b"`.
    pub fn key(self) -> &'static str {
        match self {
            Side::A => "a",
            Side::B => "b",
        }
    }

    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use crate::geom3::{Polyhedron, Pose3, Shape3Kind};
    use glam::Vec3;

    pub fn cuboid(x: f32, y: f32, z: f32) -> Polyhedron {
        Polyhedron::new(&Shape3Kind::Cuboid {
            half_extents: Vec3::new(x, y, z),
        })
        .unwrap()
    }

    /// Two bodies of any kinds at their poses, as the round queries take them.
    pub fn round_pair<'a>(
        a: impl Into<crate::geom3::Shape3Ref<'a>>,
        pa: Pose3,
        b: impl Into<crate::geom3::Shape3Ref<'a>>,
        pb: Pose3,
    ) -> super::round::BodyPair3<'a> {
        super::round::BodyPair3::new(a.into(), &pa, b.into(), &pb)
    }

    pub fn at(x: f32, y: f32, z: f32) -> Pose3 {
        Pose3::from_degrees(Vec3::new(x, y, z), Vec3::ZERO)
    }

    pub fn at_deg(p: Vec3, degrees: Vec3) -> Pose3 {
        Pose3::from_degrees(p, degrees)
    }

    /// A repeatable stream of uniform numbers in [lo, hi) from `seed` (a linear
    /// congruential generator, its top 24 bits): random cases without a dependency.
    pub fn uniform(mut seed: u64) -> impl FnMut(f32, f32) -> f32 {
        move |lo: f32, hi: f32| next_uniform(&mut seed, lo, hi)
    }

    /// One step of [`uniform`]'s generator on a caller-held state (for test generators
    /// that keep their state in a struct).
    pub fn next_uniform(state: &mut u64, lo: f32, hi: f32) -> f32 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        lo + (hi - lo) * ((*state >> 40) as f32 / (1u64 << 24) as f32)
    }

    pub fn close(a: f32, b: f32, tol: f32) -> bool {
        (a - b).abs() <= tol
    }

    pub fn close_v(a: Vec3, b: Vec3, tol: f32) -> bool {
        (a - b).length() <= tol
    }
}

#[cfg(test)]
mod tests {
    use super::testing::at_deg;
    use super::*;
    use crate::geom3::Shape3Kind;
    use proptest::prelude::*;

    proptest! {
        /// GJK's support search with the cached matrices finds a vertex as far along the
        /// direction as the quaternion search's, and places it where `vertex` does, both
        /// within `f32` rounding.
        #[test]
        fn support_fast_matches_support(
            degrees in prop::array::uniform3(-180.0f32..180.0),
            position in prop::array::uniform3(-1.0e3f32..1.0e3),
            dir in prop::array::uniform3(-1.0f32..1.0),
            sides in 3u32..12,
        ) {
            let shape = Polyhedron::new(&Shape3Kind::Prism { sides, radius: 1.5, half_height: 0.7 })
                .unwrap();
            let pose = at_deg(Vec3::from(position), Vec3::from(degrees));
            let placed = Placed3::new(&shape, &pose, Vec3::new(10.0, -20.0, 5.0));
            let dir = Vec3::from(dir);
            prop_assume!(dir.length() > 1.0e-3);
            let (i, v) = placed.support_fast(dir);
            let tolerance = 1.0e-5 * (1.0 + placed.translation.length());
            prop_assert!((v - placed.vertex(i)).length() <= tolerance);
            let reference = placed.support(dir).dot(dir);
            prop_assert!((v.dot(dir) - reference).abs() <= tolerance * dir.length());
        }

        /// The traced runs' intervals from vertices placed once are `project`'s, bit for
        /// bit, exact ties (axis-aligned prisms, face-on axes) included.
        #[test]
        fn project_placed_is_project_bit_for_bit(
            quarter_turns in prop::array::uniform3(-4i32..4),
            tilt in prop::array::uniform3(-180.0f32..180.0),
            tilted in any::<bool>(),
            position in prop::array::uniform3(-1.0e3f32..1.0e3),
            axis in prop::array::uniform3(-1i32..=1),
            wobble in prop::array::uniform3(-1.0f32..1.0),
            sides in 3u32..40,
        ) {
            let shape = Polyhedron::new(&Shape3Kind::Prism { sides, radius: 1.5, half_height: 0.7 })
                .unwrap();
            let degrees = if tilted {
                Vec3::from(tilt)
            } else {
                Vec3::from(quarter_turns.map(|q| 90.0 * q as f32))
            };
            let pose = at_deg(Vec3::from(position), degrees);
            let placed = Placed3::new(&shape, &pose, Vec3::new(10.0, -20.0, 5.0));
            let vertices = placed.placed_vertices();
            let grid = Vec3::from(axis.map(|c| c as f32));
            for axis in [grid, grid + 1.0e-3 * Vec3::from(wobble), Vec3::from(wobble)] {
                let (x, y) = (placed.project(axis), placed.project_placed(axis, &vertices));
                prop_assert_eq!(x.min.to_bits(), y.min.to_bits());
                prop_assert_eq!(x.max.to_bits(), y.max.to_bits());
            }
        }
    }
}
