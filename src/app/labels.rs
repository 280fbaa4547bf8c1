//! Where the canvas's labels go: one placer for the world view and the A - B inset. It is
//! pure geometry in screen pixels (y down), so it is tested without a window.
//!
//! Algorithm (greedy, most important label first):
//!   for each label, in order of importance (ties: the order they were asked for):
//!     1. try the preferred spot, then eight spots hugging the anchor (right, left, above,
//!        below, the diagonals); each spot is shifted inside the view;
//!     2. then spots further out, on rings around the anchor, joined to it by a leader line;
//!     3. the first spot that overlaps no placed label and no blocked area (legend, inset,
//!        caption) and crosses no drawn geometry wins; failing that, the allowed spot
//!        crossing the fewest pieces of geometry; failing that the label is dropped.
//!
//! A placed label is always wholly inside the view and never overlaps another label, so
//! no number is ever cut short by an edge. This is the classic point-feature labelling
//! heuristic (candidate positions around the anchor, greedy by priority), as in cartography
//! (Imhof's rules; Christensen, Marks and Shieber, "An empirical study of algorithms for
//! point-feature label placement", 1995).

use glam::Vec2;

/// An axis-aligned rectangle in screen pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub min: Vec2,
    pub max: Vec2,
}

impl Rect {
    pub fn new(min: Vec2, size: Vec2) -> Rect {
        Rect {
            min,
            max: min + size,
        }
    }

    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    /// Whether the interiors meet (rectangles that only share an edge do not overlap).
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.min.x < o.max.x && o.min.x < self.max.x && self.min.y < o.max.y && o.min.y < self.max.y
    }

    /// Whether `o` lies wholly inside (edges may touch).
    pub fn contains(&self, o: &Rect) -> bool {
        o.min.cmpge(self.min).all() && o.max.cmple(self.max).all()
    }

    pub fn contains_point(&self, p: Vec2) -> bool {
        p.cmpge(self.min).all() && p.cmple(self.max).all()
    }

    /// The point of the rectangle nearest to `p`.
    pub fn nearest(&self, p: Vec2) -> Vec2 {
        p.clamp(self.min, self.max)
    }

    /// This rectangle moved the least distance to lie inside `bounds`; `None` when it is
    /// larger than `bounds`.
    pub fn shifted_into(&self, bounds: &Rect) -> Option<Rect> {
        let size = self.size();
        if size.x > bounds.size().x || size.y > bounds.size().y {
            return None;
        }
        let min = self.min.clamp(bounds.min, bounds.max - size);
        Some(Rect::new(min, size))
    }

    /// Whether the segment `a..b` passes through the rectangle (Liang-Barsky clipping).
    pub fn crosses_segment(&self, a: Vec2, b: Vec2) -> bool {
        if !(a.is_finite() && b.is_finite()) {
            return false;
        }
        let d = b - a;
        let (mut t0, mut t1) = (0.0f32, 1.0f32);
        for (p, q) in [
            (-d.x, a.x - self.min.x),
            (d.x, self.max.x - a.x),
            (-d.y, a.y - self.min.y),
            (d.y, self.max.y - a.y),
        ] {
            if p == 0.0 {
                if q < 0.0 {
                    return false;
                }
            } else {
                let t = q / p;
                if p < 0.0 {
                    t0 = t0.max(t);
                } else {
                    t1 = t1.min(t);
                }
                if t0 > t1 {
                    return false;
                }
            }
        }
        true
    }
}

/// One label to place: the point it describes, where its author would like its top-left
/// corner (as an offset from the anchor), its size, and how much it matters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Label {
    pub anchor: Vec2,
    pub preferred: Vec2,
    pub size: Vec2,
    /// Larger is more important: placed first, dropped last.
    pub importance: u8,
}

/// What the labels must keep clear of, in one view.
#[derive(Clone, Debug, Default)]
pub struct Obstacles {
    /// Drawn lines (outlines, arrows, axes): a label may cross one only when no spot is free.
    pub segments: Vec<(Vec2, Vec2)>,
    /// Drawn marks (dots, rings, crosses): kept clear the same way.
    pub marks: Vec<Rect>,
    /// Areas no label may enter: the legend, the inset card, the caption.
    pub blocked: Vec<Rect>,
}

impl Obstacles {
    /// How many pieces of geometry `r` covers.
    fn hits(&self, r: &Rect) -> usize {
        let lines = self
            .segments
            .iter()
            .filter(|(a, b)| r.crosses_segment(*a, *b))
            .count();
        lines + self.marks.iter().filter(|m| m.overlaps(r)).count()
    }
}

/// Where one label went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Placement {
    Placed {
        rect: Rect,
        /// From the anchor to the label, when the label sits away from its anchor.
        leader: Option<(Vec2, Vec2)>,
    },
    /// No room: every spot overlapped a more important label or a blocked area.
    Dropped,
}

impl Placement {
    pub fn rect(&self) -> Option<Rect> {
        match self {
            Placement::Placed { rect, .. } => Some(*rect),
            Placement::Dropped => None,
        }
    }
}

