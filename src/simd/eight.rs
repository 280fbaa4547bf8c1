//! [`Eight`]: eight `f32` side by side in one AVX register, and [`Avx`], the proof that the
//! processor has AVX. AVX's operations on 256 bits are SSE's on 128 twice over (IEEE
//! products, sums and compares, `maxps`' plain compare), so each lane is [`Four`]'s number
//! bit for bit. Only on x86_64.

use super::{Four, Lanes};
use std::arch::x86_64::*;

/// Proof that the processor has AVX: only [`Avx::detect`] makes one.
#[derive(Clone, Copy)]
pub(crate) struct Avx(());

impl Avx {
    /// `Some` when the processor has AVX (the check is cached by the standard library).
    #[inline]
    pub(crate) fn detect() -> Option<Avx> {
        std::arch::is_x86_feature_detected!("avx").then_some(Avx(()))
    }
}

#[derive(Clone, Copy)]
pub(crate) struct Eight(__m256);

// SAFETY (every `unsafe` block here): an `Eight` is made only with an `Avx`, so the
// processor has AVX; the intrinsics compute on registers, and the loads and stores are
// unaligned on slices checked to hold eight values.
impl Lanes for Eight {
    type Isa = Avx;
    const COUNT: usize = 8;
    #[inline(always)]
    fn splat(_: Avx, value: f32) -> Eight {
        Eight(unsafe { _mm256_set1_ps(value) })
    }
    #[inline(always)]
    fn load_from(_: Avx, values: &[f32]) -> Eight {
        let values: &[f32; 8] = values[..8].try_into().expect("eight values");
        Eight(unsafe { _mm256_loadu_ps(values.as_ptr()) })
    }
    #[inline(always)]
    fn store_to(self, out: &mut [f32]) {
        let out: &mut [f32; 8] = (&mut out[..8]).try_into().expect("eight places");
        unsafe { _mm256_storeu_ps(out.as_mut_ptr(), self.0) }
    }
    #[inline(always)]
    fn mul(self, other: Eight) -> Eight {
        Eight(unsafe { _mm256_mul_ps(self.0, other.0) })
    }
    #[inline(always)]
    fn add(self, other: Eight) -> Eight {
        Eight(unsafe { _mm256_add_ps(self.0, other.0) })
    }
    #[inline(always)]
    fn minus(self, other: Eight) -> Eight {
        Eight(unsafe { _mm256_sub_ps(self.0, other.0) })
    }
    #[inline(always)]
    fn div(self, other: Eight) -> Eight {
        Eight(unsafe { _mm256_div_ps(self.0, other.0) })
    }
    #[inline(always)]
    fn sqrt(self) -> Eight {
        Eight(unsafe { _mm256_sqrt_ps(self.0) })
    }
    #[inline(always)]
    fn neg(self) -> Eight {
        Eight(unsafe { _mm256_xor_ps(self.0, _mm256_set1_ps(-0.0)) })
    }
    #[inline(always)]
    fn max(self, other: Eight) -> Eight {
        Eight(unsafe { _mm256_max_ps(self.0, other.0) })
    }
    #[inline(always)]
    fn le(self, other: Eight) -> Eight {
        // `_CMP_LE_OS` is SSE's `cmpleps`: false for a NaN.
        Eight(unsafe { _mm256_cmp_ps::<_CMP_LE_OS>(self.0, other.0) })
    }
    #[inline(always)]
    fn gt(self, other: Eight) -> Eight {
        // `_CMP_GT_OS` is SSE's `cmpgtps` (`cmpltps` turned round): false for a NaN.
        Eight(unsafe { _mm256_cmp_ps::<_CMP_GT_OS>(self.0, other.0) })
    }
    #[inline(always)]
    fn and(self, other: Eight) -> Eight {
        Eight(unsafe { _mm256_and_ps(self.0, other.0) })
    }
    #[inline(always)]
    fn or(self, other: Eight) -> Eight {
        Eight(unsafe { _mm256_or_ps(self.0, other.0) })
    }
    #[inline(always)]
    fn select(self, yes: Eight, no: Eight) -> Eight {
        // A compare's mask lane is all ones or zero: its sign bit picks as the whole does.
        Eight(unsafe { _mm256_blendv_ps(no.0, yes.0, self.0) })
    }
    #[inline(always)]
    fn mask_bits(self) -> u32 {
        unsafe { _mm256_movemask_ps(self.0) as u32 }
    }
    #[inline(always)]
    fn eight_wide(avx: Avx) -> super::EightLanes {
        Some(avx)
    }
    #[inline(always)]
    fn extents_on_four_normals(
        avx: Avx,
        groups: &[[[f32; 4]; 3]],
        normals: &[[f32; 4]; 3],
    ) -> (Four, Four) {
        super::extents::eight(avx, groups, normals)
    }
}

impl Eight {
    /// The lanes as an array.
    #[inline(always)]
    pub(crate) fn to_array(self) -> [f32; 8] {
        let mut out = [0.0; 8];
        self.store_to(&mut out);
        out
    }
    /// `low` in lanes 0 to 3, `high` in lanes 4 to 7.
    #[inline(always)]
    pub(crate) fn from_halves(_: Avx, low: Four, high: Four) -> Eight {
        Eight(unsafe { _mm256_set_m128(high.m128(), low.m128()) })
    }
    /// Lanes 0 to 3 and lanes 4 to 7.
    #[inline(always)]
    pub(crate) fn halves(self) -> (Four, Four) {
        let (low, high) = unsafe {
            (
                _mm256_castps256_ps128(self.0),
                _mm256_extractf128_ps::<1>(self.0),
            )
        };
        (Four::from_m128(low), Four::from_m128(high))
    }
    /// Per lane `if self < other { self } else { other }` (as [`Four::min`]).
    #[inline(always)]
    pub(crate) fn min(self, other: Eight) -> Eight {
        Eight(unsafe { _mm256_min_ps(self.0, other.0) })
    }
}
