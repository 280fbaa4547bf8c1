//! Text for people: the one word wrapper (by characters for printed handouts, by pixels in
//! the window) and the one number formatter (the command line, the trace sentences, the
//! expectation reports, the window's labels). It imports nothing of the crate, so every
//! layer may use it.

/// Wraps `text` at spaces into lines no wider than `max_width` as measured by `width_of`
/// (characters, pixels); a word wider than that stays whole on its own line. "A - B" (the
/// Minkowski difference) is never split across lines.
pub fn wrap(text: &str, width_of: impl Fn(&str) -> f32, max_width: f32) -> Vec<String> {
    // The glue stands for the spaces inside "A - B" while words are measured; it is as wide
    // as a space in characters, and close enough in pixels.
    const GLUE: char = '\u{a0}';
    let glued = text.replace("A - B", &format!("A{GLUE}-{GLUE}B"));
    let unglue = |s: &str| s.replace(GLUE, " ");
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in glued
        .split([' ', '\t', '\n', '\r'])
        .filter(|w| !w.is_empty())
    {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if width_of(&unglue(&candidate)) > max_width && !line.is_empty() {
            lines.push(unglue(&std::mem::replace(&mut line, word.to_string())));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(unglue(&line));
    }
    lines
}

/// [`wrap`] by character count, each line ending in a newline: text for a terminal or a
/// printed page.
pub fn wrap_columns(text: &str, columns: usize) -> String {
    wrap(text, |s| s.chars().count() as f32, columns as f32)
        .into_iter()
        .map(|line| line + "\n")
        .collect()
}

/// How [`format_number_as`] writes a number. Every number the product prints (the command
/// line, the trace sentences, the expectation reports, the window's labels) goes through it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NumberFormat {
    /// Decimals to round to.
    pub decimals: usize,
    /// Keep the trailing zeros (`0.2500`, for columns that line up) or drop them, and the
    /// point with them (`0.25`, `2`).
    pub trailing_zeros: bool,
    /// Write non-zero values below 1e-3 in scientific notation with two decimals
    /// (`1.00e-6`), so that a tolerance does not read as zero.
    pub tiny_in_scientific: bool,
    /// Write infinities as `+infinity` and `-infinity` (in sentences) rather than as Rust
    /// does (`inf`, `-inf`).
    pub infinity_in_words: bool,
    /// Show at least this many significant digits (0: no minimum): a small value gets more
    /// decimals (`-0.00025`, not `0`), and below [`SCIENTIFIC_BELOW`] it goes scientific
    /// (`5.1e-7`), so a tiny non-zero number never reads as zero.
    pub min_significant: usize,
}

/// Magnitudes below this are written in scientific notation by a format with
/// `min_significant`: more zeros after the point than this stop being readable.
pub const SCIENTIFIC_BELOW: f32 = 1.0e-4;

impl NumberFormat {
    /// At most `decimals` decimals, no trailing zeros, infinities as Rust writes them.
    pub const fn short(decimals: usize) -> NumberFormat {
        NumberFormat {
            decimals,
            trailing_zeros: false,
            tiny_in_scientific: false,
            infinity_in_words: false,
            min_significant: 0,
        }
    }

    /// The one format for people: the window's panels and labels, the step sentences and
    /// the command line's text. Four decimals, and at least four significant digits, so that
    /// the cases the scenes teach stay apart (`thin_sliver`: depth 0.1006 along
    /// (-0.00025, 1), not 0.101 along (0, 1)); infinities in words. JSON keeps every digit.
    pub const READABLE: NumberFormat = NumberFormat {
        decimals: 4,
        trailing_zeros: false,
        tiny_in_scientific: false,
        infinity_in_words: true,
        min_significant: 4,
    };
}

/// `x` in [`NumberFormat::READABLE`], the form every number shown to people takes.
pub fn readable(x: f32) -> String {
    format_number_as(x, NumberFormat::READABLE)
}

