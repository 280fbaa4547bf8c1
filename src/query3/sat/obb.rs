//! Two boxes in each other's frames: B's rotation R and centre t in A's frame (and t in B's),
//! each box's reach along the other's axes, and Gottschalk's face separations (Gottschalk,
//! Lin and Manocha 1996; Ericson 4.4.1):
//!
//! ```text
//! face of A with local normal u = +-e_k:  separation = u . t - h_A[k] - sum_l h_B[l] |R[k][l]|
//! face of B with local normal v = +-e_l:  the same seen from B (t and R in B's frame)
//! ```
//!
//! The reference reads two boxes' face separations off this closed form, and the cuboid
//! fast path (`cuboid.rs`) reads its edge axes' closed forms off the same matrix.

use crate::geom3::Shape3Kind;
use crate::query3::PolyPair;
use glam::{Mat3A, Vec3, Vec3A};

/// Two cuboids, with B's rotation and position in A's frame: Gottschalk's OBB test
/// (Gottschalk, Lin and Manocha 1996; Ericson 4.4.1) for the face axes, and the matrix the
/// closed forms of the edge axes ([`EdgeGroups`]) read.
pub(crate) struct CuboidPair {
    /// `r.col(l)` is B's axis l in A's frame: `R[k][l] = A_k . B_l`.
    pub(super) r: Mat3A,
    /// From A's centre to B's in A's frame, and the same vector in B's frame.
    pub(super) t_in_a: Vec3A,
    pub(super) t_in_b: Vec3A,
    /// Along each axis of A (B): its own half extent plus the other box's reach,
    /// `h_a[k] + sum_l h_b[l] |R[k][l]|` (`h_b[l] + sum_k h_a[k] |R[k][l]|`).
    pub(super) reach_a: Vec3A,
    pub(super) reach_b: Vec3A,
    /// The half extents.
    pub(super) h_a: Vec3A,
    pub(super) h_b: Vec3A,
}

impl CuboidPair {
    /// `Some` for two cuboids placed with finite numbers (otherwise the other paths' face
    /// loops report the non-finite input).
    #[inline]
    pub(crate) fn new(pair: &PolyPair) -> Option<Self> {
        let (a, b) = (&pair.a, &pair.b);
        let (Shape3Kind::Cuboid { half_extents: h_a }, Shape3Kind::Cuboid { half_extents: h_b }) =
            (a.shape.kind(), b.shape.kind())
        else {
            return None;
        };
        // From A's centre to B's (A usually sits at the work frame's origin).
        let t = b.translation - a.translation;
        if !t.is_finite() {
            return None;
        }
        let r = a.frame_inverse * b.frame;
        if !(r.x_axis.is_finite() && r.y_axis.is_finite() && r.z_axis.is_finite()) {
            return None;
        }
        let (h_a, h_b) = (Vec3A::from(*h_a), Vec3A::from(*h_b));
        let r_abs = r.abs();
        let t = Vec3A::from(t);
        Some(CuboidPair {
            r,
            t_in_a: a.frame_inverse * t,
            t_in_b: b.frame_inverse * t,
            reach_a: h_a + r_abs * h_b,
            reach_b: h_b + r_abs.transpose() * h_a,
            h_a,
            h_b,
        })
    }

    /// Gottschalk's separation along a face of A with local normal `u`: `u . t - |u| . reach_a`
    /// (B's centre above the face, less both boxes' reach along it).
    #[inline]
    pub(crate) fn face_separation_a(&self, u: Vec3) -> f32 {
        let u = Vec3A::from(u);
        u.dot(self.t_in_a) - u.abs().dot(self.reach_a)
    }

    /// The same along a face of B with local normal `v`, seen from B: `-v . t - |v| . reach_b`
    /// (`t` in B's frame).
    #[inline]
    pub(crate) fn face_separation_b(&self, v: Vec3) -> f32 {
        let v = Vec3A::from(v);
        -v.dot(self.t_in_b) - v.abs().dot(self.reach_b)
    }
}
