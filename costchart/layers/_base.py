"""What every layer shares: axes, colours, the table check and the one layer builder.

Every data layer (a layer that draws a table) is made by
:func:`costchart.layers._options.data_layer`, which gives it the options declared once in
:class:`costchart.layers._options.LayerOptions`; it reads its table with
:func:`read` and makes its chart with :func:`build`, so all take the same options the
same way:

- ``classifier``: the column that tells classifiers apart, drawn in distinct colours
  (from :mod:`costchart._palette`, or from ``palette=``);
- ``by``: further columns that tell curves apart (by default every grouping column
  other than ``classifier``);
- ``legend`` and ``hover``: selections the marks react to;
- ``tooltip``: ``None`` for the layer's own fields, ``False`` for none, or column names;
- ``mark``: Vega-Lite mark properties that replace costchart's (``{"strokeWidth": 3}``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import altair as alt
import jsonschema
import pandas as pd

from costchart._cost.geometry import check_y_max, cost_top
from costchart._io import schema as col
from costchart._io.drawable import drawable
from costchart._io.errors import CostchartError
from costchart._io.frames import (
    infer_by,
    is_hashable,
    normalize_by,
    own_columns,
    require_columns,
)
from costchart._io.schema import RESERVED
from costchart._io.tables import numbers, read_table
from costchart._palette import color_scale
from costchart._vega import field, nominal, title_text

#: Colours shared by the layers.
INK = "#222222"
TRIVIAL = "#555555"
MUTED = "#8c8c8c"
ONE_CURVE = "#0072B2"
REGION = "#bdbdbd"
HIGHLIGHT = "#c2185b"
CHANCE = "#9e9e9e"

PC_TITLE = "Probability cost, PC(+)"
COST_TITLE = "Normalized expected cost"
FPR_TITLE = "False positive rate"
TPR_TITLE = "True positive rate"
#: The axes of ROCIV points (:func:`costchart.rociv`): shares of amounts, not of counts.
FPR_IV_TITLE = "Share of the negatives' cost incurred"
TPR_IV_TITLE = "Share of the positives' benefit gained"

#: Opacity of marks the legend did not pick.
FADED = 0.06


def pc_x(title: str = PC_TITLE) -> alt.X:
    return alt.X(f"{col.PC}:Q", title=title, scale=alt.Scale(domain=[0, 1], nice=False))


def cost_scale(y_max: float) -> alt.Scale:
    return alt.Scale(domain=[0, y_max], nice=False)


def cost_y(y_max: float, column: str = col.COST) -> alt.Y:
    return alt.Y(f"{column}:Q", title=COST_TITLE, scale=cost_scale(y_max))


def fpr_x(column: str = col.FPR, title: str = FPR_TITLE) -> alt.X:
    return alt.X(f"{column}:Q", title=title, scale=alt.Scale(domain=[0, 1], nice=False))


def tpr_y(column: str = col.TPR, title: str = TPR_TITLE) -> alt.Y:
    return alt.Y(f"{column}:Q", title=title, scale=alt.Scale(domain=[0, 1], nice=False))


def unit_y(column: str) -> alt.Y:
    """A rate axis, for the ends of error bars."""
    return alt.Y(f"{column}:Q", title=TPR_TITLE, scale=alt.Scale(domain=[0, 1], nice=False))


#: Width of the colour legend's labels when a chart relabels them (names with their AUC
#: are long).
LABEL_LIMIT = 400


@dataclass(frozen=True)
class Axes:
    """What a chart gives the ROC-space layers it builds: axis titles and legend labels.

    Attributes
    ----------
    x, y : str
        Titles of the ``fpr`` and ``tpr`` axes (ROCIV points plot shares of amounts).
    labels : str, optional
        A Vega expression for the colour legend's labels (its ``labelExpr``, e.g. each
        classifier's name with its AUC); ``None`` keeps the values as they are.

    Examples
    --------
    >>> fpr_x(title=Axes(x=FPR_IV_TITLE).x).to_dict()["title"]
    "Share of the negatives' cost incurred"
    """

    x: str = FPR_TITLE
    y: str = TPR_TITLE
    labels: str | None = None

    def legend(self, **properties) -> dict:
        """``color_channel``'s ``legend=`` argument: ``properties`` with the labels, if any."""
        if self.labels is None:
            return {"legend": alt.Legend(**properties)} if properties else {}
        labelled = {**properties, "labelExpr": self.labels, "labelLimit": LABEL_LIMIT}
        return {"legend": alt.Legend(**labelled)}


#: The ROC layers' own axes: rates, the colour legend's values as they are.
ROC_AXES = Axes()


__all__ = ["Axes", "build", "check_y_max", "cost_top", "read"]


#: Columns a layer reads that hold names, labels or flags, not numbers (the charts' thresholds
#: are text such as "+inf (always negative)").
_TEXT_COLUMNS = frozenset(
    {col.THRESHOLD, col.BETTER, col.ROLE, "strategy", "cheaper", col.DEGENERATE, col.SIGNIFICANT}
)


