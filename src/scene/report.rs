//! What a check of a scene's `expect` blocks reports, for either dimension: the quantities,
//! the values got and expected, the differences and each expectation's and file's outcome,
//! with the comparisons and the scaffolding of one expectation's check that the 2D
//! (`expect.rs`) and 3D (`expect3.rs`) checkers share. This file imports neither.

use super::SceneError;
use crate::text::{format_number_as, NumberFormat};
use glam::Vec2;
use std::fmt;
use std::path::PathBuf;

/// Which quantity of an expectation differed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    Intersecting,
    Distance,
    Depth,
    Normal,
    Contacts,
    Hit,
    TFirst,
    /// 3D only: SAT's gap when apart.
    Separation,
    /// 3D only: the manifold's feature pair.
    Feature,
    /// 3D only: GJK's closest point on `a`, and on `b`.
    ClosestA,
    ClosestB,
    /// 3D only: EPA's normal (`normal` is SAT's in 3D).
    EpaNormal,
}

impl Quantity {
    /// The field's name as written in scene files.
    pub fn as_str(self) -> &'static str {
        match self {
            Quantity::Intersecting => "intersecting",
            Quantity::Distance => "distance",
            Quantity::Depth => "depth",
            Quantity::Normal => "normal",
            Quantity::Contacts => "contacts",
            Quantity::Hit => "hit",
            Quantity::TFirst => "t_first",
            Quantity::Separation => "separation",
            Quantity::Feature => "feature",
            Quantity::ClosestA => "closest_a",
            Quantity::ClosestB => "closest_b",
            Quantity::EpaNormal => "epa_normal",
        }
    }
}

/// A value an algorithm gave, or why it gave none.
#[derive(Clone, Debug, PartialEq)]
pub enum Got {
    Bool(bool),
    Number(f32),
    Vector(Vec2),
    Count(u32),
    /// A 3D vector (normals of 3D scenes).
    Vector3(glam::Vec3),
    /// A name, such as a 3D manifold's feature pair.
    Name(String),
    /// The algorithm did not run or has no such output; the sentence says why.
    Missing(String),
}

/// One way a pair's results differed from its expectation.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    pub quantity: Quantity,
    /// The algorithm that gave the value: "GJK", "EPA", "SAT", "clip" or "sweep".
    pub source: &'static str,
    /// The expected value (a `Got` that is never `Missing`).
    pub expected: Got,
    pub got: Got,
    /// For numbers and normals that were computed: how far off, and the allowed tolerance.
    pub off_by: Option<f32>,
    pub tolerance: Option<f32>,
}

/// The outcome of one expectation.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectationCheck {
    /// Position of the expectation in the scene's `expect` list.
    pub index: usize,
    pub a: String,
    pub b: String,
    /// Empty when the expectation passed.
    pub differences: Vec<Difference>,
    /// Remarks that do not fail the check (SAT's normal differing from EPA's, say).
    pub remarks: Vec<String>,
}

impl ExpectationCheck {
    pub fn passed(&self) -> bool {
        self.differences.is_empty()
    }

    /// What differed, as one phrase per difference joined by "; " (empty when passed).
    pub fn describe(&self) -> String {
        self.differences
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// Every expectation of one scene file, or why the file could not be checked.
#[derive(Clone, Debug, PartialEq)]
pub struct FileCheck {
    pub path: PathBuf,
    pub outcome: Result<Vec<ExpectationCheck>, SceneError>,
}

/// A number in a report: four decimals, or scientific notation for tiny non-zero values
/// (a tolerance of 1e-6 would otherwise show as 0.0000).
pub fn format_number(x: f32) -> String {
    format_number_as(
        x,
        NumberFormat {
            trailing_zeros: true,
            tiny_in_scientific: true,
            ..NumberFormat::short(4)
        },
    )
}

pub(super) fn format_vector(v: Vec2) -> String {
    format!("({}, {})", format_number(v.x), format_number(v.y))
}

impl fmt::Display for Got {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Got::Bool(b) => write!(f, "{b}"),
            Got::Number(x) => write!(f, "{}", format_number(*x)),
            Got::Vector(v) => write!(f, "{}", format_vector(*v)),
            Got::Count(n) => write!(f, "{n}"),
            Got::Vector3(v) => write!(
                f,
                "({}, {}, {})",
                format_number(v.x),
                format_number(v.y),
                format_number(v.z)
            ),
            Got::Name(name) => write!(f, "\"{name}\""),
            Got::Missing(why) => write!(f, "nothing ({why})"),
        }
    }
}

impl fmt::Display for Difference {
    /// `depth (SAT) 0.2500 expected 0.3000 (off by 0.0500, tolerance 0.0001)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}) {} expected {}",
            self.quantity.as_str(),
            self.source,
            self.got,
            self.expected
        )?;
        if let (Some(off), Some(tolerance)) = (self.off_by, self.tolerance) {
            write!(
                f,
                " (off by {}, tolerance {})",
                format_number(off),
                format_number(tolerance)
            )?;
        }
        Ok(())
    }
}

/// The scaffolding of checking one expectation of either dimension: finds the pair `a`, `b`
/// among the scene's validated bodies (`name` reads a body's name) and lets `compare` fill
/// in the differences. A name no body has (which validation already refuses) is reported as
/// a difference rather than a panic.
pub(super) fn check_pair<B>(
    bodies: &[B],
    name: impl Fn(&B) -> &str,
    index: usize,
    (a, b): (&str, &str),
    compare: impl FnOnce(&B, &B, &mut ExpectationCheck),
) -> ExpectationCheck {
    let mut check = ExpectationCheck {
        index,
        a: a.to_string(),
        b: b.to_string(),
        differences: Vec::new(),
        remarks: Vec::new(),
    };
    let find = |n: &str| bodies.iter().find(|body| name(body) == n);
    let (Some(body_a), Some(body_b)) = (find(a), find(b)) else {
        check.differences.push(Difference {
            quantity: Quantity::Intersecting,
            source: "scene",
            expected: Got::Missing("a pair of bodies".into()),
            got: Got::Missing("no body has one of these names".into()),
            off_by: None,
            tolerance: None,
        });
        return check;
    };
    compare(body_a, body_b, &mut check);
    check
}

/// A number compared within `tolerance`; `got` is `Err(why)` when nothing was computed.
pub(super) fn number_difference(
    quantity: Quantity,
    source: &'static str,
    expected: f32,
    got: Result<f32, String>,
    tolerance: f32,
) -> Option<Difference> {
    match got {
        Ok(x) => {
            let off = (x - expected).abs();
            // A NaN difference fails too.
            (off.is_nan() || off > tolerance).then_some(Difference {
                quantity,
                source,
                expected: Got::Number(expected),
                got: Got::Number(x),
                off_by: Some(off),
                tolerance: Some(tolerance),
            })
        }
        Err(why) => Some(Difference {
            quantity,
            source,
            expected: Got::Number(expected),
            got: Got::Missing(why),
            off_by: None,
            tolerance: None,
        }),
    }
}

/// A value compared exactly.
pub(super) fn exact_difference(
    quantity: Quantity,
    source: &'static str,
    expected: Got,
    got: Got,
) -> Option<Difference> {
    (got != expected).then_some(Difference {
        quantity,
        source,
        expected,
        got,
        off_by: None,
        tolerance: None,
    })
}
