//! The one place where a kind of workspace is chosen for a scene (by its `dimensions`):
//! the window holds whichever this returns as a `Box<dyn Workspace>`.

use super::camera::Camera;
use super::document::LoadedDocument;
use super::workspace::{Workspace, Workspace2d};
use super::workspace3::Workspace3d;

/// The workspace that shows `doc`.
pub fn for_document(doc: LoadedDocument) -> Box<dyn Workspace> {
    match doc {
        LoadedDocument::Plane(doc) => Box::new(Workspace2d::new(doc, Camera::default())),
        LoadedDocument::Space(doc) => Box::new(Workspace3d::new(doc)),
    }
}
