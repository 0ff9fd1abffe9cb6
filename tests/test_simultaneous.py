"""Simultaneous bands: against a brute-force instance bootstrap, and their coverage."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import costchart as cc
from costchart._bands import simultaneous as simultaneous_module
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
    """The cost's standard error at the Jeffreys rates of the counts (stratified)."""
    w_fn, w_fp = pc / positives, (1 - pc) / negatives
    r_fn, r_fp = (fn + 0.5) / (positives + 1), (fp + 0.5) / (negatives + 1)
    return np.sqrt(
        w_fn**2 * positives * r_fn * (1 - r_fn) + w_fp**2 * negatives * r_fp * (1 - r_fp)
    )


def _reach(fn, fp, positives, negatives, pc, sampling, level=0.9):
    """The definition: how far the pointwise score interval reaches below and above.

    Each rate's equal-tailed Jeffreys limits (0 at no errors, 1 at all), combined for
    the cost by MOVER; with full sampling the rates are the cells over n.
    """
    tail = (1 - level) / 2
    m_fn, m_fp = (
        (positives, negatives) if sampling == "stratified" else (positives + negatives,) * 2
    )
    a, b = pc * m_fn / positives, (1 - pc) * m_fp / negatives
    parts = []
    for x, m in ((fn, m_fn), (fp, m_fp)):
        x = np.asarray(x, float)
        low = np.where(x > 0, stats.beta.ppf(tail, x + 0.5, m - x + 0.5), 0.0)
        high = np.where(x < m, stats.beta.isf(tail, x + 0.5, m - x + 0.5), 1.0)
        parts.append((x / m - np.nan_to_num(low), np.where(np.isnan(high), 1.0, high) - x / m))
    (down_fn, up_fn), (down_fp, up_fp) = parts
    return np.hypot(a * down_fn, b * down_fp), np.hypot(a * up_fn, b * up_fp)


def _statistic(scores, labels, threshold, pc, sampling, weights, observed, level=0.9):
    """The largest deviations below and above (where the plug-in se is positive):
    ``max (cost* - cost) / h_lower*`` and ``max (cost - cost*) / h_upper*``."""
    positives, negatives = labels.sum(), (1 - labels).sum()
    fn, fp = _counts(scores, labels, threshold, weights)
    cost = pc * fn / positives + (1 - pc) * fp / negatives
    cost_0, live = observed
    down, up = _reach(fn, fp, positives, negatives, pc, sampling, level)
    shift = (cost - cost_0)[live]
    with np.errstate(divide="ignore", invalid="ignore"):
        below = np.where(down[live] > 0, shift / down[live], np.where(shift > 0, np.inf, 0))
        above = np.where(up[live] > 0, -shift / up[live], np.where(-shift > 0, np.inf, 0))
    return below.max(), above.max()


def _observed(scores, labels, threshold, pc, sampling, level=0.9):
    """Cost, score-interval reach (below, above) and the pc whose plug-in se is positive."""
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
    return cost, _reach(fn, fp, positives, negatives, pc, sampling, level), plug_in > 0


def _brute_force_factors(data, selection, sampling, resamples=20_000, seed=5):
    """The 0.95 quantiles of the two deviations over instance resamples."""
    rng = np.random.default_rng(seed)
    scores, labels = data["s"].to_numpy(), data["y"].to_numpy()
    interval = np.searchsorted(selection["pc_lo"].to_numpy(), PC, side="right") - 1
    threshold = selection["threshold"].to_numpy()[interval]
    cost, reach, live = _observed(scores, labels, threshold, PC, sampling)
    pos, neg = np.flatnonzero(labels == 1), np.flatnonzero(labels == 0)
    deviations = np.empty((resamples, 2))
    for r in range(resamples):
        if sampling == "stratified":
            take = np.r_[rng.choice(pos, len(pos)), rng.choice(neg, len(neg))]
        else:
            take = rng.integers(0, len(labels), len(labels))
        weights = np.bincount(take, minlength=len(labels)).astype(float)
        deviations[r] = _statistic(scores, labels, threshold, PC, sampling, weights, (cost, live))
    return np.quantile(deviations, 0.95, axis=0), reach, live


