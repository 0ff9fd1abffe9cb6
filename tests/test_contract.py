"""The table contract every transformer keeps, checked for every public table function.

Grouping columns first, then exactly the documented columns (from ``_schema``), unique
column names, documented dtypes, a fresh RangeIndex; pandas, polars and pyarrow input (and
dicts of arrays where raw data is read) give the same answer; the input is never modified;
groups are independent; grouping columns may be named like costchart's own concepts
(``classifier``, ``fold``, ``role``, ...) as long as costchart does not reserve the name.
"""

import ast
import importlib
import types
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import scored_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import (
    FRAME_KINDS,
    PC_GRID,
    RAW_KINDS,
    Inputs,
    as_kind,
    assert_unchanged,
    check_table,
    group_keys,
    grouped_scores,
    grouping_names,
    snapshot,
)

import costchart as cc
from costchart._io import schema as _schema

SETTINGS = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


ISO_TABLE = _schema.ISO_TABLE
CHOICE_TABLE = _schema.CHOICE_TABLE
COMPARE_DIFFERENCE = _schema.COMPARE_DIFFERENCE_TABLE
COMPARE_BETTER = _schema.COMPARE_BETTER_TABLE
COMPARE_ADVANTAGE = _schema.COMPARE_ADVANTAGE_TABLE


def _first_group(table, by):
    """The rows of ``table``'s first group (all rows when ``by`` is empty), reindexed."""
    if not by:
        return table
    key = table[by].iloc[0]
    mask = np.logical_and.reduce([table[c] == key[c] for c in by])
    return table[mask].reset_index(drop=True)


def _thinned_body(result):
    """thin_points' table without its ``thinned`` column, written (bool) when it dropped points."""
    if _schema.THINNED in result.columns:
        assert result.columns[-1] == _schema.THINNED, list(result.columns)
        assert result[_schema.THINNED].dtype == bool and result[_schema.THINNED].any()
        return result.drop(columns=_schema.THINNED)
    return result


