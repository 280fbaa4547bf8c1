//! A workspace: one kind of analysis with its own view and labs. The 2D workspace holds the
//! [`Session`] (document, analysis, overlay state), the camera on the plane and the registry
//! of 2D labs; it draws through [`draw_canvas`] and serves the shared panels through the
//! traits of [`super::panels`].
//!
//! The 3D workspace ([`super::workspace3::Workspace3d`]) sits beside it: its own model (a
//! `Session` of a 3D document), its own camera and labs, and an implementation of
//! [`Workspace`]; the frame loop and the shared panels only see the trait. What differs by
//! dimension (the document, its undo states, the file it saves) stays behind the trait.

use super::camera::Camera;
use super::canvas::{
    caption_strip_height, difference_bounds, draw_canvas, draw_caption_strip, inset_camera_in,
    inset_rect_for, CanvasInput, FoldedLegend,
};
use super::document::{DocOutline, LoadedDocument, Snapshot};
use super::draw::PlacedLabel;
use super::file_state::{FileState, RecordedPair};
use super::labels::Rect;
use super::labs::{self, Lab, Series};
use super::layout;
use super::overlays::OverlayState;
use super::panels::{AlgorithmRow, AlgorithmsModel, PlotsModel};
use super::session::Session;
use super::split::{self, SplitView};
use super::state::Document;
use super::sweep_clock::SweepClock;
use super::timeline::TimelineModel;
use crate::query::Algorithm;
use crate::scan::MovedPose;
use crate::scene::{scene_to_string, Answers, Scene, View};
use egui_macroquad::egui;
use glam::Vec2;
use std::any::Any;
use std::cell::{Cell, RefCell};

/// What the window (files, undo, the frame loop) and the shared panels need from any
/// workspace.
pub trait Workspace: AlgorithmsModel + PlotsModel {
    /// The document's file, unsaved mark and revision.
    fn file(&self) -> &FileState;
    fn file_mut(&mut self) -> &mut FileState;
    /// What the menu and the dialogs show of the document.
    fn outline(&self) -> DocOutline<'_>;
    /// The document's state for undo.
    fn snapshot(&self) -> Snapshot;
    /// Puts back an undo or redo state (of this kind; another kind's is ignored).
    fn restore(&mut self, state: Snapshot);
    /// Shows another document of this kind: its overlays, its saved view (or everything
    /// fitted). A document of the other kind is handed back.
    fn replace_document(&mut self, doc: LoadedDocument) -> Result<(), Box<LoadedDocument>>;
    /// Shows the file's new version where the user was looking, overlays as they were.
    fn reload_document(&mut self, doc: LoadedDocument) -> Result<(), Box<LoadedDocument>>;
    /// The document as scene text, with this workspace's view and overlays: what Save
    /// writes and what a share link carries.
    fn scene_text(&self) -> String;
    /// Whether the document says where to look (else the window fits everything).
    fn has_saved_view(&self) -> bool;
    /// Puts the body called `name` at `pose` (a scan's pose, of this workspace's
    /// dimension); false when there is no such body or the pose is of the other dimension.
    fn place_body(&mut self, name: &str, pose: MovedPose) -> bool;
    /// Duplicates the selected body; false when nothing is selected.
    fn duplicate_selected(&mut self) -> bool;
    /// Deletes the selected body; its name, `None` when nothing is selected.
    fn delete_selected(&mut self) -> Option<String>;
    /// Clears the selection.
    fn clear_selection(&mut self);
    /// Writes what the algorithms find now as the `expect` entries of the focused pair (or
    /// of every pair); call after a checkpoint so that it undoes.
    fn record_expectations(&mut self, every_pair: bool) -> Result<Vec<RecordedPair>, String>;
    /// The view for the status bar ("zoom 40 px/unit").
    fn view_label(&self) -> String;
    /// The workspace as its own type, for what only one kind has (its canvas tools, its
    /// panels, the test probe): see `plane()` here and `space()` in `workspace3.rs`.
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    fn timeline_model(&mut self) -> &mut dyn TimelineModel;
    /// The workspace as a picture at a step, for File > Export slides.
    fn picture(&mut self) -> &mut dyn super::picture::Picture;
    /// The canvas rectangle in pixels, from this frame's layout.
    fn set_viewport(&mut self, origin: Vec2, size: Vec2);
    /// Splits the canvas into the bodies and A - B side by side (the View menu, the
    /// presentation mode), or draws A - B in the inset. A kind without A - B ignores it.
    fn set_split(&mut self, _on: bool) {}
    /// Presentation mode on or off (F5): no legend and no inset then, so "fit all" may use
    /// the whole canvas. A kind that reserves no room for them ignores it.
    fn set_presentation(&mut self, _on: bool) {}
    /// Whether A - B has something to show: an overlay that draws on A - B is on (the
    /// Minkowski difference, GJK, EPA). Presentation mode splits the canvas only then.
    fn draws_on_difference(&self) -> bool {
        false
    }
    /// Moves the clocks that the panels show and the canvas draws (the sweep's motion) on to
    /// `now` (seconds); called before the panels are built, so that both show one time.
    fn advance_clocks(&mut self, _now: f64) {}
    /// Whether a clock plays (the sweep's motion), so that frames keep coming.
    fn clocks_running(&self) -> bool {
        false
    }
    /// Reruns the analysis if its inputs changed, and advances playback to `now` (seconds).
    fn update(&mut self, now: f64);
    /// Draws the canvas: the scene, every enabled overlay, the legend when asked.
    fn draw(&self, scale: f32, legend: bool);
    /// Frames everything.
    fn fit_all(&mut self);
    /// The focused pair's answers as a lesson's exercise reads them; `None` without a pair.
    fn lesson_answers(&self) -> Option<Answers>;
}

