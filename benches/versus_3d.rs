//! collision-lab's 3D queries against Box3D (through `boxddd`) and parry3d 0.31 on identical
//! inputs: the contact manifold (box-box, hull-hull of about 20 faces), time of impact, the
//! growth with the point count (hulls of 8 to 1,024 points), and the cost of recording.
//!
//! Run with `cargo bench --bench versus_3d` (about a minute). Criterion measures the
//! headline rows (its report under `target/criterion/`); then a paired measurement prints the
//! table for `docs/performance.md` ("3D"): the runners of one row take turns round after
//! round, and a ratio is the median over rounds of ours / theirs, so a change in the
//! machine's load hits both sides alike (the method of `benches/versus_parry.rs`). The table
//! is also written to `target/criterion/versus_3d.md`. `cargo bench --bench versus_3d --
//! --test` runs each row once (a smoke test).
//!
//! What each side runs, per case:
//! - manifold, ours: SAT (`sat_test`) for the normal, then `contact_manifold_after_sat`
//!   (`contact_manifold` along SAT's normal, told SAT's winning face of two cuboids): what
//!   a caller needs from nothing. Box3D: `collide_hulls` (its SAT with a cold cache, then its
//!   clipping; the Rust wrapper copies the points into a `Vec`). parry3d: the dispatcher's
//!   `contact_manifolds` (SAT and clipping for cuboids and convex polyhedra) into a reused
//!   manifold list.
//! - time of impact, ours: swept SAT without the manifold (`time_of_impact`). parry3d:
//!   `cast_shapes` (its conservative advancement on support maps).
//! - distance (pairs apart), ours: `gjk_distance` (distance and closest points). parry3d:
//!   `query::distance` (its GJK; distance only, so it does a little less). Box3D: the raw
//!   `b3ShapeDistance` (its GJK, distance and closest points) on proxies built once per
//!   body, with a cold simplex cache, as `shape_distance` calls it.
//! - intersection (half the pairs apart, half overlapping), ours: `gjk_intersects` (the GJK
//!   loop with its separating-axis exit). parry3d: `query::intersection_test` (GJK's
//!   intersection test for convex polyhedra; its own SAT for two cuboids). Box3D:
//!   `b3ShapeDistance` with distance < `B3_OVERLAP_SLOP`, which is what its
//!   `b3OverlapHull` runs.
//! - penetration (overlapping pairs), ours: `gjk_distance` then `epa_penetration` (depth,
//!   normal, witness points). parry3d: `query::contact` with a zero margin (GJK then EPA for
//!   convex polyhedra; its cuboid-cuboid SAT for two boxes). Box3D has no EPA: its manifold
//!   (above) is its way to a depth.
//! - recording: `trace_pair3` (every step of GJK, EPA, SAT, clip and sweep, with a
//!   sentence's worth of data each) against `query_pair3` on the same pairs; and GJK + EPA
//!   alone, traced into vectors against untraced, on the overlapping hulls.
//!
//! Agreement is checked before timing: on every case both sides must agree on overlap, and
//! on the normal where it is unique; time of impact within 1e-3.

#[path = "common/least_times.rs"]
mod least_times;
use collision_lab::geom3::{Polyhedron, Pose3, Shape3Kind};
use collision_lab::query3::epa::{self, epa_penetration};
use collision_lab::query3::gjk::{self, gjk_distance, gjk_intersects};
use collision_lab::query3::manifold::{self, contact_manifold_after_sat};
use collision_lab::query3::pair::{query_pair3, trace_pair3, BodyRef3, PairSettings3};
use collision_lab::query3::sat::{self, sat_test};
use collision_lab::query3::sweep::{time_of_impact, Motion3};
use collision_lab::query3::PolyPair;
use criterion::Criterion;
use glam::{Quat, Vec3};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Cases per batch (one criterion iteration, one paired sample).
const CASES: usize = 64;

/// Point counts of the growth sweep.
const POINT_COUNTS: [usize; 6] = [8, 32, 128, 256, 512, 1024];

const SEED: u64 = 0x3d3d_c011_1de5;

/// SplitMix64 (Steele, Lea and Flood 2014).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// `n` points spread over an ellipsoid (a Fibonacci sphere, stretched): all are hull
/// vertices, and about 2n - 4 triangles make the faces.
fn ellipsoid_points(rng: &mut SplitMix64, n: usize) -> Vec<Vec3> {
    let radii = Vec3::new(rng.f(0.6, 1.0), rng.f(0.6, 1.0), rng.f(0.6, 1.0));
    let turn = rng.f(0.0, std::f32::consts::TAU);
    (0..n)
        .map(|k| {
            let y = 1.0 - 2.0 * (k as f32 + 0.5) / n as f32;
            let r = (1.0 - y * y).sqrt();
            let a = turn + k as f32 * 2.399_963;
            Vec3::new(r * a.cos(), y, r * a.sin()) * radii
        })
        .collect()
}

struct Body {
    ours: Polyhedron,
    parry: Box<dyn parry3d::shape::Shape>,
    box3d: Option<boxddd::Hull>,
    /// The vertices for Box3D's distance proxies (which point into them).
    box3d_points: Vec<boxddd_sys::ffi::b3Vec3>,
}

