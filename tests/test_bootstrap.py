import functools
import itertools
import warnings

import numpy as np
import pandas as pd
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from strategies import scored_instances

import costchart as cc
from costchart._io import schema as _schema

# The worked example of the cost-curve paper: 20 positives (16 right), 10 negatives (6 right).
Y = np.array([1] * 20 + [0] * 10)
PREDICTED = np.array([1] * 16 + [0] * 4 + [1] * 4 + [0] * 6)
EXAMPLE = {"p": PREDICTED, "y": Y}
PCS = np.array([0.1, 0.25, 0.5, 0.6, 0.75, 0.9])

#: Every (inference, interval) pair a band computes (``costchart._io.intervals.SUPPORTED``).
INTERVAL_PAIRS = [
    ("exact_bootstrap", "auto"),
    ("exact_bootstrap", "normal"),
    ("exact_bootstrap", "discrete"),
    ("bootstrap", "auto"),
    ("bootstrap", "percentile"),
]


def _band(**options):
    return cc.bootstrap_band(EXAMPLE, score="p", label="y", threshold=1, pc=PCS, **options)


def _instance_bootstrap(sampling, resamples=50_000, seed=7):
    """An independent reference: resample the instances themselves and recount."""
    rng = np.random.default_rng(seed)
    positive, negative = np.flatnonzero(Y == 1), np.flatnonzero(Y == 0)
    wrong = PREDICTED != Y
    if sampling == "stratified":
        fn = wrong[rng.choice(positive, size=(resamples, len(positive)))].sum(axis=1)
        fp = wrong[rng.choice(negative, size=(resamples, len(negative)))].sum(axis=1)
        costs = PCS * (fn[:, None] / 20) + (1 - PCS) * (fp[:, None] / 10)
    else:
        index = rng.integers(0, len(Y), size=(resamples, len(Y)))
        fn = (wrong[index] & (Y[index] == 1)).sum(axis=1)
        fp = (wrong[index] & (Y[index] == 0)).sum(axis=1)
        pi = 20 / 30
        costs = (PCS / pi * fn[:, None] + (1 - PCS) / (1 - pi) * fp[:, None]) / 30
    return costs


@pytest.mark.parametrize("sampling", ["stratified", "full"])
def test_exact_moments_equal_monte_carlo(sampling):
    exact = _band(sampling=sampling, interval="normal")
    costs = _instance_bootstrap(sampling)
    resamples = costs.shape[0]
    mean_error = costs.std(axis=0) / np.sqrt(resamples)
    np.testing.assert_array_less(np.abs(costs.mean(axis=0) - exact["cost"]), 4 * mean_error + 1e-12)
    sd_error = exact["se"] / np.sqrt(2 * (resamples - 1))
    np.testing.assert_array_less(
        np.abs(costs.std(axis=0, ddof=1) - exact["se"]), 5 * sd_error + 1e-12
    )
    # The package's own resampling agrees as well.
    resampled = _band(sampling=sampling, inference="bootstrap", n_resamples=50_000, rng=3)
    np.testing.assert_array_less(np.abs(resampled["se"] - exact["se"]), 5 * sd_error + 1e-12)


def _quantile(values, probabilities, level):
    order = np.argsort(values, kind="stable")
    cumulative = np.cumsum(probabilities[order])
    return values[order][np.searchsorted(cumulative, level - 1e-12)]


@pytest.mark.parametrize("sampling", ["stratified", "full"])
def test_exact_quantiles_equal_brute_force_enumeration(sampling):
    band = _band(sampling=sampling, interval="discrete")
    fn_range, fp_range = np.arange(21), np.arange(11)
    if sampling == "stratified":
        fn, fp = np.meshgrid(fn_range, fp_range, indexing="ij")
        probabilities = stats.binom.pmf(fn, 20, 4 / 20) * stats.binom.pmf(fp, 10, 4 / 10)
        cost = lambda pc: pc * fn / 20 + (1 - pc) * fp / 10  # noqa: E731
    else:
        cells = [(a, b) for a, b in itertools.product(range(31), range(31)) if a + b <= 30]
        fn = np.array([a for a, _ in cells])
        fp = np.array([b for _, b in cells])
        probabilities = stats.multinomial.pmf(
            np.column_stack([fn, fp, 30 - fn - fp]), 30, [4 / 30, 4 / 30, 22 / 30]
        )
        cost = lambda pc: (pc / (2 / 3) * fn + (1 - pc) / (1 / 3) * fp) / 30  # noqa: E731
    for row in band.itertuples():
        values = np.ravel(cost(row.pc))
        assert row.lower == pytest.approx(
            _quantile(values, np.ravel(probabilities), 0.05), abs=1e-12
        )
        assert row.upper == pytest.approx(
            _quantile(values, np.ravel(probabilities), 0.95), abs=1e-12
        )


def test_stratified_band_is_narrowest_at_three_quarters():
    pc = np.linspace(0.01, 0.99, 99)
    band = cc.bootstrap_band(EXAMPLE, score="p", label="y", threshold=1, pc=pc, interval="normal")
    assert pc[np.argmin(band["se"])] == pytest.approx(0.75)
    # sigma_FP^2 / (sigma_FN^2 + sigma_FP^2) = 0.024 / 0.032
    assert band.loc[np.isclose(pc, 0.75), "se"].iat[0] ** 2 == pytest.approx(
        0.75**2 * 0.008 + 0.25**2 * 0.024
    )


def test_confusion_band_equals_band_of_crisp_predictions():
    counts = cc.confusion_band(
        {"TP": [16], "FN": [4], "FP": [4], "TN": [6]}, tp="TP", fn="FN", fp="FP", tn="TN", pc=PCS
    )
    pd.testing.assert_frame_equal(counts, _band())


