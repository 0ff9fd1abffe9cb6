"""The envelope of the classifiers shown (``combined=True``): its table, its layers, its image.

The table (:func:`costchart._charts.combined.combined_grid`) is what the page reduces
with ``min`` (the envelope) and ``argmin`` (the hull): both must give, for every set of
classifiers a reader can pick, the envelope and the hull of those classifiers' points
together, as costchart computes them from the points themselves.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pandas as pd
import pytest
from scenegraph import data_marks, legend_labels, scene, spec_views

import costchart as cc
from costchart._charts import combined as combined_module
from costchart._charts import drawn_tables
from costchart._charts.combined import MID_COST, combined_grid

CLASSIFIERS = ["a", "b", "c"]


def random_points(seed: int, *, datasets=("d1", "d2"), folds: int = 1) -> pd.DataFrame:
    """ROC points of three classifiers of different strength, with ties in their scores."""
    rng = np.random.default_rng(seed)
    parts = []
    for dataset in datasets:
        for strength, classifier in enumerate(CLASSIFIERS):
            for fold in range(folds):
                n = int(rng.integers(15, 60))
                label = rng.random(n) < rng.uniform(0.2, 0.8)
                score = np.round(rng.normal(size=n) + label * (0.3 + strength * 0.6), 1)
                parts.append(
                    pd.DataFrame(
                        {
                            "dataset": dataset,
                            "classifier": classifier,
                            "fold": fold,
                            "s": score,
                            "y": label,
                        }
                    )
                )
    data = pd.concat(parts, ignore_index=True)
    by = ["dataset", "classifier", *(["fold"] if folds > 1 else [])]
    return cc.roc_points(data, score="s", label="y", by=by)


def without_collinear(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A polyline's points with repeats and points in line with their neighbours dropped."""
    points = [(x[0], y[0])]
    for p in zip(x[1:], y[1:], strict=True):
        if np.hypot(p[0] - points[-1][0], p[1] - points[-1][1]) > 1e-12:
            points.append(p)
    kept = [points[0]]
    for middle, after in itertools.pairwise(points[1:]):
        before = kept[-1]
        cross = (middle[0] - before[0]) * (after[1] - before[1]) - (middle[1] - before[1]) * (
            after[0] - before[0]
        )
        if abs(cross) > 1e-12:
            kept.append(middle)
    if len(points) > 1:
        kept.append(points[-1])
    array = np.array(kept)
    return array[:, 0], array[:, 1]


def least_cost(rows: pd.DataFrame) -> pd.DataFrame:
    """What the page's aggregate computes: the least cost at each grid value."""
    return rows.groupby("pc", sort=True)["cost"].min().reset_index()


