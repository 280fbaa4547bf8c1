//! The 3D workspace: bodies in space, the focused pair's analysis, the 3D labs. It holds a
//! [`Session`] of a [`Document3`] (the same timeline and overlay rules as the plane), an
//! orbit camera ([`Camera3`]) and the registry of 3D labs, and draws through the 3D painter;
//! the frame loop and the shared panels see it through [`Workspace`].

use super::analysis3::{Analysis3, DRAWN_3D};
use super::camera3::{Camera3, Preset};
use super::canvas::{caption_strip_height, draw_caption_strip, LEGEND_FOLDED, LEGEND_OPENED};
use super::difference3::{self, DifferenceScene, DifferenceView3};
use super::document::{DocOutline, LoadedDocument, Snapshot};
use super::draw::{self, palette, LabelBoard, LegendEntry, Painter, PlacedLabel};
use super::file_state::{FileState, RecordedPair};
use super::labels::Rect;
use super::labs::Series;
use super::labs3::{self, Lab3, Lab3Ctx, Label3};
use super::layout::{self, LegendPlace};
use super::paint3::{FaceMesh, Painter3};
use super::panels::{AlgorithmRow, AlgorithmsModel, PlotsModel};
use super::picture::Picture;
use super::session::Session;
use super::state3::Document3;
use super::sweep_clock::SweepClock;
use super::timeline::TimelineModel;
use super::workspace::{LegendFold, Workspace};
use crate::query::Algorithm;
use crate::scan::MovedPose;
use crate::scene::{scene3_to_string, Answers, Scene3, View3};
use egui_macroquad::egui;
use glam::{Vec2, Vec3};
use macroquad::prelude::Color;
use std::cell::{Cell, RefCell};

/// The bodies' surfaces as last built, and the document revision they were built for.
#[derive(Default)]
struct Meshes {
    revision: Option<u64>,
    bodies: Vec<FaceMesh>,
}

/// What the last drawn frame showed, for the clicks and the tests that follow it.
#[derive(Default)]
struct Drawn3 {
    /// The camera A - B was drawn through, if it was shown.
    difference: Cell<Option<Camera3>>,
    /// The folded legend's button (or the legend opened from it), and whether it is open.
    legend_fold: Cell<LegendFold>,
}

pub struct Workspace3d {
    session: Session<Document3>,
    pub camera: Camera3,
    labs: Vec<Box<dyn Lab3>>,
    meshes: RefCell<Meshes>,
    /// The camera as the last "fit all" left it: while the user has not moved it since, a
    /// new canvas size fits again.
    fitted: Option<Camera3>,
    /// Where the last drawn frame's labels went (for the tests and `render`).
    pub placed_labels: RefCell<Vec<PlacedLabel>>,
    /// What the last frame drew that input and the tests read afterwards.
    drawn: Drawn3,
    /// The segments the labs asked labels to keep clear of in the bodies' view this frame.
    keep_clear: RefCell<Vec<[Vec3; 2]>>,
    /// SAT's Gauss map inset is shown (the SAT section of the Algorithms panel).
    pub gauss_map: bool,
    /// A - B: split or inset, and its camera.
    pub difference: DifferenceView3,
    /// The time the Swept SAT overlay shows the moving bodies at (a slider, or played).
    pub sweep_clock: SweepClock,
    /// The whole canvas (split: both halves and the gap).
    canvas: Rect,
}

impl Workspace3d {
    pub fn new(doc: Document3) -> Workspace3d {
        let mut w = Workspace3d {
            session: Session::new(Document3::new_empty()),
            camera: Camera3::default(),
            labs: labs3::registry(),
            meshes: RefCell::new(Meshes::default()),
            fitted: None,
            placed_labels: RefCell::new(Vec::new()),
            drawn: Drawn3::default(),
            keep_clear: RefCell::new(Vec::new()),
            gauss_map: true,
            difference: DifferenceView3::default(),
            sweep_clock: SweepClock::default(),
            canvas: Rect::new(Vec2::ZERO, Vec2::new(1280.0, 800.0)),
        };
        w.show(doc);
        w
    }

    /// Shows `doc` with its overlays and its saved view, or everything fitted.
    fn show(&mut self, doc: Document3) {
        let view = doc.meta.view;
        self.session.replace_document(doc);
        match view {
            Some(View3 { eye, target }) => {
                let (origin, size) = (self.camera.origin, self.camera.size);
                self.camera = Camera3 {
                    origin,
                    size,
                    ..Camera3::from_eye_target(eye, target)
                };
                self.fitted = None;
            }
            None => self.fit_all(),
        }
    }

    pub fn session(&self) -> &Session<Document3> {
        &self.session
    }

    pub fn session_mut(&mut self) -> &mut Session<Document3> {
        &mut self.session
    }

    pub fn doc(&self) -> &Document3 {
        &self.session.doc
    }

    /// The document to change (after a checkpoint).
    pub fn doc_mut(&mut self) -> &mut Document3 {
        &mut self.session.doc
    }

    /// Where a new body appears: the point the camera looks at.
    pub fn view_center(&self) -> Vec3 {
        self.camera.target
    }

    /// Fits everything unless the scene saved a view (`render`, a newly opened file).
    pub fn fit_all_if_unsaved(&mut self) {
        if self.session.doc.meta.view.is_none() {
            self.fit_all();
        }
    }

    /// A view command of the View menu or a key.
    pub fn view_command(&mut self, command: super::action::View3Command) {
        use super::action::View3Command as C;
        let preset = match command {
            C::Front => Preset::Front,
            C::Top => Preset::Top,
            C::Side => Preset::Side,
            C::ThreeQuarter => Preset::ThreeQuarter,
            C::ToggleOrthographic => {
                self.camera.orthographic = !self.camera.orthographic;
                return;
            }
        };
        self.camera.set_preset(preset);
        self.fit_all();
    }

