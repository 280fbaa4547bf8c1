//! SAT: the separating axis test, with projection intervals on every candidate axis.
//!
//! Algorithm (Gottschalk 1996 and Ericson, *Real-Time Collision Detection*, 4.4 and 5.2.1):
//!
//! ```text
//! for each candidate axis u (a unit vector):
//!     project both shapes: [minA, maxA] and [minB, maxB] on u
//!     overlap(u) = min(maxA - minB, maxB - minA)      negative: a gap along u
//! the shapes overlap iff overlap(u) >= 0 on every candidate axis
//! best axis = the one with the smallest overlap; depth (or separation) = |overlap|,
//! normal = u if B lies on the + side of A along u (maxA - minB is the smaller term), else -u
//! ```
//!
//! Candidate axes: the outward edge normals of both cores (a segment core has two, a point
//! core none). When either shape is round, also the *vertex axes*: from each core vertex of
//! one shape to the closest point of the other core. For two polygons the edge normals
//! suffice for the overlap test and give the exact penetration depth; the separation they
//! give is a lower bound on the distance (exact when a face is the closest feature). With
//! the vertex axes, round shapes get exact depths and separations too.
//!
//! Projections on an edge normal use rotating calipers: as the edge normals of a convex
//! polygon turn counter-clockwise, the extreme vertices in those directions move forward
//! round the outline, so each is found by stepping from the previous one and the whole test
//! costs O(n + m), not O(n * m). On its own edge normal a polygon's interval needs no search:
//! the edge is the high end, and the low end lies a fixed distance behind it (the shape's
//! back extent for that edge, computed once when the shape is built).
//!
//! Two plain polygons of at most 16 vertices (the common case) take every edge axis of one
//! body at once, one vector lane per edge, and project every vertex of the other on all of
//! them: the same numbers as the axis-by-axis pass, and, untraced, the best axis picked by
//! lane masks rather than one compare per axis. For so few vertices the straight pass costs
//! less than the calipers' data-dependent steps (a 16-gon's manifold ran 7,255 instructions
//! by calipers, 3,755 this way). Shapes of up to 16 vertices keep their vertices, normals
//! and back extents in such lanes, built with the shape
//! (`geom::CoreLanes`), so a query loads them whole. Untraced on x86_64, that pass runs
//! written out in SSE registers (`sat/sse.rs`: the same arithmetic, operand for operand;
//! the compiled generic pass moved its lanes through memory and spilled its 8 by 8 blocks).

mod calipers;
#[cfg(target_arch = "x86_64")]
mod sse;

use super::{Body, Interval, ShapePair};
use crate::geom::{cross, LanesOfWidth, Placed, ShapeLanes};
use crate::trace::Tracer;
use glam::Vec2;

/// Where a candidate axis came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AxisSource {
    /// The outward normal of core edge `index` of `body`.
    Edge { body: Body, index: u32 },
    /// From core vertex `index` of `body` toward the closest point of the other core.
    Vertex { body: Body, index: u32 },
    /// The +x axis, tested when no other axis exists (two circles with the same centre).
    Fallback,
}

impl AxisSource {
    pub fn body(&self) -> Option<Body> {
        match self {
            AxisSource::Edge { body, .. } | AxisSource::Vertex { body, .. } => Some(*body),
            AxisSource::Fallback => None,
        }
    }

    pub fn index(&self) -> u32 {
        match self {
            AxisSource::Edge { index, .. } | AxisSource::Vertex { index, .. } => *index,
            AxisSource::Fallback => 0,
        }
    }

    pub fn kind_str(&self) -> &'static str {
        match self {
            AxisSource::Edge { .. } => "edge",
            AxisSource::Vertex { .. } => "vertex",
            AxisSource::Fallback => "fallback",
        }
    }
}

/// One tested axis, with both projection intervals in world coordinates (projections of
/// world points onto `axis`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatAxis {
    pub source: AxisSource,
    /// Unit direction of the axis.
    pub axis: Vec2,
    pub interval_a: Interval,
    pub interval_b: Interval,
    /// `min(maxA - minB, maxB - minA)`: positive is an overlap, negative a gap.
    pub overlap: f32,
    /// In a recorded step: the best axis among those tested so far, this one included (in
    /// an unrecorded axis, its own source).
    pub best_so_far: AxisSource,
    /// In a recorded step: the best axis so far that this one ties with (the same overlap
    /// within the touch tolerance), which SAT keeps as the earlier of the two.
    pub ties_with: Option<AxisSource>,
}

impl SatAxis {
    /// Which way B has to move along this axis to get out the short way: `axis` or `-axis`,
    /// pointing from A toward B.
    pub fn normal(&self) -> Vec2 {
        let b_above = self.interval_a.max - self.interval_b.min;
        let b_below = self.interval_b.max - self.interval_a.min;
        if b_above <= b_below {
            self.axis
        } else {
            -self.axis
        }
    }

    pub fn separates(&self) -> bool {
        self.overlap < 0.0
    }

    /// Whether the edge this axis came from faces the other body: A's edge normal points
    /// toward B, or B's toward A. Opposite edges of a box give the same axis line and the
    /// same overlap; the one facing the contact is the one to show.
    pub fn faces_contact(&self) -> bool {
        match self.source {
            AxisSource::Edge { body: Body::A, .. } => self.normal().dot(self.axis) > 0.0,
            AxisSource::Edge { body: Body::B, .. } => self.normal().dot(self.axis) < 0.0,
            _ => true,
        }
    }
}

/// What SAT found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatOutput {
    /// No axis shows a gap larger than the touch tolerance.
    pub intersecting: bool,
    /// When intersecting: the smallest overlap, >= 0.
    pub depth: Option<f32>,
    /// When separated: the largest gap found on any axis.
    pub separation: Option<f32>,
    /// Unit normal of the best axis, from A toward B.
    pub normal: Vec2,
    /// The best axis: smallest overlap, or largest gap.
    pub axis: AxisSource,
    pub best: SatAxis,
    pub axes_tested: u32,
}

/// Runs SAT without recording.
pub fn sat_test(pair: &ShapePair) -> SatOutput {
    sat(pair, &mut ())
}

/// Runs SAT, recording every axis tested, including those after the first separating one.
pub fn sat<T: Tracer<SatAxis>>(pair: &ShapePair, tracer: &mut T) -> SatOutput {
    if pair.edge_normals_suffice() {
        if pair.a.vertex_count() <= SMALL_CORE && pair.b.vertex_count() <= SMALL_CORE {
            // Untraced: the small-polygon pass written out in SSE registers (same bits:
            // guard test `sse_pass_matches_the_small_polygon_pass_bit_for_bit`).
            #[cfg(target_arch = "x86_64")]
            if !T::ENABLED && sse::applies(pair) {
                return sse::sat_small(pair);
            }
            return small_polygons(pair, tracer);
        }
        // Untraced, a plain pair with a large polygon: the calipers pass that builds only
        // the axes that may win (same bits: guard test
        // `large_lean_pass_matches_the_general_path_bit_for_bit`).
        if !T::ENABLED {
            return calipers::sat_large(pair);
        }
    }
    general(pair, tracer)
}

/// [`sat`] for any pair: every axis goes through [`BestAxis`].
fn general<T: Tracer<SatAxis>>(pair: &ShapePair, tracer: &mut T) -> SatOutput {
    let mut search = BestAxis {
        pair,
        tracer,
        best: None,
        tested: 0,
    };
    edge_axes(&pair.a, &pair.b, Body::A, &mut |axis| search.consider(axis));
    edge_axes(&pair.b, &pair.a, Body::B, &mut |axis| search.consider(axis));
    if !pair.edge_normals_suffice() {
        vertex_axes(&pair.a, &pair.b, Body::A, &mut |axis| search.consider(axis));
        vertex_axes(&pair.b, &pair.a, Body::B, &mut |axis| search.consider(axis));
    }
    let best = match search.best {
        Some(best) => best,
        None => {
            let fallback = project(pair, Vec2::X, AxisSource::Fallback);
            search.consider(fallback);
            fallback
        }
    };
    finish(pair, best, search.tested)
}

/// The output for the best axis (in the work frame) after `tested` axes.
#[inline]
fn finish(pair: &ShapePair, best: SatAxis, tested: u32) -> SatOutput {
    finish_inline(pair, best, tested)
}

/// [`finish`], always inlined (the pass written out in SSE builds its output in place).
#[inline(always)]
fn finish_inline(pair: &ShapePair, best: SatAxis, tested: u32) -> SatOutput {
    let best = to_world(pair, best);
    // The tolerance (a square root) is needed only when the best overlap is a gap: any
    // overlap >= 0 is within it.
    let intersecting = best.overlap >= 0.0 || best.overlap >= -pair.touch_tolerance();
    SatOutput {
        intersecting,
        depth: intersecting.then_some(best.overlap.max(0.0)),
        separation: (!intersecting).then_some(-best.overlap),
        normal: best.normal(),
        axis: best.source,
        best,
        axes_tested: tested,
    }
}

