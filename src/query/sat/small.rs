//! SAT for two plain polygons (no radius) of at most `SMALL_CORE` vertices, untraced: every
//! edge axis of one body at once, one vector lane per edge, and every vertex of the other
//! projected on all of them. The same axes, the same numbers and the same best axis as the
//! reference (`reference.rs`), bit for bit; the best axis is picked by lane masks rather
//! than one compare per axis. Shapes of up to 16 vertices keep their vertices, normals and
//! back extents in such lanes, built with the shape (`geom::CoreLanes`), so a query loads
//! them whole. Cores of at most 8 vertices take the same pass written out in vector
//! registers (`registers.rs`).
//!
//! ```text
//! place both cores in the work frame, in fixed lanes of 4, 8 or 16 (by vertex count)
//! for each body X (A, then B), Y the other, one lane per edge k of X:
//!     n_k = X's normal k, turned;  X's interval: [high_k - back_k, high_k],  high_k = v_k . n_k
//!     Y's interval: the least and greatest of Y's vertices on n_k (by halving up to 8
//!                   vertices, vertex by vertex for 16: the order of `SmallCore::extent`)
//!     overlap_k = min of both terms (infinite on a lane that is no axis), faces_k
//! least = the least overlap of all lanes; winner = the first lane (A's, then B's) at least
//!         that faces the contact, else the first at least (the reference's tie rule)
//! the winner's axis whole -> finish, as the reference does
//! ```

use super::projection::{higher, lower, SmallCore, Width};
use super::reference::{finish, make_axis, project};
use super::{AxisSource, SatAxis, SatOutput};
use crate::geom::{LanesOfWidth, Placed, ShapeLanes};
use crate::query::{Body, Interval, ShapePair};
use glam::Vec2;

/// [`super::sat`] untraced for two plain polygons of at most `SMALL_CORE` vertices: one
/// instance per pair of widths.
#[inline]
pub(crate) fn sat_small(pair: &ShapePair) -> SatOutput {
    use Width::*;
    match (Width::of(&pair.a), Width::of(&pair.b)) {
        (Four, Four) => small_polygons_fixed::<4, 4>(pair),
        (Four, Eight) => small_polygons_fixed::<4, 8>(pair),
        (Eight, Four) => small_polygons_fixed::<8, 4>(pair),
        (Eight, Eight) => small_polygons_fixed::<8, 8>(pair),
        (Four, Sixteen) => small_polygons_fixed::<4, 16>(pair),
        (Eight, Sixteen) => small_polygons_fixed::<8, 16>(pair),
        (Sixteen, Four) => small_polygons_fixed::<16, 4>(pair),
        (Sixteen, Eight) => small_polygons_fixed::<16, 8>(pair),
        (Sixteen, Sixteen) => small_polygons_fixed::<16, 16>(pair),
    }
}

/// Where the best axis came from: edge `index` of `body`.
#[derive(Clone, Copy)]
struct Leader {
    body: Body,
    index: usize,
}

#[inline(always)]
fn small_polygons_fixed<const NA: usize, const NB: usize>(pair: &ShapePair) -> SatOutput
where
    ShapeLanes: LanesOfWidth<NA> + LanesOfWidth<NB>,
{
    let core_a = SmallCore::<NA>::new(&pair.a);
    let core_b = SmallCore::<NB>::new(&pair.b);
    let lanes_a = EdgeLanes::new(&pair.a, &core_a, &pair.b, &core_b, Body::A);
    let lanes_b = EdgeLanes::new(&pair.b, &core_b, &pair.a, &core_a, Body::B);
    let (leader, tested) = least_overlap(&lanes_a.choice(), &lanes_b.choice());
    if tested == 0 {
        // No edge of either polygon has a length: the reference's fallback axis.
        let fallback = project(pair, Vec2::X, AxisSource::Fallback);
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
/// overlap. Each number is the arithmetic of the reference's `edge_axes` on that axis (the
/// normal turned as [`Placed::normal`] turns it, the own interval from the edge and its
/// back extent, the other core's interval by the halving of [`SmallCore::extent`],
/// widening by the radii); laid out by edge, the projections of one vertex on every axis
/// are one vector operation.
struct EdgeLanes<const N: usize> {
    body: Body,
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

impl<const N: usize> EdgeLanes<N> {
    #[inline(always)]
    fn new<const NT: usize>(
        own: &Placed,
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
        // halving (vertex j against j + width / 2, then again: the order `registers.rs`
        // follows), for 16 vertex by vertex (the 16 projections of one vertex stay in
        // registers; `SmallCore::extent` takes the same order, and no register pass mirrors
        // this one). A minimum is one of the values, so the order only shows in a tie of +0 and
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

    /// The axis of lane `k`, as the reference's `edge_axis` makes it.
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

/// The axis the reference's `BestAxis` keeps, found without stepping through the axes one
/// by one. Its rule (replace the best on a smaller overlap, or on an equal one when the new
/// axis faces the contact and the best does not) keeps, of the axes with the least overlap,
/// the first that faces the contact, or the first of them when none does: a lexicographic
/// least over (overlap, not facing, order), which masks give without data-dependent
/// branches.
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
    // least: no lane is then equal, and A's first lane leads (the lane pass's own choice;
    // the answer for such a pose is NaN either way). Without this the index would be 32.
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
    let leader = Leader { body, index };
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
