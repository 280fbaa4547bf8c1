//! The focused 3D pair's query results and recorded steps, recomputed by the core whenever
//! the document changes (as `analysis.rs` is for the plane). The 3D labs draw from this and
//! nothing else; the timeline reads its step counts and sentences from here.

use super::paint3::FaceMesh;
use super::session::{Analysed, Recorded};
use super::state3::Document3;
use crate::geom3::{Pose3, Shape3Ref};
use crate::query::Algorithm;
use crate::query3::minkowski::{body_difference, BodyDifference3};
pub use crate::query3::pair::{trace_pair3, PairQuery3, PairSettings3, PairTrace3};
use crate::query3::sat;
use std::cell::OnceCell;

/// The overlays on when a 3D scene does not say: SAT and the contact manifold, the two
/// algorithms whose pictures 3D needs most.
pub const DEFAULT_OVERLAYS_3D: [Algorithm; 2] = [Algorithm::Sat, Algorithm::Clip];

/// The algorithms the 3D workspace draws: its timeline steps through these only, so that no
/// sentence is told without its picture. Every algorithm is drawn (A - B too); the registry
/// lists the same, in the same order.
pub const DRAWN_3D: [Algorithm; 6] = [
    Algorithm::Minkowski,
    Algorithm::Gjk,
    Algorithm::Epa,
    Algorithm::Sat,
    Algorithm::Clip,
    Algorithm::Sweep,
];

/// Everything the 3D overlays and panels show for the focused pair.
#[derive(Clone, Debug)]
pub struct Analysis3 {
    /// Indices of bodies A and B in the document.
    pub a: usize,
    pub b: usize,
    pub query: PairQuery3,
    pub trace: PairTrace3,
    /// A - B of the pair (and the cores' difference when a body is round), built the first
    /// time the A - B view asks ([`Analysis3::difference`]): a hull costs more than every
    /// algorithm together, and most frames do not show it.
    difference: OnceCell<Result<BodyDifference3, String>>,
    /// A - B's surface as the A - B view draws it, built with the hull (not every frame).
    difference_mesh: OnceCell<Option<FaceMesh>>,
}

impl Analysis3 {
    /// Runs every 3D algorithm on the document's focused pair; `None` without a pair.
    pub fn run(doc: &Document3, settings: &PairSettings3) -> Option<Analysis3> {
        let (a, b) = doc.focus?;
        let (body_a, body_b) = (doc.bodies.get(a)?, doc.bodies.get(b)?);
        let settings = PairSettings3 {
            sweep_time: doc.meta.sweep_time(),
            ..*settings
        };
        let (query, trace) = trace_pair3(&body_a.body_ref(), &body_b.body_ref(), &settings);
        Some(Analysis3 {
            a,
            b,
            query,
            trace,
            difference: OnceCell::new(),
            difference_mesh: OnceCell::new(),
        })
    }

    /// A - B of the pair in `doc` (the document this analysis was run on), and the cores'
    /// difference when a body is round; why not, when its hull cannot be built.
    pub fn difference(&self, doc: &Document3) -> Result<&BodyDifference3, &str> {
        let built = self.difference.get_or_init(|| {
            let (a, b) = match (doc.bodies.get(self.a), doc.bodies.get(self.b)) {
                (Some(a), Some(b)) => (a, b),
                _ => return Err("A - B: the focused pair is gone".into()),
            };
            body_difference((a.shape.as_ref(), &a.pose), (b.shape.as_ref(), &b.pose))
                .map_err(|e| format!("A - B has no hull: {e}"))
        });
        built.as_ref().map_err(|e| e.as_str())
    }

    /// A - B's hull as a surface to draw (`None` when it has no hull).
    pub fn difference_mesh(&self, doc: &Document3) -> Option<&FaceMesh> {
        let mesh = self.difference_mesh.get_or_init(|| {
            let d = self.difference(doc).ok()?;
            let hull = Shape3Ref::Polyhedron(&d.difference.hull);
            Some(FaceMesh::of_shape(hull, &Pose3::default()))
        });
        mesh.as_ref()
    }

    /// The position in SAT's trace of the winning axis's step.
    pub fn best_sat_step(&self) -> Option<usize> {
        let best = self.query.sat.axis;
        self.trace
            .sat
            .iter()
            .position(|s| matches!(s, sat::Step::Axis(t) if t.id == best))
    }

