//! collision-lab against parry2d on identical inputs, the growth of each query with the
//! vertex count, the cost of recording, and the window's per-frame work.
//!
//! Run with `cargo bench --bench versus_parry`. Criterion measures every benchmark (its
//! usual report, history and change detection under `target/criterion/`). Then a paired
//! measurement prints the tables for `docs/performance.md`: the runners of one row take
//! turns round after round, so a change in the machine's load hits both sides of a ratio
//! alike. The tables are also written as `target/criterion/versus_parry.{md,csv}`;
//! `scripts/perf_report.py` draws the plot from the CSV. `VERSUS_PARRY_N=8,1024` limits the
//! vertex counts; a criterion filter that matches nothing (`-- none`) skips criterion.
//!
//! Method (see `docs/performance.md` for the reasoning):
//! - Polygons: `n` points on an ellipse with random semi-axes, at sorted random angles (one
//!   angle drawn inside each of `n` equal sectors, so no two points nearly coincide), from a
//!   fixed-seed generator written here. Poses: random positions and angles.
//! - Each benchmark times a batch over a fixed set of cases; the tables give the median cost
//!   of one query (median time per batch divided by the batch size).
//! - parry2d's `ConvexPolygon::from_convex_polyline` merges edges whose normals are within
//!   about 1.5 degrees, so it cannot hold a 256-gon or a 1024-gon of this kind. For the
//!   vertex-count sweep parry2d therefore runs its own generic entry points
//!   (`query::details::*_support_map_support_map`, `contact_manifold_pfm_pfm`) on
//!   [`ExactPolygon`], which keeps every vertex and finds support points by the same full
//!   scan `ConvexPolygon` uses. At n = 8 both forms of parry2d are measured, and the
//!   headline targets are judged against the public API on `ConvexPolygon`.

use collision_lab::geom::{Pose, Shape};
use collision_lab::query::clip::clip;
use collision_lab::query::epa::{epa, EpaConfig};
use collision_lab::query::gjk::{gjk, gjk_intersects, GjkConfig};
use collision_lab::query::minkowski::minkowski_difference;
use collision_lab::query::pair::{query_pair, trace_pair, BodyRef, PairSettings};
use collision_lab::query::sat::sat;
use collision_lab::query::sweep::{sweep, Motion};
use collision_lab::query::ShapePair;
use criterion::{BenchmarkId, Criterion};
use glam::Vec2;
use parry2d::math::{Isometry, Point, Real, Vector};
use parry2d::na::Unit;
use parry2d::query::details::{
    cast_shapes_support_map_support_map, closest_points_support_map_support_map,
    contact_manifold_pfm_pfm, contact_support_map_support_map, distance_support_map_support_map,
    intersection_test_support_map_support_map,
};
use parry2d::query::{
    cast_shapes, closest_points, contact, distance, intersection_test, ContactManifold,
    ContactManifoldsWorkspace, DefaultQueryDispatcher, PersistentQueryDispatcher, ShapeCastOptions,
};
use parry2d::shape::{
    ConvexPolygon, PackedFeatureId, PolygonalFeature, PolygonalFeatureMap, SupportMap,
};
use std::f32::consts::TAU;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Vertex counts of the growth sweep.
const VERTEX_COUNTS: [usize; 6] = [4, 8, 16, 64, 256, 1024];

/// The vertex count of the headline targets.
const HEADLINE_N: usize = 8;

/// Distinct polygons per vertex count; the cases pick pairs of them.
const POLYGONS_PER_SIZE: usize = 16;

/// Cases per benchmark: the batch one criterion iteration runs.
const CASES: usize = 64;

const SEED: u64 = 0x00c0_111d_e1ab;

/// Library names as they appear in benchmark ids and tables.
const OURS: &str = "collision-lab";
const PARRY: &str = "parry2d";
const PARRY_PUBLIC: &str = "parry2d-public";

// ---------------------------------------------------------------------------------------
// Inputs

