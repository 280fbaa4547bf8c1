//! The 3D orbit camera: an eye on a sphere about a target point, looking at it.
//!
//! Conventions (said once here, used by the whole 3D view):
//! - The world is right-handed with y up, in world units.
//! - `yaw` and `pitch` are radians. The eye sits at `target + distance * d` with
//!   `d = (cos pitch sin yaw, sin pitch, cos pitch cos yaw)`: yaw 0, pitch 0 puts the eye on
//!   +z looking along -z (the front view); yaw grows from +z toward +x; pitch grows upward.
//! - The viewport (the canvas) is a rectangle of the screen in macroquad's screen
//!   coordinates, y pointing down: top-left `origin` and `size`. These are the coordinates
//!   `draw_*` and `mouse_position` use (equal to physical pixels when the display's DPI scale
//!   is 1); [`Camera3::gl_viewport`] turns them into the framebuffer's pixels for OpenGL.
//! - The projection is OpenGL's: clip-space depth from -1 (near) to 1 (far).
//! - Orthographic shows the same visible height at the target's depth as perspective does
//!   (`2 * distance * tan(fovy / 2)`), so switching between them does not jump.

use glam::{Mat4, Vec2, Vec3, Vec4};
use std::f32::consts::FRAC_PI_4;

/// Pitch is kept within this many radians of straight up or down (89.5 degrees), so that
/// the orbit never flips over the pole.
pub const MAX_PITCH: f32 = 89.5 * std::f32::consts::PI / 180.0;

/// Closest and farthest eye-to-target distances, in world units: the scene's coordinates
/// run up to 1e6 (`geom3::MAX_COORDINATE`), and below a thousandth of a unit `f32` depth
/// loses the picture.
pub const MIN_DISTANCE: f32 = 1.0e-3;
pub const MAX_DISTANCE: f32 = 1.0e7;

/// The near and far planes as fractions of the distance. A near plane at 0.5 % of the
/// distance keeps a 24-bit depth buffer's step at the target near 1e-5 of the distance;
/// the far plane leaves a thousand distances of room behind the target (the ground grid).
const NEAR_FRACTION: f32 = 5.0e-3;
const FAR_FRACTION: f32 = 1.0e3;

/// The orthographic depth range, in distances either side of the eye: objects behind the
/// eye stay visible (an orthographic eye may sit inside the scene after zooming in), and a
/// linear depth buffer over 200 distances still resolves 1e-5 of the distance.
const ORTHO_DEPTH_FRACTION: f32 = 100.0;

/// Radians of orbit per pixel of right-drag.
const ORBIT_RADIANS_PER_PIXEL: f32 = 0.01;

/// The fraction of the viewport the fitted bounding sphere leaves free on its tightest side.
const FIT_MARGIN: f32 = 0.08;

/// The standard views.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// The eye on +z, looking along -z.
    Front,
    /// The eye above, looking down -y, with -z up on the screen.
    Top,
    /// The eye on +x, looking along -x.
    Side,
    /// The eye toward (1, 0.8, 1.4) from the target.
    ThreeQuarter,
}

impl Preset {
    /// The preset's (yaw, pitch) in radians.
    pub fn angles(self) -> (f32, f32) {
        match self {
            Preset::Front => (0.0, 0.0),
            Preset::Top => (0.0, MAX_PITCH),
            Preset::Side => (std::f32::consts::FRAC_PI_2, 0.0),
            Preset::ThreeQuarter => angles_of(Vec3::new(1.0, 0.8, 1.4)).unwrap_or((0.0, 0.0)),
        }
    }
}

/// The (yaw, pitch) of the direction from the target to the eye, pitch clamped; `None` for
/// a zero or non-finite direction.
fn angles_of(target_to_eye: Vec3) -> Option<(f32, f32)> {
    let d = target_to_eye.try_normalize()?;
    let yaw = d.x.atan2(d.z);
    let pitch = d.y.clamp(-1.0, 1.0).asin().clamp(-MAX_PITCH, MAX_PITCH);
    Some((yaw, pitch))
}

