//! What GJK and EPA in 3D work on: support points of the Minkowski difference A - B of two
//! convex cores, the small trait that supplies them, and the simplex with its closest-point
//! routines (point, segment, triangle, tetrahedron).
//!
//! Algorithm (Ericson, *Real-Time Collision Detection*, 5.1.2, 5.1.5 and 5.1.6: closest
//! point on a segment, a triangle and a tetrahedron, found by Voronoi region):
//!
//! ```text
//! segment ab:     t = (-a . ab) / |ab|^2; t <= 0: vertex a; t >= 1: vertex b; else the edge
//! triangle abc:   vertex regions by the signs of the edge projections (d1..d6), then edge
//!                 regions by the signed areas va, vb, vc, else the face; a zero-area
//!                 triangle falls back to the closest of its three edges
//! tetrahedron:    for each face whose plane has the origin on the outer side (opposite the
//!                 fourth vertex), the closest point on that face; the nearest wins; no such
//!                 face: the origin is inside. A flat tetrahedron tests all four faces.
//! ```
//!
//! Every routine returns the region (which vertices of the simplex span the feature holding
//! the closest point) and the barycentric weights of that point over those vertices, so GJK
//! can map the closest point of A - B back to a point of A and a point of B.
//!
//! The traits [`Support3`] and [`SupportPair3`] are all GJK and EPA ask of the bodies: any
//! convex core with a support function (a polyhedron today; a point or a segment core under
//! a sphere or a capsule later) plugs in.
//!
//! ```text
//! support of a placed polyhedron along d:
//!     l = d turned into the body's frame
//!     a cuboid with every |h_k l_k| clear of a tie: the corner with l's signs (closed form)
//!     otherwise: the vertex scan (lowest index on exact ties)
//!     the vertex turned back into the work frame
//! ```
//!
//! The closed form is used only where it is provably the scan's vertex (the proof is on
//! `Polyhedron::cuboid_support`), so the vertex and its bits are the scan's either way, in
//! traced and untraced runs alike.

use super::{Placed3, PolyPair};
use glam::Vec3;

/// A convex core as GJK and EPA see it, placed in a work frame.
pub trait Support3 {
    /// The point of the core farthest along `direction` (work frame), with an id naming it
    /// (a vertex index): two support points with the same ids are the same point.
    fn support_vertex(&self, direction: Vec3) -> (u32, Vec3);
    /// A point inside the core (work frame).
    fn centroid(&self) -> Vec3;
}

impl Support3 for Placed3<'_> {
    // Always inlined: GJK takes two of these one after another on its critical path, and
    // a call passes the direction in and the vertex out through memory.
    // [`Placed3::support_fast`]: traced or not, the same vertex and bits, so the steps GJK
    // and EPA record do not change.
    #[inline(always)]
    fn support_vertex(&self, direction: Vec3) -> (u32, Vec3) {
        let (i, v) = self.support_fast(direction);
        (i as u32, v)
    }

    #[inline]
    fn centroid(&self) -> Vec3 {
        Placed3::centroid(self)
    }
}

/// Two convex cores in one work frame (the world shifted so that body A's position is the
/// origin): the support function of their Minkowski difference A - B.
pub trait SupportPair3 {
    type A: Support3;
    type B: Support3;
    fn a(&self) -> &Self::A;
    fn b(&self) -> &Self::B;
    /// The world position of the work frame's origin.
    fn origin(&self) -> Vec3;
    /// The length that sets the tolerances' scale (the pair's size).
    fn scale(&self) -> f32;

    /// The support point of A - B in `direction`: A's farthest point along it minus B's
    /// farthest point along `-direction`. Always inlined: a call would hand the point back
    /// through memory, on GJK's chain of dependent steps.
    #[inline(always)]
    fn support(&self, direction: Vec3) -> SupportPoint3 {
        let (index_a, on_a) = self.a().support_vertex(direction);
        let (index_b, on_b) = self.b().support_vertex(-direction);
        SupportPoint3 {
            point: on_a - on_b,
            on_a,
            on_b,
            index_a,
            index_b,
        }
    }

