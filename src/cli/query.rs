//! `collision-lab query`: every algorithm's numbers for each pair, as text or JSON.

use super::format::{fmt_num, fmt_vec, num};
use super::pairs::select_pairs;
use super::{load_or_report, QueryArgs};
use crate::query::clip::Manifold;
use crate::query::pair::{query_pair, PairQuery};
use crate::scene::{settings_for_scene, SceneBody};
use glam::Vec2;
use serde_json::{json, Value};

pub fn run_query(args: &QueryArgs) -> u8 {
    if let Some(code) =
        super::query3::run_query3_if_3d(&args.scene, args.pair.as_deref(), args.json)
    {
        return code;
    }
    let Some((scene, bodies)) = load_or_report(&args.scene) else {
        return 2;
    };
    let pairs = match select_pairs(
        &args.scene,
        bodies.iter().map(|b| b.name.as_str()),
        args.pair.as_deref(),
    ) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let settings = settings_for_scene(&scene);
    let results: Vec<(usize, usize, PairQuery)> = pairs
        .into_iter()
        .map(|(i, j)| {
            (
                i,
                j,
                query_pair(&bodies[i].body_ref(), &bodies[j].body_ref(), &settings),
            )
        })
        .collect();
    if args.json {
        let pairs: Vec<Value> = results
            .iter()
            .map(|(i, j, q)| pair_json(&bodies[*i], &bodies[*j], q))
            .collect();
        let scene_name = scene
            .title
            .clone()
            .unwrap_or_else(|| args.scene.display().to_string());
        let out = json!({ "scene": scene_name, "file": args.scene.display().to_string(), "pairs": pairs });
        println!(
            "{}",
            serde_json::to_string_pretty(&out).expect("JSON values always print")
        );
    } else {
        if let Some(title) = &scene.title {
            println!("{title}");
        }
        for (i, j, q) in &results {
            print!("{}", pair_text(&bodies[*i], &bodies[*j], q));
        }
    }
    0
}

fn vec(v: Vec2) -> Value {
    json!([num(v.x), num(v.y)])
}

fn opt_vec(v: Option<Vec2>) -> Value {
    v.map_or(Value::Null, vec)
}

fn pair_json(a: &SceneBody, b: &SceneBody, q: &PairQuery) -> Value {
    let g = &q.gjk;
    let epa = q.epa.map_or(Value::Null, |e| {
        json!({
            "depth": num(e.depth), "normal": vec(e.normal),
            "point_a": vec(e.point_a), "point_b": vec(e.point_b),
            "iterations": e.iterations, "status": e.status.as_str(),
        })
    });
    let s = &q.sat;
    let sat = json!({
        "intersecting": s.intersecting,
        "depth": s.depth.map_or(Value::Null, num),
        "separation": s.separation.map_or(Value::Null, num),
        "normal": vec(s.normal),
        "axis": {
            "body": s.axis.body().map_or(Value::Null, |b| json!(b.as_str())),
            "index": s.axis.index(),
            "kind": s.axis.kind_str(),
        },
        "axes_tested": s.axes_tested,
    });
    let sweep = q.sweep.map_or(Value::Null, |w| {
        json!({
            "hit": w.hit,
            "t_first": w.t_first.map_or(Value::Null, num),
            "t_last": w.t_last.map_or(Value::Null, num),
            "normal": if w.hit { vec(w.normal) } else { Value::Null },
            "status": w.status.as_str(),
            "axes_tested": w.axes_tested,
            "manifold": w.manifold.as_ref().map_or(Value::Null, manifold_json),
        })
    });
    json!({
        "a": a.name, "b": b.name,
        "intersecting": q.intersecting(),
        "gjk": {
            "intersecting": g.intersecting, "distance": num(g.distance),
            "closest_a": opt_vec(g.closest_a), "closest_b": opt_vec(g.closest_b),
            "iterations": g.iterations, "status": g.status.as_str(),
        },
        "epa": epa,
        "sat": sat,
        "manifold": q.manifold.as_ref().map_or(Value::Null, manifold_json),
        "sweep": sweep,
    })
}

