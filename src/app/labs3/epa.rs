//! EPA in 3D. In A - B, at the timeline's step: at the seed, GJK's simplex and the support
//! points added to make it a tetrahedron; at each expansion, the polytope (faces filled
//! faintly, edges in front bolder than those behind), the face closest to the origin (the
//! one the sentence names) with the origin's foot on it, its normal and distance, the support
//! point w beyond it and the gap, the faces w sees (removed, tinted red), the horizon (bold)
//! and the new faces joining w to it; on the last step the depth. On the bodies: w's
//! sources, a on A and b on B; at the end, the penetration vector between the deepest
//! points, with the depth and the normal.
//!
//! For a sphere or a capsule EPA expands the cores' difference (drawn dashed inside A - B);
//! the labels say so, and the answer adds the radii.

use super::{step_or_last, Lab3, Lab3Ctx};
use crate::app::analysis3::Analysis3;
use crate::app::draw::{palette, LegendEntry, LABEL_DETAIL, LABEL_ORIGIN};
use crate::app::labs::{num, Series};
use crate::app::paint3::Painter3;
use crate::query::Algorithm;
use crate::query3::epa::{Expansion, Face, Seed, Status, Step};
use crate::query3::simplex::SupportPoint3;
use crate::text::readable_vector;
use glam::Vec3;
use std::collections::BTreeMap;

pub struct EpaLab3;

/// Fills: the faces kept faint so that the removed cap, the closest face and the new faces
/// read through them.
const KEPT_FILL: f32 = 0.07;
const REMOVED_FILL: f32 = 0.2;
const CLOSEST_FILL: f32 = 0.35;
const ADDED_FILL: f32 = 0.14;

/// The closest face's normal, drawn from the origin's foot on the face: a fixed fraction of
/// the view's height on the screen (the gap it leads to may be anything from 0 up), within
/// these lengths in logical pixels so that it reads in the inset and in a split half.
const NORMAL_OF_VIEW: f32 = 0.08;
const NORMAL_PX: (f32, f32) = (22.0, 56.0);

impl Lab3 for EpaLab3 {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Epa
    }

    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry::new(palette::POLYTOPE, "EPA polytope"),
            LegendEntry::new(palette::HIGHLIGHT, "closest face, normal n, distance d"),
            LegendEntry::new(palette::SEARCH, "support w, gap; horizon (bold), new faces"),
            LegendEntry::new(palette::REFUSED, "faces w sees (removed)"),
            LegendEntry::new(palette::RESULT, "normal (A to B), depth"),
        ]
    }

    fn uses_difference(&self) -> bool {
        true
    }

    fn difference_points(&self, run: &Analysis3, keep: &mut dyn FnMut(Vec3)) {
        for step in &run.trace.epa {
            match step {
                Step::Seed(s) => s.simplex.iter().chain(&s.added).for_each(|w| keep(w.point)),
                Step::Expansion(e) => {
                    e.vertices.iter().for_each(|w| keep(w.point));
                    keep(e.support.point);
                }
            }
        }
        if let Some(e) = run.query.epa {
            keep(e.depth * e.normal);
        }
    }

    fn support_point(&self, run: &Analysis3, step: Option<usize>) -> Option<SupportPoint3> {
        match step_or_last(&run.trace.epa, step)? {
            Step::Seed(s) => s.added.last().copied(),
            Step::Expansion(e) => Some(e.support),
        }
    }

    fn draw(&self, ctx: &Lab3Ctx) {
        match step_or_last(&ctx.run.trace.epa, ctx.step) {
            Some(Step::Seed(s)) => {
                for w in &s.added {
                    draw_sources(ctx, w, "seed support");
                }
            }
            Some(Step::Expansion(e)) => draw_sources(ctx, &e.support, "support"),
            None => {}
        }
        if is_answer(ctx) {
            draw_result(ctx);
        }
    }

    fn draw_difference(&self, ctx: &Lab3Ctx) {
        match step_or_last(&ctx.run.trace.epa, ctx.step) {
            Some(Step::Seed(s)) => draw_seed(ctx, s),
            Some(Step::Expansion(e)) => draw_expansion(ctx, e),
            None => {}
        }
        if is_answer(ctx) {
            draw_depth_in_difference(ctx);
        }
    }

    fn series(&self, run: &Analysis3) -> Vec<Series> {
        let expansions = || {
            run.trace.epa.iter().filter_map(|s| match s {
                Step::Expansion(e) => Some(e),
                Step::Seed(_) => None,
            })
        };
        let gap = expansions()
            .map(|e| [e.iteration as f64, e.gap.max(0.0) as f64])
            .collect();
        let distance = expansions()
            .map(|e| [e.iteration as f64, e.distance as f64])
            .collect();
        vec![
            Series {
                name: "EPA gap (support beyond closest face)".into(),
                color: palette::SEARCH,
                points: gap,
            },
            Series {
                name: "EPA closest face distance".into(),
                color: palette::HIGHLIGHT,
                points: distance,
            },
        ]
    }
}

