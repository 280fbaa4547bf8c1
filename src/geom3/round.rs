//! Round shapes in 3D: a point or segment core inflated by a radius, as in 2D, and
//! [`Shape3`], the validated shape of a 3D body (a polyhedron or a round shape).
//!
//! A sphere of radius r is the set of points within r of its centre (a point core); a capsule
//! is the set of points within r of the segment from (0, -h, 0) to (0, h, 0) in its local
//! frame (a segment core along y). Every query works on the cores and adds the radii: the
//! support point of a round shape along a unit direction d is the core's support point plus
//! r * d, so distances shrink by the radii and depths grow by them.

use super::polyhedron::positive;
use super::{Polyhedron, Shape3Error, Shape3Kind};
use glam::Vec3;

/// The core of a round shape, in its local frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Core3 {
    /// The origin (a sphere's centre).
    Point,
    /// The segment from (0, -half_length, 0) to (0, half_length, 0).
    Segment { half_length: f32 },
}

/// A validated sphere or capsule.
#[derive(Clone, Debug, PartialEq)]
pub struct Round3 {
    kind: Shape3Kind,
    core: Core3,
    radius: f32,
}

impl Round3 {
    /// A validated sphere of `radius` about the origin.
    pub fn sphere(radius: f32) -> Result<Round3, Shape3Error> {
        Round3::new(&Shape3Kind::Sphere { radius })
    }

    /// A validated capsule along y: the segment (0, -half_length, 0)-(0, half_length, 0)
    /// inflated by `radius`.
    pub fn capsule(half_length: f32, radius: f32) -> Result<Round3, Shape3Error> {
        Round3::new(&Shape3Kind::Capsule {
            half_length,
            radius,
        })
    }

    /// Builds and validates a sphere or a capsule: the radius and the half length must be
    /// positive, finite and at most [`super::MAX_COORDINATE`]. [`Shape3::new`] calls it
    /// for the round kinds only.
    fn new(kind: &Shape3Kind) -> Result<Round3, Shape3Error> {
        let (core, radius) = match *kind {
            Shape3Kind::Sphere { radius } => {
                positive("radius", radius)?;
                (Core3::Point, radius)
            }
            Shape3Kind::Capsule {
                half_length,
                radius,
            } => {
                positive("half length", half_length)?;
                positive("radius", radius)?;
                (Core3::Segment { half_length }, radius)
            }
            _ => unreachable!("Shape3::new passes the round kinds only"),
        };
        Ok(Round3 {
            kind: kind.clone(),
            core,
            radius,
        })
    }

    /// The description this shape was built from.
    pub fn kind(&self) -> &Shape3Kind {
        &self.kind
    }

    pub fn core(&self) -> Core3 {
        self.core
    }

    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The core's half length: 0 for a sphere.
    pub fn half_length(&self) -> f32 {
        match self.core {
            Core3::Point => 0.0,
            Core3::Segment { half_length } => half_length,
        }
    }

    /// The core's two ends in the local frame (the same point twice for a sphere).
    pub fn core_ends(&self) -> [Vec3; 2] {
        let h = self.half_length();
        [Vec3::new(0.0, -h, 0.0), Vec3::new(0.0, h, 0.0)]
    }

    /// The largest distance from the local origin (the centre) to a point of the shape.
    pub fn bounding_radius(&self) -> f32 {
        self.half_length() + self.radius
    }
}

/// A validated 3D shape: a convex polyhedron (radius 0) or a round shape.
///
/// The polyhedron is stored inline although it is larger than a round shape: a scene holds
/// one per body, and a box would put a pointer chase before every support query.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Shape3 {
    Polyhedron(Polyhedron),
    Round(Round3),
}

impl Shape3 {
    /// Builds and validates any shape description.
    pub fn new(kind: &Shape3Kind) -> Result<Shape3, Shape3Error> {
        if kind.is_round() {
            Round3::new(kind).map(Shape3::Round)
        } else {
            Polyhedron::new(kind).map(Shape3::Polyhedron)
        }
    }

    /// The description this shape was built from.
    pub fn kind(&self) -> &Shape3Kind {
        match self {
            Shape3::Polyhedron(p) => p.kind(),
            Shape3::Round(r) => r.kind(),
        }
    }

    pub fn as_ref(&self) -> Shape3Ref<'_> {
        match self {
            Shape3::Polyhedron(p) => Shape3Ref::Polyhedron(p),
            Shape3::Round(r) => Shape3Ref::Round(r),
        }
    }

    pub fn as_polyhedron(&self) -> Option<&Polyhedron> {
        self.as_ref().as_polyhedron()
    }

    /// The largest distance from the local origin to a point of the shape.
    pub fn bounding_radius(&self) -> f32 {
        self.as_ref().bounding_radius()
    }
}

