//! SAT overlay at step k: every candidate axis as a faint line, the axis of step k ("current
//! axis", its own colour) through the pair with both bodies' projection intervals on it and
//! its overlap or gap labelled, and the best axis so far (the core's record of steps 1..k,
//! not the final answer) in the best-axis colour. The final state is the step of the best
//! axis.

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
        let k = step.unwrap_or_else(|| run.final_step(Algorithm::Sat));
        let Some(shown) = run.trace.sat.get(k) else {
            return;
        };
        let (a, b) = (&ctx.doc.bodies[run.a], &ctx.doc.bodies[run.b]);
        let center = 0.5 * (a.pose.position + b.pose.position);
        let reach = (a.shape.bounding_radius()
            + b.shape.bounding_radius()
            + 0.5 * (a.pose.position - b.pose.position).length())
            * 1.3;
        let through = |axis: &SatAxis, width: f32, color| {
            let d = axis.axis * reach;
            ctx.world.line(center - d, center + d, width, color);
        };
        for axis in &run.trace.sat {
            through(axis, 1.0, palette::with_alpha(palette::AXIS, 0.45));
        }
        // The best so far under the current axis, wider, so both show when they coincide.
        let best = run.trace.sat[..=k]
            .iter()
            .find(|s| s.source == shown.best_so_far);
        if let Some(best) = best {
            through(best, 5.0, palette::HIGHLIGHT);
        }
        through(shown, 2.0, palette::CURRENT_AXIS);
        let offset = side_offset(a, b, center, shown.axis);
        let is_best = shown.source == shown.best_so_far;
        draw_projection(ctx.world, shown, center, offset, is_best);
    }

    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry::new(palette::AXIS, "SAT axes"),
            LegendEntry::new(palette::CURRENT_AXIS, "current axis"),
            LegendEntry::new(palette::HIGHLIGHT, "best axis so far"),
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

/// Whether a world point lies inside the view shrunk by `margin` (world units).
fn in_view(w: &Painter, p: Vec2, margin: f32) -> bool {
    let (lo, hi) = w.camera.visible_world();
    p.cmpge(lo + Vec2::splat(margin)).all() && p.cmple(hi - Vec2::splat(margin)).all()
}

/// The side of the pair (unit, across the axis) and the distance from its centre at which
/// the projection line runs: `wanted` when the line's ends stay in the view, else the
/// largest distance that keeps them there (0 runs the line through the bodies).
fn place_line(w: &Painter, center: Vec2, u: Vec2, span: (f32, f32), wanted: f32) -> (Vec2, f32) {
    const TRIES: usize = 16;
    let margin = 70.0 / w.camera.zoom; // room for the intervals and labels beside the line
    let across = Vec2::new(-u.y, u.x);
    let fits = |side: Vec2, offset: f32| {
        let base = center + side * offset - u * center.dot(u);
        in_view(w, base + u * span.0, margin) && in_view(w, base + u * span.1, margin)
    };
    // Of the two sides, the one nearer the middle of the view first.
    let view = w.camera.center;
    let near = if (center + across - view).length() <= (center - across - view).length() {
        across
    } else {
        -across
    };
    for i in 0..TRIES {
        let offset = wanted * (1.0 - i as f32 / TRIES as f32);
        for side in [near, -near] {
            if fits(side, offset) {
                return (side, offset);
            }
        }
    }
    (near, 0.0)
}

/// Draws one axis beside the pair: a line parallel to the axis, offset sideways past both
/// bodies (or less, to stay inside the view: then it may run over the bodies), carrying the
/// two intervals and their overlap or gap. A world point x projects to `base + (x . u) u`
/// on it, so the intervals line up with the bodies they came from.
fn draw_projection(w: &Painter, axis: &SatAxis, center: Vec2, offset: f32, best: bool) {
    let u = axis.axis;
    let (lo_t, hi_t) = (
        axis.interval_a.min.min(axis.interval_b.min),
        axis.interval_a.max.max(axis.interval_b.max),
    );
    let margin = 0.3 * (hi_t - lo_t).max(0.5);
    let (side, offset) = place_line(w, center, u, (lo_t - margin, hi_t + margin), offset);
    let base = center + side * offset - u * center.dot(u);
    let at = |t: f32, lift: f32| base + u * t + side * lift;
    let lift = 14.0 / w.camera.zoom;
    w.arrow(
        at(lo_t - margin, 0.0),
        at(hi_t + margin, 0.0),
        2.0,
        palette::CURRENT_AXIS,
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
    let kind = if best {
        "current axis, best so far"
    } else {
        "current axis"
    };
    w.label(
        at(ia.min.min(ib.min), 2.5 * lift),
        Vec2::new(-10.0, -20.0),
        kind,
        palette::CURRENT_AXIS,
    );
}