def test_envelope_band_uses_the_selected_classifier(rng):
    y = rng.random(300) < 0.4
    data = pd.DataFrame({"s": np.round(rng.normal(size=300) + 1.3 * y, 1), "y": y})
    band = cc.bootstrap_band(data, score="s", label="y")
    envelope = cc.lower_envelope(cc.roc_points(data, score="s", label="y"))
    np.testing.assert_allclose(
        band["cost"], np.interp(band["pc"], envelope["pc"], envelope["cost"]), atol=1e-12
    )
    assert (band["lower"] <= band["cost"] + 1e-12).all() and (
        band["cost"] <= band["upper"] + 1e-12
    ).all()
    # With a selection from other data, the band follows that hybrid.
    validation = pd.DataFrame({"s": np.round(rng.normal(size=300) + 1.3 * y, 1), "y": y})
    selection = cc.selection_table(cc.roc_points(validation, score="s", label="y"))
    honest = cc.bootstrap_band(data, score="s", label="y", selection=selection)
    hybrid = cc.apply_selection(data, selection, score="s", label="y")
    inside = (honest["pc"] > 0) & (honest["pc"] < 1)
    expected = [
        hybrid[(hybrid.pc <= pc)].iloc[-1]
        if (hybrid.pc == pc).sum() < 2
        else hybrid[hybrid.pc == pc].iloc[-1]
        for pc in honest.loc[inside, "pc"]
    ]
    expected_cost = [
        row.fpr + pc * (1 - row.tpr - row.fpr)
        for row, pc in zip(expected, honest.loc[inside, "pc"])
    ]
    np.testing.assert_allclose(honest.loc[inside, "cost"], expected_cost, atol=1e-12)
    assert (
        honest["cost"] >= np.interp(honest["pc"], envelope["pc"], envelope["cost"]) - 1e-12
    ).all()


def test_band_groups_and_columns(demo_points):
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset == 'sonar'")
    band = cc.bootstrap_band(data, score="score", label="label", by="classifier", pc=[0.3, 0.5])
    assert list(band.columns) == ["classifier", "pc", "cost", "lower", "upper", "se", "degenerate"]
    assert len(band) == 6


@pytest.mark.slow
def test_coverage_of_binormal_bands():
    """90 % bands cover the true cost about 90 % of the time (binomial test)."""
    rng = np.random.default_rng(2008)
    mu, sigma = 1.5, 3.0  # positives N(1.5, 3), negatives N(0, 1)
    pcs = np.array([0.3, 0.4, 0.5, 0.6, 0.7])
    grid = np.linspace(-3, 6, 2001)
    thresholds, true_costs = [], []
    for pc in pcs:  # the threshold that is optimal under the true distributions
        cost = pc * stats.norm.cdf((grid - mu) / sigma) + (1 - pc) * stats.norm.sf(grid)
        thresholds.append(grid[np.argmin(cost)])
        true_costs.append(cost.min())
    simulations, covered = 300, np.zeros(len(pcs), dtype=int)
    for _ in range(simulations):
        y = np.array([1] * 60 + [0] * 60)
        scores = np.where(y == 1, rng.normal(mu, sigma, 120), rng.normal(0, 1, 120))
        for k, (pc, threshold) in enumerate(zip(pcs, thresholds)):
            band = cc.bootstrap_band(
                {"s": scores, "y": y}, score="s", label="y", threshold=threshold, pc=[pc]
            )
            covered[k] += band["lower"].iat[0] <= true_costs[k] <= band["upper"].iat[0]
    total = int(covered.sum())
    trials = simulations * len(pcs)
    # The five pcs of one simulation are correlated; test each pc separately, and the pooled
    # rate loosely.
    for hits in covered:
        assert stats.binomtest(int(hits), simulations, 0.9).pvalue > 0.001, covered / simulations
    assert 0.85 < total / trials < 0.95


