//! Spheres and capsules in 3D against parry3d 0.31 and a brute-force referee, on thousands
//! of random round-vs-polyhedron and round-vs-round pairs: intersection, distance, depth and
//! normal of our SAT, GJK and EPA (cores plus radii), and the sweep's contact times
//! (parry3d's `cast_shapes`, the gap sampled finely in time, and the referee's contact
//! times by bisection on the gap, which is convex in time).
//!
//! The referee works in `f64` on the cores, then adds the radii:
//! - the cores' distance: point or segment against every face (point inside the polygon or
//!   its edges) and every edge of the polyhedron; segment against segment directly; zero
//!   when the point is inside the polyhedron or the segment crosses it (clipped by every
//!   face plane);
//! - bodies apart or cores apart: signed distance = cores' distance - both radii (exact: the
//!   rounded set's boundary lies the radii beyond the core's);
//! - cores overlapping: depth = both radii + the cores' own depth, the smallest overlap over
//!   every face normal of the polyhedron and, for a segment, every edge x segment cross
//!   product (no pruning): exact, those are the faces of the cores' Minkowski difference.
//!   Two round cores that meet have depth 0 (their difference is flat).
//!
//! Each test prints its tallies (`cargo test --test oracle_round3 -- --nocapture`) and fails
//! if we are wrong where the referee is sure, or if parry3d disagrees with us too often.

use collision_lab::geom3::{Core3, Polyhedron, Pose3, Round3, Shape3, Shape3Kind};
use collision_lab::query3::pair::{query_pair3, BodyRef3, PairSettings3};
use collision_lab::query3::round::{epa_rounded, with_radii, BodyPair3};
use collision_lab::query3::sat_round::sat_round_test;
use collision_lab::query3::sweep::{sweep_round_test, Motion3, Status as SweepStatus};
use collision_lab::query3::{epa, gjk};
use glam::{DVec3, Vec3};
use proptest::prelude::*;

mod common;
use common::referee3::{parry_pose, random_polyhedron_kind, random_pose, segment_distance};
use common::Rng;

const CASES: u64 = 4_000;

// ---------------------------------------------------------------- random cases

fn random_round(rng: &mut Rng) -> Shape3Kind {
    if rng.f(0.0, 1.0) < 0.4 {
        Shape3Kind::Sphere {
            radius: rng.f(0.15, 0.9),
        }
    } else {
        Shape3Kind::Capsule {
            half_length: rng.f(0.1, 1.0),
            radius: rng.f(0.08, 0.6),
        }
    }
}

fn shape(rng: &mut Rng, round: bool) -> Shape3 {
    loop {
        let kind = if round {
            random_round(rng)
        } else {
            random_polyhedron_kind(rng, 0.4)
        };
        if let Ok(s) = Shape3::new(&kind) {
            return s;
        }
    }
}

struct Case {
    a: Shape3,
    b: Shape3,
    pose_a: Pose3,
    pose_b: Pose3,
}

/// One round body at least: polyhedron-round, round-polyhedron and round-round in turn.
fn random_case(rng: &mut Rng, k: u64) -> Case {
    let (round_a, round_b) = match k % 3 {
        0 => (false, true),
        1 => (true, false),
        _ => (true, true),
    };
    let a = shape(rng, round_a);
    let b = shape(rng, round_b);
    let reach = 0.6 * (a.bounding_radius() + b.bounding_radius());
    Case {
        pose_a: random_pose(rng, 0.0),
        pose_b: random_pose(rng, reach),
        a,
        b,
    }
}

impl Case {
    fn pair(&self) -> BodyPair3<'_> {
        BodyPair3::new(self.a.as_ref(), &self.pose_a, self.b.as_ref(), &self.pose_b)
    }

    fn scale(&self) -> f64 {
        (self.a.bounding_radius() + self.b.bounding_radius()) as f64
    }
}

// ---------------------------------------------------------------- the referee (f64)

/// A core in world coordinates: a polyhedron, or a segment (a point twice) with its radius.
enum Core {
    Poly {
        vertices: Vec<DVec3>,
        normals: Vec<DVec3>,
        faces: Vec<Vec<usize>>,
        edges: Vec<(usize, usize)>,
    },
    Segment(DVec3, DVec3, f64),
}

