//! A workspace's model: the document, the core's settings, the analysis of the focused
//! pair (rerun when the document or the settings change), and the overlay state (on/off,
//! selected steps, the timeline and its playback). Everything is edited through methods that
//! own the rules; nothing here draws, and time comes in as a number so the rules can be
//! tested without a window.
//!
//! The rules are the same in 2D and 3D: [`Session`] is generic over the document
//! ([`Analysed`]: the 2D [`super::state::Document`] in `analysis.rs`, the 3D
//! `Document3` in `analysis3.rs`), and plain `Session` means the 2D one.

use super::overlays::OverlayState;
use super::state::Document;
use super::timeline::TimelineModel;
use crate::query::Algorithm;

/// A document whose focused pair the core analyses: what a [`Session`] needs of it.
pub trait Analysed {
    /// The core's iteration limits and tolerances.
    type Settings: Copy + PartialEq + Default + std::fmt::Debug;
    /// The focused pair's results and recorded steps.
    type Run: Recorded;
    /// Bumped by every change.
    fn revision(&self) -> u64;
    /// The overlays the scene asks for, `None` when it does not say.
    fn listed_overlays(&self) -> Option<Vec<Algorithm>>;
    /// The overlays on when the scene does not say.
    fn default_overlays() -> &'static [Algorithm];
    /// The algorithms the timeline may step through (those the workspace draws).
    fn timeline_algorithms() -> &'static [Algorithm] {
        &Algorithm::ALL
    }
    /// Runs every algorithm on the focused pair; `None` without a pair.
    fn analyse(&self, settings: &Self::Settings) -> Option<Self::Run>;
}

/// What the timeline reads of an analysis.
pub trait Recorded {
    /// How many steps `algorithm` recorded (0: nothing to step through).
    fn step_count(&self, algorithm: Algorithm) -> usize;
    /// The step that shows the algorithm's answer, drawn when no step is selected.
    fn final_step(&self, algorithm: Algorithm) -> usize;
    /// The teaching sentence of step `k` of `algorithm`.
    fn sentence(&self, algorithm: Algorithm, k: usize) -> Option<String>;
}

/// Timeline playback: when the next step is due, and seconds per step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playback {
    due: Option<f64>,
    pub interval: f64,
}

impl Default for Playback {
    fn default() -> Self {
        Playback {
            due: None,
            interval: 0.8,
        }
    }
}

pub struct Session<D: Analysed = Document> {
    pub doc: D,
    /// The core's iteration limits and tolerances; the sweep interval is the document's.
    pub settings: D::Settings,
    overlays: OverlayState,
    playback: Playback,
    run: Option<D::Run>,
    /// The document revision and settings the analysis was computed for.
    computed: Option<(u64, D::Settings)>,
}

impl<D: Analysed> Session<D> {
    pub fn new(doc: D) -> Session<D> {
        let on = doc
            .listed_overlays()
            .unwrap_or_else(|| D::default_overlays().to_vec());
        let mut s = Session {
            run: doc.analyse(&D::Settings::default()),
            computed: Some((doc.revision(), D::Settings::default())),
            doc,
            settings: D::Settings::default(),
            overlays: OverlayState::new(&on),
            playback: Playback::default(),
        };
        s.overlays.show_final();
        s
    }

    /// Shows another document with the overlays it asks for (or the defaults).
    pub fn replace_document(&mut self, doc: D) {
        let on = doc
            .listed_overlays()
            .unwrap_or_else(|| D::default_overlays().to_vec());
        self.overlays = OverlayState::new(&on);
        self.replace_document_keeping_overlays(doc);
    }

    /// Shows another version of the same document (reloaded from disk): the overlays and
    /// selected steps stay as the user left them.
    pub fn replace_document_keeping_overlays(&mut self, doc: D) {
        self.doc = doc;
        self.playback.due = None;
        self.computed = None;
        self.refresh();
    }

    /// Reruns the core when the document or the settings changed since the last run. After
    /// such an edit (a drag, a typed number, undo, a reload) the timeline shows the final
    /// step of its algorithm, so that the picture, the labels and the Results panel give
    /// the same answer; while playback runs, it keeps its place (inside the new timeline).
    pub fn refresh(&mut self) {
        let key = (self.doc.revision(), self.settings);
        if self.computed == Some(key) {
            return;
        }
        self.run = self.doc.analyse(&self.settings);
        self.computed = Some(key);
        match &self.run {
            Some(run) if self.is_playing() => {
                self.overlays.keep_steps_within(|a| run.step_count(a));
            }
            _ => self.overlays.show_final(),
        }
    }

