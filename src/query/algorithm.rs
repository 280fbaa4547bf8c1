//! The one list of algorithms the product teaches.
//!
//! Every other list derives from [`Algorithm::ALL`]: the overlay names in scene files (the
//! serde names below), the command line's `--algorithm` and `--step` values ([`Algorithm::key`]),
//! the trace dispatcher, and the window's per-overlay arrays (sized by [`Algorithm::COUNT`]).
//! Adding an algorithm means adding a variant here; the compiler then points at every `match`
//! that must learn about it.

use serde::{Deserialize, Serialize};

/// A narrow-phase algorithm, in the order the window lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Algorithm {
    /// The Minkowski difference A - B (a picture, not a query, but it has its own overlay).
    Minkowski,
    Gjk,
    Epa,
    Sat,
    Clip,
    Sweep,
}

impl Algorithm {
    /// Every algorithm, in display order.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Minkowski,
        Algorithm::Gjk,
        Algorithm::Epa,
        Algorithm::Sat,
        Algorithm::Clip,
        Algorithm::Sweep,
    ];

    /// How many algorithms there are: the size of every per-algorithm array.
    pub const COUNT: usize = Self::ALL.len();

    /// The position in [`Algorithm::ALL`], for indexing per-algorithm arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case name used on the command line (`--algorithm gjk`, `--step sat:3`).
    pub const fn key(self) -> &'static str {
        match self {
            Algorithm::Minkowski => "minkowski",
            Algorithm::Gjk => "gjk",
            Algorithm::Epa => "epa",
            Algorithm::Sat => "sat",
            Algorithm::Clip => "clip",
            Algorithm::Sweep => "sweep",
        }
    }

    /// The algorithm named by `key` (exact, lower case), if any.
    pub fn from_key(key: &str) -> Option<Algorithm> {
        Self::ALL.into_iter().find(|a| a.key() == key)
    }

    /// The name shown in panels and captions.
    pub const fn title(self) -> &'static str {
        match self {
            Algorithm::Minkowski => "Minkowski A - B",
            Algorithm::Gjk => "GJK",
            Algorithm::Epa => "EPA",
            Algorithm::Sat => "SAT",
            Algorithm::Clip => "Contact clipping",
            Algorithm::Sweep => "Swept SAT",
        }
    }

    /// Every key, joined for error messages: `minkowski, gjk, epa, sat, clip, sweep`.
    pub fn keys_joined() -> String {
        Self::ALL.map(Algorithm::key).join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_round_trips_and_indices_follow_all() {
        for (i, a) in Algorithm::ALL.into_iter().enumerate() {
            assert_eq!(Algorithm::from_key(a.key()), Some(a));
            assert_eq!(a.index(), i);
            assert!(!a.title().is_empty());
        }
        assert_eq!(Algorithm::from_key("GJK"), None);
        assert_eq!(Algorithm::from_key(""), None);
    }
}
