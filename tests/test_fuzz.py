"""Fuzzing every public function with random good and bad input (issue 10, section 8).

Each call must either return a result that keeps the contract (documented columns,
numbers where numbers are promised: rates and operating points in [0, 1], costs in
[0, 1], ``lower <= upper``) or raise :class:`costchart.CostchartError`. Any other
exception, or a NaN where the contract promises a number, is a bug.

The inputs: tables built by costchart itself from random grouped data, then (sometimes)
broken -- NaN, infinite, negative or out-of-range values, strings, empty tables,
duplicated, missing or renamed columns, unhashable or missing group keys, odd indexes --
and handed over as pandas, polars, pyarrow, a dict of arrays or something that is not a
table at all; every keyword option gets (sometimes) a wrong value: strings, None, NaN,
lists, 2-D arrays, huge ints, negative numbers, bools, dicts, callables.

Charts are checked for exceptions only (built and ``to_dict(validate=True)``, never
rendered), ``save`` only to ``.json`` and ``.html`` (rendering PNGs of absurd size can
kill the process; ``tests/sweep_bad_inputs.py`` tries those in a subprocess).
"""

import json
import math
import os
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import altair as alt
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from strategies import PC_GRID, Inputs, as_kind, check_table, grouped_scores

import costchart as cc
from costchart._io import schema as _schema

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    # No shrinking: most failures are raw exceptions whose first example is clear enough.
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=list(HealthCheck),
)

# -- wrong values ---------------------------------------------------------------------------


def _junk_values() -> list:
    """Values a parameter should refuse (made fresh for every draw)."""
    return [
        "x",
        "",
        "0.5",
        None,
        math.nan,
        math.inf,
        -math.inf,
        -1,
        0,
        2,
        -0.5,
        1.5,
        True,
        False,
        [],
        [0.5],
        [math.nan],
        [[0.1, 0.2]],
        np.array([[0.1, 0.2], [0.3, 0.4]]),
        10**30,
        -(10**30),
        2**63,
        {"a": 1},
        {},
        (0.5,),
        (0.1, 0.2, 0.3),
        object(),
        pd.Series([0.1, 0.2]),
        complex(1, 1),
        b"0.5",
        np.float64("nan"),
        pd.NA,
        pd.Timestamp("2020-01-01"),
        lambda x: x,
    ]


JUNK = st.integers(0, len(_junk_values()) - 1).map(lambda i: _junk_values()[i])


def _column_junk() -> list:
    """Wrong column names: missing, not strings, unhashable, costchart's own, a Series."""
    return [
        "nope",
        "",
        None,
        0,
        1.5,
        True,
        ["score"],
        [["score"]],
        ("score", "y"),
        {"score": 1},
        pd.Series([1.0, 2.0]),
        np.array(["score"]),
        "pc",
        "fpr",
        "threshold",
        math.nan,
    ]


COLUMN_JUNK = st.integers(0, len(_column_junk()) - 1).map(lambda i: _column_junk()[i])


@dataclass(frozen=True)
class Opt:
    """An option's good values and its bad ones."""

    good: st.SearchStrategy
    bad: st.SearchStrategy


def maybe(good, bad=JUNK) -> Opt:
    return Opt(good if isinstance(good, st.SearchStrategy) else st.just(good), bad)


def _by_junk(by):
    return st.one_of(
        COLUMN_JUNK,
        st.sampled_from([["nope"], [None], [by[0], by[0]], [*by, "nope"], ["pc"], [["a"]]]),
    )


def by_option(by, *, allow_none=True) -> Opt:
    good = [by, by[0]] + ([None] if allow_none else [])
    return maybe(st.sampled_from(good), _by_junk(by))


def column(name) -> Opt:
    return maybe(name, COLUMN_JUNK)


# -- broken tables ----------------------------------------------------------------------------

BAD_NUMBERS = (math.nan, math.inf, -math.inf, -1.0, 2.0, 1e308, 0.5, -0.0, 5e-324)
SPECIAL_NAMES = ("a.b", "a[0]", "a:b", "a'b", 'a"b', "", "a\\b", " ", "datum", "<b>")
MUTATIONS = (
    "number",
    "number",
    "string",
    "empty",
    "one_row",
    "duplicate",
    "drop",
    "rename_reserved",
    "none_key",
    "unhashable",
    "shuffle",
    "extra_reserved",
    "bool",
    "bigint",
    "same",
    "index",
    "categorical",
    "special_name",
)


@st.composite
def mutated(draw, frame: pd.DataFrame, *, huge=True) -> pd.DataFrame:
    """``frame`` with one thing broken (or made odd but legal)."""
    frame = frame.copy()
    columns = list(frame.columns)
    if not columns:
        return frame
    how = draw(st.sampled_from(MUTATIONS))
    column = draw(st.sampled_from(columns))
    n = len(frame)
    row = draw(st.integers(0, max(n - 1, 0)))
    if how == "number" and n:
        bad = draw(st.sampled_from(BAD_NUMBERS if huge else BAD_NUMBERS[:5]))
        values = pd.to_numeric(frame[column], errors="coerce").to_numpy(dtype=float, copy=True)
        values[row] = bad
        frame[column] = values
    elif how == "string" and n:
        values = frame[column].astype(object).to_numpy(copy=True)
        values[row] = draw(st.sampled_from(["x", "", "1", None]))
        frame[column] = pd.Series(values, dtype=object)
    elif how == "empty":
        frame = frame.iloc[:0]
    elif how == "one_row":
        frame = frame.iloc[:1].reset_index(drop=True)
    elif how == "duplicate":
        frame = pd.concat([frame, frame[[column]]], axis=1)
    elif how == "drop":
        frame = frame.drop(columns=column)
    elif how == "rename_reserved":
        name = draw(st.sampled_from(sorted(_schema.RESERVED)))
        frame = frame.rename(columns={column: name})
    elif how == "none_key" and n:
        values = frame[column].astype(object).to_numpy(copy=True)
        values[row] = None
        frame[column] = pd.Series(values, dtype=object)
    elif how == "unhashable" and n:
        frame[column] = pd.Series([[1, 2]] * n, dtype=object)
    elif how == "shuffle":
        frame = frame.sample(frac=1.0, random_state=draw(st.integers(0, 9)))
    elif how == "extra_reserved":
        name = draw(st.sampled_from([_schema.PC, _schema.COST, _schema.LINE, _schema.TP]))
        frame[name] = 0.5
    elif how == "bool":
        frame[column] = frame[column].astype(bool)
    elif how == "bigint":
        frame[column] = (2**53 + np.arange(n)).astype(np.int64)
    elif how == "same" and n:
        frame[column] = frame[column].iloc[0]
    elif how == "index" and n:
        frame.index = draw(st.sampled_from([np.zeros(n, int), np.arange(n)[::-1] + 10]))
    elif how == "categorical":
        frame[column] = frame[column].astype("category")
    elif how == "special_name":
        frame = frame.rename(columns={column: draw(st.sampled_from(SPECIAL_NAMES))})
    return frame


def _not_a_table(frame: pd.DataFrame) -> list:
    n = len(frame)
    first = frame.columns[0] if len(frame.columns) else "x"
    return [
        None,
        "data.csv",
        [1, 2, 3],
        np.zeros((3, 3)),
        frame[first] if len(frame.columns) else pd.Series(dtype=float),
        {c: np.zeros((max(n, 1), 2)) for c in frame.columns},
        {c: 1.0 for c in frame.columns},
        {
            c: frame[c].to_numpy()[: max(n - 1, 0)] if i == 0 else frame[c].to_numpy()
            for i, c in enumerate(frame.columns)
        },
        frame.to_dict("records"),
        frame.T,
        42,
    ]


GOOD_KINDS = ("pandas", "pandas", "polars", "pyarrow", "dict")


