//! Scenes: the RON file model, loading with positioned errors, validation into runnable
//! bodies, expectations, and atomic saving. The format is documented in
//! `docs/scene-format.md`.

mod expect;
mod expect3;
mod file;
mod file3;
mod model;
mod model3;

pub use expect::{
    check_expectation, check_file, check_scene, format_number, scene_files, settings_for_scene,
    Difference, ExpectationCheck, FileCheck, Got, Quantity,
};
pub use expect3::{check_expectation3, check_scene3, settings_for_scene3};
pub use file::{
    load_scene_file, parse_scene, save_scene_atomic, scene_to_string, SceneError, MAX_FILE_BYTES,
};
pub use file3::{
    load_any_scene_file, load_scene3_file, parse_any_scene, parse_scene3, scene_dimensions,
    LoadedScene, NO_3D_WINDOW,
};
pub use model::{
    parse_color, BodyDef, Expectation, Scene, SceneBody, View, MAX_BODIES, SCENE_VERSION,
};
pub use model3::{
    shape3_kind_name, Body3Def, Expectation3, Scene3, SceneBody3, View3, DIMENSIONS_3D,
    FEATURE_NAMES, OVERLAYS_3D,
};