/// A borrowed [`Shape3`]: what the queries take, so that a caller holding a bare
/// [`Polyhedron`] passes `(&poly).into()`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape3Ref<'a> {
    Polyhedron(&'a Polyhedron),
    Round(&'a Round3),
}

impl<'a> Shape3Ref<'a> {
    pub fn as_polyhedron(self) -> Option<&'a Polyhedron> {
        match self {
            Shape3Ref::Polyhedron(p) => Some(p),
            Shape3Ref::Round(_) => None,
        }
    }

    pub fn kind(self) -> &'a Shape3Kind {
        match self {
            Shape3Ref::Polyhedron(p) => p.kind(),
            Shape3Ref::Round(r) => r.kind(),
        }
    }

    /// The largest distance from the local origin to a point of the shape.
    pub fn bounding_radius(self) -> f32 {
        match self {
            Shape3Ref::Polyhedron(p) => p.bounding_radius(),
            Shape3Ref::Round(r) => r.bounding_radius(),
        }
    }

    /// The radius around the core: 0 for a polyhedron.
    pub fn radius(self) -> f32 {
        match self {
            Shape3Ref::Polyhedron(_) => 0.0,
            Shape3Ref::Round(r) => r.radius(),
        }
    }
}

impl<'a> From<&'a Polyhedron> for Shape3Ref<'a> {
    fn from(p: &'a Polyhedron) -> Self {
        Shape3Ref::Polyhedron(p)
    }
}

impl<'a> From<&'a Round3> for Shape3Ref<'a> {
    fn from(r: &'a Round3) -> Self {
        Shape3Ref::Round(r)
    }
}

impl<'a> From<&'a Shape3> for Shape3Ref<'a> {
    fn from(s: &'a Shape3) -> Self {
        s.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> Shape3Kind {
        ron::from_str(text).unwrap()
    }

    #[test]
    fn spheres_and_capsules_read_as_the_scene_format_writes_them() {
        let sphere = kind("Sphere(radius: 0.5)");
        assert_eq!(sphere, Shape3Kind::Sphere { radius: 0.5 });
        let capsule = kind("Capsule(half_length: 1, radius: 0.25)");
        let Shape3::Round(round) = Shape3::new(&capsule).unwrap() else {
            panic!("a capsule is round");
        };
        assert_eq!(round.core(), Core3::Segment { half_length: 1.0 });
        assert_eq!(round.radius(), 0.25);
        assert_eq!(round.bounding_radius(), 1.25);
        assert_eq!(round.core_ends()[1], Vec3::new(0.0, 1.0, 0.0));
        assert_eq!(
            ron::from_str::<Shape3Kind>(&ron::to_string(&capsule).unwrap()).unwrap(),
            capsule
        );
        assert!(ron::from_str::<Shape3Kind>("Sphere(radius: 1, half_length: 2)").is_err());
        assert!(Shape3::new(&kind("Cuboid(half_extents: (1, 1, 1))"))
            .unwrap()
            .as_polyhedron()
            .is_some());
    }

    #[test]
    fn zero_negative_non_finite_and_absurd_sizes_are_refused() {
        let bad = [
            (
                Shape3Kind::Sphere { radius: 0.0 },
                "radius must be positive",
            ),
            (
                Shape3Kind::Sphere { radius: -1.0 },
                "radius must be positive",
            ),
            (
                Shape3Kind::Sphere { radius: f32::NAN },
                "not a finite number",
            ),
            (Shape3Kind::Sphere { radius: 2.0e6 }, "beyond the largest"),
            (
                Shape3Kind::Capsule {
                    half_length: 0.0,
                    radius: 1.0,
                },
                "half length must be positive",
            ),
            (
                Shape3Kind::Capsule {
                    half_length: 1.0,
                    radius: f32::INFINITY,
                },
                "radius is not a finite number",
            ),
            (
                Shape3Kind::Capsule {
                    half_length: 1.0e7,
                    radius: 1.0,
                },
                "half length is 10000000",
            ),
        ];
        for (kind, message) in bad {
            let e = Shape3::new(&kind).unwrap_err().to_string();
            assert!(e.contains(message), "{kind:?}: {e}");
        }
        let e = Polyhedron::new(&Shape3Kind::Sphere { radius: 1.0 }).unwrap_err();
        assert_eq!(e, Shape3Error::NotPolyhedron { kind: "Sphere" });
    }
}
