//! The agreement harness's cases: the shapes, poses, motions and directions every fast path
//! is checked on (see the harness's header in `agreement.rs`).
//!
//! Each family is here because some fast path once got it wrong, or could: exact ties
//! (unturned and quarter-turned bodies on a grid, so faces lie flush, corners sit on side
//! planes and edges run parallel), turns a hair off those ties, bodies resting face to face
//! or touching at contact distance (and a hair either side of it), a body against itself,
//! slivers and outlines with collinear, repeated or nearly collinear points, bodies from a
//! thousandth to ten thousand units across, and everything again far from the origin,
//! where the work frame's rounding differs.

use crate::geom::test_outlines as outlines;
use crate::geom::{Pose, Shape};
use crate::geom3::{Polyhedron, Pose3, Shape3Kind};
use crate::query::ShapePair;
use crate::query3::sweep::Motion3;
use crate::query3::PolyPair;
use glam::{Quat, Vec2, Vec3};
use std::f32::consts::{FRAC_PI_2, TAU};

/// One 2D case: two shapes and their poses.
pub(crate) struct Case2<'s> {
    pub(crate) a: &'s Shape,
    pub(crate) pose_a: Pose,
    pub(crate) b: &'s Shape,
    pub(crate) pose_b: Pose,
    /// The case's number, for checks that pick one of several directions or edges by it.
    pub(crate) index: usize,
    pub(crate) label: String,
}

impl Case2<'_> {
    pub(crate) fn pair(&self) -> ShapePair<'_> {
        ShapePair::new(self.a, self.pose_a, self.b, self.pose_b)
    }
}

/// One 3D case: two polyhedra, their poses, B's motion relative to A for the sweep, and
/// directions in B's frame for the support look-ups.
pub(crate) struct Case3<'s> {
    pub(crate) a: &'s Polyhedron,
    pub(crate) pose_a: Pose3,
    pub(crate) b: &'s Polyhedron,
    pub(crate) pose_b: Pose3,
    pub(crate) motion: Motion3,
    /// Directions in B's frame: B's offset from A turned into it, and ties, near-ties and
    /// non-numbers (see [`directions_3d`]).
    pub(crate) directions: Vec<Vec3>,
    pub(crate) label: String,
}

impl Case3<'_> {
    pub(crate) fn pair(&self) -> PolyPair<'_> {
        PolyPair::new(self.a, &self.pose_a, self.b, &self.pose_b)
    }
}

/// splitmix64: fixed seeds, so every run checks the same cases.
pub(crate) struct Rng(pub(crate) u64);

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

    fn pick<T: Copy>(&mut self, values: &[T]) -> T {
        values[self.below(values.len())]
    }

    fn sign(&mut self) -> f32 {
        if self.below(2) == 0 {
            -1.0
        } else {
            1.0
        }
    }

    fn quarter(&mut self) -> f32 {
        self.below(4) as f32 * FRAC_PI_2
    }

    fn unit3(&mut self) -> Vec3 {
        Vec3::new(self.f(-1.0, 1.0), self.f(-1.0, 1.0), self.f(-1.0, 1.0)).normalize_or(Vec3::X)
    }
}

/// Relative sizes a hair off a tie: the contacts and turns "a hair either side".
const HAIRS: [f32; 8] = [0.0, 1e-7, -1e-7, 1e-6, -1e-6, 1e-5, -1e-3, 1e-3];

