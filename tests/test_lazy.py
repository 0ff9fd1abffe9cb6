import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pytest

import costchart as cc
from costchart._io.lazy import is_lazy, per_score_table


@pytest.fixture
def instances(rng):
    n = 3000
    return pd.DataFrame(
        {
            "model": rng.choice(["tree", "logistic", "bayes"], n),
            "s": np.round(rng.normal(size=n), 1),  # many ties
            "y": rng.random(n) < 0.3,
            "amount": rng.uniform(0.5, 20, n),
        }
    )


def _lazy_frames(frame):
    """The same rows as a polars LazyFrame and as a DuckDB relation."""
    return {"polars": pl.from_pandas(frame).lazy(), "duckdb": duckdb.from_df(frame)}


def _by_group(table):
    # Lazy engines have no row order, so lazy results list groups in sorted order.
    return table.sort_values("model", kind="stable").reset_index(drop=True)


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_lazy_roc_points_equal_eager(instances, engine):
    lazy = _lazy_frames(instances)[engine]
    assert is_lazy(lazy)
    eager = cc.roc_points(instances, score="s", label="y", by="model")
    result = cc.roc_points(lazy, score="s", label="y", by="model")
    pd.testing.assert_frame_equal(result, _by_group(eager))
    assert result["tp"].dtype == np.int64


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_lazy_weighted_points_and_rociv_equal_eager(instances, engine):
    lazy = _lazy_frames(instances)[engine]
    for function, extra in (
        (cc.roc_points, {"weight": "amount"}),
        (cc.rociv, {"amount": "amount"}),
    ):
        eager = function(instances, score="s", label="y", by="model", **extra)
        result = function(lazy, score="s", label="y", by="model", **extra)
        # Sums of floats in another order differ in the last bits only.
        pd.testing.assert_frame_equal(result, _by_group(eager), check_exact=False, rtol=1e-12)


EXACT = {"inference": "exact_bootstrap"}


def test_lazy_band_equals_eager(instances):
    lazy = _lazy_frames(instances)["duckdb"]
    eager = cc.bootstrap_band(instances, score="s", label="y", by="model", pc=[0.2, 0.5], **EXACT)
    result = cc.bootstrap_band(lazy, score="s", label="y", by="model", pc=[0.2, 0.5], **EXACT)
    pd.testing.assert_frame_equal(result, _by_group(eager))


def test_only_the_per_score_table_reaches_python(instances):
    big = pd.concat([instances] * 20, ignore_index=True)
    aggregate = per_score_table(
        _lazy_frames(big)["duckdb"], score="s", label="y", by=["model"], amounts={"amount": False}
    )
    distinct = instances.groupby(["model", "s", "y"]).ngroups
    assert len(aggregate.table) == distinct < len(big) / 20
    assert aggregate.instances.sum() == len(big)
    assert aggregate.sums["amount"].sum() == pytest.approx(big["amount"].sum(), rel=1e-12)


def test_lazy_string_labels_need_pos_label():
    frame = pd.DataFrame({"s": [0.9, 0.4, 0.7, 0.1], "y": ["spam", "ham", "spam", "ham"]})
    lazy = pl.from_pandas(frame).lazy()
    with pytest.raises(cc.CostchartError, match=r"say which one is the positive class"):
        cc.roc_points(lazy, score="s", label="y")
    pd.testing.assert_frame_equal(
        cc.roc_points(lazy, score="s", label="y", pos_label="spam"),
        cc.roc_points(frame, score="s", label="y", pos_label="spam"),
    )


GOOD = {"s": [0.9, 0.4, 0.7, 0.1], "y": [1, 0, 1, 0], "w": [1.0, 2.0, 1.0, 3.0]}


