//! Dialogs: the path field for Open and Save As (with the native dialog behind a Browse
//! button), the unsaved-changes question, and the help card.
//!
//! They edit their own state ([`Dialogs`]) and return what the user chose to do (open,
//! save, discard, reload) as [`Action`]s for the window to apply.

use crate::app::action::Action;
use crate::app::dialogs::{Dialogs, Pending};
use crate::app::file_state::FileState;
use crate::app::platform::DialogKind;
use crate::app::probe::TestProbe;
use egui_macroquad::egui;
use std::path::PathBuf;

/// Shows the open dialogs for the document in `file`; returns what was chosen.
pub fn show(
    ctx: &egui::Context,
    dialogs: &mut Dialogs,
    probe: &mut TestProbe,
    file: &FileState,
) -> Vec<Action> {
    let mut actions = Vec::new();
    actions.extend(path_dialog(ctx, dialogs, probe));
    actions.extend(confirm(ctx, dialogs, probe, file));
    actions.extend(changed_on_disk(ctx, dialogs));
    actions.extend(share(ctx, dialogs, probe));
    help(ctx, dialogs);
    actions
}

fn path_dialog(
    ctx: &egui::Context,
    dialogs: &mut Dialogs,
    probe: &mut TestProbe,
) -> Option<Action> {
    let kind = dialogs.path.kind?;
    let title = match kind {
        DialogKind::Open => "Open scene",
        DialogKind::SaveAs => "Save scene as",
    };
    let mut go = false;
    let mut cancel = false;
    let mut browse_clicked = false;
    egui::Window::new(title)
        .collapsible(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label("Path of the .ron file:");
            let r = ui.add(egui::TextEdit::singleline(&mut dialogs.path.text).desired_width(420.0));
            if std::mem::take(&mut dialogs.path.focus) {
                r.request_focus();
            }
            if r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                go = true;
            }
            if let Some(err) = &dialogs.path.error {
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
                let browsing = dialogs.browsing;
                let browse = ui
                    .add_enabled(!browsing, egui::Button::new("Browse…"))
                    .on_hover_text("The system file dialog (through the XDG desktop portal)");
                probe.note_widget("dialog:browse", browse.rect, ui.ctx().pixels_per_point());
                browse_clicked = browse.clicked();
                if browsing {
                    ui.spinner();
                }
                cancel = ui.button("Cancel").clicked();
            });
        });
    if browse_clicked {
        return Some(Action::Browse(kind));
    }
    if cancel {
        dialogs.path.kind = None;
    } else if go {
        let path = PathBuf::from(dialogs.path.text.trim());
        if path.as_os_str().is_empty() {
            dialogs.path.error = Some("Type a path first.".into());
            return None;
        }
        dialogs.path.kind = None;
        return Some(match kind {
            DialogKind::Open => Action::Request(Pending::Open(path)),
            DialogKind::SaveAs => Action::SaveTo(path),
        });
    }
    None
}

fn confirm(
    ctx: &egui::Context,
    dialogs: &mut Dialogs,
    probe: &mut TestProbe,
    file: &FileState,
) -> Option<Action> {
    let pending = dialogs.confirm.clone()?;
    let mut action = None;
    let what = match &pending {
        Pending::New | Pending::New3d => "starting a new scene",
        Pending::Open(_) | Pending::OpenText { .. } | Pending::Example(_) => {
            "opening another scene"
        }
        Pending::Quit => "quitting",
    };
    egui::Window::new("Unsaved changes")
        .collapsible(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(format!(
                "{} has unsaved changes. Save them before {what}?",
                file.display_name()
            ));
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    action = Some(Action::SaveThenPerform(pending.clone()));
                }
                let discard = ui.button("Discard changes");
                let ppp = ui.ctx().pixels_per_point();
                // The window's first frame only measures it (drawn nowhere, placed as if
                // empty); the buttons' places are known from the next frame on.
                let placed = !ui.is_sizing_pass();
                if placed {
                    probe.note_widget("confirm:discard", discard.rect, ppp);
                }
                if discard.clicked() {
                    dialogs.confirm = None;
                    action = Some(Action::Perform(pending.clone()));
                }
                let cancel = ui.button("Cancel");
                if placed {
                    probe.note_widget("confirm:cancel", cancel.rect, ppp);
                }
                if cancel.clicked() {
                    dialogs.confirm = None;
                }
            });
        });
    action
}

