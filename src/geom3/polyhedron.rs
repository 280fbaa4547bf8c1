use super::arc_tree::ArcTree;
use super::hull::{triangle_hull, validate_points, TriangleHull};
use super::prepared::{cuboid_support, CuboidEdges, CuboidFaces, FeatureLanes, Prepared};
use super::{Edge, Shape3Error, Shape3Kind, MAX_COORDINATE};
use glam::{DVec3, Vec3};
use std::collections::HashMap;

/// Neighbouring hull triangles whose normals differ by less than this angle, and whose
/// corners lie within twice [`super::HULL_TOLERANCE`] (relative to the cloud's size) of the
/// first triangle's plane, are merged into one polygonal face. Coplanar faces given in `f32`
/// come out of the hull with normals that differ by rounding only (about 1e-6 radians for a
/// face of unit size); 0.05 degrees (about 9e-4 radians) leaves room for small faces, whose
/// normals round more coarsely, while the flattest dihedral angle of a 1,024-point sphere
/// hull (about 6 degrees) stays far above it. The distance test keeps a merged face flat: a
/// thin sliver whose faces meet at a tiny angle but a real step stays unmerged. A triangle
/// narrower than that distance (a point within the tolerance of an edge or a face makes
/// them) has no meaningful normal: it joins a neighbouring face by the distance test alone.
pub const FACE_MERGE_ANGLE_DEGREES: f64 = 0.05;

/// Below this many vertices the support function scans every vertex; from here on it climbs
/// the vertex adjacency, which visits about the square root of the vertex count.
pub const HILL_CLIMB_MIN_VERTICES: usize = 32;

/// The most sides a prism takes: its two caps then hold [`super::MAX_HULL_POINTS`] points.
pub const MAX_PRISM_SIDES: u32 = 512;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Face {
    normal: Vec3,
    offset: f32,
    first: u32,
    count: u32,
}

/// One face of a polyhedron: outward unit normal, plane `normal . p = offset`, vertices
/// counter-clockwise seen from outside, and `edges[k]` the edge from `vertices[k]` to
/// `vertices[k + 1]` (cyclically).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FaceView<'a> {
    pub normal: Vec3,
    pub offset: f32,
    pub vertices: &'a [u32],
    pub edges: &'a [u32],
}

/// A convex polyhedron with polygonal faces, in its local frame (see the module
/// conventions). Built from a [`Shape3Kind`] by [`Polyhedron::new`].
#[derive(Clone, Debug, PartialEq)]
pub struct Polyhedron {
    kind: Shape3Kind,
    vertices: Vec<Vec3>,
    faces: Vec<Face>,
    face_vertices: Vec<u32>,
    face_edges: Vec<u32>,
    edges: Vec<Edge>,
    /// Each edge's Gauss-map image in the local frame: (its first face's normal, its second
    /// face's normal, their cross product second x first, the normal of the arc's plane).
    edge_arcs: Vec<[Vec3; 3]>,
    /// Vertex `v`'s neighbours are `neighbours[neighbour_start[v]..neighbour_start[v + 1]]`,
    /// each with the edge that joins them.
    neighbour_start: Vec<u32>,
    neighbours: Vec<(u32, u32)>,
    dropped: Vec<u32>,
    centroid: Vec3,
    bounding_radius: f32,
    centroid_radius: f32,
    /// What is built once with the shape for the fast paths (vertex lanes, the arc tree,
    /// feature lanes, the cuboid tables): see [`Prepared`].
    pub(super) prepared: Prepared,
}

pub(super) fn positive(what: &'static str, value: f32) -> Result<(), Shape3Error> {
    if !value.is_finite() {
        return Err(Shape3Error::NonFinite { what });
    }
    if value <= 0.0 {
        return Err(Shape3Error::NotPositive { what, value });
    }
    if value > MAX_COORDINATE {
        return Err(Shape3Error::TooLarge { what, value });
    }
    Ok(())
}

impl Polyhedron {
    /// Builds and validates the polyhedron a description names.
    pub fn new(kind: &Shape3Kind) -> Result<Polyhedron, Shape3Error> {
        let points = match kind {
            Shape3Kind::Cuboid { half_extents: h } => {
                positive("half extent x", h.x)?;
                positive("half extent y", h.y)?;
                positive("half extent z", h.z)?;
                let mut pts = Vec::with_capacity(8);
                for k in 0..8 {
                    let s = |bit: u32| if k & bit == 0 { -1.0 } else { 1.0 };
                    pts.push(Vec3::new(s(1) * h.x, s(2) * h.y, s(4) * h.z));
                }
                pts
            }
            Shape3Kind::Prism {
                sides,
                radius,
                half_height,
            } => {
                if !(3..=MAX_PRISM_SIDES).contains(sides) {
                    return Err(Shape3Error::Sides { sides: *sides });
                }
                positive("radius", *radius)?;
                positive("half height", *half_height)?;
                let mut pts = Vec::with_capacity(2 * *sides as usize);
                for y in [-*half_height, *half_height] {
                    for k in 0..*sides {
                        // In f64 so that the caps are exactly planar and symmetric.
                        let a = std::f64::consts::TAU * k as f64 / *sides as f64;
                        let r = *radius as f64;
                        pts.push(Vec3::new((r * a.cos()) as f32, y, (r * a.sin()) as f32));
                    }
                }
                pts
            }
            Shape3Kind::Hull { points } => {
                validate_points(points)?;
                points.clone()
            }
            Shape3Kind::Sphere { .. } | Shape3Kind::Capsule { .. } => {
                return Err(Shape3Error::NotPolyhedron { kind: kind.name() })
            }
        };
        // A hull whose merged faces do not close up is retried without merging, then with
        // a coarser hull tolerance; three attempts bound the work.
        let mut last_error = Shape3Error::Flat;
        for factor in [1.0, 10.0, 100.0] {
            let hull = match triangle_hull(&points, factor) {
                Ok(hull) => hull,
                // Coincident, collinear and flat inputs are refused at once; an inconsistent
                // horizon (reported as Flat from inside the loop) is retried more coarsely.
                Err(e) if factor == 1.0 && e != Shape3Error::Flat => return Err(e),
                Err(e) => {
                    last_error = e;
                    continue;
                }
            };
            for merge in [true, false] {
                if let Some(poly) = assemble(kind, &points, &hull, merge) {
                    return Ok(poly);
                }
            }
        }
        if last_error != Shape3Error::Flat {
            return Err(last_error);
        }
        // Not seen in testing: every attempt left an open or non-manifold mesh, which only
        // a nearly flat cloud can cause.
        Err(Shape3Error::Flat)
    }

