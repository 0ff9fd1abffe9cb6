"""Simultaneous bands: against a brute-force instance bootstrap, and their coverage."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import costchart as cc
from costchart._bands import simultaneous
from costchart._bands.coverage import _selection
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


def _counts(scores, labels, threshold, weights=None):
    """False negatives and false positives of "score >= threshold" at each threshold."""
    weights = np.ones(len(scores)) if weights is None else weights
    predicted = scores[:, None] >= threshold[None, :]
    fn = (weights[:, None] * ((~predicted) & (labels[:, None] == 1))).sum(axis=0)
    fp = (weights[:, None] * (predicted & (labels[:, None] == 0))).sum(axis=0)
    return fn, fp


def _jeffreys_se(fn, fp, positives, negatives, pc, sampling):
    """The definition: the cost's standard error at the Jeffreys rates of the counts."""
    w_fn, w_fp = pc / positives, (1 - pc) / negatives
    if sampling == "stratified":
        r_fn, r_fp = (fn + 0.5) / (positives + 1), (fp + 0.5) / (negatives + 1)
        variance = w_fn**2 * positives * r_fn * (1 - r_fn) + w_fp**2 * negatives * r_fp * (1 - r_fp)
    else:  # four cells, Dirichlet(1/2, ...): the cost is sum_k c_k M_k / n, c = n w
        n = positives + negatives
        q_fn, q_fp = (fn + 0.5) / (n + 2), (fp + 0.5) / (n + 2)
        variance = n * (w_fn**2 * q_fn + w_fp**2 * q_fp - (w_fn * q_fn + w_fp * q_fp) ** 2)
    return np.sqrt(variance)


def _statistic(scores, labels, threshold, pc, sampling, weights, observed):
    """max over pc (where the plug-in se is positive) of |cost* - cost| / s*."""
    positives, negatives = labels.sum(), (1 - labels).sum()
    fn, fp = _counts(scores, labels, threshold, weights)
    cost = pc * fn / positives + (1 - pc) * fp / negatives
    cost_0, live = observed
    spread = _jeffreys_se(fn, fp, positives, negatives, pc, sampling)
    return np.max(np.abs(cost - cost_0)[live] / spread[live])


def _observed(scores, labels, threshold, pc, sampling):
    """Cost, Jeffreys se and the pc whose plug-in bootstrap se is positive, of the sample."""
    positives, negatives = labels.sum(), (1 - labels).sum()
    fn, fp = _counts(scores, labels, threshold)
    cost = pc * fn / positives + (1 - pc) * fp / negatives
    plug_in = (pc / positives) ** 2 * fn * (positives - fn) / positives + (
        (1 - pc) / negatives
    ) ** 2 * fp * (negatives - fp) / negatives
    if sampling == "full":
        n = positives + negatives
        w_fn, w_fp = n * pc / positives, n * (1 - pc) / negatives
        plug_in = (w_fn**2 * fn / n + w_fp**2 * fp / n - (w_fn * fn / n + w_fp * fp / n) ** 2) / n
    spread = _jeffreys_se(fn, fp, positives, negatives, pc, sampling)
    return cost, spread, plug_in > 0


def _brute_force_factor(data, selection, sampling, resamples=20_000, seed=5):
    """The level quantile of max_pc |cost* - cost| / s* over instance resamples."""
    rng = np.random.default_rng(seed)
    scores, labels = data["s"].to_numpy(), data["y"].to_numpy()
    interval = np.searchsorted(selection["pc_lo"].to_numpy(), PC, side="right") - 1
    threshold = selection["threshold"].to_numpy()[interval]
    cost, spread, live = _observed(scores, labels, threshold, PC, sampling)
    pos, neg = np.flatnonzero(labels == 1), np.flatnonzero(labels == 0)
    deviations = np.empty(resamples)
    for r in range(resamples):
        if sampling == "stratified":
            take = np.r_[rng.choice(pos, len(pos)), rng.choice(neg, len(neg))]
        else:
            take = rng.integers(0, len(labels), len(labels))
        weights = np.bincount(take, minlength=len(labels)).astype(float)
        deviations[r] = _statistic(scores, labels, threshold, PC, sampling, weights, (cost, live))
    return np.quantile(deviations, 0.9), spread, live


@pytest.fixture
def uncalibrated(monkeypatch):
    """The bootstrap-t factor at the nominal level (no double-bootstrap calibration)."""
    monkeypatch.setattr(simultaneous, "CALIBRATION_OUTER", 0)