/// [`sat`] for two plain polygons (no radius) of at most [`SMALL_CORE`] vertices: the same
/// axes in the same order, each projection the same arithmetic as in [`edge_axes_small`],
/// the same choice of the best axis. Both cores are placed in the work frame once, in fixed
/// arrays; the loop keeps only what the choice needs (overlap, whether the axis faces the
/// contact, where it came from), and the best axis's intervals are projected again at the
/// end. A trace gets every axis whole, built only when recording.
fn small_polygons<T: Tracer<SatAxis>>(pair: &ShapePair, tracer: &mut T) -> SatOutput {
    use Width::*;
    match (Width::of(&pair.a), Width::of(&pair.b)) {
        (Four, Four) => small_polygons_fixed::<4, 4, T>(pair, tracer),
        (Four, Eight) => small_polygons_fixed::<4, 8, T>(pair, tracer),
        (Eight, Four) => small_polygons_fixed::<8, 4, T>(pair, tracer),
        (Eight, Eight) => small_polygons_fixed::<8, 8, T>(pair, tracer),
        (Four, Sixteen) => small_polygons_fixed::<4, 16, T>(pair, tracer),
        (Eight, Sixteen) => small_polygons_fixed::<8, 16, T>(pair, tracer),
        (Sixteen, Four) => small_polygons_fixed::<16, 4, T>(pair, tracer),
        (Sixteen, Eight) => small_polygons_fixed::<16, 8, T>(pair, tracer),
        (Sixteen, Sixteen) => small_polygons_fixed::<16, 16, T>(pair, tracer),
    }
}

/// The width of the fixed arrays a small core is projected in: 4 lanes up to 4 vertices
/// (boxes, quads), 8 up to 8, 16 up to [`SMALL_CORE`]; no padding is projected that a
/// smaller core does not need.
#[derive(Clone, Copy)]
enum Width {
    Four,
    Eight,
    Sixteen,
}

impl Width {
    #[inline(always)]
    fn of(core: &Placed) -> Width {
        match core.vertex_count() {
            0..=4 => Width::Four,
            5..=8 => Width::Eight,
            _ => Width::Sixteen,
        }
    }
}

/// The best axis so far, as [`BestAxis`] compares axes: the smaller overlap, and on an
/// equal overlap the axis that faces the contact over one that does not. Before the first
/// axis it holds an infinite overlap, which every axis beats (projections are finite).
#[derive(Clone, Copy)]
struct Leader {
    body: Body,
    index: usize,
    overlap: f32,
    faces_contact: bool,
}

#[inline(always)]
fn small_polygons_fixed<const NA: usize, const NB: usize, T: Tracer<SatAxis>>(
    pair: &ShapePair,
    tracer: &mut T,
) -> SatOutput
where
    ShapeLanes: LanesOfWidth<NA> + LanesOfWidth<NB>,
{
    let core_a = SmallCore::<NA>::new(&pair.a);
    let core_b = SmallCore::<NB>::new(&pair.b);
    let lanes_a = EdgeLanes::new(&pair.a, &core_a, &pair.b, &core_b, Body::A);
    let lanes_b = EdgeLanes::new(&pair.b, &core_b, &pair.a, &core_a, Body::B);
    let (leader, tested) = if T::ENABLED {
        let mut leader = Leader {
            body: Body::A,
            index: 0,
            overlap: f32::INFINITY,
            faces_contact: true,
        };
        let mut tested = 0;
        // Display-only, recorded with each axis: the pair's touch tolerance (a square root)
        // once, not per axis, and room for every axis at once.
        let touch = pair.touch_tolerance();
        tracer.reserve((lanes_a.axis_count + lanes_b.axis_count) as usize);
        lanes_a.choose(pair, touch, &mut leader, &mut tested, tracer);
        lanes_b.choose(pair, touch, &mut leader, &mut tested, tracer);
        (leader, tested)
    } else {
        least_overlap(&lanes_a.choice(), &lanes_b.choice())
    };
    if tested == 0 {
        // No edge of either polygon has a length: the general path's fallback axis.
        let fallback = project(pair, Vec2::X, AxisSource::Fallback);
        tracer.record(|| to_world(pair, fallback));
        return finish(pair, fallback, 1);
    }
    let best = match leader.body {
        Body::A => lanes_a.axis(leader.index),
        Body::B => lanes_b.axis(leader.index),
    };
    finish(pair, best, tested)
}

/// Every edge axis of one body of a small pair at once, one lane per edge (`N` lanes, the
/// lanes past the edge count unused): its work-frame normal, both intervals and their
/// overlap. Each number is the arithmetic of [`edge_axes`] on that axis (the normal turned
/// as [`Placed::normal`] turns it, the own interval from the edge and its back extent, the
/// other core's interval by the halving of [`SmallCore::extent`], widening by the radii);
/// laid out by edge, the projections of one vertex on every axis are one vector operation.
struct EdgeLanes<'s, const N: usize> {
    body: Body,
    /// The body's edge normals in its own frame (a zero one: a repeated vertex, no axis).
    local_normals: &'s [Vec2],
    /// Bit `k` set when lane `k` is an edge with a length: an axis.
    axes: u32,
    /// How many lanes are axes.
    axis_count: u32,
    normal_x: [f32; N],
    normal_y: [f32; N],
    a_min: [f32; N],
    a_max: [f32; N],
    b_min: [f32; N],
    b_max: [f32; N],
}

impl<'s, const N: usize> EdgeLanes<'s, N> {
    #[inline(always)]
    fn new<const NT: usize>(
        own: &Placed<'s>,
        own_core: &SmallCore<N>,
        other: &Placed,
        other_core: &SmallCore<NT>,
        body: Body,
    ) -> Self
    where
        ShapeLanes: LanesOfWidth<N>,
    {
        let count = own.edge_count().min(N);
        let local_normals = &own.shape.normals()[..count];
        // The shape's own lanes when it has them at this width (zero past the edge count),
        // else the same arrays filled here.
        let (local_x, local_y, back, axes) = match own.shape.lanes::<N>() {
            Some(lanes) => (lanes.normal_x, lanes.normal_y, lanes.back, lanes.axes),
            None => {
                let backs = &own.shape.back_extents()[..count];
                let (mut local_x, mut local_y, mut back) = ([0.0; N], [0.0; N], [0.0; N]);
                let mut axes = 0;
                for k in 0..count {
                    let n = local_normals[k];
                    (local_x[k], local_y[k], back[k]) = (n.x, n.y, backs[k]);
                    axes |= u32::from(n != Vec2::ZERO) << k;
                }
                (local_x, local_y, back, axes)
            }
        };
        let (cos, sin) = (own.rotation.x, own.rotation.y);
        let normal_x: [f32; N] = std::array::from_fn(|k| cos * local_x[k] - sin * local_y[k]);
        let normal_y: [f32; N] = std::array::from_fn(|k| sin * local_x[k] + cos * local_y[k]);
        let project = |x: f32, y: f32| -> [f32; N] {
            std::array::from_fn(|k| x * normal_x[k] + y * normal_y[k])
        };
        let high: [f32; N] =
            std::array::from_fn(|k| own_core.x[k] * normal_x[k] + own_core.y[k] * normal_y[k]);
        // The other core's vertices on every axis, and their extremes: up to 8 vertices by
        // halving (vertex j against j + width / 2, then again: the order `sat/sse.rs`
        // follows), for 16 vertex by vertex (the 16 projections of one vertex stay in
        // registers; `SmallCore::extent` takes the same order, and no SSE pass mirrors this
        // one). A minimum is one of the values, so the order only shows in a tie of +0 and
        // -0 or with a NaN.
        let (low_of, high_of) = if NT > 8 {
            let first = project(other_core.x[0], other_core.y[0]);
            let (mut low, mut high) = (first, first);
            for j in 1..NT {
                let d = project(other_core.x[j], other_core.y[j]);
                low = std::array::from_fn(|k| lower(low[k], d[k]));
                high = std::array::from_fn(|k| higher(high[k], d[k]));
            }
            (low, high)
        } else {
            let d: [[f32; N]; NT] =
                std::array::from_fn(|j| project(other_core.x[j], other_core.y[j]));
            let (mut low_of, mut high_of) = (d, d);
            let mut width = NT;
            while width > 1 {
                width /= 2;
                for j in 0..width {
                    low_of[j] = std::array::from_fn(|k| lower(low_of[j][k], low_of[j + width][k]));
                    high_of[j] =
                        std::array::from_fn(|k| higher(high_of[j][k], high_of[j + width][k]));
                }
            }
            (low_of[0], high_of[0])
        };
        let (r_own, r_other) = (own.radius(), other.radius());
        let own_min: [f32; N] = std::array::from_fn(|k| (high[k] - back[k]) - r_own);
        let own_max: [f32; N] = std::array::from_fn(|k| high[k] + r_own);
        let other_min: [f32; N] = std::array::from_fn(|k| low_of[k] - r_other);
        let other_max: [f32; N] = std::array::from_fn(|k| high_of[k] + r_other);
        let (a_min, a_max, b_min, b_max) = match body {
            Body::A => (own_min, own_max, other_min, other_max),
            Body::B => (other_min, other_max, own_min, own_max),
        };
        EdgeLanes {
            body,
            local_normals,
            axes,
            // From the shape's lanes when present (the processor may lack a popcount).
            axis_count: own
                .shape
                .lanes::<N>()
                .map_or_else(|| axes.count_ones(), |lanes| lanes.axis_count),
            normal_x,
            normal_y,
            a_min,
            a_max,
            b_min,
            b_max,
        }
    }

