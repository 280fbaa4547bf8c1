//! Scene files are shared between students and teachers, so they are untrusted input. Every
//! file in `tests/hostile/` (and a few huge ones generated here) must make both `query` and
//! `check` exit with status 2 and print `error: FILE:LINE:COL: message` (or `error: FILE:
//! message` where no position exists) with a message specific to the case, promptly and
//! without a panic.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A run longer than this is a hang.
const TIME_LIMIT: Duration = Duration::from_secs(20);

/// Each corpus file, a phrase its message must contain, and whether the message must carry
/// a line and column.
const CORPUS: &[(&str, &str, bool)] = &[
    ("bad_color.ron", "is not of the form \"#rrggbb\"", true),
    ("binary.ron", "Expected opening `(`", true),
    ("duplicate_names.ron", "two bodies are named \"A\"", true),
    ("empty.ron", "the file is empty", false),
    ("empty_name.ron", "a body has an empty name", true),
    (
        "expect_missing_body.ron",
        "an expectation names \"ghost\", but no body has that name",
        true,
    ),
    (
        "expect_negative_tolerance.ron",
        "tolerance must be a finite number >= 0",
        true,
    ),
    (
        "expect_not_unit_normal.ron",
        "normal must be a unit vector",
        true,
    ),
    (
        "far_position.ron",
        "beyond the largest accepted magnitude",
        true,
    ),
    (
        "focus_missing_body.ron",
        "focus names \"C\", but no body has that name",
        true,
    ),
    (
        "focus_same_body.ron",
        "focus names the same body twice",
        true,
    ),
    ("huge_version.ron", "this whole number is too large", true),
    (
        "infinite_radius.ron",
        "the radius is not a finite number",
        true,
    ),
    ("malformed_ron.ron", "Expected identifier", true),
    ("missing_field.ron", "missing field named `shape`", true),
    ("missing_version.ron", "missing field named `version`", true),
    (
        "nan_position.ron",
        "position is not a finite number (NaN)",
        true,
    ),
    (
        "negative_half_extent.ron",
        "a half extent must not be negative",
        true,
    ),
    (
        "negative_radius.ron",
        "the radius must not be negative, it is -0.5",
        true,
    ),
    ("negative_sides.ron", "negative where only a count", true),
    (
        "negative_zoom.ron",
        "view zoom must be a positive number",
        true,
    ),
    (
        "non_convex.ron",
        "the polygon is not convex: it turns the wrong way at point 2",
        true,
    ),
    (
        "not_a_scene.ron",
        "Expected opening `(` for struct `Scene`",
        true,
    ),
    ("not_utf8.ron", "not valid UTF-8", true),
    (
        "overflowing_number.ron",
        "position is not a finite number (inf)",
        true,
    ),
    (
        "regular_too_few_sides.ron",
        "needs at least 3 sides, this one has 2",
        true,
    ),
    (
        "regular_too_many_sides.ron",
        "at most 4096 points, this one has 100000",
        true,
    ),
    ("self_intersecting.ron", "its outline crosses itself", true),
    (
        "too_few_points.ron",
        "needs at least 3 points, this one has 2",
        true,
    ),
    ("trailing_garbage.ron", "trailing characters", true),
    ("unknown_field.ron", "Unexpected field named `mass`", true),
    (
        "unknown_overlay.ron",
        "Unexpected variant named `Xray`",
        true,
    ),
    (
        "unknown_shape.ron",
        "Unexpected variant named `Star` in enum `ShapeKind`",
        true,
    ),
    (
        "unknown_version.ron",
        "scene version 7 is not known to this build",
        true,
    ),
    ("unterminated_string.ron", "Expected end of string", true),
    ("wrong_type.ron", "Expected float", true),
    ("zero_area.ron", "zero area (all points on a line)", true),
    ("zero_capsule.ron", "is a single point, with no area", true),
    (
        "zero_sweep_time.ron",
        "sweep_time must be a positive number",
        true,
    ),
    // 3D scenes (`dimensions: 3`): the same promises, and the 2D habits named.
    ("lesson_unknown_goal.ron", "Unexpected variant named `Flying` in enum `Goal`", true),
    (
        "lesson_3d_goal_in_2d.ron",
        "FeaturePair (\"edge_edge\") is a 3D goal",
        true,
    ),
    ("lesson_step_zero.ron", "the lesson's step counts from 1, it is 0", true),
    ("3d_2d_shape.ron", "`Box` is a 2D shape; a 3D scene", true),
    ("3d_2d_view.ron", "a 3D view is `view: (eye:", true),
    ("3d_angle_field.ron", "turns by `rotation: (x, y, z)`", true),
    (
        "3d_bad_feature.ron",
        "feature \"corner_face\" is not one of",
        true,
    ),
    (
        "3d_dimensions_four.ron",
        "dimensions must be 2 or 3, it is 4",
        true,
    ),
    (
        "3d_expect_flat_normal.ron",
        "has three numbers (x, y, z), this one has 2",
        true,
    ),
    (
        "3d_far_position.ron",
        "body \"A\": position is 2000000, beyond the largest accepted magnitude",
        true,
    ),
    (
        "3d_flat_hull.ron",
        "body \"sheet\": Hull: all hull points lie in one plane",
        true,
    ),
    (
        "3d_minkowski_overlay.ron",
        "overlay Minkowski has no 3D version; a 3D scene can show Gjk, Epa, Sat, Clip, Sweep",
        true,
    ),
    (
        "3d_hull_huge_coordinate.ron",
        "body \"gem\": Hull: a hull coordinate is 10000000, beyond the largest accepted",
        true,
    ),
    (
        "3d_hull_too_few_points.ron",
        "body \"gem\": Hull: a hull needs at least 4 points to enclose a volume, got 3",
        true,
    ),
    ("3d_malformed.ron", "Expected comma", true),
    (
        "3d_nan_rotation.ron",
        "body \"B\": rotation is not a finite number (NaN)",
        true,
    ),
    (
        "3d_prism_two_sides.ron",
        "body \"prism\": Prism: a prism needs between 3 and 512 sides, got 2",
        true,
    ),
    (
        "3d_two_tuple_position.ron",
        "has three numbers (x, y, z), this one has 2",
        true,
    ),
    (
        "3d_view_same_point.ron",
        "eye and target are the same point",
        true,
    ),
    (
        "3d_zero_cuboid.ron",
        "body \"flat\": Cuboid: half extent y must be positive, got 0",
        true,
    ),
    // Round 3D shapes: every size positive, finite and at most 1e6, named with the body.
    (
        "3d_zero_sphere.ron",
        "body \"ball\": Sphere: radius must be positive, got 0",
        true,
    ),
    (
        "3d_negative_capsule_radius.ron",
        "body \"rod\": Capsule: radius must be positive, got -0.5",
        true,
    ),
    (
        "3d_zero_capsule_length.ron",
        "body \"rod\": Capsule: half length must be positive, got 0",
        true,
    ),
    (
        "3d_huge_sphere.ron",
        "body \"ball\": Sphere: radius is 5000000, beyond the largest accepted magnitude",
        true,
    ),
    (
        "3d_infinite_capsule.ron",
        "body \"rod\": Capsule: half length is not a finite number",
        true,
    ),
    (
        "3d_nan_sphere.ron",
        "body \"ball\": Sphere: radius is not a finite number",
        true,
    ),
    (
        "3d_circle_shape.ron",
        "`Circle` is a 2D shape; a 3D scene (dimensions: 3) takes Cuboid, Prism, Hull, Sphere or Capsule",
        true,
    ),
    (
        "3d_sphere_extra_field.ron",
        "Unexpected field named `half_length` in `Sphere`",
        true,
    ),
];

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("hostile")
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs the binary, killing it and failing the test if it takes longer than `TIME_LIMIT`.
fn run(args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_collision-lab"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // Drain the pipes on threads so a chatty child cannot block on a full pipe.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("collision-lab {args:?} ran longer than {TIME_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Run {
        code: status.code(),
        stdout: out_thread.join().unwrap(),
        stderr: err_thread.join().unwrap(),
    }
}

/// Asserts the `error: FILE:LINE:COL: ` (or `error: FILE: `) form and the phrase, for every
/// command that loads a scene file.
fn assert_refused(path: &Path, phrase: &str, positioned: bool) {
    let file = path.display().to_string();
    let commands: [&[&str]; 3] = [
        &["query", &file],
        &["check", &file],
        &["trace", &file, "--algorithm", "gjk"],
    ];
    for args in commands {
        let command = args[0];
        let r = run(args);
        let what = format!(
            "{command} {file}\nstdout: {}\nstderr: {}",
            r.stdout, r.stderr
        );
        assert_eq!(r.code, Some(2), "{what}");
        assert!(!r.stderr.contains("panicked"), "{what}");
        let first = r.stderr.lines().next().unwrap_or("");
        let rest = first
            .strip_prefix(&format!("error: {file}:"))
            .unwrap_or_else(|| panic!("stderr does not start with `error: {file}:`\n{what}"));
        let mut parts = rest.splitn(3, ':');
        let (line, col) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        let has_position = line.parse::<usize>().is_ok_and(|l| l >= 1)
            && col.parse::<usize>().is_ok_and(|c| c >= 1)
            && parts.next().is_some_and(|m| m.starts_with(' '));
        if positioned {
            assert!(has_position, "expected FILE:LINE:COL:\n{what}");
        } else {
            assert!(rest.starts_with(' '), "expected `FILE: message`\n{what}");
        }
        assert!(
            first.contains(phrase),
            "expected the phrase {phrase:?}\n{what}"
        );
    }
}

#[test]
fn every_corpus_file_is_refused_with_its_message() {
    for (name, phrase, positioned) in CORPUS {
        assert_refused(&corpus_dir().join(name), phrase, *positioned);
    }
}

#[test]
fn every_corpus_file_has_a_case() {
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let listed: Vec<&str> = CORPUS.iter().map(|c| c.0).collect();
    for n in &names {
        assert!(
            listed.contains(&n.as_str()),
            "tests/hostile/{n} has no entry in CORPUS"
        );
    }
    assert_eq!(names.len(), CORPUS.len(), "a CORPUS entry has no file");
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "collision-lab-hostile-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn bodies_text(count: usize) -> String {
    let mut text = String::from("(\n    version: 1,\n    bodies: [\n");
    for i in 0..count {
        text += &format!(
            "        (name: \"b{i}\", shape: Circle(radius: 1), position: ({}, {})),\n",
            (i % 100) * 3,
            (i / 100) * 3
        );
    }
    text + "    ],\n)\n"
}

fn polygon_text(count: usize) -> String {
    let points: Vec<String> = (0..count)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / count as f64;
            format!("({:.6}, {:.6})", a.cos() * 100.0, a.sin() * 100.0)
        })
        .collect();
    format!(
        "(\n    version: 1,\n    bodies: [\n        (name: \"disc\", shape: Polygon(points: [{}])),\n    ],\n)\n",
        points.join(", ")
    )
}

