//! What a scan moves and over which range: the pose parameter, the spec, and why a spec is
//! refused.

use std::fmt;

/// The pose parameter a scan moves.
///
/// Conventions: `x`, `y`, `z` are the body's world position coordinate, set to the scanned
/// value (absolute). `angle` (2D) is the body's angle in degrees, counter-clockwise, set to
/// the scanned value (absolute, as written in the scene file). `rx`, `ry`, `rz` (3D) are a
/// turn in degrees about the world x, y or z axis through the body's position, applied on
/// top of the body's rotation (pre-multiplied: R(t) = R_axis(t) * R0), so 0 is the pose
/// the scene gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Param {
    X,
    Y,
    Z,
    Angle,
    Rx,
    Ry,
    Rz,
}

impl Param {
    /// Every parameter, in the order `--param` lists them.
    pub const ALL: [Param; 7] = [
        Param::X,
        Param::Y,
        Param::Z,
        Param::Angle,
        Param::Rx,
        Param::Ry,
        Param::Rz,
    ];

    /// The parameter a command-line key names: `x`, `y`, `z`, `angle`, `rx`, `ry`, `rz`.
    pub fn from_key(key: &str) -> Option<Param> {
        Param::ALL.into_iter().find(|p| p.key() == key)
    }

    pub fn key(self) -> &'static str {
        match self {
            Param::X => "x",
            Param::Y => "y",
            Param::Z => "z",
            Param::Angle => "angle",
            Param::Rx => "rx",
            Param::Ry => "ry",
            Param::Rz => "rz",
        }
    }

    /// `"deg"` for the angles, `""` for the lengths (which have no unit).
    pub fn unit(self) -> &'static str {
        if self.is_angle() {
            "deg"
        } else {
            ""
        }
    }

    /// Whether the parameter is an angle in degrees.
    pub fn is_angle(self) -> bool {
        matches!(self, Param::Angle | Param::Rx | Param::Ry | Param::Rz)
    }

    /// Whether the parameter exists in a scene of this dimension: `angle` in 2D only, `z`
    /// and the three world-axis turns in 3D only.
    pub fn fits(self, three_d: bool) -> bool {
        match self {
            Param::X | Param::Y => true,
            Param::Angle => !three_d,
            Param::Z | Param::Rx | Param::Ry | Param::Rz => three_d,
        }
    }
}

/// Fewest and most samples a scan takes. A million samples of two boxes take about a second
/// in release; more is a mistake, not a finer scan (the events are narrowed by bisection
/// whatever the sample count).
pub const MAX_SAMPLES: usize = 1_000_000;

/// The sample count when none is given.
pub const DEFAULT_SAMPLES: usize = 1000;

/// Largest magnitude of the scanned range's ends: the largest number a scene file accepts
/// for a position or an angle, so that the scenes written at the events load again.
pub const MAX_RANGE_MAGNITUDE: f32 = crate::scene::MAX_MAGNITUDE;

/// A scan: body `moving` (one of the pair `a`, `b`) moved along `param` from `from` to `to`
/// (either way round) in `samples` evenly spaced samples, the ends included.
#[derive(Clone, Debug, PartialEq)]
pub struct ScanSpec {
    pub a: String,
    pub b: String,
    pub moving: String,
    pub param: Param,
    pub from: f32,
    pub to: f32,
    pub samples: usize,
}

impl ScanSpec {
    /// The parameter of sample `k` of the spec's `samples`: `from + (to - from) * k / (n -
    /// 1)`, computed in f64 and rounded once, so the ends are exactly `from` and `to`.
    pub fn sample_t(&self, k: usize) -> f32 {
        if self.samples <= 1 {
            return self.from;
        }
        let (from, to) = (self.from as f64, self.to as f64);
        let s = k as f64 / (self.samples - 1) as f64;
        if k + 1 == self.samples {
            return self.to;
        }
        (from + (to - from) * s) as f32
    }

