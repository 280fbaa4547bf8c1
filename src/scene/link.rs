//! Share links: a scene's exact RON text carried in a URL's fragment, so that opening the
//! link opens that scene (the browser build) and `collision-lab open-link` writes it back.
//!
//! A link is `BASE#s1=PAYLOAD`. PAYLOAD is the scene's UTF-8 text as a zlib stream
//! (RFC 1950: a 2-byte header, the text compressed with deflate, RFC 1951, then the text's
//! Adler-32 checksum, 4 bytes big-endian), written in URL-safe base64 without padding
//! (RFC 4648 §5: `A-Z a-z 0-9 - _`, characters a URL never escapes). The fragment never
//! reaches a server, so a scene shared this way stays between the people who share it.
//!
//! Why the checksum: deflate alone checks nothing, so one character changed in a pasted
//! link can inflate to a different valid scene (a digit of a position changes) that would
//! open silently. A teaching tool must never show a silently different scene, so the text's
//! Adler-32 travels with it, and a link whose text does not match it is refused (a changed
//! text gets past only if it has the same 32-bit checksum). The zlib stream must also fill
//! the payload exactly: bytes after its end are refused too.
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
/// grows data by more than 5 bytes per 64 KiB block, zlib adds 6 bytes (header and
/// checksum) and base64 writes 4 characters per 3 bytes, so any text within
/// [`MAX_TEXT_BYTES`] encodes to under 1.4 M characters; 2 M is also the longest URL
/// Chromium keeps.
pub const MAX_ENCODED_CHARS: usize = 2 * 1024 * 1024;

/// The base URL `collision-lab link` uses when none is given: where the README's serving
/// command (`python3 -m http.server`, port 8000) puts the browser build.
pub const DEFAULT_BASE: &str = "http://localhost:8000/";

/// The name a scene from a link has in errors: `share link:LINE:COL: message`.
pub const LINK_SOURCE: &str = "share link";

/// Deflate's level for links: 9, zlib's best (the stream's header is then 78 DA), since
/// scenes are small (compressing one takes well under a millisecond) and a shorter link
/// pastes better.
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
    /// The zlib stream stops before its end (in the deflate data or in the checksum after
    /// it): the link was cut short.
    Truncated,
    /// The zlib stream is invalid: its header, or the deflate data after it.
    Damaged,
    /// The stream inflated, but to a text whose Adler-32 is not the one the link carries:
    /// a character was changed, and the text is not the one that was shared.
    ChecksumMismatch,
    /// The zlib stream ends `bytes` bytes before the payload does: something was added.
    TrailingData { bytes: usize },
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
                "the link's scene data is damaged (it is not valid zlib data): a character \
                 was changed when copied"
            ),
            LinkError::ChecksumMismatch => write!(
                f,
                "the link's scene does not match its checksum: a character was changed when \
                 copied, so this is not the scene that was shared"
            ),
            LinkError::TrailingData { bytes } => write!(
                f,
                "the link's scene data goes on for {bytes} bytes after its end: something was \
                 added to the link when copied"
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
    let zlib = miniz_oxide::deflate::compress_to_vec_zlib(text.as_bytes(), DEFLATE_LEVEL);
    format!("{LINK_PREFIX}{}", URL_SAFE_NO_PAD.encode(zlib))
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
    let zlib = URL_SAFE_NO_PAD
        .decode(payload)
        .map_err(|_| LinkError::BadBase64 {
            chars: payload.len(),
        })?;
    let bytes = inflate_whole_zlib_stream(&zlib)?;
    String::from_utf8(bytes).map_err(|e| LinkError::NotUtf8 {
        valid_up_to: e.utf8_error().valid_up_to(),
    })
}

