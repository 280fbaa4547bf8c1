//! Shared helpers for the window tests: finding an X server (or skipping), running the
//! binary with a time limit, reading PNGs and looking for overlay colours.
#![allow(dead_code)]

use collision_lab::app::draw::palette;
use macroquad::prelude::Color;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_collision-lab");

/// Set to 1 (CI does) to turn a missing X server into a failure instead of a skip.
pub const REQUIRE_X: &str = "COLLISION_LAB_REQUIRE_X";

pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// Whether the tools are there; otherwise prints the skip (or fails when X is required).
pub fn have(tools: &[&str]) -> bool {
    let missing: Vec<_> = tools.iter().filter(|t| !on_path(t)).collect();
    if missing.is_empty() {
        return true;
    }
    if std::env::var(REQUIRE_X).is_ok_and(|v| v == "1") {
        panic!("{REQUIRE_X}=1 but {missing:?} not found on PATH");
    }
    println!("skipped: no X server ({missing:?} not on PATH)");
    false
}

/// A fresh folder under the target directory.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs a command, killing it after `limit`.
pub fn run_with_timeout(cmd: &mut Command, limit: Duration) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "timed out after {limit:?}: {cmd:?}\nstderr: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `collision-lab render` on a private X server. (Not `xvfb-run -a`: parallel tests race
/// for the same free display number there, and one of them finds no display.)
pub fn render(scene: &Path, out: &Path, extra: &[&str]) -> Output {
    render_with_env(scene, out, extra, &[])
}

/// `render SCENE --size WxH EXTRA...` into a PNG in the temporary folder `dir_name`,
/// asserted to succeed, and the picture; `None` (skipped) without Xvfb.
pub fn render_picture(
    scene: &Path,
    dir_name: &str,
    (w, h): (u32, u32),
    extra: &[&str],
) -> Option<Picture> {
    if !have(&["Xvfb"]) {
        return None;
    }
    let out = temp_dir(dir_name).join("out.png");
    let size = format!("{w}x{h}");
    let mut args = vec!["--size", size.as_str()];
    args.extend_from_slice(extra);
    let result = render(scene, &out, &args);
    assert!(
        result.status.success(),
        "render {} failed: {}",
        scene.display(),
        String::from_utf8_lossy(&result.stderr)
    );
    Some(Picture::open(&out))
}

/// [`render`] with extra environment variables.
pub fn render_with_env(scene: &Path, out: &Path, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let x = XServer::start();
    let mut cmd = Command::new(BIN);
    cmd.envs(env.iter().copied());
    cmd.env("DISPLAY", &x.display)
        .arg("render")
        .arg(scene)
        .arg("--out")
        .arg(out)
        .args(extra);
    run_with_timeout(&mut cmd, Duration::from_secs(60))
}

pub struct Picture {
    pub image: image::RgbaImage,
}

impl Picture {
    pub fn open(path: &Path) -> Picture {
        Picture {
            image: image::open(path).expect("a PNG").to_rgba8(),
        }
    }

    pub fn size(&self) -> (u32, u32) {
        self.image.dimensions()
    }

    /// How many pixels within `radius` of (x, y) are within `tolerance` (per channel) of
    /// `color`.
    pub fn count_near(&self, x: f32, y: f32, radius: f32, color: Color, tolerance: u8) -> usize {
        let (w, h) = self.size();
        let target = rgb(color);
        let r = radius.ceil() as i64;
        let mut n = 0;
        for dy in -r..=r {
            for dx in -r..=r {
                let (px, py) = (x.round() as i64 + dx, y.round() as i64 + dy);
                if px < 0 || py < 0 || px >= w as i64 || py >= h as i64 {
                    continue;
                }
                if ((dx * dx + dy * dy) as f32) > radius * radius {
                    continue;
                }
                let p = self.image.get_pixel(px as u32, py as u32);
                if (0..3).all(|c| p[c].abs_diff(target[c]) <= tolerance) {
                    n += 1;
                }
            }
        }
        n
    }

    /// Pixels of the whole picture within `tolerance` of `color`.
    pub fn count(&self, color: Color, tolerance: u8) -> usize {
        let target = rgb(color);
        self.image
            .pixels()
            .filter(|p| (0..3).all(|c| p[c].abs_diff(target[c]) <= tolerance))
            .count()
    }
}

pub fn rgb(c: Color) -> [u8; 3] {
    [
        (c.r * 255.0).round() as u8,
        (c.g * 255.0).round() as u8,
        (c.b * 255.0).round() as u8,
    ]
}

pub const BODY_A: Color = palette::BODY_A;

/// Window tests run one at a time: each drives a real window with real input timing, and
/// the machines that run them may have two cores.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A private X server (Xvfb picks a free display and tells us which); killed on drop.
pub struct XServer {
    child: Child,
    pub display: String,
    _turn: std::sync::MutexGuard<'static, ()>,
}

impl XServer {
    pub fn start() -> XServer {
        XServer::start_sized("1600x1000x24")
    }

    /// A server whose screen is `WxHxDEPTH` (e.g. a 1280x720 projector).
    pub fn start_sized(screen: &str) -> XServer {
        let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let mut child = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                screen,
                "-nolisten",
                "tcp",
                // Without it the server resets whenever its last client leaves, and a client
                // connecting during the reset is refused.
                "-noreset",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("Xvfb reports its display");
        let display = format!(":{}", line.trim());
        XServer {
            child,
            display,
            _turn: turn,
        }
    }

