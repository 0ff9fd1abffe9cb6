"""The table contract every transformer keeps: grouping columns first, then exactly the
documented columns; the input is never modified; groups are independent."""

import numpy as np
import pandas as pd
import pytest
from conftest import scored_data

import costchart as cc
from costchart import _schema

BY = ["model", "fold"]


def _points(rng):
    return cc.roc_points(scored_data(rng, folds=2), score="score", label="y", by=BY)


TRANSFORMERS = {
    "roc_points": (
        lambda d: cc.roc_points(d["data"], score="score", label="y", by=BY),
        _schema.ROC_COLUMNS,
    ),
    "roc_hull": (lambda d: cc.roc_hull(d["points"]), _schema.ROC_COLUMNS + _schema.HULL_COLUMNS),
    "to_cost_lines": (lambda d: cc.to_cost_lines(d["points"]), _schema.LINE_COLUMNS),
    "lower_envelope": (lambda d: cc.lower_envelope(d["points"]), _schema.ENVELOPE_COLUMNS),
    "lower_envelope(lines)": (
        lambda d: cc.lower_envelope(cc.to_cost_lines(d["points"])),
        _schema.ENVELOPE_COLUMNS,
    ),
    "selection_table": (lambda d: cc.selection_table(d["points"]), _schema.SELECTION_COLUMNS),
    "operating_range": (
        lambda d: cc.operating_range(d["points"]),
        ("threshold", "fpr", "tpr", "pc_lo", "pc_hi"),
    ),
    "operating_range(envelope)": (
        lambda d: cc.operating_range(d["points"], of="envelope"),
        ("pc_lo", "pc_hi"),
    ),
    "auc": (lambda d: cc.auc(d["points"]), ("auc",)),
    "expected_cost": (lambda d: cc.expected_cost(d["points"]), ("expected_cost",)),
    "cost_at": (lambda d: cc.cost_at(d["points"], [0.2, 0.7]), ("pc", "cost")),
}


@pytest.fixture
def inputs(rng):
    data = scored_data(rng, folds=2)
    return {"data": data, "points": cc.roc_points(data, score="score", label="y", by=BY)}


@pytest.mark.parametrize("name", TRANSFORMERS)
def test_columns_and_no_mutation(name, inputs):
    transform, columns = TRANSFORMERS[name]
    before = {key: value.copy() for key, value in inputs.items()}
    result = transform(inputs)
    assert list(result.columns) == [*BY, *columns]
    assert result.index.equals(pd.RangeIndex(len(result)))
    for key, value in inputs.items():
        pd.testing.assert_frame_equal(value, before[key])
    # Four groups, in order of first appearance.
    keys = result[BY].drop_duplicates()
    assert list(map(tuple, keys.to_numpy())) == [("a", 0), ("a", 1), ("b", 0), ("b", 1)]


@pytest.mark.parametrize("name", [n for n in TRANSFORMERS if n != "roc_points"])
def test_groups_are_independent(name, inputs):
    transform, _ = TRANSFORMERS[name]
    whole = transform(inputs)
    points = inputs["points"]
    one = points[(points.model == "b") & (points.fold == 1)].reset_index(drop=True)
    alone = transform({**inputs, "points": one})
    part = whole[(whole.model == "b") & (whole.fold == 1)].reset_index(drop=True)
    pd.testing.assert_frame_equal(part, alone)


@pytest.mark.parametrize("name", [n for n in TRANSFORMERS if n != "roc_points"])
def test_ungrouped_tables(name, inputs):
    transform, columns = TRANSFORMERS[name]
    points = inputs["points"]
    one = points[(points.model == "a") & (points.fold == 0)].drop(columns=BY)
    result = transform({**inputs, "points": one})
    assert list(result.columns) == list(columns)


@pytest.mark.parametrize("name", [n for n in TRANSFORMERS if n != "roc_points"])
def test_empty_table_keeps_columns(name, inputs):
    transform, columns = TRANSFORMERS[name]
    empty = inputs["points"].iloc[:0]
    result = transform({**inputs, "points": empty})
    assert len(result) == 0
    assert list(result.columns) == [*BY, *columns]


def test_one_class_group_in_the_middle_keeps_others_unchanged(rng):
    data = scored_data(rng, classifiers=("a", "b", "c"))
    data.loc[data.model == "b", "y"] = True
    with pytest.warns(cc.CostchartWarning, match="has no negatives"):
        points = cc.roc_points(data, score="score", label="y", by="model")
    assert points["model"].unique().tolist() == ["a", "c"]
    alone = cc.roc_points(data[data.model == "c"], score="score", label="y")
    np.testing.assert_array_equal(points.loc[points.model == "c", "tpr"], alone["tpr"])


def test_public_api_is_guarded():
    import types

    public = {
        name
        for name in dir(cc)
        if not name.startswith("_") and not isinstance(getattr(cc, name), types.ModuleType)
    }
    exported_modules = {"layers", "theme"}
    assert public == set(cc.__all__) - exported_modules
    assert all(isinstance(getattr(cc, name), types.ModuleType) for name in exported_modules)
    assert sorted(cc.__all__) == cc.__all__
