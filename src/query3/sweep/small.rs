//! The untraced sweep of small bodies, the pairs the reference sweeps in A's frame (up to
//! [`SMALL_VERTICES`] vertices and [`SMALL_FEATURES`] faces and edges each, a placement in
//! A's frame that is finite): the reference's loop, several axes at a time, with three
//! prunings. Its answer is the reference's to the bit, but for `axes_tested`, which the
//! arc bound below may lower.
//!
//! Why the same numbers. B is turned into A's frame with the reference's products (a row of
//! the rotation against each vertex and normal, four at a time), and every lane does the
//! reference's scalar operations in their order ([`crate::simd`]: IEEE products,
//! sums, quotients and square roots, no fused multiply-add, compares with the same
//! predicates). Where the reference scans, the lanes take the same extremes: the numbers
//! are finite and equal ones have the same bits (but for a zero's sign: where a body's
//! extreme is exactly zero, reached as +0 and -0, which one is kept depends on the order of
//! the scan; no test case meets it). What is arranged differently:
//! - a body's interval along its own face normal is read from its lanes
//!   ([`crate::geom3::FeatureLanes::face_extents`], computed as the reference computes it);
//! - face axes go four at a time: their projections (with AVX one scan of the other body's
//!   vertices for all four normals), speeds and entry and exit times side by side, then the
//!   tie rule one axis at a time, in order;
//! - the edge pairs' Gauss-map test and axes go four or eight pairs at a time
//!   ([`super::edge_pairs`]): sign bits pick the candidates, Gregorius's products of the
//!   reference's numbers decide them, then the parallel test and the orientation, lane by
//!   lane as `sat::edge_pair_axis` computes them.
//!
//! The prunings, each proved to leave the latest entry and the earliest exit as they are
//! (the agreement harness, `src/agreement.rs`, compares the answers with the reference's,
//! with the bound over whole arcs and without it):
//! - a group of four face axes each of which enters before the best one by more than the
//!   tie tolerance and leaves after the earliest exit is only counted
//!   ([`Latest::unchanged_by_four`]);
//! - an edge axis whose witnesses bound its times the same way is only counted
//!   ([`super::edge_pairs`]);
//! - whole edges of A none of whose axes can change the answer are left out, neither
//!   tested nor counted ([`super::arc_bound`]), so `axes_tested` may be lower than the
//!   reference's.
//!
//! Where the processor has AVX, the loops run as compiled for AVX and some take eight lanes
//! at a time (through [`crate::simd::run`]): the same operations, so the same bits.

use super::reference::{
    contact_normal_from_a, finish, Candidate, Latest, PlacementInA, SMALL_FEATURES, SMALL_VERTICES,
};
use super::{Motion3, Output, Pruned, Variant, STILL_SPEED};
use crate::geom3::FeatureLanes;
use crate::inline_vec::InlineVec;
use crate::query3::sat::AxisId;
use crate::query3::{Interval, PolyPair};
use crate::simd::{Four, Kernel, Lanes};
use glam::{Mat3A, Vec3};
use std::mem::MaybeUninit;

/// The sweep of a small pair placed in A's frame ([`Placement::new`]), in `variant`; with
/// what its prunings left out.
pub(super) fn time_of_impact(
    pair: &PolyPair,
    motion: &Motion3,
    placement: Placement,
    variant: Variant,
) -> (Output, Pruned) {
    let still = STILL_SPEED * pair.scale();
    let touch = pair.touch_tolerance();
    let mut latest = Latest::new(motion);
    let mut turned_b = TurnedB::new();
    let local = LocalPair::new(pair, placement, &mut turned_b);
    local.visit_axes(variant, still, touch, &mut latest);
    let pruned = latest.pruned;
    let out = finish(pair, motion, latest, |best| {
        contact_normal_from_a(pair, best)
    });
    (out, pruned)
}

/// The pair in A's frame as the lanes read it: A's vertices, normals, arcs and face extents
/// as the polyhedron stores them, B's vertices, normals and arcs turned into A's frame once,
/// four at a time ([`crate::geom3::FeatureLanes`]).
pub(super) struct LocalPair<'p, 'a> {
    pub(super) pair: &'p PolyPair<'a>,
    /// B's position in A's frame: a point `p` of B's polyhedron is at `rotation p +
    /// translation`.
    pub(super) translation: Vec3,
    /// B's velocity relative to A, in A's frame.
    pub(super) velocity: Vec3,
    /// B's vertices, normals and arcs in A's frame.
    pub(super) b: &'p TurnedB,
    /// Both bodies' stored lanes (A's used as they are, B's turned into `b`).
    pub(super) lanes_a: &'a FeatureLanes,
    pub(super) lanes_b: &'a FeatureLanes,
}

