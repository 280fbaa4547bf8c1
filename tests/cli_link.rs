//! `collision-lab link` and `open-link`, run as the built binary: a scene file survives the
//! round trip byte for byte in both dimensions, `--base` replaces any fragment, and every
//! broken link or invalid scene exits 2 with a message and writes nothing.

use collision_lab::scene::link_for;
use std::path::{Path, PathBuf};

mod common;
use common::scene_runs::run_binary;

fn run(args: &[&str]) -> (i32, String, String) {
    run_binary(args)
}

/// A fresh, empty folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-link-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The link `collision-lab link` prints for a scene file (one line).
fn link_of(scene: &str, extra: &[&str]) -> String {
    let mut args = vec!["link", scene];
    args.extend_from_slice(extra);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    out.trim_end().to_string()
}

fn open_link_to(link: &str, out: &Path) -> (i32, String) {
    let (code, stdout, err) = run(&["open-link", link, "--out", out.to_str().unwrap()]);
    assert_eq!(stdout, "", "--out prints nothing on stdout");
    (code, err)
}

fn round_trip(scene: &str, what: &str) {
    let dir = temp_dir(&what.replace(' ', "-"));
    let out = dir.join("back.ron");
    let link = link_of(scene, &[]);
    assert!(link.starts_with("http://localhost:8000/#s1="), "{link}");
    let (code, err) = open_link_to(&link, &out);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.trim_end(), format!("wrote {} ({what})", out.display()));
    let original = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(scene)).unwrap();
    assert!(std::fs::read(&out).unwrap() == original, "{scene} changed");
    // Without --out the text goes to stdout, as it was.
    let (code, stdout, _) = run(&["open-link", &link]);
    assert_eq!(code, 0);
    assert!(stdout.as_bytes() == original.as_slice());
}

#[test]
fn a_2d_scene_round_trips_byte_for_byte() {
    round_trip("scenes/clip_two_points.ron", "2D scene, 2 bodies");
}

#[test]
fn a_3d_scene_round_trips_byte_for_byte() {
    // scenes/3d/welcome.ron has four bodies.
    round_trip("scenes/3d/welcome.ron", "3D scene, 4 bodies");
}

#[test]
fn the_base_replaces_any_fragment_it_had() {
    let scene = "scenes/sat_tie.ron";
    let plain = link_of(scene, &[]);
    let fragment = plain.strip_prefix("http://localhost:8000/").unwrap();
    assert!(fragment.starts_with("#s1="), "{plain}");
    let here = link_of(scene, &["--base", "https://example.org/lab/"]);
    assert_eq!(here, format!("https://example.org/lab/{fragment}"));
    let replaced = link_of(scene, &["--base", "https://example.org/lab/#s1=old#view"]);
    assert_eq!(replaced, here);
    // The fragment alone opens the scene too.
    let (code, stdout, err) = run(&["open-link", fragment]);
    assert_eq!(code, 0, "{err}");
    let original =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(scene)).unwrap();
    assert_eq!(stdout, original);
}

/// Runs a failing `open-link` with `--out` at a file holding a known text, and checks the
/// exit status, that the message starts with `start`, and that the file and its folder are
/// as they were (no temporary file left, no new file made).
fn refused(link: &str, start: &str) -> String {
    let dir = temp_dir("refused");
    let out = dir.join("keep.ron");
    std::fs::write(&out, "kept").unwrap();
    let (code, err) = open_link_to(link, &out);
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with(start), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept");
    // A file that did not exist is not created.
    let absent = dir.join("absent.ron");
    let (code, _) = open_link_to(link, &absent);
    assert_eq!(code, 2);
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(files.len(), 1, "{files:?}");
    err
}

