//! Where things sit, in world units and screen pixels, without drawing anything: body
//! outlines in the world, the box around every body, and the inset's rectangle. The model
//! (fitting the view) and the view (drawing) both use these.

use super::camera::Camera;
use crate::geom::Pose;
use crate::scene::SceneBody;
use glam::Vec2;

/// The outline of a body in world coordinates (arcs sampled finely enough for the zoom).
pub fn body_outline(body: &SceneBody, zoom: f32) -> Vec<Vec2> {
    let r_px = body.shape.bounding_radius() * zoom;
    let segments = (r_px * 0.5).clamp(24.0, 256.0) as usize;
    world_points(&body.pose, &body.shape.outline(segments))
}

pub fn world_points(pose: &Pose, local: &[Vec2]) -> Vec<Vec2> {
    local.iter().map(|p| pose.transform_point(*p)).collect()
}

/// The world box holding every body, `None` without bodies.
pub fn bounds(bodies: &[SceneBody]) -> Option<(Vec2, Vec2)> {
    let mut points = bodies.iter().flat_map(|b| body_outline(b, 50.0)).peekable();
    points.peek()?;
    Some(points.fold(
        (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(p), hi.max(p)),
    ))
}

/// The inset's screen rectangle: the lower-right part of the canvas.
pub fn inset_rect(camera: &Camera, scale: f32) -> (Vec2, Vec2) {
    let side = (camera.size.x * 0.34).min(camera.size.y * 0.46).max(120.0);
    let size = Vec2::splat(side);
    let margin = 10.0 * scale;
    let origin = camera.origin + camera.size - size - Vec2::splat(margin);
    (origin, size)
}

/// A camera that frames the world box `lo..hi` in the part of `camera`'s canvas left of the
/// column that holds the legend and the A - B inset, so that neither hides a body.
pub fn fit_beside_inset(camera: &Camera, lo: Vec2, hi: Vec2) -> Camera {
    let (inset_origin, _) = inset_rect(camera, 1.0);
    let free = (inset_origin.x - camera.origin.x).max(camera.size.x * 0.4);
    let mut left = Camera {
        size: Vec2::new(free, camera.size.y),
        ..*camera
    };
    left.fit(lo, hi, 0.08);
    // The free part's centre sits left of the canvas centre by half the difference.
    let shift = 0.5 * (camera.size.x - free) / left.zoom;
    Camera {
        zoom: left.zoom,
        center: left.center + Vec2::new(shift, 0.0),
        ..*camera
    }
}