# name: (input, call(table, inputs), leading(inputs), columns(inputs), check options)
# ``input`` names an Inputs attribute; raw inputs are also tried as dicts of arrays.
FUNCTIONS = {
    "roc_points": (
        "raw",
        lambda t, i: cc.roc_points(t, score="score", label="y", by=i.by),
        lambda i: i.by,
        lambda i: _schema.ROC_COLUMNS,
        {},
    ),
    "pr_points(raw)": (
        "raw",
        lambda t, i: cc.pr_points(t, score="score", label="y", by=i.by),
        lambda i: i.by,
        lambda i: (*_schema.ROC_COLUMNS, "recall", "precision"),
        {},
    ),
    "from_confusion": (
        "counts",
        lambda t, i: cc.from_confusion(t, tp="TP", fn="FN", fp="FP", tn="TN", by=i.by),
        lambda i: i.by,
        lambda i: _schema.ROC_COLUMNS,
        {},
    ),
    "roc_hull": (
        "points",
        lambda t, i, **k: cc.roc_hull(t, **k),
        lambda i: i.by,
        lambda i: _schema.ROC_COLUMNS + _schema.HULL_COLUMNS,
        {},
    ),
    "to_cost_lines": (
        "points",
        lambda t, i, **k: cc.to_cost_lines(t, **k),
        lambda i: i.by,
        lambda i: _schema.LINE_COLUMNS,
        {},
    ),
    "lower_envelope(points)": (
        "points",
        lambda t, i, **k: cc.lower_envelope(t, **k),
        lambda i: i.by,
        lambda i: _schema.ENVELOPE_COLUMNS,
        {},
    ),
    "lower_envelope(lines)": (
        "lines",
        lambda t, i, **k: cc.lower_envelope(t, **k),
        lambda i: i.by,
        lambda i: _schema.ENVELOPE_COLUMNS,
        {},
    ),
    "envelope_gap": (
        "points",
        lambda t, i, **k: cc.envelope_gap(t, **k),
        lambda i: i.by,
        lambda i: (_schema.GAP, _schema.PC),
        {},
    ),
    "operating_range(of=lines)": (
        "points",
        lambda t, i, **k: cc.operating_range(t, **k),
        lambda i: i.by,
        lambda i: (_schema.THRESHOLD, _schema.FPR, _schema.TPR, _schema.PC_LO, _schema.PC_HI),
        {"nan_ok": (_schema.PC_LO, _schema.PC_HI)},
    ),
    "operating_range(of=envelope)": (
        "points",
        lambda t, i, **k: cc.operating_range(t, of="envelope", **k),
        lambda i: i.by,
        lambda i: (_schema.PC_LO, _schema.PC_HI),
        {"nan_ok": (_schema.PC_LO, _schema.PC_HI)},
    ),
    "selection_table(envelope)": (
        "envelope",
        lambda t, i, **k: cc.selection_table(t, **k),
        lambda i: i.by,
        lambda i: _schema.SELECTION_COLUMNS,
        {},
    ),
    "selection_table(points)": (
        "points",
        lambda t, i, **k: cc.selection_table(t, **k),
        lambda i: i.by,
        lambda i: _schema.SELECTION_COLUMNS,
        {},
    ),
    "cost_at": (
        "envelope",
        lambda t, i, **k: cc.cost_at(t, [0.0, 0.3, 1.0], **k),
        lambda i: i.by,
        lambda i: (_schema.PC, _schema.COST),
        {},
    ),
    "cost_at(points)": (
        "points",
        lambda t, i, **k: cc.cost_at(t, 0.4, **k),
        lambda i: i.by,
        lambda i: (_schema.THRESHOLD, _schema.TPR, _schema.FPR, _schema.PC, _schema.COST),
        {},
    ),
    "expected_cost": (
        "envelope",
        lambda t, i, **k: cc.expected_cost(t, **k),
        lambda i: i.by,
        lambda i: (_schema.EXPECTED_COST,),
        {},
    ),
    "expected_cost(points)": (
        "points",
        lambda t, i, **k: cc.expected_cost(t, **k),
        lambda i: i.by,
        lambda i: (_schema.THRESHOLD, _schema.TPR, _schema.FPR, _schema.EXPECTED_COST),
        {},
    ),
    "rate_driven_curve": (
        "points",
        lambda t, i, **k: cc.rate_driven_curve(t, **k),
        lambda i: i.by,
        lambda i: _schema.RATE_DRIVEN_TABLE,
        {},
    ),
    "expected_loss": (
        "raw",
        lambda t, i: cc.expected_loss(
            t,
            score="score",
            label="y",
            by=i.by,
            threshold_choice=["optimal", "rate_driven", "fixed"],
            threshold=0.5,
        ),
        lambda i: i.by,
        lambda i: _schema.EXPECTED_LOSS_TABLE,
        {"string_columns": _schema.EXPECTED_LOSS_TABLE[:1]},
    ),
    "expected_loss(points)": (
        "points",
        lambda t, i, **k: cc.expected_loss(t, threshold_choice=["optimal", "rate_driven"], **k),
        lambda i: i.by,
        lambda i: _schema.EXPECTED_LOSS_TABLE,
        {"string_columns": _schema.EXPECTED_LOSS_TABLE[:1]},
    ),
    "auc": (
        "points",
        lambda t, i, **k: cc.auc(t, **k),
        lambda i: i.by,
        lambda i: (_schema.AUC,),
        {},
    ),
    "vertical_average": (
        "envelope",
        lambda t, i, **k: cc.vertical_average(t, over=i.over, **k),
        lambda i: i.kept,
        lambda i: _schema.AVERAGE_TABLE,
        {"nan_ok": (_schema.COST_SD,)},
    ),
    "vertical_average(points)": (
        "points",
        lambda t, i, **k: cc.vertical_average(t, over=i.over, **k),
        lambda i: i.kept,
        lambda i: _schema.AVERAGE_TABLE,
        {"nan_ok": (_schema.COST_SD,)},
    ),
    "curve_points": (
        "average",
        lambda t, i, **k: cc.curve_points(t, **k),
        lambda i: i.kept,
        lambda i: (_schema.PC_LO, _schema.PC_HI, _schema.FPR, _schema.TPR),
        {},
    ),
    **{
        f"roc_average({method})": (
            "points",
            lambda t, i, method=method, **k: cc.roc_average(t, over=i.over, averaging=method, **k),
            lambda i: i.kept,
            lambda i: _schema.ROC_AVERAGE_TABLE,
            {"nan_ok": (_schema.FPR_SD, _schema.TPR_SD)},
        )
        for method in ("vertical", "horizontal", "by_threshold")
    },
    "cheapest_regions": (
        "points",
        lambda t, i, **k: cc.cheapest_regions(t, **k),
        lambda i: i.by,
        lambda i: _schema.CHEAPEST_TABLE,
        {"string_columns": (_schema.CHOICE,), "nan_ok": (_schema.THRESHOLD_2,)},
    ),
    "iso_performance(pc)": (
        "points",
        lambda t, i, **k: cc.iso_performance(t, pc=0.3, **k),
        lambda i: i.by,
        lambda i: ISO_TABLE,
        {"string_columns": ISO_TABLE[:1]},
    ),
    "iso_performance(range)": (
        "points",
        lambda t, i, **k: cc.iso_performance(t, slope_range=(0.5, 4.0), **k),
        lambda i: i.by,
        lambda i: ISO_TABLE,
        {"string_columns": ISO_TABLE[:1]},
    ),
    "neyman_pearson": (
        "points",
        lambda t, i, **k: cc.neyman_pearson(t, max_fpr=0.3, **k),
        lambda i: i.by,
        lambda i: CHOICE_TABLE,
        {"string_columns": CHOICE_TABLE[:1]},
    ),
    "workforce": (
        "points",
        lambda t, i, **k: cc.workforce(t, capacity=3, **k),
        lambda i: i.by,
        lambda i: CHOICE_TABLE,
        {"string_columns": CHOICE_TABLE[:1]},
    ),
    "apply_selection": (
        "raw",
        lambda t, i: cc.apply_selection(t, i.selection, score="score", label="y", by=i.by),
        lambda i: i.by,
        lambda i: _schema.ENVELOPE_COLUMNS,
        {},
    ),
    "bootstrap_band": (
        "raw",
        lambda t, i: cc.bootstrap_band(
            t, score="score", label="y", by=i.by, pc=PC_GRID, inference="exact_bootstrap"
        ),
        lambda i: i.by,
        lambda i: _schema.BAND_TABLE,
        {},
    ),
    "bootstrap_band(compact)": (
        "raw",
        lambda t, i: cc.bootstrap_band(
            t, score="score", label="y", by=i.by, inference="exact_bootstrap", compact=True
        ),
        lambda i: i.by,
        lambda i: _schema.BAND_TABLE,
        {},
    ),
    "bootstrap_band(compact normal fit)": (
        "raw",
        lambda t, i: cc.bootstrap_band(
            t,
            score="score",
            label="y",
            by=i.by,
            inference="exact_bootstrap",
            interval="normal",
            compact=True,
        ),
        lambda i: i.by,
        lambda i: _schema.BAND_TABLE,
        {},
    ),
    "bootstrap_band(smoothed resample)": (
        "raw",
        lambda t, i: cc.bootstrap_band(
            t, score="score", label="y", by=i.by, pc=PC_GRID, n_resamples=200, rng=0
        ),
        lambda i: i.by,
        lambda i: _schema.BAND_TABLE,
        {},
    ),
    "bootstrap_band(resample)": (
        "raw",
        lambda t, i: cc.bootstrap_band(
            t,
            score="score",
            label="y",
            by=i.by,
            pc=PC_GRID,
            inference="bootstrap",
            n_resamples=200,
            rng=0,
        ),
        lambda i: i.by,
        lambda i: _schema.BAND_TABLE,
        {},
    ),
    "bootstrap_band(threshold)": (
        "raw",
        lambda t, i: cc.bootstrap_band(
            t, score="score", label="y", by=i.by, pc=PC_GRID, threshold=1.0
        ),
        lambda i: i.by,
        lambda i: _schema.BAND_TABLE,
        {},
    ),
    "bootstrap_band(selection)": (
        "raw",
        lambda t, i: cc.bootstrap_band(
            t, score="score", label="y", by=i.by, pc=PC_GRID, selection=i.selection
        ),
        lambda i: i.by,
        lambda i: _schema.BAND_TABLE,
        {},
    ),
    "confusion_band": (
        "counts",
        lambda t, i: cc.confusion_band(t, tp="TP", fn="FN", fp="FP", tn="TN", by=i.by, pc=PC_GRID),
        lambda i: i.by,
        lambda i: _schema.BAND_TABLE,
        {},
    ),
    "confusion_band(envelope)": (
        "counts",
        lambda t, i: cc.confusion_band(
            t, tp="TP", fn="FN", fp="FP", tn="TN", by=i.by, pc=PC_GRID, of="envelope"
        ),
        lambda i: i.by,
        lambda i: _schema.BAND_TABLE,
        {},
    ),
    "difference_band": (
        "paired",
        lambda t, i: cc.difference_band(
            t,
            score="score",
            label="y",
            classifier=i.classifier_column,
            instance="instance",
            by=i.by,
            pc=PC_GRID,
        ),
        lambda i: i.by,
        lambda i: _schema.DIFFERENCE_TABLE,
        {},
    ),
    "cheapest_set(resample)": (
        "paired",
        lambda t, i: cc.cheapest_set(
            t,
            score="score",
            label="y",
            classifier=i.classifier_column,
            instance="instance",
            by=i.by,
            pc=PC_GRID,
            n_resamples=100,
            rng=0,
        ),
        lambda i: i.by,
        lambda i: (
            *_schema.CHEAPEST_SET_TABLE[:2],
            i.classifier_column,
            *_schema.CHEAPEST_SET_TABLE[2:],
        ),
        {"string_columns": tuple(grouping_names())},  # the classifier column's name
    ),
    "rociv": (
        "raw",
        lambda t, i: cc.rociv(t, score="score", label="y", amount="amount", by=i.by),
        lambda i: i.by,
        lambda i: _schema.ROCIV_TABLE,
        {},
    ),
    "auciv": (
        "raw",
        lambda t, i: cc.auciv(t, score="score", label="y", amount="amount", by=i.by),
        lambda i: i.by,
        lambda i: (_schema.AUC,),
        {},
    ),
    "rociv_condition": (
        "rociv",
        lambda t, i, **k: cc.rociv_condition(t, **k),
        lambda i: i.by,
        lambda i: (_schema.SLOPE, _schema.PC),
        {},
    ),
    "thin_points": (
        "points",
        lambda t, i, **k: _thinned_body(cc.thin_points(t, max_points=3, **k)),
        lambda i: i.by,
        lambda i: _schema.ROC_COLUMNS,
        {},
    ),
}

