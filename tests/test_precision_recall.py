"""Precision-recall points, Davis-Goadrich interpolation, areas and the chart."""

import numpy as np
import pandas as pd
import pytest
from scenegraph import data_marks, legend_labels, scene
from sklearn.metrics import average_precision_score, precision_recall_curve

import costchart as cc


def _data(seed, n=300, ties=True):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + 1.2 * y
    return (np.round(s, 1) if ties else s), y


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ties", [True, False])
def test_points_equal_scikit_learn(seed, ties):
    s, y = _data(seed, ties=ties)
    points = cc.roc_points({"s": s, "y": y}, score="s", label="y")
    pr = cc.pr_points(points).set_index("threshold")
    precision, recall, thresholds = precision_recall_curve(y, s)
    np.testing.assert_allclose(pr.loc[thresholds, "precision"], precision[:-1], atol=1e-15)
    np.testing.assert_allclose(pr.loc[thresholds, "recall"], recall[:-1], atol=1e-15)
    areas = cc.pr_auc(points)
    assert areas["average_precision"].iat[0] == pytest.approx(
        average_precision_score(y, s), abs=1e-12
    )


def _interpolated_by_counts(tp_a, fp_a, tp_b, fp_b, positives):
    """Davis and Goadrich's construction, one true positive at a time."""
    recall, precision = [], []
    for x in range(1, int(tp_b - tp_a) + 1):
        tp = tp_a + x
        fp = fp_a + x * (fp_b - fp_a) / (tp_b - tp_a)
        recall.append(tp / positives)
        precision.append(tp / (tp + fp))
    return recall, precision


def test_interpolation_follows_davis_and_goadrich():
    # Two ROC points far apart: (TP 10, FP 5) and (TP 30, FP 45) of 40 positives.
    points = pd.DataFrame(
        {
            "threshold": [np.inf, 2.0, 1.0, -np.inf],
            "tp": [0, 10, 30, 40],
            "fp": [0, 5, 45, 60],
            "tn": [60, 55, 15, 0],
            "fn": [40, 30, 10, 0],
        }
    )
    points["tpr"], points["fpr"] = points["tp"] / 40, points["fp"] / 60
    curve = cc.pr_curve(points, steps=19)  # 20 intervals: one step per true positive
    segment = curve[(curve["recall"] > 10 / 40) & (curve["recall"] < 30 / 40)]
    recall, precision = _interpolated_by_counts(10, 5, 30, 45, 40)
    np.testing.assert_allclose(segment["recall"], recall[:-1], atol=1e-12)
    np.testing.assert_allclose(segment["precision"], precision[:-1], atol=1e-12)
    assert segment["interpolated"].all()
    # not a straight line in PR space: the middle lies below the chord
    chord = np.interp(0.5, [10 / 40, 30 / 40], [10 / 15, 30 / 75])
    middle = np.interp(0.5, segment["recall"], segment["precision"])
    assert middle < chord - 0.02


@pytest.mark.parametrize("seed", range(3))
def test_exact_area_equals_the_integral_of_a_dense_curve(seed):
    s, y = _data(seed, n=200)
    points = cc.roc_points({"s": s, "y": y}, score="s", label="y")
    dense = cc.pr_curve(points, steps=4000)
    numeric = np.trapezoid(dense["precision"], dense["recall"])
    assert cc.pr_auc(points)["pr_auc"].iat[0] == pytest.approx(numeric, abs=1e-7)


def test_hull_frontier_dominates_the_curve_and_groups_work():
    frames = []
    for k in range(2):
        s, y = _data(10 + k)
        frames.append(pd.DataFrame({"model": f"m{k}", "s": s, "y": y}))
    points = cc.roc_points(pd.concat(frames), score="s", label="y", by="model")
    curve = cc.pr_curve(points, by="model", steps=10)
    frontier = cc.pr_curve(cc.roc_hull(points, by="model"), by="model", steps=10)
    for model in ("m0", "m1"):
        own = curve[curve["model"] == model]
        best = frontier[frontier["model"] == model]
        # at every recall the frontier's best precision is at least the curve's
        top = best.groupby("recall")["precision"].max()
        reached = np.interp(own["recall"], top.index, top.to_numpy())
        assert (own["precision"].to_numpy() <= reached + 1e-9).all()
    assert list(cc.pr_auc(points, by="model")["model"]) == ["m0", "m1"]


def test_pr_chart_draws_curves_points_and_frontier():
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset == 'sonar'")
    points = cc.roc_points(data, score="score", label="label", by="classifier")
    graph = scene(cc.pr_chart(points, color="classifier"))
    lines = [m for m in data_marks(graph) if m.marktype == "line"]
    assert len(lines) >= 6  # a curve and a frontier per classifier
    labels = legend_labels(graph)
    assert {"logistic", "naive bayes", "tree"} <= set(labels)
    assert "ROC convex hull in PR space" in labels
    for mark in lines:
        for item in mark.items:
            for point in item.get("items", [item]):
                assert -1e-6 <= point.get("y", 0) <= 280 + 1e-6


def test_points_without_counts_are_refused():
    points = pd.DataFrame({"fpr": [0, 0.5, 1], "tpr": [0, 0.8, 1]})
    with pytest.raises(cc.CostchartError, match="precision needs the ROC points' tp and fp"):
        cc.pr_points(points)
