//! A scene file's text before it becomes a model, for both dimensions: reading it from disk,
//! the preflight every text passes (byte order mark, size, nesting), RON's options, which
//! `dimensions` it declares, and the positions and messages of errors (`FILE:LINE:COL`).
//! The 2D loader (`file.rs`) and the 3D loader (`file3.rs`) both build on this file; it
//! imports neither, so the two loaders never import each other's helpers.

use super::model3::DIMENSIONS_3D;
use ron::extensions::Extensions;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::fmt;
use std::path::Path;

/// Largest scene file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Largest magnitude of any position, velocity or view number.
pub const MAX_MAGNITUDE: f32 = 1.0e6;

/// Why a scene could not be loaded: `FILE:LINE:COL: message`, or `FILE: message` where no
/// position exists.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneError {
    pub file: String,
    /// 1-based line and column.
    pub position: Option<(usize, usize)>,
    pub message: String,
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, col)) => write!(f, "{}:{}:{}: {}", self.file, line, col, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for SceneError {}

/// Reads a scene file's text (any dimensions): the file's name for errors and its text,
/// refusing folders, files over [`MAX_FILE_BYTES`] and text that is not UTF-8.
pub fn read_scene_text(path: &Path) -> Result<(String, String), SceneError> {
    let file = path.display().to_string();
    let plain = |message: String| SceneError {
        file: file.clone(),
        position: None,
        message,
    };
    let meta = std::fs::metadata(path).map_err(|e| plain(format!("cannot read: {e}")))?;
    if meta.is_dir() {
        return Err(plain("is a folder, not a scene file".into()));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(plain(format!(
            "the file is {} bytes, larger than the {} byte limit for scenes",
            meta.len(),
            MAX_FILE_BYTES
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| plain(format!("cannot read: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let (line, col) = line_col(&e.as_bytes()[..e.utf8_error().valid_up_to()]);
        SceneError {
            file: file.clone(),
            position: Some((line, col)),
            message: "the file is not valid UTF-8 text".into(),
        }
    })?;
    Ok((file, text))
}

/// The checks every scene text passes before parsing, 2D or 3D: a byte order mark dropped,
/// the size, emptiness and nesting depth. Returns the text to parse.
pub(super) fn prepare<'t>(text: &'t str, file: &str) -> Result<&'t str, SceneError> {
    // Editors on Windows often start UTF-8 files with a byte order mark; it is not text.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(SceneError {
            file: file.into(),
            position: None,
            message: format!("the text is larger than the {MAX_FILE_BYTES} byte limit"),
        });
    }
    if text.trim().is_empty() {
        return Err(SceneError {
            file: file.into(),
            position: None,
            message: "the file is empty; a scene is `(version: 1, bodies: [...])`".into(),
        });
    }
    if let Some(at) = too_deep(text, NESTING_LIMIT) {
        return Err(SceneError {
            file: file.into(),
            position: Some(line_col(&text.as_bytes()[..at])),
            message: format!(
                "the file nests deeper than the {NESTING_LIMIT} levels a scene may use"
            ),
        });
    }
    Ok(text)
}

/// Deepest bracket nesting accepted, also RON's recursion limit. A valid scene nests about
/// five levels deep.
pub(super) const NESTING_LIMIT: usize = 64;

pub(super) fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(Extensions::IMPLICIT_SOME)
        .with_recursion_limit(NESTING_LIMIT)
}

