"""Precision-recall points, Davis-Goadrich interpolation, areas and the chart."""

import re
import warnings
from functools import partial

import numpy as np
import pandas as pd
import pytest
from scenegraph import data_marks, legend_labels, scene
from sklearn.metrics import average_precision_score, precision_recall_curve
from strategies import GROUP_KEY_KINDS, compare_tables, many_groups, same_warnings

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
    graph = scene(cc.pr_chart(points, classifier="classifier"))
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


# The per-group loops pr_points, pr_curve and pr_auc were before they computed all
# groups in shared passes, kept as the reference the shared passes must equal.


def _counts_of_group(table, by, group, name):
    from costchart._io import schema as col
    from costchart._io.frames import describe_group

    missing = [c for c in (col.TP, col.FP, col.TN, col.FN) if c not in table.columns]
    if missing:
        msg = (
            f"{name} has no counts ({missing}); precision needs the ROC points' tp and fp, "
            "as roc_points and from_confusion give them"
        )
        raise cc.CostchartError(msg)
    positions = group.positions
    tp = table[col.TP].to_numpy(np.float64)[positions]
    fp = table[col.FP].to_numpy(np.float64)[positions]
    order = np.lexsort((tp, fp))
    positives = float((table[col.TP] + table[col.FN]).to_numpy(np.float64)[positions][0])
    if positives <= 0:
        where = f" of group {describe_group(by, group.key)}" if by else ""
        msg = f"the points{where} have no positives; recall is not defined"
        raise cc.CostchartError(msg)
    return positions[order], tp[order], fp[order], positives


def _precision_of(tp, fp):
    predicted = tp + fp
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(predicted > 0, tp / np.where(predicted > 0, predicted, 1), 1.0)


def _pr_points_group_by_group(points, by=None):
    from costchart._io import schema as col
    from costchart._io.frames import carry_grouping
    from costchart._io.tables import points_groups

    table, by, groups = points_groups(points, by, cloud=True)  # point by point: a set
    result = table[[*by, *(c for c in col.ROC_COLUMNS if c in table.columns)]].copy()
    precision = np.full(len(table), np.nan)
    for group in groups:
        positions, tp, fp, _ = _counts_of_group(table, by, group, "points")
        precision[positions] = _precision_of(tp, fp)
    result["recall"] = table[col.TPR].to_numpy(np.float64)
    result["precision"] = precision
    return carry_grouping(result.reset_index(drop=True), by)


def _pr_curve_group_by_group(points, by=None, steps=20):
    from costchart._io.groups import combine_groups
    from costchart._io.tables import points_groups

    table, by, groups = points_groups(points, by)
    parts = []
    inner = np.arange(1, steps + 1) / (steps + 1)
    for group in groups:
        _, tp, fp, positives = _counts_of_group(table, by, group, "points")
        start_tp, end_tp = tp[:-1], tp[1:]
        start_fp, end_fp = fp[:-1], fp[1:]
        share = np.concatenate([[0.0], inner])
        path_tp = start_tp[:, None] + share[None, :] * (end_tp - start_tp)[:, None]
        path_fp = start_fp[:, None] + share[None, :] * (end_fp - start_fp)[:, None]
        path_tp = np.append(path_tp.ravel(), tp[-1])
        path_fp = np.append(path_fp.ravel(), fp[-1])
        interpolated = np.append(np.tile(share > 0, len(start_tp)), False)
        parts.append(
            pd.DataFrame(
                {
                    "recall": path_tp / positives,
                    "precision": _precision_of(path_tp, path_fp),
                    "interpolated": interpolated,
                }
            )
        )
    curve = combine_groups(table, by, groups, parts, ["recall", "precision", "interpolated"])
    curve["interpolated"] = curve["interpolated"].astype(bool)
    return curve


def _segment_areas_of_group(tp, fp, positives):
    d_tp, d_fp = np.diff(tp), np.diff(fp)
    area = np.zeros(len(d_tp))
    rising = d_tp > 0
    a_tp, a_fp = tp[:-1][rising], fp[:-1][rising]
    s = d_fp[rising] / d_tp[rising]
    c = a_fp - s * a_tp
    b_tp = tp[1:][rising]
    k = 1 + s

    def primitive(t):
        with np.errstate(divide="ignore", invalid="ignore"):
            log = np.where(c != 0, np.log(np.where(k * t + c > 0, k * t + c, 1.0)), 0.0)
        return t / k - c / k**2 * log

    from_origin = (a_tp == 0) & (a_fp == 0)
    value = np.where(
        from_origin, (b_tp - a_tp) / k, primitive(b_tp) - primitive(np.maximum(a_tp, 0))
    )
    area[rising] = value / positives
    return area


