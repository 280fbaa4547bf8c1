use super::placed::PLACED_CAPACITY;
use super::reference::{self, rank, WorkFrame};
use super::small::Placement;
use super::*;
use crate::query3::manifold::FeaturePair;
use crate::query3::testing::*;
#[cfg(target_arch = "x86_64")]
use crate::simd::Lanes;
#[cfg(target_arch = "x86_64")]
use crate::simd::{Avx, Eight, Four};

fn motion(vb: Vec3) -> Motion3 {
    Motion3 {
        velocity_a: Vec3::ZERO,
        velocity_b: vb,
        t_max: 1.0,
    }
}

#[test]
fn the_rotated_cube_hits_on_a_s_x_face() {
    // The hand-checked case: B's leading edge is at 3 - sqrt(0.5) = 2.2929,
    // A's face at 0.5, closing at 5 per unit time: t_first = 1.7929 / 5 = 0.358579;
    // B's trailing edge at 3.7071 passes -0.5 at t_last = 4.2071 / 5 = 0.841421.
    let cube = cuboid(0.5, 0.5, 0.5);
    let pair = PolyPair::new(
        &cube,
        &at(0., 0., 0.),
        &cube,
        &at_deg(Vec3::new(3., 0., 0.), Vec3::new(0., 0., 45.)),
    );
    let mut steps = Vec::new();
    let out = sweep(&pair, &motion(Vec3::new(-5., 0., 0.)), &mut steps);
    assert_eq!(out, sweep_test(&pair, &motion(Vec3::new(-5., 0., 0.))));
    assert!(out.hit);
    assert_eq!(out.status, Status::Hit);
    assert!(close(out.t_first.unwrap(), 0.358579, 1e-5), "{out:?}");
    assert!(close(out.t_last.unwrap(), 0.841421, 1e-5), "{out:?}");
    assert!(close_v(out.normal, Vec3::X, 1e-6));
    let AxisId::FaceA(f) = out.axis else {
        panic!("{:?}", out.axis)
    };
    assert_eq!(cube.face_normal(f as usize), Vec3::X);
    assert_eq!(steps.len() as u32, out.axes_tested);
    let m = out.manifold.unwrap();
    // At t_first B's leading edge (along z) touches A's +x face.
    assert_eq!(m.feature, FeaturePair::EdgeFace);
    assert_eq!(m.points.len(), 2);
    for c in m.points.iter() {
        assert!(close(c.point.x, 0.5, 1e-5) && close(c.depth, 0.0, 1e-5));
    }
}

#[test]
fn crossed_ridges_meet_on_an_edge_axis() {
    // A's top ridge (turned 45 degrees about z) at y = sqrt(0.5); B turned 45 degrees
    // about x, its bottom ridge at y = 3 - sqrt(0.5), falling at 5: the ridges meet when
    // B's centre is at 2 sqrt(0.5), t = (3 - sqrt(2)) / 5 = 0.317157, and part when it
    // is at -2 sqrt(0.5), t = (3 + sqrt(2)) / 5 = 0.882843.
    let cube = cuboid(0.5, 0.5, 0.5);
    let pair = PolyPair::new(
        &cube,
        &at_deg(Vec3::ZERO, Vec3::new(0., 0., 45.)),
        &cube,
        &at_deg(Vec3::new(0., 3., 0.), Vec3::new(45., 0., 0.)),
    );
    let out = sweep_test(&pair, &motion(Vec3::new(0., -5., 0.)));
    assert_eq!(out.status, Status::Hit);
    assert!(matches!(out.axis, AxisId::Edges(..)), "{:?}", out.axis);
    assert!(close(out.t_first.unwrap(), 0.317157, 1e-5), "{out:?}");
    assert!(close(out.t_last.unwrap(), 0.882843, 1e-5), "{out:?}");
    assert!(close_v(out.normal, Vec3::Y, 1e-5));
    let m = out.manifold.unwrap();
    assert_eq!(m.feature, FeaturePair::EdgeEdge);
    assert!(close_v(
        m.points.as_slice()[0].point,
        Vec3::new(0., 0.5f32.sqrt(), 0.),
        1e-5
    ));
}

