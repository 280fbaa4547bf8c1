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

/// The inset's screen rectangle in its usual place: the lower-right corner of the canvas,
/// below the legend.
pub fn inset_rect(camera: &Camera, scale: f32) -> (Vec2, Vec2) {
    inset_rect_at(camera, scale, Corner::BottomRight, true)
}

/// A corner of the canvas for the inset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corner {
    BottomRight,
    BottomLeft,
    TopLeft,
    TopRight,
}

/// The inset's rectangle in `corner`. With the legend on, the inset leaves the upper half
/// of the canvas's height to it; without, it may take the canvas's height.
pub fn inset_rect_at(camera: &Camera, scale: f32, corner: Corner, legend: bool) -> (Vec2, Vec2) {
    let margin = 10.0 * scale;
    let tallest = if legend {
        camera.size.y * 0.46
    } else {
        camera.size.y - 2.0 * margin
    };
    let side = (camera.size.x * 0.34).min(tallest).max(120.0);
    let size = Vec2::splat(side);
    let (lo, hi) = (
        camera.origin + Vec2::splat(margin),
        camera.origin + camera.size - size - Vec2::splat(margin),
    );
    let origin = match corner {
        Corner::BottomRight => hi,
        Corner::BottomLeft => Vec2::new(lo.x, hi.y),
        Corner::TopLeft => lo,
        Corner::TopRight => Vec2::new(hi.x, lo.y),
    };
    (origin, size)
}

/// The area of `(lo, hi)` that lies inside the rectangle `(origin, size)`.
fn covered_area((origin, size): (Vec2, Vec2), (lo, hi): (Vec2, Vec2)) -> f32 {
    let d = (hi.min(origin + size) - lo.max(origin)).max(Vec2::ZERO);
    d.x * d.y
}

/// Whether the legend, measured as `(origin, size)` in its usual top-right place, goes to
/// the top-left corner instead: when the bodies there (their screen boxes, `bodies`) lie
/// under it and the same box in the top left would cover less than half as much of them.
/// A saved view framed on a larger window can put a body where the legend sits on a
/// smaller one (a projector's 1280x720); the view is the scene's and is left alone, the
/// legend moves. The factor keeps it from flipping while a body is dragged between two
/// similarly covered corners.
pub fn legend_goes_left(
    camera: &Camera,
    (origin, size): (Vec2, Vec2),
    bodies: &[(Vec2, Vec2)],
) -> bool {
    let left = legend_left_origin(camera, (origin, size));
    let under = |at: Vec2| -> f32 { bodies.iter().map(|&b| covered_area((at, size), b)).sum() };
    let (right, left) = (under(origin), under(left));
    right > 0.0 && left < 0.5 * right
}

/// Where the legend goes on the canvas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegendPlace {
    TopRight,
    TopLeft,
    /// Folded into a one-line button that opens it on demand: both top corners would
    /// cover the focused pair.
    Folded,
}

/// Where the legend, measured as `(origin, size)` in its usual top-right place, goes so
/// that it never covers the focused pair (`pair`: the screen boxes of its two bodies): the
/// top right when that is free of them, else the top left when that is free (and
/// `left_open`: no lab's card holds that corner), else it folds. It folds too when it is
/// taller than the canvas (a projector's UI scale), since it would be cut. Between two free
/// corners, the one covering less of the other bodies (`bodies`) wins, as
/// [`legend_goes_left`] says.
pub fn legend_place(
    camera: &Camera,
    usual: (Vec2, Vec2),
    pair: &[(Vec2, Vec2)],
    bodies: &[(Vec2, Vec2)],
    left_open: bool,
) -> LegendPlace {
    if usual.0.y + usual.1.y > camera.origin.y + camera.size.y {
        return LegendPlace::Folded;
    }
    let covers_pair = |at: Vec2| pair.iter().any(|&b| covered_area((at, usual.1), b) > 0.0);
    let right_free = !covers_pair(usual.0);
    let left_free = left_open && !covers_pair(legend_left_origin(camera, usual));
    match (right_free, left_free) {
        (true, true) if legend_goes_left(camera, usual, bodies) => LegendPlace::TopLeft,
        (true, _) => LegendPlace::TopRight,
        (false, true) => LegendPlace::TopLeft,
        (false, false) => LegendPlace::Folded,
    }
}