    /// The analysis of the focused pair, `None` without one.
    pub fn run(&self) -> Option<&D::Run> {
        self.run.as_ref()
    }

    pub fn overlays(&self) -> &OverlayState {
        &self.overlays
    }

    /// Switches an overlay on or off; switching the timeline's overlay off hands the
    /// timeline to one that is on (and stops playback).
    pub fn enable(&mut self, a: Algorithm, on: bool) {
        let before = self.overlays.timeline();
        self.overlays.set_on(a, on);
        if self.overlays.timeline() != before || !self.overlays.timeline_is_on() {
            self.playback.due = None;
        }
    }

    /// Makes `a` the timeline's algorithm and shows its step `k`; refuses a step past the
    /// end, returning how many steps there are.
    pub fn show_step(&mut self, a: Algorithm, k: usize) -> Result<(), usize> {
        self.choose_timeline(a);
        let count = self.run().map_or(0, |run| run.step_count(a));
        if k >= count {
            return Err(count);
        }
        self.overlays.select_step(a, k);
        Ok(())
    }

    /// Advances playback to `now` (seconds); stops at the last step.
    pub fn advance_playback(&mut self, now: f64) {
        let Some(due) = self.playback.due else {
            return;
        };
        if now >= due {
            self.playback.due = self.step_by(1).then_some(now + self.playback.interval);
        }
    }

    pub fn stop_playback(&mut self) {
        self.playback.due = None;
    }
}

impl<D: Analysed> TimelineModel for Session<D> {
    fn timeline_choices(&self) -> Vec<(Algorithm, &'static str)> {
        let current = self.overlays.timeline();
        D::timeline_algorithms()
            .iter()
            .copied()
            .filter(|a| self.run().is_some_and(|r| r.step_count(*a) > 0) || *a == current)
            .map(|a| (a, a.title()))
            .collect()
    }

    fn timeline(&self) -> Algorithm {
        self.overlays.timeline()
    }

    fn choose_timeline(&mut self, a: Algorithm) {
        if a != self.overlays.timeline() {
            self.playback.due = None;
        }
        self.overlays.set_timeline(a);
    }

    /// The timeline's length and shown step: the selected one, else the algorithm's answer.
    /// `None` when there are no steps, or when no overlay that has steps is on.
    fn timeline_position(&self) -> Option<(usize, usize)> {
        let run = self.run()?;
        if !self.overlays.timeline_is_on() {
            return None;
        }
        let a = self.overlays.timeline();
        let n = run.step_count(a);
        let k = self.overlays.step(a).unwrap_or_else(|| run.final_step(a));
        (n > 0).then(|| (n, k.min(n - 1)))
    }

    fn timeline_sentence(&self) -> Option<String> {
        let run = self.run()?;
        let a = self.overlays.timeline();
        let (n, k) = self.timeline_position()?;
        let text = run.sentence(a, k).unwrap_or_default();
        Some(format!("{} step {} of {}: {text}", a.title(), k + 1, n))
    }

    fn select_step(&mut self, k: usize) {
        self.overlays.select_step(self.overlays.timeline(), k);
    }

    fn step_by(&mut self, delta: i64) -> bool {
        let Some((n, k)) = self.timeline_position() else {
            return false;
        };
        let next = k as i64 + delta;
        if next < 0 || next >= n as i64 {
            return false;
        }
        self.select_step(next as usize);
        true
    }

    fn toggle_play(&mut self, now: f64) {
        if self.playback.due.is_some() {
            self.playback.due = None;
            return;
        }
        if let Some((n, k)) = self.timeline_position() {
            if k + 1 >= n {
                self.select_step(0); // play from the start
            }
            self.playback.due = Some(now + self.playback.interval);
        }
    }

    fn is_playing(&self) -> bool {
        self.playback.due.is_some()
    }

