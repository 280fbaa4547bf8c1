use glam::{Quat, Vec3};

/// Where a 3D body is: the world position of its local origin and its rotation, a unit
/// quaternion.
///
/// In scene files the rotation is written `rotation: (x, y, z)` in degrees, applied about the
/// *world* axes in the order x, then y, then z: R = Rz * Ry * Rx.
/// [`Pose3::from_degrees`] and [`Pose3::rotation_degrees`] convert.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Pose3 {
    pub position: Vec3,
    pub rotation: Quat,
}

impl Pose3 {
    pub fn new(position: Vec3, rotation: Quat) -> Self {
        Pose3 { position, rotation }
    }

    /// A pose from a position and rotation angles in degrees about the world x, y, z axes,
    /// applied x first: R = Rz * Ry * Rx.
    pub fn from_degrees(position: Vec3, rotation_degrees: Vec3) -> Self {
        let r = rotation_degrees * (std::f32::consts::PI / 180.0);
        let rotation =
            Quat::from_rotation_z(r.z) * Quat::from_rotation_y(r.y) * Quat::from_rotation_x(r.x);
        Pose3 {
            position,
            rotation: rotation.normalize(),
        }
    }

    /// The rotation as degrees about the world x, y, z axes (R = Rz * Ry * Rx). Round-trips
    /// [`Pose3::from_degrees`] for angles in (-180, 180] away from gimbal lock (y = +-90).
    pub fn rotation_degrees(&self) -> Vec3 {
        let (z, y, x) = self.rotation.to_euler(glam::EulerRot::ZYX);
        Vec3::new(x, y, z) * (180.0 / std::f32::consts::PI)
    }

    /// Maps a point from the body's local frame to the world.
    #[inline]
    pub fn transform_point(&self, local: Vec3) -> Vec3 {
        self.rotation * local + self.position
    }

    /// Maps a world point into the body's local frame.
    #[inline]
    pub fn inverse_transform_point(&self, world: Vec3) -> Vec3 {
        self.rotation.inverse() * (world - self.position)
    }

    /// This pose followed by `motion` (a rigid motion applied in world coordinates).
    pub fn moved_by(&self, motion: &Pose3) -> Pose3 {
        Pose3 {
            position: motion.transform_point(self.position),
            rotation: (motion.rotation * self.rotation).normalize(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec3, b: Vec3, tol: f32) -> bool {
        (a - b).length() <= tol
    }

    #[test]
    fn rotations_apply_x_then_y_then_z_about_world_axes() {
        // 90 about x takes +y to +z; then 90 about y takes +z to +x; then 90 about z takes +x
        // to +y. So +y ends at +y; and +x: x-rotation keeps +x, y-rotation takes +x to -z,
        // z-rotation keeps -z.
        let pose = Pose3::from_degrees(Vec3::ZERO, Vec3::new(90.0, 90.0, 90.0));
        assert!(close(pose.transform_point(Vec3::Y), Vec3::Y, 1e-6));
        assert!(close(pose.transform_point(Vec3::X), -Vec3::Z, 1e-6));
        let only_z = Pose3::from_degrees(Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.0, 0.0, 90.0));
        assert!(close(
            only_z.transform_point(Vec3::X),
            Vec3::new(1.0, 3.0, 3.0),
            1e-6
        ));
    }

    #[test]
    fn degrees_round_trip_away_from_gimbal_lock() {
        for deg in [
            Vec3::new(10.0, 20.0, 30.0),
            Vec3::new(-170.0, 45.0, 179.0),
            Vec3::new(180.0, -60.0, -90.0),
            Vec3::ZERO,
        ] {
            let back = Pose3::from_degrees(Vec3::ZERO, deg).rotation_degrees();
            let again = Pose3::from_degrees(Vec3::ZERO, back);
            // The same rotation (x = 180 may come back as -180).
            let p = Vec3::new(0.3, -0.7, 1.1);
            assert!(close(
                again.transform_point(p),
                Pose3::from_degrees(Vec3::ZERO, deg).transform_point(p),
                1e-5
            ));
            if deg.x.abs() < 180.0 {
                assert!(close(back, deg, 1e-3), "{deg} came back as {back}");
            }
        }
    }

    #[test]
    fn inverse_undoes_transform() {
        let pose = Pose3::from_degrees(Vec3::new(5.0, -2.0, 1.0), Vec3::new(33.0, -12.0, 71.0));
        let p = Vec3::new(0.4, 0.9, -1.3);
        assert!(close(
            pose.inverse_transform_point(pose.transform_point(p)),
            p,
            1e-5
        ));
    }
}
