//! The Plots window: per-iteration numbers from the labs (GJK distance, EPA gap...).

use crate::app::window::App;
use egui_macroquad::egui;
use egui_plot::{Legend, Line, Plot, PlotPoints, Points};

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
            Plot::new("iterations")
                .legend(Legend::default())
                .x_axis_label("iteration")
                .height(220.0)
                .show(ui, |plot| {
                    for s in series {
                        let points: Vec<[f64; 2]> = s.points.clone();
                        plot.line(Line::new(PlotPoints::from(points.clone())).name(&s.name));
                        plot.points(
                            Points::new(PlotPoints::from(points))
                                .radius(3.0)
                                .name(&s.name),
                        );
                    }
                });
        });
    app.show_plots = open;
}
