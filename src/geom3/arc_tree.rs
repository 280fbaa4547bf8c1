//! A tree of bounding caps over a polyhedron's Gauss-map arcs: which edges may have an arc
//! that crosses a given arc, without looking at every edge.
//!
//! On the Gauss map each edge of a convex polyhedron is the short great arc between the
//! normals of its two faces. SAT's edge axes come from the pairs of edges (one per body)
//! whose arcs cross; testing every pair costs edges(A) x edges(B), millions of pairs for
//! two hulls of a thousand points, of which a few thousand cross. A spherical cap (a centre
//! direction and an angular radius) holds each arc, and a binary tree holds groups of caps,
//! so a query visits only the groups whose cap comes near the query's.
//!
//! ```text
//! build (once per polyhedron, local frame):
//!     cap of an arc n0..n1: centre = normalize(n0 + n1), radius = half the angle n0..n1
//!     arcs too short or too long for a reliable cap go to the `unbounded` list
//!     split the others at the median of the coordinate along which their centres spread most,
//!     recursively, down to leaves of at most LEAF_ARCS; each node's cap holds its children's
//! query(cap q):
//!     report every unbounded arc
//!     visit a node when angle(q.centre, node.centre) <= q.radius + node.radius + ARC_TREE_MARGIN;
//!     in a visited leaf, report each arc whose own cap passes the same test
//! ```
//!
//! The answer is a superset of the arcs that cross the query's arc: two arcs that cross
//! share a point, so their caps overlap. The caller still runs its exact crossing test on
//! each reported arc, computed as it always was, so the tree changes how many pairs are
//! tested, never which cross. [`ARC_TREE_MARGIN`] covers the rounding between the frame the
//! tree is built in and the frame the exact test runs in; [`SHORT_ARC`] keeps out the arcs
//! whose crossing the exact test decides on rounding alone.

use glam::Vec3;

/// Extra angle (radians) added to every node's radius: far above the rounding of turning an
/// arc into another frame (a few 1e-7) and of an arc's plane computed from two normals that
/// are [`SHORT_ARC`] apart (1e-7 / 2e-4, 5e-4), small next to the arcs of a thousand-point hull
/// (tens of milliradians), so it costs few extra candidates.
pub const ARC_TREE_MARGIN: f32 = 1.0e-2;

/// Arcs whose end normals are closer than this (the sine of the angle between them) are not
/// bounded by a cap but reported by every query: their plane is mostly rounding, and the
/// exact test's answer for them may differ from the geometry by more than the margin.
/// Arcs of more than about 174 degrees (`|n0 + n1| < 0.1`) are reported by every query too:
/// their centre is ill-defined.
pub const SHORT_ARC: f32 = 2.0e-4;

/// At most this many arcs in a leaf.
const LEAF_ARCS: usize = 4;

/// A spherical cap: the directions within `radius` of `centre`, kept as the cosine and sine
/// of the radius (the test needs no trigonometry).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cap {
    pub centre: Vec3,
    pub cos_radius: f32,
    pub sin_radius: f32,
}

impl Cap {
    /// The cap of the arc between the unit normals `n0` and `n1` (the shorter one), or `None`
    /// when the arc is too short ([`SHORT_ARC`]), nearly a half circle, or not finite.
    /// The centre is the arc's midpoint; the radius is half the arc's angle, whose cosine and
    /// sine are `|n0 + n1| / 2` and `|n1 - n0| / 2`.
    pub fn of_arc(n0: Vec3, n1: Vec3) -> Option<Cap> {
        let sum = n0 + n1;
        let half_sum = 0.5 * sum.length();
        let half_difference = 0.5 * (n1 - n0).length();
        let sine = n0.cross(n1).length();
        let bounded = sine >= SHORT_ARC && half_sum >= 0.05 && sum.is_finite();
        bounded.then(|| Cap {
            centre: sum / (2.0 * half_sum),
            cos_radius: half_sum,
            sin_radius: half_difference,
        })
    }

    /// The same cap with its centre negated (the arc of the negated normals).
    pub fn negated(self) -> Cap {
        Cap {
            centre: -self.centre,
            ..self
        }
    }

    fn radius(&self) -> f32 {
        self.sin_radius.atan2(self.cos_radius)
    }

