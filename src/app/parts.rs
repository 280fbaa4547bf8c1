//! The window's state as separate borrows, for the panels: each panel gets the parts it
//! edits (the menu its settings, the Scene panel an [`Editor`], the Algorithms panel the
//! workspace, ...) and none gets the whole window. Built by `App::parts`.

use super::dialogs::Dialogs;
use super::editor::{Editor, Editor3, Status};
use super::history::History;
use super::platform::Platform;
use super::prefs::ViewPrefs;
use super::probe::TestProbe;
use super::scan::ScanPanel;
use super::tools::Tools;
use super::workspace::Workspace;

pub struct Parts<'a> {
    /// The window title: the document name, marked while there are unsaved changes.
    pub title: String,
    pub workspace: &'a mut dyn Workspace,
    pub history: &'a mut History,
    pub tools: &'a mut Tools,
    pub dialogs: &'a mut Dialogs,
    /// The desktop or the browser: recent files, whether scenes have paths, quitting.
    pub platform: &'a dyn Platform,
    pub prefs: &'a mut ViewPrefs,
    pub status: &'a mut Status,
    /// The last load error (file:line:col: message), shown until dismissed.
    pub load_error: &'a mut Option<String>,
    pub probe: &'a mut TestProbe,
    pub scan: &'a mut ScanPanel,
}

impl Parts<'_> {
    /// The part that edits the 2D document; `None` in another workspace.
    pub fn editor(&mut self) -> Option<Editor<'_>> {
        let plane = self.workspace.plane_mut()?;
        let view_center = plane.view_center();
        Some(Editor::new(
            &mut plane.session.doc,
            self.history,
            self.tools,
            self.status,
            self.probe,
            view_center,
        ))
    }

    /// The part that edits the 3D document; `None` in another workspace.
    pub fn editor3(&mut self) -> Option<Editor3<'_>> {
        let space = self.workspace.space_mut()?;
        Some(Editor3 {
            view_center: space.view_center(),
            doc: space.doc_mut(),
            history: self.history,
            status: self.status,
        })
    }
}
