"""The ROC convex hull: the classifiers that are optimal for some operating condition."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.optimize import isotonic_regression

from costchart import _schema as col
from costchart._frames import Groups, combine_groups
from costchart._tables import points_groups

__all__ = ["group_hulls", "roc_hull"]

#: Without counts, rates such as 1/3 carry rounding error, so a turn whose sine is below
#: this is taken as collinear (its envelope segment would be narrower than ~1e-12).
RATE_MIN_TURN = 1e-12


def roc_hull(points, *, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """Vertices of the ROC convex hull, with the conditions under which each is optimal.

    The hull is the upper concave boundary of the ROC points from (0, 0) to (1, 1); only
    its vertices can minimize expected cost. The trivial classifiers are always
    available: if a group lacks (0, 0) or (1, 1) it is added (threshold ``+inf`` or
    ``-inf``). Points on a hull edge but not at a corner are dropped.

    A vertex is optimal for iso-performance slopes ``m`` in ``[slope_lo, slope_hi]``, i.e.
    for operating points ``pc = 1 / (1 + m)`` in ``[pc_lo, pc_hi]``.

    Parameters
    ----------
    points : pandas, polars or pyarrow table, or dict of arrays
        ROC points (``fpr``, ``tpr`` and optionally ``threshold`` and counts), e.g. from
        :func:`roc_points`, or a cost-lines table from :func:`to_cost_lines`.
    by : str or list of str, optional
        Grouping columns; by default every column that is not a costchart column.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, the points' own columns (``threshold, tp, fp, tn, fn, tpr,
        fpr`` as far as present), then

        - ``slope_lo``, ``slope_hi`` (float64): slopes of the hull edges right and left of
          the vertex (``+inf`` left of the first vertex, ``0`` right of the last);
        - ``pc_lo``, ``pc_hi`` (float64): the matching operating points, ``0`` to ``1``
          across the vertices of a group.

        Sorted by ``fpr`` (and ``tpr``) within each group.

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> cc.roc_hull(points)[["threshold", "fpr", "tpr", "pc_lo", "pc_hi"]]
       threshold  fpr  tpr  pc_lo  pc_hi
    0        inf  0.0  0.0    0.0    0.0
    1        4.0  0.0  0.5    0.0    0.5
    2        2.0  0.5  1.0    0.5    1.0
    3        1.0  1.0  1.0    1.0    1.0
    """
    table, by, groups = points_groups(points, by)
    point_columns = [c for c in col.ROC_COLUMNS if c in table.columns]
    parts = [hull_of_group(table, group.positions, point_columns) for group in groups]
    return combine_groups(table, by, groups, parts, [*point_columns, *col.HULL_COLUMNS])


def group_hulls(
    points, by, *, name: str = "points"
) -> tuple[pd.DataFrame, list[str], Groups, list[pd.DataFrame]]:
    """Read a points (or cost-lines) table and compute the hull of each group.

    Returns the table (with a NaN ``threshold`` column added if it had none), its grouping
    columns, its groups and one hull per group. ``name`` is the table in messages.
    """
    table, by, groups = points_groups(points, by, name=name)
    columns = [c for c in col.ROC_COLUMNS if c in table.columns]
    if col.THRESHOLD not in columns:
        table = table.assign(**{col.THRESHOLD: np.nan})
        columns = [col.THRESHOLD, *columns]
    return table, by, groups, [hull_of_group(table, g.positions, columns) for g in groups]


def _scales_the_rates(exact: np.ndarray, rates: np.ndarray) -> bool:
    """Whether exact coordinates (counts, cost sums) are the rates times one total.

    They are for the points of one curve. Points pooled from curves of different test
    sets (e.g. ``by=`` leaving out a grouping column) have different class totals; their
    hull is then taken on the rates.
    """
    if np.any((exact == 0) != (rates == 0)):
        return False
    nonzero = rates > 0
    totals = exact[nonzero] / rates[nonzero]
    return bool(totals.size == 0 or np.allclose(totals, totals[0], rtol=1e-9, atol=0))


def hull_of_group(table: pd.DataFrame, positions: np.ndarray, columns: list[str]):
    """Hull vertices (with slope and ``pc`` ranges) of the points at ``positions``."""
    iv = [col.FP_COST, col.TP_BENEFIT]
    if set(iv) <= set(table.columns) and table[iv].iloc[positions].notna().all(axis=None):
        # ROCIV points: the rates are shares of these sums (tp and fp count instances).
        columns = [*columns, *iv]
    points = _sorted_with_trivial(table, positions, columns)
    x, y = points[col.FPR].to_numpy(np.float64), points[col.TPR].to_numpy(np.float64)
    min_turn = RATE_MIN_TURN
    if col.FP_COST in columns:
        exact = (
            points[col.FP_COST].to_numpy(np.float64),
            points[col.TP_BENEFIT].to_numpy(np.float64),
        )
    elif {col.TP, col.FP, col.TN, col.FN} <= set(columns):
        # Counts are exact, so collinear points are recognized exactly.
        exact = points[col.FP].to_numpy(np.float64), points[col.TP].to_numpy(np.float64)
        min_turn = 0.0
    else:
        exact = None
    if exact is not None and _scales_the_rates(exact[0], x) and _scales_the_rates(exact[1], y):
        x, y = exact
    else:
        min_turn = RATE_MIN_TURN
    corners = upper_hull(x, y, min_turn=min_turn)
    vertices = points.iloc[corners].reset_index(drop=True)
    d_fpr = np.diff(vertices[col.FPR].to_numpy(np.float64))
    d_tpr = np.diff(vertices[col.TPR].to_numpy(np.float64))
    with np.errstate(divide="ignore"):
        slopes = d_tpr / d_fpr
    edge_pc = d_fpr / (d_fpr + d_tpr)
    vertices[col.SLOPE_LO] = np.append(slopes, 0.0)
    vertices[col.SLOPE_HI] = np.insert(slopes, 0, np.inf)
    vertices[col.PC_LO] = np.insert(edge_pc, 0, 0.0)
    vertices[col.PC_HI] = np.append(edge_pc, 1.0)
    return vertices


def _sorted_with_trivial(table, positions, columns) -> pd.DataFrame:
    """The group's points sorted by (fpr, tpr), with (0, 0) and (1, 1) present."""
    points = table.iloc[positions][columns].reset_index(drop=True)
    fpr = points[col.FPR].to_numpy(np.float64)
    tpr = points[col.TPR].to_numpy(np.float64)
    if not _is_sorted(fpr, tpr):
        order = np.lexsort((tpr, fpr))
        points = points.iloc[order].reset_index(drop=True)
        fpr, tpr = fpr[order], tpr[order]
    has_origin = fpr[0] == 0 and tpr[0] == 0
    has_corner = fpr[-1] == 1 and tpr[-1] == 1
    if has_origin and has_corner:
        return points
    extra = []
    if not has_origin:
        extra.append(_trivial_point(points, always_positive=False))
    extra.append(points)
    if not has_corner:
        extra.append(_trivial_point(points, always_positive=True))
    return pd.concat(extra, ignore_index=True)