RAW_INPUTS = {"raw", "counts", "paired"}


def _grouping(inputs, name) -> list:
    """The grouping a converted table is read with: the averages' is besides ``over``."""
    over = [inputs.over] if isinstance(inputs.over, str) else list(inputs.over or [])
    if name.startswith(("vertical_average", "roc_average")):
        return [c for c in inputs.by if c not in over]
    if name.startswith("curve_points"):
        return [c for c in inputs.by if c not in over]
    return list(inputs.by)


def _call(name, table, inputs, **grouping):
    _, call, _, _, _ = FUNCTIONS[name]
    with warnings.catch_warnings():
        # One curve in a group (roc_average) warns; the warning is not what is tested here.
        warnings.simplefilter("ignore", cc.CostchartWarning)
        return call(table, inputs, **grouping)


@pytest.mark.slow
@pytest.mark.parametrize("name", FUNCTIONS)
@SETTINGS
@given(example=grouped_scores(), kind_index=st.integers(0, len(RAW_KINDS) - 1))
def test_table_contract(name, example, kind_index):
    data, by = example
    inputs = Inputs(data, by)
    source, _, leading, columns, options = FUNCTIONS[name]
    kinds = RAW_KINDS if source in RAW_INPUTS else FRAME_KINDS
    kind = kinds[kind_index % len(kinds)]
    frame = getattr(inputs, source)
    reference = _call(name, frame.copy(), inputs)
    check_table(
        reference, list(leading(inputs)), list(columns(inputs)), group_source=frame, **options
    )
    assert group_keys(reference, leading(inputs)) == group_keys(frame, leading(inputs))
    if kind == "pandas":
        table = frame.copy()
        before = snapshot(table)
        _call(name, table, inputs)
        assert_unchanged(table, before)
        return
    table = as_kind(frame, kind)
    before = snapshot(table)
    # A costchart table converted to another kind no longer carries its grouping: it is
    # said with by= (raw data is grouped by by= anyway).
    grouping = {} if source in RAW_INPUTS else {"by": _grouping(inputs, name)}
    result = _call(name, table, inputs, **grouping)
    assert_unchanged(table, before)
    check_table(result, list(leading(inputs)), list(columns(inputs)), **options)
    # The same answer whatever kind of frame held the input.
    assert group_keys(result, leading(inputs)) == group_keys(reference, leading(inputs))
    body = list(columns(inputs))
    pd.testing.assert_frame_equal(result[body], reference[body])