def _pair(rng, correlated: bool, n=400):
    y = np.array([1] * (n // 2) + [0] * (n // 2))
    a = np.where(y == 1, rng.random(n) < 0.75, rng.random(n) < 0.25)
    if correlated:
        flip = rng.random(n) < 0.1
        b = np.where(flip, ~a, a)
    else:
        b = np.where(y == 1, rng.random(n) < 0.75, rng.random(n) < 0.25)
    return pd.DataFrame(
        {
            "model": ["a"] * n + ["b"] * n,
            "id": np.tile(np.arange(n), 2),
            "y": np.tile(y, 2),
            "p": np.concatenate([a, b]).astype(int),
        }
    )


@pytest.mark.parametrize("sampling", ["stratified", "full"])
def test_correlated_classifiers_give_a_narrower_difference_band(rng, sampling):
    widths = {}
    for correlated in (True, False):
        band = cc.difference_band(
            _pair(rng, correlated),
            score="p",
            label="y",
            classifier="model",
            instance="id",
            threshold=(1, 1),
            pc=[0.5],
            sampling=sampling,
        )
        widths[correlated] = float(band["upper"].iat[0] - band["lower"].iat[0])
    assert widths[True] < 0.6 * widths[False]


def _difference_reference(data, sampling, resamples=50_000, seed=11):
    rng = np.random.default_rng(seed)
    a = data[data.model == "a"].sort_values("id")
    b = data[data.model == "b"].sort_values("id")
    y = a.y.to_numpy()
    wrong_a, wrong_b = a.p.to_numpy() != y, b.p.to_numpy() != y
    positives, negatives = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    if sampling == "stratified":
        ip = rng.choice(positives, size=(resamples, len(positives)))
        ineg = rng.choice(negatives, size=(resamples, len(negatives)))
        d_pos = (wrong_a[ip].sum(1) - wrong_b[ip].sum(1)) / len(positives)
        d_neg = (wrong_a[ineg].sum(1) - wrong_b[ineg].sum(1)) / len(negatives)
        return 0.5 * d_pos + 0.5 * d_neg
    index = rng.integers(0, len(y), size=(resamples, len(y)))
    pi = len(positives) / len(y)
    is_pos = y[index] == 1
    d_fn = ((wrong_a[index] & is_pos).sum(1) - (wrong_b[index] & is_pos).sum(1)) / pi
    d_fp = ((wrong_a[index] & ~is_pos).sum(1) - (wrong_b[index] & ~is_pos).sum(1)) / (1 - pi)
    return (0.5 * d_fn + 0.5 * d_fp) / len(y)


@pytest.mark.parametrize("sampling", ["stratified", "full"])
def test_difference_moments_equal_monte_carlo(sampling):
    data = _pair(np.random.default_rng(4), correlated=True, n=60)
    exact = cc.difference_band(
        data,
        score="p",
        label="y",
        classifier="model",
        instance="id",
        threshold=(1, 1),
        pc=[0.5],
        sampling=sampling,
        interval="normal",
    )
    samples = _difference_reference(data, sampling)
    se = exact["se"].iat[0]
    assert abs(samples.mean() - exact["difference"].iat[0]) < 4 * se / np.sqrt(len(samples))
    assert abs(samples.std(ddof=1) - se) < 5 * se / np.sqrt(2 * len(samples))
    resampled = cc.difference_band(
        data,
        score="p",
        label="y",
        classifier="model",
        instance="id",
        threshold=(1, 1),
        pc=[0.5],
        sampling=sampling,
        inference="bootstrap",
        n_resamples=50_000,
        rng=2,
    )
    assert abs(resampled["se"].iat[0] - se) < 5 * se / np.sqrt(2 * 50_000)


def _joint_layers(data):
    """The 3-D confusion matrix of a pair: positives then negatives, cells a+b+, a+b-, a-b+, a-b-."""
    a = data[data.model == "a"].sort_values("id")
    b = data[data.model == "b"].sort_values("id")
    y = a.y.to_numpy()
    wa, wb = a.p.to_numpy().astype(bool), b.p.to_numpy().astype(bool)
    return [
        [
            int(np.sum(members & wa & wb)),
            int(np.sum(members & wa & ~wb)),
            int(np.sum(members & ~wa & wb)),
            int(np.sum(members & ~wa & ~wb)),
        ]
        for members in (y == 1, y == 0)
    ]


def _enumerate(counts):
    """Every outcome of Multinomial(sum(counts), counts / sum) with its probability."""
    m = int(sum(counts))
    outcomes = np.array(
        [c for c in itertools.product(range(m + 1), repeat=len(counts)) if sum(c) == m]
    )
    return outcomes, stats.multinomial.pmf(outcomes, m, np.array(counts) / m)


def _difference_band(data, interval="discrete", **options):
    return cc.difference_band(
        data,
        score="p",
        label="y",
        classifier="model",
        instance="id",
        threshold=(1, 1),
        interval=interval,
        **options,
    )


def test_difference_exact_quantiles_equal_enumeration():
    data = _pair(np.random.default_rng(9), correlated=False, n=16)
    band = _difference_band(data, pc=[0.3, 0.5])
    positives, negatives = _joint_layers(data)
    pos, p_pos = _enumerate(positives)
    neg, p_neg = _enumerate(negatives)
    d_pos = (pos[:, 2] - pos[:, 1]) / sum(positives)  # a's extra false negatives
    d_neg = (neg[:, 1] - neg[:, 2]) / sum(negatives)  # a's extra false positives
    for row in band.itertuples():
        values = (row.pc * d_pos[:, None] + (1 - row.pc) * d_neg[None, :]).ravel()
        probs = (p_pos[:, None] * p_neg[None, :]).ravel()
        assert row.lower == pytest.approx(_quantile(values, probs, 0.05), abs=1e-12)
        assert row.upper == pytest.approx(_quantile(values, probs, 0.95), abs=1e-12)


def test_full_sampling_difference_exact_quantiles_equal_enumeration():
    data = _pair(np.random.default_rng(7), correlated=False, n=14)
    band = _difference_band(data, pc=[0.2, 0.5, 0.8], sampling="full")
    positives, negatives = _joint_layers(data)
    # Only the four discordant cells move the difference; lump the rest into one cell.
    discordant = [positives[1], positives[2], negatives[1], negatives[2]]
    outcomes, probs = _enumerate([*discordant, 14 - sum(discordant)])
    pi = sum(positives) / 14
    extra_fn = outcomes[:, 1] - outcomes[:, 0]
    extra_fp = outcomes[:, 2] - outcomes[:, 3]
    for row in band.itertuples():
        values = (row.pc / pi * extra_fn + (1 - row.pc) / (1 - pi) * extra_fp) / 14
        assert row.lower == pytest.approx(_quantile(values, probs, 0.05), abs=1e-12)
        assert row.upper == pytest.approx(_quantile(values, probs, 0.95), abs=1e-12)


@pytest.mark.parametrize("sampling", ["stratified", "full"])
def test_auto_difference_band_is_the_normal_fit(rng, sampling):
    # The measured coverage (tests/benchmarks/bench_coverage.py) chose the normal fit.
    small = _pair(np.random.default_rng(8), correlated=False, n=30)
    exact = _difference_band(small, pc=[0.5], sampling=sampling)
    auto = _difference_band(small, pc=[0.5], sampling=sampling, interval="auto")
    normal = _difference_band(small, pc=[0.5], sampling=sampling, interval="normal")
    pd.testing.assert_frame_equal(auto, normal)
    assert exact["lower"].iat[0] != normal["lower"].iat[0]
    large = _pair(rng, correlated=False, n=4000)
    auto = _difference_band(large, pc=[0.5], sampling=sampling, interval="auto")
    normal = _difference_band(large, pc=[0.5], sampling=sampling, interval="normal")
    pd.testing.assert_frame_equal(auto, normal)
    exact = _difference_band(large, pc=[0.5], sampling=sampling)
    # With thousands of instances the exact quantiles are close to the normal fit.
    for end in ("lower", "upper"):
        assert exact[end].iat[0] == pytest.approx(normal[end].iat[0], abs=0.1 * normal["se"].iat[0])


DIFF = _pair(np.random.default_rng(0), correlated=False, n=20)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: _band(confidence_level=1.0),
            r"confidence_level=1\.0 is outside \(0, 1\); pass a value in \(0, 1\)",
        ),
        (lambda: _band(confidence_level=0), r"confidence_level=0\.0 is outside \(0, 1\)"),
        (
            lambda: _band(inference="bootstrap", n_resamples=50),
            r"n_resamples=50 is too few for a 0\.9 band: each tail needs at least 10 resamples, so pass n_resamples >= 200",
        ),
        (
            lambda: _band(inference="jackknife"),
            r"inference='jackknife' is not an option; pass one of 'exact_bootstrap', 'bootstrap', 'delong'",
        ),
        (lambda: _band(sampling="paired"), r"sampling='paired' is not an option"),
        (lambda: _band(interval="t"), r"interval='t' is not an option"),
        (
            lambda: _band(inference="delong"),
            r"inference='delong' \(DeLong's variance\) is not available in bootstrap_band; pass "
            r"inference='exact_bootstrap' or 'bootstrap'",
        ),
        (
            lambda: _band(interval="percentile"),
            r"interval='percentile' \(percentiles of resamples\) is not available with "
            r"inference='exact_bootstrap' in bootstrap_band; pass inference='bootstrap'",
        ),
        (
            lambda: cc.bootstrap_band(EXAMPLE, score="p", label="y", pc=[1.2]),
            r"pc=1\.2 is outside \[0, 1\]",
        ),
        (
            lambda: cc.bootstrap_band({"p": [1, 0], "y": [1, 1]}, score="p", label="y"),
            r"column 'y' has no negatives; ROC analysis needs both classes",
        ),
        (
            lambda: cc.bootstrap_band(
                EXAMPLE, score="p", label="y", threshold=1, selection=pd.DataFrame()
            ),
            r"pass selection= or threshold=, not both",
        ),
        (
            lambda: cc.difference_band(
                DIFF[~((DIFF.model == "b") & (DIFF.id == 3))],
                score="p",
                label="y",
                classifier="model",
                instance="id",
            ),
            r"the classifiers do not share their instances: 1 only in 'a', 0 only in 'b' \(e\.g\. id=3\)",
        ),
        (
            lambda: cc.difference_band(
                pd.concat([DIFF, DIFF.iloc[:1]]),
                score="p",
                label="y",
                classifier="model",
                instance="id",
            ),
            r"classifier 'a' scores instance 0 more than once",
        ),
        (
            lambda: cc.difference_band(
                DIFF.assign(model="a"), score="p", label="y", classifier="model", instance="id"
            ),
            r"column 'model' has one classifier \('a'\); a comparison needs two",
        ),
        (
            lambda: cc.difference_band(
                DIFF.assign(y=1), score="p", label="y", classifier="model", instance="id"
            ),
            r"column 'y' has one class only; a difference band needs both",
        ),
    ],
)
def test_band_errors(call, message):
    with pytest.raises(cc.CostchartError, match=message):
        call()