def _pr_auc_group_by_group(points, by=None):
    from costchart._io.groups import combine_groups
    from costchart._io.tables import points_groups

    table, by, groups = points_groups(points, by)
    parts = []
    for group in groups:
        _, tp, fp, positives = _counts_of_group(table, by, group, "points")
        recall = tp / positives
        precision = _precision_of(tp, fp)
        average = float(np.sum(np.diff(recall) * precision[1:]))
        area = float(np.sum(_segment_areas_of_group(tp, fp, positives)))
        parts.append(pd.DataFrame({"average_precision": [average], "pr_auc": [area]}))
    return combine_groups(table, by, groups, parts, ["average_precision", "pr_auc"])


def _mixed_points(seed, key):
    """ROC points of many groups, some rows dropped (groups of 1 point) and rows mixed."""
    data, by = many_groups(seed, key, groups=60, max_rows=40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cc.CostchartWarning)  # one-class groups left out
        points = cc.roc_points(data, score="s", label="y", by=by)
    rng = np.random.default_rng(seed)
    kept = points[rng.random(len(points)) < 0.6]
    number = kept.groupby(by, dropna=False, observed=True, sort=False).ngroup().to_numpy()
    later = pd.Series(number).groupby(number).cumcount().to_numpy() > 0
    kept = kept[~((number % 10 == 3) & later)]  # groups of one point
    if seed:  # rows mixed (seed 0: in roc_points' order, each group's points sorted)
        kept = kept.iloc[rng.permutation(len(kept))]
    if seed == 1:  # points of crisp classifiers, no curve: along fp, tp falls and rises
        negatives = (kept["fp"] + kept["tn"]).to_numpy()
        kept = kept.assign(fp=rng.integers(0, negatives + 1))
        kept = kept.assign(tn=negatives - kept["fp"], fpr=kept["fp"] / negatives)
    if seed % 2:  # counts as other integer dtypes
        kept = kept.astype({"tp": np.uint32, "fp": np.int32})
    return kept, by


@pytest.mark.parametrize("key", GROUP_KEY_KINDS)
@pytest.mark.parametrize("seed", range(3))
def test_all_groups_at_once_equal_each_group_alone(seed, key):
    points, by = _mixed_points(seed, key)
    assert (points.groupby(by, dropna=False, observed=True).size() == 1).any()
    for p in (points, points.iloc[:0]):  # and no rows at all
        pairs = [
            (partial(cc.pr_points, p, by=by), partial(_pr_points_group_by_group, p, by), 0.0),
        ]
        if seed == 1 and len(p):  # crisp classifiers: no curve, so no area or curve
            for function in (cc.pr_auc, cc.pr_curve):
                with pytest.raises(cc.CostchartError, match="not one ROC curve per group"):
                    function(p, by=by)
            continue
        pairs.append((partial(cc.pr_auc, p, by=by), partial(_pr_auc_group_by_group, p, by), 1e-12))
        for steps in (0, 3):
            fast = partial(cc.pr_curve, p, by=by, steps=steps)
            pairs.append((fast, partial(_pr_curve_group_by_group, p, by, steps), 0.0))
        for fast, slow, rtol in pairs:
            compare_tables(*same_warnings(fast, slow), rtol=rtol)


def test_one_group_and_polars_input_equal_the_loop():
    pl = pytest.importorskip("polars")
    points, by = _mixed_points(5, "int")
    for function in (cc.pr_points, cc.pr_curve, cc.pr_auc):  # the groups' curves as one
        with pytest.raises(cc.CostchartError, match=r"threshold inf has two rows"):
            function(points.drop(columns=by))
    one = points[points[by[0]] == points[by[0]].iloc[0]].drop(columns=by)
    for p, grouping in (
        (points, by),
        (pl.from_pandas(points), by),
        (one, None),
    ):
        compare_tables(cc.pr_points(p, by=grouping), _pr_points_group_by_group(p, grouping))
        compare_tables(cc.pr_curve(p, by=grouping), _pr_curve_group_by_group(p, grouping))
        compare_tables(cc.pr_auc(p, by=grouping), _pr_auc_group_by_group(p, grouping), rtol=1e-12)


