//! parry2d as an independent oracle on thousands of random pairs: intersection, distance,
//! closest points, depth and normal, contact points and time of impact.

mod common;

use collision_lab::geom::{Pose, Shape, ShapeKind};
use collision_lab::query::clip::contact_manifold;
use collision_lab::query::epa::epa_penetration;
use collision_lab::query::gjk::gjk_distance;
use collision_lab::query::sat::sat_test;
use collision_lab::query::sweep::{sweep_test, Motion};
use collision_lab::query::ShapePair;
use common::{normal_margin, Rng};
use glam::Vec2;
use parry2d::math::{Pose as Isometry, Vector};
use parry2d::query::{self as pq, ShapeCastOptions};
use parry2d::shape::{Ball, Capsule, ConvexPolygon, SharedShape};

fn random_shape(rng: &mut Rng) -> Shape {
    match rng.next() % 8 {
        0 => Shape::circle(rng.f(0.2, 1.2)).unwrap(),
        1 => Shape::capsule(rng.f(0.1, 1.2), rng.f(0.1, 0.6)).unwrap(),
        _ => loop {
            let n = 3 + (rng.next() % 10) as usize;
            let (rx, ry) = (rng.f(0.3, 2.0), rng.f(0.3, 2.0));
            let mut ts: Vec<f32> = (0..n).map(|_| rng.f(0.0, 1.0)).collect();
            ts.sort_by(f32::total_cmp);
            ts.dedup_by(|a, b| (*a - *b).abs() < 0.03);
            let pts: Vec<Vec2> = ts
                .iter()
                .map(|t| Vec2::from_angle(t * std::f32::consts::TAU) * Vec2::new(rx, ry))
                .collect();
            if let Ok(s) = Shape::polygon(pts) {
                if collision_lab::geom::signed_area(s.core()) > 0.1 {
                    break s;
                }
            }
        },
    }
}

fn parry_shape(s: &Shape) -> SharedShape {
    match s.kind() {
        ShapeKind::Circle { radius } => SharedShape::new(Ball::new(*radius)),
        ShapeKind::Capsule {
            half_length,
            radius,
        } => SharedShape::new(Capsule::new_x(*half_length, *radius)),
        _ => {
            let pts: Vec<Vector> = s.core().iter().map(|p| Vector::new(p.x, p.y)).collect();
            SharedShape::new(ConvexPolygon::from_convex_hull(&pts).expect("a valid polygon"))
        }
    }
}

fn iso(p: Pose) -> Isometry {
    Isometry::new(Vector::new(p.position.x, p.position.y), p.angle)
}

fn random_pose(rng: &mut Rng, range: f32) -> Pose {
    Pose::new(
        Vec2::new(rng.f(-range, range), rng.f(-range, range)),
        rng.f(0.0, std::f32::consts::TAU),
    )
}

const PAIRS: usize = 4000;

/// A third, brute-force opinion for the pairs where we and parry disagree: exact distance
/// and depth from every vertex-edge pair and every edge normal, no iteration at all.
mod referee {
    use collision_lab::geom::{cross, Pose, Shape};
    use glam::Vec2;

    fn core(s: &Shape, p: Pose) -> Vec<Vec2> {
        s.core().iter().map(|v| p.transform_point(*v)).collect()
    }