    /// The scene to save: the document with this camera and the overlays that are on.
    pub fn scene_to_save(&self) -> Scene3 {
        let mut scene = self.session.doc.to_scene(Some(View3 {
            eye: self.camera.eye(),
            target: self.camera.target,
        }));
        // The drawn overlays as they are now (the timeline's first), then those the file
        // listed that the 3D window does not draw yet, kept as written.
        let o = self.session.overlays();
        let mut on: Vec<Algorithm> = Algorithm::ALL
            .into_iter()
            .filter(|a| o.is_on(*a) && DRAWN_3D.contains(a))
            .collect();
        if let Some(k) = on.iter().position(|a| *a == o.timeline()) {
            let timeline = on.remove(k);
            on.insert(0, timeline);
        }
        let kept = scene.overlays.iter().filter(|a| !DRAWN_3D.contains(a));
        on.extend(kept.copied().collect::<Vec<_>>());
        scene.overlays = on;
        scene
    }

    /// Every body's surface at its pose, rebuilt when the document changed.
    fn body_meshes(&self) -> std::cell::Ref<'_, Vec<FaceMesh>> {
        let revision = self.session.doc.file.revision;
        if self.meshes.borrow().revision != Some(revision) {
            let bodies = self
                .session
                .doc
                .bodies
                .iter()
                .map(|b| FaceMesh::of_shape(b.shape.as_ref(), &b.pose))
                .collect();
            *self.meshes.borrow_mut() = Meshes {
                revision: Some(revision),
                bodies,
            };
        }
        std::cell::Ref::map(self.meshes.borrow(), |m| &m.bodies)
    }

    /// The bounding box of every body.
    fn bounds(&self) -> Option<(Vec3, Vec3)> {
        let meshes = self.body_meshes();
        meshes
            .iter()
            .map(FaceMesh::bounds)
            .reduce(|(lo, hi), (l, h)| (lo.min(l), hi.max(h)))
    }

    /// The body under the screen point `m` (the nearest along the pick ray).
    pub fn body_at(&self, m: Vec2) -> Option<usize> {
        let (origin, dir) = self.camera.ray(m);
        let meshes = self.body_meshes();
        let mut best: Option<(usize, f32)> = None;
        for (i, mesh) in meshes.iter().enumerate() {
            if let Some(t) = ray_hits_convex(mesh, origin, dir) {
                if best.is_none_or(|(_, b)| t < b) {
                    best = Some((i, t));
                }
            }
        }
        best.map(|(i, _)| i)
    }

    /// The colour a body is drawn in: A's and B's roles for the focused pair (or the
    /// scene's colour), grey for the others.
    fn body_color(&self, i: usize) -> Color {
        let doc = &self.session.doc;
        let own = doc.bodies[i].color.map(palette::from_rgb);
        match doc.focus {
            Some((a, _)) if a == i => own.unwrap_or(palette::BODY_A),
            Some((_, b)) if b == i => own.unwrap_or(palette::BODY_B),
            _ => own.map_or(palette::OTHER, |c| palette::with_alpha(c, 0.9)),
        }
    }

    /// The canvas as the window draws it: the bodies, then A - B (the split view's right
    /// half, or an inset), the insets, the legend and every label.
    fn draw_view(&self, scale: f32, legend: bool, picture: bool) {
        let paint = Painter3::new(self.camera, scale);
        let labels = RefCell::new(Vec::new());
        self.keep_clear.borrow_mut().clear();
        paint.begin();
        self.draw_scene(&paint, &labels);
        self.draw_velocities(&paint);
        self.draw_overlays(&paint, &labels);
        paint.end();
        let board = LabelBoard::new();
        let view = board.borrow_mut().screen_view(self.canvas_rect());
        let flat = Painter::new(super::camera::Camera::default(), scale);
        paint.axis_triad(
            self.camera.origin + Vec2::new(60.0 * scale, self.camera.size.y - 64.0 * scale),
            40.0,
        );
        self.draw_cards(&paint, &flat);
        let left_held = self.top_left_held(&paint);
        let mut blocked = Vec::new();
        if legend {
            blocked.extend(self.draw_legend(&flat, picture, !left_held));
        } else {
            self.drawn.legend_fold.set(LegendFold::default());
        }
        let mut corners = self.inset_rects(scale, blocked.first().copied());
        if left_held {
            let top_left = self.camera.origin + Vec2::splat(8.0 * scale);
            corners.retain(|r| r.min != top_left);
        }
        let shown = self.difference_camera_in(&mut corners, scale);
        self.drawn
            .difference
            .set(shown.as_ref().map(|(camera, _)| *camera));
        if let Some((camera, scene)) = shown {
            scene.draw(camera, scale, !self.difference.split, &board);
            if self.difference.split {
                scene.draw_links(&self.camera, &camera, scale);
            }
            let view = Rect::new(camera.origin, camera.size);
            blocked.push(difference3::card_around(view, scale));
        }
        blocked.extend(self.draw_inset(&flat, &mut corners));
        for rect in blocked {
            board.borrow_mut().block(rect);
        }
        self.ask_labels(&board, view, &labels.borrow(), scale);
        *self.placed_labels.borrow_mut() = board.borrow().place_and_draw(scale);
    }

    /// What A - B shows for the focused pair: the labs that draw there at their steps (the
    /// timeline's last, on top); `None` without a run.
    fn difference_scene(&self) -> Option<DifferenceScene<'_>> {
        let run = self.session.run()?;
        let overlays = self.session.overlays();
        let lab = |a: Algorithm| self.labs.iter().find(|l| l.algorithm() == a);
        let mut labs: Vec<(&dyn Lab3, Option<usize>)> = (self.labs.iter())
            .filter(|l| l.uses_difference())
            .filter(|l| {
                overlays.shows_in_inset(
                    l.algorithm(),
                    |a| lab(a).is_some_and(|l| l.uses_difference()),
                    |a| lab(a).is_some_and(|l| l.is_backdrop()),
                )
            })
            .map(|l| (l.as_ref(), overlays.step(l.algorithm())))
            .collect();
        labs.sort_by_key(|(l, _)| l.algorithm() == overlays.timeline());
        Some(DifferenceScene {
            run,
            doc: &self.session.doc,
            labs,
        })
    }

    /// The camera A - B is drawn through this frame: the split view's right half, or the
    /// first free inset corner when a lab that draws in A - B is on; `None` when A - B is
    /// not shown.
    fn difference_camera_in(
        &self,
        corners: &mut Vec<Rect>,
        scale: f32,
    ) -> Option<(Camera3, DifferenceScene<'_>)> {
        let scene = self.difference_scene()?;
        let rect = if self.difference.split {
            difference3::split_halves(self.canvas.min, self.canvas.size(), 1.0).1
        } else {
            let overlays = self.session.overlays();
            if !difference3::wants_inset(&self.labs, |a| overlays.is_on(a)) || corners.is_empty() {
                return None;
            }
            corners.remove(0)
        };
        let view = difference3::view_below_title(rect, scale);
        let camera = self
            .difference
            .camera(&self.camera, view, || scene.bounds());
        Some((camera, scene))
    }

    /// The camera on A - B as the canvas shows it now (the tests and the pointer read it).
    pub fn difference_camera(&self, scale: f32) -> Option<Camera3> {
        let mut corners = self.inset_rects(scale, None);
        self.difference_camera_in(&mut corners, scale)
            .map(|(camera, _)| camera)
    }

    /// The bodies' view (the left half when the canvas is split).
    fn canvas_rect(&self) -> Rect {
        Rect::new(self.camera.origin, self.camera.size)
    }

    /// The grid under the bodies, the bodies shaded with their edges, their names.
    fn draw_scene(&self, paint: &Painter3, labels: &RefCell<Vec<Label3>>) {
        let doc = &self.session.doc;
        let meshes = self.body_meshes();
        if let Some((lo, hi)) = self.bounds() {
            let size = (hi - lo).max_element().max(1e-3);
            let spacing = draw::nice_step(size / 12.0);
            paint.grid(lo.y, spacing, 14);
        }
        let overlays_on = self.session.run().is_some()
            && DRAWN_3D.iter().any(|a| self.session.overlays().is_on(*a));
        // Solid bodies first; then the see-through ones (the pair, when an overlay is on:
        // the overlays sit on and between their faces) from far to near, since they write no
        // depth.
        let see_through =
            |i: usize| overlays_on && doc.focus.is_some_and(|(a, b)| a == i || b == i);
        let mut order: Vec<usize> = (0..meshes.len()).collect();
        order.sort_by(|&i, &j| {
            let depth = |k: usize| {
                let (lo, hi) = meshes[k].bounds();
                self.camera.depth_of(0.5 * (lo + hi))
            };
            (see_through(i), -depth(i))
                .partial_cmp(&(see_through(j), -depth(j)))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        for i in order {
            let mesh = &meshes[i];
            let color = self.body_color(i);
            if see_through(i) {
                paint.translucent(mesh, color, 0.35);
            } else {
                paint.solid(mesh, color);
            }
            let selected = doc.selected == Some(i);
            let (width, edge) = if selected {
                (3.0, palette::SELECTION)
            } else {
                (1.2, palette::with_alpha(palette::TEXT, 0.75))
            };
            paint.edges(mesh, width, edge);
            let (lo, hi) = mesh.bounds();
            let role = match doc.focus {
                Some((a, _)) if a == i => " (A)",
                Some((_, b)) if b == i => " (B)",
                _ => "",
            };
            labels.borrow_mut().push(Label3 {
                at: Vec3::new(0.5 * (lo.x + hi.x), hi.y, 0.5 * (lo.z + hi.z)),
                text: format!("{}{role}", doc.bodies[i].name),
                color: palette::TEXT,
                importance: draw::LABEL_BODY,
            });
        }
    }

    /// Each moving body's velocity as an arrow to where the sweep takes it (`sweep_time`),
    /// its tip a handle that drags.
    fn draw_velocities(&self, paint: &Painter3) {
        for (_, base, tip) in self.velocity_tips() {
            paint.arrow(base, tip, 2.0, palette::TEXT);
            paint.dot(tip, 5.0, palette::with_alpha(palette::TEXT, 0.8));
        }
    }

    /// The bodies with a velocity: index, position, and the tip at the sweep's end time.
    pub fn velocity_tips(&self) -> Vec<(usize, Vec3, Vec3)> {
        let doc = &self.session.doc;
        let t = doc.meta.sweep_time();
        (doc.bodies.iter().enumerate())
            .filter_map(|(i, b)| {
                let v = b.velocity.filter(|v| *v != Vec3::ZERO)?;
                Some((i, b.pose.position, b.pose.position + v * t))
            })
            .collect()
    }

    /// The velocity tip under the screen point `m` (within `radius` pixels), if any: the
    /// body it belongs to.
    pub fn velocity_tip_at(&self, m: Vec2, radius: f32) -> Option<usize> {
        self.velocity_tips().into_iter().find_map(|(i, base, tip)| {
            let (b, t) = (self.camera.to_screen(base)?, self.camera.to_screen(tip)?);
            // A tip on the body's centre would steal every drag meant to move the body.
            ((t - b).length() > 2.0 * radius && (t - m).length() < radius).then_some(i)
        })
    }

    /// Each enabled lab: the timeline's at its selected step, the others at their answer.
    fn draw_overlays(&self, paint: &Painter3, labels: &RefCell<Vec<Label3>>) {
        let Some(run) = self.session.run() else {
            return;
        };
        let overlays = self.session.overlays();
        // The timeline's lab last, on top: it tells the story the sentence tells.
        let mut labs: Vec<&dyn Lab3> = self.labs.iter().map(|l| l.as_ref()).collect();
        labs.sort_by_key(|l| l.algorithm() == overlays.timeline());
        for lab in labs {
            let a = lab.algorithm();
            if !overlays.is_on(a) {
                continue;
            }
            lab.draw(&self.lab_ctx(paint, run, a, labels));
        }
    }

    /// What lab `a` draws with on the bodies.
    fn lab_ctx<'a>(
        &'a self,
        paint: &'a Painter3,
        run: &'a Analysis3,
        a: Algorithm,
        labels: &'a RefCell<Vec<Label3>>,
    ) -> Lab3Ctx<'a> {
        Lab3Ctx {
            paint,
            doc: &self.session.doc,
            run,
            step: self.session.overlays().step(a),
            labels,
            keep_clear: &self.keep_clear,
            sweep_time: self.sweep_clock.shown(self.session.doc.meta.sweep_time()),
        }
    }

    /// The cards the labs that are on draw over the bodies' view (the sweep's time chart).
    fn draw_cards(&self, paint: &Painter3, flat: &Painter) {
        let Some(run) = self.session.run() else {
            return;
        };
        let labels = RefCell::new(Vec::new());
        for lab in self
            .labs
            .iter()
            .filter(|l| self.session.overlays().is_on(l.algorithm()))
        {
            lab.draw_cards(&self.lab_ctx(paint, run, lab.algorithm(), &labels), flat);
        }
    }

    /// Whether a lab that is on holds the canvas's upper-left corner with a card.
    fn top_left_held(&self, paint: &Painter3) -> bool {
        let Some(run) = self.session.run() else {
            return false;
        };
        let labels = RefCell::new(Vec::new());
        (self.labs.iter())
            .filter(|l| self.session.overlays().is_on(l.algorithm()))
            .any(|l| l.holds_top_left(&self.lab_ctx(paint, run, l.algorithm(), &labels)))
    }

    /// SAT's Gauss map inset, when it is switched on with SAT's overlay, in the first free
    /// corner; its rectangle.
    fn draw_inset(&self, flat: &Painter, corners: &mut Vec<Rect>) -> Option<Rect> {
        let run = self.session.run()?;
        let overlays = self.session.overlays();
        if !self.gauss_map || !overlays.is_on(Algorithm::Sat) || corners.is_empty() {
            return None;
        }
        let doc = &self.session.doc;
        let (a, b) = (doc.bodies.get(run.a)?, doc.bodies.get(run.b)?);
        // A sphere or a capsule has no face normals and edges to map: SAT there tests the
        // direction between the cores, and the inset would show nothing of it.
        a.shape.as_polyhedron()?;
        b.shape.as_polyhedron()?;
        let rect = corners.remove(0);
        let k = overlays
            .step(Algorithm::Sat)
            .or_else(|| run.best_sat_step());
        let pair = (&labs3::BodyGeometry::new(a), &labs3::BodyGeometry::new(b));
        labs3::draw_gauss_map(flat, &self.camera, rect, pair, (&run.trace.sat, k));
        Some(rect)
    }

    /// The corners an inset may take, best first: the bottom-right, top-left, bottom-left
    /// and top-right corners of the bodies' view, ordered by how little of the focused pair
    /// they cover, without the corner the legend holds.
    fn inset_rects(&self, scale: f32, legend: Option<Rect>) -> Vec<Rect> {
        let c = &self.camera;
        // About a third of the canvas's short side, within a readable minimum and a
        // projector's maximum, and never more than 45 % of a small canvas.
        let short = c.size.x.min(c.size.y);
        let side = (0.32 * short)
            .min(280.0 * scale)
            .max((140.0 * scale).min(0.45 * short));
        let size = Vec2::splat(side);
        let margin = 8.0 * scale;
        let corners = [
            c.origin + c.size - size - Vec2::splat(margin),
            c.origin + Vec2::splat(margin),
            c.origin + Vec2::new(margin, c.size.y - side - margin),
            c.origin + Vec2::new(c.size.x - side - margin, margin),
        ];
        let pair = self.pair_screen_box();
        let overlap = |r: &Rect, p: &Rect| -> f32 {
            let d = (r.max.min(p.max) - r.min.max(p.min)).max(Vec2::ZERO);
            d.x * d.y
        };
        let mut rects: Vec<Rect> = (corners.into_iter())
            .map(|at| Rect::new(at, size))
            .filter(|r| legend.is_none_or(|l| overlap(r, &l) <= 0.0))
            .collect();
        let covered = |r: &Rect| pair.as_ref().map_or(0.0, |p| overlap(r, p));
        // Stable: equal cover keeps the order above.
        rects.sort_by(|x, y| covered(x).total_cmp(&covered(y)));
        rects
    }

    /// The focused pair's bodies on the screen: the box around their projected corners.
    fn pair_screen_box(&self) -> Option<Rect> {
        let (a, b) = self.session.doc.focus?;
        let meshes = self.body_meshes();
        let points: Vec<Vec2> = [a, b]
            .iter()
            .filter_map(|&i| meshes.get(i))
            .flat_map(|m| m.faces.iter().flat_map(|f| f.points.iter()))
            .filter_map(|p| self.camera.to_screen(*p))
            .collect();
        let lo = points.iter().copied().reduce(Vec2::min)?;
        let hi = points.iter().copied().reduce(Vec2::max)?;
        Some(Rect { min: lo, max: hi })
    }

    /// The legend of the overlays that are on, clear of the focused pair
    /// ([`layout::legend_place`]): the top right, the top left (`left_open`: no card holds
    /// it), or folded into a one-line button that a click opens; a picture (`render`,
    /// slides) leaves a folded legend out. Its rectangle as drawn.
    fn draw_legend(&self, flat: &Painter, picture: bool, left_open: bool) -> Option<Rect> {
        let entries = self.legend_entries();
        let max_width = flat.px(260.0).min(self.camera.size.x * 0.4);
        let size = draw::legend_box(flat, "Legend", &entries, max_width)?.size();
        let margin = flat.px(8.0);
        let top_right = |size: Vec2| {
            self.camera.origin + Vec2::new(self.camera.size.x - size.x - margin, margin)
        };
        let canvas = super::camera::Camera {
            origin: self.camera.origin,
            size: self.camera.size,
            ..Default::default()
        };
        let pair: Vec<(Vec2, Vec2)> = (self.pair_screen_box().into_iter())
            .map(|r| (r.min, r.size()))
            .collect();
        let usual = (top_right(size), size);
        let place = layout::legend_place(&canvas, usual, &pair, &[], left_open);
        let fold = self.drawn.legend_fold.get();
        let (drawn, toggle) = match place {
            LegendPlace::TopRight => (Some(usual.0), None),
            LegendPlace::TopLeft => (Some(layout::legend_left_origin(&canvas, usual)), None),
            LegendPlace::Folded if picture => (None, None),
            LegendPlace::Folded if fold.open => {
                let opened = draw::legend_box(flat, LEGEND_OPENED, &entries, max_width)?;
                let at = top_right(opened.size());
                let rect = draw::draw_legend(flat, LEGEND_OPENED, &entries, max_width, Some(at));
                self.drawn.legend_fold.set(LegendFold {
                    toggle: rect,
                    ..fold
                });
                return rect;
            }
            LegendPlace::Folded => {
                let size = draw::legend_button_size(flat, LEGEND_FOLDED);
                let at = layout::folded_legend_origin(&canvas, size, margin, &pair);
                let rect = draw::draw_legend_button(flat, LEGEND_FOLDED, at);
                (None, Some(rect))
            }
        };
        self.drawn.legend_fold.set(LegendFold { toggle, ..fold });
        match drawn {
            Some(at) => draw::draw_legend(flat, "Legend", &entries, max_width, Some(at)),
            None => toggle,
        }
    }

    /// The legend's lines: the focused pair's bodies, then the timeline's lab's colours.
    fn legend_entries(&self) -> Vec<LegendEntry> {
        let doc = &self.session.doc;
        let mut entries: Vec<LegendEntry> = Vec::new();
        if let Some((a, b)) = doc.focus {
            for (i, role) in [(a, "A"), (b, "B")] {
                if let Some(body) = doc.bodies.get(i) {
                    entries.push(LegendEntry::new(
                        self.body_color(i),
                        format!("body {role}: {}", body.name),
                    ));
                }
            }
        }
        // The timeline's lab tells the story: its colours (the others draw their answers in
        // the same palette).
        let overlays = self.session.overlays();
        if self.session.run().is_some() && overlays.timeline_is_on() {
            let told = self
                .labs
                .iter()
                .filter(|l| l.algorithm() == overlays.timeline());
            entries.extend(told.flat_map(|lab| lab.legend()));
        }
        super::canvas::dedup_legend(&mut entries);
        entries
    }

    /// A click at `screen` on the folded legend's button opens the legend, on the legend
    /// opened from it folds it again; returns whether the click was there (and taken).
    pub fn click_legend(&mut self, screen: Vec2) -> bool {
        LegendFold::click(&self.drawn.legend_fold, screen)
    }

    /// Projects every asked label to the screen (skipping those behind the eye) for the
    /// placer, with the screen segments of the drawn pair's edges as obstacles.
    fn ask_labels(
        &self,
        board: &std::rc::Rc<RefCell<LabelBoard>>,
        view: usize,
        labels: &[Label3],
        scale: f32,
    ) {
        let mut board = board.borrow_mut();
        for [p, q] in self.keep_clear.borrow().iter() {
            if let (Some(p), Some(q)) = (self.camera.to_screen(*p), self.camera.to_screen(*q)) {
                board.keep_clear_of(view, p, q);
            }
        }
        // The focused pair's edges, as drawn: labels keep off them where they can.
        if let Some((a, b)) = self.session.doc.focus {
            let meshes = self.body_meshes();
            let edges = [a, b]
                .into_iter()
                .filter_map(|i| meshes.get(i))
                .flat_map(|m| m.edges.iter());
            for [p, q] in edges {
                if let (Some(p), Some(q)) = (self.camera.to_screen(*p), self.camera.to_screen(*q)) {
                    board.keep_clear_of(view, p, q);
                }
            }
        }
        let mut sorted: Vec<&Label3> = labels.iter().collect();
        sorted.sort_by_key(|l| std::cmp::Reverse(l.importance));
        for l in sorted {
            if let Some(at) = self.camera.to_screen(l.at) {
                board.ask_at(view, at, &l.text, (l.color, l.importance), scale);
            }
        }
    }

    /// A picture `size` pixels large, as `render` and the slides draw it: the canvas with
    /// its legend above a strip that holds the timeline's sentence.
    pub fn draw_picture(&mut self, size: Vec2, scale: f32) {
        let strip = caption_strip_height(scale).min(size.y * 0.5);
        self.set_viewport(Vec2::ZERO, Vec2::new(size.x, size.y - strip));
        self.draw_view(scale, true, true);
        if let Some(text) = self.session.timeline_sentence() {
            draw_caption_strip(&text, Vec2::new(0.0, size.y - strip), size.x, scale);
        }
    }

    /// What the window tests read: the camera, the bodies' poses, the overlays, the
    /// timeline, the placed labels, and the focused pair's numbers as the Results panel
    /// shows them.
    pub fn test_state(&self) -> serde_json::Value {
        let doc = &self.session.doc;
        let c = &self.camera;
        let bodies: Vec<_> = doc
            .bodies
            .iter()
            .map(|b| {
                let p = b.pose.position;
                let r = b.pose.rotation_degrees();
                // Where its centre is drawn (for the tests to click on it), if in front of
                // the eye.
                let screen = c.to_screen(p).map(|s| [s.x, s.y]);
                serde_json::json!({"name": b.name, "position": [p.x, p.y, p.z], "rotation": [r.x, r.y, r.z], "screen": screen})
            })
            .collect();
        let overlays: serde_json::Map<String, serde_json::Value> = Algorithm::ALL
            .iter()
            .map(|a| {
                (
                    a.key().to_string(),
                    self.session.overlays().is_on(*a).into(),
                )
            })
            .collect();
        let run = self.session.run();
        let eye = c.eye();
        serde_json::json!({
            "dimensions": 3,
            "dirty": doc.file.dirty,
            "path": doc.file.path.as_ref().map(|p| p.display().to_string()),
            "canvas": [c.origin.x, c.origin.y, c.size.x, c.size.y],
            "camera": {"eye": [eye.x, eye.y, eye.z], "target": [c.target.x, c.target.y, c.target.z], "orthographic": c.orthographic},
            "bodies": bodies,
            "selected": doc.selected,
            "focus": doc.focus,
            "overlays": overlays,
            "expect": doc.meta.expect.len(),
            "timeline_step": self.session.timeline_position().map(|(n, k)| serde_json::json!({
                "algorithm": self.session.timeline().key(), "step": k, "count": n,
            })),
            "sentence": self.session.timeline_sentence(),
            "results": run.map(|r| {
                let mut json = results_json(r);
                // The pair the Results panel names ("A = ..., B = ...").
                let name = |i: usize| doc.bodies.get(i).map(|b| b.name.clone());
                json["pair"] = serde_json::json!([name(r.a), name(r.b)]);
                json
            }),
            "labels": draw::labels_json(&self.placed_labels.borrow()),
            "legend_fold": {
                "open": self.drawn.legend_fold.get().open,
                "toggle": self.drawn.legend_fold.get().toggle.map(|r| [r.min.x, r.min.y, r.max.x, r.max.y]),
            },
            "difference": {
                "split": self.difference.split,
                "moved_by_hand": self.difference.user_camera.is_some(),
                "shown": self.drawn.difference.get().map(|d| {
                    let e = d.eye();
                    serde_json::json!({"rect": [d.origin.x, d.origin.y, d.size.x, d.size.y], "eye": [e.x, e.y, e.z]})
                }),
            },
        })
    }
}

