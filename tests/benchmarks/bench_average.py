"""Benchmark of vertical averaging; prints times from one run.

Run from the repository root:  python tests/benchmarks/bench_average.py
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from _timing import timed

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


def main(folds: int = 100, vertices: int = 10_000) -> None:
    rng = np.random.default_rng(0)
    frames = []
    for fold in range(folds):
        pc, cost = concave_curve(rng, vertices)
        frames.append(pd.DataFrame({"fold": fold, "pc": pc, "cost": cost}))
    curves = pd.concat(frames, ignore_index=True)
    average, seconds = timed(lambda: cc.vertical_average(curves, over="fold"))
    print(f"vertical_average of {folds} folds x {vertices:,}-vertex curves")
    print(f"  {seconds:6.3f} s for {len(average):,} vertices of the average (target < 1 s)")


if __name__ == "__main__":
    main()
