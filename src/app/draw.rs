//! Shared drawing: the overlay palette, the painter (world-space primitives drawn in screen
//! pixels, widths and fonts scaled by the UI scale), the grid, the bodies and the legend.
//! Everything here draws numbers the core recorded; nothing computes geometry.

use super::camera::Camera;
use super::labels::{self, Label, Obstacles, Placement, Rect, Spacing};
use crate::scene::SceneBody;
use glam::Vec2;
use macroquad::prelude as mq;
use macroquad::prelude::Color;
use std::cell::RefCell;
use std::rc::Rc;

/// One colour per meaning, shared by every overlay and explained in the legend.
pub mod palette {
    use macroquad::prelude::Color;

    const fn rgb(r: u8, g: u8, b: u8) -> Color {
        Color::new(r as f32 / 255.0, g as f32 / 255.0, b as f32 / 255.0, 1.0)
    }

    pub const BACKGROUND: Color = rgb(0xf8, 0xf8, 0xf4);
    pub const GRID_MINOR: Color = rgb(0xe6, 0xe6, 0xe0);
    pub const GRID_MAJOR: Color = rgb(0xcf, 0xcf, 0xc8);
    pub const AXIS: Color = rgb(0x8a, 0x8a, 0x84);
    pub const TEXT: Color = rgb(0x1f, 0x29, 0x37);
    /// Body A of the focused pair, and everything that belongs to it (its support points,
    /// its projection interval).
    pub const BODY_A: Color = rgb(0x25, 0x63, 0xeb);
    /// Body B of the focused pair.
    pub const BODY_B: Color = rgb(0x16, 0xa3, 0x4a);
    /// Bodies outside the focused pair.
    pub const OTHER: Color = rgb(0x9c, 0xa3, 0xaf);
    /// The Minkowski difference A - B.
    pub const MINKOWSKI: Color = rgb(0x7c, 0x3a, 0xed);
    /// The origin of the Minkowski difference.
    pub const ORIGIN: Color = rgb(0x11, 0x18, 0x27);
    /// What the algorithm holds at the selected step: GJK's simplex, clipping's segments.
    pub const STRUCTURE: Color = rgb(0xea, 0x58, 0x0c);
    /// EPA's polytope: its own colour, so that it never reads as GJK's simplex.
    pub const POLYTOPE: Color = rgb(0x8a, 0x4b, 0x08);
    /// SAT's axis at the selected step (the best axis so far is [`HIGHLIGHT`]).
    pub const CURRENT_AXIS: Color = rgb(0x31, 0x2e, 0x81);
    /// The feature the step picked: closest point or edge, best axis, reference edge.
    pub const HIGHLIGHT: Color = rgb(0xdb, 0x27, 0x77);
    /// Where the algorithm looks next: search direction, new support point, incident edge.
    pub const SEARCH: Color = rgb(0x08, 0x91, 0xb2);
    /// Final answers: normal, depth, distance, contact points, overlaps.
    pub const RESULT: Color = rgb(0xdc, 0x26, 0x26);
    /// A gap (SAT) or a refused edit.
    pub const GAP: Color = rgb(0x0d, 0x94, 0x88);
    pub const REFUSED: Color = rgb(0xb9, 0x1c, 0x1c);
    pub const SELECTION: Color = rgb(0xf5, 0x9e, 0x0b);

    pub fn with_alpha(c: Color, a: f32) -> Color {
        Color::new(c.r, c.g, c.b, a)
    }

    /// An `[r, g, b]` colour from a scene file.
    pub fn from_rgb(c: [u8; 3]) -> Color {
        rgb(c[0], c[1], c[2])
    }
}

