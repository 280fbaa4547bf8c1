//! What the window's files, undo and title need of a document, whatever its dimension: a
//! loaded scene of either kind ([`LoadedDocument`]), an undo state of either kind
//! ([`Snapshot`]) and what the menu shows of it ([`DocOutline`]); the file it came from, the
//! unsaved mark and the revision are each document's [`FileState`]. The 2D document is [`Document`] (`state.rs`), the
//! 3D one [`Document3`] (`state3.rs`); each workspace owns one of them.

pub use super::file_state::FileState;
use super::state::{self, Document};
use super::state3::{self, Document3};
use crate::scene::{load_any_scene_file, parse_any_scene, Lesson, LoadedScene, SceneError};
use std::path::Path;

/// A scene of either dimension, ready for a workspace.
#[derive(Clone, Debug)]
pub enum LoadedDocument {
    Plane(Document),
    Space(Document3),
}

impl LoadedDocument {
    /// Reads a scene file of either dimension: the one loading path of open, reload, drop,
    /// the command line's file and `render`.
    pub fn load(path: &Path) -> Result<LoadedDocument, SceneError> {
        let mut doc = LoadedDocument::from_scene(load_any_scene_file(path)?);
        doc.file_mut().path = Some(path.to_path_buf());
        Ok(doc)
    }

    /// Parses scene text of either dimension; `name` labels errors.
    pub fn parse(text: &str, name: &str) -> Result<LoadedDocument, SceneError> {
        Ok(LoadedDocument::from_scene(parse_any_scene(text, name)?))
    }

    fn from_scene(scene: LoadedScene) -> LoadedDocument {
        match scene {
            LoadedScene::Two(scene, bodies) => {
                LoadedDocument::Plane(Document::from_parts(scene, bodies))
            }
            LoadedScene::Three(scene, bodies) => {
                LoadedDocument::Space(Document3::from_parts(scene, bodies))
            }
        }
    }

    pub fn file(&self) -> &FileState {
        match self {
            LoadedDocument::Plane(d) => &d.file,
            LoadedDocument::Space(d) => &d.file,
        }
    }

    pub fn file_mut(&mut self) -> &mut FileState {
        match self {
            LoadedDocument::Plane(d) => &mut d.file,
            LoadedDocument::Space(d) => &mut d.file,
        }
    }

    /// The undo state it starts in.
    pub fn snapshot(&self) -> Snapshot {
        match self {
            LoadedDocument::Plane(d) => Snapshot::Plane(d.snapshot()),
            LoadedDocument::Space(d) => Snapshot::Space(d.snapshot()),
        }
    }

    /// Whether the scene says where to look (else the window fits everything).
    pub fn has_view(&self) -> bool {
        match self {
            LoadedDocument::Plane(d) => d.meta.view.is_some(),
            LoadedDocument::Space(d) => d.meta.view.is_some(),
        }
    }
}

/// The part of a document that undo and redo restore, of either dimension.
#[derive(Clone, Debug, PartialEq)]
pub enum Snapshot {
    Plane(state::Snapshot),
    Space(state3::Snapshot3),
}

impl Snapshot {
    /// The same state without the selection, which is not saved and not part of "unsaved".
    pub fn without_selection(self) -> Snapshot {
        match self {
            Snapshot::Plane(s) => Snapshot::Plane(state::Snapshot {
                selected: None,
                ..s
            }),
            Snapshot::Space(s) => Snapshot::Space(state3::Snapshot3 {
                selected: None,
                ..s
            }),
        }
    }
}

/// What the menu and the dialogs show of the document.
#[derive(Clone, Debug, PartialEq)]
pub struct DocOutline<'a> {
    pub file: &'a FileState,
    pub names: Vec<&'a str>,
    pub focus: Option<(usize, usize)>,
    pub selected: Option<usize>,
    /// 2 or 3.
    pub dimensions: u32,
    /// Present when the document is a lesson of Help > Lessons.
    pub lesson: Option<&'a Lesson>,
    pub title: Option<&'a str>,
    pub notes: Option<&'a str>,
}

impl DocOutline<'_> {
    /// The focused pair's names.
    pub fn focus_names(&self) -> Option<(&str, &str)> {
        let (a, b) = self.focus?;
        Some((*self.names.get(a)?, *self.names.get(b)?))
    }
}
