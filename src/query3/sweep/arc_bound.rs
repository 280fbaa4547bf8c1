//! The small-body path's bound over whole Gauss-map arcs ([`super::small`]): untraced, a
//! whole edge of A is left out (neither tested nor counted) when no axis its arc can give
//! could change the answer, which a bound over the arc proves from the face axes' state
//! ([`LocalPair::arcs_to_visit`]). The answer is the reference's to the bit; only
//! `axes_tested` is lower by the axes left out.
//!
//! ```text
//! E = best entry - tie,  X = min(earliest exit, t_max)   (an exit after t_max leaves t_last)
//! p  = tail of A's edge - (B's lowest vertex along a face normal n_k of the edge) - T
//! p' = (B's highest vertex along n_k) + T - (A's lowest vertex along n_k)
//!      (p is a point of A - B and p' of B - A: closing >= u . p, opening >= u . p')
//! approaching (u . v < 0): entry = closing / s <= E  when u . (p - E v) >= 0
//!                          exit = -opening / s >= X  when u . (p' + X v) >= 0
//! leaving (u . v > 0):     entry = -opening / s <= E when u . (p' + E v) >= 0
//!                          exit = closing / s >= X   when u . (p - X v) >= 0
//! all four at once hold for every sign of s (a still axis then overlaps); each is
//! linear in u, so holding at the arc's ends n0 and n1 (with p and p' some mix of the
//! two faces' points) it holds along the arc, and with a margin it holds for every axis
//! within `arc_slack` of it (the edges' skew and rounding over the parallel tolerance)
//! ```
//!
//! Why the answer does not change: the best entry only rises and the earliest exit only
//! falls after the face axes (an edge axis never wins a tie over a face), so the state each
//! left-out axis would have met leaves it unchanged too, as the witnesses' skip argues
//! ([`super::edge_pairs`]).

use super::reference::Latest;
use super::small::LocalPair;
use crate::query3::sat::PARALLEL_TOLERANCE;
use crate::simd::Lanes;

impl LocalPair<'_, '_> {
    /// The edges of A whose axes might change the answer, as bits (all set when the bound
    /// cannot be used): the others are left out (the header's bound over whole arcs). For
    /// each edge, `L::COUNT` at a time: B's lowest and highest vertices along each face
    /// normal of the edge (`w_k`, `w'_k`, the first found), so the points
    /// `p_k = tail - w_k - T` and `p'_k = w'_k + T - a_k` (`a_k` A's lowest vertex along
    /// `n_k`, stored) projected on both ends; then each of the four conditions must hold at both
    /// ends, with a margin, for some mix of the two faces' points ([`mixable`]). The margin
    /// of a time `c`: an axis within `slack` of the arc sees each point move by at most the
    /// slack times its length (`|p| <= R_A + R_B + |T|`, `|c v|`) and the near end of B's
    /// edge rise above B's lowest by at most the slack times B's diameter, and the full
    /// test's numbers carry rounding; `E s` and `X s` within the touch tolerance on a still
    /// axis (`|s| <= still`) keep it overlapping.
    #[inline(always)]
    pub(super) fn arcs_to_visit<L: Lanes>(
        &self,
        isa: L::Isa,
        latest: &Latest,
        still: f32,
        touch: f32,
    ) -> u64 {
        let (lanes_a, shape_a, shape_b) = (self.lanes_a, self.pair.a.shape, self.pair.b.shape);
        let Some(best) = latest.best else {
            return u64::MAX;
        };
        // An exit after the sweep time leaves `t_last` (the earliest exit, capped by it) as
        // it is, whatever it does to the earliest exit: exits need only stay above the cap.
        let (enter, exit) = (
            best.t_enter - latest.tie,
            latest.earliest_exit.min(latest.t_max),
        );
        let Some(slack) = arc_slack(lanes_a.arc_skew, self.lanes_b.arc_skew) else {
            return u64::MAX;
        };
        // Still axes must be seen to overlap: `E s` and `X s` stay within the touch tolerance.
        if !(enter.is_finite() && exit.is_finite())
            || enter.abs() * still > touch
            || exit.abs() * still > touch
        {
            return u64::MAX;
        }
        let (radius_a, radius_b) = (shape_a.bounding_radius(), shape_b.bounding_radius());
        let reach = radius_a + radius_b + self.translation.length();
        let speed = self.velocity.length();
        // The margin of a time `c` (see above).
        let margin =
            |c: f32| slack * (reach + 2.0 * radius_b + c.abs() * speed) + ARC_ROUNDING * reach;
        let splat = |v: f32| L::splat(isa, v);
        let (m_enter, m_exit) = (splat(margin(enter)), splat(margin(exit)));
        let (e, x) = (splat(enter), splat(exit));
        let zero = splat(0.0);
        let [tx, ty, tz] = self.translation.to_array().map(splat);
        let [vx, vy, vz] = self.velocity.to_array().map(splat);
        let points = &self.b.points.as_slice().as_flattened()[..shape_b.vertices().len()];
        let mut visit = 0u64;
        for (g, rows) in lanes_a.arc_reach.iter().enumerate() {
            for half in (0..8).step_by(L::COUNT) {
                let mut r = [zero; 12];
                for (lanes, row) in r.iter_mut().zip(rows) {
                    *lanes = L::load_from(isa, &row[half..]);
                }
                let (n0, n1) = ([r[0], r[1], r[2]], [r[3], r[4], r[5]]);
                // B's lowest and highest vertices along each normal (the first of each),
                // with their projections on both normals: `low[k][j]`, B's lowest along
                // `n_k` projected on `n_j`.
                let mut low = [[zero; 2]; 2];
                let mut high = [[zero; 2]; 2];
                for (i, p) in points.iter().enumerate() {
                    let (px, py, pz) = (splat(p.x), splat(p.y), splat(p.z));
                    let d = [
                        L::dot3(n0[0], n0[1], n0[2], px, py, pz),
                        L::dot3(n1[0], n1[1], n1[2], px, py, pz),
                    ];
                    if i == 0 {
                        (low, high) = ([d; 2], [d; 2]);
                        continue;
                    }
                    for k in 0..2 {
                        let lower = low[k][k].gt(d[k]);
                        low[k] = [lower.select(d[0], low[k][0]), lower.select(d[1], low[k][1])];
                        let higher = d[k].gt(high[k][k]);
                        high[k] = [
                            higher.select(d[0], high[k][0]),
                            higher.select(d[1], high[k][1]),
                        ];
                    }
                }
                let dot = |n: &[L; 3], p: [L; 3]| L::dot3(n[0], n[1], n[2], p[0], p[1], p[2]);
                let shift = [dot(&n0, [tx, ty, tz]), dot(&n1, [tx, ty, tz])];
                let s = [dot(&n0, [vx, vy, vz]), dot(&n1, [vx, vy, vz])];
                // At end `j`, with the tangent point of face `k`: `n_j . p_k` (p_k = tail -
                // B's lowest along n_k - T) and `n_j . p'_k` (p'_k = B's highest along n_k +
                // T - A's lowest along n_k).
                let mut near = [[zero; 2]; 2];
                let mut far = [[zero; 2]; 2];
                for k in 0..2 {
                    for j in 0..2 {
                        near[k][j] = r[6 + j].minus(low[k][j]).minus(shift[j]);
                        far[k][j] = high[k][j].add(shift[j]).minus(r[8 + 2 * k + j]);
                    }
                }
                let unchanged = mixable(moved(&near, e.neg(), &s), m_enter, zero)
                    .and(mixable(moved(&far, e, &s), m_enter, zero))
                    .and(mixable(moved(&far, x, &s), m_exit, zero))
                    .and(mixable(moved(&near, x.neg(), &s), m_exit, zero));
                let lanes = (1u64 << L::COUNT) - 1;
                visit |= (!(unchanged.mask_bits() as u64) & lanes) << (8 * g + half);
            }
        }
        visit
    }
}

