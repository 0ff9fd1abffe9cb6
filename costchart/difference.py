"""Where is one classifier significantly cheaper than another.

Two classifiers scored on the same instances make a 3-D confusion matrix: for each true
class, a 2x2 layer counting how the two jointly label its instances. Resampling each
layer as a four-valued multinomial with its class total fixed (stratified), or all eight
cells together (full), and subtracting the two cost lines gives a band on the
difference; where it excludes 0 the difference is significant. Because the layers keep
the pairing, correlated classifiers get the narrower band they deserve.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart import _schema as col
from costchart._distributions import (
    binomial_support,
    multinomial_pair,
    normal_quantile,
    refuse_large_exact,
    sample_quantiles,
    signed_split,
    trimmed_span,
    weighted_quantiles,
)
from costchart._errors import CostchartError
from costchart._frames import as_pandas, combine_groups, normalize_by, split_groups
from costchart._validation import binary_labels, column_name, finite_numbers, threshold_pair
from costchart.bootstrap import AUTO_EXACT_PAIRS, _active_rows, check_options
from costchart.roc import roc_points

__all__ = ["difference_band"]

#: float64 values resampling holds per resample besides the differences: the eight cells
#: of one classifier pair and the multinomial draws they are copied from.
RESAMPLE_DRAWS = 16


def _is_scalar_name(value) -> bool:
    """Whether ``value`` can name one classifier (a string, number or other scalar)."""
    return bool(np.ndim(value) == 0) and not isinstance(value, (tuple, dict, set))


def _paired(frame: pd.DataFrame, classifier: str, instance: str, names, label: str):
    """Split ``frame`` into the two classifiers' rows, aligned by instance; refuse unpaired."""
    present = list(pd.unique(frame[classifier]))
    if names is None:
        if len(present) != 2:
            msg = (
                f"column {classifier!r} has {len(present)} classifiers ({present[:5]}); "
                "pass a= and b= to say which two to compare"
            )
            raise CostchartError(msg)
        names = tuple(present)
    sides = []
    for name in names:
        rows = frame[frame[classifier] == name]
        if rows.empty:
            msg = f"no rows with {classifier} == {name!r}; classifiers present: {present}"
            raise CostchartError(msg)
        duplicated = rows[instance].duplicated()
        if duplicated.any():
            msg = (
                f"classifier {name!r} scores instance {rows[instance][duplicated].tolist()[0]!r} "
                f"more than once; each instance needs one score per classifier. If the "
                f"{instance!r} ids repeat across data sets or folds, pass by= the columns "
                "that tell them apart (e.g. by='fold')"
            )
            raise CostchartError(msg)
        sides.append(rows.set_index(instance))
    a, b = sides
    only_a = a.index.difference(b.index)
    only_b = b.index.difference(a.index)
    if len(only_a) or len(only_b):
        lonely = (only_a if len(only_a) else only_b).tolist()[0]
        msg = (
            f"the classifiers do not share their instances: {len(only_a)} only in {names[0]!r}, "
            f"{len(only_b)} only in {names[1]!r} (e.g. {instance}={lonely!r}); a difference band "
            "needs both classifiers scored on the same instances"
        )
        raise CostchartError(msg)
    b = b.loc[a.index]
    if not (a[label].to_numpy() == b[label].to_numpy()).all():
        msg = f"the two classifiers' rows disagree on {label!r} for some instances; fix the labels"
        raise CostchartError(msg)
    return names, a, b


