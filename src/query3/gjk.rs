//! GJK in 3D: do two convex bodies overlap, and if not, how far apart are they and which
//! points are closest?
//!
//! Algorithm (Gilbert, Johnson and Keerthi 1988; Ericson, *Real-Time Collision Detection*,
//! 9.5, with the closest-point routines of 5.1 for the sub-algorithm; the relative stopping
//! rule and the separating-plane exit of van den Bergen, *Collision Detection in Interactive
//! 3D Environments*, 4.3):
//!
//! ```text
//! [intersection test only] two cuboids clear of the touching band: the closed-form OBB
//!     verdict, no loop (see below)
//! simplex = { support(A - B, cA - cB) }
//! loop:
//!     v = the point of the simplex closest to the origin, found by Voronoi region (point,
//!         segment, triangle, tetrahedron); keep only the vertices of the feature holding v,
//!         with v's barycentric weights over them
//!     |v| not finite (a NaN or infinite pose): stop, reported apart (NonFinite)
//!     tetrahedron holding the origin: the bodies overlap (Enclosed)
//!     |v| ~ 0: the origin is on the simplex: the bodies touch (OriginOnSimplex)
//!     |v| not smaller than last time: rounding has taken over (Converged)
//!     d = toward the origin, square to the feature (a face or edge normal, or -v)
//!     w = support(A - B, d)      (d as computed: the support needs only its direction;
//!                                 the tests below and the record take d normalized)
//!     [intersection test only] w . d < 0 by more than the touch tolerance: d is a
//!         separating axis, the bodies are apart (SeparatingAxis)
//!     w already in the simplex: v is the closest point of A - B (RepeatedSupport)
//!     w no farther along d than the simplex: v is the closest point (Converged)
//!     add w
//! closest points: the weights applied to the simplex vertices' sources on A and on B
//! ```
//!
//! The distance query and the boolean intersection test are one loop: the test is the same
//! loop with the separating-axis exit switched on (a const parameter), and it skips the
//! closest points. Before the loop, the boolean test asks the pair for a closed-form verdict:
//! two cuboids whose largest OBB separation is clearly outside the band where GJK's touch
//! tolerance could go either way are answered by Gottschalk's 15 axes
//! (`query3/cuboid_verdict.rs`, with the proof that the answer is the loop's); any other
//! pair, and boxes inside the band, run the loop. The full run ([`gjk`]: the window, the
//! command line, EPA's start) always runs the loop.
//!
//! The points on the loop's chain of dependent steps (support point, reduction, direction,
//! next support point) are kept in locals as well as in the simplex: the newest support
//! point and the points the last reduction kept go to the next reduction, and the kept
//! points to the search direction, without being read back from the simplex just written.
//! The arithmetic is the same, so the same bits. A cuboid's support vertex is found in
//! closed form where that is provably the scan's vertex (`query3/simplex.rs`). Why this
//! shape is faster: docs/performance.md, "Notes moved out of the source headers",
//! `query3/gjk.rs`.
//!
//! GJK runs on convex cores through [`SupportPair3`]; a sphere or capsule adds its radius
//! to the core distance afterwards, as in 2D.

use super::simplex::{Region, Simplex, SupportPair3, SupportPoint3};
use crate::trace::Tracer;
use glam::Vec3;

/// Relative rounding of an `f32` dot product, a few ulps: progress smaller than this times
/// the pair's size is noise.
const ROUNDING_NOISE: f32 = 4.0 * f32::EPSILON;

