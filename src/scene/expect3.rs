//! Checking a 3D scene's `expect` blocks against what the 3D algorithms compute.
//!
//! What each field of an [`Expectation3`] is compared with, for the pair `a` then `b`:
//! - `intersecting`: SAT's verdict (touching counts as intersecting).
//! - `distance`: GJK's distance (0 when intersecting).
//! - `closest_a`, `closest_b`: GJK's closest points on `a` and on `b` (world); a failure
//!   when GJK finds them intersecting.
//! - `depth`: SAT's depth (the smallest overlap over all axes) *and* EPA's depth; both must
//!   match; a failure when apart.
//! - `separation`: SAT's separation (the largest gap over all axes); a failure when they
//!   overlap. It is a lower bound of the distance, equal to it when the gap is along a face
//!   normal or an edge pair's axis whose closest features face each other.
//! - `normal`: SAT's unit normal, from a toward b (the separating axis when apart). It
//!   matches when the length of the difference vector is within the tolerance.
//!   Without `epa_normal`, a differing EPA normal is reported as a remark, not a failure.
//! - `epa_normal`: EPA's unit normal, from a toward b.
//! - `contacts`: the number of points of the contact manifold after reduction (0 when apart).
//! - `feature`: the manifold's feature pair (`"face_face"`, ...).
//! - `hit`, `t_first`: the swept SAT (which runs only when a body has a velocity).
//!
//! Numbers match when they differ by at most the expectation's tolerance (default 1e-4).

use super::model3::{Expectation3, Scene3, SceneBody3, DIMENSIONS_3D};
use super::report::{
    check_pair, exact_difference, format_number, number_difference, Difference, ExpectationCheck,
    FileCheck, Got, Quantity,
};
use crate::query3::pair::{query_pair3, PairQuery3, PairSettings3};
use glam::Vec3;
use std::path::Path;

/// The settings the 3D queries run with for this scene (its sweep interval, default limits).
pub fn settings_for_scene3(scene: &Scene3) -> PairSettings3 {
    PairSettings3 {
        sweep_time: scene.sweep_time(),
        ..PairSettings3::default()
    }
}

/// Checks one 3D expectation against the scene's validated bodies.
pub fn check_expectation3(
    bodies: &[SceneBody3],
    settings: &PairSettings3,
    index: usize,
    e: &Expectation3,
) -> ExpectationCheck {
    check_pair(
        bodies,
        |body| &body.name,
        index,
        (&e.a, &e.b),
        |a, b, check| {
            let q = query_pair3(&a.body_ref(), &b.body_ref(), settings);
            compare3(&q, e, check);
        },
    )
}

/// Checks every expectation of a loaded 3D scene, in file order.
pub fn check_scene3(scene: &Scene3, bodies: &[SceneBody3]) -> Vec<ExpectationCheck> {
    let settings = settings_for_scene3(scene);
    scene
        .expect
        .iter()
        .enumerate()
        .map(|(i, e)| check_expectation3(bodies, &settings, i, e))
        .collect()
}

/// Loads and checks `path` when it is a readable 3D scene file (`dimensions: 3`); `None`
/// for 2D files and for files that cannot be read (the 2D path reports those).
pub(super) fn check_file_if_3d(path: &Path) -> Option<FileCheck> {
    let (file, text) = super::source::read_scene_text(path).ok()?;
    let prepared = super::source::prepare(&text, &file).ok()?;
    if super::scene_dimensions(prepared)?.0 != DIMENSIONS_3D {
        return None;
    }
    let outcome =
        super::parse_scene3(&text, &file).map(|(scene, bodies)| check_scene3(&scene, &bodies));
    Some(FileCheck {
        path: path.to_path_buf(),
        outcome,
    })
}

