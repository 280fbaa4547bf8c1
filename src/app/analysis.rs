//! The focused pair's query results and recorded steps, recomputed by the core whenever the
//! document changes. The labs draw from this and nothing else.

use super::state::Document;
use crate::query::epa::{epa, EpaConfig, EpaOutput, EpaStep};
use crate::query::gjk::{gjk, GjkConfig, GjkOutput, GjkStep};
use crate::query::sat::{sat, SatAxis, SatOutput};
use crate::query::ShapePair;
use crate::scene::SceneBody;

/// Interim form of the core's `query::pair` API (same names), until it lands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairSettings {
    pub gjk: GjkConfig,
    pub epa: EpaConfig,
    pub sweep_time: f32,
}

impl Default for PairSettings {
    fn default() -> Self {
        PairSettings {
            gjk: GjkConfig::default(),
            epa: EpaConfig::default(),
            sweep_time: 1.0,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct PairQuery {
    pub gjk: GjkOutput,
    pub epa: Option<EpaOutput>,
    pub sat: SatOutput,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairTrace {
    pub gjk: Vec<GjkStep>,
    pub epa: Vec<EpaStep>,
    pub sat: Vec<SatAxis>,
}

pub fn trace_pair(a: &SceneBody, b: &SceneBody, settings: &PairSettings) -> (PairQuery, PairTrace) {
    let pair = ShapePair::new(&a.shape, a.pose, &b.shape, b.pose);
    let mut trace = PairTrace::default();
    let g = gjk(&pair, &settings.gjk, &mut trace.gjk);
    let e = epa(&pair, &g, &settings.epa, &mut trace.epa);
    let s = sat(&pair, &mut trace.sat);
    (
        PairQuery {
            gjk: g,
            epa: e,
            sat: s,
        },
        trace,
    )
}

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
        let (query, trace) = trace_pair(body_a, body_b, settings);
        Some(Analysis {
            a,
            b,
            query,
            trace,
            minkowski: None,
        })
    }
}