#[test]
fn corrupted_links_exit_2_and_leave_the_out_file_alone() {
    let link = link_of("scenes/clip_two_points.ron", &[]);
    let payload_at = link.find("#s1=").unwrap() + 4;

    // One character flipped in the middle of the compressed data ('A' <-> 'B' changes its
    // low bit). This one still inflates, to a different text, which the checksum catches:
    // the link's damage is reported, not a scene error (`share link:LINE:COL:`) about a
    // different text, nor that text opened silently.
    let mid = payload_at + (link.len() - payload_at) / 2;
    let mut flipped = link.clone().into_bytes();
    flipped[mid] = if flipped[mid] == b'A' { b'B' } else { b'A' };
    let flipped = String::from_utf8(flipped).unwrap();
    refused(
        &flipped,
        "error: share link: the link's scene does not match its checksum: a character was \
         changed when copied",
    );

    // A character flipped in the checksum itself, the payload's last character: the text
    // inflates whole and only the checksum tells.
    let mut last = link.clone().into_bytes();
    let end = last.len() - 1;
    last[end] = if last[end] == b'A' { b'B' } else { b'A' };
    let last = String::from_utf8(last).unwrap();
    refused(
        &last,
        "error: share link: the link's scene does not match its checksum",
    );

    // Something appended: "AAAA" is 24 zero bits, and the link's own last character ends
    // in zero padding bits, so whatever the payload's length, the bytes it decodes to are the
    // stream's, then 3 zero bytes.
    let err = refused(
        &format!("{link}AAAA"),
        "error: share link: the link's scene data",
    );
    assert!(err.contains("goes on for 3 bytes after its end"), "{err}");

    // Cut: the first 40 characters of the payload hold the zlib stream's start only.
    let cut = &link[..payload_at + 40];
    refused(
        cut,
        "error: share link: the link's scene data stops in the middle",
    );

    // A character that is no base64 at all, named with its place (counted from 1).
    let mut percent = link.clone();
    percent.replace_range(mid..mid + 1, "%");
    let err = refused(&percent, "error: share link: character ");
    assert!(
        err.contains(&format!("character {} of the link is '%'", mid + 1)),
        "{err}"
    );

    // A newer format's prefix, and no prefix at all.
    let newer = link.replace("#s1=", "#s2=");
    let err = refused(&newer, "error: share link: the link starts with `s2=`");
    assert!(err.contains("newer collision-lab"), "{err}");
    let err = refused(
        "http://localhost:8000/",
        "error: share link: this is not a share link",
    );
    assert!(err.contains("#s1=..."), "{err}");
}

/// A valid link whose scene is invalid: a circle of radius -1 on line 3. The error points
/// at the body's name, `"a"`: in `    bodies: [(name: "a", ...` four spaces, `bodies: [(` (10
/// characters) and `name: ` (6) come before its quote, which is column 21.
#[test]
fn an_invalid_scene_in_a_valid_link_names_the_share_link_and_its_position() {
    let text = "(\n    version: 1,\n    bodies: [(name: \"a\", shape: Circle(radius: -1))],\n)\n";
    let link = link_for("http://localhost:8000/", text);
    let err = refused(&link, "error: share link:3:21: ");
    assert!(err.contains("radius"), "{err}");
}

#[test]
fn link_refuses_an_invalid_scene_file_with_its_position() {
    let dir = temp_dir("invalid-file");
    let path = dir.join("bad.ron");
    // The RON parser stops at the `]` on line 2: after `bodies: [(` (10 characters) and
    // `name: "a",` (10 more) it is column 21, where the next field's name should be.
    std::fs::write(&path, "(version: 1,\nbodies: [(name: \"a\",]\n)").unwrap();
    let (code, stdout, err) = run(&["link", path.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(stdout, "");
    assert!(
        err.starts_with(&format!("error: {}:2:21: ", path.display())),
        "{err}"
    );
    let (code, stdout, err) = run(&["link", "scenes/no_such_scene.ron"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        err.starts_with("error: scenes/no_such_scene.ron: cannot read"),
        "{err}"
    );
}
