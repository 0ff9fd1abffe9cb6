"""The exception and warning classes every part of costchart raises."""

from __future__ import annotations

import os
import sys
import types
import warnings
from pathlib import Path

__all__ = ["CostchartError", "CostchartWarning", "warn"]

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
