//! SAT in 3D: face axes of both bodies and the cross products of one edge of each.
//!
//! Algorithm (Gottschalk 1996; Ericson, *Real-Time Collision Detection*, 5.2.1; the
//! Gauss-map pruning and the one-sided separations of Gregorius, "The Separating Axis Test
//! between Convex Polyhedra", GDC 2013):
//!
//! ```text
//! for each face i of A, outward normal n, plane n . p = d:
//!     separation = n . support_B(-n) - d               how far B's nearest point is above the face
//! for each face j of B: the same with the roles exchanged (the normal A -> B is -n)
//! for each edge i of A (between faces with normals a, b) and edge j of B (normals c, d):
//!     skip if the edges are parallel: |eA x eB| < PARALLEL_TOLERANCE |eA| |eB|
//!     skip unless the arcs a-b and (-c)-(-d) cross on the unit sphere (Gauss map): only then
//!         is eA x eB the normal of a face of the Minkowski difference A - B
//!     u = normalize(eA x eB), turned to point away from A's centroid
//!     separation = u . (tail of eB - tail of eA)       the two edges are extreme along u
//! best = the largest separation; they intersect iff best <= touch tolerance
//! depth = -best (when intersecting), separation = best (when apart), normal from A to B
//! ```
//!
//! Face or edge: a face axis (A's before B's) is kept unless the best edge axis has a
//! separation larger by the preference tolerance ([`preference_tolerance`]: 1e-4 of the
//! smaller body's size, but never below the pair's touch tolerance). Near-ties are common (a
//! box resting on a slab, turned by a hair, ties its face axis with edge axes along almost
//! the same normal), and the face gives a stable, larger manifold; the edge must win
//! clearly. This is Box3D's and Gregorius's rule (face first, edge only if clearly better),
//! with an absolute tolerance because depths are lengths; it follows the smaller body so
//! that a 0.05 cube on a 100-wide slab is not judged on the slab's scale.
//!
//! Two cuboids (Gottschalk's OBB test, with R = B's rotation in A's frame, t = B's centre
//! in A's frame, h_A and h_B the half extents):
//!
//! ```text
//! face of A with local normal u = +-e_k:  separation = u . t - h_A[k] - sum_l h_B[l] |R[k][l]|
//! face of B with local normal v = +-e_l:  the same seen from B (t and R in B's frame)
//! edge pairs (untraced): for each axis k of A and l of B, the great circles of their
//!     Gauss-map arcs meet at +-L, L = A_k x B_l; exactly the two pairs whose quarter arcs
//!     hold those points cross, read off the signs of four entries of R, and they separate
//!     by (+-L . t - reach_A(L) - reach_B(L)) / |L|
//!     a direction pair with an entry near zero, nearly parallel axes or an ill-conditioned
//!     axis takes the test above; the pairs that may beat the best face (and every other
//!     pair) by more than the closed form's rounding bound take the loop's arithmetic above
//!     (placed vertices), so the winner, its bits and the counts are the loop's
//! edge pairs (traced): every pair recorded in the loop's order; in a sure direction pair
//!     the fourteen pairs that do not cross are recorded as Gauss-map pruned untested and
//!     the two that cross take the loop's axis; other direction pairs take the test above;
//!     when all nine are sure, the eighteen crossing pairs' axes are computed four at a
//!     time (the loop's arithmetic lane by lane)
//! intervals (traced): the steps are gathered first, then for four recorded axes at a
//!     time each box's eight corner sums (+-q.x +- q.y) +- q.z, q = h * (axis in the
//!     box's frame), are the scan's dot products; the placed corner of the lowest index
//!     with the largest (smallest) sum gives the interval's end, as the scan picks it;
//!     when all nine are sure, a face with normal -e_k takes its partner's interval
//!     turned round, [-max, -min] (a zero end takes the scan: its sign need not follow),
//!     and the other 24 axes take eight at a time where the processor has AVX
//! ```
//!
//! Face normals, vertices and the directions turned into a body's frame are placed by the
//! bodies' rotation matrices (traced and untraced alike). Two small bodies take the support
//! values along one body's face normals four at a time, in one pass over the other's
//! vertices (`face_support_values`).
//! Untraced, each axis costs one support query (faces) or one dot product (edge pairs), and
//! the Gauss-map test runs before the parallel test (it rejects most pairs soonest). A trace
//! also records both full projection intervals per axis (each body's placed vertices
//! against the axis, `placed_interval`), and
//! tests parallel first so that parallel pairs are reported as such. Two small bodies (at
//! most 64 vertices and faces and 128 edges each: up to about 32-point hulls) visit every
//! edge pair, the Gauss-map test of one edge of A against all of B's in vector lanes; untraced,
//! with many pairs, the four numbers of that test are face normals of one body against arc
//! planes of the other (A's faces against B's arcs in a table; B's faces against each edge
//! of A's arc, four faces at a time, their sign bits spread to B's edges by a per-shape table,
//! as the swept SAT does), and only the pairs whose sign bits allow a crossing take the
//! test, on the same numbers ([`table_edge_pairs`], [`arc_crossing_candidates`]).
//! Untraced, other pairs with more than [`EDGE_FRAME_CACHE`] edges on one body do not visit
//! every edge pair: the larger body's
//! [`crate::geom3::ArcTree`] names the edges whose arcs may cross each edge of the other, and
//! only those pairs take the test above (the pairs it leaves out are Gauss-map pruned, so the
//! axes, the counts and the winner are the exhaustive loop's). Their face axes climb to each
//! support vertex from the previous face's.
//! For separated bodies the best separation is a lower bound on the distance (exact when a
//! face or an edge pair is the closest feature pair).

#[cfg(target_arch = "x86_64")]
use super::lanes::{Avx, Eight};
use super::lanes::{Four, Lanes};
use super::{Interval, Placed3, PolyPair};
use crate::geom3::{self, Cap, CuboidEdges, Edge, FaceEdges, Shape3Kind, HILL_CLIMB_MIN_VERTICES};
use crate::trace::Tracer;
use glam::{Mat3A, Vec3, Vec3A};
use std::mem::MaybeUninit;

/// Two edges count as parallel when `|eA x eB| < PARALLEL_TOLERANCE * |eA| * |eB|`, the sine
/// of their angle below 1e-3 (0.06 degrees). The Minkowski difference has no face spanned by
/// two parallel edges (the faces beside them are tested already), and for nearly parallel
/// ones the normalised cross product would carry f32 rounding magnified a thousandfold.
pub const PARALLEL_TOLERANCE: f32 = 1.0e-3;

/// An edge axis beats the best face axis only when its separation is larger by this times
/// the smaller body's size (see the header and [`preference_tolerance`]): ten times the
/// relative touch tolerance, above the rounding of a rotated box, below anything visible.
pub const AXIS_PREFERENCE_TOLERANCE: f32 = 1.0e-4;

/// The absolute margin by which an edge axis must beat a face axis (and B's face A's):
/// [`AXIS_PREFERENCE_TOLERANCE`] times the smaller body's size (its largest distance from
/// its centroid), at least the pair's touch tolerance (below that, rounding decides).
pub fn preference_tolerance(pair: &PolyPair) -> f32 {
    let smaller = pair
        .a
        .shape
        .centroid_radius()
        .min(pair.b.shape.centroid_radius());
    (AXIS_PREFERENCE_TOLERANCE * smaller).max(pair.touch_tolerance())
}

/// Which axis: a face of A, a face of B, or edge `i` of A crossed with edge `j` of B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AxisId {
    FaceA(u32),
    FaceB(u32),
    Edges(u32, u32),
    /// With round shapes: the direction from A's core to B's core at their closest points
    /// (`sat_round`). A capsule's segment is its edge 0 in [`AxisId::Edges`].
    Closest,
}

impl AxisId {
    /// `"face_a"`, `"face_b"` or `"edges"`.
    pub fn kind_key(&self) -> &'static str {
        match self {
            AxisId::FaceA(_) => "face_a",
            AxisId::FaceB(_) => "face_b",
            AxisId::Edges(..) => "edges",
            AxisId::Closest => "closest",
        }
    }

    pub fn is_face(&self) -> bool {
        matches!(self, AxisId::FaceA(_) | AxisId::FaceB(_))
    }
}

/// Why an edge pair gave no axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// The arcs of the two edges on the Gauss map do not cross: no face of A - B.
    GaussMap,
    /// The edges are parallel within [`PARALLEL_TOLERANCE`].
    Parallel,
}

impl SkipReason {
    pub fn key(self) -> &'static str {
        match self {
            SkipReason::GaussMap => "gauss_map",
            SkipReason::Parallel => "parallel",
        }
    }
}

/// One tested axis. Intervals are world projections onto `axis` (filled only in a trace).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisTest {
    /// The position of this axis among the tested ones, from 0.
    pub ordinal: u32,
    pub id: AxisId,
    /// The unit axis, pointing from A toward B (for B's faces: minus B's face normal).
    pub axis: Vec3,
    pub interval_a: Interval,
    pub interval_b: Interval,
    /// Gap between the bodies along `axis`: positive apart, negative overlapping.
    pub separation: f32,
}

/// One recorded SAT step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    Axis(AxisTest),
    Skipped {
        edge_a: u32,
        edge_b: u32,
        reason: SkipReason,
    },
    /// The `count` edges of B whose Gauss-map arcs do not cross edge `edge_a`'s, in one
    /// step: a large pair's trace holds this in place of one [`Step::Skipped`] step per pair
    /// ([`group_gauss_map_skips`]). The edges of B it stands for are those that no other
    /// step pairs with `edge_a`.
    GaussMapPruned {
        edge_a: u32,
        count: u32,
    },
}

/// Above this many edge pairs a trace groups the Gauss-map skips of each edge of A into one
/// step ([`group_gauss_map_skips`]): two 22-sided prisms (66 edges each) and larger. Below
/// it (two boxes: 144 pairs; the welcome scene's column on the ground: 216) every pair keeps
/// its step. Two 256-point prisms go from 147,716 steps to about 9,000: every tested axis
/// keeps its step, and the ruled-out pairs of each edge of A take one.
pub const GROUPED_ABOVE: usize = 4096;

/// Replaces each run of Gauss-map skips of one edge of A by one [`Step::GaussMapPruned`]
/// step at the place of the first (tested axes and parallel skips keep theirs, in order).
pub fn group_gauss_map_skips(steps: &mut Vec<Step>) {
    let recorded = std::mem::take(steps);
    let mut grouping = GroupingTracer::new(steps);
    for step in recorded {
        grouping.push(step);
    }
}

/// A recording tracer that groups as the steps arrive ([`group_gauss_map_skips`]), so a
/// large pair's Gauss-map skips are never stored one by one: what a large pair's trace
/// records SAT with.
pub struct GroupingTracer<'a> {
    steps: &'a mut Vec<Step>,
    /// The edge of A of the open group, and where it is.
    open: Option<(u32, usize)>,
}

impl<'a> GroupingTracer<'a> {
    pub fn new(steps: &'a mut Vec<Step>) -> Self {
        GroupingTracer { steps, open: None }
    }

    fn push(&mut self, step: Step) {
        let Step::Skipped {
            edge_a,
            reason: SkipReason::GaussMap,
            ..
        } = step
        else {
            self.steps.push(step);
            return;
        };
        match self.open {
            Some((a, k)) if a == edge_a => {
                if let Some(Step::GaussMapPruned { count, .. }) = self.steps.get_mut(k) {
                    *count += 1;
                }
            }
            _ => {
                self.open = Some((edge_a, self.steps.len()));
                self.steps.push(Step::GaussMapPruned { edge_a, count: 1 });
            }
        }
    }
}

impl Tracer<Step> for GroupingTracer<'_> {
    const ENABLED: bool = true;

    #[inline]
    fn record(&mut self, make: impl FnOnce() -> Step) {
        self.push(make());
    }

    /// Most announced steps are pairs that fold into groups: room for a few of them.
    fn reserve(&mut self, additional: usize) {
        self.steps.reserve(additional / 16);
    }
}

/// How SAT ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every axis shows an overlap: depth > 0.
    Overlapping,
    /// The best axis shows a gap within the touch tolerance.
    Touching,
    /// Some axis shows a gap.
    Separated,
    /// A NaN or infinite separation: the input was not finite. Reported as not intersecting.
    NonFinite,
}

impl Status {
    pub fn key(self) -> &'static str {
        match self {
            Status::Overlapping => "overlapping",
            Status::Touching => "touching",
            Status::Separated => "separated",
            Status::NonFinite => "non_finite",
        }
    }
}

/// What SAT found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Output {
    pub intersecting: bool,
    /// The overlap along `normal` when intersecting (>= 0), else 0.
    pub depth: f32,
    /// The gap along `normal` when apart (>= 0), else 0.
    pub separation: f32,
    /// Unit normal of the winning axis, from A toward B.
    pub normal: Vec3,
    pub axis: AxisId,
    /// Face axes plus edge pairs that gave an axis.
    pub axes_tested: u32,
    /// Edge pairs skipped (Gauss map or parallel).
    pub axes_pruned: u32,
    pub status: Status,
}

/// Runs SAT without recording.
pub fn sat_test(pair: &PolyPair) -> Output {
    sat(pair, &mut ())
}

/// The best axis so far of one kind (round shapes' SAT shares it: `sat_round`).
#[derive(Clone, Copy)]
pub(crate) struct Best {
    pub(crate) separation: f32,
    pub(crate) axis: Vec3,
    pub(crate) id: AxisId,
}

impl Best {
    pub(crate) fn none(id: AxisId) -> Self {
        Best {
            separation: f32::NEG_INFINITY,
            axis: Vec3::X,
            id,
        }
    }

    /// [`Self::offer`] for candidates that arrive in any order: the result is the one
    /// offering them in the exhaustive order (edge pairs by A's edge, then B's) would give.
    /// That order keeps the first of equal separations and the last NaN.
    #[inline]
    pub(crate) fn offer_in_order(&mut self, separation: f32, axis: Vec3, id: AxisId) {
        let key = |id: AxisId| match id {
            AxisId::Edges(i, j) => (i, j),
            _ => (0, 0),
        };
        let earlier = key(id) < key(self.id);
        let takes = if separation.is_nan() {
            !self.separation.is_nan() || !earlier
        } else {
            separation > self.separation || (separation == self.separation && earlier)
        };
        if takes {
            *self = Best {
                separation,
                axis,
                id,
            };
        }
    }

    #[inline]
    pub(crate) fn offer(&mut self, separation: f32, axis: Vec3, id: AxisId) {
        // A NaN is taken so that it is reported, not silently skipped.
        if separation > self.separation || separation.is_nan() {
            *self = Best {
                separation,
                axis,
                id,
            };
        }
    }
}

