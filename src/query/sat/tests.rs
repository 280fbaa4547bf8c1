use super::projection::{step_to_extreme_valued, SmallCore};
use super::*;
use super::{calipers, reference, registers, small};
use crate::geom::{Pose, Shape};
use crate::query::testing::*;

fn run(a: &Shape, pa: Pose, b: &Shape, pb: Pose) -> (SatOutput, Vec<SatAxis>) {
    let pair = ShapePair::new(a, pa, b, pb);
    let mut axes = Vec::new();
    let out = sat(&pair, &mut axes);
    (out, axes)
}

#[test]
fn boxes_test_all_eight_edge_normals_with_world_intervals() {
    let s = square(1.0);
    let (out, axes) = run(&s, at(10.0, 0.0), &s, at(11.5, 0.3));
    assert_eq!(axes.len(), 8);
    assert_eq!(out.axes_tested, 8);
    // A's edge 1 has normal +x: A covers [9, 11], B [10.5, 12.5].
    let x = axes
        .iter()
        .find(|a| {
            a.source
                == AxisSource::Edge {
                    body: Body::A,
                    index: 1,
                }
        })
        .unwrap();
    assert!(close(x.interval_a.min, 9.0, 1e-5) && close(x.interval_a.max, 11.0, 1e-5));
    assert!(close(x.interval_b.min, 10.5, 1e-5) && close(x.interval_b.max, 12.5, 1e-5));
    assert!(close(x.overlap, 0.5, 1e-5));
    assert!(out.intersecting);
    assert!(close(out.depth.unwrap(), 0.5, 1e-5));
    assert!(close_v(out.normal, v(1.0, 0.0), 1e-6));
    assert_eq!(
        out.axis,
        AxisSource::Edge {
            body: Body::A,
            index: 1
        }
    );
}

#[test]
fn separated_records_every_axis_and_the_largest_gap() {
    let s = square(1.0);
    let (out, axes) = run(&s, at(0.0, 0.0), &s, at(0.0, -3.0));
    assert!(!out.intersecting);
    assert_eq!(axes.len(), 8);
    assert!(close(out.separation.unwrap(), 1.0, 1e-6));
    assert!(close_v(out.normal, v(0.0, -1.0), 1e-6));
    assert!(axes.iter().filter(|a| a.separates()).count() >= 2);
}

#[test]
fn tie_keeps_a_s_axis() {
    // Overlap 0.5 on x and on y: the first axis found (A's) wins.
    let s = square(1.0);
    let (out, _) = run(&s, at(0.0, 0.0), &s, at(1.5, 1.5));
    assert!(close(out.depth.unwrap(), 0.5, 1e-6));
    assert_eq!(out.axis.body(), Some(Body::A));
}

#[test]
fn circle_near_a_corner_uses_the_vertex_axis() {
    // Circle centre (1.6, 1.8): 0.6, 0.8 from the corner (1, 1), distance 1, radius 0.5.
    let s = square(1.0);
    let c = Shape::circle(0.5).unwrap();
    let (out, axes) = run(&s, at(0.0, 0.0), &c, at(1.6, 1.8));
    assert!(!out.intersecting);
    assert!(close(out.separation.unwrap(), 0.5, 1e-5));
    assert!(close_v(out.normal, v(0.6, 0.8), 1e-5));
    assert!(matches!(out.axis, AxisSource::Vertex { .. }));
    assert!(axes.len() > 4);
}

#[test]
fn concentric_circles_fall_back_to_x() {
    let c = Shape::circle(1.0).unwrap();
    let (out, axes) = run(&c, at(0.0, 0.0), &c, at(0.0, 0.0));
    assert_eq!(axes.len(), 1);
    assert_eq!(out.axis, AxisSource::Fallback);
    assert!(close(out.depth.unwrap(), 2.0, 1e-6));
}

