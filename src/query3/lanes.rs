//! Four `f32` side by side, for loops that do the same arithmetic on many vertices or edges
//! (the sweep's projections and Gauss-map tests): one SSE register on x86_64, a plain array
//! elsewhere. Each lane is computed exactly as the scalar expression would be (IEEE products
//! and sums, no fused multiply-add), so results are the same numbers bit for bit on every
//! target; `min` and `max` are the plain compares `if a < b { a } else { b }`, which is what
//! SSE's `minps`/`maxps` compute.

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
        /// Bit `k` set when lane `k` has `!(p >= 0) && q < 0 && r > 0` (`p >= 0` is false
        /// for a NaN, as in scalar code).
        #[inline(always)]
        pub(crate) fn not_nonnegative_negative_positive(p: Four, q: Four, r: Four) -> u32 {
            unsafe {
                let zero = _mm_setzero_ps();
                let both = _mm_and_ps(_mm_cmplt_ps(q.0, zero), _mm_cmpgt_ps(r.0, zero));
                _mm_movemask_ps(_mm_andnot_ps(_mm_cmpge_ps(p.0, zero), both)) as u32
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
        pub(crate) fn not_nonnegative_negative_positive(p: Four, q: Four, r: Four) -> u32 {
            (0..4)
                .map(|k| ((!(p.0[k] >= 0.0) && q.0[k] < 0.0 && r.0[k] > 0.0) as u32) << k)
                .sum()
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
    /// Bit `k` set when lane `k` is `> 0` (not for a NaN).
    #[inline(always)]
    pub(crate) fn positive_bits(self) -> u32 {
        let minus_one = Four::splat(-1.0);
        Four::not_nonnegative_negative_positive(minus_one, minus_one, self)
    }

    /// Bit `k` set when lane `k` is `< 0` (not for a NaN).
    #[inline(always)]
    pub(crate) fn negative_bits(self) -> u32 {
        Four::not_nonnegative_negative_positive(Four::splat(-1.0), self, Four::splat(1.0))
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
        let p = Four::load(&[-1.0, f32::NAN, 1.0, -1.0]);
        let q = Four::load(&[-1.0, -1.0, -1.0, 1.0]);
        let r = Four::load(&[1.0, 1.0, 1.0, 1.0]);
        assert_eq!(Four::not_nonnegative_negative_positive(p, q, r), 0b0011);
    }

    #[test]
    fn signs_and_differences_by_lane() {
        let x = Four::load(&[1.5, -0.0, f32::NAN, -2.0]);
        assert_eq!(x.positive_bits(), 0b0001);
        assert_eq!(x.negative_bits(), 0b1000);
        let (a, b) = ([0.3f32, -7.0, 1.0e-3, 5.0], [0.1f32, 2.0, 1.0e-3, -1.0e30]);
        let d = Four::load(&a).sub(Four::load(&b)).to_array();
        for k in 0..4 {
            assert_eq!(d[k].to_bits(), (a[k] - b[k]).to_bits());
        }
    }
}
