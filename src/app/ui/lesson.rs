//! The Notes panel of a lesson (Help > Lessons), at the top of the Scene panel in 2D and
//! 3D: the lesson's place in the course with Previous and Next, what to look at (the
//! scene's notes), the question with its answer behind "Show answer", and the exercise with
//! what the window sees of its goal.

use crate::app::action::Action;
use crate::app::dialogs::Pending;
use crate::app::lessons::{self, paragraph, LessonPanel};
use crate::app::probe::TestProbe;
use crate::scene::Lesson;
use egui_macroquad::egui;

/// Green for a goal met, as the Results panel marks agreement.
const FOUND: egui::Color32 = egui::Color32::from_rgb(21, 128, 61);

/// What the panel shows of the open document.
pub struct LessonView<'a> {
    pub lesson: &'a Lesson,
    pub title: Option<&'a str>,
    pub notes: Option<&'a str>,
}

/// Draws the lesson's notes; returns the lesson to open when Previous or Next is clicked.
pub fn show(
    ui: &mut egui::Ui,
    view: &LessonView,
    panel: &mut LessonPanel,
    probe: &mut TestProbe,
) -> Option<Action> {
    let lesson = view.lesson;
    let mut action = None;
    egui::CollapsingHeader::new("Notes")
        .default_open(true)
        .show(ui, |ui| {
            action = course_row(ui, lesson.number, probe);
            if let Some(title) = view.title {
                ui.heading(title);
            }
            if let Some(notes) = view.notes {
                ui.label(paragraph(notes));
            }
            ui.add_space(6.0);
            ui.strong("Question");
            ui.label(paragraph(&lesson.question));
            let label = if panel.answer_shown {
                "Hide answer"
            } else {
                "Show answer"
            };
            let toggle = ui.button(label);
            note(ui, probe, "lesson:answer", &toggle);
            if toggle.clicked() {
                panel.answer_shown = !panel.answer_shown;
            }
            if panel.answer_shown {
                ui.label(paragraph(&lesson.answer));
            }
            if let Some(exercise) = &lesson.exercise {
                ui.add_space(6.0);
                ui.strong("Exercise");
                ui.label(paragraph(&exercise.task));
                let status = exercise_status(ui, panel, &exercise.found);
                note(ui, probe, "lesson:status", &status);
            }
        });
    action
}

/// "Lesson 4 of 10", Previous and Next: wrapped, so that a narrow panel at a projector's
/// UI scale does not widen the notes below past its edge.
fn course_row(ui: &mut egui::Ui, number: u32, probe: &mut TestProbe) -> Option<Action> {
    let mut action = None;
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("Lesson {number} of {}", lessons::LESSONS.len()));
        let previous = lessons::neighbour(number, -1);
        let button = ui.add_enabled(previous.is_some(), egui::Button::new("< Previous"));
        note(ui, probe, "lesson:previous", &button);
        if button.clicked() {
            action = previous.map(open);
        }
        let next = lessons::neighbour(number, 1);
        let button = ui.add_enabled(next.is_some(), egui::Button::new("Next >"));
        note(ui, probe, "lesson:next", &button);
        if button.clicked() {
            action = next.map(open);
        }
    });
    action
}

/// The exercise's state: found now, found before, or not yet.
fn exercise_status(ui: &mut egui::Ui, panel: &LessonPanel, found: &str) -> egui::Response {
    let found = paragraph(found);
    if panel.met {
        ui.colored_label(FOUND, format!("\u{2714} Found it! {found}"))
    } else if panel.found {
        ui.label(format!(
            "\u{2714} Found it before (not in this pose). {found}"
        ))
    } else {
        ui.weak("Not yet: the window checks as you move the bodies.")
    }
}

/// Opening a lesson asks about unsaved changes first, like any other scene.
pub fn open(name: &'static str) -> Action {
    Action::Request(Pending::Example(name.to_string()))
}

fn note(ui: &egui::Ui, probe: &mut TestProbe, name: &str, response: &egui::Response) {
    probe.note_widget(name, response.rect, ui.ctx().pixels_per_point());
}
