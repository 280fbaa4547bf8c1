//! Share links: a scene's exact RON text carried in a URL's fragment, so that opening the
//! link opens that scene (the browser build) and `collision-lab open-link` writes it back.
//!
//! A link is `BASE#s1=PAYLOAD`. PAYLOAD is the scene's UTF-8 text, compressed with raw
//! deflate (RFC 1951, no zlib header) and written in URL-safe base64 without padding
//! (RFC 4648 §5: `A-Z a-z 0-9 - _`, characters a URL never escapes). The fragment never
//! reaches a server, so a scene shared this way stays between the people who share it.
//!
//! Decoding returns the text only and checks every step, with limits set before any work:
//! a link is input from anywhere, so no link panics, hangs or allocates past
//! [`MAX_TEXT_BYTES`]. Whether the text is a valid scene is the scene parsers' question
//! ([`scene_from_link`] asks it, naming the text [`LINK_SOURCE`] in errors).

use super::file3::{parse_any_scene, LoadedScene};
use super::source::SceneError;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use std::fmt;

/// What starts a link's fragment: the format's version, then `=`. Versioned so that a later
/// encoding (another compressor, a binary scene) can take `s2=` while old links keep
/// opening, and so that an older collision-lab meeting a newer link says so instead of
/// reporting damaged data.
pub const LINK_PREFIX: &str = "s1=";

/// The largest scene text a link holds, in bytes (1 MiB). Scenes are a few KB (the largest
/// in `scenes/`, the welcome scene, is under 2 KB), so this is far above any real scene and
/// far below what would strain a browser tab; it bounds what a hostile link can make us
/// allocate, however well its data compresses.
pub const MAX_TEXT_BYTES: usize = 1024 * 1024;

/// The longest encoded part accepted, in characters, checked before decoding. Deflate never
/// grows data by more than 5 bytes per 64 KiB block and base64 writes 4 characters per 3
/// bytes, so any text within [`MAX_TEXT_BYTES`] encodes to under 1.4 M characters; 2 M is
/// also the longest URL Chromium keeps.
pub const MAX_ENCODED_CHARS: usize = 2 * 1024 * 1024;

/// The base URL `collision-lab link` uses when none is given: where the README's serving
/// command (`python3 -m http.server`, port 8000) puts the browser build.
pub const DEFAULT_BASE: &str = "http://localhost:8000/";

/// The name a scene from a link has in errors: `share link:LINE:COL: message`.
pub const LINK_SOURCE: &str = "share link";

/// Deflate's level for links: 9, zlib's best, since scenes are small (compressing one takes
/// well under a millisecond) and a shorter link pastes better.
const DEFLATE_LEVEL: u8 = 9;

