//! The Scan window's state (View > Scan): what to scan (the focused pair's body, the
//! parameter, the range, the samples), the scan running over frames, and its result. The
//! scan itself is the core's (`crate::scan`): this holds a [`Scanner`] and gives it a slice
//! of each frame, so a scan of 10,000 samples never freezes the window, and Cancel drops it.
//! It reads the scene as Save would write it, so the scan sees what the window shows.

use crate::scan::{regression_scene, Param, ScanOutput, ScanSpec, Scanner, DEFAULT_SAMPLES};
use crate::scene::{parse_any_scene, scene3_to_string, scene_to_string, LoadedScene};

/// Seconds of each frame given to a running scan: a frame stays under about 30 ms (the rest
/// is drawing), so the window answers while the scan runs.
const SECONDS_PER_FRAME: f64 = 0.015;

/// Pair queries between two looks at the clock.
const QUERIES_PER_LOOK: usize = 16;

/// What the form asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct ScanForm {
    /// Move B of the focused pair (else A).
    pub move_b: bool,
    pub param: Param,
    pub from: f32,
    pub to: f32,
    pub samples: usize,
}

impl Default for ScanForm {
    fn default() -> ScanForm {
        ScanForm {
            move_b: true,
            param: Param::X,
            from: -2.0,
            to: 2.0,
            samples: DEFAULT_SAMPLES,
        }
    }
}

/// The scan window's state.
#[derive(Default)]
pub struct ScanPanel {
    pub open: bool,
    pub form: ScanForm,
    /// The scan in progress and the scene it runs on (kept for placing the body).
    running: Option<Scanner>,
    /// The last finished scan, and the scene it ran on.
    pub result: Option<(ScanOutput, LoadedScene)>,
    scene: Option<LoadedScene>,
    /// Why the last scan could not start.
    pub error: Option<String>,
    /// The parameter value under the pointer in the plot, for its answers.
    pub hovered: Option<f32>,
}

impl ScanPanel {
    /// Starts a scan of the focused pair `(a, b)` in the scene `text` (as Save writes it).
    pub fn start(&mut self, text: &str, pair: Option<(&str, &str)>) {
        self.error = None;
        let Some((a, b)) = pair else {
            self.error = Some("Focus a pair first (Focused pair panel).".into());
            return;
        };
        let scene = match parse_any_scene(text, "scene") {
            Ok(scene) => scene,
            Err(e) => {
                self.error = Some(e.to_string());
                return;
            }
        };
        let form = &self.form;
        let spec = ScanSpec {
            a: a.to_string(),
            b: b.to_string(),
            moving: if form.move_b { b } else { a }.to_string(),
            param: form.param,
            from: form.from,
            to: form.to,
            samples: form.samples,
        };
        match Scanner::new(&scene, spec) {
            Ok(scanner) => {
                self.running = Some(scanner);
                self.scene = Some(scene);
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Gives the running scan its share of this frame; `now` reads the clock in seconds.
    /// Returns whether a scan is still running (the window keeps drawing frames then).
    pub fn advance(&mut self, now: impl Fn() -> f64) -> bool {
        let Some(scanner) = self.running.as_mut() else {
            return false;
        };
        let end = now() + SECONDS_PER_FRAME;
        let mut done = false;
        while !done && now() < end {
            done = scanner.advance(QUERIES_PER_LOOK);
        }
        if done {
            if let (Some(scanner), Some(scene)) = (self.running.take(), self.scene.take()) {
                self.result = Some((scanner.output(), scene));
            }
        }
        !done
    }

    /// How far the running scan is (0 to 1), `None` when none runs.
    pub fn progress(&self) -> Option<f32> {
        self.running.as_ref().map(Scanner::progress)
    }

    /// For the window tests: the window's open state, the progress, and the last result's
    /// spec, sample count and events.
    pub fn test_json(&self) -> serde_json::Value {
        let result = self.result.as_ref().map(|(o, _)| {
            serde_json::json!({
                "moving": o.spec.moving,
                "param": o.spec.param.key(),
                "samples": o.samples.len(),
                "events": o.events.iter().map(|e| serde_json::json!({
                    "lo": e.lo, "hi": e.hi, "what": e.what,
                })).collect::<Vec<_>>(),
            })
        });
        serde_json::json!({
            "open": self.open,
            "progress": self.progress(),
            "error": self.error,
            "result": result,
        })
    }

    /// Stops the running scan; the last finished one stays.
    pub fn cancel(&mut self) {
        self.running = None;
        self.scene = None;
    }
}

/// The two sides of event `k` of the last scan as scene files: `(file name, text)` before
/// and after the flip, each with the pair's expectation recorded from its results there
/// (`scan::regression_scene`), so `check` keeps the case.
pub fn event_sides(
    result: &(ScanOutput, LoadedScene),
    k: usize,
) -> Result<[(String, String); 2], String> {
    let (output, scene) = result;
    let event = output.events.get(k).ok_or("no such event")?;
    let spec = &output.spec;
    let side = |t: f32, which: &str| {
        let moved = regression_scene(scene, spec, t).map_err(|e| e.to_string())?;
        let text = match &moved {
            LoadedScene::Two(file, _) => scene_to_string(file),
            LoadedScene::Three(file, _) => scene3_to_string(file),
        };
        let name = format!(
            "{}-{}-event-{}-{which}.ron",
            spec.moving,
            spec.param.key(),
            k + 1
        );
        Ok::<_, String>((name, text))
    };
    Ok([side(event.lo, "before")?, side(event.hi, "after")?])
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOXES: &str = "(version: 1, bodies: [\
        (name: \"a\", shape: Box(half_extents: (1.0, 1.0))),\
        (name: \"b\", shape: Box(half_extents: (1.0, 1.0)), position: (1.5, 0.0))])";

    #[test]
    fn a_scan_runs_over_frames_to_the_core_scans_answer() {
        let mut panel = ScanPanel::default();
        panel.form.samples = 200;
        panel.start(BOXES, Some(("a", "b")));
        assert_eq!(panel.error, None);
        // A clock that moves on half a frame's share each time it is read: read once to
        // set the frame's end, then once per look, so each frame takes one look.
        let clock = std::cell::Cell::new(0.0);
        let mut frames = 0;
        while panel.advance(|| {
            clock.set(clock.get() + SECONDS_PER_FRAME / 2.0);
            clock.get()
        }) {
            frames += 1;
            assert!(panel.progress().unwrap() <= 1.0);
        }
        assert!(frames > 1, "spread over frames ({frames})");
        let (output, _) = panel.result.as_ref().expect("a result");
        let scene = parse_any_scene(BOXES, "scene").unwrap();
        let whole = crate::scan::scan(&scene, output.spec.clone()).unwrap();
        assert_eq!(
            *output, whole,
            "the same samples and events as the core's scan"
        );
    }

    #[test]
    fn a_scan_without_a_pair_or_with_a_bad_range_says_why() {
        let mut panel = ScanPanel::default();
        panel.start(BOXES, None);
        assert!(panel.error.as_deref().unwrap().contains("Focus a pair"));
        panel.form.to = panel.form.from;
        panel.start(BOXES, Some(("a", "b")));
        assert!(panel.error.is_some(), "an empty range is refused");
        assert!(panel.progress().is_none());
    }
}