/// The overlays switched on, as a scene lists them: the timeline's algorithm first, since a
/// scene opens with the timeline on the first listed overlay that has steps. (With every
/// overlay off the list is empty, which a scene reads as the defaults.)
fn overlays_to_save(o: &OverlayState) -> Vec<Algorithm> {
    let mut on: Vec<Algorithm> = Algorithm::ALL.into_iter().filter(|a| o.is_on(*a)).collect();
    if let Some(k) = on.iter().position(|a| *a == o.timeline()) {
        let timeline = on.remove(k);
        on.insert(0, timeline);
    }
    on
}

impl<'a> dyn Workspace + 'a {
    /// The 2D workspace, for what only works in the plane: the canvas tools, the Results
    /// panel and the test probe; `None` in another kind, which brings its own.
    pub fn plane(&self) -> Option<&Workspace2d> {
        self.as_any().downcast_ref()
    }

    pub fn plane_mut(&mut self) -> Option<&mut Workspace2d> {
        self.as_any_mut().downcast_mut()
    }
}

/// The 2D workspace: bodies in the plane, the pair's analysis, the 2D labs.
pub struct Workspace2d {
    pub session: Session,
    /// The camera on the bodies (the left half when the canvas is split).
    pub camera: Camera,
    /// The split view: whether it is on, and its camera on A - B.
    pub split: SplitView,
    /// The time the sweep's moving bodies are shown at, and its play/pause.
    pub sweep_clock: SweepClock,
    labs: Vec<Box<dyn Lab>>,
    /// The view as the last "fit all" left it: while the user has not panned or zoomed
    /// since, a new canvas size (window resized, panels opened or closed) fits again.
    fitted: Option<(Vec2, f32)>,
    /// The scene's saved view, a world rectangle (centre, width and height), while the
    /// view still shows it: a new canvas size fits it again, and saving writes it as read.
    /// "Fit all" and any pan or zoom of the user leave it.
    region: Option<(Vec2, Vec2)>,
    /// Where the last drawn frame's labels went (for the tests' checks).
    pub placed_labels: RefCell<Vec<PlacedLabel>>,
    /// The folded legend: where the last frame drew its button (or the legend opened from
    /// it), and whether it is open.
    pub legend_fold: Cell<LegendFold>,
    /// Presentation mode (F5): no legend, and no inset (A - B has the split's right half
    /// or nothing), so "fit all" frames the bodies on the whole canvas.
    presentation: bool,
}