/// Why a link could not give back a scene's text (or why a text cannot become a link).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// Neither the link nor its fragment starts with a version prefix such as `s1=`.
    NotALink,
    /// A prefix of the `s1=` form for a version this build does not read, e.g. `s2=`.
    UnknownVersion { prefix: String },
    /// Nothing after `s1=`.
    Empty,
    /// The encoded part is longer than [`MAX_ENCODED_CHARS`].
    TooLong { chars: usize },
    /// A character outside URL-safe base64; `position` counts characters of the (trimmed)
    /// link from 1.
    BadCharacter { character: char, position: usize },
    /// Base64 that no encoder writes: a length of 4k + 1 characters, or a last character
    /// with stray low bits. Both mean the link was cut or changed.
    BadBase64 { chars: usize },
    /// The deflate data stops before its last block: the link was cut short.
    Truncated,
    /// The deflate data is invalid.
    Damaged,
    /// The text would inflate past [`MAX_TEXT_BYTES`].
    TooLarge,
    /// The text is not UTF-8; `valid_up_to` bytes are.
    NotUtf8 { valid_up_to: usize },
    /// A scene text too long for a link (when making one).
    SceneTooLarge { bytes: usize },
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::NotALink => write!(
                f,
                "this is not a share link: a share link looks like \
                 `http://localhost:8000/#{LINK_PREFIX}...`, and its part after `#{LINK_PREFIX}` \
                 holds the scene"
            ),
            LinkError::UnknownVersion { prefix } => write!(
                f,
                "the link starts with `{prefix}`, a link format this collision-lab does not \
                 read (it reads `{LINK_PREFIX}`); it was probably made by a newer collision-lab"
            ),
            LinkError::Empty => write!(
                f,
                "the link has nothing after `{LINK_PREFIX}`: the scene is missing, the link \
                 was probably cut when copied"
            ),
            LinkError::TooLong { chars } => write!(
                f,
                "the link's scene part is {chars} characters long, more than the \
                 {MAX_ENCODED_CHARS} a share link may have"
            ),
            LinkError::BadCharacter {
                character,
                position,
            } => write!(
                f,
                "character {position} of the link is {character:?}, which a share link never \
                 holds after `{LINK_PREFIX}` (only A-Z, a-z, 0-9, - and _): the link was \
                 changed or wrapped when copied"
            ),
            LinkError::BadBase64 { chars } => write!(
                f,
                "the link's scene part ({chars} characters) does not end the way a share link \
                 does: the link was cut or changed when copied"
            ),
            LinkError::Truncated => write!(
                f,
                "the link's scene data stops in the middle: the link was cut when copied"
            ),
            LinkError::Damaged => write!(
                f,
                "the link's scene data is damaged (it is not valid deflate data): a character \
                 was changed when copied"
            ),
            LinkError::TooLarge => write!(
                f,
                "the link's scene is larger than the {MAX_TEXT_BYTES} bytes a share link may \
                 hold"
            ),
            LinkError::NotUtf8 { valid_up_to } => write!(
                f,
                "the link's scene is not UTF-8 text (it breaks after byte {valid_up_to})"
            ),
            LinkError::SceneTooLarge { bytes } => write!(
                f,
                "the scene is {bytes} bytes, more than the {MAX_TEXT_BYTES} a share link may \
                 hold; share the file instead"
            ),
        }
    }
}

impl std::error::Error for LinkError {}

/// The fragment for a scene's text, `s1=PAYLOAD` (without the `#`). Any text encodes; one
/// over [`MAX_TEXT_BYTES`] would not decode, so callers ask [`check_shareable`] first.
pub fn encode_fragment(text: &str) -> String {
    let deflated = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), DEFLATE_LEVEL);
    format!("{LINK_PREFIX}{}", URL_SAFE_NO_PAD.encode(deflated))
}

/// The link to a scene's text: `base` without any fragment it had, then `#` and the
/// fragment.
pub fn link_for(base: &str, text: &str) -> String {
    let base = base.split_once('#').map_or(base, |(before, _)| before);
    format!("{base}#{}", encode_fragment(text))
}

/// Refuses a text too large for a link to give back.
pub fn check_shareable(text: &str) -> Result<(), LinkError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(LinkError::SceneTooLarge { bytes: text.len() });
    }
    Ok(())
}

/// The scene text in a link: a full URL, a `#s1=...` fragment or `s1=...`, with
/// surrounding whitespace ignored.
pub fn decode_link(link: &str) -> Result<String, LinkError> {
    let (payload, payload_start) = payload(link.trim())?;
    if payload.is_empty() {
        return Err(LinkError::Empty);
    }
    if payload.len() > MAX_ENCODED_CHARS {
        return Err(LinkError::TooLong {
            chars: payload.chars().count(),
        });
    }
    let url_safe = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if let Some((i, character)) = payload.chars().enumerate().find(|&(_, c)| !url_safe(c)) {
        return Err(LinkError::BadCharacter {
            character,
            position: payload_start + i + 1,
        });
    }
    // Only ASCII is left, so bytes are characters from here on.
    let deflated = URL_SAFE_NO_PAD
        .decode(payload)
        .map_err(|_| LinkError::BadBase64 {
            chars: payload.len(),
        })?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_TEXT_BYTES)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => LinkError::TooLarge,
            miniz_oxide::inflate::TINFLStatus::FailedCannotMakeProgress
            | miniz_oxide::inflate::TINFLStatus::NeedsMoreInput => LinkError::Truncated,
            _ => LinkError::Damaged,
        })?;
    String::from_utf8(bytes).map_err(|e| LinkError::NotUtf8 {
        valid_up_to: e.utf8_error().valid_up_to(),
    })
}

