//! Pairs with round shapes (spheres and capsules) in 3D: bodies placed in the work frame,
//! the support function of their cores, and GJK and EPA run on the cores with the radii
//! added.
//!
//! Algorithm (van den Bergen, *Collision Detection in Interactive 3D Environments*, 4.3.3:
//! a convex shape that is a core inflated by a ball of radius r has support point
//! `s_core(d) + r d`, so every GJK and EPA answer of the cores carries over):
//!
//! ```text
//! g = GJK on the cores                    (distance d, closest points pa, pb, normal n)
//! distance = d - ra - rb; the bodies intersect when distance <= touch tolerance
//! apart:        closest points pa + ra n on A and pb - rb n on B
//! cores apart, bodies overlapping:  depth = ra + rb - d along n, no expansion
//! cores overlapping:  EPA on the cores, depth = core depth + ra + rb along its normal,
//!               deepest points moved out by the radii along the normal (the smaller
//!               body's point kept, the other depth * normal from it)
//! two round cores meeting: no volume to expand (a point, a segment or a flat
//!               parallelogram): depth = ra + rb along the direction that separates the
//!               cores least, status degenerate
//! ```
//!
//! Every round body is placed as its core (a point or a segment) in the work frame; the
//! polyhedra are placed as [`Placed3`]. [`BodyPair3`] holds either kind on each side and
//! implements [`SupportPair3`], so the same GJK and EPA loops run on it.

use super::epa;
use super::gjk;
use super::manifold::closest_points;
use super::sat::PARALLEL_TOLERANCE;
use super::simplex::{Support3, SupportPair3};
use super::{Interval, Placed3, TOUCH_TOLERANCE};
use crate::geom3::{Pose3, Round3, Shape3Ref};
use crate::trace::Tracer;
use glam::{Quat, Vec3};

/// A round shape's core placed in the work frame: the segment `ends[0] - ends[1]` (one point
/// twice for a sphere), and the radius around it.
#[derive(Clone, Copy, Debug)]
pub struct PlacedRound<'a> {
    pub shape: &'a Round3,
    pub rotation: Quat,
    /// The centre in the work frame.
    pub translation: Vec3,
}

impl<'a> PlacedRound<'a> {
    pub fn new(shape: &'a Round3, pose: &Pose3, origin: Vec3) -> Self {
        PlacedRound {
            shape,
            rotation: pose.rotation,
            translation: pose.position - origin,
        }
    }

    /// The core's ends in the work frame: end 0 is local (0, -h, 0), end 1 is (0, h, 0).
    #[inline]
    pub fn ends(&self) -> [Vec3; 2] {
        let axis = self.rotation * Vec3::new(0.0, self.shape.half_length(), 0.0);
        [self.translation - axis, self.translation + axis]
    }

    pub fn radius(&self) -> f32 {
        self.shape.radius()
    }

    /// Whether the core is a segment (a capsule).
    pub fn is_segment(&self) -> bool {
        self.shape.half_length() > 0.0
    }

    /// The end of the core farthest along `dir` (end 0 on a tie, and always for a sphere).
    #[inline]
    pub fn core_support_index(&self, dir: Vec3) -> usize {
        let [e0, e1] = self.ends();
        usize::from(e1.dot(dir) > e0.dot(dir))
    }

    /// The interval of the whole shape (core and radius) projected on the unit `axis`.
    pub fn project(&self, axis: Vec3) -> Interval {
        let [e0, e1] = self.ends();
        let (p, q) = (e0.dot(axis), e1.dot(axis));
        Interval::new(p.min(q) - self.radius(), p.max(q) + self.radius())
    }
}

