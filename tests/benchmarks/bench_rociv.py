"""Benchmark of ROCIV against plain ROC points; prints ratios measured side by side.

Run from the repository root:  python tests/benchmarks/bench_rociv.py   (about 1 minute)
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from _timing import interleaved, machine_load

import costchart as cc


def main(n: int = 10_000_000) -> None:
    rng = np.random.default_rng(0)
    labels = rng.random(n) < 0.1
    costs = np.round(rng.lognormal(7, 1, size=n), 2)  # e.g. amounts of money
    print(f"rociv against roc_points on {n:,} instances (10% positive)")
    for kind, scores in (
        ("tied scores (3 decimals)", np.round(rng.normal(size=n) + labels, 3)),
        ("all-distinct scores", rng.normal(size=n) + labels),
    ):
        frame = pd.DataFrame({"score": scores, "label": labels, "cost": costs})
        times = interleaved(
            {
                "roc_points": lambda f=frame: cc.roc_points(f, score="score", label="label"),
                "rociv": lambda f=frame: cc.rociv(f, score="score", label="label", amount="cost"),
            },
            rounds=3,
        )
        print(
            f"  {kind:<26} roc_points {times['roc_points']:.3f} s, rociv {times['rociv']:.3f} s"
            f" = {times['rociv'] / times['roc_points']:.2f} x (target <= 1.3)"
        )


if __name__ == "__main__":
    print("python tests/benchmarks/bench_rociv.py")
    print(machine_load())
    main()
    print(machine_load())
