//! Teaching sentences for every recorded 3D step: the window's timeline and the `trace`
//! command print the same text. Numbers are rounded for reading.

use super::manifold::{self, ContactPoint3, Feature, ReduceRule};
use super::sat::{self, AxisId, SkipReason};
use super::sweep::{NewtonOutcome, NewtonStep, Step as SweepStep, SweepAxis};
use super::Interval;
use glam::Vec3;

/// A number in a sentence: the product's one readable form, as in 2D and the command line.
fn n(x: f32) -> String {
    crate::text::readable(x)
}

fn v(p: Vec3) -> String {
    crate::text::readable_vector(&[p.x, p.y, p.z])
}

fn interval(i: &Interval) -> String {
    format!("[{}, {}]", n(i.min), n(i.max))
}

fn axis_source(id: &AxisId) -> String {
    match id {
        AxisId::FaceA(i) => format!("the normal of face {i} of A"),
        AxisId::FaceB(j) => format!("the normal of face {j} of B, reversed"),
        AxisId::Edges(i, j) => format!("edge {i} of A x edge {j} of B"),
        AxisId::Closest => "the direction between the closest points of the cores".into(),
    }
}

fn feature(f: &Feature, body: &str) -> String {
    format!("{} {} of {body}", f.key(), f.index())
}

impl sat::Step {
    /// What this SAT step tested and what it showed.
    pub fn explain(&self) -> String {
        match self {
            sat::Step::Axis(t) => {
                let verdict = if t.separation > 0.0 {
                    format!(
                        "there is a gap of {}, so this axis separates them",
                        n(t.separation)
                    )
                } else {
                    format!("they overlap by {}", n(-t.separation))
                };
                format!(
                    "Axis {}: {}, {}; A projects to {}, B to {}; {verdict}.",
                    t.ordinal,
                    axis_source(&t.id),
                    v(t.axis),
                    interval(&t.interval_a),
                    interval(&t.interval_b)
                )
            }
            sat::Step::Skipped {
                edge_a,
                edge_b,
                reason,
            } => match reason {
                SkipReason::Parallel => format!(
                    "Edge {edge_a} of A and edge {edge_b} of B are parallel: their cross product has no direction, and the faces beside them give the axes there. Skipped."
                ),
                SkipReason::GaussMap => format!(
                    "Edge {edge_a} of A and edge {edge_b} of B: their arcs on the Gauss map do not cross, so their cross product is no face normal of A - B. Skipped."
                ),
            },
            sat::Step::GaussMapPruned { edge_a, count } => format!(
                "Edge {edge_a} of A against {count} edges of B whose arcs on the Gauss map do not cross its arc: no face of A - B comes from them, so none gives an axis. Skipped together."
            ),
        }
    }
}

fn points_text(points: &[ContactPoint3]) -> String {
    points
        .iter()
        .map(|c| format!("{} at depth {}", v(c.point), n(c.depth)))
        .collect::<Vec<_>>()
        .join(", ")
}

