//! The document: the scene being edited, its bodies, the focused pair, the selection, the
//! file it came from and whether it has unsaved changes.

use super::file_state::{unique_name, BodyList, FileState};
use crate::geom::{Pose, Shape, ShapeError, ShapeKind};
use crate::scene::{
    load_scene_file, parse_scene, Expectation, Recorded, Scene, SceneBody, SceneError, View,
};
use glam::Vec2;
use std::path::Path;

#[derive(Clone, Debug)]
pub struct Document {
    /// Title, notes, view, overlays, sweep time and expectations as loaded; its `bodies` and
    /// `focus` are rebuilt from the fields below when saving.
    pub meta: Scene,
    pub bodies: Vec<SceneBody>,
    /// Indices of bodies A and B, the pair the overlays explain.
    pub focus: Option<(usize, usize)>,
    pub selected: Option<usize>,
    /// The file, the unsaved mark and the revision.
    pub file: FileState,
}

/// The part of a document that undo and redo restore.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub bodies: Vec<SceneBody>,
    pub focus: Option<(usize, usize)>,
    pub selected: Option<usize>,
    pub title: Option<String>,
    pub notes: Option<String>,
    pub sweep_time: Option<f32>,
    /// The scene's expectations ("Record current results as expectations" is undoable).
    pub expect: Vec<Expectation>,
}

impl Document {
    pub fn new_empty() -> Document {
        Document::from_parts(Scene::empty(), Vec::new())
    }

    pub fn from_parts(meta: Scene, bodies: Vec<SceneBody>) -> Document {
        let focus = meta.focus_indices();
        Document {
            meta,
            bodies,
            focus,
            selected: None,
            file: FileState::default(),
        }
    }

    /// Reads a 2D scene file (the window reads either kind through
    /// [`super::document::LoadedDocument::load`]).
    pub fn load(path: &Path) -> Result<Document, SceneError> {
        let (scene, bodies) = load_scene_file(path)?;
        let mut doc = Document::from_parts(scene, bodies);
        doc.file.path = Some(path.to_path_buf());
        Ok(doc)
    }

    /// Parses scene text; `name` labels errors.
    pub fn parse(text: &str, name: &str) -> Result<Document, SceneError> {
        let (scene, bodies) = parse_scene(text, name)?;
        Ok(Document::from_parts(scene, bodies))
    }