#[test]
fn collinear_and_repeated_vertices_give_the_same_answer() {
    let clean = square(1.0);
    let messy = Shape::polygon(vec![
        v(-1.0, -1.0),
        v(0.0, -1.0),
        v(1.0, -1.0),
        v(1.0, -1.0),
        v(1.0, 1.0),
        v(-1.0, 1.0),
    ])
    .unwrap();
    for (x, y, deg) in [(1.5, 0.3, 0.0), (0.4, 1.7, 30.0), (-1.2, -1.1, 75.0)] {
        let (a, _) = run(&clean, at(0.0, 0.0), &clean, at_deg(x, y, deg));
        let (b, _) = run(&messy, at(0.0, 0.0), &clean, at_deg(x, y, deg));
        assert!(close(a.depth.unwrap(), b.depth.unwrap(), 1e-5));
        assert!(close_v(a.normal, b.normal, 1e-5));
    }
}

#[test]
fn calipers_match_brute_force_projection_on_large_polygons() {
    let a = Shape::regular(300, 2.0).unwrap();
    let b = Shape::regular(57, 1.0).unwrap();
    let pair = ShapePair::new(&a, at_deg(0.0, 0.0, 7.0), &b, at_deg(2.1, 0.9, 33.0));
    let mut axes = Vec::new();
    sat(&pair, &mut axes);
    for axis in &axes {
        let project = |p: &crate::geom::Placed| {
            let ds = (0..p.vertex_count()).map(|i| p.vertex(i).dot(axis.axis));
            ds.clone().fold(f32::MAX, f32::min)..ds.fold(f32::MIN, f32::max)
        };
        let (ra, rb) = (project(&pair.a), project(&pair.b));
        assert!(
            close(axis.interval_a.min, ra.start, 1e-4) && close(axis.interval_a.max, ra.end, 1e-4)
        );
        assert!(
            close(axis.interval_b.min, rb.start, 1e-4) && close(axis.interval_b.max, rb.end, 1e-4)
        );
    }
}

/// A SplitMix64 stream of floats in [0, 1), for fixed-seed random cases.
pub(crate) struct Random(pub u64);

impl Random {
    pub(crate) fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32
    }

    pub(crate) fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.next()
    }

    /// Boxes, random convex 3- to 8-gons (one point in each of n equal sectors of an
    /// ellipse), a 12-gon (SAT's pass of 16 lanes), a 20-gon (the calipers path), a
    /// circle and a capsule.
    /// A convex `n`-gon: one point in each of `n` equal sectors of an ellipse with
    /// random radii of 0.7 to 1.3.
    pub(crate) fn ellipse_polygon(&mut self, n: usize) -> Shape {
        let (rx, ry) = (self.range(0.7, 1.3), self.range(0.7, 1.3));
        let points = (0..n)
            .map(|k| {
                let sector = std::f32::consts::TAU / n as f32;
                let angle = sector * (k as f32 + self.range(0.1, 0.9));
                v(rx * angle.cos(), ry * angle.sin())
            })
            .collect();
        Shape::polygon(points).unwrap()
    }

    pub(crate) fn shapes(&mut self) -> Vec<Shape> {
        let mut shapes = vec![square(1.0), Shape::rect(v(1.3, 0.4)).unwrap()];
        for n in 3..=8 {
            for _ in 0..3 {
                shapes.push(self.ellipse_polygon(n));
            }
        }
        shapes.push(Shape::regular(12, 1.1).unwrap());
        shapes.push(Shape::regular(20, 1.05).unwrap());
        shapes.push(Shape::circle(0.8).unwrap());
        shapes.push(Shape::capsule(0.7, 0.3).unwrap());
        shapes
    }

    /// A pose within reach of a unit shape at the origin (overlapping, touching or
    /// apart), far from the world origin every fourth time.
    pub(crate) fn pose_near(&mut self, k: usize) -> (Pose, Pose) {
        let base = if k % 4 == 3 {
            v(3.0e4, -2.0e4)
        } else {
            Vec2::ZERO
        };
        let a = Pose::new(base, self.range(-3.2, 3.2));
        let offset = v(self.range(-2.8, 2.8), self.range(-2.8, 2.8));
        (a, Pose::new(base + offset, self.range(-3.2, 3.2)))
    }
}

