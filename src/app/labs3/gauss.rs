//! The Gauss map inset of SAT in 3D: a unit sphere turned as the main camera is, with A's
//! face normals as points, B's face normals negated (the Gauss map of -B, so that A - B's
//! faces show where arcs cross), and each body's edges as great arcs between the normals of
//! their two faces. At an edge-pair step the two arcs are highlighted with their crossing
//! (the axis) marked, or with the reason they give no axis; at a face step, the face's
//! normal. Drawn in screen space: the sphere's back half is culled on the CPU (faint), so it
//! needs no depth buffer of its own.

use super::BodyGeometry;
use crate::app::camera3::Camera3;
use crate::app::draw::{palette, screen_line, Painter};
use crate::app::labels::Rect;
use crate::query3::sat::{AxisId, SkipReason, Step};
use glam::{Vec2, Vec3};
use macroquad::prelude as mq;
use macroquad::prelude::Color;

/// Segments of a drawn arc (an arc of at most 180 degrees).
const ARC_SEGMENTS: usize = 24;

/// The inset's projection: the main camera's orientation, orthographic, centred in `rect`.
struct SphereView {
    center: Vec2,
    radius: f32,
    right: Vec3,
    up: Vec3,
    /// Toward the viewer.
    toward: Vec3,
}

impl SphereView {
    fn new(camera: &Camera3, rect: Rect) -> SphereView {
        let size = rect.size();
        // A little above the middle: the note under the sphere keeps its two lines.
        SphereView {
            center: rect.min + Vec2::new(0.5 * size.x, 0.46 * size.y),
            radius: 0.33 * size.x.min(size.y),
            right: camera.right(),
            up: camera.up(),
            toward: -camera.forward(),
        }
    }

    fn to_screen(&self, n: Vec3) -> Vec2 {
        self.center + self.radius * Vec2::new(n.dot(self.right), -n.dot(self.up))
    }

    fn in_front(&self, n: Vec3) -> bool {
        n.dot(self.toward) >= 0.0
    }
}

/// One body's Gauss map: its face normals and its edges' arcs, in the world.
struct GaussImage {
    normals: Vec<Vec3>,
    /// (edge index, normal of its first face, normal of its second face).
    arcs: Vec<(u32, Vec3, Vec3)>,
}

impl GaussImage {
    /// `sign` -1 negates (the map of -B).
    fn of(body: &BodyGeometry, sign: f32) -> Option<GaussImage> {
        let p = body.body.shape.as_polyhedron()?;
        let normals: Vec<Vec3> = (0..p.face_count() as u32)
            .filter_map(|i| body.face_normal(i).map(|n| n * sign))
            .collect();
        let arcs = p
            .edges()
            .iter()
            .enumerate()
            .filter_map(|(k, e)| {
                let (n0, n1) = (
                    normals.get(e.faces[0] as usize)?,
                    normals.get(e.faces[1] as usize)?,
                );
                Some((k as u32, *n0, *n1))
            })
            .collect();
        Some(GaussImage { normals, arcs })
    }

    fn arc(&self, edge: u32) -> Option<(Vec3, Vec3)> {
        self.arcs
            .iter()
            .find(|(k, _, _)| *k == edge)
            .map(|(_, a, b)| (*a, *b))
    }
}

/// The great arc from `a` to `b` (unit vectors), as points.
fn arc_points(a: Vec3, b: Vec3) -> Vec<Vec3> {
    let angle = a.angle_between(b);
    if !angle.is_finite() || angle < 1e-6 {
        return vec![a, b];
    }
    (0..=ARC_SEGMENTS)
        .map(|s| {
            let t = s as f32 / ARC_SEGMENTS as f32;
            let w0 = ((1.0 - t) * angle).sin() / angle.sin();
            let w1 = (t * angle).sin() / angle.sin();
            (a * w0 + b * w1).normalize_or_zero()
        })
        .collect()
}

fn draw_arc(view: &SphereView, a: Vec3, b: Vec3, width: f32, color: Color) {
    let points = arc_points(a, b);
    for pair in points.windows(2) {
        let mid = (pair[0] + pair[1]).normalize_or_zero();
        let c = if view.in_front(mid) {
            color
        } else {
            palette::with_alpha(color, color.a * 0.18)
        };
        screen_line(view.to_screen(pair[0]), view.to_screen(pair[1]), width, c);
    }
}

fn draw_point(view: &SphereView, n: Vec3, radius: f32, color: Color) {
    let c = if view.in_front(n) {
        color
    } else {
        palette::with_alpha(color, 0.25)
    };
    let p = view.to_screen(n);
    mq::draw_circle(p.x, p.y, radius, c);
}

/// What the inset highlights at a SAT step: arcs of A and of -B, points, the axis.
struct Highlight {
    arc_a: Option<u32>,
    arc_b: Option<u32>,
    normal: Option<Vec3>,
    note: String,
}

fn highlight_of(step: Option<&Step>) -> Highlight {
    let mut h = Highlight {
        arc_a: None,
        arc_b: None,
        normal: None,
        note: String::new(),
    };
    match step {
        Some(Step::Axis(t)) => {
            h.normal = Some(t.axis);
            match t.id {
                AxisId::Edges(i, j) => {
                    (h.arc_a, h.arc_b) = (Some(i), Some(j));
                    h.note = format!("arcs of edge {i} of A and edge {j} of B cross: the axis");
                }
                AxisId::FaceA(i) => h.note = format!("normal of face {i} of A"),
                AxisId::FaceB(j) => h.note = format!("normal of face {j} of B, reversed"),
                AxisId::Closest => h.note = "the direction between the cores".into(),
            }
        }
        Some(Step::Skipped {
            edge_a,
            edge_b,
            reason,
        }) => {
            (h.arc_a, h.arc_b) = (Some(*edge_a), Some(*edge_b));
            h.note = match reason {
                SkipReason::GaussMap => "these arcs do not cross: no face of A - B".into(),
                SkipReason::Parallel => "parallel edges: their arcs lie on one great circle".into(),
            };
        }
        Some(Step::GaussMapPruned { edge_a, count }) => {
            h.arc_a = Some(*edge_a);
            h.note = format!(
                "{count} arcs of -B (grey) do not cross edge {edge_a}'s arc: no axis from them"
            );
        }
        None => {}
    }
    h
}

