//! The first farthest of a small core's vertices along a direction, for cores kept in fixed
//! coordinate arrays of 8 lanes (5- to 8-gons): the support look-up GJK waits on twice an
//! iteration (see `Shape::small_support_vertex`).
//!
//! Algorithm: project every lane at once (`x[k] * d.x + y[k] * d.y`, each lane the scalar
//! expression: IEEE products and sum, no fused multiply-add), then find the first lane with
//! the largest projection: the answer of a scan that keeps the first strictly larger
//! projection, ties included.
//! - 8 lanes: a knock-out tournament between blocks of neighbouring lanes (even lanes
//!   against odd ones, then neighbours, then halves), each match one compare that the
//!   winner's lane number follows by masks; in each match the right block wins only when
//!   strictly larger, so ties go to the lower lane.
//! - 4 lanes: the largest projection by halving (a maximum is exact: it is one of the
//!   projections), then the lowest lane whose projection equals it, from a bit mask of the
//!   lanes that compare equal.
//!
//! - 4 lanes stored in pair order (vertices 0, 2, 1, 3: see [`PAIR_ORDER`]), for the
//!   support look-ups on boxes and quads: the same knock-out tournament as
//!   `FixedCore::support_index` (0 against 1 and 2 against 3 in one compare, the lanes against
//!   their high half, then the two winners as scalars). The pairs already face each other
//!   in the stored order, so no lane is moved before the compare, and the winner comes from
//!   a table indexed by the compare's bit mask and the last compare.
//!
//! Each search has a mirror that finds the first *nearest* vertex, the lowest `k` with the
//! smallest projection: the first farthest along `-d`, found from the projections on `d`
//! (GJK looks A up along `d` and B along `-d`; both share one set of broadcast lanes). The
//! projections on `-d` are exactly the negated projections on `d` (IEEE products and sums
//! are symmetric under a sign change; only the sign of an exact zero sum can differ, and
//! compares do not see it), so every compare gives the same answer mirrored: `-a > -b`
//! exactly when `a < b`, and a NaN fails both.
//!
//! On x86_64 the steps are SSE operations (SSE is part of the x86_64 baseline); elsewhere a
//! scan over the arrays gives the same lane. Why a tournament in lanes rather than a scan:
//! docs/performance.md, "Notes moved out of the source headers", `simd/farthest.rs`.

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

/// The lowest `k` with the smallest `x[k] * d.x + y[k] * d.y` for 8 lanes: the lane
/// [`first_farthest`] gives along `-d` (see the header), NaN cases included.
#[inline(always)]
pub(crate) fn first_nearest(x: &[f32; 8], y: &[f32; 8], d: Vec2) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        sse::first_nearest(x, y, d)
    }
    #[cfg(not(target_arch = "x86_64"))]
    first_farthest_scalar(x, y, -d)
}

/// The storage order of a 4-lane core in pairs: lane `k` holds vertex `PAIR_ORDER[k]` (and
/// vertex `k` lies in lane `PAIR_ORDER[k]`: the order is its own inverse). The low half
/// holds vertices 0 and 2, the high half their opponents 1 and 3.
pub(crate) const PAIR_ORDER: [usize; 4] = [0, 2, 1, 3];

/// The winner of the 4-lane tournament: its vertex index and its lane in pair order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PairWinner {
    pub vertex: usize,
    pub lane: usize,
}

/// The winners by the tournament's outcome: entry `mask | later << 2`, where bit 0 of
/// `mask` says vertex 1 beat 0, bit 1 that 3 beat 2, and `later` that the winner of 2 and 3
/// beat the winner of 0 and 1. Entries `[vertex, lane]`.
const PAIR_WINNERS: [[u8; 2]; 8] = [
    [0, 0],
    [1, 2],
    [0, 0],
    [1, 2],
    [2, 1],
    [2, 1],
    [3, 3],
    [3, 3],
];

/// The winner from the outcome bits (see [`PAIR_WINNERS`]).
#[inline(always)]
fn pair_winner(mask: usize, later: bool) -> PairWinner {
    let [vertex, lane] = PAIR_WINNERS[(mask & 3) | (later as usize) << 2];
    PairWinner {
        vertex: usize::from(vertex),
        lane: usize::from(lane),
    }
}

