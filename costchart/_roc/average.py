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

from costchart._cost.average import check_over, grouped_runs
from costchart._io import schema as col
from costchart._io.curves import COST_TOLERANCE
from costchart._io.deprecation import ABSENT, deprecated_names, renamed_value, take_alias
from costchart._io.errors import CostchartError, warn
from costchart._io.exact import exact_column, order_keys
from costchart._io.frames import describe_group, normalize_by
from costchart._io.groups import Groups, assemble, split_groups
from costchart._io.parameters import checked
from costchart._io.table_values import threshold_values
from costchart._io.tables import curve_groups, points_groups, read_table
from costchart._io.validation import probabilities
from costchart._roc.grid import (
    given_grid,
    own_grid,
    queries_of,
    rates_at_grid,
    split_curves,
    summary_columns,
)

__all__ = ["curve_points", "roc_average"]


#: Rounding error of one cost or ``pc`` value of a curve, in units of the float epsilon.
_ROUNDING = 64 * float(np.finfo(np.float64).eps)


def _segment_rates(
    pc: np.ndarray, leaving: np.ndarray, arriving: np.ndarray, inside: np.ndarray, where
):
    """The ROC point dual to each segment of sorted curves, and the rounding bound on it.

    ``pc`` holds the vertices of every curve, curve after curve, ``leaving`` the cost with
    which the curve leaves each vertex and ``arriving`` the cost with which it reaches it
    (the two differ where the curve jumps); ``inside`` marks the segments (pairs of
    neighbouring vertices) within one curve, and ``where(k)`` names the curve of the
    ``k``-th of them in messages.

    Rates outside [0, 1] by no more than the rounding error of the segment (which grows as
    the segment narrows: its slope divides by the width) are clipped; larger excursions
    mean the table is not a cost curve of ROC points, and are refused.
    """
    left = np.flatnonzero(inside)
    pc_0, pc_1, cost_0, cost_1 = pc[left], pc[left + 1], leaving[left], arriving[left + 1]
    width = pc_1 - pc_0
    slope = (cost_1 - cost_0) / width
    intercept = cost_0 - slope * pc_0
    fpr, tpr = intercept, 1 - slope - intercept
    scale = np.maximum(1.0, np.maximum(np.abs(cost_0), np.abs(cost_1)))
    bound = _ROUNDING * scale * (1 + np.abs(slope)) * (1 + 1 / width)
    outside = [(rates < -bound) | (rates > 1 + bound) | ~np.isfinite(rates) for rates in (fpr, tpr)]
    if np.any(outside):
        k = int(np.flatnonzero(outside[0] | outside[1])[0])
        name, rate = (col.FPR, fpr[k]) if outside[0][k] else (col.TPR, tpr[k])
        msg = (
            f"{where(k)}'s segment from pc={float(pc_0[k])!r} to pc={float(pc_1[k])!r} is the "
            f"cost line of a point with {name}={float(rate)!r}, outside [0, 1]: the table is "
            "not a cost curve of ROC points (costs between 0 and 1, slopes between -1 and 1)"
        )
        raise CostchartError(msg)
    return np.clip(fpr, 0.0, 1.0), np.clip(tpr, 0.0, 1.0)


@checked
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
    pc = table[col.PC].to_numpy(np.float64)
    cost = table[col.COST].to_numpy(np.float64)
    given = pc[groups.order]
    unsorted = (groups.ids[1:] == groups.ids[:-1]) & (given[1:] < given[:-1])
    # Every group's rows sorted by pc at once (stable: ties keep their order).
    rows = groups.order[np.lexsort((given, groups.ids))]
    pc, cost = pc[rows], cost[rows]
    # Vertices a rounding error apart are one vertex (segments of no real width).
    # Where a curve jumps (two rows at one pc, in the order the table gives them) it
    # reaches the vertex at the first row's cost and leaves it at the last row's.
    starts, ends, kept = grouped_runs(pc, groups.ids)
    arriving, leaving = cost[starts], cost[ends]
    jumps = np.abs(leaving - arriving) > COST_TOLERANCE
    if jumps.any() and unsorted.any():
        msg = (
            f"curve jumps at pc={float(pc[kept][np.flatnonzero(jumps)[0]])!r}, but its rows are "
            "not in pc order, so which cost comes first is unknown; sort it by pc (e.g. "
            "curve.sort_values('pc', kind='stable')) with the jump's costs in order"
        )
        raise CostchartError(msg)
    pc, group = pc[kept], groups.ids[kept]
    inside = group[1:] == group[:-1]

    def where(k: int) -> str:
        key = groups.keys[int(group[np.flatnonzero(inside)[k]])]
        return f"group {describe_group(by, key)}" if by else "curve"

    fpr, tpr = _segment_rates(pc, leaving, arriving, inside, where)
    columns = {col.PC_LO: pc[:-1][inside], col.PC_HI: pc[1:][inside], col.FPR: fpr, col.TPR: tpr}
    return assemble(groups, np.bincount(group[1:][inside], minlength=len(groups)), columns)


def _aliases(function: str, kwargs: dict) -> None:
    """``method=`` (deprecated) as ``averaging=``; ``"threshold"`` is ``"by_threshold"``."""
    method = take_alias(function, kwargs, "method", "averaging")
    if method is not ABSENT:
        kwargs["averaging"] = renamed_value(
            function,
            "method",
            method,
            "averaging",
            {"vertical": "vertical", "horizontal": "horizontal", "threshold": "by_threshold"},
        )


