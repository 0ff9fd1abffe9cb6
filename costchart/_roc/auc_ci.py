"""Confidence intervals for the AUC: DeLong's, the exact bootstrap's, the resampled bootstrap's.

The AUC is the Mann-Whitney statistic: the mean over (positive, negative) pairs of
``psi = 1`` if the positive scores higher, ``1/2`` on a tie, else 0. Its *placement values*
-- for a positive, the share of negatives it outranks (ties half); for a negative, the
share of positives that outrank it -- give DeLong's variance,
``S10 / P + S01 / N`` with ``S10``, ``S01`` the sample variances of the two classes'
placements (DeLong, DeLong & Clarke-Pearson 1988). Sun & Xu (2014) compute the placements
from midranks in ``O(n log n)``; here they come from the ROC points' cumulative counts,
which hold the same ranks: one sort, then sums per distinct score, all groups at once.

``inference="exact_bootstrap"`` uses the *exact* bootstrap variance of the AUC under
stratified resampling, which is closed-form for this two-sample U-statistic:
``sigma10^2 / P + sigma01^2 / N + sigma11^2 / (P N)`` with plug-in (``ddof=0``) variances,
``sigma11^2`` the mean squared residual ``psi - a_i - b_j + AUC`` over all pairs.
``inference="bootstrap"`` draws stratified resamples for a percentile interval. DeLong's
paired test of two AUCs is in :mod:`costchart._roc.auc_test`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.data_checks import enough_of_each_class
from costchart._io.deprecation import deprecated_names
from costchart._io.errors import CostchartError
from costchart._io.frames import describe_group, normalize_by
from costchart._io.groups import assemble, split_groups
from costchart._io.intervals import auc_ci_aliases, check_interval
from costchart._io.parameters import checked
from costchart._io.validation import confidence_level as check_confidence
from costchart._io.validation import one_of, random_generator, whole_number
from costchart._roc.points import points_of

__all__ = ["auc_ci"]


@deprecated_names(auc_ci_aliases)
@checked
def auc_ci(
    data,
    *,
    score: str,
    label: str,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
    confidence_level: float = 0.9,
    inference: str = "delong",
    interval: str = "auto",
    direction: str = "higher",
    n_resamples: int = 2000,
    rng=None,
) -> pd.DataFrame:
    """The AUC of each group with a confidence interval (DeLong, or the bootstrap).

    Parameters
    ----------
    data : pandas, polars or pyarrow DataFrame, dict of arrays, or lazy frame
        One row per instance (a lazy frame is counted in its engine, as in
        :func:`roc_points`). Not modified.
    score, label, by, pos_label
        As in :func:`roc_points`.
    weight : str, optional
        Column of non-negative instance weights; counts become sums of weights.
        Instances of weight 0 are ignored. Both variances are those of resampled
        instances (DeLong's is a sample variance over instances), so the weights must be
        whole numbers (frequency weights): a weight ``k`` gives exactly the interval of
        the data with its row repeated ``k`` times. Fractional weights are refused (for
        a weighted AUC alone, use :func:`auc` of :func:`roc_points` with ``weight=``),
        and so is ``weight=`` with a lazy frame (collect it first).
    confidence_level : float
        In (0, 1).
    inference : {"delong", "exact_bootstrap", "bootstrap"}
        How the AUC's sampling distribution is found: DeLong's variance (the default, as
        pROC's ``ci.auc(method="delong")``); the exact variance of the stratified bootstrap
        (no resampling); or ``n_resamples`` stratified resamples (as pROC's
        ``ci.auc(method="bootstrap")``). Was ``method="delong"`` / ``"bootstrap"``
        (``"bootstrap"`` with ``interval="percentile"`` resampled), deprecated.
    interval : {"auto", "normal", "percentile"}
        ``"normal"``: the AUC plus and minus the normal quantile times the standard error,
        clipped to [0, 1]; the shape of ``"delong"`` and ``"exact_bootstrap"``.
        ``"percentile"``: the quantiles of the resampled AUCs, the shape of
        ``"bootstrap"``; it follows the skew of an AUC near 0 or 1, and stays inside
        [0, 1] without clipping. ``"auto"`` (the default) is the inference's shape.
        (``"discrete"`` is the cost bands'.) With ``"bootstrap"``, ``se`` is the exact
        bootstrap one.
    direction : {"higher", "auto"}
        ``"higher"`` (the default): higher scores mean positive, as everywhere in
        costchart, so a classifier worse than chance keeps its AUC below 0.5 (e.g. 0.28,
        interval and all). ``"auto"``: pROC's rule (``roc(direction="auto")``): where
        the negatives' median score is above the positives' (each instance counted its
        weight), the scores are read the other way round (lower means positive), giving
        ``1 - auc`` and the interval mirrored; a ``direction`` column says which way each
        group was read (``"higher"``, pROC's ``"<"``, or ``"lower"``, its ``">"``). The
        medians decide, not the AUC, so an AUC below 0.5 can remain (pROC's 0.36 on
        scores ``[0, 0, 0, 10, 10]`` of positives and ``[1, 1, 1, -5, -5]`` of
        negatives).
    n_resamples : int
        Resamples for ``inference="bootstrap"``; at least 10 must lie in each tail.
    rng : int or numpy.random.Generator, optional
        The resamples' seed, for ``inference="bootstrap"``.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``auc``, ``lower``, ``upper``, ``se`` (float64), and
        with ``direction="auto"`` ``direction``, one row per group. ``attrs["costchart"]``
        records the level, inference, interval and direction.

    Raises
    ------
    CostchartError
        If a group has fewer than two instances of a class (DeLong's variance needs two;
        the bootstrap one).

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"s": [0.9, 0.8, 0.7, 0.6, 0.55, 0.4, 0.3, 0.2], "y": [1, 1, 0, 1, 0, 1, 0, 0]}
    >>> cc.auc_ci(data, score="s", label="y").round(4)
          auc   lower  upper      se
    0  0.8125  0.5341    1.0  0.1693
    """
    from scipy import stats

    inference, interval = check_interval("auc_ci", inference, interval)
    one_of(direction, "direction", ("higher", "auto"))
    level = check_confidence(confidence_level)
    if inference == "bootstrap":
        resamples = whole_number(n_resamples, "n_resamples", minimum=1)
        least = math.ceil(10 / ((1 - level) / 2) - 1e-9)
        if resamples < least:
            msg = (
                f"n_resamples={n_resamples!r} is too few for a {level!r} percentile interval: "
                f"each tail needs at least 10 resamples, so pass n_resamples >= {least}"
            )
            raise CostchartError(msg)
        generator = random_generator(rng)
    points = points_of(
        data,
        score=score,
        label=label,
        by=by,
        pos_label=pos_label,
        weight=weight,
        frequency="auc_ci's " + ("DeLong variance" if inference == "delong" else "bootstrap"),
    )
    by = normalize_by(by)  # passed on as given: by=None pools with a warning, () on purpose
    groups = split_groups(points, by)
    area, variance = _placement_moments(points, groups, by, inference)
    se = np.sqrt(np.maximum(variance, 0.0))
    if interval == "percentile":
        lower, upper = _percentile_interval(points, groups, level, resamples, generator)
    else:
        z = stats.norm.ppf(0.5 + level / 2)
        lower, upper = np.clip(area - z * se, 0.0, 1.0), np.clip(area + z * se, 0.0, 1.0)
    columns = {col.AUC: area, col.LOWER: lower, col.UPPER: upper, col.SE: se}
    if direction == "auto":
        flip = _controls_score_higher(points, groups)
        columns = {
            col.AUC: np.where(flip, 1 - area, area),
            col.LOWER: np.where(flip, 1 - upper, lower),
            col.UPPER: np.where(flip, 1 - lower, upper),
            col.SE: se,
            DIRECTION: np.where(flip, "lower", "higher").astype(object),
        }
    result = assemble(groups, np.ones(len(groups)), columns)
    result.attrs["costchart"] = {
        "confidence_level": level,
        "inference": inference,
        "interval": interval,
        "direction": direction,
    }
    return result


#: The column saying which way ``direction="auto"`` read a group's scores.
DIRECTION = "direction"

#: Most instances per class a multinomial draw takes (numpy's counts are C longs).
_MOST_DRAWS = 2**62
#: Most resamples x distinct scores, summed over the groups, of a percentile interval:
#: at most about a minute's work on a 2-core machine shared with other work, where one
#: resample x distinct score (two multinomial categories and the AUC's pass) was
#: measured at 70 to 190 ns of CPU (200,000 distinct scores x 200 resamples: 2.9 s;
#: 20,000 x 400: 1.5 s), so 20 to 60 s at the cap.
_MOST_WORK = 3 * 10**8

#: Resamples drawn at once for a percentile interval (memory: this x distinct scores).
_CHUNK = 64


def _percentile_interval(points: pd.DataFrame, groups, level: float, resamples: int, rng):
    """Quantiles of the AUCs of stratified resamples, each group's in turn.

    A resample draws the positives' and the negatives' counts at each distinct score
    from multinomials; its AUC is then one pass over the scores, as
    :func:`_placement_moments` computes the AUC. The work is checked for all groups
    before any resample is drawn.
    """
    tp = points[col.TP].to_numpy(np.float64)
    fp = points[col.FP].to_numpy(np.float64)
    quantiles = [(1 - level) / 2, (1 + level) / 2]
    lower, upper = np.zeros(len(groups)), np.zeros(len(groups))
    _check_work(tp, fp, groups, resamples, level)
    for g, group in enumerate(groups):
        rows = group.positions
        d_t = np.diff(tp[rows], prepend=0.0)
        d_f = np.diff(fp[rows], prepend=0.0)
        positives, negatives = round(float(d_t.sum())), round(float(d_f.sum()))
        areas = []
        for start in range(0, resamples, _CHUNK):
            size = min(_CHUNK, resamples - start)
            at_t = rng.multinomial(positives, d_t / d_t.sum(), size=size)
            at_f = rng.multinomial(negatives, d_f / d_f.sum(), size=size)
            below = negatives - np.cumsum(at_f, axis=1) + 0.5 * at_f
            areas.append((at_t * below).sum(axis=1) / (positives * negatives))
        lower[g], upper[g] = np.quantile(np.concatenate(areas), quantiles)
    return lower, upper


def _check_work(tp: np.ndarray, fp: np.ndarray, groups, resamples: int, level: float) -> None:
    """Refuse a percentile interval past :data:`_MOST_WORK` or :data:`_MOST_DRAWS`."""
    distinct = 0
    for group in groups:
        rows = group.positions
        positives, negatives = tp[rows[-1]], fp[rows[-1]]  # counts are cumulative
        if max(positives, negatives) > _MOST_DRAWS:
            msg = (
                f"a percentile interval of {positives:.3g} positives and {negatives:.3g} "
                "negatives is too large to resample (a multinomial draw takes at most "
                f"{float(_MOST_DRAWS):.3g} instances); use inference='exact_bootstrap' "
                "(the exact bootstrap variance, no resampling)"
            )
            raise CostchartError(msg)
        distinct += len(rows)
    if resamples * distinct <= _MOST_WORK:
        return
    fewer = _MOST_WORK // distinct
    least = math.ceil(10 / ((1 - level) / 2) - 1e-9)
    instead = (
        f"or n_resamples <= {fewer:,}"
        if fewer >= least
        else "or round the scores to fewer distinct values"
    )
    msg = (
        f"a percentile interval with n_resamples={resamples:,} over {distinct:,} distinct "
        f"scores is too large to resample: {resamples * distinct:.3g} draws, past the "
        f"{float(_MOST_WORK):.3g} (about a minute's work) allowed; use "
        f"inference='exact_bootstrap' (the exact bootstrap variance, no resampling) {instead}"
    )
    raise CostchartError(msg)


def _controls_score_higher(points: pd.DataFrame, groups) -> np.ndarray:
    """Per group, pROC's rule: is the negatives' median score above the positives'.

    pROC's ``roc(direction="auto")`` reads lower scores as positive (``">"``) exactly
    when ``median(controls) > median(cases)``; a tie keeps ``"<"``. Medians as R's: the
    middle value, or the mean of the two middle ones, each instance counted its weight.
    """
    thresholds = points[col.THRESHOLD].to_numpy()
    tp = points[col.TP].to_numpy(np.float64)
    fp = points[col.FP].to_numpy(np.float64)
    flip = np.zeros(len(groups), dtype=bool)
    for g, group in enumerate(groups):
        rows = group.positions  # scores descending, counts cumulative
        values = thresholds[rows][::-1]
        cases = _median(values, np.diff(tp[rows], prepend=0.0)[::-1])
        controls = _median(values, np.diff(fp[rows], prepend=0.0)[::-1])
        flip[g] = bool(controls > cases)
    return flip


def _median(values: np.ndarray, counts: np.ndarray):
    """R's median of ``values`` (ascending) each repeated its count: exact for integers."""
    total = np.cumsum(counts)
    n = total[-1]
    low, high = (
        values[np.searchsorted(total, rank, side="right")]
        for rank in (math.floor((n - 1) / 2), math.ceil((n - 1) / 2))
    )
    low, high = (v.item() if isinstance(v, np.generic) else v for v in (low, high))
    if isinstance(low, int) and isinstance(high, int):
        return Fraction(low + high, 2)
    return low / 2 + high / 2  # no overflow past the largest float


def _placement_moments(points: pd.DataFrame, groups, by: list[str], inference: str):
    """Each group's AUC and the variance of ``inference``, from its ROC points, all at once.

    DeLong's for ``"delong"``, else the exact bootstrap's.
    """
    if not len(groups):
        return np.zeros(0), np.zeros(0)
    tp = groups.take(points[col.TP].to_numpy(np.float64))  # group after group, thresholds
    fp = groups.take(points[col.FP].to_numpy(np.float64))  # decreasing within a group
    starts, ids = groups.starts, groups.ids
    positives, negatives = tp[groups.stops - 1], fp[groups.stops - 1]
    least = 2 if inference == "delong" else 1
    short = np.flatnonzero((positives < least) | (negatives < least))
    if len(short):
        g = int(short[0])
        enough_of_each_class(
            int(positives[g]),
            int(negatives[g]),
            least=least,
            where=f" in group {describe_group(by, groups.keys[g])}" if by else "",
            purpose=f"{'DeLong' if inference == 'delong' else 'the bootstrap'} variance",
        )
    d_t, d_f = np.diff(tp, prepend=0.0), np.diff(fp, prepend=0.0)
    d_t[starts], d_f[starts] = tp[starts], fp[starts]  # each group starts from 0
    p_row, n_row = positives[ids], negatives[ids]
    # A positive at score s outranks the negatives below s, and half those at s.
    v10 = (n_row - fp + 0.5 * d_f) / n_row
    # A negative at score s is outranked by the positives above s, and half those at s.
    v01 = (tp - 0.5 * d_t) / p_row
    area = np.add.reduceat(d_t * v10, starts) / positives
    ss10 = np.add.reduceat(d_t * (v10 - area[ids]) ** 2, starts)
    ss01 = np.add.reduceat(d_f * (v01 - area[ids]) ** 2, starts)
    if inference == "delong":
        return area, ss10 / (positives - 1) / positives + ss01 / (negatives - 1) / negatives
    # In shares of each class (a_t, a_f), not counts: sums of weights as large as 1e300
    # would overflow as products of counts. psi^2 over all pairs, per pair: 1 where the
    # positive wins, 1/4 per tie.
    a_t, a_f = d_t / p_row, d_f / n_row
    psi2 = np.add.reduceat(a_t * ((n_row - fp) / n_row + 0.25 * a_f), starts)
    residual = (
        psi2
        - np.add.reduceat(a_t * v10**2, starts)
        - np.add.reduceat(a_f * v01**2, starts)
        + area**2
    )
    spread10 = np.add.reduceat(a_t * (v10 - area[ids]) ** 2, starts)
    spread01 = np.add.reduceat(a_f * (v01 - area[ids]) ** 2, starts)
    return area, spread10 / positives + spread01 / negatives + residual / positives / negatives
