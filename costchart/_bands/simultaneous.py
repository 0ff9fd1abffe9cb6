"""Simultaneous bands: one band that holds the whole cost curve at once, at the level.

A pointwise band holds the cost at each ``pc`` with probability ``level``, separately; the
chance that the whole curve stays inside it is lower, the more so the more ``pc`` values
are looked at. The simultaneous band widens every ``pc``'s interval by one factor per
group: ``cost +- q * se``, with ``q`` the ``level`` quantile, over bootstrap resamples of
the test set, of the largest studentized deviation ``max_pc |cost* - cost| / se`` (se the
closed-form bootstrap standard error). Under the bootstrap approximation, the costs of the
chosen classifiers at every ``pc`` of the grid then lie inside the band together with
probability ``level``.

Resampling the test set jointly for all ``pc`` needs only the counts between the
thresholds used: the instances of each class fall into the bins between consecutive used
thresholds, and a bootstrap resample draws a multinomial over those bins (per class with
stratified sampling, over both classes with full sampling). Cumulative sums of the draws
are the resampled confusion counts at every used threshold. All groups are drawn at once.
"""

from __future__ import annotations

import math

import numpy as np

from costchart._bands.counts import Counts, cost_weights
from costchart._bands.options import Options
from costchart._errors import CostchartError

#: Most float64 values the resampled costs of one chunk of groups may hold (128 MiB).
CHUNK_VALUES = 2**24


def check_simultaneous(simultaneous, options: Options) -> bool:
    """Validate ``simultaneous=`` and the resamples it needs (10 beyond the quantile)."""
    if not isinstance(simultaneous, (bool, np.bool_)):
        msg = f"simultaneous={simultaneous!r} must be True or False"
        raise CostchartError(msg)
    if simultaneous:
        minimum = math.ceil(10 / (1 - options.confidence_level) - 1e-9)
        if options.n_resamples < minimum:
            msg = (
                f"n_resamples={options.n_resamples!r} is too few for a simultaneous "
                f"{options.confidence_level!r} band: at least 10 resamples must lie beyond "
                f"its quantile, so pass n_resamples >= {minimum}"
            )
            raise CostchartError(msg)
    return bool(simultaneous)


