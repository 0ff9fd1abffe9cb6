"""Whole-curve coverage and width of the simultaneous bootstrap band on binormal test sets.

For each setting (scores of positives and negatives normal, the same number per class),
simulated test sets are banded with ``bootstrap_band(..., simultaneous=True)`` at 81 ``pc``
from 0.1 to 0.9 (the grid ``docs/bands.md`` recommends for whole curves), at level 0.9,
with the default 2,000 resamples. Two ways of choosing the classifier at each ``pc``:

* ``true-optimal``: the threshold that is optimal under the true distributions; the band
  should hold the true cost curve at every ``pc`` at once in 90 % of test sets.
* ``envelope``: the threshold each test set's own lower envelope chooses (the default
  band); coverage is of those classifiers' true costs at every ``pc`` (and, in brackets,
  of the true optimal curve). The default band resamples the envelope's choice of its
  thresholds (``bench_band_coverage.py`` measures it in more settings).

Prints, per setting and choice, the share of test sets whose band holds the whole curve
and the band's mean width (over test sets and ``pc``), and for reference those of the
default pointwise band at the true-optimal thresholds. ``docs/bands.md`` quotes them.

    nice -n 10 python tests/benchmarks/bench_simultaneous.py [--simulations 500] [--sampling full]
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from bench_band_coverage import envelope_thresholds  # the same 81 pc

import costchart as cc
from costchart._bands.coverage import _selection
from costchart.datasets.binormal import binormal_cost, binormal_scores, binormal_threshold

PC = np.linspace(0.1, 0.9, 81)
#: (label, positives' mean, negatives' mean, scale, instances per class)
SETTINGS = (
    ("N(1.5, 1) vs N(0, 1), 200 per class", 1.5, 0.0, 1.0, 200),
    ("N(3, 3) vs N(-3, 3), 200 per class", 3.0, -3.0, 3.0, 200),
    ("N(1.5, 1) vs N(0, 1), 50 per class", 1.5, 0.0, 1.0, 50),
)


def test_sets(mu_pos, mu_neg, sigma, n, simulations, seed) -> pd.DataFrame:
    """``simulations`` test sets: positives ``N(mu_pos, sigma)``, negatives ``N(mu_neg, sigma)``."""
    half = (mu_pos - mu_neg) / 2
    data = binormal_scores(
        n_pos=n, n_neg=n, mu=half, sigma=sigma, simulations=simulations, rng=seed
    )
    data["score"] += (mu_pos + mu_neg) / 2
    return data


def whole_curve(band: pd.DataFrame, truth: np.ndarray, simulations: int):
    """Share of test sets whose band holds ``truth`` at every pc, and the mean width."""
    lower = band["lower"].to_numpy().reshape(simulations, -1)
    upper = band["upper"].to_numpy().reshape(simulations, -1)
    held = ((lower <= truth) & (truth <= upper)).all(axis=1)
    return held.mean(), (upper - lower).mean()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=500)
    parser.add_argument("--sampling", default="stratified", choices=["stratified", "full"])
    args = parser.parse_args()
    sims = args.simulations
    print(
        f"{sims} test sets per setting, 81 pc in [0.1, 0.9], level 0.9, 2,000 resamples, "
        f"{args.sampling} sampling"
    )
    print(f"{'setting':38s} {'thresholds':13s} {'coverage':>17s} {'mean width':>11s}")
    for seed, (name, mu_pos, mu_neg, sigma, n) in enumerate(SETTINGS):
        data = test_sets(mu_pos, mu_neg, sigma, n, sims, seed=2026 + seed)
        optimal = binormal_threshold(PC, mu_pos=mu_pos, mu_neg=mu_neg, sigma=sigma)
        best = binormal_cost(PC, optimal, mu_pos=mu_pos, mu_neg=mu_neg, sigma=sigma)
        options = {"score": "score", "label": "label", "by": "simulation", "pc": PC}
        options["sampling"] = args.sampling
        band = cc.bootstrap_band(
            data,
            selection=_selection(optimal, PC, sims),  # one table per test set
            simultaneous=True,
            rng=seed,
            **options,
        )
        coverage, width = whole_curve(band, best[None, :], sims)
        print(f"{name:38s} {'true-optimal':13s} {coverage:17.3f} {width:11.4f}", flush=True)
        band = cc.bootstrap_band(data, selection=_selection(optimal, PC, sims), **options)
        coverage, width = whole_curve(band, best[None, :], sims)
        print(f"{'  (pointwise band)':38s} {'true-optimal':13s} {coverage:17.3f} {width:11.4f}")
        band = cc.bootstrap_band(data, simultaneous=True, rng=seed, **options)
        chosen = envelope_thresholds(data, sims)
        truth = binormal_cost(PC[None, :], chosen, mu_pos=mu_pos, mu_neg=mu_neg, sigma=sigma)
        coverage, width = whole_curve(band, truth, sims)
        of_best, _ = whole_curve(band, best[None, :], sims)
        cell = f"{coverage:.3f} ({of_best:.3f})"
        print(f"{'':38s} {'envelope':13s} {cell:>17s} {width:11.4f}", flush=True)


if __name__ == "__main__":
    main()
