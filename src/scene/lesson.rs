//! A lesson: a scene file that is also one step of the course in Help > Lessons. The scene's
//! `notes` say what to look at; the lesson adds a question for the class and its answer, the
//! timeline step the lesson opens on, and an exercise whose goal the window can check on the
//! focused pair's answers ([`Goal::met`]).
//!
//! The goal is checked here, in the core, on the same outputs the Results panel shows, so the
//! window, the tests and the teacher's guide agree on when an exercise is done.

use crate::query::pair::PairQuery;
use crate::query::sat::AxisSource;
use crate::query::{Algorithm, Body};
use crate::query3::pair::PairQuery3;
use crate::query3::sat::AxisId as AxisId3;
use serde::{Deserialize, Serialize};

/// Most lessons a course may number.
pub const MAX_LESSON: u32 = 99;

/// What a scene file adds when it is a lesson.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Its place in the course, from 1.
    pub number: u32,
    /// A question to ask the class about what the scene shows.
    pub question: String,
    /// The question's answer, shown behind "Show answer".
    pub answer: String,
    /// The timeline's algorithm and step (counted from 1, as the timeline shows them) when
    /// the lesson opens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<(Algorithm, usize)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exercise: Option<Exercise>,
}

/// Something for a student to do with the scene, and how the window knows it is done.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exercise {
    /// The task, as the student reads it.
    pub task: String,
    pub goal: Goal,
    /// What the window says once the goal is met (after "Found it").
    pub found: String,
}

/// A condition on the focused pair's answers. Each reads outputs the Results panel shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Goal {
    /// The bodies are within `within` of touching: apart by at most `within` (GJK's
    /// distance), or overlapping by at most `within` (SAT's depth).
    Touching { within: f32 },
    /// GJK takes at least this many iterations to reach its verdict.
    GjkIterations { at_least: u32 },
    /// Apart, and SAT's separation falls short of GJK's distance by at least `by`: the
    /// closest features are not a vertex against an edge (or face).
    SeparationShort { by: f32 },
    /// Overlapping, and SAT's and EPA's normals differ by more than `degrees`.
    NormalsDisagree { degrees: f32 },
    /// SAT's winning axis is of this kind, overlapping or not: `edge_a`, `edge_b`,
    /// `vertex_a`, `vertex_b` (2D), `face_a`, `face_b`, `edges`, `closest` (3D).
    SatAxis { kind: String },
    /// Overlapping, with exactly this many contact points.
    Contacts { count: usize },
    /// Overlapping, with this 3D feature pair (`face_face`, `edge_edge`, ...).
    FeaturePair { key: String },
    /// The sweep hits, yet the bodies are apart at the start and at the end of the
    /// interval: a test of the two end poses alone misses the collision.
    Tunnels,
}

/// SAT's axis kinds a goal may name, per dimension.
const AXIS_KINDS_2D: [&str; 5] = ["edge_a", "edge_b", "vertex_a", "vertex_b", "fallback"];
const AXIS_KINDS_3D: [&str; 4] = ["face_a", "face_b", "edges", "closest"];

/// The focused pair's answers that goals read, for either dimension. Normals are unit
/// vectors from A toward B (z = 0 in 2D).
#[derive(Clone, Debug, PartialEq)]
pub struct Answers {
    /// SAT's verdict: the bodies overlap or touch.
    pub intersecting: bool,
    /// SAT's depth, when it finds them overlapping.
    pub depth: Option<f32>,
    /// SAT's separation (a lower bound of the distance), when it finds them apart.
    pub separation: Option<f32>,
    /// GJK's distance, when GJK finds them apart.
    pub distance: Option<f32>,
    pub gjk_iterations: u32,
    pub sat_normal: Option<[f32; 3]>,
    /// EPA's normal, when GJK found them intersecting and EPA ran.
    pub epa_normal: Option<[f32; 3]>,
    /// SAT's winning axis kind (see [`Goal::SatAxis`]).
    pub axis_kind: &'static str,
    /// The manifold's points (0 when apart).
    pub contacts: usize,
    /// The 3D manifold's feature pair key; `None` in 2D or when apart.
    pub feature: Option<&'static str>,
    /// The sweep's first and last contact times and its interval's end, when it ran.
    pub sweep: Option<SweepAnswer>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepAnswer {
    pub t_first: Option<f32>,
    pub t_last: Option<f32>,
    pub t_max: f32,
}

fn finite(n: [f32; 3]) -> Option<[f32; 3]> {
    n.iter().all(|c| c.is_finite()).then_some(n)
}

fn axis_kind_2d(axis: AxisSource) -> &'static str {
    match axis {
        AxisSource::Edge { body: Body::A, .. } => "edge_a",
        AxisSource::Edge { body: Body::B, .. } => "edge_b",
        AxisSource::Vertex { body: Body::A, .. } => "vertex_a",
        AxisSource::Vertex { body: Body::B, .. } => "vertex_b",
        AxisSource::Fallback => "fallback",
    }
}

