//! How the window looks, as the View menu sets it.

/// Frames during which a newly opened document is fitted: egui sizes its side panels over
/// the first frames, so the canvas only settles after a few.
pub const FIT_FRAMES: u8 = 4;

pub struct ViewPrefs {
    pub ui_scale: f32,
    pub show_plots: bool,
    pub show_legend: bool,
    /// The canvas split in two: the bodies on the left, A - B on the right at the same
    /// size (otherwise A - B is drawn in the inset).
    pub split_view: bool,
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
            split_view: false,
            screenshot: false,
            pending_fit: FIT_FRAMES,
        }
    }
}

impl ViewPrefs {
    /// Splits the canvas into the bodies and A - B side by side, or goes back to the inset
    /// (the View menu's switch; the presentation mode turns it on).
    pub fn set_split_view(&mut self, on: bool) {
        self.split_view = on;
    }
}

/// The UI scale to start with: `COLLISION_LAB_UI_SCALE` when set (e.g. 2 for a projector).
fn initial_scale() -> f32 {
    std::env::var("COLLISION_LAB_UI_SCALE")
        .ok()
        .and_then(|v| v.parse::<f32>().ok())
        .filter(|v| (0.5..=4.0).contains(v))
        .unwrap_or(1.0)
}