    /// The checks that need no scene: a finite, non-empty range within the scene limits
    /// and a sample count in 1..=[`MAX_SAMPLES`].
    pub(super) fn check_numbers(&self) -> Result<(), ScanError> {
        let (from, to) = (self.from, self.to);
        if !from.is_finite() || !to.is_finite() {
            return Err(ScanError::RangeNotFinite { from, to });
        }
        if from.abs() > MAX_RANGE_MAGNITUDE || to.abs() > MAX_RANGE_MAGNITUDE {
            return Err(ScanError::RangeTooLarge { from, to });
        }
        if from == to {
            return Err(ScanError::EmptyRange { at: from });
        }
        if self.samples == 0 || self.samples > MAX_SAMPLES {
            return Err(ScanError::Samples(self.samples));
        }
        Ok(())
    }
}

/// Why a scan cannot run: a bad spec for this scene.
#[derive(Clone, Debug, PartialEq)]
pub enum ScanError {
    /// No body of the scene has this name.
    NoBody(String),
    /// The pair names one body twice.
    SameBody(String),
    /// The moving body is not one of the pair.
    MovingNotInPair {
        moving: String,
        a: String,
        b: String,
    },
    /// The parameter does not exist in this scene's dimension.
    WrongDimension {
        param: Param,
        three_d: bool,
    },
    RangeNotFinite {
        from: f32,
        to: f32,
    },
    RangeTooLarge {
        from: f32,
        to: f32,
    },
    EmptyRange {
        at: f32,
    },
    Samples(usize),
}

impl fmt::Display for ScanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScanError::NoBody(name) => write!(f, "no body is named \"{name}\""),
            ScanError::SameBody(name) => write!(f, "the pair names \"{name}\" twice"),
            ScanError::MovingNotInPair { moving, a, b } => write!(
                f,
                "the moving body \"{moving}\" is not one of the pair \"{a}\" and \"{b}\""
            ),
            ScanError::WrongDimension { param, three_d } => {
                let hint = if *three_d {
                    "a 3D scene takes x, y, z, rx, ry or rz (turns about the world axes)"
                } else {
                    "a 2D scene takes x, y or angle"
                };
                write!(f, "`{}` is not a parameter of this scene: {hint}", param.key())
            }
            ScanError::RangeNotFinite { from, to } => {
                write!(f, "the range {from} to {to} is not made of finite numbers")
            }
            ScanError::RangeTooLarge { from, to } => write!(
                f,
                "the range {from} to {to} goes beyond {MAX_RANGE_MAGNITUDE}, the largest number a scene accepts"
            ),
            ScanError::EmptyRange { at } => write!(
                f,
                "the range is empty: --from and --to are both {at}; give two different values"
            ),
            ScanError::Samples(n) => write!(
                f,
                "{n} samples: a scan takes from 1 to {MAX_SAMPLES} samples"
            ),
        }
    }
}

impl std::error::Error for ScanError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_names_its_parameter_and_units_follow_the_kind() {
        for p in Param::ALL {
            assert_eq!(Param::from_key(p.key()), Some(p));
            assert_eq!(p.unit() == "deg", p.is_angle());
        }
        assert_eq!(Param::from_key("w"), None);
        assert_eq!(Param::from_key("X"), None, "keys are lower case");
        assert!(Param::Angle.fits(false) && !Param::Angle.fits(true));
        assert!(Param::Rz.fits(true) && !Param::Rz.fits(false));
        assert!(!Param::Z.fits(false));
    }

    #[test]
    fn samples_are_evenly_spaced_and_end_exactly_at_the_range_ends() {
        let spec = ScanSpec {
            a: "A".into(),
            b: "B".into(),
            moving: "B".into(),
            param: Param::X,
            from: 0.1,
            to: 0.7,
            samples: 7,
        };
        assert_eq!(spec.sample_t(0), 0.1);
        assert_eq!(spec.sample_t(6), 0.7);
        // Steps of 0.1, each rounded once from f64.
        assert_eq!(spec.sample_t(3), 0.4);
        let one = ScanSpec { samples: 1, ..spec };
        assert_eq!(one.sample_t(0), 0.1);
    }
}
