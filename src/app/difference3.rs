//! A - B in the 3D workspace: the Minkowski difference of the focused pair as a translucent
//! hull around the origin, with what GJK, EPA and the other labs draw there.
//!
//! It shows in one of two places. View > Split view (V, and F5's presentation mode) gives it
//! the canvas's right half with an orbit camera of its own; otherwise, when an overlay that
//! draws in A - B is on, it is an inset card in a corner of the canvas. Its camera turns with
//! the bodies' camera and frames A - B, its origin and every point the labs draw there at any
//! step (so it holds still while stepping), until the user orbits, pans or zooms the split
//! half by hand; "Fit all" (F) hands it back.
//!
//! The hull is the core's (`query3::minkowski::body_difference`); nothing here computes
//! geometry beyond the bounds to frame.

use super::analysis3::Analysis3;
use super::camera3::Camera3;
use super::draw::{self, palette, LabelBoard, Painter};
use super::labels::Rect;
use super::labs3::{Lab3, Lab3Ctx, Label3};
use super::paint3::{FaceMesh, Painter3};
use super::split;
use super::state3::Document3;
use crate::geom3::{Pose3, Shape3Ref};
use crate::query::Algorithm;
use glam::{Vec2, Vec3};
use macroquad::prelude as mq;
use std::cell::RefCell;
use std::rc::Rc;

/// The hull's opacity: the simplex and the polytope inside it stay readable.
const HULL_ALPHA: f32 = 0.16;
/// The split view's links from a support point's sources to the point: faint, so that
/// they join the halves without hiding either.
const LINK_ALPHA: f32 = 0.35;

/// The A - B view's state, owned by the 3D workspace.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DifferenceView3 {
    /// Whether the canvas is split (otherwise A - B is an inset when a lab draws there).
    pub split: bool,
    /// The camera as the user left it, once they moved it by hand (`None`: it follows).
    pub user_camera: Option<Camera3>,
}

impl DifferenceView3 {
    /// Switches the split on or off; the A - B camera follows the bodies' again.
    pub fn set_split(&mut self, on: bool) {
        if self.split != on {
            self.split = on;
            self.user_camera = None;
        }
    }

    /// The camera on A - B in the viewport `rect`: the user's (moved into the viewport),
    /// or the bodies' orientation and projection framing the box `bounds` gives (asked only
    /// then).
    pub fn camera(
        &self,
        bodies: &Camera3,
        rect: Rect,
        bounds: impl FnOnce() -> (Vec3, Vec3),
    ) -> Camera3 {
        let (origin, size) = (rect.min, rect.size());
        if let Some(c) = self.user_camera {
            return Camera3 { origin, size, ..c };
        }
        let mut c = Camera3 {
            origin,
            size,
            ..*bodies
        };
        let (lo, hi) = bounds();
        c.fit(lo, hi);
        c
    }

    /// The user takes the camera (an orbit, a pan or a zoom in the split half): from now on
    /// it stays where they put it.
    pub fn take_camera(&mut self, shown: Camera3) -> &mut Camera3 {
        self.user_camera.get_or_insert(shown)
    }
}

/// The height of the title strip over the A - B view, logical pixels.
const TITLE_STRIP: f32 = 24.0;

/// The title strip's height on a card of height `card_height`.
fn title_strip(card_height: f32, scale: f32) -> f32 {
    (TITLE_STRIP * scale).min(0.3 * card_height)
}

/// The A - B view's viewport in its card: the card less the title strip at its top.
pub fn view_below_title(card: Rect, scale: f32) -> Rect {
    Rect {
        min: card.min + Vec2::new(0.0, title_strip(card.size().y, scale)),
        max: card.max,
    }
}

/// The card around a view [`view_below_title`] gave: the view and its title strip.
pub fn card_around(view: Rect, scale: f32) -> Rect {
    // The strip is at most 30 % of the card, so at most 3/7 of the view.
    let strip = (TITLE_STRIP * scale).min(0.3 / 0.7 * view.size().y);
    Rect {
        min: view.min - Vec2::new(0.0, strip),
        max: view.max,
    }
}

