//! The sweep's time chart, shared by the 2D and 3D sweep labs: one row per axis, the bar of
//! times [t_enter, t_exit] in which its intervals overlap, clipped to [0, t_max]; vertical
//! lines at t_first and t_last and at the time the moving bodies are shown. A pair with
//! more axes than fit (3D's edge pairs) shows the rows around the step shown, and says how
//! many are left out above and below.

use super::lab::num;
use crate::app::draw::{self, palette, Painter};
use glam::Vec2;
use macroquad::prelude as mq;
use std::cmp::Ordering;

/// One axis's row: the times its intervals overlap (`t_enter > t_exit` when never), and
/// whether it is the step shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartRow {
    pub t_enter: f32,
    pub t_exit: f32,
    pub selected: bool,
}

/// What the chart marks across its rows.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ChartTimes {
    pub t_max: f32,
    pub t_first: Option<f32>,
    pub t_last: Option<f32>,
    /// The time the moving bodies are shown at.
    pub shown: Option<f32>,
}

/// Where the time chart's rows sit on the screen.
struct Chart {
    left: f32,
    span: f32,
    top: f32,
    row: f32,
    t_max: f32,
}

impl Chart {
    fn x_of(&self, t: f32) -> f32 {
        self.left + self.span * (t / self.t_max).clamp(0.0, 1.0)
    }
}

/// Logical pixels of one row.
const ROW: f32 = 9.0;

/// Draws the chart in the upper-left corner of the canvas `(origin, size)`, at most as tall
/// as half the canvas; returns the screen y of its card's bottom edge.
pub fn draw_time_chart(
    p: &Painter,
    canvas: (Vec2, Vec2),
    rows: &[ChartRow],
    times: ChartTimes,
) -> Option<f32> {
    if rows.is_empty() || !p.visible {
        return None;
    }
    let fit = (((0.5 * canvas.1.y - p.px(56.0)) / p.px(ROW)).floor() as usize).max(4);
    let (first, shown) = window_of(rows, fit);
    let chart = chart_card(p, canvas, shown.len(), times.t_max);
    for (i, r) in shown.iter().enumerate() {
        chart_row(p, &chart, i, r);
    }
    let bottom = chart.top + chart.row * shown.len() as f32;
    let left_out = (first, rows.len() - first - shown.len());
    if left_out != (0, 0) {
        let text = format!(
            "rows {}-{} of {}",
            first + 1,
            first + shown.len(),
            rows.len()
        );
        let w = p.measure(&text, 12.0).x;
        let at = Vec2::new(chart.left + chart.span - w, chart.top - p.px(18.0));
        p.screen_text(at, &text, 12.0, palette::AXIS, false);
    }
    if let Some(t) = times.shown {
        draw::screen_line(
            Vec2::new(chart.x_of(t), chart.top - p.px(4.0)),
            Vec2::new(chart.x_of(t), bottom + p.px(4.0)),
            p.px(1.5),
            palette::TEXT,
        );
    }
    let marks = [
        (times.t_first, palette::RESULT, "t_first"),
        (times.t_last, palette::GAP, "t_last"),
    ];
    for (i, (t, color, name)) in marks.into_iter().enumerate() {
        if let Some(t) = t {
            draw::screen_line(
                Vec2::new(chart.x_of(t), chart.top - p.px(2.0)),
                Vec2::new(chart.x_of(t), bottom + p.px(2.0)),
                p.px(2.0),
                color,
            );
            // Below the chart, t_first on the first line and t_last on the second.
            let text = format!("{name} {}", num(t));
            let w = p.measure(&text, 12.0).x;
            let x = (chart.x_of(t) - w).max(chart.left);
            let y = bottom + p.px(4.0 + 14.0 * i as f32);
            p.screen_text(Vec2::new(x, y), &text, 12.0, color, true);
        }
    }
    Some(chart.top - p.px(22.0) + chart.row * shown.len() as f32 + p.px(56.0))
}

