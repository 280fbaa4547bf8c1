//! The example scenes, compiled into the binary so that File > Examples works wherever the
//! binary runs. Every `.ron` file in `scenes/` must be listed here (a test checks it).

/// Each example as (name, file text).
pub const EXAMPLES: &[(&str, &str)] = &[("welcome", include_str!("../../scenes/welcome.ron"))];

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

    #[test]
    fn every_scene_file_is_listed() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
        let mut missing = Vec::new();
        for entry in std::fs::read_dir(&dir).expect("scenes/ exists") {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "ron") {
                let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
                if find(&stem).is_none() {
                    missing.push(stem);
                }
            }
        }
        missing.sort();
        assert!(
            missing.is_empty(),
            "scenes missing from EXAMPLES in src/app/examples.rs: {missing:?}"
        );
    }
}
