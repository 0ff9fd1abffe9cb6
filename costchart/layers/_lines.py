"""What cost-line layers draw: ROC points thinned for drawing, and the visible parts of lines.

Shared by :mod:`costchart.layers.cost`, :mod:`costchart.layers.markers` (hybrid lines) and
:mod:`costchart.layers.interaction` (hover targets at the lines' ends).
"""

from __future__ import annotations

import altair as alt
import pandas as pd

import costchart as cc
from costchart._cost import geometry as geometry
from costchart._io import schema as col
from costchart._io.groups import split_groups
from costchart._io.validation import whole_number
from costchart.layers._base import details

__all__ = ["MAX_LAYER_POINTS", "POINT_TIPS", "line_ends_chart", "lines_chart", "thinned"]

#: Tooltip fields of a ROC point or its cost line: (column, type, title).
POINT_TIPS = (
    (col.THRESHOLD, "N", "threshold"),
    (col.FPR, "Q", "FPR"),
    (col.TPR, "Q", "TPR"),
    (col.RANGE_LO, "Q", "operating range from pc"),
    (col.RANGE_HI, "Q", "operating range to pc"),
)

#: Points a layer draws in all before thinning: Altair refuses inline data above 5,000.
MAX_LAYER_POINTS = 3_000


def thinned(table: pd.DataFrame, max_points, color, detail) -> pd.DataFrame:
    """ROC points thinned to about ``max_points`` per curve (hull vertices always kept).

    Tables from the ready charts (with a ``line`` column) are thinned already; ``None``
    keeps every point.
    """
    if max_points is None or col.LINE in table.columns:
        return table
    max_points = whole_number(max_points, "max_points", minimum=2)
    by = ([color] if color else []) + details(table, color, detail)
    groups = split_groups(table, by)  # refuses cells that cannot group (lists, arrays)
    curves = max(len(groups), 1)
    per_curve = min(max_points, max(10, MAX_LAYER_POINTS // curves))
    if max((len(g.positions) for g in groups), default=0) <= per_curve:
        return table
    return cc.thin_points(table, max_points=per_curve, by=by)


def _visible_lines(table: pd.DataFrame, y_max: float) -> tuple[alt.Chart, dict[str, str]]:
    """The lines with some part under ``y_max``, and where that part starts and ends.

    Returns the chart (one row per line) and the Vega expressions of the visible part's
    ends: ``pc_start``, ``pc_end`` (where a line meets ``y_max``, if it does) and the
    rows' ``fpr`` (cost at pc 0) and ``fnr`` (cost at pc 1).
    """
    chart = alt.Chart(table)
    if col.PC in table.columns:  # a cost-lines table: one row per line is enough
        chart = chart.transform_filter(f"datum.{col.PC} == 0")
    fpr, fnr = f"datum.{col.FPR}", f"(1 - datum.{col.TPR})"
    crossing = f"({y_max} - {fpr}) / ({fnr} - {fpr})"  # pc where the line meets y_max
    ends = {
        "fpr": fpr,
        "fnr": fnr,
        "pc_start": f"{fpr} <= {y_max} ? 0 : {crossing}",
        "pc_end": f"{fnr} <= {y_max} ? 1 : {crossing}",
    }
    return chart.transform_filter(f"{fpr} <= {y_max} || {fnr} <= {y_max}"), ends


def lines_chart(table: pd.DataFrame, y_max: float) -> alt.Chart:
    """A chart of cost lines made from the rates, cut off at ``cost = y_max``.

    Each ROC point (or each line of a cost-lines table) becomes two rows, the ends of the
    visible part of its line. Cutting in the data rather than clipping the marks matters:
    Vega clips every line separately, which makes image export of a few thousand lines
    take minutes. Lines wholly above ``y_max`` are dropped.
    """
    chart, ends = _visible_lines(table, y_max)
    # Fold rather than flatten: Vega-Lite 6.4 overflows its stack on flatten inside a
    # faceted layer.
    return (
        chart.transform_calculate(costchart_at_0=ends["fpr"], costchart_at_1=ends["fnr"])
        .transform_fold(
            ["costchart_at_0", "costchart_at_1"], as_=["costchart_end", "costchart_raw"]
        )
        .transform_calculate(
            **{
                col.PC: (
                    "datum.costchart_end == 'costchart_at_0' ? "
                    f"({ends['pc_start']}) : ({ends['pc_end']})"
                ),
                col.COST: f"min(datum.costchart_raw, {y_max})",
            }
        )
    )


def line_ends_chart(table: pd.DataFrame, y_max: float) -> alt.Chart:
    """As :func:`lines_chart`, one row per line holding both ends of its visible part.

    For marks that draw a line as one item (a rule): a line mark of two rows is two items,
    and Vega gives the pointer the tooltip of the item nearest along x, which is often none
    of the line's (the hover targets showed their tooltip at 1 in 20 positions near a line).
    """
    chart, ends = _visible_lines(table, y_max)
    return chart.transform_calculate(
        costchart_pc_start=ends["pc_start"],
        costchart_cost_start=f"min({ends['fpr']}, {y_max})",
        costchart_pc_end=ends["pc_end"],
        costchart_cost_end=f"min({ends['fnr']}, {y_max})",
    )
