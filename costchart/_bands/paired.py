"""The paired band's engine: the 3-D confusion matrix of two classifiers at each ``pc``.

For each true class, a 2x2 layer counts how the two classifiers jointly label its
instances. The cost difference is linear in the eight cells; only the discordant cells
move it. Its bootstrap moments are closed-form, its resampled distribution draws the
layers as multinomials, and its exact distribution is built from the numbers of
discordant positives and negatives and how each splits (:func:`_signed_counts`).
"""

from __future__ import annotations

import numpy as np

from costchart._bands.binomial import (
    binomial_support,
    multinomial_pair,
    normal_quantile,
    sample_quantiles,
    signed_split,
    trimmed_bounds,
    weighted_quantiles,
)
from costchart._bands.options import Options, exact_where

#: float64 values resampling holds per resample besides the differences: the eight cells
#: of one classifier pair and the multinomial draws they are copied from.
RESAMPLE_DRAWS = 16


def _layers(predicted, positive: np.ndarray, options, copies=None) -> np.ndarray:
    """Per pc, the eight cells of the 3-D confusion matrix.

    Order: positives (a+b+, a+b-, a-b+, a-b-), then negatives in the same order.
    """
    (scores_a, t_a), (scores_b, t_b) = predicted
    counts = np.ones(len(positive), dtype=np.int64) if copies is None else copies.astype(np.int64)
    cells = np.empty((len(options.pc), 8), dtype=np.int64)
    memo: dict[tuple[float, float], np.ndarray] = {}
    for i, key in enumerate(zip(t_a, t_b, strict=True)):
        if key not in memo:
            says_a, says_b = scores_a >= key[0], scores_b >= key[1]
            row = []
            for members in (positive, ~positive):
                row += [
                    int(counts[members & says_a & says_b].sum()),
                    int(counts[members & says_a & ~says_b].sum()),
                    int(counts[members & ~says_a & says_b].sum()),
                    int(counts[members & ~says_a & ~says_b].sum()),
                ]
            memo[key] = np.array(row)
        cells[i] = memo[key]
    return cells


def _weights(cells: np.ndarray, pc: np.ndarray, sampling: str) -> np.ndarray:
    """Weight of each cell in the cost difference ``cost(a) - cost(b)``, per pc.

    Positives a-b+ are a's false negatives only (+), a+b- b's only (-); negatives a+b- are
    a's false positives only (+), a-b+ b's only (-).
    """
    positives = cells[0, :4].sum()
    negatives = cells[0, 4:].sum()
    if sampling == "stratified":
        w_pos, w_neg = pc / positives, (1 - pc) / negatives
    else:
        n = positives + negatives
        w_pos, w_neg = pc / (positives / n) / n, (1 - pc) / (negatives / n) / n
    weights = np.zeros((len(pc), 8))
    weights[:, 2], weights[:, 1] = w_pos, -w_pos
    weights[:, 5], weights[:, 6] = w_neg, -w_neg
    return weights


def no_evidence_chance(cells: np.ndarray, weights: np.ndarray, sampling: str) -> np.ndarray:
    """Per pc, the chance that a resample holds no instance favouring the observed sign.

    The instances that make the difference negative (``a`` cheaper) are the discordant
    cells with a negative weight, those that make it positive the ones with a positive
    weight; cells of weight 0 at that ``pc`` count for nothing. A resample holding none of
    the instances on the observed side has a difference of 0 or the other sign, so this
    chance is a lower bound on the resampled (and exact) distribution's tail beyond 0: where
    it exceeds the band's tail, ``(1 - level) / 2``, no bootstrap band can honestly exclude
    0. With class totals fixed (stratified) it is ``prod_c (1 - d_c / n_c) ** n_c``; with
    the whole sample resampled, ``(1 - d / n) ** n``.
    """
    difference = (weights * cells).sum(axis=1)
    side = np.sign(difference)[:, None]
    favouring = np.where((np.sign(weights) == side) & (side != 0), cells, 0)
    spans = (slice(0, 4), slice(4, 8)) if sampling == "stratified" else (slice(0, 8),)
    chance = np.ones(len(cells))
    for span in spans:  # both classes have instances: a band refuses one class only
        n = cells[:, span].sum(axis=1).astype(np.float64)
        d = favouring[:, span].sum(axis=1).astype(np.float64)
        with np.errstate(divide="ignore"):
            chance *= np.exp(n * np.log1p(-np.minimum(d / n, 1.0)))
    return chance


