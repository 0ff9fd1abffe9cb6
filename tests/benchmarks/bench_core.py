"""Benchmark of the core transformers; prints ratios measured in one run.

Run from the repository root:  python tests/benchmarks/bench_core.py
It is not part of the test suite (these machines are noisy); the figures go into
docs/performance.md.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pandas as pd
from _timing import best_of

import costchart as cc


def scores_with_ties(n, rng):
    labels = (rng.random(n) < 0.1).astype(np.int8)
    scores = np.round(rng.normal(size=n) + labels, 3)  # about 10,000 distinct values
    return scores, labels


def bench_roc_points(n=10_000_000):
    from sklearn.metrics import roc_curve

    rng = np.random.default_rng(0)
    scores, labels = scores_with_ties(n, rng)
    frame = pd.DataFrame({"score": scores, "label": labels})
    t_argsort = best_of(lambda: np.argsort(scores))
    t_points = best_of(lambda: cc.roc_points(frame, score="score", label="label"))
    t_sklearn = best_of(lambda: roc_curve(labels, scores, drop_intermediate=False), repeats=1)
    print(f"roc_points, {n:,} scores (10% positive, many ties)")
    print(f"  numpy.argsort            {t_argsort:7.3f} s")
    print(
        f"  costchart.roc_points     {t_points:7.3f} s   = {t_points / t_argsort:.2f} x argsort (target <= 1.3)"
    )
    print(
        f"  sklearn roc_curve        {t_sklearn:7.3f} s   = {t_sklearn / t_points:.2f} x slower than roc_points (target >= 1.5)"
    )

    input_bytes = scores.nbytes + labels.nbytes
    tracemalloc.start()
    cc.roc_points(frame, score="score", label="label")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"  peak memory              {peak / 1e6:7.1f} MB  = {peak / input_bytes:.2f} x the input arrays ({input_bytes / 1e6:.0f} MB; target <= 6)"
    )

    distinct = rng.normal(size=n) + labels
    t_sort_d = best_of(lambda: np.argsort(distinct))
    frame_d = pd.DataFrame({"score": distinct, "label": labels})
    t_points_d = best_of(lambda: cc.roc_points(frame_d, score="score", label="label"))
    print(
        f"  all-distinct scores      {t_points_d:7.3f} s   = {t_points_d / t_sort_d:.2f} x argsort of those scores"
    )

    weights = rng.exponential(size=n)
    frame_w = frame.assign(weight=weights)
    t_weighted = best_of(
        lambda: cc.roc_points(frame_w, score="score", label="label", weight="weight"), repeats=1
    )
    print(
        f"  weighted roc_points      {t_weighted:7.3f} s   = {t_weighted / t_argsort:.2f} x argsort"
    )


def bench_envelope():
    rng = np.random.default_rng(1)
    print("roc_hull + lower_envelope on a ROC curve of distinct scores")
    previous = None
    for n in (250_000, 500_000, 1_000_000):
        labels = rng.random(n) < 0.3
        scores = rng.normal(size=n) + labels
        points = cc.roc_points({"score": scores, "label": labels}, score="score", label="label")
        seconds = best_of(lambda p=points: (cc.roc_hull(p), cc.lower_envelope(p)))
        growth = "" if previous is None else f"   x{seconds / previous:.2f} for x2 points"
        print(f"  {len(points):>9,} points   {seconds:6.3f} s{growth}   (target < 0.5 s at 1M)")
        previous = seconds


if __name__ == "__main__":
    bench_roc_points()
    bench_envelope()
