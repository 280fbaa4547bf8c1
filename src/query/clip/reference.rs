//! Contact manifold by clipping, the reference: each body's best edge along the normal,
//! the reference edge and the incident edge, the incident edge clipped to the reference's
//! side planes, the points below the reference face kept.
//!
//! Algorithm (Catto, GDC 2007 "Contact Manifolds", as in Box2D's `b2ClipPolygons`;
//! Gregorius, GDC 2015; the dyn4j write-up "Contact Points Using Clipping"):
//!
//! ```text
//! n = collision normal, from A toward B
//! edge_A = best edge of A along n:  the vertex farthest along n, then of its two edges
//!          the one whose outward normal is closest to n (the edge most perpendicular to n)
//! edge_B = best edge of B along -n  (likewise)
//! reference = the one whose normal is closer to the collision normal; incident = the other
//! clip the incident edge to the slab between the reference edge's two side planes
//!      (planes through each end of the reference edge, facing along it)
//! drop the points above the reference face (outside the reference body)
//! each remaining point, on the incident body, has depth = how far below the face it lies
//! ```
//!
//! A best edge is widened over collinear neighbours (a polygon may list points along one
//! side) and skips zero-length edges (repeated points), so both degenerate inputs give the
//! same manifold as the clean polygon. Round shapes clip their cores and move the points out
//! by the incident radius; a circle (a point core) gives its one deepest point, and so does
//! a normal that no edge faces (a round part, or a corner meeting a corner).
//!
//! The side planes of a single reference edge face along its stored normal turned a quarter
//! turn: the stored normals are the normalized edges, so the clip takes no square root. A
//! widened side takes its chord's own direction.
//!
//! Conventions: points are computed in the work frame centred on A (see `query/mod.rs`)
//! and recorded in world coordinates; a point's depth is how far below the reference face
//! it lies (>= 0); a point within the pair's touch tolerance above the face is kept.

use super::{ClipPlane, ClipPoints, ClipStage, ClipStep, ContactPoint, EdgeFeature, Manifold};
use crate::geom::Placed;
use crate::query::{Body, ShapePair};
use crate::trace::Tracer;
use glam::Vec2;

/// Two normals closer than this (1 - cos of the angle between them, about 0.03 degrees)
/// belong to collinear edges that make up one side.
pub(super) const COLLINEAR_TOLERANCE: f32 = 1.0e-7;

/// The reference edge becomes B's only when its normal is closer to the collision normal
/// by more than this (as a cosine difference, about 0.08 degrees: rounding noise, not
/// geometry); on a tie A's edge stays the reference, so symmetric stacks do not flicker
/// between frames. It must stay tiny: a reference face tilted by angle `x` misplaces points
/// at its far end by about `x` times its length.
pub(super) const REFERENCE_PREFERENCE: f32 = 1.0e-6;

/// The reference edge must face along the collision normal to within this (1 - cos, about
/// 2.5 degrees). A normal that no edge faces comes from a round part or a corner touching
/// a corner (a vertex axis of SAT); such a contact is a single point, found directly.
const FACE_ALIGNMENT: f32 = 1.0e-3;

/// The manifold for `normal` (unit, A toward B), recording each stage.
pub(crate) fn clip<T: Tracer<ClipStep>>(
    pair: &ShapePair,
    normal: Vec2,
    tracer: &mut T,
) -> Manifold {
    // Each body's best side: A's along the normal, B's against it.
    let side_a = best_side(&pair.a, normal, Body::A);
    let side_b = best_side(&pair.b, -normal, Body::B);
    clip_sides(pair, normal, side_a, side_b, tracer)
}

/// [`clip`] from both bodies' best sides: the reference side is the one that faces the
/// normal more squarely (A's on a tie within [`REFERENCE_PREFERENCE`]), the other incident.
#[inline(always)]
pub(super) fn clip_sides<T: Tracer<ClipStep>>(
    pair: &ShapePair,
    normal: Vec2,
    side_a: Option<BestSide>,
    side_b: Option<BestSide>,
    tracer: &mut T,
) -> Manifold {
    let (reference, reference_side, incident) = match (side_a, side_b) {
        (Some(a), Some(b)) => {
            if b.edge.normal.dot(-normal) > a.edge.normal.dot(normal) + REFERENCE_PREFERENCE {
                (b.edge, b, a.edge)
            } else {
                (a.edge, a, b.edge)
            }
        }
        (Some(a), None) => return single_point(pair, normal, Some(a.edge), Body::B, tracer),
        (None, Some(b)) => return single_point(pair, normal, Some(b.edge), Body::A, tracer),
        (None, None) => return single_point(pair, normal, None, Body::B, tracer),
    };
    clip_chosen(pair, normal, reference, reference_side, incident, tracer)
}

