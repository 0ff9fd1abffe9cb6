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

__all__ = ["ABSENT", "deprecated_names", "future_warning", "renamed_value", "take_alias"]

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