AVERAGES = ("vertical_average", "curve_points", "roc_average")


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    # Resampling draws every group from one generator, so a group's band depends on the
    # groups drawn before it: independent in distribution, not in value.
    [n for n in FUNCTIONS if not n.startswith(AVERAGES) and "resample" not in n],
)
@settings(SETTINGS, max_examples=8)
@given(example=grouped_scores(min_groups=2))
def test_groups_are_independent(name, example):
    """A group's rows are those the whole pipeline gives for that group's data alone."""
    data, by = example
    source = FUNCTIONS[name][0]
    inputs = Inputs(data, by)
    whole = _call(name, getattr(inputs, source), inputs)
    assert len(set(whole.columns)) == len(whole.columns), list(whole.columns)
    key = data[by].iloc[-1]
    alone_data = data[np.logical_and.reduce([data[c] == key[c] for c in by])]
    alone_inputs = Inputs(alone_data.reset_index(drop=True), by)
    alone = _call(name, getattr(alone_inputs, source), alone_inputs)
    part = whole[np.logical_and.reduce([whole[c] == key[c] for c in by])]
    pd.testing.assert_frame_equal(part.reset_index(drop=True), alone)


def test_apply_selection_takes_grouping_from_the_selection(rng):
    data = scored_data(rng, classifiers=("a", "b", "c")).rename(columns={"model": "classifier"})
    selection = cc.selection_table(cc.roc_points(data, score="score", label="y", by="classifier"))
    grouped = cc.apply_selection(data, selection, score="score", label="y", by="classifier")
    # Without by=, the data is grouped as the selection is: never pooled.
    implicit = cc.apply_selection(data, selection, score="score", label="y")
    pd.testing.assert_frame_equal(implicit, grouped)


def test_iso_performance_keeps_a_grouping_column_named_classifier(demo_points):
    if "classifier" in _schema.RESERVED:
        pytest.skip("classifier is reserved")
    table = cc.iso_performance(demo_points, pc=0.3)
    assert len(set(table.columns)) == len(table.columns), list(table.columns)
    assert list(table.columns) == ["dataset", "classifier", *ISO_TABLE]
    cc.layers.selected(table, space="roc").to_dict(validate=True)


@pytest.mark.parametrize("function", [cc.neyman_pearson, cc.workforce])
def test_choice_tables_can_be_passed_on(function, demo_points):
    """A table of chosen classifiers carries no column that becomes a grouping column."""
    option = {"max_fpr": 0.2} if function is cc.neyman_pearson else {"capacity": 50}
    chosen = function(demo_points, **option)
    lines = cc.to_cost_lines(chosen)
    assert list(lines.columns) == ["dataset", "classifier", *_schema.LINE_COLUMNS]


def test_performance_independent_tables(rng):
    classifiers = pd.DataFrame(
        {
            "dataset": ["x"] * 3 + ["y"] * 3,
            "trained": [0.2, 0.5, 0.8] * 2,
            "fpr": [0.05, 0.2, 0.5, 0.1, 0.3, 0.6],
            "tpr": [0.4, 0.7, 0.95, 0.5, 0.8, 0.9],
        }
    )
    before = classifiers.copy()
    result = cc.performance_independent(classifiers, trained_pc="trained")
    pd.testing.assert_frame_equal(classifiers, before)
    check_table(
        result.curve,
        ["dataset"],
        [_schema.PC, _schema.COST, "trained", _schema.FPR, _schema.TPR, "segment"],
        group_source=classifiers,
        int_columns=("segment",),
    )
    check_table(result.envelope, ["dataset"], _schema.ENVELOPE_COLUMNS, group_source=classifiers)
    assert result.extra_cost.columns[0] == "dataset"
    assert len(set(result.curve.columns)) == len(result.curve.columns)
    for table in (result.curve, result.envelope, result.extra_cost):
        assert table.index.equals(pd.RangeIndex(len(table)))
    assert (result.extra_cost.iloc[:, -1] >= -1e-12).all()


