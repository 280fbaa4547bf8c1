//! The example scenes, compiled into the binary so that File > Examples works wherever the
//! binary runs, grouped by topic for the menu. Every `.ron` file in `scenes/` (and
//! `scenes/3d/`) must be listed here with its topic (a test checks it); the menu shows each
//! under its scene's title.

use crate::scene::{parse_any_scene, LoadedScene};
use std::sync::OnceLock;

/// What an example teaches: the Examples menu's groups, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Topic {
    Start,
    Gjk,
    Epa,
    Sat,
    Clip,
    Sweep,
    Round,
    Touching,
    Scale,
    ThreeD,
}

impl Topic {
    pub const ALL: [Topic; 10] = [
        Topic::Start,
        Topic::Gjk,
        Topic::Epa,
        Topic::Sat,
        Topic::Clip,
        Topic::Sweep,
        Topic::Round,
        Topic::Touching,
        Topic::Scale,
        Topic::ThreeD,
    ];

    /// The group's name in the menu.
    pub const fn heading(self) -> &'static str {
        match self {
            Topic::Start => "Start here",
            Topic::Gjk => "GJK and the Minkowski difference",
            Topic::Epa => "EPA: penetration depth",
            Topic::Sat => "SAT: separating axes",
            Topic::Clip => "Contact manifolds (clipping)",
            Topic::Sweep => "Swept SAT: time of first contact",
            Topic::Round => "Circles, capsules and segments",
            Topic::Touching => "Touching and degenerate contacts",
            Topic::Scale => "Scale and precision",
            Topic::ThreeD => "3D: polyhedra, spheres and capsules",
        }
    }
}

/// One example: its name (the file name without `.ron`; `3d/` for the 3D ones), topic and
/// text.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    pub name: &'static str,
    pub topic: Topic,
    pub text: &'static str,
}

const fn example(name: &'static str, topic: Topic, text: &'static str) -> Example {
    Example { name, topic, text }
}

