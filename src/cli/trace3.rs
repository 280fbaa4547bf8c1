//! `collision-lab trace` on a 3D scene: the recorded steps of GJK, EPA, SAT, the contact
//! manifold (`clip`) or the sweep, one block per step with its sentence, then a result
//! paragraph.

use super::format::fmt_num;
use super::pairs::select_traced_pair;
use super::query3::{axis_words, fmt_vec3, load_3d, shape_words};
use crate::query::Algorithm;
use crate::query3::epa::Status as EpaStatus;
use crate::query3::pair::{trace_pair3, PairQuery3, PairTrace3};
use crate::scene::{settings_for_scene3, SceneBody3};
use crate::text::wrap_columns as wrap;
use std::path::Path;

/// Text is wrapped to this many columns so a handout prints without overflowing (as 2D).
const WRAP_COLUMNS: usize = 88;

/// The algorithms a 3D scene can trace.
pub const ALGORITHMS_3D: [Algorithm; 5] = crate::query3::pair::PairTrace3::ALGORITHMS;

/// Runs `trace` when `path` is a 3D scene and returns its exit status; `None` for a 2D
/// scene. `algorithm` is the command line's key (`gjk`, `epa`, `sat`, `clip`, `sweep`).
pub fn run_trace3_if_3d(path: &Path, pair: Option<&[String]>, algorithm: &str) -> Option<u8> {
    let (scene, bodies) = match load_3d(path)? {
        Ok(loaded) => loaded,
        Err(code) => return Some(code),
    };
    let Some(algorithm) = Algorithm::from_key(algorithm).filter(|a| ALGORITHMS_3D.contains(a))
    else {
        eprintln!(
            "error: {}: --algorithm {algorithm} has no 3D version yet; a 3D scene traces {}",
            path.display(),
            ALGORITHMS_3D.map(Algorithm::key).join(", ")
        );
        return Some(2);
    };
    let names = bodies.iter().map(|b| b.name.as_str());
    let (i, j) = match select_traced_pair(path, names, pair, scene.focus_indices()) {
        Ok(pair) => pair,
        Err(code) => return Some(code),
    };
    let (a, b) = (&bodies[i], &bodies[j]);
    let settings = settings_for_scene3(&scene);
    let (q, t) = trace_pair3(&a.body_ref(), &b.body_ref(), &settings);
    let title = scene
        .title
        .clone()
        .unwrap_or_else(|| path.display().to_string());
    println!("{title}");
    println!(
        "{}: A is {} ({}), B is {} ({}); {}",
        path.display(),
        a.name,
        shape_words(a),
        b.name,
        shape_words(b),
        algorithm_name3(algorithm)
    );
    print!("{}", trace_text3(algorithm, a, b, &q, &t));
    Some(0)
}

fn algorithm_name3(algorithm: Algorithm) -> &'static str {
    match algorithm {
        Algorithm::Gjk => "GJK in 3D (the closest point of A - B to the origin)",
        Algorithm::Epa => "EPA in 3D (expanding a polytope inside A - B to its boundary)",
        Algorithm::Sat => "SAT in 3D (face normals and edge-edge cross products)",
        Algorithm::Clip => "the contact manifold (feature pairs and clipping)",
        Algorithm::Sweep => "swept SAT in 3D (time of first contact)",
        _ => "an algorithm with no 3D version",
    }
}

/// The steps of `algorithm` as blocks of wrapped text, then a result paragraph.
pub fn trace_text3(
    algorithm: Algorithm,
    a: &SceneBody3,
    b: &SceneBody3,
    q: &PairQuery3,
    t: &PairTrace3,
) -> String {
    let count = t.step_count(algorithm);
    let mut out = String::new();
    if count == 0 {
        out += "\n";
        out += &wrap(&no_steps3(algorithm, q), WRAP_COLUMNS);
    }
    for k in 0..count {
        out += &format!("\nStep {} of {count}\n", k + 1);
        out += &wrap(&t.sentence(algorithm, k), WRAP_COLUMNS);
    }
    out += "\nResult\n";
    out += &wrap(&result3(algorithm, a, b, q), WRAP_COLUMNS);
    out
}

