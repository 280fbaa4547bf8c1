//! A small core laid out for vector lanes, built once with the shape: its vertices, edge
//! normals and back extents in fixed arrays of 4 (up to 4 vertices: boxes, quads), 8 (up
//! to 8) or 16 (up to 16, kept behind a pointer so that smaller shapes stay small), so
//! that SAT's small-polygon pass loads them whole instead of copying a variable number of
//! entries into padded arrays at every query. The lanes of up to 8 vertices also say which
//! edges a search along their own normal surely returns whole (`clear_faces`), so that the
//! clip can take SAT's winning edge without searching for it again, and which of those
//! faces lies exactly opposite each edge (`opposite_faces`), for a winning edge that faces
//! away from the contact.

use glam::Vec2;

/// The width of the lanes of cores of 5 to 8 vertices (the widest that SAT's SSE pass and
/// the clip's facing lanes read).
pub const LANE_LIMIT: usize = 8;

/// Cores with at most this many vertices get lanes (16 wide past [`LANE_LIMIT`]).
pub const WIDE_LANES: usize = 16;

/// One small core in `N` lanes (`N` a power of two), in the shape's local frame.
#[derive(Clone, Debug, PartialEq)]
pub struct CoreLanes<const N: usize> {
    /// Vertex coordinates, padded with copies of the last vertex (a copy changes no
    /// extreme of a projection).
    pub x: [f32; N],
    pub y: [f32; N],
    /// Outward edge normals, zero past the edge count and for zero-length edges.
    pub normal_x: [f32; N],
    pub normal_y: [f32; N],
    /// Each edge's back extent (see [`crate::geom::Shape::back_extent`]), zero past the
    /// edge count.
    pub back: [f32; N],
    /// Bit `k` set when edge `k` has a length (a non-zero normal), so gives an axis.
    pub axes: u32,
    /// How many bits of `axes` are set.
    pub axis_count: u32,
    /// How far each edge turns into the next: the cosine between the stored normals of
    /// edge `k` and edge `k + 1` (round the outline), zero past the edge count.
    pub turn_cosines: [f32; N],
    /// Bit `k` set when edge `k` is clearly the side the core shows along its own normal:
    /// both its ends lie above every other vertex by more than [`SUPPORT_CLEARANCE`] times
    /// the core's reach, so a support search along that normal (in any frame the rounding of
    /// a turn allows) returns one of its ends, and it turns from both neighbours with a
    /// cosine below `1 - FACE_TURN_CLEARANCE`. No bit is set when an edge has no length.
    /// See [`clear_faces`].
    pub clear_faces: u32,
    /// For each edge `k`, the edge of `clear_faces` whose stored normal is exactly the
    /// negation of edge `k`'s (a box's or a parallelogram's opposite side), or
    /// [`NO_FACE`]. SAT may win on edge `k` facing away from the contact (its overlap ties
    /// the opposite side's but for rounding); the clip then takes that opposite side as
    /// it takes a winning face. See [`opposite_faces`].
    pub opposite_faces: [u8; N],
}

/// How far (relative to the core's reach, the largest distance of a vertex from the local
/// origin) both ends of an edge must lie above every other vertex along the edge's normal
/// for [`CoreLanes::support_faces`]. A support search turns its direction into the local
/// frame and back (two rotations, each off by a few `f32` roundings: under 1e-6 in all)
/// and projects each vertex (a few roundings of the reach): two projections it compares
/// differ from the exact ones by under 3e-6 of the reach, well inside this margin.
pub const SUPPORT_CLEARANCE: f32 = 1.0e-5;

/// How clearly (as 1 - cos) an edge of [`CoreLanes::clear_faces`] turns from both its
/// neighbours, about 0.36 degrees: above the clip's collinear tolerance plus its margin
/// (1.01e-5), so the clip neither widens such an edge nor prefers a neighbour to it when
/// asked along its own normal.
pub const FACE_TURN_CLEARANCE: f32 = 2.0e-5;

