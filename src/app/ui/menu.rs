//! The menu bar: File (new, open, save, recent, examples, screenshot, quit), Edit, View.

//!
//! It edits the view settings itself and returns the rest (open, save, undo, ...) as
//! [`Action`]s for the window to apply.

use crate::app::action::Action;
use crate::app::action::View3Command;
use crate::app::dialogs::Pending;
use crate::app::document::DocOutline;
use crate::app::examples;
use crate::app::platform::{DialogKind, Platform};
use crate::app::prefs::ViewPrefs;
use crate::app::probe::TestProbe;
use crate::app::title::UNSAVED_MARK;
use egui_macroquad::egui;

/// What the menu shows, and the settings it edits in place.
pub struct MenuModel<'a> {
    /// The window title: the document name, marked while there are unsaved changes.
    pub title: &'a str,
    pub doc: DocOutline<'a>,
    /// The desktop or the browser: recent files, whether scenes have paths, quitting.
    pub platform: &'a dyn Platform,
    pub can_undo: bool,
    pub can_redo: bool,
    pub snap: &'a mut bool,
    /// Snapping dragged bodies onto the other bodies' vertices and edges.
    pub snap_bodies: &'a mut bool,
    pub prefs: &'a mut ViewPrefs,
    /// The help window is open.
    pub help: &'a mut bool,
    /// The Scan window is open.
    pub scan_open: &'a mut bool,
    /// Where the window tests find the File menu's entries.
    pub probe: &'a mut TestProbe,
}

/// Builds the menu bar; returns what was chosen.
pub fn show(ctx: &egui::Context, menu: &mut MenuModel) -> Vec<Action> {
    let mut actions = Vec::new();
    egui::TopBottomPanel::top("menu").show(ctx, |ui| {
        egui::menu::bar(ui, |ui| {
            file_menu(ui, menu, &mut actions);
            edit_menu(ui, menu, &mut actions);
            view_menu(ui, menu, &mut actions);
            help_menu(ui, menu, &mut actions);
            ui.separator();
            let share = ui.button("Share link").on_hover_text(
                "A link that opens this scene, view and overlays (File > Share link)",
            );
            note(menu, ui, "menu:share-button", &share);
            if share.clicked() {
                actions.push(Action::ShareLink);
            }
            title_label(ui, menu.title, menu.doc.file.dirty);
        });
    });
    actions
}

/// Help: the course of lessons (with Previous and Next while one is open) and the keys.
fn help_menu(ui: &mut egui::Ui, menu: &mut MenuModel, actions: &mut Vec<Action>) {
    let help = ui.menu_button("Help", |ui| {
        let lessons = ui.menu_button("Lessons", |ui| {
            for (k, (name, title)) in crate::app::lessons::titles().iter().enumerate() {
                let entry = ui.button(title.as_str());
                note(menu, ui, &format!("menu:lesson-{}", k + 1), &entry);
                if entry.clicked() {
                    actions.push(super::lesson::open(name));
                    ui.close_menu();
                }
            }
        });
        note(menu, ui, "menu:lessons", &lessons.response);
        if let Some(number) = menu.doc.lesson.map(|l| l.number) {
            for (label, delta) in [("Next lesson", 1), ("Previous lesson", -1)] {
                let target = crate::app::lessons::neighbour(number, delta);
                if ui
                    .add_enabled(target.is_some(), egui::Button::new(label))
                    .clicked()
                {
                    actions.extend(target.map(super::lesson::open));
                    ui.close_menu();
                }
            }
        }
        ui.separator();
        if ui.button("Mouse and keys").clicked() {
            *menu.help = true;
            ui.close_menu();
        }
    });
    note(menu, ui, "menu:help", &help.response);
}

/// The document's title; with unsaved changes in red after the mark. (At the menu's own
/// text size: a larger mark either grows the bar, moving the canvas when the mark appears,
/// or sits below the line.)
fn title_label(ui: &mut egui::Ui, title: &str, dirty: bool) {
    let text = egui::RichText::new(title).strong();
    if dirty && title.starts_with(UNSAVED_MARK) {
        ui.label(text.color(egui::Color32::from_rgb(185, 28, 28)))
            .on_hover_text("unsaved changes");
    } else {
        ui.label(text);
    }
}

/// Notes a menu entry's rectangle for the window tests.
fn note(menu: &mut MenuModel, ui: &egui::Ui, name: &str, response: &egui::Response) {
    let ppp = ui.ctx().pixels_per_point();
    menu.probe.note_widget(name, response.rect, ppp);
}

