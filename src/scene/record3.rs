//! Recording what the 3D algorithms find now as a 3D scene's expectations, as
//! `record.rs` does for 2D: the case on screen becomes a regression test that
//! `collision-lab check` holds it to.
//!
//! Each recorded field is the quantity [`super::check_scene3`] compares with it (see
//! `expect3.rs`), computed with the settings `check` uses ([`settings_for_scene3`]), so a
//! freshly recorded scene passes:
//! - `intersecting` (SAT), `distance` (GJK, when finite), `contacts` (the manifold's points,
//!   0 when apart);
//! - when SAT finds them intersecting: `normal` (SAT's), `feature` (the manifold's feature
//!   pair), and `depth` only when SAT and EPA agree within the tolerance (`check` holds both
//!   to it; a disagreement is reported in `left_out` instead);
//! - when SAT finds them apart: `separation`, and `closest_a`/`closest_b` only where the
//!   query's output proves them unique (below);
//! - `epa_normal` when EPA ran and its normal differs from SAT's (a tie `check` would
//!   otherwise only remark on);
//! - `hit` and `t_first` when the sweep ran: a body has a velocity and neither is round (with
//!   a sphere or a capsule the sweep is refused and its "no hit" is not a finding).
//!
//! Unique closest points. Apart, the closest point v of A - B is unique, but the pairs
//! (a, b) with a - b = v are unique only when the features of A and B holding them do not
//! run parallel (a face over a parallel face or edge, two parallel edges). GJK's simplex
//! cannot tell: two stacked boxes end on one vertex of A minus one vertex of B although
//! their closest points fill a square. SAT can, in one case: when its winning axis is an
//! edge pair (the cross product of two edges that are not parallel and that span a face of
//! A - B, the Gauss-map test) and its separation is the GJK distance, the closest points lie
//! on those two crossing edges, where they are unique (a face along that axis would have
//! tied it and won, SAT preferring faces). Everywhere else they are left out, and said so.

use super::expect3::settings_for_scene3;
use super::model3::{Expectation3, Scene3, SceneBody3};
use super::record::{put_entry, refuse_too_many_pairs, PairEntry};
use super::report::format_number;
use crate::query3::pair::{query_pair3, PairQuery3};
use crate::query3::sat::AxisId;
use crate::query3::sweep;

/// One pair's recorded 3D expectation and what was left out of it, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded3 {
    pub expectation: Expectation3,
    /// Sentences such as "depth left out: SAT says 0.1010, EPA 0.1006".
    pub left_out: Vec<String>,
}

/// The expectation for bodies `a` then `b` that `q` (their 3D query) meets, with `tolerance`
/// (`None`: the default, 1e-4).
pub fn expectation3_from_query(
    a: &str,
    b: &str,
    q: &PairQuery3,
    tolerance: Option<f32>,
) -> Recorded3 {
    let s = &q.sat;
    let mut e = Expectation3 {
        a: a.to_string(),
        b: b.to_string(),
        intersecting: Some(s.intersecting),
        distance: q.gjk.distance.is_finite().then_some(q.gjk.distance),
        closest_a: None,
        closest_b: None,
        depth: None,
        separation: None,
        normal: None,
        epa_normal: None,
        contacts: Some(q.manifold.as_ref().map_or(0, |m| m.points.len() as u32)),
        feature: None,
        hit: None,
        t_first: None,
        tolerance,
    };
    let mut left_out = Vec::new();
    if s.intersecting {
        e.normal = s.normal.is_finite().then_some(s.normal);
        e.feature = q.manifold.as_ref().map(|m| m.feature.key().to_string());
        e.depth = agreed_depth(q, e.tolerance(), &mut left_out);
    } else {
        e.separation = s.separation.is_finite().then_some(s.separation);
        match unique_closest_points(q, e.tolerance()) {
            Ok((on_a, on_b)) => (e.closest_a, e.closest_b) = (Some(on_a), Some(on_b)),
            Err(why) => left_out.push(format!("closest points left out: {why}")),
        }
    }
    if let Some(epa) = q.epa {
        let off = (epa.normal - s.normal).length();
        if !epa.normal.is_finite() {
            left_out.push("epa_normal left out: EPA's normal is not finite".into());
        } else if off.is_nan() || off > e.tolerance() {
            e.epa_normal = Some(epa.normal);
        }
    }
    match &q.sweep {
        Some(w) if w.status == sweep::Status::MaxIterations => left_out.push(
            "hit and t_first left out: the sweep's Newton steps reached their cap, so t_first is only a bound".into(),
        ),
        Some(w) => {
            e.hit = Some(w.hit);
            e.t_first = w.t_first.filter(|t| t.is_finite());
        }
        None => {}
    }
    Recorded3 {
        expectation: e,
        left_out,
    }
}

