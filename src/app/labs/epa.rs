//! EPA overlay: the polytope at the selected step in the A - B inset, its closest edge and
//! the support point found beyond it; the final normal and depth vector on the bodies.

use super::lab::{num, vec_str, Lab, LabCtx, Series};
use crate::app::analysis::{Analysis, PairSettings};
use crate::app::draw::{palette, LegendEntry};
use crate::query::epa::EpaStep;
use crate::query::{Algorithm, SupportPoint};
use egui_macroquad::egui;
use glam::Vec2;

pub struct EpaLab;

impl Lab for EpaLab {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Epa
    }

    fn uses_inset(&self) -> bool {
        true
    }

    fn inset_points(&self, run: &Analysis, keep: &mut dyn FnMut(Vec2)) {
        for s in &run.trace.epa {
            s.polytope.iter().for_each(|w| keep(w.point));
            keep(s.support.point);
        }
    }

    fn support_point(&self, run: &Analysis, step: Option<usize>) -> Option<SupportPoint> {
        let steps = &run.trace.epa;
        Some(step.map_or(steps.last(), |k| steps.get(k))?.support)
    }

    fn draw(&self, ctx: &LabCtx, step: Option<usize>) {
        let steps = &ctx.run.trace.epa;
        if let Some(s) = step.map_or(steps.last(), |k| steps.get(k)) {
            draw_polytope(ctx, s);
        }
        let last = step.is_none_or(|k| k + 1 >= steps.len());
        if last {
            draw_result(ctx);
        }
    }

    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry::new(palette::POLYTOPE, "EPA polytope (vertex and edge numbers)"),
            LegendEntry::new(palette::HIGHLIGHT, "closest edge"),
            LegendEntry::new(palette::SEARCH, "search dir d, support w"),
            LegendEntry::new(palette::RESULT, "normal (A to B), depth"),
        ]
    }

    fn settings_ui(&self, ui: &mut egui::Ui, s: &mut PairSettings) -> bool {
        super::lab::loop_limits_ui(
            ui,
            &mut s.epa.max_iterations,
            "gap tolerance",
            &mut s.epa.tolerance,
        )
    }

    fn series(&self, run: &Analysis) -> Vec<Series> {
        let gap = run
            .trace
            .epa
            .iter()
            .map(|s| [s.iteration as f64, s.gap.max(0.0) as f64])
            .collect();
        let distance = run
            .trace
            .epa
            .iter()
            .map(|s| [s.iteration as f64, s.distance as f64])
            .collect();
        vec![
            Series {
                name: "EPA gap (support beyond closest edge)".into(),
                color: palette::SEARCH,
                points: gap,
            },
            Series {
                name: "EPA closest edge distance".into(),
                color: palette::HIGHLIGHT,
                points: distance,
            },
        ]
    }
}

fn draw_polytope(ctx: &LabCtx, s: &EpaStep) {
    let p = ctx.inset;
    let pts: Vec<Vec2> = s.polytope.iter().map(|w| w.point).collect();
    p.fill_convex(&pts, palette::with_alpha(palette::POLYTOPE, 0.12));
    p.outline(&pts, 2.0, palette::POLYTOPE);
    number_polytope(ctx, s, &pts);
    if pts.len() >= 2 {
        let a = pts[s.closest_edge % pts.len()];
        let b = pts[(s.closest_edge + 1) % pts.len()];
        p.line(a, b, 4.5, palette::HIGHLIGHT);
        // The foot of the perpendicular from the origin is distance * normal.
        let foot = s.distance * s.normal;
        p.arrow(Vec2::ZERO, foot, 2.0, palette::HIGHLIGHT);
        p.label(
            foot,
            Vec2::new(6.0, 6.0),
            &edge_label(s),
            palette::HIGHLIGHT,
        );
    }
    p.ring(s.support.point, 7.0, 2.5, palette::SEARCH);
    p.dashed(s.distance * s.normal, s.support.point, 1.5, palette::SEARCH);
    p.label(
        s.support.point,
        Vec2::new(9.0, -20.0),
        &format!("w, gap {}", num(s.gap)),
        palette::SEARCH,
    );
    let w = ctx.world;
    w.ring(s.support.on_a, 7.0, 2.0, palette::BODY_A);
    w.ring(s.support.on_b, 7.0, 2.0, palette::BODY_B);
    w.dashed(s.support.on_b, s.support.on_a, 1.5, palette::SEARCH);
}

/// The closest edge's label: its number and distance, and for rounded shapes the radii the
/// depth adds (the inset is A - B of the cores; the Results give the shapes' depth).
fn edge_label(s: &EpaStep) -> String {
    let mut text = format!("edge {}, d = {}", s.closest_edge, num(s.distance));
    if s.radii > 0.0 {
        text += &format!(" + radii {}", num(s.radii));
    }
    text
}

/// The numbers the sentences use: vertex i of the polytope, and edge i from vertex i to
/// vertex i + 1 (labelled at its middle, pushed outward from the origin).
fn number_polytope(ctx: &LabCtx, s: &EpaStep, pts: &[Vec2]) {
    let p = ctx.inset;
    for (i, w) in pts.iter().enumerate() {
        p.dot(*w, 3.5, palette::POLYTOPE);
        p.label(*w, Vec2::new(6.0, 4.0), &i.to_string(), palette::POLYTOPE);
    }
    if pts.len() < 3 {
        return;
    }
    for i in 0..pts.len() {
        if i == s.closest_edge {
            continue; // named by its own label, with its distance
        }
        let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
        let mid = 0.5 * (a + b);
        let out = mid.normalize_or_zero() * 14.0;
        let offset = Vec2::new(out.x - 8.0, -out.y - 8.0);
        p.label(mid, offset, &format!("e{i}"), palette::POLYTOPE);
    }
}

fn draw_result(ctx: &LabCtx) {
    let Some(e) = ctx.run.query.epa else {
        return;
    };
    // point_b - point_a = -depth * n: moving B by depth * n carries its deepest point onto
    // A's boundary, so the depth vector runs from point_b to point_a.
    let w = ctx.world;
    w.arrow(e.point_b, e.point_a, 3.0, palette::RESULT);
    w.dot(e.point_a, 4.0, palette::BODY_A);
    w.dot(e.point_b, 4.0, palette::BODY_B);
    w.ray(e.point_a, e.normal, 60.0, 2.5, palette::RESULT);
    w.label(
        e.point_a,
        Vec2::new(10.0, 10.0),
        &format!("EPA depth {}  n {}", num(e.depth), vec_str(e.normal)),
        palette::RESULT,
    );
    let inset = ctx.inset;
    inset.arrow(
        Vec2::ZERO,
        e.normal * (e.depth.max(1e-6)),
        2.5,
        palette::RESULT,
    );
}
