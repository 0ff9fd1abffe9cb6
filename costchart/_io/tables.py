"""Reading costchart's own tables back in: which kind a table is, checked, and its groups.

Points tables (``fpr, tpr``), cost-line tables (``line, pc, cost``) and cost curves
(``pc, cost``, e.g. an envelope) are accepted wherever the dual view is meant, so every
function that needs ROC points can take either of the first two.

Every function that reads a costchart table goes through :func:`read_table` (pandas,
polars or pyarrow frames and dicts of arrays in, a pandas frame with unique column names
out) and one of :func:`points_groups`, :func:`curve_groups` or :func:`read_selection`,
which check the values the table must hold. An empty table has no groups, so the caller
returns an empty table with its documented columns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.curves import check_cost_curves, check_curves
from costchart._io.errors import CostchartError, show
from costchart._io.frames import (
    as_pandas,
    check_by_names,
    check_unique_columns,
    describe_group,
    infer_by,
)
from costchart._io.groups import Group, Groups, split_groups
from costchart._io.kinds import KIND, SETS, kind_of, recorded_grouping
from costchart._io.owners import curves_of, owner_columns
from costchart._io.table_values import (
    _refuse,
    check_curve,
    check_rates,
    check_unit,
    numbers,
    threshold_values,
)

__all__ = [
    "check_curve",
    "check_rates",
    "check_unit",
    "curve_groups",
    "curve_vertices",
    "numbers",
    "points_columns",
    "points_groups",
    "points_owned",
    "read_selection",
    "read_table",
    "table_kind",
]

#: Selection intervals whose ends differ by less than this still meet (hand-written
#: tables may carry rounding such as 0.1 + 0.2).
TILE_TOLERANCE = 1e-9
#: A cost line's ends, ``fpr + pc (1 - tpr - fpr)`` at pc 0 and 1, round to its rates
#: within this.
LINE_END_TOLERANCE = 1e-9


def read_table(table, name: str) -> pd.DataFrame:
    """Return a costchart table as a pandas frame, refusing duplicated column names.

    ``table`` may be a pandas, polars (eager) or pyarrow table or a dict of 1-D arrays.
    A pandas frame is returned as is (never modified); others are converted.
    """
    if isinstance(table, pd.DataFrame):
        check_unique_columns(table.columns, name)
        return table
    if isinstance(table, Mapping):
        return as_pandas(table, list(table.keys()), name=name)
    names = getattr(table, "column_names", None)  # pyarrow: .columns holds the arrays
    if not isinstance(names, list) and hasattr(table, "collect_schema"):
        names = table.collect_schema().names()  # a lazy frame: .columns would warn
    if not isinstance(names, list):
        names = getattr(table, "columns", None)
    try:
        columns = list(names)  # type: ignore[arg-type]
    except TypeError:
        columns = []  # not a table: as_pandas says what is accepted
    check_unique_columns(columns, name)
    return as_pandas(table, columns, name=name)


def table_kind(table: pd.DataFrame, name: str = "the table") -> str:
    """``"lines"``, ``"curve"`` or ``"points"``: the kind recorded (see :func:`kind_of`)."""
    return kind_of(table, name)


def _groups_of(table: pd.DataFrame, by: list[str], name: str) -> Groups:
    missing = [c for c in by if c not in table.columns]
    if missing:
        msg = f"by column {missing[0]!r} is not in {name}; available: {list(table.columns)}"
        raise CostchartError(msg)
    check_by_names(by)  # a costchart column as grouping column would be written twice
    return split_groups(table, by)  # no rows, no groups: the caller returns its empty table


def _lines_to_points(lines: pd.DataFrame, by: list[str], owners: Sequence = ()) -> pd.DataFrame:
    """One ROC point per cost line: ``fpr`` = cost at pc 0, ``tpr`` = 1 - cost at pc 1.

    ``owners`` (:func:`~costchart._io.owners.owner_columns`) are kept after ``by``: with
    ``by``, they tell the lines apart (line numbers restart in every curve).
    """
    keys = [*by, *owners, col.LINE]
    at_zero = lines[lines[col.PC] == 0]
    at_one = lines[lines[col.PC] == 1]
    if len(at_zero) + len(at_one) != len(lines) or len(at_zero) != len(at_one):
        msg = (
            "a cost-lines table needs exactly two rows per line, at pc=0 and pc=1 "
            "(as to_cost_lines makes them)"
        )
        raise CostchartError(msg)
    # Line numbers are whole numbers: anything else (text, lists) cannot pair the ends.
    line_numbers = pd.to_numeric(lines[col.LINE], errors="coerce")
    if line_numbers.isna().any() or (line_numbers % 1 != 0).any():
        bad = lines[col.LINE][line_numbers.isna() | (line_numbers % 1 != 0)].iloc[0]
        msg = (
            f"column 'line' of the cost lines holds {bad!r}; it must number the lines with "
            "whole numbers (as to_cost_lines makes it)"
        )
        raise CostchartError(msg)
    ends = at_one[[*keys, col.COST]].rename(columns={col.COST: "_cost_at_one"})
    try:
        merged = at_zero.merge(ends, on=keys, how="left", validate="one_to_one")
    except pd.errors.MergeError:
        msg = (
            "a cost-lines table needs one row at pc=0 and one at pc=1 for each line "
            f"(and group); some line of it has several (keys: {keys})"
        )
        raise CostchartError(msg) from None
    points = merged[[*by, *owners]].copy()
    # Thresholds as a points table holds them: float64, or exact whole numbers past 2**53.
    threshold = merged[col.THRESHOLD] if col.THRESHOLD in merged else np.nan
    if isinstance(threshold, pd.Series) and threshold.dtype != object:
        threshold = threshold_values(merged, "the cost lines")
    points[col.THRESHOLD] = threshold
    # The rates themselves, where the table carries them, avoid a rounding round-trip.
    if {col.FPR, col.TPR} <= set(merged.columns):
        fpr = numbers(merged, col.FPR, "the cost lines")
        tpr = numbers(merged, col.TPR, "the cost lines")
        _check_ends(merged, fpr, tpr)
    else:
        fpr = numbers(merged, col.COST, "the cost lines")
        tpr = 1.0 - numbers(merged, "_cost_at_one", "the cost lines")
    points[col.TPR], points[col.FPR] = tpr, fpr  # in roc_points' column order
    return points


def _check_ends(lines: pd.DataFrame, fpr: np.ndarray, tpr: np.ndarray) -> None:
    """Refuse cost lines whose ends are not their rates: ``fpr`` at pc 0, ``1 - tpr`` at 1.

    The rates are read instead of the costs, so a cost edited by hand would be ignored.
    """
    at_zero = numbers(lines, col.COST, "the cost lines")
    at_one = numbers(lines, "_cost_at_one", "the cost lines")
    off = (np.abs(at_zero - fpr) > LINE_END_TOLERANCE) | (
        np.abs(at_one - (1 - tpr)) > LINE_END_TOLERANCE
    )
    if off.any():
        k = int(np.flatnonzero(off)[0])
        msg = (
            f"the cost lines' costs disagree with their 'fpr' and 'tpr' columns: line "
            f"{show(lines[col.LINE].iat[k])} costs {float(at_zero[k])!r} at pc=0 and "
            f"{float(at_one[k])!r} at pc=1, but its fpr is {float(fpr[k])!r} and 1 - tpr "
            f"{float(1 - tpr[k])!r}; a cost line runs from its fpr to 1 - tpr: drop the "
            "'fpr' and 'tpr' columns to read the lines from their costs, or edit the rates"
        )
        raise CostchartError(msg)


def points_groups(
    table,
    by: str | Sequence[str] | None,
    *,
    name: str = "points",
    declared=None,
    cloud: bool = False,
) -> tuple[pd.DataFrame, list[str], Groups]:
    """ROC points of a points or cost-lines table, its grouping columns and its groups.

    Rates must lie in [0, 1] (NaN refused) and counts, if present, be finite and
    non-negative; every group must be one curve (see :func:`points_columns`). An empty
    table has no groups.
    """
    table, by, groups, _ = points_columns(table, by, name=name, declared=declared, cloud=cloud)
    return table, by, groups


def points_columns(
    table,
    by: str | Sequence[str] | None,
    *,
    name: str = "points",
    declared=None,
    cloud: bool = False,
) -> tuple[pd.DataFrame, list[str], Groups, dict[str, np.ndarray]]:
    """:func:`points_groups`, with the columns it checked as numpy arrays (see :func:`check_rates`).

    For callers that compute on the points: each column is read from the table once.
    Every group must be one ROC curve (:func:`costchart._io.curves.check_curves`). A set
    operation (``cloud=True``: a hull, an envelope, cost lines) also takes points
    without thresholds in any order, and, given ``by=`` explicitly, pools the curves its
    groups hold (the hull of several classifiers), each checked on its own.
    """
    table, by, groups, arrays, _ = points_owned(
        table, by, name=name, declared=declared, cloud=cloud
    )
    return table, by, groups, arrays


def points_owned(
    table,
    by: str | Sequence[str] | None,
    *,
    name: str = "points",
    declared=None,
    cloud: bool = False,
) -> tuple[pd.DataFrame, list[str], Groups, dict[str, np.ndarray], list]:
    """:func:`points_columns`, and the owner columns of a set operation (``_io/owners.py``)."""
    table = read_table(table, name)
    kind = table_kind(table, name)
    recorded = recorded_grouping(table)
    pooled = cloud and by is not None  # by= said explicitly: a set operation may pool curves
    by = infer_by(table, by, name=name, declared=declared)
    owners = owner_columns(table, by, pooled) if cloud else []
    if kind == "lines":
        _groups_of(table, by, name)  # names a missing by column before the conversion
        check_unit(table, (col.PC,), name, "operating points")
        check_unit(table, (col.COST,), name, "costs (a cost line's ends are rates)")
        table = _lines_to_points(table, by, owners)
    elif kind != "points":
        msg = (
            f"{name} must be a ROC points table ('fpr', 'tpr') or a cost-lines table "
            "('line', 'pc', 'cost'), not a cost curve"
        )
        raise CostchartError(msg)
    groups = _groups_of(table, by, name)
    arrays = check_rates(table, name)
    chosen = table.attrs.get(KIND) in SETS and cloud  # chosen points: a set, not curves
    if kind == "points" and not chosen:  # cost lines were checked as lines
        if pooled:
            check_curves(table, curves_of(table, by, recorded), arrays, name=name, cloud=cloud)
        else:
            check_curves(table, by, arrays, name=name, cloud=cloud, groups=groups)
    return table, by, groups, arrays, owners


def curve_groups(
    table, by: str | Sequence[str] | None, *, name: str = "curve", declared=None
) -> tuple[pd.DataFrame, list[str], Groups]:
    """A cost curve table (``pc``, ``cost``), its grouping columns and its groups.

    ``pc`` must lie in [0, 1] and ``cost`` be finite and non-negative (NaN refused). An
    empty table has no groups.
    """
    table = read_table(table, name)
    if table_kind(table) != "curve":
        msg = f"{name} must be a cost curve with 'pc' and 'cost' columns"
        raise CostchartError(msg)
    by = infer_by(table, by, name=name, declared=declared)
    groups = _groups_of(table, by, name)
    pc, cost = check_curve(table, name)
    check_cost_curves(table, by, groups, pc, cost, name=name, kind=table.attrs.get(KIND))
    return table, by, groups


def curve_vertices(
    table: pd.DataFrame, positions: np.ndarray, name: str = "curve", *, where: str = ""
) -> tuple[np.ndarray, np.ndarray]:
    """One group's ``pc`` and ``cost``, sorted by ``pc``, which must span [0, 1].

    For functions that interpolate or integrate a curve over all of [0, 1]; ``where``
    names the group in the message (e.g. from :func:`describe_group`).
    """
    pc = table[col.PC].to_numpy(np.float64)[positions]
    cost = table[col.COST].to_numpy(np.float64)[positions]
    order = np.argsort(pc, kind="stable")
    unsorted = bool(np.any(np.diff(pc) < 0))
    pc, cost = pc[order], cost[order]
    jump = (np.diff(pc) == 0) & (np.diff(cost) != 0)
    if unsorted and jump.any():
        msg = (
            f"{name} jumps at pc={float(pc[np.flatnonzero(jump)[0]])!r}, but its rows are not "
            "in pc order, so which cost comes first is unknown; sort it by pc (e.g. "
            "curve.sort_values('pc', kind='stable')) with the jump's costs in order"
        )
        raise CostchartError(msg)
    if len(pc) and abs(pc[0]) <= TILE_TOLERANCE and abs(pc[-1] - 1) <= TILE_TOLERANCE:
        pc = pc.copy()
        pc[0], pc[-1] = 0.0, 1.0  # ends rounded (float32, CSV) are still the ends
    if len(pc) == 0 or pc[0] != 0 or pc[-1] != 1:
        group = f", group {where}" if where else ""
        msg = (
            "a cost curve must span pc from 0 to 1, but one runs from "
            f"{pc[0] if len(pc) else 'nothing'} to {pc[-1] if len(pc) else 'nothing'} "
            f"({name}{group}); pass a table from lower_envelope"
        )
        raise CostchartError(msg)
    return pc, cost


def read_selection(
    selection, by: str | Sequence[str] | None, *, name: str = "selection"
) -> tuple[pd.DataFrame, list[str], list[Group]]:
    """Read and check a table of thresholds per ``pc`` interval (from ``selection_table``).

    Parameters
    ----------
    selection : pandas, polars or pyarrow table, or dict of arrays
        Columns ``pc_lo``, ``pc_hi``, ``threshold`` and the grouping columns.
    by : str, list of str or None
        Grouping columns; ``None`` takes every column of ``selection`` that is not a
        costchart column (so a selection made per classifier is applied per classifier).
    name : str
        How messages call the table.

    Returns
    -------
    table : pandas.DataFrame
        The selection as a pandas frame (the caller's object is not modified).
    by : list of str
        The grouping columns.
    groups : list of Group
        One per group, in order of first appearance; each group's ``positions`` are
        sorted by ``pc_lo``.

    Raises
    ------
    CostchartError
        If the table is not a table, is empty, lacks a column, has ``pc`` values outside
        [0, 1] or NaN, NaN thresholds (``+inf``/``-inf`` are fine: always negative /
        always positive), or a group whose intervals do not tile [0, 1] (a gap, an
        overlap, or not starting at 0 and ending at 1).
    """
    table = read_table(selection, name)
    needed = [col.PC_LO, col.PC_HI, col.THRESHOLD]
    by = infer_by(table, by, name=name)
    check_by_names(by)
    missing = [c for c in [*needed, *by] if c not in table.columns]
    if missing:
        listed = ", ".join(repr(c) for c in table.columns)
        msg = (
            f"{name} has no column {missing[0]!r}; pass a table from selection_table "
            f"(available columns: {listed})"
        )
        raise CostchartError(msg)
    if len(table) == 0:
        msg = f"{name} is empty; pass a table from selection_table"
        raise CostchartError(msg)
    check_unit(table, (col.PC_LO, col.PC_HI), name, "operating points")
    threshold = numbers(table, col.THRESHOLD, name)
    _refuse(threshold, np.isnan(threshold), col.THRESHOLD, name, "thresholds (not NaN)")
    lo, hi = numbers(table, col.PC_LO, name), numbers(table, col.PC_HI, name)
    sorted_groups = []
    for group in split_groups(table, by):
        positions = group.positions[np.lexsort((hi[group.positions], lo[group.positions]))]
        _check_tiling(
            lo[positions], hi[positions], name, describe_group(by, group.key) if by else ""
        )
        sorted_groups.append(Group(group.key, positions))
    return table, by, sorted_groups


def _check_tiling(lo: np.ndarray, hi: np.ndarray, name: str, where: str) -> None:
    """Intervals sorted by ``lo`` must run from 0 to 1, each starting where the last ends."""
    group = f" (group {where})" if where else ""
    fix = "pass a table from selection_table, one set of intervals per group"
    backwards = hi < lo
    if backwards.any():
        k = int(np.flatnonzero(backwards)[0])
        msg = f"{name}{group} has an interval with pc_lo={lo[k]} > pc_hi={hi[k]}; {fix}"
        raise CostchartError(msg)
    if lo[0] > TILE_TOLERANCE or hi[-1] < 1 - TILE_TOLERANCE:
        msg = (
            f"{name}{group} covers pc from {lo[0]} to {hi[-1]}, but its intervals must "
            f"tile [0, 1]; {fix}"
        )
        raise CostchartError(msg)
    step = lo[1:] - hi[:-1]
    bad = np.abs(step) > TILE_TOLERANCE
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        kind = "a gap" if step[k] > 0 else "an overlap"
        msg = (
            f"{name}{group} has {kind} between pc={hi[k]} and pc={lo[k + 1]}; its intervals "
            f"must tile [0, 1]; {fix}"
        )
        raise CostchartError(msg)
