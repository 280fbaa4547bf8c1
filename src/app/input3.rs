//! Canvas input in the 3D workspace: orbit (right drag), pan (middle drag, or Space + drag),
//! zoom toward the pointer (wheel), select (click), move a body in the plane facing the
//! camera (drag; hold X, Y or Z to move along that world axis), turn it (Shift + drag, a
//! trackball), pick the focused pair (Ctrl + click: B, Alt + click: A), and the view keys
//! (1 to 4 the presets, O the projection). Pointer input over a panel never reaches the
//! world; every edit goes through `App::checkpoint` so that undo restores it.

use super::action::View3Command;
use super::shell::App;
use super::tools::Drag;
use crate::geom3::Pose3;
use glam::{Quat, Vec2, Vec3};
use macroquad::prelude as mq;
use macroquad::prelude::{KeyCode, MouseButton};

/// Pixels within which a velocity tip counts as hit (times the UI scale).
const HIT_RADIUS: f32 = 9.0;
/// Radians a body turns per pixel of a Shift + drag.
const TURN_PER_PIXEL: f32 = 0.01;
/// With grid snapping on (G): positions to this fraction of the grid, rotations to 15
/// degrees.
const ANGLE_SNAP_DEGREES: f32 = 15.0;
const POSITION_SNAP: f32 = 0.1;

fn mouse() -> Vec2 {
    let (x, y) = mq::mouse_position();
    Vec2::new(x, y)
}

fn down(keys: [KeyCode; 2]) -> bool {
    keys.into_iter().any(mq::is_key_down)
}

/// The keys, then the pointer on the 3D canvas; does nothing in another workspace.
pub fn handle(app: &mut App, over_ui: bool) {
    if app.workspace.space().is_none() {
        return;
    }
    if !app.tools.pointer.keyboard_taken {
        view_keys(app);
    }
    let m = mouse();
    end_drag_on_release(app, m);
    let Some(space) = app.workspace.space_mut() else {
        return;
    };
    let c = space.camera;
    let on_canvas = !over_ui && m.cmpge(c.origin).all() && m.cmple(c.origin + c.size).all();
    let scale = app.pixel_scale();
    if !over_ui && difference_half(app, m, scale) {
        return;
    }
    let Some(space) = app.workspace.space_mut() else {
        return;
    };
    if on_canvas {
        if let Some(factor) = super::input::wheel_zoom(app.tools.pointer.wheel) {
            space.camera.zoom_at(m, factor);
        }
    }
    if on_canvas && app.tools.drag.is_none() {
        let at = app.tools.pointer.pressed_at.unwrap_or(m);
        // The folded legend's button takes its click; elsewhere a press edits.
        let on_legend = mq::is_mouse_button_pressed(MouseButton::Left)
            && app
                .workspace
                .space_mut()
                .is_some_and(|w| w.click_legend(at));
        if !on_legend {
            press(app, at);
        }
    }
    let held = [MouseButton::Left, MouseButton::Right, MouseButton::Middle]
        .into_iter()
        .any(mq::is_mouse_button_down);
    match app.tools.drag.clone() {
        Some(drag) if held => drag_to(app, drag, m),
        Some(_) => app.tools.drag = None,
        None => {}
    }
}

/// The pointer over the split view's A - B half: the wheel zooms its camera, the middle
/// button (or Space + drag) pans it, the others orbit it, and the user owns it from then
/// on ("Fit all" hands it back). Returns whether the pointer is there (or a drag of that
/// half goes on), so the bodies' tools leave it alone.
fn difference_half(app: &mut App, m: Vec2, scale: f32) -> bool {
    let drag = app.tools.drag.clone();
    let ours = matches!(
        drag,
        Some(Drag::OrbitDifference { .. } | Drag::PanDifference { .. })
    );
    let Some(space) = app.workspace.space_mut() else {
        return false;
    };
    let shown = space
        .difference_camera(scale)
        .filter(|_| space.difference.split);
    let Some(shown) = shown else {
        return false;
    };
    let over = m.cmpge(shown.origin).all() && m.cmple(shown.origin + shown.size).all();
    if !over && !ours {
        return false;
    }
    let camera = space.difference.take_camera(shown);
    if let Some(factor) = super::input::wheel_zoom(app.tools.pointer.wheel).filter(|_| over) {
        camera.zoom_at(m, factor);
    }
    let held = [MouseButton::Left, MouseButton::Right, MouseButton::Middle]
        .into_iter()
        .any(mq::is_mouse_button_down);
    app.tools.drag = match drag {
        Some(Drag::OrbitDifference { last }) if held => {
            camera.orbit(m - last);
            Some(Drag::OrbitDifference { last: m })
        }
        Some(Drag::PanDifference { last }) if held => {
            camera.pan(m - last);
            Some(Drag::PanDifference { last: m })
        }
        Some(_) if ours => None,
        _ if mq::is_mouse_button_pressed(MouseButton::Middle)
            || (mq::is_key_down(KeyCode::Space)
                && mq::is_mouse_button_pressed(MouseButton::Left)) =>
        {
            Some(Drag::PanDifference { last: m })
        }
        _ if mq::is_mouse_button_pressed(MouseButton::Left)
            || mq::is_mouse_button_pressed(MouseButton::Right) =>
        {
            Some(Drag::OrbitDifference { last: m })
        }
        other => other,
    };
    true
}

