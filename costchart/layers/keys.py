"""The key: one legend entry per kind of drawn element, in the papers' terms.

Colour tells classifiers apart; everything else a chart draws (the envelope, the cost
lines, the trivial classifiers, the grey region, hulls, bands, rules) gets an entry here
whose symbol looks like the element: a bold or thin stroke, a dash pattern, a shaded
square, a dot. The layer draws nothing visible; its only output is the legend, built from
shape, fill, stroke, dash and width scales on one field, which Vega-Lite merges into a
single legend.

Other layers never encode those channels from data (they use mark properties), so the
key's scales are its own.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import altair as alt
import pandas as pd

from costchart._cost.geometry import repeat_for
from costchart._io.colors import check_color
from costchart._io.deprecation import renamed
from costchart._io.errors import CostchartError
from costchart._io.parameters import checked
from costchart._io.validation import one_of
from costchart.layers._base import CHANCE, HIGHLIGHT, INK, MUTED, ONE_CURVE, REGION, TRIVIAL

__all__ = ["KEY_FIELD", "STYLES", "key"]

#: The field of the key's rows.
KEY_FIELD = "costchart_key"

#: Symbol sizes (area in square pixels) by shape: strokes long enough to show a dash.
_SIZES = {"stroke": 260, "square": 150, "circle": 50}
_SOLID = [100, 0]
#: Where Vega-Lite can put a legend.
_ORIENTS = (
    "bottom",
    "top",
    "left",
    "right",
    "top-left",
    "top-right",
    "bottom-left",
    "bottom-right",
    "none",
)  # a dash longer than any symbol: solid (with [1, 0] strokes look faint)

#: How each kind of element looks in the key: symbol shape, fill, stroke, width, dash.
STYLES: dict[str, dict] = {
    "thin line": {"shape": "stroke", "stroke": MUTED, "strokeWidth": 1.0},
    "bold line": {"shape": "stroke", "stroke": INK, "strokeWidth": 2.5},
    "trivial": {"shape": "stroke", "stroke": TRIVIAL, "strokeWidth": 1.8},
    "line": {"shape": "stroke", "stroke": INK, "strokeWidth": 1.5},
    "dashed line": {"shape": "stroke", "stroke": INK, "strokeWidth": 1.2, "strokeDash": [6, 3]},
    "thick dashed line": {
        "shape": "stroke",
        "stroke": INK,
        "strokeWidth": 3.0,
        "strokeDash": [7, 4],
    },
    "dotted line": {"shape": "stroke", "stroke": INK, "strokeWidth": 1.2, "strokeDash": [2, 3]},
    "rule": {"shape": "stroke", "stroke": INK, "strokeWidth": 1.2, "strokeDash": [5, 4]},
    "chance": {"shape": "stroke", "stroke": CHANCE, "strokeWidth": 1.0, "strokeDash": [4, 4]},
    "highlight": {"shape": "stroke", "stroke": HIGHLIGHT, "strokeWidth": 2.5, "strokeDash": [6, 3]},
    "region": {"shape": "square", "fill": REGION},
    "band": {"shape": "square", "fill": "#9fc3df"},
    "spread": {"shape": "square", "fill": "#c4c4c4"},
    "bar": {"shape": "square", "fill": "#555555"},
    "pale bar": {"shape": "square", "fill": "#c9c9c9"},
    "dot": {"shape": "circle", "fill": INK},
    "open dot": {"shape": "circle", "fill": "white", "stroke": INK, "strokeWidth": 1.5},
    "wide line": {"shape": "stroke", "stroke": "#b5b5b5", "strokeWidth": 8.0},
    "ring": {"shape": "circle", "stroke": HIGHLIGHT, "strokeWidth": 2.0},
    "error bar": {"shape": "stroke", "stroke": ONE_CURVE, "strokeWidth": 1.0},
    "tick": {"shape": "stroke", "stroke": MUTED, "strokeWidth": 2.0},
    "note": {"shape": "stroke"},  # words alone: no symbol (e.g. how far the axis runs)
}


def _style(kind: str, colour: str | None = None) -> dict:
    """The symbol of one entry; ``colour`` replaces the colour of what the symbol draws."""
    if not isinstance(kind, str) or kind not in STYLES:
        msg = f"key entry kind {kind!r} is not one of {sorted(STYLES)}"
        raise CostchartError(msg)
    style = {
        "shape": "stroke",
        "fill": "transparent",
        "stroke": "transparent",
        "strokeWidth": 0.0,
        "strokeDash": _SOLID,
        "size": _SIZES[STYLES[kind]["shape"]],
        **STYLES[kind],
    }
    if colour is not None:
        style["stroke" if "stroke" in STYLES[kind] else "fill"] = colour
    return style


def _dash_signal(labels: list[str], styles: list[dict]) -> str:
    """A Vega expression giving each legend symbol its entry's dash, by the entry's label.

    Labels this key does not declare (another key's, merged into one legend) keep the
    dash of the shared scale.
    """
    expression = 'scale("strokeDash", datum.value)'
    for label, style in zip(reversed(labels), reversed(styles), strict=True):
        dash = json.dumps(style["strokeDash"])
        expression = f"datum.value === {json.dumps(label)} ? {dash} : {expression}"
    return expression


def _entry(entry) -> tuple[str, str, str | None]:
    """A (label, kind) or (label, kind, colour) entry, checked."""
    if not isinstance(entry, tuple) or len(entry) not in (2, 3):
        msg = (
            f"key entry {entry!r} must be a (label, kind) or (label, kind, colour) tuple, "
            "e.g. ('lower envelope', 'bold line', '#0072B2')"
        )
        raise CostchartError(msg)
    label, kind, *colour = entry
    if not isinstance(label, str) or not label:
        msg = f"key entry {entry!r} needs a non-empty label (a string) first"
        raise CostchartError(msg)
    if colour:
        check_color(colour[0], f"key entry {label!r} has colour {colour[0]!r}, which")
    return label, kind, colour[0] if colour else None


@renamed(panels="facet")
@checked
def key(
    entries: Sequence[tuple[str, str] | tuple[str, str, str]],
    *,
    facet: pd.DataFrame | None = None,
    title: str | None = None,
    orient: str = "bottom",
) -> alt.Chart:
    """A legend explaining what a chart draws, one entry per kind of element.

    Parameters
    ----------
    entries : list of (label, kind) or (label, kind, colour)
        The label in the papers' terms (``"lower envelope"``) and how it looks, one of
        :data:`STYLES`: ``"thin line"``, ``"bold line"``, ``"trivial"``, ``"line"``,
        ``"dashed line"``, ``"thick dashed line"``, ``"dotted line"``, ``"rule"``,
        ``"chance"``, ``"highlight"``, ``"region"``, ``"band"``, ``"spread"``, ``"dot"``,
        ``"open dot"``, ``"ring"``, ``"error bar"``, ``"tick"``, ``"wide line"``, or
        ``"note"`` (no symbol: the label alone, e.g. where the cost axis stops). A third
        item, a CSS colour, draws the symbol in the colour of the element it names (its
        stroke, or its fill for ``"region"``, ``"band"``, ``"spread"`` and ``"dot"``), so a
        key never shows a black swatch for an element drawn in colour.
    facet : pandas.DataFrame, optional
        Facet values to repeat the (invisible) rows for, one row per panel.
    title : str, optional
        The legend's title (none by default).
    orient : str
        Where the legend goes (Vega-Lite legend orient).

    Notes
    -----
    Views joined with ``|`` or ``&`` share their scales. When costchart exports a chart
    (:func:`costchart.save`, :func:`costchart.report`, the documentation), two keys in
    joined views merge into one legend with every entry drawn as its own key declares;
    displayed straight from Altair, Vega-Lite would draw the second key's entries with
    the first key's symbols. Each swatch takes its dash from its own entry's label, so a
    layer that dashes curves from a field (``strokeDash`` with ``legend=None``, which
    Vega-Lite would apply to the merged legend) leaves the key's dashes as declared.
    Where curves are coloured by classifier, an entry for an element drawn in each
    curve's colour keeps its kind's neutral colour: the colour legend names the curves.

    Examples
    --------
    >>> from costchart import layers
    >>> chart = layers.key([("lower envelope", "bold line"), ("operating range", "rule")])
    >>> chart.to_dict()["encoding"]["shape"]["scale"]["domain"]
    ['lower envelope', 'operating range']
    >>> coloured = layers.key([("hull of A", "dashed line", "#0072B2"), ("points", "dot", "red")])
    >>> coloured.to_dict()["encoding"]["stroke"]["scale"]["range"]
    ['#0072B2', 'transparent']
    >>> coloured.to_dict()["encoding"]["fill"]["scale"]["range"]
    ['transparent', 'red']
    """
    if isinstance(entries, (str, bytes)) or not isinstance(entries, Sequence) or not entries:
        msg = f"entries={entries!r} must be a non-empty list of (label, kind) pairs"
        raise CostchartError(msg)
    one_of(orient, "orient", _ORIENTS)
    labels, styles = [], []
    for entry in entries:
        label, kind, colour = _entry(entry)
        if label in labels:
            msg = f"key entry {label!r} is given twice; each label once"
            raise CostchartError(msg)
        labels.append(label)
        styles.append(_style(kind, colour))
    rows = repeat_for(pd.DataFrame({KEY_FIELD: labels}), facet)

    def channel(kind, prop, measure="N", **extra):
        # Ordinal: a "point" scale (Vega-Lite's default for widths and sizes) would spread
        # the widths evenly between the first and last instead of using each.
        scale = alt.Scale(type="ordinal", domain=labels, range=[s[prop] for s in styles])
        # Widths and sizes need an ordered field (ordinal, sorted as given); shapes and
        # colours a nominal one. Vega-Lite still merges them into one legend.
        return kind(f"{KEY_FIELD}:{measure}", scale=scale, sort=labels, **extra)

    legend = alt.Legend(
        title=title,
        orient=orient,  # type: ignore[arg-type]
        direction="horizontal" if orient in ("bottom", "top") else "vertical",
        columns=3 if orient in ("bottom", "top") else alt.Undefined,
        labelLimit=320,
        # Each symbol's dash from its own label: a layer encoding strokeDash from data with
        # legend=None would otherwise drop the dash channel from the merged legend.
        symbolDash=alt.ExprRef(expr=_dash_signal(labels, styles)),
    )
    return (
        alt.Chart(rows)
        # No marks at all (the legend comes from the scales' explicit domains); marks made
        # invisible through opacity would make the legend's symbols invisible too.
        .transform_filter("false")
        .mark_point(filled=True, opacity=1)
        .encode(
            shape=channel(alt.Shape, "shape", legend=legend),
            fill=channel(alt.Fill, "fill"),
            stroke=channel(alt.Stroke, "stroke"),
            strokeWidth=channel(alt.StrokeWidth, "strokeWidth", "O"),
            strokeDash=channel(alt.StrokeDash, "strokeDash"),
            size=channel(alt.Size, "size", "O"),
        )
    )
