//! Swept SAT overlay: the swept path, ghost outlines at the time of first contact (and of
//! last contact), and a chart of every axis's time interval against [0, t_max].

use super::lab::{num, Lab, LabCtx};
use super::time_chart::{draw_time_chart, ChartRow, ChartTimes};
use crate::app::analysis::Analysis;
use crate::app::draw::{palette, LegendEntry, Painter};
use crate::app::layout;
use crate::app::sweep_clock::SweepClock;
use crate::geom::Pose;
use crate::query::sweep::SweepStep;
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

/// The time chart in the canvas's upper-left corner ([`draw_time_chart`]): one row per
/// axis.
fn time_chart(ctx: &LabCtx, step: Option<usize>, t_max: f32) {
    let rows: Vec<ChartRow> = (ctx.run.trace.sweep.iter().enumerate())
        .filter_map(|(k, s)| match s {
            SweepStep::Axis(a) => Some(ChartRow {
                t_enter: a.t_enter,
                t_exit: a.t_exit,
                selected: step == Some(k),
            }),
            SweepStep::Refine { .. } => None,
        })
        .collect();
    let out = ctx.run.query.sweep;
    let times = ChartTimes {
        t_max,
        t_first: out.and_then(|o| o.t_first),
        t_last: out.and_then(|o| o.t_last),
        shown: ctx.sweep_time,
    };
    let cam = ctx.world.camera;
    draw_time_chart(ctx.world, (cam.origin, cam.size), &rows, times);
}
