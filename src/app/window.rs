//! The interactive window: the frame loop, the document actions (new, open, save, undo),
//! and the glue between egui panels, canvas input and drawing.

use super::camera::Camera;
use super::canvas::{draw_canvas, CanvasInput};
use super::examples;
use super::files::{self, DialogKind, NativeDialog, Watcher};
use super::history::History;
use super::input::{CanvasInput as Pointer, Drag, Tool};
use super::render::save_screen;
use super::session::Session;
use super::state::{Document, Snapshot};
use super::ui;
use crate::geom::{Pose, Shape};
use crate::scene::SceneBody;
use crate::scene::{load_scene_file, save_scene_atomic};
use egui_macroquad::egui;
use glam::Vec2;
use macroquad::prelude as mq;
use std::path::{Path, PathBuf};

/// Frames during which a newly opened document is fitted: egui sizes its side panels over
/// the first frames, so the canvas only settles after a few.
const FIT_FRAMES: u8 = 4;

/// Something the user asked for that may first need the unsaved-changes question.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    New,
    Open(PathBuf),
    Example(String),
    Quit,
}

/// The in-window path field dialogs (the fallback when no native dialog answers).
#[derive(Default)]
pub struct PathDialog {
    pub kind: Option<DialogKind>,
    /// Give the path field the keyboard on the next frame.
    pub focus: bool,
    pub text: String,
    pub error: Option<String>,
}

pub struct App {
    pub session: Session,
    pub history: History,
    /// The state before the edit in progress; recorded when the pointer is released.
    pub edit_before: Option<Snapshot>,
    pub ui_scale: f32,
    pub snap: bool,
    pub tool: Tool,
    pub drag: Option<Drag>,
    pub pointer: Pointer,
    /// A refused polygon edit: the outline that was tried and why it was refused.
    pub refused: Option<(Vec<Vec2>, String)>,
    /// A message at the bottom of the window and when it was posted.
    pub status: Option<(String, f64)>,
    /// The last load error (file:line:col: message), shown until dismissed.
    pub load_error: Option<String>,
    /// The open file changed on disk while there were unsaved edits.
    pub changed_on_disk: bool,
    pub recent: Vec<PathBuf>,
    pub watcher: Watcher,
    pub path_dialog: PathDialog,
    pub native: Option<NativeDialog>,
    /// The question "discard unsaved changes?" and what waits on it.
    pub confirm: Option<Pending>,
    pub screenshot: bool,
    pub quit: bool,
    pub show_plots: bool,
    pub show_help: bool,
    pub show_legend: bool,
    /// Fit all during the next frames, once the panels have settled and the canvas size
    /// is known (for a document without a saved view).
    pub pending_fit: u8,
    /// Timeline playback: seconds per step and when the next step is due.
    pub playing: Option<f64>,
    pub play_interval: f64,
    /// The canvas rectangle in pixels, from the last layout.
    pub canvas: (Vec2, Vec2),
    /// Text field contents of the inspector's name box.
    pub rename_text: Option<(usize, String)>,
    /// Keys pressed this frame with the modifiers held at that moment (from egui's events,
    /// which carry the modifiers of each key event even when press and release arrive
    /// within one frame).
    pub keys: Vec<(egui::Key, egui::Modifiers)>,
    /// The last keys seen, for the test state.
    key_log: Vec<String>,
    /// Screen rectangles (pixels) of named widgets, for the window tests.
    pub widgets: Vec<(String, [f32; 4])>,
    /// The real window title, kept in step with the document.
    window_title: super::title::Title,
    /// Where to write the test state (`COLLISION_LAB_STATE_FILE`), and what was last written.
    state_file: Option<(PathBuf, String)>,
}