/// Runs SAT, recording every axis tested and every edge pair skipped.
pub fn sat<T: Tracer<Step>>(pair: &PolyPair, tracer: &mut T) -> Output {
    let (a, b) = (&pair.a, &pair.b);
    let mut tested = 0u32;
    let mut pruned = 0u32;
    // A trace holds one step per face and one per edge pair (tested or skipped): room for
    // them all at once, not a copy of the steps each time the list doubles.
    let faces = a.shape.face_count() + b.shape.face_count();
    tracer.reserve(faces + a.shape.edges().len() * b.shape.edges().len());
    // Bound by reference: moving the pair out of the `Option` cost a 144-byte copy a query.
    if let Some(boxes) = &CuboidPair::new(pair) {
        return boxes.sat(pair, tracer);
    }
    // Traced only: each body's vertices placed once, for the intervals of every recorded
    // axis ([`placed_interval`]).
    let placed = T::ENABLED.then(|| {
        let (placed_a, placed_b) = (a.placed_vertices(), b.placed_vertices());
        let (lanes_a, lanes_b) = (placed_lanes(&placed_a), placed_lanes(&placed_b));
        ((placed_a, lanes_a), (placed_b, lanes_b))
    });
    let record = |tracer: &mut T, id: AxisId, axis: Vec3, separation: f32, n: &mut u32| {
        let ordinal = *n;
        *n += 1;
        if let (true, Some((placed_a, placed_b))) = (T::ENABLED, &placed) {
            let shift = axis.dot(pair.origin);
            let step = AxisTest {
                ordinal,
                id,
                axis,
                interval_a: placed_interval(a, axis, placed_a).shifted(shift),
                interval_b: placed_interval(b, axis, placed_b).shifted(shift),
                separation,
            };
            tracer.record(|| Step::Axis(step));
        }
    };

    // Large bodies climb to each support vertex from the previous face's (see
    // `face_support_value`): neighbouring faces have nearby support vertices.
    let (mut start_a, mut start_b) = (0usize, 0usize);
    // Each face normal is placed, then turned into the other body's frame, by the bodies'
    // rotation matrices ([`turned`]: three vector multiply-adds where the quaternion product
    // takes two cross products; equal to `face_normal` and `rotation.inverse() *` up to the
    // last bits). Traced and untraced runs place them alike, so they decide alike.
    let (place_a, place_b) = (&a.frame, &b.frame);
    let (into_a, into_b) = (&a.frame_inverse, &b.frame_inverse);
    // Two small bodies keep their placed normals for the edge frames, and take the other
    // body's support values along all of them in one pass over its vertices
    // ([`face_support_values`]: [`face_support_value`]'s bits).
    let small = is_small(a) && is_small(b);
    let mut normals_a: Inline<Vec3, SMALL_BODY> = Inline::new();
    let mut normals_b: Inline<Vec3, SMALL_BODY> = Inline::new();
    let (mut tops_a, mut tops_b) = ([0.0f32; SMALL_BODY], [0.0f32; SMALL_BODY]);
    if small {
        for i in 0..a.shape.face_count() {
            normals_a.push(turned(place_a, a.shape.face_normal(i)));
        }
        for j in 0..b.shape.face_count() {
            normals_b.push(turned(place_b, b.shape.face_normal(j)));
        }
        face_support_values(b, into_b, normals_a.as_slice(), &mut tops_b);
        face_support_values(a, into_a, normals_b.as_slice(), &mut tops_a);
    }
    let mut face_a = Best::none(AxisId::FaceA(0));
    // Indexed: the tables hold only small bodies' faces, and large bodies skip them.
    #[allow(clippy::needless_range_loop)]
    for i in 0..a.shape.face_count() {
        let (n, support) = if small {
            (normals_a.as_slice()[i], tops_b[i])
        } else {
            let n = turned(place_a, a.shape.face_normal(i));
            (
                n,
                face_support_value(b, -n, turned(into_b, -n), &mut start_b),
            )
        };
        let offset = a.shape.face_offset(i) + n.dot(a.translation);
        let separation = -support - offset;
        face_a.offer(separation, n, AxisId::FaceA(i as u32));
        record(tracer, AxisId::FaceA(i as u32), n, separation, &mut tested);
    }
    let mut face_b = Best::none(AxisId::FaceB(0));
    #[allow(clippy::needless_range_loop)]
    for j in 0..b.shape.face_count() {
        let (n, support) = if small {
            (normals_b.as_slice()[j], tops_a[j])
        } else {
            let n = turned(place_b, b.shape.face_normal(j));
            (
                n,
                face_support_value(a, -n, turned(into_a, -n), &mut start_a),
            )
        };
        let offset = b.shape.face_offset(j) + n.dot(b.translation);
        let separation = -support - offset;
        face_b.offer(separation, -n, AxisId::FaceB(j as u32));
        record(tracer, AxisId::FaceB(j as u32), -n, separation, &mut tested);
    }
    let mut edge = Best::none(AxisId::Edges(0, 0));
    let centroid_a = a.centroid();
    if small {
        let counts = (&mut tested, &mut pruned);
        let normals = Some([normals_a.as_slice(), normals_b.as_slice()]);
        small_edge_pairs(
            pair, normals, centroid_a, &mut edge, counts, tracer, &record,
        );
        let best = prefer(face_a, face_b, edge, preference_tolerance(pair));
        return finish(pair, best, tested, pruned);
    }
    if !T::ENABLED && uses_arc_tree(pair) {
        pruned += arc_tree_edge_pairs(pair, centroid_a, &mut edge, &mut tested);
        let best = prefer(face_a, face_b, edge, preference_tolerance(pair));
        return finish(pair, best, tested, pruned);
    }
    let frames_b = EdgeFrames::new_placing(b, T::ENABLED);
    let edges_b = b.shape.edges().len();
    for (i, ea) in a.shape.edges().iter().enumerate() {
        let frame_a = EdgeFrame::new(a, ea);
        // Untraced only: the recorded steps name the reason of every skipped pair, which the
        // exhaustive order gives (a parallel pair is called parallel).
        let local_a = if T::ENABLED {
            None
        } else {
            frames_b.local_arc(&frame_a)
        };
        for j in 0..edges_b {
            if let Some(local_a) = &local_a {
                if frames_b.surely_apart(local_a, j) {
                    pruned += 1;
                    continue;
                }
            }
            match frames_b.with(j, |frame_b| {
                edge_pair_axis(&frame_a, frame_b, centroid_a, T::ENABLED)
            }) {
                Err(reason) => {
                    pruned += 1;
                    tracer.record(|| Step::Skipped {
                        edge_a: i as u32,
                        edge_b: j as u32,
                        reason,
                    });
                }
                Ok((axis, separation)) => {
                    let id = AxisId::Edges(i as u32, j as u32);
                    edge.offer(separation, axis, id);
                    record(tracer, id, axis, separation, &mut tested);
                }
            }
        }
    }

    let best = prefer(face_a, face_b, edge, preference_tolerance(pair));
    finish(pair, best, tested, pruned)
}

/// A recorded axis's projection interval (display only: no decision reads it): the smallest
/// and largest dot products of the placed vertices with the axis, one pass with no support
/// search and no turn (the same numbers as [`Placed3::project_placed`] up to the last bits,
/// where the frame-side search may name another of two vertices tied along the axis), four
/// vertices at a time from their coordinates ([`placed_lanes`]; per lane `p.dot(axis)`'s
/// products and sums, and plain compares). An axis or a vertex that is no number takes
/// [`Placed3::project_placed`], which reports it.
fn placed_interval(
    body: &Placed3,
    axis: Vec3,
    (placed, lanes): &(Vec<Vec3>, Vec<[Four; 3]>),
) -> Interval {
    let (x, y, z) = (
        Four::splat(axis.x),
        Four::splat(axis.y),
        Four::splat(axis.z),
    );
    let (mut low, mut high) = (Four::splat(f32::INFINITY), Four::splat(f32::NEG_INFINITY));
    for [px, py, pz] in lanes {
        let d = Four::dot3(*px, *py, *pz, x, y, z);
        low = d.min(low);
        high = d.max(high);
    }
    let (low, high) = (low.min_lane(), high.max_lane());
    if low.is_finite() && high.is_finite() {
        Interval::new(low, high)
    } else {
        body.project_placed(axis, placed)
    }
}

/// Placed vertices by coordinate, four a group, for [`placed_interval`] (traced only); the
/// last group is padded with the first vertex, which changes no extreme.
fn placed_lanes(placed: &[Vec3]) -> Vec<[Four; 3]> {
    placed
        .chunks(4)
        .map(|group| {
            let p: [Vec3; 4] = std::array::from_fn(|l| *group.get(l).unwrap_or(&placed[0]));
            [p.map(|p| p.x), p.map(|p| p.y), p.map(|p| p.z)]
                .each_ref()
                .map(Four::load)
        })
        .collect()
}

/// Whether the untraced edge-pair search asks a body's [`crate::geom3::ArcTree`] for the edges that may
/// cross (instead of visiting every pair): one body has more edges than
/// [`EDGE_FRAME_CACHE`], and both poses are finite (a NaN pose takes the exhaustive loop,
/// which reports it).
fn uses_arc_tree(pair: &PolyPair) -> bool {
    let large = pair.a.shape.edges().len().max(pair.b.shape.edges().len()) > EDGE_FRAME_CACHE;
    let finite = |p: &Placed3| p.rotation.is_finite() && p.translation.is_finite();
    large && finite(&pair.a) && finite(&pair.b)
}

/// The edge-pair loop of large bodies, untraced: the same axes, separations and winner as
/// the exhaustive loop, visiting only the pairs the tree cannot rule out. The body with more
/// edges holds the tree; each edge of the other asks it for the edges whose (negated) arcs
/// come near its own, turned into the tree's frame, and each of those pairs takes the
/// exhaustive loop's test ([`edge_pair_axis`], in the work frame). A pair the tree leaves
/// out cannot cross ([`crate::geom3::ArcTree`]), so it would have been pruned; an edge whose arc is too
/// short for a cap is tested against every edge. Candidates arrive out of order, so equal
/// separations go to the pair the exhaustive loop meets first ([`Best::offer_in_order`]).
/// Returns the number of pruned pairs: every pair that gave no axis.
#[inline(never)]
fn arc_tree_edge_pairs(
    pair: &PolyPair,
    centroid_a: Vec3,
    edge: &mut Best,
    tested: &mut u32,
) -> u32 {
    let (a, b) = (&pair.a, &pair.b);
    let (edges_a, edges_b) = (a.shape.edges(), b.shape.edges());
    let tree_is_b = edges_b.len() >= edges_a.len();
    let (asker, holder) = if tree_is_b { (a, b) } else { (b, a) };
    // The asker's stored arcs turned into the holder's frame by one matrix.
    let relative = glam::Mat3::from_quat(holder.rotation.inverse() * asker.rotation);
    let tree = holder.shape.arc_tree();
    let mut axes = 0u32;
    for (k, e) in asker.shape.edges().iter().enumerate() {
        let local = asker.shape.edge_arc(k).map(|v| relative * v);
        // Placed in the work frame only once a pair survives the prefilter.
        let mut frame_k = None;
        let mut visit = |m: usize| {
            if surely_apart(&local, &holder.shape.edge_arc(m)) {
                return;
            }
            let frame_k = *frame_k.get_or_insert_with(|| EdgeFrame::new(asker, e));
            let frame_m = EdgeFrame::new(holder, &holder.shape.edges()[m]);
            let (i, j, frame_a, frame_b) = if tree_is_b {
                (k, m, &frame_k, &frame_m)
            } else {
                (m, k, &frame_m, &frame_k)
            };
            if let Ok((axis, separation)) = edge_pair_axis(frame_a, frame_b, centroid_a, false) {
                edge.offer_in_order(separation, axis, AxisId::Edges(i as u32, j as u32));
                axes += 1;
            }
        };
        // The pair test compares A's arc with B's negated one; the tree holds the holder's
        // own arcs, so the query is the asker's arc negated, whichever body holds the tree
        // (B's negated arc crosses A's arc exactly when B's arc crosses A's negated one).
        match Cap::of_arc(local[0], local[1]) {
            Some(cap) => tree.for_each_near(&cap.negated(), |m| visit(m as usize)),
            None => (0..holder.shape.edges().len()).for_each(&mut visit),
        }
    }
    *tested += axes;
    (edges_a.len() * edges_b.len()) as u32 - axes
}

/// Whether the Gauss-map test surely rejects a pair, judged from one edge's arc `k` turned
/// into the other body's frame and that body's stored arc `m` (each `[n0, n1, n1 x n0]`),
/// before the pair is placed in the work frame: the ends of one arc on the same side of the
/// other's plane, both signs clear by [`GAUSS_PREFILTER_MARGIN`] (the test of
/// [`arcs_cross`] negates B's arc, which flips both signs of a side test and so not whether
/// they agree, whichever body `k` belongs to). [`EdgeFrames::surely_apart`] and the arc-tree
/// search both ask it.
#[inline]
fn surely_apart(k: &[Vec3; 3], m: &[Vec3; 3]) -> bool {
    let margin = GAUSS_PREFILTER_MARGIN;
    let same_side = |p: f32, q: f32| (p > margin && q > margin) || (p < -margin && q < -margin);
    same_side(m[0].dot(k[2]), m[1].dot(k[2])) || same_side(k[0].dot(m[2]), k[1].dot(m[2]))
}

/// Two cuboids, with B's rotation and position in A's frame: Gottschalk's OBB test
/// (Gottschalk, Lin and Manocha 1996; Ericson 4.4.1) for the face axes, and the matrix the
/// closed forms of the edge axes ([`EdgeGroups`]) read.
struct CuboidPair {
    /// `r.col(l)` is B's axis l in A's frame: `R[k][l] = A_k . B_l`.
    r: Mat3A,
    /// From A's centre to B's in A's frame, and the same vector in B's frame.
    t_in_a: Vec3A,
    t_in_b: Vec3A,
    /// Along each axis of A (B): its own half extent plus the other box's reach,
    /// `h_a[k] + sum_l h_b[l] |R[k][l]|` (`h_b[l] + sum_k h_a[k] |R[k][l]|`).
    reach_a: Vec3A,
    reach_b: Vec3A,
    /// The half extents.
    h_a: Vec3A,
    h_b: Vec3A,
}

impl CuboidPair {
    /// `Some` for two cuboids placed with finite numbers (otherwise the general face axes
    /// report the non-finite input as before).
    fn new(pair: &PolyPair) -> Option<Self> {
        let (a, b) = (&pair.a, &pair.b);
        let (Shape3Kind::Cuboid { half_extents: h_a }, Shape3Kind::Cuboid { half_extents: h_b }) =
            (a.shape.kind(), b.shape.kind())
        else {
            return None;
        };
        // From A's centre to B's (A usually sits at the work frame's origin).
        let t = b.translation - a.translation;
        if !t.is_finite() {
            return None;
        }
        let r = a.frame_inverse * b.frame;
        if !(r.x_axis.is_finite() && r.y_axis.is_finite() && r.z_axis.is_finite()) {
            return None;
        }
        let (h_a, h_b) = (Vec3A::from(*h_a), Vec3A::from(*h_b));
        let r_abs = r.abs();
        let t = Vec3A::from(t);
        Some(CuboidPair {
            r,
            t_in_a: a.frame_inverse * t,
            t_in_b: b.frame_inverse * t,
            reach_a: h_a + r_abs * h_b,
            reach_b: h_b + r_abs.transpose() * h_a,
            h_a,
            h_b,
        })
    }

    /// [`sat`] for two cuboids: the face axes in closed form ([`Self::face_axes`]); the edge
    /// pairs untraced in closed form where that is sure ([`Self::edge_axes`]), traced by
    /// [`Self::traced_edge_pairs`], which records every pair with its reason (the closed
    /// form's where it is sure, the exhaustive loop's elsewhere). A trace lays its 156 steps
    /// down in `tracer` from [`CUBOID_TEMPLATE`] (every edge pair Gauss-map pruned, in the
    /// loop's order) and writes over them in place ([`CuboidSteps`]: the face axes, then the
    /// edge pairs that are not pruned); then their projection intervals are computed four
    /// axes at a time ([`cuboid_intervals`], the bits of [`Placed3::project`]).
    fn sat<T: Tracer<Step>>(&self, pair: &PolyPair, tracer: &mut T) -> Output {
        if !T::ENABLED {
            // Untraced, nothing is recorded: the no-op tracer stands in for `tracer`.
            return self.sat_steps(pair, &([Vec3::ZERO; 8], [Vec3::ZERO; 8]), &mut ());
        }
        // Each body's vertices placed once (as `Placed3::vertex` places them: the same bits),
        // for the traced edge pairs and the intervals.
        let corners = (placed_corners(&pair.a), placed_corners(&pair.b));
        tracer.record_slice_edited(&CUBOID_TEMPLATE, |recorded| {
            let mut steps = CuboidSteps {
                steps: recorded,
                len: 0,
                sure: false,
                axes: Inline::new(),
                axis_groups: [[[0.0; 4]; 3]; CUBOID_STEPS / 4],
            };
            let output = self.sat_steps(pair, &corners, &mut steps);
            debug_assert_eq!(steps.len, CUBOID_STEPS, "every step written over");
            if steps.sure {
                steps.fill_intervals_sure(self, pair, &corners);
            } else {
                steps.fill_intervals(self, pair, &corners);
            }
            output
        })
    }

    /// [`Self::sat`]'s search; recorded axes carry empty intervals (filled in by
    /// [`CuboidSteps::fill_intervals`]).
    fn sat_steps<'s, T: CuboidSink<'s>>(
        &self,
        pair: &PolyPair,
        (vertices_a, vertices_b): &([Vec3; 8], [Vec3; 8]),
        tracer: &mut T,
    ) -> Output {
        let record = |tracer: &mut T, id: AxisId, axis: Vec3, separation: f32, n: &mut u32| {
            match tracer.steps() {
                // The cuboid's own steps: written in place, the axis noted for its intervals.
                Some(steps) => steps.axis_at(steps.len, id, axis, separation, n),
                // Untraced: only the count.
                None => *n += 1,
            }
        };
        let record = &record;
        let (mut tested, mut pruned) = (0, 0);
        let (face_a, face_b) = self.face_axes(pair, tracer, record, &mut tested);
        let mut edge = Best::none(AxisId::Edges(0, 0));
        let tol = preference_tolerance(pair);
        let centroid_a = pair.a.centroid();
        let counts = (&mut tested, &mut pruned);
        match (pair.a.shape.cuboid_edges(), pair.b.shape.cuboid_edges()) {
            (Some(edges_a), Some(edges_b)) if !T::ENABLED => {
                // `prefer`'s bar for an edge axis: the better face's separation plus `tol`.
                let face = prefer(face_a, face_b, edge, tol);
                let threshold = face.separation + tol;
                let edges = (edges_a, edges_b);
                self.edge_axes(pair, edges, threshold, centroid_a, &mut edge, counts);
            }
            (Some(edges_a), Some(edges_b)) => {
                let edges = (edges_a, edges_b);
                let frames = (edges, (vertices_a, vertices_b));
                let steps = tracer
                    .steps()
                    .expect("a traced cuboid SAT gathers its steps");
                self.traced_edge_pairs(pair, frames, centroid_a, &mut edge, counts, steps);
            }
            _ => small_edge_pairs(pair, None, centroid_a, &mut edge, counts, tracer, record),
        }
        let best = prefer(face_a, face_b, edge, tol);
        finish(pair, best, tested, pruned)
    }