/// The focused pair's numbers, as the Results panel shows them.
fn results_json(run: &Analysis3) -> serde_json::Value {
    let q = &run.query;
    let n = q.sat.normal;
    serde_json::json!({
        "intersecting": q.intersecting,
        "sat_depth": q.sat.depth,
        "sat_separation": q.sat.separation,
        "sat_normal": [n.x, n.y, n.z],
        "sat_axis": q.sat.axis.kind_key(),
        "gjk_distance": q.gjk.distance,
        "epa_depth": q.epa.map(|e| e.depth),
        "epa_normal": q.epa.map(|e| [e.normal.x, e.normal.y, e.normal.z]),
        "contacts": q.manifold.map(|m| m.points.iter().map(|p| [p.point.x, p.point.y, p.point.z]).collect::<Vec<_>>()),
        "feature": q.manifold.map(|m| m.feature.key()),
    })
}

/// Where the ray `origin + t dir` first meets a convex mesh (its smallest `t >= 0`), by
/// clipping the ray against each face's plane.
fn ray_hits_convex(mesh: &FaceMesh, origin: Vec3, dir: Vec3) -> Option<f32> {
    let (mut enter, mut exit) = (0.0f32, f32::INFINITY);
    if mesh.faces.is_empty() {
        return None;
    }
    for face in &mesh.faces {
        let n = face.normal;
        let p = *face.points.first()?;
        let height = n.dot(origin - p);
        let rate = n.dot(dir);
        if rate.abs() < 1e-12 {
            if height > 0.0 {
                return None;
            }
            continue;
        }
        let t = -height / rate;
        if rate < 0.0 {
            enter = enter.max(t);
        } else {
            exit = exit.min(t);
        }
        if enter > exit {
            return None;
        }
    }
    Some(enter)
}

