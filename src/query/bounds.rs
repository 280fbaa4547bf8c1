//! Bounding circles: a cheap test that rules a pair out before the narrow phase.
//!
//! Algorithm (the simplest broad-phase rejection; Ericson, *Real-Time Collision Detection*,
//! 4.3 "Spheres", and the swept form of 5.5.7 "Intersecting moving sphere against sphere"):
//!
//! ```text
//! each body: centre c = its centroid in the world, radius r = the farthest boundary point
//! B moves by v = vB - vA relative to A during [0, T] (v = 0 when neither moves)
//! the centre of B relative to A runs over the segment d(t) = (cB - cA) + t v, t in [0, T]
//! if the segment's closest approach to the origin is farther than rA + rB (plus a
//! rounding margin): the shapes cannot touch during [0, T]: skip the pair
//! ```
//!
//! The circles hold the whole shape (rounded ones included), so a rejected pair is apart
//! for every query: GJK would report a positive distance, SAT a separating axis, the sweep
//! a miss. A kept pair may still be apart; the narrow phase decides.

use super::pair::BodyRef;
use super::TOUCH_TOLERANCE;
use crate::geom::{Pose, Shape};
use glam::Vec2;

/// A circle holding a placed shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundingCircle {
    /// World position of the shape's centroid.
    pub center: Vec2,
    /// Distance from the centroid to the farthest boundary point (radius included).
    pub radius: f32,
}

impl BoundingCircle {
    /// The circle of `shape` placed at `pose`.
    pub fn of(shape: &Shape, pose: Pose) -> Self {
        BoundingCircle {
            center: pose.transform_point(shape.centroid()),
            radius: shape.bounding_radius(),
        }
    }
}

/// Whether the bounding circles of `a` and `b` come within touching distance during
/// `[0, sweep_time]`, each body moving by its velocity (a body without one stays). `false`
/// means the narrow phase can only report the pair apart, and a caller showing results for
/// many pairs may skip it; `true` means the narrow phase has to look.
pub fn may_touch(a: &BodyRef, b: &BodyRef, sweep_time: f32) -> bool {
    let velocity = b.velocity.unwrap_or(Vec2::ZERO) - a.velocity.unwrap_or(Vec2::ZERO);
    circles_may_touch(
        BoundingCircle::of(a.shape, a.pose),
        BoundingCircle::of(b.shape, b.pose),
        velocity * sweep_time.max(0.0),
    )
}

