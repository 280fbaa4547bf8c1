//! Pieces the 3D oracle tests share: random poses, parry3d's form of a pose, and the
//! brute-force referee's segment distance (in f64).

use super::Rng;
use collision_lab::geom3::{Pose3, Shape3Kind};
use glam::{DVec3, Vec3};

/// A pose within `reach` of the origin on each axis, turned by random angles (the middle one,
/// about y, within +-90 degrees so that the three angles name each rotation once).
pub fn random_pose(rng: &mut Rng, reach: f32) -> Pose3 {
    Pose3::from_degrees(
        Vec3::new(
            rng.f(-reach, reach),
            rng.f(-reach, reach),
            rng.f(-reach, reach),
        ),
        Vec3::new(
            rng.f(-180.0, 180.0),
            rng.f(-90.0, 90.0),
            rng.f(-180.0, 180.0),
        ),
    )
}

/// A convex polyhedron of size about 1: a random box (with probability `cuboid_share`), or
/// the hull of 6 to 20 random points in a stretched box (some inside, dropped by the hull).
pub fn random_polyhedron_kind(rng: &mut Rng, cuboid_share: f32) -> Shape3Kind {
    if rng.f(0.0, 1.0) < cuboid_share {
        return Shape3Kind::Cuboid {
            half_extents: Vec3::new(rng.f(0.2, 1.0), rng.f(0.2, 1.0), rng.f(0.2, 1.0)),
        };
    }
    let count = 6 + (rng.next() % 15) as usize;
    let stretch = Vec3::new(rng.f(0.3, 1.0), rng.f(0.3, 1.0), rng.f(0.3, 1.0));
    Shape3Kind::Hull {
        points: (0..count)
            .map(|_| Vec3::new(rng.f(-1.0, 1.0), rng.f(-1.0, 1.0), rng.f(-1.0, 1.0)) * stretch)
            .collect(),
    }
}

/// The same pose as parry3d writes it (the same unit quaternion).
pub fn parry_pose(pose: &Pose3) -> parry3d::math::Pose {
    let q = pose.rotation;
    parry3d::math::Pose::from_parts(
        parry3d::math::Vector::new(pose.position.x, pose.position.y, pose.position.z),
        parry3d::math::Rot3::from_xyzw(q.x, q.y, q.z, q.w),
    )
}

/// Below this squared length (in f64) a segment is a point.
const POINT_SEGMENT: f64 = 1e-30;

/// Distance between segments p0-p1 and q0-q1 (either may be a point): the closed form of
/// Ericson 5.1.9, in f64.
pub fn segment_distance(p0: DVec3, p1: DVec3, q0: DVec3, q1: DVec3) -> f64 {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    let (s, t);
    if a <= POINT_SEGMENT && e <= POINT_SEGMENT {
        return r.length();
    }
    if a <= POINT_SEGMENT {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if e <= POINT_SEGMENT {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s0 = if denom > POINT_SEGMENT {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t0 = 0.0;
                s0 = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t0 = 1.0;
                s0 = ((b - c) / a).clamp(0.0, 1.0);
            }
            s = s0;
            t = t0;
        }
    }
    ((p0 + d1 * s) - (q0 + d2 * t)).length()
}
