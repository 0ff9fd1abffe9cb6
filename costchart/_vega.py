"""The Vega-Lite and Altair details every chart relies on, each in one place.

- Column names (:func:`field`, :func:`nominal`): the one escaping rule every chart uses.
- Names (:func:`content_name`): selections and views are named from the chart's content.
- Workarounds (:func:`lift_data`, :func:`shared_layer`, :func:`top_level`), each with
  the Altair or Vega-Lite behaviour it works around.

Column names
------------

Vega-Lite reads a field name as an access path: ``a.b`` is field ``b`` of field ``a``,
``a[0]`` an array element, and a quote opens a quoted path segment. A column whose name
holds one of these characters must have them escaped with a backslash, or the chart
loses its legend or fails at render. Names that are empty or hold a backslash or a line
break cannot be drawn at all (Vega-Lite 6 drops the escape of a backslash, and writes a
line break unescaped into its expressions) and are refused. Altair's
``"name:N"`` shorthand would also split a name holding ``:``, so every encoding here is
built from ``field=`` and ``type=`` instead. Expressions (filters, calculations) read a
column as ``datum["name"]``, with the name as a JSON string.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from typing import Any

import altair as alt
import numpy as np
import pandas as pd

from costchart._io.errors import CostchartError

__all__ = [
    "content_name",
    "field",
    "layered_view",
    "lift_data",
    "nominal",
    "shared_layer",
    "title_text",
    "top_level",
    "without_params",
]

_SPECIAL = re.compile(r"""([.\[\]'"])""")
#: Line breaks, which Vega-Lite copies unescaped into the expressions describing marks.
_BREAKS = re.compile("[\r\n\u2028\u2029]+")


def field(name) -> str:
    r"""``name`` as a Vega-Lite field: ``.``, ``[``, ``]``, ``'`` and ``"`` escaped.

    Empty names and names holding a backslash or a line break raise
    :class:`~costchart.CostchartError`.

    Examples
    --------
    >>> print(field("a.b"), field("a[0]"), field("plain"))
    a\.b a\[0\] plain
    """
    text = str(name)
    if not text:
        msg = (
            "a column named '' (the empty string) cannot be drawn: Vega-Lite reads an empty "
            "field name as no field; rename the column"
        )
        raise CostchartError(msg)
    if _BREAKS.search(text):
        # Vega-Lite writes a field name into its tooltip and description expressions
        # without escaping a line break, which ends the string there.
        msg = (
            f"a column named {text!r} cannot be drawn: Vega-Lite breaks on a line break in "
            "a field name (the chart is not drawn); rename the column, e.g. with "
            "frame.rename(columns=lambda c: c.replace('\\n', ' '))"
        )
        raise CostchartError(msg)
    if "\\" in text:
        # Vega-Lite 6 unescapes a field and escapes it again without its backslashes, so no
        # escaping survives everywhere: facets by such a column always lose their panels.
        msg = (
            f"a column named {text!r} cannot be drawn: Vega-Lite cannot use a field name "
            "holding a backslash (facets and legends lose it); rename the column"
        )
        raise CostchartError(msg)
    return _SPECIAL.sub(r"\\\1", text)


def title_text(text) -> str:
    r"""``text`` as a channel's title that Vega-Lite can write into its expressions.

    Vega-Lite writes each title of a mark's channels into the expressions of its tooltip
    and screen-reader description, escaping a quote but not a backslash or a line break,
    and the chart is not drawn ("Expression parse error"). Titles made of names (a
    classifier's, a column's) read line breaks as spaces and a backslash as the reverse
    solidus operator, which looks the same.

    Examples
    --------
    >>> title_text("a\\b\nc") == "a\u29f5b c"
    True
    """
    return _BREAKS.sub(" ", str(text)).replace("\\", "\u29f5")


def nominal(name, **properties) -> dict:
    """Keyword arguments for an Altair channel (``alt.Color(**nominal(name))``) of a column.

    The field is escaped; where escaping changed it, the title is the column's own name,
    so legends and tooltips show no backslashes. Give a mark's channel no ``title=None``
    (hide its axis or legend instead): Vega-Lite then describes the mark by the escaped
    field, and the backslash before a quote breaks that expression.
    """
    escaped = field(name)
    extra = {} if escaped == str(name) or "title" in properties else {"title": str(name)}
    return {"field": escaped, "type": "nominal", **extra, **properties}


def content_name(prefix: str, *parts) -> str:
    """``prefix`` followed by a digest of ``parts``: the same content, the same name.

    Selections and views are named from what the chart draws (its tables and options), so
    identical calls give byte-identical specs that can be diffed, cached and snapshot
    tested, while charts of different data get different names and stay independent when
    composed with ``&`` or ``|`` (Vega-Lite merges parameters of the same name). Two
    charts of identical content composed together need ``name=`` to tell them apart.

    ``parts`` may hold pandas frames (hashed by value, with their column names) and any
    values with a stable ``repr`` (strings, numbers, tuples, None).

    The digest follows the prefix directly: Altair renames a named layer of a
    concatenation to its base name plus ``_<position>``, taking a trailing ``_<digits>``
    for a position and dropping it, which would make two charts' names equal again.

    Examples
    --------
    >>> import pandas as pd
    >>> a = content_name("costchart", pd.DataFrame({"x": [1, 2]}), "pc")
    >>> a == content_name("costchart", pd.DataFrame({"x": [1, 2]}), "pc")
    True
    >>> a == content_name("costchart", pd.DataFrame({"x": [1, 3]}), "pc")
    False
    >>> a.startswith("costchart") and "_" not in a[len("costchart"):]
    True
    """
    digest = hashlib.sha1(usedforsecurity=False)
    for part in parts:
        if isinstance(part, pd.DataFrame):
            digest.update(repr(list(part.columns)).encode())
            digest.update(pd.util.hash_pandas_object(part, index=False).to_numpy().tobytes())
        else:
            digest.update(repr(part).encode())
        digest.update(b"\x00")
    return f"{prefix}{digest.hexdigest()[:12]}"


def layered_view(layers: Sequence, **properties) -> alt.LayerSpec | alt.LayerChart:
    """One view of a concatenation: ``layers`` over each other, with ``properties``.

    Works around: Altair's compound charts merge their views' data and selections in
    their constructor, which runs again on every copy (``to_dict`` and ``properties``
    copy), and renames each named layer of a concatenated ``alt.LayerChart`` after its
    position, which breaks the views that selections declared at the top name. costchart
    lifts the data itself (:func:`lift_data`) and declares selections at the top
    (:func:`top_level`), so there is nothing to merge: the view is Altair's schema class
    of a Vega-Lite layer (``alt.LayerSpec``), which concatenations take as it is and
    copy without renaming. It is made empty and then given its layers, as Altair would
    otherwise check each layer against the schema once more. Layers with selections of
    their own go into an ``alt.LayerChart``, whose constructor merges them.
    """
    if any(_has_params(layer) for layer in layers):
        return alt.LayerChart(layer=layers, **properties)
    view = alt.LayerSpec(layer=[], **properties)
    view.layer = list(layers)
    return view


def _has_params(view) -> bool:
    if getattr(view, "params", alt.Undefined) is not alt.Undefined:
        return True
    for key in ("layer", "hconcat", "vconcat", "concat"):
        inner = getattr(view, key, alt.Undefined)
        if inner is not alt.Undefined and any(_has_params(v) for v in inner):
            return True
    spec = getattr(view, "spec", alt.Undefined)
    return spec is not alt.Undefined and _has_params(spec)


def shared_layer(*charts: alt.Chart) -> alt.LayerChart:
    """Layer charts with their data moved to the top level, so the result can be faceted.

    Works around: Vega-Lite facets a layer only when its data sits at the top, and
    Altair refuses (``Facet charts require data to be specified at the top level``) when
    layers hold different frames. Each distinct frame becomes part of one combined data
    set (see :func:`lift_data`).
    """
    combined, moved = lift_data(charts)
    return alt.LayerChart(layer=moved, data=combined)


def lift_data(charts: Sequence[alt.Chart]) -> tuple[alt.InlineData, list[alt.Chart]]:
    """Move the charts' data into one inline data set they each filter.

    Every distinct frame of ``charts`` goes into the data set once, tagged
    ``costchart_table``; each chart keeps only its own rows, before its own transforms.
    Rows keep only their own frame's fields (no nulls for the others' columns), which
    keeps the spec small; Altair moves the values to the top-level ``datasets`` once.

    Works around: Altair checks every record of an ``alt.InlineData`` against the schema
    one by one when it is made, which took seconds for a few thousand rows; costchart made
    these rows, so the data set is made empty and then given them (the whole spec is
    still validated on export). A plain ``{"values": [...]}`` dict would not do: Altair
    then fails on any encoding whose type it must infer from the data.
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
        values = [json_values(frame[c]) for c in frame.columns]
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
    data = alt.InlineData(values=[])
    data.values = records
    return data, moved


def json_values(series: pd.Series) -> list:
    """A column as JSON-ready Python values; missing and non-finite values become None."""
    kind = series.dtype.kind
    if isinstance(series.dtype, np.dtype) and kind in "biuf":
        # numpy columns: their values as Python bool, int and float, in one pass.
        values = series.to_numpy()
        if kind != "f":
            return values.tolist()
        finite = np.isfinite(values)
        if finite.all():
            return values.tolist()
        cells = values.astype(object)
        cells[~finite] = None
        return cells.tolist()
    if isinstance(series.dtype, pd.StringDtype):
        return series.array.to_numpy(dtype=object, na_value=None).tolist()
    if kind in "biuf":  # nullable columns (Int64, boolean, Float64): a missing cell is None
        convert = {"b": bool, "i": int, "u": int, "f": float}[kind]
        cells = series.array.to_numpy(dtype=object, na_value=None)
        return [
            None if v is None or (kind == "f" and not math.isfinite(v)) else convert(v)
            for v in cells
        ]
    if kind == "M":
        return [None if pd.isna(v) else v.isoformat() for v in series]
    return [
        None if _missing(v) else v if isinstance(v, (bool, int, float)) else str(v) for v in series
    ]


def _missing(value) -> bool:
    """Whether one cell is missing; cells holding arrays or lists are not."""
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):  # an array's isna is an array
        return False


def without_params(chart: alt.Chart, name: str) -> alt.Chart:
    """A copy of ``chart`` named ``name``, its parameters removed (declared at the top)."""
    copy = chart.copy(deep=False)
    copy.params = alt.Undefined
    copy.name = name
    return copy


def top_level(selection, views: list[str]) -> alt.TopLevelSelectionParameter:
    """``selection`` declared once at the top of a concatenation, for the named views.

    Works around: Altair copies a selection of a layer into every concatenated view that
    repeats it and then warns "Automatically deduplicated selection parameter"; in
    altair 6.1-6.3 a selection not on the first layer of a faceted layer inside a concat
    crashes or silently stops working. Declaring it at the top, naming the views whose
    marks set it, avoids both and keeps the spec stable.
    """
    param: Any = selection.param if isinstance(selection, alt.Parameter) else selection
    return alt.TopLevelSelectionParameter(
        name=param.name, select=param.select, bind=param.bind, views=views
    )
