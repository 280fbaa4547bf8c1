//! How the window looks, as the View menu sets it.

/// Frames during which a newly opened document is fitted: egui sizes its side panels over
/// the first frames, so the canvas only settles after a few.
pub const FIT_FRAMES: u8 = 4;

pub struct ViewPrefs {
    pub ui_scale: f32,
    pub show_plots: bool,
    pub show_legend: bool,
    /// Presentation mode (F5): both side panels and the legend hidden, the canvas fitted
    /// to the whole window, for a projector.
    pub presentation: bool,
    /// The canvas split in two: the bodies on the left, A - B on the right at the same
    /// size (otherwise A - B is drawn in the inset).
    pub split_view: bool,
    /// The split as it was before presentation mode turned it on.
    pub split_before_presentation: bool,
    /// Take a screenshot after the next frame is drawn.
    pub screenshot: bool,
    /// Fit all during the next frames, once the panels have settled and the canvas size
    /// is known (for a document without a saved view).
    pub pending_fit: u8,
}

/// The preferences a new window starts with.
impl Default for ViewPrefs {
    fn default() -> ViewPrefs {
        ViewPrefs {
            ui_scale: initial_scale(),
            show_plots: false,
            show_legend: true,
            presentation: false,
            split_view: false,
            split_before_presentation: false,
            screenshot: false,
            pending_fit: FIT_FRAMES,
        }
    }
}

impl ViewPrefs {
    /// Whether the legend is drawn on the canvas.
    pub fn legend_shown(&self) -> bool {
        self.show_legend && !self.presentation
    }

    /// Splits the canvas into the bodies and A - B side by side, or goes back to the inset
    /// (the View menu's switch; the presentation mode turns it on).
    pub fn set_split_view(&mut self, on: bool) {
        self.split_view = on;
    }

    /// Presentation mode on or off. On, it hides the side panels and the legend and splits
    /// the canvas, so that A - B is as large as the bodies; off, the split goes back to what
    /// it was.
    pub fn set_presentation(&mut self, on: bool) {
        if on == self.presentation {
            return;
        }
        if on {
            self.split_before_presentation = self.split_view;
            self.split_view = true;
        } else {
            self.split_view = self.split_before_presentation;
        }
        self.presentation = on;
    }

    /// Whether the canvas is split this frame, given whether A - B has something to show
    /// (`draws_on_difference`: an overlay that draws there is on). Presentation mode gives
    /// the bodies the whole canvas when A - B would show only its origin (the timeline on
    /// contact clipping, SAT or the sweep alone), and splits again as soon as an overlay
    /// that draws there is on. The split the user asked for (V) stays as asked: at the desk
    /// the A - B half fills as overlays are switched on, without the layout jumping.
    pub fn split_shown(&self, draws_on_difference: bool) -> bool {
        self.split_view && (!self.presentation || draws_on_difference)
    }
}

/// The narrowest a side panel gets, in egui points: room for a checkbox and its name,
/// or a label and a number.
pub const PANEL_MIN_WIDTH: f32 = 150.0;

/// The widest a side panel gets, as a share of the window's width: with both open the
/// canvas keeps at least half the window.
pub const PANEL_MAX_SHARE: f32 = 0.25;

/// A side panel's width range in egui points for a window `screen_width` points wide.
pub fn panel_widths(screen_width: f32) -> (f32, f32) {
    let max = (screen_width * PANEL_MAX_SHARE).max(PANEL_MIN_WIDTH);
    (PANEL_MIN_WIDTH, max)
}

/// The window's first size: 1440x900, or the screen when that is smaller (a 1280x720
/// projector), so that nothing starts off screen.
pub fn initial_window_size(screen: Option<(u32, u32)>) -> (i32, i32) {
    let (w, h) = (1440, 900);
    match screen {
        Some((sw, sh)) if sw >= 320 && sh >= 240 => (w.min(sw as i32), h.min(sh as i32)),
        _ => (w, h),
    }
}

/// The UI scale to start with: `COLLISION_LAB_UI_SCALE` when set (e.g. 2 for a projector).
pub fn initial_scale() -> f32 {
    std::env::var("COLLISION_LAB_UI_SCALE")
        .ok()
        .and_then(|v| v.parse::<f32>().ok())
        .filter(|v| (0.5..=4.0).contains(v))
        .unwrap_or(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_panels_leave_the_canvas_half_the_window_at_scale_1() {
        // 1280 px at scale 1 is 1280 points: two panels of at most 320.
        let (min, max) = panel_widths(1280.0);
        assert_eq!((min, max), (150.0, 320.0));
        assert!(1280.0 - 2.0 * max >= 640.0);
        // At scale 2 the window is 640 points wide: panels stay readable, the canvas keeps
        // half.
        let (min, max) = panel_widths(640.0);
        assert_eq!((min, max), (150.0, 160.0));
        assert!(640.0 - 2.0 * max >= 320.0);
    }

    #[test]
    fn presentation_mode_splits_the_canvas_and_gives_the_split_back() {
        let mut p = ViewPrefs::default();
        p.set_presentation(true);
        assert!(p.presentation && p.split_view && !p.legend_shown());
        p.set_presentation(false);
        assert!(!p.presentation && !p.split_view && p.legend_shown());
        // A split chosen before stays after.
        p.set_split_view(true);
        p.set_presentation(true);
        p.set_presentation(false);
        assert!(p.split_view);
    }

    #[test]
    fn presentation_mode_splits_only_when_a_minus_b_has_something_to_show() {
        let mut p = ViewPrefs::default();
        p.set_presentation(true);
        assert!(!p.split_shown(false), "the bodies take the whole canvas");
        assert!(p.split_shown(true), "split again once A - B has something");
        p.set_presentation(false);
        assert!(
            !p.split_shown(true) && !p.split_shown(false),
            "no split asked"
        );
        // The split asked for with V stays, with or without anything on A - B.
        p.set_split_view(true);
        assert!(p.split_shown(false) && p.split_shown(true));
    }

    #[test]
    fn the_first_window_fits_a_small_screen() {
        assert_eq!(initial_window_size(Some((1280, 720))), (1280, 720));
        assert_eq!(initial_window_size(Some((2560, 1440))), (1440, 900));
        assert_eq!(initial_window_size(None), (1440, 900));
        assert_eq!(initial_window_size(Some((0, 0))), (1440, 900));
    }
}
