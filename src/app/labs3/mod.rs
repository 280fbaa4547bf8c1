//! The 3D labs: one per algorithm, as in 2D (`labs/`). Each draws, at the timeline's step,
//! what the core recorded for the focused pair, in the 3D view; none computes geometry
//! beyond placing a body's own vertices by its pose.

mod clip;
mod epa;
mod features;
mod gauss;
mod gjk;
mod minkowski;
mod sat;
mod sweep;

pub use features::{feature_points, BodyGeometry};
pub use gauss::draw_gauss_map;

use super::analysis3::Analysis3;
use super::draw::{LegendEntry, Painter};
use super::labs::Series;
use super::paint3::Painter3;
use super::state3::Document3;
use crate::query::Algorithm;
use crate::query3::simplex::SupportPoint3;
use glam::Vec3;
use macroquad::prelude::Color;
use std::cell::RefCell;

/// A label asked for at a world point: placed on the screen at the end of the frame by the
/// same placer as in 2D.
#[derive(Clone, Debug)]
pub struct Label3 {
    pub at: Vec3,
    pub text: String,
    pub color: Color,
    /// Larger: placed first, dropped last (`draw::LABEL_BODY`, ...).
    pub importance: u8,
}

/// What a 3D lab draws with: the painter, the document, the analysis and the step. The
/// same context serves both views: in [`Lab3::draw`] the painter draws the bodies, in
/// [`Lab3::draw_difference`] it draws A - B (the split view's right half or the inset).
pub struct Lab3Ctx<'a> {
    pub paint: &'a Painter3,
    pub doc: &'a Document3,
    pub run: &'a Analysis3,
    /// The step to draw; `None` draws the algorithm's answer (its final step).
    pub step: Option<usize>,
    pub labels: &'a RefCell<Vec<Label3>>,
    /// Drawn segments (world) the labels keep clear of where they can.
    pub keep_clear: &'a RefCell<Vec<[Vec3; 2]>>,
    /// The sweep's clock: the time in [0, sweep_time] at which the moving bodies are shown
    /// (`None`: not shown).
    pub sweep_time: Option<f32>,
}

impl Lab3Ctx<'_> {
    /// Asks for a label at a world point.
    pub fn label(&self, at: Vec3, text: impl Into<String>, color: Color, importance: u8) {
        self.labels.borrow_mut().push(Label3 {
            at,
            text: text.into(),
            color,
            importance,
        });
    }

    /// Asks the labels to keep clear of the drawn segment `a..b` (an arrow, an axis).
    pub fn keep_clear(&self, a: Vec3, b: Vec3) {
        self.keep_clear.borrow_mut().push([a, b]);
    }

    /// Whether a body of the focused pair is a sphere or a capsule: GJK and EPA then walk
    /// the cores' difference, and their labels say so.
    pub fn round_pair(&self) -> bool {
        [self.run.a, self.run.b]
            .into_iter()
            .any(|i| (self.doc.bodies.get(i)).is_some_and(|b| b.shape.as_polyhedron().is_none()))
    }

    /// The focused pair's bodies, placed.
    pub fn bodies(&self) -> Option<(BodyGeometry<'_>, BodyGeometry<'_>)> {
        let a = self.doc.bodies.get(self.run.a)?;
        let b = self.doc.bodies.get(self.run.b)?;
        Some((BodyGeometry::new(a), BodyGeometry::new(b)))
    }
}

/// One algorithm's picture in the 3D view.
pub trait Lab3 {
    fn algorithm(&self) -> Algorithm;
    fn name(&self) -> &'static str {
        self.algorithm().title()
    }
    /// What each colour means.
    fn legend(&self) -> Vec<LegendEntry>;
    /// Draws the step `ctx.step` (or the answer) on the bodies.
    fn draw(&self, ctx: &Lab3Ctx);
    /// Whether the lab draws in A - B (its overlay on opens the A - B inset).
    fn uses_difference(&self) -> bool {
        false
    }
    /// Whether the lab is a backdrop that stays drawn in A - B while another algorithm's
    /// timeline steps there (the Minkowski difference's own marks).
    fn is_backdrop(&self) -> bool {
        false
    }
    /// Every point of A - B the lab draws at any step, so that the A - B view frames them
    /// all and holds still while stepping.
    fn difference_points(&self, _run: &Analysis3, _keep: &mut dyn FnMut(Vec3)) {}
    /// Draws the step `ctx.step` (or the answer) in A - B; `ctx.paint` is that view's.
    fn draw_difference(&self, _ctx: &Lab3Ctx) {}
    /// The support point found at `step` (`None`: the answer), with its sources on A and B
    /// (world): the split view links them to the point in A - B, so that w = a - b shows.
    fn support_point(&self, _run: &Analysis3, _step: Option<usize>) -> Option<SupportPoint3> {
        None
    }
    /// Per-iteration numbers for the Plots panel.
    fn series(&self, _run: &Analysis3) -> Vec<Series> {
        Vec::new()
    }
    /// Draws the lab's cards on the screen over the bodies' view (after the 3D pass,
    /// `flat` in screen pixels; `ctx.paint` still names the bodies' camera).
    fn draw_cards(&self, _ctx: &Lab3Ctx, _flat: &Painter) {}
    /// Whether the lab's card takes the canvas's upper-left corner (no inset goes there).
    fn holds_top_left(&self, _ctx: &Lab3Ctx) -> bool {
        false
    }
}

/// The step `k` of `steps`, or the last when `k` is `None` (the answer).
pub fn step_or_last<S>(steps: &[S], k: Option<usize>) -> Option<&S> {
    k.map_or(steps.last(), |k| steps.get(k))
}

/// A closed polygon's outline, drawn over the bodies.
pub fn outline(ctx: &Lab3Ctx, points: &[Vec3], width: f32, color: Color) {
    for (k, p) in points.iter().enumerate() {
        let q = points[(k + 1) % points.len()];
        ctx.paint.line_on_top(*p, q, width, color);
    }
}

/// Every 3D lab, in the Algorithms panel's order ([`Algorithm::ALL`]'s).
pub fn registry() -> Vec<Box<dyn Lab3>> {
    vec![
        Box::new(minkowski::MinkowskiLab3),
        Box::new(gjk::GjkLab3),
        Box::new(epa::EpaLab3),
        Box::new(sat::SatLab),
        Box::new(clip::ClipLab),
        Box::new(sweep::SweepLab3),
    ]
}

pub use super::analysis3::DRAWN_3D;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_draws_exactly_the_listed_algorithms() {
        let drawn: Vec<Algorithm> = registry().iter().map(|l| l.algorithm()).collect();
        assert_eq!(drawn, DRAWN_3D);
        for lab in registry() {
            assert!(!lab.legend().is_empty(), "{}", lab.name());
        }
    }
}
