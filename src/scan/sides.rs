//! The scene at a parameter value: the moving body's pose (for the window to show it there)
//! and the whole scene with the body moved and the pair's expectations recorded (the two
//! sides of an event, written as regression scenes).

use super::mover::{MovedDef, MovedPose, Mover};
use super::param::{ScanError, ScanSpec};
use crate::scene::{record_expectations, record_expectations3, LoadedScene};

/// The moving body's pose at `t`: exactly the pose the scan's sample at `t` used.
pub fn pose_at(scene: &LoadedScene, spec: &ScanSpec, t: f32) -> Result<MovedPose, ScanError> {
    Ok(Mover::new(scene, spec)?.pose_at(t))
}

/// The scene with the moving body at `t`: its file entry and its validated body both, so
/// that the scene written to a file loads back to the pose the sample used.
pub fn scene_at(scene: &LoadedScene, spec: &ScanSpec, t: f32) -> Result<LoadedScene, ScanError> {
    let mover = Mover::new(scene, spec)?;
    let k = mover.moving_index();
    let mut moved = scene.clone();
    match (&mut moved, mover.def_at(t)) {
        (LoadedScene::Two(file, bodies), MovedDef::Two(def)) => {
            bodies[k].pose = def.pose();
            file.bodies[k] = def;
        }
        (LoadedScene::Three(file, bodies), MovedDef::Three(def)) => {
            bodies[k].pose = def.pose();
            file.bodies[k] = def;
        }
        _ => unreachable!("the moved entry has the scene's dimension"),
    }
    Ok(moved)
}

/// The scene at `t` as a regression test of the pair: focused on the pair, its expectation
/// recorded from the results there (as "Record current results as expectations" records
/// it), and the expectations of the moving body's other pairs dropped (they describe the
/// body where it was).
pub fn regression_scene(
    scene: &LoadedScene,
    spec: &ScanSpec,
    t: f32,
) -> Result<LoadedScene, ScanError> {
    let (i, j) = Mover::new(scene, spec)?.indices;
    let mut moved = scene_at(scene, spec, t)?;
    let (a, b, m) = (&spec.a, &spec.b, &spec.moving);
    let keep = |x: &String, y: &String| (x == a && y == b) || (x != m && y != m);
    let recorded = match &mut moved {
        LoadedScene::Two(file, bodies) => {
            file.focus = Some((a.clone(), b.clone()));
            file.expect.retain(|e| keep(&e.a, &e.b));
            record_expectations(file, bodies, &[(i, j)]).map(drop)
        }
        LoadedScene::Three(file, bodies) => {
            file.focus = Some((a.clone(), b.clone()));
            file.expect.retain(|e| keep(&e.a, &e.b));
            record_expectations3(file, bodies, &[(i, j)]).map(drop)
        }
    };
    recorded.expect("one pair of the scene's bodies is always recorded");
    Ok(moved)
}
