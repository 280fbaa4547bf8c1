//! SAT in 3D: at each step the axis through the pair, both bodies' projection intervals as
//! bars along it with the overlap or gap, the axis's sources on the bodies (a face and its
//! normal, or one edge of each with their cross product), and the best axis so far.

use super::{outline, BodyGeometry, Lab3, Lab3Ctx};
use crate::app::draw::{palette, LegendEntry, LABEL_DETAIL};
use crate::query::{Algorithm, Interval};
use crate::query3::sat::{AxisId, AxisTest, SkipReason, Step};
use crate::text::readable;
use glam::Vec3;

pub struct SatLab;

impl Lab3 for SatLab {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Sat
    }

    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry::new(palette::CURRENT_AXIS, "the step's axis"),
            LegendEntry::new(palette::HIGHLIGHT, "best axis so far, the step's features"),
            LegendEntry::new(palette::BODY_A, "A's projection"),
            LegendEntry::new(palette::BODY_B, "B's projection"),
            LegendEntry::new(palette::RESULT, "overlap"),
            LegendEntry::new(palette::GAP, "gap"),
        ]
    }

    fn draw(&self, ctx: &Lab3Ctx) {
        let run = ctx.run;
        let Some(k) = ctx.step.or_else(|| run.best_sat_step()) else {
            return;
        };
        let Some(step) = run.trace.sat.get(k) else {
            return;
        };
        let Some((a, b)) = ctx.bodies() else {
            return;
        };
        if let Some(best) = run.best_sat_step_until(k).filter(|&i| i != k) {
            if let Some(Step::Axis(t)) = run.trace.sat.get(best) {
                draw_axis_line(ctx, &a, &b, t, palette::HIGHLIGHT, "best so far");
            }
        }
        match step {
            Step::Axis(t) => {
                draw_sources(ctx, &a, &b, t);
                draw_axis_line(ctx, &a, &b, t, palette::CURRENT_AXIS, "");
                draw_projections(ctx, &a, &b, t);
            }
            Step::Skipped {
                edge_a,
                edge_b,
                reason,
            } => draw_skipped(ctx, &a, &b, *edge_a, *edge_b, *reason),
            Step::GaussMapPruned { edge_a, count } => {
                if let Some(e) = a.edge(*edge_a) {
                    ctx.paint.line_on_top(e[0], e[1], 5.0, palette::OTHER);
                    ctx.label(
                        0.5 * (e[0] + e[1]),
                        format!("edge {edge_a} of A: {count} edges of B ruled out"),
                        palette::TEXT,
                        LABEL_DETAIL + 1,
                    );
                }
            }
        }
    }
}

/// Where the axis line runs: through the middle of the pair, beside nothing in particular
/// (the projections are read along it).
fn axis_origin(a: &BodyGeometry, b: &BodyGeometry) -> Vec3 {
    0.5 * (a.center() + b.center())
}

/// The pair's size, for the length of drawn axes.
fn pair_reach(a: &BodyGeometry, b: &BodyGeometry) -> f32 {
    let r = a.body.shape.bounding_radius() + b.body.shape.bounding_radius();
    r + (a.center() - b.center()).length() * 0.5
}

fn draw_axis_line(
    ctx: &Lab3Ctx,
    a: &BodyGeometry,
    b: &BodyGeometry,
    t: &AxisTest,
    color: macroquad::prelude::Color,
    text: &str,
) {
    // Along the span of both projections, and a little beyond.
    let o = axis_origin(a, b);
    let (lo, hi) = (
        t.interval_a.min.min(t.interval_b.min),
        t.interval_a.max.max(t.interval_b.max),
    );
    let margin = 0.15 * (hi - lo).max(1e-6);
    let at = |value: f32| o + t.axis * (value - t.axis.dot(o));
    let (start, end) = (at(lo - margin), at(hi + margin));
    ctx.paint.line_on_top(start, end, 2.0, color);
    ctx.paint.arrow(end, at(hi + 2.0 * margin), 2.0, color);
    if !text.is_empty() {
        ctx.label(end, text, color, LABEL_DETAIL);
    }
}

