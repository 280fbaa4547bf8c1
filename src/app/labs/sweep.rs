//! Swept SAT overlay: the swept path, ghost outlines at the time of first contact (and of
//! last contact), and a chart of every axis's time interval against [0, t_max].

use super::lab::{num, Lab, LabCtx};
use crate::app::analysis::Analysis;
use crate::app::draw::{self, palette, LegendEntry, Painter};
use crate::app::layout;
use crate::app::sweep_clock::SweepClock;
use crate::geom::Pose;
use crate::query::sweep::{SweepAxis, SweepStep};
use crate::query::Algorithm;
use crate::scene::SceneBody;
use egui_macroquad::egui;
use glam::Vec2;
use macroquad::prelude as mq;

pub struct SweepLab;

impl Lab for SweepLab {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Sweep
    }

    /// The time chart (see [`time_chart`]), drawn whenever the sweep has tested an axis.
    fn holds_top_left(&self, run: &Analysis) -> bool {
        run.query.sweep.is_some()
            && run
                .trace
                .sweep
                .iter()
                .any(|s| matches!(s, SweepStep::Axis(_)))
    }

    fn draw(&self, ctx: &LabCtx, step: Option<usize>) {
        let Some(out) = ctx.run.query.sweep else {
            return;
        };
        let t_max = ctx.doc.meta.sweep_time();
        let (a, b) = (&ctx.doc.bodies[ctx.run.a], &ctx.doc.bodies[ctx.run.b]);
        for body in [a, b] {
            swept_path(ctx.world, body, t_max);
        }
        if let Some(t) = out.t_last {
            for body in [a, b] {
                ghost(
                    ctx.world,
                    body,
                    t,
                    palette::with_alpha(palette::GAP, 0.8),
                    None,
                );
            }
        }
        if let Some(t) = out.t_first {
            ghost(ctx.world, a, t, palette::RESULT, None);
            ghost(
                ctx.world,
                b,
                t,
                palette::RESULT,
                Some(format!("t_first = {}", num(t))),
            );
            if let Some(m) = out.manifold {
                for c in m.points() {
                    ctx.world.dot(c.point, 5.0, palette::RESULT);
                }
            }
        }
        if let Some(t) = ctx.sweep_time {
            moving_bodies(ctx.world, [a, b], t);
        }
        let selected = step.and_then(|k| ctx.run.trace.sweep.get(k));
        if let Some(SweepStep::Refine { t, .. }) = selected {
            for body in [a, b] {
                ghost(ctx.world, body, *t, palette::SEARCH, None);
            }
        }
        time_chart(ctx, step, t_max);
    }

    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry::new(palette::AXIS, "swept path"),
            LegendEntry::new(palette::RESULT, "at t_first"),
            LegendEntry::new(palette::GAP, "at t_last"),
            LegendEntry::new(palette::SEARCH, "axis time (selected)"),
        ]
    }
}

/// The Swept SAT panel's motion row: a slider over [0, t_max] that shows the moving bodies
/// at that time, play/pause, and hide. Returns whether something changed.
pub fn motion_ui(ui: &mut egui::Ui, clock: &mut SweepClock, t_max: f32) -> bool {
    let mut changed = false;
    ui.label("Motion (the bodies at time t; the ghosts at t_first and t_last stay)");
    ui.horizontal(|ui| {
        let mut t = clock.shown(t_max).unwrap_or(0.0);
        let slider = egui::Slider::new(&mut t, 0.0..=t_max.max(f32::MIN_POSITIVE))
            .text("t")
            .custom_formatter(|v, _| num(v as f32));
        if ui.add(slider).changed() {
            clock.set(t, t_max);
            changed = true;
        }
    });
    ui.horizontal(|ui| {
        let play = if clock.is_playing() { "Pause" } else { "Play" };
        if ui.button(play).clicked() {
            clock.toggle_play(t_max);
            changed = true;
        }
        if ui
            .add_enabled(clock.shown(t_max).is_some(), egui::Button::new("Hide"))
            .clicked()
        {
            clock.hide();
            changed = true;
        }
    });
    changed
}

/// The focused pair at time `t`: each moving body filled in its pair colour at its moved
/// pose, with the time written beside it.
fn moving_bodies(w: &Painter, bodies: [&SceneBody; 2], t: f32) {
    for (body, color) in bodies.into_iter().zip([palette::BODY_A, palette::BODY_B]) {
        if body.velocity.is_none_or(|v| v == Vec2::ZERO) {
            continue;
        }
        let outline = layout::world_points(&pose_at(body, t), &body.shape.outline(64));
        w.fill_convex(&outline, palette::with_alpha(color, 0.25));
        w.outline(&outline, 2.5, color);
    }
    let mover = match bodies[1].velocity {
        Some(v) if v != Vec2::ZERO => bodies[1],
        _ => bodies[0],
    };
    let at = pose_at(mover, t).position;
    w.label(
        at,
        Vec2::new(8.0, -22.0),
        &format!("t = {}", num(t)),
        palette::TEXT,
    );
}

/// Where a body is at time `t` of the sweep: moved by its velocity, not rotated.
fn pose_at(body: &SceneBody, t: f32) -> Pose {
    let v = body.velocity.unwrap_or(Vec2::ZERO);
    Pose::new(body.pose.position + v * t, body.pose.angle)
}

fn ghost(w: &Painter, body: &SceneBody, t: f32, color: mq::Color, label: Option<String>) {
    let outline = layout::world_points(&pose_at(body, t), &body.shape.outline(64));
    w.dashed_outline(&outline, 2.0, color);
    if let Some(text) = label {
        w.label(pose_at(body, t).position, Vec2::new(8.0, 8.0), &text, color);
    }
}

