//! EPA: how deep do two overlapping shapes interpenetrate, and along which direction?
//!
//! Algorithm (van den Bergen 2001, "Proximity Queries and Penetration Depth Computation on 3D
//! Game Objects"; the 2D form in dyn4j's and Box2D's write-ups):
//!
//! ```text
//! polytope = GJK's final simplex, blown up to a polygon around the origin when it is a
//!            point or a segment (the shapes touch, or the origin is on an edge)
//! loop:
//!     e = the polytope edge closest to the origin, n its outward normal, d its distance
//!     w = support(A - B, n)
//!     if w is no farther along n than d (gap = w.n - d below tolerance):
//!         the edge lies on the boundary of A - B: depth = d, normal = n
//!     insert w between the ends of e
//! ```
//!
//! The polytope is counter-clockwise and always holds the origin, so each edge's distance
//! `n . p` is >= 0. The closest boundary point of A - B is `depth * n`; moving B by
//! `depth * n` shifts A - B by `-depth * n`, which puts that point on the origin: the shapes
//! just touch. So `n` points from A toward B.
//!
//! Rounded shapes: when the cores are apart but the radii overlap, the depth is the radii
//! minus the core distance along the cores' closest-point direction, with no expansion; when
//! the cores overlap, EPA runs on the cores and the radii are added to the depth.

use super::gjk::GjkOutput;
use super::{ShapePair, SupportPoint};
use crate::geom::{cross, right_perp};
use crate::trace::Tracer;
use glam::Vec2;

/// Largest number of polytope vertices; the polytope lives on the stack (24 bytes each).
/// A - B of two many-sided polygons is nearly round, and a deep overlap makes EPA refine
/// most of the way round it: a 128-gon needs about 130 vertices.
pub const MAX_POLYTOPE_VERTICES: usize = 320;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpaConfig {
    /// The loop stops after this many expansions with [`EpaStatus::MaxIterations`].
    pub max_iterations: u32,
    /// The loop stops when the gap is below `tolerance * scale` (scale: see
    /// [`ShapePair::scale`]).
    pub tolerance: f32,
}

impl Default for EpaConfig {
    fn default() -> Self {
        EpaConfig {
            max_iterations: 300,
            tolerance: 1.0e-6,
        }
    }
}

/// How EPA ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpaStatus {
    /// The closest edge lies on the boundary of A - B (gap below tolerance).
    Converged,
    /// The cores are apart and only the radii overlap: depth from GJK's closest points.
    RoundedShallow,
    /// A - B of the cores has no area (a point or a segment, e.g. two collinear segments or
    /// two concentric circles): the depth is the radii plus the core's, along a chosen normal.
    Degenerate,
    /// The iteration cap was reached; the depth is the closest edge's distance so far.
    MaxIterations,
    /// The polytope ran out of room.
    PolytopeFull,
}

impl EpaStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            EpaStatus::Converged => "converged",
            EpaStatus::RoundedShallow => "rounded_shallow",
            EpaStatus::Degenerate => "degenerate",
            EpaStatus::MaxIterations => "max_iterations",
            EpaStatus::PolytopeFull => "polytope_full",
        }
    }

    /// How EPA ended, in words for people (JSON keeps [`Self::as_str`]).
    pub fn in_words(self) -> &'static str {
        match self {
            EpaStatus::Converged => "converged: the closest edge is on the boundary of A - B",
            EpaStatus::RoundedShallow => "only the radii overlap: the depth comes from GJK",
            EpaStatus::Degenerate => "A - B has no area: the depth is along a chosen normal",
            EpaStatus::MaxIterations => "stopped: the iteration cap was reached",
            EpaStatus::PolytopeFull => "stopped: the polytope is full",
        }
    }
}

/// One EPA expansion as the window shows it (points of A - B; `on_a`/`on_b` in world).
#[derive(Clone, Debug, PartialEq)]
pub struct EpaStep {
    pub iteration: u32,
    /// The polytope before this expansion, counter-clockwise.
    pub polytope: Vec<SupportPoint>,
    /// Index of the closest edge: from `polytope[closest_edge]` to the next vertex.
    pub closest_edge: usize,
    /// Its distance from the origin and its outward normal.
    pub distance: f32,
    pub normal: Vec2,
    /// The support point of A - B along `normal`.
    pub support: SupportPoint,
    /// How much farther than the edge the support point lies: `support.point . normal -
    /// distance`. Zero means the edge is on the boundary.
    pub gap: f32,
    /// Set on the last step.
    pub status: Option<EpaStatus>,
    /// The sum of the shapes' radii (0 for polygons): EPA expands in A - B of their cores,
    /// and the depth adds the radii to the closest edge's distance.
    pub radii: f32,
}

