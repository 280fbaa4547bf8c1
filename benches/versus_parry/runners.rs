//! The queries, one function per library and query, each over a batch of cases.

use crate::agreement::cast_options;
use crate::box2d::{self, BoxPlacement};
use crate::inputs::{Case, Inputs, PolygonSet};
use crate::{BOX2D, HEADLINE_N, OURS, PARRY, PARRY_PUBLIC};
use collision_lab::query::clip::clip_after_sat;
use collision_lab::query::epa::{epa, EpaConfig};
use collision_lab::query::gjk::{gjk, gjk_intersects, GjkConfig};
use collision_lab::query::sat::sat;
use collision_lab::query::sweep::{time_of_impact, Motion};
use collision_lab::query::ShapePair;
use criterion::{BenchmarkId, Criterion};
use glam::Vec2;
use parry2d::math::Vector;
use parry2d::query::details::{
    cast_shapes_support_map_support_map, closest_points_support_map_support_map,
    contact_manifold_pfm_pfm, contact_support_map_support_map, distance_support_map_support_map,
    intersection_test_support_map_support_map,
};
use parry2d::query::{
    cast_shapes, closest_points, contact, distance, intersection_test, ContactManifold,
    ContactManifoldsWorkspace, DefaultQueryDispatcher, PersistentQueryDispatcher,
};
use std::hint::black_box;

/// The query kinds of the comparison, in table order, with the cases each runs on.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Query {
    Manifold,
    Intersection,
    Distance,
    ClosestPoints,
    Penetration,
    TimeOfImpact,
}

impl Query {
    pub const ALL: [Query; 6] = [
        Query::Manifold,
        Query::Intersection,
        Query::Distance,
        Query::ClosestPoints,
        Query::Penetration,
        Query::TimeOfImpact,
    ];

    /// Criterion group name.
    pub fn group(self) -> &'static str {
        match self {
            Query::Manifold => "manifold",
            Query::Intersection => "intersection",
            Query::Distance => "distance",
            Query::ClosestPoints => "closest_points",
            Query::Penetration => "penetration",
            Query::TimeOfImpact => "time_of_impact",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Query::Manifold => "contact manifold (SAT + clip vs contact_manifolds)",
            Query::Intersection => "intersection test (GJK boolean vs intersection_test)",
            Query::Distance => "distance (GJK vs distance)",
            Query::ClosestPoints => "closest points (GJK vs closest_points)",
            Query::Penetration => "penetration (GJK + EPA vs contact)",
            Query::TimeOfImpact => "time of impact (swept SAT vs cast_shapes)",
        }
    }

    /// What Box2D runs for this query, if it has one.
    pub fn box2d_title(self) -> Option<&'static str> {
        match self {
            Query::Manifold => Some("contact manifold (SAT + clip vs b2CollidePolygons)"),
            Query::Intersection => Some("intersection test (GJK boolean vs b2ShapeDistance)"),
            Query::Distance => Some("distance (GJK vs b2ShapeDistance, cache zeroed)"),
            Query::ClosestPoints | Query::Penetration => None,
            Query::TimeOfImpact => Some("time of impact (swept SAT vs b2ShapeCast)"),
        }
    }

    /// The largest acceptable ratio ours / parry2d at the headline vertex count.
    pub fn target(self) -> f64 {
        match self {
            Query::Manifold => 0.5,
            _ => 1.0,
        }
    }

    /// The largest acceptable ratio ours / Box2D.
    pub fn box2d_target(self) -> f64 {
        1.0
    }

    pub fn cases(self, inputs: &Inputs) -> &[Case] {
        match self {
            Query::Manifold | Query::Penetration => &inputs.penetrating,
            Query::Intersection => &inputs.mixed,
            Query::Distance | Query::ClosestPoints => &inputs.separated,
            Query::TimeOfImpact => &inputs.approaching,
        }
    }
}

/// Marks a query's result as used, in place: `black_box(&result)`, not `black_box(result)`,
/// which moved every result into a fresh slot right after the library had written it
/// field by field (for our GJK a 152-byte `memcpy` call each query), the wide loads of the
/// copy waiting for the narrow stores to reach the cache. The same for every library.
#[inline(always)]
fn keep<T>(result: T) {
    black_box(&result);
}

/// Pairs built outside the timed loop, as parry2d's isometries are: both libraries get
/// their placements with sine and cosine already taken.
pub fn pairs<'s>(cases: &[Case], set: &'s PolygonSet) -> Vec<ShapePair<'s>> {
    cases.iter().map(|c| c.pair(set)).collect()
}

