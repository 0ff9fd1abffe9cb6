"""The options every data layer takes, declared once, and the decorator that gives them.

:class:`LayerOptions` declares them (names, defaults, meaning); :func:`data_layer` makes a
layer's public signature its own parameters followed by them, and keeps their old names
(``color=``, ``detail=``) one release.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, TypeVar

import altair as alt

from costchart._io.deprecation import take_aliases
from costchart._io.parameters import bound_call

__all__ = ["LAYER_OPTIONS", "LayerOptions", "data_layer"]


@dataclass(frozen=True)
class LayerOptions:
    """The options every data layer takes, declared once (as seaborn's ``Mark`` properties).

    :func:`data_layer` gives each data layer these keyword arguments, with these
    defaults, after its own; the layer hands them to :func:`build` under the names its
    body uses (``color=`` for ``classifier``, ``detail=`` for ``by``).

    Attributes
    ----------
    classifier : str, optional
        The column that tells classifiers apart: drawn in distinct colours, stable across
        charts (``palette=``).
    by : str or list of str, optional
        Further columns that tell curves apart (by default every grouping column other
        than ``classifier``).
    palette : dict, optional
        ``{value: colour}`` for ``classifier``'s values.
    legend, hover : altair.Parameter, optional
        Selections the marks react to: marks not picked in the legend fade; a hovered
        mark stands out.
    tooltip : None, False or list of str
        The layer's own tooltip, none, or these columns.
    mark : dict, optional
        Vega-Lite mark properties that replace costchart's (``{"strokeWidth": 3}``).

    Examples
    --------
    >>> [f for f in LAYER_OPTIONS]
    ['classifier', 'by', 'palette', 'legend', 'hover', 'tooltip', 'mark']
    """

    classifier: str | None = None
    by: str | Sequence[str] | None = None
    palette: Mapping | None = None
    legend: alt.Parameter | None = None
    hover: alt.Parameter | None = None
    tooltip: Any = None
    mark: Mapping | None = None


#: The names of the shared layer options, in the order signatures list them.
LAYER_OPTIONS = tuple(option.name for option in fields(LayerOptions))

#: The names a layer's body gives the shared options it receives.
_BODY_NAMES = {"classifier": "color", "by": "detail"}

#: Old public names of the shared options, kept one release with a ``FutureWarning``.
_DEPRECATED = {"color": "classifier", "detail": "by"}

#: What the decorated function returns (a chart); its parameters are the new signature's.
R = TypeVar("R")


def data_layer(function: Callable[..., R]) -> Callable[..., R]:
    """Give a data layer the shared :class:`LayerOptions`, declared once.

    ``function`` declares its own parameters and takes every shared option under its
    body's name (``color``, ``detail``, ``palette``, ``legend``, ``hover``, ``tooltip``,
    ``mark``). The public layer's signature is its own parameters followed by the shared
    options, keyword-only, with :class:`LayerOptions`' defaults; old names (``color=``,
    ``detail=``) still work for one release, with a ``FutureWarning``.
    """
    body = inspect.signature(function)
    inner = {_BODY_NAMES.get(name, name) for name in LAYER_OPTIONS}
    missing = inner - set(body.parameters)
    if missing:  # a programming error of costchart's, found when the module is imported
        msg = f"layer {function.__name__} does not take the shared options {sorted(missing)}"
        raise TypeError(msg)
    own = [p for name, p in body.parameters.items() if name not in inner]
    shared = [
        inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=option.default)
        for option in fields(LayerOptions)
    ]
    public = body.replace(parameters=[*own, *shared])
    layer = function.__name__

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        take_aliases(layer, kwargs, _DEPRECATED)
        bound = bound_call(public, layer, args, kwargs)
        options = LayerOptions(
            **{name: bound.arguments.pop(name) for name in LAYER_OPTIONS if name in bound.arguments}
        )
        call = dict(bound.arguments)
        for option in LAYER_OPTIONS:
            call[_BODY_NAMES.get(option, option)] = getattr(options, option)
        positional = [call.pop(p.name) for p in own if p.kind is p.POSITIONAL_ONLY]
        return function(*positional, **call)

    wrapper.__signature__ = public  # type: ignore[attr-defined]
    return wrapper
