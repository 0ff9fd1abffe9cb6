"""Data with one class only: the messages that say which class is missing, and where.

ROC analysis needs positives and negatives. :func:`has_both_classes` refuses ungrouped
data with one class (a group of grouped data is left out with a warning), in the words
of what the user passed: the label column (``pos_label``), the weights (a class whose
every instance has weight 0, :func:`weightless_class`), or the columns of confusion
counts (:class:`CountColumns`), which have no ``pos_label``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from costchart._io.errors import CostchartError, warn
from costchart._io.frames import describe_group
from costchart._io.groups import Group

__all__ = ["CountColumns", "has_both_classes", "no_class", "require_some", "weightless_class"]


def has_both_classes(
    pos: np.ndarray, neg: np.ndarray, group: Group, by, label, what: str = "counts"
) -> bool:
    """Whether per-score counts hold both classes; if not, refuse ungrouped data or warn.

    ``label`` is the label column, or :class:`CountColumns` for confusion counts; ``what``
    names weighted amounts (``"weights in column 'w'"``), as :func:`point_columns` does.
    """
    if pos.sum() > 0 and neg.sum() > 0:
        return True
    missing = "positives" if pos.sum() == 0 else "negatives"
    if not by:
        raise CostchartError(no_class(label, missing, what))
    warn(f"group {describe_group(by, group.key)} has no {missing}; it is left out")
    return False


@dataclass(frozen=True)
class CountColumns:
    """The columns of confusion counts (``from_confusion``): what their messages name."""

    tp: str
    fn: str
    fp: str
    tn: str

    def of(self, missing: str) -> tuple[str, str]:
        """The two columns whose sum is the class ``missing`` ("positives" or "negatives")."""
        return (self.tp, self.fn) if missing == "positives" else (self.fp, self.tn)


def no_class(label, missing: str, what: str = "counts") -> str:
    """Why data has no ``missing`` ("positives" or "negatives"), named as the user gave it.

    Examples
    --------
    >>> no_class("y", "positives")
    "column 'y' has no positives; ROC analysis needs both classes. Check pos_label and the data"
    >>> no_class(CountColumns("TP", "FN", "FP", "TN"), "positives")[:60]
    "the counts 'TP' + 'FN' are 0, so there are no positives; ROC"
    """
    if isinstance(label, CountColumns):
        first, second = label.of(missing)
        return (
            f"the counts {first!r} + {second!r} are 0, so there are no {missing}; ROC "
            f"analysis needs both classes. Pass counts whose {first!r} + {second!r} is above 0"
        )
    if what != "counts":  # weighted: the class may be there, all of weight 0
        return (
            f"column {label!r} has no {missing} of weight above 0 ({what}); ROC analysis "
            "needs both classes. Check pos_label, the weights and the data"
        )
    return (
        f"column {label!r} has no {missing}; ROC analysis needs both classes. "
        "Check pos_label and the data"
    )


def weightless_class(positive: np.ndarray, weights: np.ndarray) -> str | None:
    """The class ("positives" or "negatives") present only with weight 0, if one is."""
    for name, rows in (("positives", positive), ("negatives", ~positive)):
        if rows.any() and not np.any(weights[rows] > 0):
            return name
    return None


def require_some(parts, by, label) -> None:
    if by and not any(len(part) for part in parts):
        where = f"in column {label!r}"
        if isinstance(label, CountColumns):
            where = (
                f"in the counts ({label.tp!r} + {label.fn!r} positives, {label.fp!r} + "
                f"{label.tn!r} negatives)"
            )
        msg = (
            f"no group of {by!r} has both classes {where}; "
            "ROC analysis needs positives and negatives in a group"
        )
        raise CostchartError(msg)
