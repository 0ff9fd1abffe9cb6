"""The envelope of the classifiers a reader picks, recomputed in the page (``combined=True``).

The lower envelope of several classifiers together is the pointwise minimum of their
envelopes, and its dual in ROC space is the convex hull of their points together. Which
classifiers count is the reader's choice, made in the chart's legend, so the minimum is
taken in the page, by Vega-Lite transforms alone; it stays exact because of the table
made here (:func:`combined_grid`):

- per panel, a grid of ``pc`` values holding every curve's envelope vertices and every
  point where two curves' envelopes cross;
- one row per curve and grid value: the curve's envelope there (``cost``), at the
  midpoint of the interval to the next grid value (:data:`MID_COST`), and the ROC point
  (``fpr``, ``tpr``) of the hull vertex the curve uses on that interval (at ``pc = 1``,
  the always-positive classifier (1, 1), optimal there for every curve).

Between two grid values every envelope is linear and no two of them cross, so the
minimum over any set of curves is linear there too: the page's ``min(cost)`` per grid
value (:func:`combined_envelope`) draws the combined envelope exactly. On each interval
the curve with the least midpoint cost is the one on the combined envelope, and its hull
vertex is a vertex of the combined hull: those vertices with (0, 0) and (1, 1), in order,
are the hull of the classifiers shown (:func:`combined_hull`).

The legend picks values of ``color=``, so the curves of one value (its folds, say) are
always shown together: each value counts as one curve, the envelope of all its points.
Without ``color=`` there is no legend, and the layers draw the envelope and hull of every
curve in the panel.
"""

from __future__ import annotations

import json

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart._charts._drawn import ChartTables
from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._vega import field
from costchart.layers._base import INK, cost_y, fpr_x, pc_x, tpr_y

__all__ = [
    "COMBINED_ENVELOPE",
    "COMBINED_HULL",
    "MAX_COMBINED_ROWS",
    "MID_COST",
    "combined_envelope",
    "combined_grid",
    "combined_hull",
]

#: The column holding each curve's cost at the midpoint of the interval to the next row.
MID_COST = "costchart_mid_cost"
#: The field tagging the drawn rows of the two layers (pages and tests find them by it).
LAYER_TAG = "costchart_combined"
#: The key's words for the two layers.
COMBINED_ENVELOPE = "lower envelope of the classifiers shown"
COMBINED_HULL = "ROC convex hull of the classifiers shown"
#: Grid values closer than this to another are one (a crossing at a vertex, in rounding).
_SAME_PC = 1e-12
#: Rows of the table at most: curves x grid values per panel grow with the square of the
#: curves a panel holds (every pair may cross), and every row goes into the page.
MAX_COMBINED_ROWS = 60_000
#: The look of both layers: dark, thick and dashed, over the classifiers' own colours.
STYLE = {"color": INK, "strokeWidth": 3.0, "strokeDash": [7, 4], "clip": True}


