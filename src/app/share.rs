//! Share links in the window: File > Share link (and the menu bar's button) puts the scene,
//! as Save would write it (bodies, view, overlays, focus, sweep time), into a link
//! (`scene::link`: RON, zlib-compressed with its checksum, URL-safe base64 behind `#s1=`),
//! shows it with a Copy button and, in the browser, puts it in the address bar. A page
//! opened on such a link opens that scene; a link that does not decode or holds a bad scene
//! shows the error over the welcome scene, as a bad file does.
//!
//! Once a link is shown (or the page was opened on one), the address bar follows the edits:
//! each change replaces the history entry, so Back leaves the page instead of stepping
//! through every drag.

use super::document::LoadedDocument;
use super::platform::Platform;
use crate::scene::link::{
    check_shareable, decode_link, encode_fragment, link_for, DEFAULT_BASE, LINK_SOURCE,
};

/// Seconds between two looks at whether the scene changed, while the address bar follows
/// it: a RON text of a few bodies is cheap, but not every frame's work.
const FOLLOW_INTERVAL: f64 = 0.5;

/// The link File > Share link shows (with its Copy button), whether the address bar follows
/// the scene, and what it shows now.
#[derive(Default)]
pub struct SharedLink {
    /// The link shown in the Share link window, while it is open.
    pub shown_link: Option<String>,
    /// The fragment last put in the address bar; `None` while not following.
    shown: Option<String>,
    next_look: f64,
}

impl SharedLink {
    /// The link for the scene `text` (on the page's address, or the README's on the
    /// desktop), put in the address bar, which follows the scene from now on. `Err` says
    /// why no link can be made (a scene too large).
    pub fn make(&mut self, text: &str, platform: &mut dyn Platform) -> Result<String, String> {
        check_shareable(text).map_err(|e| e.to_string())?;
        let base = platform
            .page_address()
            .unwrap_or_else(|| DEFAULT_BASE.to_string());
        let fragment = encode_fragment(text);
        platform.show_fragment(&fragment);
        self.shown = Some(fragment);
        Ok(link_for(&base, text))
    }

    /// The document a link carries, or why it cannot be opened: the link's own fault
    /// (`share link: ...`), or the scene's with its line and column
    /// (`share link:LINE:COL: ...`). Opened, the address bar follows it.
    pub fn open(&mut self, link: &str) -> Result<LoadedDocument, String> {
        let text = decode_link(link).map_err(|e| format!("{LINK_SOURCE}: {e}"))?;
        let doc = LoadedDocument::parse(&text, LINK_SOURCE).map_err(|e| e.to_string())?;
        self.shown = Some(encode_fragment(&text));
        Ok(doc)
    }

    /// While following, puts the scene's new link in the address bar when it changed (not
    /// while a drag is in progress: once, when it ends). `text` gives the scene's text; it
    /// is asked at most every [`FOLLOW_INTERVAL`], and never where there is no address bar.
    pub fn follow(
        &mut self,
        now: f64,
        dragging: bool,
        text: impl FnOnce() -> String,
        platform: &mut dyn Platform,
    ) {
        if self.shown.is_none() || dragging || now < self.next_look {
            return;
        }
        if platform.page_address().is_none() {
            return;
        }
        self.next_look = now + FOLLOW_INTERVAL;
        let fragment = encode_fragment(&text());
        if self.shown.as_deref() != Some(fragment.as_str()) {
            platform.show_fragment(&fragment);
            self.shown = Some(fragment);
        }
    }
}