    fn with_radius(centre: Vec3, radius: f32) -> Cap {
        let (sin_radius, cos_radius) = radius.min(std::f32::consts::PI).sin_cos();
        Cap {
            centre,
            cos_radius,
            sin_radius,
        }
    }
}

/// One node: `first..first + count` in the leaf order when `count > 0` (a leaf), else an
/// inner node whose children are nodes `first` and `first + 1`. The cap's radius already
/// includes [`ARC_TREE_MARGIN`]; `wide` marks a radius of a quarter turn or more, which
/// every query visits (the cosine test below holds only for radii summing below a half turn,
/// and a query's radius is at most a quarter turn).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Node {
    cap: Cap,
    wide: bool,
    first: u32,
    count: u32,
}

/// The tree over one polyhedron's edges (see the module header).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArcTree {
    nodes: Vec<Node>,
    /// Edge indices in leaf order, and each one's own cap (radius with the margin).
    leaf_edges: Vec<u32>,
    leaf_caps: Vec<Cap>,
    leaf_wide: Vec<bool>,
    /// Edges every query reports.
    unbounded: Vec<u32>,
}

impl ArcTree {
    /// Builds the tree over the arcs `arcs[e] = (n0, n1)` of edges `e = 0, 1, ...`.
    pub fn new(arcs: impl IntoIterator<Item = (Vec3, Vec3)>) -> ArcTree {
        let mut tree = ArcTree::default();
        let mut items: Vec<(u32, Cap, f32)> = Vec::new();
        for (e, (n0, n1)) in arcs.into_iter().enumerate() {
            match Cap::of_arc(n0, n1) {
                Some(cap) => items.push((e as u32, cap, cap.radius())),
                None => tree.unbounded.push(e as u32),
            }
        }
        if !items.is_empty() {
            tree.nodes.push(placeholder());
            tree.build(0, &mut items);
        }
        tree
    }

