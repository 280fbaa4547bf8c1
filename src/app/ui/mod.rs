//! The egui panels: menu bar, scene panel (palette, bodies, focus, inspector), algorithms,
//! results, timeline, plots, and the file dialogs.

pub mod algorithms;
pub mod dialogs;
pub mod inspector;
pub mod lesson;
pub mod menu;
pub mod plots;
pub mod results;
pub mod results3;
pub mod scan;
pub mod scene;
pub mod scene3;
pub mod timeline;

use super::action::Action;
use super::editor::Status;
use super::parts::Parts;
use egui_macroquad::egui;

/// Builds every panel for this frame. The canvas is what remains in the middle. Returns
/// what the menu and the dialogs asked for, for the window to apply.
pub fn show(ctx: &egui::Context, parts: &mut Parts) -> Vec<Action> {
    let mut actions = menu::show(
        ctx,
        &mut menu::MenuModel {
            title: &parts.title,
            doc: parts.workspace.outline(),
            platform: parts.platform,
            can_undo: parts.history.can_undo(),
            can_redo: parts.history.can_redo(),
            snap: &mut parts.tools.snap,
            snap_bodies: &mut parts.tools.snap_bodies,
            prefs: parts.prefs,
            help: &mut parts.dialogs.help,
            scan_open: &mut parts.scan.open,
            probe: parts.probe,
        },
    );
    status_bar(
        ctx,
        parts.load_error,
        parts.status,
        &parts.workspace.view_label(),
        parts.tools.snap,
    );
    timeline::show(ctx, parts.workspace.timeline_model(), parts.probe);
    let answers = parts.workspace.lesson_answers();
    let lesson = parts.workspace.outline().lesson;
    if parts.dialogs.lesson.follow(lesson, answers.as_ref()) {
        // Also in the status bar, which presentation mode (F5) keeps.
        let number = lesson.map_or(0, |l| l.number);
        let text = format!("Lesson {number}: found it! (the Notes panel says more)");
        *parts.status = Some((text, macroquad::prelude::get_time()));
    }
    if !parts.prefs.presentation {
        actions.extend(side_panels(ctx, parts));
    }
    plots::show(ctx, &*parts.workspace, &mut parts.prefs.show_plots);
    let outline = parts.workspace.outline();
    actions.extend(scan::show(ctx, parts.scan, &outline, parts.probe));
    actions.extend(dialogs::show(
        ctx,
        parts.dialogs,
        parts.probe,
        parts.workspace.file(),
    ));
    actions
}

/// The Scene panel on the left (a lesson's notes first), Algorithms and Results on the
/// right: each between a readable minimum and a quarter of the window, so the canvas keeps
/// at least half. Returns what the lesson's Previous and Next asked for.
fn side_panels(ctx: &egui::Context, parts: &mut Parts) -> Option<Action> {
    let (min, max) = crate::app::prefs::panel_widths(ctx.screen_rect().width());
    let mut action = None;
    egui::SidePanel::left("scene")
        .resizable(true)
        .default_width(270.0f32.min(max))
        .width_range(min..=max)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                let outline = parts.workspace.outline();
                if let Some(lesson) = outline.lesson {
                    let view = lesson::LessonView {
                        lesson,
                        title: outline.title,
                        notes: outline.notes,
                    };
                    action = lesson::show(ui, &view, &mut parts.dialogs.lesson, parts.probe);
                    ui.separator();
                }
                if let Some(mut editor) = parts.editor() {
                    scene::show(ui, &mut editor);
                    ui.separator();
                    inspector::show(ui, &mut editor);
                } else if let Some(mut editor) = parts.editor3() {
                    scene3::show(ui, &mut editor);
                }
            });
        });
    egui::SidePanel::right("algorithms")
        .resizable(true)
        .default_width(330.0f32.min(max))
        .width_range(min..=max)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                algorithms::show(ui, parts.workspace, parts.probe);
                ui.separator();
                if let Some(plane) = parts.workspace.plane_mut() {
                    results::show(ui, &mut plane.session);
                } else if let Some(space) = parts.workspace.space() {
                    results3::show(ui, space.session());
                }
            });
        });
    action
}

/// How long a status message stays in the status bar.
pub const STATUS_SECONDS: f64 = 6.0;

/// The status message (or the load error, with a button to dismiss it), the view and
/// whether snapping is on.
fn status_bar(
    ctx: &egui::Context,
    load_error: &mut Option<String>,
    status: &Status,
    view: &str,
    snap: bool,
) {
    egui::TopBottomPanel::bottom("status").show(ctx, |ui| {
        ui.horizontal(|ui| {
            if let Some(err) = load_error.clone() {
                ui.colored_label(
                    egui::Color32::from_rgb(185, 28, 28),
                    format!("\u{26a0} {err}"),
                );
                if ui.small_button("dismiss").clicked() {
                    *load_error = None;
                }
            } else if let Some((text, at)) = status {
                if macroquad::prelude::get_time() - at < STATUS_SECONDS {
                    ui.label(text.as_str());
                }
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                ui.label(view);
                if snap {
                    ui.label("snap");
                }
            });
        });
    });
}

/// An egui colour from a macroquad one.
pub fn color32(c: macroquad::prelude::Color) -> egui::Color32 {
    egui::Color32::from_rgb(
        (c.r * 255.0) as u8,
        (c.g * 255.0) as u8,
        (c.b * 255.0) as u8,
    )
}
