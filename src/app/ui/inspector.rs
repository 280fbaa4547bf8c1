//! The inspector: the selected body's name, colour, shape parameters, vertices, position,
//! angle and velocity, all editable as numbers. Edits the core refuses are shown, not kept.
//!
//! A typed number applies on Enter or when the field loses focus, never on each keystroke:
//! typing "-0.15" must not try "-0" on the way (which may be refused, or jump the bodies).
//! Dragging a number still applies as it moves.

use crate::app::editor::Editor;
use crate::geom::ShapeKind;
use crate::scene::SceneBody;
use egui_macroquad::egui;
use glam::Vec2;

pub fn show(ui: &mut egui::Ui, app: &mut Editor) {
    ui.strong("Inspector");
    let Some(i) = app.doc().selected.filter(|&i| i < app.doc().bodies.len()) else {
        ui.label("Click a body to inspect and edit it.");
        return;
    };
    let body = app.doc().bodies[i].clone();
    name_row(ui, app, i, &body);
    let mut edited = body.clone();
    let mut kind = body.shape.kind().clone();
    egui::Grid::new("inspector").num_columns(2).show(ui, |ui| {
        ui.label("colour");
        let mut rgb = body.color.unwrap_or([150, 150, 150]);
        if ui.color_edit_button_srgb(&mut rgb).changed() {
            edited.color = Some(rgb);
        }
        ui.end_row();
        ui.label("position");
        let rects = vec_row(ui, &mut edited.pose.position, 0.01);
        note(app, ui, "inspector:position", rects);
        ui.end_row();
        ui.label("angle (deg)");
        let mut deg = body.pose.angle.to_degrees();
        if ui.add(number(&mut deg).speed(0.5).suffix("°")).changed() {
            edited.pose.angle = deg.to_radians();
        }
        ui.end_row();
        ui.label("velocity");
        velocity_row(ui, &mut edited);
        ui.end_row();
        shape_rows(ui, &mut kind);
    });
    if edited != body {
        app.checkpoint();
        let doc = app.doc_mut();
        doc.bodies[i] = edited;
        doc.touch();
    }
    if &kind != body.shape.kind() {
        app.checkpoint();
        if let Err(e) = app.doc_mut().set_shape(i, kind) {
            app.say(format!("Refused: {e}"));
        }
    }
    vertex_list(ui, app, i);
}

fn name_row(ui: &mut egui::Ui, app: &mut Editor, i: usize, body: &SceneBody) {
    let mut text = match &app.tools.rename_text {
        Some((j, t)) if *j == i => t.clone(),
        _ => body.name.clone(),
    };
    ui.horizontal(|ui| {
        ui.label("name");
        let r = ui.text_edit_singleline(&mut text);
        if r.lost_focus() && text != body.name {
            app.checkpoint();
            if let Err(e) = app.doc_mut().rename(i, &text) {
                app.say(format!("Refused: {e}"));
            }
            app.tools.rename_text = None;
        } else if r.changed() {
            app.tools.rename_text = Some((i, text.clone()));
        }
    });
}

/// A number field that applies typed text on Enter or focus loss (Escape cancels).
pub fn number<Num: egui::emath::Numeric>(value: &mut Num) -> egui::DragValue<'_> {
    egui::DragValue::new(value).update_while_editing(false)
}

/// Two number fields, x and y; returns their rectangles (for the window tests).
fn vec_row(ui: &mut egui::Ui, v: &mut Vec2, speed: f64) -> [egui::Rect; 2] {
    ui.horizontal(|ui| {
        let x = ui.add(number(&mut v.x).speed(speed).prefix("x "));
        let y = ui.add(number(&mut v.y).speed(speed).prefix("y "));
        [x.rect, y.rect]
    })
    .inner
}

/// Notes the x and y fields of a row as `NAME:x` and `NAME:y` for the window tests.
fn note(app: &mut Editor, ui: &egui::Ui, name: &str, rects: [egui::Rect; 2]) {
    let ppp = ui.ctx().pixels_per_point();
    app.probe.note_widget(format!("{name}:x"), rects[0], ppp);
    app.probe.note_widget(format!("{name}:y"), rects[1], ppp);
}

fn velocity_row(ui: &mut egui::Ui, body: &mut SceneBody) {
    ui.horizontal(|ui| {
        let mut has = body.velocity.is_some();
        if ui
            .checkbox(&mut has, "")
            .on_hover_text("Give the body a velocity for the swept test")
            .changed()
        {
            body.velocity = has.then_some(Vec2::new(1.0, 0.0));
        }
        if let Some(v) = &mut body.velocity {
            vec_row(ui, v, 0.01);
        }
    });
}

pub fn positive(v: &mut f32) -> egui::DragValue<'_> {
    number(v).speed(0.01).range(0.0..=1.0e6)
}

fn shape_rows(ui: &mut egui::Ui, kind: &mut ShapeKind) {
    match kind {
        ShapeKind::Box { half_extents } => {
            ui.label("half extents");
            ui.horizontal(|ui| {
                ui.add(positive(&mut half_extents.x).prefix("x "));
                ui.add(positive(&mut half_extents.y).prefix("y "));
            });
            ui.end_row();
        }
        ShapeKind::Regular { sides, radius } => {
            ui.label("sides");
            ui.add(number(sides).range(3..=64));
            ui.end_row();
            ui.label("radius");
            ui.add(positive(radius));
            ui.end_row();
        }
        ShapeKind::Circle { radius } => {
            ui.label("radius");
            ui.add(positive(radius));
            ui.end_row();
        }
        ShapeKind::Capsule {
            half_length,
            radius,
        } => {
            ui.label("half length");
            ui.add(positive(half_length));
            ui.end_row();
            ui.label("radius");
            ui.add(positive(radius));
            ui.end_row();
        }
        ShapeKind::Polygon { .. } => {
            ui.label("shape");
            ui.label("polygon (vertices below)");
            ui.end_row();
        }
    }
}

/// The polygon's vertices in the body's frame, counter-clockwise as the core stores them.
fn vertex_list(ui: &mut egui::Ui, app: &mut Editor, i: usize) {
    let body = &app.doc().bodies[i];
    if body.shape.is_round() || body.shape.core().len() < 3 {
        return;
    }
    let mut points = body.shape.core().to_vec();
    let before = points.clone();
    let header = egui::CollapsingHeader::new(format!("Vertices ({}, local frame)", points.len()))
        .default_open(false)
        .show(ui, |ui| {
            for (k, p) in points.iter_mut().enumerate() {
                ui.horizontal(|ui| {
                    ui.label(format!("{k:>2}"));
                    let rects = vec_row(ui, p, 0.01);
                    note(app, ui, &format!("inspector:vertex:{k}"), rects);
                });
            }
        });
    let ppp = ui.ctx().pixels_per_point();
    app.probe
        .note_widget("inspector:vertices", header.header_response.rect, ppp);
    if points != before {
        app.checkpoint();
        if let Err(e) = app.doc_mut().set_shape(i, ShapeKind::Polygon { points }) {
            app.say(format!("Refused: {e}"));
        }
    }
}
