"""Ready compositions: cost, ROC, linked, band, difference and average charts.

Each takes a costchart table, derives what it draws with the transformers (thinning,
hull, envelope, operating ranges, averages) and composes the layers of
:mod:`costchart.layers`, with a key that names every kind of element drawn. The result
is an ordinary Altair chart: change it with ``.properties()``, combine it with ``|`` and
``&`` (each chart's selections have their own names), save it with :func:`costchart.save`.

Every composition takes ``title=``, ``subtitle=``, ``palette=`` (the same colours for a
classifier in every chart), ``key=``, ``size=`` and ``columns=``.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import altair as alt
import numpy as np
import pandas as pd

from costchart import _schema as col
from costchart import layers
from costchart._errors import CostchartError
from costchart._frames import infer_by
from costchart._tables import points_groups
from costchart._validation import flag, labelled_probabilities, one_of, probabilities, whole_number
from costchart._vega import (
    lift_data,
    nominal,
    shared_layer,
    top_level,
    unique_name,
    without_params,
)
from costchart._average import vertical_average
from costchart._roc_average import roc_average
from costchart._envelope import lower_envelope, operating_range
from costchart._geometry import check_y_max
from costchart._hull import roc_hull
from costchart.layers import _base as layers_base
from costchart.layers.interaction import TARGET_VIEWS
from costchart._palette import palette as palette_of
from costchart._roc import auc as area_under
from costchart._thin import thin_points

__all__ = [
    "ChartTables",
    "average_chart",
    "band_chart",
    "chart_tables",
    "cost_chart",
    "difference_chart",
    "roc_chart",
    "roc_cost_chart",
    "shared_layer",
]

#: Decimals kept in embedded data: 1e-5 of the axis is far below a pixel at any size, and
#: every digit dropped shrinks the spec of a many-curve chart by tens of kilobytes.
_DIGITS = 5


@dataclass(frozen=True)
class ChartTables:
    """The tables a composition draws, all small enough to embed in a chart.

    Attributes
    ----------
    points : pandas.DataFrame
        Thinned ROC points: grouping columns, ``line`` (position within the group, the
        same as the cost line's), ``threshold`` (text, for tooltips), ``fpr``, ``tpr``,
        ``range_lo``, ``range_hi`` (the line's operating range) and ``on_hull``.
    envelope : pandas.DataFrame
        The lower envelope of each group (exact: thinning keeps every hull vertex):
        grouping columns, ``pc``, ``cost``, ``threshold`` (text) of the active classifier.
    hull : pandas.DataFrame
        The ROC convex hull of each group.
    ranges : pandas.DataFrame
        The envelope's operating range per group.
    keys : pandas.DataFrame
        One row per facet value (empty without a facet).
    by : list of str
        The grouping columns.
    """

    points: pd.DataFrame
    envelope: pd.DataFrame
    hull: pd.DataFrame
    ranges: pd.DataFrame
    keys: pd.DataFrame
    by: list[str]


def _threshold_text(values: np.ndarray) -> list[str]:
    return [
        "+inf (always negative)"
        if v == np.inf
        else "-inf (always positive)"
        if v == -np.inf
        else ""
        if np.isnan(v)
        else f"{v:.6g}"
        for v in values
    ]


#: Points drawn in all (besides hull vertices): with many curves each gets fewer, down to
#: :data:`MIN_POINTS_PER_CURVE`, so a chart of hundreds of curves stays small and fast.
MAX_CHART_POINTS = 3_000
MIN_POINTS_PER_CURVE = 10

#: Above this many points in a chart, only hull vertices get cost lines, dots and hover
#: targets: the others can never be on the envelope, and thousands of lines are a tangle
#: that takes long to draw.
MAX_ALL_COST_LINES = 1_000


def chart_tables(
    points, *, color: str | None = None, facet: str | None = None, max_points: int = 100
) -> ChartTables:
    """Derive the tables the compositions draw from a ROC points table.

    Parameters
    ----------
    points : pandas.DataFrame
        ROC points, e.g. from :func:`costchart.roc_points`.
    color, facet : str, optional
        Columns for colour (classifiers) and facets (e.g. data sets); they must be grouping
        columns of ``points``.
    max_points : int
        Thinning limit per group (see :func:`costchart.thin_points`).
    """
    whole_number(max_points, "max_points")  # thin_points checks the range
    table, by, _ = points_groups(points, None)
    _check_roles(by, "points", "roc_points", color=color, facet=facet)
    if table.empty:
        msg = "points has no rows; there is no curve to draw"
        raise CostchartError(msg)
    curves = len(table[by].drop_duplicates()) if by else 1
    per_curve = min(max_points, max(MIN_POINTS_PER_CURVE, MAX_CHART_POINTS // curves))
    thinned = thin_points(table, max_points=per_curve, by=by)
    hull = roc_hull(thinned, by=by)
    ranges = operating_range(thinned, by=by)
    chart_points = thinned[by].copy()
    chart_points[col.LINE] = (
        thinned.groupby(by, sort=False, dropna=False).cumcount() if by else np.arange(len(thinned))
    )
    threshold = (
        thinned[col.THRESHOLD].to_numpy(np.float64)
        if col.THRESHOLD in thinned
        else np.full(len(thinned), np.nan)
    )
    chart_points[col.THRESHOLD] = _threshold_text(threshold)
    chart_points[col.FPR] = thinned[col.FPR].round(_DIGITS)
    chart_points[col.TPR] = thinned[col.TPR].round(_DIGITS)
    chart_points["range_lo"] = ranges[col.PC_LO].round(_DIGITS).to_numpy()
    chart_points["range_hi"] = ranges[col.PC_HI].round(_DIGITS).to_numpy()
    hull_keys = pd.MultiIndex.from_frame(hull[[*by, col.FPR, col.TPR]])
    chart_points["on_hull"] = pd.MultiIndex.from_frame(thinned[[*by, col.FPR, col.TPR]]).isin(
        hull_keys
    )
    envelope = lower_envelope(thinned, by=by)
    envelope[col.THRESHOLD] = _threshold_text(envelope[col.THRESHOLD].to_numpy(np.float64))
    # The points carry the rates; the envelope needs only where it bends and who is active.
    envelope = envelope[[*by, col.PC, col.COST, col.THRESHOLD]].round(
        {col.PC: _DIGITS, col.COST: _DIGITS}
    )
    keys = thinned[[facet]].drop_duplicates().reset_index(drop=True) if facet else pd.DataFrame()
    return ChartTables(
        points=chart_points,
        envelope=envelope,
        hull=hull,
        ranges=operating_range(thinned, of="envelope", by=by),
        keys=keys,
        by=by,
    )


def _check_size(size) -> int:
    if (
        isinstance(size, bool)
        or not isinstance(size, (int, np.integer))
        or not 50 <= size <= MAX_SIZE
    ):
        msg = (
            f"size={size!r} must be a whole number of pixels, at least 50 and at most {MAX_SIZE:,}"
        )
        raise CostchartError(msg)
    return int(size)


#: Largest panel size in pixels: larger panels are no use on any screen or page.
MAX_SIZE = 10_000


@dataclass(frozen=True)
class Look:
    """The options every composition takes, checked once."""

    size: int
    columns: int
    title: str | None
    subtitle: str | None
    key: bool
    palette: Mapping | None


def _look(*, size, columns, title, subtitle, key, palette) -> Look:
    whole_number(columns, "columns", minimum=1)
    for name, value in (("title", title), ("subtitle", subtitle)):
        if value is not None and not isinstance(value, str):
            msg = f"{name}={value!r} must be a string (or None for no {name})"
            raise CostchartError(msg)
    if subtitle is not None and title is None:
        msg = "subtitle= needs a title=; pass both"
        raise CostchartError(msg)
    if palette is not None and not isinstance(palette, Mapping):
        msg = f"palette={palette!r} must be a dict of value -> colour (see costchart._palette)"
        raise CostchartError(msg)
    return Look(
        size=_check_size(size),
        columns=int(columns),
        title=title,
        subtitle=subtitle,
        key=flag(key, "key"),
        palette=palette,
    )


def _titled(chart, look: Look):
    if look.title is None:
        return chart
    title = alt.Title(look.title, subtitle=look.subtitle if look.subtitle else alt.Undefined)
    return chart.properties(title=title)


def _check_roles(by: Sequence[str], table: str, source: str, **roles) -> None:
    """Refuse ``color=`` / ``facet=`` values that are not grouping columns of the table."""
    for role, name in roles.items():
        if name is None:
            continue
        if not isinstance(name, Hashable) or name not in by:
            msg = (
                f"{role}={name!r} is not a grouping column of {table}; grouping columns: "
                f"{list(by)}. Pass by=[..., {name!r}] to {source}"
            )
            raise CostchartError(msg)
    if roles.get("color") is not None and roles.get("color") == roles.get("facet"):
        msg = f"color= and facet= are both {roles['color']!r}; pass different columns"
        raise CostchartError(msg)


def _check_markers(markers) -> dict[str, float] | None:
    return None if markers is None else labelled_probabilities(markers, "markers")


def _check_iso(iso) -> list[float] | None:
    if iso is None:
        return None
    values = np.atleast_1d(probabilities(iso, "iso"))
    if values.ndim != 1:
        msg = f"iso={iso!r} must be a list of operating points pc, one line each"
        raise CostchartError(msg)
    return values.tolist()


def _colors(table: pd.DataFrame, color: str | None, look: Look) -> dict | None:
    """One colour per value of ``color`` for every layer of a composition."""
    return palette_of(table[color], colors=look.palette) if color else None


def _keys(table: pd.DataFrame, facet: str | None) -> pd.DataFrame | None:
    return table[[facet]].drop_duplicates().reset_index(drop=True) if facet else None


# Compositions -----------------------------------------------------------------------


def _cost_layers(
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
):
    """The cost view's layers and the key entries that explain them."""
    entries: list[tuple[str, str]] = []
    stack = []
    lines_drawn = cost_lines != "none"
    if lines_drawn and hover is not None:
        stack.append(
            _hull_lines(
                layers.hover_targets(
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
    stack.append(layers.trivial_region(y_max=y_max, keys=keys))
    entries.append(("worse than a trivial classifier", "region"))
    if lines_drawn:
        stack.append(
            _hull_lines(
                layers.cost_lines(
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
        )
        hull_only = cost_lines == "hull" or len(tables.points) > MAX_ALL_COST_LINES
        entries.append(
            ("cost lines of the ROC hull vertices", "thin line")
            if hull_only
            else ("cost lines (one per ROC point)", "thin line")
        )
    stack.append(layers.trivial(y_max=y_max, keys=keys))
    entries.append(("trivial classifiers", "trivial"))
    stack.append(
        layers.envelope(tables.envelope, color=color, palette=colors, legend=legend, y_max=y_max)
    )
    entries.append(("lower envelope", "bold line"))
    if ranges:
        stack.append(
            layers.operating_ranges(
                tables.ranges, color=color, palette=colors, legend=legend, y_max=y_max
            )
        )
        entries.append(("operating range", "rule"))
    if markers:
        stack.append(layers.pc_markers(markers, keys=keys))
        stack.append(layers.pc_labels(markers, y_max=y_max, keys=keys))
    return stack, entries


def _hull_lines(chart: alt.Chart, tables: ChartTables, cost_lines: str) -> alt.Chart:
    """Keep only hull vertices' cost lines (and their hover targets) when asked or many.

    The ROC curves still pass through every drawn point.
    """
    if cost_lines == "hull" or len(tables.points) > MAX_ALL_COST_LINES:
        return chart.transform_filter(f"datum.{col.ON_HULL}")
    return chart


def _roc_layers(
    tables: ChartTables, *, color, colors, hover, legend, iso, chance, with_legend, keys
):
    """The ROC view's layers and the key entries that explain them."""
    stack = []
    entries: list[tuple[str, str]] = []
    if hover is not None:
        stack.append(
            _hull_lines(
                layers.hover_targets(
                    tables.points,
                    space="roc",
                    hover=hover,
                    legend=legend if with_legend else None,
                    color=color,
                    palette=colors,
                ),
                tables,
                "all",
            )
        )
    if chance:
        stack.append(layers.chance(keys=keys))
    common = {"color": color, "palette": colors, "legend": legend}
    stack.append(layers.roc_curve(tables.points, max_points=None, **common))
    entries.append(("ROC curve", "line"))
    stack.append(layers.hull(tables.points, **common))
    entries.append(("ROC convex hull", "dashed line"))
    stack.append(
        _hull_lines(
            layers.roc_markers(tables.points, hover=hover, max_points=None, **common),
            tables,
            "all",
        )
    )
    entries.append(("ROC points (thresholds)", "dot"))
    if iso is not None:
        stack.append(layers.iso_performance(tables.hull, pc=iso, **common))
        shown = ", ".join(f"{v:g}" for v in iso)
        entries.append(
            (f"iso-performance line{'s' if len(iso) > 1 else ''} (pc = {shown})", "dotted line")
        )
    if chance:
        entries.append(("chance diagonal", "chance"))
    return stack, entries


def _auc_labels(points: pd.DataFrame, color: str | None, facet: str | None):
    """AUC per colour value (and panel): the legend's labels, or rows for text marks."""
    by = [c for c in (facet, color) if c]
    areas = area_under(points, by=by) if by else area_under(points)
    curves = points_groups(points, None)[1]
    extra = [c for c in curves if c not in by]
    if extra:
        msg = (
            f"auc=True needs one curve per colour value and panel, but {extra} also tell "
            "curves apart; drop or average them first (e.g. cc.roc_average)"
        )
        raise CostchartError(msg)
    return areas


def _with_auc(stack, points, color, facet, colors):
    """Show each curve's AUC: in the legend's labels, or as text in each panel.

    The areas come from all of ``points``, not the thinned points drawn.
    """
    table = points_groups(points, None)[0]
    areas = _auc_labels(table, color, facet)
    if color and not facet:
        text = {
            str(k): f"{k} (AUC {v:.3f})" for k, v in zip(areas[color], areas[col.AUC], strict=True)
        }
        expression = "datum.label"
        for name, label in text.items():
            expression = f"datum.label === {json.dumps(name)} ? {json.dumps(label)} : {expression}"
        return _relabel(stack, expression)
    rows = areas.copy()
    rank = rows.groupby(facet, sort=False).cumcount().to_numpy() if facet else np.arange(len(rows))
    rows[col.FPR] = 1.0
    rows[col.TPR] = 0.03 + 0.07 * rank
    rows["costchart_text"] = [
        f"{k}: AUC {v:.3f}" if color else f"AUC {v:.3f}"
        for k, v in zip(rows[color] if color else rows[col.AUC], rows[col.AUC], strict=True)
    ]
    text = (
        alt.Chart(rows)
        .mark_text(align="right", baseline="bottom", dx=-4, fontSize=11)
        .encode(
            x=layers_base.fpr_x(),
            y=layers_base.tpr_y(),
            text=alt.Text("costchart_text:N"),
            color=layers_base.color_channel(rows, color, layers_base.INK, colors),
        )
    )
    return [*stack, text]


def _with_key(stack, entries, look: Look, keys):
    return [*stack, layers.key(entries, keys=keys)] if look.key and entries else stack


def _compose(stack, *, facet, look: Look):
    # The data always goes to the top: facets need it there, and the combined data set is
    # free of Altair's 5,000-row limit on frames (many curves' hull vertices exceed it).
    chart = shared_layer(*stack).properties(width=look.size, height=look.size)
    if facet:
        chart = chart.facet(facet=alt.Facet(**nominal(facet, title=None)), columns=look.columns)
    return _titled(chart, look)


def _relabel(stack: list, expression: str | None) -> list:
    """The layers with their colour legend relabelled (e.g. with each curve's AUC)."""
    if expression is None:
        return stack
    relabelled = []
    for view in stack:
        encoding = view._get("encoding")
        channel = encoding._get("color") if encoding is not alt.Undefined else alt.Undefined
        if isinstance(channel, alt.Color) and channel._get("legend") is not None:
            legend = channel._get("legend")
            legend = alt.Legend() if legend is alt.Undefined else legend.copy(deep=True)
            legend["labelExpr"] = expression
            legend["labelLimit"] = 400  # names with their AUC are long
            channel = channel.copy(deep=False)
            channel["legend"] = legend
            view = view.encode(color=channel)
        relabelled.append(view)
    return relabelled


def cost_chart(
    points,
    *,
    color: str | None = None,
    facet: str | None = None,
    y_max: float = 0.5,
    ranges: bool = True,
    markers: Mapping[str, float] | Sequence[float] | None = None,
    cost_lines: str = "all",
    max_points: int = 100,
    palette: Mapping | None = None,
    title: str | None = None,
    subtitle: str | None = None,
    key: bool = True,
    size: int = 280,
    columns: int = 3,
) -> alt.LayerChart | alt.FacetChart:
    """Cost curves: the cost lines, the lower envelope, the trivial classifiers, a key.

    Parameters
    ----------
    points : pandas, polars or pyarrow table
        ROC points, e.g. from :func:`costchart.roc_points` with ``by=``.
    color : str, optional
        Grouping column that tells classifiers apart; its legend is clickable.
    facet : str, optional
        Grouping column for a grid of panels (e.g. ``"dataset"``).
    y_max : float
        Top of the cost axis: 0.5 as in the papers, 1 for the whole lines, less to zoom
        on good classifiers. Every mark is cut there.
    ranges : bool
        Draw the envelope's operating range as dashed rules.
    markers : dict or list, optional
        Operating points to mark, e.g. ``{"3:1": cc.pc_from_cost_ratio(3)}``.
    cost_lines : {"all", "hull", "none"}
        Draw every drawn ROC point's cost line (above 1,000 points, only the hull
        vertices'), only the hull vertices' (the only ones that can be on the envelope),
        or none.
    max_points : int
        Points drawn per curve (hull vertices always; see :func:`costchart.thin_points`).
    palette : dict, optional
        Colours of ``color``'s values (see :func:`costchart._palette`); pass the same one
        to every chart of a report.
    title, subtitle : str, optional
        The chart's title and a line under it.
    key : bool
        Add the key: a legend entry for every kind of element drawn.
    size : int
        Width and height of a panel in pixels (panels are square).
    columns : int
        Panels per row when faceted.

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
    """
    look = _look(
        size=size, columns=columns, title=title, subtitle=subtitle, key=key, palette=palette
    )
    y_max, ranges = check_y_max(y_max), flag(ranges, "ranges")
    one_of(cost_lines, "cost_lines", ("all", "hull", "none"))
    markers = _check_markers(markers)
    tables = chart_tables(points, color=color, facet=facet, max_points=max_points)
    hover, legend = layers.selections([*tables.by, col.LINE], color)
    keys = _keys(tables.points, facet)
    stack, entries = _cost_layers(
        tables,
        color=color,
        colors=_colors(tables.points, color, look),
        hover=hover,
        legend=legend,
        y_max=y_max,
        ranges=ranges,
        markers=markers,
        cost_lines=cost_lines,
        with_legend=True,
        keys=keys,
    )
    if cost_lines == "none" and legend is not None:
        stack[0] = stack[0].add_params(legend)
    return _compose(_with_key(stack, entries, look, keys), facet=facet, look=look)


def roc_chart(
    points,
    *,
    color: str | None = None,
    facet: str | None = None,
    iso: Sequence[float] | None = None,
    chance: bool = True,
    auc: bool = False,
    max_points: int = 100,
    palette: Mapping | None = None,
    title: str | None = None,
    subtitle: str | None = None,
    key: bool = True,
    size: int = 280,
    columns: int = 3,
) -> alt.LayerChart | alt.FacetChart:
    """ROC curves with their convex hulls, the chance diagonal and a key.

    Parameters
    ----------
    points : pandas, polars or pyarrow table
        ROC points, e.g. from :func:`costchart.roc_points` with ``by=``.
    color, facet
        As in :func:`cost_chart`.
    iso : list of float, optional
        Operating points ``pc`` whose iso-performance lines to draw.
    chance : bool
        Draw the chance diagonal.
    auc : bool
        Show each curve's area under the ROC curve: in the colour legend's labels, or, with
        ``facet=``, as text in each panel. Needs one curve per colour value and panel.
    max_points, palette, title, subtitle, key, size, columns
        As in :func:`cost_chart`.

    Returns
    -------
    altair.LayerChart or altair.FacetChart
    """
    look = _look(
        size=size, columns=columns, title=title, subtitle=subtitle, key=key, palette=palette
    )
    iso = _check_iso(iso)
    chance, auc = flag(chance, "chance"), flag(auc, "auc")
    tables = chart_tables(points, color=color, facet=facet, max_points=max_points)
    hover, legend = layers.selections([*tables.by, col.LINE], color)
    keys = _keys(tables.points, facet)
    colors = _colors(tables.points, color, look)
    stack, entries = _roc_layers(
        tables,
        color=color,
        colors=colors,
        hover=hover,
        legend=legend,
        iso=iso,
        chance=chance,
        with_legend=True,
        keys=keys,
    )
    if auc:
        stack = _with_auc(stack, points, color, facet, colors)
    return _compose(_with_key(stack, entries, look, keys), facet=facet, look=look)


def _panel_filter(chart: alt.Chart, facet: str, value) -> alt.Chart:
    """``chart`` restricted to one facet value."""
    literal = json.dumps(_plain(value))
    return chart.transform_filter(f"datum[{json.dumps(str(facet))}] === {literal}")


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


def _is_target(chart) -> bool:
    name = chart._get("name")
    return isinstance(name, str) and name.startswith(tuple(TARGET_VIEWS.values()))


def _pairs(left, right, *, facet, values, look: Look, hover, legend):
    """Two linked views side by side, or one pair per facet value in a grid.

    Vega-Lite cannot facet a concatenation, so each facet value gets its own pair of
    views over the shared data, filtered to that value; ``look.columns`` pairs per row.
    All layers' data goes into one data set at the top (:func:`costchart._vega.lift_data`):
    stored once, and free of Altair's 5,000-row limit on frames. The selections are
    declared once at the top for every view whose marks set them (see
    :func:`costchart._vega.top_level`).
    """
    per_panel = [
        facet is not None and isinstance(c.data, pd.DataFrame) and facet in c.data.columns
        for c in (*left, *right)
    ]
    combined, lifted = lift_data([*left, *right])
    sides = (
        list(zip(lifted[: len(left)], per_panel[: len(left)], strict=True)),
        list(zip(lifted[len(left) :], per_panel[len(left) :], strict=True)),
    )
    panels = [None] if not facet else list(values)
    targets: dict[str, list[str]] = {"roc": [], "cost": []}
    pairs = []
    for value in panels:
        views = []
        for side, space in zip(sides, ("roc", "cost"), strict=True):
            # Layers without the facet column (trivial lines, the key) show in every panel.
            stack = [_panel_filter(c, facet, value) if own else c for c, own in side]
            if hover is not None and _is_target(stack[0]):
                # A new name per panel; Altair appends the view's position to it.
                stack[0] = without_params(stack[0], unique_name(TARGET_VIEWS[space]))
            views.append(alt.layer(*stack).properties(width=look.size, height=look.size))
        pair = alt.hconcat(*views)
        for space, view in zip(("roc", "cost"), pair.hconcat, strict=True):
            first = view.layer[0]
            if hover is not None and _is_target(first):
                targets[space].append(str(first.name))
        if facet:
            pair = pair.properties(title=alt.Title(str(value), anchor="middle"))
        pairs.append(pair)
    chart = alt.concat(*pairs, columns=look.columns) if facet else pairs[0]
    chart.data = combined
    params = []
    if hover is not None:
        params.append(top_level(hover, targets["roc"] + targets["cost"]))
    if legend is not None and targets["roc"]:
        params.append(top_level(legend, targets["roc"]))
    if params:
        chart.params = params
    return _titled(chart, look)


def roc_cost_chart(
    points,
    *,
    color: str | None = None,
    facet: str | None = None,
    y_max: float = 0.5,
    ranges: bool = True,
    iso: Sequence[float] | None = None,
    chance: bool = True,
    markers: Mapping[str, float] | Sequence[float] | None = None,
    cost_lines: str = "all",
    max_points: int = 100,
    palette: Mapping | None = None,
    title: str | None = None,
    subtitle: str | None = None,
    key: bool = True,
    size: int = 280,
    columns: int = 1,
) -> alt.HConcatChart | alt.ConcatChart:
    """A ROC chart and a cost chart side by side, linked.

    Hovering a ROC point highlights its cost line and hovering a cost line highlights its
    ROC point; clicking a legend entry isolates a classifier in both (shift-click adds
    more). With ``facet=``, each facet value gets a titled pair of views, ``columns``
    pairs per row. Each call names its selections afresh, so two such charts composed
    with ``&`` or ``|`` stay independent.

    Parameters
    ----------
    points : pandas, polars or pyarrow table
        ROC points, e.g. from :func:`costchart.roc_points` with ``by=``.
    color, facet, y_max, ranges, iso, chance, markers, cost_lines, max_points
        As in :func:`roc_chart` and :func:`cost_chart`.
    palette, title, subtitle, key, size
        As in :func:`cost_chart`.
    columns : int
        Pairs of views per row when faceted.

    Returns
    -------
    altair.HConcatChart or altair.ConcatChart
    """
    look = _look(
        size=size, columns=columns, title=title, subtitle=subtitle, key=key, palette=palette
    )
    y_max, ranges = check_y_max(y_max), flag(ranges, "ranges")
    chance = flag(chance, "chance")
    one_of(cost_lines, "cost_lines", ("all", "hull", "none"))
    markers, iso = _check_markers(markers), _check_iso(iso)
    tables = chart_tables(points, color=color, facet=facet, max_points=max_points)
    hover, legend = layers.selections([*tables.by, col.LINE], color)
    colors = _colors(tables.points, color, look)
    roc, roc_entries = _roc_layers(
        tables,
        color=color,
        colors=colors,
        hover=hover,
        legend=legend,
        iso=iso,
        chance=chance,
        with_legend=True,
        keys=None,
    )
    cost, cost_entries = _cost_layers(
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
    )
    if look.key:
        cost = [*cost, layers.key(roc_entries + cost_entries)]
    values = tables.keys[facet].tolist() if facet else None
    return _pairs(roc, cost, facet=facet, values=values, look=look, hover=hover, legend=legend)


def _band_entry(table: pd.DataFrame) -> str:
    from costchart._bands import band_label

    return band_label(table)


def band_chart(
    band,
    *,
    color: str | None = None,
    facet: str | None = None,
    y_max: float = 0.5,
    band_label: str | None = None,
    palette: Mapping | None = None,
    title: str | None = None,
    subtitle: str | None = None,
    key: bool = True,
    size: int = 280,
    columns: int = 3,
) -> alt.LayerChart | alt.FacetChart:
    """A cost curve with its confidence band, over the trivial classifiers, with a key.

    Parameters
    ----------
    band : pandas, polars or pyarrow table
        A table from :func:`costchart.bootstrap_band`.
    color, facet : str, optional
        Grouping columns for colour and panels.
    y_max : float
        Top of the cost axis; the band and curve are cut there.
    band_label : str, optional
        The band's key entry; by default what the band recorded about itself (e.g.
        ``"90 % exact bootstrap band"``, see :func:`costchart.band_label`).
    palette, title, subtitle, key, size, columns
        As in :func:`cost_chart`.
    """
    look = _look(
        size=size, columns=columns, title=title, subtitle=subtitle, key=key, palette=palette
    )
    y_max = check_y_max(y_max)
    if band_label is not None and (not isinstance(band_label, str) or not band_label):
        msg = f"band_label={band_label!r} must be a non-empty string (the band's key entry)"
        raise CostchartError(msg)
    label = band_label or _band_entry(band)
    band = layers_base.read(band, [col.PC, col.COST, col.LOWER, col.UPPER], "band_chart")
    _check_roles(infer_by(band, None), "band", "bootstrap_band", color=color, facet=facet)
    if band.empty:
        msg = "band has no rows; there is no band to draw"
        raise CostchartError(msg)
    keys = _keys(band, facet)
    colors = _colors(band, color, look)
    stack = [
        layers.trivial_region(y_max=y_max, keys=keys),
        layers.band(band, color=color, palette=colors, y_max=y_max),
        layers.envelope(band, color=color, palette=colors, y_max=y_max),
        layers.trivial(y_max=y_max, keys=keys),
    ]
    entries = [
        ("worse than a trivial classifier", "region"),
        (label, "band"),
        ("lower envelope (cost curve)", "bold line"),
        ("trivial classifiers", "trivial"),
    ]
    if col.DEGENERATE in band.columns and band[col.DEGENERATE].eq(True).any():
        stack.append(layers.degenerate_ticks(band, color=color, palette=colors, y_max=y_max))
        entries.append(("zero-width band: no bootstrap variability", "tick"))
    return _compose(_with_key(stack, entries, look, keys), facet=facet, look=look)


def _names(difference: pd.DataFrame, names) -> tuple[str, str]:
    if names is not None:
        if (
            isinstance(names, (str, bytes))
            or not isinstance(names, Sequence)
            or len(names) != 2
            or not all(isinstance(n, str) and n for n in names)
        ):
            msg = f"names={names!r} must be two non-empty strings: the names of a and b"
            raise CostchartError(msg)
        return names[0], names[1]
    recorded = difference.attrs.get("costchart", {}) if hasattr(difference, "attrs") else {}
    a, b = recorded.get("a"), recorded.get("b")
    return (str(a), str(b)) if a is not None and b is not None else ("a", "b")


def difference_chart(
    difference,
    *,
    facet: str | None = None,
    names: Sequence[str] | None = None,
    band_label: str | None = None,
    palette: Mapping | None = None,
    title: str | None = None,
    subtitle: str | None = None,
    key: bool = True,
    size: int = 280,
    columns: int = 3,
) -> alt.LayerChart | alt.FacetChart:
    """The cost difference of two classifiers with its band, where one is cheaper shaded.

    The axis and key name both classifiers; the shading, coloured by the classifier that
    is significantly cheaper, covers the ``pc`` where the band excludes 0 under the
    minimum-evidence rule of :func:`costchart.difference_band` (see
    :func:`costchart.significant_regions`).

    Parameters
    ----------
    difference : pandas, polars or pyarrow table
        A table from :func:`costchart.difference_band`.
    facet : str, optional
        Grouping column for panels.
    names : (str, str), optional
        Names of ``a`` and ``b``; by default those the band recorded (else "a", "b").
    band_label : str, optional
        The band's key entry; by default what the band recorded about itself.
    palette : dict, optional
        Colours of the two names (see :func:`costchart._palette`).
    title, subtitle, key, size, columns
        As in :func:`cost_chart`.
    """
    look = _look(
        size=size, columns=columns, title=title, subtitle=subtitle, key=key, palette=palette
    )
    if band_label is not None and (not isinstance(band_label, str) or not band_label):
        msg = f"band_label={band_label!r} must be a non-empty string (the band's key entry)"
        raise CostchartError(msg)
    a, b = (
        _names(difference, names) if hasattr(difference, "attrs") else _names(pd.DataFrame(), names)
    )
    label = band_label or _band_entry(difference)
    table = layers_base.read(
        difference,
        [col.PC, col.DIFFERENCE, col.LOWER, col.UPPER, col.SIGNIFICANT],
        "difference_chart",
    )
    table.attrs = dict(getattr(difference, "attrs", {}))
    _check_roles(infer_by(table, None), "difference", "difference_band", facet=facet)
    if table.empty:
        msg = "difference has no rows; there is no difference to draw"
        raise CostchartError(msg)
    keys = _keys(table, facet)
    colors = palette_of([a, b], colors=look.palette)
    name = f"{a} - {b}"
    axis = f"Cost of {a} minus cost of {b}"
    drawn = table.assign(costchart_low=table[col.LOWER], costchart_high=table[col.UPPER])
    band = layers_base.build(
        alt.Chart(drawn),
        drawn,
        mark="area",
        # Neutral grey: the shading below it is in the classifiers' colours.
        style={"fillOpacity": 0.3, "color": layers_base.MUTED},
        encoding={
            "x": layers_base.pc_x(),
            "y": alt.Y("costchart_low:Q", title=axis),
            "y2": alt.Y2("costchart_high:Q"),
        },
        detail=False,
        fields=((col.PC, "Q", "pc"), (col.LOWER, "Q", "lower"), (col.UPPER, "Q", "upper")),
    )
    curve = layers.difference_curve(table, name=name).encode(
        y=alt.Y(f"{col.DIFFERENCE}:Q", title=axis)
    )
    stack = [
        layers.significance(table, names=(a, b), palette=colors),
        band,
        curve,
        layers.zero_rule(keys=keys),
    ]
    entries = [
        (f"difference, {a} - {b} (below 0: {a} cheaper)", "bold line"),
        (label, "spread"),
        ("no difference", "rule"),
    ]
    return _compose(_with_key(stack, entries, look, keys), facet=facet, look=look)


def average_chart(
    points,
    *,
    over: str | Sequence[str],
    color: str | None = None,
    facet: str | None = None,
    spread: str = "range",
    roc: bool = True,
    y_max: float = 0.5,
    palette: Mapping | None = None,
    title: str | None = None,
    subtitle: str | None = None,
    key: bool = True,
    size: int = 280,
    columns: int = 1,
) -> alt.LayerChart | alt.HConcatChart | alt.ConcatChart | alt.FacetChart:
    """The vertical average of cost curves over folds, with its spread, and its ROC dual.

    The cost view draws :func:`costchart.vertical_average` (the mean normalized expected
    cost at each ``pc``: the expected cost of the classifier picked per fold) with the
    range over the curves or one standard deviation either side; the ROC view beside it
    draws :func:`costchart.roc_average`'s vertical average with the range of TPR as error
    bars. Only the cost average is an average of costs.

    Parameters
    ----------
    points : pandas, polars or pyarrow table
        ROC points of several curves, e.g. ``roc_points(..., by=["classifier", "fold"])``.
    over : str or list of str
        The column(s) whose curves are averaged (e.g. ``"fold"``).
    color, facet
        As in :func:`cost_chart` (grouping columns other than ``over``).
    spread : {"range", "sd"}
        Shade from the lowest to the highest curve, or the mean plus and minus one
        standard deviation.
    roc : bool
        Draw the ROC vertical average beside the cost average.
    y_max, palette, title, subtitle, key, size
        As in :func:`cost_chart`.
    columns : int
        With ``roc=True``, pairs of views per row when faceted; else panels per row.

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"s": [4, 3, 2, 1] * 2, "y": [1, 0, 1, 0, 1, 1, 0, 0], "fold": [1] * 4 + [2] * 4}
    >>> points = cc.roc_points(data, score="s", label="y", by="fold")
    >>> type(cc.average_chart(points, over="fold")).__name__
    'HConcatChart'
    """
    look = _look(
        size=size, columns=columns, title=title, subtitle=subtitle, key=key, palette=palette
    )
    y_max, roc = check_y_max(y_max), flag(roc, "roc")
    one_of(spread, "spread", ("range", "sd"))
    average = vertical_average(points, over=over)
    by = infer_by(average, None)
    _check_roles(by, "the averaged curves", "roc_points", color=color, facet=facet)
    keys = _keys(average, facet)
    colors = _colors(average, color, look)
    spread_label = (
        "range over the curves (lowest to highest)" if spread == "range" else "mean ± 1 sd"
    )
    cost = [
        layers.trivial_region(y_max=y_max, keys=keys),
        layers.average_band(average, color=color, palette=colors, spread=spread, y_max=y_max),
        layers.trivial(y_max=y_max, keys=keys),
        layers.envelope(average, color=color, palette=colors, y_max=y_max),
    ]
    entries = [
        ("worse than a trivial classifier", "region"),
        (f"cost average's {spread_label}", "spread"),
        ("trivial classifiers", "trivial"),
        ("vertical average of the cost curves", "bold line"),
    ]
    if not roc:
        return _compose(_with_key(cost, entries, look, keys), facet=facet, look=look)
    roc_table = roc_average(points, over=over, method="vertical")
    roc_layers = [
        layers.chance(),
        layers.roc_spread(roc_table, color=color, palette=colors),
        layers.roc_curve(roc_table, color=color, palette=colors, max_points=None),
    ]
    entries += [
        ("ROC vertical average", "line"),
        ("range of TPR over the curves", "error bar"),
        ("chance diagonal", "chance"),
    ]
    if look.key:
        cost = [*cost, layers.key(entries)]
    values = keys[facet].tolist() if facet and keys is not None else None
    return _pairs(roc_layers, cost, facet=facet, values=values, look=look, hover=None, legend=None)
