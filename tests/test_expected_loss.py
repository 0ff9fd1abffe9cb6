"""Expected loss by threshold choice: the four identities, densities, groups, refusals."""

import numpy as np
import pandas as pd
import polars as pl
import pytest
from scipy import integrate, stats

import costchart as cc

METHODS = ["optimal", "score_driven", "rate_driven", "fixed"]


def _data(rng, n: int, rounded: bool) -> pd.DataFrame:
    y = rng.random(n) < rng.uniform(0.15, 0.85)
    y[:2] = [False, True]
    s = np.clip(rng.random(n) * 0.7 + rng.uniform(-0.3, 0.6) * y, 0, 1)
    return pd.DataFrame({"p": np.round(s, 1) if rounded else s, "y": y})


def _auc(data: pd.DataFrame) -> float:
    """Pairs ordered right, ties counting a half, by brute force."""
    pos, neg = data.p[data.y].to_numpy(), data.p[~data.y].to_numpy()
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return wins / (len(pos) * len(neg))


def _balanced_brier(data: pd.DataFrame) -> float:
    pos, neg = data.p[data.y].to_numpy(), data.p[~data.y].to_numpy()
    return (np.mean((1 - pos) ** 2) + np.mean(neg**2)) / 2


def _rates_at(data: pd.DataFrame, threshold: float) -> tuple[float, float]:
    pos, neg = data.p[data.y].to_numpy(), data.p[~data.y].to_numpy()
    return float(np.mean(neg >= threshold)), float(np.mean(pos < threshold))  # FPR, FNR


def _loss(data, **kwargs) -> dict[str, float]:
    table = cc.expected_loss(data, score="p", label="y", **kwargs)
    return dict(zip(table.threshold_choice, table.expected_loss, strict=True))


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("rounded", [False, True], ids=["distinct", "ties"])
def test_the_four_identities_under_the_uniform_density(seed, rounded):
    rng = np.random.default_rng(seed)
    data = _data(rng, int(rng.integers(4, 300)), rounded)
    threshold = float(np.round(rng.random(), 1))
    loss = _loss(data, threshold_choice=METHODS, threshold=threshold)
    points = cc.roc_points(data, score="p", label="y")
    envelope = cc.expected_cost(cc.lower_envelope(points))["expected_cost"].item()
    assert loss["optimal"] == pytest.approx(envelope, abs=1e-12)
    assert loss["score_driven"] == pytest.approx(_balanced_brier(data), abs=1e-12)
    assert loss["rate_driven"] == pytest.approx(1 / 3 + (1 - 2 * _auc(data)) / 4, abs=1e-12)
    fpr, fnr = _rates_at(data, threshold)
    assert loss["fixed"] == pytest.approx((fpr + fnr) / 2, abs=1e-12)
    # The optimal choice is never worse than any other rule.
    assert loss["optimal"] <= min(loss["score_driven"], loss["rate_driven"], loss["fixed"]) + 1e-12


@pytest.mark.parametrize(
    "scores, labels",
    [
        ([0.9, 0.8, 0.2, 0.1], [1, 1, 0, 0]),  # perfect: AUC 1
        ([0.1, 0.2, 0.8, 0.9], [1, 1, 0, 0]),  # reversed: AUC 0
        ([0.5, 0.5, 0.5, 0.5], [1, 0, 1, 0]),  # one tie: AUC 0.5
        ([0.7, 0.4, 0.7, 0.2, 0.9], [1, 0, 0, 1, 1]),
    ],
)
def test_rate_loss_is_linear_in_auc_on_every_classifier(scores, labels):
    data = pd.DataFrame({"p": scores, "y": np.array(labels, bool)})
    rate = _loss(data, threshold_choice="rate_driven")["rate_driven"]
    assert rate == pytest.approx(1 / 3 + (1 - 2 * _auc(data)) / 4, abs=1e-15)


def _rate_cost(points: pd.DataFrame):
    """The rate-driven cost at pc, from its definition, and where it bends."""
    fpr = np.r_[0.0, points.fpr.to_numpy(), 1.0]
    tpr = np.r_[0.0, points.tpr.to_numpy(), 1.0]
    rate = (fpr + tpr) / 2

    def cost(pc):
        t, f = np.interp(pc, rate, tpr), np.interp(pc, rate, fpr)
        return pc * (1 - t) + (1 - pc) * f

    return cost, np.unique(rate)


