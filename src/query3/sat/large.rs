//! SAT for large bodies, untraced: a pair that is neither two boxes nor two small bodies
//! ([`super::support::is_small`]). Its face loops are the reference's, face by face (each
//! support search climbing from the previous face's support vertex, as the reference's
//! does); its edge pairs come from the arc tree ([`super::arc_tree`]) when both poses are
//! finite, else from [`sat`]'s loop here, which visits every pair as the reference does.
//!
//! Why it gives the reference's answer: the same faces, frames and arithmetic
//! ([`EdgeFrame::new`], [`edge_pair_axis`]); the Gauss-map test runs before the parallel test
//! (a pair must pass both, so the order changes no axis), and when B has more edges than
//! [`EDGE_FRAME_CACHE`], a pair whose Gauss-map signs are clear in B's local frame
//! ([`EdgeFrames::surely_apart`], trusted beyond [`GAUSS_PREFILTER_MARGIN`]) is pruned
//! without placing B's edge: the exact test would prune it too.

use super::reference::{edge_pair_axis, face_separation, finish, prefer, EdgeFrame};
use super::{preference_tolerance, AxisId, Best, Output};
use crate::inline_vec::InlineVec;
use crate::query3::{Placed3, PolyPair};
use glam::Vec3;

/// SAT for large bodies whose edge pairs do not take the arc tree (a pose that is not
/// finite), untraced: the reference's face loops ([`face_axes`]), then every edge pair.
pub(crate) fn sat(pair: &PolyPair) -> Output {
    let (a, b) = (&pair.a, &pair.b);
    let (mut tested, mut pruned) = (0u32, 0u32);
    let (face_a, face_b) = face_axes(pair, &mut tested);
    let mut edge = Best::none(AxisId::Edges(0, 0));
    let centroid_a = a.centroid();
    let frames_b = EdgeFrames::new(b);
    let edges_b = b.shape.edges().len();
    for (i, ea) in a.shape.edges().iter().enumerate() {
        let frame_a = EdgeFrame::new(a, ea);
        let local_a = frames_b.local_arc(&frame_a);
        for j in 0..edges_b {
            if let Some(local_a) = &local_a {
                if frames_b.surely_apart(local_a, j) {
                    pruned += 1;
                    continue;
                }
            }
            match frames_b.with(j, |frame_b| {
                edge_pair_axis(&frame_a, frame_b, centroid_a, false)
            }) {
                Err(_) => pruned += 1,
                Ok((axis, separation)) => {
                    edge.offer(separation, axis, AxisId::Edges(i as u32, j as u32));
                    tested += 1;
                }
            }
        }
    }
    let best = prefer(face_a, face_b, edge, preference_tolerance(pair));
    finish(pair, best, tested, pruned)
}

/// The reference's face loops, untraced: the best face of A and of B ([`face_separation`],
/// a large body's support search climbing from the previous face's support vertex), each
/// face counted in `tested`.
pub(super) fn face_axes(pair: &PolyPair, tested: &mut u32) -> (Best, Best) {
    let (a, b) = (&pair.a, &pair.b);
    let (mut start_a, mut start_b) = (0usize, 0usize);
    let mut face_a = Best::none(AxisId::FaceA(0));
    for i in 0..a.shape.face_count() {
        let (n, separation) = face_separation(a, b, i, &mut start_b);
        face_a.offer(separation, n, AxisId::FaceA(i as u32));
        *tested += 1;
    }
    let mut face_b = Best::none(AxisId::FaceB(0));
    for j in 0..b.shape.face_count() {
        let (n, separation) = face_separation(b, a, j, &mut start_a);
        face_b.offer(separation, -n, AxisId::FaceB(j as u32));
        *tested += 1;
    }
    (face_a, face_b)
}

