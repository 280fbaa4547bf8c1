//! The Results panel in 3D: every algorithm's numbers for the focused pair side by side
//! (SAT, GJK, EPA, the manifold, the sweep), disagreements in red. It reads the analysis
//! the canvas draws and the timeline tells, so the three say the same.

use crate::app::analysis3::Analysis3;
use crate::app::session::Session;
use crate::app::state3::Document3;
use crate::query3::sat::AxisId;
use crate::text::{readable, readable_vector};
use egui_macroquad::egui;
use egui_macroquad::egui::Color32;
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

fn axis_words(id: AxisId) -> String {
    match id {
        AxisId::FaceA(i) => format!("face {i} of A"),
        AxisId::FaceB(j) => format!("face {j} of B"),
        AxisId::Edges(i, j) => format!("edge {i} of A × edge {j} of B"),
        AxisId::Closest => "between the cores' closest points".into(),
    }
}

/// The rows of the grid: (what, value).
pub fn rows(run: &Analysis3) -> Vec<(String, String)> {
    let q = &run.query;
    let mut out = vec![
        ("SAT".into(), q.sat.status.key().replace('_', " ")),
        ("SAT axis".into(), axis_words(q.sat.axis)),
        ("SAT normal".into(), v(q.sat.normal)),
    ];
    if q.sat.intersecting {
        out.push(("SAT depth".into(), readable(q.sat.depth)));
    } else {
        out.push((
            "SAT separation (a lower bound of the distance)".into(),
            readable(q.sat.separation),
        ));
    }
    out.push((
        "SAT axes".into(),
        format!(
            "{} tested, {} pairs skipped",
            q.sat.axes_tested, q.sat.axes_pruned
        ),
    ));
    out.push(("GJK".into(), q.gjk.status.in_words().into()));
    out.push(("GJK distance".into(), readable(q.gjk.distance)));
    if let (Some(ca), Some(cb)) = (q.gjk.closest_a, q.gjk.closest_b) {
        out.push(("closest on A".into(), v(ca)));
        out.push(("closest on B".into(), v(cb)));
    }
    if let Some(e) = q.epa {
        out.push(("EPA depth".into(), readable(e.depth)));
        out.push(("EPA normal".into(), v(e.normal)));
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

/// Where two algorithms that should agree do not.
pub fn disagreements(run: &Analysis3) -> Vec<String> {
    let q = &run.query;
    let mut out = Vec::new();
    if q.sat.intersecting != q.gjk.intersecting {
        out.push(format!(
            "SAT says {}, GJK says {}",
            if q.sat.intersecting {
                "touching or overlapping"
            } else {
                "apart"
            },
            if q.gjk.intersecting {
                "touching or overlapping"
            } else {
                "apart"
            },
        ));
    }
    if let Some(e) = q.epa {
        if q.sat.intersecting && (e.depth - q.sat.depth).abs() > AGREEMENT {
            out.push(format!(
                "depths differ: SAT {}, EPA {}",
                readable(q.sat.depth),
                readable(e.depth)
            ));
        }
        if q.sat.intersecting && (e.normal - q.sat.normal).length() > AGREEMENT {
            out.push(format!(
                "normals differ: SAT {}, EPA {} (several axes may tie on depth)",
                v(q.sat.normal),
                v(e.normal)
            ));
        }
    }
    out
}