/// SAT's depth when EPA ran and agrees with it within `tolerance` (`check` compares the
/// expected depth with both); else the reason, in `left_out`.
fn agreed_depth(q: &PairQuery3, tolerance: f32, left_out: &mut Vec<String>) -> Option<f32> {
    let sat = q.sat.depth;
    let Some(epa) = q.epa else {
        left_out.push(format!(
            "depth left out: SAT says {} but EPA did not run (GJK found them {} apart)",
            format_number(sat),
            format_number(q.gjk.distance)
        ));
        return None;
    };
    if sat.is_finite() && (sat - epa.depth).abs() <= tolerance {
        return Some(sat);
    }
    left_out.push(format!(
        "depth left out: SAT says {}, EPA {}",
        format_number(sat),
        format_number(epa.depth)
    ));
    None
}

/// GJK's closest points when the query proves them unique (see the header): SAT's best
/// axis crosses two edges and its separation is the distance. Else why not.
fn unique_closest_points(
    q: &PairQuery3,
    tolerance: f32,
) -> Result<(glam::Vec3, glam::Vec3), &'static str> {
    let (Some(on_a), Some(on_b)) = (q.gjk.closest_a, q.gjk.closest_b) else {
        return Err("GJK gave none");
    };
    if !(on_a.is_finite() && on_b.is_finite()) {
        return Err("GJK's are not finite");
    }
    if !matches!(q.sat.axis, AxisId::Edges(..)) {
        return Err("SAT's axis is not an edge pair, so they may not be unique");
    }
    if (q.sat.separation - q.gjk.distance).abs() > tolerance {
        return Err("SAT's edge axis is not along the distance, so they may not be unique");
    }
    Ok((on_a, on_b))
}

impl PairEntry for Expectation3 {
    fn pair(&self) -> (&str, &str) {
        (&self.a, &self.b)
    }

    fn tolerance_field(&self) -> Option<f32> {
        self.tolerance
    }

    fn set_tolerance_field(&mut self, tolerance: Option<f32>) {
        self.tolerance = tolerance;
    }
}

/// Puts `new` in `expect` as [`super::put_expectation`] does in 2D: in place of the entries
/// for the same pair in the same order (the first keeps its position and its tolerance),
/// else at the end.
pub fn put_expectation3(expect: &mut Vec<Expectation3>, new: Expectation3) {
    put_entry(expect, new);
}

