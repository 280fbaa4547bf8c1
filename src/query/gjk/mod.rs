//! GJK: are two convex shapes overlapping, and if not, how far apart and where?
//!
//! Algorithm (Gilbert, Johnson and Keerthi 1988; the 2D form in Ericson, *Real-Time Collision
//! Detection*, 9.5, and Catto's GDC 2010 talk "Computing Distance"):
//!
//! ```text
//! simplex = { support(A - B, cB - cA) }
//! loop:
//!     find the point v of the simplex closest to the origin (by Voronoi region) and keep
//!     only the vertices of the feature it lies on
//!     if the simplex is a triangle holding the origin: the cores overlap
//!     if |v| ~ 0: the origin lies on the simplex: the cores touch
//!     w = support(A - B, -v)
//!     if w is already in the simplex, or w is no closer along v than v itself: v is the
//!     closest point of A - B, stop
//!     add w
//! ```
//!
//! Rounded shapes run GJK on their cores and subtract the radii at the end (Box2D's way):
//! a circle is a point core, a capsule a segment core.
//!
//! The loop works in body A's local frame, as Box2D's `b2ShapeDistance` does: B's core is
//! turned into A's frame once per query (kept in fixed arrays when it has at most 8
//! vertices), so every support look-up is a plain dot-product scan over stored vertices with
//! no rotation. The answer, and every recorded step, is turned back to the world at the end.

mod intersects;

pub use intersects::gjk_intersects;

use super::{ShapePair, SupportPoint};
use crate::geom::{cross, MovedSmallCore};
use crate::trace::Tracer;
use glam::Vec2;

/// Relative rounding of an `f32` dot product, a few ulps: progress smaller than this times
/// the pair's size is noise.
const ROUNDING_NOISE: f32 = 4.0 * f32::EPSILON;

/// What a recording reserves before the first step: GJK's iterations on most pairs of small
/// polygons (3 to 5). Longer runs grow the recording as any `Vec` grows. (Why 5 and not
/// more: docs/performance.md, "Notes moved out of the source headers", `query/gjk`.)
const TYPICAL_ITERATIONS: usize = 5;

/// Runs GJK on the pair with the default limits and no recording.
pub fn gjk_distance(pair: &ShapePair) -> GjkOutput {
    gjk(pair, &GjkConfig::default(), &mut ())
}

/// Runs GJK on the pair, recording every iteration into `tracer`.
pub fn gjk<T: Tracer<GjkStep>>(pair: &ShapePair, config: &GjkConfig, tracer: &mut T) -> GjkOutput {
    let local = FrameOfA::new(pair);
    let (scale, mut simplex) = start(&local);
    let mut newest = simplex.vertices[0];
    let touch = super::TOUCH_TOLERANCE * scale;
    let mut iteration = 0;
    let mut previous_distance = f32::INFINITY;
    // The progress test cannot resolve less than the rounding of a dot product of points
    // as far apart as the pair is large.
    let noise = ROUNDING_NOISE * scale;
    // Traced only: the world points the steps show, each rebuilt once (see `WorldPoints`).
    let mut world = WorldPoints::new();
    if T::ENABLED {
        world.start(&local, simplex.vertices[0]);
    }
    // One step an iteration: room for a typical run at once (see `TYPICAL_ITERATIONS`; a
    // recording Vec would otherwise start at 4 and grow).
    tracer.reserve(TYPICAL_ITERATIONS);
    let (status, closest, distance) = loop {
        iteration += 1;
        let candidate = simplex.with_newest(newest);
        let closest = reduce_to_closest_feature(&mut simplex, touch, newest);
        let distance = closest.point.length();
        let ended = if simplex.len == 3 {
            Some(GjkStatus::Enclosed)
        } else if distance <= touch {
            Some(GjkStatus::OriginOnSimplex)
        } else if distance >= previous_distance {
            // Exact GJK gets strictly closer every iteration; not doing so means rounding
            // has taken over (thin shapes next to long ones): the distance is as good as
            // it gets.
            Some(GjkStatus::Converged)
        } else if iteration > config.max_iterations {
            Some(GjkStatus::MaxIterations)
        } else {
            None
        };
        // The loop's points are in A's frame; the recorded ones are turned to the world.
        let mut step = |direction: Option<Vec2>, support: Option<SupportPoint>, status| GjkStep {
            iteration,
            candidate: world.candidate(&candidate, closest.region),
            region: closest.region,
            closest: local.direction_to_work(closest.point),
            distance,
            direction: direction.map(|d| local.direction_to_work(d)),
            support: support.map(|w| world.found(&local, w)),
            status,
            origin_place: (status == Some(GjkStatus::OriginOnSimplex))
                .then(|| origin_place(&local, &simplex, touch)),
            radii: pair.a.radius() + pair.b.radius(),
        };
        if let Some(status) = ended {
            tracer.record(|| step(None, None, Some(status)));
            break (status, closest, distance);
        }
        previous_distance = distance;
        let direction = search_direction(&simplex, closest.point);
        let w = local.support(direction);
        let repeated = simplex.points().iter().any(|p| p.same_sources(&w));
        // Progress along the search direction: how much nearer the origin's side the support
        // plane through w lies than the simplex itself. None means v is the closest point of
        // A - B.
        let status = if repeated {
            Some(GjkStatus::RepeatedSupport)
        } else if no_progress(&simplex, direction, w, config.tolerance * distance + noise) {
            Some(GjkStatus::Converged)
        } else {
            None
        };
        tracer.record(|| step(Some(direction), Some(w), status));
        if let Some(status) = status {
            break (status, closest, distance);
        }
        simplex.push_kept_in_registers();
        newest = w;
    };
    finish(
        &local, &simplex, closest, distance, iteration, status, touch,
    )
}

