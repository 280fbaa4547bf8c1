//! Files from the window: recent files, watching the open file for changes, native dialogs
//! on a background thread (rfd through the XDG portal), and the test hooks.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};
use std::time::SystemTime;

/// Most recent files remembered.
const MAX_RECENT: usize = 10;

/// Where the recent-files list lives: `$XDG_CONFIG_HOME/collision-lab/recent.txt`, or
/// under `~/.config`.
fn recent_file() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("collision-lab").join("recent.txt"))
}

pub fn load_recent() -> Vec<PathBuf> {
    let Some(file) = recent_file() else {
        return Vec::new();
    };
    std::fs::read_to_string(file)
        .map(|t| {
            t.lines()
                .filter(|l| !l.is_empty())
                .map(PathBuf::from)
                .collect()
        })
        .unwrap_or_default()
}

/// Moves `path` to the front of the list and stores the list (best effort).
pub fn remember(recent: &mut Vec<PathBuf>, path: &Path) {
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    recent.retain(|p| *p != path);
    recent.insert(0, path);
    recent.truncate(MAX_RECENT);
    if let Some(file) = recent_file() {
        let text: String = recent
            .iter()
            .map(|p| format!("{}\n", p.display()))
            .collect();
        if let Some(dir) = file.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = std::fs::write(file, text);
    }
}

/// The modification time and length of a file, to notice edits made by other programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
}

pub fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    Some(Stamp {
        modified: meta.modified().ok(),
        len: meta.len(),
    })
}

/// Polls the open file a few times a second.
#[derive(Default)]
pub struct Watcher {
    path: Option<PathBuf>,
    last: Option<Stamp>,
    next_check: f64,
}

/// Seconds between two checks.
const WATCH_INTERVAL: f64 = 0.4;

impl Watcher {
    /// Starts watching `path` as it is now (or stops, with `None`).
    pub fn watch(&mut self, path: Option<&Path>) {
        self.path = path.map(Path::to_path_buf);
        self.last = path.and_then(stamp);
    }

    /// Whether the file changed since the last call (or since `watch`).
    pub fn changed(&mut self, now: f64) -> bool {
        if now < self.next_check {
            return false;
        }
        self.next_check = now + WATCH_INTERVAL;
        let Some(path) = &self.path else {
            return false;
        };
        let current = stamp(path);
        if current.is_some() && current != self.last {
            self.last = current;
            return true;
        }
        false
    }
}

/// What a native dialog was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DialogKind {
    Open,
    SaveAs,
}

/// A native file dialog running on its own thread, so the window keeps drawing. When no
/// portal answers, the dialog gives `None` and the in-window path field stays the way in.
pub struct NativeDialog {
    pub kind: DialogKind,
    receiver: Receiver<Option<PathBuf>>,
}

impl NativeDialog {
    pub fn spawn(kind: DialogKind, start_dir: Option<PathBuf>) -> NativeDialog {
        let (sender, receiver) = channel();
        std::thread::spawn(move || {
            let mut dialog = rfd::FileDialog::new()
                .add_filter("collision-lab scene", &["ron"])
                .set_title(match kind {
                    DialogKind::Open => "Open scene",
                    DialogKind::SaveAs => "Save scene as",
                });
            if let Some(dir) = start_dir {
                dialog = dialog.set_directory(dir);
            }
            let picked = match kind {
                DialogKind::Open => dialog.pick_file(),
                DialogKind::SaveAs => dialog.set_file_name("scene.ron").save_file(),
            };
            let _ = sender.send(picked);
        });
        NativeDialog { kind, receiver }
    }

    /// `Some(answer)` once the dialog closed.
    pub fn poll(&self) -> Option<Option<PathBuf>> {
        match self.receiver.try_recv() {
            Ok(answer) => Some(answer),
            Err(std::sync::mpsc::TryRecvError::Empty) => None,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => Some(None),
        }
    }
}

/// A file name for a screenshot that does not exist yet in `dir`.
pub fn screenshot_path(dir: &Path) -> PathBuf {
    (1..)
        .map(|k| dir.join(format!("collision-lab-{k:03}.png")))
        .find(|p| !p.exists())
        .expect("some name is free")
}

/// The folder screenshots go to: `COLLISION_LAB_SCREENSHOT_DIR`, else the current folder.
pub fn screenshot_dir() -> PathBuf {
    std::env::var_os("COLLISION_LAB_SCREENSHOT_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The folder File > Export slides writes into: `NAME-slides` beside the scene's file, or
/// in the screenshot folder for a scene not saved yet, named after `unsaved_name` (the
/// example's name, "untitled").
pub fn slides_folder(scene: Option<&Path>, unsaved_name: &str) -> PathBuf {
    let (dir, name) = match scene {
        Some(path) => (
            path.parent()
                .filter(|d| !d.as_os_str().is_empty())
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
            path.file_stem()
                .map_or_else(|| "scene".into(), |s| s.to_string_lossy().into_owned()),
        ),
        None => (screenshot_dir(), unsaved_name.to_string()),
    };
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    dir.join(format!("{name}-slides"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slides_go_beside_the_scene_or_into_the_screenshot_folder() {
        assert_eq!(
            slides_folder(Some(Path::new("/lessons/gjk.ron")), "gjk.ron"),
            PathBuf::from("/lessons/gjk-slides")
        );
        assert_eq!(
            slides_folder(Some(Path::new("gjk.ron")), "gjk"),
            PathBuf::from("./gjk-slides")
        );
        let example = slides_folder(None, "3d/welcome");
        assert_eq!(example, screenshot_dir().join("3d_welcome-slides"));
    }
}
