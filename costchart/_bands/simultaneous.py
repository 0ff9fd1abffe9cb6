"""Simultaneous bands: one band that holds the whole cost curve at once, at the level.

A pointwise band holds the cost at each ``pc`` with probability ``level``, separately; the
chance that the whole curve stays inside it is lower, the more so the more ``pc`` values
are looked at. The simultaneous band stretches the pointwise score interval
(:mod:`costchart._bands.score`: Jeffreys limits of the two error rates, combined by
MOVER) by one factor per side and group: ``cost - q_lower * h_lower`` to
``cost + q_upper * h_upper``, ``h`` how far the score interval reaches below and above
the cost. Each ``q`` is a quantile, over bootstrap resamples of the test set, of the
largest deviation on its side, studentized by the resample's own score interval:
``max_pc (cost* - cost) / h_lower*`` and ``max_pc (cost - cost*) / h_upper*`` (the
bootstrap-t, one side at a time). Both are taken at ``(1 + a) / 2``, and ``a`` is found
by a double bootstrap (:func:`calibrated_levels`). ``q`` is at least 1: the band is never
narrower than the pointwise score band.

Why this shape (issue 32; measured in ``tests/benchmarks/bench_fixed_coverage.py``):

* Studentizing each resample the way the sample is makes the maximum a pivot; holding the
  sample's standard error fixed held the whole curve in about 78 % of test sets.
* A symmetric ``|cost* - cost|`` with the cost's standard error at the Jeffreys rates
  reached 0.87-0.89 at level 0.9, nearly every miss the true curve above the band: where
  the sample has few errors its cost is low and its spread small, and the truth lies
  above. The score interval reaches further above a small count than below it (as the
  Jeffreys interval of a rate does; Brown, Cai & DasGupta 2001), and each side gets its
  own factor.
* The double bootstrap (prepivoting; Beran 1987) takes each of the first
  :data:`CALIBRATION_OUTER` resamples as the sample and the sample as the truth, and
  finds the nominal level at which such bands hold the truth at ``confidence_level``.

A ``pc`` whose cost is the same in every resample (its closed-form bootstrap variance is
0: the classifier is trivial or makes no errors that vary there) keeps a band of no
width and is left out of the maxima, as in the pointwise band.

Resampling the test set jointly for all ``pc`` needs only the counts between the
thresholds used: the instances of each class fall into the bins between consecutive used
thresholds, and a bootstrap resample draws a multinomial over those bins (per class with
stratified sampling, over both classes with full sampling). Cumulative sums of the draws
are the resampled confusion counts at every used threshold. All groups are drawn at once;
the inner resamples of the double bootstrap draw over the outer resamples' bins.
"""

from __future__ import annotations

import math

import numpy as np

from costchart._bands.counts import Counts, cost_weights, exact_variance
from costchart._bands.options import Options
from costchart._bands.score import half_widths, jeffreys_limits, tabled_limits, trials
from costchart._io.errors import CostchartError

#: Most float64 values the resampled costs of one chunk of groups may hold (128 MiB).
CHUNK_VALUES = 2**24
#: Resamples of the test set that the double bootstrap resamples again (the first ones).
CALIBRATION_OUTER = 200
#: Inner resamples of each of them.
CALIBRATION_INNER = 50


def check_simultaneous(simultaneous, options: Options) -> bool:
    """Validate ``simultaneous=`` and the resamples it needs (10 beyond each side's quantile)."""
    if not isinstance(simultaneous, (bool, np.bool_)):
        msg = f"simultaneous={simultaneous!r} must be True or False"
        raise CostchartError(msg)
    if simultaneous:
        # Each side's quantile is at (1 + level) / 2 or beyond.
        minimum = math.ceil(20 / (1 - options.confidence_level) - 1e-9)
        if options.n_resamples < minimum:
            msg = (
                f"n_resamples={options.n_resamples!r} is too few for a simultaneous "
                f"{options.confidence_level!r} band: at least 10 resamples must lie beyond "
                f"each side's quantile, so pass n_resamples >= {minimum}"
            )
            raise CostchartError(msg)
    return bool(simultaneous)


def simultaneous_bounds(rows: np.ndarray, counts: Counts, cost: np.ndarray, options: Options):
    """Lower and upper ends of the simultaneous band at each (group, ``pc``), flat.

    ``cost - q_lower * h_lower`` (clipped at 0) and ``cost + q_upper * h_upper``: ``h``
    the reach of the pointwise score interval below and above the cost
    (:mod:`costchart._bands.score`), ``q`` from :func:`simultaneous_factor`, at least 1;
    no width where every resample gives the same cost.
    """
    n_groups, n_pc = rows.shape
    w_fn, w_fp, _ = cost_weights(counts, np.tile(options.pc, n_groups), options.sampling)
    live = exact_variance(counts, w_fn, w_fp, options.sampling) > 0
    m_fn, m_fp = trials(counts.positives, counts.negatives, options.sampling)
    m_fn, m_fp = m_fn.astype(np.float64), m_fp.astype(np.float64)
    fn, fp = counts.fn.astype(np.float64), counts.fp.astype(np.float64)
    limits = (
        *jeffreys_limits(fn, m_fn, options.levels),
        *jeffreys_limits(fp, m_fp, options.levels),
    )
    down, up = (np.where(live, h, 0.0) for h in half_widths(fn, fp, m_fn, m_fp, w_fn, w_fp, limits))
    below, above = (
        np.repeat(np.maximum(f, 1.0), n_pc)
        for f in simultaneous_factor(rows, counts, cost, live, options)
    )
    return np.clip(cost - below * down, 0, None), cost + above * up


