//! Swept SAT in 3D, the reference: when do two polyhedra translating at constant velocities
//! first touch, and when do they part? This is the loop that `trace`, the window and the
//! golden traces record; the untraced fast path for small bodies ([`super::small`]) gives
//! its answer bit for bit (all but the count of axes tested, which its pruning may lower).
//!
//! Algorithm (Ericson, *Real-Time Collision Detection*, 5.5.8, generalised to every
//! separating axis of two polyhedra; Eberly, "Dynamic collision detection using oriented
//! bounding boxes"; Gregorius, "The separating axis test between convex polyhedra", GDC
//! 2013, for the Gauss-map test):
//!
//! ```text
//! v = vB - vA                       only the relative motion counts: A stands still
//! axes = faces of A, faces of B, edge pairs whose Gauss-map arcs cross and whose edges are
//!        not parallel (pure translation turns nothing, so these stay exactly the face
//!        normals of A - B for every t)
//! for each axis u:
//!     [minA, maxA], [minB, maxB] = the bodies' intervals along u at t = 0
//!     s = v . u                     B's interval slides along u at speed s
//!     s > still:   t_enter = (minA - maxB) / s,  t_exit = (maxA - minB) / s
//!     s < -still:  t_enter = (maxA - minB) / s,  t_exit = (minA - maxB) / s
//!     otherwise:   always (the intervals overlap, within touch) or never
//! t_first = max t_enter (with the tie rule below), t_last = min t_exit
//! hit when max(t_first, 0) <= min(t_last, t_max); the axis of the latest entry gives the
//! normal (+u when s < 0, -u when s > 0); when t_first <= 0 the bodies overlap at the start:
//! time 0, SAT's axis and normal. The manifold is built at t_first along the normal.
//! ```
//!
//! Conventions. Every axis is oriented as SAT orients it, from A toward B at t = 0: A's face
//! normals as they are, B's negated, an edge pair's cross product turned away from A's
//! centroid. `t_enter > t_exit` on an axis means its intervals never overlap. The recorded
//! steps are in the world: axes turned to the world's orientation, intervals shifted by the
//! projection of the work frame's origin (A's position).
//!
//! On a tie of entry times (the two opposite faces of a box give the same line) the face
//! that faces the contact is kept, then any face, then an edge pair ([`rank`]).
//!
//! The frame. Small bodies (up to [`SMALL_VERTICES`] vertices and [`SMALL_FEATURES`] faces
//! and edges each) are swept in A's local frame, as Box2D and Box3D do ([`LocalFrame`]): B's
//! vertices and face normals are turned into it once, A's are read as stored, and the
//! relative velocity is turned once. B's vertices are turned but not moved: its position T
//! is added once per axis (`u . T`), so two parallel edges or opposite faces of a symmetric
//! body give the same numbers and tie exactly, as the tie rule expects. Larger bodies, and
//! placements that are not finite, are swept in the work frame ([`WorkFrame`]): each body's
//! interval from its vertices placed there (up to 32) or by support searches
//! ([`super::placed`]). The two frames give the same axes and the same winner; their
//! numbers differ in the last bits (a test compares them).
//!
//! Two ends need no search. On an edge axis the Gauss-map arcs cross at u, so A's edge is
//! A's extreme along u and B's edge is B's extreme along -u: A's max and B's min are read
//! off their edges (the tails' projections), and only the far ends are scanned. And a
//! body's interval along one of its own face normals is the same in every pose: it is
//! taken in the body's own frame.
//!
//! Tolerances: a speed below [`STILL_SPEED`] times the pair's scale counts as no motion
//! along the axis (the quotients would be meaningless), entries within [`TIE_TOLERANCE`] of
//! the sweep time tie, gaps below the pair's touch tolerance count as contact (as in SAT),
//! and edges within SAT's [`PARALLEL_TOLERANCE`] of parallel give no axis.

use super::placed::PlacedVertices;
use super::{Motion3, Output, Pruned, Status, Step, SweepAxis, STILL_SPEED, TIE_TOLERANCE};
use crate::geom3::Polyhedron;
#[cfg(doc)]
use crate::query3::sat::PARALLEL_TOLERANCE;
use crate::query3::sat::{edge_pair_axis, sat_test, AxisId, EdgeFrame, EdgeFrames};
use crate::query3::{Interval, PolyPair};
use crate::trace::Tracer;
use glam::{Mat3A, Vec3, Vec3A};