/// Where the folded legend's button, `size` pixels, goes: the top corner (right or left,
/// with `margin` from the edges) that covers less of the focused pair, the right on a tie.
pub fn folded_legend_origin(
    camera: &Camera,
    size: Vec2,
    margin: f32,
    pair: &[(Vec2, Vec2)],
) -> Vec2 {
    let y = camera.origin.y + margin;
    let right = Vec2::new(camera.origin.x + camera.size.x - size.x - margin, y);
    let left = Vec2::new(camera.origin.x + margin, y);
    let under = |at: Vec2| -> f32 { pair.iter().map(|&b| covered_area((at, size), b)).sum() };
    if under(left) < under(right) {
        left
    } else {
        right
    }
}

/// Where the legend's box `(origin, size)`, in its top-right place, sits in the top-left
/// corner: the same margin from the canvas's left edge as from its right.
pub fn legend_left_origin(camera: &Camera, (origin, size): (Vec2, Vec2)) -> Vec2 {
    let margin = camera.origin.x + camera.size.x - (origin.x + size.x);
    Vec2::new(camera.origin.x + margin, origin.y)
}

/// What else sits in the canvas's corners: the legend (top right, or top left when a body
/// sits under the top right: see [`legend_goes_left`]). (A render's caption has its own
/// strip under the canvas and takes no corner.)
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CornersTaken {
    pub legend: bool,
    /// The legend's box as drawn, when known (it grows with the UI scale and may reach
    /// down into the usual corner).
    pub legend_box: Option<(Vec2, Vec2)>,
}

/// Where the inset goes so that it covers as little of `focus` (the focused pair's
/// screen box) as it can: the usual corner when that is free, else the emptiest of the
/// corners the legend leaves.
pub fn inset_rect_avoiding(
    camera: &Camera,
    scale: f32,
    focus: Option<(Vec2, Vec2)>,
    taken: CornersTaken,
) -> (Vec2, Vec2) {
    let legend = taken.legend;
    let overlap =
        |r: (Vec2, Vec2), area: Option<(Vec2, Vec2)>| area.map_or(0.0, |a| covered_area(r, a));
    // The legend's corner: the top left when its box as drawn lies in the canvas's left
    // half, else the top right.
    let legend_corner = match taken.legend_box {
        Some((lo, hi)) if lo.x + hi.x < 2.0 * camera.origin.x + camera.size.x => Corner::TopLeft,
        _ => Corner::TopRight,
    };
    // Covering the legend hides words; covering the pair hides the picture: both count,
    // the legend more.
    let covered = |r| overlap(r, focus) + 4.0 * overlap(r, taken.legend_box);
    let corners = [
        Corner::BottomRight,
        Corner::BottomLeft,
        Corner::TopLeft,
        Corner::TopRight,
    ];
    corners
        .into_iter()
        .filter(|c| !(legend && *c == legend_corner))
        .map(|c| inset_rect_at(camera, scale, c, legend))
        .fold(None, |best: Option<((Vec2, Vec2), f32)>, r| {
            let area = covered(r);
            match best {
                Some((_, a)) if a <= area => best,
                _ => Some((r, area)),
            }
        })
        .map_or_else(|| inset_rect(camera, scale), |(r, _)| r)
}

/// The screen box around bodies `indices` (the focused pair), `None` without them.
pub fn screen_box(camera: &Camera, bodies: &[&SceneBody]) -> Option<(Vec2, Vec2)> {
    let points: Vec<Vec2> = bodies
        .iter()
        .flat_map(|b| body_outline(b, camera.zoom))
        .map(|p| camera.to_screen(p))
        .filter(|p| p.is_finite())
        .collect();
    let first = *points.first()?;
    Some(
        points
            .iter()
            .fold((first, first), |(lo, hi), p| (lo.min(*p), hi.max(*p))),
    )
}

