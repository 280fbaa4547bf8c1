//! How the command line writes numbers: one short readable form for text (the product's one
//! formatter, `crate::text::readable`) and the shortest round-tripping form for JSON.
//! Shared by the 2D and 3D commands, which import this file and never each other.

use glam::Vec2;
use serde_json::{json, Value};

/// An `f32` as the shortest decimal that reads back to it, so JSON shows `0.3`, not
/// `0.30000001192092896`.
pub(crate) fn num(x: f32) -> Value {
    if !x.is_finite() {
        return Value::Null;
    }
    let shortest: f64 = format!("{x}").parse().unwrap_or(x as f64);
    json!(shortest)
}

/// A number in text output: the product's one readable form ([`crate::text::readable`]),
/// the digits the window and the step sentences show.
pub(crate) fn fmt_num(x: f32) -> String {
    crate::text::readable(x)
}

pub(crate) fn fmt_vec(v: Vec2) -> String {
    crate::text::readable_pair(v.x, v.y)
}
