"""Issue 31, items 2 and 3: input kinds (repeated column names, wide integers) and weights.

A column name repeated in a frame is refused where a call reads it and ignored elsewhere,
for pandas, pyarrow and lazy frames alike; 128-bit integers and decimals are read exactly
or refused naming the column; weights are counted, never expanded into rows, and
``h_measure`` and ``threshold_choice_chart`` honour them as repeated rows would.
"""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._io.errors import CostchartError

pa = pytest.importorskip("pyarrow")
pl = pytest.importorskip("polars")


def _data(n: int = 40, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "s": rng.integers(0, 11, n) / 10,
            "y": np.tile([0, 1], n // 2),
            "w": rng.integers(0, 4, n),
            "m": rng.choice(["a", "b"], n),
        }
    )


def _arrow(frame: pd.DataFrame, names: list[str]) -> pa.Table:
    """A pyarrow table of ``frame``'s columns by position, under ``names`` (may repeat)."""
    return pa.table([pa.array(frame.iloc[:, k].tolist()) for k in range(frame.shape[1])], names)


def _repeated(frame: pd.DataFrame, weight: str = "w") -> pd.DataFrame:
    return frame.loc[frame.index.repeat(frame[weight])].reset_index(drop=True)


CALLS = {
    "roc_points": lambda d: cc.roc_points(d, score="s", label="y"),
    "auc_ci": lambda d: cc.auc_ci(d, score="s", label="y"),
    "h_measure": lambda d: cc.h_measure(d, score="s", label="y"),
    "expected_loss": lambda d: cc.expected_loss(d, score="s", label="y"),
    "bootstrap_band": lambda d: cc.bootstrap_band(d, score="s", label="y", pc=[0.3, 0.6], rng=0),
    "brier_curve": lambda d: cc.brier_curve(d, score="s", label="y", pc=[0.3, 0.6]),
}


@pytest.mark.parametrize("call", list(CALLS))
def test_a_repeated_name_the_call_reads_is_refused_naming_it(call):
    frame = _data()[["s", "y", "w"]]
    table = _arrow(frame, ["s", "y", "s"])
    with pytest.raises(CostchartError, match=r"data has more than one column named 's'; rename"):
        CALLS[call](table)
    with pytest.raises(CostchartError, match=r"data has more than one column named 's'; rename"):
        CALLS[call](pd.concat([frame[["s", "y"]], frame[["w"]].set_axis(["s"], axis=1)], axis=1))


@pytest.mark.parametrize("call", list(CALLS))
def test_a_repeated_name_the_call_does_not_read_is_ignored(call):
    frame = _data()
    expected = CALLS[call](frame[["s", "y"]])
    extra = frame[["s", "y", "m", "w"]].assign(w2=frame["w"])
    arrow = _arrow(extra, ["s", "y", "note", "note", "w"])
    pandas = extra.set_axis(["s", "y", "note", "note", "w"], axis=1)
    for data in (arrow, pandas):
        # The text columns are read by position: the warning names 'note' once.
        with pytest.warns(cc.CostchartWarning, match=r"text or categorical columns \('note'\) "):
            result = CALLS[call](data)
        pd.testing.assert_frame_equal(result, expected)


def test_lazy_frames_refuse_a_repeated_name_they_read():
    duckdb = pytest.importorskip("duckdb")
    both = duckdb.sql("select 0.5::DOUBLE as s, 1 as y, 2 as s union all select 0.2, 0, 3")
    with pytest.raises(CostchartError, match=r"more than one column named 's'"):
        cc.roc_points(both, score="s", label="y")
    other = duckdb.sql(
        "select 0.5::DOUBLE as s, 1 as y, 2 as z, 3 as z union all select 0.2, 0, 3, 4"
    )
    points = cc.roc_points(other, score="s", label="y")
    assert points["tpr"].tolist() == [0.0, 1.0, 1.0] and points["fpr"].tolist() == [0.0, 0.0, 1.0]


BIG = 2**53
SCORES = [BIG + 1, BIG, BIG + 3, BIG + 2]
LABELS = [1, 0, 1, 0]


@pytest.mark.parametrize("dtype", ["Int128", "UInt128"])
@pytest.mark.parametrize("lazy", [False, True])
def test_polars_128_bit_scores_are_read_exactly(dtype, lazy):
    frame = pl.DataFrame({"s": pl.Series(SCORES).cast(getattr(pl, dtype)), "y": LABELS})
    points = cc.roc_points(frame.lazy() if lazy else frame, score="s", label="y")
    assert points["threshold"].tolist()[1:] == sorted(SCORES, reverse=True)
    assert points["tpr"].tolist() == [0.0, 0.5, 0.5, 1.0, 1.0]
    assert points["fpr"].tolist() == [0.0, 0.0, 0.5, 0.5, 1.0]