/// Draws world-space primitives on the canvas. Widths and text sizes are in logical pixels
/// and multiplied by `scale` (the UI scale: 1 on a laptop, 2 or more on a projector).
#[derive(Clone, Debug)]
pub struct Painter {
    pub camera: Camera,
    pub scale: f32,
    /// When false every primitive is skipped: the canvas draws each overlay twice, once for
    /// the world and once for the inset, so that world lines never cross the inset.
    pub visible: bool,
    /// Where labels wait to be placed (and which of its views this painter draws in), so
    /// that they avoid each other and what is drawn; without one they are drawn at once.
    board: Option<(Rc<RefCell<LabelBoard>>, usize)>,
}

impl Painter {
    pub fn new(camera: Camera, scale: f32) -> Self {
        Painter {
            camera,
            scale,
            visible: true,
            board: None,
        }
    }

    /// This painter with its labels going to `board`, in a view of their own bounded by
    /// the camera's rectangle; what it draws from now on is geometry they keep clear of.
    pub fn labelled(self, board: &Rc<RefCell<LabelBoard>>) -> Self {
        let layer = board.borrow_mut().add_view(camera_rect(&self.camera));
        Painter {
            board: Some((board.clone(), layer)),
            ..self
        }
    }

    /// Notes drawn geometry (screen pixels) for the label placer.
    fn note(&self, obstacle: Obstacle) {
        if let Some((board, layer)) = &self.board {
            board.borrow_mut().note(*layer, obstacle);
        }
    }

    fn note_mark(&self, center: Vec2, radius: f32) {
        let r = Vec2::splat(radius);
        self.note(Obstacle::Mark(Rect::new(center - r, 2.0 * r)));
    }

    pub fn hidden(self) -> Self {
        Painter {
            visible: false,
            ..self
        }
    }

    pub fn px(&self, logical: f32) -> f32 {
        logical * self.scale
    }

    pub fn to_screen(&self, p: Vec2) -> Vec2 {
        self.camera.to_screen(p)
    }

    /// A world segment, `width` logical pixels wide.
    pub fn line(&self, a: Vec2, b: Vec2, width: f32, color: Color) {
        if !self.visible {
            return;
        }
        let (a, b) = (self.to_screen(a), self.to_screen(b));
        self.note(Obstacle::Segment(a, b));
        screen_line(a, b, self.px(width), color);
    }

    /// A dashed world segment.
    pub fn dashed(&self, a: Vec2, b: Vec2, width: f32, color: Color) {
        if !self.visible {
            return;
        }
        let (a, b) = (self.to_screen(a), self.to_screen(b));
        self.note(Obstacle::Segment(a, b));
        screen_dashed(a, b, self.px(width), self.px(8.0), color);
    }

    /// An arrow from `from` to `to` (world), with a head sized in pixels.
    pub fn arrow(&self, from: Vec2, to: Vec2, width: f32, color: Color) {
        if !self.visible {
            return;
        }
        let (a, b) = (self.to_screen(from), self.to_screen(to));
        self.note(Obstacle::Segment(a, b));
        screen_arrow(a, b, self.px(width), self.px(12.0), color);
    }

    /// An arrow of fixed screen length starting at `from` in world direction `dir`.
    pub fn ray(&self, from: Vec2, dir: Vec2, length_px: f32, width: f32, color: Color) {
        if !self.visible {
            return;
        }
        let Some(d) = self.camera.dir_to_screen(dir).try_normalize() else {
            return;
        };
        let a = self.to_screen(from);
        self.note(Obstacle::Segment(a, a + d * self.px(length_px)));
        screen_arrow(
            a,
            a + d * self.px(length_px),
            self.px(width),
            self.px(12.0),
            color,
        );
    }

    /// A closed outline through world points.
    pub fn outline(&self, points: &[Vec2], width: f32, color: Color) {
        for i in 0..points.len() {
            let j = (i + 1) % points.len();
            if points.len() == 2 && j == 0 {
                break;
            }
            self.line(points[i], points[j], width, color);
        }
    }

    /// A closed dashed outline.
    pub fn dashed_outline(&self, points: &[Vec2], width: f32, color: Color) {
        for i in 0..points.len() {
            self.dashed(points[i], points[(i + 1) % points.len()], width, color);
        }
    }

