"""The vectorized exact distributions against the per-pc code they replace.

The reference below is the per-``pc`` implementation costchart used before (scipy's
binomial distribution for every ``pc``, every (a, b) pair listed and sorted), kept here
and only here: the package's vectorized engine must give the same quantiles.
"""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import costchart as cc
from costchart._bands.binomial import pmf_table, trimmed_bounds
from costchart._bands.counts import Counts, band_of_counts
from costchart._bands.options import check_options

TAIL = 1e-12


def _support(n, p):
    if p <= 0 or n == 0:
        return np.zeros(1), np.ones(1)
    if p >= 1:
        return np.array([float(n)]), np.ones(1)
    low = max(int(stats.binom.ppf(TAIL, n, p)) - 1, 0)
    high = min(int(stats.binom.isf(TAIL, n, p)) + 1, n)
    values = np.arange(low, high + 1, dtype=np.float64)
    return values, stats.binom.pmf(values, n, p)


def _pair(m, q_a, q_b):
    a_values, a_probs = _support(m, q_a)
    conditional = min(q_b / (1 - q_a), 1.0) if q_a < 1 else 0.0
    rest = m - a_values.astype(np.int64)
    if 0 < conditional < 1:
        b_low = max(int(stats.binom.ppf(TAIL, rest.min(), conditional)) - 1, 0)
        b_high = min(int(stats.binom.isf(TAIL, rest.max(), conditional)) + 1, int(rest.max()))
    else:
        b_low, b_high = (0, 0) if conditional == 0 else (int(rest.min()), int(rest.max()))
    b_values = np.arange(b_low, b_high + 1, dtype=float)
    joint = a_probs[:, None] * stats.binom.pmf(b_values[None, :], rest[:, None], conditional)
    return a_values, b_values, joint


def _weighted_quantiles(values, weights, levels):
    order = np.argsort(values, kind="stable")
    cumulative = np.cumsum(weights[order])
    cumulative /= cumulative[-1]
    index = np.searchsorted(cumulative, np.asarray(levels) - 1e-12, side="left")
    return values[order][np.minimum(index, len(values) - 1)]


def reference_quantiles(positives, negatives, fn, fp, w_fn, w_fp, sampling, levels):
    """The per-pc exact quantiles: every (a, b) pair listed, sorted and accumulated."""
    if sampling == "stratified":
        (x, px), (y, py) = _support(positives, fn / positives), _support(negatives, fp / negatives)
        values = w_fn * x[:, None] + w_fp * y[None, :]
        joint = px[:, None] * py[None, :]
    else:
        n = positives + negatives
        x, y, joint = _pair(n, fn / n, fp / n)
        values = w_fn * x[:, None] + w_fp * y[None, :]
    return _weighted_quantiles(values.ravel(), joint.ravel(), levels)


def _options(sampling, interval="discrete", level=0.9, pc=None):
    return check_options(
        function="bootstrap_band",
        confidence_level=level,
        inference="exact_bootstrap",
        sampling=sampling,
        interval=interval,
        n_resamples=2000,
        rng=None,
        pc=pc,
        progress=False,
    )


def _random_counts(rng, rows):
    positives = rng.integers(1, 400, size=rows)
    negatives = rng.integers(1, 400, size=rows)
    # Many rows on the edges: no errors, every instance wrong, one error.
    fn = np.where(rng.random(rows) < 0.2, rng.choice([0, 1], rows), rng.integers(0, positives + 1))
    fp = np.where(rng.random(rows) < 0.2, negatives, rng.integers(0, negatives + 1))
    return Counts(positives - fn, fn, fp, negatives - fp)


