//! Loading 3D scenes: telling a 3D file from a 2D one (`dimensions`), parsing it with
//! positioned errors, and validating it into runnable bodies. Shares the 2D loader's
//! preflight (size, UTF-8, nesting) and error form `FILE:LINE:COL: message`.

use super::checks::{
    body_color, check_body_count, check_expectation_normal, check_expectation_numbers,
    check_sweep_time, check_version, in_body, BodyNames,
};
use super::model::{Scene, SceneBody};
use super::model3::{Scene3, SceneBody3, DIMENSIONS_3D, FEATURE_NAMES, OVERLAYS_3D};
use super::source::{
    check_number, describe_ron_error, parse_validated, prepare, read_scene_text, scene_dimensions,
    Invalid, SceneError,
};
use crate::geom3::Shape3;
use glam::Vec3;
use std::path::Path;

/// A loaded scene of either dimension.
#[derive(Clone, Debug)]
pub enum LoadedScene {
    Two(Scene, Vec<SceneBody>),
    Three(Scene3, Vec<SceneBody3>),
}

/// Reads a scene file of either dimension.
pub fn load_any_scene_file(path: &Path) -> Result<LoadedScene, SceneError> {
    let (file, text) = read_scene_text(path)?;
    parse_any_scene(&text, &file)
}

/// Parses scene text of either dimension: 3D when it says `dimensions: 3`, else 2D.
pub fn parse_any_scene(text: &str, file: &str) -> Result<LoadedScene, SceneError> {
    let prepared = prepare(text, file)?;
    match scene_dimensions(prepared) {
        Some((DIMENSIONS_3D, _)) => {
            parse_scene3(text, file).map(|(scene, bodies)| LoadedScene::Three(scene, bodies))
        }
        _ => super::parse_scene(text, file).map(|(scene, bodies)| LoadedScene::Two(scene, bodies)),
    }
}

/// The 3D scene as RON text, in the same form as a 2D one.
pub fn scene3_to_string(scene: &Scene3) -> String {
    super::file::to_ron(scene)
}

/// Saves a 3D scene without ever leaving a damaged file (see [`super::save_scene_atomic`]).
pub fn save_scene3_atomic(path: &Path, scene: &Scene3) -> std::io::Result<()> {
    super::file::write_atomic(path, scene3_to_string(scene).as_bytes())
}

/// Reads, parses and validates a 3D scene file.
pub fn load_scene3_file(path: &Path) -> Result<(Scene3, Vec<SceneBody3>), SceneError> {
    let (file, text) = read_scene_text(path)?;
    parse_scene3(&text, &file)
}

/// Parses and validates 3D scene text; `file` names it in errors.
pub fn parse_scene3(text: &str, file: &str) -> Result<(Scene3, Vec<SceneBody3>), SceneError> {
    let text = prepare(text, file)?;
    parse_validated(text, file, describe_ron_error_3d, validate3)
}

/// The 2D shape names, recognised in a 3D file to say what went wrong (`Capsule` is both:
/// in 3D its segment runs along y).
const SHAPES_2D: [&str; 4] = ["Polygon", "Box", "Regular", "Circle"];

/// RON's message, with a sentence added for the mistakes a 2D habit makes in a 3D file.
fn describe_ron_error_3d(code: &ron::Error) -> String {
    let base = describe_ron_error(code);
    match code {
        ron::Error::NoSuchEnumVariant { found, .. } if SHAPES_2D.contains(&found.as_str()) => {
            format!("{base}: `{found}` is a 2D shape; a 3D scene (dimensions: 3) takes Cuboid, Prism, Hull, Sphere or Capsule")
        }
        ron::Error::NoSuchStructField { found, .. } if found == "angle" => format!(
            "{base}: a 3D body turns by `rotation: (x, y, z)` in degrees, not by `angle`"
        ),
        ron::Error::NoSuchStructField { found, .. } if found == "center" || found == "zoom" => {
            format!("{base}: a 3D view is `view: (eye: (x, y, z), target: (x, y, z))`")
        }
        ron::Error::ExpectedDifferentLength { found, .. } => format!(
            "{base}: in a 3D scene every position, rotation, velocity, point and normal has three numbers (x, y, z), this one has {found}"
        ),
        _ => base,
    }
}