/// One Newton step of a round sweep: the time it stood at, the distance there, whether it
/// walked toward the first contact (or back toward the last), and whether it is the step
/// shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewtonPoint {
    pub t: f32,
    pub distance: f32,
    pub first: bool,
    pub selected: bool,
}

/// The Newton steps of a round sweep as points on a distance-over-time chart, in a card at
/// `top_left` as wide as the time chart: the steps toward the first contact in the t_first
/// colour, those back toward the last contact in the t_last colour, each walk joined in
/// order, the step shown ringed, the line of zero distance (touching) marked.
pub fn draw_newton_chart(
    p: &Painter,
    top_left: Vec2,
    canvas_width: f32,
    points: &[NewtonPoint],
    t_max: f32,
) {
    if points.is_empty() || !p.visible || t_max.partial_cmp(&0.0) != Some(Ordering::Greater) {
        return;
    }
    let most = (points.iter())
        .map(|q| q.distance)
        .fold(0.0f32, f32::max)
        .max(1e-12);
    let plot = newton_card(p, top_left, canvas_width, most, t_max);
    for first in [true, false] {
        let color = if first { palette::RESULT } else { palette::GAP };
        let walk: Vec<&NewtonPoint> = points.iter().filter(|q| q.first == first).collect();
        for pair in walk.windows(2) {
            let faint = palette::with_alpha(color, 0.6);
            draw::screen_line(plot.at(pair[0]), plot.at(pair[1]), p.px(1.5), faint);
        }
        for q in walk {
            let c = plot.at(q);
            mq::draw_circle(c.x, c.y, p.px(3.5), color);
            if q.selected {
                mq::draw_circle_lines(c.x, c.y, p.px(7.0), p.px(2.0), palette::SEARCH);
            }
        }
    }
}

/// Where the Newton chart's points go on the screen.
struct NewtonPlot {
    left: f32,
    span: f32,
    top: f32,
    height: f32,
    most: f32,
    t_max: f32,
}

impl NewtonPlot {
    fn at(&self, q: &NewtonPoint) -> Vec2 {
        Vec2::new(
            self.left + self.span * (q.t / self.t_max).clamp(0.0, 1.0),
            self.top + self.height * (1.0 - (q.distance / self.most).clamp(0.0, 1.0)),
        )
    }
}

/// The Newton chart's card, title, zero line and scale; where its points go.
fn newton_card(
    p: &Painter,
    top_left: Vec2,
    canvas_width: f32,
    most: f32,
    t_max: f32,
) -> NewtonPlot {
    let width = (canvas_width * 0.3).max(p.px(160.0));
    let height = p.px(120.0);
    let card = palette::with_alpha(mq::WHITE, 0.92);
    mq::draw_rectangle(top_left.x, top_left.y, width, height, card);
    let border = (p.px(1.0), palette::GRID_MAJOR);
    mq::draw_rectangle_lines(top_left.x, top_left.y, width, height, border.0, border.1);
    let title = "Newton steps: distance over time";
    p.screen_text(
        top_left + Vec2::splat(p.px(4.0)),
        title,
        12.0,
        palette::TEXT,
        false,
    );
    let plot = NewtonPlot {
        left: top_left.x + p.px(8.0),
        span: width - p.px(16.0),
        top: top_left.y + p.px(24.0),
        height: height - p.px(44.0),
        most,
        t_max,
    };
    let zero = plot.top + plot.height;
    let (left, right) = (
        Vec2::new(plot.left, zero),
        Vec2::new(plot.left + plot.span, zero),
    );
    draw::screen_line(left, right, p.px(1.0), palette::AXIS);
    let touching = "distance 0: touching";
    p.screen_text(
        left + Vec2::new(0.0, p.px(2.0)),
        touching,
        11.0,
        palette::AXIS,
        false,
    );
    let scale = format!("up to {}", num(most));
    let w = p.measure(&scale, 11.0).x;
    let at = Vec2::new(plot.left + plot.span - w, plot.top);
    p.screen_text(at, &scale, 11.0, palette::AXIS, false);
    plot
}

