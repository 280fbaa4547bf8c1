//! The scanned pair and its moving body at a parameter value: the one place that turns a
//! parameter into a pose, so the samples, `pose_at` and the scenes written at the events
//! all place the body identically.
//!
//! The pose at t is made as a scene file makes it: the moving body's file entry (position
//! and angle, or rotation, in degrees) is set for t, and the loader's own conversion
//! ([`BodyDef::pose`], [`Body3Def::pose`]) turns it into the pose. A scene written with that
//! entry therefore loads to exactly the pose the sample used, bit for bit, which is what
//! lets the two sides of a flip narrowed to neighbouring `f32` values stay on their sides.

use super::param::{Param, ScanError, ScanSpec};
use super::sample::Sample;
use crate::geom::Pose;
use crate::geom3::Pose3;
use crate::query::pair::{query_pair, PairSettings};
use crate::query::Body;
use crate::query3::pair::{query_pair3, PairSettings3};
use crate::scene::{
    settings_for_scene, settings_for_scene3, Body3Def, BodyDef, LoadedScene, SceneBody, SceneBody3,
};
use glam::{DQuat, DVec3, Quat, Vec3};

/// The moving body's pose at a parameter value, in the scene's dimension.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MovedPose {
    Two(Pose),
    Three(Pose3),
}

/// The moving body's entry as a scene file writes it, at a parameter value.
#[derive(Clone, Debug, PartialEq)]
pub enum MovedDef {
    Two(BodyDef),
    Three(Body3Def),
}

/// The pair, its settings, and the moving body's entry before the scan moves it.
#[derive(Clone, Debug)]
enum Pair {
    Two {
        a: Box<SceneBody>,
        b: Box<SceneBody>,
        settings: PairSettings,
        base: BodyDef,
    },
    Three {
        a: Box<SceneBody3>,
        b: Box<SceneBody3>,
        settings: PairSettings3,
        base: Body3Def,
    },
}

/// The pair of a scan and how its moving body moves.
#[derive(Clone, Debug)]
pub(super) struct Mover {
    pair: Pair,
    /// Which of the pair moves.
    moving: Body,
    param: Param,
    /// The pair's indices in the scene's bodies.
    pub(super) indices: (usize, usize),
}

/// Index of the body named `name`.
fn find(names: &[&str], name: &str) -> Result<usize, ScanError> {
    names
        .iter()
        .position(|n| *n == name)
        .ok_or_else(|| ScanError::NoBody(name.to_string()))
}

/// The pair's indices and which of them moves; every check that needs the scene's names.
fn check_names(
    names: &[&str],
    spec: &ScanSpec,
    three_d: bool,
) -> Result<((usize, usize), Body), ScanError> {
    let (i, j) = (find(names, &spec.a)?, find(names, &spec.b)?);
    if i == j {
        return Err(ScanError::SameBody(spec.a.clone()));
    }
    let moving = if spec.moving == spec.a {
        Body::A
    } else if spec.moving == spec.b {
        Body::B
    } else {
        find(names, &spec.moving)?;
        return Err(ScanError::MovingNotInPair {
            moving: spec.moving.clone(),
            a: spec.a.clone(),
            b: spec.b.clone(),
        });
    };
    if !spec.param.fits(three_d) {
        return Err(ScanError::WrongDimension {
            param: spec.param,
            three_d,
        });
    }
    spec.check_numbers()?;
    Ok(((i, j), moving))
}

impl Mover {
    /// The pair `spec` names in `scene`, or why the spec does not fit the scene.
    pub(super) fn new(scene: &LoadedScene, spec: &ScanSpec) -> Result<Mover, ScanError> {
        let (pair, indices, moving) = match scene {
            LoadedScene::Two(file, bodies) => {
                let names: Vec<&str> = bodies.iter().map(|b| b.name.as_str()).collect();
                let ((i, j), moving) = check_names(&names, spec, false)?;
                let k = if moving == Body::A { i } else { j };
                // The file's entry, unless the body has moved since (the window's bodies
                // are the truth then).
                let base = match file.bodies.get(k) {
                    Some(def) if def.pose() == bodies[k].pose => def.clone(),
                    _ => bodies[k].to_def(),
                };
                let pair = Pair::Two {
                    a: Box::new(bodies[i].clone()),
                    b: Box::new(bodies[j].clone()),
                    settings: settings_for_scene(file),
                    base,
                };
                (pair, (i, j), moving)
            }
            LoadedScene::Three(file, bodies) => {
                let names: Vec<&str> = bodies.iter().map(|b| b.name.as_str()).collect();
                let ((i, j), moving) = check_names(&names, spec, true)?;
                let k = if moving == Body::A { i } else { j };
                let base = match file.bodies.get(k) {
                    Some(def) if def.pose() == bodies[k].pose => def.clone(),
                    _ => bodies[k].to_def(),
                };
                let pair = Pair::Three {
                    a: Box::new(bodies[i].clone()),
                    b: Box::new(bodies[j].clone()),
                    settings: settings_for_scene3(file),
                    base,
                };
                (pair, (i, j), moving)
            }
        };
        Ok(Mover {
            pair,
            moving,
            param: spec.param,
            indices,
        })
    }

    /// The index in the scene's bodies of the body that moves.
    pub(super) fn moving_index(&self) -> usize {
        match self.moving {
            Body::A => self.indices.0,
            Body::B => self.indices.1,
        }
    }