fn body(kind: Shape3Kind) -> Body {
    let ours = Polyhedron::new(&kind).expect("a valid polyhedron");
    let points: Vec<parry3d::math::Vector> = ours
        .vertices()
        .iter()
        .map(|v| parry3d::math::Vector::new(v.x, v.y, v.z))
        .collect();
    let parry: Box<dyn parry3d::shape::Shape> = match kind {
        Shape3Kind::Cuboid { half_extents: h } => Box::new(parry3d::shape::Cuboid::new(
            parry3d::math::Vector::new(h.x, h.y, h.z),
        )),
        _ => Box::new(
            parry3d::shape::ConvexPolyhedron::from_convex_hull(&points).expect("parry's hull"),
        ),
    };
    let box_points: Vec<boxddd::Vec3> = ours
        .vertices()
        .iter()
        .map(|v| boxddd::Vec3::new(v.x, v.y, v.z))
        .collect();
    // Box3D's hulls hold at most 128 faces (it says so and refuses larger ones).
    let box3d = (ours.face_count() <= 128)
        .then(|| boxddd::Hull::from_points(box_points, ours.vertices().len() as i32).ok())
        .flatten();
    let box3d_points = ours
        .vertices()
        .iter()
        .map(|v| boxddd_sys::ffi::b3Vec3 {
            x: v.x,
            y: v.y,
            z: v.z,
        })
        .collect();
    Body {
        ours,
        parry,
        box3d,
        box3d_points,
    }
}

/// Where the pairs of an input set are placed.
#[derive(Clone, Copy, PartialEq)]
enum Placement {
    /// Overlapping a little (manifold and penetration rows).
    Overlapping,
    /// Apart, still (distance rows).
    Apart,
    /// Alternately apart and overlapping (intersection rows).
    Mixed,
    /// Apart and moving toward each other (time of impact rows).
    Moving,
}

struct Case {
    a: usize,
    b: usize,
    pose_a: Pose3,
    pose_b: Pose3,
    velocity_b: Vec3,
}

/// A set of bodies and pairs of them: overlapping a little (manifold rows) or apart and
/// moving toward each other (time of impact rows).
struct Inputs {
    name: String,
    bodies: Vec<Body>,
    cases: Vec<Case>,
}

fn random_rotation(rng: &mut SplitMix64) -> Quat {
    Quat::from_euler(
        glam::EulerRot::ZYX,
        rng.f(-3.1, 3.1),
        rng.f(-1.5, 1.5),
        rng.f(-3.1, 3.1),
    )
}

impl Inputs {
    fn new(
        name: &str,
        rng: &mut SplitMix64,
        kinds: Vec<Shape3Kind>,
        placement: Placement,
        count: usize,
    ) -> Inputs {
        let moving = placement == Placement::Moving;
        let bodies: Vec<Body> = kinds.into_iter().map(body).collect();
        let mut cases = Vec::new();
        while cases.len() < count {
            let (a, b) = (
                (rng.next() % bodies.len() as u64) as usize,
                (rng.next() % bodies.len() as u64) as usize,
            );
            let pose_a = Pose3::new(Vec3::ZERO, random_rotation(rng));
            let reach = bodies[a].ours.bounding_radius() + bodies[b].ours.bounding_radius();
            let dir = Vec3::new(rng.f(-1.0, 1.0), rng.f(-1.0, 1.0), rng.f(-1.0, 1.0))
                .normalize_or(Vec3::Y);
            let apart = match placement {
                Placement::Overlapping => false,
                Placement::Apart | Placement::Moving => true,
                Placement::Mixed => cases.len() % 2 == 0,
            };
            let (position, velocity_b) = if moving {
                (dir * reach * 2.0, -dir * reach * rng.f(1.5, 3.0))
            } else if apart {
                (dir * reach * rng.f(0.6, 1.2), Vec3::ZERO)
            } else {
                (dir * reach * rng.f(0.35, 0.6), Vec3::ZERO)
            };
            let case = Case {
                a,
                b,
                pose_a,
                pose_b: Pose3::new(position, random_rotation(rng)),
                velocity_b,
            };
            // Manifold rows need contact; distance and sweep rows need a start apart.
            let pair = PolyPair::new(&bodies[a].ours, &case.pose_a, &bodies[b].ours, &case.pose_b);
            if sat_test(&pair).intersecting != apart {
                cases.push(case);
            }
        }
        Inputs {
            name: name.into(),
            bodies,
            cases,
        }
    }

    fn pair(&self, c: &Case) -> PolyPair<'_> {
        PolyPair::new(
            &self.bodies[c.a].ours,
            &c.pose_a,
            &self.bodies[c.b].ours,
            &c.pose_b,
        )
    }
}

fn parry_pose(p: &Pose3) -> parry3d::math::Pose {
    let q = p.rotation;
    parry3d::math::Pose::from_parts(
        parry3d::math::Vector::new(p.position.x, p.position.y, p.position.z),
        parry3d::math::Rot3::from_xyzw(q.x, q.y, q.z, q.w),
    )
}

fn box3d_transform(pose_a: &Pose3, pose_b: &Pose3) -> boxddd::Transform {
    let inv = pose_a.rotation.inverse();
    let q = inv * pose_b.rotation;
    let p = inv * (pose_b.position - pose_a.position);
    boxddd::Transform {
        p: boxddd::Vec3::new(p.x, p.y, p.z),
        q: boxddd::Quat {
            v: boxddd::Vec3::new(q.x, q.y, q.z),
            s: q.w,
        },
    }
}

type Manifolds = Vec<parry3d::query::ContactManifold<(), ()>>;