/// The spacing the placer works with, in pixels: the gap between an anchor and its label.
#[derive(Clone, Copy, Debug)]
pub struct Spacing {
    pub gap: f32,
}

/// Places `labels` inside `bounds`, clear of `obstacles` and of each other. Returns one
/// placement per label, in the order given.
pub fn place(
    labels: &[Label],
    bounds: Rect,
    obstacles: &Obstacles,
    spacing: Spacing,
) -> Vec<Placement> {
    let mut order: Vec<usize> = (0..labels.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(labels[i].importance));
    let mut placed: Vec<Rect> = Vec::new();
    let mut soft = obstacles.clone();
    let mut out = vec![Placement::Dropped; labels.len()];
    for i in order {
        let label = &labels[i];
        if !label.anchor.is_finite() || !bounds.contains_point(label.anchor) {
            continue; // what it describes is off this view
        }
        if obstacles
            .blocked
            .iter()
            .any(|b| b.contains_point(label.anchor))
        {
            continue; // what it describes is hidden under the legend or the inset
        }
        let free = |r: &Rect| {
            !placed.iter().any(|p| p.overlaps(r))
                && !obstacles.blocked.iter().any(|b| b.overlaps(r))
        };
        let mut best: Option<(usize, Rect)> = None;
        for r in candidates(label, &bounds, spacing) {
            if !free(&r) {
                continue;
            }
            let hits = soft.hits(&r);
            if best.is_none_or(|(h, _)| hits < h) {
                best = Some((hits, r));
            }
            if hits == 0 {
                break;
            }
        }
        let Some((_, rect)) = best else {
            continue;
        };
        let leader = leader_for(label.anchor, &rect, spacing);
        if let Some(l) = leader {
            soft.segments.push(l);
        }
        placed.push(rect);
        out[i] = Placement::Placed { rect, leader };
    }
    out
}

/// The spots to try, best first, each already shifted inside `bounds`.
fn candidates(label: &Label, bounds: &Rect, spacing: Spacing) -> Vec<Rect> {
    let (a, s, g) = (label.anchor, label.size, spacing.gap);
    let around = |d: f32| {
        [
            Vec2::new(a.x + d, a.y - 0.5 * s.y),
            Vec2::new(a.x - d - s.x, a.y - 0.5 * s.y),
            Vec2::new(a.x - 0.5 * s.x, a.y - d - s.y),
            Vec2::new(a.x - 0.5 * s.x, a.y + d),
            Vec2::new(a.x + d, a.y - d - s.y),
            Vec2::new(a.x - d - s.x, a.y - d - s.y),
            Vec2::new(a.x + d, a.y + d),
            Vec2::new(a.x - d - s.x, a.y + d),
        ]
    };
    let mut spots = vec![a + label.preferred];
    spots.extend(around(g));
    for ring in [3.0, 6.0, 10.0, 16.0] {
        spots.extend(around(g * ring));
    }
    spots
        .into_iter()
        .filter_map(|min| Rect::new(min, s).shifted_into(bounds))
        .collect()
}

/// A leader line when the label ended up further from its anchor than a label hugging it.
fn leader_for(anchor: Vec2, rect: &Rect, spacing: Spacing) -> Option<(Vec2, Vec2)> {
    let near = rect.nearest(anchor);
    ((near - anchor).length() > 2.5 * spacing.gap).then_some((anchor, near))
}

