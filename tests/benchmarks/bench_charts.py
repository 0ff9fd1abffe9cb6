"""Benchmark of chart building and export; prints sizes, times and ratios from one run.

Run from the repository root:  python tests/benchmarks/bench_charts.py   (about 2 minutes;
``--many-only`` runs part 1 alone)

1. Many curves: a faceted, linked ROC + cost chart of 120 curves (4 data sets x 3
   classifiers x 10 folds, 10,000 test instances each, distinct scores), against a
   one-curve chart of the same kind: build and HTML save times, file sizes, and the PNG
   time as an interleaved ratio (medians of 3 rounds).
2. Long curves: a 3-data-set x 2-classifier chart of 10 million instances (all scores
   distinct, the worst case for curve length), saved as HTML and PNG.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from _timing import interleaved, machine_load, timed

import costchart as cc


def fold_points(rng, datasets: int = 4, folds: int = 10, per_fold: int = 10_000) -> pd.DataFrame:
    frames = []
    for d in range(datasets):
        for strength, classifier in zip((0.8, 1.2, 1.6), ("logistic", "tree", "forest")):
            for fold in range(folds):
                label = rng.random(per_fold) < 0.3
                frames.append(
                    pd.DataFrame(
                        {
                            "dataset": f"data {d}",
                            "classifier": classifier,
                            "fold": fold,
                            "score": rng.normal(size=per_fold) + strength * label,
                            "label": label,
                        }
                    )
                )
    data = pd.concat(frames, ignore_index=True)
    return cc.roc_points(data, score="score", label="label", by=["dataset", "classifier", "fold"])


def many_curves() -> None:
    rng = np.random.default_rng(0)
    points = fold_points(rng)
    one = fold_points(rng, datasets=1, folds=1)
    one = one[one.classifier == "logistic"].drop(columns=["dataset", "fold"])
    print(
        "faceted, linked ROC + cost chart of 120 curves (4 data sets x 3 classifiers x 10 folds, "
        "10,000 instances each)"
    )
    print(machine_load())
    chart = cc.roc_cost_chart(points, classifier="classifier", facet="dataset")
    single = cc.roc_cost_chart(one, classifier="classifier")
    folder = Path(tempfile.mkdtemp())
    cc.save(single, folder / "warm.html")  # builds the JS bundle once
    times = interleaved(
        {
            "build": lambda: cc.roc_cost_chart(points, classifier="classifier", facet="dataset"),
            "html": lambda: cc.save(chart, folder / "many.html"),
        },
        rounds=3,
    )
    print(f"  build (Python)          {times['build']:7.3f} s    (target < 1 s)")
    print(f"  save HTML               {times['html']:7.3f} s    (target < 1 s)")
    sizes = {}
    for suffix in ("html", "svg", "pdf"):
        cc.save(chart, folder / f"many.{suffix}")
        sizes[suffix] = (folder / f"many.{suffix}").stat().st_size / 1e6
    print(f"  HTML                    {sizes['html']:7.2f} MB   (target <= 2 MB, JS included)")
    print(f"  SVG                     {sizes['svg']:7.2f} MB   (target <= 5 MB)")
    print(f"  PDF                     {sizes['pdf']:7.2f} MB   (target <= 5 MB)")
    png = interleaved(
        {
            "one": lambda: cc.save(single, folder / "one.png"),
            "many": lambda: cc.save(chart, folder / "many.png"),
        },
        rounds=3,
    )
    print(
        f"  PNG                     {png['many']:7.2f} s    = {png['many'] / png['one']:.1f} x "
        f"the one-curve chart's {png['one']:.2f} s (target <= 8 x)"
    )
    print(machine_load())
    print(f"  (images in {folder})")


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
    chart, t_build = timed(
        lambda: cc.roc_cost_chart(points, classifier="classifier", facet="dataset")
    )
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
    import sys

    print("python tests/benchmarks/bench_charts.py " + " ".join(sys.argv[1:]))
    many_curves()
    if "--many-only" not in sys.argv:
        main()