#[test]
fn a_sweep_that_passes_beside_misses() {
    let cube = cuboid(0.5, 0.5, 0.5);
    let pair = PolyPair::new(&cube, &at(0., 0., 0.), &cube, &at(3., 1.2, 0.));
    let out = sweep_test(&pair, &motion(Vec3::new(-6., 0., 0.)));
    assert!(!out.hit);
    assert_eq!(out.status, Status::Miss);
    // Too slow to arrive within t_max.
    let pair = PolyPair::new(&cube, &at(0., 0., 0.), &cube, &at(3., 0., 0.));
    let out = sweep_test(&pair, &motion(Vec3::new(-1.5, 0., 0.)));
    assert_eq!(out.status, Status::Miss);
}

#[test]
fn a_thin_wall_is_not_tunnelled() {
    // A fast cube crosses a 0.02-thick wall within one step: no overlap at t = 0 or 1,
    // but the sweep hits at t = (5 - 0.01 - 0.1) / 10 = 0.489.
    let wall = cuboid(0.01, 2.0, 2.0);
    let bullet = cuboid(0.1, 0.1, 0.1);
    let pair = PolyPair::new(&wall, &at(0., 0., 0.), &bullet, &at(5., 0.3, 0.));
    let out = sweep_test(&pair, &motion(Vec3::new(-10., 0., 0.)));
    assert!(out.hit);
    assert!(close(out.t_first.unwrap(), 0.489, 1e-5), "{out:?}");
    assert!(close(out.t_last.unwrap(), 0.511, 1e-5), "{out:?}");
    assert!(close_v(out.normal, Vec3::X, 1e-6));
}

#[test]
fn overlapping_at_the_start_reports_time_zero_and_sat_s_normal() {
    let slab = cuboid(1.0, 0.5, 1.0);
    let cube = cuboid(0.5, 0.5, 0.5);
    let pair = PolyPair::new(&slab, &at(0., 0., 0.), &cube, &at(0., 0.9, 0.));
    let out = sweep_test(&pair, &motion(Vec3::new(1., 0., 0.)));
    assert_eq!(out.status, Status::InitiallyOverlapping);
    assert_eq!(out.t_first, Some(0.0));
    assert_eq!(out.normal, Vec3::Y);
}

#[test]
fn nan_velocity_is_reported_not_panicked() {
    let cube = cuboid(0.5, 0.5, 0.5);
    let pair = PolyPair::new(&cube, &at(0., 0., 0.), &cube, &at(3., 0., 0.));
    let out = sweep_test(&pair, &motion(Vec3::new(f32::NAN, 0., 0.)));
    assert!(!out.hit);
}

#[test]
fn placed_vertex_projections_equal_the_support_search() {
    // Bodies of up to PLACED_CAPACITY vertices are projected from their placed vertices;
    // each recorded interval must equal the support search's (Placed3::project) to
    // rounding, on random hulls, poses and velocities (a 40-point hull takes the support
    // path).
    let mut f = uniform(0x005e_ed3d_u64);
    let hull = |n: usize, f: &mut dyn FnMut(f32, f32) -> f32| {
        let points = (0..n)
            .map(|_| {
                let d = Vec3::new(f(-1., 1.), f(-1., 1.), f(-1., 1.)).normalize_or(Vec3::Y);
                d * Vec3::new(1.0, 0.6, 1.2)
            })
            .collect();
        crate::geom3::Polyhedron::new(&crate::geom3::Shape3Kind::Hull { points }).unwrap()
    };
    let bodies = [
        cuboid(0.5, 0.3, 0.8),
        hull(12, &mut f),
        hull(30, &mut f),
        hull(40, &mut f),
    ];
    assert!(bodies[3].vertices().len() > PLACED_CAPACITY);
    let mut hits = 0;
    for k in 0..3000 {
        let (a, b) = (&bodies[k % 4], &bodies[(k / 4) % 4]);
        let turn = |f: &mut dyn FnMut(f32, f32) -> f32| {
            Vec3::new(f(-180., 180.), f(-180., 180.), f(-180., 180.))
        };
        let pose_a = at_deg(Vec3::new(f(-1e3, 1e3), f(-1e3, 1e3), 0.), turn(&mut f));
        let dir = Vec3::new(f(-1., 1.), f(-1., 1.), f(-1., 1.)).normalize_or(Vec3::X);
        let pose_b = at_deg(pose_a.position + dir * f(1., 6.), turn(&mut f));
        let m = Motion3 {
            velocity_a: Vec3::new(f(-1., 1.), f(-1., 1.), f(-1., 1.)),
            velocity_b: -dir * f(0., 12.),
            t_max: 1.0,
        };
        let pair = PolyPair::new(a, &pose_a, b, &pose_b);
        let mut steps = Vec::new();
        let out = sweep(&pair, &m, &mut steps);
        hits += out.hit as u32;
        for s in steps.iter().filter_map(Step::axis) {
            let shift = s.axis.dot(pair.origin);
            for (got, body) in [(s.interval_a, &pair.a), (s.interval_b, &pair.b)] {
                let want = body.project(s.axis).shifted(shift);
                let tol = 1e-6 * (1.0 + shift.abs());
                assert!(
                    close(got.min, want.min, tol) && close(got.max, want.max, tol),
                    "case {k}: {got:?} vs {want:?}"
                );
            }
        }
    }
    // Both outcomes occur.
    assert!(hits > 300 && hits < 2700, "{hits}");
}

