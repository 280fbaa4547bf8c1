//! Events: where a discrete answer changes between two samples, narrowed by bisection.
//!
//! Algorithm (one bracket is an interval [lo, hi] of the parameter, its two samples and the
//! answers that differ between them):
//! ```text
//! for each pair of consecutive samples whose answers differ: push a bracket
//! while a bracket is left:
//!     if hi - lo <= NARROW_FRACTION * range, or lo and hi are neighbouring f32 values:
//!         it is an event (a normal that turned by less than the tolerance is dropped)
//!     else sample the midpoint m; each answer follows the half or halves where it changes
//!         (both, while the bracket has room for more than one flip: A -> B -> C);
//!         the normal follows the half where it turns more, and is dropped when neither
//!         half turns by more than the tolerance (it turns smoothly, it does not jump)
//!     push the two halves that have answers to follow
//! ```
//! Answers that change in the same final interval make one event. An answer that changes
//! and changes back between two samples (A -> B -> A) is not seen, and at most
//! [`MAX_FLIPS_PER_INTERVAL`] flips of one answer are found between two samples: the
//! samples set how fine the search is, the bisection how exact each flip found.

use super::sample::Sample;

/// The largest turn of the normal, in radians, between two samples that is not a jump: a
/// thousandth of a radian (0.057 degrees), well above the normal's rounding noise (about
/// 1e-7 rad for unit vectors in `f32`) and well below any change of winning axis between
/// faces of the shapes a scene holds (whose normals differ by degrees). A normal that turns
/// with the body is seen as turning smoothly: halving the interval halves the turn.
pub const NORMAL_JUMP_TOLERANCE: f32 = 1.0e-3;

/// An event's interval is narrowed until it is at most this fraction of the scanned range
/// (or its ends are neighbouring `f32` values, whichever comes first).
pub const NARROW_FRACTION: f64 = 1.0e-6;

/// Most flips of one answer followed between two consecutive samples. Near an exact tie
/// (two faces of a symmetric pair) rounding can flip SAT's choice back and forth at every
/// scale; following every flip would cost up to 2^20 queries per interval. Eight keeps
/// the real A -> B -> C sequences (a tie crossed on the way to a new axis) and bounds the
/// cost at eight bisections.
pub const MAX_FLIPS_PER_INTERVAL: u32 = 8;

/// A discrete answer a scan watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Change {
    /// SAT's winning axis.
    Axis,
    /// The manifold's feature pair.
    Feature,
    /// The number of contact points.
    Contacts,
    /// The contact points' feature ids, as a set (what a warm start matches).
    Ids,
    /// The body holding the reference face.
    Reference,
    /// SAT's verdict.
    Intersecting,
    /// SAT and GJK agreeing on the verdict, or not.
    Agreement,
    /// The normal turning by more than [`NORMAL_JUMP_TOLERANCE`].
    Normal,
}

impl Change {
    /// Every answer watched, in the order an event lists them.
    pub const ALL: [Change; 8] = [
        Change::Normal,
        Change::Axis,
        Change::Feature,
        Change::Reference,
        Change::Contacts,
        Change::Ids,
        Change::Intersecting,
        Change::Agreement,
    ];

    /// The key in an event's `what`.
    pub fn key(self) -> &'static str {
        match self {
            Change::Axis => "axis",
            Change::Feature => "feature",
            Change::Contacts => "contacts",
            Change::Ids => "ids",
            Change::Reference => "reference",
            Change::Intersecting => "intersecting",
            Change::Agreement => "agreement",
            Change::Normal => "normal",
        }
    }

    /// The answer a key names.
    pub fn from_key(key: &str) -> Option<Change> {
        Change::ALL.into_iter().find(|c| c.key() == key)
    }

    /// Whether this answer differs between samples `p` and `q`.
    pub fn differs(self, p: &Sample, q: &Sample) -> bool {
        match self {
            Change::Axis => p.axis != q.axis,
            Change::Feature => p.feature != q.feature,
            Change::Contacts => p.contacts != q.contacts,
            Change::Ids => sorted(&p.ids) != sorted(&q.ids),
            Change::Reference => p.reference != q.reference,
            Change::Intersecting => p.intersecting != q.intersecting,
            Change::Agreement => agrees(p) != agrees(q),
            Change::Normal => normal_turn(p, q) > NORMAL_JUMP_TOLERANCE as f64,
        }
    }
}

/// Whether SAT and GJK give the same verdict.
pub fn agrees(s: &Sample) -> bool {
    s.intersecting == s.gjk_intersecting
}