def test_confusion_band_of_the_envelope_uses_trivial_classifiers_where_cheaper():
    counts = {"TP": [16], "FN": [4], "FP": [4], "TN": [6]}
    band = cc.confusion_band(
        counts, tp="TP", fn="FN", fp="FP", tn="TN", pc=[0.1, 0.5, 0.9], of="envelope"
    )
    # The classifier's line 0.4 - 0.2 pc is beaten by always-negative (pc) at 0.1 and by
    # always-positive (1 - pc) at 0.9; those have no variance.
    np.testing.assert_allclose(band["cost"], [0.1, 0.3, 0.1])
    np.testing.assert_allclose(band["se"].to_numpy()[[0, 2]], 0)
    assert band["se"].iat[1] > 0


def test_band_of_a_classifier_on_a_trivial_point():
    # A "classifier" that predicts everything negative duplicates the (0, 0) point.
    counts = {"TP": [0], "FN": [20], "FP": [0], "TN": [10]}
    band = cc.confusion_band(
        counts, tp="TP", fn="FN", fp="FP", tn="TN", pc=[0.2, 0.8], of="envelope"
    )
    np.testing.assert_allclose(band["cost"], [0.2, 0.2])
    np.testing.assert_allclose(band["se"], 0)


def test_band_at_reads_one_operating_point():
    band = _band(interval="normal")
    at = cc.band_at(band, 0.74, confidence_level=0.9)
    assert isinstance(at, cc.Band)
    row = band[band.pc == 0.75].iloc[0]
    assert (at.pc, at.cost, at.lower, at.upper, at.se) == (
        0.75,
        row.cost,
        row.lower,
        row.upper,
        row.se,
    )
    assert at.confidence_level == 0.9


@pytest.mark.parametrize("sampling", ["stratified", "full"])
def test_difference_of_classifiers_that_always_agree_is_exactly_zero(sampling):
    data = _pair(np.random.default_rng(0), correlated=False, n=12)
    data.loc[data.model == "b", "p"] = data.loc[data.model == "a", "p"].to_numpy()
    band = _difference_band(data, pc=[0.2, 0.7], sampling=sampling)
    assert (band[["difference", "lower", "upper", "se"]] == 0).all(axis=None)
    assert not band["significant"].any()


# -- issue 10: every edge of the band options -------------------------------------------


@pytest.mark.parametrize(
    ("threshold", "message"),
    [
        (np.nan, r"threshold=nan is not a threshold; pass a number \(inf for the always-negative"),
        ("x", r"threshold='x' must be a number \(the classifier predicts positive when score >="),
        ([1, 2], r"threshold=\[1, 2\] must be a number"),
    ],
)
def test_threshold_must_be_a_number(threshold, message):
    with pytest.raises(cc.CostchartError, match=message):
        cc.bootstrap_band(EXAMPLE, score="p", label="y", threshold=threshold, pc=[0.5])