    /// The axis of lane `k`, as [`edge_axis`] makes it.
    #[inline(always)]
    fn axis(&self, k: usize) -> SatAxis {
        make_axis(
            AxisSource::Edge {
                body: self.body,
                index: k as u32,
            },
            Vec2::new(self.normal_x[k], self.normal_y[k]),
            Interval::new(self.a_min[k], self.a_max[k]),
            Interval::new(self.b_min[k], self.b_max[k]),
        )
    }

    /// The overlap of every lane and which way it faces, for [`least_overlap`].
    #[inline(always)]
    fn choice(&self) -> LaneChoice<N> {
        let b_above: [f32; N] = std::array::from_fn(|k| self.a_max[k] - self.b_min[k]);
        let b_below: [f32; N] = std::array::from_fn(|k| self.b_max[k] - self.a_min[k]);
        let overlap: [f32; N] = std::array::from_fn(|k| {
            let overlap = lower(b_above[k], b_below[k]);
            if self.axes & (1 << k) != 0 {
                overlap
            } else {
                f32::INFINITY
            }
        });
        let faces: [bool; N] = std::array::from_fn(|k| match self.body {
            Body::A => b_above[k] <= b_below[k],
            Body::B => b_above[k] > b_below[k],
        });
        LaneChoice {
            overlap,
            axes: self.axes,
            axis_count: self.axis_count,
            facing: mask(&faces),
        }
    }

    /// Shows the axes, in edge order, to the choice of the best (as [`BestAxis`] chooses),
    /// recording each whole when tracing.
    #[inline(always)]
    fn choose<T: Tracer<SatAxis>>(
        &self,
        pair: &ShapePair,
        touch: f32,
        leader: &mut Leader,
        tested: &mut u32,
        tracer: &mut T,
    ) {
        // Both terms of every overlap: B above A along the axis, and B below.
        let b_above: [f32; N] = std::array::from_fn(|k| self.a_max[k] - self.b_min[k]);
        let b_below: [f32; N] = std::array::from_fn(|k| self.b_max[k] - self.a_min[k]);
        for k in 0..self.local_normals.len().min(N) {
            if self.local_normals[k] == Vec2::ZERO {
                continue; // a repeated vertex: no edge, no axis
            }
            // `f32::min` on finite values; neither term can be -0 (`a_max` and `b_max`
            // are sums `x + r`, never -0), so an equal pair is one value.
            let overlap = lower(b_above[k], b_below[k]);
            // As `SatAxis::faces_contact`: the normal is the axis when `b_above <= b_below`.
            let faces_contact = match self.body {
                Body::A => b_above[k] <= b_below[k],
                Body::B => b_above[k] > b_below[k],
            };
            *tested += 1;
            let before = *leader;
            let better = (overlap < before.overlap)
                | ((overlap == before.overlap) & faces_contact & !before.faces_contact);
            if better {
                *leader = Leader {
                    body: self.body,
                    index: k,
                    overlap,
                    faces_contact,
                };
            }
            if T::ENABLED {
                let source = |l: &Leader| AxisSource::Edge {
                    body: l.body,
                    index: l.index as u32,
                };
                let tie = (before.overlap - overlap).abs() <= touch;
                // Built here and handed over whole: a closure that builds it made the
                // recording a call per axis (about a third of a traced run).
                let step = SatAxis {
                    best_so_far: source(leader),
                    ties_with: tie.then(|| source(&before)),
                    ..to_world(pair, self.axis(k))
                };
                tracer.record(|| step);
            }
        }
    }
}

/// What the choice of the best axis needs from each lane of one body, as bit masks (bit
/// `k` for edge `k`): the overlaps (infinite on a lane with no axis), the lanes with an
/// axis, and those whose axis faces the contact.
struct LaneChoice<const N: usize> {
    overlap: [f32; N],
    axes: u32,
    /// How many bits of `axes` are set.
    axis_count: u32,
    facing: u32,
}

/// The axis [`BestAxis`] keeps, found without stepping through the axes one by one. Its
/// rule (replace the best on a smaller overlap, or on an equal one when the new axis faces
/// the contact and the best does not) keeps, of the axes with the least overlap, the first
/// that faces the contact, or the first of them when none does: a lexicographic least
/// over (overlap, not facing, order), which masks give without data-dependent branches.
/// Also returns how many axes were tested.
#[inline(always)]
fn least_overlap<const NA: usize, const NB: usize>(
    a: &LaneChoice<NA>,
    b: &LaneChoice<NB>,
) -> (Leader, u32) {
    let least = lower(least_of(a.overlap), least_of(b.overlap));
    let at_least_a: [bool; NA] = std::array::from_fn(|k| a.overlap[k] == least);
    let at_least_b: [bool; NB] = std::array::from_fn(|k| b.overlap[k] == least);
    // A's edges come first: bits 0..NA, then B's.
    let equal = (mask(&at_least_a) & a.axes) | ((mask(&at_least_b) & b.axes) << NA);
    let facing = equal & (a.facing | (b.facing << NA));
    // A pose with a non-number makes some overlap NaN, which equals nothing, not even the
    // least: no lane is then equal, and A's first lane leads, as in the traced choice (its
    // leader starts there and a NaN never beats it). Without this the index would be 32.
    let pick = if facing != 0 {
        facing
    } else if equal != 0 {
        equal
    } else {
        1
    };
    let first = pick.trailing_zeros() as usize;
    let (body, index) = if first < NA {
        (Body::A, first)
    } else {
        (Body::B, first - NA)
    };
    let leader = Leader {
        body,
        index,
        overlap: least,
        faces_contact: facing != 0,
    };
    (leader, a.axis_count + b.axis_count)
}

/// The least of `N` values (`N` a power of two), by halving.
#[inline(always)]
fn least_of<const N: usize>(mut values: [f32; N]) -> f32 {
    let mut width = N;
    while width > 1 {
        width /= 2;
        for k in 0..width {
            values[k] = lower(values[k], values[k + width]);
        }
    }
    values[0]
}

/// Bit `k` set when `lanes[k]` holds.
#[inline(always)]
fn mask<const N: usize>(lanes: &[bool; N]) -> u32 {
    lanes
        .iter()
        .enumerate()
        .fold(0, |mask, (k, &set)| mask | (u32::from(set) << k))
}

/// The smaller of two finite values (`a` when `a < b`, else `b`): one `minss`.
#[inline(always)]
fn lower(a: f32, b: f32) -> f32 {
    if a < b {
        a
    } else {
        b
    }
}

/// The larger of two finite values (`a` when `a > b`, else `b`).
#[inline(always)]
fn higher(a: f32, b: f32) -> f32 {
    if a > b {
        a
    } else {
        b
    }
}

/// Keeps the axis with the smallest overlap and records every axis it is shown.
struct BestAxis<'p, 'a, T> {
    pair: &'p ShapePair<'a>,
    tracer: &'p mut T,
    best: Option<SatAxis>,
    tested: u32,
}

impl<T: Tracer<SatAxis>> BestAxis<'_, '_, T> {
    #[inline]
    fn consider(&mut self, axis: SatAxis) {
        self.tested += 1;
        let pair = self.pair;
        let before = self.best;
        // Strictly smaller wins, so on a tie the earlier axis (A's edges first) is kept,
        // unless the earlier one is the back of a parallel pair (same line, same overlap).
        let better = |b: SatAxis| {
            axis.overlap < b.overlap
                || (axis.overlap == b.overlap && axis.faces_contact() && !b.faces_contact())
        };
        if self.best.is_none_or(better) {
            self.best = Some(axis);
        }
        let best = self.best.map_or(axis.source, |b| b.source);
        self.tracer.record(|| {
            let tie = |b: &SatAxis| (b.overlap - axis.overlap).abs() <= pair.touch_tolerance();
            SatAxis {
                best_so_far: best,
                ties_with: before.filter(tie).map(|b| b.source),
                ..to_world(pair, axis)
            }
        });
    }
}

/// Work-frame projections shifted to world projections.
fn to_world(pair: &ShapePair, axis: SatAxis) -> SatAxis {
    let shift = axis.axis.dot(pair.origin);
    SatAxis {
        interval_a: axis.interval_a.shifted(shift),
        interval_b: axis.interval_b.shifted(shift),
        ..axis
    }
}

pub(crate) fn make_axis(source: AxisSource, axis: Vec2, a: Interval, b: Interval) -> SatAxis {
    SatAxis {
        source,
        axis,
        interval_a: a,
        interval_b: b,
        overlap: (a.max - b.min).min(b.max - a.min),
        best_so_far: source,
        ties_with: None,
    }
}