def difference_band(
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
    confidence_level: float = 0.9,
    method: str = "exact",
    sampling: str = "stratified",
    distribution: str = "auto",
    n_resamples: int = 2000,
    rng=None,
    thresholds: tuple[float, float] | None = None,
    pc=None,
    progress=False,
) -> pd.DataFrame:
    """A bootstrap band on the cost difference of two classifiers on the same instances.

    At each ``pc`` each classifier uses the threshold its own lower envelope selects on this
    data (or the fixed ``thresholds=(t_a, t_b)``). The difference is ``cost(a) - cost(b)``:
    negative where ``a`` is cheaper.

    Parameters
    ----------
    data : DataFrame or dict of arrays
        Long format: one row per classifier and instance.
    score, label : str
        Columns of scores and true classes.
    classifier : str
        Column naming the classifier of each row.
    instance : str
        Column identifying the instance, to pair the two classifiers' rows.
    a, b : optional
        The two classifiers (values of ``classifier``); needed when there are more than two.
    by : str or list of str, optional
        Further grouping columns (e.g. ``"dataset"``): one band per group.
    pos_label, confidence_level, method, sampling, distribution, n_resamples, rng, pc, progress
        As in :func:`bootstrap_band`.
    thresholds : (float, float), optional
        Fixed thresholds of ``a`` and ``b`` ("positive when score >= t") at every ``pc``;
        ``inf`` is the always-negative classifier, ``-inf`` the always-positive one. NaN
        is refused.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then one row per ``pc``: ``pc``, ``difference``, ``lower``,
        ``upper``, ``se`` (finite float64, ``lower <= difference <= upper``, ``se >= 0``)
        and ``significant`` (bool: the band excludes 0).

    Examples
    --------
    >>> import pandas as pd, costchart as cc
    >>> data = pd.DataFrame({
    ...     "model": ["a"] * 6 + ["b"] * 6, "id": list(range(6)) * 2,
    ...     "y": [1, 1, 1, 0, 0, 0] * 2, "p": [1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1]})
    >>> band = cc.difference_band(data, score="p", label="y", classifier="model", instance="id",
    ...                           thresholds=(1, 1), pc=[0.5])
    >>> band.round(4)
        pc  difference   lower  upper      se  significant
    0  0.5     -0.3333 -0.6667    0.0  0.1925        False
    """
    options = check_options(
        confidence_level=confidence_level,
        method=method,
        sampling=sampling,
        distribution=distribution,
        n_resamples=n_resamples,
        rng=rng,
        pc=pc,
        progress=progress,
        per_resample=RESAMPLE_DRAWS,
    )
    by = normalize_by(by)
    if thresholds is not None:
        thresholds = threshold_pair(thresholds)
    for name, column in (("classifier", classifier), ("instance", instance)):
        column_name(column, name)
    column_name(score, "score")
    column_name(label, "label")
    frame = as_pandas(data, [*by, classifier, instance, score, label])
    for name, value in (("a", a), ("b", b)):
        if value is not None and not _is_scalar_name(value):
            msg = (
                f"{name}= must be one classifier name (a value of column {classifier!r}), "
                f"not a {type(value).__name__}"
            )
            raise CostchartError(msg)
    names = None if a is None and b is None else (a, b)
    if names is not None and (a is None or b is None):
        msg = "pass both a= and b= (the two classifiers to compare), or neither"
        raise CostchartError(msg)
    groups = split_groups(frame, by)
    parts = []
    for group in groups:
        part = frame.iloc[group.positions]
        _, side_a, side_b = _paired(part, classifier, instance, names, label)
        positive = binary_labels(side_a[label].to_numpy(), f"column {label!r}", pos_label)
        if positive.all() or not positive.any():
            msg = f"column {label!r} has one class only; a difference band needs both"
            raise CostchartError(msg)
        predicted = []
        for side, fixed in zip((side_a, side_b), thresholds or (None, None), strict=True):
            scores = finite_numbers(side[score].to_numpy(), f"column {score!r}")
            points = roc_points({"s": scores, "y": positive}, score="s", label="y")
            rows = _active_rows(points, options.pc, None, fixed)
            chosen = points[col.THRESHOLD].to_numpy(float)[rows]
            predicted.append((scores, chosen))
        parts.append(_band(predicted, positive, options))
    return combine_groups(frame, by, groups, parts, col.DIFFERENCE_TABLE)