def _is_sorted(fpr: np.ndarray, tpr: np.ndarray) -> bool:
    d_fpr = np.diff(fpr)
    return bool(np.all((d_fpr > 0) | ((d_fpr == 0) & (np.diff(tpr) >= 0))))


def _trivial_point(points: pd.DataFrame, *, always_positive: bool) -> pd.DataFrame:
    """The always-negative (0, 0) or always-positive (1, 1) classifier, in points' columns."""
    rate = 1.0 if always_positive else 0.0
    row = {col.THRESHOLD: -np.inf if always_positive else np.inf, col.FPR: rate, col.TPR: rate}
    if {col.TP, col.FN, col.FP, col.TN} <= set(points.columns):
        total_pos = points[col.TP].iat[0] + points[col.FN].iat[0]
        total_neg = points[col.FP].iat[0] + points[col.TN].iat[0]
        row[col.TP], row[col.FN] = (total_pos, 0) if always_positive else (0, total_pos)
        row[col.FP], row[col.TN] = (total_neg, 0) if always_positive else (0, total_neg)
    if {col.FP_COST, col.TP_BENEFIT} <= set(points.columns):
        row[col.FP_COST] = points[col.FP_COST].max() if always_positive else 0.0
        row[col.TP_BENEFIT] = points[col.TP_BENEFIT].max() if always_positive else 0.0
    columns = {}
    for column, dtype in points.dtypes.items():
        value = row.get(column, np.nan)
        # Keep the points' dtype (int64 counts stay int64) unless the value needs a float.
        fits = dtype.kind not in "iub" or np.isfinite(value)
        columns[column] = pd.Series([value], dtype=dtype if fits else np.float64)
    return pd.DataFrame(columns)


def upper_hull(x: np.ndarray, y: np.ndarray, *, min_turn: float = 0.0) -> np.ndarray:
    """Positions of the upper-hull corners of points sorted by (x, y).

    The chain starts at the first point and ends at the last; collinear points are not
    corners. Runs of equal ``x`` keep their highest point (and the very first point).
    The concave majorant is the antitonic regression of the segment slopes weighted by
    their widths (pool-adjacent-violators, linear time); a final exact pass removes any
    point that does not turn clockwise by more than ``min_turn`` (the sine of the angle).
    """
    n = len(x)
    if n <= 2:
        return np.arange(n)
    last_of_run = np.flatnonzero(np.append(x[1:] != x[:-1], True))
    chain = last_of_run if last_of_run[0] == 0 or y[last_of_run[0]] == y[0] else None
    if chain is None:
        chain = np.insert(last_of_run, 0, 0)
    # The chain may start with a vertical edge (several points at the smallest x); the
    # remaining edges all have positive width.
    start = 1 if len(chain) > 1 and x[chain[1]] == x[chain[0]] else 0
    tail = chain[start:]
    if len(tail) > 2:
        dx, dy = np.diff(x[tail]), np.diff(y[tail])
        blocks = isotonic_regression(dy / dx, weights=dx, increasing=False).blocks
        chain = np.concatenate([chain[:start], tail[blocks]])
    return _drop_non_corners(x, y, chain, min_turn)


def _drop_non_corners(x, y, chain: np.ndarray, min_turn: float) -> np.ndarray:
    """Remove chain points that lie on or below the segment joining their neighbours."""
    while len(chain) > 2:
        xs, ys = x[chain], y[chain]
        left_x, left_y = xs[1:-1] - xs[:-2], ys[1:-1] - ys[:-2]
        right_x, right_y = xs[2:] - xs[1:-1], ys[2:] - ys[1:-1]
        cross = left_x * right_y - left_y * right_x
        if min_turn:
            cross = cross + min_turn * np.hypot(left_x, left_y) * np.hypot(right_x, right_y)
        corner = cross < 0
        if corner.all():
            break
        chain = chain[np.concatenate([[True], corner, [True]])]
    return chain
