//! The window tests' probe: when `COLLISION_LAB_STATE_FILE` is set, the window writes what it
//! shows as JSON whenever that changes; widgets note their rectangles here, and the last
//! keys are kept for the same file. In the browser, a page opened with `?test` gets the same
//! JSON as `window.collisionLabState`.

use egui_macroquad::egui;
use std::path::PathBuf;

/// Keys kept for the test state.
const KEYS_KEPT: usize = 12;

/// Where the test state goes.
enum Sink {
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    File(PathBuf),
    /// The browser page (see `platform::web`).
    #[cfg(target_arch = "wasm32")]
    Page,
}

#[derive(Default)]
pub struct TestProbe {
    /// Where to write the test state, and what was last written.
    state_file: Option<(Sink, String)>,
    /// The last keys seen.
    pub key_log: Vec<String>,
    /// Screen rectangles (pixels) of named widgets.
    pub widgets: Vec<(String, [f32; 4])>,
}

impl TestProbe {
    /// A probe writing to `COLLISION_LAB_STATE_FILE` (in the browser: to the page, when it
    /// was opened with `?test`), or an idle one.
    pub fn from_env() -> TestProbe {
        #[cfg(target_arch = "wasm32")]
        let sink = super::platform::web::test_mode().then_some(Sink::Page);
        #[cfg(not(target_arch = "wasm32"))]
        let sink = std::env::var_os("COLLISION_LAB_STATE_FILE")
            .filter(|v| !v.is_empty())
            .map(|p| Sink::File(PathBuf::from(p)));
        TestProbe {
            state_file: sink.map(|s| (s, String::new())),
            ..TestProbe::default()
        }
    }

    pub fn is_active(&self) -> bool {
        self.state_file.is_some()
    }

    /// Records a widget's rectangle (egui points) in pixels.
    pub fn note_widget(
        &mut self,
        name: impl Into<String>,
        rect: egui::Rect,
        pixels_per_point: f32,
    ) {
        let r = [rect.min.x, rect.min.y, rect.width(), rect.height()].map(|v| v * pixels_per_point);
        self.widgets.push((name.into(), r));
    }

    /// Keeps this frame's keys (with a mark when a modifier was held).
    pub fn log_keys(&mut self, keys: &[(egui::Key, egui::Modifiers)]) {
        if !self.is_active() {
            return;
        }
        for (k, m) in keys {
            self.key_log
                .push(format!("{k:?}{}", if m.any() { "+mod" } else { "" }));
        }
        let excess = self.key_log.len().saturating_sub(KEYS_KEPT);
        self.key_log.drain(..excess);
    }

    /// The widgets noted this frame, by name.
    pub fn widgets_json(&self) -> serde_json::Map<String, serde_json::Value> {
        self.widgets
            .iter()
            .map(|(n, r)| (n.clone(), serde_json::json!(r)))
            .collect()
    }

    /// Writes `state` when it differs from what was last written (atomically).
    pub fn write(&mut self, state: String) {
        let Some((sink, last)) = &mut self.state_file else {
            return;
        };
        if state == *last {
            return;
        }
        let written = match sink {
            Sink::File(path) => {
                let temp = path.with_extension("tmp");
                std::fs::write(&temp, &state).is_ok() && std::fs::rename(&temp, &*path).is_ok()
            }
            #[cfg(target_arch = "wasm32")]
            Sink::Page => {
                super::platform::web::publish_state(&state);
                true
            }
        };
        if written {
            *last = state;
        }
    }
}
