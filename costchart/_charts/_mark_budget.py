"""The mark budget of charts of many curves and points: which cost lines are drawn.

A panel of many points draws the cost lines of its hull vertices and a sample of the
others (:func:`hull_lines`, :func:`lines_sampled`, :func:`hull_only`); a crowded panel
draws them only for the curves hovered, clicked (:func:`curve_selections`) or picked in
the legend (:func:`chosen_curves`).
"""

from __future__ import annotations

import altair as alt

from costchart._charts._drawn import MAX_ALL_COST_LINES, SHOWN, ChartTables
from costchart._io import schema as col
from costchart._vega import field

__all__ = [
    "chosen_curves",
    "curve_selections",
    "filtered_first",
    "hull_lines",
    "hull_only",
    "lines_sampled",
]


def lines_sampled(tables: ChartTables) -> bool:
    """Whether a panel of many points draws only some of its cost lines."""
    return SHOWN in tables.points.columns


def hull_only(tables: ChartTables, cost_lines: str) -> bool:
    """Whether only hull vertices get cost lines, ROC dots and hover targets."""
    return cost_lines == "hull" or tables.crowded or len(tables.points) > MAX_ALL_COST_LINES


def curve_selections(tables: ChartTables, name: str) -> tuple | None:
    """A crowded chart's selections of whole curves: the one hovered, the ones clicked.

    ``<name>_curve`` holds the curve under the pointer, ``<name>_picked`` the curves
    clicked (shift-click adds one, a double click clears them). None when the chart is not
    crowded, where every curve's cost lines are drawn anyway.
    """
    if not tables.crowded:
        return None
    fields = [field(c) for c in tables.by]
    hovered = alt.selection_point(
        name=f"{name}_curve",
        fields=fields,
        on="pointerover",
        clear="pointerout",
        nearest=False,
        empty=False,
    )
    picked = alt.selection_point(name=f"{name}_picked", fields=fields, on="click", empty=False)
    return hovered, picked


def chosen_curves(curves: tuple, legend) -> dict:
    """The filter keeping the rows of the curves hovered, clicked or picked in the legend.

    With nothing selected it keeps nothing: a static image of a crowded chart draws no
    cost lines.
    """
    chosen = [*curves, *([legend] if legend is not None else [])]
    return {"or": [{"param": str(selection.name), "empty": False} for selection in chosen]}


def hull_lines(chart: alt.Chart, tables: ChartTables, cost_lines: str) -> alt.Chart:
    """Keep only hull vertices' cost lines (and their hover targets) when asked or many.

    With many points in a panel, a sample of the others besides the hull vertices. The
    ROC curves still pass through every drawn point.
    """
    if hull_only(tables, cost_lines):
        return filtered_first(chart, f"datum.{col.ON_HULL}")
    if lines_sampled(tables):
        return filtered_first(chart, f"datum.{SHOWN}")
    return chart


def filtered_first(chart: alt.Chart, predicate) -> alt.Chart:
    """``chart`` keeping only rows that pass ``predicate``, tested before its own transforms.

    Filtering first spares the transforms (e.g. a cost line's ends) the rows left out.
    """
    copy = chart.copy(deep=False)
    own = [] if chart.transform is alt.Undefined else list(chart.transform)
    copy.transform = [alt.FilterTransform(filter=predicate), *own]
    return copy
