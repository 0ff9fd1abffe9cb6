"""The envelope's rows for bands: all groups' hulls at once equal the per-group way."""

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._bands import rows as band_rows
from costchart._io.groups import split_groups
from costchart._io.tables import points_groups


def _general_rows(points, groups, pc, by):
    """The general way: envelope thresholds from all_hulls, then each group's rows."""
    original = band_rows._envelope_rows
    band_rows._envelope_rows = lambda *args: None
    try:
        return band_rows.grouped_rows(points, groups, pc, None, None, by)
    finally:
        band_rows._envelope_rows = original


def _points(rng, groups: int, weighted: bool) -> pd.DataFrame:
    sizes = rng.integers(2, 80, size=groups)
    n = int(sizes.sum())
    data = pd.DataFrame(
        {
            "model": np.repeat(rng.choice(["a", "b"], size=groups), sizes),
            "fold": np.repeat(np.arange(groups), sizes),
            "s": np.round(rng.normal(size=n), int(rng.integers(0, 3))),  # ties
            "y": rng.random(n) < rng.uniform(0.1, 0.9),
            "w": rng.integers(0, 4, size=n) if weighted else np.ones(n),
        }
    )
    first = data.groupby("fold").head(1).index
    last = data.groupby("fold").tail(1).index
    data.loc[first, ["y", "w"]] = [True, 1]
    data.loc[last, ["y", "w"]] = [False, 1]
    return cc.roc_points(data, score="s", label="y", weight="w", by=["model", "fold"])


@pytest.mark.parametrize("seed", range(10))
def test_envelope_rows_of_all_groups_equal_the_general_way(seed):
    rng = np.random.default_rng(seed)
    points = _points(rng, int(rng.integers(1, 30)), weighted=seed % 2 == 1)
    table, by, groups = points_groups(points, None)
    hull = cc.roc_hull(table)
    # the grid, the vertices' own pc ends (ties between two vertices) and 0 and 1
    pc = np.unique(np.r_[np.linspace(0, 1, 101), hull.pc_lo, hull.pc_hi, rng.random(20)])
    if seed % 3 == 0:
        pc = rng.permutation(np.r_[pc, pc[:5]])  # a grid in any order, with repeats
    fast = band_rows._envelope_rows(table, groups, pc)
    assert fast is not None
    np.testing.assert_array_equal(fast, _general_rows(table, groups, pc, by))


def test_points_that_are_not_costcharts_own_take_the_general_way():
    points = pd.DataFrame(
        {
            "threshold": [2.0, 1.0],
            "fpr": [0.2, 0.6],
            "tpr": [0.5, 0.9],
            "tp": [5, 9],
            "fn": [5, 1],
            "fp": [2, 6],
            "tn": [8, 4],
        }
    )  # no trivial classifiers
    groups = split_groups(points, [])
    assert band_rows._envelope_rows(points, groups, np.array([0.5])) is None
    # Two test sets' curves pooled in one group: no single curve in threshold order.
    rng = np.random.default_rng(0)
    data = pd.DataFrame(
        {
            "fold": np.repeat([0, 1], [10, 20]),
            "s": rng.normal(size=30),
            "y": np.r_[np.arange(10) < 5, np.arange(20) < 4],
        }
    )
    pooled = cc.roc_points(data, score="s", label="y", by="fold").drop(columns="fold")
    with pytest.raises(cc.CostchartError, match="not one ROC curve"):  # refused at the edge
        points_groups(pooled, [])
    table, groups = pooled, split_groups(pooled, [])  # what the band's row choice would see
    assert band_rows._envelope_rows(table, groups, np.array([0.5])) is None


def test_the_default_band_is_unchanged():
    rng = np.random.default_rng(3)
    n = 3000
    y = rng.random(n) < 0.3
    data = {"s": rng.normal(size=n) + y, "y": y, "g": rng.integers(0, 5, size=n)}
    exact = {"inference": "exact_bootstrap"}  # the rows, not the resampled choice
    band = cc.bootstrap_band(data, score="s", label="y", by="g", **exact)
    original = band_rows._envelope_rows
    band_rows._envelope_rows = lambda *args: None
    try:
        general = cc.bootstrap_band(data, score="s", label="y", by="g", **exact)
    finally:
        band_rows._envelope_rows = original
    pd.testing.assert_frame_equal(band, general)


@pytest.mark.parametrize("seed", range(6))
def test_own_points_skip_the_checks_and_give_the_checked_rows(seed):
    # bootstrap_band passes roc_points' fresh points as its own (no checks): the rows
    # must be those of the checked fast way and of the general way.
    rng = np.random.default_rng(seed)
    points = _points(rng, int(rng.integers(1, 20)), weighted=seed % 2 == 1)
    table, by, groups = points_groups(points, None)
    pc = np.unique(np.r_[np.linspace(0, 1, 51), rng.random(10)])
    read = {c: table[c].to_numpy() for c in table.columns}
    own = band_rows._envelope_rows(table, groups, pc, band_rows._Columns(table, read), True)
    np.testing.assert_array_equal(own, band_rows._envelope_rows(table, groups, pc))
    np.testing.assert_array_equal(own, _general_rows(table, groups, pc, by))


def test_columns_already_read_give_the_rows_of_the_frame():
    rng = np.random.default_rng(7)
    points = _points(rng, 4, weighted=False)
    table, by, groups = points_groups(points, None)
    pc = np.linspace(0, 1, 21)
    read = {c: table[c].to_numpy() for c in ("threshold", "tp", "fp", "fpr", "tpr")}
    for threshold in (None, 0.3):
        np.testing.assert_array_equal(
            band_rows.grouped_rows(table, groups, pc, None, threshold, by, read=read),
            band_rows.grouped_rows(table, groups, pc, None, threshold, by),
        )
