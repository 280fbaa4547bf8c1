use super::cross;
use glam::Vec2;

/// The signed area of a closed outline, positive when counter-clockwise.
pub fn signed_area(points: &[Vec2]) -> f32 {
    let n = points.len();
    if n < 3 {
        return 0.0;
    }
    // Shoelace formula about the first vertex, which keeps the products small for outlines
    // far from the origin.
    let o = points[0];
    let mut twice = 0.0;
    for i in 1..n - 1 {
        twice += cross(points[i] - o, points[i + 1] - o);
    }
    0.5 * twice
}

/// The convex hull of `points`, counter-clockwise, without collinear or repeated vertices
/// (Andrew's monotone chain). Returns fewer than 3 points when the input spans a segment or
/// a single point.
pub fn convex_hull(points: &[Vec2]) -> Vec<Vec2> {
    let mut sorted: Vec<Vec2> = points.iter().copied().filter(|p| p.is_finite()).collect();
    sorted.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    sorted.dedup();
    if sorted.len() < 3 {
        return sorted;
    }
    let mut hull: Vec<Vec2> = Vec::with_capacity(sorted.len() + 1);
    // Lower chain left to right, then upper chain right to left; a point is popped while
    // the last turn is clockwise or straight.
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
            Box::new(sorted.iter())
        } else {
            Box::new(sorted.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2 {
                let a = hull[hull.len() - 2];
                let b = hull[hull.len() - 1];
                if cross(b - a, p - b) <= 0.0 {
                    hull.pop();
                } else {
                    break;
                }
            }
            hull.push(p);
        }
        // The last point of each chain is the first of the other.
        hull.pop();
    }
    hull
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_of_square_with_interior_and_collinear_points() {
        let pts = [
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 2.0),
            Vec2::new(0.0, 2.0),
        ];
        let hull = convex_hull(&pts);
        assert_eq!(hull.len(), 4);
        assert!((signed_area(&hull) - 4.0).abs() < 1e-6);
    }

    #[test]
    fn hull_of_collinear_points_is_a_segment() {
        let pts = [
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(2.0, 2.0),
        ];
        assert_eq!(convex_hull(&pts).len(), 2);
    }

    #[test]
    fn clockwise_area_is_negative() {
        let cw = [
            Vec2::new(0.0, 0.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(1.0, 0.0),
        ];
        assert!(signed_area(&cw) < 0.0);
    }
}
