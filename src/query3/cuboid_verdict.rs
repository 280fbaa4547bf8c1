//! GJK's intersection verdict for two cuboids in closed form, where it is sure: the boolean
//! test [`super::gjk::gjk_intersects`] answers two boxes clear of the touching band without
//! running the loop, as engines answer box-box overlap with the OBB test.
//!
//! Algorithm (Gottschalk, Lin and Manocha 1996; Ericson, *Real-Time Collision Detection*,
//! 4.4.1), with R = B's rotation in A's frame, t = B's centre in A's frame, h_A and h_B the
//! half extents, and every separation left unnormalized (no square root, no division):
//!
//! ```text
//! band = 2 touch + 256 e P           (touch: GJK's touch tolerance; P: the pair's extent)
//! face axes of A, k = 0..2:  N = |t[k]| - h_A[k] - sum_l h_B[l] |R[k][l]|
//! face axes of B: the same seen from B
//! any N > band: apart (the first one found ends the test)
//! edge axes L = A_k x B_l, (p, q) the axes after k, (r, s) after l:
//!     N = |t[q] R[p][l] - t[p] R[q][l]| - h_A[p] |R[q][l]| - h_A[q] |R[p][l]|
//!                                       - h_B[r] |R[k][s]| - h_B[s] |R[k][r]|
//!     any N > band: apart
//! every face axis and every edge axis with |L| >= NEARLY_PARALLEL has
//!     N < -(band + NEARLY_PARALLEL max(h_B)): overlapping
//! otherwise: not sure; GJK decides (the caller runs the loop)
//! ```
//!
//! Why the verdict is GJK's. GJK's bodies are the hulls of the placed vertices, each within
//! `4 e P` of the exact parallelepiped `F [-h, h] + t` of its stored frame F (orthonormal to
//! a few e), so their Minkowski difference is within `8 e P` of the exact one. For a
//! direction `u = F_A w` (w in A's frame, `|w| <= 1 + 4e`) the exact unnormalized
//! separation is `S(u) = u . t - sum h_A |u . A_m| - sum h_B |u . B_m|`, and `S(u) / |u|` the
//! separation along u. The closed form N above differs from `S(u)` by the rounding of R
//! (4 e per entry), of t (4 e |t|), of the identity `(e_k x R_l) . R_m = +-R[k][n]` (8 e,
//! B's frame being orthonormal only to a few e) and of the sums (at most eight terms, each
//! at most P): below `48 e P` in all; with the `8 e P` of the placed vertices, `64 e P`.
//! The band's `256 e P` is four times that (generous, as [`super::sat`]'s cuboid bounds
//! are), and its `2 touch` leaves a whole touch tolerance beyond GJK's own.
//! - Apart. One `N > band` gives `S(u) > 2 touch + 192 e P`, so GJK's bodies are farther
//!   apart than `2 touch` (`|u| <= 1 + 4e`). Every "touching" ending of GJK (a tetrahedron
//!   holding the origin, or a closest point within `touch` of it) needs a point of its
//!   simplex, a hull of computed points of A - B, within `touch` plus rounding of the
//!   origin: none can happen, and GJK says apart.
//! - Overlapping. The 15 directions hold every facet normal of the exact A - B (the face
//!   normals of both bodies and the cross products of non-parallel edge directions, each
//!   within a few e of the `F_A w` used here), and `S(u) / |u| <= S(u)` when `S(u) < 0`.
//!   A nearly parallel pair (k, l), `|L| < NEARLY_PARALLEL`, is skipped, and it is covered
//!   by its neighbours: its axis lies on the great circle square to A_k, where the depth
//!   `-S` is `h_A` (linear between A's face normals there) plus `h_B` less `n . t`; drop
//!   B's term `h_B[l] |n . B_l|`, at most `h_B[l] |L|` on that circle, and what is left is
//!   convex and piecewise linear with corners only at A's face normals and at the axes
//!   `A_k x B_m`, m != l (which have `|L|` near 1 and are tested), so on the whole circle
//!   the depth is at least the smallest at those corners less `h_B[l] |L|`. Hence the
//!   origin lies inside GJK's A - B deeper than `2 touch`. Then every support point lies
//!   more than `touch` beyond the origin along any search direction: the separating-axis
//!   exit, the no-progress exit (the gain is at least the depth, far above
//!   `tolerance |v| + noise`) and the repeated-support exit (the kept feature's vertices
//!   lie behind the origin) cannot fire. What is left is GJK's convergence itself (the
//!   distance must shrink every iteration and the cap is 64): exact GJK ends enclosing the
//!   origin, and the agreement harness (`src/agreement.rs`) checks it on thousands of
//!   cuboid pairs, ties and contacts a hair either side forced, where the verdict decides.
//!
//! Inside the band (touching or nearly touching boxes, resting contact) the caller runs GJK
//! as before, so the touch tolerance's verdict is GJK's own. Only the boolean test uses this:
//! `gjk` (the window, `query --json`, EPA's start) always runs the loop.

use super::sat::cuboid_setup;
use super::{PolyPair, TOUCH_TOLERANCE};
use glam::{Vec3A, Vec3Swizzles};

/// How many `f32::EPSILON`s of the pair's extent the band adds to twice the touch tolerance:
/// four times the `64 e P` by which the closed form and GJK's rounding can differ from the
/// exact separations (see the module header).
const ROUNDING_ULPS: f32 = 256.0;

