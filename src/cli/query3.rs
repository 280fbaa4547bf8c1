//! `collision-lab query` on a 3D scene: GJK, EPA, SAT, the contact manifold and the sweep
//! for each pair, as text or JSON (`"dimensions": 3` at the top). Same conventions as 2D: world
//! coordinates, the normal points from a toward b, moving b by depth * normal leaves them
//! touching.

use super::format::{fmt_num, num};
use super::pairs::select_pairs;
use crate::geom3::{Core3, Shape3};
use crate::query3::pair::{query_pair3, PairQuery3};
use crate::query3::sat::AxisId;
use crate::query3::sweep::Status as SweepStatus;
use crate::query3::{epa, gjk, manifold};
use crate::scene::{
    load_any_scene_file, settings_for_scene3, LoadedScene, Scene3, SceneBody3, DIMENSIONS_3D,
};
use glam::Vec3;
use serde_json::{json, Value};
use std::path::Path;

/// Runs `query` when `path` is a 3D scene and returns its exit status; `None` for a 2D
/// scene (or a file the 2D path will report).
pub fn run_query3_if_3d(path: &Path, pair: Option<&[String]>, as_json: bool) -> Option<u8> {
    let (scene, bodies) = match load_3d(path)? {
        Ok(loaded) => loaded,
        Err(code) => return Some(code),
    };
    let pairs = match select_pairs(path, bodies.iter().map(|b| b.name.as_str()), pair) {
        Ok(p) => p,
        Err(code) => return Some(code),
    };
    let settings = settings_for_scene3(&scene);
    let results: Vec<(usize, usize, PairQuery3)> = pairs
        .into_iter()
        .map(|(i, j)| {
            let q = query_pair3(&bodies[i].body_ref(), &bodies[j].body_ref(), &settings);
            (i, j, q)
        })
        .collect();
    if as_json {
        let pairs: Vec<Value> = results
            .iter()
            .map(|(i, j, q)| pair_json3(&bodies[*i], &bodies[*j], q))
            .collect();
        let out = json!({
            "dimensions": DIMENSIONS_3D,
            "scene": scene.title.clone().unwrap_or_else(|| path.display().to_string()),
            "file": path.display().to_string(),
            "pairs": pairs,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&out).expect("JSON values always print")
        );
    } else {
        if let Some(title) = &scene.title {
            println!("{title}");
        }
        for (i, j, q) in &results {
            print!("{}", pair_text3(&bodies[*i], &bodies[*j], q));
        }
    }
    Some(0)
}

/// `None` for a 2D file; `Some(Err(2))` after printing the error of a bad 3D file.
pub(super) fn load_3d(path: &Path) -> Option<Result<(Scene3, Vec<SceneBody3>), u8>> {
    match load_any_scene_file(path) {
        Ok(LoadedScene::Three(scene, bodies)) => Some(Ok((scene, bodies))),
        Ok(LoadedScene::Two(..)) => None,
        Err(e) if is_3d_file(path) => {
            eprintln!("error: {e}");
            Some(Err(2))
        }
        Err(_) => None,
    }
}

/// Whether the file declares `dimensions: 3` (read again only after an error).
fn is_3d_file(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| {
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        crate::scene::scene_dimensions(text).is_some_and(|(d, _)| d == DIMENSIONS_3D)
    })
}

pub(super) fn vec3_json(v: Vec3) -> Value {
    json!([num(v.x), num(v.y), num(v.z)])
}

pub(super) fn fmt_vec3(v: Vec3) -> String {
    crate::text::readable_vector(&[v.x, v.y, v.z])
}

/// The axis as JSON: `{"kind": "face_a" | "face_b" | "edges", "index": i or [i, j]}`.
fn axis_json(axis: &AxisId) -> Value {
    let index = match *axis {
        AxisId::FaceA(i) | AxisId::FaceB(i) => json!(i),
        AxisId::Edges(i, j) => json!([i, j]),
        AxisId::Closest => Value::Null,
    };
    json!({ "kind": axis.kind_key(), "index": index })
}

/// The axis in words: `face 3 of slab`, `edge 2 of A x edge 5 of B`.
pub(super) fn axis_words(axis: &AxisId, a: &str, b: &str) -> String {
    match *axis {
        AxisId::FaceA(i) => format!("face {i} of {a}"),
        AxisId::FaceB(i) => format!("face {i} of {b}"),
        AxisId::Edges(i, j) => format!("edge {i} of {a} x edge {j} of {b}"),
        AxisId::Closest => format!("the closest points of {a}'s and {b}'s cores"),
    }
}

pub(super) fn pair_json3(a: &SceneBody3, b: &SceneBody3, q: &PairQuery3) -> Value {
    let s = &q.sat;
    let sat = json!({
        "intersecting": s.intersecting,
        "depth": if s.intersecting { num(s.depth) } else { Value::Null },
        "separation": if s.intersecting { Value::Null } else { num(s.separation) },
        "normal": vec3_json(s.normal),
        "axis": axis_json(&s.axis),
        "axes_tested": s.axes_tested,
        "axes_pruned": s.axes_pruned,
    });
    let sweep = q.sweep.as_ref().map_or(Value::Null, |w| {
        json!({
            "hit": w.hit,
            "t_first": w.t_first.map_or(Value::Null, num),
            "t_last": w.t_last.map_or(Value::Null, num),
            "normal": if w.hit { vec3_json(w.normal) } else { Value::Null },
            "status": w.status.key(),
        })
    });
    json!({
        "a": a.name, "b": b.name,
        "intersecting": q.intersecting,
        "gjk": gjk_json3(&q.gjk),
        "epa": q.epa.as_ref().map_or(Value::Null, epa_json3),
        "sat": sat,
        "manifold": q.manifold.as_ref().map_or(Value::Null, manifold_json3),
        "sweep": sweep,
    })
}

