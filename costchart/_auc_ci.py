"""Confidence intervals for the AUC and the paired test of two AUCs (DeLong).

The AUC is the Mann-Whitney statistic: the mean over (positive, negative) pairs of
``psi = 1`` if the positive scores higher, ``1/2`` on a tie, else 0. Its *placement values*
-- for a positive, the share of negatives it outranks (ties half); for a negative, the
share of positives that outrank it -- give DeLong's variance,
``S10 / P + S01 / N`` with ``S10``, ``S01`` the sample variances of the two classes'
placements (DeLong, DeLong & Clarke-Pearson 1988). Sun & Xu (2014) compute the placements
from midranks in ``O(n log n)``; here they come from the ROC points' cumulative counts,
which hold the same ranks: one sort, then sums per distinct score, all groups at once.

``method="bootstrap"`` uses the *exact* bootstrap variance of the AUC under stratified
resampling, which is closed-form for this two-sample U-statistic:
``sigma10^2 / P + sigma01^2 / N + sigma11^2 / (P N)`` with plug-in (``ddof=0``) variances,
``sigma11^2`` the mean squared residual ``psi - a_i - b_j + AUC`` over all pairs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart import _schema as col
from costchart._data_checks import binary_labels, finite_numbers
from costchart._errors import CostchartError
from costchart._frames import as_pandas, check_by_names, describe_group, normalize_by
from costchart._groups import assemble, split_groups
from costchart._paired import instance_weights, is_scalar_name, paired
from costchart._roc import points_of
from costchart._validation import column_name, one_of, random_generator, whole_number
from costchart._validation import confidence_level as check_confidence

__all__ = ["auc_ci", "auc_test"]


def auc_ci(
    data,
    *,
    score: str,
    label: str,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
    confidence_level: float = 0.9,
    method: str = "delong",
    interval: str = "normal",
    direction: str = "higher",
    n_resamples: int = 2000,
    rng=None,
) -> pd.DataFrame:
    """The AUC of each group with a confidence interval (DeLong, or the exact bootstrap).

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
    method : {"delong", "bootstrap"}
        DeLong's variance (as pROC's ``ci.auc(method="delong")``), or the exact variance of
        the stratified bootstrap (no resampling).
    interval : {"normal", "percentile"}
        ``"normal"`` (the default): the AUC plus and minus the normal quantile times the
        standard error, clipped to [0, 1]. ``"percentile"`` (with ``method="bootstrap"``):
        the quantiles of the AUCs of ``n_resamples`` stratified resamples (as pROC's
        ``ci.auc(method="bootstrap")``); it follows the skew of an AUC near 0 or 1, and
        stays inside [0, 1] without clipping. ``se`` is the exact bootstrap one either way.
    direction : {"higher", "auto"}
        ``"higher"`` (the default): higher scores mean positive, as everywhere in
        costchart, so a classifier worse than chance keeps its AUC below 0.5 (e.g. 0.28,
        interval and all). ``"auto"``: where the AUC is below 0.5 the scores are read the
        other way round (lower means positive), giving ``1 - auc`` and the interval
        mirrored; a ``direction`` column says which way each group was read (``"higher"``
        or ``"lower"``), as pROC's ``direction="auto"``.
    n_resamples : int
        Resamples for ``interval="percentile"``; at least 10 must lie in each tail.
    rng : int or numpy.random.Generator, optional
        The resamples' seed, for ``interval="percentile"``.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``auc``, ``lower``, ``upper``, ``se`` (float64), and
        with ``direction="auto"`` ``direction``, one row per group. ``attrs["costchart"]``
        records the level, method, interval and direction.

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

    one_of(method, "method", ("delong", "bootstrap"))
    one_of(interval, "interval", ("normal", "percentile"))
    one_of(direction, "direction", ("higher", "auto"))
    level = check_confidence(confidence_level)
    if interval == "percentile":
        if method != "bootstrap":
            msg = (
                f"interval='percentile' needs resamples: pass method='bootstrap' (method="
                f"{method!r} has a normal interval only)"
            )
            raise CostchartError(msg)
        resamples = whole_number(n_resamples, "n_resamples", minimum=1)
        least = math.ceil(10 / ((1 - level) / 2) - 1e-9)
        if resamples < least:
            msg = (
                f"n_resamples={n_resamples!r} is too few for a {level!r} percentile interval: "
                f"each tail needs at least 10 resamples, so pass n_resamples >= {least}"
            )
            raise CostchartError(msg)
        generator = random_generator(rng)
    by = normalize_by(by)
    points = points_of(
        data,
        score=score,
        label=label,
        by=by or None,
        pos_label=pos_label,
        weight=weight,
        frequency="auc_ci's " + ("DeLong variance" if method == "delong" else "bootstrap"),
    )
    groups = split_groups(points, by)
    area, variance = _placement_moments(points, groups, by, method)
    se = np.sqrt(np.maximum(variance, 0.0))
    if interval == "percentile":
        lower, upper = _percentile_interval(points, groups, level, resamples, generator)
    else:
        z = stats.norm.ppf(0.5 + level / 2)
        lower, upper = np.clip(area - z * se, 0.0, 1.0), np.clip(area + z * se, 0.0, 1.0)
    columns = {col.AUC: area, col.LOWER: lower, col.UPPER: upper, col.SE: se}
    if direction == "auto":
        flip = area < 0.5
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
        "method": method,
        "interval": interval,
        "direction": direction,
    }
    return result


