import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pytest

import costchart as cc
from costchart._lazy import is_lazy, per_score_table


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
    for function, extra in ((cc.roc_points, {"weight": "amount"}), (cc.rociv, {"cost": "amount"})):
        eager = function(instances, score="s", label="y", by="model", **extra)
        result = function(lazy, score="s", label="y", by="model", **extra)
        # Sums of floats in another order differ in the last bits only.
        pd.testing.assert_frame_equal(result, _by_group(eager), check_exact=False, rtol=1e-12)


def test_lazy_band_equals_eager(instances):
    lazy = _lazy_frames(instances)["duckdb"]
    eager = cc.bootstrap_band(instances, score="s", label="y", by="model", pc=[0.2, 0.5])
    result = cc.bootstrap_band(lazy, score="s", label="y", by="model", pc=[0.2, 0.5])
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
        cc.rociv(lazy, score="s", label="y", cost="w")


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


@pytest.mark.filterwarnings("ignore:Dask support is moving:FutureWarning")
@pytest.mark.parametrize("bins", [None, 20])
def test_dask_frames(instances, bins):
    # Dask has no rank window: with bins= its per-score table is binned in Python.
    dd = pytest.importorskip("dask.dataframe")
    lazy = dd.from_pandas(instances, npartitions=3)
    for function, extra in (
        (cc.roc_points, {}),
        (cc.roc_points, {"weight": "amount"}),
        (cc.rociv, {"cost": "amount"}),
    ):
        eager = _by_group(function(instances, score="s", label="y", by="model", bins=bins, **extra))
        result = function(lazy, score="s", label="y", by="model", bins=bins, **extra)
        # Dask keeps its own string dtype for the group column.
        result["model"] = result["model"].astype(eager["model"].dtype)
        pd.testing.assert_frame_equal(result, eager, check_exact=False, rtol=1e-12)


# Bins are computed in the engine as ``above * bins // n``. Engines rank and count in
# narrow types (polars UInt32, Spark INT32), so the product must be widened first.
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


def _expected_bins(frame, bins):
    above = frame.groupby("g")["s"].rank(method="min", ascending=False).astype(np.int64) - 1
    size = frame.groupby("g")["s"].transform("size").astype(np.int64)
    return [int(a) * bins // int(n) for a, n in zip(above, size, strict=True)]


def _check_bin_dtypes(native, frame):
    import narwhals.stable.v2 as nw

    from costchart._lazy import BIN, _bin_expression, _rank_and_size

    above, size = _rank_and_size(nw, "s", ["g"])
    bins = WRAPS
    result = nw.from_native(native).with_columns(
        above.alias("above"), size.alias("size"), _bin_expression(nw, "s", ["g"], bins)
    )
    schema = result.collect_schema()
    assert (schema["above"], schema["size"], schema[BIN]) == (nw.Int64, nw.Int64, nw.Int64)
    collected = result.collect().to_pandas().sort_values(["g", "s"], ascending=[True, False])
    expected = frame.sort_values(["g", "s"], ascending=[True, False])
    assert collected[BIN].tolist() == _expected_bins(expected, bins)


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_bin_arithmetic_is_int64_in_every_engine(engine):
    _check_bin_dtypes(_lazy_frames(TIES)[engine], TIES)


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


def test_five_million_lazy_rows_in_a_thousand_bins(rng):
    # The case of the report: 5M rows, bins=1000, so above * bins reaches 5e9 > 2**32.
    n = 5_000_000
    label = rng.random(n) < 0.3
    frame = pl.DataFrame({"s": rng.integers(0, 4000, n) + 800 * label, "y": label})
    eager = cc.roc_points(frame, score="s", label="y", bins=1000)
    result = cc.roc_points(frame.lazy(), score="s", label="y", bins=1000)
    assert len(result) == 1001
    pd.testing.assert_frame_equal(result, eager)


def test_bins_too_many_for_int64_are_refused():
    from costchart._lazy import INSTANCES, _check_bin_arithmetic

    table = pd.DataFrame({"g": ["a", "a", "b"], INSTANCES: [2**39, 2**39, 5]})
    _check_bin_arithmetic(table, ["g"], 8_388_607)  # 2**40 * bins < 2**63
    with pytest.raises(
        cc.CostchartError,
        match=r"bins=8,388,608 is too many for a group of 1,099,511,627,776 instances "
        r"\(the bin arithmetic would overflow 64-bit integers\); pass bins= at most 8,388,607",
    ):
        _check_bin_arithmetic(table, ["g"], 8_388_608)


def _java_runs() -> bool:
    import shutil
    import subprocess

    java = shutil.which("java")
    if java is None:
        return False
    return subprocess.run([java, "-version"], capture_output=True, check=False).returncode == 0


@pytest.fixture(scope="module")
def spark():
    pytest.importorskip("pyspark")
    if not _java_runs():
        pytest.skip("PySpark needs Java (a JRE, e.g. Debian's default-jre-headless)")
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[1]")
        .appName("costchart-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.sql.ansi.enabled", "true")  # overflow raises instead of wrapping
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_spark_ranks_widen_before_binning(spark):
    # Spark ranks in INT32: above * bins raised ARITHMETIC_OVERFLOW.
    native = spark.createDataFrame(TIES)
    _check_bin_dtypes(native, TIES)
    eager = cc.roc_points(TIES, score="s", label="y", by="g", bins=WRAPS)
    result = cc.roc_points(native, score="s", label="y", by="g", bins=WRAPS)
    pd.testing.assert_frame_equal(result, eager)
    weighted = TIES.assign(w=np.arange(1.0, 10.0))
    pd.testing.assert_frame_equal(
        cc.rociv(spark.createDataFrame(weighted), score="s", label="y", by="g", cost="w", bins=3),
        cc.rociv(weighted, score="s", label="y", by="g", cost="w", bins=3),
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
            cc.rociv(empty, score="s", label="y", cost="w", bins=bins)


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
        cc.rociv(bad, score="s", label="y", cost="w")
    # Each sum finite, the class total not: refused by the counting, not NaN rates.
    spread = _lazy_frames(huge.assign(s=[0.9, 0.8, 0.3, 0.2]))[engine]
    with pytest.raises(
        cc.CostchartError,
        match=r"the weights in column 'w' of the positives sum to more than the largest float64",
    ):
        cc.roc_points(spread, score="s", label="y", weight="w")