    /// The description this polyhedron was built from.
    pub fn kind(&self) -> &Shape3Kind {
        &self.kind
    }

    /// Vertices in the local frame. For a hull they keep the order of the input points.
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    #[inline]
    pub fn vertex(&self, i: usize) -> Vec3 {
        self.vertices[i]
    }

    pub fn face_count(&self) -> usize {
        self.faces.len()
    }

    pub fn face(&self, i: usize) -> FaceView<'_> {
        let f = self.faces[i];
        let range = f.first as usize..(f.first + f.count) as usize;
        FaceView {
            normal: f.normal,
            offset: f.offset,
            vertices: &self.face_vertices[range.clone()],
            edges: &self.face_edges[range],
        }
    }

    #[inline]
    pub fn face_normal(&self, i: usize) -> Vec3 {
        self.faces[i].normal
    }

    #[inline]
    pub fn face_offset(&self, i: usize) -> f32 {
        self.faces[i].offset
    }

    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    /// Edge `e`'s arc on the Gauss map, in the local frame: `[n0, n1, n1 x n0]`, the normals
    /// of its two faces (`edges()[e].faces`) and the normal of the arc's plane.
    #[inline]
    pub fn edge_arc(&self, e: usize) -> [Vec3; 3] {
        self.edge_arcs[e]
    }

    /// A cuboid's edges by direction and side (see [`CuboidEdges`]); `None` for other bodies.
    pub fn cuboid_edges(&self) -> Option<&CuboidEdges> {
        self.prepared.cuboid_edges.as_ref()
    }

    /// A cuboid's faces by normal (see [`CuboidFaces`]); `None` for other bodies.
    pub fn cuboid_faces(&self) -> Option<&CuboidFaces> {
        self.prepared.cuboid_faces.as_ref()
    }

    /// The vertices four at a time, coordinates side by side (`[x, y, z]` rows), the last
    /// group padded with copies of vertex 0.
    #[inline]
    pub fn vertex_lanes(&self) -> &[[[f32; 4]; 3]] {
        &self.prepared.vertex_lanes
    }

    /// Face normals, face extents and edge arcs four at a time ([`FeatureLanes`]); `None`
    /// for a polyhedron above [`SMALL_VERTICES`] vertices, [`SMALL_FACES`] faces or
    /// [`SMALL_EDGES`] edges, which no path reads them for.
    #[inline]
    pub fn feature_lanes(&self) -> Option<&FeatureLanes> {
        self.prepared.feature_lanes.as_ref()
    }

    /// The edges' arcs in a tree of bounding caps (local frame): see [`ArcTree`].
    pub fn arc_tree(&self) -> &ArcTree {
        &self.prepared.arc_tree
    }

    /// [`Self::support_scan`]'s answer, four vertices at a time ([`Prepared`]).
    #[inline(always)]
    pub fn support_scan_lanes(&self, dir: Vec3) -> usize {
        self.prepared.support_scan_lanes(dir)
    }

    /// Both support vertices along an axis, `(self.support(-dir), self.support(dir))`, in
    /// one pass over the vertices for bodies below [`HILL_CLIMB_MIN_VERTICES`] (the two lane
    /// scans side by side: [`Prepared::support_pair_lanes`]); larger bodies take the two
    /// climbs. A projection interval needs both ends (a recorded SAT axis, a swept axis).
    #[inline]
    pub fn support_pair(&self, dir: Vec3) -> (usize, usize) {
        if self.vertices.len() >= HILL_CLIMB_MIN_VERTICES {
            return (self.support_climb(-dir), self.support_climb(dir));
        }
        self.prepared.support_pair_lanes(dir)
    }

    /// The support value `max over vertices of v . dir` for bodies below
    /// [`HILL_CLIMB_MIN_VERTICES`], four vertices at a time without keeping indices, when it
    /// is surely the bits of `self.vertex(self.support(dir)).dot(dir)`: the dot products are
    /// the same sums in the same order, and two equal non-zero floats have the same bits, so
    /// the largest value is that vertex's. `None` (the caller takes the indexed search) for
    /// larger bodies, for a largest value of zero (+0 and -0 are equal but print differently)
    /// and when no dot product is a number (the scan then names vertex 0, NaN or infinite).
    #[inline]
    pub fn support_value_lanes(&self, dir: Vec3) -> Option<f32> {
        if self.vertices.len() >= HILL_CLIMB_MIN_VERTICES {
            return None;
        }
        self.prepared.support_value_scan(dir)
    }

    /// The lane scan of [`Self::support_value_lanes`] for a body of any size: the largest
    /// dot product of every vertex (the value a climb reaches too, on a convex body, up to
    /// rounding on near-ties, where the scan's is the larger), or `None` as there.
    pub fn support_value_scan(&self, dir: Vec3) -> Option<f32> {
        self.prepared.support_value_scan(dir)
    }

    /// A cuboid's support vertex along `dir` in closed form, when it is surely
    /// [`Self::support`]'s answer ([`super::prepared::cuboid_support`], where the proof is);
    /// `None` for other bodies and near ties.
    #[inline(always)]
    pub fn cuboid_support(&self, dir: Vec3) -> Option<(usize, Vec3)> {
        let &Shape3Kind::Cuboid { half_extents } = &self.kind else {
            return None;
        };
        cuboid_support(half_extents, dir)
    }

    /// Indices (into the `Hull` input list) of the points that are not vertices of the hull:
    /// inside it, on a face or an edge, or repeated. Empty for cuboids and prisms.
    pub fn dropped_points(&self) -> &[u32] {
        &self.dropped
    }

    /// The vertices joined to vertex `v` by an edge, each with that edge's index.
    pub fn neighbours(&self, v: usize) -> &[(u32, u32)] {
        let s = self.neighbour_start[v] as usize;
        let e = self.neighbour_start[v + 1] as usize;
        &self.neighbours[s..e]
    }

    /// The average of the vertices: a point strictly inside.
    pub fn centroid(&self) -> Vec3 {
        self.centroid
    }

    /// The largest distance from the local origin to a vertex.
    pub fn bounding_radius(&self) -> f32 {
        self.bounding_radius
    }

    /// The largest distance from the centroid to a vertex: the body's own size, whatever
    /// its local origin (a hull's points need not surround the origin).
    pub fn centroid_radius(&self) -> f32 {
        self.centroid_radius
    }

    /// The vertex farthest along `dir` (local frame): a linear scan below
    /// [`HILL_CLIMB_MIN_VERTICES`], hill climbing over the adjacency above. On ties the
    /// scan returns the lowest index and the climb the first plateau vertex it reaches.
    #[inline]
    pub fn support(&self, dir: Vec3) -> usize {
        if self.vertices.len() < HILL_CLIMB_MIN_VERTICES {
            self.support_scan_lanes(dir)
        } else {
            self.support_climb(dir)
        }
    }

    /// The support vertex by scanning every vertex.
    pub fn support_scan(&self, dir: Vec3) -> usize {
        let mut best = 0;
        let mut best_dot = f32::NEG_INFINITY;
        for (i, v) in self.vertices.iter().enumerate() {
            let d = v.dot(dir);
            if d > best_dot {
                best = i;
                best_dot = d;
            }
        }
        best
    }

    /// The support vertex by hill climbing: from vertex 0, move to the neighbour farthest
    /// along `dir` while one is farther. On a convex polyhedron a vertex with no farther
    /// neighbour is a global maximum. Each move strictly increases the dot product, so no
    /// vertex is visited twice and the climb ends within the vertex count (NaN directions
    /// stop at once: no comparison is true).
    pub fn support_climb(&self, dir: Vec3) -> usize {
        self.support_climb_from(0, dir)
    }

    /// [`Self::support_climb`] from vertex `start` (taken as 0 when out of range): a start
    /// near the answer (the support of a nearby direction) makes the climb short.
    pub fn support_climb_from(&self, start: usize, dir: Vec3) -> usize {
        let mut current = if start < self.vertices.len() {
            start
        } else {
            0
        };
        let mut current_dot = self.vertices[current].dot(dir);
        for _ in 0..self.vertices.len() {
            let mut next = current;
            for &(n, _) in self.neighbours(current) {
                let d = self.vertices[n as usize].dot(dir);
                if d > current_dot {
                    current_dot = d;
                    next = n as usize;
                }
            }
            if next == current {
                break;
            }
            current = next;
        }
        current
    }
}