fn axis_kind_3d(axis: AxisId3) -> &'static str {
    match axis {
        AxisId3::FaceA(_) => "face_a",
        AxisId3::FaceB(_) => "face_b",
        AxisId3::Edges(..) => "edges",
        AxisId3::Closest => "closest",
    }
}

impl Answers {
    /// A 2D pair's answers; `sweep_time` is the interval the sweep ran over.
    pub fn from_query(q: &PairQuery, sweep_time: f32) -> Answers {
        let s = &q.sat;
        Answers {
            intersecting: s.intersecting,
            depth: s.depth.filter(|_| s.intersecting),
            separation: s.separation.filter(|_| !s.intersecting),
            distance: (!q.gjk.intersecting).then_some(q.gjk.distance),
            gjk_iterations: q.gjk.iterations,
            sat_normal: finite([s.normal.x, s.normal.y, 0.0]),
            epa_normal: q
                .epa
                .as_ref()
                .and_then(|e| finite([e.normal.x, e.normal.y, 0.0])),
            axis_kind: axis_kind_2d(s.axis),
            contacts: q.manifold.as_ref().map_or(0, |m| m.count),
            feature: None,
            sweep: q.sweep.map(|w| SweepAnswer {
                t_first: w.t_first,
                t_last: w.t_last,
                t_max: sweep_time,
            }),
        }
    }

    /// A 3D pair's answers; `sweep_time` is the interval the sweep ran over.
    pub fn from_query3(q: &PairQuery3, sweep_time: f32) -> Answers {
        let s = &q.sat;
        Answers {
            intersecting: s.intersecting,
            depth: s.intersecting.then_some(s.depth),
            separation: (!s.intersecting).then_some(s.separation),
            distance: (!q.gjk.intersecting).then_some(q.gjk.distance),
            gjk_iterations: q.gjk.iterations,
            sat_normal: finite(s.normal.to_array()),
            epa_normal: q.epa.as_ref().and_then(|e| finite(e.normal.to_array())),
            axis_kind: axis_kind_3d(s.axis),
            contacts: q.manifold.as_ref().map_or(0, |m| m.points.len()),
            feature: q.manifold.as_ref().map(|m| m.feature.key()),
            sweep: q.sweep.as_ref().map(|w| SweepAnswer {
                t_first: w.t_first,
                t_last: w.t_last,
                t_max: sweep_time,
            }),
        }
    }

    /// The angle between SAT's and EPA's normals in degrees, when both exist.
    pub fn normals_angle(&self) -> Option<f32> {
        let (a, b) = (self.sat_normal?, self.epa_normal?);
        let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
        Some(dot.clamp(-1.0, 1.0).acos().to_degrees())
    }
}

impl Goal {
    /// Whether the answers meet the goal.
    pub fn met(&self, a: &Answers) -> bool {
        match self {
            Goal::Touching { within } => match (a.intersecting, a.depth, a.distance) {
                (true, Some(depth), _) => depth <= *within,
                (false, _, Some(distance)) => distance <= *within,
                _ => false,
            },
            Goal::GjkIterations { at_least } => a.gjk_iterations >= *at_least,
            Goal::SeparationShort { by } => match (a.intersecting, a.separation, a.distance) {
                (false, Some(s), Some(d)) => d - s >= *by,
                _ => false,
            },
            Goal::NormalsDisagree { degrees } => {
                a.intersecting && a.normals_angle().is_some_and(|angle| angle > *degrees)
            }
            Goal::SatAxis { kind } => a.axis_kind == kind,
            Goal::Contacts { count } => a.intersecting && a.contacts == *count,
            Goal::FeaturePair { key } => a.intersecting && a.feature == Some(key.as_str()),
            Goal::Tunnels => a.sweep.is_some_and(|w| match (w.t_first, w.t_last) {
                (Some(first), Some(last)) => first > 0.0 && last < w.t_max,
                _ => false,
            }),
        }
    }

    /// Why the goal cannot be checked in a scene of `dimensions` (2 or 3) whose manifold
    /// names its feature pairs `features`, if it cannot.
    fn problem(&self, dimensions: u32, features: &[&str]) -> Option<String> {
        let number = |name: &str, x: f32| {
            (!x.is_finite() || x < 0.0)
                .then(|| format!("the goal's {name} must be a number >= 0, it is {x}"))
        };
        match self {
            Goal::Touching { within } => number("within", *within),
            Goal::SeparationShort { by } => number("by", *by),
            Goal::NormalsDisagree { degrees } => number("degrees", *degrees),
            Goal::SatAxis { kind } => {
                let kinds: &[&str] = if dimensions == 3 {
                    &AXIS_KINDS_3D
                } else {
                    &AXIS_KINDS_2D
                };
                (!kinds.contains(&kind.as_str())).then(|| {
                    format!(
                        "SatAxis kind \"{kind}\" is not one of {} in a {dimensions}D scene",
                        kinds.join(", ")
                    )
                })
            }
            Goal::FeaturePair { key } if dimensions != 3 => Some(format!(
                "FeaturePair (\"{key}\") is a 3D goal: a 2D manifold is always edge against edge"
            )),
            Goal::FeaturePair { key } => (!features.contains(&key.as_str())).then(|| {
                format!(
                    "FeaturePair key \"{key}\" is not one of {}",
                    features.join(", ")
                )
            }),
            Goal::GjkIterations { .. } | Goal::Contacts { .. } | Goal::Tunnels => None,
        }
    }
}