/// An orbit camera over a viewport of the screen (see the module conventions).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera3 {
    /// The point the eye looks at and orbits about.
    pub target: Vec3,
    /// Eye to target, world units.
    pub distance: f32,
    pub yaw: f32,
    pub pitch: f32,
    /// Field of view in perspective, radians, across the viewport's narrower side: the
    /// vertical one on a landscape viewport, the horizontal one on a portrait one (a split
    /// half at a large UI scale), so that a saved view (an eye and a target) shows at least
    /// this cone whatever the canvas's shape.
    pub fovy: f32,
    pub orthographic: bool,
    /// The viewport: top-left corner and size in screen coordinates, y down.
    pub origin: Vec2,
    pub size: Vec2,
}

impl Default for Camera3 {
    fn default() -> Self {
        let (yaw, pitch) = Preset::ThreeQuarter.angles();
        Camera3 {
            target: Vec3::ZERO,
            distance: 10.0,
            yaw,
            pitch,
            fovy: FRAC_PI_4,
            orthographic: false,
            origin: Vec2::ZERO,
            size: Vec2::new(1280.0, 800.0),
        }
    }
}

impl Camera3 {
    /// A camera at `eye` looking at `target`, the other fields default. When the two points
    /// coincide the default direction and distance are kept (the eye moves back from the
    /// target). A pitch beyond [`MAX_PITCH`] is clamped, so an eye straight above the target
    /// comes back half a degree off the vertical.
    pub fn from_eye_target(eye: Vec3, target: Vec3) -> Camera3 {
        let mut camera = Camera3 {
            target,
            ..Camera3::default()
        };
        if let Some((yaw, pitch)) = angles_of(eye - target) {
            camera.yaw = yaw;
            camera.pitch = pitch;
            camera.distance = (eye - target).length().clamp(MIN_DISTANCE, MAX_DISTANCE);
        }
        camera
    }

    /// The unit direction from the target to the eye.
    fn back(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        Vec3::new(cp * sy, sp, cp * cy)
    }

    pub fn eye(&self) -> Vec3 {
        self.target + self.distance * self.back()
    }

    /// The unit viewing direction, eye toward target.
    pub fn forward(&self) -> Vec3 {
        -self.back()
    }

    /// The unit screen-right direction (horizontal: it comes from the yaw alone, so it is
    /// defined even looking straight down).
    pub fn right(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        Vec3::new(cy, 0.0, -sy)
    }

    /// The unit screen-up direction: world y as seen by the camera.
    pub fn up(&self) -> Vec3 {
        self.right().cross(self.forward())
    }

    fn aspect(&self) -> f32 {
        if self.size.y > 0.0 {
            (self.size.x / self.size.y).max(1.0e-6)
        } else {
            1.0
        }
    }

    /// Half the visible height, in world units, at view depth `depth` (at every depth in
    /// orthographic).
    fn half_height_at(&self, depth: f32) -> f32 {
        let depth = if self.orthographic {
            self.distance
        } else {
            depth
        };
        depth * self.tan_half_height()
    }

    /// The tangent of half the vertical field of view: `fovy`'s on a landscape viewport,
    /// widened on a portrait one so that the horizontal field is `fovy`.
    fn tan_half_height(&self) -> f32 {
        (0.5 * self.fovy).tan() / self.aspect().min(1.0)
    }

    /// World to clip space (OpenGL convention).
    pub fn view_proj(&self) -> Mat4 {
        let view = Mat4::look_at_rh(self.eye(), self.target, self.up());
        let d = self.distance;
        let proj = if self.orthographic {
            let h = self.half_height_at(d);
            let w = h * self.aspect();
            let range = ORTHO_DEPTH_FRACTION * d;
            Mat4::orthographic_rh_gl(-w, w, -h, h, -range, range)
        } else {
            Mat4::perspective_rh_gl(
                2.0 * self.tan_half_height().atan(),
                self.aspect(),
                NEAR_FRACTION * d,
                FAR_FRACTION * d,
            )
        };
        proj * view
    }

