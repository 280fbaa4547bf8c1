//! The 3D narrow-phase algorithms, one per file, each recording its steps through a
//! [`crate::trace::Tracer`], as in 2D.
//!
//! Conventions shared by every 3D query:
//! - Inputs and outputs are in world coordinates. Inside, each query works in the frame of
//!   [`PolyPair`]: the world shifted so that body A's position is the origin, which keeps
//!   `f32` precision for bodies far from the world origin.
//! - A normal is a unit vector pointing from A toward B: moving B by `depth * normal`
//!   leaves the two bodies just touching.
//! - Depths are >= 0; a separation is >= 0 too and says how far apart they are along the
//!   best separating axis (a lower bound on their distance).