def read(table, needed: Sequence[str], layer: str, *, color=None) -> pd.DataFrame:
    """``table`` as a pandas frame that has the ``needed`` columns (and ``color``'s).

    Layers take pandas, polars and pyarrow frames and dicts of arrays. The columns
    costchart did not write come back as a chart draws them
    (:func:`costchart._io.drawable.drawable`).
    """
    what = f"the table given to {layer}"
    table = read_table(table, what)
    require_columns(table.columns, needed, what, "Pass the costchart table it draws.")
    for column in needed:  # as every reader: the numbers a layer draws must be numbers
        if column not in _TEXT_COLUMNS:
            numbers(table, column, what)
    for column in table.columns:  # a list in a cell can neither label nor be drawn
        if table[column].dtype == object:
            cell = next((v for v in table[column] if not is_hashable(v)), None)
            if cell is not None:
                msg = (
                    f"column {column!r} of {what} holds {type(cell).__name__} values such as "
                    f"{cell!r}; pass the costchart table it draws, with numbers or names in "
                    "every cell"
                )
                raise CostchartError(msg)
    if color is not None:
        if not isinstance(color, str):
            msg = f"classifier={color!r} must be a column name (a string)"
            raise CostchartError(msg)
        require_columns(table.columns, [color], what, "classifier= must name one of its columns.")
        if color in RESERVED:
            msg = (
                f"classifier={color!r} is a column costchart writes, not one that tells "
                "curves apart; pass a grouping column (e.g. classifier='classifier')"
            )
            raise CostchartError(msg)
    # The columns costchart did not write (names, groupings) as a chart draws them: dates,
    # decimals, bytes and the like as text, on a copy.
    return drawable(table, own_columns(table), what)


def details(table: pd.DataFrame, color: str | None, detail, *, drop=()) -> list[str]:
    """The columns that tell curves apart besides ``color``."""
    if detail is None:
        detail = infer_by(table, None, declared=(color,))
    else:
        if not isinstance(detail, (str, Sequence)):
            msg = f"by={detail!r} must be a column name or a list of column names"
            raise CostchartError(msg)
        detail = normalize_by(detail)
        require_columns(
            table.columns, detail, "the table given to the layer", "by= must name its columns."
        )
    return [c for c in detail if c != color and c not in drop]


def color_channel(table: pd.DataFrame, color: str | None, fallback: str, palette=None, **extra):
    """The colour encoding: by ``color`` with stable palette colours, or one colour."""
    if not color:
        return alt.value(fallback)
    return alt.Color(**nominal(color), scale=color_scale(table[color], palette), **extra)


def faded(legend, hover=None, *, base: float = 1.0):
    """Opacity: full when hovered, ``base`` when the legend picks it, faint otherwise.

    Layers apply it as ``strokeOpacity`` / ``fillOpacity``, never ``opacity``: an SVG
    ``opacity`` makes image renderers composite every mark separately (a chart of a few
    thousand cost lines then takes minutes to become a PNG instead of seconds).
    """
    if legend is None and hover is None:
        return alt.value(base)
    if hover is None:
        return alt.when(legend).then(alt.value(base)).otherwise(alt.value(FADED))
    rule = alt.when(hover).then(alt.value(1.0))
    if legend is not None:
        return rule.when(legend).then(alt.value(base)).otherwise(alt.value(FADED))
    return rule.otherwise(alt.value(base))


def _check_selection(selection, name: str) -> None:
    if selection is not None and not isinstance(selection, alt.Parameter):
        msg = (
            f"{name}={selection!r} must be an Altair selection parameter, e.g. "
            f"alt.selection_point(name='costchart_{name}', fields=[...])"
        )
        raise CostchartError(msg)


def tooltips(table: pd.DataFrame, color: str | None, fields, tooltip) -> list | None:
    """Tooltip entries: the layer's ``fields`` (column, type, title) it has, or the user's.

    ``tooltip`` is ``None`` (the layer's own), ``False`` (none) or column names.
    """
    if tooltip is False:
        return None
    if tooltip is not None and tooltip is not True:
        names = normalize_by(tooltip) if isinstance(tooltip, (str, Sequence)) else None
        if names is None:
            msg = f"tooltip={tooltip!r} must be None, False or a list of column names"
            raise CostchartError(msg)
        require_columns(table.columns, names, "the table given to the layer", "tooltip=")
        return [
            alt.Tooltip(
                field=field(n),
                type="quantitative" if _numeric(table[n]) else "nominal",
                title=str(n),
            )
            for n in names
        ]
    tips = [alt.Tooltip(**nominal(color))] if color else []
    for name, kind, title in fields:
        if name in table.columns and name != color:
            # field= and type=, never "name:N": a column name may hold a colon.
            quantitative = kind == "Q"
            tips.append(
                alt.Tooltip(
                    field=field(name),
                    type="quantitative" if quantitative else "nominal",
                    title=title_text(title),
                    format=".4f" if quantitative else alt.Undefined,
                )
            )
    return tips


