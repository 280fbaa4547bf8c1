//! A small core laid out for vector lanes, built once with the shape: its vertices, edge
//! normals and back extents in fixed arrays of 4 (up to 4 vertices: boxes, quads) or 8
//! (up to 8), so that SAT's small-polygon pass loads them whole instead of copying a
//! variable number of entries into padded arrays at every query.

use glam::Vec2;

/// Cores with at most this many vertices get lanes.
pub const LANE_LIMIT: usize = 8;

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
        CoreLanes {
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
}

/// The lanes of width `N`, when the core has them at that width.
pub trait LanesOfWidth<const N: usize> {
    fn lanes(&self) -> Option<&CoreLanes<N>>;
}

impl LanesOfWidth<4> for Option<SmallLanes> {
    #[inline(always)]
    fn lanes(&self) -> Option<&CoreLanes<4>> {
        match self {
            Some(SmallLanes::Four(lanes)) => Some(lanes),
            _ => None,
        }
    }
}

impl LanesOfWidth<LANE_LIMIT> for Option<SmallLanes> {
    #[inline(always)]
    fn lanes(&self) -> Option<&CoreLanes<LANE_LIMIT>> {
        match self {
            Some(SmallLanes::Eight(lanes)) => Some(lanes),
            _ => None,
        }
    }
}
