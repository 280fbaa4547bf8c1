//! The desktop: scenes are files with paths. Native dialogs (rfd through the XDG portal) run
//! on a thread of their own so the window keeps drawing, and when no portal answers the
//! in-window path field is the way in. The open file is polled for changes, recent files
//! are kept in the user's config folder, and the title is set through libX11 (`title`).

use super::{DialogKind, FileAnswer, Platform};
use crate::app::title::Title;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::time::SystemTime;

/// Most recent files remembered.
const MAX_RECENT: usize = 10;

/// Seconds between two checks of the open file.
const WATCH_INTERVAL: f64 = 0.4;

pub struct Desktop {
    recent: Vec<PathBuf>,
    watcher: Watcher,
    dialog: Option<NativeDialog>,
    title: Title,
}

impl Desktop {
    pub fn new() -> Desktop {
        Desktop {
            recent: load_recent(),
            watcher: Watcher::default(),
            dialog: None,
            title: Title::default(),
        }
    }
}

impl Default for Desktop {
    fn default() -> Desktop {
        Desktop::new()
    }
}

impl Platform for Desktop {
    fn has_paths(&self) -> bool {
        true
    }

    fn ask_file(&mut self, kind: DialogKind, start_dir: Option<PathBuf>) {
        let start_dir = start_dir.or_else(|| std::env::current_dir().ok());
        self.dialog = Some(NativeDialog::spawn(kind, start_dir));
    }

    fn is_asking(&self) -> bool {
        self.dialog.is_some()
    }

    fn poll_answer(&mut self) -> Option<(DialogKind, FileAnswer)> {
        let answer = self.dialog.as_ref()?.poll()?;
        let kind = self.dialog.take()?.kind;
        Some((kind, answer.map_or(FileAnswer::Nothing, FileAnswer::Path)))
    }

    fn store(&mut self, path: &Path, bytes: &[u8]) -> Result<String, String> {
        crate::scene::write_atomic(path, bytes)
            .map(|()| path.display().to_string())
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    fn prepare_folder(&mut self, dir: &Path) -> Result<(), String> {
        crate::app::files::prepare_folder(dir)
    }

    fn recent(&self) -> &[PathBuf] {
        &self.recent
    }

    fn remember(&mut self, path: &Path) {
        remember(&mut self.recent, path);
    }

    fn watch(&mut self, path: Option<&Path>) {
        self.watcher.watch(path);
    }

    fn file_changed(&mut self, now: f64) -> bool {
        self.watcher.changed(now)
    }

    fn rest(&self, how_long: std::time::Duration) {
        std::thread::sleep(how_long);
    }

    fn can_quit(&self) -> bool {
        true
    }

    fn show_title(&mut self, title: &str) {
        self.title.update(title);
    }

    fn page_address(&self) -> Option<String> {
        None
    }

    fn take_start_fragment(&mut self) -> Option<String> {
        None
    }

    fn show_fragment(&mut self, _fragment: &str) {}

    fn copy_text(&mut self, text: &str) {
        macroquad::miniquad::window::clipboard_set(text);
    }
}

/// Where the recent-files list lives: `$XDG_CONFIG_HOME/collision-lab/recent.txt`, or
/// under `~/.config`.
fn recent_file() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("collision-lab").join("recent.txt"))
}

fn load_recent() -> Vec<PathBuf> {
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
fn remember(recent: &mut Vec<PathBuf>, path: &Path) {
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
struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
}

fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    Some(Stamp {
        modified: meta.modified().ok(),
        len: meta.len(),
    })
}

/// Polls the open file a few times a second.
#[derive(Default)]
struct Watcher {
    path: Option<PathBuf>,
    last: Option<Stamp>,
    next_check: f64,
}

impl Watcher {
    /// Starts watching `path` as it is now (or stops, with `None`).
    fn watch(&mut self, path: Option<&Path>) {
        self.path = path.map(Path::to_path_buf);
        self.last = path.and_then(stamp);
    }

    /// Whether the file changed since the last call (or since `watch`).
    fn changed(&mut self, now: f64) -> bool {
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

/// A native file dialog running on its own thread. When no portal answers, the dialog
/// gives `None` and the in-window path field stays the way in.
struct NativeDialog {
    kind: DialogKind,
    receiver: Receiver<Option<PathBuf>>,
}

impl NativeDialog {
    fn spawn(kind: DialogKind, start_dir: Option<PathBuf>) -> NativeDialog {
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
    fn poll(&self) -> Option<Option<PathBuf>> {
        match self.receiver.try_recv() {
            Ok(answer) => Some(answer),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_watcher_sees_a_change_once() {
        let dir = std::env::temp_dir().join(format!("watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("scene.ron");
        std::fs::write(&file, "one").unwrap();
        let mut watcher = Watcher::default();
        watcher.watch(Some(&file));
        assert!(!watcher.changed(0.0), "nothing changed yet");
        std::fs::write(&file, "two, longer").unwrap();
        assert!(!watcher.changed(0.1), "checked only every WATCH_INTERVAL");
        assert!(watcher.changed(1.0), "the new length is seen");
        assert!(!watcher.changed(2.0), "and only once");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn stored_files_replace_the_old_one_whole() {
        let dir = std::env::temp_dir().join(format!("store-{}", std::process::id()));
        let mut desktop = Desktop {
            recent: Vec::new(),
            watcher: Watcher::default(),
            dialog: None,
            title: Title::default(),
        };
        desktop.prepare_folder(&dir).unwrap();
        let file = dir.join("shot.png");
        std::fs::write(&file, b"old").unwrap();
        let said = desktop.store(&file, b"new bytes").unwrap();
        assert_eq!(said, file.display().to_string());
        assert_eq!(std::fs::read(&file).unwrap(), b"new bytes");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file left beside it");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