@pytest.mark.slow
@pytest.mark.parametrize("sampling", ["stratified", "full"])
def test_factor_equals_a_brute_force_instance_bootstrap(sampling, uncalibrated):
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
    expected, spread, live = _brute_force_factor(data, selection, sampling)
    np.testing.assert_array_equal(live, band["se"].to_numpy() > 0)
    factor = (band["upper"] - band["cost"]).to_numpy()[live] / spread[live]
    np.testing.assert_allclose(factor, factor[0], rtol=1e-12)  # one factor per group
    assert factor[0] == pytest.approx(expected, rel=0.03)
    assert factor[0] > stats.norm.ppf(0.95)  # wider than the pointwise normal band


def _compositions(total, parts):
    """Every way of drawing ``total`` instances from ``parts`` (counts per instance)."""
    for cut in itertools.combinations(range(total + parts - 1), parts - 1):
        yield np.diff(np.r_[-1, cut, total + parts - 1]) - 1


def _probability(draws):
    """Probability of drawing these counts per instance, uniformly with replacement."""
    ways = math.factorial(int(draws.sum()))
    for k in draws:
        ways //= math.factorial(int(k))
    return ways / len(draws) ** int(draws.sum())


@pytest.mark.parametrize("sampling", ["stratified", "full"])
def test_factor_is_the_exact_quantile_of_every_resample_on_a_small_case(sampling, uncalibrated):
    # Eight instances: every resample can be listed with its probability, so the level
    # quantile of max |cost* - cost| / s* is known exactly. Where the level falls well
    # inside one value's probability (0.85 does, for both samplings), 20,000 resamples
    # give exactly that value.
    level = 0.85
    scores = np.array([3.0, 4, 1, 4, 1, 2, 2, 1])
    labels = np.array([1, 1, 1, 1, 0, 0, 0, 0])
    pc = np.array([0.3, 0.5, 0.7])
    threshold = np.array([3.0, 2, 1])
    cost, spread, live = _observed(scores, labels, threshold, pc, sampling)
    pos, neg = np.flatnonzero(labels == 1), np.flatnonzero(labels == 0)
    values, probabilities = [], []
    if sampling == "stratified":
        draws = itertools.product(_compositions(4, 4), _compositions(4, 4))
    else:
        draws = ((d[:4], d[4:]) for d in _compositions(8, 8))
    for draw_pos, draw_neg in draws:
        weights = np.zeros(len(labels))
        weights[pos], weights[neg] = draw_pos, draw_neg
        if sampling == "stratified":
            probability = _probability(draw_pos) * _probability(draw_neg)
        else:
            probability = _probability(np.r_[draw_pos, draw_neg])
        values.append(_statistic(scores, labels, threshold, pc, sampling, weights, (cost, live)))
        probabilities.append(probability)
    values, probabilities = np.array(values), np.array(probabilities)
    assert probabilities.sum() == pytest.approx(1, abs=1e-12)
    order = np.argsort(values, kind="stable")
    values, cumulative = values[order], np.cumsum(probabilities[order])
    quantile = values[np.searchsorted(cumulative, level - 1e-12)]
    same = np.isclose(values, quantile, rtol=1e-12, atol=0)
    assert cumulative[~same & (values < quantile)].max() < level - 0.02  # well inside
    assert cumulative[same].max() > level + 0.02
    selection = pd.DataFrame(
        {"pc_lo": [0, 0.4, 0.6], "pc_hi": [0.4, 0.6, 1.0], "threshold": threshold}
    )
    band = cc.bootstrap_band(
        pd.DataFrame({"s": scores, "y": labels}),
        score="s",
        label="y",
        selection=selection,
        pc=pc,
        sampling=sampling,
        confidence_level=level,
        simultaneous=True,
        n_resamples=20_000,
        rng=2,
    )
    # At pc 0.7 every negative is above the threshold: with the class totals fixed, every
    # resample has the same cost there and the band no width.
    np.testing.assert_array_equal(live, [True, True, sampling == "full"])
    np.testing.assert_array_equal(band["degenerate"], ~live)
    half = quantile * np.where(live, spread, 0)
    np.testing.assert_allclose(band["cost"], cost, rtol=1e-12)
    np.testing.assert_allclose(band["upper"], cost + half, rtol=1e-12)
    np.testing.assert_allclose(band["lower"], np.clip(cost - half, 0, None), rtol=1e-12, atol=1e-15)