/// The edges of B that a grouped step rules out against edge `edge_a` of A: every edge of B
/// that no other step of the trace pairs with `edge_a`.
fn ruled_out(steps: &[Step], edge_a: u32, edges_b: usize) -> Vec<u32> {
    let mut paired = vec![false; edges_b];
    for s in steps {
        let j = match s {
            Step::Axis(t) => match t.id {
                AxisId::Edges(i, j) if i == edge_a => j,
                _ => continue,
            },
            Step::Skipped {
                edge_a: i, edge_b, ..
            } if *i == edge_a => *edge_b,
            _ => continue,
        };
        if let Some(p) = paired.get_mut(j as usize) {
            *p = true;
        }
    }
    (0..edges_b as u32)
        .filter(|j| !paired[*j as usize])
        .collect()
}

/// Draws the inset in `rect` for the focused pair at SAT step `step`.
pub fn draw_gauss_map(
    flat: &Painter,
    camera: &Camera3,
    rect: Rect,
    (a, b): (&BodyGeometry, &BodyGeometry),
    (steps, k): (&[Step], Option<usize>),
) {
    // The workspace draws the inset for two polyhedra only.
    let (Some(ga), Some(gb)) = (GaussImage::of(a, 1.0), GaussImage::of(b, -1.0)) else {
        return;
    };
    let view = draw_backdrop(flat, camera, rect);
    let thin = flat.px(1.2);
    for (image, color) in [(&ga, palette::BODY_A), (&gb, palette::BODY_B)] {
        let faint = palette::with_alpha(color, 0.55);
        for (_, n0, n1) in &image.arcs {
            draw_arc(&view, *n0, *n1, thin, faint);
        }
        for n in &image.normals {
            draw_point(&view, *n, flat.px(2.5), color);
        }
    }
    let step = k.and_then(|k| steps.get(k));
    if let Some(Step::GaussMapPruned { edge_a, .. }) = step {
        let grey = palette::with_alpha(palette::TEXT, 0.55);
        for j in ruled_out(steps, *edge_a, gb.arcs.len()) {
            if let Some((n0, n1)) = gb.arc(j) {
                draw_arc(&view, n0, n1, flat.px(2.0), grey);
            }
        }
    }
    let h = highlight_of(step);
    let bold = flat.px(3.5);
    if let Some((n0, n1)) = h.arc_a.and_then(|e| ga.arc(e)) {
        draw_arc(&view, n0, n1, bold, palette::HIGHLIGHT);
    }
    if let Some((n0, n1)) = h.arc_b.and_then(|e| gb.arc(e)) {
        draw_arc(&view, n0, n1, bold, palette::SEARCH);
    }
    if let Some(n) = h.normal {
        draw_point(&view, n, flat.px(5.0), palette::CURRENT_AXIS);
    }
    draw_note(flat, rect, &h.note);
}

/// The inset's card, its title and the sphere; the projection onto it.
fn draw_backdrop(flat: &Painter, camera: &Camera3, rect: Rect) -> SphereView {
    let (min, size) = (rect.min, rect.size());
    let card = palette::with_alpha(mq::WHITE, 0.94);
    mq::draw_rectangle(min.x, min.y, size.x, size.y, card);
    let (line, border) = (flat.px(1.0), palette::GRID_MAJOR);
    mq::draw_rectangle_lines(min.x, min.y, size.x, size.y, line, border);
    let title = min + Vec2::new(flat.px(6.0), flat.px(4.0));
    flat.screen_text(title, "Gauss map", 13.0, palette::TEXT, false);
    let view = SphereView::new(camera, rect);
    let (c, r) = (view.center, view.radius);
    mq::draw_circle(c.x, c.y, r, palette::with_alpha(palette::GRID_MINOR, 0.6));
    mq::draw_circle_lines(c.x, c.y, r, line, border);
    view
}

/// The step's note, wrapped, at the bottom of the card.
fn draw_note(flat: &Painter, rect: Rect, note: &str) {
    if note.is_empty() {
        return;
    }
    let margin = flat.px(6.0);
    let width = rect.size().x - 2.0 * margin;
    let lines = crate::text::wrap(note, |s| flat.measure(s, 12.0).x, width);
    let line_h = flat.px(15.0);
    let top = rect.max.y - margin - line_h * lines.len() as f32;
    for (k, line) in lines.iter().enumerate() {
        let at = Vec2::new(rect.min.x + margin, top + line_h * k as f32);
        flat.screen_text(at, line, 12.0, palette::TEXT, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arc_runs_on_the_sphere_from_one_normal_to_the_other() {
        let points = arc_points(Vec3::X, Vec3::Y);
        assert_eq!(points.len(), ARC_SEGMENTS + 1);
        assert!((points[0] - Vec3::X).length() < 1e-6);
        assert!((points[ARC_SEGMENTS] - Vec3::Y).length() < 1e-5);
        for p in points {
            assert!((p.length() - 1.0).abs() < 1e-5);
            assert!(p.z.abs() < 1e-6, "on the great circle of x and y");
        }
    }
}
