//! The window's state and what menus, keys and dialogs ask of it: the workspace (document,
//! analysis, view, labs), undo history, editing tools, dialogs, files on disk, view
//! preferences and the test probe. It imports no panel and no input code: the panels get
//! its parts ([`App::parts`]) and return [`Action`]s for [`App::apply`], `input` calls into
//! it, and the frame loop in `window` drives it.

use super::action::Action;
use super::dialogs::{Dialogs, PathDialog, Pending};
use super::document::{LoadedDocument, Snapshot};
use super::editor::{Editor, Status};
use super::examples;
use super::files::{self, DialogKind, NativeDialog, Watcher};
use super::history::History;
use super::parts::Parts;
use super::prefs::{ViewPrefs, FIT_FRAMES};
use super::probe::TestProbe;
use super::slides::Slides;
use super::state::Document;
use super::title::Title;
use super::tools::Tools;
use super::workspace::Workspace;
use super::workspaces;
use macroquad::prelude as mq;
use std::path::{Path, PathBuf};

/// The recent-files list and the watch on the open file.
#[derive(Default)]
pub struct Disk {
    pub recent: Vec<PathBuf>,
    pub watcher: Watcher,
    /// File > Export slides in progress: one slide is drawn and written per frame.
    pub slides: Option<Slides>,
}

pub struct App {
    pub workspace: Box<dyn Workspace>,
    pub history: History,
    pub tools: Tools,
    pub dialogs: Dialogs,
    pub disk: Disk,
    pub prefs: ViewPrefs,
    /// A message at the bottom of the window and when it was posted.
    pub status: Status,
    /// The last load error (file:line:col: message), shown until dismissed.
    pub load_error: Option<String>,
    pub quit: bool,
    pub probe: TestProbe,
    /// The real window title, kept in step with the document.
    pub window_title: Title,
}

impl App {
    pub fn new(doc: LoadedDocument, load_error: Option<String>) -> App {
        let mut disk = Disk {
            recent: files::load_recent(),
            watcher: Watcher::default(),
            slides: None,
        };
        disk.watcher.watch(doc.file().path.as_deref());
        if let Some(p) = &doc.file().path {
            files::remember(&mut disk.recent, p);
        }
        let mut history = History::default();
        history.mark_saved(doc.snapshot());
        App {
            workspace: workspaces::for_document(doc),
            history,
            tools: Tools::default(),
            dialogs: Dialogs::default(),
            disk,
            prefs: ViewPrefs::default(),
            status: None,
            load_error,
            quit: false,
            probe: TestProbe::from_env(),
            window_title: Title::default(),
        }
    }

    /// Pixels per logical pixel on the canvas: the UI scale times the display's DPI scale.
    pub fn pixel_scale(&self) -> f32 {
        self.prefs.ui_scale * mq::screen_dpi_scale()
    }

    /// The 2D document, for the plane's canvas tools (an empty one in another workspace,
    /// where those tools do not run).
    pub fn doc(&self) -> &Document {
        static EMPTY: std::sync::OnceLock<Document> = std::sync::OnceLock::new();
        match self.workspace.plane() {
            Some(plane) => &plane.session.doc,
            None => EMPTY.get_or_init(Document::new_empty),
        }
    }

    /// The 2D document to change (after [`App::checkpoint`]); `None` outside the plane.
    pub fn doc_mut(&mut self) -> Option<&mut Document> {
        self.workspace
            .plane_mut()
            .map(|plane| &mut plane.session.doc)
    }

    /// Call before changing the document: remembers the state for undo. Edits made while a
    /// pointer button is held (a drag, a slider) become one undo step.
    pub fn checkpoint(&mut self) {
        let workspace = &self.workspace;
        self.history.begin_edit(|| workspace.snapshot());
    }

