//! Swept SAT in 3D when a sphere or a capsule takes part: when do two bodies translating at
//! constant velocities first touch, and when do they part? The only implementation (it
//! records its steps; untraced, the tracer is `()`).
//!
//! Algorithm (as the 2D sweep of round shapes, `query/sweep.rs`: Ericson, *Real-Time
//! Collision Detection*, 5.5.8, for the bracket; the Newton steps are conservative
//! advancement along the closest-point direction, Mirtich, "Impulse-based dynamic
//! simulation of rigid body systems", 1996, which for bodies that only translate is exact
//! in the closing speed):
//!
//! ```text
//! v = vB - vA                       only the relative motion counts: A stands still
//! axes = the axes SAT tests for the pair at t = 0 (sat_round.rs): a polyhedron's face
//!        normals; its edges x a capsule's segment where their Gauss-map arcs cross; the
//!        direction between the cores' closest points when they are apart (two round
//!        shapes: that one axis)
//! for each axis u, as the polyhedral sweep ([`super::reference`]), a round body's interval
//!        being its core's widened by its radius:
//!     t_enter, t_exit = when B's interval, sliding at s = v . u, enters and leaves A's
//! bracket [t0, t1] = [max(max t_enter, 0), min(min t_exit, t_max)]; empty: a miss
//! f(t) = distance between the cores, B moved by v t, minus both radii (GJK on the cores):
//!        the distance from the origin to A - B - v t, convex in t, so each Newton step from
//!        before the first contact lands before it (never past it)
//! first contact: t = t0; at most MAX_REFINEMENT_STEPS times:
//!     f(t) <= touch tolerance: t_first = t; stop
//!     closing = -v . n              n = the unit direction between the cores' closest points
//!     closing <= 0: a miss          (f only grows from here)
//!     t = t + f(t) / closing        (the tangent's root)
//!     t > t1: a miss                (no contact inside the bracket)
//! last contact: the same backward in time from t1 toward t_first, closing = v . n
//! the cap reached on either side: status max_iterations; the times are the bracket reached
//!     (t_first no later and t_last no earlier than the contact)
//! normal: the winning axis's when its entry is t_first (no Newton step moved it), else n
//!     at t_first (axis: the closest points); overlapping at t = 0: SAT's axis and normal
//! ```
//!
//! Why the axes bound the contact: a round body projects onto any fixed axis as its core's
//! interval widened by its radius, so an axis whose intervals are apart at t separates the
//! bodies at t. Each axis's window [t_enter, t_exit] holds every contact time, and so does
//! the intersection of the windows: the bracket never leaves a contact out, whatever fixed
//! axes are taken. The faces and the edge-segment axes are faces of the cores' Minkowski
//! difference, which pure translation does not turn, so for a polyhedron they are often
//! exact (a sphere falling onto a face touches when the face's axis says); the rounded
//! parts' normals turn as B moves, which no fixed set of axes follows: the Newton steps
//! finish the job. Two spheres have one axis, between their centres at t = 0: exact when B
//! moves along it.
//!
//! Conventions as the polyhedral sweep: axes oriented from A toward B at t = 0, the steps
//! in the world (intervals shifted by the projection of the work frame's origin), the same
//! tie rule on entry times ([`super::reference::rank`]: a face facing the contact, then any
//! face, then the others). Tolerances: [`STILL_SPEED`] and the touch tolerance as there;
//! the distance counts as touching within the pair's touch tolerance at time t
//! ([`with_radii`]).

use super::reference::{entry_and_exit, Candidate, Latest};
use super::{Motion3, NewtonOutcome, NewtonStep, Output, Status, Step, SweepAxis, STILL_SPEED};
use crate::query3::gjk::{self, gjk_distance};
use crate::query3::round::{with_radii, BodyPair3};
use crate::query3::sat::AxisId;
use crate::query3::sat_round::{round_pair_axes, sat_round_test, RoundAxis};
use crate::trace::Tracer;
use glam::Vec3;

