//! Snapping a dragged body onto the other bodies, so that two shapes can be set exactly
//! touching without typing numbers. Pure geometry on world points: no drawing, no window.
//!
//! A body is its core (a counter-clockwise convex polygon, a segment or a point, in world
//! coordinates) inflated by its radius, as in `geom`. Two bodies touch when the distance
//! between their cores equals the sum of their radii `r`. The drag proposes a position; a
//! snap is a small translation `shift` of the dragged body that makes one feature pair touch:
//!
//! 1. vertex on vertex: a core vertex `u` of the dragged body meets a core vertex `v` of the
//!    other (at distance `r`, along the direction they already have);
//! 2. vertex on edge: `u` moves along the edge's outward normal `n` until it lies `r`
//!    outside the other's edge `(a, b)`: `shift = (r - (u - a) . n) n`;
//! 3. edge on vertex: the dragged body's edge, normal `n`, moves until the other's vertex
//!    `v` lies `r` outside it: `shift = ((v - a) . n - r) n`.
//!
//! A candidate counts only if the bodies then touch without overlapping: for an edge, every
//! core vertex of the body on the far side lies at least `r` beyond the edge's line (that
//! line then separates the shapes, and the touching point is on the edge); for two vertices,
//! the touching direction lies in both vertices' normal cones. Of the candidates within
//! `reach`, vertices win over edges (the stronger snap, as in drawing programs), then the
//! shortest shift.

use glam::{DVec2, Vec2};

/// A body as the snapping sees it: its core in world coordinates and its radius.
#[derive(Clone, Copy, Debug)]
pub struct Outline<'a> {
    pub core: &'a [Vec2],
    pub radius: f32,
}

/// The feature of the other body that the dragged body touches after the snap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Feature {
    /// Core vertex `index`, at `at` (world).
    Vertex { index: usize, at: Vec2 },
    /// Core edge `index`, from `a` to `b` (world).
    Edge { index: usize, a: Vec2, b: Vec2 },
}

/// A snap: add `shift` to the proposed position; the body `other` is then touched at
/// `feature`, at the world point `contact` (on the other body's boundary).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snap {
    pub shift: Vec2,
    pub other: usize,
    pub feature: Feature,
    pub contact: Vec2,
}

/// How far a point may lie on the wrong side of a separating line and still count as
/// touching, relative to the size of the coordinates (f32 rounding of the poses).
const RELATIVE_SLACK: f64 = 1.0e-5;

/// The best snap of the dragged body `moving` (at its proposed position) onto any of
/// `others` (each with the index the caller knows it by), moving it by at most `reach`
/// world units; `None` when no feature is within reach.
pub fn snap_to_bodies(moving: &Outline, others: &[(usize, Outline)], reach: f32) -> Option<Snap> {
    let mut best: Option<(bool, f64, Snap)> = None;
    for (index, other) in others {
        for (is_vertex, snap) in candidates(moving, other, *index) {
            let length = snap.shift.as_dvec2().length();
            // A NaN shift (degenerate input) is no snap either.
            if length.is_nan() || length > reach as f64 {
                continue;
            }
            let better = match &best {
                None => true,
                Some((v, l, _)) => (is_vertex, -length) > (*v, -*l),
            };
            if better {
                best = Some((is_vertex, length, snap));
            }
        }
    }
    best.map(|(_, _, s)| s)
}

