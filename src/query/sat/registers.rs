//! SAT for two plain polygons of at most 8 vertices each, untraced: the small-polygon pass
//! (`small_polygons_fixed` in small.rs) in vector registers, one body's edges in the lanes
//! of one [`Four`] (up to 4 vertices: boxes, quads, triangles) or two (5 to 8).
//!
//! Algorithm (the pass, every value the same arithmetic, operand for operand):
//!
//! ```text
//! for each body X (A, then B), Y the other, in groups of 4 lanes:
//!     placed vertices of X and Y:   (cos * x - sin * y) + t.x,  (sin * x + cos * y) + t.y
//!                                   (lanes past the vertex count: copies of the last one)
//!     X's normals, turned:          nx = cos * x - sin * y,  ny = sin * x + cos * y
//!     X's own interval (per lane):  high = vx * nx + vy * ny;  [(high - back) - r, high + r]
//!     Y's vertex j on X's normals:  d[j] = (Y.x[j] in every lane) * nx + (Y.y[j] ...) * ny
//!     Y's interval:                 min and max of the d[j] by halving (j with j + width/2,
//!                                   then again), - r and + r
//!     overlap = min(b_above, b_below), infinite on a lane that is no axis;
//!     faces = (b_above <= b_below) for A, (b_above > b_below) for B
//! least = min(least of A's lanes, least of B's), each by halving
//! winner = first lane (A's, then B's) equal to least that faces the contact, else the
//!          first equal to it, else A's lane 0 (a NaN pose)
//! the winner's lanes -> make_axis -> finish, as the pass does
//! ```
//!
//! `min` and `max` are [`Four::min`] and [`Four::max`] with the pass's operand order
//! (`a < b ? a : b`, `a > b ? a : b`), so ties, signed zeros and NaNs pick the same operand.
//! Guard: the agreement harness (`src/agreement.rs`), in the default build and the
//! baseline's.

use super::reference::{finish_inline, make_axis};
use super::{AxisSource, SatAxis, SatOutput};
use crate::geom::{CoreLanes, Placed, LANE_LIMIT};
use crate::query::{Body, Interval, ShapePair};
use crate::simd::{Build, Four, Kernel, Lanes};
use glam::Vec2;

/// One body's lanes as the pass reads them (from its 4- or 8-wide `CoreLanes`).
#[derive(Clone, Copy)]
struct CoreView<'s> {
    x: &'s [f32],
    y: &'s [f32],
    normal_x: &'s [f32],
    normal_y: &'s [f32],
    back: &'s [f32],
    axes: u32,
    axis_count: u32,
}

impl<'s> CoreView<'s> {
    #[inline(always)]
    fn of<const N: usize>(lanes: &'s CoreLanes<N>) -> Self {
        CoreView {
            x: &lanes.x,
            y: &lanes.y,
            normal_x: &lanes.normal_x,
            normal_y: &lanes.normal_y,
            back: &lanes.back,
            axes: lanes.axes,
            axis_count: lanes.axis_count,
        }
    }

    /// The lanes of a placed polygon of at most 8 vertices, at the width the pass reads
    /// them (4 up to 4 vertices, else 8), and that width in groups of 4.
    #[inline(always)]
    fn of_placed(placed: &Placed<'s>) -> Option<(Self, usize)> {
        if let Some(lanes) = placed.shape.lanes::<4>() {
            return Some((CoreView::of(lanes), 1));
        }
        placed
            .shape
            .lanes::<LANE_LIMIT>()
            .map(|lanes| (CoreView::of(lanes), 2))
    }

    /// Lanes `4 g .. 4 g + 4` of `lane` (which has at least `4 (g + 1)`: checked by the
    /// slice).
    #[inline(always)]
    fn load(lane: &[f32], g: usize) -> Four {
        Four::load(lane[4 * g..4 * g + 4].try_into().unwrap())
    }
}

