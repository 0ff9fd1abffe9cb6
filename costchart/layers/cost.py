"""Layers of cost space: cost lines, the lower envelope, the trivial classifiers, rules.

Every mark is cut at the top of the cost axis (``y_max``) in the data, not clipped when
drawn: zoomed charts stay their size, and image export of thousands of lines stays fast.
The markers of chosen operating points and classifiers (``pc`` markers, selected
classifiers, hybrid curves) are in :mod:`costchart.layers.markers`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart._cost import geometry as geometry
from costchart._cost.geometry import cut_curve, trivial_lines
from costchart._io import schema as col
from costchart._io.groups import split_groups
from costchart._io.validation import whole_number
from costchart._vega import nominal
from costchart.layers._base import (
    INK,
    MUTED,
    REGION,
    TRIVIAL,
    build,
    check_y_max,
    cost_y,
    details,
    pc_x,
    read,
)

__all__ = [
    "cost_lines",
    "envelope",
    "lines_chart",
    "operating_ranges",
    "thinned",
    "trivial",
    "trivial_region",
]

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


def cost_lines(
    table,
    *,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    palette: Mapping | None = None,
    hover=None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    y_max: float = 0.5,
    max_points: int | None = 100,
) -> alt.Chart:
    """Thin, muted cost lines, one per ROC point; a hovered line turns bold.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        ROC points (each becomes its line) or a cost-lines table from
        :func:`costchart.to_cost_lines`.
    color, detail : str, optional
        Columns that tell classifiers / curves apart (see :mod:`costchart.layers`).
    palette : dict, optional
        Colours of ``color``'s values (see :func:`costchart._palette`).
    hover, legend : altair.Parameter, optional
        Selections to react to: the hovered line is bold, classifiers not picked in the
        legend fade.
    tooltip : None, False or list of str
        The layer's own tooltip, none, or these columns.
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    y_max : float
        Top of the cost axis (0.5 as in the papers; 1 shows all of every line).
    max_points : int or None
        Points (lines) kept per curve, hull vertices always (see
        :func:`costchart.thin_points`); ``None`` keeps all.

    Examples
    --------
    >>> import costchart as cc
    >>> from costchart import layers
    >>> points = cc.roc_points({"s": [3, 2, 1], "y": [1, 0, 1]}, score="s", label="y")
    >>> layers.cost_lines(points, y_max=1).to_dict()["mark"]["type"]
    'line'
    """
    table = read(table, [col.FPR, col.TPR], "cost_lines", color=color)
    y_max = check_y_max(y_max)
    table = thinned(table, max_points, color, detail)
    names = details(table, color, detail)
    line = [col.LINE] if col.LINE in table.columns else []
    if not line and col.PC not in table.columns:
        table = table.assign(**{col.LINE: np.arange(len(table))})
        line = [col.LINE]
    width = alt.when(hover).then(alt.value(3.0)).otherwise(alt.value(0.8)) if hover else None
    encoding: dict[str, object] = {"x": pc_x(), "y": cost_y(y_max)}
    if width is not None:
        encoding["strokeWidth"] = width
    return build(
        lines_chart(table, y_max),
        table,
        mark="line",
        style={"strokeWidth": 0.8},
        encoding=encoding,
        color=color,
        fallback=MUTED,
        palette=palette,
        detail=[*names, *line],
        legend=legend,
        hover=hover,
        opacity="strokeOpacity",
        base_opacity=0.25,
        fields=POINT_TIPS,
        tooltip=tooltip,
        overrides=mark,
    )


def envelope(
    table,
    *,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    palette: Mapping | None = None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    y_max: float = 0.5,
) -> alt.Chart:
    """The lower envelope (or any cost curve), drawn bold and cut at ``y_max``.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.lower_envelope` (or another ``pc``, ``cost`` curve:
        a vertical average, a band's curve).
    color, detail, palette, legend, tooltip, mark
        As in :func:`cost_lines`.
    y_max : float
        Top of the cost axis: parts above it are cut out (see
        :func:`costchart._cost.geometry.cut_curve`).
    """
    table = read(table, [col.PC, col.COST], "envelope", color=color)
    y_max = check_y_max(y_max)
    names = details(table, color, detail)
    drawn = cut_curve(table, y_max=y_max, by=[*([color] if color else []), *names])
    return build(
        alt.Chart(drawn),
        drawn,
        mark="line",
        style={"strokeWidth": 2.5},
        encoding={"x": pc_x(), "y": cost_y(y_max), "order": alt.Order(f"{col.PC}:Q")},
        color=color,
        fallback=INK,
        palette=palette,
        detail=names,
        legend=legend,
        opacity="strokeOpacity",
        fields=((col.PC, "Q", "pc"), (col.COST, "Q", "cost"), *POINT_TIPS[:3]),
        tooltip=tooltip,
        overrides=mark,
    )


def trivial(
    *, y_max: float = 0.5, panels: pd.DataFrame | None = None, mark: Mapping | None = None
) -> alt.Chart:
    """The trivial classifiers: always-negative costs ``pc``, always-positive ``1 - pc``.

    Parameters
    ----------
    y_max : float
        Top of the cost axis; the lines end there.
    panels : pandas.DataFrame, optional
        Facet values to repeat the layer for (one row per panel).
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    """
    table = trivial_lines(y_max, panels)
    return build(
        alt.Chart(table),
        table,
        mark="line",
        style={"strokeWidth": 1.8, "color": TRIVIAL},
        encoding={"x": pc_x(), "y": cost_y(check_y_max(y_max)), "detail": "trivial:N"},
        detail=False,
        # No tooltip: a mark with one takes the pointer from the hover targets beneath it
        # (and the key names the trivial classifiers).
        tooltip=False,
        overrides=mark,
    )


def trivial_region(
    *, y_max: float = 0.5, panels: pd.DataFrame | None = None, mark: Mapping | None = None
) -> alt.Chart:
    """The region above ``min(pc, 1 - pc)``, where a trivial classifier is better.

    Parameters
    ----------
    y_max : float
        Top of the cost axis; the region is cut there.
    panels : pandas.DataFrame, optional
        Facet values to repeat the layer for (one row per panel).
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    """
    y_max = check_y_max(y_max)
    table = geometry.trivial_region(y_max, panels)
    return build(
        alt.Chart(table),
        table,
        mark="area",
        style={"color": REGION, "fillOpacity": 0.35},
        encoding={
            "x": pc_x(),
            "y": cost_y(y_max),
            "y2": alt.Y2("top:Q"),
        },
        detail=False,
        tooltip=False,
        overrides=mark,
    )


def operating_ranges(
    table,
    *,
    color: str | None = None,
    palette: Mapping | None = None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    y_max: float = 0.5,
) -> alt.Chart:
    """Dashed vertical rules at the ends of operating ranges that lie inside (0, 1).

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.operating_range` (``pc_lo``, ``pc_hi``).
    color, palette, legend, tooltip, mark
        As in :func:`cost_lines`.
    y_max : float
        Top of the cost axis (checked; rules span the panel).
    """
    table = read(table, [col.PC_LO, col.PC_HI], "operating_ranges", color=color)
    check_y_max(y_max)
    chart = (
        alt.Chart(table)
        .transform_fold([col.PC_LO, col.PC_HI], as_=["range_end", col.PC])
        # Ends at 0 or 1 lie on the frame and say nothing; NaN means no range.
        .transform_filter(f"isValid(datum.{col.PC}) && datum.{col.PC} > 0 && datum.{col.PC} < 1")
    )
    tips = [
        *([alt.Tooltip(**nominal(color))] if color else []),
        alt.Tooltip("range_end:N", title="end of operating range"),
        alt.Tooltip(f"{col.PC}:Q", format=".4f"),
    ]
    encoding: dict[str, object] = {"x": pc_x()}
    if tooltip is None:
        encoding["tooltip"] = tips
    return build(
        chart,
        table,
        mark="rule",
        style={"strokeDash": [5, 4], "strokeWidth": 1.2},
        encoding=encoding,
        color=color,
        fallback=INK,
        palette=palette,
        detail=False,
        legend=legend,
        opacity="strokeOpacity",
        tooltip=False if tooltip is None else tooltip,
        overrides=mark,
    )