/// A vector's coordinates in [`NumberFormat::READABLE`]: `(0.7071, -0.00025)`.
pub fn readable_pair(x: f32, y: f32) -> String {
    readable_vector(&[x, y])
}

/// A coordinate smaller than this times the vector's largest is `f32` rounding left over
/// from a rotation (`-5.96e-8` beside `0.5`), and reads as 0; a real tilt such as
/// thin_sliver's `(-0.00025, 1)` is far above it.
pub const VECTOR_NOISE: f32 = 8.0 * f32::EPSILON;

/// A vector's coordinates in [`NumberFormat::READABLE`], in parentheses; coordinates at the
/// rounding noise of the largest ([`VECTOR_NOISE`]) read as 0.
pub fn readable_vector(coordinates: &[f32]) -> String {
    let largest = coordinates.iter().fold(0.0f32, |m, c| m.max(c.abs()));
    let shown: Vec<String> = coordinates
        .iter()
        .map(|&c| {
            if c.abs() <= VECTOR_NOISE * largest {
                readable(0.0)
            } else {
                readable(c)
            }
        })
        .collect();
    format!("({})", shown.join(", "))
}

/// `x` in scientific notation with `significant` digits, trailing zeros of the mantissa
/// dropped: `5.1e-7`, `-2e-5`.
fn scientific(x: f32, significant: usize) -> String {
    let decimals = significant.saturating_sub(1);
    let s = format!("{x:.decimals$e}");
    match s.split_once('e') {
        Some((mantissa, exponent)) if mantissa.contains('.') => {
            let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
            format!("{mantissa}e{exponent}")
        }
        _ => s,
    }
}

/// `x` as `format` says. Minus zero (and a negative value that rounds to zero) prints
/// without its sign; NaN prints as `NaN`.
pub fn format_number_as(x: f32, format: NumberFormat) -> String {
    if format.infinity_in_words && x.is_infinite() {
        return if x > 0.0 { "+infinity" } else { "-infinity" }.into();
    }
    if !x.is_finite() {
        return format!("{x}");
    }
    if format.tiny_in_scientific && x != 0.0 && x.abs() < 1.0e-3 {
        return format!("{x:.2e}");
    }
    let mut decimals = format.decimals;
    if format.min_significant > 0 && x != 0.0 {
        if x.abs() < SCIENTIFIC_BELOW {
            return scientific(x, format.min_significant);
        }
        // Digits before the point: floor(log10 |x|) + 1 (0 or less for |x| < 1).
        let leading = x.abs().log10().floor() as i64 + 1;
        let needed = format.min_significant as i64 - leading;
        decimals = decimals.max(needed.max(0) as usize);
    }
    let s = format!("{x:.decimals$}");
    let s = if !format.trailing_zeros && s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        &s
    };
    match s.strip_prefix('-') {
        Some(digits) if digits.chars().all(|c| c == '0' || c == '.') => digits.into(),
        _ => s.into(),
    }
}

