"""ROCIV: ROC and cost curves when every instance has its own cost.

In fraud, credit and marketing, misclassifying a $1,000 case costs more than a $10 one.
ROCIV weighs each positive by the benefit of classifying it positive and each negative by
the cost of classifying it positive: the curve plots the share of all negatives' cost
incurred (x) against the share of all positives' benefit gained (y), in score order.
Everything built on ROC points -- hull, cost lines, envelope, charts -- takes ROCIV points
as they are.

The costs themselves (:func:`costs_from_benefits`) and the operating condition they imply
(:func:`rociv_condition`) are in :mod:`costchart._roc.rociv_costs`, re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.exact import with_values
from costchart._io.frames import (
    carry_grouping,
    check_by_names,
    describe_group,
    normalize_by,
    table,
)
from costchart._io.groups import combine_groups, split_groups
from costchart._io.lazy import read_instances
from costchart._io.parameters import checked
from costchart._io.pooling import warn_if_pooled
from costchart._io.sorting import all_distinct, blocks, sums_of_sorted, value_order
from costchart._io.validation import column_name
from costchart._roc.auc import auc
from costchart._roc.columns import count_columns, summable
from costchart._roc.counting import (
    as_counts,
    bin_by_rank,
    check_bins,
    cumulated_from_zero,
    sums_by_codes,
    threshold_column,
)
from costchart._roc.points import has_both_classes, require_rows, require_some
from costchart._roc.rociv_costs import costs_from_benefits, rociv_condition

__all__ = ["auciv", "costs_from_benefits", "rociv", "rociv_condition"]


@checked
def rociv(
    data,
    *,
    score: str,
    label: str,
    amount: str,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
    bins: int | None = None,
) -> pd.DataFrame:
    """ROCIV points: ROC points weighted by instance-varying costs.

    Parameters
    ----------
    data : DataFrame, dict of arrays, or lazy frame
        One row per instance. Not modified. A lazy frame is summed by group and score in
        its own engine, as in :func:`roc_points`.
    score, label, by, pos_label
        As in :func:`roc_points`.
    amount : str
        Column of positive amounts: for a positive, the benefit of classifying it positive;
        for a negative, the cost of classifying it positive (see
        :func:`costs_from_benefits`).
    weight : str, optional
        Column of non-negative instance weights; counts become sums of weights.
        Instances of weight 0 are ignored. An instance of weight ``w`` counts ``w`` times:
        its amount is summed ``w`` times too. Not with a lazy frame (collect it first).
    bins : int, optional
        Keep the points at about ``bins`` score quantiles per group, as in
        :func:`roc_points` (quantiles of instances, not of costs).

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`roc_points`, with ``tpr`` and ``fpr`` now cost-weighted
        (share of the positives' total benefit gained, share of the negatives' total cost
        incurred) and ``tp, fp, tn, fn`` still counting instances (so a workforce limit
        stays a number of cases), then ``fp_cost`` and ``tp_benefit``, the cumulative
        sums. Ties make one step; rows sorted by decreasing threshold.

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"s": [0.9, 0.8, 0.4, 0.3], "y": [1, 0, 1, 0], "amount": [10.0, 1.0, 30.0, 3.0]}
    >>> points = cc.rociv(data, score="s", label="y", amount="amount")
    >>> points[["threshold", "fpr", "tpr", "tp_benefit"]]
       threshold   fpr   tpr  tp_benefit
    0        inf  0.00  0.00         0.0
    1        0.9  0.00  0.25        10.0
    2        0.8  0.25  0.25        10.0
    3        0.4  0.25  1.00        40.0
    4        0.3  1.00  1.00        40.0
    """
    given, by = by, normalize_by(by)
    check_by_names(by)
    bins = check_bins(bins)
    column_name(amount, "amount")
    read = read_instances(
        data,
        score=score,
        label=label,
        by=by,
        pos_label=pos_label,
        amount=amount,
        strictly_positive=True,
        bins=bins,
        weight=weight,
    )
    frame = read.frame
    amounts = read.amounts
    assert amounts is not None  # read_instances(amount=...) always reads them
    weights = read.weights
    require_rows(read.scores)
    groups = split_groups(frame, by)
    parts = []
    for group in groups:
        where = group.positions if by else slice(None)
        counted = None if read.instances is None else read.instances[where]
        scores, positive, summed = read.scores[where], read.positive[where], amounts[where]
        if weights is not None:  # an instance of weight w counts w times, its amount too
            own = weights[where]
            if not np.any(own > 0):
                where_text = f" (group {describe_group(by, group.key)})" if by else ""
                msg = (
                    f"all weights{where_text} are 0; ROC analysis needs instances of positive "
                    "weight"
                )
                raise CostchartError(msg)
            keep = own > 0  # weight 0: the row is left out
            scores, positive, own = scores[keep], positive[keep], own[keep]
            counted, summed = own, own * summed[keep]
        sums = sums_by_codes(scores, positive, [counted, summed])
        if sums is None:  # mostly distinct scores: sorted
            order, sorted_scores = value_order(scores)
            if counted is None and bins is None and all_distinct(sorted_scores):
                parts.append(
                    _distinct_points(
                        sorted_scores,
                        positive[order],
                        (summed, order),
                        group,
                        by=by,
                        label=label,
                        amount=amount,
                    )
                )
                continue
            sums = sums_of_sorted(order, sorted_scores, positive, [counted, summed])
        values, ((pos_n, neg_n), (pos_cost, neg_cost)) = sums
        if counted is not None and weights is None:
            pos_n, neg_n = as_counts(pos_n, neg_n)
        if bins is not None:
            values, (pos_n, neg_n, pos_cost, neg_cost) = bin_by_rank(
                values, pos_n + neg_n, [pos_n, neg_n, pos_cost, neg_cost], bins
            )
        parts.append(
            _rociv_points(
                values,
                (pos_n, neg_n),
                (pos_cost, neg_cost),
                group,
                by=by,
                label=label,
                amount=amount,
            )
        )
    require_some(parts, by, label)
    if not by:
        warn_if_pooled(data, given, (score, label, amount, weight))
        return with_values(carry_grouping(parts[0], []), read.score_values)
    return with_values(combine_groups(frame, by, groups, parts, col.ROCIV_TABLE), read.score_values)


def _rociv_points(values, counts, amounts, group, *, by, label, amount) -> pd.DataFrame:
    """ROCIV points of one group from per-score counts and amounts (decreasing score).

    An empty frame (with a warning) when the group has one class, as in
    :func:`~costchart._roc.points.points_or_nothing`.
    """
    pos_n, neg_n = summable(counts[0], counts[1], "counts")
    if not has_both_classes(pos_n, neg_n, group, by, label):
        return _no_points()
    pos_cost, neg_cost = summable(amounts[0], amounts[1], f"costs in column {amount!r}")
    columns = count_columns(values, pos_n, neg_n, rates=False)
    benefit = cumulated_from_zero(pos_cost)
    spent = cumulated_from_zero(neg_cost)
    return table(_with_amounts(columns, benefit, spent))


def _distinct_points(
    sorted_scores, sorted_positive, amounts_and_order, group, *, by, label, amount
) -> pd.DataFrame:
    """:func:`_rociv_points` of one group whose scores are all distinct, from sorted rows.

    ``amounts_and_order`` holds the amounts and the row order that sorts the scores. Each
    score is one instance, so its counts and amounts are its row's: the running sums are
    taken straight off the rows (the same sums in the same order, without per-score
    arrays).
    """
    n = len(sorted_scores)
    positive = sorted_positive[::-1]  # decreasing scores
    negative = ~positive
    n_pos = int(np.count_nonzero(positive))
    if not has_both_classes(np.array([n_pos]), np.array([n - n_pos]), group, by, label):
        return _no_points()
    benefit = _taken_in_reverse(*amounts_and_order)  # 0, then by decreasing score
    spent = benefit.copy()
    np.copyto(benefit[1:], 0.0, where=negative)  # the amount or 0, as np.where gives
    np.copyto(spent[1:], 0.0, where=positive)
    summable(benefit[1:], spent[1:], f"costs in column {amount!r}")
    np.cumsum(benefit[1:], out=benefit[1:])
    np.cumsum(spent[1:], out=spent[1:])
    tp = _running_count(positive)
    fp = _running_count(negative)
    columns = {
        col.THRESHOLD: threshold_column(sorted_scores[::-1]),
        col.TP: tp,
        col.FP: fp,
        col.TN: (n - n_pos) - fp,
        col.FN: n_pos - tp,
    }
    return table(_with_amounts(columns, benefit, spent))


def _taken_in_reverse(values: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``0`` then ``values[order[::-1]]``, taken block by block (no full-length temporary)."""
    n = len(order)
    out = np.empty(n + 1, dtype=np.float64)
    out[0] = 0.0
    for start, stop in blocks(n):
        np.take(values, order[n - stop : n - start][::-1], out=out[start + 1 : stop + 1])
    return out


