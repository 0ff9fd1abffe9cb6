"""Shared internals of the ready-made charts: tables, options, checks and composition.

This private module holds what every chart module of :mod:`costchart._charts` uses: the
tables a composition draws (:class:`ChartTables`, :func:`chart_tables`) and their size
limits, the options every composition takes (:class:`Look`, :func:`look_of`), the
checks of ``color=``/``facet=``, ``size=``, ``markers=`` and ``iso=``, the colours and
facet keys of a chart, and the final composition of layers with their key and title
(:func:`with_key`, :func:`compose`, :func:`titled`). Its names have no
leading underscore so the chart modules can share them.
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
from costchart._envelope import envelope_of_hulls, envelope_ranges, line_ranges
from costchart._errors import CostchartError
from costchart._geometry import ALWAYS_NEGATIVE, ALWAYS_POSITIVE
from costchart._groups import split_groups
from costchart._hull import hull_table
from costchart._palette import palette as palette_of
from costchart._tables import points_groups
from costchart._thin import thinned_points
from costchart._validation import flag, labelled_probabilities, probabilities, whole_number
from costchart._vega import content_name, field, nominal, shared_layer

__all__ = [
    "DIGITS",
    "MAX_ALL_COST_LINES",
    "MAX_CHART_POINTS",
    "MAX_CURVES_WITH_ALL_LINES",
    "MAX_SIZE",
    "MIN_POINTS_PER_CURVE",
    "ChartTables",
    "Look",
    "chart_name",
    "chart_tables",
    "check_iso",
    "check_markers",
    "check_name",
    "check_roles",
    "check_size",
    "chosen_curves",
    "colors_of",
    "compose",
    "curve_selections",
    "filtered_first",
    "hull_lines",
    "hull_only",
    "keys_of",
    "look_of",
    "panels_per_row",
    "threshold_text",
    "titled",
    "with_key",
]

#: Decimals kept in embedded data: 1e-5 of the axis is far below a pixel at any size, and
#: every digit dropped shrinks the spec of a many-curve chart by tens of kilobytes.
DIGITS = 5


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
    crowded : bool
        Whether a panel holds more than :data:`MAX_CURVES_WITH_ALL_LINES` curves: the
        chart then draws cost lines only for the curves the reader hovers, clicks or picks
        in the legend, and ROC dots only at hull vertices (the mark budget).
    exact_envelope : pandas.DataFrame or None
        The lower envelope of each group unrounded: grouping columns, ``pc``, ``cost``,
        ``fpr``, ``tpr`` (the active hull vertex), for the envelope of the classifiers
        shown (:mod:`costchart._charts.combined`), which must be exact.
    """

    points: pd.DataFrame
    envelope: pd.DataFrame
    hull: pd.DataFrame
    ranges: pd.DataFrame
    keys: pd.DataFrame
    by: list[str]
    crowded: bool = False
    exact_envelope: pd.DataFrame | None = None