/// Builds the polygonal mesh from hull triangles; `None` when the result is not a closed
/// 2-manifold with Euler characteristic 2.
fn assemble(
    kind: &Shape3Kind,
    points: &[Vec3],
    hull: &TriangleHull,
    merge: bool,
) -> Option<Polyhedron> {
    let p: Vec<DVec3> = points.iter().map(|q| q.as_dvec3()).collect();
    let tris = &hull.triangles;
    let tri_normal: Vec<DVec3> = tris
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| p[i as usize]);
            (b - a).cross(c - a).normalize_or_zero()
        })
        .collect();
    let mut owner: HashMap<(u32, u32), usize> = HashMap::with_capacity(3 * tris.len());
    for (k, t) in tris.iter().enumerate() {
        for e in 0..3 {
            if owner.insert((t[e], t[(e + 1) % 3]), k).is_some() {
                return None;
            }
        }
    }
    // Cluster triangles: grow from a seed, taking neighbours within the merge angle of the
    // seed's normal (compared with the seed, not the neighbour, so that a gently curved
    // surface is not merged into one face).
    let cos_merge = FACE_MERGE_ANGLE_DEGREES.to_radians().cos();
    // Every merged triangle's corners also lie within the hull tolerance of the seed's
    // plane, so a merged face is flat to within that distance, not just that angle.
    let plane_slack = 2.0 * hull.tolerance;
    // A sliver is a triangle narrower than that slack (twice its area over its longest
    // edge): the exact hull makes them where a point lies off an edge or a face by less than
    // the tolerance. Its normal says nothing (it is nearly a segment), so it joins a
    // neighbour's face by distance alone, and it seeds a face of its own only when no proper
    // triangle's face took it.
    let sliver: Vec<bool> = tris
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| p[i as usize]);
            let longest = (b - a).length().max((c - b).length()).max((a - c).length());
            (b - a).cross(c - a).length() <= plane_slack * longest
        })
        .collect();
    let seeds = (0..tris.len())
        .filter(|&k| !sliver[k])
        .chain((0..tris.len()).filter(|&k| sliver[k]));
    let mut cluster = vec![usize::MAX; tris.len()];
    let mut clusters: Vec<Vec<usize>> = Vec::new();
    for seed in seeds {
        if cluster[seed] != usize::MAX {
            continue;
        }
        let id = clusters.len();
        cluster[seed] = id;
        let mut members = vec![seed];
        let mut k = 0;
        while merge && k < members.len() {
            let t = tris[members[k]];
            k += 1;
            for e in 0..3 {
                let other = *owner.get(&(t[(e + 1) % 3], t[e]))?;
                let seed_offset = tri_normal[seed].dot(p[tris[seed][0] as usize]);
                let on_seed_plane = tris[other].iter().all(|&v| {
                    (tri_normal[seed].dot(p[v as usize]) - seed_offset).abs() <= plane_slack
                });
                if cluster[other] == usize::MAX
                    && (sliver[other] || tri_normal[other].dot(tri_normal[seed]) >= cos_merge)
                    && on_seed_plane
                {
                    cluster[other] = id;
                    members.push(other);
                }
            }
        }
        clusters.push(members);
    }
    // Faces in the order of their first triangle.
    clusters.sort_by_key(|members| members.iter().min().copied());
    for (id, members) in clusters.iter().enumerate() {
        for &m in members {
            cluster[m] = id;
        }
    }
    // Each cluster's boundary, walked into one loop.
    let mut loops: Vec<Vec<u32>> = Vec::with_capacity(clusters.len());
    for (id, members) in clusters.iter().enumerate() {
        let mut next: HashMap<u32, u32> = HashMap::new();
        for &m in members {
            let t = tris[m];
            for e in 0..3 {
                let (a, b) = (t[e], t[(e + 1) % 3]);
                if cluster[*owner.get(&(b, a))?] != id && next.insert(a, b).is_some() {
                    return None;
                }
            }
        }
        let start = *next.keys().min()?;
        let mut ring = vec![start];
        let mut at = start;
        loop {
            at = *next.get(&at)?;
            if at == start {
                break;
            }
            if ring.len() > next.len() {
                return None;
            }
            ring.push(at);
        }
        if ring.len() != next.len() {
            return None;
        }
        loops.push(ring);
    }
    // A vertex on fewer than 3 faces lies on an edge between two merged faces: drop it.
    let mut face_count = vec![0u32; points.len()];
    for ring in &loops {
        for &v in ring {
            face_count[v as usize] += 1;
        }
    }
    for ring in &mut loops {
        ring.retain(|&v| face_count[v as usize] >= 3);
        if ring.len() < 3 {
            return None;
        }
    }
    // Compact the vertices, keeping the input order.
    let mut new_index = vec![u32::MAX; points.len()];
    let mut vertices = Vec::new();
    let mut dropped = Vec::new();
    for (i, q) in points.iter().enumerate() {
        if face_count[i] >= 3 {
            new_index[i] = vertices.len() as u32;
            vertices.push(*q);
        } else {
            dropped.push(i as u32);
        }
    }
    let mut faces = Vec::with_capacity(loops.len());
    let mut face_vertices = Vec::new();
    let mut face_edges = Vec::new();
    let mut edges: Vec<Edge> = Vec::new();
    let mut edge_of: HashMap<(u32, u32), u32> = HashMap::new();
    for (f, ring) in loops.iter().enumerate() {
        // Newell's normal of the ring, in f64.
        let mut n = DVec3::ZERO;
        let mut centre = DVec3::ZERO;
        for k in 0..ring.len() {
            let a = p[ring[k] as usize];
            let b = p[ring[(k + 1) % ring.len()] as usize];
            n += a.cross(b);
            centre += a;
        }
        let n = n.normalize_or_zero();
        if n == DVec3::ZERO {
            return None;
        }
        centre /= ring.len() as f64;
        let first = face_vertices.len() as u32;
        for k in 0..ring.len() {
            let a = new_index[ring[k] as usize];
            let b = new_index[ring[(k + 1) % ring.len()] as usize];
            face_vertices.push(a);
            let e = if let Some(&e) = edge_of.get(&(b, a)) {
                let edge = &mut edges[e as usize];
                if edge.faces[1] != u32::MAX {
                    return None;
                }
                edge.faces[1] = f as u32;
                e
            } else {
                if edge_of.contains_key(&(a, b)) {
                    return None;
                }
                let e = edges.len() as u32;
                edges.push(Edge {
                    tail: a,
                    head: b,
                    faces: [f as u32, u32::MAX],
                });
                edge_of.insert((a, b), e);
                e
            };
            face_edges.push(e);
        }
        faces.push(Face {
            normal: n.as_vec3(),
            offset: n.dot(centre) as f32,
            first,
            count: ring.len() as u32,
        });
    }
    if edges.iter().any(|e| e.faces[1] == u32::MAX) {
        return None;
    }
    let euler = vertices.len() as i64 - edges.len() as i64 + faces.len() as i64;
    if euler != 2 {
        return None;
    }
    // Convexity check: every input point (vertices and dropped points alike) on or below
    // every face plane, within the hull tolerance. A merge that removed a real corner, or a
    // hull that lost a point, shows up here and the caller falls back.
    let slack = 4.0 * hull.tolerance + 1e-6 * hull_size(&vertices);
    for f in &faces {
        let n = f.normal.as_dvec3();
        for q in &p {
            if n.dot(*q) - f.offset as f64 > slack {
                return None;
            }
        }
    }
    // Adjacency.
    let mut degree = vec![0u32; vertices.len() + 1];
    for e in &edges {
        degree[e.tail as usize] += 1;
        degree[e.head as usize] += 1;
    }
    let mut neighbour_start = vec![0u32; vertices.len() + 1];
    for v in 0..vertices.len() {
        neighbour_start[v + 1] = neighbour_start[v] + degree[v];
    }
    let mut fill = neighbour_start.clone();
    let mut neighbours = vec![(0u32, 0u32); 2 * edges.len()];
    for (k, e) in edges.iter().enumerate() {
        neighbours[fill[e.tail as usize] as usize] = (e.head, k as u32);
        fill[e.tail as usize] += 1;
        neighbours[fill[e.head as usize] as usize] = (e.tail, k as u32);
        fill[e.head as usize] += 1;
    }
    let edge_arcs: Vec<[Vec3; 3]> = edges
        .iter()
        .map(|e| {
            let (n0, n1) = (
                faces[e.faces[0] as usize].normal,
                faces[e.faces[1] as usize].normal,
            );
            [n0, n1, n1.cross(n0)]
        })
        .collect();
    let centroid = vertices.iter().copied().sum::<Vec3>() / vertices.len() as f32;
    let bounding_radius = vertices.iter().map(|v| v.length()).fold(0.0, f32::max);
    let centroid_radius = vertices
        .iter()
        .map(|v| v.distance(centroid))
        .fold(0.0, f32::max);
    let normals: Vec<Vec3> = faces.iter().map(|f| f.normal).collect();
    let prepared = Prepared::new(kind, &vertices, &normals, &edges, &edge_arcs);
    Some(Polyhedron {
        kind: kind.clone(),
        vertices,
        faces,
        face_vertices,
        face_edges,
        edges,
        edge_arcs,
        neighbour_start,
        neighbours,
        dropped,
        centroid,
        bounding_radius,
        centroid_radius,
        prepared,
    })
}