/// Every bit of an output, NaNs included (`PartialEq` calls no NaN equal to itself).
fn output_bits(out: &SatOutput) -> String {
    let b = &out.best;
    format!(
        "{} {:?} {:?} {:x} {:x} {:?} | {:?} {:x} {:x} {:x} {:x} {:x} {:x} {:x} {:?} {:?} | {}",
        out.intersecting,
        out.depth.map(f32::to_bits),
        out.separation.map(f32::to_bits),
        out.normal.x.to_bits(),
        out.normal.y.to_bits(),
        out.axis,
        b.source,
        b.axis.x.to_bits(),
        b.axis.y.to_bits(),
        b.interval_a.min.to_bits(),
        b.interval_a.max.to_bits(),
        b.interval_b.min.to_bits(),
        b.interval_b.max.to_bits(),
        b.overlap.to_bits(),
        b.best_so_far,
        b.ties_with,
        out.axes_tested,
    )
}

#[test]
fn poses_with_non_numbers_give_the_same_bits_on_every_path() {
    // The agreement harness (src/agreement.rs) checks every fast path on poses that are
    // numbers. With a NaN or an infinity in a position or an angle the answer is NaN, and
    // the passes must still agree to the bit: the register pass, as the processor runs it
    // and as the x86_64 baseline runs it, gives the small pass's output (the reference
    // steps through the NaN axes one by one and may keep another), and the calipers give
    // the reference's.
    let mut random = Random(56);
    let mut shapes = vec![
        square(1.0),
        Shape::rect(v(1.3, 0.4)).unwrap(),
        Shape::polygon(vec![v(0.0, 0.0), v(2.0, 0.0), v(0.0, 1.0)]).unwrap(),
    ];
    shapes.extend([5, 8].map(|n| random.ellipse_polygon(n)));
    shapes.extend([12, 20, 64].map(|n| Shape::regular(n, 1.0).unwrap()));
    let (mut registers_checked, mut calipers_checked) = (0, 0);
    for (i, a) in shapes.iter().enumerate() {
        for b in &shapes[i..] {
            for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                for place in 0..3 {
                    let (mut pa, mut pb) = random.pose_near(place);
                    match place {
                        0 => pb.position.x = bad,
                        1 => pb.angle = bad,
                        _ => pa.position.y = bad,
                    }
                    let pair = ShapePair::new(a, pa, b, pb);
                    let large = a.core().len() > SMALL_CORE || b.core().len() > SMALL_CORE;
                    if large {
                        let expected = output_bits(&reference::sat(&pair, &mut ()));
                        assert_eq!(output_bits(&calipers::sat_large(&pair)), expected);
                        calipers_checked += 1;
                    } else if registers::applies(&pair) {
                        let expected = output_bits(&small::sat_small(&pair));
                        assert_eq!(output_bits(&registers::sat_small(&pair)), expected);
                        let baseline = registers::sat_small_in(&pair, crate::simd::Build::Baseline);
                        assert_eq!(output_bits(&baseline), expected);
                        registers_checked += 1;
                    }
                }
            }
        }
    }
    assert!(registers_checked > 100, "{registers_checked}");
    assert!(calipers_checked > 100, "{calipers_checked}");
}

