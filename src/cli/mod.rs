//! Headless commands: `query`, `check`, `trace`, and `render` (which draws through the app's
//! code). Each returns the process exit status: 0 success, 1 a failed check, 2 bad input.

mod check;
mod query;
mod query3;
mod trace;
mod trace3;

use crate::scene::{load_scene_file, Scene, SceneBody};
use clap::Args;
use std::path::{Path, PathBuf};

pub use query::run_query;

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

#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    Gjk,
    Epa,
    Sat,
    Clip,
    Sweep,
}

#[derive(Args, Debug, Clone)]
pub struct RenderArgs {
    pub scene: PathBuf,
    #[arg(long)]
    pub out: PathBuf,
    /// Picture size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x800")]
    pub size: String,
    /// Show this step of an algorithm's timeline, e.g. `gjk:2` (0-based).
    #[arg(long)]
    pub step: Option<String>,
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

/// Most pairs a command goes through without `--pair` (about 450 bodies): beyond that the
/// output is too long to read and the run too long to wait for.
pub const MAX_ALL_PAIRS: usize = 100_000;

/// Every pair in file order (a before b), or the one named pair. Prints the error and
/// returns exit status 2 when a name is unknown.
pub(crate) fn select_pairs(
    file: &Path,
    bodies: &[SceneBody],
    pair: Option<&[String]>,
) -> Result<Vec<(usize, usize)>, u8> {
    match pair {
        Some([a, b]) => {
            let find = |name: &String| {
                bodies.iter().position(|x| &x.name == name).ok_or_else(|| {
                    eprintln!("error: {}: no body is named \"{name}\"", file.display());
                    2u8
                })
            };
            let (i, j) = (find(a)?, find(b)?);
            if i == j {
                eprintln!("error: {}: --pair names \"{a}\" twice", file.display());
                return Err(2);
            }
            Ok(vec![(i, j)])
        }
        _ => {
            let n = bodies.len();
            let count = n * n.saturating_sub(1) / 2;
            if count > MAX_ALL_PAIRS {
                eprintln!(
                    "error: {}: {n} bodies make {count} pairs, more than the {MAX_ALL_PAIRS} printed at once; name one pair with --pair A B",
                    file.display()
                );
                return Err(2);
            }
            Ok((0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect())
        }
    }
}

pub fn run_check(args: &CheckArgs) -> u8 {
    check::run_check(args)
}

pub fn run_trace(args: &TraceArgs) -> u8 {
    trace::run_trace(args)
}

pub fn run_render(args: &RenderArgs) -> u8 {
    crate::app::render_png(args)
}

pub fn run_window(scene: Option<PathBuf>) -> u8 {
    crate::app::run_window(scene)
}
