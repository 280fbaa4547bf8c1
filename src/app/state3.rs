//! The 3D document: the scene being edited, its bodies, the focused pair, the selection and
//! the file, as `state.rs` is for the plane. Conventions are the scene file's
//! (`scene/model3.rs`): y up, rotations in degrees about the world axes, x then y then z.

use super::file_state::{unique_name, BodyList, FileState, RecordedPair};
use crate::geom3::{Pose3, Shape3, Shape3Error, Shape3Kind};
use crate::scene::{Expectation3, Scene3, SceneBody3, View3};
use glam::Vec3;

#[derive(Clone, Debug)]
pub struct Document3 {
    /// Title, notes, view, overlays, sweep time and expectations as loaded; its `bodies` and
    /// `focus` are rebuilt from the fields below when saving.
    pub meta: Scene3,
    pub bodies: Vec<SceneBody3>,
    /// Indices of bodies A and B, the pair the overlays explain.
    pub focus: Option<(usize, usize)>,
    pub selected: Option<usize>,
    pub file: FileState,
}

/// The part of a 3D document that undo and redo restore.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot3 {
    pub bodies: Vec<BodyState3>,
    pub focus: Option<(usize, usize)>,
    pub selected: Option<usize>,
    pub title: Option<String>,
    pub notes: Option<String>,
    pub sweep_time: Option<f32>,
    pub expect: Vec<Expectation3>,
}

/// One body as undo keeps it (the shape by its kind: `Shape3` holds caches and is rebuilt).
#[derive(Clone, Debug, PartialEq)]
pub struct BodyState3 {
    pub name: String,
    pub kind: Shape3Kind,
    pub pose: Pose3,
    pub velocity: Option<Vec3>,
    pub color: Option<[u8; 3]>,
}

impl Document3 {
    pub fn new_empty() -> Document3 {
        Document3::from_parts(Scene3::empty(), Vec::new())
    }

    pub fn from_parts(meta: Scene3, bodies: Vec<SceneBody3>) -> Document3 {
        let focus = meta.focus_indices();
        Document3 {
            meta,
            bodies,
            focus,
            selected: None,
            file: FileState::default(),
        }
    }

