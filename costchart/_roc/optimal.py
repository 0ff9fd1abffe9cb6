"""Which hull vertex is used at an operating point ``pc``: one rule, in numpy and in Vega.

Each vertex of a ROC convex hull is optimal on an interval ``[pc_lo, pc_hi]`` of operating
points (see :func:`costchart.roc_hull`); consecutive vertices share an end, where both
are optimal. Two questions are asked of these intervals:

- *which vertices are optimal at pc* (:func:`optimal_vertices`): every vertex whose
  closed interval holds ``pc``; two at a shared end (the iso-performance line lies along
  a hull edge), and a vertex optimal at a single point only there;
- *which vertex is used at pc* (:data:`RULE`, :func:`vertex_mask`, :func:`vertex_index`,
  :func:`vertex_expression`): exactly one. The tie at a shared end goes to the vertex on
  the right, the one whose interval starts at ``pc`` (the classifier active to the right
  of ``pc``, as :func:`costchart.lower_envelope` reports it); at ``pc = 1`` it is the last
  vertex with an interval of some width. Selection tables, the bands of a selection, the
  iso-performance lines drawn and the explorer's readout all use this one rule.

The rule is written once, as data (:data:`RULE`), and rendered both as a numpy test
(:func:`vertex_mask`) and as the Vega expression the explorer evaluates in the browser
(:func:`vertex_expression`); :func:`vertex_index` is its fast form for intervals that
tile [0, 1] in order.
"""

from __future__ import annotations

import operator

import numpy as np

from costchart._io import schema as col

__all__ = ["RULE", "optimal_vertices", "vertex_expression", "vertex_index", "vertex_mask"]

#: The rule, as alternatives (any holds) of clauses (all hold), each clause
#: ``(left, operator, right)`` over the vertex's ``pc_lo``/``pc_hi``, the asked ``pc`` and
#: numbers: its half-open interval holds ``pc``, or ``pc`` is 1 and the interval has width
#: and ends at 1.
RULE: tuple[tuple[tuple[object, str, object], ...], ...] = (
    ((col.PC_LO, "<=", "pc"), ("pc", "<", col.PC_HI)),
    (("pc", ">=", 1), (col.PC_LO, "<", 1), (col.PC_HI, ">=", 1)),
)

_OPERATORS = {"<": operator.lt, "<=": operator.le, ">=": operator.ge, ">": operator.gt}


def vertex_mask(pc_lo: np.ndarray, pc_hi: np.ndarray, pc: np.ndarray) -> np.ndarray:
    """Rows: vertices; columns: ``pc`` values; True where :data:`RULE` uses the vertex.

    Examples
    --------
    >>> vertex_mask(np.array([0.0, 0.4]), np.array([0.4, 1.0]), np.array([0.4, 1.0]))
    array([[False, False],
           [ True,  True]])
    """
    values: dict[object, object] = {
        col.PC_LO: np.asarray(pc_lo, dtype=np.float64)[:, None],
        col.PC_HI: np.asarray(pc_hi, dtype=np.float64)[:, None],
        "pc": np.asarray(pc, dtype=np.float64)[None, :],
    }
    mask = np.zeros((len(pc_lo), np.size(pc)), dtype=bool)
    for clauses in RULE:
        holds = np.ones_like(mask)
        for left, op, right in clauses:
            holds &= _OPERATORS[op](values.get(left, left), values.get(right, right))  # type: ignore[arg-type]
        mask |= holds
    return mask


def vertex_expression(pc: str) -> str:
    """:data:`RULE` as a Vega expression over ``datum``, with ``pc`` a signal's name.

    Examples
    --------
    >>> vertex_expression("p")
    '(datum.pc_lo <= p && p < datum.pc_hi) || (p >= 1 && datum.pc_lo < 1 && datum.pc_hi >= 1)'
    """

    def term(value: object) -> str:
        if value == "pc":
            return pc
        if value in (col.PC_LO, col.PC_HI):
            return f"datum.{value}"
        return repr(value)

    return " || ".join(
        "(" + " && ".join(f"{term(a)} {op} {term(b)}" for a, op, b in clauses) + ")"
        for clauses in RULE
    )


def vertex_index(starts: np.ndarray, pc: np.ndarray) -> np.ndarray:
    """Per ``pc``, the position in ``starts`` of the interval :data:`RULE` uses.

    ``starts`` are the ``pc_lo`` of intervals that tile [0, 1] in order (each starting
    where the previous ends, the last ending at 1). The interval holding ``pc`` is the
    last one starting at or before it, which gives the tie at a shared end to the right;
    at ``pc = 1`` the last interval of some width is used (a zero-width last interval
    ``[1, 1]`` is passed over). Equal to :func:`vertex_mask` on such intervals.

    Examples
    --------
    >>> vertex_index(np.array([0.0, 0.4, 1.0]), np.array([0.0, 0.4, 0.9, 1.0]))
    array([0, 1, 1, 1])
    """
    starts = np.asarray(starts, dtype=np.float64)
    pc = np.asarray(pc, dtype=np.float64)
    index = np.searchsorted(starts, pc, side="right") - 1
    # At pc = 1 a trailing zero-width interval [1, 1] does not count: step back to the
    # last interval starting below 1.
    below_one = int(np.searchsorted(starts, 1.0, side="left")) - 1
    index = np.where((pc >= 1) & (starts[np.clip(index, 0, None)] >= 1), below_one, index)
    return np.clip(index, 0, len(starts) - 1)


def optimal_vertices(pc_lo: np.ndarray, pc_hi: np.ndarray, pc: float) -> np.ndarray:
    """Vertices optimal at ``pc``: closed intervals holding it (two at a shared end).

    A vertex optimal at a single point (``pc_lo == pc_hi``) counts only at that point.

    Examples
    --------
    >>> optimal_vertices(np.array([0.0, 0.4]), np.array([0.4, 1.0]), 0.4)
    array([ True,  True])
    """
    lo, hi = np.asarray(pc_lo), np.asarray(pc_hi)
    return (lo <= pc) & (hi >= pc) & ~((lo == hi) & (lo != pc))
