"""Layers of cost space: cost lines, the lower envelope, the trivial classifiers, rules.

Every mark is cut at the top of the cost axis (``y_max``) in the data, not clipped when
drawn: zoomed charts stay their size, and image export of thousands of lines stays fast.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import numpy as np
import pandas as pd

from costchart import _geometry as geometry
from costchart import _schema as col
from costchart._geometry import cut_curve, repeat_for, trivial_lines
from costchart._thin import thin_points
from costchart._validation import labelled_probabilities, one_of, whole_number
from costchart._vega import nominal
from costchart.layers._base import (
    COST_TITLE,
    HIGHLIGHT,
    INK,
    MUTED,
    REGION,
    TRIVIAL,
    build,
    check_y_max,
    cost_scale,
    cost_y,
    details,
    fpr_x,
    pc_x,
    read,
    tpr_y,
)

__all__ = [
    "cost_lines",
    "envelope",
    "hybrid",
    "operating_ranges",
    "pc_labels",
    "pc_markers",
    "selected",
    "thinned",
    "trivial",
    "trivial_region",
]

#: Tooltip fields of a ROC point or its cost line: (column, type, title).
POINT_TIPS = (
    (col.THRESHOLD, "N", "threshold"),
    (col.FPR, "Q", "FPR"),
    (col.TPR, "Q", "TPR"),
    (col.RANGE_LO, "Q", "operating range from pc"),
    (col.RANGE_HI, "Q", "operating range to pc"),
)

#: Points a layer draws in all before thinning: Altair refuses inline data above 5,000.
MAX_LAYER_POINTS = 3_000


def thinned(table: pd.DataFrame, max_points, color, detail) -> pd.DataFrame:
    """ROC points thinned to about ``max_points`` per curve (hull vertices always kept).

    Tables from the ready charts (with a ``line`` column) are thinned already; ``None``
    keeps every point.
    """
    if max_points is None or col.LINE in table.columns:
        return table
    max_points = whole_number(max_points, "max_points", minimum=2)
    by = ([color] if color else []) + details(table, color, detail)
    curves = len(table[by].drop_duplicates()) if by else 1
    per_curve = min(max_points, max(10, MAX_LAYER_POINTS // max(curves, 1)))
    sizes = table.groupby(by, sort=False, dropna=False).size() if by else [len(table)]
    if max(sizes, default=0) <= per_curve:
        return table
    return thin_points(table, max_points=per_curve, by=by)


def _lines_chart(table: pd.DataFrame, y_max: float) -> alt.Chart:
    """A chart of cost lines made from the rates, cut off at ``cost = y_max``.

    Each ROC point (or each line of a cost-lines table) becomes two rows, the ends of the
    visible part of its line. Cutting in the data rather than clipping the marks matters:
    Vega clips every line separately, which makes image export of a few thousand lines
    take minutes. Lines wholly above ``y_max`` are dropped.
    """
    chart = alt.Chart(table)
    if col.PC in table.columns:  # a cost-lines table: one row per line is enough
        chart = chart.transform_filter(f"datum.{col.PC} == 0")
    fpr, fnr = f"datum.{col.FPR}", f"(1 - datum.{col.TPR})"
    crossing = f"({y_max} - {fpr}) / ({fnr} - {fpr})"  # pc where the line meets y_max
    # Fold rather than flatten: Vega-Lite 6.4 overflows its stack on flatten inside a
    # faceted layer.
    return (
        chart.transform_filter(f"{fpr} <= {y_max} || {fnr} <= {y_max}")
        .transform_calculate(costchart_at_0=fpr, costchart_at_1=fnr)
        .transform_fold(
            ["costchart_at_0", "costchart_at_1"], as_=["costchart_end", "costchart_raw"]
        )
        .transform_calculate(
            **{
                col.PC: (
                    "datum.costchart_end == 'costchart_at_0' ? "
                    f"({fpr} <= {y_max} ? 0 : {crossing}) : ({fnr} <= {y_max} ? 1 : {crossing})"
                ),
                col.COST: f"min(datum.costchart_raw, {y_max})",
            }
        )
    )


def cost_lines(
    table,
    *,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    palette: Mapping | None = None,
    hover=None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    y_max: float = 0.5,
    max_points: int | None = 100,
) -> alt.Chart:
    """Thin, muted cost lines, one per ROC point; a hovered line turns bold.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        ROC points (each becomes its line) or a cost-lines table from
        :func:`costchart.to_cost_lines`.
    color, detail : str, optional
        Columns that tell classifiers / curves apart (see :mod:`costchart.layers`).
    palette : dict, optional
        Colours of ``color``'s values (see :func:`costchart._palette`).
    hover, legend : altair.Parameter, optional
        Selections to react to: the hovered line is bold, classifiers not picked in the
        legend fade.
    tooltip : None, False or list of str
        The layer's own tooltip, none, or these columns.
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    y_max : float
        Top of the cost axis (0.5 as in the papers; 1 shows all of every line).
    max_points : int or None
        Points (lines) kept per curve, hull vertices always (see
        :func:`costchart.thin_points`); ``None`` keeps all.

    Examples
    --------
    >>> import costchart as cc
    >>> from costchart import layers
    >>> points = cc.roc_points({"s": [3, 2, 1], "y": [1, 0, 1]}, score="s", label="y")
    >>> layers.cost_lines(points, y_max=1).to_dict()["mark"]["type"]
    'line'
    """
    table = read(table, [col.FPR, col.TPR], "cost_lines", color=color)
    y_max = check_y_max(y_max)
    table = thinned(table, max_points, color, detail)
    names = details(table, color, detail)
    line = [col.LINE] if col.LINE in table.columns else []
    if not line and col.PC not in table.columns:
        table = table.assign(**{col.LINE: np.arange(len(table))})
        line = [col.LINE]
    width = alt.when(hover).then(alt.value(3.0)).otherwise(alt.value(0.8)) if hover else None
    encoding: dict[str, object] = {"x": pc_x(), "y": cost_y(y_max)}
    if width is not None:
        encoding["strokeWidth"] = width
    return build(
        _lines_chart(table, y_max),
        table,
        mark="line",
        style={"strokeWidth": 0.8},
        encoding=encoding,
        color=color,
        fallback=MUTED,
        palette=palette,
        detail=[*names, *line],
        legend=legend,
        hover=hover,
        opacity="strokeOpacity",
        base_opacity=0.25,
        fields=POINT_TIPS,
        tooltip=tooltip,
        overrides=mark,
    )


def envelope(
    table,
    *,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    palette: Mapping | None = None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    y_max: float = 0.5,
) -> alt.Chart:
    """The lower envelope (or any cost curve), drawn bold and cut at ``y_max``.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.lower_envelope` (or another ``pc``, ``cost`` curve:
        a vertical average, a band's curve).
    color, detail, palette, legend, tooltip, mark
        As in :func:`cost_lines`.
    y_max : float
        Top of the cost axis: parts above it are cut out (see
        :func:`costchart._geometry.cut_curve`).
    """
    table = read(table, [col.PC, col.COST], "envelope", color=color)
    y_max = check_y_max(y_max)
    names = details(table, color, detail)
    drawn = cut_curve(table, y_max=y_max, by=[*([color] if color else []), *names])
    return build(
        alt.Chart(drawn),
        drawn,
        mark="line",
        style={"strokeWidth": 2.5},
        encoding={"x": pc_x(), "y": cost_y(y_max), "order": alt.Order(f"{col.PC}:Q")},
        color=color,
        fallback=INK,
        palette=palette,
        detail=names,
        legend=legend,
        opacity="strokeOpacity",
        fields=((col.PC, "Q", "pc"), (col.COST, "Q", "cost"), *POINT_TIPS[:3]),
        tooltip=tooltip,
        overrides=mark,
    )


def trivial(
    *, y_max: float = 0.5, keys: pd.DataFrame | None = None, mark: Mapping | None = None
) -> alt.Chart:
    """The trivial classifiers: always-negative costs ``pc``, always-positive ``1 - pc``.

    Parameters
    ----------
    y_max : float
        Top of the cost axis; the lines end there.
    keys : pandas.DataFrame, optional
        Facet values to repeat the layer for (one row per panel).
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    """
    table = trivial_lines(y_max, keys)
    return build(
        alt.Chart(table),
        table,
        mark="line",
        style={"strokeWidth": 1.8, "color": TRIVIAL},
        encoding={"x": pc_x(), "y": cost_y(check_y_max(y_max)), "detail": "trivial:N"},
        detail=False,
        # No tooltip: a mark with one takes the pointer from the hover targets beneath it
        # (and the key names the trivial classifiers).
        tooltip=False,
        overrides=mark,
    )


def trivial_region(
    *, y_max: float = 0.5, keys: pd.DataFrame | None = None, mark: Mapping | None = None
) -> alt.Chart:
    """The region above ``min(pc, 1 - pc)``, where a trivial classifier is better.

    Parameters
    ----------
    y_max : float
        Top of the cost axis; the region is cut there.
    keys : pandas.DataFrame, optional
        Facet values to repeat the layer for (one row per panel).
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    """
    y_max = check_y_max(y_max)
    table = geometry.trivial_region(y_max, keys)
    return build(
        alt.Chart(table),
        table,
        mark="area",
        style={"color": REGION, "fillOpacity": 0.35},
        encoding={
            "x": pc_x(),
            "y": cost_y(y_max),
            "y2": alt.Y2("top:Q"),
        },
        detail=False,
        tooltip=False,
        overrides=mark,
    )


def operating_ranges(
    table,
    *,
    color: str | None = None,
    palette: Mapping | None = None,
    legend=None,
    tooltip=None,
    mark: Mapping | None = None,
    y_max: float = 0.5,
) -> alt.Chart:
    """Dashed vertical rules at the ends of operating ranges that lie inside (0, 1).

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        A table from :func:`costchart.operating_range` (``pc_lo``, ``pc_hi``).
    color, palette, legend, tooltip, mark
        As in :func:`cost_lines`.
    y_max : float
        Top of the cost axis (checked; rules span the panel).
    """
    table = read(table, [col.PC_LO, col.PC_HI], "operating_ranges", color=color)
    check_y_max(y_max)
    chart = (
        alt.Chart(table)
        .transform_fold([col.PC_LO, col.PC_HI], as_=["range_end", col.PC])
        # Ends at 0 or 1 lie on the frame and say nothing; NaN means no range.
        .transform_filter(f"isValid(datum.{col.PC}) && datum.{col.PC} > 0 && datum.{col.PC} < 1")
    )
    tips = [
        *([alt.Tooltip(**nominal(color))] if color else []),
        alt.Tooltip("range_end:N", title="end of operating range"),
        alt.Tooltip(f"{col.PC}:Q", format=".4f"),
    ]
    encoding: dict[str, object] = {"x": pc_x()}
    if tooltip is None:
        encoding["tooltip"] = tips
    return build(
        chart,
        table,
        mark="rule",
        style={"strokeDash": [5, 4], "strokeWidth": 1.2},
        encoding=encoding,
        color=color,
        fallback=INK,
        palette=palette,
        detail=False,
        legend=legend,
        opacity="strokeOpacity",
        tooltip=False if tooltip is None else tooltip,
        overrides=mark,
    )


def pc_marker_table(
    pc: Mapping[str, float] | Sequence[float],
    *,
    y_max: float = 0.5,
    keys: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Rows for :func:`pc_markers` and :func:`pc_labels`: ``marker``, ``pc`` (and ``keys``)."""
    labeled = labelled_probabilities(pc, "pc")
    y_max = check_y_max(y_max)
    values = np.array(list(labeled.values()), dtype=np.float64)
    table = pd.DataFrame({col.MARKER: list(labeled), col.PC: values, "costchart_top": y_max})
    return repeat_for(table, keys)


def pc_markers(
    pc: Mapping[str, float] | Sequence[float],
    *,
    keys: pd.DataFrame | None = None,
    mark: Mapping | None = None,
) -> alt.Chart:
    """Dotted vertical rules at given operating points (label them with :func:`pc_labels`).

    Parameters
    ----------
    pc : dict of label to pc, or list of pc
        E.g. ``{"costs 3:1": cc.pc_from_cost_ratio(3)}``.
    keys : pandas.DataFrame, optional
        Facet values to repeat the layer for (one row per panel).
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    """
    table = pc_marker_table(pc, keys=keys)
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


def pc_labels(
    pc: Mapping[str, float] | Sequence[float],
    *,
    y_max: float = 0.5,
    keys: pd.DataFrame | None = None,
    mark: Mapping | None = None,
) -> alt.Chart:
    """Text labels for :func:`pc_markers`, just below the top of the cost axis.

    Parameters
    ----------
    pc : dict of label to pc, or list of pc
        The same value given to :func:`pc_markers`.
    y_max : float
        Top of the cost axis.
    keys : pandas.DataFrame, optional
        Facet values to repeat the layer for (one row per panel).
    mark : dict, optional
        Vega-Lite mark properties replacing costchart's.
    """
    y_max = check_y_max(y_max)
    table = pc_marker_table(pc, y_max=y_max, keys=keys)
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


def selected(
    table,
    *,
    space: str,
    y_max: float = 0.5,
    tooltip=None,
    mark: Mapping | None = None,
) -> alt.Chart:
    """The classifiers a selection criterion chose, highlighted.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        From :func:`costchart.neyman_pearson`, :func:`costchart.workforce` or
        :func:`costchart.iso_performance` (rows with ``fpr``, ``tpr``).
    space : {"roc", "cost"}
        Rings around the ROC points, or their cost lines drawn bold and dashed.
    y_max : float
        Top of the cost axis.
    tooltip, mark
        As in :func:`cost_lines`.
    """
    one_of(space, "space", ("roc", "cost"))
    table = read(table, [col.FPR, col.TPR], "selected")
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
            detail=False,
            fields=fields,
            tooltip=tooltip,
            overrides=mark,
        )
    y_max = check_y_max(y_max)
    table = table.assign(**{col.LINE: np.arange(len(table))})
    return build(
        _lines_chart(table, y_max),
        table,
        mark="line",
        style={"color": HIGHLIGHT, "strokeWidth": 2.5, "strokeDash": [6, 3]},
        encoding={"x": pc_x(), "y": cost_y(y_max), "detail": alt.Detail(f"{col.LINE}:N")},
        detail=False,
        fields=fields,
        tooltip=tooltip,
        overrides=mark,
    )


def hybrid(
    table,
    *,
    color: str | None = None,
    palette: Mapping | None = None,
    tooltip=None,
    mark: Mapping | None = None,
    y_max: float = 0.5,
) -> alt.Chart:
    """A hybrid cost curve that may jump where it switches classifier, cut at ``y_max``.

    Draws ``PerformanceIndependent.curve`` or the table of
    :func:`costchart.apply_selection`: one dashed segment per interval.

    Parameters
    ----------
    table : pandas, polars or pyarrow table
        ``pc``, ``cost``, two rows per interval (in order).
    color, palette, tooltip, mark
        As in :func:`cost_lines`.
    y_max : float
        Top of the cost axis.
    """
    table = read(table, [col.PC, col.COST], "hybrid", color=color)
    y_max = check_y_max(y_max)
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
        detail=False,
        fields=((col.PC, "Q", "pc"), (col.COST, "Q", "cost")),
        tooltip=tooltip,
        overrides=mark,
    )
