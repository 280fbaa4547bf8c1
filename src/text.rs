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
}

impl NumberFormat {
    /// At most `decimals` decimals, no trailing zeros, infinities as Rust writes them.
    pub const fn short(decimals: usize) -> NumberFormat {
        NumberFormat {
            decimals,
            trailing_zeros: false,
            tiny_in_scientific: false,
            infinity_in_words: false,
        }
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
    let decimals = format.decimals;
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