/// A small pair's placement in A's frame ([`PlacementInA`]) and both bodies'
/// [`FeatureLanes`].
pub(crate) struct Placement<'a> {
    pub(super) rotation: Mat3A,
    pub(super) translation: Vec3,
    pub(super) velocity: Vec3,
    pub(super) lanes: [&'a FeatureLanes; 2],
}

impl<'a> Placement<'a> {
    /// [`PlacementInA::new`], with the lanes (a body small enough to be swept in A's frame
    /// carries them: see [`SMALL_VERTICES`]); `None` where the reference sweeps in the work
    /// frame.
    pub(crate) fn new(pair: &PolyPair<'a>, velocity: Vec3) -> Option<Self> {
        let PlacementInA {
            rotation,
            translation,
            velocity,
        } = PlacementInA::new(pair, velocity)?;
        let lanes = [pair.a.shape.feature_lanes()?, pair.b.shape.feature_lanes()?];
        Some(Placement {
            rotation,
            translation,
            velocity,
            lanes,
        })
    }
}

/// B's features turned into A's frame ([`LocalPair`]), on the caller's stack.
pub(super) struct TurnedB {
    /// B's vertices turned into A's frame but not moved (`rotation p`), four at a time
    /// (`[x, y, z]` rows). A projection adds `axis . translation` once: two parallel edges
    /// or opposite faces of a symmetric body then give the same numbers (a box's edge pairs
    /// that share an axis tie exactly, as the tie rule expects), and an edge's direction
    /// carries no rounding of the translation.
    pub(super) vertices: InlineVec<[[f32; 4]; 3], { SMALL_VERTICES / 4 }>,
    /// The same vertices one point each (the edge pairs gather their ends and witnesses).
    pub(super) points: InlineVec<[Vec3; 4], { SMALL_VERTICES / 4 }>,
    /// B's face normals in A's frame, four at a time (two groups side by side).
    pub(super) normals: PairedRows<{ SMALL_FEATURES / 8 }>,
    /// The planes of B's Gauss-map arcs in A's frame as `sat::arcs_cross` takes them for B
    /// (`c = -n0`, `d = -n1`, the plane `d x c = n1 x n0`), four at a time (two groups side
    /// by side). Padding is zero, which the first sign test rejects.
    pub(super) planes: PairedRows<{ SMALL_FEATURES / 8 }>,
}

impl TurnedB {
    #[inline(always)]
    pub(super) fn new() -> Self {
        TurnedB {
            vertices: InlineVec::new(),
            points: InlineVec::new(),
            normals: PairedRows::new(),
            planes: PairedRows::new(),
        }
    }
}

/// Groups of four lanes by coordinate (`[x, y, z]` rows), two groups to a pair: row `c` of
/// groups `2 p` and `2 p + 1` lies in eight consecutive numbers, so the eight-lane loops
/// load both as one `Eight` and the four-lane loops one half. Written in order, on the
/// stack, never zeroed; only what is written is read (a pair's second half only once its
/// group is written).
pub(super) struct PairedRows<const P: usize> {
    pairs: [MaybeUninit<[[[f32; 4]; 2]; 3]>; P],
    /// Groups of four written.
    pub(super) len: usize,
}

impl<const P: usize> PairedRows<P> {
    #[inline(always)]
    fn new() -> Self {
        PairedRows {
            pairs: [const { MaybeUninit::uninit() }; P],
            len: 0,
        }
    }

    /// Appends a group of four (the callers stay within the capacity:
    /// [`LocalPair::placement`]).
    #[inline(always)]
    fn push(&mut self, rows: [[f32; 4]; 3]) {
        let (p, half) = (self.len / 2, self.len % 2);
        let pair = self.pairs[p].as_mut_ptr();
        for (c, row) in rows.into_iter().enumerate() {
            // SAFETY: `pair` points to pair `p`, in bounds; the write fills one half row
            // without reading or dropping what is there.
            unsafe { std::ptr::addr_of_mut!((*pair)[c][half]).write(row) };
        }
        self.len += 1;
    }

    /// Group `g` (`g < self.len`), by coordinate.
    #[inline(always)]
    pub(super) fn group(&self, g: usize) -> [[f32; 4]; 3] {
        assert!(g < self.len);
        let pair = self.pairs[g / 2].as_ptr();
        // SAFETY: group `g` was written by `push` (one half of each row of pair `g / 2`).
        std::array::from_fn(|c| unsafe { std::ptr::addr_of!((*pair)[c][g % 2]).read() })
    }

