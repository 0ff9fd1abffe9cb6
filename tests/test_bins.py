"""roc_points(bins=) and envelope_gap: binned curves are exact points, with a bounded envelope."""

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import scored_instances

import costchart as cc


def _data(rng, n=5000, decimals=2):
    label = rng.random(n) < 0.3
    return pd.DataFrame(
        {
            "model": rng.choice(["a", "b"], n),
            "s": np.round(rng.normal(size=n) + label, decimals),
            "y": label,
            "w": rng.uniform(0.1, 5, n),
        }
    )


@pytest.mark.parametrize("weight", [None, "w"])
def test_binned_points_are_exact_points_of_the_full_curve(rng, weight):
    data = _data(rng)
    full = cc.roc_points(data, score="s", label="y", by="model", weight=weight)
    binned = cc.roc_points(data, score="s", label="y", by="model", weight=weight, bins=20)
    assert binned.groupby("model").size().max() <= 21
    assert len(binned) < len(full)
    merged = binned.merge(full, on=["model", "threshold"], suffixes=("", "_full"))
    assert len(merged) == len(binned)  # every binned threshold is a distinct score
    # Counts are exact; sums of float weights differ only by summation order.
    tolerance = 0 if weight is None else 1e-12
    for column in ("tp", "fp", "tn", "fn", "tpr", "fpr"):
        np.testing.assert_allclose(merged[column], merged[f"{column}_full"], rtol=tolerance)


def test_bins_hold_equal_numbers_of_distinct_scores():
    data = {"s": np.arange(1000.0), "y": np.arange(1000) % 3 == 0}
    binned = cc.roc_points(data, score="s", label="y", bins=10)
    np.testing.assert_array_equal((binned.tp + binned.fp).to_numpy(), np.arange(0, 1001, 100))
    assert binned.threshold.tolist()[1:] == [900.0 - 100 * k for k in range(10)]


def test_a_bin_never_splits_a_tie():
    # 1,000 instances in bins of 100, but 600 of them share one score: that bin keeps all 600.
    scores = np.concatenate([np.arange(200.0), np.full(600, 500.0), np.arange(600.0, 800.0)])
    data = {"s": scores, "y": np.arange(1000) % 2 == 0}
    binned = cc.roc_points(data, score="s", label="y", bins=10)
    assert np.diff((binned.tp + binned.fp).to_numpy()).tolist() == [100, 100, 600, 100, 100]
    assert binned.threshold.tolist()[1:] == [700.0, 600.0, 500.0, 100.0, 0.0]


def test_bins_at_least_the_distinct_scores_change_nothing(rng):
    data = _data(rng, n=500, decimals=1)
    full = cc.roc_points(data, score="s", label="y", by="model")
    pd.testing.assert_frame_equal(
        cc.roc_points(data, score="s", label="y", by="model", bins=10**6), full
    )


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_lazy_binning_equals_eager_binning(rng, engine):
    data = _data(rng, decimals=3)
    lazy = pl.from_pandas(data).lazy() if engine == "polars" else duckdb.from_df(data)
    for function, extra in (
        (cc.roc_points, {}),
        (cc.roc_points, {"weight": "w"}),
        (cc.rociv, {"amount": "w"}),
    ):
        eager = function(data, score="s", label="y", by="model", bins=50, **extra)
        eager = eager.sort_values("model", kind="stable").reset_index(drop=True)
        result = function(lazy, score="s", label="y", by="model", bins=50, **extra)
        pd.testing.assert_frame_equal(result, eager, check_exact=False, rtol=1e-12)


def test_instances_of_weight_zero_do_not_count_in_bins(rng):
    data = _data(rng, n=2000, decimals=3)
    data.loc[data.index % 3 == 0, "w"] = 0.0
    kept = data[data.w > 0]
    expected = cc.roc_points(kept, score="s", label="y", by="model", weight="w", bins=25)
    expected = expected.sort_values("model", kind="stable").reset_index(drop=True)
    for source in (data, duckdb.from_df(data)):
        result = cc.roc_points(source, score="s", label="y", by="model", weight="w", bins=25)
        result = result.sort_values("model", kind="stable").reset_index(drop=True)
        pd.testing.assert_frame_equal(result, expected, check_exact=False, rtol=1e-12)


def test_lazy_binning_counts_bad_scores():
    lazy = pl.DataFrame(
        {"s": [0.9, None, float("nan"), 0.1], "y": [1, 0, 1, 0]}, strict=False
    ).lazy()
    with pytest.raises(
        cc.CostchartError, match=r"column 's' has 2 missing, NaN or infinite values"
    ):
        cc.roc_points(lazy, score="s", label="y", bins=2)


def _cost(envelope, pc):
    return np.interp(pc, envelope.pc, envelope.cost)


@pytest.mark.parametrize("bins", [3, 10, 40])
def test_envelope_gap_bounds_the_binned_envelope(rng, bins):
    data = _data(rng, n=3000, decimals=3)
    full = cc.roc_points(data, score="s", label="y", by="model")
    binned = cc.roc_points(data, score="s", label="y", by="model", bins=bins)
    gaps = cc.envelope_gap(binned).set_index("model")
    pc = np.linspace(0, 1, 2001)
    for model in ("a", "b"):
        true = _cost(cc.lower_envelope(full[full.model == model].drop(columns="model")), pc)
        rough = _cost(cc.lower_envelope(binned[binned.model == model].drop(columns="model")), pc)
        error = rough - true
        assert error.min() >= -1e-12  # binned points are real points: never optimistic
        assert error.max() <= gaps.loc[model, "max_gap"] + 1e-12
        assert gaps.loc[model, "max_gap"] < 0.5


