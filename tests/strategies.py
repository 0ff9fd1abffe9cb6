"""Hypothesis strategies and contract checks shared by the property and fuzz tests."""

import copy
import itertools
import warnings
from functools import cached_property

import numpy as np
import pandas as pd
from hypothesis import strategies as st

import costchart as cc
from costchart._io import schema as _schema


@st.composite
def scored_instances(draw, min_size=2, max_size=60):
    """Scores with many ties and labels with both classes present."""
    n = draw(st.integers(min_size, max_size))
    scores = draw(st.lists(st.integers(0, 12), min_size=n, max_size=n))
    labels = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    labels[0], labels[-1] = True, False
    return pd.DataFrame({"score": np.array(scores, float) / 4, "y": labels})


@st.composite
def arbitrary_points(draw, max_size=25):
    """A ROC points table of arbitrary points in the unit square (rates on a grid)."""
    n = draw(st.integers(1, max_size))
    grid = st.integers(0, 20).map(lambda v: v / 20)
    fpr = draw(st.lists(grid, min_size=n, max_size=n))
    tpr = draw(st.lists(grid, min_size=n, max_size=n))
    return pd.DataFrame({"threshold": np.arange(n, dtype=float), "fpr": fpr, "tpr": tpr})


# -- grouped data whose grouping columns are named like costchart's concepts ---------------

#: Names a user may well give grouping columns: costchart's concepts and the names of
#: columns of its non-table results. Those costchart reserves (refuses as grouping
#: columns) are dropped at run time, so the tests follow whatever ``_schema`` reserves.
CONCEPT_NAMES = (
    "classifier",
    "dataset",
    "fold",
    "model",
    "role",
    "weight",
    "segment",
    "name",
    "better",
    "extra_cost",
    "cost_a",
    "trained_pc",
    "curve",
    "method",
)


def grouping_names() -> tuple[str, ...]:
    """The concept names costchart does not reserve (at run time)."""
    return tuple(n for n in CONCEPT_NAMES if n not in _schema.RESERVED)


@st.composite
def grouped_scores(draw, *, min_groups=1, max_columns=2, max_rows=24):
    """Scored instances with 1-2 grouping columns named like costchart concepts.

    Returns ``(data, by)``: a pandas frame with the grouping columns, ``score`` (floats
    with ties), ``y`` (0/1, at least two of each class in every group: a band refuses a class of one), ``amount`` (positive instance
    costs) and ``instance`` (an id within the group), and the list of grouping columns.
    Group keys are strings or ints; every combination of key values is present.
    """
    names = draw(
        st.lists(st.sampled_from(grouping_names()), min_size=1, max_size=max_columns, unique=True)
    )
    values = {}
    for name in names:
        kind = draw(st.sampled_from(["str", "int"]))
        size = draw(st.integers(min_groups if name == names[-1] else 1, 2))
        if kind == "str":
            pool = draw(
                st.lists(
                    st.sampled_from(["a", "b", "c", "x y", "é"]),
                    min_size=size,
                    max_size=size,
                    unique=True,
                )
            )
        else:
            pool = draw(st.lists(st.integers(-3, 9), min_size=size, max_size=size, unique=True))
        values[name] = pool
    frames = []
    for key in itertools.product(*(values[n] for n in names)):
        n = draw(st.integers(4, max_rows))
        scores = draw(st.lists(st.integers(0, 8), min_size=n, max_size=n))
        labels = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
        labels[:2], labels[-2:] = [1, 1], [0, 0]
        amounts = draw(st.lists(st.integers(1, 5), min_size=n, max_size=n))
        frame = pd.DataFrame(
            {
                "score": np.array(scores, float) / 4,
                "y": labels,
                "amount": np.array(amounts, float),
                "instance": np.arange(n),
            }
        )
        for name, value in zip(names, key, strict=True):
            frame[name] = value
        frames.append(frame)
    data = pd.concat(frames, ignore_index=True)
    data = data[[*names, "score", "y", "amount", "instance"]]
    return data, names


FRAME_KINDS = ("pandas", "polars", "pyarrow")
RAW_KINDS = (*FRAME_KINDS, "dict")