    /// How many whole pairs (both groups written). Read only by the eight-lane loops.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn pair_count(&self) -> usize {
        self.len / 2
    }

    /// Pair `p` (`p < self.pair_count()`), by coordinate: groups `2 p` and `2 p + 1`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn pair(&self, p: usize) -> &[[[f32; 4]; 2]; 3] {
        assert!(p < self.pair_count());
        // SAFETY: both groups of pair `p` were written by `push`.
        unsafe { self.pairs[p].assume_init_ref() }
    }
}

impl<'p, 'a> LocalPair<'p, 'a> {
    /// B turned into A's frame by a [`Placement`] (inlined: built where it is used, not
    /// copied there).
    #[inline(always)]
    pub(super) fn new(
        pair: &'p PolyPair<'a>,
        Placement {
            rotation,
            translation,
            velocity,
            lanes: [lanes_a, lanes_b],
        }: Placement<'a>,
        turned_b: &'p mut TurnedB,
    ) -> Self {
        let b = &pair.b;
        let turn_by = |m: Mat3A| {
            let row = |k: usize| {
                let r = m.row(k);
                [Four::splat(r.x), Four::splat(r.y), Four::splat(r.z)]
            };
            [row(0), row(1), row(2)]
        };
        // B's arcs are kept for -B (`c = -n0`, `d = -n1`), turned by -rotation (exactly the
        // negated products).
        let (turn, turn_back) = (turn_by(rotation), turn_by(-rotation));
        for rows in b.shape.vertex_lanes() {
            let [x, y, z] = turned(&turn, rows[0], rows[1], rows[2]).map(Four::to_array);
            turned_b.vertices.push([x, y, z]);
            turned_b
                .points
                .push(std::array::from_fn(|k| Vec3::new(x[k], y[k], z[k])));
        }
        let lanes = lanes_b;
        for rows in &lanes.normals {
            let [x, y, z] = turned(&turn, rows[0], rows[1], rows[2]);
            turned_b
                .normals
                .push([x.to_array(), y.to_array(), z.to_array()]);
        }
        for rows in &lanes.arcs {
            let c = turned(&turn_back, rows[0], rows[1], rows[2]);
            let d = turned(&turn_back, rows[3], rows[4], rows[5]);
            // `d x c` as `Vec3::cross` computes it, which is what `EdgeFrame::from_placed`
            // gives for `n1 x n0` (`-d x -c`, the same products): the lanes' Gauss-map test
            // and `edge_pair_axis`'s then agree bit for bit.
            let plane = [
                d[1].mul(c[2]).sub(c[1].mul(d[2])),
                d[2].mul(c[0]).sub(c[2].mul(d[0])),
                d[0].mul(c[1]).sub(c[0].mul(d[1])),
            ];
            turned_b.planes.push(plane.map(Four::to_array));
        }
        LocalPair {
            pair,
            translation,
            velocity,
            b: turned_b,
            lanes_a,
            lanes_b,
        }
    }

    #[inline(always)]
    pub(super) fn vertex_b(&self, k: usize) -> Vec3 {
        self.b.points.as_slice().as_flattened()[k]
    }

    #[inline(always)]
    fn normal_b(&self, k: usize) -> Vec3 {
        let rows = self.b.normals.group(k / 4);
        Vec3::new(rows[0][k % 4], rows[1][k % 4], rows[2][k % 4])
    }

    /// Tests every axis in the reference's order (A's faces, B's faces, then the edge
    /// pairs, A's edge major, that pass the Gauss-map and parallel tests), all in A's frame,
    /// face axes four at a time, in the build `variant` names ([`Variant::build`]): as
    /// compiled for AVX where the processor has it, some loops eight lanes at a time. The
    /// builds do the same operations in the same order, so the bits are the same (the
    /// agreement harness runs each).
    fn visit_axes(&self, variant: Variant, still: f32, touch: f32, latest: &mut Latest) {
        self.visit::<false>(variant, still, touch, latest)
    }

    /// Runs [`Visit`] (all axes, or with `EDGES_ONLY` the edge pairs) in `variant`'s build.
    #[inline(always)]
    pub(super) fn visit<const EDGES_ONLY: bool>(
        &self,
        variant: Variant,
        still: f32,
        touch: f32,
        latest: &mut Latest,
    ) {
        let axes = Visit::<EDGES_ONLY> {
            local: self,
            variant,
            still,
            touch,
            latest,
        };
        crate::simd::run(axes, variant.build())
    }

