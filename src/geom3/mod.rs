//! 3D shapes: convex polyhedra built from a description, poses, and the support function.
//!
//! Conventions used by everything 3D:
//! - A [`Polyhedron`] is convex, with polygonal faces: coplanar triangles of its hull are
//!   merged into one face (a cube has 6 quadrilaterals, 12 edges and 8 vertices).
//! - Face normals are outward unit vectors; a face's vertices run counter-clockwise seen
//!   from outside (right-hand rule about the normal). The face plane is `normal . p = offset`.
//! - Each edge is stored once: it runs `tail -> head` counter-clockwise around `faces[0]`
//!   and `head -> tail` around `faces[1]`.
//! - Angles are degrees in scene files and radians inside; a rotation is a unit quaternion
//!   inside (see [`Pose3`] for the file convention, R = Rz * Ry * Rx about world axes).
//! - Every shape is a convex core inflated by a radius, as in 2D: a polyhedron has radius 0,
//!   a [`Round3`] sphere is a point core and a capsule a segment core along the local y axis
//!   (from (0, -h, 0) to (0, h, 0)). [`Shape3`] holds either kind, validated.

mod arc_tree;
mod hull;
mod polyhedron;
mod pose;
mod prepared;
mod round;

pub use arc_tree::{ArcTree, Cap, ARC_TREE_MARGIN, SHORT_ARC};
pub use hull::{HULL_TOLERANCE, MAX_HULL_POINTS};
pub use polyhedron::{
    FaceView, Polyhedron, FACE_MERGE_ANGLE_DEGREES, HILL_CLIMB_MIN_VERTICES, MAX_PRISM_SIDES,
};
pub use pose::Pose3;
pub use prepared::{
    CuboidEdges, CuboidFaces, FaceEdges, FeatureLanes, Prepared, CUBOID_SUPPORT_CLEARANCE,
    SMALL_EDGES, SMALL_FACES, SMALL_VERTICES,
};
pub use round::{Core3, Round3, Shape3, Shape3Ref};

/// One edge of a polyhedron, stored once: it runs `tail -> head` counter-clockwise around
/// `faces[0]` (seen from outside) and `head -> tail` around `faces[1]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub tail: u32,
    pub head: u32,
    pub faces: [u32; 2],
}

use glam::Vec3;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The largest accepted coordinate magnitude (and size) in a shape description: beyond it
/// `f32` keeps fewer than about 7 significant digits of the millimetre scale the lab uses.
pub const MAX_COORDINATE: f32 = 1.0e6;

/// A convex shape as a person describes it, in the body's local frame. This is also the form
/// stored in scene files: `Cuboid(half_extents: (1, 0.5, 1))`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Shape3Kind {
    /// An axis-aligned box centred on the origin.
    Cuboid { half_extents: Vec3 },
    /// A regular `sides`-gon prism along y, centred on the origin: vertex `k` of each cap at
    /// angle `360 * k / sides` degrees from +x toward +z, at distance `radius` (the
    /// circumradius) from the y axis; the caps at y = +-`half_height`.
    Prism {
        sides: u32,
        radius: f32,
        half_height: f32,
    },
    /// The convex hull of the points. Points that are not corners of the hull (inside it, on
    /// a face or an edge, or repeated) are dropped; [`Polyhedron::dropped_points`] lists them.
    Hull { points: Vec<Vec3> },
    /// A ball of `radius` about the origin: a point core inflated by the radius.
    Sphere { radius: f32 },
    /// The segment from (0, -half_length, 0) to (0, half_length, 0) inflated by `radius`.
    Capsule { half_length: f32, radius: f32 },
}

impl Shape3Kind {
    /// The kind's name as scene files write it: `Cuboid`, `Prism` or `Hull` (the one table
    /// of 3D kind names: messages and panels use it).
    pub fn name(&self) -> &'static str {
        match self {
            Shape3Kind::Cuboid { .. } => "Cuboid",
            Shape3Kind::Prism { .. } => "Prism",
            Shape3Kind::Hull { .. } => "Hull",
            Shape3Kind::Sphere { .. } => "Sphere",
            Shape3Kind::Capsule { .. } => "Capsule",
        }
    }

    /// Whether this is a round kind (a core plus a radius) rather than a polyhedron.
    pub fn is_round(&self) -> bool {
        matches!(self, Shape3Kind::Sphere { .. } | Shape3Kind::Capsule { .. })
    }
}