/// [`clip_sides`] once the reference and incident sides are chosen: a single point when
/// the reference does not face the normal (or a round incident edge does not), else the
/// incident edge clipped.
#[inline(always)]
pub(super) fn clip_chosen<T: Tracer<ClipStep>>(
    pair: &ShapePair,
    normal: Vec2,
    reference: EdgeFeature,
    reference_side: BestSide,
    incident: EdgeFeature,
    tracer: &mut T,
) -> Manifold {
    // How squarely each chosen edge faces the other body along the normal (1 = exactly).
    let toward_other = |e: &EdgeFeature| match e.body {
        Body::A => e.normal.dot(normal),
        Body::B => -e.normal.dot(normal),
    };
    let incident_round = match incident.body {
        Body::A => pair.a.radius() > 0.0,
        Body::B => pair.b.radius() > 0.0,
    };
    // Clipping needs a face along the normal; a rounded incident body also needs its core
    // edge along the face, or only its rounded end can touch.
    if toward_other(&reference) < 1.0 - FACE_ALIGNMENT
        || (incident_round && toward_other(&incident) < 1.0 - FACE_ALIGNMENT)
    {
        return single_point(pair, normal, Some(reference), incident.body, tracer);
    }
    tracer.record(|| ClipStep {
        stage: ClipStage::ChooseEdges,
        reference: Some(reference.to_world(pair)),
        incident: Some(incident.to_world(pair)),
        plane: None,
        input: ClipPoints::default(),
        kept: ClipPoints::default(),
        dropped: ClipPoints::default(),
        created: ClipPoints::default(),
    });
    let tangent = reference_side.tangent();
    // The points come back as values and the manifold is built where it is returned.
    let (points, count) = clip_edges(pair, reference, tangent, incident, tracer);
    if count == 0 {
        // Nothing of the incident edge lies over the reference face within tolerance: the
        // edges do not face each other where the shapes touch (a corner grazing past the
        // reference edge's end). The contact is the incident body's deepest point.
        return single_point(pair, normal, Some(reference), incident.body, tracer);
    }
    Manifold {
        normal: match reference.body {
            Body::A => reference.normal,
            Body::B => -reference.normal,
        },
        reference: reference.body,
        reference_edge: reference.index,
        incident_edge: incident.index,
        points,
        count,
    }
}

/// Clips `incident` to the slab of `reference`, whose unit direction from start to end is
/// `tangent`: the contact points kept and how many (none when nothing of the incident
/// edge lies over the reference face).
#[inline(always)]
fn clip_edges<T: Tracer<ClipStep>>(
    pair: &ShapePair,
    reference: EdgeFeature,
    tangent: Vec2,
    incident: EdgeFeature,
    tracer: &mut T,
) -> ([ContactPoint; 2], usize) {
    let (ref_body, inc_body) = match reference.body {
        Body::A => (&pair.a, &pair.b),
        Body::B => (&pair.b, &pair.a),
    };
    // The incident edge's ends, tagged with which end they are (0 start, 1 end).
    let points = [(incident.start, 0u8), (incident.end, 1u8)];
    let side_start = ClipPlane {
        point: reference.start,
        normal: -tangent,
    };
    let side_end = ClipPlane {
        point: reference.end,
        normal: tangent,
    };
    let after_start = clip_segment_to_half_plane(points, side_start);
    record_side(
        pair,
        tracer,
        ClipStage::SideStart,
        &reference,
        &incident,
        side_start,
        &points,
        &after_start,
    );
    let after_end = match after_start {
        Some(seg) => {
            let out = clip_segment_to_half_plane(seg, side_end);
            record_side(
                pair,
                tracer,
                ClipStage::SideEnd,
                &reference,
                &incident,
                side_end,
                &seg,
                &out,
            );
            out
        }
        None => None,
    };
    let Some(clipped) = after_end else {
        return ([ContactPoint::default(); 2], 0);
    };
    let r_ref = ref_body.radius();
    let r_inc = inc_body.radius();
    let face = ClipPlane {
        point: reference.start + r_ref * reference.normal,
        normal: reference.normal,
    };
    let distinct = if farther_than_touch(pair, clipped[0].0 - clipped[1].0) {
        2
    } else {
        1
    };
    // Each distinct point's separation and whether it is kept.
    let (first, keep_first) = separation_kept(pair, &reference, clipped[0].0, r_ref, r_inc);
    let (second, keep_second) = if distinct == 2 {
        separation_kept(pair, &reference, clipped[1].0, r_ref, r_inc)
    } else {
        (0.0, false)
    };
    // The kept points in order, the rest default.
    let point = |(p, end): (Vec2, u8), separation: f32| {
        contact(pair, &reference, &incident, p, end, separation, r_inc)
    };
    let none = ContactPoint::default();
    let (kept, count) = match (keep_first, keep_second) {
        (true, true) => ([point(clipped[0], first), point(clipped[1], second)], 2),
        (true, false) => ([point(clipped[0], first), none], 1),
        (false, true) => ([point(clipped[1], second), none], 1),
        (false, false) => ([none, none], 0),
    };
    let mut dropped = ClipPoints::default();
    if T::ENABLED {
        if !keep_first {
            dropped.push(pair.to_world(clipped[0].0));
        }
        if distinct == 2 && !keep_second {
            dropped.push(pair.to_world(clipped[1].0));
        }
    }
    tracer.record(|| ClipStep {
        stage: ClipStage::ReferenceFace,
        reference: Some(reference.to_world(pair)),
        incident: Some(incident.to_world(pair)),
        plane: Some(ClipPlane {
            point: pair.to_world(face.point),
            normal: face.normal,
        }),
        input: clipped[..distinct]
            .iter()
            .map(|(p, _)| pair.to_world(*p))
            .collect(),
        kept: kept[..count].iter().map(|c| c.point).collect(),
        dropped,
        created: ClipPoints::default(),
    });
    (kept, count)
}

