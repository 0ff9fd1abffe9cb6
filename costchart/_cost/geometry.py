"""What the charts draw besides the data: trivial classifiers, iso-performance lines, cuts.

These transformers hold the geometry the layers used to compute themselves, so every
drawn shape is a table that can be checked:

- :func:`trivial_lines` and :func:`trivial_region`: the two trivial classifiers' cost
  lines and the region above them, cut at the top of the cost axis;
- :func:`iso_performance_lines`: the iso-performance line of each ``pc`` through the
  optimal vertex of each group's ROC convex hull, inside the unit square;
- :func:`cut_curve`: a piecewise-linear cost curve cut at the top of the axis, with the
  crossing points added and a gap (missing cost) where it leaves the axis;
- :func:`cost_top` and :func:`fitted_top`: the top of the cost axis, ``y_max``, given or
  (``y_max=None``, the default) fitted to the cost curves drawn.

Keys (e.g. one row per facet value) repeat a table for each panel.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.frames import infer_by
from costchart._io.groups import split_groups
from costchart._io.tables import numbers
from costchart._io.validation import unit_top
from costchart._roc.optimal import vertex_mask

__all__ = [
    "COST_TOP",
    "cost_top",
    "cut_curve",
    "fitted_top",
    "iso_performance_lines",
    "repeat_for",
    "trivial_lines",
    "trivial_region",
]

#: Name of the trivial classifiers, as drawn and in tooltips.
ALWAYS_NEGATIVE, ALWAYS_POSITIVE = "always negative", "always positive"


def check_y_max(y_max) -> float:
    """``y_max`` as a float in (0, 1], or a :class:`~costchart.CostchartError`."""
    return unit_top(y_max, "y_max")


#: The top of the cost axis where no cost curve is drawn, and the most a fitted top
#: reaches: the papers' 0.5. Every envelope is under it (a trivial classifier costs at
#: most ``min(pc, 1 - pc)``); a band's upper edge may pass it and is cut there.
COST_TOP = 0.5
#: The fitted top's headroom over the highest cost drawn, as a share of that cost.
_HEADROOM = 0.1
#: The fitted top is a multiple of 0.05 up to 0.3, of 0.1 above: a readable tick.
_FINE_STEP, _COARSE_STEP, _FINE_UP_TO = 0.05, 0.1, 0.3


def fitted_top(*costs) -> float:
    """The top of the cost axis fitted to the cost curves drawn (what ``y_max=None`` means).

    The highest finite cost in ``costs`` (the envelopes' costs; a band's upper edge, an
    average's spread) plus a tenth of it, rounded up to a readable tick: a multiple of
    0.05 up to 0.3, of 0.1 above; at least 0.05, at most :data:`COST_TOP` (0.5). With no
    finite cost, 0.5. Cost lines are not fitted: each spans every ``pc`` and is cut.

    Examples
    --------
    >>> fitted_top([0.0, 0.149, 0.12])  # 0.164 rounds up to 0.2
    0.2
    >>> fitted_top([0.0, 0.0])  # a perfect classifier
    0.05
    >>> fitted_top([0.26]), fitted_top([0.1, 0.3]), fitted_top([0.1], [0.9]), fitted_top([])
    (0.3, 0.4, 0.5, 0.5)
    """
    arrays = [np.asarray(c, dtype=np.float64).ravel() for c in costs]
    values = np.concatenate(arrays) if arrays else np.empty(0)
    values = values[np.isfinite(values)]
    if values.size == 0:
        return COST_TOP
    wanted = max(float(values.max()), 0.0) * (1.0 + _HEADROOM)
    step = _FINE_STEP if wanted <= _FINE_UP_TO else _COARSE_STEP
    top = round(np.ceil(wanted / step - 1e-9) * step, 2)
    return float(min(max(top, _FINE_STEP), COST_TOP))


def cost_top(y_max, *costs) -> float:
    """``y_max`` checked, or for ``None`` the top fitted to ``costs`` (:func:`fitted_top`).

    ``costs`` are what the caller draws of cost curves (none: the top is 0.5).

    Examples
    --------
    >>> cost_top(None, [0.04]), cost_top(0.3, [0.04]), cost_top(None)
    (0.05, 0.3, 0.5)
    """
    return fitted_top(*costs) if y_max is None else check_y_max(y_max)


def repeat_for(table: pd.DataFrame, panels: pd.DataFrame | None) -> pd.DataFrame:
    """``table`` once per row of ``panels`` (e.g. per facet value), or as it is."""
    if panels is None:
        return table
    if not isinstance(panels, pd.DataFrame):
        msg = (
            f"facet= must be a pandas DataFrame of facet values (one row per panel); got {panels!r}"
        )
        raise CostchartError(msg)
    if panels.empty:
        return table
    clash = [c for c in panels.columns if c in table.columns]
    if clash:
        msg = f"facet= has the column {clash[0]!r}, which the layer's own rows use; rename it"
        raise CostchartError(msg)
    return panels.drop_duplicates().merge(table, how="cross")


def trivial_lines(y_max: float = 0.5, panels: pd.DataFrame | None = None) -> pd.DataFrame:
    """The visible parts (cost <= ``y_max``) of the two trivial classifiers' cost lines.

    Always-negative costs ``pc``; always-positive costs ``1 - pc``.

    Returns
    -------
    pandas.DataFrame
        ``trivial`` (``"always negative"`` / ``"always positive"``), ``pc``, ``cost``:
        two rows per line, its ends inside the axis.

    Examples
    --------
    >>> trivial_lines(0.25)
               trivial    pc  cost
    0  always negative  0.00  0.00
    1  always negative  0.25  0.25
    2  always positive  0.75  0.25
    3  always positive  1.00  0.00
    """
    top = check_y_max(y_max)
    rows = pd.DataFrame(
        {
            "trivial": [ALWAYS_NEGATIVE] * 2 + [ALWAYS_POSITIVE] * 2,
            col.PC: [0.0, top, 1.0 - top, 1.0],
            col.COST: [0.0, top, top, 0.0],
        }
    )
    return repeat_for(rows, panels)


def trivial_region(y_max: float = 0.5, panels: pd.DataFrame | None = None) -> pd.DataFrame:
    """The region between ``min(pc, 1 - pc)`` and the top of the axis, cut at ``y_max``.

    A classifier whose cost falls there is beaten by a trivial classifier. Where
    ``min(pc, 1 - pc)`` is above ``y_max`` the region has no height.

    Returns
    -------
    pandas.DataFrame
        ``pc``, ``cost`` (the region's lower edge) and ``top`` (= ``y_max``).

    Examples
    --------
    >>> trivial_region(0.25)
         pc  cost   top
    0  0.00  0.00  0.25
    1  0.25  0.25  0.25
    2  0.75  0.25  0.25
    3  1.00  0.00  0.25
    """
    top = check_y_max(y_max)
    pc = np.array([0.0, top, 1.0 - top, 1.0]) if top < 0.5 else np.array([0.0, 0.5, 1.0])
    cost = np.minimum(np.minimum(pc, 1 - pc), top)
    rows = pd.DataFrame({col.PC: pc, col.COST: cost, "top": top})
    return repeat_for(rows, panels)


def cut_curve(
    table: pd.DataFrame, *, y_max: float, columns: Sequence[str] = (col.COST,), by=None
) -> pd.DataFrame:
    """A piecewise-linear curve against ``pc``, cut where it leaves ``[0, y_max]``.

    Where a segment crosses ``y_max`` the crossing point is added; points above it keep
    their ``pc`` but lose their value (NaN), so a line drawn through the rows stops at the
    top of the axis and resumes where the curve comes back, instead of running along it.

    Parameters
    ----------
    table : pandas.DataFrame
        Rows in ``pc`` order within each group.
    y_max : float
        Top of the axis.
    columns : list of str
        The value columns cut (the first decides the crossings; the others are
        interpolated there and blanked with it).
    by : list of str, optional
        Grouping columns; by default those of ``table``.

    Examples
    --------
    >>> import pandas as pd
    >>> curve = pd.DataFrame({"pc": [0.0, 0.5, 1.0], "cost": [0.0, 0.4, 0.0]})
    >>> cut_curve(curve, y_max=0.2)
         pc  cost
    0  0.00   0.0
    1  0.25   0.2
    2  0.50   NaN
    3  0.75   0.2
    4  1.00   0.0
    """
    top = check_y_max(y_max)
    by = infer_by(table, None) if by is None else list(by)
    if table.empty:
        return table.copy()
    # As every reader: booleans, categories and text are no numbers (True is no cost of 1).
    value = numbers(table, columns[0], "the table")
    pc = numbers(table, col.PC, "the table")
    # split_groups refuses values that cannot label groups (e.g. lists).
    group = split_groups(table, by).row_ids
    above = value > top
    same_group = group[1:] == group[:-1]
    crossing = same_group & (above[1:] != above[:-1])
    if not crossing.any() and not above.any():
        return table.reset_index(drop=True)
    # Insert after row i (of a crossing segment i -> i + 1) the point where it meets y_max.
    after = np.flatnonzero(crossing)
    share = (top - value[after]) / (value[after + 1] - value[after])
    inserted = table.iloc[after].copy()
    inserted[col.PC] = pc[after] + share * (pc[after + 1] - pc[after])
    for name in columns:
        values = table[name].to_numpy(np.float64)
        inserted[name] = values[after] + share * (values[after + 1] - values[after])
    inserted[columns[0]] = top
    blanked = table.copy()
    blanked.loc[blanked.index[above], list(columns)] = np.nan
    order = np.concatenate([np.arange(len(table), dtype=np.float64), after + 0.5])
    combined = pd.concat([blanked, inserted], ignore_index=True)
    return combined.iloc[np.argsort(order, kind="stable")].reset_index(drop=True)


def iso_performance_lines(hull: pd.DataFrame, pc: Sequence[float]) -> pd.DataFrame:
    """The iso-performance line of each ``pc`` through each group's optimal hull vertex.

    The line has slope ``m = (1 - pc) / pc`` in ROC space and touches the hull at the
    vertex used at ``pc`` (:data:`costchart._roc.optimal.RULE`: where two are optimal, the one
    active to the right of ``pc``). It is cut to the unit square.

    Parameters
    ----------
    hull : pandas.DataFrame
        A table from :func:`costchart.roc_hull` (``fpr``, ``tpr``, ``pc_lo``, ``pc_hi``),
        possibly with grouping columns.
    pc : list of float
        Operating points in [0, 1], one line each.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, ``pc``, ``slope``, ``fpr``, ``tpr``: two rows per group and
        ``pc``, the ends of the line inside the square.

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [3, 2, 1], "y": [1, 0, 1]}, score="s", label="y")
    >>> iso_performance_lines(cc.roc_hull(points), [0.5]).round(3)
        pc  slope  fpr  tpr
    0  0.5    1.0  0.0  0.5
    1  0.5    1.0  0.5  1.0
    """
    values = np.atleast_1d(np.asarray(pc, dtype=np.float64))
    with np.errstate(divide="ignore"):
        slopes = (1 - values) / values
    by = [c for c in infer_by(hull, None) if c != col.ON_HULL]
    group = (
        hull.groupby(by, sort=False, dropna=False).ngroup().to_numpy()
        if by
        else np.zeros(len(hull), dtype=np.int64)
    )
    n_groups = int(group.max()) + 1 if len(hull) else 0
    covers = vertex_mask(
        numbers(hull, col.PC_LO, "the hull"), numbers(hull, col.PC_HI, "the hull"), values
    )
    rows, which = [], []
    for j in range(len(slopes)):
        hits = np.flatnonzero(covers[:, j])
        first = np.full(n_groups, -1)
        # The first covering vertex of each group in hull order.
        first[group[hits][::-1]] = hits[::-1]
        if (first < 0).any():
            missing = int(np.flatnonzero(first < 0)[0])
            row = int(np.flatnonzero(group == missing)[0])
            key = tuple(hull[by].iloc[row]) if by else ()
            msg = (
                f"no vertex of the hull {key!r} is optimal at pc={values[j]:g} (slope "
                f"{slopes[j]:g}): its pc_lo/pc_hi do not cover [0, 1]; pass a table "
                "from roc_hull"
            )
            raise CostchartError(msg)
        rows.append(first)
        which.append(np.full(n_groups, j))
    vertex = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    line = np.concatenate(which) if which else np.zeros(0, dtype=np.int64)
    x0 = numbers(hull, col.FPR, "the hull")[vertex]
    y0 = numbers(hull, col.TPR, "the hull")[vertex]
    m = slopes[line]
    with np.errstate(divide="ignore", invalid="ignore"):
        x_low = np.where(m == 0, 0.0, np.maximum(0.0, x0 - y0 / m))
        x_high = np.where(m == 0, 1.0, np.minimum(1.0, x0 + (1 - y0) / m))
        y_low = np.where(np.isinf(m), 0.0, y0 + m * (x_low - x0))
        y_high = np.where(np.isinf(m), 1.0, y0 + m * (x_high - x0))
    vertical = np.isinf(m)
    x_low = np.where(vertical, x0, x_low)
    x_high = np.where(vertical, x0, x_high)
    # Group after group, each group's lines in the order of ``pc``.
    group_of_line = np.tile(np.arange(n_groups), len(slopes))
    order = np.argsort(np.repeat(group_of_line * len(slopes) + line, 2), kind="stable")
    keys = hull[by].iloc[np.repeat(vertex, 2)].reset_index(drop=True) if by else pd.DataFrame()
    result = pd.concat(
        [
            keys,
            pd.DataFrame(
                {
                    col.PC: np.repeat(values[line], 2),
                    col.SLOPE: np.repeat(m, 2),
                    col.FPR: np.column_stack([x_low, x_high]).ravel(),
                    col.TPR: np.clip(np.column_stack([y_low, y_high]).ravel(), 0.0, 1.0),
                }
            ),
        ],
        axis=1,
    )
    return result.iloc[order].reset_index(drop=True)