    /// The best axis up to and including step `k`: the largest separation so far, a face
    /// kept against a later edge axis that is not clearly better (SAT's own rule is applied
    /// by the core; this reads the recorded separations only to show "best so far").
    pub fn best_sat_step_until(&self, k: usize) -> Option<usize> {
        let mut best: Option<(usize, f32)> = None;
        for (i, step) in self.trace.sat.iter().enumerate().take(k + 1) {
            if let sat::Step::Axis(t) = step {
                if best.is_none_or(|(_, s)| t.separation > s) {
                    best = Some((i, t.separation));
                }
            }
        }
        best.map(|(i, _)| i)
    }
}

/// The analysis of `scenes/3d/NAME` with the default settings (the labs' and panels' tests).
#[cfg(test)]
pub(crate) fn analyse_scene(name: &str) -> Analysis3 {
    let path = format!("{}/scenes/3d/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let (scene, bodies) = crate::scene::parse_scene3(&text, name).unwrap();
    let doc = Document3::from_parts(scene, bodies);
    Analysis3::run(&doc, &PairSettings3::default()).unwrap()
}

impl Recorded for Analysis3 {
    fn step_count(&self, algorithm: Algorithm) -> usize {
        self.trace.step_count(algorithm)
    }

    /// SAT's answer is its winning axis's step; every other algorithm's is its last step.
    fn final_step(&self, algorithm: Algorithm) -> usize {
        match algorithm {
            Algorithm::Sat => self.best_sat_step().unwrap_or(0),
            _ => self.step_count(algorithm).saturating_sub(1),
        }
    }

    /// The core's sentence (the one `collision-lab trace` prints); on SAT's winning axis, a
    /// note that it is the answer.
    fn sentence(&self, algorithm: Algorithm, k: usize) -> Option<String> {
        if k >= self.step_count(algorithm) {
            return None;
        }
        let mut text = self.trace.sentence(algorithm, k);
        if algorithm == Algorithm::Sat && Some(k) == self.best_sat_step() {
            text += " This is SAT's answer: the axis with the largest separation (the smallest overlap), a face axis kept unless an edge axis is clearly better.";
        }
        Some(text)
    }
}

impl Analysed for Document3 {
    type Settings = PairSettings3;
    type Run = Analysis3;

    fn revision(&self) -> u64 {
        self.file.revision
    }

    /// The drawn overlays the scene lists; none of them listed reads as the defaults.
    fn listed_overlays(&self) -> Option<Vec<Algorithm>> {
        let drawn: Vec<Algorithm> = (self.meta.overlays.iter())
            .copied()
            .filter(|a| DRAWN_3D.contains(a))
            .collect();
        (!drawn.is_empty()).then_some(drawn)
    }

    fn default_overlays() -> &'static [Algorithm] {
        &DEFAULT_OVERLAYS_3D
    }

    fn timeline_algorithms() -> &'static [Algorithm] {
        &DRAWN_3D
    }

    fn analyse(&self, settings: &PairSettings3) -> Option<Analysis3> {
        Analysis3::run(self, settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::session::Session;
    use crate::app::timeline::TimelineModel;
    use crate::scene::parse_scene3;

    fn welcome() -> Session<Document3> {
        let text = include_str!("../../scenes/3d/welcome.ron");
        let (scene, bodies) = parse_scene3(text, "welcome.ron").unwrap();
        Session::new(Document3::from_parts(scene, bodies))
    }

    #[test]
    fn the_3d_welcome_opens_on_sat_at_its_answer_and_steps_through_it() {
        let mut s = welcome();
        assert_eq!(s.timeline(), Algorithm::Sat);
        let run = s.run().unwrap();
        let (n, k) = s.timeline_position().unwrap();
        assert_eq!(n, run.trace.sat.len());
        assert_eq!(Some(k), run.best_sat_step());
        let sentence = s.timeline_sentence().unwrap();
        assert!(sentence.contains("This is SAT's answer"), "{sentence}");
        // The answer's step is the axis the query reports.
        let sat::Step::Axis(best) = run.trace.sat[k] else {
            panic!("an axis step");
        };
        assert_eq!(best.axis, run.query.sat.normal);
        assert!(s.step_by(-1) || k == 0);
        s.choose_timeline(Algorithm::Clip);
        let (n, k) = s.timeline_position().unwrap();
        assert_eq!(k, n - 1, "the manifold's last step: its points");
        let choices: Vec<Algorithm> = s.timeline_choices().iter().map(|c| c.0).collect();
        assert!(!choices.contains(&Algorithm::Minkowski));
    }
}