/// SplitMix64 (Steele, Lea and Flood 2014): small, fast, and enough for test inputs.
struct SplitMix64(u64);

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

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// `n` counter-clockwise points on an ellipse with semi-axes in [0.7, 1.3], one random angle
/// inside each of `n` equal sectors (the middle 60% of the sector), rotated by a random phase.
fn random_convex_polygon(rng: &mut SplitMix64, n: usize) -> Vec<Vec2> {
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
struct ExactPolygon {
    points: Vec<Point<Real>>,
    normals: Vec<Vector<Real>>,
}

impl ExactPolygon {
    fn new(points: &[Vec2]) -> ExactPolygon {
        let points: Vec<Point<Real>> = points.iter().map(|p| Point::new(p.x, p.y)).collect();
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
    fn local_support_point(&self, dir: &Vector<Real>) -> Point<Real> {
        parry2d::utils::point_cloud_support_point(dir, &self.points)
    }
}

impl PolygonalFeatureMap for ExactPolygon {
    fn local_support_feature(&self, dir: &Unit<Vector<Real>>, out: &mut PolygonalFeature) {
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

/// The polygons of one vertex count, in each library's form.
struct PolygonSet {
    ours: Vec<Shape>,
    exact: Vec<ExactPolygon>,
    /// parry2d's own `ConvexPolygon`, when it kept every vertex.
    public: Vec<Option<ConvexPolygon>>,
}

impl PolygonSet {
    fn new(rng: &mut SplitMix64, n: usize) -> PolygonSet {
        let outlines: Vec<Vec<Vec2>> = (0..POLYGONS_PER_SIZE)
            .map(|_| random_convex_polygon(rng, n))
            .collect();
        PolygonSet {
            ours: outlines
                .iter()
                .map(|p| Shape::polygon(p.clone()).expect("a valid convex polygon"))
                .collect(),
            exact: outlines.iter().map(|p| ExactPolygon::new(p)).collect(),
            public: outlines
                .iter()
                .map(|p| {
                    let points = p.iter().map(|v| Point::new(v.x, v.y)).collect();
                    ConvexPolygon::from_convex_polyline(points).filter(|c| c.points().len() == n)
                })
                .collect(),
        }
    }

    fn has_public(&self) -> bool {
        self.public.iter().all(Option::is_some)
    }

    fn public(&self, i: usize) -> &ConvexPolygon {
        self.public[i].as_ref().expect("parry kept every vertex")
    }
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
struct Case {
    a: usize,
    b: usize,
    pose_a: Pose,
    pose_b: Pose,
    iso_a: Isometry<Real>,
    iso_b: Isometry<Real>,
    velocity_b: Vec2,
}

impl Case {
    fn pair<'s>(&self, set: &'s PolygonSet) -> ShapePair<'s> {
        ShapePair::new(
            &set.ours[self.a],
            self.pose_a,
            &set.ours[self.b],
            self.pose_b,
        )
    }

    fn pos12(&self) -> Isometry<Real> {
        self.iso_a.inv_mul(&self.iso_b)
    }

    fn vel12(&self) -> Vector<Real> {
        self.iso_a
            .inverse_transform_vector(&Vector::new(self.velocity_b.x, self.velocity_b.y))
    }
}

fn isometry(pose: Pose) -> Isometry<Real> {
    Isometry::new(Vector::new(pose.position.x, pose.position.y), pose.angle)
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

/// Every input of one vertex count.
struct Inputs {
    n: usize,
    set: PolygonSet,
    mixed: Vec<Case>,
    penetrating: Vec<Case>,
    separated: Vec<Case>,
    approaching: Vec<Case>,
}

impl Inputs {
    fn new(n: usize) -> Inputs {
        let mut rng = SplitMix64(SEED ^ (n as u64).wrapping_mul(0x9e37_79b9));
        let set = PolygonSet::new(&mut rng, n);
        Inputs {
            n,
            mixed: mixed_cases(&mut rng, &set),
            penetrating: make_cases(&mut rng, &set, Placement::Penetrating, CASES),
            separated: make_cases(&mut rng, &set, Placement::Separated, CASES),
            approaching: make_cases(&mut rng, &set, Placement::Approaching, CASES),
            set,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Agreement: before timing anything, check that both libraries give the same answers on
// these inputs, so the comparison is between equal work.

fn check_agreement(inputs: &Inputs) {
    let set = &inputs.set;
    let mut disagreements = Vec::new();
    let tolerance = 2.0e-3;
    for case in &inputs.mixed {
        let ours = gjk_intersects(&case.pair(set), &GjkConfig::default());
        let theirs = intersection_test_support_map_support_map(
            &case.pos12(),
            &set.exact[case.a],
            &set.exact[case.b],
        );
        if ours != theirs {
            disagreements.push(format!("intersection: ours {ours}, parry {theirs}"));
        }
    }
    for case in &inputs.separated {
        let ours = gjk(&case.pair(set), &GjkConfig::default(), &mut ()).distance;
        let theirs =
            distance_support_map_support_map(&case.pos12(), &set.exact[case.a], &set.exact[case.b]);
        if (ours - theirs).abs() > tolerance {
            disagreements.push(format!("distance: ours {ours}, parry {theirs}"));
        }
    }
    for case in &inputs.penetrating {
        let pair = case.pair(set);
        let g = gjk(&pair, &GjkConfig::default(), &mut ());
        let ours = epa(&pair, &g, &EpaConfig::default(), &mut ()).map_or(0.0, |e| e.depth);
        let theirs = contact_support_map_support_map(
            &case.pos12(),
            &set.exact[case.a],
            &set.exact[case.b],
            0.0,
        )
        .map_or(0.0, |c| -c.dist);
        let by_sat = sat(&pair, &mut ()).depth.unwrap_or(0.0);
        if (ours - theirs).abs() > tolerance || (by_sat - theirs).abs() > tolerance {
            disagreements.push(format!(
                "depth: ours EPA {ours}, ours SAT {by_sat}, parry {theirs}"
            ));
        }
    }
    let mut hits = 0;
    for case in &inputs.approaching {
        let motion = Motion {
            velocity_a: Vec2::ZERO,
            velocity_b: case.velocity_b,
            t_max: 1.0,
        };
        let ours = sweep(&case.pair(set), &motion, &mut ()).t_first;
        let theirs = cast_shapes_support_map_support_map(
            &case.pos12(),
            &case.vel12(),
            &set.exact[case.a],
            &set.exact[case.b],
            cast_options(),
        )
        .map(|hit| hit.time_of_impact);
        hits += usize::from(ours.is_some());
        let same = match (ours, theirs) {
            (Some(x), Some(y)) => (x - y).abs() <= tolerance,
            (None, None) => true,
            _ => false,
        };
        if !same {
            disagreements.push(format!("time of impact: ours {ours:?}, parry {theirs:?}"));
        }
    }
    eprintln!(
        "n = {:4}: {} of {} sweeps hit; {} disagreements with parry2d",
        inputs.n,
        hits,
        inputs.approaching.len(),
        disagreements.len()
    );
    for d in disagreements.iter().take(5) {
        eprintln!("    {d}");
    }
}

fn cast_options() -> ShapeCastOptions {
    ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    }
}

// ---------------------------------------------------------------------------------------
// The queries, one function per library and query, each over a batch of cases.

/// The query kinds of the comparison, in table order, with the cases each runs on.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Query {
    Manifold,
    Intersection,
    Distance,
    ClosestPoints,
    Penetration,
    TimeOfImpact,
}

impl Query {
    const ALL: [Query; 6] = [
        Query::Manifold,
        Query::Intersection,
        Query::Distance,
        Query::ClosestPoints,
        Query::Penetration,
        Query::TimeOfImpact,
    ];

    /// Criterion group name.
    fn group(self) -> &'static str {
        match self {
            Query::Manifold => "manifold",
            Query::Intersection => "intersection",
            Query::Distance => "distance",
            Query::ClosestPoints => "closest_points",
            Query::Penetration => "penetration",
            Query::TimeOfImpact => "time_of_impact",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Query::Manifold => "contact manifold (SAT + clip vs contact_manifolds)",
            Query::Intersection => "intersection test (GJK boolean vs intersection_test)",
            Query::Distance => "distance (GJK vs distance)",
            Query::ClosestPoints => "closest points (GJK vs closest_points)",
            Query::Penetration => "penetration (GJK + EPA vs contact)",
            Query::TimeOfImpact => "time of impact (swept SAT vs cast_shapes)",
        }
    }

    /// The largest acceptable ratio ours / parry2d at the headline vertex count.
    fn target(self) -> f64 {
        match self {
            Query::Manifold => 0.5,
            _ => 1.0,
        }
    }

    fn cases(self, inputs: &Inputs) -> &[Case] {
        match self {
            Query::Manifold | Query::Penetration => &inputs.penetrating,
            Query::Intersection => &inputs.mixed,
            Query::Distance | Query::ClosestPoints => &inputs.separated,
            Query::TimeOfImpact => &inputs.approaching,
        }
    }
}

/// Pairs built outside the timed loop, as parry2d's isometries are: both libraries get
/// their placements with sine and cosine already taken.
fn pairs<'s>(cases: &[Case], set: &'s PolygonSet) -> Vec<ShapePair<'s>> {
    cases.iter().map(|c| c.pair(set)).collect()
}

fn run_ours(query: Query, pairs: &[ShapePair], cases: &[Case]) {
    let gjk_config = GjkConfig::default();
    let epa_config = EpaConfig::default();
    match query {
        Query::Manifold => {
            for pair in pairs {
                let s = sat(black_box(pair), &mut ());
                black_box(clip(pair, s.normal, &mut ()));
            }
        }
        Query::Intersection => {
            for pair in pairs {
                black_box(gjk_intersects(black_box(pair), &gjk_config));
            }
        }
        // One GJK run gives both the distance and the closest points.
        Query::Distance | Query::ClosestPoints => {
            for pair in pairs {
                black_box(gjk(black_box(pair), &gjk_config, &mut ()));
            }
        }
        Query::Penetration => {
            for pair in pairs {
                let g = gjk(black_box(pair), &gjk_config, &mut ());
                black_box(epa(pair, &g, &epa_config, &mut ()));
            }
        }
        Query::TimeOfImpact => {
            for (pair, case) in pairs.iter().zip(cases) {
                let motion = Motion {
                    velocity_a: Vec2::ZERO,
                    velocity_b: case.velocity_b,
                    t_max: 1.0,
                };
                black_box(sweep(black_box(pair), &motion, &mut ()));
            }
        }
    }
}

/// parry2d's generic entry points on [`ExactPolygon`]. The manifold keeps one
/// `ContactManifold` across the batch, as a physics engine keeps one per pair; consecutive
/// cases are unrelated poses, so its contact cache never applies and only its buffer is
/// reused.
fn run_parry_exact(
    query: Query,
    set: &PolygonSet,
    cases: &[Case],
    manifold: &mut ContactManifold<(), ()>,
) {
    for case in cases {
        let (g1, g2) = (&set.exact[case.a], &set.exact[case.b]);
        let pos12 = black_box(case).pos12();
        match query {
            Query::Manifold => {
                contact_manifold_pfm_pfm(&pos12, g1, 0.0, None, g2, 0.0, None, 0.0, manifold);
                black_box(&*manifold);
            }
            Query::Intersection => {
                black_box(intersection_test_support_map_support_map(&pos12, g1, g2));
            }
            Query::Distance => {
                black_box(distance_support_map_support_map(&pos12, g1, g2));
            }
            Query::ClosestPoints => {
                black_box(closest_points_support_map_support_map(
                    &pos12,
                    g1,
                    g2,
                    f32::MAX,
                ));
            }
            Query::Penetration => {
                black_box(contact_support_map_support_map(&pos12, g1, g2, 0.0));
            }
            Query::TimeOfImpact => {
                black_box(cast_shapes_support_map_support_map(
                    &pos12,
                    &case.vel12(),
                    g1,
                    g2,
                    cast_options(),
                ));
            }
        }
    }
}

/// parry2d's public, dynamically dispatched API on its own `ConvexPolygon`.
fn run_parry_public(
    query: Query,
    set: &PolygonSet,
    cases: &[Case],
    manifolds: &mut Vec<ContactManifold<(), ()>>,
    workspace: &mut Option<ContactManifoldsWorkspace>,
) {
    for case in black_box(cases) {
        let (g1, g2) = (set.public(case.a), set.public(case.b));
        let (p1, p2) = (&case.iso_a, &case.iso_b);
        match query {
            Query::Manifold => {
                let pos12 = p1.inv_mul(p2);
                DefaultQueryDispatcher
                    .contact_manifolds(&pos12, g1, g2, 0.0, manifolds, workspace)
                    .expect("supported");
                black_box(&*manifolds);
            }
            Query::Intersection => {
                black_box(intersection_test(p1, g1, p2, g2).expect("supported"));
            }
            Query::Distance => {
                black_box(distance(p1, g1, p2, g2).expect("supported"));
            }
            Query::ClosestPoints => {
                black_box(closest_points(p1, g1, p2, g2, f32::MAX).expect("supported"));
            }
            Query::Penetration => {
                black_box(contact(p1, g1, p2, g2, 0.0).expect("supported"));
            }
            Query::TimeOfImpact => {
                let v2 = Vector::new(case.velocity_b.x, case.velocity_b.y);
                black_box(
                    cast_shapes(p1, &Vector::zeros(), g1, p2, &v2, g2, cast_options())
                        .expect("supported"),
                );
            }
        }
    }
}

/// One batch of queries, ready to run again and again.
type Runner<'a> = Box<dyn FnMut() + 'a>;

/// The runners of one query at one vertex count: ours, parry2d's generic functions, and at
/// the headline count parry2d's public API.
fn versus_runners<'a>(query: Query, inputs: &'a Inputs) -> Vec<(&'static str, Runner<'a>)> {
    let cases = query.cases(inputs);
    let set = &inputs.set;
    let mut runners: Vec<(&'static str, Runner<'a>)> = Vec::new();
    let ours = pairs(cases, set);
    runners.push((OURS, Box::new(move || run_ours(query, &ours, cases))));
    let mut manifold = ContactManifold::new();
    runners.push((
        PARRY,
        Box::new(move || run_parry_exact(query, set, cases, &mut manifold)),
    ));
    if inputs.n == HEADLINE_N && set.has_public() {
        let mut manifolds = Vec::new();
        let mut workspace = None;
        runners.push((
            PARRY_PUBLIC,
            Box::new(move || run_parry_public(query, set, cases, &mut manifolds, &mut workspace)),
        ));
    }
    runners
}

fn bench_versus(c: &mut Criterion, all: &[Inputs]) {
    for query in Query::ALL {
        let mut group = c.benchmark_group(query.group());
        for inputs in all {
            for (lib, mut run) in versus_runners(query, inputs) {
                // Our distance and closest points are the same GJK call: measured once.
                if lib == OURS && query == Query::ClosestPoints {
                    continue;
                }
                group.bench_function(BenchmarkId::new(lib, inputs.n), |b| b.iter(&mut run));
            }
        }
        group.finish();
    }
}

// ---------------------------------------------------------------------------------------
// Recording overhead: each algorithm untraced and traced into a fresh `Vec`, as the
// window records one run.

const ALGORITHMS: [&str; 6] = ["gjk", "epa", "sat", "clip", "sweep", "pair"];

/// Inputs of the recording benchmarks, built once.
struct RecordingInputs<'a> {
    mixed: Vec<ShapePair<'a>>,
    penetrating: Vec<ShapePair<'a>>,
    gjk_outputs: Vec<collision_lab::query::gjk::GjkOutput>,
    sat_normals: Vec<Vec2>,
    approaching: Vec<ShapePair<'a>>,
    motions: Vec<Motion>,
    bodies: Vec<(BodyRef<'a>, BodyRef<'a>)>,
}