@pytest.mark.slow
@pytest.mark.parametrize("sampling", ["stratified", "full"])
@pytest.mark.parametrize("level", [0.9, 0.5, 0.99])
def test_exact_quantiles_equal_the_per_pc_reference(sampling, level):
    rng = np.random.default_rng(hash((sampling, level)) % 2**32)
    rows = 300
    counts = _random_counts(rng, rows)
    pc = np.where(rng.random(rows) < 0.1, rng.choice([0.0, 1.0], rows), rng.random(rows))
    options = _options(sampling, level=level, pc=pc)
    cost, lower, upper, _ = band_of_counts(counts, pc, options)
    positives, negatives = counts.tp + counts.fn, counts.fp + counts.tn
    for i in range(rows):
        if sampling == "stratified":
            w_fn, w_fp = pc[i] / positives[i], (1 - pc[i]) / negatives[i]
        else:
            n = positives[i] + negatives[i]
            pi = positives[i] / n
            w_fn, w_fp = pc[i] / pi / n, (1 - pc[i]) / (1 - pi) / n
        expected = reference_quantiles(
            int(positives[i]),
            int(negatives[i]),
            int(counts.fn[i]),
            int(counts.fp[i]),
            w_fn,
            w_fp,
            sampling,
            options.levels,
        )
        expected = np.minimum(expected[0], cost[i]), np.maximum(expected[1], cost[i])
        assert (lower[i], upper[i]) == pytest.approx(expected, rel=1e-14, abs=1e-15), i


def test_exact_band_of_a_large_test_set_equals_the_reference_at_a_few_pc():
    counts = Counts(*(np.full(3, v) for v in (24_000, 6_000, 9_000, 61_000)))
    pc = np.array([0.05, 0.5, 0.93])
    options = _options("stratified", pc=pc)
    _, lower, upper, _ = band_of_counts(counts, pc, options)
    for i, at in enumerate(pc):
        expected = reference_quantiles(
            30_000,
            70_000,
            6_000,
            9_000,
            at / 30_000,
            (1 - at) / 70_000,
            "stratified",
            options.levels,
        )
        assert (lower[i], upper[i]) == tuple(expected)


def test_pmf_table_equals_scipy():
    n = np.array([10, 1000, 100_000, 7])
    p = np.array([0.3, 0.01, 0.5, 0.999])
    low, high = trimmed_bounds(n, p)
    width = int((high - low).max()) + 1
    table = pmf_table(n, p, low, width)
    for i in range(len(n)):
        k = np.arange(low[i], high[i] + 1)
        expected = stats.binom.pmf(k, n[i], p[i])
        np.testing.assert_allclose(table[i, : len(k)], expected / expected.sum(), rtol=1e-11)


@pytest.mark.parametrize("chooser", ["envelope", "threshold", "selection"])
@pytest.mark.parametrize("keys", ["numbers", "missing", "categorical"])
def test_grouped_band_equals_each_group_alone(rng, chooser, keys):
    frames = []
    for g in range(40):
        n = int(rng.integers(1, 60))
        y = rng.random(n) < 0.4
        frames.append({"g": np.full(n, g % 37), "s": np.round(rng.normal(size=n) + y, 1), "y": y})
    data = pd.concat([pd.DataFrame(f) for f in frames], ignore_index=True)
    name = "g"
    if keys == "missing":
        data["g"] = data["g"].astype(float).where(data["g"] % 5 != 0)  # NaN keys: one group
    elif keys == "categorical":
        data["g"] = pd.Categorical(data["g"].map(lambda v: f"k{v}"))
    pc = np.linspace(0, 1, 21)
    options = {"pc": pc, "inference": "exact_bootstrap"}
    if chooser == "threshold":
        options["threshold"] = 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if chooser == "selection":
            points = cc.roc_points(data, score="s", label="y", by=[name])
            options["selection"] = cc.selection_table(points, by=[name])
        together = cc.bootstrap_band(data, score="s", label="y", by=[name], **options)
        groups = data.groupby(data[name], sort=False, dropna=False, observed=True)
        seen = 0
        for key, part in groups:
            mine = (
                together[together[name].isna()] if pd.isna(key) else together[together[name] == key]
            )
            if part.y.all() or not part.y.any():
                assert mine.empty
                continue
            single = dict(options)
            if chooser == "selection":
                chosen = options["selection"]
                same = chosen[name].isna() if pd.isna(key) else chosen[name] == key
                single["selection"] = chosen[same].drop(columns=name)
            alone = cc.bootstrap_band(part.drop(columns=name), score="s", label="y", **single)
            mine = mine.drop(columns=name).reset_index(drop=True)
            pd.testing.assert_frame_equal(mine, alone)
            seen += 1
    assert seen > 20


