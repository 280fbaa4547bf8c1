//! The focused pair's query results and recorded steps, recomputed by the core whenever the
//! document changes. The labs draw from this and nothing else; the timeline reads its step
//! counts and sentences from here.

use super::state::Document;
use crate::query::minkowski::minkowski_difference;
pub use crate::query::pair::{trace_pair, PairQuery, PairSettings, PairTrace};
use crate::query::{Algorithm, ShapePair};

/// Everything the overlays and panels show for the focused pair.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Indices of bodies A and B in the document.
    pub a: usize,
    pub b: usize,
    pub query: PairQuery,
    pub trace: PairTrace,
    /// The outline of A - B (counter-clockwise).
    pub minkowski: Vec<glam::Vec2>,
}

impl Analysis {
    /// Runs every algorithm on the document's focused pair; `None` without a pair. The
    /// sweep interval is the document's; `settings` gives the iteration limits.
    pub fn run(doc: &Document, settings: &PairSettings) -> Option<Analysis> {
        let (a, b) = doc.focus?;
        let (body_a, body_b) = (doc.bodies.get(a)?, doc.bodies.get(b)?);
        let settings = PairSettings {
            sweep_time: doc.meta.sweep_time(),
            ..*settings
        };
        let (query, trace) = trace_pair(&body_a.body_ref(), &body_b.body_ref(), &settings);
        let pair = ShapePair::new(&body_a.shape, body_a.pose, &body_b.shape, body_b.pose);
        let minkowski = minkowski_difference(&pair).outline;
        Some(Analysis {
            a,
            b,
            query,
            trace,
            minkowski,
        })
    }

    /// How many steps `algorithm` recorded (0: nothing to step through).
    pub fn step_count(&self, algorithm: Algorithm) -> usize {
        self.trace.step_count(algorithm)
    }

    /// The step that shows the algorithm's answer, drawn when no step is selected: SAT's
    /// best axis, else the last step.
    pub fn final_step(&self, algorithm: Algorithm) -> usize {
        match algorithm {
            Algorithm::Sat => {
                let best = self.query.sat.best.source;
                self.trace
                    .sat
                    .iter()
                    .position(|a| a.source == best)
                    .unwrap_or(0)
            }
            _ => self.step_count(algorithm).saturating_sub(1),
        }
    }

    /// The teaching sentence for step `k` of `algorithm`: the core's sentence (the one
    /// `collision-lab trace` prints), and for SAT's best axis a note that it is the answer.
    pub fn sentence(&self, algorithm: Algorithm, k: usize) -> Option<String> {
        let mut text = self.trace.sentence(algorithm, k)?;
        if algorithm == Algorithm::Sat && self.trace.sat[k].source == self.query.sat.best.source {
            text += " This is the best axis: the smallest overlap (or the largest gap) of all.";
        }
        Some(text)
    }
}

impl super::session::Analysed for Document {
    type Settings = PairSettings;
    type Run = Analysis;

    fn revision(&self) -> u64 {
        self.file.revision
    }

    fn listed_overlays(&self) -> Option<Vec<Algorithm>> {
        self.meta.overlays.clone()
    }

    fn default_overlays() -> &'static [Algorithm] {
        &super::overlays::DEFAULT_OVERLAYS
    }

    fn analyse(&self, settings: &PairSettings) -> Option<Analysis> {
        Analysis::run(self, settings)
    }
}

impl super::session::Recorded for Analysis {
    fn step_count(&self, algorithm: Algorithm) -> usize {
        Analysis::step_count(self, algorithm)
    }

    fn final_step(&self, algorithm: Algorithm) -> usize {
        Analysis::final_step(self, algorithm)
    }

    fn sentence(&self, algorithm: Algorithm, k: usize) -> Option<String> {
        Analysis::sentence(self, algorithm, k)
    }
}
