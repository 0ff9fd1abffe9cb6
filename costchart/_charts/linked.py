"""``roc_cost_chart``: a ROC view and a cost view side by side, linked by their selections.

This module holds :func:`roc_cost_chart` and :func:`pairs`, which lays out two linked
views (one pair per facet value, as Vega-Lite cannot facet a concatenation) over one
shared data set and declares their selections once at the top; :func:`pairs` also lays
out the average chart's views (:mod:`costchart._charts.average`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import altair as alt
import numpy as np
import pandas as pd

from costchart import layers
from costchart._charts._compose import titled, zoom_entries
from costchart._charts._drawn import drawn_tables
from costchart._charts._mark_budget import curve_selections
from costchart._charts._options import (
    Look,
    chart_name,
    check_iso,
    check_markers,
    colors_of,
    ready_chart,
)
from costchart._charts._registry import register
from costchart._charts.combined import combined_envelope, combined_grid, combined_hull
from costchart._charts.cost import cost_layers
from costchart._charts.roc import roc_layers
from costchart._cost.geometry import cost_top
from costchart._io import schema as col
from costchart._io.parameters import checked
from costchart._io.validation import flag, one_of
from costchart._vega import (
    content_name,
    json_values,
    layered_view,
    lift_data,
    top_level,
    without_params,
)
from costchart.layers.interaction import TARGET_VIEWS

__all__ = ["pairs", "roc_cost_chart"]


def _panel_filter(chart: alt.Chart, facet, value) -> alt.Chart:
    """``chart`` restricted to one facet value (written as the data set writes it).

    ``facet`` may be a list of columns, ``value`` then the tuple of their values.
    """
    columns, values = (facet, value) if isinstance(facet, list) else ([facet], (value,))
    for column, one in zip(columns, values, strict=True):
        plain = _plain(one)
        if isinstance(plain, (pd.Timestamp, np.datetime64)):
            plain = json_values(pd.Series([plain]))[0]  # a date: its ISO text, as in the data
        literal = json.dumps(plain)
        chart = chart.transform_filter(f"datum[{json.dumps(str(column))}] === {literal}")
    return chart


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


def _side_by_side(
    views: list, title, *, top: bool
) -> alt.HConcatChart | alt.HConcatSpecGenericSpec:
    """Views side by side: the chart itself (``top``), or one pair of a concatenation.

    Works around: Altair's compound charts merge their views' data and selections when
    made, deep-copying every view, and again on every copy (each ``to_dict`` copies):
    the views here hold neither (:func:`costchart._vega.lift_data`,
    :func:`costchart._vega.top_level`), so a pair inside a concatenation is Altair's
    schema class of a Vega-Lite concatenation (``alt.HConcatSpecGenericSpec``), which is copied
    without merging, and every compound is made empty and then given its views.
    """
    pair = (
        alt.HConcatChart(hconcat=[]) if top else alt.HConcatSpecGenericSpec(hconcat=[], title=title)
    )
    pair.hconcat = views
    return pair


def _is_target(chart) -> bool:
    name = getattr(chart, "name", alt.Undefined)
    return isinstance(name, str) and name.startswith(tuple(TARGET_VIEWS.values()))


def pairs(left, right, *, facet, values, look: Look, hover, below=None):
    """Two linked views side by side, or one pair per facet value in a grid.

    Vega-Lite cannot facet a concatenation, so each facet value gets its own pair of
    views over the shared data, filtered to that value; ``look.columns`` pairs per row
    (one by default). ``facet`` may be a list of columns (``values`` their tuples).
    ``below`` (layers and a height) is a further view beneath the right one, on its
    ``pc`` axis; with ``left`` empty a panel is the right view (and the one below) alone.
    All layers' data goes into one data set at the top (:func:`costchart._vega.lift_data`):
    stored once, and free of Altair's 5,000-row limit on frames. The selections are
    declared once at the top for every view whose marks set them (see
    :func:`costchart._vega.top_level`).
    """
    under, height = below if below is not None else ([], 0)
    every = [*left, *right, *under]
    columns = facet if isinstance(facet, list) else [facet]
    per_panel = [
        facet is not None
        and isinstance(c.data, pd.DataFrame)
        and all(f in c.data.columns for f in columns)
        for c in every
    ]
    combined, lifted = lift_data(every)
    ends = np.cumsum([0, len(left), len(right), len(under)])
    sides = [
        (space, list(zip(lifted[lo:hi], per_panel[lo:hi], strict=True)))
        for space, lo, hi in zip(("roc", "cost", "below"), ends[:-1], ends[1:], strict=True)
        if hi > lo
    ]
    panels = [None] if not facet else list(values)
    # Each selection the hover targets set, with the views that set it.
    declared: dict[str, tuple[alt.Parameter, list[str]]] = {}
    pairs: list = []
    for value in panels:
        views, owned = {}, []
        for space, side in sides:
            # Layers without the facet column (trivial lines, the key) show in every panel.
            stack = [_panel_filter(c, facet, value) if own else c for c, own in side]
            params: list = []
            if hover is not None and space in TARGET_VIEWS and _is_target(stack[0]):
                params = [] if stack[0].params is alt.Undefined else list(stack[0].params)
                # A new name per panel and side.
                panel = content_name(TARGET_VIEWS[space], str(hover.name), repr(_plain(value)))
                stack[0] = without_params(stack[0], panel)
            elif (
                hover is not None
                and getattr(stack[0], "params", alt.Undefined) is not alt.Undefined
            ):
                # A legend declared on a plain layer (no hover targets): at the top too.
                params = list(stack[0].params)
                panel = content_name("costchart_view", str(hover.name), space, repr(_plain(value)))
                stack[0] = without_params(stack[0], panel)
            tall = height if space == "below" else look.size
            views[space] = layered_view(stack, width=look.size, height=tall)
            owned.append((params, views[space]))
        for params, view in owned:
            for param in params:
                declared.setdefault(str(param.name), (param, []))[1].append(str(view.layer[0].name))
        # As every facet header: the column named ("dataset: sonar").
        title = alt.Title(_panel_title(facet, value), anchor="middle") if facet else alt.Undefined
        shown: list = list(views.values())
        if "below" in views:
            column = alt.VConcatChart(vconcat=[views["cost"], views["below"]], spacing=4)
            shown = [*([views["roc"]] if "roc" in views else []), column]
        if len(shown) > 1:
            pairs.append(_side_by_side(shown, title, top=not facet))
        elif isinstance(shown[0], alt.VConcatChart):  # the cost view and the one below
            shown[0].title = title
            pairs.append(shown[0])
        else:
            pairs.append(alt.VConcatChart(vconcat=shown, title=title))
    per_row = 1 if look.columns is None else look.columns  # a pair is two panels wide
    chart: alt.ConcatChart | alt.HConcatChart | alt.VConcatChart
    if facet:
        chart = alt.ConcatChart(concat=[], columns=per_row)
        chart.concat = pairs  # given after: see _side_by_side
    else:
        chart = pairs[0]  # the chart itself (top=True), or the cost view over the strip
    chart.data = combined
    if declared:
        chart.params = [top_level(param, views) for param, views in declared.values()]
    return titled(chart, look)


def _panel_title(facet, value) -> str:
    """A panel's header: ``"dataset: sonar"``, or ``"dataset: sonar, fold: 1"``."""
    if not isinstance(facet, list):
        return f"{facet}: {value}"
    return ", ".join(f"{f}: {v}" for f, v in zip(facet, value, strict=True))


