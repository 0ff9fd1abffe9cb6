"""The options every ready-made chart takes, checked once, and what they give its layers.

:func:`look_of` checks the look options (size, columns, title, subtitle, key, palette)
into a :class:`Look`; the other checks are of ``name=``, ``color=``/``facet=`` (grouping
columns of the table), ``markers=`` and ``iso=``. :func:`colors_of` and :func:`keys_of`
give the layers one colour per classifier and the facet values.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costchart._io.errors import CostchartError
from costchart._io.validation import (
    MAX_SIZE,
    flag,
    labelled_probabilities,
    panel_size,
    probabilities,
    whole_number,
)
from costchart._palette import palette as palette_of
from costchart._vega import content_name

__all__ = [
    "MAX_SIZE",
    "PANELS_PER_ROW",
    "Look",
    "chart_name",
    "check_iso",
    "check_markers",
    "check_name",
    "check_roles",
    "check_size",
    "colors_of",
    "keys_of",
    "look_of",
]


def check_size(size) -> int:
    """``size=`` as declared for every chart (see :mod:`costchart._io.parameters`)."""
    return panel_size(size)


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
