//! collision-lab against Box2D v3 and parry2d on identical inputs, the growth of each query with the
//! vertex count, the cost of recording, and the window's per-frame work.
//!
//! Run with `cargo bench --bench versus_parry`. Criterion measures every benchmark (its
//! usual report, history and change detection under `target/criterion/`). Then a paired
//! measurement prints the tables for `docs/performance.md`: the runners of one row take
//! turns round after round, so a change in the machine's load hits both sides of a ratio
//! alike. The tables are also written as `target/criterion/versus_parry.{md,csv}`;
//! `scripts/perf_report.py` draws the plot from the CSV. `VERSUS_PARRY_N=8,1024` limits the
//! vertex counts; a criterion filter that matches nothing (`-- none`) skips criterion.
//!
//! Method (see `docs/performance.md` for the reasoning):
//! - Polygons: `n` points on an ellipse with random semi-axes, at sorted random angles (one
//!   angle drawn inside each of `n` equal sectors, so no two points nearly coincide), from a
//!   fixed-seed generator written here. Poses: random positions and angles.
//! - Each benchmark times a batch over a fixed set of cases; the tables give the median cost
//!   of one query (median time per batch divided by the batch size).
//! - parry2d's `ConvexPolygon::from_convex_polyline` merges edges whose normals are within
//!   about 1.5 degrees, so it cannot hold a 256-gon or a 1024-gon of this kind. For the
//!   vertex-count sweep parry2d therefore runs its own generic entry points
//!   (`query::details::*_support_map_support_map`, `contact_manifold_pfm_pfm`) on
//!   [`ExactPolygon`], which keeps every vertex and finds support points by the same full
//!   scan `ConvexPolygon` uses. At n = 8 both forms of parry2d are measured, and the
//!   headline targets are judged against the public API on `ConvexPolygon`.
//! - Box2D v3 (through `boxdd-sys`, its C functions called directly) holds at most 8
//!   vertices per polygon: it runs on the sets of boxes, 4-gons, 6-gons and 8-gons.
//!
//! Modules: [`inputs`] (polygons and cases), [`agreement`] (the answers compared before
//! timing), [`runners`] (one batch of one query per library), [`box2d`] (Box2D's calls),
//! [`recording`] (traced against untraced), [`frame`] (the window's frame without drawing),
//! [`table`] (the paired measurement and the Markdown and CSV tables).

mod agreement;
mod box2d;
mod frame;
mod inputs;
#[path = "../common/least_times.rs"]
mod least_times;
mod recording;
mod runners;
mod table;

use criterion::Criterion;
use inputs::Inputs;
use recording::{bench_recording, RecordingInputs};
use std::time::Duration;

/// Vertex counts of the growth sweep (6 for the Box2D rows: it holds up to 8).
const VERTEX_COUNTS: [usize; 7] = [4, 6, 8, 16, 64, 256, 1024];

/// The vertex count of the headline targets.
const HEADLINE_N: usize = 8;

/// Distinct polygons per vertex count; the cases pick pairs of them.
const POLYGONS_PER_SIZE: usize = 16;

/// Cases per benchmark: the batch one criterion iteration runs.
const CASES: usize = 64;

const SEED: u64 = 0x00c0_111d_e1ab;

/// Library names as they appear in benchmark ids and tables.
const OURS: &str = "collision-lab";
const PARRY: &str = "parry2d";
const PARRY_PUBLIC: &str = "parry2d-public";
const BOX2D: &str = "box2d";

/// The versions compared, as `Cargo.toml` pins them (stated in the tables).
const PARRY_VERSION: &str = "0.31";
const BOX2D_VERSION: &str = "0.6 (Box2D v3)";

fn main() {
    if let Ok(spec) = std::env::var("VERSUS_PARRY_PROFILE") {
        return profile(&spec);
    }
    if let Ok(spec) = std::env::var("VERSUS_PARRY_MIN") {
        return least_times(&spec);
    }
    let quick = std::env::args().any(|a| a == "--test");
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_millis(1500))
        .sample_size(30)
        .without_plots()
        .configure_from_args();
    // `VERSUS_PARRY_N=8,1024` limits the vertex counts, for quick looks while optimizing.
    let only: Option<Vec<usize>> = std::env::var("VERSUS_PARRY_N").ok().map(|list| {
        list.split(',')
            .filter_map(|n| n.trim().parse().ok())
            .collect()
    });
    let mut all: Vec<Inputs> = VERTEX_COUNTS
        .iter()
        .filter(|n| only.as_ref().is_none_or(|only| only.contains(n)) || **n == HEADLINE_N)
        .map(|&n| Inputs::new(n))
        .collect();
    if only.as_ref().is_none_or(|only| only.contains(&4)) {
        all.insert(0, Inputs::boxes());
    }
    for inputs in &all {
        agreement::check_agreement(inputs);
    }
    let headline = all
        .iter()
        .find(|i| i.n == HEADLINE_N)
        .expect("headline inputs");
    let recording = RecordingInputs::new(headline);
    runners::bench_versus(&mut criterion, &all);
    bench_recording(&mut criterion, &recording);
    frame::bench_frame(&mut criterion);
    criterion.final_summary();
    table::table(&all, &recording, quick);
}