/// The axis steps of a polyhedral sweep (all of its steps).
fn axes(steps: &[Step]) -> Vec<SweepAxis> {
    steps.iter().filter_map(Step::axis).copied().collect()
}

/// Whether two sweeps of one pair tell the same story: the same discrete answers
/// (status, axis, axes tested, and each recorded axis in the same order) and numbers
/// within 1e-5 of the pair's scale (world intervals: of the scale plus the distance
/// from the world origin, whose f32 rounding they carry; speeds: of the relative
/// velocity; times, a length over a speed: relative to the time and to the time the
/// scale and the velocity take at the axis's speed). An edge pair's axis is a
/// normalised cross product, whose rounding grows as the edges near parallel (up to
/// 1,000 times at `PARALLEL_TOLERANCE`): its tolerances grow with 1 / sin(angle).
fn same_story(
    pair: &PolyPair,
    motion: &Motion3,
    (out, steps): (&Output, &[SweepAxis]),
    (other, other_steps): (&Output, &[SweepAxis]),
) -> Result<(), String> {
    let scale = pair.scale();
    let v = (motion.velocity_b - motion.velocity_a).length();
    let conditioning = |id: AxisId| match id {
        AxisId::Edges(i, j) => {
            let dir = |body: &crate::query3::Placed3, e: u32| {
                let e = body.shape.edges()[e as usize];
                (body.vertex(e.head as usize) - body.vertex(e.tail as usize)).normalize()
            };
            1.0 / dir(&pair.a, i).cross(dir(&pair.b, j)).length()
        }
        _ => 1.0,
    };
    let length =
        |x: f32, y: f32, k: f32| (x - y).abs() <= 1e-5 * k * (scale + pair.origin.length());
    let time = |x: f32, y: f32, speed: f32, k: f32| {
        let slow = 1.0 + (scale + v * motion.t_max) / speed.abs().max(1e-30);
        x == y || (x - y).abs() <= 1e-5 * k * (motion.t_max + x.abs()) * slow
    };
    let discrete = |o: &Output| (o.hit, o.status, o.axes_tested);
    if discrete(out) != discrete(other) || steps.len() != other_steps.len() {
        return Err(format!("{out:?}\n{other:?}"));
    }
    // The winning axis must be the same, unless the two winners tie to rounding (the
    // same axis from two parallel edge pairs of a box, which one path computes exactly
    // equal and the other a few ulps apart) with the same rank.
    if out.axis != other.axis {
        let find = |steps: &[SweepAxis], id: AxisId| steps.iter().find(|s| s.id == id).copied();
        let tied = |steps: &[SweepAxis]| match (find(steps, out.axis), find(steps, other.axis)) {
            (Some(x), Some(y)) => {
                rank(x.id, x.speed) == rank(y.id, y.speed)
                    && time(x.t_enter, y.t_enter, x.speed, conditioning(x.id))
            }
            _ => false,
        };
        if !(tied(steps) && tied(other_steps)) {
            return Err(format!("axis: {out:?}\n{other:?}"));
        }
    }
    let speed = steps
        .iter()
        .find(|s| s.id == out.axis)
        .map_or(1.0, |s| s.speed);
    let k = conditioning(out.axis);
    let times = [(out.t_first, other.t_first), (out.t_last, other.t_last)];
    for (x, y) in times {
        if x.is_some() != y.is_some() || !time(x.unwrap_or(0.), y.unwrap_or(0.), speed, k) {
            return Err(format!("times: {out:?}\n{other:?}"));
        }
    }
    if (out.normal - other.normal).length() > 1e-5 * k {
        return Err(format!("normal: {out:?}\n{other:?}"));
    }
    for (s, t) in steps.iter().zip(other_steps) {
        let k = conditioning(s.id);
        let same = s.id == t.id
            && (s.axis - t.axis).length() <= 1e-5 * k
            && length(s.interval_a.min, t.interval_a.min, k)
            && length(s.interval_a.max, t.interval_a.max, k)
            && length(s.interval_b.min, t.interval_b.min, k)
            && length(s.interval_b.max, t.interval_b.max, k)
            && (s.speed - t.speed).abs() <= 1e-5 * k * v
            && time(s.t_enter, t.t_enter, s.speed, k)
            && time(s.t_exit, t.t_exit, s.speed, k);
        if !same {
            return Err(format!("step: {s:?}\n{t:?}"));
        }
    }
    Ok(())
}