/// The poses of case `k` of the test of the calipers' quick terms: `random.pose_near(k)` with B moved out to `size`, then by `k % 8` a grid
/// of quarters, the same body face to face (the flag: the pair is `a` against itself),
/// turns of 1e-6, or a non-number in a position or an angle.
fn tied_poses(k: usize, a: &Shape, size: f32, random: &mut Random) -> (Pose, Pose, bool) {
    let quarter = std::f32::consts::FRAC_PI_2;
    let (mut pa, mut pb) = random.pose_near(k);
    pb.position = pa.position + (pb.position - pa.position) * size;
    match k % 8 {
        // On a grid of quarters of the size, unturned or by quarter turns: equal
        // bodies face to face, touching, overlaps that tie exactly.
        0 | 1 => {
            let turn = |r: &mut Random| (r.range(0.0, 4.0).floor()) * quarter;
            pa = Pose::new(
                pa.position.round(),
                if k.is_multiple_of(8) {
                    0.0
                } else {
                    turn(random)
                },
            );
            let offset = (4.0 * (pb.position - pa.position) / size).round() * size / 4.0;
            pb = Pose::new(
                pa.position + offset,
                if k.is_multiple_of(8) {
                    0.0
                } else {
                    turn(random)
                },
            );
        }
        // The same bodies (a copy), face to face along x or y, touching or
        // overlapping by a quarter.
        2 => {
            let reach = 2.0 * a.bounding_radius();
            let along = if k % 16 == 2 {
                v(1.0, 0.0)
            } else {
                v(0.0, 1.0)
            };
            let depth = if k % 32 < 16 { 0.0 } else { 0.25 * reach };
            pa = Pose::new(pa.position, 0.0);
            pb = Pose::new(pa.position + along * (reach - depth), 0.0);
            return (pa, pb, true);
        }
        // Turns of 1e-6, and quarter turns + 1e-6.
        3 => {
            pa.angle = 1.0e-6;
            pb.angle = quarter + 1.0e-6 * (k % 3) as f32;
        }
        // Non-numbers and infinities in a position or an angle.
        4 if k % 40 == 4 => {
            let bad = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][(k / 40) % 3];
            match (k / 120) % 3 {
                0 => pb.position.x = bad,
                1 => pb.angle = bad,
                _ => pa.position.y = bad,
            }
        }
        _ => {}
    }
    (pa, pb, false)
}

#[test]
fn calipers_windows_step_as_the_scalar_walk() {
    // `step_to_extreme_valued` (four projections a register, then the scalar walk)
    // against the lap with a wrapped index one vertex at a time (its form before the
    // windows and the straight runs): the same vertex and the same bits of its value
    // from every start.
    let wrapped = |core: &[Vec2], start: usize, d: Vec2| {
        let n = core.len();
        let (mut k, mut best) = (start, core[start].dot(d));
        for _ in 0..n {
            let next = if k + 1 == n { 0 } else { k + 1 };
            let value = core[next].dot(d);
            if value < best {
                break;
            }
            (k, best) = (next, value);
        }
        (k, best)
    };
    // The cores need not be convex for either walk, so besides regular
    // polygons (ties on axis-aligned directions) they include random points (every
    // pattern of stops), runs of equal points, NaN and infinite coordinates, and every
    // size from 1 to 12 points (below 4 no window fits; windows that reach the slice's
    // end or the lap's last steps).
    let mut random = Random(79);
    let mut cores: Vec<Vec<Vec2>> = vec![
        Shape::regular(16, 1.0).unwrap().core().to_vec(),
        Shape::regular(300, 2.0).unwrap().core().to_vec(),
        vec![Vec2::ONE; 9],
        vec![Vec2::new(f32::NAN, 1.0); 7],
    ];
    for n in (1..=12).chain([31, 64]) {
        for _ in 0..6 {
            let mut core: Vec<Vec2> = (0..n)
                .map(|_| Vec2::new(random.range(-2.0, 2.0), random.range(-2.0, 2.0)))
                .collect();
            // Repeats (equal projections), and now and then a NaN or an infinity.
            for k in 1..n {
                if random.next() < 0.2 {
                    core[k] = core[k - 1];
                }
            }
            if random.next() < 0.3 {
                let k = (random.next() * n as f32) as usize % n;
                core[k].x = [f32::NAN, f32::INFINITY, -f32::INFINITY][k % 3];
            }
            cores.push(core);
        }
    }
    let mut directions: Vec<Vec2> = (0..4)
        .map(|q| Vec2::from_angle(std::f32::consts::FRAC_PI_2 * q as f32))
        .chain((0..24).map(|_| Vec2::from_angle(random.range(-3.2, 3.2))))
        .collect();
    directions.extend([Vec2::ZERO, Vec2::new(f32::NAN, 0.0), Vec2::new(1e30, -1e30)]);
    for core in &cores {
        for (j, &d) in directions.iter().enumerate() {
            for start in 0..core.len() {
                // The same bits, or NaN for both (a NaN's payload is not part of the
                // answer).
                let bits = |v: f32| if v.is_nan() { None } else { Some(v.to_bits()) };
                let (k, value) = step_to_extreme_valued(core, start, d);
                let (scalar_k, scalar_value) = wrapped(core, start, d);
                assert_eq!(
                    (k, bits(value)),
                    (scalar_k, bits(scalar_value)),
                    "{} vertices, start {start}, direction {j}",
                    core.len()
                );
            }
        }
    }
}

