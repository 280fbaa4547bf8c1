//! The agreement harness: every untraced fast path against its algorithm's reference, bit
//! for bit, on one shared set of cases.
//!
//! Each algorithm has one reference implementation (the textbook loop the window, `trace`
//! and the goldens show); a fast path is only worth keeping if it gives the reference's
//! answer exactly, to the last bit of every number, the counts and the statuses. This file
//! is the one list of fast paths: [`FAST_PATHS_2D`] and [`FAST_PATHS_3D`]. Adding a fast
//! path means adding a line there; the test fails for a path that no case reaches, so a
//! line cannot sit there unchecked.
//!
//! The cases (`cases_2d`, `cases_3d`) are the ones fast paths get wrong when they are
//! wrong: random poses; ties (unturned and quarter-turned bodies on a grid of quarters, so
//! faces lie flush, corners sit on side planes and edges run parallel); near ties (turns
//! of 1e-6); touching and coincident bodies, and in 2D each shape face to face with itself;
//! slivers, outlines with repeated and collinear points, and 2D shapes at sizes 1e-3 and
//! 1e4; and everything again far from the origin, where the work frame's rounding differs.
//! Poses with a NaN or an infinity are not cases (the answers are NaN); the 2D SAT's tests
//! keep a small check of them.
//!
//! Answers are compared through their `Debug` text, which prints every `f32` exactly (the
//! shortest text that reads back to the same bits, `-0.0` included).

use crate::geom::{Pose, Shape};
use crate::geom3::{Polyhedron, Pose3, Shape3Kind};
use crate::query::ShapePair;
use crate::query3::PolyPair;
use glam::{Quat, Vec2, Vec3};
use std::fmt::Debug;

/// One 2D case: two shapes and their poses.
pub(crate) struct Case2<'s> {
    pub(crate) a: &'s Shape,
    pub(crate) pose_a: Pose,
    pub(crate) b: &'s Shape,
    pub(crate) pose_b: Pose,
    pub(crate) label: String,
}

impl Case2<'_> {
    pub(crate) fn pair(&self) -> ShapePair<'_> {
        ShapePair::new(self.a, self.pose_a, self.b, self.pose_b)
    }
}

/// One 3D case: two polyhedra and their poses.
pub(crate) struct Case3<'s> {
    pub(crate) a: &'s Polyhedron,
    pub(crate) pose_a: Pose3,
    pub(crate) b: &'s Polyhedron,
    pub(crate) pose_b: Pose3,
    /// B's velocity (A stays still), for the sweep.
    pub(crate) velocity_b: Vec3,
    pub(crate) label: String,
}

impl Case3<'_> {
    pub(crate) fn pair(&self) -> PolyPair<'_> {
        PolyPair::new(self.a, &self.pose_a, self.b, &self.pose_b)
    }
}

/// A fast path and its reference on one case: `None` when the fast path does not apply to
/// the case (the dispatcher would not take it), else both answers as `Debug` text.
type Check2 = for<'s> fn(&Case2<'s>) -> Option<(String, String)>;
/// [`Check2`] for a 3D case.
type Check3 = for<'s> fn(&Case3<'s>) -> Option<(String, String)>;

/// Both answers as text, for a [`Check`].
fn both<O: Debug>(fast: O, reference: O) -> Option<(String, String)> {
    Some((format!("{fast:?}"), format!("{reference:?}")))
}