/// The split view's halves of a canvas `origin, size`: the bodies' and A - B's.
pub fn split_halves(origin: Vec2, size: Vec2, scale: f32) -> (Rect, Rect) {
    let h = split::halves(origin, size, split::GAP * scale);
    (
        Rect::new(h.left.0, h.left.1),
        Rect::new(h.right.0, h.right.1),
    )
}

/// What the A - B view draws: the run, the labs that draw there at their steps.
pub struct DifferenceScene<'a> {
    pub run: &'a Analysis3,
    pub doc: &'a Document3,
    /// The labs drawn in A - B with their steps (`None`: the answer), the timeline's last.
    pub labs: Vec<(&'a dyn Lab3, Option<usize>)>,
}

impl DifferenceScene<'_> {
    /// The box to frame: A - B's hull (or the cores' difference), the origin, and every
    /// point the labs draw there at any step.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        let mut lo = Vec3::ZERO;
        let mut hi = Vec3::ZERO;
        let mut keep = |p: Vec3| {
            if p.is_finite() {
                lo = lo.min(p);
                hi = hi.max(p);
            }
        };
        if let Ok(d) = self.run.difference(self.doc) {
            d.difference.hull.vertices().iter().for_each(|v| keep(*v));
        }
        for (lab, _) in &self.labs {
            lab.difference_points(self.run, &mut keep);
        }
        (lo, hi)
    }

    /// Draws A - B through `camera`: the card (an inset) or the half's frame (split), the
    /// hull, the cores' difference for round shapes, the origin, then each lab; its labels
    /// go to `board` in a view of their own. Returns the view's rectangle.
    pub fn draw(&self, camera: Camera3, scale: f32, inset: bool, board: &Rc<RefCell<LabelBoard>>) {
        let rect = Rect::new(camera.origin, camera.size);
        let card = card_around(rect, scale);
        let flat = Painter::new(super::camera::Camera::default(), scale);
        if inset {
            let size = card.size();
            mq::draw_rectangle(card.min.x, card.min.y, size.x, size.y, mq::WHITE);
            super::paint3::clear_depth_in(&camera);
        }
        let paint = Painter3::new(camera, scale);
        let labels = RefCell::new(Vec::new());
        let keep_clear = RefCell::new(Vec::new());
        paint.begin();
        self.draw_hull(&paint, &labels);
        for (lab, step) in &self.labs {
            lab.draw_difference(&Lab3Ctx {
                paint: &paint,
                doc: self.doc,
                run: self.run,
                step: *step,
                labels: &labels,
                keep_clear: &keep_clear,
                sweep_time: None,
            });
        }
        draw_origin(&paint, &labels);
        paint.end();
        frame_and_title(&flat, card, inset);
        let mut board = board.borrow_mut();
        let view = board.screen_view(card);
        for [p, q] in keep_clear.borrow().iter() {
            if let (Some(p), Some(q)) = (camera.to_screen(*p), camera.to_screen(*q)) {
                board.keep_clear_of(view, p, q);
            }
        }
        // A label whose point is outside the view (a clipped arrow's tip) is left out: its
        // leader would cross into the bodies' view.
        let inside = |p: &Vec2| p.cmpge(rect.min).all() && p.cmple(rect.max).all();
        for l in labels.borrow().iter() {
            if let Some(at) = camera.to_screen(l.at).filter(inside) {
                board.ask_at(view, at, &l.text, (l.color, l.importance), scale);
            }
        }
    }

    fn draw_hull(&self, paint: &Painter3, labels: &RefCell<Vec<Label3>>) {
        let d = match self.run.difference(self.doc) {
            Ok(d) => d,
            Err(e) => {
                labels.borrow_mut().push(Label3 {
                    at: Vec3::ZERO,
                    text: e.to_string(),
                    color: palette::REFUSED,
                    importance: draw::LABEL_BODY,
                });
                return;
            }
        };
        let identity = Pose3::default();
        let mesh = self.run.difference_mesh(self.doc);
        if let Some(cores) = &d.cores {
            // GJK and EPA walk the cores' difference: its outline inside the rounded hull.
            let edge = palette::with_alpha(palette::MINKOWSKI, 0.8);
            match &cores.hull {
                Some(hull) => {
                    let core_mesh = FaceMesh::of_shape(Shape3Ref::Polyhedron(hull), &identity);
                    for [p, q] in &core_mesh.edges {
                        paint.dashed(*p, *q, 1.5, edge);
                    }
                }
                None => draw_flat_core(paint, &cores.points, edge),
            }
            let at = cores.points.first().copied().unwrap_or_default();
            labels.borrow_mut().push(Label3 {
                at,
                text: format!(
                    "cores' A - B (grown by {} into A - B)",
                    super::labs::num(cores.radius)
                ),
                color: palette::MINKOWSKI,
                importance: draw::LABEL_DETAIL,
            });
        }
        let Some(mesh) = mesh else { return };
        paint.translucent(mesh, palette::MINKOWSKI, HULL_ALPHA);
        // A sampled hull's edges are facets of its rounded parts, not features: lighter.
        let edge_alpha = if d.difference.exact { 0.7 } else { 0.3 };
        paint.edges(
            mesh,
            1.2,
            palette::with_alpha(palette::MINKOWSKI, edge_alpha),
        );
    }
}