def _running_count(flags: np.ndarray) -> np.ndarray:
    """``0`` then the running count of True ``flags`` (int64), block by block.

    ``np.cumsum`` of booleans into int64 would first cast them all to a full-length int64
    temporary.
    """
    out = np.empty(len(flags) + 1, dtype=np.int64)
    out[0] = 0
    for start, stop in blocks(len(flags)):
        part = out[start + 1 : stop + 1]
        np.cumsum(flags[start:stop], dtype=np.int64, out=part)
        part += out[start]
    return out


def _with_amounts(columns: dict, benefit: np.ndarray, spent: np.ndarray) -> dict:
    """The count columns followed by the cost-weighted rates and the running sums."""
    columns[col.TPR] = benefit / benefit[-1]
    columns[col.FPR] = spent / spent[-1]
    columns[col.FP_COST] = spent
    columns[col.TP_BENEFIT] = benefit
    return columns


def _no_points() -> pd.DataFrame:
    """The empty table of a group left out."""
    return pd.DataFrame(columns=list(col.ROC_COLUMNS)).reindex(columns=list(col.ROCIV_TABLE))


@checked
def auciv(
    data,
    *,
    score: str,
    label: str,
    amount: str,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
) -> pd.DataFrame:
    """Area under the ROCIV curve.

    It equals the probability that a positive outranks a negative when each is drawn in
    proportion to its cost (ties count one half). The parameters are those of
    :func:`rociv`.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``auc`` (float64), one row per group.

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"s": [0.9, 0.8, 0.4, 0.3], "y": [1, 0, 1, 0], "amount": [10.0, 1.0, 30.0, 3.0]}
    >>> cc.auciv(data, score="s", label="y", amount="amount")
        auc
    0  0.8125
    """
    points = rociv(
        data, score=score, label=label, amount=amount, by=by, pos_label=pos_label, weight=weight
    )
    return auc(points.drop(columns=[col.FP_COST, col.TP_BENEFIT]), by=normalize_by(by) or None)
