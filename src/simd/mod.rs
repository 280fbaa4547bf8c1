//! Every vector lane type, the instruction-set detection and every `unsafe` block that they
//! need, in one place: the algorithms in `geom`, `geom3`, `query` and `query3` are written
//! against these types (as Jolt writes its algorithms against `Vec3` and keeps its
//! intrinsics in `Jolt/Math`), and no file outside this module names `std::arch`.
//!
//! The rule every lane type keeps: each lane is the scalar expression's number, bit for bit
//! (IEEE products, sums, differences, quotients and square roots, no fused multiply-add;
//! `min` and `max` as the plain compares). A fast path written in lanes therefore gives
//! the reference's answer exactly, which the agreement harness checks.
//!
//! - [`Four`] (`four.rs`): four lanes, SSE on x86_64 (part of its baseline), an array
//!   elsewhere.
//! - [`Eight`] and [`Avx`] (`eight.rs`, x86_64 only): eight lanes in one AVX register; an
//!   `Eight` can only be made with an `Avx`, which only [`Avx::detect`] gives.
//! - [`Lanes`]: the operations both share, for code written once for four or eight lanes.
//! - `farthest.rs`: the first farthest (or nearest) of a small 2D core's vertices along a
//!   direction, for GJK's support look-ups.
//!
//! SAFETY: each file says once why its intrinsics are sound (SSE is always there on
//! x86_64; AVX is there when an `Avx` exists; loads and stores stay within arrays whose
//! length the types fix).

#[cfg(target_arch = "x86_64")]
mod eight;
mod extents;
pub(crate) mod farthest;
mod four;

#[cfg(target_arch = "x86_64")]
pub(crate) use eight::{Avx, Eight};
pub(crate) use four::Four;

/// AVX's token in code that runs eight lanes at a time ([`Lanes::eight_wide`]); `None` runs
/// four.
#[cfg(target_arch = "x86_64")]
pub(crate) type EightLanes = Option<Avx>;
/// Elsewhere there are only four lanes.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) type EightLanes = Option<std::convert::Infallible>;

/// Which build of a lane kernel runs ([`run`]): as compiled for the x86_64 baseline (SSE, four
/// lanes), or as compiled for AVX, four or eight lanes at a time. The builds do the same
/// operations in the same order (Rust never fuses a product and a sum into an FMA), so they
/// give the same bits; AVX only encodes them with three operands, sparing register copies.
#[derive(Clone, Copy)]
pub(crate) enum Build {
    Baseline,
    #[cfg(target_arch = "x86_64")]
    Avx {
        avx: Avx,
        eight: bool,
    },
}

impl Build {
    /// The best the processor offers: AVX with eight lanes where it has AVX.
    #[inline]
    pub(crate) fn widest() -> Build {
        Build::compiled_for_avx(true)
    }

    /// As compiled for AVX where the processor has it, `eight` lanes at a time or four; the
    /// baseline elsewhere.
    #[inline]
    pub(crate) fn compiled_for_avx(eight: bool) -> Build {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx) = Avx::detect() {
            return Build::Avx { avx, eight };
        }
        let _ = eight;
        Build::Baseline
    }
}

/// Work written once over any [`Lanes`] type, for [`run`] to compile for the processor.
/// Implementations mark `run_in` `#[inline(always)]`, so that it is compiled into each
/// build (a call out of line would run as compiled for the baseline).
pub(crate) trait Kernel {
    type Output;
    fn run_in<L: Lanes>(self, isa: L::Isa) -> Self::Output;
}

/// Runs `kernel` in `build`: [`Four`] as compiled for the baseline, or [`Four`] or [`Eight`]
/// as compiled for AVX. The only place that enters code compiled for an instruction set.
#[inline(always)]
pub(crate) fn run<K: Kernel>(kernel: K, build: Build) -> K::Output {
    match build {
        Build::Baseline => kernel.run_in::<Four>(()),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: an `Avx` exists only where the processor has AVX (`Avx::detect`).
        Build::Avx { avx, eight } => unsafe { run_avx(kernel, avx, eight) },
    }
}

/// [`run`]'s AVX build.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
fn run_avx<K: Kernel>(kernel: K, avx: Avx, eight: bool) -> K::Output {
    if eight {
        kernel.run_in::<Eight>(avx)
    } else {
        kernel.run_in::<Four>(())
    }
}

