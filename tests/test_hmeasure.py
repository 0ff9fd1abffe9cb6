"""Hand's H-measure: the hmeasure package's numbers, a numerical integral, and groups."""

import numpy as np
import pandas as pd
import pytest
from scipy import integrate, stats

import costchart as cc


def _data(rng, n: int, rounded: bool) -> tuple[np.ndarray, np.ndarray]:
    y = (rng.random(n) < rng.uniform(0.15, 0.85)).astype(int)
    y[:2] = [0, 1]  # both classes
    s = np.clip(rng.random(n) * 0.6 + 0.4 * y * rng.random(), 0, 1)
    return y, np.round(s, 1) if rounded else s  # rounded: ties within and across classes


def _brute_force(y, s, severity_ratio=None) -> float:
    """1 - L / L_max by numerical integration over c of the best ROC point's loss."""
    points = cc.roc_points({"s": s, "y": y}, score="s", label="y")
    fpr, fnr = points.fpr.to_numpy(), 1 - points.tpr.to_numpy()
    pi1 = y.mean()
    pi0 = 1 - pi1
    ratio = pi1 / pi0 if severity_ratio is None else severity_ratio
    a, b = (2.0, 1 + 1 / ratio) if ratio > 0 else (pi1 + 1, pi0 + 1)
    density = stats.beta(a, b).pdf
    best = lambda c: np.min(c * pi0 * fpr + (1 - c) * pi1 * fnr) * density(c)  # noqa: E731
    trivial = lambda c: min(c * pi0, (1 - c) * pi1) * density(c)  # noqa: E731
    # the integrand bends where the best point changes: integrate between those c
    ties = np.unique(
        np.clip(
            pi1
            * np.abs(np.diff(1 - fnr))
            / (pi1 * np.abs(np.diff(1 - fnr)) + pi0 * np.abs(np.diff(fpr)) + 1e-300),
            0,
            1,
        )
    )
    edges = np.unique(np.r_[0.0, ties, pi1, 1.0])
    loss = sum(
        integrate.quad(best, lo, hi, epsabs=1e-14, epsrel=1e-12)[0]
        for lo, hi in zip(edges[:-1], edges[1:])
    )
    worst = sum(
        integrate.quad(trivial, lo, hi, epsabs=1e-14, epsrel=1e-12)[0]
        for lo, hi in zip(edges[:-1], edges[1:])
    )
    return 1 - loss / worst


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("severity_ratio", [None, 0.7, 2.5, -0.7])
def test_h_measure_equals_the_hmeasure_package(seed, severity_ratio):
    hmeasure = pytest.importorskip("hmeasure")
    rng = np.random.default_rng(seed)
    y, s = _data(rng, int(rng.integers(10, 400)), rounded=seed % 2 == 1)
    got = cc.h_measure({"s": s, "y": y}, score="s", label="y", severity_ratio=severity_ratio)
    expected = hmeasure.h_score(y, s, severity_ratio=severity_ratio)
    assert abs(got.h_measure.iloc[0] - expected) <= 1e-9


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("severity_ratio", [None, 0.5, -1.0])
def test_h_measure_equals_a_numerical_integral(seed, severity_ratio):
    rng = np.random.default_rng(100 + seed)
    y, s = _data(rng, int(rng.integers(10, 120)), rounded=seed % 2 == 0)
    got = cc.h_measure({"s": s, "y": y}, score="s", label="y", severity_ratio=severity_ratio)
    assert got.h_measure.iloc[0] == pytest.approx(_brute_force(y, s, severity_ratio), abs=1e-9)


def test_perfect_and_useless_classifiers():
    y = np.array([0, 0, 0, 1, 1, 1])
    perfect = cc.h_measure({"s": [1, 2, 3, 4, 5, 6], "y": y}, score="s", label="y")
    constant = cc.h_measure({"s": [1] * 6, "y": y}, score="s", label="y")
    assert perfect.h_measure.iloc[0] == pytest.approx(1.0, abs=1e-12)
    assert constant.h_measure.iloc[0] == pytest.approx(0.0, abs=1e-12)


def test_each_group_is_measured_on_its_own():
    rng = np.random.default_rng(7)
    frames = []
    for model in ("a", "b", "c"):
        y, s = _data(rng, 200, rounded=model == "b")
        frames.append(pd.DataFrame({"model": model, "s": s, "y": y}))
    data = pd.concat(frames, ignore_index=True)
    got = cc.h_measure(data, score="s", label="y", by="model")
    assert got.model.tolist() == ["a", "b", "c"]
    for model, value in zip(got.model, got.h_measure, strict=True):
        alone = data[data.model == model]
        expected = cc.h_measure(alone, score="s", label="y").h_measure.iloc[0]
        assert value == pytest.approx(expected, abs=1e-15)


def test_a_grouping_column_named_like_the_result_is_refused():
    data = {"h_measure": ["a", "a", "b", "b"], "s": [1, 2, 1, 2], "y": [0, 1, 0, 1]}
    with pytest.raises(cc.CostchartError, match="h_measure"):
        cc.h_measure(data, score="s", label="y", by="h_measure")


@pytest.mark.parametrize("bad", [0, float("nan"), "big", [1, 2], True])
def test_a_bad_severity_ratio_is_refused(bad):
    with pytest.raises(cc.CostchartError, match="severity_ratio"):
        cc.h_measure({"s": [1, 2], "y": [0, 1]}, score="s", label="y", severity_ratio=bad)


def test_a_large_severity_ratio_makes_false_alarms_expensive():
    # Issue 31: a misses 4 of 10 positives, b raises 4 false alarms in 10 negatives.
    hmeasure = pytest.importorskip("hmeasure")
    y = np.array([1] * 10 + [0] * 10)
    misses = np.array([1.0] * 6 + [0.0] * 4 + [0.0] * 10)
    alarms = np.array([1.0] * 10 + [1.0] * 4 + [0.0] * 6)
    scores = {}
    for name, s in (("misses", misses), ("alarms", alarms)):
        for ratio in (100, 0.01):
            got = cc.h_measure({"s": s, "y": y}, score="s", label="y", severity_ratio=ratio)
            scores[name, ratio] = got.h_measure.iloc[0]
            expected = hmeasure.h_score(y, s, severity_ratio=ratio)
            assert scores[name, ratio] == pytest.approx(expected, abs=1e-9)
    # False alarms expensive: the classifier that only misses positives scores higher.
    assert round(scores["misses", 100], 2) == 0.51
    assert round(scores["alarms", 100], 2) == 0.35
    # Missed positives expensive: the other way round.
    assert scores["alarms", 0.01] > scores["misses", 0.01]


def test_the_severity_ratio_error_says_which_way_it_goes():
    with pytest.raises(cc.CostchartError, match="how much worse a false alarm is than a missed"):
        cc.h_measure({"s": [1, 2], "y": [0, 1]}, score="s", label="y", severity_ratio=0)
