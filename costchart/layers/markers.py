"""Layers that mark choices in cost and ROC space: ``pc`` markers, selected classifiers, hybrids.

:func:`pc_markers` and :func:`pc_labels` draw and name chosen operating points;
:func:`selected` highlights the classifiers a selection criterion chose (rings in ROC
space, bold dashed cost lines in cost space); :func:`hybrid` draws the cost curve of a
hybrid that switches classifier. As in :mod:`costchart.layers.cost`, cost-space marks are
cut at the top of the cost axis (``y_max``) in the data.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import numpy as np
import pandas as pd

from costchart._cost.geometry import cut_curve, repeat_for
from costchart._io import schema as col
from costchart._io.deprecation import renamed
from costchart._io.parameters import checked
from costchart._io.validation import labelled_probabilities, one_of
from costchart.layers._base import (
    COST_TITLE,
    HIGHLIGHT,
    INK,
    build,
    cost_scale,
    cost_top,
    cost_y,
    details,
    fpr_x,
    pc_x,
    read,
    tpr_y,
)
from costchart.layers._lines import lines_chart
from costchart.layers._options import data_layer

__all__ = ["hybrid", "pc_labels", "pc_markers", "selected"]


def pc_marker_table(
    markers: Mapping[str, float] | Sequence[float],
    *,
    y_max: float | None = None,
    facet: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Rows for :func:`pc_markers` and :func:`pc_labels`: ``marker``, ``pc`` (and ``facet``)."""
    labeled = labelled_probabilities(markers, "markers")
    y_max = cost_top(y_max)
    values = np.array(list(labeled.values()), dtype=np.float64)
    table = pd.DataFrame({col.MARKER: list(labeled), col.PC: values, "costchart_top": y_max})
    return repeat_for(table, facet)


@renamed(panels="facet", pc="markers")
@checked
def pc_markers(
    markers: Mapping[str, float] | Sequence[float],
    *,
    facet: pd.DataFrame | None = None,
    mark: Mapping | None = None,
) -> alt.Chart:
    """Dotted vertical rules at given operating points (label them with :func:`pc_labels`).

    Parameters
    ----------
    markers : dict of label to pc, or list of pc
        The operating points to mark, e.g. ``{"costs 3:1": cc.pc_from_cost_ratio(3)}``
        (the charts' ``markers=``).
    facet : pandas.DataFrame, optional
        Facet values to repeat the layer for (one row per panel).
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    """
    table = pc_marker_table(markers, facet=facet)
    return build(
        alt.Chart(table),
        table,
        mark="rule",
        style={"color": INK, "strokeDash": [1, 2]},
        encoding={"x": pc_x()},
        detail=False,
        fields=((col.MARKER, "N", "marker"), (col.PC, "Q", "pc")),
        overrides=mark,
    )


@renamed(panels="facet", pc="markers")
@checked
def pc_labels(
    markers: Mapping[str, float] | Sequence[float],
    *,
    y_max: float | None = None,
    facet: pd.DataFrame | None = None,
    mark: Mapping | None = None,
) -> alt.Chart:
    """Text labels for :func:`pc_markers`, just below the top of the cost axis.

    Parameters
    ----------
    markers : dict of label to pc, or list of pc
        The same value given to :func:`pc_markers`.
    y_max : float, optional
        Top of the cost axis; by default (``None``) 0.5: the labels mark no curve to fit.
    facet : pandas.DataFrame, optional
        Facet values to repeat the layer for (one row per panel).
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    """
    y_max = cost_top(y_max)
    table = pc_marker_table(markers, y_max=y_max, facet=facet)
    return build(
        alt.Chart(table),
        table,
        mark="text",
        style={"align": "left", "dx": 3, "dy": 4, "baseline": "top", "fontSize": 10, "color": INK},
        encoding={
            "x": pc_x(),
            "y": alt.Y("costchart_top:Q", scale=cost_scale(y_max), title=COST_TITLE),
            "text": alt.Text(f"{col.MARKER}:N"),
        },
        detail=False,
        tooltip=False,
        overrides=mark,
    )


