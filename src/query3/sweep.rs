//! Swept SAT in 3D: when do two polyhedra translating at constant velocities first touch,
//! and when do they part?
//!
//! Algorithm (Ericson, *Real-Time Collision Detection*, 5.5.8, generalised to every
//! separating axis of two polyhedra; Eberly, "Dynamic collision detection using oriented
//! bounding boxes"):
//!
//! ```text
//! axes = the SAT axes at t = 0: faces of A, faces of B, edge pairs that pass the parallel
//!        and Gauss-map tests (pure translation moves A - B without turning it, so these
//!        stay exactly the face normals of A - B for every t)
//! v = vB - vA; on axis u, B's interval slides at speed s = v . u
//!     s > 0: t_enter = (minA - maxB) / s,  t_exit = (maxA - minB) / s
//!     s < 0: t_enter = (maxA - minB) / s,  t_exit = (minA - maxB) / s
//!     s = 0: always (intervals overlap) or never
//! t_first = max t_enter, t_last = min t_exit over all axes
//! hit when max(t_first, 0) <= min(t_last, t_max); the axis with the latest t_enter gives the
//! normal (+u when s < 0, -u when s > 0); the manifold is built at t_first along it
//! ```
//!
//! On a tie of t_enter (the two opposite faces of a box give the same line) the face that
//! faces the contact is kept, and a face axis is kept over an edge axis.
//!
//! Every axis is tested, traced or not. For small bodies (up to 32 vertices, 64 faces and
//! 64 edges each: [`SmallPair`]) the vertices and face normals are placed in the work frame
//! once, each axis projects four vertices at a time, and one edge of A takes the Gauss-map
//! test against four edges of B at a time; the arithmetic is the per-pair loop's, so the
//! axes, intervals and times are the same numbers (a property test compares every step).

use super::lanes::Four;
use super::manifold::{contact_manifold, Output as Manifold};
use super::sat::{edge_pair_axis, sat_test, AxisId, EdgeFrame, EdgeFrames};
use super::{Interval, PolyPair};
use crate::trace::Tracer;
use glam::Vec3;

/// A relative speed along an axis below this times the pair's scale (per unit time) counts
/// as no motion along it: the test then asks whether the intervals overlap at all.
pub const STILL_SPEED: f32 = 1.0e-9;

/// Entry times within this fraction of the sweep time count as a tie (see the header).
pub const TIE_TOLERANCE: f32 = 1.0e-6;

/// Both bodies' linear velocities and the end of the time interval, which starts at 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion3 {
    pub velocity_a: Vec3,
    pub velocity_b: Vec3,
    pub t_max: f32,
}

/// How the sweep ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The bodies first touch at `t_first` in (0, t_max].
    Hit,
    /// The bodies overlap (or touch) already at t = 0.
    InitiallyOverlapping,
    /// Some axis keeps them apart for the whole interval.
    Miss,
    /// A NaN or infinite number in the input: reported as a miss.
    NonFinite,
    /// A sphere or a capsule takes part: swept SAT has no finite axis set for round shapes
    /// (the closest-point axis turns as the bodies move), so the sweep does not run and
    /// reports no hit. See [`Output::refused_round`].
    RoundShapesUnsupported,
}

impl Status {
    pub fn key(self) -> &'static str {
        match self {
            Status::Hit => "hit",
            Status::InitiallyOverlapping => "initially_overlapping",
            Status::Miss => "miss",
            Status::NonFinite => "non_finite",
            Status::RoundShapesUnsupported => "round_shapes_unsupported",
        }
    }
}

/// One axis of the sweep: intervals at t = 0 (world projections), B's speed along it
/// relative to A, and the times its intervals overlap (`t_enter > t_exit` when never).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepAxis {
    pub id: AxisId,
    /// The unit axis as SAT orients it (A toward B at t = 0).
    pub axis: Vec3,
    pub interval_a: Interval,
    pub interval_b: Interval,
    pub speed: f32,
    pub t_enter: f32,
    pub t_exit: f32,
}

/// A recorded step of the sweep.
pub type Step = SweepAxis;

