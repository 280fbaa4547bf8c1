//! The bench's inputs: fixed-seed convex polygons in each library's form, and the cases
//! (pairs of polygons and their poses) each query runs on.

use crate::box2d::{BoxPlacement, BoxPolygon};
use crate::{CASES, POLYGONS_PER_SIZE, SEED};
use collision_lab::geom::{Pose, Shape};
use collision_lab::query::ShapePair;
use glam::Vec2;
use parry2d::math::{Pose as Isometry, Vector};
use parry2d::query::details::{contact_support_map_support_map, distance_support_map_support_map};
use parry2d::shape::{
    ConvexPolygon, PackedFeatureId, PolygonalFeature, PolygonalFeatureMap, SupportMap,
};
use std::f32::consts::TAU;

/// SplitMix64 (Steele, Lea and Flood 2014): small, fast, and enough for test inputs.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// `n` counter-clockwise points on an ellipse with semi-axes in [0.7, 1.3], one random angle
/// inside each of `n` equal sectors (the middle 60% of the sector), rotated by a random phase.
pub fn random_convex_polygon(rng: &mut SplitMix64, n: usize) -> Vec<Vec2> {
    let (rx, ry) = (rng.range(0.7, 1.3), rng.range(0.7, 1.3));
    let phase = rng.range(0.0, TAU);
    (0..n)
        .map(|k| {
            let a = phase + TAU * (k as f32 + rng.range(0.2, 0.8)) / n as f32;
            Vec2::new(rx * a.cos(), ry * a.sin())
        })
        .collect()
}

/// A convex polygon for parry2d that keeps every vertex it is given (parry's own
/// `ConvexPolygon` merges nearly collinear edges). Its support point is parry's own
/// full scan, as in `ConvexPolygon`; its support feature the edge whose normal is closest
/// to the direction, by a scan over the normals, as in `ConvexPolygon`.
pub struct ExactPolygon {
    points: Vec<Vector>,
    normals: Vec<Vector>,
}

impl ExactPolygon {
    fn new(points: &[Vec2]) -> ExactPolygon {
        let points: Vec<Vector> = points.iter().map(|p| vector(*p)).collect();
        let n = points.len();
        let normals = (0..n)
            .map(|i| {
                let e = points[(i + 1) % n] - points[i];
                Vector::new(e.y, -e.x).normalize()
            })
            .collect();
        ExactPolygon { points, normals }
    }
}

impl SupportMap for ExactPolygon {
    fn local_support_point(&self, dir: Vector) -> Vector {
        parry2d::utils::point_cloud_support_point(dir, &self.points)
    }
}

impl PolygonalFeatureMap for ExactPolygon {
    fn local_support_feature(&self, dir: Vector, out: &mut PolygonalFeature) {
        let mut face = 0;
        let mut best = f32::NEG_INFINITY;
        for (i, normal) in self.normals.iter().enumerate() {
            let d = normal.dot(dir);
            if d > best {
                best = d;
                face = i;
            }
        }
        let next = (face + 1) % self.points.len();
        *out = PolygonalFeature {
            vertices: [self.points[face], self.points[next]],
            vids: [
                PackedFeatureId::vertex(2 * face as u32),
                PackedFeatureId::vertex(2 * next as u32),
            ],
            fid: PackedFeatureId::face(2 * face as u32 + 1),
            num_vertices: 2,
        };
    }
}

/// The polygons of one input set, in each library's form.
pub struct PolygonSet {
    pub ours: Vec<Shape>,
    pub exact: Vec<ExactPolygon>,
    /// parry2d's own `ConvexPolygon`, when it kept every vertex.
    pub public: Vec<Option<ConvexPolygon>>,
    /// Box2D's polygons, when they fit (at most 8 vertices) and Box2D kept every vertex.
    pub box2d: Vec<Option<BoxPolygon>>,
}