    /// Every face axis of both boxes, in the order and with the records of the general
    /// face loops in [`sat`]. A face of A with local normal `u` (an axis, `+-e_k`) has
    /// separation `u . t - |u| . reach_a` (B's centre above the face, less both boxes'
    /// reach along it); a face of B with local normal `v` has `-v . t - |v| . reach_b`, the
    /// same seen from B. The winning faces' normals are placed as the general path places
    /// them (the trace's axes too).
    fn face_axes<T: Tracer<Step>>(
        &self,
        pair: &PolyPair,
        tracer: &mut T,
        record: &impl Fn(&mut T, AxisId, Vec3, f32, &mut u32),
        tested: &mut u32,
    ) -> (Best, Best) {
        let (a, b) = (&pair.a, &pair.b);
        // With normals exactly +-e_k (`CuboidFaces`), `u . t` is `+-t[k]` and `|u| . reach`
        // is `reach[k]` exactly (the other terms are zeros), so each face's separation is
        // read off six precomputed values: the same bits.
        let by_normal = |t: Vec3A, reach: Vec3A| {
            let (plus, minus) = (t - reach, -t - reach);
            [plus.x, plus.y, plus.z, minus.x, minus.y, minus.z]
        };
        let tables = a.shape.cuboid_faces().zip(b.shape.cuboid_faces());
        let (of_a, of_b) = (
            by_normal(self.t_in_a, self.reach_a),
            by_normal(-self.t_in_b, self.reach_b),
        );
        let mut face_a = Best::none(AxisId::FaceA(0));
        for i in 0..a.shape.face_count() {
            let separation = match tables {
                Some((lanes, _)) => of_a[lanes[i] as usize],
                None => {
                    let u = Vec3A::from(a.shape.face_normal(i));
                    u.dot(self.t_in_a) - u.abs().dot(self.reach_a)
                }
            };
            let id = AxisId::FaceA(i as u32);
            face_a.offer(separation, Vec3::ZERO, id);
            if T::ENABLED {
                record(tracer, id, a.face_normal(i), separation, tested);
            } else {
                *tested += 1;
            }
        }
        let mut face_b = Best::none(AxisId::FaceB(0));
        for j in 0..b.shape.face_count() {
            let separation = match tables {
                Some((_, lanes)) => of_b[lanes[j] as usize],
                None => {
                    let v = Vec3A::from(b.shape.face_normal(j));
                    -v.dot(self.t_in_b) - v.abs().dot(self.reach_b)
                }
            };
            let id = AxisId::FaceB(j as u32);
            face_b.offer(separation, Vec3::ZERO, id);
            if T::ENABLED {
                record(tracer, id, -b.face_normal(j), separation, tested);
            } else {
                *tested += 1;
            }
        }
        if let AxisId::FaceA(i) = face_a.id {
            face_a.axis = a.face_normal(i as usize);
        }
        if let AxisId::FaceB(j) = face_b.id {
            face_b.axis = -b.face_normal(j as usize);
        }
        (face_a, face_b)
    }
}

/// `body.support_value(dir)`, bit for bit, for the face axes. A cuboid's vertices are
/// (+-x, +-y, +-z) in its frame, so its eight dot products `(v.x l.x + v.y l.y) + v.z l.z`
/// differ only in the signs of their three (exactly negated) terms; rounding is monotone, so
/// the largest is the one with every term positive, `(|x l.x| + |y l.y|) + |z l.z|`, which
/// is the value the vertex scan finds. Other small bodies take the largest dot product of a
/// scan that keeps no indices (`Polyhedron::support_value_lanes`, the same bits); bodies of
/// up to 64 vertices scan the same way, larger ones climb from `start` (the previous call's
/// support vertex, updated here): on a convex body every climb ends at a vertex of the
/// largest dot product, and one that starts next door takes a step or two instead of
/// crossing the body.
/// `local` is `dir` in the body's frame, `body.rotation.inverse() * dir` (bit for bit).
#[inline]
fn face_support_value(body: &Placed3, dir: Vec3, local: Vec3, start: &mut usize) -> f32 {
    let top = if let Shape3Kind::Cuboid { half_extents: h } = body.shape.kind() {
        Some((h.x * local.x).abs() + (h.y * local.y).abs() + (h.z * local.z).abs())
    } else if body.shape.vertices().len() <= SMALL_BODY {
        // `support_value_lanes` below HILL_CLIMB_MIN_VERTICES, and the scan
        // `searched_support_value` takes up to SMALL_BODY (with `local`, the same bits).
        body.shape.support_value_scan(local)
    } else {
        None
    };
    match top {
        // `body.support_value(dir)`'s own sum, with the same largest dot product.
        Some(top) => top + dir.dot(body.translation),
        None => searched_support_value(body, dir, start),
    }
}

/// `out[k] = face_support_value(body, -n, into * -n)` for each placed face normal `n =
/// normals[k]` of the other body (`into`: `body`'s inverse rotation matrix), bit for bit,
/// for a small body ([`is_small`]). A cuboid takes [`face_support_value`]'s closed form per
/// face. Other bodies take four normals at a time against every vertex: per lane the largest
/// dot product `(v.x l.x + v.y l.y) + v.z l.z` of the scan (`Polyhedron::support_value_scan`:
/// the same products and sums, and the same maximum, a NaN never taken), with no reduction
/// across lanes and no call per face; a lane whose top is zero or no number takes
/// [`face_support_value`] itself, in face order, as the scan's `None` does.
fn face_support_values(
    body: &Placed3,
    into: &Mat3A,
    normals: &[Vec3],
    out: &mut [f32; SMALL_BODY],
) {
    let mut start = 0usize;
    if let Shape3Kind::Cuboid { .. } = body.shape.kind() {
        for (slot, n) in out.iter_mut().zip(normals) {
            *slot = face_support_value(body, -*n, turned(into, -*n), &mut start);
        }
        return;
    }
    // `into`'s columns and the translation, one coordinate a register.
    let splat3 = |v: Vec3| [v.x, v.y, v.z].map(Four::splat);
    let [ix, iy, iz] = [into.x_axis, into.y_axis, into.z_axis].map(|c| splat3(c.into()));
    let [tx, ty, tz] = splat3(body.translation);
    let (zero, none) = (Four::splat(0.0), Four::splat(f32::NEG_INFINITY));
    // Each vertex's coordinates splatted once per call, not once per group of normals.
    let mut splats = [const { MaybeUninit::<[Four; 3]>::uninit() }; SMALL_BODY];
    for (slot, v) in splats.iter_mut().zip(body.shape.vertices()) {
        *slot = MaybeUninit::new([v.x, v.y, v.z].map(Four::splat));
    }
    let count = body.shape.vertices().len().min(SMALL_BODY);
    // SAFETY: the first `count` entries were written above.
    let splats: &[[Four; 3]] = unsafe { std::slice::from_raw_parts(splats.as_ptr().cast(), count) };
    for (group, slots) in normals.chunks(4).zip(out.chunks_mut(4)) {
        // The directions `-n` by coordinate (negating is exact), padded with zeros.
        let mut dirs = [[0.0f32; 4]; 3];
        for (l, n) in group.iter().enumerate() {
            (dirs[0][l], dirs[1][l], dirs[2][l]) = (-n.x, -n.y, -n.z);
        }
        let [dx, dy, dz] = dirs.each_ref().map(Four::load);
        // `turned(into, d)` per lane, `(x_axis d.x + y_axis d.y) + z_axis d.z` by coordinate.
        let [x, y, z] = [0, 1, 2].map(|k| Four::dot3(ix[k], iy[k], iz[k], dx, dy, dz));
        let mut best = none;
        for [vx, vy, vz] in splats {
            // Per lane `if d > best { d } else { best }`, as the scan.
            best = Four::dot3(*vx, *vy, *vz, x, y, z).max(best);
        }
        // `top + dir.dot(body.translation)` per lane.
        let values = best.add(Four::dot3(dx, dy, dz, tx, ty, tz)).to_array();
        // Lanes whose top is zero or no number (never a NaN: `max` keeps `best`); one
        // branch a group, the padding's lanes masked off.
        let rare = best
            .le(zero)
            .and(zero.le(best))
            .or(best.le(none))
            .mask_bits()
            & ((1u32 << group.len()) - 1);
        if rare == 0 {
            slots[..group.len()].copy_from_slice(&values[..group.len()]);
            continue;
        }
        for (l, ((slot, n), value)) in slots.iter_mut().zip(group).zip(values).enumerate() {
            let dir = -*n;
            *slot = if rare & (1 << l) == 0 {
                value
            } else {
                face_support_value(body, dir, turned(into, dir), &mut start)
            };
        }
    }
}

/// Large bodies, and the rare values the index-free scan hands back (zero, no number).
#[cold]
#[inline(never)]
fn searched_support_value(body: &Placed3, dir: Vec3, start: &mut usize) -> f32 {
    let vertices = body.shape.vertices().len();
    if vertices < HILL_CLIMB_MIN_VERTICES {
        return body.support_value(dir);
    }
    let local = body.rotation.inverse() * dir;
    // Up to the small-body bound a scan of every vertex, four at a time, costs less than a
    // climb.
    if vertices <= SMALL_BODY {
        if let Some(top) = body.shape.support_value_scan(local) {
            return top + dir.dot(body.translation);
        }
    }
    // As `body.support_value(dir)`, climbing from `start` instead of vertex 0.
    *start = body.shape.support_climb_from(*start, local);
    body.shape.vertex(*start).dot(local) + dir.dot(body.translation)
}

/// The header's rule: A's best face unless B's is larger by `tol`, then that face unless the
/// best edge axis is larger by `tol`.
fn prefer(face_a: Best, face_b: Best, edge: Best, tol: f32) -> Best {
    let face = if face_b.separation > face_a.separation + tol {
        face_b
    } else {
        face_a
    };
    if edge.separation > face.separation + tol {
        edge
    } else {
        face
    }
}

#[inline]
fn finish(pair: &PolyPair, best: Best, tested: u32, pruned: u32) -> Output {
    finish_with(pair.touch_tolerance(), best, tested, pruned)
}

/// The verdict from the best axis: gaps within `touch` count as touching.
pub(crate) fn finish_with(touch: f32, best: Best, tested: u32, pruned: u32) -> Output {
    let s = best.separation;
    let status = if !s.is_finite() || !best.axis.is_finite() {
        Status::NonFinite
    } else if s > touch {
        Status::Separated
    } else if s >= -touch {
        Status::Touching
    } else {
        Status::Overlapping
    };
    let intersecting = matches!(status, Status::Overlapping | Status::Touching);
    Output {
        intersecting,
        depth: if intersecting { (-s).max(0.0) } else { 0.0 },
        separation: if status == Status::Separated { s } else { 0.0 },
        normal: if best.axis.is_finite() {
            best.axis
        } else {
            Vec3::X
        },
        axis: best.id,
        axes_tested: tested,
        axes_pruned: pruned,
        status,
    }
}

/// An edge placed in the work frame, with the normals of its two faces and the normal of
/// the plane of its arc on the Gauss map (`n1 x n0`, the same for the negated normals).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeFrame {
    tail: Vec3,
    dir: Vec3,
    pub(crate) n0: Vec3,
    pub(crate) n1: Vec3,
    pub(crate) arc: Vec3,
}

impl EdgeFrame {
    #[inline]
    pub(crate) fn new(body: &Placed3, e: &Edge) -> Self {
        Self::from_placed(
            body.vertex(e.tail as usize),
            body.vertex(e.head as usize),
            body.face_normal(e.faces[0] as usize),
            body.face_normal(e.faces[1] as usize),
        )
    }

    /// The frame of an edge from its ends and its faces' normals already placed in the work
    /// frame (the sweep places each vertex and normal once per query instead of once per
    /// edge; [`EdgeFrame::new`] places them here).
    #[inline]
    pub(crate) fn from_placed(tail: Vec3, head: Vec3, n0: Vec3, n1: Vec3) -> Self {
        EdgeFrame {
            tail,
            dir: head - tail,
            n0,
            n1,
            arc: n1.cross(n0),
        }
    }
}

/// How many of body B's edges are placed once per query and kept on the stack; bodies with
/// more edges place each edge again for every edge of A (same result, more work).
pub(crate) const EDGE_FRAME_CACHE: usize = 64;

/// The Gauss-map prefilter for large bodies ([`EdgeFrames::surely_apart`]) trusts a sign
/// computed in B's local frame only beyond this. The same sign computed in the work frame
/// differs from it by the rounding of a rotation and a cross product of unit vectors, a few
/// times `f32::EPSILON` (1.2e-7); 1e-5 is about 80 times that, and a pair inside the margin
/// is simply decided by the exact test.
pub(crate) const GAUSS_PREFILTER_MARGIN: f32 = 1.0e-5;

/// Body B's edges placed in the work frame once, for the O(edges of A x edges of B) loops.
pub(crate) struct EdgeFrames<'p, 'a> {
    body: &'p Placed3<'a>,
    cache: [MaybeUninit<EdgeFrame>; EDGE_FRAME_CACHE],
    len: usize,
    /// Every frame, for a traced run of a body with more edges than the cache holds (a trace
    /// allocates anyway; an untraced run allocates nothing and places them again instead).
    placed: Vec<EdgeFrame>,
}

impl<'p, 'a> EdgeFrames<'p, 'a> {
    pub(crate) fn new(body: &'p Placed3<'a>) -> Self {
        Self::new_placing(body, false)
    }

    /// [`Self::new`]; with `all`, a body with more edges than the cache holds has every
    /// frame placed once too, on the heap (the same frames, placed once instead of once per
    /// pair).
    pub(crate) fn new_placing(body: &'p Placed3<'a>, all: bool) -> Self {
        let mut frames = EdgeFrames {
            body,
            cache: [const { MaybeUninit::uninit() }; EDGE_FRAME_CACHE],
            len: 0,
            placed: Vec::new(),
        };
        let edges = body.shape.edges();
        if edges.len() <= EDGE_FRAME_CACHE {
            for (k, e) in edges.iter().enumerate() {
                frames.cache[k] = MaybeUninit::new(EdgeFrame::new(body, e));
            }
            frames.len = edges.len();
        } else if all {
            frames.placed = edges.iter().map(|e| EdgeFrame::new(body, e)).collect();
        }
        frames
    }

    /// The frames placed once (empty when the body has more than [`EDGE_FRAME_CACHE`] edges
    /// and they were not all placed).
    #[inline]
    pub(crate) fn cached(&self) -> &[EdgeFrame] {
        if !self.placed.is_empty() {
            return &self.placed;
        }
        // SAFETY: entries below `len` were written in `new`; EdgeFrame is Copy.
        unsafe { std::slice::from_raw_parts(self.cache.as_ptr().cast::<EdgeFrame>(), self.len) }
    }

    /// A's edge's Gauss-map arc turned into B's local frame, for [`Self::surely_apart`]:
    /// `Some` only when B's frames are not cached (large bodies, where placing B's edge for
    /// every pair is what the O(edges of A x edges of B) loop spends its time on).
    #[inline]
    pub(crate) fn local_arc(&self, a: &EdgeFrame) -> Option<[Vec3; 3]> {
        if !self.cached().is_empty() {
            return None;
        }
        let inverse = self.body.rotation.inverse();
        Some([inverse * a.n0, inverse * a.n1, inverse * a.arc])
    }

    /// Whether the Gauss-map test surely rejects the pair (A's edge, B's edge `j`), judged in
    /// B's local frame from the arcs the polyhedron stores, without placing B's edge. The two
    /// sign tests of [`arcs_cross`] that reject most pairs (the ends of one arc on the same
    /// side of the other's plane) are taken only when both signs are clear by
    /// [`GAUSS_PREFILTER_MARGIN`], so the answer is the one the work-frame test gives; every
    /// other pair goes on to that test.
    #[inline]
    pub(crate) fn surely_apart(&self, a_local: &[Vec3; 3], j: usize) -> bool {
        surely_apart(a_local, &self.body.shape.edge_arc(j))
    }

    /// Calls `f` with the frame of edge `j`, by reference when cached (a copy out of the
    /// cache would cost a store-to-load stall per pair), else freshly placed.
    #[inline]
    pub(crate) fn with<R>(&self, j: usize, f: impl FnOnce(&EdgeFrame) -> R) -> R {
        let cached = self.cached();
        if j < cached.len() {
            f(&cached[j])
        } else {
            f(&EdgeFrame::new(self.body, &self.body.shape.edges()[j]))
        }
    }
}

/// The axis of edge pair (A's edge, B's edge), turned away from A's centroid, and the
/// separation along it; or why the pair gives no axis.
///
/// Both tests must pass, so their order does not change which axes are tested; it only
/// changes the reason given for a pair that fails both. With `parallel_first` (when
/// recording) a parallel pair is called parallel; without it (untraced) the Gauss-map test,
/// which rejects most pairs after two dot products, runs first.
#[inline]
pub(crate) fn edge_pair_axis(
    a: &EdgeFrame,
    b: &EdgeFrame,
    centroid_a: Vec3,
    parallel_first: bool,
) -> Result<(Vec3, f32), SkipReason> {
    // B's arc is negated: (-n0) and (-n1), whose plane normal (-n1) x (-n0) is B's `arc`.
    let gauss = || arcs_cross(a.n0, a.n1, a.arc, -b.n0, -b.n1, b.arc);
    if !parallel_first && !gauss() {
        return Err(SkipReason::GaussMap);
    }
    let cross = a.dir.cross(b.dir);
    if !crosses(a, b, cross) {
        return Err(SkipReason::Parallel);
    }
    if parallel_first && !gauss() {
        return Err(SkipReason::GaussMap);
    }
    Ok(oriented_axis(a, b, cross, centroid_a))
}