/// Every 2D fast path: its name and its check.
pub(crate) const FAST_PATHS_2D: &[(&str, Check2)] = &[
    (
        "gjk: the boolean test (gjk_intersects) against gjk's verdict",
        |c| {
            use crate::query::gjk::{gjk, gjk_intersects, GjkConfig};
            let pair = c.pair();
            let config = GjkConfig::default();
            both(
                gjk_intersects(&pair, &config),
                gjk(&pair, &config, &mut ()).intersecting,
            )
        },
    ),
    ("sat: the untraced dispatcher (sat_test)", |c| {
        use crate::query::sat::{reference, sat_test};
        let pair = c.pair();
        both(sat_test(&pair), reference::sat(&pair, &mut ()))
    }),
    (
        "sat: small polygons, every edge axis at once in lanes (small.rs)",
        |c| {
            use crate::query::sat::{reference, small};
            let pair = c.pair();
            let small_enough = pair.a.vertex_count() <= 16 && pair.b.vertex_count() <= 16;
            (pair.edge_normals_suffice() && small_enough)
                .then(|| both(small::sat_small(&pair), reference::sat(&pair, &mut ())))?
        },
    ),
    (
        "sat: the small pass in vector registers, as the processor runs it (registers.rs)",
        |c| {
            use crate::query::sat::{reference, registers};
            let pair = c.pair();
            (pair.edge_normals_suffice() && registers::applies(&pair))
                .then(|| both(registers::sat_small(&pair), reference::sat(&pair, &mut ())))?
        },
    ),
    (
        "sat: the small pass in vector registers, as the x86_64 baseline runs it",
        |c| {
            use crate::query::sat::{reference, registers};
            use crate::simd::Build;
            let pair = c.pair();
            (pair.edge_normals_suffice() && registers::applies(&pair)).then(|| {
                both(
                    registers::sat_small_in(&pair, Build::Baseline),
                    reference::sat(&pair, &mut ()),
                )
            })?
        },
    ),
    ("sat: the rotating calipers' lean pass (calipers.rs)", |c| {
        use crate::query::sat::{calipers, reference};
        let pair = c.pair();
        // Small cores are projected whole by the reference (and the other passes): the
        // calipers' walk rounds their projections differently, so it is only for cores
        // past 16 vertices, as the dispatcher takes it.
        let large = pair.a.vertex_count() > 16 || pair.b.vertex_count() > 16;
        (pair.edge_normals_suffice() && large)
            .then(|| both(calipers::sat_large(&pair), reference::sat(&pair, &mut ())))?
    }),
    (
        "clip: each best side without the walk (lone_side.rs)",
        |c| {
            use crate::query::clip::{contact_manifold, reference};
            let pair = c.pair();
            let normal = crate::query::sat::sat_test(&pair).normal;
            both(
                contact_manifold(&pair, normal),
                reference::clip(&pair, normal, &mut ()),
            )
        },
    ),
    (
        "clip: SAT's winning edge handed over as a best side (handoff.rs)",
        |c| {
            use crate::query::clip::{handoff, reference};
            let pair = c.pair();
            let sat = crate::query::sat::sat_test(&pair);
            both(
                handoff::contact_manifold_after_sat(&pair, &sat),
                reference::clip(&pair, sat.normal, &mut ()),
            )
        },
    ),
];