impl PolygonSet {
    /// `POLYGONS_PER_SIZE` random convex `n`-gons.
    fn random(rng: &mut SplitMix64, n: usize) -> PolygonSet {
        let shapes = (0..POLYGONS_PER_SIZE)
            .map(|_| Shape::polygon(random_convex_polygon(rng, n)).expect("a valid convex polygon"))
            .collect();
        PolygonSet::new(shapes)
    }

    /// `POLYGONS_PER_SIZE` boxes with half extents in [0.4, 1.3].
    fn boxes(rng: &mut SplitMix64) -> PolygonSet {
        let shapes = (0..POLYGONS_PER_SIZE)
            .map(|_| {
                let half = Vec2::new(rng.range(0.4, 1.3), rng.range(0.4, 1.3));
                Shape::rect(half).expect("a valid box")
            })
            .collect();
        PolygonSet::new(shapes)
    }

    /// The same polygons (our shapes' core vertices, in our local frames) for every library.
    fn new(ours: Vec<Shape>) -> PolygonSet {
        let exact = ours.iter().map(|s| ExactPolygon::new(s.core())).collect();
        let public = ours
            .iter()
            .map(|s| {
                let points = s.core().iter().map(|v| vector(*v)).collect();
                ConvexPolygon::from_convex_polyline(points)
                    .filter(|c| c.points().len() == s.core().len())
            })
            .collect();
        let box2d = ours.iter().map(|s| BoxPolygon::new(s.core())).collect();
        PolygonSet {
            ours,
            exact,
            public,
            box2d,
        }
    }

    pub fn has_public(&self) -> bool {
        self.public.iter().all(Option::is_some)
    }

    pub fn public(&self, i: usize) -> &ConvexPolygon {
        self.public[i].as_ref().expect("parry kept every vertex")
    }

    pub fn has_box2d(&self) -> bool {
        self.box2d.iter().all(Option::is_some)
    }

    pub fn box2d(&self, i: usize) -> &BoxPolygon {
        self.box2d[i].as_ref().expect("Box2D kept every vertex")
    }
}

/// Our vector as parry2d's (parry2d 0.31 is built on a newer glam than ours).
pub fn vector(v: Vec2) -> Vector {
    Vector::new(v.x, v.y)
}

/// What the pose of a case must give.
#[derive(Clone, Copy, PartialEq)]
enum Placement {
    /// Overlapping by at least 1% of the size.
    Penetrating,
    /// At least 1% of the size apart.
    Separated,
    /// Apart, with B moving toward A (a few pass by).
    Approaching,
}

/// One query input: two polygons of a set and their poses, in both libraries' forms.
#[derive(Clone, Copy)]
pub struct Case {
    pub a: usize,
    pub b: usize,
    pub pose_a: Pose,
    pub pose_b: Pose,
    pub iso_a: Isometry,
    pub iso_b: Isometry,
    pub velocity_b: Vec2,
}

impl Case {
    pub fn pair<'s>(&self, set: &'s PolygonSet) -> ShapePair<'s> {
        ShapePair::new(
            &set.ours[self.a],
            self.pose_a,
            &set.ours[self.b],
            self.pose_b,
        )
    }

    /// The case as Box2D takes it (B in A's frame).
    pub fn box2d_placement(&self) -> BoxPlacement {
        BoxPlacement::new(self.pose_a, self.pose_b, self.velocity_b)
    }

    /// B's pose in A's frame.
    pub fn pos12(&self) -> Isometry {
        self.iso_a.inv_mul(&self.iso_b)
    }

    /// B's velocity in A's frame.
    pub fn vel12(&self) -> Vector {
        self.iso_a.inverse_transform_vector(vector(self.velocity_b))
    }
}

fn isometry(pose: Pose) -> Isometry {
    Isometry::new(vector(pose.position), pose.angle)
}