fn run_ours_manifold(inputs: &Inputs) -> usize {
    let mut points = 0;
    for c in &inputs.cases {
        let pair = inputs.pair(c);
        let sat = sat_test(&pair);
        if sat.intersecting {
            points += contact_manifold_after_sat(&pair, &sat).points.len();
        }
    }
    points
}

/// SAT then the manifold along its normal, recording every step of both into vectors
/// (`TRACED`, as the window's timeline does) or not at all (as `query` does).
fn run_sat_manifold<const TRACED: bool>(inputs: &Inputs) -> usize {
    let mut points = 0;
    for c in &inputs.cases {
        let pair = inputs.pair(c);
        if TRACED {
            let mut sat_steps = Vec::new();
            let out = sat::sat(&pair, &mut sat_steps);
            if out.intersecting {
                let mut steps = Vec::new();
                points += manifold::manifold_after_sat(&pair, &out, &mut steps)
                    .points
                    .len();
                points += steps.len();
            }
            points += sat_steps.len();
        } else {
            let out = sat_test(&pair);
            if out.intersecting {
                points += contact_manifold_after_sat(&pair, &out).points.len();
            }
        }
    }
    points
}

fn run_box3d_manifold(inputs: &Inputs) -> usize {
    let mut points = 0;
    for c in &inputs.cases {
        let (Some(a), Some(b)) = (&inputs.bodies[c.a].box3d, &inputs.bodies[c.b].box3d) else {
            continue;
        };
        let m = boxddd::collide_hulls(a, b, box3d_transform(&c.pose_a, &c.pose_b))
            .expect("Box3D collides");
        points += m.points.len();
    }
    points
}

fn run_parry_manifold(inputs: &Inputs, manifolds: &mut Manifolds) -> usize {
    use parry3d::query::PersistentQueryDispatcher;
    let mut points = 0;
    let mut workspace = None;
    for c in &inputs.cases {
        manifolds.clear();
        let pos12 = parry_pose(&c.pose_a).inv_mul(&parry_pose(&c.pose_b));
        parry3d::query::DefaultQueryDispatcher
            .contact_manifolds(
                &pos12,
                &*inputs.bodies[c.a].parry,
                &*inputs.bodies[c.b].parry,
                0.0,
                manifolds,
                &mut workspace,
            )
            .expect("convex shapes are supported");
        points += manifolds.iter().map(|m| m.points.len()).sum::<usize>();
    }
    points
}

fn run_ours_toi(inputs: &Inputs) -> f32 {
    let mut sum = 0.0;
    for c in &inputs.cases {
        let motion = Motion3 {
            velocity_a: Vec3::ZERO,
            velocity_b: c.velocity_b,
            t_max: 1.0,
        };
        sum += time_of_impact(&inputs.pair(c), &motion, &mut ())
            .t_first
            .unwrap_or(0.0);
    }
    sum
}

fn run_parry_toi(inputs: &Inputs) -> f32 {
    let mut sum = 0.0;
    for c in &inputs.cases {
        let v = c.velocity_b;
        sum += parry3d::query::cast_shapes(
            &parry_pose(&c.pose_a),
            parry3d::math::Vector::ZERO,
            &*inputs.bodies[c.a].parry,
            &parry_pose(&c.pose_b),
            parry3d::math::Vector::new(v.x, v.y, v.z),
            &*inputs.bodies[c.b].parry,
            parry3d::query::ShapeCastOptions::with_max_time_of_impact(1.0),
        )
        .expect("supported")
        .map_or(0.0, |hit| hit.time_of_impact);
    }
    sum
}

/// Box3D's distance on the case's two proxies (B in A's frame), cold cache.
fn box3d_distance(inputs: &Inputs, c: &Case) -> f32 {
    let proxy = |body: &Body| boxddd_sys::ffi::b3ShapeProxy {
        points: body.box3d_points.as_ptr(),
        count: body.box3d_points.len() as i32,
        radius: 0.0,
    };
    let t = box3d_transform(&c.pose_a, &c.pose_b);
    let input = boxddd_sys::ffi::b3DistanceInput {
        proxyA: proxy(&inputs.bodies[c.a]),
        proxyB: proxy(&inputs.bodies[c.b]),
        transform: boxddd_sys::ffi::b3Transform {
            p: boxddd_sys::ffi::b3Vec3 {
                x: t.p.x,
                y: t.p.y,
                z: t.p.z,
            },
            q: boxddd_sys::ffi::b3Quat {
                v: boxddd_sys::ffi::b3Vec3 {
                    x: t.q.v.x,
                    y: t.q.v.y,
                    z: t.q.v.z,
                },
                s: t.q.s,
            },
        },
        useRadii: true,
    };
    // SAFETY: the proxies point into vertex buffers that outlive the call, with their
    // true counts (at most a few dozen points, below Box3D's proxy limit); a zeroed cache
    // is Box3D's documented cold start; no simplex buffer is asked for.
    unsafe {
        let mut cache: boxddd_sys::ffi::b3SimplexCache = std::mem::zeroed();
        boxddd_sys::ffi::b3ShapeDistance(&input, &mut cache, std::ptr::null_mut(), 0).distance
    }
}

/// Box3D's overlap slop (`B3_OVERLAP_SLOP` in its `constants.h`: a tenth of its linear
/// slop of 0.005, at one length unit per meter).
const BOX3D_OVERLAP_SLOP: f32 = 0.0005;

