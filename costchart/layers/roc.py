"""Layers of ROC space: curves, points, convex hulls, iso-performance lines, the diagonal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import pandas as pd

from costchart._cost.geometry import repeat_for
from costchart._io import schema as col
from costchart._io.deprecation import renamed
from costchart._io.parameters import checked
from costchart._io.validation import one_of
from costchart.layers._base import CHANCE, INK, ONE_CURVE, ROC_AXES, Axes, build, fpr_x, read, tpr_y
from costchart.layers._lines import POINT_TIPS, thinned
from costchart.layers._options import data_layer

__all__ = ["chance", "hull", "roc_curve", "roc_markers", "roc_spread"]


def curve_order(table: pd.DataFrame) -> alt.Order:
    """Draw order along a ROC curve: ``line`` when present (it follows the curve), else FPR.

    Vega-Lite line marks take a single order field.
    """
    return alt.Order(f"{col.LINE}:Q" if col.LINE in table.columns else f"{col.FPR}:Q")


@checked
@data_layer
def roc_curve(
    table,
    *,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    palette: Mapping | None = None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    max_points: int | None = 100,
    hover=None,
) -> alt.Chart:
    """ROC curves: the points joined in order of increasing FPR (and TPR).

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        ROC points, e.g. from :func:`costchart.roc_points`.
    classifier, by, palette, legend, tooltip, mark, max_points
        As in :func:`costchart.layers.cost_lines`.

    Examples
    --------
    >>> import costchart as cc
    >>> from costchart import layers
    >>> points = cc.roc_points({"s": [3, 2, 1], "y": [1, 0, 1]}, score="s", label="y")
    >>> layers.roc_curve(points).to_dict()["encoding"]["x"]["field"]
    'fpr'
    """
    table = read(table, [col.FPR, col.TPR], "roc_curve", color=color)
    return draw_roc_curve(**locals())  # checked once; the builder trusts it


def draw_roc_curve(
    table,
    *,
    axes: Axes = ROC_AXES,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    palette: Mapping | None = None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    max_points: int | None = 100,
    hover=None,
) -> alt.Chart:
    """:func:`roc_curve` of a checked table (trusted), with a chart's axes (``axes``)."""
    table = thinned(table, max_points, color, detail)
    return build(
        alt.Chart(table),
        table,
        mark="line",
        style={"strokeWidth": 1.5},
        encoding={"x": fpr_x(title=axes.x), "y": tpr_y(title=axes.y), "order": curve_order(table)},
        color=color,
        fallback=ONE_CURVE,
        palette=palette,
        detail=detail,
        drop_detail=(col.ON_HULL,),
        legend=legend,
        hover=hover,
        opacity="strokeOpacity",
        tooltip=False if tooltip is None else tooltip,
        overrides=mark,
        axes=axes,
    )


@checked
@data_layer
def roc_markers(
    table,
    *,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    palette: Mapping | None = None,
    hover=None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    max_points: int | None = 100,
) -> alt.Chart:
    """ROC points as small dots with tooltips; a hovered point grows.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        ROC points, e.g. from :func:`costchart.roc_points`.
    classifier, by, palette, hover, legend, tooltip, mark, max_points
        As in :func:`costchart.layers.cost_lines` (each curve is thinned on its own).
    """
    table = read(table, [col.FPR, col.TPR], "roc_markers", color=color)
    return draw_roc_markers(**locals())  # checked once; the builder trusts it


def draw_roc_markers(
    table,
    *,
    axes: Axes = ROC_AXES,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    palette: Mapping | None = None,
    hover=None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    max_points: int | None = 100,
) -> alt.Chart:
    """:func:`roc_markers` of a checked table (trusted), with a chart's axes (``axes``)."""
    table = thinned(table, max_points, color, detail)
    size = alt.when(hover).then(alt.value(160)).otherwise(alt.value(14)) if hover else None
    encoding: dict[str, object] = {"x": fpr_x(title=axes.x), "y": tpr_y(title=axes.y)}
    if size is not None:
        encoding["size"] = size
    return build(
        alt.Chart(table),
        table,
        mark="circle",
        style={"size": 14},
        encoding=encoding,
        color=color,
        fallback=ONE_CURVE,
        palette=palette,
        detail=detail or False,
        legend=legend,
        hover=hover,
        opacity="fillOpacity",
        base_opacity=0.8,
        fields=POINT_TIPS,
        tooltip=tooltip,
        overrides=mark,
        axes=axes,
    )


