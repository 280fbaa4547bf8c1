//! The picture: grid, bodies, velocity arrows, every enabled overlay, A - B (in the inset
//! or in the right half of the split view, linked to the bodies) and the legend. The
//! window and `render` both draw through [`draw_canvas`].

use super::analysis::Analysis;
use super::camera::Camera;
use super::draw::{self, palette, LabelBoard, LegendEntry, Painter, PlacedLabel, Role};
use super::labels::Rect;
use super::labs::{Lab, LabCtx};
use super::layout::{self, inset_rect, LegendPlace};
use super::overlays::OverlayState;
use super::split::FIT_MARGIN;
use super::state::Document;
use crate::query::SupportPoint;
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
    /// Whether to draw the legend box.
    pub legend: bool,
    /// What a folded legend shows (see [`layout::legend_place`] for when it folds).
    pub folded_legend: FoldedLegend,
    /// The split view's A - B camera (its right half) when the canvas is split; `None`
    /// draws A - B in the inset.
    pub difference: Option<Camera>,
    /// The time the sweep's moving bodies are shown at (`None`: not shown).
    pub sweep_time: Option<f32>,
}

/// What the legend shows when it folds (both top corners would cover the focused pair, or
/// it is taller than the canvas).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldedLegend {
    /// A one-line button that a click opens (the window).
    Button,
    /// Opened from its button: the whole legend in the top right, over the picture.
    Open,
    /// Nothing (a picture: `render` and the slides, where nothing can be clicked).
    Omitted,
}

/// The world box the A - B view must hold: A - B, every step the labs record in it, and
/// its origin. Bounds come from every step, so the view holds still while stepping.
pub fn difference_bounds(run: &Analysis, labs: &[Box<dyn Lab>]) -> (Vec2, Vec2) {
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
    (lo, hi)
}

/// A camera on the inset that frames what the labs draw there (A - B, the steps recorded
/// in it) and its origin.
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
    let (lo, hi) = difference_bounds(run, labs);
    let mut cam = Camera {
        origin,
        size,
        ..*camera
    };
    cam.fit(lo, hi, FIT_MARGIN);
    cam
}

/// Draws the canvas; returns where its labels went (every label is placed once the
/// geometry under it is known, see [`LabelBoard`]).
pub fn draw_canvas(input: &CanvasInput) -> CanvasDrawn {
    let board = LabelBoard::new();
    let plain = Painter::new(input.camera, input.scale);
    if input.difference.is_some() {
        clip_to(Some(&input.camera));
    }
    draw::draw_grid(&plain);
    let world = plain.clone().labelled(&board);
    draw_bodies(&world, input);
    let legend = legend_entries(input);
    let room = match input.difference {
        Some(_) => input.camera.size.x * 0.5,
        None => inset_rect(&input.camera, input.scale).1.x,
    };
    let shown = input
        .legend
        .then(|| place_legend(input, &plain, &legend, room))
        .flatten()
        .filter(|l| {
            !(l.place == LegendPlace::Folded && input.folded_legend == FoldedLegend::Omitted)
        });
    let legend_box = shown.map(|l| (l.rect.min, l.rect.max));
    let difference = match (input.run, input.difference) {
        (Some(run), None) => Some(placed_inset_camera(input, run, legend_box)),
        (_, split) => split,
    };
    let difference = difference.map(|c| Painter::new(c, input.scale).labelled(&board));
    if let (Some(run), Some(inset)) = (input.run, &difference) {
        if draw_labs(input, run, &world, inset) {
            board.borrow_mut().block(draw::camera_rect(&inset.camera));
        }
    }
    clip_to(None);
    if let (None, Some(view)) = (input.run, input.difference) {
        // A split view without a focused pair: the empty A - B half says why.
        let p = Painter::new(view, input.scale);
        draw_difference_frame(&p, true);
        p.screen_text(
            view.origin + Vec2::new(p.px(10.0), p.px(30.0)),
            "Pick two bodies (Ctrl+click, Alt+click) to see A - B",
            14.0,
            palette::TEXT,
            false,
        );
    }
    let draws_there =
        (input.labs.iter()).any(|l| l.uses_inset() && input.overlays.is_on(l.algorithm()));
    if let (Some(_), Some(view), false) = (input.run, input.difference, draws_there) {
        // The split asked for (V) while no overlay draws on A - B: the half says which do.
        let p = Painter::new(view, input.scale);
        let names: Vec<&str> = (input.labs.iter())
            .filter(|l| l.uses_inset())
            .map(|l| l.name())
            .collect();
        let text = format!("Switch on {} to draw here", names.join(", "));
        let room = view.size.x - p.px(20.0);
        let lines = crate::text::wrap(&text, |t| p.measure(t, 14.0).x, room);
        for (i, line) in lines.iter().enumerate() {
            let at = view.origin + Vec2::new(p.px(10.0), p.px(30.0 + 19.0 * i as f32));
            p.screen_text(at, line, 14.0, palette::TEXT, false);
        }
    }
    if let Some(shown) = shown {
        let area = match shown.place {
            LegendPlace::Folded if input.folded_legend == FoldedLegend::Button => Some(
                draw::draw_legend_button(&plain, LEGEND_FOLDED, shown.rect.min),
            ),
            _ => draw::draw_legend(&plain, shown.title, &legend, room, Some(shown.rect.min)),
        };
        area.into_iter().for_each(|r| board.borrow_mut().block(r));
    }
    let labels = board.borrow().place_and_draw(input.scale);
    CanvasDrawn {
        labels,
        legend_toggle: shown
            .filter(|l| l.place == LegendPlace::Folded)
            .map(|l| l.rect),
    }
}

