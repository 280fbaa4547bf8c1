//! The 2D camera: world coordinates (y up) to screen pixels (y down) and back.

use glam::Vec2;

/// Smallest and largest zoom, in pixels per world unit.
pub const MIN_ZOOM: f32 = 1.0e-3;
pub const MAX_ZOOM: f32 = 1.0e5;

/// A view of the world on a rectangle of the screen (the canvas).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// The world point shown at the canvas centre.
    pub center: Vec2,
    /// Pixels per world unit.
    pub zoom: f32,
    /// The canvas rectangle on the screen: top-left corner and size, in pixels.
    pub origin: Vec2,
    pub size: Vec2,
}

impl Default for Camera {
    fn default() -> Self {
        Camera {
            center: Vec2::ZERO,
            zoom: 60.0,
            origin: Vec2::ZERO,
            size: Vec2::new(1280.0, 800.0),
        }
    }
}

impl Camera {
    fn canvas_center(&self) -> Vec2 {
        self.origin + 0.5 * self.size
    }

    /// World point to screen pixel. The screen's y axis points down, the world's up.
    pub fn to_screen(&self, world: Vec2) -> Vec2 {
        let d = (world - self.center) * self.zoom;
        self.canvas_center() + Vec2::new(d.x, -d.y)
    }

    /// Screen pixel to world point.
    pub fn to_world(&self, screen: Vec2) -> Vec2 {
        let d = screen - self.canvas_center();
        self.center + Vec2::new(d.x, -d.y) / self.zoom
    }

    /// A world direction as a screen direction (y flipped, not scaled).
    pub fn dir_to_screen(&self, d: Vec2) -> Vec2 {
        Vec2::new(d.x, -d.y)
    }

    /// Moves the view so the world follows a screen drag of `delta` pixels.
    pub fn pan_pixels(&mut self, delta: Vec2) {
        self.center -= Vec2::new(delta.x, -delta.y) / self.zoom;
    }

    /// Zooms by `factor` keeping the world point under `screen` fixed.
    pub fn zoom_at(&mut self, screen: Vec2, factor: f32) {
        let before = self.to_world(screen);
        self.zoom = (self.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
        let after = self.to_world(screen);
        self.center += before - after;
    }

    /// Frames the world box `[min, max]` with a margin of `margin` (fraction of the canvas).
    pub fn fit(&mut self, min: Vec2, max: Vec2, margin: f32) {
        if !(min.is_finite() && max.is_finite()) || min.cmpgt(max).any() {
            return;
        }
        let extent = (max - min).max(Vec2::splat(1.0e-3));
        let usable = self.size * (1.0 - 2.0 * margin);
        let zoom = (usable.x / extent.x).min(usable.y / extent.y);
        self.center = 0.5 * (min + max);
        self.zoom = zoom.clamp(MIN_ZOOM, MAX_ZOOM);
    }

    /// Shows the world rectangle `extent` (width, height) centred on `center` as large as
    /// the canvas allows: the largest zoom at which all of it is visible (a saved view).
    pub fn fit_region(&mut self, center: Vec2, extent: Vec2) {
        if !(center.is_finite() && extent.is_finite()) || extent.cmple(Vec2::ZERO).any() {
            return;
        }
        let zoom = (self.size.x / extent.x).min(self.size.y / extent.y);
        self.center = center;
        self.zoom = zoom.clamp(MIN_ZOOM, MAX_ZOOM);
    }

    /// The world box the canvas shows.
    pub fn visible_world(&self) -> (Vec2, Vec2) {
        let a = self.to_world(self.origin);
        let b = self.to_world(self.origin + self.size);
        (a.min(b), a.max(b))
    }

    /// Whether a screen pixel lies on the canvas.
    pub fn contains_screen(&self, p: Vec2) -> bool {
        p.cmpge(self.origin).all() && p.cmplt(self.origin + self.size).all()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_y_up() {
        let cam = Camera::default();
        let p = Vec2::new(1.5, -2.0);
        assert!((cam.to_world(cam.to_screen(p)) - p).length() < 1e-4);
        // A world point above the centre is drawn above it on the screen.
        assert!(cam.to_screen(Vec2::Y).y < cam.to_screen(Vec2::ZERO).y);
    }

    #[test]
    fn zoom_keeps_the_point_under_the_cursor() {
        let mut cam = Camera::default();
        let cursor = Vec2::new(900.0, 200.0);
        let before = cam.to_world(cursor);
        cam.zoom_at(cursor, 1.7);
        assert!((cam.to_world(cursor) - before).length() < 1e-4);
    }

    #[test]
    fn a_region_fills_the_canvas_in_its_tighter_direction() {
        // 4 x 2 units on 800 x 600 pixels: 800 / 4 = 200 px/unit across, 600 / 2 = 300
        // up; the smaller, 200, shows all of it: the full width, and 600 / 200 = 3 units
        // tall, centred, so y from -2 - 1.5 to -2 + 1.5.
        let mut cam = Camera {
            size: Vec2::new(800.0, 600.0),
            ..Camera::default()
        };
        cam.fit_region(Vec2::new(1.0, -2.0), Vec2::new(4.0, 2.0));
        assert_eq!(cam.zoom, 200.0);
        assert_eq!(cam.center, Vec2::new(1.0, -2.0));
        let (lo, hi) = cam.visible_world();
        assert!((lo - Vec2::new(-1.0, -3.5)).length() < 1e-5, "{lo}");
        assert!((hi - Vec2::new(3.0, -0.5)).length() < 1e-5, "{hi}");
        // A tall canvas: 300 x 900 gives 300 / 4 = 75 across, 900 / 2 = 450 up: 75.
        cam.size = Vec2::new(300.0, 900.0);
        cam.fit_region(Vec2::ZERO, Vec2::new(4.0, 2.0));
        assert_eq!(cam.zoom, 75.0);
        // A degenerate region leaves the view as it was.
        cam.fit_region(Vec2::ZERO, Vec2::new(0.0, 2.0));
        assert_eq!(cam.zoom, 75.0);
    }

    #[test]
    fn fit_shows_the_box() {
        let mut cam = Camera::default();
        cam.fit(Vec2::new(-10.0, -1.0), Vec2::new(30.0, 2.0), 0.05);
        let (lo, hi) = cam.visible_world();
        assert!(lo.x <= -10.0 && hi.x >= 30.0 && lo.y <= -1.0 && hi.y >= 2.0);
    }
}
