//! The agreement harness: every untraced fast path against its algorithm's reference, bit
//! for bit, on one shared set of cases.
//!
//! Each algorithm has one reference implementation (the textbook loop the window, `trace`
//! and the goldens show); a fast path is only worth keeping if it gives the reference's
//! answer exactly, to the last bit of every number, the counts and the statuses. This file
//! is the one list of fast paths: [`FAST_PATHS_2D`] and [`FAST_PATHS_3D`]. Adding a fast
//! path means adding a line there; the test fails for a path that no case reaches, so a
//! line cannot sit there unchecked.
//!
//! The cases (`cases_2d`, `cases_3d`, in `agreement/cases.rs`) are the ones fast paths
//! get wrong when they are wrong: random poses; ties (unturned and quarter-turned bodies on
//! a grid, so faces lie flush, corners sit on side planes and edges run parallel) and turns
//! a hair off them; bodies resting face to face, touching at contact distance and a hair
//! either side of it, coincident, pulled in deep; a body against itself; slivers, outlines
//! with collinear or repeated points, bodies from a thousandth to ten thousand units across;
//! for the sweep, motions along the offset or an axis, with components of zero or nearly
//! zero, A moving too, and sweep times of 0 to 1e3; for the support look-ups, directions
//! that tie or nearly tie, tiny, huge and non-number ones; and everything again far from
//! the origin, where the work frame's rounding differs. A check may run several
//! directions on one case (the look-ups, the clip along directions that tie).
//!
//! Answers are compared through their `Debug` text, which prints every `f32` exactly (the
//! shortest text that reads back to the same bits, `-0.0` included).

mod cases;

use crate::geom::Shape;
use crate::query::sat::{AxisSource, SatOutput};
use crate::query::{Body, ShapePair};
use crate::query3::PolyPair;
use cases::{cases_2d, cases_3d, shapes_2d, shapes_3d, Case2, Case3, Rng};
use glam::{Mat3A, Vec2, Vec3, Vec3A};
use std::fmt::Debug;

/// A fast path and its reference on one case: `None` when the fast path does not apply to
/// the case (the dispatcher would not take it), else both answers as `Debug` text.
type Check2 = for<'s> fn(&Case2<'s>) -> Option<(String, String)>;
/// [`Check2`] for a 3D case.
type Check3 = for<'s> fn(&Case3<'s>) -> Option<(String, String)>;

/// Both answers as text, for a [`Check2`] or [`Check3`].
fn both<O: Debug>(fast: O, reference: O) -> Option<(String, String)> {
    Some((format!("{fast:?}"), format!("{reference:?}")))
}