    /// A work-frame point in world coordinates.
    #[inline]
    fn to_world(&self, p: Vec3) -> Vec3 {
        p + self.origin()
    }

    /// From A's inner point to B's: a good first search direction. Always inlined: it
    /// starts GJK's chain of dependent steps, and a call returns it through memory.
    #[inline(always)]
    fn centre_offset(&self) -> Vec3 {
        self.b().centroid() - self.a().centroid()
    }

    /// GJK's intersection verdict without the loop, where the pair has a closed form and it
    /// is sure (two cuboids clear of the touching band: [`super::cuboid_verdict`]); `None`
    /// (the default, every other pair) runs the loop.
    #[inline(always)]
    fn closed_form_verdict(&self) -> Option<bool> {
        None
    }
}

impl<'a> SupportPair3 for PolyPair<'a> {
    type A = Placed3<'a>;
    type B = Placed3<'a>;

    #[inline]
    fn a(&self) -> &Placed3<'a> {
        &self.a
    }

    #[inline]
    fn b(&self) -> &Placed3<'a> {
        &self.b
    }

    #[inline]
    fn origin(&self) -> Vec3 {
        self.origin
    }

    #[inline]
    fn scale(&self) -> f32 {
        PolyPair::scale(self)
    }

    #[inline(always)]
    fn closed_form_verdict(&self) -> Option<bool> {
        super::cuboid_verdict::cuboid_verdict(self)
    }
}

/// A point of A - B with its sources: `point = on_a - on_b`. In steps and outputs `on_a`
/// and `on_b` are world points (the difference does not depend on the frame).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SupportPoint3 {
    pub point: Vec3,
    pub on_a: Vec3,
    pub on_b: Vec3,
    /// Support ids on A and on B (vertex indices for polyhedra).
    pub index_a: u32,
    pub index_b: u32,
}

impl SupportPoint3 {
    /// The same point with its sources moved from the work frame to the world.
    pub fn to_world(self, pair: &impl SupportPair3) -> Self {
        SupportPoint3 {
            on_a: pair.to_world(self.on_a),
            on_b: pair.to_world(self.on_b),
            ..self
        }
    }

    pub(crate) fn same_sources(&self, other: &SupportPoint3) -> bool {
        self.index_a == other.index_a && self.index_b == other.index_b
    }
}

/// Where the origin's closest point lies on a simplex, naming simplex vertices by their
/// position (0 oldest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// At this vertex.
    Vertex(u8),
    /// Inside this edge.
    Edge(u8, u8),
    /// Inside this triangle (of a triangle or a tetrahedron).
    Face(u8, u8, u8),
    /// Inside the tetrahedron: the origin is enclosed.
    Inside,
}

impl Region {
    /// The simplex vertices spanning the feature, and how many there are.
    pub fn vertices(self) -> ([u8; 4], usize) {
        match self {
            Region::Vertex(i) => ([i, 0, 0, 0], 1),
            Region::Edge(i, j) => ([i, j, 0, 0], 2),
            Region::Face(i, j, k) => ([i, j, k, 0], 3),
            Region::Inside => ([0, 1, 2, 3], 4),
        }
    }
}

/// Up to four support points of A - B, with the barycentric weights of the point closest to
/// the origin (set when the simplex is reduced to its closest feature).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Simplex {
    pub vertices: [SupportPoint3; 4],
    pub weights: [f32; 4],
    pub len: usize,
}

impl Simplex {
    #[inline]
    pub fn points(&self) -> &[SupportPoint3] {
        &self.vertices[..self.len]
    }

    #[inline]
    pub fn push(&mut self, w: SupportPoint3) {
        self.vertices[self.len] = w;
        self.weights[self.len] = 0.0;
        self.len += 1;
    }

    /// A one-point simplex.
    #[inline]
    pub fn single(w: SupportPoint3) -> Simplex {
        let mut s = Simplex::default();
        s.push(w);
        s.weights[0] = 1.0;
        s
    }

    /// The simplex with its source points in world coordinates.
    pub fn to_world(self, pair: &impl SupportPair3) -> Simplex {
        let mut out = self;
        for v in &mut out.vertices[..self.len] {
            *v = v.to_world(pair);
        }
        out
    }

