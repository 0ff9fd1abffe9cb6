"""Hulls, envelopes and selections of many groups equal those of each group alone."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import costchart as cc

FUNCTIONS = {
    "roc_hull": cc.roc_hull,
    "lower_envelope": cc.lower_envelope,
    "selection_table": cc.selection_table,
    "operating_range": cc.operating_range,
}


def _points(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 400))
    scores = np.round(rng.normal(size=n), int(rng.integers(0, 3)))
    data = pd.DataFrame(
        {
            "g": rng.choice(["a", "b", "c", None], n),
            "s": scores,
            "y": rng.random(n) < 0.4,
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cc.CostchartWarning)
        points = cc.roc_points(data, score="s", label="y", by="g")
    if seed % 3 == 0:  # rates only, no counts, shuffled: sorted and completed per group
        points = points[["g", "threshold", "fpr", "tpr"]].sample(frac=1, random_state=seed)
        points = points[(points.fpr > 0) | (points.tpr > 0)]
    return points


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("seed", range(12))
def test_many_groups_equal_each_group_alone(name, seed):
    points = _points(seed)
    function = FUNCTIONS[name]
    together = function(points)
    for key in pd.unique(together.g):
        alone = function(points[points.g.isna() if pd.isna(key) else points.g == key])
        part = together[together.g.isna() if pd.isna(key) else together.g == key]
        pd.testing.assert_frame_equal(
            part.reset_index(drop=True), alone.reset_index(drop=True), check_dtype=False
        )
    assert set(pd.unique(together.g)) == set(pd.unique(points.g))


def test_hull_of_pooled_test_sets_uses_rates_per_group():
    # Group "p" pools curves of different test sizes (counts do not scale the rates);
    # group "q" is one curve. Each must give what it gives alone.
    p1 = cc.roc_points({"s": [3, 2, 1, 0], "y": [1, 0, 1, 0]}, score="s", label="y")
    p2 = cc.roc_points(
        {"s": [5, 4, 3, 2, 1, 0] * 2, "y": [1, 1, 0, 1, 0, 0] * 2}, score="s", label="y"
    )
    pooled = pd.concat([p1.assign(run=1), p2.assign(run=2)], ignore_index=True).assign(g="p")
    single = p2.assign(g="q", run=3)
    table = pd.concat([pooled, single], ignore_index=True)
    together = cc.roc_hull(table, by="g")  # by= given: the hull pools each group's curves
    alone = cc.roc_hull(pooled.drop(columns="g"), by=[])
    np.testing.assert_array_equal(together[together.g == "p"].fpr, alone.fpr)
    np.testing.assert_array_equal(together[together.g == "p"].tpr, alone.tpr)