fn run_ours_distance(inputs: &Inputs) -> f32 {
    let mut sum = 0.0;
    for c in &inputs.cases {
        let g = gjk_distance(&inputs.pair(c));
        sum += g.distance + g.closest_a.map_or(0.0, |p| p.x);
    }
    sum
}

fn run_parry_distance(inputs: &Inputs) -> f32 {
    let mut sum = 0.0;
    for c in &inputs.cases {
        sum += parry3d::query::distance(
            &parry_pose(&c.pose_a),
            &*inputs.bodies[c.a].parry,
            &parry_pose(&c.pose_b),
            &*inputs.bodies[c.b].parry,
        )
        .expect("supported")
        .distance;
    }
    sum
}

fn run_box3d_distance(inputs: &Inputs) -> f32 {
    inputs.cases.iter().map(|c| box3d_distance(inputs, c)).sum()
}

fn run_ours_intersection(inputs: &Inputs) -> usize {
    let config = gjk::Config::default();
    inputs
        .cases
        .iter()
        .filter(|c| gjk_intersects(&inputs.pair(c), &config))
        .count()
}

fn run_parry_intersection(inputs: &Inputs) -> usize {
    inputs
        .cases
        .iter()
        .filter(|c| {
            parry3d::query::intersection_test(
                &parry_pose(&c.pose_a),
                &*inputs.bodies[c.a].parry,
                &parry_pose(&c.pose_b),
                &*inputs.bodies[c.b].parry,
            )
            .expect("supported")
            .intersecting
        })
        .count()
}

fn run_box3d_intersection(inputs: &Inputs) -> usize {
    inputs
        .cases
        .iter()
        .filter(|c| box3d_distance(inputs, c) < BOX3D_OVERLAP_SLOP)
        .count()
}

fn run_ours_penetration(inputs: &Inputs) -> f32 {
    let mut sum = 0.0;
    for c in &inputs.cases {
        let pair = inputs.pair(c);
        let g = gjk_distance(&pair);
        sum += epa_penetration(&pair, &g).map_or(0.0, |e| e.depth);
    }
    sum
}

fn run_parry_penetration(inputs: &Inputs) -> f32 {
    let mut sum = 0.0;
    for c in &inputs.cases {
        sum += parry3d::query::contact(
            &parry_pose(&c.pose_a),
            &*inputs.bodies[c.a].parry,
            &parry_pose(&c.pose_b),
            &*inputs.bodies[c.b].parry,
            0.0,
        )
        .expect("supported")
        .map_or(0.0, |contact| -contact.dist);
    }
    sum
}

/// GJK then EPA, both recording every step into vectors (`TRACED`) or not at all.
fn run_gjk_epa<const TRACED: bool>(inputs: &Inputs) -> f32 {
    let mut sum = 0.0;
    for c in &inputs.cases {
        let pair = inputs.pair(c);
        let e = if TRACED {
            let (mut gjk_steps, mut epa_steps) = (Vec::new(), Vec::new());
            let g = gjk::gjk(&pair, &gjk::Config::default(), &mut gjk_steps);
            let e = epa::epa(&pair, &g, &epa::Config::default(), &mut epa_steps);
            sum += (gjk_steps.len() + epa_steps.len()) as f32;
            e
        } else {
            let g = gjk::gjk(&pair, &gjk::Config::default(), &mut ());
            epa::epa(&pair, &g, &epa::Config::default(), &mut ())
        };
        sum += e.map_or(0.0, |e| e.depth);
    }
    sum
}

fn body_refs<'a>(inputs: &'a Inputs, c: &Case) -> (BodyRef3<'a>, BodyRef3<'a>) {
    (
        BodyRef3 {
            shape: (&inputs.bodies[c.a].ours).into(),
            pose: c.pose_a,
            velocity: Some(Vec3::ZERO),
        },
        BodyRef3 {
            shape: (&inputs.bodies[c.b].ours).into(),
            pose: c.pose_b,
            velocity: Some(c.velocity_b),
        },
    )
}

fn run_query_pair(inputs: &Inputs) -> u32 {
    let settings = PairSettings3::default();
    let mut n = 0;
    for c in &inputs.cases {
        let (a, b) = body_refs(inputs, c);
        n += query_pair3(&a, &b, &settings).sat.axes_tested;
    }
    n
}

fn run_trace_pair(inputs: &Inputs) -> u32 {
    let settings = PairSettings3::default();
    let mut n = 0;
    for c in &inputs.cases {
        let (a, b) = body_refs(inputs, c);
        n += trace_pair3(&a, &b, &settings).0.sat.axes_tested;
    }
    n
}

