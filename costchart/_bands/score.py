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

from costchart._io import schema as col
from costchart._io.data_checks import enough_of_each_class
from costchart._io.frames import describe_group

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


def takes_score_interval(options) -> bool:
    """Whether the band takes an interval that does not resample where a class is small.

    ``inference="exact_bootstrap"`` with ``interval="auto"``: the score interval (a cost
    band) or the Agresti-Min interval (a difference band).
    """
    return options.inference == "exact_bootstrap" and options.interval == "auto"


def single_instance(positives, negatives, w_fn, w_fp) -> np.ndarray:
    """Rows where a class of one instance counts: its rate has no bootstrap spread at all."""
    return ((w_fn > 0) & (positives < 2)) | ((w_fp > 0) & (negatives < 2))


def class_totals(read: dict, groups) -> tuple[np.ndarray, np.ndarray]:
    """Each group's positives and negatives, from its ROC points' columns ``read``."""
    firsts = groups.firsts  # every row of a group has its class totals
    tp, fn, fp, tn = (read[c][firsts] for c in (col.TP, col.FN, col.FP, col.TN))
    return tp + fn, fp + tn


def refuse_single_instances(
    positives, negatives, groups, options, simultaneous: bool = False
) -> None:
    """Refuse a group with a class of one instance unless :func:`takes_score_interval`.

    A resample of one instance is that instance: a band whose width comes from
    resampling it has no width from that class's rate, however uncertain the rate is.
    ``positives``, ``negatives`` are each group's totals; ``groups`` their
    :class:`~costchart._io.groups.Groups` (the message names the group). A simultaneous
    band is refused too: its width comes from the rows' resampled maxima.
    """
    if takes_score_interval(options) and not simultaneous:
        return
    positives, negatives = np.asarray(positives), np.asarray(negatives)
    one = ((positives > 0) & (positives < 2)) | ((negatives > 0) & (negatives < 2))
    if not one.any():
        return
    g = int(np.flatnonzero(one)[0])
    chosen = f'inference="{options.inference}"' + (
        f', interval="{options.interval}"' if options.inference == "exact_bootstrap" else ""
    )
    enough_of_each_class(
        float(positives[g]),
        float(negatives[g]),
        least=2,
        where=f" in group {describe_group(groups.by, groups.keys[g])}" if groups.by else "",
        purpose=f"a band with {chosen}" + (", simultaneous=True" if simultaneous else ""),
        fix=(
            "a resample of one instance is that instance, so the band would have no width "
            "from its class's error rate. Add {short}, or pass "
            'inference="exact_bootstrap", interval="auto" (the default interval)'
            + (" without simultaneous=True" if simultaneous else "")
            + ", which takes an interval that does not resample there"
        ),
    )