/// The legend folded into a button because it would cover the focused pair (see
/// `layout::legend_place`): where a click opens or folds it, and whether it is open.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LegendFold {
    pub toggle: Option<Rect>,
    pub open: bool,
}

impl LegendFold {
    /// A click at `screen` on the folded legend's button opens the legend, on the legend
    /// opened from it folds it again (2D and 3D); returns whether the click was there (and
    /// taken).
    pub fn click(fold: &Cell<LegendFold>, screen: Vec2) -> bool {
        let now = fold.get();
        let hit = now.toggle.is_some_and(|r| r.contains_point(screen));
        if hit {
            fold.set(LegendFold {
                open: !now.open,
                ..now
            });
        }
        hit
    }
}

impl Workspace2d {
    pub fn new(doc: Document, camera: Camera) -> Workspace2d {
        let mut w = Workspace2d {
            session: Session::new(Document::new_empty()),
            camera,
            split: SplitView::default(),
            sweep_clock: SweepClock::default(),
            labs: labs::registry(),
            fitted: None,
            region: None,
            placed_labels: RefCell::new(Vec::new()),
            legend_fold: Cell::new(LegendFold::default()),
            presentation: false,
        };
        w.show(doc);
        w
    }

    /// Shows `doc` with its overlays and its saved view, or everything fitted.
    fn show(&mut self, doc: Document) {
        let view = doc.meta.view;
        self.session.replace_document(doc);
        match view.and_then(|v| Some((v.center, v.extent()?))) {
            Some(region) => {
                self.region = Some(region);
                self.show_region();
            }
            None => self.fit_all(),
        }
    }

    /// Fits the saved region to the camera's canvas (bodies' half when split).
    fn show_region(&mut self) {
        if let Some((center, extent)) = self.region {
            self.camera.fit_region(center, extent);
            self.fitted = Some((self.camera.center, self.camera.zoom));
        }
    }

    /// Whether the view is where the last automatic framing (fit all, the saved region)
    /// put it: the user has not panned or zoomed since.
    fn untouched(&self) -> bool {
        self.fitted == Some((self.camera.center, self.camera.zoom))
    }

    pub fn labs(&self) -> &[Box<dyn Lab>] {
        &self.labs
    }

    /// The canvas as the window draws it (`picture`: as `render` and the slides draw it).
    fn draw_view(&self, scale: f32, legend: bool, picture: bool) {
        let s = &self.session;
        let fold = self.legend_fold.get();
        let drawn = draw_canvas(&CanvasInput {
            doc: &s.doc,
            run: s.run(),
            labs: &self.labs,
            overlays: s.overlays(),
            camera: self.camera,
            scale,
            legend,
            folded_legend: match (picture, fold.open) {
                (true, _) => FoldedLegend::Omitted,
                (false, true) => FoldedLegend::Open,
                (false, false) => FoldedLegend::Button,
            },
            difference: self.split.on.then_some(self.split.camera),
            sweep_time: self.sweep_clock.shown(s.doc.meta.sweep_time()),
        });
        *self.placed_labels.borrow_mut() = drawn.labels;
        self.legend_fold.set(LegendFold {
            toggle: drawn.legend_toggle,
            ..fold
        });
    }

    /// A click at `screen` on the folded legend's button opens the legend, on the legend
    /// opened from it folds it again; returns whether the click was there (and taken).
    pub fn click_legend(&mut self, screen: Vec2) -> bool {
        LegendFold::click(&self.legend_fold, screen)
    }

    /// A picture `size` pixels large, as `render` and the slides draw it: the canvas with
    /// its legend above a strip that holds the timeline's sentence, so that the sentence
    /// never covers the bodies or A - B.
    pub fn draw_picture(&mut self, size: Vec2, scale: f32) {
        let strip = caption_strip_height(scale).min(size.y * 0.5);
        self.set_viewport(Vec2::ZERO, Vec2::new(size.x, size.y - strip));
        self.draw_view(scale, true, true);
        if let Some(text) = self.session.timeline_sentence() {
            draw_caption_strip(&text, Vec2::new(0.0, size.y - strip), size.x, scale);
        }
    }