#: The column saying which way ``direction="auto"`` read a group's scores.
DIRECTION = "direction"

#: Most instances per class a multinomial draw takes (numpy's counts are C longs), and
#: most resamples x distinct scores (about a minute's work) of a percentile interval.
_MOST_DRAWS = 2**62
_MOST_WORK = 10**10

#: Resamples drawn at once for a percentile interval (memory: this x distinct scores).
_CHUNK = 64


def _percentile_interval(points: pd.DataFrame, groups, level: float, resamples: int, rng):
    """Quantiles of the AUCs of stratified resamples, each group's in turn.

    A resample draws the positives' and the negatives' counts at each distinct score
    from multinomials; its AUC is then one pass over the scores, as
    :func:`_placement_moments` computes the AUC.
    """
    tp = points[col.TP].to_numpy(np.float64)
    fp = points[col.FP].to_numpy(np.float64)
    quantiles = [(1 - level) / 2, (1 + level) / 2]
    lower, upper = np.zeros(len(groups)), np.zeros(len(groups))
    for g, group in enumerate(groups):
        rows = group.positions
        d_t = np.diff(tp[rows], prepend=0.0)
        d_f = np.diff(fp[rows], prepend=0.0)
        positives, negatives = round(float(d_t.sum())), round(float(d_f.sum()))
        if max(positives, negatives) > _MOST_DRAWS or resamples * len(rows) > _MOST_WORK:
            msg = (
                f"a percentile interval of {float(positives):.3g} positives and "
                f"{float(negatives):.3g} negatives "
                f"with n_resamples={resamples:,} is too large to resample; use "
                "interval='normal' (the exact bootstrap variance) or fewer resamples"
            )
            raise CostchartError(msg)
        areas = []
        for start in range(0, resamples, _CHUNK):
            size = min(_CHUNK, resamples - start)
            at_t = rng.multinomial(positives, d_t / d_t.sum(), size=size)
            at_f = rng.multinomial(negatives, d_f / d_f.sum(), size=size)
            below = negatives - np.cumsum(at_f, axis=1) + 0.5 * at_f
            areas.append((at_t * below).sum(axis=1) / (positives * negatives))
        lower[g], upper[g] = np.quantile(np.concatenate(areas), quantiles)
    return lower, upper