    /// [`Self::visit_axes`] in lanes `L`, the face axes' projections
    /// [`Lanes::extents_on_four_normals`].
    #[inline(always)]
    fn visit_axes_in<L: Lanes>(
        &self,
        isa: L::Isa,
        variant: Variant,
        still: f32,
        touch: f32,
        latest: &mut Latest,
    ) {
        let shape_a = self.pair.a.shape;
        let (lanes_a, lanes_b) = (self.lanes_a, self.lanes_b);
        let vertices_a = shape_a.vertex_lanes();
        let vertices_b = self.b.vertices.as_slice();
        let offer = |latest: &mut Latest, id: AxisId, axis: Vec3, speed: f32, t: (f32, f32)| {
            let (t_enter, t_exit) = t;
            let candidate = Candidate {
                id,
                axis,
                speed,
                t_enter,
            };
            latest.offer(candidate, t_exit);
        };
        let splat = |v: Vec3| (Four::splat(v.x), Four::splat(v.y), Four::splat(v.z));
        let (tx, ty, tz) = splat(self.translation);
        let (vx, vy, vz) = splat(self.velocity);
        // A body's stored extents along its own face normals, four faces at a time.
        let stored = |extents: &[[f32; 2]], g: usize| {
            let group = &extents[4 * g..extents.len().min(4 * g + 4)];
            let side = |s: usize| std::array::from_fn(|k| group.get(k).map_or(0.0, |e| e[s]));
            (Four::load(&side(0)), Four::load(&side(1)), group.len())
        };
        for (g, rows) in lanes_a.normals.iter().enumerate() {
            let (nx, ny, nz) = (
                Four::load(&rows[0]),
                Four::load(&rows[1]),
                Four::load(&rows[2]),
            );
            let (low, high) = L::extents_on_four_normals(isa, vertices_b, rows);
            let shift = Four::dot3(nx, ny, nz, tx, ty, tz);
            let (b_low, b_high) = (low.add(shift), high.add(shift));
            let (a_low, a_high, count) = stored(&lanes_a.face_extents, g);
            let speed = Four::dot3(nx, ny, nz, vx, vy, vz);
            let (enter, exit) =
                entry_and_exit_four([a_low, a_high, b_low, b_high], speed, still, touch);
            if latest.unchanged_by_four(enter, exit, count) {
                latest.tested += count as u32;
                latest.pruned.faces += count as u32;
                continue;
            }
            let [speed, enter, exit] = [speed, enter, exit].map(Four::to_array);
            for k in 0..count {
                let i = 4 * g + k;
                offer(
                    latest,
                    AxisId::FaceA(i as u32),
                    shape_a.face_normal(i),
                    speed[k],
                    (enter[k], exit[k]),
                );
            }
        }
        for g in 0..self.b.normals.len {
            let rows = &self.b.normals.group(g);
            // The axis is -n: both intervals turn over, and the speed changes sign.
            let (nx, ny, nz) = (
                Four::load(&rows[0]),
                Four::load(&rows[1]),
                Four::load(&rows[2]),
            );
            let (low, high) = L::extents_on_four_normals(isa, vertices_a, rows);
            let (a_low, a_high) = (high.neg(), low.neg());
            let shift = Four::dot3(nx, ny, nz, tx, ty, tz);
            let (low, high, count) = stored(&lanes_b.face_extents, g);
            let (b_low, b_high) = (high.add(shift).neg(), low.add(shift).neg());
            let speed = Four::dot3(nx, ny, nz, vx, vy, vz).neg();
            let (enter, exit) =
                entry_and_exit_four([a_low, a_high, b_low, b_high], speed, still, touch);
            if latest.unchanged_by_four(enter, exit, count) {
                latest.tested += count as u32;
                latest.pruned.faces += count as u32;
                continue;
            }
            let [speed, enter, exit] = [speed, enter, exit].map(Four::to_array);
            for k in 0..count {
                let j = 4 * g + k;
                offer(
                    latest,
                    AxisId::FaceB(j as u32),
                    -self.normal_b(j),
                    speed[k],
                    (enter[k], exit[k]),
                );
            }
        }
        self.visit_edge_axes(variant, still, touch, latest);
    }
}