#[test]
fn the_reference_in_a_s_frame_tells_the_work_frame_s_story() {
    // The reference sweeps small bodies in A's frame (B turned into it, face extents along
    // a body's own normals, edge extremes read off the edges) and others in the work
    // frame: on the same pair the two frames must give the very axes, in the same order,
    // with the same winning axis and status, and numbers within 1e-5 of the pair's scale,
    // on random hulls (cuboids, 6 to 32 points, and a 40-point hull that only the work
    // frame takes), poses and velocities.
    let mut f = uniform(0x5eed_0f3d_u64);
    let hull = |n: usize, f: &mut dyn FnMut(f32, f32) -> f32| {
        let points = (0..n)
            .map(|_| {
                let d = Vec3::new(f(-1., 1.), f(-1., 1.), f(-1., 1.)).normalize_or(Vec3::Y);
                d * Vec3::new(f(0.3, 1.5), f(0.3, 1.5), f(0.3, 1.5))
            })
            .collect();
        crate::geom3::Polyhedron::new(&crate::geom3::Shape3Kind::Hull { points }).unwrap()
    };
    let bodies = [
        cuboid(0.5, 0.3, 0.8),
        hull(6, &mut f),
        hull(12, &mut f),
        hull(20, &mut f),
        hull(32, &mut f),
        hull(40, &mut f),
    ];
    let mut small_cases = 0;
    for k in 0..4000 {
        let (a, b) = (&bodies[k % 6], &bodies[(k / 6) % 6]);
        let turn = |f: &mut dyn FnMut(f32, f32) -> f32| {
            Vec3::new(f(-180., 180.), f(-180., 180.), f(-180., 180.))
        };
        let pose_a = at_deg(Vec3::new(f(-1e4, 1e4), f(-1e4, 1e4), 0.), turn(&mut f));
        let dir = Vec3::new(f(-1., 1.), f(-1., 1.), f(-1., 1.)).normalize_or(Vec3::X);
        let pose_b = at_deg(pose_a.position + dir * f(0.5, 6.), turn(&mut f));
        let m = Motion3 {
            velocity_a: Vec3::new(f(-1., 1.), f(-1., 1.), f(-1., 1.)),
            velocity_b: -dir * f(0., 12.),
            t_max: 1.0,
        };
        let pair = PolyPair::new(a, &pose_a, b, &pose_b);
        let (mut fast, mut general) = (Vec::new(), Vec::new());
        let out_fast = reference::time_of_impact(&pair, &m, &mut fast);
        let v = m.velocity_b - m.velocity_a;
        let work = WorkFrame::new(&pair, v);
        let out_general = reference::time_of_impact_in(&work, &pair, &m, &mut general);
        let (fast, general) = (axes(&fast), axes(&general));
        if let Err(e) = same_story(&pair, &m, (&out_fast, &fast), (&out_general, &general)) {
            if std::env::var("T3T_DEBUG").is_ok() {
                for (x, y) in fast.iter().zip(&general) {
                    eprintln!("{x:?}\n{y:?}\n");
                }
            }
            panic!("case {k}: {e}");
        }
        small_cases += Placement::new(&pair, v).is_some() as u32;
    }
    assert!(small_cases > 2000, "{small_cases}");
}

