"""Simultaneous bands: against a brute-force instance bootstrap, and their coverage."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import costchart as cc
from costchart._coverage import _selection
from costchart.datasets.binormal import binormal_cost, binormal_scores, binormal_threshold

PC = np.linspace(0.05, 0.95, 19)


def _data(seed=3, n_pos=30, n_neg=40):
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    scores = np.round(rng.normal(size=n_pos + n_neg) + 1.2 * y, 1)  # some ties
    return pd.DataFrame({"s": scores, "y": y})


def _selection_of_three(data):
    low, mid, high = np.quantile(data["s"], [0.3, 0.5, 0.7])
    return pd.DataFrame(
        {"pc_lo": [0, 0.3, 0.6], "pc_hi": [0.3, 0.6, 1.0], "threshold": [high, mid, low]}
    )


def _brute_force_factor(data, selection, sampling, se, resamples=20_000, seed=5):
    """The level quantile of max_pc |cost* - cost| / se over instance resamples."""
    rng = np.random.default_rng(seed)
    scores, labels = data["s"].to_numpy(), data["y"].to_numpy()
    positives, negatives = labels.sum(), (1 - labels).sum()
    interval = np.searchsorted(selection["pc_lo"].to_numpy(), PC, side="right") - 1
    threshold = selection["threshold"].to_numpy()[interval]

    def cost(s, y):
        predicted = s[:, None] >= threshold[None, :]
        fn = ((~predicted) & (y[:, None] == 1)).sum(axis=0)
        fp = (predicted & (y[:, None] == 0)).sum(axis=0)
        return PC * fn / positives + (1 - PC) * fp / negatives

    observed = cost(scores, labels)
    pos, neg = np.flatnonzero(labels == 1), np.flatnonzero(labels == 0)
    deviations = np.empty(resamples)
    for r in range(resamples):
        if sampling == "stratified":
            take = np.r_[rng.choice(pos, len(pos)), rng.choice(neg, len(neg))]
        else:
            take = rng.integers(0, len(labels), len(labels))
        resampled = cost(scores[take], labels[take])
        deviations[r] = np.max(np.abs(resampled - observed)[se > 0] / se[se > 0])
    return np.quantile(deviations, 0.9)


@pytest.mark.slow
@pytest.mark.parametrize("sampling", ["stratified", "full"])
def test_factor_equals_a_brute_force_instance_bootstrap(sampling):
    data = _data()
    selection = _selection_of_three(data)
    band = cc.bootstrap_band(
        data,
        score="s",
        label="y",
        selection=selection,
        pc=PC,
        sampling=sampling,
        simultaneous=True,
        n_resamples=20_000,
        rng=1,
    )
    se = band["se"].to_numpy()
    factor = (band["upper"] - band["cost"]).to_numpy()[se > 0] / se[se > 0]
    np.testing.assert_allclose(factor, factor[0], rtol=1e-12)  # one factor per group
    expected = _brute_force_factor(data, selection, sampling, se)
    assert factor[0] == pytest.approx(expected, rel=0.03)
    assert factor[0] > stats.norm.ppf(0.95)  # wider than the pointwise normal band


def test_groups_get_their_own_factor_and_the_pointwise_band_is_inside():
    data = pd.concat([_data(1).assign(g="a"), _data(2, 200, 200).assign(g="b")])
    band = cc.bootstrap_band(data, score="s", label="y", by="g", simultaneous=True, rng=0)
    pointwise = cc.bootstrap_band(data, score="s", label="y", by="g", distribution="normal")
    assert (band["lower"] <= pointwise["lower"] + 1e-12).all()
    assert (band["upper"] >= pointwise["upper"] - 1e-12).all()
    assert (band["cost"] == pointwise["cost"]).all() and (band["se"] == pointwise["se"]).all()
    live = band[band["se"] > 0]
    factors = ((live["upper"] - live["cost"]) / live["se"]).groupby(live["g"]).median()
    assert factors["a"] != pytest.approx(factors["b"], rel=1e-3)
    assert band.attrs["costchart"]["simultaneous"] is True
    assert cc.band_label(band) == "90 % simultaneous bootstrap band (whole curve; 2,000 resamples)"


def test_confusion_band_simultaneous_over_pc():
    counts = {"TP": [16], "FN": [4], "FP": [4], "TN": [6]}
    band = cc.confusion_band(
        counts, tp="TP", fn="FN", fp="FP", tn="TN", pc=PC, simultaneous=True, rng=3
    )
    pointwise = cc.confusion_band(counts, tp="TP", fn="FN", fp="FP", tn="TN", pc=PC)
    assert ((band["upper"] - band["lower"]) >= (pointwise["upper"] - pointwise["lower"])).all()


@pytest.mark.slow
def test_simultaneous_band_covers_the_whole_true_curve_at_the_level():
    # pc in [0.2, 0.8]: further out the optimal thresholds lie beyond most observed scores,
    # where no bootstrap band can cover (docs/bands.md).
    mu, simulations, n, pc = 3.0, 300, 300, np.linspace(0.2, 0.8, 13)
    thresholds = binormal_threshold(pc, mu_pos=mu, mu_neg=-mu)
    truth = binormal_cost(pc, thresholds, mu_pos=mu, mu_neg=-mu)
    data = binormal_scores(n_pos=n, n_neg=n, mu=mu, simulations=simulations, rng=9)
    selection = _selection(thresholds, pc, simulations)
    covered = {}
    for simultaneous in (True, False):
        band = cc.bootstrap_band(
            data,
            score="score",
            label="label",
            by="simulation",
            selection=selection,
            pc=pc,
            simultaneous=simultaneous,
            n_resamples=1000,
            rng=4,
            distribution="normal",
        )
        lower = band["lower"].to_numpy().reshape(simulations, -1)
        upper = band["upper"].to_numpy().reshape(simulations, -1)
        covered[simultaneous] = int(((lower <= truth) & (truth <= upper)).all(axis=1).sum())
    assert stats.binomtest(covered[True], simulations, 0.9).pvalue > 0.001, covered
    assert covered[False] < 0.75 * simulations  # the pointwise band misses the whole curve


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"simultaneous": "yes"}, r"simultaneous='yes' must be True or False"),
        (
            {"simultaneous": True, "n_resamples": 50},
            r"n_resamples=50 is too few for a simultaneous 0.9 band: .* n_resamples >= 100",
        ),
        (  # the level as given: with :g it read "a simultaneous 1 band"
            {"simultaneous": True, "confidence_level": 0.999999999999},
            r"too few for a simultaneous 0\.999999999999 band",
        ),
    ],
)
def test_simultaneous_options_are_checked(options, message):
    with pytest.raises(cc.CostchartError, match=message):
        cc.bootstrap_band(_data(), score="s", label="y", **options)
