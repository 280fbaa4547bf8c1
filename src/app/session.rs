//! A document with everything needed to show it: query settings, overlay switches and
//! steps, the camera, and the analysis of the focused pair (rerun when the document or the
//! settings change).

use super::analysis::{Analysis, PairSettings};
use super::camera::Camera;
use super::canvas::OverlayState;
use super::draw;
use super::labs::{self, Lab};
use super::state::Document;
use crate::scene::View;
use glam::Vec2;

pub struct Session {
    pub doc: Document,
    pub settings: PairSettings,
    pub overlays: OverlayState,
    pub camera: Camera,
    pub labs: Vec<Box<dyn Lab>>,
    pub run: Option<Analysis>,
    /// The document revision and settings the analysis was computed for.
    computed: Option<(u64, PairSettings)>,
}

impl Session {
    pub fn new(doc: Document, camera: Camera) -> Session {
        let mut s = Session {
            overlays: OverlayState::new(&labs::DEFAULT_OVERLAYS),
            settings: PairSettings::default(),
            camera,
            labs: labs::registry(),
            run: None,
            computed: None,
            doc: Document::new_empty(),
        };
        s.replace_document(doc);
        s
    }

    /// Shows another document: its overlays, its view (or everything fitted), its sweep.
    pub fn replace_document(&mut self, doc: Document) {
        let on = if doc.meta.overlays.is_empty() {
            labs::DEFAULT_OVERLAYS.to_vec()
        } else {
            doc.meta.overlays.clone()
        };
        self.overlays = OverlayState::new(&on);
        self.settings.sweep_time = doc.meta.sweep_time();
        match doc.meta.view {
            Some(View { center, zoom }) => {
                self.camera.center = center;
                self.camera.zoom = zoom;
                self.doc = doc;
            }
            None => {
                self.doc = doc;
                self.fit_all();
            }
        }
        self.computed = None;
        self.refresh();
    }

    /// Reruns the core when the document or the settings changed since the last run.
    pub fn refresh(&mut self) {
        self.settings.sweep_time = self.doc.meta.sweep_time();
        let key = (self.doc.revision, self.settings);
        if self.computed == Some(key) {
            return;
        }
        self.run = Analysis::run(&self.doc, &self.settings);
        self.computed = Some(key);
        // Keep each selected step inside its (possibly shorter) timeline.
        if let Some(run) = &self.run {
            for lab in &self.labs {
                let i = super::canvas::overlay_index(lab.overlay());
                let n = lab.step_count(run);
                if let Some(k) = self.overlays.steps[i] {
                    self.overlays.steps[i] = (n > 0).then(|| k.min(n - 1));
                }
            }
        }
    }

    /// The world box holding every body.
    pub fn bounds(&self) -> Option<(Vec2, Vec2)> {
        let mut points = self
            .doc
            .bodies
            .iter()
            .flat_map(|b| draw::body_outline(b, 50.0))
            .peekable();
        points.peek()?;
        let (lo, hi) = points.fold(
            (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
            |(lo, hi), p| (lo.min(p), hi.max(p)),
        );
        Some((lo, hi))
    }

    /// Frames every body ("fit all").
    pub fn fit_all(&mut self) {
        match self.bounds() {
            Some((lo, hi)) => self.fit_beside_inset(lo, hi),
            None => {
                self.camera.center = Vec2::ZERO;
                self.camera.zoom = 60.0;
            }
        }
    }

    /// Frames a world box in the part of the canvas left of the column that holds the
    /// legend and the A - B inset, so that neither hides a body.
    fn fit_beside_inset(&mut self, lo: Vec2, hi: Vec2) {
        let (inset_origin, _) = super::canvas::inset_rect(&self.camera, 1.0);
        let free = (inset_origin.x - self.camera.origin.x).max(self.camera.size.x * 0.4);
        let mut left = Camera {
            size: Vec2::new(free, self.camera.size.y),
            ..self.camera
        };
        left.fit(lo, hi, 0.08);
        // The free part's centre sits left of the canvas centre by half the difference.
        let shift = 0.5 * (self.camera.size.x - free) / left.zoom;
        self.camera.zoom = left.zoom;
        self.camera.center = left.center + Vec2::new(shift, 0.0);
    }

    pub fn view(&self) -> View {
        View {
            center: self.camera.center,
            zoom: self.camera.zoom,
        }
    }

    /// The lab the timeline steps through.
    pub fn timeline_lab(&self) -> Option<&dyn Lab> {
        self.labs
            .iter()
            .find(|l| l.overlay() == self.overlays.timeline)
            .map(|b| b.as_ref())
    }

    /// The timeline's length and shown step: the selected one, else the lab's final step.
    pub fn timeline_position(&self) -> Option<(usize, usize)> {
        let lab = self.timeline_lab()?;
        let run = self.run.as_ref()?;
        let n = lab.step_count(run);
        let k = self
            .overlays
            .step(lab.overlay())
            .unwrap_or_else(|| lab.final_step(run));
        (n > 0).then(|| (n, k.min(n - 1)))
    }

    /// The timeline lab's sentence at the step it shows.
    pub fn timeline_sentence(&self) -> Option<String> {
        let lab = self.timeline_lab()?;
        let run = self.run.as_ref()?;
        let (n, k) = self.timeline_position()?;
        Some(format!(
            "{} step {} of {}: {}",
            lab.name(),
            k + 1,
            n,
            lab.explain(run, k)
        ))
    }
}
