//! Which overlays are on, which step each shows, and which one the timeline steps through.
//! The rules live in the methods (selecting a step switches its overlay on; choosing the
//! timeline's algorithm switches it on); nothing else edits these arrays.

use crate::query::Algorithm;

/// The overlays on when a scene does not say.
pub const DEFAULT_OVERLAYS: [Algorithm; 3] = [Algorithm::Minkowski, Algorithm::Gjk, Algorithm::Epa];

/// Per-algorithm switches and selected steps, indexed by [`Algorithm::index`].
#[derive(Clone, Debug, PartialEq)]
pub struct OverlayState {
    enabled: [bool; Algorithm::COUNT],
    /// The step each overlay shows; `None` shows the final state.
    steps: [Option<usize>; Algorithm::COUNT],
    /// The overlay the timeline steps through.
    timeline: Algorithm,
}

impl OverlayState {
    /// `on` switched on; the timeline follows the first of them that has steps (the
    /// Minkowski difference has none), else GJK.
    pub fn new(on: &[Algorithm]) -> Self {
        let mut enabled = [false; Algorithm::COUNT];
        for a in on {
            enabled[a.index()] = true;
        }
        let timeline = on
            .iter()
            .copied()
            .find(|a| *a != Algorithm::Minkowski)
            .unwrap_or(Algorithm::Gjk);
        OverlayState {
            enabled,
            steps: [None; Algorithm::COUNT],
            timeline,
        }
    }

    pub fn is_on(&self, a: Algorithm) -> bool {
        self.enabled[a.index()]
    }

    pub fn set_on(&mut self, a: Algorithm, on: bool) {
        self.enabled[a.index()] = on;
    }

    /// The selected step of `a`; `None` shows its final state.
    pub fn step(&self, a: Algorithm) -> Option<usize> {
        self.steps[a.index()]
    }

    /// Shows step `k` of `a`, switching its overlay on.
    pub fn select_step(&mut self, a: Algorithm, k: usize) {
        self.steps[a.index()] = Some(k);
        self.enabled[a.index()] = true;
    }

    pub fn timeline(&self) -> Algorithm {
        self.timeline
    }

    /// Makes `a` the timeline's algorithm, switching its overlay on.
    pub fn set_timeline(&mut self, a: Algorithm) {
        self.timeline = a;
        self.enabled[a.index()] = true;
    }

    /// Keeps each selected step inside its (possibly shorter) timeline after a rerun; an
    /// algorithm left with no steps goes back to its final state.
    pub fn keep_steps_within(&mut self, step_count: impl Fn(Algorithm) -> usize) {
        for a in Algorithm::ALL {
            if let Some(k) = self.steps[a.index()] {
                let n = step_count(a);
                self.steps[a.index()] = (n > 0).then(|| k.min(n - 1));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timeline_skips_the_minkowski_difference_and_selecting_switches_on() {
        let mut o = OverlayState::new(&[Algorithm::Minkowski, Algorithm::Sat]);
        assert_eq!(o.timeline(), Algorithm::Sat);
        assert!(o.is_on(Algorithm::Minkowski) && !o.is_on(Algorithm::Clip));
        o.select_step(Algorithm::Clip, 4);
        assert!(o.is_on(Algorithm::Clip));
        assert_eq!(o.step(Algorithm::Clip), Some(4));
        assert_eq!(OverlayState::new(&[]).timeline(), Algorithm::Gjk);
    }

    #[test]
    fn selected_steps_shrink_with_their_timeline() {
        let mut o = OverlayState::new(&DEFAULT_OVERLAYS);
        o.select_step(Algorithm::Gjk, 5);
        o.select_step(Algorithm::Epa, 2);
        o.keep_steps_within(|a| if a == Algorithm::Gjk { 3 } else { 0 });
        assert_eq!(o.step(Algorithm::Gjk), Some(2));
        assert_eq!(o.step(Algorithm::Epa), None);
        assert_eq!(o.step(Algorithm::Sat), None);
    }
}
