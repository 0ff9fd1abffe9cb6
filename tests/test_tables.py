"""Reading costchart's own tables back: one reader for every input type, checked values."""

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import costchart as cc
from costchart._io import schema as _schema
from costchart._io.frames import carry_grouping
from costchart._io.tables import read_selection, read_table

POINTS = cc.roc_points(
    {
        "model": ["a"] * 6 + ["b"] * 6,
        "s": [6, 5, 4, 3, 2, 1] * 2,
        "y": [1, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0],
    },
    score="s",
    label="y",
    by="model",
)
ENVELOPE = cc.lower_envelope(POINTS)
ONE = POINTS[POINTS.model == "a"].drop(columns="model").reset_index(drop=True)


def _polars(frame):
    return pl.from_pandas(frame.reset_index(drop=True))


def _arrow(frame):
    return pa.Table.from_pandas(frame.reset_index(drop=True), preserve_index=False)


def _dict(frame):
    return {c: frame[c].to_numpy() for c in frame.columns}


CONVERSIONS = {"polars": _polars, "pyarrow": _arrow, "dict": _dict}

# Every function of these modules that reads a costchart table: (call, which table).
READERS = {
    "roc_hull": (cc.roc_hull, POINTS),
    "to_cost_lines": (cc.to_cost_lines, POINTS),
    "lower_envelope": (cc.lower_envelope, POINTS),
    "lower_envelope(lines)": (cc.lower_envelope, cc.to_cost_lines(POINTS)),
    "envelope_gap": (cc.envelope_gap, POINTS),
    "selection_table": (cc.selection_table, POINTS),
    "selection_table(envelope)": (cc.selection_table, ENVELOPE),
    "operating_range": (cc.operating_range, POINTS),
    "operating_range(envelope)": (lambda t, **k: cc.operating_range(t, **k, of="envelope"), POINTS),
    "auc": (cc.auc, POINTS),
    "thin_points": (lambda t, **k: cc.thin_points(t, **k, max_points=3), POINTS),
    "cost_at": (lambda t, **k: cc.cost_at(t, [0.2, 0.7], **k), ENVELOPE),
    "cost_at(points)": (lambda t, **k: cc.cost_at(t, [0.2, 0.7], **k), POINTS),
    "expected_cost": (cc.expected_cost, ENVELOPE),
    "iso_performance": (lambda t, **k: cc.iso_performance(t, **k, pc_range=(0.2, 0.6)), POINTS),
    "neyman_pearson": (lambda t, **k: cc.neyman_pearson(t, **k, max_fpr=0.3), POINTS),
    "workforce": (lambda t, **k: cc.workforce(t, **k, capacity=2), POINTS),
}


@pytest.mark.parametrize("kind", CONVERSIONS)
@pytest.mark.parametrize("name", READERS)
def test_every_reader_takes_polars_pyarrow_and_dicts(name, kind):
    function, table = READERS[name]
    expected = function(table)
    converted = CONVERSIONS[kind](table)
    # The grouping does not travel through polars, pyarrow or dicts: it is asked for.
    with pytest.raises(cc.CostchartError, match=r"carries no grouping .* by=\['model'\]"):
        function(converted)
    pd.testing.assert_frame_equal(function(converted, by="model"), expected, check_dtype=False)


@pytest.mark.parametrize("kind", CONVERSIONS)
def test_compare_takes_polars_pyarrow_and_dicts(kind):
    convert = CONVERSIONS[kind]
    a = cc.lower_envelope(ONE)
    b = cc.lower_envelope(POINTS[POINTS.model == "b"].drop(columns="model"))
    expected = cc.compare(a, b)
    result = cc.compare(convert(a), convert(b))
    pd.testing.assert_frame_equal(result.difference, expected.difference)
    assert result.expected_difference == pytest.approx(expected.expected_difference, abs=1e-15)


