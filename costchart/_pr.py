"""Precision-recall points, their correct interpolation, and the areas under them.

Each ROC point with counts is a precision-recall point: recall ``TP / P`` (the TPR) and
precision ``TP / (TP + FP)``. Between two points, precision is *not* linear in recall:
Davis & Goadrich (2006) showed that the classifiers between them (randomly mixing the two
thresholds, or the instances of a tied score) reach ``TP = TP_A + t`` positives with
``FP = FP_A + t * (FP_B - FP_A) / (TP_B - TP_A)`` false positives, so precision follows
``TP / (TP + FP)`` along that path -- a curve, whose exact area has a closed form. The
ROC convex hull maps to the achievable PR frontier the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart import _schema as col
from costchart._errors import CostchartError
from costchart._frames import carry_grouping, describe_group
from costchart._groups import combine_groups
from costchart._tables import points_groups
from costchart._validation import whole_number

__all__ = ["pr_auc", "pr_curve", "pr_points"]

RECALL, PRECISION = "recall", "precision"


def _counts(table: pd.DataFrame, by: list[str], group, name: str):
    """A group's counts (tp, fp) in order of decreasing threshold, and its class totals."""
    missing = [c for c in (col.TP, col.FP, col.TN, col.FN) if c not in table.columns]
    if missing:
        msg = (
            f"{name} has no counts ({missing}); precision needs the ROC points' tp and fp, "
            "as roc_points and from_confusion give them"
        )
        raise CostchartError(msg)
    positions = group.positions
    tp = table[col.TP].to_numpy(np.float64)[positions]
    fp = table[col.FP].to_numpy(np.float64)[positions]
    order = np.lexsort((tp, fp))  # along the curve: counts grow together
    positives = float((table[col.TP] + table[col.FN]).to_numpy(np.float64)[positions][0])
    if positives <= 0:
        where = f" of group {describe_group(by, group.key)}" if by else ""
        msg = f"the points{where} have no positives; recall is not defined"
        raise CostchartError(msg)
    return positions[order], tp[order], fp[order], positives


def _precision(tp, fp):
    """Precision, 1 where nothing is predicted positive (the curve's start, by convention)."""
    predicted = tp + fp
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(predicted > 0, tp / np.where(predicted > 0, predicted, 1), 1.0)


