//! Headless commands: `query`, `check`, `trace`, and `render` (which draws through the app's
//! code). Each returns the process exit status: 0 success, 1 a failed check, 2 bad input.

use clap::Args;
use std::path::PathBuf;

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

pub fn run_query(_args: &QueryArgs) -> u8 {
    eprintln!("error: query is not built yet");
    2
}

pub fn run_check(_args: &CheckArgs) -> u8 {
    eprintln!("error: check is not built yet");
    2
}

pub fn run_trace(_args: &TraceArgs) -> u8 {
    eprintln!("error: trace is not built yet");
    2
}

pub fn run_render(args: &RenderArgs) -> u8 {
    crate::app::render_png(args)
}

pub fn run_window(scene: Option<PathBuf>) -> u8 {
    crate::app::run_window(scene)
}
