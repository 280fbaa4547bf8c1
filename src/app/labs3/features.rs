//! A body's own features placed in the world, by index, as the core's steps name them
//! ("face 3 of A", "edge 5 of B"): the only geometry the 3D labs touch, and only to place
//! the body's vertices by its pose.

use crate::geom3::{Polyhedron, Shape3Ref};
use crate::query3::manifold::Feature;
use crate::scene::SceneBody3;
use glam::Vec3;

/// One body of the focused pair, for drawing its features.
#[derive(Clone, Copy, Debug)]
pub struct BodyGeometry<'a> {
    pub body: &'a SceneBody3,
}

impl<'a> BodyGeometry<'a> {
    pub fn new(body: &'a SceneBody3) -> Self {
        BodyGeometry { body }
    }

    fn polyhedron(&self) -> Option<&'a Polyhedron> {
        self.body.shape.as_polyhedron()
    }

    /// Vertex `i` in the world.
    pub fn vertex(&self, i: u32) -> Option<Vec3> {
        let p = self.polyhedron()?;
        let v = *p.vertices().get(i as usize)?;
        Some(self.body.pose.transform_point(v))
    }

    /// Edge `i`'s ends in the world (a capsule's segment is its edge 0).
    pub fn edge(&self, i: u32) -> Option<[Vec3; 2]> {
        match self.body.shape.as_ref() {
            Shape3Ref::Polyhedron(p) => {
                let e = p.edges().get(i as usize)?;
                Some([self.vertex(e.tail)?, self.vertex(e.head)?])
            }
            Shape3Ref::Round(r) => {
                let [a, b] = r.core_ends();
                (i == 0).then(|| [a, b].map(|p| self.body.pose.transform_point(p)))
            }
        }
    }

    /// Face `i`'s polygon in the world (counter-clockwise seen from outside).
    pub fn face(&self, i: u32) -> Option<Vec<Vec3>> {
        let p = self.polyhedron()?;
        if i as usize >= p.face_count() {
            return None;
        }
        p.face(i as usize)
            .vertices
            .iter()
            .map(|&v| self.vertex(v))
            .collect()
    }

    /// Face `i`'s outward unit normal in the world.
    pub fn face_normal(&self, i: u32) -> Option<Vec3> {
        let p = self.polyhedron()?;
        ((i as usize) < p.face_count()).then(|| self.body.pose.rotation * p.face_normal(i as usize))
    }

    /// The body's centre: its polyhedron's centroid, or its core's centre.
    pub fn center(&self) -> Vec3 {
        match self.polyhedron() {
            Some(p) => self.body.pose.transform_point(p.centroid()),
            None => self.body.pose.position,
        }
    }

    /// A round body's core point or segment (a sphere's centre), in the world.
    pub fn core(&self) -> Vec<Vec3> {
        match self.body.shape.as_ref() {
            Shape3Ref::Round(r) => {
                let [a, b] = r.core_ends();
                let (a, b) = (
                    self.body.pose.transform_point(a),
                    self.body.pose.transform_point(b),
                );
                if (a - b).length_squared() > 0.0 {
                    vec![a, b]
                } else {
                    vec![a]
                }
            }
            Shape3Ref::Polyhedron(_) => Vec::new(),
        }
    }
}

/// The points of a feature of `body`: one for a vertex, two for an edge, the polygon for a
/// face; a round body's features are its core's.
pub fn feature_points(body: &BodyGeometry, feature: Feature) -> Vec<Vec3> {
    if body.body.shape.as_polyhedron().is_none() {
        return body.core();
    }
    match feature {
        Feature::Vertex(i) => body.vertex(i).into_iter().collect(),
        Feature::Edge(i) => body.edge(i).map(Vec::from).unwrap_or_default(),
        Feature::Face(i) => body.face(i).unwrap_or_default(),
    }
}
