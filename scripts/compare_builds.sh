#!/usr/bin/env bash
# Times the untraced rows of two builds of the speed benches in turn, on the same machine
# in the same minutes: for each row, the two builds' least-times ratios against the
# anchor (Box2D, Box3D or parry3d) are read alternately, BEFORE then AFTER, RUNS times, and
# the best of each build is printed with their quotient (after / before; above 1.05 is a
# slowdown worth a look).
#
#   scripts/compare_builds.sh BEFORE_DIR AFTER_DIR [RUNS]
#
# Each folder holds the bench executables `versus_parry` and `versus_3d`, copied from
# target/release/deps after `cargo bench --no-run` of each commit (see
# docs/performance.md, "Comparing two builds").
set -euo pipefail
before=${1:?BEFORE_DIR}
after=${2:?AFTER_DIR}
runs=${3:-3}
rounds=20000

# The 2D rows: VERSUS_PARRY_MIN=query,polygons,rounds[,ours,other].
rows_2d=(
  "manifold,boxes" "manifold,4" "manifold,8"
  "manifold,boxes,sat,box2d" "manifold,8,sat,box2d"
  "manifold,boxes,clip,box2d" "manifold,8,clip,box2d"
  "time_of_impact,boxes" "time_of_impact,8"
  "distance,boxes" "distance,8" "intersection,8"
)
# The 3D rows: VERSUS_3D_MIN=row,rounds.
rows_3d=("box" "hull" "toi")

least() { # prints the "least" ratio of one run
  sed -n 's/.*: least \([0-9.]*\), 10th percentile.*/\1/p' | tail -1
}

compare() { # label, then the command for one build with {} for its folder
  local label=$1 cmd=$2 best_b=9 best_a=9 r
  for _ in $(seq "$runs"); do
    r=$(eval "${cmd//\{\}/$before}" 2>/dev/null | least)
    best_b=$(python3 -c "print(min($best_b, ${r:-9}))")
    r=$(eval "${cmd//\{\}/$after}" 2>/dev/null | least)
    best_a=$(python3 -c "print(min($best_a, ${r:-9}))")
  done
  python3 -c "print(f'{\"$label\":34} before {$best_b:.3f}  after {$best_a:.3f}  after/before {$best_a / $best_b:.3f}')"
}

for row in "${rows_2d[@]}"; do
  IFS=, read -r query polygons ours other <<<"$row"
  spec="$query,$polygons,$rounds${ours:+,$ours,$other}"
  compare "2D $query $polygons ${ours:-ours} / ${other:-Box2D}" "VERSUS_PARRY_MIN=$spec {}/versus_parry"
done
for row in "${rows_3d[@]}"; do
  compare "3D $row" "VERSUS_3D_MIN=$row,$rounds {}/versus_3d"
done
