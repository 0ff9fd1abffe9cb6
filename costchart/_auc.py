"""The area under ROC curves: whole, partial (``max_fpr``) and standardized (McClish).

:func:`auc` integrates each group's ROC points by trapezoids; with ``max_fpr`` it cuts the
curve where it crosses that rate (linearly between points) and, with ``standardized``,
rescales the partial area so that 0.5 is chance. Its confidence intervals and DeLong's
paired tests are next door in :mod:`costchart._auc_ci` (:func:`auc_ci`, :func:`auc_test`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart import _schema as col
from costchart._errors import CostchartError
from costchart._frames import describe_group
from costchart._groups import combine_groups
from costchart._tables import points_groups
from costchart._validation import finite_number, probability

__all__ = ["auc"]


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
    parts = []
    for group in groups:
        fpr = table[col.FPR].to_numpy(np.float64)[group.positions]
        tpr = table[col.TPR].to_numpy(np.float64)[group.positions]
        if fpr.min() != 0 or fpr.max() != 1:
            where = f"group {describe_group(by, group.key)}" if by else "points"
            msg = (
                f"the ROC curve of {where} runs from fpr={fpr.min()} to fpr={fpr.max()}, so "
                "its area is not defined; auc needs a curve from fpr 0 to 1 (roc_points and "
                "from_confusion include both ends; roc_hull adds them)"
            )
            raise CostchartError(msg)
        order = np.lexsort((tpr, fpr))
        fpr, tpr = fpr[order], tpr[order]
        if cut is not None:
            fpr, tpr = _cut_at(fpr, tpr, cut)
        area = float(np.trapezoid(tpr, fpr))
        if standardized and cut is not None:
            least, most = cut * cut / 2, cut
            area = 0.5 * (1 + (area - least) / (most - least))
        parts.append(pd.DataFrame({col.AUC: [area]}))
    return combine_groups(table, by, groups, parts, [col.AUC])


def _max_fpr(value) -> float:
    """``max_fpr`` as a float in (0, 1]."""
    number = probability(finite_number(value, "max_fpr"), "max_fpr", low_open=True)
    return number


def _cut_at(fpr: np.ndarray, tpr: np.ndarray, cut: float):
    """The curve's points with ``fpr <= cut``, ending on the point where it crosses ``cut``.

    ``fpr`` and ``tpr`` are sorted by ``fpr`` then ``tpr``: at a vertical step at ``cut``
    the curve reaches its highest ``tpr`` there.
    """
    keep = fpr <= cut
    inside_f, inside_t = fpr[keep], tpr[keep]
    if inside_f[-1] < cut:  # interpolate on the segment that crosses cut
        after = int(np.argmax(fpr > cut))
        before = after - 1
        share = (cut - fpr[before]) / (fpr[after] - fpr[before])
        end = tpr[before] + share * (tpr[after] - tpr[before])
        inside_f = np.append(inside_f, cut)
        inside_t = np.append(inside_t, end)
    return inside_f, inside_t
