//! Swept SAT in 3D, on the bodies: the moving bodies' ghosts at t_first (with the contact
//! points there) and at t_last, where each moving body ends at the sweep time, the bodies
//! at the time the slider or play shows (the Swept SAT section of the Algorithms panel), and
//! at the timeline's step the axis it tested with both projection intervals at t = 0, or
//! (round shapes) the bodies where a Newton step stood. Beside them, in the canvas's
//! corner, the chart of every axis's time interval, the step's row highlighted, as in 2D,
//! and for round shapes the Newton steps as points on a distance-over-time chart.

use super::{Lab3, Lab3Ctx};
use crate::app::draw::{palette, LegendEntry, Painter, LABEL_DETAIL, LABEL_ORIGIN};
use crate::app::labs::num;
use crate::app::labs::time_chart::{
    draw_newton_chart, draw_time_chart, ChartRow, ChartTimes, NewtonPoint,
};
use crate::app::paint3::FaceMesh;
use crate::geom3::Pose3;
use crate::query::Algorithm;
use crate::query3::sweep::{NewtonStep, Step, SweepAxis};
use crate::scene::SceneBody3;
use glam::Vec3;
use macroquad::prelude::Color;

pub struct SweepLab3;

impl Lab3 for SweepLab3 {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Sweep
    }

    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry::new(palette::AXIS, "where the sweep ends"),
            LegendEntry::new(palette::RESULT, "at t_first, contact points"),
            LegendEntry::new(palette::GAP, "at t_last"),
            LegendEntry::new(palette::SEARCH, "the step's axis and time"),
        ]
    }

    fn draw(&self, ctx: &Lab3Ctx) {
        let Some(out) = ctx.run.query.sweep else {
            return;
        };
        let doc = ctx.doc;
        let (Some(a), Some(b)) = (doc.bodies.get(ctx.run.a), doc.bodies.get(ctx.run.b)) else {
            return;
        };
        let t_max = doc.meta.sweep_time();
        for body in [a, b] {
            ghost(
                ctx,
                body,
                t_max,
                palette::with_alpha(palette::AXIS, 0.7),
                None,
            );
        }
        if let Some(t) = out.t_last {
            for body in [a, b] {
                ghost(ctx, body, t, palette::with_alpha(palette::GAP, 0.9), None);
            }
        }
        if let Some(t) = out.t_first {
            ghost(ctx, a, t, palette::RESULT, None);
            ghost(
                ctx,
                b,
                t,
                palette::RESULT,
                Some(format!("t_first = {}", num(t))),
            );
            for c in out.manifold.iter().flat_map(|m| m.points.iter()) {
                ctx.paint.dot(c.point, 5.0, palette::RESULT);
            }
        }
        if let Some(t) = ctx.sweep_time {
            moving_bodies(ctx, [a, b], t);
        }
        if let Some(axis) = ctx.step.and_then(|k| axis_step(ctx, k)) {
            draw_axis(ctx, a, b, axis);
        }
        if let Some(n) = ctx.step.and_then(|k| newton_step(ctx, k)) {
            draw_newton(ctx, [a, b], n);
        }
    }

    fn draw_cards(&self, ctx: &Lab3Ctx, flat: &Painter) {
        let rows: Vec<ChartRow> = (0..ctx.run.trace.sweep.len())
            .filter_map(|k| {
                let a = axis_step(ctx, k)?;
                Some(ChartRow {
                    t_enter: a.t_enter,
                    t_exit: a.t_exit,
                    selected: ctx.step == Some(k),
                })
            })
            .collect();
        let out = ctx.run.query.sweep;
        let times = ChartTimes {
            t_max: ctx.doc.meta.sweep_time(),
            t_first: out.and_then(|o| o.t_first),
            t_last: out.and_then(|o| o.t_last),
            shown: ctx.sweep_time,
        };
        let c = &ctx.paint.camera;
        let bottom = draw_time_chart(flat, (c.origin, c.size), &rows, times);
        let points: Vec<NewtonPoint> = (0..ctx.run.trace.sweep.len())
            .filter_map(|k| {
                let n = newton_step(ctx, k)?;
                Some(NewtonPoint {
                    t: n.t,
                    distance: n.distance,
                    first: n.first,
                    selected: ctx.step == Some(k),
                })
            })
            .collect();
        let top = bottom.map_or(c.origin.y, |y| y + flat.px(28.0)) + flat.px(10.0);
        let at = glam::Vec2::new(c.origin.x + flat.px(10.0), top);
        draw_newton_chart(flat, at, c.size.x, &points, times.t_max);
    }

    fn holds_top_left(&self, ctx: &Lab3Ctx) -> bool {
        ctx.run.query.sweep.is_some()
            && (0..ctx.run.trace.sweep.len()).any(|k| axis_step(ctx, k).is_some())
    }
}

