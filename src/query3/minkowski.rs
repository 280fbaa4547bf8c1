//! The Minkowski difference A - B = { a - b : a in A, b in B } in 3D, as an explicit
//! polyhedron for display and for checking GJK and EPA.
//!
//! The bodies overlap exactly when A - B holds the origin; GJK and EPA only sample it
//! through support points, while the window draws it whole and the tests check EPA's closest
//! face against it.
//!
//! Algorithm: the convex hull (geom3's hull builder, coplanar faces merged) of the points
//! `a_i - b_j` for every vertex pair: the vertices of A - B are among them. Up to
//! [`MAX_HULL_POINTS`] pairs this is exact. Beyond it (two 40-vertex hulls already make
//! 1,600 pairs) the hull is built from the support points of A - B along
//! [`SAMPLE_DIRECTIONS`] directions spread evenly over the sphere (a Fibonacci lattice):
//! every one is a true vertex of A - B, but small faces may be missed, and the result says
//! it is sampled.
//!
//! The origin's status: inside when it is below every face plane; its distance to the
//! boundary is then the smallest plane distance. Outside, the nearest boundary point lies on
//! a face the origin is above: the closest point of each such face (a fan of triangles).

use super::round::BodyPair3;
use super::simplex::{closest_on_triangle, SupportPair3};
use super::PolyPair;
use crate::geom3::{Polyhedron, Shape3Error, Shape3Kind, Shape3Ref, MAX_HULL_POINTS};
use glam::Vec3;

/// Directions sampled for the drawn A - B of a pair with a sphere or a capsule, or with more
/// vertex pairs than [`MAX_HULL_POINTS`]: the rounded parts' facets are then about 1/4 of a
/// radian apart (the spacing of 200 points on a sphere), which still reads as round, and
/// the hull takes about 2 ms to build (400 directions took 6 ms: the hull builder's cost
/// grows faster than the count), cheap enough to rebuild while a body is dragged.
pub const DRAWN_DIRECTIONS: usize = 200;

/// Directions sampled for pairs with more than [`MAX_HULL_POINTS`] vertex pairs: as many as
/// the hull builder takes, which resolves features down to about 1/16 of the pair's size
/// (the spacing of 1,024 points on a sphere, in radians).
pub const SAMPLE_DIRECTIONS: usize = MAX_HULL_POINTS;

/// A - B for a pair. Frame-free: it does not change when both bodies move together.
#[derive(Clone, Debug, PartialEq)]
pub struct MinkowskiDifference3 {
    /// The hull, in the coordinates of A - B (its local frame is the difference space).
    pub hull: Polyhedron,
    /// Every vertex pair went in (false: support points along sampled directions).
    pub exact: bool,
    /// Where the origin is relative to the hull.
    pub origin: OriginQuery,
}

/// The origin's relation to the boundary of A - B.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OriginQuery {
    /// The origin is inside A - B or on its boundary: the bodies overlap or touch.
    pub contains_origin: bool,
    /// Distance from the origin to the boundary: the penetration depth when inside, the
    /// bodies' distance when outside.
    pub distance: f32,
    /// The boundary point nearest the origin.
    pub point: Vec3,
    /// The face holding that point.
    pub face: usize,
}

/// Builds A - B for a pair of polyhedra.
pub fn minkowski_difference(pair: &PolyPair) -> Result<MinkowskiDifference3, Shape3Error> {
    let (na, nb) = (pair.a.shape.vertices().len(), pair.b.shape.vertices().len());
    let exact = na * nb <= MAX_HULL_POINTS;
    let points = if exact {
        let mut points = Vec::with_capacity(na * nb);
        for i in 0..na {
            for j in 0..nb {
                points.push(pair.a.vertex(i) - pair.b.vertex(j));
            }
        }
        points
    } else {
        sampled_differences(pair, SAMPLE_DIRECTIONS)
    };
    let hull = Polyhedron::new(&Shape3Kind::Hull { points })?;
    let origin = origin_query(&hull);
    Ok(MinkowskiDifference3 {
        hull,
        exact,
        origin,
    })
}

/// A - B of two bodies of any kinds, and for a pair with a sphere or a capsule the
/// difference of the cores that GJK and EPA actually walk (`round`'s header).
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDifference3 {
    /// A - B itself (for round shapes: sampled, the cores' difference grown by the radii).
    pub difference: MinkowskiDifference3,
    /// Present when a body is round.
    pub cores: Option<CoresDifference3>,
}

/// The cores' Minkowski difference of a pair with a round shape: A - B is this grown by
/// `radius` in every direction, and GJK's simplex and EPA's polytope live in it.
#[derive(Clone, Debug, PartialEq)]
pub struct CoresDifference3 {
    /// Both radii: how far A - B reaches beyond the cores' difference.
    pub radius: f32,
    /// The differences of the cores' vertices (a sphere's core is its centre, a capsule's
    /// its segment's two ends): their hull is the cores' difference.
    pub points: Vec<Vec3>,
    /// That hull when it is a solid (`None` when it is flat: a point, a segment or a
    /// polygon, which the points then draw).
    pub hull: Option<Polyhedron>,
}

