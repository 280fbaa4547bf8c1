//! The browser (wasm32): the page's JavaScript plugin (`web/collision-lab.js`, registered
//! with miniquad's loader) does what a page can: the file picker, downloads, the address
//! bar, the clipboard, the page title. Data crosses as pointers and lengths into this
//! module's memory; JavaScript never calls in, this side polls (a picked file waits in the
//! page until [`Platform::poll_answer`] asks for it), so no exports or wasm-bindgen glue
//! are needed beyond what macroquad's loader already provides.

use super::{DialogKind, FileAnswer, Platform};
use std::path::{Path, PathBuf};

extern "C" {
    /// Shows the page's file picker (`<input type=file accept=.ron>`).
    fn cl_pick_file();
    /// -1 while nothing was picked; otherwise the picked file's byte length (0 when the
    /// picker was closed without a file, with a name length of 0).
    fn cl_picked_size() -> i32;
    /// The picked file's name's length in UTF-8 bytes.
    fn cl_picked_name_size() -> i32;
    /// Copies the picked file's name and bytes to `name` and `bytes` (sized as the two
    /// calls above said) and forgets the file.
    fn cl_picked_take(name: *mut u8, bytes: *mut u8);
    /// Downloads `bytes` as a file called `name`, of MIME type `mime`.
    fn cl_download(
        name: *const u8,
        name_len: usize,
        bytes: *const u8,
        bytes_len: usize,
        mime: *const u8,
        mime_len: usize,
    );
    /// The length of the page's address without its fragment.
    fn cl_page_address_size() -> i32;
    fn cl_page_address_read(out: *mut u8);
    /// The length of the fragment the page was opened with (without `#`).
    fn cl_start_fragment_size() -> i32;
    fn cl_start_fragment_read(out: *mut u8);
    /// Replaces the address bar's fragment (history.replaceState).
    fn cl_show_fragment(text: *const u8, len: usize);
    /// Puts text on the clipboard (navigator.clipboard, after the click that asked).
    fn cl_copy_text(text: *const u8, len: usize);
    /// Sets the page's title.
    fn cl_set_title(text: *const u8, len: usize);
    /// Publishes the window tests' state for the page's tests (`window.collisionLabState`).
    fn cl_publish_state(text: *const u8, len: usize);
    /// Whether the page was opened for tests (`?test` in its address).
    fn cl_test_mode() -> i32;
}

pub struct Browser {
    asking: Option<DialogKind>,
    title: String,
    fragment_taken: bool,
}

impl Browser {
    pub fn new() -> Browser {
        Browser {
            asking: None,
            title: String::new(),
            fragment_taken: false,
        }
    }
}

impl Default for Browser {
    fn default() -> Browser {
        Browser::new()
    }
}

/// A string the page hands over: its length first, then the bytes copied in.
fn read_string(size: unsafe extern "C" fn() -> i32, read: unsafe extern "C" fn(*mut u8)) -> String {
    // SAFETY: the page's functions write exactly `size()` bytes into the buffer given.
    let len = unsafe { size() };
    if len <= 0 {
        return String::new();
    }
    let mut bytes = vec![0u8; len as usize];
    unsafe { read(bytes.as_mut_ptr()) };
    String::from_utf8_lossy(&bytes).into_owned()
}

impl Platform for Browser {
    fn has_paths(&self) -> bool {
        false
    }

    fn ask_file(&mut self, kind: DialogKind, _start_dir: Option<PathBuf>) {
        self.asking = Some(kind);
        // SAFETY: no arguments; the page shows its picker.
        unsafe { cl_pick_file() };
    }

    fn is_asking(&self) -> bool {
        self.asking.is_some()
    }

    fn poll_answer(&mut self) -> Option<(DialogKind, FileAnswer)> {
        let kind = self.asking?;
        // SAFETY: plain queries, then a copy into buffers of the sizes they gave.
        let size = unsafe { cl_picked_size() };
        if size < 0 {
            return None;
        }
        self.asking = None;
        let name_size = unsafe { cl_picked_name_size() }.max(0) as usize;
        let mut name = vec![0u8; name_size];
        let mut bytes = vec![0u8; size as usize];
        unsafe { cl_picked_take(name.as_mut_ptr(), bytes.as_mut_ptr()) };
        if name.is_empty() {
            return Some((kind, FileAnswer::Nothing));
        }
        let name = String::from_utf8_lossy(&name).into_owned();
        Some((kind, FileAnswer::Contents { name, bytes }))
    }