/// Moving pairs for the test of the small-body path's prunings: random hulls of 8 to 32
/// points, boxes and a hexagonal prism (parallel edges, equal faces) at scales 1, 1e-3
/// and 1e3; a third of them tied (quarter turns plus 0, +-1e-6 or 1e-4 degrees, grid
/// offsets, velocities along the offset, face to face for boxes, or along one axis);
/// velocities sometimes zero or tiny along z, a NaN every 997th case; t_max 0, 1e-3,
/// 1e3 or 1; A still or moving; origins up to 1e4.
fn for_each_moving_pair(count: usize, mut visit: impl FnMut(usize, &PolyPair, &Motion3)) {
    let mut f = uniform(0x0b5e_55ed_u64);
    let hull = |n: usize, s: f32, f: &mut dyn FnMut(f32, f32) -> f32| {
        let radii = Vec3::new(f(0.3, 1.5), f(0.3, 1.5), f(0.3, 1.5)) * s;
        let points = (0..n)
            .map(|_| {
                let d = Vec3::new(f(-1., 1.), f(-1., 1.), f(-1., 1.)).normalize_or(Vec3::Y);
                d * radii
            })
            .collect();
        crate::geom3::Polyhedron::new(&crate::geom3::Shape3Kind::Hull { points }).unwrap()
    };
    let prism = |s: f32, f: &mut dyn FnMut(f32, f32) -> f32| {
        let (h, r) = (f(0.2, 1.0) * s, f(0.3, 1.0) * s);
        let points = (0..6)
            .flat_map(|k| {
                let a = k as f32 * std::f32::consts::FRAC_PI_3;
                [-h, h].map(|y| Vec3::new(r * a.cos(), y, r * a.sin()))
            })
            .collect();
        crate::geom3::Polyhedron::new(&crate::geom3::Shape3Kind::Hull { points }).unwrap()
    };
    // Eight bodies at each of three scales; a pair takes both from one scale.
    let scales = [1.0, 1e-3, 1e3];
    let bodies: Vec<_> = scales
        .iter()
        .flat_map(|&s| {
            [
                cuboid(0.5 * s, 0.5 * s, 0.5 * s),
                cuboid(0.5 * s, 0.3 * s, 0.8 * s),
                prism(s, &mut f),
                hull(8, s, &mut f),
                hull(12, s, &mut f),
                hull(12, s, &mut f),
                hull(20, s, &mut f),
                hull(32, s, &mut f),
            ]
        })
        .collect();
    for k in 0..count {
        let group = (k / 64) % 3;
        let scale = scales[group];
        let (a, b) = (&bodies[8 * group + k % 8], &bodies[8 * group + (k / 8) % 8]);
        let tied = k % 3 == 0;
        let turn = |f: &mut dyn FnMut(f32, f32) -> f32| {
            if tied {
                let mut quarter = || {
                    let hair = [0.0, 0.0, 1e-6, -1e-6, 1e-4][(f(0., 5.) as usize).min(4)];
                    (f(0., 4.).floor() * 90.0) - 180.0 + hair
                };
                Vec3::new(quarter(), quarter(), quarter())
            } else {
                Vec3::new(f(-180., 180.), f(-180., 180.), f(-180., 180.))
            }
        };
        let origin = if k % 5 == 0 {
            Vec3::new(f(-1e4, 1e4), f(-1e4, 1e4), 0.)
        } else {
            Vec3::ZERO
        };
        let pose_a = at_deg(origin, turn(&mut f));
        let offset = if tied {
            let mut grid = || (f(-3., 3.) * 2.0).round() * 0.5;
            let o = Vec3::new(grid(), grid(), grid());
            if o == Vec3::ZERO {
                Vec3::new(0., 1., 0.)
            } else {
                o
            }
        } else {
            Vec3::new(f(-1., 1.), f(-1., 1.), f(-1., 1.)).normalize_or(Vec3::X) * f(0.5, 6.)
        };
        let pose_b = at_deg(origin + offset * scale, turn(&mut f));
        let mut velocity = if tied {
            // Along the offset (face to face on a grid axis), or along one axis.
            match k % 4 {
                0 => -offset * f(0.5, 4.),
                1 => Vec3::new(-offset.x.signum() * f(0., 6.), 0., 0.),
                2 => -offset * 2.0 + Vec3::new(0., 1e-7, 0.),
                _ => Vec3::ZERO.with_y(-offset.y * 3.0),
            }
        } else {
            -offset * f(0., 3.) + Vec3::new(f(-1., 1.), f(-1., 1.), f(-1., 1.))
        };
        if k % 7 == 0 {
            velocity.z = [0.0, 1e-9, -1e-12, 1e-30][(k / 7) % 4];
        }
        if k % 997 == 0 {
            velocity.x = f32::NAN;
        }
        let t_max = match k % 11 {
            0 => 0.0,
            1 => 1e-3,
            2 => 1e3,
            _ => 1.0,
        };
        let m = Motion3 {
            velocity_a: if k % 2 == 0 {
                Vec3::ZERO
            } else {
                Vec3::new(f(-1., 1.), 0., f(-1., 1.)) * scale
            },
            velocity_b: velocity * scale,
            t_max,
        };
        let pair = PolyPair::new(a, &pose_a, b, &pose_b);
        visit(k, &pair, &m);
    }
}

