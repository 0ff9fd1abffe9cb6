"""Saving a chart of many curves against building it: is the chart validated only once?

Run from the repository root:  python tests/benchmarks/bench_save.py   (about a minute)

The chart of issue 23: a faceted, linked ROC + cost chart of 120 curves (4 data sets x 3
classifiers x 10 folds, 10,000 instances each). Building it, saving it as HTML and as
Vega-Lite JSON, and Altair's own fully validated ``to_dict()`` (what saving used to do)
are timed round-robin, median of several rounds, and printed as ratios to the build.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
from _timing import interleaved, machine_load
from bench_charts import fold_points

import costchart as cc


def main() -> None:
    points = fold_points(np.random.default_rng(0), per_fold=10_000)
    print("python tests/benchmarks/bench_save.py")
    print("faceted, linked ROC + cost chart of 120 curves, 10,000 instances each")
    print(machine_load())
    chart = cc.roc_cost_chart(points, classifier="classifier", facet="dataset")
    folder = Path(tempfile.mkdtemp())
    cc.save(chart, folder / "warm.html")  # the JS bundle is built once per process
    cpu: dict[str, float] = {}
    times = interleaved(
        {
            "build": lambda: cc.roc_cost_chart(points, classifier="classifier", facet="dataset"),
            "save HTML": lambda: cc.save(chart, folder / "chart.html"),
            "save JSON": lambda: cc.save(chart, folder / "chart.json"),
            "to_dict(validate=True)": lambda: chart.to_dict(validate=True),
        },
        rounds=3,
        cpu=cpu,
    )
    build = times["build"]
    print("  (median wall-clock and CPU seconds; targets: build <= 0.5 s, save HTML <= 0.3 s)")
    for name, seconds in times.items():
        print(
            f"  {name:24s} {seconds:6.2f} s   {seconds / build:5.2f} x build   "
            f"CPU {cpu[name]:6.2f} s"
        )
    print(machine_load())


if __name__ == "__main__":
    main()