@pytest.mark.parametrize("kind", CONVERSIONS)
def test_apply_selection_takes_polars_pyarrow_and_dict_selections(kind):
    data = {"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}
    selection = cc.selection_table(cc.roc_points(data, score="s", label="y"))
    expected = cc.apply_selection(data, selection, score="s", label="y")
    result = cc.apply_selection(data, CONVERSIONS[kind](selection), score="s", label="y")
    pd.testing.assert_frame_equal(result, expected)


def test_read_table_keeps_pandas_frames_and_converts_the_rest():
    assert read_table(ONE, "points") is ONE
    arrow = read_table(_arrow(ONE), "points")
    assert list(arrow.columns) == list(ONE.columns)
    pd.testing.assert_frame_equal(arrow, ONE)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ([1, 2, 3], r"points must be a pandas, polars or pyarrow DataFrame or a dict of arrays"),
        ({"fpr": 0.1, "tpr": 0.5}, r"points holds only scalars; pass arrays"),
        (
            {"fpr": np.zeros((2, 2)), "tpr": np.zeros((2, 2))},
            r"points\['fpr'\] is a 2-D array of shape \(2, 2\); pass one 1-D array per column",
        ),
        (
            pd.DataFrame([[0.1, 0.5, 0.2]], columns=["fpr", "tpr", "fpr"]),
            r"points has more than one column named 'fpr'; rename or drop the duplicates",
        ),
        (
            pa.table([pa.array([0.1]), pa.array([0.5]), pa.array([0.2])], ["fpr", "tpr", "fpr"]),
            r"points has more than one column named 'fpr'",
        ),
        (
            pd.DataFrame({"fpr": ["a"], "tpr": ["b"]}),
            r"column 'fpr' of points must hold numbers, but has dtype",
        ),
        (
            pd.DataFrame({"threshold": ["x"], "fpr": [0.1], "tpr": [0.5]}),
            r"column 'threshold' of points must hold numbers",
        ),
        (
            pd.DataFrame({"fpr": [0.1, np.nan], "tpr": [0.5, 0.6]}),
            r"column 'fpr' of points must hold rates in \[0, 1\], but has nan at position 1",
        ),
        (
            pd.DataFrame({"fpr": [0.1], "tpr": [0.5], "tp": [np.nan]}),
            r"column 'tp' of points must hold finite, non-negative counts, but has nan",
        ),
    ],
)
def test_points_tables_are_checked(table, message):
    for function in (cc.roc_hull, cc.lower_envelope, cc.to_cost_lines, cc.auc):
        with pytest.raises(cc.CostchartError, match=message):
            function(table)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            pd.DataFrame([[0.0, 0.1, 0.2]], columns=["pc", "cost", "cost"]),
            r"curve has more than one column named 'cost'",
        ),
        (
            pd.DataFrame({"pc": [0.0, 1.5], "cost": [0.1, 0.1]}),
            r"column 'pc' of curve must hold operating points in \[0, 1\], but has 1\.5",
        ),
        (
            pd.DataFrame({"pc": [0.0, np.nan], "cost": [0.1, 0.1]}),
            r"column 'pc' of curve must hold operating points in \[0, 1\], but has nan",
        ),
        (
            pd.DataFrame({"pc": [0.0, 1.0], "cost": [0.1, np.nan]}),
            r"column 'cost' of curve must hold normalized costs in \[0, 1\], but has "
            r"nan at position 1",
        ),
        (
            pd.DataFrame({"pc": [0.0, 1.0], "cost": [-2.5, -2.5]}),
            r"column 'cost' of curve must hold normalized costs in \[0, 1\], but has "
            r"-2\.5 at position 0",
        ),
    ],
)
def test_cost_curves_are_checked(table, message):
    for function in (cc.expected_cost, lambda t: cc.cost_at(t, 0.5), cc.selection_table):
        with pytest.raises(cc.CostchartError, match=message):
            function(table)


@pytest.mark.parametrize(
    "function",
    [
        cc.roc_hull,
        cc.lower_envelope,
        cc.to_cost_lines,
        cc.selection_table,
        cc.auc,
        cc.expected_cost,
        cc.envelope_gap,
        lambda t: cc.cost_at(t, 0.5),
        lambda t: cc.operating_range(t, of="envelope"),
        lambda t: cc.iso_performance(t, pc=0.5),
        lambda t: cc.neyman_pearson(t, max_fpr=0.5),
        lambda t: cc.thin_points(t, max_points=3),
    ],
)
def test_empty_ungrouped_tables_give_empty_tables(function):
    # Once an IndexError in the hull functions, and auc returned 0.0.
    result = function(ONE.iloc[:0])
    assert len(result) == 0
    assert len(result.columns) > 0