def _as_good_kind(frame: pd.DataFrame, kind: str):
    if kind == "pandas":
        return frame
    try:
        return as_kind(frame, kind)
    except Exception:  # a frame polars or pyarrow cannot hold (lists, mixed objects)
        return frame


def _derived(inputs: Inputs, source: str) -> pd.DataFrame:
    """A pandas table costchart makes from ``inputs`` (an attribute or a named derivation)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if source == "hull":
            return cc.roc_hull(inputs.points)
        if source == "roc_average":
            return cc.roc_average(inputs.points, over=inputs.over)
        if source == "difference":
            return cc.difference_band(
                inputs.paired,
                score="score",
                label="y",
                classifier=inputs.classifier_column,
                instance="instance",
                by=inputs.by,
                pc=PC_GRID,
            )
        if source == "grouped_band":
            return cc.bootstrap_band(
                inputs.data, score="score", label="y", by=inputs.by, pc=PC_GRID
            )
        if source == "net_benefit":
            return cc.net_benefit(
                inputs.data, score="score", label="y", by=inputs.by, thresholds=[0.2, 0.5]
            )
        if source == "ranges":
            return cc.operating_range(inputs.points)
        if source == "chosen":
            return cc.neyman_pearson(inputs.points, max_fpr=0.3)
        if source == "hybrid":
            return cc.apply_selection(
                inputs.data, inputs.selection, score="score", label="y", by=inputs.by
            )
        if source == "one_points":
            return cc.roc_points(_one_group(inputs.data, inputs.by), score="score", label="y")
        if source == "one_envelope":
            return cc.lower_envelope(_derived(inputs, "one_points"))
        if source in ("better", "comparison"):
            one = _one_group(inputs.data, inputs.by)
            other = one.assign(score=((one["score"] * 4 + one["instance"]) % 9) / 4)
            comparison = cc.compare(
                _derived(inputs, "one_envelope"),
                cc.lower_envelope(cc.roc_points(other, score="score", label="y")),
            )
            return comparison.better if source == "better" else comparison.difference
        return getattr(inputs, source)


def _one_group(data, by):
    key = data[by].iloc[0]
    return data[np.logical_and.reduce([data[c] == key[c] for c in by])]


@st.composite
def example(draw, **options):
    data, by = draw(grouped_scores(max_rows=10, **options))
    return Inputs(data, by)


class Drawer:
    """Draws one call's arguments; at most one of them is bad, unless the plan is "many".

    One bad argument per call makes a failure name its cause; a few calls get several.
    """

    def __init__(self, draw, slots):
        self.draw = draw
        self.plan = draw(st.sampled_from(["none", "none", "many", *slots]))

    def bad(self, slot: str) -> bool:
        if self.plan == "many":
            return self.draw(st.integers(0, 3)) == 0
        return self.plan == slot

    def opt(self, slot: str, option: Opt):
        return self.draw(option.bad if self.bad(slot) else option.good)

    def options(self, options: dict) -> dict:
        return {name: self.opt(name, option) for name, option in options.items()}

    def table(self, inputs: Inputs, source: str, *, slot="table", huge=True):
        """One of ``inputs``' tables: sometimes broken, in some kind of frame (or none)."""
        frame = _derived(inputs, source)
        if self.bad(slot):
            frame = self.draw(mutated(frame, huge=huge))
        if self.bad(slot + " kind"):
            options = _not_a_table(frame)
            return options[self.draw(st.integers(0, len(options) - 1))]
        return _as_good_kind(frame, self.draw(st.sampled_from(GOOD_KINDS)))


def slots(*names, tables=("table",)):
    return [*names, *tables, *(f"{t} kind" for t in tables)]


# -- calling and checking ---------------------------------------------------------------------

#: Set to a file name to log every failure (one JSON line each) instead of failing.
LOG = os.environ.get("COSTCHART_FUZZ_LOG")


@dataclass
class Call:
    """A function, its arguments, the check its result must pass and what was bad."""

    function: object
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    check: object = None
    plan: str = ""

    def __repr__(self) -> str:
        def short(value):
            if isinstance(value, pd.DataFrame):
                return f"<pandas {value.shape} {list(value.columns)}>"
            if hasattr(value, "schema") and hasattr(value, "shape"):
                return f"<{type(value).__module__.split('.')[0]} {value.shape}>"
            text = repr(value).replace("\n", " ")
            return text if len(text) < 70 else text[:67] + "..."

        args = [short(a) for a in self.args]
        args += [f"{k}={short(v)}" for k, v in self.kwargs.items()]
        name = getattr(self.function, "__name__", self.function)
        return f"{name}({', '.join(args)}) [bad: {self.plan}]"


def _where(error: BaseException, call: Call) -> str:
    """The innermost costchart line an exception passed through (else the function's module)."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "/costchart/" in f.filename]
    if frames:
        return f"{Path(frames[-1].filename).name}:{frames[-1].lineno}"
    module = getattr(call.function, "__module__", "") or ""
    return module.rsplit(".", 1)[-1] + ".py"


def _fail(kind: str, message: str, call: Call, test: str, where: str = ""):
    if LOG:
        record = {
            "test": test,
            "kind": kind,
            "where": where,
            "message": message[:300],
            "call": repr(call),
        }
        with open(LOG, "a", encoding="utf-8") as log:
            log.write(json.dumps(record) + "\n")
        return
    pytest.fail(f"{kind} (at {where}): {message}\n  from {call!r}")


def run(call: Call, test: str = ""):
    """Call; fail on any exception but CostchartError and on a result that breaks the contract."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = call.function(*call.args, **call.kwargs)
        except cc.CostchartError:
            return
        except Exception as error:
            _fail(type(error).__name__, str(error), call, test, _where(error, call))
            return
    if call.check is not None:
        try:
            call.check(result)
        except Exception as error:
            where = _where(error, call) if not isinstance(error, AssertionError) else ""
            where = where or _where(AssertionError(), call)
            _fail("wrong result", f"{type(error).__name__}: {error}", call, test, where)


def table_check(columns, **options):
    options.setdefault("integer_counts", None)
    return lambda result: check_table(result, None, list(columns), **options)


def points_check(extra=()):
    """Points-like tables: the ROC columns present, in order, then ``extra``."""

    def check(result):
        assert isinstance(result, pd.DataFrame), type(result)
        present = [c for c in _schema.ROC_COLUMNS if c in result.columns]
        # Thresholds may be an object column of Python ints (scores beyond 2**53).
        check_table(result.infer_objects(), None, [*present, *extra], integer_counts=None)

    return check


def _expected_cost_check(result):
    """A curve's expected cost; a broken curve that reads as ROC points (its ``pc`` column
    renamed) gives each point's line's, identified by its rates, as expected_cost does."""
    if _schema.FPR in result.columns:
        return points_check(extra=(_schema.EXPECTED_COST,))(result)
    return table_check((_schema.EXPECTED_COST,))(result)


def _cheapest_check(result):
    """cheapest_regions: its columns, once the owner columns of a pooled table are set aside."""
    owners = result.attrs.get("costchart_owners", [])
    assert all(f"{c}_2" in result.columns for c in owners), list(result.columns)
    body = result.drop(columns=[*owners, *(f"{c}_2" for c in owners)])
    check_table(
        body,
        None,
        list(_schema.CHEAPEST_TABLE),
        string_columns=(_schema.CHOICE,),
        nan_ok=(_schema.THRESHOLD_2,),
        integer_counts=None,
    )


