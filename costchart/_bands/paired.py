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
from costchart._bands.options import MAX_EXACT_PAIRS, Options, exact_where

#: float64 values resampling holds per resample besides the differences: the eight cells
#: of one classifier pair and the multinomial draws they are copied from.
RESAMPLE_DRAWS = 16


def paired_cells(group, scores, positive, copies, chosen) -> np.ndarray:
    """Per group and ``pc``, the eight cells of the 3-D confusion matrix, all groups at once.

    ``group`` (non-decreasing) owns each instance, ``scores`` are the two classifiers'
    scores, ``copies`` whole-number weights (or ``None``), ``chosen`` each classifier's
    threshold per group and ``pc`` (shape (groups, pc)). Order of the cells: positives
    (a+b+, a+b-, a-b+, a-b-), then negatives in the same order; rows group after group.
    Each distinct (group, t_a, t_b) is counted once, over its group's instances.
    """
    (scores_a, scores_b), (t_a, t_b) = scores, chosen
    n_groups, n_pc = t_a.shape
    owner = np.repeat(np.arange(n_groups), n_pc)
    t_a, t_b = t_a.reshape(-1), t_b.reshape(-1)
    order = np.lexsort((t_b, t_a, owner))
    new = np.r_[True, np.diff(owner[order]) != 0][: len(order)]
    new[1:] |= (t_a[order][1:] != t_a[order][:-1]) | (t_b[order][1:] != t_b[order][:-1])
    key_of_row = np.empty(len(order), dtype=np.int64)
    key_of_row[order] = np.cumsum(new) - 1
    first = order[new]
    key_group, key_a, key_b = owner[first], t_a[first], t_b[first]
    start = np.searchsorted(group, np.arange(n_groups))
    size = np.bincount(group, minlength=n_groups)[key_group]
    ends = np.cumsum(size)
    counts = np.zeros((len(first), 8), dtype=np.int64)
    lo = 0
    while lo < len(first):  # chunks of keys of about _CELL_CHUNK instances
        hi = max(lo + 1, int(np.searchsorted(ends, ends[lo] - size[lo] + _CELL_CHUNK, "right")))
        counts[lo:hi] = _count_cells(
            (scores_a, scores_b),
            positive,
            copies,
            (start[key_group[lo:hi]], size[lo:hi]),
            (key_a[lo:hi], key_b[lo:hi]),
        )
        lo = hi
    return counts[key_of_row]


#: Instance comparisons counted at once (memory: a few arrays of this length).
_CELL_CHUNK = 1 << 22


def _count_cells(scores, positive, copies, span, thresholds) -> np.ndarray:
    """The eight cells of each (group, t_a, t_b) key: its group's instances counted."""
    (start, size), (t_a, t_b) = span, thresholds
    key = np.repeat(np.arange(len(size)), size)
    offsets = np.cumsum(size) - size
    instance = np.repeat(start, size) + np.arange(len(key)) - np.repeat(offsets, size)
    says_a = scores[0][instance] >= t_a[key]
    says_b = scores[1][instance] >= t_b[key]
    cell = 4 * ~positive[instance] + 2 * ~says_a + ~says_b
    weights = None if copies is None else copies[instance]
    counted = np.bincount(8 * key + cell, weights, minlength=8 * len(size))
    return counted.astype(np.int64).reshape(len(size), 8)


