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
            // SAFETY: `Four` is one `__m128` on x86_64; the store and load are unaligned.
            unsafe { _mm_loadu_ps(self.to_array().as_ptr()) }
        }
        #[inline(always)]
        fn wrap(raw: __m128) -> Four {
            let mut out = [0.0f32; 4];
            // SAFETY: `out` is four writable f32.
            unsafe { _mm_storeu_ps(out.as_mut_ptr(), raw) };
            Four::load(&out)
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
}