    fn point_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
        let e = b - a;
        let t = if e.length_squared() > 0.0 {
            ((p - a).dot(e) / e.length_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (p - (a + t * e)).length()
    }

    fn edges(c: &[Vec2]) -> Vec<(Vec2, Vec2)> {
        match c.len() {
            1 => vec![(c[0], c[0])],
            2 => vec![(c[0], c[1])],
            n => (0..n).map(|i| (c[i], c[(i + 1) % n])).collect(),
        }
    }

    fn segments_cross(a: (Vec2, Vec2), b: (Vec2, Vec2)) -> bool {
        let side = |p: Vec2, q: Vec2, r: Vec2| cross(q - p, r - p);
        let (d1, d2) = (side(b.0, b.1, a.0), side(b.0, b.1, a.1));
        let (d3, d4) = (side(a.0, a.1, b.0), side(a.0, a.1, b.1));
        d1 * d2 < 0.0 && d3 * d4 < 0.0
    }

    fn contains(c: &[Vec2], p: Vec2) -> bool {
        c.len() >= 3 && (0..c.len()).all(|i| cross(c[(i + 1) % c.len()] - c[i], p - c[i]) >= 0.0)
    }

    /// Distance between the cores, 0 when they overlap.
    pub fn core_distance(a: &Shape, pa: Pose, b: &Shape, pb: Pose) -> f32 {
        let (ca, cb) = (core(a, pa), core(b, pb));
        if contains(&ca, cb[0]) || contains(&cb, ca[0]) {
            return 0.0;
        }
        let mut best = f32::INFINITY;
        for &ea in &edges(&ca) {
            for &eb in &edges(&cb) {
                if segments_cross(ea, eb) {
                    return 0.0;
                }
                best = best
                    .min(point_segment(ea.0, eb.0, eb.1))
                    .min(point_segment(ea.1, eb.0, eb.1))
                    .min(point_segment(eb.0, ea.0, ea.1))
                    .min(point_segment(eb.1, ea.0, ea.1));
            }
        }
        best
    }

    /// Penetration depth of the whole shapes (0 when apart).
    pub fn depth(a: &Shape, pa: Pose, b: &Shape, pb: Pose) -> f32 {
        let radii = a.radius() + b.radius();
        let d = core_distance(a, pa, b, pb);
        if d > 0.0 {
            return (radii - d).max(0.0);
        }
        let (ca, cb) = (core(a, pa), core(b, pb));
        let mut normals = Vec::new();
        for c in [&ca, &cb] {
            for (p, q) in edges(c) {
                if let Some(n) = (q - p).perp().try_normalize() {
                    normals.push(n);
                }
            }
        }
        if normals.is_empty() {
            return radii; // two points on each other
        }
        normals
            .iter()
            .map(|n| {
                let (amin, amax) = ca.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| {
                    (lo.min(p.dot(*n)), hi.max(p.dot(*n)))
                });
                let (bmin, bmax) = cb.iter().fold((f32::MAX, f32::MIN), |(lo, hi), p| {
                    (lo.min(p.dot(*n)), hi.max(p.dot(*n)))
                });
                (amax - bmin).min(bmax - amin)
            })
            .fold(f32::INFINITY, f32::min)
            + radii
    }
}

#[test]
fn intersection_distance_and_closest_points_match_parry() {
    let mut rng = Rng(7);
    let (mut compared, mut separated, mut same_points, mut disagreements) = (0, 0, 0, 0);
    for _ in 0..PAIRS {
        let (a, b) = (random_shape(&mut rng), random_shape(&mut rng));
        let (pa, pb) = (random_pose(&mut rng, 2.5), random_pose(&mut rng, 2.5));
        let (qa, qb) = (parry_shape(&a), parry_shape(&b));
        let ours = gjk_distance(&ShapePair::new(&a, pa, &b, pb));
        let theirs_hit = pq::intersection_test(&iso(pa), &*qa, &iso(pb), &*qb)
            .unwrap()
            .intersecting;
        let theirs_d = pq::distance(&iso(pa), &*qa, &iso(pb), &*qb)
            .unwrap()
            .distance;
        if (theirs_d > 1e-3 || !theirs_hit) && (ours.distance - theirs_d).abs() > 1e-4 {
            // parry's own GJK stops at a looser tolerance on round shapes: let the
            // brute-force referee decide, and we must be the one that is right.
            disagreements += 1;
            let exact = (referee::core_distance(&a, pa, &b, pb) - a.radius() - b.radius()).max(0.0);
            assert!(
                (ours.distance - exact).abs() <= 1e-5,
                "distance {} vs parry {} vs exact {exact}\n{:?} {:?}\n{:?} {:?}",
                ours.distance,
                theirs_d,
                a.kind(),
                pa,
                b.kind(),
                pb
            );
        }
        let clear = theirs_d > 1e-3 || (theirs_hit && referee::depth(&a, pa, &b, pb) > 1e-3);
        if clear {
            compared += 1;
            assert_eq!(ours.intersecting, theirs_hit, "{a:?} {pa:?} {b:?} {pb:?}");
        }
        if !ours.intersecting && theirs_d > 1e-3 {
            separated += 1;
            let (ca, cb) = (ours.closest_a.unwrap(), ours.closest_b.unwrap());
            assert!(((cb - ca).length() - ours.distance).abs() <= 1e-4);
            if let pq::ClosestPoints::WithinMargin(p1, p2) =
                pq::closest_points(&iso(pa), &*qa, &iso(pb), &*qb, 100.0).unwrap()
            {
                // Closest points are unique unless two edges are parallel; then any pair
                // along the overlap is right. Count agreement, and check ours are on the shapes.
                if (Vec2::new(p1.x, p1.y) - ca).length() < 1e-3
                    && (Vec2::new(p2.x, p2.y) - cb).length() < 1e-3
                {
                    same_points += 1;
                }
            }
            let dot = Shape::circle(0.0).unwrap();
            let on = |s: &Shape, ps: Pose, p: Vec2| {
                gjk_distance(&ShapePair::new(&dot, Pose::new(p, 0.0), s, ps)).distance
            };
            assert!(on(&a, pa, ca) <= 1e-4 && on(&b, pb, cb) <= 1e-4);
        }
    }
    println!("intersection compared on {compared} pairs, distance on {separated}, identical closest points on {same_points}; parry off by more than 1e-4 on {disagreements} (the referee sided with us)");
    assert!(compared > PAIRS * 9 / 10);
    // Closest points are checked above for what makes them right (on each shape, exactly
    // the distance apart); parry's may differ where edges are parallel or where its own
    // looser tolerance shows, so agreement is only reported.
}

