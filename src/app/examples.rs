//! The example scenes, compiled into the binary so that File > Examples works wherever the
//! binary runs. Every `.ron` file in `scenes/` must be listed here (a test checks it).

/// Each example as (name, file text).
pub const EXAMPLES: &[(&str, &str)] = &[
    ("welcome", include_str!("../../scenes/welcome.ron")),
    ("arena_128", include_str!("../../scenes/arena_128.ron")),
    (
        "capsule_cross",
        include_str!("../../scenes/capsule_cross.ron"),
    ),
    (
        "capsule_end_circle",
        include_str!("../../scenes/capsule_end_circle.ron"),
    ),
    (
        "capsule_parallel_edge",
        include_str!("../../scenes/capsule_parallel_edge.ron"),
    ),
    (
        "circle_at_vertex",
        include_str!("../../scenes/circle_at_vertex.ron"),
    ),
    (
        "circle_inside_box",
        include_str!("../../scenes/circle_inside_box.ron"),
    ),
    (
        "circles_overlapping",
        include_str!("../../scenes/circles_overlapping.ron"),
    ),
    (
        "clip_one_point",
        include_str!("../../scenes/clip_one_point.ron"),
    ),
    (
        "clip_reference_flip",
        include_str!("../../scenes/clip_reference_flip.ron"),
    ),
    (
        "clip_two_points",
        include_str!("../../scenes/clip_two_points.ron"),
    ),
    (
        "collinear_duplicate_vertices",
        include_str!("../../scenes/collinear_duplicate_vertices.ron"),
    ),
    (
        "concentric_circles",
        include_str!("../../scenes/concentric_circles.ron"),
    ),
    (
        "edge_touching",
        include_str!("../../scenes/edge_touching.ron"),
    ),
    (
        "epa_expansion",
        include_str!("../../scenes/epa_expansion.ron"),
    ),
    (
        "far_coordinates",
        include_str!("../../scenes/far_coordinates.ron"),
    ),
    (
        "gjk_overlapping",
        include_str!("../../scenes/gjk_overlapping.ron"),
    ),
    (
        "gjk_separated",
        include_str!("../../scenes/gjk_separated.ron"),
    ),
    (
        "identical_coincident",
        include_str!("../../scenes/identical_coincident.ron"),
    ),
    (
        "minkowski_triangle_box",
        include_str!("../../scenes/minkowski_triangle_box.ron"),
    ),
    ("polygon_256", include_str!("../../scenes/polygon_256.ron")),
    (
        "polygon_inside",
        include_str!("../../scenes/polygon_inside.ron"),
    ),
    (
        "rotated_boxes_distance",
        include_str!("../../scenes/rotated_boxes_distance.ron"),
    ),
    (
        "sat_overlapping",
        include_str!("../../scenes/sat_overlapping.ron"),
    ),
    (
        "sat_separated",
        include_str!("../../scenes/sat_separated.ron"),
    ),
    ("sat_tie", include_str!("../../scenes/sat_tie.ron")),
    (
        "segment_vs_circle",
        include_str!("../../scenes/segment_vs_circle.ron"),
    ),
    (
        "segment_vs_polygon",
        include_str!("../../scenes/segment_vs_polygon.ron"),
    ),
    (
        "size_ratio_1000",
        include_str!("../../scenes/size_ratio_1000.ron"),
    ),
    (
        "sweep_capsule_into_box",
        include_str!("../../scenes/sweep_capsule_into_box.ron"),
    ),
    (
        "sweep_circle_corner",
        include_str!("../../scenes/sweep_circle_corner.ron"),
    ),
    (
        "sweep_collinear_segments",
        include_str!("../../scenes/sweep_collinear_segments.ron"),
    ),
    ("sweep_hit", include_str!("../../scenes/sweep_hit.ron")),
    (
        "sweep_initially_overlapping",
        include_str!("../../scenes/sweep_initially_overlapping.ron"),
    ),
    ("sweep_miss", include_str!("../../scenes/sweep_miss.ron")),
    (
        "sweep_points",
        include_str!("../../scenes/sweep_points.ron"),
    ),
    (
        "sweep_tunnelling",
        include_str!("../../scenes/sweep_tunnelling.ron"),
    ),
    (
        "sweep_zero_relative_velocity",
        include_str!("../../scenes/sweep_zero_relative_velocity.ron"),
    ),
    ("thin_sliver", include_str!("../../scenes/thin_sliver.ron")),
    (
        "vertex_on_edge",
        include_str!("../../scenes/vertex_on_edge.ron"),
    ),
    (
        "vertex_vertex_touching",
        include_str!("../../scenes/vertex_vertex_touching.ron"),
    ),
];

/// The scene the window opens on without a file.
pub fn welcome() -> &'static str {
    find("welcome").expect("the welcome scene is compiled in")
}

pub fn find(name: &str) -> Option<&'static str> {
    EXAMPLES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::parse_scene;

    #[test]
    fn every_example_parses() {
        for (name, text) in EXAMPLES {
            if let Err(e) = parse_scene(text, name) {
                panic!("example {name} does not load: {e}");
            }
        }
    }

    /// Every `.ron` under `scenes/` (sub-folders too, named `folder/name`).
    fn scene_names(dir: &std::path::Path, prefix: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("scenes/ exists") {
            let path = entry.unwrap().path();
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            // scenes/3d/ holds 3D scenes, which the 2D window does not open (yet).
            if path.is_dir() && stem != "3d" {
                scene_names(&path, &format!("{prefix}{stem}/"), out);
            } else if path.extension().is_some_and(|e| e == "ron") {
                out.push(format!("{prefix}{stem}"));
            }
        }
    }

    #[test]
    fn every_scene_file_is_listed() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
        let mut names = Vec::new();
        scene_names(&dir, "", &mut names);
        let mut missing: Vec<_> = names.into_iter().filter(|n| find(n).is_none()).collect();
        missing.sort();
        assert!(
            missing.is_empty(),
            "scenes missing from EXAMPLES in src/app/examples.rs: {missing:?}"
        );
    }
}