def combined_grid(
    tables: ChartTables, *, color: str | None, facet: str | None, hull: bool = True
) -> pd.DataFrame:
    """One row per curve and grid value of its panel: the table both layers reduce.

    Returns the ``color`` and ``facet`` columns (those given), ``pc``, ``cost`` and, with
    ``hull`` (the linked chart draws it), :data:`MID_COST`, ``fpr``, ``tpr``; all float64
    and unrounded, panel after panel, each curve's rows in increasing ``pc`` from 0 to 1.
    """
    exact = tables.exact_envelope
    if exact is None:  # pragma: no cover - drawn_tables always sets it
        msg = "the chart's tables carry no exact envelope"
        raise CostchartError(msg)
    keep = [c for c in tables.by if c in (color, facet)]
    if keep != tables.by:
        # The legend picks whole colour values: the curves of one (folds, say) are always
        # shown together, so each counts as one curve, the envelope of all their points.
        exact = _union_envelopes(exact, keep)
    by = keep
    panel_of = (
        exact.groupby(facet, sort=False, dropna=False).ngroup().to_numpy()
        if facet
        else np.zeros(len(exact), dtype=np.int64)
    )
    rows = 0
    parts: list[pd.DataFrame] = []
    for _, in_panel in exact.groupby(panel_of, sort=False):
        part = []
        for key, curve in (
            in_panel.groupby(by, sort=False, dropna=False) if by else [((), in_panel)]
        ):
            values = dict(zip(by, key if isinstance(key, tuple) else (key,), strict=True))
            part.append(([values[c] for c in keep], curve))
        grid = _grid([curve for _, curve in part])
        rows += len(part) * len(grid)
        if rows > MAX_COMBINED_ROWS:
            msg = (
                f"combined=True needs more than {MAX_COMBINED_ROWS:,} rows for this chart "
                f"(every curve at every vertex and crossing of its panel's {len(part)} "
                "curves); put fewer classifiers in a panel (facet= or filter the points), "
                "or pass combined=False"
            )
            raise CostchartError(msg)
        parts.extend(_rows(values, keep, curve, grid) for values, curve in part)
    columns = [*keep, col.PC, col.COST, *((MID_COST, col.FPR, col.TPR) if hull else ())]
    if not parts:  # pragma: no cover - a chart has at least one curve
        return pd.DataFrame(columns=columns)
    return pd.concat(parts, ignore_index=True)[columns]


def _union_envelopes(exact: pd.DataFrame, keep: list[str]) -> pd.DataFrame:
    """The envelope of each ``keep`` value's curves together: of their envelopes' vertices.

    :func:`costchart.lower_envelope` of the vertices (ROC points) of each value's curves,
    pooled: a set operation.
    """
    # The vertices are ROC points (a new table: the envelope's columns are not a points table).
    vertices = pd.DataFrame({c: exact[c].to_numpy() for c in [*keep, col.FPR, col.TPR]})
    return cc.lower_envelope(vertices, by=keep)[[*keep, col.PC, col.COST, col.FPR, col.TPR]]