/// Whether the step shown is EPA's answer: its last step, or none recorded (round cores
/// apart within the radii give a depth without expanding).
fn is_answer(ctx: &Lab3Ctx) -> bool {
    let n = ctx.run.trace.epa.len();
    ctx.step.is_none_or(|k| k + 1 >= n)
}

/// Whether the view is large enough for the details' labels (the split half, not the
/// inset): in the inset only the numbers the sentence gives are labelled, so that the
/// labels leave the polytope visible.
fn roomy(ctx: &Lab3Ctx) -> bool {
    ctx.paint.camera.size.y >= ctx.paint.px(ROOMY_PX)
}

/// The least view height (logical pixels) that labels the details.
const ROOMY_PX: f32 = 320.0;

/// The bold lines (horizon, removed cap) are this much thinner in a small view, where at
/// full width they would hide the faces they bound.
const INSET_BOLD: f32 = 0.6;

/// Whether A - B is drawn as the cores' difference grown by the radii (a sphere or a
/// capsule in the pair): EPA's polytope is then the cores'.
fn on_cores(ctx: &Lab3Ctx) -> bool {
    ctx.round_pair()
}

/// GJK's simplex bold, the support points added to it, and the tetrahedron they make
/// filled faintly.
fn draw_seed(ctx: &Lab3Ctx, s: &Seed) {
    let p = ctx.paint;
    let simplex: Vec<Vec3> = s.simplex.iter().map(|w| w.point).collect();
    let added: Vec<Vec3> = s.added.iter().map(|w| w.point).collect();
    let all: Vec<Vec3> = simplex.iter().chain(&added).copied().collect();
    if all.len() == 4 {
        let fill = palette::with_alpha(palette::POLYTOPE, 0.12);
        for skip in 0..4 {
            let face: Vec<Vec3> = (0..4).filter(|&k| k != skip).map(|k| all[k]).collect();
            p.polygon(&face, fill);
        }
    }
    for (i, a) in simplex.iter().enumerate() {
        for b in &simplex[i + 1..] {
            p.line_on_top(*a, *b, 3.0, palette::POLYTOPE);
        }
        p.dot(*a, 4.5, palette::POLYTOPE);
    }
    for (i, w) in added.iter().enumerate() {
        for q in all.iter().take(simplex.len() + i) {
            p.dashed(*q, *w, 1.5, palette::SEARCH);
        }
        p.dot(*w, 6.0, palette::SEARCH);
        ctx.label(*w, "added", palette::SEARCH, LABEL_DETAIL);
    }
    let centre = simplex.iter().sum::<Vec3>() / simplex.len().max(1) as f32;
    let text = match (s.status, s.added.len()) {
        (Some(_), _) => "A - B is flat: depth 0".to_string(),
        (None, 0) => "GJK's tetrahedron: the first polytope".to_string(),
        (None, n) => format!("GJK's {}, + {n} added", simplex_word(simplex.len())),
    };
    ctx.label(centre, text, palette::POLYTOPE, LABEL_ORIGIN);
}