def test_128_bit_labels_and_weights_are_read():
    frame = pl.DataFrame(
        {
            "s": [0.1, 0.5, 0.3, 0.2],
            "y": pl.Series(LABELS, dtype=pl.Int128),
            "w": pl.Series([1, 2, 1, 3], dtype=pl.Int128),
        }
    )
    plain = frame.with_columns(pl.col("y", "w").cast(pl.Int64))
    expected = cc.roc_points(plain, score="s", label="y", weight="w")
    got = cc.roc_points(frame, score="s", label="y", weight="w")
    pd.testing.assert_frame_equal(got, expected, check_dtype=False)


def test_integers_beyond_64_bits_are_counted_exactly():
    # Ranked exactly once at the edge; the thresholds are the exact integers (issue 31,
    # item 4: exact rather than refused).
    huge = [2**70 + k for k in (1, 0, 3, 2)]
    for data in (
        pl.DataFrame({"s": pl.Series(huge, dtype=pl.Int128), "y": LABELS}),
        pl.LazyFrame({"s": pl.Series(huge, dtype=pl.Int128), "y": LABELS}),
        pd.DataFrame({"s": pd.Series(huge, dtype=object), "y": LABELS}),
        {"s": huge, "y": LABELS},
    ):
        points = cc.roc_points(data, score="s", label="y")
        assert points["threshold"].tolist()[1:] == sorted(huge, reverse=True)
        assert points["tpr"].tolist() == [0.0, 0.5, 0.5, 1.0, 1.0]
        assert points["fpr"].tolist() == [0.0, 0.0, 0.5, 0.5, 1.0]


@pytest.mark.parametrize(
    "data",
    [
        pd.DataFrame({"s": pd.Series(SCORES, dtype=object), "y": LABELS}),
        pa.table({"s": pa.array([Decimal(v) for v in SCORES], pa.decimal128(38, 0)), "y": LABELS}),
        pl.DataFrame({"s": pl.Series(SCORES, dtype=pl.Decimal(38, 0)), "y": LABELS}),
    ],
    ids=["object", "pyarrow-decimal", "polars-decimal"],
)
def test_whole_objects_and_decimals_stay_exact(data):
    points = cc.roc_points(data, score="s", label="y")
    assert points["threshold"].tolist()[1:] == sorted(SCORES, reverse=True)
    assert len(points) == 5  # float64 would tie 2**53 and 2**53 + 1


def test_lazy_decimal_and_wide_scores_stay_exact():
    lazy = pl.LazyFrame({"s": pl.Series(SCORES, dtype=pl.Decimal(38, 0)), "y": LABELS})
    points = cc.roc_points(lazy, score="s", label="y")
    assert points["threshold"].tolist()[1:] == sorted(SCORES, reverse=True)
    wide = [2**70 + k for k in range(4)]
    huge = pl.LazyFrame({"s": pl.Series(wide, dtype=pl.Int128), "y": LABELS})
    points = cc.roc_points(huge, score="s", label="y")
    assert points["threshold"].tolist()[1:] == sorted(wide, reverse=True)
    assert cc.auc(points)["auc"].item() == 0.25  # labels 1, 0, 1, 0 on rising scores


def test_decimals_float64_cannot_tell_apart_are_refused():
    data = pd.DataFrame({"s": [Decimal("0.10000000000000000001"), Decimal("0.1")], "y": [1, 0]})
    with pytest.raises(CostchartError, match=r"column 's' holds 2 distinct numbers, but only 1"):
        cc.roc_points(data, score="s", label="y")
    fine = pd.DataFrame({"s": [Decimal("0.25"), Decimal("0.5")], "y": [1, 0]})
    assert cc.roc_points(fine, score="s", label="y")["threshold"].tolist() == [np.inf, 0.5, 0.25]


# weights ----------------------------------------------------------------------------------