def simultaneous_factor(
    rows: np.ndarray, counts: Counts, cost: np.ndarray, live: np.ndarray, options: Options
) -> tuple[np.ndarray, np.ndarray]:
    """The factors ``(q_lower, q_upper)`` of each group, one for each side of the band.

    ``rows`` (groups, pc) are the frame rows used at each ``pc``; ``counts``, ``cost`` and
    ``live`` are flat, group-major, one entry per (group, pc). Each side's factor is a
    quantile of its largest studentized deviation over the ``live`` ``pc``:
    ``max (cost* - cost) / h_lower*`` for the lower end (resamples above the sample stand
    for a truth below it) and ``max (cost - cost*) / h_upper*`` for the upper end, ``h*``
    the reach of the resample's own score interval. Both are taken at ``(1 + a) / 2``,
    where ``a`` is the level :func:`calibrated_levels` finds by a double bootstrap. A
    group with no live ``pc`` gets 0.
    """
    n_groups, n_pc = rows.shape
    if n_groups == 0:
        return np.zeros(0), np.zeros(0)
    w_fn, w_fp, _ = cost_weights(counts, np.tile(options.pc, n_groups), options.sampling)
    slot, bins_pos, bins_neg = _bins(rows, counts)
    shape = (n_groups, n_pc)
    weights = (w_fn.reshape(shape), w_fp.reshape(shape))
    alive = live.reshape(shape)
    keep = min(CALIBRATION_OUTER, options.n_resamples)
    outer, kept = _max_deviations(
        (bins_pos, bins_neg), slot, weights, cost.reshape(shape), alive, options, keep=keep
    )
    side = (1 + calibrated_levels(outer, kept, slot, weights, alive, options)) / 2
    return tuple(np.maximum(_quantiles(o, side), 0.0) for o in outer)


def calibrated_levels(outer, kept, slot, weights, alive, options: Options) -> np.ndarray:
    """The nominal level ``a`` at which each group's band covers at ``confidence_level``.

    At nominal level ``a`` the band's sides are the ``(1 + a) / 2`` quantiles of the two
    deviations. A double bootstrap (prepivoting, Beran 1987) finds ``a``: each of the
    first :data:`CALIBRATION_OUTER` resamples is taken as the sample and the sample as
    the truth; resampled :data:`CALIBRATION_INNER` times, it places its own two
    deviations among its inner resamples' (``F``, ties counted half), and its band holds
    the sample exactly when ``a >= u = 2 max(F_lower, F_upper) - 1``. The calibrated
    level is the ``confidence_level`` quantile of ``u`` -- never below
    ``confidence_level`` (the bootstrap-t band undercovered in every setting measured)
    and never so high that fewer than 10 resamples lie beyond a side's quantile.
    """
    ((bins_pos, bins_neg), centre) = kept
    n_groups, keep = outer[0].shape[0], centre.shape[1]
    level = options.confidence_level
    if keep == 0:
        return np.full(n_groups, level)
    width, n_pc = bins_pos.shape[-1], slot.shape[1]
    inner, _ = _max_deviations(
        (bins_pos.reshape(-1, width), bins_neg.reshape(-1, width)),
        np.repeat(slot, keep, axis=0),
        tuple(np.repeat(w, keep, axis=0) for w in weights),
        centre.reshape(-1, n_pc),
        np.repeat(alive, keep, axis=0),
        options,
        draws=CALIBRATION_INNER,
    )
    placed = []
    for own, resampled in zip(outer, inner, strict=True):
        resampled = resampled.reshape(n_groups, keep, -1)
        own = own[:, :keep, None]
        placed.append(placed_among(resampled, own, axis=2))
    u = 2 * np.maximum(*placed) - 1
    ceiling = max(level, 1 - 20 / options.n_resamples)
    return np.clip(np.quantile(u, level, axis=1), level, ceiling)


def placed_among(inner: np.ndarray, own: np.ndarray, *, axis: int) -> np.ndarray:
    """The share of the ``inner`` resamples (along ``axis``) below ``own``, ties counted half.

    ``own`` broadcasts against ``inner``. The double bootstraps of the simultaneous bands,
    the default band (:mod:`costchart._bands.choice_level`) and the cheapest set place a
    resample's own deviation among its inner resamples' with it.

    Examples
    --------
    >>> import numpy as np
    >>> placed_among(np.array([[1.0, 2.0, 3.0, 4.0]]), np.array([[3.0]]), axis=1)
    array([0.625])
    """
    return np.mean(inner < own, axis=axis) + 0.5 * np.mean(inner == own, axis=axis)