/// Every 2D fast path: its name and its check.
pub(crate) const FAST_PATHS_2D: &[(&str, Check2)] = &[
    (
        "support: a small core's look-up (fixed arrays, a tournament) against the scan",
        |c| {
            let small: Vec<&Shape> = [c.a, c.b]
                .into_iter()
                .filter(|s| s.small_support_vertex(Vec2::X).is_some())
                .collect();
            let looked_up = |s: &Shape, d: Vec2| (s.support_index(d), s.small_support_vertex(d));
            let scanned = |s: &Shape, d: Vec2| {
                let i = first_farthest(s.core(), d);
                (i, Some((i, s.core()[i])))
            };
            let (fast, reference): (Vec<_>, Vec<_>) = small
                .iter()
                .flat_map(|&s| support_directions_2d(c, s).map(move |d| (s, d)))
                .map(|(s, d)| (looked_up(s, d), scanned(s, d)))
                .unzip();
            (!small.is_empty()).then(|| both(fast, reference))?
        },
    ),
    (
        "support: B's small core moved into A's frame, looked up against a direction (as GJK \
         does) against the look-up along its opposite",
        |c| {
            let turn = c.pose_b.angle - c.pose_a.angle;
            let offset =
                Vec2::from_angle(-c.pose_a.angle).rotate(c.pose_b.position - c.pose_a.position);
            let moved = c.b.small_core_moved(Vec2::from_angle(turn), offset)?;
            let non_numbers = [
                Vec2::new(f32::INFINITY, 1.0),
                Vec2::new(f32::NAN, 1.0),
                Vec2::new(1.0, f32::NAN),
            ];
            let directions: Vec<Vec2> = support_directions_2d(c, c.b).chain(non_numbers).collect();
            let fast = directions.iter().map(|&d| moved.support_vertex_opposite(d));
            let reference = directions.iter().map(|&d| moved.support_vertex(-d));
            both(fast.collect::<Vec<_>>(), reference.collect())
        },
    ),
    (
        "gjk: the boolean test (gjk_intersects) against gjk's verdict",
        |c| {
            use crate::query::gjk::{gjk, gjk_intersects, GjkConfig};
            let pair = c.pair();
            let config = GjkConfig::default();
            both(
                gjk_intersects(&pair, &config),
                gjk(&pair, &config, &mut ()).intersecting,
            )
        },
    ),
    (
        "epa: the untraced run on a small polytope first, against the full-size run the window \
         records",
        |c| {
            use crate::query::epa::{epa, EpaConfig};
            let pair = c.pair();
            let g = crate::query::gjk::gjk_distance(&pair);
            let config = EpaConfig::default();
            let mut steps = Vec::new();
            g.intersecting.then(|| {
                both(
                    epa(&pair, &g, &config, &mut ()),
                    epa(&pair, &g, &config, &mut steps),
                )
            })?
        },
    ),
    ("sat: the untraced dispatcher (sat_test)", |c| {
        use crate::query::sat::{reference, sat_test};
        let pair = c.pair();
        numbers(c).then(|| both(sat_test(&pair), reference::sat(&pair, &mut ())))?
    }),
    (
        "sat: small polygons, every edge axis at once in lanes (small.rs)",
        |c| {
            use crate::query::sat::{reference, small};
            let pair = c.pair();
            let small_enough = pair.a.vertex_count() <= 16 && pair.b.vertex_count() <= 16;
            (numbers(c) && pair.edge_normals_suffice() && small_enough)
                .then(|| both(small::sat_small(&pair), reference::sat(&pair, &mut ())))?
        },
    ),
    (
        "sat: the small pass in vector registers, as the processor runs it (registers.rs)",
        |c| {
            use crate::query::sat::{reference, registers};
            let pair = c.pair();
            (numbers(c) && pair.edge_normals_suffice() && registers::applies(&pair))
                .then(|| both(registers::sat_small(&pair), reference::sat(&pair, &mut ())))?
        },
    ),
    (
        "sat: the small pass in vector registers, as the x86_64 baseline runs it",
        |c| {
            use crate::query::sat::{reference, registers};
            use crate::simd::Build;
            let pair = c.pair();
            (numbers(c) && pair.edge_normals_suffice() && registers::applies(&pair)).then(|| {
                both(
                    registers::sat_small_in(&pair, Build::Baseline),
                    reference::sat(&pair, &mut ()),
                )
            })?
        },
    ),
    ("sat: the rotating calipers' lean pass (calipers.rs)", |c| {
        use crate::query::sat::{calipers, reference};
        let pair = c.pair();
        // Small cores are projected whole by the reference (and the other passes): the
        // calipers' walk rounds their projections differently, so it is only for cores
        // past 16 vertices, as the dispatcher takes it.
        let large = pair.a.vertex_count() > 16 || pair.b.vertex_count() > 16;
        (numbers(c) && pair.edge_normals_suffice() && large)
            .then(|| both(calipers::sat_large(&pair), reference::sat(&pair, &mut ())))?
    }),
    (
        "clip: each best side without the walk (lone_side.rs), along SAT's normal, against \
         the traced reference: level contacts (two points at one depth)",
        |c| clip_along_sat(c, true),
    ),
    (
        "clip: each best side without the walk (lone_side.rs), along SAT's normal, against \
         the traced reference: the other contacts",
        |c| clip_along_sat(c, false),
    ),
    (
        "clip: each best side without the walk (lone_side.rs), along directions that tie: an \
         edge's placed normal and its negation, the bisector of two neighbouring normals, an axis",
        |c| {
            use crate::query::clip::{contact_manifold, reference};
            let pair = c.pair();
            let directions = tie_directions_2d(&pair, c.index);
            let fast = directions.iter().map(|&d| contact_manifold(&pair, d));
            let reference = directions
                .iter()
                .map(|&d| reference::clip(&pair, d, &mut ()));
            both(fast.collect::<Vec<_>>(), reference.collect())
        },
    ),
    (
        "clip after SAT: SAT's winning edge handed over as its body's best side (handoff.rs)",
        |c| clip_after_sat(c, HandOver::Edge),
    ),
    (
        "clip after SAT: the face exactly opposite SAT's winning edge handed over (handoff.rs)",
        |c| clip_after_sat(c, HandOver::Opposite),
    ),
    (
        "clip after SAT: nothing handed over, both sides searched (handoff.rs)",
        |c| clip_after_sat(c, HandOver::Searched),
    ),
];

