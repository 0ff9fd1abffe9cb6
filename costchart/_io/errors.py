"""The exception and warning classes every part of costchart raises, and the words of messages.

Messages show values as users type them (:func:`show`, :func:`listed`: ``1``, not
``np.int64(1)``) and say when a frame's one column is a whole header line of another
separator (:func:`separator_hint`).
"""

from __future__ import annotations

import os
import sys
import types
import warnings
from pathlib import Path

__all__ = [
    "SEPARATORS",
    "CostchartError",
    "CostchartWarning",
    "listed",
    "plain",
    "separator_hint",
    "separator_in",
    "show",
    "warn",
]

_PACKAGE = str(Path(__file__).resolve().parent.parent) + os.sep  # costchart/


class CostchartError(ValueError):
    """Bad input to a costchart function.

    The message names the parameter or column, the value received and how to fix it.
    Subclasses :class:`ValueError`, so ``except ValueError`` keeps working.
    """


class CostchartWarning(UserWarning):
    """Degenerate input that still has a documented answer (e.g. a group with one class)."""


# Libraries whose ``.pipe()`` (or ``apply``) calls costchart on the user's behalf: their
# frames stand between costchart and the user's line, so they are skipped too.
_PASS_THROUGH = ("pandas.", "polars.")


def _inside(frame: types.FrameType) -> bool:
    """Whether ``frame`` is costchart's own code, or a data library calling it."""
    if str(Path(frame.f_code.co_filename).resolve()).startswith(_PACKAGE):
        return True
    return str(frame.f_globals.get("__name__", "")).startswith(_PASS_THROUGH)


def _user_stacklevel() -> int:
    """The ``stacklevel`` of the first frame outside costchart, seen from :func:`warn`.

    Public functions call each other at varying depths, so a fixed level would point
    at costchart's own code; the user's line is the first caller outside the package
    (and outside pandas or polars, whose ``.pipe()`` may stand in between).
    """
    frame: types.FrameType | None = sys._getframe(1)  # warn() itself
    level = 1
    while frame is not None and _inside(frame):
        frame = frame.f_back
        level += 1
    return level


def warn(message: str) -> None:
    """Issue a :class:`CostchartWarning` attributed to the user's line that called costchart."""
    warnings.warn(message, CostchartWarning, stacklevel=_user_stacklevel())


def plain(value):
    """A value as users write it: numpy scalars as Python ones (``np.int64(1)`` is ``1``).

    numpy 2 prints its scalars as ``np.int64(1)``; messages show the value a user typed.
    numpy is not imported: the command line answers ``--help`` without it.
    """
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0:
        return value.item()
    return value


def show(value) -> str:
    """``repr`` of the :func:`plain` value, for messages: ``1``, ``'a'``, ``2.5``."""
    return repr(plain(value))


def listed(values, limit: int | None = None) -> str:
    """Values for a message as users write them, ``1, 2, 'a'`` (``, ...`` past ``limit``).

    Examples
    --------
    >>> import numpy as np
    >>> listed(np.array([1, 2, 3]))
    '1, 2, 3'
    >>> listed([np.str_("a"), np.float64(0.5), None, 7], limit=2)
    "'a', 0.5, ..."
    """
    values = list(values)
    head = values if limit is None else values[:limit]
    more = ", ..." if limit is not None and len(values) > limit else ""
    return ", ".join(show(value) for value in head) + more


#: Separators of delimited text files, as messages name them.
SEPARATORS = {";": "';'", "\t": "a tab", "|": "'|'", ",": "','"}


def separator_in(available) -> str | None:
    """The separator a frame's one column name holds: a header line split by another one.

    Examples
    --------
    >>> separator_in(["score;label"]), separator_in(["score", "label"])
    (';', None)
    """
    names = list(available)
    if len(names) != 1 or not isinstance(names[0], str):
        return None
    return next((s for s in SEPARATORS if s in names[0]), None)


def separator_hint(available) -> str:
    """The end of a missing-column message when the columns look like one header line."""
    separator = separator_in(available)
    if separator is None:
        return ""
    return (
        f" The only column's name holds {SEPARATORS[separator]}: the file seems to "
        f"separate its columns by it; read it with sep={separator!r} (e.g. "
        f"pandas.read_csv(path, sep={separator!r}))"
    )