@pytest.mark.parametrize("kind", FRAME_KINDS)
def test_performance_independent_reads_every_frame_kind(kind):
    classifiers = pd.DataFrame(
        {
            "model": ["m"] * 3,
            "trained": [0.2, 0.5, 0.8],
            "fpr": [0.05, 0.2, 0.5],
            "tpr": [0.4, 0.7, 0.95],
        }
    )
    reference = cc.performance_independent(classifiers, trained_pc="trained")
    table = as_kind(classifiers, kind)
    before = snapshot(table)
    result = cc.performance_independent(table, trained_pc="trained")
    assert_unchanged(table, before)
    pd.testing.assert_frame_equal(result.curve, reference.curve)
    pd.testing.assert_frame_equal(result.envelope, reference.envelope)
    pd.testing.assert_frame_equal(result.extra_cost, reference.extra_cost)


@pytest.mark.parametrize("kind", FRAME_KINDS)
def test_compare_tables(kind, demo_points):
    a = demo_points[(demo_points.dataset == "credit") & (demo_points.classifier == "logistic")]
    b = demo_points[(demo_points.dataset == "credit") & (demo_points.classifier != "logistic")]
    b = b[b.classifier == b.classifier.iloc[0]]
    a = cc.lower_envelope(a.drop(columns=["dataset", "classifier"]).reset_index(drop=True))
    b = cc.lower_envelope(b.drop(columns=["dataset", "classifier"]).reset_index(drop=True))
    reference = cc.compare(a, b)
    ta, tb = as_kind(a, kind), as_kind(b, kind)
    before_a, before_b = snapshot(ta), snapshot(tb)
    result = cc.compare(ta, tb)
    assert_unchanged(ta, before_a)
    assert_unchanged(tb, before_b)
    for table, columns in (
        (result.difference, COMPARE_DIFFERENCE),
        (result.better, COMPARE_BETTER),
        (result.advantage, COMPARE_ADVANTAGE),
    ):
        strings = [c for c in columns if c in ("better", "name")]
        check_table(table, [], columns, string_columns=strings)
    pd.testing.assert_frame_equal(result.difference, reference.difference)
    pd.testing.assert_frame_equal(result.better, reference.better)
    assert result.expected_difference == reference.expected_difference
    assert isinstance(result.expected_difference, float)
    assert np.isfinite(result.expected_difference)


@pytest.mark.parametrize("kind", RAW_KINDS)
def test_costs_from_benefits(kind):
    frame = pd.DataFrame({"good": [1, 0, 1], "amount": [1000.0, 500.0, 10.0]})
    matrix = {("Y", "p"): lambda a: 0.1 * a, ("Y", "n"): lambda a: -a}
    table = as_kind(frame, kind)
    before = snapshot(table)
    costs = cc.costs_from_benefits(table, label="good", amount="amount", benefit=matrix)
    assert_unchanged(table, before)
    assert isinstance(costs, pd.Series)
    assert costs.name == _schema.COST
    assert costs.dtype == np.float64
    assert costs.tolist() == [100.0, 500.0, 1.0]


@pytest.mark.parametrize("kind", RAW_KINDS)
def test_precision_recall_contract(kind):
    points = cc.roc_points(
        {"s": [4, 3, 3, 1, 0.5], "y": [1, 0, 1, 0, 1], "g": ["a"] * 5}, score="s", label="y", by="g"
    )
    table = as_kind(points, kind)
    before = snapshot(table)
    pr = cc.pr_points(table, by="g")
    curve = cc.pr_curve(table, steps=2, by="g")
    areas = cc.pr_auc(table, by="g")
    assert_unchanged(table, before)
    assert list(pr.columns) == [*points.columns, "recall", "precision"]
    assert list(curve.columns) == ["g", "recall", "precision", "interpolated"]
    assert list(areas.columns) == ["g", "average_precision", "pr_auc"]
    assert curve["interpolated"].dtype == bool
    assert (
        ((curve[["recall", "precision"]] >= 0) & (curve[["recall", "precision"]] <= 1)).all().all()
    )


@pytest.mark.parametrize("kind", RAW_KINDS)
def test_auc_statistics_contract(kind):
    frame = pd.DataFrame(
        {
            "model": ["a"] * 6 + ["b"] * 6,
            "id": list(range(6)) * 2,
            "y": [1, 1, 1, 0, 0, 0] * 2,
            "s": [0.9, 0.8, 0.4, 0.5, 0.2, 0.1, 0.6, 0.3, 0.7, 0.8, 0.5, 0.2],
        }
    )
    table = as_kind(frame, kind)
    before = snapshot(table)
    ci = cc.auc_ci(table, score="s", label="y", by="model")
    test = cc.auc_test(table, score="s", label="y", classifier="model", instance="id")
    assert_unchanged(table, before)
    assert list(ci.columns) == ["model", "auc", "lower", "upper", "se"]
    assert ci["model"].tolist() == ["a", "b"]
    assert (ci[["auc", "lower", "upper", "se"]].dtypes == np.float64).all()
    assert list(test.columns) == ["auc_a", "auc_b", "difference", "se", "z", "p_value"]
    assert test["auc_a"].iat[0] == ci["auc"].iat[0] and test["auc_b"].iat[0] == ci["auc"].iat[1]