def _thin_points_check(result):
    """thin_points keeps rows: other costchart columns of its input follow the ROC ones.

    Its columns keep their input's dtypes (an object column of numbers stays object, as
    roc_points' thresholds beyond 2**53 are), so dtypes are checked as inferred.
    """
    assert isinstance(result, pd.DataFrame), type(result)
    carried = [c for c in result.columns if c in _schema.RESERVED]
    carried = [c for c in carried if c not in _schema.ROC_COLUMNS]
    assert list(result.columns[len(result.columns) - len(carried) :]) == carried
    points_check()(result.drop(columns=carried).infer_objects())


# -- the calls, one strategy per public function ----------------------------------------------


def band_options() -> dict:
    """The options shared by bootstrap_band, confusion_band and difference_band."""
    return {
        "confidence_level": maybe(st.sampled_from([0.5, 0.8, 0.9, 0.95])),
        "inference": maybe(
            st.sampled_from(["exact_bootstrap", "bootstrap", "smoothed_bootstrap", "auto"])
        ),
        "sampling": maybe(st.sampled_from(["stratified", "full"])),
        # "normal" and "discrete" need the default inference; "auto" goes with both
        "interval": maybe("auto"),
        "n_resamples": maybe(st.sampled_from([200, 400, 200.0])),
        "rng": maybe(st.sampled_from([None, 0, 7])),
        "pc": maybe(st.sampled_from([PC_GRID, 0.3, [0.1, 0.9], np.array(PC_GRID)])),
        "progress": maybe(st.sampled_from([False, None, lambda message: None])),
    }


def _raw_call(function, source, options_of, check):
    """A function of raw rows: ``function(table, **options)``."""

    @st.composite
    def strategy(draw):
        i = draw(example())
        options = options_of(i)
        d = Drawer(draw, slots(*options))
        table = d.table(i, source, huge=source != "counts")
        return Call(function, (table,), d.options(options), check, d.plan)

    return strategy


def _table_call(function, sources, check, *, by=True, **extra):
    """A function of one costchart table with ``by=`` (if it has one) and ``extra`` options."""

    @st.composite
    def strategy(draw):
        i = draw(example())
        source = draw(st.sampled_from(sources))
        options = {"by": _by_of(i, source)} if by else {}
        options.update({k: v(i) if callable(v) else v for k, v in extra.items()})
        d = Drawer(draw, slots(*options))
        table = d.table(i, source)
        return Call(function, (table,), d.options(options), check, d.plan)

    return strategy


def _by_of(i: Inputs, source: str) -> Opt:
    """``by=`` for a table from ``source``: an average has lost the ``over`` column."""
    if source != "average":
        return by_option(i.by)
    return by_option(i.kept) if i.kept else maybe(None, _by_junk(i.by))


def _densities() -> list:
    from scipy import stats

    return [None, stats.beta(2, 5), stats.uniform(), lambda x: np.ones_like(x), lambda x: 2 * x]


def _bad_densities() -> list:
    from scipy import stats

    return [
        lambda x: 1.0,
        lambda x: -np.ones_like(x),
        lambda x: np.full_like(x, np.nan),
        lambda x: np.ones(3),
        lambda x: "x",
        stats.norm(),
        stats.beta(0.5, 0.5),
        "beta",
        3,
    ]


DENSITY = maybe(
    st.integers(0, 4).map(lambda k: _densities()[k]),
    st.one_of(JUNK, st.integers(0, 8).map(lambda k: _bad_densities()[k])),
)


@st.composite
def cost_at_call(draw):
    i = draw(example())
    source = draw(st.sampled_from(["envelope", "points", "lines", "average"]))
    options = {
        "pc": maybe(st.sampled_from([0.3, [0.0, 0.5, 1.0], np.array([0.2, 0.4]), 1, 0])),
        "by": _by_of(i, source),
    }
    d = Drawer(draw, slots(*options))
    table = d.table(i, source)
    kwargs = d.options(options)
    if source in ("points", "lines"):  # each line gives its own cost
        check = points_check(extra=(_schema.PC, _schema.COST))
    else:
        check = table_check((_schema.PC, _schema.COST))
    return Call(cc.cost_at, (table, kwargs.pop("pc")), kwargs, check, d.plan)


def _over(i: Inputs) -> Opt:
    return maybe(st.sampled_from([i.over, i.by]), _by_junk(i.by))


def _check_comparison(result):
    assert isinstance(result, cc.Comparison), type(result)
    check_table(result.difference, [], (_schema.PC, "cost_a", "cost_b", _schema.DIFFERENCE))
    check_table(
        result.better, [], (_schema.PC_LO, _schema.PC_HI, "better"), string_columns=("better",)
    )
    assert isinstance(result.expected_difference, float)
    assert math.isfinite(result.expected_difference), result.expected_difference
    assert np.all((result.crossovers >= 0) & (result.crossovers <= 1)), result.crossovers
    if len(result.better):
        assert result.better[_schema.PC_LO].iat[0] == 0, "better does not start at pc 0"
        assert result.better[_schema.PC_HI].iat[-1] == 1, "better does not end at pc 1"


@st.composite
def compare_call(draw):
    i = draw(example())
    options = {
        "density": DENSITY,
        "names": maybe(
            st.sampled_from([("a", "b"), ("x", "y"), ["p", "q"]]),
            st.one_of(JUNK, st.sampled_from([("a",), ("a", "a"), "ab", (1, 2)])),
        ),
    }
    d = Drawer(draw, slots(*options, tables=("a", "b")))
    a = d.table(i, draw(st.sampled_from(["one_envelope", "one_points", "envelope"])), slot="a")
    b = d.table(i, draw(st.sampled_from(["one_envelope", "one_points"])), slot="b")
    return Call(cc.compare, (a, b), d.options(options), _check_comparison, d.plan)


ISO_TABLE = tuple(getattr(_schema, "ISO_TABLE", None) or cc.select.ISO_COLUMNS)
CHOICE_TABLE = tuple(getattr(_schema, "CHOICE_TABLE", None) or cc.select.CHOICE_COLUMNS)


@st.composite
def iso_performance_call(draw):
    i = draw(example())
    condition = draw(st.sampled_from(["pc", "slope", "both", "neither"]))
    options = {"by": by_option(i.by)}
    if condition in ("pc", "both"):
        options["pc"] = maybe(st.sampled_from([0.3, (0.2, 0.6), [0.1, 0.9], 0.0, 1.0]))
    if condition in ("slope", "both"):
        options["slope"] = maybe(st.sampled_from([1.0, (0.5, 2.0), 0.0, math.inf]))
    d = Drawer(draw, slots(*options))
    check = table_check(ISO_TABLE, string_columns=ISO_TABLE[:1])
    table = d.table(i, "points")
    return Call(cc.iso_performance, (table,), d.options(options), check, d.plan)


@st.composite
def performance_independent_call(draw):
    i = draw(example())
    options = {"trained_pc": column("trained"), "by": by_option(i.by)}
    d = Drawer(draw, slots(*options))
    table = d.table(i, "classifiers")
    kwargs = d.options(options)

    def check(result):
        assert isinstance(result, cc.PerformanceIndependent), type(result)
        check_table(
            result.curve,
            None,
            [_schema.PC, _schema.COST, kwargs["trained_pc"], _schema.FPR, _schema.TPR, "segment"],
            int_columns=("segment",),
        )
        check_table(result.envelope, None, _schema.ENVELOPE_COLUMNS)
        check_table(result.extra_cost, None, ["extra_cost"])

    return Call(cc.performance_independent, (table,), kwargs, check, d.plan)


def _raw_options(i: Inputs, *, weight=True) -> dict:
    options = {
        "score": column("score"),
        "label": column("y"),
        "by": by_option(i.by),
        "pos_label": maybe(st.sampled_from([None, 1, 0])),
    }
    if weight:
        options["weight"] = maybe(st.sampled_from([None, "amount"]), COLUMN_JUNK)
    return options


