//! `collision-lab link` and `open-link`: a scene file to its share link and back, with the
//! codec of `scene::link` (the same one the browser build uses). Both check the scene the
//! way every loader does, so a link is only made from, and only written as, a valid scene.

use super::{LinkArgs, OpenLinkArgs};
use crate::scene::link::{check_shareable, link_for, scene_from_link};
use crate::scene::{parse_any_scene, read_scene_text, write_atomic, LoadedScene};

/// Prints the link for the file's exact text, once the text has loaded as a scene.
pub fn run_link(args: &LinkArgs) -> u8 {
    let (file, text) = match read_scene_text(&args.scene) {
        Ok(read) => read,
        Err(e) => return report(e),
    };
    if let Err(e) = parse_any_scene(&text, &file) {
        return report(e);
    }
    if let Err(e) = check_shareable(&text) {
        return report(format!("{file}: {e}"));
    }
    println!("{}", link_for(&args.base, &text));
    0
}

/// Writes the scene in a link to `--out` (atomically) or to standard output, once it has
/// decoded and loaded as a scene; nothing is written otherwise.
pub fn run_open_link(args: &OpenLinkArgs) -> u8 {
    let (text, scene) = match scene_from_link(&args.link) {
        Ok(opened) => opened,
        Err(e) => return report(e),
    };
    let Some(out) = &args.out else {
        print!("{text}");
        return 0;
    };
    if let Err(e) = write_atomic(out, text.as_bytes()) {
        return report(format!("cannot write {}: {e}", out.display()));
    }
    eprintln!("wrote {} ({})", out.display(), describe(&scene));
    0
}

/// "2D scene, 4 bodies".
fn describe(scene: &LoadedScene) -> String {
    let (dimensions, bodies) = match scene {
        LoadedScene::Two(_, bodies) => ("2D", bodies.len()),
        LoadedScene::Three(_, bodies) => ("3D", bodies.len()),
    };
    let plural = if bodies == 1 { "body" } else { "bodies" };
    format!("{dimensions} scene, {bodies} {plural}")
}

fn report(e: impl std::fmt::Display) -> u8 {
    eprintln!("error: {e}");
    2
}
