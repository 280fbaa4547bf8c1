//! `collision-lab trace`: one algorithm's recorded steps as readable text, one block per
//! step, with the same explanation sentences the window's timeline shows. Meant to be
//! printed as a handout.

use super::format::{fmt_num, fmt_vec};
use super::pairs::select_traced_pair;
use super::{load_or_report, TraceArgs};
use crate::query::pair::{trace_pair, PairQuery, PairTrace};
use crate::query::Algorithm;
use crate::scene::{settings_for_scene, SceneBody};
use crate::text::wrap_columns;

/// Text is wrapped to this many columns so a handout prints without overflowing.
const WRAP_COLUMNS: usize = 88;

pub fn run_trace(args: &TraceArgs) -> u8 {
    let key = format!("{:?}", args.algorithm).to_lowercase();
    if let Some(code) = super::trace3::run_trace3_if_3d(&args.scene, args.pair.as_deref(), &key) {
        return code;
    }
    let Some((scene, bodies)) = load_or_report(&args.scene) else {
        return 2;
    };
    let names = bodies.iter().map(|b| b.name.as_str());
    let focus = scene.focus_indices();
    let (i, j) = match select_traced_pair(&args.scene, names, args.pair.as_deref(), focus) {
        Ok(pair) => pair,
        Err(code) => return code,
    };
    let (a, b) = (&bodies[i], &bodies[j]);
    let settings = settings_for_scene(&scene);
    let (q, t) = trace_pair(&a.body_ref(), &b.body_ref(), &settings);
    let title = scene
        .title
        .clone()
        .unwrap_or_else(|| args.scene.display().to_string());
    println!("{title}");
    println!(
        "{}: A is {} ({}), B is {} ({}); {}",
        args.scene.display(),
        a.name,
        a.shape.kind_name(),
        b.name,
        b.shape.kind_name(),
        algorithm_name(args.algorithm)
    );
    print!("{}", trace_text(args.algorithm, a, b, &q, &t));
    0
}

fn algorithm_name(algorithm: Algorithm) -> &'static str {
    match algorithm {
        Algorithm::Minkowski => "the Minkowski difference A - B",
        Algorithm::Gjk => "GJK (distance and overlap)",
        Algorithm::Epa => "EPA (penetration depth)",
        Algorithm::Sat => "SAT (separating axes)",
        Algorithm::Clip => "clipping (contact manifold)",
        Algorithm::Sweep => "swept SAT (time of first contact)",
    }
}

/// The steps of `algorithm` as blocks of wrapped text, then a result paragraph.
pub fn trace_text(
    algorithm: Algorithm,
    a: &SceneBody,
    b: &SceneBody,
    q: &PairQuery,
    t: &PairTrace,
) -> String {
    let sentences = t.sentences(algorithm);
    let mut out = String::new();
    if sentences.is_empty() {
        out += "\n";
        out += &wrap_columns(&no_steps(algorithm, q), WRAP_COLUMNS);
    }
    let count = sentences.len();
    for (k, text) in sentences.iter().enumerate() {
        out += &format!("\nStep {} of {count}\n", k + 1);
        out += &wrap_columns(text, WRAP_COLUMNS);
    }
    out += "\nResult\n";
    out += &wrap_columns(&result(algorithm, a, b, q), WRAP_COLUMNS);
    out
}

/// Why an algorithm recorded nothing.
fn no_steps(algorithm: Algorithm, q: &PairQuery) -> String {
    match algorithm {
        Algorithm::Minkowski => {
            "The Minkowski difference is a shape, not a loop: it has no steps to record.".into()
        }
        Algorithm::Epa if !q.intersecting() => format!(
            "EPA does not run: GJK found the shapes apart (distance {}), so there is no depth to find.",
            fmt_num(q.gjk.distance)
        ),
        Algorithm::Epa => match q.epa {
            Some(e) => format!(
                "EPA needs no expansion here ({}): the depth comes straight from GJK's result.",
                e.status.in_words()
            ),
            None => "EPA did not run.".into(),
        },
        Algorithm::Clip if !q.intersecting() => {
            "Clipping does not run: the shapes are apart, so there is no contact to describe.".into()
        }
        Algorithm::Sweep if q.sweep.is_none() => {
            "The sweep does not run: neither body has a velocity in this scene.".into()
        }
        _ => "No steps were recorded.".into(),
    }
}

