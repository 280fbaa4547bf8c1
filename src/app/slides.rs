//! Slides: one picture per step of an algorithm's timeline, each captioned with the step's
//! sentence, for a lecture or a handout. `collision-lab render SCENE --steps ALG --out DIR/`
//! writes them (and with `--gif` an animated GIF of them); File > Export slides does the same
//! in the window for the timeline's algorithm, one slide a frame.
//!
//! The steps are the timeline's (`Analysis::step_count`, the same count `trace` prints and
//! the window's timeline shows); slide `k` (from 1) is named `ALG-k.png`, `k` padded to the
//! width of the count so the files sort in step order.

use super::document::LoadedDocument;
use super::files::prepare_folder;
use super::picture::Picture;
use super::render::{capture_screen, need_display, parse_size, picture_window, write_png};
use super::workspace::{Workspace, Workspace2d};
use super::workspace3::Workspace3d;
use crate::query::Algorithm;
use glam::Vec2;
use macroquad::prelude as mq;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};

/// Seconds each slide shows in the animated GIF.
const GIF_SECONDS_PER_SLIDE: u32 = 2;

/// The GIF encoder's colour quantizer speed, 1 (best) to 30 (fastest): the slides are flat
/// colours on white, which even the fastest setting keeps.
const GIF_SPEED: i32 = 20;

/// Frames drawn before the first slide: the first frames may still be setting up fonts.
const WARM_UP_FRAMES: u32 = 3;

/// The exit status of `render --steps`, set by its frame loop.
static STATUS: AtomicU8 = AtomicU8::new(2);

/// Reads the `--steps` value: an algorithm that records steps.
pub fn parse_algorithm(text: &str) -> Result<Algorithm, String> {
    let stepped: Vec<&str> = Algorithm::ALL
        .iter()
        .filter(|a| **a != Algorithm::Minkowski)
        .map(|a| a.key())
        .collect();
    let bad = || {
        format!(
            "--steps must name an algorithm with steps ({}), got \"{text}\"",
            stepped.join(", ")
        )
    };
    let a = Algorithm::from_key(&text.trim().to_ascii_lowercase()).ok_or_else(bad)?;
    if a == Algorithm::Minkowski {
        return Err(bad());
    }
    Ok(a)
}

/// The file name of slide `k` (from 0) of `count`: `gjk-03.png` for the third of 12.
pub fn slide_name(algorithm: Algorithm, k: usize, count: usize) -> String {
    let width = count.max(1).to_string().len();
    format!("{}-{:0width$}.png", algorithm.key(), k + 1)
}

/// An export in progress: which algorithm, where, and the next step to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Slides {
    pub algorithm: Algorithm,
    pub dir: PathBuf,
    pub count: usize,
    next: usize,
    /// The timeline's algorithm and step before the export, put back when it ends.
    before: Option<(Algorithm, usize)>,
}

impl Slides {
    /// Slides of `algorithm` for the workspace's focused pair, named for `dir` (which the
    /// caller made ready: [`prepare_folder`], or the window's platform).
    pub fn start(w: &mut dyn Picture, algorithm: Algorithm, dir: &Path) -> Result<Slides, String> {
        let timeline = w.timeline();
        let before = timeline
            .timeline_position()
            .map(|(_, k)| (timeline.timeline(), k));
        let count = w.step_count(algorithm);
        if count == 0 {
            return Err(format!(
                "{} has no steps for the focused pair of {}: no slides to write",
                algorithm.title(),
                w.name()
            ));
        }
        Ok(Slides {
            algorithm,
            dir: dir.to_path_buf(),
            count,
            next: 0,
            before,
        })
    }

    /// Draws the next slide over the whole window (the canvas with the step's sentence as
    /// its caption); returns its path and picture for the caller to store, `None` once all
    /// are done.
    pub fn draw_next(
        &mut self,
        w: &mut dyn Picture,
        scale: f32,
    ) -> Result<Option<(PathBuf, image::RgbaImage)>, String> {
        if self.next >= self.count {
            return Ok(None);
        }
        let k = self.next;
        self.next += 1;
        draw_step(w, self.algorithm, k, scale)?;
        let picture = capture_screen();
        let path = self.dir.join(slide_name(self.algorithm, k, self.count));
        Ok(Some((path, picture)))
    }

    /// Whether every slide was written.
    pub fn done(&self) -> bool {
        self.next >= self.count
    }

    /// Puts the timeline back where it was before the export.
    pub fn restore(&self, w: &mut dyn Picture) {
        if let Some((a, k)) = self.before {
            w.timeline().choose_timeline(a);
            w.timeline().select_step(k);
        }
    }
}

/// Step `k` of `algorithm` drawn over the whole window, its sentence in the strip below.
fn draw_step(
    w: &mut dyn Picture,
    algorithm: Algorithm,
    k: usize,
    scale: f32,
) -> Result<(), String> {
    w.show_step(algorithm, k)
        .map_err(|n| format!("{} has {n} steps, not {}", algorithm.title(), k + 1))?;
    mq::clear_background(mq::WHITE);
    w.draw_picture(Vec2::new(mq::screen_width(), mq::screen_height()), scale);
    Ok(())
}

/// `collision-lab render SCENE --steps ALG --out DIR/ [--gif]`; returns the exit status.
pub fn render_slides(args: &super::render::RenderOptions, algorithm: &str) -> u8 {
    match prepare(args, algorithm) {
        Ok((workspace, slides, size)) => {
            let gif = args.gif;
            macroquad::Window::from_config(
                picture_window(size),
                slide_frames(workspace, slides, gif),
            );
            STATUS.load(Ordering::SeqCst)
        }
        Err(message) => {
            eprintln!("error: {message}");
            2
        }
    }
}

