"""Small calls: what roc_points, lower_envelope, auc and the default band cost at 1,000 and
10,000 rows, against scikit-learn's roc_curve on the same arrays.

Run from the repository root:  python tests/benchmarks/bench_small.py   (about a minute)

Issue 23 asks that small calls pay a fixed cost comparable to scikit-learn's
``roc_curve``, not a multiple of it. Every call gets the same numpy arrays (costchart as a
dict of arrays, as is ``bootstrap_band``; ``lower_envelope`` and ``auc`` get the ROC points ``roc_points``
made of them, as a user's pipeline passes them on); each time is the median over
interleaved rounds of many calls.
"""

from __future__ import annotations

import numpy as np
from _timing import interleaved, machine_load
from sklearn.metrics import roc_auc_score, roc_curve

import costchart as cc


def main() -> None:
    print("python tests/benchmarks/bench_small.py")
    print(machine_load())
    for n in (1_000, 10_000):
        rng = np.random.default_rng(0)
        labels = rng.random(n) < 0.4
        scores = rng.normal(size=n) + labels
        data = {"s": scores, "y": labels}
        points = cc.roc_points(data, score="s", label="y")
        calls = 100 if n == 1_000 else 30
        times = interleaved(
            {
                "roc_curve": lambda labels=labels, scores=scores: roc_curve(labels, scores),
                "roc_auc_score": lambda labels=labels, scores=scores: roc_auc_score(labels, scores),
                "roc_points": lambda data=data: cc.roc_points(data, score="s", label="y"),
                "lower_envelope": lambda points=points: cc.lower_envelope(points),
                "auc": lambda points=points: cc.auc(points),
                "bootstrap_band": lambda data=data: cc.bootstrap_band(
                    data, score="s", label="y", inference="exact_bootstrap"
                ),
            },
            rounds=5,
            number=calls,
        )
        base = times["roc_curve"]
        print(f"  n = {n:,}: scikit-learn's roc_curve {base * 1e6:.0f} us")
        for name, seconds in times.items():
            if name != "roc_curve":
                print(
                    f"    {name:<15} {seconds * 1e6:8.0f} us = {seconds / base:5.2f} x roc_curve"
                    + ("   (target <= 1)" if name == "roc_points" else "")
                )
    print(machine_load())


if __name__ == "__main__":
    main()
