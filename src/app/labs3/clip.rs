//! The contact manifold in 3D: the feature pair and both features, the reference face and
//! the side plane of each clip with the incident polygon before and after it (points kept,
//! dropped and created in three colours), points dropped above the reference face, the
//! reduction's picks with their scores, and the final points with their depths and the
//! normal.

use super::{feature_points, outline, BodyGeometry, Lab3, Lab3Ctx};
use crate::app::draw::{palette, LegendEntry, LABEL_DETAIL};
use crate::query::Algorithm;
use crate::query3::manifold::{ContactPoint3, Feature, ReduceRule, Side, Step};
use crate::text::readable;
use glam::Vec3;
use macroquad::prelude::Color;

pub struct ClipLab;

/// Points kept by a clip, points it created on the side plane, points it cut away.
const KEPT: Color = palette::STRUCTURE;
const CREATED: Color = palette::SEARCH;
const CUT: Color = palette::OTHER;

impl Lab3 for ClipLab {
    fn algorithm(&self) -> Algorithm {
        Algorithm::Clip
    }

    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry::new(palette::HIGHLIGHT, "reference face, side plane"),
            LegendEntry::new(palette::SEARCH, "incident feature, points created"),
            LegendEntry::new(KEPT, "points kept"),
            LegendEntry::new(CUT, "points cut away or dropped"),
            LegendEntry::new(palette::RESULT, "contact points, depths, normal"),
        ]
    }

    fn draw(&self, ctx: &Lab3Ctx) {
        let steps = &ctx.run.trace.clip;
        let Some(k) = ctx
            .step
            .or_else(|| steps.len().checked_sub(1))
            .filter(|&k| k < steps.len())
        else {
            return;
        };
        let Some((a, b)) = ctx.bodies() else {
            return;
        };
        let features = steps.iter().find_map(|s| match s {
            Step::Features {
                reference,
                reference_feature,
                incident_feature,
                ..
            } => Some((*reference, *reference_feature, *incident_feature)),
            _ => None,
        });
        let Some((reference, reference_feature, incident_feature)) = features else {
            return;
        };
        let (ref_body, inc_body) = match reference {
            Side::A => (&a, &b),
            Side::B => (&b, &a),
        };
        let roles = Roles {
            reference,
            ref_body,
            inc_body,
            reference_feature,
            incident_feature,
        };
        match &steps[k] {
            Step::Features { .. } => draw_features(ctx, &roles),
            Step::ClipPlane {
                edge,
                normal,
                before,
                after,
                ..
            } => {
                draw_reference(ctx, &roles, false);
                draw_side_plane(ctx, &roles, *edge, *normal);
                draw_clip(ctx, before, after);
            }
            Step::Dropped { point, height } => {
                draw_reference(ctx, &roles, true);
                ctx.paint.dot(*point, 6.0, CUT);
                ctx.label(
                    *point,
                    format!("{} above: dropped", readable(*height)),
                    CUT,
                    LABEL_DETAIL + 1,
                );
            }
            Step::Reduce { .. } => {
                draw_reference(ctx, &roles, true);
                draw_reduction(ctx, &steps[..=k]);
            }
            Step::Points { points } => {
                draw_reference(ctx, &roles, true);
                draw_points(ctx, &roles, points, &a, &b);
            }
        }
    }
}

/// The final points, each with its depth drawn from it to the reference surface, and the
/// normal.
fn draw_points(
    ctx: &Lab3Ctx,
    roles: &Roles,
    points: &[ContactPoint3],
    a: &BodyGeometry,
    b: &BodyGeometry,
) {
    let normal = ctx.run.query.manifold.map_or(Vec3::Y, |m| m.normal);
    // Points lie on the incident body: A's surface is `depth` along the normal from a point
    // of B, B's `depth` against it from a point of A.
    let sign = match roles.reference {
        Side::A => 1.0,
        Side::B => -1.0,
    };
    for (i, c) in points.iter().enumerate() {
        let face = c.point + normal * (sign * c.depth);
        ctx.paint.line_on_top(c.point, face, 3.0, palette::RESULT);
        ctx.paint.dot(c.point, 6.0, palette::RESULT);
        ctx.label(
            c.point,
            format!("{}: depth {}", i + 1, readable(c.depth)),
            palette::RESULT,
            LABEL_DETAIL + 1,
        );
    }
    if let Some(first) = points.first() {
        let length = (a.body.shape.bounding_radius() + b.body.shape.bounding_radius()) * 0.25;
        let tip = first.point + normal * length;
        ctx.paint.arrow(first.point, tip, 3.0, palette::RESULT);
        ctx.label(tip, "normal", palette::RESULT, LABEL_DETAIL);
    }
}

/// Which body holds the reference feature, and the two features.
struct Roles<'a> {
    reference: Side,
    ref_body: &'a BodyGeometry<'a>,
    inc_body: &'a BodyGeometry<'a>,
    reference_feature: Feature,
    incident_feature: Feature,
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::A => "A",
        Side::B => "B",
    }
}

/// A feature drawn on its body: a face filled and outlined, an edge thick, a vertex a dot.
fn draw_feature(ctx: &Lab3Ctx, points: &[Vec3], color: Color, text: String) {
    match points {
        [] => return,
        [p] => ctx.paint.dot(*p, 7.0, color),
        [p, q] => ctx.paint.line_on_top(*p, *q, 5.0, color),
        many => {
            ctx.paint.polygon(many, palette::with_alpha(color, 0.4));
            outline(ctx, many, 2.5, color);
        }
    }
    let c = points.iter().copied().sum::<Vec3>() / points.len() as f32;
    ctx.label(c, text, color, LABEL_DETAIL + 1);
}

