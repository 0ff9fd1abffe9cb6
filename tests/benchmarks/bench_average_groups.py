"""Benchmark of curve_points, roc_average and difference_band on many groups.

Run from the repository root, once per version to compare (e.g. before and after):
    PYTHONPATH=. python tests/benchmarks/bench_average_groups.py            (G up to 1,000)
    PYTHONPATH=. python tests/benchmarks/bench_average_groups.py --full     (G up to 10,000)

For each function the same rows are split into G groups (G = 1, 100, 1,000 and, with
``--full``, 10,000) and each split is timed interleaved with G = 1; the report gives the
seconds for G groups and the ratio to one group of the same rows (target: a small
constant, where a Python loop over groups grows with G).

- curve_points: 200,000 vertices of concave cost curves (pc * (1 - pc) at k points).
- roc_average: 100,000 ROC points, 5 folds per group, every averaging (default grids).
- difference_band: 40,000 instances scored by two classifiers, 101 ``pc`` values,
  the default (exact, normal fit) band.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
import pandas as pd
from _timing import interleaved, machine_load

import costchart as cc

FOLDS = 5


def cost_curves(rows: int, groups: int) -> pd.DataFrame:
    per = rows // groups
    pc = np.tile(np.linspace(0.0, 1.0, per), groups)
    return pd.DataFrame({"key": np.repeat(np.arange(groups), per), "pc": pc, "cost": pc * (1 - pc)})


def roc_points(rows: int, groups: int, rng) -> pd.DataFrame:
    per = rows // (groups * FOLDS)
    curves = groups * FOLDS
    fpr = np.sort(rng.random((curves, per)), axis=1).ravel()
    tpr = np.sqrt(np.sort(rng.random((curves, per)), axis=1)).ravel()
    threshold = -np.sort(rng.normal(size=(curves, per)), axis=1).ravel()
    curve = np.repeat(np.arange(curves), per)
    return pd.DataFrame(
        {
            "key": curve // FOLDS,
            "fold": curve % FOLDS,
            "fpr": fpr,
            "tpr": tpr,
            "threshold": threshold,
        }
    )


def paired_scores(instances: int, groups: int, rng) -> pd.DataFrame:
    per = instances // groups
    label = rng.random(instances) < 0.4
    label[::per] = True
    label[1::per] = False
    frames = [
        pd.DataFrame(
            {
                "key": np.repeat(np.arange(groups), per),
                "model": name,
                "id": np.arange(instances),
                "y": label.astype(int),
                "s": np.round(rng.normal(size=instances) + shift * label, 2),
            }
        )
        for name, shift in (("a", 1.0), ("b", 1.5))
    ]
    return pd.concat(frames, ignore_index=True)


def calls(groups: int, rng):
    curves = cost_curves(200_000, groups)
    points = roc_points(100_000, groups, rng)
    scores = paired_scores(40_000, groups, rng)
    pc = np.linspace(0, 1, 101)
    functions = {
        "curve_points": lambda: cc.curve_points(curves, by="key"),
        **{
            f"roc_average {method}": lambda m=method: cc.roc_average(
                points, over="fold", by="key", averaging=m
            )
            for method in ("vertical", "horizontal", "by_threshold")
        },
        "difference_band": lambda: cc.difference_band(
            scores, score="s", label="y", classifier="model", instance="id", by="key", pc=pc
        ),
    }
    return functions


def main(group_counts: list[int], rounds: int, skip: set[str], slow_limit: int) -> None:
    rng = np.random.default_rng(0)
    print(f"costchart from {cc.__file__}")
    print(machine_load())
    single = calls(1, rng)
    names = [n for n in single if n not in skip]
    print(f"  {'G':>7}" + "".join(f"{name:>24}" for name in names))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cc.CostchartWarning)
        for groups in group_counts:
            many = calls(groups, rng)
            row = []
            for name in names:
                if name == "difference_band" and groups > slow_limit:
                    row.append("(skipped)")
                    continue
                times = interleaved({"one": single[name], "many": many[name]}, rounds=rounds)
                row.append(f"{times['many']:8.3f}s {times['many'] / times['one']:7.2f}x")
            print(f"  {groups:>7,}" + "".join(f"{cell:>24}" for cell in row))
    print("  (each cell: seconds for G groups, and the ratio to one group of the same rows)")
    print(machine_load())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--full", action="store_true", help="up to 10,000 groups")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--band-groups",
        type=int,
        default=10_000,
        help="time difference_band only up to this many groups (the loop is slow)",
    )
    args = parser.parse_args()
    counts = [1, 100, 1_000] + ([10_000] if args.full else [])
    print("python tests/benchmarks/bench_average_groups.py" + (" --full" if args.full else ""))
    main(counts, args.rounds, set(), args.band_groups)