impl Latest {
    /// Whether an axis whose entry time is at most `enter_at_most` and whose exit time is
    /// at least `exit_at_least` (neither a NaN) would leave the best axis and the earliest
    /// exit as they are, if offered now: it enters before the best one by more than the tie
    /// tolerance, so neither `offer`'s later entry nor its tie rule can take it (`best -
    /// tie <= best + tie`, as rounding is monotone), and it leaves after the earliest exit
    /// (strictly: an equal exit could swap a zero's sign).
    #[inline(always)]
    pub(super) fn unchanged_by(&self, enter_at_most: f32, exit_at_least: f32) -> bool {
        match self.best {
            Some(best) => {
                enter_at_most < best.t_enter - self.tie && exit_at_least > self.earliest_exit
            }
            None => false,
        }
    }

    /// [`Self::unchanged_by`] for four face axes at once (lanes below `count`, with their
    /// entry and exit times as `offer` would take them): when each lane leaves the state as
    /// it is now, offering them in order changes nothing (each sees the state the one before
    /// left), so the group is only counted. A NaN fails the compares, and the group is offered.
    #[inline(always)]
    fn unchanged_by_four(&self, enter: Four, exit: Four, count: usize) -> bool {
        let Some(best) = self.best else {
            return false;
        };
        let earlier = Four::splat(best.t_enter - self.tie).gt(enter);
        let later = exit.gt(Four::splat(self.earliest_exit));
        let lanes = (1u32 << count) - 1;
        earlier.and(later).mask_bits() & lanes == lanes
    }
}

/// [`super::reference::entry_and_exit`] for four axes at once (`[a.min, a.max, b.min,
/// b.max]` by lane).
#[inline(always)]
fn entry_and_exit_four(
    [a_low, a_high, b_low, b_high]: [Four; 4],
    speed: Four,
    still: f32,
    touch: f32,
) -> (Four, Four) {
    let ahead = speed.gt(Four::splat(still));
    let behind = Four::splat(-still).gt(speed);
    let (closing, opening) = (a_low.minus(b_high), a_high.minus(b_low));
    let enter = ahead.select(closing, opening).div(speed);
    let exit = ahead.select(opening, closing).div(speed);
    let touch = Four::splat(touch);
    let overlap = b_low.le(a_high.add(touch)).and(a_low.le(b_high.add(touch)));
    let (never, always) = (Four::splat(f32::INFINITY), Four::splat(f32::NEG_INFINITY));
    let moving = ahead.or(behind);
    (
        moving.select(enter, overlap.select(always, never)),
        moving.select(exit, overlap.select(never, always)),
    )
}

/// `m` (rows of splatted entries) times four vectors given by coordinate rows.
#[inline(always)]
fn turned(m: &[[Four; 3]; 3], x: [f32; 4], y: [f32; 4], z: [f32; 4]) -> [Four; 3] {
    let (x, y, z) = (Four::load(&x), Four::load(&y), Four::load(&z));
    m.map(|[p, q, r]| Four::dot3(x, y, z, p, q, r))
}

/// The interval of the projections onto `axis` of vertices stored four at a time (padding
/// repeats a vertex, which leaves the extremes unchanged). Everything is finite here.
#[inline(always)]
pub(super) fn extent(groups: &[[[f32; 4]; 3]], axis: Vec3) -> Interval {
    let (ax, ay, az) = (
        Four::splat(axis.x),
        Four::splat(axis.y),
        Four::splat(axis.z),
    );
    let row = |g: &[[f32; 4]; 3]| {
        Four::dot3(
            Four::load(&g[0]),
            Four::load(&g[1]),
            Four::load(&g[2]),
            ax,
            ay,
            az,
        )
    };
    let first = row(&groups[0]);
    let (mut low, mut high) = (first, first);
    for g in &groups[1..] {
        let d = row(g);
        low = low.min(d);
        high = high.max(d);
    }
    Interval::new(low.min_lane(), high.max_lane())
}

/// [`LocalPair::visit_axes`]'s work, or with `EDGES_ONLY` [`LocalPair::visit_edge_axes`]'s,
/// for [`crate::simd::run`] to compile for the processor.
struct Visit<'l, 'a, 'b, 'm, const EDGES_ONLY: bool> {
    local: &'l LocalPair<'a, 'b>,
    variant: Variant,
    still: f32,
    touch: f32,
    latest: &'m mut Latest,
}

impl<const EDGES_ONLY: bool> Kernel for Visit<'_, '_, '_, '_, EDGES_ONLY> {
    type Output = ();
    #[inline(always)]
    fn run_in<L: Lanes>(self, isa: L::Isa) {
        let Visit {
            local,
            variant,
            still,
            touch,
            latest,
        } = self;
        if EDGES_ONLY {
            local.visit_edge_axes_in::<L>(isa, variant, still, touch, latest)
        } else {
            local.visit_axes_in::<L>(isa, variant, still, touch, latest)
        }
    }
}
