//! How SAT projects the other core on a run of edge normals, in the reference and in the
//! fast paths: the lowest and highest projection of its vertices on each normal.
//!
//! - A small core (at most `SMALL_CORE` vertices, with a small polygon on the other side)
//!   is placed in the work frame once, in fixed lanes of 4, 8 or 16 ([`SmallCore`]), and
//!   every vertex is projected on every normal.
//! - Otherwise the rotating calipers: as the edge normals of a convex polygon turn
//!   counter-clockwise, the extreme vertices in those directions move forward round the
//!   outline, so each is found by stepping from the previous one ([`step_to_extreme`]):
//!   O(n + m) for the whole test, not O(n * m).
//!
//! Both give the extreme values of a pass over every vertex (the calipers stop on a vertex
//! whose projection is extreme), each value one vertex's `v.dot(n)`.

use crate::geom::{LanesOfWidth, Placed, ShapeLanes};
use crate::simd::Four;
use glam::Vec2;

/// The width of the fixed arrays a small core is projected in: 4 lanes up to 4 vertices
/// (boxes, quads), 8 up to 8, 16 up to `SMALL_CORE`; no padding is projected that a
/// smaller core does not need.
#[derive(Clone, Copy)]
pub(super) enum Width {
    Four,
    Eight,
    Sixteen,
}

impl Width {
    #[inline(always)]
    pub(super) fn of(core: &Placed) -> Width {
        match core.vertex_count() {
            0..=4 => Width::Four,
            5..=8 => Width::Eight,
            _ => Width::Sixteen,
        }
    }
}

/// A small core's work-frame vertices as two fixed arrays of `N` coordinates (`N` a power
/// of two), padded with copies of the last vertex (a copy changes no extreme). Fixed lengths
/// let the compiler keep the projections in vector registers.
pub(super) struct SmallCore<const N: usize> {
    pub(super) x: [f32; N],
    pub(super) y: [f32; N],
}

impl<const N: usize> SmallCore<N> {
    /// `core` has 1 to `N` vertices. The local vertices are copied into fixed arrays first
    /// (padded), then turned and moved as [`Placed::vertex`] does, lane by lane: fixed-length
    /// loops (the padding transformed again) become vector operations; a loop to the vertex
    /// count would not. Inlined into the pass, so the placed lanes stay in registers.
    #[inline(always)]
    pub(super) fn new(core: &Placed) -> Self
    where
        ShapeLanes: LanesOfWidth<N>,
    {
        // The shape's own lanes when it has them at this width, else copied here.
        let (local_x, local_y) = match core.shape.lanes::<N>() {
            Some(lanes) => (lanes.x, lanes.y),
            None => {
                let local = core.shape.core();
                let last = local[local.len() - 1];
                let (mut local_x, mut local_y) = ([last.x; N], [last.y; N]);
                for (k, p) in local.iter().take(N).enumerate() {
                    (local_x[k], local_y[k]) = (p.x, p.y);
                }
                (local_x, local_y)
            }
        };
        let (cos, sin) = (core.rotation.x, core.rotation.y);
        let t = core.translation;
        SmallCore {
            x: std::array::from_fn(|k| (cos * local_x[k] - sin * local_y[k]) + t.x),
            y: std::array::from_fn(|k| (sin * local_x[k] + cos * local_y[k]) + t.y),
        }
    }

    /// The lowest and highest projection on `n`: the same values as a pass over the
    /// vertices (each is one vertex's `v.dot(n)`), found in the order the lane pass
    /// (`EdgeLanes::new`, small.rs) compares them: up to 8 lanes by halving (compare the two
    /// halves element by element, then the halves of the result), 16 vertex by vertex.
    #[inline]
    pub(super) fn extent(&self, n: Vec2) -> (f32, f32) {
        let d: [f32; N] = std::array::from_fn(|k| self.x[k] * n.x + self.y[k] * n.y);
        // Plain compares rather than `f32::min`/`max`: the coordinates are finite, and the
        // NaN handling of `min`/`max` costs extra instructions.
        let low = |a: f32, b: f32| if a < b { a } else { b };
        let high = |a: f32, b: f32| if a > b { a } else { b };
        if N > 8 {
            return d[1..]
                .iter()
                .fold((d[0], d[0]), |(lo, hi), &v| (low(lo, v), high(hi, v)));
        }
        let (mut lo, mut hi) = (d, d);
        let mut width = N;
        while width > 1 {
            width /= 2;
            for k in 0..width {
                lo[k] = low(lo[k], lo[k + width]);
                hi[k] = high(hi[k], hi[k + width]);
            }
        }
        (lo[0], hi[0])
    }
}

/// From vertex `start` of `core`, the previous extreme vertex for a direction a little
/// clockwise of `d`, steps forward round the outline while that does not lower the
/// projection on `d` (`d` in the core's own frame).
/// Bounded by one lap.
#[inline]
pub(super) fn step_to_extreme(core: &[Vec2], start: usize, d: Vec2) -> usize {
    step_to_extreme_valued(core, start, d).0
}

/// [`step_to_extreme`], and the projection on `d` of the vertex it stops on (`core[k] . d`,
/// the very number its last compare read).
///
/// The walk reads the vertices four at a time: the projections of vertices `k` to `k + 3`
/// on `d` in the lanes of one [`Four`] (each `x * d.x + y * d.y`, as `Vec2::dot`
/// rounds it), and the first of `k + 1` to `k + 3` whose projection is below the one before
/// it stops the walk, as the scalar compare `value < best` stops it (a NaN stops neither).
/// Most axes move a caliper by a vertex or two: one window, and no loop exit to mispredict.
/// Near the end of the slice, for a core of fewer than
/// four vertices, and for the last steps of a whole lap, the scalar walk with a wrapped index
/// goes on from where the windows stopped: at most `n` steps in all (a lap). Test:
/// `calipers_windows_step_as_the_scalar_walk`.
#[inline(always)]
pub(super) fn step_to_extreme_valued(core: &[Vec2], start: usize, d: Vec2) -> (usize, f32) {
    let n = core.len();
    let (mut k, mut left) = (start, n);
    let (dx, dy) = (Four::splat(d.x), Four::splat(d.y));
    while k + 4 <= n && left >= 3 {
        let four: &[Vec2; 4] = core[k..k + 4].try_into().unwrap();
        let (xs, ys) = Four::load_pairs(four);
        let values = xs.mul(dx).add(ys.mul(dy));
        // Lane i: vertex k + i + 1's projection below vertex k + i's.
        let stops = values.shifted_down().lt(values).mask_bits() & 0b111;
        if stops != 0 {
            let steps = stops.trailing_zeros() as usize;
            return (k + steps, values.to_array()[steps]);
        }
        k += 3;
        left -= 3;
    }
    let mut best = core[k].dot(d);
    for _ in 0..left {
        let next = if k + 1 == n { 0 } else { k + 1 };
        let value = core[next].dot(d);
        if value < best {
            break;
        }
        (k, best) = (next, value);
    }
    (k, best)
}

/// The smaller of two finite values (`a` when `a < b`, else `b`): one `minss`.
#[inline(always)]
pub(super) fn lower(a: f32, b: f32) -> f32 {
    if a < b {
        a
    } else {
        b
    }
}

/// The larger of two finite values (`a` when `a > b`, else `b`).
#[inline(always)]
pub(super) fn higher(a: f32, b: f32) -> f32 {
    if a > b {
        a
    } else {
        b
    }
}
