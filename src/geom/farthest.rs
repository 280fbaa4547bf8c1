//! The first farthest of a small core's vertices along a direction, for cores kept in fixed
//! coordinate arrays of 8 lanes (5- to 8-gons): the support look-up GJK waits on twice an
//! iteration (see `Shape::small_support_vertex`).
//!
//! Algorithm: project every lane at once (`x[k] * d.x + y[k] * d.y`, each lane the scalar
//! expression: IEEE products and sum, no fused multiply-add), then find the first lane with
//! the largest projection: the answer of a scan that keeps the first strictly larger
//! projection, ties included.
//! - 8 lanes: a knock-out tournament between blocks of neighbouring lanes, in vector
//!   registers (even lanes against odd ones, then neighbours, then halves), each match one
//!   compare that the winner's lane number follows by masks; in each match the right block
//!   wins only when strictly larger, so ties go to the lower lane.
//! - 4 lanes: the largest projection by halving (a maximum is exact: it is one of the
//!   projections), then the lowest lane whose projection equals it, from a bit mask of the
//!   lanes that compare equal.
//!
//! On x86_64 each step takes one or two SSE instructions (SSE is part of the x86_64
//! baseline); elsewhere a scan over the arrays gives the same lane.

use glam::Vec2;

/// The lowest `k` with the largest `x[k] * d.x + y[k] * d.y`, for `N` = 4 or 8 lanes. A
/// direction with a NaN (no largest projection) gives some lane in range, 0 when every
/// projection is NaN.
#[inline(always)]
pub(crate) fn first_farthest<const N: usize>(x: &[f32; N], y: &[f32; N], d: Vec2) -> usize {
    #[cfg(target_arch = "x86_64")]
    if N == 4 || N == 8 {
        return sse::first_farthest(x, y, d);
    }
    first_farthest_scalar(x, y, d)
}

/// A plain scan that keeps the first strictly larger projection (other targets and widths).
#[inline(always)]
fn first_farthest_scalar<const N: usize>(x: &[f32; N], y: &[f32; N], d: Vec2) -> usize {
    let projection: [f32; N] = std::array::from_fn(|k| x[k] * d.x + y[k] * d.y);
    let mut best = 0;
    for k in 1..N {
        if projection[k] > projection[best] {
            best = k;
        }
    }
    best
}

#[cfg(target_arch = "x86_64")]
mod sse {
    use glam::Vec2;
    use std::arch::x86_64::*;

    /// `N` is 4 or 8 (checked by the caller).
    // SAFETY (every `unsafe` block here): SSE is part of the x86_64 baseline, so the
    // intrinsics are always available; the loads read `x` and `y` within their `N` lanes
    // (lanes 0..4, and 4..8 when `N` is 8) and have no alignment requirement.
    #[inline(always)]
    pub(super) fn first_farthest<const N: usize>(x: &[f32; N], y: &[f32; N], d: Vec2) -> usize {
        unsafe {
            let (dx, dy) = (_mm_set1_ps(d.x), _mm_set1_ps(d.y));
            let project = |k: usize| {
                let px = _mm_mul_ps(_mm_loadu_ps(x.as_ptr().add(k)), dx);
                let py = _mm_mul_ps(_mm_loadu_ps(y.as_ptr().add(k)), dy);
                _mm_add_ps(px, py)
            };
            let low = project(0);
            if N == 8 {
                return by_matches(low, project(4));
            }
            let top = every_lane_max(low);
            let mask = _mm_movemask_ps(_mm_cmpeq_ps(low, top)) as u32;
            // An empty mask (NaN projections) gives N, wrapped to lane 0.
            ((mask | 1 << N).trailing_zeros() as usize) & (N - 1)
        }
    }

    /// The first lane with the largest of 8 projections (`low` lanes 0 to 3, `high` 4 to
    /// 7), by a knock-out tournament between blocks of neighbouring lanes kept in vector
    /// registers: in each match the right block's winner wins only when strictly larger,
    /// so each winner is the first farthest lane of its block, ties to the lowest lane as a
    /// scan. Each match is one compare; the winner's projection (a maximum, exact) and lane
    /// number follow it by masks (and, andnot, or).
    /// - The even lanes against the odd ones (`2j` against `2j + 1`): the winners of blocks
    ///   {0, 1}, {2, 3}, {4, 5}, {6, 7} in lanes 0 to 3.
    /// - Lane 0 against 1 and 2 against 3 (the lanes against their neighbours swapped).
    /// - Lane 0 against 2 (the high half), as scalars.
    ///
    /// A NaN projection never wins a compare, so the answer is still a lane in range.
    #[inline(always)]
    unsafe fn by_matches(low: __m128, high: __m128) -> usize {
        let even = _mm_shuffle_ps(low, high, 0b10_00_10_00);
        let odd = _mm_shuffle_ps(low, high, 0b11_01_11_01);
        let right = _mm_cmplt_ps(even, odd);
        let p = _mm_max_ps(even, odd);
        let lanes = pick(right, lane_numbers(0, 2, 4, 6), lane_numbers(1, 3, 5, 7));
        let swap = |v: __m128| _mm_shuffle_ps(v, v, 0b10_11_00_01);
        let right = _mm_cmplt_ps(p, swap(p));
        let p = _mm_max_ps(p, swap(p));
        let lanes = pick(right, lanes, swap(lanes));
        let high = |v: __m128| _mm_movehl_ps(v, v);
        let lane = |v: __m128| _mm_cvtsi128_si32(_mm_castps_si128(v)) as usize;
        // The last match as a scalar compare and a select (`ucomiss`, `cmov`): shorter than
        // a mask and a pick followed by the move out of the vector register.
        if _mm_cvtss_f32(p) < _mm_cvtss_f32(high(p)) {
            lane(high(lanes))
        } else {
            lane(lanes)
        }
    }

