//! The Results panel in 3D: every algorithm's numbers for the focused pair side by side
//! (SAT, GJK, EPA, the manifold, the sweep), disagreements in red. It reads the analysis
//! the canvas draws and the timeline tells, so the three say the same.

use crate::app::analysis3::Analysis3;
use crate::app::session::Session;
use crate::app::state3::Document3;
use crate::query3::sat::AxisId;
use crate::text::{readable, readable_vector};
use egui_macroquad::egui;
use egui_macroquad::egui::{Color32, RichText};
use glam::Vec3;

/// Depths or normals further apart than this disagree.
const AGREEMENT: f32 = 1.0e-3;

const WARN: Color32 = Color32::from_rgb(185, 28, 28);

fn v(p: Vec3) -> String {
    readable_vector(&p.to_array())
}

pub fn show(ui: &mut egui::Ui, session: &Session<Document3>) {
    ui.heading("Results");
    let Some(run) = session.run() else {
        ui.label("No focused pair: add two bodies.");
        return;
    };
    let doc = &session.doc;
    let (Some(a), Some(b)) = (doc.bodies.get(run.a), doc.bodies.get(run.b)) else {
        return;
    };
    ui.label(format!("A = {}, B = {}", a.name, b.name));
    // As in 2D: in a narrow panel the cells wrap rather than widen the panel.
    let column = ((ui.available_width() - 8.0) / 3.0).max(60.0);
    egui::Grid::new("results3-side-by-side")
        .striped(true)
        .num_columns(3)
        .max_col_width(column)
        .show(ui, |ui| side_by_side_rows(ui, side_by_side(run)));
    let q = &run.query;
    ui.label(format!("GJK {}.", q.gjk.status.in_words()));
    if let Some(e) = q.epa {
        ui.label(format!("EPA {}.", e.status.in_words()));
    }
    ui.add_space(4.0);
    egui::Grid::new("results3")
        .striped(true)
        .num_columns(2)
        .show(ui, |ui| {
            for (label, value) in rows(run) {
                ui.label(label);
                ui.label(value);
                ui.end_row();
            }
        });
    for note in disagreements(run) {
        ui.colored_label(WARN, format!("\u{26a0} {note}"));
    }
}

/// One row of the side-by-side table: GJK's or EPA's number beside SAT's.
#[derive(Clone, Debug, PartialEq)]
pub struct SideBySide {
    pub what: &'static str,
    /// What the row's name means, on hover ("" for none).
    pub tip: &'static str,
    pub gjk_epa: String,
    pub sat: String,
    /// The two disagree (drawn in red).
    pub differs: bool,
}

/// What SAT's separation is in 3D, on the row's hover.
pub const SEPARATION_TIP_3D: &str = "SAT's separation: the widest gap between the bodies' \
    projections on one tested axis (face normals, edge x edge). A lower bound of the distance, \
    equal to it when the closest features are a vertex and a face or two edges; less when \
    they are two vertices or a vertex and an edge.";

/// The side-by-side table's rows under its header (GJK / EPA, SAT), a disagreement in red,
/// a row's meaning on hover; the 2D and 3D Results panels share it.
pub fn side_by_side_rows(ui: &mut egui::Ui, rows: Vec<SideBySide>) {
    ui.strong("");
    ui.strong("GJK / EPA");
    ui.strong("SAT");
    ui.end_row();
    for row in rows {
        let name = ui.label(row.what);
        if !row.tip.is_empty() {
            name.on_hover_text(row.tip);
        }
        for text in [row.gjk_epa, row.sat] {
            let t = RichText::new(text).monospace();
            let t = if row.differs {
                t.color(WARN).strong()
            } else {
                t
            };
            ui.add(egui::Label::new(t).wrap());
        }
        ui.end_row();
    }
}

/// The verdict, distance, depth, normal and effort of GJK and EPA beside SAT's, as the 2D
/// Results panel has them.
pub fn side_by_side(run: &Analysis3) -> Vec<SideBySide> {
    let q = &run.query;
    let (depth_differs, normal_differs) = depth_and_normal_differ(run);
    let row = |what, gjk_epa, sat, differs| SideBySide {
        what,
        tip: "",
        gjk_epa,
        sat,
        differs,
    };
    let sat_if = |intersecting: bool, x: f32| {
        if q.sat.intersecting == intersecting {
            readable(x)
        } else {
            "-".into()
        }
    };
    let epa_iterations = q
        .epa
        .map_or(String::new(), |e| format!(" / {}", e.iterations));
    vec![
        row(
            "intersecting",
            q.gjk.intersecting.to_string(),
            q.sat.intersecting.to_string(),
            q.gjk.intersecting != q.sat.intersecting,
        ),
        row("distance", readable(q.gjk.distance), "-".into(), false),
        SideBySide {
            tip: SEPARATION_TIP_3D,
            ..row(
                "separation",
                "-".into(),
                sat_if(false, q.sat.separation),
                false,
            )
        },
        row(
            "depth",
            q.epa.map_or("-".into(), |e| readable(e.depth)),
            sat_if(true, q.sat.depth),
            depth_differs,
        ),
        row(
            "normal (A to B)",
            q.epa.map_or("-".into(), |e| v(e.normal)),
            v(q.sat.normal),
            normal_differs,
        ),
        row(
            "iterations",
            format!("{}{epa_iterations}", q.gjk.iterations),
            format!("{} axes", q.sat.axes_tested),
            false,
        ),
    ]
}

