//! The 3D convex hull of a point set, as triangles (merged into polygons by the caller).
//!
//! Algorithm (incremental hull, Clarkson and Shor 1989; de Berg et al., *Computational
//! Geometry*, chapter 11; the horizon walk as in Barber et al.'s quickhull):
//!
//! ```text
//! validate: at least 4 finite points, not all coincident, collinear or coplanar
//! start from a tetrahedron of extreme points (widest pair, farthest from their line,
//!     farthest from their plane), faces oriented outward
//! for each other point p, farthest from the start first:
//!     visible = faces whose plane has p above it by more than the tolerance
//!     none visible: p is inside (or on) the hull: drop it
//!     horizon = edges of visible faces whose twin belongs to a face that is not visible
//!     delete the visible faces; join each horizon edge (u, v) to p as a new face (u, v, p)
//! ```
//!
//! Arithmetic is `f64` (inputs are `f32`), and "above" means above by more than
//! [`HULL_TOLERANCE`] times the size of the point cloud, so points that are coplanar with a
//! face up to `f32` rounding join that face instead of making slivers.

use super::Shape3Error;
use glam::{DVec3, Vec3};
use std::collections::{HashMap, HashSet};

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

#[derive(Clone, Copy)]
struct HullFace {
    v: [u32; 3],
    normal: DVec3,
    offset: f64,
    alive: bool,
}

fn make_face(p: &[DVec3], v: [u32; 3], fallback: DVec3) -> HullFace {
    let [a, b, c] = v.map(|i| p[i as usize]);
    let n = (b - a).cross(c - a);
    let len = n.length();
    let normal = if len > 0.0 && len.is_finite() {
        n / len
    } else {
        fallback
    };
    HullFace {
        v,
        normal,
        offset: normal.dot(a),
        alive: true,
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
    // Orient the base so that the apex is below it (outside = away from the apex).
    let (b1, b2) = if (p[i3 as usize] - p[i0 as usize]).dot(plane) > 0.0 {
        (i2, i1)
    } else {
        (i1, i2)
    };
    let mut faces = Vec::with_capacity(2 * points.len());
    for v in [[i0, b1, b2], [i0, i3, b1], [b1, i3, b2], [b2, i3, i0]] {
        faces.push(make_face(&p, v, DVec3::Y));
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
    let mut is_visible: HashSet<usize> = HashSet::new();
    let mut horizon: Vec<(u32, u32, DVec3)> = Vec::new();
    for &pi in &order {
        let q = p[pi as usize];
        // The face p is farthest above seeds a search over neighbours: the visible region
        // is connected, so its boundary (the horizon) is one loop.
        let mut seed = None;
        let mut highest = eps;
        for (k, f) in faces.iter().enumerate() {
            let h = f.normal.dot(q) - f.offset;
            if f.alive && h > highest {
                highest = h;
                seed = Some(k);
            }
        }
        let Some(seed) = seed else {
            continue;
        };
        visible.clear();
        is_visible.clear();
        visible.push(seed);
        is_visible.insert(seed);
        let mut k = 0;
        while k < visible.len() {
            let v = faces[visible[k]].v;
            k += 1;
            for e in 0..3 {
                let Some(&other) = edge_face.get(&(v[(e + 1) % 3], v[e])) else {
                    return Err(Shape3Error::Flat);
                };
                let f = &faces[other];
                if !is_visible.contains(&other) && f.normal.dot(q) - f.offset > eps {
                    is_visible.insert(other);
                    visible.push(other);
                }
            }
        }
        horizon.clear();
        for &k in &visible {
            let v = faces[k].v;
            for e in 0..3 {
                let (a, b) = (v[e], v[(e + 1) % 3]);
                if !is_visible.contains(&edge_face[&(b, a)]) {
                    horizon.push((a, b, faces[k].normal));
                }
            }
        }
        for &k in &visible {
            faces[k].alive = false;
            let v = faces[k].v;
            for e in 0..3 {
                edge_face.remove(&(v[e], v[(e + 1) % 3]));
            }
        }
        for &(a, b, fallback) in &horizon {
            let face = make_face(&p, [a, b, pi], fallback);
            let index = faces.len();
            for e in 0..3 {
                // A horizon that touches itself would give a directed edge twice: the mesh
                // is no longer a 2-manifold. Report it; the caller retries more coarsely.
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
