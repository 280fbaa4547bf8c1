//! Least times, shared by both benches: two runners timed batch by batch in turn. A batch
//! takes microseconds, so most run uninterrupted and the least times hardly move with the
//! machine's load, where a median of rounds does: a steady look while optimizing, beside
//! the tables' paired medians.

use std::time::Instant;

/// Runs `runners` one batch each in turn, `rounds` times, and prints the least,
/// tenth-percentile and median time of a batch for each, and the ratios of the first's
/// least and tenth-percentile times to the second's.
pub fn least_times(names: [&str; 2], rounds: usize, runners: [&mut dyn FnMut(); 2]) {
    assert!(rounds >= 10, "at least 10 rounds");
    let mut times: [Vec<u64>; 2] = std::array::from_fn(|_| Vec::with_capacity(rounds));
    let [first, second] = runners;
    for _ in 0..rounds {
        for (run, times) in [&mut *first, &mut *second].into_iter().zip(&mut times) {
            let start = Instant::now();
            run();
            times.push(start.elapsed().as_nanos() as u64);
        }
    }
    for times in &mut times {
        times.sort_unstable();
    }
    let at = |k: usize, q: usize| times[k][rounds * q / 100];
    for (k, name) in names.iter().enumerate() {
        println!(
            "{name}: least {} ns, 10th percentile {} ns, median {} ns a batch",
            at(k, 0),
            at(k, 10),
            at(k, 50)
        );
    }
    let ratio = |q: usize| at(0, q) as f64 / at(1, q) as f64;
    println!(
        "{} / {}: least {:.3}, 10th percentile {:.3}",
        names[0],
        names[1],
        ratio(0),
        ratio(10)
    );
}