/// Projects both shapes on `axis` by their support points (any axis).
fn project(pair: &ShapePair, axis: Vec2, source: AxisSource) -> SatAxis {
    let a = Interval::new(
        pair.a.support(-axis).dot(axis),
        pair.a.support(axis).dot(axis),
    )
    .inflated(pair.a.radius());
    let b = Interval::new(
        pair.b.support(-axis).dot(axis),
        pair.b.support(axis).dot(axis),
    )
    .inflated(pair.b.radius());
    make_axis(source, axis, a, b)
}

/// Tests the edge normals of `own` (body `body`) against `other`, with calipers on the two
/// extreme vertices of `other` that move as the normal turns, its lowest and highest.
/// `own`'s highest along its own edge normal is the edge itself, and its lowest lies the
/// edge's back extent below (stored with the shape).
pub(crate) fn edge_axes(
    own: &Placed,
    other: &Placed,
    body: Body,
    consider: &mut impl FnMut(SatAxis),
) {
    if own.vertex_count() <= SMALL_CORE && other.vertex_count() <= SMALL_CORE {
        return edge_axes_small(own, other, body, consider);
    }
    let edges = own.edge_count();
    let mut started = false;
    let (mut other_low, mut other_high) = (0, 0);
    for i in 0..edges {
        let n = own.normal(i);
        if n == Vec2::ZERO {
            continue; // a repeated vertex: no edge, no axis
        }
        if started {
            // The calipers step over `other`'s stored (local) vertices, with the normal
            // turned into its frame: the same order of projections, no vertex transformed.
            let local = other.local_direction(n);
            let core = other.shape.core();
            other_low = step_to_extreme(core, other_low, -local);
            other_high = step_to_extreme(core, other_high, local);
        } else {
            other_low = other.support_index(-n);
            other_high = other.support_index(n);
            started = true;
        }
        let own_interval = own_edge_interval(own, i, n);
        let other_interval = Interval::new(
            other.vertex(other_low).dot(n),
            other.vertex(other_high).dot(n),
        );
        consider(edge_axis(
            own,
            other,
            body,
            i,
            n,
            own_interval,
            other_interval,
        ));
    }
}

/// The axis of edge `index` of `own` (body `body`) from both cores' projections on its
/// normal `n`, widened by the radii and put in A, B order.
#[inline]
fn edge_axis(
    own: &Placed,
    other: &Placed,
    body: Body,
    index: usize,
    n: Vec2,
    own_core: Interval,
    other_core: Interval,
) -> SatAxis {
    let own_interval = own_core.inflated(own.radius());
    let other_interval = other_core.inflated(other.radius());
    let (a, b) = match body {
        Body::A => (own_interval, other_interval),
        Body::B => (other_interval, own_interval),
    };
    let source = AxisSource::Edge {
        body,
        index: index as u32,
    };
    make_axis(source, n, a, b)
}

/// Cores with at most this many vertices are projected whole on every axis instead of by
/// calipers: for small polygons a straight pass of multiply-adds and `min`/`max` costs less
/// than the calipers' data-dependent stepping, whose branches the processor cannot predict.
/// Up to 16 the pass wins: at 16 vertices it runs about a fifth of the calipers'
/// instructions.
const SMALL_CORE: usize = 16;

/// [`edge_axes`] for two small cores: the same axes in the same order, each end of the
/// other body's interval the same projection of the same vertex (the extreme value of a full
/// pass is the value the calipers stop at). The other core is projected in arrays of 4, 8
/// or 16 lanes ([`Width`]).
fn edge_axes_small(own: &Placed, other: &Placed, body: Body, consider: &mut impl FnMut(SatAxis)) {
    match Width::of(other) {
        Width::Four => edge_axes_fixed(own, other, &SmallCore::<4>::new(other), body, consider),
        Width::Eight => edge_axes_fixed(own, other, &SmallCore::<8>::new(other), body, consider),
        Width::Sixteen => edge_axes_fixed(own, other, &SmallCore::<16>::new(other), body, consider),
    }
}

/// The pass of [`edge_axes_small`] with `other`'s core in fixed arrays of `N`.
#[inline]
fn edge_axes_fixed<const N: usize>(
    own: &Placed,
    other: &Placed,
    other_core: &SmallCore<N>,
    body: Body,
    consider: &mut impl FnMut(SatAxis),
) {
    for i in 0..own.edge_count() {
        let n = own.normal(i);
        if n == Vec2::ZERO {
            continue; // a repeated vertex: no edge, no axis
        }
        let (other_low, other_high) = other_core.extent(n);
        consider(edge_axis(
            own,
            other,
            body,
            i,
            n,
            own_edge_interval(own, i, n),
            Interval::new(other_low, other_high),
        ));
    }
}

/// A small core's work-frame vertices as two fixed arrays of `N` coordinates (`N` a power
/// of two), padded with copies of the last vertex (a copy changes no extreme). Fixed lengths
/// let the compiler keep the projections in vector registers.
struct SmallCore<const N: usize> {
    x: [f32; N],
    y: [f32; N],
}

impl<const N: usize> SmallCore<N> {
    /// `core` has 1 to `N` vertices. The local vertices are copied into fixed arrays first
    /// (padded), then turned and moved as [`Placed::vertex`] does, lane by lane: fixed-length
    /// loops (the padding transformed again) become vector operations; a loop to the vertex
    /// count would not. Inlined into the pass, so the placed lanes stay in registers.
    #[inline(always)]
    fn new(core: &Placed) -> Self
    where
        ShapeLanes: LanesOfWidth<N>,
    {
        // The shape's own lanes when it has them at this width, else copied here.
        let (local_x, local_y) = match core.shape.lanes::<N>() {
            Some(lanes) => (lanes.x, lanes.y),
            None => {
                let local = core.shape.core();
                let last = local[local.len() - 1];
                let (mut local_x, mut local_y) = ([last.x; N], [last.y; N]);
                for (k, p) in local.iter().take(N).enumerate() {
                    (local_x[k], local_y[k]) = (p.x, p.y);
                }
                (local_x, local_y)
            }
        };
        let (cos, sin) = (core.rotation.x, core.rotation.y);
        let t = core.translation;
        SmallCore {
            x: std::array::from_fn(|k| (cos * local_x[k] - sin * local_y[k]) + t.x),
            y: std::array::from_fn(|k| (sin * local_x[k] + cos * local_y[k]) + t.y),
        }
    }

    /// The lowest and highest projection on `n`: the same values as a pass over the
    /// vertices (each is one vertex's `v.dot(n)`), found in the order [`EdgeLanes::new`]
    /// compares them: up to 8 lanes by halving (compare the two halves element by element,
    /// then the halves of the result), 16 vertex by vertex.
    #[inline]
    fn extent(&self, n: Vec2) -> (f32, f32) {
        let d: [f32; N] = std::array::from_fn(|k| self.x[k] * n.x + self.y[k] * n.y);
        // Plain compares rather than `f32::min`/`max`: the coordinates are finite, and the
        // NaN handling of `min`/`max` costs extra instructions.
        let low = |a: f32, b: f32| if a < b { a } else { b };
        let high = |a: f32, b: f32| if a > b { a } else { b };
        if N > 8 {
            return d[1..]
                .iter()
                .fold((d[0], d[0]), |(lo, hi), &v| (low(lo, v), high(hi, v)));
        }
        let (mut lo, mut hi) = (d, d);
        let mut width = N;
        while width > 1 {
            width /= 2;
            for k in 0..width {
                lo[k] = low(lo[k], lo[k + width]);
                hi[k] = high(hi[k], hi[k + width]);
            }
        }
        (lo[0], hi[0])
    }
}

/// `own`'s core projected on its own edge normal `n` (edge `i`): the edge is the high end,
/// and the low end lies the core's back extent behind it (a property of the shape, so no
/// vertex is projected but the edge's own).
#[inline]
fn own_edge_interval(own: &Placed, i: usize, n: Vec2) -> Interval {
    let high = own.vertex(i).dot(n);
    Interval::new(high - own.back_extent(i), high)
}

/// From vertex `start` of `core`, the previous extreme vertex for a direction a little
/// clockwise of `d`, steps forward round the outline while that does not lower the
/// projection on `d` (`d` in the core's own frame).
/// Bounded by one lap.
#[inline]
fn step_to_extreme(core: &[Vec2], start: usize, d: Vec2) -> usize {
    step_to_extreme_valued(core, start, d).0
}