def test_infinite_thresholds_are_the_trivial_classifiers():
    pc = np.array([0.2, 0.7])
    never = cc.bootstrap_band(EXAMPLE, score="p", label="y", threshold=np.inf, pc=pc)
    always = cc.bootstrap_band(EXAMPLE, score="p", label="y", threshold=-np.inf, pc=pc)
    np.testing.assert_array_equal(never["cost"], pc)
    np.testing.assert_array_equal(always["cost"], 1 - pc)
    for band in (never, always):
        np.testing.assert_array_equal(band["se"], 0)
        np.testing.assert_array_equal(band["lower"], band["cost"])
        np.testing.assert_array_equal(band["upper"], band["cost"])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"inference": "bootstrap", "n_resamples": np.nan},
            r"n_resamples=nan must be a whole number",
        ),
        ({"inference": "bootstrap", "n_resamples": "x"}, r"n_resamples='x' must be a whole number"),
        (
            {"inference": "bootstrap", "n_resamples": None},
            r"n_resamples=None must be a whole number",
        ),
        ({"n_resamples": "x"}, r"n_resamples='x' must be a whole number"),
        (
            {"inference": "bootstrap", "n_resamples": 1000.5},
            r"n_resamples=1000\.5 must be a whole number",
        ),
        (
            {"inference": "bootstrap", "n_resamples": 10**12},
            r"n_resamples=1,000,000,000,000 at 6 operating points would need about "
            r"[\d,.]+ GiB of memory \(at most 2 GiB is allowed\); pass n_resamples <= "
            r"14,913,080, fewer pc values, or inference='exact_bootstrap'",
        ),
        (
            {"inference": "bootstrap", "rng": "x"},
            r"rng='x' is not a seed; pass None, a non-negative",
        ),
        ({"inference": "bootstrap", "rng": -1}, r"rng=-1 is not a seed"),
        ({"inference": "bootstrap", "rng": 1.5}, r"rng=1\.5 is not a seed"),
        ({"inference": "bootstrap", "rng": object()}, r"rng=<object object at .*> is not a seed"),
        ({"pc": []}, r"pc=\[\] has no operating points; pass at least one value in \[0, 1\]"),
        (
            {"pc": [[0.1, 0.2], [0.3, 0.4]]},
            r"pc must be a number or a 1-D array of operating points; got shape \(2, 2\)",
        ),
        ({"pc": [0.2, np.nan]}, r"pc=nan is outside \[0, 1\]"),
        ({"confidence_level": "x"}, r"confidence_level='x' must be a number"),
        ({"confidence_level": np.nan}, r"confidence_level=nan must be a finite number"),
        ({"confidence_level": None}, r"confidence_level=None must be a number"),
        (
            {"inference": ["exact_bootstrap"]},
            r"inference=\['exact_bootstrap'\] is not an option; pass one of 'exact_bootstrap'",
        ),
        ({"sampling": None}, r"sampling=None is not an option; pass one of 'stratified', 'full'"),
        ({"interval": 1}, r"interval=1 is not an option; pass one of 'auto', 'normal'"),
        (
            {"progress": np.array([1, 2])},
            r"progress=array\(\[1, 2\]\) must be True, False or a callable taking a message",
        ),
        ({"progress": "yes"}, r"progress='yes' must be True, False or a callable"),
    ],
)
def test_band_options_are_validated(options, message):
    options.setdefault("pc", PCS)
    with pytest.raises(cc.CostchartError, match=message):
        cc.bootstrap_band(EXAMPLE, score="p", label="y", threshold=1, **options)
    with pytest.raises(cc.CostchartError, match=message):
        cc.confusion_band(
            {"TP": [16], "FN": [4], "FP": [4], "TN": [6]},
            tp="TP",
            fn="FN",
            fp="FP",
            tn="TN",
            **options,
        )


def test_resampled_band_is_reproducible_and_reports_progress():
    messages = []
    first = _band(inference="bootstrap", n_resamples=5000, rng=1, progress=messages.append)
    second = _band(inference="bootstrap", n_resamples=5000, rng=np.random.default_rng(1))
    pd.testing.assert_frame_equal(first, second)
    assert messages == [
        "resampled 2,000 of 5,000",
        "resampled 4,000 of 5,000",
        "resampled 5,000 of 5,000",
    ]
    assert (first["lower"] <= first["cost"]).all() and (first["cost"] <= first["upper"]).all()


def test_a_grouped_resampled_band_names_the_group_in_its_progress():
    rng = np.random.default_rng(0)
    y = rng.random(200) < 0.5
    data = pd.DataFrame({"g": np.repeat(["a", "b"], 100), "s": rng.normal(size=200) + y, "y": y})
    messages: list[str] = []
    options = dict(score="s", label="y", inference="bootstrap", n_resamples=200, pc=[0.5])
    cc.bootstrap_band(data, by="g", progress=messages.append, **options)
    assert messages == ["group 1 of 2: resampled 200 of 200", "group 2 of 2: resampled 200 of 200"]


def _scored(seed=5, n=200):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    return pd.DataFrame({"s": np.round(rng.normal(size=n) + 1.3 * y, 1), "y": y})


def test_selection_may_be_polars_pyarrow_or_a_dict_of_arrays():
    import polars as pl
    import pyarrow as pa

    data = _scored()
    selection = cc.selection_table(cc.roc_points(_scored(seed=6), score="s", label="y"))
    expected = cc.bootstrap_band(data, score="s", label="y", selection=selection)
    for other in (
        pl.from_pandas(selection),
        pa.Table.from_pandas(selection),
        {c: selection[c].to_numpy() for c in selection.columns},
    ):
        band = cc.bootstrap_band(data, score="s", label="y", selection=other)
        pd.testing.assert_frame_equal(band, expected)


SELECTION = pd.DataFrame(
    {
        "pc_lo": [0.0, 0.4],
        "pc_hi": [0.4, 1.0],
        "threshold": [1.0, 0.0],
        "fpr": [0.1, 0.5],
        "tpr": [0.6, 0.9],
    }
)


