"""Ready compositions: cost chart, ROC chart and the linked ROC + cost pair.

Each takes a ROC points table (from :func:`costchart.roc_points`,
:func:`costchart.from_confusion` or later :func:`costchart.rociv`), derives what it draws
with the transformers (thinning, hull, envelope, operating ranges) and composes the layers
of :mod:`costchart.layers`. The result is an ordinary Altair chart: change it with
``.properties()``, combine it with ``|`` and ``&``, save it with :func:`costchart.save`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import altair as alt
import numpy as np
import pandas as pd
from altair.utils.schemapi import debug_mode

from costchart import _schema as col
from costchart import layers
from costchart._errors import CostchartError
from costchart._frames import infer_by
from costchart._tables import points_groups
from costchart._validation import flag, labelled_probabilities, probabilities, whole_number
from costchart._vega import field, nominal
from costchart.envelope import lower_envelope, operating_range
from costchart.hull import roc_hull
from costchart.thin import thin_points

__all__ = [
    "ChartTables",
    "band_chart",
    "chart_tables",
    "cost_chart",
    "difference_chart",
    "roc_chart",
    "roc_cost_chart",
    "shared_layer",
]

HOVER = "costchart_hover"
LEGEND = "costchart_legend"
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


def shared_layer(*charts: alt.Chart) -> alt.LayerChart:
    """Layer charts with their data moved to the top level, so the result can be faceted.

    Vega-Lite facets a layer only when its data sits at the top. Each distinct frame of
    the layers becomes part of one combined frame (tagged ``costchart_table``) and each
    layer filters its own rows back out before its own transforms.
    """
    combined, moved = _data_to_top(charts)
    return alt.LayerChart(layer=moved, data=combined)


def _data_to_top(charts: Sequence[alt.Chart]) -> tuple[alt.InlineData, list[alt.Chart]]:
    """Move the charts' data into one inline data set they each filter.

    Every distinct frame of ``charts`` goes into the data set once, tagged
    ``costchart_table``; each chart keeps only its own rows, before its own transforms.

    Rows keep only their own frame's fields (no nulls for the others' columns), which
    keeps the spec small; Altair moves the values to the top-level ``datasets`` once.
    """
    frames: list[pd.DataFrame] = []
    index: dict[int, int] = {}
    for chart in charts:
        if id(chart.data) not in index:
            index[id(chart.data)] = len(frames)
            frames.append(chart.data)
    records = []
    for number, frame in enumerate(frames):
        columns = [str(c) for c in frame.columns]
        values = [_json_values(frame[c]) for c in frame.columns]
        for row in zip(*values, strict=True):
            record = {c: v for c, v in zip(columns, row, strict=True) if v is not None}
            records.append({**record, "costchart_table": number})
    moved = []
    for chart in charts:
        copy = chart.copy(deep=False)
        own = [] if chart.transform is alt.Undefined else list(chart.transform)
        number = index[id(chart.data)]
        copy.transform = [alt.FilterTransform(filter=f"datum.costchart_table == {number}"), *own]
        copy.data = alt.Undefined
        moved.append(copy)
    # Built without validating each record: costchart made them (Altair's check of every
    # row took seconds for a few thousand rows). The whole spec is validated on export.
    with debug_mode(False):
        data = alt.InlineData(values=records)
    return data, moved


def _json_values(series: pd.Series) -> list:
    """A column as JSON-ready Python values; missing and non-finite values become None."""
    kind = series.dtype.kind
    if kind == "b":
        return [bool(v) for v in series]
    if kind in "iu":
        return [int(v) for v in series]
    if kind == "f":
        return [float(v) if np.isfinite(v) else None for v in series]
    if kind == "M":
        return [None if pd.isna(v) else v.isoformat() for v in series]
    return [
        None if pd.isna(v) else v if isinstance(v, (bool, int, float)) else str(v) for v in series
    ]


def _selections(by: Sequence[str], color: str | None):
    hover = alt.selection_point(
        name=HOVER,
        fields=[field(c) for c in [*by, col.LINE]],
        on="pointerover",
        clear="pointerout",
        nearest=False,
        empty=False,
    )
    legend = (
        alt.selection_point(name=LEGEND, fields=[field(color)], bind="legend") if color else None
    )
    return hover, legend


def _cost_layers(tables: ChartTables, *, color, hover, legend, y_max, ranges, markers, with_legend):
    keys = tables.keys if not tables.keys.empty else None
    stack = [
        _hull_lines_if_many(
            layers.hover_targets(
                tables.points,
                space="cost",
                hover=hover,
                legend=legend if with_legend else None,
                color=color,
                y_max=y_max,
            ),
            tables,
        ),
        layers.trivial_region(y_max=y_max, keys=keys),
        _hull_lines_if_many(
            layers.cost_lines(tables.points, color=color, hover=hover, legend=legend, y_max=y_max),
            tables,
        ),
        layers.trivial(y_max=y_max, keys=keys),
        layers.envelope(tables.envelope, color=color, legend=legend, y_max=y_max),
    ]
    if ranges:
        stack.append(
            layers.operating_ranges(tables.ranges, color=color, legend=legend, y_max=y_max)
        )
    if markers:
        stack.append(layers.pc_markers(markers, keys=keys))
        stack.append(layers.pc_labels(markers, y_max=y_max, keys=keys))
    return stack


def _hull_lines_if_many(chart: alt.Chart, tables: ChartTables) -> alt.Chart:
    """Keep only hull vertices' marks (cost lines, dots, hover targets) for many points.

    The ROC curves still pass through every drawn point.
    """
    if len(tables.points) <= MAX_ALL_COST_LINES:
        return chart
    return chart.transform_filter("datum.on_hull")


def _roc_layers(tables: ChartTables, *, color, hover, legend, iso, with_legend):
    stack = [
        _hull_lines_if_many(
            layers.hover_targets(
                tables.points,
                space="roc",
                hover=hover,
                legend=legend if with_legend else None,
                color=color,
            ),
            tables,
        ),
        layers.roc_curve(tables.points, color=color, legend=legend),
        layers.hull(tables.points, color=color, legend=legend),
        _hull_lines_if_many(
            layers.roc_markers(tables.points, color=color, hover=hover, legend=legend), tables
        ),
    ]
    if iso is not None:
        stack.append(layers.iso_performance(tables.hull, pc=iso, color=color))
    return stack


def _compose(stack, *, facet, columns, size) -> alt.LayerChart | alt.FacetChart:
    if facet:
        chart = shared_layer(*stack).properties(width=size, height=size)
        return chart.facet(facet=alt.Facet(**nominal(facet, title=None)), columns=columns)
    return alt.layer(*stack).properties(width=size, height=size)


#: Largest panel size in pixels: larger panels are no use on any screen or page.
MAX_SIZE = 10_000


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


def _check_options(*, size, columns) -> int:
    """Check the options every composition takes; return the size."""
    whole_number(columns, "columns", minimum=1)
    return _check_size(size)


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


def cost_chart(
    points,
    *,
    color: str | None = None,
    facet: str | None = None,
    y_max: float = 0.5,
    ranges: bool = True,
    markers: Mapping[str, float] | Sequence[float] | None = None,
    max_points: int = 100,
    size: int = 280,
    columns: int = 3,
) -> alt.LayerChart | alt.FacetChart:
    """Cost curves: every cost line, the lower envelope, the trivial classifiers.

    Parameters
    ----------
    points : pandas.DataFrame
        ROC points, e.g. from :func:`costchart.roc_points` with ``by=``.
    color : str, optional
        Grouping column that tells classifiers apart; its legend is clickable.
    facet : str, optional
        Grouping column for a grid of panels (e.g. ``"dataset"``).
    y_max : float
        Top of the cost axis: 0.5 as in the papers, 1 for the whole lines.
    ranges : bool
        Draw the envelope's operating range as dashed rules.
    markers : dict or list, optional
        Operating points to mark, e.g. ``{"3:1": cc.pc_from_cost_ratio(3)}``.
    max_points : int
        Points drawn per curve (hull vertices always; see :func:`costchart.thin_points`).
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
    >>> spec = cc.cost_chart(points).to_dict()
    >>> spec["width"], spec["height"]
    (280, 280)
    """
    size = _check_options(size=size, columns=columns)
    y_max, ranges = layers._check_y_max(y_max), flag(ranges, "ranges")
    markers = _check_markers(markers)
    tables = chart_tables(points, color=color, facet=facet, max_points=max_points)
    hover, legend = _selections(tables.by, color)
    stack = _cost_layers(
        tables,
        color=color,
        hover=hover,
        legend=legend,
        y_max=y_max,
        ranges=ranges,
        markers=markers,
        with_legend=True,
    )
    return _compose(stack, facet=facet, columns=columns, size=size)


def roc_chart(
    points,
    *,
    color: str | None = None,
    facet: str | None = None,
    iso: Sequence[float] | None = None,
    max_points: int = 100,
    size: int = 280,
    columns: int = 3,
) -> alt.LayerChart | alt.FacetChart:
    """ROC curves with their convex hulls.

    Parameters
    ----------
    points : pandas.DataFrame
        ROC points, e.g. from :func:`costchart.roc_points` with ``by=``.
    color : str, optional
        Grouping column that tells classifiers apart; its legend is clickable.
    facet : str, optional
        Grouping column for a grid of panels (e.g. ``"dataset"``).
    iso : list of float, optional
        Operating points ``pc`` whose iso-performance lines to draw.
    max_points : int
        Points drawn per curve (hull vertices always; see :func:`costchart.thin_points`).
    size : int
        Width and height of a panel in pixels.
    columns : int
        Panels per row when faceted.

    Returns
    -------
    altair.LayerChart or altair.FacetChart
    """
    size = _check_options(size=size, columns=columns)
    iso = _check_iso(iso)
    tables = chart_tables(points, color=color, facet=facet, max_points=max_points)
    hover, legend = _selections(tables.by, color)
    stack = _roc_layers(tables, color=color, hover=hover, legend=legend, iso=iso, with_legend=True)
    return _compose(stack, facet=facet, columns=columns, size=size)


def roc_cost_chart(
    points,
    *,
    color: str | None = None,
    facet: str | None = None,
    y_max: float = 0.5,
    ranges: bool = True,
    iso: Sequence[float] | None = None,
    markers: Mapping[str, float] | Sequence[float] | None = None,
    max_points: int = 100,
    size: int = 280,
) -> alt.HConcatChart:
    """A ROC chart and a cost chart side by side, linked.

    Hovering a ROC point highlights its cost line and hovering a cost line highlights its
    ROC point; clicking a legend entry isolates a classifier in both (shift-click adds
    more). With ``facet=``, each facet value gets a row.

    Parameters
    ----------
    points : pandas.DataFrame
        ROC points, e.g. from :func:`costchart.roc_points` with ``by=``.
    color, facet, y_max, ranges, iso, markers, max_points, size
        As in :func:`roc_chart` and :func:`cost_chart`.

    Returns
    -------
    altair.HConcatChart
    """
    size = _check_size(size)
    y_max, ranges = layers._check_y_max(y_max), flag(ranges, "ranges")
    markers, iso = _check_markers(markers), _check_iso(iso)
    tables = chart_tables(points, color=color, facet=facet, max_points=max_points)
    hover, legend = _selections(tables.by, color)
    roc = _roc_layers(tables, color=color, hover=hover, legend=legend, iso=iso, with_legend=True)
    cost = _cost_layers(
        tables,
        color=color,
        hover=hover,
        legend=legend,
        y_max=y_max,
        ranges=ranges,
        markers=markers,
        with_legend=False,
    )
    # The two views share the selections. Declaring them once at the top, naming both
    # views, avoids altair's duplicate-parameter warning and keeps the spec stable. Altair
    # renames named layers of concatenated layer charts to "<base>_<position>"; names
    # already of that form stay as they are.
    roc[0] = _without_params(roc[0], f"{roc[0].name}_0")
    cost[0] = _without_params(cost[0], f"{cost[0].name}_1")
    if facet:
        # Both views read one top-level frame, so the points are embedded once.
        combined, moved = _data_to_top([*roc, *cost])
        row = alt.Row(**nominal(facet, title=None))
        chart = alt.hconcat(
            alt.layer(*moved[: len(roc)], data=combined)
            .properties(width=size, height=size)
            .facet(row=row),
            alt.layer(*moved[len(roc) :], data=combined)
            .properties(width=size, height=size)
            .facet(row=row),
        )
    else:
        chart = alt.hconcat(
            alt.layer(*roc).properties(width=size, height=size),
            alt.layer(*cost).properties(width=size, height=size),
        )
    views = [roc[0].name, cost[0].name]
    chart.params = [_top_level(hover, views)] + ([_top_level(legend, views[:1])] if legend else [])
    return chart


def _without_params(chart: alt.Chart, name: str) -> alt.Chart:
    copy = chart.copy(deep=False)
    copy.params = alt.Undefined
    copy.name = name
    return copy


def _top_level(selection, views: list[str]) -> alt.TopLevelSelectionParameter:
    param = selection.param
    return alt.TopLevelSelectionParameter(
        name=param.name, select=param.select, bind=param.bind, views=views
    )


def band_chart(
    band: pd.DataFrame,
    *,
    color: str | None = None,
    facet: str | None = None,
    y_max: float = 0.5,
    size: int = 280,
    columns: int = 3,
) -> alt.LayerChart | alt.FacetChart:
    """A cost curve with its confidence band, over the trivial classifiers.

    Parameters
    ----------
    band : pandas.DataFrame
        A table from :func:`costchart.bootstrap_band`.
    color, facet : str, optional
        Grouping columns for colour and panels.
    y_max, size, columns
        As in :func:`cost_chart`.
    """
    size = _check_options(size=size, columns=columns)
    band = layers._table(band, [col.PC, col.COST, col.LOWER, col.UPPER], "band_chart")
    _check_roles(infer_by(band, None), "band", "bootstrap_band", color=color, facet=facet)
    if band.empty:
        msg = "band has no rows; there is no band to draw"
        raise CostchartError(msg)
    keys = band[[facet]].drop_duplicates().reset_index(drop=True) if facet else None
    stack = [
        layers.trivial_region(y_max=y_max, keys=keys),
        layers.band(band, color=color, y_max=y_max),
        layers.envelope(band, color=color, y_max=y_max),
        layers.trivial(y_max=y_max, keys=keys),
    ]
    return _compose(stack, facet=facet, columns=columns, size=size)


def difference_chart(
    difference: pd.DataFrame, *, facet: str | None = None, size: int = 280, columns: int = 3
) -> alt.LayerChart | alt.FacetChart:
    """The cost difference of two classifiers with its band.

    With the zero line, and shading where the difference is significant.

    Parameters
    ----------
    difference : pandas.DataFrame
        A table from :func:`costchart.difference_band`.
    facet : str, optional
        Grouping column for panels.
    size, columns
        As in :func:`cost_chart`.
    """
    size = _check_options(size=size, columns=columns)
    difference = layers._table(
        difference,
        [col.PC, col.DIFFERENCE, col.LOWER, col.UPPER, col.SIGNIFICANT],
        "difference_chart",
    )
    _check_roles(infer_by(difference, None), "difference", "difference_band", facet=facet)
    if difference.empty:
        msg = "difference has no rows; there is no difference to draw"
        raise CostchartError(msg)
    table = difference.rename(columns={col.DIFFERENCE: col.COST})
    band_layer = (
        alt.Chart(table)
        .mark_area(fillOpacity=0.25, color=layers.ONE_CURVE)
        .encode(
            x=layers._pc_x(),
            y=alt.Y("lower:Q", title="Cost difference, a - b"),
            y2="upper:Q",
        )
    )
    curve = (
        alt.Chart(table)
        .mark_line(color=layers.INK, strokeWidth=2)
        .encode(
            x=layers._pc_x(),
            y=alt.Y(f"{col.COST}:Q", title="Cost difference, a - b"),
            order=alt.Order(f"{col.PC}:Q"),
        )
    )
    zero = layers.zero_rule()
    if facet:
        keys = difference[[facet]].drop_duplicates()
        zero = (
            alt.Chart(keys.assign(zero=0.0))
            .mark_rule(color=layers.INK, strokeDash=[3, 3])
            .encode(y="zero:Q")
        )
    stack = [layers.significance(difference), band_layer, curve, zero]
    return _compose(stack, facet=facet, columns=columns, size=size)
