//! GJK overlay: the simplex at the selected step in the A - B inset, the closest point to
//! the origin, the search direction and the new support point, with its source points on
//! A and B in the world; distance and closest points when the shapes are apart.

use super::lab::{num, Lab, LabCtx, Series};
use crate::app::analysis::{Analysis, PairSettings};
use crate::app::draw::{palette, LegendEntry};
use crate::query::gjk::GjkStep;
use crate::query::{Algorithm, SupportPoint};
use egui_macroquad::egui;
use glam::Vec2;

pub struct GjkLab;

impl Lab for GjkLab {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Gjk
    }

    fn uses_inset(&self) -> bool {
        true
    }

    fn inset_points(&self, run: &Analysis, keep: &mut dyn FnMut(Vec2)) {
        for s in &run.trace.gjk {
            s.simplex().points().iter().for_each(|w| keep(w.point));
            if let Some(w) = s.support {
                keep(w.point);
            }
        }
    }

    fn support_point(&self, run: &Analysis, step: Option<usize>) -> Option<SupportPoint> {
        let steps = &run.trace.gjk;
        step.map_or(steps.last(), |k| steps.get(k))?.support
    }

    fn draw(&self, ctx: &LabCtx, step: Option<usize>) {
        let steps = &ctx.run.trace.gjk;
        let Some(s) = step.map_or(steps.last(), |k| steps.get(k)) else {
            return;
        };
        draw_simplex(ctx, s);
        draw_search(ctx, s);
        if s.status.is_some() {
            draw_result(ctx);
        }
    }

    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry::new(palette::STRUCTURE, "GJK simplex"),
            LegendEntry::new(palette::HIGHLIGHT, "closest point v"),
            LegendEntry::new(palette::SEARCH, "search dir d, support w"),
            LegendEntry::new(palette::RESULT, "distance"),
        ]
    }

    fn settings_ui(&self, ui: &mut egui::Ui, s: &mut PairSettings) -> bool {
        super::lab::loop_limits_ui(
            ui,
            &mut s.gjk.max_iterations,
            "progress tolerance",
            &mut s.gjk.tolerance,
        )
    }

    fn series(&self, run: &Analysis) -> Vec<Series> {
        let points = run
            .trace
            .gjk
            .iter()
            .map(|s| [s.iteration as f64, s.distance as f64])
            .collect();
        vec![Series {
            name: "GJK |v| (distance bound)".into(),
            color: palette::STRUCTURE,
            points,
        }]
    }
}

fn draw_simplex(ctx: &LabCtx, s: &GjkStep) {
    let p = ctx.inset;
    // The closest point of the simplex to the origin, and the gap it leaves (drawn first so
    // that the simplex vertices stay on top of its label).
    p.dashed(Vec2::ZERO, s.closest, 1.5, palette::HIGHLIGHT);
    p.label(
        s.closest,
        Vec2::new(8.0, 6.0),
        &closest_label(s),
        palette::HIGHLIGHT,
    );
    let pts: Vec<Vec2> = s.simplex().points().iter().map(|w| w.point).collect();
    if pts.len() == 3 {
        p.fill_convex(&pts, palette::with_alpha(palette::STRUCTURE, 0.18));
    }
    p.outline(&pts, 2.5, palette::STRUCTURE);
    for (i, w) in pts.iter().enumerate() {
        p.label(
            *w,
            Vec2::new(7.0, -20.0),
            &format!("w{i}"),
            palette::STRUCTURE,
        );
    }
    for w in &pts {
        p.dot(*w, 4.5, palette::STRUCTURE);
    }
    p.dot(s.closest, 3.5, palette::HIGHLIGHT);
}

/// The closest point's label. For rounded shapes the inset is A - B of the cores: the label
/// says so, since the Results give the distance with the radii taken off.
fn closest_label(s: &GjkStep) -> String {
    let mut text = format!("v, |v| = {}", num(s.distance));
    if s.radii > 0.0 {
        text += &format!(" (cores; radii {})", num(s.radii));
    }
    text
}

fn draw_search(ctx: &LabCtx, s: &GjkStep) {
    let (inset, world) = (ctx.inset, ctx.world);
    if let Some(d) = s.direction {
        inset.ray(Vec2::ZERO, d, 70.0, 2.5, palette::SEARCH);
        inset.label(Vec2::ZERO, Vec2::new(8.0, 8.0), "d = -v", palette::SEARCH);
    }
    let Some(w) = s.support else {
        return;
    };
    inset.ring(w.point, 7.0, 2.5, palette::SEARCH);
    inset.label(w.point, Vec2::new(9.0, -20.0), "new w", palette::SEARCH);
    // The support point is the difference of A's farthest point along d and B's farthest
    // along -d: show both on the bodies.
    world.ring(w.on_a, 7.0, 2.5, palette::BODY_A);
    world.dot(w.on_a, 3.0, palette::SEARCH);
    world.label(w.on_a, Vec2::new(9.0, 2.0), "support on A", palette::BODY_A);
    world.ring(w.on_b, 7.0, 2.5, palette::BODY_B);
    world.dot(w.on_b, 3.0, palette::SEARCH);
    world.label(w.on_b, Vec2::new(9.0, 2.0), "support on B", palette::BODY_B);
    world.dashed(w.on_b, w.on_a, 1.5, palette::SEARCH);
}

fn draw_result(ctx: &LabCtx) {
    let g = &ctx.run.query.gjk;
    if let (Some(a), Some(b)) = (g.closest_a, g.closest_b) {
        let w = ctx.world;
        w.line(a, b, 3.0, palette::RESULT);
        w.dot(a, 5.0, palette::RESULT);
        w.dot(b, 5.0, palette::RESULT);
        let mid = 0.5 * (a + b);
        w.label(
            mid,
            Vec2::new(8.0, 6.0),
            &format!("distance {}", num(g.distance)),
            palette::RESULT,
        );
    }
}
