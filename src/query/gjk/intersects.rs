//! GJK's boolean test, untraced: do the shapes overlap? The loop of [`super::gjk`] with one
//! more exit and no closest points, for callers that need only the verdict (the
//! intersection row of the benches, broad checks). It gives `gjk`'s verdict: the agreement
//! harness (`src/agreement.rs`) checks it.

use super::{
    reduce_to_closest_feature, search_direction, start, FrameOfA, GjkConfig, Simplex,
    ROUNDING_NOISE,
};
use crate::query::{ShapePair, SupportPoint, TOUCH_TOLERANCE};
use glam::Vec2;

/// Whether the shapes overlap or touch: the same verdict as `gjk(pair, config, &mut ())
/// .intersecting`, without distances or closest points, and found sooner when the shapes are
/// apart.
///
/// Algorithm: the loop of [`super::gjk`], plus one exit. The support point `w` in the search
/// direction `d` bounds A - B by the plane `x . d <= w . d`, so when `w . d < 0` the cores
/// are at least `-(w . d) / |d|` apart; once that bound exceeds the radii and the touch
/// tolerance, GJK could only confirm "apart" and the loop stops (Gilbert's separating-plane
/// exit, as in van den Bergen's GJK-based intersection test).
pub fn gjk_intersects(pair: &ShapePair, config: &GjkConfig) -> bool {
    let local = FrameOfA::new(pair);
    let (scale, mut simplex) = start(&local);
    let mut newest = simplex.vertices[0];
    let touch = TOUCH_TOLERANCE * scale;
    let radii = pair.a.radius() + pair.b.radius();
    let mut iteration = 0;
    let mut previous_distance = f32::INFINITY;
    let noise = ROUNDING_NOISE * scale;
    loop {
        iteration += 1;
        let closest = reduce_to_closest_feature(&mut simplex, touch, newest).point;
        if simplex.len == 3 {
            return true; // Enclosed: the cores overlap
        }
        let distance = closest.length();
        // OriginOnSimplex, Converged (stalled) and MaxIterations: `finish` decides on this
        // core distance.
        if distance <= touch || distance >= previous_distance || iteration > config.max_iterations {
            return distance - radii <= touch;
        }
        previous_distance = distance;
        let direction = search_direction(&simplex, closest);
        let w = local.support(direction);
        let unit = direction.normalize_or_zero();
        if -w.point.dot(unit) > radii + touch {
            return false; // a separating plane with room for the radii
        }
        let repeated = repeats_a_vertex(&simplex, &w);
        if repeated || no_progress_along(&simplex, unit, w, config.tolerance * distance + noise) {
            return distance - radii <= touch;
        }
        simplex.push_kept_in_registers();
        newest = w;
    }
}

/// Whether `w` has the sources (vertex indices) of one of the simplex's vertices: the
/// repeated-support test, `simplex.points().iter().any(|p| p.same_sources(w))` written out.
/// The simplex is never empty (it starts with one vertex and every reduction keeps at least
/// one), so vertex 0 is compared unconditionally, and each comparison tests both indices
/// without a short circuit (one branch a vertex, no slice bounds test).
#[inline(always)]
fn repeats_a_vertex(simplex: &Simplex, w: &SupportPoint) -> bool {
    let same = |p: &SupportPoint| (p.index_a == w.index_a) & (p.index_b == w.index_b);
    let v = &simplex.vertices;
    same(&v[0]) || (simplex.len >= 2 && same(&v[1])) || (simplex.len >= 3 && same(&v[2]))
}

/// The progress test along a unit direction (or zero) already found.
#[inline(always)]
fn no_progress_along(simplex: &Simplex, unit: Vec2, w: SupportPoint, threshold: f32) -> bool {
    let gain = (w.point - simplex.vertices[0].point).dot(unit);
    gain <= threshold
}