/// The one GJK loop. `INTERSECTION_ONLY` adds the separating-axis exit. It works on the
/// caller's `simplex` (whatever it held is replaced), which holds the final simplex, reduced
/// to the feature closest to the origin, when it returns. Out of line (why:
/// docs/performance.md, "Notes moved out of the source headers", `query3/gjk.rs`).
#[inline(never)]
fn run<const INTERSECTION_ONLY: bool, P: SupportPair3, T: Tracer<Step>>(
    pair: &P,
    config: &Config,
    tracer: &mut T,
    simplex: &mut Simplex,
) -> LoopEnd {
    let scale = pair.scale();
    let touch = super::TOUCH_TOLERANCE * scale;
    // The progress test cannot resolve less than the rounding of a dot product of points as
    // far apart as the pair is large.
    let noise = ROUNDING_NOISE * scale;
    let start = pair.centre_offset();
    let start = if start.length_squared() > 0.0 {
        start
    } else {
        Vec3::X
    };
    let mut newest = pair.support(-start);
    *simplex = Simplex::single(newest);
    // The points of the simplex's older vertices, from the last reduction, held outside
    // the simplex as the newest one is.
    let mut older = [Vec3::ZERO; 3];
    let mut iteration = 0;
    let mut previous_distance = f32::INFINITY;
    loop {
        iteration += 1;
        let candidate = *simplex;
        // The points come from the locals, not back from the simplex just written.
        let (region, closest, kept) = simplex.reduce_with_newest(&older, &newest);
        let distance = closest.length();
        let ended = if !distance.is_finite() {
            Some(Status::NonFinite)
        } else if region == Region::Inside {
            Some(Status::Enclosed)
        } else if distance <= touch {
            Some(Status::OriginOnSimplex)
        } else if distance >= previous_distance {
            // Exact GJK gets strictly closer every iteration; not doing so means rounding
            // has taken over: the distance is as good as it gets.
            Some(Status::Converged)
        } else if iteration > config.max_iterations {
            Some(Status::MaxIterations)
        } else {
            None
        };
        let step = |direction: Option<Vec3>, support: Option<SupportPoint3>, status| Step {
            iteration,
            candidate: candidate.to_world(pair),
            simplex: simplex.to_world(pair),
            region,
            closest,
            distance,
            direction,
            support: support.map(|w| w.to_world(pair)),
            status,
        };
        let end = |status| LoopEnd {
            closest,
            distance,
            iterations: iteration,
            status,
            touch,
        };
        if let Some(status) = ended {
            tracer.record(|| step(None, None, Some(status)));
            return end(status);
        }
        previous_distance = distance;
        let (toward, direction) = search_direction(simplex.len, &kept, closest);
        // The support search takes the direction before normalization: only its sign
        // pattern and proportions matter there, and the square root and division stay off
        // the path from one support point to the next. The tests below take the unit one.
        let w = pair.support(toward);
        // How far the support plane through w lies beyond the simplex toward the origin;
        // the simplex's vertices all sit at the same height along `direction`.
        let gain = (w.point - kept[0]).dot(direction);
        let repeated = simplex
            .points()
            .iter()
            .any(|p| p.same_sources(&w) || p.point == w.point);
        let status = if INTERSECTION_ONLY && -w.point.dot(direction) > touch {
            Some(Status::SeparatingAxis)
        } else if repeated {
            Some(Status::RepeatedSupport)
        } else if gain <= config.tolerance * distance + noise {
            Some(Status::Converged)
        } else {
            None
        };
        tracer.record(|| step(Some(direction), Some(w), status));
        if let Some(status) = status {
            return end(status);
        }
        simplex.push(w);
        newest = w;
        older = kept;
    }
}

/// Limits for the GJK loop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// The loop stops after this many iterations with [`Status::MaxIterations`].
    pub max_iterations: u32,
    /// Relative progress below which the loop stops: when the new support point lies less
    /// than `tolerance * |v|` beyond the simplex along the search direction.
    pub tolerance: f32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_iterations: 64,
            tolerance: 1.0e-6,
        }
    }
}

/// How the GJK loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The simplex became a tetrahedron holding the origin: the bodies overlap.
    Enclosed,
    /// The simplex's closest point is the origin (within the touch tolerance): they touch.
    OriginOnSimplex,
    /// No progress: the new support point was no farther along the search direction than
    /// the simplex, or the distance stopped shrinking. The distance is found.
    Converged,
    /// The new support point was already a simplex vertex: the distance is found.
    RepeatedSupport,
    /// Intersection test only: a support point behind the origin proved a separating axis.
    SeparatingAxis,
    /// The iteration cap was reached; the distance is the best found so far.
    MaxIterations,
    /// A support point was not finite (a NaN or infinite pose): reported as apart, at an
    /// infinite distance, with no closest points.
    NonFinite,
}

impl Status {
    pub fn key(self) -> &'static str {
        match self {
            Status::Enclosed => "enclosed",
            Status::OriginOnSimplex => "origin_on_simplex",
            Status::Converged => "converged",
            Status::RepeatedSupport => "repeated_support",
            Status::SeparatingAxis => "separating_axis",
            Status::MaxIterations => "max_iterations",
            Status::NonFinite => "non_finite",
        }
    }

    /// How the loop ended, in words for people (text output; JSON keeps [`Self::key`]).
    pub fn in_words(self) -> &'static str {
        match self {
            Status::Enclosed => "stopped: the simplex encloses the origin",
            Status::OriginOnSimplex => "stopped: the origin is on the simplex",
            Status::Converged => "stopped: the distance converged",
            Status::RepeatedSupport => "stopped: the support point repeated",
            Status::SeparatingAxis => "stopped: a separating axis was found",
            Status::MaxIterations => "stopped: the iteration cap was reached",
            Status::NonFinite => "stopped: a number was not finite",
        }
    }
}

