//! Checking a scene's `expect` blocks against what the algorithms compute.
//!
//! This module only computes and describes; the `check` command and the test suite print.
//!
//! What each field of an [`Expectation`] is compared with, for the pair `a` then `b`:
//! - `intersecting`: [`PairQuery::intersecting`] (GJK's verdict).
//! - `distance`: GJK's distance (0 when intersecting).
//! - `depth`: EPA's depth *and* SAT's depth; both must agree within the tolerance.
//! - `normal`: EPA's normal (from a toward b); SAT's is reported beside it when it differs.
//! - `contacts`: the number of points of the clipped manifold (0 when separated).
//! - `hit`, `t_first`: the sweep (which runs only when a body has a velocity).
//!
//! Numbers match when they differ by at most the expectation's tolerance (default 1e-4);
//! a normal matches when the length of its difference vector is within the tolerance.

use super::model::{Expectation, Scene, SceneBody};
use super::SceneError;
use crate::query::pair::{query_pair, PairQuery, PairSettings};
use crate::text::{format_number_as, NumberFormat};
use glam::Vec2;
use std::fmt;
use std::path::PathBuf;

/// Which quantity of an expectation differed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    Intersecting,
    Distance,
    Depth,
    Normal,
    Contacts,
    Hit,
    TFirst,
    /// 3D only: SAT's gap when apart.
    Separation,
    /// 3D only: the manifold's feature pair.
    Feature,
}

impl Quantity {
    /// The field's name as written in scene files.
    pub fn as_str(self) -> &'static str {
        match self {
            Quantity::Intersecting => "intersecting",
            Quantity::Distance => "distance",
            Quantity::Depth => "depth",
            Quantity::Normal => "normal",
            Quantity::Contacts => "contacts",
            Quantity::Hit => "hit",
            Quantity::TFirst => "t_first",
            Quantity::Separation => "separation",
            Quantity::Feature => "feature",
        }
    }
}

/// A value an algorithm gave, or why it gave none.
#[derive(Clone, Debug, PartialEq)]
pub enum Got {
    Bool(bool),
    Number(f32),
    Vector(Vec2),
    Count(u32),
    /// A 3D vector (normals of 3D scenes).
    Vector3(glam::Vec3),
    /// A name, such as a 3D manifold's feature pair.
    Name(String),
    /// The algorithm did not run or has no such output; the sentence says why.
    Missing(String),
}

/// One way a pair's results differed from its expectation.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    pub quantity: Quantity,
    /// The algorithm that gave the value: "GJK", "EPA", "SAT", "clip" or "sweep".
    pub source: &'static str,
    /// The expected value (a `Got` that is never `Missing`).
    pub expected: Got,
    pub got: Got,
    /// For numbers and normals that were computed: how far off, and the allowed tolerance.
    pub off_by: Option<f32>,
    pub tolerance: Option<f32>,
}

/// The outcome of one expectation.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectationCheck {
    /// Position of the expectation in the scene's `expect` list.
    pub index: usize,
    pub a: String,
    pub b: String,
    /// Empty when the expectation passed.
    pub differences: Vec<Difference>,
    /// Remarks that do not fail the check (SAT's normal differing from EPA's, say).
    pub remarks: Vec<String>,
}

impl ExpectationCheck {
    pub fn passed(&self) -> bool {
        self.differences.is_empty()
    }

    /// What differed, as one phrase per difference joined by "; " (empty when passed).
    pub fn describe(&self) -> String {
        self.differences
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// Every expectation of one scene file, or why the file could not be checked.
#[derive(Clone, Debug, PartialEq)]
pub struct FileCheck {
    pub path: PathBuf,
    pub outcome: Result<Vec<ExpectationCheck>, SceneError>,
}

/// A number in a report: four decimals, or scientific notation for tiny non-zero values
/// (a tolerance of 1e-6 would otherwise show as 0.0000).
pub fn format_number(x: f32) -> String {
    format_number_as(
        x,
        NumberFormat {
            trailing_zeros: true,
            tiny_in_scientific: true,
            ..NumberFormat::short(4)
        },
    )
}

fn format_vector(v: Vec2) -> String {
    format!("({}, {})", format_number(v.x), format_number(v.y))
}

impl fmt::Display for Got {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Got::Bool(b) => write!(f, "{b}"),
            Got::Number(x) => write!(f, "{}", format_number(*x)),
            Got::Vector(v) => write!(f, "{}", format_vector(*v)),
            Got::Count(n) => write!(f, "{n}"),
            Got::Vector3(v) => write!(
                f,
                "({}, {}, {})",
                format_number(v.x),
                format_number(v.y),
                format_number(v.z)
            ),
            Got::Name(name) => write!(f, "\"{name}\""),
            Got::Missing(why) => write!(f, "nothing ({why})"),
        }
    }
}

