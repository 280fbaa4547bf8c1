//! The Minkowski difference A - B in 3D: the A - B view draws its hull and the origin for
//! every lab that draws there; this lab, the backdrop, adds the origin's nearest point of
//! the boundary and what it means (the distance when the origin is outside, the
//! penetration depth when inside), so that GJK's and EPA's answers can be read off it.

use super::{Lab3, Lab3Ctx};
use crate::app::draw::{palette, LegendEntry, LABEL_ORIGIN};
use crate::app::labs::num;
use crate::query::Algorithm;
use glam::Vec3;

pub struct MinkowskiLab3;

impl Lab3 for MinkowskiLab3 {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Minkowski
    }

    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry::new(palette::MINKOWSKI, "A - B"),
            LegendEntry::new(palette::ORIGIN, "origin O"),
            LegendEntry::new(palette::GAP, "O to the nearest boundary point"),
        ]
    }

    fn uses_difference(&self) -> bool {
        true
    }

    fn is_backdrop(&self) -> bool {
        true
    }

    /// A - B is drawn in its own view; the bodies get nothing from it.
    fn draw(&self, _ctx: &Lab3Ctx) {}

    fn draw_difference(&self, ctx: &Lab3Ctx) {
        let Ok(d) = ctx.run.difference(ctx.doc) else {
            return;
        };
        let o = d.difference.origin;
        let p = ctx.paint;
        p.dashed(Vec3::ZERO, o.point, 2.0, palette::GAP);
        p.dot(o.point, 4.0, palette::GAP);
        let about = if d.difference.exact { "" } else { "about " };
        let text = if o.contains_origin {
            format!(
                "O inside: {about}{} to the boundary (depth)",
                num(o.distance)
            )
        } else {
            format!("O outside: {about}{} away (distance)", num(o.distance))
        };
        ctx.label(o.point, text, palette::GAP, LABEL_ORIGIN);
    }
}