fn axis_words(id: AxisId) -> String {
    match id {
        AxisId::FaceA(i) => format!("face {i} of A"),
        AxisId::FaceB(j) => format!("face {j} of B"),
        AxisId::Edges(i, j) => format!("edge {i} of A × edge {j} of B"),
        AxisId::Closest => "between the cores' closest points".into(),
    }
}

/// The rows under the side-by-side table (what, value): SAT's axis, GJK's closest points,
/// the contact and the sweep.
pub fn rows(run: &Analysis3) -> Vec<(String, String)> {
    let q = &run.query;
    let mut out = vec![
        ("SAT".into(), q.sat.status.key().replace('_', " ")),
        ("SAT axis".into(), axis_words(q.sat.axis)),
        ("SAT pairs skipped".into(), q.sat.axes_pruned.to_string()),
    ];
    if let (Some(ca), Some(cb)) = (q.gjk.closest_a, q.gjk.closest_b) {
        out.push(("closest on A".into(), v(ca)));
        out.push(("closest on B".into(), v(cb)));
    }
    if let Some(m) = q.manifold {
        out.push(("contact".into(), m.feature.words().into()));
        out.push((
            "contact points".into(),
            format!("{} (of {} clipped)", m.points.len(), m.clipped),
        ));
        for (k, p) in m.points.iter().enumerate() {
            out.push((
                format!("  point {}", k + 1),
                format!("{} depth {}", v(p.point), readable(p.depth)),
            ));
        }
    }
    if let Some(s) = q.sweep {
        let when = s
            .t_first
            .map_or("no hit".to_string(), |t| format!("t = {}", readable(t)));
        out.push((
            "sweep".into(),
            format!("{} ({})", when, s.status.key().replace('_', " ")),
        ));
    }
    out
}

/// Whether EPA's depth and normal differ from SAT's (both present, the bodies overlapping):
/// depths relative to their size (at least 1), normals by the length of their difference.
fn depth_and_normal_differ(run: &Analysis3) -> (bool, bool) {
    let q = &run.query;
    match q.epa {
        Some(e) if q.sat.intersecting => (
            (e.depth - q.sat.depth).abs() > AGREEMENT * q.sat.depth.abs().max(1.0),
            (e.normal - q.sat.normal).length() > AGREEMENT,
        ),
        _ => (false, false),
    }
}

/// Sentences about where the algorithms disagree, and whether that is expected: worded as
/// the 2D Results panel words them.
pub fn disagreements(run: &Analysis3) -> Vec<String> {
    let q = &run.query;
    let mut out = Vec::new();
    let verdict = |intersecting: bool| {
        if intersecting {
            "intersecting"
        } else {
            "apart"
        }
    };
    if q.gjk.intersecting != q.sat.intersecting {
        out.push(format!(
            "GJK says {}, SAT says {}.",
            verdict(q.gjk.intersecting),
            verdict(q.sat.intersecting)
        ));
    }
    let (depth, normal) = depth_and_normal_differ(run);
    if depth {
        out.push("EPA and SAT depths differ.".into());
    }
    if normal && !depth {
        out.push(TIE.into());
    } else if normal {
        out.push("EPA and SAT normals differ.".into());
    }
    out
}

/// The note on a tie: EPA and SAT found the same depth along different normals.
pub const TIE: &str =
    "EPA and SAT chose different normals of the same depth: a tie, both are correct.";

#[cfg(test)]
mod tests {
    use super::*;

    use crate::app::analysis3::analyse_scene as run;

    fn row<'a>(rows: &'a [SideBySide], what: &str) -> &'a SideBySide {
        rows.iter().find(|r| r.what == what).unwrap()
    }

    #[test]
    fn a_tie_shows_both_normals_in_red_and_says_both_are_correct() {
        // Unit cubes, B at (0.9, 0, 0.9): overlaps of 0.1 in x and in z (the scene's notes).
        // SAT keeps A's x face, (1, 0, 0); EPA reaches the face of A - B along (0, 0, 1).
        let run = run("tie_sat_face_epa_normal.ron");
        let rows = side_by_side(&run);
        let depth = row(&rows, "depth");
        assert_eq!((depth.gjk_epa.as_str(), depth.sat.as_str()), ("0.1", "0.1"));
        assert!(!depth.differs);
        let normal = row(&rows, "normal (A to B)");
        assert_eq!(normal.gjk_epa, "(0, 0, 1)");
        assert_eq!(normal.sat, "(1, 0, 0)");
        assert!(normal.differs);
        assert_eq!(disagreements(&run), vec![TIE.to_string()]);
    }

    #[test]
    fn agreeing_depths_and_normals_raise_no_note() {
        // The scene's notes: 0.407107 deep along +y, by SAT and EPA alike.
        let run = run("epa_several_expansions.ron");
        let rows = side_by_side(&run);
        assert_eq!(row(&rows, "depth").gjk_epa, "0.4071");
        assert_eq!(row(&rows, "depth").sat, "0.4071");
        assert_eq!(row(&rows, "normal (A to B)").gjk_epa, "(0, 1, 0)");
        assert_eq!(
            row(&rows, "separation").sat,
            "-",
            "no separation when overlapping"
        );
        assert!(rows.iter().all(|r| !r.differs), "{rows:?}");
        assert!(disagreements(&run).is_empty());
    }

    #[test]
    fn apart_bodies_leave_the_depth_row_empty() {
        let run = run("gjk_separated_boxes.ron");
        let rows = side_by_side(&run);
        assert_eq!(row(&rows, "depth").gjk_epa, "-");
        assert_eq!(row(&rows, "depth").sat, "-");
        assert_eq!(row(&rows, "intersecting").gjk_epa, "false");
        assert!(disagreements(&run).is_empty());
    }
}