    /// The weighted sums of the vertices, of their A sources and of their B sources.
    pub fn weighted(&self) -> (Vec3, Vec3, Vec3) {
        let mut sums = (Vec3::ZERO, Vec3::ZERO, Vec3::ZERO);
        for (w, p) in self.weights.iter().zip(self.points()) {
            sums.0 += *w * p.point;
            sums.1 += *w * p.on_a;
            sums.2 += *w * p.on_b;
        }
        sums
    }

    /// Finds the point of the simplex closest to the origin, keeps only the vertices of the
    /// feature holding it (with their weights), and returns the region and the point. For
    /// [`Region::Inside`] the simplex stays a tetrahedron and the point is the origin.
    pub fn reduce_to_closest_feature(&mut self) -> (Region, Vec3) {
        let newest = self.vertices[self.len - 1];
        let older = [0, 1, 2].map(|i| self.vertices[i].point);
        let (region, closest, _) = self.reduce_with_newest(&older, &newest);
        (region, closest)
    }

    /// [`Self::reduce_to_closest_feature`], with the simplex's last vertex (the support
    /// point GJK just pushed) handed in by the caller. The arithmetic is the same; only
    /// where that vertex is read from differs. It also returns the points of the kept
    /// vertices (in their new order; unused ones zero), for the caller to take the search
    /// direction from them rather than read back what this has just written; the caller
    /// hands them back as `older` (the points of the vertices before the newest, equal to
    /// the simplex's), so no point on the loop's chain is read back from the simplex. (Why:
    /// docs/performance.md, "Notes moved out of the source headers", `query3/simplex.rs`.)
    #[inline(always)]
    pub(crate) fn reduce_with_newest(
        &mut self,
        older: &[Vec3; 3],
        newest: &SupportPoint3,
    ) -> (Region, Vec3, [Vec3; 3]) {
        // Each case hands its answer to `keep` itself rather than through one value after
        // the match (why: docs/performance.md, as above).
        match self.len {
            1 => self.keep(
                Closest {
                    region: Region::Vertex(0),
                    weights: [1.0, 0.0, 0.0, 0.0],
                },
                older,
                newest,
            ),
            2 => self.keep(
                closest_on_segment(older[0], newest.point, [0, 1]),
                older,
                newest,
            ),
            3 => self.keep(
                closest_on_triangle(older[0], older[1], newest.point, [0, 1, 2]),
                older,
                newest,
            ),
            _ => self.keep(
                closest_on_tetrahedron([older[0], older[1], older[2], newest.point]),
                older,
                newest,
            ),
        }
    }

    /// The second half of [`Self::reduce_with_newest`]: keeps the vertices of the feature
    /// `found` names, with their weights, and returns the region, the closest point and the
    /// kept points.
    #[inline(always)]
    fn keep(
        &mut self,
        found: Closest,
        older: &[Vec3; 3],
        newest: &SupportPoint3,
    ) -> (Region, Vec3, [Vec3; 3]) {
        let last = self.len - 1;
        let point = |i: usize| {
            if i == last {
                newest.point
            } else {
                match i {
                    0 => older[0],
                    1 => older[1],
                    _ => older[2],
                }
            }
        };
        let vertex = |i: usize| {
            if i == last {
                *newest
            } else {
                self.vertices[i]
            }
        };
        let Closest { region, weights } = found;
        let (ids, count) = region.vertices();
        if region == Region::Inside {
            // All four stay, in their order.
            self.weights = weights;
            return (region, Vec3::ZERO, [Vec3::ZERO; 3]);
        }
        // A feature has at most three vertices: read them before writing any (a face of a
        // tetrahedron can name them out of order), three points rather than a copy of the
        // whole array.
        let kept = [
            vertex(ids[0] as usize),
            vertex(ids[1] as usize),
            vertex(ids[2] as usize),
        ];
        let mut closest = Vec3::ZERO;
        let mut points = [Vec3::ZERO; 3];
        for k in 0..count {
            self.vertices[k] = kept[k];
            self.weights[k] = weights[k];
            points[k] = point(ids[k] as usize);
            closest += weights[k] * points[k];
        }
        self.len = count;
        (region, closest, points)
    }
}