def _quantiles(values: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """Each row's quantile at its own level (numpy's default, linear interpolation)."""
    ordered = np.sort(values, axis=1)
    position = levels * (values.shape[1] - 1)
    low = np.floor(position).astype(np.int64)
    high = np.minimum(low + 1, values.shape[1] - 1)
    fraction = position - low
    below = np.take_along_axis(ordered, low[:, None], axis=1)[:, 0]
    above = np.take_along_axis(ordered, high[:, None], axis=1)[:, 0]
    return below + fraction * (above - below)


def _max_deviations(bins, slot, weights, centre, alive, options: Options, *, draws=0, keep=0):
    """Each (group, resample)'s largest deviations below and above, chunk by chunk.

    ``max_pc (cost* - centre) / h_lower*`` and ``max_pc (centre - cost*) / h_upper*``,
    ``h*`` the reach of the resample's own pointwise score interval (the lower and the
    upper side's deviations).

    ``bins`` (positives', negatives' instances per bin), ``slot``, ``weights``, ``centre``
    and ``alive`` have one row per group. Each group is resampled ``draws`` times
    (``n_resamples`` if 0). The first ``keep`` resamples' bin draws and costs are also
    returned, (groups, keep, bins) and (groups, keep, pc), for the inner bootstrap.
    """
    bins_pos, bins_neg = bins
    n_groups, n_pc = slot.shape
    inner = draws > 0  # the calibration's resamples of resamples (rows: group x resample)
    draws = draws or options.n_resamples
    width = bins_pos.shape[1]
    step = max(1, CHUNK_VALUES // (draws * (2 * width + 6 * n_pc)))
    below, above = np.zeros((n_groups, draws)), np.zeros((n_groups, draws))
    kept_pos, kept_neg = np.zeros((n_groups, keep, width)), np.zeros((n_groups, keep, width))
    kept_cost = np.zeros((n_groups, keep, n_pc))
    for start in range(0, n_groups, step):
        part = slice(start, min(start + step, n_groups))
        pos, neg, fn, fp = _resampled_counts(
            bins_pos[part], bins_neg[part], slot[part], options, draws
        )
        weight_fn, weight_fp = (w[part][:, None, :] for w in weights)
        resampled = weight_fn * fn + weight_fp * fp
        m_fn, m_fp = trials(
            bins_pos[part].sum(axis=1), bins_neg[part].sum(axis=1), options.sampling
        )
        limits = (
            *tabled_limits(fn, m_fn, options.levels),
            *tabled_limits(fp, m_fp, options.levels),
        )
        shape = (-1, 1, 1)
        down, up = half_widths(
            fn, fp, m_fn.reshape(shape), m_fp.reshape(shape), weight_fn, weight_fp, limits
        )
        shift = resampled - centre[part][:, None, :]
        live = alive[part][:, None, :]
        below[part] = _studentized(shift, down, live).max(axis=2)
        above[part] = _studentized(-shift, up, live).max(axis=2)
        kept_pos[part], kept_neg[part] = pos[:, :keep], neg[:, :keep]
        kept_cost[part] = resampled[:, :keep]
        if options.progress is not None:
            done = min(start + step, n_groups)
            options.progress(
                f"simultaneous band: calibrated on {done:,} of {n_groups:,} resamples taken "
                "as the sample"
                if inner
                else f"simultaneous band: {done:,} of {n_groups:,} groups resampled jointly"
            )
    return (below, above), ((kept_pos, kept_neg), kept_cost)


def _studentized(shift, scale, live):
    """``shift / scale`` at the live ``pc``, 0 elsewhere (positive over 0 is infinite)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(scale > 0, shift / scale, np.where(shift > 0, np.inf, 0.0))
    return np.where(live, ratio, 0.0)


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


def _resampled_counts(bins_pos, bins_neg, slot, options: Options, draws: int):
    """Resampled bins of each class, and FN and FP at each (group, resample, pc)."""
    rng = options.rng
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
    return pos, neg, resampled_positives - tp, fp


def _multinomial(rng, totals, bins, draws):
    """``draws`` multinomial resamples of each group's instances over its bins.

    Drawn bin by bin as binomials of what is left (the multinomial's conditional
    chain), each bin for every group and resample in one call: several times faster than
    one multinomial call per group for the many small bins a band uses.
    """
    totals = totals.astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        probabilities = np.where(totals[:, None] > 0, bins / totals[:, None], 0.0)
    # Probability left from each bin on, so that each step's share is exact in the last one.
    left = np.cumsum(probabilities[:, ::-1], axis=1)[:, ::-1]
    remaining = np.repeat(totals[:, None], draws, axis=1)
    sampled = np.empty((len(totals), draws, bins.shape[1]))
    for k in range(bins.shape[1] - 1):
        with np.errstate(invalid="ignore", divide="ignore"):
            share = np.where(left[:, k] > 0, probabilities[:, k] / left[:, k], 0.0)
        drawn = rng.binomial(remaining, np.clip(share, 0.0, 1.0)[:, None])
        sampled[:, :, k] = drawn
        remaining -= drawn
    sampled[:, :, -1] = remaining
    return sampled