def _numeric(series: pd.Series) -> bool:
    return series.dtype.kind in "iuf"


def mark_properties(kind: str, style: Mapping, mark) -> dict:
    """Costchart's mark ``style`` with the user's ``mark=`` overrides, checked by the schema."""
    if mark is None:
        return dict(style)
    if not isinstance(mark, Mapping):
        msg = (
            f"mark={mark!r} must be a dict of Vega-Lite mark properties, e.g. {{'strokeWidth': 3}}"
        )
        raise CostchartError(msg)
    known = alt.MarkDef.resolve_references()["properties"]
    for key in mark:
        if key not in known or key == "type":
            msg = (
                f"mark={{{key!r}: ...}} is not a Vega-Lite mark property; pass properties such "
                "as 'strokeWidth', 'strokeDash', 'color', 'opacity'"
            )
            raise CostchartError(msg)
    merged = {**style, **mark}
    try:
        alt.MarkDef(type=kind, **merged).to_dict(validate=True)  # type: ignore[arg-type]
    except jsonschema.ValidationError as error:  # Altair's SchemaValidationError is one
        msg = f"mark={dict(mark)!r} has a value Vega-Lite refuses: {str(error).splitlines()[0]}"
        raise CostchartError(msg) from None
    return merged


#: Marks whose opacity is their fill's.
_FILLED = frozenset({"area", "rect", "circle", "square", "bar", "text"})


def build(
    chart: alt.Chart,
    table: pd.DataFrame,
    *,
    mark: str,
    style: Mapping,
    encoding: dict,
    color: str | None = None,
    fallback: str = INK,
    palette=None,
    detail=None,
    drop_detail=(),
    legend=None,
    hover=None,
    opacity: str | None = None,
    base_opacity: float = 1.0,
    fields=(),
    tooltip=None,
    overrides=None,
    axes: Axes = ROC_AXES,
) -> alt.Chart:
    """The one way layers make their chart.

    Parameters
    ----------
    chart : altair.Chart
        The chart of the layer's data, with any transforms it needs.
    table : pandas.DataFrame
        The data, for the colour domain, tooltips and detail columns.
    mark, style : str, dict
        Mark type and costchart's properties for it; ``overrides`` (the user's ``mark=``)
        replace them.
    encoding : dict
        Position channels and anything particular to the layer.
    color, fallback, palette
        The colour column (the layer's ``classifier=``; or ``fallback`` colour without
        one) and its colours.
    detail, drop_detail
        Columns that tell curves apart (the layer's ``by=``; ``None``: the grouping
        columns but ``drop_detail``); ``False`` for none. They are added to a ``detail``
        the layer encodes itself.
    legend, hover, opacity, base_opacity
        Selections to react to, through the ``opacity`` channel (``"strokeOpacity"`` or
        ``"fillOpacity"``; by default the mark's, when a selection is given).
    fields, tooltip
        The layer's tooltip fields, and the user's choice (see :func:`tooltips`).
    axes : Axes
        The colour legend's labels (``axes.labels``), set on the colour channel as it is
        made; the layer gives its position channels their titles from ``axes`` itself.
    """
    _check_selection(legend, "legend")
    _check_selection(hover, "hover")
    properties = mark_properties(mark, style, overrides)
    channels = dict(encoding)
    if "color" not in channels:
        channels["color"] = color_channel(table, color, fallback, palette, **axes.legend())
    if detail is not False:
        names = details(table, color, detail, drop=drop_detail)
        if names:
            own = channels.get("detail", [])  # the layer's own (e.g. one segment each)
            channels["detail"] = [
                *(own if isinstance(own, list) else [own]),
                *(alt.Detail(**nominal(c)) for c in names),
            ]
    if opacity is None and (legend is not None or hover is not None):
        # Every layer reacts to the selections it is given, through its marks' opacity.
        opacity = "fillOpacity" if mark in _FILLED else "strokeOpacity"
    if opacity is not None:
        channels[opacity] = faded(legend, hover, base=base_opacity)
    tips = tooltips(table, color, fields, tooltip)
    if tips:
        channels["tooltip"] = tips
    if not color and any(k in properties for k in ("color", "stroke", "fill")):
        channels.pop("color")  # the user's mark colour, not costchart's fallback
    # A property both set on the mark and encoded: Vega-Lite lets the mark's win on line
    # marks, which silently dropped conditions (a hovered line never turned bold). The
    # encoding wins over costchart's style, the user's mark= over the encoding.
    for name in [k for k in channels if k in properties]:
        if overrides is not None and name in overrides:
            channels.pop(name)
        else:
            properties.pop(name)
    return getattr(chart, f"mark_{mark}")(**properties).encode(**channels)