/// [`step_to_extreme`], and the projection on `d` of the vertex it stops on (`core[k] . d`,
/// the very number its last compare read).
///
/// The walk reads the vertices four at a time on x86_64: the projections of vertices `k`
/// to `k + 3` on `d` in the lanes of one register (each `x * d.x + y * d.y`, as `Vec2::dot`
/// rounds it), and the first of `k + 1` to `k + 3` whose projection is below the one before
/// it stops the walk, as the scalar compare `value < best` stops it (a NaN stops neither).
/// Most axes move a caliper by a vertex or two: one window and no loop exit to mispredict
/// (the exit of the scalar loop, taken after a varying number of steps, cost the large
/// polygons' SAT a third of its time). Near the end of the slice, for a core of fewer than
/// four vertices, and for the last steps of a whole lap, the scalar walk with a wrapped index
/// goes on from where the windows stopped: at most `n` steps in all (a lap). Test:
/// `calipers_windows_step_as_the_scalar_walk`.
#[inline(always)]
fn step_to_extreme_valued(core: &[Vec2], start: usize, d: Vec2) -> (usize, f32) {
    let n = core.len();
    let (mut k, mut left) = (start, n);
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE and SSE2 are part of x86_64; the loads read `core[k..k + 4]` (eight
        // `f32`s of `Vec2`s, which are two `f32`s each), inside the slice.
        unsafe {
            let (dx, dy) = (_mm_set1_ps(d.x), _mm_set1_ps(d.y));
            while k + 4 <= n && left >= 3 {
                let at = core.as_ptr().add(k).cast::<f32>();
                let (front, back) = (_mm_loadu_ps(at), _mm_loadu_ps(at.add(4)));
                let xs = _mm_shuffle_ps::<0b10_00_10_00>(front, back);
                let ys = _mm_shuffle_ps::<0b11_01_11_01>(front, back);
                let values = _mm_add_ps(_mm_mul_ps(xs, dx), _mm_mul_ps(ys, dy));
                // Lane i: vertex k + i + 1's projection below vertex k + i's.
                let next = _mm_castsi128_ps(_mm_srli_si128::<4>(_mm_castps_si128(values)));
                let stops = _mm_movemask_ps(_mm_cmplt_ps(next, values)) & 0b111;
                if stops != 0 {
                    let steps = stops.trailing_zeros() as usize;
                    let mut lanes = [0.0f32; 4];
                    _mm_storeu_ps(lanes.as_mut_ptr(), values);
                    return (k + steps, lanes[steps]);
                }
                k += 3;
                left -= 3;
            }
        }
    }
    let mut best = core[k].dot(d);
    for _ in 0..left {
        let next = if k + 1 == n { 0 } else { k + 1 };
        let value = core[next].dot(d);
        if value < best {
            break;
        }
        (k, best) = (next, value);
    }
    (k, best)
}

/// Tests the axes from each core vertex of `own` toward the closest point of `other`'s core.
fn vertex_axes(own: &Placed, other: &Placed, body: Body, consider: &mut impl FnMut(SatAxis)) {
    for i in 0..own.vertex_count() {
        let p = own.vertex(i);
        let q = closest_point_on_core(other, p);
        let Some(u) = (q - p).try_normalize() else {
            continue; // the vertex is inside or on the other core: no direction
        };
        let source = AxisSource::Vertex {
            body,
            index: i as u32,
        };
        let (a, b) = match body {
            Body::A => (own, other),
            Body::B => (other, own),
        };
        let ia = Interval::new(a.support(-u).dot(u), a.support(u).dot(u)).inflated(a.radius());
        let ib = Interval::new(b.support(-u).dot(u), b.support(u).dot(u)).inflated(b.radius());
        consider(make_axis(source, u, ia, ib));
    }
}