@pytest.mark.parametrize("seed", range(6))
def test_rate_loss_equals_the_integral_of_its_definition(seed):
    rng = np.random.default_rng(100 + seed)
    data = _data(rng, 60, rounded=seed % 2 == 0)
    points = cc.roc_points(data, score="p", label="y")
    cost, breaks = _rate_cost(points)
    density = stats.beta(2.5, 1.5)
    by_hand = lambda pc: 6 * pc * (1 - pc)  # noqa: E731  (integrated directly, not by parts)
    for given, weight in [(None, lambda pc: 1.0), (density, density.pdf), (by_hand, by_hand)]:
        pieces = [
            integrate.quad(lambda pc, w=weight: cost(pc) * w(pc), lo, hi, epsabs=1e-14)[0]
            for lo, hi in zip(breaks[:-1], breaks[1:], strict=True)
        ]
        loss = cc.expected_loss(
            points, threshold_choice="rate_driven", density=given
        ).expected_loss.item()
        assert loss == pytest.approx(sum(pieces), abs=1e-10)


@pytest.mark.parametrize(
    "density",
    [stats.beta(2, 5), stats.beta(0.5, 0.5), lambda pc: 6 * pc * (1 - pc)],
    ids=["beta(2,5)", "arcsine", "callable"],
)
def test_densities_agree_with_the_curves_and_the_line(density):
    rng = np.random.default_rng(42)
    data = _data(rng, 150, rounded=True)
    points = cc.roc_points(data, score="p", label="y")
    loss = _loss(data, threshold_choice=METHODS, threshold=0.5, density=density)
    optimal = cc.expected_cost(cc.lower_envelope(points), density=density).expected_cost.item()
    brier = cc.brier_curve(data, score="p", label="y")
    score = cc.expected_cost(brier, density=density).expected_cost.item()
    assert loss["optimal"] == pytest.approx(optimal, abs=1e-10)
    assert loss["score_driven"] == pytest.approx(score, abs=1e-10)
    fpr, fnr = _rates_at(data, 0.5)
    mean_pc = integrate.quad(lambda pc: pc * _pdf(density, pc), 0, 1, epsabs=1e-13)[0]
    assert loss["fixed"] == pytest.approx(fpr + mean_pc * (fnr - fpr), abs=1e-9)


def _pdf(density, pc):
    return density.pdf(pc) if hasattr(density, "pdf") else density(pc)


def test_groups_equal_each_group_alone_and_points_equal_raw_data():
    rng = np.random.default_rng(8)
    parts = [_data(rng, int(rng.integers(5, 80)), True).assign(model=m) for m in "cab"]
    data = pd.concat(parts, ignore_index=True)
    grouped = cc.expected_loss(
        data, score="p", label="y", by="model", threshold_choice=METHODS, threshold=0.4
    )
    assert list(grouped.columns) == ["model", "threshold_choice", "expected_loss"]
    assert list(grouped.model) == [m for m in "cab" for _ in METHODS]
    assert list(grouped.threshold_choice) == METHODS * 3
    for model, part in zip("cab", parts, strict=True):
        alone = _loss(part, threshold_choice=METHODS, threshold=0.4)
        mine = grouped[grouped.model == model]
        np.testing.assert_array_equal(mine.expected_loss, [alone[m] for m in METHODS])
    points = cc.roc_points(data, score="p", label="y", by="model")
    from_points = cc.expected_loss(points, threshold_choice=METHODS, threshold=0.4)
    pd.testing.assert_frame_equal(from_points, grouped)
    from_polars = cc.expected_loss(pl.from_pandas(data), score="p", label="y", by="model",
                                   threshold_choice=METHODS, threshold=0.4)  # fmt: skip
    pd.testing.assert_frame_equal(from_polars, grouped)


def test_fixed_thresholds_beyond_the_scores_are_the_trivial_classifiers():
    data = _data(np.random.default_rng(3), 50, rounded=False)
    assert _loss(data, threshold_choice="fixed", threshold=np.inf)["fixed"] == 0.5  # FNR 1, FPR 0
    assert _loss(data, threshold_choice="fixed", threshold=-np.inf)["fixed"] == 0.5  # FPR 1, FNR 0
    assert _loss(data, threshold_choice="fixed", threshold=2.0)["fixed"] == 0.5


def test_the_hulls_rate_loss_uses_the_hulls_auc():
    data = _data(np.random.default_rng(4), 200, rounded=False)
    hull = cc.roc_hull(cc.roc_points(data, score="p", label="y"))
    loss = cc.expected_loss(hull, threshold_choice="rate_driven").expected_loss.item()
    assert loss == pytest.approx(1 / 3 + (1 - 2 * cc.auc(hull).auc.item()) / 4, abs=1e-12)
    assert loss < _loss(data, threshold_choice="rate_driven")["rate_driven"]


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"threshold_choice": "best"}, r"threshold_choice='best' is not an option"),
        (
            {"threshold_choice": "score"},
            r"threshold_choice='score' is not an option; pass one of 'optimal', 'score_driven'",
        ),
        ({"threshold_choice": []}, "names no choice"),
        ({"threshold_choice": ["rate_driven", "rate_driven"]}, "names a choice twice"),
        ({"threshold_choice": "fixed"}, r'threshold_choice="fixed" needs threshold='),
        (
            {"threshold_choice": "rate_driven", "threshold": 0.5},
            r'used only by threshold_choice="fixed"',
        ),
        (
            {"threshold_choice": "fixed", "threshold": float("nan")},
            "threshold=nan is not a threshold",
        ),
        ({"density": "uniform"}, "density='uniform' must be"),
    ],
)
def test_bad_parameters_are_named(kwargs, match):
    data = _data(np.random.default_rng(0), 20, rounded=True)
    with pytest.raises(cc.CostchartError, match=match):
        cc.expected_loss(data, score="p", label="y", **kwargs)