def as_kind(frame: pd.DataFrame, kind: str):
    """``frame`` as a pandas, polars or pyarrow frame or a dict of numpy arrays."""
    if kind == "pandas":
        return frame.copy()
    if kind == "polars":
        import polars as pl

        return pl.from_pandas(frame)
    if kind == "pyarrow":
        import pyarrow as pa

        return pa.Table.from_pandas(frame, preserve_index=False)
    if kind == "dict":
        return {c: frame[c].to_numpy(copy=True) for c in frame.columns}
    raise AssertionError(kind)


def snapshot(data):
    """A deep copy of a table, to check later that costchart did not modify it."""
    if isinstance(data, pd.DataFrame):
        return data.copy(deep=True)
    if isinstance(data, dict):
        return {k: np.array(v, copy=True) for k, v in data.items()}
    if hasattr(data, "clone"):  # polars
        return data.clone()
    return copy.deepcopy(data)


def assert_unchanged(data, before) -> None:
    """``data`` equals its snapshot ``before`` (values, dtypes, column names, index)."""
    if isinstance(data, pd.DataFrame):
        pd.testing.assert_frame_equal(data, before, check_exact=True)
    elif isinstance(data, dict):
        assert list(data) == list(before)
        for key in data:
            np.testing.assert_array_equal(data[key], before[key])
            assert np.asarray(data[key]).dtype == before[key].dtype
    elif hasattr(data, "clone"):  # polars
        assert data.schema == before.schema
        assert data.equals(before)
    else:  # pyarrow
        assert data.schema == before.schema
        assert data.equals(before)


# -- what a costchart table must look like ----------------------------------------------

#: Counts: int64 when counted from unweighted rows or given as integers.
COUNT_COLUMNS = (_schema.TP, _schema.FP, _schema.TN, _schema.FN)
INT_COLUMNS = (_schema.LINE, _schema.N_CURVES)
BOOL_COLUMNS = (_schema.SIGNIFICANT, _schema.DEGENERATE, _schema.CHEAPEST)
#: Columns that hold rates, operating points or costs, in [0, 1] wherever they are not NaN.
UNIT_COLUMNS = (
    _schema.FPR,
    _schema.TPR,
    _schema.PC,
    _schema.PC_LO,
    _schema.PC_HI,
    _schema.FPR_LO,
    _schema.FPR_HI,
    _schema.TPR_LO,
    _schema.TPR_HI,
    # Normalized expected costs and AUCs are in [0, 1] too.
    _schema.COST,
    _schema.COST_LO,
    _schema.COST_HI,
    _schema.EXPECTED_COST,
    _schema.AUC,
)


def check_table(
    result,
    leading,
    columns,
    *,
    string_columns=(),
    integer_counts=True,
    group_source=None,
    nan_ok=(),
    int_columns=(),
) -> None:
    """Assert the table contract on ``result``.

    ``leading`` are the grouping columns (None: whatever precedes ``columns``), ``columns``
    the documented columns after them.
    ``string_columns`` hold labels (object or string dtype). Every other documented column
    is int64 (counts when ``integer_counts``; int64 or float64 when it is None; ``line``,
    ``n_curves``), bool
    (``significant``) or float64. Rates and operating points are in [0, 1]; costs are
    non-negative; only columns in ``nan_ok`` may be NaN (``threshold`` may be NaN or +inf).
    ``group_source`` (a pandas frame) gives the grouping columns' expected dtypes.
    """
    assert isinstance(result, pd.DataFrame), type(result)
    names = list(result.columns)
    assert len(set(names)) == len(names), f"duplicated column names: {names}"
    columns = list(columns)
    if leading is None:  # any grouping columns, but none named like costchart's own
        leading = names[: max(len(names) - len(columns), 0)]
        clash = [c for c in leading if c in _schema.RESERVED]
        assert not clash, f"grouping columns {clash} use costchart's column names"
    assert names == [*leading, *columns], f"{names} != {[*leading, *columns]}"
    assert isinstance(result.index, pd.RangeIndex), type(result.index)
    assert result.index.equals(pd.RangeIndex(len(result)))
    for column in columns:
        dtype = result[column].dtype
        if column in string_columns:
            assert pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype), (
                column,
                dtype,
            )
            continue
        if column in BOOL_COLUMNS:
            expected = np.dtype(bool)
        elif column in COUNT_COLUMNS and integer_counts is None:
            # Counts: int64, or float64 for weighted / fractional counts.
            expected = dtype if dtype in (np.int64, np.float64) else np.dtype(np.int64)
        elif column in (*INT_COLUMNS, *int_columns) or (column in COUNT_COLUMNS and integer_counts):
            expected = np.dtype(np.int64)
        else:
            expected = np.dtype(np.float64)
        if len(result) or column not in (*INT_COLUMNS, *COUNT_COLUMNS, *BOOL_COLUMNS):
            assert dtype == expected, f"column {column!r} has dtype {dtype}, not {expected}"
        if dtype.kind == "f":
            values = result[column].to_numpy()
            if column not in (*nan_ok, _schema.THRESHOLD):
                assert not np.isnan(values).any(), f"column {column!r} has NaN"
            finite = values[~np.isnan(values)]
            if column != _schema.THRESHOLD:
                assert np.isfinite(finite).all() or column in (
                    _schema.SLOPE_LO,
                    _schema.SLOPE_HI,
                    _schema.SLOPE,
                ), f"column {column!r} has infinite values"
            if column in UNIT_COLUMNS:
                assert ((finite >= 0) & (finite <= 1)).all(), f"column {column!r} leaves [0, 1]"
            if column in (_schema.COST, _schema.COST_LO, _schema.COST_HI, _schema.EXPECTED_COST):
                assert (finite >= 0).all(), f"column {column!r} has negative costs"
    if _schema.LOWER in columns and _schema.UPPER in columns and len(result):
        assert (result[_schema.LOWER] <= result[_schema.UPPER] + 1e-12).all()
    if group_source is not None:
        for column in leading:
            assert result[column].dtype == group_source[column].dtype, (
                column,
                result[column].dtype,
                group_source[column].dtype,
            )