    /// The view depth of the near clipping plane: drawn geometry must stay beyond it (in
    /// orthographic it lies behind the eye).
    pub fn near_plane(&self) -> f32 {
        if self.orthographic {
            -ORTHO_DEPTH_FRACTION * self.distance
        } else {
            NEAR_FRACTION * self.distance
        }
    }

    /// The screen point of normalized device coordinates (x, y in -1..1, y up).
    fn ndc_to_screen(&self, ndc: Vec2) -> Vec2 {
        self.origin + Vec2::new(0.5 * (ndc.x + 1.0), 0.5 * (1.0 - ndc.y)) * self.size
    }

    fn screen_to_ndc(&self, screen: Vec2) -> Vec2 {
        let t = (screen - self.origin) / self.size.max(Vec2::splat(1.0e-6));
        Vec2::new(2.0 * t.x - 1.0, 1.0 - 2.0 * t.y)
    }

    /// The screen point of a world point; `None` in perspective when the point is not in
    /// front of the near plane (behind the eye, or too close to it to draw).
    pub fn to_screen(&self, p: Vec3) -> Option<Vec2> {
        let clip = self.view_proj() * Vec4::new(p.x, p.y, p.z, 1.0);
        if !self.orthographic && clip.w <= NEAR_FRACTION * self.distance {
            return None;
        }
        let ndc = Vec2::new(clip.x, clip.y) / clip.w;
        ndc.is_finite().then(|| self.ndc_to_screen(ndc))
    }

    /// The distance of `p` in front of the eye along the viewing direction (negative
    /// behind it): the key for sorting labels far to near.
    pub fn depth_of(&self, p: Vec3) -> f32 {
        (p - self.eye()).dot(self.forward())
    }

    /// The world point shown at `screen` at view depth `depth`.
    pub fn point_at(&self, screen: Vec2, depth: f32) -> Vec3 {
        let ndc = self.screen_to_ndc(screen);
        let h = self.half_height_at(depth);
        self.eye()
            + self.forward() * depth
            + self.right() * (ndc.x * h * self.aspect())
            + self.up() * (ndc.y * h)
    }

    /// The pick ray through a screen point: its origin and unit direction. In perspective it
    /// starts at the eye; in orthographic the rays are parallel and start on the near plane,
    /// behind everything drawn.
    pub fn ray(&self, screen: Vec2) -> (Vec3, Vec3) {
        if self.orthographic {
            let back = ORTHO_DEPTH_FRACTION * self.distance;
            (self.point_at(screen, -back), self.forward())
        } else {
            let far = self.point_at(screen, self.distance);
            let eye = self.eye();
            (eye, (far - eye).normalize_or(self.forward()))
        }
    }

    /// Screen pixels per world unit at `p`'s depth (for a point at or behind the eye in
    /// perspective, the value at the near plane).
    pub fn pixels_per_unit_at(&self, p: Vec3) -> f32 {
        let depth = self.depth_of(p).max(NEAR_FRACTION * self.distance);
        self.size.y / (2.0 * self.half_height_at(depth))
    }

    /// The point under `screen` on the plane through `through` facing the camera (normal
    /// along the viewing direction): where a dragged point goes. `None` when that plane is
    /// behind the eye.
    pub fn drag_point(&self, screen: Vec2, through: Vec3) -> Option<Vec3> {
        let depth = self.depth_of(through);
        if !self.orthographic && depth <= NEAR_FRACTION * self.distance {
            return None;
        }
        Some(self.point_at(screen, depth))
    }

    /// Right-drag: turns the eye about the target, `delta_px` screen pixels of drag.
    /// Dragging right turns the world right; dragging down raises the eye.
    pub fn orbit(&mut self, delta_px: Vec2) {
        self.yaw -= delta_px.x * ORBIT_RADIANS_PER_PIXEL;
        self.yaw = (self.yaw + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU)
            - std::f32::consts::PI;
        self.pitch =
            (self.pitch + delta_px.y * ORBIT_RADIANS_PER_PIXEL).clamp(-MAX_PITCH, MAX_PITCH);
    }