def threshold_text(values: np.ndarray) -> list[str]:
    """Thresholds as every chart shows them: 6 significant digits, the trivial ones named."""
    return [
        f"+inf ({ALWAYS_NEGATIVE})"
        if v == np.inf
        else f"-inf ({ALWAYS_POSITIVE})"
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

#: Curves a panel draws with all their cost lines. Above this (say 3 classifiers x 10
#: folds), a panel draws every curve's envelope, but cost lines only for the curves the
#: reader hovers, clicks or picks in the legend, and ROC dots only at hull vertices: dozens
#: of curves' cost lines are a tangle no one can follow, and by the thousand they made a
#: static image of such a chart slow to draw.
MAX_CURVES_WITH_ALL_LINES = 8

#: Cost lines a panel shows besides its hull vertices' before they are sampled: beyond
#: about this many, lines are a grey mass in which no single one can be followed.
LINES_PER_PANEL = 120

#: The column marking the points whose cost lines a panel of many points draws.
SHOWN = "costchart_line_shown"


def chart_tables(
    points,
    *,
    color: str | None = None,
    facet: str | None = None,
    max_points: int = 100,
    by: str | Sequence[str] | None = None,
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
    try:
        whole_number(max_points, "max_points", minimum=2)
    except CostchartError:  # the message thin_points gives, for every bad value
        msg = f"max_points={max_points!r} must be a whole number of at least 2"
        raise CostchartError(msg) from None
    table, by, groups = points_groups(points, by, declared=(color, facet))
    check_roles(by, "points", "roc_points", color=color, facet=facet)
    if table.empty:
        msg = "points has no rows; there is no curve to draw"
        raise CostchartError(msg)
    # The points are read and checked once, above; what follows works on the table and its
    # groups directly (no second pass through the public readers).
    curves = max(len(groups), 1)
    per_curve = min(max_points, max(MIN_POINTS_PER_CURVE, MAX_CHART_POINTS // curves))
    thinned = thinned_points(table, by, groups, per_curve)
    thinned_groups = split_groups(thinned, by)
    hull, hulls = hull_table(thinned, thinned_groups)
    ranges = line_ranges(thinned, by, thinned_groups)
    chart_points = thinned[by].copy()
    chart_points[col.LINE] = (
        thinned.groupby(by, sort=False, dropna=False).cumcount() if by else np.arange(len(thinned))
    )
    threshold = (
        thinned[col.THRESHOLD].to_numpy(np.float64)
        if col.THRESHOLD in thinned
        else np.full(len(thinned), np.nan)
    )
    chart_points[col.THRESHOLD] = threshold_text(threshold)
    chart_points[col.FPR] = thinned[col.FPR].round(DIGITS)
    chart_points[col.TPR] = thinned[col.TPR].round(DIGITS)
    chart_points["range_lo"] = ranges[col.PC_LO].round(DIGITS).to_numpy()
    chart_points["range_hi"] = ranges[col.PC_HI].round(DIGITS).to_numpy()
    hull_keys = pd.MultiIndex.from_frame(hull[[*by, col.FPR, col.TPR]])
    chart_points["on_hull"] = pd.MultiIndex.from_frame(thinned[[*by, col.FPR, col.TPR]]).isin(
        hull_keys
    )
    crowded = _curves_per_panel(groups, facet) > MAX_CURVES_WITH_ALL_LINES
    if not crowded:  # crowded panels draw lines on demand; others may sample them
        shown = _lines_shown(chart_points, facet)
        if not shown.all():  # the column only where a panel samples its lines
            chart_points[SHOWN] = shown
    envelope = envelope_of_hulls(thinned_groups, hulls)
    exact_envelope = envelope[[*by, col.PC, col.COST, col.FPR, col.TPR]]
    envelope[col.THRESHOLD] = threshold_text(envelope[col.THRESHOLD].to_numpy(np.float64))
    # The points carry the rates; the envelope needs only where it bends and who is active.
    envelope = envelope[[*by, col.PC, col.COST, col.THRESHOLD]].round(
        {col.PC: DIGITS, col.COST: DIGITS}
    )
    keys = thinned[[facet]].drop_duplicates().reset_index(drop=True) if facet else pd.DataFrame()
    return ChartTables(
        points=chart_points,
        envelope=envelope,
        hull=hull,
        ranges=envelope_ranges(thinned, by, thinned_groups, hulls),
        keys=keys,
        by=by,
        crowded=crowded,
        exact_envelope=exact_envelope,
    )


def _curves_per_panel(groups, facet: str | None) -> int:
    """The most curves (groups) any one panel draws."""
    if not facet:
        return len(groups)
    panels = pd.Series([key[groups.by.index(facet)] for key in groups.keys], dtype=object)
    return int(panels.value_counts(dropna=False).max()) if len(panels) else 0


def check_size(size) -> int:
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
    columns: int | None  # None: the chart's own choice (PANELS_PER_ROW, or one pair)
    title: str | None
    subtitle: str | None
    key: bool
    palette: Mapping | None


#: Facet panels per row when ``columns=None``.
PANELS_PER_ROW = 3


def check_name(name) -> str:
    """A chart's ``name=``: a Python identifier, the prefix of its selection names."""
    if not isinstance(name, str) or not name.isidentifier():
        msg = (
            f"name={name!r} must be a Python identifier (letters, digits, _): the chart's "
            "selections and parameters are called <name>_hover, <name>_pc and so on"
        )
        raise CostchartError(msg)
    return name


def chart_name(name, table: pd.DataFrame, kind: str, *options) -> str:
    """The prefix of a chart's selection names: ``name`` (checked), else a digest.

    The digest is of the chart's table, kind and options, so identical calls give
    identical specs.
    """
    if name is not None:
        return check_name(name)
    return content_name("costchart", table, kind, options)


def look_of(*, size, columns, title, subtitle, key, palette) -> Look:
    if columns is not None:
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
        size=check_size(size),
        columns=None if columns is None else int(columns),
        title=title,
        subtitle=subtitle,
        key=flag(key, "key"),
        palette=palette,
    )


def titled(chart, look: Look):
    if look.title is None:
        return chart
    title = alt.Title(look.title, subtitle=look.subtitle if look.subtitle else alt.Undefined)
    return chart.properties(title=title)


def check_roles(by: Sequence[str], table: str, source: str, **roles) -> None:
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


def check_markers(markers) -> dict[str, float] | None:
    return None if markers is None else labelled_probabilities(markers, "markers")


def check_iso(iso) -> list[float] | None:
    if iso is None:
        return None
    values = np.atleast_1d(probabilities(iso, "iso"))
    if values.ndim != 1:
        msg = f"iso={iso!r} must be a list of operating points pc, one line each"
        raise CostchartError(msg)
    return values.tolist()


def colors_of(table: pd.DataFrame, color: str | None, look: Look) -> dict | None:
    """One colour per value of ``color`` for every layer of a composition."""
    return palette_of(table[color], colors=look.palette) if color else None


def keys_of(table: pd.DataFrame, facet: str | None) -> pd.DataFrame | None:
    return table[[facet]].drop_duplicates().reset_index(drop=True) if facet else None


def _lines_shown(points: pd.DataFrame, facet: str | None) -> np.ndarray:
    """Which points' cost lines a panel draws: all, or in a panel of many points a sample.

    Every hull vertex is kept (the envelope and the operating ranges are theirs); of the
    others, every ``k``-th point of each curve, ``k`` chosen per panel so that about
    :data:`LINES_PER_PANEL` lines are drawn there.
    """
    panel = (
        points.groupby(facet, sort=False, dropna=False).ngroup().to_numpy()
        if facet
        else np.zeros(len(points), dtype=np.int64)
    )
    per_panel = np.bincount(panel)
    step = np.maximum(1, np.ceil(per_panel / LINES_PER_PANEL)).astype(np.int64)[panel]
    line = points[col.LINE].to_numpy(np.int64)
    return points[col.ON_HULL].to_numpy(bool) | (line % step == 0)


def lines_sampled(tables: ChartTables) -> bool:
    """Whether a panel of many points draws only some of its cost lines."""
    return SHOWN in tables.points.columns


def hull_only(tables: ChartTables, cost_lines: str) -> bool:
    """Whether only hull vertices get cost lines, ROC dots and hover targets."""
    return cost_lines == "hull" or tables.crowded or len(tables.points) > MAX_ALL_COST_LINES


def curve_selections(tables: ChartTables, name: str) -> tuple | None:
    """A crowded chart's selections of whole curves: the one hovered, the ones clicked.

    ``<name>_curve`` holds the curve under the pointer, ``<name>_picked`` the curves
    clicked (shift-click adds one, a double click clears them). None when the chart is not
    crowded, where every curve's cost lines are drawn anyway.
    """
    if not tables.crowded:
        return None
    fields = [field(c) for c in tables.by]
    hovered = alt.selection_point(
        name=f"{name}_curve",
        fields=fields,
        on="pointerover",
        clear="pointerout",
        nearest=False,
        empty=False,
    )
    picked = alt.selection_point(name=f"{name}_picked", fields=fields, on="click", empty=False)
    return hovered, picked


def chosen_curves(curves: tuple, legend) -> dict:
    """The filter keeping the rows of the curves hovered, clicked or picked in the legend.

    With nothing selected it keeps nothing: a static image of a crowded chart draws no
    cost lines.
    """
    chosen = [*curves, *([legend] if legend is not None else [])]
    return {"or": [{"param": str(selection.name), "empty": False} for selection in chosen]}


def hull_lines(chart: alt.Chart, tables: ChartTables, cost_lines: str) -> alt.Chart:
    """Keep only hull vertices' cost lines (and their hover targets) when asked or many.

    With many points in a panel, a sample of the others besides the hull vertices. The
    ROC curves still pass through every drawn point.
    """
    if hull_only(tables, cost_lines):
        return filtered_first(chart, f"datum.{col.ON_HULL}")
    if lines_sampled(tables):
        return filtered_first(chart, f"datum.{SHOWN}")
    return chart


def filtered_first(chart: alt.Chart, predicate) -> alt.Chart:
    """``chart`` keeping only rows that pass ``predicate``, tested before its own transforms.

    Filtering first spares the transforms (e.g. a cost line's ends) the rows left out.
    """
    copy = chart.copy(deep=False)
    own = [] if chart.transform is alt.Undefined else list(chart.transform)
    copy.transform = [alt.FilterTransform(filter=predicate), *own]
    return copy


def with_key(stack, entries, look: Look, keys):
    return [*stack, layers.key(entries, panels=keys)] if look.key and entries else stack


def panels_per_row(panels: int | None) -> int:
    """Facet panels per row when ``columns=None``: a full grid where one exists.

    Up to 3 panels sit in one row, 4 in a 2 x 2 grid (no row of one panel beside empty
    cells with bare axes), more in rows of :data:`PANELS_PER_ROW`.
    """
    if panels is None:
        return PANELS_PER_ROW
    return panels if panels <= PANELS_PER_ROW else 2 if panels == 4 else PANELS_PER_ROW


def compose(stack, *, facet, look: Look, panels: int | None = None):
    # The data always goes to the top: facets need it there, and the combined data set is
    # free of Altair's 5,000-row limit on frames (many curves' hull vertices exceed it).
    chart = shared_layer(*stack).properties(width=look.size, height=look.size)
    if facet:
        columns = panels_per_row(panels) if look.columns is None else look.columns
        # The header names the column, so a panel reads "dataset: sonar", not just "sonar".
        # Parenthesised: Vega-Lite pastes a conditional in place of datum.label.
        header = alt.Header(labelExpr=f"{json.dumps(str(facet) + ': ')} + (datum.label)")
        chart = chart.facet(
            facet=alt.Facet(**nominal(facet, title=None), header=header), columns=columns
        )
    return titled(chart, look)
