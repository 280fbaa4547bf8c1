//! The tables, from a paired measurement. Criterion measures each benchmark on its own, one after the other; on a
//! shared machine the load changes between them, which moves a ratio of two separate
//! measurements. So the table comes from a paired measurement: the runners of one row take
//! turns, round after round, and each ratio is the median over rounds of the ratio within a
//! round.

use crate::frame::{crowd_scene, frame, welcome_scene};
use crate::inputs::Inputs;
use crate::recording::{RecordingInputs, ALGORITHMS};
use crate::runners::{versus_runners, Query};
use crate::{BOX2D, CASES, HEADLINE_N, PARRY, PARRY_PUBLIC, PARRY_VERSION};
use collision_lab::query::pair::PairSettings;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Interleaved timings of several runners.
pub struct Paired {
    /// Median nanoseconds per batch, per runner.
    pub medians: Vec<f64>,
    /// Median over rounds of `time[0] / time[k]`, for k >= 1 (index k - 1).
    pub ratios: Vec<f64>,
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let m = values.len() / 2;
    if values.len() % 2 == 1 {
        values[m]
    } else {
        0.5 * (values[m - 1] + values[m])
    }
}

/// Samples of at least this long (several batches when one batch is shorter).
const SAMPLE_NS: u128 = 200_000;

pub fn measure_paired(
    runners: &mut [&mut dyn FnMut()],
    budget: Duration,
    min_rounds: usize,
) -> Paired {
    let reps: Vec<u32> = runners
        .iter_mut()
        .map(|run| {
            run(); // warm the caches
            let start = Instant::now();
            run();
            let once = start.elapsed().as_nanos().max(1);
            (SAMPLE_NS / once).clamp(1, 100_000) as u32
        })
        .collect();
    let mut samples = vec![Vec::new(); runners.len()];
    let start = Instant::now();
    let mut round = 0;
    while round < min_rounds || (start.elapsed() < budget && round < 1000) {
        for j in 0..runners.len() {
            // Rotate who goes first, so no runner always follows the same one.
            let k = (j + round) % runners.len();
            let t = Instant::now();
            for _ in 0..reps[k] {
                runners[k]();
            }
            samples[k].push(t.elapsed().as_nanos() as f64 / reps[k] as f64);
        }
        round += 1;
    }
    let ratios = (1..runners.len())
        .map(|k| {
            median(
                samples[0]
                    .iter()
                    .zip(&samples[k])
                    .map(|(a, b)| a / b)
                    .collect(),
            )
        })
        .collect();
    Paired {
        medians: samples.into_iter().map(median).collect(),
        ratios,
    }
}

fn format_ns(ns: Option<f64>) -> String {
    match ns {
        None => "-".into(),
        Some(t) if t >= 1.0e6 => format!("{:.2} ms", t / 1.0e6),
        Some(t) if t >= 1.0e4 => format!("{:.1} us", t / 1.0e3),
        Some(t) if t >= 1.0e3 => format!("{:.2} us", t / 1.0e3),
        Some(t) => format!("{t:.0} ns"),
    }
}

fn format_ratio(r: Option<f64>) -> String {
    r.map_or("-".into(), |r| format!("{r:.2}"))
}

fn optional(x: Option<f64>) -> String {
    x.map_or(String::new(), |x| format!("{x:.4}"))
}

/// Where the CSV and Markdown copies of the table go: next to criterion's output.
fn report_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    // Benchmarks run with the package root as the working directory.
    PathBuf::from("target").join("criterion")
}

fn machine() -> String {
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    format!("{model}, {cpus} logical CPUs, {}", std::env::consts::OS)
}

/// One row of the comparison: medians per query in nanoseconds, ratios ours / theirs.
struct Row {
    query: Query,
    label: String,
    ours: f64,
    parry: f64,
    ratio: f64,
    public: Option<f64>,
    ratio_public: Option<f64>,
    box2d: Option<f64>,
    ratio_box2d: Option<f64>,
}

