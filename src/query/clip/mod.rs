//! Contact manifold by clipping: the incident edge cut down to the reference edge.
//!
//! The algorithm, its pseudo-code and its sources are in `reference.rs`: the textbook
//! clip (Box2D's), generic over the [`Tracer`]. It is the only traced path, so what the
//! window, `trace` and the goldens show is that clip.
//!
//! Untraced, the entry points take fast paths that give the reference's manifold bit for
//! bit (checked in the agreement harness, `src/agreement.rs`):
//! - `lone_side.rs`: a body's best side found without walking its outline, when the shape
//!   says that side is one edge;
//! - `handoff.rs`: after SAT, its winning edge taken as that body's best side when the
//!   shape vouches for it, so only the other body is searched.

pub(crate) mod handoff;
mod lone_side;
pub(crate) mod reference;
#[cfg(test)]
mod tests;

pub use reference::clip_segment_to_half_plane;

use super::sat::SatOutput;
use super::{Body, ShapePair};
use crate::geom::Placed;
use crate::trace::Tracer;
use glam::Vec2;
use reference::next;

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
/// beyond the list of steps. Reads as a slice.
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
    if T::ENABLED {
        return reference::clip(pair, normal, tracer);
    }
    // Untraced: each best side without the walk where the shape allows it.
    let side_a = lone_side::best_side(&pair.a, normal, Body::A);
    let side_b = lone_side::best_side(&pair.b, -normal, Body::B);
    reference::clip_sides(pair, normal, side_a, side_b, &mut ())
}

/// Builds the manifold along SAT's normal, without recording: [`contact_manifold`] along
/// `sat.normal`, the same output, with one search fewer when SAT's winner is an edge facing
/// the contact (see `handoff.rs`).
pub fn contact_manifold_after_sat(pair: &ShapePair, sat: &SatOutput) -> Manifold {
    clip_after_sat(pair, sat, &mut ())
}

/// [`clip`] along SAT's normal, recording each stage. Untraced, SAT's winning edge is taken
/// as that body's best side where the shape vouches for it: the same manifold, bit for bit.
pub fn clip_after_sat<T: Tracer<ClipStep>>(
    pair: &ShapePair,
    sat: &SatOutput,
    tracer: &mut T,
) -> Manifold {
    if T::ENABLED {
        return reference::clip(pair, sat.normal, tracer);
    }
    handoff::contact_manifold_after_sat(pair, sat)
}

/// The side of `shape` that faces `direction` best: the farthest vertex along it, then the
/// adjacent edge whose outward normal is closest to `direction`, widened over collinear
/// neighbours. `None` for a point core.
pub fn best_edge(shape: &Placed, direction: Vec2, body: Body) -> Option<EdgeFeature> {
    lone_side::best_side(shape, direction, body).map(|side| side.edge)
}