/// What [`draw_canvas`] drew that the window needs afterwards.
pub struct CanvasDrawn {
    /// Where the labels went (for the tests' checks).
    pub labels: Vec<PlacedLabel>,
    /// The folded legend's button, or the legend opened from it: a click there opens or
    /// folds it. `None` when the legend is not folded.
    pub legend_toggle: Option<Rect>,
}

/// The folded legend's button, and the title of the legend opened from it.
pub(super) const LEGEND_FOLDED: &str = "Legend (click to open)";
pub(super) const LEGEND_OPENED: &str = "Legend (click to fold)";

/// The legend as this frame draws it: where, its rectangle, its title.
#[derive(Clone, Copy)]
struct LegendShown {
    place: LegendPlace,
    rect: Rect,
    title: &'static str,
}

/// Measures the legend and places it so that it never covers the focused pair
/// ([`layout::legend_place`]): a top corner, or folded into a one-line button (in the top
/// corner that covers less of the pair), or, folded but opened, in its usual place.
fn place_legend(
    input: &CanvasInput,
    plain: &Painter,
    legend: &[LegendEntry],
    room: f32,
) -> Option<LegendShown> {
    let usual = draw::legend_box(plain, "Legend", legend, room)?;
    let usual = (usual.min, usual.size());
    let pair = pair_boxes(input);
    let place = legend_place(input, usual, &pair);
    let (rect, title) = match place {
        LegendPlace::TopRight => (Rect::new(usual.0, usual.1), "Legend"),
        LegendPlace::TopLeft => {
            let at = layout::legend_left_origin(&input.camera, usual);
            (Rect::new(at, usual.1), "Legend")
        }
        LegendPlace::Folded if input.folded_legend == FoldedLegend::Open => {
            let opened = draw::legend_box(plain, LEGEND_OPENED, legend, room)?;
            (opened, LEGEND_OPENED)
        }
        LegendPlace::Folded => {
            let size = draw::legend_button_size(plain, LEGEND_FOLDED);
            let margin = input.camera.origin.x + input.camera.size.x - (usual.0.x + usual.1.x);
            let at = layout::folded_legend_origin(&input.camera, size, margin, &pair);
            (Rect::new(at, size), LEGEND_FOLDED)
        }
    };
    Some(LegendShown { place, rect, title })
}

/// The screen boxes of the focused pair's two bodies (none without a pair).
fn pair_boxes(input: &CanvasInput) -> Vec<(Vec2, Vec2)> {
    let Some(run) = input.run else {
        return Vec::new();
    };
    [run.a, run.b]
        .iter()
        .filter_map(|&i| input.doc.bodies.get(i))
        .filter_map(|b| layout::screen_box(&input.camera, &[b]))
        .collect()
}