def _paired(n: int = 30, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = np.tile([0, 1], n // 2)
    w = rng.integers(0, 4, n)
    w[:4] = [1, 2, 1, 3]
    return pd.DataFrame(
        {
            "m": ["a"] * n + ["b"] * n,
            "i": np.r_[np.arange(1, n + 1), np.arange(1, n + 1)],
            "y": np.r_[y, y],
            "s": rng.integers(0, 11, 2 * n) / 10,
            "w": np.r_[w, w],
        }
    )


def _paired_repeated(frame: pd.DataFrame, weight: str) -> pd.DataFrame:
    copies = frame.loc[frame.index.repeat(frame[weight])].copy()
    copies["i"] = copies["i"].astype(str) + "_" + copies.groupby(["m", "i"]).cumcount().astype(str)
    return copies.reset_index(drop=True)


PAIRED = {"score": "s", "label": "y", "classifier": "m", "instance": "i"}


@pytest.mark.parametrize("weight", ["w", "i"])
def test_auc_test_weights_equal_repeated_instances(weight):
    frame = _paired()
    weighted = cc.auc_test(frame, weight=weight, **PAIRED)
    repeated = cc.auc_test(_paired_repeated(frame, weight), **PAIRED)
    np.testing.assert_allclose(weighted.to_numpy(), repeated.to_numpy(), rtol=0, atol=1e-12)


def test_auc_test_counts_large_weights_without_repeating_rows():
    frame = _paired().assign(w=1)
    once = cc.auc_test(frame, weight="w", **PAIRED)
    thousand = cc.auc_test(frame.assign(w=1000), weight="w", **PAIRED)
    repeated = cc.auc_test(_paired_repeated(frame.assign(w=1000), "w"), **PAIRED)
    np.testing.assert_allclose(thousand.to_numpy(), repeated.to_numpy(), rtol=1e-12, atol=1e-12)
    huge = cc.auc_test(frame.assign(w=10**9), weight="w", **PAIRED)  # 6e10 rows if repeated
    np.testing.assert_allclose(huge[["auc_a", "auc_b"]], once[["auc_a", "auc_b"]], atol=1e-12)
    # Each class's placement variance (ddof=1) over n copies shrinks as 1 / (k n - 1):
    # by about 1e9 from k = 1 to k = 1e9, so the standard error by about sqrt(1e9).
    assert 0 < huge["se"].iat[0] < once["se"].iat[0] / 3e4


@pytest.mark.parametrize("severity_ratio", [None, 2.0, -1.0])
def test_h_measure_weights_equal_repeated_rows(severity_ratio):
    frame = _data(60, seed=2)
    common = {"score": "s", "label": "y", "by": "m", "severity_ratio": severity_ratio}
    weighted = cc.h_measure(frame, weight="w", **common)
    repeated = cc.h_measure(_repeated(frame), **common)
    pd.testing.assert_frame_equal(weighted, repeated, check_exact=False, rtol=0, atol=1e-12)
    assert not np.allclose(weighted["h_measure"], cc.h_measure(frame, **common)["h_measure"])


def test_h_measure_refuses_bad_weights_as_roc_points_does():
    frame = _data().assign(w=-1.0)
    with pytest.raises(CostchartError, match=r"column 'w' has 40 negative values"):
        cc.h_measure(frame, score="s", label="y", weight="w")


def test_threshold_choice_chart_weights_equal_repeated_rows():
    frame = _data(60, seed=3)
    weighted = cc.threshold_choice_chart(frame, score="s", label="y", weight="w", classifier="m")
    repeated = cc.threshold_choice_chart(_repeated(frame), score="s", label="y", classifier="m")
    drawn, expected = cc.chart_tables(weighted), cc.chart_tables(repeated)
    assert list(drawn) == list(expected)
    for name, table in drawn.items():
        pd.testing.assert_frame_equal(
            table,
            expected[name],
            check_exact=False,
            check_dtype=False,  # weighted counts are float64
            rtol=0,
            atol=1e-12,
            obj=name,
        )
    losses = drawn["expected_loss"]["expected_loss"].to_numpy()
    unweighted = cc.expected_loss(
        cc.roc_points(frame, score="s", label="y", by="m"),
        threshold_choice=["optimal", "score_driven", "rate_driven"],
    )
    assert not np.allclose(losses, unweighted["expected_loss"].to_numpy())


def test_auc_test_refuses_weights_whose_total_overflows():
    frame = _paired().assign(w=1e308)
    with pytest.raises(CostchartError, match=r"weight= column 'w' sums to more than the largest"):
        cc.auc_test(frame, weight="w", **PAIRED)


@pytest.mark.parametrize("weight", [1e200, 1e300])
def test_hulls_of_huge_weights_are_the_hulls_of_the_rates(weight):
    # Turns of counts near 1e154 overflowed float64: the hull lost a corner and
    # h_measure came out 0.259 for 0.279.
    frame = _data(40, seed=4)
    common = {"score": "s", "label": "y", "by": "m"}
    once = cc.roc_hull(cc.roc_points(frame.assign(w=1), weight="w", **common))
    huge = cc.roc_hull(cc.roc_points(frame.assign(w=weight), weight="w", **common))
    np.testing.assert_allclose(huge[["fpr", "tpr"]], once[["fpr", "tpr"]], rtol=0, atol=1e-12)
    h_once = cc.h_measure(frame, **common)["h_measure"]
    h_huge = cc.h_measure(frame.assign(w=weight), weight="w", **common)["h_measure"]
    np.testing.assert_allclose(h_huge, h_once, rtol=0, atol=1e-12)