    /// The scene as it would be saved, with the given view.
    pub fn to_scene(&self, view: Option<View3>) -> Scene3 {
        let mut scene = self.meta.clone();
        scene.bodies = self.bodies.iter().map(SceneBody3::to_def).collect();
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

    pub fn snapshot(&self) -> Snapshot3 {
        Snapshot3 {
            bodies: self
                .bodies
                .iter()
                .map(|b| BodyState3 {
                    name: b.name.clone(),
                    kind: b.shape.kind().clone(),
                    pose: b.pose,
                    velocity: b.velocity,
                    color: b.color,
                })
                .collect(),
            focus: self.focus,
            selected: self.selected,
            title: self.meta.title.clone(),
            notes: self.meta.notes.clone(),
            sweep_time: self.meta.sweep_time,
            expect: self.meta.expect.clone(),
        }
    }

    pub fn restore(&mut self, s: Snapshot3) {
        // A shape rebuilt from the kind it was built from before cannot fail; a body whose
        // shape did not change keeps its built shape.
        let old = std::mem::take(&mut self.bodies);
        self.bodies = s
            .bodies
            .into_iter()
            .filter_map(|b| {
                let shape = match old.iter().find(|o| *o.shape.kind() == b.kind) {
                    Some(o) => o.shape.clone(),
                    None => Shape3::new(&b.kind).ok()?,
                };
                Some(SceneBody3 {
                    name: b.name,
                    shape,
                    pose: b.pose,
                    velocity: b.velocity,
                    color: b.color,
                })
            })
            .collect();
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

    /// Moves or turns body `i`; refuses a pose that is not finite.
    pub fn set_pose(&mut self, i: usize, pose: Pose3) {
        let finite = pose.position.is_finite() && pose.rotation.is_finite();
        if let Some(b) = self.bodies.get_mut(i) {
            if b.pose != pose && finite {
                b.pose = Pose3::new(pose.position, pose.rotation.normalize());
                self.touch();
            }
        }
    }

    /// Sets body `i`'s velocity (`None`: it takes no part in sweeps).
    pub fn set_velocity(&mut self, i: usize, velocity: Option<Vec3>) {
        if velocity.is_some_and(|v| !v.is_finite()) {
            return;
        }
        if let Some(b) = self.bodies.get_mut(i) {
            if b.velocity != velocity {
                b.velocity = velocity;
                self.touch();
            }
        }
    }

    /// Replaces a body's shape when the core accepts it; otherwise returns why not.
    pub fn set_shape(&mut self, i: usize, kind: Shape3Kind) -> Result<(), Shape3Error> {
        let shape = Shape3::new(&kind)?;
        if let Some(b) = self.bodies.get_mut(i) {
            if *b.shape.kind() != kind {
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
    fn list(&mut self) -> BodyList<'_, SceneBody3, Expectation3> {
        BodyList {
            bodies: &mut self.bodies,
            expect: &mut self.meta.expect,
            focus: &mut self.focus,
            selected: &mut self.selected,
        }
    }

    /// Adds a body and selects it; the first two bodies become the focused pair.
    pub fn add_body(&mut self, body: SceneBody3) -> usize {
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
        copy.pose.position += Vec3::new(0.5, 0.5, 0.0);
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
    /// of every pair (see [`crate::scene::record_expectations3`]); checkpoint first so that
    /// it undoes.
    pub fn record_expectations(&mut self, every_pair: bool) -> Result<Vec<RecordedPair>, String> {
        let pairs = if every_pair {
            crate::scene::every_pair(self.bodies.len())
        } else {
            vec![self.focus.ok_or("there is no focused pair")?]
        };
        if pairs.is_empty() {
            return Err("a scene needs two bodies to have a pair".into());
        }
        let before = self.meta.expect.clone();
        let recorded = crate::scene::record_expectations3(&mut self.meta, &self.bodies, &pairs)?;
        if self.meta.expect != before {
            self.touch();
        }
        Ok(recorded
            .into_iter()
            .map(|r| RecordedPair {
                a: r.expectation.a,
                b: r.expectation.b,
                left_out: r.left_out,
            })
            .collect())
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
    use crate::scene::parse_scene3;

    fn welcome() -> Document3 {
        let text = include_str!("../../scenes/3d/welcome.ron");
        let (scene, bodies) = parse_scene3(text, "welcome.ron").unwrap();
        Document3::from_parts(scene, bodies)
    }

    #[test]
    fn a_moved_body_is_restored_by_its_snapshot_and_saves_what_it_shows() {
        let mut d = welcome();
        assert_eq!(d.focus, Some((0, 1)));
        let before = d.snapshot();
        let moved = Pose3::from_degrees(Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.0, 30.0, 0.0));
        d.set_pose(1, moved);
        assert!(d.file.dirty);
        assert_ne!(d.snapshot(), before);
        let text = crate::scene::scene3_to_string(&d.to_scene(None));
        let (again, bodies) = parse_scene3(&text, "saved.ron").expect("the saved scene loads");
        assert!((bodies[1].pose.position - moved.position).length() < 1e-6);
        assert!(bodies[1].pose.rotation.angle_between(moved.rotation) < 1e-4);
        assert_eq!(again.focus, Some(("ground".into(), "crate".into())));
        d.restore(before.clone());
        assert_eq!(d.snapshot(), before);
        // Not-finite poses are refused.
        d.set_pose(1, Pose3::new(Vec3::NAN, glam::Quat::IDENTITY));
        assert_eq!(d.snapshot(), before);
    }

    #[test]
    fn removing_renaming_and_duplicating_keep_the_expectations_loadable() {
        let mut d = welcome();
        d.rename(1, "box").unwrap();
        assert!(d.rename(2, "box").is_err());
        assert_eq!(d.meta.expect[0].b, "box");
        let copy = d.duplicate_body(1).unwrap();
        assert_eq!(d.bodies[copy].name, "box_copy");
        d.remove_body(0);
        assert!(d.meta.expect.iter().all(|e| e.a != "ground"));
        assert_eq!(d.focus, Some((0, 1)));
        let text = crate::scene::scene3_to_string(&d.to_scene(None));
        assert!(parse_scene3(&text, "saved.ron").is_ok(), "{text}");
    }
}
