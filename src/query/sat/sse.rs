//! SAT for two plain polygons of at most 8 vertices each, untraced, with the small-polygon
//! pass (`small_polygons_fixed` in small.rs) written out in SSE registers: one body's edges
//! in the lanes of one register (up to 4 vertices: boxes, quads, triangles) or two (5 to
//! 8).
//!
//! Algorithm (the pass, every value the same arithmetic, operand for operand):
//!
//! ```text
//! for each body X (A, then B), Y the other, in groups of 4 lanes:
//!     placed vertices of X and Y:   (cos * x - sin * y) + t.x,  (sin * x + cos * y) + t.y
//!                                   (lanes past the vertex count: copies of the last one)
//!     X's normals, turned:          nx = cos * x - sin * y,  ny = sin * x + cos * y
//!     X's own interval (per lane):  high = vx * nx + vy * ny;  [(high - back) - r, high + r]
//!     Y's vertex j on X's normals:  d[j] = (Y.x[j] broadcast) * nx + (Y.y[j] broadcast) * ny
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
//! `min` and `max` are `minps` / `maxps` with the pass's operand order (`a < b ? a : b`,
//! `a > b ? a : b`), so ties, signed zeros and NaNs pick the same operand. Guard test:
//! `sse_pass_matches_the_small_polygon_pass_bit_for_bit` (tests.rs).

use super::reference::{finish_inline, make_axis};
use super::{AxisSource, SatOutput};
use crate::geom::{CoreLanes, Placed, LANE_LIMIT};
use crate::query::{Body, Interval, ShapePair};
use glam::Vec2;
use std::arch::x86_64::*;
use std::mem::MaybeUninit;

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
    fn load(lane: &[f32], g: usize) -> __m128 {
        let four: &[f32; 4] = lane[4 * g..4 * g + 4].try_into().unwrap();
        // SAFETY: SSE is part of the x86_64 baseline; the load reads the 4 floats of `four`.
        unsafe { _mm_loadu_ps(four.as_ptr()) }
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

/// [`super::sat`] untraced for a pair that [`applies`]: one instance per pair of widths.
/// Where the processor has AVX (checked at run time, the check cached by the standard
/// library), the pass runs as compiled for it: the same SSE operations with three-operand
/// encodings, which spare the register copies before each destructive operation (about 3 %
/// of the small manifold's time). Nothing is fused or reordered (Rust never contracts a
/// product and a sum into an FMA), so the bits are the same: the guard test
/// `sse_pass_matches_the_small_polygon_pass_bit_for_bit` runs this and the baseline pass.
#[inline(never)]
pub(crate) fn sat_small(pair: &ShapePair) -> SatOutput {
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the processor has AVX (checked just above).
        return unsafe { sat_small_avx(pair) };
    }
    sat_small_in(pair)
}

/// [`sat_small`] compiled for AVX.
#[target_feature(enable = "avx")]
fn sat_small_avx(pair: &ShapePair) -> SatOutput {
    sat_small_in(pair)
}

/// The pass, compiled as its caller is (the baseline, or AVX in [`sat_small_avx`]).
#[inline(always)]
pub(super) fn sat_small_in(pair: &ShapePair) -> SatOutput {
    fn eight<'s>(p: &Placed<'s>) -> &'s CoreLanes<LANE_LIMIT> {
        match p.shape.lanes::<LANE_LIMIT>() {
            Some(lanes) => lanes,
            None => unreachable!("sat_small runs on two cores with lanes"),
        }
    }
    match (pair.a.shape.lanes::<4>(), pair.b.shape.lanes::<4>()) {
        (Some(a), Some(b)) => pass::<4, 4, 1, 1>(pair, a, b),
        (Some(a), None) => pass::<4, 8, 1, 2>(pair, a, eight(&pair.b)),
        (None, Some(b)) => pass::<8, 4, 2, 1>(pair, eight(&pair.a), b),
        (None, None) => pass::<8, 8, 2, 2>(pair, eight(&pair.a), eight(&pair.b)),
    }
}

