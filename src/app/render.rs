//! `collision-lab render`: draws a scene through the window's canvas code into a PNG.

use super::camera::Camera;
use super::canvas::{draw_canvas, overlay_index, CanvasInput};
use super::labs::overlay_from_key;
use super::session::Session;
use super::state::Document;
use crate::cli::RenderArgs;
use crate::scene::{load_scene_file, Overlay};
use glam::Vec2;
use macroquad::prelude as mq;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};

/// Frames drawn before the capture: the first frames may still be setting up fonts.
const WARM_UP_FRAMES: u32 = 3;

/// The exit status set by the render future, read after the window closes.
static STATUS: AtomicU8 = AtomicU8::new(2);

/// Parses `WIDTHxHEIGHT`.
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--size must look like 1280x800, got \"{text}\"");
    let lower = text.to_ascii_lowercase();
    let (w, h) = lower.split_once('x').ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if !(16..=8192).contains(&w) || !(16..=8192).contains(&h) {
        return Err(format!(
            "--size must be between 16x16 and 8192x8192, got {w}x{h}"
        ));
    }
    Ok((w, h))
}

/// Parses `ALGORITHM:N`, e.g. `gjk:2` (steps count from 0).
pub fn parse_step(text: &str) -> Result<(Overlay, usize), String> {
    let bad = || {
        format!(
            "--step must look like gjk:2 (minkowski, gjk, epa, sat, clip or sweep), got \"{text}\""
        )
    };
    let (name, n) = text.split_once(':').ok_or_else(bad)?;
    let overlay = overlay_from_key(name.trim()).ok_or_else(bad)?;
    let n = n.trim().parse().map_err(|_| bad())?;
    Ok((overlay, n))
}

/// Whether a display server is reachable at all (macroquad would panic without one).
pub fn have_display() -> bool {
    super::title::display_available()
}

pub fn render_png(args: &RenderArgs) -> u8 {
    match prepare(args) {
        Ok((session, size, out)) => run(session, size, out),
        Err(message) => {
            eprintln!("error: {message}");
            2
        }
    }
}

fn prepare(args: &RenderArgs) -> Result<(Session, (u32, u32), PathBuf), String> {
    let size = parse_size(&args.size)?;
    let step = args.step.as_deref().map(parse_step).transpose()?;
    let (scene, bodies) = load_scene_file(&args.scene).map_err(|e| e.to_string())?;
    let mut doc = Document::from_parts(scene, bodies);
    doc.path = Some(args.scene.clone());
    let camera = Camera {
        size: Vec2::new(size.0 as f32, size.1 as f32),
        ..Camera::default()
    };
    let mut session = Session::new(doc, camera);
    if let Some((overlay, n)) = step {
        apply_step(&mut session, overlay, n)?;
    }
    if !have_display() {
        return Err(format!(
            "render needs an X server and cannot open display \"{}\"; run it under xvfb-run",
            std::env::var("DISPLAY").unwrap_or_default()
        ));
    }
    Ok((session, size, args.out.clone()))
}

/// Switches the overlay on, makes it the timeline's, and selects step `n`.
fn apply_step(session: &mut Session, overlay: Overlay, n: usize) -> Result<(), String> {
    let i = overlay_index(overlay);
    session.overlays.enabled[i] = true;
    session.overlays.timeline = overlay;
    let count = match (&session.run, session.timeline_lab()) {
        (Some(run), Some(lab)) => lab.step_count(run),
        _ => 0,
    };
    if n >= count {
        return Err(format!(
            "--step {}:{n}: that timeline has {count} steps (0 to {})",
            super::labs::overlay_key(overlay),
            count.saturating_sub(1) as i64
        ));
    }
    session.overlays.steps[i] = Some(n);
    Ok(())
}

fn run(session: Session, size: (u32, u32), out: PathBuf) -> u8 {
    let conf = mq::Conf {
        window_title: "collision-lab render".into(),
        window_width: size.0 as i32,
        window_height: size.1 as i32,
        high_dpi: false,
        window_resizable: false,
        ..Default::default()
    };
    macroquad::Window::from_config(conf, render_frames(session, out));
    STATUS.load(Ordering::SeqCst)
}

async fn render_frames(mut session: Session, out: PathBuf) {
    for frame in 0..=WARM_UP_FRAMES {
        session.camera.origin = Vec2::ZERO;
        session.camera.size = Vec2::new(mq::screen_width(), mq::screen_height());
        mq::clear_background(mq::WHITE);
        let caption = session.timeline_sentence();
        draw_canvas(&CanvasInput {
            doc: &session.doc,
            run: session.run.as_ref(),
            labs: &session.labs,
            overlays: &session.overlays,
            camera: session.camera,
            scale: 1.0,
            caption,
            legend: true,
        });
        if frame == WARM_UP_FRAMES {
            let status = match save_screen(&out) {
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
    // Some platforms keep calling the loop until the quit is processed.
    loop {
        mq::next_frame().await;
    }
}

/// Writes the current framebuffer as a PNG (OpenGL's rows run bottom-up, so flip them).
pub fn save_screen(path: &Path) -> Result<(), String> {
    let shot = mq::get_screen_data();
    let (w, h) = (shot.width as u32, shot.height as u32);
    let row = w as usize * 4;
    let mut flipped = Vec::with_capacity(shot.bytes.len());
    for y in (0..h as usize).rev() {
        flipped.extend_from_slice(&shot.bytes[y * row..(y + 1) * row]);
    }
    // The framebuffer's alpha is not meaningful for a picture: make it opaque.
    for px in flipped.chunks_exact_mut(4) {
        px[3] = 255;
    }
    let temp = path.with_extension("png.tmp");
    image::save_buffer_with_format(
        &temp,
        &flipped,
        w,
        h,
        image::ColorType::Rgba8,
        image::ImageFormat::Png,
    )
    .map_err(|e| e.to_string())?;
    std::fs::rename(&temp, path).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_steps_parse() {
        assert_eq!(parse_size("1280x800"), Ok((1280, 800)));
        assert!(parse_size("1280").is_err());
        assert!(parse_size("0x10").is_err());
        assert_eq!(parse_step("gjk:2"), Ok((Overlay::Gjk, 2)));
        assert_eq!(parse_step("EPA:0"), Ok((Overlay::Epa, 0)));
        assert!(parse_step("foo:1").is_err());
        assert!(parse_step("gjk").is_err());
    }
}
