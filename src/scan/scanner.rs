//! The scan itself, incremental: the samples, then the bisection of each interval where an
//! answer changed, a bounded number of pair queries per call so that the window can spread
//! a long scan over frames.

use super::events::{changes, Bracket, Event, MAX_FLIPS_PER_INTERVAL, NARROW_FRACTION};
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
            let Some(t) = bracket.midpoint(self.narrow) else {
                self.events.extend(bracket.event());
                continue;
            };
            if left == 0 {
                self.brackets.push(bracket);
                self.update_progress();
                return false;
            }
            let mid = self.mover.sample(t);
            self.queries += 1;
            left -= 1;
            // The second half first on the stack, so the first is narrowed first.
            let [first, second] = bracket.split(mid);
            self.brackets.extend(second);
            self.brackets.extend(first);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::{pose_at, MovedPose, Param};
    use crate::scene::parse_any_scene;

    const TURN: &str = r#"(
        version: 1,
        bodies: [
            (name: "ground", shape: Box(half_extents: (2, 0.5))),
            (name: "box", shape: Box(half_extents: (0.5, 0.5)), position: (0, 0.9)),
        ],
    )"#;

    fn turn_spec(samples: usize) -> ScanSpec {
        ScanSpec {
            a: "ground".into(),
            b: "box".into(),
            moving: "box".into(),
            param: Param::Angle,
            from: 0.0,
            to: 90.0,
            samples,
        }
    }

    #[test]
    fn advancing_in_small_budgets_gives_the_whole_scan_s_output() {
        let scene = parse_any_scene(TURN, "turn.ron").unwrap();
        let whole = scan(&scene, turn_spec(50)).unwrap();
        let mut scanner = Scanner::new(&scene, turn_spec(50)).unwrap();
        let mut last = 0.0;
        let mut calls = 0;
        loop {
            let before = scanner.queries();
            let done = scanner.advance(7);
            assert!(scanner.queries() - before <= 7, "the budget holds");
            assert!(scanner.progress() >= last, "progress never goes back");
            last = scanner.progress();
            calls += 1;
            if done {
                break;
            }
            assert!(last < 1.0);
        }
        assert!(scanner.is_done() && scanner.progress() == 1.0);
        assert_eq!(calls, whole.queries.div_ceil(7));
        assert_eq!(scanner.output(), whole);
        // Contacts 2 -> 1 -> 2, and the box's feature changes at 45 degrees.
        assert!(whole.events.len() >= 2);
        assert!(whole.events.windows(2).all(|w| w[0].hi <= w[1].lo));
    }

    #[test]
    fn a_reversed_range_finds_the_same_flips_in_scan_order() {
        let scene = parse_any_scene(TURN, "turn.ron").unwrap();
        let forward = scan(&scene, turn_spec(40)).unwrap();
        let backward = scan(
            &scene,
            ScanSpec {
                from: 90.0,
                to: 0.0,
                ..turn_spec(40)
            },
        )
        .unwrap();
        let contacts = |o: &ScanOutput| -> Vec<(f32, usize, usize)> {
            o.events
                .iter()
                .filter(|e| e.what.iter().any(|w| w == "contacts"))
                .map(|e| (e.lo, e.before.contacts, e.after.contacts))
                .collect()
        };
        let (f, b) = (contacts(&forward), contacts(&backward));
        assert_eq!(f.len(), 2);
        assert_eq!(b.len(), 2);
        // Backward, the first flip met is the one near 79.45 degrees, 2 -> 1.
        assert!((b[0].0 - f[1].0).abs() < 1e-4 && (b[0].1, b[0].2) == (2, 1));
        assert!((b[1].0 - f[0].0).abs() < 1e-4 && (b[1].1, b[1].2) == (1, 2));
    }

    #[test]
    fn the_pose_at_a_parameter_is_the_loader_s_pose_of_that_entry() {
        let scene = parse_any_scene(TURN, "turn.ron").unwrap();
        let MovedPose::Two(pose) = pose_at(&scene, &turn_spec(2), 30.0).unwrap() else {
            panic!("a 2D scene moves a 2D body");
        };
        assert_eq!(pose.angle, 30.0f32.to_radians());
        assert_eq!(pose.position, glam::Vec2::new(0.0, 0.9));
    }

    #[test]
    fn a_spec_that_does_not_fit_the_scene_is_refused_before_any_query() {
        let scene = parse_any_scene(TURN, "turn.ron").unwrap();
        let refuse = |spec: ScanSpec| Scanner::new(&scene, spec).unwrap_err();
        assert_eq!(
            refuse(ScanSpec {
                param: Param::Rz,
                ..turn_spec(10)
            }),
            ScanError::WrongDimension {
                param: Param::Rz,
                three_d: false
            }
        );
        assert_eq!(
            refuse(ScanSpec {
                b: "ground".into(),
                ..turn_spec(10)
            }),
            ScanError::SameBody("ground".into())
        );
        assert_eq!(refuse(turn_spec(0)), ScanError::Samples(0));
    }
}
