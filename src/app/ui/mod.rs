//! The egui panels: menu bar, scene panel (palette, bodies, focus, inspector), algorithms,
//! results, timeline, plots, and the file dialogs.

pub mod algorithms;
pub mod dialogs;
pub mod inspector;
pub mod menu;
pub mod plots;
pub mod results;
pub mod scene;
pub mod timeline;

use super::shell::App;
use super::workspace::Workspace;
use egui_macroquad::egui;

/// Builds every panel for this frame. The canvas is what remains in the middle.
pub fn show(ctx: &egui::Context, app: &mut App) {
    menu::show(ctx, app);
    status_bar(ctx, app);
    timeline::show(ctx, app.workspace.timeline_model());
    egui::SidePanel::left("scene")
        .resizable(true)
        .default_width(270.0)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                scene::show(ui, &mut app.editor());
                ui.separator();
                inspector::show(ui, &mut app.editor());
            });
        });
    egui::SidePanel::right("algorithms")
        .resizable(true)
        .default_width(330.0)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                algorithms::show(ui, &mut app.workspace, &mut app.probe);
                ui.separator();
                results::show(ui, &mut app.workspace.session);
            });
        });
    plots::show(ctx, &app.workspace, &mut app.prefs.show_plots);
    dialogs::show(ctx, app);
}

fn status_bar(ctx: &egui::Context, app: &mut App) {
    egui::TopBottomPanel::bottom("status").show(ctx, |ui| {
        ui.horizontal(|ui| {
            if let Some(err) = app.load_error.clone() {
                ui.colored_label(
                    egui::Color32::from_rgb(185, 28, 28),
                    format!("\u{26a0} {err}"),
                );
                if ui.small_button("dismiss").clicked() {
                    app.load_error = None;
                }
            } else if let Some((text, at)) = &app.status {
                if macroquad::prelude::get_time() - at < 6.0 {
                    ui.label(text.as_str());
                }
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let cam = app.workspace.camera;
                ui.label(format!("zoom {:.0} px/unit", cam.zoom));
                if app.tools.snap {
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