/// The encoded part of a trimmed link and how many characters precede it.
fn payload(link: &str) -> Result<(&str, usize), LinkError> {
    let (fragment, fragment_start) = match link.split_once('#') {
        Some((before, fragment)) => (fragment, before.chars().count() + 1),
        None => (link, 0),
    };
    if let Some(payload) = fragment.strip_prefix(LINK_PREFIX) {
        return Ok((payload, fragment_start + LINK_PREFIX.chars().count()));
    }
    match version_prefix(fragment) {
        Some(prefix) => Err(LinkError::UnknownVersion {
            prefix: prefix.into(),
        }),
        None => Err(LinkError::NotALink),
    }
}

/// The `sN=` a fragment starts with (`s`, one or more digits, `=`), if any.
fn version_prefix(fragment: &str) -> Option<&str> {
    let digits = fragment
        .strip_prefix('s')?
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    let end = 1 + digits;
    (digits > 0 && fragment.as_bytes().get(end) == Some(&b'=')).then(|| &fragment[..=end])
}

/// Why a link did not open a scene: the link itself, or the scene in it.
#[derive(Clone, Debug, PartialEq)]
pub enum OpenLinkError {
    Link(LinkError),
    Scene(SceneError),
}

impl fmt::Display for OpenLinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenLinkError::Link(e) => write!(f, "{LINK_SOURCE}: {e}"),
            OpenLinkError::Scene(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for OpenLinkError {}

/// The scene in a link, of either dimension, with its exact text: what opening a link does.
/// Scene errors name the text [`LINK_SOURCE`] (`share link:LINE:COL: message`).
pub fn scene_from_link(link: &str) -> Result<(String, LoadedScene), OpenLinkError> {
    let text = decode_link(link).map_err(OpenLinkError::Link)?;
    let scene = parse_any_scene(&text, LINK_SOURCE).map_err(OpenLinkError::Scene)?;
    Ok((text, scene))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::path::{Path, PathBuf};

    const TINY_SCENE: &str = "(version: 1, bodies: [(name: \"a\", shape: Circle(radius: 1))])";

    #[test]
    fn a_tiny_scene_round_trips_and_parses() {
        let link = link_for(DEFAULT_BASE, TINY_SCENE);
        assert!(link.starts_with("http://localhost:8000/#s1="), "{link}");
        let (text, scene) = scene_from_link(&link).unwrap();
        assert_eq!(text, TINY_SCENE);
        assert!(matches!(scene, LoadedScene::Two(_, bodies) if bodies.len() == 1));
    }

    /// A stored (uncompressed) deflate block written by hand, so the decoder is pinned
    /// independently of our compressor: byte 0x01 (last block, type 00 = stored), then
    /// LEN = 2 and NLEN = !2 little-endian (02 00 FD FF), then "hi" (68 69). In base64,
    /// 01 02 00 -> 000000 010000 001000 000000 = AQIA; FD FF 68 -> 111111 011111 111101
    /// 101000 = _f9o; 69 -> 011010 01(0000) = aQ, no padding.
    #[test]
    fn a_hand_made_stored_block_decodes() {
        assert_eq!(decode_link("s1=AQIA_f9oaQ").unwrap(), "hi");
        assert_eq!(decode_link("#s1=AQIA_f9oaQ").unwrap(), "hi");
        assert_eq!(
            decode_link("  https://example.org/lab/?x=1#s1=AQIA_f9oaQ\n").unwrap(),
            "hi"
        );
    }

    /// A text too short to compress is written as one stored block, which pins our format
    /// by hand: TINY_SCENE is 61 bytes, so the block starts 01 (last block, stored), LEN =
    /// 61 = 3D 00 and NLEN = !61 = C2 FF; 01 3D 00 in base64 is 000000 010011 110100 000000
    /// = AT0A, C2 FF 28 ("(") is 110000 101111 111100 101000 = wv8o, and the rest is the
    /// text's own base64.
    #[test]
    fn a_short_text_encodes_to_a_hand_derived_stored_block() {
        let mut block = vec![0x01, 0x3d, 0x00, 0xc2, 0xff];
        block.extend_from_slice(TINY_SCENE.as_bytes());
        let fragment = encode_fragment(TINY_SCENE);
        assert_eq!(fragment, format!("s1={}", URL_SAFE_NO_PAD.encode(&block)));
        assert!(fragment.starts_with("s1=AT0Awv8o"), "{fragment}");
        assert_eq!(decode_link(&fragment).unwrap(), TINY_SCENE);
    }

    const TWO_CIRCLES: &str = "(version: 1, bodies: [(name: \"a\", shape: Circle(radius: 1)), \
                               (name: \"b\", shape: Circle(radius: 1))])";

    /// The same scene compressed by zlib (Python's `zlib.compressobj(9, DEFLATED, -15)`, raw
    /// deflate), then base64url without its one `=`: another deflate writer's links open.
    #[test]
    fn a_link_written_by_zlib_decodes() {
        let by_zlib = "s1=0yhLLSrOzM-zUjDUUUjKT8lMLbZSiNbIS8xNtVJQSlTSUSjOSCwAsp0zi5JzUjWKElMyS4F\
                       KDDU1dRRgypLwKYvVBAA";
        assert_eq!(decode_link(by_zlib).unwrap(), TWO_CIRCLES);
    }

    /// Our encoder's output for a text that compresses, derived once by running it
    /// (miniz_oxide 0.8.9, level 9) and pinned so that a change of compressor or level is
    /// seen. Should it change on purpose, links made before still open (the zlib test).
    #[test]
    fn a_compressible_text_encodes_to_its_pinned_fragment() {
        let fragment = encode_fragment(TWO_CIRCLES);
        assert_eq!(fragment, PINNED_TWO_CIRCLES);
        assert_eq!(decode_link(&fragment).unwrap(), TWO_CIRCLES);
    }

    const PINNED_TWO_CIRCLES: &str =
        "s1=fcoxDoAgDADArzRMkHRh7eozjEORJjZRMG30_bK4st1w8RVz7Y0gI5ReVZ\
                                      xgjY0vIQgcEPzge3hR20-JxlWfUXJKCH8rs7alDw";

    #[test]
    fn the_base_loses_its_old_fragment() {
        let fragment = encode_fragment("hi");
        assert_eq!(
            link_for("http://h/p", "hi"),
            format!("http://h/p#{fragment}")
        );
        assert_eq!(
            link_for("http://h/p#s1=old#more", "hi"),
            format!("http://h/p#{fragment}")
        );
        assert_eq!(link_for("", "hi"), format!("#{fragment}"));
    }

    fn message(link: &str) -> (LinkError, String) {
        let e = decode_link(link).unwrap_err();
        let m = e.to_string();
        (e, m)
    }

    #[test]
    fn a_link_without_a_scene_says_what_a_link_looks_like() {
        for link in [
            "",
            "   ",
            "http://localhost:8000/",
            "http://h/#view=2",
            "s1",
        ] {
            let (e, m) = message(link);
            assert_eq!(e, LinkError::NotALink, "{link:?}");
            assert!(m.contains("#s1=..."), "{m}");
        }
    }

    #[test]
    fn a_newer_version_is_named() {
        let (e, m) = message("http://h/#s2=AQIA_f9oaQ");
        assert_eq!(
            e,
            LinkError::UnknownVersion {
                prefix: "s2=".into()
            }
        );
        assert!(
            m.contains("`s2=`") && m.contains("newer collision-lab"),
            "{m}"
        );
        // `s` without digits is no version at all.
        assert_eq!(message("#s=abc").0, LinkError::NotALink);
    }

    #[test]
    fn nothing_after_the_prefix_is_an_empty_link() {
        let (e, m) = message("http://h/#s1=");
        assert_eq!(e, LinkError::Empty);
        assert!(m.contains("nothing after"), "{m}");
    }

    /// "http://h/#s1=" is 13 characters, so the payload's third character (`%`) is the
    /// link's 16th; a non-ASCII character counts as one.
    #[test]
    fn a_bad_character_is_named_with_its_position() {
        let (e, m) = message("http://h/#s1=AQ%IA");
        assert_eq!(
            e,
            LinkError::BadCharacter {
                character: '%',
                position: 16
            }
        );
        assert!(m.contains("character 16") && m.contains("'%'"), "{m}");
        let (e, _) = message("é#s1=AQ IA");
        assert_eq!(
            e,
            LinkError::BadCharacter {
                character: ' ',
                position: 8
            }
        );
        // Padding is not part of the format.
        assert!(matches!(
            message("s1=AQIA_f9oaQ==").0,
            LinkError::BadCharacter {
                character: '=',
                position: 14
            }
        ));
    }

    #[test]
    fn base64_that_no_encoder_writes_is_refused() {
        // 4k + 1 characters: one character too many for any byte count.
        assert_eq!(message("s1=AQIA_").0, LinkError::BadBase64 { chars: 5 });
        // "aR": 011010 010001, whose last four bits should be zero.
        let (e, m) = message("s1=AQIA_f9oaR");
        assert_eq!(e, LinkError::BadBase64 { chars: 10 });
        assert!(m.contains("cut or changed"), "{m}");
    }

    #[test]
    fn cut_deflate_data_is_truncated() {
        // The stored block announces 2 bytes but carries one: "AQIA_f9o" is 01 02 00 FD FF
        // 68.
        let (e, m) = message("s1=AQIA_f9o");
        assert_eq!(e, LinkError::Truncated);
        assert!(m.contains("stops in the middle"), "{m}");
    }

    #[test]
    fn invalid_deflate_data_is_damaged() {
        // 0x07 = last block, type 11, which deflate reserves: "Bw" is 000001 11(0000).
        let (e, m) = message("s1=Bw");
        assert_eq!(e, LinkError::Damaged);
        assert!(m.contains("damaged"), "{m}");
        // A stored block whose NLEN is not LEN's complement (FD FE instead of FD FF).
        let bad = URL_SAFE_NO_PAD.encode([1, 2, 0, 0xfd, 0xfe, b'h', b'i']);
        assert_eq!(message(&format!("s1={bad}")).0, LinkError::Damaged);
    }

    #[test]
    fn text_past_the_limit_is_refused_while_inflating() {
        // One byte over the limit compresses to a few hundred bytes: a deflate bomb in small.
        let big = "a".repeat(MAX_TEXT_BYTES + 1);
        let fragment = encode_fragment(&big);
        assert!(fragment.len() < 10_000, "{}", fragment.len());
        let (e, m) = message(&fragment);
        assert_eq!(e, LinkError::TooLarge);
        assert!(m.contains(&MAX_TEXT_BYTES.to_string()), "{m}");
        // Exactly at the limit still decodes.
        let most = "a".repeat(MAX_TEXT_BYTES);
        assert_eq!(decode_link(&encode_fragment(&most)).unwrap(), most);
        assert_eq!(
            check_shareable(&big),
            Err(LinkError::SceneTooLarge { bytes: big.len() })
        );
        assert_eq!(check_shareable(&most), Ok(()));
    }

    /// Random text at the size limit, which deflate can barely shrink, still makes a link
    /// within the encoded limit (base64 adds a third): the two limits agree.
    #[test]
    fn incompressible_text_at_the_limit_fits_the_encoded_limit() {
        // splitmix64 picking printable ASCII, so the text is valid UTF-8 but random.
        let mut state = 0u64;
        let text: String = (0..MAX_TEXT_BYTES)
            .map(|_| {
                state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                char::from(b' ' + ((z ^ (z >> 31)) % 95) as u8)
            })
            .collect();
        let fragment = encode_fragment(&text);
        let payload = fragment.len() - LINK_PREFIX.len();
        assert!(payload <= MAX_TEXT_BYTES * 4 / 3 + 100, "{payload}");
        assert!(payload < MAX_ENCODED_CHARS);
        assert!(decode_link(&fragment).unwrap() == text);
    }

    #[test]
    fn an_encoded_part_past_its_limit_is_refused_before_decoding() {
        let long = format!("s1={}", "A".repeat(MAX_ENCODED_CHARS + 1));
        assert_eq!(
            message(&long).0,
            LinkError::TooLong {
                chars: MAX_ENCODED_CHARS + 1
            }
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_are_refused() {
        // A stored block holding "a", 0xFF: byte 1 is where UTF-8 breaks.
        let bad = URL_SAFE_NO_PAD.encode([1, 2, 0, 0xfd, 0xff, b'a', 0xff]);
        let (e, m) = message(&format!("s1={bad}"));
        assert_eq!(e, LinkError::NotUtf8 { valid_up_to: 1 });
        assert!(m.contains("not UTF-8"), "{m}");
    }

    #[test]
    fn an_invalid_scene_in_a_link_is_positioned_in_the_link_text() {
        let text = "(\n    version: 1,\n    bodies: [(name: \"a\", shape: Circle(radius: -1))],\n)";
        let e = scene_from_link(&link_for(DEFAULT_BASE, text)).unwrap_err();
        let m = e.to_string();
        // The error names the body, on line 3 where its name is.
        assert!(m.starts_with("share link:3:"), "{m}");
        let e = scene_from_link("s1=").unwrap_err();
        assert_eq!(e, OpenLinkError::Link(LinkError::Empty));
        assert!(e
            .to_string()
            .starts_with("share link: the link has nothing"));
    }

    fn scene_files_under(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                scene_files_under(&path, out);
            } else if path.extension().is_some_and(|e| e == "ron") {
                out.push(path);
            }
        }
    }

    /// Every example and regression scene, 2D and 3D, survives a link byte for byte and
    /// still parses; prints the link lengths (`--nocapture`) for the record.
    #[test]
    fn every_scene_file_round_trips_through_a_link() {
        let mut files = Vec::new();
        scene_files_under(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes"),
            &mut files,
        );
        files.sort();
        assert!(files.len() > 60, "{} scene files", files.len());
        let mut lengths = Vec::new();
        for path in &files {
            let text = std::fs::read_to_string(path).unwrap();
            let link = link_for(DEFAULT_BASE, &text);
            let (back, _) =
                scene_from_link(&link).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(back == text, "{} changed in its link", path.display());
            lengths.push((link.chars().count(), text.len(), path.clone()));
        }
        lengths.sort();
        let (longest, bytes, file) = lengths.last().unwrap();
        let median = lengths[lengths.len() / 2].0;
        println!(
            "{} scenes: median link {median} characters, longest {longest} ({}, {bytes} bytes)",
            lengths.len(),
            file.display()
        );
    }

    proptest! {
        #[test]
        fn any_text_round_trips_exactly(text in any::<String>()) {
            prop_assert_eq!(decode_link(&link_for(DEFAULT_BASE, &text)).unwrap(), text);
        }

        #[test]
        fn no_string_makes_decoding_panic(link in any::<String>()) {
            let _ = decode_link(&link);
            let _ = decode_link(&format!("s1={link}"));
        }

        #[test]
        fn no_bytes_after_the_prefix_make_decoding_panic(
            bytes in proptest::collection::vec(any::<u8>(), 0..400)
        ) {
            let _ = decode_link(&format!("s1={}", URL_SAFE_NO_PAD.encode(&bytes)));
        }

        /// A link with one character changed or cut short gives an error or some text,
        /// never a panic.
        #[test]
        fn a_damaged_link_never_panics(
            text in "[ -~\n]{0,300}", at in any::<usize>(), with in "[A-Za-z0-9_-]",
            cut in any::<bool>()
        ) {
            let link = encode_fragment(&text);
            let at = LINK_PREFIX.len() + at % (link.len() - LINK_PREFIX.len()).max(1);
            let damaged = if cut {
                link[..at].to_string()
            } else {
                format!("{}{with}{}", &link[..at], link.get(at + 1..).unwrap_or(""))
            };
            let _ = decode_link(&damaged);
        }
    }
}
