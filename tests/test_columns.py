"""The columns of ROC points made straight from all-distinct scores (costchart/_roc/columns.py)
equal those counted per distinct score, ties or not, at block edges too."""

import numpy as np
import pytest

import costchart as cc
from costchart._io import sorting
from costchart._io.sorting import count_instances
from costchart._roc import columns
from costchart._roc.columns import DISTINCT_FROM, count_columns, distinct_columns


def _data(kind: str, n: int = 30_000, share: float = 0.1, seed: int = 0):
    rng = np.random.default_rng(seed)
    positive = rng.random(n) < share
    scores = rng.normal(size=n) + positive
    if kind == "rounded":
        scores = np.round(scores, 2)
    elif kind == "shared":  # one score in both classes
        scores[np.flatnonzero(positive)[0]] = scores[np.flatnonzero(~positive)[0]]
    elif kind == "signed zeros":  # equal scores, different bits
        scores[np.flatnonzero(positive)[0]], scores[np.flatnonzero(~positive)[0]] = 0.0, -0.0
    elif kind == "tie across a block edge":  # the larger class's 1,000th and 1,001st tie
        larger = positive if share > 0.5 else ~positive
        ordered = np.sort(scores[larger])
        scores[np.flatnonzero((scores == ordered[999]) & larger)] = ordered[1000]
    return scores, positive


KINDS = ["distinct", "rounded", "shared", "signed zeros", "tie across a block edge"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("share", [0.1, 0.5, 0.9, 0.9999])
def test_the_columns_equal_the_general_way(kind, share, monkeypatch):
    monkeypatch.setattr(sorting, "_BLOCK", 1_000)  # many blocks, so their edges are tried
    monkeypatch.setattr(columns, "_SAMPLE", 1)  # no ties seen up front: found on the way
    scores, positive = _data(kind, share=share)
    given = scores.copy(), positive.copy()
    made = distinct_columns(scores, positive)
    expected = count_columns(*count_instances(scores, positive))
    assert made is not None and list(made) == list(expected)
    for name, column in expected.items():
        assert made[name].dtype == column.dtype, name
        np.testing.assert_array_equal(made[name], column, err_msg=name)
    np.testing.assert_array_equal(scores, given[0])  # the input is not changed
    np.testing.assert_array_equal(positive, given[1])


def test_the_general_way_is_left_where_it_decides():
    scores, positive = _data("distinct")
    assert distinct_columns(scores[: DISTINCT_FROM - 1], positive[: DISTINCT_FROM - 1]) is None
    assert distinct_columns(scores.astype(np.float32), positive) is None
    assert distinct_columns(scores, np.zeros(len(scores), dtype=bool)) is None  # one class
    rounded, positive = _data("rounded", n=100_000)  # ties in a sample: counted without a sort
    assert distinct_columns(rounded, positive) is None


def test_roc_points_equal_scikit_learn_and_its_columns_are_its_own():
    from sklearn.metrics import roc_curve

    scores, positive = _data("distinct", n=50_000)
    points = cc.roc_points({"s": scores, "y": positive}, score="s", label="y")
    fpr, tpr, thresholds = roc_curve(positive, scores, drop_intermediate=False)
    np.testing.assert_array_equal(points["fpr"], fpr)
    np.testing.assert_array_equal(points["tpr"], tpr)
    np.testing.assert_array_equal(points["threshold"].iloc[1:], thresholds[1:])
    # The seven columns share one allocation; writing to one leaves the others alone.
    before = points.copy()
    points.loc[1, "tp"] = -1
    points.loc[2, "fpr"] = 2.0
    for name in points.columns:
        changed = points[name].to_numpy() != before[name].to_numpy()
        assert changed.sum() == (name in ("tp", "fpr")), name