impl DifferenceScene<'_> {
    /// The split view's faint links from the support point's sources on the bodies (a on
    /// A, b on B, left) to the support point w = a - b in A - B (right), for each lab that
    /// found one at its step.
    pub fn draw_links(&self, bodies: &Camera3, difference: &Camera3, scale: f32) {
        let inside =
            |c: &Camera3, p: Vec2| p.cmpge(c.origin).all() && p.cmple(c.origin + c.size).all();
        for (lab, step) in &self.labs {
            let Some(w) = lab.support_point(self.run, *step) else {
                continue;
            };
            let Some(target) = difference
                .to_screen(w.point)
                .filter(|p| inside(difference, *p))
            else {
                continue;
            };
            for (source, color) in [(w.on_a, palette::BODY_A), (w.on_b, palette::BODY_B)] {
                if let Some(from) = bodies.to_screen(source).filter(|p| inside(bodies, *p)) {
                    let faint = palette::with_alpha(color, LINK_ALPHA);
                    draw::screen_dashed(from, target, 1.5 * scale, 6.0 * scale, faint);
                }
            }
        }
    }
}

/// A flat cores' difference (a point, a segment or a polygon): its points and the segments
/// between them.
fn draw_flat_core(paint: &Painter3, points: &[Vec3], color: mq::Color) {
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            paint.dashed(*p, *q, 1.5, color);
        }
        paint.dot(*p, 3.0, color);
    }
}

/// The origin: three short axis strokes (so it reads as a point in space at any turn) and
/// the letter O.
fn draw_origin(paint: &Painter3, labels: &RefCell<Vec<Label3>>) {
    let c = &paint.camera;
    let reach = 14.0 * paint.scale / c.pixels_per_unit_at(Vec3::ZERO).max(1e-6);
    for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
        paint.line_on_top(-axis * reach, axis * reach, 2.0, palette::ORIGIN);
    }
    paint.dot(Vec3::ZERO, 3.5, palette::ORIGIN);
    labels.borrow_mut().push(Label3 {
        at: Vec3::ZERO,
        text: "O".into(),
        color: palette::ORIGIN,
        importance: draw::LABEL_ORIGIN,
    });
}

/// The inset's border, or the split half's, and the title in its corner.
fn frame_and_title(flat: &Painter, rect: Rect, inset: bool) {
    let size = rect.size();
    mq::draw_rectangle_lines(
        rect.min.x,
        rect.min.y,
        size.x,
        size.y,
        flat.px(2.0),
        palette::MINKOWSKI,
    );
    let title = match inset {
        true => "A - B",
        false => "A - B (Minkowski difference)",
    };
    let size = if inset { 14.0 } else { 16.0 };
    flat.screen_text(
        rect.min + Vec2::splat(flat.px(5.0)),
        title,
        size,
        palette::MINKOWSKI,
        false,
    );
}

/// Whether A - B shows without the split: some lab that draws there is on.
pub fn wants_inset(labs: &[Box<dyn Lab3>], on: impl Fn(Algorithm) -> bool) -> bool {
    labs.iter()
        .any(|l| l.uses_difference() && on(l.algorithm()))
}