@pytest.fixture
def uncalibrated(monkeypatch):
    """The bootstrap-t factor at the nominal level (no double-bootstrap calibration)."""
    monkeypatch.setattr(simultaneous_module, "CALIBRATION_OUTER", 0)


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
    (below, above), (down, up), live = _brute_force_factors(data, selection, sampling)
    np.testing.assert_array_equal(live, band["se"].to_numpy() > 0)
    reach_up = (band["upper"] - band["cost"]).to_numpy()[live] / up[live]
    reach_down = (band["cost"] - band["lower"]).to_numpy()[live] / down[live]
    np.testing.assert_allclose(reach_up, reach_up[0], rtol=1e-12)  # one factor per side
    unclipped = band["lower"].to_numpy()[live] > 0
    np.testing.assert_allclose(reach_down[unclipped], reach_down[unclipped][0], rtol=1e-12)
    assert reach_up[0] == pytest.approx(max(above, 1), rel=0.03)
    assert reach_down[unclipped][0] == pytest.approx(max(below, 1), rel=0.03)
    assert above > 1.2  # wider than the pointwise score band


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
    # Eight instances: every resample can be listed with its probability, so the
    # (1 + level) / 2 quantile of each side's largest deviation is known exactly. Where
    # it falls well inside one value's probability (checked below), 20,000 resamples give
    # exactly that value.
    level = LEVELS[sampling]
    scores = np.array([3.0, 4, 1, 4, 1, 2, 2, 1])
    labels = np.array([1, 1, 1, 1, 0, 0, 0, 0])
    pc = np.array([0.3, 0.5, 0.7])
    threshold = np.array([3.0, 2, 1])
    cost, (down, up), live = _observed(scores, labels, threshold, pc, sampling, level)
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
        values.append(
            _statistic(scores, labels, threshold, pc, sampling, weights, (cost, live), level)
        )
        probabilities.append(probability)
    values, probabilities = np.array(values), np.array(probabilities)
    assert probabilities.sum() == pytest.approx(1, abs=1e-12)
    factors = []
    for side in (0, 1):
        order = np.argsort(values[:, side], kind="stable")
        ordered, cumulative = values[order, side], np.cumsum(probabilities[order])
        quantile = ordered[np.searchsorted(cumulative, (1 + level) / 2 - 1e-12)]
        same = np.isclose(ordered, quantile, rtol=1e-12, atol=0)
        assert cumulative[~same & (ordered < quantile)].max() < (1 + level) / 2 - 0.01
        assert cumulative[same].max() > (1 + level) / 2 + 0.01
        factors.append(max(quantile, 1.0))  # never narrower than the pointwise band
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
    np.testing.assert_allclose(band["cost"], cost, rtol=1e-12)
    upper = cost + factors[1] * np.where(live, up, 0)
    lower = np.clip(cost - factors[0] * np.where(live, down, 0), 0, None)
    np.testing.assert_allclose(band["upper"], upper, rtol=1e-12)
    np.testing.assert_allclose(band["lower"], lower, rtol=1e-12, atol=1e-15)


#: Levels whose side quantiles fall well inside one value's probability in the small case.
LEVELS = {"stratified": 0.85, "full": 0.8}


def test_groups_get_their_own_factor_and_the_pointwise_band_is_inside():
    data = pd.concat([_data(1).assign(g="a"), _data(2, 200, 200).assign(g="b")])
    exact = {"inference": "exact_bootstrap"}
    band = cc.bootstrap_band(data, score="s", label="y", by="g", simultaneous=True, rng=0, **exact)
    pointwise = cc.bootstrap_band(data, score="s", label="y", by="g", **exact)
    assert (band["lower"] <= pointwise["lower"] + 1e-12).all()
    assert (band["upper"] >= pointwise["upper"] - 1e-12).all()
    assert (band["cost"] == pointwise["cost"]).all() and (band["se"] == pointwise["se"]).all()
    live = band[band["se"] > 0]
    factors = ((live["upper"] - live["cost"]) / live["se"]).groupby(live["g"]).median()
    assert factors["a"] != pytest.approx(factors["b"], rel=1e-3)
    assert band.attrs["costchart"]["simultaneous"] is True
    assert cc.band_label(band) == "90 % simultaneous bootstrap band (whole curve; 2,000 resamples)"


