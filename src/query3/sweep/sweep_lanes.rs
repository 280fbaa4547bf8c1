//! The lanes of the small-body path ([`super::small`]): four `f32` side by side everywhere,
//! eight where the processor has AVX and the code runs as compiled for it. Each lane of
//! either does the scalar operations of the four-lane code in their order (no fused
//! multiply-add, compares with the same predicates and operand order), so the bits are the
//! same; the agreement harness (`src/agreement.rs`) compares both builds
//! ([`Variant::Baseline`]) and both widths ([`Variant::FourLanes`]) with the reference.

use super::Variant;
#[cfg(target_arch = "x86_64")]
use crate::simd::{Avx, Eight};
use crate::simd::{Four, Lanes};

/// AVX's token when the small-body path's Gauss-map loops take eight lanes at a time
/// ([`super::small::LocalPair::face_sides`], [`super::small::LocalPair::crossing_arcs`]);
/// `None` takes four.
#[cfg(target_arch = "x86_64")]
pub(super) type EightLanes = Option<Avx>;
/// Elsewhere there are only four lanes.
#[cfg(not(target_arch = "x86_64"))]
pub(super) type EightLanes = Option<std::convert::Infallible>;

/// The lanes the small-body path settles its edge pairs with ([`Four`], or [`Eight`] where
/// the processor has AVX), and whether its Gauss-map loops take eight.
pub(super) trait SweepLanes: Lanes {
    fn eight(isa: Self::Isa) -> EightLanes;

    /// Lane `k`: the interval of the projections onto the `k`-th of four normals (`[x, y,
    /// z]` rows) of vertices stored four at a time (see [`super::small::extent`]).
    fn extents_of_four(
        isa: Self::Isa,
        groups: &[[[f32; 4]; 3]],
        normals: &[[f32; 4]; 3],
    ) -> (Four, Four);
}

impl SweepLanes for Four {
    #[inline(always)]
    fn eight(_: ()) -> EightLanes {
        None
    }

    /// The vertices are scanned twice, two normals at a time (each normal's numbers are the
    /// same either way).
    #[inline(always)]
    fn extents_of_four(_: (), groups: &[[[f32; 4]; 3]], normals: &[[f32; 4]; 3]) -> (Four, Four) {
        let axis = |k: usize| {
            (
                Four::splat(normals[0][k]),
                Four::splat(normals[1][k]),
                Four::splat(normals[2][k]),
            )
        };
        let two = |axes: [(Four, Four, Four); 2]| {
            let project = |g: &[[f32; 4]; 3]| {
                let (x, y, z) = (Four::load(&g[0]), Four::load(&g[1]), Four::load(&g[2]));
                axes.map(|(ax, ay, az)| Four::dot3(x, y, z, ax, ay, az))
            };
            let (mut low, mut high) = (project(&groups[0]), project(&groups[0]));
            for g in &groups[1..] {
                let d = project(g);
                for k in 0..2 {
                    low[k] = low[k].min(d[k]);
                    high[k] = high[k].max(d[k]);
                }
            }
            (low, high)
        };
        let ([l0, l1], [h0, h1]) = two([axis(0), axis(1)]);
        let ([l2, l3], [h2, h3]) = two([axis(2), axis(3)]);
        (
            Four::min_lanes_of([l0, l1, l2, l3]),
            Four::max_lanes_of([h0, h1, h2, h3]),
        )
    }
}

#[cfg(target_arch = "x86_64")]
impl SweepLanes for Eight {
    #[inline(always)]
    fn eight(avx: Avx) -> EightLanes {
        Some(avx)
    }

    /// One scan for all four normals: each register holds two normals (one in each half),
    /// and each group of four vertices is loaded into both halves. Each half computes what
    /// [`Four`]'s scan computes for its normal (the same products, sums, and compares with
    /// the running extreme first), so the bits are the same.
    #[inline(always)]
    fn extents_of_four(
        avx: Avx,
        groups: &[[[f32; 4]; 3]],
        normals: &[[f32; 4]; 3],
    ) -> (Four, Four) {
        // Functions, not closures: an out-of-line closure would be compiled without AVX and
        // call each AVX operation.
        #[inline(always)]
        fn two(avx: Avx, normals: &[[f32; 4]; 3], c: usize, k: usize) -> Eight {
            Eight::from_halves(
                avx,
                Four::splat(normals[c][k]),
                Four::splat(normals[c][k + 1]),
            )
        }
        #[inline(always)]
        fn both(avx: Avx, row: &[f32; 4]) -> Eight {
            Eight::from_halves(avx, Four::load(row), Four::load(row))
        }
        let (x01, y01, z01) = (
            two(avx, normals, 0, 0),
            two(avx, normals, 1, 0),
            two(avx, normals, 2, 0),
        );
        let (x23, y23, z23) = (
            two(avx, normals, 0, 2),
            two(avx, normals, 1, 2),
            two(avx, normals, 2, 2),
        );
        let (x, y, z) = (
            both(avx, &groups[0][0]),
            both(avx, &groups[0][1]),
            both(avx, &groups[0][2]),
        );
        let (mut low01, mut low23) = (
            Eight::dot3(x, y, z, x01, y01, z01),
            Eight::dot3(x, y, z, x23, y23, z23),
        );
        let (mut high01, mut high23) = (low01, low23);
        for g in &groups[1..] {
            let (x, y, z) = (both(avx, &g[0]), both(avx, &g[1]), both(avx, &g[2]));
            let (d01, d23) = (
                Eight::dot3(x, y, z, x01, y01, z01),
                Eight::dot3(x, y, z, x23, y23, z23),
            );
            low01 = low01.min(d01);
            low23 = low23.min(d23);
            high01 = high01.max(d01);
            high23 = high23.max(d23);
        }
        let ((l0, l1), (l2, l3)) = (low01.halves(), low23.halves());
        let ((h0, h1), (h2, h3)) = (high01.halves(), high23.halves());
        (
            Four::min_lanes_of([l0, l1, l2, l3]),
            Four::max_lanes_of([h0, h1, h2, h3]),
        )
    }
}

impl Variant {
    /// AVX's token when the small-body path runs as compiled for AVX: where the processor
    /// has AVX, unless the variant is the baseline build.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(super) fn avx(self) -> Option<Avx> {
        match self {
            Variant::Baseline => None,
            _ => Avx::detect(),
        }
    }

    /// [`EightLanes`] in the code compiled for AVX: eight lanes, unless the variant asks for
    /// four.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn eight_lanes(self, avx: Avx) -> EightLanes {
        match self {
            Variant::FourLanes => None,
            _ => Some(avx),
        }
    }
}
