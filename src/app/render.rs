//! `collision-lab render`: draws a scene through the window's canvas code into a PNG.

use super::camera::Camera;
use super::document::LoadedDocument;
use super::picture::Picture;
use super::session::{Analysed, Recorded, Session};
use super::workspace::{Workspace, Workspace2d};
use super::workspace3::Workspace3d;
use crate::query::Algorithm;
use glam::Vec2;
use macroquad::prelude as mq;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};

/// What to render: the command line's `render` arguments, parsed by `cli` and handed over
/// by `main` (the window does not know the command line).
#[derive(Clone, Debug, PartialEq)]
pub struct RenderOptions {
    pub scene: PathBuf,
    pub out: PathBuf,
    /// `WIDTHxHEIGHT`.
    pub size: String,
    /// `ALGORITHM:N`, e.g. `gjk:2`.
    pub step: Option<String>,
    /// Slides: every step of this algorithm, one PNG each, into the folder `out`.
    pub steps: Option<String>,
    /// With `steps`, also an animated GIF.
    pub gif: bool,
    /// The split view: the bodies on the left, A - B on the right.
    pub split: bool,
    /// Show the swept bodies at this time of the sweep.
    pub sweep_at: Option<f32>,
}

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

/// Parses `ALGORITHM:N`, e.g. `gjk:2`. Steps count from 1, as the window's timeline and
/// `trace` number them; the caller checks N against the algorithm's step count.
pub fn parse_step(text: &str) -> Result<(Algorithm, usize), String> {
    let bad = || {
        let keys = Algorithm::keys_joined();
        let keys = match keys.rsplit_once(", ") {
            Some((first, last)) => format!("{first} or {last}"),
            None => keys,
        };
        format!("--step must look like gjk:2 ({keys}), got \"{text}\"")
    };
    let (name, n) = text.split_once(':').ok_or_else(bad)?;
    let algorithm = Algorithm::from_key(&name.trim().to_ascii_lowercase()).ok_or_else(bad)?;
    let n = n.trim().parse().map_err(|_| bad())?;
    Ok((algorithm, n))
}

/// Whether a display server is reachable at all (macroquad would panic without one).
pub fn have_display() -> bool {
    super::title::display_available()
}

/// One picture of the scene (the `render` command without `--steps`).
pub fn render_picture(args: &RenderOptions) -> u8 {
    match prepare(args) {
        Ok((workspace, size, out)) => run(workspace, size, out),
        Err(message) => {
            eprintln!("error: {message}");
            2
        }
    }
}

/// A workspace ready to draw, the picture's size, and where it goes.
type Prepared = (Box<dyn Picture>, (u32, u32), PathBuf);

fn prepare(args: &RenderOptions) -> Result<Prepared, String> {
    let size = parse_size(&args.size)?;
    let step = args.step.as_deref().map(parse_step).transpose()?;
    let loaded = LoadedDocument::load(&args.scene).map_err(|e| e.to_string())?;
    // Without --step, a lesson is drawn at the step it opens on in the window.
    let lesson = match &loaded {
        LoadedDocument::Plane(doc) => &doc.meta.lesson,
        LoadedDocument::Space(doc) => &doc.meta.lesson,
    };
    let step = step.or(lesson.as_ref().and_then(|l| l.step));
    let doc = match loaded {
        LoadedDocument::Plane(doc) => doc,
        LoadedDocument::Space(doc) => {
            let mut workspace = Workspace3d::new(doc);
            workspace.set_viewport(Vec2::ZERO, Vec2::new(size.0 as f32, size.1 as f32));
            workspace.set_split(args.split);
            workspace.fit_all_if_unsaved();
            if let Some(t) = args.sweep_at {
                let t_max = workspace.doc().meta.sweep_time();
                workspace.sweep_clock.set(sweep_at(t)?, t_max);
            }
            if let Some((algorithm, n)) = step {
                show_step(workspace.session_mut(), algorithm, n)?;
            }
            need_display()?;
            return Ok((Box::new(workspace), size, args.out.clone()));
        }
    };
    let camera = Camera {
        size: Vec2::new(size.0 as f32, size.1 as f32),
        ..Camera::default()
    };
    let mut workspace = Workspace2d::new(doc, camera);
    workspace.set_split(args.split);
    if let Some(t) = args.sweep_at {
        let t_max = workspace.session.doc.meta.sweep_time();
        workspace.sweep_clock.set(sweep_at(t)?, t_max);
    }
    if let Some((algorithm, n)) = step {
        show_step(&mut workspace.session, algorithm, n)?;
    }
    need_display()?;
    Ok((Box::new(workspace), size, args.out.clone()))
}

