//! The Minkowski difference A - B, drawn in the inset around its origin: the shapes overlap
//! exactly when it contains the origin.

use super::lab::{Lab, LabCtx};
use crate::app::analysis::Analysis;
use crate::app::draw::{palette, LegendEntry};
use crate::query::Algorithm;
use glam::Vec2;

pub struct MinkowskiLab;

impl Lab for MinkowskiLab {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Minkowski
    }

    fn uses_inset(&self) -> bool {
        true
    }

    /// The inset frames A - B whether or not this overlay is on.
    fn inset_points(&self, run: &Analysis, keep: &mut dyn FnMut(Vec2)) {
        run.minkowski.iter().for_each(|p| keep(*p));
    }

    /// The picture behind the other inset overlays: drawn even while another algorithm's
    /// timeline steps through the inset.
    fn is_backdrop(&self) -> bool {
        true
    }

    fn draw(&self, ctx: &LabCtx, _step: Option<usize>) {
        let outline = &ctx.run.minkowski;
        let p = ctx.inset;
        p.fill_convex(outline, palette::with_alpha(palette::MINKOWSKI, 0.15));
        p.outline(outline, 2.0, palette::MINKOWSKI);
    }

    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry::new(palette::MINKOWSKI, "A - B"),
            LegendEntry::new(palette::ORIGIN, "origin of A - B"),
        ]
    }
}
