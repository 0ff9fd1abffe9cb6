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

from costchart._cost import geometry as geometry
from costchart._cost.geometry import cut_curve, trivial_lines
from costchart._io import schema as col
from costchart._io.deprecation import renamed
from costchart._io.parameters import checked
from costchart._vega import nominal
from costchart.layers._base import (
    INK,
    MUTED,
    REGION,
    TRIVIAL,
    build,
    cost_top,
    cost_y,
    details,
    pc_x,
    read,
)
from costchart.layers._lines import POINT_TIPS, lines_chart, thinned
from costchart.layers._options import data_layer

__all__ = [
    "cost_lines",
    "envelope",
    "lines_chart",
    "operating_ranges",
    "thinned",
    "trivial",
    "trivial_region",
]


@checked
@data_layer
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
    y_max: float | None = None,
    max_points: int | None = 100,
) -> alt.Chart:
    """Thin, muted cost lines, one per ROC point; a hovered line turns bold.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        ROC points (each becomes its line) or a cost-lines table from
        :func:`costchart.to_cost_lines`.
    classifier, by : str, optional
        Columns that tell classifiers / curves apart (see :mod:`costchart.layers`).
    palette : dict, optional
        Colours of ``classifier``'s values (see :func:`costchart._palette`).
    hover, legend : altair.Parameter, optional
        Selections to react to: the hovered line is bold, classifiers not picked in the
        legend fade.
    tooltip : None, False or list of str
        The layer's own tooltip, none, or these columns.
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    y_max : float, optional
        Top of the cost axis (1 shows all of every line). By default (``None``) 0.5, as in
        the papers: lines span every ``pc`` and are not fitted (see the glossary, "The top
        of the cost axis"); pass the ``y_max`` of the layers this one joins.
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
    return draw_cost_lines(**locals())  # checked once; the builder trusts it


def draw_cost_lines(
    table: pd.DataFrame,
    *,
    color=None,
    detail=None,
    palette=None,
    hover=None,
    legend=None,
    tooltip=None,
    mark=None,
    y_max=None,
    max_points=100,
) -> alt.Chart:
    """:func:`cost_lines` of a checked table (trusted): what the charts call."""
    y_max = cost_top(y_max)  # lines span every pc: none is fitted
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


@checked
@data_layer
def envelope(
    table,
    *,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    palette: Mapping | None = None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    y_max: float | None = None,
    hover=None,
) -> alt.Chart:
    """The lower envelope (or any cost curve), drawn bold and cut at ``y_max``.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.lower_envelope` (or another ``pc``, ``cost`` curve:
        a vertical average, a band's curve).
    classifier, by, palette, legend, tooltip, mark
        As in :func:`cost_lines`.
    y_max : float, optional
        Top of the cost axis: parts above it are cut out (see
        :func:`costchart._cost.geometry.cut_curve`). By default (``None``) fitted to the
        curve: its largest cost plus a tenth, rounded up to a multiple of 0.05 (of 0.1
        above 0.3), at most 0.5 (see the glossary, "The top of the cost axis").
    """
    table = read(table, [col.PC, col.COST], "envelope", color=color)
    return draw_envelope(**locals())  # checked once; the builder trusts it


def draw_envelope(
    table: pd.DataFrame,
    *,
    color=None,
    detail=None,
    palette=None,
    legend=None,
    tooltip=None,
    mark=None,
    y_max=None,
    hover=None,
) -> alt.Chart:
    """:func:`envelope` of a checked table (trusted): what the charts call."""
    y_max = cost_top(y_max, table[col.COST])
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
        hover=hover,
        opacity="strokeOpacity",
        fields=((col.PC, "Q", "pc"), (col.COST, "Q", "cost"), *POINT_TIPS[:3]),
        tooltip=tooltip,
        overrides=mark,
    )


@renamed(panels="facet")
@checked
def trivial(
    *, y_max: float | None = None, facet: pd.DataFrame | None = None, mark: Mapping | None = None
) -> alt.Chart:
    """The trivial classifiers: always-negative costs ``pc``, always-positive ``1 - pc``.

    Parameters
    ----------
    y_max : float, optional
        Top of the cost axis; the lines end there. By default (``None``) 0.5: the layer
        draws no curve to fit; pass the ``y_max`` of the layers it joins.
    facet : pandas.DataFrame, optional
        Facet values to repeat the layer for (one row per panel).
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    """
    y_max = cost_top(y_max)
    table = trivial_lines(y_max, facet)
    return build(
        alt.Chart(table),
        table,
        mark="line",
        style={"strokeWidth": 1.8, "color": TRIVIAL},
        encoding={"x": pc_x(), "y": cost_y(y_max), "detail": "trivial:N"},
        detail=False,
        # No tooltip: a mark with one takes the pointer from the hover targets beneath it
        # (and the key names the trivial classifiers).
        tooltip=False,
        overrides=mark,
    )


@renamed(panels="facet")
@checked
def trivial_region(
    *, y_max: float | None = None, facet: pd.DataFrame | None = None, mark: Mapping | None = None
) -> alt.Chart:
    """The region above ``min(pc, 1 - pc)``, where a trivial classifier is better.

    Parameters
    ----------
    y_max : float, optional
        Top of the cost axis; the region is cut there. By default (``None``) 0.5: the
        layer draws no curve to fit; pass the ``y_max`` of the layers it joins.
    facet : pandas.DataFrame, optional
        Facet values to repeat the layer for (one row per panel).
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    """
    y_max = cost_top(y_max)
    table = geometry.trivial_region(y_max, facet)
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


@checked
@data_layer
def operating_ranges(
    table,
    *,
    color: str | None = None,
    palette: Mapping | None = None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    y_max: float | None = None,
    detail=None,
    hover=None,
) -> alt.Chart:
    """Dashed vertical rules at the ends of operating ranges that lie inside (0, 1).

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.operating_range` (``pc_lo``, ``pc_hi``).
    classifier, palette, legend, tooltip, mark
        As in :func:`cost_lines`.
    y_max : float, optional
        Top of the cost axis (checked; rules span the panel; ``None``: 0.5).
    """
    table = read(table, [col.PC_LO, col.PC_HI], "operating_ranges", color=color)
    return draw_operating_ranges(**locals())  # checked once; the builder trusts it


def draw_operating_ranges(
    table: pd.DataFrame,
    *,
    color=None,
    palette=None,
    legend=None,
    tooltip=None,
    mark=None,
    y_max=None,
    detail=None,
    hover=None,
) -> alt.Chart:
    """:func:`operating_ranges` of a checked table (trusted): what the charts call."""
    cost_top(y_max)  # checked: the rules span the panel
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
        detail=detail or False,
        legend=legend,
        hover=hover,
        opacity="strokeOpacity",
        tooltip=False if tooltip is None else tooltip,
        overrides=mark,
    )