@pytest.mark.parametrize(
    ("selection", "message"),
    [
        (
            {"pc_lo": 0.0, "pc_hi": 1.0, "threshold": 1.0},
            r"selection holds only scalars; pass arrays \(one value per row\)",
        ),
        (object(), r"selection must be a pandas, polars or pyarrow DataFrame .*; got object"),
        (
            [[0.0, 1.0, 1.0]],
            r"selection must be a pandas, polars or pyarrow DataFrame .*; got list",
        ),
        (
            SELECTION.drop(columns="pc_hi"),
            r"selection has no column 'pc_hi'; pass a table from selection_table \(available "
            r"columns: 'pc_lo', 'threshold', 'fpr', 'tpr'\)",
        ),
        (SELECTION.iloc[:0], r"selection is empty; pass a table from selection_table"),
        (
            SELECTION.assign(threshold=[1.0, np.nan]),
            r"column 'threshold' of selection must hold thresholds \(not NaN\), but has nan at "
            r"position 1",
        ),
        (
            SELECTION.assign(threshold=["a", "b"]),
            r"column 'threshold' of selection must hold numbers, but has dtype",
        ),
        (
            SELECTION.assign(pc_hi=[0.3, 1.0]),
            r"selection has a gap between pc=0.3 and pc=0.4; its intervals must tile \[0, 1\]",
        ),
        (
            SELECTION.assign(pc_hi=[0.4, 0.9]),
            r"selection covers pc from 0.0 to 0.9, but its intervals must tile \[0, 1\]",
        ),
        (
            SELECTION.assign(pc_lo=[np.nan, 0.4]),
            r"column 'pc_lo' of selection must hold operating points in \[0, 1\], but has nan",
        ),
        (
            pd.concat([SELECTION.assign(model="a"), SELECTION.assign(model="b")]),
            r"selection has columns costchart did not write \('model'\) and carries no "
            r"grouping .* by=\['model'\] groups by all of them",
        ),
    ],
)
def test_selection_is_validated(selection, message):
    with pytest.raises(cc.CostchartError, match=message):
        cc.bootstrap_band(_scored(), score="s", label="y", selection=selection)


def test_selection_intervals_are_checked_per_group():
    data = pd.concat([_scored().assign(model="a"), _scored(seed=9).assign(model="b")])
    selection = pd.concat(
        [SELECTION.assign(model="a"), SELECTION.assign(model="b", pc_lo=[0.0, 0.5])]
    )
    with pytest.raises(
        cc.CostchartError,
        match=r"selection \(group \{'model': 'b'\}\) has a gap between pc=0.4 and pc=0.5",
    ):
        cc.bootstrap_band(data, score="s", label="y", by="model", selection=selection)
    good = pd.concat([SELECTION.assign(model="a"), SELECTION.assign(model="b")])
    band = cc.bootstrap_band(data, score="s", label="y", by="model", selection=good, pc=[0.2])
    assert list(band["model"]) == ["a", "b"]


def _counts_band(tp=16, fn=4, fp=4, tn=6, pc=(0.3, 0.5), **options):
    counts = {"TP": [tp], "FN": [fn], "FP": [fp], "TN": [tn]}
    return cc.confusion_band(counts, tp="TP", fn="FN", fp="FP", tn="TN", pc=list(pc), **options)


@pytest.mark.parametrize("sampling", ["stratified", "full"])
def test_exact_distribution_of_a_huge_test_set_is_refused_before_any_work(sampling):
    # 4e9 instances: the exact distribution would need ~1e11 terms (737 GiB) at each pc.
    huge = dict.fromkeys(("tp", "fn", "fp", "tn"), 10**9)
    with pytest.raises(
        cc.CostchartError,
        match=r"interval='discrete' would need about [\d,]+ terms at pc=0\.3 "
        r"\(4,000,000,000 instances\), more than the 10,000,000 it may use; pass "
        r"interval='normal' \(or 'auto'",
    ):
        _counts_band(**huge, interval="discrete", sampling=sampling)
    # "auto" is the normal fit there, as documented.
    pd.testing.assert_frame_equal(
        _counts_band(**huge, sampling=sampling),
        _counts_band(**huge, sampling=sampling, interval="normal"),
    )


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ({"tp": np.nan}, r"column 'TP' has 1 NaN values"),
        ({"fn": -1}, r"column 'FN' has 1 negative values"),
        (
            {"fp": 1.5},
            r"column 'FP' has 1 values that are not whole numbers \(first at position 0, "
            r"1\.5\); pass counts of instances \(whole numbers\)",
        ),
        (
            {"tp": 2**62, "tn": 2**62},
            r"the counts 'TP'\+'FN'\+'FP'\+'TN' add up to 9\.223e\+18 instances at row 0, more "
            r"than 2\*\*53 \(9,007,199,254,740,992\), beyond which counts are not exact",
        ),
    ],
)
def test_confusion_counts_are_whole_and_not_too_many(counts, message):
    for options in ({}, {"sampling": "full"}, {"inference": "bootstrap"}):
        with pytest.raises(cc.CostchartError, match=message):
            _counts_band(**counts, **options)


def test_band_of_a_large_but_exact_test_set():
    band = _counts_band(tp=2**51, fn=4, fp=4, tn=2**51)
    expected = 4 / (2**51 + 4)
    np.testing.assert_allclose(band["cost"], expected, rtol=1e-12)
    assert (band["lower"] < band["cost"]).all() and (band["cost"] < band["upper"]).all()


BAND = cc.confusion_band(
    {"TP": [16], "FN": [4], "FP": [4], "TN": [6]},
    tp="TP",
    fn="FN",
    fp="FP",
    tn="TN",
    pc=[0.2, 0.5, 0.75],
)


@pytest.mark.parametrize(
    ("band", "pc", "message"),
    [
        (BAND.iloc[:0], 0.5, r"table has no rows; pass a table from bootstrap_band or "),
        (BAND.drop(columns="se"), 0.5, r"table has no column 'se'; available columns: 'pc', "),
        ({"pc": 0.5, "cost": 0.1}, 0.5, r"table= is a dict of single values; pass a table"),
        ([1, 2], 0.5, r"table= must be a pandas, polars or pyarrow DataFrame, got list"),
        (BAND, np.nan, r"pc=nan must be a finite number"),
        (BAND, "x", r"pc='x' must be a number"),
        (BAND, [0.2, 0.5], r"pc=\[0\.2, 0\.5\] must be a number"),
        (BAND, 1.5, r"pc=1\.5 is outside \[0, 1\]"),
        (
            BAND,
            0.9,
            r"pc=0\.9 is outside the band's range \[0\.2, 0\.75\]; pass a pc in that range, "
            r"or compute the band there",
        ),
        (BAND, 0.1, r"pc=0\.1 is outside the band's range"),
        (
            pd.concat([BAND.assign(model="a"), BAND.assign(model="b")]),
            0.5,
            r"table holds 2 groups \(grouping columns \['model'\]\); band_at reads one: filter "
            r"the rows of one group first, e\.g\. table\[table\['model'\] == 'a'\]",
        ),
        (
            pd.concat([BAND, BAND]),
            0.5,
            r"table has several rows at pc=0\.2, as a band of several groups does",
        ),
    ],
)
def test_band_at_errors(band, pc, message):
    with pytest.raises(cc.CostchartError, match=message):
        cc.band_at(band, pc)


