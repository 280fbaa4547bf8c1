//! The scene panel: notes, the palette of new bodies, the body list and the focused pair.

use crate::app::editor::Editor;
use crate::app::tools::Tool;
use crate::geom::{Shape, ShapeKind};
use egui_macroquad::egui;
use glam::Vec2;

pub fn show(ui: &mut egui::Ui, app: &mut Editor) {
    // A lesson's title and notes are in its own Notes panel, above.
    if app.doc().meta.lesson.is_none() {
        title_and_notes(ui, &app.doc().meta.title, &app.doc().meta.notes);
        ui.separator();
    }
    palette(ui, app);
    ui.separator();
    focus(ui, app);
    ui.separator();
    bodies(ui, app);
}

/// The scene's title and notes (2D and 3D).
pub fn title_and_notes(ui: &mut egui::Ui, title: &Option<String>, notes: &Option<String>) {
    if let Some(title) = title {
        ui.heading(title.as_str());
    }
    if let Some(notes) = notes {
        // Notes may be wrapped and indented in the file: show them as one paragraph.
        let notes = notes.split_whitespace().collect::<Vec<_>>().join(" ");
        egui::CollapsingHeader::new("Notes")
            .default_open(true)
            .show(ui, |ui| ui.label(notes));
    }
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
    let names: Vec<String> = app.doc().bodies.iter().map(|b| b.name.clone()).collect();
    if let Some((a, b)) = pick_pair(ui, &names, app.doc().focus) {
        app.checkpoint();
        app.doc_mut().set_focus(a, b);
    }
}

/// The focused pair's two menus and the swap button (2D and 3D); the new pair when the
/// user changed it.
pub fn pick_pair(
    ui: &mut egui::Ui,
    names: &[String],
    focus: Option<(usize, usize)>,
) -> Option<(usize, usize)> {
    ui.strong("Focused pair");
    ui.label("The two bodies the overlays explain (Ctrl+click a body: B, Alt+click: A).");
    if names.len() < 2 {
        ui.label("Add at least two bodies.");
        return None;
    }
    let (mut a, mut b) = focus.unwrap_or((0, 1));
    egui::Grid::new("focus").num_columns(2).show(ui, |ui| {
        for (label, chosen, id) in [("A", &mut a, "focus_a"), ("B", &mut b, "focus_b")] {
            ui.label(label);
            egui::ComboBox::from_id_salt(id)
                .selected_text(names.get(*chosen).map_or("", String::as_str))
                .show_ui(ui, |ui| {
                    for (i, n) in names.iter().enumerate() {
                        ui.selectable_value(chosen, i, n.as_str());
                    }
                });
            ui.end_row();
        }
    });
    if ui.button("Swap A and B").clicked() {
        std::mem::swap(&mut a, &mut b);
    }
    (Some((a, b)) != focus && a != b).then_some((a, b))
}

fn bodies(ui: &mut egui::Ui, app: &mut Editor) {
    let rows: Vec<(&str, &str)> = app
        .doc()
        .bodies
        .iter()
        .map(|b| (b.name.as_str(), b.shape.kind_name()))
        .collect();
    if let Some(i) = body_list(ui, &rows, app.doc().focus, app.doc().selected) {
        app.doc_mut().selected = Some(i);
    }
}

/// The bodies, each with its role in the focused pair and its kind (2D and 3D); the body
/// clicked, if any.
pub fn body_list(
    ui: &mut egui::Ui,
    rows: &[(&str, &str)],
    focus: Option<(usize, usize)>,
    selected: Option<usize>,
) -> Option<usize> {
    ui.strong("Bodies");
    let mut clicked = None;
    for (i, (name, kind)) in rows.iter().enumerate() {
        let role = match focus {
            Some((a, _)) if a == i => "A  ",
            Some((_, b)) if b == i => "B  ",
            _ => "   ",
        };
        let text = format!("{role}{name}  ({kind})");
        if ui
            .selectable_label(selected == Some(i), egui::RichText::new(text).monospace())
            .clicked()
        {
            clicked = Some(i);
        }
    }
    clicked
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
