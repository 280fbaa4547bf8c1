//! `collision-lab scan`: move one body of a pair along one pose parameter and print where
//! the answers flip (text), every sample and event (JSON), or the samples (CSV); with
//! `--write-events DIR`, the scene at both sides of each flip as regression scenes.
//! The scan itself is `crate::scan`; this file reads the arguments and writes the output.

use super::format::num;
use super::pairs::select_traced_pair;
use super::ScanArgs;
use crate::query::Body;
use crate::scan::{regression_scene, scan, Event, Param, Sample, ScanOutput, ScanSpec};
use crate::scene::{load_any_scene_file, save_scene3_atomic, save_scene_atomic, LoadedScene};
use serde_json::{json, Value};
use std::path::Path;
use std::time::Instant;

pub fn run_scan(args: &ScanArgs, plot: PlotWriter) -> u8 {
    let file = args.scene.display().to_string();
    let scene = match load_any_scene_file(&args.scene) {
        Ok(scene) => scene,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let spec = match spec_of(args, &scene) {
        Ok(spec) => spec,
        Err(code) => return code,
    };
    let started = Instant::now();
    let output = match scan(&scene, spec) {
        Ok(output) => output,
        Err(e) => {
            eprintln!("error: {file}: {e}");
            return 2;
        }
    };
    let elapsed = started.elapsed();
    let three_d = matches!(scene, LoadedScene::Three(..));
    if args.json {
        let out = output_json(&scene_name(&scene, &file), &output, three_d);
        println!(
            "{}",
            serde_json::to_string_pretty(&out).expect("JSON values always print")
        );
    } else if args.csv {
        print!("{}", samples_csv(&output, three_d));
    } else {
        print!(
            "{}",
            scan_text(&scene_name(&scene, &file), &output, three_d)
        );
        println!(
            "{} samples, {} events, {} pair queries in {:.1} ms",
            output.samples.len(),
            output.events.len(),
            output.queries,
            elapsed.as_secs_f64() * 1000.0
        );
    }
    let written = match &args.write_events {
        Some(dir) => write_events(dir, &scene, &output),
        None => 0,
    };
    match &args.plot {
        Some(png) if written == 0 => plot(output, &scene_name(&scene, &file), png),
        _ => written,
    }
}

/// Draws a scan's plot to a PNG (`app::write_scan_plot`, handed in by `main`: the command
/// line does not import the window): the output, the scene's name for the title, the file;
/// returns the exit status.
pub type PlotWriter = fn(ScanOutput, &str, &std::path::Path) -> u8;

/// The scan's spec from the arguments: the named pair or the scene's focused pair, and the
/// parameter by its key. Prints the error and returns 2 when a name or the key is unknown;
/// the rest is checked by the scan against the scene.
fn spec_of(args: &ScanArgs, scene: &LoadedScene) -> Result<ScanSpec, u8> {
    let Some(param) = Param::from_key(&args.param) else {
        let keys: Vec<&str> = Param::ALL.iter().map(|p| p.key()).collect();
        eprintln!(
            "error: unknown parameter \"{}\": --param takes {}",
            args.param,
            keys.join(", ")
        );
        return Err(2);
    };
    let (names, focus): (Vec<&str>, _) = match scene {
        LoadedScene::Two(file, bodies) => (
            bodies.iter().map(|b| b.name.as_str()).collect(),
            file.focus_indices(),
        ),
        LoadedScene::Three(file, bodies) => (
            bodies.iter().map(|b| b.name.as_str()).collect(),
            file.focus_indices(),
        ),
    };
    let (i, j) = select_traced_pair(
        &args.scene,
        names.iter().copied(),
        args.pair.as_deref(),
        focus,
    )?;
    Ok(ScanSpec {
        a: names[i].to_string(),
        b: names[j].to_string(),
        moving: args.moving.clone(),
        param,
        from: args.from,
        to: args.to,
        samples: args.samples,
    })
}

fn scene_name(scene: &LoadedScene, file: &str) -> String {
    let title = match scene {
        LoadedScene::Two(s, _) => &s.title,
        LoadedScene::Three(s, _) => &s.title,
    };
    title.clone().unwrap_or_else(|| file.to_string())
}

/// The normal as the scene's dimension writes it: `(x, y)` in 2D, `(x, y, z)` in 3D.
fn normal_words(normal: Option<[f32; 3]>, three_d: bool) -> String {
    match normal {
        Some(n) if three_d => crate::text::readable_vector(&n),
        Some(n) => crate::text::readable_vector(&n[..2]),
        None => "none".into(),
    }
}

fn body_name(body: Body, spec: &ScanSpec) -> &str {
    match body {
        Body::A => &spec.a,
        Body::B => &spec.b,
    }
}

fn verdict(intersecting: bool) -> &'static str {
    if intersecting {
        "intersecting"
    } else {
        "separated"
    }
}