    /// Fills node `index` with the arcs `items` (reordering them), and its subtree.
    fn build(&mut self, index: usize, items: &mut [(u32, Cap, f32)]) {
        // The node's cap: centred on the normalised mean of its arcs' centres (any direction
        // when they cancel out), wide enough for the farthest arc (computed from the arcs
        // themselves, not from the children's caps, which would be looser).
        let sum: Vec3 = items.iter().map(|(_, cap, _)| cap.centre).sum();
        let centre = sum.try_normalize().unwrap_or(Vec3::X);
        let radius = items
            .iter()
            .map(|(_, cap, r)| centre.dot(cap.centre).clamp(-1.0, 1.0).acos() + r)
            .fold(0.0f32, f32::max);
        if items.len() <= LEAF_ARCS {
            let first = self.leaf_edges.len() as u32;
            for (e, cap, r) in items.iter() {
                self.leaf_edges.push(*e);
                let r_margin = r + ARC_TREE_MARGIN;
                self.leaf_caps.push(Cap::with_radius(cap.centre, r_margin));
                self.leaf_wide.push(r_margin >= std::f32::consts::FRAC_PI_2);
            }
            self.nodes[index] = node(centre, radius, first, items.len() as u32);
            return;
        }
        // Split at the median along the coordinate in which the centres spread most.
        let (low, high) = items.iter().fold(
            (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
            |(lo, hi), (_, cap, _)| (lo.min(cap.centre), hi.max(cap.centre)),
        );
        let spread = high - low;
        let k = if spread.x >= spread.y && spread.x >= spread.z {
            0
        } else if spread.y >= spread.z {
            1
        } else {
            2
        };
        let half = items.len() / 2;
        items.select_nth_unstable_by(half, |p, q| p.1.centre[k].total_cmp(&q.1.centre[k]));
        let first = self.nodes.len();
        self.nodes.push(placeholder());
        self.nodes.push(placeholder());
        let (left, right) = items.split_at_mut(half);
        self.nodes[index] = node(centre, radius, first as u32, 0);
        self.build(first, left);
        self.build(first + 1, right);
    }

    /// Calls `report(e)` for every edge `e` whose arc may cross an arc inside `query` (each
    /// edge at most once, in no particular order): every arc the query's cap comes within
    /// [`ARC_TREE_MARGIN`] of, and every unbounded one. `query`'s radius must be at most a
    /// quarter turn (true of any arc's cap). No heap allocation: the walk keeps its pending
    /// nodes on a fixed stack, deep enough for any tree this builds (depth log2 of the edge
    /// count); should it ever fill, the remaining arcs of that subtree are reported
    /// unfiltered, never dropped.
    pub fn for_each_near(&self, query: &Cap, mut report: impl FnMut(u32)) {
        for &e in &self.unbounded {
            report(e);
        }
        if self.nodes.is_empty() {
            return;
        }
        let mut stack = [0u32; 64];
        let mut top = 1usize;
        while top > 0 {
            top -= 1;
            let node = self.nodes[stack[top] as usize];
            if !near(query, &node.cap, node.wide) {
                continue;
            }
            if node.count > 0 {
                let range = node.first as usize..(node.first + node.count) as usize;
                for k in range {
                    if near(query, &self.leaf_caps[k], self.leaf_wide[k]) {
                        report(self.leaf_edges[k]);
                    }
                }
            } else if top + 2 <= stack.len() {
                stack[top] = node.first;
                stack[top + 1] = node.first + 1;
                top += 2;
            } else {
                self.report_all(node.first as usize, &mut report);
                self.report_all(node.first as usize + 1, &mut report);
            }
        }
    }

    /// Every edge under node `index` (the fallback of a full stack).
    fn report_all(&self, index: usize, report: &mut impl FnMut(u32)) {
        let node = self.nodes[index];
        if node.count > 0 {
            for k in node.first..node.first + node.count {
                report(self.leaf_edges[k as usize]);
            }
        } else {
            self.report_all(node.first as usize, report);
            self.report_all(node.first as usize + 1, report);
        }
    }

    /// How many edges the tree holds (bounded or not).
    pub fn len(&self) -> usize {
        self.leaf_edges.len() + self.unbounded.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A node with `radius` widened by the margin.
fn node(centre: Vec3, radius: f32, first: u32, count: u32) -> Node {
    let radius = radius + ARC_TREE_MARGIN;
    Node {
        cap: Cap::with_radius(centre, radius),
        wide: radius >= std::f32::consts::FRAC_PI_2,
        first,
        count,
    }
}

fn placeholder() -> Node {
    Node {
        cap: Cap {
            centre: Vec3::X,
            cos_radius: 1.0,
            sin_radius: 0.0,
        },
        wide: true,
        first: 0,
        count: 0,
    }
}

/// Whether the caps may overlap: the angle between the centres is at most the sum of the
/// radii, i.e. `cos(angle) >= cos(rq + rn) = cq cn - sq sn` (valid while the sum is below a
/// half turn: `query` is at most a quarter turn, and `wide` nodes are always visited). A NaN
/// query visits nothing here; callers check their input is finite first.
#[inline]
fn near(query: &Cap, node: &Cap, wide: bool) -> bool {
    wide || query.centre.dot(node.centre)
        >= query.cos_radius * node.cos_radius - query.sin_radius * node.sin_radius
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (the tests draw thousands of arcs).
    struct Rng(u64);

    impl Rng {
        fn unit(&mut self) -> f32 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 40) as f32) / (1u64 << 24) as f32
        }

        fn direction(&mut self) -> Vec3 {
            loop {
                let v = Vec3::new(self.unit(), self.unit(), self.unit()) * 2.0 - Vec3::ONE;
                if v.length_squared() > 0.01 && v.length_squared() <= 1.0 {
                    return v.normalize();
                }
            }
        }

        /// An arc starting at a random direction, of a random length up to `max_angle`.
        fn arc(&mut self, max_angle: f32) -> (Vec3, Vec3) {
            let n0 = self.direction();
            let side = n0.cross(self.direction()).normalize();
            let angle = max_angle * self.unit();
            (n0, (n0 * angle.cos() + side * angle.sin()).normalize())
        }
    }

