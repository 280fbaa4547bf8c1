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
