"""The tables a ready-made chart draws, made once from a ROC points table.

:func:`drawn_tables` reads the points once and derives, per curve, the thinned points with
their operating ranges and hull flags, the hull, the lower envelope and its ranges, and
the facet values (:class:`ChartTables`); the size limits of a chart and the sampling of a
panel's cost lines (the mark budget's tables) are set here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

import costchart as cc
from costchart._charts._options import check_roles
from costchart._cost.geometry import ALWAYS_NEGATIVE, ALWAYS_POSITIVE
from costchart._io import schema as col
from costchart._io.drawable import drawable
from costchart._io.errors import CostchartError
from costchart._io.frames import check_unique_columns, infer_by
from costchart._io.tables import read_table
from costchart._io.validation import whole_number

__all__ = [
    "DIGITS",
    "LINES_PER_PANEL",
    "MAX_ALL_COST_LINES",
    "MAX_CHART_POINTS",
    "MAX_CURVES_WITH_ALL_LINES",
    "MIN_POINTS_PER_CURVE",
    "SHOWN",
    "ChartTables",
    "drawn_envelope",
    "drawn_points",
    "drawn_tables",
    "grouping_of",
    "passed_by",
    "threshold_text",
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
    public : dict of str to pandas.DataFrame
        The public transformers' tables these are drawn from, as they returned them:
        ``points`` (:func:`costchart.thin_points`), ``operating_range`` (of each point,
        :func:`costchart.operating_range`), ``hull`` (:func:`costchart.roc_hull`),
        ``envelope`` (:func:`costchart.lower_envelope` of the hull) and ``envelope_range``
        (``operating_range(hull, of="envelope")``).
    """

    points: pd.DataFrame
    envelope: pd.DataFrame
    hull: pd.DataFrame
    ranges: pd.DataFrame
    keys: pd.DataFrame
    by: list[str]
    crowded: bool = False
    exact_envelope: pd.DataFrame | None = None
    public: dict[str, pd.DataFrame] = field(default_factory=dict)


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


def drawn_tables(
    points,
    *,
    color: str | None = None,
    facet: str | None = None,
    max_points: int = 100,
    by: str | Sequence[str] | None = None,
) -> ChartTables:
    """Derive the tables the compositions draw from a ROC points table.

    Every statistic comes from a public transformer: :func:`costchart.thin_points` reads
    ``points`` (the only read of the input), and :func:`costchart.roc_hull`,
    :func:`costchart.lower_envelope` and :func:`costchart.operating_range` take the
    thinned points and the hull along; what is drawn is those tables, rounded and
    joined (:attr:`ChartTables.public` holds them as returned).

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
    given = by
    table, by = grouping_of(points, by, "points", declared=(color, facet))
    check_roles(by, "points", "roc_points", color=color, facet=facet)
    thinned = cc.thin_points(
        table, max_points=max_points, max_total=MAX_CHART_POINTS, by=passed_by(table, given, by)
    )
    if thinned.empty:
        msg = "points has no rows; there is no curve to draw"
        raise CostchartError(msg)
    hull = cc.roc_hull(thinned, by=by)
    envelope = cc.lower_envelope(hull, by=by)
    line_ranges = cc.operating_range(thinned, of="lines", by=by)
    ranges = cc.operating_range(hull, of="envelope", by=by)
    chart_points = drawn_points(thinned, hull, line_ranges, by)
    crowded = _curves_per_panel(thinned, by, facet) > MAX_CURVES_WITH_ALL_LINES
    if not crowded:  # crowded panels draw lines on demand; others may sample them
        shown = _lines_shown(chart_points, facet)
        if not shown.all():  # the column only where a panel samples its lines
            chart_points[SHOWN] = shown
    keys = thinned[[facet]].drop_duplicates().reset_index(drop=True) if facet else pd.DataFrame()
    return ChartTables(
        points=chart_points,
        envelope=drawn_envelope(envelope, by),
        hull=hull,
        ranges=ranges,
        keys=keys,
        by=by,
        crowded=crowded,
        exact_envelope=envelope[[*by, col.PC, col.COST, col.FPR, col.TPR]],
        public={
            "points": thinned,
            "operating_range": line_ranges,
            "hull": hull,
            "envelope": envelope,
            "envelope_range": ranges,
        },
    )


def grouping_of(points, by, name: str, *, declared=()) -> tuple[pd.DataFrame, list[str]]:
    """A chart's input as pandas and its grouping columns, ``classifier=`` and ``facet=`` declared.

    A pandas frame is not read here (the public transformer the chart calls first reads
    it): only its column names are checked, so that each input table is read once. Its
    grouping columns are given as the chart draws them (:func:`costchart._io.drawable.drawable`:
    dates, decimals, bytes and the like as text), on a copy where any needs it.
    """
    if isinstance(points, pd.DataFrame):
        check_unique_columns(points.columns, name)
        table = points
    else:
        table = read_table(points, name)
    by = infer_by(table, by, name=name, declared=declared)
    return drawable(table, by, name), by


def passed_by(table: pd.DataFrame, given, by: list[str]):
    """The ``by=`` to hand the first public call: ``None`` where the table says as much.

    ``by`` (the chart's grouping, its roles declared) passed explicitly would make a set
    operation check the table as pooled curves, a second split of a large input; where
    the table's own grouping is ``by``, ``None`` says the same and reuses its groups.
    """
    if given is not None:
        return by
    try:
        own = infer_by(table, None)
    except CostchartError:  # a column only the chart's roles (classifier=, facet=) declare
        return by
    return None if own == by else by


def drawn_points(
    thinned: pd.DataFrame, hull: pd.DataFrame, line_ranges: pd.DataFrame, by: list[str]
) -> pd.DataFrame:
    """The ROC points as drawn: thinned points, their operating ranges and hull flags.

    Columns: the grouping columns, ``line`` (position within the group, the same as the
    cost line's), ``threshold`` (text), ``fpr``, ``tpr``, ``range_lo``, ``range_hi`` and
    ``on_hull``, rounded to :data:`DIGITS`.
    """
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
    chart_points["range_lo"] = line_ranges[col.PC_LO].round(DIGITS).to_numpy()
    chart_points["range_hi"] = line_ranges[col.PC_HI].round(DIGITS).to_numpy()
    hull_keys = pd.MultiIndex.from_frame(hull[[*by, col.FPR, col.TPR]])
    chart_points[col.ON_HULL] = pd.MultiIndex.from_frame(thinned[[*by, col.FPR, col.TPR]]).isin(
        hull_keys
    )
    return chart_points


def drawn_envelope(envelope: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """The envelope as drawn: where it bends and who is active there (text), rounded."""
    drawn = envelope[[*by, col.PC, col.COST]].copy()
    drawn[col.THRESHOLD] = threshold_text(envelope[col.THRESHOLD].to_numpy(np.float64))
    return drawn.round({col.PC: DIGITS, col.COST: DIGITS})


def _curves_per_panel(thinned: pd.DataFrame, by: list[str], facet: str | None) -> int:
    """The most curves (groups) any one panel draws."""
    curves = thinned[by].drop_duplicates() if by else thinned.iloc[:1, :0]
    if not facet:
        return len(curves) if by else 1
    return int(curves[facet].value_counts(dropna=False).max()) if len(curves) else 0


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
