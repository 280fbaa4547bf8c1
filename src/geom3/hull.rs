//! The 3D convex hull of a point set, as triangles (merged into polygons by the caller).
//!
//! Algorithm (incremental hull, Clarkson and Shor 1989; de Berg et al., *Computational
//! Geometry*, chapter 11; the horizon walk as in Barber et al.'s quickhull):
//!
//! ```text
//! validate: at least 4 finite points, not all coincident, collinear or coplanar
//!     (within the tolerance)
//! start from a tetrahedron of extreme points (widest pair, farthest from their line,
//!     farthest from their plane), faces oriented outward
//! for each other point p, farthest from the start first:
//!     visible = faces whose plane has p strictly above it (an exact sign, see below)
//!     none visible: p is inside the hull or on it: drop it
//!     horizon = edges of visible faces whose twin belongs to a face that is not visible
//!     delete the visible faces; join each horizon edge (u, v) to p as a new face (u, v, p)
//! ```
//!
//! The tolerance ([`HULL_TOLERANCE`] times the size of the point cloud) decides only whether
//! the cloud is flat, collinear or one point. Whether a point is above a face is decided
//! exactly, on an integer grid far finer than `f32` (see `GRID_BITS`): with exact signs the
//! faces a point sees always form one disc, so the horizon is one loop and the mesh stays a
//! closed convex 2-manifold whatever the input. (A tolerance here is not transitive: a point
//! within it of one face but above its neighbour left holes in the visible region, and the
//! builder refused clouds such as the 64 corner differences of two boxes as flat.) Points
//! within the tolerance of a face or an edge become vertices ringed by thin triangles, which
//! the caller merges into the faces they lie on.

use super::Shape3Error;
use glam::{DVec3, Vec3};
use std::collections::HashMap;

/// The most points a hull takes. The incremental hull costs O(n * faces) here, about 2
/// million plane tests at this size: a few milliseconds, once, when a scene loads.
pub const MAX_HULL_POINTS: usize = 1024;

/// "On the plane" for the hull, relative to the diagonal of the points' bounding box. Input
/// coordinates are `f32`, exact to about 6e-8 of their magnitude; 1e-6 leaves room for the
/// rounding of a rotation or a `sin`/`cos` in a generated point set while staying far below
/// any feature a person would draw.
pub const HULL_TOLERANCE: f64 = 1.0e-6;

/// The hull as outward-oriented triangles (counter-clockwise seen from outside), indices
/// into the input points.
pub(crate) struct TriangleHull {
    pub triangles: Vec<[u32; 3]>,
    /// The absolute tolerance used: `HULL_TOLERANCE` times the cloud's size (times a retry
    /// factor when a first attempt was inconsistent).
    pub tolerance: f64,
}

/// Hull decisions are exact: the points are placed on an integer grid whose cell is a power
/// of two near `2^-GRID_BITS` times the cloud's size (about 1.5e-11 of it: far below `f32`
/// resolution at that size, so the grid moves no point a user could see), and "is this point
/// above that face" is the sign of an integer determinant. Coordinates on the grid are below
/// `2^36`, a face's cross product below `2^74`, a determinant below `2^112`: `i128` holds
/// every one exactly. A floating-point estimate with an error bound decides first; the exact
/// sum runs only when the estimate is too close to zero to trust.
const GRID_BITS: i32 = 36;

/// The points on the grid (see [`GRID_BITS`]).
fn snap(p: &[DVec3], lo: DVec3, size: f64) -> Vec<[i64; 3]> {
    // A power of two, so the scaling itself is exact.
    let cell = 2f64.powi(size.log2().ceil() as i32 - GRID_BITS);
    p.iter()
        .map(|q| {
            let s = (*q - lo) / cell;
            [s.x.round() as i64, s.y.round() as i64, s.z.round() as i64]
        })
        .collect()
}

