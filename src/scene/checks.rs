//! The checks a scene file of either dimension passes after parsing, on plain values (the
//! version, names, numbers, a normal's length), so the 2D loader (`file.rs`) and the 3D
//! loader (`file3.rs`) say the same thing in the same words. Each returns the message and
//! the text to point at ([`Invalid`]); what only one dimension has stays in its loader.

use super::model::{parse_color, MAX_BODIES, SCENE_VERSION};
use super::source::{body_needle, Invalid, MAX_MAGNITUDE};
use std::collections::HashSet;

/// The version this build reads.
pub(super) fn check_version(version: u32) -> Result<(), Invalid> {
    if version != SCENE_VERSION {
        return Err((
            Some("version".into()),
            format!(
                "scene version {version} is not known to this build (it reads version {SCENE_VERSION})"
            ),
        ));
    }
    Ok(())
}

/// At most [`MAX_BODIES`] bodies.
pub(super) fn check_body_count(count: usize) -> Result<(), Invalid> {
    if count > MAX_BODIES {
        return Err((
            Some("bodies".into()),
            format!("the scene has {count} bodies, more than the {MAX_BODIES} allowed"),
        ));
    }
    Ok(())
}

/// The names of the bodies read so far: each must be non-empty and unique, and every
/// reference (focus, expectations) must name one of them.
#[derive(Default)]
pub(super) struct BodyNames<'s> {
    names: HashSet<&'s str>,
}

impl<'s> BodyNames<'s> {
    /// Adds the next body's name, refusing an empty or repeated one.
    pub(super) fn add(&mut self, name: &'s str) -> Result<(), Invalid> {
        if name.is_empty() {
            return Err((Some("name".into()), "a body has an empty name".into()));
        }
        if !self.names.insert(name) {
            return Err((
                body_needle(name),
                format!("two bodies are named \"{name}\"; names must be unique"),
            ));
        }
        Ok(())
    }

    fn known(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// The focused pair names two different bodies.
    pub(super) fn check_focus(&self, focus: &Option<(String, String)>) -> Result<(), Invalid> {
        let Some((a, b)) = focus else {
            return Ok(());
        };
        for n in [a, b] {
            if !self.known(n) {
                return Err((
                    Some("focus".into()),
                    format!("focus names \"{n}\", but no body has that name"),
                ));
            }
        }
        if a == b {
            return Err((
                Some("focus".into()),
                "focus names the same body twice".into(),
            ));
        }
        Ok(())
    }

    /// An expectation's pair names two different bodies.
    pub(super) fn check_expectation_pair(&self, a: &str, b: &str) -> Result<(), Invalid> {
        for n in [a, b] {
            if !self.known(n) {
                return Err((
                    Some("expect".into()),
                    format!("an expectation names \"{n}\", but no body has that name"),
                ));
            }
        }
        if a == b {
            return Err((
                Some("expect".into()),
                format!("an expectation pairs \"{a}\" with itself"),
            ));
        }
        Ok(())
    }
}

/// A message about body `name`, pointing at its name.
pub(super) fn in_body(name: &str, message: String) -> Invalid {
    (body_needle(name), format!("body \"{name}\": {message}"))
}

/// A body's `"#rrggbb"` colour as RGB, if it has one.
pub(super) fn body_color(name: &str, color: &Option<String>) -> Result<Option<[u8; 3]>, Invalid> {
    match color {
        None => Ok(None),
        Some(c) => parse_color(c).map(Some).ok_or_else(|| {
            in_body(
                name,
                format!("color \"{c}\" is not of the form \"#rrggbb\""),
            )
        }),
    }
}

/// `sweep_time`, when given, is a positive number of at most [`MAX_MAGNITUDE`].
pub(super) fn check_sweep_time(sweep_time: Option<f32>) -> Result<(), Invalid> {
    if let Some(t) = sweep_time {
        if !t.is_finite() || t <= 0.0 || t > MAX_MAGNITUDE {
            return Err((
                Some("sweep_time".into()),
                format!("sweep_time must be a positive number, it is {t}"),
            ));
        }
    }
    Ok(())
}

/// The expectation of `a` vs `b` gives each of its numbers (by field name) as a finite
/// number >= 0, where it gives one.
pub(super) fn check_expectation_numbers(
    a: &str,
    b: &str,
    numbers: &[(&str, Option<f32>)],
) -> Result<(), Invalid> {
    for &(what, value) in numbers {
        if let Some(v) = value {
            if !v.is_finite() || v < 0.0 {
                return Err((
                    Some("expect".into()),
                    format!(
                        "expectation {a} vs {b}: {what} must be a finite number >= 0, it is {v}"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The expectation's normal is a unit vector (within 1e-3): `finite` says whether every
/// component is finite, `length` is its length, `written` its components as `(x, y...)`.
pub(super) fn check_expectation_normal(
    a: &str,
    b: &str,
    finite: bool,
    length: f32,
    written: impl FnOnce() -> String,
) -> Result<(), Invalid> {
    if !finite || (length - 1.0).abs() > 1.0e-3 {
        return Err((
            Some("expect".into()),
            format!(
                "expectation {a} vs {b}: normal must be a unit vector, it is {}",
                written()
            ),
        ));
    }
    Ok(())
}