def test_band_at_reads_polars_and_pyarrow_and_checks_the_level():
    import polars as pl
    import pyarrow as pa

    expected = cc.band_at(BAND, 0.5, confidence_level=0.9)
    for band in (pl.from_pandas(BAND), pa.Table.from_pandas(BAND), BAND.assign(model="a")):
        assert cc.band_at(band, 0.5, confidence_level=0.9) == expected
    with pytest.raises(cc.CostchartError, match=r"confidence_level=1\.0 is outside \(0, 1\)"):
        cc.band_at(BAND, 0.5, confidence_level=1.0)


def test_band_at_refuses_a_level_the_band_was_not_made_at():
    # The 0.9 band's bounds are not a 0.5 band's: labelling them so would be wrong.
    assert cc.band_at(BAND, 0.5).confidence_level == 0.9
    with pytest.raises(
        cc.CostchartError, match=r"confidence_level=0\.5, but the band was made at 0\.9"
    ):
        cc.band_at(BAND, 0.5, confidence_level=0.5)
    # The level as typed, not numpy's repr of it.
    with pytest.raises(
        cc.CostchartError, match=r"^confidence_level=0\.5, but .* the band at 0\.5 "
    ):
        cc.band_at(BAND, 0.5, confidence_level=np.float64(0.5))
    # A band that lost its record takes the level it is told.
    lost = pl.from_pandas(BAND)
    assert cc.band_at(lost, 0.5, confidence_level=0.5).confidence_level == 0.5


def test_band_at_takes_the_level_a_band_made_at_float32_records():
    band = _counts_band(pc=[0.5], confidence_level=np.float32(0.9))
    assert cc.band_at(band, 0.5, confidence_level=0.9).confidence_level == 0.9


def test_band_at_between_two_rows_reads_the_lower_whatever_the_row_order():
    band = _counts_band(pc=[0.25, 0.5, 0.75])
    shuffled = band.iloc[[2, 1, 0]]
    for table in (band, shuffled):  # 0.625 and 0.375 are exactly midway
        assert cc.band_at(table, 0.625).pc == 0.5
        assert cc.band_at(table, 0.375).pc == 0.25


@st.composite
def _band_cases(draw):
    data = draw(scored_instances(min_size=4, max_size=40))
    if draw(st.booleans()):  # two groups, each with both classes
        data["g"] = np.arange(len(data)) % 2
        data.loc[data.index[:4], "y"] = [True, True, False, False]
    options = {
        **dict(
            zip(
                ("inference", "interval"),
                draw(st.sampled_from(INTERVAL_PAIRS)),
                strict=True,
            )
        ),
        "sampling": draw(st.sampled_from(["stratified", "full"])),
        "confidence_level": draw(st.sampled_from([0.05, 0.5, 0.9])),
        "pc": draw(
            st.none() | st.lists(st.integers(0, 20).map(lambda v: v / 20), min_size=1, max_size=5)
        ),
    }
    if draw(st.booleans()):
        options["threshold"] = draw(st.sampled_from([*data["score"], np.inf, -np.inf]))
    return data, options


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(_band_cases())
def test_band_is_finite_and_contains_the_estimate(case):
    data, options = case
    by = ["g"] if "g" in data else []
    totals = data.groupby(by or np.zeros(len(data)))["y"].agg(["sum", "size"])
    single = ((totals["sum"] == 1) | (totals["size"] - totals["sum"] == 1)).any()
    call = functools.partial(
        cc.bootstrap_band, data, score="score", label="y", by=by or None, n_resamples=200, rng=0
    )
    if single and (options["inference"], options["interval"]) != ("exact_bootstrap", "auto"):
        with pytest.raises(cc.CostchartError, match="needs at least 2 of each class"):
            call(**options)  # a class of one instance: no band from resampling it
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cc.CostchartWarning)
        band = call(**options)
    assert list(band.columns) == [*by, *_schema.BAND_TABLE]
    values = band[list(_schema.BAND_TABLE)].to_numpy(np.float64)
    assert np.isfinite(values).all()
    assert (band["lower"] >= 0).all()
    assert (band["lower"] <= band["cost"]).all() and (band["cost"] <= band["upper"]).all()
    assert (band["se"] >= 0).all()


def test_a_narrow_percentile_band_is_widened_to_contain_the_estimate():
    # At a 5 % level the middle of 200 resamples can miss the estimate (here at pc=0.1:
    # both percentiles are 0.0783, the estimate 0.0867); the band is widened to reach it.
    y = np.r_[np.ones(12, bool), np.zeros(20, bool)]
    scores = np.round(np.random.default_rng(6).normal(size=32) + y)
    band = cc.bootstrap_band(
        {"s": scores, "y": y},
        score="s",
        label="y",
        confidence_level=0.05,
        inference="bootstrap",
        n_resamples=200,
        rng=0,
        pc=[0.1, 0.3, 0.5, 0.7, 0.9],
    )
    assert band["cost"].iat[0] == pytest.approx(0.08666666666666667)
    assert band["lower"].iat[0] == pytest.approx(0.07833333333333334)
    assert band["upper"].iat[0] == band["cost"].iat[0]