@st.composite
def apply_selection_call(draw):
    i = draw(example())
    options = _raw_options(i)
    d = Drawer(draw, slots(*options, tables=("selection", "data")))
    selection = d.table(i, "selection", slot="selection")
    data = d.table(i, "raw", slot="data")
    check = table_check(_schema.ENVELOPE_COLUMNS)
    return Call(cc.apply_selection, (selection, data), d.options(options), check, d.plan)


@st.composite
def bootstrap_band_call(draw):
    i = draw(example())
    options = {
        **_raw_options(i, weight=False),
        **band_options(),
        "bins": maybe(st.sampled_from([None, None, 4])),
    }
    which = draw(st.sampled_from(["neither", "threshold", "selection", "both"]))
    if which in ("threshold", "both"):
        options["threshold"] = maybe(st.sampled_from([1.0, 0.5, 0, 100.0]))
    tables = ("data", "selection") if which in ("selection", "both") else ("data",)
    d = Drawer(draw, slots(*options, tables=tables))
    data = d.table(i, "raw", slot="data")
    kwargs = d.options(options)
    if "selection" in tables:
        kwargs["selection"] = d.table(i, "selection", slot="selection")
    check = table_check(_schema.BAND_TABLE)
    return Call(cc.bootstrap_band, (data,), kwargs, check, d.plan)


def _confusion_options(i: Inputs) -> dict:
    return {
        "tp": column("TP"),
        "fn": column("FN"),
        "fp": column("FP"),
        "tn": column("TN"),
        "by": by_option(i.by),
    }


@st.composite
def difference_band_call(draw):
    i = draw(example())
    options = {
        "score": column("score"),
        "label": column("y"),
        "classifier": column(i.classifier_column),
        "instance": column("instance"),
        "by": by_option(i.by),
        "pos_label": maybe(st.sampled_from([None, 1])),
        **band_options(),
        "threshold": maybe(
            st.sampled_from([None, (1.0, 1.0), (0.5, 1.25)]),
            st.one_of(JUNK, st.sampled_from([(math.nan, 0.5), (0.5,), ("x", 1.0), (1, 2, 3)])),
        ),
        "a": maybe(st.sampled_from([None, "a", "b"])),
        "b": maybe(st.sampled_from([None, "a", "b"])),
    }
    d = Drawer(draw, slots(*options))
    table = d.table(i, "paired")
    check = table_check(_schema.DIFFERENCE_TABLE)
    return Call(cc.difference_band, (table,), d.options(options), check, d.plan)


@st.composite
def cheapest_set_call(draw, chart=False):
    """cheapest_set, or its chart, of paired data, with its options at random."""
    i = draw(example())
    options = {
        "score": column("score"),
        "label": column("y"),
        "classifier": column(i.classifier_column),
        "instance": column("instance"),
        "by": by_option(i.by),
        "pos_label": maybe(st.sampled_from([None, 1])),
        "confidence_level": maybe(st.sampled_from([0.5, 0.8, 0.9])),
        "n_resamples": maybe(st.sampled_from([100, 200, 150.0])),
        "rng": maybe(st.sampled_from([None, 0, 7])),
        "pc": maybe(st.sampled_from([PC_GRID, 0.3, [0.1, 0.9], np.array(PC_GRID)])),
    }
    if chart:
        options.update(size=SIZE, y_max=Y_MAX, **LOOK_OPTIONS)
    d = Drawer(draw, slots(*options))
    table = d.table(i, "paired")
    if chart:
        return Call(cc.cheapest_set_chart, (table,), d.options(options), _chart_check, d.plan)
    return Call(cc.cheapest_set, (table,), d.options(options), _cheapest_set_check, d.plan)


def _cheapest_set_check(result):
    assert list(result.columns[-5:]) == list(_schema.CHEAPEST_SET_TABLE[2:]), list(result.columns)
    assert (result[_schema.LOWER] <= 1e-12).all()
    assert (result[_schema.LOWER] <= result[_schema.DIFFERENCE] + 1e-12).all()
    assert (result[_schema.DIFFERENCE] <= result[_schema.UPPER] + 1e-12).all()


def _pr_curve_check(result):
    assert result["interpolated"].dtype == bool, result["interpolated"].dtype
    check_table(result.drop(columns="interpolated"), None, ["recall", "precision"])


def _net_benefit_options(i: Inputs) -> dict:
    return {
        "score": column("score"),
        "label": column("y"),
        "by": by_option(i.by),
        "pos_label": maybe(st.sampled_from([None, 1])),
        "thresholds": maybe(
            st.sampled_from([None, [0.1, 0.5], [0.25]]),
            st.one_of(JUNK, st.sampled_from([[0.0], [1.0], [], [0.5, math.nan], [[0.2]]])),
        ),
        "confidence_level": maybe(st.sampled_from([0.95, 0.5])),
    }


def _check_net_benefit(result):
    assert set(result["strategy"]) == {"model", "all", "none"}
    numbers = ["threshold", "net_benefit", "standardized_net_benefit", "pc", "lower", "upper"]
    values = result[numbers].to_numpy()
    assert np.isfinite(values).all()
    assert (result["lower"] <= result["net_benefit"] + 1e-12).all()
    assert (result["net_benefit"] <= result["upper"] + 1e-12).all()


def _auc_ci_options(i: Inputs) -> dict:
    return {
        "score": column("score"),
        "label": column("y"),
        "by": by_option(i.by),
        "pos_label": maybe(st.sampled_from([None, 1])),
        "confidence_level": maybe(st.sampled_from([0.95, 0.5, 0.999])),
        "inference": maybe(st.sampled_from(["delong", "exact_bootstrap"])),
    }


def _h_measure_options(i: Inputs) -> dict:
    return {
        "score": column("score"),
        "label": column("y"),
        "by": by_option(i.by),
        "pos_label": maybe(st.sampled_from([None, 1])),
        "severity_ratio": maybe(st.sampled_from([None, 0.5, 2.0, -1.0])),
    }


def _check_h_measure(result):
    check_table(result, None, ("h_measure",))
    values = result["h_measure"].to_numpy()
    # The hull holds the trivial classifiers, so its loss never exceeds theirs: H >= 0.
    assert np.isfinite(values).all() and ((values >= -1e-12) & (values <= 1 + 1e-12)).all()


def _expected_loss_options(i: Inputs) -> dict:
    return {
        "score": column("score"),
        "label": column("y"),
        "by": by_option(i.by),
        "pos_label": maybe(st.sampled_from([None, 1])),
        # "score_driven" needs probabilities (the fuzzed scores are any numbers); threshold=
        # needs "fixed" (the points case tries the others alone)
        "threshold_choice": maybe(st.sampled_from(["fixed", ["fixed", "rate_driven", "optimal"]])),
        "threshold": maybe(st.sampled_from([0.5, -math.inf, math.inf])),
        "density": DENSITY,
    }


def _check_expected_loss(result):
    check_table(result, None, _schema.EXPECTED_LOSS_TABLE, string_columns=("threshold_choice",))
    values = result["expected_loss"].to_numpy()
    assert np.isfinite(values).all() and ((values >= -1e-12) & (values <= 1 + 1e-12)).all()
    # The optimal loss of a group is never above its other losses.
    by = list(result.columns[: -len(_schema.EXPECTED_LOSS_TABLE)])
    for _, group in result.groupby(by, sort=False, dropna=False) if by else [(None, result)]:
        losses = dict(zip(group.threshold_choice, group.expected_loss, strict=True))
        if "optimal" in losses:
            assert losses["optimal"] <= min(losses.values()) + 1e-9


def _check_rate_driven_curve(result):
    check_table(result, None, _schema.RATE_DRIVEN_TABLE)
    np.testing.assert_allclose((result.tpr + result.fpr) / 2, result.pc, atol=1e-12)