/// Sweeps the pair over [0, motion.t_max], recording every axis's time interval: in A's
/// frame when the bodies are small, else in the work frame (see the header).
pub(crate) fn time_of_impact<T: Tracer<Step>>(
    pair: &PolyPair,
    motion: &Motion3,
    tracer: &mut T,
) -> Output {
    let v = motion.velocity_b - motion.velocity_a;
    match LocalFrame::new(pair, v) {
        Some(frame) => time_of_impact_in(&frame, pair, motion, tracer),
        None => time_of_impact_in(&WorkFrame::new(pair, v), pair, motion, tracer),
    }
}

/// The swept SAT loop in `frame`: every candidate axis in order (A's faces, B's faces, the
/// edge pairs, A's edge major), its entry and exit times, the latest entry and the earliest
/// exit.
pub(super) fn time_of_impact_in<F: SweepFrame, T: Tracer<Step>>(
    frame: &F,
    pair: &PolyPair,
    motion: &Motion3,
    tracer: &mut T,
) -> Output {
    let still = STILL_SPEED * pair.scale();
    let touch = pair.touch_tolerance();
    let mut latest = Latest::new(motion);
    let (a, b) = (pair.a.shape, pair.b.shape);
    // One step per face axis and per edge pair whose Gauss-map arcs cross (on the order of
    // the two edge counts, the overlay of two Gauss maps): room for them made once.
    tracer.reserve(a.face_count() + b.face_count() + a.edges().len() + b.edges().len());
    let mut consider = |id: AxisId, p: Projection| {
        let (t_enter, t_exit) = entry_and_exit(p.a, p.b, p.speed, still, touch);
        tracer.record(|| Step::Axis(frame.step(id, &p, t_enter, t_exit)));
        let candidate = Candidate {
            id,
            axis: p.axis,
            speed: p.speed,
            t_enter,
        };
        latest.offer(candidate, t_exit);
    };
    for i in 0..a.face_count() {
        consider(AxisId::FaceA(i as u32), frame.face_a(i));
    }
    for j in 0..b.face_count() {
        consider(AxisId::FaceB(j as u32), frame.face_b(j));
    }
    for i in 0..a.edges().len() {
        let edge_a = frame.edge_a(i);
        for j in 0..b.edges().len() {
            if let Some(axis) = frame.edge_axis(&edge_a, j) {
                consider(
                    AxisId::Edges(i as u32, j as u32),
                    frame.edge_pair(&edge_a, j, axis),
                );
            }
        }
    }
    finish(pair, motion, latest, |best| frame.contact_normal(best))
}

/// The times B's interval enters and leaves A's on an axis where B moves at `speed`
/// (`t_enter > t_exit` when never; see the header).
#[inline(always)]
pub(super) fn entry_and_exit(
    ia: Interval,
    ib: Interval,
    speed: f32,
    still: f32,
    touch: f32,
) -> (f32, f32) {
    if speed > still {
        ((ia.min - ib.max) / speed, (ia.max - ib.min) / speed)
    } else if speed < -still {
        ((ia.max - ib.min) / speed, (ia.min - ib.max) / speed)
    } else if ib.min <= ia.max + touch && ia.min <= ib.max + touch {
        (f32::NEG_INFINITY, f32::INFINITY)
    } else {
        (f32::INFINITY, f32::NEG_INFINITY)
    }
}

/// The answer from the latest entry and the earliest exit: a miss, a hit at `t_first`
/// (`contact_normal` places the winning axis's normal in the world), or an overlap at the
/// start (SAT's axis and normal).
pub(super) fn finish(
    pair: &PolyPair,
    motion: &Motion3,
    latest: Latest,
    contact_normal: impl FnOnce(&Candidate) -> Vec3,
) -> Output {
    let v = motion.velocity_b - motion.velocity_a;
    let Latest {
        best: latest,
        earliest_exit,
        tested,
        ..
    } = latest;
    let miss = |status| Output::missed(status, latest.map_or(AxisId::FaceA(0), |l| l.id), tested);
    let Some(best) = latest else {
        return miss(Status::Miss);
    };
    if best.t_enter.is_nan() || earliest_exit.is_nan() || !v.is_finite() {
        return miss(Status::NonFinite);
    }
    let t_first = best.t_enter.max(0.0);
    let t_last = earliest_exit.min(motion.t_max);
    if t_first > t_last {
        return miss(Status::Miss);
    }
    let (status, normal, axis) = if best.t_enter <= 0.0 {
        let s = sat_test(pair);
        (Status::InitiallyOverlapping, s.normal, s.axis)
    } else {
        (Status::Hit, contact_normal(&best), best.id)
    };
    Output {
        hit: true,
        t_first: Some(t_first),
        t_last: Some(t_last.max(t_first)),
        normal,
        axis,
        status,
        axes_tested: tested,
        manifold: None,
    }
}

