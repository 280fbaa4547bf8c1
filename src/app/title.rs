//! The window title: the file name and a mark for unsaved changes. miniquad 0.4 sets the
//! title only when it creates the window, so on X11 the title is changed through libX11,
//! loaded at run time (no build-time X packages): the window is found by the unique title
//! it was created with, then renamed with `XStoreName` and `_NET_WM_NAME` (UTF-8).
//! Elsewhere the title stays as created and the menu bar shows the mark.

/// The mark before the document's name while it has unsaved changes, in the window title
/// and the menu bar: a bullet, which egui's default fonts draw (a test checks; they have no
/// U+25CF black circle, which showed as an empty box).
pub const UNSAVED_MARK: char = '\u{2022}';

/// The window title: the mark when unsaved, the document's name, the program.
pub fn window_title(name: &str, dirty: bool) -> String {
    let mark = if dirty {
        format!("{UNSAVED_MARK} ")
    } else {
        String::new()
    };
    format!("{mark}{name} \u{2014} collision-lab")
}

/// The title the window is created with, unique to this process so it can be found.
pub fn initial_title() -> String {
    if cfg!(target_arch = "wasm32") {
        // A browser tab has no process id (asking would panic); the page sets its title.
        return "collision-lab".into();
    }
    format!("collision-lab (starting, pid {})", std::process::id())
}

#[cfg(target_os = "linux")]
mod x11 {
    use std::ffi::{c_char, c_int, c_uint, c_ulong, c_void, CStr, CString};

    type Display = c_void;
    type Window = c_ulong;
    type Atom = c_ulong;

    type OpenDisplay = unsafe extern "C" fn(*const c_char) -> *mut Display;
    type DefaultRoot = unsafe extern "C" fn(*mut Display) -> Window;
    type QueryTree = unsafe extern "C" fn(
        *mut Display,
        Window,
        *mut Window,
        *mut Window,
        *mut *mut Window,
        *mut c_uint,
    ) -> c_int;
    type FetchName = unsafe extern "C" fn(*mut Display, Window, *mut *mut c_char) -> c_int;
    type Free = unsafe extern "C" fn(*mut c_void) -> c_int;
    type StoreName = unsafe extern "C" fn(*mut Display, Window, *const c_char) -> c_int;
    type InternAtom = unsafe extern "C" fn(*mut Display, *const c_char, c_int) -> Atom;
    type ChangeProperty = unsafe extern "C" fn(
        *mut Display,
        Window,
        Atom,
        Atom,
        c_int,
        c_int,
        *const u8,
        c_int,
    ) -> c_int;
    type Flush = unsafe extern "C" fn(*mut Display) -> c_int;

    /// libX11 entry points and our window on a connection of our own.
    pub struct Titler {
        display: *mut Display,
        window: Window,
        store_name: StoreName,
        intern_atom: InternAtom,
        change_property: ChangeProperty,
        flush: Flush,
    }

    unsafe fn symbol<T: Copy>(lib: *mut c_void, name: &CStr) -> Option<T> {
        let p = libc::dlsym(lib, name.as_ptr());
        // SAFETY (caller): T is the function pointer type of this libX11 symbol.
        (!p.is_null()).then(|| std::mem::transmute_copy::<*mut c_void, T>(&p))
    }