def _placement_moments(points: pd.DataFrame, groups, by: list[str], method: str):
    """Each group's AUC and the variance of ``method``, from its ROC points, all at once."""
    if not len(groups):
        return np.zeros(0), np.zeros(0)
    tp = groups.take(points[col.TP].to_numpy(np.float64))  # group after group, thresholds
    fp = groups.take(points[col.FP].to_numpy(np.float64))  # decreasing within a group
    starts, ids = groups.starts, groups.ids
    positives, negatives = tp[groups.stops - 1], fp[groups.stops - 1]
    least = 2 if method == "delong" else 1
    short = np.flatnonzero((positives < least) | (negatives < least))
    if len(short):
        g = int(short[0])
        where = f" in group {describe_group(by, groups.keys[g])}" if by else ""
        msg = (
            f"{int(positives[g])} positives and {int(negatives[g])} negatives{where}: "
            f"{'DeLong' if method == 'delong' else 'the bootstrap'} variance needs at "
            f"least {least} of each class"
        )
        raise CostchartError(msg)
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
    if method == "delong":
        return area, ss10 / (positives - 1) / positives + ss01 / (negatives - 1) / negatives
    # psi^2 summed over all pairs: 1 per pair the positive wins, 1/4 per tie.
    psi2 = np.add.reduceat(d_t * ((n_row - fp) + 0.25 * d_f), starts)
    residual = (
        psi2
        - negatives * np.add.reduceat(d_t * v10**2, starts)
        - positives * np.add.reduceat(d_f * v01**2, starts)
        + positives * negatives * area**2
    ) / (positives * negatives)
    return area, (ss10 / positives**2 + ss01 / negatives**2 + residual / (positives * negatives))


