//! Contact manifold by clipping: the incident edge cut down to the reference edge.
//!
//! Algorithm (Catto, GDC 2007 "Contact Manifolds"; Gregorius, GDC 2015; the dyn4j write-up
//! "Contact Points Using Clipping"):
//!
//! ```text
//! n = collision normal, from A toward B
//! edge_A = best edge of A along n:  the vertex farthest along n, then of its two edges
//!          the one whose outward normal is closest to n (most perpendicular to n)
//!          (after SAT: its winning edge itself, or the face opposite it when SAT's edge
//!          faces away, when the shape vouches, below)
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
//! by the incident radius; a circle (a point core) gives its one deepest point.
//!
//! On a small core (at most 8 vertices) whose edges all have a length and turn clearly more
//! than the collinear tolerance, the best edge is the chosen edge at the support vertex with
//! no walk (the shape stores how far each edge turns into the next). The side planes of a
//! single reference edge face along its stored normal turned a quarter turn: the stored
//! normals are the normalized edges, so the clip takes no square root.
//!
//! Started from SAT's answer (`clip_after_sat`, which `query_pair` runs, traced or not),
//! when SAT's best axis is edge `i` of one body facing the contact, the normal is that
//! edge's own normal, and the search along it would find edge `i` alone whenever the shape
//! says edge `i` stands clearly above its other vertices and turns clearly from both
//! neighbours (`Shape::clear_faces`, stored with the shape): then edge `i` is that body's
//! best edge and only the other body is searched. When edge `i` faces away (on a box, its
//! opposite side ties it but for rounding), the normal is the back of edge `i`'s, and the
//! face whose stored normal is exactly its negation (`Shape::opposite_face`) is handed
//! over in the same way. The manifold and the recorded steps are the same, bit for bit.

use super::sat::{AxisSource, SatOutput};
use super::{Body, ShapePair};
use crate::geom::{CoreLanes, Placed, LANE_LIMIT};
use crate::trace::Tracer;
use glam::Vec2;

/// Two normals closer than this (1 - cos of the angle between them, about 0.03 degrees)
/// belong to collinear edges that make up one side.
const COLLINEAR_TOLERANCE: f32 = 1.0e-7;

/// How far below the collinear bound a cosine between two stored (local-frame) normals
/// must lie for [`best_edge`] to skip its widening loops. The loops compare the normals
/// turned into the work frame, whose cosine differs from the stored one by a few `f32`
/// roundings (under 1e-6): a cosine this far below the bound is below it in either frame.
const COLLINEAR_MARGIN: f32 = 1.0e-5;

/// The reference edge becomes B's only when its normal is closer to the collision normal
/// by more than this (as a cosine difference, about 0.08 degrees: rounding noise, not
/// geometry); on a tie A's edge stays the reference, so symmetric stacks do not flicker
/// between frames. It must stay tiny: a reference face tilted by angle `x` misplaces points
/// at its far end by about `x` times its length.
const REFERENCE_PREFERENCE: f32 = 1.0e-6;

/// The reference edge must face along the collision normal to within this (1 - cos, about
/// 2.5 degrees). A normal that no edge faces comes from a round part or a corner touching
/// a corner (a vertex axis of SAT); such a contact is a single point, found directly.
const FACE_ALIGNMENT: f32 = 1.0e-3;

/// One side of a body's core used for clipping, in the work frame while computing and in
/// world coordinates when recorded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdgeFeature {
    pub body: Body,
    /// Index of the core edge (for a side made of collinear edges, the first one).
    pub index: u32,
    /// Start and end, counter-clockwise round the body.
    pub start: Vec2,
    pub end: Vec2,
    /// Outward unit normal.
    pub normal: Vec2,
}

impl EdgeFeature {
    /// Core edge `i` of `shape` alone, from vertex `i` to the next, with its `normal`.
    #[inline(always)]
    fn single(shape: &Placed, body: Body, i: usize, normal: Vec2) -> Self {
        EdgeFeature {
            body,
            index: i as u32,
            start: shape.vertex(i),
            end: shape.vertex(next(i, shape.vertex_count())),
            normal,
        }
    }

    fn to_world(self, pair: &ShapePair) -> Self {
        EdgeFeature {
            start: pair.to_world(self.start),
            end: pair.to_world(self.end),
            ..self
        }
    }
}

/// A contact point of the manifold, on the incident body.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactPoint {
    /// World position.
    pub point: Vec2,
    /// How far below the reference face, >= 0.
    pub depth: f32,
    /// Feature id: (reference edge, incident edge), stable while the same edges touch.
    pub id: [u32; 2],
    /// Which end of the incident edge this point came from (0 start, 1 end): with `id` it
    /// tells the two points of one manifold apart.
    pub end: u8,
}

/// The contact manifold of a pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Manifold {
    /// Unit normal from A toward B (the reference face's normal, turned when B is the
    /// reference).
    pub normal: Vec2,
    pub reference: Body,
    pub reference_edge: u32,
    pub incident_edge: u32,
    pub points: [ContactPoint; 2],
    pub count: usize,
}

impl Manifold {
    pub fn points(&self) -> &[ContactPoint] {
        &self.points[..self.count]
    }
}

/// A plane that keeps the points `p` with `normal . (p - point) <= 0`, or the opposite for
/// the reference face (see [`ClipStage`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipPlane {
    pub point: Vec2,
    /// Unit normal pointing to the side that is cut away.
    pub normal: Vec2,
}

/// The stages of clipping, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClipStage {
    /// Both best edges found and the reference chosen.
    ChooseEdges,
    /// Clipped against the side plane through the reference edge's start.
    SideStart,
    /// Clipped against the side plane through the reference edge's end.
    SideEnd,
    /// Points above the reference face dropped.
    ReferenceFace,
    /// A circle's single point: no edges to clip.
    RoundPoint,
}

/// One clipping stage as the window shows it (world coordinates).
#[derive(Clone, Debug, PartialEq)]
pub struct ClipStep {
    pub stage: ClipStage,
    pub reference: Option<EdgeFeature>,
    pub incident: Option<EdgeFeature>,
    /// The plane applied at this stage.
    pub plane: Option<ClipPlane>,
    /// Points going in, and what became of them.
    pub input: ClipPoints,
    pub kept: ClipPoints,
    pub dropped: ClipPoints,
    /// Points made where the incident edge crosses the plane.
    pub created: ClipPoints,
}

/// The points of one clipping stage, held in place: a stage sees at most the incident
/// edge's two ends or what clipping made of them, so recording a stage allocates nothing
/// beyond the list of steps (four small `Vec`s a stage made recording cost four times the
/// clip itself). Reads as a slice.
#[derive(Clone, Copy, Default)]
pub struct ClipPoints {
    len: u8,
    points: [Vec2; ClipPoints::CAPACITY],
}

impl ClipPoints {
    /// Twice what a stage can hold, so that no point is ever left out.
    pub const CAPACITY: usize = 4;