impl<'a> RecordingInputs<'a> {
    fn new(inputs: &'a Inputs) -> Self {
        let set = &inputs.set;
        let penetrating = pairs(&inputs.penetrating, set);
        RecordingInputs {
            mixed: pairs(&inputs.mixed, set),
            gjk_outputs: penetrating
                .iter()
                .map(|p| gjk(p, &GjkConfig::default(), &mut ()))
                .collect(),
            sat_normals: penetrating.iter().map(|p| sat(p, &mut ()).normal).collect(),
            penetrating,
            approaching: pairs(&inputs.approaching, set),
            motions: inputs
                .approaching
                .iter()
                .map(|c| Motion {
                    velocity_a: Vec2::ZERO,
                    velocity_b: c.velocity_b,
                    t_max: 1.0,
                })
                .collect(),
            bodies: inputs
                .mixed
                .iter()
                .map(|c| {
                    (
                        BodyRef {
                            shape: &set.ours[c.a],
                            pose: c.pose_a,
                            velocity: Some(Vec2::ZERO),
                        },
                        BodyRef {
                            shape: &set.ours[c.b],
                            pose: c.pose_b,
                            velocity: Some(c.velocity_b),
                        },
                    )
                })
                .collect(),
        }
    }

    /// Runs `algorithm` over its cases, recording into a fresh `Vec` per call when `traced`.
    fn run(&self, algorithm: &str, traced: bool) {
        let gjk_config = GjkConfig::default();
        let epa_config = EpaConfig::default();
        let settings = PairSettings::default();
        macro_rules! run {
            ($call:expr) => {
                if traced {
                    let mut steps = Vec::new();
                    black_box($call(&mut steps));
                    black_box(steps);
                } else {
                    black_box($call(&mut ()));
                }
            };
        }
        match algorithm {
            "gjk" => {
                for pair in &self.mixed {
                    run!(|t| gjk(black_box(pair), &gjk_config, t));
                }
            }
            "epa" => {
                for (pair, g) in self.penetrating.iter().zip(&self.gjk_outputs) {
                    run!(|t| epa(black_box(pair), g, &epa_config, t));
                }
            }
            "sat" => {
                for pair in &self.mixed {
                    run!(|t| sat(black_box(pair), t));
                }
            }
            "clip" => {
                for (pair, normal) in self.penetrating.iter().zip(&self.sat_normals) {
                    run!(|t| clip(black_box(pair), *normal, t));
                }
            }
            "sweep" => {
                for (pair, motion) in self.approaching.iter().zip(&self.motions) {
                    run!(|t| sweep(black_box(pair), motion, t));
                }
            }
            "pair" => {
                for (a, b) in &self.bodies {
                    if traced {
                        black_box(trace_pair(black_box(a), b, &settings));
                    } else {
                        black_box(query_pair(black_box(a), b, &settings));
                    }
                }
            }
            other => panic!("no algorithm {other}"),
        }
    }
}