fn sorted(ids: &[String]) -> Vec<&str> {
    let mut v: Vec<&str> = ids.iter().map(String::as_str).collect();
    v.sort_unstable();
    v
}

/// The angle between the two samples' normals in radians (infinite when one has none), from
/// the chord: 2 asin(|p - q| / 2) keeps its precision for small angles, where the arc
/// cosine of the dot product loses it.
pub fn normal_turn(p: &Sample, q: &Sample) -> f64 {
    match (p.normal, q.normal) {
        (Some(m), Some(n)) => {
            let d: f64 = (0..3)
                .map(|k| (m[k] as f64 - n[k] as f64).powi(2))
                .sum::<f64>()
                .sqrt();
            2.0 * (d / 2.0).min(1.0).asin()
        }
        (None, None) => 0.0,
        _ => f64::INFINITY,
    }
}

/// The answers that differ between two samples.
pub fn changes(p: &Sample, q: &Sample) -> Vec<Change> {
    Change::ALL
        .into_iter()
        .filter(|c| c.differs(p, q))
        .collect()
}

/// A parameter interval where one or more discrete answers change, narrowed until it is
/// below [`NARROW_FRACTION`] of the range or its ends are neighbouring `f32` values.
/// `lo` and `hi` are in scan order (`lo` nearer `from`); `before` and `after` are the
/// samples at `lo` and `hi`.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub lo: f32,
    pub hi: f32,
    /// The keys of the answers that change ([`Change::key`]): `normal`, `axis`, `feature`,
    /// `reference`, `contacts`, `ids`, `intersecting`, `agreement`, in that order.
    pub what: Vec<String>,
    pub before: Sample,
    pub after: Sample,
}

/// An interval still being narrowed and the answers followed into it.
#[derive(Clone, Debug)]
pub(super) struct Bracket {
    pub(super) lo: Sample,
    pub(super) hi: Sample,
    pub(super) changes: Vec<Change>,
    /// How many flips of one answer this bracket may still become (at least 1).
    pub(super) room: u32,
}

impl Bracket {
    /// The parameter value to sample next, or `None` when the bracket is as narrow as it
    /// gets (below `narrow` wide, or its ends neighbouring `f32` values) and is an event.
    pub(super) fn midpoint(&self, narrow: f64) -> Option<f32> {
        let (lo, hi) = (self.lo.t as f64, self.hi.t as f64);
        let mid = ((lo + hi) / 2.0) as f32;
        let narrowest = (hi - lo).abs() <= narrow || mid == self.lo.t || mid == self.hi.t;
        (!narrowest).then_some(mid)
    }

    /// The event this final bracket makes: its answers that still change.
    pub(super) fn event(&self) -> Option<Event> {
        let what: Vec<String> = self
            .changes
            .iter()
            .filter(|c| c.differs(&self.lo, &self.hi))
            .map(|c| c.key().to_string())
            .collect();
        (!what.is_empty()).then(|| Event {
            lo: self.lo.t,
            hi: self.hi.t,
            what,
            before: self.lo.clone(),
            after: self.hi.clone(),
        })
    }

