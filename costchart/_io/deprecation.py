"""Old parameter names and values kept one release, each with a ``FutureWarning``.

A public function whose parameters were renamed is wrapped by :func:`deprecated_names`
with a ``translate(function_name, kwargs)`` that rewrites the old spellings into the new
ones in place (:func:`take_alias`, :func:`renamed_value`), warning once for each. The
wrapper keeps the function's signature (``functools.wraps``), which shows only the new
names, and behaves exactly as a call with the new spelling.
"""

from __future__ import annotations

import functools
import sys
import warnings
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from costchart._io.errors import CostchartError, _inside

__all__ = [
    "ABSENT",
    "deprecated_names",
    "future_warning",
    "renamed",
    "renamed_pair",
    "renamed_value",
    "take_alias",
    "take_aliases",
]

F = TypeVar("F", bound=Callable[..., Any])

#: What :func:`take_alias` returns when the old name was not passed.
ABSENT = object()


def deprecated_names(translate: Callable[[str, dict], None]) -> Callable[[F], F]:
    """Wrap a public function so that ``translate`` rewrites its old keyword arguments."""

    def decorate(function: F) -> F:
        name = function.__name__

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            translate(name, kwargs)
            return function(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate


def future_warning(message: str) -> None:
    """A ``FutureWarning`` attributed to the user's line (the first frame outside costchart)."""
    frame = sys._getframe(0)
    level = 1
    while frame is not None and _inside(frame):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    warnings.warn(message, FutureWarning, stacklevel=level)


def take_alias(function: str, kwargs: dict, old: str, new: str):
    """Remove and return ``kwargs[old]`` (:data:`ABSENT` if not passed); refuse both names."""
    if old not in kwargs:
        return ABSENT
    if new in kwargs:
        msg = (
            f"{function}() got {old}={kwargs[old]!r} and {new}={kwargs[new]!r}: {old}= is the "
            f"deprecated name of {new}=; pass {new}= only"
        )
        raise CostchartError(msg)
    return kwargs.pop(old)


def take_aliases(function: str, kwargs: dict, names: Mapping[str, str]) -> None:
    """Rewrite each old keyword of ``names`` (old -> new) into the new one, warning once each."""
    for old, new in names.items():
        value = take_alias(function, kwargs, old, new)
        if value is not ABSENT:
            future_warning(
                f"{function}({old}=...) is deprecated and will be removed in the next "
                f"release; pass {new}="
            )
            kwargs[new] = value


def renamed(**names: str) -> Callable[[F], F]:
    """Keep a function's old keyword names one release: ``@renamed(panels="facet")``."""
    return deprecated_names(lambda function, kwargs: take_aliases(function, kwargs, names))


def renamed_pair(old: str = "names", new: tuple[str, str] = ("a", "b")) -> Callable[[F], F]:
    """Keep an old keyword that took a pair, ``names=(x, y)``, as two: ``a=x, b=y``."""

    def translate(function: str, kwargs: dict) -> None:
        if old not in kwargs:
            return
        given = [name for name in new if name in kwargs]
        if given:
            msg = (
                f"{function}() got {old}= and {given[0]}=: {old}=({new[0]}, {new[1]}) is the "
                f"deprecated spelling of {new[0]}=, {new[1]}=; pass those only"
            )
            raise CostchartError(msg)
        value = kwargs.pop(old)
        future_warning(
            f"{function}({old}=...) is deprecated and will be removed in the next release; "
            f"pass {new[0]}= and {new[1]}="
        )
        if value is None:
            return
        if (
            isinstance(value, (str, bytes))
            or not isinstance(value, (tuple, list))
            or len(value) != 2
        ):
            msg = f"{old}={value!r} must be two names; better, pass {new[0]}= and {new[1]}="
            raise CostchartError(msg)
        kwargs[new[0]], kwargs[new[1]] = value

    return deprecated_names(translate)


def renamed_value(function: str, old: str, value, new: str, mapping: Mapping[str, str]) -> str:
    """The new spelling of ``old=value`` as ``new=``, with a ``FutureWarning`` naming it."""
    if not isinstance(value, str) or value not in mapping:
        listed = ", ".join(repr(option) for option in mapping)
        msg = (
            f"{old}={value!r} is not an option; pass one of {listed} (or, better, {new}=: "
            f"{old}= is its deprecated old name)"
        )
        raise CostchartError(msg)
    given = mapping[value]
    future_warning(
        f"{function}({old}={value!r}) is deprecated and will be removed in the next "
        f"release; pass {new}={given!r}"
    )
    return given
