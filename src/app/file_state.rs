//! What both documents (2D `state.rs`, 3D `state3.rs`) have and share: the file a document
//! came from with its unsaved mark and revision ([`FileState`]), what recording
//! expectations reports ([`RecordedPair`]), and the naming and removal rules of bodies.

use std::path::PathBuf;

/// Where a document came from and whether it changed since.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileState {
    pub path: Option<PathBuf>,
    /// The built-in example this document was opened from, if any.
    pub example: Option<String>,
    pub dirty: bool,
    /// Bumped by every change, so that the analysis knows when to run again.
    pub revision: u64,
}

impl FileState {
    /// The name shown in the title: the file name, the example name, or "untitled".
    pub fn display_name(&self) -> String {
        if let Some(p) = &self.path {
            return p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| p.display().to_string());
        }
        match &self.example {
            Some(e) => format!("{e}.ron (example)"),
            None => "untitled".into(),
        }
    }

    /// Marks a change: unsaved, and the analysis must run again.
    pub fn touch(&mut self) {
        self.dirty = true;
        self.revision += 1;
    }
}

/// One pair's expectations as File > Record current results wrote them, for the status
/// bar: the pair's names and what was left out, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedPair {
    pub a: String,
    pub b: String,
    pub left_out: Vec<String>,
}

/// A name not among `taken`: `base`, else `base2`, `base3`...
pub fn unique_name<'a>(taken: impl Iterator<Item = &'a str> + Clone, base: &str) -> String {
    let used = |n: &str| taken.clone().any(|t| t == n);
    if !used(base) {
        return base.to_string();
    }
    (2..)
        .map(|k| format!("{base}{k}"))
        .find(|n| !used(n))
        .expect("some suffix is free")
}

/// Where index `j` goes when the body at `removed` is taken out (`None`: it was that body).
pub fn index_after_removal(j: usize, removed: usize) -> Option<usize> {
    match j.cmp(&removed) {
        std::cmp::Ordering::Greater => Some(j - 1),
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Less => Some(j),
    }
}

/// A body that has a name (2D `SceneBody`, 3D `SceneBody3`).
pub trait Named {
    fn name_mut(&mut self) -> &mut String;
}

/// An expectation that names its pair of bodies (2D `Expectation`, 3D `Expectation3`).
pub trait NamesPair {
    fn names_mut(&mut self) -> [&mut String; 2];
}

impl Named for crate::scene::SceneBody {
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
}

impl Named for crate::scene::SceneBody3 {
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
}

impl NamesPair for crate::scene::Expectation {
    fn names_mut(&mut self) -> [&mut String; 2] {
        [&mut self.a, &mut self.b]
    }
}

impl NamesPair for crate::scene::Expectation3 {
    fn names_mut(&mut self) -> [&mut String; 2] {
        [&mut self.a, &mut self.b]
    }
}

/// A document's bodies with what refers to them by index or name (the focused pair, the
/// selection, the expectations): the rules of adding, removing and renaming a body, the
/// same in 2D and 3D. Each method says whether it changed anything; the document marks the
/// change.
pub struct BodyList<'a, B, E> {
    pub bodies: &'a mut Vec<B>,
    pub expect: &'a mut Vec<E>,
    pub focus: &'a mut Option<(usize, usize)>,
    pub selected: &'a mut Option<usize>,
}

impl<B: Named, E: NamesPair> BodyList<'_, B, E> {
    /// Adds a body and selects it; the first two bodies become the focused pair.
    pub fn add(&mut self, body: B) -> usize {
        self.bodies.push(body);
        let i = self.bodies.len() - 1;
        *self.selected = Some(i);
        if self.focus.is_none() && self.bodies.len() >= 2 {
            *self.focus = Some((0, 1));
        }
        i
    }

    /// Removes body `i` and the expectations that name it (a file naming a body that is gone
    /// would not load again; undo brings both back), fixing the focus and the selection.
    pub fn remove(&mut self, i: usize) -> bool {
        if i >= self.bodies.len() {
            return false;
        }
        let mut removed = self.bodies.remove(i);
        let name = removed.name_mut().clone();
        self.expect
            .retain_mut(|e| e.names_mut().iter().all(|n| **n != name));
        *self.selected = None;
        *self.focus = self
            .focus
            .and_then(|(a, b)| Some((index_after_removal(a, i)?, index_after_removal(b, i)?)));
        if self.focus.is_none() && self.bodies.len() >= 2 {
            *self.focus = Some((0, 1));
        }
        true
    }

    /// Renames body `i`, and the expectations that name it (or the saved file would name a
    /// body that no longer exists); refuses empty or duplicate names.
    pub fn rename(&mut self, i: usize, name: &str) -> Result<bool, String> {
        let name = name.trim();
        if name.is_empty() {
            return Err("a name cannot be empty".into());
        }
        let taken =
            (self.bodies.iter_mut().enumerate()).any(|(j, b)| j != i && b.name_mut() == name);
        if taken {
            return Err(format!("another body is already named \"{name}\""));
        }
        let Some(body) = self.bodies.get_mut(i) else {
            return Ok(false);
        };
        if body.name_mut() == name {
            return Ok(false);
        }
        let old = std::mem::replace(body.name_mut(), name.to_string());
        for e in self.expect.iter_mut() {
            for side in e.names_mut() {
                if *side == old {
                    *side = name.to_string();
                }
            }
        }
        Ok(true)
    }

    /// Makes `a` and `b` the focused pair (A and B).
    pub fn set_focus(&mut self, a: usize, b: usize) -> bool {
        let n = self.bodies.len();
        let new = a != b && a < n && b < n && *self.focus != Some((a, b));
        if new {
            *self.focus = Some((a, b));
        }
        new
    }
}