/// `count` cases of the given placement; parry2d's public distance (an independent oracle)
/// classifies a candidate pose, and candidates within 1% of touching are thrown away so that
/// neither library sits on a decision boundary.
fn make_cases(
    rng: &mut SplitMix64,
    set: &PolygonSet,
    placement: Placement,
    count: usize,
) -> Vec<Case> {
    let mut cases = Vec::with_capacity(count);
    while cases.len() < count {
        let a = rng.below(POLYGONS_PER_SIZE);
        let b = (a + 1 + rng.below(POLYGONS_PER_SIZE - 1)) % POLYGONS_PER_SIZE;
        let pose_a = Pose::new(
            Vec2::new(rng.range(-10.0, 10.0), rng.range(-10.0, 10.0)),
            rng.range(-std::f32::consts::PI, std::f32::consts::PI),
        );
        let direction = Vec2::from_angle(rng.range(0.0, TAU));
        let reach = match placement {
            Placement::Penetrating => rng.range(0.0, 1.6),
            Placement::Separated => rng.range(1.0, 3.5),
            Placement::Approaching => rng.range(1.5, 3.5),
        };
        let pose_b = Pose::new(
            pose_a.position + reach * direction,
            rng.range(-std::f32::consts::PI, std::f32::consts::PI),
        );
        // B moves toward A's position, arriving near it at t = 1, with a sideways offset
        // that makes some of them miss.
        let sideways = Vec2::new(-direction.y, direction.x) * rng.range(-3.0, 3.0);
        let velocity_b = -reach * direction + sideways;
        let case = Case {
            a,
            b,
            pose_a,
            pose_b,
            iso_a: isometry(pose_a),
            iso_b: isometry(pose_b),
            velocity_b,
        };
        let pos12 = case.pos12();
        let gap = distance_support_map_support_map(&pos12, &set.exact[a], &set.exact[b]);
        let depth = contact_support_map_support_map(&pos12, &set.exact[a], &set.exact[b], 0.0)
            .map_or(0.0, |c| -c.dist);
        let keep = match placement {
            Placement::Penetrating => depth > 0.01,
            Placement::Separated | Placement::Approaching => gap > 0.01,
        };
        if keep {
            cases.push(case);
        }
    }
    cases
}

/// Half penetrating, half separated, interleaved at random.
fn mixed_cases(rng: &mut SplitMix64, set: &PolygonSet) -> Vec<Case> {
    let mut over = make_cases(rng, set, Placement::Penetrating, CASES / 2);
    let mut apart = make_cases(rng, set, Placement::Separated, CASES - CASES / 2);
    let mut cases = Vec::with_capacity(CASES);
    while !over.is_empty() || !apart.is_empty() {
        let from_over = !over.is_empty() && (apart.is_empty() || rng.below(2) == 0);
        cases.push(if from_over { over.pop() } else { apart.pop() }.expect("non-empty"));
    }
    cases
}

/// Every input of one polygon set: random `n`-gons, or boxes.
pub struct Inputs {
    /// The row label: the vertex count, or "boxes".
    pub label: String,
    pub n: usize,
    pub set: PolygonSet,
    pub mixed: Vec<Case>,
    pub penetrating: Vec<Case>,
    pub separated: Vec<Case>,
    pub approaching: Vec<Case>,
}

impl Inputs {
    /// Random convex `n`-gons.
    pub fn new(n: usize) -> Inputs {
        let mut rng = SplitMix64(SEED ^ (n as u64).wrapping_mul(0x9e37_79b9));
        let set = PolygonSet::random(&mut rng, n);
        Inputs::with_cases(n.to_string(), n, set, &mut rng)
    }

    /// Boxes (4 vertices, parallel opposite edges: the shape engines see most).
    pub fn boxes() -> Inputs {
        let mut rng = SplitMix64(SEED ^ 0xb0c5);
        let set = PolygonSet::boxes(&mut rng);
        Inputs::with_cases("boxes".into(), 4, set, &mut rng)
    }

    fn with_cases(label: String, n: usize, set: PolygonSet, rng: &mut SplitMix64) -> Inputs {
        Inputs {
            label,
            n,
            mixed: mixed_cases(rng, &set),
            penetrating: make_cases(rng, &set, Placement::Penetrating, CASES),
            separated: make_cases(rng, &set, Placement::Separated, CASES),
            approaching: make_cases(rng, &set, Placement::Approaching, CASES),
            set,
        }
    }
}
