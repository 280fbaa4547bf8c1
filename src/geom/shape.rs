use super::lanes::{CoreLanes, LanesOfWidth, ShapeLanes};
use super::{cross, right_perp, signed_area};
use crate::simd::farthest::{self, PAIR_ORDER};
use glam::Vec2;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Largest vertex count a polygon may have.
pub const MAX_POLYGON_VERTICES: usize = 4096;

/// Largest coordinate, radius or extent accepted anywhere: beyond it `f32` keeps fewer than
/// two decimal places and the numbers stop being worth showing to anyone.
pub const MAX_COORDINATE: f32 = 1.0e6;

/// Polygons with more vertices than this find support points by binary search over their
/// edge normals' angles instead of scanning every vertex.
const LINEAR_SUPPORT_LIMIT: usize = 16;

/// A turn whose cross product is below `-CONVEXITY_TOLERANCE * |e1| * |e2|` (the sine of the
/// turning angle, about 0.006 degrees) is a reflex vertex; smaller wobbles are float noise
/// on a collinear vertex.
const CONVEXITY_TOLERANCE: f32 = 1.0e-4;

/// A shape as a person describes it, in the body's local frame. This is also the form
/// stored in scene files (see `docs/scene-format.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ShapeKind {
    /// A convex polygon, in either winding. Collinear and repeated vertices are kept.
    Polygon {
        points: Vec<Vec2>,
    },
    /// An axis-aligned box centred on the origin.
    Box {
        half_extents: Vec2,
    },
    /// A regular polygon: vertex `k` at angle `360 * k / sides` degrees from +x, at distance
    /// `radius` (the circumradius) from the origin.
    Regular {
        sides: u32,
        radius: f32,
    },
    Circle {
        radius: f32,
    },
    /// The segment from `(-half_length, 0)` to `(half_length, 0)` inflated by `radius`;
    /// radius 0 is a plain segment.
    Capsule {
        half_length: f32,
        radius: f32,
    },
}

/// The names of a kind of shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KindName {
    /// As a scene file writes the variant: "Box".
    pub file: &'static str,
    /// For people, beside a body and as a new body's name: "box".
    pub short: &'static str,
}

impl ShapeKind {
    /// The one table of shape-kind names: the scene file's messages, the command line and
    /// the window's panels read it here.
    pub fn name(&self) -> KindName {
        let (file, short) = match self {
            ShapeKind::Polygon { .. } => ("Polygon", "polygon"),
            ShapeKind::Box { .. } => ("Box", "box"),
            ShapeKind::Regular { .. } => ("Regular", "regular"),
            ShapeKind::Circle { .. } => ("Circle", "circle"),
            ShapeKind::Capsule { .. } => ("Capsule", "capsule"),
        };
        KindName { file, short }
    }
}

/// Why a shape was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeError {
    TooFewVertices {
        count: usize,
    },
    TooManyVertices {
        count: usize,
    },
    NonFinite {
        what: String,
    },
    TooLarge {
        what: String,
        value: f32,
    },
    Negative {
        what: String,
        value: f32,
    },
    ZeroArea,
    /// The outline turns clockwise at this vertex (index as given in the input).
    NonConvex {
        vertex: usize,
    },
    /// The outline turns around more than once, so it crosses itself.
    SelfIntersecting,
    TooFewSides {
        sides: u32,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::TooFewVertices { count } => {
                write!(f, "a polygon needs at least 3 points, this one has {count}")
            }
            ShapeError::TooManyVertices { count } => write!(
                f,
                "a polygon may have at most {MAX_POLYGON_VERTICES} points, this one has {count}"
            ),
            ShapeError::NonFinite { what } => write!(f, "{what} is not a finite number"),
            ShapeError::TooLarge { what, value } => write!(
                f,
                "{what} is {value}, beyond the largest accepted magnitude {MAX_COORDINATE}"
            ),
            ShapeError::Negative { what, value } => {
                write!(f, "{what} must not be negative, it is {value}")
            }
            ShapeError::ZeroArea => write!(f, "the polygon has zero area (all points on a line)"),
            ShapeError::NonConvex { vertex } => write!(
                f,
                "the polygon is not convex: it turns the wrong way at point {vertex} (counting from 0)"
            ),
            ShapeError::SelfIntersecting => {
                write!(f, "the polygon crosses itself (its outline winds around more than once)")
            }
            ShapeError::TooFewSides { sides } => {
                write!(f, "a regular polygon needs at least 3 sides, this one has {sides}")
            }
        }
    }
}

impl std::error::Error for ShapeError {}