/// Whether [`sat_small`] answers for this pair of plain polygons of at most 8 vertices (the
/// caller has checked that): both have lanes and at least one edge has a length (else the
/// pass's fallback axis is needed).
#[inline(always)]
pub(crate) fn applies(pair: &ShapePair) -> bool {
    match (CoreView::of_placed(&pair.a), CoreView::of_placed(&pair.b)) {
        (Some((a, _)), Some((b, _))) => a.axis_count + b.axis_count != 0,
        _ => false,
    }
}

/// [`super::sat`] untraced for a pair that [`applies`], in the build the processor runs best
/// (compiled for AVX where it has AVX: the same operations with three-operand encodings,
/// which spare the register copies before each destructive one).
#[inline(never)]
pub(crate) fn sat_small(pair: &ShapePair) -> SatOutput {
    sat_small_in(pair, Build::compiled_for_avx(false))
}

/// [`sat_small`] in `build` (the agreement harness checks the baseline's too). Nothing is
/// fused or reordered in any build (Rust never contracts a product and a sum into an FMA),
/// so every build gives the same bits.
#[inline(always)]
pub(crate) fn sat_small_in(pair: &ShapePair, build: Build) -> SatOutput {
    crate::simd::run(SmallPair { pair }, build)
}

/// The pair, as the kernel [`crate::simd::run`] compiles for a build.
struct SmallPair<'p, 's> {
    pair: &'p ShapePair<'s>,
}

impl Kernel for SmallPair<'_, '_> {
    type Output = SatOutput;

    /// The pass is written in [`Four`] whatever `L` is: a build only changes how the same
    /// operations are encoded, not how many lanes they take.
    #[inline(always)]
    fn run_in<L: Lanes>(self, _: L::Isa) -> SatOutput {
        by_widths(self.pair)
    }
}

/// The pass at the widths of the pair's lanes: one instance per pair of widths.
#[inline(always)]
fn by_widths(pair: &ShapePair) -> SatOutput {
    fn eight<'s>(p: &Placed<'s>) -> &'s CoreLanes<LANE_LIMIT> {
        match p.shape.lanes::<LANE_LIMIT>() {
            Some(lanes) => lanes,
            None => unreachable!("sat_small runs on two cores with lanes"),
        }
    }
    match (pair.a.shape.lanes::<4>(), pair.b.shape.lanes::<4>()) {
        (Some(a), Some(b)) => pass::<4, 4, 1, 1, 2>(pair, a, b),
        (Some(a), None) => pass::<4, 8, 1, 2, 3>(pair, a, eight(&pair.b)),
        (None, Some(b)) => pass::<8, 4, 2, 1, 3>(pair, eight(&pair.a), b),
        (None, None) => pass::<8, 8, 2, 2, 4>(pair, eight(&pair.a), eight(&pair.b)),
    }
}