def test_bad_inputs_are_named():
    data = _data(np.random.default_rng(0), 20, rounded=True)
    with pytest.raises(cc.CostchartError, match="score= is given but label= is not"):
        cc.expected_loss(data, score="p")
    points = cc.roc_points(data, score="p", label="y")
    with pytest.raises(cc.CostchartError, match="pos_label=1 applies to raw data"):
        cc.expected_loss(points, pos_label=1)
    logits = data.assign(p=data.p * 10 - 5)
    with pytest.raises(cc.CostchartError, match=r"has scores outside \[0, 1\].*calibrate"):
        cc.expected_loss(logits, score="p", label="y", threshold_choice="score_driven")
    no_thresholds = points.drop(columns="threshold")
    with pytest.raises(cc.CostchartError, match="no 'threshold' column"):
        cc.expected_loss(no_thresholds, threshold_choice="fixed", threshold=0.5)
    assert cc.expected_loss(no_thresholds, threshold_choice="rate_driven").expected_loss.item() > 0
    doubled = pd.concat([points, points.iloc[[2]]], ignore_index=True)
    with pytest.raises(cc.CostchartError, match=r"threshold [0-9.]+ has two rows"):
        cc.expected_loss(doubled, threshold_choice="score_driven")
    nan_threshold = points.assign(threshold=np.nan)
    with pytest.raises(cc.CostchartError, match="has NaN"):
        cc.expected_loss(nan_threshold, threshold_choice="score_driven")


def test_weights_equal_repeated_rows():
    rng = np.random.default_rng(21)
    data = _data(rng, 40, rounded=True).assign(w=rng.integers(0, 4, 40))
    data.loc[[0, 1], "w"] = 1  # both classes keep some weight
    repeated = data.loc[data.index.repeat(data.w)]
    kwargs = {"threshold_choice": METHODS, "threshold": 0.5}
    weighted = cc.expected_loss(data, score="p", label="y", weight="w", **kwargs)
    expected = cc.expected_loss(repeated, score="p", label="y", **kwargs)
    np.testing.assert_allclose(weighted.expected_loss, expected.expected_loss, atol=1e-12)
    with pytest.raises(cc.CostchartError, match="weight='w' applies to raw data"):
        cc.expected_loss(cc.roc_points(data, score="p", label="y"), weight="w")


def test_a_hull_is_refused_where_every_threshold_is_read():
    points = cc.roc_points(_data(np.random.default_rng(2), 60, True), score="p", label="y")
    for method in ["score_driven", "fixed"]:
        with pytest.raises(cc.CostchartError, match="a hull"):
            cc.expected_loss(cc.roc_hull(points), threshold_choice=method, threshold=0.5 if method == "fixed" else None)  # fmt: skip


def test_thinned_points_and_rising_thresholds_are_refused_where_every_threshold_is_read():
    data = _data(np.random.default_rng(6), 200, rounded=False)
    points = cc.roc_points(data, score="p", label="y")
    thinned = cc.thin_points(points, max_points=10)
    with pytest.raises(cc.CostchartError, match="thinned"):
        cc.expected_loss(thinned, threshold_choice="score_driven")
    # Thinning keeps the hull: the optimal loss is the same.
    optimal = cc.expected_loss(thinned, threshold_choice="optimal").expected_loss.item()
    assert optimal == pytest.approx(_loss(data, threshold_choice="optimal")["optimal"], abs=1e-12)
    rising = {"fpr": [0, 0.5, 1], "tpr": [0.5, 1, 1], "threshold": [0.2, 0.5, 0.8]}
    with pytest.raises(
        cc.CostchartError, match=r"as the threshold falls from 0\.8 to 0\.5, the rates fall"
    ):
        cc.expected_loss(rising, threshold_choice="score_driven")


def test_no_points_no_rows():
    empty = pd.DataFrame({c: pd.Series(dtype=float) for c in ["threshold", "tpr", "fpr"]})
    result = cc.expected_loss(empty, threshold_choice=METHODS, threshold=0.5)
    assert len(result) == 0
    assert list(result.columns) == ["threshold_choice", "expected_loss"]


def test_input_is_not_mutated():
    data = _data(np.random.default_rng(1), 30, rounded=True)
    before = data.copy()
    cc.expected_loss(data, score="p", label="y", threshold_choice=METHODS, threshold=0.5)
    pd.testing.assert_frame_equal(data, before)