def _check_auc_ci(result):
    check_table(result, None, ("auc", "lower", "upper", "se"))
    values = result[["lower", "auc", "upper"]].to_numpy()
    assert (values[:, 0] <= values[:, 1] + 1e-12).all() and (
        values[:, 1] <= values[:, 2] + 1e-12
    ).all()
    assert ((values >= 0) & (values <= 1)).all() and (result["se"] >= 0).all()


@st.composite
def auc_test_call(draw):
    i = draw(example())
    options = {
        "score": column("score"),
        "label": column("y"),
        "classifier": column(i.classifier_column),
        "instance": column("instance"),
        "by": by_option(i.by),
        "pos_label": maybe(st.sampled_from([None, 1])),
        "a": maybe(st.sampled_from([None, "a", "b"])),
        "b": maybe(st.sampled_from([None, "a", "b"])),
    }
    d = Drawer(draw, slots(*options))
    table = d.table(i, "paired")

    def check(result):
        check_table(result, None, ("auc_a", "auc_b", "difference", "se", "z", "p_value"))
        assert ((result["p_value"] >= 0) & (result["p_value"] <= 1)).all()

    return Call(cc.auc_test, (table,), d.options(options), check, d.plan)


def _rociv_options(i: Inputs, *, bins=True) -> dict:
    options = {
        "score": column("score"),
        "label": column("y"),
        "amount": column("amount"),
        "by": by_option(i.by),
        "pos_label": maybe(st.sampled_from([None, 1])),
    }
    if bins:
        options["bins"] = maybe(st.sampled_from([None, 3]))
    return options


def _good_benefits() -> list:
    return [
        {("Y", "p"): lambda a: 0.1 * a, ("Y", "n"): lambda a: -a},
        {("Y", "p"): 2.0, ("N", "n"): 1.0},
    ]


def _bad_benefits() -> list:
    return [
        {("Y", "p"): "x"},
        {("Y", "p"): lambda a: a[:1], ("N", "n"): 1.0},
        {("Y", "p"): lambda a: np.nan, ("N", "n"): 1.0},
        {("Y", "p"): None, ("N", "n"): 1.0},
        {"Yp": 1.0},
        {("Y", "p"): [1.0, 2.0], ("N", "n"): 1.0},
        [("Y", "p")],
        None,
        {("Y", "p"): lambda a: 1 / 0, ("N", "n"): 1.0},
    ]


def _benefit_options(i: Inputs) -> dict:
    return {
        "label": column("y"),
        "amount": column("amount"),
        "benefit": maybe(
            st.integers(0, 1).map(lambda k: _good_benefits()[k]),
            st.one_of(JUNK, st.integers(0, 8).map(lambda k: _bad_benefits()[k])),
        ),
        "pos_label": maybe(st.sampled_from([None, 1])),
    }


def _check_costs(result):
    assert isinstance(result, pd.Series), type(result)
    assert result.dtype == np.float64, result.dtype
    values = result.to_numpy()
    assert np.isfinite(values).all() and (values > 0).all(), "costs not finite and > 0"


def _resample_options(i: Inputs) -> dict:
    return {
        "label": column("y"),
        "ratios": maybe(
            st.lists(st.sampled_from([0.1, 0.5, 1, 2, 2.5, 10]), min_size=1, max_size=3),
            st.one_of(JUNK, st.sampled_from([[], [0], [-1.0], [np.inf], [np.nan], ["2"]])),
        ),
        "resampling": maybe(st.sampled_from(["over", "under"])),
        "pos_label": maybe(st.sampled_from([None, 1])),
        "rng": maybe(st.sampled_from([None, 0, 7])),
    }


def _check_resampled(result):
    assert isinstance(result, pd.DataFrame), type(result)
    assert list(result.columns[:2]) == ["ratio", "source_row"], list(result.columns)
    assert (result["ratio"] > 0).all() and np.isfinite(result["ratio"]).all()
    assert (result["source_row"] >= 0).all()


@st.composite
def band_at_call(draw):
    i = draw(example())
    options = {
        "pc": maybe(st.floats(0, 1)),
        "confidence_level": maybe(st.sampled_from([None, 0.9])),
    }
    d = Drawer(draw, slots(*options))
    band = d.table(i, draw(st.sampled_from(["band", "band", "grouped_band"])))
    kwargs = d.options(options)
    level = kwargs["confidence_level"]

    def check(result):
        assert isinstance(result, cc.Band), type(result)
        for name in ("pc", "cost", "lower", "upper", "se"):
            value = getattr(result, name)
            assert isinstance(value, float) and math.isfinite(value), (name, value)
        assert 0 <= result.pc <= 1
        assert result.lower <= result.upper
        assert isinstance(result.confidence_level, float), result.confidence_level
        if isinstance(level, float):
            assert result.confidence_level == level

    return Call(cc.band_at, (band, kwargs.pop("pc")), kwargs, check, d.plan)


CONVERSIONS = {
    "pc_from_costs": (cc.pc_from_costs, ("p_pos",), ("cost_fn", "cost_fp")),
    "pc_from_cost_ratio": (cc.pc_from_cost_ratio, ("cost_ratio",), ("p_pos",)),
    "pc_from_slope": (cc.pc_from_slope, ("slope",), ()),
    "slope_from_pc": (cc.slope_from_pc, ("pc",), ()),
    "cost_ratio_from_pc": (cc.cost_ratio_from_pc, ("pc",), ("p_pos",)),
    "p_pos_from_pc": (cc.p_pos_from_pc, ("pc",), ("cost_fn", "cost_fp")),
    "roc_point_to_cost_line": (cc.roc_point_to_cost_line, ("fpr", "tpr"), ()),
    "cost_line_to_roc_point": (cc.cost_line_to_roc_point, ("slope", "intercept"), ()),
    "roc_line_to_cost_point": (cc.roc_line_to_cost_point, ("slope", "intercept"), ()),
    "cost_point_to_roc_line": (cc.cost_point_to_roc_line, ("pc", "cost"), ()),
}
GOOD_NUMBER = st.one_of(st.sampled_from([0.25, 0.5, 0.75, 1.0]), st.just(np.array([0.2, 0.5])))


def _conversion_call(name):
    function, positional, keywords = CONVERSIONS[name]

    @st.composite
    def strategy(draw):
        d = Drawer(draw, [*positional, *keywords])
        args = tuple(d.opt(p, maybe(GOOD_NUMBER)) for p in positional)
        kwargs = {k: d.opt(k, maybe(GOOD_NUMBER)) for k in keywords if draw(st.booleans())}

        def check(result):
            parts = result if isinstance(result, tuple) else (result,)  # a number or a pair
            for part in parts:
                values = np.asarray(part, dtype=np.float64)
                assert not np.isnan(values).any(), f"NaN result {result!r}"

        return Call(function, args, kwargs, check, d.plan)

    return strategy


# -- charts: exceptions only --------------------------------------------------------------------


def _chart_check(result):
    assert isinstance(result, alt.TopLevelMixin), type(result)
    result.to_dict(validate=True)


def _group_option(by) -> Opt:
    return maybe(st.sampled_from([None, by[0], by[-1]]), COLUMN_JUNK)


@st.composite
def chart_call(draw, function, source, required=(), **options):
    """A chart or layer of one table; options are passed (or left out) at random."""
    i = draw(example())
    chosen = {k: v for k, v in options.items() if k in required or draw(st.booleans())}
    d = Drawer(draw, slots(*chosen, "special name"))
    by = list(i.by)
    if d.bad("special name"):  # a grouping column with Vega-Lite's special characters
        name = draw(st.sampled_from(SPECIAL_NAMES))
        i = Inputs(i.data.rename(columns={by[0]: name}), [name, *by[1:]])
        by = i.by
    table = d.table(i, source)
    kwargs = d.options({k: v(by) if callable(v) else v for k, v in chosen.items()})
    return Call(function, (table,), kwargs, _chart_check, d.plan)


