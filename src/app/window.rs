//! The frame loop: read input, let the panels and the tools edit the state, update the
//! workspace, draw. Everything it drives lives in [`App`] and its parts.

use super::document::LoadedDocument;
use super::draw::palette;
use super::examples;
use super::files;
use super::idle::{FrameKind, Idle, Wake};
use super::input;
use super::input3;
use super::render::{capture_screen, png_bytes};
use super::shell::App;
use super::timeline::TimelineModel;
use super::ui;
use crate::query::Algorithm;
use egui_macroquad::egui;
use glam::Vec2;
use macroquad::prelude as mq;
use std::path::PathBuf;

/// What every frame does, idle or not: files dropped or changed on disk, the native
/// dialog's answer, the quit request. Returns whether that changed what the window shows.
fn poll(app: &mut App) -> bool {
    let before = shown_state(app);
    app.poll_dropped_files();
    app.poll_watcher();
    app.poll_file_dialog();
    app.follow_link(
        mq::get_time(),
        mq::is_mouse_button_down(mq::MouseButton::Left),
    );
    if mq::is_quit_requested() {
        app.request(super::dialogs::Pending::Quit);
    }
    shown_state(app) != before
}

/// A cheap summary of what the polls may change.
fn shown_state(app: &App) -> (u64, bool, bool, bool, bool, bool, bool) {
    let d = &app.dialogs;
    (
        app.workspace.file().revision,
        app.workspace.file().dirty,
        app.load_error.is_some(),
        d.changed_on_disk,
        d.confirm.is_some(),
        d.path.kind.is_some(),
        app.quit,
    )
}

/// Whether a full frame is due without input: a fit, a screenshot or slides being written
/// (one a frame), or the status message expiring since the last full frame (at
/// `last_full`).
fn due(app: &App, last_full: f64, now: f64) -> bool {
    let expiry = app
        .status
        .as_ref()
        .map(|(_, at)| at + super::ui::STATUS_SECONDS);
    app.prefs.pending_fit > 0
        || app.prefs.screenshot
        || app.slides.is_some()
        || expiry.is_some_and(|t| last_full < t && t <= now)
}

/// Why this frame may need to be drawn in full.
fn wake(app: &mut App, idle: &mut Idle, changed: bool, last_full: f64) -> Wake {
    let now = mq::get_time();
    Wake {
        input: idle.input_arrived(),
        playing: app.workspace.timeline_model().is_playing()
            || app.workspace.clocks_running()
            || app.scan.progress().is_some(),
        egui: egui_wants_repaint(),
        changed: changed || due(app, last_full, now),
    }
}

fn egui_wants_repaint() -> bool {
    let mut wants = false;
    egui_macroquad::cfg(|ctx| wants = ctx.has_requested_repaint());
    wants
}

/// One full frame: panels, canvas input, the analysis, the picture.
fn frame(app: &mut App) {
    app.workspace.advance_clocks(mq::get_time());
    app.scan.advance(mq::get_time);
    let over_ui = panels(app);
    app.probe.log_keys(&app.tools.keys);
    if app.prefs.pending_fit > 0 {
        app.prefs.pending_fit -= 1;
        if !app.workspace.has_saved_view() {
            app.workspace.fit_all();
        }
    }
    // The 3D tools first: they end their own drag on release (see `input3`).
    input3::handle(app, over_ui);
    input::handle(app, over_ui);
    app.settle_edit();
    app.workspace.update(mq::get_time());
    draw(app);
    let title = app.title();
    app.platform.show_title(&title);
    if app.probe.is_active() {
        let state = test_state(app);
        app.probe.write(state);
    }
}

