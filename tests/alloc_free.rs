//! Untraced queries must not touch the heap: the window runs them for every pair every
//! frame. A counting global allocator records each allocation made by the current thread,
//! so tests running in parallel on other threads do not disturb the count.

use collision_lab::geom::{Pose, Shape};
use collision_lab::query::bounds::may_touch;
use collision_lab::query::clip::{
    clip, clip_after_sat, contact_manifold, contact_manifold_after_sat,
};
use collision_lab::query::epa::{epa, EpaConfig};
use collision_lab::query::gjk::{gjk, gjk_intersects, GjkConfig};
use collision_lab::query::pair::{query_pair, BodyRef, PairSettings};
use collision_lab::query::sat::sat;
use collision_lab::query::sweep::{sweep, Motion};
use collision_lab::query::ShapePair;
use glam::Vec2;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count_one() {
    // `try_with`: the thread-local may already be gone while a thread shuts down.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_one();
        System.alloc_zeroed(layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        System.realloc(ptr, layout, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Heap allocations made by this thread while running `f`.
fn allocations_during<R>(f: impl FnOnce() -> R) -> (u64, R) {
    let before = ALLOCATIONS.with(Cell::get);
    let result = f();
    let after = ALLOCATIONS.with(Cell::get);
    (after - before, result)
}

/// A convex polygon of `n` vertices on an ellipse, unevenly spaced.
fn polygon(n: usize, rx: f32, ry: f32) -> Shape {
    let points = (0..n)
        .map(|k| {
            let wobble = 0.3 * ((k * 7919 % 13) as f32 / 13.0 - 0.5);
            let a = std::f32::consts::TAU * (k as f32 + wobble) / n as f32;
            Vec2::new(rx * a.cos(), ry * a.sin())
        })
        .collect();
    Shape::polygon(points).expect("convex")
}

fn shapes() -> Vec<(&'static str, Shape)> {
    vec![
        ("triangle", polygon(3, 1.0, 0.8)),
        ("box", Shape::rect(Vec2::new(1.0, 0.6)).unwrap()),
        ("octagon", polygon(8, 1.1, 0.9)),
        ("17-gon (binary-search support)", polygon(17, 1.0, 1.2)),
        ("1024-gon", polygon(1024, 1.2, 0.9)),
        ("circle", Shape::circle(0.7).unwrap()),
        ("capsule", Shape::capsule(0.8, 0.3).unwrap()),
        ("segment", Shape::capsule(0.9, 0.0).unwrap()),
    ]
}

/// Offsets of B from A: deep overlap, shallow overlap, touching distance, apart.
const OFFSETS: [Vec2; 5] = [
    Vec2::new(0.1, 0.05),
    Vec2::new(1.2, 0.4),
    Vec2::new(-1.7, 0.3),
    Vec2::new(0.5, -3.0),
    Vec2::new(4.0, 4.0),
];

#[test]
fn the_counter_sees_an_allocation() {
    let (count, v) = allocations_during(|| black_box(Vec::<u64>::with_capacity(4)));
    drop(v);
    assert!(count >= 1, "the counting allocator missed a Vec allocation");
    let (count, _) = allocations_during(|| black_box(3 + 4));
    assert_eq!(count, 0);
}

#[test]
fn untraced_queries_do_not_allocate() {
    let shapes = shapes();
    let gjk_config = GjkConfig::default();
    let epa_config = EpaConfig::default();
    let settings = PairSettings::default();
    let mut checked = 0;
    for (name_a, a) in &shapes {
        for (name_b, b) in &shapes {
            for (k, offset) in OFFSETS.iter().enumerate() {
                // Far from the world origin too, where the work frame matters.
                let base = if k % 2 == 0 {
                    Vec2::ZERO
                } else {
                    Vec2::new(1.0e4, -2.0e4)
                };
                let pose_a = Pose::new(base, 0.3 * k as f32);
                let pose_b = Pose::new(base + *offset, -0.7 * k as f32);
                let pair = ShapePair::new(a, pose_a, b, pose_b);
                let motion = Motion {
                    velocity_a: Vec2::new(0.5, 0.0),
                    velocity_b: -*offset,
                    t_max: 1.0,
                };
                let body_a = BodyRef {
                    shape: a,
                    pose: pose_a,
                    velocity: Some(motion.velocity_a),
                };
                let body_b = BodyRef {
                    shape: b,
                    pose: pose_b,
                    velocity: Some(motion.velocity_b),
                };
                let still_b = BodyRef {
                    velocity: None,
                    ..body_b
                };
                let (count, intersecting) = allocations_during(|| {
                    black_box(gjk_intersects(&pair, &gjk_config));
                    let g = black_box(gjk(&pair, &gjk_config, &mut ()));
                    black_box(epa(&pair, &g, &epa_config, &mut ()));
                    let s = black_box(sat(&pair, &mut ()));
                    black_box(clip(&pair, s.normal, &mut ()));
                    black_box(contact_manifold(&pair, s.normal));
                    black_box(clip_after_sat(&pair, &s, &mut ()));
                    black_box(contact_manifold_after_sat(&pair, &s));
                    black_box(sweep(&pair, &motion, &mut ()));
                    black_box(query_pair(&body_a, &body_b, &settings));
                    black_box(query_pair(&body_a, &still_b, &settings));
                    black_box(may_touch(&body_a, &body_b, settings.sweep_time));
                    g.intersecting
                });
                assert_eq!(
                    count, 0,
                    "{name_a} against {name_b} at offset {offset} (intersecting: {intersecting}): \
                     {count} heap allocations"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, shapes.len() * shapes.len() * OFFSETS.len());
}

mod three_d {
    //! The 3D core: untraced SAT, manifold, sweep and the pair query allocate nothing. The
    //! clip polygon lives in a fixed array of `CLIP_CAPACITY` points, enough for any two
    //! faces whose vertex counts add up to at most that (here up to 24-gon caps).

    use super::allocations_during;
    use collision_lab::geom3::{Polyhedron, Pose3, Shape3Kind};
    use collision_lab::query3::manifold::{contact_manifold, manifold, FeaturePair, CLIP_CAPACITY};
    use collision_lab::query3::pair::{query_pair3, BodyRef3, PairSettings3};
    use collision_lab::query3::sat::{sat, sat_test};
    use collision_lab::query3::sweep::{sweep, Motion3};
    use collision_lab::query3::PolyPair;
    use glam::Vec3;
    use std::hint::black_box;

    fn shape(kind: Shape3Kind) -> Polyhedron {
        Polyhedron::new(&kind).expect("valid")
    }

    /// Points on an ellipsoid, unevenly spread.
    fn blob(n: usize) -> Polyhedron {
        let points = (0..n)
            .map(|k| {
                let t = k as f32 + 0.5;
                let polar = (1.0 - 2.0 * t / n as f32).acos();
                let azimuth = t * 2.399_963; // the golden angle, in radians
                Vec3::new(
                    1.1 * polar.sin() * azimuth.cos(),
                    0.8 * polar.cos(),
                    0.9 * polar.sin() * azimuth.sin(),
                )
            })
            .collect();
        shape(Shape3Kind::Hull { points })
    }

    fn shapes() -> Vec<(&'static str, Polyhedron)> {
        vec![
            (
                "cube",
                shape(Shape3Kind::Cuboid {
                    half_extents: Vec3::splat(0.5),
                }),
            ),
            (
                "slab",
                shape(Shape3Kind::Cuboid {
                    half_extents: Vec3::new(1.5, 0.3, 1.2),
                }),
            ),
            (
                "hexagonal prism",
                shape(Shape3Kind::Prism {
                    sides: 6,
                    radius: 0.8,
                    half_height: 0.4,
                }),
            ),
            (
                "24-gon prism",
                shape(Shape3Kind::Prism {
                    sides: 24,
                    radius: 0.9,
                    half_height: 0.3,
                }),
            ),
            ("12-point hull", blob(12)),
            ("200-point hull (hill climbing)", blob(200)),
        ]
    }

    const OFFSETS: [Vec3; 5] = [
        Vec3::new(0.1, 0.05, 0.0),
        Vec3::new(0.3, 0.9, -0.2),
        Vec3::new(-1.2, 0.3, 0.4),
        Vec3::new(0.2, 1.3, 0.1),
        Vec3::new(4.0, 4.0, -3.0),
    ];

    #[test]
    fn untraced_3d_queries_do_not_allocate() {
        const { assert!(CLIP_CAPACITY >= 48) };
        let shapes = shapes();
        let settings = PairSettings3::default();
        let mut checked = 0;
        let (mut face_face, mut most_clipped) = (0, 0);
        for (name_a, a) in &shapes {
            for (name_b, b) in &shapes {
                for (k, offset) in OFFSETS.iter().enumerate() {
                    let base = if k % 2 == 0 {
                        Vec3::ZERO
                    } else {
                        Vec3::new(1.0e4, -2.0e4, 5.0e3)
                    };
                    // Every other case face-down and upright, where face-face clipping runs.
                    let turn = if k % 2 == 0 {
                        Vec3::new(0.0, 17.0 * k as f32, 0.0)
                    } else {
                        Vec3::new(31.0 * k as f32, -12.0, 7.0)
                    };
                    let pose_a = Pose3::from_degrees(base, Vec3::ZERO);
                    let pose_b = Pose3::from_degrees(base + *offset, turn);
                    let pair = PolyPair::new(a, &pose_a, b, &pose_b);
                    let motion = Motion3 {
                        velocity_a: Vec3::new(0.5, 0.0, 0.0),
                        velocity_b: -*offset,
                        t_max: 1.0,
                    };
                    let body_a = BodyRef3 {
                        shape: a.into(),
                        pose: pose_a,
                        velocity: Some(motion.velocity_a),
                    };
                    let body_b = BodyRef3 {
                        shape: b.into(),
                        pose: pose_b,
                        velocity: Some(motion.velocity_b),
                    };
                    let still_b = BodyRef3 {
                        velocity: None,
                        ..body_b
                    };
                    let (count, intersecting) = allocations_during(|| {
                        let s = black_box(sat(&pair, &mut ()));
                        black_box(sat_test(&pair));
                        black_box(manifold(&pair, s.normal, &mut ()));
                        black_box(contact_manifold(&pair, Vec3::Y));
                        black_box(sweep(&pair, &motion, &mut ()));
                        black_box(query_pair3(&body_a, &body_b, &settings));
                        black_box(query_pair3(&body_a, &still_b, &settings));
                        s.intersecting
                    });
                    assert_eq!(
                        count, 0,
                        "{name_a} against {name_b} at offset {offset} (intersecting: \
                         {intersecting}): {count} heap allocations"
                    );
                    checked += 1;
                    let m = contact_manifold(&pair, sat_test(&pair).normal);
                    if intersecting && m.feature == FeaturePair::FaceFace {
                        face_face += 1;
                        most_clipped = most_clipped.max(m.clipped);
                    }
                }
            }
        }
        assert_eq!(checked, shapes.len() * shapes.len() * OFFSETS.len());
        // The clipping path ran, on large polygons too.
        assert!(face_face >= 10, "{face_face} face-face cases");
        assert!(most_clipped >= 24, "at most {most_clipped} clipped points");
    }
}

/// Spheres and capsules against polyhedra and each other, untraced: SAT with round shapes,
/// the manifold on the cores, GJK and EPA with the radii, the sweep (its bracket and Newton
/// steps) and the whole pair query.
mod round3 {
    use super::{allocations_during, black_box};
    use collision_lab::geom3::{Pose3, Shape3, Shape3Kind};
    use collision_lab::query3::manifold_round::manifold_round;
    use collision_lab::query3::pair::{query_pair3, BodyRef3, PairSettings3};
    use collision_lab::query3::round::{epa_rounded, gjk_rounded, BodyPair3};
    use collision_lab::query3::sat_round::sat_round;
    use collision_lab::query3::sweep::{sweep_round, Motion3};
    use collision_lab::query3::{epa, gjk};
    use glam::Vec3;

    fn shapes() -> Vec<Shape3> {
        [
            Shape3Kind::Sphere { radius: 0.5 },
            Shape3Kind::Capsule {
                half_length: 0.7,
                radius: 0.3,
            },
            Shape3Kind::Cuboid {
                half_extents: Vec3::new(1.0, 0.5, 1.0),
            },
            Shape3Kind::Prism {
                sides: 24,
                radius: 0.9,
                half_height: 0.3,
            },
        ]
        .iter()
        .map(|k| Shape3::new(k).unwrap())
        .collect()
    }

    #[test]
    fn untraced_round_queries_do_not_allocate() {
        let shapes = shapes();
        let settings = PairSettings3::default();
        let mut checked = 0;
        for a in &shapes {
            for b in &shapes {
                if !(a.kind().is_round() || b.kind().is_round()) {
                    continue;
                }
                for (k, offset) in [
                    Vec3::new(0.1, 0.05, 0.0),
                    Vec3::new(0.3, 0.9, -0.2),
                    Vec3::new(0.0, 0.95, 0.0),
                    Vec3::new(4.0, 4.0, -3.0),
                ]
                .iter()
                .enumerate()
                {
                    let pose_a = Pose3::from_degrees(Vec3::new(1.0e4, 0.0, 0.0), Vec3::ZERO);
                    let turn = Vec3::new(0.0, 0.0, [0.0, 90.0, 37.0, 12.0][k]);
                    let pose_b = Pose3::from_degrees(pose_a.position + *offset, turn);
                    let pair = BodyPair3::new(a.as_ref(), &pose_a, b.as_ref(), &pose_b);
                    // A moves along x or straight toward B, by the case: misses, hits and
                    // overlaps at the start all run the sweep's Newton steps.
                    let motion = Motion3 {
                        velocity_a: [Vec3::X, *offset * 2.0][k % 2],
                        velocity_b: Vec3::ZERO,
                        t_max: 1.0,
                    };
                    let body_a = BodyRef3 {
                        shape: a.as_ref(),
                        pose: pose_a,
                        velocity: Some(motion.velocity_a),
                    };
                    let body_b = BodyRef3 {
                        shape: b.as_ref(),
                        pose: pose_b,
                        velocity: None,
                    };
                    let (count, _) = allocations_during(|| {
                        let s = black_box(sat_round(&pair, &mut ()));
                        black_box(manifold_round(&pair, s.normal, &mut ()));
                        let g = gjk::gjk(&pair, &gjk::Config::default(), &mut ());
                        black_box(gjk_rounded(&pair, &gjk::Config::default(), &mut ()));
                        black_box(epa_rounded(&pair, &g, &epa::Config::default(), &mut ()));
                        black_box(sweep_round(&pair, &motion, &mut ()));
                        black_box(query_pair3(&body_a, &body_b, &settings));
                    });
                    assert_eq!(
                        count,
                        0,
                        "{:?} against {:?} at {offset}: {count} heap allocations",
                        a.kind(),
                        b.kind()
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 12 * 4);
    }
}

/// 3D GJK (distance and boolean test) and EPA, untraced, on polyhedra from a box to a
/// 200-sided prism (hill-climbing support), deep, shallow, touching and apart, near the world
/// origin and far from it.
mod gjk3 {
    use super::{allocations_during, black_box};
    use collision_lab::geom3::{Polyhedron, Pose3, Shape3Kind};
    use collision_lab::query3::epa::{epa, Config as EpaConfig};
    use collision_lab::query3::gjk::{gjk, gjk_intersects, Config as GjkConfig};
    use collision_lab::query3::PolyPair;
    use glam::Vec3;

    fn polyhedra() -> Vec<(&'static str, Polyhedron)> {
        let hull_points = (0..20)
            .map(|k| {
                // Points on a squashed sphere (a golden-angle spiral): a hull of about 36 faces.
                let y = 1.0 - 2.0 * (k as f32 + 0.5) / 20.0;
                let r = (1.0 - y * y).sqrt();
                let a = 2.399_963 * k as f32;
                Vec3::new(1.1 * r * a.cos(), 0.8 * y, 0.9 * r * a.sin())
            })
            .collect();
        vec![
            (
                "box",
                Polyhedron::new(&Shape3Kind::Cuboid {
                    half_extents: Vec3::new(1.0, 0.6, 0.8),
                })
                .unwrap(),
            ),
            (
                "7-prism",
                Polyhedron::new(&Shape3Kind::Prism {
                    sides: 7,
                    radius: 0.9,
                    half_height: 0.5,
                })
                .unwrap(),
            ),
            (
                "20-point hull",
                Polyhedron::new(&Shape3Kind::Hull {
                    points: hull_points,
                })
                .unwrap(),
            ),
            (
                "200-prism (hill climbing)",
                Polyhedron::new(&Shape3Kind::Prism {
                    sides: 200,
                    radius: 1.0,
                    half_height: 0.7,
                })
                .unwrap(),
            ),
        ]
    }

    /// Offsets of B from A: coincident, deep, shallow, touching (boxes face to face), apart.
    const OFFSETS: [Vec3; 5] = [
        Vec3::ZERO,
        Vec3::new(0.3, 0.1, -0.2),
        Vec3::new(1.5, 0.4, 0.3),
        Vec3::new(2.0, 0.3, 0.2),
        Vec3::new(4.0, 3.0, -2.0),
    ];

    #[test]
    fn untraced_gjk_and_epa_3d_do_not_allocate() {
        let shapes = polyhedra();
        let gjk_config = GjkConfig::default();
        let epa_config = EpaConfig::default();
        let mut checked = 0;
        let mut penetrating = 0;
        for (name_a, a) in &shapes {
            for (name_b, b) in &shapes {
                for (k, offset) in OFFSETS.iter().enumerate() {
                    let base = if k % 2 == 0 {
                        Vec3::ZERO
                    } else {
                        Vec3::new(1.0e4, -2.0e4, 5.0e3)
                    };
                    let turn = if k == 3 {
                        Vec3::ZERO
                    } else {
                        Vec3::new(10.0 * k as f32, -20.0, 35.0)
                    };
                    let pose_a = Pose3::from_degrees(base, Vec3::ZERO);
                    let pose_b = Pose3::from_degrees(base + *offset, turn);
                    let pair = PolyPair::new(a, &pose_a, b, &pose_b);
                    let (count, depth) = allocations_during(|| {
                        black_box(gjk_intersects(&pair, &gjk_config));
                        let g = black_box(gjk(&pair, &gjk_config, &mut ()));
                        black_box(epa(&pair, &g, &epa_config, &mut ())).map(|e| e.depth)
                    });
                    assert_eq!(
                        count, 0,
                        "{name_a} against {name_b} at offset {offset}: {count} heap allocations"
                    );
                    penetrating += depth.is_some() as usize;
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, shapes.len() * shapes.len() * OFFSETS.len());
        // EPA ran (not only GJK) on the overlapping offsets.
        assert!(
            penetrating >= 2 * shapes.len() * shapes.len(),
            "{penetrating}"
        );
    }
}
