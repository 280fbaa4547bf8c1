//! SAT for two polygons of at most 4 vertices each (boxes, quads, triangles), untraced,
//! written out in SSE registers: the most common pair, and the one where the compiled form
//! of the general small-polygon pass (`small_polygons_fixed::<4, 4, _>`) spent about half
//! its instructions moving lanes through memory (scalar loads of B's lanes, both bodies'
//! lanes stored to the stack, lane-kind checks).
//!
//! Algorithm (the small-polygon pass of `sat.rs`, one body's 4 edges in the 4 lanes of a
//! register; every value is the same arithmetic, operand for operand):
//!
//! ```text
//! for each body X (A, then B), Y the other:
//!     placed vertices of X and Y:   (cos * x - sin * y) + t.x,  (sin * x + cos * y) + t.y
//!     X's 4 normals, turned:        nx = cos * x - sin * y,  ny = sin * x + cos * y
//!     X's own interval (4 lanes):   high = vx * nx + vy * ny;  [(high - back) - r, high + r]
//!     Y's 4 vertices on X's normals: d[j] = (Y.x[j] broadcast) * nx + (Y.y[j] broadcast) * ny
//!     Y's interval:                 min(min(d0, d2), min(d1, d3)) - r,  max(..) + r
//!     overlap = min(b_above, b_below), infinite on a lane that is no axis;
//!     faces = (b_above <= b_below) for A, (b_above > b_below) for B
//! least = min(least of A's 4, least of B's 4), each by halving (lanes 0 with 2, 1 with 3)
//! winner = first lane (A's 0..3, then B's) equal to least that faces the contact, else the
//!          first equal to it, else A's lane 0 (a NaN pose)
//! the winner's lanes -> make_axis -> finish, as the pass does
//! ```
//!
//! `min` and `max` are `minps` / `maxps` with the pass's operand order (`a < b ? a : b`,
//! `a > b ? a : b`), so ties, signed zeros and NaNs pick the same operand. Guard test:
//! `quads_match_the_small_polygon_pass_bit_for_bit` (sat.rs).

use super::{finish_inline, make_axis, AxisSource, SatOutput};
use crate::geom::{CoreLanes, Placed};
use crate::query::{Body, Interval, ShapePair};
use glam::Vec2;
use std::arch::x86_64::*;

/// Whether [`sat_quads`] answers for this pair of plain polygons (the caller has checked
/// that both are polygons without radius): both have 4-wide lanes (at most 4 vertices) and
/// at least one edge has a length (else the pass's fallback axis is needed).
#[inline(always)]
pub(super) fn applies(pair: &ShapePair) -> bool {
    match (pair.a.shape.lanes::<4>(), pair.b.shape.lanes::<4>()) {
        (Some(a), Some(b)) => a.axis_count + b.axis_count != 0,
        _ => false,
    }
}

/// [`super::sat`] untraced for a pair that [`applies`].
#[inline(never)]
pub(super) fn sat_quads(pair: &ShapePair) -> SatOutput {
    let (Some(lanes_a), Some(lanes_b)) = (pair.a.shape.lanes::<4>(), pair.b.shape.lanes::<4>())
    else {
        unreachable!("sat_quads runs on two cores with 4-wide lanes");
    };
    let tested = lanes_a.axis_count + lanes_b.axis_count;
    // SAFETY: SSE and SSE2 are part of the x86_64 baseline; every load reads a 4-lane
    // array whole, and the lane read at the end indexes 8-float rows with a value below 8.
    unsafe {
        let core_a = Core::new(&pair.a, lanes_a);
        let core_b = Core::new(&pair.b, lanes_b);
        let (ra, rb) = (_mm_set1_ps(pair.a.radius()), _mm_set1_ps(pair.b.radius()));
        // Each body's own interval on its own normals, and the other's on them.
        let (a_own_min, a_own_max) = core_a.own_interval(lanes_a, ra);
        let (a_other_min, a_other_max) = core_a.other_interval(&core_b, rb);
        let (b_own_min, b_own_max) = core_b.own_interval(lanes_b, rb);
        let (b_other_min, b_other_max) = core_b.other_interval(&core_a, ra);
        // Lanes of A's axes: (a_min, a_max, b_min, b_max) = (own, other); of B's: (other, own).
        let a_above = _mm_sub_ps(a_own_max, a_other_min);
        let a_below = _mm_sub_ps(a_other_max, a_own_min);
        let b_above = _mm_sub_ps(b_other_max, b_own_min);
        let b_below = _mm_sub_ps(b_own_max, b_other_min);
        let overlap_a = only_axes(_mm_min_ps(a_above, a_below), lanes_a.axes);
        let overlap_b = only_axes(_mm_min_ps(b_above, b_below), lanes_b.axes);
        let facing_a = _mm_movemask_ps(_mm_cmple_ps(a_above, a_below)) as u32;
        let facing_b = _mm_movemask_ps(_mm_cmpgt_ps(b_above, b_below)) as u32;
        // `least_of` each body (lanes 0 with 2 and 1 with 3, then the two), then `lower`
        // of the two bodies', as `least_overlap`.
        let pairs = _mm_min_ps(
            _mm_movelh_ps(overlap_a, overlap_b),
            _mm_movehl_ps(overlap_b, overlap_a),
        );
        let bodies = _mm_min_ps(pairs, _mm_shuffle_ps(pairs, pairs, 0b11_11_01_01));
        let least = _mm_min_ss(bodies, _mm_movehl_ps(bodies, bodies));
        let least = _mm_shuffle_ps(least, least, 0);
        let equal_a = _mm_movemask_ps(_mm_cmpeq_ps(overlap_a, least)) as u32 & lanes_a.axes;
        let equal_b = _mm_movemask_ps(_mm_cmpeq_ps(overlap_b, least)) as u32 & lanes_b.axes;
        let equal = equal_a | (equal_b << 4);
        let facing = equal & (facing_a | (facing_b << 4));
        let pick = if facing != 0 {
            facing
        } else if equal != 0 {
            equal
        } else {
            1
        };
        let first = (pick.trailing_zeros() & 7) as usize;
        // The winner's lanes, read from rows of 8 (A's 4 lanes, then B's).
        let rows: [__m128; 12] = [
            core_a.nx,
            core_b.nx,
            core_a.ny,
            core_b.ny,
            a_own_min,
            b_other_min,
            a_own_max,
            b_other_max,
            a_other_min,
            b_own_min,
            a_other_max,
            b_own_max,
        ];
        let lane = |row: usize| *(rows.as_ptr() as *const f32).add(8 * row + first);
        let body = if first < 4 { Body::A } else { Body::B };
        let best = make_axis(
            AxisSource::Edge {
                body,
                index: (first & 3) as u32,
            },
            Vec2::new(lane(0), lane(1)),
            Interval::new(lane(2), lane(3)),
            Interval::new(lane(4), lane(5)),
        );
        finish_inline(pair, best, tested)
    }
}