/// The legend's lines: the pair's colours and every switched-on lab's, one line a colour.
fn legend_entries(input: &CanvasInput) -> Vec<LegendEntry> {
    let mut legend = vec![
        LegendEntry::new(palette::BODY_A, "body A"),
        LegendEntry::new(palette::BODY_B, "body B"),
    ];
    if input.run.is_some() {
        let on = input
            .labs
            .iter()
            .filter(|l| input.overlays.is_on(l.algorithm()));
        legend.extend(on.flat_map(|l| l.legend()));
    }
    dedup_legend(&mut legend);
    legend
}

/// Where the legend, `usual` (origin and size) in its top-right place, goes: clear of the
/// focused pair (`pair`, its bodies' screen boxes), in the corner that covers less of the
/// other bodies ([`layout::legend_place`]).
fn legend_place(input: &CanvasInput, usual: (Vec2, Vec2), pair: &[(Vec2, Vec2)]) -> LegendPlace {
    // A lab's card in the upper left (the sweep's time chart) keeps the legend out of it.
    let card = input.run.is_some_and(|run| {
        input
            .labs
            .iter()
            .any(|l| input.overlays.is_on(l.algorithm()) && l.holds_top_left(run))
    });
    // Outlines only of the bodies whose bounding circle reaches the legend's band.
    let band = usual.0.y + usual.1.y;
    let bodies: Vec<_> = input
        .doc
        .bodies
        .iter()
        .filter(|b| {
            let centre = b.pose.transform_point(b.shape.centroid());
            let top =
                input.camera.to_screen(centre).y - b.shape.bounding_radius() * input.camera.zoom;
            top.is_nan() || top <= band
        })
        .filter_map(|b| layout::screen_box(&input.camera, &[b]))
        .collect();
    layout::legend_place(&input.camera, usual, pair, &bodies, !card)
}

/// The inset's camera, in the corner that covers least of the focused pair and of the
/// legend (`legend_box`, lowest and highest corner, as it will be drawn).
fn placed_inset_camera(
    input: &CanvasInput,
    run: &Analysis,
    legend_box: Option<(Vec2, Vec2)>,
) -> Camera {
    let taken = layout::CornersTaken {
        legend: input.legend,
        legend_box,
    };
    let rect = inset_rect_for(input.doc, run, &input.camera, input.scale, taken);
    inset_camera_in(run, input.labs, &input.camera, rect)
}