def test_groups_get_their_own_factor_and_the_pointwise_band_is_inside():
    data = pd.concat([_data(1).assign(g="a"), _data(2, 200, 200).assign(g="b")])
    band = cc.bootstrap_band(data, score="s", label="y", by="g", simultaneous=True, rng=0)
    pointwise = cc.bootstrap_band(data, score="s", label="y", by="g", interval="normal")
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
            interval="normal",
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


def _instance_counts(scores, labels, threshold):
    """Indicator matrices (instances, pc): instance is a false negative / false positive."""
    predicted = scores[:, None] >= threshold[None, :]
    return (~predicted & (labels[:, None] == 1)).astype(float), (
        predicted & (labels[:, None] == 0)
    ).astype(float)


def _resample_weights(rng, weights, classes, draws):
    """Instance-bootstrap counts (draws, instances) from the distribution ``weights``,
    stratified by ``classes`` (each class keeps its total)."""
    out = np.zeros((draws, len(weights)))
    for members in classes:
        total = int(round(weights[members].sum()))
        out[:, members] = rng.multinomial(total, weights[members] / total, size=draws)
    return out


def _brute_force_double_bootstrap(data, threshold, pc, outer, calibrating, inner, seed):
    """The calibrated level by an instance-level double bootstrap (stratified)."""
    rng = np.random.default_rng(seed)
    scores, labels = data["s"].to_numpy(), data["y"].to_numpy()
    cost_0, _, live = _observed(scores, labels, threshold, pc, "stratified")
    is_fn, is_fp = _instance_counts(scores, labels, threshold)
    positives, negatives = labels.sum(), (1 - labels).sum()
    classes = (np.flatnonzero(labels == 1), np.flatnonzero(labels == 0))

    def deviation(weights, centre):  # (draws, instances) -> max over live pc
        fn, fp = weights @ is_fn, weights @ is_fp
        cost = pc * fn / positives + (1 - pc) * fp / negatives
        spread = _jeffreys_se(fn, fp, positives, negatives, pc, "stratified")
        return np.max((np.abs(cost - centre) / spread)[:, live], axis=1), cost

    weights = _resample_weights(rng, np.ones(len(labels)), classes, outer)
    deviations, costs = deviation(weights, cost_0)
    u = np.empty(calibrating)
    for b in range(calibrating):
        inner_weights = _resample_weights(rng, weights[b], classes, inner)
        inner_deviations, _ = deviation(inner_weights, costs[b])
        u[b] = np.mean(inner_deviations < deviations[b]) + 0.5 * np.mean(
            inner_deviations == deviations[b]
        )
    return np.clip(np.quantile(u, 0.9), 0.9, 1 - 10 / outer)


@pytest.mark.slow
def test_calibrated_level_equals_a_brute_force_double_bootstrap(monkeypatch):
    # simultaneous.calibrated_levels against a plain instance-level double bootstrap with
    # the same numbers of resamples and other random draws. Each level is the 0.9
    # quantile of 1,000 values u in [0, 1]: its Monte Carlo se is about
    # sqrt(0.9 * 0.1 / 1000) / density, 0.01 to 0.02 here; the tolerance is 0.03.
    monkeypatch.setattr(simultaneous, "CALIBRATION_OUTER", 1000)
    monkeypatch.setattr(simultaneous, "CALIBRATION_INNER", 400)
    found = []
    original = simultaneous.calibrated_levels

    def spy(*args, **kwargs):
        found.append(original(*args, **kwargs))
        return found[-1]

    monkeypatch.setattr(simultaneous, "calibrated_levels", spy)
    data = _data(10, 50, 50)
    selection = _selection_of_three(data)
    interval = np.searchsorted(selection["pc_lo"].to_numpy(), PC, side="right") - 1
    threshold = selection["threshold"].to_numpy()[interval]
    band = cc.bootstrap_band(
        data,
        score="s",
        label="y",
        selection=selection,
        pc=PC,
        simultaneous=True,
        n_resamples=4000,
        rng=1,
    )
    expected = _brute_force_double_bootstrap(data, threshold, PC, 4000, 1000, 400, seed=6)
    (level,) = found[0]
    assert 0.905 < expected < 0.99  # the calibration matters here, and is not at a bound
    assert level == pytest.approx(expected, abs=0.03)
    assert band.attrs["costchart"]["simultaneous"] is True