impl manifold::Step {
    /// What this manifold step did and why.
    pub fn explain(&self) -> String {
        match self {
            manifold::Step::Features {
                feature_a,
                feature_b,
                case,
                reference,
                reference_feature,
                incident_feature,
            } => {
                let other = reference.other().key().to_uppercase();
                let reference = reference.key().to_uppercase();
                format!(
                    "Supporting features: {} along the normal and {} against it, so the case is {}; reference {}, incident {}.",
                    feature(feature_a, "A"),
                    feature(feature_b, "B"),
                    case.words(),
                    feature(reference_feature, &reference),
                    feature(incident_feature, &other)
                )
            }
            manifold::Step::ClipPlane {
                edge,
                normal,
                before,
                after,
                ..
            } => format!(
                "Clip by the side plane of reference edge {edge}, facing {}: {} points before, {} after{}.",
                v(*normal),
                before.len(),
                after.len(),
                if before == after {
                    " (nothing lies outside)"
                } else {
                    ""
                }
            ),
            manifold::Step::Dropped { point, height } => format!(
                "Point {} lies {} above the reference face, so it is not a contact: dropped.",
                v(*point),
                n(*height)
            ),
            manifold::Step::Reduce { rule, point, score } => match rule {
                ReduceRule::Deepest => format!(
                    "More than 4 points: keep the deepest first, {} at depth {}.",
                    v(*point),
                    n(*score)
                ),
                ReduceRule::Farthest => format!(
                    "Then the point farthest from it, {} at distance {}.",
                    v(*point),
                    n(*score)
                ),
                ReduceRule::LargestTriangle => format!(
                    "Then the point making the largest triangle with those two, {} (area {}).",
                    v(*point),
                    n(*score)
                ),
                ReduceRule::MostAddedArea => format!(
                    "Then the point adding the most area outside that triangle, {} (area {}).",
                    v(*point),
                    n(*score)
                ),
            },
            manifold::Step::Points { points } => format!(
                "The manifold has {} point{}: {}.",
                points.len(),
                if points.len() == 1 { "" } else { "s" },
                points_text(points)
            ),
        }
    }
}

impl SweepAxis {
    /// The time interval during which this axis shows an overlap.
    pub fn explain(&self) -> String {
        let head = format!(
            "Axis {}, {}: at t = 0 A projects to {}, B to {}",
            axis_source(&self.id),
            v(self.axis),
            interval(&self.interval_a),
            interval(&self.interval_b)
        );
        if self.t_enter == f32::NEG_INFINITY && self.t_exit == f32::INFINITY {
            format!("{head}; B does not move along it relative to A and they overlap, so this axis never separates them.")
        } else if self.t_enter > self.t_exit {
            format!(
                "{head}; B moves along it at {} relative to A, and they never overlap: the sweep misses.",
                n(self.speed)
            )
        } else {
            format!(
                "{head}; B moves along it at {} relative to A, so they overlap from t = {} to t = {}.",
                n(self.speed),
                n(self.t_enter),
                n(self.t_exit)
            )
        }
    }
}

impl SweepStep {
    /// What this sweep step showed: an axis's time interval or a Newton step.
    pub fn explain(&self) -> String {
        match self {
            SweepStep::Axis(axis) => axis.explain(),
            SweepStep::Refine(step) => step.explain(),
        }
    }
}

