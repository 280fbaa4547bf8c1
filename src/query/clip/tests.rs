use super::reference::{self, farther_than_touch, kept};
use super::*;
use crate::geom::test_outlines as outlines;
use crate::geom::{Pose, Shape};
use crate::query::sat::sat_test;

#[test]
fn clip_points_read_as_the_points_pushed_and_compare_by_them_only() {
    let mut a = ClipPoints::default();
    assert!(a.is_empty());
    a.push(Vec2::new(1.0, 2.0));
    a.push(Vec2::new(3.0, 4.0));
    assert_eq!(&*a, &[Vec2::new(1.0, 2.0), Vec2::new(3.0, 4.0)]);
    // The same points collected from an iterator compare equal; slots past the length
    // are not part of the value.
    let b: ClipPoints = [Vec2::new(1.0, 2.0), Vec2::new(3.0, 4.0)]
        .into_iter()
        .collect();
    assert_eq!(a, b);
    assert_eq!(format!("{a:?}"), "[Vec2(1.0, 2.0), Vec2(3.0, 4.0)]");
    assert_ne!(a, ClipPoints::default());
}
use crate::query::testing::*;

fn run(a: &Shape, pa: Pose, b: &Shape, pb: Pose) -> (Manifold, Vec<ClipStep>) {
    let pair = ShapePair::new(a, pa, b, pb);
    let normal = sat_test(&pair).normal;
    let mut steps = Vec::new();
    let m = clip(&pair, normal, &mut steps);
    (m, steps)
}

/// Outlines that stress the clip's search: a collinear point in the middle of a side, a
/// repeated point, a side bent just past the collinear tolerance, a triangle and a
/// segment (a capsule of radius 0).
fn awkward_outlines() -> Vec<Shape> {
    vec![
        outlines::split_top(),
        outlines::repeated_point(),
        outlines::bent_top(),
        Shape::polygon(vec![v(0.0, 0.0), v(2.0, 0.0), v(0.0, 1.0)]).unwrap(),
        Shape::capsule(0.7, 0.0).unwrap(),
    ]
}

#[test]
fn farther_than_touch_is_the_gap_length_against_the_tolerance() {
    // `farther_than_touch` answers from bounds when it can (first the one that places
    // no centroid, `touch_tolerance_high`): it must answer `gap.length() >
    // touch_tolerance()` exactly. Shapes whose centroid lies far from their local
    // origin (so the quick bound is loose) and near it, sizes 1e-3 to 1e4, positions
    // near and far from the world origin, quarter turns and 1e-6 turns; gaps of zero,
    // at the tolerance and 1e-3 / 1e-6 either side of it, random, huge, infinite and
    // NaN; NaN positions and angles.
    let mut random = crate::query::sat::tests::Random(57);
    let shapes = tolerance_shapes();
    let (mut quick, mut cases) = (0, 0);
    for k in 0..20_000 {
        let (pair, scale) = tolerance_case(&shapes, &mut random, k);
        let touch = pair.touch_tolerance();
        let direction = Vec2::from_angle(random.range(-3.2, 3.2));
        let length = match k % 10 {
            0 => 0.0,
            1 => touch,
            2 => touch * 1.001,
            3 => touch * 0.999,
            4 => touch * (1.0 + 1.0e-6),
            5 => touch * (1.0 - 1.0e-6),
            6 => random.range(0.0, 4.0) * scale,
            7 => 1.0e30,
            8 => f32::INFINITY,
            _ => f32::NAN,
        };
        let gap = direction * length;
        // The answer from the centroids' bounds alone, as before the quick bound: the
        // same, and `gap.length() > touch` whenever the pose is a number (a NaN
        // position can leave the bounds' low end above the tolerance).
        let (low, high) = pair.touch_tolerance_bounds();
        let length_squared = gap.length_squared();
        let before = if length_squared > (1.001 * high) * (1.001 * high) {
            true
        } else if length_squared < (0.999 * low) * (0.999 * low) {
            false
        } else {
            gap.length() > touch
        };
        let what = format!("case {k}: gap {gap:?}, touch {touch}");
        assert_eq!(farther_than_touch(&pair, gap), before, "{what}");
        if k % 997 != 0 && k % 991 != 0 {
            assert_eq!(before, gap.length() > touch, "{what}");
        }
        let high = pair.touch_tolerance_high();
        quick += usize::from(gap.length_squared() > (1.001 * high) * (1.001 * high));
        cases += 1;
    }
    assert!(
        quick > cases / 4,
        "{quick} of {cases} told by the quick bound"
    );
}

