"""Coverage and width of the bands at fixed (true-optimal) thresholds, settings A-D.

Settings (binormal scores, the same number per class; issue 32):

* A: positives ``N(1.5, 1)``, negatives ``N(0, 1)``, 200 per class;
* B: ``N(1, 1)`` vs ``N(0, 1)``, 100 per class;
* C: ``N(1.5, 1)`` vs ``N(0, 1)``, 50 per class;
* D: ``N(3, 3)`` vs ``N(-3, 3)``, 200 per class.

Each simulated test set is banded at the thresholds that are optimal under the true
distributions at 81 ``pc`` from 0.1 to 0.9, at levels 0.9 and 0.95. For each band kind:

* ``simultaneous``: ``bootstrap_band(simultaneous=True)`` (2,000 resamples); coverage is the
  share of test sets whose band holds the whole true curve;
* ``pointwise``: the default ``bootstrap_band``; coverage at ``pc`` 0.1 and 0.9, and the
  worst over the 81 ``pc``;
* ``difference``: ``difference_band`` of two classifiers scored on the same instances
  (classifier "b"'s positives shifted by half a standard deviation, within-class
  correlation 0.6), each at its own true-optimal thresholds; the same pointwise columns,
  of the true difference;
* ``difference-envelope``: the default ``difference_band``, each classifier at the
  thresholds its own lower envelope chooses on the test set (the exact bootstrap, the
  chosen thresholds treated as fixed); the truth is the true difference of those
  thresholds' costs. Besides the ends and the worst ``pc``, it prints the worst ``pc`` in
  0.2-0.8 and the mean over ``pc``.

Each coverage is printed with its Monte Carlo standard error ``sqrt(c (1 - c) / sims)``;
width is the band's mean width over test sets and ``pc``. ``--uncalibrated`` turns off the
simultaneous band's double-bootstrap calibration (the band before issue 32), and
``--interval`` sets the pointwise bands' interval. ``docs/bands.md`` quotes the table.

    nice -n 10 python tests/benchmarks/bench_fixed_coverage.py [--simulations 1000]
        [--bands simultaneous,pointwise,difference] [--levels 0.9,0.95] [--uncalibrated]
"""

from __future__ import annotations

import argparse
import datetime

import numpy as np
import pandas as pd

import costchart as cc
from costchart._bands import simultaneous as simultaneous_module
from costchart._bands.coverage import _selection
from costchart.datasets.binormal import binormal_cost, binormal_scores, binormal_threshold

PC = np.linspace(0.1, 0.9, 81)
#: name: (positives' mean, negatives' mean, scale, instances per class)
SETTINGS = {
    "A": (1.5, 0.0, 1.0, 200),
    "B": (1.0, 0.0, 1.0, 100),
    "C": (1.5, 0.0, 1.0, 50),
    "D": (3.0, -3.0, 3.0, 200),
}
#: The difference's second classifier: positives shifted by this many standard deviations.
SHIFT = 0.5
CORRELATION = 0.6


def test_sets(setting: str, simulations: int, seed: int, *, paired: bool = False):
    """Simulated test sets of a setting (long, with a ``classifier`` column if ``paired``)."""
    mu_pos, mu_neg, sigma, n = SETTINGS[setting]
    data = binormal_scores(
        n_pos=n,
        n_neg=n,
        mu=(mu_pos - mu_neg) / 2,
        sigma=sigma,
        simulations=simulations,
        shift=SHIFT * sigma if paired else None,
        correlation=CORRELATION if paired else 0.0,
        rng=seed,
    )
    data["score"] += (mu_pos + mu_neg) / 2
    return data


def truth(setting: str, shift: float = 0.0):
    """The true-optimal thresholds at each ``PC`` and their true costs."""
    mu_pos, mu_neg, sigma, _ = SETTINGS[setting]
    mu_pos += shift * sigma
    threshold = binormal_threshold(PC, mu_pos=mu_pos, mu_neg=mu_neg, sigma=sigma)
    return threshold, binormal_cost(PC, threshold, mu_pos=mu_pos, mu_neg=mu_neg, sigma=sigma)


def envelope_difference(setting: str, data: pd.DataFrame, simulations: int) -> np.ndarray:
    """The true cost difference of the thresholds each classifier's envelope chooses."""
    mu_pos, mu_neg, sigma, _ = SETTINGS[setting]
    points = cc.roc_points(data, score="score", label="label", by=["simulation", "classifier"])
    table = cc.selection_table(points)
    costs = {}
    for name, shift in (("a", 0.0), ("b", SHIFT)):
        chosen = np.empty((simulations, len(PC)))
        own = table[table["classifier"] == name]
        for s, part in own.groupby("simulation", sort=True):
            index = np.searchsorted(part["pc_lo"].to_numpy(), PC, side="right") - 1
            chosen[s] = part["threshold"].to_numpy(dtype=np.float64)[index]
        costs[name] = binormal_cost(
            PC, chosen, mu_pos=mu_pos + shift * sigma, mu_neg=mu_neg, sigma=sigma
        )
    return costs["a"] - costs["b"]