/// Limits for the GJK loop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkConfig {
    /// The loop stops after this many iterations and reports [`GjkStatus::MaxIterations`].
    pub max_iterations: u32,
    /// Relative progress below which the loop stops: when the new support point improves
    /// the squared distance by less than `tolerance * |v|^2`.
    pub tolerance: f32,
}

impl Default for GjkConfig {
    fn default() -> Self {
        GjkConfig {
            max_iterations: 64,
            tolerance: 1.0e-6,
        }
    }
}

/// How the GJK loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GjkStatus {
    /// The simplex became a triangle holding the origin: the cores overlap.
    Enclosed,
    /// The closest point of the simplex is the origin (within tolerance): the cores touch.
    OriginOnSimplex,
    /// The new support point was no closer along the search direction: distance found.
    Converged,
    /// The new support point was already a simplex vertex: distance found.
    RepeatedSupport,
    /// The iteration cap was reached; the distance is the best found so far.
    MaxIterations,
}

impl GjkStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GjkStatus::Enclosed => "enclosed",
            GjkStatus::OriginOnSimplex => "origin_on_simplex",
            GjkStatus::Converged => "converged",
            GjkStatus::RepeatedSupport => "repeated_support",
            GjkStatus::MaxIterations => "max_iterations",
        }
    }

    /// How the loop ended, in words for people (the window and the command line's text;
    /// JSON keeps [`Self::as_str`]).
    pub fn in_words(self) -> &'static str {
        match self {
            GjkStatus::Enclosed => "stopped: the simplex encloses the origin",
            GjkStatus::OriginOnSimplex => "stopped: the origin is on the simplex",
            GjkStatus::Converged => "stopped: the distance converged",
            GjkStatus::RepeatedSupport => "stopped: the support point repeated",
            GjkStatus::MaxIterations => "stopped: the iteration cap was reached",
        }
    }
}

/// The Voronoi region of the simplex that holds the origin, naming simplex vertices by
/// their position in the simplex (0 oldest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoronoiRegion {
    /// Closest to this vertex: the simplex shrinks to it.
    Vertex(u8),
    /// Closest to the inside of this edge: the simplex shrinks to it.
    Edge(u8, u8),
    /// Inside the triangle.
    Inside,
}

/// Where the origin lies when GJK stops with it on the simplex
/// ([`GjkStatus::OriginOnSimplex`]). A support point is always on the boundary of A - B, but
/// the segment between two of them may cut through its inside: the origin on such a segment
/// means the cores overlap, not that they touch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OriginPlace {
    /// On the boundary of A - B: the cores touch.
    Boundary,
    /// On an edge of the simplex that lies inside A - B: the cores overlap.
    InsideEdge,
}

/// Up to three support points of A - B.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Simplex {
    pub vertices: [SupportPoint; 3],
    pub len: usize,
}

impl Simplex {
    #[inline]
    pub fn points(&self) -> &[SupportPoint] {
        &self.vertices[..self.len]
    }

    fn push(&mut self, w: SupportPoint) {
        self.vertices[self.len] = w;
        self.len += 1;
    }

    /// The GJK loop's push: one more vertex, which the loop keeps in a local (`newest`) and
    /// passes to the next reduction in place of the new slot's contents, so the slot is left
    /// unwritten. Only [`Self::with_newest`] and `reduce_to_closest_feature`, which both take
    /// `newest`, read the simplex before that reduction, and the reduction stores every
    /// vertex it keeps.
    #[inline(always)]
    fn push_kept_in_registers(&mut self) {
        self.len += 1;
    }

    /// The simplex with its newest vertex (last slot) set to `newest`: the loop's simplex as
    /// the steps record it before reduction.
    #[inline(always)]
    fn with_newest(mut self, newest: SupportPoint) -> Simplex {
        match self.len {
            1 => self.vertices[0] = newest,
            2 => self.vertices[1] = newest,
            _ => self.vertices[2] = newest,
        }
        self
    }

    /// The same support points (found in A's frame) in the work frame, each rebuilt from its
    /// vertex indices with [`ShapePair::support`]'s arithmetic.
    fn in_work_frame(self, pair: &ShapePair) -> Simplex {
        let mut out = self;
        for w in &mut out.vertices[..self.len] {
            *w = support_in_work_frame(*w, pair);
        }
        out
    }
}

/// A support point (found in A's frame) in the work frame, rebuilt from its vertex indices
/// with [`ShapePair::support`]'s arithmetic.
#[inline(always)]
fn support_in_work_frame(w: SupportPoint, pair: &ShapePair) -> SupportPoint {
    let on_a = pair.a.vertex(w.index_a as usize);
    let on_b = pair.b.vertex(w.index_b as usize);
    SupportPoint {
        point: on_a - on_b,
        on_a,
        on_b,
        ..w
    }
}

/// One GJK iteration as the window shows it. Points of A - B are frame-free; `on_a` and
/// `on_b` of every support point are world coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct GjkStep {
    pub iteration: u32,
    /// The simplex at the start of the iteration, before reduction.
    pub candidate: Simplex,
    /// Where the origin fell before the reduction. With `candidate` it gives the reduced
    /// simplex ([`GjkStep::simplex`]), which a step therefore does not store twice.
    pub region: VoronoiRegion,
    /// The point of the simplex closest to the origin, in A - B.
    pub closest: Vec2,
    /// Its distance to the origin (the cores' distance bound so far).
    pub distance: f32,
    /// The search direction `-closest`, when the loop went on to search.
    pub direction: Option<Vec2>,
    /// The support point found in that direction.
    pub support: Option<SupportPoint>,
    /// Set on the last step: how the loop ended.
    pub status: Option<GjkStatus>,
    /// Set with [`GjkStatus::OriginOnSimplex`]: whether that puts the origin on the boundary
    /// of A - B or inside it.
    pub origin_place: Option<OriginPlace>,
    /// The sum of the shapes' radii (0 for polygons): GJK measures their cores.
    pub radii: f32,
}