@pytest.mark.parametrize(
    ("changes", "kwargs", "message"),
    [
        (
            {"s": [0.9, None, float("nan"), 0.1]},
            {},
            r"column 's' has 2 missing, NaN or infinite values; drop or impute them",
        ),
        (
            {"s": [0.9, float("inf"), 0.7, 0.1]},
            {},
            r"column 's' has 1 missing, NaN or infinite values",
        ),
        (
            {"s": ["a", "b", "c", "d"]},
            {},
            r"column 's' must hold numbers, but has dtype String; cast it first",
        ),
        (
            {"y": [1, None, 1, 0]},
            {},
            r"column 'y' has 1 missing values; drop those rows or fill in their labels",
        ),
        ({"y": [1, 2, 3, 0]}, {}, r"column 'y' must have two classes, but has 4 distinct values"),
        ({"y": [1, 1, 1, 1]}, {}, r"column 'y' has no negatives; ROC analysis needs both classes"),
        (
            {"w": [1.0, -2.0, 1.0, 3.0]},
            {"weight": "w"},
            r"column 'w' has negative values \(smallest -2\.0\); pass non-negative numbers",
        ),
        (
            {"w": [1.0, None, 1.0, 3.0]},
            {"weight": "w"},
            r"column 'w' has 1 missing values; drop or impute them",
        ),
        ({}, {"weight": "nope"}, r"data has no column 'nope'; available columns: 's', 'y', 'w'"),
    ],
)
def test_lazy_input_errors(changes, kwargs, message):
    lazy = pl.DataFrame({**GOOD, **changes}, strict=False).lazy()
    with pytest.raises(cc.CostchartError, match=message):
        cc.roc_points(lazy, score="s", label="y", **kwargs)


def test_lazy_rociv_refuses_costs_that_are_not_positive():
    lazy = duckdb.from_df(pd.DataFrame({**GOOD, "w": [1.0, 0.0, 2.0, 3.0]}))
    with pytest.raises(
        cc.CostchartError, match=r"column 'w' has values that are not positive \(smallest 0\.0\)"
    ):
        cc.rociv(lazy, score="s", label="y", amount="w")


def test_functions_of_instances_without_pushdown_name_the_fix():
    lazy = pl.DataFrame(GOOD).lazy().with_columns(model=pl.lit("a"), id=pl.int_range(4))
    with pytest.raises(
        cc.CostchartError,
        match=r"got LazyFrame \(a lazy frame: roc_points, rociv and bootstrap_band aggregate",
    ):
        cc.difference_band(lazy, score="s", label="y", classifier="model", instance="id")


def test_eager_frames_are_not_lazy():
    frame = pd.DataFrame(GOOD)
    for data in (frame, GOOD, pl.from_pandas(frame), pl.from_pandas(frame).to_arrow()):
        assert not is_lazy(data)


def test_lazy_group_of_zero_weights_is_left_out_with_a_warning():
    frame = pd.DataFrame(
        {"g": ["a"] * 4 + ["b"] * 4, "s": [0.9, 0.4, 0.7, 0.1] * 2, "y": [1, 0, 1, 0] * 2}
    ).assign(w=[1.0, 2.0, 1.0, 3.0, 0.0, 0.0, 0.0, 0.0])
    with pytest.warns(
        cc.CostchartWarning,
        match=r"group \{'g': 'b'\}: all weights in column 'w' are 0; it is left out",
    ):
        points = cc.roc_points(duckdb.from_df(frame), score="s", label="y", by="g", weight="w")
    assert set(points["g"]) == {"a"}


@pytest.mark.parametrize("bins", [None, 7])
def test_lazy_integer_and_boolean_scores(rng, bins):
    frame = pd.DataFrame(
        {"s": rng.integers(0, 50, 1000), "b": rng.random(1000) < 0.5, "y": rng.random(1000) < 0.4}
    )
    for lazy in _lazy_frames(frame).values():
        for score in ("s", "b"):
            pd.testing.assert_frame_equal(
                cc.roc_points(lazy, score=score, label="y", bins=bins),
                cc.roc_points(frame, score=score, label="y", bins=bins),
            )


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:Dask support is moving:FutureWarning")
@pytest.mark.parametrize("bins", [None, 20])
def test_dask_frames(instances, bins):
    # Dask has no rank window: with bins= its per-score table is binned in Python.
    dd = pytest.importorskip("dask.dataframe")
    lazy = dd.from_pandas(instances, npartitions=3)
    for function, extra in (
        (cc.roc_points, {}),
        (cc.roc_points, {"weight": "amount"}),
        (cc.rociv, {"amount": "amount"}),
    ):
        eager = _by_group(function(instances, score="s", label="y", by="model", bins=bins, **extra))
        result = function(lazy, score="s", label="y", by="model", bins=bins, **extra)
        # Dask keeps its own string dtype for the group column.
        result["model"] = result["model"].astype(eager["model"].dtype)
        pd.testing.assert_frame_equal(result, eager, check_exact=False, rtol=1e-12)