SIZE = maybe(st.sampled_from([100, 280, 300.0]))
COLUMNS = maybe(st.sampled_from([1, 3]))
Y_MAX = maybe(st.sampled_from([0.5, 1, 0.25]))
MARKERS = maybe(
    st.sampled_from([None, [0.3], {"costs 3:1": 0.75}, (0.2, 0.8)]),
    st.one_of(JUNK, st.sampled_from(["abc", {"x": "y"}, [2.0], {"x": math.nan}])),
)
ISO = maybe(st.sampled_from([None, [1.0], [0.5, 2.0]]), st.one_of(JUNK, st.just("abc")))
MAX_POINTS = maybe(st.sampled_from([2, 10, 100]))
COST_CHART_OPTIONS = {
    "classifier": _group_option,
    "facet": _group_option,
    "y_max": Y_MAX,
    "ranges": maybe(st.booleans()),
    "combined": maybe(st.booleans()),
    "markers": MARKERS,
    "max_points": MAX_POINTS,
    "size": SIZE,
    "columns": COLUMNS,
}
ROC_CHART_OPTIONS = {
    "classifier": _group_option,
    "facet": _group_option,
    "iso": ISO,
    "max_points": MAX_POINTS,
    "size": SIZE,
    "columns": COLUMNS,
}
#: Options every composition takes.
LOOK_OPTIONS = {
    "title": maybe(st.sampled_from(["T", "<b>x</b>", None]), st.sampled_from([3, ["t"]])),
    "palette": maybe(
        st.sampled_from([None, {"x": "red"}, {}]), st.sampled_from([["red"], {"x": 3}, "red"])
    ),
    "show_key": maybe(st.booleans()),
}
COST_CHART_OPTIONS |= LOOK_OPTIONS | {
    "cost_lines": maybe(st.sampled_from(["all", "hull", "none"])),
}
ROC_CHART_OPTIONS |= LOOK_OPTIONS | {
    "show_chance": maybe(st.booleans()),
    "show_auc": maybe(st.booleans()),
}
ROC_COST_OPTIONS = COST_CHART_OPTIONS | {"iso": ISO, "show_chance": maybe(st.booleans())}

L = cc.layers
COLOR_DETAIL = {"classifier": _group_option, "by": _group_option}
LAYER_CASES = {
    "average_band": (
        L.average_band,
        "average",
        {
            "classifier": _group_option,
            "spread": maybe(st.sampled_from(["range", "sd"])),
            "y_max": Y_MAX,
        },
    ),
    "band": (L.band, "grouped_band", {**COLOR_DETAIL, "y_max": Y_MAX}),
    "degenerate_ticks": (
        L.degenerate_ticks,
        "grouped_band",
        {"classifier": _group_option, "y_max": Y_MAX},
    ),
    "better_regions": (L.better_regions, "better", {}),
    "cost_lines": (L.cost_lines, "lines", {**COLOR_DETAIL, "y_max": Y_MAX}),
    "difference_curve": (
        L.difference_curve,
        "comparison",
        {"a": maybe("a", st.sampled_from(["", 3])), "b": maybe("b"), "required": ("a", "b")},
    ),
    "envelope": (L.envelope, "envelope", {**COLOR_DETAIL, "y_max": Y_MAX}),
    "hull": (L.hull, "hull", COLOR_DETAIL),
    "hybrid": (L.hybrid, "hybrid", {"classifier": _group_option, "y_max": Y_MAX}),
    "iso_lines": (
        L.iso_lines,
        "hull",
        {
            "slope": maybe(st.sampled_from([None, [1.0], [0.5, 2.0]])),
            "iso": maybe(st.sampled_from([None, [0.3]])),
            "classifier": _group_option,
        },
    ),
    "operating_ranges": (
        L.operating_ranges,
        "ranges",
        {"classifier": _group_option, "y_max": Y_MAX},
    ),
    "roc_curve": (L.roc_curve, "points", COLOR_DETAIL),
    "roc_markers": (L.roc_markers, "points", {"classifier": _group_option}),
    "roc_spread": (
        L.roc_spread,
        "roc_average",
        {"classifier": _group_option, "axis": maybe(st.sampled_from(["tpr", "fpr"]))},
    ),
    "selected": (
        L.selected,
        "chosen",
        {"space": maybe(st.sampled_from(["roc", "cost"])), "y_max": Y_MAX, "required": ("space",)},
    ),
    "significance": (
        L.significance,
        "difference",
        {
            "a": maybe("x", st.sampled_from(["", 3, ("x",)])),
            "b": maybe("y"),
            "required": ("a", "b"),
        },
    ),
    "hover_targets": (
        L.hover_targets,
        "lines",
        {
            "space": maybe(st.sampled_from(["roc", "cost"])),
            "hover": maybe(st.just(alt.selection_point(fields=["line"], on="pointerover"))),
            "classifier": _group_option,
            "y_max": Y_MAX,
            "required": ("space", "hover"),
        },
    ),
}


@st.composite
def keyless_layer_call(draw):
    """The layers that take no table: markers, trivial classifiers, the zero rule."""
    i = draw(example())
    keys = maybe(
        st.just(i.points[i.by].drop_duplicates().reset_index(drop=True)),
        st.one_of(JUNK, st.just(i.points)),
    )
    which = draw(
        st.sampled_from(["pc_markers", "pc_labels", "trivial", "trivial_region", "zero", "chance"])
    )
    d = Drawer(draw, ["markers", "facet", "y_max"])
    if which == "zero":
        return Call(L.zero_rule, (), {}, _chart_check, d.plan)
    if which == "chance":
        kwargs = {"facet": d.opt("facet", keys)} if draw(st.booleans()) else {}
        return Call(L.chance, (), kwargs, _chart_check, d.plan)
    kwargs = {"facet": d.opt("facet", keys)} if draw(st.booleans()) else {}
    if which != "pc_markers":
        kwargs["y_max"] = d.opt("y_max", Y_MAX)
    if which in ("pc_markers", "pc_labels"):
        pc = maybe(st.sampled_from([[0.3], {"costs 3:1": 0.75}, (0.2, 0.8)]), MARKERS.bad)
        return Call(getattr(L, which), (d.opt("markers", pc),), kwargs, _chart_check, d.plan)
    return Call(getattr(L, which), (), kwargs, _chart_check, d.plan)


def _charts(i: Inputs) -> list:
    return [cc.cost_chart(i.points), cc.roc_chart(i.points)]


def _not_charts() -> list:
    return [{"not": "a spec"}, "chart", None, 3, {"mark": "nope"}]


@st.composite
def save_call(draw, tmp):
    i = draw(example())
    d = Drawer(draw, ["chart", "path", "scale_factor", "title"])
    good_charts = st.sampled_from([*_charts(i), {"mark": "point"}])
    chart = d.opt("chart", maybe(good_charts, st.sampled_from(_not_charts())))
    good_paths = st.sampled_from(["c.json", "c.html", "c.JSON"]).map(lambda n: tmp / n)
    bad_paths = st.sampled_from(
        [tmp / "c.txt", tmp / "c", tmp / "missing" / "c.json", tmp, None, 3, ["c.json"], ""]
    )
    kwargs = {}
    if draw(st.booleans()):
        kwargs["scale_factor"] = d.opt("scale_factor", maybe(st.sampled_from([1, 2.0])))
    if draw(st.booleans()):
        kwargs["title"] = d.opt("title", maybe(st.sampled_from(["t", "<script>x</script>", None])))
    return Call(cc.save, (chart, d.opt("path", maybe(good_paths, bad_paths))), kwargs, None, d.plan)