/// The untraced clip (`lone_side.rs`) along SAT's normal against the traced reference, on
/// the cases whose manifold is `level` (two points at one depth: flush faces, where the
/// sides tie) or not.
fn clip_along_sat(c: &Case2, level: bool) -> Option<(String, String)> {
    use crate::query::clip::{contact_manifold, reference};
    let pair = c.pair();
    let normal = crate::query::sat::sat_test(&pair).normal;
    let mut steps = Vec::new();
    let expected = reference::clip(&pair, normal, &mut steps);
    let flush = expected.count == 2 && expected.points[0].depth == expected.points[1].depth;
    (flush == level).then(|| both(contact_manifold(&pair, normal), expected))?
}

/// Whether both poses are numbers: the 2D SAT passes give the reference's answer for those
/// (with a NaN they end on the same NaN axis, but may count a different number of axes
/// tested; see `query/sat/mod.rs`).
fn numbers(c: &Case2) -> bool {
    let pose = |p: &crate::geom::Pose| p.position.is_finite() && p.angle.is_finite();
    pose(&c.pose_a) && pose(&c.pose_b)
}

/// The lowest index of the largest projection on `d`: a scan that keeps the first strictly
/// larger value (the support look-ups' tie rule).
fn first_farthest(core: &[Vec2], d: Vec2) -> usize {
    let mut best = 0;
    for (i, p) in core.iter().enumerate() {
        if p.dot(d) > core[best].dot(d) {
            best = i;
        }
    }
    best
}

/// Directions in `shape`'s frame for the 2D look-ups: its own edge normals (the two ends of
/// an edge tie along it), the axes and diagonals at lengths 1 and 1/2 (ties on boxes and
/// grids), zeros of either sign, tiny, subnormal and huge ones, and B's offset from A.
fn support_directions_2d<'c>(c: &'c Case2, shape: &'c Shape) -> impl Iterator<Item = Vec2> + 'c {
    let axes = (0..8).flat_map(|k| {
        let d = Vec2::from_angle(k as f32 * std::f32::consts::FRAC_PI_4).round();
        [d, 0.5 * d]
    });
    let odd = [
        Vec2::ZERO,
        Vec2::new(-0.0, 0.0),
        Vec2::new(0.0, -0.0),
        Vec2::new(1e-30, -1e-30),
        Vec2::new(1e-45, 0.0),
        Vec2::new(1e30, 1e30),
        Vec2::from_angle(c.index as f32 * 0.37),
        c.pose_b.position - c.pose_a.position,
    ];
    shape.normals().iter().copied().chain(axes).chain(odd)
}

