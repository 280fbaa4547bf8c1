//! Headless commands: `query`, `check` and `trace`, and the arguments of `render` (which
//! `main` hands to the window's code: `cli` and `app` do not know each other). Each command
//! returns the process exit status: 0 success, 1 a failed check, 2 bad input.
//!
//! Each `run_*` below is the command's one entry point: the place where a scene of another
//! kind (a 3D scene, in its own `*3` module) is sent to its own implementation.

mod check;
mod format;
mod query;
mod query3;
mod trace;
mod trace3;

use crate::query::Algorithm;
use crate::scene::{load_scene_file, Scene, SceneBody};
use clap::builder::PossibleValue;
use clap::Args;
use std::path::{Path, PathBuf};

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

pub fn run_query(args: &QueryArgs) -> u8 {
    query::run_query(args)
}

pub fn run_check(args: &CheckArgs) -> u8 {
    check::run_check(args)
}

pub fn run_trace(args: &TraceArgs) -> u8 {
    trace::run_trace(args)
}