/// The parallel test of [`edge_pair_axis`]: whether `cross = a.dir x b.dir` is long enough.
#[inline]
fn crosses(a: &EdgeFrame, b: &EdgeFrame, cross: Vec3) -> bool {
    // Written so that a NaN cross product counts as parallel.
    cross.length_squared()
        >= (PARALLEL_TOLERANCE * PARALLEL_TOLERANCE)
            * a.dir.length_squared()
            * b.dir.length_squared()
}

/// The axis of an edge pair whose Gauss-map arcs cross, with the separation along it:
/// `None` when the edges are parallel ([`crosses`]), else [`oriented_axis`] along
/// `a.dir x b.dir`.
#[inline]
fn crossing_axis(a: &EdgeFrame, b: &EdgeFrame, centroid_a: Vec3) -> Option<(Vec3, f32)> {
    let cross = a.dir.cross(b.dir);
    crosses(a, b, cross).then(|| oriented_axis(a, b, cross, centroid_a))
}

/// The unit axis along `cross`, turned away from A's centroid, and the separation along it.
#[inline]
fn oriented_axis(a: &EdgeFrame, b: &EdgeFrame, cross: Vec3, centroid_a: Vec3) -> (Vec3, f32) {
    let mut axis = cross.normalize();
    if axis.dot(a.tail - centroid_a) < 0.0 {
        axis = -axis;
    }
    (axis, axis.dot(b.tail - a.tail))
}

/// Whether arc a-b and arc c-d (each the shorter great arc between two unit normals, the
/// Gauss-map image of an edge) cross on the unit sphere. `b_x_a = b x a` and `d_x_c = d x c`
/// are the planes of the arcs. Gregorius's test: c and d lie on opposite sides of plane
/// b x a, a and b on opposite sides of plane d x c, and the arcs lie in the same hemisphere
/// (c . (b x a) and b . (d x c) have the same sign).
#[inline]
fn arcs_cross(a: Vec3, b: Vec3, b_x_a: Vec3, c: Vec3, d: Vec3, d_x_c: Vec3) -> bool {
    let cba = c.dot(b_x_a);
    let dba = d.dot(b_x_a);
    if cba * dba >= 0.0 {
        return false;
    }
    let adc = a.dot(d_x_c);
    let bdc = b.dot(d_x_c);
    adc * bdc < 0.0 && cba * bdc > 0.0
}

/// The most vertices and faces a body may have for the small-body pair loop
/// ([`small_edge_pairs`]), and the most edges: a small polyhedron's
/// ([`crate::geom3::SMALL_VERTICES`]), which carries the lanes the loop's tables read. Its
/// arrays live on the stack.
const SMALL_BODY: usize = geom3::SMALL_VERTICES;
const SMALL_EDGES: usize = geom3::SMALL_EDGES;
const _: () = assert!(geom3::SMALL_FACES == SMALL_BODY);

/// B's edges that cross one edge of A are looked up this many at a time (a `u64` of bytes).
const LANES: usize = 8;

/// Up to `N` values on the stack, written in order (nothing is read before it is written).
struct Inline<T: Copy, const N: usize> {
    items: [MaybeUninit<T>; N],
    len: usize,
}

impl<T: Copy, const N: usize> Inline<T, N> {
    #[inline]
    fn new() -> Self {
        Inline {
            items: [const { MaybeUninit::uninit() }; N],
            len: 0,
        }
    }

    /// Appends `value`; the callers check the capacity first.
    #[inline]
    fn push(&mut self, value: T) {
        self.items[self.len] = MaybeUninit::new(value);
        self.len += 1;
    }

    #[inline]
    fn as_slice(&self) -> &[T] {
        // SAFETY: entries below `len` were written by `push`; T is Copy (nothing to drop).
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<T>(), self.len) }
    }
}

/// Writes each edge's frame of a small body into `frames`, from its vertices and face
/// normals placed once (the same arithmetic as [`EdgeFrame::new`], so the same bits, with
/// each vertex and normal turned once instead of once per edge that uses it).
fn place_small_frames(body: &Placed3, frames: &mut Inline<EdgeFrame, SMALL_EDGES>) {
    let shape = body.shape;
    let mut vertices = [Vec3::ZERO; SMALL_BODY];
    let vertices = &mut vertices[..shape.vertices().len()];
    turn_all(body.rotation, vertices, |v| shape.vertex(v));
    for v in vertices.iter_mut() {
        *v += body.translation;
    }
    let mut normals = [Vec3::ZERO; SMALL_BODY];
    let normals = &mut normals[..shape.face_count()];
    turn_all(body.rotation, normals, |f| shape.face_normal(f));
    let normals = &*normals;
    let vertices = &*vertices;
    for e in shape.edges() {
        let tail = vertices[e.tail as usize];
        let (n0, n1) = (normals[e.faces[0] as usize], normals[e.faces[1] as usize]);
        frames.push(EdgeFrame {
            tail,
            dir: vertices[e.head as usize] - tail,
            n0,
            n1,
            arc: n1.cross(n0),
        });
    }
}

/// Writes each edge's frame of a small body into `frames`, from its vertices placed once by
/// the body's rotation matrix ([`turned`]) and its face normals as the face loops of [`sat`]
/// placed them (by the same matrix): [`place_small_frames`]'s arithmetic with the matrix in
/// place of the quaternion, so the same frames up to the last bits.
fn place_small_frames_turned(
    body: &Placed3,
    normals: &[Vec3],
    frames: &mut Inline<EdgeFrame, SMALL_EDGES>,
) {
    let shape = body.shape;
    let mut vertices = [Vec3::ZERO; SMALL_BODY];
    let vertices = &mut vertices[..shape.vertices().len()];
    for (v, local) in vertices.iter_mut().zip(shape.vertices()) {
        *v = turned(&body.frame, *local) + body.translation;
    }
    let vertices = &*vertices;
    // Written by index with the length set once (`is_small` bounds the edges): `push` would
    // keep the length in memory, so that each edge waited on the store of the one before.
    let edges = shape.edges();
    debug_assert!(frames.len == 0 && edges.len() <= SMALL_EDGES);
    for (slot, e) in frames.items.iter_mut().zip(edges) {
        let tail = vertices[e.tail as usize];
        let (n0, n1) = (normals[e.faces[0] as usize], normals[e.faces[1] as usize]);
        *slot = MaybeUninit::new(EdgeFrame {
            tail,
            dir: vertices[e.head as usize] - tail,
            n0,
            n1,
            arc: n1.cross(n0),
        });
    }
    frames.len = edges.len().min(SMALL_EDGES);
}

/// `frame * v`: a vector turned by a rotation matrix (a body's `frame` or `frame_inverse`),
/// `(x_axis v.x + y_axis v.y) + z_axis v.z` in vector lanes.
#[inline]
fn turned(frame: &Mat3A, v: Vec3) -> Vec3 {
    Vec3::from(*frame * Vec3A::from(v))
}

/// `out[i] = rotation * local(i)` for every `i`, bit for bit the product glam's `Quat * Vec3`
/// gives (see [`Turn`]), with the quaternion's terms computed once for all the vectors.
#[inline]
fn turn_all(rotation: glam::Quat, out: &mut [Vec3], local: impl Fn(usize) -> Vec3) {
    let turn = Turn::new(rotation);
    for (i, o) in out.iter_mut().enumerate() {
        *o = turn.apply(local(i));
    }
}

/// A rotation by the quaternion `(b, w)` with its terms computed once: `apply(v)` is
/// `v (w^2 - b.b) + b (2 (v.b)) + (b x v) 2w`, the operations of glam's `Quat * Vec3` in
/// the same order, so the same bits (tested), and plain arithmetic when many vectors are
/// turned by one rotation.
#[derive(Clone, Copy)]
struct Turn {
    b: [f32; 3],
    /// `w^2 - b.b` and `2w`.
    k: f32,
    w2: f32,
}

impl Turn {
    #[inline]
    fn new(rotation: glam::Quat) -> Self {
        let [bx, by, bz, w] = rotation.to_array();
        Turn {
            b: [bx, by, bz],
            k: w * w - ((bx * bx + by * by) + bz * bz),
            w2: w * 2.0,
        }
    }

    #[inline]
    fn apply(&self, v: Vec3) -> Vec3 {
        let ([bx, by, bz], k, w2) = (self.b, self.k, self.w2);
        let d2 = ((v.x * bx + v.y * by) + v.z * bz) * 2.0;
        let cross = Vec3::new(
            by * v.z - v.y * bz,
            bz * v.x - v.z * bx,
            bx * v.y - v.x * by,
        );
        Vec3::new(
            (v.x * k + bx * d2) + cross.x * w2,
            (v.y * k + by * d2) + cross.y * w2,
            (v.z * k + bz * d2) + cross.z * w2,
        )
    }
}

/// Whether a body is small enough for [`small_edge_pairs`].
fn is_small(body: &Placed3) -> bool {
    let s = body.shape;
    s.vertices().len() <= SMALL_BODY
        && s.face_count() <= SMALL_BODY
        && s.edges().len() <= SMALL_EDGES
}

/// The edge-pair loop for two small bodies ([`is_small`]), in the exhaustive order with
/// the exhaustive loop's arithmetic, so the same axes, the same bits and (traced) the same
/// steps as [`edge_pair_axis`] pair by pair, with less work:
/// - each vertex and face normal is placed once, not once per edge that uses it (the
///   normals by the face loops, when they pass them in `normals`, A's then B's; the hull
///   path places both by the bodies' rotation matrices, [`place_small_frames_turned`]);
/// - untraced (finite normals, [`bounded`]; more than [`TABLE_MIN_PAIRS`] edge pairs), the
///   Gauss-map test's numbers come from two
///   tables of side values and only the pairs whose sign bits allow a crossing take it
///   ([`table_edge_pairs`]: the same numbers and products, so the same pairs cross);
/// - otherwise B's edges are kept one array per coordinate (their Gauss-map arcs `c = -n0`,
///   `d = -n1`, the plane `d x c`, their directions and squared lengths), so that the tests
///   of one edge of A against every edge of B are loops the compiler turns into vector
///   instructions, term for term the products and sums of [`arcs_cross`] and [`crosses`];
///   untraced, only the pairs whose arcs cross take the parallel test and the axis; traced,
///   each pair is recorded in order with the reason the exhaustive loop gives (parallel
///   first). Property tests compare untraced with traced SAT on random and tied poses.
fn small_edge_pairs<T: Tracer<Step>>(
    pair: &PolyPair,
    normals: Option<[&[Vec3]; 2]>,
    centroid_a: Vec3,
    edge: &mut Best,
    (tested, pruned): (&mut u32, &mut u32),
    tracer: &mut T,
    record: &impl Fn(&mut T, AxisId, Vec3, f32, &mut u32),
) {
    let mut frames_a = Inline::new();
    let mut frames_b = Inline::new();
    match normals {
        // The hull path: normals and vertices placed by the bodies' matrices.
        Some([normals_a, normals_b]) => {
            place_small_frames_turned(&pair.a, normals_a, &mut frames_a);
            place_small_frames_turned(&pair.b, normals_b, &mut frames_b);
        }
        None => {
            place_small_frames(&pair.a, &mut frames_a);
            place_small_frames(&pair.b, &mut frames_b);
        }
    }
    let frames_b = frames_b.as_slice();
    // Untraced, with finite normals and many pairs: the pairs that cross, from tables of side
    // values.
    // (Every small body carries its lanes; without them the lane loop below runs.)
    let lanes_b = pair.b.shape.feature_lanes();
    if let (false, Some([normals_a, normals_b]), Some(lanes_b)) = (T::ENABLED, normals, lanes_b) {
        let many = frames_a.as_slice().len() * frames_b.len() > TABLE_MIN_PAIRS;
        if many && bounded(normals_a) && bounded(normals_b) {
            let frames_a = frames_a.as_slice();
            let normals = [normals_a, normals_b];
            let face_edges = &lanes_b.face_edges;
            let axes = table_edge_pairs(
                pair, frames_a, frames_b, normals, face_edges, centroid_a, edge,
            );
            *tested += axes;
            // Every other pair was pruned (Gauss map or parallel).
            *pruned += (frames_a.len() * frames_b.len()) as u32 - axes;
            return;
        }
    }
    // Otherwise every pair in turn. B's edges by coordinate: c (x, y, z), d (x, y, z), the
    // plane d x c (x, y, z) (traced, also the direction (x, y, z) and its squared length),
    // padded with zeros (which never cross, and count as parallel) to a whole number of LANES.
    let n = frames_b.len();
    let padded = n.div_ceil(LANES) * LANES;
    let mut columns: [Inline<f32, SMALL_EDGES>; 9] = std::array::from_fn(|_| Inline::new());
    let mut directions: [Inline<f32, SMALL_EDGES>; 4] = std::array::from_fn(|_| Inline::new());
    for f in frames_b {
        let (c, d) = (-f.n0, -f.n1);
        for (column, value) in columns
            .iter_mut()
            .zip([c.x, c.y, c.z, d.x, d.y, d.z, f.arc.x, f.arc.y, f.arc.z])
        {
            column.push(value);
        }
        if T::ENABLED {
            let e = f.dir;
            for (column, value) in directions
                .iter_mut()
                .zip([e.x, e.y, e.z, e.length_squared()])
            {
                column.push(value);
            }
        }
    }
    for column in columns.iter_mut().chain(if T::ENABLED {
        &mut directions[..]
    } else {
        &mut []
    }) {
        for _ in n..padded {
            column.push(0.0);
        }
    }
    let [cx, cy, cz, dx, dy, dz, px, py, pz] = columns.each_ref().map(|c| &c.as_slice()[..padded]);
    let mut crossing = [0u8; SMALL_EDGES];
    let crossing = &mut crossing[..padded];
    let mut apart = [false; SMALL_EDGES];
    let apart = &mut apart[..padded];
    let before = *tested;
    for (i, a) in frames_a.as_slice().iter().enumerate() {
        let (arc, a0, a1) = (a.arc, a.n0, a.n1);
        for j in 0..padded {
            // As `arcs_cross(a.n0, a.n1, a.arc, c, d, d x c)`, without its early exit (a NaN
            // product goes on to the other two tests there too: hence the negation).
            let cba = (cx[j] * arc.x) + (cy[j] * arc.y) + (cz[j] * arc.z);
            let dba = (dx[j] * arc.x) + (dy[j] * arc.y) + (dz[j] * arc.z);
            let adc = (a0.x * px[j]) + (a0.y * py[j]) + (a0.z * pz[j]);
            let bdc = (a1.x * px[j]) + (a1.y * py[j]) + (a1.z * pz[j]);
            #[allow(clippy::neg_cmp_op_on_partial_ord)]
            let apart_ends = !(cba * dba >= 0.0);
            crossing[j] = (apart_ends & (adc * bdc < 0.0) & (cba * bdc > 0.0)) as u8;
        }
        if T::ENABLED {
            let [ex, ey, ez, el] = directions.each_ref().map(|c| &c.as_slice()[..padded]);
            // As `crosses(a, b, a.dir.cross(b.dir))`: not parallel.
            let (u, limit) = (
                a.dir,
                (PARALLEL_TOLERANCE * PARALLEL_TOLERANCE) * a.dir.length_squared(),
            );
            for j in 0..padded {
                let x = (u.y * ez[j]) - (ey[j] * u.z);
                let y = (u.z * ex[j]) - (ez[j] * u.x);
                let z = (u.x * ey[j]) - (ex[j] * u.y);
                apart[j] = ((x * x) + (y * y)) + (z * z) >= limit * el[j];
            }
            for (j, b) in frames_b.iter().enumerate() {
                let reason = if !apart[j] {
                    SkipReason::Parallel
                } else if crossing[j] == 0 {
                    SkipReason::GaussMap
                } else {
                    let (axis, separation) = oriented_axis(a, b, a.dir.cross(b.dir), centroid_a);
                    let id = AxisId::Edges(i as u32, j as u32);
                    edge.offer(separation, axis, id);
                    record(tracer, id, axis, separation, tested);
                    continue;
                };
                tracer.record(|| Step::Skipped {
                    edge_a: i as u32,
                    edge_b: j as u32,
                    reason,
                });
            }
            continue;
        }
        // Untraced: one byte per edge of B, LANES at a time: visit the ones that cross, in
        // order.
        for (k, block) in crossing.chunks_exact(LANES).enumerate() {
            let mut lanes = u64::from_le_bytes(block.try_into().expect("LANES bytes"));
            while lanes != 0 {
                let l = (lanes.trailing_zeros() / 8) as usize;
                lanes &= !(0xff << (8 * l));
                let j = k * LANES + l;
                let b = &frames_b[j];
                if let Some((axis, separation)) = crossing_axis(a, b, centroid_a) {
                    edge.offer(separation, axis, AxisId::Edges(i as u32, j as u32));
                    *tested += 1;
                }
            }
        }
    }
    // Every other pair was pruned (Gauss map or parallel).
    let pairs = frames_a.as_slice().len() * frames_b.len();
    *pruned += pairs as u32 - (*tested - before);
}

