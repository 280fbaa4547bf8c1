//! Undo and redo of whole-document snapshots. A drag records one entry when it starts, so
//! a whole drag undoes in one step.

use super::state::Snapshot;

/// Most entries kept; the oldest are dropped first.
const MAX_ENTRIES: usize = 200;

#[derive(Default, Debug)]
pub struct History {
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    /// The state before the edit in progress, recorded when the edit ends.
    edit_before: Option<Snapshot>,
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

    /// Ends the edit in progress: records it when it changed something.
    pub fn finish_edit(&mut self, current: Snapshot) {
        if let Some(before) = self.edit_before.take() {
            if before != current {
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

    /// Forgets everything, the edit in progress included (a new document).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
        self.edit_before = None;
    }
}