impl fmt::Display for Difference {
    /// `depth (SAT) 0.2500 expected 0.3000 (off by 0.0500, tolerance 0.0001)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}) {} expected {}",
            self.quantity.as_str(),
            self.source,
            self.got,
            self.expected
        )?;
        if let (Some(off), Some(tolerance)) = (self.off_by, self.tolerance) {
            write!(
                f,
                " (off by {}, tolerance {})",
                format_number(off),
                format_number(tolerance)
            )?;
        }
        Ok(())
    }
}

/// The settings the queries run with for this scene (its sweep interval, default limits).
pub fn settings_for_scene(scene: &Scene) -> PairSettings {
    PairSettings {
        sweep_time: scene.sweep_time(),
        ..PairSettings::default()
    }
}

/// Checks one 2D expectation. The bodies must be the scene's validated bodies; an expectation
/// naming a body that does not exist (which validation already refuses) is reported as a
/// difference rather than a panic.
pub fn check_expectation(
    bodies: &[SceneBody],
    settings: &PairSettings,
    index: usize,
    e: &Expectation,
) -> ExpectationCheck {
    let mut check = ExpectationCheck {
        index,
        a: e.a.clone(),
        b: e.b.clone(),
        differences: Vec::new(),
        remarks: Vec::new(),
    };
    let find = |name: &str| bodies.iter().find(|b| b.name == name);
    let (Some(a), Some(b)) = (find(&e.a), find(&e.b)) else {
        check.differences.push(Difference {
            quantity: Quantity::Intersecting,
            source: "scene",
            expected: Got::Missing("a pair of bodies".into()),
            got: Got::Missing("no body has one of these names".into()),
            off_by: None,
            tolerance: None,
        });
        return check;
    };
    let q = query_pair(&a.body_ref(), &b.body_ref(), settings);
    compare(&q, e, &mut check);
    check
}

/// Checks every expectation of a loaded scene, in file order.
pub fn check_scene(scene: &Scene, bodies: &[SceneBody]) -> Vec<ExpectationCheck> {
    let settings = settings_for_scene(scene);
    scene
        .expect
        .iter()
        .enumerate()
        .map(|(i, e)| check_expectation(bodies, &settings, i, e))
        .collect()
}

/// The scene files named by `paths`: files as given, folders searched (not recursively) for
/// `*.ron`, sorted by name. A folder that cannot be listed is an error naming it.
pub fn scene_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, SceneError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let listing = std::fs::read_dir(path).map_err(|e| SceneError {
                file: path.display().to_string(),
                position: None,
                message: format!("cannot list the folder: {e}"),
            })?;
            let mut found: Vec<PathBuf> = listing
                .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron") && !p.is_dir())
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// A number compared within `tolerance`; `got` is `Err(why)` when nothing was computed.
pub(super) fn number_difference(
    quantity: Quantity,
    source: &'static str,
    expected: f32,
    got: Result<f32, String>,
    tolerance: f32,
) -> Option<Difference> {
    match got {
        Ok(x) => {
            let off = (x - expected).abs();
            // A NaN difference fails too.
            (off.is_nan() || off > tolerance).then_some(Difference {
                quantity,
                source,
                expected: Got::Number(expected),
                got: Got::Number(x),
                off_by: Some(off),
                tolerance: Some(tolerance),
            })
        }
        Err(why) => Some(Difference {
            quantity,
            source,
            expected: Got::Number(expected),
            got: Got::Missing(why),
            off_by: None,
            tolerance: None,
        }),
    }
}

/// A value compared exactly.
pub(super) fn exact_difference(
    quantity: Quantity,
    source: &'static str,
    expected: Got,
    got: Got,
) -> Option<Difference> {
    (got != expected).then_some(Difference {
        quantity,
        source,
        expected,
        got,
        off_by: None,
        tolerance: None,
    })
}