    /// The scene as it would be saved, with the given view.
    pub fn to_scene(&self, view: Option<View>) -> Scene {
        let mut scene = self.meta.clone();
        scene.bodies = self.bodies.iter().map(SceneBody::to_def).collect();
        scene.focus = self.focus.and_then(|(a, b)| {
            Some((
                self.bodies.get(a)?.name.clone(),
                self.bodies.get(b)?.name.clone(),
            ))
        });
        if view.is_some() {
            scene.view = view;
        }
        scene
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            bodies: self.bodies.clone(),
            focus: self.focus,
            selected: self.selected,
            title: self.meta.title.clone(),
            notes: self.meta.notes.clone(),
            sweep_time: self.meta.sweep_time,
            expect: self.meta.expect.clone(),
        }
    }

    pub fn restore(&mut self, s: Snapshot) {
        self.bodies = s.bodies;
        self.focus = s.focus;
        self.selected = s.selected.filter(|&i| i < self.bodies.len());
        self.meta.title = s.title;
        self.meta.notes = s.notes;
        self.meta.sweep_time = s.sweep_time;
        self.meta.expect = s.expect;
        self.touch();
    }

    /// Marks a change: unsaved, and the analysis must run again.
    pub fn touch(&mut self) {
        self.file.touch();
    }

    pub fn body_mut(&mut self, i: usize) -> Option<&mut SceneBody> {
        self.bodies.get_mut(i)
    }

    pub fn set_pose(&mut self, i: usize, pose: Pose) {
        if let Some(b) = self.bodies.get_mut(i) {
            if b.pose != pose && pose.position.is_finite() && pose.angle.is_finite() {
                b.pose = pose;
                self.touch();
            }
        }
    }

    /// Replaces a body's shape when the core accepts it; otherwise returns why not.
    pub fn set_shape(&mut self, i: usize, kind: ShapeKind) -> Result<(), ShapeError> {
        let shape = Shape::new(kind)?;
        if let Some(b) = self.bodies.get_mut(i) {
            if b.shape != shape {
                b.shape = shape;
                self.touch();
            }
        }
        Ok(())
    }

    /// A name not used by any body: `base`, else `base2`, `base3`...
    pub fn unique_name(&self, base: &str) -> String {
        unique_name(self.bodies.iter().map(|b| b.name.as_str()), base)
    }

    /// The bodies with what refers to them, for the rules both documents share.
    fn list(&mut self) -> BodyList<'_, SceneBody, Expectation> {
        BodyList {
            bodies: &mut self.bodies,
            expect: &mut self.meta.expect,
            focus: &mut self.focus,
            selected: &mut self.selected,
        }
    }

    /// Adds a body and selects it; the first two bodies become the focused pair.
    pub fn add_body(&mut self, body: SceneBody) -> usize {
        let i = self.list().add(body);
        self.touch();
        i
    }

    /// Removes a body and its expectations, fixing the focus and selection indices.
    pub fn remove_body(&mut self, i: usize) {
        if self.list().remove(i) {
            self.touch();
        }
    }

    /// A copy of body `i`, offset so it is visible, with a fresh name.
    pub fn duplicate_body(&mut self, i: usize) -> Option<usize> {
        let mut copy = self.bodies.get(i)?.clone();
        copy.name = self.unique_name(&format!("{}_copy", copy.name));
        copy.pose.position += Vec2::new(0.5, -0.5);
        Some(self.add_body(copy))
    }

    /// Renames body `i` (and its expectations); refuses empty or duplicate names.
    pub fn rename(&mut self, i: usize, name: &str) -> Result<(), String> {
        if self.list().rename(i, name)? {
            self.touch();
        }
        Ok(())
    }

    /// Records what the algorithms find now as the `expect` entries of the focused pair, or
    /// of every pair (see [`crate::scene::record_expectations`]); call
    /// `Editor::checkpoint` first so that it undoes.
    pub fn record_expectations(&mut self, every_pair: bool) -> Result<Vec<Recorded>, String> {
        let pairs = if every_pair {
            crate::scene::every_pair(self.bodies.len())
        } else {
            vec![self.focus.ok_or("there is no focused pair")?]
        };
        if pairs.is_empty() {
            return Err("a scene needs two bodies to have a pair".into());
        }
        let before = self.meta.expect.clone();
        let recorded = crate::scene::record_expectations(&mut self.meta, &self.bodies, &pairs)?;
        if self.meta.expect != before {
            self.touch();
        }
        Ok(recorded)
    }

    /// Makes `a` and `b` the focused pair (A and B).
    pub fn set_focus(&mut self, a: usize, b: usize) {
        if self.list().set_focus(a, b) {
            self.touch();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(name: &str) -> SceneBody {
        SceneBody {
            name: name.into(),
            shape: Shape::circle(1.0).unwrap(),
            pose: Pose::default(),
            velocity: None,
            color: None,
        }
    }

    #[test]
    fn removing_a_focused_body_refocuses() {
        let mut d = Document::new_empty();
        for n in ["a", "b", "c"] {
            d.add_body(body(n));
        }
        d.set_focus(1, 2);
        d.remove_body(0);
        assert_eq!(d.focus, Some((0, 1)));
        d.remove_body(1);
        assert_eq!(d.focus, None);
    }

    #[test]
    fn unique_names_and_renames() {
        let mut d = Document::new_empty();
        d.add_body(body("box"));
        assert_eq!(d.unique_name("box"), "box2");
        d.add_body(body("other"));
        assert!(d.rename(1, "box").is_err());
        assert!(d.rename(1, " ").is_err());
        assert!(d.rename(1, "lid").is_ok());
        assert_eq!(d.to_scene(None).bodies[1].name, "lid");
    }

    /// A scene with three bodies and an expectation on each of two pairs, as text.
    fn scene_with_expectations() -> Document {
        let text = r#"(
            version: 1,
            title: "Expectations follow their bodies",
            bodies: [
                (name: "floor", shape: Box(half_extents: (2.0, 0.5))),
                (name: "crate", shape: Circle(radius: 0.5), position: (0.0, 0.9)),
                (name: "ball", shape: Circle(radius: 0.5), position: (3.0, 0.9)),
            ],
            expect: [
                (a: "floor", b: "crate", intersecting: true),
                (a: "crate", b: "ball", intersecting: false),
            ],
        )"#;
        Document::parse(text, "expectations.ron").unwrap()
    }

    #[test]
    fn renaming_a_body_renames_it_in_the_expectations_and_the_file_loads_again() {
        let mut d = scene_with_expectations();
        d.rename(1, "box").unwrap();
        let names: Vec<(&str, &str)> = d
            .meta
            .expect
            .iter()
            .map(|e| (e.a.as_str(), e.b.as_str()))
            .collect();
        assert_eq!(names, [("floor", "box"), ("box", "ball")]);
        let text = crate::scene::scene_to_string(&d.to_scene(None));
        let again = Document::parse(&text, "saved.ron").expect("the saved scene loads");
        assert_eq!(again.meta.expect, d.meta.expect);
    }

    #[test]
    fn removing_a_body_drops_its_expectations_and_undo_brings_them_back() {
        let mut d = scene_with_expectations();
        let before = d.snapshot();
        d.remove_body(2);
        assert_eq!(d.meta.expect.len(), 1);
        assert_eq!(d.meta.expect[0].b, "crate");
        let text = crate::scene::scene_to_string(&d.to_scene(None));
        assert!(Document::parse(&text, "saved.ron").is_ok());
        d.restore(before);
        assert_eq!(d.meta.expect.len(), 2);
    }
}