/// Every 3D fast path: its name and its check.
pub(crate) const FAST_PATHS_3D: &[(&str, Check3)] = &[
    ("support: the lane scan against the scan", |c| {
        let d = direction(c);
        both(c.b.support_scan_lanes(d), c.b.support_scan(d))
    }),
    ("support: both ends in one pass against two searches", |c| {
        let d = direction(c);
        both(c.b.support_pair(d), (c.b.support(-d), c.b.support(d)))
    }),
    (
        "support: the lane value against the support vertex's dot product",
        |c| {
            let d = direction(c);
            let value = c.b.support_value_lanes(d)?;
            both(value, c.b.vertex(c.b.support(d)).dot(d))
        },
    ),
    ("support: a cuboid's closed form against the scan", |c| {
        let d = direction(c);
        let (index, corner) = c.b.cuboid_support(d)?;
        let scanned = c.b.support_scan(d);
        both((index, corner), (scanned, c.b.vertex(scanned)))
    }),
    (
        "gjk: the boolean test (closed form, separating-axis exit) against gjk's verdict",
        |c| {
            use crate::query3::gjk::{gjk, gjk_intersects, Config};
            let pair = c.pair();
            let config = Config::default();
            both(
                gjk_intersects(&pair, &config),
                gjk(&pair, &config, &mut ()).intersecting,
            )
        },
    ),
    ("sat3: the untraced dispatcher (sat_test)", |c| {
        use crate::query3::sat::{reference, sat_test};
        let pair = c.pair();
        both(sat_test(&pair), reference::sat(&pair, &mut ()))
    }),
    ("sat3: two cuboids in closed form (cuboid.rs)", |c| {
        use crate::query3::sat::{cuboid::CuboidPair, reference};
        let pair = c.pair();
        let boxes = CuboidPair::new(&pair)?;
        both(boxes.sat(&pair), reference::sat(&pair, &mut ()))
    }),
    (
        "sat3: two small bodies, edge pairs in lanes (small.rs)",
        |c| {
            use crate::query3::sat::{reference, small};
            let pair = c.pair();
            (sat3_path(&pair) == Sat3Path::Small).then(|| {
                both(
                    small::sat(&pair, &mut |_, _| {}),
                    reference::sat(&pair, &mut ()),
                )
            })?
        },
    ),
    (
        "sat3: large bodies, edge pairs named by the arc tree (arc_tree.rs)",
        |c| {
            use crate::query3::sat::{arc_tree, reference};
            let pair = c.pair();
            (sat3_path(&pair) == Sat3Path::ArcTree)
                .then(|| both(arc_tree::sat(&pair), reference::sat(&pair, &mut ())))?
        },
    ),
    ("sat3: the untraced exhaustive loop (large.rs)", |c| {
        use crate::query3::sat::{large, reference};
        let pair = c.pair();
        // Every pair that is not two cuboids or two small bodies (whose reference places
        // edges as their own fast paths do), the arc tree's included.
        matches!(sat3_path(&pair), Sat3Path::ArcTree | Sat3Path::Large)
            .then(|| both(large::sat(&pair), reference::sat(&pair, &mut ())))?
    }),
    (
        "sweep3: the untraced small-body path, as compiled (sweep/small.rs)",
        |c| sweep3_variant(c, crate::query3::sweep::Variant::Default),
    ),
    (
        "sweep3: the small-body path as the x86_64 baseline runs it",
        |c| sweep3_variant(c, crate::query3::sweep::Variant::Baseline),
    ),
    ("sweep3: the small-body path four lanes at a time", |c| {
        sweep3_variant(c, crate::query3::sweep::Variant::FourLanes)
    }),
    (
        "sweep3: the small-body path without the bound over whole arcs",
        |c| sweep3_variant(c, crate::query3::sweep::Variant::NoArcBound),
    ),
];

/// The untraced sweep in `variant` against the reference, for the pairs the dispatcher
/// sends down the small-body path (the others run the reference itself). The prunings leave
/// axes uncounted (the bound over whole arcs, edges of A whose axes it never forms), so
/// the count of axes tested is compared only without that bound.
fn sweep3_variant(c: &Case3, variant: crate::query3::sweep::Variant) -> Option<(String, String)> {
    use crate::query3::sweep::{reference, small, time_of_impact_untraced, Motion3, Variant};
    let pair = c.pair();
    let motion = Motion3 {
        velocity_a: Vec3::ZERO,
        velocity_b: c.velocity_b,
        t_max: 1.0,
    };
    small::Placement::new(&pair, c.velocity_b)?;
    let (mut fast, _) = time_of_impact_untraced(&pair, &motion, variant);
    let mut exact = reference::time_of_impact(&pair, &motion, &mut ());
    if variant != Variant::NoArcBound {
        (fast.axes_tested, exact.axes_tested) = (0, 0);
    }
    both(fast, exact)
}

/// Which of its fast paths the 3D SAT's untraced dispatcher takes for a pair: each is checked
/// where the dispatcher takes it (the reference reproduces each path's placement of the
/// bodies: two cuboids by their quaternions, two small bodies by the matrices).
#[derive(PartialEq)]
enum Sat3Path {
    Cuboids,
    Small,
    ArcTree,
    Large,
}

fn sat3_path(pair: &PolyPair) -> Sat3Path {
    use crate::query3::sat::{arc_tree, cuboid::CuboidPair, support};
    if CuboidPair::new(pair).is_some() {
        Sat3Path::Cuboids
    } else if support::is_small(&pair.a) && support::is_small(&pair.b) {
        Sat3Path::Small
    } else if arc_tree::uses_arc_tree(pair) {
        Sat3Path::ArcTree
    } else {
        Sat3Path::Large
    }
}

