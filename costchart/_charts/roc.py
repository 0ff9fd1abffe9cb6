"""``roc_chart``: ROC curves with their convex hulls, iso-performance lines and AUC labels.

This module holds :func:`roc_chart`, :func:`roc_layers` (the ROC view's layers and the
key entries that explain them, reused by :mod:`costchart._charts.linked`) and the AUC
labels that ``auc=True`` adds to the legend or to each panel.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

import costchart as cc
from costchart import layers
from costchart._charts._compose import compose, with_key
from costchart._charts._drawn import ChartTables, drawn_tables
from costchart._charts._mark_budget import hull_lines, hull_only
from costchart._charts._options import Look, chart_name, check_iso, colors_of, keys_of, ready_chart
from costchart._charts._registry import register
from costchart._charts.combined import COMBINED_HULL
from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.parameters import checked
from costchart._io.validation import flag
from costchart.layers import _base as layers_base
from costchart.layers import roc as roc_layer
from costchart.layers._base import ROC_AXES, Axes
from costchart.layers.interaction import draw_hover_targets
from costchart.layers.iso import draw_iso_lines

__all__ = ["roc_chart", "roc_layers"]


def roc_layers(
    tables: ChartTables,
    *,
    color,
    colors,
    hover,
    legend,
    iso,
    chance,
    with_legend,
    keys,
    curves=None,
    combined=None,
    axes: Axes = ROC_AXES,
):
    """The ROC view's layers and the key entries that explain them.

    ``curves`` (crowded linked charts): the selections of whole curves that the ROC
    points' hover targets set as well, for the cost view's mark budget. ``combined`` is
    the layer of the hull of the classifiers shown
    (:func:`costchart._charts.combined.combined_hull`), drawn over the hulls. ``axes``:
    the axis titles and legend labels every layer is built with.
    """
    stack = []
    entries: list[tuple[str, str]] = []
    if hover is not None:
        targets = draw_hover_targets(
            tables.points,
            axes=axes,
            space="roc",
            hover=hover,
            legend=legend if with_legend else None,
            color=color,
            palette=colors,
        )
        if curves is not None:
            targets = targets.add_params(*curves)
        stack.append(hull_lines(targets, tables, "all"))
    if chance:
        stack.append(roc_layer.draw_chance(axes=axes, facet=keys))
    common = {"color": color, "palette": colors, "legend": legend, "axes": axes}
    stack.append(roc_layer.draw_roc_curve(tables.points, max_points=None, **common))
    entries.append(("ROC curve", "line"))
    stack.append(roc_layer.draw_hull(tables.points, **common))
    entries.append(("ROC convex hull", "dashed line"))
    if combined is not None:
        stack.append(combined)
        entries.append((COMBINED_HULL, "thick dashed line"))
    stack.append(
        hull_lines(
            roc_layer.draw_roc_markers(tables.points, hover=hover, max_points=None, **common),
            tables,
            "all",
        )
    )
    dots = (
        "ROC hull vertices (thresholds)" if hull_only(tables, "all") else "ROC points (thresholds)"
    )
    entries.append((dots, "dot"))
    if iso is not None:
        stack.append(draw_iso_lines(tables.hull, iso=iso, **common))
        shown = ", ".join(f"{v:g}" for v in iso)
        entries.append(
            (f"iso-performance line{'s' if len(iso) > 1 else ''} (pc = {shown})", "dotted line")
        )
    if chance:
        entries.append(("chance diagonal", "chance"))
    return stack, entries


def _auc_labels(points, tables: ChartTables, color: str | None, facet: str | None):
    """AUC per colour value (and panel) from :func:`costchart.auc` on all of ``points``.

    The legend's labels, or rows for text marks; the table joins the chart's public tables
    (``tables.public["auc"]``).
    """
    by = [c for c in (facet, color) if c]
    extra = [c for c in tables.by if c not in by]
    if extra:
        msg = (
            f"show_auc=True needs one curve per colour value and panel, but {extra} also tell "
            "curves apart; drop or average them first (e.g. cc.roc_average)"
        )
        raise CostchartError(msg)
    areas = cc.auc(points, by=by)
    tables.public["auc"] = areas
    return areas


def _auc_legend(areas: pd.DataFrame, color, area="AUC") -> str:
    """The colour legend's labels with each curve's AUC: a Vega expression (``labelExpr``).

    The areas come from all of the points, not the thinned points drawn; ``area`` names
    them ("AUCIV" for ROCIV points).
    """
    pairs = zip(areas[color], areas[col.AUC], strict=True)
    text = {str(k): f"{k} ({area} {v:.3f})" for k, v in pairs}
    expression = "datum.label"
    for name, label in text.items():
        expression = f"datum.label === {json.dumps(name)} ? {json.dumps(label)} : {expression}"
    return expression


def _auc_text(areas: pd.DataFrame, color, facet, colors, axes: Axes, area="AUC") -> alt.Chart:
    """Each curve's AUC as text in its panel, for charts without a colour legend to label.

    The areas come from all of the points, not the thinned points drawn.
    """
    rows = areas.copy()
    rank = rows.groupby(facet, sort=False).cumcount().to_numpy() if facet else np.arange(len(rows))
    rows[col.FPR] = 1.0
    rows[col.TPR] = 0.03 + 0.07 * rank
    rows["costchart_text"] = [
        f"{k}: {area} {v:.3f}" if color else f"{area} {v:.3f}"
        for k, v in zip(rows[color] if color else rows[col.AUC], rows[col.AUC], strict=True)
    ]
    return (
        alt.Chart(rows)
        .mark_text(align="right", baseline="bottom", dx=-4, fontSize=11)
        .encode(
            x=layers_base.fpr_x(title=axes.x),
            y=layers_base.tpr_y(title=axes.y),
            text=alt.Text("costchart_text:N"),
            color=layers_base.color_channel(rows, color, layers_base.INK, colors),
        )
    )


@checked
@ready_chart
def roc_chart(
    points,
    *,
    color: str | None = None,
    facet: str | None = None,
    by: str | Sequence[str] | None = None,
    iso: Sequence[float] | None = None,
    chance: bool = True,
    auc: bool = False,
    max_points: int = 100,
    name: str | None = None,
    look: Look,
) -> alt.LayerChart | alt.FacetChart:
    """ROC curves with their convex hulls, the chance diagonal and a key.

    Parameters
    ----------
    points : pandas, polars or pyarrow table
        ROC points, e.g. from :func:`costchart.roc_points` with ``by=``. ROCIV points
        (from :func:`costchart.rociv`, with their ``fp_cost`` and ``tp_benefit`` columns)
        get axes titled by the shares of amounts they plot, and ``auc=True`` calls their
        areas AUCIV.
    classifier, facet, by
        As in :func:`cost_chart`.
    iso : list of float, optional
        Operating points ``pc`` whose iso-performance lines to draw.
    show_chance : bool
        Draw the chance diagonal.
    show_auc : bool
        Show each curve's area under the ROC curve: in the colour legend's labels, or, with
        ``facet=``, as text in each panel. Needs one curve per colour value and panel.
    max_points, palette, title, subtitle, show_key, size, columns, name
        As in :func:`cost_chart`.

    Returns
    -------
    altair.LayerChart or altair.FacetChart
    """
    iso = check_iso(iso)
    chance, auc = flag(chance, "show_chance"), flag(auc, "show_auc")
    tables = drawn_tables(points, color=color, facet=facet, max_points=max_points, by=by)
    rociv = {col.FP_COST, col.TP_BENEFIT} <= set(tables.public["points"].columns)
    name = chart_name(name, tables.points, "roc", color, facet, max_points, iso, chance, auc)
    hover, legend = layers.selections([*tables.by, col.LINE], color, name=name)
    keys = keys_of(tables.points, facet)
    colors = colors_of(tables.points, color, look)
    area = "AUCIV" if rociv else "AUC"
    # The axes' titles and the legend's labels are given to the layers as they are built.
    titles = (
        (layers_base.FPR_IV_TITLE, layers_base.TPR_IV_TITLE)
        if rociv
        else (layers_base.FPR_TITLE, layers_base.TPR_TITLE)
    )
    areas = _auc_labels(points, tables, color, facet) if auc else None
    labels = _auc_legend(areas, color, area) if areas is not None and color and not facet else None
    axes = Axes(*titles, labels=labels)
    stack, entries = roc_layers(
        tables,
        color=color,
        colors=colors,
        hover=hover,
        legend=legend,
        iso=iso,
        chance=chance,
        with_legend=True,
        keys=keys,
        axes=axes,
    )
    if areas is not None and axes.labels is None:
        stack = [*stack, _auc_text(areas, color, facet, colors, axes, area)]
    chart = compose(
        with_key(stack, entries, look, keys),
        facet=facet,
        look=look,
        panels=None if keys is None else len(keys),
    )
    return register(chart, tables.public)
