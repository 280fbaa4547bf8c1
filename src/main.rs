//! The `collision-lab` command: opens the window, or runs a headless command. This is where
//! `cli` (argument types, headless commands) and `app` (the window, `render`) meet; neither
//! imports the other.

use clap::{Parser, Subcommand};
use collision_lab::{app, cli};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "collision-lab",
    version,
    about = "A sandbox for narrow-phase collision detection: GJK, EPA, SAT, clipping and swept SAT, step by step, in 2D and 3D, in the window and from the command line."
)]
struct Args {
    /// A scene file to open in the window (default: the built-in welcome scene).
    scene: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Print every algorithm's results for each pair of bodies (or one pair).
    Query(cli::QueryArgs),
    /// Check the `expect` blocks of scene files (default: scenes/).
    Check(cli::CheckArgs),
    /// Print the recorded steps of one algorithm, with explanations.
    Trace(cli::TraceArgs),
    /// Move one body of a pair along one pose parameter and find where the answers flip
    /// (winning axis, feature pair, contacts, normal, ...), each flip narrowed by bisection.
    Scan(cli::ScanArgs),
    /// Draw a scene with its overlays to a PNG file, or one PNG per step with --steps
    /// (needs an X server; xvfb-run works).
    Render(cli::RenderArgs),
    /// Print the share link for a scene file (opens the scene in the browser build).
    Link(cli::LinkArgs),
    /// Write the scene in a share link to a file (or print it).
    OpenLink(cli::OpenLinkArgs),
}

/// A headless command whose reader goes away (`collision-lab query … | head -1`) ends
/// quietly, as Unix tools do, instead of panicking in `println!` on the broken pipe: the
/// Rust runtime ignores SIGPIPE, so this puts back the default action (end the process).
/// Only for headless commands; the window never writes to a pipe it depends on.
#[cfg(unix)]
fn end_quietly_on_a_closed_pipe() {
    // SAFETY: resetting one signal's disposition to the default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn end_quietly_on_a_closed_pipe() {}

fn main() -> ExitCode {
    let args = Args::parse();
    if args.command.is_some() {
        end_quietly_on_a_closed_pipe();
    }
    let code = match args.command {
        Some(Command::Query(q)) => cli::run_query(&q),
        Some(Command::Check(c)) => cli::run_check(&c),
        Some(Command::Trace(t)) => cli::run_trace(&t),
        Some(Command::Scan(s)) => cli::run_scan(&s, app::write_scan_plot),
        Some(Command::Link(l)) => cli::run_link(&l),
        Some(Command::OpenLink(o)) => cli::run_open_link(&o),
        Some(Command::Render(r)) => app::render_png(&app::RenderOptions {
            scene: r.scene,
            out: r.out,
            size: r.size,
            step: r.step,
            steps: r.steps,
            gif: r.gif,
            split: r.split,
            sweep_at: r.sweep_at,
        }),
        None => app::run_window(args.scene),
    };
    ExitCode::from(code)
}
