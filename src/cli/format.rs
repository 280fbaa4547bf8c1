//! How the command line writes numbers: one short readable form for text (the product's one
//! formatter, `crate::text`, at 6 decimals) and the shortest round-tripping form for JSON.
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

/// A short readable form of a number: up to 6 decimals, no trailing zeros.
pub(crate) fn fmt_num(x: f32) -> String {
    crate::text::format_number(x, 6)
}

pub(crate) fn fmt_vec(v: Vec2) -> String {
    format!("({}, {})", fmt_num(v.x), fmt_num(v.y))
}