def group_keys(frame: pd.DataFrame, by) -> list[tuple]:
    """Distinct keys of ``by`` in order of first appearance, as tuples of Python values."""
    if not by:
        return [()]
    keys = frame[list(by)].drop_duplicates()
    return [tuple(v.item() if hasattr(v, "item") else v for v in row) for row in keys.to_numpy()]


#: A small grid of operating points for bands (the default of 501 is slow to fuzz).
PC_GRID = [0.0, 0.25, 0.5, 0.75, 1.0]


class Inputs:
    """The tables one example feeds the functions, each made once (as pandas) when used."""

    def __init__(self, data: pd.DataFrame, by: list[str]):
        self.data = data
        self.by = by
        self.over = by[-1]
        self.kept = by[:-1]

    @cached_property
    def raw(self):
        return self.data[[*self.by, "score", "y", "amount", "instance"]]

    @cached_property
    def points(self):
        return cc.roc_points(self.data, score="score", label="y", by=self.by)

    @cached_property
    def lines(self):
        return cc.to_cost_lines(self.points)

    @cached_property
    def envelope(self):
        return cc.lower_envelope(self.points)

    @cached_property
    def average(self):
        return cc.vertical_average(self.envelope, over=self.over)

    @cached_property
    def selection(self):
        return cc.selection_table(self.envelope)

    @cached_property
    def rociv(self):
        return cc.rociv(self.data, score="score", label="y", amount="amount", by=self.by)

    @cached_property
    def band(self):
        return cc.bootstrap_band(self.data, score="score", label="y", pc=PC_GRID)

    @cached_property
    def counts(self):
        rows = []
        for key, part in self.data.groupby(self.by, sort=False):
            positive = part["y"].to_numpy() == 1
            predicted = part["score"].to_numpy() >= 1.0
            rows.append(
                {
                    **dict(zip(self.by, key, strict=True)),
                    "TP": int((positive & predicted).sum()),
                    "FN": int((positive & ~predicted).sum()),
                    "FP": int((~positive & predicted).sum()),
                    "TN": int((~positive & ~predicted).sum()),
                }
            )
        frame = pd.DataFrame(rows)
        for column in self.by:
            frame[column] = frame[column].astype(self.data[column].dtype)
        return frame

    @cached_property
    def classifiers(self):
        points = self.points.copy()
        trained = points.groupby(self.by, sort=False).cumcount() + 1
        sizes = points.groupby(self.by, sort=False)["fpr"].transform("size") + 1
        points["trained"] = (trained / sizes).to_numpy(float)
        return points[[*self.by, "fpr", "tpr", "trained"]]

    @cached_property
    def classifier_column(self):
        """A column naming the classifier of each row (a concept name not used by ``by``)."""
        return next(n for n in grouping_names() if n not in self.by)

    @cached_property
    def paired(self):
        # Two of each class in every group (instances 0 and 1 positive, the last two
        # negative): cheapest_set refuses a group with a single instance of a class.
        raw = self.raw
        last = raw.groupby(self.by, sort=False)["instance"].transform("max")
        raw = raw.assign(
            y=raw["y"].mask(raw["instance"] == 1, 1).mask(raw["instance"] == last - 1, 0)
        )
        a = raw.assign(**{self.classifier_column: "a"})
        b = raw.assign(
            **{
                self.classifier_column: "b",
                "score": ((raw["score"] * 4 + raw["instance"]) % 9) / 4,
            }
        )
        return pd.concat([a, b], ignore_index=True)