impl<'a> dyn Workspace + 'a {
    /// The 3D workspace, for its own canvas tools, panels and test probe; `None` in another
    /// kind.
    pub fn space(&self) -> Option<&Workspace3d> {
        self.as_any().downcast_ref()
    }

    pub fn space_mut(&mut self) -> Option<&mut Workspace3d> {
        self.as_any_mut().downcast_mut()
    }
}

impl Picture for Workspace3d {
    fn draw_picture(&mut self, size: Vec2, scale: f32) {
        Workspace3d::draw_picture(self, size, scale);
    }

    fn labels_json(&self) -> serde_json::Value {
        draw::labels_json(&self.placed_labels.borrow())
    }

    fn timeline(&mut self) -> &mut dyn TimelineModel {
        &mut self.session
    }

    fn step_count(&self, algorithm: Algorithm) -> usize {
        use super::session::Recorded;
        self.session
            .run()
            .map_or(0, |run| run.step_count(algorithm))
    }

    fn show_step(&mut self, algorithm: Algorithm, k: usize) -> Result<(), usize> {
        self.session.show_step(algorithm, k)
    }

    fn name(&self) -> String {
        self.session.doc.file.display_name()
    }
}

impl Workspace for Workspace3d {
    fn file(&self) -> &FileState {
        &self.session.doc.file
    }

