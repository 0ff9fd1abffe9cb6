"""Comparing two cost curves: where and by how much one classifier beats the other."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from costchart._cost.expected import _lines, _vertices, expected_cost, segment_integrator
from costchart._io import schema as col
from costchart._io.curves import first_jump
from costchart._io.errors import CostchartError
from costchart._io.parameters import checked
from costchart._io.tables import curve_groups, read_table

__all__ = ["Comparison", "compare"]

#: Differences smaller than this count as ties.
TIE = 1e-12


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare`.

    Attributes
    ----------
    difference : pandas.DataFrame
        ``pc``, ``cost_a``, ``cost_b``, ``difference`` (``cost_a - cost_b``: negative where
        ``a`` is cheaper) at every vertex of either curve and at every crossover, sorted
        by ``pc``. Linear in between.
    crossovers : numpy.ndarray
        The ``pc`` values where the better classifier changes.
    better : pandas.DataFrame
        ``pc_lo``, ``pc_hi``, ``better`` (the name of the cheaper curve, or ``"tie"``):
        intervals that tile [0, 1].
    advantage : pandas.DataFrame
        One row per curve: ``name``, ``max_advantage`` (the largest amount by which it is
        cheaper than the other, 0 if never) and ``pc`` (where; the first such ``pc``).
    expected_difference : float
        Expected cost of ``a`` minus that of ``b`` over the density (uniform by default):
        the expected advantage of ``b`` when positive.
    names : tuple of str
        The names of the two curves.
    """

    difference: pd.DataFrame
    crossovers: np.ndarray
    better: pd.DataFrame
    advantage: pd.DataFrame
    expected_difference: float
    names: tuple[str, str]


def _single_curve(curve, name: str):
    """One cost curve's vertices: a curve table of one group, or a single line."""
    table = read_table(curve, name)
    # One curve is asked for: every column costchart did not write may tell curves apart.
    own = [c for c in table.columns if c not in col.RESERVED]
    lines = _lines(table, own, name)
    if lines is not None:
        if len(lines) == 0:
            msg = f"{name} is empty; compare takes one cost curve (or one cost line) each"
            raise CostchartError(msg)
        if len(lines) != 1:
            msg = (
                f"{name} holds {len(lines)} ROC points or cost lines; compare takes one "
                f"cost curve each: pass lower_envelope({name}) to compare the best of them, "
                "or select one line"
            )
            raise CostchartError(msg)
        fpr, tpr = float(lines[col.FPR].iat[0]), float(lines[col.TPR].iat[0])
        return lines, (np.array([0.0, 1.0]), np.array([fpr, 1.0 - tpr]))
    table, by, groups = curve_groups(table, own, name=name)
    if not groups:
        msg = f"{name} is empty; compare takes one cost curve (or one cost line) each"
        raise CostchartError(msg)
    if len(groups) != 1:
        msg = (
            f"{name} holds {len(groups)} curves (grouped by {by}); compare takes one curve "
            "each: select one group first"
        )
        raise CostchartError(msg)
    pc, cost = _vertices(table, by, groups[0], name)
    row = first_jump(np.zeros(len(pc), dtype=np.int64), pc, cost)
    if row is not None:
        msg = (
            f"{name} jumps at pc={float(pc[row])!r} (two costs there), as honest hybrids "
            "(apply_selection) and Brier curves do; compare reads curves with one cost at "
            "each pc: compare their expected costs (expected_cost) instead"
        )
        raise CostchartError(msg)
    return table, (pc, cost)


def check_names(names) -> tuple[str, str]:
    """Two distinct strings, one per curve."""
    if (
        isinstance(names, str)
        or not isinstance(names, (tuple, list))
        or len(names) != 2
        or not all(isinstance(n, str) for n in names)
    ):
        msg = f"names={names!r} must be two strings, one per curve, e.g. ('model', 'baseline')"
        raise CostchartError(msg)
    if names[0] == names[1] or "tie" in names:
        msg = (
            f"names={tuple(names)!r} must be two distinct names other than 'tie' (which "
            "marks intervals where neither curve is better)"
        )
        raise CostchartError(msg)
    return names[0], names[1]


