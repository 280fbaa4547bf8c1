//! Canvas input: pan, zoom, select, move, rotate, vertex edits, velocity tips, the free
//! polygon tool, and keyboard shortcuts. Pointer input over an egui panel never reaches the
//! world. Every edit goes through `App::checkpoint` so that undo restores it.

use super::action::Action;
use super::camera::Camera;
use super::dialogs::Pending;
use super::draw::{self, palette, Painter};
use super::layout;
use super::platform::DialogKind;
use super::shell::App;
use super::snap::{self, Feature, Outline, Snap};
use super::state::Document;
use super::tools::{Drag, Press, Tool};
use crate::geom::{convex_hull, Pose, Shape, ShapeKind};
use crate::scene::SceneBody;
use glam::Vec2;
use macroquad::prelude as mq;
use macroquad::prelude::{KeyCode, MouseButton};

/// Pixels within which a handle, a vertex or an edge counts as hit (times the UI scale).
const HIT_RADIUS: f32 = 9.0;
/// Seconds and pixels within which two presses make a double-click. Two presses in one
/// frame or in adjacent frames count as well, however long the frames took: a loaded
/// machine drawing slowly must not turn a double-click into two single clicks. (Frames are
/// the full ones `handle` runs in; after any input the window draws
/// `idle::SETTLE_FRAMES` (3) more, so presses in adjacent ones came one frame apart.)
const DOUBLE_CLICK_TIME: f64 = 0.35;
const DOUBLE_CLICK_DISTANCE: f32 = 6.0;
/// Pixels within which a dragged body snaps onto another body's vertex or edge (times the
/// UI scale).
const SNAP_RADIUS: f32 = 12.0;
/// Zoom factor of one step of the wheel.
const WHEEL_ZOOM_STEP: f32 = 1.15;
/// Wheel steps one frame may zoom by: a burst from a free-spinning wheel or a touchpad
/// stays within a factor of about 16 per frame.
const WHEEL_STEPS_PER_FRAME: f32 = 20.0;

/// The zoom factor for this frame's wheel steps (each step zooms by [`WHEEL_ZOOM_STEP`], so
/// three clicks in one slow frame zoom as far as three frames of one click); `None` when
/// the wheel did not turn.
pub(super) fn wheel_zoom(steps: f32) -> Option<f32> {
    (steps != 0.0 && steps.is_finite())
        .then(|| WHEEL_ZOOM_STEP.powf(steps.clamp(-WHEEL_STEPS_PER_FRAME, WHEEL_STEPS_PER_FRAME)))
}

/// Rotation snaps to this many degrees when grid snapping is on.
const ANGLE_SNAP_DEGREES: f32 = 15.0;

fn ctrl() -> bool {
    mq::is_key_down(KeyCode::LeftControl) || mq::is_key_down(KeyCode::RightControl)
}

fn shift() -> bool {
    mq::is_key_down(KeyCode::LeftShift) || mq::is_key_down(KeyCode::RightShift)
}

fn alt() -> bool {
    mq::is_key_down(KeyCode::LeftAlt) || mq::is_key_down(KeyCode::RightAlt)
}

fn mouse() -> Vec2 {
    let (x, y) = mq::mouse_position();
    Vec2::new(x, y)
}