fn file_menu(ui: &mut egui::Ui, menu: &mut MenuModel, actions: &mut Vec<Action>) {
    let file = ui.menu_button("File", |ui| {
        if ui.button("New 2D scene  (Ctrl+N)").clicked() {
            actions.push(Action::Request(Pending::New));
            ui.close_menu();
        }
        if ui.button("New 3D scene").clicked() {
            actions.push(Action::Request(Pending::New3d));
            ui.close_menu();
        }
        let open = ui.button("Open…  (Ctrl+O)");
        note(menu, ui, "menu:open", &open);
        if open.clicked() {
            actions.push(Action::AskPath(DialogKind::Open));
            ui.close_menu();
        }
        if menu.platform.has_paths() {
            recent_menu(ui, menu, actions);
        }
        let examples = ui.menu_button("Examples", |ui| examples_menu(ui, menu, actions));
        note(menu, ui, "menu:examples", &examples.response);
        ui.separator();
        save_entries(ui, menu, actions);
        ui.separator();
        regression_and_slides(ui, menu, actions);
        ui.separator();
        let screenshot = ui.button("Screenshot  (F12)");
        note(menu, ui, "menu:screenshot", &screenshot);
        if screenshot.clicked() {
            menu.prefs.screenshot = true;
            ui.close_menu();
        }
        if menu.platform.can_quit() {
            ui.separator();
            if ui.button("Quit  (Ctrl+Q)").clicked() {
                actions.push(Action::Request(Pending::Quit));
                ui.close_menu();
            }
        }
    });
    note(menu, ui, "menu:file", &file.response);
}

fn recent_menu(ui: &mut egui::Ui, menu: &MenuModel, actions: &mut Vec<Action>) {
    ui.menu_button("Open recent", |ui| {
        if menu.platform.recent().is_empty() {
            ui.label("(none yet)");
        }
        for path in menu.platform.recent() {
            if ui.button(path.display().to_string()).clicked() {
                actions.push(Action::Request(Pending::Open(path.clone())));
                ui.close_menu();
            }
        }
    });
}

/// Save, Save As (a download in the browser), Share link and, on the desktop, Reload.
fn save_entries(ui: &mut egui::Ui, menu: &mut MenuModel, actions: &mut Vec<Action>) {
    if ui.button("Save  (Ctrl+S)").clicked() {
        actions.push(Action::Save);
        ui.close_menu();
    }
    let save_as = if menu.platform.has_paths() {
        "Save As…  (Ctrl+Shift+S)"
    } else {
        "Download as .ron  (Ctrl+Shift+S)"
    };
    let save_as = ui.button(save_as);
    note(menu, ui, "menu:save-as", &save_as);
    if save_as.clicked() {
        actions.push(Action::AskPath(DialogKind::SaveAs));
        ui.close_menu();
    }
    let share = ui.button("Share link…");
    note(menu, ui, "menu:share", &share);
    if share.clicked() {
        actions.push(Action::ShareLink);
        ui.close_menu();
    }
    if menu.platform.has_paths()
        && ui
            .add_enabled(
                menu.doc.file.path.is_some(),
                egui::Button::new("Reload from disk"),
            )
            .clicked()
    {
        actions.push(Action::Reload);
        ui.close_menu();
    }
}

/// The example scenes by topic, each under its title (its file name on hover).
fn examples_menu(ui: &mut egui::Ui, menu: &mut MenuModel, actions: &mut Vec<Action>) {
    egui::ScrollArea::vertical()
        .max_height(560.0)
        .show(ui, |ui| {
            for (topic, entries) in examples::by_topic() {
                let group = ui.menu_button(topic.heading(), |ui| {
                    for e in entries {
                        let button = ui.button(e.title).on_hover_text(format!("{}.ron", e.name));
                        note(menu, ui, &format!("menu:example:{}", e.name), &button);
                        if button.clicked() {
                            actions.push(Action::Request(Pending::Example(e.name.to_string())));
                            ui.close_menu();
                        }
                    }
                });
                note(menu, ui, &format!("menu:topic:{topic:?}"), &group.response);
            }
        });
}