    /// The camera of the A - B inset as [`Workspace2d::draw_picture`] and the window place
    /// it (with the legend that `taken` says is drawn).
    pub fn inset_camera(&self, scale: f32, taken: layout::CornersTaken) -> Option<Camera> {
        let run = self.session.run()?;
        let doc = &self.session.doc;
        let rect = inset_rect_for(doc, run, &self.camera, scale, taken);
        Some(inset_camera_in(run, &self.labs, &self.camera, rect))
    }

    /// Frames A - B in the split view's right half, unless the user framed it.
    fn follow_difference(&mut self) {
        if !self.split.on {
            return;
        }
        if let Some(run) = self.session.run() {
            let (lo, hi) = difference_bounds(run, &self.labs);
            self.split.follow(lo, hi);
        }
    }

    fn lab(&self, a: Algorithm) -> Option<&dyn Lab> {
        self.labs
            .iter()
            .find(|l| l.algorithm() == a)
            .map(|b| b.as_ref())
    }
}

impl Workspace2d {
    /// The scene to save: the document with this workspace's view and overlays.
    pub fn scene_to_save(&self) -> Scene {
        let view = match self.region {
            Some((center, extent)) if self.untouched() => View::region(center, extent),
            _ => View::region(self.camera.center, self.camera.size / self.camera.zoom),
        };
        let mut scene = self.session.doc.to_scene(Some(view));
        scene.overlays = Some(overlays_to_save(self.session.overlays()));
        scene
    }

    /// Where a new body appears: the centre of the view.
    pub fn view_center(&self) -> Vec2 {
        self.camera.center
    }
}

impl super::picture::Picture for Workspace2d {
    fn draw_picture(&mut self, size: Vec2, scale: f32) {
        Workspace2d::draw_picture(self, size, scale);
    }

    fn labels_json(&self) -> serde_json::Value {
        super::draw::labels_json(&self.placed_labels.borrow())
    }

    fn timeline(&mut self) -> &mut dyn TimelineModel {
        &mut self.session
    }

    fn step_count(&self, algorithm: Algorithm) -> usize {
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

impl Workspace for Workspace2d {
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
            dimensions: 2,
            lesson: doc.meta.lesson.as_ref(),
            title: doc.meta.title.as_deref(),
            notes: doc.meta.notes.as_deref(),
        }
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot::Plane(self.session.doc.snapshot())
    }

    fn restore(&mut self, state: Snapshot) {
        if let Snapshot::Plane(s) = state {
            self.session.doc.restore(s);
        }
    }

    fn replace_document(&mut self, doc: LoadedDocument) -> Result<(), Box<LoadedDocument>> {
        let LoadedDocument::Plane(doc) = doc else {
            return Err(Box::new(doc));
        };
        self.show(doc);
        Ok(())
    }

    fn reload_document(&mut self, doc: LoadedDocument) -> Result<(), Box<LoadedDocument>> {
        let LoadedDocument::Plane(doc) = doc else {
            return Err(Box::new(doc));
        };
        self.session.replace_document_keeping_overlays(doc);
        Ok(())
    }

    fn scene_text(&self) -> String {
        scene_to_string(&self.scene_to_save())
    }

    fn has_saved_view(&self) -> bool {
        self.session.doc.meta.view.is_some()
    }

    fn place_body(&mut self, name: &str, pose: MovedPose) -> bool {
        let doc = &mut self.session.doc;
        let (Some(i), MovedPose::Two(pose)) =
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
        let recorded = self.session.doc.record_expectations(every_pair)?;
        Ok(recorded
            .into_iter()
            .map(|r| RecordedPair {
                a: r.expectation.a,
                b: r.expectation.b,
                left_out: r.left_out,
            })
            .collect())
    }

