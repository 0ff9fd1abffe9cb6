"""Benchmark of ROCIV against plain ROC points; prints a ratio from one run.

Run from the repository root:  python tests/benchmarks/bench_rociv.py
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from _timing import best_of

import costchart as cc


def main(n: int = 10_000_000) -> None:
    rng = np.random.default_rng(0)
    labels = (rng.random(n) < 0.1).astype(np.int8)
    scores = np.round(rng.normal(size=n) + labels, 3)  # the roc_points benchmark's data
    costs = np.round(rng.lognormal(7, 1, size=n), 2)  # e.g. amounts of money
    frame = pd.DataFrame({"score": scores, "label": labels, "cost": costs})
    t_roc = best_of(lambda: cc.roc_points(frame, score="score", label="label"))
    t_iv = best_of(lambda: cc.rociv(frame, score="score", label="label", cost="cost"))
    print(f"rociv on {n:,} instances (10% positive, many ties)")
    print(f"  roc_points   {t_roc:6.3f} s")
    print(f"  rociv        {t_iv:6.3f} s   = {t_iv / t_roc:.2f} x roc_points (target <= 1.3)")
    distinct = frame.assign(score=rng.normal(size=n) + labels)
    t_roc_d = best_of(lambda: cc.roc_points(distinct, score="score", label="label"), repeats=1)
    t_iv_d = best_of(
        lambda: cc.rociv(distinct, score="score", label="label", cost="cost"), repeats=1
    )
    print(
        f"  all-distinct scores: roc_points {t_roc_d:.3f} s, rociv {t_iv_d:.3f} s = {t_iv_d / t_roc_d:.2f} x"
    )


if __name__ == "__main__":
    main()
