//! Agreement: before timing anything, check that the libraries give the same answers on
//! these inputs, so the comparison is between equal work.

use crate::box2d::{self, LINEAR_SLOP};
use crate::inputs::{vector, Case, Inputs, PolygonSet};
use collision_lab::query::clip::clip_after_sat;
use collision_lab::query::epa::{epa, EpaConfig};
use collision_lab::query::gjk::{gjk, gjk_intersects, GjkConfig};
use collision_lab::query::sat::sat;
use collision_lab::query::sweep::{sweep, Motion};
use collision_lab::query::Body;
use glam::Vec2;
use parry2d::math::Pose as Isometry;
use parry2d::query::details::{
    cast_shapes_support_map_support_map, contact_support_map_support_map,
    distance_support_map_support_map, intersection_test_support_map_support_map,
};
use parry2d::query::ShapeCastOptions;

/// Checks collision-lab against parry2d on every input set, and against Box2D where the
/// polygons fit; prints the disagreements.
pub fn check_agreement(inputs: &Inputs) {
    check_parry(inputs);
    if inputs.set.has_box2d() {
        check_box2d(inputs);
    }
}

fn check_parry(inputs: &Inputs) {
    let set = &inputs.set;
    let mut disagreements = Vec::new();
    let tolerance = 2.0e-3;
    for case in &inputs.mixed {
        let ours = gjk_intersects(&case.pair(set), &GjkConfig::default());
        let theirs = intersection_test_support_map_support_map(
            &case.pos12(),
            &set.exact[case.a],
            &set.exact[case.b],
        );
        if ours != theirs {
            disagreements.push(format!("intersection: ours {ours}, parry {theirs}"));
        }
    }
    for case in &inputs.separated {
        let ours = gjk(&case.pair(set), &GjkConfig::default(), &mut ()).distance;
        let theirs =
            distance_support_map_support_map(&case.pos12(), &set.exact[case.a], &set.exact[case.b]);
        if (ours - theirs).abs() > tolerance {
            disagreements.push(format!("distance: ours {ours}, parry {theirs}"));
        }
    }
    for case in &inputs.penetrating {
        let pair = case.pair(set);
        let g = gjk(&pair, &GjkConfig::default(), &mut ());
        let ours = epa(&pair, &g, &EpaConfig::default(), &mut ()).map_or(0.0, |e| e.depth);
        let theirs = contact_support_map_support_map(
            &case.pos12(),
            &set.exact[case.a],
            &set.exact[case.b],
            0.0,
        )
        .map_or(0.0, |c| -c.dist);
        let by_sat = sat(&pair, &mut ()).depth.unwrap_or(0.0);
        if (ours - theirs).abs() > tolerance || (by_sat - theirs).abs() > tolerance {
            disagreements.push(format!(
                "depth: ours EPA {ours}, ours SAT {by_sat}, parry {theirs}"
            ));
        }
    }
    let mut hits = 0;
    for case in &inputs.approaching {
        let motion = Motion {
            velocity_a: Vec2::ZERO,
            velocity_b: case.velocity_b,
            t_max: 1.0,
        };
        let ours = sweep(&case.pair(set), &motion, &mut ()).t_first;
        let theirs = cast_shapes_support_map_support_map(
            &case.pos12(),
            case.vel12(),
            &set.exact[case.a],
            &set.exact[case.b],
            cast_options(),
        )
        .map(|hit| hit.time_of_impact);
        hits += usize::from(ours.is_some());
        let same = match (ours, theirs) {
            (Some(x), Some(y)) => (x - y).abs() <= tolerance,
            (None, None) => true,
            _ => false,
        };
        if !same {
            disagreements.push(format!("time of impact: ours {ours:?}, parry {theirs:?}"));
        }
    }
    eprintln!(
        "{:>5}: {} of {} sweeps hit; {} disagreements with parry2d",
        inputs.label,
        hits,
        inputs.approaching.len(),
        disagreements.len()
    );
    for d in disagreements.iter().take(5) {
        eprintln!("    {d}");
    }
}

pub fn cast_options() -> ShapeCastOptions {
    ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    }
}

