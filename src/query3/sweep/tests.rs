use super::edge_pairs::{EdgeA, EdgeB, EdgePairLanes, SideValues};
use super::placed::PLACED_CAPACITY;
use super::reference::{self, rank, WorkFrame, SMALL_FEATURES};
use super::small::{LocalPair, Placement, TurnedB};
use super::*;
use crate::query3::manifold::FeaturePair;
use crate::query3::sat::PARALLEL_TOLERANCE;
use crate::query3::testing::*;
use crate::simd::Four;
#[cfg(target_arch = "x86_64")]
use crate::simd::{Avx, Eight};
use crate::simd::{EightLanes, Lanes};
use glam::Vec3A;
use std::mem::MaybeUninit;

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
fn placed_vertex_projections_equal_the_support_search_and_traced_equals_untraced() {
    // Bodies of up to PLACED_CAPACITY vertices are projected from their placed vertices;
    // each recorded interval must equal the support search's (Placed3::project) to
    // rounding, and the traced sweep must equal the untraced one bit for bit, on random
    // hulls, poses and velocities (a 40-point hull takes the support path).
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
        assert_eq!(out, counted_as(sweep_test(&pair, &m), &out), "case {k}");
        hits += out.hit as u32;
        for s in &steps {
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
    // frame takes), poses and velocities. The untraced sweep (the fast path where it
    // applies) must give the reference's answer bit for bit.
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
        if let Err(e) = same_story(&pair, &m, (&out_fast, &fast), (&out_general, &general)) {
            if std::env::var("T3T_DEBUG").is_ok() {
                for (x, y) in fast.iter().zip(&general) {
                    eprintln!("{x:?}\n{y:?}\n");
                }
            }
            panic!("case {k}: {e}");
        }
        assert_eq!(
            out_fast,
            counted_as(time_of_impact(&pair, &m, &mut ()), &out_fast),
            "case {k}"
        );
        small_cases += Placement::new(&pair, v).is_some() as u32;
    }
    assert!(small_cases > 2000, "{small_cases}");
}

#[test]
fn near_aligned_boxes_test_the_edge_pairs_sat_s_own_test_passes() {
    // Forced ties: cuboids turned by multiples of 90 degrees (or a hair off), on a grid
    // of half units, so faces touch, edges are parallel and boxes are equal. Turned
    // normals then carry components of rounding size, whose Gauss-map products can be
    // tiny or round to zero. In A's frame, the small path's edge axes (sign bits, then
    // Gregorius's products, the parallel test and the orientation, in lanes) must be
    // exactly those the reference records (`sat::edge_pair_axis` on B's turned features),
    // in the same order, and the untraced answer the reference's.
    let mut f = uniform(0x0a11_9eed_u64);
    let boxes = [
        cuboid(0.5, 0.5, 0.5),
        cuboid(0.5, 0.3, 0.8),
        cuboid(1.0, 0.5, 1.0),
    ];
    let mut edge_axes = 0;
    for k in 0..3000 {
        let (a, b) = (&boxes[k % 3], &boxes[(k / 3) % 3]);
        let mut turn = || {
            let quarter = (f(0., 4.).floor() * 90.0) - 180.0;
            let hair = if f(0., 1.) < 0.5 { 0.0 } else { f(-1e-4, 1e-4) };
            quarter + hair
        };
        let rot_a = Vec3::new(turn(), turn(), turn());
        let rot_b = Vec3::new(turn(), turn(), turn());
        let mut grid = || (f(-4., 4.) * 2.0).round() * 0.5;
        let offset = Vec3::new(grid(), grid(), grid());
        let pose_a = at_deg(Vec3::new(grid(), grid(), 0.), rot_a);
        let pose_b = at_deg(pose_a.position + offset, rot_b);
        let m = motion(Vec3::new(grid(), grid(), grid()) * 2.0 - offset);
        let pair = PolyPair::new(a, &pose_a, b, &pose_b);
        let want: Vec<_> = lane_edge_axes(&pair, &m)
            .expect("small bodies")
            .into_iter()
            .map(|(id, axis)| (id, Vec3::from(pair.a.frame * Vec3A::from(axis))))
            .collect();
        let mut steps = Vec::new();
        let out = time_of_impact(&pair, &m, &mut steps);
        assert_eq!(
            out,
            counted_as(time_of_impact(&pair, &m, &mut ()), &out),
            "case {k}"
        );
        let got: Vec<_> = steps
            .iter()
            .filter(|s| matches!(s.id, AxisId::Edges(..)))
            .map(|s| (s.id, s.axis))
            .collect();
        assert_eq!(got, want, "case {k}");
        edge_axes += got.len();
    }
    assert!(edge_axes > 3000, "{edge_axes}");
}