def test_empty_table_has_its_documented_columns():
    assert list(cc.auc(ONE.iloc[:0]).columns) == ["auc"]
    assert list(cc.lower_envelope(ONE.iloc[:0]).columns) == list(_schema.ENVELOPE_COLUMNS)
    assert list(cc.selection_table(ONE.iloc[:0]).columns) == list(_schema.SELECTION_COLUMNS)


def test_a_curve_must_span_the_unit_interval_where_it_is_integrated():
    half = pd.DataFrame({"g": ["a", "a"], "pc": [0.0, 0.5], "cost": [0.1, 0.1]})
    message = (
        r"must span pc from 0 to 1, but one runs from 0\.0 to 0\.5 \(curve, group \{'g': 'a'\}\)"
    )
    for function in (cc.expected_cost, lambda t, **k: cc.cost_at(t, 0.2, **k)):
        with pytest.raises(cc.CostchartError, match=message):
            function(half, by="g")
    with pytest.raises(cc.CostchartError, match=r"runs from 0\.0 to 0\.5 \(a\)"):
        cc.compare(half.drop(columns="g"), ONE)


# As selection_table makes it: grouped by model, the grouping carried with the table.
SELECTION = carry_grouping(
    pd.DataFrame(
        {
            "model": ["a", "a", "b"],
            "pc_lo": [0.5, 0.0, 0.0],
            "pc_hi": [1.0, 0.5, 1.0],
            "threshold": [2.0, np.inf, -np.inf],
        }
    ),
    ["model"],
)


def test_read_selection_infers_grouping_and_sorts_each_group():
    table, by, groups = read_selection(SELECTION, None)
    assert table is SELECTION
    assert by == ["model"]
    assert [g.key for g in groups] == [("a",), ("b",)]
    np.testing.assert_array_equal(groups[0].positions, [1, 0])
    for kind, convert in CONVERSIONS.items():
        with pytest.raises(cc.CostchartError, match=r"carries no grouping"):
            read_selection(convert(SELECTION), None)
        _, by, groups = read_selection(convert(SELECTION), "model")
        assert by == ["model"], kind
        np.testing.assert_array_equal(groups[0].positions, [1, 0])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda s: s.assign(pc_hi=[1.0, 0.4, 1.0]),
            r"selection \(group \{'model': 'a'\}\) has a gap between pc=0\.4 and pc=0\.5; its "
            r"intervals must tile \[0, 1\]",
        ),
        (
            lambda s: s.assign(pc_hi=[1.0, 0.6, 1.0]),
            r"selection \(group \{'model': 'a'\}\) has an overlap between pc=0\.6 and pc=0\.5",
        ),
        (
            lambda s: s.assign(pc_lo=[0.5, 0.0, 0.2]),
            r"selection \(group \{'model': 'b'\}\) covers pc from 0\.2 to 1\.0, but its "
            r"intervals must tile \[0, 1\]",
        ),
        (
            lambda s: s.assign(pc_lo=[0.5, 0.0, 1.0], pc_hi=[1.0, 0.5, 0.0]),
            r"selection \(group \{'model': 'b'\}\) has an interval with pc_lo=1\.0 > pc_hi=0\.0",
        ),
        (
            lambda s: s.assign(pc_hi=[1.2, 0.5, 1.0]),
            r"column 'pc_hi' of selection must hold operating points in \[0, 1\], but has 1\.2",
        ),
        (
            lambda s: s.assign(pc_lo=[0.5, np.nan, 0.0]),
            r"column 'pc_lo' of selection must hold operating points in \[0, 1\], but has nan",
        ),
        (
            lambda s: s.assign(threshold=[2.0, np.nan, 1.0]),
            r"column 'threshold' of selection must hold thresholds \(not NaN\), but has nan at "
            r"position 1",
        ),
        (
            lambda s: s.drop(columns="threshold"),
            r"selection has no column 'threshold'; pass a table from selection_table",
        ),
        (lambda s: s.iloc[:0], r"selection is empty; pass a table from selection_table"),
        (
            lambda s: {"pc_lo": 0.0, "pc_hi": 1.0, "threshold": 0.5},
            r"selection holds only scalars; pass arrays",
        ),
        (lambda s: 0.5, r"selection must be a pandas, polars or pyarrow DataFrame"),
        (
            lambda s: s.set_axis(["model", "pc_lo", "pc_lo", "threshold"], axis=1),
            r"selection has more than one column named 'pc_lo'",
        ),
    ],
)
def test_read_selection_refuses(change, message):
    with pytest.raises(cc.CostchartError, match=message):
        read_selection(change(SELECTION), None)


