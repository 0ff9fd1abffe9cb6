"""The exception and warning classes every part of costchart raises."""

from __future__ import annotations

import warnings

__all__ = ["CostchartError", "CostchartWarning", "warn"]


class CostchartError(ValueError):
    """Bad input to a costchart function.

    The message names the parameter or column, the value received and how to fix it.
    Subclasses :class:`ValueError`, so ``except ValueError`` keeps working.
    """


class CostchartWarning(UserWarning):
    """Degenerate input that still has a documented answer (e.g. a group with one class)."""


def warn(message: str) -> None:
    """Issue a :class:`CostchartWarning` attributed to the caller of the public function."""
    warnings.warn(message, CostchartWarning, stacklevel=4)
