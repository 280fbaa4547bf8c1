//! Idle frames: when nothing changes (no input, no playback, no file change, nothing egui
//! is animating) the window stops building its panels and drawing the canvas, shows the
//! last frame again and sleeps briefly between frames. macroquad clears the screen every
//! frame, so the last full frame is kept as a texture and drawn back.
//!
//! [`IdleRule`] is the decision alone (no window), so its unit tests run headless;
//! [`Idle`] adds the input listener and the kept frame.

use macroquad::miniquad;
use macroquad::prelude as mq;

/// Full frames drawn after the last reason to draw, before the window goes idle: egui
/// settles a layout change (a menu closing, a panel resizing) over a couple of frames.
pub const SETTLE_FRAMES: u8 = 3;

/// How long an idle frame sleeps: the first input after a pause is seen within this. After
/// a second of idleness the window sleeps longer (a person rarely notices 0.1 s before
/// the first frame that answers a click; every later frame is full).
pub const IDLE_SLEEP: std::time::Duration = std::time::Duration::from_millis(40);
pub const LONG_IDLE_SLEEP: std::time::Duration = std::time::Duration::from_millis(100);
const LONG_IDLE_AFTER: u32 = 25;

/// What may need a full frame now.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wake {
    /// Input arrived since the last frame (pointer, keys, wheel, resize, dropped files).
    pub input: bool,
    /// Playback is running.
    pub playing: bool,
    /// egui asked to be repainted (an animation, a tooltip's delay).
    pub egui: bool,
    /// The state changed without input (a file reloaded, a dialog answered), or a change
    /// is due (a status message expiring, a pending fit or screenshot).
    pub changed: bool,
}

impl Wake {
    fn any(&self) -> bool {
        self.input || self.playing || self.egui || self.changed
    }
}

/// Whether each frame is drawn in full, and which full frame to keep for the idle ones.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct IdleRule {
    /// Full frames drawn since the last reason to draw.
    quiet: u8,
}

/// What to do with one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// Build the panels and draw everything.
    Full,
    /// Draw everything, then keep the picture: the frames after it are idle.
    FullThenKeep,
    /// Show the kept picture and sleep.
    Idle,
}

impl IdleRule {
    pub fn next(&mut self, wake: Wake) -> FrameKind {
        if wake.any() {
            self.quiet = 0;
            return FrameKind::Full;
        }
        match self.quiet {
            q if q + 1 < SETTLE_FRAMES => {
                self.quiet += 1;
                FrameKind::Full
            }
            q if q + 1 == SETTLE_FRAMES => {
                self.quiet += 1;
                FrameKind::FullThenKeep
            }
            _ => FrameKind::Idle,
        }
    }
}

/// Notes whether any input event arrived (macroquad repeats every event to subscribers),
/// where the first button press of the batch was, and the wheel steps of the whole batch
/// (`mq::mouse_wheel` keeps only the last event's, so two clicks of the wheel in one slow
/// frame would zoom once).
struct InputSeen(bool, Option<mq::Vec2>, f32);

impl miniquad::EventHandler for InputSeen {
    fn update(&mut self) {}
    fn draw(&mut self) {}
    fn resize_event(&mut self, _: f32, _: f32) {
        self.0 = true;
    }
    fn mouse_motion_event(&mut self, _: f32, _: f32) {
        self.0 = true;
    }
    fn mouse_wheel_event(&mut self, _: f32, y: f32) {
        self.0 = true;
        self.2 += y;
    }
    fn mouse_button_down_event(&mut self, _: miniquad::MouseButton, x: f32, y: f32) {
        self.0 = true;
        let dpi = miniquad::window::dpi_scale();
        self.1.get_or_insert(mq::vec2(x, y) / dpi);
    }
    fn mouse_button_up_event(&mut self, _: miniquad::MouseButton, _: f32, _: f32) {
        self.0 = true;
    }
    fn char_event(&mut self, _: char, _: miniquad::KeyMods, _: bool) {
        self.0 = true;
    }
    fn key_down_event(&mut self, _: miniquad::KeyCode, _: miniquad::KeyMods, _: bool) {
        self.0 = true;
    }
    fn key_up_event(&mut self, _: miniquad::KeyCode, _: miniquad::KeyMods) {
        self.0 = true;
    }
    fn touch_event(&mut self, _: miniquad::TouchPhase, _: u64, _: f32, _: f32) {
        self.0 = true;
    }
    fn files_dropped_event(&mut self) {
        self.0 = true;
    }
    fn window_restored_event(&mut self) {
        self.0 = true;
    }
    fn quit_requested_event(&mut self) {
        self.0 = true;
    }
}

/// The window's idle state: the rule, the input listener and the kept frame.
pub struct Idle {
    pub rule: IdleRule,
    subscriber: usize,
    kept: Option<mq::Texture2D>,
    /// Idle frames since the last full one.
    idle_frames: u32,
    /// Where a button went down in this frame's input, in the units of
    /// `mq::mouse_position`.
    pressed_at: Option<mq::Vec2>,
    /// The vertical wheel steps of this frame's input, summed.
    wheel: f32,
}