def pr_points(points, *, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """Precision and recall at every ROC point.

    Parameters
    ----------
    points : table
        ROC points with counts, e.g. from :func:`roc_points` or :func:`roc_hull` of such.
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries (see the glossary).

    Returns
    -------
    pandas.DataFrame
        The grouping columns and the points' ROC columns, then ``recall`` (the TPR) and
        ``precision``
        (``tp / (tp + fp)``; 1 where nothing is predicted positive, as scikit-learn's
        ``precision_recall_curve`` ends), in the points' order.

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> cc.pr_points(points)[["threshold", "recall", "precision"]]
       threshold  recall  precision
    0        inf     0.0   1.000000
    1        4.0     0.5   1.000000
    2        3.0     0.5   0.500000
    3        2.0     1.0   0.666667
    4        1.0     1.0   0.500000
    """
    table, by, groups = points_groups(points, by)
    # The grouping columns, the ROC columns present (in costchart's order), then the rates.
    result = table[[*by, *(c for c in col.ROC_COLUMNS if c in table.columns)]].copy()
    precision = np.full(len(table), np.nan)
    for group in groups:
        positions, tp, fp, _ = _counts(table, by, group, "points")
        precision[positions] = _precision(tp, fp)
    result[RECALL] = table[col.TPR].to_numpy(np.float64)
    result[PRECISION] = precision
    return carry_grouping(result.reset_index(drop=True), by)


def pr_curve(
    points,
    *,
    by: str | Sequence[str] | None = None,
    steps: int = 20,
) -> pd.DataFrame:
    """The precision-recall curve, interpolated correctly between the points.

    Between consecutive ROC points the curve follows Davis and Goadrich's path: ``TP``
    grows from ``TP_A`` to ``TP_B`` while ``FP`` grows in proportion, and precision is
    ``TP / (TP + FP)`` along it. Pass the :func:`roc_hull` of the points to get the
    achievable PR frontier (the hull mapped into PR space).

    Parameters
    ----------
    points : table
        ROC points with counts.
    by : str or list of str, optional
        Grouping columns.
    steps : int
        Points drawn inside each segment (the path is smooth; 20 is plenty for a chart).

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``recall``, ``precision`` and ``interpolated`` (bool:
        False at the ROC points themselves), along the curve from recall 0 to 1.

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> curve = cc.pr_curve(points, steps=1)
    >>> curve.round(3).values.tolist()[:4]
    [[0.0, 1.0, False], [0.25, 1.0, True], [0.5, 1.0, False], [0.5, 0.667, True]]
    """
    steps = whole_number(steps, "steps", minimum=0, maximum=10_000)
    table, by, groups = points_groups(points, by)
    parts = []
    inner = np.arange(1, steps + 1) / (steps + 1)
    for group in groups:
        _, tp, fp, positives = _counts(table, by, group, "points")
        start_tp, end_tp = tp[:-1], tp[1:]
        start_fp, end_fp = fp[:-1], fp[1:]
        # every segment: its start, then the inner steps along the path
        share = np.concatenate([[0.0], inner])
        path_tp = start_tp[:, None] + share[None, :] * (end_tp - start_tp)[:, None]
        path_fp = start_fp[:, None] + share[None, :] * (end_fp - start_fp)[:, None]
        path_tp = np.append(path_tp.ravel(), tp[-1])
        path_fp = np.append(path_fp.ravel(), fp[-1])
        interpolated = np.append(np.tile(share > 0, len(start_tp)), False)
        parts.append(
            pd.DataFrame(
                {
                    RECALL: path_tp / positives,
                    PRECISION: _precision(path_tp, path_fp),
                    "interpolated": interpolated,
                }
            )
        )
    curve = combine_groups(table, by, groups, parts, [RECALL, PRECISION, "interpolated"])
    curve["interpolated"] = curve["interpolated"].astype(bool)  # also when there are no rows
    return curve


def _segment_areas(tp, fp, positives):
    """Exact area under the interpolated PR curve of each segment (closed form)."""
    d_tp, d_fp = np.diff(tp), np.diff(fp)
    area = np.zeros(len(d_tp))
    rising = d_tp > 0
    a_tp, a_fp = tp[:-1][rising], fp[:-1][rising]
    s = d_fp[rising] / d_tp[rising]  # false positives per true positive along the path
    c = a_fp - s * a_tp  # FP = c + s * TP on the segment
    b_tp = tp[1:][rising]
    k = 1 + s  # TP + FP = k * TP + c

    def primitive(t):
        # integral of t / (k t + c) dt = t / k - c / k^2 * log(k t + c)
        with np.errstate(divide="ignore", invalid="ignore"):
            log = np.where(c != 0, np.log(np.where(k * t + c > 0, k * t + c, 1.0)), 0.0)
        return t / k - c / k**2 * log

    # Where the segment starts at TP = FP = 0, precision is constant 1 / k along it.
    from_origin = (a_tp == 0) & (a_fp == 0)
    value = np.where(
        from_origin, (b_tp - a_tp) / k, primitive(b_tp) - primitive(np.maximum(a_tp, 0))
    )
    area[rising] = value / positives
    return area


def pr_auc(points, *, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """Average precision and the exact area under the interpolated PR curve.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``average_precision`` -- the sum over the points of
        (recall gained) x (precision there), scikit-learn's ``average_precision_score`` --
        and ``pr_auc``, the area under :func:`pr_curve`'s interpolation, computed exactly.

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> cc.pr_auc(points).round(4)
       average_precision  pr_auc
    0             0.8333  0.7973
    """
    table, by, groups = points_groups(points, by)
    parts = []
    for group in groups:
        _, tp, fp, positives = _counts(table, by, group, "points")
        recall = tp / positives
        precision = _precision(tp, fp)
        average = float(np.sum(np.diff(recall) * precision[1:]))
        parts.append(
            pd.DataFrame(
                {
                    "average_precision": [average],
                    "pr_auc": [float(np.sum(_segment_areas(tp, fp, positives)))],
                }
            )
        )
    return combine_groups(table, by, groups, parts, ["average_precision", "pr_auc"])