/// Squares, a rectangle and quads whose centroid lies far from their local origin (a
/// loose quick bound on the touch tolerance), at sizes 1e-3, 1 and 1e4: the shapes of
/// the tests of the clip's tolerance bounds.
fn tolerance_shapes() -> Vec<Shape> {
    let mut shapes = Vec::new();
    for size in [1.0e-3, 1.0, 1.0e4] {
        shapes.push(square(size));
        shapes.push(Shape::rect(Vec2::new(1.3 * size, 0.4 * size)).unwrap());
        let off = [(0.0, 0.0), (5.0, 0.0), (3.0, -4.0), (-40.0, 25.0)];
        for (dx, dy) in off {
            let corner = |x: f32, y: f32| Vec2::new(x + dx, y + dy) * size;
            let points = vec![
                corner(-1.0, -0.6),
                corner(1.1, -0.5),
                corner(0.8, 0.7),
                corner(-0.9, 0.5),
            ];
            shapes.push(Shape::polygon(points).unwrap());
        }
    }
    shapes
}

/// Case `k` of the tolerance tests: two of `shapes` posed near each other, at a scale of
/// 1e-3, 1 or 1e4 (returned), turned by 0, 1e-6 or a quarter turn (and a quarter turn
/// plus 1e-6) now and then, with a NaN position or angle once in about a thousand.
fn tolerance_case<'s>(
    shapes: &'s [Shape],
    random: &mut crate::query::sat::tests::Random,
    k: usize,
) -> (ShapePair<'s>, f32) {
    let a = &shapes[k % shapes.len()];
    let b = &shapes[(k * 7 + 3) % shapes.len()];
    let (mut pa, mut pb) = random.pose_near(k);
    let scale = [1.0e-3, 1.0, 1.0e4][k % 3];
    pb.position = pa.position + (pb.position - pa.position) * scale;
    pb.angle = match k % 6 {
        0 => 0.0,
        1 => 1.0e-6,
        2 => std::f32::consts::FRAC_PI_2,
        3 => std::f32::consts::FRAC_PI_2 + 1.0e-6,
        _ => pb.angle,
    };
    if k.is_multiple_of(997) {
        pb.position.x = f32::NAN;
    } else if k.is_multiple_of(991) {
        pa.angle = f32::NAN;
    }
    (ShapePair::new(a, pa, b, pb), scale)
}

#[test]
fn kept_is_the_separation_against_the_tolerance() {
    // `kept` drops a point beyond the quick bound `touch_tolerance_high` without the
    // tolerance itself: it must answer `separation <= 0 || separation <= touch`
    // exactly. Squares and quads whose centroid lies far from their local origin (a
    // loose quick bound), sizes 1e-3 to 1e4, quarter turns and 1e-6 turns; separations
    // of zero, at the tolerance and 1e-6 / 1e-3 either side of it, at the quick bound,
    // random, huge, infinite and NaN; NaN positions and angles.
    let mut random = crate::query::sat::tests::Random(58);
    let shapes = tolerance_shapes();
    let (mut quick, mut above) = (0, 0);
    for k in 0..20_000 {
        let (pair, scale) = tolerance_case(&shapes, &mut random, k);
        let touch = pair.touch_tolerance();
        let high = 1.001 * pair.touch_tolerance_high();
        let separation = match k % 13 {
            0 => 0.0,
            1 => -0.0,
            2 => touch,
            3 => touch * (1.0 + 1.0e-6),
            4 => touch * (1.0 - 1.0e-6),
            5 => touch * 1.001,
            6 => high,
            7 => f32::from_bits(high.to_bits() + 1),
            8 => random.range(-2.0, 4.0) * scale,
            9 => 1.0e30,
            10 => f32::INFINITY,
            11 => -touch,
            _ => f32::NAN,
        };
        let what = format!("case {k}: separation {separation}, touch {touch}");
        let exact = separation <= 0.0 || separation <= touch;
        assert_eq!(kept(&pair, separation), exact, "{what}");
        quick += usize::from(separation > high);
        above += usize::from(separation > 0.0);
    }
    // About half the cases above the face lie near the tolerance on purpose.
    assert!(
        quick > above / 3,
        "{quick} of {above} told by the quick bound"
    );
}