/// A direction that depends on the case: B's offset from A turned a little, or an axis
/// (ties) for unturned cases.
fn direction(c: &Case3) -> Vec3 {
    let d = c.pose_b.rotation.inverse() * (c.pose_a.position - c.pose_b.position);
    if d == Vec3::ZERO {
        Vec3::Y
    } else {
        d
    }
}

/// splitmix64: fixed seeds, so every run checks the same cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [lo, hi).
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The 2D shapes: boxes, regular polygons from triangles to 1,024-gons (every lane width),
/// random convex outlines, outlines with collinear and repeated points, a sliver, circles,
/// capsules and a segment, and a few at sizes 1e-3 and 1e4.
fn shapes_2d(rng: &mut Rng) -> Vec<Shape> {
    let mut shapes = vec![
        Shape::rect(Vec2::new(0.5, 0.5)).unwrap(),
        Shape::rect(Vec2::new(1.0, 1.0)).unwrap(),
        Shape::rect(Vec2::new(1.3, 0.4)).unwrap(),
        Shape::rect(Vec2::new(2.0, 1e-3)).unwrap(),
        Shape::circle(0.6).unwrap(),
        Shape::capsule(0.9, 0.25).unwrap(),
        Shape::capsule(0.7, 0.0).unwrap(),
        Shape::polygon(vec![
            Vec2::new(-1.0, -1.0),
            Vec2::new(0.0, -1.0),
            Vec2::new(1.0, -1.0),
            Vec2::new(1.0, -1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(-1.0, 1.0),
        ])
        .unwrap(),
    ];
    for sides in [3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 32, 64] {
        shapes.push(Shape::regular(sides, rng.f(0.3, 1.5)).unwrap());
    }
    for _ in 0..8 {
        // Points on a circle at sorted random angles: a convex outline.
        let n = 3 + rng.below(14);
        let mut angles: Vec<f32> = (0..n).map(|_| rng.f(0.0, std::f32::consts::TAU)).collect();
        angles.sort_by(f32::total_cmp);
        let radius = rng.f(0.3, 1.5);
        let points = angles
            .iter()
            .map(|&t| Vec2::from_angle(t) * radius)
            .collect();
        if let Ok(shape) = Shape::polygon(points) {
            shapes.push(shape);
        }
    }
    shapes.extend(awkward_outlines_2d());
    // Large polygons for the calipers: regular ones (parallel edges, so ties between both
    // bodies' axes) and random ones with a point in each of n sectors of an ellipse.
    shapes.extend([256, 1024].map(|n| Shape::regular(n, 1.0).unwrap()));
    shapes.extend([100, 1024].map(|n| ellipse_polygon(rng, n)));
    // Sizes 1e-3 and 1e4 (rounding at either end of the scale): a box, a triangle and
    // random 8- and 100-gons.
    let scaled = [
        Shape::rect(Vec2::new(1.3, 0.4)).unwrap(),
        Shape::polygon(vec![Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(0.0, 1.0)]).unwrap(),
        ellipse_polygon(rng, 8),
        ellipse_polygon(rng, 100),
    ];
    for scale in [1.0e-3, 1.0e4] {
        shapes.extend(
            scaled
                .iter()
                .map(|s| Shape::polygon(s.core().iter().map(|&p| p * scale).collect()).unwrap()),
        );
    }
    shapes
}

/// Outlines whose lanes or steps have something odd: four-vertex outlines (one group of
/// four lanes) that are a triangle, a parallelogram, a trapezoid, a quad with a repeated
/// vertex (a lane with no axis) and one with a vertex on a side (collinear edges); the
/// 5-gons of `geom::test_outlines` (split, bent and cut sides, a repeated point); regular
/// 12- and 20-gons with a vertex repeated and with one on a side.
fn awkward_outlines_2d() -> Vec<Shape> {
    use crate::geom::test_outlines as outlines;
    let v = Vec2::new;
    let mut shapes: Vec<Shape> = [
        vec![v(0.0, 0.0), v(2.0, 0.0), v(0.0, 1.0)],
        vec![v(-1.0, -0.5), v(1.0, -0.5), v(1.5, 0.5), v(-0.5, 0.5)],
        vec![v(-1.0, -0.5), v(1.0, -0.5), v(0.5, 0.5), v(-0.5, 0.5)],
        vec![v(-1.0, -0.5), v(1.0, -0.5), v(1.0, -0.5), v(0.0, 0.5)],
        vec![v(-1.0, -0.5), v(0.0, -0.5), v(1.0, -0.5), v(0.0, 0.5)],
    ]
    .into_iter()
    .map(|points| Shape::polygon(points).unwrap())
    .collect();
    shapes.extend([
        outlines::split_top(),
        outlines::repeated_point(),
        outlines::bent_top(),
        outlines::cut_corner(),
    ]);
    for n in [12, 20] {
        let core = Shape::regular(n, 1.0).unwrap().core().to_vec();
        let mut repeated = core.clone();
        repeated.insert(3, core[3]);
        let mut on_side = core.clone();
        on_side.insert(5, (core[4] + core[5]) * 0.5);
        shapes.extend([repeated, on_side].map(|points| Shape::polygon(points).unwrap()));
    }
    shapes
}

/// A convex `n`-gon: one point in each of `n` equal sectors of an ellipse with radii of
/// 0.7 to 1.3.
fn ellipse_polygon(rng: &mut Rng, n: usize) -> Shape {
    let (rx, ry) = (rng.f(0.7, 1.3), rng.f(0.7, 1.3));
    let sector = std::f32::consts::TAU / n as f32;
    let points = (0..n)
        .map(|k| {
            let angle = sector * (k as f32 + rng.f(0.1, 0.9));
            Vec2::new(rx * angle.cos(), ry * angle.sin())
        })
        .collect();
    Shape::polygon(points).unwrap()
}

/// Poses of B against A at the origin (or far from it): random, on a grid of quarters with
/// quarter turns (ties), touching along an axis, coincident; then random offsets at the
/// pair's `size` (the larger bounding radius), turned by 1e-6 or a quarter turn and 1e-6.
fn poses_2d(rng: &mut Rng, far: Vec2, size: f32) -> Vec<(Pose, Pose, &'static str)> {
    let mut poses = Vec::new();
    for _ in 0..6 {
        let a = Pose::new(far, rng.f(-3.2, 3.2));
        let b = Pose::new(
            far + Vec2::new(rng.f(-2.5, 2.5), rng.f(-2.5, 2.5)),
            rng.f(-3.2, 3.2),
        );
        poses.push((a, b, "random"));
    }
    for _ in 0..4 {
        let quarter = |rng: &mut Rng| rng.below(4) as f32 * std::f32::consts::FRAC_PI_2;
        let a = Pose::new(far, quarter(rng));
        let grid = |rng: &mut Rng| (rng.below(13) as f32 - 6.0) * 0.25;
        let b = Pose::new(far + Vec2::new(grid(rng), grid(rng)), quarter(rng));
        poses.push((a, b, "tied"));
    }
    poses.push((Pose::new(far, 0.0), Pose::new(far, 0.0), "coincident"));
    poses.push((
        Pose::new(far, 0.0),
        Pose::new(far + Vec2::new(1.0, 0.0), 0.0),
        "touching",
    ));
    for turn in [0.0, std::f32::consts::FRAC_PI_2] {
        let offset = Vec2::new(rng.f(-2.0, 2.0), rng.f(-2.0, 2.0)) * size;
        let a = Pose::new(far, 1.0e-6);
        let b = Pose::new(far + offset, turn + 1.0e-6 * rng.below(3) as f32);
        poses.push((a, b, "nearly tied, at the pair's size"));
    }
    poses
}

/// Shape `a` against itself, unturned, face to face along x or y, touching or overlapping
/// by a quarter of its reach (twice its bounding radius).
fn face_to_face_2d(a: &Shape, far: Vec2) -> Vec<(Pose, Pose, &'static str)> {
    let reach = 2.0 * a.bounding_radius();
    let mut poses = Vec::new();
    for along in [Vec2::X, Vec2::Y] {
        for (depth, kind) in [(0.0, "itself, touching"), (0.25, "itself, a quarter deep")] {
            let b = far + along * (reach - depth * reach);
            poses.push((Pose::new(far, 0.0), Pose::new(b, 0.0), kind));
        }
    }
    poses
}

/// Every 2D case: each shape against itself face to face, and against each of a sample of
/// others at each pose, near the origin and far from it.
fn cases_2d<'s>(shapes: &'s [Shape], rng: &mut Rng) -> Vec<Case2<'s>> {
    let mut cases = Vec::new();
    for far in [Vec2::ZERO, Vec2::new(3.0e4, -1.2e4)] {
        for (i, a) in shapes.iter().enumerate() {
            for (pose_a, pose_b, kind) in face_to_face_2d(a, far) {
                cases.push(Case2 {
                    a,
                    pose_a,
                    b: a,
                    pose_b,
                    label: format!("shape {i}, {kind}, at {far}"),
                });
            }
            for _ in 0..6 {
                let j = rng.below(shapes.len());
                let b = &shapes[j];
                let size = a.bounding_radius().max(b.bounding_radius());
                for (pose_a, pose_b, kind) in poses_2d(rng, far, size) {
                    cases.push(Case2 {
                        a,
                        pose_a,
                        b,
                        pose_b,
                        label: format!("shapes {i} and {j}, {kind}, at {far}"),
                    });
                }
            }
        }
    }
    cases
}

