//! The extents of points stored four at a time along four normals at once, in four lanes
//! or eight ([`super::Lanes::extents_on_four_normals`]): the small-body sweep's face axes take
//! them four at a time. Both widths compute each normal's extents with the same products,
//! sums and compares in the same order (the running extreme first), so the bits are the
//! same.

use super::Four;
#[cfg(target_arch = "x86_64")]
use super::{Avx, Eight, Lanes};

/// [`super::Lanes::extents_on_four_normals`] in four lanes: the points are scanned twice, two
/// normals at a time (each normal's numbers are the same either way).
#[inline(always)]
pub(super) fn four(groups: &[[[f32; 4]; 3]], normals: &[[f32; 4]; 3]) -> (Four, Four) {
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

/// [`super::Lanes::extents_on_four_normals`] in eight lanes: one scan for all four normals: each register holds two normals (one in each half),
/// and each group of four vertices is loaded into both halves. Each half computes what
/// [`Four`]'s scan computes for its normal (the same products, sums, and compares with
/// the running extreme first), so the bits are the same.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn eight(avx: Avx, groups: &[[[f32; 4]; 3]], normals: &[[f32; 4]; 3]) -> (Four, Four) {
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