/// The first farthest of 4 vertices stored in pair order (see [`PAIR_ORDER`]) along `d`:
/// the answer of `FixedCore::support_index`'s tournament (0 against 1, 2 against 3, the
/// right one winning only when strictly larger, then the winners the same way), NaN cases
/// included, so the lowest index of the largest projection when there is one.
#[inline(always)]
pub(crate) fn first_farthest_in_pairs(x: &[f32; 4], y: &[f32; 4], d: Vec2) -> PairWinner {
    #[cfg(target_arch = "x86_64")]
    {
        sse::in_pairs::<false>(x, y, d)
    }
    #[cfg(not(target_arch = "x86_64"))]
    in_pairs_scalar::<false>(x, y, d)
}

/// The same tournament for the first nearest vertex: the answer of
/// [`first_farthest_in_pairs`] along `-d` (see the header).
#[inline(always)]
pub(crate) fn first_nearest_in_pairs(x: &[f32; 4], y: &[f32; 4], d: Vec2) -> PairWinner {
    #[cfg(target_arch = "x86_64")]
    {
        sse::in_pairs::<true>(x, y, d)
    }
    #[cfg(not(target_arch = "x86_64"))]
    in_pairs_scalar::<true>(x, y, d)
}

/// The tournament in pair order as scalars (other targets, and the tests' reference for the
/// SSE form): each match lets the right vertex win only when strictly farther (or, for
/// `NEAREST`, strictly nearer).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn in_pairs_scalar<const NEAREST: bool>(x: &[f32; 4], y: &[f32; 4], d: Vec2) -> PairWinner {
    let p: [f32; 4] = std::array::from_fn(|k| x[k] * d.x + y[k] * d.y);
    let beats = |right: f32, left: f32| if NEAREST { right < left } else { right > left };
    // Lanes 0 and 1 hold vertices 0 and 2, lanes 2 and 3 their opponents 1 and 3.
    let (first, second) = (beats(p[2], p[0]), beats(p[3], p[1]));
    let best_01 = if first { p[2] } else { p[0] };
    let best_23 = if second { p[3] } else { p[1] };
    let mask = first as usize | (second as usize) << 1;
    pair_winner(mask, beats(best_23, best_01))
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

    /// See [`super::first_nearest`].
    #[inline(always)]
    pub(super) fn first_nearest(x: &[f32; 8], y: &[f32; 8], d: Vec2) -> usize {
        unsafe {
            let (dx, dy) = (_mm_set1_ps(d.x), _mm_set1_ps(d.y));
            let project = |k: usize| {
                let px = _mm_mul_ps(_mm_loadu_ps(x.as_ptr().add(k)), dx);
                let py = _mm_mul_ps(_mm_loadu_ps(y.as_ptr().add(k)), dy);
                _mm_add_ps(px, py)
            };
            nearest_by_matches(project(0), project(4))
        }
    }

    /// See [`super::first_farthest_in_pairs`] (`NEAREST` false) and
    /// [`super::first_nearest_in_pairs`]. The projections of the pairs' left vertices (0, 2)
    /// are lanes 0 and 1, their opponents' (1, 3) the high half, brought down by one move;
    /// one compare plays both first matches, and the better of each pair follows from it as
    /// a maximum (or minimum) whose operands are ordered so that it returns the right one
    /// exactly when the compare is true, as the scalar select does (NaN included):
    /// `max(a, b)` is `a > b ? a : b`, `min(a, b)` is `a < b ? a : b`.
    // SAFETY: as above; the loads read the 4 lanes of `x` and `y`.
    #[inline(always)]
    pub(super) fn in_pairs<const NEAREST: bool>(
        x: &[f32; 4],
        y: &[f32; 4],
        d: Vec2,
    ) -> super::PairWinner {
        unsafe {
            let px = _mm_mul_ps(_mm_loadu_ps(x.as_ptr()), _mm_set1_ps(d.x));
            let py = _mm_mul_ps(_mm_loadu_ps(y.as_ptr()), _mm_set1_ps(d.y));
            let left = _mm_add_ps(px, py);
            let right = _mm_movehl_ps(left, left);
            let (beats, best) = if NEAREST {
                (_mm_cmplt_ps(right, left), _mm_min_ps(right, left))
            } else {
                (_mm_cmplt_ps(left, right), _mm_max_ps(right, left))
            };
            let mask = _mm_movemask_ps(beats) as usize;
            let best_01 = _mm_cvtss_f32(best);
            let best_23 = _mm_cvtss_f32(_mm_shuffle_ps(best, best, 0b01));
            let later = if NEAREST {
                best_23 < best_01
            } else {
                best_23 > best_01
            };
            super::pair_winner(mask, later)
        }
    }

    /// [`by_matches`] mirrored: the first lane with the smallest of 8 projections, the lane
    /// `by_matches` gives on the negated projections (each compare with its operands
    /// swapped, each maximum a minimum).
    #[inline(always)]
    unsafe fn nearest_by_matches(low: __m128, high: __m128) -> usize {
        let even = _mm_shuffle_ps(low, high, 0b10_00_10_00);
        let odd = _mm_shuffle_ps(low, high, 0b11_01_11_01);
        let right = _mm_cmplt_ps(odd, even);
        let p = _mm_min_ps(even, odd);
        let lanes = pick(right, lane_numbers(0, 2, 4, 6), lane_numbers(1, 3, 5, 7));
        let swap = |v: __m128| _mm_shuffle_ps(v, v, 0b10_11_00_01);
        let right = _mm_cmplt_ps(swap(p), p);
        let p = _mm_min_ps(p, swap(p));
        let lanes = pick(right, lanes, swap(lanes));
        let high = |v: __m128| _mm_movehl_ps(v, v);
        let lane = |v: __m128| _mm_cvtsi128_si32(_mm_castps_si128(v)) as usize;
        if _mm_cvtss_f32(high(p)) < _mm_cvtss_f32(p) {
            lane(high(lanes))
        } else {
            lane(lanes)
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
        // The last match as a scalar compare and a select (why: docs/performance.md, "Notes
        // moved out of the source headers", `simd/farthest.rs`).
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

    /// The answer the 4-lane look-up gave before its lanes were stored in pair order
    /// (`FixedCore::support_index` on vertices in order): a knock-out tournament of scalar
    /// selects, 0 against 1 and 2 against 3, then the winners, the right one winning only
    /// when strictly larger. It decides NaN cases too, so the new look-ups must agree with
    /// it on them.
    fn tournament(points: &[Vec2; 4], d: Vec2) -> usize {
        let mut best: [f32; 4] = std::array::from_fn(|k| points[k].x * d.x + points[k].y * d.y);
        let mut index = [0, 1, 2, 3];
        for width in [1, 2] {
            for k in (0..4).step_by(2 * width) {
                let right = best[k + width] > best[k];
                best[k] = if right { best[k + width] } else { best[k] };
                index[k] = if right { index[k + width] } else { index[k] };
            }
        }
        index[0]
    }

    /// A small xorshift generator and the awkward values the look-ups must not mishandle.
    struct Cases(u64);

    impl Cases {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn unit(&mut self) -> f32 {
            (self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
        }

        /// A coordinate: random at a random scale, a small integer (exact ties), or a
        /// special value (zeros of both signs, subnormal, huge, infinite, NaN).
        fn value(&mut self) -> f32 {
            const SPECIAL: [f32; 12] = [
                0.0,
                -0.0,
                1.0,
                -1.0,
                1e-45,
                f32::MIN_POSITIVE,
                1e-30,
                1e30,
                f32::MAX,
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::NAN,
            ];
            const SCALES: [f32; 6] = [1e-30, 1e-6, 1.0, 3.0, 1e6, 1e30];
            match self.next() % 8 {
                0 => SPECIAL[(self.next() % 12) as usize],
                1 | 2 => (self.next() % 3) as f32 - 1.0,
                _ => self.unit() * SCALES[(self.next() % 6) as usize],
            }
        }

        /// Four points: random ones, a box (or a 4-gon on an ellipse) turned by a random,
        /// quarter, or 1e-6 turn, repeated points, or points made of awkward coordinates.
        fn points(&mut self) -> [Vec2; 4] {
            match self.next() % 4 {
                0 => std::array::from_fn(|_| Vec2::new(self.value(), self.value())),
                1 => {
                    let h = Vec2::new(self.unit().abs() + 0.1, self.unit().abs() + 0.1);
                    let turn = match self.next() % 4 {
                        0 => (self.next() % 4) as f32 * std::f32::consts::FRAC_PI_2,
                        1 => (self.next() % 4) as f32 * std::f32::consts::FRAC_PI_2 + 1e-6,
                        _ => self.unit() * std::f32::consts::PI,
                    };
                    let scale = [1e-6, 1.0, 1e6][(self.next() % 3) as usize];
                    let r = Vec2::from_angle(turn);
                    let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
                    corners.map(|(sx, sy)| r.rotate(Vec2::new(sx * h.x, sy * h.y)) * scale)
                }
                2 => {
                    let a = Vec2::new(self.unit(), self.unit());
                    let b = Vec2::new(self.unit(), self.unit());
                    let pick = self.next();
                    std::array::from_fn(|k| if pick >> k & 1 == 0 { a } else { b })
                }
                _ => std::array::from_fn(|_| Vec2::new(self.unit(), self.unit())),
            }
        }

        /// A direction: random, along an axis or a diagonal (exact ties on boxes), with
        /// zeros of either sign, tiny or huge, or with an infinite or NaN component.
        fn direction(&mut self) -> Vec2 {
            match self.next() % 4 {
                0 => Vec2::new(self.value(), self.value()),
                1 => {
                    let axes = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 1.0)];
                    let (x, y) = axes[(self.next() % 5) as usize];
                    let zero = if self.next() & 1 == 0 { 0.0 } else { -0.0 };
                    Vec2::new(x + zero, y + zero) * [1.0, -1.0, 1e-6][(self.next() % 3) as usize]
                }
                _ => Vec2::new(self.unit(), self.unit()),
            }
        }
    }

    #[test]
    fn the_pair_ordered_look_ups_match_the_tournament_bit_for_bit() {
        // The 4-lane look-ups on lanes stored in pair order, farthest along d and nearest
        // (farthest along -d), against the scalar tournament on the vertices in order: the
        // same vertex in every case (ties, zeros, infinities and NaN included), and a lane
        // that holds it. Every entry of the winners' table is reached.
        let mut cases = Cases(0x9e37_79b9_7f4a_7c15);
        let mut reached = [0u32; 8];
        for _ in 0..200_000 {
            let points = cases.points();
            let d = cases.direction();
            let x = PAIR_ORDER.map(|k| points[k].x);
            let y = PAIR_ORDER.map(|k| points[k].y);
            for (won, expected) in [
                (first_farthest_in_pairs(&x, &y, d), tournament(&points, d)),
                (first_nearest_in_pairs(&x, &y, d), tournament(&points, -d)),
            ] {
                assert_eq!(won.vertex, expected, "{points:?} {d}");
                assert_eq!(PAIR_ORDER[won.lane], won.vertex, "{points:?} {d}");
                assert_eq!(in_pairs_scalar::<false>(&x, &y, d), {
                    first_farthest_in_pairs(&x, &y, d)
                });
                assert_eq!(in_pairs_scalar::<true>(&x, &y, d), {
                    first_nearest_in_pairs(&x, &y, d)
                });
                let key = PAIR_WINNERS
                    .iter()
                    .position(|w| usize::from(w[0]) == won.vertex)
                    .unwrap();
                reached[key] += 1;
            }
        }
        // Per vertex (the first table entry naming it), each reached often.
        for vertex in 0..4 {
            let key = PAIR_WINNERS
                .iter()
                .position(|w| usize::from(w[0]) == vertex)
                .unwrap();
            assert!(reached[key] > 1_000, "{reached:?}");
        }
    }

    #[test]
    fn the_nearest_lane_of_eight_is_the_farthest_along_the_opposite_direction() {
        // `first_nearest` on 8 lanes against `first_farthest` along -d: the same lane in
        // every case, with the awkward coordinates and directions above, exact ties on a
        // grid, and padding copies of lane 0.
        let mut cases = Cases(0x2545_f491_4f6c_dd1d);
        for k in 0..200_000 {
            let (mut x, mut y) = ([0.0f32; 8], [0.0f32; 8]);
            for lane in 0..8 {
                let p = match k % 3 {
                    0 => Vec2::new(cases.value(), cases.value()),
                    1 => Vec2::new(
                        (cases.next() % 3) as f32 - 1.0,
                        (cases.next() % 3) as f32 - 1.0,
                    ),
                    _ => Vec2::new(cases.unit(), cases.unit()),
                };
                (x[lane], y[lane]) = (p.x, p.y);
            }
            if k % 7 == 0 {
                for lane in 5..8 {
                    (x[lane], y[lane]) = (x[0], y[0]);
                }
            }
            let d = cases.direction();
            assert_eq!(
                first_nearest(&x, &y, d),
                first_farthest(&x, &y, -d),
                "{x:?} {y:?} {d}"
            );
        }
    }

    #[test]
    fn a_nan_direction_gives_a_lane_in_range() {
        let (x, y) = ([1.0f32; 8], [2.0f32; 8]);
        assert_eq!(first_farthest(&x, &y, Vec2::new(f32::NAN, 0.0)), 0);
        assert!(first_farthest(&x, &y, Vec2::new(f32::INFINITY, 0.0)) < 8);
    }
}