/// Why an algorithm recorded nothing.
fn no_steps3(algorithm: Algorithm, q: &PairQuery3) -> String {
    match algorithm {
        Algorithm::Clip if q.manifold.is_none() => {
            "The manifold is not built: the bodies are apart, so there is no contact to describe."
                .into()
        }
        Algorithm::Epa if q.epa.is_some_and(|e| e.status == EpaStatus::CoresApart) => {
            "EPA does not expand: the cores (a sphere's centre, a capsule's segment, a polyhedron) are apart, closer than the radii, so the depth is the radii minus the cores' distance along GJK's direction.".into()
        }
        Algorithm::Epa
            if q.epa.is_some_and(|e| e.status == EpaStatus::Degenerate && e.iterations == 0) =>
        {
            "EPA does not expand: the difference of the cores has no volume (two round cores that meet: a point, a segment or a flat parallelogram), so the depth is the radii along the direction that separates the cores least.".into()
        }
        Algorithm::Epa if q.epa.is_none() => format!(
            "EPA does not run: GJK found the bodies {} apart, so there is no depth to find.",
            fmt_num(q.gjk.distance)
        ),
        Algorithm::Sweep if q.sweep.is_none() => {
            "The sweep does not run: neither body has a velocity in this scene.".into()
        }
        _ => "No steps were recorded.".into(),
    }
}

fn result3(algorithm: Algorithm, a: &SceneBody3, b: &SceneBody3, q: &PairQuery3) -> String {
    let s = &q.sat;
    match algorithm {
        Algorithm::Gjk | Algorithm::Epa => round_note3(a, b) + &gjk_epa_result3(algorithm, a, b, q),
        Algorithm::Sat if s.intersecting => format!(
            "Every axis overlaps, so {} and {} intersect. The smallest overlap, {}, is the depth, on {}; normal {} ({} axes tested, {} edge pairs skipped).",
            a.name,
            b.name,
            fmt_num(s.depth),
            axis_words(&s.axis, &a.name, &b.name),
            fmt_vec3(s.normal),
            s.axes_tested,
            s.axes_pruned
        ),
        Algorithm::Sat => format!(
            "An axis separates {} and {}: the largest gap is {} on {}, along {} ({} axes tested, {} edge pairs skipped).",
            a.name,
            b.name,
            fmt_num(s.separation),
            axis_words(&s.axis, &a.name, &b.name),
            fmt_vec3(s.normal),
            s.axes_tested,
            s.axes_pruned
        ),
        Algorithm::Clip => match &q.manifold {
            Some(m) => {
                let points: Vec<String> = m
                    .points
                    .iter()
                    .map(|c| format!("{} (depth {})", fmt_vec3(c.point), fmt_num(c.depth)))
                    .collect();
                let reference = if m.reference.key() == "a" {
                    &a.name
                } else {
                    &b.name
                };
                format!(
                    "A {} contact: clipping gave {} point{}, kept {}: {}. Reference body {}; normal {}.",
                    m.feature.key().replace('_', "-"),
                    m.clipped,
                    if m.clipped == 1 { "" } else { "s" },
                    m.points.len(),
                    points.join(", "),
                    reference,
                    fmt_vec3(m.normal)
                )
            }
            None => "No manifold: the bodies do not touch.".into(),
        },
        Algorithm::Sweep => match &q.sweep {
            None => "No sweep.".into(),
            Some(w) if w.status == crate::query3::sweep::Status::MaxIterations => format!(
                "The Newton steps reached their cap before they decided: any contact lies between t = {} and t = {}, the bracket they narrowed; the sweep reports a hit with those times as bounds (normal {} at t = {}).",
                fmt_num(w.t_first.unwrap_or(0.0)),
                fmt_num(w.t_last.unwrap_or(0.0)),
                fmt_vec3(w.normal),
                fmt_num(w.t_first.unwrap_or(0.0))
            ),
            Some(w) if w.hit => format!(
                "The bodies are in contact from t = {} to t = {}; first contact on {}, normal {}.",
                fmt_num(w.t_first.unwrap_or(0.0)),
                fmt_num(w.t_last.unwrap_or(0.0)),
                axis_words(&w.axis, &a.name, &b.name),
                fmt_vec3(w.normal)
            ),
            Some(_) => "The bodies never touch in this interval.".into(),
        },
        _ => String::new(),
    }
}