fn hull_size(vertices: &[Vec3]) -> f64 {
    let mut lo = vertices[0];
    let mut hi = vertices[0];
    for v in vertices {
        lo = lo.min(*v);
        hi = hi.max(*v);
    }
    (hi - lo).length() as f64
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::geom3::SMALL_VERTICES;

    /// A small deterministic generator for test point clouds.
    pub(crate) struct Lcg(pub u64);

    impl Lcg {
        pub(crate) fn next(&mut self) -> f32 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 40) as f32) / (1u64 << 24) as f32
        }

        pub(crate) fn unit(&mut self) -> Vec3 {
            loop {
                let v = Vec3::new(self.next(), self.next(), self.next()) * 2.0 - Vec3::ONE;
                let l = v.length();
                if l > 0.1 && l <= 1.0 {
                    return v / l;
                }
            }
        }
    }

    fn cuboid(x: f32, y: f32, z: f32) -> Polyhedron {
        Polyhedron::new(&Shape3Kind::Cuboid {
            half_extents: Vec3::new(x, y, z),
        })
        .unwrap()
    }

    fn hull(points: Vec<Vec3>) -> Result<Polyhedron, Shape3Error> {
        Polyhedron::new(&Shape3Kind::Hull { points })
    }

    /// Every face: unit normal, vertices on its plane, counter-clockwise about the normal,
    /// convex; every edge between its two faces, in the stated directions; every vertex on or
    /// below every plane.
    pub(crate) fn assert_well_formed(poly: &Polyhedron) {
        let scale = poly.bounding_radius();
        for f in 0..poly.face_count() {
            let face = poly.face(f);
            assert!((face.normal.length() - 1.0).abs() < 1e-5);
            let n = face.vertices.len();
            for k in 0..n {
                let a = poly.vertex(face.vertices[k] as usize);
                let b = poly.vertex(face.vertices[(k + 1) % n] as usize);
                let c = poly.vertex(face.vertices[(k + 2) % n] as usize);
                assert!((face.normal.dot(a) - face.offset).abs() < 1e-4 * scale);
                assert!(
                    (b - a).cross(c - b).dot(face.normal) > 0.0,
                    "face {f} turns clockwise at {k}"
                );
                let e = poly.edges()[face.edges[k] as usize];
                let forward = (e.tail, e.head) == (face.vertices[k], face.vertices[(k + 1) % n]);
                let backward = (e.head, e.tail) == (face.vertices[k], face.vertices[(k + 1) % n]);
                assert!(forward && e.faces[0] == f as u32 || backward && e.faces[1] == f as u32);
            }
            for v in poly.vertices() {
                assert!(face.normal.dot(*v) - face.offset < 1e-4 * scale);
            }
        }
        assert_eq!(
            poly.vertices().len() + poly.face_count(),
            poly.edges().len() + 2
        );
    }

    #[test]
    fn a_cube_has_6_quads_12_edges_8_vertices() {
        let cube = cuboid(0.5, 0.5, 0.5);
        assert_eq!(cube.vertices().len(), 8);
        assert_eq!(cube.face_count(), 6);
        assert_eq!(cube.edges().len(), 12);
        for f in 0..6 {
            let face = cube.face(f);
            assert_eq!(face.vertices.len(), 4);
            assert_eq!(face.normal.abs().max_element(), 1.0);
            assert_eq!(face.offset, 0.5);
        }
        for v in 0..8 {
            assert_eq!(cube.neighbours(v).len(), 3);
        }
        assert!(cube.dropped_points().is_empty());
        assert_eq!(cube.bounding_radius(), 0.75f32.sqrt());
        assert_well_formed(&cube);
        assert_well_formed(&cuboid(100.0, 0.05, 3.0));
    }

    #[test]
    fn prism_vertices_turn_from_x_toward_z() {
        let prism = Polyhedron::new(&Shape3Kind::Prism {
            sides: 6,
            radius: 2.0,
            half_height: 0.5,
        })
        .unwrap();
        assert_eq!(prism.face_count(), 8);
        assert_eq!(prism.edges().len(), 18);
        assert_eq!(prism.vertices().len(), 12);
        // Vertex 1 of the bottom cap at 60 degrees from +x toward +z.
        let v1 = prism.vertex(1);
        assert!((v1 - Vec3::new(1.0, -0.5, 3f32.sqrt())).length() < 1e-6);
        assert_eq!(prism.vertex(6), Vec3::new(2.0, 0.5, 0.0));
        let top = (0..8).find(|&f| prism.face_normal(f) == Vec3::Y).unwrap();
        assert_eq!(prism.face(top).vertices.len(), 6);
        assert_well_formed(&prism);
    }

    #[test]
    fn feature_lanes_only_for_small_bodies() {
        let prism = |sides: u32| {
            Polyhedron::new(&Shape3Kind::Prism {
                sides,
                radius: 1.0,
                half_height: 0.5,
            })
            .unwrap()
        };
        // 32 sides: 64 vertices, 34 faces, 96 edges, the most vertices a small body has.
        let small = prism(32);
        assert_eq!(small.vertices().len(), SMALL_VERTICES);
        let lanes = small.feature_lanes().expect("a small body's lanes");
        assert_eq!(lanes.normals.len(), 34usize.div_ceil(4));
        assert_eq!(lanes.face_extents.len(), 34);
        assert_eq!(lanes.face_antipodes.len(), 34);
        assert_eq!(lanes.face_edges.len(), 34usize.div_ceil(4));
        assert_eq!(lanes.arcs.len(), 96usize.div_ceil(4));
        // Each extent is the face's own range: its offset on top, the far side below.
        for (i, [low, high]) in lanes.face_extents.iter().enumerate() {
            let n = small.face_normal(i);
            assert_eq!(
                *high,
                small
                    .vertices()
                    .iter()
                    .map(|v| n.dot(*v))
                    .fold(f32::MIN, f32::max)
            );
            assert_eq!(*low, n.dot(small.vertex(lanes.face_antipodes[i] as usize)));
        }
        // 33 sides (66 vertices) are past it: no lanes, and neither SAT nor the sweep takes
        // its small-body path.
        assert!(prism(33).feature_lanes().is_none());
        let cube = cuboid(0.5, 0.5, 0.5);
        assert!(cube.feature_lanes().is_some());
        // The arcs' rows for the swept SAT's bound: each edge's normals, the normals' dots
        // with its tail and with its faces' antipodes, the last group padded with zeros.
        assert_eq!(lanes.arc_reach.len(), 96usize.div_ceil(8));
        for (e, edge) in small.edges().iter().enumerate() {
            let rows = &lanes.arc_reach[e / 8];
            let lane = |r: usize| rows[r][e % 8];
            let [n0, n1] = edge.faces.map(|f| small.face_normal(f as usize));
            let tail = small.vertex(edge.tail as usize);
            let low = edge
                .faces
                .map(|f| small.vertex(lanes.face_antipodes[f as usize] as usize));
            assert_eq!(Vec3::new(lane(0), lane(1), lane(2)), n0);
            assert_eq!(Vec3::new(lane(3), lane(4), lane(5)), n1);
            assert_eq!([lane(6), lane(7)], [n0.dot(tail), n1.dot(tail)]);
            assert_eq!([lane(8), lane(9)], [n0.dot(low[0]), n1.dot(low[0])]);
            assert_eq!([lane(10), lane(11)], [n0.dot(low[1]), n1.dot(low[1])]);
        }
        // A cube's 12 edges: the second group's last four lanes are padding.
        let cube_lanes = cube.feature_lanes().unwrap();
        assert!(cube_lanes.arc_reach[1]
            .iter()
            .all(|row| row[4..] == [0.0; 4]));
        // Flat faces: the skew is the directions' rounding alone (a cube's normals are
        // exactly square to its edges), a few roundings over an edge's length.
        let cube_skew = cube_lanes.arc_skew;
        assert!(cube_skew > 0.0 && cube_skew < 1e-6, "{cube_skew}");
        assert!(lanes.arc_skew < 1e-5, "{}", lanes.arc_skew);
    }
    #[test]
    fn coplanar_points_merge_and_interior_points_are_dropped() {
        // Cube corners, then the centre, face centres, edge midpoints and a repeated corner:
        // all of those are dropped and the faces stay quadrilaterals.
        let mut points: Vec<Vec3> = cuboid(1.0, 1.0, 1.0).vertices().to_vec();
        points.push(Vec3::ZERO);
        points.push(Vec3::new(1.0, 0.0, 0.0));
        points.push(Vec3::new(0.0, -1.0, 0.0));
        points.push(Vec3::new(1.0, 1.0, 0.0));
        points.push(Vec3::new(0.0, -1.0, 1.0));
        points.push(Vec3::new(0.3, 0.2, -1.0));
        points.push(Vec3::new(1.0, 1.0, 1.0));
        let poly = hull(points).unwrap();
        assert_eq!(poly.vertices().len(), 8);
        assert_eq!(poly.face_count(), 6);
        assert_eq!(poly.edges().len(), 12);
        assert_eq!(poly.dropped_points(), &[8, 9, 10, 11, 12, 13, 14]);
        assert_well_formed(&poly);
    }

    #[test]
    fn points_off_a_face_or_an_edge_by_less_than_the_tolerance_do_not_split_it() {
        // Cube corners and points one f32 step (about 1.2e-7, far below the tolerance of
        // 1e-6 of the 3.5 diagonal) outside a face centre, an edge's midpoint and a corner.
        // The hull's decisions are exact, so each of them is a vertex of the triangle hull,
        // ringed by slivers and nearly flat triangles; the faces merge back into six
        // quadrilaterals, and the point beyond the corner takes the corner's place.
        let up = 1.0 + f32::EPSILON;
        let mut points: Vec<Vec3> = cuboid(1.0, 1.0, 1.0).vertices().to_vec();
        points.push(Vec3::new(0.0, 0.0, up));
        points.push(Vec3::new(0.0, up, up));
        points.push(Vec3::new(up, 0.5, up));
        points.push(Vec3::new(up, 1.0, 1.0));
        let poly = hull(points.clone()).unwrap();
        assert_eq!(poly.vertices().len(), 8);
        assert_eq!(poly.face_count(), 6);
        assert_eq!(poly.edges().len(), 12);
        assert!(poly.vertices().contains(&Vec3::new(up, 1.0, 1.0)));
        assert_well_formed(&poly);
        for f in 0..6 {
            assert_eq!(poly.face(f).vertices.len(), 4);
        }
    }

    #[test]
    fn slivers_of_a_minkowski_difference_merge_into_its_faces() {
        // A - B of a square prism and a box turned by quarter turns (found by the property
        // test on Minkowski differences): a box, but its 64 differences sit one or two f32
        // steps off each other's planes and lines, so the exact triangle hull rings them with
        // slivers. Merged by angle alone a sliver seeded a face of its own, the face lost its
        // corners and only the unmerged triangles (56 faces) were left.
        let points: Vec<Vec3> = [
            [-0.107497066, -0.6976409, -0.03499323],
            [-0.107497066, -0.6976409, 1.8815908],
            [-0.10749701, 0.89764094, -0.034993112],
            [-0.10749701, 0.89764094, 1.8815908],
            [0.6865336, -0.697641, -0.03499323],
            [0.6865336, -0.697641, 1.8815908],
            [0.6865337, 0.8976408, -0.034993112],
            [0.6865337, 0.8976408, 1.8815908],
            [-0.68653345, -0.6976409, -0.03499323],
            [-0.68653345, -0.6976409, 1.8815908],
            [-0.68653345, 0.89764094, -0.034993112],
            [-0.68653345, 0.89764094, 1.8815908],
            [0.107497185, -0.697641, -0.03499323],
            [0.107497185, -0.697641, 1.8815908],
            [0.107497245, 0.8976408, -0.034993112],
            [0.107497245, 0.8976408, 1.8815908],
            [-0.107497245, -0.6976409, -1.8815908],
            [-0.107497245, -0.6976409, 0.03499323],
            [-0.107497185, 0.89764094, -1.8815906],
            [-0.107497185, 0.89764094, 0.03499335],
            [0.68653345, -0.697641, -1.8815908],
            [0.68653345, -0.697641, 0.03499323],
            [0.68653345, 0.8976408, -1.8815906],
            [0.68653345, 0.8976408, 0.03499335],
            [-0.6865337, -0.6976409, -1.8815908],
            [-0.6865337, -0.6976409, 0.03499323],
            [-0.6865336, 0.89764094, -1.8815906],
            [-0.6865336, 0.89764094, 0.03499335],
            [0.10749701, -0.697641, -1.8815908],
            [0.10749701, -0.697641, 0.03499323],
            [0.107497066, 0.8976408, -1.8815906],
            [0.107497066, 0.8976408, 0.03499335],
            [-0.107497066, -0.8976408, -0.03499335],
            [-0.107497066, -0.8976408, 1.8815906],
            [-0.10749701, 0.697641, -0.03499323],
            [-0.10749701, 0.697641, 1.8815908],
            [0.6865336, -0.89764094, -0.03499335],
            [0.6865336, -0.89764094, 1.8815906],
            [0.6865337, 0.6976409, -0.03499323],
            [0.6865337, 0.6976409, 1.8815908],
            [-0.68653345, -0.8976408, -0.03499335],
            [-0.68653345, -0.8976408, 1.8815906],
            [-0.68653345, 0.697641, -0.03499323],
            [-0.68653345, 0.697641, 1.8815908],
            [0.107497185, -0.89764094, -0.03499335],
            [0.107497185, -0.89764094, 1.8815906],
            [0.107497245, 0.6976409, -0.03499323],
            [0.107497245, 0.6976409, 1.8815908],
            [-0.107497245, -0.8976408, -1.8815908],
            [-0.107497245, -0.8976408, 0.034993112],
            [-0.107497185, 0.697641, -1.8815908],
            [-0.107497185, 0.697641, 0.03499323],
            [0.68653345, -0.89764094, -1.8815908],
            [0.68653345, -0.89764094, 0.034993112],
            [0.68653345, 0.6976409, -1.8815908],
            [0.68653345, 0.6976409, 0.03499323],
            [-0.6865337, -0.8976408, -1.8815908],
            [-0.6865337, -0.8976408, 0.034993112],
            [-0.6865336, 0.697641, -1.8815908],
            [-0.6865336, 0.697641, 0.03499323],
            [0.10749701, -0.89764094, -1.8815908],
            [0.10749701, -0.89764094, 0.034993112],
            [0.107497066, 0.6976409, -1.8815908],
            [0.107497066, 0.6976409, 0.03499323],
        ]
        .iter()
        .map(|&p| Vec3::from_array(p))
        .collect();
        let poly = hull(points).unwrap();
        assert_eq!(poly.vertices().len(), 8);
        assert_eq!(poly.face_count(), 6);
        assert_well_formed(&poly);
    }

    #[test]
    fn nearly_coplanar_faces_merge_within_the_angle_and_the_plane_tolerance() {
        // A square pyramid's base (2 x 2) with one corner lowered: by 2e-6 (within the
        // merge angle and within twice the hull tolerance, 1e-6 of the 3.5 diagonal, of the
        // plane) the base stays one face; by 1e-4 (within the angle, 5e-5 rad, but a visible
        // step off the plane) and by 0.1 it splits in two triangles.
        let mut points = vec![
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::new(-1.0, 0.0, 1.0),
            Vec3::new(-1.0, 0.0, -1.0),
            Vec3::new(1.0, -2e-6, -1.0),
            Vec3::new(0.0, 2.0, 0.0),
        ];
        let poly = hull(points.clone()).unwrap();
        assert_eq!(poly.face_count(), 5);
        assert_well_formed(&poly);
        for lowered in [1e-4, 0.1] {
            points[3].y = -lowered;
            let poly = hull(points.clone()).unwrap();
            assert_eq!(poly.face_count(), 6, "lowered by {lowered}");
            assert_well_formed(&poly);
        }
    }

    #[test]
    fn degenerate_inputs_are_refused_with_a_typed_error() {
        let v = Vec3::new;
        assert_eq!(
            hull(vec![v(0., 0., 0.), v(1., 0., 0.), v(0., 1., 0.)]),
            Err(Shape3Error::TooFewPoints { count: 3 })
        );
        assert_eq!(hull(vec![v(1., 2., 3.); 6]), Err(Shape3Error::Coincident));
        assert_eq!(
            hull((0..6).map(|k| v(k as f32, 2.0 * k as f32, 1.0)).collect()),
            Err(Shape3Error::Collinear)
        );
        assert_eq!(
            hull(vec![
                v(0., 0., 0.),
                v(1., 0., 0.),
                v(0., 0., 1.),
                v(1., 0., 1.),
                v(0.5, 0., 0.3)
            ]),
            Err(Shape3Error::Flat)
        );
        assert!(matches!(
            hull(vec![
                v(0., 0., 0.),
                v(1., 0., 0.),
                v(0., 1., 0.),
                v(0., 0., f32::NAN)
            ]),
            Err(Shape3Error::NonFinite { .. })
        ));
        assert!(matches!(
            hull(vec![
                v(0., 0., 0.),
                v(2e6, 0., 0.),
                v(0., 1., 0.),
                v(0., 0., 1.)
            ]),
            Err(Shape3Error::TooLarge { .. })
        ));
        let mut rng = Lcg(7);
        let many: Vec<Vec3> = (0..1025).map(|_| rng.unit()).collect();
        assert_eq!(hull(many), Err(Shape3Error::TooManyPoints { count: 1025 }));
        assert!(matches!(
            Polyhedron::new(&Shape3Kind::Cuboid {
                half_extents: v(1., 0., 1.)
            }),
            Err(Shape3Error::NotPositive { .. })
        ));
        assert!(matches!(
            Polyhedron::new(&Shape3Kind::Prism {
                sides: 2,
                radius: 1.,
                half_height: 1.
            }),
            Err(Shape3Error::Sides { sides: 2 })
        ));
        let message = Shape3Error::Flat.to_string();
        assert!(message.contains("one plane"), "{message}");
    }

    #[test]
    fn a_1024_point_sphere_hull_keeps_every_point() {
        let mut rng = Lcg(11);
        let points: Vec<Vec3> = (0..1024).map(|_| rng.unit() * 3.0).collect();
        let poly = hull(points).unwrap();
        assert_eq!(poly.vertices().len() + poly.dropped_points().len(), 1024);
        assert!(poly.vertices().len() > 1000);
        assert_well_formed(&poly);
    }

    #[test]
    fn a_lattice_of_1000_points_is_a_cube_and_big_prisms_build() {
        // Every point of a 10 x 10 x 10 grid: hundreds coplanar with the faces and collinear
        // with the edges. Only the 8 corners remain.
        let mut points = Vec::new();
        for i in 0..10 {
            for j in 0..10 {
                for k in 0..10 {
                    points.push(Vec3::new(i as f32, j as f32, k as f32) * 0.1);
                }
            }
        }
        let poly = hull(points).unwrap();
        assert_eq!(poly.vertices().len(), 8);
        assert_eq!(poly.face_count(), 6);
        assert_eq!(poly.dropped_points().len(), 992);
        assert_well_formed(&poly);
        // A jittered sphere (noise 1e-6) and the largest prism.
        let mut rng = Lcg(5);
        let points: Vec<Vec3> = (0..600)
            .map(|_| rng.unit() + Vec3::splat(1e-6 * rng.next()))
            .collect();
        assert_well_formed(&hull(points).unwrap());
        let prism = Polyhedron::new(&Shape3Kind::Prism {
            sides: MAX_PRISM_SIDES,
            radius: 1.0,
            half_height: 0.1,
        })
        .unwrap();
        assert_eq!(prism.face_count(), MAX_PRISM_SIDES as usize + 2);
        assert_eq!(prism.vertices().len(), 2 * MAX_PRISM_SIDES as usize);
        assert_well_formed(&prism);
    }

    #[test]
    fn hill_climbing_equals_the_scan() {
        let mut rng = Lcg(3);
        for (count, squash) in [(40, 1.0), (300, 0.3), (1024, 1.0)] {
            let points: Vec<Vec3> = (0..count)
                .map(|_| rng.unit() * Vec3::new(2.0, squash, 1.0) * (0.8 + 0.2 * rng.next()))
                .collect();
            let poly = hull(points).unwrap();
            assert!(poly.vertices().len() >= HILL_CLIMB_MIN_VERTICES);
            for _ in 0..500 {
                let d = rng.unit();
                let climb = poly.support_climb(d);
                let scan = poly.support_scan(d);
                assert_eq!(
                    poly.vertex(climb).dot(d),
                    poly.vertex(scan).dot(d),
                    "direction {d}: climb {climb}, scan {scan}"
                );
                assert_eq!(poly.support(d), climb);
                // From any start, the climb reaches a vertex as far along d.
                let start = (rng.next() * poly.vertices().len() as f32) as usize;
                let warm = poly.support_climb_from(start, d);
                assert_eq!(
                    poly.vertex(warm).dot(d),
                    poly.vertex(scan).dot(d),
                    "from {start}"
                );
            }
        }
        // A NaN direction ends the climb at once.
        let poly = hull((0..100).map(|_| rng.unit()).collect()).unwrap();
        assert_eq!(poly.support(Vec3::NAN), 0);
    }
}