/// Checks collision-lab against Box2D. Manifold: same normal (within 1e-3), same deepest
/// depth and the same points (within 2e-3) after dropping Box2D's speculative points
/// (separation > 0); Box2D places a point midway between the bodies, ours sits on the
/// incident body, half the depth away. Distance: within 1e-4. Time of impact: both are
/// checked against a bisection on parry2d's distance (an independent oracle): ours is the
/// first time the gap closes; Box2D hits when the gap falls below its stopping gap (a target
/// of one linear slop plus a quarter slop of tolerance), and where it stops the gap is below
/// that.
fn check_box2d(inputs: &Inputs) {
    let set = &inputs.set;
    let mut disagreements = Vec::new();
    for case in &inputs.penetrating {
        let pair = case.pair(set);
        let s = sat(&pair, &mut ());
        let ours = clip_after_sat(&pair, &s, &mut ());
        let theirs = box2d::collide(
            set.box2d(case.a),
            set.box2d(case.b),
            &case.box2d_placement(),
        );
        let to_world = |v: Vec2| Vec2::from_angle(case.pose_a.angle).rotate(v);
        let normal = to_world(box2d::glam(theirs.normal));
        let points: Vec<(Vec2, f32)> = theirs.points[..theirs.pointCount as usize]
            .iter()
            .filter(|p| p.separation <= 0.0)
            .map(|p| {
                (
                    to_world(box2d::glam(p.point)) + case.pose_a.position,
                    -p.separation,
                )
            })
            .collect();
        let ours_midway: Vec<(Vec2, f32)> = ours
            .points()
            .iter()
            .map(|p| {
                let toward_reference = match ours.reference {
                    Body::A => ours.normal,
                    Body::B => -ours.normal,
                };
                (p.point + 0.5 * p.depth * toward_reference, p.depth)
            })
            .collect();
        let deepest = |ps: &[(Vec2, f32)]| ps.iter().map(|p| p.1).fold(0.0, f32::max);
        let same_points = points.len() == ours_midway.len()
            && points.iter().all(|(q, _)| {
                ours_midway
                    .iter()
                    .any(|(p, _)| (*p - *q).length() <= 2.0e-3)
            });
        if (normal - ours.normal).length() > 1.0e-3
            || (deepest(&points) - deepest(&ours_midway)).abs() > 1.0e-4
            || !same_points
        {
            disagreements.push(format!(
                "manifold: ours {:?} {:?}, Box2D {normal:?} {points:?}",
                ours.normal, ours_midway
            ));
        }
    }
    for case in &inputs.separated {
        let ours = gjk(&case.pair(set), &GjkConfig::default(), &mut ()).distance;
        let theirs = box2d::distance(
            set.box2d(case.a),
            set.box2d(case.b),
            &case.box2d_placement(),
        )
        .distance;
        if (ours - theirs).abs() > 1.0e-4 {
            disagreements.push(format!("distance: ours {ours}, Box2D {theirs}"));
        }
    }
    for case in &inputs.mixed {
        let ours = gjk_intersects(&case.pair(set), &GjkConfig::default());
        let theirs = box2d::distance(
            set.box2d(case.a),
            set.box2d(case.b),
            &case.box2d_placement(),
        )
        .distance
            == 0.0;
        if ours != theirs {
            disagreements.push(format!("intersection: ours {ours}, Box2D {theirs}"));
        }
    }
    for case in &inputs.approaching {
        let motion = Motion {
            velocity_a: Vec2::ZERO,
            velocity_b: case.velocity_b,
            t_max: 1.0,
        };
        let ours = sweep(&case.pair(set), &motion, &mut ()).t_first;
        let cast = box2d::cast(
            set.box2d(case.a),
            set.box2d(case.b),
            &case.box2d_placement(),
        );
        let theirs = cast.hit.then_some(cast.fraction);
        let exact = first_time_within(set, case, 0.0);
        // Box2D stops once the gap is below target + slop / 4.
        let stop_gap = 1.25 * LINEAR_SLOP;
        let at_target = first_time_within(set, case, stop_gap);
        let ours_ok = match (ours, exact) {
            (Some(x), Some(y)) => (x - y).abs() <= 1.0e-3,
            (None, None) => true,
            _ => false,
        };
        // Box2D's gap where it stopped is below its stopping gap (and not negative).
        let theirs_ok = match (theirs, at_target) {
            (Some(x), Some(_)) => {
                let gap = gap_at(set, case, x);
                (0.0..=stop_gap + 1.0e-4).contains(&gap)
            }
            (None, None) => true,
            _ => false,
        };
        if !ours_ok || !theirs_ok {
            disagreements.push(format!(
                "time of impact: ours {ours:?}, Box2D {theirs:?}, oracle {exact:?} (gap 0), {at_target:?} (gap {stop_gap})"
            ));
        }
    }
    eprintln!(
        "{:>5}: {} disagreements with Box2D",
        inputs.label,
        disagreements.len()
    );
    for d in disagreements.iter().take(5) {
        eprintln!("    {d}");
    }
}

/// parry2d's distance between A and B after B moved for time `t`.
fn gap_at(set: &PolygonSet, case: &Case, t: f32) -> f32 {
    let moved = Isometry::from_parts(
        case.iso_b.translation + vector(case.velocity_b) * t,
        case.iso_b.rotation,
    );
    let pos12 = case.iso_a.inv_mul(&moved);
    distance_support_map_support_map(&pos12, &set.exact[case.a], &set.exact[case.b])
}

/// The first t in [0, 1] at which the gap is at most `gap`, by parry2d's distance: scanned
/// in 1/512 steps, then bisected to 1e-6. The gap along a straight motion is a convex
/// function of t (the distance from a point moving on a line to a convex set), so when no
/// sample is close enough, the smallest gap lies within a step of the smallest sample: a
/// ternary search there catches a graze shorter than a step.
fn first_time_within(set: &PolygonSet, case: &Case, gap: f32) -> Option<f32> {
    let steps = 512;
    let time = |k: usize| k as f32 / steps as f32;
    let bisect = |mut lo: f32, mut hi: f32| {
        while hi - lo > 1.0e-6 {
            let mid = 0.5 * (lo + hi);
            if gap_at(set, case, mid) <= gap {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    };
    let mut smallest = (f32::INFINITY, 0);
    for k in 0..=steps {
        let g = gap_at(set, case, time(k));
        if g <= gap {
            return Some(if k == 0 {
                0.0
            } else {
                bisect(time(k - 1), time(k))
            });
        }
        if g < smallest.0 {
            smallest = (g, k);
        }
    }
    let k = smallest.1;
    let (mut lo, mut hi) = (time(k.saturating_sub(1)), time((k + 1).min(steps)));
    let start = lo;
    for _ in 0..60 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if gap_at(set, case, m1) <= gap_at(set, case, m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let nearest = 0.5 * (lo + hi);
    (gap_at(set, case, nearest) <= gap).then(|| bisect(start, nearest))
}