/// A body of either kind placed in the work frame.
#[derive(Clone, Copy, Debug)]
pub enum PlacedBody3<'a> {
    Poly(Placed3<'a>),
    Round(PlacedRound<'a>),
}

impl<'a> PlacedBody3<'a> {
    pub fn new(shape: Shape3Ref<'a>, pose: &Pose3, origin: Vec3) -> Self {
        match shape {
            Shape3Ref::Polyhedron(p) => PlacedBody3::Poly(Placed3::new(p, pose, origin)),
            Shape3Ref::Round(r) => PlacedBody3::Round(PlacedRound::new(r, pose, origin)),
        }
    }

    /// The radius around the core: 0 for a polyhedron.
    pub fn radius(&self) -> f32 {
        match self {
            PlacedBody3::Poly(_) => 0.0,
            PlacedBody3::Round(r) => r.radius(),
        }
    }

    /// The interval of the whole body projected on the unit `axis` (work frame).
    pub fn project(&self, axis: Vec3) -> Interval {
        match self {
            PlacedBody3::Poly(p) => p.project(axis),
            PlacedBody3::Round(r) => r.project(axis),
        }
    }

    /// The largest distance from the body's centre to a point of it.
    pub fn size(&self) -> f32 {
        match self {
            PlacedBody3::Poly(p) => p.shape.centroid_radius(),
            PlacedBody3::Round(r) => r.shape.bounding_radius(),
        }
    }

    fn bounding_radius(&self) -> f32 {
        match self {
            PlacedBody3::Poly(p) => p.shape.bounding_radius(),
            PlacedBody3::Round(r) => r.shape.bounding_radius(),
        }
    }

    fn translation(&self) -> Vec3 {
        match self {
            PlacedBody3::Poly(p) => p.translation,
            PlacedBody3::Round(r) => r.translation,
        }
    }

    /// The same placement moved by `offset`.
    pub fn translated(self, offset: Vec3) -> Self {
        match self {
            PlacedBody3::Poly(p) => PlacedBody3::Poly(p.translated(offset)),
            PlacedBody3::Round(r) => PlacedBody3::Round(PlacedRound {
                translation: r.translation + offset,
                ..r
            }),
        }
    }
}

impl Support3 for PlacedBody3<'_> {
    /// The core's support point: a polyhedron's vertex, or a capsule's end (ids 0 and 1), or
    /// a sphere's centre (id 0).
    #[inline]
    fn support_vertex(&self, direction: Vec3) -> (u32, Vec3) {
        match self {
            PlacedBody3::Poly(p) => p.support_vertex(direction),
            PlacedBody3::Round(r) => {
                let i = r.core_support_index(direction);
                (i as u32, r.ends()[i])
            }
        }
    }

    #[inline]
    fn centroid(&self) -> Vec3 {
        match self {
            PlacedBody3::Poly(p) => Placed3::centroid(p),
            PlacedBody3::Round(r) => r.translation,
        }
    }
}

/// Two bodies of any kinds in a common work frame whose origin is body A's position: the
/// support function of their cores' Minkowski difference, and the radii to add.
#[derive(Clone, Copy, Debug)]
pub struct BodyPair3<'a> {
    pub a: PlacedBody3<'a>,
    pub b: PlacedBody3<'a>,
    /// The world position of the work frame's origin.
    pub origin: Vec3,
}

impl<'a> BodyPair3<'a> {
    pub fn new(a: Shape3Ref<'a>, pose_a: &Pose3, b: Shape3Ref<'a>, pose_b: &Pose3) -> Self {
        let origin = pose_a.position;
        BodyPair3 {
            a: PlacedBody3::new(a, pose_a, origin),
            b: PlacedBody3::new(b, pose_b, origin),
            origin,
        }
    }

    /// The same pair with A and B exchanged (same work frame).
    pub fn swapped(&self) -> Self {
        BodyPair3 {
            a: self.b,
            b: self.a,
            origin: self.origin,
        }
    }

    /// The length that sets the scale of the tolerances: both bounding radii (radius
    /// included) plus the distance between the bodies' positions.
    pub fn scale(&self) -> f32 {
        self.a.bounding_radius()
            + self.b.bounding_radius()
            + (self.b.translation() - self.a.translation()).length()
    }

    /// The same pair with B moved by `offset` (A and the work frame stay).
    pub fn b_moved(&self, offset: Vec3) -> Self {
        BodyPair3 {
            b: self.b.translated(offset),
            ..*self
        }
    }

    /// Gaps below this count as contact for this pair.
    pub fn touch_tolerance(&self) -> f32 {
        TOUCH_TOLERANCE * self.scale()
    }

    /// Both radii: how far the bodies reach beyond their cores together.
    pub fn radii(&self) -> f32 {
        self.a.radius() + self.b.radius()
    }

    /// A work-frame point in world coordinates.
    #[inline]
    pub fn to_world(&self, p: Vec3) -> Vec3 {
        p + self.origin
    }
}

impl<'a> SupportPair3 for BodyPair3<'a> {
    type A = PlacedBody3<'a>;
    type B = PlacedBody3<'a>;

    #[inline]
    fn a(&self) -> &PlacedBody3<'a> {
        &self.a
    }

    #[inline]
    fn b(&self) -> &PlacedBody3<'a> {
        &self.b
    }

    #[inline]
    fn origin(&self) -> Vec3 {
        self.origin
    }

    #[inline]
    fn scale(&self) -> f32 {
        BodyPair3::scale(self)
    }
}