fn core(shape: &Shape3, pose: &Pose3, offset: DVec3) -> Core {
    let q = pose.rotation.as_dquat();
    let p = pose.position.as_dvec3() + offset;
    match shape {
        Shape3::Polyhedron(s) => poly_core(s, q, p),
        Shape3::Round(r) => {
            let h = match r.core() {
                Core3::Point => 0.0,
                Core3::Segment { half_length } => half_length as f64,
            };
            let axis = q * DVec3::new(0.0, h, 0.0);
            Core::Segment(p - axis, p + axis, r.radius() as f64)
        }
    }
}

fn poly_core(s: &Polyhedron, q: glam::DQuat, p: DVec3) -> Core {
    Core::Poly {
        vertices: s.vertices().iter().map(|v| q * v.as_dvec3() + p).collect(),
        normals: (0..s.face_count())
            .map(|i| (q * s.face_normal(i).as_dvec3()).normalize())
            .collect(),
        faces: (0..s.face_count())
            .map(|i| s.face(i).vertices.iter().map(|&k| k as usize).collect())
            .collect(),
        edges: s
            .edges()
            .iter()
            .map(|e| (e.tail as usize, e.head as usize))
            .collect(),
    }
}

fn radius(c: &Core) -> f64 {
    match c {
        Core::Poly { .. } => 0.0,
        Core::Segment(_, _, r) => *r,
    }
}

/// Whether the point lies inside (or on) the polyhedron.
fn inside(vertices: &[DVec3], normals: &[DVec3], faces: &[Vec<usize>], p: DVec3) -> bool {
    faces
        .iter()
        .zip(normals)
        .all(|(f, n)| n.dot(p - vertices[f[0]]) <= 1e-12)
}

/// The part of segment p0-p1 inside every face's half-space, as parameters, if any.
fn segment_crosses(
    vertices: &[DVec3],
    normals: &[DVec3],
    faces: &[Vec<usize>],
    p0: DVec3,
    p1: DVec3,
) -> bool {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for (f, n) in faces.iter().zip(normals) {
        let d0 = n.dot(p0 - vertices[f[0]]);
        let d1 = n.dot(p1 - vertices[f[0]]);
        if d0 > 0.0 && d1 > 0.0 {
            return false;
        }
        if d0 > 0.0 || d1 > 0.0 {
            let t = d0 / (d0 - d1);
            if d0 > 0.0 {
                lo = lo.max(t);
            } else {
                hi = hi.min(t);
            }
        }
    }
    lo <= hi
}

/// Distance from a point to a convex polygon face (as a fan of triangles and its edges).
fn point_face_distance(vertices: &[DVec3], n: DVec3, face: &[usize], p: DVec3) -> f64 {
    let foot = p - n * n.dot(p - vertices[face[0]]);
    let count = face.len();
    let inside_polygon = (0..count).all(|k| {
        let (u, v) = (vertices[face[k]], vertices[face[(k + 1) % count]]);
        (v - u).cross(foot - u).dot(n) >= -1e-12
    });
    if inside_polygon {
        return (p - foot).length();
    }
    (0..count)
        .map(|k| segment_distance(p, p, vertices[face[k]], vertices[face[(k + 1) % count]]))
        .fold(f64::INFINITY, f64::min)
}

/// The cores' distance (0 when they meet).
fn core_distance(a: &Core, b: &Core) -> f64 {
    match (a, b) {
        (Core::Segment(p0, p1, _), Core::Segment(q0, q1, _)) => {
            segment_distance(*p0, *p1, *q0, *q1)
        }
        (Core::Poly { .. }, Core::Segment(..)) => core_distance(b, a),
        (
            Core::Segment(p0, p1, _),
            Core::Poly {
                vertices,
                normals,
                faces,
                edges,
            },
        ) => {
            if inside(vertices, normals, faces, *p0)
                || segment_crosses(vertices, normals, faces, *p0, *p1)
            {
                return 0.0;
            }
            let mut best = f64::INFINITY;
            for (f, n) in faces.iter().zip(normals) {
                best = best.min(point_face_distance(vertices, *n, f, *p0));
                best = best.min(point_face_distance(vertices, *n, f, *p1));
            }
            for &(u, v) in edges {
                best = best.min(segment_distance(*p0, *p1, vertices[u], vertices[v]));
            }
            best
        }
        (Core::Poly { .. }, Core::Poly { .. }) => unreachable!("one body is round"),
    }
}