/// The workspace of the scene's kind, its slides, and the picture's size.
type Prepared = (Box<dyn Picture>, Slides, (u32, u32));

fn prepare(args: &super::render::RenderOptions, algorithm: &str) -> Result<Prepared, String> {
    let size = parse_size(&args.size)?;
    let algorithm = parse_algorithm(algorithm)?;
    let canvas = Vec2::new(size.0 as f32, size.1 as f32);
    let mut workspace: Box<dyn Picture> =
        match LoadedDocument::load(&args.scene).map_err(|e| e.to_string())? {
            LoadedDocument::Plane(doc) => {
                let camera = super::camera::Camera {
                    size: canvas,
                    ..Default::default()
                };
                let mut w = Workspace2d::new(doc, camera);
                w.set_split(args.split);
                Box::new(w)
            }
            LoadedDocument::Space(doc) => {
                let mut w = Workspace3d::new(doc);
                w.set_viewport(Vec2::ZERO, canvas);
                w.set_split(args.split);
                w.fit_all_if_unsaved();
                Box::new(w)
            }
        };
    let slides = Slides::start(workspace.as_mut(), algorithm, &args.out)?;
    prepare_folder(&args.out)?;
    need_display()?;
    Ok((workspace, slides, size))
}

async fn slide_frames(mut w: Box<dyn Picture>, mut slides: Slides, gif: bool) {
    let w = w.as_mut();
    for _ in 0..WARM_UP_FRAMES {
        draw_step(w, slides.algorithm, 0, 1.0).ok();
        mq::next_frame().await;
    }
    let mut pictures = Vec::new();
    let status = loop {
        match slides.draw_next(w, 1.0) {
            Ok(Some((path, picture))) => {
                if let Err(e) = write_png(&path, &picture) {
                    eprintln!("error: {}: {e}", path.display());
                    break 2;
                }
                if gif {
                    pictures.push(picture);
                }
            }
            Ok(None) => break finish(&slides, pictures, gif),
            Err(e) => {
                eprintln!("error: {e}");
                break 2;
            }
        }
        mq::next_frame().await;
    };
    STATUS.store(status, Ordering::SeqCst);
    macroquad::miniquad::window::order_quit();
    // Some platforms keep calling the loop until the quit is processed.
    loop {
        mq::next_frame().await;
    }
}

/// Writes the GIF when asked, says what was written; the exit status.
fn finish(slides: &Slides, pictures: Vec<image::RgbaImage>, gif: bool) -> u8 {
    println!(
        "wrote {} slides of {} to {} ({} to {})",
        slides.count,
        slides.algorithm.title(),
        slides.dir.display(),
        slide_name(slides.algorithm, 0, slides.count),
        slide_name(slides.algorithm, slides.count - 1, slides.count)
    );
    if !gif {
        return 0;
    }
    let path = slides.dir.join(format!("{}.gif", slides.algorithm.key()));
    match write_gif(&path, pictures) {
        Ok(()) => {
            println!("wrote {}", path.display());
            0
        }
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            2
        }
    }
}

/// An animated GIF of the slides, looping, through a temporary file.
fn write_gif(path: &Path, pictures: Vec<image::RgbaImage>) -> Result<(), String> {
    use image::codecs::gif::{GifEncoder, Repeat};
    let temp = path.with_extension("gif.tmp");
    let file = std::fs::File::create(&temp).map_err(|e| e.to_string())?;
    let mut encoder = GifEncoder::new_with_speed(std::io::BufWriter::new(file), GIF_SPEED);
    encoder
        .set_repeat(Repeat::Infinite)
        .map_err(|e| e.to_string())?;
    let delay = image::Delay::from_numer_denom_ms(GIF_SECONDS_PER_SLIDE * 1000, 1);
    let frames = pictures
        .into_iter()
        .map(|p| image::Frame::from_parts(p, 0, 0, delay));
    encoder.encode_frames(frames).map_err(|e| e.to_string())?;
    drop(encoder);
    std::fs::rename(&temp, path).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slide_names_sort_in_step_order_and_only_stepped_algorithms_are_taken() {
        assert_eq!(slide_name(Algorithm::Gjk, 0, 5), "gjk-1.png");
        assert_eq!(slide_name(Algorithm::Sat, 2, 12), "sat-03.png");
        assert_eq!(slide_name(Algorithm::Epa, 99, 100), "epa-100.png");
        assert_eq!(parse_algorithm("SAT"), Ok(Algorithm::Sat));
        let err = parse_algorithm("minkowski").unwrap_err();
        assert!(err.contains("gjk, epa, sat, clip, sweep"), "{err}");
        assert!(parse_algorithm("gjkk").is_err());
    }

    #[test]
    fn an_algorithm_without_steps_and_a_folder_that_cannot_be_made_are_refused() {
        let doc = crate::app::state::Document::parse(
            "(version: 1, bodies: [(name: \"a\", shape: Circle(radius: 1)), \
             (name: \"b\", shape: Circle(radius: 1), position: (3, 0))])",
            "still.ron",
        )
        .unwrap();
        let mut w = Workspace2d::new(doc, Default::default());
        // No velocity: the sweep records nothing (and no folder is made).
        let unused = std::env::temp_dir().join(format!("slides-unused-{}", std::process::id()));
        let err = Slides::start(&mut w, Algorithm::Sweep, &unused).unwrap_err();
        assert!(err.contains("no steps"), "{err}");
        assert!(!unused.exists());
        let file = std::env::temp_dir().join(format!("slides-file-{}", std::process::id()));
        std::fs::write(&file, b"x").unwrap();
        let err = prepare_folder(&file.join("inside")).unwrap_err();
        assert!(err.contains("cannot write slides into"), "{err}");
        let _ = std::fs::remove_file(&file);
    }
}