/// Every example, by topic.
pub const EXAMPLES: &[Example] = &[
    example(
        "welcome",
        Topic::Start,
        include_str!("../../scenes/welcome.ron"),
    ),
    example(
        "minkowski_triangle_box",
        Topic::Gjk,
        include_str!("../../scenes/minkowski_triangle_box.ron"),
    ),
    example(
        "gjk_separated",
        Topic::Gjk,
        include_str!("../../scenes/gjk_separated.ron"),
    ),
    example(
        "gjk_overlapping",
        Topic::Gjk,
        include_str!("../../scenes/gjk_overlapping.ron"),
    ),
    example(
        "rotated_boxes_distance",
        Topic::Gjk,
        include_str!("../../scenes/rotated_boxes_distance.ron"),
    ),
    example(
        "epa_expansion",
        Topic::Epa,
        include_str!("../../scenes/epa_expansion.ron"),
    ),
    example(
        "sat_separated",
        Topic::Sat,
        include_str!("../../scenes/sat_separated.ron"),
    ),
    example(
        "sat_overlapping",
        Topic::Sat,
        include_str!("../../scenes/sat_overlapping.ron"),
    ),
    example(
        "sat_tie",
        Topic::Sat,
        include_str!("../../scenes/sat_tie.ron"),
    ),
    example(
        "twelve_gon_wheel",
        Topic::Sat,
        include_str!("../../scenes/twelve_gon_wheel.ron"),
    ),
    example(
        "clip_two_points",
        Topic::Clip,
        include_str!("../../scenes/clip_two_points.ron"),
    ),
    example(
        "clip_one_point",
        Topic::Clip,
        include_str!("../../scenes/clip_one_point.ron"),
    ),
    example(
        "clip_reference_flip",
        Topic::Clip,
        include_str!("../../scenes/clip_reference_flip.ron"),
    ),
    example(
        "sweep_hit",
        Topic::Sweep,
        include_str!("../../scenes/sweep_hit.ron"),
    ),
    example(
        "sweep_miss",
        Topic::Sweep,
        include_str!("../../scenes/sweep_miss.ron"),
    ),
    example(
        "sweep_tunnelling",
        Topic::Sweep,
        include_str!("../../scenes/sweep_tunnelling.ron"),
    ),
    example(
        "sweep_capsule_into_box",
        Topic::Sweep,
        include_str!("../../scenes/sweep_capsule_into_box.ron"),
    ),
    example(
        "sweep_circle_corner",
        Topic::Sweep,
        include_str!("../../scenes/sweep_circle_corner.ron"),
    ),
    example(
        "sweep_initially_overlapping",
        Topic::Sweep,
        include_str!("../../scenes/sweep_initially_overlapping.ron"),
    ),
    example(
        "sweep_zero_relative_velocity",
        Topic::Sweep,
        include_str!("../../scenes/sweep_zero_relative_velocity.ron"),
    ),
    example(
        "sweep_collinear_segments",
        Topic::Sweep,
        include_str!("../../scenes/sweep_collinear_segments.ron"),
    ),
    example(
        "sweep_points",
        Topic::Sweep,
        include_str!("../../scenes/sweep_points.ron"),
    ),
    example(
        "circles_overlapping",
        Topic::Round,
        include_str!("../../scenes/circles_overlapping.ron"),
    ),
    example(
        "circle_inside_box",
        Topic::Round,
        include_str!("../../scenes/circle_inside_box.ron"),
    ),
    example(
        "capsule_cross",
        Topic::Round,
        include_str!("../../scenes/capsule_cross.ron"),
    ),
    example(
        "capsule_end_circle",
        Topic::Round,
        include_str!("../../scenes/capsule_end_circle.ron"),
    ),
    example(
        "segment_vs_circle",
        Topic::Round,
        include_str!("../../scenes/segment_vs_circle.ron"),
    ),
    example(
        "segment_vs_polygon",
        Topic::Round,
        include_str!("../../scenes/segment_vs_polygon.ron"),
    ),
    example(
        "capsule_parallel_edge",
        Topic::Round,
        include_str!("../../scenes/capsule_parallel_edge.ron"),
    ),
    example(
        "circle_at_vertex",
        Topic::Round,
        include_str!("../../scenes/circle_at_vertex.ron"),
    ),
    example(
        "concentric_circles",
        Topic::Round,
        include_str!("../../scenes/concentric_circles.ron"),
    ),
    example(
        "edge_touching",
        Topic::Touching,
        include_str!("../../scenes/edge_touching.ron"),
    ),
    example(
        "vertex_on_edge",
        Topic::Touching,
        include_str!("../../scenes/vertex_on_edge.ron"),
    ),
    example(
        "vertex_vertex_touching",
        Topic::Touching,
        include_str!("../../scenes/vertex_vertex_touching.ron"),
    ),
    example(
        "identical_coincident",
        Topic::Touching,
        include_str!("../../scenes/identical_coincident.ron"),
    ),
    example(
        "polygon_inside",
        Topic::Touching,
        include_str!("../../scenes/polygon_inside.ron"),
    ),
    example(
        "collinear_duplicate_vertices",
        Topic::Touching,
        include_str!("../../scenes/collinear_duplicate_vertices.ron"),
    ),
    example(
        "thin_sliver",
        Topic::Touching,
        include_str!("../../scenes/thin_sliver.ron"),
    ),
    example(
        "far_coordinates",
        Topic::Scale,
        include_str!("../../scenes/far_coordinates.ron"),
    ),
    example(
        "size_ratio_1000",
        Topic::Scale,
        include_str!("../../scenes/size_ratio_1000.ron"),
    ),
    example(
        "arena_128",
        Topic::Scale,
        include_str!("../../scenes/arena_128.ron"),
    ),
    example(
        "polygon_256",
        Topic::Scale,
        include_str!("../../scenes/polygon_256.ron"),
    ),
    example(
        "3d/welcome",
        Topic::ThreeD,
        include_str!("../../scenes/3d/welcome.ron"),
    ),
    example(
        "3d/coincident_hulls",
        Topic::ThreeD,
        include_str!("../../scenes/3d/coincident_hulls.ron"),
    ),
    example(
        "3d/edge_edge_crossed_ridges",
        Topic::ThreeD,
        include_str!("../../scenes/3d/edge_edge_crossed_ridges.ron"),
    ),
    example(
        "3d/edge_edge_separated",
        Topic::ThreeD,
        include_str!("../../scenes/3d/edge_edge_separated.ron"),
    ),
    example(
        "3d/edge_face_tilted_cube",
        Topic::ThreeD,
        include_str!("../../scenes/3d/edge_face_tilted_cube.ron"),
    ),
    example(
        "3d/epa_several_expansions",
        Topic::ThreeD,
        include_str!("../../scenes/3d/epa_several_expansions.ron"),
    ),
    example(
        "3d/face_face_box_on_slab",
        Topic::ThreeD,
        include_str!("../../scenes/3d/face_face_box_on_slab.ron"),
    ),
    example(
        "3d/face_face_clip_eight",
        Topic::ThreeD,
        include_str!("../../scenes/3d/face_face_clip_eight.ron"),
    ),
    example(
        "3d/far_coordinates",
        Topic::ThreeD,
        include_str!("../../scenes/3d/far_coordinates.ron"),
    ),
    example(
        "3d/gjk_separated_boxes",
        Topic::ThreeD,
        include_str!("../../scenes/3d/gjk_separated_boxes.ron"),
    ),
    example(
        "3d/gjk_touching_boxes",
        Topic::ThreeD,
        include_str!("../../scenes/3d/gjk_touching_boxes.ron"),
    ),
    example(
        "3d/gjk_two_point_simplex",
        Topic::ThreeD,
        include_str!("../../scenes/3d/gjk_two_point_simplex.ron"),
    ),
    example(
        "3d/nearly_parallel_edges",
        Topic::ThreeD,
        include_str!("../../scenes/3d/nearly_parallel_edges.ron"),
    ),
    example(
        "3d/parallel_edges",
        Topic::ThreeD,
        include_str!("../../scenes/3d/parallel_edges.ron"),
    ),
    example(
        "3d/round_capsule_across_box_edge",
        Topic::ThreeD,
        include_str!("../../scenes/3d/round_capsule_across_box_edge.ron"),
    ),
    example(
        "3d/round_capsule_lying_on_box",
        Topic::ThreeD,
        include_str!("../../scenes/3d/round_capsule_lying_on_box.ron"),
    ),
    example(
        "3d/round_capsule_over_box_side",
        Topic::ThreeD,
        include_str!("../../scenes/3d/round_capsule_over_box_side.ron"),
    ),
    example(
        "3d/round_capsules_crossing",
        Topic::ThreeD,
        include_str!("../../scenes/3d/round_capsules_crossing.ron"),
    ),
    example(
        "3d/round_sphere_near_box_corner",
        Topic::ThreeD,
        include_str!("../../scenes/3d/round_sphere_near_box_corner.ron"),
    ),
    example(
        "3d/round_sphere_on_box_face",
        Topic::ThreeD,
        include_str!("../../scenes/3d/round_sphere_on_box_face.ron"),
    ),
    example(
        "3d/round_spheres",
        Topic::ThreeD,
        include_str!("../../scenes/3d/round_spheres.ron"),
    ),
    example(
        "3d/round_sweep_capsule_past_box_edge",
        Topic::ThreeD,
        include_str!("../../scenes/3d/round_sweep_capsule_past_box_edge.ron"),
    ),
    example(
        "3d/round_sweep_capsules_crossing",
        Topic::ThreeD,
        include_str!("../../scenes/3d/round_sweep_capsules_crossing.ron"),
    ),
    example(
        "3d/round_sweep_sphere_onto_box_face",
        Topic::ThreeD,
        include_str!("../../scenes/3d/round_sweep_sphere_onto_box_face.ron"),
    ),
    example(
        "3d/size_ratio_2000",
        Topic::ThreeD,
        include_str!("../../scenes/3d/size_ratio_2000.ron"),
    ),
    example(
        "3d/sweep_hit",
        Topic::ThreeD,
        include_str!("../../scenes/3d/sweep_hit.ron"),
    ),
    example(
        "3d/sweep_miss",
        Topic::ThreeD,
        include_str!("../../scenes/3d/sweep_miss.ron"),
    ),
    example(
        "3d/sweep_tunnelling",
        Topic::ThreeD,
        include_str!("../../scenes/3d/sweep_tunnelling.ron"),
    ),
    example(
        "3d/tie_sat_face_epa_normal",
        Topic::ThreeD,
        include_str!("../../scenes/3d/tie_sat_face_epa_normal.ron"),
    ),
    example(
        "3d/touching_exact",
        Topic::ThreeD,
        include_str!("../../scenes/3d/touching_exact.ron"),
    ),
    example(
        "3d/vertex_face_pyramid",
        Topic::ThreeD,
        include_str!("../../scenes/3d/vertex_face_pyramid.ron"),
    ),
];

