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
use super::report::{
    check_pair, exact_difference, format_number, format_vector, number_difference, Difference,
    ExpectationCheck, Got, Quantity,
};
use super::SceneError;
use crate::query::pair::{query_pair, PairQuery, PairSettings};
use std::path::PathBuf;

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
    check_pair(
        bodies,
        |body| &body.name,
        index,
        (&e.a, &e.b),
        |a, b, check| {
            let q = query_pair(&a.body_ref(), &b.body_ref(), settings);
            compare(&q, e, check);
        },
    )
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