/// Both sides agree on every case before anything is timed.
fn check_agreement(inputs: &Inputs, moving: bool) {
    let mut manifolds = Manifolds::new();
    let mut workspace = None;
    for (k, c) in inputs.cases.iter().enumerate() {
        let pair = inputs.pair(c);
        let (pa, pb) = (parry_pose(&c.pose_a), parry_pose(&c.pose_b));
        let (ga, gb) = (&*inputs.bodies[c.a].parry, &*inputs.bodies[c.b].parry);
        if moving {
            let ours = time_of_impact(
                &pair,
                &Motion3 {
                    velocity_a: Vec3::ZERO,
                    velocity_b: c.velocity_b,
                    t_max: 1.0,
                },
                &mut (),
            )
            .t_first;
            let v = c.velocity_b;
            let theirs = parry3d::query::cast_shapes(
                &pa,
                parry3d::math::Vector::ZERO,
                ga,
                &pb,
                parry3d::math::Vector::new(v.x, v.y, v.z),
                gb,
                parry3d::query::ShapeCastOptions::with_max_time_of_impact(1.0),
            )
            .unwrap()
            .map(|h| h.time_of_impact);
            match (ours, theirs) {
                (Some(x), Some(y)) => {
                    assert!(
                        (x - y).abs() < 1e-3,
                        "{}: case {k}: toi {x} vs {y}",
                        inputs.name
                    )
                }
                (None, None) => {}
                _ => panic!("{}: case {k}: toi {ours:?} vs {theirs:?}", inputs.name),
            }
            continue;
        }
        let sat = sat_test(&pair);
        let theirs = parry3d::query::intersection_test(&pa, ga, &pb, gb)
            .unwrap()
            .intersecting;
        assert_eq!(
            sat.intersecting, theirs,
            "{}: case {k}: overlap",
            inputs.name
        );
        manifolds.clear();
        use parry3d::query::PersistentQueryDispatcher;
        parry3d::query::DefaultQueryDispatcher
            .contact_manifolds(
                &pa.inv_mul(&pb),
                ga,
                gb,
                0.0,
                &mut manifolds,
                &mut workspace,
            )
            .unwrap();
        if let Some(m) = manifolds.iter().find(|m| !m.points.is_empty()) {
            let n = c.pose_a.rotation * Vec3::new(m.local_n1.x, m.local_n1.y, m.local_n1.z);
            // A differing normal must be a tie: the same depth along both.
            if n.dot(sat.normal) < 0.99 {
                let deepest = m.points.iter().map(|p| -p.dist).fold(0.0f32, f32::max);
                assert!(
                    (deepest - sat.depth).abs() < 2e-3,
                    "{}: case {k}: parry3d normal {n} depth {deepest}, ours {} depth {}",
                    inputs.name,
                    sat.normal,
                    sat.depth
                );
            }
        }
    }
}

// ---------------------------------------------------------------- paired measurement

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let m = values.len() / 2;
    if values.len() % 2 == 1 {
        values[m]
    } else {
        0.5 * (values[m - 1] + values[m])
    }
}

/// Median ns per batch for each runner, and the median over rounds of runner 0's time over
/// each other runner's.
fn measure_paired(
    runners: &mut [&mut dyn FnMut()],
    budget: Duration,
    min_rounds: usize,
) -> (Vec<f64>, Vec<f64>) {
    let reps: Vec<u32> = runners
        .iter_mut()
        .map(|run| {
            run();
            let start = Instant::now();
            run();
            (200_000 / start.elapsed().as_nanos().max(1)).clamp(1, 10_000) as u32
        })
        .collect();
    let mut samples = vec![Vec::new(); runners.len()];
    let start = Instant::now();
    let mut round = 0;
    while round < min_rounds || (start.elapsed() < budget && round < 400) {
        for j in 0..runners.len() {
            let k = (j + round) % runners.len();
            let t = Instant::now();
            for _ in 0..reps[k] {
                runners[k]();
            }
            samples[k].push(t.elapsed().as_nanos() as f64 / reps[k] as f64);
        }
        round += 1;
    }
    let ratios = (1..runners.len())
        .map(|k| {
            median(
                samples[0]
                    .iter()
                    .zip(&samples[k])
                    .map(|(a, b)| a / b)
                    .collect(),
            )
        })
        .collect();
    (samples.into_iter().map(median).collect(), ratios)
}

/// One recording row of the table: the traced and untraced runners taking turns, each
/// one's cost per query and the median of the per-round ratios traced / untraced.
fn recording_row(
    label: &str,
    traced: &mut dyn FnMut(),
    untraced: &mut dyn FnMut(),
    budget: Duration,
) -> String {
    let (m, r) = measure_paired(&mut [traced, untraced], budget, 15);
    format!(
        "| recording: {label} | {} traced, {} untraced | - | - | {:.2} (traced / untraced) | - |",
        per_query(m[0], CASES),
        per_query(m[1], CASES),
        r[0]
    )
}

