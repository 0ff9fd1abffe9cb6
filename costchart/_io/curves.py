"""One curve per group: the check made before any statistic is read off a curve.

A ROC curve has one row per threshold, and its rates never fall as the threshold falls.
Two runs concatenated (both start at threshold ``+inf``), rows of several classifiers
read as one group, or a cloud of points in no order break that; read as one curve they
give a wrong area, envelope or band without a word. :func:`check_curves` refuses them,
naming the column that splits the table into curves where it has one.

Points without thresholds (made by hand, or the vertices of an envelope of hulls) are a
curve when, in ``fpr`` order, ``tpr`` never falls. Set operations (the hull and the
lower envelope of several classifiers' points, their cost lines) read a set, not a
path: they take points in any order, as long as no threshold labels two of them.

A cost curve (``pc``, ``cost``) has one cost at each ``pc``, or two where it jumps (a
Brier curve does), and it starts and ends once. :func:`check_cost_curves` refuses a group
with two rows at ``pc`` 0 or at 1 (two envelopes concatenated both hold ``pc`` 0 and 1;
so do two lines), three or more costs at a ``pc``, or, for a band (one row per ``pc``),
two.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from costchart._io.errors import CostchartError, listed
from costchart._io.frames import describe_group, is_row_index, own_columns
from costchart._io.groups import Groups, split_groups

__all__ = [
    "COST_TOLERANCE",
    "ONE_COST_PER_PC",
    "check_cost_curves",
    "check_curves",
    "first_jump",
]

#: Rates written by hand may carry rounding (0.1 + 0.2); a fall smaller than this is none.
RATE_TOLERANCE = 1e-12
#: Two costs at one ``pc`` closer than this are one point (costs are sums of fractions).
COST_TOLERANCE = 1e-9
#: Recorded kinds of cost curve with one row per ``pc``: two costs at one ``pc`` are two
#: curves. (Envelope columns also hold honest hybrids, which jump: apply_selection.)
ONE_COST_PER_PC = frozenset({"band"})
#: The fix when no column of the table tells its curves apart.
_ADD_A_COLUMN = (
    "add a column that tells them apart and pass it as by= (for two tables: "
    "pd.concat([a, b], keys=['a', 'b'], names=['run']).reset_index('run'), then by='run')"
)


def check_curves(
    table: pd.DataFrame,
    curves: Sequence[str],
    arrays: dict[str, np.ndarray],
    *,
    name: str,
    cloud: bool = False,
    groups: Groups | None = None,
) -> None:
    """Refuse a points table whose curves are not one ROC curve each.

    Parameters
    ----------
    table : pandas.DataFrame
        The points, as read (``fpr``, ``tpr`` and perhaps ``threshold``).
    curves : list of str
        The columns telling its curves apart: the call's ``by``, or for a set operation
        that pools curves (a hull of several classifiers) every column that may.
    arrays : dict
        The checked ``fpr``, ``tpr`` and (if present) ``threshold`` columns.
    name : str
        How messages call the table.
    cloud : bool
        A set operation: points may come in any order (a cloud of classifiers' points),
        as long as no threshold labels two of them.
    groups : Groups, optional
        The groups ``curves`` make, if the caller has them already.
    """
    curves = list(curves)
    if groups is None:
        groups = split_groups(table, curves)
    problem = _first_problem(groups, arrays, cloud=cloud)
    if problem is None:
        return
    group, what = problem
    where = f" (group {describe_group(curves, groups.keys[group])})" if curves else ""
    fix = _fix(table, curves, lambda g: _first_problem(g, arrays, cloud=cloud))
    msg = (
        f"{name} is not one ROC curve per group{where}: {what}, so its rows belong to "
        f"several curves (two runs concatenated, or several classifiers read as one); {fix}"
    )
    raise CostchartError(msg)


def _first_problem(
    groups: Groups, arrays: dict[str, np.ndarray], *, cloud: bool
) -> tuple[int, str] | None:
    """The first group that is not one curve, and what is wrong with it (or None)."""
    ids = groups.row_ids
    fpr = np.asarray(arrays["fpr"], dtype=np.float64)
    tpr = np.asarray(arrays["tpr"], dtype=np.float64)
    raw = arrays.get("threshold")
    raw = np.full(len(fpr), np.nan) if raw is None else np.asarray(raw)
    threshold, known = _threshold_keys(raw)
    found = []
    if known.any():
        # Threshold falling (ties by rates): a curve's rates never fall along this order.
        order = _threshold_order(groups, ids, threshold, known, fpr, tpr)
        same = ids[order][1:] == ids[order][:-1]
        twice = same & (threshold[order][1:] == threshold[order][:-1])
        if twice.any():
            k = int(np.flatnonzero(twice)[0])
            found.append((k, order, f"threshold {_shown(raw[order][k])} has two rows"))
        falls = same & (
            (np.diff(fpr[order]) < -RATE_TOLERANCE) | (np.diff(tpr[order]) < -RATE_TOLERANCE)
        )
        if falls.any() and not cloud:
            k = int(np.flatnonzero(falls)[0])
            found.append((k, order, _falls(order, k, raw, fpr, tpr)))
    if not cloud and (~known).any():
        rows = np.flatnonzero(~known)
        order = rows[np.lexsort((tpr[rows], fpr[rows], ids[rows]))]
        same = ids[order][1:] == ids[order][:-1]
        falls = same & (np.diff(tpr[order]) < -RATE_TOLERANCE)
        if falls.any():
            k = int(np.flatnonzero(falls)[0])
            a, b = order[k], order[k + 1]
            what = (
                f"tpr falls from {float(tpr[a])!r} to {float(tpr[b])!r} as fpr rises from "
                f"{float(fpr[a])!r} to {float(fpr[b])!r}"
            )
            found.append((k, order, what))
    if not found:
        return None
    k, order, what = min(found, key=lambda item: ids[item[1][item[0]]])
    return int(ids[order[k]]), what


def _threshold_keys(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Thresholds as float64 keys that order them exactly, and which are known (not NaN).

    Float thresholds are their own keys. Whole-number scores above 2**53 come as exact
    Python integers (an object column): float64 would make 2**53 and 2**53 + 1 one
    threshold, so their keys are their ranks.
    """
    if raw.dtype.kind == "f":
        return raw.astype(np.float64, copy=False), ~np.isnan(raw)
    known = ~pd.isna(raw)
    keys = np.full(len(raw), np.nan)
    if known.any():
        keys[known] = np.unique(raw[known], return_inverse=True)[1]
    return keys, known


def _threshold_order(groups: Groups, ids, threshold, known, fpr, tpr) -> np.ndarray:
    """The rows with a threshold, group after group, by falling threshold (ties by rates).

    Tables costchart wrote come in that order already (one sorted run per group): checked
    in one pass, with no sort.
    """
    if known.all():
        along = threshold[groups.order]
        same = groups.ids[1:] == groups.ids[:-1]
        # Strictly falling within each group; compared, not subtracted (inf - inf is NaN).
        if not (same & ~(along[1:] < along[:-1])).any():
            return groups.order
    rows = np.flatnonzero(known)
    return rows[np.lexsort((tpr[rows], fpr[rows], -threshold[rows], ids[rows]))]


def _shown(value) -> str:
    """A threshold as users write it: 0.8, inf or an exact whole number."""
    value = value.item() if isinstance(value, np.generic) else value
    return repr(float(value) if isinstance(value, float) else value)


def _falls(order, k, threshold, fpr, tpr) -> str:
    a, b = order[k], order[k + 1]
    return (
        f"as the threshold falls from {_shown(threshold[a])} to {_shown(threshold[b])}, "
        f"the rates fall from ({float(fpr[a])!r}, {float(tpr[a])!r}) to "
        f"({float(fpr[b])!r}, {float(tpr[b])!r})"
    )


def check_cost_curves(
    table: pd.DataFrame,
    curves: Sequence[str],
    groups: Groups,
    pc: np.ndarray,
    cost: np.ndarray,
    *,
    name: str,
    kind: str | None,
    fix_for: Callable[[str], str] | None = None,
) -> None:
    """Refuse a cost-curve table whose groups are not one cost curve each.

    ``curves`` are the columns telling its curves apart and ``groups`` the groups they
    make; ``pc`` and ``cost`` the checked columns; ``kind`` the kind the table records
    (a kind in :data:`ONE_COST_PER_PC` never has two costs at a ``pc``), or ``None``.
    ``fix_for`` words the fix for a column that tells the curves apart (by default: add
    it to ``by=``).
    """
    curves = list(curves)
    one_per_pc = kind in ONE_COST_PER_PC

    def problem(of: Groups) -> tuple[int, str] | None:
        return _first_cost_problem(of.row_ids, pc, cost, one_per_pc=one_per_pc)

    found = problem(groups)
    if found is None:
        return
    group, what = found
    where = f" (group {describe_group(curves, groups.keys[group])})" if curves else ""
    msg = (
        f"{name} is not one cost curve per group{where}: {what}, so its rows belong to "
        "several curves (tables concatenated, a grouping column dropped or left out of by=, "
        "cost lines that lost their 'line' column, or a grid given pc 0 or 1 twice); "
        f"{_fix(table, curves, problem, fix_for)}"
    )
    raise CostchartError(msg)


def _first_cost_problem(
    ids: np.ndarray, pc: np.ndarray, cost: np.ndarray, *, one_per_pc: bool
) -> tuple[int, str] | None:
    """The first group that is not one cost curve, and what is wrong with it (or None)."""
    if not len(pc):
        return None
    order = np.lexsort((cost, pc, ids))
    same = (ids[order][1:] == ids[order][:-1]) & (pc[order][1:] == pc[order][:-1])
    close = same & (np.abs(np.diff(cost[order])) <= COST_TOLERANCE)
    apart = same & ~close
    # A repeated vertex inside is a segment of no width, a jump inside is a curve's own;
    # but a curve starts and ends once, with one cost (two lines concatenated start twice).
    twice = same & ((pc[order][1:] == 0) | (pc[order][1:] == 1))
    # One run per (curve, pc): its number of distinct costs.
    run = np.r_[0, np.cumsum(~same)]
    costs = 1 + np.bincount(run[1:], weights=apart, minlength=run[-1] + 1)
    found = []
    if twice.any():
        k = int(np.flatnonzero(twice)[0])
        end, costs_there = float(pc[order][k]), cost[order][k : k + 2]
        if close[k]:
            point = f"the point (pc={end!r}, cost={float(costs_there[0])!r}) appears twice"
        else:
            point = f"it has two rows at pc={end!r} (costs {listed(costs_there.tolist())})"
        found.append((k, f"{point}, and a curve starts and ends once"))
    too_many = 2 if one_per_pc else 3
    if (costs >= too_many).any():
        k = int(np.flatnonzero(run == np.flatnonzero(costs >= too_many)[0])[0])
        at = f"pc={float(pc[order][k])!r}"
        found.append(
            (k, f"it has two costs at {at}, and a band has one row per pc")
            if one_per_pc
            else (k, f"it has three or more costs at {at} (a curve has one, or two where it jumps)")
        )
    if not found:
        return None
    k, what = min(found, key=lambda item: ids[order[item[0]]])
    return int(ids[order[k]]), what


def first_jump(ids: np.ndarray, pc: np.ndarray, cost: np.ndarray) -> int | None:
    """The first row (in curve, then ``pc`` order) where a curve jumps, or None.

    A jump is two costs at one ``pc`` of one curve (``ids`` numbers each row's curve), as
    honest hybrids and Brier curves have; for readers that take one cost at each ``pc``.
    """
    order = np.lexsort((pc, ids))
    same = (np.diff(ids[order]) == 0) & (np.diff(pc[order]) == 0)
    jump = same & (np.abs(np.diff(cost[order])) > COST_TOLERANCE)
    return int(order[int(np.flatnonzero(jump)[0])]) if jump.any() else None


def _fix(
    table: pd.DataFrame,
    by: list[str],
    problem: Callable[[Groups], object],
    fix_for: Callable[[str], str] | None = None,
) -> str:
    """The fix: the column that, added to ``by``, makes every group one curve, if any."""
    for column in own_columns(table):
        if column in by or is_row_index(table, column):
            continue
        try:
            groups = split_groups(table, [*by, column])
        except (CostchartError, TypeError):
            continue  # unhashable cells cannot group
        if problem(groups) is None:
            if fix_for is not None:
                return fix_for(column)
            return f"its column {column!r} tells them apart: pass by={[*by, column]!r}"
    return _ADD_A_COLUMN