fn changed_on_disk(ctx: &egui::Context, dialogs: &mut Dialogs) -> Option<Action> {
    if !dialogs.changed_on_disk {
        return None;
    }
    let mut action = None;
    egui::Window::new("File changed on disk")
        .collapsible(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 40.0])
        .show(ctx, |ui| {
            ui.label("Another program changed the open file, and this window has unsaved edits.");
            ui.horizontal(|ui| {
                if ui.button("Reload (lose my edits)").clicked() {
                    action = Some(Action::Reload);
                }
                if ui.button("Keep mine").clicked() {
                    dialogs.changed_on_disk = false;
                }
            });
        });
    action
}

/// The share link, selectable, with a Copy button; it holds the scene as it was when made.
fn share(ctx: &egui::Context, dialogs: &mut Dialogs, probe: &mut TestProbe) -> Option<Action> {
    let link = dialogs.share.shown_link.clone()?;
    let mut copy = false;
    let mut close = false;
    egui::Window::new("Share link")
        .collapsible(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(
                "This link opens the scene as it is now: its bodies, the view and the overlays.",
            );
            ui.label(
                "Paste it in a browser with collision-lab's page open, or write it back to a \
                 file with `collision-lab open-link LINK --out scene.ron`.",
            );
            // Read-only, still selectable: a `&str` is text egui shows but cannot change.
            // One line that scrolls: a link is one long word, and wrapped it fills the screen.
            let mut shown = link.as_str();
            let field = ui.add(egui::TextEdit::singleline(&mut shown).desired_width(520.0));
            let ppp = ui.ctx().pixels_per_point();
            probe.note_widget("share:link", field.rect, ppp);
            ui.label(format!("{} characters", link.chars().count()));
            ui.horizontal(|ui| {
                let button = ui.button("Copy");
                probe.note_widget("share:copy", button.rect, ppp);
                copy = button.clicked();
                close = ui.button("Close").clicked();
            });
        });
    if close {
        dialogs.share.shown_link = None;
    }
    copy.then_some(Action::CopyText(link))
}

fn help(ctx: &egui::Context, dialogs: &mut Dialogs) {
    let mut open = dialogs.help;
    egui::Window::new("Mouse and keys")
        .open(&mut open)
        .show(ctx, |ui| {
            for (heading, rows) in [
                ("In 2D (the files, undo and timeline keys in 3D too)", HELP),
                ("In the 3D workspace", HELP_3D),
            ] {
                ui.strong(heading);
                egui::Grid::new(heading).striped(true).show(ui, |ui| {
                    for (k, what) in rows {
                        ui.monospace(*k);
                        ui.label(*what);
                        ui.end_row();
                    }
                });
            }
        });
    dialogs.help = open;
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
    (
        "drag near another body",
        "snaps to its vertex or edge, touching exactly (hold Alt: free)",
    ),
    ("V", "split view: bodies | A - B (each half pans and zooms)"),
    ("Left / Right, P", "timeline step, play/pause"),
    ("Home / End", "first / last step of the timeline"),
    ("Ctrl+Z / Ctrl+Shift+Z", "undo / redo"),
    (
        "Ctrl+S, Ctrl+Shift+S, Ctrl+O, Ctrl+N",
        "save, save as, open, new",
    ),
    ("Ctrl+D", "duplicate"),
    ("Ctrl+Q", "quit (asks about unsaved changes)"),
    ("F12", "screenshot to PNG"),
];

const HELP_3D: &[(&str, &str)] = &[
    ("right drag", "orbit the camera about its target"),
    ("middle drag, Space+drag", "pan"),
    ("wheel", "zoom toward the pointer"),
    ("drag a body", "move it in the plane facing the camera"),
    (
        "hold X, Y or Z while dragging",
        "move along that world axis",
    ),
    ("Shift+drag", "turn the body (trackball)"),
    ("drag an arrow tip", "set a velocity"),
    ("G", "snap positions to 0.1 and turns to 15 degrees"),
    ("1, 2, 3, 4", "front, top, side, three-quarter view"),
    ("O", "perspective / orthographic"),
];
