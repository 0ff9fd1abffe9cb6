"""AUC intervals and paired tests (DeLong), partial AUC: against brute force and scikit-learn."""

import warnings

import numpy as np
import pandas as pd
import polars as pl
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score

import costchart as cc


def _scores(seed, n=80, ties=True):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    s = rng.normal(size=n) + 1.1 * y
    return (np.round(s, 1) if ties else s), y


def _psi(scores, y):
    pos, neg = scores[y], scores[~y]
    return (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])


def _brute_delong(scores, y):
    """DeLong's AUC and variance from the explicit matrix of pairs."""
    psi = _psi(scores, y)
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    return psi.mean(), v10.var(ddof=1) / len(v10) + v01.var(ddof=1) / len(v01), v10, v01


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("ties", [True, False])
def test_delong_interval_equals_brute_force(seed, ties):
    s, y = _scores(seed, ties=ties)
    area, variance, _, _ = _brute_delong(s, y)
    result = cc.auc_ci({"s": s, "y": y}, score="s", label="y", confidence_level=0.9)
    assert result["auc"].iat[0] == pytest.approx(area, abs=1e-12)
    assert result["auc"].iat[0] == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert result["se"].iat[0] == pytest.approx(np.sqrt(variance), abs=1e-12)
    z = stats.norm.ppf(0.95)
    assert result["lower"].iat[0] == pytest.approx(max(0, area - z * np.sqrt(variance)), abs=1e-12)
    assert result["upper"].iat[0] == pytest.approx(min(1, area + z * np.sqrt(variance)), abs=1e-12)


def test_exact_bootstrap_variance_equals_the_enumerated_one():
    # Few instances: enumerate every stratified resample's probability exactly.
    from itertools import product

    s = np.array([0.9, 0.7, 0.7, 0.3, 0.7, 0.5, 0.2])
    y = np.array([True, True, True, False, False, False, False])
    pos, neg = s[y], s[~y]
    values = []
    for p_idx in product(range(len(pos)), repeat=len(pos)):
        for n_idx in product(range(len(neg)), repeat=len(neg)):
            p, n = pos[list(p_idx)], neg[list(n_idx)]
            values.append(((p[:, None] > n[None, :]) + 0.5 * (p[:, None] == n[None, :])).mean())
    values = np.array(values)
    result = cc.auc_ci({"s": s, "y": y}, score="s", label="y", inference="exact_bootstrap")
    assert result["se"].iat[0] == pytest.approx(values.std(), rel=1e-12)


def test_groups_and_input_kinds():
    frames = []
    for k in range(3):
        s, y = _scores(k)
        frames.append(pd.DataFrame({"model": f"m{k}", "s": s, "y": y}))
    data = pd.concat(frames, ignore_index=True)
    grouped = cc.auc_ci(data, score="s", label="y", by="model")
    assert list(grouped.columns) == ["model", "auc", "lower", "upper", "se"]
    for k, frame in enumerate(frames):
        one = cc.auc_ci(frame, score="s", label="y")
        pd.testing.assert_series_equal(
            grouped.iloc[k, 1:].astype(float), one.iloc[0].astype(float), check_names=False
        )
    from_polars = cc.auc_ci(pl.from_pandas(data), score="s", label="y", by="model")
    pd.testing.assert_frame_equal(from_polars, grouped)
    lazy = cc.auc_ci(pl.from_pandas(data).lazy(), score="s", label="y", by="model")
    pd.testing.assert_frame_equal(lazy.reset_index(drop=True), grouped, check_dtype=False)


def _long_pair(seed, n=90):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.45
    a = np.round(rng.normal(size=n) + 1.2 * y, 1)
    b = np.round(0.6 * a + rng.normal(size=n) * 0.8 + 0.3 * y, 1)
    long = pd.DataFrame(
        {
            "model": ["a"] * n + ["b"] * n,
            "id": np.tile(np.arange(n), 2),
            "y": np.tile(y, 2),
            "s": np.concatenate([a, b]),
        }
    )
    return long, a, b, y


