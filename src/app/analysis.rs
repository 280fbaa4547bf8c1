//! The focused pair's query results and recorded steps, recomputed by the core whenever the
//! document changes. The labs draw from this and nothing else.

use super::state::Document;
use crate::query::minkowski::minkowski_difference;
pub use crate::query::pair::{trace_pair, PairQuery, PairSettings, PairTrace};
use crate::query::ShapePair;

/// Everything the overlays and panels show for the focused pair.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Indices of bodies A and B in the document.
    pub a: usize,
    pub b: usize,
    pub query: PairQuery,
    pub trace: PairTrace,
    /// The outline of A - B (counter-clockwise), when the core provides it.
    pub minkowski: Option<Vec<glam::Vec2>>,
}

impl Analysis {
    /// Runs every algorithm on the document's focused pair; `None` without a pair.
    pub fn run(doc: &Document, settings: &PairSettings) -> Option<Analysis> {
        let (a, b) = doc.focus?;
        let (body_a, body_b) = (doc.bodies.get(a)?, doc.bodies.get(b)?);
        let (query, trace) = trace_pair(&body_a.body_ref(), &body_b.body_ref(), settings);
        let pair = ShapePair::new(&body_a.shape, body_a.pose, &body_b.shape, body_b.pose);
        let minkowski = Some(minkowski_difference(&pair).outline);
        Some(Analysis {
            a,
            b,
            query,
            trace,
            minkowski,
        })
    }
}