/// Whether every component of the placed face normals is within 2 in size (they are unit
/// vectors turned by a unit quaternion; a NaN fails). Then every arc plane (a cross product of
/// two normals) has components within 8, every side value of a [`SideTable`] is finite
/// (within 48) and so are their products: none is a NaN or an infinity.
fn bounded(normals: &[Vec3]) -> bool {
    normals
        .iter()
        .all(|n| n.x.abs() <= 2.0 && n.y.abs() <= 2.0 && n.z.abs() <= 2.0)
}

/// Untraced, two small bodies with more edge pairs than this find their crossing pairs from
/// side tables ([`table_edge_pairs`]) instead of the lane loop of [`small_edge_pairs`] (the
/// same pairs, axes and bits either way). Measured on `versus_3d` (2026-11-22): with the
/// candidates read as words and tested without a branch each, the tables win on the clock
/// from the 8-point hulls (18 x 18 edges: 1.29 -> 1.18-1.22 times Box3D) through the 20-face
/// hulls (30 x 30: 1.13 -> 1.04) to the 32-point hulls (90 x 90: 1.11 -> 0.97). Smaller
/// pairs (a tetrahedron, a triangular prism) were not measured and keep the lane loop, whose
/// cost grows with the pairs while the tables' transpose costs a fixed few hundred
/// instructions.
const TABLE_MIN_PAIRS: usize = 256;

/// Bit masks over up to [`SMALL_EDGES`] edges (bit `j % 64` of word `j / 64`).
type EdgeBits = [u64; 2];

/// The face normals of one body against the Gauss-map arc planes of the other's edges:
/// `values[g][j] = n[g] . arc[j]` (`(n.x arc.x + n.y arc.y) + n.z arc.z`), and per face the
/// sign bits of its row (bit `j` set for a negative value or `-0`).
struct SideTable {
    values: [[MaybeUninit<[f32; 4]>; SMALL_EDGES / 4]; SMALL_BODY],
    signs: [MaybeUninit<EdgeBits>; SMALL_BODY],
}

impl SideTable {
    #[inline]
    fn new() -> Self {
        SideTable {
            values: [const { [const { MaybeUninit::uninit() }; SMALL_EDGES / 4] }; SMALL_BODY],
            signs: [const { MaybeUninit::uninit() }; SMALL_BODY],
        }
    }

    /// Fills the rows of `normals` (one body's placed face normals) against the planes of
    /// `frames` (the other body's edges), four edges at a time.
    fn fill(&mut self, normals: &[Vec3], frames: &[EdgeFrame]) {
        // The planes four edges at a time, by coordinate, padded with zeros (no side).
        let groups = frames.len().div_ceil(4);
        let mut planes = [const { MaybeUninit::<[Four; 3]>::uninit() }; SMALL_EDGES / 4];
        for (slot, chunk) in planes.iter_mut().zip(frames.chunks(4)) {
            let mut xyz = [[0.0f32; 4]; 3];
            for (l, f) in chunk.iter().enumerate() {
                (xyz[0][l], xyz[1][l], xyz[2][l]) = (f.arc.x, f.arc.y, f.arc.z);
            }
            *slot = MaybeUninit::new(xyz.each_ref().map(Four::load));
        }
        // SAFETY: the first `groups` entries were written above.
        let planes: &[[Four; 3]] =
            unsafe { std::slice::from_raw_parts(planes.as_ptr().cast(), groups) };
        let edges = frames.len();
        let real = [0, 1].map(|w| match edges.saturating_sub(64 * w) {
            0 => 0,
            n @ 1..64 => (1u64 << n) - 1,
            _ => u64::MAX,
        });
        for (g, n) in normals.iter().enumerate() {
            let (x, y, z) = (Four::splat(n.x), Four::splat(n.y), Four::splat(n.z));
            let row = &mut self.values[g];
            let mut signs = [0u64; 2];
            for (word, (planes, row)) in planes.chunks(16).zip(row.chunks_mut(16)).enumerate() {
                let mut bits = 0u64;
                for (k, (p, slot)) in planes.iter().zip(row).enumerate() {
                    // `(n.x * arc.x) + (n.y * arc.y) + (n.z * arc.z)` per lane.
                    let side = Four::dot3(x, y, z, p[0], p[1], p[2]);
                    *slot = MaybeUninit::new(side.to_array());
                    bits |= u64::from(side.mask_bits()) << (4 * k);
                }
                // The padding's zeros may be -0: not edges.
                signs[word] = bits & real[word];
            }
            self.signs[g] = MaybeUninit::new(signs);
        }
    }

    /// The sign bits of row `g` over the first `64 W` edges (bit `j % 64` of word `j / 64`
    /// set for a negative value or `-0` of edge `j`). Only rows written by [`Self::fill`]
    /// may be asked for.
    #[inline(always)]
    fn sign_words<const W: usize>(&self, g: usize) -> [u64; W] {
        // SAFETY: `fill` wrote the rows of every face of its body; the callers ask for faces
        // of that body.
        let words = unsafe { self.signs[g].assume_init_ref() };
        std::array::from_fn(|w| words[w])
    }

    /// `values[g][j]`, written by [`Self::fill`].
    #[inline]
    fn value(&self, g: usize, j: usize) -> f32 {
        // SAFETY: as in `sign_words`, and `j` is an edge of the other body.
        unsafe { self.values[g].as_ptr().cast::<f32>().add(j).read() }
    }
}

/// The untraced edge-pair loop of two small bodies: the pairs the lane loop of
/// [`small_edge_pairs`] finds crossing, in its order, with its numbers, from side values.
///
/// Each of the four numbers of the Gauss-map test of edge `i` of A (faces `g0`, `g1`, arc
/// plane `b x a`) and edge `j` of B (faces `f0`, `f1`; `c = -n_B[f0]`, `d = -n_B[f1]`, plane
/// `d x c`) is one face normal of a body against one arc plane of the other:
/// `adc, bdc = n_A[g0], n_A[g1] . (d x c)_j` and `cba, dba = -(n_B[f0], n_B[f1] . (b x a)_i)`
/// (negating is exact). So a table holds A's faces (`normals_a`, placed) against B's edges,
/// and B's faces against A's edge's plane are taken per edge of A, `2 x faces x edges` dot
/// products a query instead of `4 x edges x edges`. The test needs `cba * dba < 0`,
/// `adc * bdc < 0` and `cba * bdc > 0`, and with finite values ([`bounded`]) a product is
/// negative (positive) only if its factors are non-zero with opposite (equal) signs: so only
/// the edges `j` whose numbers' sign bits allow all three can cross (a few a query). Each of
/// them then takes the whole test on the stored numbers, products included (a product of two
/// tiny factors that rounds to zero fails here as it does there), then the parallel test and
/// the axis. Returns the number of axes tested.
///
/// B's face normals are taken against A's edge's plane four faces at a time, their sign bits
/// turned into B's edges' bits by B's [`crate::geom3::FeatureLanes::face_edges`]
/// ([`arc_crossing_candidates`], the sweep's machinery): all three sign tests, one word of
/// candidates per edge of A (two when B has more than 64 edges: the 32-point hulls). (Until
/// 2026-11-23 a second table held B's faces against every edge of A, transposed once per
/// query so that its masks were words per edge of A: the same dot products, plus the
/// transpose, and only two of the three sign tests.)
/// The walk is branch-light: every candidate takes the whole test with its answer kept as a
/// bit (no branch on it), and only then are the crossing ones visited, in order. (Branching
/// on each candidate's masks and test, about 200 and 50 unpredictable branches a 20-face
/// query, made the tables slower on the clock than the lane loop though they ran fewer
/// instructions.)
/// Its own function (not inlined) so that only the pairs that take it carry the tables'
/// stack.
#[inline(never)]
fn table_edge_pairs(
    pair: &PolyPair,
    frames_a: &[EdgeFrame],
    frames_b: &[EdgeFrame],
    [normals_a, normals_b]: [&[Vec3]; 2],
    face_edges_b: &[FaceEdges],
    centroid_a: Vec3,
    edge: &mut Best,
) -> u32 {
    let mut sides_a = SideTable::new();
    sides_a.fill(normals_a, frames_b);
    let walk = (pair, &sides_a, frames_a, frames_b, normals_b);
    if frames_b.len() <= 64 {
        face_bit_edge_pairs::<1>(walk, face_edges_b, centroid_a, edge)
    } else {
        face_bit_edge_pairs::<2>(walk, face_edges_b, centroid_a, edge)
    }
}

/// [`table_edge_pairs`]'s walk over the edges of A, for B with at most `64 W` edges: per
/// edge of A, B's face normals against its plane ([`arc_crossing_candidates`]) give `cba`
/// and `dba` and, with the table's sign bits of `adc` and `bdc`, `W` words of candidates.
#[inline(always)]
fn face_bit_edge_pairs<const W: usize>(
    (pair, sides_a, frames_a, frames_b, normals_b): (
        &PolyPair,
        &SideTable,
        &[EdgeFrame],
        &[EdgeFrame],
        &[Vec3],
    ),
    face_edges: &[FaceEdges],
    centroid_a: Vec3,
    edge: &mut Best,
) -> u32 {
    let (edges_a, edges_b) = (pair.a.shape.edges(), pair.b.shape.edges());
    // B's placed face normals four at a time by coordinate, padded with zeros (padding faces
    // hold no edge in `face_edges`).
    let mut lanes = [const { MaybeUninit::<[[f32; 4]; 3]>::uninit() }; SMALL_BODY / 4];
    for (slot, group) in lanes.iter_mut().zip(normals_b.chunks(4)) {
        let mut rows = [[0.0f32; 4]; 3];
        for (l, n) in group.iter().enumerate() {
            (rows[0][l], rows[1][l], rows[2][l]) = (n.x, n.y, n.z);
        }
        *slot = MaybeUninit::new(rows);
    }
    // SAFETY: the first `normals_b.len().div_ceil(4)` groups were written above.
    let lanes: &[[[f32; 4]; 3]] =
        unsafe { std::slice::from_raw_parts(lanes.as_ptr().cast(), normals_b.len().div_ceil(4)) };
    // `n . arc` of B's faces against the current edge of A, written for every face of B.
    let mut normal_sides = [[0.0f32; 4]; SMALL_BODY / 4];
    let mut axes = 0u32;
    for (i, (a, e)) in frames_a.iter().zip(edges_a).enumerate() {
        let (g0, g1) = (e.faces[0] as usize, e.faces[1] as usize);
        let signs = [sides_a.sign_words::<W>(g0), sides_a.sign_words::<W>(g1)];
        let candidates =
            arc_crossing_candidates(lanes, face_edges, a.arc, signs, &mut normal_sides);
        let normal_side = |f: u32| normal_sides[f as usize / 4][f as usize % 4];
        for (w, mut candidates) in candidates.into_iter().enumerate() {
            // The whole test on every candidate, its answers as bits, then the axes.
            let mut crossing = 0u64;
            while candidates != 0 {
                let l = candidates.trailing_zeros();
                candidates &= candidates - 1;
                let j = 64 * w + l as usize;
                let eb = &edges_b[j];
                // As `arcs_cross(a.n0, a.n1, a.arc, c, d, d x c)` in the lane loop.
                let (cba, dba) = (-normal_side(eb.faces[0]), -normal_side(eb.faces[1]));
                let (adc, bdc) = (sides_a.value(g0, j), sides_a.value(g1, j));
                crossing |= u64::from(gauss_map_crossing(cba, dba, adc, bdc)) << l;
            }
            axes += crossing_axes(a, i, frames_b, 64 * w, crossing, centroid_a, edge);
        }
    }
    axes
}

/// Gregorius's test of [`arcs_cross`] on its four numbers, the same products: arcs `a-b`
/// (A's edge) and `c-d` (B's, negated) cross when c and d lie on opposite sides of plane
/// `b x a` (`cba dba < 0`), a and b on opposite sides of plane `d x c` (`adc bdc < 0`), and
/// the arcs lie in the same hemisphere (`cba bdc > 0`). Everything is finite where it is
/// used, so `x < 0` is `arcs_cross`'s `!(x >= 0)`. No branch: both walks keep the answer as
/// a bit.
#[inline(always)]
pub(crate) fn gauss_map_crossing(cba: f32, dba: f32, adc: f32, bdc: f32) -> bool {
    (cba * dba < 0.0) & (adc * bdc < 0.0) & (cba * bdc > 0.0)
}

/// Offers the axes of edge `i` of A (`a`) and the edges `base + l` of B for the bits `l` of
/// `crossing` (pairs whose arcs cross), in order; returns how many gave an axis.
#[inline(always)]
fn crossing_axes(
    a: &EdgeFrame,
    i: usize,
    frames_b: &[EdgeFrame],
    base: usize,
    mut crossing: u64,
    centroid_a: Vec3,
    edge: &mut Best,
) -> u32 {
    let mut axes = 0;
    while crossing != 0 {
        let j = base + crossing.trailing_zeros() as usize;
        crossing &= crossing - 1;
        let b = &frames_b[j];
        #[cfg(test)]
        tests::CROSSING.with(|c| c.borrow_mut().push((i as u32, j as u32)));
        if let Some((axis, separation)) = crossing_axis(a, b, centroid_a) {
            edge.offer(separation, axis, AxisId::Edges(i as u32, j as u32));
            axes += 1;
        }
    }
    axes
}

/// Candidates for a crossing of the Gauss-map arc of one edge of A (its plane `arc`) with
/// B's edges (bit `j % 64` of word `j / 64` for edge `j` of B; `W` words, B with at most
/// `64 W` edges): the three sign tests of Gregorius's test ([`gauss_map_crossing`]:
/// `cba dba < 0`, `adc bdc < 0`, `cba bdc > 0`) on sign bits. `adc` and `bdc` are A's edge's
/// two face normals against B's arc planes, and their sign bits come in `[adc, bdc]`.
/// `cba` and `dba` are B's negated face normals against `arc`; B has fewer faces than edges,
/// so they are taken once per face of B, four faces at a time (`normals`: B's normals in A's
/// frame, or placed, by coordinate): `sides[g]` gets `n . arc` for B's faces `4 g..4 g + 4`
/// (`cba` is exactly its negation, up to a zero's sign), and the faces' sign bits become
/// edges' bits through B's table [`crate::geom3::FeatureLanes::face_edges`] (`face_edges`).
/// A number's sign bit is set when it is negative (and for `-0.0`), clear when positive:
/// each test on signs passes every pair whose products pass, so the caller decides a
/// candidate by the products, where a zero fails whatever its sign. The swept SAT (`W = 1`)
/// and SAT's small-body walk share it.
#[inline(always)]
pub(crate) fn arc_crossing_candidates<const W: usize>(
    normals: &[[[f32; 4]; 3]],
    face_edges: &[FaceEdges],
    arc: Vec3,
    [adc, bdc]: [[u64; W]; 2],
    sides: &mut [[f32; 4]],
) -> [u64; W] {
    let (arc_x, arc_y, arc_z) = (Four::splat(arc.x), Four::splat(arc.y), Four::splat(arc.z));
    // Edges of B whose first (second) face has `n . arc` with its sign bit set: `cba`
    // (`dba`) has it clear.
    let (mut first, mut second) = ([0u64; W], [0u64; W]);
    let groups = normals.iter().zip(face_edges);
    for ((rows, edges), side) in groups.zip(sides.iter_mut()) {
        let row = |k: usize| Four::load(&rows[k]);
        let n_arc = Four::dot3(row(0), row(1), row(2), arc_x, arc_y, arc_z);
        let m = (n_arc.sign_bits() & 0xf) as usize;
        for w in 0..W {
            first[w] |= edges[w][0][m];
            second[w] |= edges[w][1][m];
        }
        *side = n_arc.to_array();
    }
    // adc and bdc of opposite signs, cba and dba of opposite signs, cba and bdc of the
    // same sign (cba's sign bit is `!first`).
    std::array::from_fn(|w| (adc[w] ^ bdc[w]) & (first[w] ^ second[w]) & (first[w] ^ bdc[w]))
}

/// The untraced edge axes of two cuboids in closed form.
///
/// For A's axis k and B's axis l the two edge pairs whose Gauss-map arcs cross (see
/// [`CuboidPair::crossing_pairs`]) have the axes `+-L/|L|`, `L = A_k x B_l`, and, as Gottschalk's OBB
/// test reads them in A's frame, the separations
///
/// ```text
/// (+-L . t - reach) / |L|,   reach = h_A[p] |R[q][l]| + h_A[q] |R[p][l]|     A's edge
///                                   + h_B[r] |R[k][s]| + h_B[s] |R[k][r]|     B's edge
/// ```
///
/// (`L = (-R[q][l], R[p][l])` along A's `(e_p, e_q)`; `p, q` and `r, s` the axes after k
/// and l). The exhaustive loop computes the same numbers from the placed vertices, and the
/// two differ only by rounding: [`EdgeGroups::bound`] bounds the difference. Candidates
/// that cannot win by that bound are never placed; those that might (usually one, or none
/// when a face wins clearly) take the exhaustive loop's arithmetic, so the winner, its
/// bits and the counts are the loop's.
struct EdgeGroups {
    /// `plus[k]` lane l, `minus[k]` lane l: the closed-form separations along `+L` and
    /// `-L` (lane 3 is padding).
    plus: [Four; 3],
    minus: [Four; 3],
    /// How far the exhaustive loop's separation of either pair can be from the closed form.
    bound: [Four; 3],
    /// Bit `4k + l`: the closed form is sure of this direction pair (below); the others go
    /// to [`exact_cuboid_groups`].
    sure: u16,
    /// The largest lower bound of a sure pair's separation: `max(plus, minus) - bound`.
    surest: f32,
}