impl GjkStep {
    /// The simplex after reduction to the feature closest to the origin.
    pub fn simplex(&self) -> Simplex {
        reduced(&self.candidate, self.region)
    }
}

/// `candidate` reduced to `region`: the vertices it names, in that order (the vertex; the
/// edge's two ends; the whole triangle), as the loop's reduction keeps them. The slots past
/// the new length keep the candidate's.
fn reduced(candidate: &Simplex, region: VoronoiRegion) -> Simplex {
    let c = &candidate.vertices;
    let (vertices, len) = match region {
        VoronoiRegion::Vertex(i) => ([c[i as usize], c[1], c[2]], 1),
        VoronoiRegion::Edge(i, j) => ([c[i as usize], c[j as usize], c[2]], 2),
        VoronoiRegion::Inside => (*c, 3),
    };
    Simplex { vertices, len }
}

/// What GJK found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkOutput {
    /// The shapes overlap or touch (distance within the touch tolerance).
    pub intersecting: bool,
    /// Distance between the shapes' boundaries (radii included); 0 when intersecting.
    pub distance: f32,
    /// Closest point on A's boundary and on B's (world), when separated.
    pub closest_a: Option<Vec2>,
    pub closest_b: Option<Vec2>,
    /// Distance between the cores (no radii).
    pub core_distance: f32,
    pub iterations: u32,
    pub status: GjkStatus,
    /// The final simplex in body A's local frame, where the loop works; EPA takes it in the
    /// work frame from [`GjkOutput::work_simplex`].
    pub simplex: Simplex,
    /// The unit direction from A's core toward B's at the closest points (zero when the
    /// cores overlap).
    pub core_normal: Vec2,
}

impl GjkOutput {
    /// The final simplex in the work frame (see [`ShapePair`]).
    pub fn work_simplex(&self, pair: &ShapePair) -> Simplex {
        self.simplex.in_work_frame(pair)
    }
}

/// Whether the support point `w` found in `direction` brings the support plane no more than
/// `threshold` nearer the origin than the simplex: the progress test of the loop, along
/// `direction.normalize_or_zero()`.
///
/// When the squared length lies well inside the normal range (see [`PLAIN_SQUARED_LENGTH`]),
/// glam's test (is the reciprocal length finite and positive?) holds for certain, and the unit
/// vector is computed here with glam's arithmetic, the test skipped. Any other length takes
/// the cold path through `normalize_or_zero` itself. Same unit vector, same verdict.
#[inline(always)]
fn no_progress(simplex: &Simplex, direction: Vec2, w: SupportPoint, threshold: f32) -> bool {
    let towards = w.point - simplex.vertices[0].point;
    let length_squared = direction.dot(direction);
    let (low, high) = PLAIN_SQUARED_LENGTH;
    if length_squared >= low && length_squared <= high {
        // `Vec2::length_recip`: the square root of the same dot product, then `recip`.
        let rcp = length_squared.sqrt().recip();
        towards.dot(direction * rcp) <= threshold
    } else {
        no_progress_normalized(towards, direction, threshold)
    }
}

/// Squared lengths between these (`2^-100`, `2^100`) have a square root between `2^-50` and
/// `2^50` and so a finite, positive reciprocal: `normalize_or_zero` divides by the length.
/// The loop's search directions are differences of coordinates of at most about `1e6` (up
/// to about `2^42` squared); only a direction shorter than `2^-50` (the origin a hair from the
/// simplex) leaves the range.
const PLAIN_SQUARED_LENGTH: (f32, f32) = (1.0 / (1u128 << 100) as f32, (1u128 << 100) as f32);

/// [`no_progress`] for any direction, through `normalize_or_zero` (a zero, subnormal,
/// infinite or non-number direction gives zero, and the gain is measured along it).
#[cold]
#[inline(never)]
fn no_progress_normalized(towards: Vec2, direction: Vec2, threshold: f32) -> bool {
    towards.dot(direction.normalize_or_zero()) <= threshold
}

/// Where the origin lies on a simplex that holds it (within `touch`): a single support point
/// is on the boundary of A - B; a segment is on the boundary only if A - B reaches no
/// farther than the segment on one of its sides (the support along that side's normal ends
/// on the segment's line), otherwise the segment runs through the inside of A - B.
fn origin_place(local: &FrameOfA, simplex: &Simplex, touch: f32) -> OriginPlace {
    if simplex.len < 2 {
        return OriginPlace::Boundary;
    }
    let (w0, w1) = (simplex.vertices[0].point, simplex.vertices[1].point);
    let n = (w1 - w0).perp().normalize_or_zero();
    let beyond = |n: Vec2| (local.support(n).point - w0).dot(n);
    if n == Vec2::ZERO || beyond(n).min(beyond(-n)) <= touch {
        OriginPlace::Boundary
    } else {
        OriginPlace::InsideEdge
    }
}

/// The pair's scale (see [`ShapePair::scale`]) and a one-point simplex to start from: the
/// support point of A - B facing away from B's centre as seen from A's (any point would do;
/// this one is usually near the answer). Both start from the same offset between centroids.
#[inline(always)]
fn start(local: &FrameOfA) -> (f32, Simplex) {
    let (scale, start) = local.pair.scale_and_centroid_offset();
    let start = local.direction_from_work(start);
    // A zero offset (concentric shapes) is rare: a branch, not a select (why:
    // docs/performance.md, "Notes moved out of the source headers", `query/gjk`).
    let start = if start.length_squared() > 0.0 {
        start
    } else {
        concentric_start()
    };
    let mut simplex = Simplex::default();
    simplex.push(local.support(-start));
    (scale, simplex)
}

/// The start direction when the centroids coincide: any will do. Out of line and cold, so
/// that the compiler branches to it rather than selecting (see [`start`]).
#[cold]
#[inline(never)]
fn concentric_start() -> Vec2 {
    Vec2::X
}