    fn store(&mut self, path: &Path, bytes: &[u8]) -> Result<String, String> {
        let name = path.file_name().map_or_else(
            || "collision-lab".into(),
            |n| n.to_string_lossy().into_owned(),
        );
        let mime = if name.ends_with(".png") {
            "image/png"
        } else {
            "text/plain;charset=utf-8"
        };
        // SAFETY: three valid slices for the call's duration; the page copies them.
        unsafe {
            cl_download(
                name.as_ptr(),
                name.len(),
                bytes.as_ptr(),
                bytes.len(),
                mime.as_ptr(),
                mime.len(),
            )
        };
        Ok(format!("{name} (downloaded)"))
    }

    fn prepare_folder(&mut self, _dir: &Path) -> Result<(), String> {
        Ok(())
    }

    fn recent(&self) -> &[PathBuf] {
        &[]
    }

    fn remember(&mut self, _path: &Path) {}

    fn watch(&mut self, _path: Option<&Path>) {}

    fn file_changed(&mut self, _now: f64) -> bool {
        false
    }

    fn rest(&self, _how_long: std::time::Duration) {}

    fn can_quit(&self) -> bool {
        false
    }

    fn show_title(&mut self, title: &str) {
        if self.title != title {
            self.title = title.to_string();
            // SAFETY: a valid slice for the call's duration.
            unsafe { cl_set_title(title.as_ptr(), title.len()) };
        }
    }

    fn page_address(&self) -> Option<String> {
        Some(read_string(cl_page_address_size, cl_page_address_read))
    }

    fn take_start_fragment(&mut self) -> Option<String> {
        if std::mem::replace(&mut self.fragment_taken, true) {
            return None;
        }
        Some(read_string(cl_start_fragment_size, cl_start_fragment_read))
    }

    fn show_fragment(&mut self, fragment: &str) {
        // SAFETY: a valid slice for the call's duration.
        unsafe { cl_show_fragment(fragment.as_ptr(), fragment.len()) };
    }

    fn copy_text(&mut self, text: &str) {
        // SAFETY: a valid slice for the call's duration.
        unsafe { cl_copy_text(text.as_ptr(), text.len()) };
    }

    /// The page composites the canvas with its alpha channel, and translucent fills and
    /// label boxes leave alpha below 1 there, so the page would show through and wash the
    /// picture out. Setting every pixel's alpha to 1 (colour untouched) keeps the picture
    /// as the desktop shows it. (Asking WebGL for a buffer without alpha would do it too,
    /// but then the idle frames' copy of the screen into an RGBA texture is refused.)
    fn finish_frame(&mut self) {
        use macroquad::miniquad::gl::{
            glClear, glClearColor, glColorMask, glDisable, GL_COLOR_BUFFER_BIT, GL_SCISSOR_TEST,
        };
        // SAFETY: on the thread that owns the GL context, after macroquad's batches are
        // flushed; the colour mask is put back as macroquad keeps it (all channels on).
        unsafe {
            macroquad::prelude::get_internal_gl().flush();
            glDisable(GL_SCISSOR_TEST);
            glColorMask(0, 0, 0, 1);
            glClearColor(0.0, 0.0, 0.0, 1.0);
            glClear(GL_COLOR_BUFFER_BIT);
            glColorMask(1, 1, 1, 1);
        }
    }
}

/// Whether the page asked for the tests' state (`?test`).
pub fn test_mode() -> bool {
    // SAFETY: a plain query.
    unsafe { cl_test_mode() != 0 }
}

/// Hands the window tests' state to the page.
pub fn publish_state(state: &str) {
    // SAFETY: a valid slice for the call's duration.
    unsafe { cl_publish_state(state.as_ptr(), state.len()) };
}