fn bench_recording(c: &mut Criterion, recording: &RecordingInputs) {
    let mut group = c.benchmark_group("recording");
    for algorithm in ALGORITHMS {
        for traced in [false, true] {
            let mode = if traced { "traced" } else { "untraced" };
            group.bench_function(BenchmarkId::new(algorithm, mode), |b| {
                b.iter(|| recording.run(algorithm, traced))
            });
        }
    }
    group.finish();
}

// ---------------------------------------------------------------------------------------
// The window's per-frame work without drawing: every algorithm recorded for the focused
// pair, the Minkowski outline, the overlay geometry (each body's outline in the world), and
// every pair's results.

struct Body {
    shape: Shape,
    pose: Pose,
    velocity: Option<Vec2>,
}

impl Body {
    fn body_ref(&self) -> BodyRef<'_> {
        BodyRef {
            shape: &self.shape,
            pose: self.pose,
            velocity: self.velocity,
        }
    }
}

/// A welcome-like scene: one of each kind of shape, the focused pair overlapping, one body
/// moving.
fn welcome_scene() -> Vec<Body> {
    let body = |shape: Shape, x: f32, y: f32, degrees: f32, velocity: Option<Vec2>| Body {
        shape,
        pose: Pose::new(Vec2::new(x, y), degrees.to_radians()),
        velocity,
    };
    vec![
        body(
            Shape::rect(Vec2::new(1.5, 1.0)).unwrap(),
            0.0,
            0.0,
            0.0,
            None,
        ),
        body(
            Shape::regular(5, 1.2).unwrap(),
            2.0,
            0.8,
            20.0,
            Some(Vec2::new(-1.0, 0.0)),
        ),
        body(Shape::circle(0.8).unwrap(), -3.0, 2.0, 0.0, None),
        body(
            Shape::capsule(1.0, 0.4).unwrap(),
            3.5,
            -2.0,
            35.0,
            Some(Vec2::new(0.0, 1.0)),
        ),
        body(
            Shape::polygon(vec![
                Vec2::new(-1.0, -0.6),
                Vec2::new(1.2, -0.4),
                Vec2::new(0.0, 1.1),
            ])
            .unwrap(),
            -2.5,
            -2.0,
            -10.0,
            None,
        ),
        body(Shape::regular(8, 1.0).unwrap(), 5.0, 2.0, 0.0, None),
    ]
}