/// The keys, then the pointer on the plane's canvas (the 2D workspace's tools; another kind
/// of workspace brings its own).
pub fn handle(app: &mut App, over_ui: bool) {
    if !app.tools.pointer.keyboard_taken {
        keyboard(app);
    }
    app.tools.pointer.frame += 1;
    let m = mouse();
    end_drag_on_release(app, m);
    app.tools.pointer.last_seen = Some(m);
    let Some(plane) = app.workspace.plane() else {
        return;
    };
    if !over_ui && plane.split.contains_screen(m) && app.tools.drag.is_none() {
        difference_view_input(app, m);
    }
    let Some(plane) = app.workspace.plane_mut() else {
        return;
    };
    let on_canvas = !over_ui && plane.camera.contains_screen(m);
    if on_canvas {
        if let Some(factor) = wheel_zoom(app.tools.pointer.wheel) {
            plane.camera.zoom_at(m, factor);
        }
        app.tools.pointer.hover_vertex = app
            .doc()
            .selected
            .and_then(|b| vertex_at(&app.doc().bodies[b], &painter(app), m).map(|v| (b, v)));
    }
    if on_canvas && app.tools.drag.is_none() {
        let at = app.tools.pointer.pressed_at.unwrap_or(m);
        let on_legend = |app: &mut App| {
            app.workspace
                .plane_mut()
                .is_some_and(|w| w.click_legend(at))
        };
        if mq::is_mouse_button_pressed(MouseButton::Left) {
            // The folded legend's button takes its click; elsewhere a press edits.
            if !on_legend(app) {
                press(app, at);
            }
        } else if mq::is_mouse_button_pressed(MouseButton::Right)
            || mq::is_mouse_button_pressed(MouseButton::Middle)
        {
            app.tools.drag = Some(Drag::Pan { last: at });
        }
    }
    if let Some(drag) = app.tools.drag.clone() {
        let held = [MouseButton::Left, MouseButton::Right, MouseButton::Middle]
            .into_iter()
            .any(mq::is_mouse_button_down);
        if held {
            drag_to(app, drag, m);
        } else {
            app.tools.drag = None;
            app.tools.refused = None;
            app.tools.snapped = None;
        }
    }
}

/// Ends the drag in progress when its button went up this frame, even if a button went
/// down again in the same frame (the second click of a fast double-click on a slow frame):
/// that press then starts something new instead of being swallowed by the old drag.
/// The pointer's last stretch comes first: on a slow frame the motion to where the button
/// went up and the release arrive together, and the body must end where it was let go.
/// A release where the pointer already was (a click) applies nothing, so a click never
/// moves or snaps a body.
fn end_drag_on_release(app: &mut App, m: Vec2) {
    const BUTTONS: [MouseButton; 3] = [MouseButton::Left, MouseButton::Right, MouseButton::Middle];
    // The 3D workspace ends its own drags (`input3`).
    let (Some(drag), Some(_)) = (app.tools.drag.clone(), app.workspace.plane()) else {
        return;
    };
    if BUTTONS.into_iter().any(mq::is_mouse_button_released) {
        if app.tools.pointer.last_seen != Some(m) {
            drag_to(app, drag, m);
        }
        app.tools.drag = None;
        app.tools.refused = None;
        app.tools.snapped = None;
    }
}

/// The pointer over the split view's A - B half: the wheel zooms it, any button pans it.
/// Nothing there edits the scene: A - B follows from the bodies.
fn difference_view_input(app: &mut App, m: Vec2) {
    let Some(plane) = app.workspace.plane_mut() else {
        return;
    };
    if let Some(factor) = wheel_zoom(app.tools.pointer.wheel) {
        plane.split.zoom_at(m, factor);
    }
    let pressed = [MouseButton::Left, MouseButton::Right, MouseButton::Middle]
        .into_iter()
        .any(mq::is_mouse_button_pressed);
    if pressed {
        app.tools.drag = Some(Drag::PanDifference { last: m });
    }
}

/// The plane's camera; canvas input only runs when the workspace is the 2D one (see
/// [`handle`]).
fn camera(app: &App) -> Camera {
    app.workspace.plane().map(|w| w.camera).unwrap_or_default()
}

fn painter(app: &App) -> Painter {
    Painter::new(camera(app), app.pixel_scale())
}

fn keyboard(app: &mut App) {
    use egui_macroquad::egui::Key;
    for (key, mods) in std::mem::take(&mut app.tools.keys) {
        if mods.command || mods.ctrl {
            if let Some(action) = command_key(key, mods.shift) {
                app.apply(action);
            }
            continue;
        }
        match key {
            Key::Delete | Key::Backspace => delete_selection(app),
            Key::F => app.workspace.fit_all(),
            Key::V => {
                let on = !app.prefs.split_view;
                app.prefs.set_split_view(on);
            }
            Key::G => {
                app.tools.snap = !app.tools.snap;
                app.say(if app.tools.snap {
                    "Grid snapping on"
                } else {
                    "Grid snapping off"
                });
            }
            Key::ArrowRight => {
                app.workspace.timeline_model().step_by(1);
            }
            Key::ArrowLeft => {
                app.workspace.timeline_model().step_by(-1);
            }
            Key::Home => {
                app.workspace.timeline_model().first_step();
            }
            Key::End => {
                app.workspace.timeline_model().last_step();
            }
            Key::P => app.workspace.timeline_model().toggle_play(mq::get_time()),
            Key::Enter => finish_polygon(app),
            Key::Escape => escape(app),
            _ => {}
        }
    }
    // Function keys do not reach egui's events; they need no modifiers.
    if mq::is_key_pressed(KeyCode::F12) {
        app.prefs.screenshot = true;
    }
    if mq::is_key_pressed(KeyCode::F5) {
        let on = !app.prefs.presentation;
        app.prefs.set_presentation(on);
        app.workspace.fit_all();
    }
}