impl Lesson {
    /// Checks what the parser cannot, for a scene of `dimensions` whose timeline offers
    /// `algorithms` and whose manifold names its feature pairs `features` (none in 2D).
    pub fn problem(
        &self,
        dimensions: u32,
        algorithms: &[Algorithm],
        features: &[&str],
    ) -> Option<String> {
        if self.number == 0 || self.number > MAX_LESSON {
            return Some(format!(
                "lesson number must be between 1 and {MAX_LESSON}, it is {}",
                self.number
            ));
        }
        if self.question.trim().is_empty() || self.answer.trim().is_empty() {
            return Some("a lesson needs a question and its answer".into());
        }
        if let Some((algorithm, k)) = self.step {
            if !algorithms.contains(&algorithm) {
                return Some(format!(
                    "the lesson's step names {}, which a {dimensions}D scene's timeline does not have",
                    algorithm.key()
                ));
            }
            if k == 0 {
                return Some("the lesson's step counts from 1, it is 0".into());
            }
        }
        let exercise = self.exercise.as_ref()?;
        if exercise.task.trim().is_empty() {
            return Some("the lesson's exercise needs a task".into());
        }
        exercise.goal.problem(dimensions, features)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers() -> Answers {
        Answers {
            intersecting: false,
            depth: None,
            separation: Some(0.5),
            distance: Some(0.7),
            gjk_iterations: 3,
            sat_normal: Some([1.0, 0.0, 0.0]),
            epa_normal: None,
            axis_kind: "edge_b",
            contacts: 0,
            feature: None,
            sweep: None,
        }
    }

    #[test]
    fn touching_reads_the_distance_apart_and_the_depth_overlapping() {
        let apart = answers();
        assert!(Goal::Touching { within: 0.7 }.met(&apart));
        assert!(!Goal::Touching { within: 0.69 }.met(&apart));
        let deep = Answers {
            intersecting: true,
            depth: Some(0.2),
            separation: None,
            distance: None,
            ..answers()
        };
        assert!(Goal::Touching { within: 0.2 }.met(&deep));
        assert!(!Goal::Touching { within: 0.1 }.met(&deep));
    }

    #[test]
    fn separation_short_needs_the_gap_between_the_bound_and_the_distance() {
        // Distance 0.7, separation 0.5: short by 0.2.
        assert!(Goal::SeparationShort { by: 0.19 }.met(&answers()));
        assert!(!Goal::SeparationShort { by: 0.21 }.met(&answers()));
    }

    #[test]
    fn normals_disagree_measures_the_angle_between_sat_and_epa() {
        // SAT along +x, EPA along +y: 90 degrees apart.
        let a = Answers {
            intersecting: true,
            depth: Some(0.1),
            epa_normal: Some([0.0, 1.0, 0.0]),
            ..answers()
        };
        assert!((a.normals_angle().unwrap() - 90.0).abs() < 1e-4);
        assert!(Goal::NormalsDisagree { degrees: 1.0 }.met(&a));
        let same = Answers {
            epa_normal: Some([1.0, 0.0, 0.0]),
            ..a.clone()
        };
        assert!(!Goal::NormalsDisagree { degrees: 1.0 }.met(&same));
    }

    #[test]
    fn tunnelling_is_a_hit_inside_the_interval_apart_at_both_ends() {
        let swept = |t_first, t_last| Answers {
            sweep: Some(SweepAnswer {
                t_first,
                t_last,
                t_max: 1.0,
            }),
            ..answers()
        };
        assert!(Goal::Tunnels.met(&swept(Some(0.3), Some(0.4))));
        // Still overlapping at the end: the end pose's test sees it.
        assert!(!Goal::Tunnels.met(&swept(Some(0.3), Some(1.0))));
        // Overlapping at the start.
        assert!(!Goal::Tunnels.met(&swept(Some(0.0), Some(0.4))));
        assert!(!Goal::Tunnels.met(&swept(None, None)));
    }

    #[test]
    fn goals_say_when_they_do_not_fit_the_scene() {
        let axis = |kind: &str| Goal::SatAxis { kind: kind.into() };
        assert_eq!(axis("edge_b").problem(2, &[]), None);
        assert!(axis("edges").problem(2, &[]).unwrap().contains("2D scene"));
        assert_eq!(axis("edges").problem(3, &["edge_edge"]), None);
        let pair = Goal::FeaturePair {
            key: "edge_edge".into(),
        };
        assert!(pair.problem(2, &[]).unwrap().contains("3D goal"));
        assert_eq!(pair.problem(3, &["edge_edge"]), None);
        let bad = Goal::Touching { within: f32::NAN };
        assert!(bad.problem(2, &[]).unwrap().contains("within"));
    }
}
