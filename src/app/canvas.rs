//! The picture: grid, bodies, velocity arrows, every enabled overlay, the A - B inset and
//! the legend. The window and `render` both draw through [`draw_canvas`].

use super::analysis::Analysis;
use super::camera::Camera;
use super::draw::{self, palette, LabelBoard, LegendEntry, Painter, PlacedLabel, Role};
use super::labels::Rect;
use super::labs::{Lab, LabCtx};
use super::layout::{self, inset_rect};
use super::overlays::OverlayState;
use super::state::Document;
use glam::Vec2;
use macroquad::prelude as mq;

/// Everything one frame of the canvas needs.
pub struct CanvasInput<'a> {
    pub doc: &'a Document,
    pub run: Option<&'a Analysis>,
    pub labs: &'a [Box<dyn Lab>],
    pub overlays: &'a OverlayState,
    pub camera: Camera,
    pub scale: f32,
    /// A line of text under the picture (the timeline sentence, in renders).
    pub caption: Option<String>,
    /// Whether to draw the legend box.
    pub legend: bool,
}

/// A camera on the inset that frames what the labs draw there (A - B, the steps recorded
/// in it) and its origin. Bounds come from every step, so the inset holds still while
/// stepping.
pub fn inset_camera(run: &Analysis, labs: &[Box<dyn Lab>], camera: &Camera, scale: f32) -> Camera {
    inset_camera_in(run, labs, camera, inset_rect(camera, scale))
}

/// Where the inset goes on this canvas: clear of the focused pair when a corner allows
/// (see [`layout::inset_rect_avoiding`]).
pub fn inset_rect_for(
    doc: &Document,
    run: &Analysis,
    camera: &Camera,
    scale: f32,
    taken: layout::CornersTaken,
) -> (Vec2, Vec2) {
    let pair: Vec<_> = [run.a, run.b]
        .iter()
        .filter_map(|&i| doc.bodies.get(i))
        .collect();
    let focus = layout::screen_box(camera, &pair);
    layout::inset_rect_avoiding(camera, scale, focus, taken)
}

/// [`inset_camera`] on the rectangle `(origin, size)`.
pub fn inset_camera_in(
    run: &Analysis,
    labs: &[Box<dyn Lab>],
    camera: &Camera,
    (origin, size): (Vec2, Vec2),
) -> Camera {
    let mut lo = Vec2::ZERO;
    let mut hi = Vec2::ZERO;
    let mut grow = |p: Vec2| {
        if p.is_finite() {
            lo = lo.min(p);
            hi = hi.max(p);
        }
    };
    for lab in labs {
        lab.inset_points(run, &mut grow);
    }
    let mut cam = Camera {
        origin,
        size,
        ..*camera
    };
    cam.fit(lo, hi, 0.16);
    cam
}

/// Draws the canvas; returns where its labels went (every label is placed once the
/// geometry under it is known, see [`LabelBoard`]).
pub fn draw_canvas(input: &CanvasInput) -> Vec<PlacedLabel> {
    let board = LabelBoard::new();
    let plain = Painter::new(input.camera, input.scale);
    draw::draw_grid(&plain);
    let world = plain.clone().labelled(&board);
    draw_bodies(&world, input);
    let mut legend = vec![
        LegendEntry::new(palette::BODY_A, "body A"),
        LegendEntry::new(palette::BODY_B, "body B"),
    ];
    let (_, inset_size) = inset_rect(&input.camera, input.scale);
    if let Some(run) = input.run {
        let drawn: Vec<&dyn Lab> = input
            .labs
            .iter()
            .map(|l| l.as_ref())
            .filter(|l| shows(input, run, *l))
            .collect();
        legend.extend(drawn.iter().flat_map(|l| l.legend()));
        dedup_legend(&mut legend);
        let camera = placed_inset_camera(input, run, &plain, &legend);
        let inset = Painter::new(camera, input.scale).labelled(&board);
        let wants_inset = input
            .labs
            .iter()
            .any(|l| l.uses_inset() && input.overlays.is_on(l.algorithm()));
        // World pass, then the inset card on top, then the inset pass.
        let world_pass = LabCtx {
            doc: input.doc,
            run,
            world: &world,
            inset: &inset.clone().hidden(),
        };
        for lab in &drawn {
            lab.draw(&world_pass, input.overlays.step(lab.algorithm()));
        }
        if wants_inset {
            draw_inset_frame(&inset);
            let inset_pass = LabCtx {
                doc: input.doc,
                run,
                world: &world.clone().hidden(),
                inset: &inset,
            };
            clip_to(Some(&inset.camera));
            for lab in &drawn {
                lab.draw(&inset_pass, input.overlays.step(lab.algorithm()));
            }
            inset.plus(Vec2::ZERO, 9.0, 2.5, palette::ORIGIN);
            inset.ranked_label(
                Vec2::ZERO,
                Vec2::new(-26.0, 6.0),
                "O",
                palette::ORIGIN,
                draw::LABEL_ORIGIN,
            );
            clip_to(None);
            board.borrow_mut().block(draw::camera_rect(&inset.camera));
        }
    }
    dedup_legend(&mut legend);
    if input.legend {
        let area = draw::draw_legend(&plain, "Legend", &legend, inset_size.x);
        area.into_iter().for_each(|r| board.borrow_mut().block(r));
    }
    if let Some(text) = &input.caption {
        let area = draw_caption(&plain, text);
        board.borrow_mut().block(area);
    }
    let placed = board.borrow().place_and_draw(input.scale);
    placed
}

