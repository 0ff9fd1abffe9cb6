"""Counting all groups at once equals counting each group alone."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._roc.counting import count_groups, cumulate_groups, reversed_within


def test_reversed_within_reverses_each_block():
    assert reversed_within(np.array([3, 1, 2])).tolist() == [2, 1, 0, 3, 5, 4]
    assert reversed_within(np.array([], dtype=np.int64)).tolist() == []


def test_cumulate_groups_restarts_at_every_group():
    integer = cumulate_groups(np.array([1, 2, 3, 4], dtype=np.int64), np.array([3, 1]))
    assert integer.tolist() == [0, 1, 3, 6, 0, 4]
    floats = cumulate_groups(np.array([1e20, 1.0, 0.5]), np.array([1, 2]))
    assert floats.tolist() == [0.0, 1e20, 0.0, 1.0, 1.5]  # no loss after a huge group


def test_count_groups_gives_decreasing_scores_per_group():
    group = np.array([1, 0, 1, 0, 1, 1])
    scores = np.array([0.5, 0.2, 0.5, 0.9, 0.1, 0.7])
    positive = np.array([True, False, False, True, True, False])
    counts = count_groups(group, scores, positive, 2)
    assert counts.lengths.tolist() == [2, 3]
    assert counts.scores.tolist() == [0.9, 0.2, 0.7, 0.5, 0.1]
    assert counts.pos.tolist() == [1, 0, 0, 1, 1]
    assert counts.neg.tolist() == [0, 1, 1, 1, 0]


def _each_group_alone(data: pd.DataFrame) -> pd.DataFrame | None:
    parts = []
    for key in pd.unique(data.g):
        part = data[data.g.isna()] if pd.isna(key) else data[data.g == key]
        if part.y.all() or not part.y.any():
            continue
        points = cc.roc_points(part.drop(columns="g"), score="s", label="y")
        points.insert(0, "g", part.g.iloc[[0] * len(points)].to_numpy())
        parts.append(points)
    if not parts:
        return None
    together = pd.concat(parts, ignore_index=True)
    return together.astype({"g": data.g.dtype})


@pytest.mark.parametrize("seed", range(30))
def test_roc_points_of_many_groups_equal_each_group_alone(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 300))
    kind = seed % 4
    scores = {
        0: rng.normal(size=n),  # distinct
        1: np.round(rng.normal(size=n), 1),  # ties
        2: rng.integers(-3, 3, n),  # small integers
        3: rng.integers(0, 4, n).astype(np.int64) + 2**60,  # beyond float64
    }[kind]
    data = pd.DataFrame(
        {"g": rng.choice(["a", "b", "c", "d", None], n), "s": scores, "y": rng.random(n) < 0.4}
    )
    expected = _each_group_alone(data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cc.CostchartWarning)  # one-class groups
        if expected is None:
            with pytest.raises(cc.CostchartError, match="no group of"):
                cc.roc_points(data, score="s", label="y", by="g")
            return
        together = cc.roc_points(data, score="s", label="y", by="g")
    pd.testing.assert_frame_equal(together, expected)


def test_one_class_groups_are_warned_in_group_order_and_left_out():
    data = pd.DataFrame(
        {"g": ["x", "p", "p", "x", "n"], "s": [1, 2, 3, 4, 5], "y": [1, 1, 0, 0, 0]}
    )
    with pytest.warns(cc.CostchartWarning, match=r"\{'g': 'n'\} has no positives"):
        points = cc.roc_points(data, score="s", label="y", by="g")
    assert list(pd.unique(points.g)) == ["x", "p"]


def test_no_group_with_both_classes_is_refused():
    data = pd.DataFrame({"g": ["a", "b"], "s": [1, 2], "y": [1, 0]})
    with (
        pytest.raises(cc.CostchartError, match="no group of"),
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("ignore", cc.CostchartWarning)
        cc.roc_points(data, score="s", label="y", by="g")


def test_counts_of_many_groups_stay_exact_beyond_two_to_the_32():
    # 70,000 groups: group numbers do not fit the 16-bit radix sort.
    rng = np.random.default_rng(5)
    groups = 70_000
    data = pd.DataFrame(
        {
            "g": np.repeat(np.arange(groups), 2),
            "s": rng.random(2 * groups),
            "y": np.tile([True, False], groups),
        }
    )
    points = cc.roc_points(data, score="s", label="y", by="g")
    assert len(points) == 3 * groups
    last = points.groupby("g").tail(1)
    assert (last.tp == 1).all() and (last.fp == 1).all()
    assert (points.groupby("g").threshold.first() == np.inf).all()


@pytest.mark.parametrize("decimals", [0, 2, 3])
def test_rounded_scores_counted_on_a_lattice_equal_sorting(decimals):
    from costchart._roc.counting import _count_instances

    rng = np.random.default_rng(decimals)
    n = 50_000  # large enough for the integer-code path
    scores = np.round(rng.normal(size=n), decimals)
    positive = rng.random(n) < 0.2
    points = cc.roc_points({"s": scores, "y": positive}, score="s", label="y")
    values, pos, neg = _count_instances(scores.copy(), positive)
    np.testing.assert_array_equal(points.threshold.to_numpy()[1:], values)
    np.testing.assert_array_equal(np.diff(points.tp.to_numpy()), pos)
    np.testing.assert_array_equal(np.diff(points.fp.to_numpy()), neg)
    assert points.tp.dtype == np.int64