fn per_query(ns_per_batch: f64, cases: usize) -> String {
    let ns = ns_per_batch / cases as f64;
    if ns >= 1.0e3 {
        format!("{:.2} us", ns / 1.0e3)
    } else {
        format!("{ns:.0} ns")
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--test");
    boxddd::Foundation::initialize_default().expect("Box3D starts");
    let mut rng = SplitMix64(SEED);
    let box_kinds: Vec<Shape3Kind> = (0..16)
        .map(|_| Shape3Kind::Cuboid {
            half_extents: Vec3::new(rng.f(0.3, 1.0), rng.f(0.3, 1.0), rng.f(0.3, 1.0)),
        })
        .collect();
    let boxes = Inputs::new(
        "box-box",
        &mut rng,
        box_kinds.clone(),
        Placement::Overlapping,
        CASES,
    );
    let hull_kinds = |rng: &mut SplitMix64, n: usize| -> Vec<Shape3Kind> {
        (0..16)
            .map(|_| Shape3Kind::Hull {
                points: ellipsoid_points(rng, n),
            })
            .collect()
    };
    let kinds = hull_kinds(&mut rng, 12);
    let hulls = Inputs::new(
        "hull-hull",
        &mut rng,
        kinds.clone(),
        Placement::Overlapping,
        CASES,
    );
    let kinds_moving = hull_kinds(&mut rng, 12);
    let moving = Inputs::new(
        "hull-hull moving",
        &mut rng,
        kinds_moving,
        Placement::Moving,
        CASES,
    );
    // GJK rows: the same bodies apart (distance) and half apart (intersection).
    let boxes_apart = Inputs::new(
        "box-box",
        &mut rng,
        box_kinds.clone(),
        Placement::Apart,
        CASES,
    );
    let hulls_apart = Inputs::new(
        "hull-hull",
        &mut rng,
        kinds.clone(),
        Placement::Apart,
        CASES,
    );
    let boxes_mixed = Inputs::new("box-box", &mut rng, box_kinds, Placement::Mixed, CASES);
    let hulls_mixed = Inputs::new("hull-hull", &mut rng, kinds, Placement::Mixed, CASES);
    let growth: Vec<Inputs> = POINT_COUNTS
        .iter()
        .map(|&n| {
            let kinds = hull_kinds(&mut rng, n);
            // Large hulls cost milliseconds per pair: fewer cases keep the run short.
            let count = if n >= 256 { 4 } else { 16 };
            Inputs::new(
                &format!("hull {n} points"),
                &mut rng,
                kinds,
                Placement::Overlapping,
                count,
            )
        })
        .collect();
    // Profile mode (for callgrind, whose counts do not suffer from the shared machine's
    // noise): `VERSUS_3D_PROFILE=toi|box|hull|hull32|large cargo bench --bench versus_3d`
    // runs only our side of one row a fixed number of times, then stops (`hull32`: the
    // 32-point growth row; `toi_parry`: parry3d's side of the time of impact). The GJK rows: `distance`, `intersection` and `penetration` on the
    // 20-face hulls, `distance_box` and `intersection_box` on the boxes; `box_traced` and
    // `hull_traced`: SAT and the manifold recording every step.
    if let Ok(row) = std::env::var("VERSUS_3D_PROFILE") {
        let mut sum = 0.0f64;
        // The GJK rows are short: more repetitions lift them above the setup's count.
        let repetitions = match row.as_str() {
            "distance" | "intersection" | "penetration" | "distance_box" | "intersection_box" => {
                2_000
            }
            _ => 20,
        };
        for _ in 0..repetitions {
            sum += match row.as_str() {
                "toi" => run_ours_toi(&moving) as f64,
                "toi_parry" => run_parry_toi(&moving) as f64,
                "box" => run_ours_manifold(&boxes) as f64,
                "hull" => run_ours_manifold(&hulls) as f64,
                "large" => run_ours_manifold(growth.last().expect("growth rows")) as f64,
                "hull32" => run_ours_manifold(
                    growth
                        .iter()
                        .find(|g| g.name == "hull 32 points")
                        .expect("a 32-point row"),
                ) as f64,
                "distance" => run_ours_distance(&hulls_apart) as f64,
                "intersection" => run_ours_intersection(&hulls_mixed) as f64,
                "distance_box" => run_ours_distance(&boxes_apart) as f64,
                "intersection_box" => run_ours_intersection(&boxes_mixed) as f64,
                "penetration" => run_ours_penetration(&hulls) as f64,
                "query" => run_query_pair(&moving) as f64,
                "trace" => run_trace_pair(&moving) as f64,
                "box_traced" => run_sat_manifold::<true>(&boxes) as f64,
                "hull_traced" => run_sat_manifold::<true>(&hulls) as f64,
                other => panic!(
                    "VERSUS_3D_PROFILE: toi, toi_parry, box, hull, hull32, large, distance, distance_box, intersection, intersection_box, penetration, query, trace, box_traced or hull_traced, not {other}"
                ),
            };
        }
        println!("profile {row}: {sum}");
        return;
    }
    // `VERSUS_3D_MIN=row,rounds` (e.g. `toi,20000`): the two sides of one row timed batch
    // by batch in turn, the least and tenth-percentile times and their ratio (see
    // `least_times`): `toi` (ours, parry3d), `box` and `hull` (ours, Box3D), `box_recording`
    // and `hull_recording` (SAT + manifold traced, untraced).
    if let Ok(spec) = std::env::var("VERSUS_3D_MIN") {
        let (row, rounds) = spec.split_once(',').expect("VERSUS_3D_MIN=row,rounds");
        let rounds: usize = rounds.parse().expect("a round count");
        let (names, mut first, mut second): (_, Batch, Batch) = match row {
            "toi" => (
                ["collision-lab", "parry3d"],
                Box::new(|| {
                    black_box(run_ours_toi(&moving));
                }),
                Box::new(|| {
                    black_box(run_parry_toi(&moving));
                }),
            ),
            "box" | "hull" => {
                let inputs = if row == "box" { &boxes } else { &hulls };
                (
                    ["collision-lab", "Box3D"],
                    Box::new(move || {
                        black_box(run_ours_manifold(inputs));
                    }),
                    Box::new(move || {
                        black_box(run_box3d_manifold(inputs));
                    }),
                )
            }
            "box_recording" | "hull_recording" => {
                let inputs = if row == "box_recording" {
                    &boxes
                } else {
                    &hulls
                };
                (
                    ["traced", "untraced"],
                    Box::new(move || {
                        black_box(run_sat_manifold::<true>(inputs));
                    }),
                    Box::new(move || {
                        black_box(run_sat_manifold::<false>(inputs));
                    }),
                )
            }
            other => panic!(
                "VERSUS_3D_MIN: toi, box, hull, box_recording or hull_recording, not {other}"
            ),
        };
        least_times::least_times(names, rounds, [&mut *first, &mut *second]);
        return;
    }
    let faces = hulls.bodies[0].ours.face_count();
    for inputs in [&boxes, &hulls].into_iter().chain(&growth) {
        check_agreement(inputs, false);
    }
    check_agreement(&moving, true);
    for inputs in [
        &boxes_apart,
        &hulls_apart,
        &boxes_mixed,
        &hulls_mixed,
        &boxes,
        &hulls,
    ] {
        check_gjk_agreement(inputs);
    }
    eprintln!("agreement checked: every case, both engines ({faces} faces per hull)");

    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1000))
        .sample_size(20)
        .without_plots()
        .configure_from_args();
    {
        let mut group = criterion.benchmark_group("versus_3d");
        let mut manifolds = Manifolds::new();
        for inputs in [&boxes, &hulls] {
            group.bench_function(format!("manifold/{}/collision-lab", inputs.name), |b| {
                b.iter(|| black_box(run_ours_manifold(inputs)))
            });
            group.bench_function(format!("manifold/{}/box3d", inputs.name), |b| {
                b.iter(|| black_box(run_box3d_manifold(inputs)))
            });
            group.bench_function(format!("manifold/{}/parry3d", inputs.name), |b| {
                b.iter(|| black_box(run_parry_manifold(inputs, &mut manifolds)))
            });
        }
        for inputs in [&boxes_apart, &hulls_apart] {
            group.bench_function(format!("distance/{}/collision-lab", inputs.name), |b| {
                b.iter(|| black_box(run_ours_distance(inputs)))
            });
            group.bench_function(format!("distance/{}/box3d", inputs.name), |b| {
                b.iter(|| black_box(run_box3d_distance(inputs)))
            });
            group.bench_function(format!("distance/{}/parry3d", inputs.name), |b| {
                b.iter(|| black_box(run_parry_distance(inputs)))
            });
        }
        for inputs in [&boxes, &hulls] {
            group.bench_function(format!("penetration/{}/collision-lab", inputs.name), |b| {
                b.iter(|| black_box(run_ours_penetration(inputs)))
            });
            group.bench_function(format!("penetration/{}/parry3d", inputs.name), |b| {
                b.iter(|| black_box(run_parry_penetration(inputs)))
            });
        }
        group.bench_function("toi/collision-lab", |b| {
            b.iter(|| black_box(run_ours_toi(&moving)))
        });
        group.bench_function("toi/parry3d", |b| {
            b.iter(|| black_box(run_parry_toi(&moving)))
        });
        group.finish();
    }
    criterion.final_summary();

    let budget = Duration::from_millis(if quick { 1 } else { 2000 });
    let mut lines = vec![
        format!(
            "| Row (per query) | collision-lab | Box3D | parry3d | ours / Box3D | ours / parry3d |"
        ),
        "|---|---|---|---|---|---|".to_string(),
    ];
    let mut manifolds = Manifolds::new();
    for inputs in [&boxes, &hulls].into_iter().chain(&growth) {
        let has_box3d = inputs.bodies.iter().all(|b| b.box3d.is_some());
        let cases = inputs.cases.len();
        let rounds = if cases < 16 { 5 } else { 15 };
        let mut ours = || {
            black_box(run_ours_manifold(inputs));
        };
        let mut parry = || {
            black_box(run_parry_manifold(inputs, &mut manifolds));
        };
        let mut box3d = || {
            black_box(run_box3d_manifold(inputs));
        };
        let (medians, ratios) = if has_box3d {
            measure_paired(&mut [&mut ours, &mut box3d, &mut parry], budget, rounds)
        } else {
            let (m, r) = measure_paired(&mut [&mut ours, &mut parry], budget, rounds);
            (vec![m[0], f64::NAN, m[1]], vec![f64::NAN, r[0]])
        };
        let cell = |x: f64| {
            if x.is_nan() {
                "-".to_string()
            } else {
                per_query(x, cases)
            }
        };
        let ratio = |x: f64| {
            if x.is_nan() {
                "-".to_string()
            } else {
                format!("{x:.2}")
            }
        };
        lines.push(format!(
            "| manifold, {} ({} faces) | {} | {} | {} | {} | {} |",
            inputs.name,
            inputs.bodies[0].ours.face_count(),
            cell(medians[0]),
            cell(medians[1]),
            cell(medians[2]),
            ratio(ratios[0]),
            ratio(ratios[1])
        ));
    }
    {
        let mut ours = || {
            black_box(run_ours_toi(&moving));
        };
        let mut parry = || {
            black_box(run_parry_toi(&moving));
        };
        let (m, r) = measure_paired(&mut [&mut ours, &mut parry], budget, 15);
        lines.push(format!(
            "| time of impact, {} | {} | - | {} | - | {:.2} |",
            moving.name,
            per_query(m[0], CASES),
            per_query(m[1], CASES),
            r[0]
        ));
    }
    lines.extend(gjk_epa_rows(
        [&boxes_apart, &hulls_apart],
        [&boxes_mixed, &hulls_mixed],
        [&boxes, &hulls],
        budget,
    ));
    lines.push(recording_row(
        "trace_pair3 / query_pair3 (GJK, EPA, SAT, clip, sweep)",
        &mut || {
            black_box(run_trace_pair(&moving));
        },
        &mut || {
            black_box(run_query_pair(&moving));
        },
        budget,
    ));
    for inputs in [&boxes, &hulls] {
        lines.push(recording_row(
            &format!("SAT + manifold traced / untraced, {}", inputs.name),
            &mut || {
                black_box(run_sat_manifold::<true>(inputs));
            },
            &mut || {
                black_box(run_sat_manifold::<false>(inputs));
            },
            budget,
        ));
    }
    lines.push(recording_row(
        "GJK + EPA traced / untraced, hull-hull overlapping",
        &mut || {
            black_box(run_gjk_epa::<true>(&hulls));
        },
        &mut || {
            black_box(run_gjk_epa::<false>(&hulls));
        },
        budget,
    ));
    let table = lines.join("\n");
    println!("\n{table}");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/criterion");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("versus_3d.md"), table + "\n");
}