/// The pass for `NA` lanes of A's (`GA` groups of 4) and `NB` of B's (`GB` groups), `G =
/// GA + GB` groups in all.
#[inline(always)]
fn pass<const NA: usize, const NB: usize, const GA: usize, const GB: usize, const G: usize>(
    pair: &ShapePair,
    lanes_a: &CoreLanes<NA>,
    lanes_b: &CoreLanes<NB>,
) -> SatOutput {
    let (lanes_a, lanes_b) = (CoreView::of(lanes_a), CoreView::of(lanes_b));
    const { assert!(G == GA + GB) };
    let tested = lanes_a.axis_count + lanes_b.axis_count;
    let core_a = Core::<GA>::new(&pair.a, &lanes_a);
    let core_b = Core::<GB>::new(&pair.b, &lanes_b);
    let (ra, rb) = (Four::splat(pair.a.radius()), Four::splat(pair.b.radius()));
    // Each body's own interval on its own normals, and the other's on them.
    let (a_own_min, a_own_max) = core_a.own_interval(&lanes_a, ra);
    let (a_other_min, a_other_max) = core_a.other_interval(&core_b, rb);
    let (b_own_min, b_own_max) = core_b.own_interval(&lanes_b, rb);
    let (b_other_min, b_other_max) = core_b.other_interval(&core_a, ra);
    // A's axes: (a_min, a_max, b_min, b_max) = (own, other); B's: (other, own).
    let a_above: [Four; GA] = std::array::from_fn(|g| a_own_max[g].minus(a_other_min[g]));
    let a_below: [Four; GA] = std::array::from_fn(|g| a_other_max[g].minus(a_own_min[g]));
    let b_above: [Four; GB] = std::array::from_fn(|g| b_other_max[g].minus(b_own_min[g]));
    let b_below: [Four; GB] = std::array::from_fn(|g| b_own_max[g].minus(b_other_min[g]));
    let overlap_a: [Four; GA] =
        std::array::from_fn(|g| only_axes(a_above[g].min(a_below[g]), lanes_a.axes >> (4 * g)));
    let overlap_b: [Four; GB] =
        std::array::from_fn(|g| only_axes(b_above[g].min(b_below[g]), lanes_b.axes >> (4 * g)));
    let facing_a = bits::<GA>(|g| a_above[g].le(a_below[g]));
    let facing_b = bits::<GB>(|g| b_above[g].gt(b_below[g]));
    // `least_of` each body (8 lanes: lane k with k + 4 first; then 0 with 2 and 1 with 3,
    // then the two), then `lower` of the two bodies', as `least_overlap`.
    let least = Four::least_lane_of_both(halved(overlap_a), halved(overlap_b));
    let equal_a = bits::<GA>(|g| overlap_a[g].eq(least)) & lanes_a.axes;
    let equal_b = bits::<GB>(|g| overlap_b[g].eq(least)) & lanes_b.axes;
    let equal = equal_a | (equal_b << (4 * GA));
    let facing = equal & (facing_a | (facing_b << (4 * GA)));
    let pick = if facing != 0 {
        facing
    } else if equal != 0 {
        equal
    } else {
        1
    };
    let first = (pick.trailing_zeros() as usize).min(4 * G - 1);
    // The winner's lanes, from rows of A's groups then B's (lane `first` of each): normal x
    // and y, then a_min, a_max, b_min, b_max.
    let a_rows = [
        core_a.nx,
        core_a.ny,
        a_own_min,
        a_own_max,
        a_other_min,
        a_other_max,
    ];
    let b_rows = [
        core_b.nx,
        core_b.ny,
        b_other_min,
        b_other_max,
        b_own_min,
        b_own_max,
    ];
    let rows: [[[f32; 4]; G]; 6] = std::array::from_fn(|row| {
        std::array::from_fn(|g| {
            if g < GA {
                a_rows[row][g].to_array()
            } else {
                b_rows[row][g - GA].to_array()
            }
        })
    });
    let lane = |row: usize| rows[row].as_flattened()[first];
    let (body, index) = if first < 4 * GA {
        (Body::A, first)
    } else {
        (Body::B, first - 4 * GA)
    };
    let best = make_axis(
        AxisSource::Edge {
            body,
            index: index as u32,
        },
        Vec2::new(lane(0), lane(1)),
        Interval::new(lane(2), lane(3)),
        Interval::new(lane(4), lane(5)),
    );
    let mut output = finish_inline(pair, best, tested);
    output.normal = normal_in_one_store(&output.best);
    output
}

/// `best.normal()` to the bit (the axis, negated when B lies below A on it: `b_above >
/// b_below` or a NaN), built in one register so that the output's normal is written by one
/// 8-byte store, which the clip's first load (the normal as one 8-byte value) can be
/// forwarded from (see docs/performance.md).
#[inline(always)]
fn normal_in_one_store(best: &SatAxis) -> Vec2 {
    let b_above = Four::splat(best.interval_a.max - best.interval_b.min);
    let b_below = Four::splat(best.interval_b.max - best.interval_a.min);
    let axis = Four::load(&[best.axis.x, best.axis.y, 0.0, 0.0]);
    Vec2::from(axis.negated_unless(b_above.le(b_below)).low_pair())
}

/// One body's placed vertices and turned normals, `G` groups of 4 lanes each.
struct Core<const G: usize> {
    x: [Four; G],
    y: [Four; G],
    nx: [Four; G],
    ny: [Four; G],
}