/// The edge axes the small-body path finds, in A's frame and in its order, as it would
/// offer them with no pruning: the sign bits of `face_sides` and `crossing_arcs`, then
/// Gregorius's products, the parallel test and the orientation of
/// [`EdgePairLanes::numbers`] (four lanes, one pair at a time). `None` for a pair the
/// reference sweeps in the work frame.
fn lane_edge_axes(pair: &PolyPair, m: &Motion3) -> Option<Vec<(AxisId, Vec3)>> {
    let placement = Placement::new(pair, m.velocity_b - m.velocity_a)?;
    let mut turned_b = TurnedB::new();
    let local = LocalPair::new(pair, placement, &mut turned_b);
    let (a, b) = (pair.a.shape, pair.b.shape);
    let (lanes_a, lanes_b) = (local.lanes_a, local.lanes_b);
    let mut signs = vec![0u64; a.face_count()];
    let mut side_values: SideValues =
        [const { [const { MaybeUninit::uninit() }; SMALL_FEATURES] }; SMALL_FEATURES];
    local.face_sides(None, u64::MAX, &mut signs, &mut side_values);
    let mut normal_sides = [0.0f32; SMALL_FEATURES];
    let still = STILL_SPEED * pair.scale();
    let mut found = Vec::new();
    for (i, ea) in a.edges().iter().enumerate() {
        let faces = [ea.faces[0] as usize, ea.faces[1] as usize];
        let arc = a.edge_arc(i)[2];
        let mut mask = local.crossing_arcs(None, arc, faces, &signs, &mut normal_sides);
        let edge_a = EdgeA {
            index: i as u32,
            tail: a.vertex(ea.tail as usize),
            head: a.vertex(ea.head as usize),
            far: a.vertex(lanes_a.face_antipodes[faces[0]] as usize),
        };
        while mask != 0 {
            let j = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let eb = &b.edges()[j];
            // SAFETY: `face_sides` wrote every face's edges.
            let side = |f: usize| unsafe { side_values[f][j].assume_init() };
            let sides = [
                normal_sides[eb.faces[0] as usize],
                normal_sides[eb.faces[1] as usize],
                side(faces[0]),
                side(faces[1]),
            ];
            let edge_b = EdgeB {
                index: j as u32,
                tail: local.vertex_b(eb.tail as usize),
                head: local.vertex_b(eb.head as usize),
                far: local.vertex_b(lanes_b.face_antipodes[eb.faces[0] as usize] as usize),
            };
            let mut pairs = EdgePairLanes::new();
            pairs.push(&edge_a, &edge_b, sides);
            let n =
                pairs.numbers::<Four>((), a.centroid(), local.translation, local.velocity, still);
            if n.axes & 1 != 0 {
                let axis = Vec3::new(n.axis[0][0], n.axis[1][0], n.axis[2][0]);
                found.push((AxisId::Edges(i as u32, j as u32), axis));
            }
        }
    }
    Some(found)
}

/// Gregorius's test of `sat::arcs_cross` on its four numbers, the same products: arcs
/// `a-b` (A's edge) and `c-d` (B's, negated) cross when c and d lie on opposite sides of
/// plane `b x a` (`cba dba < 0`), a and b on opposite sides of plane `d x c`
/// (`adc bdc < 0`), and the arcs lie in the same hemisphere (`cba bdc > 0`).
/// (Everything is finite here, so `x < 0` is `arcs_cross`'s `!(x >= 0)`.)
/// [`EdgePairLanes::numbers`] takes the same products lane by lane; this scalar statement
/// is the tests' reference.
fn gauss_map_crossing(cba: f32, dba: f32, adc: f32, bdc: f32) -> bool {
    cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0
}

/// SAT's edge axis as `sat::edge_pair_axis` computes it, without its Gauss-map test and
/// separation, one pair at a time (the scalar arithmetic [`EdgePairLanes::numbers`]
/// takes lane by lane): `dir_a x dir_b` normalised and turned away from A's centroid,
/// `None` when the edges are parallel (`|cross| < tol |dir_a| |dir_b|`, or a NaN).
fn scalar_edge_axis(tail: Vec3, head: Vec3, centroid: Vec3, dir_b: Vec3) -> Option<Vec3> {
    let dir = head - tail;
    let cross = dir.cross(dir_b);
    let crosses = cross.length_squared()
        >= (PARALLEL_TOLERANCE * PARALLEL_TOLERANCE)
            * dir.length_squared()
            * dir_b.length_squared();
    if !crosses {
        return None;
    }
    let axis = cross.normalize();
    Some(if axis.dot(tail - centroid) < 0.0 {
        -axis
    } else {
        axis
    })
}