/// What Ctrl (or Cmd) with `key` asks for: the menu's shortcuts.
fn command_key(key: egui_macroquad::egui::Key, shift: bool) -> Option<Action> {
    use egui_macroquad::egui::Key;
    Some(match key {
        Key::Z if shift => Action::Redo,
        Key::Y => Action::Redo,
        Key::Z => Action::Undo,
        Key::S if shift => Action::AskPath(DialogKind::SaveAs),
        Key::S => Action::Save,
        Key::O => Action::AskPath(DialogKind::Open),
        Key::N => Action::Request(Pending::New),
        Key::D => Action::DuplicateSelected,
        Key::Q => Action::Request(Pending::Quit),
        _ => return None,
    })
}

fn escape(app: &mut App) {
    if app.tools.tool != Tool::Select {
        app.tools.tool = Tool::Select;
        app.say("Polygon cancelled");
    } else {
        app.workspace.clear_selection();
        app.tools.pointer.selected_vertex = None;
    }
}

fn is_double_click(app: &mut App, m: Vec2) -> bool {
    let pointer = &mut app.tools.pointer;
    let now = Press {
        time: mq::get_time(),
        frame: pointer.frame,
        at: m,
    };
    let near = |a: Vec2, b: Vec2| (a - b).length() < DOUBLE_CLICK_DISTANCE;
    let both_this_frame = matches!(pointer.presses[..], [.., a, b] if near(a, b));
    let double = both_this_frame
        || pointer.last_press.is_some_and(|last| {
            let soon = now.time - last.time < DOUBLE_CLICK_TIME || now.frame - last.frame <= 1;
            soon && near(last.at, m)
        });
    pointer.last_press = if double { None } else { Some(now) };
    double
}

fn press(app: &mut App, m: Vec2) {
    let double = is_double_click(app, m);
    let world = snap_point(app, camera(app).to_world(m));
    let p = painter(app);
    if let Tool::FreePolygon(points) = &mut app.tools.tool {
        let closes = points.len() >= 3 && (p.to_screen(points[0]) - m).length() < p.px(HIT_RADIUS);
        if !closes && !double {
            points.push(world);
        }
        if closes || double {
            finish_polygon(app);
        }
        return;
    }
    if mq::is_key_down(KeyCode::Space) {
        app.tools.drag = Some(Drag::Pan { last: m });
        return;
    }
    let p = painter(app);
    let hit = body_at(app.doc(), &p, m);
    if ctrl() || alt() {
        if let Some(i) = hit {
            pick_focus(app, i, alt());
        }
        return;
    }
    if let Some(body) = velocity_tip_at(app, &p, m) {
        app.checkpoint();
        app.tools.drag = Some(Drag::Velocity { body });
        return;
    }
    if let Some(sel) = app.doc().selected {
        if press_on_selected(app, &p, sel, m, double) {
            return;
        }
    }
    app.tools.pointer.selected_vertex = None;
    match hit {
        Some(i) => {
            if let Some(doc) = app.doc_mut() {
                doc.selected = Some(i);
            }
            app.checkpoint();
            let body = &app.doc().bodies[i];
            let pointer = camera(app).to_world(m);
            app.tools.drag = Some(if shift() {
                Drag::Rotate {
                    body: i,
                    pointer_angle: angle_of(pointer - body.pose.position),
                    body_angle: body.pose.angle,
                }
            } else {
                Drag::Move {
                    body: i,
                    grab: pointer - body.pose.position,
                }
            });
        }
        None => {
            if let Some(doc) = app.doc_mut() {
                doc.selected = None;
            }
            app.tools.drag = Some(Drag::Pan { last: m });
        }
    }
}

