"""Stable, colour-blind-safe colours for the values of a grouping column.

A classifier keeps its colour in every chart of a report when every chart gets the same
mapping: build it once with :func:`palette` from all the values a report shows, and pass
it as ``palette=`` to each chart. Without one, each chart builds its mapping from its own
values, sorted, so charts of the same classifiers agree too.

The default colours are Okabe and Ito's eight (distinguishable with the common forms of
colour blindness, and in greyscale by lightness for the first few), then Paul Tol's
"muted" scheme; beyond sixteen values the colours repeat.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import altair as alt
import pandas as pd

from costchart._io.colors import check_palette
from costchart._io.drawable import drawable_values
from costchart._io.errors import CostchartError, plain, show
from costchart._io.frames import is_hashable
from costchart._io.parameters import checked

__all__ = ["COLORS", "chart_palette", "color_scale", "palette"]

#: The default colours, in the order values receive them.
COLORS = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#8C6D00",  # dark yellow (Okabe-Ito's yellow darkened to show on white)
    "#000000",  # black
    "#332288",
    "#117733",
    "#44AA99",
    "#88CCEE",
    "#DDCC77",
    "#CC6677",
    "#AA4499",
    "#882255",
)


def _sorted_values(values) -> list:
    """Distinct values, sorted (as text when they cannot be compared), missing dropped."""
    values = list(values)
    unhashable = next((v for v in values if not is_hashable(v)), None)
    if unhashable is not None:
        msg = (
            f"values such as {unhashable!r} ({type(unhashable).__name__}) cannot be given "
            "colours; convert them to strings or numbers (e.g. frame[column].astype(str))"
        )
        raise CostchartError(msg)
    items = list(dict.fromkeys(values))
    items = [v for v in items if not _missing(v)]
    try:
        return sorted(items)
    except TypeError:
        return sorted(items, key=lambda v: (type(v).__name__, str(v)))


def _missing(value) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


@checked
def palette(values: Iterable, *, colors: Mapping | None = None) -> dict:
    """A colour for each distinct value: fixed choices first, the rest in sorted order.

    Parameters
    ----------
    values : iterable
        The values of the colour column, e.g. ``points["classifier"]``, or a list of names.
        Pass every value the report shows, so each keeps its colour in every chart.
    colors : dict, optional
        Colours chosen by hand (value -> CSS colour: a name such as ``"black"``,
        ``"#rgb"``, ``"#rrggbb"``, ``"#rrggbbaa"``, ``"rgb(...)"`` or ``"hsl(...)"``, as Vega
        reads them; anything else is refused); the other values get the default colours
        that no chosen one uses.

    Returns
    -------
    dict
        Value -> CSS colour, in sorted order of the values. Values a chart draws as text
        (dates, decimals, bytes, tuples, ``inf``, ...; see
        :func:`costchart._io.drawable.drawable`) are keyed by that text.

    Examples
    --------
    >>> import costchart as cc
    >>> cc.palette(["tree", "logistic", "bayes"])
    {'bayes': '#0072B2', 'logistic': '#E69F00', 'tree': '#009E73'}
    >>> cc.palette(["tree", "logistic"], colors={"tree": "black"})
    {'logistic': '#0072B2', 'tree': 'black'}
    """
    return _mapping(values, colors, "colors")


def chart_palette(values: Iterable, palette: Mapping | None) -> dict:
    """:func:`palette` of a chart's values, its ``palette=`` named so in messages."""
    return _mapping(values, palette, "palette")