/// The scene the window opens on without a file.
pub fn welcome() -> &'static str {
    find("welcome").expect("the welcome scene is compiled in")
}

/// An example's text, or a lesson's (named `lessons/...`, see [`super::lessons`]).
pub fn find(name: &str) -> Option<&'static str> {
    EXAMPLES
        .iter()
        .find(|e| e.name == name)
        .map(|e| e.text)
        .or_else(|| super::lessons::find(name))
}

/// An example as the menu lists it: its name and its scene's title.
#[derive(Clone, Debug, PartialEq)]
pub struct MenuEntry {
    pub name: &'static str,
    pub title: &'static str,
}

/// The examples grouped by topic in menu order, each under its scene's title (the name
/// when it has none). The scenes are read once.
pub fn by_topic() -> &'static [(Topic, Vec<MenuEntry>)] {
    static GROUPS: OnceLock<Vec<(Topic, Vec<MenuEntry>)>> = OnceLock::new();
    GROUPS.get_or_init(|| {
        Topic::ALL
            .iter()
            .map(|&topic| {
                let entries = EXAMPLES
                    .iter()
                    .filter(|e| e.topic == topic)
                    .map(|e| MenuEntry {
                        name: e.name,
                        title: title_of(e),
                    })
                    .collect();
                (topic, entries)
            })
            .filter(|(_, entries): &(Topic, Vec<MenuEntry>)| !entries.is_empty())
            .collect()
    })
}