/// World directions along which a side ties with another, for case `index`: an edge's
/// placed normal (as SAT hands it over) and its negation, the bisector of that normal and
/// the next (both edges at the vertex equally good), for an edge of A and one of B picked
/// by `index`, and an axis (ties on unturned bodies).
fn tie_directions_2d(pair: &ShapePair, index: usize) -> Vec<Vec2> {
    let mut directions = vec![[Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y][index % 4]];
    for (body, pick) in [(&pair.a, index / 4), (&pair.b, index / 16)] {
        let edges = body.shape.edge_count();
        if edges == 0 {
            continue;
        }
        let e = pick % edges;
        let (n, next) = (body.normal(e), body.normal((e + 1) % edges));
        directions.extend([n, -n, (n + next).normalize_or_zero()]);
    }
    directions.retain(|d| *d != Vec2::ZERO);
    directions
}

/// How the 2D clip after SAT takes its first side (see `query/clip/handoff.rs`).
#[derive(PartialEq)]
enum HandOver {
    /// SAT's winning edge is its body's best side, vouched for by the shape.
    Edge,
    /// The face whose normal is exactly the negation of the winning edge's.
    Opposite,
    /// Nothing handed over: both bodies' sides are searched.
    Searched,
}

/// Which [`HandOver`] the clip after SAT takes: the conditions of `handoff::handed_side`
/// (the shape vouches for the face with its `clear_faces` bit, and the face's placed
/// normal is SAT's direction to the bit).
fn hand_over(pair: &ShapePair, sat: &SatOutput) -> HandOver {
    let AxisSource::Edge { body, index } = sat.axis else {
        return HandOver::Searched;
    };
    let (placed, direction) = match body {
        Body::A => (&pair.a, sat.normal),
        Body::B => (&pair.b, -sat.normal),
    };
    let vouched = |face: usize| {
        face < 32
            && placed.shape.clear_faces() & (1 << face) != 0
            && placed.normal(face) == direction
    };
    let i = index as usize;
    match () {
        _ if i >= 32 => HandOver::Searched,
        _ if placed.normal(i) == direction => {
            if vouched(i) {
                HandOver::Edge
            } else {
                HandOver::Searched
            }
        }
        _ if vouched(placed.shape.opposite_face(i)) => HandOver::Opposite,
        _ => HandOver::Searched,
    }
}

/// The clip after SAT (untraced, `handoff.rs`) against the reference's clip along SAT's
/// normal, on the cases that take `family`.
fn clip_after_sat(c: &Case2, family: HandOver) -> Option<(String, String)> {
    use crate::query::clip::{handoff, reference};
    let pair = c.pair();
    let sat = crate::query::sat::sat_test(&pair);
    (hand_over(&pair, &sat) == family).then(|| {
        both(
            handoff::contact_manifold_after_sat(&pair, &sat),
            reference::clip(&pair, sat.normal, &mut ()),
        )
    })?
}