/// A validated convex shape: a core (polygon, segment or point) and a radius.
///
/// The core is stored counter-clockwise with outward unit edge normals; a segment core has
/// two edges, one per side, and a point core none.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    kind: ShapeKind,
    core: Vec<Vec2>,
    normals: Vec<Vec2>,
    /// Per edge: how far the core reaches behind the edge's line, along its normal (>= 0).
    back_extents: Vec<f32>,
    radius: f32,
    centroid: Vec2,
    bounding_radius: f32,
    cones: Option<SupportCones>,
    /// The core as fixed coordinate arrays, for support look-ups on small polygons.
    small: Option<SmallSupport>,
    /// Vertices, normals and back extents of a small core in fixed arrays, for SAT.
    lanes: ShapeLanes,
}

/// Cores with at most this many vertices keep their coordinates in fixed arrays.
const SMALL_SUPPORT: usize = 8;

/// A small core's vertices in fixed coordinate arrays: 4 wide for up to 4 vertices (boxes,
/// quads: no padding projected), else 8 wide.
#[derive(Clone, Debug, PartialEq)]
enum SmallSupport {
    Four(FixedCore<4>),
    Eight(FixedCore<SMALL_SUPPORT>),
}

impl SmallSupport {
    fn new(core: &[Vec2]) -> Option<Self> {
        match core.len() {
            1..=4 => Some(SmallSupport::Four(FixedCore::new(core))),
            5..=SMALL_SUPPORT => Some(SmallSupport::Eight(FixedCore::new(core))),
            _ => None,
        }
    }

    #[inline(always)]
    fn support_index(&self, d: Vec2) -> usize {
        match self {
            SmallSupport::Four(core) => {
                farthest::first_farthest_in_pairs(&core.x, &core.y, d).vertex
            }
            SmallSupport::Eight(core) => core.support_index(d),
        }
    }

    /// The same vertex as [`Self::support_index`], and its coordinates. The index comes from
    /// `crate::simd::farthest`: for 8 lanes a knock-out tournament over the lanes, for 4 the
    /// tournament of `FixedCore::support_index` on lanes stored in pair order.
    #[inline(always)]
    fn support_vertex(&self, d: Vec2) -> (usize, Vec2) {
        match self {
            SmallSupport::Four(core) => {
                let won = farthest::first_farthest_in_pairs(&core.x, &core.y, d);
                (won.vertex, Vec2::new(core.x[won.lane], core.y[won.lane]))
            }
            SmallSupport::Eight(core) => {
                let k = farthest::first_farthest(&core.x, &core.y, d);
                (k, Vec2::new(core.x[k], core.y[k]))
            }
        }
    }

    /// The vertex [`Self::support_vertex`] gives along `-d`, found from the projections on
    /// `d` (the first nearest vertex; see `crate::simd::farthest`): GJK looks A up along `d` and
    /// B along `-d`, and both then share the broadcast lanes of `d`.
    #[inline(always)]
    fn support_vertex_opposite(&self, d: Vec2) -> (usize, Vec2) {
        match self {
            SmallSupport::Four(core) => {
                let won = farthest::first_nearest_in_pairs(&core.x, &core.y, d);
                (won.vertex, Vec2::new(core.x[won.lane], core.y[won.lane]))
            }
            SmallSupport::Eight(core) => {
                let k = farthest::first_nearest(&core.x, &core.y, d);
                (k, Vec2::new(core.x[k], core.y[k]))
            }
        }
    }
}

/// `N` vertices (`N` a power of two) as two coordinate arrays, padded with copies of vertex
/// 0, so that all of them are projected at once, lane by lane; a copy of vertex 0 never
/// wins, since ties go to the lowest index. With 4 lanes the vertices are
/// stored in pair order (lane `k` holds vertex `PAIR_ORDER[k]`, see `crate::simd::farthest`), so
/// that the tournament's first matches need no lane moved; with 8, in order.
#[derive(Clone, Debug, PartialEq)]
struct FixedCore<const N: usize> {
    x: [f32; N],
    y: [f32; N],
}

/// The lane holding vertex `k` of a [`FixedCore`] of `N` lanes.
#[inline(always)]
fn lane_of<const N: usize>(k: usize) -> usize {
    if N == 4 {
        PAIR_ORDER[k]
    } else {
        k
    }
}

impl<const N: usize> FixedCore<N> {
    /// `core` has 1 to `N` vertices.
    fn new(core: &[Vec2]) -> Self {
        let mut x = [core[0].x; N];
        let mut y = [core[0].y; N];
        for (k, p) in core.iter().enumerate() {
            x[lane_of::<N>(k)] = p.x;
            y[lane_of::<N>(k)] = p.y;
        }
        FixedCore { x, y }
    }

    /// The lowest index of the largest projection on `d`: the answer of a scan that keeps
    /// the first strictly larger value. Found by a knock-out tournament between neighbours
    /// (0 against 1, 2 against 3, then the winners, ...), where the right one wins only when
    /// strictly larger: each winner is the first farthest vertex of its block. (Why a
    /// tournament: docs/performance.md, "Notes moved out of the source headers",
    /// `geom/shape.rs`.)
    #[inline(always)]
    fn support_index(&self, d: Vec2) -> usize {
        let mut best: [f32; N] = std::array::from_fn(|k| {
            let lane = lane_of::<N>(k);
            self.x[lane] * d.x + self.y[lane] * d.y
        });
        let mut index: [usize; N] = std::array::from_fn(|k| k);
        let mut width = 1;
        while width < N {
            for k in (0..N).step_by(2 * width) {
                let right = best[k + width] > best[k];
                best[k] = if right { best[k + width] } else { best[k] };
                index[k] = if right { index[k + width] } else { index[k] };
            }
            width *= 2;
        }
        index[0]
    }
}

