//! The Plots window: per-iteration numbers from the labs (GJK distance, EPA gap...), with
//! the timeline's step marked. It reads a workspace's [`PlotsModel`].

use super::color32;
use crate::app::panels::PlotsModel;
use egui_macroquad::egui;
use egui_plot::{Legend, Line, Plot, PlotPoints, Points, VLine};

/// The Plots window while `open`; its close button clears `open`.
pub fn show(ctx: &egui::Context, model: &dyn PlotsModel, open: &mut bool) {
    if !*open {
        return;
    }
    egui::Window::new("Plots")
        .open(open)
        .default_size([420.0, 260.0])
        .show(ctx, |ui| {
            let Some(series) = model.series() else {
                ui.label("No focused pair.");
                return;
            };
            // The timeline's step as an iteration number (iterations count from 1).
            let selected_iteration = model.selected_iteration();
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
}