fn simplex_word(len: usize) -> &'static str {
    match len {
        1 => "point",
        2 => "segment",
        3 => "triangle",
        _ => "tetrahedron",
    }
}

/// One expansion, back to front: the kept faces, the removed cap, the new faces, then the
/// lines over them (edges, horizon, the closest face's outline) and the marks.
fn draw_expansion(ctx: &Lab3Ctx, e: &Expansion) {
    let p = ctx.paint;
    let corners = |f: &Face| f.vertices.map(|i| point_of(e, i));
    for (i, f) in e.faces.iter().enumerate() {
        let color = match (i == e.closest_face, e.removed.contains(&i)) {
            (true, _) => palette::with_alpha(palette::HIGHLIGHT, CLOSEST_FILL),
            (false, true) => palette::with_alpha(palette::REFUSED, REMOVED_FILL),
            (false, false) => palette::with_alpha(palette::POLYTOPE, KEPT_FILL),
        };
        p.polygon(&corners(f), color);
    }
    for f in &e.added {
        p.polygon(
            &corners(f),
            palette::with_alpha(palette::SEARCH, ADDED_FILL),
        );
    }
    let bold = if roomy(ctx) { 1.0 } else { INSET_BOLD };
    draw_edges(p, e, bold);
    // The closest face's outline thin over the horizon's and the removed cap's bold edges
    // (it is always removed, so each of its edges is one or the other): both read.
    for [a, b] in &e.horizon {
        p.line_on_top(
            point_of(e, *a),
            point_of(e, *b),
            6.5 * bold,
            palette::SEARCH,
        );
    }
    for w in &e.vertices {
        p.dot(w.point, 3.0, palette::POLYTOPE);
    }
    if let Some(f) = e.faces.get(e.closest_face) {
        let [a, b, c] = corners(f);
        super::outline(ctx, &[a, b, c], 2.0, palette::HIGHLIGHT);
    }
    draw_closest(ctx, e);
    draw_support(ctx, e);
    if !roomy(ctx) {
        return;
    }
    if let Some(text) = removed_label(e) {
        let seen = e.removed.iter().filter_map(|&i| e.faces.get(i));
        let points: Vec<Vec3> = seen.flat_map(corners).collect();
        let middle = points.iter().sum::<Vec3>() / points.len().max(1) as f32;
        ctx.label(middle, text, palette::REFUSED, LABEL_DETAIL);
    }
}

/// Vertex `i` of the polytope; the next index (one past the last) is the support point,
/// which the new faces name before it joins.
fn point_of(e: &Expansion, i: u32) -> Vec3 {
    e.vertices
        .get(i as usize)
        .map_or(e.support.point, |w| w.point)
}

/// Every edge of the polytope once: those of a face turned toward the eye solid, the ones
/// only behind faint; the removed cap's inner edges bold red over everything; the new
/// faces' edges to w dashed.
fn draw_edges(p: &Painter3, e: &Expansion, bold: f32) {
    // Per edge (lower index first): whether a face of it faces the eye, and whether every
    // face of it is removed.
    let mut edges: BTreeMap<(u32, u32), (bool, bool)> = BTreeMap::new();
    for (i, f) in e.faces.iter().enumerate() {
        let front = faces_eye(p, f.normal, point_of(e, f.vertices[0]));
        let removed = e.removed.contains(&i);
        let [a, b, c] = f.vertices;
        for (u, v) in [(a, b), (b, c), (c, a)] {
            let entry = edges.entry((u.min(v), u.max(v))).or_insert((false, true));
            entry.0 |= front;
            entry.1 &= removed;
        }
    }
    for (&(u, v), &(front, removed)) in &edges {
        let (a, b) = (point_of(e, u), point_of(e, v));
        if removed {
            p.line_on_top(a, b, 5.0 * bold, palette::REFUSED);
        } else {
            let (width, alpha) = if front { (1.6, 0.9) } else { (1.0, 0.35) };
            p.line(a, b, width, palette::with_alpha(palette::POLYTOPE, alpha));
        }
    }
    let w = e.support.point;
    let mut joined: Vec<u32> = e.horizon.iter().flatten().copied().collect();
    joined.sort_unstable();
    joined.dedup();
    for v in joined {
        p.dashed(point_of(e, v), w, 1.5, palette::SEARCH);
    }
}