/// Every shown lab in the world pass, then the A - B view (the inset card or the split
/// view's right half) and the inset pass; in the split view, the links from the support
/// point's sources on the bodies to the support point in A - B. Returns whether the A - B
/// view was drawn.
fn draw_labs(input: &CanvasInput, run: &Analysis, world: &Painter, inset: &Painter) -> bool {
    let split = input.difference.is_some();
    let wants_inset = split
        || input
            .labs
            .iter()
            .any(|l| l.uses_inset() && input.overlays.is_on(l.algorithm()));
    let drawn: Vec<&dyn Lab> = input
        .labs
        .iter()
        .map(|l| l.as_ref())
        .filter(|l| input.overlays.is_on(l.algorithm()))
        .collect();
    // The A - B view tells the timeline's story alone when the timeline draws there.
    let in_difference: Vec<&dyn Lab> = drawn
        .iter()
        .copied()
        .filter(|l| in_inset(input, l.algorithm()))
        .collect();
    let world_pass = LabCtx {
        doc: input.doc,
        run,
        world,
        inset: &inset.clone().hidden(),
        sweep_time: input.sweep_time,
    };
    for lab in &drawn {
        lab.draw(&world_pass, input.overlays.step(lab.algorithm()));
    }
    if !wants_inset {
        return false;
    }
    clip_to(Some(&inset.camera));
    draw_difference_frame(inset, split);
    let inset_pass = LabCtx {
        doc: input.doc,
        run,
        world: &world.clone().hidden(),
        inset,
        sweep_time: input.sweep_time,
    };
    for lab in &in_difference {
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
    if split {
        for lab in &in_difference {
            if let Some(w) = lab.support_point(run, input.overlays.step(lab.algorithm())) {
                draw_support_link(world, inset, &w);
            }
        }
    }
    true
}

/// The faint link between the two halves of the split view: from the support point's
/// source on A and on B (left) to the support point w = a - b of A - B (right).
fn draw_support_link(world: &Painter, difference: &Painter, w: &SupportPoint) {
    let target = difference.to_screen(w.point);
    for (source, color) in [(w.on_a, palette::BODY_A), (w.on_b, palette::BODY_B)] {
        let from = world.to_screen(source);
        if world.camera.contains_screen(from) && difference.camera.contains_screen(target) {
            draw::screen_dashed(
                from,
                target,
                world.px(1.5),
                world.px(6.0),
                palette::with_alpha(color, LINK_ALPHA),
            );
        }
    }
}

/// How strong the split view's links are: visible, but fainter than anything they join.
const LINK_ALPHA: f32 = 0.35;

/// Whether a lab's overlay is drawn in the A - B view (inset or split half): the
/// overlays' rule ([`OverlayState::shows_in_inset`]) asked with what the labs say of
/// themselves.
fn in_inset(input: &CanvasInput, a: crate::query::Algorithm) -> bool {
    let lab = |a| input.labs.iter().find(|l| l.algorithm() == a);
    input.overlays.shows_in_inset(
        a,
        |a| lab(a).is_some_and(|l| l.uses_inset()),
        |a| lab(a).is_some_and(|l| l.is_backdrop()),
    )
}

/// One line per colour: overlays share the palette, so their meanings join on one line.
pub fn dedup_legend(legend: &mut Vec<LegendEntry>) {
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

/// The A - B view's background, border, title and axes through its origin: a white card
/// in the inset, the grid in the split view's right half.
fn draw_difference_frame(p: &Painter, split: bool) {
    let c = p.camera;
    if split {
        draw::draw_grid(p);
    } else {
        mq::draw_rectangle(c.origin.x, c.origin.y, c.size.x, c.size.y, mq::WHITE);
        let (lo, hi) = c.visible_world();
        let axis = palette::with_alpha(palette::AXIS, 0.6);
        p.line(Vec2::new(lo.x, 0.0), Vec2::new(hi.x, 0.0), 1.0, axis);
        p.line(Vec2::new(0.0, lo.y), Vec2::new(0.0, hi.y), 1.0, axis);
    }
    mq::draw_rectangle_lines(
        c.origin.x,
        c.origin.y,
        c.size.x,
        c.size.y,
        p.px(2.0),
        palette::MINKOWSKI,
    );
    let title = "A - B (Minkowski difference)";
    p.screen_text(
        c.origin + Vec2::splat(p.px(6.0)),
        title,
        if split { 16.0 } else { 14.0 },
        palette::MINKOWSKI,
        split,
    );
}

/// Text size of a caption line, and the lines the caption strip holds before it grows.
const CAPTION_SIZE: f32 = 15.0;
const CAPTION_LINES: f32 = 4.0;

/// The height, in pixels, of the strip under a render's or a slide's picture that holds the
/// step's sentence: four lines at `scale` (a longer sentence grows it upward). Fixed rather
/// than measured, so that every slide of a run frames the scene the same way.
pub fn caption_strip_height(scale: f32) -> f32 {
    (CAPTION_LINES * (CAPTION_SIZE + 5.0) + 14.0) * scale
}

/// The sentence in the strip whose top edge is at `top`, across `width` pixels.
pub fn draw_caption_strip(text: &str, top: Vec2, width: f32, scale: f32) {
    let p = Painter::new(Camera::default(), scale);
    let margin = p.px(12.0);
    let lines = crate::text::wrap(text, |s| p.measure(s, CAPTION_SIZE).x, width - 2.0 * margin);
    let line_h = p.px(CAPTION_SIZE + 5.0);
    let h = (line_h * lines.len() as f32 + p.px(14.0)).max(caption_strip_height(scale));
    let y = top.y + caption_strip_height(scale) - h;
    mq::draw_rectangle(top.x, y, width, h, mq::WHITE);
    mq::draw_line(top.x, y, top.x + width, y, p.px(1.0), palette::GRID_MAJOR);
    for (i, line) in lines.iter().enumerate() {
        let at = Vec2::new(top.x + margin, y + p.px(7.0) + line_h * i as f32);
        p.screen_text(at, line, CAPTION_SIZE, palette::TEXT, false);
    }
}
