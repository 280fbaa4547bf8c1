//! The Scan window (View > Scan): the form (which body of the focused pair moves, along
//! which parameter, over which range, how many samples), the progress of a running scan
//! with Cancel, the plot, and the events with "go before" / "go after" and "Save both
//! sides". The plot ([`plot`]) is also what `collision-lab scan --plot` draws.

use crate::app::action::Action;
use crate::app::document::DocOutline;
use crate::app::probe::TestProbe;
use crate::app::scan::ScanPanel;
use crate::scan::{Param, Sample, ScanOutput, MAX_SAMPLES};
use egui_macroquad::egui;
use egui_plot::{Legend, Line, Plot, PlotPoints, Polygon, Text, VLine};

/// Distinct colours for the bands' distinct answers, in order of first appearance.
const BAND_COLOURS: [egui::Color32; 8] = [
    egui::Color32::from_rgb(147, 197, 253),
    egui::Color32::from_rgb(253, 186, 116),
    egui::Color32::from_rgb(134, 239, 172),
    egui::Color32::from_rgb(216, 180, 254),
    egui::Color32::from_rgb(252, 165, 165),
    egui::Color32::from_rgb(253, 224, 71),
    egui::Color32::from_rgb(94, 234, 212),
    egui::Color32::from_rgb(203, 213, 225),
];

/// One discrete answer drawn as a band: its name, whether two samples give the same
/// answer (compared directly, so finding the runs allocates nothing for each of the
/// samples, every frame the window is shown), and the answer in words (once per run).
struct Band {
    label: &'static str,
    same: fn(&Sample, &Sample) -> bool,
    words: fn(&Sample) -> String,
}

/// The discrete answers drawn as bands under the curve, top to bottom.
const BANDS: [Band; 3] = [
    Band {
        label: "SAT axis",
        same: |p, q| p.axis == q.axis,
        words: |s| s.axis.to_string(),
    },
    Band {
        label: "contacts",
        same: |p, q| p.contacts == q.contacts,
        words: |s| s.contacts.to_string(),
    },
    Band {
        label: "feature",
        same: |p, q| p.feature == q.feature,
        words: |s| s.feature.clone().unwrap_or_else(|| "none".into()),
    },
];

/// The Scan window while open; returns what its buttons ask of the window.
pub fn show(
    ctx: &egui::Context,
    panel: &mut ScanPanel,
    outline: &DocOutline,
    probe: &mut TestProbe,
) -> Vec<Action> {
    let mut actions = Vec::new();
    if !panel.open {
        return actions;
    }
    let mut open = true;
    egui::Window::new("Scan")
        .open(&mut open)
        .default_size([560.0, 520.0])
        .show(ctx, |ui| {
            form(ui, panel, outline, probe, &mut actions);
            ui.separator();
            results(ui, panel, probe, &mut actions);
        });
    panel.open = open;
    actions
}

/// The form: body, parameter, range, samples, and Scan (or the progress and Cancel).
fn form(
    ui: &mut egui::Ui,
    panel: &mut ScanPanel,
    outline: &DocOutline,
    probe: &mut TestProbe,
    actions: &mut Vec<Action>,
) {
    let Some((a, b)) = outline.focus_names() else {
        ui.label("Focus a pair (Focused pair panel) to scan it.");
        return;
    };
    let three_d = outline.dimensions == 3;
    let f = &mut panel.form;
    ui.horizontal(|ui| {
        ui.label("Move");
        ui.radio_value(&mut f.move_b, true, format!("B: {b}"));
        ui.radio_value(&mut f.move_b, false, format!("A: {a}"));
    });
    if !f.param.fits(three_d) {
        f.param = Param::X;
    }
    ui.horizontal(|ui| {
        ui.label("along");
        egui::ComboBox::from_id_salt("scan:param")
            .selected_text(param_label(f.param))
            .show_ui(ui, |ui| {
                for p in Param::ALL.into_iter().filter(|p| p.fits(three_d)) {
                    ui.selectable_value(&mut f.param, p, param_label(p));
                }
            });
        ui.label("from");
        ui.add(egui::DragValue::new(&mut f.from).speed(0.01));
        ui.label("to");
        ui.add(egui::DragValue::new(&mut f.to).speed(0.01));
        ui.label(f.param.unit());
    });
    ui.horizontal(|ui| {
        ui.label("samples");
        ui.add(egui::DragValue::new(&mut panel.form.samples).range(2..=MAX_SAMPLES));
        match panel.progress() {
            Some(done) => {
                ui.add(
                    egui::ProgressBar::new(done)
                        .show_percentage()
                        .desired_width(160.0),
                );
                if ui.button("Cancel").clicked() {
                    panel.cancel();
                }
            }
            None => {
                let go = ui.button("Scan");
                probe.note_widget("scan:go", go.rect, ui.ctx().pixels_per_point());
                if go.clicked() {
                    actions.push(Action::ScanStart);
                }
            }
        }
    });
    if let Some(e) = &panel.error {
        ui.colored_label(egui::Color32::from_rgb(185, 28, 28), e);
    }
}

