//! Checking a 3D scene's `expect` blocks against what the 3D algorithms compute.
//!
//! What each field of an [`Expectation3`] is compared with, for the pair `a` then `b`:
//! - `intersecting`: SAT's verdict (touching counts as intersecting).
//! - `depth`: SAT's depth (the smallest overlap over all axes); a failure when apart.
//! - `separation`: SAT's separation (the largest gap over all axes); a failure when they
//!   overlap. It is a lower bound of the distance, equal to it when the gap is along a face
//!   normal or an edge pair's axis whose closest features face each other.
//! - `normal`: SAT's unit normal, from a toward b (the separating axis when apart). It
//!   matches when the length of the difference vector is within the tolerance.
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
use std::path::Path;

/// The settings the 3D queries run with for this scene (its sweep interval, default limits).
pub fn settings_for_scene3(scene: &Scene3) -> PairSettings3 {
    PairSettings3 {
        sweep_time: scene.sweep_time(),
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
    if let Some(depth) = e.depth {
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
        let off = (s.normal - expected).length();
        found.push((off.is_nan() || off > tolerance).then_some(Difference {
            quantity: Quantity::Normal,
            source: "SAT",
            expected: Got::Vector3(expected),
            got: Got::Vector3(s.normal),
            off_by: Some(off),
            tolerance: Some(tolerance),
        }));
    }
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