#[test]
fn depth_and_normal_match_parry() {
    let mut rng = Rng(11);
    let (mut compared, mut normals, mut disagreements) = (0, 0, 0);
    for _ in 0..PAIRS {
        let (a, b) = (random_shape(&mut rng), random_shape(&mut rng));
        let (pa, pb) = (random_pose(&mut rng, 1.5), random_pose(&mut rng, 1.5));
        let pair = ShapePair::new(&a, pa, &b, pb);
        let g = gjk_distance(&pair);
        let (qa, qb) = (parry_shape(&a), parry_shape(&b));
        let Some(c) = pq::contact(&iso(pa), &*qa, &iso(pb), &*qb, 0.0).unwrap() else {
            continue;
        };
        if c.dist > -1e-3 || !g.intersecting {
            continue;
        }
        compared += 1;
        let e = epa_penetration(&pair, &g).unwrap();
        if (e.depth + c.dist).abs() > 1e-3 {
            disagreements += 1;
            let exact = referee::depth(&a, pa, &b, pb);
            assert!(
                (e.depth - exact).abs() <= 1e-4,
                "depth {} vs parry {} vs exact {exact}\n{:?} {:?}\n{:?} {:?}",
                e.depth,
                -c.dist,
                a.kind(),
                pa,
                b.kind(),
                pb
            );
            continue;
        }
        if normal_margin(&pair) > 1e-2 {
            normals += 1;
            let n = Vec2::new(c.normal1.x, c.normal1.y);
            assert!(
                (e.normal - n).length() <= 1e-2,
                "normal {} vs parry {}",
                e.normal,
                n
            );
        }
    }
    println!("depth compared on {compared} pairs, normal on {normals}; parry off on {disagreements} (the referee sided with us)");
    assert!(compared > PAIRS / 4 && normals > compared / 2);
}