# Bins follow the eager rank rule ``above * bins // n``; the engine only counts cells of
# scores (costchart._io.engine_bins). Engines count in narrow types (polars UInt32, Spark
# INT32), so every product is taken in Python, in int64 or Python integers.
TIES = pd.DataFrame(
    {
        "g": ["a"] * 6 + ["b"] * 3,
        "s": [0.9, 0.8, 0.8, 0.5, 0.3, 0.1, 0.7, 0.7, 0.2],
        "y": [1, 0, 1, 1, 0, 0, 1, 0, 0],
    }
)


#: In UInt32, 5 * WRAPS wraps around to 4, putting the last score of group "a" in the
#: first score's bin; in INT32 (Spark) 3 * WRAPS already overflows.
WRAPS = 858_993_460


def _check_cell_dtype(native):
    import narwhals.stable.v2 as nw

    from costchart._io.engine_bins import cell_expression

    cells = cell_expression(nw, "s", 0.1, 4096 / 0.8).alias("cell")
    result = nw.from_native(native).with_columns(cells)
    assert result.collect_schema()["cell"] == nw.Int64
    collected = result.collect().to_pandas().sort_values("s")
    expected = np.floor(collected["s"] * (4096 / 0.8) - 0.1 * (4096 / 0.8))
    assert collected["cell"].tolist() == expected.astype(np.int64).tolist()


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_cells_are_int64_in_every_engine(engine):
    _check_cell_dtype(_lazy_frames(TIES)[engine])


@pytest.mark.filterwarnings("ignore:Dask support is moving:FutureWarning")
@pytest.mark.parametrize("engine", ["polars", "duckdb", "dask"])
def test_bins_past_two_to_the_32_equal_eager(engine):
    # UInt32 arithmetic wrapped above * bins around and merged the wrong scores.
    if engine == "dask":
        lazy = pytest.importorskip("dask.dataframe").from_pandas(TIES, npartitions=2)
    else:
        lazy = _lazy_frames(TIES)[engine]
    eager = cc.roc_points(TIES, score="s", label="y", by="g", bins=WRAPS)
    result = cc.roc_points(lazy, score="s", label="y", by="g", bins=WRAPS)
    result["g"] = result["g"].astype(eager["g"].dtype)
    pd.testing.assert_frame_equal(result, eager)
    pd.testing.assert_frame_equal(eager, cc.roc_points(TIES, score="s", label="y", by="g"))


@pytest.mark.slow  # five million rows
def test_five_million_lazy_rows_in_a_thousand_bins(rng):
    # The case of the report: 5M rows, bins=1000, so above * bins reaches 5e9 > 2**32.
    n = 5_000_000
    label = rng.random(n) < 0.3
    frame = pl.DataFrame({"s": rng.integers(0, 4000, n) + 800 * label, "y": label})
    eager = cc.roc_points(frame, score="s", label="y", bins=1000)
    result = cc.roc_points(frame.lazy(), score="s", label="y", bins=1000)
    assert len(result) == 1001
    pd.testing.assert_frame_equal(result, eager)


