//! Recording what the algorithms find now as a scene's expectations: a case debugged in the
//! window becomes a regression test in one action ("Record current results as
//! expectations"), which `collision-lab check` then holds it to.
//!
//! Each recorded field is the quantity [`super::check_scene`] compares with it, computed with
//! the settings `check` uses ([`settings_for_scene`]), so a freshly recorded scene passes:
//! - `intersecting`, `distance` (GJK), `contacts` (the clipped manifold, 0 when apart);
//! - `depth` only when EPA and SAT agree within the tolerance (`check` holds both to it; a
//!   disagreement is reported instead of being written as a test that fails at once);
//! - `normal` (EPA's) when EPA ran;
//! - `hit` and `t_first` when the sweep ran (a body has a velocity).

use super::expect::settings_for_scene;
use super::model::{Expectation, Scene, SceneBody};
use super::report::format_number;
use crate::query::pair::{query_pair, PairQuery};

/// Most pairs recorded at once: "every pair" of a scene of more bodies would bury its
/// expectations (and take long to check); record the focused pair instead.
pub const MAX_RECORDED_PAIRS: usize = 100;

/// One pair's recorded expectation and what was left out of it, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    pub expectation: Expectation,
    /// Sentences such as "depth left out: EPA says 0.1006, SAT 0.1010".
    pub left_out: Vec<String>,
}

/// The expectation for bodies `a` then `b` that `q` (their query) meets, with `tolerance`
/// (`None`: the default, 1e-4).
pub fn expectation_from_query(a: &str, b: &str, q: &PairQuery, tolerance: Option<f32>) -> Recorded {
    let mut e = Expectation {
        a: a.to_string(),
        b: b.to_string(),
        intersecting: Some(q.intersecting()),
        distance: q.gjk.distance.is_finite().then_some(q.gjk.distance),
        depth: None,
        normal: None,
        contacts: Some(q.manifold.as_ref().map_or(0, |m| m.count as u32)),
        hit: q.sweep.map(|s| s.hit),
        t_first: q.sweep.and_then(|s| s.t_first).filter(|t| t.is_finite()),
        tolerance,
    };
    let mut left_out = Vec::new();
    if let Some(epa) = q.epa {
        if epa.normal.is_finite() {
            e.normal = Some(epa.normal);
        }
        match q.sat.depth {
            Some(sat) if (sat - epa.depth).abs() <= e.tolerance() && epa.depth.is_finite() => {
                e.depth = Some(epa.depth);
            }
            Some(sat) => left_out.push(format!(
                "depth left out: EPA says {}, SAT {}",
                format_number(epa.depth),
                format_number(sat)
            )),
            None => left_out.push("depth left out: SAT found no overlap".into()),
        }
    }
    Recorded {
        expectation: e,
        left_out,
    }
}

/// Puts `new` in `expect`: in place of the entries for the same pair in the same order (the
/// first keeps its position and its tolerance), else at the end.
pub fn put_expectation(expect: &mut Vec<Expectation>, new: Expectation) {
    put_entry(expect, new);
}

/// An expectation as [`put_entry`] sees it: the ordered pair it names and its tolerance.
/// 2D's [`Expectation`] and 3D's `Expectation3` share the placing rule through it.
pub(super) trait PairEntry {
    fn pair(&self) -> (&str, &str);
    fn tolerance_field(&self) -> Option<f32>;
    fn set_tolerance_field(&mut self, tolerance: Option<f32>);
}

