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
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.deprecation import renamed
from costchart._io.errors import CostchartError
from costchart._io.frames import carry_grouping, describe_group, normalize_by
from costchart._io.frames import table as new_table
from costchart._io.groups import Groups, assemble, split_groups
from costchart._io.parameters import checked
from costchart._io.tables import points_groups
from costchart._io.validation import raw_data, whole_number
from costchart._roc.hull import _is_sorted_within
from costchart._roc.points import points_and_columns

__all__ = ["pr_auc", "pr_curve", "pr_points"]

RECALL, PRECISION = "recall", "precision"


@dataclass(frozen=True)
class _Counts:
    """Every group's counts along its curve, group after group, and its class totals.

    Within a group the points are in order of growing ``fp``, then ``tp`` (counts grow
    together along the curve); :attr:`rows` are their positions in the table.
    """

    rows: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    positives: np.ndarray  # one per group
    groups: Groups

    @property
    def is_last(self) -> np.ndarray:
        """Whether each point is its group's last (where no segment starts)."""
        last = np.zeros(len(self.rows), dtype=bool)
        last[self.groups.stops - 1] = True
        return last


def _counts(table: pd.DataFrame, by: list[str], groups: Groups, name: str) -> _Counts:
    """The counts (tp, fp) of all groups along their curves, and their class totals."""
    missing = [c for c in (col.TP, col.FP, col.TN, col.FN) if c not in table.columns]
    if missing and len(groups):
        msg = (
            f"{name} has no counts ({missing}); precision needs the ROC points' tp and fp, "
            "as roc_points and from_confusion give them"
        )
        raise CostchartError(msg)
    if not len(groups):
        empty = np.zeros(0)
        return _Counts(np.zeros(0, dtype=np.intp), empty, empty, empty, groups)
    rows = groups.order
    tp = table[col.TP].to_numpy(np.float64)[rows]
    fp = table[col.FP].to_numpy(np.float64)[rows]
    if not _is_sorted_within(fp, tp, groups.starts):  # roc_points' tables are
        along = np.lexsort((tp, fp, groups.ids))  # stable: as each group sorted alone
        rows, tp, fp = rows[along], tp[along], fp[along]
    totals = (table[col.TP] + table[col.FN]).to_numpy(np.float64)
    positives = totals[groups.firsts]  # read at each group's first row, in table order
    without = np.flatnonzero(positives <= 0)
    if without.size:
        key = groups.keys[without[0]]
        where = f" of group {describe_group(by, key)}" if by else ""
        msg = f"the points{where} have no positives; recall is not defined"
        raise CostchartError(msg)
    return _Counts(rows, tp, fp, positives, groups)


def _precision(tp, fp):
    """Precision, 1 where nothing is predicted positive (the curve's start, by convention)."""
    predicted = tp + fp
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(predicted > 0, tp / np.where(predicted > 0, predicted, 1), 1.0)


@renamed(points="data_or_points")
@checked
def pr_points(
    data_or_points,
    *,
    score: str | None = None,
    label: str | None = None,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
) -> pd.DataFrame:
    """Precision and recall at every ROC point, from ROC points or from raw data.

    Parameters
    ----------
    data_or_points : table, or pandas, polars or pyarrow table, dict of arrays, or lazy frame
        Without ``score=`` and ``label=``: ROC points with counts, e.g. from
        :func:`roc_points` or :func:`roc_hull` of such. With them: raw data, one row per
        instance, read as :func:`roc_points` reads it (one call instead of two). Was
        ``points=``, deprecated.
    score, label : str, optional
        The score and class columns of raw data (both or neither).
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries (see the glossary),
        or for raw data none (every row pooled into one curve).
    pos_label : optional
        The value of ``label`` that is the positive class (raw data only).
    weight : str, optional
        A column of non-negative instance weights (raw data only): counts become sums of
        weights.

    Returns
    -------
    pandas.DataFrame
        The grouping columns and the points' ROC columns, then ``recall`` (the TPR) and
        ``precision``
        (``tp / (tp + fp)``; 1 where nothing is predicted positive, as scikit-learn's
        ``precision_recall_curve`` ends), in the points' order. From raw data, the same
        table as ``pr_points(roc_points(data, score=..., label=..., ...))``.

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}
    >>> cc.pr_points(data, score="s", label="y")[["threshold", "recall", "precision"]]
       threshold  recall  precision
    0        inf     0.0   1.000000
    1        4.0     0.5   1.000000
    2        3.0     0.5   0.500000
    3        2.0     1.0   0.666667
    4        1.0     1.0   0.500000
    >>> points = cc.roc_points(data, score="s", label="y")
    >>> cc.pr_points(points).equals(cc.pr_points(data, score="s", label="y"))
    True
    """
    if not raw_data(score, label, pos_label=pos_label, weight=weight):
        read, by, groups = points_groups(data_or_points, by, cloud=True)
        return _pr_table(read, by, groups)
    assert score is not None and label is not None  # raw_data says both are given
    points, columns = points_and_columns(
        data_or_points,
        score=score,
        label=label,
        by=by,
        pos_label=pos_label,
        weight=weight,
        as_frame=False,
    )
    if columns is None:  # grouped: costchart's own points, split without a second reading
        assert points is not None
        by = normalize_by(by)
        return _pr_table(points, by, split_groups(points, by))
    # One curve, its columns at hand: the rates added to them, one frame built.
    tp, fp = columns[col.TP].astype(np.float64), columns[col.FP].astype(np.float64)
    columns[RECALL] = columns[col.TPR].copy()  # a column of its own, as in a frame
    columns[PRECISION] = _precision(tp, fp)
    return carry_grouping(new_table(columns), [])


