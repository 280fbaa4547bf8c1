//! SAT overlay: every candidate axis as a faint line, the selected axis with both bodies'
//! projection intervals on it and the overlap or gap labelled, the best axis highlighted.

use super::lab::{num, Lab, LabCtx};
use crate::app::draw::{palette, LegendEntry, Painter};
use crate::query::sat::SatAxis;
use crate::query::Algorithm;
use crate::scene::SceneBody;
use glam::Vec2;

pub struct SatLab;

impl Lab for SatLab {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Sat
    }

    fn draw(&self, ctx: &LabCtx, step: Option<usize>) {
        let run = ctx.run;
        let (a, b) = (&ctx.doc.bodies[run.a], &ctx.doc.bodies[run.b]);
        let center = 0.5 * (a.pose.position + b.pose.position);
        let reach = a.shape.bounding_radius()
            + b.shape.bounding_radius()
            + 0.5 * (a.pose.position - b.pose.position).length();
        for axis in &run.trace.sat {
            let color = palette::with_alpha(palette::AXIS, 0.45);
            let d = axis.axis * reach * 1.3;
            ctx.world.line(center - d, center + d, 1.0, color);
        }
        let best = run.query.sat.best;
        let d = best.axis * reach * 1.3;
        ctx.world.line(
            center - d,
            center + d,
            2.5,
            palette::with_alpha(palette::HIGHLIGHT, 0.8),
        );
        let shown = step.and_then(|k| run.trace.sat.get(k)).unwrap_or(&best);
        let offset = side_offset(a, b, center, shown.axis);
        draw_projection(
            ctx.world,
            shown,
            center,
            offset,
            shown.source == best.source,
        );
    }

    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry::new(palette::AXIS, "SAT axes"),
            LegendEntry::new(palette::HIGHLIGHT, "best axis"),
            LegendEntry::new(palette::BODY_A, "A's interval"),
            LegendEntry::new(palette::BODY_B, "B's interval"),
            LegendEntry::new(palette::RESULT, "overlap"),
            LegendEntry::new(palette::GAP, "gap"),
        ]
    }
}

/// How far beside the pair's centre the projection line runs: just past both bodies,
/// measured across the axis.
fn side_offset(a: &SceneBody, b: &SceneBody, center: Vec2, u: Vec2) -> f32 {
    let side = Vec2::new(-u.y, u.x);
    [a, b]
        .iter()
        .map(|body| (body.pose.position - center).dot(side).abs() + body.shape.bounding_radius())
        .fold(0.0, f32::max)
        * 1.1
}

/// Draws one axis beside the pair: a line parallel to the axis, offset sideways past both
/// bodies, carrying the two intervals and their overlap or gap. A world point x projects to
/// `base + (x . u) u` on it, so the intervals line up with the bodies they came from.
fn draw_projection(w: &Painter, axis: &SatAxis, center: Vec2, offset: f32, best: bool) {
    let u = axis.axis;
    // Of the two sides of the pair, the one nearer the middle of the view has more room.
    let side = Vec2::new(-u.y, u.x);
    let view = w.camera.center;
    let side =
        if (center + side * offset - view).length() > (center - side * offset - view).length() {
            -side
        } else {
            side
        };
    let base = center + side * offset - u * center.dot(u);
    let at = |t: f32, lift: f32| base + u * t + side * lift;
    let lift = 14.0 / w.camera.zoom;
    let line_color = if best {
        palette::HIGHLIGHT
    } else {
        palette::AXIS
    };
    let (lo_t, hi_t) = (
        axis.interval_a.min.min(axis.interval_b.min),
        axis.interval_a.max.max(axis.interval_b.max),
    );
    let margin = 0.3 * (hi_t - lo_t).max(0.5);
    w.arrow(
        at(lo_t - margin, 0.0),
        at(hi_t + margin, 0.0),
        2.0,
        line_color,
    );
    let (ia, ib) = (axis.interval_a, axis.interval_b);
    w.line(at(ia.min, lift), at(ia.max, lift), 6.0, palette::BODY_A);
    w.line(at(ib.min, -lift), at(ib.max, -lift), 6.0, palette::BODY_B);
    for (t, l, c) in [
        (ia.min, lift, palette::BODY_A),
        (ia.max, lift, palette::BODY_A),
        (ib.min, -lift, palette::BODY_B),
        (ib.max, -lift, palette::BODY_B),
    ] {
        w.dashed(at(t, l), at(t, 0.0), 1.0, c);
    }
    let (lo, hi) = (ia.min.max(ib.min), ia.max.min(ib.max));
    let (color, text) = if axis.separates() {
        (palette::GAP, format!("gap {}", num(-axis.overlap)))
    } else {
        (palette::RESULT, format!("overlap {}", num(axis.overlap)))
    };
    w.line(at(lo.min(hi), 0.0), at(lo.max(hi), 0.0), 5.0, color);
    let label_at = at(0.5 * (lo + hi), -3.0 * lift);
    w.label(label_at, Vec2::new(-20.0, 0.0), &text, color);
    let kind = if best { "best axis" } else { "axis" };
    w.label(
        at(ia.min.min(ib.min), 2.5 * lift),
        Vec2::new(-10.0, -20.0),
        kind,
        line_color,
    );
}
