"""Benchmark of chart building and export; prints sizes and times from one run.

Run from the repository root:  python tests/benchmarks/bench_charts.py
A 3-data-set x 2-classifier faceted, linked ROC + cost chart of 10 million instances
(all scores distinct, the worst case for curve length) is built and saved as HTML and PNG.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from _timing import timed

import costchart as cc


def main(n: int = 10_000_000) -> None:
    rng = np.random.default_rng(0)
    datasets, classifiers = ["alpha", "beta", "gamma"], ["model a", "model b"]
    per_group = n // (len(datasets) * len(classifiers))
    frames = []
    for number, dataset in enumerate(datasets):
        for separation, classifier in zip((1.0, 1.6), classifiers):
            labels = rng.random(per_group) < 0.1 + 0.1 * number
            scores = rng.normal(size=per_group) + separation * labels
            frames.append(
                pd.DataFrame(
                    {"dataset": dataset, "classifier": classifier, "score": scores, "label": labels}
                )
            )
    data = pd.concat(frames, ignore_index=True)
    print(
        f"faceted, linked ROC + cost chart of {len(data):,} instances (3 data sets x 2 classifiers)"
    )

    points, t_points = timed(
        lambda: cc.roc_points(data, score="score", label="label", by=["dataset", "classifier"])
    )
    print(f"  roc_points                {t_points:6.2f} s   ({len(points):,} ROC points)")
    chart, t_build = timed(lambda: cc.roc_cost_chart(points, color="classifier", facet="dataset"))
    print(f"  build chart               {t_build:6.2f} s")
    folder = Path(tempfile.mkdtemp())
    _, t_first_html = timed(lambda: cc.save(chart, folder / "first.html"))
    _, t_html = timed(lambda: cc.save(chart, folder / "chart.html"))
    size = (folder / "chart.html").stat().st_size
    print(
        f"  save HTML                 {t_html:6.2f} s   (first call in a process {t_first_html:.2f} s: builds the JS bundle)"
    )
    print(
        f"  HTML size                 {size / 1e6:6.2f} MB  (target < 1.5 MB, JS bundle included)"
    )
    _, t_png = timed(lambda: cc.save(chart, folder / "chart.png"))
    print(
        f"  save PNG (scale 2)        {t_png:6.2f} s   ({(folder / 'chart.png').stat().st_size / 1e3:.0f} kB)"
    )
    spec = chart.to_dict()
    rows = sum(len(values) for values in spec["datasets"].values())
    print(f"  rows embedded             {rows:6,d}     (for {len(points):,} ROC points)")


if __name__ == "__main__":
    main()
