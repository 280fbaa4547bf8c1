//! The 3D Scene panel: title and notes, the palette of new bodies, the focused pair, the
//! body list and the inspector (name, colour, position, rotation in degrees about the world
//! x, y and z axes as files write them, velocity, the shape's numbers). Typed numbers apply
//! on Enter; every change is one undo step; changes the core refuses are said, not kept.

use super::inspector::{number, positive};
use super::scene::{body_list, pick_pair, title_and_notes};
use crate::app::editor::Editor3;
use crate::geom3::{Pose3, Shape3, Shape3Kind};
use egui_macroquad::egui;
use glam::Vec3;

pub fn show(ui: &mut egui::Ui, app: &mut Editor3) {
    // A lesson's title and notes are in its own Notes panel, above.
    if app.doc.meta.lesson.is_none() {
        title_and_notes(ui, &app.doc.meta.title, &app.doc.meta.notes);
        ui.separator();
    }
    palette(ui, app);
    ui.separator();
    let names: Vec<String> = app.doc.bodies.iter().map(|b| b.name.clone()).collect();
    if let Some((a, b)) = pick_pair(ui, &names, app.doc.focus) {
        app.checkpoint();
        app.doc.set_focus(a, b);
    }
    ui.separator();
    let rows: Vec<(&str, &str)> = (app.doc.bodies.iter())
        .map(|b| (b.name.as_str(), b.kind_name()))
        .collect();
    if let Some(i) = body_list(ui, &rows, app.doc.focus, app.doc.selected) {
        app.doc.selected = Some(i);
    }
    ui.separator();
    inspector(ui, app);
}

/// The palette: a cuboid, a prism, a sphere, a capsule and four hulls.
pub fn palette_entries() -> Vec<(&'static str, Shape3Kind)> {
    let hull = |points: &[[f32; 3]]| Shape3Kind::Hull {
        points: points.iter().map(|p| Vec3::from_array(*p)).collect(),
    };
    vec![
        (
            "Cuboid",
            Shape3Kind::Cuboid {
                half_extents: Vec3::new(0.6, 0.4, 0.5),
            },
        ),
        (
            "Prism",
            Shape3Kind::Prism {
                sides: 6,
                radius: 0.6,
                half_height: 0.5,
            },
        ),
        ("Sphere", Shape3Kind::Sphere { radius: 0.5 }),
        (
            "Capsule",
            Shape3Kind::Capsule {
                half_length: 0.5,
                radius: 0.3,
            },
        ),
        (
            "Tetrahedron",
            hull(&[
                [0.6, -0.4, 0.0],
                [-0.3, -0.4, 0.52],
                [-0.3, -0.4, -0.52],
                [0.0, 0.6, 0.0],
            ]),
        ),
        (
            "Octahedron",
            hull(&[
                [0.6, 0., 0.],
                [-0.6, 0., 0.],
                [0., 0.6, 0.],
                [0., -0.6, 0.],
                [0., 0., 0.6],
                [0., 0., -0.6],
            ]),
        ),
        (
            "Gem",
            hull(&[
                [0.6, 0.1, 0.],
                [0.3, 0.1, 0.52],
                [-0.3, 0.1, 0.52],
                [-0.6, 0.1, 0.],
                [-0.3, 0.1, -0.52],
                [0.3, 0.1, -0.52],
                [0., 0.4, 0.],
                [0., -0.6, 0.],
            ]),
        ),
        ("Random hull", hull(&random_hull_points())),
    ]
}

/// Twelve points in a ball of radius 0.6, the same each time (a fixed sequence), so the
/// palette's random hull is a real 12-point hull and its tests can hold it.
fn random_hull_points() -> Vec<[f32; 3]> {
    let mut seed = 0x2545_f491_u32;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed as f32 / u32::MAX as f32) * 2.0 - 1.0
    };
    (0..12)
        .map(|_| {
            let v = Vec3::new(next(), next(), next()).normalize_or(Vec3::Y) * 0.6;
            v.to_array()
        })
        .collect()
}

fn palette(ui: &mut egui::Ui, app: &mut Editor3) {
    ui.strong("Add a body");
    ui.horizontal_wrapped(|ui| {
        for (label, kind) in palette_entries() {
            if ui.button(label).clicked() {
                match Shape3::new(&kind) {
                    Ok(shape) => {
                        let center = app.view_center;
                        app.add_new_body(&label.to_lowercase().replace(' ', "_"), shape, center);
                    }
                    Err(e) => app.say(format!("Refused: {e}")),
                }
            }
        }
    });
}

fn vec3_row(ui: &mut egui::Ui, v: &mut Vec3, speed: f64, suffix: &str) {
    ui.horizontal(|ui| {
        for (label, x) in [("x ", &mut v.x), ("y ", &mut v.y), ("z ", &mut v.z)] {
            ui.add(number(x).speed(speed).prefix(label).suffix(suffix));
        }
    });
}