/// One candidate axis in a frame: the unit axis, both bodies' intervals along it at t = 0
/// and B's speed along it relative to A.
pub(super) struct Projection {
    pub(super) axis: Vec3,
    pub(super) a: Interval,
    pub(super) b: Interval,
    pub(super) speed: f32,
}

/// The pair as the loop sees it, in one frame: each candidate axis projected, the step as
/// recorded (in the world), and the winner's normal in the world.
pub(super) trait SweepFrame {
    /// What the edge-pair loop keeps of an edge of A while it runs over B's edges.
    type EdgeA;
    /// Face `i` of A: its normal.
    fn face_a(&self, i: usize) -> Projection;
    /// Face `j` of B: its normal negated.
    fn face_b(&self, j: usize) -> Projection;
    fn edge_a(&self, i: usize) -> Self::EdgeA;
    /// The axis of an edge of A and edge `j` of B: `None` unless their Gauss-map arcs cross
    /// and the edges are not parallel (SAT's test, [`edge_pair_axis`]).
    fn edge_axis(&self, edge_a: &Self::EdgeA, j: usize) -> Option<Vec3>;
    /// The edge pair's axis projected.
    fn edge_pair(&self, edge_a: &Self::EdgeA, j: usize, axis: Vec3) -> Projection;
    /// The step recorded for an axis, in the world.
    fn step(&self, id: AxisId, p: &Projection, t_enter: f32, t_exit: f32) -> SweepAxis;
    /// The contact normal of the winning axis, in the world's orientation (+axis when B
    /// approaches along -axis).
    fn contact_normal(&self, best: &Candidate) -> Vec3;
}

/// The most vertices, and the most faces and edges, of a body swept in A's frame (the fast
/// path keeps B's turned features on the stack and B's edges as the bits of a `u64`):
/// within the polyhedron's own small size ([`crate::geom3::SMALL_VERTICES`]), so such a body
/// carries its [`crate::geom3::FeatureLanes`].
pub(super) const SMALL_VERTICES: usize = 32;
pub(super) const SMALL_FEATURES: usize = 64;
const _: () = assert!(
    SMALL_VERTICES <= crate::geom3::SMALL_VERTICES
        && SMALL_FEATURES <= crate::geom3::SMALL_FACES
        && SMALL_FEATURES <= crate::geom3::SMALL_EDGES
);

/// B's rotation and position in A's frame (a point `p` of B's polyhedron is at
/// `rotation p + translation`) and B's velocity relative to A, in A's frame.
#[derive(Clone, Copy)]
pub(super) struct PlacementInA {
    pub(super) rotation: Mat3A,
    pub(super) translation: Vec3,
    pub(super) velocity: Vec3,
}

impl PlacementInA {
    /// `None` when a body is too large to be swept in A's frame (see the constants) or the
    /// placement is not finite, or so large that a placed coordinate could overflow: the
    /// work frame takes those.
    pub(super) fn new(pair: &PolyPair, velocity: Vec3) -> Option<PlacementInA> {
        let (a, b) = (&pair.a, &pair.b);
        let small = |s: &Polyhedron| {
            s.vertices().len() <= SMALL_VERTICES
                && s.face_count() <= SMALL_FEATURES
                && s.edges().len() <= SMALL_FEATURES
        };
        if !(small(a.shape) && small(b.shape)) {
            return None;
        }
        let rotation = a.frame_inverse * b.frame;
        let translation = Vec3::from(a.frame_inverse * Vec3A::from(b.translation - a.translation));
        let velocity = Vec3::from(a.frame_inverse * Vec3A::from(velocity));
        // Coordinates stay below 1e6 times this, far from f32::MAX.
        const LARGEST: f32 = 1.0e30;
        let bounded = |v: Vec3| v.is_finite() && v.abs().max_element() < LARGEST;
        if !(bounded(translation) && bounded(velocity) && rotation.is_finite()) {
            return None;
        }
        Some(PlacementInA {
            rotation,
            translation,
            velocity,
        })
    }