/// A regular `n`-gon of radius 1 with vertex 3 repeated (an edge with no length, no
/// axis), and one with a vertex inserted halfway along its side from vertex 4 to 5.
fn repeated_and_on_side(n: u32) -> Vec<Shape> {
    let core = Shape::regular(n, 1.0).unwrap().core().to_vec();
    let mut repeated = core.clone();
    repeated.insert(3, core[3]);
    let mut on_side = core.clone();
    on_side.insert(5, (core[4] + core[5]) * 0.5);
    [repeated, on_side]
        .into_iter()
        .map(|points| Shape::polygon(points).unwrap())
        .collect()
}

/// The large-polygon guard tests' shapes: `large` (each more than `SMALL_CORE` vertices)
/// and `small` (a square, a triangle, an 8-gon), each at sizes 1e-3, 1 and 1e4.
fn large_and_small(random: &mut Random) -> (Vec<Shape>, Vec<Shape>) {
    let mut base: Vec<Shape> = Vec::new();
    for n in [17, 18, 20, 24, 33, 64, 100, 256, 1024] {
        base.push(random.ellipse_polygon(n));
    }
    for n in [20, 24, 32, 64, 256, 1024] {
        base.push(Shape::regular(n, 1.0).unwrap());
    }
    base.extend(repeated_and_on_side(20));
    let scaled = |shapes: &[Shape]| -> Vec<Shape> {
        [1.0e-3, 1.0, 1.0e4]
            .iter()
            .flat_map(|&scale| {
                shapes.iter().map(move |s| {
                    Shape::polygon(s.core().iter().map(|&p| p * scale).collect()).unwrap()
                })
            })
            .collect()
    };
    let large = scaled(&base);
    let small = scaled(&[
        square(1.0),
        Shape::polygon(vec![v(0.0, 0.0), v(2.0, 0.0), v(0.0, 1.0)]).unwrap(),
        Shape::regular(8, 1.0).unwrap(),
    ]);
    (large, small)
}

/// Pair `k` of the large-polygon guard tests: a large shape against a large one, or (one
/// in five) a small one, the order swapped one in ten, placed by `tied_poses`.
fn large_pair<'s>(
    k: usize,
    large: &'s [Shape],
    small: &'s [Shape],
    random: &mut Random,
) -> ShapePair<'s> {
    let a = &large[k % large.len()];
    let b = if k % 5 == 4 {
        &small[(k / 5) % small.len()]
    } else {
        &large[(k * 7 + 3) % large.len()]
    };
    let (a, b) = if k % 10 == 9 { (b, a) } else { (a, b) };
    let size = a.bounding_radius().max(b.bounding_radius());
    let (pa, pb, itself) = tied_poses(k, a, size, random);
    ShapePair::new(a, pa, if itself { a } else { b }, pb)
}

