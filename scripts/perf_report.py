#!/usr/bin/env python3
"""Plot median query cost against vertex count for collision-lab, parry2d and Box2D v3.

Reads the CSV that `cargo bench --bench versus_parry` writes next to criterion's output
(`target/criterion/versus_parry.csv` by default) and draws one log-log panel per query into
`assets/perf_vertex_count.png`. Box2D holds at most 8 vertices per polygon, so its points
stop at n = 8; the rows of boxes (labelled `boxes`, not a vertex count) are not plotted.

    python3 scripts/perf_report.py [CSV] [PNG]

Needs matplotlib (`pip install matplotlib`); nothing else in the repository does.
"""

import csv
import sys
from pathlib import Path

QUERIES = [
    ("manifold", "Contact manifold\nSAT + clip | contact_manifolds"),
    ("intersection", "Intersection test\nGJK boolean | intersection_test"),
    ("distance", "Distance\nGJK | distance"),
    ("closest_points", "Closest points\nGJK | closest_points"),
    ("penetration", "Penetration depth\nGJK + EPA | contact"),
    ("time_of_impact", "Time of impact\nswept SAT | cast_shapes"),
]


def read_rows(path):
    rows = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            try:
                n = int(row["n"])
                ours = float(row["collision_lab_ns"])
                theirs = float(row["parry2d_ns"])
            except (KeyError, ValueError):
                continue  # growth, recording, frame and box rows have other meanings
            try:
                box2d = float(row.get("box2d_ns") or "nan")
            except ValueError:
                box2d = float("nan")
            rows.setdefault(row["query"], []).append((n, ours, theirs, box2d))
    return {q: sorted(v) for q, v in rows.items()}


def main():
    root = Path(__file__).resolve().parent.parent
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "target" / "criterion" / "versus_parry.csv"
    target = Path(sys.argv[2]) if len(sys.argv) > 2 else root / "assets" / "perf_vertex_count.png"
    rows = read_rows(source)
    if not rows:
        sys.exit(f"no query rows in {source}: run `cargo bench --bench versus_parry` first")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 3, figsize=(13, 7.5), sharex=True)
    for ax, (query, title) in zip(axes.flat, QUERIES):
        data = rows.get(query, [])
        if not data:
            ax.set_visible(False)
            continue
        ns = [r[0] for r in data]
        ax.plot(ns, [r[1] for r in data], "o-", color="#1f6fb4", label="collision-lab")
        ax.plot(ns, [r[2] for r in data], "s--", color="#d9661f", label="parry2d")
        box2d = [(r[0], r[3]) for r in data if r[3] == r[3]]  # NaN: no Box2D row
        if box2d:
            ax.plot(
                [b[0] for b in box2d], [b[1] for b in box2d], "^:", color="#2a9d3a", label="Box2D v3"
            )
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(ns)
        ax.set_xticklabels([str(n) for n in ns])
        ax.set_title(title, fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.set_xlabel("vertices per polygon")
        ax.set_ylabel("median ns per query")
    axes.flat[0].legend(loc="upper left")
    fig.suptitle(f"Median cost per query against vertex count ({source.name})", fontsize=12)
    fig.tight_layout()
    target.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(target, dpi=110)
    print(f"written: {target}")


if __name__ == "__main__":
    main()