def winning_vertices(rows: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """What the page's argmin computes: each interval's winner, with (0, 0), in hull order."""
    winners = rows.loc[rows.groupby("pc", sort=True)[MID_COST].idxmin()]
    fpr = np.concatenate([[0.0], winners["fpr"].to_numpy()])
    tpr = np.concatenate([[0.0], winners["tpr"].to_numpy()])
    order = np.argsort(fpr + tpr, kind="stable")
    return fpr[order], tpr[order]


def union_of(points: pd.DataFrame, dataset: str, shown) -> pd.DataFrame:
    """The ROC points of the shown classifiers in one data set, as one curve."""
    chosen = points[(points.dataset == dataset) & points.classifier.isin(shown)]
    return chosen[["fpr", "tpr"]].reset_index(drop=True)


def subsets():
    return [s for k in (1, 2, 3) for s in itertools.combinations(CLASSIFIERS, k)]


@pytest.mark.parametrize("seed", range(6))
def test_the_least_cost_of_any_classifiers_is_the_envelope_of_their_points(seed):
    points = random_points(seed)
    grid = combined_grid(
        drawn_tables(points, color="classifier", facet="dataset"),
        color="classifier",
        facet="dataset",
    )
    assert list(grid.columns) == ["dataset", "classifier", "pc", "cost", MID_COST, "fpr", "tpr"]
    for dataset, shown in itertools.product(("d1", "d2"), subsets()):
        rows = grid[(grid.dataset == dataset) & grid.classifier.isin(shown)]
        drawn = least_cost(rows)
        pc, cost = without_collinear(drawn.pc.to_numpy(), drawn.cost.to_numpy())
        expected = cc.lower_envelope(union_of(points, dataset, shown))
        want_pc, want_cost = without_collinear(expected.pc.to_numpy(), expected.cost.to_numpy())
        assert len(pc) == len(want_pc), (dataset, shown)
        np.testing.assert_allclose(pc, want_pc, rtol=0, atol=1e-9)
        np.testing.assert_allclose(cost, want_cost, rtol=0, atol=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_the_winners_of_the_intervals_are_the_hull_of_the_classifiers_shown(seed):
    points = random_points(seed)
    grid = combined_grid(
        drawn_tables(points, color="classifier", facet="dataset"),
        color="classifier",
        facet="dataset",
    )
    for dataset, shown in itertools.product(("d1", "d2"), subsets()):
        fpr, tpr = without_collinear(
            *winning_vertices(grid[(grid.dataset == dataset) & grid.classifier.isin(shown)])
        )
        hull = cc.roc_hull(union_of(points, dataset, shown))
        want_fpr, want_tpr = without_collinear(hull.fpr.to_numpy(), hull.tpr.to_numpy())
        assert len(fpr) == len(want_fpr), (dataset, shown)
        np.testing.assert_allclose(fpr, want_fpr, rtol=0, atol=1e-9)
        np.testing.assert_allclose(tpr, want_tpr, rtol=0, atol=1e-9)


def test_every_grid_value_holds_every_curve_of_its_panel_once():
    points = random_points(3)
    grid = combined_grid(
        drawn_tables(points, color="classifier", facet="dataset"),
        color="classifier",
        facet="dataset",
    )
    counts = grid.groupby(["dataset", "pc"]).classifier.agg(["size", "nunique"])
    assert (counts["size"] == 3).all() and (counts["nunique"] == 3).all()
    for _, curve in grid.groupby(["dataset", "classifier"]):
        assert curve.pc.iloc[0] == 0 and curve.pc.iloc[-1] == 1
        assert np.all(np.diff(curve.pc.to_numpy()) > 0)


def test_a_classifiers_folds_are_one_curve_and_the_envelope_is_of_all_their_points():
    points = random_points(11, datasets=("d1",), folds=3)
    tables = drawn_tables(points, color="classifier")
    grid = combined_grid(tables, color="classifier", facet=None)
    assert list(grid.columns) == ["classifier", "pc", "cost", MID_COST, "fpr", "tpr"]
    # The legend picks a classifier's folds together: one curve per classifier is stored.
    assert (grid.groupby("pc").size() == 3).all()
    for shown in subsets():
        drawn = least_cost(grid[grid.classifier.isin(shown)])
        pc, cost = without_collinear(drawn.pc.to_numpy(), drawn.cost.to_numpy())
        expected = cc.lower_envelope(union_of(points, "d1", shown))
        want_pc, want_cost = without_collinear(expected.pc.to_numpy(), expected.cost.to_numpy())
        np.testing.assert_allclose(pc, want_pc, rtol=0, atol=1e-9)
        np.testing.assert_allclose(cost, want_cost, rtol=0, atol=1e-9)


def _combined_views(spec: dict, tag: str) -> list[dict]:
    """The views of the combined layer ``tag`` ("envelope" or "hull")."""
    tagged = {"calculate": json.dumps(tag), "as": "costchart_combined"}
    return [view for view in spec_views(spec) if tagged in view.get("transform", [])]


def test_the_cost_chart_filters_by_the_legend_and_takes_the_least_cost_per_panel():
    points = random_points(1)
    chart = cc.cost_chart(points, classifier="classifier", facet="dataset", combined=True, name="c")
    spec = chart.to_dict()
    (view,) = _combined_views(spec, "envelope")
    transforms = view["transform"]
    assert {"filter": {"param": "c_legend", "empty": True}} in transforms
    assert {
        "aggregate": [{"op": "min", "field": "cost", "as": "cost"}],
        "groupby": ["dataset", "pc"],
    } in transforms
    assert view["mark"]["strokeDash"] == [7, 4] and view["mark"]["clip"] is True
    assert "lower envelope of the classifiers shown" in json.dumps(spec)


def test_the_linked_chart_draws_the_hull_of_the_classifiers_shown_from_the_same_rows():
    points = random_points(2)
    chart = cc.roc_cost_chart(
        points, classifier="classifier", facet="dataset", combined=True, name="r"
    )
    spec = chart.to_dict()
    hulls = _combined_views(spec, "hull")
    envelopes = _combined_views(spec, "envelope")
    assert len(hulls) == 2 and len(envelopes) == 2  # one pair of views per data set
    for view in hulls:
        assert {"filter": {"param": "r_legend", "empty": True}} in view["transform"]
        assert {
            "aggregate": [{"op": "argmin", "field": MID_COST, "as": "costchart_winner"}],
            "groupby": ["dataset", "pc"],
        } in view["transform"]
    assert "ROC convex hull of the classifiers shown" in json.dumps(spec)
    # The rows are stored once, for both layers of both panels.
    tables = {t["filter"] for v in hulls + envelopes for t in v["transform"][:1]}
    assert len(tables) == 1


def test_combined_false_adds_nothing():
    points = random_points(4)
    for make in (cc.cost_chart, cc.roc_cost_chart):
        plain = make(points, classifier="classifier", facet="dataset").to_dict()
        same = make(points, classifier="classifier", facet="dataset", combined=False).to_dict()
        assert plain == same
        assert _combined_views(plain, "envelope") == []
        assert "classifiers shown" not in json.dumps(plain)


def _drawn_line(graph, y_max: float, size: int):
    """The combined layer's drawn points (the thick dashed line), in data units."""
    (mark,) = [
        m
        for m in data_marks(graph)
        if m.marktype == "line" and m.items and m.items[0].get("strokeDash") == [7, 4]
    ]
    x = np.array([item["x"] for item in mark.items]) / size
    y = (1 - np.array([item["y"] for item in mark.items]) / size) * y_max
    return x, y


@pytest.mark.parametrize("color", ["classifier", None])
def test_the_image_draws_the_envelope_of_every_curve(color):
    # A static image has no legend picks: the envelope of all the classifiers. Without
    # color=, of every curve in the panel.
    points = random_points(5, datasets=("d1",)).drop(columns="dataset")
    size, y_max = 300, 0.5
    chart = cc.cost_chart(points, classifier=color, by="classifier", combined=True, size=size)
    graph = scene(chart)
    pc, cost = _drawn_line(graph, y_max, size)
    expected = cc.lower_envelope(points[["fpr", "tpr"]])
    np.testing.assert_allclose(np.interp(pc, expected.pc, expected.cost), cost, atol=1e-9)
    assert np.all(np.min(np.abs(expected.pc.to_numpy()[:, None] - pc[None, :]), axis=1) < 1e-9)
    assert "lower envelope of the classifiers shown" in legend_labels(graph)


def test_without_the_hull_the_table_holds_only_the_costs():
    points = random_points(12)
    tables = drawn_tables(points, color="classifier", facet="dataset")
    full = combined_grid(tables, color="classifier", facet="dataset")
    costs = combined_grid(tables, color="classifier", facet="dataset", hull=False)
    pd.testing.assert_frame_equal(costs, full[["dataset", "classifier", "pc", "cost"]])


def test_one_classifier_draws_its_own_envelope():
    points = random_points(6, datasets=("d1",))
    one = points[points.classifier == "b"].drop(columns=["dataset", "classifier"])
    tables = drawn_tables(one)
    grid = combined_grid(tables, color=None, facet=None)
    expected = cc.lower_envelope(one)
    pd.testing.assert_series_equal(
        grid.cost.reset_index(drop=True), expected.cost.reset_index(drop=True), atol=1e-12
    )


def test_a_crowded_chart_with_the_envelope_of_the_classifiers_shown_renders(render):
    points = random_points(7, datasets=("d1",), folds=4).drop(columns="dataset")
    chart = cc.roc_cost_chart(points, classifier="classifier", combined=True, name="crowd")
    assert drawn_tables(points, color="classifier").crowded
    spec, _ = render(chart)
    assert len(_combined_views(spec, "envelope")) == 1
    assert len(_combined_views(spec, "hull")) == 1


def test_combined_must_be_a_flag():
    points = random_points(8, datasets=("d1",))
    with pytest.raises(cc.CostchartError, match=r"combined='yes' must be True or False"):
        cc.cost_chart(points, classifier="classifier", combined="yes")
    with pytest.raises(cc.CostchartError, match=r"combined=1 must be True or False"):
        cc.roc_cost_chart(points, classifier="classifier", combined=1)


def test_too_many_rows_are_refused_with_the_fix(monkeypatch):
    points = random_points(9, datasets=("d1",))
    rows = len(
        combined_grid(drawn_tables(points, color="classifier"), color="classifier", facet=None)
    )
    monkeypatch.setattr(combined_module, "MAX_COMBINED_ROWS", rows)
    cc.cost_chart(points, classifier="classifier", combined=True)  # at the limit: drawn
    monkeypatch.setattr(combined_module, "MAX_COMBINED_ROWS", rows - 1)
    with pytest.raises(
        cc.CostchartError, match=rf"combined=True needs more than {rows - 1:,} rows.*facet="
    ):
        cc.cost_chart(points, classifier="classifier", combined=True)
