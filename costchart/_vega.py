"""Column names inside Vega-Lite specs: the one escaping rule every chart uses.

Vega-Lite reads a field name as an access path: ``a.b`` is field ``b`` of field ``a``,
``a[0]`` an array element, and a quote opens a quoted path segment. A column whose name
holds one of these characters must have them escaped with a backslash, or the chart
loses its legend or fails at render. Names that are empty or hold a backslash cannot be
drawn at all (Vega-Lite 6 drops the escape of a backslash) and are refused. Altair's
``"name:N"`` shorthand would also split a name holding ``:``, so every encoding here is
built from ``field=`` and ``type=`` instead. Expressions (filters, calculations) read a
column as ``datum["name"]``, with the name as a JSON string.
"""

from __future__ import annotations

import itertools
import re

from costchart._errors import CostchartError

__all__ = ["field", "nominal", "unique_name"]

_SPECIAL = re.compile(r"""([.\[\]'"])""")


def field(name) -> str:
    r"""``name`` as a Vega-Lite field: ``.``, ``[``, ``]``, ``'`` and ``"`` escaped.

    Empty names and names holding a backslash raise :class:`~costchart.CostchartError`.

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
    if "\\" in text:
        # Vega-Lite 6 unescapes a field and escapes it again without its backslashes, so no
        # escaping survives everywhere: facets by such a column always lose their panels.
        msg = (
            f"a column named {text!r} cannot be drawn: Vega-Lite cannot use a field name "
            "holding a backslash (facets and legends lose it); rename the column"
        )
        raise CostchartError(msg)
    return _SPECIAL.sub(r"\\\1", text)


def nominal(name, **properties) -> dict:
    """Keyword arguments for an Altair channel (``alt.Color(**nominal(name))``) of a column.

    The field is escaped; where escaping changed it, the title is the column's own name,
    so legends and tooltips show no backslashes.
    """
    escaped = field(name)
    extra = {} if escaped == str(name) or "title" in properties else {"title": str(name)}
    return {"field": escaped, "type": "nominal", **extra, **properties}


_NUMBERS = itertools.count(1)


def unique_name(prefix: str) -> str:
    """``prefix`` with a number no other name made in this process has.

    Selections and views of each chart get their own names, so two charts composed with
    ``&`` or ``|`` keep independent hovering and legends (Vega-Lite merges parameters of
    the same name). The numbers follow the order charts are built in, so a script makes
    the same specs every time it runs.

    Examples
    --------
    >>> unique_name("costchart_hover").startswith("costchart_hover_")
    True
    """
    return f"{prefix}_{next(_NUMBERS)}"
