//! The Algorithms panel: each overlay on or off, its colours, and the core's tolerances and
//! iteration caps. It edits a workspace's [`AlgorithmsModel`].

use super::color32;
use crate::app::panels::AlgorithmsModel;
use crate::app::probe::TestProbe;
use egui_macroquad::egui;

pub fn show(ui: &mut egui::Ui, model: &mut dyn AlgorithmsModel, probe: &mut TestProbe) {
    ui.heading("Algorithms");
    let mut rects = Vec::new();
    for row in model.algorithm_rows() {
        let a = row.algorithm;
        let id = ui.make_persistent_id(("lab", a.index()));
        let mut on = row.on;
        egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), id, false)
            .show_header(ui, |ui| {
                let r = ui.checkbox(&mut on, row.name);
                rects.push((format!("overlay:{}", a.key()), r.rect));
            })
            .body(|ui| {
                for entry in &row.legend {
                    ui.horizontal(|ui| {
                        let (rect, _) =
                            ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
                        ui.painter().rect_filled(rect, 2.0, color32(entry.color));
                        ui.label(entry.text.as_str());
                    });
                }
                model.settings_ui(ui, a);
            });
        if on != row.on {
            model.enable(a, on);
        }
    }
    let ppp = ui.ctx().pixels_per_point();
    for (name, rect) in rects {
        probe.note_widget(name, rect, ppp);
    }
}
