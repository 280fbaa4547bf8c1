//! Scenes: the RON file model, loading with positioned errors, validation into runnable
//! bodies, expectations, and atomic saving. The format is documented in
//! `docs/scene-format.md`.

use std::path::Path;

mod checks;
mod expect;
mod expect3;
mod file;
mod file3;
mod focus;
mod lesson;
pub mod link;
mod model;
mod model3;
mod record;
mod record3;
mod report;
mod source;

pub use expect::{check_expectation, check_scene, scene_files, settings_for_scene};
pub use expect3::{check_expectation3, check_scene3, settings_for_scene3};
pub use file::{load_scene_file, parse_scene, save_scene_atomic, scene_to_string, write_atomic};
pub use file3::{
    load_any_scene_file, load_scene3_file, parse_any_scene, parse_scene3, save_scene3_atomic,
    scene3_to_string, LoadedScene,
};
pub use lesson::{Answers, Exercise, Goal, Lesson, SweepAnswer, MAX_LESSON};
pub use link::{
    check_shareable, decode_link, encode_fragment, link_for, scene_from_link, LinkError,
    OpenLinkError,
};
pub use model::{
    parse_color, BodyDef, Expectation, Scene, SceneBody, View, MAX_BODIES, SCENE_VERSION,
};
pub use model3::{
    Body3Def, Expectation3, Scene3, SceneBody3, View3, DIMENSIONS_3D, FEATURE_NAMES, OVERLAYS_3D,
};
pub use record::{
    every_pair, expectation_from_query, put_expectation, record_expectations, Recorded,
    MAX_RECORDED_PAIRS,
};
pub use record3::{expectation3_from_query, put_expectation3, record_expectations3, Recorded3};
pub use report::{format_number, Difference, ExpectationCheck, FileCheck, Got, Quantity};
pub use source::{
    read_scene_text, scene_dimensions, SceneError, MAX_FILE_BYTES, MAX_MAGNITUDE, TWO_D_ONLY,
};

/// Loads and checks one scene file, 2D or 3D.
pub fn check_file(path: &Path) -> FileCheck {
    if let Some(check) = expect3::check_file_if_3d(path) {
        return check;
    }
    let outcome = load_scene_file(path).map(|(scene, bodies)| check_scene(&scene, &bodies));
    FileCheck {
        path: path.to_path_buf(),
        outcome,
    }
}