    /// Whether the arcs cross, in f64 (a referee written apart from SAT's test): the ends of
    /// each lie on opposite sides of the other's great circle, and the crossing point of the
    /// two circles that lies on the first arc also lies on the second (not its antipode).
    fn arcs_meet(p: (Vec3, Vec3), q: (Vec3, Vec3)) -> bool {
        let (a, b) = (p.0.as_dvec3(), p.1.as_dvec3());
        let (c, d) = (q.0.as_dvec3(), q.1.as_dvec3());
        let (pn, qn) = (a.cross(b), c.cross(d));
        if c.dot(pn) * d.dot(pn) > 0.0 || a.dot(qn) * b.dot(qn) > 0.0 {
            return false;
        }
        let x = pn.cross(qn);
        let on = |x: glam::DVec3, a: glam::DVec3, b: glam::DVec3| {
            a.cross(x).dot(a.cross(b)) >= 0.0 && x.cross(b).dot(a.cross(b)) >= 0.0
        };
        (on(x, a, b) && on(x, c, d)) || (on(-x, a, b) && on(-x, c, d))
    }

    #[test]
    fn every_arc_that_meets_the_query_is_reported_once() {
        let mut rng = Rng(7);
        let mut meetings = 0;
        for max_angle in [0.05f32, 0.5, 2.5] {
            let arcs: Vec<(Vec3, Vec3)> = (0..300).map(|_| rng.arc(max_angle)).collect();
            let tree = ArcTree::new(arcs.iter().copied());
            assert_eq!(tree.len(), arcs.len());
            for _ in 0..200 {
                let q = rng.arc(max_angle);
                let Some(cap) = Cap::of_arc(q.0, q.1) else {
                    continue;
                };
                let mut seen = vec![0u32; arcs.len()];
                tree.for_each_near(&cap, |e| seen[e as usize] += 1);
                assert!(seen.iter().all(|&n| n <= 1), "an edge reported twice");
                for (e, arc) in arcs.iter().enumerate() {
                    if arcs_meet(q, *arc) {
                        meetings += 1;
                        assert_eq!(seen[e], 1, "arc {e} meets the query but was not reported");
                    }
                }
            }
        }
        // The referee finds crossings to check (not an empty test).
        assert!(meetings > 1000, "{meetings} crossings");
    }

    #[test]
    fn short_and_half_circle_arcs_are_reported_by_every_query() {
        let x = Vec3::X;
        let short = (x, Vec3::new(1.0, 1.0e-5, 0.0).normalize());
        let half = (x, Vec3::new(-1.0, 0.01, 0.0).normalize());
        let far = (Vec3::Z, Vec3::new(0.0, 0.3, 1.0).normalize());
        let tree = ArcTree::new([short, half, far]);
        let query = Cap::of_arc(-Vec3::Y, Vec3::new(0.0, -1.0, -0.2).normalize()).unwrap();
        let mut seen = Vec::new();
        tree.for_each_near(&query, |e| seen.push(e));
        seen.sort();
        assert_eq!(seen, vec![0, 1], "the unbounded arcs, and not the far one");
    }

    #[test]
    fn a_query_far_from_every_arc_reports_none() {
        // Arcs (none of them short) clustered round +z; a query round -z reports nothing.
        let mut rng = Rng(11);
        let lift = |v: Vec3| (v * 0.5 + Vec3::Z).normalize();
        let arcs: Vec<(Vec3, Vec3)> = (0..500)
            .map(|_| rng.arc(0.3))
            .map(|(a, b)| (lift(a), lift(b)))
            .filter(|(a, b)| a.cross(*b).length() > 10.0 * SHORT_ARC)
            .collect();
        assert!(arcs.len() > 400);
        let tree = ArcTree::new(arcs);
        let query = Cap::of_arc(-Vec3::Z, Vec3::new(0.0, 0.1, -1.0).normalize()).unwrap();
        let mut count = 0;
        tree.for_each_near(&query, |_| count += 1);
        assert_eq!(count, 0);
    }

    #[test]
    fn caps_of_an_arc_hold_the_whole_arc() {
        let mut rng = Rng(3);
        for _ in 0..2000 {
            let (n0, n1) = rng.arc(3.0);
            let Some(cap) = Cap::of_arc(n0, n1) else {
                continue;
            };
            for k in 0..=20 {
                let p = n0.lerp(n1, k as f32 / 20.0).normalize();
                assert!(
                    p.dot(cap.centre) >= cap.cos_radius - 1.0e-5,
                    "point {k} of the arc lies outside its cap"
                );
            }
        }
    }
}