/// A - B of two posed bodies, as the window draws it: [`minkowski_difference`] for two
/// polyhedra with few vertex pairs, sampled along [`DRAWN_DIRECTIONS`] directions for more;
/// with a sphere or a capsule, the hull of the support points of the rounded bodies along
/// [`DRAWN_DIRECTIONS`] directions (each `w(d) = core support + (ra + rb) d`, a point on
/// the true boundary), with the cores' difference beside it.
pub fn body_difference(
    a: (Shape3Ref, &crate::geom3::Pose3),
    b: (Shape3Ref, &crate::geom3::Pose3),
) -> Result<BodyDifference3, Shape3Error> {
    if let (Some(pa), Some(pb)) = (a.0.as_polyhedron(), b.0.as_polyhedron()) {
        let pair = PolyPair::new(pa, a.1, pb, b.1);
        let difference = if pa.vertices().len() * pb.vertices().len() <= MAX_HULL_POINTS {
            minkowski_difference(&pair)?
        } else {
            let points = sampled_differences(&pair, DRAWN_DIRECTIONS);
            let hull = Polyhedron::new(&Shape3Kind::Hull { points })?;
            let origin = origin_query(&hull);
            MinkowskiDifference3 {
                hull,
                exact: false,
                origin,
            }
        };
        return Ok(BodyDifference3 {
            difference,
            cores: None,
        });
    }
    let pair = BodyPair3::new(a.0, a.1, b.0, b.1);
    let radius = pair.radii();
    let points: Vec<Vec3> = fibonacci_directions(DRAWN_DIRECTIONS)
        .map(|d| pair.support(d).point + radius * d)
        .collect();
    let hull = Polyhedron::new(&Shape3Kind::Hull { points })?;
    let origin = origin_query(&hull);
    let core_points = sampled_differences(&pair, MAX_HULL_POINTS.min(core_pairs(&pair)));
    let core_hull = Polyhedron::new(&Shape3Kind::Hull {
        points: core_points.clone(),
    })
    .ok();
    Ok(BodyDifference3 {
        difference: MinkowskiDifference3 {
            hull,
            exact: false,
            origin,
        },
        cores: Some(CoresDifference3 {
            radius,
            points: core_points,
            hull: core_hull,
        }),
    })
}

/// How many support directions find every vertex pair of the cores: at least the pairs
/// themselves, and enough to meet each of a polyhedron's vertices.
fn core_pairs(pair: &BodyPair3) -> usize {
    let count = |b: &super::round::PlacedBody3| match b {
        super::round::PlacedBody3::Poly(p) => p.shape.vertices().len(),
        super::round::PlacedBody3::Round(r) => 1 + usize::from(r.is_segment()),
    };
    (count(&pair.a) * count(&pair.b) * 8).max(64)
}

/// `count` unit directions spread evenly over the sphere (a Fibonacci lattice).
fn fibonacci_directions(count: usize) -> impl Iterator<Item = Vec3> {
    let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
    (0..count).map(move |k| {
        let y = 1.0 - 2.0 * (k as f32 + 0.5) / count as f32;
        let r = (1.0 - y * y).max(0.0).sqrt();
        let angle = golden * k as f32;
        Vec3::new(r * angle.cos(), y, r * angle.sin())
    })
}

/// Support points of A - B along `count` directions of a Fibonacci lattice on the sphere,
/// each vertex pair once.
pub fn sampled_differences(pair: &impl SupportPair3, count: usize) -> Vec<Vec3> {
    let mut seen: Vec<(u32, u32)> = Vec::with_capacity(count);
    let mut points = Vec::with_capacity(count);
    for d in fibonacci_directions(count) {
        let w = pair.support(d);
        if !seen.contains(&(w.index_a, w.index_b)) {
            seen.push((w.index_a, w.index_b));
            points.push(w.point);
        }
    }
    points
}

impl MinkowskiDifference3 {
    /// How far the hull reaches beyond the plane `normal . p = offset`: zero when the plane
    /// supports the hull (touches it without cutting it), positive when hull points lie
    /// above it.
    pub fn plane_gap(&self, normal: Vec3, offset: f32) -> f32 {
        let i = self.hull.support_scan(normal);
        self.hull.vertex(i).dot(normal) - offset
    }

    /// Whether the plane `normal . p = offset` (EPA's closest face, say) lies on the
    /// boundary of A - B within `tolerance`: it supports the hull.
    pub fn plane_on_boundary(&self, normal: Vec3, offset: f32, tolerance: f32) -> bool {
        self.plane_gap(normal, offset).abs() <= tolerance
    }
}

