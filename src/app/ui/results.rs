//! The Results panel: every algorithm's numbers for the focused pair side by side, with
//! disagreements highlighted.

use crate::app::analysis::Analysis;
use crate::app::labs::{num, vec_str};
use crate::app::session::Session;
use crate::app::ui::results3::{side_by_side_rows, SideBySide, NORMAL_ROW};
use crate::query::sweep::SweepStatus;
use egui_macroquad::egui;
use egui_macroquad::egui::Color32;

/// Depths or normals further apart than this disagree.
const AGREEMENT: f32 = 1.0e-3;

const WARN: Color32 = Color32::from_rgb(185, 28, 28);

pub fn show(ui: &mut egui::Ui, session: &mut Session) {
    ui.heading("Results");
    // Panels drawn earlier this frame may have edited the document (a body deleted from
    // the menu): bring the analysis up to date before indexing bodies with it.
    session.refresh();
    let Some(run) = session.run() else {
        ui.label("No focused pair: add two bodies.");
        return;
    };
    let doc = &session.doc;
    ui.label(format!(
        "A = {}, B = {}",
        doc.bodies[run.a].name, doc.bodies[run.b].name
    ));
    // In a narrow panel the cells wrap at spaces (a vector breaks after its comma) rather
    // than widen the panel or run past its edge: numbers change width while dragging, the
    // panel must not jump, and a number cut at the edge would read as another number.
    side_by_side_rows(ui, "results", side_by_side(run));
    statuses(ui, run);
    manifold_and_sweep(ui, run);
    for note in disagreements(run) {
        ui.colored_label(WARN, format!("\u{26a0} {note}"));
    }
    if ui
        .button("Copy full precision")
        .on_hover_text("every number above with all its digits, to the clipboard")
        .clicked()
    {
        ui.ctx().copy_text(full_precision(run));
    }
}

/// The Results as text with every digit an `f32` holds (the shortest decimal that reads
/// back to the same number), for pasting into a bug report or a scene's `expect` block.
pub fn full_precision(run: &Analysis) -> String {
    let q = &run.query;
    let v = |p: glam::Vec2| format!("({}, {})", p.x, p.y);
    let mut out = format!(
        "GJK: intersecting {}, distance {}, iterations {}, status {}\n",
        q.gjk.intersecting,
        q.gjk.distance,
        q.gjk.iterations,
        q.gjk.status.as_str()
    );
    if let (Some(a), Some(b)) = (q.gjk.closest_a, q.gjk.closest_b) {
        out += &format!(
            "GJK closest points (one pair): {} on A, {} on B\n",
            v(a),
            v(b)
        );
    }
    if let Some(e) = q.epa {
        out += &format!(
            "EPA: depth {}, normal {}, iterations {}, status {}\n",
            e.depth,
            v(e.normal),
            e.iterations,
            e.status.as_str()
        );
    }
    let s = &q.sat;
    out += &format!(
        "SAT: intersecting {}, depth {}, separation {}, normal {}\n",
        s.intersecting,
        s.depth.map_or("-".into(), |d| d.to_string()),
        s.separation.map_or("-".into(), |d| d.to_string()),
        v(s.normal)
    );
    if let Some(m) = &q.manifold {
        for c in m.points() {
            out += &format!("contact: {} depth {}\n", v(c.point), c.depth);
        }
    }
    if let Some(w) = &q.sweep {
        let t = |x: Option<f32>| x.map_or("-".into(), |x| x.to_string());
        out += &format!(
            "sweep: {}, t_first {}, t_last {}, normal {}\n",
            w.status.as_str(),
            t(w.t_first),
            t(w.t_last),
            v(w.normal)
        );
    }
    out
}

/// What SAT's separation is in 2D, on the row's hover.
pub const SEPARATION_TIP: &str = "SAT's separation: the widest gap between the bodies' \
    projections on one tested axis (the edge normals, and with a circle or capsule the axes \
    from its core toward the other's). A lower bound of the distance, equal to it when the \
    closest features are a vertex and an edge, or when a circle or capsule is one of the \
    pair; less when they are two corners of polygons.";

