//! Teaching sentences for every recorded step: the window's timeline and the `trace`
//! command print the same text. Numbers are rounded for reading.

use super::clip::{ClipStage, ClipStep};
use super::epa::{EpaStatus, EpaStep};
use super::gjk::{GjkStatus, GjkStep, OriginPlace, VoronoiRegion};
use super::sat::{AxisSource, SatAxis};
use super::sweep::{SweepAxis, SweepStep};
use crate::text::{readable, readable_pair};
use glam::Vec2;

/// A recorded step that can say what it did in a sentence. Each step type's inherent
/// `explain` is the text; this trait lets [`super::pair::PairTrace`] reach any of them through
/// one `match` over [`super::Algorithm`].
pub trait Explain {
    fn explain(&self) -> String;
}

macro_rules! explained_by_inherent_method {
    ($($step:ty),*) => {
        $(impl Explain for $step {
            fn explain(&self) -> String {
                <$step>::explain(self)
            }
        })*
    };
}

explained_by_inherent_method!(GjkStep, EpaStep, SatAxis, ClipStep, SweepStep);

/// A number in a sentence: the product's one readable form (four decimals, at least four
/// significant digits, infinities in words), as in the window's panels and labels.
fn n(x: f32) -> String {
    readable(x)
}

fn v(p: Vec2) -> String {
    readable_pair(p.x, p.y)
}

fn region_text(region: VoronoiRegion, before: usize) -> String {
    match region {
        VoronoiRegion::Vertex(_) if before == 1 => "The simplex is a single point of A - B".into(),
        VoronoiRegion::Vertex(i) => format!(
            "The origin lies in the Voronoi region of vertex {i} of the {}, so the simplex shrinks to that one point",
            if before == 2 { "segment" } else { "triangle" }
        ),
        VoronoiRegion::Edge(i, j) => format!(
            "The origin lies in the Voronoi region of edge {i}-{j}{}, so the simplex keeps that edge and the closest point is the origin's projection onto it",
            if before == 3 { " of the triangle" } else { "" }
        ),
        VoronoiRegion::Inside => "The origin lies inside the triangle".into(),
    }
}

impl GjkStep {
    /// What happened at this GJK iteration and why.
    pub fn explain(&self) -> String {
        let before = self.candidate.len;
        let mut text = format!(
            "Iteration {}. {}",
            self.iteration,
            region_text(self.region, before)
        );
        if self.region == VoronoiRegion::Inside {
            text += ": A - B contains the origin, so the shapes overlap. GJK stops; EPA takes this triangle and finds the depth.";
            return text;
        }
        text += &format!(
            "; it is {} from the origin (point {}).",
            n(self.distance),
            v(self.closest)
        );
        match (self.direction, self.support, self.status) {
            (_, _, Some(GjkStatus::OriginOnSimplex)) => {
                text += &origin_on_simplex_text(self.origin_place, self.radii);
            }
            (_, _, Some(GjkStatus::MaxIterations)) => {
                text += " The iteration cap is reached; this distance is the best found.";
                text += &rounded_text(self.distance, self.radii);
            }
            (Some(d), Some(w), status) => {
                text += &format!(
                    " Search toward the origin, direction {}: the farthest point of A - B that way is {} = {} on A minus {} on B.",
                    v(d.normalize_or_zero()),
                    v(w.point),
                    v(w.on_a),
                    v(w.on_b)
                );
                let between = if self.radii > 0.0 { "cores" } else { "shapes" };
                match status {
                    Some(GjkStatus::RepeatedSupport) => {
                        text += &format!(" It is already a simplex vertex: no point of A - B is closer to the origin, so this is the distance between the {between}.");
                        text += &rounded_text(self.distance, self.radii);
                    }
                    Some(GjkStatus::Converged) => {
                        text += " It gets no closer to the origin than the current point: the distance has converged.";
                        text += &rounded_text(self.distance, self.radii);
                    }
                    _ => {
                        text += " It lies beyond the current point toward the origin, so it joins the simplex.";
                    }
                }
            }
            _ => {}
        }
        text
    }
}

/// For rounded shapes, what the cores' distance means for the shapes: GJK measured the
/// cores, and the radii come off it (the answer the Results panel shows).
fn rounded_text(core_distance: f32, radii: f32) -> String {
    if radii <= 0.0 {
        return String::new();
    }
    let gap = core_distance - radii;
    let verdict = if gap > 0.0 {
        format!("are {} apart", n(gap))
    } else if gap < 0.0 {
        format!("overlap by {}", n(-gap))
    } else {
        "touch".into()
    };
    format!(
        " Their radii add up to {}, so the rounded shapes {verdict}.",
        n(radii)
    )
}

