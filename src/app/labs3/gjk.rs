//! GJK in 3D. In A - B, at the timeline's step: the simplex as the iteration found it (a
//! point, a segment, a triangle or a tetrahedron, its vertices numbered as the sentence
//! numbers them), the feature of it nearest the origin (the Voronoi region the sentence
//! names, what the simplex shrinks to) drawn bold, the closest point v with its distance,
//! the search direction d and the new support point w. On the bodies: w's sources, a on A
//! and b on B (w = a - b); at the end, the closest points and the distance when apart.
//!
//! For a sphere or a capsule GJK walks the cores' difference (drawn dashed inside A - B);
//! the labels say so, and the Results give the distance with the radii taken off.

use super::{step_or_last, Lab3, Lab3Ctx};
use crate::app::analysis3::Analysis3;
use crate::app::draw::{palette, LegendEntry, LABEL_DETAIL, LABEL_ORIGIN};
use crate::app::labs::{num, Series};
use crate::query::Algorithm;
use crate::query3::gjk::{Status, Step};
use crate::query3::simplex::{Region, SupportPoint3};
use glam::Vec3;

pub struct GjkLab3;

impl Lab3 for GjkLab3 {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Gjk
    }

    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry::new(palette::STRUCTURE, "GJK simplex; bold: nearest O"),
            LegendEntry::new(palette::HIGHLIGHT, "closest point v"),
            LegendEntry::new(palette::SEARCH, "search dir d, support w = a - b"),
            LegendEntry::new(palette::RESULT, "distance"),
        ]
    }

    fn uses_difference(&self) -> bool {
        true
    }

    fn difference_points(&self, run: &Analysis3, keep: &mut dyn FnMut(Vec3)) {
        for s in &run.trace.gjk {
            s.candidate.points().iter().for_each(|w| keep(w.point));
            if let Some(w) = s.support {
                keep(w.point);
            }
        }
    }

    fn support_point(&self, run: &Analysis3, step: Option<usize>) -> Option<SupportPoint3> {
        step_or_last(&run.trace.gjk, step)?.support
    }

    fn draw(&self, ctx: &Lab3Ctx) {
        let Some(s) = step_or_last(&ctx.run.trace.gjk, ctx.step) else {
            return;
        };
        if let Some(w) = s.support {
            draw_sources(ctx, &w);
        }
        if s.status.is_some() {
            draw_result(ctx);
        }
    }

    fn draw_difference(&self, ctx: &Lab3Ctx) {
        let Some(s) = step_or_last(&ctx.run.trace.gjk, ctx.step) else {
            return;
        };
        draw_simplex(ctx, s);
        draw_closest(ctx, s);
        draw_search(ctx, s);
    }

    fn series(&self, run: &Analysis3) -> Vec<Series> {
        let points = (run.trace.gjk.iter())
            .map(|s| [s.iteration as f64, s.distance as f64])
            .collect();
        vec![Series {
            name: "GJK |v| (distance bound)".into(),
            color: palette::STRUCTURE,
            points,
        }]
    }
}

/// The candidate simplex thin, with its vertices numbered; the feature nearest the origin
/// (the region) bold, filled when it is a triangle; the whole tetrahedron filled when it
/// holds the origin.
fn draw_simplex(ctx: &Lab3Ctx, s: &Step) {
    let p = ctx.paint;
    let points: Vec<Vec3> = s.candidate.points().iter().map(|w| w.point).collect();
    let faint = palette::with_alpha(palette::STRUCTURE, 0.45);
    for (i, a) in points.iter().enumerate() {
        for b in &points[i + 1..] {
            p.line_on_top(*a, *b, 1.5, faint);
        }
    }
    let (ids, n) = s.region.vertices();
    let kept: Vec<Vec3> = match s.region {
        Region::Inside => points.clone(),
        _ => ids[..n]
            .iter()
            .filter_map(|&i| points.get(i as usize).copied())
            .collect(),
    };
    let fill = palette::with_alpha(palette::STRUCTURE, 0.22);
    match kept.len() {
        3 => p.polygon(&kept, fill),
        4 => {
            for skip in 0..4 {
                let face: Vec<Vec3> = (0..4).filter(|&k| k != skip).map(|k| kept[k]).collect();
                p.polygon(&face, fill);
            }
        }
        _ => {}
    }
    for (i, a) in kept.iter().enumerate() {
        for b in &kept[i + 1..] {
            p.line_on_top(*a, *b, 3.5, palette::STRUCTURE);
        }
    }
    for (i, w) in points.iter().enumerate() {
        p.dot(*w, 4.5, palette::STRUCTURE);
        ctx.label(*w, format!("w{i}"), palette::STRUCTURE, LABEL_DETAIL);
    }
}