def test_read_selection_allows_rounding_where_intervals_meet():
    selection = pd.DataFrame(
        {"pc_lo": [0.0, 0.1 + 0.2], "pc_hi": [0.3, 1.0], "threshold": [np.inf, 1.0]}
    )
    _, by, groups = read_selection(selection, None)
    assert by == []
    assert len(groups) == 1


@pytest.mark.parametrize(
    "function",
    [
        lambda t: cc.roc_hull(t, by="threshold"),
        lambda t: cc.lower_envelope(t, by=["threshold"]),
        lambda t: cc.expected_cost(cc.lower_envelope(t), by="fpr"),
    ],
)
def test_grouping_by_a_costchart_column_is_refused(function):
    # roc_hull(points, by="threshold") returned two columns named "threshold".
    with pytest.raises(cc.CostchartError, match=r"a column name costchart writes itself"):
        function(ONE)


def test_boolean_count_columns_are_refused():
    points = pd.DataFrame(
        {"threshold": [np.inf, 1.0, 0.0], "tp": [0, 1, 2], "fp": [False, True, True]}
    ).assign(tpr=[0.0, 0.5, 1.0], fpr=[0.0, 1.0, 1.0])
    with pytest.raises(cc.CostchartError, match=r"column 'fp' of points must hold numbers"):
        cc.thin_points(points, max_points=2)


def test_text_in_number_columns_is_refused_though_numpy_would_read_it():
    # thin_points passed a count column holding the string "1" through unchanged.
    points = pd.DataFrame({"threshold": [np.inf, 1.0, 0.0], "tp": [0, 1, 2]})
    points = points.assign(fp=pd.Series([0, "1", 1], dtype=object), tpr=[0, 0.5, 1], fpr=[0, 1, 1])
    with pytest.raises(cc.CostchartError, match=r"column 'fp' of points must hold numbers"):
        cc.thin_points(points, max_points=2)
    # Numbers in an object column (thresholds beyond 2**53, missing values) are read.
    numbers = points.assign(fp=[0, 1, 1], threshold=pd.Series([None, 2**70, 0], dtype=object))
    hull = cc.roc_hull(numbers)
    assert hull[["fpr", "tpr"]].to_numpy().tolist() == [[0, 0], [1, 1]]


def test_categorical_number_columns_are_refused():
    points = pd.DataFrame({"threshold": [np.inf, 0.5, 0.0], "fpr": [0.0, 0.5, 1.0]})
    points = points.assign(tpr=[0.0, 0.9, 1.0], threshold=lambda t: t.threshold.astype("category"))
    with pytest.raises(cc.CostchartError, match=r"column 'threshold' of points must hold numbers"):
        cc.roc_hull(points)


def test_costs_above_one_are_not_normalized_costs():
    curve = pd.DataFrame({"pc": [0.0, 0.5, 1.0], "cost": [0.0, 5.0, 0.0]})
    for call in (cc.expected_cost, lambda c: cc.cost_at(c, 0.3), cc.curve_points):
        with pytest.raises(cc.CostchartError, match=r"normalized costs in \[0, 1\], but has 5\.0"):
            call(curve)


def test_curve_ends_rounded_by_float32_still_span_the_unit_interval():
    points = pd.DataFrame({"threshold": [2.0, 1.0], "fpr": [0.1, 0.4], "tpr": [0.5, 0.9]})
    envelope = cc.lower_envelope(points)
    rounded = envelope.assign(pc=envelope["pc"].where(envelope["pc"] < 1, 1 - 5e-11))
    pd.testing.assert_frame_equal(cc.expected_cost(rounded), cc.expected_cost(envelope))