/// Builds this frame's panels; the canvas gets the rectangle they leave. Returns whether
/// the pointer is over a panel.
fn panels(app: &mut App) -> bool {
    let mut over_ui = false;
    app.probe.widgets.clear();
    egui_macroquad::ui(|ctx| {
        ctx.set_zoom_factor(app.prefs.ui_scale);
        for action in ui::show(ctx, &mut app.parts()) {
            app.apply(action);
        }
        let rect = ctx.available_rect();
        let ppp = ctx.pixels_per_point();
        app.workspace.set_presentation(app.prefs.presentation);
        let split = app.prefs.split_shown(app.workspace.draws_on_difference());
        app.workspace.set_split(split);
        app.workspace.set_viewport(
            Vec2::new(rect.min.x, rect.min.y) * ppp,
            Vec2::new(rect.width(), rect.height()) * ppp,
        );
        over_ui = ctx.is_pointer_over_area() || ctx.wants_pointer_input();
        app.tools.pointer.keyboard_taken = ctx.wants_keyboard_input();
        app.tools.keys = ctx.input(|i| {
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
        app.tools.pointer.presses = ctx.input(|i| {
            i.events
                .iter()
                .filter_map(|e| match e {
                    egui::Event::PointerButton {
                        pos,
                        button: egui::PointerButton::Primary,
                        pressed: true,
                        ..
                    } => Some(Vec2::new(pos.x, pos.y) * ppp),
                    _ => None,
                })
                .collect()
        });
    });
    over_ui
}

fn draw(app: &mut App) {
    if app.slides.is_some() {
        draw_slide(app);
        return;
    }
    mq::clear_background(palette::BACKGROUND);
    app.workspace
        .draw(app.pixel_scale(), app.prefs.legend_shown());
    input::draw_interaction(app);
    egui_macroquad::draw();
    app.platform.finish_frame();
    if std::mem::take(&mut app.prefs.screenshot) {
        let path = files::screenshot_path(&files::screenshot_dir());
        let stored = png_bytes(&capture_screen()).and_then(|png| app.platform.store(&path, &png));
        match stored {
            Ok(place) => app.say(format!("Screenshot saved to {place}")),
            Err(e) => app.say(format!("Screenshot failed: {e}")),
        }
    }
}

/// File > Export slides: this frame draws and writes the next slide over the whole window
/// (the panels are not drawn); after the last, the timeline goes back where it was.
fn draw_slide(app: &mut App) {
    let scale = app.pixel_scale();
    let Some(slides) = app.slides.as_mut() else {
        return;
    };
    let picture = app.workspace.picture();
    let result = slides
        .draw_next(picture, scale)
        .and_then(|drawn| match drawn {
            Some((path, shot)) => {
                let png = png_bytes(&shot)?;
                app.platform.store(&path, &png).map(Some)
            }
            None => Ok(None),
        });
    let message = match result {
        Ok(Some(_)) if !slides.done() => return,
        Ok(_) => format!(
            "Wrote {} slides of {} to {}",
            slides.count,
            slides.algorithm.title(),
            if app.platform.has_paths() {
                slides.dir.display().to_string()
            } else {
                "your downloads".into()
            }
        ),
        Err(e) => format!("Slides stopped: {e}"),
    };
    slides.restore(picture);
    app.slides = None;
    app.say(message);
}

/// For the window tests: what the window shows (canvas, camera, bodies, overlays, widgets,
/// errors) as JSON.
fn test_state(app: &App) -> String {
    let Some(w) = app.workspace.plane() else {
        return test_state3(app);
    };
    let doc = &w.session.doc;
    let camera = &w.camera;
    let fold = w.legend_fold.get();
    let bodies: Vec<_> = doc
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
    let overlays: serde_json::Map<String, serde_json::Value> = Algorithm::ALL
        .iter()
        .map(|a| (a.key().to_string(), w.session.overlays().is_on(*a).into()))
        .collect();
    serde_json::json!({
        "title": app.title(),
        "dirty": doc.file.dirty,
        "path": doc.file.path.as_ref().map(|p| p.display().to_string()),
        "canvas": [camera.origin.x, camera.origin.y, camera.size.x, camera.size.y],
        "camera": { "center": [camera.center.x, camera.center.y], "zoom": camera.zoom },
        "split": w.split.on.then(|| {
            let c = &w.split.camera;
            serde_json::json!({
                "canvas": [c.origin.x, c.origin.y, c.size.x, c.size.y],
                "center": [c.center.x, c.center.y],
                "zoom": c.zoom,
            })
        }),
        "bodies": bodies,
        "selected": doc.selected,
        "focus": doc.focus,
        "overlays": overlays,
        "load_error": app.load_error,
        "refused": app.tools.refused.as_ref().map(|(_, why)| why.clone()),
        "status": app.status.as_ref().map(|(text, _)| text.clone()),
        "expect": doc.meta.expect.len(),
        "timeline": super::timeline::TimelineModel::timeline_position(&w.session),
        "dialog": app.dialogs.path.kind.map(|k| format!("{k:?}")),
        "confirm": app.dialogs.confirm.as_ref().map(|p| format!("{p:?}")),
        "share": app.dialogs.share.shown_link,
        "scan": app.scan.test_json(),
        "selected_core": doc.selected.and_then(|i| doc.bodies.get(i)).map(|b| {
            b.shape.core().iter().map(|p| [p.x, p.y]).collect::<Vec<_>>()
        }),
        "can_undo": app.history.can_undo(),
        "keyboard_taken": app.tools.pointer.keyboard_taken,
        "keys": app.probe.key_log,
        "tool": format!("{:?}", app.tools.tool),
        "widgets": app.probe.widgets_json(),
        "labels": super::draw::labels_json(&w.placed_labels.borrow()),
        "timeline_step": w.session.timeline_position().map(|(n, k)| serde_json::json!({
            "algorithm": w.session.timeline().key(),
            "step": k,
            "count": n,
        })),
        "presentation": app.prefs.presentation,
        "lesson": app.dialogs.lesson.test_json(),
        "screen": [mq::screen_width(), mq::screen_height()],
        "legend_fold": {
            "open": fold.open,
            "toggle": fold.toggle.map(|r| [r.min.x, r.min.y, r.max.x, r.max.y]),
        },
    })
    .to_string()
}

/// Opens the window on a file (or the welcome scene) and runs until it closes.
pub fn run_window(scene: Option<PathBuf>) -> u8 {
    // In the browser the page is the display.
    if cfg!(not(target_arch = "wasm32")) && !super::render::have_display() {
        eprintln!("error: the window needs a display (X11 or Wayland); for pictures without one, use `collision-lab render` under xvfb-run");
        return 2;
    }
    let (doc, error) = initial_document(scene);
    let (width, height) = super::prefs::initial_window_size(super::title::screen_size());
    let conf = mq::Conf {
        window_title: super::title::initial_title(),
        window_width: width,
        window_height: height,
        // In the browser, a canvas at the display's full resolution (devicePixelRatio 2 on
        // many laptops) gets egui's panels and the canvas's coordinates out of step (the
        // panels drawn at half size, the bodies at twice): the page's canvas stays in CSS
        // pixels there, which the browser scales up.
        high_dpi: cfg!(not(target_arch = "wasm32")),
        window_resizable: true,
        ..Default::default()
    };
    macroquad::Window::from_config(conf, async move {
        let mut app = App::new(doc, error);
        app.open_start_link();
        egui_macroquad::cfg(|ctx| ctx.set_visuals(egui::Visuals::light()));
        let mut idle = Idle::listening();
        let mut full_frames = FrameCount::from_env();
        let mut last_full = 0.0;
        loop {
            mq::prevent_quit();
            let changed = poll(&mut app);
            let wake = wake(&mut app, &mut idle, changed, last_full);
            let kind = idle.rule.next(wake);
            if kind != FrameKind::Idle || !idle.show_kept() {
                app.tools.pointer.pressed_at = idle.pressed_at();
                app.tools.pointer.wheel = idle.wheel();
                frame(&mut app);
                full_frames.count(mq::get_time());
                last_full = mq::get_time();
                match kind {
                    FrameKind::FullThenKeep => idle.keep_frame(),
                    _ => idle.drop_kept(),
                }
            } else {
                app.platform.rest(idle.rest_time());
            }
            if app.quit {
                full_frames.report();
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
fn initial_document(scene: Option<PathBuf>) -> (LoadedDocument, Option<String>) {
    let welcome = || {
        let mut doc =
            LoadedDocument::parse(examples::welcome(), "welcome.ron").expect("welcome parses");
        doc.file_mut().example = Some("welcome".into());
        doc
    };
    match scene {
        None => (welcome(), None),
        Some(path) => match LoadedDocument::load(&path) {
            Ok(doc) => (doc, None),
            Err(e) => (welcome(), Some(e.to_string())),
        },
    }
}

/// For the window tests, in the 3D workspace: what it shows (the same keys as in 2D where
/// they mean the same, plus the camera's eye and target and the overlays' numbers).
fn test_state3(app: &App) -> String {
    let Some(w) = app.workspace.space() else {
        return "{}".into();
    };
    let mut state = w.test_state();
    if let Some(map) = state.as_object_mut() {
        map.insert("title".into(), app.title().into());
        map.insert("load_error".into(), serde_json::json!(app.load_error));
        map.insert(
            "status".into(),
            serde_json::json!(app.status.as_ref().map(|(text, _)| text.clone())),
        );
        map.insert("can_undo".into(), app.history.can_undo().into());
        map.insert("keys".into(), serde_json::json!(app.probe.key_log));
        map.insert("widgets".into(), app.probe.widgets_json().into());
        map.insert("presentation".into(), app.prefs.presentation.into());
        map.insert(
            "screen".into(),
            serde_json::json!([mq::screen_width(), mq::screen_height()]),
        );
        map.insert(
            "share".into(),
            serde_json::json!(app.dialogs.share.shown_link),
        );
        map.insert("scan".into(), app.scan.test_json());
        map.insert("lesson".into(), app.dialogs.lesson.test_json());
        map.insert(
            "confirm".into(),
            serde_json::json!(app.dialogs.confirm.as_ref().map(|p| format!("{p:?}"))),
        );
    }
    state.to_string()
}

/// With `COLLISION_LAB_FRAME_COUNT` set, the full frames drawn and the seconds they span,
/// printed when the window quits: how the frame rate while orbiting and the idle rate are
/// measured (see docs/performance.md, "The 3D window's frame").
struct FrameCount {
    on: bool,
    frames: u64,
    first: Option<f64>,
    last: f64,
}

impl FrameCount {
    fn from_env() -> FrameCount {
        FrameCount {
            on: std::env::var_os("COLLISION_LAB_FRAME_COUNT").is_some(),
            frames: 0,
            first: None,
            last: 0.0,
        }
    }

    fn count(&mut self, now: f64) {
        self.frames += 1;
        self.first.get_or_insert(now);
        self.last = now;
    }

    fn report(&self) {
        if self.on {
            let span = self.last - self.first.unwrap_or(self.last);
            eprintln!("{} full frames in {span:.2} s", self.frames);
        }
    }
}