fn manifold_json(m: &Manifold) -> Value {
    let points: Vec<Value> = m
        .points()
        .iter()
        .map(|c| json!({ "point": vec(c.point), "depth": num(c.depth), "id": c.id, "end": c.end }))
        .collect();
    json!({
        "normal": vec(m.normal),
        "reference": m.reference.as_str(),
        "reference_edge": m.reference_edge,
        "incident_edge": m.incident_edge,
        "points": points,
    })
}

fn pair_text(a: &SceneBody, b: &SceneBody, q: &PairQuery) -> String {
    let mut out = String::new();
    let verdict = if q.intersecting() {
        "intersecting"
    } else {
        "separated"
    };
    out += &format!("\n{} vs {}: {verdict}\n", a.name, b.name);
    let g = &q.gjk;
    out += &format!(
        "  gjk       distance {}  iterations {}  {}\n",
        fmt_num(g.distance),
        g.iterations,
        g.status.in_words()
    );
    if let (Some(ca), Some(cb)) = (g.closest_a, g.closest_b) {
        out += &format!(
            "            closest on {} {}  on {} {}\n",
            a.name,
            fmt_vec(ca),
            b.name,
            fmt_vec(cb)
        );
    }
    match &q.epa {
        Some(e) => {
            out += &format!(
                "  epa       depth {}  normal {}  iterations {}  {}\n",
                fmt_num(e.depth),
                fmt_vec(e.normal),
                e.iterations,
                e.status.in_words()
            )
        }
        None => out += "  epa       not run (separated)\n",
    }
    out += &sat_line(a, b, q);
    match &q.manifold {
        Some(m) => out += &manifold_text(a, b, m, "manifold"),
        None => out += "  manifold  none (separated)\n",
    }
    if let Some(w) = &q.sweep {
        if w.hit {
            out += &format!(
                "  sweep     t_first {}  t_last {}  normal {}  {}\n",
                fmt_num(w.t_first.unwrap_or(0.0)),
                fmt_num(w.t_last.unwrap_or(0.0)),
                fmt_vec(w.normal),
                w.status.in_words()
            );
            if let Some(m) = &w.manifold {
                out += &manifold_text(a, b, m, "at t_first");
            }
        } else {
            out += &format!("  sweep     {}\n", w.status.in_words());
        }
    }
    out
}

/// The SAT line of a pair's text: depth or separation, normal, the axis and whose it is.
fn sat_line(a: &SceneBody, b: &SceneBody, q: &PairQuery) -> String {
    let s = &q.sat;
    let axis = match s.axis.body() {
        Some(body) => format!(
            "{} {} {}",
            if body == crate::query::Body::A {
                &a.name
            } else {
                &b.name
            },
            s.axis.kind_str(),
            s.axis.index()
        ),
        None => "fallback +x".into(),
    };
    let amount = match (s.depth, s.separation) {
        (Some(d), _) => format!("depth {}", fmt_num(d)),
        (_, Some(d)) => format!("separation {}", fmt_num(d)),
        _ => String::new(),
    };
    format!(
        "  sat       {amount}  normal {}  axis {axis}  axes tested {}\n",
        fmt_vec(s.normal),
        s.axes_tested
    )
}

fn manifold_text(a: &SceneBody, b: &SceneBody, m: &Manifold, label: &str) -> String {
    let (reference, incident) = match m.reference {
        crate::query::Body::A => (&a.name, &b.name),
        crate::query::Body::B => (&b.name, &a.name),
    };
    let mut out = format!(
        "  {label:<9} normal {}  reference {reference} edge {}  incident {incident} edge {}\n",
        fmt_vec(m.normal),
        m.reference_edge,
        m.incident_edge
    );
    for c in m.points() {
        out += &format!(
            "            point {}  depth {}  id [{}, {}]\n",
            fmt_vec(c.point),
            fmt_num(c.depth),
            c.id[0],
            c.id[1]
        );
    }
    out
}
