//! The menu bar: File (new, open, save, recent, examples, screenshot, quit), Edit, View.

use crate::app::dialogs::Pending;
use crate::app::examples::EXAMPLES;
use crate::app::files::DialogKind;
use crate::app::shell::App;
use crate::app::workspace::Workspace;
use egui_macroquad::egui;

pub fn show(ctx: &egui::Context, app: &mut App) {
    egui::TopBottomPanel::top("menu").show(ctx, |ui| {
        egui::menu::bar(ui, |ui| {
            file_menu(ui, app);
            edit_menu(ui, app);
            view_menu(ui, app);
            ui.menu_button("Help", |ui| {
                if ui.button("Mouse and keys").clicked() {
                    app.dialogs.help = true;
                    ui.close_menu();
                }
            });
            ui.separator();
            // The document name, marked while there are unsaved changes.
            let title = app.title();
            let text = egui::RichText::new(title).strong();
            ui.label(if app.doc().dirty {
                text.color(egui::Color32::from_rgb(185, 28, 28))
            } else {
                text
            });
        });
    });
}

fn file_menu(ui: &mut egui::Ui, app: &mut App) {
    ui.menu_button("File", |ui| {
        if ui.button("New").clicked() {
            app.request(Pending::New);
            ui.close_menu();
        }
        if ui.button("Open…  (Ctrl+O)").clicked() {
            app.ask_path(DialogKind::Open);
            ui.close_menu();
        }
        ui.menu_button("Open recent", |ui| {
            if app.disk.recent.is_empty() {
                ui.label("(none yet)");
            }
            for path in app.disk.recent.clone() {
                if ui.button(path.display().to_string()).clicked() {
                    app.request(Pending::Open(path));
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
                            app.request(Pending::Example(name.to_string()));
                            ui.close_menu();
                        }
                    }
                });
        });
        ui.separator();
        if ui.button("Save  (Ctrl+S)").clicked() {
            app.save();
            ui.close_menu();
        }
        if ui.button("Save As…  (Ctrl+Shift+S)").clicked() {
            app.ask_path(DialogKind::SaveAs);
            ui.close_menu();
        }
        if ui
            .add_enabled(
                app.doc().path.is_some(),
                egui::Button::new("Reload from disk"),
            )
            .clicked()
        {
            app.reload();
            ui.close_menu();
        }
        ui.separator();
        if ui.button("Screenshot  (F12)").clicked() {
            app.prefs.screenshot = true;
            ui.close_menu();
        }
        ui.separator();
        if ui.button("Quit  (Ctrl+Q)").clicked() {
            app.request(Pending::Quit);
            ui.close_menu();
        }
    });
}

fn edit_menu(ui: &mut egui::Ui, app: &mut App) {
    ui.menu_button("Edit", |ui| {
        if ui
            .add_enabled(app.history.can_undo(), egui::Button::new("Undo  (Ctrl+Z)"))
            .clicked()
        {
            app.undo();
            ui.close_menu();
        }
        if ui
            .add_enabled(
                app.history.can_redo(),
                egui::Button::new("Redo  (Ctrl+Shift+Z)"),
            )
            .clicked()
        {
            app.redo();
            ui.close_menu();
        }
        ui.separator();
        let has_sel = app.doc().selected.is_some();
        if ui
            .add_enabled(has_sel, egui::Button::new("Duplicate  (Ctrl+D)"))
            .clicked()
        {
            app.duplicate_selected();
            ui.close_menu();
        }
        if ui
            .add_enabled(has_sel, egui::Button::new("Delete  (Del)"))
            .clicked()
        {
            if let Some(i) = app.doc().selected {
                app.checkpoint();
                app.doc_mut().remove_body(i);
            }
            ui.close_menu();
        }
    });
}

fn view_menu(ui: &mut egui::Ui, app: &mut App) {
    ui.menu_button("View", |ui| {
        if ui.button("Fit all  (F)").clicked() {
            app.workspace.fit_all();
            ui.close_menu();
        }
        ui.checkbox(&mut app.tools.snap, "Snap to grid  (G)");
        ui.checkbox(&mut app.prefs.show_legend, "Legend on the canvas");
        ui.checkbox(&mut app.prefs.show_plots, "Plots window");
        ui.horizontal(|ui| {
            ui.label("UI scale");
            ui.add(egui::Slider::new(&mut app.prefs.ui_scale, 0.75..=3.0).step_by(0.25));
        });
        ui.label("Use 2 or more on a projector.");
    });
}