@pytest.mark.parametrize(("c_fn", "c_fp"), [(3.0, 1.0), (1.0, 4.0), (2.0, 2.0)])
def test_full_sampling_cost_is_the_papers_normalisation_times_a_constant(c_fn, c_fp):
    # docs/bands.md: (FN c_fn + FP c_fp) / (n c_max) = costchart's cost times
    # (p c_fn + (1 - p) c_fp) / c_max at pc = p c_fn / (p c_fn + (1 - p) c_fp).
    rng = np.random.default_rng(1)
    y = rng.random(100) < 0.4
    s = rng.normal(size=100) + y
    n, positives = len(y), int(y.sum())
    p = positives / n
    pc = cc.pc_from_costs(p, cost_fn=c_fn, cost_fp=c_fp)
    band = cc.bootstrap_band(
        {"s": s, "y": y}, score="s", label="y", threshold=0.5, sampling="full", pc=[pc]
    )
    fn = int((y & (s < 0.5)).sum())
    fp = int((~y & (s >= 0.5)).sum())
    paper = (fn * c_fn + fp * c_fp) / (n * max(c_fn, c_fp))
    factor = (p * c_fn + (1 - p) * c_fp) / max(c_fn, c_fp)
    assert band.cost.iat[0] * factor == pytest.approx(paper)


def test_degenerate_marks_the_bands_of_no_width():
    rng = np.random.default_rng(3)
    y = rng.random(80) < 0.4
    s = np.round(rng.normal(size=80) + y, 1)
    band = cc.bootstrap_band(
        {"s": s, "y": y},
        score="s",
        label="y",
        pc=np.linspace(0, 1, 101),
        inference="exact_bootstrap",
    )
    np.testing.assert_array_equal(band.degenerate, band.upper - band.lower <= 0)
    # The ends (one class has no weight, a trivial classifier is optimal) are degenerate,
    # and so is every pc where the envelope picks a trivial classifier (threshold beyond
    # every score): the resamples cannot move its cost.
    assert band.degenerate.iat[0] and band.degenerate.iat[-1]
    assert not band.degenerate.iloc[30:70].any()
    selection = cc.selection_table(
        cc.lower_envelope(cc.roc_points({"s": s, "y": y}, score="s", label="y"))
    )
    trivial = selection[np.isinf(selection.threshold)]
    for lo, hi in zip(trivial.pc_lo, trivial.pc_hi):
        inside = band[(band.pc > lo) & (band.pc < hi)]
        assert inside.degenerate.all()


def test_band_of_points_just_made_equals_the_band_of_the_points_frame():
    # bootstrap_band computes on roc_points' arrays (own points, not read back): the
    # band is that of the points frame read and checked the general way.
    from costchart._bands.bootstrap import _bands
    from costchart._bands.options import check_options
    from costchart._roc.points import points_and_columns

    rng = np.random.default_rng(11)
    y = rng.random(400) < 0.35
    data = {"s": np.round(rng.normal(size=400) + y, 1), "y": y, "w": rng.integers(0, 3, 400)}
    for weight in (None, "w"):
        points, columns = points_and_columns(data, score="s", label="y", weight=weight)
        assert columns is not None
        options = check_options(
            function="bootstrap_band",
            confidence_level=0.9,
            inference="exact_bootstrap",
            sampling="stratified",
            interval="auto",
            n_resamples=2000,
            rng=None,
            pc=None,
            progress=False,
        )
        selection = cc.selection_table(points)
        for chosen, threshold in ((None, None), (None, 0.5), (selection, None)):
            general = _bands(points, [], chosen, threshold, options)
            fast = _bands(points, [], chosen, threshold, options, read=columns, own_points=True)
            pd.testing.assert_frame_equal(fast, general)
            # without a frame at all (bootstrap_band's way for ungrouped data)
            bare = _bands(None, [], chosen, threshold, options, read=columns, own_points=True)
            pd.testing.assert_frame_equal(bare, general)
        assert (
            points_and_columns(data, score="s", label="y", weight=weight, as_frame=False)[0] is None
        )


ONE_POSITIVE = pd.DataFrame(
    {"s": [3.0, *np.random.default_rng(1).normal(size=19)], "y": [1, *[0] * 19]}
)


@pytest.mark.parametrize(
    "options",
    [
        {},  # the default: the smoothed bootstrap of the envelope's choice
        {"inference": "smoothed_bootstrap"},
        {"inference": "exact_bootstrap", "interval": "normal"},
        {"inference": "exact_bootstrap", "interval": "discrete"},
        {"inference": "bootstrap"},
        {"inference": "exact_bootstrap", "simultaneous": True},
    ],
)
def test_a_class_of_one_instance_is_refused_where_the_band_resamples_it(options):
    with pytest.raises(
        cc.CostchartError, match=r"^1 positive and 19 negatives: a band with inference="
    ):
        cc.bootstrap_band(ONE_POSITIVE, score="s", label="y", pc=[0.5], rng=0, **options)
    counts = {"g": ["a", "b"], "TP": [1, 5], "FN": [0, 5], "FP": [3, 4], "TN": [7, 6]}
    if "interval" in options or options.get("inference") == "bootstrap":
        with pytest.raises(
            cc.CostchartError, match=r"in group \{'g': 'a'\}: a band with inference"
        ):
            cc.confusion_band(
                counts, tp="TP", fn="FN", fp="FP", tn="TN", by="g", pc=[0.5], rng=0, **options
            )


@pytest.mark.parametrize("sampling", ["stratified", "full"])
def test_a_class_of_one_instance_takes_the_score_interval_with_width(sampling):
    """No error of the single positive, none of the negatives: the bootstrap has no spread,
    the score interval (Jeffreys on 1 instance) still says the rates are uncertain."""
    band = cc.bootstrap_band(
        ONE_POSITIVE,
        score="s",
        label="y",
        inference="exact_bootstrap",
        sampling=sampling,
        pc=[0.2, 0.5, 0.8],
    )
    assert (band.cost == 0).all() and (band.se == 0).all()
    assert (band.upper > 0.1).all() and not band.degenerate.any()
    counts = {"TP": [1, 0], "FN": [0, 1], "FP": [0, 0], "TN": [10, 10], "g": ["ok", "none"]}
    lines = cc.confusion_band(counts, tp="TP", fn="FN", fp="FP", tn="TN", by="g", pc=[0.3, 0.5])
    assert (lines.upper - lines.lower > 0.1)[lines.g == "ok"].all()
    # Calling nothing positive is the always-negative classifier on these data: its cost
    # cannot vary in any resample, and its band keeps no width, as for any class size.
    assert lines.degenerate[lines.g == "none"].all()