@pytest.mark.parametrize("kind", RAW_KINDS)
def test_h_measure_contract(kind):
    frame = pd.DataFrame(
        {
            "model": ["a"] * 6 + ["b"] * 6,
            "y": [1, 1, 1, 0, 0, 0] * 2,
            "s": [0.9, 0.8, 0.4, 0.5, 0.2, 0.1, 0.6, 0.3, 0.7, 0.8, 0.5, 0.2],
        }
    )
    table = as_kind(frame, kind)
    before = snapshot(table)
    result = cc.h_measure(table, score="s", label="y", by="model")
    assert_unchanged(table, before)
    assert list(result.columns) == ["model", "h_measure"]
    assert result["model"].tolist() == ["a", "b"]
    assert result["h_measure"].dtype == np.float64
    assert ((result["h_measure"] >= -1e-12) & (result["h_measure"] <= 1 + 1e-12)).all()


@pytest.mark.parametrize("kind", RAW_KINDS)
def test_resample_classes_contract(kind):
    frame = pd.DataFrame({"y": [1, 0, 1, 0, 0], "x": [0.1, 0.2, 0.3, 0.4, 0.5]})
    table = as_kind(frame, kind)
    before = snapshot(table)
    result = cc.resample_classes(table, label="y", ratios=[2, 0.5], rng=0)
    assert_unchanged(table, before)
    assert isinstance(result, pd.DataFrame)
    assert list(result.columns) == ["ratio", "source_row", "y", "x"]
    assert result["ratio"].dtype == np.float64
    assert result.groupby(["ratio", "y"]).size().to_dict() == {
        (0.5, 0): 6,
        (0.5, 1): 2,
        (2.0, 0): 3,
        (2.0, 1): 4,
    }


@SETTINGS
@given(example=grouped_scores(), pc=st.floats(0, 1))
def test_band_at(example, pc):
    data, _ = example
    band = cc.bootstrap_band(data, score="score", label="y", pc=PC_GRID, by=())  # pooled
    before = band.copy()
    row = cc.band_at(band, pc, confidence_level=0.9)
    pd.testing.assert_frame_equal(band, before)
    assert isinstance(row, cc.Band)
    values = [row.pc, row.cost, row.lower, row.upper, row.se, row.confidence_level]
    assert all(isinstance(v, float) and np.isfinite(v) for v in values)
    assert row.pc == PC_GRID[int(np.argmin(np.abs(np.array(PC_GRID) - pc)))]
    # Not lower <= cost: for a skewed discrete distribution the mean can lie outside the
    # band (e.g. both quantiles 0 while the mean is not).
    assert 0 <= row.lower <= row.upper


# -- fixed examples: ungrouped and empty tables ---------------------------------------------

BY = ["model", "fold"]


@pytest.fixture
def fixed_inputs(rng):
    data = scored_data(rng, folds=2)
    return Inputs(data.assign(amount=1.0, instance=data.groupby(BY).cumcount()), BY)


TABLE_FUNCTIONS = [n for n, spec in FUNCTIONS.items() if spec[0] not in RAW_INPUTS]


# Averages need a grouping column to average over: they have no ungrouped table.
@pytest.mark.parametrize("name", [n for n in TABLE_FUNCTIONS if not n.startswith(AVERAGES)])
def test_ungrouped_tables(name, fixed_inputs):
    source, _, leading, columns, options = FUNCTIONS[name]
    assert leading(fixed_inputs) == fixed_inputs.by  # grouped by by= alone, not an average
    frame = getattr(fixed_inputs, source)
    one = _first_group(frame, BY).drop(columns=BY)
    result = _call(name, one, fixed_inputs)
    check_table(result, [], list(columns(fixed_inputs)), **options)


#: Functions that refuse an empty table, and what they say. Every other table function
#: returns an empty table with its documented columns: an average or a condition of no
#: curve has no answer, an empty hull or envelope is the empty answer.
EMPTY_REFUSED = {
    "vertical_average": "curves has no rows; pass at least one curve",
    "vertical_average(points)": "curves has no rows; pass at least one curve",
    "curve_points": r"curve has no rows; pass a cost curve \(pc, cost\)",
    "roc_average(vertical)": "points has no rows; pass at least one curve",
    "roc_average(horizontal)": "points has no rows; pass at least one curve",
    "roc_average(by_threshold)": "points has no rows; pass at least one curve",
    "rociv_condition": "points has no rows; pass a table from rociv",
}


def test_the_empty_table_refusals_are_table_functions():
    assert set(EMPTY_REFUSED) <= set(TABLE_FUNCTIONS)


@pytest.mark.parametrize("name", sorted(set(TABLE_FUNCTIONS) - set(EMPTY_REFUSED)))
def test_empty_table_keeps_columns(name, fixed_inputs):
    source, _, leading, columns, _ = FUNCTIONS[name]
    empty = getattr(fixed_inputs, source).iloc[:0]
    result = _call(name, empty, fixed_inputs)
    assert len(result) == 0, result
    assert list(result.columns) == [*leading(fixed_inputs), *columns(fixed_inputs)]