fn result(algorithm: Algorithm, a: &SceneBody, b: &SceneBody, q: &PairQuery) -> String {
    match algorithm {
        Algorithm::Minkowski => format!(
            "A - B is every point of {} minus every point of {}. It contains the origin exactly when the shapes share a point (they touch or overlap): here it {} (GJK).",
            a.name,
            b.name,
            if q.intersecting() { "does" } else { "does not" }
        ),
        Algorithm::Gjk => gjk_result(a, b, q),
        Algorithm::Epa => match q.epa {
            Some(e) => format!(
                "Depth {} along normal {} (from {} toward {}); {}, {}.",
                fmt_num(e.depth),
                fmt_vec(e.normal),
                a.name,
                b.name,
                e.status.in_words(),
                counted(e.iterations, "expansion")
            ),
            None => "No depth: the shapes do not overlap.".into(),
        },
        Algorithm::Sat => {
            let s = &q.sat;
            match (s.depth, s.separation) {
                (Some(d), _) => format!(
                    "Every axis overlaps, so the shapes intersect. The smallest overlap, {}, is the depth; normal {} ({} axes tested).",
                    fmt_num(d),
                    fmt_vec(s.normal),
                    s.axes_tested
                ),
                (_, Some(gap)) => format!(
                    "An axis separates the shapes: the largest gap is {} along {} ({} axes tested).",
                    fmt_num(gap),
                    fmt_vec(s.normal),
                    s.axes_tested
                ),
                _ => "SAT gave no verdict.".into(),
            }
        }
        Algorithm::Clip => clip_result(a, b, q),
        Algorithm::Sweep => match &q.sweep {
            None => "No sweep.".into(),
            Some(w) if w.hit => format!(
                "The bodies are in contact from t = {} to t = {}; first contact normal {}; {}.",
                fmt_num(w.t_first.unwrap_or(0.0)),
                fmt_num(w.t_last.unwrap_or(0.0)),
                fmt_vec(w.normal),
                w.status.in_words()
            ),
            Some(w) => format!(
                "The bodies never touch in this interval ({}).",
                w.status.in_words()
            ),
        },
    }
}

/// "1 iteration", "2 iterations".
fn counted(n: u32, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// GJK's verdict: intersecting, or the distance and the closest points.
fn gjk_result(a: &SceneBody, b: &SceneBody, q: &PairQuery) -> String {
    let g = &q.gjk;
    if g.intersecting {
        format!(
            "{} and {} intersect (GJK {}, {}).",
            a.name,
            b.name,
            g.status.in_words(),
            counted(g.iterations, "iteration")
        )
    } else {
        let mut s = format!(
            "{} and {} are {} apart (GJK {}, {}).",
            a.name,
            b.name,
            fmt_num(g.distance),
            g.status.in_words(),
            counted(g.iterations, "iteration")
        );
        if let (Some(ca), Some(cb)) = (g.closest_a, g.closest_b) {
            s += &format!(
                " One pair of closest points (parallel edges have many): {} on {} and {} on {}.",
                fmt_vec(ca),
                a.name,
                fmt_vec(cb),
                b.name
            );
        }
        s
    }
}

/// The contact points of the manifold, and which body gave the reference edge.
fn clip_result(a: &SceneBody, b: &SceneBody, q: &PairQuery) -> String {
    match &q.manifold {
        Some(m) => {
            let (reference, incident) = match m.reference {
                crate::query::Body::A => (&a.name, &b.name),
                crate::query::Body::B => (&b.name, &a.name),
            };
            let points: Vec<String> = m
                .points()
                .iter()
                .map(|c| format!("{} (depth {})", fmt_vec(c.point), fmt_num(c.depth)))
                .collect();
            format!(
                "{} contact point{}: {}. Reference body {}, incident body {}; normal {}.",
                m.count,
                if m.count == 1 { "" } else { "s" },
                points.join(", "),
                reference,
                incident,
                fmt_vec(m.normal)
            )
        }
        None => "No manifold: the shapes do not touch.".into(),
    }
}