/// One GJK iteration. Points of A - B are frame-free; `on_a` and `on_b` of every support
/// point are world coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub iteration: u32,
    /// The simplex at the start of the iteration, before reduction.
    pub candidate: Simplex,
    /// The simplex after reduction to the feature closest to the origin.
    pub simplex: Simplex,
    /// Where the origin's closest point fell on the candidate simplex.
    pub region: Region,
    /// The point of the simplex closest to the origin, in A - B.
    pub closest: Vec3,
    /// Its distance from the origin: an upper bound on the bodies' distance.
    pub distance: f32,
    /// The unit search direction, when the loop went on to search.
    pub direction: Option<Vec3>,
    /// The support point found in that direction.
    pub support: Option<SupportPoint3>,
    /// Set on the last step: how the loop ended.
    pub status: Option<Status>,
}

/// What GJK found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Output {
    /// The bodies overlap or touch (distance within the touch tolerance).
    pub intersecting: bool,
    /// Distance between the bodies; 0 when intersecting.
    pub distance: f32,
    /// Closest point on A and on B (world), when apart.
    pub closest_a: Option<Vec3>,
    pub closest_b: Option<Vec3>,
    pub iterations: u32,
    pub status: Status,
    /// The final simplex in the work frame (EPA starts from it), reduced to the feature
    /// closest to the origin, with the weights of that point.
    pub simplex: Simplex,
    /// The unit direction from A toward B at the closest points; zero when intersecting.
    pub normal: Vec3,
}

/// Runs GJK with the default limits and no recording.
pub fn gjk_distance(pair: &impl SupportPair3) -> Output {
    gjk(pair, &Config::default(), &mut ())
}

/// Runs GJK, recording every iteration into `tracer`.
pub fn gjk<T: Tracer<Step>>(pair: &impl SupportPair3, config: &Config, tracer: &mut T) -> Output {
    // The loop works on the output's own simplex, so the 200-byte simplex is not copied
    // out of the loop and again into the output.
    let mut output = Output {
        intersecting: false,
        distance: f32::INFINITY,
        closest_a: None,
        closest_b: None,
        iterations: 0,
        status: Status::NonFinite,
        simplex: Simplex::default(),
        normal: Vec3::ZERO,
    };
    let end = run::<false, _, T>(pair, config, tracer, &mut output.simplex);
    finish(pair, &end, &mut output);
    output
}

/// Whether the bodies overlap or touch: the verdict of [`gjk`], found sooner when they are
/// apart (the separating-axis exit), without closest points.
///
/// Two cuboids clear of the touching band are answered without the loop, by the closed-form
/// OBB test ([`SupportPair3::closed_form_verdict`], proof of the band in
/// `query3/cuboid_verdict.rs`), as engines answer box-box overlap; inside the band, and for
/// every other pair or a looser `config` than the default, the loop decides. The verdict is
/// the loop's either way.
pub fn gjk_intersects(pair: &impl SupportPair3, config: &Config) -> bool {
    // The band's proof leans on the default cap and progress tolerance (or stricter ones).
    let default = Config::default();
    if config.max_iterations >= default.max_iterations && config.tolerance <= default.tolerance {
        if let Some(verdict) = pair.closed_form_verdict() {
            return verdict;
        }
    }
    intersects_by_loop(pair, config)
}

/// The boolean test by the GJK loop alone (the loop with the separating-axis exit).
pub(crate) fn intersects_by_loop(pair: &impl SupportPair3, config: &Config) -> bool {
    let mut simplex = Simplex::default();
    let end = run::<true, _, ()>(pair, config, &mut (), &mut simplex);
    end.intersecting()
}

/// Where the loop stopped (its final simplex is in the caller's slot).
struct LoopEnd {
    closest: Vec3,
    distance: f32,
    iterations: u32,
    status: Status,
    touch: f32,
}

impl LoopEnd {
    fn intersecting(&self) -> bool {
        match self.status {
            Status::Enclosed | Status::OriginOnSimplex => true,
            Status::SeparatingAxis | Status::NonFinite => false,
            _ => self.distance <= self.touch,
        }
    }
}