/// `|A_k x B_l|` below which an edge pair is skipped for the overlap verdict: such a pair's
/// axis is no deeper than the pair's other axes on A_k's great circle less `h_B[l] |L|`
/// (see the header), so the other axes must overlap by that much more. Small enough that
/// one l at most per k is skipped (the other two then have `|L|` near 1).
const NEARLY_PARALLEL: f32 = 0.05;

/// GJK's intersection verdict for two cuboids, when the closed form is sure of it; `None`
/// for any other pair, a non-finite pose, or a largest separation inside the band around
/// touching.
#[inline]
pub(crate) fn cuboid_verdict(pair: &PolyPair) -> Option<bool> {
    let boxes = cuboid_setup(pair)?;
    let scale = pair.scale();
    // The pair's extent: every placed vertex is within it of the work frame's origin (A's
    // translation is zero for pairs built by `PolyPair::new`; its 1-norm bounds its length).
    let extent = scale + 2.0 * pair.a.translation.abs().element_sum();
    let band = 2.0 * TOUCH_TOLERANCE * scale + ROUNDING_ULPS * f32::EPSILON * extent;
    let (t, h_a, h_b) = (boxes.t_in_a, boxes.h_a, boxes.h_b);
    let above = Vec3A::splat(band);
    // Overlap must also beat what a skipped nearly parallel edge pair could hide.
    let below = Vec3A::splat(-(band + NEARLY_PARALLEL * h_b.max_element()));
    let faces_a = boxes.t_in_a.abs() - boxes.reach_a;
    let faces_b = boxes.t_in_b.abs() - boxes.reach_b;
    if (faces_a.cmpgt(above) | faces_b.cmpgt(above)).any() {
        return Some(false);
    }
    let mut deep = faces_a.cmplt(below) & faces_b.cmplt(below);
    let parallel = Vec3A::splat(NEARLY_PARALLEL * NEARLY_PARALLEL);
    // Row k of R: lane l holds R[k][l].
    let rows = boxes.r.transpose();
    for k in 0..3 {
        let (p, q) = ((k + 1) % 3, (k + 2) % 3);
        let (row_p, row_q, row_k) = (rows.col(p), rows.col(q), rows.col(k));
        // Lane l: R[k][s] and R[k][r] against h_B[r] and h_B[s], (r, s) the axes after l.
        let reach_b = row_k.zxy().abs() * h_b.yzx() + row_k.yzx().abs() * h_b.zxy();
        let reach = row_q.abs() * h_a[p] + row_p.abs() * h_a[q] + reach_b;
        let edges = (row_p * t[q] - row_q * t[p]).abs() - reach;
        if edges.cmpgt(above).any() {
            return Some(false);
        }
        // |L|^2 = R[p][l]^2 + R[q][l]^2: nearly parallel pairs are skipped (see the header).
        let length_squared = row_p * row_p + row_q * row_q;
        deep &= edges.cmplt(below) | length_squared.cmplt(parallel);
    }
    deep.all().then_some(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom3::{Polyhedron, Pose3, Shape3Kind};
    use glam::{Quat, Vec3};

    fn cuboid(h: Vec3) -> Polyhedron {
        Polyhedron::new(&Shape3Kind::Cuboid { half_extents: h }).unwrap()
    }

    #[test]
    fn touching_boxes_are_left_to_gjk() {
        // Resting face to face, edge on edge and corner to corner exactly: inside the band.
        let a = cuboid(Vec3::new(1.0, 0.5, 2.0));
        let b = cuboid(Vec3::new(0.5, 0.5, 0.5));
        let at = |p: Vec3| {
            let (pose_a, pose_b) = (
                Pose3::new(Vec3::ZERO, Quat::IDENTITY),
                Pose3::new(p, Quat::IDENTITY),
            );
            cuboid_verdict(&PolyPair::new(&a, &pose_a, &b, &pose_b))
        };
        assert_eq!(at(Vec3::new(0.0, 1.0, 0.0)), None);
        assert_eq!(at(Vec3::new(1.5, 1.0, 0.0)), None);
        assert_eq!(at(Vec3::new(1.5, 1.0, 2.5)), None);
        assert_eq!(at(Vec3::new(0.0, 1.1, 0.0)), Some(false));
        assert_eq!(at(Vec3::new(0.0, 0.9, 0.0)), Some(true));
    }

    #[test]
    fn hulls_and_round_cores_have_no_closed_form() {
        let hull = Polyhedron::new(&Shape3Kind::Hull {
            points: vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z],
        })
        .unwrap();
        let cube = cuboid(Vec3::ONE);
        let far = Pose3::new(Vec3::splat(10.0), Quat::IDENTITY);
        let pair = PolyPair::new(&hull, &Pose3::new(Vec3::ZERO, Quat::IDENTITY), &cube, &far);
        assert_eq!(cuboid_verdict(&pair), None);
        let nan = Pose3::new(Vec3::splat(f32::NAN), Quat::IDENTITY);
        let pair = PolyPair::new(&cube, &Pose3::new(Vec3::ZERO, Quat::IDENTITY), &cube, &nan);
        assert_eq!(cuboid_verdict(&pair), None);
    }
}
