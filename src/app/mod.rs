//! The window: everything that uses macroquad and egui. It draws what the core recorded and
//! never computes geometry itself. The layers, from the model up (arrows point down only;
//! `docs/architecture.md` has the picture):
//!
//! - model: [`state`] and [`state3`] the documents, [`file_state`] what they share,
//!   [`document`] a document of either kind and its undo state, [`history`] undo/redo,
//!   [`overlays`] the overlay switches and steps, [`analysis`] and [`analysis3`] the core's
//!   results, [`session`] a workspace's model (either kind), [`timeline`] the timeline's
//!   contract, [`layout`] where things sit
//! - tools and dialogs as state: [`tools`], [`dialogs`], [`files`] (where pictures go), [`platform`] (the desktop or the browser), [`probe`];
//!   [`editor`] the part that edits the document
//! - view: [`camera`], [`labels`] (where labels go, pure), [`draw`] (palette, painter, legend), [`labs`] (one per algorithm, in
//!   a registry), [`canvas`] (the whole picture), [`workspace`] (model + camera + labs) and
//!   the shared panels' traits in [`panels`]; [`split`] the split view's halves and A - B
//!   camera, [`snap`] the snapping maths of a drag, [`sweep_clock`] the time the sweep's
//!   moving bodies are shown at; in 3D [`camera3`], [`paint3`], [`labs3`] and
//!   [`workspace3`], and [`workspaces`] where a scene's kind picks its workspace
//! - the window: [`shell`] (the state and its actions), [`share`] (share links), [`action`] (what panels and keys ask
//!   of it), [`parts`] (its state as separate borrows, for the panels), [`prefs`] (the View menu's settings), [`input`] and [`ui`] (which edit parts of it),
//!   [`input3`] (the 3D canvas tools), [`window`] (the thin frame loop), [`render`] (the
//!   headless `render` command), [`picture`] (a workspace as one picture),
//!   [`slides`] (one captioned picture per step: `render --steps`, File > Export slides)

pub mod action;
pub mod analysis;
pub mod analysis3;
pub mod camera;
pub mod camera3;
pub mod canvas;
pub mod dialogs;
pub mod difference3;
pub mod document;
pub mod draw;
pub mod editor;
pub mod examples;
pub mod file_state;
pub mod files;
pub mod history;
pub mod idle;
pub mod input;
pub mod input3;
pub mod labels;
pub mod labs;
pub mod labs3;
pub mod layout;
pub mod lessons;
pub mod overlays;
pub mod paint3;
pub mod panels;
pub mod parts;
pub mod picture;
pub mod platform;
pub mod prefs;
pub mod probe;
pub mod render;
pub mod scan;
pub mod scan_plot;
pub mod session;
pub mod share;
pub mod shell;
pub mod slides;
pub mod snap;
pub mod split;
pub mod state;
pub mod state3;
pub mod sweep_clock;
pub mod timeline;
pub mod title;
pub mod tools;
pub mod ui;
pub mod window;
pub mod workspace;
pub mod workspace3;
pub mod workspaces;

pub use render::RenderOptions;
pub use scan_plot::write_scan_plot;

/// `collision-lab render`: one picture, or with `--steps` one slide per step.
pub fn render_png(args: &RenderOptions) -> u8 {
    match &args.steps {
        Some(algorithm) => slides::render_slides(args, algorithm),
        None => render::render_picture(args),
    }
}
pub use window::run_window;