    /// Fills a convex outline (a triangle fan from its first point).
    pub fn fill_convex(&self, points: &[Vec2], color: Color) {
        if !self.visible {
            return;
        }
        if points.len() < 3 {
            return;
        }
        let s: Vec<Vec2> = points.iter().map(|p| self.to_screen(*p)).collect();
        for i in 1..s.len() - 1 {
            mq::draw_triangle(s[0], s[i], s[i + 1], color);
        }
    }

    /// A dot of `radius` logical pixels.
    pub fn dot(&self, p: Vec2, radius: f32, color: Color) {
        if !self.visible {
            return;
        }
        let s = self.to_screen(p);
        self.note_mark(s, self.px(radius));
        mq::draw_circle(s.x, s.y, self.px(radius), color);
    }

    /// A hollow ring of `radius` logical pixels.
    pub fn ring(&self, p: Vec2, radius: f32, width: f32, color: Color) {
        if !self.visible {
            return;
        }
        let s = self.to_screen(p);
        self.note_mark(s, self.px(radius));
        mq::draw_circle_lines(s.x, s.y, self.px(radius), self.px(width), color);
    }

    /// A cross of half-size `radius` logical pixels (a dropped point, the origin).
    pub fn cross(&self, p: Vec2, radius: f32, width: f32, color: Color) {
        if !self.visible {
            return;
        }
        let s = self.to_screen(p);
        let r = self.px(radius);
        self.note_mark(s, r);
        screen_line(
            s - Vec2::splat(r),
            s + Vec2::splat(r),
            self.px(width),
            color,
        );
        screen_line(
            s + Vec2::new(-r, r),
            s + Vec2::new(r, -r),
            self.px(width),
            color,
        );
    }

    /// A plus sign, axis-aligned.
    pub fn plus(&self, p: Vec2, radius: f32, width: f32, color: Color) {
        if !self.visible {
            return;
        }
        let s = self.to_screen(p);
        let r = self.px(radius);
        self.note_mark(s, r);
        screen_line(s - Vec2::X * r, s + Vec2::X * r, self.px(width), color);
        screen_line(s - Vec2::Y * r, s + Vec2::Y * r, self.px(width), color);
    }

    /// The whole infinite line through `p` with world direction `dir`, clipped to the canvas.
    pub fn infinite_line(&self, p: Vec2, dir: Vec2, width: f32, color: Color) {
        let Some(d) = dir.try_normalize() else {
            return;
        };
        let reach = self.camera.size.length() / self.camera.zoom;
        self.line(p - d * reach, p + d * reach, width, color);
    }

    /// Text describing a world point, on a light backing so it stays readable over lines.
    /// `offset` (logical pixels) is where its author would like the text's top-left corner;
    /// with a label board the placer may move it (see [`labels::place`]).
    pub fn label(&self, at: Vec2, offset: Vec2, text: &str, color: Color) {
        self.ranked_label(at, offset, text, color, LABEL_DETAIL);
    }

    /// A label with an importance (larger: placed first, dropped last).
    pub fn ranked_label(&self, at: Vec2, offset: Vec2, text: &str, color: Color, importance: u8) {
        if !self.visible {
            return;
        }
        let Some((board, layer)) = &self.board else {
            let s = self.to_screen(at) + offset * self.scale;
            self.screen_text(s, text, LABEL_SIZE, color, true);
            return;
        };
        let pad = self.px(LABEL_PAD);
        let size = self.measure(text, LABEL_SIZE) + Vec2::splat(2.0 * pad);
        let label = Label {
            anchor: self.to_screen(at),
            preferred: offset * self.scale - Vec2::splat(pad),
            size,
            importance,
        };
        board.borrow_mut().ask(*layer, label, text, color);
    }