/// The point of `core` (a point, a segment or a convex polygon) closest to `p`; `p` itself
/// when `p` is inside.
pub(crate) fn closest_point_on_core(core: &Placed, p: Vec2) -> Vec2 {
    let n = core.vertex_count();
    if n == 1 {
        return core.vertex(0);
    }
    let mut inside = n >= 3;
    let mut best = core.vertex(0);
    let mut best_d = f32::INFINITY;
    for i in 0..n {
        let s = core.vertex(i);
        let e = core.vertex((i + 1) % n) - s;
        if n >= 3 && cross(e, p - s) < 0.0 {
            inside = false; // p is on the outer (right) side of this counter-clockwise edge
        }
        let len2 = e.length_squared();
        let t = if len2 > 0.0 {
            ((p - s).dot(e) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let c = s + t * e;
        let d = (p - c).length_squared();
        if d < best_d {
            best = c;
            best_d = d;
        }
    }
    if inside {
        p
    } else {
        best
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::geom::{Pose, Shape};
    use crate::query::testing::*;

    fn run(a: &Shape, pa: Pose, b: &Shape, pb: Pose) -> (SatOutput, Vec<SatAxis>) {
        let pair = ShapePair::new(a, pa, b, pb);
        let mut axes = Vec::new();
        let out = sat(&pair, &mut axes);
        (out, axes)
    }

    #[test]
    fn boxes_test_all_eight_edge_normals_with_world_intervals() {
        let s = square(1.0);
        let (out, axes) = run(&s, at(10.0, 0.0), &s, at(11.5, 0.3));
        assert_eq!(axes.len(), 8);
        assert_eq!(out.axes_tested, 8);
        // A's edge 1 has normal +x: A covers [9, 11], B [10.5, 12.5].
        let x = axes
            .iter()
            .find(|a| {
                a.source
                    == AxisSource::Edge {
                        body: Body::A,
                        index: 1,
                    }
            })
            .unwrap();
        assert!(close(x.interval_a.min, 9.0, 1e-5) && close(x.interval_a.max, 11.0, 1e-5));
        assert!(close(x.interval_b.min, 10.5, 1e-5) && close(x.interval_b.max, 12.5, 1e-5));
        assert!(close(x.overlap, 0.5, 1e-5));
        assert!(out.intersecting);
        assert!(close(out.depth.unwrap(), 0.5, 1e-5));
        assert!(close_v(out.normal, v(1.0, 0.0), 1e-6));
        assert_eq!(
            out.axis,
            AxisSource::Edge {
                body: Body::A,
                index: 1
            }
        );
    }

    #[test]
    fn separated_records_every_axis_and_the_largest_gap() {
        let s = square(1.0);
        let (out, axes) = run(&s, at(0.0, 0.0), &s, at(0.0, -3.0));
        assert!(!out.intersecting);
        assert_eq!(axes.len(), 8);
        assert!(close(out.separation.unwrap(), 1.0, 1e-6));
        assert!(close_v(out.normal, v(0.0, -1.0), 1e-6));
        assert!(axes.iter().filter(|a| a.separates()).count() >= 2);
    }

    #[test]
    fn tie_keeps_a_s_axis() {
        // Overlap 0.5 on x and on y: the first axis found (A's) wins.
        let s = square(1.0);
        let (out, _) = run(&s, at(0.0, 0.0), &s, at(1.5, 1.5));
        assert!(close(out.depth.unwrap(), 0.5, 1e-6));
        assert_eq!(out.axis.body(), Some(Body::A));
    }

    #[test]
    fn circle_near_a_corner_uses_the_vertex_axis() {
        // Circle centre (1.6, 1.8): 0.6, 0.8 from the corner (1, 1), distance 1, radius 0.5.
        let s = square(1.0);
        let c = Shape::circle(0.5).unwrap();
        let (out, axes) = run(&s, at(0.0, 0.0), &c, at(1.6, 1.8));
        assert!(!out.intersecting);
        assert!(close(out.separation.unwrap(), 0.5, 1e-5));
        assert!(close_v(out.normal, v(0.6, 0.8), 1e-5));
        assert!(matches!(out.axis, AxisSource::Vertex { .. }));
        assert!(axes.len() > 4);
    }

    #[test]
    fn concentric_circles_fall_back_to_x() {
        let c = Shape::circle(1.0).unwrap();
        let (out, axes) = run(&c, at(0.0, 0.0), &c, at(0.0, 0.0));
        assert_eq!(axes.len(), 1);
        assert_eq!(out.axis, AxisSource::Fallback);
        assert!(close(out.depth.unwrap(), 2.0, 1e-6));
    }

    #[test]
    fn collinear_and_repeated_vertices_give_the_same_answer() {
        let clean = square(1.0);
        let messy = Shape::polygon(vec![
            v(-1.0, -1.0),
            v(0.0, -1.0),
            v(1.0, -1.0),
            v(1.0, -1.0),
            v(1.0, 1.0),
            v(-1.0, 1.0),
        ])
        .unwrap();
        for (x, y, deg) in [(1.5, 0.3, 0.0), (0.4, 1.7, 30.0), (-1.2, -1.1, 75.0)] {
            let (a, _) = run(&clean, at(0.0, 0.0), &clean, at_deg(x, y, deg));
            let (b, _) = run(&messy, at(0.0, 0.0), &clean, at_deg(x, y, deg));
            assert!(close(a.depth.unwrap(), b.depth.unwrap(), 1e-5));
            assert!(close_v(a.normal, b.normal, 1e-5));
        }
    }

    #[test]
    fn calipers_match_brute_force_projection_on_large_polygons() {
        let a = Shape::regular(300, 2.0).unwrap();
        let b = Shape::regular(57, 1.0).unwrap();
        let pair = ShapePair::new(&a, at_deg(0.0, 0.0, 7.0), &b, at_deg(2.1, 0.9, 33.0));
        let mut axes = Vec::new();
        sat(&pair, &mut axes);
        for axis in &axes {
            let project = |p: &crate::geom::Placed| {
                let ds = (0..p.vertex_count()).map(|i| p.vertex(i).dot(axis.axis));
                ds.clone().fold(f32::MAX, f32::min)..ds.fold(f32::MIN, f32::max)
            };
            let (ra, rb) = (project(&pair.a), project(&pair.b));
            assert!(
                close(axis.interval_a.min, ra.start, 1e-4)
                    && close(axis.interval_a.max, ra.end, 1e-4)
            );
            assert!(
                close(axis.interval_b.min, rb.start, 1e-4)
                    && close(axis.interval_b.max, rb.end, 1e-4)
            );
        }
    }

    /// A SplitMix64 stream of floats in [0, 1), for fixed-seed random cases.
    pub(crate) struct Random(pub u64);

    impl Random {
        pub(crate) fn next(&mut self) -> f32 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32
        }

        pub(crate) fn range(&mut self, low: f32, high: f32) -> f32 {
            low + (high - low) * self.next()
        }

        /// Boxes, random convex 3- to 8-gons (one point in each of n equal sectors of an
        /// ellipse), a 12-gon (SAT's pass of 16 lanes), a 20-gon (the calipers path), a
        /// circle and a capsule.
        /// A convex `n`-gon: one point in each of `n` equal sectors of an ellipse with
        /// random radii of 0.7 to 1.3.
        pub(crate) fn ellipse_polygon(&mut self, n: usize) -> Shape {
            let (rx, ry) = (self.range(0.7, 1.3), self.range(0.7, 1.3));
            let points = (0..n)
                .map(|k| {
                    let sector = std::f32::consts::TAU / n as f32;
                    let angle = sector * (k as f32 + self.range(0.1, 0.9));
                    v(rx * angle.cos(), ry * angle.sin())
                })
                .collect();
            Shape::polygon(points).unwrap()
        }

        pub(crate) fn shapes(&mut self) -> Vec<Shape> {
            let mut shapes = vec![square(1.0), Shape::rect(v(1.3, 0.4)).unwrap()];
            for n in 3..=8 {
                for _ in 0..3 {
                    shapes.push(self.ellipse_polygon(n));
                }
            }
            shapes.push(Shape::regular(12, 1.1).unwrap());
            shapes.push(Shape::regular(20, 1.05).unwrap());
            shapes.push(Shape::circle(0.8).unwrap());
            shapes.push(Shape::capsule(0.7, 0.3).unwrap());
            shapes
        }

        /// A pose within reach of a unit shape at the origin (overlapping, touching or
        /// apart), far from the world origin every fourth time.
        pub(crate) fn pose_near(&mut self, k: usize) -> (Pose, Pose) {
            let base = if k % 4 == 3 {
                v(3.0e4, -2.0e4)
            } else {
                Vec2::ZERO
            };
            let a = Pose::new(base, self.range(-3.2, 3.2));
            let offset = v(self.range(-2.8, 2.8), self.range(-2.8, 2.8));
            (a, Pose::new(base + offset, self.range(-3.2, 3.2)))
        }
    }

    #[test]
    fn traced_and_untraced_sat_agree_bit_for_bit() {
        // The 4-wide and 8-wide small paths and the calipers: recording axes must not change
        // the answer, on thousands of random poses.
        let mut random = Random(12);
        let shapes = random.shapes();
        let mut checked = 0;
        for k in 0..4000 {
            let a = &shapes[k % shapes.len()];
            let b = &shapes[(k * 7 + 3) % shapes.len()];
            let (pa, pb) = random.pose_near(k);
            let pair = ShapePair::new(a, pa, b, pb);
            let mut axes = Vec::new();
            let traced = sat(&pair, &mut axes);
            assert_eq!(sat_test(&pair), traced, "case {k}");
            assert_eq!(axes.len() as u32, traced.axes_tested);
            checked += 1;
        }
        assert_eq!(checked, 4000);
    }

    #[test]
    fn small_polygon_path_matches_the_general_path_bit_for_bit() {
        // The lean loop for two plain small polygons against the general path (every axis
        // built whole and compared by `BestAxis`): the same output and the same recorded
        // axes, on thousands of random poses, ties of aligned boxes included. Shapes of 3 to
        // 16 vertices (every width of the pass: 4, 8 and 16 lanes), a 12-gon with a
        // repeated vertex (an edge with no axis) and one with a vertex on a side.
        let mut random = Random(34);
        let mut shapes: Vec<Shape> = random
            .shapes()
            .into_iter()
            .filter(|s| s.radius() == 0.0 && s.core().len() <= SMALL_CORE)
            .collect();
        for n in 9..=16 {
            shapes.push(random.ellipse_polygon(n));
        }
        shapes.push(Shape::regular(16, 0.9).unwrap());
        shapes.extend(repeated_and_on_side(12));
        assert!(shapes.iter().any(|s| s.core().len() == 16));
        let mut small = 0;
        for k in 0..6000 {
            let a = &shapes[k % shapes.len()];
            let b = &shapes[(k * 5 + 1) % shapes.len()];
            let (mut pa, mut pb) = random.pose_near(k);
            if k % 3 == 0 {
                // Axis-aligned, on a grid of quarters: exact ties between axes.
                pa = Pose::new(pa.position.round(), 0.0);
                pb = Pose::new(
                    pa.position + (4.0 * (pb.position - pa.position)).round() / 4.0,
                    0.0,
                );
            }
            let pair = ShapePair::new(a, pa, b, pb);
            assert!(pair.edge_normals_suffice());
            let (mut fast, mut general_axes) = (Vec::new(), Vec::new());
            let out = sat(&pair, &mut fast);
            assert_eq!(out, general(&pair, &mut general_axes), "case {k}");
            assert_eq!(fast, general_axes, "case {k}");
            assert_eq!(sat_test(&pair), general(&pair, &mut ()), "case {k}");
            small += 1;
        }
        assert_eq!(small, 6000);
    }

    /// Every bit of an output, NaNs included (`PartialEq` calls no NaN equal to itself).
    fn output_bits(out: &SatOutput) -> String {
        let b = &out.best;
        format!(
            "{} {:?} {:?} {:x} {:x} {:?} | {:?} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:?} {:?} | {}",
            out.intersecting,
            out.depth.map(f32::to_bits),
            out.separation.map(f32::to_bits),
            out.normal.x.to_bits(),
            out.normal.y.to_bits(),
            out.axis,
            b.source,
            b.axis.x.to_bits(),
            b.axis.y.to_bits(),
            b.interval_a.min.to_bits(),
            b.interval_a.max.to_bits(),
            b.interval_b.min.to_bits(),
            b.interval_b.max.to_bits(),
            b.overlap.to_bits(),
            b.best_so_far,
            b.ties_with,
            out.axes_tested,
        )
    }

    /// The poses of case `k` of the guard tests that compare a fast SAT pass with the
    /// general one: `random.pose_near(k)` with B moved out to `size`, then by `k % 8` a grid
    /// of quarters, the same body face to face (the flag: the pair is `a` against itself),
    /// turns of 1e-6, or a non-number in a position or an angle.
    fn tied_poses(k: usize, a: &Shape, size: f32, random: &mut Random) -> (Pose, Pose, bool) {
        let quarter = std::f32::consts::FRAC_PI_2;
        let (mut pa, mut pb) = random.pose_near(k);
        pb.position = pa.position + (pb.position - pa.position) * size;
        match k % 8 {
            // On a grid of quarters of the size, unturned or by quarter turns: equal
            // bodies face to face, touching, overlaps that tie exactly.
            0 | 1 => {
                let turn = |r: &mut Random| (r.range(0.0, 4.0).floor()) * quarter;
                pa = Pose::new(
                    pa.position.round(),
                    if k.is_multiple_of(8) {
                        0.0
                    } else {
                        turn(random)
                    },
                );
                let offset = (4.0 * (pb.position - pa.position) / size).round() * size / 4.0;
                pb = Pose::new(
                    pa.position + offset,
                    if k.is_multiple_of(8) {
                        0.0
                    } else {
                        turn(random)
                    },
                );
            }
            // The same bodies (a copy), face to face along x or y, touching or
            // overlapping by a quarter.
            2 => {
                let reach = 2.0 * a.bounding_radius();
                let along = if k % 16 == 2 {
                    v(1.0, 0.0)
                } else {
                    v(0.0, 1.0)
                };
                let depth = if k % 32 < 16 { 0.0 } else { 0.25 * reach };
                pa = Pose::new(pa.position, 0.0);
                pb = Pose::new(pa.position + along * (reach - depth), 0.0);
                return (pa, pb, true);
            }
            // Turns of 1e-6, and quarter turns + 1e-6.
            3 => {
                pa.angle = 1.0e-6;
                pb.angle = quarter + 1.0e-6 * (k % 3) as f32;
            }
            // Non-numbers and infinities in a position or an angle.
            4 if k % 40 == 4 => {
                let bad = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][(k / 40) % 3];
                match (k / 120) % 3 {
                    0 => pb.position.x = bad,
                    1 => pb.angle = bad,
                    _ => pa.position.y = bad,
                }
            }
            _ => {}
        }
        (pa, pb, false)
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn sse_pass_matches_the_small_polygon_pass_bit_for_bit() {
        // The small-polygon pass written out in SSE registers (`sse::sat_small`, 4 and 8
        // lanes a body) against the pass it writes out (`small_polygons`, untraced): every
        // bit, NaN poses included. Without a non-number, also against the traced pass and
        // the general path. Shapes: boxes, long boxes, triangles, a parallelogram, a
        // trapezoid, random 3- to 8-gons, a quad with a repeated vertex (a lane with no
        // axis) and one with a vertex on a side (collinear edges), the awkward 5-gons of
        // `test_outlines` (split, bent and cut sides, a repeated point), at sizes 1e-3, 1
        // and 1e4. Poses: random, near and far from the world origin; on a
        // grid of quarters with turns of 0 (equal boxes face to face, touching, exact ties
        // between axes); quarter turns, and quarter turns + 1e-6; turns of 1e-6; NaN and
        // infinite positions and angles.
        let mut random = Random(56);
        let base: Vec<Shape> = {
            let mut shapes = vec![
                square(1.0),
                Shape::rect(v(1.3, 0.4)).unwrap(),
                Shape::polygon(vec![v(0.0, 0.0), v(2.0, 0.0), v(0.0, 1.0)]).unwrap(),
                Shape::polygon(vec![v(-1.0, -0.5), v(1.0, -0.5), v(1.5, 0.5), v(-0.5, 0.5)])
                    .unwrap(),
                Shape::polygon(vec![v(-1.0, -0.5), v(1.0, -0.5), v(0.5, 0.5), v(-0.5, 0.5)])
                    .unwrap(),
            ];
            shapes.extend(Shape::polygon(vec![
                v(-1.0, -0.5),
                v(1.0, -0.5),
                v(1.0, -0.5),
                v(0.0, 0.5),
            ]));
            shapes.extend(Shape::polygon(vec![
                v(-1.0, -0.5),
                v(0.0, -0.5),
                v(1.0, -0.5),
                v(0.0, 0.5),
            ]));
            shapes.extend(
                random
                    .shapes()
                    .into_iter()
                    .filter(|s| s.radius() == 0.0 && s.core().len() <= SMALL_CORE),
            );
            use crate::geom::test_outlines as outlines;
            shapes.extend([
                outlines::split_top(),
                outlines::repeated_point(),
                outlines::bent_top(),
                outlines::cut_corner(),
            ]);
            shapes
        };
        let shapes: Vec<Shape> = [1.0e-3, 1.0, 1.0e4]
            .iter()
            .flat_map(|&scale| {
                base.iter().map(move |s| {
                    Shape::polygon(s.core().iter().map(|&p| p * scale).collect()).unwrap()
                })
            })
            .collect();
        let (mut checked, mut with_nan, mut ties) = (0, 0, 0);
        for k in 0..24_000 {
            let a = &shapes[k % shapes.len()];
            let b = &shapes[(k * 7 + 3) % shapes.len()];
            let size = a.bounding_radius().max(b.bounding_radius());
            let (pa, pb, itself) = tied_poses(k, a, size, &mut random);
            let pair = ShapePair::new(a, pa, if itself { a } else { b }, pb);
            check_sse(&pair, &mut checked, &mut with_nan, &mut ties);
        }
        assert!(checked > 20_000, "{checked}");
        assert!(with_nan > 100, "{with_nan}");
        assert!(ties > 1000, "{ties}");
    }

    #[cfg(target_arch = "x86_64")]
    fn check_sse(pair: &ShapePair, checked: &mut usize, with_nan: &mut usize, ties: &mut usize) {
        if !sse::applies(pair) {
            return;
        }
        let fast = sse::sat_small(pair);
        let pass = small_polygons(pair, &mut ());
        assert_eq!(output_bits(&fast), output_bits(&pass), "{pair:?}");
        // `sat_small` runs the pass compiled for AVX where the processor has it: the pass
        // compiled for the baseline gives the same bits too.
        let baseline = sse::sat_small_in(pair);
        assert_eq!(output_bits(&baseline), output_bits(&pass), "{pair:?}");
        let finite = [
            pair.a.rotation,
            pair.a.translation,
            pair.b.rotation,
            pair.b.translation,
        ]
        .iter()
        .all(|p| p.is_finite());
        if finite {
            let mut axes = Vec::new();
            let traced = small_polygons(pair, &mut axes);
            assert_eq!(output_bits(&fast), output_bits(&traced), "{pair:?}");
            // The traced pass records what the general path records.
            let mut general_axes = Vec::new();
            general(pair, &mut general_axes);
            assert_eq!(axes, general_axes, "{pair:?}");
            assert_eq!(
                output_bits(&fast),
                output_bits(&general(pair, &mut ())),
                "{pair:?}"
            );
            *ties += axes.iter().filter(|x| x.ties_with.is_some()).count().min(1);
        } else {
            *with_nan += 1;
        }
        *checked += 1;
    }

    #[test]
    fn calipers_windows_step_as_the_scalar_walk() {
        // `step_to_extreme_valued` (four projections a register, then the scalar walk)
        // against the lap with a wrapped index one vertex at a time (its form before the
        // windows and the straight runs): the same vertex and the same bits of its value
        // from every start.
        let wrapped = |core: &[Vec2], start: usize, d: Vec2| {
            let n = core.len();
            let (mut k, mut best) = (start, core[start].dot(d));
            for _ in 0..n {
                let next = if k + 1 == n { 0 } else { k + 1 };
                let value = core[next].dot(d);
                if value < best {
                    break;
                }
                (k, best) = (next, value);
            }
            (k, best)
        };
        // The cores need not be convex for either walk, so besides regular
        // polygons (ties on axis-aligned directions) they include random points (every
        // pattern of stops), runs of equal points, NaN and infinite coordinates, and every
        // size from 1 to 12 points (below 4 no window fits; windows that reach the slice's
        // end or the lap's last steps).
        let mut random = Random(79);
        let mut cores: Vec<Vec<Vec2>> = vec![
            Shape::regular(16, 1.0).unwrap().core().to_vec(),
            Shape::regular(300, 2.0).unwrap().core().to_vec(),
            vec![Vec2::ONE; 9],
            vec![Vec2::new(f32::NAN, 1.0); 7],
        ];
        for n in (1..=12).chain([31, 64]) {
            for _ in 0..6 {
                let mut core: Vec<Vec2> = (0..n)
                    .map(|_| Vec2::new(random.range(-2.0, 2.0), random.range(-2.0, 2.0)))
                    .collect();
                // Repeats (equal projections), and now and then a NaN or an infinity.
                for k in 1..n {
                    if random.next() < 0.2 {
                        core[k] = core[k - 1];
                    }
                }
                if random.next() < 0.3 {
                    let k = (random.next() * n as f32) as usize % n;
                    core[k].x = [f32::NAN, f32::INFINITY, -f32::INFINITY][k % 3];
                }
                cores.push(core);
            }
        }
        let mut directions: Vec<Vec2> = (0..4)
            .map(|q| Vec2::from_angle(std::f32::consts::FRAC_PI_2 * q as f32))
            .chain((0..24).map(|_| Vec2::from_angle(random.range(-3.2, 3.2))))
            .collect();
        directions.extend([Vec2::ZERO, Vec2::new(f32::NAN, 0.0), Vec2::new(1e30, -1e30)]);
        for core in &cores {
            for (j, &d) in directions.iter().enumerate() {
                for start in 0..core.len() {
                    // The same bits, or NaN for both (a NaN's payload is not part of the
                    // answer).
                    let bits = |v: f32| if v.is_nan() { None } else { Some(v.to_bits()) };
                    let (k, value) = step_to_extreme_valued(core, start, d);
                    let (scalar_k, scalar_value) = wrapped(core, start, d);
                    assert_eq!(
                        (k, bits(value)),
                        (scalar_k, bits(scalar_value)),
                        "{} vertices, start {start}, direction {j}",
                        core.len()
                    );
                }
            }
        }
    }

    #[test]
    fn large_lean_pass_matches_the_general_path_bit_for_bit() {
        // The untraced calipers pass that builds only the axes that may win
        // (`calipers::sat_large`) against the general path (every axis built whole and shown
        // to `BestAxis`), untraced and traced: every bit of the output, NaN poses included.
        // Shapes: random convex 17- to 1,024-gons (one point in each of n sectors of an
        // ellipse, as the bench builds them), regular 20- to 1,024-gons (parallel edges,
        // exact ties between axes of both bodies), a 20-gon with a repeated vertex and one
        // with a vertex on a side, each at sizes 1e-3, 1 and 1e4, against each other and
        // against boxes, triangles and 8-gons. Poses: random near and far from the world
        // origin; on a grid of quarters, unturned or by quarter turns (regular polygons face
        // to face, touching, ties); quarter turns + 1e-6 and turns of 1e-6; the same body
        // face to face, touching or a quarter deep; NaN and infinite positions and angles.
        let mut random = Random(91);
        let (large, small) = large_and_small(&mut random);
        let (mut checked, mut with_nan, mut ties) = (0, 0, 0);
        for k in 0..6000 {
            let pair = large_pair(k, &large, &small, &mut random);
            check_large(&pair, &mut checked, &mut with_nan, &mut ties);
        }
        assert!(checked == 6000, "{checked}");
        assert!(with_nan > 100, "{with_nan}");
        assert!(ties > 1000, "{ties}");
    }

    /// A regular `n`-gon of radius 1 with vertex 3 repeated (an edge with no length, no
    /// axis), and one with a vertex inserted halfway along its side from vertex 4 to 5.
    fn repeated_and_on_side(n: u32) -> Vec<Shape> {
        let core = Shape::regular(n, 1.0).unwrap().core().to_vec();
        let mut repeated = core.clone();
        repeated.insert(3, core[3]);
        let mut on_side = core.clone();
        on_side.insert(5, (core[4] + core[5]) * 0.5);
        [repeated, on_side]
            .into_iter()
            .map(|points| Shape::polygon(points).unwrap())
            .collect()
    }

    /// The large-polygon guard tests' shapes: `large` (each more than `SMALL_CORE` vertices)
    /// and `small` (a square, a triangle, an 8-gon), each at sizes 1e-3, 1 and 1e4.
    fn large_and_small(random: &mut Random) -> (Vec<Shape>, Vec<Shape>) {
        let mut base: Vec<Shape> = Vec::new();
        for n in [17, 18, 20, 24, 33, 64, 100, 256, 1024] {
            base.push(random.ellipse_polygon(n));
        }
        for n in [20, 24, 32, 64, 256, 1024] {
            base.push(Shape::regular(n, 1.0).unwrap());
        }
        base.extend(repeated_and_on_side(20));
        let scaled = |shapes: &[Shape]| -> Vec<Shape> {
            [1.0e-3, 1.0, 1.0e4]
                .iter()
                .flat_map(|&scale| {
                    shapes.iter().map(move |s| {
                        Shape::polygon(s.core().iter().map(|&p| p * scale).collect()).unwrap()
                    })
                })
                .collect()
        };
        let large = scaled(&base);
        let small = scaled(&[
            square(1.0),
            Shape::polygon(vec![v(0.0, 0.0), v(2.0, 0.0), v(0.0, 1.0)]).unwrap(),
            Shape::regular(8, 1.0).unwrap(),
        ]);
        (large, small)
    }

    /// Pair `k` of the large-polygon guard tests: a large shape against a large one, or (one
    /// in five) a small one, the order swapped one in ten, placed by `tied_poses`.
    fn large_pair<'s>(
        k: usize,
        large: &'s [Shape],
        small: &'s [Shape],
        random: &mut Random,
    ) -> ShapePair<'s> {
        let a = &large[k % large.len()];
        let b = if k % 5 == 4 {
            &small[(k / 5) % small.len()]
        } else {
            &large[(k * 7 + 3) % large.len()]
        };
        let (a, b) = if k % 10 == 9 { (b, a) } else { (a, b) };
        let size = a.bounding_radius().max(b.bounding_radius());
        let (pa, pb, itself) = tied_poses(k, a, size, random);
        ShapePair::new(a, pa, if itself { a } else { b }, pb)
    }

    #[test]
    fn quick_terms_stay_well_inside_their_margin() {
        // `calipers::sat_large` skips an axis on its quick terms when they clear the bound
        // by `QUICK_MARGIN * EPSILON * S`; the header bounds their difference from the
        // placed terms by about 12 EPSILON S. Measured here on the guard test's shapes and
        // poses (near and far from the origin, sizes 1e-3 to 1e4, ties, turns of 1e-6):
        // the difference must stay under a quarter of the margin.
        let mut random = Random(92);
        let (large, small) = large_and_small(&mut random);
        let (mut worst, mut axes) = (0.0f32, 0usize);
        for k in 0..3000 {
            let pair = large_pair(k, &large, &small, &mut random);
            let scale = calipers::reach(&pair.a) + calipers::reach(&pair.b);
            if !scale.is_finite() || !pair.a.rotation.is_finite() || !pair.b.rotation.is_finite() {
                continue; // the NaN and infinite poses: every compare fails, nothing skipped
            }
            for (own, other) in [(&pair.a, &pair.b), (&pair.b, &pair.a)] {
                for [quick, placed] in calipers::quick_and_placed_terms(own, other) {
                    for (q, p) in [(quick.0, placed.0), (quick.1, placed.1)] {
                        let off = (q - p).abs() / (f32::EPSILON * scale);
                        assert!(off.is_finite(), "{pair:?}: {q} vs {p}");
                        worst = worst.max(off);
                        axes += 1;
                    }
                }
            }
        }
        assert!(axes > 1_000_000, "{axes}");
        assert!(
            worst <= calipers::QUICK_MARGIN / 4.0,
            "a quick term off by {worst} EPSILON S"
        );
    }

    fn check_large(pair: &ShapePair, checked: &mut usize, with_nan: &mut usize, ties: &mut usize) {
        assert!(pair.edge_normals_suffice());
        assert!(pair.a.vertex_count() > SMALL_CORE || pair.b.vertex_count() > SMALL_CORE);
        let lean = calipers::sat_large(pair);
        assert_eq!(output_bits(&lean), output_bits(&sat_test(pair)), "{pair:?}");
        assert_eq!(
            output_bits(&lean),
            output_bits(&general(pair, &mut ())),
            "{pair:?}"
        );
        let mut axes = Vec::new();
        let traced = sat(pair, &mut axes);
        assert_eq!(output_bits(&lean), output_bits(&traced), "{pair:?}");
        assert_eq!(axes.len() as u32, lean.axes_tested);
        let finite = [
            pair.a.rotation,
            pair.a.translation,
            pair.b.rotation,
            pair.b.translation,
        ]
        .iter()
        .all(|p| p.is_finite());
        if !finite {
            *with_nan += 1;
        }
        *ties += axes.iter().filter(|x| x.ties_with.is_some()).count().min(1);
        *checked += 1;
    }

    #[test]
    fn large_polygons_traced_and_untraced_agree_bit_for_bit() {
        // The calipers (at least one body of more than `SMALL_CORE` vertices), random and
        // aligned poses: recording must not change the answer or the axes counted. Regular
        // polygons with a multiple of 4 sides, unturned and on a grid of quarters, have
        // parallel edges of equal overlap: ties between axes, of both bodies.
        let shapes = [
            Shape::regular(12, 1.1).unwrap(),
            Shape::regular(16, 0.9).unwrap(),
            Shape::regular(64, 1.2).unwrap(),
            Shape::regular(256, 1.0).unwrap(),
            Shape::regular(1024, 1.3).unwrap(),
            Shape::rect(v(1.3, 0.4)).unwrap(),
            Shape::regular(7, 0.8).unwrap(),
        ];
        let mut random = Random(56);
        let (mut checked, mut ties) = (0, 0);
        for k in 0..3000 {
            let a = &shapes[k % shapes.len()];
            let b = &shapes[(k * 3 + 1) % shapes.len()];
            if a.core().len() <= SMALL_CORE && b.core().len() <= SMALL_CORE {
                continue;
            }
            let (mut pa, mut pb) = random.pose_near(k);
            if k % 2 == 0 {
                let quarter = std::f32::consts::FRAC_PI_2;
                pa = Pose::new(pa.position.round(), 0.0);
                pb = Pose::new(
                    pa.position + (4.0 * (pb.position - pa.position)).round() / 4.0,
                    quarter * (k % 8 / 2) as f32,
                );
            }
            let pair = ShapePair::new(a, pa, b, pb);
            let mut axes = Vec::new();
            let traced = sat(&pair, &mut axes);
            assert_eq!(sat_test(&pair), traced, "case {k}");
            assert_eq!(axes.len() as u32, traced.axes_tested, "case {k}");
            ties += axes.iter().filter(|axis| axis.ties_with.is_some()).count();
            checked += 1;
        }
        assert!(checked > 2000, "{checked} large pairs");
        assert!(ties > 1000, "{ties} ties");
    }

    #[test]
    fn small_core_extent_is_exactly_a_pass_over_the_vertices() {
        // Every vertex count the small path takes, rotated and moved, on many directions:
        // the halving finds the very same projections as a plain pass (bit for bit).
        for n in 3..=SMALL_CORE as u32 {
            let shape = Shape::regular(n, 1.3).unwrap();
            let placed =
                crate::geom::Placed::new(&shape, at_deg(2.5, -1.5, 11.0 * n as f32), v(0.3, 0.2));
            let core8 = SmallCore::<SMALL_CORE>::new(&placed);
            let core4 = (n <= 4).then(|| SmallCore::<4>::new(&placed));
            for k in 0..64 {
                let d = Vec2::from_angle(k as f32 * 0.1 + 0.05);
                let projections = (0..placed.vertex_count()).map(|i| placed.vertex(i).dot(d));
                let low = projections.clone().fold(f32::INFINITY, f32::min);
                let high = projections.fold(f32::NEG_INFINITY, f32::max);
                assert_eq!(core8.extent(d), (low, high), "{n}-gon, direction {k}");
                if let Some(core4) = &core4 {
                    assert_eq!(
                        core4.extent(d),
                        (low, high),
                        "{n}-gon (4-wide), direction {k}"
                    );
                }
            }
        }
    }
}
