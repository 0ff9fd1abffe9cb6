"""ROC points of classifiers given as confusion counts (one crisp classifier per row).

Each row's counts give one ROC point; the trivial classifiers (0, 0) and (1, 1) are added
as the extreme thresholds, so the table reads as any other ROC points table.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.data_checks import nonnegative_numbers
from costchart._io.errors import CostchartError
from costchart._io.frames import (
    as_pandas,
    check_by_names,
    describe_group,
    normalize_by,
)
from costchart._io.groups import combine_groups, split_groups
from costchart._io.parameters import checked
from costchart._io.validation import column_name
from costchart._roc.classes import CountColumns, require_some
from costchart._roc.points import points_or_nothing

__all__ = ["from_confusion"]


@checked
def from_confusion(
    data,
    *,
    tp: str,
    fn: str,
    fp: str,
    tn: str,
    by: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    """ROC points of crisp classifiers given as confusion-matrix counts.

    A crisp classifier is one ROC point; the trivial classifiers (0, 0) and (1, 1) are
    added, so each classifier has the same three rows that :func:`roc_points` gives for
    0/1 predictions: thresholds ``+inf`` (always negative), ``1`` (the classifier) and
    ``0`` (always positive).

    Parameters
    ----------
    data : pandas, polars or pyarrow DataFrame, or dict of arrays
        One row per classifier. Not modified.
    tp, fn, fp, tn : str
        Columns of true positives, false negatives, false positives, true negatives
        (non-negative numbers).
    by : str or list of str, optional
        Columns naming each classifier; required when ``data`` has several rows.

    Returns
    -------
    pandas.DataFrame
        The ``by`` columns, then ``threshold, tp, fp, tn, fn, tpr, fpr`` as in
        :func:`roc_points`: three rows per classifier, sorted by ``fpr, tpr``. Counts keep
        an integer dtype when all given counts are integers.

    Examples
    --------
    >>> import costchart as cc
    >>> counts = {"name": ["a"], "TP": [16], "FN": [4], "FP": [4], "TN": [6]}
    >>> cc.from_confusion(counts, tp="TP", fn="FN", fp="FP", tn="TN", by="name")
      name  threshold  tp  fp  tn  fn  tpr  fpr
    0    a        inf   0   0  10  20  0.0  0.0
    1    a        1.0  16   4   6   4  0.8  0.4
    2    a        0.0  20  10   0   0  1.0  1.0
    """
    by = normalize_by(by)
    check_by_names(by)
    for name, column in (("tp", tp), ("fn", fn), ("fp", fp), ("tn", tn)):
        column_name(column, name)
    named = CountColumns(tp, fn, fp, tn)
    _check_distinct(named)
    frame = as_pandas(data, [*by, tp, fn, fp, tn])
    _check_not_boolean(frame, named)
    counts = {
        name: nonnegative_numbers(frame[column].to_numpy(), f"column {column!r}")
        for name, column in ((col.TP, tp), (col.FN, fn), (col.FP, fp), (col.TN, tn))
    }
    integer = all(frame[c].dtype.kind in "iu" for c in (tp, fn, fp, tn))
    if len(frame) == 0:
        msg = "data is empty; from_confusion takes one row of counts per classifier"
        raise CostchartError(msg)
    # Class totals must fit: int64 sums past 2**63 wrap (then "no negatives"), and float
    # sums past 1.8e308 are inf (then NaN rates).
    with np.errstate(over="ignore"):
        totals = np.concatenate([counts[col.TP] + counts[col.FN], counts[col.FP] + counts[col.TN]])
    if not np.isfinite(totals).all():
        msg = (
            "the class totals (tp + fn, fp + tn) of data exceed what float64 holds; divide "
            "the counts by a common factor (the rates depend only on their ratios)"
        )
        raise CostchartError(msg)
    if integer and totals.max(initial=0) >= 2.0**63:
        integer = False  # int64 would wrap; float64 keeps the totals (to 16 digits)
    groups = split_groups(frame, by)
    parts = []
    for group in groups:
        if len(group.positions) != 1:
            where = f"group {describe_group(by, group.key)}" if by else "data"
            msg = (
                f"{where} has {len(group.positions)} rows, but from_confusion takes one row "
                "per classifier; pass by= the columns that identify each classifier"
            )
            raise CostchartError(msg)
        row = {name: values[group.positions[0]] for name, values in counts.items()}
        pos = np.array([row[col.TP], row[col.FN]])
        neg = np.array([row[col.FP], row[col.TN]])
        if integer:
            pos, neg = pos.astype(np.int64), neg.astype(np.int64)
        parts.append(points_or_nothing((np.array([1.0, 0.0]), pos, neg), group, by, named))
    require_some(parts, by, named)
    return combine_groups(frame, by, groups, parts, col.ROC_COLUMNS)


def _check_distinct(named: CountColumns) -> None:
    """Refuse one column given for two counts (``tp="TP", fn="TP"``)."""
    given = {"tp": named.tp, "fn": named.fn, "fp": named.fp, "tn": named.tn}
    seen: dict[str, str] = {}
    for name, column in given.items():
        if column in seen:
            msg = (
                f"{seen[column]}= and {name}= are both column {column!r}; each count needs "
                "its own column: pass the columns of true positives, false negatives, false "
                "positives and true negatives"
            )
            raise CostchartError(msg)
        seen[column] = name


def _check_not_boolean(frame: pd.DataFrame, named: CountColumns) -> None:
    """Refuse booleans as counts (True would count as 1 without a word), even one of them."""
    given = {"tp": named.tp, "fn": named.fn, "fp": named.fp, "tn": named.tn}
    for name, column in given.items():
        values = frame[column]
        # An object column may hold a boolean among numbers ([True, 3]): one is enough.
        boolean = pd.api.types.is_bool_dtype(values.dtype) or (
            values.dtype == object
            and any(isinstance(value, (bool, np.bool_)) for value in values.tolist())
        )
        if boolean:
            msg = (
                f"column {column!r} ({name}=) holds booleans, not counts; pass a column of "
                "counts (whole numbers of instances), e.g. converted with .astype(int) if "
                "True stands for 1"
            )
            raise CostchartError(msg)