    /// Text at a screen position (top-left), `size` logical pixels tall.
    pub fn screen_text(&self, top_left: Vec2, text: &str, size: f32, color: Color, backing: bool) {
        if !self.visible {
            return;
        }
        let font_size = self.px(size).round().max(6.0) as u16;
        let dims = mq::measure_text(text, None, font_size, 1.0);
        self.note(Obstacle::Mark(Rect::new(
            top_left,
            Vec2::new(dims.width, dims.height),
        )));
        if backing {
            let pad = self.px(2.0);
            mq::draw_rectangle(
                top_left.x - pad,
                top_left.y - pad,
                dims.width + 2.0 * pad,
                dims.height + 2.0 * pad,
                palette::with_alpha(palette::BACKGROUND, 0.85),
            );
        }
        mq::draw_text(
            text,
            top_left.x,
            top_left.y + dims.offset_y,
            font_size as f32,
            color,
        );
    }

    /// Width and height in pixels of `text` at logical size `size`.
    pub fn measure(&self, text: &str, size: f32) -> Vec2 {
        let font_size = self.px(size).round().max(6.0) as u16;
        let d = mq::measure_text(text, None, font_size, 1.0);
        Vec2::new(d.width, d.height)
    }
}

/// Labels' text size and the backing's margin around the text, in logical pixels.
pub const LABEL_SIZE: f32 = 15.0;
const LABEL_PAD: f32 = 2.0;
/// The gap between an anchor and a label hugging it, in logical pixels.
const LABEL_GAP: f32 = 6.0;

/// Labels' importance: a body's name outlasts the origin's mark, which outlasts a step's
/// details (support points, edge names, values).
pub const LABEL_BODY: u8 = 3;
pub const LABEL_ORIGIN: u8 = 2;
pub const LABEL_DETAIL: u8 = 1;

/// Something drawn that labels keep clear of, in screen pixels.
#[derive(Clone, Copy, Debug)]
enum Obstacle {
    Segment(Vec2, Vec2),
    Mark(Rect),
}

/// One view's labels waiting for the placer, and what is drawn there.
#[derive(Debug)]
struct LabelView {
    bounds: Rect,
    obstacles: Obstacles,
    labels: Vec<(Label, String, Color)>,
}

/// A label as placed on the screen: what the tests check (no overlaps, inside its view).
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedLabel {
    pub text: String,
    pub rect: Rect,
    /// The view it belongs to (the canvas or the inset).
    pub view: Rect,
}

/// Placed labels as JSON (`text`, `rect` and `view` as `[x, y, width, height]` pixels), for
/// the window's test probe and `render`'s `COLLISION_LAB_LABELS_FILE`.
pub fn labels_json(placed: &[PlacedLabel]) -> serde_json::Value {
    let rect = |r: &Rect| {
        let s = r.size();
        serde_json::json!([r.min.x, r.min.y, s.x, s.y])
    };
    placed
        .iter()
        .map(|l| serde_json::json!({"text": l.text, "rect": rect(&l.rect), "view": rect(&l.view)}))
        .collect()
}

/// The labels of one frame of the canvas, gathered while drawing and placed at the end
/// (so they know every line drawn under them) by [`LabelBoard::place_and_draw`].
#[derive(Debug, Default)]
pub struct LabelBoard {
    views: Vec<LabelView>,
}

impl LabelBoard {
    pub fn new() -> Rc<RefCell<LabelBoard>> {
        Rc::new(RefCell::new(LabelBoard::default()))
    }

    fn add_view(&mut self, bounds: Rect) -> usize {
        self.views.push(LabelView {
            bounds,
            obstacles: Obstacles::default(),
            labels: Vec::new(),
        });
        self.views.len() - 1
    }

    fn note(&mut self, view: usize, o: Obstacle) {
        let obstacles = &mut self.views[view].obstacles;
        match o {
            Obstacle::Segment(a, b) => obstacles.segments.push((a, b)),
            Obstacle::Mark(r) => obstacles.marks.push(r),
        }
    }