def simultaneous_factor(
    rows: np.ndarray, counts: Counts, cost: np.ndarray, se: np.ndarray, options: Options
) -> np.ndarray:
    """The factor ``q`` of each group: the level quantile of ``max |cost* - cost| / se``.

    ``rows`` (groups, pc) are the frame rows used at each ``pc``; ``counts``, ``cost`` and
    ``se`` are flat, group-major, one entry per (group, pc). A group whose band has no
    width anywhere gets 0.
    """
    n_groups, n_pc = rows.shape
    if n_groups == 0:
        return np.zeros(0)
    w_fn, w_fp, _ = cost_weights(counts, np.tile(options.pc, n_groups), options.sampling)
    slot, bins_pos, bins_neg = _bins(rows, counts)
    width = bins_pos.shape[1]
    per_group = options.n_resamples * (2 * width + 3 * n_pc)
    step = max(1, CHUNK_VALUES // per_group)
    factor = np.zeros(n_groups)
    for start in range(0, n_groups, step):
        part = slice(start, min(start + step, n_groups))
        flat = slice(part.start * n_pc, part.stop * n_pc)
        _, fn, fp = _resampled_counts(bins_pos[part], bins_neg[part], slot[part], options)
        shape = (-1, 1, n_pc)  # (groups, resamples, pc)
        resampled = w_fn[flat].reshape(shape) * fn + w_fp[flat].reshape(shape) * fp
        spread = se[flat].reshape(shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            deviation = np.where(
                spread > 0, np.abs(resampled - cost[flat].reshape(shape)) / spread, 0.0
            )
        factor[part] = np.quantile(deviation.max(axis=2), options.confidence_level, axis=1)
    return factor


def _bins(rows: np.ndarray, counts: Counts):
    """Each (group, pc)'s bin, and the instances of each class in each bin, per group.

    The bins of a group are the stretches between its distinct used thresholds, in order
    of the cumulative counts; the last bin holds the instances below the lowest one.
    """
    n_groups, n_pc = rows.shape
    group = np.repeat(np.arange(n_groups), n_pc)
    tp, fp = counts.tp.astype(np.float64), counts.fp.astype(np.float64)
    order = np.lexsort((rows.reshape(-1), fp, tp, group))
    sorted_rows, sorted_group = rows.reshape(-1)[order], group[order]
    new = np.r_[True, (sorted_rows[1:] != sorted_rows[:-1]) | (np.diff(sorted_group) != 0)]
    # Position of each distinct threshold within its group.
    first_of_group = np.r_[True, np.diff(sorted_group) != 0]
    distinct_index = np.cumsum(new) - 1
    group_start = np.maximum.accumulate(np.where(first_of_group, distinct_index, 0))
    position = distinct_index - group_start
    slot = np.empty(n_groups * n_pc, dtype=np.int64)
    slot[order] = position
    width = int(position.max()) + 2  # the distinct thresholds, and the tail below them
    cum_pos = np.zeros((n_groups, width))
    cum_neg = np.zeros((n_groups, width))
    keep = order[new]
    cum_pos[group[keep], position[new]] = tp[keep]
    cum_neg[group[keep], position[new]] = fp[keep]
    # Pad each group's cumulative counts with its class totals up to the tail.
    last = np.zeros(n_groups, dtype=np.int64)
    np.maximum.at(last, group[keep], position[new])
    columns = np.arange(width)[None, :]
    beyond = columns > last[:, None]
    totals_pos = counts.positives.astype(np.float64).reshape(n_groups, n_pc)[:, 0]
    totals_neg = counts.negatives.astype(np.float64).reshape(n_groups, n_pc)[:, 0]
    cum_pos = np.where(beyond, totals_pos[:, None], cum_pos)
    cum_neg = np.where(beyond, totals_neg[:, None], cum_neg)
    bins_pos = np.diff(cum_pos, prepend=0.0, axis=1)
    bins_neg = np.diff(cum_neg, prepend=0.0, axis=1)
    return slot.reshape(n_groups, n_pc), bins_pos, bins_neg


def _resampled_counts(bins_pos, bins_neg, slot, options: Options):
    """Resampled TP, FN and FP at each (group, resample, pc)."""
    rng, draws = options.rng, options.n_resamples
    n_groups = bins_pos.shape[0]
    positives, negatives = bins_pos.sum(axis=1), bins_neg.sum(axis=1)
    if options.sampling == "stratified":
        pos = _multinomial(rng, positives, bins_pos, draws)
        neg = _multinomial(rng, negatives, bins_neg, draws)
        resampled_positives = positives[:, None, None]
    else:
        both = _multinomial(rng, positives + negatives, np.hstack([bins_pos, bins_neg]), draws)
        pos, neg = both[..., : bins_pos.shape[1]], both[..., bins_pos.shape[1] :]
        resampled_positives = pos.sum(axis=2, keepdims=True)
    take = np.broadcast_to(slot[:, None, :], (n_groups, draws, slot.shape[1]))
    tp = np.take_along_axis(np.cumsum(pos, axis=2), take, axis=2)
    fp = np.take_along_axis(np.cumsum(neg, axis=2), take, axis=2)
    return tp, resampled_positives - tp, fp


def _multinomial(rng, totals, bins, draws):
    """``draws`` multinomial resamples of each group's instances over its bins."""
    totals = totals.astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        probabilities = np.where(totals[:, None] > 0, bins / totals[:, None], 0.0)
    probabilities[:, -1] = np.clip(1 - probabilities[:, :-1].sum(axis=1), 0, 1)
    sampled = rng.multinomial(totals[:, None], probabilities[:, None, :], size=(len(totals), draws))
    return sampled.astype(np.float64)