def held(band: pd.DataFrame, true: np.ndarray, simulations: int):
    """(test sets, pc) booleans: the band holds the truth; and the mean width."""
    lower = band["lower"].to_numpy().reshape(simulations, -1)
    upper = band["upper"].to_numpy().reshape(simulations, -1)
    return (lower <= true) & (true <= upper), float((upper - lower).mean())


def cell(coverage: float, simulations: int) -> str:
    """Coverage with its Monte Carlo standard error."""
    se = np.sqrt(coverage * (1 - coverage) / simulations)
    return f"{coverage:.3f} ({se:.3f})"


def run(setting: str, band_kind: str, level: float, simulations: int, interval: str) -> str:
    """One row of the table."""
    seed = 2032 + list(SETTINGS).index(setting)
    options = {"score": "score", "label": "label", "by": "simulation", "pc": PC}
    options["confidence_level"] = level
    if band_kind == "difference-envelope":
        data = test_sets(setting, simulations, seed, paired=True)
        band = cc.difference_band(
            data, classifier="classifier", instance="instance", a="a", b="b", **options
        )
        true = envelope_difference(setting, data, simulations)
        inside, width = held(band, true, simulations)
        each = inside.mean(axis=0)
        middle = each[(PC >= 0.2 - 1e-9) & (PC <= 0.8 + 1e-9)].min()
        ends = (cell(each[0], simulations), cell(each[-1], simulations))
        return (
            f"{ends[0]:>15s} {ends[1]:>15s} {each.min():7.3f} {width:8.4f} "
            f"{middle:7.3f} {each.mean():7.3f}"
        )
    if band_kind == "difference":
        data = test_sets(setting, simulations, seed, paired=True)
        (t_a, c_a), (t_b, c_b) = truth(setting), truth(setting, SHIFT)
        band = cc.difference_band(
            data,
            classifier="classifier",
            instance="instance",
            a="a",
            b="b",
            selection=(_selection(t_a, PC, simulations), _selection(t_b, PC, simulations)),
            interval=interval,
            **options,
        )
        inside, width = held(band, (c_a - c_b)[None, :], simulations)
    else:
        data = test_sets(setting, simulations, seed)
        threshold, cost = truth(setting)
        whole = band_kind == "simultaneous"
        extra = {"simultaneous": True, "rng": seed} if whole else {"interval": interval}
        band = cc.bootstrap_band(
            data, selection=_selection(threshold, PC, simulations), **extra, **options
        )
        inside, width = held(band, cost[None, :], simulations)
    if band_kind == "simultaneous":
        return f"{cell(inside.all(axis=1).mean(), simulations):>15s} {width:8.4f}"
    each = inside.mean(axis=0)
    ends = (cell(each[0], simulations), cell(each[-1], simulations))
    return f"{ends[0]:>15s} {ends[1]:>15s} {each.min():7.3f} {width:8.4f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--bands", default="simultaneous,pointwise,difference")
    parser.add_argument("--levels", default="0.9,0.95")
    parser.add_argument("--settings", default="A,B,C,D")
    parser.add_argument("--interval", default="auto")
    parser.add_argument("--uncalibrated", action="store_true")
    args = parser.parse_args()
    if args.uncalibrated:
        simultaneous_module.CALIBRATION_OUTER = 0
    sims = args.simulations
    print(f"{sims} test sets per cell, 81 pc in [0.1, 0.9], true-optimal thresholds")
    print(f"run {datetime.date.today()}")
    for kind in args.bands.split(","):
        if kind == "simultaneous":
            head = f"{'whole curve':>15s} {'width':>8s}"
        elif kind == "difference-envelope":
            head = (
                f"{'pc 0.1':>15s} {'pc 0.9':>15s} {'worst':>7s} {'width':>8s} "
                f"{'0.2-0.8':>7s} {'mean':>7s}"
            )
        else:
            head = f"{'pc 0.1':>15s} {'pc 0.9':>15s} {'worst':>7s} {'width':>8s}"
        print(f"\n{kind} band\nsetting level {head}")
        for level in (float(v) for v in args.levels.split(",")):
            for setting in args.settings.split(","):
                row = run(setting, kind, level, sims, args.interval)
                print(f"{setting:7s} {level:5.2f} {row}", flush=True)


if __name__ == "__main__":
    main()