/// The edges of `core` whose ends lie above every other vertex along their own stored
/// normal by more than [`SUPPORT_CLEARANCE`] times the reach, and whose `turn_cosines`
/// into both neighbours lie below `1 - FACE_TURN_CLEARANCE`, as bits; none when an edge
/// has no length. Heights are computed in `f64` (each product of two `f32` is exact
/// there), so the flag is the geometry's, not its rounding's.
fn clear_faces(core: &[Vec2], normals: &[Vec2], turn_cosines: &[f32]) -> u32 {
    let n = core.len();
    if normals.is_empty() || normals.contains(&Vec2::ZERO) {
        return 0;
    }
    let turns_clear = |k: usize| {
        let before = turn_cosines[(k + normals.len() - 1) % normals.len()];
        before < 1.0 - FACE_TURN_CLEARANCE && turn_cosines[k] < 1.0 - FACE_TURN_CLEARANCE
    };
    let reach = core
        .iter()
        .map(|p| f64::from(p.length()))
        .fold(0.0, f64::max);
    let margin = f64::from(SUPPORT_CLEARANCE) * reach;
    let height = |normal: Vec2, p: Vec2| {
        f64::from(normal.x) * f64::from(p.x) + f64::from(normal.y) * f64::from(p.y)
    };
    let mut faces = 0;
    for (k, &normal) in normals.iter().enumerate().take(32) {
        let (start, end) = (k, (k + 1) % n);
        let top = height(normal, core[start]).min(height(normal, core[end]));
        let clear = (0..n)
            .filter(|&j| j != start && j != end)
            .all(|j| height(normal, core[j]) < top - margin);
        if clear && turns_clear(k) {
            faces |= 1 << k;
        }
    }
    faces
}

/// No edge: an entry of [`CoreLanes::opposite_faces`] for an edge with no opposite face.
pub const NO_FACE: u8 = u8::MAX;

/// For each of the `normals`, the index of the edge among `faces` (bits, as
/// [`clear_faces`] gives them) whose normal is exactly its negation, or [`NO_FACE`].
fn opposite_faces<const N: usize>(normals: &[Vec2], faces: u32) -> [u8; N] {
    let mut opposite = [NO_FACE; N];
    for (k, &normal) in normals.iter().enumerate().take(N) {
        if normal == Vec2::ZERO {
            continue;
        }
        opposite[k] = (0..normals.len().min(32))
            .find(|&j| faces & (1 << j) != 0 && normals[j] == -normal)
            .map_or(NO_FACE, |j| j as u8);
    }
    opposite
}

impl<const N: usize> CoreLanes<N> {
    /// `core` has 1 to `N` vertices; `normals` and `back` have one entry per edge.
    fn new(core: &[Vec2], normals: &[Vec2], back: &[f32]) -> Self {
        let last = core[core.len() - 1];
        let (mut x, mut y) = ([last.x; N], [last.y; N]);
        for (k, p) in core.iter().enumerate() {
            (x[k], y[k]) = (p.x, p.y);
        }
        let (mut normal_x, mut normal_y, mut back_lanes) = ([0.0; N], [0.0; N], [0.0; N]);
        let mut turn_cosines = [0.0; N];
        for (k, n) in normals.iter().enumerate() {
            turn_cosines[k] = n.dot(normals[(k + 1) % normals.len()]);
        }
        let mut axes = 0;
        for (k, (n, b)) in normals.iter().zip(back).enumerate() {
            (normal_x[k], normal_y[k], back_lanes[k]) = (n.x, n.y, *b);
            if *n != Vec2::ZERO {
                axes |= 1 << k;
            }
        }
        let faces = clear_faces(core, normals, &turn_cosines);
        CoreLanes {
            clear_faces: faces,
            opposite_faces: opposite_faces(normals, faces),
            x,
            y,
            normal_x,
            normal_y,
            back: back_lanes,
            axes,
            axis_count: axes.count_ones(),
            turn_cosines,
        }
    }
}

/// A small core's lanes: 4 wide for up to 4 vertices, else 8 wide.
#[derive(Clone, Debug, PartialEq)]
pub enum SmallLanes {
    Four(CoreLanes<4>),
    Eight(CoreLanes<LANE_LIMIT>),
}