/// What the sweep found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Output {
    pub hit: bool,
    /// Time of first contact, in [0, t_max], when hit (0 when they overlap at the start).
    pub t_first: Option<f32>,
    /// Time of last contact, in [t_first, t_max], when hit.
    pub t_last: Option<f32>,
    /// Unit contact normal at `t_first`, from A toward B.
    pub normal: Vec3,
    /// The axis that set `t_first` (when they overlap at t = 0: SAT's axis then).
    pub axis: AxisId,
    pub status: Status,
    pub axes_tested: u32,
    /// The contact manifold at `t_first`, along `normal`.
    pub manifold: Option<Manifold>,
}

impl Output {
    /// The sweep's answer for a pair with a round shape: not run, no hit, no times
    /// ([`Status::RoundShapesUnsupported`]).
    pub fn refused_round() -> Output {
        Output {
            hit: false,
            t_first: None,
            t_last: None,
            normal: Vec3::ZERO,
            axis: AxisId::Closest,
            status: Status::RoundShapesUnsupported,
            axes_tested: 0,
            manifold: None,
        }
    }
}

/// Sweeps without recording.
pub fn sweep_test(pair: &PolyPair, motion: &Motion3) -> Output {
    sweep(pair, motion, &mut ())
}

/// Sweeps the pair over [0, motion.t_max], recording every axis's time interval.
pub fn sweep<T: Tracer<Step>>(pair: &PolyPair, motion: &Motion3, tracer: &mut T) -> Output {
    let mut out = time_of_impact(pair, motion, tracer);
    if let Some(t) = out.t_first {
        let at_contact = PolyPair {
            a: pair.a.translated(motion.velocity_a * t),
            b: pair.b.translated(motion.velocity_b * t),
            origin: pair.origin,
        };
        out.manifold = Some(contact_manifold(&at_contact, out.normal));
    }
    out
}

/// The sweep's times and normal only, without the manifold (what an engine's continuous
/// collision step asks for). `manifold` is `None`.
pub fn time_of_impact<T: Tracer<Step>>(
    pair: &PolyPair,
    motion: &Motion3,
    tracer: &mut T,
) -> Output {
    time_of_impact_with(pair, motion, tracer, true)
}