    /// A vector of B's frame turned into A's: row `k` of the rotation against it, `x r.x +
    /// y r.y + z r.z`.
    #[inline]
    pub(super) fn turn(&self, v: Vec3) -> Vec3 {
        let row = |k: usize| Vec3::from(self.rotation.row(k));
        Vec3::new(v.dot(row(0)), v.dot(row(1)), v.dot(row(2)))
    }
}

/// The pair in A's local frame, for small bodies (see the header): A's vertices, normals and
/// edges as the polyhedron stores them, B's turned into A's frame once.
pub(super) struct LocalFrame<'p, 'a> {
    pair: &'p PolyPair<'a>,
    placement: PlacementInA,
    /// B's vertices turned into A's frame, not moved (`rotation p`).
    vertices_b: Vec<Vec3>,
    /// B's face normals turned into A's frame.
    normals_b: Vec<Vec3>,
    /// B's edges from its turned vertices and normals (the arcs of the Gauss-map test).
    edges_b: Vec<EdgeFrame>,
}

impl<'p, 'a> LocalFrame<'p, 'a> {
    /// `None` when the pair is swept in the work frame ([`PlacementInA::new`]).
    pub(super) fn new(pair: &'p PolyPair<'a>, velocity: Vec3) -> Option<Self> {
        let placement = PlacementInA::new(pair, velocity)?;
        let b = pair.b.shape;
        let vertices_b: Vec<Vec3> = b.vertices().iter().map(|&p| placement.turn(p)).collect();
        let normals_b: Vec<Vec3> = (0..b.face_count())
            .map(|j| placement.turn(b.face_normal(j)))
            .collect();
        let edges_b = b
            .edges()
            .iter()
            .map(|e| {
                EdgeFrame::from_placed(
                    vertices_b[e.tail as usize],
                    vertices_b[e.head as usize],
                    normals_b[e.faces[0] as usize],
                    normals_b[e.faces[1] as usize],
                )
            })
            .collect();
        Some(LocalFrame {
            pair,
            placement,
            vertices_b,
            normals_b,
            edges_b,
        })
    }
}

/// A body's interval along its own face `i`'s normal (the same in every pose).
fn own_extent(shape: &Polyhedron, i: usize) -> Interval {
    let n = shape.face_normal(i);
    let (mut low, mut high) = (f32::INFINITY, f32::NEG_INFINITY);
    for v in shape.vertices() {
        let d = n.dot(*v);
        low = low.min(d);
        high = high.max(d);
    }
    Interval::new(low, high)
}

/// The interval of `points` projected onto `axis` (finite numbers here).
fn extent(points: &[Vec3], axis: Vec3) -> Interval {
    let (mut low, mut high) = (f32::INFINITY, f32::NEG_INFINITY);
    for p in points {
        let d = p.dot(axis);
        low = low.min(d);
        high = high.max(d);
    }
    Interval::new(low, high)
}

impl SweepFrame for LocalFrame<'_, '_> {
    /// A's edge and its tail (A's extreme along an axis its arc gives).
    type EdgeA = (EdgeFrame, Vec3);

    fn face_a(&self, i: usize) -> Projection {
        let shape_a = self.pair.a.shape;
        let n = shape_a.face_normal(i);
        let shift = n.dot(self.placement.translation);
        Projection {
            axis: n,
            a: own_extent(shape_a, i),
            b: extent(&self.vertices_b, n).shifted(shift),
            speed: n.dot(self.placement.velocity),
        }
    }

    /// Both bodies are projected onto B's normal `n`; the axis is `-n`, so both intervals
    /// turn over and the speed changes sign.
    fn face_b(&self, j: usize) -> Projection {
        let n = self.normals_b[j];
        let a = extent(self.pair.a.shape.vertices(), n);
        let b = own_extent(self.pair.b.shape, j);
        let shift = n.dot(self.placement.translation);
        Projection {
            axis: -n,
            a: Interval::new(-a.max, -a.min),
            b: Interval::new(-(b.max + shift), -(b.min + shift)),
            speed: -n.dot(self.placement.velocity),
        }
    }

    fn edge_a(&self, i: usize) -> (EdgeFrame, Vec3) {
        let shape_a = self.pair.a.shape;
        let e = &shape_a.edges()[i];
        let tail = shape_a.vertex(e.tail as usize);
        let frame = EdgeFrame::from_placed(
            tail,
            shape_a.vertex(e.head as usize),
            shape_a.face_normal(e.faces[0] as usize),
            shape_a.face_normal(e.faces[1] as usize),
        );
        (frame, tail)
    }