/// 100 bodies of every kind on a jittered 10 x 10 grid with spacing 2.2 (neighbours often
/// overlap), a third of them moving.
fn crowd_scene() -> Vec<Body> {
    let mut rng = SplitMix64(SEED ^ 100);
    (0..100)
        .map(|k| {
            let shape = match k % 5 {
                0 => Shape::rect(Vec2::new(rng.range(0.4, 1.2), rng.range(0.4, 1.2))).unwrap(),
                1 => Shape::circle(rng.range(0.4, 1.2)).unwrap(),
                2 => Shape::capsule(rng.range(0.3, 0.9), rng.range(0.2, 0.5)).unwrap(),
                3 => Shape::regular(3 + rng.below(6) as u32, rng.range(0.5, 1.2)).unwrap(),
                _ => {
                    let n = 4 + rng.below(12);
                    Shape::polygon(random_convex_polygon(&mut rng, n)).unwrap()
                }
            };
            let position = Vec2::new(
                (k % 10) as f32 * 2.2 + rng.range(-0.5, 0.5),
                (k / 10) as f32 * 2.2 + rng.range(-0.5, 0.5),
            );
            let velocity =
                (k % 3 == 0).then(|| Vec2::from_angle(rng.range(0.0, TAU)) * rng.range(0.5, 2.0));
            Body {
                shape,
                pose: Pose::new(position, rng.range(-3.0, 3.0)),
                velocity,
            }
        })
        .collect()
}

