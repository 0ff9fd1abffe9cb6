"""ROCIV: ROC and cost curves when every instance has its own cost.

In fraud, credit and marketing, misclassifying a $1,000 case costs more than a $10 one.
ROCIV weighs each positive by the benefit of classifying it positive and each negative by
the cost of classifying it positive: the curve plots the share of all negatives' cost
incurred (x) against the share of all positives' benefit gained (y), in score order.
Everything built on ROC points -- hull, cost lines, envelope, charts -- takes ROCIV points
as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from costchart import _schema as col
from costchart._auc import auc
from costchart._counting import (
    as_counts,
    bin_by_rank,
    check_bins,
    cumulated_from_zero,
    sums_by_codes,
    threshold_column,
)
from costchart._data_checks import binary_labels, finite_numbers
from costchart._errors import CostchartError
from costchart._frames import (
    as_pandas,
    carry_grouping,
    check_by_names,
    describe_group,
    normalize_by,
    table,
)
from costchart._groups import combine_groups, split_groups
from costchart._lazy import read_instances
from costchart._parameters import checked
from costchart._pooling import warn_if_pooled
from costchart._roc import (
    count_columns,
    has_both_classes,
    require_rows,
    require_some,
    summable,
)
from costchart._sorting import all_distinct, blocks, sums_of_sorted, value_order
from costchart._validation import column_name

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
    given = by
    by = normalize_by(by)
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
        return carry_grouping(parts[0], [])
    return combine_groups(frame, by, groups, parts, col.ROCIV_TABLE)


def _rociv_points(values, counts, amounts, group, *, by, label, amount) -> pd.DataFrame:
    """ROCIV points of one group from per-score counts and amounts (decreasing score).

    An empty frame (with a warning) when the group has one class, as in
    :func:`~costchart._roc.points_or_nothing`.
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