/// `--sweep-at T`: a finite time (clamped to the sweep's interval when shown).
fn sweep_at(t: f32) -> Result<f32, String> {
    match t.is_finite() {
        true => Ok(t),
        false => Err(format!("--sweep-at must be a number, got {t}")),
    }
}

/// Shows step `n` (counted from 1, as the window's timeline and `trace` number them) of
/// `algorithm`, or says how many steps there are.
fn show_step<D: Analysed>(
    session: &mut Session<D>,
    algorithm: Algorithm,
    n: usize,
) -> Result<(), String> {
    let shown = n.checked_sub(1).ok_or(usize::MAX);
    shown
        .and_then(|k| session.show_step(algorithm, k))
        .map_err(|_| {
            let count = session.run().map_or(0, |r| r.step_count(algorithm));
            let range = match count {
                0 => "none to show".to_string(),
                _ => format!("1 to {count}, as the timeline and trace number them"),
            };
            format!(
                "--step {}:{n}: that timeline has {count} steps ({range})",
                algorithm.key()
            )
        })
}

/// An error when no display server answers (macroquad would panic).
pub fn need_display() -> Result<(), String> {
    if have_display() {
        return Ok(());
    }
    Err(format!(
        "render needs an X server and cannot open display \"{}\"; run it under xvfb-run",
        std::env::var("DISPLAY").unwrap_or_default()
    ))
}

/// A window of `size` pixels for drawing pictures, not for use.
pub fn picture_window(size: (u32, u32)) -> mq::Conf {
    mq::Conf {
        window_title: "collision-lab render".into(),
        window_width: size.0 as i32,
        window_height: size.1 as i32,
        high_dpi: false,
        window_resizable: false,
        ..Default::default()
    }
}

fn run(workspace: Box<dyn Picture>, size: (u32, u32), out: PathBuf) -> u8 {
    macroquad::Window::from_config(picture_window(size), render_frames(workspace, out));
    STATUS.load(Ordering::SeqCst)
}

async fn render_frames(mut workspace: Box<dyn Picture>, out: PathBuf) {
    for frame in 0..=WARM_UP_FRAMES {
        mq::clear_background(mq::WHITE);
        // COLLISION_LAB_UI_SCALE scales lines and labels as in the window (slides for a
        // projector).
        let size = Vec2::new(mq::screen_width(), mq::screen_height());
        workspace.draw_picture(size, super::prefs::initial_scale());
        if frame == WARM_UP_FRAMES {
            write_labels(workspace.as_ref());
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
    // Some platforms keep calling the loop until the quit is processed.
    loop {
        mq::next_frame().await;
    }
}

/// Where the picture's labels went, as JSON, when `COLLISION_LAB_LABELS_FILE` names a file
/// (the tests check that none overlap and none leaves its view).
fn write_labels(workspace: &dyn Picture) {
    let Some(path) = std::env::var_os("COLLISION_LAB_LABELS_FILE").filter(|p| !p.is_empty()) else {
        return;
    };
    let json = workspace.labels_json();
    if let Err(e) = std::fs::write(&path, json.to_string()) {
        eprintln!("warning: {}: {e}", Path::new(&path).display());
    }
}

/// A picture as the bytes of a PNG file.
pub fn png_bytes(picture: &image::RgbaImage) -> Result<Vec<u8>, String> {
    let mut bytes = std::io::Cursor::new(Vec::new());
    picture
        .write_to(&mut bytes, image::ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    Ok(bytes.into_inner())
}

/// The current framebuffer as a picture (OpenGL's rows run bottom-up, so flip them).
pub fn capture_screen() -> image::RgbaImage {
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
    image::RgbaImage::from_raw(w, h, flipped).expect("the framebuffer is w x h RGBA")
}

/// Writes a PNG through a temporary file, so a reader never sees half a picture.
pub fn write_png(path: &Path, picture: &image::RgbaImage) -> Result<(), String> {
    let temp = path.with_extension("png.tmp");
    picture
        .save_with_format(&temp, image::ImageFormat::Png)
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
        assert_eq!(parse_step("gjk:2"), Ok((Algorithm::Gjk, 2)));
        assert_eq!(parse_step("EPA:0"), Ok((Algorithm::Epa, 0)));
        assert!(parse_step("foo:1").is_err());
        assert!(parse_step("gjk").is_err());
    }
}