def test_rank_bins_of_groups_too_large_for_int64_products():
    from costchart._io.engine_bins import _rank_bin
    from costchart._roc.counting import bin_by_rank

    sizes = np.array([2**40, 3, 2**40 - 3, 7], dtype=np.int64)
    above = np.cumsum(sizes) - sizes
    n = np.full(4, int(sizes.sum()), dtype=np.int64)
    bins = 10**9  # n * bins > 2**63
    got = _rank_bin(above, n, bins)
    assert got.tolist() == [int(a) * bins // int(n[0]) for a in above]
    values, _ = bin_by_rank(np.arange(4.0)[::-1], sizes, [sizes], bins)
    assert len(values) == len(np.unique(got))


def _mixed_instances(rng, n=4000):
    """Distinct floats, heavy ties, a tiny group, a None key, weights."""
    label = rng.random(n) < 0.35
    score = rng.normal(size=n) + label
    score[: n // 4] = np.round(score[: n // 4], 1)  # ties
    model = rng.choice(np.array(["a", "b", "c"], dtype=object), n)
    model[:3] = "tiny"
    model[3:40] = None
    return pd.DataFrame(
        {"model": model, "s": score, "y": label, "w": rng.uniform(0, 3, n).round(1)}
    )


def _compare_binned(lazy, frame, bins):
    for function, extra in (
        (cc.roc_points, {}),
        (cc.roc_points, {"weight": "w"}),
        (cc.rociv, {"amount": "w"}),
    ):
        source = frame if function is cc.roc_points else frame[frame["w"] > 0]
        native = lazy(source)
        eager = function(source, score="s", label="y", by="model", bins=bins, **extra)
        eager = eager.sort_values("model", kind="stable", na_position="last")
        result = function(native, score="s", label="y", by="model", bins=bins, **extra)
        # Engines hand back their own string dtypes; the keys must match, not the dtype.
        result["model"] = result["model"].astype(object).where(result["model"].notna(), None)
        eager["model"] = eager["model"].astype(object).where(eager["model"].notna(), None)
        pd.testing.assert_frame_equal(
            result, eager.reset_index(drop=True), check_exact=False, rtol=1e-12
        )


def _dask(frame):
    return pytest.importorskip("dask.dataframe").from_pandas(frame, npartitions=3)


ENGINES = {
    "polars": lambda frame: pl.from_pandas(frame).lazy(),
    "duckdb": duckdb.from_df,
    "dask": _dask,
}


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:Dask support is moving:FutureWarning")
@pytest.mark.parametrize("engine", ["polars", "duckdb", "dask"])
@pytest.mark.parametrize(
    ("cells", "finer", "detail", "levels", "group_filters"),
    [
        (4096, 64, 200_000, 6, 32),  # the defaults: one pass at this size
        (4, 2, 0, 3, 32),  # every level, then distinct scores
        (2, 2, 0, 12, 1),  # finest levels, one filter for all groups
        (8, 4, 50, 6, 32),  # distinct scores once few instances remain
    ],
)
def test_engine_bins_equal_eager_bins_through_every_pass(
    rng, monkeypatch, engine, cells, finer, detail, levels, group_filters
):
    from costchart._io import engine_bins as _engine_bins

    for name, value in (
        ("CELLS", cells),
        ("FINER", finer),
        ("DETAIL", detail),
        ("LEVELS", levels),
        ("GROUP_FILTERS", group_filters),
    ):
        monkeypatch.setattr(_engine_bins, name, value)
    if engine == "dask" and cells != 4:
        pytest.skip("Dask runs the same group-bys; one setting suffices (each pass is slow)")
    frame = _mixed_instances(rng, 4000 if engine != "dask" else 1500)
    for bins in (1, 7, 100, 5000) if engine != "dask" else (7, 100):
        _compare_binned(ENGINES[engine], frame, bins)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_engine_bins_of_integers_beyond_float_precision(monkeypatch, engine):
    # Distinct int64 scores that float64 rounds together: no cell can part them, so
    # their distinct scores are fetched.
    from costchart._io import engine_bins as _engine_bins

    monkeypatch.setattr(_engine_bins, "DETAIL", 0)
    base = 2**60
    frame = pd.DataFrame(
        {"model": "m", "s": base + np.arange(40, dtype=np.int64), "y": np.arange(40) % 3 == 0}
    )
    frame.loc[39, "s"] = -base
    frame["w"] = 1.0
    _compare_binned(ENGINES[engine], frame, 6)


def test_engine_bins_fall_back_when_a_pass_disagrees(rng, monkeypatch):
    # An engine that put a row in another cell on the second pass: the cells' counts no
    # longer add up, so every distinct score is counted instead; still the eager bins.
    from costchart._io import engine_bins as _engine_bins
    from costchart._io import lazy as _lazy

    monkeypatch.setattr(_engine_bins, "CELLS", 4)
    aggregate = _lazy._aggregate

    def dropping_a_row(nw, frame, schema, amounts, keys, helpers=(), extra=()):
        table = aggregate(nw, frame, schema, amounts, keys, helpers, extra)
        return table.iloc[1:] if _engine_bins.PARENT in keys else table

    monkeypatch.setattr(_lazy, "_aggregate", dropping_a_row)
    frame = _mixed_instances(rng)
    _compare_binned(ENGINES["duckdb"], frame, 50)


@pytest.mark.parametrize("extreme", [1e308, 5e-324])
def test_engine_bins_of_extreme_ranges(extreme):
    scores = [-extreme, -extreme / 2, 0.0, extreme / 3, extreme / 2, extreme]
    frame = pd.DataFrame({"model": "m", "s": scores * 3, "y": [0, 1, 1] * 6, "w": 1.0})
    _compare_binned(ENGINES["duckdb"], frame, 4)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_spark_ranks_widen_before_binning(spark):
    # Spark ranks in INT32: above * bins raised ARITHMETIC_OVERFLOW.
    native = spark.createDataFrame(TIES)
    _check_cell_dtype(native)
    eager = cc.roc_points(TIES, score="s", label="y", by="g", bins=WRAPS)
    result = cc.roc_points(native, score="s", label="y", by="g", bins=WRAPS)
    pd.testing.assert_frame_equal(result, eager)
    weighted = TIES.assign(w=np.arange(1.0, 10.0))
    pd.testing.assert_frame_equal(
        cc.rociv(spark.createDataFrame(weighted), score="s", label="y", by="g", amount="w", bins=3),
        cc.rociv(weighted, score="s", label="y", by="g", amount="w", bins=3),
    )


@pytest.mark.parametrize("bins", [None, 3])
def test_lazy_weights_all_zero_or_no_rows(bins):
    zero = pl.DataFrame({**GOOD, "w": [0.0] * 4}).lazy()
    message = (
        r"all weights in column 'w' are 0; ROC analysis needs positive weights"
        if bins is None  # binning drops rows of weight 0 in the engine
        else r"data has no rows of weight above 0 in column 'w'"
    )
    with pytest.raises(cc.CostchartError, match=message):
        cc.roc_points(zero, score="s", label="y", weight="w", bins=bins)
    rows = "rows" if bins is None else "rows of weight above 0 in column 'w'"
    for empty in (pl.DataFrame(GOOD).lazy().head(0), duckdb.from_df(pd.DataFrame(GOOD)).limit(0)):
        with pytest.raises(
            cc.CostchartError,
            match=rf"^data has no {rows}; ROC analysis needs scored instances of both classes$",
        ):
            cc.roc_points(empty, score="s", label="y", weight="w", bins=bins)
        with pytest.raises(cc.CostchartError, match=r"^data has no rows;"):
            cc.rociv(empty, score="s", label="y", amount="w", bins=bins)


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_lazy_sums_that_overflow_are_told_from_bad_values(engine):
    huge = pd.DataFrame({"s": [0.9, 0.9, 0.3, 0.3], "y": [1, 1, 0, 0], "w": [1e308] * 4})
    lazy = _lazy_frames(huge)[engine]
    with pytest.raises(
        cc.CostchartError,
        match=r"the values in column 'w' sum to more than the largest float64 \(about "
        r"1\.8e\+308\); divide them by a constant \(the rates do not change\)",
    ):
        cc.roc_points(lazy, score="s", label="y", weight="w")
    bad = _lazy_frames(huge.assign(w=[1.0, np.inf, 1.0, -np.inf]))[engine]
    with pytest.raises(
        cc.CostchartError, match=r"column 'w' has 2 NaN or infinite values; pass finite numbers"
    ):
        cc.rociv(bad, score="s", label="y", amount="w")
    # Each sum finite, the class total not: refused by the counting, not NaN rates.
    spread = _lazy_frames(huge.assign(s=[0.9, 0.8, 0.3, 0.2]))[engine]
    with pytest.raises(
        cc.CostchartError,
        match=r"the weights in column 'w' of the positives sum to more than the largest float64",
    ):
        cc.roc_points(spread, score="s", label="y", weight="w")