/// v, the point of the simplex nearest the origin, joined to it; its distance in the label.
fn draw_closest(ctx: &Lab3Ctx, s: &Step) {
    if s.region == Region::Inside {
        return;
    }
    let p = ctx.paint;
    p.dashed(Vec3::ZERO, s.closest, 2.0, palette::HIGHLIGHT);
    ctx.keep_clear(Vec3::ZERO, s.closest);
    p.dot(s.closest, 4.0, palette::HIGHLIGHT);
    let mut text = format!("v, |v| = {}", num(s.distance));
    if ctx.round_pair() {
        text += " (cores)";
    }
    ctx.label(s.closest, text, palette::HIGHLIGHT, LABEL_ORIGIN);
}

/// The search direction from the origin (a fixed length on the screen) and the new support
/// point w.
fn draw_search(ctx: &Lab3Ctx, s: &Step) {
    let p = ctx.paint;
    if let Some(d) = s.direction {
        // 70 logical pixels long, or less in a small view (a quarter of its short side).
        let per_unit = p.camera.pixels_per_unit_at(Vec3::ZERO).max(1e-6);
        let length = (70.0 * p.scale).min(0.25 * p.camera.size.min_element());
        let tip = d * (length / per_unit);
        p.arrow(Vec3::ZERO, tip, 2.5, palette::SEARCH);
        ctx.keep_clear(Vec3::ZERO, tip);
        ctx.label(tip, "d", palette::SEARCH, LABEL_DETAIL);
    }
    if let Some(w) = s.support {
        p.dot(w.point, 7.0, palette::SEARCH);
        p.dot(w.point, 3.0, palette::with_alpha(palette::BACKGROUND, 1.0));
        ctx.label(w.point, "new w = a - b", palette::SEARCH, LABEL_ORIGIN);
    }
}

/// The support point's sources: A's farthest point along d and B's farthest along -d.
fn draw_sources(ctx: &Lab3Ctx, w: &SupportPoint3) {
    let p = ctx.paint;
    p.dashed(
        w.on_b,
        w.on_a,
        1.5,
        palette::with_alpha(palette::SEARCH, 0.8),
    );
    for (at, color, text) in [
        (w.on_a, palette::BODY_A, "a: support on A along d"),
        (w.on_b, palette::BODY_B, "b: support on B along -d"),
    ] {
        p.dot(at, 7.0, color);
        p.dot(at, 3.0, palette::SEARCH);
        ctx.label(at, text, color, LABEL_DETAIL);
    }
}

/// When the loop has ended apart: the closest points on both bodies and the distance.
fn draw_result(ctx: &Lab3Ctx) {
    let g = &ctx.run.query.gjk;
    if g.intersecting || g.status == Status::NonFinite {
        return;
    }
    if let (Some(a), Some(b)) = (g.closest_a, g.closest_b) {
        let p = ctx.paint;
        p.line_on_top(a, b, 3.0, palette::RESULT);
        p.dot(a, 5.0, palette::RESULT);
        p.dot(b, 5.0, palette::RESULT);
        let text = format!("distance {}", num(g.distance));
        ctx.label(0.5 * (a + b), text, palette::RESULT, LABEL_ORIGIN);
    }
}