    fn ask(&mut self, view: usize, label: Label, text: &str, color: Color) {
        self.views[view]
            .labels
            .push((label, text.to_string(), color));
    }

    /// A view of screen labels (the 3D canvas's): its index for [`LabelBoard::ask_at`].
    pub fn screen_view(&mut self, bounds: Rect) -> usize {
        self.add_view(bounds)
    }

    /// A label for the screen point `anchor` of view `view`, hugging it at the placer's
    /// choice; `importance` as for [`Painter::ranked_label`].
    pub fn ask_at(
        &mut self,
        view: usize,
        anchor: Vec2,
        text: &str,
        (color, importance): (Color, u8),
        scale: f32,
    ) {
        let pad = LABEL_PAD * scale;
        let font = (LABEL_SIZE * scale).round().max(6.0) as u16;
        let dims = mq::measure_text(text, None, font, 1.0);
        let label = Label {
            anchor,
            preferred: Vec2::new(LABEL_GAP, LABEL_GAP) * scale - Vec2::splat(pad),
            size: Vec2::new(dims.width, dims.height) + Vec2::splat(2.0 * pad),
            importance,
        };
        self.ask(view, label, text, color);
    }

    /// A drawn screen segment labels of view `view` keep clear of.
    pub fn keep_clear_of(&mut self, view: usize, a: Vec2, b: Vec2) {
        self.note(view, Obstacle::Segment(a, b));
    }

    /// Keeps every label of every view out of `area` (the legend, the inset card, the
    /// caption), except the labels of the view that is `area` itself.
    pub fn block(&mut self, area: Rect) {
        for v in &mut self.views {
            if v.bounds != area {
                v.obstacles.blocked.push(area);
            }
        }
    }

    /// Places every view's labels and draws them; returns where they went.
    pub fn place_and_draw(&self, scale: f32) -> Vec<PlacedLabel> {
        let mut out = Vec::new();
        let spacing = Spacing {
            gap: LABEL_GAP * scale,
        };
        for v in &self.views {
            let asked: Vec<Label> = v.labels.iter().map(|(l, _, _)| *l).collect();
            let placements = labels::place(&asked, v.bounds, &v.obstacles, spacing);
            for ((_, text, color), p) in v.labels.iter().zip(placements) {
                let Placement::Placed { rect, leader } = p else {
                    continue;
                };
                draw_placed_label(rect, leader, text, *color, scale);
                out.push(PlacedLabel {
                    text: text.clone(),
                    rect,
                    view: v.bounds,
                });
            }
        }
        out
    }
}

fn draw_placed_label(
    rect: Rect,
    leader: Option<(Vec2, Vec2)>,
    text: &str,
    color: Color,
    scale: f32,
) {
    if let Some((a, b)) = leader {
        screen_line(a, b, scale, palette::with_alpha(color, 0.7));
    }
    let size = rect.size();
    mq::draw_rectangle(
        rect.min.x,
        rect.min.y,
        size.x,
        size.y,
        palette::with_alpha(palette::BACKGROUND, 0.85),
    );
    let font_size = (LABEL_SIZE * scale).round().max(6.0) as u16;
    let dims = mq::measure_text(text, None, font_size, 1.0);
    let pad = LABEL_PAD * scale;
    mq::draw_text(
        text,
        rect.min.x + pad,
        rect.min.y + pad + dims.offset_y,
        font_size as f32,
        color,
    );
}

/// A camera's canvas rectangle.
pub fn camera_rect(c: &Camera) -> Rect {
    Rect::new(c.origin, c.size)
}

pub fn screen_line(a: Vec2, b: Vec2, width: f32, color: Color) {
    if a.is_finite() && b.is_finite() {
        mq::draw_line(a.x, a.y, b.x, b.y, width, color);
    }
}