/// The origin against a convex hull: inside or out, and the nearest boundary point.
pub fn origin_query(hull: &Polyhedron) -> OriginQuery {
    // The plane farthest below which the origin lies least: the largest signed height of
    // the origin above a face plane, -offset.
    let mut best_face = 0;
    let mut best_height = f32::NEG_INFINITY;
    for f in 0..hull.face_count() {
        let height = -hull.face_offset(f);
        if height > best_height {
            best_height = height;
            best_face = f;
        }
    }
    if best_height <= 0.0 {
        // Inside: the nearest face plane is the nearest boundary.
        let n = hull.face_normal(best_face);
        return OriginQuery {
            contains_origin: true,
            distance: -best_height,
            point: -best_height * n,
            face: best_face,
        };
    }
    // Outside: the closest point of each face the origin is above.
    let mut best = (f32::INFINITY, Vec3::ZERO, 0);
    for f in 0..hull.face_count() {
        if hull.face_offset(f) >= 0.0 {
            continue;
        }
        let face = hull.face(f);
        let p0 = hull.vertex(face.vertices[0] as usize);
        for k in 1..face.vertices.len() - 1 {
            let p1 = hull.vertex(face.vertices[k] as usize);
            let p2 = hull.vertex(face.vertices[k + 1] as usize);
            let q = closest_on_triangle(p0, p1, p2, [0, 1, 2]).point(&[p0, p1, p2]);
            let d = q.length();
            if d < best.0 {
                best = (d, q, f);
            }
        }
    }
    OriginQuery {
        contains_origin: false,
        distance: best.0,
        point: best.1,
        face: best.2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query3::epa::epa_penetration;
    use crate::query3::gjk::gjk_distance;
    use crate::query3::testing::*;

    #[test]
    fn two_spheres_make_a_ball_of_both_radii_around_the_centres_difference() {
        // Radii 1 and 0.5, B at (3, 0, 0): A - B is the ball of radius 1.5 about (-3, 0, 0),
        // the origin outside it, 3 - 1.5 = 1.5 from its boundary. The sampled hull is
        // inscribed in the ball: 200 points are about sqrt(4 pi / 200) = 0.25 rad apart, so
        // its faces sit at most about 1.5 (1 - cos 0.125) = 0.012 inside.
        use crate::geom3::Round3;
        let (big, small) = (Round3::sphere(1.0).unwrap(), Round3::sphere(0.5).unwrap());
        let d = body_difference(
            ((&big).into(), &at(0., 0., 0.)),
            ((&small).into(), &at(3., 0., 0.)),
        )
        .unwrap();
        assert!(!d.difference.exact && !d.difference.origin.contains_origin);
        let gap = d.difference.origin.distance;
        assert!((1.5..1.52).contains(&gap), "{gap}");
        for v in d.difference.hull.vertices() {
            assert!(
                close((*v - Vec3::new(-3., 0., 0.)).length(), 1.5, 1e-5),
                "{v}"
            );
        }
        let cores = d.cores.unwrap();
        assert_eq!(cores.radius, 1.5);
        assert_eq!(cores.points, vec![Vec3::new(-3., 0., 0.)]);
        assert!(cores.hull.is_none(), "a point is no solid");
    }

    #[test]
    fn a_box_and_a_sphere_make_a_rounded_box_around_the_boxs_difference() {
        // A unit cube at the origin, a ball of radius 0.5 at (0, 2, 0): the cores'
        // difference is the cube about (0, -2, 0); A - B grows it by 0.5, so its top face
        // is at y = -1 and the origin is 1 above it.
        use crate::geom3::Round3;
        let (cube, ball) = (cuboid(0.5, 0.5, 0.5), Round3::sphere(0.5).unwrap());
        let d = body_difference(
            ((&cube).into(), &at(0., 0., 0.)),
            ((&ball).into(), &at(0., 2., 0.)),
        )
        .unwrap();
        let gap = d.difference.origin.distance;
        assert!(!d.difference.origin.contains_origin);
        assert!((1.0..1.01).contains(&gap), "{gap}");
        let cores = d.cores.unwrap();
        assert_eq!(cores.points.len(), 8);
        let hull = cores.hull.expect("the cube's difference is a solid");
        assert_eq!(hull.face_count(), 6);
        let top = hull.support_scan(Vec3::Y);
        assert!(close(hull.vertex(top).y, -1.5, 1e-6));
        // Two polyhedra: the exact hull, and no cores.
        let poly = body_difference(
            ((&cube).into(), &at(0., 0., 0.)),
            ((&cube).into(), &at(0., 2., 0.)),
        )
        .unwrap();
        assert!(poly.difference.exact && poly.cores.is_none());
    }

    #[test]
    fn two_cubes_make_a_cube_twice_the_size() {
        // Unit cubes, B at (0.6, 0.3, -0.2): A - B is the cube of half 1 centred at
        // (-0.6, -0.3, 0.2); the origin is inside, 0.4 from the face x = 0.4.
        let c = cuboid(0.5, 0.5, 0.5);
        let pair = PolyPair::new(&c, &at(0., 0., 0.), &c, &at(0.6, 0.3, -0.2));
        let m = minkowski_difference(&pair).unwrap();
        assert!(m.exact);
        assert_eq!(m.hull.vertices().len(), 8);
        assert_eq!(m.hull.face_count(), 6);
        assert!(m.origin.contains_origin);
        assert!(close(m.origin.distance, 0.4, 1e-6));
        assert!(close_v(m.origin.point, Vec3::new(0.4, 0., 0.), 1e-6));
        // EPA's answer: its face lies on the hull, its depth is the origin's distance.
        let e = epa_penetration(&pair, &gjk_distance(&pair)).unwrap();
        assert!(m.plane_on_boundary(e.normal, e.depth, 1e-5));
        assert!(close(e.depth, m.origin.distance, 1e-5));
        // A plane through the middle is not on the boundary.
        assert!(!m.plane_on_boundary(Vec3::X, -0.6, 1e-5));
    }

    #[test]
    fn separated_cubes_leave_the_origin_outside_at_the_gjk_distance() {
        // The corner case: B at (2, 2, 2), A - B's corner (-1, -1, -1) is sqrt(3) away.
        let c = cuboid(0.5, 0.5, 0.5);
        let pair = PolyPair::new(&c, &at(0., 0., 0.), &c, &at(2., 2., 2.));
        let m = minkowski_difference(&pair).unwrap();
        assert!(!m.origin.contains_origin);
        assert!(close(m.origin.distance, 3f32.sqrt(), 1e-6));
        assert!(close_v(m.origin.point, Vec3::splat(-1.0), 1e-6));
        let g = gjk_distance(&pair);
        assert!(close(g.distance, m.origin.distance, 1e-6));
        // The face case: B at (2, 0.5, 0), nearest face x = -1 of A - B.
        let pair = PolyPair::new(&c, &at(0., 0., 0.), &c, &at(2., 0.5, 0.));
        let m = minkowski_difference(&pair).unwrap();
        assert!(close(m.origin.distance, 1.0, 1e-6));
        assert!(close(m.origin.point.x, -1.0, 1e-6));
    }

    #[test]
    fn the_difference_does_not_depend_on_where_the_pair_is() {
        let c = cuboid(0.5, 0.3, 0.7);
        let pa = at_deg(Vec3::new(1., 2., 3.), Vec3::new(10., 20., 30.));
        let pb = at_deg(Vec3::new(1.5, 2.2, 3.1), Vec3::new(-5., 40., 0.));
        let here = minkowski_difference(&PolyPair::new(&c, &pa, &c, &pb)).unwrap();
        let shift = Vec3::new(-100., 50., 7.);
        let there = minkowski_difference(&PolyPair::new(
            &c,
            &at_deg(pa.position + shift, Vec3::new(10., 20., 30.)),
            &c,
            &at_deg(pb.position + shift, Vec3::new(-5., 40., 0.)),
        ))
        .unwrap();
        assert_eq!(here.hull.vertices().len(), there.hull.vertices().len());
        assert!(close(here.origin.distance, there.origin.distance, 1e-4));
    }

    #[test]
    fn large_pairs_are_sampled_from_support_points() {
        // Two 40-sided prisms: 80 x 80 = 6,400 vertex pairs, more than the hull takes.
        let p = crate::geom3::Polyhedron::new(&Shape3Kind::Prism {
            sides: 40,
            radius: 1.0,
            half_height: 0.5,
        })
        .unwrap();
        let pair = PolyPair::new(&p, &at(0., 0., 0.), &p, &at(0.5, 0.2, 0.));
        let m = minkowski_difference(&pair).unwrap();
        assert!(!m.exact);
        // Same orientation: A - B is a 40-sided prism of radius 2 and half height 1; all 80
        // corners are caught by the sampled directions.
        assert_eq!((m.hull.vertices().len(), m.hull.face_count()), (80, 42));
        // Caps at y = +-1 (half heights add), shifted by -0.2: the origin is 0.8 below the
        // top cap, and the side wall is about 2 - 0.5 = 1.5 away: depth 0.8 along y.
        assert!(m.origin.contains_origin);
        assert!(close(m.origin.distance, 0.8, 1e-5), "{}", m.origin.distance);
        let e = epa_penetration(&pair, &gjk_distance(&pair)).unwrap();
        assert!(close(e.depth, 0.8, 1e-4), "{}", e.depth);
        assert!(m.plane_on_boundary(e.normal, e.depth, 1e-4));
    }
}