impl Idle {
    /// Starts listening to input (call once the window exists).
    pub fn listening() -> Idle {
        Idle {
            rule: IdleRule::default(),
            subscriber: mq::utils::register_input_subscriber(),
            kept: None,
            idle_frames: 0,
            pressed_at: None,
            wheel: 0.0,
        }
    }

    /// Whether input arrived since the last call.
    pub fn input_arrived(&mut self) -> bool {
        let mut seen = InputSeen(false, None, 0.0);
        mq::utils::repeat_all_miniquad_input(&mut seen, self.subscriber);
        self.pressed_at = seen.1;
        self.wheel = seen.2;
        seen.0
    }

    /// The vertical wheel steps of this frame's input, all of them (positive away from the
    /// user).
    pub fn wheel(&self) -> f32 {
        self.wheel
    }

    /// Where a button went down in this frame's input. After an idle sleep the press and
    /// the first moves of a drag may arrive in one frame; the press belongs where it
    /// happened, not where the pointer went next.
    pub fn pressed_at(&self) -> Option<glam::Vec2> {
        self.pressed_at.map(|p| glam::Vec2::new(p.x, p.y))
    }

    /// Keeps the picture just drawn (call after everything is drawn, before the frame
    /// ends).
    pub fn keep_frame(&mut self) {
        let mut shot = mq::get_screen_data();
        // The framebuffer's alpha is not part of the picture (translucent label backings
        // leave it below 1): drawn back with blending it would darken them.
        for px in shot.bytes.chunks_exact_mut(4) {
            px[3] = 255;
        }
        let texture = mq::Texture2D::from_image(&shot);
        texture.set_filter(mq::FilterMode::Nearest);
        self.kept = Some(texture);
        self.idle_frames = 0;
    }

    /// Shows the kept picture again; without one, asks for a full frame.
    pub fn show_kept(&mut self) -> bool {
        let Some(texture) = &self.kept else {
            return false;
        };
        let size = mq::vec2(mq::screen_width(), mq::screen_height());
        mq::draw_texture_ex(
            texture,
            0.0,
            0.0,
            mq::WHITE,
            mq::DrawTextureParams {
                dest_size: Some(size),
                // The screen's rows come bottom-up from OpenGL.
                flip_y: true,
                ..Default::default()
            },
        );
        self.idle_frames += 1;
        true
    }

    /// How long to rest after an idle frame (the platform sleeps, where it can).
    pub fn rest_time(&self) -> std::time::Duration {
        if self.idle_frames > LONG_IDLE_AFTER {
            LONG_IDLE_SLEEP
        } else {
            IDLE_SLEEP
        }
    }

    /// Forgets the kept picture (the next frames are full).
    pub fn drop_kept(&mut self) {
        self.kept = None;
        self.idle_frames = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(rule: &mut IdleRule, wakes: &[Wake]) -> Vec<FrameKind> {
        wakes.iter().map(|w| rule.next(*w)).collect()
    }

    #[test]
    fn after_the_last_input_a_few_full_frames_then_idle() {
        let mut rule = IdleRule::default();
        let input = Wake {
            input: true,
            ..Wake::default()
        };
        let quiet = Wake::default();
        let kinds = run(&mut rule, &[input, quiet, quiet, quiet, quiet, quiet]);
        assert_eq!(
            kinds,
            [
                FrameKind::Full,
                FrameKind::Full,
                FrameKind::Full,
                FrameKind::FullThenKeep,
                FrameKind::Idle,
                FrameKind::Idle
            ]
        );
        // Any reason to draw wakes it at once.
        for wake in [
            input,
            Wake {
                playing: true,
                ..quiet
            },
            Wake {
                egui: true,
                ..quiet
            },
            Wake {
                changed: true,
                ..quiet
            },
        ] {
            assert_eq!(rule.next(wake), FrameKind::Full, "{wake:?}");
            run(&mut rule, &[quiet; 5]);
            assert_eq!(rule.next(quiet), FrameKind::Idle);
        }
    }

    #[test]
    fn playback_never_goes_idle() {
        let mut rule = IdleRule::default();
        let playing = Wake {
            playing: true,
            ..Wake::default()
        };
        assert!(run(&mut rule, &[playing; 20])
            .iter()
            .all(|k| *k == FrameKind::Full));
    }

    #[test]
    fn a_new_window_draws_in_full_before_it_keeps_a_frame() {
        let mut rule = IdleRule::default();
        let kinds = run(&mut rule, &[Wake::default(); SETTLE_FRAMES as usize]);
        assert_eq!(kinds.last(), Some(&FrameKind::FullThenKeep));
        assert!(kinds[..kinds.len() - 1]
            .iter()
            .all(|k| *k == FrameKind::Full));
    }
}