def _arrays(curve: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A curve's envelope vertices: ``pc``, ``cost`` and the active vertex's rates."""
    pc, cost, fpr, tpr = (
        curve[c].to_numpy(np.float64) for c in (col.PC, col.COST, col.FPR, col.TPR)
    )
    return pc, cost, fpr, tpr


def _grid(curves: list[pd.DataFrame]) -> np.ndarray:
    """Every curve's vertices and every crossing of two curves, sorted, in [0, 1]."""
    vertices = np.unique(np.concatenate([curve[col.PC].to_numpy(np.float64) for curve in curves]))
    costs = np.array([np.interp(vertices, pc, cost) for pc, cost, _, _ in map(_arrays, curves)])
    crossings = []
    for first in range(len(curves) - 1):
        # Both curves are linear between vertices: a change of sign inside an interval
        # is one crossing, found by linear interpolation.
        gap = costs[first + 1 :] - costs[first]
        pair, left = np.nonzero(gap[:, :-1] * gap[:, 1:] < 0)
        low, high = gap[pair, left], gap[pair, left + 1]
        width = vertices[left + 1] - vertices[left]
        crossings.append(vertices[left] + low / (low - high) * width)
    between = np.unique(np.concatenate([np.empty(0), *crossings]))
    # A crossing within rounding of a vertex (or of another crossing) adds nothing but a
    # sliver of an interval, whose midpoint could pick a vertex off the combined hull.
    right = np.clip(np.searchsorted(vertices, between), 0, len(vertices) - 1)
    left = np.clip(right - 1, 0, None)
    apart = np.minimum(np.abs(between - vertices[left]), np.abs(vertices[right] - between))
    between = between[apart > _SAME_PC]
    between = between[np.concatenate([[True], np.diff(between) > _SAME_PC])[: len(between)]]
    return np.union1d(vertices, between)


def _rows(values: list, keep: list[str], curve: pd.DataFrame, grid: np.ndarray) -> pd.DataFrame:
    """One curve's envelope at the grid: cost, midpoint cost and active hull vertex."""
    pc, cost, fpr, tpr = _arrays(curve)
    middle = np.append((grid[:-1] + grid[1:]) / 2, grid[-1])
    # The vertex active on [grid[i], grid[i + 1]): the last envelope row at or before it.
    active = np.clip(np.searchsorted(pc, grid, side="right") - 1, 0, len(pc) - 1)
    vertex_fpr, vertex_tpr = fpr[active], tpr[active]
    vertex_fpr[-1] = vertex_tpr[-1] = 1.0  # pc = 1: always positive, costing 0 there
    frame = pd.DataFrame(
        {
            col.PC: grid,
            col.COST: np.interp(grid, pc, cost),
            MID_COST: np.interp(middle, pc, cost),
            col.FPR: vertex_fpr,
            col.TPR: vertex_tpr,
        }
    )
    for name, value in zip(keep, values, strict=True):
        frame.insert(keep.index(name), name, value)
    return frame


def _shown(chart: alt.Chart, legend) -> alt.Chart:
    """``chart`` keeping the rows of the classifiers the legend shows (all, when none)."""
    if legend is None:
        return chart
    return chart.transform_filter({"param": str(legend.name), "empty": True})


def _per_grid_value(chart: alt.Chart, op: str, column: str, name: str, facet) -> alt.Chart:
    """``chart`` reduced to one row per panel and grid value: ``op`` of ``column``."""
    reduced = alt.AggregatedFieldDef.from_dict({"op": op, "field": column, "as": name})
    panel = [field(facet)] if facet else []
    return chart.transform_aggregate([reduced], groupby=[*panel, col.PC])


def combined_envelope(grid: pd.DataFrame, *, facet, legend, y_max: float) -> alt.Chart:
    """The cost view's layer: the least cost of the curves shown at each grid value."""
    chart = _per_grid_value(_shown(alt.Chart(grid), legend), "min", col.COST, col.COST, facet)
    return (
        chart.transform_calculate(**{LAYER_TAG: json.dumps("envelope")})
        .mark_line(**STYLE)
        .encode(x=pc_x(), y=cost_y(y_max), order=alt.Order(f"{col.PC}:Q"))
    )


def combined_hull(grid: pd.DataFrame, *, facet, legend) -> alt.Chart:
    """The ROC view's layer: the hull vertex winning each interval, with (0, 0) and (1, 1).

    Each grid value's winner (least midpoint cost) is folded into two rows, the second of
    which is the corner (0, 0) on the first interval; ordered by ``fpr + tpr``, which
    grows along a hull from (0, 0) to (1, 1), they draw the hull.
    """
    winner = "costchart_winner"
    corner = f"(datum.costchart_copy === 'costchart_corner' && datum.{col.PC} === 0)"
    chart = (
        _per_grid_value(_shown(alt.Chart(grid), legend), "argmin", MID_COST, winner, facet)
        .transform_calculate(costchart_vertex="0", costchart_corner="0")
        .transform_fold(
            ["costchart_vertex", "costchart_corner"], as_=["costchart_copy", "costchart_value"]
        )
        .transform_calculate(
            **{
                col.FPR: f"{corner} ? 0 : datum.{winner}.{col.FPR}",
                col.TPR: f"{corner} ? 0 : datum.{winner}.{col.TPR}",
            }
        )
        .transform_calculate(
            costchart_along=f"datum.{col.FPR} + datum.{col.TPR}",
            **{LAYER_TAG: json.dumps("hull")},
        )
    )
    return chart.mark_line(**STYLE).encode(
        x=fpr_x(), y=tpr_y(), order=alt.Order("costchart_along:Q")
    )