/// The signed separation of the incident surface point `p` from the reference surface
/// (negative is penetration), and whether it is kept ([`kept`]).
#[inline(always)]
fn separation_kept(
    pair: &ShapePair,
    reference: &EdgeFeature,
    p: Vec2,
    r_ref: f32,
    r_inc: f32,
) -> (f32, bool) {
    let separation = (p - reference.start).dot(reference.normal) - r_ref - r_inc;
    (separation, kept(pair, separation))
}

/// Whether a point `separation` from the reference surface is kept: a penetrating point
/// whatever the (positive) tolerance, else within the touch tolerance, `separation <= 0
/// || separation <= touch`. A point farther than the quick bound on the tolerance
/// ([`ShapePair::touch_tolerance_high`], with the 0.1 % margin [`farther_than_touch`]
/// allows it) is farther than the tolerance itself, so the usual point above the face is
/// dropped without the tolerance's square root.
#[inline(always)]
pub(super) fn kept(pair: &ShapePair, separation: f32) -> bool {
    separation <= 0.0
        || (separation <= 1.001 * pair.touch_tolerance_high()
            && separation <= touch_tolerance(pair))
}

/// [`ShapePair::touch_tolerance`] for the clip's rare cases (a point just above the face, a
/// clipped edge the bounds cannot tell), out of line and marked cold (see
/// `docs/performance.md`).
#[cold]
#[inline(never)]
fn touch_tolerance(pair: &ShapePair) -> f32 {
    pair.touch_tolerance()
}

/// Whether `gap` is longer than the pair's touch tolerance: `gap.length() > touch`, with
/// the two square roots (the gap's length, and the distance between the centroids inside
/// the tolerance) taken only when bounds on both, 0.1 % apart, cannot tell. The usual
/// gap (a clipped edge) is far longer than the tolerance: a looser bound that places no
/// centroid ([`ShapePair::touch_tolerance_high`]) tells that first.
#[inline(always)]
pub(super) fn farther_than_touch(pair: &ShapePair, gap: Vec2) -> bool {
    let length_squared = gap.length_squared();
    let quick_high = pair.touch_tolerance_high();
    if length_squared > (1.001 * quick_high) * (1.001 * quick_high) {
        return true;
    }
    let (low, high) = pair.touch_tolerance_bounds();
    if length_squared > (1.001 * high) * (1.001 * high) {
        true
    } else if length_squared < (0.999 * low) * (0.999 * low) {
        false
    } else {
        gap.length() > touch_tolerance(pair)
    }
}