/// `f32`'s relative rounding, the unit of [`EdgeGroups`]'s error bounds.
const ROUNDING: f32 = f32::EPSILON;

impl CuboidPair {
    /// The closed form of every direction pair, with its error bound.
    ///
    /// Error bound (generous: about twice the sums below, and a unit test measures the
    /// actual differences far inside it). With `P` the pair's extent (both translations and
    /// half diagonals, so every separation is at most `P`) and `e` = [`ROUNDING`]: a placed
    /// vertex is off by at most `10 e P`; an edge direction of length `2 h` then by `20 e P`,
    /// so the cross product of two is off by `eta |dA| |dB|`, `eta = 20 e P (1/h_A[k] +
    /// 1/h_B[l]) + 5 e` (doubled), and the unit axis by `2 eta / |L|`; the loop's separation,
    /// a dot product with a vector no longer than `2P`, by `P (4 eta + 6 e) / |L| + 28 e P`.
    /// The closed form's entries of R are off by at most `16 e`, t by `9 e |t|`, so its
    /// separation by about `104 e P / |L|`. Bound: `P (8 eta + 256 e) / |L| + 64 e P`.
    ///
    /// A direction pair is sure when the loop's three decisions are: the Gauss-map signs
    /// (the four entries of R clear of zero by [`GAUSS_PREFILTER_MARGIN`], as
    /// [`CuboidPair::crossing_pairs`]), not parallel (`|L| >= 2e-3`, twice [`PARALLEL_TOLERANCE`],
    /// with `eta <= 5e-4`), and the axis turned away from A's centroid (A's reach along it,
    /// `reach_A / |L|`, above twice its error bound).
    fn edge_groups(&self, pair: &PolyPair) -> EdgeGroups {
        let rows = self.r.transpose();
        let (t, h_a, h_b) = (self.t_in_a, self.h_a, self.h_b);
        let size_a = h_a.length();
        let extent =
            pair.a.translation.length() + pair.b.translation.length() + size_a + h_b.length();
        let rounding = ROUNDING * extent;
        let splat = Four::splat;
        // Lane l of a vector `v` read at l (`v`), at l + 1 (`next`) and at l + 2 (`after`).
        let lanes = |v: Vec3A| Four::load(&[v.x, v.y, v.z, 0.0]);
        let next = |v: Vec3A| Four::load(&[v.y, v.z, v.x, 0.0]);
        let after = |v: Vec3A| Four::load(&[v.z, v.x, v.y, 0.0]);
        let abs = |v: Four| v.max(v.neg());
        let (h_b_next, h_b_after) = (next(h_b), after(h_b));
        let inverse_h_b = lanes(h_b.recip());
        let margin = splat(GAUSS_PREFILTER_MARGIN);
        let mut groups = EdgeGroups {
            plus: [splat(0.0); 3],
            minus: [splat(0.0); 3],
            bound: [splat(0.0); 3],
            sure: 0,
            surest: f32::NEG_INFINITY,
        };
        for k in 0..3 {
            let (p, q) = ((k + 1) % 3, (k + 2) % 3);
            // Lane l: R[p][l], R[q][l]; R[k][s] and R[k][r] (r, s after l).
            let (row_p, row_q) = (lanes(rows.col(p)), lanes(rows.col(q)));
            let (k_r, k_s) = (next(rows.col(k)), after(rows.col(k)));
            let (abs_p, abs_q, abs_r, abs_s) = (abs(row_p), abs(row_q), abs(k_r), abs(k_s));
            let clear = abs_p.gt(margin).and(abs_q.gt(margin));
            let clear = clear.and(abs_r.gt(margin)).and(abs_s.gt(margin));
            let squared = row_p.mul(row_p).add(row_q.mul(row_q)).to_array();
            let length = Four::load(&squared.map(f32::sqrt));
            let along = row_p.mul(splat(t[q])).minus(row_q.mul(splat(t[p])));
            let reach_a = abs_q.mul(splat(h_a[p])).add(abs_p.mul(splat(h_a[q])));
            let reach = reach_a.add(abs_s.mul(h_b_next)).add(abs_r.mul(h_b_after));
            let eta = inverse_h_b
                .add(splat(1.0 / h_a[k]))
                .mul(splat(20.0 * rounding))
                .add(splat(5.0 * ROUNDING));
            let bound = eta
                .mul(splat(8.0 * extent))
                .add(splat(256.0 * rounding))
                .div(length)
                .add(splat(64.0 * rounding));
            let oriented = eta
                .mul(splat(4.0 * size_a))
                .add(length.mul(splat(64.0 * rounding)));
            let sure = clear
                .and(splat(2.0e-3).le(length))
                .and(eta.le(splat(5.0e-4)))
                .and(reach_a.gt(oriented))
                .and(bound.le(splat(f32::MAX)));
            groups.plus[k] = along.minus(reach).div(length);
            groups.minus[k] = along.neg().minus(reach).div(length);
            groups.bound[k] = bound;
            groups.sure |= ((sure.mask_bits() & 0b111) as u16) << (4 * k);
            let surest = groups.plus[k].max(groups.minus[k]).minus(bound);
            let surest = sure.select(surest, splat(f32::NEG_INFINITY)).max_lane();
            groups.surest = groups.surest.max(surest);
        }
        groups
    }

    /// The two edge pairs of direction pair `(k, l)` whose Gauss-map arcs cross, when the
    /// four entries of R below are clear of zero: along `+L`, then along `-L`.
    ///
    /// A cuboid's edges run along its three axes, four per axis, and the arcs of the four
    /// edges along axis k are the four quarters of the great circle perpendicular to k (the
    /// arc of the edge between the faces `+-e_p` and `+-e_q` is the quarter where the p and q
    /// coordinates have those signs). B's negated arcs along its axis l likewise tile the
    /// circle perpendicular to l. Two such great circles meet at `+-L`, `L = A_k x B_l`, so
    /// for each of the 3 x 3 direction pairs exactly two of its sixteen edge pairs cross: A's
    /// edge whose quarter holds `L` with B's edge whose negated quarter holds `L`, and the
    /// same for `-L`. With `R[k][l] = A_k . B_l`, `L` has the coordinates `(-R[q][l],
    /// R[p][l])` along A's `(e_p, e_q)` and `(R[k][s], -R[k][r])` along B's `(f_r, f_s)`.
    /// These four entries are, up to sign, the four dot products [`arcs_cross`] takes the
    /// signs of, so when all four are clear of zero by [`GAUSS_PREFILTER_MARGIN`] this is
    /// that test's answer (a unit test compares the two on random and aligned poses); A's
    /// edge is then A's extreme edge along `+-L` and B's is B's along `-+L`, which gives the
    /// separations of [`EdgeGroups`].
    fn crossing_pairs(
        &self,
        k: usize,
        l: usize,
        edges_a: &CuboidEdges,
        edges_b: &CuboidEdges,
    ) -> [(u8, u8); 2] {
        let (p, q) = ((k + 1) % 3, (k + 2) % 3);
        let (r, s) = ((l + 1) % 3, (l + 2) % 3);
        let m = |i: usize, j: usize| self.r.col(j)[i];
        let side_a = (-m(q, l) > 0.0) as usize | ((m(p, l) > 0.0) as usize) << 1;
        let side_b = (m(k, s) < 0.0) as usize | ((-m(k, r) < 0.0) as usize) << 1;
        [
            (edges_a[k][side_a], edges_b[l][side_b]),
            (edges_a[k][side_a ^ 3], edges_b[l][side_b ^ 3]),
        ]
    }

    /// The untraced edge-pair search of two cuboids ([`EdgeGroups`]): offers `edge` the
    /// exhaustive loop's best edge axis whenever it could beat `threshold` (the best face's
    /// separation plus the preference tolerance, as [`prefer`] adds them), and counts the
    /// tested and pruned pairs as the loop does.
    #[allow(clippy::too_many_arguments)]
    fn edge_axes(
        &self,
        pair: &PolyPair,
        (edges_a, edges_b): (&CuboidEdges, &CuboidEdges),
        threshold: f32,
        centroid_a: Vec3,
        edge: &mut Best,
        (tested, pruned): (&mut u32, &mut u32),
    ) {
        let groups = self.edge_groups(pair);
        let mut axes = 2 * groups.sure.count_ones();
        let open = !groups.sure & ALL_DIRECTION_PAIRS;
        if open != 0 {
            axes += exact_cuboid_groups(pair, (edges_a, edges_b), open, centroid_a, edge);
        }
        *tested += axes;
        *pruned += 144 - axes;
        // A pair below `bar` by its bound cannot be the winner: the face is better, or an
        // exact edge axis, or the sure pair with the best lower bound.
        let bar = Four::splat(threshold.max(edge.separation).max(groups.surest));
        let mut contenders = 0u32;
        for k in 0..3 {
            let plus = bar.le(groups.plus[k].add(groups.bound[k])).mask_bits();
            let minus = bar.le(groups.minus[k].add(groups.bound[k])).mask_bits();
            let sure = (groups.sure as u32 >> (4 * k)) & 0b111;
            contenders |= ((plus | minus << 4) & (sure | sure << 4)) << (8 * k);
        }
        let turns = (Turn::new(pair.a.rotation), Turn::new(pair.b.rotation));
        while contenders != 0 {
            let bit = contenders.trailing_zeros() as usize;
            contenders &= contenders - 1;
            let (k, l, minus) = (bit / 8, bit % 4, (bit / 4) % 2);
            let (i, j) = self.crossing_pairs(k, l, edges_a, edges_b)[minus];
            let a = placed_edge(&pair.a, &turns.0, i);
            let b = placed_edge(&pair.b, &turns.1, j);
            let cross = a.dir.cross(b.dir);
            debug_assert!(crosses(&a, &b, cross), "a sure pair is not parallel");
            let (axis, separation) = oriented_axis(&a, &b, cross, centroid_a);
            edge.offer_in_order(separation, axis, AxisId::Edges(i as u32, j as u32));
        }
    }
}

/// Edge `e` of a cuboid placed as [`place_small_frames`] places it (the same bits), without
/// its Gauss-map arc (zeros). Always inlined: out of line, the frame came back through
/// memory.
#[inline(always)]
fn placed_edge(body: &Placed3, turn: &Turn, e: u8) -> EdgeFrame {
    let edge = &body.shape.edges()[e as usize];
    let place = |v: u32| turn.apply(body.shape.vertex(v as usize)) + body.translation;
    EdgeFrame::from_placed(place(edge.tail), place(edge.head), Vec3::ZERO, Vec3::ZERO)
}

/// `body.project(axis)` for a cuboid with half extents `h`, bit for bit, for four axes at
/// once (lane `k` for `axes[k]`), each in one pass over the eight corners. A cuboid's vertex
/// `i` is `(+-h.x, +-h.y, +-h.z)`, the sign of coordinate `k` positive when bit `k` of `i` is
/// set (the polyhedron keeps the order in which `Polyhedron::new` lists the corners). The
/// axis is turned into the body's frame as `project` turns it ([`Turn`], glam's bits, here
/// in lanes). The scan of `support_pair` takes the dot products `(x l.x + y l.y) + z l.z`
/// with the local axis `l`; for a corner each product is `+-q_k`, `q = h * l` (a sign flips a
/// product exactly), so its dot product is `(+-q.x + +-q.y) + +-q.z`, the same sum on the
/// same bits, and its product with `-l` (the low end's) is that sum negated. The high end is
/// the lowest index of the largest sum, the low end the lowest index of the smallest (the
/// scan keeps the first of equal values, `+0` and `-0` included). Then the two corners are
/// placed and dotted as `project` does. An axis whose terms `q` are not all finite takes
/// `project`.
/// `into`: the body's inverse rotation; `corners`: its corners placed ([`placed_corners`]),
/// each coordinate in all four lanes ([`corner_lanes`]). The traced SAT runs the lanes
/// themselves ([`cuboid_interval_lanes`], on axes already by coordinate); the tests check them
/// through this.
#[cfg(test)]
fn cuboid_intervals(
    body: &Placed3,
    into: &Turn,
    corners: &[[Four; 3]; 8],
    h: Vec3A,
    axes: &[Vec3; 4],
) -> [Interval; 4] {
    let lane =
        |c: fn(&Vec3) -> f32| Four::load(&[c(&axes[0]), c(&axes[1]), c(&axes[2]), c(&axes[3])]);
    let lanes = [lane(|v| v.x), lane(|v| v.y), lane(|v| v.z)];
    let (low, high, finite) = cuboid_interval_lanes((), into, corners, h, lanes);
    let (low, high) = (low.to_array(), high.to_array());
    std::array::from_fn(|i| {
        if finite & (1 << i) == 0 {
            return projected(body, axes[i]);
        }
        Interval::new(low[i], high[i])
    })
}

/// [`cuboid_intervals`]' arithmetic on the axes by coordinate (`vx`, `vy`, `vz`: lane `k`
/// for axis `k`), four or eight at a time ([`Lanes`]): the low and high ends by lane, and
/// bit `k` set when lane `k`'s terms are finite (the other lanes' ends are meaningless:
/// they take `project`).
#[inline(always)]
fn cuboid_interval_lanes<L: Lanes>(
    isa: L::Isa,
    into: &Turn,
    corners: &[[L; 3]; 8],
    h: Vec3A,
    [vx, vy, vz]: [L; 3],
) -> (L, L, u32) {
    let splat = |value: f32| L::splat(isa, value);
    // `Turn::apply` lane by lane, then times the half extents.
    let [lx, ly, lz] = turn_lanes(isa, into, [vx, vy, vz]);
    let (qx, qy, qz) = (lx.mul(splat(h.x)), ly.mul(splat(h.y)), lz.mul(splat(h.z)));
    // A lane is finite when `q * 0` is zero in every coordinate (an infinity or NaN gives
    // NaN).
    let zero = splat(0.0);
    let finite = qx
        .mul(zero)
        .add(qy.mul(zero))
        .add(qz.mul(zero))
        .le(zero)
        .mask_bits();
    // Corner c's sum `(+-q.x + +-q.y) + +-q.z` (finite terms can add up to an infinity, but
    // never to a NaN: the opposite sums are in other corners). Rounding is symmetric, so the
    // opposite corner `7 - c` (every sign flipped) has exactly the negated sum: only corners
    // 0 to 3 are summed.
    let (nx, ny, nz) = (qx.neg(), qy.neg(), qz.neg());
    let sums: [L; 4] = std::array::from_fn(|c| {
        let pick = |bit: usize, p: L, n: L| if c & bit == 0 { n } else { p };
        pick(1, qx, nx).add(pick(2, qy, ny)).add(nz)
    });
    // The largest sum; the smallest is its negation (compared, so the sign of a zero does
    // not matter).
    let top = sums
        .iter()
        .map(|s| s.max(s.neg()))
        .reduce(L::max)
        .expect("four sums");
    let bottom = top.neg();
    // Corner c holds the largest sum (`at_top[c]`) exactly when corner `7 - c` holds the
    // smallest.
    let at_top: [L; 8] = std::array::from_fn(|c| {
        if c < 4 {
            top.le(sums[c])
        } else {
            sums[7 - c].le(bottom)
        }
    });
    // The placed corner of the lowest index holding each extreme, dotted with the axis as
    // `project` dots it (`Vec3::dot`'s sum in lanes): later corners are overwritten by
    // earlier ones.
    let world = |c: usize| {
        let [x, y, z] = corners[c];
        L::dot3(x, y, z, vx, vy, vz)
    };
    let (mut high, mut low) = (world(7), world(7));
    for c in (0..7).rev() {
        let dot = world(c);
        high = at_top[c].select(dot, high);
        low = at_top[7 - c].select(dot, low);
    }
    (low, high, finite)
}

/// Each placed corner's coordinates, each in every lane, for [`cuboid_intervals`].
#[inline(always)]
fn corner_lanes<L: Lanes>(isa: L::Isa, corners: &[Vec3; 8]) -> [[L; 3]; 8] {
    // A loop, not `map`: the lanes of `Eight` are built inside AVX code only when inlined
    // there (an out-of-line `map` calls each AVX operation).
    let splat = |c: f32| L::splat(isa, c);
    let mut lanes = [[splat(0.0); 3]; 8];
    for (to, v) in lanes.iter_mut().zip(corners) {
        *to = [splat(v.x), splat(v.y), splat(v.z)];
    }
    lanes
}

/// [`cuboid_intervals`]' rare axes (not finite in the body's frame).
#[cold]
#[inline(never)]
fn projected(body: &Placed3, axis: Vec3) -> Interval {
    body.project(axis)
}

/// [`projected`] shifted to the world frame as the recorded intervals are (by
/// `axis . origin`).
#[cold]
#[inline(never)]
fn projected_shifted(body: &Placed3, axis: Vec3, origin: Vec3) -> Interval {
    body.project(axis).shifted(axis.dot(origin))
}

/// What every group of a traced cuboid SAT's intervals needs, set up once a query: each
/// body's turn into its own frame, its placed corners in lanes, its half extents, and the
/// work frame's origin in lanes.
struct IntervalLanes<L: Lanes> {
    isa: L::Isa,
    into_a: Turn,
    into_b: Turn,
    corners_a: [[L; 3]; 8],
    corners_b: [[L; 3]; 8],
    h_a: Vec3A,
    h_b: Vec3A,
    origin: [L; 3],
}