/// Where the origin on the simplex lies and what that says about the shapes; with rounded
/// shapes A - B is the cores' difference, and the radii add to the overlap.
fn origin_on_simplex_text(place: Option<OriginPlace>, radii: f32) -> String {
    let (shapes, rounded) = if radii > 0.0 {
        (
            "cores",
            format!(
                " With their radii ({} together) the rounded shapes overlap.",
                n(radii)
            ),
        )
    } else {
        ("shapes", String::new())
    };
    let place = match place {
        Some(OriginPlace::InsideEdge) => format!(
            "the origin lies on an edge of the simplex that runs through the inside of A - B, so the {shapes} overlap. GJK stops; EPA finds the depth."
        ),
        _ => format!("the origin lies on the boundary of A - B, so the {shapes} touch."),
    };
    format!(" That is zero within tolerance: {place}{rounded}")
}

impl EpaStep {
    /// What happened at this EPA expansion and why.
    pub fn explain(&self) -> String {
        let mut text = format!(
            "Expansion {}. The polytope has {} vertices; its edge closest to the origin is edge {} at distance {}, outward normal {}. ",
            self.iteration,
            self.polytope.len(),
            self.closest_edge,
            n(self.distance),
            v(self.normal)
        );
        text += &format!(
            "The farthest point of A - B along that normal is {}, {} beyond the edge. ",
            v(self.support.point),
            n(self.gap)
        );
        if self.status == Some(EpaStatus::Converged) && self.radii > 0.0 {
            return text + &format!(
                "The gap is within tolerance, so this edge lies on the boundary of A - B of the cores: the cores overlap by its distance, and with their radii ({} together) the rounded shapes overlap by {}, along its normal (moving B that far along it leaves the shapes touching).",
                n(self.radii),
                n(self.distance + self.radii)
            );
        }
        text += match self.status {
            Some(EpaStatus::Converged) => "The gap is within tolerance, so this edge lies on the boundary of A - B: the depth is its distance and the normal its normal (moving B that far along it leaves the shapes touching).",
            Some(EpaStatus::MaxIterations) => "The iteration cap is reached: the closest edge so far gives the depth, which may be slightly too small.",
            Some(EpaStatus::PolytopeFull) => "The polytope is full: the closest edge so far gives the depth.",
            _ => "The edge is inside A - B, not on its boundary, so the new point is inserted between its ends and the polytope grows toward the boundary.",
        };
        text
    }
}

fn axis_name(source: AxisSource) -> String {
    match source {
        AxisSource::Edge { body, index } => {
            format!(
                "the normal of edge {index} of {}",
                body.as_str().to_uppercase()
            )
        }
        AxisSource::Vertex { body, index } => format!(
            "the axis from vertex {index} of {}'s core to the closest point of {}'s core (a circle's centre, a capsule's segment)",
            body.as_str().to_uppercase(),
            body.other().as_str().to_uppercase()
        ),
        AxisSource::Fallback => "the x axis (no other axis exists)".into(),
    }
}

/// An axis's source in a few words, as the Results panel and the tie sentences name it:
/// "edge 2 of A", "vertex 0 of B", "the x axis".
pub fn axis_short_name(source: AxisSource) -> String {
    match source {
        AxisSource::Edge { body, index } => {
            format!("edge {index} of {}", body.as_str().to_uppercase())
        }
        AxisSource::Vertex { body, index } => {
            format!("vertex {index} of {}", body.as_str().to_uppercase())
        }
        AxisSource::Fallback => "the x axis".into(),
    }
}

impl SatAxis {
    /// What this axis shows.
    pub fn explain(&self) -> String {
        let mut text = format!(
            "Axis: {}, along {}. A projects to [{}, {}], B to [{}, {}]. ",
            axis_name(self.source),
            v(self.axis),
            n(self.interval_a.min),
            n(self.interval_a.max),
            n(self.interval_b.min),
            n(self.interval_b.max)
        );
        if self.overlap < 0.0 {
            text += &format!(
                "The intervals are {} apart: this axis separates the shapes, so they cannot overlap.",
                n(-self.overlap)
            );
        } else {
            text += &format!(
                "They overlap by {}: pushing B {} along {} would clear this axis.",
                n(self.overlap),
                n(self.overlap),
                v(self.normal())
            );
        }
        text += &self.best_so_far_text();
        text
    }

