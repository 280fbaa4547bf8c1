//! One sample of a scan: the pair's answers at one value of the parameter, read from the
//! pair query's output (2D `PairQuery` or 3D `PairQuery3`); nothing is recomputed here.

use crate::query::clip::Manifold;
use crate::query::pair::PairQuery;
use crate::query::sat::AxisSource;
use crate::query::Body;
use crate::query3::pair::PairQuery3;
use crate::query3::sat::AxisId as AxisId3;
use crate::query3::Side;
use std::fmt;

/// SAT's winning axis, for either dimension. `Body::A` and `Body::B` are the pair's first
/// and second body (`--pair A B`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AxisId {
    /// 2D: the outward normal of edge `index` of a body.
    Edge(Body, u32),
    /// 2D, round shapes: from vertex `index` of a body's core toward the other core.
    Vertex(Body, u32),
    /// 2D: the +x axis, tested when no other axis exists (two circles with one centre).
    Fallback,
    /// 3D: the normal of face `index` of a body.
    Face(Body, u32),
    /// 3D: edge `i` of A crossed with edge `j` of B.
    Edges(u32, u32),
    /// 3D, round shapes: the direction between the cores' closest points.
    Closest,
}

impl AxisId {
    /// The kind as JSON and CSV write it: `edge_a`, `edge_b`, `vertex_a`, `vertex_b`,
    /// `fallback`, `face_a`, `face_b`, `edges` or `closest` (the 3D keys are `query`'s).
    pub fn kind(&self) -> &'static str {
        match self {
            AxisId::Edge(Body::A, _) => "edge_a",
            AxisId::Edge(Body::B, _) => "edge_b",
            AxisId::Vertex(Body::A, _) => "vertex_a",
            AxisId::Vertex(Body::B, _) => "vertex_b",
            AxisId::Fallback => "fallback",
            AxisId::Face(Body::A, _) => "face_a",
            AxisId::Face(Body::B, _) => "face_b",
            AxisId::Edges(..) => "edges",
            AxisId::Closest => "closest",
        }
    }

    /// The feature indices: one for an edge, vertex or face, two for an edge pair (A's,
    /// then B's), none for the fallback and closest-point axes.
    pub fn indices(&self) -> Vec<u32> {
        match *self {
            AxisId::Edge(_, i) | AxisId::Vertex(_, i) | AxisId::Face(_, i) => vec![i],
            AxisId::Edges(i, j) => vec![i, j],
            AxisId::Fallback | AxisId::Closest => Vec::new(),
        }
    }

    /// The axis in words with the bodies' names: `face 3 of slab`, `edge 2 of A x edge 5
    /// of B`.
    pub fn words(&self, a: &str, b: &str) -> String {
        let name = |body: Body| if body == Body::A { a } else { b };
        match *self {
            AxisId::Edge(body, i) => format!("edge {i} of {}", name(body)),
            AxisId::Vertex(body, i) => format!("vertex {i} of {}", name(body)),
            AxisId::Fallback => "the fallback +x axis".into(),
            AxisId::Face(body, i) => format!("face {i} of {}", name(body)),
            AxisId::Edges(i, j) => format!("edge {i} of {a} x edge {j} of {b}"),
            AxisId::Closest => format!("the closest points of {a}'s and {b}'s cores"),
        }
    }
}

/// `face 3 of A`, `edge 2 of A x edge 5 of B`: [`AxisId::words`] with the roles A and B.
impl fmt::Display for AxisId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words("A", "B"))
    }
}

/// The pair's answers at parameter `t`. Conventions are the queries': the normal points from
/// A toward B (z = 0 in 2D), depths and distances are >= 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub t: f32,
    /// SAT's verdict: the bodies overlap or touch.
    pub intersecting: bool,
    /// GJK's verdict.
    pub gjk_intersecting: bool,
    /// SAT's depth (the smallest overlap), when SAT finds them intersecting.
    pub depth: Option<f32>,
    /// GJK's distance, when GJK finds them apart.
    pub distance: Option<f32>,
    /// SAT's unit normal (its winning axis), when finite.
    pub normal: Option<[f32; 3]>,
    /// SAT's winning axis.
    pub axis: AxisId,
    /// The manifold's feature pair: in 3D its key (`face_face`, `edge_edge`, ...), in 2D its
    /// reference edge then its incident edge (`edge 2 of a / edge 0 of b`). `None` when
    /// there is no manifold (apart).
    pub feature: Option<String>,
    /// The body holding the manifold's reference face (edge in 2D).
    pub reference: Option<Body>,
    /// The manifold's points (0 when apart).
    pub contacts: usize,
    /// Each point's feature id, in the manifold's order, as `query --json` writes it: 2D
    /// `[reference edge, incident edge, end]`, 3D `[kind of A's feature, its index, kind of
    /// B's, its index]` (kinds 0 vertex, 1 edge, 2 face).
    pub ids: Vec<String>,
    /// The sweep's time of first contact, when a body has a velocity and the sweep hits.
    pub t_first: Option<f32>,
}