    fn file_mut(&mut self) -> &mut FileState {
        &mut self.session.doc.file
    }

    fn outline(&self) -> DocOutline<'_> {
        let doc = &self.session.doc;
        DocOutline {
            file: &doc.file,
            names: doc.bodies.iter().map(|b| b.name.as_str()).collect(),
            focus: doc.focus,
            selected: doc.selected,
            dimensions: 3,
            lesson: doc.meta.lesson.as_ref(),
            title: doc.meta.title.as_deref(),
            notes: doc.meta.notes.as_deref(),
        }
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot::Space(self.session.doc.snapshot())
    }

    fn restore(&mut self, state: Snapshot) {
        if let Snapshot::Space(s) = state {
            self.session.doc.restore(s);
        }
    }

    fn replace_document(&mut self, doc: LoadedDocument) -> Result<(), Box<LoadedDocument>> {
        let LoadedDocument::Space(doc) = doc else {
            return Err(Box::new(doc));
        };
        self.show(doc);
        Ok(())
    }

    fn reload_document(&mut self, doc: LoadedDocument) -> Result<(), Box<LoadedDocument>> {
        let LoadedDocument::Space(doc) = doc else {
            return Err(Box::new(doc));
        };
        self.session.replace_document_keeping_overlays(doc);
        Ok(())
    }

    fn scene_text(&self) -> String {
        scene3_to_string(&self.scene_to_save())
    }

    fn has_saved_view(&self) -> bool {
        self.session.doc.meta.view.is_some()
    }

    fn place_body(&mut self, name: &str, pose: MovedPose) -> bool {
        let doc = &mut self.session.doc;
        let (Some(i), MovedPose::Three(pose)) =
            (doc.bodies.iter().position(|b| b.name == name), pose)
        else {
            return false;
        };
        doc.set_pose(i, pose);
        true
    }

    fn duplicate_selected(&mut self) -> bool {
        let doc = &mut self.session.doc;
        doc.selected.and_then(|i| doc.duplicate_body(i)).is_some()
    }

    fn delete_selected(&mut self) -> Option<String> {
        let doc = &mut self.session.doc;
        let i = doc.selected?;
        let name = doc.bodies.get(i)?.name.clone();
        doc.remove_body(i);
        Some(name)
    }

    fn clear_selection(&mut self) {
        self.session.doc.selected = None;
    }

    fn record_expectations(&mut self, every_pair: bool) -> Result<Vec<RecordedPair>, String> {
        self.session.doc.record_expectations(every_pair)
    }

    fn view_label(&self) -> String {
        self.camera.view_label()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }

    fn timeline_model(&mut self) -> &mut dyn TimelineModel {
        &mut self.session
    }

    fn picture(&mut self) -> &mut dyn super::picture::Picture {
        self
    }

    fn set_viewport(&mut self, origin: Vec2, size: Vec2) {
        let size = size.max(Vec2::splat(1.0));
        self.canvas = Rect::new(origin, size);
        let (origin, size) = match self.difference.split {
            true => {
                let left = difference3::split_halves(origin, size, 1.0).0;
                (left.min, left.size())
            }
            false => (origin, size),
        };
        let resized = (size - self.camera.size).abs().max_element() > 0.5;
        let untouched = self.fitted == Some(self.camera);
        self.camera.origin = origin;
        self.camera.size = size;
        if resized && untouched {
            self.fit_all();
        }
    }

    fn draws_on_difference(&self) -> bool {
        let overlays = self.session.overlays();
        difference3::wants_inset(&self.labs, |a| overlays.is_on(a))
    }

    fn set_split(&mut self, on: bool) {
        if self.difference.split != on {
            self.difference.set_split(on);
            let (origin, size) = (self.canvas.min, self.canvas.size());
            self.set_viewport(origin, size);
        }
    }

    fn update(&mut self, now: f64) {
        self.session.advance_playback(now);
        self.session.refresh();
    }

    fn clocks_running(&self) -> bool {
        self.sweep_clock.is_playing()
    }

    fn advance_clocks(&mut self, now: f64) {
        let t_max = self.session.doc.meta.sweep_time();
        self.sweep_clock.advance(now, t_max);
    }

    fn draw(&self, scale: f32, legend: bool) {
        self.draw_view(scale, legend, false);
    }

    fn fit_all(&mut self) {
        self.difference.user_camera = None;
        match self.bounds() {
            Some((lo, hi)) => self.camera.fit(lo, hi),
            None => self.camera.fit(Vec3::splat(-2.0), Vec3::splat(2.0)),
        }
        self.fitted = Some(self.camera);
    }

    fn lesson_answers(&self) -> Option<Answers> {
        let run = self.session.run()?;
        Some(Answers::from_query3(
            &run.query,
            self.session.doc.meta.sweep_time(),
        ))
    }
}