@pytest.mark.parametrize("seed", range(4))
def test_paired_test_equals_brute_force(seed):
    long, a, b, y = _long_pair(seed)
    area_a, _, v10_a, v01_a = _brute_delong(a, y)
    area_b, _, v10_b, v01_b = _brute_delong(b, y)
    s10 = np.cov(v10_a, v10_b)
    s01 = np.cov(v01_a, v01_b)
    variance = (s10[0, 0] + s10[1, 1] - 2 * s10[0, 1]) / y.sum() + (
        s01[0, 0] + s01[1, 1] - 2 * s01[0, 1]
    ) / (~y).sum()
    z = (area_a - area_b) / np.sqrt(variance)
    shuffled = long.sample(frac=1, random_state=seed)  # row order does not matter
    result = cc.auc_test(
        shuffled, score="s", label="y", classifier="model", instance="id", a="a", b="b"
    )
    row = result.iloc[0]
    assert row["auc_a"] == pytest.approx(area_a, abs=1e-12)
    assert row["auc_b"] == pytest.approx(area_b, abs=1e-12)
    assert row["z"] == pytest.approx(z, abs=1e-10)
    assert row["p_value"] == pytest.approx(2 * stats.norm.sf(abs(z)), abs=1e-12)


def test_paired_test_of_a_classifier_with_itself_and_by_groups():
    long, *_ = _long_pair(7)
    same = pd.concat([long[long.model == "a"], long[long.model == "a"].assign(model="c")])
    result = cc.auc_test(same, score="s", label="y", classifier="model", instance="id")
    assert result["z"].iat[0] == 0 and result["p_value"].iat[0] == 1
    two = pd.concat([long.assign(dataset="x"), _long_pair(8)[0].assign(dataset="y")])
    grouped = cc.auc_test(
        two, score="s", label="y", classifier="model", instance="id", by="dataset"
    )
    assert list(grouped["dataset"]) == ["x", "y"]
    alone = cc.auc_test(long, score="s", label="y", classifier="model", instance="id")
    assert grouped["z"].iat[0] == pytest.approx(alone["z"].iat[0], abs=1e-14)
    # a and b swapped: the difference and z change sign, p stays
    swapped = cc.auc_test(
        long, score="s", label="y", classifier="model", instance="id", a="b", b="a"
    )
    assert swapped["z"].iat[0] == pytest.approx(-alone["z"].iat[0], abs=1e-14)
    assert swapped["p_value"].iat[0] == pytest.approx(alone["p_value"].iat[0], abs=1e-14)


@pytest.mark.parametrize("max_fpr", [0.01, 0.05, 0.1, 0.2, 0.37, 0.5, 0.8])
def test_standardized_partial_auc_equals_scikit_learn(max_fpr):
    s, y = _scores(3, n=400)
    points = cc.roc_points({"s": s, "y": y}, score="s", label="y")
    ours = cc.auc(points, max_fpr=max_fpr, standardized=True)["auc"].iat[0]
    assert ours == pytest.approx(roc_auc_score(y, s, max_fpr=max_fpr), abs=1e-12)


