"""A band from score intervals on the two error rates, for rows with few errors.

Where a class that counts at a ``pc`` has few errors (or few correct decisions), the
bootstrap distribution of its rate is lumpy and often has no spread at all (no false
positive in the test set: none in any resample), so a band built from it misses the true
cost about a third of the time at 50 instances per class. The interval here does not
resample: each rate gets its equal-tailed Jeffreys interval (the ``Beta(x + 1/2,
m - x + 1/2)`` quantiles, with the end at 0 when ``x = 0`` and at 1 when ``x = m``; Brown,
Cai & DasGupta 2001, Statistical Science 16:101-133), and the two are combined for the
cost ``a * FNR + b * FPR`` by recovering the variance from each limit (MOVER; Zou &
Donner 2008, Statistics in Medicine 27:1693-1702)::

    lower = cost - sqrt((a (FNR - l_FN))^2 + (b (FPR - l_FP))^2)
    upper = cost + sqrt((a (u_FN - FNR))^2 + (b (u_FP - FPR))^2)

With ``sampling="full"`` the rates are the cells ``FN / n`` and ``FP / n``. A rate with no
errors keeps an upper limit above 0: the band says the rate is small, not that it is 0.
"""

from __future__ import annotations

import numpy as np

#: ``interval="auto"`` takes the score interval at a ``pc`` where a class whose errors
#: count there has fewer than this many errors, or fewer correct decisions (the rule of
#: thumb below which a normal approximation to a binomial is poor).
FEW_ERRORS = 5


def few_errors(fn, fp, positives, negatives, w_fn, w_fp) -> np.ndarray:
    """Rows where a class that counts has fewer than :data:`FEW_ERRORS` errors or successes."""
    fn, fp = np.asarray(fn, np.float64), np.asarray(fp, np.float64)
    few_fn = np.minimum(fn, positives - fn) < FEW_ERRORS
    few_fp = np.minimum(fp, negatives - fp) < FEW_ERRORS
    return ((w_fn > 0) & few_fn) | ((w_fp > 0) & few_fp)


def jeffreys_limits(x, m, levels: tuple[float, float]):
    """Equal-tailed Jeffreys limits of the rate ``x / m`` (0 at ``x = 0``, 1 at ``x = m``)."""
    from scipy import stats

    x, m = np.asarray(x, np.float64), np.asarray(m, np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        low = np.where(x > 0, stats.beta.ppf(levels[0], x + 0.5, m - x + 0.5), 0.0)
        high = np.where(x < m, stats.beta.ppf(levels[1], x + 0.5, m - x + 0.5), 1.0)
    return np.nan_to_num(low), np.where(np.isnan(high), 1.0, high)


def score_bounds(fn, fp, positives, negatives, w_fn, w_fp, sampling, levels):
    """Lower and upper ends of the cost ``w_fn * fn + w_fp * fp`` (MOVER of Jeffreys limits)."""
    fn, fp = np.asarray(fn, np.float64), np.asarray(fp, np.float64)
    m_fn, m_fp = trials(positives, negatives, sampling)
    limits = (*jeffreys_limits(fn, m_fn, levels), *jeffreys_limits(fp, m_fp, levels))
    cost = w_fn * fn + w_fp * fp
    down, up = half_widths(fn, fp, m_fn, m_fp, w_fn, w_fp, limits)
    return np.clip(cost - down, 0.0, None), cost + up


def trials(positives, negatives, sampling):
    """The numbers of trials of the two rates: the class totals, or ``n`` for both."""
    if sampling == "stratified":
        return positives, negatives
    return positives + negatives, positives + negatives


def half_widths(fn, fp, m_fn, m_fp, w_fn, w_fp, limits):
    """How far the MOVER interval reaches below and above the cost, from the rates' limits.

    ``limits`` are the lower and upper limits of the false-negative rate, then of the
    false-positive rate; ``w_fn``, ``w_fp`` weigh the counts (the rates' weights are
    ``w * m``).
    """
    low_fn, high_fn, low_fp, high_fp = limits
    a, b = w_fn * m_fn, w_fp * m_fp  # the weights of the rates
    rate_fn, rate_fp = fn / m_fn, fp / m_fp
    down = np.hypot(a * (rate_fn - low_fn), b * (rate_fp - low_fp))
    up = np.hypot(a * (high_fn - rate_fn), b * (high_fp - rate_fp))
    return down, up


def tabled_limits(x: np.ndarray, m: np.ndarray, levels):
    """:func:`jeffreys_limits` of many counts ``x`` (groups, ...) of ``m`` (groups,) trials.

    Each group's limits are computed once for every count between its smallest and
    largest, and looked up: resampled counts repeat a few values many times.
    """
    n_groups = x.shape[0]
    flat = x.reshape(n_groups, -1).astype(np.int64)
    low = flat.min(axis=1)
    width = int((flat.max(axis=1) - low).max()) + 1
    values = low[:, None] + np.arange(width)[None, :]
    table_low, table_high = jeffreys_limits(
        np.minimum(values, m[:, None]), np.broadcast_to(m[:, None], values.shape), levels
    )
    index = flat - low[:, None]
    return (
        np.take_along_axis(table_low, index, axis=1).reshape(x.shape),
        np.take_along_axis(table_high, index, axis=1).reshape(x.shape),
    )