/// The inset's camera, in the corner that covers least of the focused pair and of the
/// legend (measured as it will be drawn).
fn placed_inset_camera(
    input: &CanvasInput,
    run: &Analysis,
    plain: &Painter,
    legend: &[LegendEntry],
) -> Camera {
    let (_, inset_size) = inset_rect(&input.camera, input.scale);
    let legend_box = input
        .legend
        .then(|| draw::legend_box(plain, "Legend", legend, inset_size.x))
        .flatten();
    let taken = layout::CornersTaken {
        legend: input.legend,
        caption: input.caption.is_some(),
        legend_box: legend_box.map(|r| (r.min, r.max)),
    };
    let rect = inset_rect_for(input.doc, run, &input.camera, input.scale, taken);
    inset_camera_in(run, input.labs, &input.camera, rect)
}

/// Whether a lab's overlay is drawn. While the timeline shows an earlier step of one
/// algorithm, the other algorithms that draw in the A - B inset stay hidden so the inset
/// shows one story at a time; at the last step everything that is on is drawn.
fn shows(input: &CanvasInput, run: &Analysis, lab: &dyn Lab) -> bool {
    let o = lab.algorithm();
    if !input.overlays.is_on(o) {
        return false;
    }
    let timeline = input.overlays.timeline();
    if o == timeline || lab.is_backdrop() || !lab.uses_inset() {
        return true;
    }
    let stepping = input
        .labs
        .iter()
        .find(|l| l.algorithm() == timeline)
        .is_some_and(|l| {
            let n = run.step_count(l.algorithm());
            input.overlays.is_on(timeline)
                && input.overlays.step(timeline).is_some_and(|k| k + 1 < n)
        });
    !stepping
}

/// One line per colour: overlays share the palette, so their meanings join on one line.
fn dedup_legend(legend: &mut Vec<LegendEntry>) {
    let mut merged: Vec<LegendEntry> = Vec::new();
    for e in legend.drain(..) {
        match merged.iter_mut().find(|m| m.color == e.color) {
            Some(m) if !m.text.split("; ").any(|t| t == e.text) => {
                m.text = format!("{}; {}", m.text, e.text);
            }
            Some(_) => {}
            None => merged.push(e),
        }
    }
    *legend = merged;
}

fn draw_bodies(p: &Painter, input: &CanvasInput) {
    let doc = input.doc;
    let role = |i: usize| match doc.focus {
        Some((a, _)) if a == i => Role::A,
        Some((_, b)) if b == i => Role::B,
        _ => Role::Other,
    };
    for (i, body) in doc.bodies.iter().enumerate() {
        let r = role(i);
        draw::draw_body(
            p,
            body,
            r,
            doc.selected == Some(i),
            r == Role::Other && doc.focus.is_some(),
        );
    }
    let t = doc.meta.sweep_time();
    for body in &doc.bodies {
        if let Some(v) = body.velocity {
            let tip = body.pose.position + v * t;
            p.arrow(body.pose.position, tip, 2.0, palette::TEXT);
            p.ring(tip, 5.0, 1.5, palette::TEXT);
        }
    }
}

/// Limits drawing to a camera's rectangle (or lifts the limit), so that arrows and labels
/// near the inset's edge stay inside it.
fn clip_to(camera: Option<&Camera>) {
    let rect = camera.map(|c| {
        let (o, s) = (c.origin.round(), c.size.round());
        (o.x as i32, o.y as i32, s.x as i32, s.y as i32)
    });
    // SAFETY: macroquad's internal GL context is only used from the drawing thread, between
    // frames' draw calls, as macroquad's own UI does.
    unsafe { mq::get_internal_gl() }.quad_gl.scissor(rect);
}

/// The inset's white card, border, title and axes through the origin of A - B.
fn draw_inset_frame(p: &Painter) {
    let c = p.camera;
    mq::draw_rectangle(
        c.origin.x,
        c.origin.y,
        c.size.x,
        c.size.y,
        palette::with_alpha(mq::WHITE, 0.95),
    );
    mq::draw_rectangle_lines(
        c.origin.x,
        c.origin.y,
        c.size.x,
        c.size.y,
        p.px(2.0),
        palette::MINKOWSKI,
    );
    let (lo, hi) = c.visible_world();
    let axis = palette::with_alpha(palette::AXIS, 0.6);
    p.line(Vec2::new(lo.x, 0.0), Vec2::new(hi.x, 0.0), 1.0, axis);
    p.line(Vec2::new(0.0, lo.y), Vec2::new(0.0, hi.y), 1.0, axis);
    let title = "A - B (Minkowski difference)";
    p.screen_text(
        c.origin + Vec2::splat(p.px(6.0)),
        title,
        14.0,
        palette::MINKOWSKI,
        false,
    );
}

fn draw_caption(p: &Painter, text: &str) -> Rect {
    let c = p.camera;
    let size = 15.0;
    let max_w = c.size.x * 0.6;
    let lines = crate::text::wrap(text, |s| p.measure(s, size).x, max_w);
    let line_h = p.px(size + 5.0);
    let h = line_h * lines.len() as f32 + p.px(10.0);
    let x = c.origin.x + p.px(10.0);
    let y = c.origin.y + c.size.y - h - p.px(30.0);
    mq::draw_rectangle(
        x,
        y,
        max_w + p.px(12.0),
        h,
        palette::with_alpha(mq::WHITE, 0.92),
    );
    for (i, line) in lines.iter().enumerate() {
        let top = Vec2::new(x + p.px(6.0), y + p.px(5.0) + line_h * i as f32);
        p.screen_text(top, line, size, palette::TEXT, false);
    }
    Rect::new(Vec2::new(x, y), Vec2::new(max_w + p.px(12.0), h))
}