#[test]
fn a_single_edge_s_tangent_is_its_normalized_chord() {
    // The side planes of a single reference edge face along its stored normal turned a
    // quarter turn (no square root), which stands for the normalized chord from its start
    // to its end: the two within 1e-6 on every edge of random and awkward shapes, random
    // poses near and far from the origin.
    let mut random = crate::query::sat::tests::Random(93);
    let mut shapes = random.shapes();
    shapes.extend(awkward_outlines());
    let mut edges = 0;
    for k in 0..2000 {
        let shape = &shapes[k % shapes.len()];
        let (pose, _) = random.pose_near(k);
        let placed = Placed::new(shape, pose, pose.position - v(0.5, -0.25));
        for e in 0..shape.edge_count() {
            let normal = placed.normal(e);
            if normal == Vec2::ZERO {
                continue;
            }
            let side = reference::BestSide {
                edge: EdgeFeature::single(&placed, Body::A, e, normal),
                lone: true,
            };
            let chord = (side.edge.end - side.edge.start).normalize();
            assert!(
                close_v(side.tangent(), chord, 1e-6),
                "shape {k}, edge {e}: {:?} against {chord:?}",
                side.tangent()
            );
            edges += 1;
        }
    }
    assert!(edges > 5000, "{edges}");
}

#[test]
fn small_box_on_big_box_gives_two_points() {
    // B (half 0.5) sits 0.1 deep on A's top face (y = 1): B's bottom at y = 0.9.
    let (a, b) = (square(1.0), square(0.5));
    let (m, steps) = run(&a, at(0.0, 0.0), &b, at(0.2, 1.4));
    assert_eq!(m.count, 2);
    assert_eq!(m.reference, Body::A);
    assert!(close_v(m.normal, v(0.0, 1.0), 1e-6));
    for c in m.points() {
        assert!(close(c.depth, 0.1, 1e-5));
        assert!(
            close(c.point.y, 0.9, 1e-5),
            "points lie on the incident body"
        );
    }
    let xs: Vec<f32> = m.points().iter().map(|c| c.point.x).collect();
    assert!(xs.iter().any(|x| close(*x, -0.3, 1e-5)) && xs.iter().any(|x| close(*x, 0.7, 1e-5)));
    let stages: Vec<ClipStage> = steps.iter().map(|s| s.stage).collect();
    assert_eq!(
        stages,
        vec![
            ClipStage::ChooseEdges,
            ClipStage::SideStart,
            ClipStage::SideEnd,
            ClipStage::ReferenceFace
        ]
    );
}

#[test]
fn big_box_on_small_box_flips_the_reference_and_clips() {
    // A small below, B big above: B's bottom face is the longer, but both faces are
    // exactly perpendicular to the normal, so A keeps the reference on the tie. The
    // incident edge (B's, 2 long) is clipped to A's 1-long face: two created points.
    let (small, big) = (square(0.5), square(1.0));
    let (m, steps) = run(&small, at(0.0, 0.0), &big, at(0.3, 1.4));
    assert_eq!(m.count, 2);
    assert!(close_v(m.normal, v(0.0, 1.0), 1e-6));
    assert!(steps.iter().any(|s| !s.created.is_empty()));
    for c in m.points() {
        assert!(close(c.depth, 0.1, 1e-5));
        assert!(c.point.x >= -0.5 - 1e-5 && c.point.x <= 0.5 + 1e-5);
    }
}

#[test]
fn tilted_box_corner_gives_one_point() {
    // B turned 45 degrees with its lowest corner 0.1 below A's top face.
    let (a, b) = (square(1.0), square(0.5));
    let corner = 0.5 * 2f32.sqrt();
    let (m, _) = run(&a, at(0.0, 0.0), &b, at_deg(0.0, 1.0 + corner - 0.1, 45.0));
    assert_eq!(m.count, 1);
    assert!(close(m.points[0].depth, 0.1, 1e-5));
    assert!(close_v(m.points[0].point, v(0.0, 0.9), 1e-5));
}

#[test]
fn reference_is_b_when_b_faces_the_normal_better() {
    // A tilted 45 degrees pokes a corner up into B's flat bottom face.
    let (a, b) = (square(0.5), square(1.0));
    let corner = 0.5 * 2f32.sqrt();
    let (m, _) = run(&a, at_deg(0.0, 0.0, 45.0), &b, at(0.0, corner + 1.0 - 0.1));
    assert_eq!(m.reference, Body::B);
    assert!(
        close_v(m.normal, v(0.0, 1.0), 1e-5),
        "normal still from A toward B"
    );
    assert_eq!(m.count, 1);
    assert!(
        close_v(m.points[0].point, v(0.0, corner), 1e-5),
        "on the incident body A"
    );
}

