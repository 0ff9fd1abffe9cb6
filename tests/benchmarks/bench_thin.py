"""thin_points of many groups: shared passes against the per-group loop it replaced.

Run from the repository root:  python tests/benchmarks/bench_thin.py   (about a minute)

2,000 groups of 200 instances each (all scores distinct), thinned to 50 points per group;
the loop is the reference implementation kept in tests/test_thin.py. Interleaved rounds,
median, and the ratio.

Then issue 34's chart: the 120 curves of ``bench_charts.fold_points`` (4 data sets x 3
classifiers x 10 folds, 10,000 instances each: 1.2 million ROC points) thinned as the
chart thins them (``max_total=3000``), against ``roc_hull`` of one curve of as many points
(1.2 million instances, all scores distinct): thinning many curves should cost about one
hull of as many points.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from _timing import interleaved, machine_load
from bench_charts import fold_points

import costchart as cc

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_thin import _thinned_group_by_group


def main() -> None:
    print("python tests/benchmarks/bench_thin.py")
    print(machine_load())
    rng = np.random.default_rng(0)
    for groups in (200, 2_000):
        data = pd.DataFrame(
            {"g": np.repeat(np.arange(groups), 200), "s": rng.normal(size=groups * 200)}
        )
        data["y"] = rng.random(len(data)) < 0.4
        points = cc.roc_points(data, score="s", label="y", by="g")
        times = interleaved(
            {
                "shared passes": lambda p=points: cc.thin_points(p, max_points=50),
                "group by group": lambda p=points: _thinned_group_by_group(p, "g", 50),
            },
            rounds=3,
        )
        shared, loop = times["shared passes"], times["group by group"]
        print(
            f"  {groups:>5,} groups: shared passes {shared:6.3f} s, group by group "
            f"{loop:6.3f} s  ({loop / shared:.1f} x faster)"
        )
    folds = fold_points(np.random.default_rng(0), per_fold=10_000)
    label = rng.random(1_200_000) < 0.3
    one = cc.roc_points(
        {"s": rng.normal(size=len(label)) + label, "y": label}, score="s", label="y"
    )
    times = interleaved(
        {
            "thin": lambda: cc.thin_points(folds, max_points=100, max_total=3000),
            "hull": lambda: cc.roc_hull(one),
        },
        rounds=5,
    )
    print(
        f"  120 curves, {len(folds):,} points: thin_points {times['thin']:6.3f} s = "
        f"{times['thin'] / times['hull']:.2f} x roc_hull of one curve of {len(one):,} "
        f"points ({times['hull']:.3f} s)"
    )


if __name__ == "__main__":
    main()
