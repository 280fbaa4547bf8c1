//! The part of the window that edits the document: what the Scene and Inspector panels (and
//! the canvas tools, through `App`) get. Every change goes through [`Editor::checkpoint`]
//! first, so that undo restores it.

use super::document::Snapshot;
use super::history::History;
use super::probe::TestProbe;
use super::state::Document;
use super::state3::Document3;
use super::tools::Tools;
use crate::geom::{Pose, Shape};
use crate::geom3::{Pose3, Shape3};
use crate::scene::{SceneBody, SceneBody3};
use glam::{Vec2, Vec3};

/// A message at the bottom of the window and when it was posted (seconds).
pub type Status = Option<(String, f64)>;

pub struct Editor<'a> {
    doc: &'a mut Document,
    history: &'a mut History,
    pub tools: &'a mut Tools,
    status: &'a mut Status,
    pub probe: &'a mut TestProbe,
    /// The centre of the view: where new bodies appear.
    pub view_center: Vec2,
}

impl<'a> Editor<'a> {
    pub fn new(
        doc: &'a mut Document,
        history: &'a mut History,
        tools: &'a mut Tools,
        status: &'a mut Status,
        probe: &'a mut TestProbe,
        view_center: Vec2,
    ) -> Editor<'a> {
        Editor {
            doc,
            history,
            tools,
            status,
            probe,
            view_center,
        }
    }

    pub fn doc(&self) -> &Document {
        self.doc
    }

    /// The document to change; call [`Editor::checkpoint`] first.
    pub fn doc_mut(&mut self) -> &mut Document {
        self.doc
    }

    /// Call before changing the document: remembers the state for undo. Edits made while a
    /// pointer button is held (a drag, a slider) become one undo step.
    pub fn checkpoint(&mut self) {
        let doc = &*self.doc;
        self.history.begin_edit(|| Snapshot::Plane(doc.snapshot()));
    }

    /// Shows `text` in the status bar.
    pub fn say(&mut self, text: impl Into<String>) {
        *self.status = Some((text.into(), macroquad::prelude::get_time()));
    }

    /// Adds a new body named after `base` (made unique) at `center`, as one undoable edit.
    pub fn add_new_body(&mut self, base: &str, shape: Shape, center: Vec2) {
        self.checkpoint();
        let name = self.doc.unique_name(base);
        self.doc.add_body(SceneBody {
            name,
            shape,
            pose: Pose::new(center, 0.0),
            velocity: None,
            color: None,
        });
    }
}

/// The part of the window that edits the 3D document: what the 3D Scene and Inspector
/// panels get. Every change goes through [`Editor3::checkpoint`] first.
pub struct Editor3<'a> {
    pub doc: &'a mut Document3,
    pub history: &'a mut History,
    pub status: &'a mut Status,
    /// The point the camera looks at: where new bodies appear.
    pub view_center: Vec3,
}

impl Editor3<'_> {
    /// Remembers the state for undo (edits while a button is held make one step).
    pub fn checkpoint(&mut self) {
        let doc = &*self.doc;
        self.history.begin_edit(|| Snapshot::Space(doc.snapshot()));
    }

    pub fn say(&mut self, text: impl Into<String>) {
        *self.status = Some((text.into(), macroquad::prelude::get_time()));
    }

    /// Adds a new body named after `base` (made unique) at `center`, as one undoable edit.
    pub fn add_new_body(&mut self, base: &str, shape: Shape3, center: Vec3) {
        self.checkpoint();
        let name = self.doc.unique_name(base);
        self.doc.add_body(SceneBody3 {
            name,
            shape,
            pose: Pose3::new(center, glam::Quat::IDENTITY),
            velocity: None,
            color: None,
        });
    }
}
