"""``cost_chart``: cost curves with their cost lines, lower envelope and trivial classifiers.

This module holds :func:`cost_chart` and :func:`cost_layers`, the cost view's layers and
the key entries that explain them, which the linked ROC-and-cost chart
(:mod:`costchart._charts.linked`) reuses for its cost view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt

from costchart import layers
from costchart._charts._compose import compose, with_key, zoom_entries
from costchart._charts._drawn import ChartTables, drawn_tables
from costchart._charts._mark_budget import (
    chosen_curves,
    curve_selections,
    filtered_first,
    hull_lines,
    hull_only,
    lines_sampled,
)
from costchart._charts._options import (
    Look,
    chart_name,
    check_markers,
    colors_of,
    keys_of,
    ready_chart,
)
from costchart._charts._registry import register
from costchart._charts.combined import COMBINED_ENVELOPE, combined_envelope, combined_grid
from costchart._charts.owners import owner_layers, owner_tables
from costchart._cost.geometry import cost_top
from costchart._io import schema as col
from costchart._io.parameters import checked
from costchart._io.validation import flag, one_of
from costchart._vega import content_name
from costchart.layers._base import INK, color_channel
from costchart.layers.cost import draw_cost_lines, draw_envelope, draw_operating_ranges
from costchart.layers.interaction import TARGET_VIEWS, draw_hover_targets

__all__ = ["cost_chart", "cost_layers"]


def cost_layers(
    tables: ChartTables,
    *,
    color,
    colors,
    hover,
    legend,
    y_max,
    ranges,
    markers,
    cost_lines,
    with_legend,
    keys,
    curves=None,
    combined=None,
    owners=None,
):
    """The cost view's layers and the key entries that explain them.

    ``curves`` (from :func:`~costchart._charts._mark_budget.curve_selections`, crowded charts
    only) puts the mark budget in place: cost lines only for the curves hovered, clicked
    or picked in the legend, and hover targets along the envelopes, which set them.
    ``combined`` is the layer of the envelope of the classifiers shown
    (:func:`costchart._charts.combined.combined_envelope`), drawn over the envelopes.
    ``owners`` are the layers and key entries of ``show_owners=True``
    (:func:`costchart._charts.owners.owner_layers`): stretches beneath the lines, mixtures
    above them.
    """
    entries: list[tuple[str, str]] = []
    stack = []
    lines_drawn = cost_lines != "none"
    envelope = draw_envelope(
        tables.envelope, color=color, palette=colors, legend=legend, y_max=y_max
    )
    if lines_drawn and hover is not None:
        if curves is not None:
            chooser = [hover, *curves, *([legend] if with_legend and legend is not None else [])]
            name = content_name(
                TARGET_VIEWS["cost"], tables.envelope, color, y_max, str(hover.name), "envelope"
            )
            stack.append(_envelope_targets(envelope, tables, chooser, color, colors, name))
        else:
            stack.append(
                hull_lines(
                    draw_hover_targets(
                        tables.points,
                        space="cost",
                        hover=hover,
                        legend=legend if with_legend else None,
                        color=color,
                        palette=colors,
                        y_max=y_max,
                    ),
                    tables,
                    cost_lines,
                )
            )
    stack.append(layers.trivial_region(y_max=y_max, facet=keys))
    entries.append(("worse than a trivial classifier", "region"))
    if owners is not None:
        stack.extend(owners[0])
        entries.extend(owners[2])
    if lines_drawn:
        lines = hull_lines(
            draw_cost_lines(
                tables.points,
                color=color,
                palette=colors,
                hover=hover,
                legend=legend,
                y_max=y_max,
                max_points=None,
            ),
            tables,
            cost_lines,
        )
        if curves is not None:
            lines = filtered_first(lines, chosen_curves(curves, legend))
        stack.append(lines)
        entries.append((_lines_entry(tables, cost_lines, curves, legend), "thin line"))
    stack.append(layers.trivial(y_max=y_max, facet=keys))
    entries.append(("trivial classifiers", "trivial"))
    stack.append(envelope)
    entries.append(("lower envelope", "bold line"))
    if combined is not None:
        stack.append(combined)
        entries.append((COMBINED_ENVELOPE, "thick dashed line"))
    if owners is not None:
        stack.extend(owners[1])  # the mixtures, on top of the lines
    if ranges:
        stack.append(
            draw_operating_ranges(
                tables.ranges, color=color, palette=colors, legend=legend, y_max=y_max
            )
        )
        entries.append(("operating range", "rule"))
    if markers:
        stack.append(layers.pc_markers(markers, facet=keys))
        stack.append(layers.pc_labels(markers, y_max=y_max, facet=keys))
        entries.append(("marked operating points (pc)", "dotted line"))
    return stack, entries


def _lines_entry(tables: ChartTables, cost_lines: str, curves, legend) -> str:
    """The key's words for the cost lines: which are drawn, and what was left out."""
    if curves is not None:
        return "cost lines: hover or click a curve" + (
            ", or pick in the legend" if legend is not None else ""
        )
    if hull_only(tables, cost_lines):
        return "cost lines of the ROC hull vertices"
    if lines_sampled(tables):
        return "cost lines (hull vertices, and a sample of the other ROC points)"
    return "cost lines (one per ROC point)"