GROUP_KEY_KINDS = ("str", "int", "category", "float", "two columns")


def many_groups(seed: int, key: str = "str", *, groups: int = 40, max_rows: int = 30):
    """Scored instances in many groups of different sizes, for tests against per-group loops.

    Returns ``(data, by)``. Groups have 1 to ``max_rows`` rows (a group of one row has one
    class only, and roc_points leaves it out with a warning); scores are probabilities
    with ties (two decimals); ``w`` holds whole weights, some 0. ``key`` is the kind of
    the grouping column: ``"str"`` (one key None), ``"int"``, ``"category"`` (one key
    NaN, one category unused), ``"float"`` (one key NaN) or ``"two columns"`` (str and
    int). Rows of the groups are mixed.
    """
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, max_rows + 1, groups)
    sizes[0] = max(sizes[0], 2)
    number = np.repeat(np.arange(groups), sizes)
    y = rng.random(len(number)) < 0.4
    y[0], y[1] = True, False  # the first group has both classes
    data = pd.DataFrame(
        {
            "s": np.round(rng.random(len(number)), 2),
            "y": y,
            "w": rng.integers(0, 3, len(number)),
        }
    )
    data.loc[:1, "w"] = 1
    names = np.array([f"k{i}" for i in range(groups)], dtype=object)
    missing = number == 1
    if key == "str":
        data["g"] = np.where(missing, None, names[number])
    elif key == "int":
        data["g"] = number * 7 - 50
    elif key == "category":
        values = pd.Series(np.where(missing, None, names[number]))
        data["g"] = pd.Categorical(values, categories=["unused", *names[::-1]])
    elif key == "float":
        data["g"] = np.where(missing, np.nan, number / 4)
    else:
        data["g"] = names[number % 5]
        data["h"] = number // 5
    data = data.iloc[rng.permutation(len(data))].reset_index(drop=True)
    return data, ["g", "h"] if key == "two columns" else ["g"]


def compare_tables(fast: pd.DataFrame, slow: pd.DataFrame, *, rtol: float = 0.0) -> None:
    """Assert two result tables equal: rows, order, columns, dtypes, attrs; values to ``rtol``."""
    assert list(fast.columns) == list(slow.columns)
    assert list(fast.dtypes) == list(slow.dtypes)
    assert fast.attrs == slow.attrs
    if rtol:
        pd.testing.assert_frame_equal(fast, slow, check_exact=False, rtol=rtol, atol=0)
    else:
        pd.testing.assert_frame_equal(fast, slow, check_exact=True)


def same_warnings(fast, slow):
    """Both results, after checking that both gave the same warnings."""
    with warnings.catch_warnings(record=True) as fast_warnings:
        warnings.simplefilter("always")
        quick = fast()
    with warnings.catch_warnings(record=True) as slow_warnings:
        warnings.simplefilter("always")
        reference = slow()
    assert [str(w.message) for w in fast_warnings] == [str(w.message) for w in slow_warnings]
    return quick, reference


def key_series(rng, n_groups, kind):
    """One grouping key per group of the given kind (with a missing key among them)."""
    if kind == "str":
        keys = np.array([f"g{i}" for i in rng.permutation(n_groups)], dtype=object)
        keys[n_groups // 2] = None
        return pd.Series(keys, dtype=object)
    if kind == "int":
        return pd.Series(rng.permutation(n_groups) * 3 - 7, dtype=np.int64)
    if kind == "float":
        keys = rng.permutation(n_groups).astype(float) / 2
        keys[0] = np.nan
        return pd.Series(keys)
    keys = pd.Series([f"c{i}" for i in rng.permutation(n_groups)], dtype="category")
    keys[n_groups // 3] = np.nan
    return keys
