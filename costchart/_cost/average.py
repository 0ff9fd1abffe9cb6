"""The vertical average of cost curves: the exact average in cost space.

:func:`vertical_average` averages several cost curves (e.g. cross-validation folds) at
the union of their vertices, which is exact for piecewise-linear curves; this module also
holds the checks of ``over=`` and of the curves' span that the averages share, and the
tolerance (:data:`PC_TOLERANCE`) within which ``pc`` values are one vertex. The ROC-space
averages and the ROC dual of a cost curve live in :mod:`costchart._roc.average`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._cost.envelope import lower_envelope
from costchart._cost.pointwise import SLIVER, pointwise_statistics
from costchart._io import schema as col
from costchart._io.curves import check_cost_curves, first_jump
from costchart._io.errors import CostchartError
from costchart._io.frames import describe_group, infer_by, normalize_by
from costchart._io.groups import assemble, split_groups
from costchart._io.kinds import KIND
from costchart._io.parameters import checked
from costchart._io.tables import check_curve, read_table, table_kind

__all__ = ["vertical_average"]

#: ``pc`` values closer than this are one vertex: the same value computed along different
#: paths differs by a few units in the last place (``pc`` lies in [0, 1]). Keeping both
#: would make a segment a few ulps wide whose slope -- the dual ROC point -- is noise.
PC_TOLERANCE = SLIVER


def over_names(over) -> list[str]:
    """``over=`` as a list of column names, or a clear error (before any table is read)."""
    if over is not None and not isinstance(over, str):
        try:
            over = list(over)
        except TypeError:
            msg = f"over={over!r} must be a column name or a list of column names (strings)"
            raise CostchartError(msg) from None
    return normalize_by(over)


def check_over(table: pd.DataFrame, over, name: str) -> list[str]:
    over = over_names(over)
    if not over:
        msg = "over= must name the column(s) to average across, e.g. over='fold'"
        raise CostchartError(msg)
    own = [c for c in over if c in col.RESERVED or str(c).startswith("costchart_")]
    if own:
        msg = (
            f"over={own[0]!r} names a column costchart writes itself; pass the column(s) that "
            "tell the curves apart, e.g. over='fold'"
        )
        raise CostchartError(msg)
    missing = [c for c in over if c not in table.columns]
    if missing:
        msg = f"over column {missing[0]!r} is not in the table; available: {list(table.columns)}"
        raise CostchartError(msg)
    for column in over:
        absent = table[column].isna().to_numpy()
        if absent.any():
            msg = (
                f"over column {column!r} of {name} has {int(absent.sum())} missing values "
                f"(first at row {int(np.flatnonzero(absent)[0])}); every row must say which "
                "curve it belongs to"
            )
            raise CostchartError(msg)
    if len(table) == 0:
        msg = f"{name} has no rows; pass at least one curve"
        raise CostchartError(msg)
    return over


def _check_spans(pc: np.ndarray, key: str, where: str) -> None:
    """Refuse a curve that does not run from ``pc = 0`` to ``pc = 1``."""
    low, high = float(pc.min()), float(pc.max())
    if low > PC_TOLERANCE or high < 1 - PC_TOLERANCE:
        msg = (
            f"the curve {key}{where} spans pc {low!r} to {high!r}, not [0, 1]: it cannot be "
            "averaged without extrapolating it. Pass whole cost curves (e.g. from "
            "lower_envelope), or ROC points, whose envelopes span [0, 1]"
        )
        raise CostchartError(msg)


@checked
def vertical_average(
    curves, *, over: str | Sequence[str], by: str | Sequence[str] | None = None
) -> pd.DataFrame:
    """The vertical average of cost curves: the mean cost at every ``pc``, exactly.

    Piecewise-linear curves average to a piecewise-linear curve whose vertices are the
    union of theirs, so averaging at those ``pc`` values and joining them with straight
    lines is exact. It is the only average whose cost at every ``pc`` is the average cost
    of the curves (ROC-space averages are not; see :func:`roc_average`).

    Parameters
    ----------
    curves : pandas, polars or pyarrow DataFrame
        Cost curves with ``pc``, ``cost`` (e.g. from :func:`lower_envelope`), each spanning
        ``pc`` from 0 to 1, or ROC points / cost lines, whose lower envelopes are averaged.
    over : str or list of str
        The column(s) whose groups are averaged (e.g. ``"fold"``); not a costchart column,
        and without missing values.
    by : str or list of str, optional
        The other grouping columns, one average per their group; by default the grouping
        the table carries (``over`` needs no declaring).

    Returns
    -------
    pandas.DataFrame
        The kept grouping columns, then one row per vertex, sorted by ``pc``: ``pc``,
        ``cost`` (the mean), ``cost_lo``, ``cost_hi`` (min and max over the curves),
        ``cost_sd`` (standard deviation, ``ddof=1``; NaN for one curve), ``n_curves``.
        The mean is exact everywhere when joined linearly; the spread columns are exact
        at the vertices (between them the min, max and sd of crossing curves may bend).
        Vertices closer than a few units in the last place are merged into one.

    Raises
    ------
    CostchartError
        ``over`` missing, naming a costchart column or holding missing values; a curve
        that does not span ``pc`` from 0 to 1 (it would have to be extrapolated); NaN,
        infinite or negative costs, ``pc`` outside [0, 1]; a table without rows.

    Examples
    --------
    >>> import pandas as pd, costchart as cc
    >>> folds = pd.DataFrame({"fold": [0, 1], "fpr": [0.04, 0.3], "tpr": [0.4, 0.8]})
    >>> average = cc.vertical_average(folds, over="fold")
    >>> cc.curve_points(average).round(4).iloc[2].to_dict()
    {'pc_lo': 0.2727, 'pc_hi': 0.6154, 'fpr': 0.17, 'tpr': 0.6}
    """
    table = read_table(curves, "curves")
    over = check_over(table, over, "curves")
    grouping = infer_by(table, by, name="curves", declared=over)
    by = [c for c in grouping if c not in over]
    given = table_kind(table) == "curve"
    if given:
        pc, cost = check_curve(table, "curves")
    else:  # costchart's own envelopes: one curve per group of by and over
        table = lower_envelope(table, by=[*by, *over])
        pc = table[col.PC].to_numpy(np.float64)
        cost = table[col.COST].to_numpy(np.float64)
    groups = split_groups(table, by)
    members = split_groups(table, [*by, *over])
    if given:  # one curve per group of by and over
        kind = table.attrs.get(KIND)

        def fix_for(column: str) -> str:
            return (
                f"its column {column!r} tells them apart: pass by={[*by, column]!r} for one "
                f"average per {column}, or over={[*over, column]!r} to average them all"
            )

        check_cost_curves(
            table, [*by, *over], members, pc, cost, name="curves", kind=kind, fix_for=fix_for
        )
        _refuse_jumps(table, [*by, *over], members, pc, cost)
    return _vertical_average(table, by, over, groups, members.row_ids, pc, cost)


def _vertical_average(
    table: pd.DataFrame,
    by: list[str],
    over: list[str],
    groups,
    member_of_row: np.ndarray,
    pc: np.ndarray,
    cost: np.ndarray,
) -> pd.DataFrame:
    """Average the curves of every group at once (:mod:`costchart._cost.pointwise`).

    ``member_of_row`` numbers each row's curve (its group of ``by`` and ``over``).
    """
    group_of_row = groups.row_ids
    # Rows curve after curve (groups in order, their curves in order of first
    # appearance), each curve sorted by pc.
    rows = np.lexsort((pc, member_of_row, group_of_row))
    member = member_of_row[rows]
    new_curve = np.r_[True, member[1:] != member[:-1]]
    curve = np.cumsum(new_curve) - 1
    starts = np.flatnonzero(new_curve)
    x, y = pc[rows], cost[rows]
    _check_all_spans(table, by, over, rows[starts], x, starts)
    curve_group = group_of_row[rows[starts]]
    merged = pointwise_statistics(curve, curve_group, x, y, len(groups))
    keep = _grid_points(merged.node, merged.x, merged.vertex)
    node = merged.node[keep]
    count = merged.count[node]
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = np.where(count > 1, np.sqrt(merged.m2[keep] / (count - 1)), np.nan)
    lengths = np.bincount(node, minlength=len(groups))
    return assemble(
        groups,
        lengths,
        {
            col.PC: merged.x[keep],
            col.COST: merged.mean[keep],
            col.COST_LO: merged.lo[keep],
            col.COST_HI: merged.hi[keep],
            col.COST_SD: sd,
            col.N_CURVES: count.astype(np.int64),
        },
    )


def _refuse_jumps(table, curves: list[str], members, pc, cost) -> None:
    """Refuse curves that jump (two costs at one ``pc``): their average is not defined here.

    The average runs through each curve's vertices, one cost per ``pc``; at a jump it
    would keep one side and average the wrong costs beyond it.
    """
    row = first_jump(members.row_ids, pc, cost)
    if row is not None:
        where = describe_group(curves, tuple(table[c].iloc[row] for c in curves))
        msg = (
            f"curve {where} jumps at pc={float(pc[row])!r} (two costs there), as honest "
            "hybrids (apply_selection) and Brier curves do; vertical_average averages curves "
            "with one cost at each pc: average the curves' ROC points (vertical_average of "
            "roc_points) or compare their expected costs instead"
        )
        raise CostchartError(msg)


def _check_all_spans(table, by, over, first_rows, x, starts) -> None:
    """Refuse the first curve (in group order) that does not span pc from 0 to 1."""
    stops = np.r_[starts[1:], len(x)]
    low, high = x[starts], x[stops - 1]
    bad = (low > PC_TOLERANCE) | (high < 1 - PC_TOLERANCE)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        row = first_rows[k]
        key = describe_group(over, tuple(table[c].iloc[row] for c in over))
        where = (
            f" of group {describe_group(by, tuple(table[c].iloc[row] for c in by))}" if by else ""
        )
        _check_spans(x[starts[k] : stops[k]], key, where)


def _grid_points(node: np.ndarray, x: np.ndarray, vertex: np.ndarray) -> np.ndarray:
    """Rows of one vertex per run of ``x`` closer than :data:`PC_TOLERANCE`, per node.

    As :func:`distinct_pc`: the first value of each run, or 1 exactly for a node's last
    run when it holds 1.
    """
    rows = np.flatnonzero(vertex)
    return rows[grouped_representatives(x[rows], node[rows])]


def grouped_representatives(pc: np.ndarray, group: np.ndarray) -> np.ndarray:
    """:func:`cluster_representatives` of every group at once.

    ``pc`` is sorted within each group (``group`` non-decreasing): one position per run of
    values closer than the tolerance, its first, or its last when a group's last run ends
    at exactly 1.
    """
    return grouped_runs(pc, group)[2]


def grouped_runs(pc: np.ndarray, group: np.ndarray) -> tuple[np.ndarray, ...]:
    """The runs of :func:`grouped_representatives`: first and last positions, representatives."""
    if len(pc) == 0:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty, empty
    new_group = np.r_[True, group[1:] != group[:-1]]
    starts = np.flatnonzero(new_group | np.r_[True, np.diff(pc) > PC_TOLERANCE])
    ends = np.r_[starts[1:], len(pc)] - 1
    chosen = starts.copy()
    last_run = np.r_[group[starts][1:] != group[starts][:-1], True]
    holds_one = last_run & (pc[ends] == 1.0)
    chosen[holds_one] = ends[holds_one]
    return starts, ends, chosen


def cluster_representatives(sorted_pc: np.ndarray) -> np.ndarray:
    """Positions of one value per run of sorted ``pc`` values closer than the tolerance.

    Each run is represented by its first value, or by 0 or 1 exactly when the run holds
    them, so a curve that spans [0, 1] keeps spanning it.
    """
    n = len(sorted_pc)
    if n == 0:
        return np.zeros(0, dtype=np.intp)
    starts = np.flatnonzero(np.concatenate([[True], np.diff(sorted_pc) > PC_TOLERANCE]))
    ends = np.append(starts[1:], n) - 1
    chosen = starts.copy()
    last_run_holds_one = sorted_pc[ends[-1]] == 1.0
    if last_run_holds_one:
        chosen[-1] = ends[-1]
    return chosen


def distinct_pc(values: np.ndarray) -> np.ndarray:
    """Sorted distinct ``pc`` values, values within :data:`PC_TOLERANCE` merged."""
    values = np.unique(values)
    return values[cluster_representatives(values)]