#[test]
fn contact_points_match_parry_manifolds() {
    use parry2d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
    let mut rng = Rng(13);
    let (mut compared, mut agreed) = (0, 0);
    for _ in 0..PAIRS {
        let (a, b) = (random_shape(&mut rng), random_shape(&mut rng));
        let (pa, mut pb) = (random_pose(&mut rng, 1.5), random_pose(&mut rng, 1.5));
        // Shallow contacts, as a solver keeps them: move B out to 0.01 deep.
        let g = gjk_distance(&ShapePair::new(&a, pa, &b, pb));
        if !g.intersecting {
            continue;
        }
        let e = epa_penetration(&ShapePair::new(&a, pa, &b, pb), &g).unwrap();
        pb.position += (e.depth - 0.01) * e.normal;
        let pair = ShapePair::new(&a, pa, &b, pb);
        let s = sat_test(&pair);
        if !s.intersecting || normal_margin(&pair) < 1e-2 {
            continue;
        }
        let ours = contact_manifold(&pair, s.normal);
        let (qa, qb) = (parry_shape(&a), parry_shape(&b));
        let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
        let pos12 = iso(pa).inv_mul(&iso(pb));
        DefaultQueryDispatcher
            .contact_manifolds(&pos12, &*qa, &*qb, 0.0, &mut manifolds, &mut None)
            .unwrap();
        let theirs: Vec<(Vec2, Vec2, f32)> = manifolds
            .iter()
            .flat_map(|m| m.points.iter())
            .map(|p| {
                let w1 = iso(pa).transform_point(p.local_p1);
                let w2 = iso(pa).transform_point(pos12.transform_point(p.local_p2));
                (Vec2::new(w1.x, w1.y), Vec2::new(w2.x, w2.y), -p.dist)
            })
            // parry keeps the incident edge's far end even when it is well apart (a
            // speculative point); a contact point is one that touches.
            .filter(|(_, _, depth)| *depth >= -1e-3)
            .collect();
        compared += 1;
        // Each of our points (on the incident body) is one of parry's witnesses, with the
        // same depth.
        let matches = ours.count == theirs.len()
            && ours.points().iter().all(|c| {
                theirs.iter().any(|(p1, p2, d)| {
                    ((c.point - *p1).length() < 2e-3 || (c.point - *p2).length() < 2e-3)
                        && (c.depth - d).abs() < 2e-3
                })
            });
        if matches {
            agreed += 1;
        } else if compared - agreed < 4 {
            eprintln!(
                "MISMATCH {:?} {:?} | {:?} {:?}\n ours {:?}\n theirs {:?}",
                a.kind(),
                pa,
                b.kind(),
                pb,
                ours.points(),
                theirs
            );
        }
    }
    println!("manifolds compared on {compared} pairs, identical on {agreed}");
    assert!(compared > 300);
    assert!(
        agreed * 100 >= compared * 95,
        "only {agreed} of {compared} manifolds agree"
    );
}

#[test]
fn time_of_impact_matches_parry() {
    let mut rng = Rng(17);
    let (mut hits, mut misses) = (0, 0);
    for _ in 0..PAIRS {
        let (a, b) = (random_shape(&mut rng), random_shape(&mut rng));
        let pa = random_pose(&mut rng, 1.0);
        let mut pb = random_pose(&mut rng, 1.0);
        pb.position += Vec2::new(rng.f(-6.0, 6.0), rng.f(-6.0, 6.0));
        let (va, vb) = (
            Vec2::new(rng.f(-3.0, 3.0), rng.f(-3.0, 3.0)),
            Vec2::new(rng.f(-3.0, 3.0), rng.f(-3.0, 3.0)),
        );
        let motion = Motion {
            velocity_a: va,
            velocity_b: vb,
            t_max: 2.0,
        };
        let ours = sweep_test(&ShapePair::new(&a, pa, &b, pb), &motion);
        let (qa, qb) = (parry_shape(&a), parry_shape(&b));
        let theirs = pq::cast_shapes(
            &iso(pa),
            Vector::new(va.x, va.y),
            &*qa,
            &iso(pb),
            Vector::new(vb.x, vb.y),
            &*qb,
            ShapeCastOptions::with_max_time_of_impact(2.0),
        )
        .unwrap();
        match theirs {
            Some(hit) => {
                hits += 1;
                assert!(ours.hit, "parry hits at {} but we miss", hit.time_of_impact);
                let t = ours.t_first.unwrap();
                assert!(
                    (t - hit.time_of_impact).abs() <= 2e-3,
                    "t_first {t} vs parry {}",
                    hit.time_of_impact
                );
            }
            None => {
                misses += 1;
                // A graze within tolerance may count as a hit for us; anything more is wrong.
                if ours.hit {
                    let t = ours.t_first.unwrap();
                    let at = ShapePair::new(
                        &a,
                        Pose::new(pa.position + va * t, pa.angle),
                        &b,
                        Pose::new(pb.position + vb * t, pb.angle),
                    );
                    assert!(gjk_distance(&at).distance <= 1e-3);
                }
            }
        }
    }
    println!("time of impact: {hits} hits, {misses} misses");
    assert!(hits > PAIRS / 10 && misses > PAIRS / 10);
}