    /// Middle-drag: moves the target so that the world at the target's depth follows the
    /// pointer exactly.
    pub fn pan(&mut self, delta_px: Vec2) {
        let per_pixel = 1.0 / self.pixels_per_unit_at(self.target);
        self.target -= (self.right() * delta_px.x - self.up() * delta_px.y) * per_pixel;
    }

    /// Zooms by `factor` (above 1 zooms in) keeping the world point under `screen` at the
    /// target's depth under it. The distance stays within [`MIN_DISTANCE`]..[`MAX_DISTANCE`].
    ///
    /// The target moves toward the point under the cursor by the same ratio as the
    /// distance; the eye then sees that point along the same ray (perspective) or at the
    /// same offset in the scaled view (orthographic).
    pub fn zoom_at(&mut self, screen: Vec2, factor: f32) {
        if !(factor.is_finite() && factor > 0.0) {
            return;
        }
        let anchor = self.point_at(screen, self.distance);
        let new_distance = (self.distance / factor).clamp(MIN_DISTANCE, MAX_DISTANCE);
        let ratio = new_distance / self.distance;
        self.target = anchor + (self.target - anchor) * ratio;
        self.distance = new_distance;
    }

    /// Frames the box `lo..hi`: the target at its centre and the distance at which its
    /// bounding sphere fits the viewport with `FIT_MARGIN` to spare, then closer while the
    /// box's corners stay inside; yaw and pitch kept.
    pub fn fit(&mut self, lo: Vec3, hi: Vec3) {
        if !(lo.is_finite() && hi.is_finite()) {
            return;
        }
        self.target = 0.5 * (lo + hi);
        let radius = (0.5 * (hi - lo).length()).max(MIN_DISTANCE) * (1.0 + FIT_MARGIN);
        // The narrower side's half-angle, fovy / 2 on any viewport.
        let tan_half = self.tan_half_height() * self.aspect().min(1.0);
        let distance = if self.orthographic {
            radius / tan_half
        } else {
            // The sphere's tangent cone from the eye has half-angle asin(r / d).
            radius / tan_half.atan().sin()
        };
        self.distance = distance.clamp(MIN_DISTANCE, MAX_DISTANCE);
        self.tighten_fit(lo, hi);
    }

    /// Comes closer than the bounding sphere's fit while the box's eight corners all stay
    /// inside the viewport less the margin (the sphere fit leaves a flat scene small).
    fn tighten_fit(&mut self, lo: Vec3, hi: Vec3) {
        let margin = self.size * (0.5 * FIT_MARGIN);
        let (min, max) = (self.origin + margin, self.origin + self.size - margin);
        let corners: Vec<Vec3> = (0..8)
            .map(|k| {
                Vec3::new(
                    if k & 1 == 0 { lo.x } else { hi.x },
                    if k & 2 == 0 { lo.y } else { hi.y },
                    if k & 4 == 0 { lo.z } else { hi.z },
                )
            })
            .collect();
        let fits = |c: &Camera3| {
            corners.iter().all(|p| {
                c.to_screen(*p)
                    .is_some_and(|s| s.cmpge(min).all() && s.cmple(max).all())
            })
        };
        let far = self.distance;
        let (mut inside, mut outside) = (far, 0.2 * far);
        for _ in 0..24 {
            let d = 0.5 * (inside + outside);
            let trial = Camera3 {
                distance: d,
                ..*self
            };
            if fits(&trial) {
                inside = d;
            } else {
                outside = d;
            }
        }
        if fits(&Camera3 {
            distance: inside,
            ..*self
        }) {
            self.distance = inside.clamp(MIN_DISTANCE, MAX_DISTANCE);
        }
    }

    /// Turns to a standard view (yaw and pitch only; call [`Camera3::fit`] after to frame).
    pub fn set_preset(&mut self, preset: Preset) {
        (self.yaw, self.pitch) = preset.angles();
    }

    /// The projection and the eye, for the status bar.
    pub fn view_label(&self) -> String {
        let e = self.eye();
        let n = |x: f32| crate::text::format_number(x, 2);
        let kind = if self.orthographic {
            "orthographic"
        } else {
            "perspective"
        };
        format!("{kind}, eye ({}, {}, {})", n(e.x), n(e.y), n(e.z))
    }

