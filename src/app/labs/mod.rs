//! One lab per algorithm: its overlay (drawn from the core's recorded steps), its legend,
//! its settings panel, its timeline length and sentences, its plot series. The window holds
//! the registry and loops over it, like the egui demo app's list of demos.

mod clip;
mod epa;
mod gjk;
mod minkowski;
mod sat;
mod sweep;

use super::analysis::{Analysis, PairSettings};
use super::draw::{LegendEntry, Painter};
use super::state::Document;
use crate::scene::Overlay;
use egui_macroquad::egui;

/// What a lab draws with.
pub struct LabCtx<'a> {
    pub doc: &'a Document,
    pub run: &'a Analysis,
    /// The world canvas.
    pub world: &'a Painter,
    /// The inset that shows the Minkowski difference A - B around its origin.
    pub inset: &'a Painter,
}

/// A series for the Plots panel: (iteration, value) points.
pub struct Series {
    pub name: String,
    pub color: macroquad::prelude::Color,
    pub points: Vec<[f64; 2]>,
}

pub trait Lab {
    fn overlay(&self) -> Overlay;
    fn name(&self) -> &'static str;
    /// Whether the overlay draws in the A - B inset.
    fn uses_inset(&self) -> bool {
        false
    }
    /// How many steps the timeline has (0: nothing to step through).
    fn step_count(&self, run: &Analysis) -> usize;
    /// The step that shows the algorithm's answer, drawn when no step is selected: the
    /// last one by default.
    fn final_step(&self, run: &Analysis) -> usize {
        self.step_count(run).saturating_sub(1)
    }
    /// The teaching sentence for step `step` (< `step_count`).
    fn explain(&self, run: &Analysis, step: usize) -> String;
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

/// Every lab, in the order of the Algorithms panel and of drawing.
pub fn registry() -> Vec<Box<dyn Lab>> {
    vec![
        Box::new(minkowski::MinkowskiLab),
        Box::new(sat::SatLab),
        Box::new(gjk::GjkLab),
        Box::new(epa::EpaLab),
        Box::new(clip::ClipLab),
        Box::new(sweep::SweepLab),
    ]
}

/// The overlays on when a scene does not say.
pub const DEFAULT_OVERLAYS: [Overlay; 3] = [Overlay::Minkowski, Overlay::Gjk, Overlay::Epa];

/// A name for an overlay in menus, files and `--step` arguments.
pub fn overlay_key(o: Overlay) -> &'static str {
    match o {
        Overlay::Minkowski => "minkowski",
        Overlay::Gjk => "gjk",
        Overlay::Epa => "epa",
        Overlay::Sat => "sat",
        Overlay::Clip => "clip",
        Overlay::Sweep => "sweep",
    }
}

pub fn overlay_from_key(key: &str) -> Option<Overlay> {
    Overlay::ALL
        .into_iter()
        .find(|o| overlay_key(*o).eq_ignore_ascii_case(key))
}

/// Formats a number for labels: 3 decimals, no trailing zeros noise beyond that.
pub fn num(v: f32) -> String {
    if v.abs() < 5e-4 {
        "0".into()
    } else {
        format!("{v:.3}")
    }
}

pub fn vec_str(v: glam::Vec2) -> String {
    format!("({}, {})", num(v.x), num(v.y))
}

/// The iteration cap and the stopping tolerance of an iterative algorithm, as editable
/// numbers. Returns whether either changed.
fn loop_limits_ui(
    ui: &mut egui::Ui,
    max_iterations: &mut u32,
    tolerance_label: &str,
    tolerance: &mut f32,
) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        ui.label("max iterations");
        changed |= ui
            .add(egui::DragValue::new(max_iterations).range(1..=1000))
            .changed();
    });
    ui.horizontal(|ui| {
        ui.label(tolerance_label);
        changed |= ui
            .add(
                egui::DragValue::new(tolerance)
                    .range(1e-9..=1e-1)
                    .speed(1e-7)
                    .custom_formatter(|v, _| format!("{v:.1e}")),
            )
            .changed();
    });
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::examples;

    #[test]
    fn every_lab_has_a_name_a_key_and_a_legend() {
        let labs = registry();
        for lab in &labs {
            assert!(!lab.name().is_empty());
            assert_eq!(
                overlay_from_key(overlay_key(lab.overlay())),
                Some(lab.overlay())
            );
            assert!(!lab.legend().is_empty(), "{} has no legend", lab.name());
        }
        let mut keys: Vec<_> = labs.iter().map(|l| overlay_key(l.overlay())).collect();
        keys.dedup();
        assert_eq!(keys.len(), labs.len());
    }

    #[test]
    fn every_step_of_the_welcome_scene_has_a_sentence() {
        let doc = Document::parse(examples::welcome(), "welcome").unwrap();
        let run = Analysis::run(&doc, &PairSettings::default()).unwrap();
        for lab in registry() {
            for k in 0..lab.step_count(&run) {
                assert!(
                    !lab.explain(&run, k).trim().is_empty(),
                    "{} step {k}",
                    lab.name()
                );
            }
        }
    }
}
