use super::focus::{focus_indices, DEFAULT_SWEEP_TIME};
use super::lesson::Lesson;
use crate::geom::{Pose, Shape, ShapeKind};
use crate::query::Algorithm;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// The only scene format version this build reads and writes.
pub const SCENE_VERSION: u32 = 1;

/// Most bodies a scene may hold.
pub const MAX_BODIES: usize = 10_000;

/// A scene file as written. Optional fields are written plainly (RON's `implicit_some`);
/// unknown fields are errors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    pub version: u32,
    /// 2 when written or absent; a 3D scene (`dimensions: 3`) is a `Scene3`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dimensions: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    pub bodies: Vec<BodyDef>,
    /// The pair the window explains; default the first two bodies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focus: Option<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<View>,
    /// Overlays switched on when the scene opens: missing means the window's defaults, a
    /// list (even `[]`, a scene saved with every overlay off) means exactly those.
    /// Written by [`Algorithm`]'s variant names (`Gjk`, `Sat`, ...).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "overlay_list"
    )]
    pub overlays: Option<Vec<Algorithm>>,
    /// The sweep covers t in [0, sweep_time]; default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep_time: Option<f32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expect: Vec<Expectation>,
    /// Present when the scene is a lesson of Help > Lessons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson: Option<Lesson>,
}

/// One body as written: a named shape in its local frame, placed in the world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyDef {
    pub name: String,
    pub shape: ShapeKind,
    #[serde(default)]
    pub position: Vec2,
    /// Degrees, counter-clockwise.
    #[serde(default)]
    pub angle: f32,
    /// Units per unit time; present (even zero) makes the pair's sweep run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub velocity: Option<Vec2>,
    /// `"#rrggbb"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
}

impl BodyDef {
    /// The pose this entry places the body at (the angle turned to radians): the one
    /// conversion the loader and the scan both use.
    pub fn pose(&self) -> Pose {
        Pose::new(self.position, self.angle.to_radians())
    }
}

/// The view: the world rectangle the window shows, `width` x `height` units centred on
/// `center`, so that a scene shows the same region on any canvas (the window fits it: the
/// largest zoom that shows all of it, centred). Files written before views were regions
/// give `zoom` (pixels per unit) instead of `width` and `height`: that zoom is read as the
/// region it showed on [`LEGACY_ZOOM_CANVAS`]. Exactly one of the two forms is given (the
/// loader checks it); saving writes the region.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct View {
    pub center: Vec2,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<f32>,
    /// The old form: pixels per world unit on [`LEGACY_ZOOM_CANVAS`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zoom: Option<f32>,
}

/// The canvas an old file's `zoom` is read on, in pixels: the canvas of the window's first
/// size (1440 x 900) at UI scale 1 with both side panels open, measured on `welcome.ron`
/// and `clip_reference_flip.ron` (both 840 x 756), the window the old views were made in.
pub const LEGACY_ZOOM_CANVAS: Vec2 = Vec2::new(840.0, 756.0);

impl View {
    /// The view showing the world rectangle `size` (width, height) centred on `center`.
    pub fn region(center: Vec2, size: Vec2) -> View {
        View {
            center,
            width: Some(size.x),
            height: Some(size.y),
            zoom: None,
        }
    }

    /// The world size (width, height) to show: the region as written, or what an old
    /// `zoom` showed on [`LEGACY_ZOOM_CANVAS`]. `None` for a view the loader refuses (no
    /// form, or both).
    pub fn extent(&self) -> Option<Vec2> {
        match (self.width, self.height, self.zoom) {
            (Some(w), Some(h), None) => Some(Vec2::new(w, h)),
            (None, None, Some(zoom)) => Some(LEGACY_ZOOM_CANVAS / zoom),
            _ => None,
        }
    }
}

/// What a pair must give, checked by `collision-lab check` and the test suite. Everything
/// but `a` and `b` is optional; numbers are compared within `tolerance` (default 1e-4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    pub a: String,
    pub b: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intersecting: Option<bool>,
    /// GJK distance (0 when intersecting).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<f32>,
    /// Penetration depth (EPA; SAT must agree).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<f32>,
    /// Unit normal from a toward b (EPA's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub normal: Option<Vec2>,
    /// Number of contact points of the clipped manifold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contacts: Option<u32>,
    /// Whether the sweep hits within [0, sweep_time].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit: Option<bool>,
    /// The sweep's time of first contact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t_first: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f32>,
}

impl Expectation {
    pub fn tolerance(&self) -> f32 {
        self.tolerance.unwrap_or(1.0e-4)
    }
}

/// A validated body, ready for the queries.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneBody {
    pub name: String,
    pub shape: Shape,
    pub pose: Pose,
    pub velocity: Option<Vec2>,
    /// RGB.
    pub color: Option<[u8; 3]>,
}

impl SceneBody {
    /// The body as written in a scene file (angle back in degrees).
    pub fn to_def(&self) -> BodyDef {
        BodyDef {
            name: self.name.clone(),
            shape: self.shape.kind().clone(),
            position: self.pose.position,
            angle: self.pose.angle.to_degrees(),
            velocity: self.velocity,
            color: self
                .color
                .map(|[r, g, b]| format!("#{r:02x}{g:02x}{b:02x}")),
        }
    }
}

/// Parses `"#rrggbb"`.
pub fn parse_color(text: &str) -> Option<[u8; 3]> {
    let hex = text.strip_prefix('#')?;
    if hex.len() != 6 || !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

impl Scene {
    /// An empty scene of the current version.
    pub fn empty() -> Scene {
        Scene {
            version: SCENE_VERSION,
            dimensions: None,
            title: None,
            notes: None,
            bodies: Vec::new(),
            focus: None,
            view: None,
            overlays: None,
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

impl SceneBody {
    /// The body as the queries take it.
    pub fn body_ref(&self) -> crate::query::pair::BodyRef<'_> {
        crate::query::pair::BodyRef {
            shape: &self.shape,
            pose: self.pose,
            velocity: self.velocity,
        }
    }
}

/// `overlays` as a plain list in the file: present, even empty, is `Some`; missing is `None`
/// (through `#[serde(default)]`).
mod overlay_list {
    use crate::query::Algorithm;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(
        list: &Option<Vec<Algorithm>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        list.as_deref().unwrap_or(&[]).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Vec<Algorithm>>, D::Error> {
        Vec::<Algorithm>::deserialize(d).map(Some)
    }
}
