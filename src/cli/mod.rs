//! Headless commands: `query`, `check`, `trace`, `scan`, `link` and `open-link`, and the arguments of `render` (which
//! `main` hands to the window's code: `cli` and `app` do not know each other). Each command
//! returns the process exit status: 0 success, 1 a failed check, 2 bad input.
//!
//! Each `run_*` below is the command's one entry point: the place where a scene of another
//! kind (a 3D scene, in its own `*3` module) is sent to its own implementation.

mod check;
mod format;
mod link;
mod pairs;
mod query;
mod query3;
pub mod scan;
mod trace;
mod trace3;

use crate::query::Algorithm;
use crate::scene::{load_scene_file, Scene, SceneBody};
use clap::builder::PossibleValue;
use clap::Args;
use std::path::{Path, PathBuf};

pub use pairs::MAX_ALL_PAIRS;
pub use trace::trace_text;

#[derive(Args, Debug, Clone)]
pub struct QueryArgs {
    pub scene: PathBuf,
    /// Only the pair of these two bodies, in this order.
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    pub pair: Option<Vec<String>>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    /// Scene files or folders (default: scenes/).
    pub paths: Vec<PathBuf>,
}

#[derive(Args, Debug, Clone)]
pub struct TraceArgs {
    pub scene: PathBuf,
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    pub pair: Option<Vec<String>>,
    #[arg(long, value_enum)]
    pub algorithm: Algorithm,
}

/// `--algorithm` takes the keys of [`Algorithm::ALL`].
impl clap::ValueEnum for Algorithm {
    fn value_variants<'a>() -> &'a [Self] {
        &Algorithm::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.key()))
    }
}

/// `collision-lab scan`: one body of a pair moved along one pose parameter.
#[derive(Args, Debug, Clone)]
pub struct ScanArgs {
    pub scene: PathBuf,
    /// The pair, in this order (default: the scene's focused pair).
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    pub pair: Option<Vec<String>>,
    /// The body that moves, one of the pair.
    #[arg(long = "move", value_name = "BODY")]
    pub moving: String,
    /// What moves: x, y (both), angle (2D, degrees, absolute), z (3D), or rx, ry, rz (3D: a
    /// turn in degrees about the world x, y or z axis on top of the body's rotation).
    #[arg(long, value_name = "PARAM")]
    pub param: String,
    /// The parameter's first value.
    #[arg(long, allow_hyphen_values = true, value_name = "F")]
    pub from: f32,
    /// The parameter's last value.
    #[arg(long, allow_hyphen_values = true, value_name = "T")]
    pub to: f32,
    /// Evenly spaced samples, the ends included (1 to 1,000,000); each event is then
    /// narrowed by bisection.
    #[arg(long, default_value_t = crate::scan::DEFAULT_SAMPLES, value_name = "N")]
    pub samples: usize,
    /// Print one JSON object (every sample and event) instead of text.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print the samples as CSV, one row each, instead of text.
    #[arg(long)]
    pub csv: bool,
    /// Write the scene at both sides of each event, with the pair's expectation recorded
    /// there: DIR/event-K-before.ron and DIR/event-K-after.ron.
    #[arg(long, value_name = "DIR")]
    pub write_events: Option<PathBuf>,
    /// Draw depth (or distance) against the parameter to this PNG, the answers that change
    /// as coloured bands and the events as markers (needs an X server; xvfb-run works).
    #[arg(long, value_name = "FILE.png")]
    pub plot: Option<PathBuf>,
}

#[derive(Args, Debug, Clone)]
pub struct RenderArgs {
    pub scene: PathBuf,
    #[arg(long)]
    pub out: PathBuf,
    /// Picture size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x800")]
    pub size: String,
    /// Show this step of an algorithm's timeline, e.g. `gjk:2`, counted from 1 as the
    /// window's timeline and `trace` number the steps.
    #[arg(long, conflicts_with = "steps")]
    pub step: Option<String>,
    /// Slides: one PNG per step of this algorithm's timeline (gjk, epa, sat, clip, sweep),
    /// each captioned with its step sentence; `--out` is then a folder.
    #[arg(long, value_name = "ALGORITHM")]
    pub steps: Option<String>,
    /// With --steps, also an animated GIF of the slides (ALGORITHM.gif in the folder).
    #[arg(long, requires = "steps")]
    pub gif: bool,
    /// Split the picture: the bodies on the left, A - B on the right at the same size.
    #[arg(long)]
    pub split: bool,
    /// Show the swept bodies at this time of the sweep (Swept SAT), e.g. `0.4`.
    #[arg(long, value_name = "T")]
    pub sweep_at: Option<f32>,
}

#[derive(Args, Debug, Clone)]
pub struct LinkArgs {
    /// The scene file (2D or 3D); the link carries its exact text.
    pub scene: PathBuf,
    /// Where the browser build is served; any `#...` it has is replaced. The default is
    /// what `python3 -m http.server` gives when run in the built web folder.
    #[arg(long, value_name = "URL", default_value = crate::scene::link::DEFAULT_BASE)]
    pub base: String,
}

#[derive(Args, Debug, Clone)]
pub struct OpenLinkArgs {
    /// A share link: a full URL, its `#s1=...` fragment, or `s1=...`.
    pub link: String,
    /// Write the scene to this file (replaced atomically, never left damaged) instead of
    /// printing it; nothing is written when the link or its scene is invalid.
    #[arg(long, value_name = "FILE.ron")]
    pub out: Option<PathBuf>,
}

/// Loads a scene, or prints `error: FILE:LINE:COL: message` and returns `None`.
pub(crate) fn load_or_report(path: &Path) -> Option<(Scene, Vec<SceneBody>)> {
    match load_scene_file(path) {
        Ok(loaded) => Some(loaded),
        Err(e) => {
            eprintln!("error: {e}");
            None
        }
    }
}

pub fn run_query(args: &QueryArgs) -> u8 {
    query::run_query(args)
}

pub fn run_check(args: &CheckArgs) -> u8 {
    check::run_check(args)
}

pub fn run_trace(args: &TraceArgs) -> u8 {
    trace::run_trace(args)
}

/// `scan`; `plot` draws `--plot`'s picture (the window's drawing, which `main` hands in).
pub fn run_scan(args: &ScanArgs, plot: scan::PlotWriter) -> u8 {
    scan::run_scan(args, plot)
}

pub fn run_link(args: &LinkArgs) -> u8 {
    link::run_link(args)
}

pub fn run_open_link(args: &OpenLinkArgs) -> u8 {
    link::run_open_link(args)
}