/// A small core (at most 8 vertices) moved into another body's frame once, so that support
/// look-ups in that frame need no rotation: GJK turns B's core into A's local frame per query,
/// as Box2D's `b2ShapeDistance` does (see [`Shape::small_core_moved`]).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MovedSmallCore(SmallSupport);

impl MovedSmallCore {
    /// The index of the moved vertex farthest along `d`, ties to the lowest index (as
    /// [`Shape::support_index`]), and that moved vertex. (GJK looks up through
    /// [`Self::support_vertex_opposite`]; the tests hold it to this.)
    #[cfg(test)]
    pub(crate) fn support_vertex(&self, d: Vec2) -> (usize, Vec2) {
        self.0.support_vertex(d)
    }

    /// The same as `support_vertex(-d)`, from the projections on `d` (see
    /// `SmallSupport::support_vertex_opposite`).
    #[inline(always)]
    pub(crate) fn support_vertex_opposite(&self, d: Vec2) -> (usize, Vec2) {
        self.0.support_vertex_opposite(d)
    }
}

impl<const N: usize> FixedCore<N> {
    /// Every vertex rotated by `rotation` (`(cos, sin)`) and then shifted by `translation`,
    /// with the arithmetic of [`super::Placed::vertex`]; the padding copies of vertex 0 stay
    /// copies of it.
    #[inline(always)]
    fn moved(&self, rotation: Vec2, translation: Vec2) -> Self {
        let mut moved = FixedCore {
            x: [0.0; N],
            y: [0.0; N],
        };
        for k in 0..N {
            moved.x[k] = (rotation.x * self.x[k] - rotation.y * self.y[k]) + translation.x;
            moved.y[k] = (rotation.y * self.x[k] + rotation.x * self.y[k]) + translation.y;
        }
        moved
    }
}

impl Shape {
    /// For a core of at most 8 vertices: the core rotated by `rotation` (`(cos, sin)`) and
    /// shifted by `translation`, in fixed arrays for support look-ups; `None` for larger cores.
    #[inline(always)]
    pub(crate) fn small_core_moved(
        &self,
        rotation: Vec2,
        translation: Vec2,
    ) -> Option<MovedSmallCore> {
        match &self.small {
            Some(SmallSupport::Four(core)) => Some(MovedSmallCore(SmallSupport::Four(
                core.moved(rotation, translation),
            ))),
            Some(SmallSupport::Eight(core)) => Some(MovedSmallCore(SmallSupport::Eight(
                core.moved(rotation, translation),
            ))),
            None => None,
        }
    }
}

/// Normal cones for logarithmic support look-ups on large polygons. The farthest vertex in
/// a direction whose angle lies between the normals of edge `j` and of the next non-degenerate
/// edge is the end of edge `j`; the table holds those normals' pseudo-angles sorted ascending.
#[derive(Clone, Debug, PartialEq)]
struct SupportCones {
    angles: Vec<f32>,
    vertex: Vec<u32>,
}

impl Shape {
    /// Builds and validates a shape from its description.
    pub fn new(kind: ShapeKind) -> Result<Shape, ShapeError> {
        match &kind {
            ShapeKind::Polygon { points } => {
                let (core, _) = polygon_core(points)?;
                Ok(Self::from_core(kind, core, 0.0))
            }
            ShapeKind::Box { half_extents } => {
                let h = *half_extents;
                check_positive("a half extent", h.x)?;
                check_positive("a half extent", h.y)?;
                if h.x == 0.0 || h.y == 0.0 {
                    return Err(ShapeError::ZeroArea);
                }
                let core = vec![
                    Vec2::new(-h.x, -h.y),
                    Vec2::new(h.x, -h.y),
                    Vec2::new(h.x, h.y),
                    Vec2::new(-h.x, h.y),
                ];
                Ok(Self::from_core(kind, core, 0.0))
            }
            ShapeKind::Regular { sides, radius } => {
                if *sides < 3 {
                    return Err(ShapeError::TooFewSides { sides: *sides });
                }
                if *sides as usize > MAX_POLYGON_VERTICES {
                    return Err(ShapeError::TooManyVertices {
                        count: *sides as usize,
                    });
                }
                check_positive("the radius", *radius)?;
                if *radius == 0.0 {
                    return Err(ShapeError::ZeroArea);
                }
                let core = regular_polygon_points(*sides, *radius);
                Ok(Self::from_core(kind, core, 0.0))
            }
            ShapeKind::Circle { radius } => {
                check_positive("the radius", *radius)?;
                let r = *radius;
                Ok(Self::from_core(kind, vec![Vec2::ZERO], r))
            }
            ShapeKind::Capsule {
                half_length,
                radius,
            } => {
                check_positive("the half length", *half_length)?;
                check_positive("the radius", *radius)?;
                let (h, r) = (*half_length, *radius);
                if h == 0.0 && r == 0.0 {
                    return Err(ShapeError::ZeroArea);
                }
                Ok(Self::from_core(
                    kind,
                    vec![Vec2::new(-h, 0.0), Vec2::new(h, 0.0)],
                    r,
                ))
            }
        }
    }