/// Most Newton steps on each end of the bracket (as in 2D). Convergence is quadratic where
/// the bodies meet at an angle and linear (halving) where they graze, so the cap is reached
/// only when rounding stalls the steps.
pub const MAX_REFINEMENT_STEPS: u32 = 32;

/// Sweeps the pair over [0, motion.t_max] with at most `cap` Newton steps on each end,
/// recording every axis and every Newton step (see the header).
pub(crate) fn time_of_impact<T: Tracer<Step>>(
    pair: &BodyPair3,
    motion: &Motion3,
    cap: u32,
    tracer: &mut T,
) -> Output {
    let v = motion.velocity_b - motion.velocity_a;
    let core = gjk_distance(pair);
    let latest = bracket(pair, motion, &core, tracer);
    let Latest {
        best,
        earliest_exit,
        tested,
        ..
    } = latest;
    let miss = |status| Output::missed(status, best.map_or(AxisId::Closest, |b| b.id), tested);
    let t_enter = best.map_or(f32::NEG_INFINITY, |b| b.t_enter);
    if t_enter.is_nan() || earliest_exit.is_nan() || !v.is_finite() {
        return miss(Status::NonFinite);
    }
    let (t0, t1) = (t_enter.max(0.0), earliest_exit.min(motion.t_max));
    if t0 > t1 {
        return miss(Status::Miss);
    }
    let first = refine(pair, v, (t0, t1), true, cap, tracer);
    let last = match first.outcome {
        Refined::Touching | Refined::Capped => {
            refine(pair, v, (t1, first.time), false, cap, tracer)
        }
        Refined::Miss | Refined::NonFinite => first,
    };
    let status = match (first.outcome, last.outcome) {
        (Refined::NonFinite, _) | (_, Refined::NonFinite) => return miss(Status::NonFinite),
        (Refined::Miss, _) | (_, Refined::Miss) => return miss(Status::Miss),
        (Refined::Capped, _) | (_, Refined::Capped) => Status::MaxIterations,
        _ if first.time <= 0.0 => Status::InitiallyOverlapping,
        _ => Status::Hit,
    };
    let (normal, axis) = match best {
        _ if status == Status::InitiallyOverlapping => {
            let s = sat_round_test(pair);
            (s.normal, s.axis)
        }
        // The winning axis's entry is the contact: it holds the normal.
        Some(b) if t_enter > 0.0 && first.time == t0 && status == Status::Hit => {
            (if b.speed > 0.0 { -b.axis } else { b.axis }, b.id)
        }
        _ if first.normal.is_finite() && first.normal.length_squared() > 0.5 => {
            (first.normal, AxisId::Closest)
        }
        _ => {
            let s = sat_round_test(&pair.b_moved(v * first.time));
            (s.normal, AxisId::Closest)
        }
    };
    Output {
        hit: true,
        t_first: Some(first.time),
        t_last: Some(last.time.max(first.time)),
        normal,
        axis,
        status,
        axes_tested: tested,
        manifold: None,
    }
}

/// The swept SAT over the pair's axes at t = 0 (`core`: GJK on the cores then), each axis's
/// window recorded: the latest entry and the earliest exit.
fn bracket<T: Tracer<Step>>(
    pair: &BodyPair3,
    motion: &Motion3,
    core: &gjk::Output,
    tracer: &mut T,
) -> Latest {
    let v = motion.velocity_b - motion.velocity_a;
    let still = STILL_SPEED * pair.scale();
    let touch = pair.touch_tolerance();
    let mut latest = Latest::new(motion);
    round_pair_axes(pair, core, &mut |candidate| {
        let RoundAxis::Axis(id, u) = candidate else {
            return;
        };
        let (ia, ib) = (pair.a.project(u), pair.b.project(u));
        let speed = v.dot(u);
        let (t_enter, t_exit) = entry_and_exit(ia, ib, speed, still, touch);
        let shift = u.dot(pair.origin);
        tracer.record(|| {
            Step::Axis(SweepAxis {
                id,
                axis: u,
                interval_a: ia.shifted(shift),
                interval_b: ib.shifted(shift),
                speed,
                t_enter,
                t_exit,
            })
        });
        let candidate = Candidate {
            id,
            axis: u,
            speed,
            t_enter,
        };
        latest.offer(candidate, t_exit);
    });
    latest
}