#[test]
fn absurd_sizes_are_refused() {
    let dir = temp_dir("sizes");
    let many_bodies = dir.join("many_bodies.ron");
    std::fs::write(&many_bodies, bodies_text(10_001)).unwrap();
    assert_refused(
        &many_bodies,
        "the scene has 10001 bodies, more than the 10000 allowed",
        true,
    );

    let many_vertices = dir.join("many_vertices.ron");
    std::fs::write(&many_vertices, polygon_text(4_097)).unwrap();
    assert_refused(
        &many_vertices,
        "at most 4096 points, this one has 4097",
        true,
    );

    // A 3D hull with one point more than the documented maximum (1,024).
    let many_hull_points = dir.join("many_hull_points.ron");
    let points: Vec<String> = (0..1_025)
        .map(|k| {
            let (t, u) = (k as f64 * 2.399963, (k as f64 + 0.5) / 1_025.0);
            let y = 1.0 - 2.0 * u;
            let r = (1.0 - y * y).sqrt();
            format!("({:.6}, {:.6}, {:.6})", r * t.cos(), y, r * t.sin())
        })
        .collect();
    std::fs::write(
        &many_hull_points,
        format!(
            "(version: 1, dimensions: 3, bodies: [(name: \"ball\", shape: Hull(points: [{}]))])\n",
            points.join(", ")
        ),
    )
    .unwrap();
    assert_refused(
        &many_hull_points,
        "body \"ball\": Hull: a hull takes at most 1024 points, got 1025",
        true,
    );

    // Just over 16 MiB of valid text (a long comment), refused before it is read.
    let big = dir.join("big_file.ron");
    let mut text = String::from("(\n    version: 1,\n    bodies: [],\n)\n// ");
    text += &"x".repeat(16 * 1024 * 1024);
    std::fs::write(&big, text).unwrap();
    assert_refused(&big, "larger than the 16777216 byte limit", false);

    // Nesting far deeper than the recursion limit, in brackets of every kind.
    for (name, open, close) in [
        ("parens", "(", ")"),
        ("lists", "[", "]"),
        ("maps", "{", "}"),
    ] {
        let path = dir.join(format!("deep_{name}.ron"));
        let text = format!(
            "(version: 1, bodies: [{}{}])\n",
            open.repeat(200_000),
            close.repeat(200_000)
        );
        std::fs::write(&path, text).unwrap();
        assert_refused(&path, "nests deeper than the 64 levels", true);
    }
    let path = dir.join("deep_some.ron");
    let text = format!(
        "(version: 1, title: {}\"x\"{}, bodies: [])\n",
        "Some(".repeat(100_000),
        ")".repeat(100_000)
    );
    std::fs::write(&path, text).unwrap();
    assert_refused(&path, "nests deeper than the 64 levels", true);

    // A folder where a file was expected (`check` would search it, so only `query`).
    let r = run(&["query", &dir.display().to_string()]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("is a folder"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The limits themselves are allowed: exactly 10,000 bodies and a 4,096-point polygon load,
/// and `check` (which only runs the expectations) finishes quickly.
#[test]
fn sizes_at_the_limits_load() {
    let dir = temp_dir("limits");
    let bodies = dir.join("bodies.ron");
    std::fs::write(&bodies, bodies_text(10_000)).unwrap();
    let polygon = dir.join("polygon.ron");
    std::fs::write(&polygon, polygon_text(4_096)).unwrap();
    for path in [&bodies, &polygon] {
        let r = run(&["check", &path.display().to_string()]);
        assert_eq!(r.code, Some(0), "{}\n{}", r.stdout, r.stderr);
        assert_eq!(r.stdout.lines().last(), Some("0 passed, 0 failed"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nesting_inside_strings_and_comments_is_not_counted() {
    let deep = "(".repeat(100);
    let text = format!(
        "(\n    version: 1,\n    // {deep}\n    /* {deep} /* nested */ {deep} */\n    title: \"{deep} \\\" {deep}\",\n    notes: r#\"{deep}\"#,\n    bodies: [],\n)\n"
    );
    let (scene, _) =
        collision_lab::scene::parse_scene(&text, "strings.ron").unwrap_or_else(|e| panic!("{e}"));
    assert!(scene.title.unwrap().starts_with("(((("));
}

/// Not hostile, only foreign: a byte order mark and Windows line endings load normally, and
/// positions in errors still count from the first visible character.
#[test]
fn byte_order_mark_and_crlf_are_accepted() {
    let dir = temp_dir("bom");
    let good = dir.join("good.ron");
    std::fs::write(
        &good,
        "\u{feff}(\r\n    version: 1,\r\n    bodies: [(name: \"A\", shape: Circle(radius: 1))],\r\n)\r\n",
    )
    .unwrap();
    let r = run(&["check", &good.display().to_string()]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "\u{feff}(version: 2, bodies: [])").unwrap();
    assert_refused(&bad, "scene version 2 is not known", true);
    let r = run(&["query", &bad.display().to_string()]);
    assert!(
        r.stderr
            .starts_with(&format!("error: {}:1:2:", bad.display())),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
