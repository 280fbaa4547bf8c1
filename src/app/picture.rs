//! What `render`, the slides and File > Export slides need of a workspace: one picture of
//! it at a step of its timeline, and where its labels went. Each kind of workspace
//! implements it beside its drawing.

use super::timeline::TimelineModel;
use crate::query::Algorithm;
use glam::Vec2;

/// A workspace that can draw itself as one picture (the canvas above its caption).
pub trait Picture {
    /// Draws the picture on a screen of `size` pixels, lines and labels at `scale`.
    fn draw_picture(&mut self, size: Vec2, scale: f32);
    /// Where the last picture's labels went, as JSON.
    fn labels_json(&self) -> serde_json::Value;
    /// Its timeline (the slides step through it and put it back).
    fn timeline(&mut self) -> &mut dyn TimelineModel;
    /// How many steps `algorithm` recorded for the focused pair.
    fn step_count(&self, algorithm: Algorithm) -> usize;
    /// Makes `algorithm` the timeline's and shows its step `k`; past the end, the count.
    fn show_step(&mut self, algorithm: Algorithm, k: usize) -> Result<(), usize>;
    /// The document's name, for messages.
    fn name(&self) -> String;
}
