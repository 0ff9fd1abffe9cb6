"""Result frames built one block per column (costchart/_io/blocks.py) equal pandas' own."""

import numpy as np
import pandas as pd
import pytest

from costchart._io.blocks import numeric_frame

CASES = {
    "points columns": {
        "threshold": np.array([np.inf, 2.0, 1.0]),
        "tp": np.array([0, 1, 2]),
        "tpr": np.array([0.0, 0.5, 1.0]),
    },
    "bool, int8, uint32, float32": {
        "a": np.array([True, False]),
        "b": np.array([1, 2], dtype=np.int8),
        "c": np.array([1, 2], dtype=np.uint32),
        "d": np.array([1, 2], dtype=np.float32),
    },
    "no rows": {"a": np.zeros(0), "b": np.zeros(0, dtype=np.int64)},
    # The rest are left to pd.DataFrame: names other than strings, other dtypes, lists,
    # scalars, byte orders.
    "a tuple name": {("a", 1): np.arange(3)},
    "an integer name": {1: np.arange(3), "x": np.ones(3)},
    "text": {"a": np.array(["x", "y"], dtype=object), "b": np.arange(2)},
    "float16": {"a": np.ones(2, dtype=np.float16)},
    "big-endian": {"a": np.arange(2, dtype=">i8")},
    "a list": {"a": np.arange(2), "b": [1, 2]},
    "a scalar": {"a": np.float64(1.0), "b": np.arange(2)},
    "a Series": {"a": pd.Series([1.0, 2.0]), "b": np.arange(2)},
    "nothing": {},
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_frame_is_pandas_own(case):
    columns = CASES[case]
    ours, theirs = numeric_frame(dict(columns)), pd.DataFrame(dict(columns), copy=False)
    pd.testing.assert_frame_equal(ours, theirs, check_index_type=True, check_column_type=True)
    assert type(ours.columns) is type(theirs.columns)
    assert ours._mgr.nblocks == theirs._mgr.nblocks  # one block per column, not consolidated


def test_columns_are_not_copied_and_names_are_not_shared():
    tp = np.array([0, 1, 2])
    first = numeric_frame({"tp": tp, "fp": np.array([0, 0, 1])})
    assert np.shares_memory(first["tp"].to_numpy(), tp)
    first.columns.name = "renamed"
    second = numeric_frame({"tp": np.zeros(3), "fp": np.zeros(3)})
    assert second.columns.name is None
    second.loc[0, "tp"] = 5.0  # a frame of its own: the first is unchanged
    assert first.loc[0, "tp"] == 0