    pub fn polygon(points: Vec<Vec2>) -> Result<Shape, ShapeError> {
        Shape::new(ShapeKind::Polygon { points })
    }

    pub fn rect(half_extents: Vec2) -> Result<Shape, ShapeError> {
        Shape::new(ShapeKind::Box { half_extents })
    }

    pub fn regular(sides: u32, radius: f32) -> Result<Shape, ShapeError> {
        Shape::new(ShapeKind::Regular { sides, radius })
    }

    pub fn circle(radius: f32) -> Result<Shape, ShapeError> {
        Shape::new(ShapeKind::Circle { radius })
    }

    pub fn capsule(half_length: f32, radius: f32) -> Result<Shape, ShapeError> {
        Shape::new(ShapeKind::Capsule {
            half_length,
            radius,
        })
    }

    fn from_core(kind: ShapeKind, core: Vec<Vec2>, radius: f32) -> Shape {
        let normals = edge_normals(&core);
        let back_extents = edge_back_extents(&core, &normals);
        let centroid = core_centroid(&core);
        let bounding_radius = core
            .iter()
            .map(|p| (*p - centroid).length())
            .fold(0.0, f32::max)
            + radius;
        let cones = (core.len() > LINEAR_SUPPORT_LIMIT).then(|| SupportCones::new(&normals));
        let small = SmallSupport::new(&core);
        let lanes = ShapeLanes::new(&core, &normals, &back_extents);
        Shape {
            kind,
            core,
            normals,
            back_extents,
            radius,
            centroid,
            bounding_radius,
            cones,
            small,
            lanes,
        }
    }

    /// The description this shape was built from.
    pub fn kind(&self) -> &ShapeKind {
        &self.kind
    }

    /// Core vertices in the local frame, counter-clockwise.
    #[inline]
    pub fn core(&self) -> &[Vec2] {
        &self.core
    }

    /// Outward unit normals of the core edges (zero for a zero-length edge).
    #[inline]
    pub fn normals(&self) -> &[Vec2] {
        &self.normals
    }

    /// How far the core reaches behind core edge `i`, along its outward normal: the
    /// core's projections on normal `i` span `[edge - back_extent, edge]`. A property of
    /// the shape alone (rotation moves the edge and the core together), so SAT reads the
    /// low end of a body's interval on its own edge normals instead of projecting every
    /// vertex again.
    #[inline]
    pub fn back_extent(&self, i: usize) -> f32 {
        self.back_extents[i]
    }

    /// The core in fixed lanes of width `N` (4 for up to 4 vertices, 8 for 5 to 8), when it
    /// has them at that width.
    #[inline(always)]
    pub fn lanes<const N: usize>(&self) -> Option<&CoreLanes<N>>
    where
        ShapeLanes: LanesOfWidth<N>,
    {
        self.lanes.lanes()
    }

    /// For a small core (at most 8 vertices) whose every edge has a length: the cosine
    /// between each edge's outward normal and the next edge's, in edge order. `None`
    /// otherwise.
    #[inline]
    pub fn turn_cosines(&self) -> Option<&[f32]> {
        self.lanes.turn_cosines(self.normals.len())
    }

    /// Every edge's back extent (see [`Shape::back_extent`]), in edge order.
    #[inline]
    pub fn back_extents(&self) -> &[f32] {
        &self.back_extents
    }

    #[inline]
    pub fn edge_count(&self) -> usize {
        self.normals.len()
    }

    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// Whether the shape has a rounded boundary (circle, capsule with radius > 0).
    pub fn is_round(&self) -> bool {
        self.radius > 0.0
    }

    pub fn centroid(&self) -> Vec2 {
        self.centroid
    }

    /// Distance from the centroid to the farthest boundary point.
    pub fn bounding_radius(&self) -> f32 {
        self.bounding_radius
    }