def paired_band(predicted, positive: np.ndarray, options: Options, copies=None):
    """Difference, lower, upper, se and the no-evidence chance at each ``pc`` of one pair.

    ``predicted`` holds each classifier's scores and its threshold at each ``pc``;
    ``copies`` (whole numbers) counts each instance that many times. The last output is
    :func:`no_evidence_chance`.
    """
    pc = options.pc
    cells = _layers(predicted, positive, options, copies)
    weights = _weights(cells, pc, options.sampling)
    difference = (weights * cells).sum(axis=1)
    if options.method == "resample":
        samples = _resample(cells, weights, options)
        lower, upper = sample_quantiles(samples, options.levels, axis=0)
        se = samples.std(axis=0, ddof=1)
    else:
        se = np.sqrt(np.maximum(_variance(cells, weights, options.sampling), 0.0))
        z = normal_quantile(options.levels[1])
        lower, upper = difference - z * se, difference + z * se
        # "auto" is the normal fit for a difference: it covered as well as or better than
        # the exact quantiles in every setting of tests/benchmarks/bench_coverage.py.
        if options.distribution == "exact":
            lower, upper = _exact_quantiles(cells, weights, options, lower, upper)
    # The band contains the estimate, as every band does.
    lower, upper = np.minimum(lower, difference), np.maximum(upper, difference)
    return difference, lower, upper, se, no_evidence_chance(cells, weights, options.sampling)