    fn play_interval_mut(&mut self) -> &mut f64 {
        &mut self.playback.interval
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::examples;

    fn welcome() -> Session {
        Session::new(Document::parse(examples::welcome(), "welcome").unwrap())
    }

    #[test]
    fn stepping_stays_inside_the_timeline_and_playback_stops_at_the_end() {
        let mut s = welcome();
        let n = s.run().unwrap().step_count(s.timeline());
        assert!(n >= 2, "the welcome scene's GJK has steps");
        s.select_step(0);
        assert!(!s.step_by(-1));
        assert!(s.step_by(1));
        assert_eq!(s.timeline_position(), Some((n, 1)));
        s.toggle_play(10.0);
        assert!(s.is_playing());
        let interval = s.playback.interval;
        let mut now = 10.0;
        for _ in 0..n + 2 {
            now += interval;
            s.advance_playback(now);
        }
        assert!(!s.is_playing());
        assert_eq!(s.timeline_position(), Some((n, n - 1)));
    }

    #[test]
    fn show_step_refuses_a_step_past_the_end_and_switches_the_overlay_on() {
        let mut s = welcome();
        assert!(!s.overlays().is_on(Algorithm::Sat));
        let count = s.run().unwrap().step_count(Algorithm::Sat);
        assert_eq!(s.show_step(Algorithm::Sat, count), Err(count));
        assert_eq!(s.show_step(Algorithm::Sat, 0), Ok(()));
        assert!(s.overlays().is_on(Algorithm::Sat));
        assert_eq!(s.timeline(), Algorithm::Sat);
        let sentence = s.timeline_sentence().unwrap();
        assert!(sentence.starts_with(&format!("SAT step 1 of {count}: ")));
    }

    /// Moves body A by a hair: an edit like a drag or a typed number.
    fn nudge(s: &mut Session) {
        let a = s.run().unwrap().a;
        let mut pose = s.doc.bodies[a].pose;
        pose.position.x += 0.001;
        s.doc.set_pose(a, pose);
    }

    #[test]
    fn after_an_edit_the_timeline_shows_the_final_step_unless_playing() {
        let mut s = welcome();
        let n = s.run().unwrap().step_count(Algorithm::Gjk);
        s.show_step(Algorithm::Gjk, 0).unwrap();
        nudge(&mut s);
        s.refresh();
        let run = s.run().unwrap();
        let n = run.step_count(Algorithm::Gjk).max(n);
        assert_eq!(
            s.timeline_position(),
            Some((
                run.step_count(Algorithm::Gjk),
                run.final_step(Algorithm::Gjk)
            ))
        );
        assert_eq!(s.overlays().step(Algorithm::Gjk), None);
        // The final step's sentence states the distance the Results panel shows.
        let last = run.trace.gjk.last().unwrap();
        assert_eq!(last.distance.max(0.0), run.query.gjk.core_distance);
        // Playing: an edit keeps the place.
        s.show_step(Algorithm::Gjk, 0).unwrap();
        s.toggle_play(0.0);
        nudge(&mut s);
        s.refresh();
        assert_eq!(s.overlays().step(Algorithm::Gjk), Some(0), "of {n}");
        // Undo and reload are edits too.
        s.stop_playback();
        s.show_step(Algorithm::Gjk, 0).unwrap();
        let doc = s.doc.clone();
        s.replace_document_keeping_overlays(doc);
        assert_eq!(s.overlays().step(Algorithm::Gjk), None);
    }

    #[test]
    fn the_timeline_never_narrates_an_overlay_that_is_off() {
        let mut s = welcome();
        s.show_step(Algorithm::Sweep, 0).unwrap();
        s.toggle_play(0.0);
        s.enable(Algorithm::Sweep, false);
        assert!(!s.is_playing());
        assert_ne!(s.timeline(), Algorithm::Sweep);
        assert!(s.overlays().is_on(s.timeline()));
        let sentence = s.timeline_sentence().unwrap();
        assert!(sentence.starts_with(s.timeline().title()), "{sentence}");
        for a in Algorithm::ALL {
            s.enable(a, false);
        }
        assert_eq!(s.timeline_position(), None);
        assert_eq!(s.timeline_sentence(), None);
    }

    /// The case: EPA left at its step 2 drew d = 0.502 in the inset while the
    /// Results said 0.516. Once the timeline moves on, EPA shows its answer.
    #[test]
    fn an_overlay_the_timeline_left_shows_its_answer_not_its_old_step() {
        let mut s = welcome();
        s.show_step(Algorithm::Epa, 1).unwrap();
        s.choose_timeline(Algorithm::Gjk);
        assert_eq!(s.overlays().step(Algorithm::Epa), None);
        let run = s.run().unwrap();
        let drawn = run.trace.epa.last().unwrap();
        let depth = run.query.epa.unwrap().depth;
        assert_eq!(
            crate::text::readable(drawn.distance),
            crate::text::readable(depth)
        );
        assert_ne!(
            crate::text::readable(run.trace.epa[1].distance),
            crate::text::readable(depth),
            "the old step's number differs, so this test can tell"
        );
    }
}