/// GJK and EPA agree with both engines on every case before anything is timed: the
/// verdict, the distance within 1e-3 (parry3d and Box3D), the depth within 1e-3 (parry3d).
fn check_gjk_agreement(inputs: &Inputs) {
    for (k, c) in inputs.cases.iter().enumerate() {
        let pair = inputs.pair(c);
        let g = gjk_distance(&pair);
        let (pa, pb) = (parry_pose(&c.pose_a), parry_pose(&c.pose_b));
        let (ga, gb) = (&*inputs.bodies[c.a].parry, &*inputs.bodies[c.b].parry);
        let name = &inputs.name;
        let theirs = parry3d::query::intersection_test(&pa, ga, &pb, gb)
            .unwrap()
            .intersecting;
        assert_eq!(g.intersecting, theirs, "{name}: case {k}: GJK verdict");
        assert_eq!(
            gjk_intersects(&pair, &gjk::Config::default()),
            g.intersecting,
            "{name}: case {k}: the boolean test"
        );
        if g.intersecting {
            let e = epa_penetration(&pair, &g).expect("EPA runs on an intersecting pair");
            let contact = parry3d::query::contact(&pa, ga, &pb, gb, 0.0)
                .unwrap()
                .expect("parry3d finds the contact");
            assert!(
                (e.depth + contact.dist).abs() < 1e-3,
                "{name}: case {k}: depth {} vs parry3d {}",
                e.depth,
                -contact.dist
            );
        } else {
            let parry = parry3d::query::distance(&pa, ga, &pb, gb).unwrap().distance;
            let box3d = box3d_distance(inputs, c);
            assert!(
                (g.distance - parry).abs() < 1e-3 && (g.distance - box3d).abs() < 1e-3,
                "{name}: case {k}: distance {} vs parry3d {parry} vs Box3D {box3d}",
                g.distance
            );
        }
    }
}