/// The 3D polyhedra: cuboids (a cube, a slab, a sliver), prisms from 3 to 40 sides, random
/// hulls from 4 to 40 points (small bodies) and a 200-point ball (a large body: the
/// climbing and arc-tree paths).
fn shapes_3d(rng: &mut Rng) -> Vec<Polyhedron> {
    let mut kinds = vec![
        Shape3Kind::Cuboid {
            half_extents: Vec3::splat(0.5),
        },
        Shape3Kind::Cuboid {
            half_extents: Vec3::new(1.0, 0.2, 0.6),
        },
        Shape3Kind::Cuboid {
            half_extents: Vec3::new(2.0, 1e-3, 1.0),
        },
    ];
    for sides in [3, 4, 6, 7, 12, 40] {
        kinds.push(Shape3Kind::Prism {
            sides,
            radius: rng.f(0.3, 1.2),
            half_height: rng.f(0.2, 1.0),
        });
    }
    for n in [4, 6, 9, 16, 40, 200] {
        let points = (0..n)
            .map(|_| {
                let p = Vec3::new(rng.f(-1.0, 1.0), rng.f(-1.0, 1.0), rng.f(-1.0, 1.0));
                if n >= 40 {
                    p.normalize_or(Vec3::X)
                } else {
                    p
                }
            })
            .collect();
        kinds.push(Shape3Kind::Hull { points });
    }
    kinds
        .iter()
        .filter_map(|k| Polyhedron::new(k).ok())
        .collect()
}