impl App {
    pub fn new(doc: Document, load_error: Option<String>) -> App {
        let mut watcher = Watcher::default();
        watcher.watch(doc.path.as_deref());
        let mut recent = files::load_recent();
        if let Some(p) = &doc.path {
            files::remember(&mut recent, p);
        }
        App {
            session: Session::new(doc, Camera::default()),
            history: History::default(),
            edit_before: None,
            ui_scale: initial_scale(),
            snap: false,
            tool: Tool::Select,
            drag: None,
            pointer: Pointer::default(),
            refused: None,
            status: None,
            load_error,
            changed_on_disk: false,
            recent,
            watcher,
            path_dialog: PathDialog::default(),
            native: None,
            confirm: None,
            screenshot: false,
            quit: false,
            show_plots: false,
            show_help: false,
            show_legend: true,
            pending_fit: FIT_FRAMES,
            playing: None,
            play_interval: 0.8,
            canvas: (Vec2::ZERO, Vec2::new(800.0, 600.0)),
            rename_text: None,
            keys: Vec::new(),
            key_log: Vec::new(),
            window_title: super::title::Title::default(),
            widgets: Vec::new(),
            state_file: std::env::var_os("COLLISION_LAB_STATE_FILE")
                .filter(|v| !v.is_empty())
                .map(|p| (PathBuf::from(p), String::new())),
        }
    }

    /// Pixels per logical pixel on the canvas: the UI scale times the display's DPI scale.
    pub fn pixel_scale(&self) -> f32 {
        self.ui_scale * mq::screen_dpi_scale()
    }

    pub fn doc(&self) -> &Document {
        &self.session.doc
    }

    pub fn doc_mut(&mut self) -> &mut Document {
        &mut self.session.doc
    }

    /// Call before changing the document: remembers the state for undo. Edits made while a
    /// pointer button is held (a drag, a slider) become one undo step.
    pub fn checkpoint(&mut self) {
        if self.edit_before.is_none() {
            self.edit_before = Some(self.session.doc.snapshot());
        }
    }

    /// Adds a new body named after `base` (made unique) at `center`, as one undoable edit.
    pub fn add_new_body(&mut self, base: &str, shape: Shape, center: Vec2) {
        self.checkpoint();
        let name = self.doc().unique_name(base);
        self.doc_mut().add_body(SceneBody {
            name,
            shape,
            pose: Pose::new(center, 0.0),
            velocity: None,
            color: None,
        });
    }

    /// Records the edit in progress once the pointer is released.
    fn settle_edit(&mut self) {
        let held = [
            mq::MouseButton::Left,
            mq::MouseButton::Right,
            mq::MouseButton::Middle,
        ]
        .into_iter()
        .any(mq::is_mouse_button_down);
        if held {
            return;
        }
        if let Some(before) = self.edit_before.take() {
            if before != self.session.doc.snapshot() {
                self.history.record(before);
            }
        }
    }

    pub fn undo(&mut self) {
        self.flush_edit();
        if let Some(s) = self.history.undo(self.session.doc.snapshot()) {
            self.session.doc.restore(s);
            self.say("Undone");
        }
    }

    pub fn redo(&mut self) {
        self.flush_edit();
        if let Some(s) = self.history.redo(self.session.doc.snapshot()) {
            self.session.doc.restore(s);
            self.say("Redone");
        }
    }

    fn flush_edit(&mut self) {
        if let Some(before) = self.edit_before.take() {
            if before != self.session.doc.snapshot() {
                self.history.record(before);
            }
        }
    }

    pub fn say(&mut self, text: impl Into<String>) {
        self.status = Some((text.into(), mq::get_time()));
    }

    // ---- files ------------------------------------------------------------------------

    /// Runs `action` now, or asks first when there are unsaved changes.
    pub fn request(&mut self, action: Pending) {
        if self.session.doc.dirty {
            self.confirm = Some(action);
        } else {
            self.perform(action);
        }
    }

    /// Runs an action without asking.
    pub fn perform(&mut self, action: Pending) {
        match action {
            Pending::New => {
                self.set_document(Document::new_empty());
                self.say("New scene");
            }
            Pending::Open(path) => self.open_path(&path),
            Pending::Example(name) => self.open_example(&name),
            Pending::Quit => self.quit = true,
        }
    }

    fn set_document(&mut self, doc: Document) {
        self.pending_fit = FIT_FRAMES;
        self.watcher.watch(doc.path.as_deref());
        self.session.replace_document(doc);
        self.history.clear();
        self.edit_before = None;
        self.drag = None;
        self.changed_on_disk = false;
        self.playing = None;
    }