    /// How this axis compares with the best axis so far: a tie is said, naming the axis it
    /// ties with and which of the two SAT keeps.
    fn best_so_far_text(&self) -> String {
        let best = axis_short_name(self.best_so_far);
        match self.ties_with {
            Some(other) if other == self.best_so_far => format!(
                " It ties with {best}: the best so far stays {best}, the earlier of the two."
            ),
            // It became the best: by an exact tie, as the side facing the contact, or by an
            // overlap smaller within rounding (then it may face away).
            Some(other) if self.faces_contact() => format!(
                " It ties with {} and becomes the best so far: on a tie the side facing the contact wins.",
                axis_short_name(other)
            ),
            Some(other) => format!(
                " It ties with {} within rounding, and its overlap is smaller by a rounding error, so it becomes the best so far.",
                axis_short_name(other)
            ),
            None if self.best_so_far == self.source => " It is the best axis so far.".into(),
            None => format!(" The best axis so far is still {best}."),
        }
    }
}

impl ClipStep {
    /// What this clipping stage did.
    pub fn explain(&self) -> String {
        let edge = |e: &Option<super::clip::EdgeFeature>| {
            e.map_or("none".to_string(), |e| {
                format!(
                    "edge {} of {} from {} to {}",
                    e.index,
                    e.body.as_str().to_uppercase(),
                    v(e.start),
                    v(e.end)
                )
            })
        };
        let list = |ps: &[Vec2]| {
            if ps.is_empty() {
                "none".to_string()
            } else {
                ps.iter().map(|p| v(*p)).collect::<Vec<_>>().join(", ")
            }
        };
        match self.stage {
            ClipStage::ChooseEdges => format!(
                "Each shape's best edge faces the other along the collision normal. The reference edge is {} (the one most perpendicular to the normal); the incident edge is {}. The incident edge will be cut to the reference edge's extent.",
                edge(&self.reference),
                edge(&self.incident)
            ),
            ClipStage::SideStart | ClipStage::SideEnd => format!(
                "Clip against the side plane through the reference edge's {} at {}: points beyond it are cut. Kept: {}. Dropped: {}. Created where the incident edge crosses the plane: {}.",
                if self.stage == ClipStage::SideStart { "start" } else { "end" },
                self.plane.map_or("?".into(), |p| v(p.point)),
                list(&self.kept),
                list(&self.dropped),
                list(&self.created)
            ),
            ClipStage::ReferenceFace => format!(
                "Keep only points below the reference face (on the reference body's side of its line): kept {}, dropped {}. The kept points, on the incident body, are the contact points; each depth is how far below the face it lies.",
                list(&self.kept),
                list(&self.dropped)
            ),
            ClipStage::RoundPoint => format!(
                "The contact is a single point: no pair of edges lies flat against each other along the collision normal (a circle, a rounded end or a corner meets the other shape), so the deepest point of the incident shape toward the other, {}, is the contact.",
                list(&self.kept)
            ),
        }
    }
}

impl SweepAxis {
    /// What this axis says about the times of contact.
    pub fn explain(&self) -> String {
        let mut text = format!(
            "Axis: {}. At t = 0, A covers [{}, {}] and B [{}, {}]; B slides at {} per unit time relative to A. ",
            axis_name(self.source),
            n(self.interval_a.min),
            n(self.interval_a.max),
            n(self.interval_b.min),
            n(self.interval_b.max),
            n(self.speed)
        );
        if self.t_enter > self.t_exit {
            text += "They never overlap on this axis: it keeps the bodies apart for all time.";
        } else if self.t_enter == f32::NEG_INFINITY {
            text += "No motion along this axis and the intervals overlap: it never separates them.";
        } else {
            text += &format!(
                "The intervals overlap from t = {} to t = {}. The bodies touch only while every axis overlaps: first contact is the latest entry time, last contact the earliest exit.",
                n(self.t_enter),
                n(self.t_exit)
            );
        }
        text
    }
}

impl SweepStep {
    pub fn explain(&self) -> String {
        match self {
            SweepStep::Axis(a) => a.explain(),
            SweepStep::Refine { t, distance, first } => format!(
                "With a circle or a capsule (its axes turn as the bodies move): at t = {} the shapes are {} apart. The distance is convex in time, so a Newton step toward the {} contact, if there is one, cannot overshoot it.",
                n(*t),
                n(*distance),
                if *first { "first" } else { "last" }
            ),
        }
    }
}