    /// A short name for the kind of shape ([`ShapeKind::name`]), except that a capsule of
    /// radius 0 is called what it is: a "segment".
    pub fn kind_name(&self) -> &'static str {
        match &self.kind {
            ShapeKind::Capsule { radius, .. } if *radius == 0.0 => "segment",
            kind => kind.name().short,
        }
    }

    /// The index of the core vertex farthest along the local direction `d`. Ties go to the
    /// lowest index on small polygons; any farthest vertex is a correct answer.
    #[inline(always)]
    pub fn support_index(&self, d: Vec2) -> usize {
        // The small case inline (GJK calls this twice an iteration), the rest out of line.
        match &self.small {
            Some(small) => small.support_index(d),
            None => self.support_index_large(d),
        }
    }

    /// For a core of at most 8 vertices: the index of the core vertex farthest along the
    /// local direction `d` (the same as [`Self::support_index`]) and the vertex, read from
    /// the fixed arrays; `None` for larger cores.
    #[inline(always)]
    pub(crate) fn small_support_vertex(&self, d: Vec2) -> Option<(usize, Vec2)> {
        self.small.as_ref().map(|small| small.support_vertex(d))
    }

    #[inline(never)]
    fn support_index_large(&self, d: Vec2) -> usize {
        match &self.cones {
            Some(cones) => cones.lookup(d),
            None => {
                // Written as selects, not a branch (why: docs/performance.md, "Notes moved
                // out of the source headers", `geom/shape.rs`).
                let mut best = 0;
                let mut best_dot = self.core[0].dot(d);
                for (i, p) in self.core.iter().enumerate().skip(1) {
                    let dot = p.dot(d);
                    let better = dot > best_dot;
                    best = if better { i } else { best };
                    best_dot = if better { dot } else { best_dot };
                }
                best
            }
        }
    }

    /// The outline of the whole shape in the local frame, for drawing: the polygon itself, or
    /// a circle/capsule sampled with `segments_per_turn` points per full turn of arc.
    pub fn outline(&self, segments_per_turn: usize) -> Vec<Vec2> {
        rounded_outline(&self.core, self.radius, segments_per_turn)
    }
}

/// The outline of `core` (counter-clockwise; may be a segment or a point) inflated by
/// `radius`, with arcs sampled at `segments_per_turn` points per full turn.
pub fn rounded_outline(core: &[Vec2], radius: f32, segments_per_turn: usize) -> Vec<Vec2> {
    if radius <= 0.0 {
        return core.to_vec();
    }
    let segments_per_turn = segments_per_turn.max(8);
    if core.len() == 1 {
        return (0..segments_per_turn)
            .map(|k| {
                let a = std::f32::consts::TAU * k as f32 / segments_per_turn as f32;
                core[0] + radius * Vec2::from_angle(a)
            })
            .collect();
    }
    // Around each vertex, an arc from the previous edge's normal to the next edge's normal.
    let normals = edge_normals(core);
    let n = core.len();
    let mut out = Vec::new();
    for i in 0..n {
        let before = normals[(i + n - 1) % n];
        let after = normals[i];
        let start = before.y.atan2(before.x);
        let mut sweep = after.y.atan2(after.x) - start;
        while sweep < 0.0 {
            sweep += std::f32::consts::TAU;
        }
        if before == Vec2::ZERO || after == Vec2::ZERO {
            continue;
        }
        let steps = ((sweep / std::f32::consts::TAU) * segments_per_turn as f32).ceil() as usize;
        for k in 0..=steps.max(1) {
            let a = start + sweep * k as f32 / steps.max(1) as f32;
            out.push(core[i] + radius * Vec2::from_angle(a));
        }
    }
    out
}

impl SupportCones {
    fn new(normals: &[Vec2]) -> SupportCones {
        let n = normals.len();
        let mut entries: Vec<(f32, u32)> = (0..n)
            .filter(|&j| normals[j] != Vec2::ZERO)
            .map(|j| (pseudo_angle(normals[j]), ((j + 1) % n) as u32))
            .collect();
        // The normals of a convex counter-clockwise polygon already increase in angle; the
        // sequence only has to be rotated to start at the smallest. A stable sort does that
        // and keeps collinear edges (equal angles) in outline order.
        entries.sort_by(|a, b| a.0.total_cmp(&b.0));
        SupportCones {
            angles: entries.iter().map(|e| e.0).collect(),
            vertex: entries.iter().map(|e| e.1).collect(),
        }
    }

    #[inline]
    fn lookup(&self, d: Vec2) -> usize {
        let a = pseudo_angle(d);
        // The last normal at or before `a`, wrapping round to the last one when `a` precedes
        // every normal.
        let k = self.angles.partition_point(|&x| x <= a);
        let k = if k == 0 { self.angles.len() - 1 } else { k - 1 };
        self.vertex[k] as usize
    }
}

/// A number in [0, 4) that increases monotonically with the angle of `d` from +x, cheaper
/// than `atan2` and enough to order directions. Zero for the zero vector.
#[inline]
pub(crate) fn pseudo_angle(d: Vec2) -> f32 {
    let l1 = d.x.abs() + d.y.abs();
    if l1 == 0.0 || !l1.is_finite() {
        return 0.0;
    }
    let p = d.y / l1;
    if d.x < 0.0 {
        2.0 - p
    } else if d.y < 0.0 {
        4.0 + p
    } else {
        p
    }
}

