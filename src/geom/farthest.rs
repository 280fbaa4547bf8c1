//! The first farthest of a small core's vertices along a direction, for cores kept in fixed
//! coordinate arrays of 8 lanes (5- to 8-gons): the support look-up GJK waits on twice an
//! iteration (see `Shape::small_support_vertex`).
//!
//! Algorithm: project every lane at once (`x[k] * d.x + y[k] * d.y`, each lane the scalar
//! expression: IEEE products and sum, no fused multiply-add), take the largest projection
//! by halving (a maximum is exact: it is one of the projections), then the lowest lane whose
//! projection equals it, from a bit mask of the lanes that compare equal. That is the answer
//! of a scan that keeps the first strictly larger projection, ties included: a lane equal
//! to the maximum that comes first is the one such a scan keeps. On x86_64 the projections,
//! the maximum and the compares each take one or two SSE instructions (SSE is part of the
//! x86_64 baseline) and the mask one `movmskps`; elsewhere the same steps run on arrays.

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
            let mask = if N == 8 {
                let high = project(4);
                let top = every_lane_max(_mm_max_ps(low, high));
                (_mm_movemask_ps(_mm_cmpeq_ps(low, top))
                    | _mm_movemask_ps(_mm_cmpeq_ps(high, top)) << 4) as u32
            } else {
                let top = every_lane_max(low);
                _mm_movemask_ps(_mm_cmpeq_ps(low, top)) as u32
            };
            // An empty mask (NaN projections) gives N, wrapped to lane 0.
            ((mask | 1 << N).trailing_zeros() as usize) & (N - 1)
        }
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
    fn a_nan_direction_gives_a_lane_in_range() {
        let (x, y) = ([1.0f32; 8], [2.0f32; 8]);
        assert_eq!(first_farthest(&x, &y, Vec2::new(f32::NAN, 0.0)), 0);
        assert!(first_farthest(&x, &y, Vec2::new(f32::INFINITY, 0.0)) < 8);
    }
}