/// A dashed screen segment, dashes and gaps `dash` pixels long.
pub fn screen_dashed(a: Vec2, b: Vec2, width: f32, dash: f32, color: Color) {
    let length = (b - a).length();
    if length < 1e-3 || !length.is_finite() || dash <= 0.0 {
        return;
    }
    let dir = (b - a) / length;
    let mut t = 0.0;
    while t < length {
        let end = (t + dash).min(length);
        screen_line(a + dir * t, a + dir * end, width, color);
        t += 2.0 * dash;
    }
}

fn screen_arrow(a: Vec2, b: Vec2, width: f32, head: f32, color: Color) {
    let Some(d) = (b - a).try_normalize() else {
        return;
    };
    let head = head.min((b - a).length() * 0.5).max(width * 2.0);
    let base = b - d * head;
    screen_line(a, base, width, color);
    let side = Vec2::new(-d.y, d.x) * head * 0.45;
    mq::draw_triangle(b, base + side, base - side, color);
}

/// Picks a spacing of 1, 2 or 5 times a power of ten, at least `min` world units.
pub fn nice_step(min: f32) -> f32 {
    let p = 10f32.powf(min.max(1e-9).log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|k| k * p)
        .find(|s| *s >= min)
        .unwrap_or(10.0 * p)
}

/// The background grid: minor lines, major lines every 5, the axes, and labels on the
/// major lines along the canvas edges.
pub fn draw_grid(p: &Painter) {
    // The grid is background: labels may sit on it.
    let p = &Painter {
        board: None,
        ..p.clone()
    };
    let cam = p.camera;
    mq::draw_rectangle(
        cam.origin.x,
        cam.origin.y,
        cam.size.x,
        cam.size.y,
        palette::BACKGROUND,
    );
    let step = nice_step(p.px(24.0) / cam.zoom);
    let major = step * 5.0;
    let (lo, hi) = cam.visible_world();
    let lines = |spacing: f32, color: Color, width: f32| {
        let mut x = (lo.x / spacing).floor() * spacing;
        while x <= hi.x {
            p.line(Vec2::new(x, lo.y), Vec2::new(x, hi.y), width, color);
            x += spacing;
        }
        let mut y = (lo.y / spacing).floor() * spacing;
        while y <= hi.y {
            p.line(Vec2::new(lo.x, y), Vec2::new(hi.x, y), width, color);
            y += spacing;
        }
    };
    lines(step, palette::GRID_MINOR, 1.0);
    lines(major, palette::GRID_MAJOR, 1.0);
    p.line(
        Vec2::new(lo.x, 0.0),
        Vec2::new(hi.x, 0.0),
        1.5,
        palette::AXIS,
    );
    p.line(
        Vec2::new(0.0, lo.y),
        Vec2::new(0.0, hi.y),
        1.5,
        palette::AXIS,
    );
    grid_labels(p, major, lo, hi);
}

fn grid_labels(p: &Painter, major: f32, lo: Vec2, hi: Vec2) {
    let cam = p.camera;
    let fmt = |v: f32| {
        let v = if v.abs() < major * 1e-3 { 0.0 } else { v };
        crate::text::format_number(v, 3)
    };
    let mut x = (lo.x / major).ceil() * major;
    while x <= hi.x {
        let s = p.to_screen(Vec2::new(x, 0.0));
        let y = cam.origin.y + cam.size.y - p.px(18.0);
        p.screen_text(
            Vec2::new(s.x + p.px(3.0), y),
            &fmt(x),
            13.0,
            palette::AXIS,
            false,
        );
        x += major;
    }
    let mut y = (lo.y / major).ceil() * major;
    while y <= hi.y {
        let s = p.to_screen(Vec2::new(0.0, y));
        p.screen_text(
            Vec2::new(cam.origin.x + p.px(4.0), s.y + p.px(2.0)),
            &fmt(y),
            13.0,
            palette::AXIS,
            false,
        );
        y += major;
    }
}

/// How a body is drawn: its role in the focused pair and whether it is selected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    A,
    B,
    Other,
}