def test_the_simultaneous_band_reports_its_joint_resamples_and_its_calibration():
    data = pd.concat([_data(1).assign(g="a"), _data(2).assign(g="b")])
    options = {"score": "s", "label": "y", "by": "g", "simultaneous": True, "rng": 0}
    options["inference"] = "exact_bootstrap"
    told: list[str] = []
    band = cc.bootstrap_band(data, progress=told.append, **options)
    pd.testing.assert_frame_equal(band, cc.bootstrap_band(data, **options))
    assert "simultaneous band: 2 of 2 groups resampled jointly" in told
    # Each group's first 200 resamples are taken as the sample: 400 in all.
    calibration = [m for m in told if "calibrated on" in m]
    assert calibration and calibration[-1] == (
        "simultaneous band: calibrated on 400 of 400 resamples taken as the sample"
    )
    assert told.index(calibration[0]) > told.index(
        "simultaneous band: 2 of 2 groups resampled jointly"
    )


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
            {"simultaneous": True, "n_resamples": 150, "inference": "exact_bootstrap"},
            r"n_resamples=150 is too few for a simultaneous 0.9 band: .* n_resamples >= 200",
        ),
        (  # the level as given: with :g it read "a simultaneous 1 band"
            {
                "simultaneous": True,
                "confidence_level": 0.999999999999,
                "inference": "exact_bootstrap",
            },
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
        total = round(weights[members].sum())
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

    def deviations(weights, centre):  # (draws, instances) -> both sides' maxima, costs
        fn, fp = weights @ is_fn, weights @ is_fp
        cost = pc * fn / positives + (1 - pc) * fp / negatives
        down, up = _reach(fn, fp, positives, negatives, pc, "stratified")
        shift = (cost - centre)[:, live]
        with np.errstate(divide="ignore", invalid="ignore"):
            below = np.where(down[:, live] > 0, shift / down[:, live], np.inf * (shift > 0))
            above = np.where(up[:, live] > 0, -shift / up[:, live], np.inf * (shift < 0))
        return (
            np.nan_to_num(below, nan=0.0).max(axis=1),
            np.nan_to_num(above, nan=0.0).max(axis=1),
            cost,
        )

    weights = _resample_weights(rng, np.ones(len(labels)), classes, outer)
    below, above, costs = deviations(weights, cost_0)
    u = np.empty(calibrating)
    for b in range(calibrating):
        inner_weights = _resample_weights(rng, weights[b], classes, inner)
        inner_below, inner_above, _ = deviations(inner_weights, costs[b])
        placed = [
            np.mean(values < own) + 0.5 * np.mean(values == own)
            for values, own in ((inner_below, below[b]), (inner_above, above[b]))
        ]
        u[b] = 2 * max(placed) - 1
    return np.clip(np.quantile(u, 0.9), 0.9, 1 - 20 / outer)


@pytest.mark.slow
def test_calibrated_level_equals_a_brute_force_double_bootstrap(monkeypatch):
    # simultaneous.calibrated_levels against a plain instance-level double bootstrap with
    # the same numbers of resamples and other random draws. Each level is the 0.9
    # quantile of 1,000 values u in [0, 1]: its Monte Carlo se is about
    # sqrt(0.9 * 0.1 / 1000) / density, 0.01 to 0.02 here; the tolerance is 0.03.
    monkeypatch.setattr(simultaneous_module, "CALIBRATION_OUTER", 1000)
    monkeypatch.setattr(simultaneous_module, "CALIBRATION_INNER", 400)
    found = []
    original = simultaneous_module.calibrated_levels

    def spy(*args, **kwargs):
        found.append(original(*args, **kwargs))
        return found[-1]

    monkeypatch.setattr(simultaneous_module, "calibrated_levels", spy)
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
