//! The `Lab` trait: what one algorithm's lab gives the window. The step counts and the
//! sentences are the core's (`PairTrace`), so a new lab writes only its drawing, its legend
//! and whatever it adds (settings, plot series, points the inset must frame).

use crate::app::analysis::{Analysis, PairSettings};
use crate::app::draw::{LegendEntry, Painter};
use crate::app::state::Document;
use crate::query::{Algorithm, SupportPoint};
use egui_macroquad::egui;
use glam::Vec2;

/// What a lab draws with.
pub struct LabCtx<'a> {
    pub doc: &'a Document,
    pub run: &'a Analysis,
    /// The world canvas.
    pub world: &'a Painter,
    /// The inset that shows the Minkowski difference A - B around its origin.
    pub inset: &'a Painter,
    /// The sweep's clock: the time in [0, sweep_time] at which the moving bodies are shown
    /// (`None`: not shown).
    pub sweep_time: Option<f32>,
}

/// A series for the Plots panel: (iteration, value) points.
pub struct Series {
    pub name: String,
    pub color: macroquad::prelude::Color,
    pub points: Vec<[f64; 2]>,
}

/// One algorithm's view: its overlay, legend, settings and plots. Everything it shows comes
/// from the [`Analysis`] it is handed; nothing outside reaches into its part of the trace
/// (the canvas asks [`Lab::inset_points`] what the inset must hold). The timeline's step
/// counts and sentences are the core's, read through [`Analysis::step_count`] and
/// [`Analysis::sentence`].
pub trait Lab {
    fn algorithm(&self) -> Algorithm;
    fn name(&self) -> &'static str {
        self.algorithm().title()
    }
    /// Whether the overlay draws in the A - B inset.
    fn uses_inset(&self) -> bool {
        false
    }
    /// Whether the overlay draws a card in the canvas's upper-left corner for `run` (the
    /// legend then keeps to its usual upper-right corner).
    fn holds_top_left(&self, _run: &Analysis) -> bool {
        false
    }
    /// Every point this lab draws in the inset at any step, so that the inset can frame
    /// them all and hold still while stepping.
    fn inset_points(&self, _run: &Analysis, _keep: &mut dyn FnMut(Vec2)) {}
    /// Whether the overlay is a backdrop that stays drawn while another algorithm's
    /// timeline steps through the inset (the Minkowski difference itself).
    fn is_backdrop(&self) -> bool {
        false
    }
    /// The support point found at `step` (`None`: the final state), with its sources on A
    /// and B (world): the split view links them to the point in A - B, so that w = a - b
    /// shows.
    fn support_point(&self, _run: &Analysis, _step: Option<usize>) -> Option<SupportPoint> {
        None
    }
    /// Draws the overlay at `step`, or the final state when `step` is `None`.
    fn draw(&self, ctx: &LabCtx, step: Option<usize>);
    fn legend(&self) -> Vec<LegendEntry>;
    /// Tolerances and caps the core exposes; returns whether something changed.
    fn settings_ui(&self, _ui: &mut egui::Ui, _settings: &mut PairSettings) -> bool {
        false
    }
    /// Per-iteration numbers for the Plots panel.
    fn series(&self, _run: &Analysis) -> Vec<Series> {
        Vec::new()
    }
}

/// A number on a label or a panel: the product's one readable form ([`crate::text::readable`]),
/// the same digits as the step sentences and the command line.
pub fn num(v: f32) -> String {
    crate::text::readable(v)
}

pub fn vec_str(v: glam::Vec2) -> String {
    crate::text::readable_pair(v.x, v.y)
}

/// The iteration cap and the stopping tolerance of an iterative algorithm, as editable
/// numbers. Returns whether either changed.
pub(super) fn loop_limits_ui(
    ui: &mut egui::Ui,
    max_iterations: &mut u32,
    tolerance_label: &str,
    tolerance: &mut f32,
) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        ui.label("max iterations");
        changed |= ui
            .add(
                egui::DragValue::new(max_iterations)
                    .range(1..=1000)
                    .update_while_editing(false),
            )
            .changed();
    });
    ui.horizontal(|ui| {
        ui.label(tolerance_label);
        changed |= ui
            .add(
                egui::DragValue::new(tolerance)
                    .range(1e-9..=1e-1)
                    .speed(1e-7)
                    .custom_formatter(|v, _| format!("{v:.1e}"))
                    // Typing "1e-5" must not run with "1" (clamped to 0.1) on the way.
                    .update_while_editing(false),
            )
            .changed();
    });
    changed
}
