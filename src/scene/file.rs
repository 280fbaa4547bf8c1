use super::checks::{
    body_color, check_body_count, check_expectation_normal, check_expectation_numbers,
    check_sweep_time, check_version, in_body, BodyNames,
};
use super::model::{Scene, SceneBody, View};
use crate::geom::{Shape, ShapeError, ShapeKind};
use crate::query::Algorithm;
use glam::Vec2;
use ron::extensions::Extensions;
use std::io::Write;
use std::path::Path;

use super::source::{
    check_number, describe_ron_error, parse_validated, prepare, read_scene_text, refuse_3d_in_2d,
    Invalid, SceneError, MAX_MAGNITUDE,
};

/// Reads, parses and validates a scene file.
pub fn load_scene_file(path: &Path) -> Result<(Scene, Vec<SceneBody>), SceneError> {
    let (file, text) = read_scene_text(path)?;
    parse_scene(&text, &file)
}

/// Parses and validates scene text; `file` names it in errors. A 3D scene (`dimensions: 3`)
/// is refused with a sentence saying where it opens; [`super::parse_any_scene`] reads both.
pub fn parse_scene(text: &str, file: &str) -> Result<(Scene, Vec<SceneBody>), SceneError> {
    let text = prepare(text, file)?;
    refuse_3d_in_2d(text, file)?;
    parse_validated(text, file, describe_ron_error, |scene: &Scene| {
        validate(scene, text)
    })
}

/// The scene as RON text, optional fields written plainly.
pub fn scene_to_string(scene: &Scene) -> String {
    to_ron(scene)
}

/// A scene of either dimension as RON text, in the form every saved scene has.
pub(crate) fn to_ron<T: serde::Serialize>(scene: &T) -> String {
    let config = ron::ser::PrettyConfig::new()
        .extensions(Extensions::IMPLICIT_SOME)
        .struct_names(false)
        .indentor("    ".to_string());
    ron::ser::to_string_pretty(scene, config).expect("a scene always serializes")
}

/// Saves a scene without ever leaving a damaged file: writes a temporary file beside the
/// target, flushes it to disk, then renames it over the target.
pub fn save_scene_atomic(path: &Path, scene: &Scene) -> std::io::Result<()> {
    write_atomic(path, scene_to_string(scene).as_bytes())
}

/// Writes `bytes` to `path` without ever leaving a damaged file (see [`save_scene_atomic`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "scene.ron".into());
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&temp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// Checks everything the parser cannot: the version, names, numbers and shapes.
fn validate(scene: &Scene, _text: &str) -> Result<Vec<SceneBody>, Invalid> {
    check_version(scene.version)?;
    check_body_count(scene.bodies.len())?;
    let mut names = BodyNames::default();
    let mut bodies = Vec::with_capacity(scene.bodies.len());
    for def in &scene.bodies {
        names.add(&def.name)?;
        let in_body = |m: String| in_body(&def.name, m);
        check_vec("position", def.position).map_err(in_body)?;
        check_number("angle", def.angle).map_err(in_body)?;
        if let Some(v) = def.velocity {
            check_vec("velocity", v).map_err(in_body)?;
        }
        let color = body_color(&def.name, &def.color)?;
        let shape =
            Shape::new(def.shape.clone()).map_err(|e| in_body(shape_message(&def.shape, &e)))?;
        bodies.push(SceneBody {
            name: def.name.clone(),
            shape,
            pose: def.pose(),
            velocity: def.velocity,
            color,
        });
    }
    names.check_focus(&scene.focus)?;
    if let Some(view) = &scene.view {
        check_view(view)?;
    }
    check_sweep_time(scene.sweep_time)?;
    if let Some(lesson) = &scene.lesson {
        // Every algorithm but the Minkowski difference (a picture) records steps.
        let timeline = &Algorithm::ALL[1..];
        if let Some(m) = lesson.problem(2, timeline, &[]) {
            return Err((Some("lesson".into()), m));
        }
    }
    for e in &scene.expect {
        names.check_expectation_pair(&e.a, &e.b)?;
        let numbers = [
            ("distance", e.distance),
            ("depth", e.depth),
            ("t_first", e.t_first),
            ("tolerance", e.tolerance),
        ];
        check_expectation_numbers(&e.a, &e.b, &numbers)?;
        if let Some(n) = e.normal {
            check_expectation_normal(&e.a, &e.b, n.is_finite(), n.length(), || {
                format!("({}, {})", n.x, n.y)
            })?;
        }
    }
    Ok(bodies)
}

