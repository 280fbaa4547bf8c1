//! The sweep's clock: the time `t` in [0, sweep_time] at which the Swept SAT overlay shows
//! the moving bodies, set by a slider or played. The model only: it takes the wall-clock
//! time as a number, so its rules are tested without a window.

/// Wall-clock seconds one play of the whole interval [0, sweep_time] takes, whatever its
/// length: slow enough to follow the motion in class.
pub const PLAY_SECONDS: f64 = 3.0;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Play {
    #[default]
    Paused,
    /// Asked to play; the next `advance` notes the wall-clock start.
    Starting,
    /// Playing since wall-clock time `wall`, from sweep time `from`.
    Running { wall: f64, from: f32 },
}

/// The time at which the moving bodies are shown, and whether it runs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SweepClock {
    /// The time shown; `None` until the slider or play first shows the motion.
    t: Option<f32>,
    play: Play,
}

impl SweepClock {
    /// The time to draw the moving bodies at, inside [0, t_max]; `None`: not shown.
    pub fn shown(&self, t_max: f32) -> Option<f32> {
        self.t.map(|t| clamp_time(t, t_max))
    }

    pub fn is_playing(&self) -> bool {
        self.play != Play::Paused
    }

    /// Shows the bodies at `t` (clamped to [0, t_max]) and stops playing: the slider.
    pub fn set(&mut self, t: f32, t_max: f32) {
        self.t = Some(clamp_time(t, t_max));
        self.play = Play::Paused;
    }

    /// Stops showing the moving bodies (only the ghosts at t_first and t_last stay).
    pub fn hide(&mut self) {
        self.t = None;
        self.play = Play::Paused;
    }

    /// Play or pause. Playing from the end (or from nothing shown) starts again at 0.
    pub fn toggle_play(&mut self, t_max: f32) {
        if self.is_playing() {
            self.play = Play::Paused;
            return;
        }
        let at = self.shown(t_max).unwrap_or(0.0);
        if at >= t_max {
            self.t = Some(0.0);
        } else {
            self.t = Some(at);
        }
        self.play = Play::Starting;
    }

    /// Moves the time on to wall-clock `now` (seconds) while playing; stops at t_max.
    /// Returns whether the time shown changed.
    pub fn advance(&mut self, now: f64, t_max: f32) -> bool {
        let from = self.shown(t_max).unwrap_or(0.0);
        match self.play {
            Play::Paused => false,
            Play::Starting => {
                self.play = Play::Running { wall: now, from };
                false
            }
            Play::Running { wall, from } => {
                let rate = t_max as f64 / PLAY_SECONDS;
                let t = from as f64 + (now - wall).max(0.0) * rate;
                if t >= t_max as f64 {
                    self.t = Some(t_max);
                    self.play = Play::Paused;
                } else {
                    self.t = Some(t as f32);
                }
                true
            }
        }
    }
}

/// `t` inside [0, t_max] (a NaN becomes 0).
fn clamp_time(t: f32, t_max: f32) -> f32 {
    if t.is_nan() {
        return 0.0;
    }
    t.clamp(0.0, t_max.max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slider_clamps_to_the_sweep_interval_and_pauses() {
        let mut c = SweepClock::default();
        assert_eq!(c.shown(1.0), None, "nothing shown until asked");
        c.set(0.25, 1.0);
        assert_eq!(c.shown(1.0), Some(0.25));
        c.set(7.0, 2.0);
        assert_eq!(c.shown(2.0), Some(2.0));
        c.set(-1.0, 2.0);
        assert_eq!(c.shown(2.0), Some(0.0));
        c.set(f32::NAN, 2.0);
        assert_eq!(c.shown(2.0), Some(0.0));
        // A shorter sweep after an edit keeps the time inside it.
        c.set(1.5, 2.0);
        assert_eq!(c.shown(0.5), Some(0.5));
        c.hide();
        assert_eq!(c.shown(1.0), None);
    }

    #[test]
    fn playing_runs_the_whole_interval_in_play_seconds_and_stops_at_the_end() {
        let mut c = SweepClock::default();
        c.toggle_play(2.0);
        assert!(c.is_playing());
        assert_eq!(c.shown(2.0), Some(0.0), "play from nothing starts at 0");
        assert!(!c.advance(10.0, 2.0), "the first frame notes the start");
        assert!(c.advance(10.0 + PLAY_SECONDS / 2.0, 2.0));
        assert!((c.shown(2.0).unwrap() - 1.0).abs() < 1e-6, "half way");
        c.advance(10.0 + PLAY_SECONDS * 2.0, 2.0);
        assert_eq!(c.shown(2.0), Some(2.0), "stops at t_max");
        assert!(!c.is_playing());
        // Play at the end starts again from 0.
        c.toggle_play(2.0);
        assert_eq!(c.shown(2.0), Some(0.0));
    }

    #[test]
    fn pause_keeps_the_time_and_play_resumes_from_it() {
        let mut c = SweepClock::default();
        c.set(0.5, 1.0);
        c.toggle_play(1.0);
        c.advance(0.0, 1.0);
        c.advance(PLAY_SECONDS * 0.25, 1.0);
        c.toggle_play(1.0);
        assert!(!c.is_playing());
        let t = c.shown(1.0).unwrap();
        assert!((t - 0.75).abs() < 1e-6);
        assert!(!c.advance(100.0, 1.0), "paused: nothing moves");
        assert_eq!(c.shown(1.0), Some(t));
        c.toggle_play(1.0);
        c.advance(200.0, 1.0);
        c.advance(200.0 + PLAY_SECONDS * 0.1, 1.0);
        assert!((c.shown(1.0).unwrap() - 0.85).abs() < 1e-5);
        // Touching the slider while playing pauses at the chosen time.
        c.set(0.1, 1.0);
        assert!(!c.is_playing());
        assert_eq!(c.shown(1.0), Some(0.1));
    }
}
