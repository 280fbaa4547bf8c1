//! The Plots window: per-iteration numbers from the labs (GJK distance, EPA gap...), with
//! the timeline's step marked.

use super::color32;
use crate::app::window::App;
use egui_macroquad::egui;
use egui_plot::{Legend, Line, Plot, PlotPoints, Points, VLine};

pub fn show(ctx: &egui::Context, app: &mut App) {
    if !app.show_plots {
        return;
    }
    let mut open = app.show_plots;
    egui::Window::new("Plots")
        .open(&mut open)
        .default_size([420.0, 260.0])
        .show(ctx, |ui| {
            let Some(run) = &app.session.run else {
                ui.label("No focused pair.");
                return;
            };
            let series: Vec<_> = app
                .session
                .labs
                .iter()
                .flat_map(|l| l.series(run))
                .collect();
            // The timeline's step as an iteration number (iterations count from 1).
            let selected_iteration = app.session.timeline_position().map(|(_, k)| k as f64 + 1.0);
            Plot::new("iterations")
                .legend(Legend::default())
                .x_axis_label("iteration")
                .height(220.0)
                .show(ui, |plot| {
                    for s in series {
                        let color = color32(s.color);
                        let line = Line::new(PlotPoints::from(s.points.clone()));
                        plot.line(line.name(&s.name).color(color));
                        let dots = Points::new(PlotPoints::from(s.points)).radius(3.0);
                        plot.points(dots.name(&s.name).color(color));
                    }
                    if let Some(x) = selected_iteration {
                        plot.vline(
                            VLine::new(x)
                                .name("timeline step")
                                .color(egui::Color32::GRAY),
                        );
                    }
                });
        });
    app.show_plots = open;
}