#[test]
fn collinear_points_along_the_face_do_not_shorten_it() {
    // A's top face listed as three collinear points: the manifold must span the face.
    let a = outlines::split_top();
    let b = Shape::rect(v(0.8, 0.5)).unwrap();
    let (m, _) = run(&a, at(0.0, 0.0), &b, at(0.0, 1.4));
    assert_eq!(m.count, 2);
    let mut xs: Vec<f32> = m.points().iter().map(|c| c.point.x).collect();
    xs.sort_by(f32::total_cmp);
    assert!(
        close(xs[0], -0.8, 1e-5) && close(xs[1], 0.8, 1e-5),
        "{xs:?}"
    );
}

#[test]
fn circle_on_box_gives_its_deepest_point() {
    let (a, c) = (square(1.0), Shape::circle(0.5).unwrap());
    let (m, steps) = run(&a, at(0.0, 0.0), &c, at(0.2, 1.4));
    assert_eq!(m.count, 1);
    assert!(close_v(m.points[0].point, v(0.2, 0.9), 1e-5));
    assert!(close(m.points[0].depth, 0.1, 1e-5));
    assert_eq!(steps[0].stage, ClipStage::RoundPoint);
}

#[test]
fn capsule_lying_on_a_face_gives_two_points() {
    let (a, cap) = (square(1.0), Shape::capsule(0.5, 0.25).unwrap());
    let (m, _) = run(&a, at(0.0, 0.0), &cap, at(0.0, 1.2));
    assert_eq!(m.count, 2);
    for c in m.points() {
        assert!(close(c.depth, 0.05, 1e-5), "{}", c.depth);
        assert!(close(c.point.y, 0.95, 1e-5), "on the capsule's surface");
    }
}

#[test]
fn feature_ids_are_stable_under_small_motion() {
    let (a, b) = (square(1.0), square(0.5));
    let (m1, _) = run(&a, at(0.0, 0.0), &b, at(0.2, 1.4));
    let (m2, _) = run(&a, at(0.0, 0.0), &b, at(0.21, 1.41));
    let ids = |m: &Manifold| m.points().iter().map(|c| (c.id, c.end)).collect::<Vec<_>>();
    assert_eq!(ids(&m1), ids(&m2));
    assert_ne!(m1.points[0].end, m1.points[1].end);
}

#[test]
fn half_plane_clip_interpolates() {
    let plane = ClipPlane {
        point: v(1.0, 0.0),
        normal: v(1.0, 0.0),
    };
    let out = clip_segment_to_half_plane([(v(0.0, 0.0), 0), (v(2.0, 2.0), 1)], plane).unwrap();
    assert_eq!(out[0], (v(0.0, 0.0), 0));
    assert!(close_v(out[1].0, v(1.0, 1.0), 1e-6));
    assert!(clip_segment_to_half_plane([(v(2.0, 0.0), 0), (v(3.0, 0.0), 1)], plane).is_none());
}

#[test]
fn triangle_corner_against_a_capsule_side_is_one_point_on_both() {
    // Found by the property tests: the triangle's short edge is within 1 degree of the
    // normal, the capsule's core is not, so clipping the core kept nothing near the
    // contact and a point 0.08 away was reported.
    let a = Shape::polygon(vec![
        v(0.55260557, 0.13945195),
        v(0.4888713, 0.2880589),
        v(-0.4914325, -0.28385714),
    ])
    .unwrap();
    let b = Shape::capsule(0.8474526, 0.72412777).unwrap();
    let pa = Pose::new(v(1.4660958, 0.5566658), 3.0263424);
    let pb = Pose::new(
        v(
            -0.5798141 + 0.95390975 * 0.01,
            -0.026969153 + 0.3000934 * 0.01,
        ),
        0.16165482,
    );
    let (m, _) = run(&a, pa, &b, pb);
    assert_eq!(m.count, 1);
    // The contact is at A's corner, 0.01 inside the capsule.
    let corner = pa.transform_point(v(0.4888713, 0.2880589));
    assert!(
        (m.points[0].point - corner).length() < 0.02,
        "{:?} vs corner {corner}",
        m.points[0]
    );
    assert!(
        close(m.points[0].depth, 0.01, 1e-4),
        "{}",
        m.points[0].depth
    );
}
