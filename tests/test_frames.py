"""Helpers of costchart._io.frames and costchart._io.groups: group keys in messages, column-name checks."""

import re

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._io.frames import as_pandas, describe_group, mapping_columns
from costchart._io.groups import split_groups


def test_describe_group_shows_plain_values_and_none():
    assert describe_group(["g", "f"], (np.int64(0), np.float64(0.5))) == "{'g': 0, 'f': 0.5}"
    assert describe_group(["g"], (np.str_("a"),)) == "{'g': 'a'}"
    assert describe_group(["g"], (np.bool_(True),)) == "{'g': True}"
    for missing in (None, np.nan, pd.NA, pd.NaT):
        assert describe_group(["g"], (missing,)) == "{'g': None}"


def test_describe_group_of_a_none_key_read_by_pandas():
    # pandas stores a None key of a string column as NaN; the message still says None.
    frame = pd.DataFrame({"g": ["a", None], "s": [1, 2]})
    keys = [describe_group(["g"], group.key) for group in split_groups(frame, ["g"])]
    assert keys == ["{'g': 'a'}", "{'g': None}"]


def test_as_pandas_refuses_duplicated_names_and_2d_arrays():
    frame = pd.DataFrame([[1, 2]], columns=["s", "s"])
    with pytest.raises(cc.CostchartError, match=r"data has more than one column named 's'"):
        as_pandas(frame, ["s"])
    with pytest.raises(
        cc.CostchartError, match=r"data\['s'\] is a 2-D array of shape \(2, 1\); pass one 1-D"
    ):
        as_pandas({"s": np.zeros((2, 1))}, ["s"])


def test_from_confusion_names_groups_with_plain_values():
    counts = {"k": np.array([0, 0]), "TP": [1, 2], "FN": [1, 2], "FP": [1, 2], "TN": [1, 2]}
    with pytest.raises(cc.CostchartError, match=r"group \{'k': 0\} has 2 rows, but"):
        cc.from_confusion(counts, tp="TP", fn="FN", fp="FP", tn="TN", by="k")


def test_as_pandas_ignores_duplicates_among_unused_columns():
    frame = pd.DataFrame([[1, 2, 3]], columns=["s", "note", "note"])
    assert list(as_pandas(frame, ["s"]).columns) == ["s"]


@pytest.mark.parametrize("by", [123, 1.5, [["a"]], [None], {"a": 1}.items()])
def test_normalize_by_refuses_what_is_not_column_names(by):
    with pytest.raises(cc.CostchartError, match=r"must be a column name or a list of column names"):
        cc.lower_envelope(pd.DataFrame({"fpr": [0.1], "tpr": [0.5]}), by=by)


def test_a_grouping_column_named_twice_is_refused():
    # The output had the column twice.
    points = pd.DataFrame({"m": ["a"], "fpr": [0.1], "tpr": [0.5]})
    with pytest.raises(cc.CostchartError, match=r"by=\['m', 'm'\] names 'm' twice"):
        cc.lower_envelope(points, by=["m", "m"])


def test_unhashable_group_values_are_refused_naming_the_column():
    data = pd.DataFrame(
        {"s": [1.0, 2, 3, 4], "y": [0, 1, 0, 1], "g": [[1], [1], [2], [2]], "h": ["a"] * 4}
    )
    with pytest.raises(
        cc.CostchartError, match=r"grouping column 'g' holds list values such as \[1\]"
    ):
        cc.roc_points(data, score="s", label="y", by=["h", "g"])


def test_a_column_given_as_values_is_refused():
    data = pd.DataFrame({"s": [1.0, 2.0], "y": [0, 1]})
    with pytest.raises(cc.CostchartError, match=r"a column of data was given as a Series"):
        as_pandas(data, ["s", data["y"]])
    with pytest.raises(cc.CostchartError, match=r"tn= takes a column name, but got a Series"):
        cc.from_confusion(data.assign(tp=1, fn=1, fp=1), tp="tp", fn="fn", fp="fp", tn=data["s"])