    fn edge_axis(&self, (frame_a, _): &(EdgeFrame, Vec3), j: usize) -> Option<Vec3> {
        let centroid_a = self.pair.a.shape.centroid();
        let (axis, _) = edge_pair_axis(frame_a, &self.edges_b[j], centroid_a, false).ok()?;
        Some(axis)
    }

    /// The near ends are the edges' tails (see the header); the far ends are scanned.
    fn edge_pair(&self, (_, tail_a): &(EdgeFrame, Vec3), j: usize, axis: Vec3) -> Projection {
        let shape_a = self.pair.a.shape;
        let tail_b = self.vertices_b[self.pair.b.shape.edges()[j].tail as usize];
        let shift = axis.dot(self.placement.translation);
        Projection {
            axis,
            a: Interval::new(extent(shape_a.vertices(), axis).min, axis.dot(*tail_a)),
            b: Interval::new(axis.dot(tail_b), extent(&self.vertices_b, axis).max).shifted(shift),
            speed: self.placement.velocity.dot(axis),
        }
    }

    fn step(&self, id: AxisId, p: &Projection, t_enter: f32, t_exit: f32) -> SweepAxis {
        let a = &self.pair.a;
        let world = Vec3::from(a.frame * Vec3A::from(p.axis));
        let shift = world.dot(self.pair.origin + a.translation);
        SweepAxis {
            id,
            axis: world,
            interval_a: p.a.shifted(shift),
            interval_b: p.b.shifted(shift),
            speed: p.speed,
            t_enter,
            t_exit,
        }
    }

    fn contact_normal(&self, best: &Candidate) -> Vec3 {
        contact_normal_from_a(self.pair, best)
    }
}

/// The contact normal of an axis found in A's frame, placed in the work frame as the work
/// frame's loop places it ([`world_normal`]), so that the answer does not carry the rounding
/// of turning A's frame back; turned back where that gives no axis.
pub(super) fn contact_normal_from_a(pair: &PolyPair, best: &Candidate) -> Vec3 {
    let normal = if best.speed > 0.0 {
        -best.axis
    } else {
        best.axis
    };
    world_normal(pair, best.id, best.speed)
        .unwrap_or_else(|| Vec3::from(pair.a.frame * Vec3A::from(normal)))
}

/// The contact normal of the winning axis placed in the work frame as the work frame's
/// loop places it (a face normal turned by its body's rotation, or SAT's axis of the two
/// edges placed there); `None` if the edge pair gives no axis there (a Gauss-map test
/// decided by rounding).
fn world_normal(pair: &PolyPair, id: AxisId, speed: f32) -> Option<Vec3> {
    let (a, b) = (&pair.a, &pair.b);
    let axis = match id {
        AxisId::FaceA(i) => a.face_normal(i as usize),
        AxisId::FaceB(j) => -b.face_normal(j as usize),
        AxisId::Edges(i, j) => {
            let frame_a = EdgeFrame::new(a, &a.shape.edges()[i as usize]);
            let frame_b = EdgeFrame::new(b, &b.shape.edges()[j as usize]);
            edge_pair_axis(&frame_a, &frame_b, a.centroid(), false)
                .ok()?
                .0
        }
        AxisId::Closest => return None,
    };
    Some(if speed > 0.0 { -axis } else { axis })
}

/// The pair in the work frame (larger bodies, or a placement in A's frame that is not
/// finite): each body placed there, its interval along an axis from its placed vertices or
/// by support searches ([`PlacedVertices`]), B's edges placed once where they fit.
pub(super) struct WorkFrame<'p, 'a> {
    pair: &'p PolyPair<'a>,
    velocity: Vec3,
    placed_a: PlacedVertices,
    placed_b: PlacedVertices,
    edges_b: EdgeFrames<'p, 'a>,
    centroid_a: Vec3,
}

impl<'p, 'a> WorkFrame<'p, 'a> {
    pub(super) fn new(pair: &'p PolyPair<'a>, velocity: Vec3) -> Self {
        WorkFrame {
            pair,
            velocity,
            placed_a: PlacedVertices::new(&pair.a),
            placed_b: PlacedVertices::new(&pair.b),
            edges_b: EdgeFrames::new(&pair.b),
            centroid_a: pair.a.centroid(),
        }
    }

    #[inline]
    fn project(&self, axis: Vec3) -> Projection {
        let (a, b) = (&self.pair.a, &self.pair.b);
        Projection {
            axis,
            a: self.placed_a.project(a, axis),
            b: self.placed_b.project(b, axis),
            speed: self.velocity.dot(axis),
        }
    }
}

