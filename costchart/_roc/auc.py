"""The area under ROC curves: whole, partial (``max_fpr``) and standardized (McClish).

:func:`auc` integrates each group's ROC points by trapezoids; with ``max_fpr`` it cuts the
curve where it crosses that rate (linearly between points) and, with ``standardized``,
rescales the partial area so that 0.5 is chance. Its confidence intervals and DeLong's
paired tests are next door in :mod:`costchart._roc.auc_ci` (:func:`auc_ci`, :func:`auc_test`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.frames import describe_group
from costchart._io.groups import assemble
from costchart._io.parameters import checked
from costchart._io.tables import points_groups
from costchart._io.validation import finite_number, probability

__all__ = ["auc"]


@checked
def auc(
    points: pd.DataFrame,
    *,
    by: str | Sequence[str] | None = None,
    max_fpr: float | None = None,
    standardized: bool = False,
) -> pd.DataFrame:
    """Area under each ROC curve of a points table (trapezoids between the points).

    Parameters
    ----------
    points : pandas, polars or pyarrow table, or dict of arrays
        A table with ``fpr`` and ``tpr`` columns, e.g. from :func:`roc_points`,
        :func:`from_confusion` or :func:`roc_hull`; each group's ``fpr`` must run from 0
        to 1. An empty table gives an empty result (no groups, no rows).
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries (see the glossary).
    max_fpr : float, optional
        In (0, 1]: the partial area for ``fpr`` from 0 to ``max_fpr`` (the curve is cut
        where it crosses ``max_fpr``, linearly between its points), as pROC's
        uncorrected ``partial.auc`` on specificity from 1 to ``1 - max_fpr``.
    standardized : bool
        With ``max_fpr``: McClish's correction, ``(1 + (pauc - min) / (max - min)) / 2``
        with ``min = max_fpr**2 / 2`` (the chance diagonal's area) and ``max = max_fpr``,
        so 0.5 is chance and 1 perfect -- scikit-learn's ``roc_auc_score(max_fpr=)``.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``auc`` (float64): one row per group.

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [3, 2, 1], "y": [1, 0, 1]}, score="s", label="y")
    >>> cc.auc(points)
       auc
    0  0.5
    >>> cc.auc(points, max_fpr=0.5)  # the first half of the FPR axis
        auc
    0  0.25
    >>> cc.auc(points, max_fpr=0.5, standardized=True)
            auc
    0  0.666667
    """
    cut = None if max_fpr is None else _max_fpr(max_fpr)
    if not isinstance(standardized, (bool, np.bool_)):
        msg = f"standardized={standardized!r} must be True or False"
        raise CostchartError(msg)
    if standardized and cut is None:
        msg = "standardized=True corrects a partial area; pass max_fpr= too"
        raise CostchartError(msg)
    table, by, groups = points_groups(points, by)
    fpr, tpr, starts, stops = _sorted_curves(table, groups)
    _check_ends(fpr, starts, stops, by, groups)
    if cut is None:
        areas = _trapezoids(fpr, tpr, starts, stops)
    else:
        areas = _areas_up_to(fpr, tpr, starts, stops, cut)
        if standardized:
            least, most = cut * cut / 2, cut
            areas = 0.5 * (1 + (areas - least) / (most - least))
    return assemble(groups, np.ones(len(groups), dtype=np.int64), {col.AUC: areas})


def _sorted_curves(table: pd.DataFrame, groups):
    """Every group's points sorted by (fpr, tpr), group after group, with the offsets."""
    rows = groups.order
    fpr = table[col.FPR].to_numpy(np.float64)[rows]
    tpr = table[col.TPR].to_numpy(np.float64)[rows]
    order = np.lexsort((tpr, fpr, groups.ids))
    return fpr[order], tpr[order], groups.starts, groups.stops


def _check_ends(fpr, starts, stops, by, groups) -> None:
    """Refuse a group whose curve does not run from fpr 0 to 1 (its area is undefined)."""
    if not len(starts):
        return
    lowest, highest = fpr[starts], fpr[stops - 1]
    bad = np.flatnonzero((lowest != 0) | (highest != 1))
    if len(bad):
        g = int(bad[0])
        where = f"group {describe_group(by, groups.keys[g])}" if by else "points"
        msg = (
            f"the ROC curve of {where} runs from fpr={lowest[g]} to fpr={highest[g]}, so "
            "its area is not defined; auc needs a curve from fpr 0 to 1 (roc_points and "
            "from_confusion include both ends; roc_hull adds them)"
        )
        raise CostchartError(msg)


def _trapezoids(fpr, tpr, starts, stops) -> np.ndarray:
    """The trapezoid area under each group's points (sorted within each group)."""
    n_groups = len(starts)
    owner = np.repeat(np.arange(n_groups), stops - starts)
    segment = (fpr[1:] - fpr[:-1]) * (tpr[1:] + tpr[:-1]) / 2.0
    inside = owner[1:] == owner[:-1]  # segments within a group, not across two
    # bincount of no weights gives int64: an empty table's areas are floats too
    return np.bincount(owner[1:][inside], segment[inside], minlength=n_groups).astype(np.float64)


def _areas_up_to(fpr, tpr, starts, stops, cut: float) -> np.ndarray:
    """Each group's area for fpr from 0 to ``cut`` (cut where the curve crosses it).

    Within a group the points are sorted by (fpr, tpr), so those with ``fpr <= cut`` come
    first; at a vertical step at ``cut`` the curve reaches its highest ``tpr`` there.
    """
    n_groups = len(starts)
    owner = np.repeat(np.arange(n_groups), stops - starts)
    inside = fpr <= cut
    counts = np.bincount(owner, inside, minlength=n_groups).astype(np.int64)
    last = starts + counts - 1  # every group has fpr 0 <= cut
    kept_stops = np.cumsum(counts)
    keep = np.flatnonzero(inside)
    areas = _trapezoids(fpr[keep], tpr[keep], kept_stops - counts, kept_stops)
    short = fpr[last] < cut  # the crossing segment starts at the last point inside
    after = np.minimum(last + 1, len(fpr) - 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = (cut - fpr[last]) / (fpr[after] - fpr[last])
    end = tpr[last] + share * (tpr[after] - tpr[last])
    extra = (cut - fpr[last]) * (end + tpr[last]) / 2.0
    return areas + np.where(short, extra, 0.0)


def _max_fpr(value) -> float:
    """``max_fpr`` as a float in (0, 1]."""
    number = probability(finite_number(value, "max_fpr"), "max_fpr", low_open=True)
    return number
