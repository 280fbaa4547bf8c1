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
    side_by_side_rows(ui, "results3-side-by-side", side_by_side(run));
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
    projections on one tested axis (face normals, edge x edge, and with a sphere or capsule \
    the direction between the cores' closest points). A lower bound of the distance, equal to \
    it when the closest features are a vertex and a face or two edges, or when a sphere or \
    capsule is one of the pair; less when they are two vertices or a vertex and an edge of \
    polyhedra.";

/// The side-by-side table under its header (GJK / EPA, SAT), a disagreement in red, a row's
/// meaning on hover; the 2D and 3D Results panels share it. Its shape follows the panel's
/// width ([`table_shape`]) so that no word and no number is cut in the middle: a projector's
/// UI scale of 2 leaves a panel about 140 points wide.
pub fn side_by_side_rows(ui: &mut egui::Ui, id: &str, rows: Vec<SideBySide>) {
    let gap = ui.spacing().item_spacing.x;
    let widths = measure(ui, &rows);
    match table_shape(ui.available_width(), gap, widths) {
        TableShape::Columns { name, value } => {
            egui::Grid::new(id)
                .striped(true)
                .num_columns(3)
                .min_col_width(0.0)
                .max_col_width(name.max(value))
                .show(ui, |ui| {
                    cell(ui, name, RichText::new(""));
                    header(ui, value);
                    ui.end_row();
                    for row in rows {
                        let tip = row.tip;
                        let said = cell(ui, name, RichText::new(row.what));
                        if !tip.is_empty() {
                            said.on_hover_text(tip);
                        }
                        values(ui, value, row);
                        ui.end_row();
                    }
                });
        }
        TableShape::Stacked { value } => {
            ui.horizontal_top(|ui| {
                ui.add_space(STACKED_INDENT);
                header(ui, value);
            });
            for row in rows {
                let said = ui.label(row.what);
                if !row.tip.is_empty() {
                    said.on_hover_text(row.tip);
                }
                ui.horizontal_top(|ui| {
                    ui.add_space(STACKED_INDENT);
                    values(ui, value, row);
                });
            }
        }
    }
}

/// In the stacked table, how far the values sit right of their row's name, so that a name
/// and a value do not read as one column.
const STACKED_INDENT: f32 = 12.0;

/// The normal's row name; "(A to B)" kept on one line (non-breaking spaces), as "normal (A"
/// above "to B)" reads as two things.
pub const NORMAL_ROW: &str = "normal (A\u{a0}to\u{a0}B)";

/// The two column headers, each `width` wide.
fn header(ui: &mut egui::Ui, width: f32) {
    cell(ui, width, RichText::new("GJK / EPA").strong());
    cell(ui, width, RichText::new("SAT").strong());
}

/// A row's two values, each `width` wide, in red when they disagree.
fn values(ui: &mut egui::Ui, width: f32, row: SideBySide) {
    for text in [row.gjk_epa, row.sat] {
        let t = RichText::new(text).monospace();
        cell(
            ui,
            width,
            if row.differs {
                t.color(WARN).strong()
            } else {
                t
            },
        );
    }
}

/// One cell exactly `width` wide, its text wrapped at spaces inside it.
fn cell(ui: &mut egui::Ui, width: f32, text: RichText) -> egui::Response {
    let top_down = egui::Layout::top_down(egui::Align::Min);
    ui.allocate_ui_with_layout(egui::vec2(width, 0.0), top_down, |ui| {
        ui.set_min_width(width);
        ui.add(egui::Label::new(text).wrap())
    })
    .inner
}

/// The side-by-side table's layout in a panel: three columns, or each row's name on a line of
/// its own above its two values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TableShape {
    /// The names' column `name` wide, the two values' columns `value` wide each.
    Columns { name: f32, value: f32 },
    /// The panel cannot hold a name's longest word beside two values: the name above, the
    /// values' two columns `value` wide each below it.
    Stacked { value: f32 },
}

/// What the table's texts need, in points (measured with the panel's fonts).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextWidths {
    /// The widest row name on one line ("normal (A to B)").
    pub name: f32,
    /// The widest word of a row name ("intersecting"): a narrower column cuts it.
    pub name_word: f32,
    /// The widest piece of a value or a header between spaces ("-0.3579)"): a narrower
    /// column cuts a number.
    pub value_word: f32,
}