/// One body's placed vertices and turned normals, 4 lanes each.
struct Core {
    x: __m128,
    y: __m128,
    nx: __m128,
    ny: __m128,
}

impl Core {
    /// As `SmallCore::new` and `EdgeLanes::new` turn them: `(cos * x - sin * y) + t.x` and
    /// `(sin * x + cos * y) + t.y` for the vertices, the same without `t` for the normals.
    #[inline(always)]
    unsafe fn new(placed: &Placed, lanes: &CoreLanes<4>) -> Self {
        let (cos, sin) = (
            _mm_set1_ps(placed.rotation.x),
            _mm_set1_ps(placed.rotation.y),
        );
        let turn = |x: &[f32; 4], y: &[f32; 4]| {
            let (x, y) = (_mm_loadu_ps(x.as_ptr()), _mm_loadu_ps(y.as_ptr()));
            (
                _mm_sub_ps(_mm_mul_ps(cos, x), _mm_mul_ps(sin, y)),
                _mm_add_ps(_mm_mul_ps(sin, x), _mm_mul_ps(cos, y)),
            )
        };
        let (x, y) = turn(&lanes.x, &lanes.y);
        let (nx, ny) = turn(&lanes.normal_x, &lanes.normal_y);
        Core {
            x: _mm_add_ps(x, _mm_set1_ps(placed.translation.x)),
            y: _mm_add_ps(y, _mm_set1_ps(placed.translation.y)),
            nx,
            ny,
        }
    }

    /// The body's interval on each of its own normals: the edge's start is the high end,
    /// the back extent behind it the low end, widened by the radius `r`.
    #[inline(always)]
    unsafe fn own_interval(&self, lanes: &CoreLanes<4>, r: __m128) -> (__m128, __m128) {
        let high = _mm_add_ps(_mm_mul_ps(self.x, self.nx), _mm_mul_ps(self.y, self.ny));
        let back = _mm_loadu_ps(lanes.back.as_ptr());
        (_mm_sub_ps(_mm_sub_ps(high, back), r), _mm_add_ps(high, r))
    }

    /// The other body's interval on each of this body's normals: its 4 vertices projected
    /// (each broadcast to every lane), the extremes by halving, widened by its radius `r`.
    #[inline(always)]
    unsafe fn other_interval(&self, other: &Core, r: __m128) -> (__m128, __m128) {
        macro_rules! project {
            ($j:literal) => {
                _mm_add_ps(
                    _mm_mul_ps(
                        _mm_shuffle_ps(other.x, other.x, $j * 0b01_01_01_01),
                        self.nx,
                    ),
                    _mm_mul_ps(
                        _mm_shuffle_ps(other.y, other.y, $j * 0b01_01_01_01),
                        self.ny,
                    ),
                )
            };
        }
        let (d0, d1, d2, d3) = (project!(0), project!(1), project!(2), project!(3));
        let low = _mm_min_ps(_mm_min_ps(d0, d2), _mm_min_ps(d1, d3));
        let high = _mm_max_ps(_mm_max_ps(d0, d2), _mm_max_ps(d1, d3));
        (_mm_sub_ps(low, r), _mm_add_ps(high, r))
    }
}

/// `overlap` where bit `k` of `axes` is set, infinite elsewhere (a lane with no axis).
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