/// Keeping a case as a regression test, and slides of the timeline for a lecture.
fn regression_and_slides(ui: &mut egui::Ui, menu: &mut MenuModel, actions: &mut Vec<Action>) {
    let focus = menu.doc.focus_names().map(|(a, b)| format!("{a} vs {b}"));
    let every = menu.doc.names.len() >= 2;
    let record = ui.menu_button("Record current results as expectations", |ui| {
        let label = match &focus {
            Some(pair) => format!("Focused pair ({pair})"),
            None => "Focused pair (none)".into(),
        };
        let one = ui.add_enabled(focus.is_some(), egui::Button::new(label));
        let all = ui.add_enabled(every, egui::Button::new("Every pair"));
        ui.label("Then save: `collision-lab check` holds the scene to them.");
        (one, all)
    });
    note(menu, ui, "menu:record", &record.response);
    if let Some((one, all)) = record.inner {
        note(menu, ui, "menu:record:focused", &one);
        note(menu, ui, "menu:record:every", &all);
        for (response, every_pair) in [(one, false), (all, true)] {
            if response.clicked() {
                actions.push(Action::RecordExpectations { every_pair });
                ui.close_menu();
            }
        }
    }
    let slides = ui.button("Export slides of the timeline").on_hover_text(
        "One PNG per step of the timeline's algorithm, captioned, in NAME-slides/ beside the scene",
    );
    note(menu, ui, "menu:slides", &slides);
    if slides.clicked() {
        actions.push(Action::ExportSlides);
        ui.close_menu();
    }
}

fn edit_menu(ui: &mut egui::Ui, menu: &MenuModel, actions: &mut Vec<Action>) {
    ui.menu_button("Edit", |ui| {
        if ui
            .add_enabled(menu.can_undo, egui::Button::new("Undo  (Ctrl+Z)"))
            .clicked()
        {
            actions.push(Action::Undo);
            ui.close_menu();
        }
        if ui
            .add_enabled(menu.can_redo, egui::Button::new("Redo  (Ctrl+Shift+Z)"))
            .clicked()
        {
            actions.push(Action::Redo);
            ui.close_menu();
        }
        ui.separator();
        let has_sel = menu.doc.selected.is_some();
        if ui
            .add_enabled(has_sel, egui::Button::new("Duplicate  (Ctrl+D)"))
            .clicked()
        {
            actions.push(Action::DuplicateSelected);
            ui.close_menu();
        }
        if ui
            .add_enabled(has_sel, egui::Button::new("Delete  (Del)"))
            .clicked()
        {
            actions.push(Action::DeleteSelected);
            ui.close_menu();
        }
    });
}

fn view_menu(ui: &mut egui::Ui, menu: &mut MenuModel, actions: &mut Vec<Action>) {
    let view = ui.menu_button("View", |ui| {
        if ui.button("Fit all  (F)").clicked() {
            actions.push(Action::FitAll);
            ui.close_menu();
        }
        let mut presentation = menu.prefs.presentation;
        if ui
            .checkbox(&mut presentation, "Presentation mode  (F5)")
            .changed()
        {
            menu.prefs.set_presentation(presentation);
            actions.push(Action::FitAll);
        }
        if menu.doc.dimensions == 3 {
            view3_entries(ui, actions);
        }
        ui.checkbox(menu.snap, "Snap to grid  (G)");
        ui.checkbox(
            menu.snap_bodies,
            "Snap to other bodies while dragging  (hold Alt: free)",
        );
        ui.checkbox(
            &mut menu.prefs.split_view,
            "Split view: bodies | A - B  (V)",
        );
        ui.checkbox(&mut menu.prefs.show_legend, "Legend on the canvas");
        ui.checkbox(&mut menu.prefs.show_plots, "Plots window");
        let scan = ui.checkbox(menu.scan_open, "Scan window (where the answer flips)");
        note(menu, ui, "menu:view:scan", &scan);
        ui.horizontal(|ui| {
            ui.label("UI scale");
            ui.add(egui::Slider::new(&mut menu.prefs.ui_scale, 0.75..=3.0).step_by(0.25));
        });
        ui.label("Use 2 or more on a projector.");
    });
    note(menu, ui, "menu:view", &view.response);
}

/// The 3D view's presets and projection.
fn view3_entries(ui: &mut egui::Ui, actions: &mut Vec<Action>) {
    ui.separator();
    for (label, command) in View3Command::MENU {
        if ui.button(label).clicked() {
            actions.push(Action::View3(command));
            ui.close_menu();
        }
    }
    ui.separator();
}
