"""Thinned points stay marked through polars, pyarrow and dicts (issue 31 item 9).

``expected_loss(threshold_choice="score_driven")`` of thinned points read through polars
gave 0.1236 where the classifier's is 0.1548: the mark was only in ``attrs``.
"""

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import costchart as cc

REFUSAL = (
    r'^threshold_choice="{}" needs every threshold of the classifier, but these points were '
    r"thinned \(thin_points\)"
)


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    y = rng.random(2000) < 0.4
    return pd.DataFrame({"s": np.clip(rng.normal(0.3 + 0.3 * y, 0.2), 0, 1), "y": y})


def _kinds(table):
    return {
        "pandas": table,
        "polars": pl.from_pandas(table),
        "pyarrow": pa.Table.from_pandas(table, preserve_index=False),
        "dict": table.to_dict("list"),
    }


@pytest.mark.parametrize("kind", ["pandas", "polars", "pyarrow", "dict"])
@pytest.mark.parametrize("choice", ["score_driven", "fixed", "rate_driven"])
def test_thinned_points_are_refused_whatever_they_went_through(data, kind, choice):
    thinned = cc.thin_points(cc.roc_points(data, score="s", label="y"), max_points=20)
    assert thinned["thinned"].dtype == bool and thinned["thinned"].all()
    threshold = 0.5 if choice == "fixed" else None
    with pytest.raises(cc.CostchartError, match=REFUSAL.format(choice)):
        cc.expected_loss(_kinds(thinned)[kind], threshold_choice=choice, threshold=threshold)


@pytest.mark.parametrize("kind", ["polars", "dict"])
def test_the_optimal_loss_of_thinned_points_is_unchanged(data, kind):
    points = cc.roc_points(data, score="s", label="y")
    thinned = _kinds(cc.thin_points(points, max_points=20))[kind]
    got = cc.expected_loss(thinned, threshold_choice="optimal")["expected_loss"].item()
    full = cc.expected_loss(points, threshold_choice="optimal")["expected_loss"].item()
    assert got == pytest.approx(full, abs=1e-12)  # thinning keeps the hull


def test_points_kept_whole_are_not_marked_and_give_the_brute_force_answer():
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.4, 0.3, 0.2, 0.1])
    y = np.array([1, 1, 0, 1, 0, 1, 0, 0])
    points = cc.roc_points({"s": s, "y": y}, score="s", label="y")
    kept = cc.thin_points(points, max_points=50)
    assert "thinned" not in kept.columns
    got = cc.expected_loss(pl.from_pandas(kept), threshold_choice="score_driven")
    # Brute force: at each pc, positive when s >= 1 - pc; the cost pc FNR + (1 - pc) FPR
    # averaged over a fine grid of pc.
    pc = (np.arange(200_000) + 0.5) / 200_000
    positive = s[None, :] >= 1 - pc[:, None]
    fnr = ((~positive) & (y == 1)).sum(axis=1) / (y == 1).sum()
    fpr = (positive & (y == 0)).sum(axis=1) / (y == 0).sum()
    brute = np.mean(pc * fnr + (1 - pc) * fpr)
    assert got["expected_loss"].item() == pytest.approx(brute, abs=1e-4)


def test_only_the_groups_that_lost_points_are_marked_and_thinning_again_keeps_it(data):
    two = pd.concat([data.assign(g="long"), data.iloc[:6].assign(g="short")], ignore_index=True)
    points = cc.roc_points(two, score="s", label="y", by="g")
    thinned = cc.thin_points(points, max_points=20)
    marks = thinned.groupby("g")["thinned"].agg(["all", "any"])
    assert marks.loc["long"].tolist() == [True, True]
    assert marks.loc["short"].tolist() == [False, False]
    again = cc.thin_points(pl.from_pandas(thinned), max_points=200, by="g")
    assert again.groupby("g")["thinned"].all().to_dict() == {"long": True, "short": False}
    with pytest.raises(cc.CostchartError, match=REFUSAL.format("score_driven")):
        cc.expected_loss(again.to_dict("list"), threshold_choice="score_driven", by="g")


def test_thinned_is_a_reserved_name():
    with pytest.raises(cc.CostchartError, match="includes 'thinned', a column name"):
        cc.roc_points(
            {"s": [0.1, 0.9], "y": [0, 1], "thinned": [1, 2]}, score="s", label="y", by="thinned"
        )


@pytest.mark.parametrize("kind", ["pandas", "polars", "dict"])
def test_the_rate_driven_curve_refuses_thinned_points(data, kind):
    # Its costs lie between every pair of neighbouring ROC points, not only on the hull.
    thinned = cc.thin_points(cc.roc_points(data, score="s", label="y"), max_points=20)
    with pytest.raises(cc.CostchartError, match=r"^rate_driven_curve needs every threshold"):
        cc.rate_driven_curve(_kinds(thinned)[kind], pc=[0.3])