    /// `right` where the mask is set, `left` elsewhere.
    #[inline(always)]
    unsafe fn pick(mask: __m128, left: __m128, right: __m128) -> __m128 {
        _mm_or_ps(_mm_and_ps(mask, right), _mm_andnot_ps(mask, left))
    }

    /// Lane numbers as the bits of four lanes.
    #[inline(always)]
    unsafe fn lane_numbers(a: i32, b: i32, c: i32, d: i32) -> __m128 {
        _mm_castsi128_ps(_mm_setr_epi32(a, b, c, d))
    }

    /// The largest of the four lanes, in every lane: the lanes against their halves swapped,
    /// then against their neighbours swapped.
    #[inline(always)]
    unsafe fn every_lane_max(m: __m128) -> __m128 {
        let m = _mm_max_ps(m, _mm_shuffle_ps(m, m, 0b01_00_11_10));
        _mm_max_ps(m, _mm_shuffle_ps(m, m, 0b10_11_00_01))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answer every path must give: the first strictly larger projection.
    fn scan<const N: usize>(x: &[f32; N], y: &[f32; N], d: Vec2) -> usize {
        first_farthest_scalar(x, y, d)
    }

    #[test]
    fn the_first_farthest_lane_matches_a_scan_ties_included() {
        // Lanes on a circle, repeated lanes (exact ties between any two slots), collinear
        // lanes, padding copies of lane 0, and directions along the axes and diagonals
        // (where projections tie exactly) as well as in between.
        let circle: Vec<Vec2> = (0..8).map(|k| Vec2::from_angle(k as f32 * 0.785)).collect();
        let grid = [
            (0.0, -1.0),
            (1.0, -1.0),
            (1.0, 0.0),
            (1.0, 0.0),
            (1.0, 1.0),
            (0.0, 1.0),
            (-1.0, 1.0),
            (-1.0, 1.0),
        ];
        let grid: Vec<Vec2> = grid.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
        let mut padded = grid[..5].to_vec();
        padded.extend([grid[0]; 3]);
        let mut checked = 0;
        for points in [&circle, &grid, &padded] {
            let x8: [f32; 8] = std::array::from_fn(|k| points[k].x);
            let y8: [f32; 8] = std::array::from_fn(|k| points[k].y);
            let x4: [f32; 4] = std::array::from_fn(|k| points[k].x);
            let y4: [f32; 4] = std::array::from_fn(|k| points[k].y);
            for k in 0..256 {
                let d = Vec2::from_angle(k as f32 * std::f32::consts::TAU / 256.0);
                for d in [d, d.round(), 0.5 * d.round()] {
                    assert_eq!(first_farthest(&x8, &y8, d), scan(&x8, &y8, d), "{d}");
                    assert_eq!(first_farthest(&x4, &y4, d), scan(&x4, &y4, d), "{d}");
                    checked += 1;
                }
            }
            assert_eq!(first_farthest(&x8, &y8, Vec2::ZERO), 0);
            assert_eq!(first_farthest(&x8, &y8, -Vec2::ZERO), 0);
        }
        assert_eq!(checked, 3 * 256 * 3);
    }

    #[test]
    fn ties_in_every_match_of_the_tournament_go_to_the_lower_lane() {
        // Lanes on a 3 x 3 grid of small integers, so that along the axes and diagonals
        // many lanes project exactly equal: every match of the 8-lane tournament (even
        // against odd, neighbours, halves) meets ties, with the farthest lanes anywhere.
        let mut state = 0x2545_f491_u32;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state % 3) as f32 - 1.0
        };
        let directions = [
            Vec2::X,
            Vec2::Y,
            -Vec2::X,
            -Vec2::Y,
            Vec2::ONE,
            -Vec2::ONE,
            Vec2::new(1.0, -1.0),
            Vec2::new(-1.0, 1.0),
            Vec2::new(0.3, 0.7),
        ];
        for _ in 0..2000 {
            let x: [f32; 8] = std::array::from_fn(|_| next());
            let y: [f32; 8] = std::array::from_fn(|_| next());
            for d in directions {
                assert_eq!(
                    first_farthest(&x, &y, d),
                    scan(&x, &y, d),
                    "{x:?} {y:?} {d}"
                );
            }
        }
    }

    #[test]
    fn a_nan_direction_gives_a_lane_in_range() {
        let (x, y) = ([1.0f32; 8], [2.0f32; 8]);
        assert_eq!(first_farthest(&x, &y, Vec2::new(f32::NAN, 0.0)), 0);
        assert!(first_farthest(&x, &y, Vec2::new(f32::INFINITY, 0.0)) < 8);
    }
}