fn check_vec3(what: &str, v: Vec3) -> Result<(), String> {
    check_number(what, v.x)?;
    check_number(what, v.y)?;
    check_number(what, v.z)
}

/// Checks everything the parser cannot: version, names, numbers, shapes, references.
fn validate3(scene: &Scene3) -> Result<Vec<SceneBody3>, Invalid> {
    check_version(scene.version)?;
    if scene.dimensions != DIMENSIONS_3D {
        return Err((
            Some("dimensions".into()),
            format!("dimensions must be 2 or 3, it is {}", scene.dimensions),
        ));
    }
    check_body_count(scene.bodies.len())?;
    let mut names = BodyNames::default();
    let mut bodies = Vec::with_capacity(scene.bodies.len());
    for def in &scene.bodies {
        names.add(&def.name)?;
        let in_body = |m: String| in_body(&def.name, m);
        check_vec3("position", def.position).map_err(in_body)?;
        check_vec3("rotation", def.rotation).map_err(in_body)?;
        if let Some(v) = def.velocity {
            check_vec3("velocity", v).map_err(in_body)?;
        }
        let color = body_color(&def.name, &def.color)?;
        let shape =
            Shape3::new(&def.shape).map_err(|e| in_body(format!("{}: {e}", def.shape.name())))?;
        bodies.push(SceneBody3 {
            name: def.name.clone(),
            shape,
            pose: def.pose(),
            velocity: def.velocity,
            color,
        });
    }
    names.check_focus(&scene.focus)?;
    if let Some(view) = &scene.view {
        check_vec3("view eye", view.eye).map_err(|m| (Some("eye".into()), m))?;
        check_vec3("view target", view.target).map_err(|m| (Some("target".into()), m))?;
        if view.eye == view.target {
            return Err((
                Some("eye".into()),
                "the view's eye and target are the same point, so the camera has no direction"
                    .into(),
            ));
        }
    }
    for overlay in &scene.overlays {
        if !OVERLAYS_3D.contains(overlay) {
            return Err((
                Some("overlays".into()),
                format!(
                    "overlay {overlay:?} has no 3D version; a 3D scene can show {}",
                    OVERLAYS_3D.map(|a| format!("{a:?}")).join(", ")
                ),
            ));
        }
    }
    check_sweep_time(scene.sweep_time)?;
    if let Some(lesson) = &scene.lesson {
        let timeline = &crate::query3::pair::PairTrace3::ALGORITHMS;
        if let Some(m) = lesson.problem(DIMENSIONS_3D, timeline, &FEATURE_NAMES) {
            return Err((Some("lesson".into()), m));
        }
    }
    for e in &scene.expect {
        names.check_expectation_pair(&e.a, &e.b)?;
        let numbers = [
            ("distance", e.distance),
            ("depth", e.depth),
            ("separation", e.separation),
            ("t_first", e.t_first),
            ("tolerance", e.tolerance),
        ];
        check_expectation_numbers(&e.a, &e.b, &numbers)?;
        if let Some(n) = e.normal {
            check_expectation_normal(&e.a, &e.b, n.is_finite(), n.length(), || {
                format!("({}, {}, {})", n.x, n.y, n.z)
            })?;
        }
        if let Some(n) = e.epa_normal {
            check_expectation_normal(&e.a, &e.b, n.is_finite(), n.length(), || {
                format!("({}, {}, {})", n.x, n.y, n.z)
            })
            .map_err(|(at, message)| (at, message.replace(": normal ", ": epa_normal ")))?;
        }
        for (what, point) in [("closest_a", e.closest_a), ("closest_b", e.closest_b)] {
            if point.is_some_and(|p| !p.is_finite()) {
                return Err((
                    Some("expect".into()),
                    format!(
                        "expectation {} vs {}: {what} must be three finite numbers",
                        e.a, e.b
                    ),
                ));
            }
        }
        if let Some(f) = &e.feature {
            if !FEATURE_NAMES.contains(&f.as_str()) {
                return Err((
                    Some(format!("\"{f}\"")),
                    format!(
                        "expectation {} vs {}: feature \"{f}\" is not one of {}",
                        e.a,
                        e.b,
                        FEATURE_NAMES.map(|n| format!("\"{n}\"")).join(", ")
                    ),
                ));
            }
        }
    }
    Ok(bodies)
}