fn run_ours(query: Query, pairs: &[ShapePair], cases: &[Case]) {
    let gjk_config = GjkConfig::default();
    let epa_config = EpaConfig::default();
    match query {
        Query::Manifold => {
            for pair in pairs {
                let s = sat(black_box(pair), &mut ());
                keep(clip_after_sat(pair, &s, &mut ()));
            }
        }
        Query::Intersection => {
            for pair in pairs {
                keep(gjk_intersects(black_box(pair), &gjk_config));
            }
        }
        // One GJK run gives both the distance and the closest points.
        Query::Distance | Query::ClosestPoints => {
            for pair in pairs {
                keep(gjk(black_box(pair), &gjk_config, &mut ()));
            }
        }
        Query::Penetration => {
            for pair in pairs {
                let g = gjk(black_box(pair), &gjk_config, &mut ());
                keep(epa(pair, &g, &epa_config, &mut ()));
            }
        }
        Query::TimeOfImpact => {
            for (pair, case) in pairs.iter().zip(cases) {
                let motion = Motion {
                    velocity_a: Vec2::ZERO,
                    velocity_b: case.velocity_b,
                    t_max: 1.0,
                };
                // cast_shapes answers the time, normal and witness points, not a manifold:
                // compare like with like.
                keep(time_of_impact(black_box(pair), &motion, &mut ()));
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
                keep(intersection_test_support_map_support_map(&pos12, g1, g2));
            }
            Query::Distance => {
                keep(distance_support_map_support_map(&pos12, g1, g2));
            }
            Query::ClosestPoints => {
                keep(closest_points_support_map_support_map(
                    &pos12,
                    g1,
                    g2,
                    f32::MAX,
                ));
            }
            Query::Penetration => {
                keep(contact_support_map_support_map(&pos12, g1, g2, 0.0));
            }
            Query::TimeOfImpact => {
                keep(cast_shapes_support_map_support_map(
                    &pos12,
                    case.vel12(),
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
                keep(intersection_test(p1, g1, p2, g2).expect("supported"));
            }
            Query::Distance => {
                keep(distance(p1, g1, p2, g2).expect("supported"));
            }
            Query::ClosestPoints => {
                keep(closest_points(p1, g1, p2, g2, f32::MAX).expect("supported"));
            }
            Query::Penetration => {
                keep(contact(p1, g1, p2, g2, 0.0).expect("supported"));
            }
            Query::TimeOfImpact => {
                let v2 = Vector::new(case.velocity_b.x, case.velocity_b.y);
                keep(
                    cast_shapes(p1, Vector::ZERO, g1, p2, v2, g2, cast_options())
                        .expect("supported"),
                );
            }
        }
    }
}

/// Box2D's C functions on its own polygons, placements built outside the loop.
fn run_box2d(query: Query, set: &PolygonSet, cases: &[Case], placements: &[BoxPlacement]) {
    for (case, placement) in black_box(cases).iter().zip(placements) {
        let (a, b) = (set.box2d(case.a), set.box2d(case.b));
        match query {
            Query::Manifold => {
                keep(box2d::collide(a, b, black_box(placement)));
            }
            Query::Intersection | Query::Distance | Query::ClosestPoints => {
                keep(box2d::distance(a, b, black_box(placement)));
            }
            Query::TimeOfImpact => {
                keep(box2d::cast(a, b, black_box(placement)));
            }
            Query::Penetration => unreachable!("Box2D has no penetration query"),
        }
    }
}

/// One batch of queries, ready to run again and again.
pub type Runner<'a> = Box<dyn FnMut() + 'a>;

/// The runners of one query on one input set: ours, parry2d's generic functions, up to the
/// headline count parry2d's public API, and Box2D where the polygons fit and it has the query.
pub fn versus_runners<'a>(query: Query, inputs: &'a Inputs) -> Vec<(&'static str, Runner<'a>)> {
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
    if inputs.n <= HEADLINE_N && set.has_public() {
        let mut manifolds = Vec::new();
        let mut workspace = None;
        runners.push((
            PARRY_PUBLIC,
            Box::new(move || run_parry_public(query, set, cases, &mut manifolds, &mut workspace)),
        ));
    }
    if set.has_box2d() && query.box2d_title().is_some() {
        let placements: Vec<BoxPlacement> = cases.iter().map(Case::box2d_placement).collect();
        runners.push((
            BOX2D,
            Box::new(move || run_box2d(query, set, cases, &placements)),
        ));
    }
    runners
}

pub fn bench_versus(c: &mut Criterion, all: &[Inputs]) {
    for query in Query::ALL {
        let mut group = c.benchmark_group(query.group());
        for inputs in all {
            for (lib, mut run) in versus_runners(query, inputs) {
                // Our distance and closest points are the same GJK call: measured once.
                if lib == OURS && query == Query::ClosestPoints {
                    continue;
                }
                group.bench_function(BenchmarkId::new(lib, &inputs.label), |b| b.iter(&mut run));
            }
        }
        group.finish();
    }
}

/// The manifold's two halves on their own, for `VERSUS_PARRY_MIN` (not in the tables):
/// `sat` (SAT alone) and `clip` (the clip after SAT answers computed beforehand), each free
/// to overlap consecutive queries; their sum against the whole query shows how much the
/// clip waiting on SAT costs.
pub fn manifold_part_runners(inputs: &Inputs) -> Vec<(&'static str, Runner<'_>)> {
    let cases = Query::Manifold.cases(inputs);
    let set = &inputs.set;
    let sat_pairs = pairs(cases, set);
    let clip_pairs = pairs(cases, set);
    let answers: Vec<_> = clip_pairs.iter().map(|p| sat(p, &mut ())).collect();
    vec![
        (
            "sat",
            Box::new(move || {
                for pair in &sat_pairs {
                    keep(sat(black_box(pair), &mut ()));
                }
            }) as Runner<'_>,
        ),
        (
            "clip",
            Box::new(move || {
                for (pair, s) in clip_pairs.iter().zip(&answers) {
                    keep(clip_after_sat(black_box(pair), black_box(s), &mut ()));
                }
            }),
        ),
    ]
}