/// Presses on the selected body's handles: rotation handle, a vertex, an edge
/// (double-click inserts a vertex). Returns whether the press was used.
fn press_on_selected(app: &mut App, p: &Painter, sel: usize, m: Vec2, double: bool) -> bool {
    let body = app.doc().bodies[sel].clone();
    if (rotate_handle(&body, p) - m).length() < p.px(HIT_RADIUS) {
        app.checkpoint();
        let pointer = camera(app).to_world(m);
        app.tools.drag = Some(Drag::Rotate {
            body: sel,
            pointer_angle: angle_of(pointer - body.pose.position),
            body_angle: body.pose.angle,
        });
        return true;
    }
    if let Some(v) = vertex_at(&body, p, m) {
        app.tools.pointer.selected_vertex = Some((sel, v));
        app.checkpoint();
        app.tools.drag = Some(Drag::Vertex {
            body: sel,
            index: v,
        });
        return true;
    }
    if double {
        if let Some(edge) = edge_at(&body, p, m) {
            insert_vertex(app, sel, edge, camera(app).to_world(m));
            return true;
        }
    }
    false
}

fn pick_focus(app: &mut App, i: usize, as_a: bool) {
    let (a, b) = app
        .doc()
        .focus
        .unwrap_or((0, 1.min(app.doc().bodies.len().saturating_sub(1))));
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
    if let Some(doc) = app.doc_mut() {
        doc.set_focus(a, b);
    }
    let names = (
        app.doc().bodies[a].name.clone(),
        app.doc().bodies[b].name.clone(),
    );
    app.say(format!("Focused pair: A = {}, B = {}", names.0, names.1));
}

fn drag_to(app: &mut App, drag: Drag, m: Vec2) {
    let world = camera(app).to_world(m);
    match drag {
        Drag::Pan { last } => {
            if let Some(w) = app.workspace.plane_mut() {
                w.camera.pan_pixels(m - last);
            }
            app.tools.drag = Some(Drag::Pan { last: m });
        }
        Drag::PanDifference { last } => {
            if let Some(w) = app.workspace.plane_mut() {
                w.split.pan_pixels(m - last);
            }
            app.tools.drag = Some(Drag::PanDifference { last: m });
        }
        Drag::Move { body, grab } => {
            let Some(angle) = app.doc().bodies.get(body).map(|b| b.pose.angle) else {
                return;
            };
            let proposed = world - grab;
            app.tools.snapped = snap_to_bodies(app, body, Pose::new(proposed, angle));
            let position = match app.tools.snapped {
                Some(s) => proposed + s.shift,
                None => snap_point(app, proposed),
            };
            if let Some(doc) = app.doc_mut() {
                doc.set_pose(body, Pose::new(position, angle));
            }
        }
        Drag::Rotate {
            body,
            pointer_angle,
            body_angle,
        } => {
            let Some(b) = app.doc().bodies.get(body) else {
                return;
            };
            let mut angle = body_angle + angle_of(world - b.pose.position) - pointer_angle;
            if app.tools.snap {
                let step = ANGLE_SNAP_DEGREES.to_radians();
                angle = (angle / step).round() * step;
            }
            let pose = Pose::new(b.pose.position, angle);
            if let Some(doc) = app.doc_mut() {
                doc.set_pose(body, pose);
            }
        }
        Drag::Vertex { body, index } => {
            app.tools.snapped = snap_point_to_bodies(app, body, world);
            let target = match app.tools.snapped {
                Some(s) => world + s.shift,
                None => snap_point(app, world),
            };
            move_vertex(app, body, index, target);
        }
        // The 3D workspace's drags are handled by `input3`.
        Drag::Orbit { .. }
        | Drag::OrbitDifference { .. }
        | Drag::Move3 { .. }
        | Drag::Rotate3 { .. }
        | Drag::Velocity3 { .. } => {}
        Drag::Velocity { body } => {
            let t = app.doc().meta.sweep_time();
            let target = snap_point(app, world);
            if let Some(doc) = app.doc_mut() {
                if let Some(b) = doc.body_mut(body) {
                    let v = (target - b.pose.position) / t;
                    if b.velocity != Some(v) {
                        b.velocity = Some(v);
                        doc.touch();
                    }
                }
            }
        }
    }
}

