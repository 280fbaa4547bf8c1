//! `collision-lab scan ... --plot FILE.png`: the Scan window's plot ([`ui::scan::plot`]) drawn
//! on its own in a picture window (as `render` draws a scene) and written as a PNG, with a
//! title line, the bands' key and the events under it. Needs an X server, as `render` does.

use super::render::{capture_screen, need_display, picture_window, write_png};
use super::ui;
use crate::scan::ScanOutput;
use egui_macroquad::egui;
use macroquad::prelude as mq;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};

/// The picture's size in pixels.
pub const PLOT_SIZE: (u32, u32) = (1200, 720);

/// Frames drawn before the picture is taken: egui lays out and loads its fonts first.
const WARM_UP_FRAMES: u32 = 4;

/// Events listed under the plot; more are counted.
const EVENTS_LISTED: usize = 12;

/// The exit status, set by the frame loop.
static STATUS: AtomicU8 = AtomicU8::new(2);

/// Draws `output`'s plot into `out`; returns the exit status (0, or 2 with a message).
pub fn write_scan_plot(output: ScanOutput, scene: &str, out: &Path) -> u8 {
    if let Err(message) = need_display() {
        eprintln!("error: --plot: {message}");
        return 2;
    }
    let title = title(&output, scene);
    macroquad::Window::from_config(
        picture_window(PLOT_SIZE),
        plot_frames(output, title, out.to_path_buf()),
    );
    STATUS.load(Ordering::SeqCst)
}

fn title(output: &ScanOutput, scene: &str) -> String {
    let s = &output.spec;
    format!(
        "{scene}: {} moved along {} from {} to {}{}, {} vs {} ({} samples, {} events)",
        s.moving,
        s.param.key(),
        s.from,
        s.to,
        match s.param.unit() {
            "" => String::new(),
            unit => format!(" {unit}"),
        },
        s.a,
        s.b,
        output.samples.len(),
        output.events.len()
    )
}

async fn plot_frames(output: ScanOutput, title: String, out: PathBuf) {
    egui_macroquad::cfg(|ctx| ctx.set_visuals(egui::Visuals::light()));
    for frame in 0..=WARM_UP_FRAMES {
        mq::clear_background(mq::WHITE);
        egui_macroquad::ui(|ctx| {
            egui::CentralPanel::default().show(ctx, |panel| page(panel, &output, &title));
        });
        egui_macroquad::draw();
        if frame == WARM_UP_FRAMES {
            let status = match write_png(&out, &capture_screen()) {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("error: {}: {e}", out.display());
                    2
                }
            };
            STATUS.store(status, Ordering::SeqCst);
            macroquad::miniquad::window::order_quit();
        }
        mq::next_frame().await;
    }
    loop {
        mq::next_frame().await;
    }
}

/// The title, the plot, the bands' key and the events.
fn page(ui: &mut egui::Ui, output: &ScanOutput, title: &str) {
    ui.heading(title);
    ui::scan::plot(ui, output, 480.0);
    ui.label(
        "Bands under the curve, top to bottom: SAT's winning axis, the contact count, the \
         manifold's feature pair (a colour per answer). Vertical lines: events.",
    );
    let param = output.spec.param.key();
    for e in output.events.iter().take(EVENTS_LISTED) {
        ui.monospace(format!(
            "{param} in [{}, {}]: {}",
            e.lo,
            e.hi,
            e.what.join(", ")
        ));
    }
    if output.events.len() > EVENTS_LISTED {
        ui.label(format!(
            "... and {} more events",
            output.events.len() - EVENTS_LISTED
        ));
    }
}