#: The legend of invisible marks: their symbols must not be invisible too.
_TARGET_LEGEND = alt.Legend(symbolOpacity=1, symbolType="stroke", symbolStrokeWidth=3)


def _envelope_targets(envelope: alt.Chart, tables: ChartTables, params, color, colors, name):
    """Wide invisible strokes along the envelopes that select their curve on hover or click.

    Made from the envelope layer itself, so the spec stores the envelope's rows once.
    They also declare the hover selection of single points, which the cost lines react to
    (an envelope sets no single point: its rows have no ``line``).
    """
    targets = envelope.mark_line(strokeWidth=12, strokeCap="round").encode(
        strokeOpacity=alt.value(0.001)
    )
    if color:
        targets = targets.encode(
            color=color_channel(tables.envelope, color, INK, colors, legend=_TARGET_LEGEND)
        )
    return targets.properties(name=name).add_params(*params)


@checked
@ready_chart
def cost_chart(
    points,
    *,
    color: str | None = None,
    facet: str | None = None,
    by: str | Sequence[str] | None = None,
    y_max: float | None = None,
    ranges: bool = True,
    combined: bool = False,
    markers: Mapping[str, float] | Sequence[float] | None = None,
    cost_lines: str = "all",
    max_points: int = 100,
    show_owners: bool = False,
    name: str | None = None,
    look: Look,
) -> alt.LayerChart | alt.FacetChart:
    """Cost curves: the cost lines, the lower envelope, the trivial classifiers, a key.

    Parameters
    ----------
    points : pandas, polars or pyarrow table
        ROC points, e.g. from :func:`costchart.roc_points` with ``by=``.
    classifier : str, optional
        Grouping column that tells classifiers apart; its legend is clickable.
    facet : str, optional
        Grouping column for a grid of panels (e.g. ``"dataset"``).
    by : str or list of str, optional
        Grouping columns of the table: by default the grouping it carries, with the
        ``classifier=`` and ``facet=`` columns counted as declared (see the glossary).
    y_max : float, optional
        Top of the cost axis; every mark is cut there. By default (``None``) it is fitted
        to the envelopes: their largest cost plus a tenth, rounded up to a multiple of
        0.05 (of 0.1 above 0.3), at most 0.5 as in the papers; where that is below 0.5
        the key says so ("cost axis to 0.2, fitted to the curves"). Pass 0.5 for the
        papers' axis (the same scale for every chart), 1 for the whole lines.
    ranges : bool
        Draw the envelope's operating range as dashed rules.
    combined : bool
        Also draw the lower envelope of the classifiers shown, thick, dark and dashed:
        the least cost any of them reaches at each ``pc``. Picking classifiers in the
        legend (click, shift-click) recomputes it in the page, exactly; with none picked
        it is the envelope of all of them. Each curve counts (with ``by=[classifier,
        fold]``, every fold of the classifiers shown); without ``classifier=`` it is the
        envelope of every curve in the panel. One per facet panel. See
        ``docs/charts.md``, "The envelope of the classifiers you pick".
    markers : dict or list, optional
        Operating points to mark, e.g. ``{"3:1": cc.pc_from_cost_ratio(3)}``.
    cost_lines : {"all", "hull", "none"}
        Draw every drawn ROC point's cost line (above 1,000 points, only the hull
        vertices'), only the hull vertices' (the only ones that can be on the envelope),
        or none. A panel of more than 8 curves draws its hull vertices' cost lines only on
        demand: for the curve hovered or clicked and the classifiers picked in the legend
        (so a static image of it shows none); facet by a column to put fewer curves in a
        panel, or build the layers yourself to draw them all (``docs/charts.md``, "Many
        curves").
    max_points : int
        Points drawn per curve (hull vertices always; see :func:`costchart.thin_points`).
    show_owners : bool
        Pool the classifiers of each panel (every grouping column but ``classifier=``) and
        mark which one is the cheapest where (:func:`costchart.cheapest_regions`): each
        stretch of their envelope as a wide, pale stroke in its owner's colour (grey where
        a trivial classifier is the cheapest), and each switch from one classifier to
        another, where a mixture of the two is optimal, as an open dot. Needs
        ``classifier=``.
    palette : dict, optional
        Colours of ``classifier``'s values (see :func:`costchart._palette`); pass the same one
        to every chart of a report.
    title, subtitle : str, optional
        The chart's title and a line under it.
    show_key : bool
        Add the key: a legend entry for every kind of element drawn.
    size : int
        Width and height of a panel in pixels (panels are square).
    columns : int, optional
        Panels per row when faceted; by default 3.
    name : str, optional
        Prefix of the chart's selection and view names. By default it is made from the
        chart's data and options, so identical calls give identical specs; pass one to
        compose two charts of identical content.

    Returns
    -------
    altair.LayerChart or altair.FacetChart

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> spec = cc.cost_chart(points, title="Four instances").to_dict()
    >>> spec["width"], spec["height"], spec["title"]["text"]
    (280, 280, 'Four instances')

    The cost axis fits the envelope: its largest cost, 0.25, plus a tenth, rounded up:

    >>> spec["layer"][0]["encoding"]["y"]["scale"]["domain"]
    [0, 0.3]

    With two classifiers, the envelope of the ones picked in the legend:

    >>> data = {"s": [4, 3, 2, 1] * 2, "y": [1, 0, 1, 0] * 2, "model": ["a"] * 4 + ["b"] * 4}
    >>> two = cc.roc_points(data, score="s", label="y", by="model")
    >>> chart = cc.cost_chart(two, classifier="model", combined=True)
    >>> [e for e in chart.to_dict()["layer"][-1]["encoding"]["shape"]["scale"]["domain"]
    ...  if "shown" in e]
    ['lower envelope of the classifiers shown']
    """
    given, ranges = y_max, flag(ranges, "ranges")
    combined = flag(combined, "combined")
    show_owners = flag(show_owners, "show_owners")
    one_of(cost_lines, "cost_lines", ("all", "hull", "none"))
    markers = check_markers(markers)
    tables = drawn_tables(points, color=color, facet=facet, max_points=max_points, by=by)
    y_max = cost_top(given, tables.envelope[col.COST])
    public = dict(tables.public)
    owners = None
    if show_owners:
        owned = owner_tables(tables, color)
        public |= {"cheapest_regions": owned.regions, "pooled_envelope": owned.envelope}
        colors = colors_of(tables.points, color, look)
        owners = owner_layers(owned, color=str(color), colors=colors, y_max=y_max)
    options = (color, facet, y_max, max_points, cost_lines, *(("combined",) if combined else ()))
    options += ("show_owners",) if show_owners else ()
    name = chart_name(name, tables.points, "cost", *options)
    hover, legend = layers.selections([*tables.by, col.LINE], color, name=name)
    least = None
    if combined:
        grid = combined_grid(tables, color=color, facet=facet, hull=False)
        least = combined_envelope(grid, facet=facet, legend=legend, y_max=y_max)
    keys = keys_of(tables.points, facet)
    stack, entries = cost_layers(
        tables,
        color=color,
        colors=colors_of(tables.points, color, look),
        hover=hover,
        legend=legend,
        y_max=y_max,
        ranges=ranges,
        markers=markers,
        cost_lines=cost_lines,
        with_legend=True,
        keys=keys,
        curves=curve_selections(tables, name),
        combined=least,
        owners=owners,
    )
    if cost_lines == "none" and legend is not None:
        stack[0] = stack[0].add_params(legend)
    chart = compose(
        with_key(stack, entries + zoom_entries(given, y_max), look, keys),
        facet=facet,
        look=look,
        panels=None if keys is None else len(keys),
    )
    return register(chart, public)
