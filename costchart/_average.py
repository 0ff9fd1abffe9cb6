"""Averaging several curves (e.g. cross-validation folds) in cost space and in ROC space."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart import _schema as col
from costchart._envelope import lower_envelope
from costchart._errors import CostchartError, warn
from costchart._frames import assemble, combine_groups, describe_group, normalize_by, split_groups
from costchart._pointwise import pointwise_statistics
from costchart._tables import check_curve, curve_groups, points_groups, read_table, table_kind
from costchart._validation import one_of, probabilities

__all__ = ["curve_points", "roc_average", "vertical_average"]


def _check_over(table: pd.DataFrame, over, name: str) -> list[str]:
    if over is not None and not isinstance(over, str):
        try:
            over = list(over)
        except TypeError:
            msg = f"over={over!r} must be a column name or a list of column names (strings)"
            raise CostchartError(msg) from None
    over = normalize_by(over)
    if not over:
        msg = "over= must name the column(s) to average across, e.g. over='fold'"
        raise CostchartError(msg)
    own = [c for c in over if c in col.RESERVED or str(c).startswith("costchart_")]
    if own:
        msg = (
            f"over={own[0]!r} names a column costchart writes itself; pass the column(s) that "
            "tell the curves apart, e.g. over='fold'"
        )
        raise CostchartError(msg)
    missing = [c for c in over if c not in table.columns]
    if missing:
        msg = f"over column {missing[0]!r} is not in the table; available: {list(table.columns)}"
        raise CostchartError(msg)
    for column in over:
        absent = table[column].isna().to_numpy()
        if absent.any():
            msg = (
                f"over column {column!r} of {name} has {int(absent.sum())} missing values "
                f"(first at row {int(np.flatnonzero(absent)[0])}); every row must say which "
                "curve it belongs to"
            )
            raise CostchartError(msg)
    if len(table) == 0:
        msg = f"{name} has no rows; pass at least one curve"
        raise CostchartError(msg)
    return over


def _check_spans(pc: np.ndarray, key: str, where: str) -> None:
    """Refuse a curve that does not run from ``pc = 0`` to ``pc = 1``."""
    low, high = float(pc.min()), float(pc.max())
    if low > PC_TOLERANCE or high < 1 - PC_TOLERANCE:
        msg = (
            f"the curve {key}{where} spans pc {low!r} to {high!r}, not [0, 1]: it cannot be "
            "averaged without extrapolating it. Pass whole cost curves (e.g. from "
            "lower_envelope), or ROC points, whose envelopes span [0, 1]"
        )
        raise CostchartError(msg)


def vertical_average(curves, *, over: str | Sequence[str]) -> pd.DataFrame:
    """The vertical average of cost curves: the mean cost at every ``pc``, exactly.

    Piecewise-linear curves average to a piecewise-linear curve whose vertices are the
    union of theirs, so averaging at those ``pc`` values and joining them with straight
    lines is exact. It is the only average whose cost at every ``pc`` is the average cost
    of the curves (ROC-space averages are not; see :func:`roc_average`).

    Parameters
    ----------
    curves : pandas, polars or pyarrow DataFrame
        Cost curves with ``pc``, ``cost`` (e.g. from :func:`lower_envelope`), each spanning
        ``pc`` from 0 to 1, or ROC points / cost lines, whose lower envelopes are averaged.
    over : str or list of str
        The column(s) whose groups are averaged (e.g. ``"fold"``); not a costchart column,
        and without missing values. The other grouping columns are kept: one average per
        their group.

    Returns
    -------
    pandas.DataFrame
        The kept grouping columns, then one row per vertex, sorted by ``pc``: ``pc``,
        ``cost`` (the mean), ``cost_lo``, ``cost_hi`` (min and max over the curves),
        ``cost_sd`` (standard deviation, ``ddof=1``; NaN for one curve), ``n_curves``.
        The mean is exact everywhere when joined linearly; the spread columns are exact
        at the vertices (between them the min, max and sd of crossing curves may bend).
        Vertices closer than a few units in the last place are merged into one.

    Raises
    ------
    CostchartError
        ``over`` missing, naming a costchart column or holding missing values; a curve
        that does not span ``pc`` from 0 to 1 (it would have to be extrapolated); NaN,
        infinite or negative costs, ``pc`` outside [0, 1]; a table without rows.

    Examples
    --------
    >>> import pandas as pd, costchart as cc
    >>> folds = pd.DataFrame({"fold": [0, 1], "fpr": [0.04, 0.3], "tpr": [0.4, 0.8]})
    >>> average = cc.vertical_average(folds, over="fold")
    >>> cc.curve_points(average).round(4).iloc[2].to_dict()
    {'pc_lo': 0.2727, 'pc_hi': 0.6154, 'fpr': 0.17, 'tpr': 0.6}
    """
    table = read_table(curves, "curves")
    over = _check_over(table, over, "curves")
    if table_kind(table) != "curve":
        table = lower_envelope(table)
    by = [c for c in table.columns if c not in col.RESERVED and c not in over]
    by = [c for c in by if not str(c).startswith("costchart_")]
    groups = split_groups(table, by)
    check_curve(table, "curves")
    return _vertical_average(table, by, over, groups)


def _vertical_average(table: pd.DataFrame, by: list[str], over: list[str], groups) -> pd.DataFrame:
    """Average the curves of every group at once (:mod:`costchart._pointwise`)."""
    n = len(table)
    group_of_row = np.empty(n, dtype=np.int64)
    group_of_row[groups.order] = groups.ids
    members = split_groups(table, [*by, *over])
    member_of_row = np.empty(n, dtype=np.int64)
    member_of_row[members.order] = members.ids
    pc = table[col.PC].to_numpy(np.float64)
    cost = table[col.COST].to_numpy(np.float64)
    # Rows curve after curve (groups in order, their curves in order of first
    # appearance), each curve sorted by pc.
    rows = np.lexsort((pc, member_of_row, group_of_row))
    member = member_of_row[rows]
    new_curve = np.r_[True, member[1:] != member[:-1]]
    curve = np.cumsum(new_curve) - 1
    starts = np.flatnonzero(new_curve)
    x, y = pc[rows], cost[rows]
    _check_all_spans(table, by, over, rows[starts], x, starts)
    curve_group = group_of_row[rows[starts]]
    merged = pointwise_statistics(curve, curve_group, x, y, len(groups))
    keep = _grid_points(merged.node, merged.x, merged.vertex)
    node = merged.node[keep]
    count = merged.count[node]
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = np.where(count > 1, np.sqrt(merged.m2[keep] / (count - 1)), np.nan)
    lengths = np.bincount(node, minlength=len(groups))
    return assemble(
        groups,
        lengths,
        {
            col.PC: merged.x[keep],
            col.COST: merged.mean[keep],
            col.COST_LO: merged.lo[keep],
            col.COST_HI: merged.hi[keep],
            col.COST_SD: sd,
            col.N_CURVES: count.astype(np.int64),
        },
    )


def _check_all_spans(table, by, over, first_rows, x, starts) -> None:
    """Refuse the first curve (in group order) that does not span pc from 0 to 1."""
    stops = np.r_[starts[1:], len(x)]
    low, high = x[starts], x[stops - 1]
    bad = (low > PC_TOLERANCE) | (high < 1 - PC_TOLERANCE)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        row = first_rows[k]
        key = describe_group(over, tuple(table[c].iloc[row] for c in over))
        where = (
            f" of group {describe_group(by, tuple(table[c].iloc[row] for c in by))}" if by else ""
        )
        _check_spans(x[starts[k] : stops[k]], key, where)


def _grid_points(node: np.ndarray, x: np.ndarray, vertex: np.ndarray) -> np.ndarray:
    """Rows of one vertex per run of ``x`` closer than :data:`PC_TOLERANCE`, per node.

    As :func:`distinct_pc`: the first value of each run, or 1 exactly for a node's last
    run when it holds 1.
    """
    rows = np.flatnonzero(vertex)
    node, x = node[rows], x[rows]
    if len(rows) == 0:
        return rows
    new_node = np.r_[True, node[1:] != node[:-1]]
    starts = np.flatnonzero(new_node | np.r_[True, np.diff(x) > PC_TOLERANCE])
    ends = np.r_[starts[1:], len(x)] - 1
    chosen = starts.copy()
    last_of_node = np.r_[node[starts][1:] != node[starts][:-1], True]
    holds_one = last_of_node & (x[ends] == 1.0)
    chosen[holds_one] = ends[holds_one]
    return rows[chosen]


#: ``pc`` values closer than this are one vertex: the same value computed along different
#: paths differs by a few units in the last place (``pc`` lies in [0, 1]). Keeping both
#: would make a segment a few ulps wide whose slope -- the dual ROC point -- is noise.
PC_TOLERANCE = 16 * float(np.finfo(np.float64).eps)


def _cluster_representatives(sorted_pc: np.ndarray) -> np.ndarray:
    """Positions of one value per run of sorted ``pc`` values closer than the tolerance.

    Each run is represented by its first value, or by 0 or 1 exactly when the run holds
    them, so a curve that spans [0, 1] keeps spanning it.
    """
    n = len(sorted_pc)
    if n == 0:
        return np.zeros(0, dtype=np.intp)
    starts = np.flatnonzero(np.concatenate([[True], np.diff(sorted_pc) > PC_TOLERANCE]))
    ends = np.append(starts[1:], n) - 1
    chosen = starts.copy()
    last_run_holds_one = sorted_pc[ends[-1]] == 1.0
    if last_run_holds_one:
        chosen[-1] = ends[-1]
    return chosen


def distinct_pc(values: np.ndarray) -> np.ndarray:
    """Sorted distinct ``pc`` values, values within :data:`PC_TOLERANCE` merged."""
    values = np.unique(values)
    return values[_cluster_representatives(values)]


#: Rounding error of one cost or ``pc`` value of a curve, in units of the float epsilon.
_ROUNDING = 64 * float(np.finfo(np.float64).eps)


def _segment_rates(pc: np.ndarray, cost: np.ndarray, where: str):
    """The ROC point dual to each segment of a sorted curve, and the rounding bound on it.

    Rates outside [0, 1] by no more than the rounding error of the segment (which grows as
    the segment narrows: its slope divides by the width) are clipped; larger excursions
    mean the table is not a cost curve of ROC points, and are refused.
    """
    width = np.diff(pc)
    slope = np.diff(cost) / width
    intercept = cost[:-1] - slope * pc[:-1]
    fpr, tpr = intercept, 1 - slope - intercept
    scale = np.maximum(1.0, np.maximum(np.abs(cost[:-1]), np.abs(cost[1:])))
    bound = _ROUNDING * scale * (1 + np.abs(slope)) * (1 + 1 / width)
    outside = [(rates < -bound) | (rates > 1 + bound) | ~np.isfinite(rates) for rates in (fpr, tpr)]
    if np.any(outside):
        k = int(np.flatnonzero(outside[0] | outside[1])[0])
        name, rate = (col.FPR, fpr[k]) if outside[0][k] else (col.TPR, tpr[k])
        msg = (
            f"{where}'s segment from pc={float(pc[k])!r} to pc={float(pc[k + 1])!r} is the "
            f"cost line of a point with {name}={float(rate)!r}, outside [0, 1]: the table is "
            "not a cost curve of ROC points (costs between 0 and 1, slopes between -1 and 1)"
        )
        raise CostchartError(msg)
    return np.clip(fpr, 0.0, 1.0), np.clip(tpr, 0.0, 1.0)


def curve_points(curve, *, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """The ROC point dual to each linear segment of a cost curve.

    A segment ``cost = a * pc + b`` between two vertices is the cost line of the ROC point
    ``(fpr, tpr) = (b, 1 - a - b)``. For a lower envelope these are the hull vertices; for a
    vertical average, the ROC curve whose cost curve it is.

    Parameters
    ----------
    curve : pandas, polars or pyarrow DataFrame
        A cost curve (``pc``, ``cost``), e.g. from :func:`vertical_average`.
    by : str or list of str, optional
        Grouping columns; by default every column that is not a costchart column.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then one row per segment of positive width, in ``pc`` order:
        ``pc_lo``, ``pc_hi``, ``fpr``, ``tpr``. Rates are in [0, 1]: excursions within the
        rounding error of a segment are clipped, larger ones refused (the table is then
        not a cost curve).
    """
    table, by, groups = curve_groups(read_table(curve, "curve"), by)
    if len(table) == 0:
        msg = "curve has no rows; pass a cost curve (pc, cost), e.g. from vertical_average"
        raise CostchartError(msg)
    parts = []
    for group in groups:
        pc = table[col.PC].to_numpy(np.float64)[group.positions]
        cost = table[col.COST].to_numpy(np.float64)[group.positions]
        order = np.argsort(pc, kind="stable")
        pc, cost = pc[order], cost[order]
        # Vertices a rounding error apart are one vertex (segments of no real width).
        kept = _cluster_representatives(pc)
        pc, cost = pc[kept], cost[kept]
        where = f"group {describe_group(by, group.key)}" if by else "curve"
        fpr, tpr = _segment_rates(pc, cost, where)
        parts.append(
            pd.DataFrame({col.PC_LO: pc[:-1], col.PC_HI: pc[1:], col.FPR: fpr, col.TPR: tpr})
        )
    return combine_groups(table, by, groups, parts, [col.PC_LO, col.PC_HI, col.FPR, col.TPR])


def roc_average(
    points, *, over: str | Sequence[str], method: str = "vertical", grid=None
) -> pd.DataFrame:
    """ROC-space averages of several ROC curves, for comparison with the cost average.

    ``"vertical"`` averages TPR at fixed FPR values, ``"horizontal"`` FPR at fixed TPR
    values, ``"threshold"`` both rates at fixed thresholds (Fawcett's three averages).
    Between a curve's points the rates are interpolated along the curve (every such point
    is reachable by randomly mixing two thresholds); at a vertical (horizontal) step the
    highest TPR (lowest FPR) counts. Every curve is first completed with the trivial
    classifiers (0, 0) at threshold ``+inf`` and (1, 1) at threshold ``-inf``, which are
    always available: a curve without them is never held flat past its ends.

    Parameters
    ----------
    points : pandas, polars or pyarrow DataFrame
        ROC points with grouping columns, e.g. from :func:`roc_points` with ``by=``.
    over : str or list of str
        The column(s) whose groups are averaged (e.g. ``"fold"``).
    method : {"vertical", "horizontal", "threshold"}
        Which average.
    grid : array-like, optional
        The fixed FPR (vertical), TPR (horizontal) or threshold values. By default the
        union of the curves' own values (with 0 and 1 for the vertical and horizontal
        averages).

    Returns
    -------
    pandas.DataFrame
        The kept grouping columns, then one row per grid value: ``threshold`` (NaN unless
        ``method="threshold"``), ``fpr``, ``tpr`` (the means), ``fpr_lo``, ``fpr_hi``,
        ``fpr_sd``, ``tpr_lo``, ``tpr_hi``, ``tpr_sd`` (spread over the curves; the fixed
        coordinate has no spread) and ``n_curves``. Sorted by ``fpr``, ``tpr``.
    """
    one_of(method, "method", ("vertical", "horizontal", "threshold"))
    table, inferred, _ = points_groups(read_table(points, "points"), None)
    over = _check_over(table, over, "points")
    if method == "threshold" and col.THRESHOLD not in table.columns:
        msg = "method='threshold' needs a 'threshold' column (ROC points from roc_points)"
        raise CostchartError(msg)
    if method == "threshold":
        thresholds = table[col.THRESHOLD].to_numpy(np.float64, na_value=np.nan)
        if np.isnan(thresholds).any():
            msg = (
                f"column 'threshold' of points has {int(np.isnan(thresholds).sum())} NaN "
                "values; method='threshold' needs every point's threshold"
            )
            raise CostchartError(msg)
    grid = _check_grid(grid, method)
    by = [c for c in inferred if c not in over]
    groups = split_groups(table, by)
    parts = []
    for group in groups:
        part = table.iloc[group.positions]
        members = split_groups(part, over)
        curves = [part.iloc[m.positions] for m in members]
        if len(curves) == 1:
            warn(f"roc_average over {over} found one curve in a group; spreads are NaN")
        parts.append(_roc_average(curves, method, grid))
    return combine_groups(table, by, groups, parts, col.ROC_AVERAGE_TABLE)


def _check_grid(grid, method: str) -> np.ndarray | None:
    """``grid=`` as a 1-D float array: rates in [0, 1], or thresholds that are not NaN."""
    if grid is None:
        return None
    try:
        values = np.asarray(grid, dtype=np.float64)
    except (TypeError, ValueError):
        msg = f"grid={grid!r} must be numbers (a list or array)"
        raise CostchartError(msg) from None
    if values.ndim != 1 or values.size == 0:
        msg = f"grid= must be a non-empty 1-D list of numbers, but has shape {values.shape}"
        raise CostchartError(msg)
    if method == "threshold":
        if np.isnan(values).any():
            msg = "grid= has NaN values; pass thresholds (numbers, +inf and -inf allowed)"
            raise CostchartError(msg)
        return values
    rate = "FPR" if method == "vertical" else "TPR"
    return probabilities(values, f"grid ({rate} values)")


def _upper_envelope_function(x: np.ndarray, y: np.ndarray):
    """Sorted (x, y) of a monotone curve with one y per x: the largest (for steps)."""
    order = np.lexsort((y, x))
    x, y = x[order], y[order]
    last = np.append(x[1:] != x[:-1], True)
    return x[last], y[last]


def _with_corners(rates: np.ndarray, first: float, last: float) -> np.ndarray:
    """``rates`` with the trivial classifiers' values added: ``first`` before, ``last`` after."""
    return np.concatenate([[first], rates, [last]])


