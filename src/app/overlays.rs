//! Which overlays are on, which algorithm the timeline steps through, and the one step it
//! shows. One timeline drives the picture: the timeline's algorithm is drawn at the selected
//! step and every other overlay that is on shows its final state, so no overlay ever sits on
//! a frozen mid-run step of its own. The rules live in the methods (selecting a step switches
//! its overlay on and makes it the timeline's; switching the timeline's overlay off hands the
//! timeline to one that is on); nothing else edits these fields.

use crate::query::Algorithm;

/// The overlays on when a scene does not say.
pub const DEFAULT_OVERLAYS: [Algorithm; 3] = [Algorithm::Minkowski, Algorithm::Gjk, Algorithm::Epa];

/// Per-algorithm switches (indexed by [`Algorithm::index`]), the timeline's algorithm and its
/// selected step.
#[derive(Clone, Debug, PartialEq)]
pub struct OverlayState {
    enabled: [bool; Algorithm::COUNT],
    /// The overlay the timeline steps through.
    timeline: Algorithm,
    /// The step the timeline shows; `None` shows the final state (the answer).
    step: Option<usize>,
}

/// Whether an algorithm can carry the timeline: the Minkowski difference has no steps.
fn steps_through(a: Algorithm) -> bool {
    a != Algorithm::Minkowski
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
            .find(|a| steps_through(*a))
            .unwrap_or(Algorithm::Gjk);
        OverlayState {
            enabled,
            timeline,
            step: None,
        }
    }

    pub fn is_on(&self, a: Algorithm) -> bool {
        self.enabled[a.index()]
    }

    /// Switches an overlay on or off. Switching the timeline's overlay off hands the timeline
    /// to the first overlay still on that has steps (at its final step); with none left on,
    /// the timeline keeps its algorithm but shows nothing ([`Self::timeline_is_on`]).
    pub fn set_on(&mut self, a: Algorithm, on: bool) {
        self.enabled[a.index()] = on;
        if on || a != self.timeline {
            return;
        }
        if let Some(next) = Algorithm::ALL
            .into_iter()
            .find(|b| steps_through(*b) && self.is_on(*b))
        {
            self.timeline = next;
        }
        self.step = None;
    }

    /// The step `a` is drawn at: the selected step for the timeline's algorithm, `None` (the
    /// final state) for every other overlay.
    pub fn step(&self, a: Algorithm) -> Option<usize> {
        if a == self.timeline {
            self.step
        } else {
            None
        }
    }

    /// Shows step `k` of `a`: `a` becomes the timeline's algorithm and is switched on.
    pub fn select_step(&mut self, a: Algorithm, k: usize) {
        self.set_timeline(a);
        self.step = Some(k);
    }

    /// Back to the final state of the timeline's algorithm (after an edit: the picture, the
    /// labels and the Results panel then show the same answer).
    pub fn show_final(&mut self) {
        self.step = None;
    }

    pub fn timeline(&self) -> Algorithm {
        self.timeline
    }

    /// Whether the timeline's overlay is on (it is off only when every overlay with steps
    /// was switched off).
    pub fn timeline_is_on(&self) -> bool {
        self.is_on(self.timeline)
    }

    /// Makes `a` the timeline's algorithm, switching its overlay on; another algorithm
    /// starts at its final state.
    pub fn set_timeline(&mut self, a: Algorithm) {
        if a != self.timeline {
            self.step = None;
        }
        self.timeline = a;
        self.enabled[a.index()] = true;
    }

    /// Whether `a`'s overlay is drawn in the A - B inset. The inset tells one story at a
    /// time: when the timeline's algorithm draws there, only it and the backdrops (the
    /// Minkowski difference) do, at every step including its last (so GJK's last step shows
    /// no EPA polytope over its simplex). Otherwise every overlay that is on draws its final
    /// state. `uses_inset` and `is_backdrop` describe the labs.
    pub fn shows_in_inset(
        &self,
        a: Algorithm,
        uses_inset: impl Fn(Algorithm) -> bool,
        is_backdrop: impl Fn(Algorithm) -> bool,
    ) -> bool {
        if !self.is_on(a) {
            return false;
        }
        let timeline_in_inset = self.timeline_is_on() && uses_inset(self.timeline);
        a == self.timeline || is_backdrop(a) || !timeline_in_inset
    }

    /// Keeps the selected step inside its (possibly shorter) timeline after a rerun; an
    /// algorithm left with no steps goes back to its final state.
    pub fn keep_steps_within(&mut self, step_count: impl Fn(Algorithm) -> usize) {
        if let Some(k) = self.step {
            let n = step_count(self.timeline);
            self.step = (n > 0).then(|| k.min(n - 1));
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
        assert_eq!(o.timeline(), Algorithm::Clip);
        assert_eq!(o.step(Algorithm::Clip), Some(4));
        assert_eq!(OverlayState::new(&[]).timeline(), Algorithm::Gjk);
    }

    #[test]
    fn only_the_timeline_is_drawn_mid_run_every_other_overlay_at_its_end() {
        let mut o = OverlayState::new(&DEFAULT_OVERLAYS);
        o.select_step(Algorithm::Epa, 1);
        o.select_step(Algorithm::Gjk, 2);
        assert_eq!(o.step(Algorithm::Gjk), Some(2));
        assert_eq!(o.step(Algorithm::Epa), None, "EPA shows its answer");
        // Back to EPA: it starts at its final state, not at the step left behind.
        o.set_timeline(Algorithm::Epa);
        assert_eq!(o.step(Algorithm::Epa), None);
        assert_eq!(o.step(Algorithm::Gjk), None);
    }

    #[test]
    fn switching_the_timeline_off_hands_the_timeline_to_an_overlay_that_is_on() {
        // The case: Swept SAT narrated at step 6 while switched off.
        let mut o = OverlayState::new(&[Algorithm::Minkowski, Algorithm::Gjk]);
        o.select_step(Algorithm::Sweep, 5);
        o.set_on(Algorithm::Sweep, false);
        assert_eq!(o.timeline(), Algorithm::Gjk);
        assert_eq!(o.step(Algorithm::Gjk), None);
        assert!(o.timeline_is_on());
        // Switching another overlay off leaves the timeline alone.
        o.select_step(Algorithm::Gjk, 1);
        o.set_on(Algorithm::Minkowski, false);
        assert_eq!(
            (o.timeline(), o.step(Algorithm::Gjk)),
            (Algorithm::Gjk, Some(1))
        );
        // The last one off: nothing is on to narrate.
        o.set_on(Algorithm::Gjk, false);
        assert!(!o.timeline_is_on());
    }

    #[test]
    fn the_inset_tells_the_timeline_story_alone() {
        let inset = |a: Algorithm| matches!(a, Algorithm::Gjk | Algorithm::Epa);
        let backdrop = |a: Algorithm| a == Algorithm::Minkowski;
        let mut o = OverlayState::new(&DEFAULT_OVERLAYS);
        o.set_timeline(Algorithm::Gjk);
        // At GJK's final state (its last step) no EPA polytope is drawn over the simplex.
        assert!(o.shows_in_inset(Algorithm::Gjk, inset, backdrop));
        assert!(!o.shows_in_inset(Algorithm::Epa, inset, backdrop));
        assert!(o.shows_in_inset(Algorithm::Minkowski, inset, backdrop));
        // A timeline that does not draw in the inset leaves every overlay's answer there.
        o.select_step(Algorithm::Sat, 0);
        assert!(o.shows_in_inset(Algorithm::Epa, inset, backdrop));
        assert!(o.shows_in_inset(Algorithm::Gjk, inset, backdrop));
        o.set_on(Algorithm::Epa, false);
        assert!(!o.shows_in_inset(Algorithm::Epa, inset, backdrop));
    }

    #[test]
    fn the_selected_step_shrinks_with_its_timeline() {
        let mut o = OverlayState::new(&DEFAULT_OVERLAYS);
        o.select_step(Algorithm::Gjk, 5);
        o.keep_steps_within(|a| if a == Algorithm::Gjk { 3 } else { 0 });
        assert_eq!(o.step(Algorithm::Gjk), Some(2));
        o.keep_steps_within(|_| 0);
        assert_eq!(o.step(Algorithm::Gjk), None);
        o.select_step(Algorithm::Gjk, 1);
        o.show_final();
        assert_eq!(o.step(Algorithm::Gjk), None);
    }
}
