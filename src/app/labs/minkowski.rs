//! The Minkowski difference A - B, drawn in the inset around its origin: the shapes overlap
//! exactly when it contains the origin.

use super::{Lab, LabCtx};
use crate::app::analysis::Analysis;
use crate::app::draw::{palette, LegendEntry};
use crate::scene::Overlay;

pub struct MinkowskiLab;

impl Lab for MinkowskiLab {
    fn overlay(&self) -> Overlay {
        Overlay::Minkowski
    }

    fn name(&self) -> &'static str {
        "Minkowski A - B"
    }

    fn uses_inset(&self) -> bool {
        true
    }

    fn step_count(&self, _run: &Analysis) -> usize {
        0
    }

    fn explain(&self, _run: &Analysis, _step: usize) -> String {
        String::new()
    }

    fn draw(&self, ctx: &LabCtx, _step: Option<usize>) {
        let Some(outline) = &ctx.run.minkowski else {
            return;
        };
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