@checked
def compare(a, b, *, density=None, names: tuple[str, str] | None = None) -> Comparison:
    """Compare two cost curves: difference, crossovers, where each is better, by how much.

    Parameters
    ----------
    a, b : pandas, polars or pyarrow table, or dict of arrays
        One cost curve each (``pc``, ``cost``, e.g. from :func:`lower_envelope` or
        :func:`vertical_average`), or a single ROC point or cost line each. A table of
        several points is refused: pass its :func:`lower_envelope` to compare the best
        of them.
    density : scipy.stats frozen distribution or callable, optional
        Density of ``pc`` for the expected difference (see :func:`expected_cost`).
    names : tuple of str
        Names of ``a`` and ``b`` in the result: two distinct strings, neither ``"tie"``.

    Returns
    -------
    Comparison

    Examples
    --------
    >>> import pandas as pd, costchart as cc
    >>> a = cc.lower_envelope(pd.DataFrame({"fpr": [0.1], "tpr": [0.5]}))
    >>> b = cc.lower_envelope(pd.DataFrame({"fpr": [0.4], "tpr": [0.9]}))
    >>> result = cc.compare(a, b)
    >>> result.crossovers.round(4)
    array([0.4286])
    >>> result.better
          pc_lo     pc_hi better
    0  0.000000  0.166667    tie
    1  0.166667  0.428571      a
    2  0.428571  0.857143      b
    3  0.857143  1.000000    tie
    """
    names = check_names(("a", "b") if names is None else names)
    segment_integrator(density)  # refuse a bad density before any work
    _, (pc_a, cost_a) = _single_curve(a, "a")
    _, (pc_b, cost_b) = _single_curve(b, "b")
    grid = np.union1d(pc_a, pc_b)
    values_a = np.interp(grid, pc_a, cost_a)
    values_b = np.interp(grid, pc_b, cost_b)
    grid, values_a, values_b = _with_crossings(grid, values_a, values_b)
    difference = values_a - values_b
    table = pd.DataFrame(
        {col.PC: grid, col.COST_A: values_a, col.COST_B: values_b, col.DIFFERENCE: difference}
    )
    better = _better(grid, difference, names)
    crossovers = _crossovers(better)
    advantage = pd.DataFrame(
        {
            col.NAME: list(names),
            col.MAX_ADVANTAGE: [
                max(float(np.max(-difference)), 0.0),
                max(float(np.max(difference)), 0.0),
            ],
            col.PC: [float(grid[np.argmax(-difference)]), float(grid[np.argmax(difference)])],
        }
    )
    expected = (
        expected_cost(_curve_frame(pc_a, cost_a), density=density)[col.EXPECTED_COST].iat[0]
        - expected_cost(_curve_frame(pc_b, cost_b), density=density)[col.EXPECTED_COST].iat[0]
    )
    return Comparison(table, crossovers, better, advantage, float(expected), (names[0], names[1]))


def _curve_frame(pc, cost) -> pd.DataFrame:
    return pd.DataFrame({col.PC: pc, col.COST: cost})


def _with_crossings(grid, a, b):
    """Insert the points where ``a - b`` changes sign strictly inside a segment."""
    d = a - b
    sign = np.sign(np.where(np.abs(d) <= TIE, 0.0, d))
    crossing = np.flatnonzero(sign[:-1] * sign[1:] < 0)
    if len(crossing) == 0:
        return grid, a, b
    x0, x1 = grid[crossing], grid[crossing + 1]
    t = d[crossing] / (d[crossing] - d[crossing + 1])
    new_x = x0 + t * (x1 - x0)
    new_a = a[crossing] + t * (a[crossing + 1] - a[crossing])
    new_b = b[crossing] + t * (b[crossing + 1] - b[crossing])
    order = np.argsort(np.concatenate([grid, new_x]), kind="stable")
    return (
        np.concatenate([grid, new_x])[order],
        np.concatenate([a, new_a])[order],
        np.concatenate([b, new_b])[order],
    )


def _better(grid, difference, names) -> pd.DataFrame:
    """Intervals labelled by the cheaper curve (judged at each segment's midpoint)."""
    middle = (difference[:-1] + difference[1:]) / 2
    label = np.where(middle < -TIE, names[0], np.where(middle > TIE, names[1], "tie"))
    keep = np.diff(grid) > 0
    lo, hi, label = grid[:-1][keep], grid[1:][keep], label[keep]
    starts = np.flatnonzero(np.append(True, label[1:] != label[:-1]))
    ends = np.append(starts[1:], len(label)) - 1
    return pd.DataFrame({col.PC_LO: lo[starts], col.PC_HI: hi[ends], col.BETTER: label[starts]})


def _crossovers(better: pd.DataFrame) -> np.ndarray:
    """The ``pc`` where one curve takes over from the other (ties in between are skipped)."""
    decided = better[better[col.BETTER] != "tie"]
    change = decided[col.BETTER].to_numpy()[1:] != decided[col.BETTER].to_numpy()[:-1]
    left_end = decided[col.PC_HI].to_numpy()[:-1][change]
    right_start = decided[col.PC_LO].to_numpy()[1:][change]
    return np.where(left_end == right_start, left_end, (left_end + right_start) / 2)