/// The cores' own depth when they meet: the smallest overlap over every axis of their
/// Minkowski difference (see the header), 0 for two round cores.
fn core_depth(a: &Core, b: &Core) -> f64 {
    let (poly, seg) = match (a, b) {
        (Core::Poly { .. }, Core::Segment(..)) => (a, b),
        (Core::Segment(..), Core::Poly { .. }) => (b, a),
        _ => return 0.0,
    };
    let (
        Core::Poly {
            vertices,
            normals,
            edges,
            ..
        },
        Core::Segment(p0, p1, _),
    ) = (poly, seg)
    else {
        unreachable!()
    };
    let mut axes: Vec<DVec3> = normals.clone();
    let s = *p1 - *p0;
    if s.length() > 0.0 {
        for &(u, v) in edges {
            let c = (vertices[v] - vertices[u]).cross(s);
            if c.length() > 1e-9 * s.length() * (vertices[v] - vertices[u]).length() {
                axes.push(c.normalize());
            }
        }
    }
    axes.iter()
        .map(|&u| {
            let (lo, hi) = vertices
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
                    (l.min(v.dot(u)), h.max(v.dot(u)))
                });
            let (a, b) = (p0.dot(u), p1.dot(u));
            // How far the segment must move along +-u to leave: the smaller of the two.
            (hi - a.min(b)).min(a.max(b) - lo).max(0.0)
        })
        .fold(f64::INFINITY, f64::min)
}

/// Distance between the bodies when apart (> 0), minus the depth when they overlap.
fn referee_signed(c: &Case, offset_b: DVec3) -> f64 {
    let a = core(&c.a, &c.pose_a, DVec3::ZERO);
    let b = core(&c.b, &c.pose_b, offset_b);
    let radii = radius(&a) + radius(&b);
    let d = core_distance(&a, &b);
    if d > 1e-9 * c.scale() {
        d - radii
    } else {
        -(radii + core_depth(&a, &b))
    }
}

// ---------------------------------------------------------------- parry3d

fn parry_shape(s: &Shape3) -> Box<dyn parry3d::shape::Shape> {
    match s {
        Shape3::Polyhedron(p) => {
            let points: Vec<parry3d::math::Vector> = p
                .vertices()
                .iter()
                .map(|v| parry3d::math::Vector::new(v.x, v.y, v.z))
                .collect();
            Box::new(parry3d::shape::ConvexPolyhedron::from_convex_hull(&points).expect("a hull"))
        }
        Shape3::Round(r) => round_parry(r),
    }
}

fn round_parry(r: &Round3) -> Box<dyn parry3d::shape::Shape> {
    match r.core() {
        Core3::Point => Box::new(parry3d::shape::Ball::new(r.radius())),
        Core3::Segment { half_length } => {
            Box::new(parry3d::shape::Capsule::new_y(half_length, r.radius()))
        }
    }
}

// ---------------------------------------------------------------- tests

