//! The window: everything that uses macroquad and egui. Being built on the `app` branch.

use crate::cli::RenderArgs;
use std::path::PathBuf;

/// Opens the window on `scene` (or the built-in welcome scene) and runs until it closes.
/// Returns the process exit status.
pub fn run_window(_scene: Option<PathBuf>) -> u8 {
    eprintln!("error: the window is not built yet");
    2
}

/// Draws a scene with its overlays into a PNG and exits. Returns the process exit status.
pub fn render_png(_args: &RenderArgs) -> u8 {
    eprintln!("error: render is not built yet");
    2
}