/// Ends the drag when its button went up this frame, after the pointer's last stretch (on a
/// slow frame the motion to where the button went up and the release arrive together, and
/// the body must end where it was let go). A release where the pointer already was (a
/// click) applies nothing, so a click never moves a body. Runs before `input::handle`,
/// which would otherwise end the drag first.
fn end_drag_on_release(app: &mut App, m: Vec2) {
    const BUTTONS: [MouseButton; 3] = [MouseButton::Left, MouseButton::Right, MouseButton::Middle];
    let Some(drag) = app.tools.drag.clone() else {
        return;
    };
    if BUTTONS.into_iter().any(mq::is_mouse_button_released) {
        if app.tools.pointer.last_seen != Some(m) {
            drag_to(app, drag, m);
        }
        app.tools.drag = None;
    }
}

/// 1 to 4: the preset views; O: perspective or orthographic. Read from macroquad, not from
/// `app.tools.keys`: the shared keyboard (`input::handle`, which runs first) takes this
/// frame's egui key events, so the list is always empty here.
fn view_keys(app: &mut App) {
    let modified = down([KeyCode::LeftControl, KeyCode::RightControl])
        || down([KeyCode::LeftAlt, KeyCode::RightAlt])
        || down([KeyCode::LeftSuper, KeyCode::RightSuper]);
    if modified {
        return;
    }
    const KEYS: [(KeyCode, View3Command); 5] = [
        (KeyCode::Key1, View3Command::Front),
        (KeyCode::Key2, View3Command::Top),
        (KeyCode::Key3, View3Command::Side),
        (KeyCode::Key4, View3Command::ThreeQuarter),
        (KeyCode::O, View3Command::ToggleOrthographic),
    ];
    for (key, command) in KEYS {
        if mq::is_key_pressed(key) {
            app.apply(super::action::Action::View3(command));
        }
    }
}

/// A button went down on the canvas: what it starts.
fn press(app: &mut App, m: Vec2) {
    let pan = mq::is_mouse_button_pressed(MouseButton::Middle)
        || (mq::is_mouse_button_pressed(MouseButton::Left) && mq::is_key_down(KeyCode::Space));
    if pan {
        app.tools.drag = Some(Drag::Pan { last: m });
    } else if mq::is_mouse_button_pressed(MouseButton::Right) {
        app.tools.drag = Some(Drag::Orbit { last: m });
    } else if mq::is_mouse_button_pressed(MouseButton::Left) {
        click(app, m);
    }
}

/// A left click: pick the focused pair (Ctrl: B, Alt: A), or select a body and start moving
/// (or, with Shift, turning) it; on empty space, clear the selection.
fn click(app: &mut App, m: Vec2) {
    let Some(space) = app.workspace.space() else {
        return;
    };
    if let Some(body) = space.velocity_tip_at(m, HIT_RADIUS * app.pixel_scale()) {
        app.checkpoint();
        app.tools.drag = Some(Drag::Velocity3 { body });
        return;
    }
    let Some(i) = space.body_at(m) else {
        app.workspace.clear_selection();
        return;
    };
    let ctrl = down([KeyCode::LeftControl, KeyCode::RightControl]);
    let alt = down([KeyCode::LeftAlt, KeyCode::RightAlt]);
    if ctrl || alt {
        pick_focus(app, i, alt);
        return;
    }
    let position = space.doc().bodies[i].pose.position;
    let grab = space
        .camera
        .drag_point(m, position)
        .map_or(Vec3::ZERO, |p| position - p);
    if let Some(space) = app.workspace.space_mut() {
        space.doc_mut().selected = Some(i);
    }
    app.checkpoint();
    app.tools.drag = Some(if down([KeyCode::LeftShift, KeyCode::RightShift]) {
        Drag::Rotate3 { body: i, last: m }
    } else {
        Drag::Move3 { body: i, grab }
    });
}

/// Makes body `i` A (`as_a`) or B of the focused pair, as one undoable edit.
fn pick_focus(app: &mut App, i: usize, as_a: bool) {
    let Some(space) = app.workspace.space() else {
        return;
    };
    let doc = space.doc();
    let (a, b) = doc
        .focus
        .unwrap_or((0, 1.min(doc.bodies.len().saturating_sub(1))));
    let (a, b) = if as_a {
        (i, if b == i { a } else { b })
    } else {
        (if a == i { b } else { a }, i)
    };
    if a == b {
        app.say("Pick two different bodies for the focused pair");
        return;
    }
    app.checkpoint();
    let Some(space) = app.workspace.space_mut() else {
        return;
    };
    let doc = space.doc_mut();
    doc.set_focus(a, b);
    let text = format!(
        "Focused pair: A = {}, B = {}",
        doc.bodies[a].name, doc.bodies[b].name
    );
    app.say(text);
}