/// One changed answer in words: `normal (0, 1) -> (1, 0)`, `SAT axis ... -> ...`.
fn change_words(key: &str, e: &Event, spec: &ScanSpec, three_d: bool) -> String {
    let (p, q) = (&e.before, &e.after);
    let either = |f: &dyn Fn(&Sample) -> String| format!("{} -> {}", f(p), f(q));
    let detail = match key {
        "normal" => either(&|s| normal_words(s.normal, three_d)),
        "axis" => either(&|s| s.axis.words(&spec.a, &spec.b)),
        "feature" => either(&|s| s.feature.clone().unwrap_or_else(|| "none".into())),
        "reference" => either(&|s| {
            s.reference
                .map_or("none".into(), |r| body_name(r, spec).to_string())
        }),
        "contacts" => either(&|s| s.contacts.to_string()),
        "ids" => either(&|s| format!("[{}]", s.ids.join(", "))),
        "intersecting" => either(&|s| verdict(s.intersecting).to_string()),
        "agreement" => either(&|s| {
            let v = |b| verdict(b);
            if s.intersecting == s.gjk_intersecting {
                format!("agree ({})", v(s.intersecting))
            } else {
                format!("SAT {}, GJK {}", v(s.intersecting), v(s.gjk_intersecting))
            }
        }),
        _ => String::new(),
    };
    let label = match key {
        "axis" => "SAT axis",
        "intersecting" => "SAT",
        "agreement" => "SAT and GJK",
        other => other,
    };
    format!("{label} {detail}")
}

/// The header, then one line per event:
/// `x in [2.164371, 2.164372]: normal (0, 1) -> (1, 0); SAT axis ... -> ...`.
fn scan_text(name: &str, output: &ScanOutput, three_d: bool) -> String {
    let spec = &output.spec;
    let unit = match spec.param.unit() {
        "" => String::new(),
        u => format!(" {u}"),
    };
    let mut out = format!(
        "{name}: {} vs {}, {} along {} from {} to {}{unit}\n",
        spec.a,
        spec.b,
        spec.moving,
        spec.param.key(),
        spec.from,
        spec.to
    );
    for e in &output.events {
        let changes: Vec<String> = e
            .what
            .iter()
            .map(|key| change_words(key, e, spec, three_d))
            .collect();
        out += &format!(
            "{} in [{}, {}]: {}\n",
            spec.param.key(),
            e.lo,
            e.hi,
            changes.join("; ")
        );
    }
    out
}

fn opt_num(x: Option<f32>) -> Value {
    x.map_or(Value::Null, num)
}

/// A sample as JSON, with `query --json`'s spellings (normal of 2 or 3 numbers, reference
/// `"a"`/`"b"`, ids as arrays).
pub(super) fn sample_json(s: &Sample, three_d: bool) -> Value {
    let dims = if three_d { 3 } else { 2 };
    let normal = s
        .normal
        .map_or(Value::Null, |n| n[..dims].iter().map(|&c| num(c)).collect());
    let index = match s.axis.indices().as_slice() {
        [] => Value::Null,
        [i] => json!(i),
        more => json!(more),
    };
    let ids: Vec<Value> = s
        .ids
        .iter()
        .map(|id| serde_json::from_str(id).unwrap_or_else(|_| json!(id)))
        .collect();
    json!({
        "t": num(s.t),
        "intersecting": s.intersecting,
        "gjk_intersecting": s.gjk_intersecting,
        "depth": opt_num(s.depth),
        "distance": opt_num(s.distance),
        "normal": normal,
        "axis": { "kind": s.axis.kind(), "index": index },
        "feature": s.feature,
        "reference": s.reference.map(|r| r.as_str()),
        "contacts": s.contacts,
        "ids": ids,
        "t_first": opt_num(s.t_first),
    })
}