/// Whether any two placed rectangles overlap or any leaves `bounds`: what the tests check.
pub fn violations(placed: &[Rect], bounds: &Rect) -> Vec<String> {
    let mut found = Vec::new();
    for (i, a) in placed.iter().enumerate() {
        if !bounds.contains(a) {
            found.push(format!(
                "label {i} {a:?} crosses the view's border {bounds:?}"
            ));
        }
        for (j, b) in placed.iter().enumerate().skip(i + 1) {
            if a.overlaps(b) {
                found.push(format!("labels {i} {a:?} and {j} {b:?} overlap"));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPACING: Spacing = Spacing { gap: 6.0 };

    fn view() -> Rect {
        Rect::new(Vec2::ZERO, Vec2::new(400.0, 300.0))
    }

    fn label(x: f32, y: f32, importance: u8) -> Label {
        Label {
            anchor: Vec2::new(x, y),
            preferred: Vec2::new(8.0, 8.0),
            size: Vec2::new(80.0, 18.0),
            importance,
        }
    }

    fn rects(p: &[Placement]) -> Vec<Rect> {
        p.iter().filter_map(Placement::rect).collect()
    }

    #[test]
    fn a_lone_label_takes_its_preferred_spot() {
        let p = place(
            &[label(100.0, 100.0, 1)],
            view(),
            &Obstacles::default(),
            SPACING,
        );
        assert_eq!(
            p[0],
            Placement::Placed {
                rect: Rect::new(Vec2::new(108.0, 108.0), Vec2::new(80.0, 18.0)),
                leader: None
            }
        );
    }

    #[test]
    fn labels_at_the_same_anchor_do_not_overlap() {
        let many: Vec<Label> = (0..6).map(|_| label(200.0, 150.0, 1)).collect();
        let p = place(&many, view(), &Obstacles::default(), SPACING);
        let r = rects(&p);
        assert_eq!(r.len(), 6, "room for all six around the anchor");
        assert!(
            violations(&r, &view()).is_empty(),
            "{:?}",
            violations(&r, &view())
        );
    }

    #[test]
    fn a_label_at_the_edge_is_shifted_inside_not_cut() {
        // The anchor is 5 px from the right edge: the preferred spot would leave the view.
        let p = place(
            &[label(395.0, 295.0, 1)],
            view(),
            &Obstacles::default(),
            SPACING,
        );
        let r = p[0].rect().unwrap();
        assert!(view().contains(&r), "{r:?}");
    }

    #[test]
    fn a_label_larger_than_the_view_is_dropped() {
        let mut l = label(10.0, 10.0, 1);
        l.size = Vec2::new(500.0, 10.0);
        assert_eq!(
            place(&[l], view(), &Obstacles::default(), SPACING)[0],
            Placement::Dropped
        );
    }

    #[test]
    fn labels_keep_clear_of_drawn_lines_when_they_can() {
        // A line right where the preferred spot is (y = 117, across the view).
        let obstacles = Obstacles {
            segments: vec![(Vec2::new(0.0, 117.0), Vec2::new(400.0, 117.0))],
            ..Obstacles::default()
        };
        let p = place(&[label(100.0, 100.0, 1)], view(), &obstacles, SPACING);
        let r = p[0].rect().unwrap();
        assert!(
            !r.crosses_segment(Vec2::new(0.0, 117.0), Vec2::new(400.0, 117.0)),
            "{r:?}"
        );
    }

    #[test]
    fn blocked_areas_are_never_entered_and_hidden_anchors_drop() {
        // The legend covers the right half.
        let legend = Rect::new(Vec2::new(200.0, 0.0), Vec2::new(200.0, 300.0));
        let obstacles = Obstacles {
            blocked: vec![legend],
            ..Obstacles::default()
        };
        let p = place(
            &[label(190.0, 100.0, 1), label(250.0, 100.0, 1)],
            view(),
            &obstacles,
            SPACING,
        );
        assert!(!p[0].rect().unwrap().overlaps(&legend));
        assert_eq!(p[1], Placement::Dropped, "its anchor is under the legend");
    }

    #[test]
    fn when_crowded_a_leader_line_joins_a_label_placed_further_out() {
        // Marks fill a 60 px box around the anchor: the label must go beyond them.
        let obstacles = Obstacles {
            marks: vec![Rect::new(Vec2::new(100.0, 100.0), Vec2::new(120.0, 100.0))],
            ..Obstacles::default()
        };
        let p = place(&[label(160.0, 150.0, 1)], view(), &obstacles, SPACING);
        match p[0] {
            Placement::Placed { rect, leader } => {
                assert!(!rect.overlaps(&obstacles.marks[0]));
                let (from, to) = leader.expect("a leader line");
                assert_eq!(from, Vec2::new(160.0, 150.0));
                assert_eq!(to, rect.nearest(from));
            }
            Placement::Dropped => panic!("there is room further out"),
        }
    }

    #[test]
    fn the_least_important_label_is_dropped_first() {
        // A view just big enough for one label.
        let tiny = Rect::new(Vec2::ZERO, Vec2::new(90.0, 20.0));
        let p = place(
            &[label(10.0, 10.0, 1), label(20.0, 10.0, 5)],
            tiny,
            &Obstacles::default(),
            SPACING,
        );
        assert_eq!(p[0], Placement::Dropped);
        assert!(p[1].rect().is_some());
    }

    #[test]
    fn segments_crossing_and_missing_a_rectangle() {
        let r = Rect::new(Vec2::new(10.0, 10.0), Vec2::new(10.0, 10.0));
        assert!(r.crosses_segment(Vec2::new(0.0, 15.0), Vec2::new(30.0, 15.0)));
        assert!(
            r.crosses_segment(Vec2::new(12.0, 12.0), Vec2::new(13.0, 13.0)),
            "inside"
        );
        assert!(!r.crosses_segment(Vec2::new(0.0, 0.0), Vec2::new(30.0, 5.0)));
        assert!(!r.crosses_segment(Vec2::new(0.0, 25.0), Vec2::new(30.0, 25.0)));
        assert!(!r.crosses_segment(Vec2::NAN, Vec2::ZERO));
    }

    #[test]
    fn non_finite_anchors_are_dropped_not_placed() {
        let mut l = label(0.0, 0.0, 1);
        l.anchor = Vec2::new(f32::NAN, 3.0);
        assert_eq!(
            place(&[l], view(), &Obstacles::default(), SPACING)[0],
            Placement::Dropped
        );
    }
}