fn inspector(ui: &mut egui::Ui, app: &mut Editor3) {
    ui.strong("Inspector");
    let Some(i) = app.doc.selected.filter(|&i| i < app.doc.bodies.len()) else {
        ui.label("Click a body to inspect and edit it.");
        return;
    };
    let body = app.doc.bodies[i].clone();
    let mut name = body.name.clone();
    let mut position = body.pose.position;
    let degrees = body.pose.rotation_degrees();
    let mut rotation = degrees;
    let mut velocity = body.velocity;
    let mut kind = body.shape.kind().clone();
    let mut rgb = body.color.unwrap_or([150, 150, 150]);
    egui::Grid::new("inspector3").num_columns(2).show(ui, |ui| {
        ui.label("name");
        ui.text_edit_singleline(&mut name);
        ui.end_row();
        ui.label("colour");
        ui.color_edit_button_srgb(&mut rgb);
        ui.end_row();
        ui.label("position");
        vec3_row(ui, &mut position, 0.01, "");
        ui.end_row();
        ui.label("rotation");
        vec3_row(ui, &mut rotation, 0.5, "°");
        ui.end_row();
        ui.label("velocity");
        ui.horizontal(|ui| {
            let mut has = velocity.is_some();
            if ui
                .checkbox(&mut has, "")
                .on_hover_text("Give the body a velocity for the swept test")
                .changed()
            {
                velocity = has.then_some(Vec3::new(1.0, 0.0, 0.0));
            }
            if let Some(v) = &mut velocity {
                vec3_row(ui, v, 0.01, "");
            }
        });
        ui.end_row();
        shape_rows(ui, &mut kind);
    });
    apply(
        app,
        i,
        Edits {
            name,
            position,
            rotation,
            degrees,
            velocity,
            kind,
            rgb,
        },
    );
}

/// What the inspector's fields hold after this frame.
struct Edits {
    name: String,
    position: Vec3,
    rotation: Vec3,
    /// The rotation as shown before the edit (a rotation is only rebuilt when it changed).
    degrees: Vec3,
    velocity: Option<Vec3>,
    kind: Shape3Kind,
    rgb: [u8; 3],
}

/// Applies what changed, each change after a checkpoint.
fn apply(app: &mut Editor3, i: usize, e: Edits) {
    let body = app.doc.bodies[i].clone();
    if e.name != body.name {
        app.checkpoint();
        if let Err(why) = app.doc.rename(i, &e.name) {
            app.say(format!("Refused: {why}"));
        }
    }
    if e.position != body.pose.position || e.rotation != e.degrees {
        let rotation = if e.rotation != e.degrees {
            Pose3::from_degrees(Vec3::ZERO, e.rotation).rotation
        } else {
            body.pose.rotation
        };
        app.checkpoint();
        app.doc.set_pose(i, Pose3::new(e.position, rotation));
    }
    if e.velocity != body.velocity {
        app.checkpoint();
        app.doc.set_velocity(i, e.velocity);
    }
    if Some(e.rgb) != body.color && (body.color.is_some() || e.rgb != [150, 150, 150]) {
        app.checkpoint();
        app.doc.bodies[i].color = Some(e.rgb);
        app.doc.touch();
    }
    if &e.kind != body.shape.kind() {
        app.checkpoint();
        if let Err(why) = app.doc.set_shape(i, e.kind) {
            app.say(format!("Refused: {why}"));
        }
    }
}

fn shape_rows(ui: &mut egui::Ui, kind: &mut Shape3Kind) {
    let row = |ui: &mut egui::Ui, label: &str, v: &mut f32| {
        ui.label(label);
        ui.add(positive(v));
        ui.end_row();
    };
    match kind {
        Shape3Kind::Cuboid { half_extents } => {
            row(ui, "half extent x", &mut half_extents.x);
            row(ui, "half extent y", &mut half_extents.y);
            row(ui, "half extent z", &mut half_extents.z);
        }
        Shape3Kind::Prism {
            sides,
            radius,
            half_height,
        } => {
            ui.label("sides");
            ui.add(number(sides).range(3..=64));
            ui.end_row();
            row(ui, "radius", radius);
            row(ui, "half height", half_height);
        }
        Shape3Kind::Sphere { radius } => row(ui, "radius", radius),
        Shape3Kind::Capsule {
            half_length,
            radius,
        } => {
            row(ui, "half length", half_length);
            row(ui, "radius", radius);
        }
        Shape3Kind::Hull { points } => {
            ui.label("shape");
            ui.label(format!(
                "hull of {} points (edit in the file)",
                points.len()
            ));
            ui.end_row();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_palette_shape_is_a_valid_body_and_the_random_hull_has_twelve_corners() {
        for (label, kind) in palette_entries() {
            let shape = Shape3::new(&kind);
            assert!(shape.is_ok(), "{label}: {shape:?}");
        }
        let (_, random) = palette_entries().pop().unwrap();
        let hull = Shape3::new(&random).unwrap();
        let corners = hull.as_polyhedron().unwrap().vertices().len();
        assert!(
            corners >= 10,
            "a 12-point hull keeps most of its points: {corners}"
        );
    }
}
