//! The Timeline: for the selected algorithm, a step slider, previous/next, play/pause, and
//! the sentence explaining the step. It edits a workspace's [`TimelineModel`] and nothing
//! else.

use crate::app::probe::TestProbe;
use crate::app::timeline::TimelineModel;
use egui_macroquad::egui;
use macroquad::prelude as mq;

/// The sentence's text size, and the lines kept for it whatever its length: a longer
/// sentence scrolls, so the canvas and the buttons above never move while stepping.
const SENTENCE_SIZE: f32 = 16.0;
const SENTENCE_LINES: f32 = 3.0;

pub fn show(ctx: &egui::Context, timeline: &mut dyn TimelineModel, probe: &mut TestProbe) {
    egui::TopBottomPanel::bottom("timeline")
        .resizable(false)
        .show(ctx, |ui| {
            ui.add_space(4.0);
            let buttons = ui.horizontal(|ui| controls(ui, timeline)).inner;
            let sentence = timeline
                .timeline_sentence()
                .unwrap_or_else(|| "This algorithm has no steps for the focused pair.".into());
            let font = egui::FontId::proportional(SENTENCE_SIZE);
            let height = SENTENCE_LINES * ui.fonts(|f| f.row_height(&font));
            egui::ScrollArea::vertical()
                .id_salt("sentence")
                .max_height(height)
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    ui.add(egui::Label::new(egui::RichText::new(sentence).font(font)).wrap());
                });
            ui.add_space(4.0);
            let ppp = ctx.pixels_per_point();
            for (name, rect) in buttons {
                probe.note_widget(name, rect, ppp);
            }
        });
}

/// The controls; returns the step buttons' rectangles for the test probe.
fn controls(
    ui: &mut egui::Ui,
    timeline: &mut dyn TimelineModel,
) -> Vec<(&'static str, egui::Rect)> {
    let mut rects = Vec::new();
    ui.strong("Timeline");
    let current = timeline.timeline();
    let mut chosen = current;
    let choices = timeline.timeline_choices();
    let name = choices
        .iter()
        .find(|(a, _)| *a == current)
        .map_or("", |(_, n)| *n);
    egui::ComboBox::from_id_salt("timeline_lab")
        .selected_text(name)
        .show_ui(ui, |ui| {
            for (a, n) in &choices {
                ui.selectable_value(&mut chosen, *a, *n);
            }
        });
    if chosen != current {
        timeline.choose_timeline(chosen);
    }
    let Some((n, k)) = timeline.timeline_position() else {
        return rects;
    };
    let first = ui.button("\u{23ee}").on_hover_text("first step (Home)");
    rects.push(("timeline:first", first.rect));
    if first.clicked() {
        timeline.first_step();
    }
    if ui
        .button("\u{25c0}")
        .on_hover_text("previous step (Left)")
        .clicked()
    {
        timeline.step_by(-1);
    }
    let play = if timeline.is_playing() {
        "\u{23f8}"
    } else {
        "\u{25b6}"
    };
    if ui.button(play).on_hover_text("play / pause (P)").clicked() {
        timeline.toggle_play(mq::get_time());
    }
    let next = ui.button("\u{25b6}|").on_hover_text("next step (Right)");
    rects.push(("timeline:next", next.rect));
    if next.clicked() {
        timeline.step_by(1);
    }
    if ui
        .button("\u{23ed}")
        .on_hover_text("last step (End)")
        .clicked()
    {
        timeline.last_step();
    }
    let mut shown = k + 1;
    let slider = egui::Slider::new(&mut shown, 1..=n).text(format!("of {n}"));
    if ui.add(slider).changed() {
        timeline.select_step(shown - 1);
    }
    ui.add(
        egui::DragValue::new(timeline.play_interval_mut())
            .range(0.1..=5.0)
            .speed(0.05)
            .suffix(" s/step"),
    );
    rects
}