@checked
def rociv_condition(points: pd.DataFrame, *, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """The operating condition of ROCIV points' own data: iso-performance slope and ``pc``.

    In ROCIV space the expected cost of a point is ``C * fpr + B * (1 - tpr)``, with ``C``
    the negatives' total cost and ``B`` the positives' total benefit, so iso-performance
    lines have slope ``C / B = (N * mean cost of a negative) / (P * mean benefit of a
    positive)``: the class priors weighed by the classes' average amounts. The matching
    operating point is ``pc = 1 / (1 + slope) = B / (B + C)``.

    Parameters
    ----------
    points : pandas.DataFrame
        A table from :func:`rociv`.
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries (see the glossary).

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``slope`` and ``pc`` (float64), one row per group.

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"s": [0.9, 0.8, 0.4, 0.3], "y": [1, 0, 1, 0], "amount": [10.0, 1.0, 30.0, 3.0]}
    >>> cc.rociv_condition(cc.rociv(data, score="s", label="y", amount="amount"))
       slope        pc
    0    0.1  0.909091
    """
    from costchart._tables import numbers, points_groups

    table, by, groups = points_groups(points, by)
    missing = [c for c in (col.FP_COST, col.TP_BENEFIT) if c not in table.columns]
    if missing:
        msg = f"points has no column {missing[0]!r}; pass a table from rociv"
        raise CostchartError(msg)
    if len(table) == 0:
        msg = "points has no rows; pass a table from rociv"
        raise CostchartError(msg)
    cost = numbers(table, col.FP_COST, "points")  # lists or text refused, as every reader
    benefit = numbers(table, col.TP_BENEFIT, "points")
    parts = []
    for group in groups:
        total_cost = float(cost[group.positions].max())
        total_benefit = float(benefit[group.positions].max())
        if not (total_cost > 0 and total_benefit > 0 and np.isfinite(total_cost + total_benefit)):
            msg = (
                f"points has total fp_cost {total_cost!r} and tp_benefit {total_benefit!r}; "
                "both must be finite and above 0 (pass a table from rociv)"
            )
            raise CostchartError(msg)
        slope = total_cost / total_benefit
        parts.append(pd.DataFrame({col.SLOPE: [slope], col.PC: [1 / (1 + slope)]}))
    return combine_groups(table, by, groups, parts, [col.SLOPE, col.PC])


Amount = float | Callable[[np.ndarray], np.ndarray]


@checked
def costs_from_benefits(
    data,
    *,
    label: str,
    amount: str,
    benefit: Mapping[tuple[str, str], Amount],
    pos_label=None,
) -> pd.Series:
    """Per-instance ROCIV costs from a benefit matrix whose cells depend on an amount.

    ``benefit`` gives, for each (decision, true class) pair, the benefit of that outcome:
    keys ``("Y", "p")`` (predict positive, truly positive), ``("N", "p")``, ``("Y", "n")``,
    ``("N", "n")``; values are numbers or functions of the amount array. Missing cells
    count as 0. The ROCIV amount of a positive is ``b(Y,p) - b(N,p)`` (what classifying it
    positive gains), of a negative ``b(N,n) - b(Y,n)`` (what it loses). Both must be > 0.

    Parameters
    ----------
    data : DataFrame or dict of arrays
        One row per instance.
    label : str
        Column of true classes.
    amount : str
        Column of the per-instance amount (e.g. a loan's size).
    benefit : dict
        The benefit matrix, as above.
    pos_label : optional
        As in :func:`roc_points`.

    Returns
    -------
    pandas.Series
        The cost of each instance, aligned with ``data``'s rows, named ``"cost"``.

    Examples
    --------
    >>> import costchart as cc
    >>> loans = {"good": [1, 0], "amount": [1000.0, 500.0]}
    >>> matrix = {("Y", "p"): lambda a: 0.1 * a, ("Y", "n"): lambda a: -a}
    >>> cc.costs_from_benefits(loans, label="good", amount="amount", benefit=matrix).tolist()
    [100.0, 500.0]
    """
    column_name(label, "label")
    column_name(amount, "amount")
    if not isinstance(benefit, Mapping):
        msg = (
            f"benefit={benefit!r} must be a dict from (decision, true class) cells such as "
            "('Y', 'p') to a number or a function of the amount"
        )
        raise CostchartError(msg)
    unknown = set(benefit) - {("Y", "p"), ("N", "p"), ("Y", "n"), ("N", "n")}
    if unknown:
        msg = (
            f"benefit has cells {sorted(unknown)}; use keys ('Y', 'p'), ('N', 'p'), "
            "('Y', 'n'), ('N', 'n') (decision, true class)"
        )
        raise CostchartError(msg)
    frame = as_pandas(data, [label, amount])
    amounts = finite_numbers(frame[amount].to_numpy(), f"column {amount!r}")
    positive = binary_labels(frame[label].to_numpy(), f"column {label!r}", pos_label)

    def cell(key) -> np.ndarray:
        value = benefit.get(key, 0.0)
        try:
            result = value(amounts.copy()) if callable(value) else value
            return np.broadcast_to(np.asarray(result, dtype=np.float64), amounts.shape)
        except Exception as error:  # any failure of the user's cell is reported as such
            what = "a function of the amount that fails" if callable(value) else repr(value)
            msg = (
                f"benefit[{key!r}] is {what} ({type(error).__name__}: {error}); each cell "
                f"must be a number or a function returning one number per instance "
                f"({len(amounts)} here)"
            )
            raise CostchartError(msg) from None

    gain = cell(("Y", "p")) - cell(("N", "p"))
    loss = cell(("N", "n")) - cell(("Y", "n"))
    costs = np.where(positive, gain, loss)
    bad = ~((costs > 0) & np.isfinite(costs))
    if bad.any():
        where = np.flatnonzero(bad)
        first = int(where[0])
        kind = "positive" if positive[first] else "negative"
        formula = "b(Y,p) - b(N,p)" if positive[first] else "b(N,n) - b(Y,n)"
        msg = (
            f"the benefit matrix gives {len(where)} instances a cost that is not positive "
            "and finite; "
            f"the first, at position {first}, is a {kind} with {amount}={amounts[first]:g} and "
            f"{formula} = {costs[first]:g}. ROCIV needs every cost and benefit finite and > 0: "
            "check the matrix's signs"
        )
        raise CostchartError(msg)
    return pd.Series(costs, index=frame.index, name=col.COST)