/// The direction to search for the next support point: toward the origin from the simplex.
/// For a segment this is the segment's normal on the origin's side, computed from the
/// segment itself: `-closest` would do in exact arithmetic, but when the origin is within a
/// hair of the segment the closest point is a tiny difference of large numbers whose
/// direction is noise, and GJK would search the wrong way and stop early.
fn search_direction(simplex: &Simplex, closest: Vec2) -> Vec2 {
    if simplex.len != 2 {
        return -closest;
    }
    let (w0, w1) = (simplex.vertices[0].point, simplex.vertices[1].point);
    let e = w1 - w0;
    // cross(e, -w0) > 0: the origin is to the left of w0 -> w1.
    if cross(e, -w0) > 0.0 {
        Vec2::new(-e.y, e.x)
    } else {
        Vec2::new(e.y, -e.x)
    }
}

/// The output from the loop's last simplex and closest point (in A's frame, turned to the
/// world here): `closest.weights` are the weights of the reduced simplex, except inside a
/// triangle, where they are computed here. Inlined into the loop's caller, the simplex taken
/// by reference (why: docs/performance.md, "Notes moved out of the source headers",
/// `query/gjk`).
#[inline(always)]
fn finish(
    local: &FrameOfA,
    simplex: &Simplex,
    closest: Closest,
    distance: f32,
    iterations: u32,
    status: GjkStatus,
    touch: f32,
) -> GjkOutput {
    let weights = if simplex.len == 3 {
        barycentric_weights(simplex)
    } else {
        closest.weights
    };
    let mut on_a = Vec2::ZERO;
    let mut on_b = Vec2::ZERO;
    for (w, p) in weights.iter().zip(simplex.points()) {
        on_a += *w * p.on_a;
        on_b += *w * p.on_b;
    }
    let core_distance = if status == GjkStatus::Enclosed {
        0.0
    } else {
        distance
    };
    // v = a - b points from B's core to A's, so -v points from A toward B.
    let local_normal = if core_distance > touch {
        -closest.point / core_distance
    } else {
        Vec2::ZERO
    };
    let pair = local.pair;
    let radii = pair.a.radius() + pair.b.radius();
    let distance = (core_distance - radii).max(0.0);
    let intersecting = core_distance - radii <= touch;
    let (closest_a, closest_b) = if intersecting {
        (None, None)
    } else {
        (
            Some(pair.to_world(local.point_to_work(on_a + pair.a.radius() * local_normal))),
            Some(pair.to_world(local.point_to_work(on_b - pair.b.radius() * local_normal))),
        )
    };
    GjkOutput {
        intersecting,
        distance: if intersecting { 0.0 } else { distance },
        closest_a,
        closest_b,
        core_distance,
        iterations,
        status,
        simplex: *simplex,
        core_normal: local.direction_to_work(local_normal),
    }
}

/// The pair seen from body A's local frame: A's core as stored, B's core turned into A's
/// frame once (kept in fixed arrays when it has at most 8 vertices, otherwise each support
/// direction is turned into B's frame and the vertex found turned back). Support points of
/// A - B are then plain scans over stored vertices; every point here is in A's frame.
struct FrameOfA<'p, 'a> {
    pair: &'p ShapePair<'a>,
    /// B's rotation (`(cos, sin)`) and position relative to A.
    rotation: Vec2,
    translation: Vec2,
    /// B's core in A's frame, when small.
    b_moved: Option<MovedSmallCore>,
}

impl<'p, 'a> FrameOfA<'p, 'a> {
    #[inline(always)]
    fn new(pair: &'p ShapePair<'a>) -> Self {
        let rotation = pair.a.local_direction(pair.b.rotation);
        let translation = pair
            .a
            .local_direction(pair.b.translation - pair.a.translation);
        FrameOfA {
            pair,
            rotation,
            translation,
            b_moved: pair.b.shape.small_core_moved(rotation, translation),
        }
    }

    /// The support point of A - B in the A-frame direction `d`, its source points in A's frame.
    #[inline(always)]
    fn support(&self, d: Vec2) -> SupportPoint {
        let a = self.pair.a.shape;
        let (index_a, on_a) = match a.small_support_vertex(d) {
            Some(found) => found,
            None => {
                let i = a.support_index(d);
                (i, a.core()[i])
            }
        };
        let (index_b, on_b) = match &self.b_moved {
            Some(b) => b.support_vertex_opposite(d),
            None => {
                let b = self.pair.b.shape;
                // -d turned into B's frame: rotated by the conjugate of B's rotation.
                let r = self.rotation;
                let d_b = Vec2::new(-(r.x * d.x + r.y * d.y), -(r.x * d.y - r.y * d.x));
                let i = b.support_index(d_b);
                (i, r.rotate(b.core()[i]) + self.translation)
            }
        };
        SupportPoint::from_sources(on_a, on_b, index_a, index_b)
    }

    /// A work-frame direction in A's frame.
    #[inline(always)]
    fn direction_from_work(&self, d: Vec2) -> Vec2 {
        self.pair.a.local_direction(d)
    }

    /// An A-frame direction (or difference of points) in the work frame and the world.
    #[inline(always)]
    fn direction_to_work(&self, d: Vec2) -> Vec2 {
        self.pair.a.rotation.rotate(d)
    }

    /// An A-frame point in the work frame.
    #[inline(always)]
    fn point_to_work(&self, p: Vec2) -> Vec2 {
        self.pair.a.rotation.rotate(p) + self.pair.a.translation
    }

    /// An A-frame support point in the world, as the steps record it: rebuilt from its
    /// vertex indices with [`ShapePair::support`]'s arithmetic.
    fn support_to_world(&self, w: SupportPoint) -> SupportPoint {
        support_in_work_frame(w, self.pair).to_world(self.pair)
    }
}