/// [`time_of_impact`], with the small-body path ([`SmallPair`]) allowed or not (a test runs
/// both and compares every step bit for bit).
fn time_of_impact_with<T: Tracer<Step>>(
    pair: &PolyPair,
    motion: &Motion3,
    tracer: &mut T,
    small_path: bool,
) -> Output {
    let v = motion.velocity_b - motion.velocity_a;
    let still = STILL_SPEED * pair.scale();
    let tie = TIE_TOLERANCE * motion.t_max.abs();
    let (a, b) = (&pair.a, &pair.b);
    let mut latest: Option<SweepAxis> = None;
    let mut earliest_exit = f32::INFINITY;
    let mut tested = 0u32;
    // One step per face axis and per edge pair whose Gauss-map arcs cross (on the order of
    // the two edge counts, the overlay of two Gauss maps): room for them made once.
    let faces = a.shape.face_count() + b.shape.face_count();
    tracer.reserve(faces + a.shape.edges().len() + b.shape.edges().len());
    let placed_a = PlacedVertices::new(a);
    let placed_b = PlacedVertices::new(b);
    let mut consider = |id: AxisId, axis: Vec3| {
        let swept = time_interval(
            pair,
            id,
            axis,
            placed_a.project(a, axis),
            placed_b.project(b, axis),
            v,
            still,
        );
        tested += 1;
        tracer.record(|| swept);
        let better = match latest {
            None => true,
            Some(best) => {
                swept.t_enter > best.t_enter + tie
                    || (swept.t_enter >= best.t_enter - tie
                        && rank(&swept) > rank(&best)
                        && swept.t_enter.is_finite())
                    || swept.t_enter.is_nan()
            }
        };
        if better {
            latest = Some(swept);
        }
        earliest_exit = earliest_exit.min(swept.t_exit);
    };
    if small_path && SmallPair::fits(pair, &placed_a, &placed_b) {
        SmallPair::new(pair, &placed_a, &placed_b).visit_axes(&mut consider);
    } else {
        for i in 0..a.shape.face_count() {
            consider(AxisId::FaceA(i as u32), a.face_normal(i));
        }
        for j in 0..b.shape.face_count() {
            consider(AxisId::FaceB(j as u32), -b.face_normal(j));
        }
        let centroid_a = a.centroid();
        let frames_b = EdgeFrames::new(b);
        for (i, ea) in a.shape.edges().iter().enumerate() {
            let frame_a = EdgeFrame::new(a, ea);
            let local_a = frames_b.local_arc(&frame_a);
            for j in 0..b.shape.edges().len() {
                if let Some(local_a) = &local_a {
                    if frames_b.surely_apart(local_a, j) {
                        continue;
                    }
                }
                if let Ok((axis, _)) = frames_b.with(j, |frame_b| {
                    edge_pair_axis(&frame_a, frame_b, centroid_a, false)
                }) {
                    consider(AxisId::Edges(i as u32, j as u32), axis);
                }
            }
        }
    }
    let miss = |status| Output {
        hit: false,
        t_first: None,
        t_last: None,
        normal: Vec3::X,
        axis: latest.map_or(AxisId::FaceA(0), |l| l.id),
        status,
        axes_tested: tested,
        manifold: None,
    };
    let Some(best) = latest else {
        return miss(Status::Miss);
    };
    if best.t_enter.is_nan() || earliest_exit.is_nan() || !v.is_finite() {
        return miss(Status::NonFinite);
    }
    let t_first = best.t_enter.max(0.0);
    let t_last = earliest_exit.min(motion.t_max);
    if t_first > t_last {
        return miss(Status::Miss);
    }
    let (status, normal, axis) = if best.t_enter <= 0.0 {
        let s = sat_test(pair);
        (Status::InitiallyOverlapping, s.normal, s.axis)
    } else {
        let normal = if best.speed > 0.0 {
            -best.axis
        } else {
            best.axis
        };
        (Status::Hit, normal, best.id)
    };
    Output {
        hit: true,
        t_first: Some(t_first),
        t_last: Some(t_last.max(t_first)),
        normal,
        axis,
        status,
        axes_tested: tested,
        manifold: None,
    }
}

/// Tie-break order: a face facing the contact, then any face, then an edge pair.
fn rank(axis: &SweepAxis) -> u8 {
    // Moving toward each other along -axis (speed < 0) means the +axis side faces B.
    let facing = axis.speed < 0.0;
    match (axis.id.is_face(), facing) {
        (true, true) => 2,
        (true, false) => 1,
        _ => 0,
    }
}