@st.composite
def report_call(draw, tmp):
    i = draw(example())
    d = Drawer(draw, ["charts", "path", "title"])
    charts = d.opt(
        "charts",
        maybe(
            st.sampled_from([_charts(i), [cc.roc_chart(i.points)]]),
            st.sampled_from([[], None, "chart", [{"not": "a spec"}], cc.roc_chart(i.points), [3]]),
        ),
    )
    path = d.opt(
        "path",
        maybe(
            st.just(tmp / "r.html"),
            st.sampled_from([tmp / "r.json", tmp / "no" / "r.html", tmp, 3]),
        ),
    )
    kwargs = {}
    if draw(st.booleans()):
        kwargs["title"] = d.opt("title", maybe(st.sampled_from(["report", "<b>x</b>"])))
    return Call(cc.report, (charts, path), kwargs, None, d.plan)


@st.composite
def palette_call(draw):
    i = draw(example())
    d = Drawer(draw, ["values", "colors"])
    good = st.sampled_from([i.points[i.by[0]], list(i.points[i.by[-1]]), [3, 1, 2], ["b", None, 1]])
    values = d.opt("values", maybe(good, st.sampled_from([None, 3, "abc", b"x", 2.5])))
    colors = maybe(st.sampled_from([None, {"a": "red"}]), st.sampled_from([["red"], {"a": 3}, 1]))
    kwargs = {"colors": d.opt("colors", colors)} if draw(st.booleans()) else {}
    return Call(cc.palette, (values,), kwargs, None, d.plan)


# -- the registry -------------------------------------------------------------------------------

CASES = {
    "roc_points": _raw_call(
        cc.roc_points,
        "raw",
        lambda i: {**_raw_options(i), "bins": maybe(st.sampled_from([None, 2, 5, 50]))},
        points_check(),
    ),
    "from_confusion": _raw_call(cc.from_confusion, "counts", _confusion_options, points_check()),
    "roc_hull": _table_call(cc.roc_hull, ["points", "lines"], points_check(_schema.HULL_COLUMNS)),
    "cheapest_regions": _table_call(
        cc.cheapest_regions, ["points", "lines", "hull"], _cheapest_check
    ),
    "to_cost_lines": _table_call(
        cc.to_cost_lines, ["points", "lines"], table_check(_schema.LINE_COLUMNS)
    ),
    "lower_envelope": _table_call(
        cc.lower_envelope, ["points", "lines", "envelope"], table_check(_schema.ENVELOPE_COLUMNS)
    ),
    "envelope_gap": _table_call(
        cc.envelope_gap, ["points", "lines"], table_check((_schema.GAP, _schema.PC))
    ),
    "operating_range": _table_call(
        cc.operating_range,
        ["points", "lines"],
        None,
        of=maybe(st.sampled_from(["lines", "envelope"])),
    ),
    "selection_table": _table_call(
        cc.selection_table, ["envelope", "points", "lines"], table_check(_schema.SELECTION_COLUMNS)
    ),
    "cost_at": cost_at_call,
    "expected_cost": _table_call(
        cc.expected_cost,
        ["envelope", "average"],
        _expected_cost_check,
        density=DENSITY,
    ),
    "expected_cost(points)": _table_call(
        cc.expected_cost,
        ["points", "lines"],
        points_check(extra=(_schema.EXPECTED_COST,)),
        density=DENSITY,
    ),
    "auc": _table_call(cc.auc, ["points", "lines", "rociv"], table_check((_schema.AUC,))),
    "vertical_average": _table_call(
        cc.vertical_average,
        ["envelope", "points", "lines"],
        table_check(_schema.AVERAGE_TABLE, nan_ok=(_schema.COST_SD,)),
        by=False,
        over=_over,
    ),
    "curve_points": _table_call(
        cc.curve_points,
        ["average", "envelope"],
        table_check((_schema.PC_LO, _schema.PC_HI, _schema.FPR, _schema.TPR)),
    ),
    "roc_average": _table_call(
        cc.roc_average,
        ["points"],
        table_check(_schema.ROC_AVERAGE_TABLE, nan_ok=(_schema.FPR_SD, _schema.TPR_SD)),
        by=False,
        over=_over,
        averaging=maybe(st.sampled_from(["vertical", "horizontal", "by_threshold"])),
        grid=maybe(st.sampled_from([None, [0.0, 0.5, 1.0], np.linspace(0, 1, 5)])),
    ),
    "compare": compare_call,
    "iso_performance": iso_performance_call,
    "neyman_pearson": _table_call(
        cc.neyman_pearson,
        ["points", "hull", "rociv"],
        table_check(CHOICE_TABLE, string_columns=CHOICE_TABLE[:1]),
        max_fpr=maybe(st.sampled_from([0.0, 0.3, 1.0])),
    ),
    "workforce": _table_call(
        cc.workforce,
        ["points", "rociv"],
        table_check(CHOICE_TABLE, string_columns=CHOICE_TABLE[:1]),
        capacity=maybe(st.sampled_from([0, 3, 2.5, 1000])),
    ),
    "performance_independent": performance_independent_call,
    "apply_selection": apply_selection_call,
    "bootstrap_band": bootstrap_band_call,
    "confusion_band": _raw_call(
        cc.confusion_band,
        "counts",  # no huge counts: an exact distribution of 1e9 counts is a sweep case
        lambda i: {
            **_confusion_options(i),
            "envelope": maybe(st.booleans()),
            **band_options(),
        },
        table_check(_schema.BAND_TABLE),
    ),
    "difference_band": difference_band_call,
    "cheapest_set": cheapest_set_call,
    "auc_ci": _raw_call(cc.auc_ci, "raw", _auc_ci_options, _check_auc_ci),
    "h_measure": _raw_call(cc.h_measure, "raw", _h_measure_options, _check_h_measure),
    "expected_loss": _raw_call(
        cc.expected_loss, "raw", _expected_loss_options, _check_expected_loss
    ),
    "expected_loss(points)": _table_call(
        cc.expected_loss,
        ["points", "lines"],
        _check_expected_loss,
        threshold_choice=maybe(
            st.sampled_from(["optimal", "rate_driven", ["rate_driven", "optimal"]])
        ),
        density=DENSITY,
    ),
    "rate_driven_curve": _table_call(
        cc.rate_driven_curve, ["points", "lines"], _check_rate_driven_curve
    ),
    "net_benefit": _raw_call(cc.net_benefit, "raw", _net_benefit_options, _check_net_benefit),
    "brier_curve": _raw_call(
        cc.brier_curve,
        "raw",
        lambda i: {
            "score": column("score"),
            "label": column("y"),
            "by": by_option(i.by),
            "pos_label": maybe(st.sampled_from([None, 1])),
        },
        lambda result: check_table(
            result.drop(columns="segment"), None, [_schema.PC, _schema.COST, _schema.THRESHOLD]
        ),
    ),
    "auc_test": auc_test_call,
    "rociv": _raw_call(
        cc.rociv, "raw", _rociv_options, points_check((_schema.FP_COST, _schema.TP_BENEFIT))
    ),
    "auciv": _raw_call(
        cc.auciv, "raw", lambda i: _rociv_options(i, bins=False), table_check((_schema.AUC,))
    ),
    "rociv_condition": _table_call(
        cc.rociv_condition, ["rociv", "points"], table_check((_schema.SLOPE, _schema.PC))
    ),
    "thin_points": _table_call(
        cc.thin_points,
        ["points", "lines"],
        _thin_points_check,
        max_points=maybe(st.sampled_from([2, 3, 50])),
    ),
    "band_at": band_at_call,
    "pr_points": _table_call(cc.pr_points, ["points"], points_check(("recall", "precision"))),
    "pr_curve": _table_call(
        cc.pr_curve,
        ["points"],
        _pr_curve_check,
        steps=maybe(st.sampled_from([0, 1, 5])),
    ),
    "pr_auc": _table_call(cc.pr_auc, ["points"], table_check(("average_precision", "pr_auc"))),
    "significant_regions": _table_call(
        cc.significant_regions,
        ["difference"],
        table_check((_schema.PC_LO, _schema.PC_HI, "cheaper"), string_columns=("cheaper",)),
        by=False,
        names=maybe(st.sampled_from([("x", "y"), None]), st.sampled_from(["xy", ("x",), 3])),
    ),
    "band_label": _table_call(cc.band_label, ["grouped_band", "difference"], None, by=False),
    "palette": palette_call,
    "costs_from_benefits": _raw_call(cc.costs_from_benefits, "raw", _benefit_options, _check_costs),
    "resample_classes": _raw_call(cc.resample_classes, "raw", _resample_options, _check_resampled),
    **{name: _conversion_call(name) for name in CONVERSIONS},
}
CHART_CASES = {
    "cost_chart": lambda: chart_call(cc.cost_chart, "points", **COST_CHART_OPTIONS),
    "roc_chart": lambda: chart_call(cc.roc_chart, "points", **ROC_CHART_OPTIONS),
    "decision_curve_chart": lambda: chart_call(
        cc.decision_curve_chart,
        "net_benefit",
        classifier=_group_option,
        facet=_group_option,
        show_band=maybe(st.booleans()),
        y_min=maybe(st.sampled_from([-0.05, -1.0]), st.sampled_from([math.nan, "0", 5.0])),
        size=SIZE,
        columns=COLUMNS,
        **LOOK_OPTIONS,
    ),
    "pr_chart": lambda: chart_call(
        cc.pr_chart,
        "points",
        classifier=_group_option,
        facet=_group_option,
        show_hull=maybe(st.booleans()),
        max_points=MAX_POINTS,
        size=SIZE,
        columns=COLUMNS,
        **LOOK_OPTIONS,
    ),
    "roc_cost_chart": lambda: chart_call(cc.roc_cost_chart, "points", **ROC_COST_OPTIONS),
    "threshold_choice_chart": lambda: chart_call(
        cc.threshold_choice_chart,
        "raw",
        required=("score", "label"),
        score=column("score"),
        label=column("y"),
        classifier=_group_option,
        facet=_group_option,
        columns=COLUMNS,
        pos_label=maybe(st.sampled_from([None, 1])),
        y_max=Y_MAX,
        max_points=MAX_POINTS,
        size=SIZE,
        **LOOK_OPTIONS,
    ),
    "band_chart": lambda: chart_call(
        cc.band_chart,
        "grouped_band",
        classifier=_group_option,
        facet=_group_option,
        y_max=Y_MAX,
        size=SIZE,
        columns=COLUMNS,
        band_label=maybe(st.sampled_from(["90 % band", None]), st.sampled_from(["", 3])),
        **LOOK_OPTIONS,
    ),
    "cheapest_set_chart": lambda: cheapest_set_call(chart=True),
    "difference_chart": lambda: chart_call(
        cc.difference_chart,
        "difference",
        facet=_group_option,
        size=SIZE,
        columns=COLUMNS,
        a=maybe("x", st.sampled_from(["", 3])),
        b=maybe("y"),
        required=("a", "b"),
        **LOOK_OPTIONS,
    ),
    "explorer": lambda: chart_call(
        cc.explorer,
        "points",
        classifier=_group_option,
        pc=maybe(st.sampled_from([0.0, 0.3, 1.0]), st.sampled_from([1.5, -0.1, "x", None])),
        controls=maybe(st.sampled_from(["pc", "costs"])),
        cost_ratio=maybe(st.sampled_from([0.5, 3.0]), st.sampled_from([0.0, 100.0, "x"])),
        p_pos=maybe(st.sampled_from([None, 0.2])),
        name=maybe(st.sampled_from(["costchart", "mine"]), st.sampled_from(["a b", "", 3])),
        max_points=MAX_POINTS,
        size=SIZE,
    ),
    "average_chart": lambda: chart_call(
        cc.average_chart,
        "points",
        required=("over",),
        over=lambda by: maybe(st.sampled_from([by[-1], by]), _by_junk(by)),
        classifier=_group_option,
        facet=_group_option,
        spread=maybe(st.sampled_from(["range", "sd"])),
        show_roc=maybe(st.booleans()),
        y_max=Y_MAX,
        size=SIZE,
        columns=COLUMNS,
        **LOOK_OPTIONS,
    ),
    **{
        f"layers.{name}": (lambda spec=spec: chart_call(spec[0], spec[1], **spec[2]))
        for name, spec in LAYER_CASES.items()
    },
    "layers (no table)": keyless_layer_call,
}


