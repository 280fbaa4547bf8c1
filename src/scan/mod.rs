//! Scans: move one body of a pair along one pose parameter, run every algorithm at each
//! sample, and pin each place where a discrete answer flips (the winning axis, the feature
//! pair, the contact count or ids, the reference side, the verdict, SAT and GJK agreeing,
//! the normal jumping) to an interval as narrow as `f32` allows.
//!
//! Both dimensions: a scan takes a [`LoadedScene`](crate::scene::LoadedScene) and runs the
//! 2D pair query (`query::pair::query_pair`) or the 3D one (`query3::pair::query_pair3`)
//! with the scene's settings, exactly as `query` and `check` do; the samples hold what
//! those outputs say, nothing recomputed.
//!
//! - [`param`]: the parameter (`x`, `y`, `z`, `angle`, `rx`, `ry`, `rz`), the spec, errors;
//! - `mover`: the one place a parameter value becomes the moving body's pose;
//! - [`sample`]: one sample's answers;
//! - [`events`]: comparing samples and narrowing an interval by bisection;
//! - `scanner`: the incremental [`Scanner`] and [`scan`];
//! - `sides`: the pose and the scene at a parameter value, and regression scenes.
//!
//! The window spreads a [`Scanner`] over frames; `collision-lab scan` runs [`scan`].

pub mod events;
mod mover;
pub mod param;
pub mod sample;
mod scanner;
mod sides;

pub use events::{Change, Event, MAX_FLIPS_PER_INTERVAL, NARROW_FRACTION, NORMAL_JUMP_TOLERANCE};
pub use mover::{MovedDef, MovedPose};
pub use param::{Param, ScanError, ScanSpec, DEFAULT_SAMPLES, MAX_RANGE_MAGNITUDE, MAX_SAMPLES};
pub use sample::{AxisId, Sample};
pub use scanner::{scan, ScanOutput, Scanner};
pub use sides::{pose_at, regression_scene, scene_at};
