//! The window's dialogs as state: the path field (the fallback when no native dialog
//! answers), whether the platform's dialog is open, the unsaved-changes question and what
//! waits on it, the changed-on-disk question, the share link, and the help window.

use super::lessons::LessonPanel;
use super::platform::DialogKind;
use super::share::SharedLink;
use std::path::PathBuf;

/// Something the user asked for that may first need the unsaved-changes question.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    /// File > New: an empty 2D scene.
    New,
    /// File > New 3D scene.
    New3d,
    Open(PathBuf),
    /// A scene read by the browser (its file picker, a dropped file): name and text.
    OpenText {
        name: String,
        text: String,
    },
    Example(String),
    Quit,
}

/// The in-window path field dialog.
#[derive(Default)]
pub struct PathDialog {
    pub kind: Option<DialogKind>,
    /// Give the path field the keyboard on the next frame.
    pub focus: bool,
    pub text: String,
    pub error: Option<String>,
}

impl PathDialog {
    /// A dialog of `kind` starting at the document's file, if it has one.
    pub fn asking(kind: DialogKind, start: Option<&std::path::Path>) -> PathDialog {
        PathDialog {
            kind: Some(kind),
            focus: true,
            text: start
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| match kind {
                    DialogKind::Open => String::new(),
                    DialogKind::SaveAs => "scene.ron".into(),
                }),
            error: None,
        }
    }
}

#[derive(Default)]
pub struct Dialogs {
    pub path: PathDialog,
    /// The platform's own file dialog (or the browser's picker) is open.
    pub browsing: bool,
    /// File > Share link: the link shown with its Copy button, and the address bar's link.
    pub share: SharedLink,
    /// The question "discard unsaved changes?" and what waits on it.
    pub confirm: Option<Pending>,
    /// The open file changed on disk while there were unsaved edits.
    pub changed_on_disk: bool,
    pub help: bool,
    /// The open lesson's answer shown and exercise found (Help > Lessons).
    pub lesson: LessonPanel,
}