fn param_label(p: Param) -> &'static str {
    match p {
        Param::X => "x (position)",
        Param::Y => "y (position)",
        Param::Z => "z (position)",
        Param::Angle => "angle (degrees)",
        Param::Rx => "rotation about x (degrees)",
        Param::Ry => "rotation about y (degrees)",
        Param::Rz => "rotation about z (degrees)",
    }
}

/// The plot, the hovered sample's answers, and the events.
fn results(
    ui: &mut egui::Ui,
    panel: &mut ScanPanel,
    probe: &mut TestProbe,
    actions: &mut Vec<Action>,
) {
    let Some((output, _)) = &panel.result else {
        ui.label(
            "Choose what moves and press Scan: the plot shows depth or distance along the \
                  range, the answers that change as bands, and each flip pinned by bisection.",
        );
        return;
    };
    let shown = plot(ui, output, 240.0);
    probe.note_widget("scan:plot", shown.rect, ui.ctx().pixels_per_point());
    if let Some(t) = shown.hovered {
        panel.hovered = Some(t);
    }
    if let Some(t) = shown.clicked {
        actions.push(Action::ScanPlace(t));
    }
    ui.small("Bands under the curve, top to bottom: SAT's winning axis, the contact count, \
              the manifold's feature pair (a colour per answer). Click the plot to move the body there.");
    if let Some(sample) = panel.hovered.and_then(|t| nearest(output, t)) {
        ui.label(describe(sample, output.spec.param));
    }
    ui.label(format!(
        "{} samples, {} events ({} pair queries)",
        output.samples.len(),
        output.events.len(),
        output.queries
    ));
    events(ui, output, probe, actions);
}

fn events(
    ui: &mut egui::Ui,
    output: &ScanOutput,
    probe: &mut TestProbe,
    actions: &mut Vec<Action>,
) {
    egui::ScrollArea::vertical().max_height(160.0).show(ui, |ui| {
        for (k, e) in output.events.iter().enumerate() {
            ui.horizontal(|ui| {
                ui.label(format!(
                    "{} in [{}, {}]: {}",
                    output.spec.param.key(),
                    e.lo,
                    e.hi,
                    e.what.join(", ")
                ));
                let before = ui.small_button("go before");
                let after = ui.small_button("go after");
                let save = ui.small_button("Save both sides");
                let ppp = ui.ctx().pixels_per_point();
                probe.note_widget(format!("scan:event:{k}:before"), before.rect, ppp);
                probe.note_widget(format!("scan:event:{k}:after"), after.rect, ppp);
                probe.note_widget(format!("scan:event:{k}:save"), save.rect, ppp);
                if before.clicked() {
                    actions.push(Action::ScanPlace(e.lo));
                }
                if after.clicked() {
                    actions.push(Action::ScanPlace(e.hi));
                }
                if save.on_hover_text("Write the scene at each side, with its expectations recorded: two regression tests").clicked() {
                    actions.push(Action::ScanSaveSides(k));
                }
            });
        }
    });
}

/// The sample nearest parameter `t`.
pub fn nearest(output: &ScanOutput, t: f32) -> Option<&Sample> {
    output
        .samples
        .iter()
        .min_by(|p, q| (p.t - t).abs().total_cmp(&(q.t - t).abs()))
}

/// One line of a sample's answers, as the hover shows them.
pub fn describe(s: &Sample, param: Param) -> String {
    let amount = match (s.depth, s.distance) {
        (Some(d), _) => format!("depth {d:.5}"),
        (None, Some(d)) => format!("distance {d:.5}"),
        _ => "no depth or distance".into(),
    };
    let normal = s.normal.map_or_else(
        || "no normal".into(),
        |n| format!("normal ({:.4}, {:.4}, {:.4})", n[0], n[1], n[2]),
    );
    format!(
        "{} = {}: {}, {}; SAT axis {}; {} contact(s){}",
        param.key(),
        s.t,
        amount,
        normal,
        s.axis,
        s.contacts,
        s.feature
            .as_ref()
            .map_or_else(String::new, |f| format!(", {f}"))
    )
}

