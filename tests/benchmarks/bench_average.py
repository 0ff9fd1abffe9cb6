"""Benchmark of vertical averaging: growth with the number of folds and of groups.

Run from the repository root:  python tests/benchmarks/bench_average.py   (about 2 minutes)

Times are medians of interleaved rounds (tests/benchmarks/_timing.py). The reference,
"every curve at every vertex", is how vertical averages were computed before: each fold
interpolated at the union of all folds' vertices, which grows as folds squared.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from _timing import interleaved, machine_load

import costchart as cc


def concave_curve(rng, vertices: int) -> tuple[np.ndarray, np.ndarray]:
    """A random lower envelope with the given number of vertices (a concave cost curve)."""
    # Slopes decreasing from 1 to -1 make a concave curve from (0, 0) to (1, 0).
    widths = rng.dirichlet(np.ones(vertices - 1))
    slopes = np.sort(rng.uniform(-1, 1, vertices - 1))[::-1]
    pc = np.concatenate([[0.0], np.cumsum(widths)])
    pc[-1] = 1.0
    cost = np.concatenate([[0.0], np.cumsum(widths * slopes)])
    cost -= pc * cost[-1]  # end at cost 0
    return pc, np.maximum(cost, 0)


def folds_table(rng, groups: int, folds: int, vertices: int) -> pd.DataFrame:
    pcs, costs = zip(*(concave_curve(rng, vertices) for _ in range(groups * folds)), strict=True)
    return pd.DataFrame(
        {
            "model": np.repeat(np.arange(groups), folds * vertices),
            "fold": np.tile(np.repeat(np.arange(folds), vertices), groups),
            "pc": np.concatenate(pcs),
            "cost": np.concatenate(costs),
        }
    )


def every_curve_everywhere(curves: pd.DataFrame) -> np.ndarray:
    """The reference: each fold interpolated at every vertex of every fold (one group)."""
    grid = np.unique(curves.pc.to_numpy())
    values = np.zeros((3, len(grid)))
    values[1], values[2] = np.inf, -np.inf
    for _, fold in curves.groupby("fold", sort=False):
        at = np.interp(grid, fold.pc.to_numpy(), fold.cost.to_numpy())
        values[0] += at
        np.minimum(values[1], at, out=values[1])
        np.maximum(values[2], at, out=values[2])
    return values


def growth_with_folds(vertices: int = 1_000) -> None:
    rng = np.random.default_rng(0)
    print(f"vertical_average of F folds x {vertices:,}-vertex concave curves (one group)")
    print(f"  {'folds':>6} {'costchart':>10} {'reference':>10}   growth per x10 folds")
    previous = None
    for folds in (10, 100, 1_000):
        curves = folds_table(rng, 1, folds, vertices).drop(columns="model")
        times = interleaved(
            {
                "costchart": lambda c=curves: cc.vertical_average(c, over="fold"),
                "reference": lambda c=curves: every_curve_everywhere(c),
            },
            rounds=3 if folds < 1_000 else 2,
        )
        growth = (
            ""
            if previous is None
            else f"   x{times['costchart'] / previous['costchart']:.1f} (reference "
            f"x{times['reference'] / previous['reference']:.1f})"
        )
        print(f"  {folds:>6} {times['costchart']:9.3f}s {times['reference']:9.3f}s{growth}")
        previous = times
    print("  (target: linear in folds, x10 per x10 folds up to the log of the merge depth)")


def growth_with_groups(rows: int = 1_000_000, folds: int = 10) -> None:
    rng = np.random.default_rng(1)
    print(f"vertical_average over {folds} folds per group, {rows:,} rows in all")
    tables = {
        groups: folds_table(rng, groups, folds, rows // (groups * folds))
        for groups in (1, 100, 1_000, 10_000)
    }
    times = interleaved(
        {g: (lambda t=t: cc.vertical_average(t, over="fold")) for g, t in tables.items()},
        rounds=3,
    )
    for groups, seconds in times.items():
        ratio = seconds / times[1]
        print(f"  {groups:>6,} groups {seconds:8.3f} s = {ratio:5.2f} x one group (target <= 3)")


if __name__ == "__main__":
    print("python tests/benchmarks/bench_average.py")
    print(machine_load())
    growth_with_folds()
    growth_with_groups()
    print(machine_load())