/// Whether a face with outward `normal` through `at` is turned toward the eye.
fn faces_eye(p: &Painter3, normal: Vec3, at: Vec3) -> bool {
    let c = &p.camera;
    let toward_eye = if c.orthographic {
        -c.forward()
    } else {
        c.eye() - at
    };
    normal.dot(toward_eye) > 0.0
}

/// The origin's foot on the closest face (distance times normal), joined to the origin;
/// the normal from the foot; the face's number and distance, as the sentence gives them.
fn draw_closest(ctx: &Lab3Ctx, e: &Expansion) {
    let p = ctx.paint;
    let foot = e.distance * e.normal;
    p.dashed(Vec3::ZERO, foot, 2.0, palette::HIGHLIGHT);
    let per_unit = p.camera.pixels_per_unit_at(foot).max(1e-6);
    let length = (NORMAL_OF_VIEW * p.camera.size.y).clamp(p.px(NORMAL_PX.0), p.px(NORMAL_PX.1));
    let tip = foot + e.normal * (length / per_unit);
    p.arrow(foot, tip, 2.5, palette::HIGHLIGHT);
    ctx.keep_clear(foot, tip);
    p.dot(foot, 4.0, palette::HIGHLIGHT);
    if roomy(ctx) {
        ctx.label(tip, "n", palette::HIGHLIGHT, LABEL_DETAIL);
    }
    ctx.label(
        foot,
        closest_label(e, on_cores(ctx)),
        palette::HIGHLIGHT,
        LABEL_ORIGIN,
    );
}

/// The closest face's label: its number and distance as the sentence writes them; on the
/// answer, that this distance is the depth (of the cores, for round shapes).
pub(super) fn closest_label(e: &Expansion, cores: bool) -> String {
    let mut text = format!("face {}, d = {}", e.closest_face, num(e.distance));
    match (e.status.is_some(), cores) {
        (true, false) => text += " = depth",
        (true, true) => text += " (cores' depth)",
        (false, true) => text += " (cores)",
        (false, false) => {}
    }
    text
}

/// The support point w along the normal and its gap beyond the face (dashed from the foot).
fn draw_support(ctx: &Lab3Ctx, e: &Expansion) {
    let p = ctx.paint;
    let w = e.support.point;
    p.dashed(e.distance * e.normal, w, 1.5, palette::SEARCH);
    p.dot(w, 7.0, palette::SEARCH);
    p.dot(w, 3.0, palette::with_alpha(palette::BACKGROUND, 1.0));
    ctx.label(w, support_label(e), palette::SEARCH, LABEL_ORIGIN);
}

/// The support point's label: the gap as the sentence gives it.
pub(super) fn support_label(e: &Expansion) -> String {
    format!("w, gap {}", num(e.gap))
}

/// The faces w sees, named at their middle: how many, as the sentence counts them.
pub(super) fn removed_label(e: &Expansion) -> Option<String> {
    let n = e.removed.len();
    (n > 0).then(|| format!("{n} face{} w sees: removed", if n == 1 { "" } else { "s" }))
}

/// On the answer, in A - B: the depth vector from the origin to the nearest boundary point
/// of A - B (for round shapes past the cores' polytope, by the radii).
fn draw_depth_in_difference(ctx: &Lab3Ctx) {
    let Some(out) = ctx.run.query.epa else {
        return;
    };
    let tip = out.depth * out.normal;
    if out.depth <= 0.0 {
        return;
    }
    ctx.paint.arrow(Vec3::ZERO, tip, 3.0, palette::RESULT);
    ctx.keep_clear(Vec3::ZERO, tip);
    if on_cores(ctx) || out.status == Status::CoresApart {
        let text = format!("depth {} with the radii", num(out.depth));
        ctx.label(tip, text, palette::RESULT, LABEL_ORIGIN);
    }
}