/// GJK on the cores with the radii added (see the header). The steps recorded are the
/// cores' iterations; `distance`, `closest_a`, `closest_b` and `intersecting` are the
/// bodies'. `simplex` stays the cores' (EPA starts from it).
pub fn gjk_rounded<T: Tracer<gjk::Step>>(
    pair: &BodyPair3,
    config: &gjk::Config,
    tracer: &mut T,
) -> gjk::Output {
    let core = gjk::gjk(pair, config, tracer);
    with_radii(pair, core)
}

/// The bodies' GJK answer from the cores' one: distance minus the radii, closest points
/// moved out by the radii along the normal.
pub fn with_radii(pair: &BodyPair3, core: gjk::Output) -> gjk::Output {
    let (ra, rb) = (pair.a.radius(), pair.b.radius());
    if ra + rb == 0.0 || core.status == gjk::Status::NonFinite || core.intersecting {
        return core;
    }
    let distance = core.distance - ra - rb;
    if distance <= pair.touch_tolerance() {
        return gjk::Output {
            intersecting: true,
            distance: 0.0,
            closest_a: None,
            closest_b: None,
            ..core
        };
    }
    let n = core.normal;
    gjk::Output {
        distance,
        closest_a: core.closest_a.map(|p| p + ra * n),
        closest_b: core.closest_b.map(|p| p - rb * n),
        ..core
    }
}

/// EPA with the radii added, from the cores' GJK output `core_gjk` (not the rounded one:
/// its `distance` and `normal` are the cores'). `None` when the bodies are apart.
/// Cores that overlap run EPA on the cores (recorded), except two round cores (see
/// `round_cores_meeting`); cores apart within the radii need no expansion: the depth is `ra + rb - d` along GJK's normal, status
/// [`epa::Status::CoresApart`], nothing recorded.
pub fn epa_rounded<T: Tracer<epa::Step>>(
    pair: &BodyPair3,
    core_gjk: &gjk::Output,
    config: &epa::Config,
    tracer: &mut T,
) -> Option<epa::Output> {
    let (ra, rb) = (pair.a.radius(), pair.b.radius());
    if core_gjk.status == gjk::Status::NonFinite {
        return None;
    }
    if !core_gjk.intersecting {
        let depth = ra + rb - core_gjk.distance;
        if depth < -pair.touch_tolerance() {
            return None;
        }
        let n = core_gjk.normal;
        let (ca, cb) = (core_gjk.closest_a?, core_gjk.closest_b?);
        return Some(epa::Output {
            depth: depth.max(0.0),
            normal: n,
            point_a: ca + ra * n,
            point_b: cb - rb * n,
            iterations: 0,
            status: epa::Status::CoresApart,
        });
    }
    if let (PlacedBody3::Round(a), PlacedBody3::Round(b)) = (&pair.a, &pair.b) {
        return Some(round_cores_meeting(pair, a, b));
    }
    let core = epa::epa(pair, core_gjk, config, tracer)?;
    // A flat difference of cores (two crossing segments, a point on a segment) has two
    // normals; take the one from A's centre toward B's.
    let centres = pair.b.centroid() - pair.a.centroid();
    let n = if core.status == epa::Status::Degenerate && core.normal.dot(centres) < 0.0 {
        -core.normal
    } else {
        core.normal
    };
    // A flat difference has depth 0 at the origin: the cores meet where GJK's weights put
    // the origin, which EPA (seeing no volume) does not compute.
    let (core_a, core_b) = if core.status == epa::Status::Degenerate {
        let (_, on_a, on_b) = core_gjk.simplex.weighted();
        (pair.to_world(on_a), pair.to_world(on_b))
    } else {
        (core.point_a, core.point_b)
    };
    let depth = core.depth + ra + rb;
    // The closest face's barycentric point carries rounding proportional to the spread of
    // its vertices' sources: on a long core (a capsule 3,000 long) it drifts by hundreds
    // of units along the core. The smaller body's point is the precise one; the other is
    // `depth * normal` from it, as EPA promises.
    let (point_a, point_b) = if pair.a.size() <= pair.b.size() {
        let point_a = core_a + ra * n;
        (point_a, point_a - depth * n)
    } else {
        let point_b = core_b - rb * n;
        (point_b + depth * n, point_b)
    };
    Some(epa::Output {
        depth,
        normal: n,
        point_a,
        point_b,
        ..core
    })
}

