"""Benchmark of confidence bands; prints times and ratios from one run.

Run from the repository root:  python tests/benchmarks/bench_bootstrap.py

Three comparisons of the exact band (no resampling) with 1,000 resamples on the same
100,000 test instances, one scoring classifier, its lower envelope, 500 pc values:

* the instance bootstrap, end to end: resample the test instances 1,000 times, recount
  every threshold's confusion matrix, read off the band. This is the resampling the
  exact bootstrap replaces, and what ROC-bootstrap tools do.
* costchart's own ``method="resample"``, end to end. It draws confusion counts from their
  binomial distributions instead of resampling instances (the same distribution of the
  counts), so it is cheap too, and computing the ROC points once dominates both methods.
* the band kernels alone, on the same confusion counts.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from _timing import best_of, timed

import costchart as cc
from costchart.bootstrap import _active_rows, _counts, band_of_counts, check_options

N_RESAMPLES = 1000


def instance_bootstrap_band(data, pc, n_resamples, rng, chunk=25):
    """A stratified instance bootstrap of the envelope's band, vectorized with numpy.

    Resamples the positives and the negatives (class totals fixed, as costchart's
    ``sampling="stratified"``), counts each resample's instances per distinct score, and
    reads the false negatives and false positives of the threshold the envelope selects at
    each pc; the band is the 5 % and 95 % percentiles of the resampled costs.
    """
    scores = data["score"].to_numpy()
    positive = data["label"].to_numpy().astype(bool)
    levels, codes = np.unique(scores, return_inverse=True)
    points = cc.roc_points(data, score="score", label="label")
    thresholds = points["threshold"].to_numpy()[_active_rows(points, pc, None, None)]
    # Instances scoring >= threshold are predicted positive: those with code >= first.
    first = np.searchsorted(levels, thresholds, side="left")
    draws = {}
    for name, members in (("positives", codes[positive]), ("negatives", codes[~positive])):
        m, width = len(members), len(levels) + 1
        at_or_above = np.empty((n_resamples, len(pc)), dtype=np.int64)
        for start in range(0, n_resamples, chunk):
            size = min(chunk, n_resamples - start)
            picked = members[rng.integers(0, m, size=(size, m))]
            per_level = np.bincount(
                (picked + width * np.arange(size)[:, None]).ravel(), minlength=size * width
            ).reshape(size, width)
            suffix = np.cumsum(per_level[:, ::-1], axis=1)[:, ::-1]  # count with code >= k
            at_or_above[start : start + size] = suffix[:, first]
        draws[name] = (m, at_or_above)
    (n_pos, tp), (n_neg, fp) = draws["positives"], draws["negatives"]
    costs = pc * (n_pos - tp) / n_pos + (1 - pc) * fp / n_neg
    lower, upper = np.quantile(costs, [0.05, 0.95], axis=0, method="inverted_cdf")
    return pd.DataFrame({"pc": pc, "lower": lower, "upper": upper})


def main() -> None:
    rng = np.random.default_rng(0)
    n = 100_000
    labels = rng.random(n) < 0.3
    data = pd.DataFrame({"score": np.round(rng.normal(size=n) + labels, 3), "label": labels})
    pc = np.linspace(0, 1, 500)

    def band(**options):
        return cc.bootstrap_band(data, score="score", label="label", pc=pc, **options)

    print(f"exact band, {n:,} test instances, one scoring classifier, 500 pc values")
    t_normal = best_of(lambda: band(distribution="normal"))
    print(f"  exact, normal fit           {t_normal:6.3f} s   (target < 0.5 s)")
    t_auto = best_of(lambda: band(distribution="auto"))
    print(f"  exact, auto (exact quantiles where cheap) {t_auto:6.3f} s")

    print(
        f"exact band vs {N_RESAMPLES:,} resamples of the same input (target: exact >= 50 x faster)"
    )
    reference, t_instances = timed(
        lambda: instance_bootstrap_band(data, pc, N_RESAMPLES, np.random.default_rng(1))
    )
    print(
        f"  instance bootstrap, end to end {t_instances:6.3f} s   = {t_instances / t_normal:.0f} x the exact band"
    )
    exact = band(distribution="normal")
    disagreement = np.max(
        np.abs(reference[["lower", "upper"]].to_numpy() - exact[["lower", "upper"]].to_numpy())
        / exact[["se"]].to_numpy().clip(1e-12)
    )
    print(f"    (its band is within {disagreement:.2f} standard errors of the exact one)")
    t_counts = best_of(lambda: band(method="resample", n_resamples=N_RESAMPLES, rng=1))
    print(
        f"  costchart resampling of counts, end to end {t_counts:6.3f} s   = {t_counts / t_normal:.0f} x the exact band"
    )

    # The band itself, once the ROC points and the classifier at each pc (work every
    # method shares) are known.
    points = cc.roc_points(data, score="score", label="label")
    counts = _counts(points, _active_rows(points, pc, None, None))

    def kernel(**options):
        settings = {
            "confidence_level": 0.9,
            "method": "exact",
            "sampling": "stratified",
            "distribution": "normal",
            "n_resamples": N_RESAMPLES,
            "rng": 1,
            "pc": pc,
            "progress": False,
        }
        settings.update(options)
        return band_of_counts(counts, check_options(**settings))

    k_exact = best_of(kernel, repeats=20)
    k_resample = best_of(lambda: kernel(method="resample"))
    print(
        f"  band kernels on the same counts: exact {k_exact * 1e3:.2f} ms, "
        f"resampling {k_resample * 1e3:.1f} ms = {k_resample / k_exact:.0f} x"
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