fn check_positive(what: &str, value: f32) -> Result<(), ShapeError> {
    if !value.is_finite() {
        return Err(ShapeError::NonFinite { what: what.into() });
    }
    if value < 0.0 {
        return Err(ShapeError::Negative {
            what: what.into(),
            value,
        });
    }
    if value > MAX_COORDINATE {
        return Err(ShapeError::TooLarge {
            what: what.into(),
            value,
        });
    }
    Ok(())
}

/// Validates a polygon outline and returns it counter-clockwise, together with whether the
/// input had to be reversed.
fn polygon_core(points: &[Vec2]) -> Result<(Vec<Vec2>, bool), ShapeError> {
    let n = points.len();
    if n < 3 {
        return Err(ShapeError::TooFewVertices { count: n });
    }
    if n > MAX_POLYGON_VERTICES {
        return Err(ShapeError::TooManyVertices { count: n });
    }
    for (i, p) in points.iter().enumerate() {
        if !p.is_finite() {
            return Err(ShapeError::NonFinite {
                what: format!("point {i}"),
            });
        }
        let m = p.x.abs().max(p.y.abs());
        if m > MAX_COORDINATE {
            return Err(ShapeError::TooLarge {
                what: format!("a coordinate of point {i}"),
                value: m,
            });
        }
    }
    let area = signed_area(points);
    let extent = points
        .iter()
        .fold(0.0f32, |m, p| m.max((*p - points[0]).length()));
    // Zero area relative to the outline's size: a sliver thinner than about 1e-6 of its
    // length is indistinguishable from a segment in f32.
    if area.abs() <= 1.0e-6 * extent * extent || extent == 0.0 {
        return Err(ShapeError::ZeroArea);
    }
    let reversed = area < 0.0;
    let ccw: Vec<Vec2> = if reversed {
        points.iter().rev().copied().collect()
    } else {
        points.to_vec()
    };
    let original_index = |i: usize| if reversed { n - 1 - i } else { i };
    // Every turn must be counter-clockwise or straight, and the turns must add up to one full
    // turn; a straight turn that doubles back (a spike) is a half turn and fails the sum.
    let mut total_turn = 0.0f64;
    let mut previous: Option<Vec2> = None;
    let mut first: Option<Vec2> = None;
    for i in 0..=n {
        let e = ccw[(i + 1) % n] - ccw[i % n];
        if e == Vec2::ZERO {
            continue;
        }
        if let Some(prev) = previous {
            let c = cross(prev, e);
            if c < -CONVEXITY_TOLERANCE * prev.length() * e.length() {
                return Err(ShapeError::NonConvex {
                    vertex: original_index(i % n),
                });
            }
            total_turn += (c as f64).atan2(prev.dot(e) as f64).abs();
        } else {
            first = Some(e);
        }
        previous = Some(e);
        if i == n {
            break;
        }
    }
    let _ = first;
    if total_turn > std::f64::consts::TAU + 1.0e-3 {
        return Err(ShapeError::SelfIntersecting);
    }
    Ok((ccw, reversed))
}

fn regular_polygon_points(sides: u32, radius: f32) -> Vec<Vec2> {
    (0..sides)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / sides as f64;
            Vec2::new(
                (a.cos() * radius as f64) as f32,
                (a.sin() * radius as f64) as f32,
            )
        })
        .collect()
}

/// Outward unit normals of a counter-clockwise core: none for a point, two opposite ones for
/// a segment, one per edge for a polygon (zero for a repeated vertex's zero-length edge).
fn edge_normals(core: &[Vec2]) -> Vec<Vec2> {
    let n = core.len();
    if n < 2 {
        return Vec::new();
    }
    (0..n)
        .map(|i| right_perp(core[(i + 1) % n] - core[i]).normalize_or_zero())
        .collect()
}

/// For each edge: the largest distance of a core vertex behind the edge's line. Small cores
/// are scanned whole; large ones use rotating calipers (as the edge normals turn
/// counter-clockwise, the vertex farthest behind moves forward round the outline), so a
/// 4096-gon costs O(n), not O(n^2).
fn edge_back_extents(core: &[Vec2], normals: &[Vec2]) -> Vec<f32> {
    let behind = |i: usize, p: Vec2| (core[i] - p).dot(normals[i]);
    if core.len() <= LINEAR_SUPPORT_LIMIT {
        return (0..normals.len())
            .map(|i| core.iter().map(|p| behind(i, *p)).fold(0.0, f32::max))
            .collect();
    }
    let n = core.len();
    let mut far: Option<usize> = None;
    (0..normals.len())
        .map(|i| {
            if normals[i] == Vec2::ZERO {
                return 0.0; // a repeated vertex: no edge
            }
            let mut k = match far {
                Some(k) => k,
                None => (0..n)
                    .max_by(|a, b| behind(i, core[*a]).total_cmp(&behind(i, core[*b])))
                    .unwrap_or(0),
            };
            for _ in 0..n {
                let next = (k + 1) % n;
                if behind(i, core[next]) < behind(i, core[k]) {
                    break;
                }
                k = next;
            }
            far = Some(k);
            behind(i, core[k]).max(0.0)
        })
        .collect()
}

