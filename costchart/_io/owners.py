"""Owners: whose ROC point each row of a set operation that pooled curves is.

A set operation given ``by=`` coarser than a points table's grouping (``roc_hull(points,
by="dataset")`` of points grouped by data set and classifier) pools curves. The columns
that tell them apart besides ``by`` (:func:`curves_of`) are checked one curve each; those
merged away are kept in the result, after the grouping columns, as its owners
(:func:`owner_columns`; recorded by :func:`costchart._io.kinds.record`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from costchart._io.frames import is_row_index, own_columns
from costchart._io.kinds import recorded_grouping, recorded_owners

__all__ = ["curves_of", "masked", "owner_columns", "owner_values", "trivial_thresholds"]


def curves_of(table: pd.DataFrame, by: list[str], recorded) -> list[str]:
    """The columns telling apart the curves a set operation pools, for :func:`check_curves`.

    A statistic read off curves takes its groups as the curves. A set operation given
    ``by=`` explicitly (the hull of several classifiers) may pool curves: they are told
    apart by ``by``, the grouping the table records and any other column it has that is
    not an index.
    """
    finer = [*by, *(c for c in recorded or () if c in table.columns and c not in by)]
    others = [c for c in own_columns(table) if c not in finer and not is_row_index(table, c)]
    return [*finer, *others]


def owner_columns(table: pd.DataFrame, by: list[str], pooled: bool) -> list:
    """The columns saying whose point each row of a pooled set operation's result is.

    A set operation given ``by=`` explicitly (``roc_hull(points, by="dataset")`` of points
    grouped by data set and classifier) pools curves; the columns telling them apart
    besides ``by`` are its owners, kept after the grouping columns of its result:

    - of a table that records its grouping, the recorded grouping columns not in ``by``
      (in their recorded order), then the owners it records (a hull of pooled curves);
    - of a table that records none (made by hand, or through polars, a dict or a merge),
      the columns costchart did not write, other than ``by`` and row indexes, that take
      several values within a group of ``by``: those its pooled curves are told apart by
      (a column with one value per group, such as a note per classifier, is not kept).

    Without pooling, only the owners the table records (not in ``by``) are kept.
    """
    if any(c not in table.columns for c in by):
        return []  # the reader names the missing by= column
    recorded = recorded_grouping(table)
    if not pooled:
        candidates = recorded_owners(table)
    elif recorded is not None:
        candidates = [*recorded, *recorded_owners(table)]
    else:
        candidates = [c for c in curves_of(table, by, None)[len(by) :] if _varies(table, by, c)]
    return list(dict.fromkeys(c for c in candidates if c in table.columns and c not in by))


def _varies(table: pd.DataFrame, by: list[str], column) -> bool:
    """Whether ``column`` takes several values within some group of ``by``."""
    try:
        if not by:
            return bool(table[column].nunique(dropna=False) > 1)
        counts = table.groupby(by, sort=False, dropna=False, observed=True)[column]
        return bool((counts.nunique(dropna=False) > 1).any())
    except TypeError:  # unhashable cells: the curve check names them
        return False


def masked(values: pd.Series, keep) -> pd.Series:
    """``values`` where ``keep``, missing elsewhere, whole numbers kept exact.

    Integer and boolean columns become pandas' nullable dtypes (``Int64``, ``UInt64``,
    ``boolean``) rather than floats, which would round names past 2**53 together; other
    columns keep their dtype (or pandas' own choice where it cannot hold a missing value).
    """
    kind, name = values.dtype.kind, values.dtype.name
    if kind in "iub":  # int64 -> Int64, uint64 -> UInt64, bool -> boolean
        nullable = "boolean" if kind == "b" else name.capitalize().replace("Uint", "UInt")
        values = values.astype(nullable)
    return values.where(keep)


def owner_values(
    table: pd.DataFrame, owners: list, rows: np.ndarray, fpr: np.ndarray, tpr: np.ndarray
) -> dict[str, pd.Series]:
    """The ``owners`` columns of ``table`` at ``rows`` (a negative row: an added point).

    The trivial classifiers, at (0, 0) and (1, 1), are every classifier's: their owner is
    missing, as it is at the points the hull added (:func:`~costchart._io.owners.masked`:
    whole numbers stay exact, in pandas' nullable integer dtypes).
    """
    if not owners:
        return {}
    trivial = (rows < 0) | ((fpr == 0) & (tpr == 0)) | ((fpr == 1) & (tpr == 1))
    safe = np.where(rows < 0, 0, rows)
    return {c: masked(table[c].iloc[safe].reset_index(drop=True), ~trivial) for c in owners}


def trivial_thresholds(threshold: np.ndarray, fpr: np.ndarray, tpr: np.ndarray) -> np.ndarray:
    """``inf`` at (0, 0) and ``-inf`` at (1, 1): the trivial classifiers of pooled curves.

    A vertex there is every pooled classifier's, so no one classifier's lowest score is its
    threshold (that score says "always positive" to its own classifier only).
    """
    low, high = (fpr == 0) & (tpr == 0), (fpr == 1) & (tpr == 1)
    if not (low.any() or high.any()):
        return threshold
    threshold = threshold.copy()
    if threshold.dtype.kind not in "fO":
        threshold = threshold.astype(np.float64)
    threshold[low], threshold[high] = np.inf, -np.inf
    return threshold