/// Whether circle `b`, moved by `motion` (from where it is, along a straight line), comes
/// within touching distance of circle `a`.
pub fn circles_may_touch(a: BoundingCircle, b: BoundingCircle, motion: Vec2) -> bool {
    let start = b.center - a.center;
    let reach = a.radius + b.radius;
    // The closest point of the segment start + s * motion, s in [0, 1], to the origin.
    let travel = motion.length_squared();
    let s = if travel > 0.0 {
        (-start.dot(motion) / travel).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let closest = start + s * motion;
    // The same relative margin the queries use to call two shapes touching, on the scale
    // of this pair: rounding in the centres and radii never rejects a touching pair.
    let margin = TOUCH_TOLERANCE * (reach + start.length() + motion.length()).max(1.0);
    closest.length_squared() <= (reach + margin) * (reach + margin)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::pair::{query_pair, PairSettings};

    fn body(shape: &Shape, x: f32, y: f32, velocity: Option<Vec2>) -> BodyRef<'_> {
        BodyRef {
            shape,
            pose: Pose::new(Vec2::new(x, y), 0.0),
            velocity,
        }
    }

    #[test]
    fn circles_two_apart_touch_and_a_hair_more_do_not() {
        // Two unit circles: the bounding circles are the circles themselves.
        let unit = Shape::circle(1.0).unwrap();
        let a = body(&unit, 0.0, 0.0, None);
        assert!(may_touch(&a, &body(&unit, 2.0, 0.0, None), 1.0));
        assert!(may_touch(&a, &body(&unit, 1.2, 1.2, None), 1.0));
        assert!(!may_touch(&a, &body(&unit, 2.01, 0.0, None), 1.0));
        assert!(!may_touch(&a, &body(&unit, 1.5, 1.5, None), 1.0));
    }

    #[test]
    fn a_box_is_held_by_its_half_diagonal() {
        // A 2 x 2 box: bounding radius sqrt(2); a unit circle at distance 2.4 on the
        // diagonal is within 1 + sqrt(2) = 2.414 of its centre, at 2.45 it is not.
        let square = Shape::rect(Vec2::new(1.0, 1.0)).unwrap();
        let unit = Shape::circle(1.0).unwrap();
        let d = std::f32::consts::FRAC_1_SQRT_2;
        let a = body(&square, 0.0, 0.0, None);
        assert!(may_touch(&a, &body(&unit, 2.4 * d, 2.4 * d, None), 1.0));
        assert!(!may_touch(&a, &body(&unit, 2.45 * d, 2.45 * d, None), 1.0));
    }

    #[test]
    fn the_sweep_keeps_pairs_that_meet_on_the_way() {
        let unit = Shape::circle(1.0).unwrap();
        let a = body(&unit, 0.0, 0.0, None);
        // From x = 5 moving -4 per unit time: at t = 1 the centre is at 1 (overlapping).
        assert!(may_touch(
            &a,
            &body(&unit, 5.0, 0.0, Some(Vec2::new(-4.0, 0.0))),
            1.0
        ));
        // Half the time: the centre stops at 3, one unit short.
        assert!(!may_touch(
            &a,
            &body(&unit, 5.0, 0.0, Some(Vec2::new(-4.0, 0.0))),
            0.5
        ));
        // Passing by 2.5 above: closest approach 2.5 > 2.
        assert!(!may_touch(
            &a,
            &body(&unit, 5.0, 2.5, Some(Vec2::new(-10.0, 0.0))),
            1.0
        ));
        // Moving away.
        assert!(!may_touch(
            &a,
            &body(&unit, 3.0, 0.0, Some(Vec2::new(4.0, 0.0))),
            1.0
        ));
        // A moving toward B counts the same as B moving toward A.
        let still_b = body(&unit, 5.0, 0.0, Some(Vec2::ZERO));
        let moving_a = body(&unit, 0.0, 0.0, Some(Vec2::new(4.0, 0.0)));
        assert!(may_touch(&moving_a, &still_b, 1.0));
    }

    #[test]
    fn touching_far_from_the_origin_is_kept() {
        // Unit circles exactly touching at x = 1e5: rounding of the centres must not reject.
        let unit = Shape::circle(1.0).unwrap();
        let a = body(&unit, 1.0e5, 0.0, None);
        assert!(may_touch(&a, &body(&unit, 1.0e5 + 2.0, 0.0, None), 1.0));
    }

    #[test]
    fn a_rejected_pair_is_apart_for_every_query() {
        // An independent check against the narrow phase on a grid of placements around a
        // capsule and a pentagon: whenever the circles reject, GJK says apart and the sweep
        // misses.
        let capsule = Shape::capsule(1.0, 0.4).unwrap();
        let pentagon = Shape::regular(5, 1.2).unwrap();
        let settings = PairSettings::default();
        let (mut rejected, mut kept) = (0, 0);
        for i in -12..=12 {
            for j in -12..=12 {
                let (x, y) = (i as f32 * 0.4, j as f32 * 0.4);
                let a = body(&capsule, 0.3, -0.2, Some(Vec2::ZERO));
                let b = BodyRef {
                    shape: &pentagon,
                    pose: Pose::new(Vec2::new(x, y), 0.3 * i as f32),
                    velocity: Some(Vec2::new(-0.5 * x, 0.25)),
                };
                let q = query_pair(&a, &b, &settings);
                if may_touch(&a, &b, settings.sweep_time) {
                    kept += 1;
                } else {
                    rejected += 1;
                    assert!(
                        !q.intersecting(),
                        "rejected an overlapping pair at {x}, {y}"
                    );
                    assert!(q.gjk.distance > 0.0);
                    assert!(
                        !q.sweep.expect("both move").hit,
                        "rejected a hit at {x}, {y}"
                    );
                }
            }
        }
        // Both branches ran: the test is not vacuous.
        assert!(
            rejected > 100 && kept > 50,
            "rejected {rejected}, kept {kept}"
        );
    }
}
