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
use super::files;
use super::history::History;
use super::parts::Parts;
use super::platform::{self, DialogKind, FileAnswer, Platform};
use super::prefs::{ViewPrefs, FIT_FRAMES};
use super::probe::TestProbe;
use super::scan::ScanPanel;
use super::slides::Slides;
use super::state::Document;
use super::tools::Tools;
use super::workspace::Workspace;
use super::workspaces;
use macroquad::prelude as mq;
use std::path::{Path, PathBuf};

pub struct App {
    pub workspace: Box<dyn Workspace>,
    pub history: History,
    pub tools: Tools,
    pub dialogs: Dialogs,
    /// Files, dialogs, the title and the address bar: the desktop's or the browser's.
    pub platform: Box<dyn Platform>,
    /// File > Export slides in progress: one slide is drawn and stored per frame.
    pub slides: Option<Slides>,
    /// The Scan window: its form, the scan running over frames, its result.
    pub scan: ScanPanel,
    pub prefs: ViewPrefs,
    /// A message at the bottom of the window and when it was posted.
    pub status: Status,
    /// The last load error (file:line:col: message), shown until dismissed.
    pub load_error: Option<String>,
    pub quit: bool,
    pub probe: TestProbe,
}

impl App {
    pub fn new(doc: LoadedDocument, load_error: Option<String>) -> App {
        App::on(platform::this_platform(), doc, load_error)
    }

    /// The window's state on `platform` (tests give it their own).
    pub fn on(
        mut platform: Box<dyn Platform>,
        doc: LoadedDocument,
        load_error: Option<String>,
    ) -> App {
        platform.watch(doc.file().path.as_deref());
        if let Some(p) = &doc.file().path {
            platform.remember(p);
        }
        let mut history = History::default();
        history.mark_saved(doc.snapshot());
        let mut app = App {
            workspace: workspaces::for_document(doc),
            history,
            tools: Tools::default(),
            dialogs: Dialogs::default(),
            platform,
            slides: None,
            scan: ScanPanel::default(),
            prefs: ViewPrefs::default(),
            status: None,
            load_error,
            quit: false,
            probe: TestProbe::from_env(),
        };
        app.show_lesson_step();
        app
    }