/// Three columns when a name's longest word and two values' longest pieces fit side by side
/// in `width` (with `gap` between columns); the names' column then grows to hold a whole
/// name on one line when the values can spare it, and the values share the rest. Otherwise
/// stacked, the two values sharing the width.
pub fn table_shape(width: f32, gap: f32, need: TextWidths) -> TableShape {
    let value_room = |name: f32| (width - name - 2.0 * gap) / 2.0;
    if value_room(need.name_word) < need.value_word {
        return TableShape::Stacked {
            value: (width - STACKED_INDENT - 2.0 * gap) / 2.0,
        };
    }
    let name = need
        .name
        .min(width - 2.0 * (need.value_word + gap))
        .max(need.name_word);
    TableShape::Columns {
        name,
        value: value_room(name),
    }
}

/// The widths the table's texts need in `ui`'s fonts.
fn measure(ui: &egui::Ui, rows: &[SideBySide]) -> TextWidths {
    let body = egui::TextStyle::Body.resolve(ui.style());
    let mono = egui::TextStyle::Monospace.resolve(ui.style());
    let wide = |text: &str, font: &egui::FontId| {
        ui.fonts(|f| {
            f.layout_no_wrap(text.to_owned(), font.clone(), Color32::BLACK)
                .size()
                .x
        })
    };
    let widest = |texts: &mut dyn Iterator<Item = &str>, font: &egui::FontId| {
        texts.map(|t| wide(t, font)).fold(0.0, f32::max)
    };
    let names = || rows.iter().map(|r| r.what);
    let values = rows
        .iter()
        .flat_map(|r| [r.gjk_epa.as_str(), r.sat.as_str()]);
    // Headers are strong (a heavier body font): measured in the body font with a margin,
    // and whole ("GJK / EPA" on two lines would crowd the first row).
    let headers = wide("GJK / EPA", &body) * 1.1;
    TextWidths {
        name: widest(&mut names(), &body),
        name_word: widest(&mut names().flat_map(|n| n.split(' ')), &body),
        value_word: widest(&mut values.flat_map(|v| v.split(' ')), &mono).max(headers),
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
            NORMAL_ROW,
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

/// Every text `draw` lays out in a panel `width` points wide, as its rows (the text of each
/// line it wraps into): laid out headless with egui's own fonts, after a few frames (a grid
/// sizes its columns from the frame before).
#[cfg(test)]
pub(crate) fn rows_at(width: f32, mut draw: impl FnMut(&mut egui::Ui)) -> Vec<Vec<String>> {
    use egui::epaint::Shape;
    let ctx = egui::Context::default();
    // The central panel's margin is 8 points each side.
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(width + 16.0, 4000.0));
    let mut shapes = Vec::new();
    for _ in 0..3 {
        let input = egui::RawInput {
            screen_rect: Some(screen),
            ..Default::default()
        };
        let out = ctx.run(input, |ctx| {
            egui::CentralPanel::default().show(ctx, |ui| draw(ui));
        });
        shapes = out.shapes.into_iter().map(|c| c.shape).collect::<Vec<_>>();
    }
    let mut texts = Vec::new();
    while let Some(shape) = shapes.pop() {
        match shape {
            Shape::Vec(inner) => shapes.extend(inner),
            Shape::Text(text) => texts.push(text.galley.rows.iter().map(|r| r.text()).collect()),
            _ => {}
        }
    }
    texts
}

/// The words a panel `width` points wide cuts in the middle: every text row of `draw`
/// ([`rows_at`]) that wraps between two letters or digits, as "intersectin|g".
#[cfg(test)]
pub(crate) fn words_cut_at(width: f32, draw: impl FnMut(&mut egui::Ui)) -> Vec<String> {
    let mut cut = Vec::new();
    for rows in rows_at(width, draw) {
        for pair in rows.windows(2) {
            let (end, start) = (pair[0].chars().last(), pair[1].chars().next());
            if let (Some(end), Some(start)) = (end, start) {
                if end.is_alphanumeric() && start.is_alphanumeric() {
                    cut.push(format!("{}|{}", pair[0], pair[1]));
                }
            }
        }
    }
    cut
}

/// The Results panel's content width at 1280 px and UI scale 1, 1.5 and 2 (the right panel
/// takes a quarter of the window, at least 150 points, less its margins and scroll bar),
/// and at the panel's narrowest.
#[cfg(test)]
pub(crate) const PANEL_WIDTHS: [f32; 4] = [294.0, 187.0, 134.0, 124.0];

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
        let normal = row(&rows, NORMAL_ROW);
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
        assert_eq!(row(&rows, NORMAL_ROW).gjk_epa, "(0, 1, 0)");
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

    /// Issue 39: at UI scale 1.5 the table showed "intersectin / g"; at 2 its header "SAT"
    /// stood one letter a line. At every projector width, no text of the panel is cut
    /// inside a word or a number.
    #[test]
    fn no_word_of_the_panel_is_cut_at_projector_widths() {
        for scene in [
            "welcome.ron",
            "far_coordinates.ron",
            "round_capsules_crossing.ron",
        ] {
            let path = format!("{}/scenes/3d/{scene}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            let (meta, bodies) = crate::scene::parse_scene3(&text, scene).unwrap();
            let session = Session::new(Document3::from_parts(meta, bodies));
            for width in PANEL_WIDTHS {
                let cut = words_cut_at(width, |ui| show(ui, &session));
                assert!(cut.is_empty(), "{scene} at {width} points: {cut:?}");
            }
        }
    }

    #[test]
    fn the_table_keeps_three_columns_when_they_fit_and_stacks_when_not() {
        // Measured at scale 1 (egui's default fonts): "normal (A to B)" 86 points,
        // "intersecting" 66, "(0.9338," 58 in monospace; 8 points between columns.
        let need = TextWidths {
            name: 86.0,
            name_word: 66.0,
            value_word: 58.0,
        };
        // 294 wide: the whole name fits (86), the values share 294 - 86 - 16 = 192.
        assert_eq!(
            table_shape(294.0, 8.0, need),
            TableShape::Columns {
                name: 86.0,
                value: 96.0
            }
        );
        // 200 wide: the values need 2 x (58 + 8) = 132, leaving 68 for the name: it wraps
        // at its spaces, its longest word (66) still whole.
        assert_eq!(
            table_shape(200.0, 8.0, need),
            TableShape::Columns {
                name: 68.0,
                value: 58.0
            }
        );
        // 187 wide: 66 + 2 x (58 + 8) = 198 does not fit: stacked, the values sharing
        // 187 - 12 (indent) - 16 = 159.
        assert_eq!(
            table_shape(187.0, 8.0, need),
            TableShape::Stacked { value: 79.5 }
        );
    }

    /// The check above can fail: a word wider than its column is cut, and seen cut.
    #[test]
    fn a_word_wider_than_its_column_is_seen_cut() {
        let cut = words_cut_at(40.0, |ui| {
            ui.add(egui::Label::new("intersecting").wrap());
        });
        assert_eq!(cut.len(), 1, "{cut:?}");
        assert!(words_cut_at(120.0, |ui| {
            ui.add(egui::Label::new("intersecting").wrap());
        })
        .is_empty());
    }

    /// The 3D separation's tip named only face normals and edge x edge axes. With a sphere
    /// SAT tests the direction between the cores' closest points and finds the distance:
    /// a unit cube (half 0.5) and a ball of radius 0.5 at (2, 2, 2), beyond the corner
    /// (0.5, 0.5, 0.5): sqrt(3 x 1.5^2) - 0.5 = 2.0981 both, while a face normal alone
    /// gives 2 - 0.5 - 0.5 = 1.
    #[test]
    fn with_a_sphere_the_separation_is_the_distance_and_the_tip_says_so() {
        let text = "(version: 1, dimensions: 3, bodies: [\
            (name: \"a\", shape: Cuboid(half_extents: (0.5, 0.5, 0.5))), \
            (name: \"b\", shape: Sphere(radius: 0.5), position: (2, 2, 2))])";
        let (meta, bodies) = crate::scene::parse_scene3(text, "corner_ball.ron").unwrap();
        let doc = Document3::from_parts(meta, bodies);
        let run = Analysis3::run(&doc, &Default::default()).unwrap();
        let rows = side_by_side(&run);
        assert_eq!(row(&rows, "distance").gjk_epa, "2.0981");
        assert_eq!(row(&rows, "separation").sat, "2.0981");
        assert!(row(&rows, "separation").tip.contains("sphere or capsule"));
    }

    /// Issue 39: the row name read "normal (A" above "to B)". Wherever the names' column
    /// is too narrow for the whole name, it breaks before "(A to B)", never inside it.
    #[test]
    fn the_normal_s_row_name_keeps_a_to_b_together() {
        let run = run("welcome.ron");
        for width in (180..=320).step_by(4).map(|w| w as f32) {
            for rows in rows_at(width, |ui| side_by_side_rows(ui, "t", side_by_side(&run))) {
                if rows.concat().starts_with("normal") {
                    let split = rows.iter().any(|r| r.trim_end().ends_with("(A"));
                    assert!(!split, "{width}: {rows:?}");
                }
            }
        }
    }
}