@pytest.mark.parametrize("function", ["pr_points", "pr_curve", "pr_auc"])
def test_the_first_group_without_positives_is_named_as_before(function):
    points, by = _mixed_points(2, "str")
    keys = points["g"].drop_duplicates()
    for key in (keys.iloc[3], keys.iloc[7]):
        points.loc[points["g"] == key, ["tp", "fn"]] = 0
    reference = {
        "pr_points": _pr_points_group_by_group,
        "pr_curve": _pr_curve_group_by_group,
        "pr_auc": _pr_auc_group_by_group,
    }[function]
    with pytest.raises(cc.CostchartError) as expected:
        reference(points, by)
    assert f"{keys.iloc[3]!r}" in str(expected.value)
    with pytest.raises(cc.CostchartError, match=re.escape(str(expected.value))):
        getattr(cc, function)(points, by=by)
    counts = points.drop(columns=["tp", "fp", "tn", "fn"])
    with pytest.raises(cc.CostchartError, match="precision needs the ROC points' tp and fp"):
        getattr(cc, function)(counts, by=by)
    assert len(getattr(cc, function)(counts.iloc[:0], by=by)) == 0


RAW_CASES = {
    "distinct": ({}, {}),
    "rounded": ({"ties": True}, {}),
    "weighted": ({}, {"weight": "w"}),
    "grouped": ({}, {"by": "g"}),
    "grouped, weighted": ({}, {"by": ["g"], "weight": "w"}),
    "string labels": ({"labels": "text"}, {"pos_label": "yes"}),
    "pooled on purpose": ({}, {"by": ()}),
}


@pytest.mark.parametrize("case", list(RAW_CASES))
@pytest.mark.parametrize("kind", ["pandas", "dict", "polars"])
def test_raw_data_give_the_table_of_its_roc_points(case, kind):
    how, options = RAW_CASES[case]
    s, y = _data(7, n=400, ties=how.get("ties", False))
    rng = np.random.default_rng(7)
    labels = np.where(y, "yes", "no") if how.get("labels") == "text" else y
    frame = pd.DataFrame({"s": s, "y": labels, "w": rng.random(400), "g": rng.integers(0, 3, 400)})
    data = {
        "pandas": frame,
        "dict": {c: frame[c].to_numpy() for c in frame},
        "polars": pytest.importorskip("polars").from_pandas(frame),
    }[kind]
    direct = cc.pr_points(data, score="s", label="y", **options)
    via = cc.pr_points(cc.roc_points(data, score="s", label="y", **options))
    pd.testing.assert_frame_equal(direct, via, check_exact=True)
    assert direct.attrs == via.attrs
    assert not direct.empty and direct["precision"].between(0, 1).all()
    # The recall column is its own: writing to it leaves the tpr column as it was.
    tpr = direct["tpr"].to_numpy(copy=True)
    direct.loc[0, "recall"] = 0.5
    np.testing.assert_array_equal(direct["tpr"], tpr)


def test_raw_data_equal_scikit_learn():
    s, y = _data(3, n=1000, ties=False)
    pr = cc.pr_points({"s": s, "y": y}, score="s", label="y").iloc[:0:-1]
    precision, recall, thresholds = precision_recall_curve(y, s)
    np.testing.assert_array_equal(pr["threshold"], thresholds)
    np.testing.assert_array_equal(pr["precision"], precision[:-1])
    np.testing.assert_array_equal(pr["recall"], recall[:-1])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"score": "s"}, "score= is given but label= is not"),
        ({"label": "y"}, "label= is given but score= is not"),
        ({"pos_label": 1}, "pos_label=1 applies to raw data"),
        ({"weight": "w"}, "weight='w' applies to raw data"),
    ],
)
def test_raw_data_options_are_both_or_neither(options, message):
    points = cc.roc_points({"s": [3, 2, 1], "y": [1, 0, 1]}, score="s", label="y")
    with pytest.raises(cc.CostchartError, match=re.escape(message)):
        cc.pr_points(points, **options)


def test_the_old_name_of_the_table_still_works_with_a_warning():
    points = cc.roc_points({"s": [3, 2, 1], "y": [1, 0, 1]}, score="s", label="y")
    with pytest.warns(FutureWarning, match=r"pr_points\(points=\.\.\.\) is deprecated"):
        old = cc.pr_points(points=points)
    pd.testing.assert_frame_equal(old, cc.pr_points(points))


def test_a_group_of_one_point_warns_nothing_from_numpy():
    # Group "a" keeps only its point at threshold inf, next to "b"'s: the check that each
    # group's thresholds fall compared inf with inf by subtracting (a numpy RuntimeWarning).
    points = cc.roc_points(
        {"s": [0.9, 0.1, 0.8, 0.2, 0.5], "y": [1, 0, 1, 0, 0], "g": list("aabbb")},
        score="s",
        label="y",
        by="g",
    )
    kept = points[(points["g"] == "b") | (points["threshold"] == np.inf)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        area = cc.pr_auc(kept, by="g")
    assert area["g"].tolist() == ["a", "b"]
    assert area["pr_auc"].tolist() == [0.0, 1.0]
