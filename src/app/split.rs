//! The split view: the bodies on the left half of the canvas, the Minkowski difference
//! A - B on the right half at the same size, each half with its own camera (panned and
//! zoomed independently). The A - B half frames A - B, every step recorded in it and its
//! origin by itself until the user pans or zooms it; "Fit all" hands it back.
//!
//! This file holds the model (which half is where, the A - B camera and who frames it) and
//! draws nothing; `canvas.rs` draws both halves.

use super::camera::Camera;
use glam::Vec2;

/// Logical pixels between the two halves (times the UI scale).
pub const GAP: f32 = 6.0;

/// Where a canvas rectangle's halves are: `(origin, size)` of each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Halves {
    pub left: (Vec2, Vec2),
    pub right: (Vec2, Vec2),
}

/// Splits the canvas `origin, size` into two equal halves side by side, `gap` pixels apart.
/// Each half keeps at least one pixel, so a tiny canvas still yields valid cameras.
pub fn halves(origin: Vec2, size: Vec2, gap: f32) -> Halves {
    let gap = gap.clamp(0.0, (size.x - 2.0).max(0.0));
    let w = ((size.x - gap) * 0.5).max(1.0);
    let h = size.y.max(1.0);
    Halves {
        left: (origin, Vec2::new(w, h)),
        right: (Vec2::new(origin.x + size.x - w, origin.y), Vec2::new(w, h)),
    }
}

/// The split view's state, owned by the 2D workspace.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SplitView {
    /// Whether the canvas is split (otherwise A - B is drawn in the inset).
    pub on: bool,
    /// The camera on A - B; its rectangle is the right half.
    pub camera: Camera,
    /// Set once the user pans or zooms the A - B half: it then stays where they put it
    /// instead of following A - B as the bodies move.
    pub user_framed: bool,
    /// The split was switched since the last viewport: both halves are re-fitted then.
    pub needs_fit: bool,
}

impl SplitView {
    /// Switches the split on or off; the next viewport re-fits both halves.
    pub fn set(&mut self, on: bool) {
        if self.on != on {
            self.on = on;
            self.needs_fit = true;
            self.user_framed = false;
        }
    }

    /// Frames the box `lo..hi` (A - B and its origin) unless the user framed the view.
    pub fn follow(&mut self, lo: Vec2, hi: Vec2) {
        if !self.user_framed {
            self.camera.fit(lo, hi, FIT_MARGIN);
        }
    }

    /// Pans the A - B half by a screen drag; from then on it stays where the user put it.
    pub fn pan_pixels(&mut self, delta: Vec2) {
        self.user_framed = true;
        self.camera.pan_pixels(delta);
    }

    /// Zooms the A - B half about a screen point; from then on it stays where the user put
    /// it.
    pub fn zoom_at(&mut self, screen: Vec2, factor: f32) {
        self.user_framed = true;
        self.camera.zoom_at(screen, factor);
    }

    /// Whether a screen point lies on the A - B half.
    pub fn contains_screen(&self, p: Vec2) -> bool {
        self.on && self.camera.contains_screen(p)
    }
}

/// Margin around A - B in its half, as a fraction of the half (the inset uses the same).
pub const FIT_MARGIN: f32 = 0.16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_are_equal_side_by_side_and_fill_the_canvas() {
        let h = halves(Vec2::new(100.0, 30.0), Vec2::new(806.0, 500.0), 6.0);
        assert_eq!(h.left.0, Vec2::new(100.0, 30.0));
        assert_eq!(h.left.1, Vec2::new(400.0, 500.0));
        assert_eq!(h.right.1, h.left.1, "equal size");
        assert_eq!(h.right.0, Vec2::new(506.0, 30.0));
        // The right half ends where the canvas ends, the gap sits between the halves.
        assert_eq!(h.right.0.x + h.right.1.x, 906.0);
        assert_eq!(h.right.0.x - (h.left.0.x + h.left.1.x), 6.0);
    }

    #[test]
    fn a_tiny_canvas_still_gives_two_cameras_of_at_least_a_pixel() {
        let h = halves(Vec2::ZERO, Vec2::new(3.0, 0.0), 6.0);
        assert!(h.left.1.x >= 1.0 && h.right.1.x >= 1.0);
        assert!(h.left.1.y >= 1.0 && h.right.1.y >= 1.0);
        assert!(h.right.0.x + h.right.1.x <= 3.0 + 1e-6);
    }

    #[test]
    fn the_difference_half_follows_until_the_user_pans_or_zooms_it() {
        let mut s = SplitView::default();
        s.set(true);
        assert!(s.needs_fit && s.on);
        s.follow(Vec2::new(-1.0, -1.0), Vec2::new(3.0, 1.0));
        assert_eq!(s.camera.center, Vec2::new(1.0, 0.0));
        s.pan_pixels(Vec2::new(10.0, 0.0));
        let framed = s.camera;
        s.follow(Vec2::new(-5.0, -5.0), Vec2::new(5.0, 5.0));
        assert_eq!(s.camera, framed, "a panned view stays put");
        // Switching off and on again hands the framing back.
        s.set(false);
        s.set(true);
        s.follow(Vec2::new(-5.0, -5.0), Vec2::new(5.0, 5.0));
        assert_eq!(s.camera.center, Vec2::ZERO);
        assert!(!s.contains_screen(Vec2::new(-1.0e6, 0.0)));
    }
}