/// Records the pairs `pairs` (indices into `bodies`, a then b) as `scene`'s expectations,
/// each computed as `check` will compute it. Refuses more than
/// [`super::MAX_RECORDED_PAIRS`].
pub fn record_expectations3(
    scene: &mut Scene3,
    bodies: &[SceneBody3],
    pairs: &[(usize, usize)],
) -> Result<Vec<Recorded3>, String> {
    refuse_too_many_pairs(pairs.len())?;
    let settings = settings_for_scene3(scene);
    let mut recorded = Vec::with_capacity(pairs.len());
    for &(i, j) in pairs {
        let (Some(a), Some(b)) = (bodies.get(i), bodies.get(j)) else {
            return Err(format!("no pair of bodies {i} and {j}"));
        };
        let q = query_pair3(&a.body_ref(), &b.body_ref(), &settings);
        let tolerance = scene
            .expect
            .iter()
            .find(|e| e.a == a.name && e.b == b.name)
            .and_then(|e| e.tolerance);
        let r = expectation3_from_query(&a.name, &b.name, &q, tolerance);
        put_expectation3(&mut scene.expect, r.expectation.clone());
        recorded.push(r);
    }
    Ok(recorded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{
        check_scene3, every_pair, load_scene3_file, parse_scene3, scene3_to_string,
    };
    use glam::Vec3;
    use std::path::Path;

    fn scenes_3d() -> Vec<std::path::PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/3d");
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        paths.sort();
        assert!(!paths.is_empty(), "no scenes in {}", dir.display());
        paths
    }

    #[test]
    fn every_pair_of_every_3d_scene_recorded_passes_check_after_a_round_trip() {
        for path in scenes_3d() {
            let name = path.display().to_string();
            let (mut scene, bodies) = load_scene3_file(&path).unwrap();
            let pairs = every_pair(bodies.len());
            let recorded = record_expectations3(&mut scene, &bodies, &pairs).unwrap();
            assert_eq!(recorded.len(), pairs.len(), "{name}");
            let text = scene3_to_string(&scene);
            let (again, bodies) = parse_scene3(&text, &name).unwrap();
            assert_eq!(
                again.expect, scene.expect,
                "{name}: the round trip kept them"
            );
            for check in check_scene3(&again, &bodies) {
                assert!(check.passed(), "{name}: {}", check.describe());
                assert!(check.remarks.is_empty(), "{name}: {:?}", check.remarks);
            }
        }
    }

    fn welcome() -> (Scene3, Vec<SceneBody3>) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/3d/welcome.ron");
        load_scene3_file(&path).unwrap()
    }

    #[test]
    fn welcome_ground_and_crate_record_the_hand_checked_contact() {
        // The crate's bottom is at y = 0.95 - 0.5 = 0.45, the ground's top at 0.5: 0.05 deep,
        // face on face, four corners.
        let (mut scene, bodies) = welcome();
        let recorded = record_expectations3(&mut scene, &bodies, &[(0, 1)]).unwrap();
        let e = &recorded[0].expectation;
        assert_eq!((e.a.as_str(), e.b.as_str()), ("ground", "crate"));
        assert_eq!(e.intersecting, Some(true));
        assert!((e.depth.unwrap() - 0.05).abs() <= 1e-4, "{e:?}");
        assert!((e.normal.unwrap() - Vec3::Y).length() <= 1e-6, "{e:?}");
        assert_eq!(e.contacts, Some(4));
        assert_eq!(e.feature.as_deref(), Some("face_face"));
        assert_eq!(e.distance, Some(0.0));
        assert_eq!((e.separation, e.closest_a, e.closest_b), (None, None, None));
        assert_eq!(e.epa_normal, None, "EPA agrees with SAT's normal");
        assert_eq!((e.hit, e.t_first), (None, None), "neither body moves");
        assert!(
            recorded[0].left_out.is_empty(),
            "{:?}",
            recorded[0].left_out
        );
    }

    #[test]
    fn welcome_ground_and_gem_record_the_sweep_and_no_closest_points_over_a_face() {
        // The gem's lowest tip at y = 2 falls at 4 a unit of time onto the top at y = 0.5.
        let (mut scene, bodies) = welcome();
        let recorded = record_expectations3(&mut scene, &bodies, &[(0, 3)]).unwrap();
        let e = &recorded[0].expectation;
        assert_eq!(e.intersecting, Some(false));
        assert!((e.distance.unwrap() - 1.5).abs() <= 1e-5, "{e:?}");
        assert!((e.separation.unwrap() - 1.5).abs() <= 1e-5, "{e:?}");
        assert_eq!(
            (e.depth, e.normal, e.feature.as_deref()),
            (None, None, None)
        );
        assert_eq!(e.contacts, Some(0));
        assert_eq!(e.hit, Some(true));
        assert!((e.t_first.unwrap() - 0.375).abs() <= 1e-5, "{e:?}");
        // The tip over the ground's face is unique, but SAT's axis is the face normal, and
        // from the query alone that is also what a face over a face looks like.
        assert_eq!((e.closest_a, e.closest_b), (None, None));
        assert_eq!(
            recorded[0].left_out,
            ["closest points left out: SAT's axis is not an edge pair, so they may not be unique"]
        );
    }

    #[test]
    fn recording_twice_leaves_one_entry_per_pair_and_keeps_a_hand_set_tolerance() {
        let (mut scene, bodies) = welcome();
        scene.expect[1].tolerance = Some(0.002); // ground-column, set by hand
        scene.expect.push(scene.expect[0].clone()); // a stray second ground-crate entry
        let pairs = every_pair(bodies.len());
        let first = record_expectations3(&mut scene, &bodies, &pairs).unwrap();
        let after_first = scene.expect.clone();
        let second = record_expectations3(&mut scene, &bodies, &pairs).unwrap();
        assert_eq!(first, second);
        assert_eq!(scene.expect, after_first);
        let names: Vec<_> = scene
            .expect
            .iter()
            .map(|e| (e.a.as_str(), e.b.as_str()))
            .collect();
        // The file's three pairs where they were, then the new ones in pair order.
        assert_eq!(
            names,
            [
                ("ground", "crate"),
                ("ground", "column"),
                ("ground", "gem"),
                ("crate", "column"),
                ("crate", "gem"),
                ("column", "gem"),
            ]
        );
        assert_eq!(scene.expect[1].tolerance, Some(0.002));
        assert_eq!(first[1].expectation.tolerance, Some(0.002));
        assert!(scene
            .expect
            .iter()
            .enumerate()
            .all(|(k, e)| k == 1 || e.tolerance.is_none()));
    }

    #[test]
    fn a_depth_the_algorithms_disagree_on_is_left_out_with_the_reason() {
        let (scene, bodies) = welcome();
        let settings = settings_for_scene3(&scene);
        let mut q = query_pair3(&bodies[0].body_ref(), &bodies[1].body_ref(), &settings);
        q.sat.depth = 0.06;
        let r = expectation3_from_query("ground", "crate", &q, None);
        assert_eq!(r.expectation.depth, None);
        assert_eq!(r.left_out, ["depth left out: SAT says 0.0600, EPA 0.0500"]);
        // Within a looser tolerance they agree, and SAT's depth is written.
        let r = expectation3_from_query("ground", "crate", &q, Some(0.02));
        assert_eq!(r.expectation.depth, Some(0.06));
    }

    #[test]
    fn a_round_sweep_records_its_hit_and_a_capped_one_is_left_out() {
        // A ball falling onto a floor: its bottom at 2 - 0.5 = 1.5, the floor's top at 0.5,
        // a gap of 1 closed at 4 per unit time: t_first = 0.25.
        let text = r#"(
            version: 1,
            dimensions: 3,
            bodies: [
                (name: "floor", shape: Cuboid(half_extents: (2, 0.5, 2))),
                (name: "ball", shape: Sphere(radius: 0.5), position: (0, 2, 0), velocity: (0, -4, 0)),
            ],
        )"#;
        let (mut scene, bodies) = parse_scene3(text, "ball.ron").unwrap();
        let recorded = record_expectations3(&mut scene, &bodies, &[(0, 1)]).unwrap();
        let e = &recorded[0].expectation;
        assert_eq!(e.hit, Some(true));
        assert!((e.t_first.unwrap() - 0.25).abs() < 1e-5, "{e:?}");
        // Newton steps stopped at their cap leave only a bound on t_first: not pinned.
        let settings = settings_for_scene3(&scene);
        let mut q = query_pair3(&bodies[0].body_ref(), &bodies[1].body_ref(), &settings);
        if let Some(w) = q.sweep.as_mut() {
            w.status = sweep::Status::MaxIterations;
        }
        let r = expectation3_from_query("floor", "ball", &q, None);
        assert_eq!((r.expectation.hit, r.expectation.t_first), (None, None));
        assert!(r
            .left_out
            .iter()
            .any(|s| s.starts_with("hit and t_first left out")));
    }

    #[test]
    fn too_many_pairs_are_refused() {
        let (mut scene, bodies) = welcome();
        let before = scene.expect.clone();
        let err = record_expectations3(&mut scene, &bodies, &every_pair(15)).unwrap_err();
        assert!(err.contains("105 pairs"), "{err}");
        assert_eq!(scene.expect, before, "nothing changed");
    }
}