    /// The viewport as OpenGL takes it: framebuffer pixels, y measured from the bottom of
    /// the window. `screen_height` is the window height in screen coordinates and `dpi` the
    /// framebuffer pixels per screen unit (macroquad's `screen_height()` and
    /// `screen_dpi_scale()`).
    pub fn gl_viewport(&self, screen_height: f32, dpi: f32) -> (i32, i32, i32, i32) {
        let bottom = screen_height - (self.origin.y + self.size.y);
        (
            (self.origin.x * dpi).round() as i32,
            (bottom * dpi).round() as i32,
            (self.size.x * dpi).round().max(1.0) as i32,
            (self.size.y * dpi).round().max(1.0) as i32,
        )
    }
}

/// Drawing through this camera: `set_camera(&camera3)` maps the world onto the viewport.
///
/// macroquad hands `viewport()` straight to `glViewport`: framebuffer pixels with y from the
/// window's bottom (its own `Camera2D::world_to_screen` reads it the same way), so the
/// screen-coordinate rectangle is flipped and scaled here.
impl macroquad::camera::Camera for Camera3 {
    fn matrix(&self) -> Mat4 {
        self.view_proj()
    }

    fn depth_enabled(&self) -> bool {
        true
    }

    fn render_pass(&self) -> Option<macroquad::texture::RenderPass> {
        None
    }