/// What EPA found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpaOutput {
    /// Penetration depth, radii included (>= 0).
    pub depth: f32,
    /// Unit normal from A toward B.
    pub normal: Vec2,
    /// The deepest point of A inside B and of B inside A (world): `point_b - point_a` is
    /// `-depth * normal`.
    pub point_a: Vec2,
    pub point_b: Vec2,
    pub iterations: u32,
    pub status: EpaStatus,
}

/// Runs EPA with default limits and no recording. `None` when GJK found the shapes apart.
pub fn epa_penetration(pair: &ShapePair, gjk: &GjkOutput) -> Option<EpaOutput> {
    epa(pair, gjk, &EpaConfig::default(), &mut ())
}

/// Runs EPA from GJK's result. `None` when GJK found the shapes apart.
pub fn epa<T: Tracer<EpaStep>>(
    pair: &ShapePair,
    gjk: &GjkOutput,
    config: &EpaConfig,
    tracer: &mut T,
) -> Option<EpaOutput> {
    if !gjk.intersecting {
        return None;
    }
    // Most runs need a few dozen vertices, and clearing the full polytope costs more than
    // the whole run: untraced, try a small one first, and start over with the full one if
    // the run outgrows it (the same steps again, so the same answer). A traced run records
    // as it goes, so it starts with the full one.
    if !T::ENABLED {
        if let Ok(output) = epa_within::<SMALL_POLYTOPE_VERTICES, T>(pair, gjk, config, tracer) {
            return Some(output);
        }
    }
    match epa_within::<MAX_POLYTOPE_VERTICES, T>(pair, gjk, config, tracer) {
        Ok(output) => Some(output),
        Err(Outgrown) => unreachable!("a full polytope stops the loop (PolytopeFull)"),
    }
}

/// Vertices of the polytope an untraced run tries first.
const SMALL_POLYTOPE_VERTICES: usize = 32;

/// A run needed more polytope vertices than it had room for.
struct Outgrown;

/// EPA with room for `N` polytope vertices; `N` below [`MAX_POLYTOPE_VERTICES`] gives up
/// (`Outgrown`) where the full polytope would still grow.
fn epa_within<const N: usize, T: Tracer<EpaStep>>(
    pair: &ShapePair,
    gjk: &GjkOutput,
    config: &EpaConfig,
    tracer: &mut T,
) -> Result<EpaOutput, Outgrown> {
    let radii = pair.a.radius() + pair.b.radius();
    let touch = pair.touch_tolerance();
    if gjk.core_distance > touch {
        return Ok(rounded_shallow(pair, gjk, radii));
    }
    let mut polytope = Polytope::<N>::default();
    if let Err(normal) = seed_polytope(pair, gjk, &mut polytope, touch) {
        let p = gjk.work_simplex(pair).vertices[0];
        return Ok(EpaOutput {
            depth: radii,
            normal,
            point_a: pair.to_world(p.on_a + pair.a.radius() * normal),
            point_b: pair.to_world(p.on_b - pair.b.radius() * normal),
            iterations: 0,
            status: EpaStatus::Degenerate,
        });
    }
    let tolerance = config.tolerance * pair.scale();
    let mut iteration = 0;
    let (edge, status) = loop {
        iteration += 1;
        let edge = polytope.closest_edge();
        let support = pair.support(edge.normal);
        let gap = support.point.dot(edge.normal) - edge.distance;
        let status = if gap <= tolerance {
            Some(EpaStatus::Converged)
        } else if iteration >= config.max_iterations {
            Some(EpaStatus::MaxIterations)
        } else if polytope.len == MAX_POLYTOPE_VERTICES {
            Some(EpaStatus::PolytopeFull)
        } else {
            None
        };
        tracer.record(|| EpaStep {
            iteration,
            polytope: polytope.points().iter().map(|p| p.to_world(pair)).collect(),
            closest_edge: edge.index,
            distance: edge.distance,
            normal: edge.normal,
            support: support.to_world(pair),
            gap,
            status,
            radii: pair.a.radius() + pair.b.radius(),
        });
        if let Some(status) = status {
            break (edge, status);
        }
        if polytope.len == N {
            return Err(Outgrown);
        }
        polytope.insert(edge.index + 1, support);
    };
    let (on_a, on_b) = polytope.witness_points(&edge);
    let n = edge.normal;
    Ok(EpaOutput {
        depth: edge.distance.max(0.0) + radii,
        normal: n,
        point_a: pair.to_world(on_a + pair.a.radius() * n),
        point_b: pair.to_world(on_b - pair.b.radius() * n),
        iterations: iteration,
        status,
    })
}

