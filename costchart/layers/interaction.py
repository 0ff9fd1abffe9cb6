"""The invisible marks that make charts interactive: hover targets and their selections."""

from __future__ import annotations

from collections.abc import Mapping

import altair as alt

from costchart._io import schema as col
from costchart._io.deprecation import renamed
from costchart._io.errors import CostchartError
from costchart._io.frames import infer_by
from costchart._io.parameters import checked
from costchart._io.validation import one_of
from costchart._vega import content_name, field, nominal
from costchart.layers._base import (
    COST_TITLE,
    PC_TITLE,
    ROC_AXES,
    Axes,
    color_channel,
    cost_scale,
    cost_top,
    details,
    fpr_x,
    mark_properties,
    read,
    tooltips,
    tpr_y,
)
from costchart.layers._lines import POINT_TIPS, line_ends_chart
from costchart.layers._options import data_layer

#: The pc axis's scale, as every cost layer's.
UNIT = alt.Scale(domain=[0, 1], nice=False)

__all__ = ["TARGET_VIEWS", "hover_targets", "selections"]

#: Names of the views holding hover targets start with these (static images skip them).
TARGET_VIEWS = {"roc": "costchart_roc_targets", "cost": "costchart_cost_targets"}


@renamed(color="classifier")
@checked
def selections(fields, classifier: str | None = None, *, name: str | None = None):
    """The hover selection over ``fields`` and, with ``classifier``, the legend selection.

    They are named ``<name>_hover`` and ``<name>_legend``; by default ``name`` is made
    from ``fields`` and ``classifier`` (:func:`costchart._vega.content_name`), so identical
    calls give identical specs. The ready charts pass a name made from their data, so
    two charts composed together stay independent; pass your own ``name=`` when you
    compose two charts built from these selections.
    """
    color = classifier
    suffix = content_name("costchart", tuple(fields), color) if name is None else name
    hover = alt.selection_point(
        name=f"{suffix}_hover",
        fields=[field(c) for c in fields],
        on="pointerover",
        clear="pointerout",
        nearest=False,
        empty=False,
    )
    legend = (
        alt.selection_point(name=f"{suffix}_legend", fields=[field(color)], bind="legend")
        if color
        else None
    )
    return hover, legend


@checked
@data_layer
def hover_targets(
    table,
    *,
    space: str,
    hover,
    legend=None,
    color: str | None = None,
    palette: Mapping | None = None,
    tooltip=None,
    y_max: float | None = None,
    name: str | None = None,
    detail=None,
    mark: Mapping | None = None,
) -> alt.Chart:
    """Invisible marks that set the ``hover`` (and ``legend``) selections, with tooltips.

    They lie over the visible marks, so they carry the tooltips of the ROC points and cost
    lines. Put this layer first: in altair 6.1-6.3 a selection on a later layer of a
    faceted layer inside a concat breaks (see :mod:`costchart._vega`).

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        ROC points with a ``line`` column (as the ready charts make them).
    space : {"roc", "cost"}
        Large invisible dots on the ROC points, or wide invisible strokes along the
        cost lines.
    hover : altair.Parameter
        The hover selection the marks set.
    legend : altair.Parameter, optional
        A legend-bound selection to attach as well (needs ``color``).
    classifier, palette, tooltip
        As in :func:`costchart.layers.cost_lines`.
    y_max : float, optional
        Top of the cost axis; by default (``None``) 0.5, as
        :func:`costchart.layers.cost_lines`.
    name : str, optional
        The view's name; by default ``costchart_<space>_targets`` followed by a digest
        of the table and options, the same for the same content.
    """
    table = read(table, [col.FPR, col.TPR], "hover_targets", color=color)
    return draw_hover_targets(**locals())  # checked once; the builder trusts it


def draw_hover_targets(
    table,
    *,
    axes: Axes = ROC_AXES,
    space: str,
    hover,
    legend=None,
    color: str | None = None,
    palette: Mapping | None = None,
    tooltip=None,
    y_max: float | None = None,
    name: str | None = None,
    detail=None,
    mark: Mapping | None = None,
) -> alt.Chart:
    """:func:`hover_targets` of a checked table (trusted), with a chart's axes (``axes``)."""
    one_of(space, "space", ("roc", "cost"))
    for label, selection in (("hover", hover), ("legend", legend)):
        if not isinstance(selection, alt.Parameter) and (label == "hover" or selection is not None):
            msg = (
                f"{label}={selection!r} must be an Altair selection parameter, e.g. "
                f"alt.selection_point(name='costchart_{label}', fields=[...])"
            )
            raise CostchartError(msg)
    params = [hover] + ([legend] if legend is not None else [])
    by = (
        infer_by(table, None, declared=(color,))
        if detail is None
        else details(table, color, detail)
    )
    detail = [
        alt.Detail(**nominal(c)) for c in [*by, col.LINE] if c in table.columns and c != color
    ]
    encoding: dict[str, object] = {"detail": detail}
    if color:
        # The marks are invisible; their legend symbols must not be.
        legend_style = axes.legend(symbolOpacity=1, symbolType="stroke", symbolStrokeWidth=3)
        encoding["color"] = color_channel(table, color, "#000000", palette, **legend_style)
    tips = tooltips(table, color, POINT_TIPS, tooltip)
    if tips:
        encoding["tooltip"] = tips
    y_max = cost_top(y_max)  # lines span every pc: none is fitted
    if space == "roc":
        chart = (
            alt.Chart(table)
            .mark_circle(**mark_properties("circle", {"size": 220, "fillOpacity": 0}, mark))
            .encode(x=fpr_x(title=axes.x), y=tpr_y(title=axes.y), **encoding)
        )
    else:
        # One rule per line (not a two-point line): each carries its own tooltip.
        chart = (
            line_ends_chart(table, y_max)
            .mark_rule(**mark_properties("rule", {"strokeWidth": 10, "strokeOpacity": 0.001}, mark))
            .encode(
                x=alt.X(
                    "costchart_pc_start:Q",
                    title=PC_TITLE,
                    scale=alt.Scale(domain=[0, 1], nice=False),
                ),
                y=alt.Y("costchart_cost_start:Q", title=COST_TITLE, scale=cost_scale(y_max)),
                x2="costchart_pc_end:Q",
                y2="costchart_cost_end:Q",
                **encoding,
            )
        )
    if name is None:
        name = content_name(TARGET_VIEWS[space], table, color, y_max, str(hover.name))
    view = name
    return chart.properties(name=view).add_params(*params)