@pytest.mark.parametrize("name", sorted(EMPTY_REFUSED))
def test_empty_table_is_refused(name, fixed_inputs):
    source = FUNCTIONS[name][0]
    empty = getattr(fixed_inputs, source).iloc[:0]
    with pytest.raises(cc.CostchartError, match=EMPTY_REFUSED[name]):
        _call(name, empty, fixed_inputs)


def test_one_class_group_in_the_middle_keeps_others_unchanged(rng):
    data = scored_data(rng, classifiers=("a", "b", "c"))
    data.loc[data.model == "b", "y"] = True
    with pytest.warns(cc.CostchartWarning, match="has no negatives"):
        points = cc.roc_points(data, score="score", label="y", by="model")
    assert points["model"].unique().tolist() == ["a", "c"]
    alone = cc.roc_points(data[data.model == "c"], score="score", label="y")
    np.testing.assert_array_equal(points.loc[points.model == "c", "tpr"], alone["tpr"])


def test_every_table_function_is_covered():
    """Each public function that returns a table (or table results) is in FUNCTIONS."""
    covered = {name.split("(")[0] for name in FUNCTIONS}
    covered |= {"compare", "performance_independent", "band_at", "costs_from_benefits"}
    covered |= {"resample_classes"}  # test_resample_classes_contract below
    covered |= {"auc_ci", "auc_test"}  # test_auc_statistics_contract below
    covered |= {"h_measure"}  # test_h_measure_contract below
    covered |= {"chart_tables"}  # a chart in: tests/test_charts_draw_public_tables.py
    covered |= {"pr_points", "pr_curve", "pr_auc"}  # test_precision_recall_contract below
    # They take scikit-learn estimators; tests/test_estimators.py covers them.
    covered |= {"predictions", "from_cv_results", "threshold_classifier", "expected_cost_scorer"}
    charts = {"band_chart", "cost_chart", "difference_chart", "roc_chart", "roc_cost_chart"}
    charts |= {"pr_chart", "decision_curve_chart", "threshold_choice_chart", "cheapest_set_chart"}
    covered |= {"net_benefit", "brier_curve"}  # their own tests and the fuzz suite
    charts |= {
        "average_chart",
        "band_label",
        "explorer",
        "palette",
    }  # charts and what they are drawn with
    covered |= {"significant_regions"}  # tested against brute force in test_regions
    # Simulations of binormal test sets, not table transformers: tested against direct runs
    # in test_binormal.
    covered |= {"band_coverage", "difference_coverage", "coverage_grid", "coverage_chart"}
    scalar = {n for n in cc.__all__ if "_from_" in n or "_to_" in n} - {"to_cost_lines"}
    other = {"report", "save", "markdown", "enable_offline", "layers", "theme"}
    functions = {
        n
        for n in cc.__all__
        if isinstance(getattr(cc, n), types.FunctionType) or n in ("layers", "theme")
    }
    assert functions - covered - charts - scalar - other == set()


def test_public_api_is_guarded():
    """``__all__`` is the API, and the lazy loader serves exactly it.

    ``dir(costchart)`` is built from ``__all__``, so comparing the two proves nothing; this
    checks what a user can reach instead. (``tests/test_docs.py`` checks that docs/api.rst
    lists every name.)
    """
    errors = {"CostchartError", "CostchartWarning"}  # imported eagerly, from _errors
    exported_modules = {"layers", "theme"}
    assert sorted(cc.__all__) == cc.__all__
    assert len(set(cc.__all__)) == len(cc.__all__)
    # Each name of __all__ has a home, and nothing has a home without being in __all__.
    assert set(cc.__all__) - errors - exported_modules == set(cc._HOMES)
    assert exported_modules <= set(cc._SUBMODULES)
    for name, home in cc._HOMES.items():
        module = importlib.import_module(home)
        assert name in getattr(module, "__all__", ()), f"{home} does not export {name}"
        assert getattr(cc, name) is getattr(module, name), name
    for name in exported_modules:
        assert getattr(cc, name) is importlib.import_module(f"costchart.{name}")
    for name in errors:
        assert issubclass(getattr(cc, name), Exception)
    # All of it loaded: the package holds no public function or class beyond __all__.
    public = {n for n, v in vars(cc).items() if not n.startswith("_") and callable(v)}
    assert public <= set(cc.__all__), sorted(public - set(cc.__all__))
    # A name outside __all__ is not served, even one a costchart module defines.
    for name in ("read_table", "unique_name", "RESPONSE_METHODS"):
        assert not hasattr(cc, name), name
    # Type checkers see the objects users get: each import under ``if TYPE_CHECKING:``.
    tree = ast.parse(Path(cc.__file__).read_text(encoding="utf-8"))
    block = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING"
    )
    typed = set()
    for node in block.body:
        assert isinstance(node, ast.ImportFrom), ast.dump(node)
        module = importlib.import_module(node.module)
        for alias in node.names:
            name = alias.asname or alias.name
            typed.add(name)
            assert getattr(module, alias.name) is getattr(cc, name), name
    assert typed == set(cc.__all__) - errors


