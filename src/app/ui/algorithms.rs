//! The Algorithms panel: each overlay on or off, its colours, and the core's tolerances and
//! iteration caps.

use super::color32;
use crate::app::canvas::overlay_index;
use crate::app::labs::overlay_key;
use crate::app::window::App;
use egui_macroquad::egui;

pub fn show(ui: &mut egui::Ui, app: &mut App) {
    ui.heading("Algorithms");
    let session = &mut app.session;
    let mut settings = session.settings;
    let mut rects = Vec::new();
    for lab in &session.labs {
        let i = overlay_index(lab.overlay());
        let id = ui.make_persistent_id(("lab", i));
        egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), id, false)
            .show_header(ui, |ui| {
                let r = ui.checkbox(&mut session.overlays.enabled[i], lab.name());
                rects.push((format!("overlay:{}", overlay_key(lab.overlay())), r.rect));
            })
            .body(|ui| {
                for entry in lab.legend() {
                    ui.horizontal(|ui| {
                        let (rect, _) =
                            ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
                        ui.painter().rect_filled(rect, 2.0, color32(entry.color));
                        ui.label(entry.text);
                    });
                }
                lab.settings_ui(ui, &mut settings);
            });
    }
    if settings != session.settings {
        session.settings = settings;
    }
    let ppp = ui.ctx().pixels_per_point();
    for (name, rect) in rects {
        app.note_widget(name, rect, ppp);
    }
}