    fn viewport(&self) -> Option<(i32, i32, i32, i32)> {
        Some(self.gl_viewport(
            macroquad::window::screen_height(),
            macroquad::window::screen_dpi_scale(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec3, b: Vec3, tol: f32) -> bool {
        (a - b).length() <= tol
    }

    fn cameras() -> Vec<Camera3> {
        let mut list = Vec::new();
        for orthographic in [false, true] {
            let mut c =
                Camera3::from_eye_target(Vec3::new(3.0, 2.0, -6.0), Vec3::new(1.0, 0.5, 0.2));
            c.origin = Vec2::new(200.0, 40.0);
            c.size = Vec2::new(900.0, 600.0);
            c.orthographic = orthographic;
            list.push(c);
            list.push(Camera3 {
                orthographic,
                ..Camera3::default()
            });
        }
        list
    }

    #[test]
    fn a_saved_view_shows_its_cone_on_a_portrait_viewport_too() {
        // The eye 10 units in front of the origin looking at it, fovy 45 degrees: the
        // cone's edge at the target's depth is 10 tan(22.5) = 4.1421 units off the axis.
        let edge = 10.0 * (std::f32::consts::PI / 8.0).tan();
        let mut c = Camera3::from_eye_target(Vec3::new(0.0, 0.0, 10.0), Vec3::ZERO);
        c.origin = Vec2::ZERO;
        // Landscape, 600 x 300: the cone spans the height; the top edge at y = 0.
        c.size = Vec2::new(600.0, 300.0);
        let top = c.to_screen(Vec3::new(0.0, edge, 0.0)).unwrap();
        assert!((top - Vec2::new(300.0, 0.0)).length() < 1e-2, "{top}");
        // Portrait, 300 x 600 (a split half at UI scale 2): the cone spans the width, so
        // the point 4.1421 to the right is on the right edge, not beyond it.
        c.size = Vec2::new(300.0, 600.0);
        let right = c.to_screen(Vec3::new(edge, 0.0, 0.0)).unwrap();
        assert!((right - Vec2::new(300.0, 300.0)).length() < 1e-2, "{right}");
        // And the screen point maps back to it (the pick ray agrees with the picture).
        let back = c.point_at(right, 10.0);
        assert!(close(back, Vec3::new(edge, 0.0, 0.0), 1e-3), "{back}");
    }

    #[test]
    fn the_target_is_at_the_viewport_centre() {
        for c in cameras() {
            let s = c.to_screen(c.target).unwrap();
            assert!((s - (c.origin + 0.5 * c.size)).length() < 1e-3, "{s}");
        }
    }

    #[test]
    fn a_point_behind_the_eye_has_no_screen_point() {
        let c = Camera3::default();
        assert!(c.to_screen(c.eye() - c.forward()).is_none());
        assert!(c.to_screen(c.eye() + 0.5 * c.forward()).is_some());
        let ortho = Camera3 {
            orthographic: true,
            ..c
        };
        assert!(ortho.to_screen(c.eye() - c.forward()).is_some());
    }

    #[test]
    fn the_ray_through_a_points_screen_point_passes_through_it() {
        let points = [
            Vec3::new(0.3, -1.0, 2.0),
            Vec3::new(-2.0, 1.5, -0.5),
            Vec3::ZERO,
        ];
        for c in cameras() {
            for p in points {
                let s = c.to_screen(p).unwrap();
                let (o, d) = c.ray(s);
                assert!((d.length() - 1.0).abs() < 1e-5);
                let closest = o + d * (p - o).dot(d);
                assert!(
                    close(closest, p, 1e-3 * (p - o).length().max(1.0)),
                    "{c:?} {p}"
                );
                if c.orthographic {
                    assert!(close(d, c.forward(), 1e-6));
                }
            }
        }
    }

    #[test]
    fn pan_keeps_the_point_under_the_cursor() {
        for mut c in cameras() {
            let cursor = c.origin + Vec2::new(120.0, 330.0);
            let p = c.point_at(cursor, c.distance);
            let delta = Vec2::new(37.0, -21.0);
            c.pan(delta);
            let s = c.to_screen(p).unwrap();
            assert!((s - (cursor + delta)).length() < 1e-2, "{s}");
        }
    }

    #[test]
    fn zoom_keeps_the_point_under_the_cursor() {
        for mut c in cameras() {
            let cursor = c.origin + Vec2::new(700.0, 100.0);
            let p = c.point_at(cursor, c.distance);
            for factor in [1.25, 0.5, 3.0] {
                let before = c.distance;
                c.zoom_at(cursor, factor);
                assert!((c.distance - before / factor).abs() < 1e-4 * before);
                let s = c.to_screen(p).unwrap();
                assert!((s - cursor).length() < 1e-2, "{s} vs {cursor}");
            }
        }
        let mut c = Camera3::default();
        c.zoom_at(Vec2::new(640.0, 400.0), 1.0e12);
        assert_eq!(c.distance, MIN_DISTANCE);
    }

    #[test]
    fn fit_puts_every_corner_of_the_box_in_the_viewport() {
        let boxes = [
            (Vec3::new(-1.0, -2.0, -0.5), Vec3::new(4.0, 1.0, 0.5)),
            (Vec3::splat(100.0), Vec3::splat(100.01)),
            (Vec3::new(-50.0, 0.0, 0.0), Vec3::new(50.0, 1.0, 1.0)),
        ];
        for mut c in cameras() {
            for size in [Vec2::new(900.0, 600.0), Vec2::new(400.0, 900.0)] {
                c.size = size;
                for (lo, hi) in boxes {
                    c.fit(lo, hi);
                    for k in 0..8 {
                        let corner = Vec3::new(
                            if k & 1 == 0 { lo.x } else { hi.x },
                            if k & 2 == 0 { lo.y } else { hi.y },
                            if k & 4 == 0 { lo.z } else { hi.z },
                        );
                        let s = c.to_screen(corner).unwrap();
                        let t = (s - c.origin) / c.size;
                        assert!(
                            t.min_element() > 0.0 && t.max_element() < 1.0,
                            "{c:?} {corner}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn from_eye_target_gives_back_the_eye() {
        let cases = [
            (Vec3::new(5.0, 4.0, 7.0), Vec3::ZERO),
            (Vec3::new(-3.0, -8.0, 0.5), Vec3::new(1.0, 2.0, 3.0)),
            (Vec3::new(1.0e4, 2.0, -1.0), Vec3::new(0.0, 0.0, 1.0)),
        ];
        for (eye, target) in cases {
            let c = Camera3::from_eye_target(eye, target);
            let tol = 1e-5 * (eye - target).length().max(eye.length());
            assert!(close(c.eye(), eye, tol), "{} vs {eye}", c.eye());
            assert!(close(c.forward(), (target - eye).normalize(), 1e-5));
        }
        let same = Camera3::from_eye_target(Vec3::ONE, Vec3::ONE);
        assert!(same.eye().is_finite() && same.distance > 0.0);
        assert!(close(same.target, Vec3::ONE, 0.0));
    }

    #[test]
    fn presets_look_the_stated_ways() {
        let mut c = Camera3::default();
        c.set_preset(Preset::Front);
        assert!(close(c.forward(), -Vec3::Z, 1e-6) && close(c.up(), Vec3::Y, 1e-6));
        c.set_preset(Preset::Side);
        assert!(close(c.forward(), -Vec3::X, 1e-6) && close(c.up(), Vec3::Y, 1e-6));
        c.set_preset(Preset::Top);
        assert!(close(c.forward(), -Vec3::Y, 1e-2) && close(c.up(), -Vec3::Z, 1e-2));
        assert!(close(c.right(), Vec3::X, 1e-6));
        c.set_preset(Preset::ThreeQuarter);
        let back = (c.eye() - c.target).normalize();
        assert!(close(back, Vec3::new(1.0, 0.8, 1.4).normalize(), 1e-6));
        // Right-handed: right x up = back (toward the eye).
        for c in cameras() {
            assert!(close(c.right().cross(c.up()), -c.forward(), 1e-5));
        }
    }

    #[test]
    fn pitch_is_clamped_short_of_the_poles() {
        let mut c = Camera3::default();
        c.orbit(Vec2::new(0.0, 1.0e5));
        assert_eq!(c.pitch, MAX_PITCH);
        c.orbit(Vec2::new(0.0, -1.0e5));
        assert_eq!(c.pitch, -MAX_PITCH);
        let above = Camera3::from_eye_target(Vec3::new(0.0, 10.0, 0.0), Vec3::ZERO);
        assert_eq!(above.pitch, MAX_PITCH);
        assert!(above.up().is_finite() && above.view_proj().is_finite());
    }

    #[test]
    fn pixels_per_unit_matches_the_projection() {
        for c in cameras() {
            let p = c.target + c.right() * 0.25;
            let a = c.to_screen(c.target).unwrap();
            let b = c.to_screen(p).unwrap();
            let expected = c.pixels_per_unit_at(c.target) * 0.25;
            assert!(((b - a).length() - expected).abs() < 1e-2 * expected);
        }
    }

    #[test]
    fn drag_point_stays_on_the_plane_facing_the_camera() {
        for c in cameras() {
            let through = Vec3::new(0.5, 0.5, -0.5);
            let cursor = c.origin + Vec2::new(50.0, 70.0);
            let q = c.drag_point(cursor, through).unwrap();
            assert!((c.depth_of(q) - c.depth_of(through)).abs() < 1e-4 * c.distance);
            assert!((c.to_screen(q).unwrap() - cursor).length() < 1e-2);
        }
        let c = Camera3::default();
        assert!(c
            .drag_point(Vec2::new(10.0, 10.0), c.eye() - c.forward())
            .is_none());
    }

    #[test]
    fn the_gl_viewport_counts_y_from_the_window_bottom() {
        let c = Camera3 {
            origin: Vec2::new(100.0, 50.0),
            size: Vec2::new(600.0, 400.0),
            ..Camera3::default()
        };
        assert_eq!(c.gl_viewport(720.0, 1.0), (100, 270, 600, 400));
        assert_eq!(c.gl_viewport(720.0, 2.0), (200, 540, 1200, 800));
    }

    #[test]
    fn the_view_label_names_the_projection_and_the_eye() {
        let c = Camera3::from_eye_target(Vec3::new(5.0, 4.0, 7.0), Vec3::ZERO);
        assert_eq!(c.view_label(), "perspective, eye (5, 4, 7)");
        let o = Camera3 {
            orthographic: true,
            ..c
        };
        assert!(o.view_label().starts_with("orthographic, eye ("));
    }
}
