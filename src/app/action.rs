//! What the menu, the dialogs and the command keys ask the window to do. They return these
//! values instead of holding the whole window; the frame loop hands each one to
//! `App::apply`, which owns the rules (ask about unsaved changes, record undo, ...).

use super::dialogs::Pending;
use super::files::DialogKind;
use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Run it now, or ask about unsaved changes first.
    Request(Pending),
    /// Run it without asking (the unsaved-changes question's "Discard").
    Perform(Pending),
    /// Open the path dialog (and the native one beside it).
    AskPath(DialogKind),
    /// Open the native file dialog.
    Browse(DialogKind),
    /// Save to the document's file, or ask for one.
    Save,
    SaveTo(PathBuf),
    /// The unsaved-changes question's "Save": save, then carry on with what waited.
    SaveThenPerform(Pending),
    Reload,
    Undo,
    Redo,
    DuplicateSelected,
    DeleteSelected,
    FitAll,
    /// Write the current results as `expect` entries: the focused pair's, or every pair's.
    RecordExpectations {
        every_pair: bool,
    },
    /// Write one picture per step of the timeline's algorithm (File > Export slides).
    ExportSlides,
}