impl NewtonStep {
    /// What the Newton step measured and where it goes next.
    pub fn explain(&self) -> String {
        let t = n(self.t);
        let (head, closes, contact) = if self.first {
            ("Newton step toward first contact", "closing", "from")
        } else {
            (
                "Newton step toward last contact, back from the end of the bracket",
                "going back in time they close",
                "until",
            )
        };
        let apart = format!(
            "{head}: at t = {t} the cores are {} apart beyond the radii",
            n(self.distance)
        );
        match self.outcome {
            NewtonOutcome::Touching => format!(
                "{head}: at t = {t} the bodies touch or overlap (the cores are no farther apart than the radii), so they are in contact {contact} t = {t}."
            ),
            NewtonOutcome::Next(next) => format!(
                "{apart}; {closes} at {} per unit time, the next guess is t = {} (the distance is convex in time, so the guess cannot pass the contact).",
                n(self.closing),
                n(next)
            ),
            NewtonOutcome::NotClosing => format!(
                "{apart} and the gap is not closing (it changes at {} per unit time {}): the distance is convex in time, so it never shrinks from here and the bodies never touch. The sweep misses.",
                n(-self.closing),
                if self.first { "forward" } else { "going back" }
            ),
            NewtonOutcome::PastBracket(next) => format!(
                "{apart}; {closes} at {} per unit time, the next guess would be t = {}, past the other end of the bracket: the bodies do not touch inside it. The sweep misses.",
                n(self.closing),
                n(next)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query3::sat::AxisTest;

    #[test]
    fn an_edge_axis_reads_as_the_issue_writes_it() {
        let step = sat::Step::Axis(AxisTest {
            ordinal: 7,
            id: AxisId::Edges(3, 5),
            axis: Vec3::new(0.0, 0.6, 0.8),
            interval_a: Interval::new(-1.0, 0.5),
            interval_b: Interval::new(0.38, 2.0),
            separation: -0.12,
        });
        assert_eq!(
            step.explain(),
            "Axis 7: edge 3 of A x edge 5 of B, (0, 0.6, 0.8); A projects to [-1, 0.5], B to [0.38, 2]; they overlap by 0.12."
        );
    }

    fn newton(first: bool, outcome: NewtonOutcome) -> SweepStep {
        SweepStep::Refine(NewtonStep {
            t: 0.412,
            distance: 0.031,
            closing: 2.0,
            normal: Vec3::Y,
            first,
            outcome,
        })
    }

    #[test]
    fn newton_steps_say_what_they_measured_and_where_they_go() {
        // 0.412 + 0.031 / 2 = 0.4275.
        assert_eq!(
            newton(true, NewtonOutcome::Next(0.4275)).explain(),
            "Newton step toward first contact: at t = 0.412 the cores are 0.031 apart beyond the radii; closing at 2 per unit time, the next guess is t = 0.4275 (the distance is convex in time, so the guess cannot pass the contact)."
        );
        assert_eq!(
            newton(false, NewtonOutcome::Next(0.3965)).explain(),
            "Newton step toward last contact, back from the end of the bracket: at t = 0.412 the cores are 0.031 apart beyond the radii; going back in time they close at 2 per unit time, the next guess is t = 0.3965 (the distance is convex in time, so the guess cannot pass the contact)."
        );
        assert_eq!(
            newton(true, NewtonOutcome::Touching).explain(),
            "Newton step toward first contact: at t = 0.412 the bodies touch or overlap (the cores are no farther apart than the radii), so they are in contact from t = 0.412."
        );
        assert!(newton(false, NewtonOutcome::Touching)
            .explain()
            .ends_with("so they are in contact until t = 0.412."));
        let receding = SweepStep::Refine(NewtonStep {
            closing: -0.5,
            ..match newton(true, NewtonOutcome::NotClosing) {
                SweepStep::Refine(s) => s,
                SweepStep::Axis(_) => unreachable!(),
            }
        });
        assert_eq!(
            receding.explain(),
            "Newton step toward first contact: at t = 0.412 the cores are 0.031 apart beyond the radii and the gap is not closing (it changes at 0.5 per unit time forward): the distance is convex in time, so it never shrinks from here and the bodies never touch. The sweep misses."
        );
        // Issue 39: moving side by side (the gap changes at 0 per unit time) the distance
        // stays 0.031: it never shrinks, and "only grows" would be false.
        let level = SweepStep::Refine(NewtonStep {
            closing: 0.0,
            ..match newton(true, NewtonOutcome::NotClosing) {
                SweepStep::Refine(s) => s,
                SweepStep::Axis(_) => unreachable!(),
            }
        });
        assert!(level.explain().contains(
            "(it changes at 0 per unit time forward): the distance is convex in time, so it never shrinks from here"
        ), "{}", level.explain());
        assert!(newton(true, NewtonOutcome::PastBracket(1.2))
            .explain()
            .contains("the next guess would be t = 1.2, past the other end of the bracket"));
    }

    #[test]
    fn a_sweep_axis_gives_its_time_interval() {
        let step = SweepStep::Axis(SweepAxis {
            id: AxisId::FaceA(1),
            axis: Vec3::X,
            interval_a: Interval::new(-0.5, 0.5),
            interval_b: Interval::new(2.2929, 3.7071),
            speed: -5.0,
            t_enter: 0.358579,
            t_exit: 0.841421,
        });
        assert_eq!(
            step.explain(),
            "Axis the normal of face 1 of A, (1, 0, 0): at t = 0 A projects to [-0.5, 0.5], B to [2.2929, 3.7071]; B moves along it at -5 relative to A, so they overlap from t = 0.3586 to t = 0.8414."
        );
    }
}