/// One frame's work; returns something that depends on all of it.
fn frame(bodies: &[Body], focus: (usize, usize), settings: &PairSettings) -> usize {
    let (a, b) = (bodies[focus.0].body_ref(), bodies[focus.1].body_ref());
    let (_, trace) = trace_pair(&a, &b, settings);
    let pair = ShapePair::new(a.shape, a.pose, b.shape, b.pose);
    let minkowski = minkowski_difference(&pair);
    let mut total =
        trace.gjk.len() + trace.epa.len() + trace.sat.len() + trace.clip.len() + trace.sweep.len();
    total += minkowski.outline.len();
    for body in bodies {
        let outline: Vec<Vec2> = body
            .shape
            .outline(64)
            .into_iter()
            .map(|p| body.pose.transform_point(p))
            .collect();
        total += black_box(outline).len();
    }
    for i in 0..bodies.len() {
        for j in i + 1..bodies.len() {
            let q = query_pair(&bodies[i].body_ref(), &bodies[j].body_ref(), settings);
            total += usize::from(black_box(q).intersecting);
        }
    }
    total
}

fn bench_frame(c: &mut Criterion) {
    let settings = PairSettings::default();
    let mut group = c.benchmark_group("frame");
    let welcome = welcome_scene();
    group.bench_function("welcome", |b| {
        b.iter(|| frame(black_box(&welcome), (0, 1), &settings))
    });
    let crowd = crowd_scene();
    group.bench_function("bodies_100", |b| {
        b.iter(|| frame(black_box(&crowd), (0, 1), &settings))
    });
    group.finish();
}

// ---------------------------------------------------------------------------------------
// The table. Criterion measures each benchmark on its own, one after the other; on a
// shared machine the load changes between them, which moves a ratio of two separate
// measurements. So the table comes from a paired measurement: the runners of one row take
// turns, round after round, and each ratio is the median over rounds of the ratio within a
// round.

/// Interleaved timings of several runners.
struct Paired {
    /// Median nanoseconds per batch, per runner.
    medians: Vec<f64>,
    /// Median over rounds of `time[0] / time[k]`, for k >= 1 (index k - 1).
    ratios: Vec<f64>,
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let m = values.len() / 2;
    if values.len() % 2 == 1 {
        values[m]
    } else {
        0.5 * (values[m - 1] + values[m])
    }
}

/// Samples of at least this long (several batches when one batch is shorter).
const SAMPLE_NS: u128 = 200_000;

