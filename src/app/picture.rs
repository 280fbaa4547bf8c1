//! What `render` and the slides need of a workspace: one picture of it, and where its labels
//! went. Each kind of workspace implements it beside its drawing.

use glam::Vec2;

/// A workspace that can draw itself as one picture (the canvas above its caption).
pub trait Picture {
    /// Draws the picture on a screen of `size` pixels, lines and labels at `scale`.
    fn draw_picture(&mut self, size: Vec2, scale: f32);
    /// Where the last picture's labels went, as JSON.
    fn labels_json(&self) -> serde_json::Value;
}