/// The text in a zlib stream that fills `zlib` exactly, checked against its Adler-32, and
/// at most [`MAX_TEXT_BYTES`] long.
///
/// Algorithm: the loop of miniz_oxide's `decompress_to_vec_zlib_with_limit` (inflate into
/// a buffer, doubling it up to the limit while the inflater has more output), but counting
/// the input bytes the inflater consumed, which that function does not report: when the
/// stream is done (checksum read and matched), any bytes left over are trailing data.
fn inflate_whole_zlib_stream(zlib: &[u8]) -> Result<Vec<u8>, LinkError> {
    use miniz_oxide::inflate::core::inflate_flags::{
        TINFL_FLAG_PARSE_ZLIB_HEADER, TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF,
    };
    use miniz_oxide::inflate::core::{decompress, DecompressorOxide};
    use miniz_oxide::inflate::TINFLStatus;
    // Without TINFL_FLAG_HAS_MORE_INPUT: the payload is all the input there is, so input
    // that ends early is FailedCannotMakeProgress, never NeedsMoreInput. The parsed header
    // makes the inflater read and check the Adler-32 after the last block.
    let flags = TINFL_FLAG_PARSE_ZLIB_HEADER | TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    let mut inflater = Box::<DecompressorOxide>::default();
    // Scenes deflate to a third or a quarter of their size; the buffer doubles from there
    // (from 64 bytes at least, so that doubling always grows it and the loop ends).
    let mut text = vec![0; zlib.len().saturating_mul(4).clamp(64, MAX_TEXT_BYTES)];
    let (mut read, mut written) = (0, 0);
    loop {
        // The inflater never reports more input consumed than it was given; `get` keeps
        // that a promise rather than a possible panic.
        let rest = zlib.get(read..).unwrap_or_default();
        let (status, consumed, produced) =
            decompress(&mut inflater, rest, &mut text, written, flags);
        read += consumed;
        written += produced;
        if status == TINFLStatus::HasMoreOutput && text.len() < MAX_TEXT_BYTES {
            text.resize(text.len().saturating_mul(2).min(MAX_TEXT_BYTES), 0);
            continue;
        }
        return match status {
            TINFLStatus::Done if read < zlib.len() => Err(LinkError::TrailingData {
                bytes: zlib.len() - read,
            }),
            TINFLStatus::Done => {
                text.truncate(written);
                Ok(text)
            }
            // The buffer is at the limit and the text goes on.
            TINFLStatus::HasMoreOutput => Err(LinkError::TooLarge),
            TINFLStatus::Adler32Mismatch => Err(LinkError::ChecksumMismatch),
            TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => {
                Err(LinkError::Truncated)
            }
            // Failed: a bad zlib header (FCHECK, a preset dictionary, a method other than
            // deflate, a window over 32 KiB) or invalid deflate data. BadParam: an output
            // buffer the inflater cannot use; ours always can (non-wrapping, `written` within
            // it), so a link cannot cause it, but it is no reason to panic either.
            TINFLStatus::Failed | TINFLStatus::BadParam => Err(LinkError::Damaged),
        };
    }
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

    /// Adler-32 as RFC 1950 §8.2 defines it, written from the definition so that the tests
    /// do not take the checksum from the code under test: A = 1 + the sum of the bytes, B =
    /// the sum of A after each byte, both modulo 65521 (the largest prime below 2^16), and
    /// the checksum is B·65536 + A.
    fn adler32(bytes: &[u8]) -> u32 {
        let (mut a, mut b) = (1u32, 0u32);
        for &byte in bytes {
            a = (a + u32::from(byte)) % 65521;
            b = (b + a) % 65521;
        }
        (b << 16) | a
    }

    /// A zlib stream holding `text` in one stored (uncompressed) block: `header`, then the
    /// block (01 = last block, type 00 = stored; LEN and NLEN = !LEN, little-endian), then
    /// the text, then its Adler-32, big-endian.
    fn zlib_stored(header: [u8; 2], text: &[u8]) -> Vec<u8> {
        let len = u16::try_from(text.len()).unwrap();
        let mut stream = header.to_vec();
        stream.push(0x01);
        stream.extend_from_slice(&len.to_le_bytes());
        stream.extend_from_slice(&(!len).to_le_bytes());
        stream.extend_from_slice(text);
        stream.extend_from_slice(&adler32(text).to_be_bytes());
        stream
    }

    /// "hi" by hand: A = 1 + 0x68 + 0x69 = 1 + 104 + 105 = 210 = 0xD2, B = (1 + 104) + 210
    /// = 315 = 0x13B, so the checksum is 0x013B00D2 (Python's `zlib.adler32(b"hi")` agrees).
    #[test]
    fn adler32_of_hi_is_the_hand_computed_one() {
        assert_eq!(adler32(b"hi"), 0x013B_00D2);
    }

    /// The zlib stream for "hi" written by hand, so the decoder is pinned independently of
    /// our compressor: header 78 01 (CMF 0x78: method 8, deflate, with a 2^(7+8) = 32 KiB
    /// window; FLG 0x01: no dictionary, level 0, and FCHECK 1, which makes 0x7801 = 30721 =
    /// 31 × 991 as RFC 1950 requires), a stored block 01 (last, stored), LEN = 2 and NLEN =
    /// !2 little-endian (02 00 FD FF), "hi" (68 69), then Adler-32("hi") = 01 3B 00 D2. In
    /// base64, 78 01 01 -> 011110 000000 000100 000001 = eAEB; 02 00 FD -> 000000 100000
    /// 000011 111101 = AgD9; FF 68 69 -> 111111 110110 100001 101001 = _2hp; 01 3B 00 ->
    /// 000000 010011 101100 000000 = ATsA; D2 -> 110100 10(0000) = 0g, no padding.
    const HI: &str = "s1=eAEBAgD9_2hpATsA0g";

    #[test]
    fn a_hand_made_stored_block_decodes() {
        assert_eq!(
            URL_SAFE_NO_PAD.decode(&HI[3..]).unwrap(),
            zlib_stored([0x78, 0x01], b"hi")
        );
        assert_eq!(decode_link(HI).unwrap(), "hi");
        assert_eq!(decode_link(&format!("#{HI}")).unwrap(), "hi");
        assert_eq!(
            decode_link(&format!("  https://example.org/lab/?x=1#{HI}\n")).unwrap(),
            "hi"
        );
    }

    /// A text too short to compress is written as one stored block, which pins our format
    /// by hand: level 9's header is 78 DA (0x78DA = 30938 = 31 × 998); TINY_SCENE is 61
    /// bytes, so the block starts 01 (last block, stored), LEN = 61 = 3D 00 and NLEN = !61
    /// = C2 FF. 78 DA 01 in base64 is 011110 001101 101000 000001 = eNoB, 3D 00 C2 is
    /// 001111 010000 000011 000010 = PQDC; then come the text and its Adler-32.
    #[test]
    fn a_short_text_encodes_to_a_hand_derived_stored_block() {
        let stream = zlib_stored([0x78, 0xda], TINY_SCENE.as_bytes());
        let fragment = encode_fragment(TINY_SCENE);
        assert_eq!(fragment, format!("s1={}", URL_SAFE_NO_PAD.encode(&stream)));
        assert!(fragment.starts_with("s1=eNoBPQDC"), "{fragment}");
        assert_eq!(decode_link(&fragment).unwrap(), TINY_SCENE);
    }

    const TWO_CIRCLES: &str = "(version: 1, bodies: [(name: \"a\", shape: Circle(radius: 1)), \
                               (name: \"b\", shape: Circle(radius: 1))])";

    /// The same scene compressed by zlib itself (Python's `zlib.compress(text, 9)`, which
    /// writes the zlib format: header 78 DA, deflate, Adler-32), then base64url without its
    /// one `=`: another zlib writer's links open.
    #[test]
    fn a_link_written_by_zlib_decodes() {
        let by_zlib = "s1=eNrTKEstKs7Mz7NSMNRRSMpPyUwttlKI1shLzE21UlBKVNJRKM5ILACynTOLknNSNYoSUzJ\
                       LgUoMNTV1FGDKkvApi9UEACwlHsA";
        assert_eq!(decode_link(by_zlib).unwrap(), TWO_CIRCLES);
    }

    /// Our encoder's output for a text that compresses, derived once by running it
    /// (miniz_oxide 0.8.9, level 9, zlib format) and pinned so that a change of compressor
    /// or level is seen; Python's `zlib.decompress` gives TWO_CIRCLES back from it, checksum
    /// included. Should it change on purpose, links made before still open (the zlib test).
    #[test]
    fn a_compressible_text_encodes_to_its_pinned_fragment() {
        let fragment = encode_fragment(TWO_CIRCLES);
        assert_eq!(fragment, PINNED_TWO_CIRCLES);
        assert_eq!(decode_link(&fragment).unwrap(), TWO_CIRCLES);
    }

    const PINNED_TWO_CIRCLES: &str =
        "s1=eNp9yjEOgCAMAMCvNEyQdGHt6jOMQ5EmNlEwbfT9sriy3XDxFXPtjSAjlF5VnGCNjS8hCBwQ_OB7eFHbT4\
         nGVZ9RckoIfyuztqUPLCUewA";

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
        let (e, m) = message("http://h/#s2=eAEBAgD9_2hpATsA0g");
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
        // Padding is not part of the format: HI's payload is 18 characters after `s1=`.
        assert!(matches!(
            message(&format!("{HI}==")).0,
            LinkError::BadCharacter {
                character: '=',
                position: 22
            }
        ));
    }

    #[test]
    fn base64_that_no_encoder_writes_is_refused() {
        // 4k + 1 characters: one character too many for any byte count.
        assert_eq!(message("s1=eAEBA").0, LinkError::BadBase64 { chars: 5 });
        // "0h": 110100 100001, whose last four bits should be zero.
        let (e, m) = message("s1=eAEBAgD9_2hpATsA0h");
        assert_eq!(e, LinkError::BadBase64 { chars: 18 });
        assert!(m.contains("cut or changed"), "{m}");
    }

    #[test]
    fn a_cut_stream_is_truncated() {
        // Cut in the stored block's header: "eAEBAgD9" is 78 01 01 02 00 FD, NLEN's first
        // byte only.
        let (e, m) = message("s1=eAEBAgD9");
        assert_eq!(e, LinkError::Truncated);
        assert!(m.contains("stops in the middle"), "{m}");
        // Cut in the checksum: "ATs" is 01 3B (with two zero bits left over), half of it.
        assert_eq!(message("s1=eAEBAgD9_2hpATs").0, LinkError::Truncated);
        // The text alone, without its checksum.
        let no_checksum = URL_SAFE_NO_PAD.encode([0x78, 1, 1, 2, 0, 0xfd, 0xff, b'h', b'i']);
        assert_eq!(
            message(&format!("s1={no_checksum}")).0,
            LinkError::Truncated
        );
    }

    #[test]
    fn an_invalid_stream_is_damaged() {
        // After the header, 0x07 = last block, type 11, which deflate reserves: 78 01 07 is
        // 011110 000000 000100 000111 = eAEH.
        let (e, m) = message("s1=eAEH");
        assert_eq!(e, LinkError::Damaged);
        assert!(m.contains("damaged"), "{m}");
        // A stored block whose NLEN is not LEN's complement (FD FE instead of FD FF).
        let mut stream = zlib_stored([0x78, 0x01], b"hi");
        stream[6] = 0xfe;
        let bad = URL_SAFE_NO_PAD.encode(&stream);
        assert_eq!(message(&format!("s1={bad}")).0, LinkError::Damaged);
        // Headers RFC 1950 refuses: 78 00 fails FCHECK (0x7800 = 30720 = 31 × 990 + 30);
        // 78 20 passes it (30752 = 31 × 992) but asks for a preset dictionary; 88 1C passes
        // it (0x881C = 34844 = 31 × 1124) but asks for a 64 KiB window (CINFO 8), over the
        // 32 KiB RFC 1950 allows.
        for header in [[0x78, 0x00], [0x78, 0x20], [0x88, 0x1c]] {
            let bad = URL_SAFE_NO_PAD.encode(zlib_stored(header, b"hi"));
            assert_eq!(
                message(&format!("s1={bad}")).0,
                LinkError::Damaged,
                "{header:02x?}"
            );
        }
    }

    #[test]
    fn a_changed_text_fails_its_checksum() {
        // "hj" with "hi"'s checksum: 68 69 -> 68 6A turns _2hp into _2hq (101001 -> 101010).
        let (e, m) = message("s1=eAEBAgD9_2hqATsA0g");
        assert_eq!(e, LinkError::ChecksumMismatch);
        assert!(m.contains("does not match its checksum"), "{m}");
        // "hi" with the checksum's last byte D2 -> D3: 0g -> 0w (110100 11(0000)).
        assert_eq!(
            message("s1=eAEBAgD9_2hpATsA0w").0,
            LinkError::ChecksumMismatch
        );
    }

    #[test]
    fn bytes_after_the_stream_are_refused() {
        // "0gAA" is D2 00 00: the stream, then two zero bytes.
        let (e, m) = message(&format!("{HI}AA"));
        assert_eq!(e, LinkError::TrailingData { bytes: 2 });
        assert!(m.contains("2 bytes after its end"), "{m}");
        // Two streams back to back: the second one (13 bytes) is trailing data.
        let mut twice = zlib_stored([0x78, 0x01], b"hi");
        twice.extend_from_within(..);
        let twice = URL_SAFE_NO_PAD.encode(&twice);
        assert_eq!(
            message(&format!("s1={twice}")).0,
            LinkError::TrailingData { bytes: 13 }
        );
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
        // A stored block holding "a", 0xFF: byte 1 is where UTF-8 breaks. Its checksum is
        // right (A = 1 + 97 + 255 = 353 = 0x161, B = 98 + 353 = 451 = 0x1C3): only UTF-8 is
        // wrong.
        let stream = zlib_stored([0x78, 0x01], &[b'a', 0xff]);
        assert_eq!(stream[9..], [0x01, 0xc3, 0x01, 0x61]);
        let bad = URL_SAFE_NO_PAD.encode(&stream);
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

    /// The payload with character `at` (counted in bytes of the fragment) replaced by each
    /// other character of URL-safe base64 in turn.
    fn every_substitution(fragment: &str) -> impl Iterator<Item = String> + '_ {
        const URL_SAFE: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        (LINK_PREFIX.len()..fragment.len()).flat_map(move |at| {
            URL_SAFE
                .iter()
                .filter(move |&&with| with != fragment.as_bytes()[at])
                .map(move |&with| {
                    let mut changed = fragment.as_bytes().to_vec();
                    changed[at] = with;
                    String::from_utf8(changed).unwrap()
                })
        })
    }

    /// The point of the checksum: a link with any one character replaced by any other
    /// base64 character either fails with a [`LinkError`] or gives back exactly the
    /// original text (a change in bits nothing reads, such as the padding after the last
    /// block), never a different text. Tried on a real scene, every position × all 63 other
    /// characters. The same substitutions on the raw deflate data that links held before the
    /// zlib format open silently different texts, which is why the format changed: the
    /// control shows this test can fail.
    #[test]
    fn a_changed_character_never_opens_a_different_scene() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/concentric_circles.ron");
        let text = std::fs::read_to_string(path).unwrap();
        let fragment = encode_fragment(&text);
        let mut outcomes = std::collections::BTreeMap::<String, usize>::new();
        for changed in every_substitution(&fragment) {
            let outcome = match decode_link(&changed) {
                Ok(back) => {
                    assert!(back == text, "{changed} opens a different text:\n{back}");
                    "the same text".to_string()
                }
                // The variant's name without its fields.
                Err(e) => format!("{e:?}")
                    .split([' ', '{'])
                    .next()
                    .unwrap()
                    .to_string(),
            };
            *outcomes.entry(outcome).or_default() += 1;
        }
        println!("{} characters changed: {outcomes:?}", fragment.len() - 3);
        assert!(outcomes["ChecksumMismatch"] > 0, "{outcomes:?}");

        let raw = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), DEFLATE_LEVEL);
        let raw = format!("{LINK_PREFIX}{}", URL_SAFE_NO_PAD.encode(raw));
        let silently_different = every_substitution(&raw)
            .filter_map(|changed| URL_SAFE_NO_PAD.decode(&changed[3..]).ok())
            .filter_map(|bytes| miniz_oxide::inflate::decompress_to_vec(&bytes).ok())
            .filter(|back| back != text.as_bytes() && std::str::from_utf8(back).is_ok())
            .count();
        println!("raw deflate: {silently_different} silently different texts");
        assert!(silently_different > 0);
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
