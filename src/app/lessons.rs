//! The course of Help > Lessons: the scenes in `scenes/lessons/`, compiled into the binary
//! like the examples, in course order. A lesson opens through the examples' path
//! ([`super::examples::find`] finds them too, named `lessons/NN_name`); its scene's `lesson`
//! entry carries the question, the answer, the step to open on and the exercise, and
//! [`LessonPanel`] is what the Notes panel remembers of it (the answer shown, the exercise
//! found).

use crate::scene::{parse_any_scene, Answers, Lesson, LoadedScene};
use std::sync::OnceLock;

/// One lesson's file: its name (`lessons/` and the file name without `.ron`) and text.
#[derive(Clone, Copy, Debug)]
pub struct LessonFile {
    pub name: &'static str,
    pub text: &'static str,
}

macro_rules! lesson {
    ($file:literal) => {
        LessonFile {
            name: concat!("lessons/", $file),
            text: include_str!(concat!("../../scenes/lessons/", $file, ".ron")),
        }
    };
}

/// Every lesson, in course order (lesson k is `LESSONS[k - 1]`; a test checks it).
pub const LESSONS: &[LessonFile] = &[
    lesson!("01_support_and_difference"),
    lesson!("02_gjk_boolean"),
    lesson!("03_gjk_distance"),
    lesson!("04_epa"),
    lesson!("05_sat_2d"),
    lesson!("06_clipping"),
    lesson!("07_swept_sat"),
    lesson!("08_sat_3d_edges"),
    lesson!("09_contacts_3d"),
    lesson!("10_degenerate_cases"),
];

pub fn find(name: &str) -> Option<&'static str> {
    LESSONS.iter().find(|l| l.name == name).map(|l| l.text)
}

/// The name of lesson `number` (from 1), `None` past either end of the course.
pub fn name_of(number: u32) -> Option<&'static str> {
    let k = (number as usize).checked_sub(1)?;
    LESSONS.get(k).map(|l| l.name)
}

/// The lesson `delta` places after lesson `number` (before it when negative).
pub fn neighbour(number: u32, delta: i32) -> Option<&'static str> {
    name_of(number.checked_add_signed(delta)?)
}

/// The Help menu's entries: each lesson's name and its scene's title, read once.
pub fn titles() -> &'static [(&'static str, String)] {
    static TITLES: OnceLock<Vec<(&'static str, String)>> = OnceLock::new();
    TITLES.get_or_init(|| {
        LESSONS
            .iter()
            .map(|l| {
                let title = match parse_any_scene(l.text, l.name) {
                    Ok(LoadedScene::Two(scene, _)) => scene.title,
                    Ok(LoadedScene::Three(scene, _)) => scene.title,
                    Err(_) => None,
                };
                (l.name, title.unwrap_or_else(|| l.name.to_string()))
            })
            .collect()
    })
}

/// Text from a scene file, which may be wrapped and indented there, as one paragraph.
pub fn paragraph(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What the Notes panel remembers of the open lesson: whether its answer is shown and
/// whether its exercise's goal has been met since it opened.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LessonPanel {
    /// The lesson these belong to; another lesson (or none) starts afresh.
    number: Option<u32>,
    pub answer_shown: bool,
    /// The goal was met at some point since the lesson opened.
    pub found: bool,
    /// The goal is met now.
    pub met: bool,
}

impl LessonPanel {
    /// Follows the open document's lesson and its focused pair's answers (once a frame);
    /// true on the frame the exercise is first found.
    pub fn follow(&mut self, lesson: Option<&Lesson>, answers: Option<&Answers>) -> bool {
        let number = lesson.map(|l| l.number);
        if number != self.number {
            *self = LessonPanel {
                number,
                ..LessonPanel::default()
            };
        }
        let goal = lesson.and_then(|l| l.exercise.as_ref()).map(|e| &e.goal);
        self.met = matches!((goal, answers), (Some(g), Some(a)) if g.met(a));
        let first = self.met && !self.found;
        self.found |= self.met;
        first
    }

    /// For the window tests.
    pub fn test_json(&self) -> serde_json::Value {
        serde_json::json!({
            "number": self.number,
            "answer_shown": self.answer_shown,
            "found": self.found,
            "met": self.met,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::pair::{query_pair, PairSettings};
    use crate::scene::parse_scene;

    #[test]
    fn every_lesson_file_is_listed_in_course_order() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lessons");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .map(|p| format!("lessons/{}", p.file_stem().unwrap().to_string_lossy()))
            .collect();
        files.sort();
        let listed: Vec<String> = LESSONS.iter().map(|l| l.name.to_string()).collect();
        assert_eq!(listed, files);
        for (k, l) in LESSONS.iter().enumerate() {
            let number = match parse_any_scene(l.text, l.name).unwrap() {
                LoadedScene::Two(s, _) => s.lesson.unwrap().number,
                LoadedScene::Three(s, _) => s.lesson.unwrap().number,
            };
            assert_eq!(number as usize, k + 1, "{}", l.name);
            assert_eq!(name_of(number), Some(l.name));
        }
    }

    #[test]
    fn next_and_previous_stop_at_the_ends_of_the_course() {
        assert_eq!(neighbour(1, 1), Some("lessons/02_gjk_boolean"));
        assert_eq!(neighbour(2, -1), Some("lessons/01_support_and_difference"));
        assert_eq!(neighbour(1, -1), None);
        assert_eq!(neighbour(10, 1), None);
        assert!(titles()[0].1.starts_with("Lesson 1: "));
    }

    /// Lesson 4's answers with B at `position`.
    fn lesson4(position: glam::Vec2) -> (Lesson, Answers) {
        let (scene, mut bodies) = parse_scene(find("lessons/04_epa").unwrap(), "04").unwrap();
        bodies[1].pose.position = position;
        let q = query_pair(
            &bodies[0].body_ref(),
            &bodies[1].body_ref(),
            &PairSettings::default(),
        );
        (scene.lesson.unwrap(), Answers::from_query(&q, 1.0))
    }

    #[test]
    fn the_panel_remembers_a_found_goal_until_another_lesson_opens() {
        let mut panel = LessonPanel::default();
        let (lesson, start) = lesson4(glam::Vec2::new(1.6, 1.3));
        assert!(!panel.follow(Some(&lesson), Some(&start)));
        assert!(!panel.met && !panel.found);
        panel.answer_shown = true;
        // Corner on corner: SAT and EPA break the tie differently (the lesson's solution).
        let (_, corner) = lesson4(glam::Vec2::new(2.0, 2.0));
        assert!(panel.follow(Some(&lesson), Some(&corner)), "first found");
        assert!(panel.met && panel.found && panel.answer_shown);
        assert!(!panel.follow(Some(&lesson), Some(&corner)), "said once");
        panel.follow(Some(&lesson), Some(&start));
        assert!(!panel.met && panel.found, "found stays once met");
        let mut other = lesson.clone();
        other.number = 5;
        panel.follow(Some(&other), Some(&start));
        assert!(!panel.found && !panel.answer_shown);
    }
}