def _written_columns_cases():
    """Each public function with ``by=`` that writes a table: a call grouping by ``name``."""
    rng = np.random.default_rng(0)
    raw = pd.DataFrame(
        {
            "g": ["a"] * 20 + ["b"] * 20,
            "id": list(range(20)) * 2,
            "y": list(rng.integers(0, 2, 20)) * 2,
            "s": rng.random(40),
            "amt": rng.random(40) + 1,
        }
    )

    def data(name):
        return raw.rename(columns={"g": name})

    def points(name):
        return cc.roc_points(data(name), score="s", label="y", by=name)

    def envelope(name):
        return cc.lower_envelope(points(name), by=name)

    def regions(name):
        band = cc.difference_band(
            raw, score="s", label="y", classifier="g", instance="id", n_resamples=20, rng=0
        )
        return cc.significant_regions(band.assign(**{name: "x"}), by=name)

    raw_kw = {"score": "s", "label": "y"}
    return {
        "roc_points": lambda n: points(n),
        "auc_ci": lambda n: cc.auc_ci(data(n), **raw_kw, by=n, direction="auto"),
        "h_measure": lambda n: cc.h_measure(data(n), **raw_kw, by=n),
        "bootstrap_band": lambda n: cc.bootstrap_band(
            data(n), **raw_kw, by=n, n_resamples=200, pc=[0.5], rng=0
        ),
        "brier_curve": lambda n: cc.brier_curve(data(n), **raw_kw, by=n),
        "net_benefit": lambda n: cc.net_benefit(data(n), **raw_kw, by=n, thresholds=[0.5]),
        "expected_loss": lambda n: cc.expected_loss(data(n), **raw_kw, by=n),
        "rociv": lambda n: cc.rociv(data(n), **raw_kw, amount="amt", by=n),
        "auciv": lambda n: cc.auciv(data(n), **raw_kw, amount="amt", by=n),
        "rociv_condition": lambda n: cc.rociv_condition(
            cc.rociv(data(n), **raw_kw, amount="amt", by=n), by=n
        ),
        "auc": lambda n: cc.auc(points(n), by=n),
        "roc_hull": lambda n: cc.roc_hull(points(n), by=n),
        "to_cost_lines": lambda n: cc.to_cost_lines(points(n), by=n),
        "lower_envelope": envelope,
        "envelope_gap": lambda n: cc.envelope_gap(points(n), by=n),
        "rate_driven_curve": lambda n: cc.rate_driven_curve(points(n), by=n),
        "selection_table": lambda n: cc.selection_table(envelope(n), by=n),
        "operating_range": lambda n: cc.operating_range(points(n), by=n),
        "pr_points": lambda n: cc.pr_points(points(n), by=n),
        "pr_curve": lambda n: cc.pr_curve(points(n), by=n),
        "pr_auc": lambda n: cc.pr_auc(points(n), by=n),
        "thin_points": lambda n: cc.thin_points(points(n), by=n, max_points=5),
        "neyman_pearson": lambda n: cc.neyman_pearson(points(n), by=n, max_fpr=0.3),
        "workforce": lambda n: cc.workforce(points(n), by=n, capacity=0.3),
        "iso_performance": lambda n: cc.iso_performance(points(n), by=n, pc=0.3),
        "cheapest_regions": lambda n: cc.cheapest_regions(points(n), by=n),
        # The classifier column (model) is the user's, not a column cheapest_set names.
        "cheapest_set": lambda n: cc.cheapest_set(
            raw.rename(columns={"g": "model"}).assign(**{n: "x"}),
            score="s",
            label="y",
            classifier="model",
            instance="id",
            by=n,
            n_resamples=100,
            pc=[0.5],
            rng=0,
        ).drop(columns="model"),
        "expected_cost": lambda n: cc.expected_cost(envelope(n), by=n),
        "curve_points": lambda n: cc.curve_points(envelope(n), by=n),
        "cost_at": lambda n: cc.cost_at(envelope(n), pc=[0.3], by=n),
        "significant_regions": regions,
    }


WRITTEN_COLUMNS_CASES = _written_columns_cases()


@pytest.mark.parametrize("name", sorted(WRITTEN_COLUMNS_CASES))
def test_a_grouping_column_named_like_a_written_column_is_refused(name):
    """Issue 31 item 5: ``by=`` naming a column the function writes is refused, naming it."""
    call = WRITTEN_COLUMNS_CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        written = [c for c in call("g").columns if c != "g"]
        assert written
        for column in written:
            assert column in _schema.RESERVED, (name, column)
            with pytest.raises(cc.CostchartError, match=f"includes '{column}', a column name"):
                call(column)


def test_every_function_with_by_is_in_the_written_columns_cases():
    import inspect

    charts = {n for n in cc.__all__ if n.endswith("_chart")} | {"explorer"}
    # apply_selection, confusion_band, from_confusion, difference_band, vertical_average,
    # roc_average, performance_independent, auc_test: by= through roc_points or FUNCTIONS'
    # grouped cases (their tables keep the grouping through check_by_names).
    elsewhere = {"apply_selection", "confusion_band", "from_confusion", "difference_band"}
    elsewhere |= {"vertical_average", "roc_average", "performance_independent", "auc_test"}
    with_by = {
        n
        for n in cc.__all__
        if isinstance(getattr(cc, n), types.FunctionType)
        and "by" in inspect.signature(getattr(cc, n)).parameters
    }
    assert with_by - charts - elsewhere == set(WRITTEN_COLUMNS_CASES)