@pytest.mark.parametrize("max_fpr", [0.05, 0.2, 0.5, 1.0])
def test_raw_partial_auc_equals_an_integral_of_the_curve(max_fpr):
    s, y = _scores(4, n=300)
    points = cc.roc_points({"s": s, "y": y}, score="s", label="y")
    # tpr as a function of fpr: the curve's upper envelope at vertical steps, integrated
    # on a fine grid (the curve is piecewise linear, so the midpoint rule converges).
    fpr, tpr = points["fpr"].to_numpy(), points["tpr"].to_numpy()
    grid = np.linspace(0, max_fpr, 200_001)
    middle = (grid[1:] + grid[:-1]) / 2
    curve = np.interp(middle, fpr, tpr)
    expected = float(np.sum(curve * np.diff(grid)))
    assert cc.auc(points, max_fpr=max_fpr)["auc"].iat[0] == pytest.approx(expected, abs=1e-6)
    if max_fpr == 1.0:
        assert cc.auc(points, max_fpr=1.0)["auc"].iat[0] == cc.auc(points)["auc"].iat[0]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda d: cc.auc_ci(d, score="s", label="y", inference="x"),
            r"inference='x' is not an option; pass one of 'exact_bootstrap', 'bootstrap', 'delong'",
        ),
        (lambda d: cc.auc_ci(d, score="s", label="y", confidence_level=1), r"confidence_level=1"),
        (
            lambda d: cc.auc_ci({"s": [1.0, 0.0, 0.5], "y": [1, 0, 0]}, score="s", label="y"),
            r"1 positive and 2 negatives: DeLong variance needs at least 2 of each class",
        ),
        (lambda d: cc.auc(cc.roc_points(d, score="s", label="y"), max_fpr=0), r"max_fpr=0"),
        (lambda d: cc.auc(cc.roc_points(d, score="s", label="y"), max_fpr=1.5), r"max_fpr=1.5"),
        (
            lambda d: cc.auc(cc.roc_points(d, score="s", label="y"), standardized=True),
            r"pass max_fpr= too",
        ),
        (
            lambda d: cc.auc(cc.roc_points(d, score="s", label="y"), max_fpr=0.2, standardized=1),
            r"standardized=1 must be True or False",
        ),
        (
            lambda d: cc.auc_ci(d, score="s", label="y", interval="percentile"),
            r"interval='percentile' \(percentiles of resamples\) is not available with "
            r"inference='delong' in auc_ci; pass inference='bootstrap'",
        ),
        (
            lambda d: cc.auc_ci(d, score="s", label="y", inference="bootstrap", interval="normal"),
            r"interval='normal' \(a normal fit\) is not available with inference='bootstrap' in "
            r"auc_ci; pass inference='delong'",
        ),
        (
            lambda d: cc.auc_ci(d, score="s", label="y", interval="discrete"),
            r"interval='discrete' .* is not available with inference='delong' in auc_ci; pass "
            r"interval='auto' or 'normal'",
        ),
        (
            lambda d: cc.auc_ci(d, score="s", label="y", inference="bootstrap", n_resamples=50),
            r"n_resamples=50 is too few for a 0.9 percentile interval: .* >= 200",
        ),
        (lambda d: cc.auc_ci(d, score="s", label="y", interval="t"), r"interval='t' is not an"),
        (lambda d: cc.auc_ci(d, score="s", label="y", direction="<"), r"direction='<' is not an"),
    ],
)
def test_refusals(call, message):
    s, y = _scores(0)
    with pytest.raises(cc.CostchartError, match=message):
        call({"s": s, "y": y})


def test_paired_test_refusals():
    long, *_ = _long_pair(1)
    with pytest.raises(cc.CostchartError, match="pass both a= and b="):
        cc.auc_test(long, score="s", label="y", classifier="model", instance="id", a="a")
    with pytest.raises(cc.CostchartError, match="do not share their instances"):
        cc.auc_test(long.iloc[1:], score="s", label="y", classifier="model", instance="id")
    with pytest.raises(cc.CostchartError, match="a= and b= both name 'a'"):
        cc.auc_test(long, score="s", label="y", classifier="model", instance="id", a="a", b="a")


@pytest.mark.parametrize("name", ["difference", "z", "auc_a"])
def test_grouping_columns_named_like_the_results_are_refused(name):
    long, *_ = _long_pair(2)
    with pytest.raises(cc.CostchartError, match=rf"by=\['{name}'\] includes '{name}'"):
        cc.auc_test(
            long.assign(**{name: "x"}),
            score="s",
            label="y",
            classifier="model",
            instance="id",
            by=name,
        )


def test_empty_paired_data_is_refused():
    long, *_ = _long_pair(2)
    with pytest.raises(cc.CostchartError, match="data has no rows"):
        cc.auc_test(long.iloc[:0], score="s", label="y", classifier="model", instance="id")


@pytest.mark.parametrize("ties", [True, False])
def test_percentile_interval_equals_resampling_the_instances(ties):
    s, y = _scores(3, n=120, ties=ties)
    result = cc.auc_ci({"s": s, "y": y}, score="s", label="y", inference="bootstrap", rng=0)
    rng = np.random.default_rng(1)
    pos, neg = s[y], s[~y]
    areas = []
    for _ in range(4000):
        a, b = rng.choice(pos, len(pos)), rng.choice(neg, len(neg))
        areas.append(((a[:, None] > b[None, :]) + 0.5 * (a[:, None] == b[None, :])).mean())
    low, high = np.quantile(areas, [0.05, 0.95])
    # Two Monte Carlo estimates of one quantile: each off by about 0.004 here.
    assert result["lower"].iat[0] == pytest.approx(low, abs=0.012)
    assert result["upper"].iat[0] == pytest.approx(high, abs=0.012)
    exact = cc.auc_ci({"s": s, "y": y}, score="s", label="y", inference="exact_bootstrap")
    assert result["se"].iat[0] == exact["se"].iat[0]  # the exact bootstrap se either way
    again = cc.auc_ci({"s": s, "y": y}, score="s", label="y", inference="bootstrap", rng=0)
    assert again.equals(result)