/// `x` with at most `decimals` decimals and no trailing zeros (`0.3`, `2`, `-1.25`); minus
/// zero prints as `0`, and infinities and NaN as Rust writes them.
pub fn format_number(x: f32, decimals: usize) -> String {
    format_number_as(x, NumberFormat::short(decimals))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_every_word_and_the_width() {
        let text =
            "The origin lies in the Voronoi region of edge 0-1, so the simplex keeps that edge.";
        let wrapped = wrap_columns(text, 20);
        assert!(wrapped.lines().all(|l| l.chars().count() <= 20));
        assert_eq!(
            wrapped.split_whitespace().collect::<Vec<_>>().join(" "),
            text
        );
    }

    #[test]
    fn wrap_keeps_the_minkowski_difference_on_one_line() {
        let text = "the farthest point of A - B that way";
        for width in 10..40 {
            let wrapped = wrap_columns(text, width);
            assert!(!wrapped.contains("A\n"), "width {width}");
            assert!(!wrapped.contains('\u{1}'));
            assert!(!wrapped.contains('\u{a0}'));
        }
        // By pixels too: 7 pixels a character, room for 12 characters.
        let lines = wrap(
            "point of A - B here",
            |s| 7.0 * s.chars().count() as f32,
            84.0,
        );
        assert_eq!(lines, ["point of", "A - B here"]);
    }

    #[test]
    fn a_long_word_stays_whole_on_its_own_line() {
        assert_eq!(
            wrap_columns("a incomprehensibilities b", 5),
            "a\nincomprehensibilities\nb\n"
        );
    }

    #[test]
    fn numbers_lose_trailing_zeros_and_minus_zero() {
        assert_eq!(format_number(0.3, 6), "0.3");
        assert_eq!(format_number(2.0, 6), "2");
        assert_eq!(format_number(-1.25, 6), "-1.25");
        assert_eq!(format_number(-0.0000001, 6), "0");
        assert_eq!(format_number(1.23456, 2), "1.23");
        assert_eq!(format_number(1500.0, 0), "1500");
        assert_eq!(format_number(f32::INFINITY, 4), "inf");
        assert_eq!(format_number(-0.0004, 3), "0");
    }

    #[test]
    fn fixed_columns_keep_their_zeros_and_tiny_values_go_scientific() {
        let report = NumberFormat {
            trailing_zeros: true,
            tiny_in_scientific: true,
            ..NumberFormat::short(4)
        };
        assert_eq!(format_number_as(0.25, report), "0.2500");
        assert_eq!(format_number_as(-0.0, report), "0.0000");
        assert_eq!(format_number_as(-0.00001, NumberFormat::short(4)), "0");
        assert_eq!(format_number_as(1.0e-6, report), "1.00e-6");
        assert_eq!(format_number_as(-2.5e-4, report), "-2.50e-4");
        assert_eq!(format_number_as(12.0, report), "12.0000");
        assert_eq!(format_number_as(f32::NEG_INFINITY, report), "-inf");
    }

    #[test]
    fn readable_numbers_keep_four_significant_digits_and_tiny_ones_stay_non_zero() {
        // thin_sliver: the depth and the normal the notes teach stay apart from (0, 1).
        assert_eq!(readable(0.100_6), "0.1006");
        assert_eq!(readable(-0.000_25), "-0.00025");
        assert_eq!(readable_pair(-0.000_25, 1.0), "(-0.00025, 1)");
        // Rounding left by a rotation is not a coordinate.
        assert_eq!(readable_vector(&[0.5, -5.96e-8, -0.5]), "(0.5, 0, -0.5)");
        assert_eq!(readable_vector(&[1.0e-7, 2.0e-7]), "(1e-7, 2e-7)");
        assert_eq!(readable(0.516), "0.516");
        assert_eq!(readable(std::f32::consts::FRAC_1_SQRT_2), "0.7071");
        assert_eq!(readable(0.012_345_67), "0.01235");
        assert_eq!(readable(1000.5), "1000.5");
        assert_eq!(readable(2.0), "2");
        assert_eq!(readable(-0.0), "0");
        // A tiny non-zero distance never prints as 0.
        assert_eq!(readable(5.1e-7), "5.1e-7");
        assert_eq!(readable(-2.0e-5), "-2e-5");
        assert_eq!(readable(f32::INFINITY), "+infinity");
        assert_eq!(readable(f32::NAN), "NaN");
    }

    #[test]
    fn sentences_say_infinity_in_words() {
        let sentence = NumberFormat {
            infinity_in_words: true,
            ..NumberFormat::short(4)
        };
        assert_eq!(format_number_as(f32::INFINITY, sentence), "+infinity");
        assert_eq!(format_number_as(f32::NEG_INFINITY, sentence), "-infinity");
        assert_eq!(format_number_as(0.12345, sentence), "0.1235");
        assert_eq!(format_number_as(10.0, sentence), "10");
    }
}