impl PairEntry for Expectation {
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

/// The rule of [`put_expectation`] for any kind of expectation: `new` replaces the first
/// entry for its pair (taking that entry's tolerance), later entries for the pair go, and a
/// pair with no entry is appended.
pub(super) fn put_entry<E: PairEntry>(expect: &mut Vec<E>, mut new: E) {
    let Some(first) = expect.iter().position(|e| e.pair() == new.pair()) else {
        expect.push(new);
        return;
    };
    new.set_tolerance_field(expect[first].tolerance_field());
    // Entries before `first` are for other pairs, so it keeps its index.
    let mut k = 0;
    expect.retain(|e| {
        let keep = k == first || e.pair() != new.pair();
        k += 1;
        keep
    });
    expect[first] = new;
}

/// Refuses to record more than [`MAX_RECORDED_PAIRS`] pairs at once (2D and 3D alike).
pub(super) fn refuse_too_many_pairs(count: usize) -> Result<(), String> {
    if count > MAX_RECORDED_PAIRS {
        return Err(format!(
            "{count} pairs are more than the {MAX_RECORDED_PAIRS} recorded at once; record the focused pair"
        ));
    }
    Ok(())
}

/// Records the pairs `pairs` (indices into `bodies`, a then b) as `scene`'s expectations,
/// each computed as `check` will compute it. Refuses more than [`MAX_RECORDED_PAIRS`].
pub fn record_expectations(
    scene: &mut Scene,
    bodies: &[SceneBody],
    pairs: &[(usize, usize)],
) -> Result<Vec<Recorded>, String> {
    refuse_too_many_pairs(pairs.len())?;
    let settings = settings_for_scene(scene);
    let mut recorded = Vec::with_capacity(pairs.len());
    for &(i, j) in pairs {
        let (Some(a), Some(b)) = (bodies.get(i), bodies.get(j)) else {
            return Err(format!("no pair of bodies {i} and {j}"));
        };
        let q = query_pair(&a.body_ref(), &b.body_ref(), &settings);
        let tolerance = scene
            .expect
            .iter()
            .find(|e| e.a == a.name && e.b == b.name)
            .and_then(|e| e.tolerance);
        let r = expectation_from_query(&a.name, &b.name, &q, tolerance);
        put_expectation(&mut scene.expect, r.expectation.clone());
        recorded.push(r);
    }
    Ok(recorded)
}

/// Every pair of `count` bodies, in body order (a before b).
pub fn every_pair(count: usize) -> Vec<(usize, usize)> {
    (0..count)
        .flat_map(|i| (i + 1..count).map(move |j| (i, j)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{check_scene, parse_scene, scene_to_string};

    const SCENE: &str = r#"(
        version: 1,
        bodies: [
            (name: "A", shape: Box(half_extents: (1, 1))),
            (name: "B", shape: Box(half_extents: (1, 1)), position: (1.5, 0.25)),
            (name: "C", shape: Circle(radius: 0.5), position: (-4, 0), velocity: (3, 0)),
        ],
        expect: [
            (a: "A", b: "B", depth: 0.75, tolerance: 0.001),
            (a: "B", b: "A", contacts: 2),
            (a: "A", b: "B", contacts: 7),
        ],
    )"#;

    #[test]
    fn recorded_expectations_hold_the_current_numbers_and_check_passes_after_a_round_trip() {
        let (mut scene, bodies) = parse_scene(SCENE, "rec.ron").unwrap();
        let recorded = record_expectations(&mut scene, &bodies, &every_pair(3)).unwrap();
        assert_eq!(recorded.len(), 3);
        // A vs B: overlapping boxes, 0.5 deep along x, two contact points.
        let ab = &recorded[0].expectation;
        assert_eq!((ab.a.as_str(), ab.b.as_str()), ("A", "B"));
        assert_eq!(ab.intersecting, Some(true));
        assert_eq!(ab.distance, Some(0.0));
        assert!((ab.depth.unwrap() - 0.5).abs() < 1e-6, "{ab:?}");
        assert!((ab.normal.unwrap() - glam::Vec2::X).length() < 1e-6);
        assert_eq!(ab.contacts, Some(2));
        assert_eq!((ab.hit, ab.t_first), (None, None), "no velocity, no sweep");
        // A vs C: 3 apart (circle of radius 0.5 at -4, box edge at -1 ... 2.5 gap), and
        // moving at 3 units a second it reaches A at t = 2.5 / 3, inside [0, 1].
        let ac = &recorded[1].expectation;
        assert_eq!(ac.intersecting, Some(false));
        assert!((ac.distance.unwrap() - 2.5).abs() < 1e-5);
        assert_eq!((ac.depth, ac.normal, ac.contacts), (None, None, Some(0)));
        assert_eq!(ac.hit, Some(true));
        assert!((ac.t_first.unwrap() - 2.5 / 3.0).abs() < 1e-4);
        // The old A-B entries became one, where the first was, keeping its tolerance; the
        // B-A entry (the other order) stays.
        let pairs: Vec<_> = scene
            .expect
            .iter()
            .map(|e| (e.a.as_str(), e.b.as_str()))
            .collect();
        assert_eq!(pairs, [("A", "B"), ("B", "A"), ("A", "C"), ("B", "C")]);
        assert_eq!(scene.expect[0].tolerance, Some(0.001));
        // Written and read back, every expectation passes.
        let text = scene_to_string(&scene);
        let (again, bodies) = parse_scene(&text, "rec.ron").unwrap();
        for check in check_scene(&again, &bodies) {
            assert!(check.passed(), "{}", check.describe());
        }
    }

    #[test]
    fn a_depth_the_algorithms_disagree_on_is_left_out_with_the_reason() {
        let (_, bodies) = parse_scene(SCENE, "rec.ron").unwrap();
        let settings = settings_for_scene(&Scene::empty());
        let mut q = query_pair(&bodies[0].body_ref(), &bodies[1].body_ref(), &settings);
        q.sat.depth = Some(0.6);
        let r = expectation_from_query("A", "B", &q, None);
        assert_eq!(r.expectation.depth, None);
        assert_eq!(
            r.left_out,
            ["depth left out: EPA says 0.5000, SAT 0.6000".to_string()]
        );
    }

    #[test]
    fn too_many_pairs_are_refused() {
        let (mut scene, bodies) = parse_scene(SCENE, "rec.ron").unwrap();
        let err = record_expectations(&mut scene, &bodies, &every_pair(15)).unwrap_err();
        assert!(err.contains("105 pairs"), "{err}");
        assert_eq!(scene.expect.len(), 3, "nothing changed");
    }
}
