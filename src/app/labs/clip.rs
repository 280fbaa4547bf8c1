//! Clipping overlay: the reference and incident edges, the plane each stage clips against,
//! the points kept, dropped and created, and the final contact points with their depths
//! and the normal.

use super::lab::{num, vec_str, Lab, LabCtx};
use crate::app::draw::{palette, LegendEntry, Painter};
use crate::query::clip::{ClipStage, ClipStep, EdgeFeature};
use crate::query::Algorithm;
use glam::Vec2;

pub struct ClipLab;

impl Lab for ClipLab {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Clip
    }

    fn draw(&self, ctx: &LabCtx, step: Option<usize>) {
        let steps = &ctx.run.trace.clip;
        let w = ctx.world;
        if let Some(s) = step.map_or(steps.last(), |k| steps.get(k)) {
            if let Some(e) = &s.reference {
                edge(w, e, palette::HIGHLIGHT, "reference edge");
            }
            if let Some(e) = &s.incident {
                edge(w, e, palette::SEARCH, "incident edge");
            }
            plane(w, s);
            points(w, s);
        }
        if step.is_none_or(|k| k + 1 >= steps.len()) {
            contacts(ctx);
        }
    }

    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry::new(palette::HIGHLIGHT, "reference edge"),
            LegendEntry::new(palette::SEARCH, "incident edge, new points"),
            LegendEntry::new(palette::STRUCTURE, "clip plane (arrow: cut side)"),
            LegendEntry::new(palette::TEXT, "kept points"),
            LegendEntry::new(palette::OTHER, "dropped points (x)"),
            LegendEntry::new(palette::RESULT, "contacts, depth, normal"),
        ]
    }
}

fn edge(w: &Painter, e: &EdgeFeature, color: macroquad::prelude::Color, what: &str) {
    w.line(e.start, e.end, 5.0, color);
    let mid = 0.5 * (e.start + e.end);
    w.ray(mid, e.normal, 28.0, 2.0, color);
    let body = e.body.as_str().to_uppercase();
    w.label(
        mid,
        Vec2::new(8.0, 8.0),
        &format!("{what} ({body} edge {})", e.index),
        color,
    );
}

/// The clip plane of a stage: a side plane runs across the reference edge's end, the
/// reference face along the edge. Points on the side the normal points to are cut.
fn plane(w: &Painter, s: &ClipStep) {
    let Some(p) = s.plane else {
        return;
    };
    let along = Vec2::new(-p.normal.y, p.normal.x);
    let reach = 3.0 * w.camera.size.length() / w.camera.zoom;
    w.dashed(
        p.point - along * reach,
        p.point + along * reach,
        2.0,
        palette::STRUCTURE,
    );
    w.ray(p.point, p.normal, 40.0, 2.5, palette::STRUCTURE);
    let name = match s.stage {
        ClipStage::SideStart => "side plane (start)",
        ClipStage::SideEnd => "side plane (end)",
        ClipStage::ReferenceFace => "reference face",
        _ => "plane",
    };
    w.label(p.point, Vec2::new(8.0, -24.0), name, palette::STRUCTURE);
}

fn points(w: &Painter, s: &ClipStep) {
    for p in &s.input {
        w.ring(*p, 4.0, 1.0, palette::OTHER);
    }
    for p in &s.kept {
        w.dot(*p, 5.0, palette::TEXT);
    }
    for p in &s.dropped {
        w.cross(*p, 6.0, 2.5, palette::OTHER);
    }
    for p in &s.created {
        w.ring(*p, 7.0, 2.5, palette::SEARCH);
        w.dot(*p, 3.0, palette::SEARCH);
    }
}

fn contacts(ctx: &LabCtx) {
    let Some(m) = ctx.run.query.manifold else {
        return;
    };
    let w = ctx.world;
    for (k, c) in m.points().iter().enumerate() {
        // The contact point lies on the incident body; the reference surface is `depth`
        // away along the normal.
        w.dot(c.point, 6.0, palette::RESULT);
        let toward_reference = if m.reference == crate::query::Body::A {
            -m.normal
        } else {
            m.normal
        };
        w.line(
            c.point,
            c.point + toward_reference * c.depth,
            2.5,
            palette::RESULT,
        );
        w.label(
            c.point,
            Vec2::new(10.0, 4.0 + 18.0 * k as f32),
            &format!("contact {k}: depth {}", num(c.depth)),
            palette::RESULT,
        );
    }
    if let Some(c) = m.points().first() {
        w.ray(c.point, m.normal, 60.0, 3.0, palette::RESULT);
        w.label(
            c.point,
            Vec2::new(10.0, 40.0),
            &format!("n {}", vec_str(m.normal)),
            palette::RESULT,
        );
    }
}
