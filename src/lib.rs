//! collision-lab: 2D narrow-phase collision detection, with every step recorded.
//!
//! Layering (see `docs/architecture.md`): `geom` (shapes, poses, support functions),
//! `query` (one algorithm per file, each generic over a [`trace::Tracer`]), `scene`
//! (the RON scene model), `scan` (one body moved along one parameter, each flip of the
//! answers narrowed), `cli` (headless commands) and `app` (the macroquad/egui window),
//! with `text` (word wrap, number format) shared by the last two. Nothing below `app`
//! imports the window toolkit, and `cli` and `app` do not import each other.

#[cfg(test)]
mod agreement;
pub mod app;
pub mod cli;
pub mod geom;
pub mod geom3;
mod inline_vec;
pub mod query;
pub mod query3;
pub mod scan;
pub mod scene;
mod simd;
pub mod text;
pub mod trace;

pub use glam::Vec2;