/// A body's vertices placed in the work frame once per sweep, for bodies of up to
/// [`PLACED_CAPACITY`] vertices: each axis then projects them with one dot product each,
/// where two support searches per body would each turn the axis into the body's frame and
/// scan (or climb) its vertices. Larger bodies keep the support searches.
///
/// The coordinates are also kept by component (padded with copies of the first vertex, which
/// leave the extremes unchanged), so that the projections are computed side by side; the
/// dot products are the same `x ax + y ay + z az` in the same order, so the extremes are the
/// same numbers bit for bit.
struct PlacedVertices {
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
const PLACED_CAPACITY: usize = 32;
const PLACED_ROWS: usize = PLACED_CAPACITY / 4;

impl PlacedVertices {
    fn new(body: &super::Placed3) -> Self {
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
    fn project(&self, body: &super::Placed3, axis: Vec3) -> Interval {
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

/// The most faces and edges of a body [`SmallPair`] handles (B's edges are one bit each of a
/// `u64` per edge of A).
const SMALL_FEATURES: usize = 64;

/// Both bodies' face normals placed once, and B's edges' Gauss-map arcs stored by component,
/// for pairs of small bodies (up to [`PLACED_CAPACITY`] finite vertices and
/// [`SMALL_FEATURES`] faces and edges each). The axes are the same, in the same order, as the
/// general loop's: the Gauss-map test of one edge of A against all of B's edges is computed
/// side by side with the same arithmetic as `sat::arcs_cross`, and every pair it passes goes
/// through [`edge_pair_axis`] as before (which repeats it and adds the parallel test); every
/// number is the one the per-pair placement gives.
struct SmallPair<'p, 'a> {
    pair: &'p PolyPair<'a>,
    vertices_a: &'p PlacedVertices,
    vertices_b: &'p PlacedVertices,
    normals_a: [Vec3; SMALL_FEATURES],
    normals_b: [Vec3; SMALL_FEATURES],
    /// B's arcs as `arcs_cross` takes them, by component: `c = -n0`, `d = -n1`, and the
    /// arc's plane `n1 x n0`. Unused entries are zero, which the first sign test rejects.
    c: [[[f32; 4]; EDGE_ROWS]; 3],
    d: [[[f32; 4]; EDGE_ROWS]; 3],
    plane: [[[f32; 4]; EDGE_ROWS]; 3],
    edge_rows: usize,
}

const EDGE_ROWS: usize = SMALL_FEATURES / 4;

impl<'p, 'a> SmallPair<'p, 'a> {
    /// For bodies that pass [`Self::fits`].
    fn new(
        pair: &'p PolyPair<'a>,
        vertices_a: &'p PlacedVertices,
        vertices_b: &'p PlacedVertices,
    ) -> Self {
        let (a, b) = (&pair.a, &pair.b);
        let mut normals_a = [Vec3::ZERO; SMALL_FEATURES];
        for (i, n) in normals_a[..a.shape.face_count()].iter_mut().enumerate() {
            *n = a.face_normal(i);
        }
        let mut normals_b = [Vec3::ZERO; SMALL_FEATURES];
        for (j, n) in normals_b[..b.shape.face_count()].iter_mut().enumerate() {
            *n = b.face_normal(j);
        }
        let mut small = SmallPair {
            pair,
            vertices_a,
            vertices_b,
            normals_a,
            normals_b,
            c: [[[0.0; 4]; EDGE_ROWS]; 3],
            d: [[[0.0; 4]; EDGE_ROWS]; 3],
            plane: [[[0.0; 4]; EDGE_ROWS]; 3],
            edge_rows: b.shape.edges().len().div_ceil(4),
        };
        for (j, e) in b.shape.edges().iter().enumerate() {
            let n0 = normals_b[e.faces[0] as usize];
            let n1 = normals_b[e.faces[1] as usize];
            let (c, d, plane) = (-n0, -n1, n1.cross(n0));
            let (r, k) = (j / 4, j % 4);
            for (axis, (c, d, plane)) in [
                (c.x, d.x, plane.x),
                (c.y, d.y, plane.y),
                (c.z, d.z, plane.z),
            ]
            .into_iter()
            .enumerate()
            {
                small.c[axis][r][k] = c;
                small.d[axis][r][k] = d;
                small.plane[axis][r][k] = plane;
            }
        }
        small
    }

    /// Whether both bodies are small enough for [`SmallPair`] (and finite).
    fn fits(pair: &PolyPair, vertices_a: &PlacedVertices, vertices_b: &PlacedVertices) -> bool {
        let small = |body: &super::Placed3, placed: &PlacedVertices| {
            placed.rows > 0
                && body.shape.face_count() <= SMALL_FEATURES
                && body.shape.edges().len() <= SMALL_FEATURES
        };
        small(&pair.a, vertices_a) && small(&pair.b, vertices_b)
    }

    #[inline]
    fn edge_frame(&self, first: bool, e: &crate::geom3::Edge) -> EdgeFrame {
        let (vertices, normals) = if first {
            (self.vertices_a, &self.normals_a)
        } else {
            (self.vertices_b, &self.normals_b)
        };
        EdgeFrame::from_placed(
            vertices.points[e.tail as usize],
            vertices.points[e.head as usize],
            normals[e.faces[0] as usize],
            normals[e.faces[1] as usize],
        )
    }

    /// Bit `j` set when the Gauss-map arcs of an edge of A (its faces' normals `n0`, `n1`
    /// and `arc = n1 x n0`) and B's edge `j` cross:
    /// `sat::arcs_cross(n0, n1, arc, -b.n0, -b.n1, b.arc)`, four edges of B at a time.
    #[inline]
    fn crossing_arcs(&self, n0: Vec3, n1: Vec3, arc: Vec3) -> u64 {
        let [cx, cy, cz] = &self.c;
        let [dx, dy, dz] = &self.d;
        let [px, py, pz] = &self.plane;
        let (arc_x, arc_y, arc_z) = (Four::splat(arc.x), Four::splat(arc.y), Four::splat(arc.z));
        let (n0x, n0y, n0z) = (Four::splat(n0.x), Four::splat(n0.y), Four::splat(n0.z));
        let (n1x, n1y, n1z) = (Four::splat(n1.x), Four::splat(n1.y), Four::splat(n1.z));
        let mut mask = 0u64;
        for r in 0..self.edge_rows {
            let (px, py, pz) = (Four::load(&px[r]), Four::load(&py[r]), Four::load(&pz[r]));
            let cx = Four::load(&cx[r]);
            let cba = Four::dot3(
                cx,
                Four::load(&cy[r]),
                Four::load(&cz[r]),
                arc_x,
                arc_y,
                arc_z,
            );
            let dx = Four::load(&dx[r]);
            let dba = Four::dot3(
                dx,
                Four::load(&dy[r]),
                Four::load(&dz[r]),
                arc_x,
                arc_y,
                arc_z,
            );
            let adc = Four::dot3(n0x, n0y, n0z, px, py, pz);
            let bdc = Four::dot3(n1x, n1y, n1z, px, py, pz);
            // As `arcs_cross`: !(cba dba >= 0) (its early return), adc bdc < 0, cba bdc > 0.
            let bits =
                Four::not_nonnegative_negative_positive(cba.mul(dba), adc.mul(bdc), cba.mul(bdc));
            mask |= (bits as u64) << (4 * r);
        }
        mask
    }

    /// Offers every axis to `consider`, in the general loop's order: A's faces, B's faces,
    /// then the edge pairs (A's edge major) that pass the Gauss-map and parallel tests.
    fn visit_axes(&self, consider: &mut impl FnMut(AxisId, Vec3)) {
        let (a, b) = (&self.pair.a, &self.pair.b);
        for i in 0..a.shape.face_count() {
            consider(AxisId::FaceA(i as u32), self.normals_a[i]);
        }
        for j in 0..b.shape.face_count() {
            consider(AxisId::FaceB(j as u32), -self.normals_b[j]);
        }
        let centroid_a = a.centroid();
        let edges_b = b.shape.edges();
        for (i, ea) in a.shape.edges().iter().enumerate() {
            let frame_a = self.edge_frame(true, ea);
            let mut mask = self.crossing_arcs(frame_a.n0, frame_a.n1, frame_a.arc);
            while mask != 0 {
                let j = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let frame_b = self.edge_frame(false, &edges_b[j]);
                if let Ok((axis, _)) = edge_pair_axis(&frame_a, &frame_b, centroid_a, false) {
                    consider(AxisId::Edges(i as u32, j as u32), axis);
                }
            }
        }
    }
}

fn time_interval(
    pair: &PolyPair,
    id: AxisId,
    axis: Vec3,
    ia: Interval,
    ib: Interval,
    v: Vec3,
    still: f32,
) -> SweepAxis {
    let speed = v.dot(axis);
    let (t_enter, t_exit) = if speed > still {
        ((ia.min - ib.max) / speed, (ia.max - ib.min) / speed)
    } else if speed < -still {
        ((ia.max - ib.min) / speed, (ia.min - ib.max) / speed)
    } else {
        let touch = pair.touch_tolerance();
        if ib.min <= ia.max + touch && ia.min <= ib.max + touch {
            (f32::NEG_INFINITY, f32::INFINITY)
        } else {
            (f32::INFINITY, f32::NEG_INFINITY)
        }
    };
    let shift = axis.dot(pair.origin);
    SweepAxis {
        id,
        axis,
        interval_a: ia.shifted(shift),
        interval_b: ib.shifted(shift),
        speed,
        t_enter,
        t_exit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query3::manifold::FeaturePair;
    use crate::query3::testing::*;

    fn motion(vb: Vec3) -> Motion3 {
        Motion3 {
            velocity_a: Vec3::ZERO,
            velocity_b: vb,
            t_max: 1.0,
        }
    }

    #[test]
    fn the_rotated_cube_hits_on_a_s_x_face() {
        // The issue's hand-checked case: B's leading edge is at 3 - sqrt(0.5) = 2.2929,
        // A's face at 0.5, closing at 5 per unit time: t_first = 1.7929 / 5 = 0.358579;
        // B's trailing edge at 3.7071 passes -0.5 at t_last = 4.2071 / 5 = 0.841421.
        let cube = cuboid(0.5, 0.5, 0.5);
        let pair = PolyPair::new(
            &cube,
            &at(0., 0., 0.),
            &cube,
            &at_deg(Vec3::new(3., 0., 0.), Vec3::new(0., 0., 45.)),
        );
        let mut steps = Vec::new();
        let out = sweep(&pair, &motion(Vec3::new(-5., 0., 0.)), &mut steps);
        assert_eq!(out, sweep_test(&pair, &motion(Vec3::new(-5., 0., 0.))));
        assert!(out.hit);
        assert_eq!(out.status, Status::Hit);
        assert!(close(out.t_first.unwrap(), 0.358579, 1e-5), "{out:?}");
        assert!(close(out.t_last.unwrap(), 0.841421, 1e-5), "{out:?}");
        assert!(close_v(out.normal, Vec3::X, 1e-6));
        let AxisId::FaceA(f) = out.axis else {
            panic!("{:?}", out.axis)
        };
        assert_eq!(cube.face_normal(f as usize), Vec3::X);
        assert_eq!(steps.len() as u32, out.axes_tested);
        let m = out.manifold.unwrap();
        // At t_first B's leading edge (along z) touches A's +x face.
        assert_eq!(m.feature, FeaturePair::EdgeFace);
        assert_eq!(m.points.len(), 2);
        for c in m.points.iter() {
            assert!(close(c.point.x, 0.5, 1e-5) && close(c.depth, 0.0, 1e-5));
        }
    }

    #[test]
    fn crossed_ridges_meet_on_an_edge_axis() {
        // A's top ridge (turned 45 degrees about z) at y = sqrt(0.5); B turned 45 degrees
        // about x, its bottom ridge at y = 3 - sqrt(0.5), falling at 5: the ridges meet when
        // B's centre is at 2 sqrt(0.5), t = (3 - sqrt(2)) / 5 = 0.317157, and part when it
        // is at -2 sqrt(0.5), t = (3 + sqrt(2)) / 5 = 0.882843.
        let cube = cuboid(0.5, 0.5, 0.5);
        let pair = PolyPair::new(
            &cube,
            &at_deg(Vec3::ZERO, Vec3::new(0., 0., 45.)),
            &cube,
            &at_deg(Vec3::new(0., 3., 0.), Vec3::new(45., 0., 0.)),
        );
        let out = sweep_test(&pair, &motion(Vec3::new(0., -5., 0.)));
        assert_eq!(out.status, Status::Hit);
        assert!(matches!(out.axis, AxisId::Edges(..)), "{:?}", out.axis);
        assert!(close(out.t_first.unwrap(), 0.317157, 1e-5), "{out:?}");
        assert!(close(out.t_last.unwrap(), 0.882843, 1e-5), "{out:?}");
        assert!(close_v(out.normal, Vec3::Y, 1e-5));
        let m = out.manifold.unwrap();
        assert_eq!(m.feature, FeaturePair::EdgeEdge);
        assert!(close_v(
            m.points.as_slice()[0].point,
            Vec3::new(0., 0.5f32.sqrt(), 0.),
            1e-5
        ));
    }

    #[test]
    fn a_sweep_that_passes_beside_misses() {
        let cube = cuboid(0.5, 0.5, 0.5);
        let pair = PolyPair::new(&cube, &at(0., 0., 0.), &cube, &at(3., 1.2, 0.));
        let out = sweep_test(&pair, &motion(Vec3::new(-6., 0., 0.)));
        assert!(!out.hit);
        assert_eq!(out.status, Status::Miss);
        // Too slow to arrive within t_max.
        let pair = PolyPair::new(&cube, &at(0., 0., 0.), &cube, &at(3., 0., 0.));
        let out = sweep_test(&pair, &motion(Vec3::new(-1.5, 0., 0.)));
        assert_eq!(out.status, Status::Miss);
    }

    #[test]
    fn a_thin_wall_is_not_tunnelled() {
        // A fast cube crosses a 0.02-thick wall within one step: no overlap at t = 0 or 1,
        // but the sweep hits at t = (5 - 0.01 - 0.1) / 10 = 0.489.
        let wall = cuboid(0.01, 2.0, 2.0);
        let bullet = cuboid(0.1, 0.1, 0.1);
        let pair = PolyPair::new(&wall, &at(0., 0., 0.), &bullet, &at(5., 0.3, 0.));
        let out = sweep_test(&pair, &motion(Vec3::new(-10., 0., 0.)));
        assert!(out.hit);
        assert!(close(out.t_first.unwrap(), 0.489, 1e-5), "{out:?}");
        assert!(close(out.t_last.unwrap(), 0.511, 1e-5), "{out:?}");
        assert!(close_v(out.normal, Vec3::X, 1e-6));
    }

    #[test]
    fn overlapping_at_the_start_reports_time_zero_and_sat_s_normal() {
        let slab = cuboid(1.0, 0.5, 1.0);
        let cube = cuboid(0.5, 0.5, 0.5);
        let pair = PolyPair::new(&slab, &at(0., 0., 0.), &cube, &at(0., 0.9, 0.));
        let out = sweep_test(&pair, &motion(Vec3::new(1., 0., 0.)));
        assert_eq!(out.status, Status::InitiallyOverlapping);
        assert_eq!(out.t_first, Some(0.0));
        assert_eq!(out.normal, Vec3::Y);
    }

    #[test]
    fn nan_velocity_is_reported_not_panicked() {
        let cube = cuboid(0.5, 0.5, 0.5);
        let pair = PolyPair::new(&cube, &at(0., 0., 0.), &cube, &at(3., 0., 0.));
        let out = sweep_test(&pair, &motion(Vec3::new(f32::NAN, 0., 0.)));
        assert!(!out.hit);
    }

    #[test]
    fn placed_vertex_projections_equal_the_support_search_and_traced_equals_untraced() {
        // Bodies of up to PLACED_CAPACITY vertices are projected from their placed vertices;
        // each recorded interval must equal the support search's (Placed3::project) to
        // rounding, and the traced sweep must equal the untraced one bit for bit, on random
        // hulls, poses and velocities (a 40-point hull takes the support path).
        let mut f = uniform(0x005e_ed3d_u64);
        let hull = |n: usize, f: &mut dyn FnMut(f32, f32) -> f32| {
            let points = (0..n)
                .map(|_| {
                    let d = Vec3::new(f(-1., 1.), f(-1., 1.), f(-1., 1.)).normalize_or(Vec3::Y);
                    d * Vec3::new(1.0, 0.6, 1.2)
                })
                .collect();
            crate::geom3::Polyhedron::new(&crate::geom3::Shape3Kind::Hull { points }).unwrap()
        };
        let bodies = [
            cuboid(0.5, 0.3, 0.8),
            hull(12, &mut f),
            hull(30, &mut f),
            hull(40, &mut f),
        ];
        assert!(bodies[3].vertices().len() > PLACED_CAPACITY);
        let mut hits = 0;
        for k in 0..3000 {
            let (a, b) = (&bodies[k % 4], &bodies[(k / 4) % 4]);
            let turn = |f: &mut dyn FnMut(f32, f32) -> f32| {
                Vec3::new(f(-180., 180.), f(-180., 180.), f(-180., 180.))
            };
            let pose_a = at_deg(Vec3::new(f(-1e3, 1e3), f(-1e3, 1e3), 0.), turn(&mut f));
            let dir = Vec3::new(f(-1., 1.), f(-1., 1.), f(-1., 1.)).normalize_or(Vec3::X);
            let pose_b = at_deg(pose_a.position + dir * f(1., 6.), turn(&mut f));
            let m = Motion3 {
                velocity_a: Vec3::new(f(-1., 1.), f(-1., 1.), f(-1., 1.)),
                velocity_b: -dir * f(0., 12.),
                t_max: 1.0,
            };
            let pair = PolyPair::new(a, &pose_a, b, &pose_b);
            let mut steps = Vec::new();
            let out = sweep(&pair, &m, &mut steps);
            assert_eq!(out, sweep_test(&pair, &m), "case {k}");
            hits += out.hit as u32;
            for s in &steps {
                let shift = s.axis.dot(pair.origin);
                for (got, body) in [(s.interval_a, &pair.a), (s.interval_b, &pair.b)] {
                    let want = body.project(s.axis).shifted(shift);
                    let tol = 1e-6 * (1.0 + shift.abs());
                    assert!(
                        close(got.min, want.min, tol) && close(got.max, want.max, tol),
                        "case {k}: {got:?} vs {want:?}"
                    );
                }
            }
        }
        // Both outcomes occur.
        assert!(hits > 300 && hits < 2700, "{hits}");
    }

    #[test]
    fn the_small_body_path_records_the_general_loop_s_steps_bit_for_bit() {
        // Placed vertices and normals, projections four at a time and Gauss-map tests four
        // edges at a time must give the very axes, intervals and times of the per-pair
        // loop, in the same order, on random hulls (cuboids, 6 to 32 points, and a 40-point
        // hull that takes neither path's small projections), poses and velocities. Debug
        // text tells -0 from 0, so the comparison is bit for bit.
        let mut f = uniform(0x5eed_0f3d_u64);
        let hull = |n: usize, f: &mut dyn FnMut(f32, f32) -> f32| {
            let points = (0..n)
                .map(|_| {
                    let d = Vec3::new(f(-1., 1.), f(-1., 1.), f(-1., 1.)).normalize_or(Vec3::Y);
                    d * Vec3::new(f(0.3, 1.5), f(0.3, 1.5), f(0.3, 1.5))
                })
                .collect();
            crate::geom3::Polyhedron::new(&crate::geom3::Shape3Kind::Hull { points }).unwrap()
        };
        let bodies = [
            cuboid(0.5, 0.3, 0.8),
            hull(6, &mut f),
            hull(12, &mut f),
            hull(20, &mut f),
            hull(32, &mut f),
            hull(40, &mut f),
        ];
        let mut small_cases = 0;
        for k in 0..4000 {
            let (a, b) = (&bodies[k % 6], &bodies[(k / 6) % 6]);
            let turn = |f: &mut dyn FnMut(f32, f32) -> f32| {
                Vec3::new(f(-180., 180.), f(-180., 180.), f(-180., 180.))
            };
            let pose_a = at_deg(Vec3::new(f(-1e4, 1e4), f(-1e4, 1e4), 0.), turn(&mut f));
            let dir = Vec3::new(f(-1., 1.), f(-1., 1.), f(-1., 1.)).normalize_or(Vec3::X);
            let pose_b = at_deg(pose_a.position + dir * f(0.5, 6.), turn(&mut f));
            let m = Motion3 {
                velocity_a: Vec3::new(f(-1., 1.), f(-1., 1.), f(-1., 1.)),
                velocity_b: -dir * f(0., 12.),
                t_max: 1.0,
            };
            let pair = PolyPair::new(a, &pose_a, b, &pose_b);
            let (mut fast, mut general) = (Vec::new(), Vec::new());
            let out_fast = time_of_impact_with(&pair, &m, &mut fast, true);
            let out_general = time_of_impact_with(&pair, &m, &mut general, false);
            assert_eq!(
                format!("{out_fast:?}"),
                format!("{out_general:?}"),
                "case {k}"
            );
            assert_eq!(format!("{fast:?}"), format!("{general:?}"), "case {k}");
            assert_eq!(out_fast, time_of_impact(&pair, &m, &mut ()), "case {k}");
            let (pa, pb) = (PlacedVertices::new(&pair.a), PlacedVertices::new(&pair.b));
            small_cases += SmallPair::fits(&pair, &pa, &pb) as u32;
        }
        assert!(small_cases > 2000, "{small_cases}");
    }
}