/// `{"intersecting", "distance", "closest_a", "closest_b", "iterations", "status"}`; the
/// closest points are null when the bodies intersect (and the distance when not finite).
fn gjk_json3(g: &gjk::Output) -> Value {
    json!({
        "intersecting": g.intersecting,
        "distance": num(g.distance),
        "closest_a": g.closest_a.map_or(Value::Null, vec3_json),
        "closest_b": g.closest_b.map_or(Value::Null, vec3_json),
        "iterations": g.iterations,
        "status": g.status.key(),
    })
}

/// `{"depth", "normal", "point_a", "point_b", "iterations", "status"}`.
fn epa_json3(e: &epa::Output) -> Value {
    json!({
        "depth": num(e.depth),
        "normal": vec3_json(e.normal),
        "point_a": vec3_json(e.point_a),
        "point_b": vec3_json(e.point_b),
        "iterations": e.iterations,
        "status": e.status.key(),
    })
}

fn manifold_json3(m: &manifold::Output) -> Value {
    let points: Vec<Value> = m
        .points
        .iter()
        .map(|c| json!({ "point": vec3_json(c.point), "depth": num(c.depth), "id": c.id.to_array() }))
        .collect();
    json!({
        "normal": vec3_json(m.normal),
        "feature": m.feature.key(),
        "reference": m.reference.key(),
        "clipped": m.clipped,
        "points": points,
    })
}

fn pair_text3(a: &SceneBody3, b: &SceneBody3, q: &PairQuery3) -> String {
    let mut out = String::new();
    let verdict = if q.intersecting {
        "intersecting"
    } else {
        "separated"
    };
    out += &format!("\n{} vs {}: {verdict}\n", a.name, b.name);
    out += &gjk_epa_text3(a, b, q);
    let s = &q.sat;
    let amount = if s.intersecting {
        format!("depth {}", fmt_num(s.depth))
    } else {
        format!("separation {}", fmt_num(s.separation))
    };
    out += &format!(
        "  sat       {amount}  normal {}  axis {}  axes tested {}  pruned {}\n",
        fmt_vec3(s.normal),
        axis_words(&s.axis, &a.name, &b.name),
        s.axes_tested,
        s.axes_pruned
    );
    match &q.manifold {
        Some(m) => out += &manifold_text3(a, b, m, "manifold"),
        None => out += "  manifold  none (separated)\n",
    }
    if let Some(w) = &q.sweep {
        if w.hit {
            let capped = if w.status == SweepStatus::MaxIterations {
                "  (Newton step cap reached: the times bracket the contact)"
            } else {
                ""
            };
            out += &format!(
                "  sweep     hit  t_first {}  t_last {}  normal {}{capped}\n",
                fmt_num(w.t_first.unwrap_or(0.0)),
                fmt_num(w.t_last.unwrap_or(0.0)),
                fmt_vec3(w.normal)
            );
            if let Some(m) = &w.manifold {
                out += &manifold_text3(a, b, m, "at t_first");
            }
        } else {
            out += "  sweep     miss\n";
        }
    }
    out
}

/// The GJK and EPA lines of a pair's text.
fn gjk_epa_text3(a: &SceneBody3, b: &SceneBody3, q: &PairQuery3) -> String {
    let g = &q.gjk;
    let mut out = format!(
        "  gjk       distance {}  iterations {}  {}\n",
        fmt_num(g.distance),
        g.iterations,
        g.status.in_words()
    );
    if let (Some(ca), Some(cb)) = (g.closest_a, g.closest_b) {
        out += &format!(
            "            closest on {} {}  on {} {}\n",
            a.name,
            fmt_vec3(ca),
            b.name,
            fmt_vec3(cb)
        );
    }
    match &q.epa {
        Some(e) => {
            out += &format!(
                "  epa       depth {}  normal {}  iterations {}  {}\n",
                fmt_num(e.depth),
                fmt_vec3(e.normal),
                e.iterations,
                e.status.in_words()
            )
        }
        None => out += "  epa       not run (separated)\n",
    }
    out
}

fn manifold_text3(a: &SceneBody3, b: &SceneBody3, m: &manifold::Output, label: &str) -> String {
    let reference = match m.reference.key() {
        "a" => &a.name,
        _ => &b.name,
    };
    let mut out = format!(
        "  {label:<9} {}  normal {}  reference {reference}  clipped {}\n",
        m.feature.words(),
        fmt_vec3(m.normal),
        m.clipped
    );
    for c in m.points.iter() {
        let id: Vec<String> = c.id.to_array().iter().map(|k| k.to_string()).collect();
        out += &format!(
            "            point {}  depth {}  id [{}]\n",
            fmt_vec3(c.point),
            fmt_num(c.depth),
            id.join(", ")
        );
    }
    out
}

/// The shape in a few words for headers: `Cuboid (6 faces)`.
pub(super) fn shape_words(body: &SceneBody3) -> String {
    match &body.shape {
        Shape3::Polyhedron(shape) => format!("{}, {} faces", body.kind_name(), shape.face_count()),
        Shape3::Round(round) => match round.core() {
            Core3::Point => format!("{}, radius {}", body.kind_name(), fmt_num(round.radius())),
            Core3::Segment { half_length } => format!(
                "{}, half length {}, radius {}",
                body.kind_name(),
                fmt_num(half_length),
                fmt_num(round.radius())
            ),
        },
    }
}