#[test]
fn edge_pairs_in_lanes_take_the_scalar_numbers_bit_for_bit() {
    // The small-body path computes an edge pair's Gauss-map decision, axis, facing
    // extremes, shift, speed and witness bounds four pairs at a time, or eight where
    // the processor has AVX. Each lane must be the scalar computation's bits (the
    // steps and the skips depend on them): on random and tied pairs, every edge pair of
    // A and B in A's frame, gathered in varying groupings of up to eight, against
    // `gauss_map_crossing`, `scalar_edge_axis` and the scalar dot products (groups of
    // up to four on both lane types).
    let mut compared = 0usize;
    for_each_moving_pair(3000, |k, pair, m| {
        let Some(placement) = Placement::new(pair, m.velocity_b - m.velocity_a) else {
            return;
        };
        let mut turned_b = TurnedB::new();
        let local = LocalPair::new(pair, placement, &mut turned_b);
        let (a, b) = (pair.a.shape, pair.b.shape);
        let (lanes_a, lanes_b) = (local.lanes_a, local.lanes_b);
        let mut signs = vec![0u64; a.face_count()];
        let mut side_values: SideValues =
            [const { [const { MaybeUninit::uninit() }; SMALL_FEATURES] }; SMALL_FEATURES];
        local.face_sides(None, u64::MAX, &mut signs, &mut side_values);
        let mut normal_sides = [0.0f32; SMALL_FEATURES];
        let still = STILL_SPEED * pair.scale();
        let mut pairs = EdgePairLanes::new();
        let mut expected = Vec::new();
        #[cfg(target_arch = "x86_64")]
        let avx = Avx::detect();
        #[cfg(not(target_arch = "x86_64"))]
        let avx: Option<()> = None;
        let numbers_of = |pairs: &EdgePairLanes| {
            let mut all = Vec::new();
            let (centroid, t, v) = (a.centroid(), local.translation, local.velocity);
            if pairs.len <= 4 {
                all.push(pairs.numbers::<Four>((), centroid, t, v, still));
            }
            #[cfg(target_arch = "x86_64")]
            if let Some(avx) = avx {
                all.push(pairs.numbers::<Eight>(avx, centroid, t, v, still));
            }
            all
        };
        let mut check = |pairs: &EdgePairLanes, expected: &mut Vec<_>| {
            for numbers in numbers_of(pairs) {
                for (lane, want) in expected.iter().enumerate() {
                    let &(passes, bits): &(bool, Option<[u32; 11]>) = want;
                    let got_passes = numbers.axes & (1 << lane) != 0;
                    assert_eq!(got_passes, passes, "case {k} lane {lane}");
                    let Some(bits) = bits else { continue };
                    let lane_bits = [
                        numbers.axis[0][lane],
                        numbers.axis[1][lane],
                        numbers.axis[2][lane],
                        numbers.near_a[lane],
                        numbers.near_b[lane],
                        numbers.shift[lane],
                        numbers.speed[lane],
                        numbers.enter[lane],
                        numbers.exit[lane],
                        (numbers.moving & (1 << lane) != 0) as u32 as f32,
                        0.0,
                    ]
                    .map(f32::to_bits);
                    assert_eq!(lane_bits, bits, "case {k} lane {lane}");
                    compared += 1;
                }
            }
            expected.clear();
        };
        let group = 1 + k % if avx.is_some() { 8 } else { 4 };
        for (i, ea) in a.edges().iter().enumerate() {
            let faces = [ea.faces[0] as usize, ea.faces[1] as usize];
            let arc = a.edge_arc(i)[2];
            local.crossing_arcs(None, arc, faces, &signs, &mut normal_sides);
            let edge_a = EdgeA {
                index: i as u32,
                tail: a.vertex(ea.tail as usize),
                head: a.vertex(ea.head as usize),
                far: a.vertex(lanes_a.face_antipodes[faces[0]] as usize),
            };
            for (j, eb) in b.edges().iter().enumerate() {
                let normal_side = |f: u32| normal_sides[f as usize];
                // SAFETY: `face_sides` wrote every face's edges.
                let side = |f: usize| unsafe { side_values[f][j].assume_init() };
                let sides = [
                    normal_side(eb.faces[0]),
                    normal_side(eb.faces[1]),
                    side(faces[0]),
                    side(faces[1]),
                ];
                let edge_b = EdgeB {
                    index: j as u32,
                    tail: local.vertex_b(eb.tail as usize),
                    head: local.vertex_b(eb.head as usize),
                    far: local.vertex_b(lanes_b.face_antipodes[eb.faces[0] as usize] as usize),
                };
                let crossing = gauss_map_crossing(-sides[0], -sides[1], sides[2], sides[3]);
                let axis = scalar_edge_axis(
                    edge_a.tail,
                    edge_a.head,
                    a.centroid(),
                    edge_b.head - edge_b.tail,
                );
                let bits = axis.map(|axis| {
                    let shift = axis.dot(local.translation);
                    let (near_a, near_b) = (axis.dot(edge_a.tail), axis.dot(edge_b.tail));
                    let speed = local.velocity.dot(axis);
                    let far_a = axis.dot(edge_a.far);
                    let far_b = axis.dot(edge_b.far) + shift;
                    let (closing, opening) = (near_a - (near_b + shift), far_a - far_b);
                    let approaching = speed < 0.0;
                    let enter = if approaching { closing } else { opening } / speed;
                    let exit = if approaching { opening } else { closing } / speed;
                    let moving = speed.abs() > still;
                    [
                        axis.x,
                        axis.y,
                        axis.z,
                        near_a,
                        near_b,
                        shift,
                        speed,
                        enter,
                        exit,
                        moving as u32 as f32,
                        0.0,
                    ]
                    .map(f32::to_bits)
                });
                pairs.push(&edge_a, &edge_b, sides);
                expected.push((crossing && axis.is_some(), bits));
                if pairs.len == group {
                    check(&pairs, &mut expected);
                    pairs.len = 0;
                }
            }
        }
        check(&pairs, &mut expected);
    });
    assert!(compared > 500_000, "{compared}");
}