fn measure_paired(runners: &mut [&mut dyn FnMut()], budget: Duration, min_rounds: usize) -> Paired {
    let reps: Vec<u32> = runners
        .iter_mut()
        .map(|run| {
            run(); // warm the caches
            let start = Instant::now();
            run();
            let once = start.elapsed().as_nanos().max(1);
            (SAMPLE_NS / once).clamp(1, 100_000) as u32
        })
        .collect();
    let mut samples = vec![Vec::new(); runners.len()];
    let start = Instant::now();
    let mut round = 0;
    while round < min_rounds || (start.elapsed() < budget && round < 1000) {
        for j in 0..runners.len() {
            // Rotate who goes first, so no runner always follows the same one.
            let k = (j + round) % runners.len();
            let t = Instant::now();
            for _ in 0..reps[k] {
                runners[k]();
            }
            samples[k].push(t.elapsed().as_nanos() as f64 / reps[k] as f64);
        }
        round += 1;
    }
    let ratios = (1..runners.len())
        .map(|k| {
            median(
                samples[0]
                    .iter()
                    .zip(&samples[k])
                    .map(|(a, b)| a / b)
                    .collect(),
            )
        })
        .collect();
    Paired {
        medians: samples.into_iter().map(median).collect(),
        ratios,
    }
}

fn format_ns(ns: Option<f64>) -> String {
    match ns {
        None => "-".into(),
        Some(t) if t >= 1.0e6 => format!("{:.2} ms", t / 1.0e6),
        Some(t) if t >= 1.0e4 => format!("{:.1} us", t / 1.0e3),
        Some(t) if t >= 1.0e3 => format!("{:.2} us", t / 1.0e3),
        Some(t) => format!("{t:.0} ns"),
    }
}

fn format_ratio(r: Option<f64>) -> String {
    r.map_or("-".into(), |r| format!("{r:.2}"))
}

fn optional(x: Option<f64>) -> String {
    x.map_or(String::new(), |x| format!("{x:.4}"))
}

/// One row of the comparison: medians per query in nanoseconds.
struct Row {
    query: Query,
    n: usize,
    ours: f64,
    parry: f64,
    ratio: f64,
    public: Option<f64>,
    ratio_public: Option<f64>,
}

/// Where the CSV and Markdown copies of the table go: next to criterion's output.
fn report_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    // Benchmarks run with the package root as the working directory.
    PathBuf::from("target").join("criterion")
}

fn machine() -> String {
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    format!("{model}, {cpus} logical CPUs, {}", std::env::consts::OS)
}

