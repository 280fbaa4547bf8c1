//! The window's state as separate borrows, for the panels: each panel gets the parts it
//! edits (the menu its settings, the Scene panel an [`Editor`], the Algorithms panel the
//! workspace, ...) and none gets the whole window. Built by `App::parts`.

use super::dialogs::Dialogs;
use super::editor::{Editor, Status};
use super::history::History;
use super::prefs::ViewPrefs;
use super::probe::TestProbe;
use super::tools::Tools;
use super::workspace::Workspace;
use std::path::PathBuf;

pub struct Parts<'a> {
    /// The window title: the document name, marked while there are unsaved changes.
    pub title: String,
    pub workspace: &'a mut dyn Workspace,
    pub history: &'a mut History,
    pub tools: &'a mut Tools,
    pub dialogs: &'a mut Dialogs,
    pub recent: &'a [PathBuf],
    pub prefs: &'a mut ViewPrefs,
    pub status: &'a mut Status,
    /// The last load error (file:line:col: message), shown until dismissed.
    pub load_error: &'a mut Option<String>,
    pub probe: &'a mut TestProbe,
}

impl Parts<'_> {
    /// The part that edits the document.
    pub fn editor(&mut self) -> Editor<'_> {
        let view_center = self.workspace.view_center();
        Editor::new(
            self.workspace.doc_mut(),
            self.history,
            self.tools,
            self.status,
            self.probe,
            view_center,
        )
    }
}