/// Why a shape description was refused. The message says what is wrong and does not name
/// the body: the scene layer prefixes the body's name.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape3Error {
    /// A hull needs at least 4 points to enclose a volume.
    TooFewPoints { count: usize },
    /// More hull points than [`MAX_HULL_POINTS`].
    TooManyPoints { count: usize },
    /// A number is NaN or infinite.
    NonFinite { what: &'static str },
    /// A coordinate or size beyond [`MAX_COORDINATE`].
    TooLarge { what: &'static str, value: f32 },
    /// A size that must be positive is zero or negative.
    NotPositive { what: &'static str, value: f32 },
    /// A prism needs at least 3 sides, and at most [`MAX_PRISM_SIDES`].
    Sides { sides: u32 },
    /// Every hull point is the same point (within [`HULL_TOLERANCE`]).
    Coincident,
    /// The hull points lie on one line: no area, no volume.
    Collinear,
    /// The hull points lie in one plane: a flat hull has no volume.
    Flat,
    /// A sphere or a capsule where a polyhedron was needed (the kind's name).
    NotPolyhedron { kind: &'static str },
}

impl fmt::Display for Shape3Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape3Error::TooFewPoints { count } => write!(
                f,
                "a hull needs at least 4 points to enclose a volume, got {count}"
            ),
            Shape3Error::TooManyPoints { count } => write!(
                f,
                "a hull takes at most {MAX_HULL_POINTS} points, got {count}"
            ),
            Shape3Error::NonFinite { what } => write!(f, "{what} is not a finite number"),
            Shape3Error::TooLarge { what, value } => write!(
                f,
                "{what} is {value}, beyond the largest accepted magnitude {MAX_COORDINATE}"
            ),
            Shape3Error::NotPositive { what, value } => {
                write!(f, "{what} must be positive, got {value}")
            }
            Shape3Error::Sides { sides } => write!(
                f,
                "a prism needs between 3 and {MAX_PRISM_SIDES} sides, got {sides}"
            ),
            Shape3Error::Coincident => write!(
                f,
                "all hull points are the same point: the hull has no volume"
            ),
            Shape3Error::Collinear => {
                write!(f, "all hull points lie on one line: the hull has no volume")
            }
            Shape3Error::Flat => write!(
                f,
                "all hull points lie in one plane: a flat hull has no volume"
            ),
            Shape3Error::NotPolyhedron { kind } => write!(
                f,
                "a {kind} is round (a core and a radius), not a polyhedron"
            ),
        }
    }
}

impl std::error::Error for Shape3Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_read_as_the_scene_format_writes_them() {
        let cuboid: Shape3Kind = ron::from_str("Cuboid(half_extents: (1, 0.5, 1))").unwrap();
        assert_eq!(
            cuboid,
            Shape3Kind::Cuboid {
                half_extents: Vec3::new(1.0, 0.5, 1.0)
            }
        );
        let prism: Shape3Kind =
            ron::from_str("Prism(sides: 6, radius: 0.8, half_height: 0.4)").unwrap();
        assert_eq!(
            prism,
            Shape3Kind::Prism {
                sides: 6,
                radius: 0.8,
                half_height: 0.4
            }
        );
        let hull: Shape3Kind =
            ron::from_str("Hull(points: [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)])").unwrap();
        let poly = Polyhedron::new(&hull).unwrap();
        assert_eq!(poly.face_count(), 4);
        assert_eq!(
            ron::from_str::<Shape3Kind>(&ron::to_string(&hull).unwrap()).unwrap(),
            hull
        );
        assert!(ron::from_str::<Shape3Kind>("Cuboid(half_extents: (1, 0.5))").is_err());
        assert!(ron::from_str::<Shape3Kind>("Cuboid(half_extents: (1, 1, 1), radius: 1)").is_err());
    }
}