def _multinomial_variance(counts: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Var of sum(w * M) for M ~ Multinomial(m, counts / m), row by row."""
    m = counts.sum(axis=1, keepdims=True)
    q = counts / m
    mean = (weights * q).sum(axis=1)
    return m[:, 0] * ((weights**2 * q).sum(axis=1) - mean**2)


def _variance(cells: np.ndarray, weights: np.ndarray, sampling: str) -> np.ndarray:
    if sampling == "stratified":
        return _multinomial_variance(cells[:, :4], weights[:, :4]) + _multinomial_variance(
            cells[:, 4:], weights[:, 4:]
        )
    return _multinomial_variance(cells, weights)


def _resample(cells: np.ndarray, weights: np.ndarray, options) -> np.ndarray:
    """Resampled cost differences, one row per resample and one column per pc."""
    distinct, which = np.unique(cells, axis=0, return_inverse=True)
    which = which.ravel()
    samples = np.empty((options.n_resamples, len(options.pc)))
    draws = np.empty((options.n_resamples, 8))
    for k, row in enumerate(distinct):
        if options.sampling == "stratified":
            for part in (slice(0, 4), slice(4, 8)):
                total = row[part].sum()
                draws[:, part] = options.rng.multinomial(
                    total, row[part] / total, size=options.n_resamples
                )
        else:
            draws[:] = options.rng.multinomial(row.sum(), row / row.sum(), size=options.n_resamples)
        uses = np.flatnonzero(which == k)
        samples[:, uses] = draws @ weights[uses].T
        if options.progress is not None:
            options.progress(f"resampled classifier pair {k + 1} of {len(distinct)}")
    return samples


def _range(low, high, share):
    """Kept range of ``X | T = t ~ Bin(t, share)`` over ``low <= t <= high`` (vectorized)."""
    inner = (share > 0) & (share < 1) & (high > 0)
    x_low = np.where(inner, trimmed_bounds(low, np.clip(share, 0, 1))[0], 0)
    x_high = np.where(inner, trimmed_bounds(high, np.clip(share, 0, 1))[1], 0)
    sure = (share >= 1) & (high > 0)
    return np.where(sure, low, x_low), np.where(sure, high, x_high)


def exact_sizes(cells: np.ndarray, sampling: str):
    """Real pairs of each row's exact distribution and the terms :func:`_signed_counts` makes.

    With ``T``, ``R`` the discordant totals and ``D_pos``, ``D_neg`` the signed counts, the
    arrays are ``J`` (T x R), ``F`` (T x D_pos), ``G`` (R x D_neg) and the joint
    (D_pos x D_neg), whose size is the distribution's number of pairs.
    """
    cells = cells.astype(np.float64)
    t_pos, t_neg = cells[:, 1] + cells[:, 2], cells[:, 5] + cells[:, 6]
    if sampling == "stratified":
        m_pos, m_neg = cells[:, :4].sum(axis=1), cells[:, 4:].sum(axis=1)
        t_low, t_high = trimmed_bounds(m_pos, t_pos / m_pos)
        r_low, r_high = trimmed_bounds(m_neg, t_neg / m_neg)
    else:
        n = cells.sum(axis=1)
        q_t, q_r = t_pos / n, t_neg / n
        t_low, t_high = trimmed_bounds(n, q_t)
        with np.errstate(divide="ignore", invalid="ignore"):
            conditional = np.where(q_t < 1, np.minimum(q_r / (1 - q_t), 1.0), 0.0)
        r_low, r_high = _range(n - t_high, n - t_low, conditional)
    sizes = []
    for low, high, plus, total in (
        (t_low, t_high, cells[:, 2], t_pos),
        (r_low, r_high, cells[:, 5], t_neg),
    ):
        with np.errstate(divide="ignore", invalid="ignore"):
            share = np.where(total > 0, plus / total, 0.0)
        x_low, x_high = _range(low, high, share)
        sizes.append((high - low + 1, 2 * x_high - low - (2 * x_low - high) + 1))
    (t, d_pos), (r, d_neg) = sizes
    pairs = d_pos * d_neg
    return pairs.astype(np.float64), (t * r + t * d_pos + r * d_neg + pairs).astype(np.float64)


def _signed_counts(row: np.ndarray, sampling: str):
    """Exact joint distribution of a's extra errors on positives and on negatives.

    ``D_pos = (a-b+) - (a+b-)`` over the positives, ``D_neg = (a+b-) - (a-b+)`` over the
    negatives. Only discordant instances move them: with ``T`` and ``R`` the numbers of
    discordant positives and negatives, ``D_pos = 2X - T`` where ``X | T`` is binomial,
    likewise ``D_neg``. ``(T, R)`` are independent binomials (stratified) or two cells of
    one multinomial (full), so ``P(D_pos, D_neg) = F' J G`` with ``J`` their joint pmf and
    ``F``, ``G`` the conditional pmfs of the signed counts.
    """
    positives, negatives = row[:4], row[4:]
    t_pos, t_neg = int(positives[1] + positives[2]), int(negatives[1] + negatives[2])
    if sampling == "stratified":
        m_pos, m_neg = int(positives.sum()), int(negatives.sum())
        t_values, t_probs = binomial_support(m_pos, t_pos / m_pos)
        r_values, r_probs = binomial_support(m_neg, t_neg / m_neg)
        joint = t_probs[:, None] * r_probs[None, :]
    else:
        n = int(row.sum())
        t_values, r_values, joint = multinomial_pair(n, t_pos / n, t_neg / n)
    pos_values, given_t = signed_split(t_values, positives[2] / t_pos if t_pos else 0.0)
    neg_values, given_r = signed_split(r_values, negatives[1] / t_neg if t_neg else 0.0)
    return pos_values, neg_values, given_t.T @ joint @ given_r


def _exact_quantiles(cells, weights, options: Options, lower, upper):
    """Quantiles of the exact bootstrap distribution of the difference at each pc."""
    pairs, work = exact_sizes(cells, options.sampling)
    instances = cells.sum(axis=1)
    chosen = np.flatnonzero(exact_where(pairs, work, options.pc, instances, options.distribution))
    joints: dict[tuple, tuple] = {}
    done: dict[tuple, tuple[float, float]] = {}
    for i in chosen:
        row = tuple(cells[i].tolist())
        key = (*row, float(weights[i, 2]), float(weights[i, 5]))
        if key not in done:
            if row not in joints:
                pos_values, neg_values, joint = _signed_counts(cells[i], options.sampling)
                keep = joint > 0
                joints[row] = (pos_values, neg_values, keep, joint[keep])
            pos_values, neg_values, keep, probabilities = joints[row]
            values = weights[i, 2] * pos_values[:, None] + weights[i, 5] * neg_values[None, :]
            done[key] = tuple(weighted_quantiles(values[keep], probabilities, options.levels))
        lower[i], upper[i] = done[key]
    return lower, upper