impl<const G: usize> Core<G> {
    /// As `SmallCore::new` and `EdgeLanes::new` turn them: `(cos * x - sin * y) + t.x` and
    /// `(sin * x + cos * y) + t.y` for the vertices, the same without `t` for the normals.
    #[inline(always)]
    fn new(placed: &Placed, lanes: &CoreView) -> Self {
        let (cos, sin) = (
            Four::splat(placed.rotation.x),
            Four::splat(placed.rotation.y),
        );
        let (tx, ty) = (
            Four::splat(placed.translation.x),
            Four::splat(placed.translation.y),
        );
        let turn_x = |x: Four, y: Four| cos.mul(x).minus(sin.mul(y));
        let turn_y = |x: Four, y: Four| sin.mul(x).add(cos.mul(y));
        let load = CoreView::load;
        Core {
            x: std::array::from_fn(|g| turn_x(load(lanes.x, g), load(lanes.y, g)).add(tx)),
            y: std::array::from_fn(|g| turn_y(load(lanes.x, g), load(lanes.y, g)).add(ty)),
            nx: std::array::from_fn(|g| turn_x(load(lanes.normal_x, g), load(lanes.normal_y, g))),
            ny: std::array::from_fn(|g| turn_y(load(lanes.normal_x, g), load(lanes.normal_y, g))),
        }
    }

    /// The body's interval on each of its own normals: the edge's start is the high end,
    /// the back extent behind it the low end, widened by the radius `r`.
    #[inline(always)]
    fn own_interval(&self, lanes: &CoreView, r: Four) -> ([Four; G], [Four; G]) {
        let high: [Four; G] =
            std::array::from_fn(|g| self.x[g].mul(self.nx[g]).add(self.y[g].mul(self.ny[g])));
        (
            std::array::from_fn(|g| high[g].minus(CoreView::load(lanes.back, g)).minus(r)),
            std::array::from_fn(|g| high[g].add(r)),
        )
    }

    /// The other body's interval on each of this body's normals: its vertices projected
    /// (each in every lane), the extremes by halving as `EdgeLanes::new` halves (vertex j
    /// against j + width / 2, then again), widened by its radius `r`.
    #[inline(always)]
    fn other_interval<const GO: usize>(&self, other: &Core<GO>, r: Four) -> ([Four; G], [Four; G]) {
        let mut low = [[Four::splat(0.0); G]; 8];
        for (j, row) in low.iter_mut().enumerate().take(4 * GO) {
            let (x, y) = (
                other.x[j / 4].splat_lane(j % 4),
                other.y[j / 4].splat_lane(j % 4),
            );
            *row = std::array::from_fn(|g| x.mul(self.nx[g]).add(y.mul(self.ny[g])));
        }
        let mut high = low;
        let mut width = 4 * GO;
        while width > 1 {
            width /= 2;
            for j in 0..width {
                low[j] = std::array::from_fn(|g| low[j][g].min(low[j + width][g]));
                high[j] = std::array::from_fn(|g| high[j][g].max(high[j + width][g]));
            }
        }
        (
            std::array::from_fn(|g| low[0][g].minus(r)),
            std::array::from_fn(|g| high[0][g].add(r)),
        )
    }
}

/// The compare masks of `G` groups of 4 lanes, as bits `4 g ..` of one mask.
#[inline(always)]
fn bits<const G: usize>(group: impl Fn(usize) -> Four) -> u32 {
    (0..G).fold(0, |mask, g| mask | (group(g).mask_bits() << (4 * g)))
}

/// `G` groups of lanes halved to 4 as `least_of` halves 8 lanes (lane k with k + 4).
#[inline(always)]
fn halved<const G: usize>(lanes: [Four; G]) -> Four {
    if G == 2 {
        lanes[0].min(lanes[G - 1])
    } else {
        lanes[0]
    }
}

/// `overlap` where bit `k` (0 to 3) of `axes` is set, infinite elsewhere (no axis).
#[inline(always)]
fn only_axes(overlap: Four, axes: u32) -> Four {
    Four::mask_of_bits(axes).select(overlap, Four::splat(f32::INFINITY))
}