/// Every 3D fast path: its name and its check.
pub(crate) const FAST_PATHS_3D: &[(&str, Check3)] = &[
    ("support: the lane scan against the scan", |c| {
        let b = c.b;
        let fast = c.directions.iter().map(|&d| b.support_scan_lanes(d));
        both(
            fast.collect::<Vec<_>>(),
            c.directions.iter().map(|&d| b.support_scan(d)).collect(),
        )
    }),
    ("support: both ends in one pass against two searches", |c| {
        let b = c.b;
        let fast = c.directions.iter().map(|&d| b.support_pair(d));
        let two = c.directions.iter().map(|&d| (b.support(-d), b.support(d)));
        both(fast.collect::<Vec<_>>(), two.collect())
    }),
    (
        "support: the lane value against the support vertex's dot product (handed back only \
         for a zero or a non-number)",
        |c| {
            let b = c.b;
            (b.vertices().len() < crate::geom3::HILL_CLIMB_MIN_VERTICES).then_some(())?;
            let (fast, reference): (Vec<_>, Vec<_>) = c
                .directions
                .iter()
                .map(|&d| {
                    let scanned = b.vertex(b.support(d)).dot(d);
                    let handed_back = scanned == 0.0 || !scanned.is_finite();
                    let lanes = b.support_value_lanes(d);
                    (lanes.or(handed_back.then_some(scanned)), Some(scanned))
                })
                .unzip();
            both(fast, reference)
        },
    ),
    ("support: a cuboid's closed form against the scan", |c| {
        let b = c.b;
        let (fast, reference): (Vec<_>, Vec<_>) = c
            .directions
            .iter()
            .filter_map(|&d| {
                let found = b.cuboid_support(d)?;
                let scanned = b.support_scan(d);
                Some((found, (scanned, b.vertex(scanned))))
            })
            .unzip();
        (!fast.is_empty()).then(|| both(fast, reference))?
    }),
    (
        "support: a placed body's look-up (Placed3::support_vertex, a cuboid's in closed form) \
         against the search, placed as the search places it",
        |c| {
            use crate::query3::simplex::Support3;
            let pair = c.pair();
            let body = &pair.b;
            let frame = Mat3A::from_quat(body.rotation);
            // The directions as given (in the work frame) and turned by B (its own ties).
            let world: Vec<Vec3> = c
                .directions
                .iter()
                .flat_map(|&d| [d, body.rotation * d])
                .collect();
            let searched = |d: Vec3| {
                let j = body
                    .shape
                    .support(Vec3::from(frame.transpose() * Vec3A::from(d)));
                let placed = Vec3::from(frame * Vec3A::from(body.shape.vertex(j)));
                (j as u32, placed + body.translation)
            };
            let fast = world.iter().map(|&d| body.support_vertex(d));
            both(
                fast.collect::<Vec<_>>(),
                world.iter().map(|&d| searched(d)).collect(),
            )
        },
    ),
    (
        "gjk3: the boolean test (closed form, separating-axis exit) against gjk's verdict",
        |c| {
            use crate::query3::gjk::{gjk, gjk_intersects, Config};
            let pair = c.pair();
            let config = Config::default();
            both(
                gjk_intersects(&pair, &config),
                gjk(&pair, &config, &mut ()).intersecting,
            )
        },
    ),
    (
        "gjk3: the boolean loop alone (separating-axis exit) against gjk's verdict",
        |c| {
            use crate::query3::gjk::{gjk, intersects_by_loop, Config};
            let pair = c.pair();
            let config = Config::default();
            both(
                intersects_by_loop(&pair, &config),
                gjk(&pair, &config, &mut ()).intersecting,
            )
        },
    ),
    (
        "gjk3: two cuboids' closed-form verdict where it says apart (cuboid_verdict.rs)",
        |c| cuboid_verdict(c, false),
    ),
    (
        "gjk3: two cuboids' closed-form verdict where it says overlapping (cuboid_verdict.rs)",
        |c| cuboid_verdict(c, true),
    ),
    (
        "epa3: the untraced run on a small polytope first, against the full-size run the window \
         records",
        |c| {
            use crate::query3::epa::{epa, Config};
            let pair = c.pair();
            let g = crate::query3::gjk::gjk_distance(&pair);
            let config = Config::default();
            let mut steps = Vec::new();
            g.intersecting.then(|| {
                both(
                    epa(&pair, &g, &config, &mut ()),
                    epa(&pair, &g, &config, &mut steps),
                )
            })?
        },
    ),
    ("sat3: the untraced dispatcher (sat_test)", |c| {
        use crate::query3::sat::{reference, sat_test};
        let pair = c.pair();
        both(sat_test(&pair), reference::sat(&pair, &mut ()))
    }),
    (
        "sat3: two cuboids in closed form (cuboid.rs), a face axis winning",
        |c| sat3_cuboids(c, false),
    ),
    (
        "sat3: two cuboids in closed form (cuboid.rs), an edge axis winning",
        |c| sat3_cuboids(c, true),
    ),
    (
        "sat3: two small bodies, edge pairs in lanes (small.rs)",
        |c| {
            use crate::query3::sat::{reference, small};
            let pair = c.pair();
            (sat3_path(&pair) == Sat3Path::Small).then(|| {
                both(
                    small::sat(&pair, &mut |_, _| {}),
                    reference::sat(&pair, &mut ()),
                )
            })?
        },
    ),
    (
        "sat3: large bodies, edge pairs named by the arc tree (arc_tree.rs)",
        |c| {
            use crate::query3::sat::{arc_tree, reference};
            let pair = c.pair();
            (sat3_path(&pair) == Sat3Path::ArcTree)
                .then(|| both(arc_tree::sat(&pair), reference::sat(&pair, &mut ())))?
        },
    ),
    ("sat3: the untraced exhaustive loop (large.rs)", |c| {
        use crate::query3::sat::{large, reference};
        let pair = c.pair();
        // Every pair that is not two cuboids or two small bodies (whose reference places
        // edges as their own fast paths do), the arc tree's included.
        matches!(sat3_path(&pair), Sat3Path::ArcTree | Sat3Path::Large)
            .then(|| both(large::sat(&pair), reference::sat(&pair, &mut ())))?
    }),
    (
        "manifold3: SAT's winning face of two cuboids handed over (contact_manifold_after_sat, \
         and traced, manifold_after_sat's steps) against the search along SAT's normal",
        |c| {
            use crate::query3::manifold::{manifold, manifold_after_sat};
            let pair = c.pair();
            let sat = crate::query3::sat::sat_test(&pair);
            let cuboids =
                pair.a.shape.cuboid_edges().is_some() && pair.b.shape.cuboid_edges().is_some();
            (cuboids && sat.intersecting).then_some(())?;
            let (mut handed, mut searched) = (Vec::new(), Vec::new());
            let fast = (
                crate::query3::manifold::contact_manifold_after_sat(&pair, &sat),
                manifold_after_sat(&pair, &sat, &mut handed),
                handed,
            );
            let reference = manifold(&pair, sat.normal, &mut searched);
            both(fast, (reference, reference, searched))
        },
    ),
    (
        "sweep3: the untraced small-body path, as compiled (sweep/small.rs)",
        |c| sweep3_variant(c, crate::query3::sweep::Variant::Default),
    ),
    (
        "sweep3: the small-body path as the x86_64 baseline runs it",
        |c| sweep3_variant(c, crate::query3::sweep::Variant::Baseline),
    ),
    ("sweep3: the small-body path four lanes at a time", |c| {
        sweep3_variant(c, crate::query3::sweep::Variant::FourLanes)
    }),
    (
        "sweep3: the small-body path without the bound over whole arcs",
        |c| sweep3_variant(c, crate::query3::sweep::Variant::NoArcBound),
    ),
];

