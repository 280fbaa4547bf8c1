//! Which pairs of a scene's bodies a command goes through, for either dimension: every pair,
//! or the one `--pair A B` names. `query`, `trace` and their 3D versions all choose here.

use std::path::Path;

/// Most pairs a command goes through without `--pair` (about 450 bodies): beyond that the
/// output is too long to read and the run too long to wait for.
pub const MAX_ALL_PAIRS: usize = 100_000;

/// Every pair of the bodies with these names (in file order, a before b), or the one named
/// pair. Prints the error and returns exit status 2 when a name is unknown or there are too
/// many pairs.
pub(super) fn select_pairs<'n>(
    file: &Path,
    names: impl Iterator<Item = &'n str> + Clone,
    pair: Option<&[String]>,
) -> Result<Vec<(usize, usize)>, u8> {
    match pair {
        Some([a, b]) => {
            let find = |name: &String| {
                names.clone().position(|x| x == name).ok_or_else(|| {
                    eprintln!("error: {}: no body is named \"{name}\"", file.display());
                    2u8
                })
            };
            let (i, j) = (find(a)?, find(b)?);
            if i == j {
                eprintln!("error: {}: --pair names \"{a}\" twice", file.display());
                return Err(2);
            }
            Ok(vec![(i, j)])
        }
        _ => {
            let n = names.count();
            let count = n * n.saturating_sub(1) / 2;
            if count > MAX_ALL_PAIRS {
                eprintln!(
                    "error: {}: {n} bodies make {count} pairs, more than the {MAX_ALL_PAIRS} printed at once; name one pair with --pair A B",
                    file.display()
                );
                return Err(2);
            }
            Ok((0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect())
        }
    }
}

/// The one pair `trace` follows: the one `--pair A B` names, else the scene's focused pair
/// (`focus`, from the scene's `focus_indices`). Prints the error and returns exit status 2
/// when a name is unknown or the scene has fewer than two bodies.
pub(super) fn select_traced_pair<'n>(
    file: &Path,
    names: impl Iterator<Item = &'n str> + Clone,
    pair: Option<&[String]>,
    focus: Option<(usize, usize)>,
) -> Result<(usize, usize), u8> {
    if pair.is_some() {
        return select_pairs(file, names, pair).map(|pairs| pairs[0]);
    }
    focus.ok_or_else(|| {
        eprintln!(
            "error: {}: the scene needs at least two bodies to trace a pair",
            file.display()
        );
        2
    })
}
