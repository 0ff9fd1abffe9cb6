"""thin_points of many groups: shared passes against the per-group loop it replaced.

Run from the repository root:  python tests/benchmarks/bench_thin.py   (about a minute)

2,000 groups of 200 instances each (all scores distinct), thinned to 50 points per group;
the loop is the reference implementation kept in tests/test_thin.py. Interleaved rounds,
median, and the ratio.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from _timing import interleaved, machine_load

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


if __name__ == "__main__":
    main()
