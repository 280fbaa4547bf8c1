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
use super::shell::App;
use crate::scene::link::{
    check_shareable, decode_link, encode_fragment, link_for, DEFAULT_BASE, LINK_SOURCE,
};

/// Seconds between two looks at whether the scene changed, while the address bar follows
/// it: a RON text of a few bodies is cheap, but not every frame's work.
const FOLLOW_INTERVAL: f64 = 0.5;

/// Whether the address bar follows the scene, and what it shows now.
#[derive(Default)]
pub struct SharedLink {
    /// The fragment last put in the address bar; `None` while not following.
    shown: Option<String>,
    next_look: f64,
}

impl App {
    /// File > Share link: the link for the scene as it is now, shown with a Copy button.
    pub fn share_link(&mut self) {
        let text = self.workspace.scene_text();
        if let Err(why) = check_shareable(&text) {
            self.say(format!("No link made: {why}"));
            return;
        }
        let base = self
            .platform
            .page_address()
            .unwrap_or_else(|| DEFAULT_BASE.to_string());
        let link = link_for(&base, &text);
        let fragment = encode_fragment(&text);
        self.platform.show_fragment(&fragment);
        self.shared.shown = Some(fragment);
        self.say(format!("Share link made ({} characters)", link.len()));
        self.dialogs.share = Some(link);
    }

    /// Opens the scene a link carries (the page's address at start, or a pasted link).
    /// A link that does not decode or holds a bad scene leaves the current scene and
    /// shows why, naming the link and, for a scene error, its line and column.
    pub fn open_link(&mut self, link: &str) {
        let opened = decode_link(link)
            .map_err(|e| format!("{LINK_SOURCE}: {e}"))
            .and_then(|text| {
                LoadedDocument::parse(&text, LINK_SOURCE)
                    .map(|doc| (doc, text))
                    .map_err(|e| e.to_string())
            });
        match opened {
            Ok((doc, text)) => {
                self.set_document(doc);
                self.load_error = None;
                self.shared.shown = Some(encode_fragment(&text));
                self.say("Opened the scene from the link");
            }
            Err(why) => {
                self.load_error = Some(why);
                self.say("The link could not be opened; the welcome scene is shown");
            }
        }
    }

    /// Opens the scene in the page's address, if it was opened on a share link.
    pub fn open_start_link(&mut self) {
        if let Some(fragment) = self.platform.take_start_fragment() {
            if !fragment.is_empty() {
                self.open_link(&fragment);
            }
        }
    }

    /// While following, puts the scene's new link in the address bar when it changed
    /// (not while a drag is in progress: once, when it ends).
    pub fn follow_link(&mut self, now: f64, dragging: bool) {
        if self.shared.shown.is_none() || dragging || now < self.shared.next_look {
            return;
        }
        if self.platform.page_address().is_none() {
            // No address bar to follow (the desktop).
            return;
        }
        self.shared.next_look = now + FOLLOW_INTERVAL;
        let fragment = encode_fragment(&self.workspace.scene_text());
        if self.shared.shown.as_deref() != Some(fragment.as_str()) {
            self.platform.show_fragment(&fragment);
            self.shared.shown = Some(fragment);
        }
    }
}