/// The projection intervals as bars along the axis, beside the axis line (A's and B's side
/// by side), and the overlap or gap between them.
fn draw_projections(ctx: &Lab3Ctx, a: &BodyGeometry, b: &BodyGeometry, t: &AxisTest) {
    let o = axis_origin(a, b);
    let axis = t.axis;
    // A direction square to the axis, turned toward the viewer, to set the bars apart.
    let view = ctx.paint.camera.forward();
    let mut side = axis.cross(view);
    if side.length_squared() < 1e-8 {
        side = axis.any_orthonormal_vector();
    }
    let side = side.normalize();
    let gap = pair_reach(a, b) * 0.04;
    let at = |value: f32, offset: f32| o + axis * (value - axis.dot(o)) + side * offset;
    let bar = |i: &Interval, offset: f32, color| {
        ctx.paint
            .line_on_top(at(i.min, offset), at(i.max, offset), 6.0, color);
    };
    bar(&t.interval_a, gap, palette::BODY_A);
    bar(&t.interval_b, 2.0 * gap, palette::BODY_B);
    let (lo, hi) = if t.separation > 0.0 {
        (t.interval_a.max, t.interval_b.min)
    } else {
        (t.interval_b.min, t.interval_a.max)
    };
    let (color, text) = if t.separation > 0.0 {
        (palette::GAP, format!("gap {}", readable(t.separation)))
    } else {
        (
            palette::RESULT,
            format!("overlap {}", readable(-t.separation)),
        )
    };
    let (p, q) = (at(lo, 3.0 * gap), at(hi, 3.0 * gap));
    ctx.paint.line_on_top(p, q, 4.0, color);
    ctx.label(0.5 * (p + q), text, color, LABEL_DETAIL + 1);
}

/// The step's sources: a face and its normal, or two edges and their cross product.
fn draw_sources(ctx: &Lab3Ctx, a: &BodyGeometry, b: &BodyGeometry, t: &AxisTest) {
    let highlight = palette::HIGHLIGHT;
    let face = |body: &BodyGeometry, i: u32, name: &str| {
        if let Some(points) = body.face(i) {
            ctx.paint
                .polygon(&points, palette::with_alpha(highlight, 0.22));
            outline(ctx, &points, 2.5, highlight);
            let c = points.iter().copied().sum::<Vec3>() / points.len() as f32;
            if let Some(n) = body.face_normal(i) {
                let length = pair_reach(a, b) * 0.3;
                ctx.paint.arrow(c, c + n * length, 2.5, highlight);
            }
            ctx.label(
                c,
                format!("face {i} of {name}"),
                highlight,
                LABEL_DETAIL + 1,
            );
        }
    };
    match t.id {
        AxisId::FaceA(i) => face(a, i, "A"),
        AxisId::FaceB(j) => face(b, j, "B"),
        AxisId::Edges(i, j) => {
            let ea = edge_with_label(ctx, a, i, "A");
            let eb = edge_with_label(ctx, b, j, "B");
            if let (Some(ea), Some(eb)) = (ea, eb) {
                // The cross product, drawn from the middle between the two edges.
                let m = 0.25 * (ea[0] + ea[1] + eb[0] + eb[1]);
                let length = pair_reach(a, b) * 0.35;
                ctx.paint
                    .arrow(m, m + t.axis * length, 2.5, palette::CURRENT_AXIS);
                ctx.label(
                    m + t.axis * length,
                    format!("edge {i} × edge {j}"),
                    palette::CURRENT_AXIS,
                    LABEL_DETAIL + 1,
                );
            }
        }
        AxisId::Closest => {
            let (ca, cb) = (a.core(), b.core());
            for (core, color) in [(ca, palette::BODY_A), (cb, palette::BODY_B)] {
                for p in core {
                    ctx.paint.dot(p, 4.0, color);
                }
            }
        }
    }
}

/// Edge `i` of a body, thick, with its name; its ends.
fn edge_with_label(ctx: &Lab3Ctx, body: &BodyGeometry, i: u32, name: &str) -> Option<[Vec3; 2]> {
    let e = body.edge(i)?;
    ctx.paint.line_on_top(e[0], e[1], 5.0, palette::HIGHLIGHT);
    ctx.label(
        0.5 * (e[0] + e[1]),
        format!("edge {i} of {name}"),
        palette::HIGHLIGHT,
        LABEL_DETAIL + 1,
    );
    Some(e)
}

/// A skipped edge pair: both edges, dashed, and why it gives no axis.
fn draw_skipped(
    ctx: &Lab3Ctx,
    a: &BodyGeometry,
    b: &BodyGeometry,
    i: u32,
    j: u32,
    reason: SkipReason,
) {
    let why = match reason {
        SkipReason::Parallel => "parallel: no axis",
        SkipReason::GaussMap => "arcs do not cross: no axis",
    };
    let mut mids = Vec::new();
    for (body, k, name) in [(a, i, "A"), (b, j, "B")] {
        if let Some(e) = body.edge(k) {
            ctx.paint.dashed(e[0], e[1], 4.0, palette::OTHER);
            ctx.paint
                .line_on_top(e[0], e[1], 2.0, palette::with_alpha(palette::TEXT, 0.6));
            let m = 0.5 * (e[0] + e[1]);
            ctx.label(
                m,
                format!("edge {k} of {name}"),
                palette::TEXT,
                LABEL_DETAIL,
            );
            mids.push(m);
        }
    }
    if let [p, q] = mids[..] {
        ctx.paint
            .dashed(p, q, 1.5, palette::with_alpha(palette::TEXT, 0.5));
        ctx.label(0.5 * (p + q), why, palette::TEXT, LABEL_DETAIL + 1);
    }
}