    fn view_label(&self) -> String {
        format!(
            "zoom {} px/unit",
            crate::text::format_number(self.camera.zoom, 0)
        )
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
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
        let before = self.camera.size;
        if self.split.on {
            let h = split::halves(origin, size, split::GAP);
            (self.camera.origin, self.camera.size) = h.left;
            (self.split.camera.origin, self.split.camera.size) = h.right;
        } else {
            self.camera.origin = origin;
            self.camera.size = size;
        }
        // A fitted view the user has not moved since fits again when the canvas (or its
        // bodies half) changes size.
        let resized = (self.camera.size - before).abs().max_element() > 0.5;
        // The split switched: both halves are framed again, the saved region too if the
        // user has not moved away from it.
        let split_switched = std::mem::take(&mut self.split.needs_fit);
        let refit = (resized || split_switched) && self.untouched();
        if refit && self.region.is_some() {
            self.show_region();
        } else if refit || split_switched {
            self.fit_all();
        }
        self.follow_difference();
    }

    fn set_split(&mut self, on: bool) {
        self.split.set(on);
    }

    fn set_presentation(&mut self, on: bool) {
        self.presentation = on;
    }

    fn draws_on_difference(&self) -> bool {
        let overlays = self.session.overlays();
        (self.labs.iter()).any(|l| l.uses_inset() && overlays.is_on(l.algorithm()))
    }

    fn update(&mut self, now: f64) {
        self.session.advance_playback(now);
        self.session.refresh();
        self.follow_difference();
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
        self.region = None;
        self.split.user_framed = false;
        self.follow_difference();
        match layout::bounds(&self.session.doc.bodies) {
            // Nothing to keep clear on the right: the bodies get the whole canvas (half).
            Some((lo, hi)) if self.split.on || self.presentation => self.camera.fit(lo, hi, 0.08),
            Some((lo, hi)) => self.camera = layout::fit_beside_inset(&self.camera, lo, hi),
            None => {
                self.camera.center = Vec2::ZERO;
                self.camera.zoom = 60.0;
            }
        }
        self.fitted = Some((self.camera.center, self.camera.zoom));
    }

    fn lesson_answers(&self) -> Option<Answers> {
        let run = self.session.run()?;
        Some(Answers::from_query(
            &run.query,
            self.session.doc.meta.sweep_time(),
        ))
    }
}

impl AlgorithmsModel for Workspace2d {
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
        let mut settings = self.session.settings;
        let mut changed = self
            .lab(a)
            .is_some_and(|lab| lab.settings_ui(ui, &mut settings));
        if a == Algorithm::Sweep {
            let t_max = self.session.doc.meta.sweep_time();
            changed |= labs::sweep_motion_ui(ui, &mut self.sweep_clock, t_max);
        }
        if settings != self.session.settings {
            self.session.settings = settings;
        }
        changed
    }
}

impl PlotsModel for Workspace2d {
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
    use crate::app::workspaces::for_document;

    #[test]
    fn saving_keeps_the_overlays_the_timeline_and_the_focused_pair_as_they_are() {
        let doc = Document::parse(super::super::examples::welcome(), "welcome").unwrap();
        let mut w = for_document(LoadedDocument::Plane(doc));
        w.enable(Algorithm::Gjk, false);
        w.enable(Algorithm::Clip, true);
        w.timeline_model().choose_timeline(Algorithm::Sat);
        w.plane_mut().unwrap().session.doc.set_focus(1, 0);
        let scene = w.plane().unwrap().scene_to_save();
        assert_eq!(
            scene.overlays.as_deref(),
            Some(
                &[
                    Algorithm::Sat,
                    Algorithm::Minkowski,
                    Algorithm::Epa,
                    Algorithm::Clip
                ][..]
            )
        );
        let names = (
            w.plane().unwrap().session.doc.bodies[1].name.clone(),
            w.plane().unwrap().session.doc.bodies[0].name.clone(),
        );
        assert_eq!(scene.focus, Some(names));
        // Opened again, it looks the same.
        let text = crate::scene::scene_to_string(&scene);
        let again = for_document(LoadedDocument::Plane(
            Document::parse(&text, "saved.ron").unwrap(),
        ));
        let rows: Vec<(Algorithm, bool)> = again
            .algorithm_rows()
            .iter()
            .map(|r| (r.algorithm, r.on))
            .collect();
        let before: Vec<(Algorithm, bool)> = w
            .algorithm_rows()
            .iter()
            .map(|r| (r.algorithm, r.on))
            .collect();
        assert_eq!(rows, before);
        let mut again = again;
        assert_eq!(again.timeline_model().timeline(), Algorithm::Sat);
        assert_eq!(again.outline().focus, Some((1, 0)));
    }