/// SAT with round shapes: the verdict, the depth and the separation against the referee,
/// and moving B by depth * normal leaves the pair touching (by the referee).
#[test]
fn round_sat_agrees_with_the_referee_and_parry3d() {
    let mut rng = Rng(303);
    let (mut overlapping, mut apart, mut ties, mut parry_agree, mut parry_wrong) = (0, 0, 0, 0, 0);
    let mut ours_wrong = Vec::new();
    for k in 0..CASES {
        let c = random_case(&mut rng, k);
        let ours = sat_round_test(&c.pair());
        let truth = referee_signed(&c, DVec3::ZERO);
        let tol = 1e-4 * c.scale();
        if truth.abs() < tol {
            ties += 1;
            continue;
        }
        let mut wrong = |what: String| ours_wrong.push(format!("case {k}: {what}"));
        if ours.intersecting != (truth < 0.0) {
            wrong(format!(
                "intersecting {} referee {truth}",
                ours.intersecting
            ));
            continue;
        }
        if truth < 0.0 {
            overlapping += 1;
            // A face axis is kept unless another beats it by the preference tolerance.
            let depth = -truth;
            if ours.depth as f64 > depth + 3.0 * tol || (ours.depth as f64) < depth - tol {
                wrong(format!("depth {} referee {depth}", ours.depth));
            }
            let moved = referee_signed(&c, (ours.depth * ours.normal).as_dvec3());
            if moved.abs() > 4.0 * tol || moved < -tol {
                wrong(format!("moved by depth * normal, signed distance {moved}"));
            }
        } else {
            apart += 1;
            // The closest-point axis makes the separation the distance itself.
            if (ours.separation as f64 - truth).abs() > tol {
                wrong(format!(
                    "separation {} referee distance {truth}",
                    ours.separation
                ));
            }
        }
        let theirs = parry3d::query::intersection_test(
            &parry_pose(&c.pose_a),
            parry_shape(&c.a).as_ref(),
            &parry_pose(&c.pose_b),
            parry_shape(&c.b).as_ref(),
        )
        .expect("supported")
        .intersecting;
        if theirs == ours.intersecting {
            parry_agree += 1;
        } else {
            parry_wrong += 1;
        }
    }
    eprintln!(
        "round SAT: {overlapping} overlapping and {apart} apart checked, {ties} touching skipped, {} ours wrong; parry3d intersection agrees on {parry_agree}, disagrees on {parry_wrong}",
        ours_wrong.len()
    );
    assert!(
        ours_wrong.is_empty(),
        "{}",
        ours_wrong[..ours_wrong.len().min(10)].join("\n")
    );
    assert!(overlapping > 800 && apart > 800, "{overlapping} {apart}");
    assert!(parry_wrong * 100 < CASES as usize, "{parry_wrong}");
}

/// GJK and EPA on the cores plus radii: distance and closest points when apart, depth and
/// normal when overlapping, against the referee and parry3d's distance and contact.
#[test]
fn round_gjk_and_epa_agree_with_the_referee_and_parry3d() {
    let mut rng = Rng(304);
    let (mut distances, mut depths, mut ties) = (0, 0, 0);
    let (mut parry_distance_off, mut parry_depth_off, mut parry_normal_off) = (0, 0, 0);
    let mut ours_wrong = Vec::new();
    for k in 0..CASES {
        let c = random_case(&mut rng, k);
        let pair = c.pair();
        let core = gjk::gjk(&pair, &gjk::Config::default(), &mut ());
        let e = epa_rounded(&pair, &core, &epa::Config::default(), &mut ());
        let g = with_radii(&pair, core);
        let truth = referee_signed(&c, DVec3::ZERO);
        let tol = 1e-4 * c.scale();
        if truth.abs() < tol {
            ties += 1;
            continue;
        }
        let mut wrong = |what: String| ours_wrong.push(format!("case {k}: {what}"));
        let (qa, qb) = (parry_pose(&c.pose_a), parry_pose(&c.pose_b));
        let (sa, sb) = (parry_shape(&c.a), parry_shape(&c.b));
        if truth > 0.0 {
            distances += 1;
            if g.intersecting || (g.distance as f64 - truth).abs() > 10.0 * tol {
                wrong(format!("distance {} referee {truth}", g.distance));
                continue;
            }
            let (ca, cb) = (g.closest_a.unwrap(), g.closest_b.unwrap());
            if ((cb - ca).length() - g.distance).abs() as f64 > 10.0 * tol {
                wrong(format!(
                    "closest points {ca} {cb} for distance {}",
                    g.distance
                ));
            }
            let theirs = parry3d::query::distance(&qa, sa.as_ref(), &qb, sb.as_ref())
                .expect("supported")
                .distance as f64;
            if (theirs - truth).abs() > 10.0 * tol {
                parry_distance_off += 1;
                if parry_distance_off <= 3 {
                    eprintln!(
                        "parry3d distance {theirs}, referee {truth}, ours {}: {:?} vs {:?}",
                        g.distance,
                        c.a.kind(),
                        c.b.kind()
                    );
                }
            }
        } else {
            depths += 1;
            let Some(e) = e else {
                wrong(format!("no EPA, referee depth {}", -truth));
                continue;
            };
            if (e.depth as f64 + truth).abs() > 10.0 * tol {
                wrong(format!(
                    "EPA depth {} referee {} ({:?})",
                    e.depth, -truth, e.status
                ));
            }
            let moved = referee_signed(&c, (e.depth * e.normal).as_dvec3());
            if moved.abs() > 20.0 * tol {
                wrong(format!(
                    "moved by EPA depth * normal, signed distance {moved}"
                ));
            }
            if let Ok(Some(contact)) =
                parry3d::query::contact(&qa, sa.as_ref(), &qb, sb.as_ref(), 0.0)
            {
                if (-contact.dist as f64 + truth).abs() > 10.0 * tol {
                    parry_depth_off += 1;
                } else {
                    let n = Vec3::new(contact.normal1.x, contact.normal1.y, contact.normal1.z);
                    if n.dot(e.normal) < 0.99 {
                        parry_normal_off += 1;
                    }
                }
            }
        }
    }
    eprintln!(
        "round GJK/EPA: {distances} distances and {depths} depths checked, {ties} touching skipped, {} ours wrong; parry3d off the referee: distance {parry_distance_off}, depth {parry_depth_off}; parry3d's normal differs from ours on {parry_normal_off} with equal depths",
        ours_wrong.len()
    );
    assert!(
        ours_wrong.is_empty(),
        "{}",
        ours_wrong[..ours_wrong.len().min(10)].join("\n")
    );
    assert!(distances > 800 && depths > 800, "{distances} {depths}");
    assert!(parry_distance_off * 50 < distances, "{parry_distance_off}");
    assert!(parry_depth_off * 50 < depths, "{parry_depth_off}");
}