/// Every valid touching of `moving` against `other`, each marked whether it is a vertex
/// snap.
fn candidates(moving: &Outline, other: &Outline, index: usize) -> Vec<(bool, Snap)> {
    let m: Vec<DVec2> = moving.core.iter().map(|p| p.as_dvec2()).collect();
    let o: Vec<DVec2> = other.core.iter().map(|p| p.as_dvec2()).collect();
    let r = moving.radius as f64 + other.radius as f64;
    let scale = m
        .iter()
        .chain(&o)
        .fold(1.0f64, |s, p| s.max(p.abs().max_element()));
    let slack = RELATIVE_SLACK * scale;
    let mut out = Vec::new();
    let snap = |shift: DVec2, feature: Feature, contact: DVec2| Snap {
        shift: shift.as_vec2(),
        other: index,
        feature,
        contact: contact.as_vec2(),
    };
    for (j, v) in o.iter().enumerate() {
        for (i, u) in m.iter().enumerate() {
            if let Some(shift) = vertex_on_vertex(&m, i, &o, j, r, slack) {
                let feature = Feature::Vertex {
                    index: j,
                    at: v.as_vec2(),
                };
                let contact = *v + (*u + shift - *v).normalize_or_zero() * other.radius as f64;
                out.push((true, snap(shift, feature, contact)));
            }
        }
    }
    for (k, (a, b, n)) in edges(&o).into_iter().enumerate() {
        for u in &m {
            if let Some(shift) = onto_edge(*u, a, b, n, r, &m, slack) {
                let feature = Feature::Edge {
                    index: k % o.len(),
                    a: a.as_vec2(),
                    b: b.as_vec2(),
                };
                let foot = *u + shift - n * r;
                let contact = foot + n * other.radius as f64;
                out.push((false, snap(shift, feature, contact)));
            }
        }
    }
    for (a, b, n) in edges(&m) {
        for (j, v) in o.iter().enumerate() {
            // The other's vertex against the dragged body's edge: the same rule with the
            // roles swapped and the shift reversed.
            if let Some(back) = onto_edge(*v, a, b, n, r, &o, slack) {
                let feature = Feature::Vertex {
                    index: j,
                    at: v.as_vec2(),
                };
                let contact = *v - n * other.radius as f64;
                out.push((false, snap(-back, feature, contact)));
            }
        }
    }
    out
}

/// The edges of a core with their outward unit normals: a polygon's edges (counter-
/// clockwise, normal to the right of the edge), both sides of a segment, none for a point.
fn edges(core: &[DVec2]) -> Vec<(DVec2, DVec2, DVec2)> {
    let n = core.len();
    let mut out = Vec::new();
    let sides = match n {
        0 | 1 => return out,
        2 => 2,
        _ => n,
    };
    for i in 0..sides {
        let (a, b) = (core[i % n], core[(i + 1) % n]);
        if let Some(e) = (b - a).try_normalize() {
            out.push((a, b, DVec2::new(e.y, -e.x)));
        }
    }
    out
}

/// Moves the point `u` along the edge's normal `n` so that it lies `r` outside the edge
/// `(a, b)`; the shift, if the point's foot lies on the edge and every point of `body` (the
/// points moving with `u`) ends at least `r` outside the edge's line.
fn onto_edge(
    u: DVec2,
    a: DVec2,
    b: DVec2,
    n: DVec2,
    r: f64,
    body: &[DVec2],
    slack: f64,
) -> Option<DVec2> {
    let e = b - a;
    let t = (u - a).dot(e) / e.length_squared();
    if !(0.0..=1.0).contains(&t) {
        return None;
    }
    let shift = n * (r - (u - a).dot(n));
    let separated = body.iter().all(|w| (*w + shift - a).dot(n) >= r - slack);
    separated.then_some(shift)
}

/// Vertex `i` of the dragged core `m` on vertex `j` of the other core `o` (at distance `r`
/// along the direction from the other's vertex to the dragged one), if the shapes then touch
/// without overlapping.
fn vertex_on_vertex(
    m: &[DVec2],
    i: usize,
    o: &[DVec2],
    j: usize,
    r: f64,
    slack: f64,
) -> Option<DVec2> {
    let (u, v) = (m[i], o[j]);
    if r == 0.0 {
        let shift = v - u;
        let moved: Vec<DVec2> = m.iter().map(|p| *p + shift).collect();
        return separated_at_vertices(&moved, i, o, j, slack).then_some(shift);
    }
    let dir = (u - v).try_normalize()?;
    let fits = in_normal_cone(o, j, dir, slack) && in_normal_cone(m, i, -dir, slack);
    fits.then_some(v + dir * r - u)
}

/// Whether two cores touching at `m[i] == o[j]` have a separating line through that point:
/// one of the lines of the edges at either vertex (the origin then lies on an edge of
/// A - B, which is parallel to one of them).
fn separated_at_vertices(m: &[DVec2], i: usize, o: &[DVec2], j: usize, slack: f64) -> bool {
    let beyond = |core: &[DVec2], k: usize, far: &[DVec2]| {
        edges_at(core, k)
            .into_iter()
            .any(|(a, n)| far.iter().all(|p| (*p - a).dot(n) >= -slack))
    };
    beyond(o, j, m) || beyond(m, i, o)
}