def test_percentile_interval_follows_the_skew_near_one_without_clipping():
    s, y = _scores(4, n=60, ties=False)
    s = s + 1.2 * y  # nearly separated: AUC near 1
    normal = cc.auc_ci({"s": s, "y": y}, score="s", label="y", inference="exact_bootstrap")
    percentile = cc.auc_ci({"s": s, "y": y}, score="s", label="y", inference="bootstrap", rng=2)
    area = percentile["auc"].iat[0]
    assert percentile["upper"].iat[0] <= 1.0
    # Skewed: the percentile interval reaches further below the AUC than above it.
    assert area - percentile["lower"].iat[0] > percentile["upper"].iat[0] - area
    assert normal["upper"].iat[0] == pytest.approx(min(1.0, area + (area - normal["lower"].iat[0])))


def test_direction_auto_reads_a_worse_than_chance_classifier_the_other_way():
    s, y = _scores(5, n=200, ties=False)
    data = {"s": np.r_[s, -s], "y": np.r_[y, y], "g": ["good"] * 200 + ["reversed"] * 200}
    kept = cc.auc_ci(data, score="s", label="y", by="g")
    assert kept["auc"].iat[1] == pytest.approx(1 - kept["auc"].iat[0])  # below 0.5, kept
    assert "direction" not in kept.columns
    auto = cc.auc_ci(data, score="s", label="y", by="g", direction="auto")
    assert auto["direction"].tolist() == ["higher", "lower"]
    # pROC's choice: the reversed group's negatives have the higher median score.
    assert np.median(-s[y == 0]) > np.median(-s[y == 1])
    assert np.median(s[y == 0]) <= np.median(s[y == 1])
    assert auto["auc"].iat[1] == pytest.approx(kept["auc"].iat[0])
    assert auto["lower"].iat[1] == pytest.approx(1 - kept["upper"].iat[1])
    assert auto["upper"].iat[1] == pytest.approx(1 - kept["lower"].iat[1])
    assert auto.attrs["costchart"]["direction"] == "auto"


def test_a_percentile_interval_too_large_to_resample_is_refused():
    s, y = _scores(0)
    with pytest.raises(
        cc.CostchartError, match=r"too large to resample: .*; use inference='exact_bootstrap'"
    ):
        cc.auc_ci(
            {"s": s, "y": y},
            score="s",
            label="y",
            inference="bootstrap",
            n_resamples=10**12,
        )
    heavy = {"s": s, "y": y, "w": np.full(len(s), 1e300)}
    with pytest.raises(cc.CostchartError, match=r"too large to resample"):
        cc.auc_ci(
            heavy,
            score="s",
            label="y",
            weight="w",
            inference="bootstrap",
            n_resamples=200,
        )


def test_direction_auto_follows_procs_median_rule():
    # Issue 31: pROC's roc(direction="auto") reads ">" (lower means positive) when the
    # negatives' median score is above the positives', whatever the AUC; its AUC is 0.36.
    data = {"s": [0, 0, 0, 10, 10, 1, 1, 1, -5, -5], "y": [1] * 5 + [0] * 5}
    auto = cc.auc_ci(data, score="s", label="y", direction="auto")
    assert auto["direction"].tolist() == ["lower"]
    assert auto["auc"].iat[0] == pytest.approx(0.36, abs=1e-12)
    # Mirrored: the medians say "<", so an AUC of 0.36 stays as it is.
    mirrored = {"s": [-v for v in data["s"]], "y": data["y"]}
    kept = cc.auc_ci(mirrored, score="s", label="y", direction="auto")
    assert kept["direction"].tolist() == ["higher"]
    assert kept["auc"].iat[0] == pytest.approx(0.36, abs=1e-12)