    /// Whether the X server named by `DISPLAY` accepts a connection; `None` when libX11 is
    /// not there to ask.
    ///
    /// The connection is deliberately left open for the life of the process: an X server
    /// with no other client (a fresh Xvfb) resets when its last client leaves, and a window
    /// opened during that reset fails with "XOpenDisplay() failed".
    pub fn display_opens() -> Option<bool> {
        // SAFETY: as in `Titler::find`; the connection opened here is never used again and
        // is closed by the process's exit.
        unsafe {
            let lib = libc::dlopen(c"libX11.so.6".as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
            if lib.is_null() {
                return None;
            }
            let open: OpenDisplay = symbol(lib, c"XOpenDisplay")?;
            let display = open(std::ptr::null());
            Some(!display.is_null())
        }
    }

    type DefaultScreen = unsafe extern "C" fn(*mut Display) -> c_int;
    type DisplayExtent = unsafe extern "C" fn(*mut Display, c_int) -> c_int;
    type CloseDisplay = unsafe extern "C" fn(*mut Display) -> c_int;

    /// The default screen's size in pixels, `None` when libX11 or the server is not there.
    pub fn screen_size() -> Option<(u32, u32)> {
        // SAFETY: as in `Titler::find`; the connection is closed before returning (the one
        // `display_opens` keeps stops the server resetting).
        unsafe {
            let lib = libc::dlopen(c"libX11.so.6".as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
            if lib.is_null() {
                return None;
            }
            let open: OpenDisplay = symbol(lib, c"XOpenDisplay")?;
            let screen: DefaultScreen = symbol(lib, c"XDefaultScreen")?;
            let width: DisplayExtent = symbol(lib, c"XDisplayWidth")?;
            let height: DisplayExtent = symbol(lib, c"XDisplayHeight")?;
            let close: CloseDisplay = symbol(lib, c"XCloseDisplay")?;
            let display = open(std::ptr::null());
            if display.is_null() {
                return None;
            }
            let s = screen(display);
            let size = (width(display, s), height(display, s));
            close(display);
            (size.0 > 0 && size.1 > 0).then_some((size.0 as u32, size.1 as u32))
        }
    }

    impl Titler {
        /// Connects to the X server and finds the window titled `title`.
        pub fn find(title: &str) -> Option<Titler> {
            // SAFETY: the symbols are looked up by their libX11 names and called with the
            // argument types of their C prototypes; every pointer passed is valid for the
            // call, and memory libX11 returns is released with XFree.
            unsafe {
                let lib = libc::dlopen(c"libX11.so.6".as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
                if lib.is_null() {
                    return None;
                }
                let open: OpenDisplay = symbol(lib, c"XOpenDisplay")?;
                let root: DefaultRoot = symbol(lib, c"XDefaultRootWindow")?;
                let query: QueryTree = symbol(lib, c"XQueryTree")?;
                let fetch: FetchName = symbol(lib, c"XFetchName")?;
                let free: Free = symbol(lib, c"XFree")?;
                let display = open(std::ptr::null());
                if display.is_null() {
                    return None;
                }
                let search = Search {
                    display,
                    query,
                    fetch,
                    free,
                    title,
                };
                let window = search.find(root(display), 0)?;
                Some(Titler {
                    display,
                    window,
                    store_name: symbol(lib, c"XStoreName")?,
                    intern_atom: symbol(lib, c"XInternAtom")?,
                    change_property: symbol(lib, c"XChangeProperty")?,
                    flush: symbol(lib, c"XFlush")?,
                })
            }
        }

        pub fn set(&self, title: &str) {
            let Ok(text) = CString::new(title) else {
                return;
            };
            // SAFETY: see `find`; `text` outlives the calls.
            unsafe {
                (self.store_name)(self.display, self.window, text.as_ptr());
                let name = (self.intern_atom)(self.display, c"_NET_WM_NAME".as_ptr(), 0);
                let utf8 = (self.intern_atom)(self.display, c"UTF8_STRING".as_ptr(), 0);
                let bytes = text.as_bytes();
                // Format 8, mode PropModeReplace (0).
                (self.change_property)(
                    self.display,
                    self.window,
                    name,
                    utf8,
                    8,
                    0,
                    bytes.as_ptr(),
                    bytes.len() as c_int,
                );
                (self.flush)(self.display);
            }
        }
    }

    struct Search<'a> {
        display: *mut Display,
        query: QueryTree,
        fetch: FetchName,
        free: Free,
        title: &'a str,
    }

    impl Search<'_> {
        /// Depth-first over the window tree (a window manager puts our window inside a
        /// frame, so it may be a grandchild of the root).
        unsafe fn find(&self, w: Window, depth: u32) -> Option<Window> {
            let mut name: *mut c_char = std::ptr::null_mut();
            if (self.fetch)(self.display, w, &mut name) != 0 && !name.is_null() {
                let found = CStr::from_ptr(name).to_bytes() == self.title.as_bytes();
                (self.free)(name.cast());
                if found {
                    return Some(w);
                }
            }
            if depth >= 3 {
                return None;
            }
            let (mut root, mut parent) = (0, 0);
            let mut children: *mut Window = std::ptr::null_mut();
            let mut count: c_uint = 0;
            if (self.query)(
                self.display,
                w,
                &mut root,
                &mut parent,
                &mut children,
                &mut count,
            ) == 0
            {
                return None;
            }
            let list: Vec<Window> = if children.is_null() {
                Vec::new()
            } else {
                let v = std::slice::from_raw_parts(children, count as usize).to_vec();
                (self.free)(children.cast());
                v
            };
            list.into_iter().find_map(|c| self.find(c, depth + 1))
        }
    }
}

/// Whether a window can be opened: false when `DISPLAY` names an X server that does not
/// answer (miniquad would panic) and no Wayland display is set.
pub fn display_available() -> bool {
    let wayland = std::env::var_os("WAYLAND_DISPLAY").is_some_and(|d| !d.is_empty());
    let x = std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty());
    if !x {
        return wayland;
    }
    #[cfg(target_os = "linux")]
    {
        x11::display_opens().unwrap_or(true) || wayland
    }
    #[cfg(not(target_os = "linux"))]
    {
        true
    }
}

/// The screen's size in pixels where it can be asked (X11), so the first window fits it.
pub fn screen_size() -> Option<(u32, u32)> {
    #[cfg(target_os = "linux")]
    {
        if std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty()) {
            return x11::screen_size();
        }
    }
    None
}

/// Keeps the window title in step with the document.
#[derive(Default)]
pub struct Title {
    shown: String,
    #[cfg(target_os = "linux")]
    titler: Option<x11::Titler>,
    #[cfg(target_os = "linux")]
    tried: bool,
}

impl Title {
    pub fn update(&mut self, title: &str) {
        if self.shown == title {
            return;
        }
        #[cfg(target_os = "linux")]
        {
            if !self.tried {
                self.tried = true;
                self.titler = x11::Titler::find(&initial_title());
            }
            if let Some(t) = &self.titler {
                t.set(title);
            }
        }
        self.shown = title.to_string();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_macroquad::egui;

    #[test]
    fn the_menu_bar_font_draws_the_unsaved_mark_and_the_dash() {
        let ctx = egui::Context::default();
        let _ = ctx.run(egui::RawInput::default(), |_| {});
        let title = window_title("scene.ron", true);
        assert!(title.starts_with(UNSAVED_MARK));
        for style in [egui::TextStyle::Body, egui::TextStyle::Button] {
            let font = ctx.style().text_styles[&style].clone();
            ctx.fonts(|f| {
                for c in title.chars() {
                    assert!(f.has_glyph(&font, c), "{c:?} is missing from {font:?}");
                }
            });
        }
        assert_eq!(window_title("a.ron", false), "a.ron \u{2014} collision-lab");
    }
}
