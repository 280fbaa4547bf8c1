//! The editing tools' state: the active tool (select or free polygon), the drag in
//! progress, pointer bookkeeping, grid and body snapping, a refused edit, the inspector's rename
//! field and this frame's keys. `input` turns pointer and keys into edits through it.

use super::snap::Snap;
use egui_macroquad::egui;
use glam::Vec2;

#[derive(Clone, Debug, PartialEq)]
pub enum Tool {
    Select,
    /// Clicking adds points (world) to a new polygon; Enter, a double-click or a click on
    /// the first point closes it.
    FreePolygon(Vec<Vec2>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Drag {
    Pan {
        last: Vec2,
    },
    /// Panning the split view's A - B half.
    PanDifference {
        last: Vec2,
    },
    Move {
        body: usize,
        grab: Vec2,
    },
    Rotate {
        body: usize,
        pointer_angle: f32,
        body_angle: f32,
    },
    Vertex {
        body: usize,
        index: usize,
    },
    Velocity {
        body: usize,
    },
    /// 3D: turning the camera about its target (right button).
    Orbit {
        last: Vec2,
    },
    /// 3D: turning the split view's A - B camera (any button but the middle one).
    OrbitDifference {
        last: Vec2,
    },
    /// 3D: moving a body. `grab` is the body's position minus the grabbed point (world), so
    /// the body does not jump to the pointer.
    Move3 {
        body: usize,
        grab: glam::Vec3,
    },
    /// 3D: dragging a velocity arrow's tip (in the plane facing the camera).
    Velocity3 {
        body: usize,
    },
    /// 3D: turning a body like a trackball (Shift + drag).
    Rotate3 {
        body: usize,
        last: Vec2,
    },
}

/// A press of the left button on the canvas, kept to tell a double-click.
#[derive(Clone, Copy, Debug)]
pub struct Press {
    /// `get_time()` of the frame that saw it (seconds).
    pub time: f64,
    pub frame: u64,
    /// Screen pixels.
    pub at: Vec2,
}

/// Pointer bookkeeping between frames.
#[derive(Clone, Debug, Default)]
pub struct Pointer {
    pub keyboard_taken: bool,
    pub last_press: Option<Press>,
    /// Frames handled so far (counts the frames between two presses).
    pub frame: u64,
    /// This frame's left-button presses in order (screen pixels): a slow frame can hold
    /// both presses of a double-click, which the per-frame "pressed" flag counts as one.
    pub presses: Vec<Vec2>,
    /// The polygon vertex last clicked, which Delete removes.
    pub selected_vertex: Option<(usize, usize)>,
    pub hover_vertex: Option<(usize, usize)>,
    /// Where a button went down this frame, when the frame's input says (the pointer may
    /// have moved on by the time the frame runs).
    pub pressed_at: Option<Vec2>,
    /// Where the pointer was when the last frame handled the canvas (screen pixels): a
    /// drag whose button goes up somewhere else still has that last stretch to apply.
    pub last_seen: Option<Vec2>,
    /// The vertical wheel steps of this frame's input, summed (a slow frame can hold
    /// several clicks of the wheel; each one zooms).
    pub wheel: f32,
}

/// Everything the tools remember between frames.
#[derive(Clone, Debug)]
pub struct Tools {
    pub tool: Tool,
    pub drag: Option<Drag>,
    pub pointer: Pointer,
    /// Grid snapping (G).
    pub snap: bool,
    /// Snapping a dragged body onto the other bodies' vertices and edges (on unless turned
    /// off in the View menu; holding Alt while dragging moves freely).
    pub snap_bodies: bool,
    /// The snap the drag in progress took, for the highlight.
    pub snapped: Option<Snap>,
    /// A refused polygon edit: the outline that was tried and why it was refused.
    pub refused: Option<(Vec<Vec2>, String)>,
    /// Text field contents of the inspector's name box.
    pub rename_text: Option<(usize, String)>,
    /// Keys pressed this frame with the modifiers held at that moment (from egui's events,
    /// which carry the modifiers of each key event even when press and release arrive
    /// within one frame).
    pub keys: Vec<(egui::Key, egui::Modifiers)>,
}

impl Default for Tools {
    fn default() -> Self {
        Tools {
            tool: Tool::Select,
            drag: None,
            pointer: Pointer::default(),
            snap: false,
            snap_bodies: true,
            snapped: None,
            refused: None,
            rename_text: None,
            keys: Vec::new(),
        }
    }
}