/// A camera that frames the world box `lo..hi` in the part of `camera`'s canvas left of the
/// column that holds the legend and the A - B inset, so that neither hides a body.
pub fn fit_beside_inset(camera: &Camera, lo: Vec2, hi: Vec2) -> Camera {
    // The column of the inset at its tallest (legend hidden), so that it covers no body
    // in either case.
    let (inset_origin, _) = inset_rect_at(camera, 1.0, Corner::BottomRight, false);
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

#[cfg(test)]
mod tests {
    use super::*;

    const LEGEND: CornersTaken = CornersTaken {
        legend: true,
        legend_box: None,
    };

    /// The legend on, drawn as the box `(lo, hi)`.
    fn legend_at(legend: (Vec2, Vec2)) -> CornersTaken {
        CornersTaken {
            legend_box: Some(legend),
            ..LEGEND
        }
    }

    fn canvas() -> Camera {
        Camera {
            origin: Vec2::new(100.0, 50.0),
            size: Vec2::new(1000.0, 600.0),
            ..Camera::default()
        }
    }

    fn overlap(a: (Vec2, Vec2), lo: Vec2, hi: Vec2) -> f32 {
        let d = (hi.min(a.0 + a.1) - lo.max(a.0)).max(Vec2::ZERO);
        d.x * d.y
    }

    #[test]
    fn the_inset_keeps_its_corner_when_the_pair_is_elsewhere() {
        let c = canvas();
        let pair = (Vec2::new(300.0, 200.0), Vec2::new(500.0, 400.0));
        assert_eq!(
            inset_rect_avoiding(&c, 1.0, Some(pair), LEGEND),
            inset_rect(&c, 1.0)
        );
        assert_eq!(
            inset_rect_avoiding(&c, 1.0, None, LEGEND),
            inset_rect(&c, 1.0)
        );
    }

    #[test]
    fn the_inset_moves_to_an_empty_corner_rather_than_cover_the_pair() {
        let c = canvas();
        // The pair sits in the lower-right corner, under the usual place.
        let (lo, hi) = (Vec2::new(800.0, 420.0), Vec2::new(1080.0, 640.0));
        let usual = inset_rect(&c, 1.0);
        assert!(overlap(usual, lo, hi) > 0.0);
        let moved = inset_rect_avoiding(&c, 1.0, Some((lo, hi)), LEGEND);
        assert_eq!(overlap(moved, lo, hi), 0.0, "{moved:?}");
        assert_eq!(moved, inset_rect_at(&c, 1.0, Corner::BottomLeft, true));
        // Inside the canvas, with its margin.
        assert!(
            moved.0.cmpge(c.origin).all() && (moved.0 + moved.1).cmple(c.origin + c.size).all()
        );
    }

    #[test]
    fn with_the_legend_on_the_inset_leaves_it_the_top_right_corner() {
        let c = canvas();
        // The pair fills the lower half: the inset goes up, to the left of the legend.
        let (lo, hi) = (Vec2::new(100.0, 300.0), Vec2::new(1100.0, 650.0));
        let moved = inset_rect_avoiding(&c, 1.0, Some((lo, hi)), LEGEND);
        assert_eq!(moved, inset_rect_at(&c, 1.0, Corner::TopLeft, true));
        assert!(overlap(moved, lo, hi) < overlap(inset_rect(&c, 1.0), lo, hi));
    }

    #[test]
    fn a_tall_legend_pushes_the_inset_out_of_its_corner() {
        let c = canvas();
        // At a large UI scale the legend reaches down the whole right side.
        let legend = (Vec2::new(800.0, 60.0), Vec2::new(1090.0, 640.0));
        let moved = inset_rect_avoiding(&c, 1.0, None, legend_at(legend));
        assert_eq!(overlap(moved, legend.0, legend.1), 0.0, "{moved:?}");
    }

    /// The legend's box in its usual top-right place on `canvas()`: 200 x 180 pixels.
    fn usual_legend() -> (Vec2, Vec2) {
        (Vec2::new(892.0, 58.0), Vec2::new(200.0, 180.0))
    }

    #[test]
    fn the_legend_moves_left_off_a_body_under_its_usual_place() {
        // gjk_separated.ron at 1280x720: the saved view puts body B in the top right.
        let c = canvas();
        let b = (Vec2::new(850.0, 50.0), Vec2::new(1010.0, 210.0));
        let a = (Vec2::new(200.0, 400.0), Vec2::new(360.0, 560.0));
        assert!(legend_goes_left(&c, usual_legend(), &[a, b]));
    }

    #[test]
    fn the_legend_stays_in_its_corner_when_that_is_free_or_no_better_elsewhere() {
        let c = canvas();
        // Nothing under it.
        let low = (Vec2::new(850.0, 400.0), Vec2::new(1010.0, 560.0));
        assert!(!legend_goes_left(&c, usual_legend(), &[low]));
        assert!(!legend_goes_left(&c, usual_legend(), &[]));
        // A plank across the top: the top left is as covered as the top right.
        let plank = (Vec2::new(100.0, 100.0), Vec2::new(1100.0, 200.0));
        assert!(!legend_goes_left(&c, usual_legend(), &[plank]));
        // A body a little under the top right and more under the top left.
        let right = (Vec2::new(1050.0, 50.0), Vec2::new(1100.0, 100.0));
        let left = (Vec2::new(100.0, 50.0), Vec2::new(250.0, 150.0));
        assert!(!legend_goes_left(&c, usual_legend(), &[right, left]));
    }

    #[test]
    fn the_legend_never_covers_the_focused_pair() {
        // canvas(): x from 100 to 1100, y from 50 to 650; the legend 200 x 180 at (892, 58)
        // in the top right, (108, 58) in the top left (the same 8 px margin).
        let c = canvas();
        let place = |pair: &[(Vec2, Vec2)], bodies: &[(Vec2, Vec2)], left_open| {
            legend_place(&c, usual_legend(), pair, bodies, left_open)
        };
        // The pair in the middle: the usual corner.
        let middle = [(Vec2::new(400.0, 300.0), Vec2::new(700.0, 500.0))];
        assert_eq!(place(&middle, &middle, true), LegendPlace::TopRight);
        // Body B reaches under the top right (x 1000..1090, y 100..300): the top left.
        let b_right = [
            (Vec2::new(400.0, 300.0), Vec2::new(600.0, 500.0)),
            (Vec2::new(1000.0, 100.0), Vec2::new(1090.0, 300.0)),
        ];
        assert_eq!(place(&b_right, &b_right, true), LegendPlace::TopLeft);
        // The same, but a lab's card holds the top left: folded.
        assert_eq!(place(&b_right, &b_right, false), LegendPlace::Folded);
        // The projector: the pair fills the canvas's width at the legend's height (a
        // diamond from x 150 to 600 and a block from 600 to 1100, both from y 100): folded.
        let wide = [
            (Vec2::new(150.0, 100.0), Vec2::new(600.0, 600.0)),
            (Vec2::new(600.0, 200.0), Vec2::new(1100.0, 500.0)),
        ];
        assert_eq!(place(&wide, &wide, true), LegendPlace::Folded);
        // A third body under the top right that is not in the pair does not fold it; it
        // moves left as before when the left is emptier.
        let other = [(Vec2::new(900.0, 60.0), Vec2::new(1000.0, 200.0))];
        assert_eq!(place(&middle, &other, true), LegendPlace::TopLeft);
        // Taller than the canvas (58 + 600 > 650): folded, wherever the pair is.
        let tall = (usual_legend().0, Vec2::new(200.0, 600.0));
        assert_eq!(
            legend_place(&c, tall, &middle, &middle, true),
            LegendPlace::Folded
        );
        // A box that only touches the legend's edge (x = 892) covers nothing of it.
        let touching = [(Vec2::new(700.0, 60.0), Vec2::new(892.0, 200.0))];
        assert_eq!(place(&touching, &touching, true), LegendPlace::TopRight);
    }

    #[test]
    fn the_folded_legend_sits_in_the_top_corner_that_covers_less_of_the_pair() {
        let c = canvas();
        let size = Vec2::new(120.0, 24.0);
        // Right corner: x from 1100 - 120 - 8 = 972, y 58.
        assert_eq!(
            folded_legend_origin(&c, size, 8.0, &[]),
            Vec2::new(972.0, 58.0)
        );
        // Something at the top right: the left corner, (108, 58).
        let top_right = [(Vec2::new(950.0, 50.0), Vec2::new(1100.0, 100.0))];
        assert_eq!(
            folded_legend_origin(&c, size, 8.0, &top_right),
            Vec2::new(108.0, 58.0)
        );
    }

    #[test]
    fn with_the_legend_in_the_top_left_the_inset_keeps_out_of_that_corner() {
        let c = canvas();
        // The legend moved left, and the focused pair fills the bottom half: the inset
        // takes the top right rather than cover the legend.
        let legend = (Vec2::new(108.0, 58.0), Vec2::new(308.0, 238.0));
        let pair = (Vec2::new(100.0, 380.0), Vec2::new(1100.0, 650.0));
        let r = inset_rect_avoiding(&c, 1.0, Some(pair), legend_at(legend));
        assert_eq!(overlap(r, legend.0, legend.1), 0.0, "{r:?}");
        assert_eq!(r, inset_rect_at(&c, 1.0, Corner::TopRight, true));
    }

    #[test]
    fn without_the_legend_the_inset_may_be_taller() {
        let c = canvas();
        let with = inset_rect_at(&c, 1.0, Corner::BottomRight, true);
        let without = inset_rect_at(&c, 1.0, Corner::BottomRight, false);
        assert!(without.1.y > with.1.y);
        assert!((without.0 + without.1).cmple(c.origin + c.size).all());
    }
}
