"""Chart layers: one function per layer, each returning a plain :class:`altair.Chart`.

Layers draw costchart tables. Compose them with ``+`` (layer), ``|`` and ``&``
(concatenate) and ``.properties()``, as any Altair chart; or use the ready compositions in
:mod:`costchart.charts`. Interactive layers take the selection parameters they react to
(``hover=``, ``legend=``); :func:`hover_targets` makes the invisible marks that set them.

Every layer takes ``color=`` (the column that tells classifiers apart, e.g.
``"classifier"``) and ``detail=`` (further columns that tell curves apart, e.g.
``"fold"``). By default ``detail`` is every grouping column of the table other than
``color``.

Examples
--------
>>> import costchart as cc
>>> from costchart import layers
>>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
>>> envelope = cc.lower_envelope(points)
>>> chart = layers.trivial_region() + layers.cost_lines(points) + layers.envelope(envelope)
>>> type(chart).__name__
'LayerChart'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import numpy as np
import pandas as pd

from costchart import _schema as col
from costchart._errors import CostchartError
from costchart._frames import infer_by, normalize_by, require_columns
from costchart._tables import read_table
from costchart._validation import finite_number, labelled_probabilities, one_of, probabilities
from costchart._vega import nominal

__all__ = [
    "average_band",
    "band",
    "better_regions",
    "cost_lines",
    "difference_curve",
    "envelope",
    "hover_targets",
    "hull",
    "hybrid",
    "iso_performance",
    "operating_ranges",
    "pc_labels",
    "pc_markers",
    "roc_curve",
    "roc_markers",
    "roc_spread",
    "selected",
    "significance",
    "trivial",
    "trivial_region",
    "zero_rule",
]

#: Colours and widths shared by the layers.
INK = "#222222"
MUTED = "#8c8c8c"
ONE_CURVE = "#3a6ea5"
REGION = "#bdbdbd"
HIGHLIGHT = "#c2185b"

PC_TITLE = "Probability cost, PC(+)"
COST_TITLE = "Normalized expected cost"


def _pc_x() -> alt.X:
    return alt.X(f"{col.PC}:Q", title=PC_TITLE, scale=alt.Scale(domain=[0, 1], nice=False))


def _cost_y(y_max: float) -> alt.Y:
    return alt.Y(f"{col.COST}:Q", title=COST_TITLE, scale=alt.Scale(domain=[0, y_max], nice=False))


def _fpr_x() -> alt.X:
    return alt.X(
        f"{col.FPR}:Q", title="False positive rate", scale=alt.Scale(domain=[0, 1], nice=False)
    )


def _tpr_y() -> alt.Y:
    return alt.Y(
        f"{col.TPR}:Q", title="True positive rate", scale=alt.Scale(domain=[0, 1], nice=False)
    )


def _check_y_max(y_max) -> float:
    value = finite_number(y_max, "y_max")
    if not 0 < value <= 1:
        msg = f"y_max={value!r} is outside (0, 1]; pass a value in (0, 1]"
        raise CostchartError(msg)
    return value


def _table(table, needed: Sequence[str], layer: str, *, color=None) -> pd.DataFrame:
    """``table`` as a pandas frame that has the ``needed`` columns (and ``color``'s).

    Layers take pandas, polars and pyarrow frames and dicts of arrays.
    """
    what = f"the table given to {layer}"
    table = read_table(table, what)
    require_columns(table.columns, needed, what, "Pass the costchart table it draws.")
    if color is not None:
        if not isinstance(color, str):
            msg = f"color={color!r} must be a column name (a string)"
            raise CostchartError(msg)
        require_columns(table.columns, [color], what, "color= must name one of its columns.")
    return table


def _details(table: pd.DataFrame, color: str | None, detail) -> list[str]:
    if detail is None:
        detail = infer_by(table, None)
    else:
        if not isinstance(detail, (str, Sequence)):
            msg = f"detail={detail!r} must be a column name or a list of column names"
            raise CostchartError(msg)
        detail = normalize_by(detail)
        require_columns(
            table.columns, detail, "the table given to the layer", "detail= must name its columns."
        )
    return [c for c in detail if c != color]


def _color(color: str | None, fallback: str):
    return alt.Color(**nominal(color)) if color else alt.value(fallback)


def _tooltip(table: pd.DataFrame, color: str | None, fields: Sequence[tuple[str, str, str]]):
    """Tooltip entries for the fields the table has: (column, type, title)."""
    tips = [alt.Tooltip(**nominal(color))] if color else []
    for field, kind, title in fields:
        if field in table.columns and field != color:
            fmt = ".4f" if kind == "Q" else alt.Undefined
            tips.append(alt.Tooltip(f"{field}:{kind}", title=title, format=fmt))
    return tips


_POINT_TIPS = (
    (col.THRESHOLD, "N", "threshold"),
    (col.FPR, "Q", "FPR"),
    (col.TPR, "Q", "TPR"),
    ("range_lo", "Q", "operating range from pc"),
    ("range_hi", "Q", "operating range to pc"),
)


def _curve_order(table: pd.DataFrame) -> alt.Order:
    """Draw order along a ROC curve.

    The ``line`` number when present (it follows the curve), else FPR: Vega-Lite line
    marks take a single order field.
    """
    return alt.Order(f"{col.LINE}:Q" if col.LINE in table.columns else f"{col.FPR}:Q")


def _faded(legend, hover=None, *, base: float = 1.0):
    """Opacity: full when hovered, ``base`` when the legend selects it, faint otherwise.

    Layers apply it as ``strokeOpacity`` / ``fillOpacity``, never ``opacity``: an SVG
    ``opacity`` makes image renderers composite every mark separately (a chart of a few
    thousand cost lines then takes minutes to become a PNG instead of seconds).
    """
    if legend is None and hover is None:
        return alt.value(base)
    if hover is None:
        return alt.when(legend).then(alt.value(base)).otherwise(alt.value(0.06))
    rule = alt.when(hover).then(alt.value(1.0))
    if legend is not None:
        return rule.when(legend).then(alt.value(base)).otherwise(alt.value(0.06))
    return rule.otherwise(alt.value(base))


def _lines_chart(table: pd.DataFrame, y_max: float) -> alt.Chart:
    """A chart of cost lines made from the rates, cut off at ``cost = y_max``.

    Each ROC point (or each line of a cost-lines table) becomes two rows, the ends of the
    visible part of its line. Cutting in the data rather than clipping the marks matters:
    Vega clips every line separately, which makes image export of a few thousand lines
    take minutes. Lines wholly above ``y_max`` are dropped.
    """
    table = _table(table, [col.FPR, col.TPR], "cost_lines")
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
    table: pd.DataFrame,
    *,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    hover=None,
    legend=None,
    y_max: float = 0.5,
) -> alt.Chart:
    """Thin, muted cost lines, one per ROC point; a hovered line turns bold.

    Parameters
    ----------
    table : pandas.DataFrame
        ROC points (each becomes its line) or a cost-lines table from
        :func:`costchart.to_cost_lines`.
    color, detail : str, optional
        Columns that tell classifiers / curves apart (see the module notes).
    hover, legend : altair.Parameter, optional
        Selections to react to: the hovered line is bold, classifiers not picked in the
        legend fade.
    y_max : float
        Top of the cost axis (0.5 as in the papers; 1 shows all of every line).
    """
    table = _table(table, [col.FPR, col.TPR], "cost_lines", color=color)
    y_max = _check_y_max(y_max)
    detail = [*_details(table, color, detail), col.LINE] if col.LINE in table else None
    width = alt.when(hover).then(alt.value(3.0)).otherwise(alt.value(0.8)) if hover else 0.8
    encoding = {
        "x": _pc_x(),
        "y": _cost_y(y_max),
        "color": _color(color, MUTED),
        "strokeWidth": width if hover else alt.value(0.8),
        "strokeOpacity": _faded(legend, hover, base=0.25),
        "tooltip": _tooltip(table, color, _POINT_TIPS),
    }
    if detail:
        encoding["detail"] = [alt.Detail(**nominal(c)) for c in detail]
    return _lines_chart(table, y_max).mark_line().encode(**encoding)


def envelope(
    table: pd.DataFrame,
    *,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    legend=None,
    y_max: float = 0.5,
) -> alt.Chart:
    """The lower envelope, drawn bold.

    Parameters
    ----------
    table : pandas.DataFrame
        A table from :func:`costchart.lower_envelope`.
    color, detail : str, optional
        Columns that tell classifiers / curves apart.
    legend : altair.Parameter, optional
        Legend selection; classifiers not picked fade.
    y_max : float
        Top of the cost axis.
    """
    table = _table(table, [col.PC, col.COST], "envelope", color=color)
    y_max = _check_y_max(y_max)
    encoding = {
        "x": _pc_x(),
        "y": _cost_y(y_max),
        "color": _color(color, INK),
        "strokeOpacity": _faded(legend),
        "order": alt.Order(f"{col.PC}:Q"),
        "tooltip": _tooltip(
            table,
            color,
            ((col.PC, "Q", "pc"), (col.COST, "Q", "cost"), *_POINT_TIPS[:3]),
        ),
    }
    details = _details(table, color, detail)
    if details:
        encoding["detail"] = [alt.Detail(**nominal(c)) for c in details]
    return alt.Chart(table).mark_line(strokeWidth=2.5).encode(**encoding)


def _repeat_for(table: pd.DataFrame, keys: pd.DataFrame | None) -> pd.DataFrame:
    """``table`` once per row of ``keys`` (e.g. per facet value), or as it is."""
    if keys is None:
        return table
    if not isinstance(keys, pd.DataFrame):
        msg = f"keys must be a pandas DataFrame of facet values (one row per panel); got {keys!r}"
        raise CostchartError(msg)
    if keys.empty:
        return table
    clash = [c for c in keys.columns if c in table.columns]
    if clash:
        msg = f"keys has the column {clash[0]!r}, which the layer's own rows use; rename it"
        raise CostchartError(msg)
    return keys.drop_duplicates().merge(table, how="cross")


def trivial_table(y_max: float = 0.5, keys: pd.DataFrame | None = None) -> pd.DataFrame:
    """Rows for :func:`trivial`: the visible part (cost <= ``y_max``) of both trivial lines.

    Columns: ``trivial`` (``"always negative"`` / ``"always positive"``), ``pc``, ``cost``;
    ``keys`` (e.g. one row per facet value) repeats the rows for each of its rows.
    """
    top = min(float(y_max), 1.0)
    rows = pd.DataFrame(
        {
            "trivial": ["always negative"] * 2 + ["always positive"] * 2,
            col.PC: [0.0, top, 1.0 - top, 1.0],
            col.COST: [0.0, top, top, 0.0],
        }
    )
    return _repeat_for(rows, keys)


def trivial_region_table(y_max: float = 0.5, keys: pd.DataFrame | None = None) -> pd.DataFrame:
    """Rows for :func:`trivial_region`: ``pc``, ``cost = min(pc, 1 - pc)`` and the top."""
    pc = np.array([0.0, 0.5, 1.0])
    rows = pd.DataFrame(
        {col.PC: pc, col.COST: np.minimum(pc, 1 - pc), "costchart_top": float(y_max)}
    )
    return _repeat_for(rows, keys)


def trivial(*, y_max: float = 0.5, keys: pd.DataFrame | None = None) -> alt.Chart:
    """The trivial classifiers, drawn bold.

    Always-negative costs ``pc``, always-positive costs ``1 - pc``.

    Parameters
    ----------
    y_max : float
        Top of the cost axis.
    keys : pandas.DataFrame, optional
        Facet values to repeat the layer for (one row per panel).
    """
    y_max = _check_y_max(y_max)
    return (
        alt.Chart(trivial_table(y_max, keys))
        .mark_line(color=INK, strokeWidth=1.8)
        .encode(
            x=_pc_x(),
            y=_cost_y(y_max),
            detail="trivial:N",
            tooltip=alt.Tooltip("trivial:N", title="trivial classifier"),
        )
    )


def trivial_region(*, y_max: float = 0.5, keys: pd.DataFrame | None = None) -> alt.Chart:
    """The region above ``min(pc, 1 - pc)``, where no classifier should be used.

    A classifier whose cost falls there is beaten by a trivial one.

    Parameters
    ----------
    y_max : float
        Top of the cost axis.
    keys : pandas.DataFrame, optional
        Facet values to repeat the layer for (one row per panel).
    """
    y_max = _check_y_max(y_max)
    return (
        alt.Chart(trivial_region_table(y_max, keys))
        .mark_area(color=REGION, fillOpacity=0.25)
        .encode(
            x=_pc_x(),
            y=_cost_y(y_max),
            y2=alt.Y2("costchart_top:Q"),
            tooltip=alt.value("a trivial classifier beats any classifier whose cost is here"),
        )
    )


def operating_ranges(
    table: pd.DataFrame, *, color: str | None = None, legend=None, y_max: float = 0.5
) -> alt.Chart:
    """Dashed vertical rules at the ends of operating ranges that lie inside (0, 1).

    Parameters
    ----------
    table : pandas.DataFrame
        A table from :func:`costchart.operating_range` (``pc_lo``, ``pc_hi``).
    color : str, optional
        Column that tells classifiers apart.
    legend : altair.Parameter, optional
        Legend selection; classifiers not picked fade.
    y_max : float
        Top of the cost axis.
    """
    table = _table(table, [col.PC_LO, col.PC_HI], "operating_ranges", color=color)
    y_max = _check_y_max(y_max)
    return (
        alt.Chart(table)
        .transform_fold([col.PC_LO, col.PC_HI], as_=["range_end", col.PC])
        # Ends at 0 or 1 lie on the frame and say nothing; NaN means no range.
        .transform_filter(f"isValid(datum.{col.PC}) && datum.{col.PC} > 0 && datum.{col.PC} < 1")
        .mark_rule(strokeDash=[5, 4], strokeWidth=1.2)
        .encode(
            x=_pc_x(),
            color=_color(color, INK),
            strokeOpacity=_faded(legend),
            tooltip=[
                *([alt.Tooltip(**nominal(color))] if color else []),
                alt.Tooltip("range_end:N", title="end"),
                alt.Tooltip(f"{col.PC}:Q", format=".4f"),
            ],
        )
    )


def roc_curve(
    table: pd.DataFrame,
    *,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    legend=None,
) -> alt.Chart:
    """ROC curves: the points joined in order of increasing FPR (and TPR).

    Parameters
    ----------
    table : pandas.DataFrame
        ROC points, e.g. from :func:`costchart.roc_points`.
    color, detail : str, optional
        Columns that tell classifiers / curves apart.
    legend : altair.Parameter, optional
        Legend selection; classifiers not picked fade.
    """
    table = _table(table, [col.FPR, col.TPR], "roc_curve", color=color)
    encoding = {
        "x": _fpr_x(),
        "y": _tpr_y(),
        "color": _color(color, ONE_CURVE),
        "strokeOpacity": _faded(legend),
        "order": _curve_order(table),
    }
    details = _details(table, color, detail)
    if details:
        encoding["detail"] = [alt.Detail(**nominal(c)) for c in details]
    return alt.Chart(table).mark_line(strokeWidth=1.5).encode(**encoding)


def roc_markers(
    table: pd.DataFrame, *, color: str | None = None, hover=None, legend=None
) -> alt.Chart:
    """ROC points as small dots with tooltips; a hovered point grows.

    Parameters
    ----------
    table : pandas.DataFrame
        ROC points, e.g. from :func:`costchart.roc_points`.
    color : str, optional
        Column that tells classifiers apart.
    hover, legend : altair.Parameter, optional
        Selections to react to.
    """
    table = _table(table, [col.FPR, col.TPR], "roc_markers", color=color)
    size = alt.when(hover).then(alt.value(160)).otherwise(alt.value(14)) if hover else 14
    return (
        alt.Chart(table)
        .mark_circle()
        .encode(
            x=_fpr_x(),
            y=_tpr_y(),
            color=_color(color, ONE_CURVE),
            size=size if hover else alt.value(14),
            fillOpacity=_faded(legend, hover, base=0.8),
            tooltip=_tooltip(table, color, _POINT_TIPS),
        )
    )


def hull(
    table: pd.DataFrame,
    *,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    legend=None,
) -> alt.Chart:
    """The ROC convex hull as a dashed line through its vertices.

    Parameters
    ----------
    table : pandas.DataFrame
        A table from :func:`costchart.roc_hull`, or ROC points with a boolean
        ``on_hull`` column (only those rows are drawn).
    color, detail : str, optional
        Columns that tell classifiers / curves apart.
    legend : altair.Parameter, optional
        Legend selection; classifiers not picked fade.
    """
    table = _table(table, [col.FPR, col.TPR], "hull", color=color)
    chart = alt.Chart(table)
    if "on_hull" in table.columns:
        chart = chart.transform_filter("datum.on_hull")
    details = [c for c in _details(table, color, detail) if c != "on_hull"]
    encoding = {
        "x": _fpr_x(),
        "y": _tpr_y(),
        "color": _color(color, INK),
        "strokeOpacity": _faded(legend),
        "order": _curve_order(table),
    }
    if details:
        encoding["detail"] = [alt.Detail(**nominal(c)) for c in details]
    return chart.mark_line(strokeDash=[6, 3], strokeWidth=1.2).encode(**encoding)


def iso_performance_table(hull_table: pd.DataFrame, slopes: Sequence[float]) -> pd.DataFrame:
    """Segments (inside the unit square) of the iso-performance lines touching a hull.

    For each group of ``hull_table`` (from :func:`costchart.roc_hull`) and each slope
    ``m``, the line of slope ``m`` through the optimal hull vertex, clipped to the square.
    Columns: grouping columns, ``slope``, ``pc``, ``fpr``, ``tpr`` (two rows per line).
    """
    hull_table = _table(
        hull_table, [col.FPR, col.TPR, col.SLOPE_LO, col.SLOPE_HI], "iso_performance"
    )
    slopes = _slopes(slopes)
    by = infer_by(hull_table, None)
    by = [c for c in by if c != "on_hull"]
    rows = []
    groups = hull_table.groupby(by, sort=False, dropna=False) if by else [((), hull_table)]
    for key, part in groups:
        key = key if isinstance(key, tuple) else (key,)
        for slope in slopes:
            optimal = part[(part[col.SLOPE_LO] <= slope) & (part[col.SLOPE_HI] >= slope)]
            if optimal.empty:
                msg = (
                    f"no vertex of the hull {key!r} is optimal at slope {slope:g}: its "
                    "slope_lo/slope_hi do not cover [0, inf]; pass a table from roc_hull"
                )
                raise CostchartError(msg)
            vertex = optimal.iloc[0]
            for fpr, tpr in _clip_line(float(vertex[col.FPR]), float(vertex[col.TPR]), slope):
                rows.append((*key, slope, 1 / (1 + slope), fpr, tpr))
    return pd.DataFrame(rows, columns=[*by, col.SLOPE, col.PC, col.FPR, col.TPR])


def _slopes(slopes) -> list[float]:
    """Iso-performance slopes: numbers in [0, inf] (inf is the vertical line of pc = 0)."""
    try:
        values = np.atleast_1d(np.asarray(slopes, dtype=np.float64))
    except (TypeError, ValueError):
        msg = f"slopes={slopes!r} must be numbers of at least 0"
        raise CostchartError(msg) from None
    bad = np.isnan(values) | (values < 0)
    if values.ndim != 1 or bad.any():
        shown = float(values[bad][0]) if values.ndim == 1 else slopes
        msg = f"slopes={shown!r} must be numbers of at least 0 (or inf); one slope per line"
        raise CostchartError(msg)
    return values.tolist()


def _clip_line(x0: float, y0: float, slope: float) -> list[tuple[float, float]]:
    """Ends of the line through (x0, y0) with the given slope, inside the unit square."""
    if np.isinf(slope):
        return [(x0, 0.0), (x0, 1.0)]
    # tpr = y0 + slope * (fpr - x0); find fpr where it leaves [0, 1] x [0, 1].
    x_low = 0.0 if slope == 0 else max(0.0, x0 - y0 / slope)
    x_high = 1.0 if slope == 0 else min(1.0, x0 + (1 - y0) / slope)
    return [(x_low, y0 + slope * (x_low - x0)), (x_high, y0 + slope * (x_high - x0))]


def iso_performance(
    hull_table: pd.DataFrame,
    *,
    slopes: Sequence[float] | None = None,
    pc: Sequence[float] | None = None,
    color: str | None = None,
) -> alt.Chart:
    """Iso-performance lines in ROC space, each touching the hull at its optimal vertex.

    Parameters
    ----------
    hull_table : pandas.DataFrame
        A table from :func:`costchart.roc_hull`.
    slopes : list of float, optional
        Iso-performance slopes ``m = p(-)C(+|-) / (p(+)C(-|+))``.
    pc : list of float, optional
        Operating points instead of slopes (``m = (1 - pc) / pc``).
    color : str, optional
        Column that tells classifiers apart.
    """
    if (slopes is None) == (pc is None):
        msg = "iso_performance needs either slopes= or pc= (one of them)"
        raise CostchartError(msg)
    if pc is not None:
        values = np.atleast_1d(probabilities(pc, "pc"))
        if values.ndim != 1:
            msg = f"pc={pc!r} must be a list of operating points, one per line"
            raise CostchartError(msg)
        with np.errstate(divide="ignore"):
            slopes = list((1 - values) / values)
    assert slopes is not None  # one of slopes= and pc= was given
    hull_table = _table(hull_table, [col.FPR, col.TPR], "iso_performance", color=color)
    table = iso_performance_table(hull_table, slopes)
    details = [c for c in infer_by(table, None) if c not in (color, col.SLOPE)]
    encoding = {
        "x": _fpr_x(),
        "y": _tpr_y(),
        "color": _color(color, INK),
        "detail": [alt.Detail("slope:Q"), *[alt.Detail(**nominal(c)) for c in details]],
        "tooltip": [
            alt.Tooltip(f"{col.SLOPE}:Q", format=".3f"),
            alt.Tooltip(f"{col.PC}:Q", format=".3f"),
        ],
    }
    return alt.Chart(table).mark_line(strokeDash=[2, 3], strokeWidth=1).encode(**encoding)


def pc_marker_table(
    pc: Mapping[str, float] | Sequence[float],
    *,
    y_max: float = 0.5,
    keys: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Rows for :func:`pc_markers` and :func:`pc_labels`: ``marker``, ``pc`` (and ``keys``)."""
    labeled = labelled_probabilities(pc, "pc")
    y_max = _check_y_max(y_max)
    values = np.array(list(labeled.values()), dtype=np.float64)
    table = pd.DataFrame({col.MARKER: list(labeled), col.PC: values, "costchart_top": y_max})
    return _repeat_for(table, keys)


def pc_markers(
    pc: Mapping[str, float] | Sequence[float], *, keys: pd.DataFrame | None = None
) -> alt.Chart:
    """Dotted vertical rules at given operating points.

    Parameters
    ----------
    pc : dict of label to pc, or list of pc
        E.g. ``{"costs 3:1": cc.pc_from_cost_ratio(3)}``.
    keys : pandas.DataFrame, optional
        Facet values to repeat the layer for (one row per panel).
    """
    return (
        alt.Chart(pc_marker_table(pc, keys=keys))
        .mark_rule(color=INK, strokeDash=[1, 2])
        .encode(x=_pc_x(), tooltip=["marker:N", alt.Tooltip(f"{col.PC}:Q", format=".4f")])
    )


def pc_labels(
    pc: Mapping[str, float] | Sequence[float],
    *,
    y_max: float = 0.5,
    keys: pd.DataFrame | None = None,
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
    """
    y_max = _check_y_max(y_max)
    return (
        alt.Chart(pc_marker_table(pc, y_max=y_max, keys=keys))
        .mark_text(align="left", dx=3, dy=4, baseline="top", fontSize=10, color=INK)
        .encode(
            x=_pc_x(),
            y=alt.Y(
                "costchart_top:Q", scale=alt.Scale(domain=[0, y_max], nice=False), title=COST_TITLE
            ),
            text="marker:N",
        )
    )


def hover_targets(
    table: pd.DataFrame,
    *,
    space: str,
    hover,
    legend=None,
    color: str | None = None,
    y_max: float = 0.5,
) -> alt.Chart:
    """Invisible marks that set the ``hover`` (and ``legend``) selections.

    Put this layer first: in altair 6.1-6.3 a selection on a later layer of a faceted
    layer inside a concat breaks.

    Parameters
    ----------
    table : pandas.DataFrame
        ROC points with a ``line`` column.
    space : {"roc", "cost"}
        Large invisible dots on the ROC points, or wide invisible strokes along the
        cost lines.
    hover : altair.Parameter
        The hover selection the marks set.
    legend : altair.Parameter, optional
        A legend-bound selection to attach as well (needs ``color``).
    color : str, optional
        Column that tells classifiers apart (the legend's field).
    y_max : float
        Top of the cost axis.
    """
    one_of(space, "space", ("roc", "cost"))
    table = _table(table, [col.FPR, col.TPR], "hover_targets", color=color)
    for name, selection in (("hover", hover), ("legend", legend)):
        if not isinstance(selection, alt.Parameter) and (name == "hover" or selection is not None):
            msg = (
                f"{name}={selection!r} must be an Altair selection parameter, e.g. "
                f"alt.selection_point(name='costchart_{name}', fields=[...])"
            )
            raise CostchartError(msg)
    params = [hover] + ([legend] if legend is not None else [])
    by = infer_by(table, None)
    detail = [
        alt.Detail(**nominal(c)) for c in [*by, col.LINE] if c in table.columns and c != color
    ]
    encoding: dict[str, object] = {"detail": detail}
    if color:
        # The marks are invisible; their legend symbols must not be.
        legend_style = alt.Legend(symbolOpacity=1, symbolType="stroke", symbolStrokeWidth=3)
        encoding["color"] = alt.Color(**nominal(color), legend=legend_style)
    if space == "roc":
        chart = (
            alt.Chart(table)
            .mark_circle(size=220, fillOpacity=0)
            .encode(x=_fpr_x(), y=_tpr_y(), **encoding)
        )
    elif space == "cost":
        chart = (
            _lines_chart(table, _check_y_max(y_max))
            .mark_line(strokeWidth=9, strokeOpacity=0.001)
            .encode(x=_pc_x(), y=_cost_y(_check_y_max(y_max)), **encoding)
        )
    else:
        msg = f"space={space!r} is not an option; pass 'roc' or 'cost'"
        raise CostchartError(msg)
    # A fixed view name keeps specs byte-stable and lets compositions share selections.
    return chart.properties(name=f"costchart_{space}_targets").add_params(*params)


def average_band(
    table: pd.DataFrame,
    *,
    color: str | None = None,
    spread: str = "range",
    y_max: float = 0.5,
) -> alt.Chart:
    """The spread of a vertical average as a shaded band (draw the mean with :func:`envelope`).

    Parameters
    ----------
    table : pandas.DataFrame
        A table from :func:`costchart.vertical_average`.
    color : str, optional
        Column that tells classifiers apart.
    spread : {"range", "sd"}
        The band from the lowest to the highest curve, or the mean plus and minus one
        standard deviation.
    y_max : float
        Top of the cost axis.
    """
    table = _table(
        table,
        [col.PC, col.COST, col.COST_LO, col.COST_HI, col.COST_SD],
        "average_band",
        color=color,
    )
    y_max = _check_y_max(y_max)
    one_of(spread, "spread", ("range", "sd"))  # before comparing: pd.NA has no truth value
    chart = alt.Chart(table)
    if spread == "sd":
        chart = chart.transform_calculate(
            costchart_low=f"max(datum.{col.COST} - datum.cost_sd, 0)",
            costchart_high=f"min(datum.{col.COST} + datum.cost_sd, {y_max})",
        )
    else:  # "range"
        chart = chart.transform_calculate(
            costchart_low="datum.cost_lo", costchart_high=f"min(datum.cost_hi, {y_max})"
        )
    details = _details(table, color, None)
    encoding = {
        "x": _pc_x(),
        "y": alt.Y(
            "costchart_low:Q", scale=alt.Scale(domain=[0, y_max], nice=False), title=COST_TITLE
        ),
        "y2": alt.Y2("costchart_high:Q"),
        "color": _color(color, INK),
    }
    if details:
        encoding["detail"] = [alt.Detail(**nominal(c)) for c in details]
    return chart.mark_area(fillOpacity=0.18).encode(**encoding)


def roc_spread(table: pd.DataFrame, *, color: str | None = None, axis: str = "tpr") -> alt.Chart:
    """Error bars of a ROC average: the range of TPR (or FPR) over the curves.

    Parameters
    ----------
    table : pandas.DataFrame
        A table from :func:`costchart.roc_average`.
    color : str, optional
        Column that tells classifiers apart.
    axis : {"tpr", "fpr"}
        Vertical bars (TPR range, for vertical and threshold averages) or horizontal ones
        (FPR range, for horizontal and threshold averages).
    """
    if axis not in ("tpr", "fpr"):
        msg = f"axis={axis!r} is not an option; pass 'tpr' or 'fpr'"
        raise CostchartError(msg)
    table = _table(table, [col.FPR, col.TPR, f"{axis}_lo", f"{axis}_hi"], "roc_spread", color=color)
    if axis == "tpr":
        position = {
            "x": _fpr_x(),
            "y": alt.Y("tpr_lo:Q", title="True positive rate"),
            "y2": "tpr_hi:Q",
        }
    else:
        position = {
            "y": _tpr_y(),
            "x": alt.X("fpr_lo:Q", title="False positive rate"),
            "x2": "fpr_hi:Q",
        }
    return (
        alt.Chart(table)
        .mark_rule(strokeWidth=1, strokeOpacity=0.6)
        .encode(color=_color(color, ONE_CURVE), **position)
    )


def difference_curve(table: pd.DataFrame, *, name: str = "a - b") -> alt.Chart:
    """The difference of two cost curves against ``pc`` (from :func:`costchart.compare`).

    Parameters
    ----------
    table : pandas.DataFrame
        ``Comparison.difference`` (``pc``, ``difference``).
    name : str
        Axis title.
    """
    table = _table(table, [col.PC, col.DIFFERENCE], "difference_curve")
    return (
        alt.Chart(table)
        .mark_line(color=INK, strokeWidth=2)
        .encode(
            x=_pc_x(),
            y=alt.Y("difference:Q", title=f"Cost difference, {name}"),
            order=alt.Order(f"{col.PC}:Q"),
            tooltip=[
                alt.Tooltip(f"{col.PC}:Q", format=".4f"),
                alt.Tooltip("difference:Q", format=".4f"),
            ],
        )
    )


def zero_rule() -> alt.Chart:
    """A horizontal rule at zero, for difference charts."""
    return (
        alt.Chart(pd.DataFrame({"zero": [0.0]}))
        .mark_rule(color=INK, strokeDash=[3, 3])
        .encode(y="zero:Q")
    )


def better_regions(table: pd.DataFrame) -> alt.Chart:
    """Shading over the ``pc`` ranges where each of two classifiers is cheaper.

    The rectangles span the panel's height, so the layer goes under a cost chart or a
    difference chart alike.

    Parameters
    ----------
    table : pandas.DataFrame
        ``Comparison.better`` (``pc_lo``, ``pc_hi``, ``better``); ties are not shaded.
    """
    table = _table(table, [col.PC_LO, col.PC_HI, col.BETTER], "better_regions")
    decided = table[table[col.BETTER] != "tie"]
    chart = (
        alt.Chart(decided)
        .mark_rect(fillOpacity=0.12)
        .encode(
            x=alt.X(f"{col.PC_LO}:Q", title=PC_TITLE, scale=alt.Scale(domain=[0, 1], nice=False)),
            x2=f"{col.PC_HI}:Q",
            color=alt.Color("better:N", title="cheaper"),
            tooltip=[
                "better:N",
                alt.Tooltip(f"{col.PC_LO}:Q", format=".4f"),
                alt.Tooltip(f"{col.PC_HI}:Q", format=".4f"),
            ],
        )
    )
    return chart


def selected(table: pd.DataFrame, *, space: str, y_max: float = 0.5) -> alt.Chart:
    """The classifiers a selection criterion chose, highlighted.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`costchart.neyman_pearson`, :func:`costchart.workforce` or
        :func:`costchart.iso_performance` (rows with ``fpr``, ``tpr``).
    space : {"roc", "cost"}
        Rings around the ROC points, or their cost lines drawn bold.
    y_max : float
        Top of the cost axis.
    """
    table = _table(table, [col.FPR, col.TPR], "selected")
    tips = [
        c for c in (*infer_by(table, None), col.ROLE, col.CHOICE, col.WEIGHT) if c in table.columns
    ]
    tooltip = [
        *[alt.Tooltip(**nominal(c)) for c in tips],
        alt.Tooltip(f"{col.FPR}:Q", format=".4f"),
        alt.Tooltip(f"{col.TPR}:Q", format=".4f"),
    ]
    if space == "roc":
        return (
            alt.Chart(table)
            .mark_point(size=180, strokeWidth=2.2, filled=False, color=HIGHLIGHT)
            .encode(x=_fpr_x(), y=_tpr_y(), tooltip=tooltip)
        )
    if space == "cost":
        y_max = _check_y_max(y_max)
        table = table.assign(**{col.LINE: np.arange(len(table))})
        return (
            _lines_chart(table, y_max)
            .mark_line(color=HIGHLIGHT, strokeWidth=2.5, strokeDash=[6, 3])
            .encode(x=_pc_x(), y=_cost_y(y_max), detail=f"{col.LINE}:N", tooltip=tooltip)
        )
    msg = f"space={space!r} is not an option; pass 'roc' or 'cost'"
    raise CostchartError(msg)


def hybrid(table: pd.DataFrame, *, color: str | None = None, y_max: float = 0.5) -> alt.Chart:
    """A hybrid cost curve that may jump where it switches classifier.

    Draws ``PerformanceIndependent.curve`` or the table of
    :func:`costchart.apply_selection`: one dashed segment per interval.

    Parameters
    ----------
    table : pandas.DataFrame
        ``pc``, ``cost``, two rows per interval (in order).
    color : str, optional
        Column that tells classifiers apart.
    y_max : float
        Top of the cost axis.
    """
    table = _table(table, [col.PC, col.COST], "hybrid", color=color)
    y_max = _check_y_max(y_max)
    table = table.assign(costchart_segment=np.arange(len(table)) // 2)
    return (
        alt.Chart(table)
        .mark_line(strokeWidth=2, strokeDash=[8, 4])
        .encode(
            x=_pc_x(),
            y=_cost_y(y_max),
            detail="costchart_segment:N",
            color=_color(color, HIGHLIGHT),
            tooltip=[
                alt.Tooltip(f"{col.PC}:Q", format=".4f"),
                alt.Tooltip(f"{col.COST}:Q", format=".4f"),
            ],
        )
    )


def band(
    table: pd.DataFrame,
    *,
    color: str | None = None,
    detail: str | Sequence[str] | None = None,
    y_max: float = 0.5,
) -> alt.Chart:
    """A confidence band as a shaded area (draw its curve with :func:`envelope`).

    Area marks take no ``order`` encoding here: in Vega-Lite it sets the stacking order
    and breaks an area into slivers.

    Parameters
    ----------
    table : pandas.DataFrame
        A table from :func:`costchart.bootstrap_band` (``pc``, ``lower``, ``upper``).
    color, detail : str, optional
        Columns that tell classifiers / curves apart.
    y_max : float
        Top of the cost axis (the band is cut there).
    """
    table = _table(table, [col.PC, col.LOWER, col.UPPER], "band", color=color)
    y_max = _check_y_max(y_max)
    details = _details(table, color, detail)
    encoding = {
        "x": _pc_x(),
        "y": alt.Y(
            "costchart_low:Q", scale=alt.Scale(domain=[0, y_max], nice=False), title=COST_TITLE
        ),
        "y2": alt.Y2("costchart_high:Q"),
        "color": _color(color, ONE_CURVE),
        "tooltip": [
            *([alt.Tooltip(**nominal(color))] if color else []),
            alt.Tooltip(f"{col.PC}:Q", format=".3f"),
            alt.Tooltip("lower:Q", format=".4f"),
            alt.Tooltip("upper:Q", format=".4f"),
        ],
    }
    if details:
        encoding["detail"] = [alt.Detail(**nominal(c)) for c in details]
    return (
        alt.Chart(table)
        .transform_calculate(
            costchart_low="max(datum.lower, 0)", costchart_high=f"min(datum.upper, {y_max})"
        )
        .mark_area(fillOpacity=0.22)
        .encode(**encoding)
    )


def significance(table: pd.DataFrame, *, detail: str | Sequence[str] | None = None) -> alt.Chart:
    """Shading over the ``pc`` ranges where a difference band excludes zero.

    Parameters
    ----------
    table : pandas.DataFrame
        A table from :func:`costchart.difference_band` (``pc``, ``significant``).
    detail : str or list of str, optional
        Grouping columns (kept, so the layer can be faceted).
    """
    table = _table(table, [col.PC, col.SIGNIFICANT, col.DIFFERENCE], "significance")
    by = [c for c in _details(table, None, detail) if c != col.SIGNIFICANT]
    rows = []
    groups = table.groupby(by, sort=False, dropna=False) if by else [((), table)]
    for key, part in groups:
        if part.empty:
            continue
        key = key if isinstance(key, tuple) else (key,)
        part = part.sort_values(col.PC, kind="stable")
        pc = part[col.PC].to_numpy(float)
        # Only True is significant: a missing (NaN) flag must not shade anything.
        flag = part[col.SIGNIFICANT].eq(True).to_numpy(bool)
        # Each grid point's cell reaches halfway to its neighbours.
        edges = np.concatenate([[pc[0]], (pc[1:] + pc[:-1]) / 2, [pc[-1]]])
        starts = np.flatnonzero(flag & ~np.append(False, flag[:-1]))
        ends = np.flatnonzero(flag & ~np.append(flag[1:], False))
        for s, e in zip(starts, ends, strict=True):
            better = (
                "a cheaper"
                if part[col.DIFFERENCE].to_numpy()[s : e + 1].mean() < 0
                else "b cheaper"
            )
            rows.append((*key, edges[s], edges[e + 1], better))
    regions = pd.DataFrame(rows, columns=[*by, col.PC_LO, col.PC_HI, "significant difference"])
    return (
        alt.Chart(regions)
        .mark_rect(fillOpacity=0.15, color=HIGHLIGHT)
        .encode(
            x=alt.X(f"{col.PC_LO}:Q", title=PC_TITLE, scale=alt.Scale(domain=[0, 1], nice=False)),
            x2=f"{col.PC_HI}:Q",
            tooltip=[
                "significant difference:N",
                alt.Tooltip(f"{col.PC_LO}:Q", format=".3f"),
                alt.Tooltip(f"{col.PC_HI}:Q", format=".3f"),
            ],
        )
    )
