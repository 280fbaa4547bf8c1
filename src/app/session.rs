//! The 2D workspace's model: the document, the core's settings, the analysis of the focused
//! pair (rerun when the document or the settings change), and the overlay state (on/off,
//! selected steps, the timeline and its playback). Everything is edited through methods that
//! own the rules; nothing here draws, and time comes in as a number so the rules can be
//! tested without a window.

use super::analysis::{Analysis, PairSettings};
use super::overlays::{OverlayState, DEFAULT_OVERLAYS};
use super::state::Document;
use super::timeline::TimelineModel;
use crate::query::Algorithm;

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

pub struct Session {
    pub doc: Document,
    /// The core's iteration limits and tolerances; the sweep interval is the document's.
    pub settings: PairSettings,
    overlays: OverlayState,
    playback: Playback,
    run: Option<Analysis>,
    /// The document revision and settings the analysis was computed for.
    computed: Option<(u64, PairSettings)>,
}

impl Session {
    pub fn new(doc: Document) -> Session {
        let mut s = Session {
            doc: Document::new_empty(),
            settings: PairSettings::default(),
            overlays: OverlayState::new(&DEFAULT_OVERLAYS),
            playback: Playback::default(),
            run: None,
            computed: None,
        };
        s.replace_document(doc);
        s
    }

    /// Shows another document with the overlays it asks for (or the defaults).
    pub fn replace_document(&mut self, doc: Document) {
        let on = if doc.meta.overlays.is_empty() {
            DEFAULT_OVERLAYS.to_vec()
        } else {
            doc.meta.overlays.clone()
        };
        self.overlays = OverlayState::new(&on);
        self.replace_document_keeping_overlays(doc);
    }

    /// Shows another version of the same document (reloaded from disk): the overlays and
    /// selected steps stay as the user left them.
    pub fn replace_document_keeping_overlays(&mut self, doc: Document) {
        self.doc = doc;
        self.playback.due = None;
        self.computed = None;
        self.refresh();
    }

    /// Reruns the core when the document or the settings changed since the last run.
    pub fn refresh(&mut self) {
        let key = (self.doc.revision, self.settings);
        if self.computed == Some(key) {
            return;
        }
        self.run = Analysis::run(&self.doc, &self.settings);
        self.computed = Some(key);
        if let Some(run) = &self.run {
            self.overlays.keep_steps_within(|a| run.step_count(a));
        }
    }

    /// The analysis of the focused pair, `None` without one.
    pub fn run(&self) -> Option<&Analysis> {
        self.run.as_ref()
    }

    pub fn overlays(&self) -> &OverlayState {
        &self.overlays
    }

    /// Switches an overlay on or off.
    pub fn enable(&mut self, a: Algorithm, on: bool) {
        self.overlays.set_on(a, on);
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

impl TimelineModel for Session {
    fn timeline_choices(&self) -> Vec<(Algorithm, &'static str)> {
        let current = self.overlays.timeline();
        Algorithm::ALL
            .into_iter()
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
    fn timeline_position(&self) -> Option<(usize, usize)> {
        let run = self.run()?;
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
}