fn contact(
    pair: &ShapePair,
    reference: &EdgeFeature,
    incident: &EdgeFeature,
    p: Vec2,
    end: u8,
    separation: f32,
    r_inc: f32,
) -> ContactPoint {
    ContactPoint {
        // The incident body's surface point: its core point moved toward the reference.
        point: pair.to_world(p - r_inc * reference.normal),
        // Written as the compare `maxss` makes (not `f32::max`, whose choice between -0
        // and +0 is left to the compiler): a separation of +0 or -0 gives a depth of +0.
        depth: if -separation > 0.0 { -separation } else { 0.0 },
        id: [reference.index, incident.index],
        end,
    }
}

#[allow(clippy::too_many_arguments)]
fn record_side<T: Tracer<ClipStep>>(
    pair: &ShapePair,
    tracer: &mut T,
    stage: ClipStage,
    reference: &EdgeFeature,
    incident: &EdgeFeature,
    plane: ClipPlane,
    input: &[(Vec2, u8); 2],
    output: &Option<[(Vec2, u8); 2]>,
) {
    tracer.record(|| {
        let w = |p: Vec2| pair.to_world(p);
        let inside = |p: Vec2| (p - plane.point).dot(plane.normal) <= 0.0;
        let kept: ClipPoints = input
            .iter()
            .filter(|(p, _)| inside(*p))
            .map(|(p, _)| w(*p))
            .collect();
        let dropped: ClipPoints = input
            .iter()
            .filter(|(p, _)| !inside(*p))
            .map(|(p, _)| w(*p))
            .collect();
        let created: ClipPoints = match output {
            Some(out) => out
                .iter()
                .filter(|(p, _)| !input.iter().any(|(q, _)| q == p))
                .map(|(p, _)| w(*p))
                .collect(),
            None => ClipPoints::default(),
        };
        ClipStep {
            stage,
            reference: Some(reference.to_world(pair)),
            incident: Some(incident.to_world(pair)),
            plane: Some(ClipPlane {
                point: w(plane.point),
                normal: plane.normal,
            }),
            input: input.iter().map(|(p, _)| w(*p)).collect(),
            kept,
            dropped,
            created,
        }
    });
}

/// Keeps the part of segment `points` on the kept side of `plane` (`normal . (p - point) <=
/// 0`). A point made at the crossing keeps the tag of the end it replaces. `None` when the
/// whole segment is cut away.
#[inline(always)]
pub fn clip_segment_to_half_plane(
    points: [(Vec2, u8); 2],
    plane: ClipPlane,
) -> Option<[(Vec2, u8); 2]> {
    let d0 = (points[0].0 - plane.point).dot(plane.normal);
    let d1 = (points[1].0 - plane.point).dot(plane.normal);
    match (d0 <= 0.0, d1 <= 0.0) {
        (true, true) => Some(points),
        (false, false) => None,
        (inside0, _) => {
            let t = d0 / (d0 - d1);
            let crossing = points[0].0.lerp(points[1].0, t);
            Some(if inside0 {
                [points[0], (crossing, points[1].1)]
            } else {
                [(crossing, points[0].1), points[1]]
            })
        }
    }
}

/// The best side of `shape` along `direction`, and whether it is one edge; `None` for a
/// point core.
pub(super) fn best_side(shape: &Placed, direction: Vec2, body: Body) -> Option<BestSide> {
    if shape.edge_count() == 0 {
        return None;
    }
    walk_to_best_side(shape, direction, body, shape.support_index(direction))
}

/// A best edge, and whether it is one core edge (not widened over collinear neighbours).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct BestSide {
    pub(super) edge: EdgeFeature,
    pub(super) lone: bool,
}

impl BestSide {
    /// The unit direction of the side, from start to end. For one edge, its outward normal
    /// turned back a quarter turn: the stored normals are the normalized edges, so no square
    /// root is needed. A widened side runs from the first edge's start to the last edge's
    /// end, which may turn from the chosen edge by up to the collinear tolerance: it takes
    /// that chord's own direction.
    #[inline]
    pub(super) fn tangent(&self) -> Vec2 {
        if self.lone {
            Vec2::new(-self.edge.normal.y, self.edge.normal.x)
        } else {
            (self.edge.end - self.edge.start).normalize_or_zero()
        }
    }
}

