"""ROC-space averages of several ROC curves, and the ROC dual of a cost curve.

:func:`roc_average` averages ROC curves vertically (TPR at fixed FPR), horizontally (FPR
at fixed TPR) or by threshold (Fawcett's three averages), for comparison with the exact
cost-space :func:`vertical_average`; :func:`curve_points` turns a cost curve (such as
that average) back into the ROC point dual to each of its segments.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart import _schema as col
from costchart._average import check_over, cluster_representatives
from costchart._errors import CostchartError, warn
from costchart._frames import describe_group
from costchart._groups import combine_groups, split_groups
from costchart._tables import curve_groups, points_groups, read_table
from costchart._validation import one_of, probabilities

__all__ = ["curve_points", "roc_average"]


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
        Grouping columns; by default the grouping the table carries (see the glossary).

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
        kept = cluster_representatives(pc)
        pc, cost = pc[kept], cost[kept]
        where = f"group {describe_group(by, group.key)}" if by else "curve"
        fpr, tpr = _segment_rates(pc, cost, where)
        parts.append(
            pd.DataFrame({col.PC_LO: pc[:-1], col.PC_HI: pc[1:], col.FPR: fpr, col.TPR: tpr})
        )
    return combine_groups(table, by, groups, parts, [col.PC_LO, col.PC_HI, col.FPR, col.TPR])


def roc_average(
    points,
    *,
    over: str | Sequence[str],
    method: str = "vertical",
    grid=None,
    by: str | Sequence[str] | None = None,
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
    by : str or list of str, optional
        The other grouping columns, one average per their group; by default the grouping
        the table carries (``over`` needs no declaring).

    Returns
    -------
    pandas.DataFrame
        The kept grouping columns, then one row per grid value: ``threshold`` (NaN unless
        ``method="threshold"``), ``fpr``, ``tpr`` (the means), ``fpr_lo``, ``fpr_hi``,
        ``fpr_sd``, ``tpr_lo``, ``tpr_hi``, ``tpr_sd`` (spread over the curves; the fixed
        coordinate has no spread) and ``n_curves``. Sorted by ``fpr``, ``tpr``.
    """
    one_of(method, "method", ("vertical", "horizontal", "threshold"))
    table = read_table(points, "points")
    over = check_over(table, over, "points")
    table, inferred, _ = points_groups(table, by, declared=over)
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