/// Poses of B against A as in 2D: random, tied (quarter turns about the axes, a grid of
/// quarters), coincident and touching, near the origin or far from it.
fn poses_3d(rng: &mut Rng, far: Vec3) -> Vec<(Pose3, Pose3, &'static str)> {
    let turn = |rng: &mut Rng| {
        Quat::from_euler(
            glam::EulerRot::ZYX,
            rng.f(-3.2, 3.2),
            rng.f(-1.6, 1.6),
            rng.f(-3.2, 3.2),
        )
    };
    let quarter = |rng: &mut Rng| {
        let q = |rng: &mut Rng| rng.below(4) as f32 * std::f32::consts::FRAC_PI_2;
        Quat::from_euler(glam::EulerRot::ZYX, q(rng), q(rng), q(rng))
    };
    let mut poses = Vec::new();
    for _ in 0..5 {
        let offset = Vec3::new(rng.f(-2.0, 2.0), rng.f(-2.0, 2.0), rng.f(-2.0, 2.0));
        poses.push((
            Pose3::new(far, turn(rng)),
            Pose3::new(far + offset, turn(rng)),
            "random",
        ));
    }
    for _ in 0..4 {
        let grid = |rng: &mut Rng| (rng.below(9) as f32 - 4.0) * 0.25;
        let offset = Vec3::new(grid(rng), grid(rng), grid(rng));
        poses.push((
            Pose3::new(far, quarter(rng)),
            Pose3::new(far + offset, quarter(rng)),
            "tied",
        ));
    }
    poses.push((
        Pose3::new(far, Quat::IDENTITY),
        Pose3::new(far, Quat::IDENTITY),
        "coincident",
    ));
    poses.push((
        Pose3::new(far, Quat::IDENTITY),
        Pose3::new(far + Vec3::new(0.0, 1.0, 0.0), Quat::IDENTITY),
        "touching",
    ));
    poses
}