/// A closest-point answer: the region and the weights of its vertices (in region order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Closest {
    pub region: Region,
    pub weights: [f32; 4],
}

impl Closest {
    fn vertex(i: u8) -> Self {
        Closest {
            region: Region::Vertex(i),
            weights: [1.0, 0.0, 0.0, 0.0],
        }
    }

    /// The closest point itself, from the simplex points `p`.
    pub fn point(&self, p: &[Vec3]) -> Vec3 {
        let (ids, count) = self.region.vertices();
        (0..count).fold(Vec3::ZERO, |acc, k| {
            acc + self.weights[k] * p[ids[k] as usize]
        })
    }
}

/// The point of segment `a b` closest to the origin. `ids` names `a` and `b` in the simplex.
#[inline(always)]
pub fn closest_on_segment(a: Vec3, b: Vec3, ids: [u8; 2]) -> Closest {
    let ab = b - a;
    // t scaled by |ab|^2: the projection of the origin along the segment.
    let t = -a.dot(ab);
    let len2 = ab.length_squared();
    if t <= 0.0 {
        Closest::vertex(ids[0])
    } else if t >= len2 {
        Closest::vertex(ids[1])
    } else {
        let v = t / len2;
        Closest {
            region: Region::Edge(ids[0], ids[1]),
            weights: [1.0 - v, v, 0.0, 0.0],
        }
    }
}

/// The point of triangle `a b c` closest to the origin (Ericson 5.1.5 with p = 0). A
/// triangle with (nearly) no area answers with the closest of its edges.
#[inline(always)]
pub fn closest_on_triangle(a: Vec3, b: Vec3, c: Vec3, ids: [u8; 3]) -> Closest {
    let [ia, ib, ic] = ids;
    let ab = b - a;
    let ac = c - a;
    let d1 = -ab.dot(a);
    let d2 = -ac.dot(a);
    if d1 <= 0.0 && d2 <= 0.0 {
        return Closest::vertex(ia);
    }
    let d3 = -ab.dot(b);
    let d4 = -ac.dot(b);
    if d3 >= 0.0 && d4 <= d3 {
        return Closest::vertex(ib);
    }
    let d5 = -ab.dot(c);
    let d6 = -ac.dot(c);
    if d6 >= 0.0 && d5 <= d6 {
        return Closest::vertex(ic);
    }
    // Signed areas (times the triangle's doubled area) of the sub-triangles opposite c, b, a.
    let vc = d1 * d4 - d3 * d2;
    let vb = d5 * d2 - d1 * d6;
    let va = d3 * d6 - d5 * d4;
    let sum = va + vb + vc;
    // va + vb + vc = |ab x ac|^2. Below this fraction of |ab|^2 |ac|^2 (a sine squared of
    // 1e-10, an angle of 1e-5) the triangle is a sliver whose normal is rounding noise:
    // answer with its edges.
    if sum.is_nan() || sum <= 1.0e-10 * ab.length_squared() * ac.length_squared() {
        return closest_of_edges([a, b, c], ids);
    }
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return Closest {
            region: Region::Edge(ia, ib),
            weights: [1.0 - v, v, 0.0, 0.0],
        };
    }
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return Closest {
            region: Region::Edge(ia, ic),
            weights: [1.0 - w, w, 0.0, 0.0],
        };
    }
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return Closest {
            region: Region::Edge(ib, ic),
            weights: [1.0 - w, w, 0.0, 0.0],
        };
    }
    let v = vb / sum;
    let w = vc / sum;
    Closest {
        region: Region::Face(ia, ib, ic),
        weights: [1.0 - v - w, v, w, 0.0],
    }
}