fn angle_of(v: Vec2) -> f32 {
    v.y.atan2(v.x)
}

/// The bodies other than `body`, as the snapping sees them (world cores and radii).
fn other_cores(doc: &Document, body: usize) -> Vec<(usize, Vec<Vec2>, f32)> {
    doc.bodies
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != body)
        .map(|(i, b)| {
            let core = layout::world_points(&b.pose, b.shape.core());
            (i, core, b.shape.radius())
        })
        .collect()
}

/// Whether a drag snaps onto the other bodies now: switched on, and Alt not held.
fn snapping_to_bodies(app: &App) -> bool {
    app.tools.snap_bodies && !alt()
}

/// The world distance within which a drag snaps onto another body's feature.
fn snap_reach(app: &App) -> f32 {
    app.pixel_scale() * SNAP_RADIUS / camera(app).zoom
}

/// The snap of body `body` at the proposed `pose` onto another body, touching it exactly.
fn snap_to_bodies(app: &App, body: usize, pose: Pose) -> Option<Snap> {
    if !snapping_to_bodies(app) {
        return None;
    }
    let b = app.doc().bodies.get(body)?;
    let core = layout::world_points(&pose, b.shape.core());
    let others = other_cores(app.doc(), body);
    let outlines: Vec<(usize, Outline)> = others
        .iter()
        .map(|(i, core, radius)| {
            let o = Outline {
                core,
                radius: *radius,
            };
            (*i, o)
        })
        .collect();
    let moving = Outline {
        core: &core,
        radius: b.shape.radius(),
    };
    snap::snap_to_bodies(&moving, &outlines, snap_reach(app))
}

/// The snap of a dragged vertex (a point) onto another body's vertex or edge.
fn snap_point_to_bodies(app: &App, body: usize, point: Vec2) -> Option<Snap> {
    if !snapping_to_bodies(app) {
        return None;
    }
    let others = other_cores(app.doc(), body);
    let outlines: Vec<(usize, Outline)> = others
        .iter()
        .map(|(i, core, radius)| {
            let o = Outline {
                core,
                radius: *radius,
            };
            (*i, o)
        })
        .collect();
    let moving = Outline {
        core: &[point],
        radius: 0.0,
    };
    snap::snap_to_bodies(&moving, &outlines, snap_reach(app))
}

/// Rounds a world point to the minor grid when snapping is on.
fn snap_point(app: &App, p: Vec2) -> Vec2 {
    if !app.tools.snap {
        return p;
    }
    let step = draw::nice_step(app.pixel_scale() * 24.0 / camera(app).zoom);
    (p / step).round() * step
}

/// The polygon core of a body, when its vertices can be edited (polygons, boxes and
/// regular polygons; circles and capsules have no corners).
fn editable_core(body: &SceneBody) -> Option<Vec<Vec2>> {
    (!body.shape.is_round() && body.shape.core().len() >= 3).then(|| body.shape.core().to_vec())
}

/// Moves a vertex; a move that would make the polygon non-convex is refused and the tried
/// outline is shown in red with the reason.
fn move_vertex(app: &mut App, body: usize, index: usize, world: Vec2) {
    let Some(b) = app.doc().bodies.get(body) else {
        return;
    };
    let Some(mut points) = editable_core(b) else {
        return;
    };
    if index >= points.len() {
        return;
    }
    points[index] = b.pose.inverse_transform_point(world);
    let tried: Vec<Vec2> = layout::world_points(&b.pose, &points);
    match set_shape(app, body, ShapeKind::Polygon { points }) {
        Ok(()) => app.tools.refused = None,
        Err(e) => app.tools.refused = Some((tried, format!("Refused: {e}"))),
    }
}