def test_a_curve_with_three_costs_at_one_pc_is_refused():
    # Cost lines that lost their 'line' column read as one curve whose pc runs 0, 1, 0, 1:
    # its expected cost came out above 1.
    points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    lines = cc.to_cost_lines(points).drop(columns="line")
    # The table records that it is cost lines: it is refused as lines without 'line'.
    with pytest.raises(cc.CostchartError, match=r"'lines' table .* lost its 'line' column"):
        cc.expected_cost(lines)
    # Made by hand (no record), it reads as a curve, with three costs at one pc.
    by_hand = pd.DataFrame(lines.to_dict("list"))
    with pytest.raises(
        cc.CostchartError, match=r"not one cost curve per group: .*lost their 'line' column"
    ):
        cc.expected_cost(by_hand)
    # A jump (two costs at one pc), as hybrid and Brier curves have, is a curve.
    jump = pd.DataFrame({"pc": [0.0, 0.5, 0.5, 1.0], "cost": [0.0, 0.3, 0.1, 0.0]})
    assert cc.expected_cost(jump)["expected_cost"].item() == pytest.approx(0.1)
    envelope = cc.lower_envelope(points)  # one cost per pc: read as before
    assert 0 <= cc.expected_cost(envelope)["expected_cost"].item() <= 0.5


def test_jumps_a_rounding_error_apart_are_two_jumps_not_three_costs():
    # 1 - 0.91 and 1 - (0.71 + 0.2) differ in the last digit: the Brier curve has a jump at
    # each, a rounding error apart, and is one curve whose area is the Brier score.
    scores = np.array([0.91, 0.71 + 0.2, 0.3, 0.6, 0.2, 0.95])
    labels = np.array([1, 0, 1, 0, 0, 1])
    curve = cc.brier_curve({"s": scores, "y": labels}, score="s", label="y")
    brier = (np.mean((1 - scores[labels == 1]) ** 2) + np.mean(scores[labels == 0] ** 2)) / 2
    assert cc.expected_cost(curve)["expected_cost"].item() == pytest.approx(brier, abs=1e-15)


def test_points_columns_are_the_columns_of_the_points_read_once():
    # check_rates hands on the columns it read: the same values and dtypes as the frame's.
    points = cc.roc_points({"s": [3, 2, 2, 1, 0], "y": [1, 0, 1, 0, 1]}, score="s", label="y")
    points = points.assign(tp=points["tp"].astype("Int64"), note="x")
    from costchart._io.tables import points_columns

    arrays = points_columns(points, [])[3]
    assert list(arrays) == ["fpr", "tpr", "tp", "fp", "tn", "fn", "threshold"]
    for column, values in arrays.items():
        expected = points[column].to_numpy()
        assert values.dtype == expected.dtype
        np.testing.assert_array_equal(values, expected)


def test_points_columns_check_as_points_groups_does():
    from costchart._io.tables import points_columns

    bad = pd.DataFrame({"fpr": [0.0, 1.5], "tpr": [0.0, 1.0], "tp": [0, -1]})
    with pytest.raises(cc.CostchartError, match=r"column 'fpr' of points must hold rates"):
        points_columns(bad, [])
    with pytest.raises(cc.CostchartError, match=r"column 'tp' of points must hold finite, non"):
        points_columns(bad.assign(fpr=[0.0, 1.0]), [])


def test_cost_lines_whose_costs_are_not_their_rates_are_refused_not_read_by_the_rates():
    points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    lines = cc.to_cost_lines(points)
    edited = lines.copy()
    edited.loc[edited.index[2], "cost"] = 0.7  # a line's end at pc 0, its fpr 0
    # The rates were read and the edit ignored: the envelope came out unchanged.
    with pytest.raises(
        cc.CostchartError, match=r"costs disagree with their 'fpr' and 'tpr'.*line 1 "
    ):
        cc.lower_envelope(edited)
    # Without the rates, the costs are the lines: the edit is read.
    bare = edited.drop(columns=["fpr", "tpr", "threshold"])
    assert not cc.lower_envelope(bare)["cost"].equals(cc.lower_envelope(lines)["cost"])


def test_a_cost_line_outside_0_1_is_refused_naming_cost():
    points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    bare = cc.to_cost_lines(points).drop(columns=["fpr", "tpr", "threshold"])
    bare.loc[bare.index[3], "cost"] = 1.5
    with pytest.raises(cc.CostchartError, match=r"column 'cost' .* in \[0, 1\], but has 1\.5"):
        cc.lower_envelope(bare)
