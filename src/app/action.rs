//! What the menu, the dialogs and the command keys ask the window to do. They return these
//! values instead of holding the whole window; the frame loop hands each one to
//! `App::apply`, which owns the rules (ask about unsaved changes, record undo, ...).

use super::dialogs::Pending;
use super::platform::DialogKind;
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
    /// Put the scene in a share link and show it (File > Share link, the menu bar's button).
    ShareLink,
    /// Start the Scan window's scan of the focused pair.
    ScanStart,
    /// Move the scanned body to this parameter value (the plot clicked, an event's "go
    /// before" / "go after"), as one undoable edit.
    ScanPlace(f32),
    /// Write the scene at each side of event k of the last scan, expectations recorded.
    ScanSaveSides(usize),
    /// Put this text on the clipboard (the share link's Copy button).
    CopyText(String),
    /// A 3D view command (the View menu's presets, the projection).
    View3(View3Command),
}

/// What the View menu and the keys ask of the 3D camera.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View3Command {
    Front,
    Top,
    Side,
    ThreeQuarter,
    /// Between perspective and orthographic (O): orthographic keeps projections readable.
    ToggleOrthographic,
}

impl View3Command {
    /// The View menu's entries, with their keys.
    pub const MENU: [(&'static str, View3Command); 5] = [
        ("Front view  (1)", View3Command::Front),
        ("Top view  (2)", View3Command::Top),
        ("Side view  (3)", View3Command::Side),
        ("Three-quarter view  (4)", View3Command::ThreeQuarter),
        (
            "Perspective / orthographic  (O)",
            View3Command::ToggleOrthographic,
        ),
    ];
}