    /// The state as separate borrows, for the panels.
    pub fn parts(&mut self) -> Parts<'_> {
        Parts {
            title: self.title(),
            workspace: self.workspace.as_mut(),
            history: &mut self.history,
            tools: &mut self.tools,
            dialogs: &mut self.dialogs,
            recent: &self.disk.recent,
            prefs: &mut self.prefs,
            status: &mut self.status,
            load_error: &mut self.load_error,
            probe: &mut self.probe,
        }
    }

    /// The part that edits the 2D document; `None` outside the plane.
    pub fn editor(&mut self) -> Option<Editor<'_>> {
        let plane = self.workspace.plane_mut()?;
        let view_center = plane.view_center();
        Some(Editor::new(
            &mut plane.session.doc,
            &mut self.history,
            &mut self.tools,
            &mut self.status,
            &mut self.probe,
            view_center,
        ))
    }

    /// Records the edit in progress once the pointer is released.
    pub fn settle_edit(&mut self) {
        let held = [
            mq::MouseButton::Left,
            mq::MouseButton::Right,
            mq::MouseButton::Middle,
        ]
        .into_iter()
        .any(mq::is_mouse_button_down);
        if !held {
            self.flush_edit();
        }
    }

    /// Duplicates the selected body, as one undoable edit.
    pub fn duplicate_selected(&mut self) {
        if self.workspace.outline().selected.is_some() {
            self.checkpoint();
            self.workspace.duplicate_selected();
        }
    }

    /// Deletes the selected body, as one undoable edit.
    pub fn delete_selected(&mut self) {
        if self.workspace.outline().selected.is_some() {
            self.checkpoint();
            if let Some(name) = self.workspace.delete_selected() {
                self.say(format!("Deleted {name}"));
            }
        }
    }

    /// Does what a menu, a dialog or a command key asked.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::Request(p) => self.request(p),
            Action::Perform(p) => self.perform(p),
            Action::AskPath(kind) => self.ask_path(kind),
            Action::Browse(kind) => self.browse(kind),
            Action::Save => self.save(),
            Action::SaveTo(path) => self.save_to(&path),
            Action::SaveThenPerform(pending) => self.save_then_perform(pending),
            Action::Reload => self.reload(),
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::DuplicateSelected => self.duplicate_selected(),
            Action::DeleteSelected => self.delete_selected(),
            Action::FitAll => self.workspace.fit_all(),
            Action::RecordExpectations { every_pair } => self.record_expectations(every_pair),
            Action::ExportSlides => self.export_slides(),
            Action::View3(command) => {
                if let Some(space) = self.workspace.space_mut() {
                    space.view_command(command);
                }
            }
        }
    }

    /// Starts writing one slide per step of the timeline's algorithm (see `slides`); the
    /// frame loop draws them, one a frame.
    pub fn export_slides(&mut self) {
        let file = self.workspace.file();
        let unsaved = file.example.as_deref().unwrap_or("untitled");
        let dir = files::slides_folder(file.path.as_deref(), unsaved);
        let algorithm = self.workspace.timeline_model().timeline();
        match Slides::start(self.workspace.picture(), algorithm, &dir) {
            Ok(slides) => {
                self.say(format!(
                    "Writing {} slides of {} to {}",
                    slides.count,
                    algorithm.title(),
                    dir.display()
                ));
                self.disk.slides = Some(slides);
            }
            Err(why) => self.say(format!("No slides written: {why}")),
        }
    }

    /// Records the current results as expectations (one undo step) and says what was
    /// written, and what was left out and why.
    pub fn record_expectations(&mut self, every_pair: bool) {
        self.flush_edit();
        self.checkpoint();
        let result = self.workspace.record_expectations(every_pair);
        self.flush_edit();
        match result {
            Ok(recorded) => {
                let mut text = match recorded.as_slice() {
                    [one] => format!("Recorded {} vs {} as an expectation", one.a, one.b),
                    many => format!("Recorded {} pairs as expectations", many.len()),
                };
                let left_out: Vec<String> = recorded
                    .iter()
                    .flat_map(|r| {
                        let pair = format!("{} vs {}", r.a, r.b);
                        r.left_out.iter().map(move |why| format!("{pair}: {why}"))
                    })
                    .collect();
                if !left_out.is_empty() {
                    text += &format!(" ({})", left_out.join("; "));
                }
                self.say(text + "; save to keep them");
            }
            Err(why) => self.say(format!("Nothing recorded: {why}")),
        }
    }

    pub fn undo(&mut self) {
        self.flush_edit();
        if let Some(s) = self.history.undo(self.workspace.snapshot()) {
            self.restore(s);
            self.say("Undone");
        }
    }

    pub fn redo(&mut self) {
        self.flush_edit();
        if let Some(s) = self.history.redo(self.workspace.snapshot()) {
            self.restore(s);
            self.say("Redone");
        }
    }

    /// Puts back an undo or redo state; back at the saved state, the unsaved mark clears.
    fn restore(&mut self, s: Snapshot) {
        let saved = self.history.is_saved(&s);
        self.workspace.restore(s);
        self.workspace.file_mut().dirty = !saved;
    }

    /// Records the edit in progress now (before undo or redo).
    fn flush_edit(&mut self) {
        let workspace = &self.workspace;
        self.history.finish_edit(|| workspace.snapshot());
    }

    pub fn say(&mut self, text: impl Into<String>) {
        self.status = Some((text.into(), mq::get_time()));
    }

    // ---- files ------------------------------------------------------------------------

    /// Runs `action` now, or asks first when there are unsaved changes.
    pub fn request(&mut self, action: Pending) {
        if self.workspace.file().dirty {
            self.dialogs.confirm = Some(action);
        } else {
            self.perform(action);
        }
    }

    /// Runs an action without asking.
    pub fn perform(&mut self, action: Pending) {
        match action {
            Pending::New => {
                self.set_document(LoadedDocument::Plane(Document::new_empty()));
                self.say("New 2D scene");
            }
            Pending::New3d => {
                self.set_document(LoadedDocument::Space(super::state3::Document3::new_empty()));
                self.say("New 3D scene");
            }
            Pending::Open(path) => self.open_path(&path),
            Pending::Example(name) => self.open_example(&name),
            Pending::Quit => self.quit = true,
        }
    }

    /// Shows a newly opened document, in a workspace of its kind.
    fn set_document(&mut self, doc: LoadedDocument) {
        self.prefs.pending_fit = FIT_FRAMES;
        self.disk.watcher.watch(doc.file().path.as_deref());
        self.history.clear();
        self.history.mark_saved(doc.snapshot());
        if let Err(other_kind) = self.workspace.replace_document(doc) {
            self.workspace = workspaces::for_document(*other_kind);
        }
        self.tools.drag = None;
        self.dialogs.changed_on_disk = false;
    }

    pub fn open_path(&mut self, path: &Path) {
        match LoadedDocument::load(path) {
            Ok(doc) => {
                self.set_document(doc);
                files::remember(&mut self.disk.recent, path);
                self.load_error = None;
                self.say(format!("Opened {}", path.display()));
            }
            Err(e) => {
                self.load_error = Some(e.to_string());
                self.say("The scene could not be opened; the current one is kept");
            }
        }
    }

    pub fn open_example(&mut self, name: &str) {
        let Some(text) = examples::find(name) else {
            return;
        };
        match LoadedDocument::parse(text, &format!("{name}.ron")) {
            Ok(mut doc) => {
                doc.file_mut().example = Some(name.to_string());
                self.set_document(doc);
                self.load_error = None;
                self.say(format!("Opened example {name}"));
            }
            Err(e) => self.load_error = Some(e.to_string()),
        }
    }

    /// Saves to the document's file, or asks for one.
    pub fn save(&mut self) {
        match self.workspace.file().path.clone() {
            Some(path) => self.save_to(&path),
            None => self.ask_path(DialogKind::SaveAs),
        }
    }

    pub fn save_to(&mut self, path: &Path) {
        match self.workspace.save(path) {
            Ok(()) => {
                let file = self.workspace.file_mut();
                file.path = Some(path.to_path_buf());
                file.example = None;
                file.dirty = false;
                self.history.mark_saved(self.workspace.snapshot());
                self.disk.watcher.watch(Some(path));
                files::remember(&mut self.disk.recent, path);
                self.dialogs.changed_on_disk = false;
                self.say(format!("Saved {}", path.display()));
                if let Some(Pending::Quit) = self.dialogs.confirm.take() {
                    self.quit = true;
                }
            }
            Err(e) => {
                self.load_error = Some(format!("{}: could not save: {e}", path.display()));
            }
        }
    }

    /// The unsaved-changes question's "Save": with a file, save and (once saved) carry on
    /// with what waited (quitting is done by `save_to`); without one, ask for a path.
    fn save_then_perform(&mut self, pending: Pending) {
        if self.workspace.file().path.is_none() {
            self.ask_path(DialogKind::SaveAs);
            return;
        }
        self.save();
        if !self.workspace.file().dirty {
            self.dialogs.confirm = None;
            if pending != Pending::Quit {
                self.perform(pending);
            }
        }
    }

    /// Opens the in-window path dialog and, alongside it, the native one.
    pub fn ask_path(&mut self, kind: DialogKind) {
        let start = self.workspace.file().path.clone();
        self.dialogs.path = PathDialog::asking(kind, start.as_deref());
    }

    pub fn browse(&mut self, kind: DialogKind) {
        let dir = self
            .workspace
            .file()
            .path
            .as_ref()
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .or_else(|| std::env::current_dir().ok());
        self.dialogs.native = Some(NativeDialog::spawn(kind, dir));
    }

    pub fn poll_native_dialog(&mut self) {
        let Some(answer) = self.dialogs.native.as_ref().and_then(NativeDialog::poll) else {
            return;
        };
        let kind = self.dialogs.native.take().map(|d| d.kind);
        match (kind, answer) {
            (Some(DialogKind::Open), Some(path)) => {
                self.dialogs.path.kind = None;
                self.request(Pending::Open(path));
            }
            (Some(DialogKind::SaveAs), Some(path)) => {
                self.dialogs.path.kind = None;
                self.save_to(&path);
            }
            _ => {
                self.dialogs.path.error =
                    Some("No file chosen (or no file dialog is available): type a path.".into())
            }
        }
    }

    /// Reloads the open file after another program changed it; a bad edit keeps the last
    /// good scene and shows where the file is wrong.
    pub fn poll_watcher(&mut self) {
        if !self.disk.watcher.changed(mq::get_time()) {
            return;
        }
        if self.workspace.file().dirty {
            self.dialogs.changed_on_disk = true;
            return;
        }
        self.reload();
    }

    pub fn reload(&mut self) {
        let Some(path) = self.workspace.file().path.clone() else {
            return;
        };
        match LoadedDocument::load(&path) {
            Ok(mut doc) => {
                doc.file_mut().revision = self.workspace.file().revision + 1;
                // Keep looking where the user was looking, overlays as they were.
                self.disk.watcher.watch(doc.file().path.as_deref());
                self.history.clear();
                self.history.mark_saved(doc.snapshot());
                self.prefs.pending_fit = 0;
                if let Err(other_kind) = self.workspace.reload_document(doc) {
                    // The file changed its dimensions: a new workspace, fitted.
                    self.workspace = workspaces::for_document(*other_kind);
                    self.prefs.pending_fit = FIT_FRAMES;
                }
                self.tools.drag = None;
                self.load_error = None;
                self.say(format!("Reloaded {} (changed on disk)", path.display()));
            }
            Err(e) => {
                self.load_error = Some(e.to_string());
                self.say("The file on disk has an error; showing the last good scene");
            }
        }
        self.dialogs.changed_on_disk = false;
    }

    pub fn poll_dropped_files(&mut self) {
        for file in mq::get_dropped_files() {
            if let Some(path) = file.path {
                if path
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("ron"))
                {
                    self.request(Pending::Open(path));
                } else {
                    self.say(format!("{} is not a .ron scene", path.display()));
                }
            }
        }
    }

    /// The window title text: file name, a mark for unsaved changes.
    pub fn title(&self) -> String {
        let file = self.workspace.file();
        super::title::window_title(&file.display_name(), file.dirty)
    }
}