/// The region the body sweeps: its outline at the end of the interval and the centre path.
fn swept_path(w: &Painter, body: &SceneBody, t_max: f32) {
    if body.velocity.is_none_or(|v| v == Vec2::ZERO) {
        return;
    }
    let color = palette::with_alpha(palette::AXIS, 0.8);
    let end = layout::world_points(&pose_at(body, t_max), &body.shape.outline(64));
    w.outline(&end, 1.0, color);
    w.dashed(
        body.pose.position,
        pose_at(body, t_max).position,
        1.5,
        color,
    );
}

/// A chart in the canvas's upper-left corner: one row per axis, the bar [t_enter, t_exit]
/// clipped to [0, t_max]; vertical lines at t_first and t_last.
fn time_chart(ctx: &LabCtx, step: Option<usize>, t_max: f32) {
    let axes: Vec<(usize, &SweepAxis)> = ctx
        .run
        .trace
        .sweep
        .iter()
        .enumerate()
        .filter_map(|(k, s)| match s {
            SweepStep::Axis(a) => Some((k, a)),
            SweepStep::Refine { .. } => None,
        })
        .collect();
    let p = ctx.world;
    if axes.is_empty() || !p.visible {
        return;
    }
    let chart = chart_card(p, axes.len(), t_max);
    for (i, (k, a)) in axes.iter().enumerate() {
        chart_row(p, &chart, i, a, step == Some(*k));
    }
    let bottom = chart.top + chart.row * axes.len() as f32;
    if let Some(t) = ctx.sweep_time {
        // The time the moving bodies are shown at, across every row.
        draw::screen_line(
            Vec2::new(chart.x_of(t), chart.top - p.px(4.0)),
            Vec2::new(chart.x_of(t), bottom + p.px(4.0)),
            p.px(1.5),
            palette::TEXT,
        );
    }
    let out = ctx.run.query.sweep;
    let times = [
        (out.and_then(|o| o.t_first), palette::RESULT, "t_first"),
        (out.and_then(|o| o.t_last), palette::GAP, "t_last"),
    ];
    for (i, (t, color, name)) in times.into_iter().enumerate() {
        if let Some(t) = t {
            draw::screen_line(
                Vec2::new(chart.x_of(t), chart.top - p.px(2.0)),
                Vec2::new(chart.x_of(t), bottom + p.px(2.0)),
                p.px(2.0),
                color,
            );
            // Below the chart, t_first on the first line and t_last on the second.
            let text = format!("{name} {}", num(t));
            let w = p.measure(&text, 12.0).x;
            let x = (chart.x_of(t) - w).max(chart.left);
            let y = bottom + p.px(4.0 + 14.0 * i as f32);
            p.screen_text(Vec2::new(x, y), &text, 12.0, color, true);
        }
    }
}

/// Where the time chart's rows sit on the screen.
struct Chart {
    left: f32,
    span: f32,
    top: f32,
    row: f32,
    t_max: f32,
}

impl Chart {
    fn x_of(&self, t: f32) -> f32 {
        self.left + self.span * (t / self.t_max).clamp(0.0, 1.0)
    }
}

/// The chart's white card, border and title, sized for `rows` axes.
fn chart_card(p: &Painter, rows: usize, t_max: f32) -> Chart {
    let cam = p.camera;
    let row = p.px(9.0);
    let width = (cam.size.x * 0.3).max(p.px(160.0));
    let height = row * rows as f32 + p.px(56.0);
    let origin = Vec2::new(cam.origin.x + p.px(10.0), cam.origin.y + p.px(10.0));
    mq::draw_rectangle(
        origin.x,
        origin.y,
        width,
        height,
        palette::with_alpha(mq::WHITE, 0.92),
    );
    mq::draw_rectangle_lines(
        origin.x,
        origin.y,
        width,
        height,
        p.px(1.0),
        palette::GRID_MAJOR,
    );
    p.screen_text(
        origin + Vec2::splat(p.px(4.0)),
        &format!("axis time intervals, t in [0, {}]", num(t_max)),
        12.0,
        palette::TEXT,
        false,
    );
    Chart {
        left: origin.x + p.px(6.0),
        span: width - p.px(12.0),
        top: origin.y + p.px(22.0),
        row,
        t_max,
    }
}

/// Row `i`: the axis's interval of overlap in time, highlighted when it is the step shown.
fn chart_row(p: &Painter, chart: &Chart, i: usize, a: &SweepAxis, selected: bool) {
    let (left, span, row) = (chart.left, chart.span, chart.row);
    let y = chart.top + row * i as f32 + row * 0.5;
    draw::screen_line(
        Vec2::new(left, y),
        Vec2::new(left + span, y),
        p.px(1.0),
        palette::GRID_MINOR,
    );
    let color = if selected {
        palette::SEARCH
    } else {
        palette::AXIS
    };
    if a.t_enter <= a.t_exit && a.t_exit >= 0.0 && a.t_enter <= chart.t_max {
        let (x0, x1) = (
            chart.x_of(a.t_enter.max(0.0)),
            chart.x_of(a.t_exit.min(chart.t_max)),
        );
        draw::screen_line(
            Vec2::new(x0, y),
            Vec2::new(x1.max(x0 + 1.0), y),
            row * 0.7,
            color,
        );
    } else if selected {
        draw::screen_line(
            Vec2::new(left, y),
            Vec2::new(left + p.px(6.0), y),
            row * 0.7,
            palette::GAP,
        );
    }
}
