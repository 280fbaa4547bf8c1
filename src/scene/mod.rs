//! Scenes: the RON file model, loading with positioned errors, validation into runnable
//! bodies, expectations, and atomic saving. The format is documented in
//! `docs/scene-format.md`.

mod expect;
mod file;
mod model;

pub use expect::{
    check_expectation, check_file, check_scene, format_number, scene_files, settings_for_scene,
    Difference, ExpectationCheck, FileCheck, Got, Quantity,
};
pub use file::{
    load_scene_file, parse_scene, save_scene_atomic, scene_to_string, SceneError, MAX_FILE_BYTES,
};
pub use model::{
    parse_color, BodyDef, Expectation, Scene, SceneBody, View, MAX_BODIES, SCENE_VERSION,
};