/// The world versions of the support points a traced run records, kept in step with the
/// loop's simplex. A recorded point is rebuilt from its vertex indices alone
/// ([`FrameOfA::support_to_world`]); each step stores the simplex before reduction (the last
/// step's reduced simplex plus its support point) and the new support point, and shows the
/// simplex after reduction as the vertices its region names ([`GjkStep::simplex`]). So only
/// the new support point is rebuilt, once, and the candidate is picked from points already
/// rebuilt: no search by vertex indices (which cost about a third of a recorded step).
struct WorldPoints {
    /// The reduced simplex of the last step, in the world.
    reduced: Simplex,
    /// The newest support point (the next candidate's last vertex), in the world.
    newest: SupportPoint,
}

impl WorldPoints {
    /// Empty. (An untraced run never calls the methods below, and the compiler drops the
    /// arrays with them.)
    #[inline(always)]
    fn new() -> Self {
        WorldPoints {
            reduced: Simplex::default(),
            newest: SupportPoint::default(),
        }
    }

    /// The loop's first point `w` (in A's frame): the first candidate is it alone.
    fn start(&mut self, local: &FrameOfA, w: SupportPoint) {
        self.newest = local.support_to_world(w);
    }

    /// The step's candidate (in A's frame, as the loop holds it) with its points in the
    /// world: the last reduced simplex's points, then the newest support point. The slots
    /// past `len` keep what the loop's copy holds. Notes the candidate reduced to `region`
    /// for the next step.
    fn candidate(&mut self, candidate: &Simplex, region: VoronoiRegion) -> Simplex {
        let mut out = *candidate;
        let len = candidate.len;
        out.vertices[..len - 1].copy_from_slice(&self.reduced.vertices[..len - 1]);
        out.vertices[len - 1] = self.newest;
        self.reduced = reduced(&out, region);
        out
    }

    /// The support point `w` (in A's frame) just found, in the world: the next candidate's
    /// newest point.
    fn found(&mut self, local: &FrameOfA, w: SupportPoint) -> SupportPoint {
        self.newest = local.support_to_world(w);
        self.newest
    }
}

/// The point of a reduced simplex closest to the origin, with the region it was found in
/// and its barycentric weights over the reduced simplex's vertices (unused when the origin
/// is inside the triangle: the closest point is the origin itself).
#[derive(Clone, Copy, Debug)]
struct Closest {
    region: VoronoiRegion,
    point: Vec2,
    weights: [f32; 3],
}

/// Finds the point of the simplex closest to the origin, reduces the simplex to the vertices
/// of the feature holding it, and says which Voronoi region the origin was in.
///
/// Tie rule: an origin inside the triangle but within `touch` of an edge's line is on that
/// edge (its region, the origin its own closest point), as an origin just outside it is:
/// which side of the line rounding puts it on must not decide between "enclosed" and "on
/// the simplex" (the steps would then depend on the frame the points are computed in).
///
/// The region tests already hold, for each edge `wi wj`, the origin's barycentric
/// coordinates `u = wj . (wj - wi)` and `v = -wi . (wj - wi)` (scaled by the edge's squared
/// length), so the closest point on the kept edge is `(u wi + v wj) / (u + v)` without
/// computing them again.
#[inline(always)]
fn reduce_to_closest_feature(simplex: &mut Simplex, touch: f32, newest: SupportPoint) -> Closest {
    // The newest vertex comes from the caller; its slot is not stored (see
    // `Simplex::push_kept_in_registers`).
    let v = simplex.with_newest(newest).vertices;
    let vertex = |simplex: &mut Simplex, i: usize| {
        simplex.vertices[0] = v[i];
        simplex.len = 1;
        Closest {
            region: VoronoiRegion::Vertex(i as u8),
            // (The sum with zero, as a weighted sum would give, turns a -0 into +0.)
            point: Vec2::ZERO + v[i].point,
            weights: [1.0, 0.0, 0.0],
        }
    };
    let edge = |simplex: &mut Simplex, i: usize, j: usize, u: f32, w: f32| {
        simplex.vertices[0] = v[i];
        simplex.vertices[1] = v[j];
        simplex.len = 2;
        let sum = u + w;
        let weights = [u / sum, w / sum, 0.0];
        Closest {
            region: VoronoiRegion::Edge(i as u8, j as u8),
            point: Vec2::ZERO + weights[0] * v[i].point + weights[1] * v[j].point,
            weights,
        }
    };
    match simplex.len {
        1 => vertex(simplex, 0),
        2 => {
            let (w0, w1) = (v[0].point, v[1].point);
            let e = w1 - w0;
            // u = weight of w0, v = weight of w1, both scaled by |e|^2.
            let (u, w) = (w1.dot(e), -w0.dot(e));
            if w <= 0.0 {
                vertex(simplex, 0)
            } else if u <= 0.0 {
                vertex(simplex, 1)
            } else {
                edge(simplex, 0, 1, u, w)
            }
        }
        _ => {
            let (w0, w1, w2) = (v[0].point, v[1].point, v[2].point);
            let e01 = w1 - w0;
            let (u01, v01) = (w1.dot(e01), -w0.dot(e01));
            let e02 = w2 - w0;
            let (u02, v02) = (w2.dot(e02), -w0.dot(e02));
            let e12 = w2 - w1;
            let (u12, v12) = (w2.dot(e12), -w1.dot(e12));
            // Signed areas of the sub-triangles opposite each vertex, times the triangle's
            // area, so that a positive value means the origin is on the inner side of that
            // edge.
            let area = cross(e01, e02);
            let inner_12 = area * cross(w1, w2);
            let inner_20 = area * cross(w2, w0);
            let inner_01 = area * cross(w0, w1);
            // Vertex regions first, then edge regions (inside the edge's slab and on its
            // outer side).
            if v01 <= 0.0 && v02 <= 0.0 {
                vertex(simplex, 0)
            } else if u01 > 0.0 && v01 > 0.0 && inner_01 <= 0.0 {
                edge(simplex, 0, 1, u01, v01)
            } else if u02 > 0.0 && v02 > 0.0 && inner_20 <= 0.0 {
                edge(simplex, 0, 2, u02, v02)
            } else if u01 <= 0.0 && v12 <= 0.0 {
                vertex(simplex, 1)
            } else if u02 <= 0.0 && u12 <= 0.0 {
                vertex(simplex, 2)
            } else if u12 > 0.0 && v12 > 0.0 && inner_12 <= 0.0 {
                edge(simplex, 1, 2, u12, v12)
            } else {
                // Inside, but within `touch` of edge i-j (the tie rule above): the origin is
                // on that edge, and is its own closest point. (|cross(wi, wj)| / |wj - wi|
                // is the origin's distance to the edge's line.)
                let on_edge = |u: f32, w: f32, c: f32, e: Vec2| {
                    u > 0.0 && w > 0.0 && c * c <= touch * touch * e.length_squared()
                };
                let on = |simplex: &mut Simplex, i, j, u, w| Closest {
                    point: Vec2::ZERO,
                    ..edge(simplex, i, j, u, w)
                };
                if on_edge(u01, v01, cross(w0, w1), e01) {
                    return on(simplex, 0, 1, u01, v01);
                } else if on_edge(u02, v02, cross(w2, w0), e02) {
                    return on(simplex, 0, 2, u02, v02);
                } else if on_edge(u12, v12, cross(w1, w2), e12) {
                    return on(simplex, 1, 2, u12, v12);
                }
                // Inside the triangle the closest point is the origin itself: no weights
                // needed (their three divisions are the costliest part of an enclosing
                // iteration). The triangle is kept whole: its newest vertex is stored here.
                simplex.vertices[2] = v[2];
                Closest {
                    region: VoronoiRegion::Inside,
                    point: Vec2::ZERO,
                    weights: [0.0; 3],
                }
            }
        }
    }
}

