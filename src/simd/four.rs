//! [`Four`]: four `f32` side by side, one SSE register on x86_64 (SSE is part of the x86_64
//! baseline), a plain array elsewhere. Each lane is computed exactly as the scalar
//! expression would be (IEEE products and sums, no fused multiply-add), so results are the
//! same numbers bit for bit on every target; `min` and `max` are the plain compares
//! `if a < b { a } else { b }`, which is what SSE's `minps`/`maxps` compute.

/// SAFETY (every `unsafe` block below without its own comment): SSE is part of the x86_64
/// baseline, so the SSE intrinsics are always available; they only compute on registers.
#[cfg(target_arch = "x86_64")]
mod imp {
    use std::arch::x86_64::*;

    #[derive(Clone, Copy)]
    pub(crate) struct Four(__m128);

    impl Four {
        #[inline(always)]
        pub(crate) fn load(values: &[f32; 4]) -> Four {
            // SAFETY: `values` is four readable f32; the load has no alignment requirement.
            Four(unsafe { _mm_loadu_ps(values.as_ptr()) })
        }
        #[inline(always)]
        pub(crate) fn splat(value: f32) -> Four {
            Four(unsafe { _mm_set1_ps(value) })
        }
        #[inline(always)]
        pub(crate) fn mul(self, other: Four) -> Four {
            Four(unsafe { _mm_mul_ps(self.0, other.0) })
        }
        #[inline(always)]
        pub(crate) fn add(self, other: Four) -> Four {
            Four(unsafe { _mm_add_ps(self.0, other.0) })
        }
        /// Per lane `if self < other { self } else { other }`.
        #[inline(always)]
        pub(crate) fn min(self, other: Four) -> Four {
            Four(unsafe { _mm_min_ps(self.0, other.0) })
        }
        /// Per lane `if self > other { self } else { other }`.
        #[inline(always)]
        pub(crate) fn max(self, other: Four) -> Four {
            Four(unsafe { _mm_max_ps(self.0, other.0) })
        }
        /// The lanes as an array.
        #[inline(always)]
        pub(crate) fn to_array(self) -> [f32; 4] {
            let mut out = [0.0; 4];
            // SAFETY: `out` is four writable f32; the store has no alignment requirement.
            unsafe { _mm_storeu_ps(out.as_mut_ptr(), self.0) };
            out
        }
        /// The register (for [`super::Eight`]'s halves).
        #[inline(always)]
        pub(crate) fn m128(self) -> __m128 {
            self.0
        }
        #[inline(always)]
        pub(crate) fn from_m128(raw: __m128) -> Four {
            Four(raw)
        }
        /// Lane `k` (0 to 3) in every lane.
        #[inline(always)]
        pub(crate) fn splat_lane(self, k: usize) -> Four {
            let v = self.0;
            Four(unsafe {
                match k {
                    0 => _mm_shuffle_ps::<0b00_00_00_00>(v, v),
                    1 => _mm_shuffle_ps::<0b01_01_01_01>(v, v),
                    2 => _mm_shuffle_ps::<0b10_10_10_10>(v, v),
                    _ => _mm_shuffle_ps::<0b11_11_11_11>(v, v),
                }
            })
        }
        /// Lane `k` takes lane `k + 1`, and lane 3 is `0.0`: each lane beside the next one.
        #[inline(always)]
        pub(crate) fn shifted_down(self) -> Four {
            Four(unsafe { _mm_castsi128_ps(_mm_srli_si128::<4>(_mm_castps_si128(self.0))) })
        }
        /// The least lane of `a` and of `b` by halving, in every lane: lane `k` of each
        /// against lane `k + 2`, then lane 0 against lane 1, then `a`'s least against `b`'s,
        /// each step the plain compare of [`Four::min`] with the left operand first (ties,
        /// signed zeros and NaNs pick as `small.rs`'s `least_of` and `lower` pick).
        #[inline(always)]
        pub(crate) fn least_lane_of_both(a: Four, b: Four) -> Four {
            unsafe {
                // [a0 a1 b0 b1] against [a2 a3 b2 b3].
                let pairs = _mm_min_ps(_mm_movelh_ps(a.0, b.0), _mm_movehl_ps(b.0, a.0));
                // Lane 0: a01 against a23's lane, lane 2: b's.
                let bodies = _mm_min_ps(pairs, _mm_shuffle_ps::<0b11_11_01_01>(pairs, pairs));
                // Lane 0: a's least against b's.
                let least = _mm_min_ss(bodies, _mm_movehl_ps(bodies, bodies));
                Four(_mm_shuffle_ps::<0>(least, least))
            }
        }
        /// A mask: lane `k` all ones where bit `k` (0 to 3) of `bits` is set, zero elsewhere
        /// (higher bits are ignored).
        #[inline(always)]
        pub(crate) fn mask_of_bits(bits: u32) -> Four {
            unsafe {
                let lane_bits = _mm_setr_epi32(1, 2, 4, 8);
                let set = _mm_and_si128(_mm_set1_epi32(bits as i32), lane_bits);
                Four(_mm_castsi128_ps(_mm_cmpeq_epi32(set, lane_bits)))
            }
        }
        /// Lanes 0 and 1, written by one 8-byte store (a load of both as one value right
        /// after can then be forwarded from the store, which it cannot from two).
        #[inline(always)]
        pub(crate) fn low_pair(self) -> [f32; 2] {
            let mut out = [0.0f32; 2];
            // SAFETY: `out` is two writable f32: the 8 bytes the store writes, unaligned.
            unsafe { _mm_store_sd(out.as_mut_ptr().cast(), _mm_castps_pd(self.0)) };
            out
        }
        /// The xs and the ys of four points stored as `x, y` pairs (`glam::Vec2`): two loads
        /// of four floats and a shuffle of each half.
        #[inline(always)]
        pub(crate) fn load_pairs(points: &[glam::Vec2; 4]) -> (Four, Four) {
            const { assert!(std::mem::size_of::<glam::Vec2>() == 8) };
            let at = points.as_ptr().cast::<f32>();
            // SAFETY: a `Vec2` is two `f32` (`#[repr(C)]` under glam's `scalar-math`), so
            // `points` is eight readable `f32`; the loads read the first and the last four,
            // unaligned.
            unsafe {
                let (front, back) = (_mm_loadu_ps(at), _mm_loadu_ps(at.add(4)));
                (
                    Four(_mm_shuffle_ps::<0b10_00_10_00>(front, back)),
                    Four(_mm_shuffle_ps::<0b11_01_11_01>(front, back)),
                )
            }
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod imp {
    #[derive(Clone, Copy)]
    pub(crate) struct Four([f32; 4]);

    impl Four {
        #[inline(always)]
        pub(crate) fn load(values: &[f32; 4]) -> Four {
            Four(*values)
        }
        #[inline(always)]
        pub(crate) fn splat(value: f32) -> Four {
            Four([value; 4])
        }
        #[inline(always)]
        pub(crate) fn mul(self, other: Four) -> Four {
            Four(std::array::from_fn(|k| self.0[k] * other.0[k]))
        }
        #[inline(always)]
        pub(crate) fn add(self, other: Four) -> Four {
            Four(std::array::from_fn(|k| self.0[k] + other.0[k]))
        }
        #[inline(always)]
        pub(crate) fn min(self, other: Four) -> Four {
            Four(std::array::from_fn(|k| {
                if self.0[k] < other.0[k] {
                    self.0[k]
                } else {
                    other.0[k]
                }
            }))
        }
        #[inline(always)]
        pub(crate) fn max(self, other: Four) -> Four {
            Four(std::array::from_fn(|k| {
                if self.0[k] > other.0[k] {
                    self.0[k]
                } else {
                    other.0[k]
                }
            }))
        }
        #[inline(always)]
        pub(crate) fn to_array(self) -> [f32; 4] {
            self.0
        }
        #[inline(always)]
        pub(crate) fn splat_lane(self, k: usize) -> Four {
            Four([self.0[k]; 4])
        }
        #[inline(always)]
        pub(crate) fn shifted_down(self) -> Four {
            let [_, b, c, d] = self.0;
            Four([b, c, d, 0.0])
        }
        #[inline(always)]
        pub(crate) fn least_lane_of_both(a: Four, b: Four) -> Four {
            let low = |p: f32, q: f32| if p < q { p } else { q };
            let least = |v: [f32; 4]| low(low(v[0], v[2]), low(v[1], v[3]));
            Four([low(least(a.0), least(b.0)); 4])
        }
        #[inline(always)]
        pub(crate) fn mask_of_bits(bits: u32) -> Four {
            Four(std::array::from_fn(|k| {
                f32::from_bits(if bits & (1 << k) != 0 { u32::MAX } else { 0 })
            }))
        }
        #[inline(always)]
        pub(crate) fn low_pair(self) -> [f32; 2] {
            [self.0[0], self.0[1]]
        }
        #[inline(always)]
        pub(crate) fn load_pairs(points: &[glam::Vec2; 4]) -> (Four, Four) {
            (Four(points.map(|p| p.x)), Four(points.map(|p| p.y)))
        }
    }
}

pub(crate) use imp::Four;

impl Four {
    /// `x * a + y * b + z * c` per lane, in that order (as `Vec3::dot`).
    #[inline(always)]
    pub(crate) fn dot3(x: Four, y: Four, z: Four, a: Four, b: Four, c: Four) -> Four {
        x.mul(a).add(y.mul(b)).add(z.mul(c))
    }

    /// The smallest lane (plain compares, as [`Four::min`]).
    #[inline(always)]
    pub(crate) fn min_lane(self) -> f32 {
        let [a, b, c, d] = self.to_array();
        let low = |p: f32, q: f32| if p < q { p } else { q };
        low(low(a, b), low(c, d))
    }

    /// The largest lane (plain compares, as [`Four::max`]).
    #[inline(always)]
    pub(crate) fn max_lane(self) -> f32 {
        let [a, b, c, d] = self.to_array();
        let high = |p: f32, q: f32| if p > q { p } else { q };
        high(high(a, b), high(c, d))
    }
}

impl Four {
    /// Per lane `self - other` (`other * -1` is exact, and `a + -b` is `a - b`).
    #[inline(always)]
    pub(crate) fn sub(self, other: Four) -> Four {
        self.add(other.mul(Four::splat(-1.0)))
    }
}

impl Four {
    /// Bit `k` set when lane `k`'s sign bit is (a negative number, `-0.0`, a NaN with its
    /// sign bit set).
    #[inline(always)]
    pub(crate) fn sign_bits(self) -> u32 {
        self.mask_bits()
    }
}

/// Lane arithmetic for the sweep's axes taken four at a time (its face axes): differences,
/// quotients, compares and selects, each lane exactly the scalar operation (`minus` is the
/// IEEE subtraction, `div` the IEEE division), and the extremes of four vectors at once.
#[cfg(target_arch = "x86_64")]
mod more {
    use super::Four;
    use std::arch::x86_64::*;

    // SAFETY (every `unsafe` block here): SSE is part of the x86_64 baseline; the intrinsics
    // only compute on registers.
    impl Four {
        #[inline(always)]
        fn raw(self) -> __m128 {
            self.m128()
        }
        #[inline(always)]
        fn wrap(raw: __m128) -> Four {
            Four::from_m128(raw)
        }
        /// Per lane `self - other`.
        #[inline(always)]
        pub(crate) fn minus(self, other: Four) -> Four {
            Four::wrap(unsafe { _mm_sub_ps(self.raw(), other.raw()) })
        }
        /// Per lane `self / other`.
        #[inline(always)]
        pub(crate) fn div(self, other: Four) -> Four {
            Four::wrap(unsafe { _mm_div_ps(self.raw(), other.raw()) })
        }
        /// Per lane `-self` (the sign flipped, as scalar negation).
        #[inline(always)]
        pub(crate) fn neg(self) -> Four {
            Four::wrap(unsafe { _mm_xor_ps(self.raw(), _mm_set1_ps(-0.0)) })
        }
        /// Per lane the square root (IEEE, as `f32::sqrt`).
        #[inline(always)]
        pub(crate) fn sqrt(self) -> Four {
            Four::wrap(unsafe { _mm_sqrt_ps(self.raw()) })
        }
        /// Per lane a mask: all ones where `self > other`, zero elsewhere (and for a NaN).
        #[inline(always)]
        pub(crate) fn gt(self, other: Four) -> Four {
            Four::wrap(unsafe { _mm_cmpgt_ps(self.raw(), other.raw()) })
        }
        /// Per lane a mask: all ones where `self <= other`, zero elsewhere (and for a NaN).
        #[inline(always)]
        pub(crate) fn le(self, other: Four) -> Four {
            Four::wrap(unsafe { _mm_cmple_ps(self.raw(), other.raw()) })
        }
        /// Per lane a mask: all ones where `self < other`, zero elsewhere (and for a NaN).
        #[inline(always)]
        pub(crate) fn lt(self, other: Four) -> Four {
            Four::wrap(unsafe { _mm_cmplt_ps(self.raw(), other.raw()) })
        }
        /// Per lane a mask: all ones where `self == other`, zero elsewhere (and for a NaN;
        /// `0.0` equals `-0.0`).
        #[inline(always)]
        pub(crate) fn eq(self, other: Four) -> Four {
            Four::wrap(unsafe { _mm_cmpeq_ps(self.raw(), other.raw()) })
        }
        /// Lanes of two masks both set.
        #[inline(always)]
        pub(crate) fn and(self, other: Four) -> Four {
            Four::wrap(unsafe { _mm_and_ps(self.raw(), other.raw()) })
        }
        /// Lanes of either mask set.
        #[inline(always)]
        pub(crate) fn or(self, other: Four) -> Four {
            Four::wrap(unsafe { _mm_or_ps(self.raw(), other.raw()) })
        }
        /// Per lane `yes` where the mask `self` is set, `no` elsewhere.
        #[inline(always)]
        pub(crate) fn select(self, yes: Four, no: Four) -> Four {
            let m = self.raw();
            Four::wrap(unsafe { _mm_or_ps(_mm_and_ps(m, yes.raw()), _mm_andnot_ps(m, no.raw())) })
        }
        /// Per lane `self` where the mask `keep` is set, `-self` elsewhere: the sign bit
        /// flipped where the mask is clear (as [`Four::select`] of `self` and
        /// [`Four::neg`], in two operations).
        #[inline(always)]
        pub(crate) fn negated_unless(self, keep: Four) -> Four {
            let flip = unsafe { _mm_andnot_ps(keep.raw(), _mm_set1_ps(-0.0)) };
            Four::wrap(unsafe { _mm_xor_ps(self.raw(), flip) })
        }
        /// Bit `k` set when lane `k` of the mask `self` is set (its sign bit).
        #[inline(always)]
        pub(crate) fn mask_bits(self) -> u32 {
            unsafe { _mm_movemask_ps(self.raw()) as u32 }
        }
        /// Lane `k` is the smallest lane of the `k`-th vector (plain compares, as
        /// [`Four::min`]; which of two equal zeros is kept may differ from
        /// [`Four::min_lane`]).
        #[inline(always)]
        pub(crate) fn min_lanes_of(v: [Four; 4]) -> Four {
            Four::wrap(unsafe { reduce(v, |p, q| _mm_min_ps(p, q)) })
        }
        /// Lane `k` is the largest lane of the `k`-th vector (as [`Four::min_lanes_of`]).
        #[inline(always)]
        pub(crate) fn max_lanes_of(v: [Four; 4]) -> Four {
            Four::wrap(unsafe { reduce(v, |p, q| _mm_max_ps(p, q)) })
        }
    }

    /// Lane `k` is `op` folded over the lanes of `v[k]`: a transpose by unpacks, two folds.
    #[inline(always)]
    unsafe fn reduce(v: [Four; 4], op: impl Fn(__m128, __m128) -> __m128) -> __m128 {
        let [a, b, c, d] = v.map(Four::raw);
        // [a0 b0 a1 b1] op [a2 b2 a3 b3] = [a02 b02 a13 b13]; the same for c, d.
        let ab = op(_mm_unpacklo_ps(a, b), _mm_unpackhi_ps(a, b));
        let cd = op(_mm_unpacklo_ps(c, d), _mm_unpackhi_ps(c, d));
        // [a02 b02 c02 d02] op [a13 b13 c13 d13].
        op(_mm_movelh_ps(ab, cd), _mm_movehl_ps(cd, ab))
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod more {
    use super::Four;

    impl Four {
        #[inline(always)]
        fn each(self, other: Four, f: impl Fn(f32, f32) -> f32) -> Four {
            let (p, q) = (self.to_array(), other.to_array());
            Four::load(&std::array::from_fn(|k| f(p[k], q[k])))
        }
        #[inline(always)]
        fn mask(set: bool) -> f32 {
            f32::from_bits(if set { u32::MAX } else { 0 })
        }
        #[inline(always)]
        fn bits(self, f: impl Fn(f32) -> bool) -> u32 {
            let p = self.to_array();
            (0..4).map(|k| (f(p[k]) as u32) << k).sum()
        }
        #[inline(always)]
        pub(crate) fn minus(self, other: Four) -> Four {
            self.each(other, |p, q| p - q)
        }
        #[inline(always)]
        pub(crate) fn div(self, other: Four) -> Four {
            self.each(other, |p, q| p / q)
        }
        #[inline(always)]
        pub(crate) fn neg(self) -> Four {
            self.each(self, |p, _| -p)
        }
        #[inline(always)]
        pub(crate) fn sqrt(self) -> Four {
            self.each(self, |p, _| p.sqrt())
        }
        #[inline(always)]
        pub(crate) fn gt(self, other: Four) -> Four {
            self.each(other, |p, q| Four::mask(p > q))
        }
        #[inline(always)]
        pub(crate) fn le(self, other: Four) -> Four {
            self.each(other, |p, q| Four::mask(p <= q))
        }
        #[inline(always)]
        pub(crate) fn lt(self, other: Four) -> Four {
            self.each(other, |p, q| Four::mask(p < q))
        }
        #[inline(always)]
        pub(crate) fn eq(self, other: Four) -> Four {
            self.each(other, |p, q| Four::mask(p == q))
        }
        #[inline(always)]
        pub(crate) fn and(self, other: Four) -> Four {
            self.each(other, |p, q| f32::from_bits(p.to_bits() & q.to_bits()))
        }
        #[inline(always)]
        pub(crate) fn or(self, other: Four) -> Four {
            self.each(other, |p, q| f32::from_bits(p.to_bits() | q.to_bits()))
        }
        #[inline(always)]
        pub(crate) fn select(self, yes: Four, no: Four) -> Four {
            let (m, y, n) = (self.to_array(), yes.to_array(), no.to_array());
            Four::load(&std::array::from_fn(|k| {
                if m[k].to_bits() != 0 {
                    y[k]
                } else {
                    n[k]
                }
            }))
        }
        #[inline(always)]
        pub(crate) fn negated_unless(self, keep: Four) -> Four {
            keep.select(self, self.neg())
        }
        #[inline(always)]
        pub(crate) fn mask_bits(self) -> u32 {
            self.bits(|p| p.is_sign_negative())
        }
        #[inline(always)]
        pub(crate) fn min_lanes_of(v: [Four; 4]) -> Four {
            Four::load(&v.map(Four::min_lane))
        }
        #[inline(always)]
        pub(crate) fn max_lanes_of(v: [Four; 4]) -> Four {
            Four::load(&v.map(Four::max_lane))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_equal_the_scalar_expressions() {
        let x = [1.5f32, -2.25, 0.1, 3.0e5];
        let y = [0.3f32, 7.0, -0.2, 1.0e-3];
        let z = [-4.0f32, 0.5, 0.7, 2.0];
        let (a, b, c) = (0.267_f32, -0.534, 0.801);
        let d = Four::dot3(
            Four::load(&x),
            Four::load(&y),
            Four::load(&z),
            Four::splat(a),
            Four::splat(b),
            Four::splat(c),
        )
        .to_array();
        for k in 0..4 {
            assert_eq!(d[k].to_bits(), (x[k] * a + y[k] * b + z[k] * c).to_bits());
        }
        let v = Four::load(&d);
        assert_eq!(
            v.min_lane(),
            d.iter().copied().fold(f32::INFINITY, f32::min)
        );
        assert_eq!(
            v.max_lane(),
            d.iter().copied().fold(f32::NEG_INFINITY, f32::max)
        );
    }

    #[test]
    fn signs_and_differences_by_lane() {
        let x = Four::load(&[1.5, -0.0, f32::NAN, -2.0]);
        assert_eq!(x.sign_bits(), 0b1010);
        assert_eq!(
            Four::load(&[-f32::NAN, 0.0, -1.0e-45, 1.0e-45]).sign_bits(),
            0b0101
        );
        let (a, b) = ([0.3f32, -7.0, 1.0e-3, 5.0], [0.1f32, 2.0, 1.0e-3, -1.0e30]);
        let d = Four::load(&a).sub(Four::load(&b)).to_array();
        for k in 0..4 {
            assert_eq!(d[k].to_bits(), (a[k] - b[k]).to_bits());
        }
    }

    #[test]
    fn lane_arithmetic_compares_and_reductions_equal_the_scalar_ones() {
        let a = [0.3f32, -7.0, 1.0e-3, 5.0];
        let b = [0.1f32, 2.0, -3.0e-3, -1.0e30];
        let (p, q) = (Four::load(&a), Four::load(&b));
        let (minus, div, neg) = (
            p.minus(q).to_array(),
            p.div(q).to_array(),
            p.neg().to_array(),
        );
        for k in 0..4 {
            assert_eq!(minus[k].to_bits(), (a[k] - b[k]).to_bits());
            assert_eq!(div[k].to_bits(), (a[k] / b[k]).to_bits());
            assert_eq!(neg[k].to_bits(), (-a[k]).to_bits());
        }
        let roots = [2.0f32, 0.0, -0.0, 1.0e-38, 3.0e38, 4.0, f32::INFINITY, 0.7];
        for four in roots.chunks(4) {
            let four: [f32; 4] = four.try_into().expect("four");
            let got = Four::load(&four).sqrt().to_array();
            for k in 0..4 {
                assert_eq!(
                    got[k].to_bits(),
                    four[k].sqrt().to_bits(),
                    "sqrt {}",
                    four[k]
                );
            }
        }
        let set = |m: Four| m.select(Four::splat(1.0), Four::splat(0.0)).to_array();
        assert_eq!(set(p.gt(q)), [1.0, 0.0, 1.0, 1.0]);
        assert_eq!(set(p.le(q)), [0.0, 1.0, 0.0, 0.0]);
        assert_eq!(
            set(p.gt(q).and(p.le(Four::splat(1.0)))),
            [1.0, 0.0, 1.0, 0.0]
        );
        assert_eq!(
            set(p.gt(q).or(p.le(Four::splat(-1.0)))),
            [1.0, 1.0, 1.0, 1.0]
        );
        let x = Four::load(&[1.5, -0.0, f32::NAN, -2.0e-30]);
        let zero = Four::splat(0.0);
        assert_eq!(x.gt(zero).mask_bits(), 0b0001);
        assert_eq!(zero.gt(x).mask_bits(), 0b1000);
        let v = [
            [3.0f32, -1.0, 2.0, 0.5],
            [9.0, 8.0, 7.0, 6.0],
            [-4.0, -5.0, 0.0, 1.0],
            [2.5, 2.5, 2.5, 2.5],
        ];
        let lanes = v.map(|r| Four::load(&r));
        let (low, high) = (Four::min_lanes_of(lanes), Four::max_lanes_of(lanes));
        let (low, high) = (low.to_array(), high.to_array());
        for (k, lane) in lanes.iter().enumerate() {
            assert_eq!(low[k], lane.min_lane());
            assert_eq!(high[k], lane.max_lane());
        }
    }

    #[test]
    fn lane_moves_masks_and_the_least_of_two_equal_the_scalar_ones() {
        let bits = |v: [f32; 4]| v.map(f32::to_bits);
        let rows = [
            [3.0f32, -0.0, 2.0, 0.0],
            [f32::NAN, 1.0, -5.0, 7.0],
            [0.0, -0.0, -0.0, 0.0],
            [1.0e-45, f32::INFINITY, -1.0e30, f32::NAN],
        ];
        // The plain compare with the left operand first, in the halving order.
        let low = |x: f32, y: f32| if x < y { x } else { y };
        let least = |v: [f32; 4]| low(low(v[0], v[2]), low(v[1], v[3]));
        for a in rows {
            let p = Four::load(&a);
            for (k, lane) in a.iter().enumerate() {
                assert_eq!(bits(p.splat_lane(k).to_array()), [lane.to_bits(); 4]);
            }
            assert_eq!(
                bits(p.shifted_down().to_array()),
                bits([a[1], a[2], a[3], 0.0])
            );
            assert_eq!(
                p.low_pair().map(f32::to_bits),
                [a[0].to_bits(), a[1].to_bits()]
            );
            for b in rows {
                let q = Four::load(&b);
                let expected = low(least(a), least(b)).to_bits();
                assert_eq!(
                    bits(Four::least_lane_of_both(p, q).to_array()),
                    [expected; 4]
                );
                let set = |m: Four| m.mask_bits();
                let by_lane = |f: fn(f32, f32) -> bool| {
                    (0..4).map(|k| u32::from(f(a[k], b[k])) << k).sum::<u32>()
                };
                assert_eq!(set(p.lt(q)), by_lane(|x, y| x < y));
                assert_eq!(set(p.eq(q)), by_lane(|x, y| x == y));
                let kept = p.negated_unless(p.le(q)).to_array();
                for k in 0..4 {
                    let scalar = if a[k] <= b[k] { a[k] } else { -a[k] };
                    assert_eq!(kept[k].to_bits(), scalar.to_bits());
                }
            }
        }
        for mask in 0..32u32 {
            let lanes = Four::mask_of_bits(mask).select(Four::splat(1.0), Four::splat(0.0));
            let expected: [f32; 4] = std::array::from_fn(|k| ((mask >> k) & 1) as f32);
            assert_eq!(lanes.to_array(), expected);
        }
        let points = [
            glam::Vec2::new(1.0, -2.0),
            glam::Vec2::new(3.5, 4.0),
            glam::Vec2::new(-0.0, f32::NAN),
            glam::Vec2::new(7.0, 8.0),
        ];
        let (xs, ys) = Four::load_pairs(&points);
        assert_eq!(bits(xs.to_array()), bits(points.map(|p| p.x)));
        assert_eq!(bits(ys.to_array()), bits(points.map(|p| p.y)));
    }
}