fn compare(q: &PairQuery, e: &Expectation, check: &mut ExpectationCheck) {
    let tolerance = e.tolerance();
    let mut found: Vec<Option<Difference>> = Vec::new();
    if let Some(expected) = e.intersecting {
        found.push(exact_difference(
            Quantity::Intersecting,
            "GJK",
            Got::Bool(expected),
            Got::Bool(q.intersecting()),
        ));
    }
    if let Some(distance) = e.distance {
        found.push(number_difference(
            Quantity::Distance,
            "GJK",
            distance,
            Ok(q.gjk.distance),
            tolerance,
        ));
    }
    if let Some(depth) = e.depth {
        let epa = q.epa.map(|x| x.depth).ok_or_else(|| {
            format!(
                "not run, GJK found the shapes {} apart",
                format_number(q.gjk.distance)
            )
        });
        found.push(number_difference(
            Quantity::Depth,
            "EPA",
            depth,
            epa,
            tolerance,
        ));
        let sat = match (q.sat.depth, q.sat.separation) {
            (Some(d), _) => Ok(d),
            (None, Some(s)) => Err(format!("SAT found a gap of {}", format_number(s))),
            (None, None) => Err("SAT gave no depth".into()),
        };
        found.push(number_difference(
            Quantity::Depth,
            "SAT",
            depth,
            sat,
            tolerance,
        ));
    }
    if let Some(expected) = e.normal {
        found.push(match q.epa {
            Some(epa) => {
                let off = (epa.normal - expected).length();
                (off.is_nan() || off > tolerance).then_some(Difference {
                    quantity: Quantity::Normal,
                    source: "EPA",
                    expected: Got::Vector(expected),
                    got: Got::Vector(epa.normal),
                    off_by: Some(off),
                    tolerance: Some(tolerance),
                })
            }
            None => Some(Difference {
                quantity: Quantity::Normal,
                source: "EPA",
                expected: Got::Vector(expected),
                got: Got::Missing("not run, the shapes are separated".into()),
                off_by: None,
                tolerance: None,
            }),
        });
        if q.sat.intersecting {
            let off = (q.sat.normal - expected).length();
            if off.is_nan() || off > tolerance {
                check.remarks.push(format!(
                    "SAT's normal {} differs from the expected {} (off by {})",
                    format_vector(q.sat.normal),
                    format_vector(expected),
                    format_number(off)
                ));
            }
        }
    }
    if let Some(expected) = e.contacts {
        let got = q.manifold.as_ref().map_or(0, |m| m.count as u32);
        found.push(exact_difference(
            Quantity::Contacts,
            "clip",
            Got::Count(expected),
            Got::Count(got),
        ));
    }
    const NO_SWEEP: &str = "no sweep ran: neither body has a velocity";
    if let Some(expected) = e.hit {
        let got = q
            .sweep
            .map_or_else(|| Got::Missing(NO_SWEEP.into()), |s| Got::Bool(s.hit));
        found.push(exact_difference(
            Quantity::Hit,
            "sweep",
            Got::Bool(expected),
            got,
        ));
    }
    if let Some(expected) = e.t_first {
        let got = match q.sweep {
            None => Err(NO_SWEEP.to_string()),
            Some(s) => s.t_first.ok_or_else(|| "the sweep missed".to_string()),
        };
        found.push(number_difference(
            Quantity::TFirst,
            "sweep",
            expected,
            got,
            tolerance,
        ));
    }
    check.differences.extend(found.into_iter().flatten());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::parse_scene;

    const TWO_BOXES: &str = r#"(
        version: 1,
        bodies: [
            (name: "A", shape: Box(half_extents: (1, 1))),
            (name: "B", shape: Box(half_extents: (1, 1)), position: (1.5, 0)),
        ],
        expect: [
            (a: "A", b: "B", intersecting: true, depth: 0.5, normal: (1, 0), contacts: 2),
            (a: "A", b: "B", depth: 0.75, distance: 1),
            (a: "A", b: "B", hit: true),
        ],
    )"#;

    #[test]
    fn passing_and_failing_expectations_are_told_apart() {
        let (scene, bodies) = parse_scene(TWO_BOXES, "two.ron").unwrap();
        let checks = check_scene(&scene, &bodies);
        assert!(checks[0].passed(), "{}", checks[0].describe());
        assert!(!checks[1].passed());
        let text = checks[1].describe();
        assert!(
            text.contains("depth (EPA) 0.5000 expected 0.7500 (off by 0.2500"),
            "{text}"
        );
        assert!(
            text.contains("depth (SAT) 0.5000 expected 0.7500"),
            "{text}"
        );
        assert!(
            text.contains("distance (GJK) 0.0000 expected 1.0000"),
            "{text}"
        );
        assert!(checks[2].describe().contains("no sweep ran"));
    }

    #[test]
    fn tiny_numbers_stay_readable() {
        assert_eq!(format_number(1.0e-6), "1.00e-6");
        assert_eq!(format_number(0.25), "0.2500");
        assert_eq!(format_number(-0.0), "0.0000");
    }
}