/// A view is a region (`width` and `height`, both) or an old `zoom`, never both or
/// neither; every number finite and positive.
fn check_view(view: &View) -> Result<(), Invalid> {
    check_vec("view center", view.center).map_err(|m| (Some("view".into()), m))?;
    let region = view.width.is_some() || view.height.is_some();
    match (region, view.zoom) {
        (true, Some(_)) => {
            return Err((
                Some("zoom:".into()),
                "a view gives either the region it shows (`width` and `height`) or an old `zoom`, not both: remove `zoom`".into(),
            ))
        }
        (false, None) => {
            return Err((
                Some("view:".into()),
                "a view needs the region it shows: `view: (center: (x, y), width: w, height: h)`".into(),
            ))
        }
        _ => {}
    }
    let sizes = [("width", view.width), ("height", view.height)];
    if region {
        for (name, size) in sizes {
            let Some(size) = size else {
                // Point at the one that is there.
                let given = if name == "width" { "height:" } else { "width:" };
                return Err((
                    Some(given.into()),
                    format!("a view's region needs both `width` and `height`; `{name}` is missing"),
                ));
            };
            check_positive(&format!("view {name}"), "world units", size, name)?;
        }
    }
    if let Some(zoom) = view.zoom {
        check_positive("view zoom", "pixels per unit", zoom, "zoom")?;
    }
    Ok(())
}

/// A view's size or zoom: finite, above zero and at most [`MAX_MAGNITUDE`].
fn check_positive(what: &str, unit: &str, v: f32, field: &str) -> Result<(), Invalid> {
    if v.is_finite() && v > 0.0 && v <= MAX_MAGNITUDE {
        return Ok(());
    }
    Err((
        Some(format!("{field}:")),
        format!("{what} must be a positive number of {unit} (at most {MAX_MAGNITUDE}), it is {v}"),
    ))
}

fn shape_message(kind: &ShapeKind, e: &ShapeError) -> String {
    if *e == ShapeError::ZeroArea {
        // The shape's own message speaks of polygons; say what is wrong with this kind.
        let why = match kind {
            ShapeKind::Polygon { points } if !all_on_one_line(points) => {
                "the polygon encloses no area: its outline crosses itself and the parts cancel out"
            }
            ShapeKind::Polygon { .. } => "the polygon has zero area (all points on a line)",
            ShapeKind::Box { .. } => "a box with a half extent of 0 has no area",
            ShapeKind::Regular { .. } => "a regular polygon of radius 0 has no area",
            ShapeKind::Circle { .. } => "a circle of radius 0 has no area",
            ShapeKind::Capsule { .. } => {
                "a capsule with half_length 0 and radius 0 is a single point, with no area"
            }
        };
        return format!("{}: {why}", kind.name().file);
    }
    format!("{}: {e}", kind.name().file)
}

/// Whether every point lies on the line through the first point and the one farthest from
/// it (within the same relative tolerance the shape check uses for zero area).
fn all_on_one_line(points: &[Vec2]) -> bool {
    let Some(&o) = points.first() else {
        return true;
    };
    let far = points
        .iter()
        .copied()
        .max_by(|a, b| {
            (*a - o)
                .length_squared()
                .total_cmp(&(*b - o).length_squared())
        })
        .unwrap_or(o);
    let d = far - o;
    let scale = d.length_squared();
    points
        .iter()
        .all(|p| (d.x * (p.y - o.y) - d.y * (p.x - o.x)).abs() <= 1.0e-6 * scale)
}

fn check_vec(what: &str, v: Vec2) -> Result<(), String> {
    check_number(what, v.x)?;
    check_number(what, v.y)
}

#[cfg(test)]
mod tests {
    use super::super::source::ron_options;
    use super::*;