fn output_json(name: &str, output: &ScanOutput, three_d: bool) -> Value {
    let spec = &output.spec;
    let samples: Vec<Value> = output
        .samples
        .iter()
        .map(|s| sample_json(s, three_d))
        .collect();
    let events: Vec<Value> = output
        .events
        .iter()
        .map(|e| {
            json!({
                "lo": num(e.lo), "hi": num(e.hi), "what": e.what,
                "before": sample_json(&e.before, three_d),
                "after": sample_json(&e.after, three_d),
            })
        })
        .collect();
    json!({
        "scene": name,
        "pair": [spec.a, spec.b],
        "move": spec.moving,
        "param": spec.param.key(),
        "from": num(spec.from),
        "to": num(spec.to),
        "samples": samples,
        "events": events,
    })
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn csv_num(x: Option<f32>) -> String {
    x.map_or(String::new(), |x| x.to_string())
}

/// One row per sample, after a header; empty fields for absent values, numbers in their
/// shortest round-tripping form, the normal's z column only in 3D.
fn samples_csv(output: &ScanOutput, three_d: bool) -> String {
    let mut out = String::from("t,intersecting,gjk_intersecting,depth,distance,normal_x,normal_y,");
    if three_d {
        out += "normal_z,";
    }
    out += "axis_kind,axis_index,feature,reference,contacts,ids,t_first\n";
    for s in &output.samples {
        let dims = if three_d { 3 } else { 2 };
        let normal: Vec<String> = (0..dims).map(|k| csv_num(s.normal.map(|n| n[k]))).collect();
        let index: Vec<String> = s.axis.indices().iter().map(u32::to_string).collect();
        let row = [
            s.t.to_string(),
            s.intersecting.to_string(),
            s.gjk_intersecting.to_string(),
            csv_num(s.depth),
            csv_num(s.distance),
            normal.join(","),
            s.axis.kind().to_string(),
            index.join(" "),
            csv_field(s.feature.as_deref().unwrap_or("")),
            s.reference.map_or("", |r| r.as_str()).to_string(),
            s.contacts.to_string(),
            csv_field(&s.ids.join(" ")),
            csv_num(s.t_first),
        ];
        out += &row.join(",");
        out.push('\n');
    }
    out
}

/// Writes `DIR/event-K-before.ron` and `DIR/event-K-after.ron` for each event K (from 1):
/// the scene at the event's two ends, focused on the pair, with the pair's expectation
/// recorded there. Each file is replaced atomically. Returns the exit status.
fn write_events(dir: &Path, scene: &LoadedScene, output: &ScanOutput) -> u8 {
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: {}: cannot create the folder: {e}", dir.display());
        return 2;
    }
    let spec = &output.spec;
    let count = output.events.len();
    for (k, e) in output.events.iter().enumerate() {
        for (side, t) in [("before", e.lo), ("after", e.hi)] {
            let note = format!(
                "Written by `collision-lab scan`: {} at {} = {t}, {side} event {} of {count} ({} in [{}, {}]: {}).",
                spec.moving,
                spec.param.key(),
                k + 1,
                spec.param.key(),
                e.lo,
                e.hi,
                e.what.join(", ")
            );
            let path = dir.join(format!("event-{}-{side}.ron", k + 1));
            let saved = match regression_scene(scene, spec, t) {
                Ok(LoadedScene::Two(mut file, _)) => {
                    file.notes = Some(with_note(file.notes.take(), note));
                    save_scene_atomic(&path, &file)
                }
                Ok(LoadedScene::Three(mut file, _)) => {
                    file.notes = Some(with_note(file.notes.take(), note));
                    save_scene3_atomic(&path, &file)
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return 2;
                }
            };
            if let Err(e) = saved {
                eprintln!("error: {}: cannot write: {e}", path.display());
                return 2;
            }
        }
    }
    0
}

/// The scan's note first, then the scene's own notes.
fn with_note(notes: Option<String>, note: String) -> String {
    match notes {
        Some(old) if !old.trim().is_empty() => format!("{note}\n\n{old}"),
        _ => note,
    }
}