fn ids_text<const N: usize>(id: [u32; N]) -> String {
    let parts: Vec<String> = id.iter().map(u32::to_string).collect();
    format!("[{}]", parts.join(", "))
}

fn side_body(side: Side) -> Body {
    match side {
        Side::A => Body::A,
        Side::B => Body::B,
    }
}

fn finite_normal(n: [f32; 3]) -> Option<[f32; 3]> {
    n.iter().all(|c| c.is_finite()).then_some(n)
}

/// 2D: edge `r` of the reference body against edge `i` of the other.
fn feature_2d(m: &Manifold) -> String {
    format!(
        "edge {} of {} / edge {} of {}",
        m.reference_edge,
        m.reference.as_str(),
        m.incident_edge,
        m.reference.other().as_str()
    )
}

impl Sample {
    /// The sample of a 2D pair query at `t`.
    pub fn from_query(t: f32, q: &PairQuery) -> Sample {
        let s = &q.sat;
        let axis = match s.axis {
            AxisSource::Edge { body, index } => AxisId::Edge(body, index),
            AxisSource::Vertex { body, index } => AxisId::Vertex(body, index),
            AxisSource::Fallback => AxisId::Fallback,
        };
        let m = q.manifold.as_ref();
        Sample {
            t,
            intersecting: s.intersecting,
            gjk_intersecting: q.gjk.intersecting,
            depth: s.depth.filter(|_| s.intersecting),
            distance: (!q.gjk.intersecting).then_some(q.gjk.distance),
            normal: finite_normal([s.normal.x, s.normal.y, 0.0]),
            axis,
            feature: m.map(feature_2d),
            reference: m.map(|m| m.reference),
            contacts: m.map_or(0, |m| m.count),
            ids: m.map_or(Vec::new(), |m| {
                m.points()
                    .iter()
                    .map(|c| ids_text([c.id[0], c.id[1], c.end as u32]))
                    .collect()
            }),
            t_first: q.sweep.and_then(|w| w.t_first),
        }
    }

    /// The sample of a 3D pair query at `t`.
    pub fn from_query3(t: f32, q: &PairQuery3) -> Sample {
        let s = &q.sat;
        let axis = match s.axis {
            AxisId3::FaceA(i) => AxisId::Face(Body::A, i),
            AxisId3::FaceB(i) => AxisId::Face(Body::B, i),
            AxisId3::Edges(i, j) => AxisId::Edges(i, j),
            AxisId3::Closest => AxisId::Closest,
        };
        let m = q.manifold.as_ref();
        Sample {
            t,
            intersecting: s.intersecting,
            gjk_intersecting: q.gjk.intersecting,
            depth: s.intersecting.then_some(s.depth),
            distance: (!q.gjk.intersecting).then_some(q.gjk.distance),
            normal: finite_normal(s.normal.to_array()),
            axis,
            feature: m.map(|m| m.feature.key().to_string()),
            reference: m.map(|m| side_body(m.reference)),
            contacts: m.map_or(0, |m| m.points.len()),
            ids: m.map_or(Vec::new(), |m| {
                m.points.iter().map(|c| ids_text(c.id.to_array())).collect()
            }),
            t_first: q.sweep.as_ref().and_then(|w| w.t_first),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_read_as_the_query_text_reads_them() {
        assert_eq!(AxisId::Face(Body::A, 3).to_string(), "face 3 of A");
        assert_eq!(
            AxisId::Edges(2, 5).words("lid", "box"),
            "edge 2 of lid x edge 5 of box"
        );
        assert_eq!(AxisId::Edge(Body::B, 1).kind(), "edge_b");
        assert_eq!(AxisId::Edges(2, 5).indices(), [2, 5]);
        assert!(AxisId::Closest.indices().is_empty());
    }
}
