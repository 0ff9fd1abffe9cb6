"""Small calls: what roc_points costs at 1,000 and 10,000 rows, against scikit-learn.

Run from the repository root:  python tests/benchmarks/bench_small.py   (about 20 seconds)

Issue 23 asks that small calls pay a fixed cost comparable to scikit-learn's
``roc_curve``. Both get the same numpy arrays (costchart as a dict of arrays); each time is
the median over interleaved rounds of many calls.
"""

from __future__ import annotations

import numpy as np
from _timing import interleaved, machine_load
from sklearn.metrics import roc_curve

import costchart as cc


def main() -> None:
    print("python tests/benchmarks/bench_small.py")
    print(machine_load())
    for n in (1_000, 10_000):
        rng = np.random.default_rng(0)
        labels = rng.random(n) < 0.4
        scores = rng.normal(size=n) + labels
        data = {"s": scores, "y": labels}
        calls = 200 if n == 1_000 else 50
        times = interleaved(
            {
                "roc_points": lambda data=data: cc.roc_points(data, score="s", label="y"),
                "roc_curve": lambda labels=labels, scores=scores: roc_curve(labels, scores),
            },
            rounds=5,
            number=calls,
        )
        ratio = times["roc_points"] / times["roc_curve"]
        print(
            f"  n = {n:>6,}: roc_points {times['roc_points'] * 1e6:7.0f} us, "
            f"roc_curve {times['roc_curve'] * 1e6:7.0f} us  ({ratio:.2f} x)"
        )


if __name__ == "__main__":
    main()