    #[test]
    fn a_scene_saved_with_every_overlay_off_opens_with_every_overlay_off() {
        let doc = Document::parse(super::super::examples::welcome(), "welcome").unwrap();
        let mut w = for_document(LoadedDocument::Plane(doc));
        for a in Algorithm::ALL {
            w.enable(a, false);
        }
        let text = crate::scene::scene_to_string(&w.plane().unwrap().scene_to_save());
        assert!(text.contains("overlays: []"), "{text}");
        let again = for_document(LoadedDocument::Plane(
            Document::parse(&text, "saved.ron").unwrap(),
        ));
        assert!(again.algorithm_rows().iter().all(|r| !r.on));
        // A scene that does not mention overlays still opens with the defaults.
        let plain = r#"(version: 1, title: "Two circles", bodies: [
            (name: "a", shape: Circle(radius: 1)),
            (name: "b", shape: Circle(radius: 1), position: (3, 0)),
        ])"#;
        let plain = for_document(LoadedDocument::Plane(
            Document::parse(plain, "plain.ron").unwrap(),
        ));
        let on: Vec<Algorithm> = plain
            .algorithm_rows()
            .iter()
            .filter(|r| r.on)
            .map(|r| r.algorithm)
            .collect();
        assert_eq!(on, crate::app::overlays::DEFAULT_OVERLAYS);
    }

    #[test]
    fn home_and_end_show_the_first_and_last_step_of_the_timeline() {
        let doc = Document::parse(super::super::examples::welcome(), "welcome").unwrap();
        let mut w = for_document(LoadedDocument::Plane(doc));
        let timeline = w.timeline_model();
        let (n, _) = timeline.timeline_position().unwrap();
        assert!(n >= 3, "the welcome scene's GJK has steps");
        timeline.select_step(1);
        assert!(timeline.first_step());
        assert_eq!(timeline.timeline_position(), Some((n, 0)));
        assert!(timeline.last_step());
        assert_eq!(timeline.timeline_position(), Some((n, n - 1)));
        assert!(!timeline.step_by(1), "already at the end");
        // Another algorithm's timeline has its own ends.
        timeline.choose_timeline(Algorithm::Sat);
        let (sat, _) = timeline.timeline_position().unwrap();
        assert!(timeline.last_step());
        assert_eq!(timeline.timeline_position(), Some((sat, sat - 1)));
        // Without a pair there are no steps: nothing moves.
        let mut empty = for_document(LoadedDocument::Plane(Document::new_empty()));
        assert!(!empty.timeline_model().first_step());
        assert!(!empty.timeline_model().last_step());
    }

    #[test]
    fn the_split_gives_each_half_its_camera_and_frames_a_minus_b_with_its_origin() {
        let doc = Document::parse(crate::app::examples::welcome(), "welcome").unwrap();
        let mut w = Workspace2d::new(doc, Camera::default());
        w.set_split(true);
        w.set_viewport(Vec2::new(200.0, 20.0), Vec2::new(906.0, 600.0));
        assert_eq!(w.camera.origin, Vec2::new(200.0, 20.0));
        assert_eq!(w.camera.size, Vec2::new(450.0, 600.0));
        assert_eq!(w.split.camera.size, w.camera.size, "equal halves");
        assert_eq!(w.split.camera.origin, Vec2::new(656.0, 20.0));
        // The bodies fill the left half; A - B and its origin fill the right one.
        let (lo, hi) = layout::bounds(&w.session.doc.bodies).unwrap();
        let (vlo, vhi) = w.camera.visible_world();
        assert!(
            vlo.cmple(lo).all() && vhi.cmpge(hi).all(),
            "every body shown"
        );
        let run = w.session.run().unwrap();
        let (dlo, dhi) = w.split.camera.visible_world();
        for p in run.minkowski.iter().chain([&Vec2::ZERO]) {
            assert!(
                p.cmpge(dlo).all() && p.cmple(dhi).all(),
                "{p} in the A - B half"
            );
        }
        // Zoomed by the user, the A - B half stays put through updates; F frames it again.
        w.split.zoom_at(Vec2::new(700.0, 300.0), 2.0);
        let zoomed = w.split.camera;
        w.update(0.0);
        w.set_viewport(Vec2::new(200.0, 20.0), Vec2::new(906.0, 600.0));
        assert_eq!(w.split.camera, zoomed);
        w.fit_all();
        assert!(w.split.camera.zoom < zoomed.zoom);
        // Off again: the bodies' camera takes the whole canvas.
        w.set_split(false);
        w.set_viewport(Vec2::new(200.0, 20.0), Vec2::new(906.0, 600.0));
        assert_eq!(w.camera.size, Vec2::new(906.0, 600.0));
    }

    #[test]
    fn a_new_document_without_a_view_is_fitted_and_saved_with_that_view() {
        // No bodies: everything fitted is the origin at 60 pixels a unit.
        let mut w = for_document(LoadedDocument::Plane(Document::new_empty()));
        assert!(
            w.plane().is_some(),
            "scenes of bodies in the plane open in 2D"
        );
        assert_eq!(w.plane().unwrap().view_center(), Vec2::ZERO);
        assert_eq!(w.view_label(), "zoom 60 px/unit");
        // Saved as the region the 1280 x 800 canvas shows at 60 px/unit.
        assert_eq!(
            w.plane().unwrap().scene_to_save().view,
            Some(View::region(
                Vec2::ZERO,
                Vec2::new(1280.0 / 60.0, 800.0 / 60.0)
            ))
        );
        let mut saved = w.plane().unwrap().session.doc.clone();
        saved.meta.view = Some(View::region(Vec2::new(1.0, 2.0), Vec2::new(32.0, 20.0)));
        w.replace_document(LoadedDocument::Plane(saved)).unwrap();
        assert_eq!(w.plane().unwrap().view_center(), Vec2::new(1.0, 2.0));
        // 1280 / 32 = 800 / 20 = 40 px/unit.
        assert_eq!(w.view_label(), "zoom 40 px/unit");
    }

    #[test]
    fn a_saved_region_is_fitted_to_every_canvas_and_saved_as_read() {
        let mut doc = Document::parse(crate::app::examples::welcome(), "welcome.ron").unwrap();
        doc.meta.view = Some(View::region(Vec2::new(1.0, 2.0), Vec2::new(32.0, 20.0)));
        let mut w = Workspace2d::new(doc, Camera::default());
        // A projector's canvas, 640 x 432 at UI scale 2: 640 / 32 = 20 across, 432 / 20 =
        // 21.6 up; 20 shows it all.
        w.set_viewport(Vec2::new(328.0, 44.0), Vec2::new(640.0, 432.0));
        assert_eq!(
            (w.camera.center, w.camera.zoom),
            (Vec2::new(1.0, 2.0), 20.0)
        );
        // Saved without moving: the region as read, not the taller one this canvas shows.
        let region = View::region(Vec2::new(1.0, 2.0), Vec2::new(32.0, 20.0));
        assert_eq!(w.scene_to_save().view, Some(region));
        // The split takes half the canvas: the region is fitted to the bodies' half
        // ((640 - 6) / 2 = 317 wide: 317 / 32 = 9.906 px/unit).
        w.set_split(true);
        w.set_viewport(Vec2::new(328.0, 44.0), Vec2::new(640.0, 432.0));
        assert!(
            (w.camera.zoom - 317.0 / 32.0).abs() < 1e-4,
            "{}",
            w.camera.zoom
        );
        w.set_split(false);
        w.set_viewport(Vec2::new(328.0, 44.0), Vec2::new(640.0, 432.0));
        // Zoomed by the user: the region is left, and saving writes what is visible now,
        // 640 x 432 pixels at 40 px/unit = 16 x 10.8 units.
        w.camera
            .zoom_at(w.camera.to_screen(Vec2::new(1.0, 2.0)), 2.0);
        w.set_viewport(Vec2::new(328.0, 44.0), Vec2::new(800.0, 432.0));
        assert_eq!(
            w.camera.zoom, 40.0,
            "a moved view stays when the canvas changes"
        );
        let saved = w.scene_to_save().view.unwrap();
        assert!((saved.center - Vec2::new(1.0, 2.0)).length() < 1e-5);
        assert_eq!((saved.width, saved.height), (Some(20.0), Some(10.8)));
    }

    #[test]
    fn presentation_mode_fits_the_bodies_on_the_whole_canvas() {
        let doc = Document::parse(crate::app::examples::welcome(), "welcome.ron").unwrap();
        let (lo, hi) = layout::bounds(&doc.bodies).unwrap();
        let mut w = Workspace2d::new(doc, Camera::default());
        w.set_viewport(Vec2::ZERO, Vec2::new(1280.0, 600.0));
        // At the desk, "fit all" keeps the right column clear for the inset and legend:
        // the bodies' middle sits left of the canvas's centre.
        w.fit_all();
        assert!(w.camera.center.x > 0.5 * (lo.x + hi.x) + 0.1);
        // Presenting, there is neither: the bodies' middle is the canvas's centre.
        w.set_presentation(true);
        w.fit_all();
        assert!((w.camera.center - 0.5 * (lo + hi)).length() < 1e-4);
    }

    #[test]
    fn an_old_zoom_shows_what_it_showed_on_the_reference_canvas() {
        // zoom 84 on the 840 x 756 reference canvas showed 10 x 9 units; on 1280 x 800
        // that region is fitted at min(1280 / 10, 800 / 9) = 88.89 px/unit.
        let mut doc = Document::parse(crate::app::examples::welcome(), "welcome.ron").unwrap();
        doc.meta.view = Some(View {
            center: Vec2::new(0.5, 0.0),
            width: None,
            height: None,
            zoom: Some(84.0),
        });
        let mut w = Workspace2d::new(doc, Camera::default());
        w.set_viewport(Vec2::ZERO, Vec2::new(1280.0, 800.0));
        assert!(
            (w.camera.zoom - 800.0 / 9.0).abs() < 1e-3,
            "{}",
            w.camera.zoom
        );
        // Saving writes the new form.
        let saved = w.scene_to_save().view.unwrap();
        assert_eq!(saved.zoom, None);
        assert_eq!((saved.width, saved.height), (Some(10.0), Some(9.0)));
    }

    #[test]
    fn a_fitted_view_fits_again_when_the_canvas_changes_size_and_a_moved_one_stays() {
        let doc = Document::parse(crate::app::examples::welcome(), "welcome.ron").unwrap();
        let mut w = Workspace2d::new(doc, Camera::default());
        w.set_viewport(Vec2::ZERO, Vec2::new(600.0, 400.0));
        w.fit_all();
        let small = w.camera.zoom;
        // The side panels close: the canvas doubles, and the picture grows with it.
        w.set_viewport(Vec2::ZERO, Vec2::new(1200.0, 800.0));
        assert!(
            (w.camera.zoom / small - 2.0).abs() < 0.05,
            "{} vs {small}",
            w.camera.zoom
        );
        // After a zoom by hand, a resize keeps the user's view.
        w.camera.zoom_at(Vec2::new(300.0, 200.0), 1.5);
        let chosen = w.camera;
        w.set_viewport(Vec2::ZERO, Vec2::new(900.0, 700.0));
        assert_eq!(
            (w.camera.center, w.camera.zoom),
            (chosen.center, chosen.zoom)
        );
    }
}
