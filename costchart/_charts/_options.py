"""The options every ready-made chart takes, checked once, and what they give its layers.

The look options (title, subtitle, size, columns, show_key, palette) are declared once, as
the fields of :class:`Look`; :func:`ready_chart` gives every chart them, with the same
defaults, and :func:`look_of` checks them into a :class:`Look` the chart's body receives.
The other checks are of ``name=``, ``classifier=``/``facet=`` (grouping columns of the
table), ``markers=`` and ``iso=``. :func:`colors_of` and :func:`keys_of` give the layers
one colour per classifier and the facet values.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TypeVar

import numpy as np
import pandas as pd

from costchart._io.colors import check_palette
from costchart._io.deprecation import take_aliases
from costchart._io.errors import CostchartError
from costchart._io.parameters import bound_call
from costchart._io.validation import (
    MAX_SIZE,
    flag,
    labelled_probabilities,
    panel_size,
    probabilities,
    whole_number,
)
from costchart._palette import chart_palette
from costchart._vega import content_name

__all__ = [
    "LOOK_OPTIONS",
    "MAX_SIZE",
    "PANELS_PER_ROW",
    "RENAMED",
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
    "ready_chart",
]


def check_size(size) -> int:
    """``size=`` as declared for every chart (see :mod:`costchart._io.parameters`)."""
    return panel_size(size)


@dataclass(frozen=True)
class Look:
    """The look options every chart takes, declared once: these fields and defaults.

    Attributes
    ----------
    title, subtitle : str, optional
        The chart's title and subtitle (a subtitle needs a title).
    size : int
        A panel's width and height in pixels.
    columns : int, optional
        Facet cells per row; ``None`` lets the chart choose.
    show_key : bool
        Draw the key, the legend of what is drawn.
    palette : dict, optional
        ``{value: colour}``, so a classifier keeps its colour in every chart.
    """

    title: str | None = None
    subtitle: str | None = None
    size: int = 280
    columns: int | None = None  # None: the chart's own choice (PANELS_PER_ROW, or one pair)
    show_key: bool = True
    palette: Mapping | None = None

    @property
    def key(self) -> bool:
        """Whether the chart draws its key (``show_key``)."""
        return self.show_key


#: The names of the look options, in the order chart signatures list them.
LOOK_OPTIONS = tuple(option.name for option in fields(Look))

#: Old public names of chart options, kept one release with a ``FutureWarning``: the
#: classifier column is ``classifier=`` as in the paired transformers, and flags that
#: draw something are ``show_<it>=``, never the name of a function or layer.
RENAMED = {
    "color": "classifier",
    "key": "show_key",
    "chance": "show_chance",
    "auc": "show_auc",
    "hull": "show_hull",
    "band": "show_band",
    "roc": "show_roc",
}

#: The names the charts' bodies give the renamed options (their own names until the
#: bodies are next reworked).
_BODY_NAMES = {new: old for old, new in RENAMED.items() if new != "show_key"}

#: What the decorated function returns (a chart); its parameters are the new signature's.
R = TypeVar("R")


def ready_chart(function: Callable[..., R]) -> Callable[..., R]:
    """Give a ready-made chart the look options of :class:`Look`, declared once.

    ``function`` declares its own parameters (under its body's names: ``color``,
    ``chance``, ...) and a keyword-only ``look``; the public chart's signature is its own
    parameters, renamed (:data:`RENAMED`), followed by the look options with
    :class:`Look`'s defaults. The look is checked once (:func:`look_of`) and handed to
    the body as ``look``; the old names work for one release, with a ``FutureWarning``.
    """
    body = inspect.signature(function)
    public_of = {old: new for new, old in _BODY_NAMES.items()}
    own = [
        p.replace(name=public_of.get(name, name))
        for name, p in body.parameters.items()
        if name != "look"
    ]
    shared = [
        inspect.Parameter(
            option.name,
            inspect.Parameter.KEYWORD_ONLY,
            default=option.default,
            annotation=option.type,
        )
        for option in fields(Look)
    ]
    public = body.replace(parameters=[*own, *shared])
    chart = function.__name__
    renamed = {old: new for old, new in RENAMED.items() if new in public.parameters}

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        take_aliases(chart, kwargs, renamed)
        bound = bound_call(public, chart, args, kwargs)
        look = look_of(
            **{name: bound.arguments.pop(name, getattr(Look, name)) for name in LOOK_OPTIONS}
        )
        call = {_BODY_NAMES.get(name, name): value for name, value in bound.arguments.items()}
        return function(**call, look=look)

    wrapper.__signature__ = public  # type: ignore[attr-defined]
    return wrapper


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


def look_of(*, size, columns, title, subtitle, show_key, palette) -> Look:
    """The look options checked, as a :class:`Look`."""
    if columns is not None:
        whole_number(columns, "columns", minimum=1)
    for name, value in (("title", title), ("subtitle", subtitle)):
        if value is not None and not isinstance(value, str):
            msg = f"{name}={value!r} must be a string (or None for no {name})"
            raise CostchartError(msg)
    if subtitle is not None and title is None:
        msg = "subtitle= needs a title=; pass both"
        raise CostchartError(msg)
    check_palette(palette)  # checked even where nothing is coloured
    return Look(
        size=check_size(size),
        columns=None if columns is None else int(columns),
        title=title,
        subtitle=subtitle,
        show_key=flag(show_key, "show_key"),
        palette=palette,
    )


def check_roles(by: Sequence[str], table: str, source: str, **roles) -> None:
    """Refuse ``classifier=`` / ``facet=`` values that are not grouping columns."""
    for role, name in roles.items():
        if name is None:
            continue
        if not isinstance(name, Hashable) or name not in by:
            msg = (
                f"{'classifier' if role == 'color' else role}={name!r} is not a grouping column "
                f"of {table}; grouping columns: "
                f"{list(by)}. Pass by=[..., {name!r}] to {source}"
            )
            raise CostchartError(msg)
    if roles.get("color") is not None and roles.get("color") == roles.get("facet"):
        msg = f"classifier= and facet= are both {roles['color']!r}; pass different columns"
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
    return chart_palette(table[color], look.palette) if color else None


def keys_of(table: pd.DataFrame, facet: str | None) -> pd.DataFrame | None:
    return table[[facet]].drop_duplicates().reset_index(drop=True) if facet else None
