//! Words that are true (issue 39): each step sentence or result below once claimed something
//! that holds only in some cases, and each test runs a scene where the old words were false
//! and checks the new words are there (and the old ones gone). The sentences are read as
//! `collision-lab trace` prints them, with the line wrapping undone.
//!
//! Fixtures made for these tests are in `tests/words/`; the rest are the teaching scenes.

use std::process::Command;

/// `collision-lab trace --algorithm ALGORITHM SCENE`, its lines joined back into one text.
fn trace(algorithm: &str, scene: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_collision-lab"))
        .args(["trace", "--algorithm", algorithm, scene])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{algorithm} {scene}");
    let text = String::from_utf8(out.stdout).unwrap();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn assert_says(text: &str, new: &str, old: &str) {
    assert!(text.contains(new), "missing {new:?} in: {text}");
    assert!(!text.contains(old), "still says {old:?} in: {text}");
}

/// 3D GJK stopped with the origin on its triangle said "the bodies touch"; on the slab the
/// cube sinks 0.1 into (EPA's depth, the scene's notes), that triangle cuts through A - B
/// and the bodies overlap.
#[test]
fn gjk3_origin_on_the_simplex_says_touch_or_overlap_not_touch() {
    let text = trace("gjk", "scenes/3d/face_face_box_on_slab.ron");
    assert_says(
        &text,
        "A - B contains it: the bodies touch or overlap",
        "the bodies touch.",
    );
    assert!(trace("epa", "scenes/3d/face_face_box_on_slab.ron").contains("The depth is 0.1 "));
}

/// 2D EPA said that moving B by the depth along the normal "separates the shapes": it
/// leaves them touching (the welcome pair: depth 0.5165; moved by exactly that, the two
/// share the closest edge's support point), as the 3D sentence says.
#[test]
fn epa2_says_moving_b_by_the_depth_leaves_the_shapes_touching() {
    let text = trace("epa", "scenes/welcome.ron");
    assert_says(
        &text,
        "moving B that far along it leaves the shapes touching",
        "separates the shapes",
    );
}

/// 2D clipping's single-point contact said "a circle, a rounded end or a corner is
/// touching"; the circle inside the box is 0.9 deep.
#[test]
fn clip2_single_point_says_meets_not_touching_for_a_deep_circle() {
    let text = trace("clip", "scenes/circle_inside_box.ron");
    assert_says(
        &text,
        "a circle, a rounded end or a corner meets the other shape",
        "is touching",
    );
    assert!(text.contains("(depth 0.9)"), "{text}");
}

/// 2D SAT's vertex axis ran "to the closest point of the other shape"; it runs to the
/// closest point of the other's core. The box's corner (1, 1) lies inside the ball (its
/// centre (1.24, 1.32) is 0.4 away, the radius 0.5), where the closest point of the ball is
/// the corner itself and would give no axis; the axis goes to the centre, along
/// (0.24, 0.32) / 0.4 = (0.6, 0.8).
#[test]
fn sat2_vertex_axis_runs_to_the_other_core() {
    let text = trace("sat", "scenes/circle_at_vertex.ron");
    assert_says(
        &text,
        "the axis from vertex 2 of A's core to the closest point of B's core (a circle's centre, a capsule's segment), along (0.6, 0.8)",
        "closest point of the other shape",
    );
}

/// GJK's result named "the closest points"; between parallel edges or faces there are
/// many pairs, and GJK reports one of them. Fixtures: two unit boxes 1 apart edge to edge
/// (2D), two unit cubes 1 apart face to face (3D); every pair straight across is 1 apart.
#[test]
fn gjk_result_names_one_pair_of_closest_points_when_edges_are_parallel() {
    let text = trace("gjk", "tests/words/boxes_side_by_side.ron");
    assert_says(&text, "a and b are 1 apart", "Closest points:");
    assert!(
        text.contains("One pair of closest points (parallel edges have many): (1, "),
        "{text}"
    );
    let text = trace("gjk", "tests/words/cubes_face_to_face.ron");
    assert_says(
        &text,
        "one pair of closest points (parallel edges or faces have many) is (0.5, ",
        "the closest points are",
    );
    assert!(text.contains("a and b are 1 apart"), "{text}");
}

/// A SAT axis that ties with the best so far and replaces it was said to win "as the side
/// facing the contact". In the crate on the ground, B's edge 2 faces away from the contact
/// and wins because its overlap, 0.1 less a rounding error (0.099999905 against A's
/// 0.100000024), is smaller. On the welcome pair, A's edge 5 does face the contact and ties
/// edge 2 exactly (the same line, the same overlap 0.5176).
#[test]
fn sat2_a_tie_won_by_rounding_is_not_said_to_face_the_contact() {
    let text = trace("sat", "scenes/clip_two_points.ron");
    assert_says(
        &text,
        "It ties with edge 2 of A within rounding, and its overlap is smaller by a rounding error, so it becomes the best so far.",
        "as the side facing the contact it becomes the best so far",
    );
    let text = trace("sat", "scenes/welcome.ron");
    assert!(
        text.contains("It ties with edge 2 of A and becomes the best so far: on a tie the side facing the contact wins."),
        "{text}"
    );
}

/// Clipping's last stage kept the points below the reference face "(inside the reference
/// body)". The sliver is 0.001 thick (its top edge runs from (-2, 0) to (2, 0.001)) and the
/// box's corners it keeps, (-0.5, -0.1) and (0.5, -0.1), lie 0.1 below that face: on the
/// sliver's side of the face's line, far outside the sliver.
#[test]
fn clip2_kept_points_lie_on_the_reference_side_not_inside_the_reference_body() {
    let text = trace("clip", "scenes/thin_sliver.ron");
    assert_says(
        &text,
        "Keep only points below the reference face (on the reference body's side of its line): kept (-0.5, -0.1), (0.5, -0.1)",
        "inside the reference body",
    );
}

/// The Minkowski difference's result said A - B contains the origin "exactly when the
/// shapes overlap"; it contains it when they share a point, and the edge-touching pair
/// touches (EPA's depth 0) without overlapping.
#[test]
fn minkowski2_contains_the_origin_when_the_shapes_touch_or_overlap() {
    let text = trace("minkowski", "scenes/edge_touching.ron");
    assert_says(
        &text,
        "It contains the origin exactly when the shapes share a point (they touch or overlap): here it does",
        "exactly when the shapes overlap",
    );
    assert!(trace("epa", "scenes/edge_touching.ron").contains("Depth 0 along"));
}

/// 3D GJK's result on an intersecting pair ended "and EPA finds the depth from its
/// simplex"; for round bodies whose cores are apart within the radii EPA does not expand.
/// The spheres: centres 1.2 apart, radii 1 + 0.5 = 1.5, depth 1.5 - 1.2 = 0.3.
#[test]
fn gjk3_round_cores_apart_do_not_send_epa_to_a_simplex() {
    let text = trace("gjk", "scenes/3d/round_spheres.ron");
    assert_says(
        &text,
        "so big and small intersect; GJK ended after 1 iteration (stopped: the support point repeated), and the depth is the radii less the cores' distance (EPA need not expand).",
        "EPA finds the depth from its simplex",
    );
    assert!(trace("epa", "scenes/3d/round_spheres.ron").contains("The depth is 0.3 "));
    // Polyhedra overlapping: EPA does start from GJK's simplex.
    let text = trace("gjk", "scenes/3d/face_face_box_on_slab.ron");
    assert!(
        text.contains("and EPA finds the depth from its simplex."),
        "{text}"
    );
}

/// One iteration or expansion is counted in the singular ("1 expansions" before).
#[test]
fn one_iteration_and_one_expansion_read_in_the_singular() {
    assert!(trace("epa", "scenes/edge_touching.ron").ends_with(", 1 expansion."));
    assert!(trace("gjk", "scenes/concentric_circles.ron").ends_with(", 1 iteration)."));
    assert!(trace("gjk", "scenes/welcome.ron").ends_with(", 4 iterations)."));
}

/// The 2D sweep of two points (circles of radius 0) tests no axis at all: its Newton steps
/// find the gap never closing (7.0711 at t = 0, 6.4031 at t = 1). The result said "an axis
/// keeps the bodies apart", the steps called the points "rounded shapes" and stepped
/// "toward the first contact", which does not exist.
#[test]
fn sweep2_of_two_points_misses_without_an_axis_or_a_contact() {
    let text = trace("sweep", "scenes/sweep_points.ron");
    assert_says(
        &text,
        "miss: the bodies stay apart throughout",
        "an axis keeps the bodies apart",
    );
    assert_says(
        &text,
        "With a circle or a capsule (its axes turn as the bodies move): at t = 0 the shapes are 7.0711 apart. The distance is convex in time, so a Newton step toward the first contact, if there is one, cannot overshoot it.",
        "Rounded shapes",
    );
    assert!(!text.contains("Axis:"), "no axis is tested: {text}");
}

/// A 3D sweep axis said "B moves along it at" a speed that is B's relative to A. In the
/// crossing capsules both move: A at (0, 0, 1), B at (0, 0, -3), so along the first axis,
/// (0.1483, 0, 0.9889), B alone moves at -3 x 0.9889 = -2.97 but closes at
/// -4 x 0.9889 = -3.9557 relative to A, the speed the sentence gives.
#[test]
fn sweep3_axis_speed_is_relative_to_a() {
    let text = trace("sweep", "scenes/3d/round_sweep_capsules_crossing.ron");
    assert_says(
        &text,
        "B moves along it at -3.9557 relative to A, so they overlap",
        "B moves along it at -3.9557,",
    );
}