/// Barycentric weights, over the simplex's vertices, of the origin's projection onto the
/// simplex's feature (the simplex must already be reduced to that feature).
fn barycentric_weights(simplex: &Simplex) -> [f32; 3] {
    let p = &simplex.vertices;
    match simplex.len {
        1 => [1.0, 0.0, 0.0],
        2 => {
            let e = p[1].point - p[0].point;
            let (u, v) = (p[1].point.dot(e), -p[0].point.dot(e));
            let sum = u + v;
            if sum <= 0.0 {
                [1.0, 0.0, 0.0]
            } else {
                [u / sum, v / sum, 0.0]
            }
        }
        _ => {
            let (w0, w1, w2) = (p[0].point, p[1].point, p[2].point);
            let a0 = cross(w1, w2);
            let a1 = cross(w2, w0);
            let a2 = cross(w0, w1);
            let sum = a0 + a1 + a2;
            if sum == 0.0 {
                [1.0, 0.0, 0.0]
            } else {
                [a0 / sum, a1 / sum, a2 / sum]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Shape;
    use crate::query::testing::*;

    fn run(
        a: &Shape,
        pa: crate::geom::Pose,
        b: &Shape,
        pb: crate::geom::Pose,
    ) -> (GjkOutput, Vec<GjkStep>) {
        let pair = ShapePair::new(a, pa, b, pb);
        let mut steps = Vec::new();
        let out = gjk(&pair, &GjkConfig::default(), &mut steps);
        (out, steps)
    }

    #[test]
    fn traced_and_untraced_gjk_agree_bit_for_bit() {
        // Recording the steps must not change the answer: random poses of boxes, 3- to
        // 8-gons (4-wide and 8-wide support look-ups), a 12-gon and round shapes.
        let mut random = crate::query::sat::tests::Random(7);
        let shapes = random.shapes();
        let config = GjkConfig::default();
        for k in 0..4000 {
            let a = &shapes[k % shapes.len()];
            let b = &shapes[(k * 5 + 1) % shapes.len()];
            let (pa, pb) = random.pose_near(k);
            let pair = ShapePair::new(a, pa, b, pb);
            let mut steps = Vec::new();
            let traced = gjk(&pair, &config, &mut steps);
            assert_eq!(gjk(&pair, &config, &mut ()), traced, "case {k}");
            assert_eq!(steps.len() as u32, traced.iterations, "case {k}");
        }
    }

    #[test]
    fn every_recorded_point_is_its_vertex_pair_rebuilt_in_the_world() {
        // The steps' world points are picked from points already rebuilt (`WorldPoints`);
        // each must be exactly the rebuild from its vertex indices, as when every point was
        // rebuilt (or looked up by its indices) on its own. Random poses, and poses on a grid
        // of quarter turns (ties, faces touching), of boxes, 3- to 8-gons, a 12-gon and round
        // shapes.
        let mut random = crate::query::sat::tests::Random(11);
        let shapes = random.shapes();
        let config = GjkConfig::default();
        let rebuilt = |pair: &ShapePair, w: &SupportPoint| {
            // The difference is taken in the work frame, the sources moved to the world.
            let on_a = pair.a.vertex(w.index_a as usize);
            let on_b = pair.b.vertex(w.index_b as usize);
            (on_a - on_b, pair.to_world(on_a), pair.to_world(on_b))
        };
        let mut checked = 0;
        for k in 0..6000 {
            let a = &shapes[k % shapes.len()];
            let b = &shapes[(k * 5 + 1) % shapes.len()];
            let (pa, pb) = if k % 3 == 0 {
                // Quarter turns (plus 1e-6 on every other one) and whole-number offsets.
                let quarter = |q: usize| q as f32 * std::f32::consts::FRAC_PI_2;
                let tilt = if k % 2 == 0 { 0.0 } else { 1.0e-6 };
                let offset = Vec2::new((k % 5) as f32 - 2.0, (k % 7) as f32 - 3.0);
                (
                    crate::geom::Pose::new(Vec2::ZERO, quarter(k % 4)),
                    crate::geom::Pose::new(offset, quarter(k / 4 % 4) + tilt),
                )
            } else {
                random.pose_near(k)
            };
            let pair = ShapePair::new(a, pa, b, pb);
            let mut steps = Vec::new();
            gjk(&pair, &config, &mut steps);
            for step in &steps {
                let simplex = step.simplex();
                let points = step
                    .candidate
                    .points()
                    .iter()
                    .chain(simplex.points())
                    .chain(step.support.iter());
                for w in points {
                    let (point, on_a, on_b) = rebuilt(&pair, w);
                    assert_eq!(
                        w.on_a.to_array().map(f32::to_bits),
                        on_a.to_array().map(f32::to_bits),
                        "case {k}"
                    );
                    assert_eq!(
                        w.on_b.to_array().map(f32::to_bits),
                        on_b.to_array().map(f32::to_bits),
                        "case {k}"
                    );
                    assert_eq!(
                        w.point.to_array().map(f32::to_bits),
                        point.to_array().map(f32::to_bits),
                        "case {k}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 50_000, "{checked}");
    }

    #[test]
    fn the_progress_test_agrees_with_normalize_or_zero_at_every_scale() {
        // `no_progress` skips glam's finiteness test for squared lengths inside
        // `PLAIN_SQUARED_LENGTH` and goes through `normalize_or_zero` outside it. Its verdict
        // must be the reference's on both sides of each end of the range, at zero, subnormal,
        // huge, infinite and non-number directions, along the axes and diagonals, with the
        // gain exactly zero (w beside v0 across the direction) or exactly at the threshold,
        // and at random.
        let reference = |towards: Vec2, direction: Vec2, threshold: f32| {
            towards.dot(direction.normalize_or_zero()) <= threshold
        };
        let (low, high) = PLAIN_SQUARED_LENGTH;
        let mut lengths = vec![
            0.0,
            -0.0,
            1e-45,
            1e-40,
            f32::MIN_POSITIVE,
            1e-30,
            1e-20,
            1e-6,
            1.0,
            3.0,
            1e6,
            1e20,
            1e30,
            f32::MAX,
            f32::INFINITY,
            f32::NAN,
        ];
        for end in [low, high] {
            // Lengths whose squares land just below, on and just above the end.
            let root = end.sqrt();
            for step in 0..6u32 {
                lengths.push(f32::from_bits(root.to_bits() - 3 + step));
            }
        }
        let mut random = crate::query::sat::tests::Random(11);
        let point = |p: Vec2| SupportPoint {
            point: p,
            ..SupportPoint::default()
        };
        let (mut checked, mut plain, mut other) = (0, 0, 0);
        for &length in &lengths {
            for k in 0..48 {
                let turn = if k < 8 {
                    k as f32 * std::f32::consts::FRAC_PI_4
                } else {
                    random.range(0.0, std::f32::consts::TAU)
                };
                let unit = Vec2::from_angle(turn);
                for direction in [
                    unit * length,
                    Vec2::new(length, 0.0),
                    Vec2::new(0.0, -length),
                ] {
                    let v0 = Vec2::new(random.range(-5.0, 5.0), random.range(-5.0, 5.0));
                    let across = Vec2::new(-direction.y, direction.x) * 1e-3;
                    let along = Vec2::new(random.range(-2.0, 2.0), random.range(-2.0, 2.0));
                    for towards in [along, across, Vec2::ZERO, -along] {
                        let mut simplex = Simplex::default();
                        simplex.push(point(v0));
                        let w = point(v0 + towards);
                        let towards = w.point - v0;
                        let exact = towards.dot(direction.normalize_or_zero());
                        for threshold in [0.0, -0.0, 1e-3, -1e-3, exact, f32::NAN] {
                            assert_eq!(
                                no_progress(&simplex, direction, w, threshold),
                                reference(towards, direction, threshold),
                                "{direction} {towards} {threshold}"
                            );
                            checked += 1;
                        }
                    }
                    let squared = direction.dot(direction);
                    if squared >= low && squared <= high {
                        plain += 1;
                    } else {
                        other += 1;
                    }
                }
            }
        }
        assert!(
            checked > 50_000 && plain > 1_000 && other > 1_000,
            "{checked} {plain} {other}"
        );
    }

    #[test]
    fn concentric_shapes_start_along_x() {
        // Equal centroids: no offset to start from, so the start direction is +x in A's
        // frame (the cold branch of `start`); the first support point is the farthest of
        // A - B along -x there. (A polygon's centroid is computed and rarely exactly 0:
        // only pairs whose offset is exactly zero are checked.)
        let shapes = [
            Shape::circle(0.6).unwrap(),
            Shape::capsule(0.9, 0.25).unwrap(),
            Shape::capsule(0.7, 0.0).unwrap(),
            square(1.0),
            Shape::regular(7, 0.8).unwrap(),
        ];
        let mut checked = 0;
        for a in &shapes {
            for b in &shapes {
                let (pa, pb) = (at_deg(2.0, -1.0, 30.0), at_deg(2.0, -1.0, -50.0));
                let pair = ShapePair::new(a, pa, b, pb);
                if pair.scale_and_centroid_offset().1 != Vec2::ZERO {
                    continue;
                }
                let (out, steps) = run(a, pa, b, pb);
                assert!(out.intersecting);
                assert_eq!(gjk(&pair, &GjkConfig::default(), &mut ()), out);
                let first = steps[0].candidate.vertices[0];
                let expected = FrameOfA::new(&pair).support(-Vec2::X);
                assert_eq!(
                    (first.index_a, first.index_b),
                    (expected.index_a, expected.index_b)
                );
                checked += 1;
            }
        }
        assert!(checked >= 9, "{checked}");
    }

    #[test]
    fn separated_boxes_face_to_face() {
        // Unit squares 3 apart centre to centre: faces at x = 1 and x = 2.
        let s = square(1.0);
        let (out, _) = run(&s, at(0.0, 0.0), &s, at(3.0, 0.5));
        assert!(!out.intersecting);
        assert!(close(out.distance, 1.0, 1e-6), "{}", out.distance);
        let (ca, cb) = (out.closest_a.unwrap(), out.closest_b.unwrap());
        assert!(close(ca.x, 1.0, 1e-6) && close(cb.x, 2.0, 1e-6));
        assert!(close(ca.y, cb.y, 1e-6));
    }

    #[test]
    fn vertex_region_distance_is_corner_to_corner() {
        // B's corner (2,2) - (1,1) = (1,1) from A's corner: distance sqrt 2.
        let s = square(1.0);
        let (out, _) = run(&s, at(0.0, 0.0), &s, at(3.0, 3.0));
        assert!(close(out.distance, 2f32.sqrt(), 1e-6));
        assert!(close_v(out.closest_a.unwrap(), v(1.0, 1.0), 1e-6));
        assert!(close_v(out.closest_b.unwrap(), v(2.0, 2.0), 1e-6));
    }

    #[test]
    fn overlapping_boxes_enclose_the_origin() {
        let s = square(1.0);
        let (out, steps) = run(&s, at(0.0, 0.0), &s, at(1.5, 0.3));
        assert!(out.intersecting);
        assert_eq!(out.status, GjkStatus::Enclosed);
        assert_eq!(out.distance, 0.0);
        assert_eq!(steps.last().unwrap().region, VoronoiRegion::Inside);
        assert_eq!(steps.len() as u32, out.iterations);
    }

    #[test]
    fn touching_edges_are_intersecting_at_distance_zero() {
        let s = square(1.0);
        let (out, _) = run(&s, at(0.0, 0.0), &s, at(2.0, 0.5));
        assert!(out.intersecting);
        assert_eq!(out.distance, 0.0);
    }

    #[test]
    fn circles_use_their_radii() {
        let c = Shape::circle(0.5).unwrap();
        let (out, _) = run(&c, at(0.0, 0.0), &c, at(3.0, 4.0));
        assert!(close(out.distance, 4.0, 1e-5));
        assert!(close_v(out.closest_a.unwrap(), v(0.3, 0.4), 1e-6));
        assert!(close_v(out.closest_b.unwrap(), v(2.7, 3.6), 1e-6));
        let (near, _) = run(&c, at(0.0, 0.0), &c, at(0.6, 0.8));
        assert!(near.intersecting, "cores 1 apart, radii 1");
    }

    #[test]
    fn capsule_above_box_measures_from_the_rounded_side() {
        let cap = Shape::capsule(2.0, 0.25).unwrap();
        let s = square(1.0);
        let (out, _) = run(&s, at(0.0, 0.0), &cap, at(0.0, 2.0));
        assert!(close(out.distance, 0.75, 1e-6));
    }

    #[test]
    fn far_from_the_world_origin_keeps_precision() {
        let s = square(1.0);
        // Near 1e5 an f32 steps by 1/128; the gap is one such step, and must come out exact.
        let (out, _) = run(
            &s,
            at(1.0e5, 1.0e5),
            &s,
            at(1.0e5 + 2.0 + 1.0 / 128.0, 1.0e5),
        );
        assert!(close(out.distance, 1.0 / 128.0, 1e-6), "{}", out.distance);
    }

    #[test]
    fn every_step_explains_itself() {
        let s = square(1.0);
        let (_, steps) = run(&s, at(0.0, 0.0), &s, at(3.0, 3.0));
        assert!(steps.len() >= 2);
        for step in &steps {
            assert!(step.explain().starts_with("Iteration"));
        }
        assert!(steps.last().unwrap().status.is_some());
    }

    #[test]
    fn iteration_cap_is_reported() {
        let a = Shape::regular(1000, 1.0).unwrap();
        let pair = ShapePair::new(&a, at(0.0, 0.0), &a, at(2.5, 0.1));
        let cfg = GjkConfig {
            max_iterations: 1,
            ..GjkConfig::default()
        };
        let out = gjk(&pair, &cfg, &mut ());
        assert_eq!(out.status, GjkStatus::MaxIterations);
        assert!(out.iterations <= 2);
    }

    #[test]
    fn overlap_of_a_thousandth_is_found_when_the_origin_hugs_a_simplex_edge() {
        // Found by the property tests: B moved out along EPA's normal to 0.001 deep. The
        // closest point on the simplex edge was (1.2e-4, 2.2e-4), whose direction is noise;
        // searching along it found a repeated vertex and reported a gap of 2.5e-4.
        let a = Shape::polygon(vec![
            v(1.5326324, 1.0727627),
            v(-1.5601604, 1.0498419),
            v(0.53568375, -1.5261514),
        ])
        .unwrap();
        let b = Shape::rect(v(0.24553852, 0.7831188)).unwrap();
        let pa = crate::geom::Pose::new(v(0.17978807, -0.096785545), 2.6343293);
        let pb = crate::geom::Pose::new(v(0.0768454, -0.61630785), 4.2140374);
        let deep = ShapePair::new(&a, pa, &b, pb);
        let e = crate::query::epa::epa_penetration(&deep, &gjk_distance(&deep)).unwrap();
        let nearly_out =
            crate::geom::Pose::new(pb.position + (e.depth - 1e-3) * e.normal, pb.angle);
        let (out, _) = run(&a, pa, &b, nearly_out);
        assert!(out.intersecting, "{out:?}");
    }
}