/// Whether the Gauss-map test surely rejects a pair, judged from one edge's arc `k` turned
/// into the other body's frame and that body's stored arc `m` (each `[n0, n1, n1 x n0]`),
/// before the pair is placed in the work frame: the ends of one arc on the same side of the
/// other's plane, both signs clear by [`GAUSS_PREFILTER_MARGIN`] (the test of
/// [`arcs_cross`] negates B's arc, which flips both signs of a side test and so not whether
/// they agree, whichever body `k` belongs to). [`EdgeFrames::surely_apart`] and the arc-tree
/// search both ask it.
#[inline]
pub(super) fn surely_apart(k: &[Vec3; 3], m: &[Vec3; 3]) -> bool {
    let margin = GAUSS_PREFILTER_MARGIN;
    let same_side = |p: f32, q: f32| (p > margin && q > margin) || (p < -margin && q < -margin);
    same_side(m[0].dot(k[2]), m[1].dot(k[2])) || same_side(k[0].dot(m[2]), k[1].dot(m[2]))
}

/// How many of body B's edges are placed once per query and kept on the stack; bodies with
/// more edges place each edge again for every edge of A (same result, more work).
pub(crate) const EDGE_FRAME_CACHE: usize = 64;

/// The Gauss-map prefilter for large bodies ([`EdgeFrames::surely_apart`]) trusts a sign
/// computed in B's local frame only beyond this. The same sign computed in the work frame
/// differs from it by the rounding of a rotation and a cross product of unit vectors, a few
/// times `f32::EPSILON` (1.2e-7); 1e-5 is about 80 times that, and a pair inside the margin
/// is simply decided by the exact test.
pub(crate) const GAUSS_PREFILTER_MARGIN: f32 = 1.0e-5;

/// Body B's edges placed in the work frame once, for the O(edges of A x edges of B) loops.
pub(crate) struct EdgeFrames<'p, 'a> {
    body: &'p Placed3<'a>,
    cache: InlineVec<EdgeFrame, EDGE_FRAME_CACHE>,
}

impl<'p, 'a> EdgeFrames<'p, 'a> {
    pub(crate) fn new(body: &'p Placed3<'a>) -> Self {
        let mut frames = EdgeFrames {
            body,
            cache: InlineVec::new(),
        };
        let edges = body.shape.edges();
        if edges.len() <= EDGE_FRAME_CACHE {
            frames
                .cache
                .extend(edges.iter().map(|e| EdgeFrame::new(body, e)));
        }
        frames
    }

    /// The frames placed once (empty when the body has more than [`EDGE_FRAME_CACHE`]
    /// edges).
    #[inline]
    pub(crate) fn cached(&self) -> &[EdgeFrame] {
        self.cache.as_slice()
    }

    /// A's edge's Gauss-map arc turned into B's local frame, for [`Self::surely_apart`]:
    /// `Some` only when B's frames are not cached (large bodies, where placing B's edge for
    /// every pair is what the O(edges of A x edges of B) loop spends its time on).
    #[inline]
    pub(crate) fn local_arc(&self, a: &EdgeFrame) -> Option<[Vec3; 3]> {
        if !self.cached().is_empty() {
            return None;
        }
        let inverse = self.body.rotation.inverse();
        Some([inverse * a.n0, inverse * a.n1, inverse * a.arc])
    }

    /// Whether the Gauss-map test surely rejects the pair (A's edge, B's edge `j`), judged in
    /// B's local frame from the arcs the polyhedron stores, without placing B's edge. The two
    /// sign tests of [`arcs_cross`] that reject most pairs (the ends of one arc on the same
    /// side of the other's plane) are taken only when both signs are clear by
    /// [`GAUSS_PREFILTER_MARGIN`], so the answer is the one the work-frame test gives; every
    /// other pair goes on to that test.
    #[inline]
    pub(crate) fn surely_apart(&self, a_local: &[Vec3; 3], j: usize) -> bool {
        surely_apart(a_local, &self.body.shape.edge_arc(j))
    }

    /// Calls `f` with the frame of edge `j`, by reference when cached (not copied out: why
    /// in docs/performance.md, "Notes moved out of the source headers"), else freshly
    /// placed.
    #[inline]
    pub(crate) fn with<R>(&self, j: usize, f: impl FnOnce(&EdgeFrame) -> R) -> R {
        let cached = self.cached();
        if j < cached.len() {
            f(&cached[j])
        } else {
            f(&EdgeFrame::new(self.body, &self.body.shape.edges()[j]))
        }
    }
}