/// Fills and outlines a body; the focused pair gets role-coloured outlines and an A/B tag.
pub fn draw_body(p: &Painter, body: &SceneBody, role: Role, selected: bool, faded: bool) {
    let outline = super::layout::body_outline(body, p.camera.zoom);
    let fill = body.color.map(palette::from_rgb).unwrap_or(match role {
        Role::A => palette::BODY_A,
        Role::B => palette::BODY_B,
        Role::Other => palette::OTHER,
    });
    let alpha = if faded { 0.10 } else { 0.22 };
    fill_outline(p, &outline, palette::with_alpha(fill, alpha));
    let (stroke, width) = match role {
        Role::A => (palette::BODY_A, 2.5),
        Role::B => (palette::BODY_B, 2.5),
        Role::Other => (palette::with_alpha(fill, 0.9), 1.5),
    };
    if selected {
        p.outline(
            &outline,
            width + 4.0,
            palette::with_alpha(palette::SELECTION, 0.6),
        );
    }
    p.outline(&outline, width, stroke);
    // The core of a rounded shape (capsule segment, circle centre) is what GJK works on.
    if body.shape.is_round() {
        let core = super::layout::world_points(&body.pose, body.shape.core());
        if core.len() == 2 {
            p.dashed(core[0], core[1], 1.0, stroke);
        }
    }
    p.plus(body.pose.position, 4.0, 1.5, stroke);
    let tag = match role {
        Role::A => format!("A: {}", body.name),
        Role::B => format!("B: {}", body.name),
        Role::Other => body.name.clone(),
    };
    let top = outline.iter().fold(f32::MIN, |m, q| m.max(q.y));
    let anchor = Vec2::new(body.pose.position.x, top);
    let w = p.measure(&tag, LABEL_SIZE).x / p.scale;
    p.ranked_label(anchor, Vec2::new(-0.5 * w, -22.0), &tag, stroke, LABEL_BODY);
}

/// Fills any outline that is star-shaped about its centroid (every convex body is).
fn fill_outline(p: &Painter, outline: &[Vec2], color: Color) {
    if outline.len() < 3 {
        return;
    }
    let c = outline.iter().copied().sum::<Vec2>() / outline.len() as f32;
    let cs = p.to_screen(c);
    for i in 0..outline.len() {
        let a = p.to_screen(outline[i]);
        let b = p.to_screen(outline[(i + 1) % outline.len()]);
        mq::draw_triangle(cs, a, b, color);
    }
}

/// One line of the legend: a colour swatch and what it means.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    pub color: Color,
    pub text: String,
}

impl LegendEntry {
    pub fn new(color: Color, text: impl Into<String>) -> Self {
        LegendEntry {
            color,
            text: text.into(),
        }
    }
}

/// The legend box in the canvas's top-right corner, or with its top-left corner at `at`
/// (see [`crate::app::layout::legend_left_origin`]), at most `max_width` pixels wide (long
/// entries wrap), so that it stays in the column the camera keeps free of bodies. Returns
/// the box it drew.
pub fn draw_legend(
    p: &Painter,
    title: &str,
    entries: &[LegendEntry],
    max_width: f32,
    at: Option<Vec2>,
) -> Option<Rect> {
    let mut l = legend_layout(p, title, entries, max_width)?;
    if let Some(at) = at {
        l.rect = Rect::new(at, l.rect.size());
    }
    let (x, y, w, h) = (l.rect.min.x, l.rect.min.y, l.rect.size().x, l.rect.size().y);
    let (pad, swatch) = (l.pad, l.swatch);
    mq::draw_rectangle(x, y, w, h, palette::with_alpha(mq::WHITE, 0.92));
    mq::draw_rectangle_lines(x, y, w, h, p.px(1.0), palette::GRID_MAJOR);
    p.screen_text(
        Vec2::new(x + pad, y + pad * 0.5),
        title,
        LEGEND_SIZE,
        palette::TEXT,
        false,
    );
    for (i, (color, text)) in l.rows.iter().enumerate() {
        let row = y + pad * 0.5 + l.line_h * (i + 1) as f32;
        if let Some(c) = color {
            mq::draw_rectangle(x + pad, row + p.px(1.0), swatch, swatch, *c);
        }
        let at = Vec2::new(x + 2.0 * pad + swatch, row);
        p.screen_text(at, text, LEGEND_SIZE, palette::TEXT, false);
    }
    Some(l.rect)
}