@pytest.mark.parametrize("by", [{"g": 1}, pd.Series(["g"])])
def test_by_takes_names_not_mappings_or_values(by):
    data = pd.DataFrame({"g": [0, 0, 1, 1], "s": [1.0, 2, 3, 4], "y": [0, 1, 0, 1]})
    with pytest.raises(cc.CostchartError, match=r"by= takes column names, but got a"):
        cc.roc_points(data, score="s", label="y", by=by)


def test_names_may_come_as_an_index_an_array_or_integers():
    data = pd.DataFrame({"g": [0, 0, 1, 1], "s": [1.0, 2, 3, 4], "y": [0, 1, 0, 1]})
    expected = cc.roc_points(data, score="s", label="y", by="g")
    for by in (data.columns[:1], np.array(["g"])):
        pd.testing.assert_frame_equal(cc.roc_points(data, score="s", label="y", by=by), expected)
    numbered = data.set_axis([0, 1, 2], axis=1)
    np.testing.assert_array_equal(
        cc.roc_points(numbered, score=1, label=2)["tpr"],
        cc.roc_points(data, score="s", label="y")["tpr"],
    )


@pytest.mark.parametrize(
    "dtype", [bool, np.int8, np.int32, np.uint64, np.float16, np.float32, np.float64]
)
def test_mapping_columns_are_the_columns_a_frame_would_hold(dtype):
    data = {"s": (np.arange(6) % 3).astype(dtype), "y": np.arange(6) % 2 == 0, "n": ["a"] * 6}
    arrays = mapping_columns(data, ["s", "y"])
    frame = as_pandas(data, ["s", "y"])
    assert list(arrays) == ["s", "y"]
    for column, values in arrays.items():
        expected = frame[column].to_numpy()
        assert values.dtype == expected.dtype
        np.testing.assert_array_equal(values, expected)
        assert not np.shares_memory(values, data[column])  # a copy, as a frame holds


@pytest.mark.parametrize(
    "column",
    [["a", "b", "c"], np.array(["a", "b", "c"]), np.array([1, 2, 3], dtype=">f8"), 1.5],
)
def test_mapping_columns_leave_other_columns_to_a_frame(column):
    assert mapping_columns({"s": np.arange(3.0), "y": column}, ["s", "y"]) is None


def test_mapping_columns_refuse_as_a_frame_does():
    for data, columns in [
        ({"s": np.zeros(3), "y": np.zeros(4)}, ["s", "y"]),
        ({"s": np.zeros((3, 2)), "y": np.zeros(3)}, ["s", "y"]),
        ({"s": np.zeros(3)}, ["s", "y"]),
        ({"s": np.zeros(3)}, ["s", ["y"]]),
        ({"s": 1.0, "y": 2.0}, ["s", "y"]),
    ]:
        with pytest.raises(cc.CostchartError) as general:
            as_pandas(data, columns)
        with pytest.raises(cc.CostchartError, match=re.escape(str(general.value))):
            mapping_columns(data, columns)


def test_rows_only_has_the_rows_and_no_columns():
    from costchart._io.frames import rows_only

    frame = rows_only(4)
    assert len(frame) == 4 and list(frame.columns) == []
    assert len(split_groups(frame, [])) == 1 and split_groups(frame, []).sizes.tolist() == [4]
    assert len(rows_only(0)) == 0


def test_masked_values_of_a_dict_are_missing_not_data():
    masked = np.ma.masked_array([0.9, 0.1, 0.8, 0.2], mask=[True, False, False, False])
    with pytest.raises(cc.CostchartError, match="column 's' has 1 NaN values"):
        cc.roc_points({"s": masked, "y": [1, 0, 1, 0]}, score="s", label="y")
    unmasked = np.ma.masked_array([0.9, 0.1, 0.8, 0.2])
    expected = cc.roc_points({"s": [0.9, 0.1, 0.8, 0.2], "y": [1, 0, 1, 0]}, score="s", label="y")
    got = cc.roc_points({"s": unmasked, "y": [1, 0, 1, 0]}, score="s", label="y")
    pd.testing.assert_frame_equal(got, expected)