@deprecated_names(_aliases)
@checked
def roc_average(
    points,
    *,
    over: str | Sequence[str],
    averaging: str = "vertical",
    grid=None,
    by: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    """ROC-space averages of several ROC curves, for comparison with the cost average.

    ``averaging="vertical"`` averages TPR at fixed FPR values, ``"horizontal"`` FPR at
    fixed TPR values, ``"by_threshold"`` both rates at fixed thresholds (Fawcett's three
    averages; ``method=``, with ``"threshold"`` for ``"by_threshold"``, is the deprecated
    old spelling).
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
    averaging : {"vertical", "horizontal", "by_threshold"}, default "vertical"
        Which average: what is held fixed while the rates are averaged.
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
        ``averaging="by_threshold"``), ``fpr``, ``tpr`` (the means), ``fpr_lo``, ``fpr_hi``,
        ``fpr_sd``, ``tpr_lo``, ``tpr_hi``, ``tpr_sd`` (spread over the curves; the fixed
        coordinate has no spread) and ``n_curves``. Sorted by ``fpr``, ``tpr``.
    """
    # averaging= is checked by @checked; the kernels name each average by its fixed coordinate.
    method = {"by_threshold": "threshold"}.get(averaging, averaging)
    table = read_table(points, "points")
    over = check_over(table, over, "points")
    table, inferred, _ = points_groups(table, curves_by(by, over), declared=over)
    if method == "threshold" and col.THRESHOLD not in table.columns:
        msg = "averaging='by_threshold' needs a 'threshold' column (ROC points from roc_points)"
        raise CostchartError(msg)
    if method == "threshold":
        thresholds = table[col.THRESHOLD].to_numpy(np.float64, na_value=np.nan)
        if np.isnan(thresholds).any():
            msg = (
                f"column 'threshold' of points has {int(np.isnan(thresholds).sum())} NaN "
                "values; averaging='by_threshold' needs every point's threshold"
            )
            raise CostchartError(msg)
    grid = _check_grid(grid, method)
    by = [c for c in inferred if c not in over]
    groups = split_groups(table, by)
    curves = split_curves(table, groups, over)
    for _ in range(int(np.count_nonzero(curves.counts == 1))):
        warn(f"roc_average over {over} found one curve in a group; spreads are NaN")
    return _roc_average(table, groups, curves, method, grid)


def curves_by(by, over: list[str]) -> list[str] | None:
    """The columns telling the averaged curves apart: ``by=`` and ``over=`` together.

    None (read the table's own grouping) when ``by`` is None.
    """
    if by is None:
        return None
    by = normalize_by(by)
    return [*by, *(c for c in over if c not in by)]


def _roc_average(table: pd.DataFrame, groups: Groups, curves, method: str, grid) -> pd.DataFrame:
    """The average of every group's curves at its grid, all groups in one pass."""
    # Every curve is completed with the trivial classifiers (0, 0) ("always negative",
    # threshold +inf) and (1, 1) ("always positive", threshold -inf): they are always
    # available, so a curve is never held flat past its last point.
    n_groups = len(groups)
    keys, value_of = None, dict[float, object]()
    if method == "threshold":
        # Thresholds compared on exact keys (integers past 2**53 are not rounded into
        # ties), written back as the exact values.
        exact = threshold_values(table, "points")[curves.rows]
        given = np.zeros(0) if grid is None else grid
        keys, grid_keys = order_keys(exact, given)
        for k, v in ((keys, exact), (grid_keys, given)):
            value_of.update(zip(k.tolist(), v.tolist(), strict=True))
        grid = None if grid is None else grid_keys
    if grid is not None:
        fixed = given_grid(grid[::-1] if method == "threshold" else grid, n_groups)
    else:
        own = {"vertical": col.FPR, "horizontal": col.TPR, "threshold": col.THRESHOLD}[method]
        values = table[own].to_numpy(np.float64)[curves.rows] if keys is None else keys
        group = curves.group[curves.curve]
        if method != "threshold":  # the trivial classifiers' 0 and 1
            every = np.arange(n_groups)
            values = np.r_[values, np.zeros(n_groups), np.ones(n_groups)]
            group = np.r_[group, every, every]
        fixed = own_grid(values, group, n_groups, descending=method == "threshold")
    queries = queries_of(curves, fixed)
    fpr, tpr = rates_at_grid(table, curves, fixed, queries, method, keys)
    threshold = np.full(len(fixed.value), np.nan)
    if keys is not None:  # each key's exact value
        threshold = exact_column(np.array([value_of[k] for k in fixed.value.tolist()], object))
    columns = summary_columns(fixed, curves, queries, fpr, tpr, threshold)
    return assemble(groups, fixed.size, {c: columns[c] for c in col.ROC_AVERAGE_TABLE})


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
        # Whole numbers past 2**53 kept exact (a list of them and floats, as given).
        return exact_column(grid if isinstance(grid, np.ndarray) else np.array(grid, object))
    rate = "FPR" if method == "vertical" else "TPR"
    return probabilities(values, f"grid ({rate} values)")
