//! The work frame's projections ([`super::reference::WorkFrame`]): a body's interval along
//! an axis from its vertices placed once per sweep (up to [`PLACED_CAPACITY`] vertices,
//! four at a time), or by support searches for larger bodies. The reference uses it traced
//! and untraced alike (it is how the work frame projects, not a separate path), so both
//! give the same bits. In the sweep only pairs with a large body, or a placement in A's
//! frame that is not finite, come here: small pairs are swept in A's frame.

use crate::query3::{Interval, Placed3};
use crate::simd::Four;
use glam::Vec3;

/// A body's vertices placed in the work frame once per sweep, for bodies of up to
/// [`PLACED_CAPACITY`] vertices: each axis then projects them with one dot product each,
/// where two support searches per body would each turn the axis into the body's frame and
/// scan (or climb) its vertices. Larger bodies keep the support searches.
///
/// The coordinates are also kept by component (padded with copies of the first vertex, which
/// leave the extremes unchanged), so that the projections are computed side by side; the
/// dot products are the same `x ax + y ay + z az` in the same order, so the extremes are the
/// same numbers bit for bit.
pub(super) struct PlacedVertices {
    points: [Vec3; PLACED_CAPACITY],
    x: [[f32; 4]; PLACED_ROWS],
    y: [[f32; 4]; PLACED_ROWS],
    z: [[f32; 4]; PLACED_ROWS],
    len: usize,
    /// Rows of four coordinates in use; 0 when a placed coordinate is not finite (a NaN
    /// pose), where the side-by-side extremes would not keep the NaN that the one-by-one
    /// scan reports.
    rows: usize,
}

/// The most vertices [`PlacedVertices`] holds (on the stack).
pub(super) const PLACED_CAPACITY: usize = 32;
const PLACED_ROWS: usize = PLACED_CAPACITY / 4;

impl PlacedVertices {
    pub(super) fn new(body: &Placed3) -> Self {
        let mut placed = PlacedVertices {
            points: [Vec3::ZERO; PLACED_CAPACITY],
            x: [[0.0; 4]; PLACED_ROWS],
            y: [[0.0; 4]; PLACED_ROWS],
            z: [[0.0; 4]; PLACED_ROWS],
            len: 0,
            rows: 0,
        };
        let count = body.shape.vertices().len();
        if count <= PLACED_CAPACITY {
            for (k, p) in placed.points[..count].iter_mut().enumerate() {
                *p = body.vertex(k);
            }
            placed.len = count;
            let rows = count.div_ceil(4);
            let mut finite = true;
            for k in 0..rows * 4 {
                let p = placed.points[if k < count { k } else { 0 }];
                finite &= p.is_finite();
                placed.x[k / 4][k % 4] = p.x;
                placed.y[k / 4][k % 4] = p.y;
                placed.z[k / 4][k % 4] = p.z;
            }
            placed.rows = if finite { rows } else { 0 };
        }
        placed
    }

    /// The interval of the body's projection onto `axis`.
    #[inline]
    pub(super) fn project(&self, body: &Placed3, axis: Vec3) -> Interval {
        if self.len == 0 {
            return body.project(axis);
        }
        // A sum of the components is finite only if they all are (or it overflows, which
        // only sends a finite axis the slow way).
        if self.rows > 0 && (axis.x + axis.y + axis.z).is_finite() {
            return self.project_rows(axis);
        }
        let (mut low, mut high) = (f32::INFINITY, f32::NEG_INFINITY);
        // Written so that a NaN (a NaN pose) sticks and is reported, as the support search
        // would report it.
        for p in &self.points[..self.len] {
            let d = p.dot(axis);
            if d < low || d.is_nan() {
                low = d;
            }
            if d > high || d.is_nan() {
                high = d;
            }
        }
        Interval::new(low, high)
    }

    /// [`Self::project`] for finite vertices and axis (no NaN can arise), four vertices at
    /// a time.
    #[inline]
    fn project_rows(&self, axis: Vec3) -> Interval {
        let (ax, ay, az) = (
            Four::splat(axis.x),
            Four::splat(axis.y),
            Four::splat(axis.z),
        );
        let row = |r: usize| {
            let (x, y, z) = (&self.x[r], &self.y[r], &self.z[r]);
            Four::dot3(Four::load(x), Four::load(y), Four::load(z), ax, ay, az)
        };
        let (mut low, mut high) = (row(0), row(0));
        for r in 1..self.rows {
            let d = row(r);
            low = low.min(d);
            high = high.max(d);
        }
        Interval::new(low.min_lane(), high.max_lane())
    }
}