impl AlgorithmsModel for Workspace3d {
    fn algorithm_rows(&self) -> Vec<AlgorithmRow> {
        self.labs
            .iter()
            .map(|lab| AlgorithmRow {
                algorithm: lab.algorithm(),
                name: lab.name(),
                on: self.session.overlays().is_on(lab.algorithm()),
                legend: lab.legend(),
            })
            .collect()
    }

    fn enable(&mut self, a: Algorithm, on: bool) {
        self.session.enable(a, on);
    }

    fn settings_ui(&mut self, ui: &mut egui::Ui, a: Algorithm) -> bool {
        if a == Algorithm::Sweep {
            let t_max = self.session.doc.meta.sweep_time();
            return super::labs::sweep_motion_ui(ui, &mut self.sweep_clock, t_max);
        }
        if a == Algorithm::Sat {
            return ui
                .checkbox(&mut self.gauss_map, "Gauss map inset")
                .on_hover_text("A's face normals, B's reversed, and their edges as arcs: an edge pair gives an axis only where its arcs cross")
                .changed();
        }
        ui.label("The 3D algorithms use the core's named tolerances (see `trace`).");
        false
    }
}

impl PlotsModel for Workspace3d {
    fn series(&self) -> Option<Vec<Series>> {
        let run = self.session.run()?;
        Some(self.labs.iter().flat_map(|lab| lab.series(run)).collect())
    }