    /// The moving body's file entry at `t`.
    pub(super) fn def_at(&self, t: f32) -> MovedDef {
        match &self.pair {
            Pair::Two { base, .. } => {
                let mut def = base.clone();
                match self.param {
                    Param::X => def.position.x = t,
                    Param::Y => def.position.y = t,
                    // Refused for 2D scenes by `check_names`.
                    _ => def.angle = t,
                }
                MovedDef::Two(def)
            }
            Pair::Three { base, .. } => {
                let mut def = base.clone();
                match self.param {
                    Param::X => def.position.x = t,
                    Param::Y => def.position.y = t,
                    Param::Z => def.position.z = t,
                    turn => {
                        let axis = match turn {
                            Param::Rx => Vec3::X,
                            Param::Ry => Vec3::Y,
                            _ => Vec3::Z,
                        };
                        let start = base.pose().rotation;
                        let turned = Quat::from_axis_angle(axis, t.to_radians()) * start;
                        def.rotation = world_xyz_degrees(turned);
                    }
                }
                MovedDef::Three(def)
            }
        }
    }

    /// The moving body's pose at `t`: its entry at `t` as the loader turns it into a pose.
    pub(super) fn pose_at(&self, t: f32) -> MovedPose {
        match self.def_at(t) {
            MovedDef::Two(def) => MovedPose::Two(def.pose()),
            MovedDef::Three(def) => MovedPose::Three(def.pose()),
        }
    }

    /// Runs the pair query with the moving body at `t`.
    pub(super) fn sample(&self, t: f32) -> Sample {
        let pose = self.pose_at(t);
        match (&self.pair, pose) {
            (Pair::Two { a, b, settings, .. }, MovedPose::Two(pose)) => {
                let (mut ra, mut rb) = (a.body_ref(), b.body_ref());
                match self.moving {
                    Body::A => ra.pose = pose,
                    Body::B => rb.pose = pose,
                }
                Sample::from_query(t, &query_pair(&ra, &rb, settings))
            }
            (Pair::Three { a, b, settings, .. }, MovedPose::Three(pose)) => {
                let (mut ra, mut rb) = (a.body_ref(), b.body_ref());
                match self.moving {
                    Body::A => ra.pose = pose,
                    Body::B => rb.pose = pose,
                }
                Sample::from_query3(t, &query_pair3(&ra, &rb, settings))
            }
            _ => unreachable!("a pair's poses have its dimension"),
        }
    }
}

/// Below this cosine of the middle (y) angle the x and z turns are not separable (gimbal
/// lock: only their difference counts); the x turn is then written 0. At 1e-5 the angles
/// found are still accurate to about 1e-5 rad.
const GIMBAL_LOCK_COSINE: f64 = 1.0e-5;

/// The rotation as a scene file writes it: degrees about the world x, then y, then z axes
/// (R = Rz * Ry * Rx). Computed in f64 with `atan2` throughout, so the middle angle keeps
/// its precision near +-90 degrees, where an arcsine (as in [`Pose3::rotation_degrees`])
/// loses half the digits; the scan turns bodies through those angles.
fn world_xyz_degrees(q: Quat) -> Vec3 {
    let q = DQuat::from_xyzw(q.x as f64, q.y as f64, q.z as f64, q.w as f64).normalize();
    let m = glam::DMat3::from_quat(q);
    // m[row][col] of Rz(c) Ry(b) Rx(a): m20 = -sin b, m00 = cos c cos b, m10 = sin c cos b,
    // m21 = cos b sin a, m22 = cos b cos a; and at b = +-90 with a = 0, m01 = -sin c,
    // m11 = cos c.
    let (m00, m10, m20) = (m.x_axis.x, m.x_axis.y, m.x_axis.z);
    let (m01, m11, m21) = (m.y_axis.x, m.y_axis.y, m.y_axis.z);
    let m22 = m.z_axis.z;
    let cos_b = (m00 * m00 + m10 * m10).sqrt();
    let b = (-m20).atan2(cos_b);
    let (a, c) = if cos_b < GIMBAL_LOCK_COSINE {
        (0.0, (-m01).atan2(m11))
    } else {
        (m21.atan2(m22), m10.atan2(m00))
    };
    let degrees = DVec3::new(a, b, c) * (180.0 / std::f64::consts::PI);
    // + 0 writes a turn of -0 degrees as 0.
    degrees.as_vec3() + Vec3::ZERO
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The angle between two rotations, in radians, from the chord between the unit
    /// quaternions (q and -q are one rotation): 4 asin(|p - q| / 2), precise for small
    /// angles where the arc cosine of the dot product is not.
    fn apart(p: Quat, q: Quat) -> f32 {
        let chord = (p - q).length().min((p + q).length());
        4.0 * (chord / 2.0).min(1.0).asin()
    }

    #[test]
    fn written_angles_give_back_the_rotation_even_at_gimbal_lock() {
        let cases = [
            Vec3::new(10.0, 20.0, 30.0),
            Vec3::new(-170.0, 89.9999, 45.0),
            Vec3::new(0.0, 90.0, 0.0),
            Vec3::new(33.0, -90.0, 12.0),
            Vec3::new(0.0, 0.0, 180.0),
        ];
        for degrees in cases {
            let q = Pose3::from_degrees(Vec3::ZERO, degrees).rotation;
            let back = Pose3::from_degrees(Vec3::ZERO, world_xyz_degrees(q)).rotation;
            assert!(apart(q, back) < 2e-5, "{degrees}: {}", apart(q, back));
        }
        // A turn about y through 90 degrees, as `ry` makes it, in small steps: each step's
        // written rotation is within 1e-6 rad of the rotation it stands for (the arcsine
        // form is off by up to 3e-4 rad there).
        for k in 0..=200 {
            let t = 89.0 + k as f32 * 0.01;
            let q = Quat::from_axis_angle(Vec3::Y, t.to_radians());
            let back = Pose3::from_degrees(Vec3::ZERO, world_xyz_degrees(q)).rotation;
            assert!(apart(q, back) < 1e-6, "{t}: {}", apart(q, back));
        }
    }
}