def _roc_average(curves: list[pd.DataFrame], method: str, grid) -> pd.DataFrame:
    # Every curve is completed with the trivial classifiers (0, 0) ("always negative",
    # threshold +inf) and (1, 1) ("always positive", threshold -inf): they are always
    # available, so a curve is never held flat past its last point.
    fprs = [c[col.FPR].to_numpy(np.float64) for c in curves]
    tprs = [c[col.TPR].to_numpy(np.float64) for c in curves]
    if method in ("vertical", "horizontal"):
        own = fprs if method == "vertical" else tprs
        fixed = (
            np.unique(np.concatenate([[0.0, 1.0], *own]))
            if grid is None
            else np.asarray(grid, float)
        )
        fprs = [_with_corners(f, 0.0, 1.0) for f in fprs]
        tprs = [_with_corners(t, 0.0, 1.0) for t in tprs]
    if method == "vertical":
        values = np.array(
            [
                np.interp(fixed, *_upper_envelope_function(f, t))
                for f, t in zip(fprs, tprs, strict=True)
            ]
        )
        return _summary(np.nan, np.tile(fixed, (len(curves), 1)), values)
    if method == "horizontal":
        # Lowest FPR at each TPR: the upper envelope of (tpr, -fpr).
        values = np.array(
            [
                -np.interp(fixed, *_upper_envelope_function(t, -f))
                for f, t in zip(fprs, tprs, strict=True)
            ]
        )
        return _summary(np.nan, values, np.tile(fixed, (len(curves), 1)))
    thresholds = [c[col.THRESHOLD].to_numpy(np.float64) for c in curves]
    fixed = np.unique(np.concatenate(thresholds)) if grid is None else np.asarray(grid, float)
    fixed = fixed[::-1]
    at_f, at_t = [], []
    for f, t, th in zip(fprs, tprs, thresholds, strict=True):
        order = np.argsort(-th, kind="stable")  # decreasing thresholds, growing rates
        f = _with_corners(f[order], 0.0, 1.0)
        t = _with_corners(t[order], 0.0, 1.0)
        th = _with_corners(th[order], np.inf, -np.inf)
        # The operating point of threshold x is the last point whose threshold is >= x.
        index = np.searchsorted(-th, -fixed, side="right") - 1
        at_f.append(f[index])
        at_t.append(t[index])
    return _summary(fixed, np.array(at_f), np.array(at_t))


def _summary(threshold, fpr: np.ndarray, tpr: np.ndarray) -> pd.DataFrame:
    """Mean and spread over curves (rows) of rates at each grid value (columns)."""
    n = fpr.shape[0]
    sd = (lambda v: v.std(axis=0, ddof=1)) if n > 1 else (lambda v: np.full(v.shape[1], np.nan))
    result = pd.DataFrame(
        {
            col.THRESHOLD: threshold if np.ndim(threshold) else np.full(fpr.shape[1], np.nan),
            col.FPR: fpr.mean(axis=0),
            col.TPR: tpr.mean(axis=0),
            col.FPR_LO: fpr.min(axis=0),
            col.FPR_HI: fpr.max(axis=0),
            col.FPR_SD: sd(fpr),
            col.TPR_LO: tpr.min(axis=0),
            col.TPR_HI: tpr.max(axis=0),
            col.TPR_SD: sd(tpr),
            col.N_CURVES: np.full(fpr.shape[1], n, dtype=np.int64),
        }
    )
    return result.sort_values([col.FPR, col.TPR], kind="stable").reset_index(drop=True)