/// The scene's title, leaked once per example (the menu keeps them for the program's life).
fn title_of(e: &Example) -> &'static str {
    let title = match parse_any_scene(e.text, e.name) {
        Ok(LoadedScene::Two(scene, _)) => scene.title,
        Ok(LoadedScene::Three(scene, _)) => scene.title,
        Err(_) => None,
    };
    match title {
        Some(t) if !t.trim().is_empty() => Box::leak(t.into_boxed_str()),
        _ => e.name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::parse_scene;

    #[test]
    fn every_example_parses_and_the_3d_ones_are_3d() {
        for e in EXAMPLES {
            match parse_any_scene(e.text, e.name) {
                Ok(LoadedScene::Three(..)) => assert_eq!(e.topic, Topic::ThreeD, "{}", e.name),
                Ok(LoadedScene::Two(..)) => assert!(parse_scene(e.text, e.name).is_ok()),
                Err(err) => panic!("example {} does not load: {err}", e.name),
            }
        }
    }

    /// Every `.ron` under `scenes/` (sub-folders too, named `folder/name`).
    fn scene_names(dir: &std::path::Path, prefix: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("scenes/ exists") {
            let path = entry.unwrap().path();
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                scene_names(&path, &format!("{prefix}{stem}/"), out);
            } else if path.extension().is_some_and(|e| e == "ron") {
                out.push(format!("{prefix}{stem}"));
            }
        }
    }

    #[test]
    fn every_scene_file_is_listed_once_with_a_topic() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
        let mut names = Vec::new();
        scene_names(&dir, "", &mut names);
        // The lessons are listed in `lessons.rs` (Help > Lessons), which checks its own.
        names.retain(|n| !n.starts_with("lessons/"));
        let mut missing: Vec<_> = names.iter().filter(|n| find(n).is_none()).collect();
        missing.sort();
        assert!(
            missing.is_empty(),
            "scenes missing from EXAMPLES in src/app/examples.rs: {missing:?}"
        );
        assert_eq!(EXAMPLES.len(), names.len(), "an example listed twice");
        // 3D scenes (and only they) are in the 3D group.
        for e in EXAMPLES {
            assert_eq!(
                e.name.starts_with("3d/"),
                e.topic == Topic::ThreeD,
                "{}",
                e.name
            );
        }
    }

    #[test]
    fn the_menu_groups_examples_by_topic_under_their_titles() {
        let groups = by_topic();
        let topics: Vec<Topic> = groups.iter().map(|(t, _)| *t).collect();
        assert_eq!(
            topics,
            Topic::ALL,
            "every topic has examples, in menu order"
        );
        assert_eq!(groups[0].1[0].title, "Welcome to collision-lab");
        let sweep = &groups.iter().find(|(t, _)| *t == Topic::Sweep).unwrap().1;
        assert!(sweep.iter().any(|e| e.name == "sweep_tunnelling"
            && e.title == "Swept SAT: a bullet tunnels through a thin wall"));
        let three = &groups.last().unwrap().1;
        assert_eq!(three[0].name, "3d/welcome");
        assert!(three.iter().all(|e| e.name.starts_with("3d/")));
        // Every example has a real title, not its file name.
        for (_, entries) in groups {
            for e in entries {
                assert_ne!(e.title, e.name, "{} has no title", e.name);
            }
        }
        let listed: usize = groups.iter().map(|(_, e)| e.len()).sum();
        assert_eq!(listed, EXAMPLES.len());
    }
}