fn table(all: &[Inputs], recording: &RecordingInputs, quick: bool) {
    let budget = if quick {
        Duration::ZERO
    } else {
        Duration::from_millis(400)
    };
    let min_rounds = if quick { 1 } else { 15 };
    let per_query = CASES as f64;
    let mut rows = Vec::new();
    eprintln!("\nPaired measurement for the table ...");
    for query in Query::ALL {
        for inputs in all {
            let mut runners = versus_runners(query, inputs);
            let mut refs: Vec<&mut dyn FnMut()> = runners
                .iter_mut()
                .map(|(_, r)| &mut **r as &mut dyn FnMut())
                .collect();
            let p = measure_paired(&mut refs, budget, min_rounds);
            let public = (p.medians.len() > 2).then(|| p.medians[2] / per_query);
            rows.push(Row {
                query,
                n: inputs.n,
                ours: p.medians[0] / per_query,
                parry: p.medians[1] / per_query,
                ratio: p.ratios[0],
                public,
                ratio_public: public.map(|_| p.ratios[1]),
            });
        }
    }
    let find = |q: Query, n: usize| rows.iter().find(|r| r.query == q && r.n == n);

    let mut out = String::new();
    let now = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or("unknown date".into(), |d| d.trim().to_string());
    out.push_str(&format!("\nMeasured {now} on {}.\n", machine()));
    out.push_str(&format!(
        "Median cost of one query over {CASES} fixed-seed cases; ratio = collision-lab / parry2d, the median of per-round ratios of interleaved runs.\n"
    ));
    out.push_str(&format!(
        "\n### Targets at n = {HEADLINE_N} (against parry2d's public API on its ConvexPolygon)\n\n"
    ));
    out.push_str("| query | collision-lab | parry2d | ratio | target | met | ratio vs parry2d generic |\n|---|---:|---:|---:|---:|:---:|---:|\n");
    for q in Query::ALL {
        let Some(r) = find(q, HEADLINE_N) else {
            continue;
        };
        let met = r
            .ratio_public
            .map_or("-", |x| if x <= q.target() { "yes" } else { "NO" });
        out.push_str(&format!(
            "| {} | {} | {} | {} | <= {} | {} | {} |\n",
            q.title(),
            format_ns(Some(r.ours)),
            format_ns(r.public),
            format_ratio(r.ratio_public),
            q.target(),
            met,
            format_ratio(Some(r.ratio)),
        ));
    }
    out.push_str("\n### Every vertex count (parry2d's generic functions on polygons that keep every vertex)\n\n");
    out.push_str("| query | n | collision-lab | parry2d | ratio |\n|---|---:|---:|---:|---:|\n");
    let mut csv =
        String::from("query,n,collision_lab_ns,parry2d_ns,ratio,parry2d_public_ns,ratio_public\n");
    for r in &rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            r.query.group(),
            r.n,
            format_ns(Some(r.ours)),
            format_ns(Some(r.parry)),
            format_ratio(Some(r.ratio))
        ));
        csv.push_str(&format!(
            "{},{},{:.2},{:.2},{:.4},{},{}\n",
            r.query.group(),
            r.n,
            r.ours,
            r.parry,
            r.ratio,
            optional(r.public),
            optional(r.ratio_public)
        ));
    }
    out.push_str("\n### Growth: cost at n = 1024 / cost at n = 8\n\n");
    out.push_str("| query | collision-lab | parry2d | target (collision-lab) | met |\n|---|---:|---:|---:|:---:|\n");
    for (q, target) in [
        (Query::Distance, Some(10.0)),
        (Query::Manifold, Some(300.0)),
        (Query::Intersection, None),
        (Query::Penetration, None),
        (Query::TimeOfImpact, None),
    ] {
        let (Some(big), Some(small)) = (find(q, 1024), find(q, 8)) else {
            continue;
        };
        let ours = big.ours / small.ours;
        let theirs = big.parry / small.parry;
        let met = target.map_or("-", |t| if ours <= t { "yes" } else { "NO" });
        out.push_str(&format!(
            "| {} | {:.1} | {:.1} | {} | {} |\n",
            q.group(),
            ours,
            theirs,
            target.map_or("-".into(), |t: f64| format!("<= {t}")),
            met
        ));
        csv.push_str(&format!(
            "growth-{},1024,{ours:.4},{theirs:.4},,,\n",
            q.group()
        ));
    }
    out.push_str(&format!(
        "\n### Recording overhead at n = {HEADLINE_N} (each call records into a fresh Vec; target traced / untraced <= 4)\n\n"
    ));
    out.push_str(
        "| algorithm | untraced | traced | traced / untraced | met |\n|---|---:|---:|---:|:---:|\n",
    );
    for algorithm in ALGORITHMS {
        let mut untraced = || recording.run(algorithm, false);
        let mut traced = || recording.run(algorithm, true);
        let p = measure_paired(&mut [&mut traced, &mut untraced], budget, min_rounds);
        let ratio = p.ratios[0];
        out.push_str(&format!(
            "| {} | {} | {} | {:.2} | {} |\n",
            algorithm,
            format_ns(Some(p.medians[1] / per_query)),
            format_ns(Some(p.medians[0] / per_query)),
            ratio,
            if ratio <= 4.0 { "yes" } else { "NO" }
        ));
        csv.push_str(&format!(
            "recording-{algorithm},{HEADLINE_N},{:.2},{:.2},{ratio:.4},,\n",
            p.medians[1] / per_query,
            p.medians[0] / per_query
        ));
    }
    out.push_str("\n### The window's frame without drawing\n\n");
    out.push_str("| scene | bodies | pairs | frame (median) |\n|---|---:|---:|---:|\n");
    let settings = PairSettings::default();
    for (name, scene) in [("welcome", welcome_scene()), ("bodies_100", crowd_scene())] {
        let mut run = || {
            black_box(frame(black_box(&scene), (0, 1), &settings));
        };
        let p = measure_paired(&mut [&mut run], budget, min_rounds);
        let n = scene.len();
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            name,
            n,
            n * (n - 1) / 2,
            format_ns(Some(p.medians[0]))
        ));
        csv.push_str(&format!("frame-{name},{n},{:.2},,,,\n", p.medians[0]));
    }
    println!("{out}");
    let dir = report_dir();
    let (csv_path, md_path) = (dir.join("versus_parry.csv"), dir.join("versus_parry.md"));
    if std::fs::create_dir_all(&dir).is_ok()
        && std::fs::write(&csv_path, csv).is_ok()
        && std::fs::write(&md_path, out).is_ok()
    {
        println!("written: {} and {}", csv_path.display(), md_path.display());
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--test");
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_millis(1500))
        .sample_size(30)
        .without_plots()
        .configure_from_args();
    // `VERSUS_PARRY_N=8,1024` limits the vertex counts, for quick looks while optimizing.
    let only: Option<Vec<usize>> = std::env::var("VERSUS_PARRY_N").ok().map(|list| {
        list.split(',')
            .filter_map(|n| n.trim().parse().ok())
            .collect()
    });
    let all: Vec<Inputs> = VERTEX_COUNTS
        .iter()
        .filter(|n| only.as_ref().is_none_or(|only| only.contains(n)) || **n == HEADLINE_N)
        .map(|&n| Inputs::new(n))
        .collect();
    for inputs in &all {
        check_agreement(inputs);
    }
    let headline = all
        .iter()
        .find(|i| i.n == HEADLINE_N)
        .expect("headline inputs");
    let recording = RecordingInputs::new(headline);
    bench_versus(&mut criterion, &all);
    bench_recording(&mut criterion, &recording);
    bench_frame(&mut criterion);
    criterion.final_summary();
    table(&all, &recording, quick);
}
