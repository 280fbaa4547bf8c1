//! The part of the window that edits the document: what the Scene and Inspector panels (and
//! the canvas tools, through `App`) get. Every change goes through [`Editor::checkpoint`]
//! first, so that undo restores it.

use super::history::History;
use super::probe::TestProbe;
use super::state::Document;
use super::tools::Tools;
use crate::geom::{Pose, Shape};
use crate::scene::SceneBody;
use glam::Vec2;

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
        self.history.begin_edit(|| doc.snapshot());
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
