//! The menu bar: File (new, open, save, recent, examples, screenshot, quit), Edit, View.

//!
//! It edits the view settings itself and returns the rest (open, save, undo, ...) as
//! [`Action`]s for the window to apply.

use crate::app::action::Action;
use crate::app::dialogs::Pending;
use crate::app::examples::EXAMPLES;
use crate::app::files::DialogKind;
use crate::app::prefs::ViewPrefs;
use crate::app::state::Document;
use egui_macroquad::egui;
use std::path::PathBuf;

/// What the menu shows, and the settings it edits in place.
pub struct MenuModel<'a> {
    /// The window title: the document name, marked while there are unsaved changes.
    pub title: &'a str,
    pub doc: &'a Document,
    pub recent: &'a [PathBuf],
    pub can_undo: bool,
    pub can_redo: bool,
    pub snap: &'a mut bool,
    /// Snapping dragged bodies onto the other bodies' vertices and edges.
    pub snap_bodies: &'a mut bool,
    pub prefs: &'a mut ViewPrefs,
    /// The help window is open.
    pub help: &'a mut bool,
}

/// Builds the menu bar; returns what was chosen.
pub fn show(ctx: &egui::Context, menu: &mut MenuModel) -> Vec<Action> {
    let mut actions = Vec::new();
    egui::TopBottomPanel::top("menu").show(ctx, |ui| {
        egui::menu::bar(ui, |ui| {
            file_menu(ui, menu, &mut actions);
            edit_menu(ui, menu, &mut actions);
            view_menu(ui, menu, &mut actions);
            ui.menu_button("Help", |ui| {
                if ui.button("Mouse and keys").clicked() {
                    *menu.help = true;
                    ui.close_menu();
                }
            });
            ui.separator();
            let text = egui::RichText::new(menu.title).strong();
            ui.label(if menu.doc.dirty {
                text.color(egui::Color32::from_rgb(185, 28, 28))
            } else {
                text
            });
        });
    });
    actions
}

fn file_menu(ui: &mut egui::Ui, menu: &mut MenuModel, actions: &mut Vec<Action>) {
    ui.menu_button("File", |ui| {
        if ui.button("New").clicked() {
            actions.push(Action::Request(Pending::New));
            ui.close_menu();
        }
        if ui.button("Open…  (Ctrl+O)").clicked() {
            actions.push(Action::AskPath(DialogKind::Open));
            ui.close_menu();
        }
        ui.menu_button("Open recent", |ui| {
            if menu.recent.is_empty() {
                ui.label("(none yet)");
            }
            for path in menu.recent {
                if ui.button(path.display().to_string()).clicked() {
                    actions.push(Action::Request(Pending::Open(path.clone())));
                    ui.close_menu();
                }
            }
        });
        ui.menu_button("Examples", |ui| {
            egui::ScrollArea::vertical()
                .max_height(500.0)
                .show(ui, |ui| {
                    for (name, _) in EXAMPLES {
                        if ui.button(*name).clicked() {
                            actions.push(Action::Request(Pending::Example(name.to_string())));
                            ui.close_menu();
                        }
                    }
                });
        });
        ui.separator();
        if ui.button("Save  (Ctrl+S)").clicked() {
            actions.push(Action::Save);
            ui.close_menu();
        }
        if ui.button("Save As…  (Ctrl+Shift+S)").clicked() {
            actions.push(Action::AskPath(DialogKind::SaveAs));
            ui.close_menu();
        }
        if ui
            .add_enabled(
                menu.doc.path.is_some(),
                egui::Button::new("Reload from disk"),
            )
            .clicked()
        {
            actions.push(Action::Reload);
            ui.close_menu();
        }
        ui.separator();
        if ui.button("Screenshot  (F12)").clicked() {
            menu.prefs.screenshot = true;
            ui.close_menu();
        }
        ui.separator();
        if ui.button("Quit  (Ctrl+Q)").clicked() {
            actions.push(Action::Request(Pending::Quit));
            ui.close_menu();
        }
    });
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
    ui.menu_button("View", |ui| {
        if ui.button("Fit all  (F)").clicked() {
            actions.push(Action::FitAll);
            ui.close_menu();
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
        ui.horizontal(|ui| {
            ui.label("UI scale");
            ui.add(egui::Slider::new(&mut menu.prefs.ui_scale, 0.75..=3.0).step_by(0.25));
        });
        ui.label("Use 2 or more on a projector.");
    });
}