/// The pass for `NA` lanes of A's (`GA` groups of 4) and `NB` of B's (`GB` groups).
#[inline(always)]
fn pass<const NA: usize, const NB: usize, const GA: usize, const GB: usize>(
    pair: &ShapePair,
    lanes_a: &CoreLanes<NA>,
    lanes_b: &CoreLanes<NB>,
) -> SatOutput {
    let (lanes_a, lanes_b) = (CoreView::of(lanes_a), CoreView::of(lanes_b));
    let tested = lanes_a.axis_count + lanes_b.axis_count;
    // SAFETY: SSE and SSE2 are part of the x86_64 baseline; the lane read at the end
    // indexes rows of 4 (GA + GB) floats with a value below that.
    unsafe {
        let core_a = Core::<GA>::new(&pair.a, &lanes_a);
        let core_b = Core::<GB>::new(&pair.b, &lanes_b);
        let (ra, rb) = (_mm_set1_ps(pair.a.radius()), _mm_set1_ps(pair.b.radius()));
        // Each body's own interval on its own normals, and the other's on them.
        let (a_own_min, a_own_max) = core_a.own_interval(&lanes_a, ra);
        let (a_other_min, a_other_max) = core_a.other_interval(&core_b, rb);
        let (b_own_min, b_own_max) = core_b.own_interval(&lanes_b, rb);
        let (b_other_min, b_other_max) = core_b.other_interval(&core_a, ra);
        // A's axes: (a_min, a_max, b_min, b_max) = (own, other); B's: (other, own).
        let a_above: [__m128; GA] =
            std::array::from_fn(|g| _mm_sub_ps(a_own_max[g], a_other_min[g]));
        let a_below: [__m128; GA] =
            std::array::from_fn(|g| _mm_sub_ps(a_other_max[g], a_own_min[g]));
        let b_above: [__m128; GB] =
            std::array::from_fn(|g| _mm_sub_ps(b_other_max[g], b_own_min[g]));
        let b_below: [__m128; GB] =
            std::array::from_fn(|g| _mm_sub_ps(b_own_max[g], b_other_min[g]));
        let overlap_a: [__m128; GA] = std::array::from_fn(|g| {
            only_axes(_mm_min_ps(a_above[g], a_below[g]), lanes_a.axes >> (4 * g))
        });
        let overlap_b: [__m128; GB] = std::array::from_fn(|g| {
            only_axes(_mm_min_ps(b_above[g], b_below[g]), lanes_b.axes >> (4 * g))
        });
        let facing_a = bits::<GA>(|g| _mm_cmple_ps(a_above[g], a_below[g]));
        let facing_b = bits::<GB>(|g| _mm_cmpgt_ps(b_above[g], b_below[g]));
        // `least_of` each body (8 lanes: lane k with k + 4 first; then 0 with 2 and 1 with
        // 3, then the two), then `lower` of the two bodies', as `least_overlap`.
        let (four_a, four_b) = (halved(overlap_a), halved(overlap_b));
        let pairs = _mm_min_ps(_mm_movelh_ps(four_a, four_b), _mm_movehl_ps(four_b, four_a));
        let bodies = _mm_min_ps(pairs, _mm_shuffle_ps(pairs, pairs, 0b11_11_01_01));
        let least = _mm_min_ss(bodies, _mm_movehl_ps(bodies, bodies));
        let least = _mm_shuffle_ps(least, least, 0);
        let equal_a = bits::<GA>(|g| _mm_cmpeq_ps(overlap_a[g], least)) & lanes_a.axes;
        let equal_b = bits::<GB>(|g| _mm_cmpeq_ps(overlap_b[g], least)) & lanes_b.axes;
        let equal = equal_a | (equal_b << (4 * GA));
        let facing = equal & (facing_a | (facing_b << (4 * GA)));
        let pick = if facing != 0 {
            facing
        } else if equal != 0 {
            equal
        } else {
            1
        };
        let lanes = 4 * (GA + GB);
        let first = (pick.trailing_zeros() as usize).min(lanes - 1);
        // The winner's lanes, read from rows of A's lanes then B's: normal x and y, then
        // a_min, a_max, b_min, b_max.
        // Only the lanes of the two bodies are written (no zeroing of the rest).
        let mut rows = [[MaybeUninit::<__m128>::uninit(); 4]; 6];
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
        for (row, (a, b)) in rows.iter_mut().zip(a_rows.iter().zip(&b_rows)) {
            for g in 0..GA {
                row[g].write(a[g]);
            }
            for g in 0..GB {
                row[GA + g].write(b[g]);
            }
        }
        // `first` lies below 4 (GA + GB): in the written lanes.
        let lane = |row: usize| *(rows[row].as_ptr() as *const f32).add(first);
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
}

/// `best.normal()` to the bit (the axis, negated when B lies below A on it: `b_above >
/// b_below` or a NaN), built in one register so that the output's normal is written by one
/// 8-byte store. The clip's first load reads the normal as one 8-byte value; written as two
/// 4-byte halves, the load could not be forwarded from the two pending stores and waited for
/// them to reach the cache (about 4 ns a query on boxes: 82 -> 78 ns).
#[inline(always)]
unsafe fn normal_in_one_store(best: &super::SatAxis) -> Vec2 {
    let b_above = _mm_set_ss(best.interval_a.max - best.interval_b.min);
    let b_below = _mm_set_ss(best.interval_b.max - best.interval_a.min);
    let keep = _mm_cmple_ss(b_above, b_below);
    let keep = _mm_shuffle_ps(keep, keep, 0);
    let axis = _mm_setr_ps(best.axis.x, best.axis.y, 0.0, 0.0);
    let flip = _mm_andnot_ps(keep, _mm_set1_ps(-0.0));
    let v = _mm_xor_ps(axis, flip);
    let mut out = Vec2::ZERO;
    _mm_store_sd((&mut out as *mut Vec2).cast(), _mm_castps_pd(v));
    out
}

/// One body's placed vertices and turned normals, `G` groups of 4 lanes each.
struct Core<const G: usize> {
    x: [__m128; G],
    y: [__m128; G],
    nx: [__m128; G],
    ny: [__m128; G],
}

impl<const G: usize> Core<G> {
    /// As `SmallCore::new` and `EdgeLanes::new` turn them: `(cos * x - sin * y) + t.x` and
    /// `(sin * x + cos * y) + t.y` for the vertices, the same without `t` for the normals.
    #[inline(always)]
    unsafe fn new(placed: &Placed, lanes: &CoreView) -> Self {
        let (cos, sin) = (
            _mm_set1_ps(placed.rotation.x),
            _mm_set1_ps(placed.rotation.y),
        );
        let (tx, ty) = (
            _mm_set1_ps(placed.translation.x),
            _mm_set1_ps(placed.translation.y),
        );
        let turn_x = |x: __m128, y: __m128| _mm_sub_ps(_mm_mul_ps(cos, x), _mm_mul_ps(sin, y));
        let turn_y = |x: __m128, y: __m128| _mm_add_ps(_mm_mul_ps(sin, x), _mm_mul_ps(cos, y));
        let load = |lane: &[f32], g: usize| CoreView::load(lane, g);
        Core {
            x: std::array::from_fn(|g| _mm_add_ps(turn_x(load(lanes.x, g), load(lanes.y, g)), tx)),
            y: std::array::from_fn(|g| _mm_add_ps(turn_y(load(lanes.x, g), load(lanes.y, g)), ty)),
            nx: std::array::from_fn(|g| turn_x(load(lanes.normal_x, g), load(lanes.normal_y, g))),
            ny: std::array::from_fn(|g| turn_y(load(lanes.normal_x, g), load(lanes.normal_y, g))),
        }
    }

    /// The body's interval on each of its own normals: the edge's start is the high end,
    /// the back extent behind it the low end, widened by the radius `r`.
    #[inline(always)]
    unsafe fn own_interval(&self, lanes: &CoreView, r: __m128) -> ([__m128; G], [__m128; G]) {
        let high: [__m128; G] = std::array::from_fn(|g| {
            _mm_add_ps(
                _mm_mul_ps(self.x[g], self.nx[g]),
                _mm_mul_ps(self.y[g], self.ny[g]),
            )
        });
        (
            std::array::from_fn(|g| {
                _mm_sub_ps(_mm_sub_ps(high[g], CoreView::load(lanes.back, g)), r)
            }),
            std::array::from_fn(|g| _mm_add_ps(high[g], r)),
        )
    }

    /// The other body's interval on each of this body's normals: its vertices projected
    /// (each broadcast to every lane), the extremes by halving as `EdgeLanes::new` halves
    /// (vertex j against j + width / 2, then again), widened by its radius `r`.
    #[inline(always)]
    unsafe fn other_interval<const GO: usize>(
        &self,
        other: &Core<GO>,
        r: __m128,
    ) -> ([__m128; G], [__m128; G]) {
        let mut low = [[_mm_setzero_ps(); G]; 8];
        for (j, row) in low.iter_mut().enumerate().take(4 * GO) {
            let (x, y) = (
                broadcast(other.x[j / 4], j % 4),
                broadcast(other.y[j / 4], j % 4),
            );
            *row = std::array::from_fn(|g| {
                _mm_add_ps(_mm_mul_ps(x, self.nx[g]), _mm_mul_ps(y, self.ny[g]))
            });
        }
        let mut high = low;
        let mut width = 4 * GO;
        while width > 1 {
            width /= 2;
            for j in 0..width {
                low[j] = std::array::from_fn(|g| _mm_min_ps(low[j][g], low[j + width][g]));
                high[j] = std::array::from_fn(|g| _mm_max_ps(high[j][g], high[j + width][g]));
            }
        }
        (
            std::array::from_fn(|g| _mm_sub_ps(low[0][g], r)),
            std::array::from_fn(|g| _mm_add_ps(high[0][g], r)),
        )
    }
}

/// Lane `k` (0 to 3) of `v` in every lane.
#[inline(always)]
unsafe fn broadcast(v: __m128, k: usize) -> __m128 {
    match k {
        0 => _mm_shuffle_ps(v, v, 0b00_00_00_00),
        1 => _mm_shuffle_ps(v, v, 0b01_01_01_01),
        2 => _mm_shuffle_ps(v, v, 0b10_10_10_10),
        _ => _mm_shuffle_ps(v, v, 0b11_11_11_11),
    }
}

/// The sign bits of `G` groups of 4 lanes, as bits `4 g ..` of a mask.
#[inline(always)]
unsafe fn bits<const G: usize>(group: impl Fn(usize) -> __m128) -> u32 {
    (0..G).fold(0, |mask, g| {
        mask | ((_mm_movemask_ps(group(g)) as u32) << (4 * g))
    })
}

/// `G` groups of lanes halved to 4 as `least_of` halves 8 lanes (lane k with k + 4).
#[inline(always)]
unsafe fn halved<const G: usize>(lanes: [__m128; G]) -> __m128 {
    if G == 2 {
        _mm_min_ps(lanes[0], lanes[G - 1])
    } else {
        lanes[0]
    }
}

/// `overlap` where bit `k` (0 to 3) of `axes` is set, infinite elsewhere (no axis).
#[inline(always)]
unsafe fn only_axes(overlap: __m128, axes: u32) -> __m128 {
    let bits = _mm_setr_epi32(1, 2, 4, 8);
    let set = _mm_castsi128_ps(_mm_cmpeq_epi32(
        _mm_and_si128(_mm_set1_epi32(axes as i32), bits),
        bits,
    ));
    _mm_or_ps(
        _mm_and_ps(set, overlap),
        _mm_andnot_ps(set, _mm_set1_ps(f32::INFINITY)),
    )
}
