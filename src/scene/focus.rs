//! What a scene of either dimension defaults to when the file leaves it out: the focused
//! pair (the first two bodies) and the sweep interval's end (1). `model.rs` and
//! `model3.rs` both answer through this file, which imports neither.

/// The sweep interval's end when the file gives no `sweep_time`.
pub(super) const DEFAULT_SWEEP_TIME: f32 = 1.0;

/// Indices of the focused pair among bodies with these names (in file order): the names
/// `focus` gives, else the first two bodies; `None` when a focus name is unknown or there
/// are fewer than two bodies.
pub(super) fn focus_indices<'n>(
    names: impl Iterator<Item = &'n str> + Clone,
    focus: &Option<(String, String)>,
) -> Option<(usize, usize)> {
    let index = |n: &str| names.clone().position(|name| name == n);
    match focus {
        Some((a, b)) => Some((index(a)?, index(b)?)),
        None if names.clone().nth(1).is_some() => Some((0, 1)),
        None => None,
    }
}