/// The manifold's points lie on the incident body's surface at their depth: each point,
/// moved by its depth along the normal toward the other body's outside, is within the
/// other body (by the referee) no deeper than the contact.
#[test]
fn round_manifold_depths_match_sat_on_face_contacts() {
    use collision_lab::query3::manifold::FeaturePair;
    use collision_lab::query3::manifold_round::contact_manifold_round;
    let mut rng = Rng(305);
    let (mut checked, mut face_cases) = (0, 0);
    let mut wrong = Vec::new();
    for k in 0..CASES {
        let c = random_case(&mut rng, k);
        let pair = c.pair();
        let s = sat_round_test(&pair);
        if !s.intersecting {
            continue;
        }
        let m = contact_manifold_round(&pair, s.normal);
        checked += 1;
        let deepest = m.points.deepest();
        if m.points.is_empty() || m.points.len() > 2 || deepest > s.depth + 1e-3 * c.scale() as f32
        {
            wrong.push(format!(
                "case {k}: {} points, deepest {deepest}, SAT depth {}",
                m.points.len(),
                s.depth
            ));
        }
        if matches!(m.feature, FeaturePair::VertexFace | FeaturePair::EdgeFace) && s.axis.is_face()
        {
            face_cases += 1;
            if (deepest - s.depth).abs() > 1e-3 * c.scale() as f32 {
                wrong.push(format!(
                    "case {k}: face contact deepest {deepest} SAT depth {}",
                    s.depth
                ));
            }
        }
    }
    eprintln!("round manifold: {checked} intersecting pairs, {face_cases} face contacts");
    assert!(
        wrong.is_empty(),
        "{}",
        wrong[..wrong.len().min(10)].join("\n")
    );
    assert!(face_cases > 100, "{face_cases}");
}

// ---------------------------------------------------------------- the sweep

/// The bodies' gap with B moved by `shift`: the cores' distance minus both radii (cores that
/// meet give minus the radii; only the sign and the apart values are read). One core at
/// least is a segment, which is moved instead of the polyhedron (the distance only depends
/// on the relative placement).
fn gap_moved(a: &Core, b: &Core, shift: DVec3) -> f64 {
    let d = match (a, b) {
        (_, Core::Segment(p, q, r)) => core_distance(a, &Core::Segment(*p + shift, *q + shift, *r)),
        (Core::Segment(p, q, r), _) => core_distance(&Core::Segment(*p - shift, *q - shift, *r), b),
        _ => unreachable!("one body is round"),
    };
    d - radius(a) - radius(b)
}