@checked
@data_layer
def hull(
    table,
    *,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    palette: Mapping | None = None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    hover=None,
) -> alt.Chart:
    """The ROC convex hull as a dashed line through its vertices.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.roc_hull`, or ROC points with a boolean
        ``on_hull`` column (only those rows are drawn).
    classifier, by, palette, legend, tooltip, mark
        As in :func:`costchart.layers.cost_lines`.
    """
    table = read(table, [col.FPR, col.TPR], "hull", color=color)
    return draw_hull(**locals())  # checked once; the builder trusts it


def draw_hull(
    table,
    *,
    axes: Axes = ROC_AXES,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    palette: Mapping | None = None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    hover=None,
) -> alt.Chart:
    """:func:`hull` of a checked table (trusted), with a chart's axes (``axes``)."""
    chart = alt.Chart(table)
    if col.ON_HULL in table.columns:
        chart = chart.transform_filter(f"datum.{col.ON_HULL}")
    return build(
        chart,
        table,
        mark="line",
        style={"strokeDash": [6, 3], "strokeWidth": 1.2},
        encoding={"x": fpr_x(title=axes.x), "y": tpr_y(title=axes.y), "order": curve_order(table)},
        color=color,
        fallback=INK,
        palette=palette,
        detail=detail,
        drop_detail=(col.ON_HULL,),
        legend=legend,
        hover=hover,
        opacity="strokeOpacity",
        tooltip=False if tooltip is None else tooltip,
        overrides=mark,
        axes=axes,
    )


@renamed(panels="facet")
def chance(*, facet: pd.DataFrame | None = None, mark: Mapping | None = None) -> alt.Chart:
    """The chance diagonal ``tpr = fpr``: the ROC points of random guessing.

    Parameters
    ----------
    facet : pandas.DataFrame, optional
        Facet values to repeat the layer for (one row per panel).
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    """
    return draw_chance(**locals())  # the same options, the layer's own axes


def draw_chance(
    *, axes: Axes = ROC_AXES, facet: pd.DataFrame | None = None, mark: Mapping | None = None
) -> alt.Chart:
    """:func:`chance` with the axis titles of a chart (``axes``)."""
    table = repeat_for(pd.DataFrame({col.FPR: [0.0, 1.0], col.TPR: [0.0, 1.0]}), facet)
    return build(
        alt.Chart(table),
        table,
        mark="line",
        style={"color": CHANCE, "strokeDash": [4, 4], "strokeWidth": 1.0},
        encoding={"x": fpr_x(title=axes.x), "y": tpr_y(title=axes.y)},
        detail=False,
        tooltip=False,
        overrides=mark,
    )


@checked
@data_layer
def roc_spread(
    table,
    *,
    color: str | None = None,
    palette: Mapping | None = None,
    legend=None,
    axis: str = "tpr",
    tooltip=None,
    mark: Mapping | None = None,
    detail=None,
    hover=None,
) -> alt.Chart:
    """Error bars of a ROC average: the range of TPR (or FPR) over the curves.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.roc_average`.
    classifier, palette, legend, tooltip, mark
        As in :func:`costchart.layers.cost_lines`.
    axis : {"tpr", "fpr"}
        Vertical bars (TPR range, for vertical and threshold averages) or horizontal ones
        (FPR range, for horizontal and threshold averages).
    """
    one_of(axis, "axis", ("tpr", "fpr"))
    table = read(table, [col.FPR, col.TPR, f"{axis}_lo", f"{axis}_hi"], "roc_spread", color=color)
    if axis == "tpr":
        position = {"x": fpr_x(), "y": tpr_y(col.TPR_LO), "y2": alt.Y2(f"{col.TPR_HI}:Q")}
    else:
        position = {"y": tpr_y(), "x": fpr_x(col.FPR_LO), "x2": alt.X2(f"{col.FPR_HI}:Q")}
    return build(
        alt.Chart(table),
        table,
        mark="rule",
        style={"strokeWidth": 1},
        encoding=position,
        color=color,
        fallback=ONE_CURVE,
        palette=palette,
        detail=detail or False,
        legend=legend,
        hover=hover,
        opacity="strokeOpacity",
        base_opacity=0.6,
        fields=(
            (col.FPR, "Q", "FPR"),
            (col.TPR, "Q", "TPR"),
            (f"{axis}_lo", "Q", f"lowest {axis.upper()}"),
            (f"{axis}_hi", "Q", f"highest {axis.upper()}"),
        ),
        tooltip=tooltip,
        overrides=mark,
    )