def test_envelope_gap_shrinks_with_more_bins(rng):
    data = _data(rng, n=20_000, decimals=4)
    curves = [cc.roc_points(data, score="s", label="y", bins=bins, by=()) for bins in (5, 50, 500)]
    gaps = [cc.envelope_gap(points)["max_gap"].iat[0] for points in curves]
    assert gaps[0] > gaps[1] > gaps[2]
    assert gaps[2] < 0.01


def test_envelope_gap_of_a_staircase_is_the_corner_it_misses():
    # Full curve (0,0) (0,1) (1,1); keeping only the two ends hides the perfect corner.
    points = pd.DataFrame({"fpr": [0.0, 1.0], "tpr": [0.0, 1.0]})
    gap = cc.envelope_gap(points)
    assert gap["max_gap"].iat[0] == pytest.approx(0.5)
    assert gap["pc"].iat[0] == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("bins", "message"),
    [
        (0, r"bins=0 is out of range; pass a whole number at least 1 and at most 1,000,000,000"),
        (-3, r"bins=-3 is out of range"),
        (10**30, r"bins=1000000000000000000000000000000 is out of range; .*at most 1,000,000,000"),
        (2.5, r"bins=2\.5 must be a whole number"),
        (float("nan"), r"bins=nan must be a whole number"),
        (True, r"bins=True must be a whole number"),
        ("10", r"bins='10' must be a whole number"),
        (np.float64("inf"), r"bins=inf must be a whole number"),
    ],
)
@pytest.mark.parametrize("function", ["roc_points", "rociv"])
def test_bins_must_be_a_whole_number_in_range(bins, message, function):
    data = {"s": [1.0, 2.0], "y": [0, 1], "c": [1.0, 1.0]}
    extra = {"amount": "c"} if function == "rociv" else {}
    with pytest.raises(
        cc.CostchartError, match=message + r".* \(how many score quantiles to keep\); pass e\.g\."
    ):
        getattr(cc, function)(data, score="s", label="y", bins=bins, **extra)


def test_whole_float_bins_are_accepted():
    data = {"s": [1.0, 2.0, 3.0], "y": [0, 1, 1]}
    pd.testing.assert_frame_equal(
        cc.roc_points(data, score="s", label="y", bins=2.0),
        cc.roc_points(data, score="s", label="y", bins=np.int64(2)),
    )


def test_bin_by_rank_is_exact_for_huge_counts():
    # Per-score counts of a huge lazy frame: above * bins passes 2**63 unless bins is
    # clamped to the count, and the clamped product still needs Python integers.
    from costchart._roc.counting import bin_by_rank

    sizes = np.array([2**61, 3, 2**61, 1, 2**60], dtype=np.int64)
    values = np.array([5.0, 4.0, 3.0, 2.0, 1.0])
    total = int(sizes.sum())
    above = [0, 2**61, 2**61 + 3, 2**62 + 3, 2**62 + 4]
    for bins in (3, 10**9):
        expected = [a * bins // total for a in above]
        starts = [i for i in range(5) if i == 0 or expected[i] != expected[i - 1]]
        ends = [*[s - 1 for s in starts[1:]], 4]
        kept, (summed,) = bin_by_rank(values, sizes, [sizes.copy()], bins)
        assert kept.tolist() == values[ends].tolist()
        assert summed.tolist() == np.add.reduceat(sizes, starts).tolist()
    # More bins than instances: every distinct score is its own bin.
    few = np.array([1, 3, 2, 1, 3])
    assert bin_by_rank(values, few, [few], 10**9)[0].tolist() == values.tolist()


def test_band_of_binned_points_uses_the_binned_envelope(rng):
    data = _data(rng, n=4000, decimals=3)
    pc = np.linspace(0, 1, 41)
    binned = cc.roc_points(data, score="s", label="y", by="model", bins=12)
    expected = cc.bootstrap_band(
        data, score="s", label="y", by="model", pc=pc, selection=cc.selection_table(binned)
    )
    band = cc.bootstrap_band(
        data, score="s", label="y", by="model", pc=pc, bins=12, inference="exact_bootstrap"
    )
    pd.testing.assert_frame_equal(band, expected)
    full = cc.bootstrap_band(
        data, score="s", label="y", by="model", pc=pc, inference="exact_bootstrap"
    )
    assert (band["cost"] >= full["cost"] - 1e-12).all()
    assert (band["cost"] > full["cost"] + 1e-6).any()


@pytest.mark.slow
@given(data=scored_instances(max_size=80), bins=st.integers(1, 12))
@settings(max_examples=150, deadline=None)
def test_property_binned_points_and_gap(data, bins):
    full = cc.roc_points(data, score="score", label="y")
    binned = cc.roc_points(data, score="score", label="y", bins=bins)
    assert len(binned) <= bins + 1
    rows = full.set_index("threshold").loc[binned.threshold]
    np.testing.assert_array_equal(rows[["tp", "fp"]].to_numpy(), binned[["tp", "fp"]].to_numpy())
    pc = np.linspace(0, 1, 201)
    excess = _cost(cc.lower_envelope(binned), pc) - _cost(cc.lower_envelope(full), pc)
    assert excess.min() >= -1e-12
    assert excess.max() <= cc.envelope_gap(binned)["max_gap"].iat[0] + 1e-12
