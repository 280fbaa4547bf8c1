//! The Minkowski difference A - B = { a - b : a in A, b in B } as an explicit outline.
//!
//! The shapes overlap exactly when A - B contains the origin; GJK and EPA only ever sample
//! it through support points, while the window draws it whole and the tests check EPA
//! against its boundary.
//!
//! Algorithm: the convex hull of every core vertex difference `a_i - b_j` (the vertices of
//! A - B are among them), then, for rounded shapes, that hull inflated by the sum of the
//! radii with sampled arcs. O(n m log(n m)): meant for display and tests, not for the
//! per-frame queries.

use super::ShapePair;
use crate::geom::{convex_hull, right_perp};
use glam::Vec2;

/// Arc sampling for rounded outlines: points per full turn.
const ARC_POINTS_PER_TURN: usize = 64;

/// A - B of a pair. Frame-free: it does not change when both bodies move together.
#[derive(Clone, Debug, PartialEq)]
pub struct MinkowskiDifference {
    /// The hull of the cores' differences, counter-clockwise (2 points when it is a segment,
    /// 1 when a point).
    pub core: Vec<Vec2>,
    /// The sum of both radii.
    pub radius: f32,
    /// The boundary to draw: `core` inflated by `radius`, counter-clockwise.
    pub outline: Vec<Vec2>,
}

/// The origin's relation to the boundary of A - B.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundaryQuery {
    /// Whether the origin is inside (or on) A - B.
    pub contains_origin: bool,
    /// Distance from the origin to the boundary.
    pub distance: f32,
    /// The boundary point nearest the origin.
    pub point: Vec2,
}

/// Builds A - B for the pair.
pub fn minkowski_difference(pair: &ShapePair) -> MinkowskiDifference {
    let (a, b) = (&pair.a, &pair.b);
    let mut differences = Vec::with_capacity(a.vertex_count() * b.vertex_count());
    for i in 0..a.vertex_count() {
        for j in 0..b.vertex_count() {
            differences.push(a.vertex(i) - b.vertex(j));
        }
    }
    let core = convex_hull(&differences);
    let radius = a.radius() + b.radius();
    let outline = crate::geom::rounded_outline_of(&core, radius, ARC_POINTS_PER_TURN);
    MinkowskiDifference {
        core,
        radius,
        outline,
    }
}

impl MinkowskiDifference {
    /// Where the origin lies relative to the boundary, computed on the exact core and
    /// radius (not the sampled outline).
    pub fn origin_query(&self) -> BoundaryQuery {
        let core = &self.core;
        let n = core.len();
        // Nearest point of the core's boundary (or the core itself when a point/segment).
        let mut best = core[0];
        let mut best_d = f32::INFINITY;
        let mut inside_core = n >= 3;
        for i in 0..n {
            let p = core[i];
            let q = core[(i + 1) % n];
            let e = q - p;
            if n >= 3 && crate::geom::cross(e, -p) < 0.0 {
                inside_core = false;
            }
            let len2 = e.length_squared();
            let t = if len2 > 0.0 {
                (-p.dot(e) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let c = p + t * e;
            if c.length() < best_d {
                best = c;
                best_d = c.length();
            }
        }
        if inside_core {
            // Inside the core: the boundary lies `radius` beyond the nearest core edge.
            let (distance, normal) = (0..n)
                .map(|i| {
                    let nrm = right_perp(core[(i + 1) % n] - core[i]).normalize_or_zero();
                    (nrm.dot(core[i]), nrm)
                })
                .filter(|(_, nrm)| *nrm != Vec2::ZERO)
                .fold(
                    (f32::INFINITY, Vec2::X),
                    |acc, x| if x.0 < acc.0 { x } else { acc },
                );
            BoundaryQuery {
                contains_origin: true,
                distance: distance + self.radius,
                point: (distance + self.radius) * normal,
            }
        } else {
            let outward = if best_d > 0.0 { best / best_d } else { Vec2::X };
            let signed = best_d - self.radius;
            BoundaryQuery {
                contains_origin: signed <= 0.0,
                distance: signed.abs(),
                point: best + self.radius * (-outward) * if best_d > 0.0 { 1.0 } else { 0.0 },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Shape;
    use crate::query::testing::*;

    #[test]
    fn difference_of_two_squares_is_a_square_of_summed_size() {
        let (a, b) = (square(1.0), square(0.5));
        let pair = ShapePair::new(&a, at(0.0, 0.0), &b, at(1.2, 0.0));
        let m = minkowski_difference(&pair);
        assert_eq!(m.core.len(), 4);
        assert!(close(crate::geom::signed_area(&m.core), 9.0, 1e-4));
        let q = m.origin_query();
        // A - B spans x in [-2.7, 0.3]: the origin is 0.3 inside its right side.
        assert!(q.contains_origin);
        assert!(close(q.distance, 0.3, 1e-5));
        assert!(close_v(q.point, v(0.3, 0.0), 1e-5));
    }

    #[test]
    fn separated_circle_and_box_measure_to_the_rounded_boundary() {
        let (a, c) = (square(1.0), Shape::circle(0.5).unwrap());
        let pair = ShapePair::new(&a, at(0.0, 0.0), &c, at(3.0, 0.0));
        let m = minkowski_difference(&pair);
        let q = m.origin_query();
        assert!(!q.contains_origin);
        assert!(close(q.distance, 1.5, 1e-5));
        assert!(m.outline.len() > 16, "arcs are sampled");
    }
}