/// Two round shapes whose cores meet: their difference is a point, a segment or a flat
/// parallelogram (no volume for EPA to expand), so the depth is the radii plus the (zero or
/// tiny) overlap along the direction that separates the cores least (SAT's round-round
/// axis), the points the cores' closest points moved out by the radii. Status
/// [`epa::Status::Degenerate`], nothing recorded.
fn round_cores_meeting(pair: &BodyPair3, a: &PlacedRound, b: &PlacedRound) -> epa::Output {
    let [a0, a1] = a.ends();
    let [b0, b1] = b.ends();
    let (pa, pb) = closest_points(a0, a1, b0, b1);
    let n = round_round_axis(a, b, pair.touch_tolerance());
    let (ra, rb) = (a.radius(), b.radius());
    epa::Output {
        depth: (ra + rb - (pb - pa).dot(n)).max(0.0),
        normal: n,
        point_a: pair.to_world(pa + ra * n),
        point_b: pair.to_world(pb - rb * n),
        iterations: 0,
        status: epa::Status::Degenerate,
    }
}

/// The axis between two round shapes: from A's core to B's at their closest points; when
/// the cores touch (closer than `touch`), the direction that separates them least (see the
/// header).
pub(crate) fn round_round_axis(a: &PlacedRound, b: &PlacedRound, touch: f32) -> Vec3 {
    let [a0, a1] = a.ends();
    let [b0, b1] = b.ends();
    let (pa, pb) = closest_points(a0, a1, b0, b1);
    let gap = pb - pa;
    if gap.length() > touch && gap.is_finite() {
        return gap.normalize();
    }
    let centres = b.translation - a.translation;
    let toward_b = |u: Vec3| if u.dot(centres) < 0.0 { -u } else { u };
    let (sa, sb) = (a1 - a0, b1 - b0);
    let c = sa.cross(sb);
    if a.is_segment()
        && b.is_segment()
        && c.length() > PARALLEL_TOLERANCE * sa.length() * sb.length()
    {
        return toward_b(c.normalize());
    }
    let s = if a.is_segment() { sa } else { sb };
    if s.length_squared() > 0.0 && s.is_finite() {
        // Square to the segment, toward B's centre where that has a direction.
        let s = s.normalize();
        let across = centres - s * s.dot(centres);
        return if across.length() > touch {
            across.normalize()
        } else {
            s.any_orthonormal_vector()
        };
    }
    if centres.length() > 0.0 && centres.is_finite() {
        centres.normalize()
    } else {
        Vec3::Y
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom3::Round3;
    use crate::query3::testing::*;

    use crate::query3::testing::round_pair as pair;

    fn gjk_and_epa(p: &BodyPair3) -> (gjk::Output, Option<epa::Output>) {
        let core = gjk::gjk(p, &gjk::Config::default(), &mut ());
        let e = epa_rounded(p, &core, &epa::Config::default(), &mut ());
        (with_radii(p, core), e)
    }

    #[test]
    fn sphere_above_a_box_face_is_its_centre_height_minus_the_radius_away() {
        let slab = cuboid(1.0, 0.5, 1.0);
        let ball = Round3::sphere(0.5).unwrap();
        let p = pair(&slab, at(0., 0., 0.), &ball, at(0.2, 1.5, -0.3));
        let (g, e) = gjk_and_epa(&p);
        assert!(!g.intersecting && e.is_none());
        assert!(close(g.distance, 0.5, 1e-5), "{g:?}");
        assert!(close_v(
            g.closest_a.unwrap(),
            Vec3::new(0.2, 0.5, -0.3),
            1e-5
        ));
        assert!(close_v(
            g.closest_b.unwrap(),
            Vec3::new(0.2, 1.0, -0.3),
            1e-5
        ));
    }

    #[test]
    fn sphere_sinking_into_a_box_face_has_the_radius_minus_the_height_as_depth() {
        let slab = cuboid(1.0, 0.5, 1.0);
        let ball = Round3::sphere(0.5).unwrap();
        let p = pair(&slab, at(0., 0., 0.), &ball, at(0.2, 0.8, -0.3));
        let (g, e) = gjk_and_epa(&p);
        let e = e.unwrap();
        assert!(g.intersecting && g.distance == 0.0);
        assert_eq!(e.status, epa::Status::CoresApart);
        assert!(close(e.depth, 0.2, 1e-5), "{e:?}");
        assert!(close_v(e.normal, Vec3::Y, 1e-5));
        assert!(close_v(e.point_a - e.point_b, e.depth * e.normal, 1e-5));
        assert!(close_v(e.point_b, Vec3::new(0.2, 0.3, -0.3), 1e-5));
    }

    #[test]
    fn sphere_centre_inside_a_box_runs_epa_on_the_core_and_adds_the_radius() {
        let slab = cuboid(1.0, 0.5, 1.0);
        let ball = Round3::sphere(0.25).unwrap();
        let p = pair(&slab, at(0., 0., 0.), &ball, at(0.1, 0.4, 0.));
        let (g, e) = gjk_and_epa(&p);
        let e = e.unwrap();
        assert!(g.intersecting);
        assert_ne!(e.status, epa::Status::CoresApart);
        assert!(close(e.depth, 0.35, 1e-4), "{e:?}");
        assert!(close_v(e.normal, Vec3::Y, 1e-4), "{e:?}");
    }

    #[test]
    fn capsules_crossing_at_right_angles_overlap_by_both_radii_along_the_cross_product() {
        // Cores: a segment along y at the origin and one along x (rotated 90 degrees about
        // z) through it: the difference of the cores is a flat square holding the origin.
        let c = Round3::capsule(1.0, 0.2).unwrap();
        let p = pair(
            &c,
            at(0., 0., 0.),
            &c,
            at_deg(Vec3::new(0., 0., 0.1), Vec3::new(0., 0., 90.)),
        );
        let (g, e) = gjk_and_epa(&p);
        let e = e.unwrap();
        assert!(g.intersecting);
        // Cores 0.1 apart along z: no expansion, depth 0.4 - 0.1.
        assert_eq!(e.status, epa::Status::CoresApart);
        assert!(close(e.depth, 0.3, 1e-5), "{e:?}");
        assert!(close_v(e.normal, Vec3::Z, 1e-5), "{e:?}");
        let q = pair(
            &c,
            at(0., 0., 0.),
            &c,
            at_deg(Vec3::new(0., 0., 0.), Vec3::new(0., 0., 90.)),
        );
        let (g, e) = gjk_and_epa(&q);
        let e = e.unwrap();
        assert!(g.intersecting);
        assert!(close(e.depth, 0.4, 1e-4), "{e:?}");
        assert!(close(e.normal.z.abs(), 1.0, 1e-4), "{e:?}");
    }

    #[test]
    fn separated_spheres_are_centre_distance_minus_radii_apart() {
        let a = Round3::sphere(1.0).unwrap();
        let b = Round3::sphere(0.5).unwrap();
        let p = pair(&a, at(1., 2., 3.), &b, at(1., 2., 6.));
        let (g, e) = gjk_and_epa(&p);
        assert!(e.is_none());
        assert!(close(g.distance, 1.5, 1e-5), "{g:?}");
        assert!(close_v(g.closest_a.unwrap(), Vec3::new(1., 2., 4.), 1e-5));
        assert!(close_v(g.closest_b.unwrap(), Vec3::new(1., 2., 5.5), 1e-5));
    }

    #[test]
    fn coincident_spheres_end_with_a_unit_normal_and_both_radii_as_depth() {
        let a = Round3::sphere(1.0).unwrap();
        let p = pair(&a, at(0., 0., 0.), &a, at(0., 0., 0.));
        let (g, e) = gjk_and_epa(&p);
        let e = e.unwrap();
        assert!(g.intersecting);
        assert!(close(e.depth, 2.0, 1e-5), "{e:?}");
        assert!(close(e.normal.length(), 1.0, 1e-5), "{e:?}");
    }

    #[test]
    fn sphere_centred_on_a_capsule_core_meets_it_where_gjk_puts_the_origin() {
        // The difference of the cores is a segment through the origin (flat, EPA sees no
        // volume): depth = both radii, along a direction square to the segment, and the
        // deepest points straddle the sphere's centre.
        let cap = Round3::capsule(2.0, 0.5).unwrap();
        let ball = Round3::sphere(0.25).unwrap();
        let p = pair(&cap, at(0., 0., 0.), &ball, at(0., 0.7, 0.));
        let (_, e) = gjk_and_epa(&p);
        let e = e.unwrap();
        assert_eq!(e.status, epa::Status::Degenerate);
        assert!(close(e.depth, 0.75, 1e-5), "{e:?}");
        assert!(close(e.normal.y, 0.0, 1e-5) && close(e.normal.length(), 1.0, 1e-5));
        assert!(
            close_v(e.point_a - e.point_b, e.depth * e.normal, 1e-5),
            "{e:?}"
        );
        assert!(
            close_v((e.point_a + e.point_b) / 2.0, Vec3::new(0., 0.7, 0.), 0.126),
            "{e:?}"
        );
    }
}
