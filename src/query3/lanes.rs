//! The lane types now live in `crate::simd`; these names stay while the 3D SAT and sweep
//! are being reshaped (issue 35) and go when their files import `crate::simd` directly.

#[cfg(target_arch = "x86_64")]
pub(crate) use crate::simd::{Avx, Eight};
pub(crate) use crate::simd::{Four, Lanes};