    pub fn open_path(&mut self, path: &Path) {
        match load_scene_file(path) {
            Ok((scene, bodies)) => {
                let mut doc = Document::from_parts(scene, bodies);
                doc.path = Some(path.to_path_buf());
                self.set_document(doc);
                files::remember(&mut self.recent, path);
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
        match Document::parse(text, &format!("{name}.ron")) {
            Ok(mut doc) => {
                doc.example = Some(name.to_string());
                self.set_document(doc);
                self.load_error = None;
                self.say(format!("Opened example {name}"));
            }
            Err(e) => self.load_error = Some(e.to_string()),
        }
    }

    /// Saves to the document's file, or asks for one.
    pub fn save(&mut self) {
        match self.session.doc.path.clone() {
            Some(path) => self.save_to(&path),
            None => self.ask_path(DialogKind::SaveAs),
        }
    }

    pub fn save_to(&mut self, path: &Path) {
        let scene = self.session.doc.to_scene(Some(self.session.view()));
        match save_scene_atomic(path, &scene) {
            Ok(()) => {
                let doc = self.doc_mut();
                doc.path = Some(path.to_path_buf());
                doc.example = None;
                doc.dirty = false;
                self.watcher.watch(Some(path));
                files::remember(&mut self.recent, path);
                self.changed_on_disk = false;
                self.say(format!("Saved {}", path.display()));
                if let Some(Pending::Quit) = self.confirm.take() {
                    self.quit = true;
                }
            }
            Err(e) => {
                self.load_error = Some(format!("{}: could not save: {e}", path.display()));
            }
        }
    }

    /// Opens the in-window path dialog and, alongside it, the native one.
    pub fn ask_path(&mut self, kind: DialogKind) {
        let start = self.session.doc.path.clone();
        self.path_dialog = PathDialog {
            kind: Some(kind),
            focus: true,
            text: start
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| match kind {
                    DialogKind::Open => String::new(),
                    DialogKind::SaveAs => "scene.ron".into(),
                }),
            error: None,
        };
    }

    pub fn browse(&mut self, kind: DialogKind) {
        let dir = self
            .session
            .doc
            .path
            .as_ref()
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .or_else(|| std::env::current_dir().ok());
        self.native = Some(NativeDialog::spawn(kind, dir));
    }

    fn poll_native_dialog(&mut self) {
        let Some(answer) = self.native.as_ref().and_then(NativeDialog::poll) else {
            return;
        };
        let kind = self.native.take().map(|d| d.kind);
        match (kind, answer) {
            (Some(DialogKind::Open), Some(path)) => {
                self.path_dialog.kind = None;
                self.request(Pending::Open(path));
            }
            (Some(DialogKind::SaveAs), Some(path)) => {
                self.path_dialog.kind = None;
                self.save_to(&path);
            }
            _ => {
                self.path_dialog.error =
                    Some("No file chosen (or no file dialog is available): type a path.".into())
            }
        }
    }

    /// Reloads the open file after another program changed it; a bad edit keeps the last
    /// good scene and shows where the file is wrong.
    fn poll_watcher(&mut self) {
        if !self.watcher.changed(mq::get_time()) {
            return;
        }
        if self.session.doc.dirty {
            self.changed_on_disk = true;
            return;
        }
        self.reload();
    }

    pub fn reload(&mut self) {
        let Some(path) = self.session.doc.path.clone() else {
            return;
        };
        match load_scene_file(&path) {
            Ok((scene, bodies)) => {
                let camera = self.session.camera;
                let overlays = self.session.overlays.clone();
                let mut doc = Document::from_parts(scene, bodies);
                doc.path = Some(path.clone());
                doc.revision = self.session.doc.revision + 1;
                self.set_document(doc);
                // Keep looking where the user was looking.
                self.session.camera = camera;
                self.session.overlays = overlays;
                self.pending_fit = 0;
                self.session.refresh();
                self.load_error = None;
                self.say(format!("Reloaded {} (changed on disk)", path.display()));
            }
            Err(e) => {
                self.load_error = Some(e.to_string());
                self.say("The file on disk has an error; showing the last good scene");
            }
        }
        self.changed_on_disk = false;
    }

    fn poll_dropped_files(&mut self) {
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
        let mark = if self.session.doc.dirty {
            "\u{25cf} "
        } else {
            ""
        };
        format!(
            "{mark}{} \u{2014} collision-lab",
            self.session.doc.display_name()
        )
    }

    // ---- frame ------------------------------------------------------------------------

    fn frame(&mut self) {
        self.poll_dropped_files();
        self.poll_watcher();
        self.poll_native_dialog();
        if mq::is_quit_requested() {
            self.request(Pending::Quit);
        }
        let mut over_ui = false;
        self.widgets.clear();
        egui_macroquad::ui(|ctx| {
            ctx.set_zoom_factor(self.ui_scale);
            ui::show(ctx, self);
            let rect = ctx.available_rect();
            let ppp = ctx.pixels_per_point();
            self.canvas = (
                Vec2::new(rect.min.x, rect.min.y) * ppp,
                Vec2::new(rect.width(), rect.height()) * ppp,
            );
            over_ui = ctx.is_pointer_over_area() || ctx.wants_pointer_input();
            self.pointer.keyboard_taken = ctx.wants_keyboard_input();
            self.keys = ctx.input(|i| {
                i.events
                    .iter()
                    .filter_map(|e| match e {
                        egui::Event::Key {
                            key,
                            pressed: true,
                            modifiers,
                            ..
                        } => Some((*key, *modifiers)),
                        _ => None,
                    })
                    .collect()
            });
        });
        if self.state_file.is_some() {
            for (k, m) in &self.keys {
                self.key_log
                    .push(format!("{k:?}{}", if m.any() { "+mod" } else { "" }));
            }
            let excess = self.key_log.len().saturating_sub(12);
            self.key_log.drain(..excess);
        }
        self.session.camera.origin = self.canvas.0;
        self.session.camera.size = self.canvas.1.max(Vec2::splat(1.0));
        if self.pending_fit > 0 {
            self.pending_fit -= 1;
            if self.session.doc.meta.view.is_none() {
                self.session.fit_all();
            }
        }
        super::input::handle(self, over_ui);
        self.settle_edit();
        self.advance_playback();
        self.session.refresh();
        self.draw();
        let title = self.title();
        self.window_title.update(&title);
        self.write_test_state();
    }

    /// Records a widget's rectangle (egui points) in pixels, for the window tests.
    pub fn note_widget(
        &mut self,
        name: impl Into<String>,
        rect: egui::Rect,
        pixels_per_point: f32,
    ) {
        let r = [rect.min.x, rect.min.y, rect.width(), rect.height()].map(|v| v * pixels_per_point);
        self.widgets.push((name.into(), r));
    }

    /// For the window tests: when `COLLISION_LAB_STATE_FILE` is set, writes what the window
    /// shows (canvas, camera, bodies, overlays, widgets, errors) as JSON whenever it changes.
    fn write_test_state(&mut self) {
        let Some((path, last)) = &self.state_file else {
            return;
        };
        let s = &self.session;
        let bodies: Vec<_> = s
            .doc
            .bodies
            .iter()
            .map(|b| {
                serde_json::json!({
                    "name": b.name,
                    "position": [b.pose.position.x, b.pose.position.y],
                    "angle": b.pose.angle,
                    "vertices": b.shape.core().len(),
                })
            })
            .collect();
        let overlays: serde_json::Map<String, serde_json::Value> = crate::scene::Overlay::ALL
            .iter()
            .map(|o| {
                (
                    super::labs::overlay_key(*o).to_string(),
                    s.overlays.is_on(*o).into(),
                )
            })
            .collect();
        let widgets: serde_json::Map<String, serde_json::Value> = self
            .widgets
            .iter()
            .map(|(n, r)| (n.clone(), serde_json::json!(r)))
            .collect();
        let state = serde_json::json!({
            "title": self.title(),
            "dirty": s.doc.dirty,
            "path": s.doc.path.as_ref().map(|p| p.display().to_string()),
            "canvas": [s.camera.origin.x, s.camera.origin.y, s.camera.size.x, s.camera.size.y],
            "camera": { "center": [s.camera.center.x, s.camera.center.y], "zoom": s.camera.zoom },
            "bodies": bodies,
            "selected": s.doc.selected,
            "focus": s.doc.focus,
            "overlays": overlays,
            "load_error": self.load_error,
            "refused": self.refused.as_ref().map(|(_, why)| why.clone()),
            "dialog": self.path_dialog.kind.map(|k| format!("{k:?}")),
            "confirm": self.confirm.as_ref().map(|p| format!("{p:?}")),
            "selected_core": s.doc.selected.and_then(|i| s.doc.bodies.get(i)).map(|b| {
                b.shape.core().iter().map(|p| [p.x, p.y]).collect::<Vec<_>>()
            }),
            "can_undo": self.history.can_undo(),
            "keyboard_taken": self.pointer.keyboard_taken,
            "keys": self.key_log,
            "tool": format!("{:?}", self.tool),
            "widgets": widgets,
        })
        .to_string();
        if state != *last {
            let temp = path.with_extension("tmp");
            if std::fs::write(&temp, &state).is_ok() && std::fs::rename(&temp, path).is_ok() {
                self.state_file = Some((path.clone(), state));
            }
        }
    }

    fn advance_playback(&mut self) {
        let Some(due) = self.playing else {
            return;
        };
        let now = mq::get_time();
        if now >= due {
            if ui::timeline::step_by(self, 1) {
                self.playing = Some(now + self.play_interval);
            } else {
                self.playing = None;
            }
        }
    }

    fn draw(&mut self) {
        mq::clear_background(super::draw::palette::BACKGROUND);
        let s = &self.session;
        draw_canvas(&CanvasInput {
            doc: &s.doc,
            run: s.run.as_ref(),
            labs: &s.labs,
            overlays: &s.overlays,
            camera: s.camera,
            scale: self.pixel_scale(),
            caption: None,
            legend: self.show_legend,
        });
        super::input::draw_interaction(self);
        egui_macroquad::draw();
        if std::mem::take(&mut self.screenshot) {
            let path = files::screenshot_path(&files::screenshot_dir());
            match save_screen(&path) {
                Ok(()) => self.say(format!("Screenshot saved to {}", path.display())),
                Err(e) => self.say(format!("Screenshot failed: {e}")),
            }
        }
    }
}

/// The UI scale to start with: `COLLISION_LAB_UI_SCALE` when set (e.g. 2 for a projector).
fn initial_scale() -> f32 {
    std::env::var("COLLISION_LAB_UI_SCALE")
        .ok()
        .and_then(|v| v.parse::<f32>().ok())
        .filter(|v| (0.5..=4.0).contains(v))
        .unwrap_or(1.0)
}

/// Opens the window on a file (or the welcome scene) and runs until it closes.
pub fn run_window(scene: Option<PathBuf>) -> u8 {
    if !super::render::have_display() {
        eprintln!("error: the window needs a display (X11 or Wayland); for pictures without one, use `collision-lab render` under xvfb-run");
        return 2;
    }
    let (doc, error) = initial_document(scene);
    let conf = mq::Conf {
        window_title: super::title::initial_title(),
        window_width: 1440,
        window_height: 900,
        high_dpi: true,
        window_resizable: true,
        ..Default::default()
    };
    macroquad::Window::from_config(conf, async move {
        let mut app = App::new(doc, error);
        egui_macroquad::cfg(|ctx| ctx.set_visuals(egui::Visuals::light()));
        loop {
            mq::prevent_quit();
            app.frame();
            if app.quit {
                break;
            }
            mq::next_frame().await;
        }
        macroquad::miniquad::window::order_quit();
        loop {
            mq::next_frame().await;
        }
    });
    0
}

/// The file given on the command line, or the welcome scene when there is none or it has
/// an error (the error is then shown in the window).
fn initial_document(scene: Option<PathBuf>) -> (Document, Option<String>) {
    let welcome = || {
        let mut doc = Document::parse(examples::welcome(), "welcome.ron").expect("welcome parses");
        doc.example = Some("welcome".into());
        doc
    };
    match scene {
        None => (welcome(), None),
        Some(path) => match load_scene_file(&path) {
            Ok((scene, bodies)) => {
                let mut doc = Document::from_parts(scene, bodies);
                doc.path = Some(path);
                (doc, None)
            }
            Err(e) => (welcome(), Some(e.to_string())),
        },
    }
}