/// The direction toward the origin from the simplex's closest feature, as computed and as
/// a unit vector. For an edge and a face it is computed from the feature itself (the edge's
/// perpendicular through the origin, the face normal on the origin's side) rather than from
/// `-v`: when the origin is a hair from the feature, `v` is a tiny difference of large
/// numbers whose direction is noise, while the feature's own normal is not. When the
/// feature's direction has no length, both are `-v` normalized. `p` holds the feature's
/// `len` points (the reduction hands them over).
#[inline(always)]
fn search_direction(len: usize, p: &[Vec3; 3], closest: Vec3) -> (Vec3, Vec3) {
    let d = match len {
        2 => {
            let e = p[1] - p[0];
            // e x (e x w0) = e (e . w0) - w0 |e|^2: minus w0's part square to e.
            e.cross(e.cross(p[0]))
        }
        3 => {
            let n = (p[1] - p[0]).cross(p[2] - p[0]);
            if n.dot(p[0]) > 0.0 {
                -n
            } else {
                n
            }
        }
        _ => -closest,
    };
    let unit = d.normalize_or_zero();
    if unit == Vec3::ZERO {
        let unit = (-closest).normalize_or_zero();
        (unit, unit)
    } else {
        (d, unit)
    }
}

/// Fills in `output` from where the loop ended; `output.simplex` already holds the loop's
/// final simplex.
fn finish(pair: &impl SupportPair3, end: &LoopEnd, output: &mut Output) {
    let intersecting = end.intersecting();
    output.iterations = end.iterations;
    output.status = end.status;
    if end.status == Status::NonFinite {
        output.intersecting = false;
        output.distance = f32::INFINITY;
        output.closest_a = None;
        output.closest_b = None;
        output.normal = Vec3::ZERO;
        return;
    }
    let (_, on_a, on_b) = output.simplex.weighted();
    // v = a - b points from B toward A, so -v points from A toward B.
    output.normal = if intersecting || end.distance == 0.0 {
        Vec3::ZERO
    } else {
        -end.closest / end.distance
    };
    output.intersecting = intersecting;
    output.distance = if intersecting { 0.0 } else { end.distance };
    (output.closest_a, output.closest_b) = if intersecting {
        (None, None)
    } else {
        (Some(pair.to_world(on_a)), Some(pair.to_world(on_b)))
    };
}

fn number(x: f32) -> String {
    crate::text::readable(x)
}

/// `(x, y, z)` in the product's readable form ([`crate::text::readable_vector`]).
pub(crate) fn vector(p: Vec3) -> String {
    crate::text::readable_vector(&[p.x, p.y, p.z])
}

pub(crate) fn simplex_name(len: usize) -> &'static str {
    match len {
        1 => "a single point",
        2 => "a segment",
        3 => "a triangle",
        _ => "a tetrahedron",
    }
}

fn vertex_list(ids: &[u8]) -> String {
    let names: Vec<String> = ids.iter().map(|i| i.to_string()).collect();
    names.join("-")
}