/// SAT on two cuboids in closed form against the reference, on the cases where an edge
/// axis wins (`edge`: the closed form's edge groups decide) or a face axis does.
fn sat3_cuboids(c: &Case3, edge: bool) -> Option<(String, String)> {
    use crate::query3::sat::{cuboid::CuboidPair, reference, AxisId};
    let pair = c.pair();
    let boxes = CuboidPair::new(&pair)?;
    let expected = reference::sat(&pair, &mut ());
    let edge_won = matches!(expected.axis, AxisId::Edges(..));
    (edge_won == edge).then(|| both(boxes.sat(&pair), expected))?
}

/// GJK's verdict on two cuboids in closed form (`query3/cuboid_verdict.rs`, through
/// `closed_form_verdict`) against the full run's, on the cases where it decides `verdict`.
fn cuboid_verdict(c: &Case3, verdict: bool) -> Option<(String, String)> {
    use crate::query3::gjk::{gjk, Config};
    use crate::query3::simplex::SupportPair3;
    let pair = c.pair();
    let decided = pair.closed_form_verdict()?;
    (decided == verdict).then(|| {
        both(
            decided,
            gjk(&pair, &Config::default(), &mut ()).intersecting,
        )
    })?
}

/// The untraced sweep in `variant` against the reference, for the pairs the dispatcher
/// sends down the small-body path (the others run the reference itself). The prunings leave
/// axes uncounted (the bound over whole arcs, edges of A whose axes it never forms), so
/// the count of axes tested is compared only without that bound. The other builds and
/// widths prune as the default does: their prunings are compared with the default's.
fn sweep3_variant(c: &Case3, variant: crate::query3::sweep::Variant) -> Option<(String, String)> {
    use crate::query3::sweep::{reference, small, time_of_impact_untraced, Variant};
    let pair = c.pair();
    small::Placement::new(&pair, c.motion.velocity_b - c.motion.velocity_a)?;
    let (mut fast, pruned) = time_of_impact_untraced(&pair, &c.motion, variant);
    let mut exact = reference::time_of_impact(&pair, &c.motion, &mut ());
    if variant != Variant::NoArcBound {
        (fast.axes_tested, exact.axes_tested) = (0, 0);
    }
    if matches!(variant, Variant::Baseline | Variant::FourLanes) {
        let (_, usual) = time_of_impact_untraced(&pair, &c.motion, Variant::Default);
        return both((fast, pruned), (exact, usual));
    }
    both(fast, exact)
}