def test_direction_auto_equals_the_median_rule_with_ties_and_weights():
    rng = np.random.default_rng(31)
    seen = set()
    for _ in range(40):
        n = int(rng.integers(4, 12))
        s = rng.integers(0, 4, n)
        y = np.r_[0, 0, 1, 1, rng.integers(0, 2, n - 4)]
        w = rng.integers(1, 4, n)
        got = cc.auc_ci(
            {"s": s, "y": y, "w": w}, score="s", label="y", weight="w", direction="auto"
        )
        rows = np.repeat(s, w), np.repeat(y, w)
        controls, cases = np.median(rows[0][rows[1] == 0]), np.median(rows[0][rows[1] == 1])
        expected = "lower" if controls > cases else "higher"
        assert got["direction"].iat[0] == expected
        seen.add((expected, bool(controls == cases)))
    assert {("lower", False), ("higher", False), ("higher", True)} <= seen  # ties keep "<"


class _NoDraws:
    """A generator that fails the test if a resample is drawn."""

    def multinomial(self, *args, **kwargs):
        raise AssertionError("a resample was drawn before the work cap was checked")


def test_a_percentile_interval_past_the_work_cap_is_refused_before_any_resample(monkeypatch):
    from costchart._roc import auc_ci as module

    # Issue 31: 1e6 distinct scores x 2,000 resamples took 67 s. The cap (about a
    # minute's work) counts every group's distinct scores; a small cap stands in for it.
    monkeypatch.setattr(module, "_MOST_WORK", 3_000)
    monkeypatch.setattr(module, "random_generator", lambda rng: _NoDraws())
    s = np.arange(40.0)
    data = {"s": np.r_[s, s], "y": np.r_[[0, 1] * 20, [0, 1] * 20], "g": [0] * 40 + [1] * 40}
    with pytest.raises(
        cc.CostchartError,
        match=r"n_resamples=2,000 over 8[02] distinct scores is too large to resample: "
        r".*about a minute's work.*use inference='exact_bootstrap' .*"
        r"or round the scores to fewer distinct values",
    ):
        cc.auc_ci(data, score="s", label="y", by="g", inference="bootstrap", rng=0)
    # Fewer resamples would do: the fix names how many.
    monkeypatch.setattr(module, "_MOST_WORK", 82 * 500)
    with pytest.raises(cc.CostchartError, match=r"or n_resamples <= 500\b"):
        cc.auc_ci(data, score="s", label="y", by="g", inference="bootstrap", rng=0)


def test_the_issues_million_rows_at_2000_resamples_are_past_the_cap():
    from types import SimpleNamespace

    from costchart._roc import auc_ci as module

    # Issue 31: 1e6 distinct scores, half of each class, the default 2,000 resamples
    # (67 s); checked on the counts alone, as auc_ci checks them before any draw.
    n = 10**6
    counts = np.cumsum(np.r_[0, np.tile([1.0, 0.0], n // 2)])
    groups = [SimpleNamespace(positions=np.arange(1, n + 1))]
    with pytest.raises(cc.CostchartError, match=r"or n_resamples <= 300\b"):
        module._check_work(counts, np.arange(n + 1) - counts, groups, 2000, 0.9)


def test_direction_auto_compares_medians_of_integers_past_2_53_exactly():
    big = 2**53
    # Positives' median big + 1, the negatives' (big + big + 2) / 2 = big + 1: a tie,
    # read "<" (in floats big + 1 is big, and the negatives' would look higher).
    s = np.array([big + 1, big + 1, big, big + 2], dtype=np.int64)
    got = cc.auc_ci({"s": s, "y": [1, 1, 0, 0]}, score="s", label="y", direction="auto")
    assert got["direction"].tolist() == ["higher"]


def test_huge_weights_give_no_numpy_warning():
    """Sums of weights of 1e300 overflowed products of counts in the exact bootstrap."""
    rng = np.random.default_rng(3)
    data = pd.DataFrame({"y": np.tile([0, 1], 20), "s": rng.normal(size=40)})
    plain = cc.auc_ci(data, score="s", label="y", inference="exact_bootstrap")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        huge = cc.auc_ci(
            data.assign(w=1e300), score="s", label="y", weight="w", inference="exact_bootstrap"
        )
        with pytest.raises(cc.CostchartError, match="too large to resample"):
            cc.auc_ci(
                data.assign(w=1e300), score="s", label="y", weight="w", inference="bootstrap", rng=0
            )
    assert huge.auc.iat[0] == plain.auc.iat[0]
    # k copies of every instance divide the bootstrap variance by k.
    assert huge.se.iat[0] == pytest.approx(plain.se.iat[0] / 1e150, rel=1e-9)