/// What the plot showed this frame.
pub struct PlotShown {
    pub rect: egui::Rect,
    /// The parameter under the pointer.
    pub hovered: Option<f32>,
    /// The parameter clicked.
    pub clicked: Option<f32>,
}

/// Depth (red) or distance (blue) against the parameter, the discrete answers as coloured
/// bands under the curve (one colour per distinct answer, labelled on hover in the window
/// and at the band's start), and each event a vertical marker.
pub fn plot(ui: &mut egui::Ui, output: &ScanOutput, height: f32) -> PlotShown {
    let top = output
        .samples
        .iter()
        .filter_map(|s| s.depth.or(s.distance))
        .fold(0.0f32, f32::max)
        .max(1e-6) as f64;
    let band = 0.12 * top;
    let param = output.spec.param;
    let x_label = format!("{} {}", param.key(), param.unit())
        .trim()
        .to_string();
    let response = Plot::new("scan")
        .legend(Legend::default())
        .height(height)
        .x_axis_label(x_label)
        .y_axis_label("depth / distance")
        .allow_scroll(false)
        .show(ui, |plot| {
            for (name, colour, value) in [
                (
                    "depth",
                    egui::Color32::from_rgb(220, 38, 38),
                    (|s| s.depth) as fn(&Sample) -> Option<f32>,
                ),
                ("distance", egui::Color32::from_rgb(37, 99, 235), |s| {
                    s.distance
                }),
            ] {
                for run in runs(&output.samples, value) {
                    plot.line(
                        Line::new(PlotPoints::from(run))
                            .name(name)
                            .color(colour)
                            .width(2.0),
                    );
                }
            }
            for (row, b) in BANDS.iter().enumerate() {
                draw_band(plot, output, row, band, b);
            }
            for e in &output.events {
                let x = 0.5 * (e.lo as f64 + e.hi as f64);
                plot.vline(
                    VLine::new(x)
                        .name("event")
                        .color(egui::Color32::from_rgb(15, 23, 42)),
                );
            }
            plot.pointer_coordinate().map(|p| p.x as f32)
        });
    let pointer = response.inner;
    let clicked = response.response.clicked().then_some(pointer).flatten();
    PlotShown {
        rect: response.response.rect,
        hovered: response.response.hovered().then_some(pointer).flatten(),
        clicked,
    }
}

/// The runs of consecutive samples that have a value, as plot points.
fn runs(samples: &[Sample], value: fn(&Sample) -> Option<f32>) -> Vec<Vec<[f64; 2]>> {
    let mut out: Vec<Vec<[f64; 2]>> = Vec::new();
    let mut current = Vec::new();
    for s in samples {
        match value(s) {
            Some(v) => current.push([s.t as f64, v as f64]),
            None if !current.is_empty() => out.push(std::mem::take(&mut current)),
            None => {}
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// Band `row` (0 at the top, just under zero): a rectangle per run of equal answers.
fn draw_band(
    plot: &mut egui_plot::PlotUi,
    output: &ScanOutput,
    row: usize,
    height: f64,
    band: &Band,
) {
    let (y0, y1) = (
        -(row as f64 + 1.0) * height,
        -(row as f64) * height - 0.1 * height,
    );
    let mut seen: Vec<String> = Vec::new();
    let samples = &output.samples;
    let span = (output.spec.to as f64 - output.spec.from as f64).abs();
    let mut start = 0;
    for k in 1..=samples.len() {
        if k < samples.len() && (band.same)(&samples[k], &samples[start]) {
            continue;
        }
        let value = (band.words)(&samples[start]);
        let index = seen.iter().position(|v| *v == value).unwrap_or_else(|| {
            seen.push(value.clone());
            seen.len() - 1
        });
        let colour = BAND_COLOURS[index % BAND_COLOURS.len()];
        let (x0, x1) = (samples[start].t as f64, samples[k - 1].t as f64);
        let rect = vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
        // Unnamed: the legend lists the curves and the events, the bands say their own.
        plot.polygon(
            Polygon::new(PlotPoints::from(rect))
                .fill_color(colour)
                .stroke(egui::Stroke::new(0.0, colour)),
        );
        // The answer written in its run, where the run is wide enough to hold it.
        if x1 - x0 >= LABELLED_RUN * span {
            let mid = egui_plot::PlotPoint::new(0.5 * (x0 + x1), 0.5 * (y0 + y1));
            let text = format!("{}: {value}", band.label);
            plot.text(Text::new(mid, text).color(egui::Color32::from_rgb(30, 41, 59)));
        }
        start = k;
    }
}

/// The narrowest run (a fraction of the range) whose answer is written in it.
const LABELLED_RUN: f64 = 0.15;