    /// The two halves at the sample `mid`, each with the answers that follow it (none, when
    /// nothing follows into it).
    pub(super) fn split(self, mid: Sample) -> [Option<Bracket>; 2] {
        let (mut first, mut second) = (Vec::new(), Vec::new());
        let mut doubled = false;
        for c in self.changes {
            if c == Change::Normal {
                let (t1, t2) = (normal_turn(&self.lo, &mid), normal_turn(&mid, &self.hi));
                if t1.max(t2) <= NORMAL_JUMP_TOLERANCE as f64 {
                    continue;
                }
                if t1 >= t2 {
                    first.push(c);
                } else {
                    second.push(c);
                }
                continue;
            }
            let (in_first, in_second) = (c.differs(&self.lo, &mid), c.differs(&mid, &self.hi));
            if in_first && in_second && self.room >= 2 {
                first.push(c);
                second.push(c);
                doubled = true;
            } else if in_first {
                first.push(c);
            } else {
                second.push(c);
            }
        }
        // A doubled answer shares the room between the halves; answers that only part
        // ways keep it whole (each still has its one flip to find).
        let (room_first, room_second) = if doubled {
            (self.room - self.room / 2, self.room / 2)
        } else {
            (self.room, self.room)
        };
        let left = (!first.is_empty()).then(|| Bracket {
            lo: self.lo,
            hi: mid.clone(),
            changes: first,
            room: room_first,
        });
        let right = (!second.is_empty()).then_some(Bracket {
            lo: mid,
            hi: self.hi,
            changes: second,
            room: room_second,
        });
        [left, right]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::Body;
    use crate::scan::AxisId;

    fn sample(t: f32, normal: [f32; 3], axis: AxisId) -> Sample {
        Sample {
            t,
            intersecting: true,
            gjk_intersecting: true,
            depth: Some(0.1),
            distance: None,
            normal: Some(normal),
            axis,
            feature: None,
            reference: None,
            contacts: 0,
            ids: vec!["[0, 1, 0]".into(), "[0, 1, 1]".into()],
            t_first: None,
        }
    }

    #[test]
    fn ids_compare_as_sets_and_normals_by_their_angle() {
        let face = AxisId::Face(Body::A, 0);
        let p = sample(0.0, [0.0, 1.0, 0.0], face);
        let mut q = p.clone();
        q.ids.reverse();
        assert!(changes(&p, &q).is_empty(), "the same ids in another order");
        // A turn of 2e-3 rad is a jump; 5e-4 rad is not.
        let (s, c) = (2.0e-3f32.sin(), 2.0e-3f32.cos());
        q.normal = Some([s, c, 0.0]);
        assert_eq!(changes(&p, &q), [Change::Normal]);
        assert!((normal_turn(&p, &q) - 2.0e-3).abs() < 1e-7);
        q.normal = Some([5.0e-4f32.sin(), 5.0e-4f32.cos(), 0.0]);
        assert!(changes(&p, &q).is_empty());
        q.normal = None;
        assert_eq!(changes(&p, &q), [Change::Normal]);
        q.gjk_intersecting = false;
        assert_eq!(changes(&p, &q), [Change::Normal, Change::Agreement]);
        for c in Change::ALL {
            assert_eq!(Change::from_key(c.key()), Some(c));
        }
    }

    #[test]
    fn a_bracket_sends_each_answer_to_the_half_where_it_changes() {
        let (ea, eb) = (AxisId::Edge(Body::A, 0), AxisId::Edge(Body::B, 1));
        let lo = sample(0.0, [0.0, 1.0, 0.0], ea);
        let hi = sample(1.0, [1.0, 0.0, 0.0], eb);
        let mid = sample(0.5, [0.0, 1.0, 0.0], eb);
        let bracket = Bracket {
            lo,
            hi,
            changes: vec![Change::Normal, Change::Axis],
            room: MAX_FLIPS_PER_INTERVAL,
        };
        let [left, right] = bracket.split(mid);
        // The axis changed before the middle, the normal after it.
        assert_eq!(left.unwrap().changes, [Change::Axis]);
        assert_eq!(right.unwrap().changes, [Change::Normal]);
    }

    #[test]
    fn a_smoothly_turning_normal_is_dropped_after_one_split() {
        let e = AxisId::Edge(Body::A, 0);
        let at = |t: f32, angle: f32| sample(t, [angle.sin(), angle.cos(), 0.0], e);
        // 1.5e-3 rad between the ends, 7.5e-4 in each half.
        let bracket = Bracket {
            lo: at(0.0, 0.0),
            hi: at(1.0, 1.5e-3),
            changes: vec![Change::Normal],
            room: MAX_FLIPS_PER_INTERVAL,
        };
        let [left, right] = bracket.split(at(0.5, 7.5e-4));
        assert!(left.is_none() && right.is_none());
    }

    #[test]
    fn an_answer_that_flips_twice_between_two_samples_is_followed_into_both_halves() {
        // Face 3 -> face 4 -> an edge pair, as a tie crossed on the way to a new axis.
        let at = |t: f32, axis| sample(t, [0.0, 1.0, 0.0], axis);
        let bracket = |room| Bracket {
            lo: at(0.0, AxisId::Face(Body::A, 3)),
            hi: at(1.0, AxisId::Edges(1, 2)),
            changes: vec![Change::Axis],
            room,
        };
        let [left, right] = bracket(2).split(at(0.5, AxisId::Face(Body::A, 4)));
        let (left, right) = (left.unwrap(), right.unwrap());
        assert_eq!((left.changes, left.room), (vec![Change::Axis], 1));
        assert_eq!((right.changes, right.room), (vec![Change::Axis], 1));
        // With no room left, only the first flip is followed.
        let [left, right] = bracket(1).split(at(0.5, AxisId::Face(Body::A, 4)));
        assert!(left.is_some() && right.is_none());
    }
}
