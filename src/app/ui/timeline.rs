//! The Timeline: for the selected algorithm, a step slider, previous/next, play/pause, and
//! the sentence explaining the step.

use crate::app::canvas::overlay_index;
use crate::app::window::App;
use egui_macroquad::egui;

/// The number of steps of the timeline's lab and its selected step (the last by default).
fn position(app: &App) -> Option<(usize, usize)> {
    app.session.timeline_position()
}

fn select(app: &mut App, k: usize) {
    let i = overlay_index(app.session.overlays.timeline);
    app.session.overlays.steps[i] = Some(k);
    app.session.overlays.enabled[i] = true;
}

/// Moves the timeline by `delta` steps; returns false at either end.
pub fn step_by(app: &mut App, delta: i64) -> bool {
    let Some((n, k)) = position(app) else {
        return false;
    };
    let next = k as i64 + delta;
    if next < 0 || next >= n as i64 {
        return false;
    }
    select(app, next as usize);
    true
}

pub fn toggle_play(app: &mut App) {
    if app.playing.is_some() {
        app.playing = None;
        return;
    }
    if let Some((n, k)) = position(app) {
        if k + 1 >= n {
            select(app, 0); // play from the start
        }
        app.playing = Some(macroquad::prelude::get_time() + app.play_interval);
    }
}

pub fn show(ctx: &egui::Context, app: &mut App) {
    egui::TopBottomPanel::bottom("timeline")
        .resizable(false)
        .show(ctx, |ui| {
            ui.add_space(4.0);
            ui.horizontal(|ui| controls(ui, app));
            let sentence = app
                .session
                .timeline_sentence()
                .unwrap_or_else(|| "This algorithm has no steps for the focused pair.".into());
            ui.add(egui::Label::new(egui::RichText::new(sentence).size(16.0)).wrap());
            ui.add_space(4.0);
        });
}

fn controls(ui: &mut egui::Ui, app: &mut App) {
    ui.strong("Timeline");
    let current = app.session.overlays.timeline;
    let mut chosen = current;
    let stepped: Vec<_> = {
        let run = app.session.run.as_ref();
        app.session
            .labs
            .iter()
            .filter(|l| run.is_some_and(|r| l.step_count(r) > 0) || l.overlay() == current)
            .map(|l| (l.overlay(), l.name()))
            .collect()
    };
    let name = stepped
        .iter()
        .find(|(o, _)| *o == current)
        .map_or("", |(_, n)| *n);
    egui::ComboBox::from_id_salt("timeline_lab")
        .selected_text(name)
        .show_ui(ui, |ui| {
            for (o, n) in &stepped {
                ui.selectable_value(&mut chosen, *o, *n);
            }
        });
    if chosen != current {
        app.session.overlays.timeline = chosen;
        app.session.overlays.enabled[overlay_index(chosen)] = true;
        app.playing = None;
    }
    let Some((n, k)) = position(app) else {
        return;
    };
    if ui.button("\u{23ee}").on_hover_text("first step").clicked() {
        select(app, 0);
    }
    if ui
        .button("\u{25c0}")
        .on_hover_text("previous step (Left)")
        .clicked()
    {
        step_by(app, -1);
    }
    let play = if app.playing.is_some() {
        "\u{23f8}"
    } else {
        "\u{25b6}"
    };
    if ui.button(play).on_hover_text("play / pause (P)").clicked() {
        toggle_play(app);
    }
    if ui
        .button("\u{25b6}|")
        .on_hover_text("next step (Right)")
        .clicked()
    {
        step_by(app, 1);
    }
    if ui.button("\u{23ed}").on_hover_text("last step").clicked() {
        select(app, n - 1);
    }
    let mut shown = k + 1;
    let slider = egui::Slider::new(&mut shown, 1..=n).text(format!("of {n}"));
    if ui.add(slider).changed() {
        select(app, shown - 1);
    }
    ui.add(
        egui::DragValue::new(&mut app.play_interval)
            .range(0.1..=5.0)
            .speed(0.05)
            .suffix(" s/step"),
    );
}