/// Whether some mix of two tangent points keeps `value - m >= 0` at both ends of an arc
/// (`values[k][j]`: tangent point `k` at end `j`): the mixes are points of the same
/// Minkowski difference, and the segment from the second point's two numbers to the first's
/// must meet the closed positive quadrant (at an end, or crossing it: the sign of their
/// cross product says on which side of the origin the segment passes).
#[inline(always)]
fn mixable<L: Lanes>(values: [[L; 2]; 2], m: L, zero: L) -> L {
    let [[q0, q1], [p0, p1]] = values;
    let [q0, q1, p0, p1] = [q0.minus(m), q1.minus(m), p0.minus(m), p1.minus(m)];
    let cross = p0.mul(q1).minus(p1.mul(q0));
    let [p0_in, p1_in, q0_in, q1_in] = [p0, p1, q0, q1].map(|v| zero.le(v));
    let [p0_out, p1_out, q0_out, q1_out] = [p0, p1, q0, q1].map(|v| zero.gt(v));
    let either_end = p0_in.and(p1_in).or(q0_in.and(q1_in));
    let rising = p0_out.and(p1_in).and(q0_in).and(q1_out).and(cross.le(zero));
    let falling = p1_out.and(p0_in).and(q1_in).and(q0_out).and(zero.le(cross));
    either_end.or(rising).or(falling)
}

/// `values[k][j] + c s[j]` (a tangent point's number at an end of an arc moved by a time
/// `c`: `n . (p + c v)`).
#[inline(always)]
fn moved<L: Lanes>(values: &[[L; 2]; 2], c: L, s: &[L; 2]) -> [[L; 2]; 2] {
    let [[a, b], [d, e]] = *values;
    [
        [a.add(c.mul(s[0])), b.add(c.mul(s[1]))],
        [d.add(c.mul(s[0])), e.add(c.mul(s[1]))],
    ]
}

/// How far an edge axis may lie from its two arcs, for the bound over whole arcs (see the
/// header), or `None` where that is too far for the bound to be worth using: the axis
/// (their edges' cross product) is on each edge's great circle; where an arc's pole leaves
/// its edge by `skew` (a merged face that is only nearly flat), and with the rounding of
/// the sign tests and the cross product, the crossing moves along the circles by up to
/// their sum over the sine of the angle between the edges, which is at least
/// [`PARALLEL_TOLERANCE`]; four times that.
fn arc_slack(skew_a: f32, skew_b: f32) -> Option<f32> {
    let slack = 4.0 * (skew_a + skew_b + ARC_ROUNDING) / PARALLEL_TOLERANCE;
    (slack <= 0.05).then_some(slack)
}

/// The rounding allowed for, relative to the sizes, in [`arc_slack`] and in the full
/// test's numbers (about sixteen `f32` roundings).
const ARC_ROUNDING: f32 = 1.0e-6;