#[test]
fn quick_terms_stay_well_inside_their_margin() {
    // `calipers::sat_large` skips an axis on its quick terms when they clear the bound
    // by `QUICK_MARGIN * EPSILON * S`; the header bounds their difference from the
    // placed terms by about 12 EPSILON S. Measured here on the guard test's shapes and
    // poses (near and far from the origin, sizes 1e-3 to 1e4, ties, turns of 1e-6):
    // the difference must stay under a quarter of the margin.
    let mut random = Random(92);
    let (large, small) = large_and_small(&mut random);
    let (mut worst, mut axes) = (0.0f32, 0usize);
    for k in 0..3000 {
        let pair = large_pair(k, &large, &small, &mut random);
        let scale = calipers::reach(&pair.a) + calipers::reach(&pair.b);
        if !scale.is_finite() || !pair.a.rotation.is_finite() || !pair.b.rotation.is_finite() {
            continue; // the NaN and infinite poses: every compare fails, nothing skipped
        }
        for (own, other) in [(&pair.a, &pair.b), (&pair.b, &pair.a)] {
            for [quick, placed] in quick_and_placed_terms(own, other) {
                for (q, p) in [(quick.0, placed.0), (quick.1, placed.1)] {
                    let off = (q - p).abs() / (f32::EPSILON * scale);
                    assert!(off.is_finite(), "{pair:?}: {q} vs {p}");
                    worst = worst.max(off);
                    axes += 1;
                }
            }
        }
    }
    assert!(axes > 1_000_000, "{axes}");
    assert!(
        worst <= calipers::QUICK_MARGIN / 4.0,
        "a quick term off by {worst} EPSILON S"
    );
}

#[test]
fn small_core_extent_is_exactly_a_pass_over_the_vertices() {
    // Every vertex count the small path takes, rotated and moved, on many directions:
    // the halving finds the very same projections as a plain pass (bit for bit).
    for n in 3..=SMALL_CORE as u32 {
        let shape = Shape::regular(n, 1.3).unwrap();
        let placed =
            crate::geom::Placed::new(&shape, at_deg(2.5, -1.5, 11.0 * n as f32), v(0.3, 0.2));
        let core8 = SmallCore::<SMALL_CORE>::new(&placed);
        let core4 = (n <= 4).then(|| SmallCore::<4>::new(&placed));
        for k in 0..64 {
            let d = Vec2::from_angle(k as f32 * 0.1 + 0.05);
            let projections = (0..placed.vertex_count()).map(|i| placed.vertex(i).dot(d));
            let low = projections.clone().fold(f32::INFINITY, f32::min);
            let high = projections.fold(f32::NEG_INFINITY, f32::max);
            assert_eq!(core8.extent(d), (low, high), "{n}-gon, direction {k}");
            if let Some(core4) = &core4 {
                assert_eq!(
                    core4.extent(d),
                    (low, high),
                    "{n}-gon (4-wide), direction {k}"
                );
            }
        }
    }
}

/// For the test of the quick test's margin: every axis of `own` against `other` as
/// `calipers::edge_axes_lean` steps them (the first one's calipers from the same support look-ups),
/// with its quick terms and its placed terms.
fn quick_and_placed_terms(
    own: &crate::geom::Placed,
    other: &crate::geom::Placed,
) -> Vec<[(f32, f32); 2]> {
    let shape = own.shape;
    let core = other.shape.core();
    let offset = own.translation - other.translation;
    let mut calipers: Option<(usize, usize)> = None;
    let mut terms = Vec::new();
    for ((&normal, &vertex), &back) in shape
        .normals()
        .iter()
        .zip(shape.core())
        .zip(shape.back_extents())
    {
        let n = own.rotation.rotate(normal);
        if n == Vec2::ZERO {
            continue;
        }
        let local = other.local_direction(n);
        let (start_low, start_high) =
            calipers.unwrap_or((other.support_index(-n), other.support_index(n)));
        let (low, below) = step_to_extreme_valued(core, start_low, -local);
        let (high, above) = step_to_extreme_valued(core, start_high, local);
        calipers = Some((low, high));
        let quick = calipers::quick_terms(vertex.dot(normal), offset.dot(n), below, above, back);
        let top = (own.rotation.rotate(vertex) + own.translation).dot(n);
        let other_min = (other.rotation.rotate(core[low]) + other.translation).dot(n);
        let other_max = (other.rotation.rotate(core[high]) + other.translation).dot(n);
        terms.push([quick, (top - other_min, other_max - (top - back))]);
    }
    terms
}