def _mapping(values: Iterable, colors: Mapping | None, name: str) -> dict:
    """:func:`palette`, its chosen colours named ``name`` in messages."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        msg = f"values={values!r} must be a list or column of the values to colour"
        raise CostchartError(msg)
    chosen = check_palette(colors, name)
    to_pylist = getattr(values, "to_pylist", None)
    if callable(to_pylist):
        # A pyarrow array or chunked array: its values as Python values (nulls None), not
        # pyarrow scalars, which would be drawn as text.
        values = to_pylist()
    if isinstance(values, pd.Series) and isinstance(values.dtype, pd.StringDtype):
        # Text columns: their distinct values, in order of first appearance as below, in
        # one pass of the column's own (instead of a Python object per row).
        values = values.unique()
    values, keys = _drawn_with_keys(list(values), list(chosen))
    chosen = dict(zip(keys, chosen.values(), strict=True))
    _refuse_near_misses(values, chosen, name)
    ordered = _sorted_values(values + list(chosen))
    free = iter(c for c in COLORS if c not in set(chosen.values()))
    mapping = {}
    for number, value in enumerate(ordered):
        if value in chosen:
            mapping[plain(value)] = chosen[value]
        else:
            mapping[plain(value)] = next(free, COLORS[number % len(COLORS)])
    return mapping


def _refuse_near_misses(values: list, chosen: dict, name: str) -> None:
    """Refuse a chosen key that names no value but one value without a colour, loosely.

    ``"Logistic"`` for ``"logistic"``, or ``"1"`` for the number 1, would leave that value
    its default colour without a word. A key that names no value at all is kept: one
    mapping may serve every chart of a report.
    """
    present = {value for value in values if is_hashable(value)}
    named = {_loosely(key) for key in chosen if key in present}
    uncoloured: dict[str, object] = {}
    for value in values:  # in order, so the message names the first
        if is_hashable(value) and value not in chosen and _loosely(value) not in named:
            uncoloured.setdefault(_loosely(value), value)
    for key in chosen:
        meant = uncoloured.get(_loosely(key)) if key not in present else None
        if meant is not None:
            msg = (
                f"{name}= key {show(key)} names no value to colour, and {show(meant)} got no "
                f"colour chosen: pass {show(meant)} as the key (keys must equal the values, "
                "type and case included)"
            )
            if isinstance(key, str) and not isinstance(meant, str):
                msg += (
                    "; a mapping from cc.palette keys every value as text when one of them "
                    "is drawn as text (inf, a decimal, a tuple): make the column text in "
                    "every chart, or leave those values out of the mapping"
                )
            raise CostchartError(msg)


def _loosely(value) -> str:
    """A value as text, case folded, numbers as floats: how a key can look like a value."""
    text = str(plain(value)).strip()
    try:
        number = float(text)
    except ValueError:
        return text.casefold()
    return repr(number) if math.isfinite(number) else text.casefold()


def _drawn_with_keys(values: list, keys: list) -> tuple[list, list]:
    """The distinct values and the chosen keys as a chart draws them, the keys alike.

    A column holding one value a chart draws as text (``inf``, a decimal, a tuple) is
    drawn as text throughout, so a key equal to one of its numbers takes that number's
    text. Other keys (already text, or naming no value) are converted on their own.
    """
    alone = _as_drawn(keys)  # dict keys are distinct: one drawn key each
    try:
        distinct = list(dict.fromkeys(values))
    except TypeError:
        return _as_drawn(values), alone
    drawn = _as_drawn(distinct)
    if drawn == distinct:
        return drawn, alone
    text_of = dict(zip(distinct, drawn, strict=True))
    return drawn, [text_of.get(key, own) for key, own in zip(keys, alone, strict=True)]


def _as_drawn(values: list) -> list:
    """The distinct ``values`` as a chart draws them: dates, decimals, bytes ... as text."""
    try:
        distinct = list(dict.fromkeys(values))
    except TypeError:
        return values  # the unhashable are refused by _sorted_values, naming the value
    drawn = drawable_values(pd.Series(distinct, dtype=object), "the values to colour")
    return distinct if drawn is None else list(drawn)


def color_scale(values, colors: Mapping | None = None) -> alt.Scale:
    """An Altair colour scale giving each value of ``values`` its :func:`palette` colour.

    ``colors`` may already be a full mapping (from :func:`palette`): values missing from
    it get free default colours.
    """
    mapping = _mapping(values, colors, "palette")
    return alt.Scale(domain=list(mapping), range=list(mapping.values()))
