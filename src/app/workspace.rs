//! A workspace: one kind of analysis with its own view and labs. The 2D workspace holds the
//! [`Session`] (document, analysis, overlay state), the camera on the plane and the registry
//! of 2D labs; it draws through [`draw_canvas`] and serves the shared panels through the
//! traits of [`super::panels`].
//!
//! A 3D workspace plugs in beside it: its own model (a 3D analysis implementing
//! [`TimelineModel`]), its own camera and labs, and an implementation of [`Workspace`]; the
//! frame loop and the shared panels only see the trait.

use super::camera::Camera;
use super::canvas::{draw_canvas, CanvasInput};
use super::labs::{self, Lab, Series};
use super::layout;
use super::panels::{AlgorithmRow, AlgorithmsModel, PlotsModel};
use super::session::Session;
use super::state::Document;
use super::timeline::TimelineModel;
use crate::query::Algorithm;
use crate::scene::View;
use egui_macroquad::egui;
use glam::Vec2;

/// What the frame loop and the shared panels need from any workspace.
pub trait Workspace: AlgorithmsModel + PlotsModel {
    fn timeline_model(&mut self) -> &mut dyn TimelineModel;
    /// The canvas rectangle in pixels, from this frame's layout.
    fn set_viewport(&mut self, origin: Vec2, size: Vec2);
    /// Reruns the analysis if its inputs changed, and advances playback to `now` (seconds).
    fn update(&mut self, now: f64);
    /// Draws the canvas: the scene, every enabled overlay, the legend when asked.
    fn draw(&self, scale: f32, legend: bool);
    /// Frames everything.
    fn fit_all(&mut self);
}

/// The 2D workspace: bodies in the plane, the pair's analysis, the 2D labs.
pub struct Workspace2d {
    pub session: Session,
    pub camera: Camera,
    labs: Vec<Box<dyn Lab>>,
}

impl Workspace2d {
    pub fn new(doc: Document, camera: Camera) -> Workspace2d {
        let mut w = Workspace2d {
            session: Session::new(Document::new_empty()),
            camera,
            labs: labs::registry(),
        };
        w.replace_document(doc);
        w
    }

    /// Shows another document: its overlays, its view (or everything fitted).
    pub fn replace_document(&mut self, doc: Document) {
        let view = doc.meta.view;
        self.session.replace_document(doc);
        match view {
            Some(View { center, zoom }) => {
                self.camera.center = center;
                self.camera.zoom = zoom;
            }
            None => self.fit_all(),
        }
    }

    /// Shows the file's new version where the user was looking, overlays as they were.
    pub fn reload_document(&mut self, doc: Document) {
        self.session.replace_document_keeping_overlays(doc);
    }

    pub fn labs(&self) -> &[Box<dyn Lab>] {
        &self.labs
    }

    /// The view saved with the scene.
    pub fn view(&self) -> View {
        View {
            center: self.camera.center,
            zoom: self.camera.zoom,
        }
    }

    /// The canvas as `render` and the window draw it, with an optional caption.
    pub fn draw_with_caption(&self, scale: f32, legend: bool, caption: Option<String>) {
        let s = &self.session;
        draw_canvas(&CanvasInput {
            doc: &s.doc,
            run: s.run(),
            labs: &self.labs,
            overlays: s.overlays(),
            camera: self.camera,
            scale,
            caption,
            legend,
        });
    }

    fn lab(&self, a: Algorithm) -> Option<&dyn Lab> {
        self.labs
            .iter()
            .find(|l| l.algorithm() == a)
            .map(|b| b.as_ref())
    }
}

impl Workspace for Workspace2d {
    fn timeline_model(&mut self) -> &mut dyn TimelineModel {
        &mut self.session
    }

    fn set_viewport(&mut self, origin: Vec2, size: Vec2) {
        self.camera.origin = origin;
        self.camera.size = size.max(Vec2::splat(1.0));
    }

    fn update(&mut self, now: f64) {
        self.session.advance_playback(now);
        self.session.refresh();
    }

    fn draw(&self, scale: f32, legend: bool) {
        self.draw_with_caption(scale, legend, None);
    }

    fn fit_all(&mut self) {
        match layout::bounds(&self.session.doc.bodies) {
            Some((lo, hi)) => self.camera = layout::fit_beside_inset(&self.camera, lo, hi),
            None => {
                self.camera.center = Vec2::ZERO;
                self.camera.zoom = 60.0;
            }
        }
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
        let changed = self
            .lab(a)
            .is_some_and(|lab| lab.settings_ui(ui, &mut settings));
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