fn minus(a: [i64; 3], b: [i64; 3]) -> [i64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[derive(Clone, Copy)]
struct HullFace {
    v: [u32; 3],
    /// `(b - a) x (c - a)` on the grid, exact.
    normal: [i128; 3],
    /// The same, rounded to `f64` (each component within one rounding of the exact one).
    estimate: DVec3,
    alive: bool,
    visible: bool,
}

impl HullFace {
    fn new(grid: &[[i64; 3]], v: [u32; 3]) -> HullFace {
        let [a, b, c] = v.map(|i| grid[i as usize]);
        let (u, w) = (minus(b, a), minus(c, a));
        let cross = |i: usize, j: usize| u[i] as i128 * w[j] as i128 - u[j] as i128 * w[i] as i128;
        let normal = [cross(1, 2), cross(2, 0), cross(0, 1)];
        HullFace {
            v,
            normal,
            estimate: DVec3::new(normal[0] as f64, normal[1] as f64, normal[2] as f64),
            alive: true,
            visible: false,
        }
    }

    /// Whether `q` lies strictly above the face's plane (on the side its normal points to).
    fn sees(&self, grid: &[[i64; 3]], q: [i64; 3]) -> bool {
        let d = minus(q, grid[self.v[0] as usize]);
        let df = DVec3::new(d[0] as f64, d[1] as f64, d[2] as f64);
        let estimate = self.estimate.dot(df);
        // Each product carries the estimate's rounding and its own, the sum two more:
        // at most 4 units of 2^-53 of the sum of magnitudes; 1e-15 is twice that.
        let bound = 1.0e-15 * (self.estimate.abs().dot(df.abs()));
        if estimate > bound {
            return true;
        }
        if estimate < -bound {
            return false;
        }
        let exact: i128 = (0..3).map(|i| self.normal[i] * d[i] as i128).sum();
        exact > 0
    }
}

/// Checks the point list: count, finite, magnitude.
pub(crate) fn validate_points(points: &[Vec3]) -> Result<(), Shape3Error> {
    if points.len() > MAX_HULL_POINTS {
        return Err(Shape3Error::TooManyPoints {
            count: points.len(),
        });
    }
    for p in points {
        if !p.is_finite() {
            return Err(Shape3Error::NonFinite {
                what: "a hull point",
            });
        }
        let m = p.abs().max_element();
        if m > super::MAX_COORDINATE {
            return Err(Shape3Error::TooLarge {
                what: "a hull coordinate",
                value: m,
            });
        }
    }
    if points.len() < 4 {
        return Err(Shape3Error::TooFewPoints {
            count: points.len(),
        });
    }
    Ok(())
}

/// The convex hull of `points` (already validated) as triangles, with `tolerance_factor`
/// scaling [`HULL_TOLERANCE`].
pub(crate) fn triangle_hull(
    points: &[Vec3],
    tolerance_factor: f64,
) -> Result<TriangleHull, Shape3Error> {
    let p: Vec<DVec3> = points.iter().map(|q| q.as_dvec3()).collect();
    let mut lo = p[0];
    let mut hi = p[0];
    for q in &p {
        lo = lo.min(*q);
        hi = hi.max(*q);
    }
    let size = (hi - lo).length();
    let eps = HULL_TOLERANCE * tolerance_factor * size;
    if size == 0.0 {
        return Err(Shape3Error::Coincident);
    }
    // The widest pair among the six axis-extreme points.
    let mut extremes = [0usize; 6];
    for (i, q) in p.iter().enumerate() {
        for axis in 0..3 {
            if q[axis] < p[extremes[2 * axis]][axis] {
                extremes[2 * axis] = i;
            }
            if q[axis] > p[extremes[2 * axis + 1]][axis] {
                extremes[2 * axis + 1] = i;
            }
        }
    }
    let (mut i0, mut i1, mut widest) = (0, 0, -1.0);
    for &a in &extremes {
        for &b in &extremes {
            let d = p[a].distance(p[b]);
            if d > widest {
                (i0, i1, widest) = (a, b, d);
            }
        }
    }
    if widest <= eps {
        return Err(Shape3Error::Coincident);
    }
    let line = (p[i1] - p[i0]) / widest;
    let (i2, off_line) = farthest(&p, |q| (q - p[i0]).cross(line).length());
    if off_line <= eps {
        return Err(Shape3Error::Collinear);
    }
    let plane = (p[i1] - p[i0]).cross(p[i2] - p[i0]).normalize();
    let (i3, off_plane) = farthest(&p, |q| (q - p[i0]).dot(plane).abs());
    if off_plane <= eps {
        return Err(Shape3Error::Flat);
    }
    let [i0, i1, i2, i3] = [i0, i1, i2, i3].map(|i| i as u32);
    let grid = snap(&p, lo, size);
    // Orient the base so that the apex is below it (outside = away from the apex). The apex
    // is more than the tolerance off the base's plane, so it is off it on the grid too.
    let base = HullFace::new(&grid, [i0, i1, i2]);
    let (b1, b2) = if base.sees(&grid, grid[i3 as usize]) {
        (i2, i1)
    } else {
        (i1, i2)
    };
    let mut faces = Vec::with_capacity(2 * points.len());
    for v in [[i0, b1, b2], [i0, i3, b1], [b1, i3, b2], [b2, i3, i0]] {
        faces.push(HullFace::new(&grid, v));
    }
    let centre = (p[i0 as usize] + p[i1 as usize] + p[i2 as usize] + p[i3 as usize]) / 4.0;
    let mut order: Vec<u32> = (0..p.len() as u32)
        .filter(|&i| ![i0, i1, i2, i3].contains(&i))
        .collect();
    order.sort_by(|&a, &b| {
        let da = p[a as usize].distance_squared(centre);
        let db = p[b as usize].distance_squared(centre);
        db.total_cmp(&da)
    });
    // Directed edge -> the live face it belongs to: the face across edge (u, v) is the one
    // holding (v, u).
    let mut edge_face: HashMap<(u32, u32), usize> = HashMap::new();
    for (k, f) in faces.iter().enumerate() {
        for e in 0..3 {
            edge_face.insert((f.v[e], f.v[(e + 1) % 3]), k);
        }
    }
    let mut visible: Vec<usize> = Vec::new();
    let mut horizon: Vec<(u32, u32)> = Vec::new();
    for &pi in &order {
        let q = grid[pi as usize];
        // The faces that see q. With exact signs these form one disc on the hull (the
        // surface seen from an outside point), so their boundary, the horizon, is one loop,
        // and q is off the line of every horizon edge (it is strictly above the visible face
        // that holds the edge): every new face is a proper triangle.
        visible.clear();
        for (k, f) in faces.iter_mut().enumerate() {
            if f.alive && f.sees(&grid, q) {
                f.visible = true;
                visible.push(k);
            }
        }
        if visible.is_empty() {
            // On or inside the hull.
            continue;
        }
        horizon.clear();
        for &k in &visible {
            let v = faces[k].v;
            for e in 0..3 {
                let (a, b) = (v[e], v[(e + 1) % 3]);
                let Some(&across) = edge_face.get(&(b, a)) else {
                    return Err(Shape3Error::Flat);
                };
                if !faces[across].visible {
                    horizon.push((a, b));
                }
            }
        }
        for &k in &visible {
            faces[k].alive = false;
            faces[k].visible = false;
            let v = faces[k].v;
            for e in 0..3 {
                edge_face.remove(&(v[e], v[(e + 1) % 3]));
            }
        }
        for &(a, b) in &horizon {
            let face = HullFace::new(&grid, [a, b, pi]);
            let index = faces.len();
            for e in 0..3 {
                // Exact signs make the horizon one simple loop, so no directed edge can
                // appear twice; if it ever did, the mesh would not be a 2-manifold: report it
                // rather than build on it.
                if edge_face
                    .insert((face.v[e], face.v[(e + 1) % 3]), index)
                    .is_some()
                {
                    return Err(Shape3Error::Flat);
                }
            }
            faces.push(face);
        }
    }
    Ok(TriangleHull {
        triangles: faces.iter().filter(|f| f.alive).map(|f| f.v).collect(),
        tolerance: eps,
    })
}

fn farthest(p: &[DVec3], distance: impl Fn(DVec3) -> f64) -> (usize, f64) {
    let mut best = (0, -1.0);
    for (i, q) in p.iter().enumerate() {
        let d = distance(*q);
        if d > best.1 {
            best = (i, d);
        }
    }
    best
}