/// The 2D shapes: boxes, regular polygons from triangles to 1,024-gons (every lane width),
/// random convex outlines, outlines that stress the clip's and the support look-up's
/// searches (collinear and repeated points, a bend just past the collinear tolerance, a
/// corner cut by an edge 1e-6 long, repeated points in every slot of the 8-lane
/// tournament), a parallelogram (faces exactly opposite), four-vertex outlines with a
/// repeated vertex or one on a side, boxes, quads, triangles and random polygons from 1e-3
/// to 1e4 across, random polygons of 100 and 1,024 points, a sliver, circles, capsules
/// and a segment.
pub(crate) fn shapes_2d(rng: &mut Rng) -> Vec<Shape> {
    let v = Vec2::new;
    let mut shapes = vec![
        Shape::rect(v(0.5, 0.5)).unwrap(),
        Shape::rect(v(1.0, 1.0)).unwrap(),
        Shape::rect(v(1.3, 0.4)).unwrap(),
        Shape::rect(v(2.0, 1e-3)).unwrap(),
        Shape::circle(0.6).unwrap(),
        Shape::capsule(0.9, 0.25).unwrap(),
        Shape::capsule(0.7, 0.0).unwrap(),
        Shape::polygon(vec![
            v(-1.0, -1.0),
            v(0.0, -1.0),
            v(1.0, -1.0),
            v(1.0, -1.0),
            v(1.0, 1.0),
            v(-1.0, 1.0),
        ])
        .unwrap(),
        outlines::split_top(),
        outlines::repeated_point(),
        outlines::bent_top(),
        outlines::cut_corner(),
        Shape::polygon(vec![v(0.0, 0.0), v(2.0, 0.0), v(0.0, 1.0)]).unwrap(),
        Shape::polygon(vec![v(-1.0, -0.5), v(1.0, -0.5), v(1.5, 0.5), v(-0.5, 0.5)]).unwrap(),
        // Eight points, repeated in pairs: along the axes and diagonals, exact ties meet
        // in every match of the support look-up's tournament.
        Shape::polygon(vec![
            v(0.0, -1.0),
            v(1.0, -1.0),
            v(1.0, 0.0),
            v(1.0, 0.0),
            v(1.0, 1.0),
            v(0.0, 1.0),
            v(-1.0, 1.0),
            v(-1.0, 1.0),
        ])
        .unwrap(),
    ];
    for size in [1e-3, 1e4] {
        shapes.push(Shape::rect(v(size, size)).unwrap());
        shapes.push(Shape::rect(v(1.3 * size, 0.4 * size)).unwrap());
    }
    for size in [1e-3, 1.0, 1e4] {
        let quad = [v(-1.0, -0.6), v(1.1, -0.5), v(0.8, 0.7), v(-0.9, 0.5)];
        shapes.push(Shape::polygon(quad.map(|p| p * size).to_vec()).unwrap());
    }
    for sides in [3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 32, 64] {
        shapes.push(Shape::regular(sides, rng.f(0.3, 1.5)).unwrap());
    }
    // Four-vertex outlines (one group of four lanes in the register pass): a trapezoid, a
    // quad with a repeated vertex (a lane with no axis) and one with a vertex on a side.
    for quad in [
        [v(-1.0, -0.5), v(1.0, -0.5), v(0.5, 0.5), v(-0.5, 0.5)],
        [v(-1.0, -0.5), v(1.0, -0.5), v(1.0, -0.5), v(0.0, 0.5)],
        [v(-1.0, -0.5), v(0.0, -0.5), v(1.0, -0.5), v(0.0, 0.5)],
    ] {
        shapes.push(Shape::polygon(quad.to_vec()).unwrap());
    }
    // Regular 12- and 20-gons with a vertex repeated and with one on a side.
    for n in [12, 20] {
        let core = Shape::regular(n, 1.0).unwrap().core().to_vec();
        let mut repeated = core.clone();
        repeated.insert(3, core[3]);
        let mut on_side = core.clone();
        on_side.insert(5, (core[4] + core[5]) * 0.5);
        shapes.extend([repeated, on_side].map(|points| Shape::polygon(points).unwrap()));
    }
    // Large polygons for the calipers: regular ones (parallel edges, so ties between both
    // bodies' axes) and random ones with a point in each of n sectors of an ellipse; and a
    // triangle and random 8- and 100-gons at sizes 1e-3 and 1e4.
    shapes.extend([256, 1024].map(|n| Shape::regular(n, 1.0).unwrap()));
    shapes.extend([100, 1024].map(|n| ellipse_polygon(rng, n)));
    let scaled = [
        Shape::polygon(vec![v(0.0, 0.0), v(2.0, 0.0), v(0.0, 1.0)]).unwrap(),
        ellipse_polygon(rng, 8),
        ellipse_polygon(rng, 100),
    ];
    for scale in [1.0e-3, 1.0e4] {
        let scaled_core = |s: &Shape| s.core().iter().map(|&p| p * scale).collect();
        shapes.extend(
            scaled
                .iter()
                .map(|s| Shape::polygon(scaled_core(s)).unwrap()),
        );
    }
    for _ in 0..8 {
        // Points on a circle at sorted random angles: a convex outline.
        let n = 3 + rng.below(14);
        let mut angles: Vec<f32> = (0..n).map(|_| rng.f(0.0, TAU)).collect();
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
    shapes
}

/// A convex `n`-gon: one point in each of `n` equal sectors of an ellipse with radii of
/// 0.7 to 1.3.
fn ellipse_polygon(rng: &mut Rng, n: usize) -> Shape {
    let (rx, ry) = (rng.f(0.7, 1.3), rng.f(0.7, 1.3));
    let sector = TAU / n as f32;
    let points = (0..n)
        .map(|k| {
            let angle = sector * (k as f32 + rng.f(0.1, 0.9));
            Vec2::new(rx * angle.cos(), ry * angle.sin())
        })
        .collect();
    Shape::polygon(points).unwrap()
}

/// Poses of B against A at `far` (the origin, or far from it), with offsets in units of
/// `size` (the larger body's reach): random; tied (quarter turns, offsets on a grid of
/// quarters); tied a hair off (B turned a quarter turn plus 1e-6); coincident; touching
/// along an axis; and grazing (B moved in along the closest points' direction until the
/// gap closes, and a hair either side of that).
fn poses_2d(rng: &mut Rng, far: Vec2, a: &Shape, b: &Shape) -> Vec<(Pose, Pose, &'static str)> {
    let size = a.bounding_radius().max(b.bounding_radius());
    let unit = grid_unit(size);
    let mut poses = Vec::new();
    for _ in 0..6 {
        let pose_a = Pose::new(far, rng.f(-3.2, 3.2));
        let offset = Vec2::new(rng.f(-2.5, 2.5), rng.f(-2.5, 2.5)) * size;
        poses.push((pose_a, Pose::new(far + offset, rng.f(-3.2, 3.2)), "random"));
    }
    for hair in [0.0, 0.0, 0.0, 0.0, 1e-6, -1e-6] {
        let pose_a = Pose::new(far, rng.quarter());
        let grid = |rng: &mut Rng| (rng.below(13) as f32 - 6.0) * 0.25 * unit;
        let offset = Vec2::new(grid(rng), grid(rng));
        let kind = if hair == 0.0 {
            "tied"
        } else {
            "tied, a hair off"
        };
        poses.push((pose_a, Pose::new(far + offset, rng.quarter() + hair), kind));
    }
    poses.push((Pose::new(far, 0.0), Pose::new(far, 0.0), "coincident"));
    // Unturned, B beside A along x at exactly the sum of their reaches.
    let reach = |s: &Shape, d: Vec2| s.core()[s.support_index(d)].dot(d) + s.radius();
    let touching = Vec2::new(reach(a, Vec2::X) + reach(b, -Vec2::X), 0.0);
    poses.push((
        Pose::new(far, 0.0),
        Pose::new(far + touching, 0.0),
        "touching",
    ));
    for _ in 0..2 {
        let pose_a = Pose::new(far, rng.f(-3.2, 3.2));
        let start = Vec2::from_angle(rng.f(0.0, TAU)) * 3.0 * size;
        let pose_b = Pose::new(far + start, rng.f(-3.2, 3.2));
        poses.push((pose_a, grazing(a, pose_a, b, pose_b, rng), "grazing"));
    }
    poses
}

/// The power of two nearest `size`: offsets in multiples of it are exact, so faces of
/// bodies on a grid of it lie exactly flush.
fn grid_unit(size: f32) -> f32 {
    2f32.powi(size.log2().round() as i32)
}

/// B moved from `pose_b` toward A along the direction between the closest points, by the
/// gap GJK measures (so that the bodies touch, up to rounding) and a hair more or less.
fn grazing(a: &Shape, pose_a: Pose, b: &Shape, pose_b: Pose, rng: &mut Rng) -> Pose {
    let out = crate::query::gjk::gjk_distance(&ShapePair::new(a, pose_a, b, pose_b));
    let (Some(on_a), Some(on_b)) = (out.closest_a, out.closest_b) else {
        return pose_b;
    };
    let gap = on_b - on_a;
    let hair = rng.pick(&HAIRS) * a.bounding_radius().max(b.bounding_radius());
    let step = gap.normalize_or_zero() * (gap.length() + hair);
    Pose::new(pose_b.position - step, pose_b.angle)
}

/// Every 2D case: each shape against itself and a sample of others, at each pose, near
/// the origin and far from it; every 97th with a non-number in a pose.
pub(crate) fn cases_2d<'s>(shapes: &'s [Shape], rng: &mut Rng) -> Vec<Case2<'s>> {
    let mut cases = Vec::new();
    for far in [Vec2::ZERO, Vec2::new(3.0e4, -1.2e4)] {
        for (i, a) in shapes.iter().enumerate() {
            let others: Vec<usize> = (0..6).map(|_| rng.below(shapes.len())).collect();
            for j in others.into_iter().chain([i]) {
                let b = &shapes[j];
                for (mut pose_a, mut pose_b, mut kind) in poses_2d(rng, far, a, b) {
                    let index = cases.len();
                    // A non-number now and then: in B's position, or in A's angle.
                    if index % 97 == 0 {
                        (pose_b.position.x, kind) = (f32::NAN, "a non-number");
                    } else if index % 97 == 1 {
                        (pose_a.angle, kind) = (f32::NAN, "a non-number");
                    }
                    cases.push(Case2 {
                        a,
                        pose_a,
                        b,
                        pose_b,
                        index,
                        label: format!("case {index}: shapes {i} and {j}, {kind}, at {far}"),
                    });
                }
            }
        }
    }
    cases
}