/// At most `fit` rows: all of them, or a window centred on the selected row (the first
/// rows when none is selected). Returns the index of its first row and the window.
fn window_of(rows: &[ChartRow], fit: usize) -> (usize, &[ChartRow]) {
    if rows.len() <= fit {
        return (0, rows);
    }
    let centre = rows.iter().position(|r| r.selected).unwrap_or(0);
    let first = centre.saturating_sub(fit / 2).min(rows.len() - fit);
    (first, &rows[first..first + fit])
}

/// The chart's white card, border and title, sized for `rows` axes.
fn chart_card(p: &Painter, (origin, size): (Vec2, Vec2), rows: usize, t_max: f32) -> Chart {
    let row = p.px(ROW);
    let width = (size.x * 0.3).max(p.px(160.0));
    let height = row * rows as f32 + p.px(56.0);
    let origin = origin + Vec2::splat(p.px(10.0));
    mq::draw_rectangle(
        origin.x,
        origin.y,
        width,
        height,
        palette::with_alpha(mq::WHITE, 0.92),
    );
    mq::draw_rectangle_lines(
        origin.x,
        origin.y,
        width,
        height,
        p.px(1.0),
        palette::GRID_MAJOR,
    );
    p.screen_text(
        origin + Vec2::splat(p.px(4.0)),
        &format!("axis time intervals, t in [0, {}]", num(t_max)),
        12.0,
        palette::TEXT,
        false,
    );
    Chart {
        left: origin.x + p.px(6.0),
        span: width - p.px(12.0),
        top: origin.y + p.px(22.0),
        row,
        t_max,
    }
}

/// Row `i`: the axis's interval of overlap in time, highlighted when it is the step shown.
fn chart_row(p: &Painter, chart: &Chart, i: usize, a: &ChartRow) {
    let (left, span, row) = (chart.left, chart.span, chart.row);
    let y = chart.top + row * i as f32 + row * 0.5;
    draw::screen_line(
        Vec2::new(left, y),
        Vec2::new(left + span, y),
        p.px(1.0),
        palette::GRID_MINOR,
    );
    let color = if a.selected {
        palette::SEARCH
    } else {
        palette::AXIS
    };
    if a.t_enter <= a.t_exit && a.t_exit >= 0.0 && a.t_enter <= chart.t_max {
        let (x0, x1) = (
            chart.x_of(a.t_enter.max(0.0)),
            chart.x_of(a.t_exit.min(chart.t_max)),
        );
        draw::screen_line(
            Vec2::new(x0, y),
            Vec2::new(x1.max(x0 + 1.0), y),
            row * 0.7,
            color,
        );
    } else if a.selected {
        draw::screen_line(
            Vec2::new(left, y),
            Vec2::new(left + p.px(6.0), y),
            row * 0.7,
            palette::GAP,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(n: usize, selected: Option<usize>) -> Vec<ChartRow> {
        (0..n)
            .map(|k| ChartRow {
                t_enter: 0.0,
                t_exit: 1.0,
                selected: Some(k) == selected,
            })
            .collect()
    }

    #[test]
    fn a_long_chart_shows_the_rows_around_the_selected_one() {
        let all = rows(10, None);
        assert_eq!(window_of(&all, 20).1.len(), 10);
        assert_eq!(window_of(&all, 4).0, 0, "no selection: the first rows");
        let picked = rows(150, Some(100));
        let (first, shown) = window_of(&picked, 40);
        assert_eq!((first, shown.len()), (80, 40));
        assert!(shown[20].selected);
        // Near the end the window stops at the last row.
        let last = rows(150, Some(149));
        let (first, shown) = window_of(&last, 40);
        assert_eq!((first, shown.len()), (110, 40));
        assert!(shown[39].selected);
    }
}