/// The support point's sources: A's farthest point along n and B's farthest along -n.
fn draw_sources(ctx: &Lab3Ctx, w: &SupportPoint3, what: &str) {
    let p = ctx.paint;
    p.dashed(
        w.on_b,
        w.on_a,
        1.5,
        palette::with_alpha(palette::SEARCH, 0.8),
    );
    for (at, color, text) in [
        (w.on_a, palette::BODY_A, format!("a: {what} on A")),
        (w.on_b, palette::BODY_B, format!("b: {what} on B")),
    ] {
        p.dot(at, 7.0, color);
        p.dot(at, 3.0, palette::SEARCH);
        ctx.label(at, text, color, LABEL_DETAIL);
    }
}

/// EPA's answer on the bodies: the deepest points of A and of B, the depth vector between
/// them (`point_a - point_b = depth * n`: moving B by it leaves the bodies touching, so it
/// points along n, from A toward B, as in 2D), and the normal from A's deepest point.
fn draw_result(ctx: &Lab3Ctx) {
    let Some(e) = ctx.run.query.epa else {
        return;
    };
    let p = ctx.paint;
    if e.depth > 0.0 {
        p.arrow(e.point_b, e.point_a, 3.0, palette::RESULT);
        ctx.keep_clear(e.point_b, e.point_a);
    }
    let per_unit = p.camera.pixels_per_unit_at(e.point_a).max(1e-6);
    let tip = e.point_a + e.normal * (60.0 * p.scale / per_unit);
    p.line_on_top(
        e.point_a,
        tip,
        2.0,
        palette::with_alpha(palette::RESULT, 0.7),
    );
    p.dot(e.point_a, 5.0, palette::BODY_A);
    p.dot(e.point_b, 5.0, palette::BODY_B);
    ctx.label(e.point_a, "deepest of A", palette::BODY_A, LABEL_DETAIL);
    ctx.label(e.point_b, "deepest of B", palette::BODY_B, LABEL_DETAIL);
    ctx.label(
        0.5 * (e.point_a + e.point_b),
        result_label(e.depth, e.normal),
        palette::RESULT,
        LABEL_ORIGIN,
    );
}