/// The answer's bits: every float by its bit pattern (a NaN, a zero's sign and all).
/// An untraced output with the traced run's count of axes, after checking that it
/// tested no more of them (untraced, whole arcs may be left out: `arc_bound`).
fn counted_as(untraced: Output, traced: &Output) -> Output {
    assert!(
        untraced.axes_tested <= traced.axes_tested,
        "{untraced:?} tested more axes than {traced:?}"
    );
    Output {
        axes_tested: traced.axes_tested,
        ..untraced
    }
}

fn output_bits(out: &Output) -> impl PartialEq + std::fmt::Debug {
    let time = |t: Option<f32>| t.map(f32::to_bits);
    (
        (out.hit, out.status, out.axis, out.axes_tested),
        (time(out.t_first), time(out.t_last)),
        out.normal.to_array().map(f32::to_bits),
        out.manifold.is_some(),
    )
}

/// Moving pairs for the guard tests of the small-body path: random hulls of 8 to 32
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
fn witness_pruning_leaves_the_answer_bit_for_bit() {
    // The untraced small-body path (the fast path) skips the projections of an edge axis
    // that its witnesses prove cannot change the latest entry or the earliest exit, the
    // offers of a group of four face axes none of which can, and whole edges of A none of
    // whose axes can; the reference (the traced path) tests and offers every axis in full.
    // Their answers must agree to the bit on random hulls, poses and velocities and on
    // forced ties: equal boxes face to face moving along a face normal, quarter turns and
    // turns of 1e-6 degrees, grid offsets, velocities along an axis or zero or tiny along
    // some axes, t_max 0 and 1e-3, huge and small scales, a NaN velocity. Without the
    // bound over whole arcs the fast path counts every axis, as the reference does.
    let mut checked = 0;
    let (mut faces, mut edges, mut arcs) = (0u64, 0u64, 0u64);
    for_each_moving_pair(24000, |k, pair, m| {
        let mut steps = Vec::new();
        let full = time_of_impact(pair, m, &mut steps);
        let (fast, pruned) = time_of_impact_untraced(pair, m, Variant::Default);
        assert_eq!(
            output_bits(&counted_as(fast, &full)),
            output_bits(&full),
            "case {k}: {fast:?} vs {full:?}"
        );
        assert_eq!(steps.len() as u32, full.axes_tested, "case {k}");
        let (whole, unbounded) = time_of_impact_untraced(pair, m, Variant::NoArcBound);
        assert_eq!(output_bits(&whole), output_bits(&full), "case {k}");
        assert_eq!(unbounded.arcs, 0, "case {k}");
        (faces, edges, arcs) = (
            faces + pruned.faces as u64,
            edges + pruned.edges as u64,
            arcs + pruned.arcs as u64,
        );
        checked += Placement::new(pair, m.velocity_b - m.velocity_a).is_some() as u32;
    });
    assert!(checked > 15000, "{checked}");
    assert!(edges > 100_000, "{edges}");
    assert!(faces > 100_000, "{faces}");
    assert!(arcs > 100_000, "{arcs}");
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

/// Case `k`'s untraced sweep as it runs by default, then in `variant`: the same output
/// bits, and the same axes pruned.
fn untraced_the_same_in(variant: Variant, k: usize, pair: &PolyPair, m: &Motion3) {
    let (usual, pruned) = time_of_impact_untraced(pair, m, Variant::Default);
    let (other, pruned_other) = time_of_impact_untraced(pair, m, variant);
    assert_eq!(
        output_bits(&usual),
        output_bits(&other),
        "case {k}: {usual:?} vs {other:?}"
    );
    assert_eq!(pruned, pruned_other, "case {k}");
}

#[cfg(target_arch = "x86_64")]
#[test]
fn the_avx_build_gives_the_baseline_builds_bits() {
    // Untraced, where the processor has AVX, the small-body path runs as compiled for
    // it (and eight lanes at a time); `Variant::Baseline` runs the same source as
    // compiled for the x86_64 baseline, as a processor without AVX does. The two must
    // give the same bits, with the same prunings, on random and tied pairs.
    if Avx::detect().is_none() {
        return;
    }
    let mut compared = 0;
    for_each_moving_pair(12000, |k, pair, m| {
        untraced_the_same_in(Variant::Baseline, k, pair, m);
        compared += 1;
    });
    assert_eq!(compared, 12000);
}

#[test]
fn eight_lanes_give_the_four_lanes_bits() {
    // Where the processor has AVX, the untraced small-body path takes its Gauss-map
    // loops (`face_sides`, `crossing_arcs`) and its edge pairs (`EdgePairLanes`) eight
    // lanes at a time; `Variant::FourLanes` takes four. On random and tied pairs the two
    // must give the same bits: `face_sides`' sign words and values, `crossing_arcs`'
    // candidates and values for every edge of A, the untraced answer and the axes
    // pruned.
    let Some(avx) = Avx::detect() else {
        return;
    };
    let mut compared = 0;
    for_each_moving_pair(24000, |k, pair, m| {
        untraced_the_same_in(Variant::FourLanes, k, pair, m);
        let Some(placement) = Placement::new(pair, m.velocity_b - m.velocity_a) else {
            return;
        };
        let mut turned_b = TurnedB::new();
        let local = LocalPair::new(pair, placement, &mut turned_b);
        let a = pair.a.shape;
        let faces_a = a.face_count();
        let sides_by = |lanes: EightLanes| {
            let mut signs = vec![0u64; faces_a];
            let mut values: SideValues =
                [const { [const { MaybeUninit::uninit() }; SMALL_FEATURES] }; SMALL_FEATURES];
            local.face_sides(lanes, u64::MAX, &mut signs, &mut values);
            // SAFETY: `face_sides` wrote every edge of every group of B's for each face.
            let values: Vec<Vec<u32>> = values[..faces_a]
                .iter()
                .map(|row| {
                    let row = &row[..4 * local.b.planes.len];
                    row.iter()
                        .map(|v| unsafe { v.assume_init() }.to_bits())
                        .collect()
                })
                .collect();
            (signs, values)
        };
        let (signs, values) = sides_by(Some(avx));
        assert_eq!(
            (&signs, &values),
            (&sides_by(None).0, &sides_by(None).1),
            "case {k}"
        );
        for (i, ea) in a.edges().iter().enumerate() {
            let faces = [ea.faces[0] as usize, ea.faces[1] as usize];
            let arc = a.edge_arc(i)[2];
            let crossing_by = |lanes: EightLanes| {
                let mut sides = [0.0f32; SMALL_FEATURES];
                let mask = local.crossing_arcs(lanes, arc, faces, &signs, &mut sides);
                let sides = &sides[..4 * local.b.normals.len];
                (mask, sides.iter().map(|v| v.to_bits()).collect::<Vec<_>>())
            };
            assert_eq!(
                crossing_by(Some(avx)),
                crossing_by(None),
                "case {k} edge {i}"
            );
        }
        // The face axes' projections, four normals at a time.
        let bits = |(low, high): (Four, Four)| [low, high].map(|v| v.to_array().map(f32::to_bits));
        let (vertices_a, vertices_b) = (a.vertex_lanes(), local.b.vertices.as_slice());
        for rows in &local.lanes_a.normals {
            assert_eq!(
                bits(Eight::extents_on_four_normals(avx, vertices_b, rows)),
                bits(Four::extents_on_four_normals((), vertices_b, rows)),
                "case {k}"
            );
        }
        for g in 0..local.b.normals.len {
            let rows = &local.b.normals.group(g);
            assert_eq!(
                bits(Eight::extents_on_four_normals(avx, vertices_a, rows)),
                bits(Four::extents_on_four_normals((), vertices_a, rows)),
                "case {k}"
            );
        }
        compared += 1;
    });
    assert!(compared > 15000, "{compared}");
}

#[test]
fn gauss_map_by_face_signs_takes_the_pairs_the_lane_numbers_take() {
    // The small-body path finds the crossing arcs by sign bits (B's face normals
    // against A's arc taken once per face and spread to B's edges by a table) and
    // decides each candidate by Gregorius's products of `cba = -(n . arc)`; the
    // reference runs `sat::edge_pair_axis` on B's features turned into A's frame, whose
    // numbers differ from the lanes' at most in a zero's sign. The expectation here
    // computes, for every edge pair, the numbers the lanes compute (B's arcs turned by
    // the negated rotation, `plane = d x c`, `cba = c . arc`), with the same products in
    // the same order, and takes the pairs whose products pass and whose edges are not
    // parallel: the reference's recorded edge axes and the lanes' must be exactly those,
    // in that order, on random and tied pairs (quarter turns give exact zeros, and zeros
    // of both signs).
    let mut cases = 0;
    let mut pairs = 0usize;
    for_each_moving_pair(12000, |k, pair, m| {
        let Some(Placement { rotation, .. }) = Placement::new(pair, m.velocity_b - m.velocity_a)
        else {
            return;
        };
        cases += 1;
        let (a, b) = (pair.a.shape, pair.b.shape);
        let rows = [0, 1, 2].map(|r| Vec3::from(rotation.row(r)));
        // `turned`: row r of the matrix against the vector, `x p + y q + z r`.
        let turn = |v: Vec3, sign: f32| {
            Vec3::new(
                v.dot(rows[0] * sign),
                v.dot(rows[1] * sign),
                v.dot(rows[2] * sign),
            )
        };
        let mut expected = Vec::new();
        for (i, ea) in a.edges().iter().enumerate() {
            let [n0, n1, arc] = a.edge_arc(i);
            let (tail_a, head_a) = (a.vertex(ea.tail as usize), a.vertex(ea.head as usize));
            for (j, eb) in b.edges().iter().enumerate() {
                let [m0, m1, _] = b.edge_arc(j);
                let (c, d) = (turn(m0, -1.0), turn(m1, -1.0));
                let plane = Vec3::new(
                    d.y * c.z - c.y * d.z,
                    d.z * c.x - c.z * d.x,
                    d.x * c.y - c.x * d.y,
                );
                let (cba, dba) = (c.dot(arc), d.dot(arc));
                let (adc, bdc) = (n0.dot(plane), n1.dot(plane));
                if !gauss_map_crossing(cba, dba, adc, bdc) {
                    continue;
                }
                let dir_b =
                    turn(b.vertex(eb.head as usize), 1.0) - turn(b.vertex(eb.tail as usize), 1.0);
                if scalar_edge_axis(tail_a, head_a, a.centroid(), dir_b).is_some() {
                    expected.push(AxisId::Edges(i as u32, j as u32));
                }
            }
        }
        let mut steps = Vec::new();
        time_of_impact(pair, m, &mut steps);
        let found: Vec<AxisId> = steps
            .iter()
            .map(|s| s.id)
            .filter(|id| matches!(id, AxisId::Edges(..)))
            .collect();
        assert_eq!(found, expected, "case {k}");
        let lanes: Vec<AxisId> = lane_edge_axes(pair, m)
            .expect("small bodies")
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        assert_eq!(lanes, expected, "case {k}");
        pairs += found.len();
    });
    assert!(
        cases > 7000 && pairs > 100_000,
        "{cases} cases, {pairs} pairs"
    );
}
