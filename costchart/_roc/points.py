"""ROC points from scores (:func:`roc_points`) or confusion counts (:func:`from_confusion`).

Scores are counted per distinct score (:mod:`costchart._roc.counting`) and cumulated into one
point per threshold, for every group; the helpers that build a points table and leave
out one-class groups are shared with :mod:`costchart._roc.rociv`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.errors import CostchartError, warn
from costchart._io.exact import order_keys, with_values
from costchart._io.frames import carry_grouping, check_by_names, describe_group, normalize_by, table
from costchart._io.groups import Group, Groups, assemble, combine_groups, split_groups
from costchart._io.lazy import read_instances
from costchart._io.parameters import checked
from costchart._io.pooling import warn_if_pooled
from costchart._roc.classes import has_both_classes, require_some, weightless_class
from costchart._roc.columns import count_columns, distinct_columns, summable
from costchart._roc.counting import (
    check_bins,
    count_by_score,
    count_groups,
    cumulate_groups,
    threshold_column,
)

__all__ = [
    "has_both_classes",
    "points_of",
    "points_or_nothing",
    "require_some",
    "roc_points",
    "row_of_threshold",
]


@checked
def roc_points(
    data,
    *,
    score: str,
    label: str,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
    bins: int | None = None,
) -> pd.DataFrame:
    """ROC points of a scoring classifier: one point per distinct score.

    An instance is predicted positive when its score is at least the threshold. Instances
    with equal scores make one (possibly diagonal) step, so the curve never depends on row
    order. The first point is (0, 0) at threshold ``+inf``, the last is (1, 1).

    Parameters
    ----------
    data : pandas, polars or pyarrow DataFrame, dict of arrays, or lazy frame
        One row per instance. Not modified. A lazy frame (polars, DuckDB, ...) is
        counted by group and score in its own engine; its groups come back sorted.
    score : str
        Column of scores; higher means more likely positive. Finite numbers.
    label : str
        Column of true classes, two distinct values.
    by : str or list of str, optional
        Grouping columns (e.g. ``"classifier"``, ``"fold"``); one curve per group.
    pos_label : optional
        The label value of the positive class. Needed unless the labels are 0/1, -1/1 or
        False/True (then 1 / True is positive).
    weight : str, optional
        Column of non-negative instance weights; counts become sums of weights.
        Instances of weight 0 are ignored.
    bins : int, optional
        Keep only the points at (about) ``bins`` score quantiles per group: scores are cut
        into equal-count bins, never splitting a tie, and each bin's lowest score is a
        threshold. Every point is still exact, so the hull and envelope of binned points
        are conservative (the envelope can only be higher); :func:`envelope_gap` bounds
        by how much. For a lazy frame the binning runs in its engine too.

    Returns
    -------
    pandas.DataFrame
        The ``by`` columns, then

        - ``threshold`` (float64): predict positive when ``score >= threshold``;
          ``+inf`` for the first point. Integer scores are counted exactly; when some
          exceed 2**53 in size (where float64 would round distinct integers into one),
          the column has dtype object and holds them as Python integers;
        - ``tp``, ``fp``, ``tn``, ``fn``: counts (int64), or sums of weights (float64);
        - ``tpr``, ``fpr`` (float64): ``tp / (tp + fn)`` and ``fp / (fp + tn)``.

        Within a group, rows are sorted by decreasing threshold, so ``fpr`` and ``tpr``
        are non-decreasing. A group with one class only is dropped with a
        :class:`CostchartWarning`.

    Raises
    ------
    CostchartError
        Missing columns, non-numeric or non-finite scores, labels without exactly two
        classes (or one class in ungrouped data), negative or non-finite weights.

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"score": [0.9, 0.8, 0.8, 0.3], "y": [1, 1, 0, 0]}
    >>> cc.roc_points(data, score="score", label="y")[["threshold", "tp", "fp", "tpr", "fpr"]]
       threshold  tp  fp  tpr  fpr
    0        inf   0   0  0.0  0.0
    1        0.9   1   0  0.5  0.0
    2        0.8   2   1  1.0  0.5
    3        0.3   2   2  1.0  1.0
    """
    return points_of(
        data, score=score, label=label, by=by, pos_label=pos_label, weight=weight, bins=bins
    )


def points_of(
    data,
    *,
    score: str,
    label: str,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
    bins: int | None = None,
    frequency: str | None = None,
) -> pd.DataFrame:
    """:func:`roc_points`, refusing fractional weights when ``frequency`` names a resampling.

    For the functions that resample instances (bands, variances): their weights must be
    frequency weights (:func:`~costchart._io.validation.frequency_weights`).
    """
    points = points_and_columns(
        data,
        score=score,
        label=label,
        by=by,
        pos_label=pos_label,
        weight=weight,
        bins=bins,
        frequency=frequency,
    )[0]
    assert points is not None  # a frame was asked for
    return points


def points_and_columns(
    data,
    *,
    score: str,
    label: str,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
    bins: int | None = None,
    frequency: str | None = None,
    as_frame: bool = True,
) -> tuple[pd.DataFrame | None, dict[str, np.ndarray] | None]:
    """:func:`points_of`, with the points' columns as the numpy arrays the frame holds.

    For callers that compute on the points they just made instead of reading the frame
    back; the columns come for ungrouped data (None for grouped data: read the frame), made
    into a frame only if ``as_frame`` is True. ``by=None`` pools, warning beside text columns.
    """
    given, by = by, normalize_by(by)
    check_by_names(by)
    bins = check_bins(bins)
    read = read_instances(
        data,
        score=score,
        label=label,
        by=by,
        pos_label=pos_label,
        amount=weight,
        bins=bins,
        frequency=frequency,
    )
    warn_if_pooled(data, given, (score, label, weight))  # once the data is read
    frame = read.frame
    # A lazy frame binned in its engine drops the rows of weight 0 before counting.
    require_rows(
        read.scores, f" of weight above 0 in column {weight!r}" if read.dropped_zero_weights else ""
    )
    # Without grouping, one group of every row, not split (which would number the rows).
    groups: Sequence[Group] = [Group((), np.zeros(0, dtype=np.intp))]
    if by:
        groups = split = split_groups(frame, by)
        many_small = len(split) > 1 and len(read.scores) < SMALL_GROUPS * len(split)
        if many_small and read.amounts is None and read.instances is None and bins is None:
            return with_values(_points_of_all_groups(read, split, label), read.score_values), None
    what = "counts" if weight is None else f"weights in column {weight!r}"
    parts = []
    columns: dict[str, np.ndarray] | None = None
    for group in groups:
        positions = group.positions if by else slice(None)
        weights = None if read.amounts is None else read.amounts[positions]
        if weights is not None and not np.any(weights > 0):
            reason = f"all weights in column {weight!r} are 0"
            parts.append(left_out(group, by, reason, "ROC analysis needs positive weights"))
            continue
        if weights is not None:
            weightless = weightless_class(read.positive[positions], weights)
            if weightless is not None:
                reason = (
                    f"the {weightless} of column {label!r} all have weight 0 in column {weight!r}"
                )
                fix = "ROC analysis needs both classes with weight above 0; check the weights"
                parts.append(left_out(group, by, reason, fix))
                continue
        plain = not by and weights is None and read.instances is None and bins is None
        columns = distinct_columns(read.scores, read.positive) if plain else None
        if columns is None:  # not all distinct float scores of one curve of both classes
            counts = count_by_score(
                read.scores[positions],
                read.positive[positions],
                weights,
                None if read.instances is None else read.instances[positions],
                bins,
            )
            columns = point_columns(counts, group, by, label, what)
        if columns is None:
            parts.append(left_out_frame())
        elif by or as_frame:
            parts.append(table(columns))
    require_some(parts, by, label)
    values = read.score_values
    if not by:  # one group, which has both classes (else an error was raised)
        columns = with_values(columns, values)
        return (with_values(carry_grouping(parts[0], []), values) if as_frame else None), columns
    return with_values(combine_groups(frame, by, groups, parts, col.ROC_COLUMNS), values), None


#: Below this many rows per group on average, all groups are counted in one sort; larger
#: groups are counted one by one, where sorting each class's scores by value (no argsort)
#: is faster and the per-group cost is negligible.
SMALL_GROUPS = 100_000


def _points_of_all_groups(read, groups: Groups, label: str) -> pd.DataFrame:
    """Unweighted ROC points of every group in one pass (:mod:`costchart._roc.counting`)."""
    counts = count_groups(groups.row_ids, read.scores, read.positive, len(groups))
    tp = cumulate_groups(counts.pos, counts.lengths)
    fp = cumulate_groups(counts.neg, counts.lengths)
    lengths = counts.lengths + 1
    ends = np.cumsum(lengths) - 1
    total_pos, total_neg = tp[ends], fp[ends]
    both = (total_pos > 0) & (total_neg > 0)
    for g in np.flatnonzero(~both):
        missing = "positives" if total_pos[g] == 0 else "negatives"
        warn(f"group {describe_group(groups.by, groups.keys[g])} has no {missing}; it is left out")
    if not both.any():
        require_some([], groups.by, label)
    keep = np.repeat(both, lengths)
    thresholds = _thresholds_of_groups(counts.scores, counts.lengths)
    pos_all, neg_all = np.repeat(total_pos, lengths)[keep], np.repeat(total_neg, lengths)[keep]
    tp, fp = tp[keep], fp[keep]
    return assemble(
        groups,
        np.where(both, lengths, 0),
        {
            col.THRESHOLD: thresholds[keep],
            col.TP: tp,
            col.FP: fp,
            col.TN: neg_all - fp,
            col.FN: pos_all - tp,
            col.TPR: tp / pos_all,
            col.FPR: fp / neg_all,
        },
    )


def _thresholds_of_groups(scores: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The ``threshold`` column of all groups: ``+inf`` then each group's scores."""
    column = threshold_column(scores)[1:]  # float64, or exact Python integers
    out = np.full(len(scores) + len(lengths), np.inf, dtype=column.dtype)
    if column.dtype == object:
        out[:] = np.inf
    first = np.cumsum(lengths + 1) - (lengths + 1)
    block = np.repeat(np.arange(len(lengths)), lengths)
    within = np.arange(len(scores)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    out[first[block] + within + 1] = column
    return out


def row_of_threshold(points: pd.DataFrame, thresholds) -> np.ndarray:
    """Row of one group's ROC points (decreasing thresholds) of "positive when score >= t".

    That is the last row whose threshold is at least ``t``: ``+inf`` gives the first row
    (always negative), anything at or below the lowest score the last (always positive).
    """
    # Compared exactly: integers past 2**53 are not rounded into ties.
    own, wanted = order_keys(points[col.THRESHOLD].to_numpy(), np.asarray(thresholds))
    index = np.searchsorted(-own, -wanted, side="right") - 1
    return np.clip(index, 0, len(own) - 1)


def left_out(group: Group, by, reason: str, fix: str) -> pd.DataFrame:
    """Refuse ungrouped data for ``reason``; in grouped data warn and leave the group out."""
    if not by:
        msg = f"{reason}; {fix}"
        raise CostchartError(msg)
    warn(f"group {describe_group(by, group.key)}: {reason}; it is left out")
    return left_out_frame()


def left_out_frame() -> pd.DataFrame:
    """The (empty) points of a group left out."""
    return pd.DataFrame(columns=list(col.ROC_COLUMNS))


def points_or_nothing(counts, group: Group, by, label, what: str = "counts") -> pd.DataFrame:
    """ROC points of one group, or an empty frame (with a warning) when it has one class.

    ``what`` names the counted amounts in messages (e.g. ``"weights in column 'w'"``).
    """
    columns = point_columns(counts, group, by, label, what)
    return table(columns) if columns is not None else left_out_frame()


def point_columns(counts, group: Group, by, label, what: str = "counts") -> dict | None:
    """:func:`points_or_nothing`'s columns (numpy arrays), or None for a left-out group."""
    thresholds, pos, neg = counts
    pos, neg = summable(np.asarray(pos), np.asarray(neg), what)
    if has_both_classes(pos, neg, group, by, label, what):
        return count_columns(thresholds, pos, neg)
    return None


def require_rows(scores: np.ndarray, what: str = "") -> None:
    """Refuse data without a single instance (``what`` adds e.g. " of weight above 0")."""
    if len(scores) == 0:
        msg = f"data has no rows{what}; ROC analysis needs scored instances of both classes"
        raise CostchartError(msg)