#[test]
fn each_pruning_of_the_small_body_path_prunes() {
    // The untraced small-body path skips the projections of an edge axis that its
    // witnesses prove cannot change the latest entry or the earliest exit, the offers of a
    // group of four face axes none of which can, and whole edges of A none of whose axes
    // can (the bound over whole arcs): on the moving pairs below each pruning must leave
    // out many axes, and without the bound over whole arcs no edge is left out whole.
    // (That each gives the reference's answer to the bit, with and without the bound, in
    // every build and width, is the agreement harness's, `src/agreement.rs`.)
    let (mut small, mut faces, mut edges, mut arcs) = (0, 0u64, 0u64, 0u64);
    for_each_moving_pair(6000, |k, pair, m| {
        let (_, pruned) = time_of_impact_untraced(pair, m, Variant::Default);
        let (_, unbounded) = time_of_impact_untraced(pair, m, Variant::NoArcBound);
        assert_eq!(unbounded.arcs, 0, "case {k}");
        (faces, edges, arcs) = (
            faces + pruned.faces as u64,
            edges + pruned.edges as u64,
            arcs + pruned.arcs as u64,
        );
        small += Placement::new(pair, m.velocity_b - m.velocity_a).is_some() as u32;
    });
    eprintln!("{small} small-body pairs: {faces} face axes, {edges} edge axes, {arcs} arcs");
    assert!(small > 3_500, "{small}");
    assert!(edges > 40_000, "{edges}");
    assert!(faces > 40_000, "{faces}");
    assert!(arcs > 12_000, "{arcs}");
}

#[cfg(target_arch = "x86_64")]
#[test]
fn face_extents_in_eight_lanes_take_the_four_lanes_bits_on_zeros_and_nans() {
    // The face axes' scan keeps the running extreme as the first operand of each
    // compare, where zeros of both signs and NaNs make the operand order visible (the
    // sweep itself meets no NaN there, its placements being bounded):
    // vertices and normals drawn from signed zeros, small integers, infinities and a
    // NaN (products and sums of zeros give zeros of both signs), one to eight groups.
    let Some(avx) = Avx::detect() else {
        return;
    };
    let values = [0.0f32, -0.0, 1.0, -1.0, 0.5, f32::INFINITY, f32::NAN, 2.0];
    let mut state = 0x2545_f491_u32;
    let mut pick = |n: usize| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        values[state as usize % n]
    };
    // A NaN's sign and payload are not compared: when two NaNs meet in a sum or a
    // product, which one comes out depends on the order the compiler gives the
    // operands of that commutative operation, in either build. Whether a lane is a
    // NaN is compared, and the compares' order shows in which number they keep.
    let bits = |(low, high): (Four, Four)| {
        [low, high].map(|v| {
            v.to_array().map(|x| {
                if x.is_nan() {
                    f32::NAN.to_bits()
                } else {
                    x.to_bits()
                }
            })
        })
    };
    for case in 0..20000 {
        // Most cases finite, zeros of both signs common.
        let n = if case % 4 == 0 { 8 } else { 5 };
        let groups: Vec<[[f32; 4]; 3]> = (0..1 + case % 8)
            .map(|_| std::array::from_fn(|_| std::array::from_fn(|_| pick(n))))
            .collect();
        let normals: [[f32; 4]; 3] = std::array::from_fn(|_| std::array::from_fn(|_| pick(4)));
        assert_eq!(
            bits(Eight::extents_on_four_normals(avx, &groups, &normals)),
            bits(Four::extents_on_four_normals((), &groups, &normals)),
            "case {case}: {groups:?} {normals:?}"
        );
    }
}