    /// Adds `p`; past [`ClipPoints::CAPACITY`] (which no stage reaches) it is left out.
    pub fn push(&mut self, p: Vec2) {
        debug_assert!(
            (self.len as usize) < Self::CAPACITY,
            "a clip stage holds <= 2 points"
        );
        if let Some(slot) = self.points.get_mut(self.len as usize) {
            *slot = p;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for ClipPoints {
    type Target = [Vec2];
    fn deref(&self) -> &[Vec2] {
        &self.points[..self.len as usize]
    }
}

impl PartialEq for ClipPoints {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for ClipPoints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<Vec2> for ClipPoints {
    fn from_iter<I: IntoIterator<Item = Vec2>>(iter: I) -> Self {
        let mut points = ClipPoints::default();
        for p in iter {
            points.push(p);
        }
        points
    }
}

impl<'a> IntoIterator for &'a ClipPoints {
    type Item = &'a Vec2;
    type IntoIter = std::slice::Iter<'a, Vec2>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Builds the manifold for `normal` (unit, A toward B), without recording.
pub fn contact_manifold(pair: &ShapePair, normal: Vec2) -> Manifold {
    clip(pair, normal, &mut ())
}

/// Builds the manifold for `normal` (unit, A toward B), recording each stage.
pub fn clip<T: Tracer<ClipStep>>(pair: &ShapePair, normal: Vec2, tracer: &mut T) -> Manifold {
    clip_with::<T, false>(pair, normal, tracer)
}

/// Builds the manifold along SAT's normal, without recording: [`contact_manifold`] along
/// `sat.normal`, the same output, with one search fewer when SAT's winner is an edge facing
/// the contact (see [`clip_after_sat`]).
pub fn contact_manifold_after_sat(pair: &ShapePair, sat: &SatOutput) -> Manifold {
    clip_after_sat(pair, sat, &mut ())
}

/// [`clip`] along SAT's normal, recording each stage: the same manifold and the same steps,
/// bit for bit, with one search fewer in the usual case. When SAT's best axis is edge `i` of
/// body X facing the contact, the normal is that edge's placed normal, and X's best side
/// along it is edge `i` alone whenever the shape vouches for it (or, when edge `i` faces
/// away, the face opposite it; see [`handed_side`]): then
/// only the other body's best side is searched. The choice of the reference between the
/// two sides stays as in [`clip`].
pub fn clip_after_sat<T: Tracer<ClipStep>>(
    pair: &ShapePair,
    sat: &SatOutput,
    tracer: &mut T,
) -> Manifold {
    let h = Handoff::of(pair, sat);
    if let Some(side_x) = h.x_side() {
        // Y's best side is usually one edge ([`lone_side`]); the other sides are searched
        // out of line, so that the usual one stays in registers (see [`clip_handed_searched`]).
        let Some(edge) = (h.y.edge_count() != 0)
            .then(|| lone_side(h.y, -h.toward_y, h.winner.other()))
            .flatten()
        else {
            return clip_handed_searched(pair, sat, tracer);
        };
        let side_y = BestSide { edge, lone: true };
        return clip_handed(
            pair,
            sat.normal,
            h.toward_y,
            h.x_is_b,
            side_x,
            Some(side_y),
            tracer,
        );
    }
    clip_with::<T, false>(pair, sat.normal, tracer)
}

/// SAT's winner X (the body whose edge gave the best axis, A when no edge did) and the other
/// body Y, picked by selects (which body wins is data, not something a branch predictor
/// learns); X's best side faces along `toward_y`.
struct Handoff<'p, 's> {
    winner: Body,
    /// The winning edge of X (`usize::MAX` when no edge won).
    index: usize,
    x_is_b: bool,
    x: &'p Placed<'s>,
    y: &'p Placed<'s>,
    toward_y: Vec2,
}

impl<'p, 's> Handoff<'p, 's> {
    #[inline(always)]
    fn of(pair: &'p ShapePair<'s>, sat: &SatOutput) -> Self {
        let (winner, index) = match sat.axis {
            AxisSource::Edge { body, index } => (body, index as usize),
            _ => (Body::A, usize::MAX),
        };
        let x_is_b = winner == Body::B;
        let (x, y) = if x_is_b {
            (&pair.b, &pair.a)
        } else {
            (&pair.a, &pair.b)
        };
        Handoff {
            winner,
            index,
            x_is_b,
            x,
            y,
            toward_y: if x_is_b { -sat.normal } else { sat.normal },
        }
    }

    /// X's best side when SAT's winning edge hands it over ([`handed_side`]).
    #[inline(always)]
    fn x_side(&self) -> Option<BestSide> {
        handed_side(self.x, self.toward_y, self.winner, self.index)
    }
}

/// [`clip_after_sat`] when the other body's best side is not one edge (or it has none): the
/// handoff worked out again and that side searched by [`best_side`]. Out of line on
/// purpose: merging the searched side (returned through memory) with the usual one put both
/// in one stack slot, written field by field and read back in wider loads, which the
/// processor cannot forward from the pending narrower stores (a stall of some ten cycles a
/// query).
#[inline(never)]
fn clip_handed_searched<T: Tracer<ClipStep>>(
    pair: &ShapePair,
    sat: &SatOutput,
    tracer: &mut T,
) -> Manifold {
    let h = Handoff::of(pair, sat);
    let Some(side_x) = h.x_side() else {
        return clip_with::<T, false>(pair, sat.normal, tracer);
    };
    let side_y = best_side(h.y, -h.toward_y, h.winner.other());
    clip_handed(
        pair, sat.normal, h.toward_y, h.x_is_b, side_x, side_y, tracer,
    )
}

/// [`clip`], with the side planes along [`BestSide::tangent`] or, when `CHORD`, always
/// along the normalized chord from the reference side's start to its end (the clip before
/// it used the stored normal; kept for the test that compares the two).
fn clip_with<T: Tracer<ClipStep>, const CHORD: bool>(
    pair: &ShapePair,
    normal: Vec2,
    tracer: &mut T,
) -> Manifold {
    let side_a = best_side(&pair.a, normal, Body::A);
    let side_b = best_side(&pair.b, -normal, Body::B);
    clip_sides::<T, CHORD>(pair, normal, side_a, side_b, tracer)
}

/// [`clip_with`] from both bodies' best sides.
#[inline(always)]
fn clip_sides<T: Tracer<ClipStep>, const CHORD: bool>(
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
    clip_chosen::<T, CHORD>(pair, normal, reference, reference_side, incident, tracer)
}

/// [`clip_sides`] after a handoff: SAT's winner X's side `side_x` (facing along
/// `toward_y`, which is `normal` or, when X is B, `-normal`) and the other body Y's searched
/// side, without first laying them out as A's and B's (a select of two whole sides). The
/// same choice: B's side is the reference when it faces `-normal` more squarely than A's
/// faces `normal` by more than [`REFERENCE_PREFERENCE`]; X's own dot is with `toward_y`
/// and Y's with `-toward_y`, the very vectors [`clip_sides`] dots them with.
#[inline(always)]
fn clip_handed<T: Tracer<ClipStep>>(
    pair: &ShapePair,
    normal: Vec2,
    toward_y: Vec2,
    x_is_b: bool,
    side_x: BestSide,
    side_y: Option<BestSide>,
    tracer: &mut T,
) -> Manifold {
    let Some(side_y) = side_y else {
        // Y has no edges: X's side and Y's one point.
        let y_body = if x_is_b { Body::A } else { Body::B };
        return single_point(pair, normal, Some(side_x.edge), y_body, tracer);
    };
    let x_dot = side_x.edge.normal.dot(toward_y);
    let y_dot = side_y.edge.normal.dot(-toward_y);
    let b_is_reference = if x_is_b {
        x_dot > y_dot + REFERENCE_PREFERENCE
    } else {
        y_dot > x_dot + REFERENCE_PREFERENCE
    };
    let reference_is_x = b_is_reference == x_is_b;
    let (reference_side, incident) = if reference_is_x {
        (side_x, side_y.edge)
    } else {
        (side_y, side_x.edge)
    };
    clip_chosen::<T, false>(
        pair,
        normal,
        reference_side.edge,
        reference_side,
        incident,
        tracer,
    )
}

/// [`clip_sides`] once the reference and incident sides are chosen.
#[inline(always)]
fn clip_chosen<T: Tracer<ClipStep>, const CHORD: bool>(
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
    let tangent = if CHORD {
        (reference.end - reference.start).normalize_or_zero()
    } else {
        reference_side.tangent()
    };
    // The points come back as values and the manifold is built where it is returned
    // (moving a whole `Manifold` through an `Option` cost about 30 moves a query).
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
    // The kept points in order, the rest default: written out for the two points rather
    // than stored by a running count (which kept the points in memory).
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
/// (negative is penetration), and whether it is kept ([`kept`]). A function, not a
/// closure: the closure was compiled out of line and took the reference edge from the
/// stack, where its normal's halves had just been stored one by one and were read as one
/// (a stalled load).
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
fn kept(pair: &ShapePair, separation: f32) -> bool {
    separation <= 0.0
        || (separation <= 1.001 * pair.touch_tolerance_high()
            && separation <= touch_tolerance(pair))
}

/// [`ShapePair::touch_tolerance`] for the clip's rare cases (a point just above the face, a
/// clipped edge the bounds cannot tell), out of line and marked cold: told that the call
/// is rare, the compiler stores the usual path's values around it in that branch only,
/// not on the usual path before it (12 stores and reloads fewer a query on quads; with the
/// quick bound above, quads ran 0.99 -> 0.97 of Box2D).
#[cold]
#[inline(never)]
fn touch_tolerance(pair: &ShapePair) -> f32 {
    pair.touch_tolerance()
}

/// Whether `gap` is longer than the pair's touch tolerance: `gap.length() > touch`, with
/// the two square roots (the gap's length, and the distance between the centroids inside
/// the tolerance) taken only when bounds on both, 0.1 % apart, cannot tell. The usual
/// gap (a clipped edge) is far longer than the tolerance: a looser bound that places no
/// centroid ([`ShapePair::touch_tolerance_high`]) tells that first. Always inlined, with
/// that bound: called out of line, the clip kept its points and the reference edge on the
/// stack across the call (15 instructions a query more on quads, and about 2 % of the
/// manifold's time).
#[inline(always)]
fn farther_than_touch(pair: &ShapePair, gap: Vec2) -> bool {
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
/// whole segment is cut away. Always inlined: out of line, its points went through memory.
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

/// The side of `shape` that faces `direction` best: the farthest vertex along it, then the
/// adjacent edge whose outward normal is closest to `direction`, widened over collinear
/// neighbours. `None` for a point core.
pub fn best_edge(shape: &Placed, direction: Vec2, body: Body) -> Option<EdgeFeature> {
    best_side(shape, direction, body).map(|side| side.edge)
}

/// A best edge, and whether it is one core edge (not widened over collinear neighbours).
#[derive(Clone, Copy, Debug, PartialEq)]
struct BestSide {
    edge: EdgeFeature,
    lone: bool,
}

impl BestSide {
    /// The unit direction of the side, from start to end. For one edge, its outward normal
    /// turned back a quarter turn: the stored normals are the normalized edges, so no square
    /// root is needed. A widened side runs from the first edge's start to the last edge's
    /// end, which may turn from the chosen edge by up to the collinear tolerance: it takes
    /// that chord's own direction.
    #[inline]
    fn tangent(&self) -> Vec2 {
        if self.lone {
            Vec2::new(-self.edge.normal.y, self.edge.normal.x)
        } else {
            (self.edge.end - self.edge.start).normalize_or_zero()
        }
    }
}

/// [`best_edge`], saying whether the side is one edge.
fn best_side(shape: &Placed, direction: Vec2, body: Body) -> Option<BestSide> {
    if shape.edge_count() == 0 {
        return None;
    }
    if let Some(edge) = lone_side(shape, direction, body) {
        return Some(BestSide { edge, lone: true });
    }
    walk_to_best_side(shape, direction, body, shape.support_index(direction))
}

/// [`best_side`] in the usual case: the side is one edge, found without walking the outline
/// ([`lone_best_edge`]); `None` when the shape's turns are not stored, when a neighbour is
/// nearly collinear, or (callers check it first) when the shape has no edges.
#[inline(always)]
fn lone_side(shape: &Placed, direction: Vec2, body: Body) -> Option<EdgeFeature> {
    let n = shape.vertex_count();
    if let Some(turn_cosines) = shape.shape.turn_cosines() {
        // How squarely every edge faces `direction`, worked out beside the support search
        // rather than after it (the same arithmetic as `shape.normal(e).dot(direction)`).
        let lone = if let Some(lanes) = shape.shape.lanes::<4>() {
            let facing = Facing::new(shape, lanes, direction);
            let k = shape.support_index(direction);
            facing.lone_best_edge(shape, body, previous(k, n), k, turn_cosines)
        } else if let Some(lanes) = shape.shape.lanes::<LANE_LIMIT>() {
            let facing = Facing::new(shape, lanes, direction);
            let k = shape.support_index(direction);
            facing.lone_best_edge(shape, body, previous(k, n), k, turn_cosines)
        } else {
            let k = shape.support_index(direction);
            lone_best_edge(shape, direction, body, previous(k, n), k, turn_cosines)
        };
        return lone;
    }
    None
}

/// Every edge of a small core placed in the work frame, one lane per edge, and how squarely
/// it faces a direction: lane `e` holds `shape.normal(e)` and `shape.normal(e).dot(direction)`,
/// the same arithmetic, so [`Facing::lone_best_edge`] is [`lone_best_edge`] to the bit. Its
/// lanes do not wait for the support search, so the compare after it is two loads.
struct Facing<const N: usize> {
    x: [f32; N],
    y: [f32; N],
    facing: [f32; N],
}

impl<const N: usize> Facing<N> {
    #[inline(always)]
    fn new(shape: &Placed, lanes: &CoreLanes<N>, direction: Vec2) -> Self {
        let (cos, sin) = (shape.rotation.x, shape.rotation.y);
        let x: [f32; N] =
            std::array::from_fn(|e| cos * lanes.normal_x[e] - sin * lanes.normal_y[e]);
        let y: [f32; N] =
            std::array::from_fn(|e| sin * lanes.normal_x[e] + cos * lanes.normal_y[e]);
        let facing = std::array::from_fn(|e| x[e] * direction.x + y[e] * direction.y);
        Facing { x, y, facing }
    }

    /// [`lone_best_edge`] from these lanes (`N` a power of two above every edge index, so
    /// `% N` changes no index).
    #[inline(always)]
    fn lone_best_edge(
        &self,
        shape: &Placed,
        body: Body,
        before: usize,
        after: usize,
        turn_cosines: &[f32],
    ) -> Option<EdgeFeature> {
        let (before, after) = (before % N, after % N);
        let chosen = if self.facing[after] >= self.facing[before] {
            after
        } else {
            before
        };
        let normal = Vec2::new(self.x[chosen], self.y[chosen]);
        unwidened_edge(shape, body, chosen, normal, turn_cosines)
    }
}

/// [`best_side`] from the support vertex `k`, stepping over zero-length edges and widening
/// over collinear neighbours.
#[inline(never)]
fn walk_to_best_side(shape: &Placed, direction: Vec2, body: Body, k: usize) -> Option<BestSide> {
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

/// The best side of `shape` along `direction` when that is SAT's winning axis, edge `i`'s
/// own placed normal or its back: edge `i` alone, or the opposite face, as [`best_side`]
/// finds it, or `None` when the shape cannot vouch for that (the caller then searches).
///
/// SAT's winning edge `i` usually faces the contact, and `direction` is its normal. On a
/// box or a parallelogram, the opposite side gives the same overlap but for rounding, and
/// SAT may win on the side facing away: `direction` is then the back of edge `i`'s normal,
/// and the side along it is the face whose stored normal is exactly the negation of edge
/// `i`'s ([`opposite_face`](crate::geom::Shape::opposite_face)). Either way, call that
/// edge `f`: the shape vouches with its [`clear_faces`](crate::geom::Shape::clear_faces)
/// bit for `f`, `f`'s placed normal is checked to be `direction` to the bit, and
/// [`best_side`] would then find edge `f` alone because:
/// - edge `f` is clearly the top of the core along its normal, so the support search
///   returns vertex `f` or `f + 1`;
/// - from vertex `f` it compares edges `f - 1` and `f`, from `f + 1` edges `f` and `f + 1`:
///   `direction` is edge `f`'s normal, whose square is 1 within a few roundings, while a
///   neighbour's normal dotted with it is their stored turn cosine within a few roundings,
///   below `1 - FACE_TURN_CLEARANCE`: edge `f` wins either compare;
/// - every edge has a length and edge `f` turns from both neighbours by more than
///   [`lone_best_edge`] asks (`FACE_TURN_CLEARANCE` exceeds [`COLLINEAR_TOLERANCE`] plus
///   [`COLLINEAR_MARGIN`]), so it takes edge `f` unwidened.
///
/// Any other `direction` (one that is neither face's placed normal to the bit) is searched.
#[inline(always)]
fn handed_side(shape: &Placed, direction: Vec2, body: Body, i: usize) -> Option<BestSide> {
    if i >= 32 {
        return None;
    }
    let vouched = |face: usize, normal: Vec2| {
        (shape.shape.clear_faces() & (1 << face) != 0 && normal == direction).then(|| BestSide {
            edge: EdgeFeature::single(shape, body, face, normal),
            lone: true,
        })
    };
    let normal = shape.normal(i);
    if normal == direction {
        return vouched(i, normal);
    }
    // SAT's edge faces away: its opposite face, if the shape has one.
    let face = shape.shape.opposite_face(i);
    if face >= 32 {
        return None;
    }
    vouched(face, shape.normal(face))
}

// The faces a shape vouches for turn from their neighbours by more than the best edge's
// own guard asks (see `handed_side`).
const _: () =
    assert!(1.0 - crate::geom::FACE_TURN_CLEARANCE < 1.0 - COLLINEAR_TOLERANCE - COLLINEAR_MARGIN);

/// [`best_edge`] in the usual case, without its loops: every edge of the (small) core has a
/// length, and the chosen edge turns from both neighbours by clearly more than the collinear
/// tolerance, so no widening happens. The choice between the two edges at the support
/// vertex is the same compare on the same numbers; `None` (the caller then walks the loops)
/// when a neighbour is within [`COLLINEAR_MARGIN`] of collinear.
#[inline(always)]
fn lone_best_edge(
    shape: &Placed,
    direction: Vec2,
    body: Body,
    before: usize,
    after: usize,
    turn_cosines: &[f32],
) -> Option<EdgeFeature> {
    let (normal_before, normal_after) = (shape.normal(before), shape.normal(after));
    let (chosen, normal) = if normal_after.dot(direction) >= normal_before.dot(direction) {
        (after, normal_after)
    } else {
        (before, normal_before)
    };
    unwidened_edge(shape, body, chosen, normal, turn_cosines)
}

/// The chosen edge alone, or `None` when a neighbour is within [`COLLINEAR_MARGIN`] of
/// collinear with it (the walk then decides whether to widen): the guard both forms of
/// [`lone_best_edge`] share.
#[inline(always)]
fn unwidened_edge(
    shape: &Placed,
    body: Body,
    chosen: usize,
    normal: Vec2,
    turn_cosines: &[f32],
) -> Option<EdgeFeature> {
    let clear = 1.0 - COLLINEAR_TOLERANCE - COLLINEAR_MARGIN;
    let n = shape.vertex_count();
    if turn_cosines[previous(chosen, n)] >= clear || turn_cosines[chosen] >= clear {
        return None;
    }
    Some(EdgeFeature::single(shape, body, chosen, normal))
}

/// Which way [`step_over_zero_edges`] walks round the outline.
#[derive(Clone, Copy)]
enum Step {
    Forward,
    Back,
}

/// The index after `i` round an outline of `n` (a compare, not an integer division).
#[inline]
fn next(i: usize, n: usize) -> usize {
    if i + 1 == n {
        0
    } else {
        i + 1
    }
}

/// The index before `i` round an outline of `n`.
#[inline]
fn previous(i: usize, n: usize) -> usize {
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
fn single_point<T: Tracer<ClipStep>>(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::test_outlines as outlines;
    use crate::geom::{Pose, Shape};
    use crate::query::sat::sat_test;

    #[test]
    fn clip_points_read_as_the_points_pushed_and_compare_by_them_only() {
        let mut a = ClipPoints::default();
        assert!(a.is_empty());
        a.push(Vec2::new(1.0, 2.0));
        a.push(Vec2::new(3.0, 4.0));
        assert_eq!(&*a, &[Vec2::new(1.0, 2.0), Vec2::new(3.0, 4.0)]);
        // The same points collected from an iterator compare equal; slots past the length
        // are not part of the value.
        let b: ClipPoints = [Vec2::new(1.0, 2.0), Vec2::new(3.0, 4.0)]
            .into_iter()
            .collect();
        assert_eq!(a, b);
        assert_eq!(format!("{a:?}"), "[Vec2(1.0, 2.0), Vec2(3.0, 4.0)]");
        assert_ne!(a, ClipPoints::default());
    }
    use crate::query::testing::*;

    fn run(a: &Shape, pa: Pose, b: &Shape, pb: Pose) -> (Manifold, Vec<ClipStep>) {
        let pair = ShapePair::new(a, pa, b, pb);
        let normal = sat_test(&pair).normal;
        let mut steps = Vec::new();
        let m = clip(&pair, normal, &mut steps);
        (m, steps)
    }

    #[test]
    fn traced_and_untraced_manifolds_agree_bit_for_bit() {
        // The edges found by compare-and-wrap stepping, recorded or not: the same manifold,
        // on random poses of boxes, 3- to 8-gons, a 12-gon and round shapes.
        let mut random = crate::query::sat::tests::Random(21);
        let shapes = random.shapes();
        let mut clipped = 0;
        for k in 0..4000 {
            let a = &shapes[k % shapes.len()];
            let b = &shapes[(k * 3 + 2) % shapes.len()];
            let (pa, pb) = random.pose_near(k);
            let pair = ShapePair::new(a, pa, b, pb);
            let normal = sat_test(&pair).normal;
            let mut steps = Vec::new();
            let traced = clip(&pair, normal, &mut steps);
            assert_eq!(contact_manifold(&pair, normal), traced, "case {k}");
            if steps.iter().any(|s| s.stage == ClipStage::ReferenceFace) {
                clipped += 1;
            }
        }
        // Most cases clip two edges (the rest are single points).
        assert!(clipped > 1000, "{clipped}");
    }

    /// Outlines that stress the clip's search: a collinear point in the middle of a side, a
    /// repeated point, a side bent just past the collinear tolerance, a triangle and a
    /// segment (a capsule of radius 0).
    fn awkward_outlines() -> Vec<Shape> {
        vec![
            outlines::split_top(),
            outlines::repeated_point(),
            outlines::bent_top(),
            Shape::polygon(vec![v(0.0, 0.0), v(2.0, 0.0), v(0.0, 1.0)]).unwrap(),
            Shape::capsule(0.7, 0.0).unwrap(),
        ]
    }

    #[test]
    fn lone_best_edge_matches_the_walk_bit_for_bit() {
        // The loop-free best edge of a small core (`lone_best_edge`, taken when every edge
        // has a length and no neighbour is near collinear) against the walk it skips
        // (`walk_to_best_side`): the same edge, the same numbers, on random poses and on
        // directions that force ties: each edge's own turned normal (as SAT hands it over),
        // the bisector of two neighbouring normals (both edges at the vertex equally good),
        // axis-aligned directions on unturned bodies. The outlines include collinear
        // points, a repeated point, a turn just past the collinear tolerance and a segment.
        let mut random = crate::query::sat::tests::Random(57);
        let mut shapes = random.shapes();
        shapes.extend(awkward_outlines());
        let (mut lone, mut compared) = (0, 0);
        for (j, shape) in shapes.iter().enumerate() {
            if shape.edge_count() == 0 {
                continue;
            }
            for k in 0..300 {
                let (pose, _) = random.pose_near(k);
                let pose = if k % 5 == 0 {
                    Pose::new(pose.position.round(), 0.0)
                } else {
                    pose
                };
                let placed = Placed::new(shape, pose, pose.position - v(0.5, -0.25));
                let edges = shape.edge_count();
                let e = k % edges;
                let angle = random.range(-3.2, 3.2);
                let directions = [
                    v(angle.cos(), angle.sin()),
                    placed.normal(e),
                    -placed.normal(e),
                    (placed.normal(e) + placed.normal((e + 1) % edges)).normalize_or_zero(),
                    [Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y][k % 4],
                ];
                for d in directions {
                    if d == Vec2::ZERO {
                        continue;
                    }
                    let body = if k % 2 == 0 { Body::A } else { Body::B };
                    let walked = walk_to_best_side(&placed, d, body, placed.support_index(d));
                    let side = best_side(&placed, d, body);
                    assert_eq!(side, walked, "shape {j}, case {k}, direction {d}");
                    compared += 1;
                    if shape.turn_cosines().is_some() && side.is_some_and(|s| s.lone) {
                        lone += 1;
                    }
                }
            }
        }
        assert!(
            compared > 10_000 && lone > compared / 2,
            "{lone} of {compared}"
        );
    }

    #[test]
    fn the_manifold_after_sat_equals_the_searched_manifold_bit_for_bit() {
        // `clip_after_sat` takes SAT's winning edge (or, when that edge faces away from the
        // contact, the face exactly opposite it), when the shape vouches for it, as that
        // body's best side instead of searching: wherever it does,
        // the handed side must be the one `best_side` finds, and the manifold and every
        // recorded step must be those of `clip` along SAT's normal, bit for bit. Random
        // poses, and poses that force ties: unturned or quarter-turned bodies on a grid of
        // quarters (equal boxes face to face, touching, corners on side planes, parallel
        // edges); outlines with collinear points, a repeated point, a tiny edge, a bend
        // just past the collinear tolerance, a triangle and a segment.
        use crate::query::sat::{sat, AxisSource};
        let mut random = crate::query::sat::tests::Random(71);
        let mut shapes = random.shapes();
        shapes.extend(awkward_outlines());
        shapes.extend([
            square(0.5),
            square(1.0),
            outlines::cut_corner(),
            Shape::capsule(0.5, 0.25).unwrap(),
            // Opposite faces: a long box and a parallelogram.
            Shape::rect(Vec2::new(1.3, 0.4)).unwrap(),
            Shape::polygon(vec![
                Vec2::new(-1.0, -0.5),
                Vec2::new(1.0, -0.5),
                Vec2::new(1.5, 0.5),
                Vec2::new(-0.5, 0.5),
            ])
            .unwrap(),
        ]);
        let bits = |m: &Manifold| {
            let mut out = vec![m.normal.x.to_bits(), m.normal.y.to_bits()];
            for c in &m.points {
                out.extend([c.point.x, c.point.y, c.depth].map(f32::to_bits));
            }
            out
        };
        let (mut handed, mut opposite, mut searched, mut cases) = (0, 0, 0, 0);
        for k in 0..20_000 {
            let a = &shapes[k % shapes.len()];
            let b = &shapes[(k * 7 + 3) % shapes.len()];
            let (mut pa, mut pb) = random.pose_near(k);
            if k % 3 == 0 {
                // On a grid: unturned or quarter-turned, offsets in quarters.
                let quarter = |j: usize| [0.0, std::f32::consts::FRAC_PI_2][j % 2];
                pa = Pose::new(pa.position.round(), quarter(k / 3));
                pb = Pose::new(
                    pa.position + (4.0 * (pb.position - pa.position)).round() / 4.0,
                    quarter(k / 6),
                );
            }
            let pair = ShapePair::new(a, pa, b, pb);
            let mut sat_steps = Vec::new();
            let s = sat(&pair, &mut sat_steps);
            // The handed side, wherever the handoff is used, is the searched one.
            if let AxisSource::Edge { body, index } = s.axis {
                let (shape, direction) = match body {
                    Body::A => (&pair.a, s.normal),
                    Body::B => (&pair.b, -s.normal),
                };
                match handed_side(shape, direction, body, index as usize) {
                    Some(side) => {
                        assert_eq!(
                            Some(side),
                            best_side(shape, direction, body),
                            "case {k}: {:?}",
                            s.axis
                        );
                        handed += 1;
                        opposite += usize::from(side.edge.index != index);
                    }
                    None => searched += 1,
                }
            }
            // The whole manifold and every recorded step, traced and untraced.
            let mut steps = Vec::new();
            let mut handed_steps = Vec::new();
            let expected = clip(&pair, s.normal, &mut steps);
            let traced = clip_after_sat(&pair, &s, &mut handed_steps);
            let untraced = contact_manifold_after_sat(&pair, &s);
            let what = format!("case {k}: {:?}", s.axis);
            assert_eq!(traced, expected, "{what}");
            assert_eq!(untraced, expected, "{what}");
            assert_eq!(bits(&traced), bits(&expected), "{what}");
            assert_eq!(bits(&untraced), bits(&expected), "{what}");
            assert_eq!(handed_steps, steps, "{what}");
            cases += 1;
        }
        eprintln!("{handed} handed ({opposite} opposite faces), {searched} searched of {cases}");
        assert!(
            handed > cases / 2 && opposite > 100 && searched > 100,
            "{handed} handed ({opposite} opposite faces), {searched} searched"
        );
    }

    #[test]
    fn farther_than_touch_is_the_gap_length_against_the_tolerance() {
        // `farther_than_touch` answers from bounds when it can (first the one that places
        // no centroid, `touch_tolerance_high`): it must answer `gap.length() >
        // touch_tolerance()` exactly. Shapes whose centroid lies far from their local
        // origin (so the quick bound is loose) and near it, sizes 1e-3 to 1e4, positions
        // near and far from the world origin, quarter turns and 1e-6 turns; gaps of zero,
        // at the tolerance and 1e-3 / 1e-6 either side of it, random, huge, infinite and
        // NaN; NaN positions and angles.
        let mut random = crate::query::sat::tests::Random(57);
        let shapes = tolerance_shapes();
        let (mut quick, mut cases) = (0, 0);
        for k in 0..20_000 {
            let (pair, scale) = tolerance_case(&shapes, &mut random, k);
            let touch = pair.touch_tolerance();
            let direction = Vec2::from_angle(random.range(-3.2, 3.2));
            let length = match k % 10 {
                0 => 0.0,
                1 => touch,
                2 => touch * 1.001,
                3 => touch * 0.999,
                4 => touch * (1.0 + 1.0e-6),
                5 => touch * (1.0 - 1.0e-6),
                6 => random.range(0.0, 4.0) * scale,
                7 => 1.0e30,
                8 => f32::INFINITY,
                _ => f32::NAN,
            };
            let gap = direction * length;
            // The answer from the centroids' bounds alone, as before the quick bound: the
            // same, and `gap.length() > touch` whenever the pose is a number (a NaN
            // position can leave the bounds' low end above the tolerance).
            let (low, high) = pair.touch_tolerance_bounds();
            let length_squared = gap.length_squared();
            let before = if length_squared > (1.001 * high) * (1.001 * high) {
                true
            } else if length_squared < (0.999 * low) * (0.999 * low) {
                false
            } else {
                gap.length() > touch
            };
            let what = format!("case {k}: gap {gap:?}, touch {touch}");
            assert_eq!(farther_than_touch(&pair, gap), before, "{what}");
            if k % 997 != 0 && k % 991 != 0 {
                assert_eq!(before, gap.length() > touch, "{what}");
            }
            let high = pair.touch_tolerance_high();
            quick += usize::from(gap.length_squared() > (1.001 * high) * (1.001 * high));
            cases += 1;
        }
        assert!(
            quick > cases / 4,
            "{quick} of {cases} told by the quick bound"
        );
    }

    /// Squares, a rectangle and quads whose centroid lies far from their local origin (a
    /// loose quick bound on the touch tolerance), at sizes 1e-3, 1 and 1e4: the shapes of
    /// the tests of the clip's tolerance bounds.
    fn tolerance_shapes() -> Vec<Shape> {
        let mut shapes = Vec::new();
        for size in [1.0e-3, 1.0, 1.0e4] {
            shapes.push(square(size));
            shapes.push(Shape::rect(Vec2::new(1.3 * size, 0.4 * size)).unwrap());
            let off = [(0.0, 0.0), (5.0, 0.0), (3.0, -4.0), (-40.0, 25.0)];
            for (dx, dy) in off {
                let corner = |x: f32, y: f32| Vec2::new(x + dx, y + dy) * size;
                let points = vec![
                    corner(-1.0, -0.6),
                    corner(1.1, -0.5),
                    corner(0.8, 0.7),
                    corner(-0.9, 0.5),
                ];
                shapes.push(Shape::polygon(points).unwrap());
            }
        }
        shapes
    }

    /// Case `k` of the tolerance tests: two of `shapes` posed near each other, at a scale of
    /// 1e-3, 1 or 1e4 (returned), turned by 0, 1e-6 or a quarter turn (and a quarter turn
    /// plus 1e-6) now and then, with a NaN position or angle once in about a thousand.
    fn tolerance_case<'s>(
        shapes: &'s [Shape],
        random: &mut crate::query::sat::tests::Random,
        k: usize,
    ) -> (ShapePair<'s>, f32) {
        let a = &shapes[k % shapes.len()];
        let b = &shapes[(k * 7 + 3) % shapes.len()];
        let (mut pa, mut pb) = random.pose_near(k);
        let scale = [1.0e-3, 1.0, 1.0e4][k % 3];
        pb.position = pa.position + (pb.position - pa.position) * scale;
        pb.angle = match k % 6 {
            0 => 0.0,
            1 => 1.0e-6,
            2 => std::f32::consts::FRAC_PI_2,
            3 => std::f32::consts::FRAC_PI_2 + 1.0e-6,
            _ => pb.angle,
        };
        if k.is_multiple_of(997) {
            pb.position.x = f32::NAN;
        } else if k.is_multiple_of(991) {
            pa.angle = f32::NAN;
        }
        (ShapePair::new(a, pa, b, pb), scale)
    }

    #[test]
    fn kept_is_the_separation_against_the_tolerance() {
        // `kept` drops a point beyond the quick bound `touch_tolerance_high` without the
        // tolerance itself: it must answer `separation <= 0 || separation <= touch`
        // exactly. Squares and quads whose centroid lies far from their local origin (a
        // loose quick bound), sizes 1e-3 to 1e4, quarter turns and 1e-6 turns; separations
        // of zero, at the tolerance and 1e-6 / 1e-3 either side of it, at the quick bound,
        // random, huge, infinite and NaN; NaN positions and angles.
        let mut random = crate::query::sat::tests::Random(58);
        let shapes = tolerance_shapes();
        let (mut quick, mut above) = (0, 0);
        for k in 0..20_000 {
            let (pair, scale) = tolerance_case(&shapes, &mut random, k);
            let touch = pair.touch_tolerance();
            let high = 1.001 * pair.touch_tolerance_high();
            let separation = match k % 13 {
                0 => 0.0,
                1 => -0.0,
                2 => touch,
                3 => touch * (1.0 + 1.0e-6),
                4 => touch * (1.0 - 1.0e-6),
                5 => touch * 1.001,
                6 => high,
                7 => f32::from_bits(high.to_bits() + 1),
                8 => random.range(-2.0, 4.0) * scale,
                9 => 1.0e30,
                10 => f32::INFINITY,
                11 => -touch,
                _ => f32::NAN,
            };
            let what = format!("case {k}: separation {separation}, touch {touch}");
            let exact = separation <= 0.0 || separation <= touch;
            assert_eq!(kept(&pair, separation), exact, "{what}");
            quick += usize::from(separation > high);
            above += usize::from(separation > 0.0);
        }
        // About half the cases above the face lie near the tolerance on purpose.
        assert!(
            quick > above / 3,
            "{quick} of {above} told by the quick bound"
        );
    }

    #[test]
    fn handed_reference_choice_matches_the_searched_one_on_ties_and_scales() {
        // `clip_handed` chooses the reference between SAT's handed side and the other
        // body's searched side without laying them out as A's and B's first: the manifold
        // and every recorded step must be `clip`'s along SAT's normal, bit for bit. Boxes
        // and quads from 1e-3 to 1e4 in size; equal boxes face to face (the two sides face
        // the normal equally: the preference for A decides), touching and on a grid of
        // quarters; turns of 0, 1e-6 and quarter turns; random poses. (Poses with a NaN
        // are `query::pair`'s `non_number_poses_are_answered_not_panicked`.)
        use crate::query::sat::sat;
        let mut random = crate::query::sat::tests::Random(93);
        let quad = |s: f32| {
            Shape::polygon(vec![
                Vec2::new(-1.0, -0.6) * s,
                Vec2::new(1.1, -0.5) * s,
                Vec2::new(0.8, 0.7) * s,
                Vec2::new(-0.9, 0.5) * s,
            ])
            .unwrap()
        };
        let mut shapes = Vec::new();
        for size in [1.0e-3, 0.5, 1.0, 3.0, 1.0e4] {
            shapes.push(square(size));
            shapes.push(Shape::rect(Vec2::new(1.3 * size, 0.4 * size)).unwrap());
            shapes.push(quad(size));
        }
        let bits = |m: &Manifold| {
            let mut out = vec![m.normal.x.to_bits(), m.normal.y.to_bits()];
            out.extend([m.reference_edge, m.incident_edge, m.count as u32]);
            for c in &m.points {
                out.extend([c.point.x, c.point.y, c.depth].map(f32::to_bits));
                out.extend(c.id);
            }
            out
        };
        let (mut ties, mut cases) = (0, 0);
        for k in 0..30_000 {
            let a = &shapes[k % shapes.len()];
            // Mostly a body of the same size, so the two sizes meet face to face.
            let b = &shapes[if k % 4 == 0 {
                (k * 7 + 3) % shapes.len()
            } else {
                k % shapes.len() / 3 * 3 + (k / 3) % 3
            }];
            let size = a.bounding_radius().max(b.bounding_radius());
            let (pa, pb) = random.pose_near(k);
            let offset = (pb.position - pa.position) * size;
            let turn = match k % 5 {
                0 => 0.0,
                1 => 1.0e-6,
                2 => std::f32::consts::FRAC_PI_2,
                3 => std::f32::consts::FRAC_PI_2 + 1.0e-6,
                _ => pb.angle,
            };
            let (pa, pb) = match k % 3 {
                // Equal bodies face to face or touching: offsets on a grid of quarters
                // of the size, both unturned or quarter-turned.
                0 => (
                    Pose::new(pa.position, 0.0),
                    Pose::new(
                        pa.position + (4.0 * offset / size).round() / 4.0 * size,
                        turn,
                    ),
                ),
                1 => (
                    Pose::new(pa.position, turn),
                    Pose::new(pa.position + offset, pb.angle),
                ),
                _ => (pa, Pose::new(pa.position + offset, turn)),
            };
            let pair = ShapePair::new(a, pa, b, pb);
            let s = sat(&pair, &mut ());
            let mut steps = Vec::new();
            let mut handed_steps = Vec::new();
            let expected = clip(&pair, s.normal, &mut steps);
            let traced = clip_after_sat(&pair, &s, &mut handed_steps);
            let untraced = contact_manifold_after_sat(&pair, &s);
            assert_eq!(bits(&traced), bits(&expected), "case {k}");
            assert_eq!(bits(&untraced), bits(&expected), "case {k}");
            assert_eq!(handed_steps, steps, "case {k}");
            ties += usize::from(
                expected.count == 2 && expected.points[0].depth == expected.points[1].depth,
            );
            cases += 1;
        }
        eprintln!("{ties} level contacts of {cases}");
        assert!(ties > 500, "{ties} level contacts");
    }

    #[test]
    fn side_planes_from_the_normal_match_the_chord() {
        // The side planes of a single reference edge face along its stored normal turned
        // (no square root) instead of the normalized chord from start to end, which changes
        // the last bits of the points: the same edges, reference, point count, ids and ends,
        // and points and depths within 1e-5 of the pair's scale, on random poses and on
        // poses that force ties (unturned bodies on a grid of quarters: corners exactly on
        // side planes, parallel edges, equal boxes).
        let mut random = crate::query::sat::tests::Random(93);
        let mut shapes = random.shapes();
        shapes.push(square(0.5));
        let (mut clipped, mut on_grid) = (0, 0);
        for k in 0..6000 {
            let a = &shapes[k % shapes.len()];
            let b = &shapes[(k * 7 + 3) % shapes.len()];
            let (mut pa, mut pb) = random.pose_near(k);
            if k % 3 == 0 {
                pa = Pose::new(pa.position.round(), 0.0);
                let turn = [0.0, std::f32::consts::FRAC_PI_2][k % 2];
                pb = Pose::new(
                    pa.position + (4.0 * (pb.position - pa.position)).round() / 4.0,
                    turn,
                );
                on_grid += 1;
            }
            let pair = ShapePair::new(a, pa, b, pb);
            let normal = sat_test(&pair).normal;
            let new = clip(&pair, normal, &mut ());
            let old = clip_with::<_, true>(&pair, normal, &mut ());
            let what = format!("case {k}: {new:?} against {old:?}");
            assert_eq!(
                (
                    new.reference,
                    new.reference_edge,
                    new.incident_edge,
                    new.count
                ),
                (
                    old.reference,
                    old.reference_edge,
                    old.incident_edge,
                    old.count
                ),
                "{what}"
            );
            assert!(close_v(new.normal, old.normal, 1e-6), "{what}");
            let tolerance = 1e-5 * pair.scale();
            for (p, q) in new.points().iter().zip(old.points()) {
                assert_eq!((p.id, p.end), (q.id, q.end), "{what}");
                assert!(close_v(p.point, q.point, tolerance), "{what}");
                assert!(close(p.depth, q.depth, tolerance), "{what}");
            }
            if new.count == 2 {
                clipped += 1;
            }
        }
        assert!(clipped > 1000 && on_grid == 2000, "{clipped}");
    }

    #[test]
    fn small_box_on_big_box_gives_two_points() {
        // B (half 0.5) sits 0.1 deep on A's top face (y = 1): B's bottom at y = 0.9.
        let (a, b) = (square(1.0), square(0.5));
        let (m, steps) = run(&a, at(0.0, 0.0), &b, at(0.2, 1.4));
        assert_eq!(m.count, 2);
        assert_eq!(m.reference, Body::A);
        assert!(close_v(m.normal, v(0.0, 1.0), 1e-6));
        for c in m.points() {
            assert!(close(c.depth, 0.1, 1e-5));
            assert!(
                close(c.point.y, 0.9, 1e-5),
                "points lie on the incident body"
            );
        }
        let xs: Vec<f32> = m.points().iter().map(|c| c.point.x).collect();
        assert!(
            xs.iter().any(|x| close(*x, -0.3, 1e-5)) && xs.iter().any(|x| close(*x, 0.7, 1e-5))
        );
        let stages: Vec<ClipStage> = steps.iter().map(|s| s.stage).collect();
        assert_eq!(
            stages,
            vec![
                ClipStage::ChooseEdges,
                ClipStage::SideStart,
                ClipStage::SideEnd,
                ClipStage::ReferenceFace
            ]
        );
    }

    #[test]
    fn big_box_on_small_box_flips_the_reference_and_clips() {
        // A small below, B big above: B's bottom face is the longer, but both faces are
        // exactly perpendicular to the normal, so A keeps the reference on the tie. The
        // incident edge (B's, 2 long) is clipped to A's 1-long face: two created points.
        let (small, big) = (square(0.5), square(1.0));
        let (m, steps) = run(&small, at(0.0, 0.0), &big, at(0.3, 1.4));
        assert_eq!(m.count, 2);
        assert!(close_v(m.normal, v(0.0, 1.0), 1e-6));
        assert!(steps.iter().any(|s| !s.created.is_empty()));
        for c in m.points() {
            assert!(close(c.depth, 0.1, 1e-5));
            assert!(c.point.x >= -0.5 - 1e-5 && c.point.x <= 0.5 + 1e-5);
        }
    }

    #[test]
    fn tilted_box_corner_gives_one_point() {
        // B turned 45 degrees with its lowest corner 0.1 below A's top face.
        let (a, b) = (square(1.0), square(0.5));
        let corner = 0.5 * 2f32.sqrt();
        let (m, _) = run(&a, at(0.0, 0.0), &b, at_deg(0.0, 1.0 + corner - 0.1, 45.0));
        assert_eq!(m.count, 1);
        assert!(close(m.points[0].depth, 0.1, 1e-5));
        assert!(close_v(m.points[0].point, v(0.0, 0.9), 1e-5));
    }

    #[test]
    fn reference_is_b_when_b_faces_the_normal_better() {
        // A tilted 45 degrees pokes a corner up into B's flat bottom face.
        let (a, b) = (square(0.5), square(1.0));
        let corner = 0.5 * 2f32.sqrt();
        let (m, _) = run(&a, at_deg(0.0, 0.0, 45.0), &b, at(0.0, corner + 1.0 - 0.1));
        assert_eq!(m.reference, Body::B);
        assert!(
            close_v(m.normal, v(0.0, 1.0), 1e-5),
            "normal still from A toward B"
        );
        assert_eq!(m.count, 1);
        assert!(
            close_v(m.points[0].point, v(0.0, corner), 1e-5),
            "on the incident body A"
        );
    }

    #[test]
    fn collinear_points_along_the_face_do_not_shorten_it() {
        // A's top face listed as three collinear points: the manifold must span the face.
        let a = outlines::split_top();
        let b = Shape::rect(v(0.8, 0.5)).unwrap();
        let (m, _) = run(&a, at(0.0, 0.0), &b, at(0.0, 1.4));
        assert_eq!(m.count, 2);
        let mut xs: Vec<f32> = m.points().iter().map(|c| c.point.x).collect();
        xs.sort_by(f32::total_cmp);
        assert!(
            close(xs[0], -0.8, 1e-5) && close(xs[1], 0.8, 1e-5),
            "{xs:?}"
        );
    }

    #[test]
    fn circle_on_box_gives_its_deepest_point() {
        let (a, c) = (square(1.0), Shape::circle(0.5).unwrap());
        let (m, steps) = run(&a, at(0.0, 0.0), &c, at(0.2, 1.4));
        assert_eq!(m.count, 1);
        assert!(close_v(m.points[0].point, v(0.2, 0.9), 1e-5));
        assert!(close(m.points[0].depth, 0.1, 1e-5));
        assert_eq!(steps[0].stage, ClipStage::RoundPoint);
    }

    #[test]
    fn capsule_lying_on_a_face_gives_two_points() {
        let (a, cap) = (square(1.0), Shape::capsule(0.5, 0.25).unwrap());
        let (m, _) = run(&a, at(0.0, 0.0), &cap, at(0.0, 1.2));
        assert_eq!(m.count, 2);
        for c in m.points() {
            assert!(close(c.depth, 0.05, 1e-5), "{}", c.depth);
            assert!(close(c.point.y, 0.95, 1e-5), "on the capsule's surface");
        }
    }

    #[test]
    fn feature_ids_are_stable_under_small_motion() {
        let (a, b) = (square(1.0), square(0.5));
        let (m1, _) = run(&a, at(0.0, 0.0), &b, at(0.2, 1.4));
        let (m2, _) = run(&a, at(0.0, 0.0), &b, at(0.21, 1.41));
        let ids = |m: &Manifold| m.points().iter().map(|c| (c.id, c.end)).collect::<Vec<_>>();
        assert_eq!(ids(&m1), ids(&m2));
        assert_ne!(m1.points[0].end, m1.points[1].end);
    }

    #[test]
    fn half_plane_clip_interpolates() {
        let plane = ClipPlane {
            point: v(1.0, 0.0),
            normal: v(1.0, 0.0),
        };
        let out = clip_segment_to_half_plane([(v(0.0, 0.0), 0), (v(2.0, 2.0), 1)], plane).unwrap();
        assert_eq!(out[0], (v(0.0, 0.0), 0));
        assert!(close_v(out[1].0, v(1.0, 1.0), 1e-6));
        assert!(clip_segment_to_half_plane([(v(2.0, 0.0), 0), (v(3.0, 0.0), 1)], plane).is_none());
    }

    #[test]
    fn triangle_corner_against_a_capsule_side_is_one_point_on_both() {
        // Found by the property tests: the triangle's short edge is within 1 degree of the
        // normal, the capsule's core is not, so clipping the core kept nothing near the
        // contact and a point 0.08 away was reported.
        let a = Shape::polygon(vec![
            v(0.55260557, 0.13945195),
            v(0.4888713, 0.2880589),
            v(-0.4914325, -0.28385714),
        ])
        .unwrap();
        let b = Shape::capsule(0.8474526, 0.72412777).unwrap();
        let pa = Pose::new(v(1.4660958, 0.5566658), 3.0263424);
        let pb = Pose::new(
            v(
                -0.5798141 + 0.95390975 * 0.01,
                -0.026969153 + 0.3000934 * 0.01,
            ),
            0.16165482,
        );
        let (m, _) = run(&a, pa, &b, pb);
        assert_eq!(m.count, 1);
        // The contact is at A's corner, 0.01 inside the capsule.
        let corner = pa.transform_point(v(0.4888713, 0.2880589));
        assert!(
            (m.points[0].point - corner).length() < 0.02,
            "{:?} vs corner {corner}",
            m.points[0]
        );
        assert!(
            close(m.points[0].depth, 0.01, 1e-4),
            "{}",
            m.points[0].depth
        );
    }
}
