"""pr_points, pr_curve, pr_auc, brier_curve and net_benefit on many groups against one.

Run from the repository root (about 2 to 5 minutes; use ``nice -n 10`` on a shared machine):
    python tests/benchmarks/bench_group_loops.py                 (1,000,000 instances)
    python tests/benchmarks/bench_group_loops.py --rows 100000   (faster)
    python tests/benchmarks/bench_group_loops.py --groups 10000 --rounds 1
                                        (one G; the loops before this change took minutes)

The same instances (probability scores, all distinct) are split into G groups, G = 1,
100, 1,000 and 10,000. Each function is timed on its own input -- the ROC points for the
PR functions (computed beforehand), the instances for brier_curve and net_benefit (which
compute their ROC points) -- interleaved with G = 1, and reported as seconds and as a
ratio to G = 1. pr_curve draws 4 steps per segment (its default 20 makes 21 rows per
point, too many for a shared machine at a million points). Run it with
``PYTHONPATH=<checkout>`` to time another checkout of costchart (e.g. before a change).
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
import pandas as pd
from _timing import interleaved, machine_load

import costchart as cc

GROUP_COUNTS = (1, 100, 1_000, 10_000)


def instances(rows: int, groups: int, rng) -> pd.DataFrame:
    """``rows`` instances in ``groups`` groups of equal size, keyed by ``g``."""
    size = rows // groups
    label = rng.random(size * groups) < 0.3
    label[0::size], label[1::size] = True, False  # both classes in every group
    score = 1 / (1 + np.exp(-(rng.normal(size=rows) + label)))
    return pd.DataFrame({"g": np.repeat(np.arange(groups), rows // groups), "s": score, "y": label})


def functions(data: pd.DataFrame):
    """Each function as a call on its own (precomputed) input."""
    points = cc.roc_points(data, score="s", label="y", by="g")
    options = {"score": "s", "label": "y", "by": "g"}
    return {
        "pr_points": lambda: cc.pr_points(points, by="g"),
        "pr_curve": lambda: cc.pr_curve(points, by="g", steps=4),
        "pr_auc": lambda: cc.pr_auc(points, by="g"),
        "brier_curve": lambda: cc.brier_curve(data, **options),
        "net_benefit": lambda: cc.net_benefit(data, **options),
    }


def main(rows: int, rounds: int, group_counts: list[int]) -> None:
    rng = np.random.default_rng(0)
    print(f"costchart from {cc.__file__}")
    print(f"G groups of {rows:,} instances in all (distinct scores)")
    print(machine_load())
    single = functions(instances(rows, 1, rng))
    header = "".join(f"{name:>19}" for name in single)
    print(f"  {'G':>7}{header}")
    for groups in group_counts:
        many = functions(instances(rows, groups, rng))
        row = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cc.CostchartWarning)
            for name in single:
                times = interleaved({"one": single[name], "many": many[name]}, rounds=rounds)
                row.append(f"{times['many']:8.3f}s {times['many'] / times['one']:6.2f}x")
        print(f"  {groups:>7,}" + "".join(f"{cell:>19}" for cell in row))
    print("  (each cell: seconds for G groups, and the ratio to one group)")
    print(machine_load())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--groups", type=int, nargs="+", default=list(GROUP_COUNTS))
    args = parser.parse_args()
    print(
        f"python tests/benchmarks/bench_group_loops.py --rows {args.rows} "
        f"--rounds {args.rounds} --groups {' '.join(map(str, args.groups))}"
    )
    main(args.rows, args.rounds, args.groups)