/// The table's rows: GJK's and EPA's numbers beside SAT's, each under its own name (SAT's
/// separation is not a distance: see [`SEPARATION_TIP`]).
pub fn side_by_side(run: &Analysis) -> Vec<SideBySide> {
    let q = &run.query;
    let (depth_differs, normal_differs) = depth_and_normal_differ(run);
    let row = |what, gjk_epa, sat, differs| SideBySide {
        what,
        tip: "",
        gjk_epa,
        sat,
        differs,
    };
    let epa_iters = q
        .epa
        .map_or(String::new(), |e| format!(" / {}", e.iterations));
    vec![
        row(
            "intersecting",
            q.gjk.intersecting.to_string(),
            q.sat.intersecting.to_string(),
            q.gjk.intersecting != q.sat.intersecting,
        ),
        row("distance", num(q.gjk.distance), "-".into(), false),
        SideBySide {
            tip: SEPARATION_TIP,
            ..row(
                "separation",
                "-".into(),
                q.sat.separation.map_or("-".into(), num),
                false,
            )
        },
        row(
            "depth",
            q.epa.map_or("-".into(), |e| num(e.depth)),
            q.sat.depth.map_or("-".into(), num),
            depth_differs,
        ),
        row(
            NORMAL_ROW,
            q.epa.map_or("-".into(), |e| vec_str(e.normal)),
            vec_str(q.sat.normal),
            normal_differs,
        ),
        row(
            "iterations",
            format!("{}{epa_iters}", q.gjk.iterations),
            format!("{} axes", q.sat.axes_tested),
            false,
        ),
        row(
            "best axis",
            "-".into(),
            crate::query::explain::axis_short_name(q.sat.axis),
            false,
        ),
    ]
}

/// How each loop ended, in words, under the table: one wrapped line each, so the table
/// keeps its width.
fn statuses(ui: &mut egui::Ui, run: &Analysis) {
    let q = &run.query;
    ui.label(format!("GJK {}.", q.gjk.status.in_words()));
    if let Some(e) = q.epa {
        ui.label(format!("EPA {}.", e.status.in_words()));
    }
}

fn manifold_and_sweep(ui: &mut egui::Ui, run: &Analysis) {
    let q = &run.query;
    ui.add_space(4.0);
    match &q.manifold {
        Some(m) => {
            ui.strong(format!(
                "Clipping: {} contact point(s), normal {}",
                m.count,
                vec_str(m.normal)
            ));
            for (k, c) in m.points().iter().enumerate() {
                ui.monospace(format!(
                    "  {k}: {}  depth {}",
                    vec_str(c.point),
                    num(c.depth)
                ));
            }
        }
        None => {
            ui.label("Clipping: no contact (the shapes are apart).");
        }
    }
    match &q.sweep {
        Some(s) => {
            let t = |v: Option<f32>| v.map_or("-".into(), num);
            ui.strong(format!(
                "Sweep: {}, t_first {}, t_last {}",
                s.status.in_words(),
                t(s.t_first),
                t(s.t_last)
            ));
            if s.hit {
                ui.monospace(format!(
                    "  normal {}, {} axes",
                    vec_str(s.normal),
                    s.axes_tested
                ));
            }
        }
        None => {
            ui.label("Sweep: neither body has a velocity.");
        }
    }
}

fn depth_and_normal_differ(run: &Analysis) -> (bool, bool) {
    let q = &run.query;
    match (q.epa, q.sat.depth) {
        (Some(e), Some(d)) => (
            (e.depth - d).abs() > AGREEMENT * d.abs().max(1.0),
            (e.normal - q.sat.normal).length() > AGREEMENT,
        ),
        _ => (false, false),
    }
}

