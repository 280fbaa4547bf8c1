//! Files the window writes on the desktop: where screenshots and slides go, and the slides'
//! folder made ready. Dialogs, recent files and watching are the platform's (`platform`).

use std::path::{Path, PathBuf};

/// Makes the folder (and its parents) and checks that a file can be written in it.
pub fn prepare_folder(dir: &Path) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write slides into {}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(fail)?;
    let probe = dir.join(format!(".collision-lab-{}.probe", std::process::id()));
    std::fs::write(&probe, b"").map_err(fail)?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// A file name for a screenshot that does not exist yet in `dir`.
pub fn screenshot_path(dir: &Path) -> PathBuf {
    (1..)
        .map(|k| dir.join(format!("collision-lab-{k:03}.png")))
        .find(|p| !p.exists())
        .expect("some name is free")
}

/// The folder screenshots go to: `COLLISION_LAB_SCREENSHOT_DIR`, else the current folder.
pub fn screenshot_dir() -> PathBuf {
    std::env::var_os("COLLISION_LAB_SCREENSHOT_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The folder File > Export slides writes into: `NAME-slides` beside the scene's file, or
/// in the screenshot folder for a scene not saved yet, named after `unsaved_name` (the
/// example's name, "untitled").
pub fn slides_folder(scene: Option<&Path>, unsaved_name: &str) -> PathBuf {
    folder_beside(scene, unsaved_name, "slides")
}

/// `NAME-WHAT` beside the scene's file, or in the screenshot folder for a scene not saved
/// yet (see [`slides_folder`]); the Scan window's sides go to `NAME-scan`.
pub fn folder_beside(scene: Option<&Path>, unsaved_name: &str, what: &str) -> PathBuf {
    let (dir, name) = match scene {
        Some(path) => (
            path.parent()
                .filter(|d| !d.as_os_str().is_empty())
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
            path.file_stem()
                .map_or_else(|| "scene".into(), |s| s.to_string_lossy().into_owned()),
        ),
        None => (screenshot_dir(), unsaved_name.to_string()),
    };
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    dir.join(format!("{name}-{what}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slides_go_beside_the_scene_or_into_the_screenshot_folder() {
        assert_eq!(
            slides_folder(Some(Path::new("/lessons/gjk.ron")), "gjk.ron"),
            PathBuf::from("/lessons/gjk-slides")
        );
        assert_eq!(
            slides_folder(Some(Path::new("gjk.ron")), "gjk"),
            PathBuf::from("./gjk-slides")
        );
        let example = slides_folder(None, "3d/welcome");
        assert_eq!(example, screenshot_dir().join("3d_welcome-slides"));
    }
}