def _operating_range_check(call: Call):
    of = call.kwargs.get("of", "lines")
    if isinstance(of, str) and of == "envelope":
        return table_check((_schema.PC_LO, _schema.PC_HI), nan_ok=(_schema.PC_LO, _schema.PC_HI))
    columns = (_schema.THRESHOLD, _schema.FPR, _schema.TPR, _schema.PC_LO, _schema.PC_HI)
    return table_check(columns, nan_ok=(_schema.PC_LO, _schema.PC_HI))


@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
@SETTINGS
@given(data=st.data())
def test_functions(name, data):
    call = data.draw(CASES[name]())
    if name == "operating_range":
        call.check = _operating_range_check(call)
    run(call, name)


@pytest.mark.slow
@pytest.mark.parametrize("name", CHART_CASES)
@settings(SETTINGS, max_examples=12)
@given(data=st.data())
def test_charts(name, data):
    run(data.draw(CHART_CASES[name]()), name)


@pytest.mark.slow
@pytest.mark.parametrize("function", [save_call, report_call])
@settings(SETTINGS, max_examples=15)
@given(data=st.data())
def test_save(function, data, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fuzz")
    run(data.draw(function(tmp)), function.__name__)


def test_every_public_function_is_fuzzed():
    fuzzed = {name.split("(")[0].split(".")[0] for name in {*CASES, *CHART_CASES}}
    fuzzed |= {"save", "report", "layers"}
    # A chart in, its recorded tables out: test_chart_tables_refuses_what_is_not_a_chart
    fuzzed |= {"chart_tables"}
    # scikit-learn estimators in, checked with bad inputs in tests/test_estimators.py
    fuzzed |= {"predictions", "from_cv_results", "threshold_classifier", "expected_cost_scorer"}
    # Simulations of binormal test sets (parameters in, no table): tests/test_binormal.py
    fuzzed |= {"band_coverage", "difference_coverage", "coverage_grid", "coverage_chart"}
    # A report's Markdown text: fuzzed by hypothesis in tests/test_report_sections.py; the
    # offline notebook renderer takes no arguments (tests/test_notebook.py)
    fuzzed |= {"markdown", "enable_offline"}
    public = {
        n
        for n in cc.__all__
        if (callable(getattr(cc, n)) and not isinstance(getattr(cc, n), type)) or n == "layers"
    }
    assert public - fuzzed == set()
    layer_functions = {n for n in cc.layers.__all__ if callable(getattr(cc.layers, n))}
    keyless = {"pc_markers", "pc_labels", "trivial", "trivial_region", "zero_rule", "chance"}
    keyless |= {"key", "selections"}  # a legend of given entries; the selections themselves
    keyless |= {"shared_layer"}  # composes charts, no table of its own: tests/test_charts.py
    assert layer_functions - keyless - set(LAYER_CASES) == set()


@pytest.mark.parametrize("bad", [123, None, "chart", [1, 2], {"a": 1}])
def test_chart_tables_refuses_what_is_not_a_chart(bad):
    with pytest.raises(cc.CostchartError, match="chart_tables takes a chart as a costchart"):
        cc.chart_tables(bad)
