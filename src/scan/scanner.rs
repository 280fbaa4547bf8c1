//! The scan itself, incremental: the samples, then the bisection of each interval where an
//! answer changed, a bounded number of pair queries per call so that the window can spread
//! a long scan over frames.

use super::events::{changes, Bracket, Event, Narrowed, MAX_FLIPS_PER_INTERVAL, NARROW_FRACTION};
use super::mover::Mover;
use super::param::{ScanError, ScanSpec};
use super::sample::Sample;
use crate::scene::LoadedScene;

/// A finished scan: the spec, every sample in scan order, and the events in scan order.
#[derive(Clone, Debug, PartialEq)]
pub struct ScanOutput {
    pub spec: ScanSpec,
    pub samples: Vec<Sample>,
    pub events: Vec<Event>,
    /// Pair queries run in all: the samples plus the bisection steps.
    pub queries: usize,
}

/// A scan in progress. [`Scanner::advance`] runs a bounded number of pair queries; the
/// window calls it once a frame, the command line until it is done ([`scan`]).
#[derive(Clone, Debug)]
pub struct Scanner {
    spec: ScanSpec,
    mover: Mover,
    samples: Vec<Sample>,
    /// Intervals still being narrowed, the last one first.
    brackets: Vec<Bracket>,
    events: Vec<Event>,
    queries: usize,
    /// The largest progress reported so far (progress never goes back).
    progress: f32,
    /// The width at which a bracket is an event: [`NARROW_FRACTION`] of the range.
    narrow: f64,
}

impl Scanner {
    /// A scan of `spec` over `scene` (2D or 3D), or why the spec does not fit the scene. The
    /// pair's bodies are copied: the scene may change while the scan runs.
    pub fn new(scene: &LoadedScene, spec: ScanSpec) -> Result<Scanner, ScanError> {
        let mover = Mover::new(scene, &spec)?;
        let narrow = NARROW_FRACTION * (spec.to as f64 - spec.from as f64).abs();
        Ok(Scanner {
            samples: Vec::with_capacity(spec.samples),
            spec,
            mover,
            brackets: Vec::new(),
            events: Vec::new(),
            queries: 0,
            progress: 0.0,
            narrow,
        })
    }

    pub fn spec(&self) -> &ScanSpec {
        &self.spec
    }

    /// Runs up to `budget` pair queries (the samples first, then the bisection steps) and
    /// says whether the scan is done.
    pub fn advance(&mut self, budget: usize) -> bool {
        let mut left = budget;
        while left > 0 && self.samples.len() < self.spec.samples {
            let t = self.spec.sample_t(self.samples.len());
            let sample = self.mover.sample(t);
            self.queries += 1;
            left -= 1;
            if let Some(previous) = self.samples.last() {
                let changed = changes(previous, &sample);
                if !changed.is_empty() {
                    self.brackets.push(Bracket {
                        lo: previous.clone(),
                        hi: sample.clone(),
                        changes: changed,
                        room: MAX_FLIPS_PER_INTERVAL,
                    });
                }
            }
            self.samples.push(sample);
        }
        if self.samples.len() < self.spec.samples {
            self.update_progress();
            return false;
        }
        while let Some(bracket) = self.brackets.pop() {
            match bracket.step(self.narrow) {
                Narrowed::Done(event) => self.events.extend(event),
                Narrowed::Sample(_) if left == 0 => {
                    self.brackets.push(bracket);
                    self.update_progress();
                    return false;
                }
                Narrowed::Sample(t) => {
                    let mid = self.mover.sample(t);
                    self.queries += 1;
                    left -= 1;
                    // The second half first on the stack, so the first is narrowed first.
                    let [first, second] = bracket.split(mid);
                    self.brackets.extend(second);
                    self.brackets.extend(first);
                }
            }
        }
        self.progress = 1.0;
        true
    }

    /// Whether every sample is taken and every event narrowed.
    pub fn is_done(&self) -> bool {
        self.samples.len() == self.spec.samples && self.brackets.is_empty()
    }

    /// How far the scan is, from 0 to 1 (1 when done); it never goes back. The bisection's
    /// part is estimated from the brackets left and their widths.
    pub fn progress(&self) -> f32 {
        self.progress
    }

    /// The samples taken so far, in scan order.
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }

    /// Pair queries run so far.
    pub fn queries(&self) -> usize {
        self.queries
    }

    fn update_progress(&mut self) {
        let sampling = (self.spec.samples - self.samples.len()) as f64;
        let bisecting: f64 = self
            .brackets
            .iter()
            .map(|b| {
                let width = (b.hi.t as f64 - b.lo.t as f64).abs();
                (width / self.narrow).log2().ceil().max(0.0)
            })
            .sum();
        let done = self.queries as f64;
        let now = (done / (done + sampling + bisecting)) as f32;
        self.progress = self.progress.max(now.min(1.0));
    }

    /// The scan's output, running what is left first. The events are in scan order.
    pub fn output(mut self) -> ScanOutput {
        while !self.advance(usize::MAX) {}
        let forward = self.spec.to >= self.spec.from;
        self.events.sort_by(|p, q| {
            let order = p.lo.total_cmp(&q.lo);
            if forward {
                order
            } else {
                order.reverse()
            }
        });
        ScanOutput {
            spec: self.spec,
            samples: self.samples,
            events: self.events,
            queries: self.queries,
        }
    }
}

/// Runs a whole scan: [`Scanner`] to the end.
pub fn scan(scene: &LoadedScene, spec: ScanSpec) -> Result<ScanOutput, ScanError> {
    Ok(Scanner::new(scene, spec)?.output())
}
