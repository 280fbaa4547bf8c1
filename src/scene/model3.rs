//! The 3D scene model: the same RON format as 2D with `dimensions: 3` after `version`.
//!
//! Conventions (said once here and in `docs/scene-format.md`):
//! - World coordinates, y up, right-handed. Lengths have no unit.
//! - A body is a convex polyhedron, a sphere or a capsule (a segment along the local y axis
//!   inflated by a radius) given in its local frame, placed by `position` (where the
//!   local origin goes) and `rotation: (x, y, z)` in degrees about the *world* axes, applied
//!   x first, then y, then z: R = Rz * Ry * Rx.
//! - Normals point from `a` toward `b`; moving `b` by `depth * normal` leaves the pair just
//!   touching. Depths, separations and tolerances are >= 0.

use super::focus::{focus_indices, DEFAULT_SWEEP_TIME};
use super::lesson::Lesson;
use crate::geom3::{Pose3, Shape3, Shape3Kind};
use crate::query::Algorithm;
use crate::query3::pair::BodyRef3;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// The `dimensions` value of a 3D scene.
pub const DIMENSIONS_3D: u32 = 3;

/// The overlays a 3D scene may switch on: the algorithms 3D has.
pub const OVERLAYS_3D: [Algorithm; 5] = crate::query3::pair::PairTrace3::ALGORITHMS;

/// The contact feature pairs an expectation may name (`feature: "face_face"`), in the
/// manifold's own key spelling. Unordered: `vertex_face` whichever body holds the vertex.
pub const FEATURE_NAMES: [&str; 6] = [
    "vertex_face",
    "edge_edge",
    "edge_face",
    "face_face",
    "vertex_edge",
    "vertex_vertex",
];

/// A 3D scene file as written. Unknown fields are errors, as in 2D.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene3 {
    pub version: u32,
    /// Always 3 here; a file without it is a 2D scene.
    pub dimensions: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    pub bodies: Vec<Body3Def>,
    /// The pair the window explains and `trace` follows; default the first two bodies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focus: Option<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<View3>,
    /// Overlays switched on when the scene opens: `Gjk`, `Epa`, `Sat`, `Clip`, `Sweep`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overlays: Vec<Algorithm>,
    /// The sweep covers t in [0, sweep_time]; default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep_time: Option<f32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expect: Vec<Expectation3>,
    /// Present when the scene is a lesson of Help > Lessons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson: Option<Lesson>,
}

/// One 3D body as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Body3Def {
    pub name: String,
    pub shape: Shape3Kind,
    #[serde(default)]
    pub position: Vec3,
    /// Degrees about the world x, then y, then z axes (R = Rz * Ry * Rx).
    #[serde(default)]
    pub rotation: Vec3,
    /// Units per unit time; present (even zero) makes the pair's sweep run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub velocity: Option<Vec3>,
    /// `"#rrggbb"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
}

impl Body3Def {
    /// The pose this entry places the body at (R = Rz * Ry * Rx from the degrees): the one
    /// conversion the loader and the scan both use.
    pub fn pose(&self) -> Pose3 {
        Pose3::from_degrees(self.position, self.rotation)
    }
}

/// The 3D camera: where the eye is and the point it looks at (y is up).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct View3 {
    pub eye: Vec3,
    pub target: Vec3,
}

/// What a 3D pair must give. Everything but `a` and `b` is optional; numbers are compared
/// within `tolerance` (default 1e-4). See `src/scene/expect3.rs` for what each is compared
/// with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation3 {
    pub a: String,
    pub b: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intersecting: Option<bool>,
    /// GJK's distance (0 when intersecting).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<f32>,
    /// GJK's closest point on `a` and on `b` (world), when apart. Pin them only where the
    /// closest points are unique (vertex or edge against something; not two parallel faces).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closest_a: Option<Vec3>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closest_b: Option<Vec3>,
    /// The penetration depth: SAT's (the smallest overlap over all axes) and EPA's (the
    /// distance from the origin to the boundary of A - B) must both match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<f32>,
    /// SAT's separation when apart (the largest gap over all axes; a lower bound of the
    /// distance).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub separation: Option<f32>,
    /// SAT's unit normal (the winning axis), from a toward b.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub normal: Option<Vec3>,
    /// EPA's unit normal, from a toward b. It may differ from SAT's `normal` where several
    /// axes tie on depth (SAT prefers a face axis; EPA takes whichever face of A - B it
    /// reaches first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epa_normal: Option<Vec3>,
    /// Number of points of the contact manifold after reduction (0 when apart).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contacts: Option<u32>,
    /// The manifold's feature pair, one of [`FEATURE_NAMES`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature: Option<String>,
    /// Whether the sweep hits within [0, sweep_time].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit: Option<bool>,
    /// The sweep's time of first contact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t_first: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f32>,
}

impl Expectation3 {
    pub fn tolerance(&self) -> f32 {
        self.tolerance.unwrap_or(1.0e-4)
    }
}

/// A validated 3D body, ready for the queries.
#[derive(Clone, Debug)]
pub struct SceneBody3 {
    pub name: String,
    pub shape: Shape3,
    pub pose: Pose3,
    pub velocity: Option<Vec3>,
    /// RGB.
    pub color: Option<[u8; 3]>,
}

impl SceneBody3 {
    /// The body as the queries take it.
    pub fn body_ref(&self) -> BodyRef3<'_> {
        BodyRef3 {
            shape: self.shape.as_ref(),
            pose: self.pose,
            velocity: self.velocity,
        }
    }

    /// The shape's kind as written in files: `Cuboid`, `Prism`, `Hull`, `Sphere` or
    /// `Capsule`.
    pub fn kind_name(&self) -> &'static str {
        self.shape.kind().name()
    }
}

impl SceneBody3 {
    /// The body as written in a scene file (rotation back in degrees, x then y then z).
    pub fn to_def(&self) -> Body3Def {
        Body3Def {
            name: self.name.clone(),
            shape: self.shape.kind().clone(),
            position: self.pose.position,
            // + 0 writes a turn of -0 degrees as 0.
            rotation: self.pose.rotation_degrees() + Vec3::ZERO,
            velocity: self.velocity,
            color: self
                .color
                .map(|[r, g, b]| format!("#{r:02x}{g:02x}{b:02x}")),
        }
    }
}

impl Scene3 {
    /// An empty 3D scene of the current version.
    pub fn empty() -> Scene3 {
        Scene3 {
            version: super::SCENE_VERSION,
            dimensions: DIMENSIONS_3D,
            title: None,
            notes: None,
            bodies: Vec::new(),
            focus: None,
            view: None,
            overlays: Vec::new(),
            sweep_time: None,
            expect: Vec::new(),
            lesson: None,
        }
    }

    /// The sweep interval's end.
    pub fn sweep_time(&self) -> f32 {
        self.sweep_time.unwrap_or(DEFAULT_SWEEP_TIME)
    }

    /// Indices of the focused pair: the `focus` field, else the first two bodies.
    pub fn focus_indices(&self) -> Option<(usize, usize)> {
        focus_indices(self.bodies.iter().map(|b| b.name.as_str()), &self.focus)
    }
}
