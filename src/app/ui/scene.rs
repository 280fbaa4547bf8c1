//! The scene panel: notes, the palette of new bodies, the body list and the focused pair.

use crate::app::editor::Editor;
use crate::app::tools::Tool;
use crate::geom::{Shape, ShapeKind};
use egui_macroquad::egui;
use glam::Vec2;

pub fn show(ui: &mut egui::Ui, app: &mut Editor) {
    if let Some(title) = app.doc().meta.title.clone() {
        ui.heading(title);
    }
    if let Some(notes) = app.doc().meta.notes.as_ref() {
        // Notes may be wrapped and indented in the file: show them as one paragraph.
        let notes = notes.split_whitespace().collect::<Vec<_>>().join(" ");
        egui::CollapsingHeader::new("Notes")
            .default_open(true)
            .show(ui, |ui| ui.label(notes));
    }
    ui.separator();
    palette(ui, app);
    ui.separator();
    focus(ui, app);
    ui.separator();
    bodies(ui, app);
}

/// The palette's shapes, each with its own label when the kind's name would not say it
/// ("Pentagon" rather than "Regular"). A new body is named after the label, in lower case.
fn palette_entries() -> [(Option<&'static str>, ShapeKind); 5] {
    [
        (
            None,
            ShapeKind::Box {
                half_extents: Vec2::new(1.0, 0.6),
            },
        ),
        (
            Some("Pentagon"),
            ShapeKind::Regular {
                sides: 5,
                radius: 1.0,
            },
        ),
        (
            Some("Hexagon"),
            ShapeKind::Regular {
                sides: 6,
                radius: 1.0,
            },
        ),
        (None, ShapeKind::Circle { radius: 0.8 }),
        (
            None,
            ShapeKind::Capsule {
                half_length: 1.0,
                radius: 0.4,
            },
        ),
    ]
}

fn palette(ui: &mut egui::Ui, app: &mut Editor) {
    ui.strong("Add a body");
    ui.horizontal_wrapped(|ui| {
        for (label, kind) in palette_entries() {
            let label = label.unwrap_or(kind.name().file);
            if ui.button(label).clicked() {
                let shape = Shape::new(kind).expect("palette shapes are valid");
                let center = app.view_center;
                app.add_new_body(&label.to_lowercase(), shape, center);
            }
        }
        let free = ui
            .button("Free polygon…")
            .on_hover_text("Click points on the canvas; Enter closes");
        if free.clicked() {
            app.tools.tool = Tool::FreePolygon(Vec::new());
        }
        app.probe.note_widget(
            "palette:free_polygon",
            free.rect,
            ui.ctx().pixels_per_point(),
        );
    });
}

fn focus(ui: &mut egui::Ui, app: &mut Editor) {
    ui.strong("Focused pair");
    ui.label("The two bodies the overlays explain (Ctrl+click a body: B, Alt+click: A).");
    let names: Vec<String> = app.doc().bodies.iter().map(|b| b.name.clone()).collect();
    if names.len() < 2 {
        ui.label("Add at least two bodies.");
        return;
    }
    let (mut a, mut b) = app.doc().focus.unwrap_or((0, 1));
    egui::Grid::new("focus").num_columns(2).show(ui, |ui| {
        ui.label("A");
        egui::ComboBox::from_id_salt("focus_a")
            .selected_text(names[a].as_str())
            .show_ui(ui, |ui| {
                for (i, n) in names.iter().enumerate() {
                    ui.selectable_value(&mut a, i, n.as_str());
                }
            });
        ui.end_row();
        ui.label("B");
        egui::ComboBox::from_id_salt("focus_b")
            .selected_text(names[b].as_str())
            .show_ui(ui, |ui| {
                for (i, n) in names.iter().enumerate() {
                    ui.selectable_value(&mut b, i, n.as_str());
                }
            });
        ui.end_row();
    });
    if ui.button("Swap A and B").clicked() {
        std::mem::swap(&mut a, &mut b);
    }
    if Some((a, b)) != app.doc().focus && a != b {
        app.checkpoint();
        app.doc_mut().set_focus(a, b);
    }
}

fn bodies(ui: &mut egui::Ui, app: &mut Editor) {
    ui.strong("Bodies");
    let focus = app.doc().focus;
    let mut clicked = None;
    for (i, body) in app.doc().bodies.iter().enumerate() {
        let role = match focus {
            Some((a, _)) if a == i => "A  ",
            Some((_, b)) if b == i => "B  ",
            _ => "   ",
        };
        let text = format!("{role}{}  ({})", body.name, body.shape.kind_name());
        let selected = app.doc().selected == Some(i);
        if ui
            .selectable_label(selected, egui::RichText::new(text).monospace())
            .clicked()
        {
            clicked = Some(i);
        }
    }
    if let Some(i) = clicked {
        app.doc_mut().selected = Some(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_palette_shape_is_valid() {
        for (label, kind) in palette_entries() {
            assert!(Shape::new(kind).is_ok(), "{label:?}");
        }
    }

    #[test]
    fn palette_labels_come_from_the_kind_names() {
        let labels: Vec<&str> = palette_entries()
            .iter()
            .map(|(label, kind)| label.unwrap_or(kind.name().file))
            .collect();
        assert_eq!(labels, ["Box", "Pentagon", "Hexagon", "Circle", "Capsule"]);
    }
}
