//! What the shared panels need from a workspace, as small traits. The 2D workspace
//! implements them today; a 3D workspace (its own analysis, camera and labs) implements the
//! same traits and gets the Algorithms, Timeline and Plots panels without copying them.
//! The timeline's trait lives in [`super::timeline`], beside the model, because it draws
//! nothing.

use super::draw::LegendEntry;
use super::labs::Series;
use crate::query::Algorithm;
use egui_macroquad::egui;

pub use super::timeline::TimelineModel;

/// One row of the Algorithms panel.
pub struct AlgorithmRow {
    pub algorithm: Algorithm,
    pub name: &'static str,
    pub on: bool,
    pub legend: Vec<LegendEntry>,
}

/// The Algorithms panel: each overlay on or off, its colours, its settings.
pub trait AlgorithmsModel {
    fn algorithm_rows(&self) -> Vec<AlgorithmRow>;
    fn enable(&mut self, a: Algorithm, on: bool);
    /// The algorithm's tolerances and caps; returns whether something changed.
    fn settings_ui(&mut self, ui: &mut egui::Ui, a: Algorithm) -> bool;
}

/// The Plots panel: per-iteration series and the iteration the timeline shows.
pub trait PlotsModel {
    /// Every lab's series, `None` when there is nothing analysed.
    fn series(&self) -> Option<Vec<Series>>;
    fn selected_iteration(&self) -> Option<f64>;
}
