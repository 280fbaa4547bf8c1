//! The window: everything that uses macroquad and egui. It draws what the core recorded and
//! never computes geometry itself.
//!
//! - [`state`] the document, [`history`] undo/redo, [`session`] document + view + analysis
//! - [`camera`], [`draw`] (palette, painter, legend), [`canvas`] (the whole picture)
//! - [`labs`] one overlay and panel per algorithm, listed in a registry
//! - [`render`] the headless `render` command

pub mod analysis;
pub mod camera;
pub mod canvas;
pub mod draw;
pub mod examples;
pub mod files;
pub mod history;
pub mod input;
pub mod labs;
pub mod render;
pub mod session;
pub mod state;
pub mod title;
pub mod ui;
pub mod window;

use crate::cli::RenderArgs;
use std::path::PathBuf;

/// Opens the window on `scene` (or the built-in welcome scene) and runs until it closes.
/// Returns the process exit status.
pub fn run_window(scene: Option<PathBuf>) -> u8 {
    window::run_window(scene)
}

/// Draws a scene with its overlays into a PNG and exits. Returns the process exit status.
pub fn render_png(args: &RenderArgs) -> u8 {
    render::render_png(args)
}