impl SmallLanes {
    /// `None` past [`LANE_LIMIT`] vertices or for an empty core.
    pub fn new(core: &[Vec2], normals: &[Vec2], back: &[f32]) -> Option<Self> {
        match core.len() {
            1..=4 => Some(SmallLanes::Four(CoreLanes::new(core, normals, back))),
            5..=LANE_LIMIT => Some(SmallLanes::Eight(CoreLanes::new(core, normals, back))),
            _ => None,
        }
    }
}

/// A shape's lanes: [`SmallLanes`] up to 8 vertices, 16 wide for 9 to [`WIDE_LANES`]
/// (behind a pointer, so that small shapes stay small). SAT's pass reads both; the clip's
/// look-ups (turn cosines, clear and opposite faces) read only the small ones (why:
/// docs/performance.md, "Notes moved out of the source headers", `geom/lanes.rs`).
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeLanes {
    pub small: Option<SmallLanes>,
    pub wide: Option<Box<CoreLanes<WIDE_LANES>>>,
}

impl ShapeLanes {
    pub fn new(core: &[Vec2], normals: &[Vec2], back: &[f32]) -> Self {
        ShapeLanes {
            small: SmallLanes::new(core, normals, back),
            wide: (LANE_LIMIT < core.len() && core.len() <= WIDE_LANES)
                .then(|| Box::new(CoreLanes::new(core, normals, back))),
        }
    }

    /// See [`SmallLanes::turn_cosines`] (small shapes only).
    #[inline]
    pub fn turn_cosines(&self, edges: usize) -> Option<&[f32]> {
        self.small
            .as_ref()
            .and_then(|small| small.turn_cosines(edges))
    }

    /// See [`CoreLanes::clear_faces`] (small shapes only; 0 otherwise).
    #[inline]
    pub fn clear_faces(&self) -> u32 {
        self.small.as_ref().map_or(0, SmallLanes::clear_faces)
    }

    /// See [`CoreLanes::opposite_faces`] (small shapes only): edge `i`'s opposite face, or
    /// `usize::MAX`.
    #[inline]
    pub fn opposite_face(&self, i: usize) -> usize {
        self.small
            .as_ref()
            .map_or(usize::MAX, |small| small.opposite_face(i))
    }
}

impl SmallLanes {
    /// Every edge's turn cosine (see [`CoreLanes::turn_cosines`]), in edge order, when
    /// every one of the `edges` edges has a length.
    #[inline]
    pub fn turn_cosines(&self, edges: usize) -> Option<&[f32]> {
        let (cosines, axis_count): (&[f32], u32) = match self {
            SmallLanes::Four(lanes) => (&lanes.turn_cosines, lanes.axis_count),
            SmallLanes::Eight(lanes) => (&lanes.turn_cosines, lanes.axis_count),
        };
        (axis_count as usize == edges).then(|| &cosines[..edges])
    }

    /// See [`CoreLanes::clear_faces`].
    #[inline]
    pub fn clear_faces(&self) -> u32 {
        match self {
            SmallLanes::Four(lanes) => lanes.clear_faces,
            SmallLanes::Eight(lanes) => lanes.clear_faces,
        }
    }

    /// See [`CoreLanes::opposite_faces`]: edge `i`'s opposite face, or `usize::MAX`.
    #[inline]
    pub fn opposite_face(&self, i: usize) -> usize {
        let face = match self {
            SmallLanes::Four(lanes) => lanes.opposite_faces.get(i),
            SmallLanes::Eight(lanes) => lanes.opposite_faces.get(i),
        };
        match face {
            Some(&j) if j != NO_FACE => usize::from(j),
            _ => usize::MAX,
        }
    }
}

/// The lanes of width `N`, when the core has them at that width.
pub trait LanesOfWidth<const N: usize> {
    fn lanes(&self) -> Option<&CoreLanes<N>>;
}

