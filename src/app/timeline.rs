//! The timeline's contract: what the Timeline panel asks of a workspace's model. It draws
//! nothing and imports no toolkit, so a model (the 2D [`super::session::Session`], a 3D one)
//! implements it directly.

use crate::query::Algorithm;

/// The Timeline panel: one algorithm's recorded steps, a selected step, playback.
pub trait TimelineModel {
    /// The algorithms worth stepping through (those with steps, and the current one).
    fn timeline_choices(&self) -> Vec<(Algorithm, &'static str)>;
    fn timeline(&self) -> Algorithm;
    /// Makes `a` the timeline's algorithm (switching its overlay on).
    fn choose_timeline(&mut self, a: Algorithm);
    /// The number of steps and the step shown, when there are steps.
    fn timeline_position(&self) -> Option<(usize, usize)>;
    /// "GJK step 2 of 5: ..." for the step shown.
    fn timeline_sentence(&self) -> Option<String>;
    fn select_step(&mut self, k: usize);
    /// Moves by `delta` steps; false (and no move) past either end.
    fn step_by(&mut self, delta: i64) -> bool;
    /// Shows the first step (Home, the ⏮ button); false when there are no steps.
    fn first_step(&mut self) -> bool {
        let shown = self.timeline_position().is_some();
        if shown {
            self.select_step(0);
        }
        shown
    }
    /// Shows the last step (End, the ⏭ button); false when there are no steps.
    fn last_step(&mut self) -> bool {
        let Some((n, _)) = self.timeline_position() else {
            return false;
        };
        self.select_step(n - 1);
        true
    }
    /// Starts (from the first step when at the last) or pauses playback; `now` in seconds.
    fn toggle_play(&mut self, now: f64);
    fn is_playing(&self) -> bool;
    /// Seconds per step.
    fn play_interval_mut(&mut self) -> &mut f64;
}