/// What happened at one GJK iteration and why, as a sentence or two:
/// "Iteration 3: the simplex is a triangle; the origin is above its face, so the search
/// continues along the face normal (0, 0.6, 0.8)."
pub fn sentence(step: &Step) -> String {
    let len = step.candidate.len;
    let mut text = format!(
        "Iteration {}: the simplex is {}",
        step.iteration,
        simplex_name(len)
    );
    let reduced = step.simplex.len;
    let kept = match step.region {
        Region::Inside => {
            text += " holding the origin, so A - B contains the origin and the bodies overlap; EPA takes this tetrahedron to find the depth.";
            return text;
        }
        Region::Vertex(_) if len == 1 => String::new(),
        Region::Vertex(i) => format!("; the origin is nearest its vertex {i}"),
        Region::Edge(..) if len == 2 => "; the origin is beside it".to_string(),
        Region::Edge(i, j) => format!("; the origin is nearest its edge {}", vertex_list(&[i, j])),
        Region::Face(..) if len == 3 => "; the origin is above its face".to_string(),
        Region::Face(i, j, k) => format!(
            "; the origin is outside its face {}",
            vertex_list(&[i, j, k])
        ),
    };
    text += &kept;
    if reduced < len {
        text += &format!(", so it shrinks to {}", simplex_name(reduced));
    }
    let feature = match reduced {
        1 => "The point",
        2 => "The segment",
        3 => "The triangle",
        _ => "The tetrahedron",
    };
    let distance = number(step.distance);
    match (step.direction, step.support, step.status) {
        (Some(d), Some(w), status) => {
            let along = match reduced {
                3 => "the face normal",
                2 => "the edge's perpendicular toward the origin",
                _ => "the direction toward the origin",
            };
            text += &format!(
                "{} the search continues along {along} {}. {feature} is {distance} from the origin; the farthest point of A - B that way is {} = {} on A minus {} on B",
                if reduced < len { "; then" } else { ", so" },
                vector(d),
                vector(w.point),
                vector(w.on_a),
                vector(w.on_b)
            );
            text += match status {
                Some(Status::SeparatingAxis) => ", which lies behind the origin: this direction separates the bodies, so they are apart.",
                Some(Status::RepeatedSupport) => ", already a simplex vertex: no point of A - B is closer to the origin, so this is the distance.",
                Some(Status::Converged) => ", no farther toward the origin than the simplex: the distance has converged.",
                _ => ", beyond the simplex toward the origin, so it joins the simplex.",
            };
        }
        (_, _, status) => {
            text += &format!(". {feature} is {distance} from the origin");
            text += match status {
                Some(Status::OriginOnSimplex) => ": zero within tolerance, so the origin lies on the simplex and A - B contains it: the bodies touch or overlap (the simplex may cut through the inside of A - B), and EPA finds how deep.",
                Some(Status::MaxIterations) => ". The iteration cap is reached; this distance is the best found.",
                Some(Status::Converged) => ", no closer than the last iteration's: rounding has taken over, so this is the distance.",
                Some(Status::NonFinite) => ", which is not a finite number: the input is not finite, so GJK stops and reports the bodies apart.",
                _ => ".",
            };
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom3::{Polyhedron, Pose3, Shape3Kind};
    use crate::query3::testing::*;
    use crate::query3::PolyPair;

    fn run_traced(a: &Polyhedron, pa: Pose3, b: &Polyhedron, pb: Pose3) -> (Output, Vec<Step>) {
        let pair = PolyPair::new(a, &pa, b, &pb);
        let mut steps = Vec::new();
        let out = gjk(&pair, &Config::default(), &mut steps);
        assert_eq!(out, gjk_distance(&pair), "traced and untraced differ");
        assert_eq!(
            gjk_intersects(&pair, &Config::default()),
            out.intersecting,
            "the intersection test disagrees"
        );
        assert_eq!(steps.len() as u32, out.iterations);
        assert_eq!(steps.last().unwrap().status, Some(out.status));
        (out, steps)
    }

    fn unit_cube() -> Polyhedron {
        cuboid(0.5, 0.5, 0.5)
    }

    #[test]
    fn separated_unit_cubes_offset_2_then_half() {
        // Unit cubes with B at (2, 0.5, 0): faces x = 0.5 and x = 1.5 face each other,
        // overlapping in y over [0, 0.5] and in z over [-0.5, 0.5]. Distance 1 along +x;
        // the closest points are any pair straight across in that overlap.
        let c = unit_cube();
        let (out, _) = run_traced(&c, at(0., 0., 0.), &c, at(2., 0.5, 0.));
        assert!(!out.intersecting);
        assert!(close(out.distance, 1.0, 1e-6), "{}", out.distance);
        let (pa, pb) = (out.closest_a.unwrap(), out.closest_b.unwrap());
        assert!(
            close(pa.x, 0.5, 1e-6) && close(pb.x, 1.5, 1e-6),
            "{pa} {pb}"
        );
        assert!(close_v(pb - pa, Vec3::X, 1e-6));
        assert!((-1e-6..=0.5 + 1e-6).contains(&pa.y), "{pa}");
        assert!((-0.5 - 1e-6..=0.5 + 1e-6).contains(&pa.z), "{pa}");
        assert!(close_v(out.normal, Vec3::X, 1e-6));
    }

    #[test]
    fn cube_turned_45_degrees_about_z_beside_an_axis_aligned_cube() {
        // A: unit cube turned 45 degrees about z: its +x edge (a vertical edge) is at
        // x = sqrt(2)/2 = 0.70711, running from z = -0.5 to 0.5 at y = 0. B: unit cube at
        // (2, 0, 0), face x = 1.5. Distance 1.5 - 0.70711 = 0.79289, from A's edge to B's
        // face: closest points (0.70711, 0, z) and (1.5, 0, z), z in [-0.5, 0.5].
        let c = unit_cube();
        let (out, _) = run_traced(
            &c,
            at_deg(Vec3::ZERO, Vec3::new(0., 0., 45.)),
            &c,
            at(2., 0., 0.),
        );
        let half_diagonal = 0.5 * 2f32.sqrt();
        assert!(
            close(out.distance, 1.5 - half_diagonal, 1e-6),
            "{}",
            out.distance
        );
        let (pa, pb) = (out.closest_a.unwrap(), out.closest_b.unwrap());
        assert!(
            close(pa.x, half_diagonal, 1e-6) && close(pa.y, 0.0, 1e-6),
            "{pa}"
        );
        assert!(close(pb.x, 1.5, 1e-6) && close(pb.y, 0.0, 1e-6), "{pb}");
        assert!(close(pa.z, pb.z, 1e-6) && pa.z.abs() <= 0.5 + 1e-6);
    }

    #[test]
    fn vertex_to_vertex_distance_across_a_diagonal() {
        // B at (2, 2, 2): corner (0.5, 0.5, 0.5) of A faces corner (1.5, 1.5, 1.5) of B.
        let c = unit_cube();
        let (out, steps) = run_traced(&c, at(0., 0., 0.), &c, at(2., 2., 2.));
        assert!(close(out.distance, 3f32.sqrt(), 1e-6), "{}", out.distance);
        assert!(close_v(out.closest_a.unwrap(), Vec3::splat(0.5), 1e-6));
        assert!(close_v(out.closest_b.unwrap(), Vec3::splat(1.5), 1e-6));
        assert_eq!(
            out.simplex.len, 1,
            "a vertex pair: the simplex is one point"
        );
        assert!(steps.len() <= 3);
    }

    #[test]
    fn edge_to_edge_distance_between_crossed_ridges() {
        // A turned 45 about z (ridge along z at y = 0.70711), B turned 45 about x (ridge
        // along x underneath), B 2 above A: the ridges cross at x = z = 0, 2 - 2 * 0.70711
        // apart.
        let c = unit_cube();
        let ridge = 0.5 * 2f32.sqrt();
        let (out, _) = run_traced(
            &c,
            at_deg(Vec3::ZERO, Vec3::new(0., 0., 45.)),
            &c,
            at_deg(Vec3::new(0., 2., 0.), Vec3::new(45., 0., 0.)),
        );
        assert!(
            close(out.distance, 2.0 - 2.0 * ridge, 1e-5),
            "{}",
            out.distance
        );
        assert!(close_v(
            out.closest_a.unwrap(),
            Vec3::new(0., ridge, 0.),
            1e-5
        ));
        assert!(close_v(
            out.closest_b.unwrap(),
            Vec3::new(0., 2. - ridge, 0.),
            1e-5
        ));
        assert!(close_v(out.normal, Vec3::Y, 1e-5));
    }

    #[test]
    fn overlapping_cubes_enclose_the_origin_in_a_tetrahedron() {
        let c = unit_cube();
        let (out, steps) = run_traced(&c, at(0., 0., 0.), &c, at(0.6, 0.3, -0.2));
        assert!(out.intersecting);
        assert_eq!(out.status, Status::Enclosed);
        assert_eq!(out.distance, 0.0);
        assert_eq!(out.simplex.len, 4);
        assert_eq!(steps.last().unwrap().region, Region::Inside);
        assert_eq!(out.closest_a, None);
    }

    #[test]
    fn touching_boxes_put_the_origin_on_the_simplex() {
        // Face to face at x = 0.5, offset in y and z so no vertices coincide.
        let c = unit_cube();
        let (out, _) = run_traced(&c, at(0., 0., 0.), &c, at(1.0, 0.3, 0.2));
        assert!(out.intersecting);
        assert_eq!(out.distance, 0.0);
        assert_eq!(out.status, Status::OriginOnSimplex);
    }

    #[test]
    fn boxes_ending_on_a_two_point_simplex() {
        // A known hard case from other engines' trackers: for aligned boxes the support
        // function returns vertices whose differences line up along an edge of A - B, and
        // GJK ends on a segment. Face-to-face, straight above: the closest feature of A - B
        // is a face, but the simplex that proves the distance can be an edge of it.
        let slab = cuboid(1.0, 0.5, 1.0);
        let c = unit_cube();
        let (out, _) = run_traced(&slab, at(0., 0., 0.), &c, at(0.0, 1.5, 0.25));
        assert!(close(out.distance, 0.5, 1e-6), "{}", out.distance);
        assert!(close_v(out.normal, Vec3::Y, 1e-6));
        let (pa, pb) = (out.closest_a.unwrap(), out.closest_b.unwrap());
        assert!(close(pa.y, 0.5, 1e-6) && close(pb.y, 1.0, 1e-6));
        // Whatever simplex it ends on, the points are a straight-across pair.
        assert!(close_v(pb - pa, Vec3::new(0., 0.5, 0.), 1e-6));
        // Two boxes side by side along x end on a segment: an edge of A - B faces the
        // origin (the boxes' edges are parallel: offset in y only).
        let (side, _) = run_traced(&c, at(0., 0., 0.), &c, at(1.5, 0.5, 0.));
        assert!(close(side.distance, 0.5, 1e-6));
        assert!(side.simplex.len <= 2, "{:?}", side.simplex.len);
    }

    #[test]
    fn every_simplex_case_appears_in_one_approach() {
        // A tetrahedron-shaped hull approached by a cube from a skew direction: the trace
        // passes through a point, a segment and a triangle before converging.
        let tetra = Polyhedron::new(&Shape3Kind::Hull {
            points: vec![
                Vec3::new(1., 0., 0.),
                Vec3::new(-0.5, 0.8, 0.3),
                Vec3::new(-0.4, -0.7, 0.6),
                Vec3::new(0.1, 0.2, -1.0),
            ],
        })
        .unwrap();
        let c = unit_cube();
        let (_, steps) = run_traced(
            &tetra,
            at(0., 0., 0.),
            &c,
            at_deg(Vec3::new(1.2, 1.7, 0.9), Vec3::new(20., 30., 10.)),
        );
        let lens: Vec<usize> = steps.iter().map(|s| s.candidate.len).collect();
        assert!(
            lens.contains(&1) && lens.contains(&2) && lens.contains(&3),
            "{lens:?}"
        );
    }

    #[test]
    fn far_from_the_world_origin_keeps_precision() {
        let c = unit_cube();
        // Near 1e5 an f32 steps by 1/128; the gap is one such step.
        let (out, _) = run_traced(
            &c,
            at(1.0e5, 1.0e5, -1.0e5),
            &c,
            at(1.0e5 + 1.0 + 1.0 / 128.0, 1.0e5, -1.0e5),
        );
        assert!(close(out.distance, 1.0 / 128.0, 1e-6), "{}", out.distance);
    }

    #[test]
    fn iteration_cap_is_reported() {
        let ball = Polyhedron::new(&Shape3Kind::Prism {
            sides: 200,
            radius: 1.0,
            half_height: 0.5,
        })
        .unwrap();
        let pair = PolyPair::new(
            &ball,
            &at(0., 0., 0.),
            &ball,
            &at_deg(Vec3::new(2.5, 0.3, 0.1), Vec3::new(0., 17., 0.)),
        );
        let config = Config {
            max_iterations: 1,
            ..Config::default()
        };
        let out = gjk(&pair, &config, &mut ());
        assert_eq!(out.status, Status::MaxIterations);
        assert_eq!(out.iterations, 2);
    }

    #[test]
    fn nan_poses_end_with_a_status_not_a_nan() {
        let c = unit_cube();
        let pair = PolyPair::new(&c, &at(0., 0., 0.), &c, &at(f32::NAN, 0., 0.));
        let mut steps = Vec::new();
        let out = gjk(&pair, &Config::default(), &mut steps);
        assert_eq!(out.status, Status::NonFinite);
        assert!(!out.intersecting && out.distance == f32::INFINITY && out.closest_a.is_none());
        assert!(!gjk_intersects(&pair, &Config::default()));
        assert!(crate::query3::epa::epa_penetration(&pair, &out).is_none());
        assert!(sentence(&steps[0]).contains("not finite"));
    }

    #[test]
    fn intersection_test_stops_at_a_separating_axis() {
        // Far apart: the first search direction already shows a support point behind the
        // origin.
        let c = unit_cube();
        let pair = PolyPair::new(&c, &at(0., 0., 0.), &c, &at(5., 0.2, 0.1));
        let mut steps = Vec::new();
        let end = run::<true, _, _>(
            &pair,
            &Config::default(),
            &mut steps,
            &mut Simplex::default(),
        );
        assert_eq!(end.status, Status::SeparatingAxis);
        assert!(!end.intersecting());
        assert_eq!(steps.len(), 1);
        assert!(sentence(&steps[0]).contains("separates the bodies"));
    }

    /// A segment core (the core of a capsule) plugs into GJK and EPA through the support
    /// traits: nothing in the loops knows about polyhedra.
    struct SegmentCore {
        ends: [Vec3; 2],
    }

    impl crate::query3::simplex::Support3 for SegmentCore {
        fn support_vertex(&self, direction: Vec3) -> (u32, Vec3) {
            let k = (self.ends[1].dot(direction) > self.ends[0].dot(direction)) as usize;
            (k as u32, self.ends[k])
        }

        fn centroid(&self) -> Vec3 {
            0.5 * (self.ends[0] + self.ends[1])
        }
    }

    struct BoxAndSegment<'a> {
        a: crate::query3::Placed3<'a>,
        b: SegmentCore,
    }

    impl<'a> SupportPair3 for BoxAndSegment<'a> {
        type A = crate::query3::Placed3<'a>;
        type B = SegmentCore;
        fn a(&self) -> &Self::A {
            &self.a
        }
        fn b(&self) -> &SegmentCore {
            &self.b
        }
        fn origin(&self) -> Vec3 {
            Vec3::ZERO
        }
        fn scale(&self) -> f32 {
            4.0
        }
    }

    #[test]
    fn a_segment_core_plugs_in_through_the_support_traits() {
        let c = unit_cube();
        let placed = crate::query3::Placed3::new(&c, &at(0., 0., 0.), Vec3::ZERO);
        // A vertical segment at x = 2: 1.5 from the cube's face x = 0.5.
        let apart = BoxAndSegment {
            a: placed,
            b: SegmentCore {
                ends: [Vec3::new(2., -1., 0.2), Vec3::new(2., 1., 0.2)],
            },
        };
        let out = gjk_distance(&apart);
        assert!(close(out.distance, 1.5, 1e-6), "{out:?}");
        assert!(close_v(
            out.closest_b.unwrap() - out.closest_a.unwrap(),
            Vec3::new(1.5, 0., 0.),
            1e-6
        ));
        // The segment through the cube at x = 0.3: it leaves fastest along +x, 0.2.
        let through = BoxAndSegment {
            a: placed,
            b: SegmentCore {
                ends: [Vec3::new(0.3, -2., 0.1), Vec3::new(0.3, 2., 0.1)],
            },
        };
        let g = gjk_distance(&through);
        assert!(g.intersecting);
        let e = crate::query3::epa::epa_penetration(&through, &g).unwrap();
        assert!(close(e.depth, 0.2, 1e-5), "{e:?}");
        assert!(close_v(e.normal, Vec3::X, 1e-5), "{e:?}");
    }

    #[test]
    fn sentences_read_as_the_issue_says() {
        let c = unit_cube();
        let (_, steps) = run_traced(
            &c,
            at(0., 0., 0.),
            &c,
            at_deg(Vec3::new(1.7, 0.9, 0.4), Vec3::new(10., 20., 30.)),
        );
        for step in &steps {
            let s = sentence(step);
            assert!(
                s.starts_with(&format!("Iteration {}: the simplex is ", step.iteration)),
                "{s}"
            );
            assert!(s.ends_with('.'), "{s}");
        }
        // A hand-made triangle step.
        let mk = |x: f32, y: f32, z: f32| SupportPoint3 {
            point: Vec3::new(x, y, z),
            ..SupportPoint3::default()
        };
        let mut tri = Simplex::default();
        // The plane 0.6 y + 0.8 z = -0.6, with the origin 0.6 above it along its normal.
        for p in [mk(-1., 3., -3.), mk(1., 3., -3.), mk(0., -3., 1.5)] {
            tri.push(p);
        }
        let mut reduced = tri;
        let (region, closest) = reduced.reduce_to_closest_feature();
        assert!(matches!(region, Region::Face(..)));
        let points = [0, 1, 2].map(|i| reduced.vertices[i].point);
        let (_, direction) = search_direction(reduced.len, &points, closest);
        assert!(
            close_v(direction, Vec3::new(0., 0.6, 0.8), 1e-6),
            "{direction}"
        );
        let step = Step {
            iteration: 3,
            candidate: tri,
            simplex: reduced,
            region,
            closest,
            distance: closest.length(),
            direction: Some(direction),
            support: Some(mk(0., 1., 1.)),
            status: None,
        };
        let s = sentence(&step);
        assert!(
            s.starts_with("Iteration 3: the simplex is a triangle; the origin is above its face, so the search continues along the face normal (0, 0.6, 0.8). The triangle is 0.6 from the origin;"),
            "{s}"
        );
    }
}