/// Sentences about where the algorithms disagree, and whether that is expected.
fn disagreements(run: &Analysis) -> Vec<String> {
    let q = &run.query;
    let mut out = Vec::new();
    if q.gjk.intersecting != q.sat.intersecting {
        out.push(format!(
            "GJK says {}, SAT says {}.",
            if q.gjk.intersecting {
                "intersecting"
            } else {
                "apart"
            },
            if q.sat.intersecting {
                "intersecting"
            } else {
                "apart"
            }
        ));
    }
    if let Some(sweep) = &q.sweep {
        // At t = 0 the sweep sees the same shapes GJK does.
        let overlapping_at_zero = sweep.status == SweepStatus::InitiallyOverlapping;
        // Touching pairs are left out: there the two may round either way.
        let deep = q.gjk.intersecting && q.epa.is_some_and(|e| e.depth > AGREEMENT);
        if (overlapping_at_zero && !q.gjk.intersecting) || (!overlapping_at_zero && deep) {
            out.push(format!(
                "The sweep finds the shapes {} at t = 0, GJK {}.",
                if overlapping_at_zero {
                    "overlapping"
                } else {
                    "apart"
                },
                if q.gjk.intersecting {
                    "intersecting"
                } else {
                    "apart"
                }
            ));
        }
    }
    let (depth, normal) = depth_and_normal_differ(run);
    if depth {
        out.push("EPA and SAT depths differ.".into());
    }
    if normal && !depth {
        out.push(
            "EPA and SAT chose different normals of the same depth: a tie, both are correct."
                .into(),
        );
    } else if normal {
        out.push("EPA and SAT normals differ.".into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::state::Document;

    #[test]
    fn copy_full_precision_keeps_every_digit_the_table_rounds() {
        let doc = Document::load(std::path::Path::new("scenes/thin_sliver.ron")).unwrap();
        let session = Session::new(doc);
        let run = session.run().unwrap();
        let e = run.query.epa.unwrap();
        let text = full_precision(run);
        // The table shows 0.1006 and -0.00025; the copy has the f32's shortest round trip.
        assert!(text.contains(&format!("depth {}", e.depth)), "{text}");
        assert!(
            text.contains(&format!("({}, {})", e.normal.x, e.normal.y)),
            "{text}"
        );
        assert!(e.depth.to_string().len() > "0.1006".len(), "{}", e.depth);
        assert!(text.contains("status converged"), "JSON-style keys: {text}");
    }

    /// Issue 39: SAT's separation was shown in the "distance" row. Two unit boxes apart
    /// corner to corner (B at (3, 3)): the closest features are the corners (1, 1) and
    /// (2, 2), so the distance is sqrt(2) = 1.4142, while SAT's widest gap on an edge
    /// normal is 2 - 1 = 1: a lower bound, strictly less. Each has its own row.
    #[test]
    fn separation_and_distance_have_their_own_rows_when_they_differ() {
        let doc = Document::parse(
            "(version: 1, bodies: [(name: \"a\", shape: Box(half_extents: (1, 1))), \
             (name: \"b\", shape: Box(half_extents: (1, 1)), position: (3, 3))])",
            "corners.ron",
        )
        .unwrap();
        let session = Session::new(doc);
        let rows = side_by_side(session.run().unwrap());
        let row = |what: &str| rows.iter().find(|r| r.what == what).unwrap();
        assert_eq!(
            (
                row("distance").gjk_epa.as_str(),
                row("distance").sat.as_str()
            ),
            ("1.4142", "-")
        );
        assert_eq!(
            (
                row("separation").gjk_epa.as_str(),
                row("separation").sat.as_str()
            ),
            ("-", "1")
        );
        assert!(row("separation").tip.contains("lower bound"));
        assert!(rows.iter().all(|r| !r.differs), "no false alarm");
    }

    /// Issue 39: at UI scale 1.5 the panel showed "intersectin / g" and "normal (A / to B)".
    /// At the panel's widths at 1280 px and scales 1, 1.5 and 2, no text of the 2D Results
    /// panel is cut inside a word or a number (far coordinates: the longest numbers).
    #[test]
    fn no_word_of_the_panel_is_cut_at_projector_widths() {
        use crate::app::ui::results3::{words_cut_at, PANEL_WIDTHS};
        for scene in [
            "welcome.ron",
            "far_coordinates.ron",
            "thin_sliver.ron",
            "sweep_hit.ron",
        ] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("scenes")
                .join(scene);
            let mut session = Session::new(Document::load(&path).unwrap());
            for width in PANEL_WIDTHS {
                let cut = words_cut_at(width, |ui| show(ui, &mut session));
                assert!(cut.is_empty(), "{scene} at {width} points: {cut:?}");
            }
        }
    }

    /// The separation's tip said SAT's widest gap is "on one edge normal" and less than the
    /// distance between two vertices. With a circle SAT also tests the axes from core
    /// vertices toward the other core, and finds the distance: a unit box and a ball of
    /// radius 0.5 at (2, 2), beyond the corner (1, 1): sqrt(2) - 0.5 = 0.9142 both, while
    /// the edge normals alone would give 2 - 0.5 - 1 = 0.5.
    #[test]
    fn with_a_circle_the_separation_is_the_distance_and_the_tip_says_so() {
        let doc = Document::parse(
            "(version: 1, bodies: [(name: \"a\", shape: Box(half_extents: (1, 1))), \
             (name: \"b\", shape: Circle(radius: 0.5), position: (2, 2))])",
            "corner_ball.ron",
        )
        .unwrap();
        let session = Session::new(doc);
        let rows = side_by_side(session.run().unwrap());
        let row = |what: &str| rows.iter().find(|r| r.what == what).unwrap();
        assert_eq!(row("distance").gjk_epa, "0.9142");
        assert_eq!(row("separation").sat, "0.9142");
        assert!(row("best axis").sat.starts_with("vertex"), "{rows:?}");
        assert!(row("separation").tip.contains("circle or capsule"));
        assert!(!row("separation").tip.contains("on one edge normal"));
    }
}