fn insert_vertex(app: &mut App, body: usize, edge: usize, world: Vec2) {
    let Some(b) = app.doc().bodies.get(body) else {
        return;
    };
    let Some(mut points) = editable_core(b) else {
        return;
    };
    let local = on_or_outside_edge(&points, edge, b.pose.inverse_transform_point(world));
    points.insert(edge + 1, local);
    app.checkpoint();
    match set_shape(app, body, ShapeKind::Polygon { points }) {
        Ok(()) => {
            app.tools.pointer.selected_vertex = Some((body, edge + 1));
            app.say("Vertex added; drag it to reshape the polygon");
        }
        Err(e) => app.say(format!("Refused: {e}")),
    }
}

/// Where a vertex added on `edge` goes: the pointer itself when it is outside the edge (the
/// polygon bulges there), else the pointer's projection onto the edge. A pointer rounded to
/// a pixel just inside the edge would dent the polygon and be refused as not convex.
fn on_or_outside_edge(points: &[Vec2], edge: usize, local: Vec2) -> Vec2 {
    let a = points[edge];
    let b = points[(edge + 1) % points.len()];
    let along = b - a;
    // Counter-clockwise winding: the inside is to the left of the edge.
    if along.perp_dot(local - a) <= 0.0 || along.length_squared() == 0.0 {
        return local;
    }
    let t = ((local - a).dot(along) / along.length_squared()).clamp(0.0, 1.0);
    a + along * t
}

fn delete_selection(app: &mut App) {
    if let Some((body, v)) = app.tools.pointer.selected_vertex {
        let Some(b) = app.doc().bodies.get(body) else {
            return;
        };
        if let Some(mut points) = editable_core(b) {
            if points.len() <= 3 {
                app.say("Refused: a polygon needs at least 3 vertices");
                return;
            }
            points.remove(v.min(points.len() - 1));
            app.checkpoint();
            match set_shape(app, body, ShapeKind::Polygon { points }) {
                Ok(()) => app.say("Vertex deleted"),
                Err(e) => app.say(format!("Refused: {e}")),
            }
            app.tools.pointer.selected_vertex = None;
            return;
        }
    }
    app.delete_selected();
}

/// Closes the free polygon: the convex hull of the clicked points (a non-convex click
/// order is snapped to the hull, and said so).
fn finish_polygon(app: &mut App) {
    let Tool::FreePolygon(points) = std::mem::replace(&mut app.tools.tool, Tool::Select) else {
        return;
    };
    let hull = convex_hull(&points);
    if hull.len() < 3 {
        app.say("A polygon needs at least 3 points that are not on one line");
        return;
    }
    let center = hull.iter().copied().sum::<Vec2>() / hull.len() as f32;
    let local: Vec<Vec2> = hull.iter().map(|p| *p - center).collect();
    match Shape::polygon(local) {
        Ok(shape) => {
            let snapped = hull.len() < points.len();
            if let Some(mut editor) = app.editor() {
                editor.add_new_body(shape.kind_name(), shape, center);
            }
            app.say(if snapped {
                "Polygon added (points inside or denting it were snapped to the convex hull)"
            } else {
                "Polygon added"
            });
        }
        Err(e) => app.say(format!("Refused: {e}")),
    }
}

// ---- hit tests ------------------------------------------------------------------------

/// The topmost body under a screen point.
pub fn body_at(doc: &Document, p: &Painter, m: Vec2) -> Option<usize> {
    let world = p.camera.to_world(m);
    let slack = p.px(4.0) / p.camera.zoom;
    (0..doc.bodies.len()).rev().find(|&i| {
        let outline = super::layout::body_outline(&doc.bodies[i], p.camera.zoom);
        inside_convex(&outline, world, slack)
    })
}

/// Whether `q` lies inside a counter-clockwise convex outline, or within `slack` of it.
fn inside_convex(outline: &[Vec2], q: Vec2, slack: f32) -> bool {
    if outline.len() < 3 {
        return false;
    }
    (0..outline.len()).all(|i| {
        let a = outline[i];
        let e = outline[(i + 1) % outline.len()] - a;
        let len = e.length();
        len == 0.0 || crate::geom::cross(e, q - a) / len >= -slack
    })
}

fn vertex_at(body: &SceneBody, p: &Painter, m: Vec2) -> Option<usize> {
    let core = editable_core(body)?;
    let world = layout::world_points(&body.pose, &core);
    world
        .iter()
        .position(|v| (p.to_screen(*v) - m).length() < p.px(HIT_RADIUS))
}