/// The box [`draw_legend`] would draw, without drawing it (the inset keeps clear of it).
pub fn legend_box(
    p: &Painter,
    title: &str,
    entries: &[LegendEntry],
    max_width: f32,
) -> Option<Rect> {
    legend_layout(p, title, entries, max_width).map(|l| l.rect)
}

const LEGEND_SIZE: f32 = 14.0;

/// The folded legend's one-line button, `text` in the legend's type: its size in pixels.
pub fn legend_button_size(p: &Painter, text: &str) -> Vec2 {
    let pad = p.px(8.0);
    Vec2::new(
        p.measure(text, LEGEND_SIZE).x + 2.0 * pad,
        p.px(LEGEND_SIZE + 5.0) + pad,
    )
}

/// Draws the folded legend's button at `at` (its top-left corner, sized by
/// [`legend_button_size`]); returns its rectangle.
pub fn draw_legend_button(p: &Painter, text: &str, at: Vec2) -> Rect {
    let size = legend_button_size(p, text);
    let pad = p.px(8.0);
    mq::draw_rectangle(
        at.x,
        at.y,
        size.x,
        size.y,
        palette::with_alpha(mq::WHITE, 0.92),
    );
    mq::draw_rectangle_lines(at.x, at.y, size.x, size.y, p.px(1.0), palette::GRID_MAJOR);
    p.screen_text(
        at + Vec2::new(pad, pad * 0.5),
        text,
        LEGEND_SIZE,
        palette::TEXT,
        false,
    );
    Rect::new(at, size)
}

/// Where the legend's rows go.
struct LegendLayout {
    rows: Vec<(Option<Color>, String)>,
    rect: Rect,
    line_h: f32,
    swatch: f32,
    pad: f32,
}

fn legend_layout(
    p: &Painter,
    title: &str,
    entries: &[LegendEntry],
    max_width: f32,
) -> Option<LegendLayout> {
    if entries.is_empty() {
        return None;
    }
    let size = LEGEND_SIZE;
    let line_h = p.px(size + 5.0);
    let swatch = p.px(12.0);
    let pad = p.px(8.0);
    let text_room = (max_width - swatch - 3.0 * pad).max(p.px(80.0));
    let rows: Vec<(Option<Color>, String)> = entries
        .iter()
        .flat_map(|e| {
            let lines = crate::text::wrap(&e.text, |t| p.measure(t, size).x, text_room);
            lines
                .into_iter()
                .enumerate()
                .map(move |(i, l)| ((i == 0).then_some(e.color), l))
        })
        .collect();
    let text_w = rows
        .iter()
        .map(|(_, t)| p.measure(t, size).x)
        .fold(p.measure(title, size).x, f32::max);
    let w = text_w + swatch + 3.0 * pad;
    let h = line_h * (rows.len() + 1) as f32 + pad;
    let cam = p.camera;
    let x = cam.origin.x + cam.size.x - w - pad;
    let y = cam.origin.y + pad;
    Some(LegendLayout {
        rows,
        rect: Rect::new(Vec2::new(x, y), Vec2::new(w, h)),
        line_h,
        swatch,
        pad,
    })
}

#[cfg(test)]
mod tests {
    use super::nice_step;

    #[test]
    fn grid_steps_are_one_two_five() {
        assert_eq!(nice_step(0.3), 0.5);
        assert_eq!(nice_step(1.0), 1.0);
        assert_eq!(nice_step(1.1), 2.0);
        assert_eq!(nice_step(30.0), 50.0);
    }
}