/// Cores apart, radii overlapping: the depth is what the radii overlap by.
fn rounded_shallow(pair: &ShapePair, gjk: &GjkOutput, radii: f32) -> EpaOutput {
    let n = gjk.core_normal;
    let simplex = gjk.work_simplex(pair);
    let weights_points = simplex.points();
    // The cores' closest points, recomputed from GJK's reduced simplex: the point of the
    // simplex nearest the origin splits each source edge in the same proportion.
    let (on_a, on_b) = closest_sources(weights_points);
    EpaOutput {
        depth: (radii - gjk.core_distance).max(0.0),
        normal: n,
        point_a: pair.to_world(on_a + pair.a.radius() * n),
        point_b: pair.to_world(on_b - pair.b.radius() * n),
        iterations: 0,
        status: EpaStatus::RoundedShallow,
    }
}

fn closest_sources(points: &[SupportPoint]) -> (Vec2, Vec2) {
    match points {
        [p] => (p.on_a, p.on_b),
        [p, q, ..] => {
            let e = q.point - p.point;
            let len2 = e.length_squared();
            let t = if len2 > 0.0 {
                (-p.point.dot(e) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (p.on_a.lerp(q.on_a, t), p.on_b.lerp(q.on_b, t))
        }
        [] => (Vec2::ZERO, Vec2::ZERO),
    }
}

/// The counter-clockwise polygon EPA grows, with a fixed capacity so that untraced runs do
/// not touch the heap.
struct Polytope<const N: usize> {
    vertices: [SupportPoint; N],
    len: usize,
}

impl<const N: usize> Default for Polytope<N> {
    fn default() -> Self {
        Polytope {
            vertices: [SupportPoint::default(); N],
            len: 0,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct ClosestEdge {
    index: usize,
    distance: f32,
    normal: Vec2,
}

impl<const N: usize> Polytope<N> {
    fn points(&self) -> &[SupportPoint] {
        &self.vertices[..self.len]
    }

    fn push(&mut self, p: SupportPoint) {
        self.vertices[self.len] = p;
        self.len += 1;
    }

    fn insert(&mut self, at: usize, p: SupportPoint) {
        self.vertices.copy_within(at..self.len, at + 1);
        self.vertices[at] = p;
        self.len += 1;
    }

    /// The edge nearest the origin. Zero-length edges (a repeated support point) are skipped.
    fn closest_edge(&self) -> ClosestEdge {
        let mut best = ClosestEdge {
            index: 0,
            distance: f32::INFINITY,
            normal: Vec2::X,
        };
        for i in 0..self.len {
            let p = self.vertices[i].point;
            let q = self.vertices[(i + 1) % self.len].point;
            let normal = right_perp(q - p).normalize_or_zero();
            if normal == Vec2::ZERO {
                continue;
            }
            let distance = normal.dot(p);
            if distance < best.distance {
                best = ClosestEdge {
                    index: i,
                    distance,
                    normal,
                };
            }
        }
        best
    }

    /// The points of A and B whose difference is the origin's projection on `edge`.
    fn witness_points(&self, edge: &ClosestEdge) -> (Vec2, Vec2) {
        let p = self.vertices[edge.index];
        let q = self.vertices[(edge.index + 1) % self.len];
        closest_sources(&[p, q])
    }
}

/// Fills `polytope` with a counter-clockwise polygon of support points around the origin,
/// starting from GJK's simplex. When A - B has no area, returns the normal to report instead.
fn seed_polytope<const N: usize>(
    pair: &ShapePair,
    gjk: &GjkOutput,
    polytope: &mut Polytope<N>,
    touch: f32,
) -> Result<(), Vec2> {
    let simplex = gjk.work_simplex(pair);
    let simplex = simplex.points();
    if simplex.len() == 3 {
        let (p0, p1, p2) = (simplex[0], simplex[1], simplex[2]);
        let area = cross(p1.point - p0.point, p2.point - p0.point);
        if area.abs() > touch * touch {
            polytope.push(p0);
            if area > 0.0 {
                polytope.push(p1);
                polytope.push(p2);
            } else {
                polytope.push(p2);
                polytope.push(p1);
            }
            return Ok(());
        }
    }
    // A point or a segment (the origin on a vertex or an edge of A - B, or a flat triangle):
    // take its two farthest-apart vertices, then search on both sides of their line.
    let (p, q) = farthest_pair(simplex);
    let (p, q) = if (q.point - p.point).length() > touch {
        (p, q)
    } else {
        match second_point(pair, p, touch) {
            Some(q) => (p, q),
            // A - B is a single point: concentric circles, or point cores on each other.
            None => return Err(Vec2::X),
        }
    };
    let along = (q.point - p.point).normalize();
    let right = right_perp(along);
    let on_right = pair.support(right);
    let on_left = pair.support(-right);
    let right_offset = (on_right.point - p.point).dot(right);
    let left_offset = (on_left.point - p.point).dot(-right);
    if right_offset <= touch && left_offset <= touch {
        // A - B is a segment through the origin: any side is as deep as the other. Report
        // the side facing from A's centre toward B's when it is clear, else the left.
        let towards_b = pair.b.centroid() - pair.a.centroid();
        return Err(if towards_b.dot(right) > 0.0 {
            right
        } else {
            -right
        });
    }
    // Counter-clockwise: interior on the left of p -> q, so the right-hand point comes
    // between p and q when walking round.
    polytope.push(p);
    if right_offset > touch {
        polytope.push(on_right);
    }
    polytope.push(q);
    if left_offset > touch {
        polytope.push(on_left);
    }
    Ok(())
}

fn farthest_pair(points: &[SupportPoint]) -> (SupportPoint, SupportPoint) {
    let mut best = (points[0], points[0]);
    let mut best_d = -1.0;
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            let d = (q.point - p.point).length_squared();
            if d > best_d {
                best = (*p, *q);
                best_d = d;
            }
        }
    }
    best
}

/// A support point of A - B at least `touch` away from `p`, searching the four axis
/// directions.
fn second_point(pair: &ShapePair, p: SupportPoint, touch: f32) -> Option<SupportPoint> {
    [Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y]
        .into_iter()
        .map(|d| pair.support(d))
        .find(|w| (w.point - p.point).length() > touch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Pose, Shape};
    use crate::query::gjk::gjk_distance;
    use crate::query::testing::*;

    fn run(a: &Shape, pa: Pose, b: &Shape, pb: Pose) -> (EpaOutput, Vec<EpaStep>) {
        let pair = ShapePair::new(a, pa, b, pb);
        let g = gjk_distance(&pair);
        let mut steps = Vec::new();
        let out = epa(&pair, &g, &EpaConfig::default(), &mut steps).expect("intersecting");
        (out, steps)
    }

    #[test]
    fn box_overlap_along_x() {
        // Overlap in x: 1 - (1.5 - 1) = 0.5; in y: 2 - 0.3 = 1.7. Depth 0.5 along +x.
        let s = square(1.0);
        let (out, steps) = run(&s, at(0.0, 0.0), &s, at(1.5, 0.3));
        assert!(close(out.depth, 0.5, 1e-5), "{}", out.depth);
        assert!(close_v(out.normal, v(1.0, 0.0), 1e-5));
        assert_eq!(out.status, EpaStatus::Converged);
        assert!(!steps.is_empty());
        assert_eq!(steps.last().unwrap().status, Some(EpaStatus::Converged));
    }

    #[test]
    fn rotated_box_depth_matches_hand_computation() {
        // A diamond (square turned 45 degrees, half-diagonal sqrt 2) and a unit box whose
        // bottom face sits 0.2 below the diamond's top vertex: depth 0.2 along +y.
        let s = square(1.0);
        let (out, _) = run(
            &s,
            at_deg(0.0, 0.0, 45.0),
            &s,
            at(0.0, 2f32.sqrt() + 1.0 - 0.2),
        );
        assert!(close(out.depth, 0.2, 1e-5), "{}", out.depth);
        assert!(close_v(out.normal, v(0.0, 1.0), 1e-5));
    }

    #[test]
    fn touching_boxes_have_zero_depth() {
        let s = square(1.0);
        let (out, _) = run(&s, at(0.0, 0.0), &s, at(2.0, 0.5));
        assert!(close(out.depth, 0.0, 1e-5));
        assert!(close_v(out.normal, v(1.0, 0.0), 1e-5));
    }

    #[test]
    fn vertex_to_vertex_touching_terminates() {
        let s = square(1.0);
        let (out, _) = run(&s, at(0.0, 0.0), &s, at(2.0, 2.0));
        assert!(close(out.depth, 0.0, 1e-5));
        assert!(close(out.normal.length(), 1.0, 1e-5));
    }

    #[test]
    fn coincident_polygons_give_the_smallest_width() {
        // A 2 x 1 box on itself: B must move 1 along y (the box's height) to clear it.
        let b = Shape::rect(v(1.0, 0.5)).unwrap();
        let (out, _) = run(&b, at(0.0, 0.0), &b, at(0.0, 0.0));
        assert!(close(out.depth, 1.0, 1e-5), "{}", out.depth);
        assert!(close(out.normal.x, 0.0, 1e-5));
    }

    #[test]
    fn concentric_circles_are_degenerate_with_depth_the_radii() {
        let c = Shape::circle(0.5).unwrap();
        let (out, _) = run(&c, at(1.0, 1.0), &c, at(1.0, 1.0));
        assert_eq!(out.status, EpaStatus::Degenerate);
        assert!(close(out.depth, 1.0, 1e-6));
        assert!(close(out.normal.length(), 1.0, 1e-6));
    }

    #[test]
    fn overlapping_circles_are_shallow_rounded() {
        let c = Shape::circle(1.0).unwrap();
        let (out, _) = run(&c, at(0.0, 0.0), &c, at(1.2, 1.6));
        assert_eq!(out.status, EpaStatus::RoundedShallow);
        assert!(close(out.depth, 0.0, 1e-6), "touching at distance 2");
        let (deep, _) = run(&c, at(0.0, 0.0), &c, at(0.6, 0.8));
        assert!(close(deep.depth, 1.0, 1e-6));
        assert!(close_v(deep.normal, v(0.6, 0.8), 1e-6));
    }

    #[test]
    fn collinear_segments_overlapping_are_degenerate() {
        let seg = Shape::capsule(1.0, 0.0).unwrap();
        let (out, _) = run(&seg, at(0.0, 0.0), &seg, at(1.0, 0.0));
        assert_eq!(out.status, EpaStatus::Degenerate);
        assert!(close(out.depth, 0.0, 1e-6));
    }

    #[test]
    fn circle_inside_box_adds_its_radius() {
        // Circle centre 0.3 inside the right face: depth 0.3 + 0.5.
        let s = square(1.0);
        let c = Shape::circle(0.5).unwrap();
        let (out, _) = run(&s, at(0.0, 0.0), &c, at(0.7, 0.0));
        assert!(close(out.depth, 0.8, 1e-5), "{}", out.depth);
        assert!(close_v(out.normal, v(1.0, 0.0), 1e-5));
    }

    #[test]
    fn separated_shapes_give_none() {
        let s = square(1.0);
        let pair = ShapePair::new(&s, at(0.0, 0.0), &s, at(5.0, 0.0));
        assert!(epa_penetration(&pair, &gjk_distance(&pair)).is_none());
    }

    #[test]
    fn iteration_cap_is_reported() {
        let a = Shape::regular(512, 1.0).unwrap();
        let pair = ShapePair::new(&a, at(0.0, 0.0), &a, at(0.3, 0.1));
        let g = gjk_distance(&pair);
        let cfg = EpaConfig {
            max_iterations: 2,
            ..EpaConfig::default()
        };
        let out = epa(&pair, &g, &cfg, &mut ()).unwrap();
        assert_eq!(out.status, EpaStatus::MaxIterations);
        assert_eq!(out.iterations, 2);
    }

    #[test]
    fn a_run_that_outgrows_the_small_polytope_starts_over_with_the_same_answer() {
        // Two octagons overlapping off-axis: EPA grows the polytope past 4 vertices, so a
        // run with room for 4 gives up (`Outgrown`), where the full run goes on; and the
        // untraced entry point (small polytope first) answers what the traced one (full
        // polytope from the start) answers.
        let a = Shape::regular(8, 1.0).unwrap();
        let b = Shape::regular(8, 0.8).unwrap();
        let pair = ShapePair::new(&a, at_deg(0.0, 0.0, 3.0), &b, at_deg(1.1, 0.7, 40.0));
        let g = gjk_distance(&pair);
        let config = EpaConfig::default();
        let mut steps = Vec::new();
        let traced = epa(&pair, &g, &config, &mut steps).unwrap();
        let largest = steps.iter().map(|s| s.polytope.len()).max().unwrap();
        assert!(largest > 4, "only {largest} vertices");
        assert!(epa_within::<4, ()>(&pair, &g, &config, &mut ()).is_err());
        let full = epa_within::<MAX_POLYTOPE_VERTICES, ()>(&pair, &g, &config, &mut ());
        assert!(full.is_ok_and(|out| out == traced));
        assert_eq!(epa(&pair, &g, &config, &mut ()), Some(traced));
    }
}