def _pr_table(table: pd.DataFrame, by: list[str], groups: Groups) -> pd.DataFrame:
    """:func:`pr_points` of a points table already read (its grouping and groups)."""
    # The grouping columns, the ROC columns present (in costchart's order), then the rates.
    result = table[[*by, *(c for c in col.ROC_COLUMNS if c in table.columns)]].copy()
    precision = np.full(len(table), np.nan)
    counts = _counts(table, by, groups, "points")
    precision[counts.rows] = _precision(counts.tp, counts.fp)
    result[RECALL] = table[col.TPR].to_numpy(np.float64)
    result[PRECISION] = precision
    return carry_grouping(result.reset_index(drop=True), by)


@checked
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
    counts = _counts(table, by, groups, "points")
    path_tp, path_fp, interpolated = _paths(counts, steps)
    lengths = (groups.sizes - 1) * (steps + 1) + 1
    columns = {
        RECALL: path_tp / np.repeat(counts.positives, lengths),
        PRECISION: _precision(path_tp, path_fp),
        "interpolated": interpolated,
    }
    return assemble(groups, lengths, columns)


def _paths(counts: _Counts, steps: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Davis and Goadrich's paths of all groups: ``tp``, ``fp`` and whether interpolated.

    Every segment gives its start, then ``steps`` points inside; each group's last point
    closes its curve. All points are drawn as segment starts (a last point towards
    itself), then the inner steps of the last points are left out.
    """
    share = np.concatenate([[0.0], np.arange(1, steps + 1) / (steps + 1)])
    last = counts.is_last
    end = np.arange(len(last)) + ~last  # the segment's end (itself at a last point)
    kept = np.ones((len(last), len(share)), dtype=bool)
    kept[last, 1:] = False
    tp, fp = counts.tp, counts.fp
    path_tp = (tp[:, None] + share[None, :] * (tp[end] - tp)[:, None])[kept]
    path_fp = (fp[:, None] + share[None, :] * (fp[end] - fp)[:, None])[kept]
    interpolated = np.broadcast_to(share > 0, kept.shape)[kept]
    return path_tp, path_fp, interpolated


def _segment_areas(tp, fp, positives, starts):
    """Exact area under the interpolated PR curve of each segment (closed form).

    Segment ``k`` runs from point ``starts[k]`` to the next point; ``positives`` holds
    each point's class total.
    """
    ends = starts + 1
    d_tp, d_fp = tp[ends] - tp[starts], fp[ends] - fp[starts]
    area = np.zeros(len(d_tp))
    rising = d_tp > 0
    a_tp, a_fp = tp[starts][rising], fp[starts][rising]
    s = d_fp[rising] / d_tp[rising]  # false positives per true positive along the path
    c = a_fp - s * a_tp  # FP = c + s * TP on the segment
    b_tp = tp[ends][rising]
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
    area[rising] = value / positives[starts][rising]
    return area


@checked
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
    counts = _counts(table, by, groups, "points")
    tp, fp = counts.tp, counts.fp
    ids = groups.ids
    positives = counts.positives[ids]
    recall = tp / positives
    precision = _precision(tp, fp)
    starts = np.flatnonzero(~counts.is_last)  # segment k runs from point k to point k + 1
    gained = (recall[starts + 1] - recall[starts]) * precision[starts + 1]
    areas = _segment_areas(tp, fp, positives, starts)
    columns = {
        "average_precision": _group_sums(gained, ids[starts], len(groups)),
        "pr_auc": _group_sums(areas, ids[starts], len(groups)),
    }
    return assemble(groups, np.ones(len(groups), dtype=np.int64), columns)


def _group_sums(values: np.ndarray, group: np.ndarray, count: int) -> np.ndarray:
    """The sum of ``values`` in each of ``count`` groups (0 where a group has none)."""
    return np.bincount(group, weights=values, minlength=count).astype(np.float64)