@checked
@ready_chart
def roc_cost_chart(
    points,
    *,
    color: str | None = None,
    facet: str | None = None,
    by: str | Sequence[str] | None = None,
    y_max: float | None = None,
    ranges: bool = True,
    combined: bool = False,
    iso: Sequence[float] | None = None,
    chance: bool = True,
    markers: Mapping[str, float] | Sequence[float] | None = None,
    cost_lines: str = "all",
    max_points: int = 100,
    name: str | None = None,
    look: Look,
) -> alt.HConcatChart | alt.ConcatChart:
    """A ROC chart and a cost chart side by side, linked.

    Hovering a ROC point highlights its cost line and hovering a cost line highlights its
    ROC point; clicking a legend entry isolates a classifier in both (shift-click adds
    more). In a panel of more than 8 curves the cost lines are drawn on demand: hovering
    or clicking a curve (its ROC points or its envelope) shows its cost lines, and so does
    picking its classifier in the legend. With ``facet=``, each facet value gets a titled
    pair of views, ``columns`` pairs per row. Selections are named from the chart's content
    (or ``name=``), so identical calls give identical specs and charts of different data
    composed with ``&`` or ``|`` stay independent.

    Parameters
    ----------
    points : pandas, polars or pyarrow table
        ROC points, e.g. from :func:`costchart.roc_points` with ``by=``.
    classifier, facet, by, y_max, ranges, iso, show_chance, markers, cost_lines, max_points
        As in :func:`roc_chart` and :func:`cost_chart`.
    combined : bool
        Also draw the lower envelope of the classifiers shown in the cost view (as in
        :func:`cost_chart`) and its dual, the ROC convex hull of their points together,
        in the ROC view; both follow the legend.
    palette, title, subtitle, show_key, size, name
        As in :func:`cost_chart`.
    columns : int
        Pairs of views per row when faceted.

    Returns
    -------
    altair.HConcatChart or altair.ConcatChart

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"s": [4, 3, 2, 1] * 2, "y": [1, 0, 1, 0] * 2, "model": ["a"] * 4 + ["b"] * 4}
    >>> points = cc.roc_points(data, score="s", label="y", by="model")
    >>> views = cc.roc_cost_chart(points, classifier="model", combined=True).to_dict()["hconcat"]
    >>> plain = cc.roc_cost_chart(points, classifier="model").to_dict()["hconcat"]
    >>> [len(view["layer"]) - len(p["layer"]) for view, p in zip(views, plain)]
    [1, 1]
    """
    given, ranges = y_max, flag(ranges, "ranges")
    chance, combined = flag(chance, "show_chance"), flag(combined, "combined")
    one_of(cost_lines, "cost_lines", ("all", "hull", "none"))
    markers, iso = check_markers(markers), check_iso(iso)
    tables = drawn_tables(points, color=color, facet=facet, max_points=max_points, by=by)
    y_max = cost_top(given, tables.envelope[col.COST])  # fitted to the envelopes
    options = (color, facet, y_max, max_points, cost_lines, iso, chance)
    name = chart_name(
        name, tables.points, "roc_cost", *options, *(("combined",) if combined else ())
    )
    hover, legend = layers.selections([*tables.by, col.LINE], color, name=name)
    hull = least = None
    if combined:
        grid = combined_grid(tables, color=color, facet=facet)  # one frame, stored once
        hull = combined_hull(grid, facet=facet, legend=legend)
        least = combined_envelope(grid, facet=facet, legend=legend, y_max=y_max)
    curves = curve_selections(tables, name)
    colors = colors_of(tables.points, color, look)
    roc, roc_entries = roc_layers(
        tables,
        color=color,
        colors=colors,
        hover=hover,
        legend=legend,
        iso=iso,
        chance=chance,
        with_legend=True,
        keys=None,
        curves=curves,
        combined=hull,
    )
    cost, cost_entries = cost_layers(
        tables,
        color=color,
        colors=colors,
        hover=hover,
        legend=legend,
        y_max=y_max,
        ranges=ranges,
        markers=markers,
        cost_lines=cost_lines,
        with_legend=False,
        keys=None,
        curves=curves,
        combined=least,
    )
    if look.key:
        cost = [*cost, layers.key(roc_entries + cost_entries + zoom_entries(given, y_max))]
    values = tables.keys[facet].tolist() if facet else None
    chart = pairs(roc, cost, facet=facet, values=values, look=look, hover=hover)
    return register(chart, tables.public)
