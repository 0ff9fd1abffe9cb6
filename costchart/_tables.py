"""Reading costchart's own tables back in: which kind a table is, and its ROC points.

Points tables (``fpr, tpr``), cost-line tables (``line, pc, cost``) and cost curves
(``pc, cost``, e.g. an envelope) are accepted wherever the dual view is meant, so every
function that needs ROC points can take either of the first two.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart import _schema as col
from costchart._errors import CostchartError
from costchart._frames import Group, as_pandas, infer_by, split_groups

__all__ = ["curve_groups", "points_groups", "table_kind"]


def _as_table(table, name: str) -> pd.DataFrame:
    if isinstance(table, pd.DataFrame):
        return table
    columns = list(table.keys()) if isinstance(table, dict) else list(table.columns)
    return as_pandas(table, columns, name=name)


def table_kind(table: pd.DataFrame) -> str:
    """``"lines"``, ``"curve"`` or ``"points"``, judged by the columns present."""
    columns = set(table.columns)
    if {col.PC, col.COST, col.LINE} <= columns:
        return "lines"
    if {col.PC, col.COST} <= columns:
        return "curve"
    if {col.FPR, col.TPR} <= columns:
        return "points"
    msg = (
        "the table has none of the column sets costchart reads: 'fpr' and 'tpr' "
        "(ROC points), 'line', 'pc' and 'cost' (cost lines) or 'pc' and 'cost' (a cost "
        f"curve); it has {', '.join(repr(c) for c in table.columns)}"
    )
    raise CostchartError(msg)


def _check_rates(table: pd.DataFrame, name: str) -> None:
    for column in (col.FPR, col.TPR):
        values = table[column].to_numpy(dtype=np.float64, na_value=np.nan)
        bad = ~((values >= 0) & (values <= 1))
        if bad.any():
            position = int(np.flatnonzero(bad)[0])
            msg = (
                f"column {column!r} of {name} must hold rates in [0, 1], but has "
                f"{float(values[position])!r} at position {position}"
            )
            raise CostchartError(msg)


def _lines_to_points(lines: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """One ROC point per cost line: ``fpr`` = cost at pc 0, ``tpr`` = 1 - cost at pc 1."""
    keys = [*by, col.LINE]
    at_zero = lines[lines[col.PC] == 0]
    at_one = lines[lines[col.PC] == 1]
    if len(at_zero) + len(at_one) != len(lines) or len(at_zero) != len(at_one):
        msg = (
            "a cost-lines table needs exactly two rows per line, at pc=0 and pc=1 "
            "(as to_cost_lines makes them)"
        )
        raise CostchartError(msg)
    ends = at_one[[*keys, col.COST]].rename(columns={col.COST: "_cost_at_one"})
    merged = at_zero.merge(ends, on=keys, how="left", validate="one_to_one")
    points = merged[by].copy()
    threshold = merged[col.THRESHOLD] if col.THRESHOLD in merged else np.nan
    points[col.THRESHOLD] = threshold
    # The rates themselves, where the table carries them, avoid a rounding round-trip.
    if {col.FPR, col.TPR} <= set(merged.columns):
        points[col.FPR] = merged[col.FPR].to_numpy(dtype=np.float64)
        points[col.TPR] = merged[col.TPR].to_numpy(dtype=np.float64)
    else:
        points[col.FPR] = merged[col.COST].to_numpy(dtype=np.float64)
        points[col.TPR] = 1.0 - merged["_cost_at_one"].to_numpy(dtype=np.float64)
    return points


def points_groups(
    table, by: str | Sequence[str] | None, *, name: str = "points"
) -> tuple[pd.DataFrame, list[str], list[Group]]:
    """ROC points of a points or cost-lines table, its grouping columns and its groups."""
    table = _as_table(table, name)
    kind = table_kind(table)
    by = infer_by(table, by)
    if kind == "lines":
        table = _lines_to_points(table, by)
    elif kind != "points":
        msg = (
            f"{name} must be a ROC points table ('fpr', 'tpr') or a cost-lines table "
            "('line', 'pc', 'cost'), not a cost curve"
        )
        raise CostchartError(msg)
    missing = [c for c in by if c not in table.columns]
    if missing:
        msg = f"by column {missing[0]!r} is not in {name}; available: {list(table.columns)}"
        raise CostchartError(msg)
    _check_rates(table, name)
    return table, by, split_groups(table, by)


def curve_groups(
    table, by: str | Sequence[str] | None, *, name: str = "curve"
) -> tuple[pd.DataFrame, list[str], list[Group]]:
    """A cost curve table (``pc``, ``cost``), its grouping columns and its groups."""
    table = _as_table(table, name)
    if table_kind(table) != "curve":
        msg = f"{name} must be a cost curve with 'pc' and 'cost' columns"
        raise CostchartError(msg)
    by = infer_by(table, by)
    return table, by, split_groups(table, by)