/// The answer as the Results panel gives it.
pub(super) fn result_label(depth: f32, normal: Vec3) -> String {
    format!(
        "EPA depth {}, n {}",
        num(depth),
        readable_vector(&normal.to_array())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query3::simplex::Region;

    use crate::app::analysis3::analyse_scene as run;

    fn expansions(run: &Analysis3) -> Vec<&Expansion> {
        (run.trace.epa.iter())
            .filter_map(|s| match s {
                Step::Expansion(e) => Some(e),
                Step::Seed(_) => None,
            })
            .collect()
    }

    #[test]
    fn the_labels_numbers_are_the_sentences_digits() {
        // Found by looking: expansion 1's label read 0.06237 while its sentence read 0.0624
        // (the 3D sentences had their own four-decimal format).
        for name in [
            "epa_several_expansions.ron",
            "far_coordinates.ron",
            "welcome.ron",
        ] {
            let run = run(name);
            for (k, step) in run.trace.epa.iter().enumerate() {
                let Step::Expansion(e) = step else { continue };
                let sentence = run.trace.sentence(Algorithm::Epa, k);
                for shown in [num(e.distance), num(e.gap)] {
                    assert!(
                        sentence.contains(&shown),
                        "{name} {k}: {shown} in {sentence}"
                    );
                }
            }
            // GJK's lab labels |v| except when the simplex holds the origin.
            let gjk = run.trace.gjk.iter().enumerate();
            for (k, step) in gjk.filter(|(_, s)| s.region != Region::Inside) {
                let sentence = run.trace.sentence(Algorithm::Gjk, k);
                let shown = num(step.distance);
                assert!(
                    sentence.contains(&shown),
                    "{name} {k}: {shown} in {sentence}"
                );
            }
        }
    }

    #[test]
    fn the_frame_holds_every_polytope_vertex_of_every_step() {
        let run = run("epa_several_expansions.ron");
        let mut kept = Vec::new();
        EpaLab3.difference_points(&run, &mut |p| kept.push(p));
        let held = |p: Vec3| kept.contains(&p);
        assert!(expansions(&run).len() >= 3, "several expansions");
        for step in &run.trace.epa {
            match step {
                Step::Seed(s) => {
                    assert!(s.simplex.iter().chain(&s.added).all(|w| held(w.point)))
                }
                Step::Expansion(e) => {
                    assert!(e.vertices.iter().all(|w| held(w.point)));
                    assert!(held(e.support.point));
                    // The new faces' third vertex is the support point, one past the last.
                    for f in &e.added {
                        assert_eq!(f.vertices[2] as usize, e.vertices.len());
                        assert_eq!(point_of(e, f.vertices[2]), e.support.point);
                    }
                }
            }
        }
    }

    #[test]
    fn the_highlighted_face_is_the_nearest_the_step_records_and_the_sentence_names() {
        let run = run("epa_several_expansions.ron");
        for e in expansions(&run) {
            let least = e
                .faces
                .iter()
                .map(|f| f.distance)
                .fold(f32::INFINITY, f32::min);
            let closest = &e.faces[e.closest_face];
            assert_eq!(closest.distance, least, "expansion {}", e.iteration);
            assert_eq!((closest.distance, closest.normal), (e.distance, e.normal));
            // The first face of least distance, as the core picks it.
            let first = e.faces.iter().position(|f| f.distance == least);
            assert_eq!(first, Some(e.closest_face));
            // The closest face is always among the removed ones while expanding.
            assert!(e.status.is_some() || e.removed.contains(&e.closest_face));
            let sentence = crate::query3::epa::sentence(&Step::Expansion(e.clone()));
            let label = closest_label(e, false);
            let face = format!("face {}", e.closest_face);
            assert!(
                label.contains(&face) && sentence.contains(&face),
                "{sentence}"
            );
            // The numbers in the Results' form (`num`). The sentence counts the faces w sees
            // as the label does; its own digits come from `query3::gjk::number`, which
            // rounds to 4 decimals where `num` keeps 4 significant digits (0.0624 there,
            // 0.06237 here, on expansion 1).
            assert!(
                label.contains(&format!("d = {}", num(e.distance))),
                "{label}"
            );
            let support = support_label(e);
            assert!(support.starts_with(&format!("w, gap {}", num(e.gap))));
            if e.status.is_none() {
                let n = e.removed.len();
                assert!(
                    sentence.contains(&format!("It sees {n} face")),
                    "{sentence}"
                );
                let removed = removed_label(e).unwrap();
                assert!(removed.starts_with(&format!("{n} face")), "{removed}");
            }
        }
    }

    #[test]
    fn the_last_step_s_label_and_the_results_give_one_depth() {
        // Hand-derived in the scene's notes: the cube's edge is 0.5 - (0.8 - 0.5 sqrt 2) =
        // 0.407107 deep in the slab, along +y.
        let run = run("epa_several_expansions.ron");
        let out = run.query.epa.unwrap();
        let last = *expansions(&run).last().unwrap();
        assert_eq!(last.status, Some(Status::Converged));
        assert_eq!(out.depth, last.distance);
        assert_eq!(num(out.depth), "0.4071");
        assert_eq!(
            closest_label(last, false),
            format!("face {}, d = 0.4071 = depth", last.closest_face)
        );
        assert_eq!(
            result_label(out.depth, out.normal),
            "EPA depth 0.4071, n (0, 1, 0)"
        );
        assert!(support_label(last).starts_with("w, gap "));
        assert_eq!(removed_label(last), None, "the last step removes nothing");
        // The plots: one point per expansion, at its iteration, its gap and its distance.
        let series = EpaLab3.series(&run);
        let expected: Vec<[f64; 2]> = (expansions(&run).iter())
            .map(|e| [e.iteration as f64, e.gap.max(0.0) as f64])
            .collect();
        assert_eq!(series[0].points, expected);
        assert_eq!(series[1].points.last().unwrap()[1], out.depth as f64);
    }
}