def _layers(predicted, positive: np.ndarray, options) -> np.ndarray:
    """Per pc, the eight cells of the 3-D confusion matrix.

    Order: positives (a+b+, a+b-, a-b+, a-b-), then negatives in the same order.
    """
    (scores_a, t_a), (scores_b, t_b) = predicted
    cells = np.empty((len(options.pc), 8), dtype=np.int64)
    memo: dict[tuple[float, float], np.ndarray] = {}
    for i, key in enumerate(zip(t_a, t_b, strict=True)):
        if key not in memo:
            says_a, says_b = scores_a >= key[0], scores_b >= key[1]
            row = []
            for members in (positive, ~positive):
                row += [
                    int(np.sum(members & says_a & says_b)),
                    int(np.sum(members & says_a & ~says_b)),
                    int(np.sum(members & ~says_a & says_b)),
                    int(np.sum(members & ~says_a & ~says_b)),
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


def _band(predicted, positive: np.ndarray, options) -> pd.DataFrame:
    pc = options.pc
    cells = _layers(predicted, positive, options)
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
        if options.distribution != "normal":
            lower, upper = _exact_quantiles(cells, weights, options, lower, upper)
    lower = np.minimum(lower, difference)  # the band contains the estimate (contain_estimate)
    upper = np.maximum(upper, difference)
    return pd.DataFrame(
        {
            col.PC: pc,
            col.DIFFERENCE: difference,
            col.LOWER: lower,
            col.UPPER: upper,
            col.SE: se,
            col.SIGNIFICANT: (lower > 0) | (upper < 0),
        }
    )


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


def _spread(m: int, q_plus: float, q_minus: float) -> float:
    """Standard deviation of ``M[plus] - M[minus]`` for ``M ~ Multinomial(m, q)``."""
    return math.sqrt(max(m * (q_plus + q_minus - (q_plus - q_minus) ** 2), 0.0))


def _support_size(row: np.ndarray, sampling: str) -> float:
    """About how many (value, probability) pairs the exact distribution at a pc needs."""
    if sampling == "stratified":
        m_pos, m_neg = row[:4].sum(), row[4:].sum()
    else:
        m_pos = m_neg = row.sum()
    spreads = (
        _spread(m_pos, row[2] / m_pos, row[1] / m_pos),
        _spread(m_neg, row[5] / m_neg, row[6] / m_neg),
    )
    return math.prod(trimmed_span(s) for s in spreads)


def _exact_work(row: np.ndarray, sampling: str) -> float:
    """About how many entries the largest array of :func:`_signed_counts` holds.

    The discordant totals ``T``, ``R`` span about ``trimmed_span(sd)`` values each; a
    signed count ``2X - T`` spans at most three times its total's range plus twice that of
    ``X`` given ``T``. The arrays are ``J`` (T x R), ``F``, ``G`` and the final joint.
    """
    spans = []
    for layer, plus in ((row[:4], row[2]), (row[4:], row[1])):
        m = row.sum() if sampling == "full" else layer.sum()
        total = layer[1] + layer[2]
        sd_total = math.sqrt(max(m * (total / m) * (1 - total / m), 0.0))
        share = plus / total if total else 0.0
        sd_x = math.sqrt(max((total + 7 * sd_total) * share * (1 - share), 0.0))
        span_total = trimmed_span(sd_total)
        spans.append((span_total, 3 * span_total + 2 * trimmed_span(sd_x)))
    (t, d_pos), (r, d_neg) = spans
    return max(t * r, t * d_pos, r * d_neg, d_pos * d_neg)


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


def _exact_quantiles(cells, weights, options, lower, upper):
    """Quantiles of the exact bootstrap distribution of the difference at each pc."""
    if options.distribution == "exact":
        work = [_exact_work(row, options.sampling) for row in cells]
        refuse_large_exact(work, options.pc, int(cells[0].sum()))
    cache: dict[tuple, tuple[float, float]] = {}
    for i in range(len(options.pc)):
        key = (*cells[i].tolist(), float(weights[i, 2]), float(weights[i, 5]))
        if key not in cache:
            if (
                options.distribution == "auto"
                and _support_size(cells[i], options.sampling) > AUTO_EXACT_PAIRS
            ):
                cache[key] = (lower[i], upper[i])  # the normal fit
            else:
                pos_values, neg_values, joint = _signed_counts(cells[i], options.sampling)
                values = weights[i, 2] * pos_values[:, None] + weights[i, 5] * neg_values[None, :]
                keep = joint > 0
                cache[key] = tuple(weighted_quantiles(values[keep], joint[keep], options.levels))
        lower[i], upper[i] = cache[key]
    return lower, upper
