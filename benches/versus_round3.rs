//! Spheres and capsules in 3D: our queries against parry3d 0.31 on identical random pairs
//! (sphere-box, capsule-box, capsule-capsule, about half overlapping), and the cost of
//! recording.
//!
//! Run with `cargo bench --bench versus_round3` (under a minute). Criterion measures our
//! rows; then a paired measurement prints the table: the two runners of a row take turns
//! round after round and the ratio is the median over rounds of ours / theirs (the method of
//! `benches/versus_3d.rs`), so a change in the machine's load hits both alike.
//!
//! What each side runs, per case:
//! - distance: ours `gjk` on the cores plus `with_radii`; parry3d `query::distance`.
//! - penetration: ours `gjk` on the cores, then `epa_rounded` (cores apart within the radii:
//!   no expansion); parry3d `query::contact` with zero prediction (its own GJK/EPA or the
//!   special cases it has for balls and capsules).
//! - SAT + manifold: ours `sat_round_test` then `contact_manifold_round` (what the pair
//!   query builds); parry3d `query::contact` (one contact point: the nearest equivalent).
//! - recording: `trace_pair3` against `query_pair3` on the same pairs.

use collision_lab::geom3::{Pose3, Shape3, Shape3Kind};
use collision_lab::query3::manifold_round::contact_manifold_round;
use collision_lab::query3::pair::{query_pair3, trace_pair3, BodyRef3, PairSettings3};
use collision_lab::query3::round::{epa_rounded, with_radii, BodyPair3};
use collision_lab::query3::sat_round::sat_round_test;
use collision_lab::query3::{epa, gjk};
use criterion::Criterion;
use glam::Vec3;
use std::hint::black_box;
use std::time::Instant;

const CASES: usize = 64;
const ROUNDS: usize = 41;

struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

struct Case {
    a: Shape3,
    b: Shape3,
    pose_a: Pose3,
    pose_b: Pose3,
    parry_a: Box<dyn parry3d::shape::Shape>,
    parry_b: Box<dyn parry3d::shape::Shape>,
}

fn parry_shape(kind: &Shape3Kind) -> Box<dyn parry3d::shape::Shape> {
    match *kind {
        Shape3Kind::Sphere { radius } => Box::new(parry3d::shape::Ball::new(radius)),
        Shape3Kind::Capsule {
            half_length,
            radius,
        } => Box::new(parry3d::shape::Capsule::new_y(half_length, radius)),
        Shape3Kind::Cuboid { half_extents: h } => Box::new(parry3d::shape::Cuboid::new(
            parry3d::math::Vector::new(h.x, h.y, h.z),
        )),
        _ => unreachable!("the bench makes spheres, capsules and boxes"),
    }
}

fn parry_pose(pose: &Pose3) -> parry3d::math::Pose {
    let q = pose.rotation;
    parry3d::math::Pose::from_parts(
        parry3d::math::Vector::new(pose.position.x, pose.position.y, pose.position.z),
        parry3d::math::Rot3::from_xyzw(q.x, q.y, q.z, q.w),
    )
}

fn cases(
    kind_a: fn(&mut SplitMix64) -> Shape3Kind,
    kind_b: fn(&mut SplitMix64) -> Shape3Kind,
) -> Vec<Case> {
    let mut rng = SplitMix64(0x5e3d_ca95);
    (0..CASES)
        .map(|_| {
            let (ka, kb) = (kind_a(&mut rng), kind_b(&mut rng));
            let (a, b) = (Shape3::new(&ka).unwrap(), Shape3::new(&kb).unwrap());
            let reach = 0.7 * (a.bounding_radius() + b.bounding_radius());
            let mut v = |r: f32| Vec3::new(rng.f(-r, r), rng.f(-r, r), rng.f(-r, r));
            let pose_a = Pose3::from_degrees(Vec3::ZERO, v(180.0));
            let pose_b = Pose3::from_degrees(v(reach), v(180.0));
            Case {
                parry_a: parry_shape(&ka),
                parry_b: parry_shape(&kb),
                a,
                b,
                pose_a,
                pose_b,
            }
        })
        .collect()
}

fn sphere(rng: &mut SplitMix64) -> Shape3Kind {
    Shape3Kind::Sphere {
        radius: rng.f(0.2, 0.8),
    }
}

fn capsule(rng: &mut SplitMix64) -> Shape3Kind {
    Shape3Kind::Capsule {
        half_length: rng.f(0.2, 1.0),
        radius: rng.f(0.1, 0.5),
    }
}

fn cuboid(rng: &mut SplitMix64) -> Shape3Kind {
    Shape3Kind::Cuboid {
        half_extents: Vec3::new(rng.f(0.3, 1.0), rng.f(0.3, 1.0), rng.f(0.3, 1.0)),
    }
}