/// The 3D polyhedra: cuboids (a cube, a slab, a sliver, a 100:1 plate, random ones, a 1e-2
/// by 1 by 100 rod, a tiny box), prisms from 3 to 40 sides, random hulls from 4 to 40
/// points, ellipsoid hulls of 8 to 60 points (small bodies with more than 64 edges, and
/// large ones past the edge-frame cache), hulls a thousandth and a thousand units across,
/// and a 200-point ball (the climbing and arc-tree paths).
pub(crate) fn shapes_3d(rng: &mut Rng) -> Vec<Polyhedron> {
    let cuboid = |x: f32, y: f32, z: f32| Shape3Kind::Cuboid {
        half_extents: Vec3::new(x, y, z),
    };
    let mut kinds = vec![
        cuboid(0.5, 0.5, 0.5),
        cuboid(1.0, 0.2, 0.6),
        cuboid(2.0, 1e-3, 1.0),
        cuboid(50.0, 0.5, 50.0),
        cuboid(rng.f(0.2, 1.0), rng.f(0.2, 1.0), rng.f(0.2, 1.0)),
        cuboid(rng.f(0.2, 1.0), rng.f(0.2, 1.0), rng.f(0.2, 1.0)),
        cuboid(1e-2, 1.0, 100.0),
        cuboid(0.01, 0.005, 0.008),
    ];
    for sides in [3, 4, 6, 7, 12, 33, 40] {
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
    for (n, scale) in [
        (8, 1.0),
        (20, 1.0),
        (32, 1.0),
        (60, 1.0),
        (12, 1e-3),
        (20, 1e3),
    ] {
        kinds.push(ellipsoid_hull(rng, n, scale));
    }
    kinds
        .iter()
        .filter_map(|k| Polyhedron::new(k).ok())
        .collect()
}

/// `n` points on an ellipsoid with random radii of 0.3 to 2 times `scale`: every point a
/// vertex of the hull.
fn ellipsoid_hull(rng: &mut Rng, n: usize, scale: f32) -> Shape3Kind {
    let radii = Vec3::new(rng.f(0.3, 2.0), rng.f(0.3, 2.0), rng.f(0.3, 2.0)) * scale;
    let points = (0..n).map(|_| rng.unit3() * radii).collect();
    Shape3Kind::Hull { points }
}

/// How far B reaches from its centre toward -`axis` when turned by `turn`, and A toward
/// `axis` (its own frame): the offset along `axis` at which the two touch.
fn contact_distance(a: &Polyhedron, b: &Polyhedron, turn: Quat, axis: Vec3) -> f32 {
    let reach = |body: &Polyhedron, turn: Quat, axis: Vec3| {
        body.vertices()
            .iter()
            .map(|v| (turn * *v).dot(axis))
            .fold(f32::NEG_INFINITY, f32::max)
    };
    reach(a, Quat::IDENTITY, axis) + reach(b, turn, -axis)
}

/// Poses of B against A as in 2D, in units of the larger body's reach: random; tied
/// (quarter turns about the axes, a grid of quarters) and a hair off (quarter turns plus
/// 1e-6, or 1e-4 degrees, grid of halves); a turn about one axis only; resting face to
/// face (B on top of A, turned as A, slid sideways); at contact along one, two or three of
/// A's axes (face on face, edge on edge, corner on face) and a hair either side; pulled in
/// deep; coincident and touching.
fn poses_3d(
    rng: &mut Rng,
    far: Vec3,
    a: &Polyhedron,
    b: &Polyhedron,
) -> Vec<(Pose3, Pose3, &'static str)> {
    let size = a.bounding_radius().max(b.bounding_radius());
    let unit = grid_unit(size);
    let turn = |rng: &mut Rng| {
        Quat::from_euler(
            glam::EulerRot::ZYX,
            rng.f(-3.2, 3.2),
            rng.f(-1.6, 1.6),
            rng.f(-3.2, 3.2),
        )
    };
    let quarter = |rng: &mut Rng| {
        Quat::from_euler(
            glam::EulerRot::ZYX,
            rng.quarter(),
            rng.quarter(),
            rng.quarter(),
        )
    };
    let mut poses = Vec::new();
    let mut push = |pose_a: Pose3, offset: Vec3, rotation_b: Quat, kind| {
        poses.push((
            pose_a,
            Pose3::new(pose_a.position + offset, rotation_b),
            kind,
        ));
    };
    for _ in 0..5 {
        let offset = Vec3::new(rng.f(-2.0, 2.0), rng.f(-2.0, 2.0), rng.f(-2.0, 2.0)) * size;
        push(Pose3::new(far, turn(rng)), offset, turn(rng), "random");
    }
    for _ in 0..4 {
        let grid = |rng: &mut Rng| (rng.below(9) as f32 - 4.0) * 0.25 * unit;
        let offset = Vec3::new(grid(rng), grid(rng), grid(rng));
        push(Pose3::new(far, quarter(rng)), offset, quarter(rng), "tied");
    }
    for hair in [1e-6, (1e-4f32).to_radians()] {
        let grid = |rng: &mut Rng| (rng.below(9) as f32 - 4.0) * 0.5 * unit;
        let offset = Vec3::new(grid(rng), grid(rng), grid(rng));
        let off = Quat::from_axis_angle(rng.unit3(), hair * rng.sign());
        let kind = "tied, a hair off";
        push(
            Pose3::new(far, quarter(rng)),
            offset,
            quarter(rng) * off,
            kind,
        );
    }
    let pose_a = Pose3::new(far, quarter(rng));
    let offset = Vec3::new(rng.f(-1.0, 1.0), rng.f(-1.0, 1.0), rng.f(-1.0, 1.0)) * 1.5 * size;
    let about_y = pose_a.rotation * Quat::from_rotation_y(rng.f(-3.2, 3.2));
    push(pose_a, offset, about_y, "turned about one axis");
    for _ in 0..2 {
        // Resting: B turned as A, on top of it along A's y, slid sideways.
        let pose_a = Pose3::new(
            far,
            if rng.below(2) == 0 {
                Quat::IDENTITY
            } else {
                turn(rng)
            },
        );
        let lift = contact_distance(a, b, Quat::IDENTITY, Vec3::Y);
        let lift = lift * (1.0 + rng.pick(&HAIRS));
        let local = Vec3::new(rng.f(-0.3, 0.3) * size, lift, 0.0);
        push(
            pose_a,
            pose_a.rotation * local,
            pose_a.rotation,
            "resting face to face",
        );
    }
    for axes in [1, 2, 3] {
        // At contact along the first `axes` of A's axes (from a random one on).
        let pose_a = Pose3::new(
            far,
            if rng.below(3) == 0 {
                Quat::IDENTITY
            } else {
                turn(rng)
            },
        );
        let relative = if rng.below(2) == 0 {
            Quat::IDENTITY
        } else {
            quarter(rng)
        };
        let first = rng.below(3);
        let mut local = Vec3::ZERO;
        for k in 0..axes {
            let axis = Vec3::AXES[(first + k) % 3] * rng.sign();
            local += axis * contact_distance(a, b, relative, axis);
        }
        let local = local * (1.0 + rng.pick(&HAIRS));
        let kind = ["face on face", "edge on edge", "corner on face"][axes - 1];
        push(
            pose_a,
            pose_a.rotation * local,
            pose_a.rotation * relative,
            kind,
        );
    }
    let pull = rng.f(0.0, 0.9);
    let offset = Vec3::new(rng.f(-2.0, 2.0), rng.f(-2.0, 2.0), rng.f(-2.0, 2.0)) * size * pull;
    push(
        Pose3::new(far, turn(rng)),
        offset,
        turn(rng),
        "pulled in deep",
    );
    push(
        Pose3::new(far, Quat::IDENTITY),
        Vec3::ZERO,
        Quat::IDENTITY,
        "coincident",
    );
    let touching = Vec3::Y * contact_distance(a, b, Quat::IDENTITY, Vec3::Y);
    push(
        Pose3::new(far, Quat::IDENTITY),
        touching,
        Quat::IDENTITY,
        "touching",
    );
    poses
}

/// B's motion for case `index` (A still, or moving too), in units of `size`: random;
/// along B's offset from A (face to face on a grid axis for tied poses), along one axis,
/// along the offset with a component of 1e-7 across it; a component of zero or of 1e-9 to
/// 1e-30 now and then; a non-number every 97th case (from the 48th); ending at 0, 1e-3, 1e3 or 1.
fn motion_3d(rng: &mut Rng, index: usize, offset: Vec3, size: f32) -> Motion3 {
    let toward = -offset / size;
    let mut velocity = match rng.below(5) {
        0 => Vec3::new(rng.f(-4.0, 4.0), rng.f(-4.0, 4.0), rng.f(-4.0, 4.0)),
        1 => toward * rng.f(0.5, 4.0),
        2 => Vec3::new(toward.x.signum() * rng.f(0.0, 6.0), 0.0, 0.0),
        3 => toward * 2.0 + Vec3::new(0.0, 1e-7, 0.0),
        _ => toward * rng.f(0.0, 3.0) + rng.unit3(),
    };
    if rng.below(7) == 0 {
        velocity.z = rng.pick(&[0.0, 1e-9, -1e-12, 1e-30]);
    }
    if index % 97 == 48 {
        velocity.x = f32::NAN;
    }
    let velocity_a = if rng.below(3) == 0 {
        Vec3::new(rng.f(-1.0, 1.0), 0.0, rng.f(-1.0, 1.0))
    } else {
        Vec3::ZERO
    };
    Motion3 {
        velocity_a: velocity_a * size,
        velocity_b: velocity * size,
        t_max: rng.pick(&[1.0, 1.0, 1.0, 0.0, 1e-3, 1e3]),
    }
}

/// Directions in B's frame for the support look-ups: B's offset from A turned into it (an
/// axis for unturned cases), and a few drawn from the families that tie or nearly tie:
/// axes, edges and face diagonals of a box, components of +-1e-7 or +-0 and thirds, such
/// directions turned by a quarter, 1e-6 or 0.7 of a radian, random ones with a component a
/// hair from zero, tiny (1e-30) or huge (1e30) ones, and non-numbers.
fn directions_3d(rng: &mut Rng, pose_a: &Pose3, pose_b: &Pose3) -> Vec<Vec3> {
    let offset = pose_b.rotation.inverse() * (pose_a.position - pose_b.position);
    let grid = |rng: &mut Rng| {
        let values = [-1.0, -0.5, -1e-7, 0.0, -0.0, 1e-7, 0.5, 1.0, 1.0 / 3.0];
        Vec3::new(rng.pick(&values), rng.pick(&values), rng.pick(&values))
    };
    let axis = |rng: &mut Rng| {
        let values = [-1.0, 0.0, 1.0];
        Vec3::new(rng.pick(&values), rng.pick(&values), rng.pick(&values))
    };
    let random = rng.unit3();
    let turn = Quat::from_axis_angle(rng.unit3(), rng.pick(&[FRAC_PI_2, 1e-6, 0.7]));
    let special = [
        Vec3::NAN,
        Vec3::new(f32::INFINITY, 1.0, 1.0),
        Vec3::NEG_INFINITY,
        Vec3::ZERO,
        Vec3::new(-0.0, 0.0, -0.0),
        Vec3::new(1.0, f32::MIN_POSITIVE, 1.0),
    ];
    vec![
        if offset == Vec3::ZERO {
            Vec3::Y
        } else {
            offset
        },
        axis(rng),
        axis(rng),
        grid(rng),
        turn * grid(rng),
        Vec3::new(random.x, random.y * 1e-7, random.z),
        random * rng.pick(&[1e-30, 1e30]),
        rng.pick(&special),
    ]
}

/// Every 3D case: each body against itself, five others at random and the first four
/// cuboids (the cuboid paths' cases, the 100:1 plate among them), at each pose, with a motion and directions, near the
/// origin and far from it; every 97th with a non-number in B's pose (and every 97th
/// motion, shifted by half, in B's velocity).
pub(crate) fn cases_3d<'s>(shapes: &'s [Polyhedron], rng: &mut Rng) -> Vec<Case3<'s>> {
    let mut cases = Vec::new();
    for far in [Vec3::ZERO, Vec3::new(2.0e4, -1.0e4, 5.0e3)] {
        for (i, a) in shapes.iter().enumerate() {
            let others: Vec<usize> = (0..5).map(|_| rng.below(shapes.len())).collect();
            for j in others.into_iter().chain(0..4).chain([i]) {
                let b = &shapes[j];
                let size = a.bounding_radius().max(b.bounding_radius());
                for (pose_a, mut pose_b, mut kind) in poses_3d(rng, far, a, b) {
                    let index = cases.len();
                    // A non-number now and then: in B's position, or in its rotation.
                    if index % 97 == 0 {
                        (pose_b.position.x, kind) = (f32::NAN, "a non-number");
                    } else if index % 97 == 1 {
                        let turn = Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0);
                        (pose_b.rotation, kind) = (turn, "a non-number");
                    }
                    let motion = motion_3d(rng, index, pose_b.position - pose_a.position, size);
                    cases.push(Case3 {
                        a,
                        pose_a,
                        b,
                        pose_b,
                        motion,
                        directions: directions_3d(rng, &pose_a, &pose_b),
                        label: format!("case {index}: bodies {i} and {j}, {kind}, at {far}"),
                    });
                }
            }
        }
    }
    cases
}