/// The table rows of distance, intersection and penetration: box-box and hull-hull each.
fn gjk_epa_rows(
    apart: [&Inputs; 2],
    mixed: [&Inputs; 2],
    overlapping: [&Inputs; 2],
    budget: Duration,
) -> Vec<String> {
    let mut lines = Vec::new();
    let faces = |inputs: &Inputs| inputs.bodies[0].ours.face_count();
    for inputs in apart {
        let mut ours = || {
            black_box(run_ours_distance(inputs));
        };
        let mut box3d = || {
            black_box(run_box3d_distance(inputs));
        };
        let mut parry = || {
            black_box(run_parry_distance(inputs));
        };
        let (m, r) = measure_paired(&mut [&mut ours, &mut box3d, &mut parry], budget, 15);
        lines.push(format!(
            "| distance (GJK), {} apart ({} faces) | {} | {} | {} | {:.2} | {:.2} |",
            inputs.name,
            faces(inputs),
            per_query(m[0], CASES),
            per_query(m[1], CASES),
            per_query(m[2], CASES),
            r[0],
            r[1]
        ));
    }
    for inputs in mixed {
        let mut ours = || {
            black_box(run_ours_intersection(inputs));
        };
        let mut box3d = || {
            black_box(run_box3d_intersection(inputs));
        };
        let mut parry = || {
            black_box(run_parry_intersection(inputs));
        };
        let (m, r) = measure_paired(&mut [&mut ours, &mut box3d, &mut parry], budget, 15);
        lines.push(format!(
            "| intersection (GJK), {} half apart ({} faces) | {} | {} | {} | {:.2} | {:.2} |",
            inputs.name,
            faces(inputs),
            per_query(m[0], CASES),
            per_query(m[1], CASES),
            per_query(m[2], CASES),
            r[0],
            r[1]
        ));
    }
    for inputs in overlapping {
        let mut ours = || {
            black_box(run_ours_penetration(inputs));
        };
        let mut parry = || {
            black_box(run_parry_penetration(inputs));
        };
        let (m, r) = measure_paired(&mut [&mut ours, &mut parry], budget, 15);
        lines.push(format!(
            "| penetration (GJK + EPA), {} ({} faces) | {} | - | {} | - | {:.2} |",
            inputs.name,
            faces(inputs),
            per_query(m[0], CASES),
            per_query(m[1], CASES),
            r[0]
        ));
    }
    lines
}

/// One batch of a row's queries, for [`least_times`].
type Batch<'a> = Box<dyn FnMut() + 'a>;