fn compare3(q: &PairQuery3, e: &Expectation3, check: &mut ExpectationCheck) {
    let tolerance = e.tolerance();
    let s = &q.sat;
    let mut found: Vec<Option<Difference>> = Vec::new();
    if let Some(expected) = e.intersecting {
        found.push(exact_difference(
            Quantity::Intersecting,
            "SAT",
            Got::Bool(expected),
            Got::Bool(s.intersecting),
        ));
    }
    found.extend(compare_gjk(q, e, tolerance));
    if let Some(depth) = e.depth {
        let epa = q.epa.map(|x| x.depth).ok_or_else(|| {
            format!(
                "not run, GJK found them {} apart",
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
        let got = if s.intersecting {
            Ok(s.depth)
        } else {
            Err(format!(
                "SAT found a gap of {}",
                format_number(s.separation)
            ))
        };
        found.push(number_difference(
            Quantity::Depth,
            "SAT",
            depth,
            got,
            tolerance,
        ));
    }
    if let Some(separation) = e.separation {
        let got = if s.intersecting {
            Err(format!(
                "SAT found them overlapping by {}",
                format_number(s.depth)
            ))
        } else {
            Ok(s.separation)
        };
        found.push(number_difference(
            Quantity::Separation,
            "SAT",
            separation,
            got,
            tolerance,
        ));
    }
    if let Some(expected) = e.normal {
        found.push(vector_difference(
            Quantity::Normal,
            "SAT",
            expected,
            Ok(s.normal),
            tolerance,
        ));
    }
    found.push(compare_epa_normal(q, e, check));
    if let Some(expected) = e.contacts {
        let got = q.manifold.as_ref().map_or(0, |m| m.points.len() as u32);
        found.push(exact_difference(
            Quantity::Contacts,
            "manifold",
            Got::Count(expected),
            Got::Count(got),
        ));
    }
    if let Some(expected) = &e.feature {
        let got = q.manifold.as_ref().map_or_else(
            || Got::Missing("no manifold: the bodies are apart".into()),
            |m| Got::Name(m.feature.key().into()),
        );
        found.push(exact_difference(
            Quantity::Feature,
            "manifold",
            Got::Name(expected.clone()),
            got,
        ));
    }
    const NO_SWEEP: &str = "no sweep ran: neither body has a velocity";
    if let Some(expected) = e.hit {
        let got = q
            .sweep
            .as_ref()
            .map_or_else(|| Got::Missing(NO_SWEEP.into()), |w| Got::Bool(w.hit));
        found.push(exact_difference(
            Quantity::Hit,
            "sweep",
            Got::Bool(expected),
            got,
        ));
    }
    if let Some(expected) = e.t_first {
        let got = match &q.sweep {
            None => Err(NO_SWEEP.to_string()),
            Some(w) => w.t_first.ok_or_else(|| "the sweep missed".to_string()),
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

/// A difference when `got` is missing or farther than `tolerance` from `expected`.
fn vector_difference(
    quantity: Quantity,
    source: &'static str,
    expected: Vec3,
    got: Result<Vec3, String>,
    tolerance: f32,
) -> Option<Difference> {
    let (got, off) = match got {
        Ok(v) => {
            let off = (v - expected).length();
            if !off.is_nan() && off <= tolerance {
                return None;
            }
            (Got::Vector3(v), Some(off))
        }
        Err(why) => (Got::Missing(why), None),
    };
    Some(Difference {
        quantity,
        source,
        expected: Got::Vector3(expected),
        got,
        off_by: off,
        tolerance: off.map(|_| tolerance),
    })
}

/// `distance`, `closest_a` and `closest_b` against GJK.
fn compare_gjk(q: &PairQuery3, e: &Expectation3, tolerance: f32) -> Vec<Option<Difference>> {
    let g = &q.gjk;
    let mut found = Vec::new();
    if let Some(distance) = e.distance {
        found.push(number_difference(
            Quantity::Distance,
            "GJK",
            distance,
            Ok(g.distance),
            tolerance,
        ));
    }
    let closest = [
        (Quantity::ClosestA, e.closest_a, g.closest_a),
        (Quantity::ClosestB, e.closest_b, g.closest_b),
    ];
    for (quantity, expected, got) in closest {
        if let Some(expected) = expected {
            let got = got.ok_or_else(|| {
                format!(
                    "none, GJK ended with the bodies intersecting ({})",
                    g.status.key()
                )
            });
            found.push(vector_difference(quantity, "GJK", expected, got, tolerance));
        }
    }
    found
}

/// `epa_normal` against EPA; without it, a remark when EPA's normal differs from an
/// expected SAT `normal` (a legitimate tie is worth a look, not a failure).
fn compare_epa_normal(
    q: &PairQuery3,
    e: &Expectation3,
    check: &mut ExpectationCheck,
) -> Option<Difference> {
    let tolerance = e.tolerance();
    let got = q
        .epa
        .map(|x| x.normal)
        .ok_or_else(|| "not run, GJK found them apart".to_string());
    match (e.epa_normal, e.normal, &got) {
        (Some(expected), _, _) => {
            vector_difference(Quantity::EpaNormal, "EPA", expected, got, tolerance)
        }
        (None, Some(sat_normal), Ok(normal)) => {
            let off = (*normal - sat_normal).length();
            if off.is_nan() || off > tolerance {
                check.remarks.push(format!(
                    "EPA's normal {} differs from the expected SAT normal {} (off by {}); pin it with epa_normal if the tie is intended",
                    Got::Vector3(*normal),
                    Got::Vector3(sat_normal),
                    format_number(off)
                ));
            }
            None
        }
        _ => None,
    }
}