/// Which of its fast paths the 3D SAT's untraced dispatcher takes for a pair: each is checked
/// where the dispatcher takes it (the reference reproduces each path's placement of the
/// bodies: two cuboids by their quaternions, two small bodies by the matrices).
#[derive(PartialEq)]
enum Sat3Path {
    Cuboids,
    Small,
    ArcTree,
    Large,
}

fn sat3_path(pair: &PolyPair) -> Sat3Path {
    use crate::query3::sat::{arc_tree, cuboid::CuboidPair, support};
    if CuboidPair::new(pair).is_some() {
        Sat3Path::Cuboids
    } else if support::is_small(&pair.a) && support::is_small(&pair.b) {
        Sat3Path::Small
    } else if arc_tree::uses_arc_tree(pair) {
        Sat3Path::ArcTree
    } else {
        Sat3Path::Large
    }
}

/// Runs every check on every case: a list of the disagreements and, for each fast path,
/// how many cases it applied to.
fn run<C, F: Fn(&C) -> Option<(String, String)>>(
    paths: &[(&str, F)],
    cases: &[C],
    label: impl Fn(&C) -> &str,
) -> (Vec<String>, Vec<(String, usize)>) {
    let mut disagreements = Vec::new();
    let mut reached = Vec::new();
    for (name, check) in paths {
        let mut applied = 0;
        for case in cases {
            if let Some((fast, reference)) = check(case) {
                applied += 1;
                if fast != reference && disagreements.len() < 20 {
                    disagreements.push(format!(
                        "{name}, {}:\n  fast      {fast}\n  reference {reference}",
                        label(case)
                    ));
                }
            }
        }
        eprintln!("{name}: {applied} of {} cases", cases.len());
        reached.push((name.to_string(), applied));
    }
    (disagreements, reached)
}

fn assert_agreement(disagreements: Vec<String>, reached: Vec<(String, usize)>) {
    let unreached: Vec<&String> = reached
        .iter()
        .filter(|(_, n)| *n == 0)
        .map(|(name, _)| name)
        .collect();
    assert!(
        unreached.is_empty(),
        "fast paths that no case reaches (add cases): {unreached:?}"
    );
    assert!(
        disagreements.is_empty(),
        "fast paths that differ from their reference:\n{}",
        disagreements.join("\n")
    );
}

#[test]
fn every_2d_fast_path_gives_its_references_answer_bit_for_bit() {
    let mut rng = Rng(35);
    let shapes = shapes_2d(&mut rng);
    let cases = cases_2d(&shapes, &mut rng);
    let (disagreements, reached) = run(FAST_PATHS_2D, &cases, |c| &c.label);
    assert_agreement(disagreements, reached);
}

#[test]
fn every_3d_fast_path_gives_its_references_answer_bit_for_bit() {
    let mut rng = Rng(36);
    let shapes = shapes_3d(&mut rng);
    let cases = cases_3d(&shapes, &mut rng);
    let (disagreements, reached) = run(FAST_PATHS_3D, &cases, |c| &c.label);
    assert_agreement(disagreements, reached);
}