/// The byte offset of the first bracket that opens level `limit + 1`, outside strings and
/// comments. Checked before parsing so that absurdly nested input gets a message that says
/// so, whatever type the parser was expecting at that point.
fn too_deep(text: &str, limit: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(i);
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'r' if matches!(bytes.get(i + 1), Some(b'#') | Some(b'"')) => {
                let hashes = bytes[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if bytes.get(i + 1 + hashes) == Some(&b'"') {
                    let close: Vec<u8> = std::iter::once(b'"')
                        .chain(std::iter::repeat_n(b'#', hashes))
                        .collect();
                    let body = i + 2 + hashes;
                    i = bytes[body..]
                        .windows(close.len())
                        .position(|w| w == close.as_slice())
                        .map_or(bytes.len(), |k| body + k + close.len() - 1);
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                // Block comments nest in RON.
                let mut open = 1;
                i += 2;
                while i < bytes.len() && open > 0 {
                    if bytes[i..].starts_with(b"/*") {
                        open += 1;
                        i += 2;
                    } else if bytes[i..].starts_with(b"*/") {
                        open -= 1;
                        i += 2;
                    } else {
                        i += 1;
                    }
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

pub(super) fn describe_ron_error(code: &ron::Error) -> String {
    let text = code.to_string();
    match code {
        ron::Error::ExceededRecursionLimit => {
            format!("the file nests deeper than the {NESTING_LIMIT} levels a scene may use")
        }
        ron::Error::IntegerOutOfBounds => format!(
            "{text}: this whole number is too large, or negative where only a count or version fits"
        ),
        _ => text,
    }
}

/// Parses prepared scene text (of either dimension) as `T`, RON's errors worded by
/// `describe` and positioned where RON stopped, then validates it with `validate`, whose
/// errors are positioned at the text they name.
pub(super) fn parse_validated<T: DeserializeOwned, B>(
    text: &str,
    file: &str,
    describe: fn(&ron::Error) -> String,
    validate: impl FnOnce(&T) -> Result<B, Invalid>,
) -> Result<(T, B), SceneError> {
    let scene: T = ron_options().from_str(text).map_err(|e| SceneError {
        file: file.into(),
        position: Some((e.span.start.line, e.span.start.col)),
        message: describe(&e.code),
    })?;
    let bodies = validate(&scene).map_err(|(needle, message)| SceneError {
        file: file.into(),
        position: needle.and_then(|n| locate(text, &n)),
        message,
    })?;
    Ok((scene, bodies))
}

/// Where to point in the text for a validation error (a string to find), and the message.
pub(super) type Invalid = (Option<String>, String);

pub(super) fn body_needle(name: &str) -> Option<String> {
    Some(format!("\"{name}\""))
}

pub(super) fn check_number(what: &str, v: f32) -> Result<(), String> {
    if !v.is_finite() {
        return Err(format!("{what} is not a finite number ({v})"));
    }
    if v.abs() > MAX_MAGNITUDE {
        return Err(format!(
            "{what} is {v}, beyond the largest accepted magnitude {MAX_MAGNITUDE}"
        ));
    }
    Ok(())
}

/// 1-based line and column of the first occurrence of `needle`.
pub(super) fn locate(text: &str, needle: &str) -> Option<(usize, usize)> {
    let at = text.find(needle)?;
    Some(line_col(&text.as_bytes()[..at]))
}

pub(super) fn line_col(before: &[u8]) -> (usize, usize) {
    let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    let col = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, col)
}

/// What a reader of 2D scenes only (slides, `render --steps`) says of a 3D scene.
pub const TWO_D_ONLY: &str =
    "this reads 2D scenes only (the window, render, query, check and trace open 3D scenes)";

/// The `dimensions` a scene text declares (2 when absent), and where the field is. `None`
/// when the field is present but unreadable: the full parse then reports it with a position.
pub fn scene_dimensions(text: &str) -> Option<(u32, Option<(usize, usize)>)> {
    /// Every field but `dimensions` is skipped unread.
    #[derive(Deserialize)]
    struct Peek {
        #[serde(default)]
        dimensions: Option<u32>,
    }
    let at = || locate(text, "dimensions");
    match ron_options().from_str::<Peek>(text) {
        Ok(Peek { dimensions: None }) => Some((2, None)),
        Ok(Peek {
            dimensions: Some(d),
        }) => Some((d, at())),
        // A file with a syntax error elsewhere: look for the field by its spelling, so a
        // broken 3D file is still reported by the 3D parser (with 3D hints).
        Err(_) => {
            let start = text.find("dimensions")? + "dimensions".len();
            let rest = text[start..].trim_start().strip_prefix(':')?.trim_start();
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            digits.parse().ok().map(|d| (d, at()))
        }
    }
}

/// The 2D loader's refusal of a 3D scene (and of a `dimensions` that is neither 2 nor 3),
/// pointing at the `dimensions` field.
pub(super) fn refuse_3d_in_2d(text: &str, file: &str) -> Result<(), SceneError> {
    match scene_dimensions(text) {
        Some((DIMENSIONS_3D, position)) => Err(SceneError {
            file: file.into(),
            position,
            message: format!("this is a 3D scene (dimensions: 3): {TWO_D_ONLY}"),
        }),
        Some((d, position)) if d != 2 => Err(SceneError {
            file: file.into(),
            position,
            message: format!("dimensions must be 2 or 3, it is {d}"),
        }),
        _ => Ok(()),
    }
}