    /// A lesson opens on its step (counted from 1, as the timeline shows it); a step past
    /// the end leaves the timeline on its final step.
    fn show_lesson_step(&mut self) {
        if let Some((algorithm, n)) = self.workspace.outline().lesson.and_then(|l| l.step) {
            let _ = self
                .workspace
                .picture()
                .show_step(algorithm, n.saturating_sub(1));
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
            platform: self.platform.as_ref(),
            prefs: &mut self.prefs,
            status: &mut self.status,
            load_error: &mut self.load_error,
            probe: &mut self.probe,
            scan: &mut self.scan,
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
            Action::ShareLink => self.share_link(),
            Action::ScanStart => {
                let text = self.workspace.scene_text();
                let outline = self.workspace.outline();
                self.scan.start(&text, outline.focus_names());
            }
            Action::ScanPlace(t) => self.scan_place(t),
            Action::ScanSaveSides(k) => self.scan_save_sides(k),
            Action::CopyText(text) => {
                self.platform.copy_text(&text);
                self.say("Link copied");
            }
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
        let started = self
            .platform
            .prepare_folder(&dir)
            .and_then(|()| Slides::start(self.workspace.picture(), algorithm, &dir));
        match started {
            Ok(slides) => {
                self.say(format!(
                    "Writing {} slides of {} to {}",
                    slides.count,
                    algorithm.title(),
                    self.where_files_go(&dir)
                ));
                self.slides = Some(slides);
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
        if action == Pending::Quit && !self.platform.can_quit() {
            return;
        }
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
            Pending::OpenText { name, text } => self.open_text(&name, &text),
            Pending::Example(name) => self.open_example(&name),
            // A browser tab is closed by the user; the page never ends itself (a stopped
            // frame loop would leave a frozen picture).
            Pending::Quit => self.quit = self.platform.can_quit(),
        }
    }

    /// Shows a newly opened document, in a workspace of its kind.
    pub(super) fn set_document(&mut self, doc: LoadedDocument) {
        self.prefs.pending_fit = FIT_FRAMES;
        self.platform.watch(doc.file().path.as_deref());
        self.history.clear();
        self.history.mark_saved(doc.snapshot());
        if let Err(other_kind) = self.workspace.replace_document(doc) {
            self.workspace = workspaces::for_document(*other_kind);
        }
        self.show_lesson_step();
        self.tools.drag = None;
        self.dialogs.changed_on_disk = false;
    }

    pub fn open_path(&mut self, path: &Path) {
        match LoadedDocument::load(path) {
            Ok(doc) => {
                self.set_document(doc);
                self.platform.remember(path);
                self.load_error = None;
                self.say(format!("Opened {}", path.display()));
            }
            Err(e) => {
                self.load_error = Some(e.to_string());
                self.say("The scene could not be opened; the current one is kept");
            }
        }
    }

    /// Opens a scene read by the browser (its file picker, or a file dropped on the page):
    /// its name stands for its path, so Save downloads it under the same name.
    pub fn open_text(&mut self, name: &str, text: &str) {
        match LoadedDocument::parse(text, name) {
            Ok(mut doc) => {
                doc.file_mut().path = Some(PathBuf::from(name));
                self.set_document(doc);
                self.load_error = None;
                self.say(format!("Opened {name}"));
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
        let text = self.workspace.scene_text();
        match self.platform.store(path, text.as_bytes()) {
            Ok(place) => {
                let file = self.workspace.file_mut();
                file.path = Some(path.to_path_buf());
                file.example = None;
                file.dirty = false;
                self.history.mark_saved(self.workspace.snapshot());
                self.platform.watch(Some(path));
                self.platform.remember(path);
                self.dialogs.changed_on_disk = false;
                self.say(format!("Saved {place}"));
                if let Some(Pending::Quit) = self.dialogs.confirm.take() {
                    self.quit = true;
                }
            }
            Err(e) => self.load_error = Some(format!("could not save: {e}")),
        }
    }

    /// Where files stored in `dir` go, for the status line: the folder on the desktop, the
    /// browser's downloads.
    fn where_files_go(&self, dir: &Path) -> String {
        if self.platform.has_paths() {
            dir.display().to_string()
        } else {
            "your downloads".into()
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

    /// Asks for a file. On the desktop: the in-window path field (with the native dialog
    /// behind its Browse button). In the browser: Open shows the page's file picker and
    /// Save As downloads the scene under its name.
    pub fn ask_path(&mut self, kind: DialogKind) {
        if self.platform.has_paths() {
            let start = self.workspace.file().path.clone();
            self.dialogs.path = PathDialog::asking(kind, start.as_deref());
            return;
        }
        match kind {
            DialogKind::Open => self.platform.ask_file(kind, None),
            DialogKind::SaveAs => {
                let name = download_name(&self.workspace.file().display_name());
                self.save_to(Path::new(&name));
            }
        }
    }

    pub fn browse(&mut self, kind: DialogKind) {
        let dir = self
            .workspace
            .file()
            .path
            .as_ref()
            .and_then(|p| p.parent().map(Path::to_path_buf));
        self.platform.ask_file(kind, dir);
    }

    pub fn poll_file_dialog(&mut self) {
        self.dialogs.browsing = self.platform.is_asking();
        let Some((kind, answer)) = self.platform.poll_answer() else {
            return;
        };
        self.dialogs.browsing = false;
        match (kind, answer) {
            (DialogKind::Open, FileAnswer::Path(path)) => {
                self.dialogs.path.kind = None;
                self.request(Pending::Open(path));
            }
            (DialogKind::SaveAs, FileAnswer::Path(path)) => {
                self.dialogs.path.kind = None;
                self.save_to(&path);
            }
            (_, FileAnswer::Contents { name, bytes }) => self.open_bytes(name, bytes),
            (_, FileAnswer::Nothing) if self.dialogs.path.kind.is_some() => {
                self.dialogs.path.error =
                    Some("No file chosen (or no file dialog is available): type a path.".into())
            }
            (_, FileAnswer::Nothing) => {}
        }
    }

    /// A file read by the browser: opened (after the unsaved-changes question) when it is
    /// UTF-8 text; the scene's own errors show as for any file.
    fn open_bytes(&mut self, name: String, bytes: Vec<u8>) {
        match String::from_utf8(bytes) {
            Ok(text) => self.request(Pending::OpenText { name, text }),
            Err(_) => self.load_error = Some(format!("{name}: the file is not UTF-8 text")),
        }
    }

    /// Reloads the open file after another program changed it; a bad edit keeps the last
    /// good scene and shows where the file is wrong.
    pub fn poll_watcher(&mut self) {
        if !self.platform.file_changed(mq::get_time()) {
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
        if !self.platform.has_paths() {
            return;
        }
        match LoadedDocument::load(&path) {
            Ok(mut doc) => {
                doc.file_mut().revision = self.workspace.file().revision + 1;
                // Keep looking where the user was looking, overlays as they were.
                self.platform.watch(doc.file().path.as_deref());
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

    /// Files dropped on the window: a path on the desktop, the contents in the browser.
    pub fn poll_dropped_files(&mut self) {
        for file in mq::get_dropped_files() {
            let name = file.path.as_ref().and_then(|p| p.file_name()).map_or_else(
                || "dropped file".into(),
                |n| n.to_string_lossy().into_owned(),
            );
            if !name.to_ascii_lowercase().ends_with(".ron") {
                self.say(format!("{name} is not a .ron scene"));
                continue;
            }
            match (file.path, file.bytes) {
                (Some(path), _) if self.platform.has_paths() => self.request(Pending::Open(path)),
                (_, Some(bytes)) => self.open_bytes(name, bytes),
                _ => self.say(format!("{name} could not be read")),
            }
        }
    }

    // ---- the scan (see `scan`) -----------------------------------------------------------

    /// Moves the scanned body to parameter `t` of the last scan, as one undoable edit: the
    /// overlays, the timeline and the Results then show that pose.
    fn scan_place(&mut self, t: f32) {
        let Some((output, scene)) = &self.scan.result else {
            return;
        };
        let spec = output.spec.clone();
        match crate::scan::pose_at(scene, &spec, t) {
            Ok(pose) => {
                self.flush_edit();
                self.checkpoint();
                let placed = self.workspace.place_body(&spec.moving, pose);
                self.flush_edit();
                self.say(match placed {
                    true => format!("{} at {} = {t}", spec.moving, spec.param.key()),
                    false => format!("{} is no longer in the scene", spec.moving),
                });
            }
            Err(e) => self.say(format!("Cannot go there: {e}")),
        }
    }

    /// Writes the scene at each side of event `k` (expectations recorded) beside the scene's
    /// file, or downloads them in the browser.
    fn scan_save_sides(&mut self, k: usize) {
        let Some(result) = &self.scan.result else {
            return;
        };
        let file = self.workspace.file();
        let unsaved = file.example.as_deref().unwrap_or("untitled");
        let dir = files::folder_beside(file.path.as_deref(), unsaved, "scan");
        let stored = super::scan::event_sides(result, k).and_then(|sides| {
            self.platform.prepare_folder(&dir)?;
            for (name, text) in &sides {
                self.platform.store(&dir.join(name), text.as_bytes())?;
            }
            Ok(sides.map(|(name, _)| name))
        });
        match stored {
            Ok([before, after]) => {
                let place = self.where_files_go(&dir);
                self.say(format!("Wrote {before} and {after} to {place}"));
            }
            Err(why) => self.say(format!("The sides were not written: {why}")),
        }
    }

    // ---- share links (see `share`) -----------------------------------------------------

    /// File > Share link: the link for the scene as it is now, shown with a Copy button.
    pub fn share_link(&mut self) {
        let text = self.workspace.scene_text();
        match self.dialogs.share.make(&text, self.platform.as_mut()) {
            Ok(link) => {
                self.say(format!("Share link made ({} characters)", link.len()));
                self.dialogs.share.shown_link = Some(link);
            }
            Err(why) => self.say(format!("No link made: {why}")),
        }
    }

    /// Opens the scene a link carries; a link that does not decode or holds a bad scene
    /// leaves the current scene and shows why.
    pub fn open_link(&mut self, link: &str) {
        match self.dialogs.share.open(link) {
            Ok(doc) => {
                self.set_document(doc);
                self.load_error = None;
                self.say("Opened the scene from the link");
            }
            Err(why) => {
                self.load_error = Some(why);
                self.say("The link could not be opened; the current scene is kept");
            }
        }
    }

    /// Opens the scene in the page's address, if it was opened on a share link.
    pub fn open_start_link(&mut self) {
        if let Some(fragment) = self.platform.take_start_fragment() {
            if !fragment.is_empty() {
                self.open_link(&fragment);
            }
        }
    }

    /// Keeps the address bar's link in step with the scene (see [`SharedLink::follow`]).
    pub fn follow_link(&mut self, now: f64, dragging: bool) {
        let workspace = &self.workspace;
        self.dialogs.share.follow(
            now,
            dragging,
            || workspace.scene_text(),
            self.platform.as_mut(),
        );
    }

    /// The window title text: file name, a mark for unsaved changes.
    pub fn title(&self) -> String {
        let file = self.workspace.file();
        super::title::window_title(&file.display_name(), file.dirty)
    }
}

/// The file name a scene downloads under in the browser: its name, `.ron` added when
/// missing, and characters a file name cannot hold replaced.
fn download_name(display_name: &str) -> String {
    let stem = display_name.trim().trim_end_matches(".ron");
    let stem: String = stem
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_. ".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let stem = if stem.trim().is_empty() {
        "scene".into()
    } else {
        stem
    };
    format!("{}.ron", stem.trim())
}

#[cfg(test)]
mod tests {
    use super::download_name;

    #[test]
    fn downloads_are_named_after_the_scene() {
        assert_eq!(download_name("welcome"), "welcome.ron");
        assert_eq!(download_name("gjk.ron"), "gjk.ron");
        assert_eq!(download_name("3d/welcome"), "3d_welcome.ron");
        assert_eq!(download_name("  "), "scene.ron");
    }
}