/// The lane arithmetic of the sweep's edge pairs (`sweep::EdgePairLanes::numbers`), on four lanes
/// ([`Four`]) or, where the processor has AVX, eight ([`Eight`]): each operation is
/// [`Four`]'s, lane by lane, so both give the same bits. A lane type is built
/// through its instruction set's token (`Isa`): `()` for SSE, part of the x86_64 baseline,
/// and [`Avx`] for AVX, which only [`Avx::detect`] gives, so no `Eight` exists on a
/// processor without AVX.
pub(crate) trait Lanes: Copy {
    type Isa: Copy;
    /// How many lanes.
    const COUNT: usize;
    fn splat(isa: Self::Isa, value: f32) -> Self;
    /// The first [`Self::COUNT`] values of `values`.
    fn load_from(isa: Self::Isa, values: &[f32]) -> Self;
    /// The lanes, into the first [`Self::COUNT`] places of `out`.
    fn store_to(self, out: &mut [f32]);
    fn mul(self, other: Self) -> Self;
    fn add(self, other: Self) -> Self;
    fn minus(self, other: Self) -> Self;
    fn div(self, other: Self) -> Self;
    fn sqrt(self) -> Self;
    fn neg(self) -> Self;
    /// Used by the eight-lane type only, which exists on x86-64 alone.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn max(self, other: Self) -> Self;
    fn le(self, other: Self) -> Self;
    fn gt(self, other: Self) -> Self;
    /// Lanes of two masks both set.
    fn and(self, other: Self) -> Self;
    /// Lanes of either mask set.
    fn or(self, other: Self) -> Self;
    /// Per lane `yes` where the mask `self` (a compare's: all ones or zero) is set.
    fn select(self, yes: Self, no: Self) -> Self;
    fn mask_bits(self) -> u32;

    /// AVX's token when `Self` is [`Eight`], for loops that take eight lanes at a time
    /// beside work in `Self`; `None` for [`Four`].
    fn eight_wide(isa: Self::Isa) -> EightLanes;

    /// Lane `k` of each: the least and the greatest projection onto the `k`-th of four
    /// normals (`normals`: their `[x, y, z]` rows) of points stored four at a time
    /// (`groups`: each group's `[x, y, z]` rows; at least one group).
    fn extents_on_four_normals(
        isa: Self::Isa,
        groups: &[[[f32; 4]; 3]],
        normals: &[[f32; 4]; 3],
    ) -> (Four, Four);

    /// `x * a + y * b + z * c` per lane, in that order (as `Vec3::dot`).
    #[inline(always)]
    fn dot3(x: Self, y: Self, z: Self, a: Self, b: Self, c: Self) -> Self {
        x.mul(a).add(y.mul(b)).add(z.mul(c))
    }
}

impl Lanes for Four {
    type Isa = ();
    const COUNT: usize = 4;
    #[inline(always)]
    fn splat(_: (), value: f32) -> Four {
        Four::splat(value)
    }
    #[inline(always)]
    fn load_from(_: (), values: &[f32]) -> Four {
        Four::load(values[..4].try_into().expect("four values"))
    }
    #[inline(always)]
    fn store_to(self, out: &mut [f32]) {
        out[..4].copy_from_slice(&self.to_array());
    }
    #[inline(always)]
    fn mul(self, other: Four) -> Four {
        Four::mul(self, other)
    }
    #[inline(always)]
    fn add(self, other: Four) -> Four {
        Four::add(self, other)
    }
    #[inline(always)]
    fn minus(self, other: Four) -> Four {
        Four::minus(self, other)
    }
    #[inline(always)]
    fn div(self, other: Four) -> Four {
        Four::div(self, other)
    }
    #[inline(always)]
    fn sqrt(self) -> Four {
        Four::sqrt(self)
    }
    #[inline(always)]
    fn neg(self) -> Four {
        Four::neg(self)
    }
    #[inline(always)]
    fn max(self, other: Four) -> Four {
        Four::max(self, other)
    }
    #[inline(always)]
    fn le(self, other: Four) -> Four {
        Four::le(self, other)
    }
    #[inline(always)]
    fn gt(self, other: Four) -> Four {
        Four::gt(self, other)
    }
    #[inline(always)]
    fn and(self, other: Four) -> Four {
        Four::and(self, other)
    }
    #[inline(always)]
    fn or(self, other: Four) -> Four {
        Four::or(self, other)
    }
    #[inline(always)]
    fn select(self, yes: Four, no: Four) -> Four {
        Four::select(self, yes, no)
    }
    #[inline(always)]
    fn mask_bits(self) -> u32 {
        Four::mask_bits(self)
    }
    #[inline(always)]
    fn eight_wide(_: ()) -> EightLanes {
        None
    }
    #[inline(always)]
    fn extents_on_four_normals(
        _: (),
        groups: &[[[f32; 4]; 3]],
        normals: &[[f32; 4]; 3],
    ) -> (Four, Four) {
        extents::four(groups, normals)
    }
}