/// With a sphere or a capsule: what GJK and EPA ran on, before their result.
fn round_note3(a: &SceneBody3, b: &SceneBody3) -> String {
    let radius = |body: &SceneBody3| body.shape.as_ref().radius();
    if radius(a) + radius(b) == 0.0 {
        return String::new();
    }
    format!(
        "GJK and EPA ran on the cores (a sphere's centre, a capsule's segment) and add the radii, {} in all: the steps above are the cores'. ",
        fmt_num(radius(a) + radius(b))
    )
}

/// What EPA does with GJK's answer on an intersecting pair: round cores apart within the
/// radii, or two round cores that meet, need no expansion (see `no_steps3`).
fn epa_after_gjk(a: &SceneBody3, b: &SceneBody3, q: &PairQuery3) -> &'static str {
    let round = |body: &SceneBody3| body.shape.as_ref().radius() > 0.0;
    match q.epa {
        Some(e) if e.status == EpaStatus::CoresApart => {
            "the depth is the radii less the cores' distance (EPA need not expand)"
        }
        Some(e) if e.status == EpaStatus::Degenerate && e.iterations == 0 && round(a) && round(b) => {
            "the depth is the radii along the direction that separates the cores least (EPA need not expand)"
        }
        _ => "EPA finds the depth from its simplex",
    }
}

/// The result paragraph of GJK or EPA.
fn gjk_epa_result3(algorithm: Algorithm, a: &SceneBody3, b: &SceneBody3, q: &PairQuery3) -> String {
    let g = &q.gjk;
    match (algorithm, &q.epa) {
        (Algorithm::Gjk, _) if g.intersecting => format!(
            "A - B contains the origin (or touches it, or comes within the radii), so {} and {} intersect; GJK ended after {} iteration{} ({}), and {}.",
            a.name,
            b.name,
            g.iterations,
            if g.iterations == 1 { "" } else { "s" },
            g.status.in_words(),
            epa_after_gjk(a, b, q)
        ),
        (Algorithm::Gjk, _) => match (g.closest_a, g.closest_b) {
            (Some(ca), Some(cb)) => format!(
                "{} and {} are {} apart after {} iteration{} ({}): one pair of closest points (parallel edges or faces have many) is {} on {} and {} on {}.",
                a.name,
                b.name,
                fmt_num(g.distance),
                g.iterations,
                if g.iterations == 1 { "" } else { "s" },
                g.status.in_words(),
                fmt_vec3(ca),
                a.name,
                fmt_vec3(cb),
                b.name
            ),
            _ => format!(
                "GJK stopped ({}) without a finite distance.",
                g.status.in_words()
            ),
        },
        (_, Some(e)) => format!(
            "The depth is {} along {} (from {} toward {}), after {} expansion{} ({}); moving {} by depth x normal leaves them touching. Deepest points: {} on {}, {} on {}.",
            fmt_num(e.depth),
            fmt_vec3(e.normal),
            a.name,
            b.name,
            e.iterations,
            if e.iterations == 1 { "" } else { "s" },
            e.status.in_words(),
            b.name,
            fmt_vec3(e.point_a),
            a.name,
            fmt_vec3(e.point_b),
            b.name
        ),
        (_, None) => "No depth: the bodies are apart.".into(),
    }
}