def _weights(cells: np.ndarray, pc: np.ndarray, sampling: str) -> np.ndarray:
    """Weight of each cell in the cost difference ``cost(a) - cost(b)``, per pc.

    Positives a-b+ are a's false negatives only (+), a+b- b's only (-); negatives a+b- are
    a's false positives only (+), a-b+ b's only (-).
    """
    positives = cells[:, :4].sum(axis=1)  # the same in every row of one group
    negatives = cells[:, 4:].sum(axis=1)
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
    the whole sample resampled, ``(1 - d / n) ** n``. A class of one instance (which every
    stratified resample holds) counts as no evidence: ``d_c = 0`` there.
    """
    difference = (weights * cells).sum(axis=1)
    side = np.sign(difference)[:, None]
    favouring = np.where((np.sign(weights) == side) & (side != 0), cells, 0)
    spans = (slice(0, 4), slice(4, 8)) if sampling == "stratified" else (slice(0, 8),)
    chance = np.ones(len(cells))
    for span in spans:  # both classes have instances: a band refuses one class only
        n = cells[:, span].sum(axis=1).astype(np.float64)
        d = favouring[:, span].sum(axis=1).astype(np.float64)
        # A class of one instance is in every resample: it is no evidence of its own.
        d = np.where(n < 2, 0.0, d)
        with np.errstate(divide="ignore"):
            chance *= np.exp(n * np.log1p(-np.minimum(d / n, 1.0)))
    return chance


def band_of_cells(cells: np.ndarray, n_groups: int, options: Options):
    """Difference, lower, upper, se and the no-evidence chance of every group at each ``pc``.

    ``cells`` are :func:`paired_cells` (rows group after group, ``len(options.pc)`` per
    group). Everything is computed row by row for all groups at once, except the
    resampling, which draws group after group (the generator's order).
    """
    pc = np.tile(options.pc, n_groups)
    weights = _weights(cells, pc, options.sampling)
    difference = (weights * cells).sum(axis=1)
    if options.inference == "bootstrap":
        lower, upper, se = (np.empty(len(pc)) for _ in range(3))
        n_pc = len(options.pc)
        for g in range(n_groups):  # the generator's draws come group after group
            span = slice(g * n_pc, (g + 1) * n_pc)
            samples = _resample(cells[span], weights[span], options)
            lower[span], upper[span] = sample_quantiles(samples, options.levels, axis=0)
            se[span] = samples.std(axis=0, ddof=1)
    else:
        se = np.sqrt(np.maximum(_variance(cells, weights, options.sampling), 0.0))
        z = normal_quantile(options.levels[1])
        lower, upper = difference - z * se, difference + z * se
        # "auto" is the normal fit for a difference: it covered as well as or better than
        # the exact quantiles in every setting of tests/benchmarks/bench_coverage.py.
        if options.interval == "discrete":
            lower, upper = _exact_quantiles(cells, weights, options, lower, upper, n_groups)
        elif options.interval == "auto":
            # A class of one instance has no bootstrap spread (se may be 0 there): its
            # part of the width comes from the adjusted cells, never from resampling it.
            few = ((se > 0) | single_counted(cells, weights)) & few_discordant(cells, weights)
            lower[few], upper[few] = adjusted_wald(cells[few], weights[few], options)
    # The band contains the estimate, as every band does.
    lower, upper = np.minimum(lower, difference), np.maximum(upper, difference)
    return difference, lower, upper, se, no_evidence_chance(cells, weights, options.sampling)


#: ``interval="auto"`` takes :func:`adjusted_wald` at a ``pc`` where a class whose
#: errors count there has fewer than this many discordant instances.
FEW_DISCORDANT = 5


def few_discordant(cells: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Rows where a class with weight in the difference has few discordant instances."""
    few = np.zeros(len(cells), dtype=bool)
    for discordant in ((1, 2), (5, 6)):
        counted = weights[:, discordant[0]] != 0
        few |= counted & (cells[:, list(discordant)].sum(axis=1) < FEW_DISCORDANT)
    return few


def single_counted(cells: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Rows where a class of one instance has weight in the difference.

    Rows where both classifiers are trivial on the data (no positive, or no negative
    calls: a+ is cells 0, 1, 4, 5, b+ cells 0, 2, 4, 6) are left out: their difference
    cannot vary.
    """
    one = np.zeros(len(cells), dtype=bool)
    for span, cell in ((slice(0, 4), 1), (slice(4, 8), 5)):
        one |= (weights[:, cell] != 0) & (cells[:, span].sum(axis=1) < 2)
    trivial = np.ones(len(cells), dtype=bool)
    for called, other in (([0, 1, 4, 5], [2, 3, 6, 7]), ([0, 2, 4, 6], [1, 3, 5, 7])):
        trivial &= (cells[:, called].sum(axis=1) == 0) | (cells[:, other].sum(axis=1) == 0)
    return one & ~trivial


def adjusted_wald(cells: np.ndarray, weights: np.ndarray, options: Options):
    """The Agresti-Min interval: the normal interval with half an instance added to each cell.

    Each class's 2x2 layer (stratified) or the whole 3-D matrix (full) gets 1/2 added to
    every cell, and the difference and its variance are those of the adjusted table, its
    rates over the adjusted totals (Agresti & Min 2005, Statistics in Medicine 24:729-740:
    for matched proportions it covers near the level where the plain normal interval,
    with few discordant pairs, does not).
    """
    adjusted = cells + 0.5
    scale = np.ones(cells.shape)
    spans = (slice(0, 4), slice(4, 8)) if options.sampling == "stratified" else (slice(0, 8),)
    for span in spans:
        m = cells[:, span].sum(axis=1, keepdims=True)
        scale[:, span] = m / adjusted[:, span].sum(axis=1, keepdims=True)
    weights = weights * scale  # per instance of the adjusted totals
    centre = (weights * adjusted).sum(axis=1)
    spread = np.sqrt(np.maximum(_variance(adjusted, weights, options.sampling), 0.0))
    z = normal_quantile(options.levels[1])
    return centre - z * spread, centre + z * spread


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


def _exact_quantiles(cells, weights, options: Options, lower, upper, n_groups: int = 1):
    """Quantiles of the exact bootstrap distribution of the difference at each pc.

    Rows are ``n_groups`` groups of ``len(options.pc)``; a group whose exact distribution
    is too large is refused as on its own (the first such group, its worst ``pc``).
    """
    pairs, work = exact_sizes(cells, options.sampling)
    instances = cells.sum(axis=1)
    n_pc = len(options.pc)
    too_large = np.flatnonzero(work.reshape(n_groups, n_pc).max(axis=1) > MAX_EXACT_PAIRS)
    if options.interval == "discrete" and len(too_large):  # refused as the group alone
        span = slice(too_large[0] * n_pc, (too_large[0] + 1) * n_pc)
        exact_where(pairs[span], work[span], options.pc, instances[span], options.interval)
    pc = np.tile(options.pc, n_groups)
    chosen = np.flatnonzero(exact_where(pairs, work, pc, instances, options.interval))
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
