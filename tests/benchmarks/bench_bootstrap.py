"""Benchmark of confidence bands; prints times and ratios from one run.

Run from the repository root:  python tests/benchmarks/bench_bootstrap.py
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from _timing import timed

import costchart as cc


def main() -> None:
    rng = np.random.default_rng(0)
    n = 100_000
    labels = rng.random(n) < 0.3
    data = pd.DataFrame({"score": np.round(rng.normal(size=n) + labels, 3), "label": labels})
    pc = np.linspace(0, 1, 500)
    print(f"exact band, {n:,} test instances, one scoring classifier, 500 pc values")
    _, t_normal = timed(
        lambda: cc.bootstrap_band(data, score="score", label="label", pc=pc, distribution="normal")
    )
    print(f"  exact, normal fit           {t_normal:6.3f} s   (target < 0.5 s)")
    _, t_auto = timed(
        lambda: cc.bootstrap_band(data, score="score", label="label", pc=pc, distribution="auto")
    )
    print(f"  exact, auto (exact quantiles where cheap) {t_auto:6.3f} s")
    _, t_resample = timed(
        lambda: cc.bootstrap_band(
            data, score="score", label="label", pc=pc, method="resample", n_resamples=1000, rng=1
        )
    )
    print(
        f"  resampling, 1,000 resamples {t_resample:6.3f} s   = {t_resample / t_normal:.0f} x the exact band (target >= 50)"
    )

    # The band itself, after the ROC points and the classifier at each pc (work both
    # methods share) are known.
    from costchart.bootstrap import _active_rows, _counts, band_of_counts, check_options

    points = cc.roc_points(data, score="score", label="label")
    counts = _counts(points, _active_rows(points, pc, None, None))

    def kernel(**options):
        settings = {
            "confidence_level": 0.9,
            "method": "exact",
            "sampling": "stratified",
            "distribution": "normal",
            "n_resamples": 1000,
            "rng": 1,
            "pc": pc,
            "progress": False,
        }
        settings.update(options)
        return band_of_counts(counts, check_options(**settings))

    _, k_exact = timed(kernel)
    _, k_resample = timed(lambda: kernel(method="resample"))
    print(
        f"  band kernel only: exact {k_exact * 1e3:.2f} ms, resampling {k_resample * 1e3:.1f} ms = {k_resample / k_exact:.0f} x"
    )

    # What ROC-bootstrap tools do: resample the instances themselves and recount.
    y = labels
    wrong_pos = (data["score"].to_numpy() < 0.5) & y  # one fixed threshold, for scale
    positives = np.flatnonzero(y)

    def instance_resampling():
        for _ in range(1000):
            wrong_pos[rng.choice(positives, size=len(positives))].sum()

    _, t_instances = timed(instance_resampling)
    print(
        f"  instance resampling, 1,000 resamples of one threshold's positives only {t_instances:6.3f} s"
        f"   = {t_instances / t_normal:.0f} x the exact band"
    )

    small = data.iloc[:10_000]
    _, t_ref = timed(
        lambda: cc.bootstrap_band(
            small, score="score", label="label", pc=pc, method="resample", n_resamples=2000, rng=1
        )
    )
    print("resampled band, 10,000 instances, 2,000 resamples")
    print(
        f"  costchart                   {t_ref:6.3f} s   (a common ROC-bootstrap tool: about 19 s)"
    )


if __name__ == "__main__":
    main()