impl<L: Lanes> IntervalLanes<L> {
    #[inline(always)]
    fn new(
        isa: L::Isa,
        boxes: &CuboidPair,
        pair: &PolyPair,
        corners: (&[Vec3; 8], &[Vec3; 8]),
    ) -> Self {
        let o = pair.origin;
        IntervalLanes {
            isa,
            into_a: Turn::new(pair.a.rotation.inverse()),
            into_b: Turn::new(pair.b.rotation.inverse()),
            corners_a: corner_lanes(isa, corners.0),
            corners_b: corner_lanes(isa, corners.1),
            h_a: boxes.h_a,
            h_b: boxes.h_b,
            origin: [o.x, o.y, o.z].map(|c| L::splat(isa, c)),
        }
    }

    /// A group of axes' intervals ([`cuboid_interval_lanes`], the axes by coordinate),
    /// shifted to the world frame as the general path records them
    /// (`interval.shifted(axis . origin)`, the shift's dot product and sums in lanes): A's
    /// low and high ends, then B's, the shift, and the bits of the lanes whose terms are
    /// finite in A's and in B's frame.
    #[inline(always)]
    fn group(&self, lanes: [L; 3]) -> ([L; 4], L, u32, u32) {
        let (low_a, high_a, finite_a) =
            cuboid_interval_lanes(self.isa, &self.into_a, &self.corners_a, self.h_a, lanes);
        let (low_b, high_b, finite_b) =
            cuboid_interval_lanes(self.isa, &self.into_b, &self.corners_b, self.h_b, lanes);
        let [vx, vy, vz] = lanes;
        let [ox, oy, oz] = self.origin;
        let shift = L::dot3(vx, vy, vz, ox, oy, oz);
        let ends = [low_a, high_a, low_b, high_b].map(|end| end.add(shift));
        (ends, shift, finite_a, finite_b)
    }
}

/// How many steps a traced cuboid SAT records: six faces each and twelve by twelve edge
/// pairs.
const CUBOID_STEPS: usize = 12 + 12 * 12;

/// The steps of a traced cuboid SAT before it runs: twelve places for the face axes (written
/// over by every run), then every edge pair in the loop's order (A's edge, then B's)
/// recorded as Gauss-map pruned, as most of them are; [`CuboidSteps`] writes over the
/// others.
static CUBOID_TEMPLATE: [Step; CUBOID_STEPS] = cuboid_template();

const fn cuboid_template() -> [Step; CUBOID_STEPS] {
    const fn pruned(edge_a: usize, edge_b: usize) -> Step {
        Step::Skipped {
            edge_a: edge_a as u32,
            edge_b: edge_b as u32,
            reason: SkipReason::GaussMap,
        }
    }
    let mut steps = [pruned(0, 0); CUBOID_STEPS];
    let mut k = 0;
    while k < 144 {
        steps[12 + k] = pruned(k / 12, k % 12);
        k += 1;
    }
    steps
}

/// A traced cuboid SAT's steps, laid down from [`CUBOID_TEMPLATE`] in the tracer's memory
/// and written over in order (`len` of them so far), with the positions of the axis steps
/// and their axes for their intervals, which are known only at the end. The axes are kept
/// by coordinate, four to a group (lane `n % 4` of group `n / 4` for the `n`-th axis, the
/// lanes after the last axis zeros), as [`cuboid_interval_lanes`] reads them: no gathering
/// out of the steps.
struct CuboidSteps<'s> {
    steps: &'s mut [Step],
    len: usize,
    /// Set by [`CuboidPair::sure_edge_pairs`]: the axes are the twelve faces' and the
    /// eighteen crossing pairs' ([`Self::fill_intervals_sure`]).
    sure: bool,
    axes: Inline<u8, CUBOID_STEPS>,
    axis_groups: [[[f32; 4]; 3]; CUBOID_STEPS / 4],
}

impl Tracer<Step> for CuboidSteps<'_> {
    const ENABLED: bool = true;

    #[inline(always)]
    fn record(&mut self, make: impl FnOnce() -> Step) {
        let step = make();
        if let Step::Axis(t) = &step {
            self.note_axis(self.len, t.axis);
        }
        self.steps[self.len] = step;
        self.len += 1;
    }
}

/// The tracers of [`CuboidPair::sat_steps`]: the no-op one (untraced) and [`CuboidSteps`],
/// whose rows of edge pairs [`CuboidPair::traced_edge_pairs`] writes directly.
trait CuboidSink<'s>: Tracer<Step> {
    /// The steps being written, when traced.
    fn steps(&mut self) -> Option<&mut CuboidSteps<'s>>;
}

impl<'s> CuboidSink<'s> for () {
    #[inline(always)]
    fn steps(&mut self) -> Option<&mut CuboidSteps<'s>> {
        None
    }
}

impl<'s> CuboidSink<'s> for CuboidSteps<'s> {
    #[inline(always)]
    fn steps(&mut self) -> Option<&mut CuboidSteps<'s>> {
        Some(self)
    }
}

impl CuboidSteps<'_> {
    /// Passes over edge `i` of A's twelve pairs with B's edges `0..12`, each recorded as
    /// Gauss-map pruned (the template's steps, left as they are); returns the position of
    /// the first.
    #[inline]
    fn pruned_row(&mut self, i: u32) -> usize {
        let row = self.len;
        debug_assert_eq!(row, 12 + 12 * i as usize, "edge rows come in order");
        self.len = row + 12;
        row
    }

    /// Writes the next tested axis (ordinal `*tested`, its intervals left empty) at position
    /// `at` (over a step written there, or as the next step) and notes its position for
    /// [`Self::fill_intervals`]. Axis steps are written in order.
    #[inline(always)]
    fn axis_at(&mut self, at: usize, id: AxisId, axis: Vec3, separation: f32, tested: &mut u32) {
        let none = Interval::default();
        let step = AxisTest {
            ordinal: *tested,
            id,
            axis,
            interval_a: none,
            interval_b: none,
            separation,
        };
        *tested += 1;
        self.steps[at] = Step::Axis(step);
        self.len = self.len.max(at + 1);
        self.note_axis(at, axis);
    }

    /// Notes an axis step's position and its axis (by coordinate) for
    /// [`Self::fill_intervals`].
    #[inline(always)]
    fn note_axis(&mut self, at: usize, axis: Vec3) {
        let (group, lane) = (self.axes.len / 4, self.axes.len % 4);
        let group = &mut self.axis_groups[group];
        (group[0][lane], group[1][lane], group[2][lane]) = (axis.x, axis.y, axis.z);
        self.axes.push(at as u8);
    }

    /// Every recorded axis's two intervals ([`cuboid_interval_lanes`], four axes at a time,
    /// read from the axis groups), shifted to the world frame as the general path records
    /// them (`interval.shifted(axis . origin)`, the shift's dot product and sums in lanes).
    fn fill_intervals(
        &mut self,
        boxes: &CuboidPair,
        pair: &PolyPair,
        (corners_a, corners_b): &([Vec3; 8], [Vec3; 8]),
    ) {
        let (a, b) = (&pair.a, &pair.b);
        let setup = IntervalLanes::<Four>::new((), boxes, pair, (corners_a, corners_b));
        let steps = &mut *self.steps;
        let groups = &self.axis_groups;
        for (group, positions) in groups.iter().zip(self.axes.as_slice().chunks(4)) {
            let lanes = group.each_ref().map(Four::load);
            let (ends, shift, finite_a, finite_b) = setup.group(lanes);
            let [low_a, high_a, low_b, high_b] = ends.map(Four::to_array);
            for (lane, &at) in positions.iter().enumerate() {
                let Step::Axis(t) = &mut steps[at as usize] else {
                    unreachable!("the axis steps' positions")
                };
                // A lane whose terms are not all finite takes `project` (shifted as the
                // lanes are).
                let end = |finite: u32, body: &Placed3, low: &[f32; 4], high: &[f32; 4]| {
                    if (finite >> lane) & 1 == 0 {
                        projected(body, t.axis).shifted(shift.to_array()[lane])
                    } else {
                        Interval::new(low[lane], high[lane])
                    }
                };
                let (interval_a, interval_b) = (
                    end(finite_a, a, &low_a, &high_a),
                    end(finite_b, b, &low_b, &high_b),
                );
                (t.interval_a, t.interval_b) = (interval_a, interval_b);
            }
        }
    }

    /// [`Self::fill_intervals`] after [`CuboidPair::sure_edge_pairs`], which records the
    /// eighteen edge axes after the twelve face axes. A cuboid's faces come in six opposite
    /// pairs, and the axis of the face with normal `-e_k` is the exact negation of its
    /// partner's (the same rotation of the negated normal; only the signs of zeros may
    /// differ). Each body's interval along it is then the partner's turned round,
    /// `[-max, -min]`: the corner sums are negated, so `project` takes the partner's low
    /// corner for the high end and the high corner for the low end, and the dot product,
    /// the shift and their rounded sum are negated with them, unless that sum is zero (the
    /// sign of a zero sum does not follow): a zero end takes `project`. So only the edge
    /// axes and the faces with normal `+e_k` take lanes ([`SURE_LANES`]): six groups of four
    /// instead of eight, or where the processor has AVX three of eight ([`Eight`], run in a
    /// function compiled for AVX: the same operations on twice the lanes, the same bits).
    fn fill_intervals_sure(
        &mut self,
        boxes: &CuboidPair,
        pair: &PolyPair,
        corners: &([Vec3; 8], [Vec3; 8]),
    ) {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx) = eight_lanes() {
            // SAFETY: `avx` proves that the processor has AVX.
            return unsafe { self.fill_intervals_sure_avx(avx, boxes, pair, corners) };
        }
        self.fill_intervals_sure_in::<Four>((), boxes, pair, corners)
    }

    /// [`Self::fill_intervals_sure`] eight lanes at a time, compiled for AVX (its
    /// three-operand instructions and blends for the four-lane steps too).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    fn fill_intervals_sure_avx(
        &mut self,
        avx: Avx,
        boxes: &CuboidPair,
        pair: &PolyPair,
        corners: &([Vec3; 8], [Vec3; 8]),
    ) {
        self.fill_intervals_sure_in::<Eight>(avx, boxes, pair, corners)
    }

    #[inline(always)]
    fn fill_intervals_sure_in<L: Lanes>(
        &mut self,
        isa: L::Isa,
        boxes: &CuboidPair,
        pair: &PolyPair,
        corners: &([Vec3; 8], [Vec3; 8]),
    ) {
        let (a, b) = (&pair.a, &pair.b);
        let (Some(faces_a), Some(faces_b)) = (a.shape.cuboid_faces(), b.shape.cuboid_faces())
        else {
            return self.fill_intervals(boxes, pair, corners);
        };
        debug_assert_eq!(
            self.axes.len,
            12 + SURE_AXES,
            "faces, then the crossing pairs"
        );
        let groups = &self.axis_groups;
        // Lane n (by coordinate): the edge axis n (recorded 12 + n) for n below 18, then the
        // faces with normal `+e_k`, A's (lane 18 + k), then B's (lane 21 + k); `held`: the
        // recorded axis of each lane; `faces[body][l]`: the recorded axis of the body's face
        // with normal lane l (`+e_k` for l = k, `-e_k` for l = 3 + k, as `CuboidFaces`).
        let mut lanes = [[0.0f32; SURE_LANES]; 3];
        for (g, group) in groups[3..8].iter().enumerate() {
            for (to, from) in lanes.iter_mut().zip(group) {
                to[4 * g..4 * g + 4].copy_from_slice(from);
            }
        }
        let mut faces = [[0u8; 6]; 2];
        for (body, table) in [faces_a, faces_b].into_iter().enumerate() {
            for (i, &normal) in table.iter().enumerate() {
                faces[body][normal as usize] = (6 * body + i) as u8;
            }
        }
        let mut held: [u8; SURE_LANES] = std::array::from_fn(|n| 12 + n as u8);
        for (body, faces) in faces.iter().enumerate() {
            for (k, &r) in faces[..3].iter().enumerate() {
                let (n, r) = (SURE_AXES + 3 * body + k, r as usize);
                for (to, from) in lanes.iter_mut().zip(&groups[r / 4]) {
                    to[n] = from[r % 4];
                }
                held[n] = r as u8;
            }
        }
        // Every lane's ends (low and high along A, then B, shifted), `L::COUNT` lanes at a
        // time, and the bits of the lanes whose terms are finite in A's and in B's frame.
        let setup = IntervalLanes::<L>::new(isa, boxes, pair, (&corners.0, &corners.1));
        let mut ends = [[0.0f32; SURE_LANES]; 4];
        let (mut finite_a, mut finite_b) = (0u32, 0u32);
        for g in (0..SURE_LANES).step_by(L::COUNT) {
            let axes = lanes.each_ref().map(|c| L::load_from(isa, &c[g..]));
            let (group, _, finite_group_a, finite_group_b) = setup.group(axes);
            for (end, to) in group.into_iter().zip(&mut ends) {
                end.store_to(&mut to[g..]);
            }
            (finite_a, finite_b) = (
                finite_a | finite_group_a << g,
                finite_b | finite_group_b << g,
            );
        }
        let [low_a, high_a, low_b, high_b] = &ends;
        let steps = &mut *self.steps;
        let positions = self.axes.as_slice();
        for n in 0..SURE_LANES {
            let t = axis_step(steps, positions[held[n] as usize]);
            t.interval_a = Interval::new(low_a[n], high_a[n]);
            t.interval_b = Interval::new(low_b[n], high_b[n]);
        }
        // A lane whose terms are not all finite (rare) takes `project` (shifted as the lanes
        // are).
        let all = (1u32 << SURE_LANES) - 1;
        if finite_a & finite_b != all {
            for n in (0..SURE_LANES).filter(|n| (finite_a & finite_b) >> n & 1 == 0) {
                let t = axis_step(steps, positions[held[n] as usize]);
                if finite_a >> n & 1 == 0 {
                    t.interval_a = projected_shifted(a, t.axis, pair.origin);
                }
                if finite_b >> n & 1 == 0 {
                    t.interval_b = projected_shifted(b, t.axis, pair.origin);
                }
            }
        }
        // The faces with normal `-e_k`: the partner's ends turned round; a zero end (or a
        // partner that took `project`) takes `project`.
        for (body, faces) in faces.iter().enumerate() {
            for (k, &r) in faces[3..].iter().enumerate() {
                let n = SURE_AXES + 3 * body + k;
                let t = axis_step(steps, positions[r as usize]);
                let (projected_a, projected_b) = (finite_a >> n & 1 == 0, finite_b >> n & 1 == 0);
                t.interval_a = if low_a[n] == 0.0 || high_a[n] == 0.0 || projected_a {
                    projected_shifted(a, t.axis, pair.origin)
                } else {
                    Interval::new(-high_a[n], -low_a[n])
                };
                t.interval_b = if low_b[n] == 0.0 || high_b[n] == 0.0 || projected_b {
                    projected_shifted(b, t.axis, pair.origin)
                } else {
                    Interval::new(-high_b[n], -low_b[n])
                };
            }
        }
    }
}

/// The axis step at position `at` of a traced cuboid SAT's steps.
#[inline(always)]
fn axis_step(steps: &mut [Step], at: u8) -> &mut AxisTest {
    match &mut steps[at as usize] {
        Step::Axis(t) => t,
        _ => unreachable!("the axis steps' positions"),
    }
}

/// A cuboid's eight vertices placed in the work frame, `Placed3::vertex`'s bits (the
/// rotation by [`Turn`], then the translation), four at a time: [`Turn::apply`]'s
/// operations lane by lane ([`turn_lanes`]) on the vertices by coordinate, turned back
/// into points by a transpose.
#[inline]
fn placed_corners(body: &Placed3) -> [Vec3; 8] {
    let turn = Turn::new(body.rotation);
    let t = body.translation;
    let shift = [t.x, t.y, t.z].map(Four::splat);
    let mut out = [Vec3::ZERO; 8];
    for (half, placed) in out.chunks_exact_mut(4).enumerate() {
        let row = |i: usize| {
            let v = body.shape.vertex(4 * half + i);
            Four::load(&[v.x, v.y, v.z, 0.0])
        };
        let [x, y, z, w] = Four::transpose([row(0), row(1), row(2), row(3)]);
        let [x, y, z] = turn_lanes((), &turn, [x, y, z]);
        let [x, y, z] = [x.add(shift[0]), y.add(shift[1]), z.add(shift[2])];
        for (p, row) in placed.iter_mut().zip(Four::transpose([x, y, z, w])) {
            let [x, y, z, _] = row.to_array();
            *p = Vec3::new(x, y, z);
        }
    }
    out
}