    #[test]
    fn the_kind_names_are_the_names_the_file_writes() {
        let kinds = [
            ShapeKind::Polygon {
                points: vec![Vec2::ZERO, Vec2::X, Vec2::Y],
            },
            ShapeKind::Box {
                half_extents: Vec2::ONE,
            },
            ShapeKind::Regular {
                sides: 5,
                radius: 1.0,
            },
            ShapeKind::Circle { radius: 1.0 },
            ShapeKind::Capsule {
                half_length: 1.0,
                radius: 0.5,
            },
        ];
        for kind in kinds {
            let written = ron_options().to_string(&kind).unwrap();
            assert!(
                written.starts_with(&format!("{}(", kind.name().file)),
                "{written} is not named {:?}",
                kind.name()
            );
            assert_eq!(kind.name().short, kind.name().file.to_lowercase());
        }
    }

    #[test]
    fn a_flat_box_is_refused_under_its_file_name() {
        let kind = ShapeKind::Box {
            half_extents: Vec2::new(1.0, 0.0),
        };
        assert_eq!(
            shape_message(&kind, &ShapeError::ZeroArea),
            "Box: a box with a half extent of 0 has no area"
        );
    }

    /// A scene of one box with `view` as its view line (line 4).
    fn with_view(view: &str) -> String {
        format!("(\n    version: 1,\n    bodies: [(name: \"a\", shape: Box(half_extents: (1, 1)))],\n    {view}\n)\n")
    }

    #[test]
    fn a_view_region_is_read_and_written_back_the_same() {
        let text = with_view("view: (center: (0.9, 0), width: 3.5, height: 2),");
        let (scene, _) = parse_scene(&text, "t.ron").unwrap();
        let view = scene.view.unwrap();
        assert_eq!(view, View::region(Vec2::new(0.9, 0.0), Vec2::new(3.5, 2.0)));
        assert_eq!(view.extent(), Some(Vec2::new(3.5, 2.0)));
        let written = super::super::scene_to_string(&scene);
        assert!(
            written.contains("width: 3.5,\n        height: 2.0,"),
            "{written}"
        );
        assert!(!written.contains("zoom"), "{written}");
        let (again, _) = parse_scene(&written, "t.ron").unwrap();
        assert_eq!(again.view, Some(view));
    }

    #[test]
    fn an_old_zoom_is_the_region_it_showed_on_the_reference_canvas() {
        // zoom 295 on 840 x 756 pixels: 840 / 295 = 2.8475 by 756 / 295 = 2.5627 units.
        let text = with_view("view: (center: (0.9, 0), zoom: 295),");
        let (scene, _) = parse_scene(&text, "t.ron").unwrap();
        let extent = scene.view.unwrap().extent().unwrap();
        assert!(
            (extent - Vec2::new(2.8475, 2.5627)).abs().max_element() < 1e-4,
            "{extent}"
        );
    }

    #[test]
    fn a_view_with_both_forms_or_neither_is_refused_where_it_is() {
        let both = with_view("view: (center: (0, 0), width: 4, height: 2, zoom: 80),");
        let e = parse_scene(&both, "t.ron").unwrap_err();
        assert!(e.message.contains("not both"), "{}", e.message);
        // Line 4: 4 spaces, `view: (center: (0, 0), ` (23), `width: 4, ` (10), `height: 2, `
        // (11), so `zoom:` starts at column 4 + 23 + 10 + 11 + 1 = 49.
        assert_eq!(e.position, Some((4, 49)));
        let neither = with_view("view: (center: (0, 0)),");
        let e = parse_scene(&neither, "t.ron").unwrap_err();
        assert!(e.message.contains("width: w, height: h"), "{}", e.message);
        assert_eq!(e.position, Some((4, 5)));
        let half = with_view("view: (center: (0, 0), width: 4),");
        let e = parse_scene(&half, "t.ron").unwrap_err();
        assert!(e.message.contains("`height` is missing"), "{}", e.message);
        // `width:` at 4 + 23 + 1 = 28 (the one of the two that is there).
        assert_eq!(e.position, Some((4, 28)));
        let flat = with_view("view: (center: (0, 0), width: 4, height: 0),");
        let e = parse_scene(&flat, "t.ron").unwrap_err();
        assert!(
            e.message.contains("view height must be a positive number"),
            "{}",
            e.message
        );
        // `height:` at 28 + 10 = 38.
        assert_eq!(e.position, Some((4, 38)));
        // Unknown fields stay errors.
        let typo = with_view("view: (center: (0, 0), widht: 4, height: 2),");
        assert!(parse_scene(&typo, "t.ron").is_err());
    }
}