@checked
@data_layer
def selected(
    table,
    *,
    space: str,
    y_max: float | None = None,
    tooltip=None,
    mark: Mapping | None = None,
    color: str | None = None,
    detail=None,
    palette: Mapping | None = None,
    legend=None,
    hover=None,
) -> alt.Chart:
    """The classifiers a selection criterion chose, highlighted.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        From :func:`costchart.neyman_pearson`, :func:`costchart.workforce` or
        :func:`costchart.iso_performance` (rows with ``fpr``, ``tpr``).
    space : {"roc", "cost"}
        Rings around the ROC points, or their cost lines drawn bold and dashed.
    y_max : float, optional
        Top of the cost axis; by default (``None``) 0.5, as
        :func:`costchart.layers.cost_lines`.
    tooltip, mark
        As in :func:`costchart.layers.cost_lines`.
    """
    one_of(space, "space", ("roc", "cost"))
    table = read(table, [col.FPR, col.TPR], "selected", color=color)
    shared = {"color": color, "palette": palette, "legend": legend, "hover": hover}
    fields = [
        (c, "N", c)
        for c in (*details(table, None, None), col.ROLE, col.CHOICE, col.WEIGHT)
        if c in table.columns
    ]
    fields += [(col.FPR, "Q", "FPR"), (col.TPR, "Q", "TPR")]
    if space == "roc":
        return build(
            alt.Chart(table),
            table,
            mark="point",
            style={"size": 180, "strokeWidth": 2.2, "filled": False, "color": HIGHLIGHT},
            encoding={"x": fpr_x(), "y": tpr_y()},
            detail=detail or False,
            **shared,
            fields=fields,
            tooltip=tooltip,
            overrides=mark,
        )
    y_max = cost_top(y_max)  # lines span every pc: none is fitted
    table = table.assign(**{col.LINE: np.arange(len(table))})
    return build(
        lines_chart(table, y_max),
        table,
        mark="line",
        style={"color": HIGHLIGHT, "strokeWidth": 2.5, "strokeDash": [6, 3]},
        encoding={"x": pc_x(), "y": cost_y(y_max), "detail": alt.Detail(f"{col.LINE}:N")},
        detail=detail or False,
        **shared,
        fields=fields,
        tooltip=tooltip,
        overrides=mark,
    )


@checked
@data_layer
def hybrid(
    table,
    *,
    color: str | None = None,
    palette: Mapping | None = None,
    tooltip=None,
    mark: Mapping | None = None,
    y_max: float | None = None,
    detail=None,
    legend=None,
    hover=None,
) -> alt.Chart:
    """A hybrid cost curve that may jump where it switches classifier, cut at ``y_max``.

    Draws ``PerformanceIndependent.curve`` or the table of
    :func:`costchart.apply_selection`: one dashed segment per interval.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        ``pc``, ``cost``, two rows per interval (in order).
    classifier, palette, tooltip, mark
        As in :func:`costchart.layers.cost_lines`.
    y_max : float, optional
        Top of the cost axis. By default (``None``) fitted to the curve (see the glossary,
        "The top of the cost axis").
    """
    table = read(table, [col.PC, col.COST], "hybrid", color=color)
    y_max = cost_top(y_max, table[col.COST])
    table = table.assign(costchart_segment=np.arange(len(table)) // 2)
    drawn = cut_curve(table, y_max=y_max, by=["costchart_segment"])
    return build(
        alt.Chart(drawn),
        drawn,
        mark="line",
        style={"strokeWidth": 2, "strokeDash": [8, 4]},
        encoding={
            "x": pc_x(),
            "y": cost_y(y_max),
            "detail": alt.Detail("costchart_segment:N"),
        },
        color=color,
        fallback=HIGHLIGHT,
        palette=palette,
        detail=detail or False,
        legend=legend,
        hover=hover,
        fields=((col.PC, "Q", "pc"), (col.COST, "Q", "cost")),
        tooltip=tooltip,
        overrides=mark,
    )