    /// Runs xdotool on this display; returns stdout.
    pub fn xdotool(&self, args: &[&str]) -> String {
        let mut cmd = Command::new("xdotool");
        cmd.env("DISPLAY", &self.display).args(args);
        let out = run_with_timeout(&mut cmd, Duration::from_secs(20));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

impl Drop for XServer {
    fn drop(&mut self) {
        // SIGTERM lets Xvfb remove its lock file and socket, so the next test's server
        // does not trip over them.
        // SAFETY: signalling our own child process by its id.
        unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM) };
        let start = Instant::now();
        while self.child.try_wait().ok().flatten().is_none() {
            if start.elapsed() > Duration::from_secs(5) {
                let _ = self.child.kill();
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.wait();
    }
}

/// The window, running on an [`XServer`], killed on drop.
pub struct Window {
    child: Child,
    pub state_file: PathBuf,
    /// The window's stderr.
    log: PathBuf,
}

impl Window {
    /// Starts the window and waits for its first frame; a start that fails to reach the
    /// X server (it may still be settling) is retried.
    pub fn open(x: &XServer, dir: &Path, scene: &Path) -> Window {
        Window::open_with_env(x, dir, scene, &[])
    }

    /// [`Window::open`] with extra environment variables (e.g. the UI scale).
    pub fn open_with_env(x: &XServer, dir: &Path, scene: &Path, env: &[(&str, &str)]) -> Window {
        for attempt in 0..3 {
            let mut w = Window::spawn(x, dir, scene, env);
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(20) {
                if w.state().is_some() {
                    return w;
                }
                if w.exited() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let log = std::fs::read_to_string(&w.log).unwrap_or_default();
            eprintln!("window start {attempt} failed:\n{log}");
            std::thread::sleep(Duration::from_millis(500));
        }
        panic!("the window did not start; see the logs above");
    }

    fn spawn(x: &XServer, dir: &Path, scene: &Path, env: &[(&str, &str)]) -> Window {
        let state_file = dir.join("state.json");
        let _ = std::fs::remove_file(&state_file);
        let log = dir.join("window.log");
        let child = Command::new(BIN)
            .envs(env.iter().copied())
            .arg(scene)
            .current_dir(dir)
            .env("DISPLAY", &x.display)
            .env("COLLISION_LAB_STATE_FILE", &state_file)
            .env("COLLISION_LAB_SCREENSHOT_DIR", dir)
            .env("XDG_CONFIG_HOME", dir.join("config"))
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("the window starts");
        Window {
            child,
            state_file,
            log,
        }
    }

    pub fn state(&self) -> Option<serde_json::Value> {
        let text = std::fs::read_to_string(&self.state_file).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Waits (up to 20 s) until the window's state satisfies `ok`.
    pub fn wait_for(
        &self,
        ok: impl Fn(&serde_json::Value) -> bool,
        what: &str,
    ) -> serde_json::Value {
        let start = Instant::now();
        loop {
            if let Some(s) = self.state() {
                if ok(&s) {
                    return s;
                }
            }
            if start.elapsed() > Duration::from_secs(20) {
                panic!(
                    "timed out waiting for {what}; last state: {:?}",
                    self.state()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn exited(&mut self) -> bool {
        self.child.try_wait().ok().flatten().is_some()
    }
}

impl Drop for Window {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// World point to screen pixel with the camera the window reported.
pub fn to_screen(state: &serde_json::Value, world: [f32; 2]) -> (f32, f32) {
    let f = |v: &serde_json::Value| v.as_f64().unwrap() as f32;
    let canvas = &state["canvas"];
    let (cx, cy, cw, ch) = (f(&canvas[0]), f(&canvas[1]), f(&canvas[2]), f(&canvas[3]));
    let center = &state["camera"]["center"];
    let zoom = f(&state["camera"]["zoom"]);
    let x = cx + cw / 2.0 + (world[0] - f(&center[0])) * zoom;
    let y = cy + ch / 2.0 - (world[1] - f(&center[1])) * zoom;
    (x, y)
}

/// Clicks the middle of the widget `name` as the window's state publishes it
/// (`widgets[name]`: `[x, y, width, height]` in screen pixels).
pub fn click_widget(x: &XServer, state: &serde_json::Value, name: &str) {
    let r = &state["widgets"][name];
    let f = |i: usize| {
        r[i].as_f64()
            .unwrap_or_else(|| panic!("no widget {name} in the state")) as f32
    };
    let at = |v: f32| format!("{}", v.round() as i32);
    x.xdotool(&["mousemove", &at(f(0) + f(2) / 2.0), &at(f(1) + f(3) / 2.0)]);
    std::thread::sleep(Duration::from_millis(250));
    x.xdotool(&["click", "1"]);
}

/// A left-button drag from `from` to `to` (screen pixels) in ten moves, as a hand makes it.
pub fn drag(x: &XServer, from: (f32, f32), to: (f32, f32)) {
    let at = |v: f32| format!("{}", v.round() as i32);
    x.xdotool(&["mousemove", &at(from.0), &at(from.1)]);
    std::thread::sleep(Duration::from_millis(150));
    x.xdotool(&["mousedown", "1"]);
    std::thread::sleep(Duration::from_millis(100));
    for k in 1..=10 {
        let t = k as f32 / 10.0;
        let (mx, my) = (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t);
        x.xdotool(&["mousemove", &at(mx), &at(my)]);
        std::thread::sleep(Duration::from_millis(40));
    }
    std::thread::sleep(Duration::from_millis(150));
    x.xdotool(&["mouseup", "1"]);
}