/// At a Newton step: both moving bodies at the step's time, ghosted in the step's colour,
/// and the direction between the cores there with the distance.
fn draw_newton(ctx: &Lab3Ctx, bodies: [&SceneBody3; 2], n: &NewtonStep) {
    for body in bodies {
        ghost(ctx, body, n.t, palette::SEARCH, None);
    }
    let mover = if moves(bodies[1]) {
        bodies[1]
    } else {
        bodies[0]
    };
    let text = format!(
        "Newton step: t = {}, distance {}",
        num(n.t),
        num(n.distance)
    );
    ctx.label(
        pose_at(mover, n.t).position,
        text,
        palette::SEARCH,
        LABEL_ORIGIN,
    );
}

/// Step `k` of the sweep when it tested an axis.
fn axis_step<'a>(ctx: &Lab3Ctx<'a>, k: usize) -> Option<&'a SweepAxis> {
    ctx.run.trace.sweep.get(k)?.axis()
}

/// Step `k` of the sweep when it was a Newton step (round shapes).
fn newton_step<'a>(ctx: &Lab3Ctx<'a>, k: usize) -> Option<&'a NewtonStep> {
    match ctx.run.trace.sweep.get(k)? {
        Step::Refine(n) => Some(n),
        Step::Axis(_) => None,
    }
}

/// Where a body is at time `t` of the sweep: moved by its velocity, not turned.
fn pose_at(body: &SceneBody3, t: f32) -> Pose3 {
    let v = body.velocity.unwrap_or(Vec3::ZERO);
    Pose3::new(body.pose.position + v * t, body.pose.rotation)
}

fn moves(body: &SceneBody3) -> bool {
    body.velocity.is_some_and(|v| v != Vec3::ZERO)
}

/// A moving body's outline at time `t`, dashed.
fn ghost(ctx: &Lab3Ctx, body: &SceneBody3, t: f32, color: Color, label: Option<String>) {
    if !moves(body) {
        return;
    }
    let mesh = FaceMesh::of_shape(body.shape.as_ref(), &pose_at(body, t));
    for [p, q] in &mesh.edges {
        ctx.paint.dashed(*p, *q, 2.0, color);
    }
    if let Some(text) = label {
        ctx.label(pose_at(body, t).position, text, color, LABEL_ORIGIN);
    }
}

/// The moving bodies at time `t`, filled in their pair colours, with the time beside them.
fn moving_bodies(ctx: &Lab3Ctx, bodies: [&SceneBody3; 2], t: f32) {
    for (body, role) in bodies.into_iter().zip([palette::BODY_A, palette::BODY_B]) {
        if !moves(body) {
            continue;
        }
        // The colour the body itself is drawn in (the scene's, or its role's).
        let color = body.color.map_or(role, palette::from_rgb);
        let mesh = FaceMesh::of_shape(body.shape.as_ref(), &pose_at(body, t));
        ctx.paint.translucent(&mesh, color, 0.3);
        ctx.paint.edges(&mesh, 2.5, color);
    }
    let mover = if moves(bodies[1]) {
        bodies[1]
    } else {
        bodies[0]
    };
    ctx.label(
        pose_at(mover, t).position,
        format!("t = {}", num(t)),
        palette::TEXT,
        LABEL_ORIGIN,
    );
}

/// The step's axis through the middle of the pair, with A's and B's projections at t = 0 as
/// bars along it (A's wider, under B's), and when B's interval enters and leaves A's.
fn draw_axis(ctx: &Lab3Ctx, a: &SceneBody3, b: &SceneBody3, s: &SweepAxis) {
    let o = 0.5 * (a.pose.position + b.pose.position);
    let at = |value: f32| o + s.axis * (value - s.axis.dot(o));
    let (ia, ib) = (s.interval_a, s.interval_b);
    let (lo, hi) = (ia.min.min(ib.min), ia.max.max(ib.max));
    let margin = 0.15 * (hi - lo).max(1e-6);
    let p = ctx.paint;
    p.line_on_top(at(lo - margin), at(hi + margin), 1.5, palette::SEARCH);
    p.arrow(at(hi + margin), at(hi + 2.0 * margin), 2.0, palette::SEARCH);
    ctx.keep_clear(at(lo - margin), at(hi + 2.0 * margin));
    p.line_on_top(
        at(ia.min),
        at(ia.max),
        7.0,
        palette::with_alpha(palette::BODY_A, 0.6),
    );
    p.line_on_top(at(ib.min), at(ib.max), 3.5, palette::BODY_B);
    let when = if s.t_enter <= s.t_exit {
        format!(
            "B's interval meets A's for t in [{}, {}]",
            num(s.t_enter),
            num(s.t_exit)
        )
    } else {
        "B's interval never meets A's".to_string()
    };
    ctx.label(
        at(hi + 2.0 * margin),
        when,
        palette::SEARCH,
        LABEL_DETAIL + 1,
    );
}