fn pair(c: &Case) -> BodyPair3<'_> {
    BodyPair3::new(c.a.as_ref(), &c.pose_a, c.b.as_ref(), &c.pose_b)
}

fn ours_distance(cs: &[Case]) {
    for c in cs {
        let p = pair(c);
        black_box(with_radii(
            &p,
            gjk::gjk(&p, &gjk::Config::default(), &mut ()),
        ));
    }
}

fn ours_penetration(cs: &[Case]) {
    for c in cs {
        let p = pair(c);
        let g = gjk::gjk(&p, &gjk::Config::default(), &mut ());
        black_box(epa_rounded(&p, &g, &epa::Config::default(), &mut ()));
    }
}

fn ours_manifold(cs: &[Case]) {
    for c in cs {
        let p = pair(c);
        let s = sat_round_test(&p);
        if s.intersecting {
            black_box(contact_manifold_round(&p, s.normal));
        }
        black_box(s);
    }
}

fn parry_distance(cs: &[Case]) {
    for c in cs {
        black_box(parry3d::query::distance(
            &parry_pose(&c.pose_a),
            c.parry_a.as_ref(),
            &parry_pose(&c.pose_b),
            c.parry_b.as_ref(),
        ))
        .ok();
    }
}

fn parry_contact(cs: &[Case]) {
    for c in cs {
        black_box(parry3d::query::contact(
            &parry_pose(&c.pose_a),
            c.parry_a.as_ref(),
            &parry_pose(&c.pose_b),
            c.parry_b.as_ref(),
            0.0,
        ))
        .ok();
    }
}

fn body(shape: &Shape3, pose: Pose3) -> BodyRef3<'_> {
    BodyRef3 {
        shape: shape.as_ref(),
        pose,
        velocity: None,
    }
}

fn untraced(cs: &[Case]) {
    let settings = PairSettings3::default();
    for c in cs {
        black_box(query_pair3(
            &body(&c.a, c.pose_a),
            &body(&c.b, c.pose_b),
            &settings,
        ));
    }
}

fn traced(cs: &[Case]) {
    let settings = PairSettings3::default();
    for c in cs {
        black_box(trace_pair3(
            &body(&c.a, c.pose_a),
            &body(&c.b, c.pose_b),
            &settings,
        ));
    }
}

fn time(f: fn(&[Case]), cs: &[Case]) -> f64 {
    let start = Instant::now();
    f(cs);
    start.elapsed().as_nanos() as f64
}

/// Median ns per batch of each runner and the median over rounds of ours / theirs, the two
/// taking turns (alternating who goes first).
fn paired(ours: fn(&[Case]), theirs: fn(&[Case]), cs: &[Case]) -> (f64, f64, f64) {
    let (mut a, mut b, mut r) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let (x, y) = if round % 2 == 0 {
            let x = time(ours, cs);
            (x, time(theirs, cs))
        } else {
            let y = time(theirs, cs);
            (time(ours, cs), y)
        };
        a.push(x);
        b.push(y);
        r.push(x / y);
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    (median(a), median(b), median(r))
}

fn main() {
    let rows: [(&str, Vec<Case>); 3] = [
        ("sphere-box", cases(sphere, cuboid)),
        ("capsule-box", cases(capsule, cuboid)),
        ("capsule-capsule", cases(capsule, capsule)),
    ];
    let mut criterion = Criterion::default().configure_from_args();
    for (name, cs) in &rows {
        criterion.bench_function(&format!("round3/{name}/penetration"), |bench| {
            bench.iter(|| ours_penetration(cs))
        });
    }
    criterion.final_summary();
    if std::env::args().any(|a| a == "--test") {
        return;
    }
    println!("\n| pair ({CASES} cases) | row | ours ns/pair | theirs ns/pair | ours / theirs (median of {ROUNDS} rounds) |");
    println!("|---|---|---:|---:|---:|");
    let per = |ns: f64| ns / CASES as f64;
    for (name, cs) in &rows {
        for (row, ours, theirs) in [
            (
                "distance vs parry3d",
                ours_distance as fn(&[Case]),
                parry_distance as fn(&[Case]),
            ),
            (
                "penetration vs parry3d contact",
                ours_penetration,
                parry_contact,
            ),
            (
                "SAT + manifold vs parry3d contact",
                ours_manifold,
                parry_contact,
            ),
            ("recording: traced vs untraced", traced, untraced),
        ] {
            let (a, b, r) = paired(ours, theirs, cs);
            println!(
                "| {name} | {row} | {:.0} | {:.0} | {r:.2} |",
                per(a),
                per(b)
            );
        }
    }
}