/// [`Turn::apply`] on four vectors at once (by coordinate), lane by lane the same
/// operations: `v (w^2 - b.b) + b (2 (v.b)) + (b x v) 2w`.
#[inline(always)]
fn turn_lanes<L: Lanes>(isa: L::Isa, turn: &Turn, [vx, vy, vz]: [L; 3]) -> [L; 3] {
    let splat = |value: f32| L::splat(isa, value);
    let [bx, by, bz] = turn.b.map(splat);
    let (k, w2) = (splat(turn.k), splat(turn.w2));
    let d2 = L::dot3(vx, vy, vz, bx, by, bz).mul(splat(2.0));
    let cross_x = by.mul(vz).minus(vy.mul(bz));
    let cross_y = bz.mul(vx).minus(vz.mul(bx));
    let cross_z = bx.mul(vy).minus(vx.mul(by));
    let apply = |v: L, b: L, cross: L| v.mul(k).add(b.mul(d2)).add(cross.mul(w2));
    [
        apply(vx, bx, cross_x),
        apply(vy, by, cross_y),
        apply(vz, bz, cross_z),
    ]
}

/// Both cuboids' [`CuboidEdges`] tables and their vertices placed ([`placed_corners`]).
type CuboidFrames<'e> = (
    (&'e CuboidEdges, &'e CuboidEdges),
    (&'e [Vec3; 8], &'e [Vec3; 8]),
);

impl CuboidPair {
    /// The traced edge-pair loop of two cuboids: every pair recorded in the exhaustive order
    /// (A's edge, then B's) with the step [`small_edge_pairs`] records, the same reasons,
    /// axes and bits. In a direction pair (A's axis k, B's axis l) that [`EdgeGroups`] is
    /// sure of, the sixteen edge pairs are not parallel and exactly the two of
    /// [`Self::crossing_pairs`] cross on the Gauss map: the other fourteen are recorded as
    /// Gauss-map pruned without a test, and the two take the loop's axis on the edges placed
    /// as [`place_small_frames`] places them. Pairs of the other direction pairs take the
    /// exhaustive test ([`edge_pair_axis`], parallel first) on the loop's frames.
    fn traced_edge_pairs(
        &self,
        pair: &PolyPair,
        ((edges_a, edges_b), (vertices_a, vertices_b)): CuboidFrames,
        centroid_a: Vec3,
        edge: &mut Best,
        (tested, pruned): (&mut u32, &mut u32),
        steps: &mut CuboidSteps<'_>,
    ) {
        let groups = self.edge_groups(pair);
        if groups.sure & ALL_DIRECTION_PAIRS == ALL_DIRECTION_PAIRS {
            let frames = ((edges_a, edges_b), (vertices_a, vertices_b));
            return self.sure_edge_pairs(pair, frames, centroid_a, edge, (tested, pruned), steps);
        }
        // Each edge's direction (its axis k), and for a sure direction pair the bit of each
        // of its two crossing pairs.
        let (mut axis_a, mut axis_b) = ([0u8; 12], [0u8; 12]);
        for k in 0..3 {
            for side in 0..4 {
                axis_a[edges_a[k][side] as usize] = k as u8;
                axis_b[edges_b[k][side] as usize] = k as u8;
            }
        }
        let mut crossing = [0u16; 12];
        for k in 0..3 {
            for l in 0..3 {
                if groups.sure & (1 << (4 * k + l)) != 0 {
                    for (i, j) in self.crossing_pairs(k, l, edges_a, edges_b) {
                        crossing[i as usize] |= 1 << j;
                    }
                }
            }
        }
        // The vertices are placed once (as `place_small_frames` places them); the loop's
        // whole frames only when some direction pair is open.
        let frame = |vertices: &[Vec3; 8], e: &Edge| {
            let tail = vertices[e.tail as usize];
            EdgeFrame::from_placed(tail, vertices[e.head as usize], Vec3::ZERO, Vec3::ZERO)
        };
        let open = !groups.sure & ALL_DIRECTION_PAIRS;
        let mut frames_a = Inline::new();
        let mut frames_b = Inline::new();
        if open != 0 {
            place_small_frames(&pair.a, &mut frames_a);
            place_small_frames(&pair.b, &mut frames_b);
        }
        // For each axis k of A, B's edges (bit j) whose direction pair with k is sure.
        let mut sure_b = [0u16; 3];
        for (j, &l) in axis_b.iter().enumerate() {
            for (k, row) in sure_b.iter_mut().enumerate() {
                if groups.sure & (1 << (4 * k + l as usize)) != 0 {
                    *row |= 1 << j;
                }
            }
        }
        let (shape_a, shape_b) = (pair.a.shape, pair.b.shape);
        let crossing_axis = |i: usize, j: usize| {
            let a = frame(vertices_a, &shape_a.edges()[i]);
            let b = frame(vertices_b, &shape_b.edges()[j]);
            oriented_axis(&a, &b, a.dir.cross(b.dir), centroid_a)
        };
        for i in 0..12 {
            // The pairs of sure direction pairs that do not cross: recorded without a test.
            let sure = sure_b[axis_a[i] as usize];
            let gauss_pruned = sure & !crossing[i];
            *pruned += gauss_pruned.count_ones();
            if sure == 0xfff {
                // A row of sure direction pairs only: twelve pruned steps written without a
                // branch, then the crossing pairs' axis steps written over theirs, in order.
                let row = steps.pruned_row(i as u32);
                let mut bits = crossing[i];
                while bits != 0 {
                    let j = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let (axis, separation) = crossing_axis(i, j);
                    let id = AxisId::Edges(i as u32, j as u32);
                    edge.offer(separation, axis, id);
                    steps.axis_at(row + j, id, axis, separation, tested);
                }
                continue;
            }
            for j in 0..12 {
                if gauss_pruned & (1 << j) != 0 {
                    steps.record(|| Step::Skipped {
                        edge_a: i as u32,
                        edge_b: j as u32,
                        reason: SkipReason::GaussMap,
                    });
                    continue;
                }
                // A crossing pair of a sure direction pair, or a pair of an open one.
                let found = if crossing[i] & (1 << j) != 0 {
                    Ok(crossing_axis(i, j))
                } else {
                    let (a, b) = (&frames_a.as_slice()[i], &frames_b.as_slice()[j]);
                    edge_pair_axis(a, b, centroid_a, true)
                };
                match found {
                    Ok((axis, separation)) => {
                        let id = AxisId::Edges(i as u32, j as u32);
                        edge.offer(separation, axis, id);
                        steps.axis_at(steps.len, id, axis, separation, tested);
                    }
                    Err(reason) => {
                        *pruned += 1;
                        steps.record(|| Step::Skipped {
                            edge_a: i as u32,
                            edge_b: j as u32,
                            reason,
                        });
                    }
                }
            }
        }
    }
}
/// Bit `4k + l` for each of the nine direction pairs (A's axis k, B's axis l), as
/// [`EdgeGroups::sure`] holds them.
const ALL_DIRECTION_PAIRS: u16 = 0b0111_0111_0111;

/// How many edge pairs give an axis when every direction pair is sure: two of each nine.
const SURE_AXES: usize = 18;

/// The axes whose intervals [`CuboidSteps::fill_intervals_sure`] computes in lanes: the
/// eighteen edge axes and six face axes (a multiple of four and of eight).
const SURE_LANES: usize = SURE_AXES + 6;

/// AVX's token when [`CuboidSteps::fill_intervals_sure`] runs eight lanes at a time
/// ([`Eight`]): where the processor has AVX, unless a test has asked its thread for four
/// ([`FOUR_LANES_ONLY`], to compare the two).
#[cfg(target_arch = "x86_64")]
#[inline]
fn eight_lanes() -> Option<Avx> {
    #[cfg(test)]
    if FOUR_LANES_ONLY.with(std::cell::Cell::get) {
        return None;
    }
    Avx::detect()
}

#[cfg(test)]
thread_local! {
    /// Set by a test: this thread's traced cuboid intervals take four lanes at a time.
    static FOUR_LANES_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl CuboidPair {
    /// [`Self::traced_edge_pairs`] when [`EdgeGroups`] is sure of all nine direction pairs
    /// (random poses nearly always are): exactly the eighteen pairs of
    /// [`Self::crossing_pairs`] give an axis and the other 126 are the template's Gauss-map
    /// pruned steps, left as they are. The eighteen are listed in the loop's order (A's
    /// edge, then B's), their ends gathered by coordinate, and their axes computed four at
    /// a time ([`crossing_axis_lanes`]: the loop's [`oriented_axis`] on the same placed
    /// vertices, the same bits); then offered and recorded in that order.
    fn sure_edge_pairs(
        &self,
        pair: &PolyPair,
        ((edges_a, edges_b), (vertices_a, vertices_b)): CuboidFrames,
        centroid_a: Vec3,
        edge: &mut Best,
        (tested, pruned): (&mut u32, &mut u32),
        steps: &mut CuboidSteps<'_>,
    ) {
        // Row i: B's edges (bit j) whose pair with A's edge i crosses.
        let mut crossing = [0u16; 12];
        for k in 0..3 {
            for l in 0..3 {
                for (i, j) in self.crossing_pairs(k, l, edges_a, edges_b) {
                    crossing[i as usize] |= 1 << j;
                }
            }
        }
        // The n-th crossing pair in the loop's order: A's edge, B's edge (`ids`) and the
        // corners at their ends (`corners`: tail and head of A's edge, then of B's).
        let mut ids = [(0u32, 0u32); SURE_AXES];
        let mut corners = [[0u8; 4]; SURE_AXES.next_multiple_of(4)];
        let (shape_a, shape_b) = (pair.a.shape, pair.b.shape);
        let mut n = 0;
        for (i, &row) in crossing.iter().enumerate() {
            let ea = &shape_a.edges()[i];
            let mut bits = row;
            while bits != 0 {
                let j = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let eb = &shape_b.edges()[j];
                ids[n] = (i as u32, j as u32);
                corners[n] = [ea.tail, ea.head, eb.tail, eb.head].map(|v| v as u8);
                n += 1;
            }
        }
        debug_assert_eq!(n, SURE_AXES, "two crossing pairs in each direction pair");
        // Each corner one to a row (a fourth lane of zero), four pairs' rows turned into
        // lanes by coordinate; the padding pairs repeat corner 0 and are not read.
        let rows = |v: &[Vec3; 8]| v.map(|p| [p.x, p.y, p.z, 0.0]);
        let (rows_a, rows_b) = (rows(vertices_a), rows(vertices_b));
        let centroid = [centroid_a.x, centroid_a.y, centroid_a.z].map(Four::splat);
        let mut axes = [[[0.0f32; 4]; 3]; SURE_AXES.div_ceil(4)];
        let mut separations = [[0.0f32; 4]; SURE_AXES.div_ceil(4)];
        for (g, four) in corners.chunks_exact(4).enumerate() {
            let lanes = |end: usize, rows: &[[f32; 4]; 8]| {
                let row = |p: usize| Four::load(&rows[four[p][end] as usize]);
                let [x, y, z, _] = Four::transpose([row(0), row(1), row(2), row(3)]);
                [x, y, z]
            };
            let ends = [
                lanes(0, &rows_a),
                lanes(1, &rows_a),
                lanes(2, &rows_b),
                lanes(3, &rows_b),
            ];
            (axes[g], separations[g]) = crossing_axis_lanes(ends, &centroid);
        }
        steps.len = CUBOID_STEPS;
        steps.sure = true;
        // The axes by coordinate are already the groups the intervals read (the face axes
        // fill whole groups before them; a padding lane is never read).
        let first = steps.axes.len;
        let whole_groups = first.is_multiple_of(4);
        if whole_groups {
            steps.axis_groups[first / 4..first / 4 + axes.len()].copy_from_slice(&axes);
        }
        let ordinal = *tested;
        for (n, &(i, j)) in ids.iter().enumerate() {
            let ([x, y, z], separation) = (&axes[n / 4], separations[n / 4][n % 4]);
            let lane = n % 4;
            let axis = Vec3::new(x[lane], y[lane], z[lane]);
            let id = AxisId::Edges(i, j);
            edge.offer(separation, axis, id);
            let at = 12 + 12 * i as usize + j as usize;
            steps.steps[at] = Step::Axis(AxisTest {
                ordinal: ordinal + n as u32,
                id,
                axis,
                interval_a: Interval::default(),
                interval_b: Interval::default(),
                separation,
            });
            if whole_groups {
                steps.axes.push(at as u8);
            } else {
                steps.note_axis(at, axis);
            }
        }
        *tested += SURE_AXES as u32;
        *pruned += (144 - SURE_AXES) as u32;
    }
}

/// [`oriented_axis`] of four edge pairs at once, lane by lane the same operations on the
/// same numbers (glam's `cross`, `normalize` as the product with `1 / sqrt(length^2)`, the
/// dot products in `Vec3::dot`'s order), so the same bits. Takes the tail and head of A's
/// edge, then of B's, by coordinate (lane k for the k-th pair); returns each axis by
/// coordinate and its separation.
#[inline(always)]
fn crossing_axis_lanes(
    [tail_a, head_a, tail_b, head_b]: [[Four; 3]; 4],
    centroid_a: &[Four; 3],
) -> ([[f32; 4]; 3], [f32; 4]) {
    let dir_a: [Four; 3] = std::array::from_fn(|c| head_a[c].minus(tail_a[c]));
    let dir_b: [Four; 3] = std::array::from_fn(|c| head_b[c].minus(tail_b[c]));
    // `dir_a.cross(dir_b)`, glam's order.
    let cross = [
        dir_a[1].mul(dir_b[2]).minus(dir_b[1].mul(dir_a[2])),
        dir_a[2].mul(dir_b[0]).minus(dir_b[2].mul(dir_a[0])),
        dir_a[0].mul(dir_b[1]).minus(dir_b[0].mul(dir_a[1])),
    ];
    let [cx, cy, cz] = cross;
    let recip = Four::splat(1.0).div(Four::dot3(cx, cy, cz, cx, cy, cz).sqrt());
    let axis = cross.map(|c| c.mul(recip));
    // Turned away from A's centroid: negated where `axis . (tail_a - centroid_a) < 0`.
    let off: [Four; 3] = std::array::from_fn(|c| tail_a[c].minus(centroid_a[c]));
    let facing = Four::dot3(axis[0], axis[1], axis[2], off[0], off[1], off[2]);
    let away = Four::splat(0.0).gt(facing);
    let axis = axis.map(|c| away.select(c.neg(), c));
    let gap: [Four; 3] = std::array::from_fn(|c| tail_b[c].minus(tail_a[c]));
    let separation = Four::dot3(axis[0], axis[1], axis[2], gap[0], gap[1], gap[2]);
    (axis.map(Four::to_array), separation.to_array())
}

/// The direction pairs [`EdgeGroups`] is not sure of (bit `4k + l` of `open`), by the
/// exhaustive loop's tests pair by pair: [`arcs_cross`], the parallel test and the axis on
/// the edges placed as [`place_small_frames`] places them. Returns how many pairs gave an axis.
#[cold]
#[inline(never)]
fn exact_cuboid_groups(
    pair: &PolyPair,
    (edges_a, edges_b): (&CuboidEdges, &CuboidEdges),
    open: u16,
    centroid_a: Vec3,
    edge: &mut Best,
) -> u32 {
    let mut frames_a = Inline::new();
    let mut frames_b = Inline::new();
    place_small_frames(&pair.a, &mut frames_a);
    place_small_frames(&pair.b, &mut frames_b);
    let (frames_a, frames_b) = (frames_a.as_slice(), frames_b.as_slice());
    let mut axes = 0;
    for group in (0..12).filter(|g| open & (1 << g) != 0) {
        let (k, l) = (group / 4, group % 4);
        for &i in &edges_a[k] {
            for &j in &edges_b[l] {
                let (a, b) = (&frames_a[i as usize], &frames_b[j as usize]);
                if !arcs_cross(a.n0, a.n1, a.arc, -b.n0, -b.n1, b.arc) {
                    continue;
                }
                if let Some((axis, separation)) = crossing_axis(a, b, centroid_a) {
                    edge.offer_in_order(separation, axis, AxisId::Edges(i as u32, j as u32));
                    axes += 1;
                }
            }
        }
    }
    axes
}

/// Gottschalk's setup of two cuboids as [`CuboidPair::new`] computes it (B's rotation and
/// centre in A's frame, the centre offset in B's frame, both reaches, the half extents), for
/// the closed-form verdict of GJK's intersection test ([`super::cuboid_verdict`]); `None`
/// unless both bodies are cuboids placed with finite numbers.
pub(crate) fn cuboid_setup(pair: &PolyPair) -> Option<CuboidSetup> {
    let c = CuboidPair::new(pair)?;
    Some(CuboidSetup {
        r: c.r,
        t_in_a: c.t_in_a,
        t_in_b: c.t_in_b,
        reach_a: c.reach_a,
        reach_b: c.reach_b,
        h_a: c.h_a,
        h_b: c.h_b,
    })
}

/// The fields of [`CuboidPair`], read by [`cuboid_setup`]'s callers.
pub(crate) struct CuboidSetup {
    /// `r.col(l)` is B's axis l in A's frame: `R[k][l] = A_k . B_l`.
    pub(crate) r: Mat3A,
    /// From A's centre to B's in A's frame, and the same vector in B's frame.
    pub(crate) t_in_a: Vec3A,
    pub(crate) t_in_b: Vec3A,
    /// `h_a[k] + sum_l h_b[l] |R[k][l]|` and `h_b[l] + sum_k h_a[k] |R[k][l]|`.
    pub(crate) reach_a: Vec3A,
    pub(crate) reach_b: Vec3A,
    pub(crate) h_a: Vec3A,
    pub(crate) h_b: Vec3A,
}

#[cfg(test)]
mod tests;