pub fn table(all: &[Inputs], recording: &RecordingInputs, quick: bool) {
    let budget = if quick {
        Duration::ZERO
    } else {
        Duration::from_millis(400)
    };
    let min_rounds = if quick { 1 } else { 15 };
    let per_query = CASES as f64;
    let mut rows = Vec::new();
    eprintln!("\nPaired measurement for the table ...");
    for query in Query::ALL {
        for inputs in all {
            let mut runners = versus_runners(query, inputs);
            let names: Vec<&str> = runners.iter().map(|(name, _)| *name).collect();
            let mut refs: Vec<&mut dyn FnMut()> = runners
                .iter_mut()
                .map(|(_, r)| &mut **r as &mut dyn FnMut())
                .collect();
            let p = measure_paired(&mut refs, budget, min_rounds);
            // Runner 0 is ours; ratios[k - 1] is ours / runner k.
            let of = |name: &str| names.iter().position(|n| *n == name);
            let cost = |name: &str| of(name).map(|k| p.medians[k] / per_query);
            let ratio = |name: &str| of(name).map(|k| p.ratios[k - 1]);
            rows.push(Row {
                query,
                label: inputs.label.clone(),
                ours: p.medians[0] / per_query,
                parry: cost(PARRY).expect("parry2d runs every query"),
                ratio: ratio(PARRY).expect("parry2d runs every query"),
                public: cost(PARRY_PUBLIC),
                ratio_public: ratio(PARRY_PUBLIC),
                box2d: cost(BOX2D),
                ratio_box2d: ratio(BOX2D),
            });
        }
    }
    let find = |q: Query, label: &str| rows.iter().find(|r| r.query == q && r.label == label);

    let mut out = String::new();
    let now = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or("unknown date".into(), |d| d.trim().to_string());
    out.push_str(&format!("\nMeasured {now} on {}.\n", machine()));
    out.push_str(&format!(
        "Median cost of one query over {CASES} fixed-seed cases; ratio = collision-lab / other library, the median of per-round ratios of interleaved runs. parry2d {PARRY_VERSION}, Box2D v3 through boxdd-sys {BOX2D_VERSION}.\n",
        BOX2D_VERSION = crate::BOX2D_VERSION,
    ));

    out.push_str("\n### Against Box2D v3 and parry2d side by side (polygons Box2D can hold)\n\n");
    out.push_str(
        "ours / Box2D: target <= 1. ours / parry2d: its public API on its `ConvexPolygon`.\n\n",
    );
    out.push_str("| query | polygons | collision-lab | Box2D | parry2d | ours / Box2D | met | ours / parry2d |\n|---|---|---:|---:|---:|---:|:---:|---:|\n");
    for q in Query::ALL {
        let Some(title) = q.box2d_title() else {
            continue;
        };
        for r in rows.iter().filter(|r| r.query == q && r.box2d.is_some()) {
            let met = r
                .ratio_box2d
                .map_or("-", |x| if x <= q.box2d_target() { "yes" } else { "NO" });
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                title,
                polygons(&r.label),
                format_ns(Some(r.ours)),
                format_ns(r.box2d),
                format_ns(r.public.or(Some(r.parry))),
                format_ratio(r.ratio_box2d),
                met,
                format_ratio(r.ratio_public.or(Some(r.ratio))),
            ));
        }
    }

    let headline = HEADLINE_N.to_string();
    out.push_str(&format!(
        "\n### Targets at n = {HEADLINE_N} (against parry2d {PARRY_VERSION}'s public API on its ConvexPolygon)\n\n"
    ));
    out.push_str("| query | collision-lab | parry2d | ratio | target | met | ratio vs parry2d generic |\n|---|---:|---:|---:|---:|:---:|---:|\n");
    for q in Query::ALL {
        let Some(r) = find(q, &headline) else {
            continue;
        };
        let met = r
            .ratio_public
            .map_or("-", |x| if x <= q.target() { "yes" } else { "NO" });
        out.push_str(&format!(
            "| {} | {} | {} | {} | <= {} | {} | {} |\n",
            q.title(),
            format_ns(Some(r.ours)),
            format_ns(r.public),
            format_ratio(r.ratio_public),
            q.target(),
            met,
            format_ratio(Some(r.ratio)),
        ));
    }
    out.push_str(&format!("\n### Every vertex count (parry2d {PARRY_VERSION}'s generic functions on polygons that keep every vertex)\n\n"));
    out.push_str(
        "| query | polygons | collision-lab | parry2d | ratio |\n|---|---|---:|---:|---:|\n",
    );
    let mut csv = String::from(
        "query,n,collision_lab_ns,parry2d_ns,ratio,parry2d_public_ns,ratio_public,box2d_ns,ratio_box2d\n",
    );
    for r in &rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            r.query.group(),
            r.label,
            format_ns(Some(r.ours)),
            format_ns(Some(r.parry)),
            format_ratio(Some(r.ratio))
        ));
        csv.push_str(&format!(
            "{},{},{:.2},{:.2},{:.4},{},{},{},{}\n",
            r.query.group(),
            r.label,
            r.ours,
            r.parry,
            r.ratio,
            optional(r.public),
            optional(r.ratio_public),
            optional(r.box2d),
            optional(r.ratio_box2d),
        ));
    }
    out.push_str("\n### Growth: cost at n = 1024 / cost at n = 8\n\n");
    out.push_str("| query | collision-lab | parry2d | target (collision-lab) | met |\n|---|---:|---:|---:|:---:|\n");
    for (q, target) in [
        (Query::Distance, Some(10.0)),
        (Query::Manifold, Some(300.0)),
        (Query::Intersection, None),
        (Query::Penetration, None),
        (Query::TimeOfImpact, None),
    ] {
        let (Some(big), Some(small)) = (find(q, "1024"), find(q, "8")) else {
            continue;
        };
        let ours = big.ours / small.ours;
        let theirs = big.parry / small.parry;
        let met = target.map_or("-", |t| if ours <= t { "yes" } else { "NO" });
        out.push_str(&format!(
            "| {} | {:.1} | {:.1} | {} | {} |\n",
            q.group(),
            ours,
            theirs,
            target.map_or("-".into(), |t: f64| format!("<= {t}")),
            met
        ));
        csv.push_str(&format!(
            "growth-{},1024,{ours:.4},{theirs:.4},,,,,\n",
            q.group()
        ));
    }
    out.push_str(&format!(
        "\n### Recording overhead at n = {HEADLINE_N} (each call records into a fresh Vec; target traced / untraced <= 4)\n\n"
    ));
    out.push_str(
        "| algorithm | untraced | traced | traced / untraced | met |\n|---|---:|---:|---:|:---:|\n",
    );
    for algorithm in ALGORITHMS {
        let mut untraced = || recording.run(algorithm, false);
        let mut traced = || recording.run(algorithm, true);
        let p = measure_paired(&mut [&mut traced, &mut untraced], budget, min_rounds);
        let ratio = p.ratios[0];
        out.push_str(&format!(
            "| {} | {} | {} | {:.2} | {} |\n",
            algorithm,
            format_ns(Some(p.medians[1] / per_query)),
            format_ns(Some(p.medians[0] / per_query)),
            ratio,
            if ratio <= 4.0 { "yes" } else { "NO" }
        ));
        csv.push_str(&format!(
            "recording-{algorithm},{HEADLINE_N},{:.2},{:.2},{ratio:.4},,,,\n",
            p.medians[1] / per_query,
            p.medians[0] / per_query
        ));
    }
    out.push_str("\n### The window's frame without drawing\n\n");
    out.push_str("| scene | bodies | pairs | culled by bounding circles | frame (median) | without the cull | with / without |\n|---|---:|---:|---:|---:|---:|---:|\n");
    let settings = PairSettings::default();
    for (name, scene) in [("welcome", welcome_scene()), ("bodies_100", crowd_scene())] {
        let culled = frame(&scene, (0, 1), &settings, true).culled;
        let mut with_cull = || {
            black_box(frame(black_box(&scene), (0, 1), &settings, true).total);
        };
        let mut without_cull = || {
            black_box(frame(black_box(&scene), (0, 1), &settings, false).total);
        };
        let p = measure_paired(&mut [&mut with_cull, &mut without_cull], budget, min_rounds);
        let n = scene.len();
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {:.2} |\n",
            name,
            n,
            n * (n - 1) / 2,
            culled,
            format_ns(Some(p.medians[0])),
            format_ns(Some(p.medians[1])),
            p.ratios[0],
        ));
        csv.push_str(&format!(
            "frame-{name},{n},{:.2},{:.2},{:.4},,,,\n",
            p.medians[0], p.medians[1], p.ratios[0]
        ));
    }
    println!("{out}");
    let dir = report_dir();
    let (csv_path, md_path) = (dir.join("versus_parry.csv"), dir.join("versus_parry.md"));
    if std::fs::create_dir_all(&dir).is_ok()
        && std::fs::write(&csv_path, csv).is_ok()
        && std::fs::write(&md_path, out).is_ok()
    {
        println!("written: {} and {}", csv_path.display(), md_path.display());
    }
}

/// The polygons of a row, in words.
fn polygons(label: &str) -> String {
    match label {
        "boxes" => "boxes".into(),
        n => format!("random {n}-gons"),
    }
}
