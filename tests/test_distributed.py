"""Distributed engines give the eager answers: PySpark in local mode, a Dask LocalCluster.

One Spark session and one Dask cluster per module (starting them is the slow part). Each
engine is checked equal to the same rows as eager pandas input for ``roc_points``,
``rociv``, ``bootstrap_band`` and ``bins=``; binned points are also checked to be exact
points of the full eager curve.
"""

import numpy as np
import pandas as pd
import pytest

import costchart as cc

pytestmark = [
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore::FutureWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]


@pytest.fixture(scope="module")
def dask_client():
    pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@pytest.fixture(scope="module")
def instances():
    rng = np.random.default_rng(11)
    n = 6000
    label = rng.random(n) < 0.3
    score = rng.normal(size=n) + label
    score[: n // 3] = np.round(score[: n // 3], 1)  # ties
    return pd.DataFrame(
        {
            "model": rng.choice(["tree", "logistic", "bayes"], n),
            "s": score,
            "y": label,
            "w": rng.uniform(0.5, 4, n),
        }
    )


def _to_engine(engine, frame, spark=None):
    if engine == "spark":
        return spark.createDataFrame(frame)
    import dask.dataframe as dd

    return dd.from_pandas(frame, npartitions=4)


@pytest.fixture(params=["spark", "dask"])
def engine(request):
    if request.param == "spark":
        session = request.getfixturevalue("spark")
        return lambda frame: _to_engine("spark", frame, session)
    request.getfixturevalue("dask_client")
    return lambda frame: _to_engine("dask", frame)


def _sorted(table):
    # Engines return groups in sorted order.
    return table.sort_values("model", kind="stable").reset_index(drop=True)


def _same(result, expected):
    result = result.copy()
    result["model"] = result["model"].astype(object)
    expected = _sorted(expected)
    expected["model"] = expected["model"].astype(object)
    pd.testing.assert_frame_equal(result, expected, check_exact=False, rtol=1e-12)


def test_roc_points_and_rociv_equal_eager(engine, instances):
    lazy = engine(instances)
    kwargs = {"score": "s", "label": "y", "by": "model"}
    _same(cc.roc_points(lazy, **kwargs), cc.roc_points(instances, **kwargs))
    _same(cc.roc_points(lazy, weight="w", **kwargs), cc.roc_points(instances, weight="w", **kwargs))
    _same(cc.rociv(lazy, amount="w", **kwargs), cc.rociv(instances, amount="w", **kwargs))


def test_bootstrap_band_equals_eager(engine, instances):
    # The exact bootstrap: the engine reads the same counts (a resampled band would draw
    # the groups in the engine's order).
    kwargs = {"score": "s", "label": "y", "by": "model", "pc": np.linspace(0, 1, 11)}
    kwargs["inference"] = "exact_bootstrap"
    _same(cc.bootstrap_band(engine(instances), **kwargs), cc.bootstrap_band(instances, **kwargs))


@pytest.mark.parametrize("bins", [10, 300])
def test_bins_equal_eager_bins_and_are_points_of_the_full_curve(engine, instances, bins):
    lazy = engine(instances)
    kwargs = {"score": "s", "label": "y", "by": "model"}
    binned = cc.roc_points(lazy, bins=bins, **kwargs)
    _same(binned, cc.roc_points(instances, bins=bins, **kwargs))
    weighted = cc.roc_points(lazy, bins=bins, weight="w", **kwargs)
    _same(weighted, cc.roc_points(instances, bins=bins, weight="w", **kwargs))
    _same(
        cc.rociv(lazy, bins=bins, amount="w", **kwargs),
        cc.rociv(instances, bins=bins, amount="w", **kwargs),
    )
    # Every binned point is a point of the full curve: same threshold, same counts.
    full = cc.roc_points(instances, **kwargs)
    keys = ["model", "threshold", "tp", "fp", "tn", "fn"]
    found = binned[keys].astype({"model": object}).merge(full[keys], how="left", indicator=True)
    assert (found["_merge"] == "both").all()
    assert (binned.groupby("model").size() <= bins + 1).all()


def test_bins_in_many_passes_equal_eager(engine, instances, monkeypatch):
    # Coarse cells force every finer pass and the fetch of distinct scores.
    from costchart._io import engine_bins as _engine_bins

    monkeypatch.setattr(_engine_bins, "CELLS", 4)
    monkeypatch.setattr(_engine_bins, "FINER", 4)
    monkeypatch.setattr(_engine_bins, "DETAIL", 100)
    kwargs = {"score": "s", "label": "y", "by": "model", "bins": 50}
    _same(cc.roc_points(engine(instances), **kwargs), cc.roc_points(instances, **kwargs))


def test_counts_past_32_bits(engine):
    # Spark counts and ranks in INT32, polars in UInt32: bins * above passes 2**32 here,
    # and the weights sum past 2**31 per score.
    frame = pd.DataFrame(
        {
            "model": ["a"] * 6 + ["b"] * 3,
            "s": [0.9, 0.8, 0.8, 0.5, 0.3, 0.1, 0.7, 0.7, 0.2],
            "y": [1, 0, 1, 1, 0, 0, 1, 0, 0],
            "w": [3e9, 2**31 + 1.0, 2**31 + 3.0, 1.0, 5e9, 7.0, 2.0, 3.0, 4e9],
        }
    )
    wraps = 858_993_460  # 5 * wraps > 2**32, 3 * wraps > 2**31
    lazy = engine(frame)
    kwargs = {"score": "s", "label": "y", "by": "model"}
    _same(cc.roc_points(lazy, bins=wraps, **kwargs), cc.roc_points(frame, bins=wraps, **kwargs))
    _same(
        cc.roc_points(lazy, weight="w", bins=3, **kwargs),
        cc.roc_points(frame, weight="w", bins=3, **kwargs),
    )


def test_spark_cells_are_int64(spark):
    import narwhals.stable.v2 as nw

    from costchart._io.engine_bins import cell_expression

    frame = spark.createDataFrame(pd.DataFrame({"s": [0.1, 0.5, 0.9], "n": [1, 2, 3]}))
    schema = frame.schema
    assert str(schema["n"].dataType) == "LongType()"
    cells = nw.from_native(frame).with_columns(
        cell_expression(nw, "s", 0.1, 4096 / 0.8).alias("cell")
    )
    assert cells.collect_schema()["cell"] == nw.Int64
    assert sorted(cells.collect().to_pandas()["cell"]) == [0, 2048, 4096]