/// `VERSUS_PARRY_PROFILE=query,library,polygons,batches` (e.g. `manifold,collision-lab,8,1000`;
/// `recording,gjk,traced,1000` for a row of the recording table)
/// runs one runner that many batches and nothing else, for an instruction count under
/// `valgrind --tool=callgrind`: the difference between two batch counts divided by the extra
/// queries is the cost of one query, free of the machine's load.
fn profile(spec: &str) {
    let parts: Vec<&str> = spec.split(',').collect();
    let [query, library, label, batches] = parts[..] else {
        panic!("VERSUS_PARRY_PROFILE=query,library,polygons,batches, not {spec}");
    };
    // `recording,gjk,traced,200`: one algorithm of the recording table at n = 8, traced or
    // untraced, that many batches.
    if query == "recording" {
        let inputs = Inputs::new(HEADLINE_N);
        let recording = RecordingInputs::new(&inputs);
        let traced = label == "traced";
        let batches: usize = batches.parse().expect("a batch count");
        for _ in 0..batches {
            recording.run(library, traced);
        }
        return;
    }
    let (query, inputs) = query_and_inputs(query, label);
    let batches: usize = batches.parse().expect("a batch count");
    let mut runners = runners::versus_runners(query, &inputs);
    let (_, run) = runners
        .iter_mut()
        .find(|(name, _)| *name == library)
        .expect("a library that runs this query");
    for _ in 0..batches {
        run();
    }
}

/// `VERSUS_PARRY_MIN=query,polygons,rounds[,first,second]` (e.g. `manifold,4,100000`): two
/// runners of one query (ours and Box2D unless named: any library of the tables, or `sat`
/// and `clip` for the manifold's halves) timed batch by batch in turn
/// (`least_times::least_times`); `recording,ALGORITHM,rounds` (e.g. `recording,clip,20000`)
/// times one algorithm of the recording table traced against untraced.
fn least_times(spec: &str) {
    let parts: Vec<&str> = spec.split(',').collect();
    let [query, label, rounds, ..] = parts[..] else {
        panic!("VERSUS_PARRY_MIN=query,polygons,rounds[,first,second], not {spec}");
    };
    let rounds: usize = rounds.parse().expect("a round count");
    // `recording,clip,rounds`: one algorithm of the recording table (n = 8), traced against
    // untraced, for a steady look at a ratio that sits near its target.
    if query == "recording" {
        assert!(
            recording::ALGORITHMS.contains(&label),
            "VERSUS_PARRY_MIN=recording,ALGORITHM,rounds: one of {:?}, not {label}",
            recording::ALGORITHMS
        );
        let inputs = Inputs::new(HEADLINE_N);
        let recording = RecordingInputs::new(&inputs);
        least_times::least_times(
            ["traced", "untraced"],
            rounds,
            [&mut || recording.run(label, true), &mut || {
                recording.run(label, false)
            }],
        );
        return;
    }
    let (query, inputs) = query_and_inputs(query, label);
    let mut runners = runners::versus_runners(query, &inputs);
    if query == runners::Query::Manifold {
        runners.extend(runners::manifold_part_runners(&inputs));
    }
    let names = [
        parts.get(3).copied().unwrap_or(OURS),
        parts.get(4).copied().unwrap_or(BOX2D),
    ];
    let mut picked: Vec<runners::Runner> = names
        .iter()
        .map(|name| {
            let k = runners
                .iter()
                .position(|(n, _)| n == name)
                .unwrap_or_else(|| panic!("no runner {name} for this query"));
            runners.swap_remove(k).1
        })
        .collect();
    let [first, second] = &mut picked[..] else {
        unreachable!("two names, two runners")
    };
    least_times::least_times(names, rounds, [&mut **first, &mut **second]);
}

/// The query named `query` (a table group) and the inputs named `label` (`boxes` or a
/// vertex count).
fn query_and_inputs(query: &str, label: &str) -> (runners::Query, Inputs) {
    let query = runners::Query::ALL
        .into_iter()
        .find(|q| q.group() == query)
        .expect("a query name");
    let inputs = if label == "boxes" {
        Inputs::boxes()
    } else {
        Inputs::new(label.parse().expect("a vertex count or boxes"))
    };
    (query, inputs)
}