fn drag_to(app: &mut App, drag: Drag, m: Vec2) {
    let snap = app.tools.snap;
    let Some(space) = app.workspace.space_mut() else {
        return;
    };
    match drag {
        Drag::Orbit { last } => {
            space.camera.orbit(m - last);
            app.tools.drag = Some(Drag::Orbit { last: m });
        }
        Drag::Pan { last } => {
            space.camera.pan(m - last);
            app.tools.drag = Some(Drag::Pan { last: m });
        }
        Drag::Move3 { body, grab } => {
            let Some(pose) = space.doc().bodies.get(body).map(|b| b.pose) else {
                return;
            };
            let Some(target) = moved_position(&space.camera, pose.position, grab, m) else {
                return;
            };
            let target = if snap { snap_position(target) } else { target };
            space
                .doc_mut()
                .set_pose(body, Pose3::new(target, pose.rotation));
        }
        Drag::Velocity3 { body } => {
            let Some(b) = space.doc().bodies.get(body) else {
                return;
            };
            let (base, t) = (b.pose.position, space.doc().meta.sweep_time());
            let tip = base + b.velocity.unwrap_or(Vec3::ZERO) * t;
            if let Some(p) = space.camera.drag_point(m, tip) {
                let p = if snap { snap_position(p) } else { p };
                space.doc_mut().set_velocity(body, Some((p - base) / t));
            }
        }
        Drag::Rotate3 { body, last } => {
            let Some(pose) = space.doc().bodies.get(body).map(|b| b.pose) else {
                return;
            };
            let d = m - last;
            let c = &space.camera;
            // Dragging right turns about the camera's up, dragging down about its right.
            let axis = c.up() * d.x + c.right() * d.y;
            if axis.length_squared() > 0.0 {
                let turn = Quat::from_axis_angle(axis.normalize(), d.length() * TURN_PER_PIXEL);
                let rotation = (turn * pose.rotation).normalize();
                let rotation = if snap {
                    snap_rotation(rotation)
                } else {
                    rotation
                };
                space
                    .doc_mut()
                    .set_pose(body, Pose3::new(pose.position, rotation));
            }
            app.tools.drag = Some(Drag::Rotate3 { body, last: m });
        }
        _ => {}
    }
}

/// Where a body grabbed at `grab` from its position goes for the pointer at `m`: in the
/// plane facing the camera through its position, or along a world axis while X, Y or Z is
/// held.
fn moved_position(c: &super::camera3::Camera3, from: Vec3, grab: Vec3, m: Vec2) -> Option<Vec3> {
    let axis = [
        (KeyCode::X, Vec3::X),
        (KeyCode::Y, Vec3::Y),
        (KeyCode::Z, Vec3::Z),
    ]
    .into_iter()
    .find(|(k, _)| mq::is_key_down(*k))
    .map(|(_, a)| a);
    match axis {
        None => c.drag_point(m, from - grab).map(|p| p + grab),
        Some(axis) => {
            // The point of the axis line through the grabbed point closest to the pointer's
            // ray, and the body kept at its offset from it.
            let grabbed = from - grab;
            let (o, d) = c.ray(m);
            let w = grabbed - o;
            let (b, dd, e) = (axis.dot(d), d.dot(d), d.dot(w));
            let denom = dd - b * b;
            if denom.abs() < 1e-9 {
                return None;
            }
            let s = (b * e - dd * axis.dot(w)) / denom;
            Some(grabbed + axis * s + grab)
        }
    }
}

fn snap_position(p: Vec3) -> Vec3 {
    (p / POSITION_SNAP).round() * POSITION_SNAP
}

/// The rotation with its angles (x, y, z in degrees, as files write them) rounded to 15
/// degrees.
fn snap_rotation(q: Quat) -> Quat {
    let degrees = Pose3::new(Vec3::ZERO, q).rotation_degrees();
    let snapped = (degrees / ANGLE_SNAP_DEGREES).round() * ANGLE_SNAP_DEGREES;
    Pose3::from_degrees(Vec3::ZERO, snapped).rotation
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapping_rounds_positions_and_turns() {
        assert_eq!(
            snap_position(Vec3::new(0.26, -0.04, 1.0)),
            Vec3::new(0.3, -0.0, 1.0)
        );
        let q = Pose3::from_degrees(Vec3::ZERO, Vec3::new(0.0, 37.0, 0.0)).rotation;
        let back = Pose3::new(Vec3::ZERO, snap_rotation(q)).rotation_degrees();
        assert!((back - Vec3::new(0.0, 30.0, 0.0)).length() < 1e-3, "{back}");
    }
}