/// A moving case for the referee: both cores at t = 0 and B's velocity relative to A.
struct Swept {
    a: Core,
    b: Core,
    v: DVec3,
}

impl Swept {
    fn new(c: &Case, velocity_a: Vec3, velocity_b: Vec3) -> Swept {
        Swept {
            a: core(&c.a, &c.pose_a, DVec3::ZERO),
            b: core(&c.b, &c.pose_b, DVec3::ZERO),
            v: (velocity_b - velocity_a).as_dvec3(),
        }
    }

    fn gap(&self, t: f64) -> f64 {
        gap_moved(&self.a, &self.b, self.v * t)
    }

    /// The gap at `samples + 1` times evenly spread over [0, t_max].
    fn sampled(&self, t_max: f64, samples: usize) -> Vec<f64> {
        (0..=samples)
            .map(|k| self.gap(t_max * k as f64 / samples as f64))
            .collect()
    }

    /// The time of the smallest gap in [0, t_max] and the gap there: the gap is convex in
    /// time (the distance from a point on a line to a convex set), so a ternary search
    /// finds it.
    fn closest_approach(&self, t_max: f64) -> (f64, f64) {
        let (mut lo, mut hi) = (0.0, t_max);
        for _ in 0..200 {
            let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
            if self.gap(m1) <= self.gap(m2) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        let t = 0.5 * (lo + hi);
        (t, self.gap(t))
    }

    /// The first and last contact by bisection on each side of the closest approach (the
    /// gap falls before it and rises after it), when the bodies meet in [0, t_max].
    fn contact(&self, t_max: f64) -> Option<(f64, f64)> {
        let (t_min, g_min) = self.closest_approach(t_max);
        if g_min > 0.0 {
            return None;
        }
        let root = |mut apart: f64, mut touching: f64| {
            for _ in 0..200 {
                let mid = 0.5 * (apart + touching);
                if self.gap(mid) > 0.0 {
                    apart = mid;
                } else {
                    touching = mid;
                }
            }
            touching
        };
        let first = if self.gap(0.0) <= 0.0 {
            0.0
        } else {
            root(0.0, t_min)
        };
        let last = if self.gap(t_max) <= 0.0 {
            t_max
        } else {
            root(t_max, t_min)
        };
        Some((first, last))
    }
}

/// A pair from [`random_case`] set apart (or not: from 0.3 to 2.5 times their reach), B
/// moving toward A's position give or take as much, fast enough to reach it within the unit
/// time most of the time.
fn random_moving_case(rng: &mut Rng, k: u64) -> (Case, Vec3) {
    let mut c = random_case(rng, k);
    let reach = c.a.bounding_radius() + c.b.bounding_radius();
    let dir = Vec3::new(rng.f(-1.0, 1.0), rng.f(-1.0, 1.0), rng.f(-1.0, 1.0)).normalize_or(Vec3::X);
    c.pose_b.position = c.pose_a.position + dir * reach * rng.f(0.3, 2.5);
    let aim = c.pose_a.position - c.pose_b.position;
    let off = Vec3::new(rng.f(-1.0, 1.0), rng.f(-1.0, 1.0), rng.f(-1.0, 1.0)) * reach;
    (c, (aim + off) * rng.f(0.2, 2.0))
}

fn motion(velocity_b: Vec3) -> Motion3 {
    Motion3 {
        velocity_a: Vec3::ZERO,
        velocity_b,
        t_max: 1.0,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// The round sweep against the gap sampled at 2,000 times over [0, 1]: the first sample
    /// at or below zero is within one sample step of t_first (the last of t_last), no
    /// sample before t_first - step has the bodies intersecting, and a miss has no sample
    /// intersecting. Grazes (the smallest gap within the tolerance of zero, by a ternary
    /// search on the convex gap) are ties and skipped.
    #[test]
    fn round_sweep_matches_a_fine_time_sampling_of_the_gap(seed in any::<u64>(), k in 0u64..3) {
        const SAMPLES: usize = 2000;
        let step = 1.0 / SAMPLES as f64;
        let mut rng = Rng(seed);
        let (c, velocity) = random_moving_case(&mut rng, k);
        let swept = Swept::new(&c, Vec3::ZERO, velocity);
        let tol = 1e-4 * c.scale();
        let (_, g_min) = swept.closest_approach(1.0);
        prop_assume!(g_min.abs() > tol && swept.gap(0.0).abs() > tol && swept.gap(1.0).abs() > tol);
        let ours = sweep_round_test(&c.pair(), &motion(velocity));
        let gaps = swept.sampled(1.0, SAMPLES);
        let first = gaps.iter().position(|&g| g <= 0.0).map(|k| k as f64 * step);
        let last = gaps.iter().rposition(|&g| g <= 0.0).map(|k| k as f64 * step);
        if g_min > 0.0 {
            prop_assert!(!ours.hit, "the gap never closes (smallest {g_min}), ours {ours:?}");
            return Ok(());
        }
        prop_assert!(ours.hit, "the bodies meet (smallest gap {g_min}), ours {ours:?}");
        prop_assert_eq!(ours.status == SweepStatus::InitiallyOverlapping, swept.gap(0.0) < 0.0);
        let (t_first, t_last) = (ours.t_first.unwrap() as f64, ours.t_last.unwrap() as f64);
        // A contact shorter than a sample step may fall between samples. The sweep stops
        // once the gap is within the pair's touch tolerance (`sweep/rounded.rs`): where B
        // closes slowly (a glancing approach) that can be more than a sample step away in
        // time, so a time further off passes when the gap there is within that tolerance.
        // (Found by this test: seed 17915310523133565490, k = 1, closing at 0.16 per unit
        // time, t_first 0.06693 with a gap of 2.7e-5 against a tolerance of 3.4e-5.)
        let touch = f64::from(c.pair().touch_tolerance());
        let within = |t: f64| swept.gap(t).abs() <= touch;
        if let (Some(first), Some(last)) = (first, last) {
            prop_assert!(
                (first - t_first).abs() <= step + 1e-5 || within(t_first),
                "first sample {first}, ours {ours:?}"
            );
            prop_assert!(
                (last - t_last).abs() <= step + 1e-5 || within(t_last),
                "last sample {last}, ours {ours:?}"
            );
        }
        for (k, g) in gaps.iter().enumerate() {
            let t = k as f64 * step;
            prop_assert!(
                t >= t_first - step || *g > -1e-6 * c.scale(),
                "sample t = {t} intersects (gap {g}) before t_first {t_first}"
            );
        }
    }
}

/// The round sweep on random moving pairs against parry3d's `cast_shapes` (time of impact,
/// 0 when overlapping at the start) and the referee's contact times (bisection on the
/// convex gap): ours must match the referee wherever the pair does not graze; parry3d's
/// time is compared with ours, and where they differ the referee says who is right.
#[test]
fn round_sweep_agrees_with_parry3d_cast_shapes() {
    const PAIRS: u64 = 600;
    let mut rng = Rng(306);
    let (mut hits, mut misses, mut grazes, mut agree, mut parry_off) = (0, 0, 0, 0, 0);
    let (mut worst_referee, mut worst_parry) = (0.0f64, 0.0f64);
    let mut ours_wrong = Vec::new();
    for k in 0..PAIRS {
        let (c, velocity) = random_moving_case(&mut rng, k);
        let swept = Swept::new(&c, Vec3::ZERO, velocity);
        let ours = sweep_round_test(&c.pair(), &motion(velocity));
        let tol = 1e-4 * c.scale();
        let (_, g_min) = swept.closest_approach(1.0);
        if g_min.abs() <= tol {
            grazes += 1;
            continue;
        }
        let truth = swept.contact(1.0);
        match (truth, ours.t_first) {
            (None, None) => misses += 1,
            (Some((first, _)), Some(t)) if (t as f64 - first).abs() <= 1e-4 => {
                hits += 1;
                worst_referee = worst_referee.max((t as f64 - first).abs());
            }
            _ => ours_wrong.push(format!("case {k}: ours {ours:?}, referee {truth:?}")),
        }
        let theirs = parry3d::query::cast_shapes(
            &parry_pose(&c.pose_a),
            parry3d::math::Vector::ZERO,
            parry_shape(&c.a).as_ref(),
            &parry_pose(&c.pose_b),
            parry3d::math::Vector::new(velocity.x, velocity.y, velocity.z),
            parry_shape(&c.b).as_ref(),
            parry3d::query::ShapeCastOptions::with_max_time_of_impact(1.0),
        )
        .expect("round shapes are supported")
        .map(|hit| hit.time_of_impact as f64);
        match (theirs, ours.t_first) {
            (Some(x), Some(y)) if (x - y as f64).abs() <= 1e-3 => {
                agree += 1;
                worst_parry = worst_parry.max((x - y as f64).abs());
            }
            (None, None) => agree += 1,
            _ => {
                parry_off += 1;
                eprintln!(
                    "parry3d {theirs:?}, ours {:?}, referee {truth:?}",
                    ours.t_first
                );
            }
        }
    }
    eprintln!(
        "round sweep: {hits} hits and {misses} misses agree with the referee (worst t_first difference {worst_referee:.2e}), {} ours wrong, {grazes} grazing skipped; parry3d cast_shapes agrees on {agree} (worst difference {worst_parry:.2e}), differs on {parry_off}",
        ours_wrong.len()
    );
    assert!(
        ours_wrong.is_empty(),
        "{}",
        ours_wrong[..ours_wrong.len().min(10)].join("\n")
    );
    assert!(hits > 150 && misses > 100, "{hits} {misses}");
    assert!(parry_off * 50 < agree, "{parry_off}");
}

/// As a user tries it: 300 random pairs with a sphere or a capsule, each body turned at
/// random and moving (any direction, up to 5 per axis) half the time, placed anywhere in
/// the box from -1.5 to 1.5 as the generated scenes of the golden traces place them. Every moving pair that meets by the
/// referee must be reported as a hit at the referee's first contact, and every one that
/// does not as a miss (grazes skipped).
#[test]
fn round_sweep_on_pairs_a_user_would_try() {
    let mut rng = Rng(307);
    let (mut moving, mut meet, mut reported, mut missed, mut grazes) = (0, 0, 0, 0, 0);
    let mut overlapping_at_the_start = 0;
    let mut wrong = Vec::new();
    for k in 0..300 {
        let mut c = random_case(&mut rng, k);
        // Anywhere in the box the generated scenes use, as a user scatters bodies.
        for pose in [&mut c.pose_a, &mut c.pose_b] {
            pose.position = Vec3::new(rng.f(-1.5, 1.5), rng.f(-1.5, 1.5), rng.f(-1.5, 1.5));
        }
        let mut velocity = || {
            rng.next()
                .is_multiple_of(2)
                .then(|| Vec3::new(rng.f(-5.0, 5.0), rng.f(-5.0, 5.0), rng.f(-5.0, 5.0)))
        };
        let (velocity_a, velocity_b) = (velocity(), velocity());
        let a = BodyRef3 {
            shape: c.a.as_ref(),
            pose: c.pose_a,
            velocity: velocity_a,
        };
        let b = BodyRef3 {
            shape: c.b.as_ref(),
            pose: c.pose_b,
            velocity: velocity_b,
        };
        let Some(ours) = query_pair3(&a, &b, &PairSettings3::default()).sweep else {
            continue;
        };
        moving += 1;
        let (va, vb) = (
            velocity_a.unwrap_or(Vec3::ZERO),
            velocity_b.unwrap_or(Vec3::ZERO),
        );
        let swept = Swept::new(&c, va, vb);
        if swept.closest_approach(1.0).1.abs() <= 1e-4 * c.scale() {
            grazes += 1;
            continue;
        }
        match (swept.contact(1.0), ours.t_first) {
            (Some((first, _)), Some(t)) if (t as f64 - first).abs() <= 1e-4 => {
                meet += 1;
                reported += 1;
                overlapping_at_the_start += (first == 0.0) as u32;
            }
            (None, None) => missed += 1,
            (truth, _) => {
                meet += truth.is_some() as u32;
                wrong.push(format!("pair {k}: ours {ours:?}, referee {truth:?}"));
            }
        }
    }
    eprintln!(
        "300 random round pairs: {moving} moving, {meet} of them meet by the referee ({overlapping_at_the_start} overlapping at the start) and {reported} are reported as hits at the referee's first contact; {missed} misses agree; {grazes} grazing skipped; {} wrong",
        wrong.len()
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(moving > 150 && meet > 50, "{moving} {meet}");
}
