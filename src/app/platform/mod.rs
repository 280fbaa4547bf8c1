//! What the window asks of the machine it runs on, behind one interface: the desktop
//! ([`desktop`]: files with paths, native dialogs on a thread, watching the open file, recent
//! files, the X11 title, sleeping while idle) and the browser ([`web`], built for wasm32:
//! the page's file picker, downloads, the address bar's fragment for share links, the
//! clipboard). Everything else in the window is the same code on both.
//!
//! The shell holds one `Box<dyn Platform>` ([`this_platform`]); tests give it a desktop one.

#[cfg(not(target_arch = "wasm32"))]
pub mod desktop;
#[cfg(target_arch = "wasm32")]
pub mod web;

use std::path::{Path, PathBuf};

/// What the user is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DialogKind {
    /// A scene to open.
    Open,
    /// Where to save the scene.
    SaveAs,
}

/// The answer to [`Platform::ask_file`].
#[derive(Clone, Debug, PartialEq)]
pub enum FileAnswer {
    /// A path on this machine (the desktop's dialogs).
    Path(PathBuf),
    /// A file's name and contents, read by the browser (its file picker).
    Contents { name: String, bytes: Vec<u8> },
    /// The dialog closed with nothing chosen, or no dialog could be shown.
    Nothing,
}

/// The window's view of its platform. Methods that mean nothing somewhere (watching a file
/// in the browser, the address bar on the desktop) do nothing there and say so.
pub trait Platform {
    /// Whether scenes are files with paths here: the path field, Open recent, reload on
    /// change and the Save As path are shown only then (the desktop).
    fn has_paths(&self) -> bool;

    /// Starts asking for a file (a native dialog, or the browser's file picker) without
    /// blocking the frame loop; [`Platform::poll_answer`] gives the answer.
    fn ask_file(&mut self, kind: DialogKind, start_dir: Option<PathBuf>);

    /// Whether a dialog from [`Platform::ask_file`] is still open.
    fn is_asking(&self) -> bool;

    /// `Some` once the dialog closed (and then `None` until the next `ask_file`).
    fn poll_answer(&mut self) -> Option<(DialogKind, FileAnswer)>;

    /// Stores a file the user asked for (a scene, a screenshot, a slide). The desktop writes
    /// `path` through a temporary file, so a reader never sees half of it; the browser
    /// downloads it under `path`'s file name. Returns where it went, for the status line.
    fn store(&mut self, path: &Path, bytes: &[u8]) -> Result<String, String>;

    /// Makes sure files can be stored in `dir` (the slides' folder): made if needed and
    /// writable on the desktop; nothing to do in the browser.
    fn prepare_folder(&mut self, dir: &Path) -> Result<(), String>;

    /// Recently opened or saved files, newest first (none in the browser).
    fn recent(&self) -> &[PathBuf];

    /// Puts `path` at the front of the recent files (kept across runs on the desktop).
    fn remember(&mut self, path: &Path);

    /// Watches the open file for changes made by other programs (or stops, with `None`).
    fn watch(&mut self, path: Option<&Path>);

    /// Whether the watched file changed since the last call; `now` in seconds.
    fn file_changed(&mut self, now: f64) -> bool;

    /// Rests between two idle frames: the desktop sleeps; the browser's frames are paced
    /// by the page (a browser tab cannot block), so it returns at once.
    fn rest(&self, how_long: std::time::Duration);

    /// Whether the program can end itself (the browser's tab is closed by the user).
    fn can_quit(&self) -> bool;

    /// Shows `title` as the window's (or the page's) title.
    fn show_title(&mut self, title: &str);

    /// The page's address without its fragment, the base of a share link; `None` where
    /// there is no page (the desktop, which uses `scene::link::DEFAULT_BASE`).
    fn page_address(&self) -> Option<String>;

    /// The fragment the page was opened with (`s1=...` for a shared scene), once.
    fn take_start_fragment(&mut self) -> Option<String>;

    /// Shows `fragment` in the address bar, replacing the history entry (not adding one).
    fn show_fragment(&mut self, fragment: &str);

    /// Puts `text` on the clipboard.
    fn copy_text(&mut self, text: &str);

    /// Called when a frame is drawn, before it is shown (and before the idle frames keep
    /// it): the browser makes the picture's alpha opaque there.
    fn finish_frame(&mut self) {}
}

/// The platform this build runs on.
pub fn this_platform() -> Box<dyn Platform> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        Box::new(desktop::Desktop::new())
    }
    #[cfg(target_arch = "wasm32")]
    {
        Box::new(web::Browser::new())
    }
}