fn feature_words(f: Feature, side: Side) -> String {
    format!("{} {} of {}", f.key(), f.index(), side_name(side))
}

/// The first step: both supporting features.
fn draw_features(ctx: &Lab3Ctx, roles: &Roles) {
    let other = match roles.reference {
        Side::A => Side::B,
        Side::B => Side::A,
    };
    draw_feature(
        ctx,
        &feature_points(roles.ref_body, roles.reference_feature),
        palette::HIGHLIGHT,
        format!(
            "reference: {}",
            feature_words(roles.reference_feature, roles.reference)
        ),
    );
    draw_feature(
        ctx,
        &feature_points(roles.inc_body, roles.incident_feature),
        palette::SEARCH,
        format!("incident: {}", feature_words(roles.incident_feature, other)),
    );
}

/// The reference feature, lighter when it is only the backdrop of a later step.
fn draw_reference(ctx: &Lab3Ctx, roles: &Roles, faded: bool) {
    let points = feature_points(roles.ref_body, roles.reference_feature);
    if points.len() >= 3 {
        let alpha = if faded { 0.2 } else { 0.3 };
        ctx.paint
            .polygon(&points, palette::with_alpha(palette::HIGHLIGHT, alpha));
        outline(ctx, &points, 1.5, palette::HIGHLIGHT);
    }
}

/// The side plane of reference edge `edge`: a translucent quad through the edge, along the
/// reference face's normal, facing `normal`.
fn draw_side_plane(ctx: &Lab3Ctx, roles: &Roles, edge: u32, normal: Vec3) {
    let Some([p, q]) = roles.ref_body.edge(edge) else {
        return;
    };
    let up = match roles.reference_feature {
        Feature::Face(i) => roles.ref_body.face_normal(i).unwrap_or(Vec3::Y),
        _ => normal.any_orthonormal_vector(),
    };
    let h = (q - p)
        .length()
        .max(roles.ref_body.body.shape.bounding_radius() * 0.3)
        * 0.5;
    let quad = [p - up * h, q - up * h, q + up * h, p + up * h];
    ctx.paint
        .polygon(&quad, palette::with_alpha(palette::HIGHLIGHT, 0.18));
    outline(
        ctx,
        &quad,
        1.5,
        palette::with_alpha(palette::HIGHLIGHT, 0.8),
    );
    ctx.paint.line_on_top(p, q, 4.0, palette::HIGHLIGHT);
    let m = 0.5 * (p + q);
    ctx.paint
        .arrow(m, m + normal * h * 0.8, 2.0, palette::HIGHLIGHT);
    ctx.label(
        m + normal * h * 0.8,
        format!("side plane of edge {edge}"),
        palette::HIGHLIGHT,
        LABEL_DETAIL + 1,
    );
}

/// Whether `p` is one of `points` (the same recorded point: clipping copies kept points).
fn contains(points: &[Vec3], p: Vec3) -> bool {
    points.iter().any(|q| (*q - p).length_squared() <= 1e-12)
}

/// One clip: the polygon before (dashed), after (solid), and each point's fate.
fn draw_clip(ctx: &Lab3Ctx, before: &[Vec3], after: &[Vec3]) {
    for (k, p) in before.iter().enumerate() {
        let q = before[(k + 1) % before.len()];
        ctx.paint
            .dashed(*p, q, 1.5, palette::with_alpha(palette::TEXT, 0.6));
    }
    if after.len() >= 2 {
        outline(ctx, after, 2.5, KEPT);
    }
    for p in before.iter().filter(|p| !contains(after, **p)) {
        ctx.paint.dot(*p, 5.0, CUT);
    }
    for p in after {
        let color = if contains(before, *p) { KEPT } else { CREATED };
        ctx.paint.dot(*p, 5.0, color);
    }
    let created = after.iter().filter(|p| !contains(before, **p)).count();
    let cut = before.iter().filter(|p| !contains(after, **p)).count();
    if let Some(p) = after.first().or(before.first()) {
        ctx.label(
            *p,
            format!("{} kept, {created} new, {cut} cut", after.len() - created),
            KEPT,
            LABEL_DETAIL,
        );
    }
}

/// The reduction so far: each point kept, numbered, with its rule's score.
fn draw_reduction(ctx: &Lab3Ctx, steps: &[Step]) {
    let picks: Vec<(ReduceRule, Vec3, f32)> = steps
        .iter()
        .filter_map(|s| match s {
            Step::Reduce { rule, point, score } => Some((*rule, *point, *score)),
            _ => None,
        })
        .collect();
    let candidates = steps.iter().rev().find_map(|s| match s {
        Step::ClipPlane { after, .. } => Some(after.clone()),
        _ => None,
    });
    for p in candidates.unwrap_or_default() {
        ctx.paint.dot(p, 4.0, CUT);
    }
    for (i, (rule, p, score)) in picks.iter().enumerate() {
        let last = i + 1 == picks.len();
        let color = if last { palette::RESULT } else { KEPT };
        ctx.paint.dot(*p, if last { 7.0 } else { 5.0 }, color);
        let what = match rule {
            ReduceRule::Deepest => "deepest",
            ReduceRule::Farthest => "farthest",
            ReduceRule::LargestTriangle => "largest triangle",
            ReduceRule::MostAddedArea => "most added area",
        };
        ctx.label(
            *p,
            format!("{}: {what} {}", i + 1, readable(*score)),
            color,
            LABEL_DETAIL + u8::from(last),
        );
    }
}