    fn selected_iteration(&self) -> Option<f64> {
        self.session
            .timeline_position()
            .map(|(_, k)| k as f64 + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::parse_scene3;

    fn open(name: &str) -> Workspace3d {
        let path = format!("{}/scenes/3d/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let (scene, bodies) = parse_scene3(&text, name).unwrap();
        Workspace3d::new(Document3::from_parts(scene, bodies))
    }

    #[test]
    fn a_3d_scene_opens_in_the_3d_workspace_and_saves_what_it_shows() {
        let doc =
            LoadedDocument::parse(include_str!("../../scenes/3d/welcome.ron"), "w.ron").unwrap();
        let w = crate::app::workspaces::for_document(doc);
        assert!(w.plane().is_none() && w.space().is_some());
        assert_eq!(w.outline().dimensions, 3);
        let space = w.space().unwrap();
        let scene = space.scene_to_save();
        let view = scene.view.expect("the view is saved");
        assert!((view.target - Vec3::new(0.0, 0.8, 0.0)).length() < 1e-5);
        assert!((scene.view.unwrap().eye - Vec3::new(5.0, 4.0, 7.0)).length() < 1e-4);
        // The drawn overlays as they are, then the ones the file lists that 3D does not draw yet.
        assert_eq!(
            scene.overlays,
            vec![Algorithm::Sat, Algorithm::Clip, Algorithm::Sweep]
        );
        let text = crate::scene::scene3_to_string(&scene);
        assert!(parse_scene3(&text, "saved.ron").is_ok(), "{text}");
    }

    #[test]
    fn the_pick_ray_finds_the_nearest_body_under_the_pointer() {
        let mut w = open("welcome.ron");
        w.set_viewport(Vec2::ZERO, Vec2::new(1280.0, 720.0));
        w.fit_all();
        let crate_center = w.doc().bodies[1].pose.position;
        let at = w.camera.to_screen(crate_center).unwrap();
        assert_eq!(w.body_at(at), Some(1));
        assert_eq!(w.body_at(Vec2::new(2.0, 2.0)), None);
    }

    #[test]
    fn the_split_gives_a_minus_b_the_right_half_turned_like_the_bodies_and_framed() {
        let mut w = open("welcome.ron");
        w.set_viewport(Vec2::ZERO, Vec2::new(1280.0, 720.0));
        assert_eq!(
            w.difference_camera(1.0),
            None,
            "SAT and the manifold: no A - B"
        );
        w.set_split(true);
        let h = difference3::split_halves(Vec2::ZERO, Vec2::new(1280.0, 720.0), 1.0);
        assert_eq!((w.camera.origin, w.camera.size), (h.0.min, h.0.size()));
        let c = w.difference_camera(1.0).expect("the split shows A - B");
        let view = difference3::view_below_title(h.1, 1.0);
        assert_eq!(
            (c.origin, c.size),
            (view.min, view.size()),
            "below its title"
        );
        assert!((c.forward() - w.camera.forward()).length() < 1e-6);
        // A - B's corners and its origin all project into the right half.
        let run = w.session().run().unwrap();
        let hull = &run.difference(w.doc()).unwrap().difference.hull;
        for p in hull.vertices().iter().chain([&Vec3::ZERO]) {
            let s = c.to_screen(*p).unwrap();
            assert!(
                s.cmpge(c.origin).all() && s.cmple(c.origin + c.size).all(),
                "{p}"
            );
        }
        // Moved by hand, it stays when the bodies' camera turns; "Fit all" hands it back.
        w.difference.take_camera(c).orbit(Vec2::new(120.0, 0.0));
        let moved = w.difference_camera(1.0).unwrap();
        w.camera.orbit(Vec2::new(-50.0, 30.0));
        assert_eq!(w.difference_camera(1.0), Some(moved));
        w.fit_all();
        let back = w.difference_camera(1.0).unwrap();
        assert!((back.forward() - w.camera.forward()).length() < 1e-6);
        w.set_split(false);
        assert_eq!(
            (w.camera.origin, w.camera.size),
            (Vec2::ZERO, Vec2::new(1280.0, 720.0))
        );
    }

    #[test]
    fn an_overlay_that_draws_in_a_minus_b_opens_the_inset_clear_of_the_legend() {
        let mut w = open("gjk_separated_boxes.ron");
        w.set_viewport(Vec2::ZERO, Vec2::new(1280.0, 720.0));
        let c = w.difference_camera(1.0).expect("GJK draws in A - B");
        let card = difference3::card_around(Rect::new(c.origin, c.size), 1.0).size();
        assert!(
            card.x < 640.0 && (card.x - card.y).abs() < 0.01,
            "a card: {c:?}"
        );
        assert!(c.origin.cmpge(Vec2::ZERO).all());
        assert!((c.origin + c.size).cmple(Vec2::new(1280.0, 720.0)).all());
        w.enable(Algorithm::Gjk, false);
        assert_eq!(w.difference_camera(1.0), None);
        w.enable(Algorithm::Minkowski, true);
        assert!(w.difference_camera(1.0).is_some(), "the backdrop alone");
    }

    #[test]
    fn every_3d_scene_opens_and_its_timeline_tells_only_drawn_algorithms() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/3d");
        for entry in std::fs::read_dir(dir).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            let mut w = open(&name);
            let choices: Vec<Algorithm> = w
                .timeline_model()
                .timeline_choices()
                .iter()
                .map(|c| c.0)
                .collect();
            for a in choices {
                assert!(DRAWN_3D.contains(&a), "{name}: {a:?}");
            }
        }
    }
}