impl LanesOfWidth<4> for ShapeLanes {
    #[inline(always)]
    fn lanes(&self) -> Option<&CoreLanes<4>> {
        match &self.small {
            Some(SmallLanes::Four(lanes)) => Some(lanes),
            _ => None,
        }
    }
}

impl LanesOfWidth<WIDE_LANES> for ShapeLanes {
    #[inline(always)]
    fn lanes(&self) -> Option<&CoreLanes<WIDE_LANES>> {
        self.wide.as_deref()
    }
}

impl LanesOfWidth<LANE_LIMIT> for ShapeLanes {
    #[inline(always)]
    fn lanes(&self) -> Option<&CoreLanes<LANE_LIMIT>> {
        match &self.small {
            Some(SmallLanes::Eight(lanes)) => Some(lanes),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::geom::test_outlines as outlines;
    use crate::geom::Shape;
    use glam::Vec2;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn clear_faces_leave_out_flat_tiny_and_bent_sides() {
        // Every side of a box and of a triangle is clear; a segment (a capsule's core)
        // shows each of its two sides.
        let rect = Shape::rect(v(1.3, 0.4)).unwrap();
        assert_eq!(rect.clear_faces(), 0b1111);
        let triangle = Shape::polygon(vec![v(0.0, 0.0), v(2.0, 0.0), v(0.0, 1.0)]).unwrap();
        assert_eq!(triangle.clear_faces(), 0b111);
        assert_eq!(Shape::capsule(0.7, 0.25).unwrap().clear_faces(), 0b11);
        // A point in the middle of the top side: the two halves turn by nothing (and each
        // has the other's far end at its own height); the other three sides are clear.
        let split = outlines::split_top();
        assert_eq!(split.clear_faces(), 0b10011);
        // A top side bent by 1e-3 rad: its halves turn by less than the clearance.
        let bent = outlines::bent_top();
        assert_eq!(bent.clear_faces() & 0b01100, 0);
        // A corner cut by an edge 1e-6 long: along the sides next to it, the far end of
        // the cut lies within the support clearance of the side's line.
        let cut = outlines::cut_corner();
        assert_eq!(cut.clear_faces() & 0b01010, 0, "{:05b}", cut.clear_faces());
        // A repeated point (a zero-length edge): nothing is vouched for.
        let repeated = outlines::repeated_point();
        assert_eq!(repeated.clear_faces(), 0);
        // A circle (a point core) has no edges.
        assert_eq!(Shape::circle(0.5).unwrap().clear_faces(), 0);
    }

    #[test]
    fn opposite_faces_pair_the_exactly_parallel_sides() {
        // A box's and a parallelogram's sides face each other in pairs; a triangle's and a
        // trapezoid's slanted sides have none; a side left out of `clear_faces` is nobody's
        // opposite face.
        let rect = Shape::rect(v(1.3, 0.4)).unwrap();
        let opposite = |s: &Shape| {
            (0..s.normals().len())
                .map(|i| s.opposite_face(i))
                .collect::<Vec<_>>()
        };
        assert_eq!(opposite(&rect), [2, 3, 0, 1]);
        let parallelogram =
            Shape::polygon(vec![v(-1.0, -0.5), v(1.0, -0.5), v(1.5, 0.5), v(-0.5, 0.5)]).unwrap();
        assert_eq!(opposite(&parallelogram), [2, 3, 0, 1]);
        let triangle = Shape::polygon(vec![v(0.0, 0.0), v(2.0, 0.0), v(0.0, 1.0)]).unwrap();
        assert_eq!(opposite(&triangle), [usize::MAX; 3]);
        let trapezoid =
            Shape::polygon(vec![v(-1.0, -0.5), v(1.0, -0.5), v(0.5, 0.5), v(-0.5, 0.5)]).unwrap();
        assert_eq!(opposite(&trapezoid), [2, usize::MAX, 0, usize::MAX]);
        let split = outlines::split_top();
        assert!((0..split.normals().len()).all(|i| {
            let j = split.opposite_face(i);
            j == usize::MAX || split.clear_faces() & (1 << j) != 0
        }));
    }
}