/// The closest of the three edges of a sliver triangle.
///
/// Rare, and kept out of line with its points as one array (why: docs/performance.md,
/// "Notes moved out of the source headers", `query3/simplex.rs`).
#[cold]
#[inline(never)]
fn closest_of_edges([a, b, c]: [Vec3; 3], [ia, ib, ic]: [u8; 3]) -> Closest {
    let p = |id: u8| {
        if id == ia {
            a
        } else if id == ib {
            b
        } else {
            c
        }
    };
    let mut best = Closest::vertex(ia);
    let mut best_d = f32::INFINITY;
    for (x, y) in [(ia, ib), (ib, ic), (ia, ic)] {
        let q = closest_on_segment(p(x), p(y), [x, y]);
        let point = match q.region {
            Region::Vertex(i) => p(i),
            _ => q.weights[0] * p(x) + q.weights[1] * p(y),
        };
        let d = point.length_squared();
        if d < best_d {
            best = q;
            best_d = d;
        }
    }
    best
}

/// The point of tetrahedron `p[0..4]` closest to the origin (Ericson 5.1.6), or
/// [`Region::Inside`] when it holds the origin.
// Always inlined into GJK's reduction (why: docs/performance.md, "Notes moved out of the
// source headers", `query3/simplex.rs`).
#[inline(always)]
pub fn closest_on_tetrahedron(p: [Vec3; 4]) -> Closest {
    // Each face with the vertex opposite it.
    const FACES: [([u8; 3], u8); 4] = [
        ([0, 1, 2], 3),
        ([0, 3, 1], 2),
        ([0, 2, 3], 1),
        ([1, 3, 2], 0),
    ];
    let (e1, e2, e3) = (p[1] - p[0], p[2] - p[0], p[3] - p[0]);
    let volume6 = e1.dot(e2.cross(e3));
    // A tetrahedron this flat (its volume below 1e-6 of the box its edges span) has face
    // planes that cannot say which side the origin is on: every face is tested, and the
    // origin is never reported inside. Compared squared, in f64 (no square roots on the
    // path of every iteration, and no overflow of the product).
    let edge_scale_squared = f64::from(e1.length_squared())
        * f64::from(e2.length_squared())
        * f64::from(e3.length_squared());
    let flat = volume6.is_nan() || f64::from(volume6).powi(2) <= 1.0e-12 * edge_scale_squared;
    let mut best: Option<(Closest, f32)> = None;
    for (face, opposite) in FACES {
        let [i, j, k] = face.map(|x| p[x as usize]);
        let normal = (j - i).cross(k - i);
        let origin_side = -normal.dot(i);
        let opposite_side = normal.dot(p[opposite as usize] - i);
        // Outside this face (or on its plane): the origin is not on the fourth vertex's side.
        let outside = flat || origin_side * opposite_side <= 0.0;
        if !outside {
            continue;
        }
        let q = closest_on_triangle(i, j, k, face);
        let d = q.point(&p).length_squared();
        if best.is_none_or(|(_, bd)| d < bd) {
            best = Some((q, d));
        }
    }
    match best {
        Some((q, _)) => q,
        None => Closest {
            region: Region::Inside,
            weights: [0.25; 4],
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32, z: f32) -> Vec3 {
        Vec3::new(x, y, z)
    }

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() <= 1e-6
    }

    #[test]
    fn segment_vertex_and_edge_regions() {
        // Origin before a: vertex a.
        let q = closest_on_segment(v(1., 0., 0.), v(2., 1., 0.), [0, 1]);
        assert_eq!(q.region, Region::Vertex(0));
        // Origin past b.
        let q = closest_on_segment(v(-2., 1., 0.), v(-1., 1., 0.), [0, 1]);
        assert_eq!(q.region, Region::Vertex(1));
        // Segment x = 1 from y = -1 to 3: closest (1, 0, 0), a quarter of the way.
        let a = v(1., -1., 0.);
        let b = v(1., 3., 0.);
        let q = closest_on_segment(a, b, [0, 1]);
        assert_eq!(q.region, Region::Edge(0, 1));
        assert!(close(q.weights[0], 0.75) && close(q.weights[1], 0.25));
        assert!((q.point(&[a, b]) - v(1., 0., 0.)).length() < 1e-6);
    }

    #[test]
    fn triangle_face_region_gives_the_foot_of_the_perpendicular() {
        // The plane z = 2 holding the triangle around (0, 0, 2): closest point (0, 0, 2).
        let p = [v(-1., -1., 2.), v(3., -1., 2.), v(-1., 3., 2.)];
        let q = closest_on_triangle(p[0], p[1], p[2], [0, 1, 2]);
        assert_eq!(q.region, Region::Face(0, 1, 2));
        assert!((q.point(&p) - v(0., 0., 2.)).length() < 1e-6);
        // Barycentric: (0,0) = a + 0.25 ab + 0.25 ac.
        assert!(close(q.weights[0], 0.5) && close(q.weights[1], 0.25) && close(q.weights[2], 0.25));
    }

    #[test]
    fn triangle_vertex_regions() {
        let p = [v(1., 1., 0.), v(3., 1., 0.), v(1., 3., 0.)];
        assert_eq!(
            closest_on_triangle(p[0], p[1], p[2], [0, 1, 2]).region,
            Region::Vertex(0)
        );
        let p = [v(-3., 1., 1.), v(-1., -1., 1.), v(-3., -3., 1.)];
        assert_eq!(
            closest_on_triangle(p[0], p[1], p[2], [0, 1, 2]).region,
            Region::Vertex(1)
        );
        let p = [v(2., 2., 5.), v(4., 0., 5.), v(0., 0., 5.)];
        assert_eq!(
            closest_on_triangle(p[0], p[1], p[2], [0, 1, 2]).region,
            Region::Vertex(2)
        );
    }

    #[test]
    fn triangle_edge_regions() {
        // Edge ab along y = 1 above the origin (seen in the plane z = 0).
        let p = [v(-1., 1., 0.), v(1., 1., 0.), v(0., 3., 0.)];
        let q = closest_on_triangle(p[0], p[1], p[2], [0, 1, 2]);
        assert_eq!(q.region, Region::Edge(0, 1));
        assert!((q.point(&p) - v(0., 1., 0.)).length() < 1e-6);
        // Edge ac.
        let p = [v(-1., 1., 0.), v(0., 3., 0.), v(1., 1., 0.)];
        assert_eq!(
            closest_on_triangle(p[0], p[1], p[2], [0, 1, 2]).region,
            Region::Edge(0, 2)
        );
        // Edge bc.
        let p = [v(0., 3., 0.), v(-1., 1., 0.), v(1., 1., 0.)];
        assert_eq!(
            closest_on_triangle(p[0], p[1], p[2], [0, 1, 2]).region,
            Region::Edge(1, 2)
        );
    }

    #[test]
    fn zero_area_triangle_falls_back_to_its_edges() {
        // Three collinear points on x = 1: the closest point is (1, 0, 0) inside edge 0-2.
        let p = [v(1., -1., 0.), v(1., 3., 0.), v(1., 1., 0.)];
        let q = closest_on_triangle(p[0], p[1], p[2], [0, 1, 2]);
        assert!(matches!(q.region, Region::Edge(..)), "{q:?}");
        assert!((q.point(&p) - v(1., 0., 0.)).length() < 1e-6);
    }

    /// A known hard case from other engines' trackers: the origin exactly on a face of
    /// the simplex (touching bodies). The triangle holds the origin in its plane: the
    /// closest point is the origin itself, inside the face, with weights summing to 1.
    #[test]
    fn origin_exactly_on_a_triangle_face() {
        let p = [v(-1., -1., 0.), v(2., -1., 0.), v(-1., 2., 0.)];
        let q = closest_on_triangle(p[0], p[1], p[2], [0, 1, 2]);
        assert_eq!(q.region, Region::Face(0, 1, 2));
        // Zero up to the rounding of the weighted sum.
        assert!(q.point(&p).length() < 1e-6, "{}", q.point(&p));
        assert!((q.weights[..3].iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }

    /// The same with a fourth vertex: a tetrahedron whose face z = 0 passes through the
    /// origin. The origin is on the boundary, not strictly inside: the answer is that face
    /// at distance 0 up to rounding (GJK reads it as touching, within its tolerance).
    #[test]
    fn origin_exactly_on_a_face_of_the_tetrahedron() {
        let p = [
            v(-1., -1., 0.),
            v(2., -1., 0.),
            v(-1., 2., 0.),
            v(0., 0., 1.5),
        ];
        let q = closest_on_tetrahedron(p);
        assert_eq!(q.region, Region::Face(0, 1, 2), "{q:?}");
        assert!(q.point(&p).length() < 1e-6);
        let mut simplex = Simplex::default();
        for point in p {
            simplex.push(SupportPoint3 {
                point,
                ..SupportPoint3::default()
            });
        }
        let (region, closest) = simplex.reduce_to_closest_feature();
        assert_eq!(region, Region::Face(0, 1, 2));
        assert!(closest.length() < 1e-6, "{closest}");
        assert_eq!(simplex.len, 3, "the far vertex is dropped");
    }

    #[test]
    fn tetrahedron_holding_the_origin_is_inside() {
        let p = [
            v(1., 0., -1.),
            v(-1., 1., -1.),
            v(-1., -1., -1.),
            v(0., 0., 2.),
        ];
        assert_eq!(closest_on_tetrahedron(p).region, Region::Inside);
    }

    #[test]
    fn tetrahedron_face_region_drops_the_far_vertex() {
        // The face z = 1 is nearest; the apex at z = 3 goes.
        let p = [
            v(-1., -1., 1.),
            v(3., -1., 1.),
            v(-1., 3., 1.),
            v(0., 0., 3.),
        ];
        let q = closest_on_tetrahedron(p);
        assert!(matches!(q.region, Region::Face(..)), "{q:?}");
        let (ids, n) = q.region.vertices();
        assert_eq!(n, 3);
        assert!(!ids[..3].contains(&3));
        assert!((q.point(&p) - v(0., 0., 1.)).length() < 1e-6);
    }

    #[test]
    fn tetrahedron_edge_and_vertex_regions() {
        // Vertex 2 at (1, 1, 1) with the rest farther out along +x+y+z: vertex region.
        let p = [v(3., 1., 1.), v(1., 3., 1.), v(1., 1., 1.), v(1., 1., 3.)];
        assert_eq!(closest_on_tetrahedron(p).region.vertices().1, 1);
        assert!((closest_on_tetrahedron(p).point(&p) - v(1., 1., 1.)).length() < 1e-6);
        // Edge from (1, -1, 1) to (1, 1, 1) nearest, the others beyond x = 1: closest (1, 0, 1).
        let p = [v(1., -1., 1.), v(1., 1., 1.), v(3., 0., 1.), v(2., 0., 3.)];
        let q = closest_on_tetrahedron(p);
        assert!(matches!(q.region, Region::Edge(..)), "{q:?}");
        assert!((q.point(&p) - v(1., 0., 1.)).length() < 1e-6);
    }

    #[test]
    fn flat_tetrahedron_never_encloses_the_origin() {
        // Four points in the plane z = 0 around the origin: the origin is on the simplex,
        // at distance 0, but the tetrahedron has no volume to hold it.
        let p = [
            v(1., 0., 0.),
            v(-1., 1., 0.),
            v(-1., -1., 0.),
            v(0., 2., 0.),
        ];
        let q = closest_on_tetrahedron(p);
        assert_ne!(q.region, Region::Inside);
        assert!(q.point(&p).length() < 1e-6);
    }

    #[test]
    fn reduction_keeps_the_feature_vertices_and_weights() {
        let mk = |x: f32, y: f32, z: f32| SupportPoint3 {
            point: v(x, y, z),
            ..SupportPoint3::default()
        };
        let mut s = Simplex::default();
        for p in [
            mk(-1., -1., 1.),
            mk(3., -1., 1.),
            mk(-1., 3., 1.),
            mk(0., 0., 3.),
        ] {
            s.push(p);
        }
        let (region, closest) = s.reduce_to_closest_feature();
        assert!(matches!(region, Region::Face(..)));
        assert_eq!(s.len, 3);
        assert!((closest - v(0., 0., 1.)).length() < 1e-6);
        assert!((s.weighted().0 - closest).length() < 1e-6);
        assert!(close(s.weights[..3].iter().sum::<f32>(), 1.0));
    }
}