/// [`best_side`] from the support vertex `k`, stepping over zero-length edges and widening
/// over collinear neighbours.
#[inline(never)]
pub(super) fn walk_to_best_side(
    shape: &Placed,
    direction: Vec2,
    body: Body,
    k: usize,
) -> Option<BestSide> {
    let n = shape.vertex_count();
    // Edges ending and starting at k, skipping zero-length edges (repeated vertices): most
    // outlines have none, and then they are the two edges at k.
    let normals = shape.shape.normals();
    let (before, after) = if normals[previous(k, n)] != Vec2::ZERO && normals[k] != Vec2::ZERO {
        (previous(k, n), k)
    } else {
        let before = step_over_zero_edges(shape, previous(k, n), Step::Back);
        let after = step_over_zero_edges(shape, k, Step::Forward);
        let (Some(before), Some(after)) = (before, after) else {
            return None;
        };
        (before, after)
    };
    let chosen = if shape.normal(after).dot(direction) >= shape.normal(before).dot(direction) {
        after
    } else {
        before
    };
    let normal = shape.normal(chosen);
    // Widen over collinear neighbours on both sides.
    let mut first = chosen;
    let mut last = chosen;
    for _ in 0..n {
        match step_over_zero_edges(shape, previous(first, n), Step::Back) {
            Some(e) if e != last && shape.normal(e).dot(normal) >= 1.0 - COLLINEAR_TOLERANCE => {
                first = e
            }
            _ => break,
        }
    }
    for _ in 0..n {
        match step_over_zero_edges(shape, next(last, n), Step::Forward) {
            Some(e) if e != first && shape.normal(e).dot(normal) >= 1.0 - COLLINEAR_TOLERANCE => {
                last = e
            }
            _ => break,
        }
    }
    let start = shape.vertex(first);
    let end = shape.vertex(next(last, n));
    Some(BestSide {
        edge: EdgeFeature {
            body,
            index: first as u32,
            start,
            end,
            normal,
        },
        lone: first == chosen && last == chosen,
    })
}

/// Which way [`step_over_zero_edges`] walks round the outline.
#[derive(Clone, Copy)]
enum Step {
    Forward,
    Back,
}

/// The index after `i` round an outline of `n` (a compare, not an integer division).
#[inline]
pub(super) fn next(i: usize, n: usize) -> usize {
    if i + 1 == n {
        0
    } else {
        i + 1
    }
}

/// The index before `i` round an outline of `n`.
#[inline]
pub(super) fn previous(i: usize, n: usize) -> usize {
    if i == 0 {
        n - 1
    } else {
        i - 1
    }
}

/// From edge `e`, steps forward or back until an edge of non-zero length. `None` if every
/// edge has zero length.
fn step_over_zero_edges(shape: &Placed, mut e: usize, step: Step) -> Option<usize> {
    let n = shape.edge_count();
    // A zero stored normal is a zero-length edge; turning it into the work frame would
    // change nothing about that.
    let normals = shape.shape.normals();
    for _ in 0..n {
        if normals[e] != Vec2::ZERO {
            return Some(e);
        }
        e = match step {
            Step::Forward => next(e, n),
            Step::Back => previous(e, n),
        };
    }
    None
}

/// A contact at one point: a circle against anything, or a corner or rounded end meeting
/// the other shape away from any face. The point is `round`'s deepest point toward the
/// other body; `edge` is the other body's best edge, if it has edges.
pub(super) fn single_point<T: Tracer<ClipStep>>(
    pair: &ShapePair,
    normal: Vec2,
    edge: Option<EdgeFeature>,
    round: Body,
    tracer: &mut T,
) -> Manifold {
    // The deepest point of the round body toward the other: A's surface point along +n, or
    // B's along -n.
    let (core, towards) = match round {
        Body::A => (&pair.a, normal),
        Body::B => (&pair.b, -normal),
    };
    let other = match round {
        Body::A => &pair.b,
        Body::B => &pair.a,
    };
    let center = core.support(towards);
    let point = center + core.radius() * towards;
    // Depth: how far `point` lies beyond the other body's surface along the normal.
    let other_extent = other.support(-towards).dot(towards) - other.radius();
    let depth = (point.dot(towards) - other_extent).max(0.0);
    let reference = round.other();
    let manifold = Manifold {
        normal,
        reference,
        reference_edge: edge.map_or(0, |e| e.index),
        incident_edge: 0,
        points: [
            ContactPoint {
                point: pair.to_world(point),
                depth,
                id: [edge.map_or(0, |e| e.index), 0],
                end: 0,
            },
            ContactPoint::default(),
        ],
        count: 1,
    };
    tracer.record(|| ClipStep {
        stage: ClipStage::RoundPoint,
        reference: edge.map(|e| e.to_world(pair)),
        incident: None,
        plane: None,
        input: [pair.to_world(center)].into_iter().collect(),
        kept: [pair.to_world(point)].into_iter().collect(),
        dropped: ClipPoints::default(),
        created: ClipPoints::default(),
    });
    manifold
}