fn cases_3d<'s>(shapes: &'s [Polyhedron], rng: &mut Rng) -> Vec<Case3<'s>> {
    let mut cases = Vec::new();
    for far in [Vec3::ZERO, Vec3::new(2.0e4, -1.0e4, 5.0e3)] {
        for (i, a) in shapes.iter().enumerate() {
            // Five others at random, and the three cuboids (the cuboid paths' cases).
            let others: Vec<usize> = (0..5).map(|_| rng.below(shapes.len())).collect();
            for j in others.into_iter().chain(0..3) {
                let b = &shapes[j];
                for (pose_a, pose_b, kind) in poses_3d(rng, far) {
                    let velocity_b =
                        Vec3::new(rng.f(-4.0, 4.0), rng.f(-4.0, 4.0), rng.f(-4.0, 4.0));
                    cases.push(Case3 {
                        a,
                        pose_a,
                        b,
                        pose_b,
                        velocity_b,
                        label: format!("bodies {i} and {j}, {kind}, at {far}"),
                    });
                }
            }
        }
    }
    cases
}

/// Runs every check on every case: a list of the disagreements and, for each fast path,
/// how many cases it applied to.
fn run<C, F: Fn(&C) -> Option<(String, String)>>(
    paths: &[(&str, F)],
    cases: &[C],
    label: impl Fn(&C) -> &str,
) -> (Vec<String>, Vec<(String, usize)>) {
    let mut disagreements = Vec::new();
    let mut reached = Vec::new();
    for (name, check) in paths {
        let mut applied = 0;
        for case in cases {
            if let Some((fast, reference)) = check(case) {
                applied += 1;
                if fast != reference && disagreements.len() < 20 {
                    disagreements.push(format!(
                        "{name}, {}:\n  fast      {fast}\n  reference {reference}",
                        label(case)
                    ));
                }
            }
        }
        eprintln!("{name}: {applied} of {} cases", cases.len());
        reached.push((name.to_string(), applied));
    }
    (disagreements, reached)
}

fn assert_agreement(disagreements: Vec<String>, reached: Vec<(String, usize)>) {
    let unreached: Vec<&String> = reached
        .iter()
        .filter(|(_, n)| *n == 0)
        .map(|(name, _)| name)
        .collect();
    assert!(
        unreached.is_empty(),
        "fast paths that no case reaches (add cases): {unreached:?}"
    );
    assert!(
        disagreements.is_empty(),
        "fast paths that differ from their reference:\n{}",
        disagreements.join("\n")
    );
}

#[test]
fn every_2d_fast_path_gives_its_references_answer_bit_for_bit() {
    let mut rng = Rng(35);
    let shapes = shapes_2d(&mut rng);
    let cases = cases_2d(&shapes, &mut rng);
    let (disagreements, reached) = run(FAST_PATHS_2D, &cases, |c| &c.label);
    assert_agreement(disagreements, reached);
}

#[test]
fn every_3d_fast_path_gives_its_references_answer_bit_for_bit() {
    let mut rng = Rng(36);
    let shapes = shapes_3d(&mut rng);
    let cases = cases_3d(&shapes, &mut rng);
    let (disagreements, reached) = run(FAST_PATHS_3D, &cases, |c| &c.label);
    assert_agreement(disagreements, reached);
}
