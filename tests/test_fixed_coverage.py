"""Headline cells of tests/benchmarks/bench_fixed_coverage.py, with few test sets (issue 32).

Setting C (positives ``N(1.5, 1)``, negatives ``N(0, 1)``, 50 per class) and B
(``N(1, 1)`` vs ``N(0, 1)``, 100 per class), level 0.9, the true-optimal thresholds. With
200 test sets a coverage near 0.93 has a Monte Carlo standard error of about 0.018; each
test asks for at least 0.85 (the issue's standard), more than 4 standard errors below the
measured value, so a correct band fails with probability below 1e-4. The bands before
issue 32 covered 0.61-0.67 (pointwise) and 0.78-0.81 (difference) there.
"""

from __future__ import annotations

import numpy as np
import pytest

import costchart as cc
from costchart._bands.coverage import _selection
from costchart.datasets.binormal import binormal_cost, binormal_scores, binormal_threshold

PC = np.array([0.1, 0.9])
SIMULATIONS = 200


def _truth(mu_pos, pc=PC):
    threshold = binormal_threshold(pc, mu_pos=mu_pos, mu_neg=0.0, sigma=1.0)
    return threshold, binormal_cost(pc, threshold, mu_pos=mu_pos, mu_neg=0.0, sigma=1.0)


def _coverage(band, truth):
    lower = band["lower"].to_numpy().reshape(SIMULATIONS, -1)
    upper = band["upper"].to_numpy().reshape(SIMULATIONS, -1)
    return ((lower <= truth) & (truth <= upper)).mean(axis=0)


def test_pointwise_band_covers_at_the_extremes_with_50_per_class():
    data = binormal_scores(n_pos=50, n_neg=50, mu=0.75, sigma=1.0, simulations=SIMULATIONS, rng=7)
    data["score"] += 0.75  # positives N(1.5, 1), negatives N(0, 1)
    threshold, cost = _truth(1.5)
    band = cc.bootstrap_band(
        data,
        score="score",
        label="label",
        by="simulation",
        pc=PC,
        selection=_selection(threshold, PC, SIMULATIONS),
    )
    covered = _coverage(band, cost)
    assert (covered >= 0.85).all(), covered
    normal = cc.bootstrap_band(
        data,
        score="score",
        label="label",
        by="simulation",
        pc=PC,
        selection=_selection(threshold, PC, SIMULATIONS),
        interval="normal",
    )
    assert (_coverage(normal, cost) < 0.8).all()  # the normal fit alone does not


def test_difference_band_covers_at_the_extremes_with_100_per_class():
    data = binormal_scores(
        n_pos=100,
        n_neg=100,
        mu=0.5,
        sigma=1.0,
        simulations=SIMULATIONS,
        shift=0.5,
        correlation=0.6,
        rng=8,
    )
    data["score"] += 0.5  # a: positives N(1, 1); b: N(1.5, 1); negatives N(0, 1)
    (t_a, c_a), (t_b, c_b) = _truth(1.0), _truth(1.5)
    options = {
        "score": "score",
        "label": "label",
        "classifier": "classifier",
        "instance": "instance",
        "a": "a",
        "b": "b",
        "by": "simulation",
        "pc": PC,
        "selection": (_selection(t_a, PC, SIMULATIONS), _selection(t_b, PC, SIMULATIONS)),
    }
    covered = _coverage(cc.difference_band(data, **options), c_a - c_b)
    assert (covered >= 0.85).all(), covered
    normal = _coverage(cc.difference_band(data, interval="normal", **options), c_a - c_b)
    assert (normal < 0.85).any(), normal  # the normal fit alone does not


@pytest.mark.slow
def test_the_default_difference_band_covers_the_difference_of_the_chosen_thresholds():
    # Each classifier at its own envelope's thresholds (the default band): the benchmark's
    # 1,000 test sets held the true difference of those thresholds in 0.906 of them on
    # average over pc in setting C (0.889 at the worst pc in 0.2-0.8). 200 sets: a mean
    # over correlated pc has a Monte Carlo se below 0.02; 0.85 is 2.8 of them below.
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))
    import bench_fixed_coverage as bench

    data = bench.test_sets("C", SIMULATIONS, 2034, paired=True)
    band = cc.difference_band(
        data,
        score="score",
        label="label",
        by="simulation",
        classifier="classifier",
        instance="instance",
        a="a",
        b="b",
        pc=bench.PC,
    )
    assert "largely cancels" in band.attrs["costchart"]["covers"]
    true = bench.envelope_difference("C", data, SIMULATIONS)
    inside, _ = bench.held(band, true, SIMULATIONS)
    assert inside.mean() >= 0.85, inside.mean()