fn edge_at(body: &SceneBody, p: &Painter, m: Vec2) -> Option<usize> {
    let core = editable_core(body)?;
    let world = layout::world_points(&body.pose, &core);
    (0..world.len()).find(|&i| {
        let a = p.to_screen(world[i]);
        let b = p.to_screen(world[(i + 1) % world.len()]);
        distance_to_segment(m, a, b) < p.px(HIT_RADIUS * 0.7)
    })
}

fn distance_to_segment(q: Vec2, a: Vec2, b: Vec2) -> f32 {
    let e = b - a;
    let t = if e.length_squared() > 0.0 {
        ((q - a).dot(e) / e.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (q - (a + t * e)).length()
}

/// The rotation handle: a knob straight above the body on the screen.
fn rotate_handle(body: &SceneBody, p: &Painter) -> Vec2 {
    let center = p.to_screen(body.pose.position);
    let up = body.shape.bounding_radius() * p.camera.zoom + p.px(30.0);
    center + Vec2::new(0.0, -up)
}

fn velocity_tip_at(app: &App, p: &Painter, m: Vec2) -> Option<usize> {
    let t = app.doc().meta.sweep_time();
    app.doc().bodies.iter().position(|b| {
        b.velocity.is_some_and(|v| {
            let (base, tip) = (
                p.to_screen(b.pose.position),
                p.to_screen(b.pose.position + v * t),
            );
            // A tip on top of the body's centre would steal every drag meant to move the
            // body: short arrows are edited in the inspector instead.
            (tip - base).length() > 2.0 * p.px(HIT_RADIUS) && (tip - m).length() < p.px(HIT_RADIUS)
        })
    })
}

// ---- drawing of handles and feedback ---------------------------------------------------

pub fn draw_interaction(app: &App) {
    if app.workspace.plane().is_none() {
        return;
    }
    let p = painter(app);
    if let Some(sel) = app.doc().selected.and_then(|i| app.doc().bodies.get(i)) {
        draw_handles(app, &p, sel);
    }
    if let Some(s) = &app.tools.snapped {
        draw_snap(app, &p, s);
    }
    if let Some((outline, why)) = &app.tools.refused {
        p.dashed_outline(outline, 2.5, palette::REFUSED);
        let m = mouse();
        p.screen_text(
            m + Vec2::new(p.px(14.0), p.px(10.0)),
            why,
            15.0,
            palette::REFUSED,
            true,
        );
    }
    if let Tool::FreePolygon(points) = &app.tools.tool {
        let cursor = camera(app).to_world(mouse());
        for w in points.windows(2) {
            p.line(w[0], w[1], 2.0, palette::SELECTION);
        }
        if let Some(last) = points.last() {
            p.dashed(*last, cursor, 1.5, palette::SELECTION);
        }
        for q in points {
            p.dot(*q, 4.0, palette::SELECTION);
        }
        let hint =
            "Click to add points; Enter, a double-click or the first point closes; Esc cancels";
        p.screen_text(
            camera(app).origin + Vec2::splat(p.px(10.0)),
            hint,
            15.0,
            palette::TEXT,
            true,
        );
    }
}

/// The feature a drag snapped onto, highlighted, and the touching point.
fn draw_snap(app: &App, p: &Painter, s: &Snap) {
    let name = app
        .doc()
        .bodies
        .get(s.other)
        .map_or("", |b| b.name.as_str());
    let what = match s.feature {
        Feature::Vertex { index, at } => {
            p.ring(at, 9.0, 3.0, palette::SELECTION);
            format!("touching {name}, vertex {index}")
        }
        Feature::Edge { index, a, b } => {
            p.line(a, b, 5.0, palette::SELECTION);
            format!("touching {name}, edge {index}")
        }
    };
    p.dot(s.contact, 4.0, palette::SELECTION);
    p.label(s.contact, Vec2::new(10.0, 8.0), &what, palette::TEXT);
}

fn draw_handles(app: &App, p: &Painter, body: &SceneBody) {
    let knob = rotate_handle(body, p);
    let center = p.to_screen(body.pose.position);
    draw::screen_line(center, knob, p.px(1.5), palette::SELECTION);
    mq::draw_circle(knob.x, knob.y, p.px(6.0), palette::SELECTION);
    mq::draw_circle_lines(knob.x, knob.y, p.px(6.0), p.px(1.5), palette::TEXT);
    let Some(core) = editable_core(body) else {
        return;
    };
    let sel = app.doc().selected;
    for (i, v) in layout::world_points(&body.pose, &core).iter().enumerate() {
        let s = p.to_screen(*v);
        let hot = app.tools.pointer.hover_vertex == sel.map(|b| (b, i))
            || app.tools.pointer.selected_vertex == sel.map(|b| (b, i));
        let r = p.px(if hot { 6.0 } else { 4.5 });
        mq::draw_rectangle(s.x - r, s.y - r, 2.0 * r, 2.0 * r, mq::WHITE);
        let edge = if hot {
            palette::SELECTION
        } else {
            palette::TEXT
        };
        mq::draw_rectangle_lines(s.x - r, s.y - r, 2.0 * r, 2.0 * r, p.px(1.5), edge);
    }
}

/// Replaces body `body`'s shape in the plane's document (the plane's tools run only there).
fn set_shape(app: &mut App, body: usize, kind: ShapeKind) -> Result<(), crate::geom::ShapeError> {
    match app.doc_mut() {
        Some(doc) => doc.set_shape(body, kind),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_convex_with_slack() {
        let sq = [
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 1.0),
        ];
        assert!(inside_convex(&sq, Vec2::new(0.5, 0.5), 0.0));
        assert!(!inside_convex(&sq, Vec2::new(1.2, 0.5), 0.0));
        assert!(inside_convex(&sq, Vec2::new(1.05, 0.5), 0.1));
    }

    #[test]
    fn a_vertex_added_just_inside_an_edge_lands_on_it_and_keeps_the_polygon_convex() {
        use crate::geom::{Shape, ShapeKind};
        // A box turned 30 degrees: a pointer a hair inside its bottom edge.
        let turn = Vec2::from_angle(30f32.to_radians());
        let corners = [(-1.0, -0.5), (1.0, -0.5), (1.0, 0.5), (-1.0, 0.5)];
        let box_ = corners.map(|(x, y)| turn.rotate(Vec2::new(x, y)));
        let inside = turn.rotate(Vec2::new(0.3, -0.5 + 1e-3));
        let at = on_or_outside_edge(&box_, 0, inside);
        assert!(
            (at - turn.rotate(Vec2::new(0.3, -0.5))).length() < 1e-5,
            "{at}"
        );
        let mut points = box_.to_vec();
        points.insert(1, at);
        assert!(Shape::new(ShapeKind::Polygon { points }).is_ok());
        // The pointer itself when it is outside: the polygon bulges there.
        let outside = turn.rotate(Vec2::new(0.3, -0.6));
        assert_eq!(on_or_outside_edge(&box_, 0, outside), outside);
        // Beyond the edge's ends, its nearer end.
        let past = turn.rotate(Vec2::new(1.5, -0.45));
        assert!((on_or_outside_edge(&box_, 0, past) - box_[1]).length() < 1e-5);
    }

    #[test]
    fn command_keys_ask_for_what_the_help_card_says() {
        use egui_macroquad::egui::Key;
        assert_eq!(command_key(Key::Z, false), Some(Action::Undo));
        assert_eq!(command_key(Key::Z, true), Some(Action::Redo));
        assert_eq!(command_key(Key::Y, false), Some(Action::Redo));
        assert_eq!(command_key(Key::S, false), Some(Action::Save));
        assert_eq!(
            command_key(Key::S, true),
            Some(Action::AskPath(DialogKind::SaveAs))
        );
        assert_eq!(
            command_key(Key::O, false),
            Some(Action::AskPath(DialogKind::Open))
        );
        assert_eq!(
            command_key(Key::N, false),
            Some(Action::Request(Pending::New))
        );
        assert_eq!(command_key(Key::D, false), Some(Action::DuplicateSelected));
        assert_eq!(
            command_key(Key::Q, false),
            Some(Action::Request(Pending::Quit))
        );
        assert_eq!(command_key(Key::A, false), None);
    }
}