def auc_test(
    data,
    *,
    score: str,
    label: str,
    classifier: str,
    instance: str,
    a=None,
    b=None,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
) -> pd.DataFrame:
    """DeLong's paired test of two classifiers' AUCs on the same instances.

    Both classifiers' placement values are computed per instance; the covariance of the
    two AUCs follows from the placements' covariances within each class, and
    ``z = (auc_a - auc_b) / se`` is compared with the standard normal (two-sided), as in
    pROC's ``roc.test(method="delong", paired=TRUE)``.

    Parameters
    ----------
    data : pandas, polars or pyarrow DataFrame, or dict of arrays
        Long format: one row per classifier and instance. Not modified.
    score, label, pos_label
        As in :func:`roc_points`.
    classifier, instance : str
        Columns naming the classifier and the instance (each instance scored once by each).
    a, b : optional
        The two classifiers; needed when ``classifier`` holds more than two. Without them
        the two are taken in order of first appearance in ``data``.
    by : str or list of str, optional
        Further grouping columns (e.g. ``"dataset"``): one test per group.
    weight : str, optional
        Column of whole-number instance weights (frequency weights), the same in both
        classifiers' rows: a weight ``k`` gives exactly the test of the data with the
        instance repeated ``k`` times; fractional weights are refused.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``auc_a``, ``auc_b``, ``difference`` (a minus b),
        ``se`` (of the difference), ``z`` and ``p_value``.

    Examples
    --------
    >>> import pandas as pd, costchart as cc
    >>> long = pd.DataFrame({
    ...     "model": ["a"] * 6 + ["b"] * 6,
    ...     "id": list(range(6)) * 2,
    ...     "y": [1, 1, 1, 0, 0, 0] * 2,
    ...     "s": [0.9, 0.8, 0.4, 0.5, 0.2, 0.1, 0.6, 0.3, 0.7, 0.8, 0.5, 0.2],
    ... })
    >>> cc.auc_test(long, score="s", label="y", classifier="model", instance="id").round(4)
        auc_a   auc_b  difference      se       z  p_value
    0  0.8889  0.5556      0.3333  0.2722  1.2247   0.2207
    """
    from scipy import stats

    for name, column in (
        ("score", score),
        ("label", label),
        ("classifier", classifier),
        ("instance", instance),
    ):
        column_name(column, name)
    by = normalize_by(by)
    for name, value in (("a", a), ("b", b)):
        if value is not None and not is_scalar_name(value):
            msg = f"{name}= must be one classifier name (a value of column {classifier!r})"
            raise CostchartError(msg)
    if (a is None) != (b is None):
        msg = "pass both a= and b= (the two classifiers to compare), or neither"
        raise CostchartError(msg)
    names = None if a is None else (a, b)
    check_by_names(by)
    if weight is not None:
        column_name(weight, "weight")
    frame = as_pandas(
        data, [*by, classifier, instance, score, label, *([weight] if weight else [])]
    )
    if frame.empty:
        msg = "data has no rows; auc_test needs instances scored by both classifiers"
        raise CostchartError(msg)
    groups = split_groups(frame, by)
    rows = []
    for group in groups:
        part = frame.iloc[group.positions]
        _, side_a, side_b = paired(part, classifier, instance, names, label)
        positive = binary_labels(side_a[label].to_numpy(), f"column {label!r}", pos_label)
        copies = instance_weights(side_a, side_b, weight, "auc_test's paired test")
        if copies is not None:  # k copies of an instance: exactly its row repeated k times
            each = np.repeat(np.arange(len(copies)), copies.astype(np.int64))
            side_a, side_b, positive = side_a.iloc[each], side_b.iloc[each], positive[each]
        where = f" in group {describe_group(by, group.key)}" if by else ""
        if positive.sum() < 2 or (~positive).sum() < 2:
            msg = (
                f"{int(positive.sum())} positives and {int((~positive).sum())} negatives"
                f"{where}: DeLong's test needs at least 2 of each class"
            )
            raise CostchartError(msg)
        placements = [
            _instance_placements(
                finite_numbers(side[score].to_numpy(), f"column {score!r}"), positive
            )
            for side in (side_a, side_b)
        ]
        (auc_a, v10_a, v01_a), (auc_b, v10_b, v01_b) = placements
        s10 = np.cov(np.vstack([v10_a, v10_b]))  # ddof=1, as DeLong
        s01 = np.cov(np.vstack([v01_a, v01_b]))
        covariance = s10 / len(v10_a) + s01 / len(v01_a)
        variance = covariance[0, 0] + covariance[1, 1] - 2 * covariance[0, 1]
        difference = auc_a - auc_b
        se = float(np.sqrt(max(variance, 0.0)))
        if se > 0:
            z = difference / se
            p_value = float(2 * stats.norm.sf(abs(z)))
        elif difference == 0:
            z, p_value = 0.0, 1.0
        else:
            msg = (
                f"the two classifiers' AUCs differ ({auc_a:.6g} against {auc_b:.6g}){where} but "
                "the DeLong variance of the difference is 0; the test is undefined"
            )
            raise CostchartError(msg)
        rows.append((auc_a, auc_b, difference, se, float(z), p_value))
    names_out = col.AUC_TEST_TABLE
    values = np.array(rows, dtype=np.float64).reshape(-1, len(names_out))
    columns = {name: values[:, i] for i, name in enumerate(names_out)}
    return assemble(groups, np.ones(len(groups)), columns)


def _instance_placements(scores: np.ndarray, positive: np.ndarray):
    """The AUC and every positive's and negative's placement value (midranks, Sun & Xu)."""
    from scipy import stats

    everyone = stats.rankdata(scores)
    within_pos = stats.rankdata(scores[positive])
    within_neg = stats.rankdata(scores[~positive])
    n_pos, n_neg = positive.sum(), (~positive).sum()
    # negatives below a positive (ties half) = its rank among all - its rank among positives
    v10 = (everyone[positive] - within_pos) / n_neg
    v01 = 1.0 - (everyone[~positive] - within_neg) / n_pos
    return float(v10.mean()), v10, v01
