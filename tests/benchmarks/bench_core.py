"""Benchmark of the core transformers; prints ratios measured side by side in one run.

Run from the repository root:  python tests/benchmarks/bench_core.py   (about 3 minutes)

Every ratio is of medians of interleaved rounds (tests/benchmarks/_timing.py); the load
average is printed before and after. Not part of the test suite; the figures go into
docs/performance.md.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from _timing import interleaved, machine_load, peak_memory

import costchart as cc


def ratio(times: dict, a: str, b: str) -> float:
    return times[a] / times[b]


def bench_roc_points(n: int = 10_000_000) -> None:
    from sklearn.metrics import roc_curve

    rng = np.random.default_rng(0)
    labels = rng.random(n) < 0.1
    tied = np.round(rng.normal(size=n) + labels, 3)  # about 10,000 distinct values
    distinct = rng.normal(size=n) + labels
    weights = rng.exponential(size=n)
    frames = {
        "tied": pd.DataFrame({"score": tied, "label": labels}),
        "distinct": pd.DataFrame({"score": distinct, "label": labels}),
        "weighted": pd.DataFrame({"score": tied, "label": labels, "w": weights}),
    }
    print(f"roc_points, {n:,} scores (10% positive)")
    times = interleaved(
        {
            "argsort tied": lambda: np.argsort(tied),
            "tied": lambda: cc.roc_points(frames["tied"], score="score", label="label"),
            "sklearn tied": lambda: roc_curve(labels, tied, drop_intermediate=False),
            "argsort distinct": lambda: np.argsort(distinct),
            "distinct": lambda: cc.roc_points(frames["distinct"], score="score", label="label"),
            "weighted": lambda: cc.roc_points(
                frames["weighted"], score="score", label="label", weight="w"
            ),
        },
        rounds=3,
    )
    print(
        f"  tied scores (3 decimals)     {times['tied']:.3f} s = "
        f"{ratio(times, 'tied', 'argsort tied'):.2f} x argsort (target <= 1.3); "
        f"sklearn roc_curve {ratio(times, 'sklearn tied', 'tied'):.1f} x slower (target >= 1.5)"
    )
    print(
        f"  all-distinct scores          {times['distinct']:.3f} s = "
        f"{ratio(times, 'distinct', 'argsort distinct'):.2f} x argsort (target <= 1.5)"
    )
    # The same pair with the allocator's free memory returned before each call (see
    # _timing.trim_memory): large calls run at different speeds after other large calls.
    trimmed = interleaved(
        {
            "argsort distinct": lambda: np.argsort(distinct),
            "distinct": lambda: cc.roc_points(frames["distinct"], score="score", label="label"),
        },
        rounds=3,
        trim=True,
    )
    print(
        f"  all-distinct, trimmed        {trimmed['distinct']:.3f} s = "
        f"{ratio(trimmed, 'distinct', 'argsort distinct'):.2f} x argsort (target <= 1.5)"
    )
    print(
        f"  weighted, tied               {times['weighted']:.3f} s = "
        f"{ratio(times, 'weighted', 'argsort tied'):.2f} x argsort"
    )
    data_bytes = distinct.nbytes + labels.nbytes
    for name in ("tied", "distinct"):
        frame = frames[name]
        peak = peak_memory(lambda f=frame: cc.roc_points(f, score="score", label="label"))
        points = cc.roc_points(frame, score="score", label="label")
        output = points.memory_usage(index=False).sum()
        print(
            f"  peak memory, {name:<9}       {peak / 1e6:7.1f} MB = {peak / data_bytes:.2f} x "
            f"the input ({data_bytes / 1e6:.0f} MB; target <= 4); the result alone is "
            f"{output / 1e6:.0f} MB = {output / data_bytes:.2f} x"
        )


def bench_small(n: int = 10_000) -> None:
    from sklearn.metrics import roc_curve

    rng = np.random.default_rng(1)
    labels = rng.random(n) < 0.3
    scores = rng.normal(size=n) + labels
    frame = pd.DataFrame({"score": scores, "label": labels})
    times = interleaved(
        {
            "costchart": lambda: cc.roc_points(frame, score="score", label="label"),
            "sklearn": lambda: roc_curve(labels, scores, drop_intermediate=False),
        },
        rounds=7,
        number=50,
    )
    print(
        f"roc_points at {n:,} distinct scores: {times['costchart'] * 1e3:.2f} ms = "
        f"{ratio(times, 'costchart', 'sklearn'):.2f} x scikit-learn's roc_curve "
        f"({times['sklearn'] * 1e3:.2f} ms; target <= 1)"
    )


def bench_envelope() -> None:
    rng = np.random.default_rng(1)
    print("roc_hull + lower_envelope on a ROC curve of distinct scores")
    curves = {}
    for n in (250_000, 500_000, 1_000_000):
        labels = rng.random(n) < 0.3
        scores = rng.normal(size=n) + labels
        curves[n] = cc.roc_points({"score": scores, "label": labels}, score="score", label="label")
    times = interleaved(
        {n: (lambda p=p: (cc.roc_hull(p), cc.lower_envelope(p))) for n, p in curves.items()},
        rounds=3,
    )
    previous = None
    for n, seconds in times.items():
        growth = "" if previous is None else f"   x{seconds / previous:.2f} for x2 points"
        print(f"  {n + 1:>9,} points   {seconds:6.3f} s{growth}   (target < 0.5 s at 1M)")
        previous = seconds


if __name__ == "__main__":
    print("python tests/benchmarks/bench_core.py")
    print(machine_load())
    bench_roc_points()
    bench_small()
    bench_envelope()
    print(machine_load())