/// How one end's Newton steps ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refined {
    Touching,
    Miss,
    Capped,
    NonFinite,
}

#[derive(Clone, Copy, Debug)]
struct Refinement {
    /// The contact time (touching), or the last guess (capped).
    time: f32,
    outcome: Refined,
    /// The direction between the cores' closest points at the last time measured.
    normal: Vec3,
}

/// Newton steps on the distance between the bodies from `start` toward `limit` (forward
/// for the first contact, backward for the last), B moved by `v * t`, at most `cap`.
fn refine<T: Tracer<Step>>(
    pair: &BodyPair3,
    v: Vec3,
    (start, limit): (f32, f32),
    first: bool,
    cap: u32,
    tracer: &mut T,
) -> Refinement {
    let direction = if first { 1.0 } else { -1.0 };
    let mut t = start;
    let mut normal = Vec3::ZERO;
    for _ in 0..cap {
        let moved = pair.b_moved(v * t);
        let g = with_radii(&moved, gjk_distance(&moved));
        normal = g.normal;
        // Rate at which the gap closes while time runs in `direction`.
        let closing = if g.intersecting {
            0.0
        } else {
            -direction * v.dot(g.normal)
        };
        if g.status == gjk::Status::NonFinite || !(g.distance.is_finite() && closing.is_finite()) {
            return Refinement {
                time: t,
                outcome: Refined::NonFinite,
                normal,
            };
        }
        let outcome = if g.intersecting {
            NewtonOutcome::Touching
        } else if closing <= 0.0 {
            NewtonOutcome::NotClosing
        } else {
            let next = t + direction * g.distance / closing;
            if (first && next > limit) || (!first && next < limit) {
                NewtonOutcome::PastBracket(next)
            } else {
                NewtonOutcome::Next(next)
            }
        };
        tracer.record(|| {
            Step::Refine(NewtonStep {
                t,
                distance: g.distance,
                closing,
                normal: g.normal,
                first,
                outcome,
            })
        });
        let end = |outcome| Refinement {
            time: t,
            outcome,
            normal,
        };
        match outcome {
            NewtonOutcome::Touching => return end(Refined::Touching),
            NewtonOutcome::NotClosing | NewtonOutcome::PastBracket(_) => return end(Refined::Miss),
            NewtonOutcome::Next(next) => t = next,
        }
    }
    Refinement {
        time: t,
        outcome: Refined::Capped,
        normal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom3::Round3;
    use crate::query3::manifold::FeaturePair;
    use crate::query3::sweep::{sweep_round, sweep_round_test};
    use crate::query3::testing::*;

    use crate::query3::testing::round_pair as pair;

    fn motion(vb: Vec3) -> Motion3 {
        Motion3 {
            velocity_a: Vec3::ZERO,
            velocity_b: vb,
            t_max: 1.0,
        }
    }

    /// The traced sweep, checked against the untraced one, with its steps.
    fn traced(p: &BodyPair3, m: &Motion3) -> (Output, Vec<Step>) {
        let mut steps = Vec::new();
        let out = sweep_round(p, m, &mut steps);
        assert_eq!(out, sweep_round_test(p, m));
        assert_eq!(
            steps.iter().filter(|s| s.axis().is_some()).count() as u32,
            out.axes_tested
        );
        (out, steps)
    }

    fn newton_steps(steps: &[Step]) -> Vec<NewtonStep> {
        steps
            .iter()
            .filter_map(|s| match s {
                Step::Refine(n) => Some(*n),
                Step::Axis(_) => None,
            })
            .collect()
    }

    #[test]
    fn sphere_falling_onto_a_box_face_touches_at_the_gap_over_the_speed() {
        // The slab's top face is at y = 0.5, the ball's bottom at 3 - 0.5 = 2.5: a gap of 2
        // closed at 5 per unit time, t_first = 0.4. The ball's top (3.5 - 5t) passes the
        // slab's bottom face y = -0.5 at t_last = 4 / 5 = 0.8.
        let slab = cuboid(1.0, 0.5, 1.0);
        let ball = Round3::sphere(0.5).unwrap();
        let p = pair(&slab, at(0., 0., 0.), &ball, at(0.2, 3.0, -0.1));
        let (out, steps) = traced(&p, &motion(Vec3::new(0., -5., 0.)));
        assert_eq!(out.status, Status::Hit);
        assert!(close(out.t_first.unwrap(), 0.4, 1e-5), "{out:?}");
        assert!(close(out.t_last.unwrap(), 0.8, 1e-5), "{out:?}");
        assert!(close_v(out.normal, Vec3::Y, 1e-6), "{out:?}");
        // The slab's top face set t_first: the first Newton step finds them touching.
        let AxisId::FaceA(f) = out.axis else {
            panic!("{:?}", out.axis)
        };
        assert_eq!(slab.face_normal(f as usize), Vec3::Y);
        let newton = newton_steps(&steps);
        assert_eq!(newton.len(), 2, "{newton:?}");
        assert!(newton.iter().all(|n| n.outcome == NewtonOutcome::Touching));
        // Six faces and the closest-point axis (the cores are apart at t = 0).
        assert_eq!(out.axes_tested, 7);
        let m = out.manifold.unwrap();
        assert_eq!(m.points.len(), 1);
        let c = m.points.as_slice()[0];
        assert!(close_v(c.point, Vec3::new(0.2, 0.5, -0.1), 1e-5), "{c:?}");
        assert!(close(c.depth, 0.0, 1e-5), "{c:?}");
    }

    #[test]
    fn sphere_passing_a_box_corner_is_refined_to_the_hand_derived_time() {
        // The ball (radius 0.5) moves along -x at y = 0.8, z = 0.7, 0.3 and 0.2 beside the
        // corner (0.5, 0.5, 0.5): it touches the corner when (x - 0.5)^2 + 0.09 + 0.04 =
        // 0.25, x = 0.5 + sqrt(0.12) = 0.846410, after 3 - 0.846410 at speed 4: t_first =
        // 0.538397, normal (sqrt(0.12), 0.3, 0.2) / 0.5. It leaves past the far corner
        // (-0.5, 0.5, 0.5) at x = -0.846410: t_last = 3.846410 / 4 = 0.961603.
        let cube = cuboid(0.5, 0.5, 0.5);
        let ball = Round3::sphere(0.5).unwrap();
        let p = pair(&cube, at(0., 0., 0.), &ball, at(3.0, 0.8, 0.7));
        let (out, steps) = traced(&p, &motion(Vec3::new(-4., 0., 0.)));
        assert_eq!(out.status, Status::Hit);
        assert!(close(out.t_first.unwrap(), 0.538397, 1e-5), "{out:?}");
        assert!(close(out.t_last.unwrap(), 0.961603, 1e-5), "{out:?}");
        let expected = Vec3::new(0.12f32.sqrt(), 0.3, 0.2) / 0.5;
        assert!(close_v(out.normal, expected, 1e-4), "{out:?}");
        assert_eq!(out.axis, AxisId::Closest);
        // The bracket starts before the contact; Newton steps close in from there, each
        // guess earlier than the contact and the distances falling.
        let newton = newton_steps(&steps);
        let forward: Vec<_> = newton.iter().filter(|n| n.first).collect();
        assert!(forward.len() >= 2, "{forward:?}");
        assert!(forward[0].t < 0.538397 && forward[0].distance > 0.0);
        for w in forward.windows(2) {
            assert!(w[1].t > w[0].t && w[1].t <= 0.538397 + 1e-6, "{forward:?}");
            assert!(w[1].distance < w[0].distance, "{forward:?}");
        }
        assert_eq!(forward.last().unwrap().outcome, NewtonOutcome::Touching);
        let m = out.manifold.unwrap();
        assert_eq!(m.feature, FeaturePair::VertexVertex);
        assert!(close_v(
            m.points.as_slice()[0].point,
            Vec3::splat(0.5),
            1e-4
        ));
    }

    #[test]
    fn capsules_crossing_meet_and_part_at_the_hand_derived_times() {
        // A stands along y through the origin; B lies along x, its core from x = 0.3 to
        // 2.3 at y = 0.6, falling along -z from z = 2 at 4 per unit time. The cores' closest
        // points are (0, 0.6, 0) on A and (0.3, 0.6, z) on B, sqrt(0.09 + z^2) apart: they
        // touch (0.25 + 0.25 = 0.5) at z = +-0.4, t_first = 1.6 / 4 = 0.4 and t_last =
        // 2.4 / 4 = 0.6, normal (0.3, 0, 0.4) / 0.5.
        let capsule = Round3::capsule(1.0, 0.25).unwrap();
        let p = pair(
            &capsule,
            at(0., 0., 0.),
            &capsule,
            at_deg(Vec3::new(1.3, 0.6, 2.0), Vec3::new(0., 0., 90.)),
        );
        let (out, steps) = traced(&p, &motion(Vec3::new(0., 0., -4.)));
        assert_eq!(out.status, Status::Hit);
        assert!(close(out.t_first.unwrap(), 0.4, 1e-5), "{out:?}");
        assert!(close(out.t_last.unwrap(), 0.6, 1e-5), "{out:?}");
        assert!(
            close_v(out.normal, Vec3::new(0.6, 0.0, 0.8), 1e-4),
            "{out:?}"
        );
        // One axis (between the cores at t = 0), then Newton steps on both ends.
        assert_eq!(out.axes_tested, 1);
        let newton = newton_steps(&steps);
        assert!(newton.iter().any(|n| n.first) && newton.iter().any(|n| !n.first));
        let m = out.manifold.unwrap();
        assert_eq!(m.points.len(), 1);
        // On B's surface, 0.25 from its core toward A: (0.3, 0.6, 0.4) - 0.25 (0.6, 0, 0.8).
        assert!(close_v(
            m.points.as_slice()[0].point,
            Vec3::new(0.15, 0.6, 0.2),
            1e-4
        ));
    }

    #[test]
    fn capsule_passing_a_box_edge_misses_by_its_clearance() {
        // The capsule (radius 0.2) lies along z, parallel to the cube's edge at x = y = 0.5,
        // and moves along (-1, 1, 0) / sqrt 2 on the line whose closest point to the edge
        // is 0.25 out along (1, 1, 0) / sqrt 2: the cores come no closer than 0.25, the
        // bodies 0.05. The faces x = 0.5 and y = 0.5 do not rule it out: x's window opens at
        // s = 0.25 - 0.2 sqrt 2 < 0 along the path, y's closes at -(0.25 - 0.2 sqrt 2).
        let cube = cuboid(0.5, 0.5, 0.5);
        let capsule = Round3::capsule(0.8, 0.2).unwrap();
        let diagonal = Vec3::new(1., 1., 0.) / 2f32.sqrt();
        let along = Vec3::new(-1., 1., 0.) / 2f32.sqrt();
        let start = Vec3::new(0.5, 0.5, 0.) + 0.25 * diagonal - 2.0 * along;
        let p = pair(
            &cube,
            at(0., 0., 0.),
            &capsule,
            at_deg(start, Vec3::new(90., 0., 0.)),
        );
        let (out, steps) = traced(&p, &motion(4.0 * along));
        assert_eq!(out.status, Status::Miss, "{out:?}");
        assert!(!out.hit && out.t_first.is_none() && out.manifold.is_none());
        let newton = newton_steps(&steps);
        let last = newton
            .last()
            .expect("the bracket is not empty: Newton decides");
        assert!(
            matches!(
                last.outcome,
                NewtonOutcome::NotClosing | NewtonOutcome::PastBracket(_)
            ),
            "{newton:?}"
        );
        // The distance measured never drops below the clearance.
        assert!(
            newton.iter().all(|n| n.distance >= 0.05 - 1e-5),
            "{newton:?}"
        );
    }

    #[test]
    fn spheres_overlapping_at_the_start_part_at_the_hand_derived_time() {
        // Centres 1 apart along x, radii 1 and 0.5: overlapping by 0.5. B moves on along +x
        // at 2 per unit time and parts when the centres are 1.5 apart: t_last = 0.25.
        let big = Round3::sphere(1.0).unwrap();
        let small = Round3::sphere(0.5).unwrap();
        let p = pair(&big, at(0., 0., 0.), &small, at(1., 0., 0.));
        let (out, _) = traced(&p, &motion(Vec3::new(2., 0., 0.)));
        assert_eq!(out.status, Status::InitiallyOverlapping);
        assert_eq!(out.t_first, Some(0.0));
        assert!(close(out.t_last.unwrap(), 0.25, 1e-5), "{out:?}");
        assert!(close_v(out.normal, Vec3::X, 1e-6), "{out:?}");
    }

    #[test]
    fn spheres_head_on_are_exact_on_their_one_axis() {
        // Centres 3 apart, radii 1 and 0.5, closing at 4: t_first = 1.5 / 4 = 0.375 on the
        // axis between the centres, which the first Newton step confirms.
        let big = Round3::sphere(1.0).unwrap();
        let small = Round3::sphere(0.5).unwrap();
        let p = pair(&big, at(0., 0., 0.), &small, at(3., 0., 0.));
        let (out, steps) = traced(&p, &motion(Vec3::new(-4., 0., 0.)));
        assert_eq!(out.status, Status::Hit);
        assert!(close(out.t_first.unwrap(), 0.375, 1e-6), "{out:?}");
        assert_eq!(out.t_last, Some(1.0));
        assert!(close_v(out.normal, Vec3::X, 1e-6));
        assert_eq!(newton_steps(&steps).len(), 2);
    }

    #[test]
    fn the_step_cap_stops_with_a_bracket_around_the_contact() {
        // The corner case above (contact from 0.538397 to 0.961603) with one Newton step on
        // each end: the first guess is short of the contact and the last beyond it.
        let cube = cuboid(0.5, 0.5, 0.5);
        let ball = Round3::sphere(0.5).unwrap();
        let p = pair(&cube, at(0., 0., 0.), &ball, at(3.0, 0.8, 0.7));
        let m = motion(Vec3::new(-4., 0., 0.));
        let mut steps = Vec::new();
        let out = time_of_impact(&p, &m, 1, &mut steps);
        assert_eq!(out.status, Status::MaxIterations);
        assert!(out.hit);
        let (t_first, t_last) = (out.t_first.unwrap(), out.t_last.unwrap());
        assert!(t_first < 0.538397 && t_first > 0.5, "{out:?}");
        assert!(t_last > 0.961603 && t_last <= 1.0, "{out:?}");
        assert_eq!(newton_steps(&steps).len(), 2);
        // With the usual cap the same pair is decided.
        assert_eq!(
            time_of_impact(&p, &m, MAX_REFINEMENT_STEPS, &mut ()).status,
            Status::Hit
        );
    }

    #[test]
    fn non_finite_motion_is_reported_not_refined() {
        let ball = Round3::sphere(0.5).unwrap();
        let cube = cuboid(0.5, 0.5, 0.5);
        let p = pair(&cube, at(0., 0., 0.), &ball, at(3.0, 0.0, 0.0));
        for v in [Vec3::NAN, Vec3::new(f32::INFINITY, 0., 0.)] {
            let out = sweep_round_test(&p, &motion(v));
            assert_eq!(out.status, Status::NonFinite, "{out:?}");
            assert!(!out.hit);
        }
    }
}