impl SweepFrame for WorkFrame<'_, '_> {
    /// A's edge placed, and its arc in B's local frame when B's edges are not placed once
    /// (large bodies: [`EdgeFrames::surely_apart`] then rejects most pairs there).
    type EdgeA = (EdgeFrame, Option<[Vec3; 3]>);

    fn face_a(&self, i: usize) -> Projection {
        self.project(self.pair.a.face_normal(i))
    }

    fn face_b(&self, j: usize) -> Projection {
        self.project(-self.pair.b.face_normal(j))
    }

    fn edge_a(&self, i: usize) -> Self::EdgeA {
        let a = &self.pair.a;
        let frame_a = EdgeFrame::new(a, &a.shape.edges()[i]);
        let local_a = self.edges_b.local_arc(&frame_a);
        (frame_a, local_a)
    }

    /// Most pairs fail here, in the loop's inner step: inlined.
    #[inline(always)]
    fn edge_axis(&self, (frame_a, local_a): &Self::EdgeA, j: usize) -> Option<Vec3> {
        if let Some(local_a) = local_a {
            if self.edges_b.surely_apart(local_a, j) {
                return None;
            }
        }
        let (axis, _) = self
            .edges_b
            .with(j, |frame_b| {
                edge_pair_axis(frame_a, frame_b, self.centroid_a, false)
            })
            .ok()?;
        Some(axis)
    }

    fn edge_pair(&self, _: &Self::EdgeA, _: usize, axis: Vec3) -> Projection {
        self.project(axis)
    }

    fn step(&self, id: AxisId, p: &Projection, t_enter: f32, t_exit: f32) -> SweepAxis {
        let shift = p.axis.dot(self.pair.origin);
        SweepAxis {
            id,
            axis: p.axis,
            interval_a: p.a.shifted(shift),
            interval_b: p.b.shifted(shift),
            speed: p.speed,
            t_enter,
            t_exit,
        }
    }

    fn contact_normal(&self, best: &Candidate) -> Vec3 {
        if best.speed > 0.0 {
            -best.axis
        } else {
            best.axis
        }
    }
}

/// What the tie rule keeps of an axis (its direction in the frame the axes are found in).
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate {
    pub(super) id: AxisId,
    pub(super) axis: Vec3,
    pub(super) speed: f32,
    pub(super) t_enter: f32,
}

/// The axis with the latest entry so far (under the tie rule of the header), the earliest
/// exit, and the count of axes tested.
pub(super) struct Latest {
    pub(super) best: Option<Candidate>,
    pub(super) earliest_exit: f32,
    pub(super) tested: u32,
    /// [`TIE_TOLERANCE`] times the sweep time.
    pub(super) tie: f32,
    /// The sweep time: an exit after it cannot change `t_last`, which it caps.
    pub(super) t_max: f32,
    /// What the untraced fast path's prunings left out (the reference prunes nothing).
    pub(super) pruned: Pruned,
}

impl Latest {
    pub(super) fn new(motion: &Motion3) -> Self {
        Latest {
            best: None,
            earliest_exit: f32::INFINITY,
            tested: 0,
            tie: TIE_TOLERANCE * motion.t_max.abs(),
            t_max: motion.t_max,
            pruned: Pruned::default(),
        }
    }

    /// Takes an axis's entry and exit: a later entry (by more than the tie tolerance), or
    /// a tied one of higher [`rank`], becomes the best; a NaN entry always does (it is
    /// reported as [`Status::NonFinite`]).
    #[inline(always)]
    pub(super) fn offer(&mut self, swept: Candidate, t_exit: f32) {
        self.tested += 1;
        let tie = self.tie;
        let better = match self.best {
            None => true,
            Some(best) => {
                swept.t_enter > best.t_enter + tie
                    || (swept.t_enter >= best.t_enter - tie
                        && rank(swept.id, swept.speed) > rank(best.id, best.speed)
                        && swept.t_enter.is_finite())
                    || swept.t_enter.is_nan()
            }
        };
        if better {
            self.best = Some(swept);
        }
        self.earliest_exit = self.earliest_exit.min(t_exit);
    }
}

/// Tie-break order: a face facing the contact, then any face, then an edge pair.
pub(super) fn rank(id: AxisId, speed: f32) -> u8 {
    // Moving toward each other along -axis (speed < 0) means the +axis side faces B.
    let facing = speed < 0.0;
    match (id.is_face(), facing) {
        (true, true) => 2,
        (true, false) => 1,
        _ => 0,
    }
}
