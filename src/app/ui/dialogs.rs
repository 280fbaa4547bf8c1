//! Dialogs: the path field for Open and Save As (with the native dialog behind a Browse
//! button), the unsaved-changes question, and the help card.

use crate::app::dialogs::Pending;
use crate::app::files::DialogKind;
use crate::app::shell::App;
use egui_macroquad::egui;
use std::path::PathBuf;

pub fn show(ctx: &egui::Context, app: &mut App) {
    path_dialog(ctx, app);
    confirm(ctx, app);
    changed_on_disk(ctx, app);
    help(ctx, app);
}

fn path_dialog(ctx: &egui::Context, app: &mut App) {
    let Some(kind) = app.dialogs.path.kind else {
        return;
    };
    let title = match kind {
        DialogKind::Open => "Open scene",
        DialogKind::SaveAs => "Save scene as",
    };
    let mut go = false;
    let mut cancel = false;
    egui::Window::new(title)
        .collapsible(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label("Path of the .ron file:");
            let r =
                ui.add(egui::TextEdit::singleline(&mut app.dialogs.path.text).desired_width(420.0));
            if std::mem::take(&mut app.dialogs.path.focus) {
                r.request_focus();
            }
            if r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                go = true;
            }
            if let Some(err) = &app.dialogs.path.error {
                ui.colored_label(egui::Color32::from_rgb(185, 28, 28), err);
            }
            ui.horizontal(|ui| {
                go |= ui
                    .button(if kind == DialogKind::Open {
                        "Open"
                    } else {
                        "Save"
                    })
                    .clicked();
                let browsing = app.dialogs.native.is_some();
                let browse = ui
                    .add_enabled(!browsing, egui::Button::new("Browse…"))
                    .on_hover_text("The system file dialog (through the XDG desktop portal)");
                app.probe
                    .note_widget("dialog:browse", browse.rect, ui.ctx().pixels_per_point());
                if browse.clicked() {
                    app.browse(kind);
                }
                if browsing {
                    ui.spinner();
                }
                cancel = ui.button("Cancel").clicked();
            });
        });
    if cancel {
        app.dialogs.path.kind = None;
    } else if go {
        let path = PathBuf::from(app.dialogs.path.text.trim());
        if path.as_os_str().is_empty() {
            app.dialogs.path.error = Some("Type a path first.".into());
            return;
        }
        app.dialogs.path.kind = None;
        match kind {
            DialogKind::Open => app.request(Pending::Open(path)),
            DialogKind::SaveAs => app.save_to(&path),
        }
    }
}

fn confirm(ctx: &egui::Context, app: &mut App) {
    let Some(pending) = app.dialogs.confirm.clone() else {
        return;
    };
    let what = match &pending {
        Pending::New => "starting a new scene",
        Pending::Open(_) | Pending::Example(_) => "opening another scene",
        Pending::Quit => "quitting",
    };
    egui::Window::new("Unsaved changes")
        .collapsible(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(format!(
                "{} has unsaved changes. Save them before {what}?",
                app.doc().display_name()
            ));
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    if app.doc().path.is_some() {
                        app.save();
                        if !app.doc().dirty {
                            app.dialogs.confirm = None;
                            if pending != Pending::Quit {
                                app.perform(pending.clone());
                            }
                        }
                    } else {
                        app.ask_path(DialogKind::SaveAs);
                    }
                }
                let discard = ui.button("Discard changes");
                let ppp = ui.ctx().pixels_per_point();
                app.probe.note_widget("confirm:discard", discard.rect, ppp);
                if discard.clicked() {
                    app.dialogs.confirm = None;
                    app.perform(pending.clone());
                }
                let cancel = ui.button("Cancel");
                app.probe.note_widget("confirm:cancel", cancel.rect, ppp);
                if cancel.clicked() {
                    app.dialogs.confirm = None;
                }
            });
        });
}

fn changed_on_disk(ctx: &egui::Context, app: &mut App) {
    if !app.dialogs.changed_on_disk {
        return;
    }
    egui::Window::new("File changed on disk")
        .collapsible(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 40.0])
        .show(ctx, |ui| {
            ui.label("Another program changed the open file, and this window has unsaved edits.");
            ui.horizontal(|ui| {
                if ui.button("Reload (lose my edits)").clicked() {
                    app.reload();
                }
                if ui.button("Keep mine").clicked() {
                    app.dialogs.changed_on_disk = false;
                }
            });
        });
}

fn help(ctx: &egui::Context, app: &mut App) {
    let mut open = app.dialogs.help;
    egui::Window::new("Mouse and keys")
        .open(&mut open)
        .show(ctx, |ui| {
            egui::Grid::new("keys").striped(true).show(ui, |ui| {
                for (k, what) in HELP {
                    ui.monospace(*k);
                    ui.label(*what);
                    ui.end_row();
                }
            });
        });
    app.dialogs.help = open;
}

const HELP: &[(&str, &str)] = &[
    ("drag", "move a body (empty space: pan)"),
    ("Shift+drag / knob", "rotate a body"),
    (
        "drag a corner",
        "move a vertex (non-convex moves are refused)",
    ),
    ("double-click an edge", "add a vertex"),
    ("Del", "delete the selected vertex, else the body"),
    ("drag an arrow tip", "set a velocity"),
    (
        "Ctrl+click / Alt+click",
        "make a body B / A of the focused pair",
    ),
    ("right or middle drag, Space+drag", "pan"),
    ("wheel", "zoom at the cursor"),
    ("F", "fit all"),
    ("G", "snap to grid"),
    ("Left / Right, P", "timeline step, play/pause"),
    ("Ctrl+Z / Ctrl+Shift+Z", "undo / redo"),
    (
        "Ctrl+S, Ctrl+Shift+S, Ctrl+O, Ctrl+N",
        "save, save as, open, new",
    ),
    ("Ctrl+D", "duplicate"),
    ("Ctrl+Q", "quit (asks about unsaved changes)"),
    ("F12", "screenshot to PNG"),
];
