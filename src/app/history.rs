//! Undo and redo of whole-document snapshots. A drag records one entry when it starts, so
//! a whole drag undoes in one step. History also remembers the state last saved (or
//! opened), so that undoing back to it clears the unsaved mark.

use super::document::Snapshot;

/// Most entries kept; the oldest are dropped first.
const MAX_ENTRIES: usize = 200;

#[derive(Default, Debug)]
pub struct History {
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    /// The state before the edit in progress, recorded when the edit ends.
    edit_before: Option<Snapshot>,
    /// The state as last saved or opened: the document is unsaved exactly when it differs.
    saved: Option<Snapshot>,
}

impl History {
    /// Records the state before an edit. Identical consecutive states are kept once.
    pub fn record(&mut self, before: Snapshot) {
        if self.undo.last() != Some(&before) {
            self.undo.push(before);
            if self.undo.len() > MAX_ENTRIES {
                self.undo.remove(0);
            }
        }
        self.redo.clear();
    }

    /// Call before changing the document: remembers the state for undo. Edits made before
    /// [`History::finish_edit`] (a drag, a slider held down) become one undo step.
    pub fn begin_edit(&mut self, current: impl FnOnce() -> Snapshot) {
        if self.edit_before.is_none() {
            self.edit_before = Some(current());
        }
    }

    /// Ends the edit in progress: records it when it changed something. `current` is
    /// only taken when an edit is in progress.
    pub fn finish_edit(&mut self, current: impl FnOnce() -> Snapshot) {
        if let Some(before) = self.edit_before.take() {
            if before != current() {
                self.record(before);
            }
        }
    }

    /// The state to go back to, given the current one (kept for redo).
    pub fn undo(&mut self, current: Snapshot) -> Option<Snapshot> {
        let s = self.undo.pop()?;
        self.redo.push(current);
        Some(s)
    }

    pub fn redo(&mut self, current: Snapshot) -> Option<Snapshot> {
        let s = self.redo.pop()?;
        self.undo.push(current);
        Some(s)
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Forgets everything, the edit in progress and the saved state included (a new
    /// document: call [`History::mark_saved`] with its state).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
        self.edit_before = None;
        self.saved = None;
    }

    /// Remembers `state` as the one on disk (after a save, an open or a reload).
    pub fn mark_saved(&mut self, state: Snapshot) {
        self.saved = Some(state.without_selection());
    }

    /// Whether `current` is the state last saved or opened (the selection aside: it is not
    /// saved). A document never saved (a new one, an example) counts as saved in the state
    /// it started in.
    pub fn is_saved(&self, current: &Snapshot) -> bool {
        self.saved
            .as_ref()
            .is_some_and(|saved| *saved == current.clone().without_selection())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::state::Document;
    use crate::geom::Pose;
    use glam::Vec2;

    fn snap(doc: &Document) -> Snapshot {
        Snapshot::Plane(doc.snapshot())
    }

    fn restore(doc: &mut Document, s: Snapshot) {
        if let Snapshot::Plane(s) = s {
            doc.restore(s);
        }
    }

    fn two_boxes() -> Document {
        Document::parse(
            "(version: 1, bodies: [(name: \"a\", shape: Box(half_extents: (1.0, 1.0))), \
             (name: \"b\", shape: Box(half_extents: (1.0, 1.0)), position: (3.0, 0.0))])",
            "two.ron",
        )
        .unwrap()
    }

    #[test]
    fn a_drag_of_many_moves_is_one_undo_step() {
        let mut doc = two_boxes();
        let mut history = History::default();
        for x in [1.0, 2.0, 3.0] {
            history.begin_edit(|| snap(&doc));
            doc.set_pose(0, Pose::new(Vec2::new(x, 0.0), 0.0));
        }
        history.finish_edit(|| snap(&doc));
        let Snapshot::Plane(back) = history.undo(snap(&doc)).unwrap() else {
            panic!("a 2D document's state");
        };
        assert_eq!(back.bodies[0].pose.position, Vec2::ZERO);
        assert!(!history.can_undo(), "one step");
        assert!(history.can_redo());
    }

    #[test]
    fn an_edit_that_changed_nothing_is_not_recorded_and_idle_frames_take_no_snapshot() {
        let doc = two_boxes();
        let mut history = History::default();
        history.begin_edit(|| snap(&doc));
        history.finish_edit(|| snap(&doc));
        assert!(!history.can_undo());
        // No edit in progress: the current state is not even asked for.
        history.finish_edit(|| unreachable!("no snapshot without an edit"));
    }

    #[test]
    fn undo_back_to_the_saved_state_is_saved_again_and_redo_is_not() {
        let mut doc = two_boxes();
        let mut history = History::default();
        history.mark_saved(snap(&doc));
        assert!(history.is_saved(&snap(&doc)));
        for x in [1.0, 2.0] {
            doc.selected = Some(0); // selecting is not an unsaved change
            history.begin_edit(|| snap(&doc));
            doc.set_pose(0, Pose::new(Vec2::new(x, 0.0), 0.0));
            history.finish_edit(|| snap(&doc));
        }
        assert!(!history.is_saved(&snap(&doc)));
        // Saved after the first move: one undo reaches the saved state, two go past it.
        let back = history.undo(snap(&doc)).unwrap();
        restore(&mut doc, back);
        history.mark_saved(snap(&doc));
        let redone = history.redo(snap(&doc)).unwrap();
        restore(&mut doc, redone);
        assert!(!history.is_saved(&snap(&doc)));
        let back = history.undo(snap(&doc)).unwrap();
        restore(&mut doc, back);
        assert!(history.is_saved(&snap(&doc)), "undo returned to the save");
        let back = history.undo(snap(&doc)).unwrap();
        restore(&mut doc, back);
        assert!(!history.is_saved(&snap(&doc)), "undo went past the save");
        history.clear();
        assert!(!history.is_saved(&snap(&doc)), "a new document forgets it");
    }
}