/// The lines (a point and the outward normal) of the edges that meet at vertex `k`.
fn edges_at(core: &[DVec2], k: usize) -> Vec<(DVec2, DVec2)> {
    let n = core.len();
    edges(core)
        .into_iter()
        .enumerate()
        .filter(|(e, _)| n == 2 || *e == k || (*e + 1) % n == k)
        .map(|(_, (a, _, normal))| (a, normal))
        .collect()
}

/// Whether the direction `d` points out of the core at vertex `k`: no other core point lies
/// ahead of the vertex along `d` (a convex core's normal cone, from its neighbours).
fn in_normal_cone(core: &[DVec2], k: usize, d: DVec2, slack: f64) -> bool {
    let n = core.len();
    if n < 2 {
        return true;
    }
    let at = core[k];
    let prev = core[(k + n - 1) % n];
    let next = core[(k + 1) % n];
    (prev - at).dot(d) <= slack && (next - at).dot(d) <= slack
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(center: Vec2, half: f32) -> Vec<Vec2> {
        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .iter()
            .map(|(x, y)| center + Vec2::new(*x, *y) * half)
            .collect()
    }

    fn moved(core: &[Vec2], by: Vec2) -> Vec<Vec2> {
        core.iter().map(|p| *p + by).collect()
    }

    /// The smallest distance between the points of one core and the edges of another
    /// (vertex-to-segment in both directions): the core distance of two polygons apart.
    fn core_distance(a: &[Vec2], b: &[Vec2]) -> f32 {
        let seg = |p: Vec2, s: Vec2, e: Vec2| {
            let d = e - s;
            let t = ((p - s).dot(d) / d.length_squared()).clamp(0.0, 1.0);
            (p - (s + d * t)).length()
        };
        let one = |x: &[Vec2], y: &[Vec2]| {
            x.iter()
                .flat_map(|p| (0..y.len()).map(move |k| seg(*p, y[k], y[(k + 1) % y.len()])))
                .fold(f32::MAX, f32::min)
        };
        one(a, b).min(one(b, a))
    }

    #[test]
    fn a_corner_near_an_edge_lands_exactly_on_it() {
        // The other square spans x in [-1, 1]; the dragged one is rotated 45 degrees, its
        // left corner 0.03 right of the other's right edge.
        let other = square(Vec2::ZERO, 1.0);
        let diamond: Vec<Vec2> = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)]
            .iter()
            .map(|(x, y)| Vec2::new(2.03 + x, 0.2 + y))
            .collect();
        let s = snap_to_bodies(
            &Outline {
                core: &diamond,
                radius: 0.0,
            },
            &[(
                7,
                Outline {
                    core: &other,
                    radius: 0.0,
                },
            )],
            0.1,
        )
        .expect("a snap within reach");
        assert!((s.shift - Vec2::new(-0.03, 0.0)).length() < 1e-6, "{s:?}");
        assert_eq!(s.other, 7);
        assert!(matches!(s.feature, Feature::Edge { index: 1, .. }), "{s:?}");
        assert!((s.contact - Vec2::new(1.0, 0.2)).length() < 1e-6);
        assert!(core_distance(&moved(&diamond, s.shift), &other) < 1e-6);
    }

    #[test]
    fn a_corner_inside_is_pushed_out_to_touching() {
        // Overlapping by 0.05: the snap pushes the dragged square out, not further in.
        let other = square(Vec2::ZERO, 1.0);
        let dragged = square(Vec2::new(1.95, 0.3), 1.0);
        let s = snap_to_bodies(
            &Outline {
                core: &dragged,
                radius: 0.0,
            },
            &[(
                0,
                Outline {
                    core: &other,
                    radius: 0.0,
                },
            )],
            0.2,
        )
        .unwrap();
        assert!((s.shift - Vec2::new(0.05, 0.0)).length() < 1e-6, "{s:?}");
    }

    #[test]
    fn vertices_win_over_a_nearer_edge() {
        // The dragged square's lower-left corner is 0.02 right of the other's right edge and
        // 0.04 above its upper-right corner: the corner snap is taken.
        let other = square(Vec2::ZERO, 1.0);
        let dragged = square(Vec2::new(2.02, 2.04), 1.0);
        let s = snap_to_bodies(
            &Outline {
                core: &dragged,
                radius: 0.0,
            },
            &[(
                0,
                Outline {
                    core: &other,
                    radius: 0.0,
                },
            )],
            0.1,
        )
        .unwrap();
        assert!(
            matches!(s.feature, Feature::Vertex { index: 2, .. }),
            "{s:?}"
        );
        assert!((s.shift - Vec2::new(-0.02, -0.04)).length() < 1e-6);
        assert!((s.contact - Vec2::new(1.0, 1.0)).length() < 1e-6);
    }

    #[test]
    fn a_vertex_that_would_overlap_is_not_a_snap() {
        // A small square mostly inside the other, its upper-right corner 0.05 right of and
        // 0.02 above the other's upper-right corner: putting the corners together would
        // leave it inside, and no edge can push it out within reach.
        let other = square(Vec2::ZERO, 1.0);
        let dragged = square(Vec2::new(0.55, 0.52), 0.5);
        let outline = |core| Outline { core, radius: 0.0 };
        assert_eq!(
            snap_to_bodies(&outline(&dragged), &[(0, outline(&other))], 0.3),
            None
        );
        // Moved outside, the same corners do snap.
        let outside = square(Vec2::new(1.55, 1.52), 0.5);
        let s = snap_to_bodies(&outline(&outside), &[(0, outline(&other))], 0.3).unwrap();
        assert!(
            matches!(s.feature, Feature::Vertex { index: 2, .. }),
            "{s:?}"
        );
        assert!(core_distance(&moved(&outside, s.shift), &other) < 1e-6);
    }

    #[test]
    fn a_circle_snaps_to_touch_an_edge_at_its_radius() {
        let other = square(Vec2::ZERO, 1.0);
        let center = [Vec2::new(0.2, 1.55)];
        let s = snap_to_bodies(
            &Outline {
                core: &center,
                radius: 0.5,
            },
            &[(
                0,
                Outline {
                    core: &other,
                    radius: 0.0,
                },
            )],
            0.1,
        )
        .unwrap();
        assert!((center[0] + s.shift - Vec2::new(0.2, 1.5)).length() < 1e-6);
        assert!(matches!(s.feature, Feature::Edge { index: 2, .. }));
    }

    #[test]
    fn two_circles_snap_to_touch_along_their_line() {
        let a = [Vec2::ZERO];
        let b = [Vec2::new(3.0, 4.0)];
        let s = snap_to_bodies(
            &Outline {
                core: &b,
                radius: 2.0,
            },
            &[(
                0,
                Outline {
                    core: &a,
                    radius: 2.9,
                },
            )],
            0.2,
        )
        .unwrap();
        let c = b[0] + s.shift;
        assert!((c.length() - 4.9).abs() < 1e-6);
        assert!((c.normalize() - Vec2::new(0.6, 0.8)).length() < 1e-6);
    }

    #[test]
    fn nothing_within_reach_is_no_snap() {
        let other = square(Vec2::ZERO, 1.0);
        let dragged = square(Vec2::new(3.5, 0.0), 1.0);
        let outline = |core| Outline { core, radius: 0.0 };
        assert_eq!(
            snap_to_bodies(&outline(&dragged), &[(0, outline(&other))], 0.2),
            None
        );
        // Degenerate inputs terminate with no snap: no points, repeated points.
        let point = [Vec2::ONE, Vec2::ONE];
        assert!(snap_to_bodies(&outline(&[]), &[(0, outline(&other))], 1.0).is_none());
        let _ = snap_to_bodies(&outline(&point), &[(0, outline(&point))], 1.0);
    }

    #[test]
    fn the_dragged_edge_snaps_onto_a_vertex_of_the_other() {
        // A diamond's right corner (1, 0) sits 0.04 left of the dragged square's left edge.
        let other: Vec<Vec2> = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)]
            .iter()
            .map(|(x, y)| Vec2::new(*x, *y))
            .collect();
        let dragged = square(Vec2::new(2.04, 0.3), 1.0);
        let s = snap_to_bodies(
            &Outline {
                core: &dragged,
                radius: 0.0,
            },
            &[(
                0,
                Outline {
                    core: &other,
                    radius: 0.0,
                },
            )],
            0.1,
        )
        .unwrap();
        assert!((s.shift - Vec2::new(-0.04, 0.0)).length() < 1e-6, "{s:?}");
        assert!(matches!(s.feature, Feature::Vertex { index: 0, .. }));
        assert!(core_distance(&moved(&dragged, s.shift), &other) < 1e-6);
    }
}