fn core_centroid(core: &[Vec2]) -> Vec2 {
    match core.len() {
        0 => Vec2::ZERO,
        1 => core[0],
        2 => 0.5 * (core[0] + core[1]),
        _ => {
            let o = core[0];
            let mut twice_area = 0.0;
            let mut weighted = Vec2::ZERO;
            for i in 1..core.len() - 1 {
                let (p, q) = (core[i] - o, core[i + 1] - o);
                let c = cross(p, q);
                twice_area += c;
                weighted += c * (p + q);
            }
            o + weighted / (3.0 * twice_area)
        }
    }
}

impl Shape {
    /// For a small core (at most 8 vertices): the edges that are clearly the side the core
    /// shows along their own normal, as bits (see [`crate::geom::CoreLanes::clear_faces`]);
    /// 0 otherwise.
    #[inline]
    pub fn clear_faces(&self) -> u32 {
        self.lanes.clear_faces()
    }

    /// For a small core: the face of [`Shape::clear_faces`] whose normal is exactly the
    /// negation of edge `i`'s (see [`crate::geom::CoreLanes::opposite_faces`]);
    /// `usize::MAX` when there is none.
    #[inline]
    pub fn opposite_face(&self, i: usize) -> usize {
        self.lanes.opposite_face(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn support_ties_go_to_the_lowest_index() {
        // Along +x the square's corners 1 and 2 tie, along +y corners 2 and 3, along -x
        // corners 3 and 0; along the zero direction all tie. (That every look-up, small or
        // moved, names the first farthest vertex of a scan, ties included, is the agreement
        // harness's, `src/agreement.rs`.)
        let square = Shape::rect(v(1.0, 1.0)).unwrap();
        assert_eq!(square.support_index(v(1.0, 0.0)), 1);
        assert_eq!(square.support_index(v(0.0, 1.0)), 2);
        assert_eq!(square.support_index(v(-1.0, 0.0)), 0);
        assert_eq!(square.support_index(Vec2::ZERO), 0);
    }

    #[test]
    fn back_extents_are_the_widths_behind_each_edge() {
        // A 3 x 2 box: behind the bottom and top edges lies its height, behind the sides
        // its width.
        let b = Shape::rect(v(1.5, 1.0)).unwrap();
        let extents: Vec<f32> = (0..4).map(|i| b.back_extent(i)).collect();
        assert_eq!(extents, vec![2.0, 3.0, 2.0, 3.0]);
        // Right triangle (0,0), (2,0), (0,1): behind the bottom edge the apex at height 1,
        // behind the hypotenuse (normal (1, 2) / sqrt 5) the right angle at 2 / sqrt 5,
        // behind the left edge the far corner at 2.
        let t = Shape::polygon(vec![v(0.0, 0.0), v(2.0, 0.0), v(0.0, 1.0)]).unwrap();
        assert!((t.back_extent(0) - 1.0).abs() < 1e-6);
        assert!((t.back_extent(1) - 2.0 / 5.0f32.sqrt()).abs() < 1e-6);
        assert!((t.back_extent(2) - 2.0).abs() < 1e-6);
        // A large polygon (calipers) agrees with a scan of every vertex.
        let big = Shape::regular(300, 2.0).unwrap();
        for i in 0..300 {
            let scan = big
                .core()
                .iter()
                .map(|p| (big.core()[i] - *p).dot(big.normals()[i]))
                .fold(0.0, f32::max);
            assert_eq!(big.back_extent(i), scan, "edge {i}");
        }
        // A segment has no depth behind either side.
        let s = Shape::capsule(1.0, 0.0).unwrap();
        assert_eq!((s.back_extent(0), s.back_extent(1)), (0.0, 0.0));
    }

    #[test]
    fn clockwise_input_is_stored_counter_clockwise() {
        let s = Shape::polygon(vec![v(0.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(1.0, 0.0)]).unwrap();
        assert!(signed_area(s.core()) > 0.0);
        // Edge 0 of the stored outline runs along y = 0 to the right: outward is -y.
        assert_eq!(s.core()[0], v(1.0, 0.0));
        assert!((s.normals()[0] - v(1.0, 0.0)).length() < 1e-6);
    }

    #[test]
    fn box_normals_point_outward() {
        let s = Shape::rect(v(1.0, 0.5)).unwrap();
        assert_eq!(s.normals()[0], v(0.0, -1.0));
        assert_eq!(s.normals()[1], v(1.0, 0.0));
        assert_eq!(s.normals()[2], v(0.0, 1.0));
        assert_eq!(s.normals()[3], v(-1.0, 0.0));
    }

    #[test]
    fn non_convex_polygon_names_the_vertex() {
        let err = Shape::polygon(vec![
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(1.0, 0.5),
            v(2.0, 2.0),
            v(0.0, 2.0),
        ])
        .unwrap_err();
        assert_eq!(err, ShapeError::NonConvex { vertex: 2 });
    }

    #[test]
    fn pentagram_is_self_intersecting() {
        let star: Vec<Vec2> = (0..5)
            .map(|k| Vec2::from_angle(std::f32::consts::TAU * (2 * k) as f32 / 5.0))
            .collect();
        assert_eq!(
            Shape::polygon(star).unwrap_err(),
            ShapeError::SelfIntersecting
        );
    }

    #[test]
    fn spike_doubling_back_is_refused() {
        let err = Shape::polygon(vec![
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(3.0, 0.0),
            v(2.5, 0.0),
            v(2.0, 2.0),
        ]);
        assert!(err.is_err());
    }

    #[test]
    fn degenerate_inputs_are_typed_errors() {
        assert_eq!(
            Shape::polygon(vec![v(0.0, 0.0), v(1.0, 0.0)]).unwrap_err(),
            ShapeError::TooFewVertices { count: 2 }
        );
        assert_eq!(
            Shape::polygon(vec![v(0.0, 0.0), v(1.0, 1.0), v(2.0, 2.0)]).unwrap_err(),
            ShapeError::ZeroArea
        );
        assert!(matches!(
            Shape::polygon(vec![v(0.0, 0.0), v(f32::NAN, 1.0), v(2.0, 0.0)]),
            Err(ShapeError::NonFinite { .. })
        ));
        assert!(matches!(
            Shape::circle(-1.0),
            Err(ShapeError::Negative { .. })
        ));
        assert!(matches!(
            Shape::circle(f32::INFINITY),
            Err(ShapeError::NonFinite { .. })
        ));
    }

    #[test]
    fn collinear_and_duplicate_vertices_are_kept() {
        let s = Shape::polygon(vec![
            v(0.0, 0.0),
            v(1.0, 0.0),
            v(2.0, 0.0),
            v(2.0, 0.0),
            v(2.0, 2.0),
            v(0.0, 2.0),
        ])
        .unwrap();
        assert_eq!(s.core().len(), 6);
        assert_eq!(s.normals()[2], Vec2::ZERO);
    }

    #[test]
    fn binary_search_support_matches_a_scan() {
        let s = Shape::regular(100, 2.0).unwrap();
        assert!(s.cones.is_some());
        for k in 0..720 {
            let d = Vec2::from_angle(k as f32 * 0.5f32.to_radians() + 0.001);
            let i = s.support_index(d);
            let best = s.core().iter().map(|p| p.dot(d)).fold(f32::MIN, f32::max);
            assert!(s.core()[i].dot(d) >= best - 1e-5, "direction {d}");
        }
    }

    #[test]
    fn binary_search_support_with_collinear_and_repeated_vertices() {
        // A 40-gon approximating a square with many points along each side, one repeated.
        let mut pts = Vec::new();
        for side in 0..4 {
            for k in 0..10 {
                let t = k as f32 / 10.0 * 2.0 - 1.0;
                let p = match side {
                    0 => v(t, -1.0),
                    1 => v(1.0, t),
                    2 => v(-t, 1.0),
                    _ => v(-1.0, -t),
                };
                pts.push(p);
                if k == 3 {
                    pts.push(p);
                }
            }
        }
        let s = Shape::polygon(pts).unwrap();
        for k in 0..360 {
            let d = Vec2::from_angle((k as f32).to_radians());
            let i = s.support_index(d);
            let best = s.core().iter().map(|p| p.dot(d)).fold(f32::MIN, f32::max);
            assert!(s.core()[i].dot(d) >= best - 1e-5, "direction {d}");
        }
    }

    #[test]
    fn regular_polygon_vertex_zero_is_on_plus_x() {
        let s = Shape::regular(6, 2.0).unwrap();
        assert_eq!(s.core()[0], v(2.0, 0.0));
        assert!((s.core()[1] - v(1.0, 3f32.sqrt())).length() < 1e-6);
    }

    #[test]
    fn capsule_core_is_a_two_sided_segment() {
        let s = Shape::capsule(1.0, 0.5).unwrap();
        assert_eq!(s.edge_count(), 2);
        assert_eq!(s.normals()[0], v(0.0, -1.0));
        assert_eq!(s.normals()[1], v(0.0, 1.0));
        assert_eq!(s.kind_name(), "capsule");
        assert_eq!(Shape::capsule(1.0, 0.0).unwrap().kind_name(), "segment");
    }

    #[test]
    fn pseudo_angle_is_monotonic() {
        let mut last = -1.0;
        for k in 0..3600 {
            let a = pseudo_angle(Vec2::from_angle(k as f32 * 0.1f32.to_radians()));
            assert!(a >= last, "{k}");
            last = a;
        }
    }
}