@pytest.mark.parametrize("sampling", ["stratified", "full"])
def test_auto_is_exact_where_small_and_the_normal_interval_leaves_the_cost_range(sampling):
    rng = np.random.default_rng(4)
    rows = 200
    positives = rng.integers(1, 3000, size=rows)
    negatives = rng.integers(1, 3000, size=rows)
    fn = rng.integers(0, positives + 1)
    fp = (rng.random(rows) * rng.choice([0.01, 0.3], rows) * negatives).astype(np.int64)
    few = rng.random(rows) < 0.3  # a few errors: where the normal interval dips below 0
    fn[few], fp[few] = rng.integers(0, 4, few.sum()), rng.integers(0, 4, few.sum())
    counts = Counts(positives - fn, fn, fp, negatives - fp)
    pc = rng.random(rows)
    bands = {
        d: band_of_counts(counts, pc, _options(sampling, interval=d, pc=pc))
        for d in ("auto", "discrete", "normal")
    }
    n = positives + negatives
    if sampling == "stratified":
        a, b = trimmed_bounds(positives, fn / positives), trimmed_bounds(negatives, fp / negatives)
    else:
        a = trimmed_bounds(n, fn / n)
        conditional = np.minimum((fp / n) / (1 - fn / n), 1.0)
        b = trimmed_bounds(n - a[1], conditional)[0], trimmed_bounds(n - a[0], conditional)[1]
    pairs = (a[1] - a[0] + 1) * (b[1] - b[0] + 1)
    small = pairs <= 20_000
    cost, se = bands["normal"][0], bands["normal"][3]
    z = stats.norm.ppf(0.95)
    misfit = (cost - z * se < 0) | (cost + z * se > 1)
    # Fewer than 5 errors (or correct decisions) of a class that counts: the score interval.
    few_fn = (pc > 0) & (np.minimum(fn, positives - fn) < 5)
    few_fp = (pc < 1) & (np.minimum(fp, negatives - fp) < 5)
    scored = (se > 0) & (few_fn | few_fp)
    exact = small & misfit & ~scored
    # Both main kinds are exercised: score, and normal though the exact one is small. With
    # 5 or more errors of each class the normal interval rarely leaves [0, 1], so the
    # exact quantiles are now left to few rows (none, or one, here).
    assert scored.sum() > 5 and (small & ~misfit & ~scored).sum() > 5
    reference = _mover_jeffreys(fn, fp, positives, negatives, pc, sampling, 0.9)
    for i in (1, 2):
        expected = np.where(exact, bands["discrete"][i], bands["normal"][i])
        expected = np.where(scored, reference[i - 1], expected)
        np.testing.assert_allclose(bands["auto"][i], expected, rtol=1e-12, atol=1e-15)


def _mover_jeffreys(fn, fp, positives, negatives, pc, sampling, level):
    """The definition, one row at a time: Jeffreys limits of each rate, combined by MOVER."""
    tail = (1 - level) / 2
    lower, upper = np.empty(len(pc)), np.empty(len(pc))
    for r in range(len(pc)):
        trials = (positives[r], negatives[r])
        if sampling == "full":
            trials = (positives[r] + negatives[r],) * 2
        # the rates' weights: cost = pc FN / P + (1 - pc) FP / N
        weights = (pc[r] * trials[0] / positives[r], (1 - pc[r]) * trials[1] / negatives[r])
        cost, down, up = 0.0, 0.0, 0.0
        for x, m, w in zip((fn[r], fp[r]), trials, weights, strict=True):
            rate = x / m
            low = 0.0 if x == 0 else stats.beta(x + 0.5, m - x + 0.5).ppf(tail)
            high = 1.0 if x == m else stats.beta(x + 0.5, m - x + 0.5).isf(tail)
            cost += w * rate
            down += (w * (rate - low)) ** 2
            up += (w * (high - rate)) ** 2
        lower[r], upper[r] = max(cost - math.sqrt(down), 0.0), cost + math.sqrt(up)
    return lower, upper
