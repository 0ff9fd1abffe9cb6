"""The lower envelope of cost lines.

Also where the envelope beats the trivial classifiers, and the thresholds it selects.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.exact import exact_column
from costchart._io.frames import carry_grouping, describe_group
from costchart._io.groups import Groups, assemble, combine_groups, grouped_order
from costchart._io.kinds import recorded_owners
from costchart._io.parameters import checked
from costchart._io.table_values import threshold_values
from costchart._io.tables import curve_groups, numbers, points_groups, read_table, table_kind
from costchart._io.validation import one_of
from costchart._roc.hull import Hulls, read_hulls

__all__ = ["envelope_gap", "lower_envelope", "operating_range", "selection_table"]


@checked
def lower_envelope(points_or_lines, *, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """The lower envelope of the cost lines: the least cost reachable at every ``pc``.

    Computed exactly as the dual of the ROC convex hull (hull vertices are envelope
    segments, hull edges are envelope vertices), in linear time after sorting. The trivial
    classifiers are always included, so the envelope never exceeds ``min(pc, 1 - pc)``.

    Parameters
    ----------
    points_or_lines : pandas, polars or pyarrow table, or dict of arrays
        ROC points (e.g. from :func:`roc_points`) or cost lines (from
        :func:`to_cost_lines`). Rates must lie in [0, 1]; an empty table gives an
        empty envelope.
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries (see the glossary).

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then one row per envelope vertex, sorted by ``pc`` from 0
        to 1: ``pc``, ``cost`` (float64), and the classifier active to the right of the
        vertex (at the last vertex, ``pc = 1``, the one active to its left):
        ``threshold``, ``fpr``, ``tpr``. Between vertices the envelope is linear. Where
        ``by=`` pools several curves (``by="dataset"`` of points grouped by data set and
        classifier), the grouping columns merged away follow the grouping columns and name
        that classifier (missing at the trivial ones; see the glossary, "Owners").

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> cc.lower_envelope(points)
        pc  cost  threshold  fpr  tpr
    0  0.0  0.00        4.0  0.0  0.5
    1  0.5  0.25        2.0  0.5  1.0
    2  1.0  0.00        2.0  0.5  1.0
    """
    return envelope_of(points_or_lines, by, name="points")


def envelope_of(points_or_lines, by, *, name: str) -> pd.DataFrame:
    """:func:`lower_envelope`, calling the table ``name`` in messages."""
    _, _, groups, hulls = read_hulls(points_or_lines, by, name=name)
    return envelope_of_hulls(groups, hulls)


def envelope_of_hulls(groups: Groups, hulls: Hulls) -> pd.DataFrame:
    """Envelope vertices of every group's hull, group after group (see :func:`envelope_rows`)."""
    rows, group, pc = envelope_rows(hulls)
    fpr = hulls.columns[col.FPR].astype(np.float64)[rows]
    tpr = hulls.columns[col.TPR].astype(np.float64)[rows]
    lengths = np.bincount(group, minlength=len(hulls.lengths))
    owned = {c: v.iloc[rows].reset_index(drop=True) for c, v in hulls.owners.items()}
    return assemble(
        groups,
        lengths,
        {
            **owned,
            col.PC: pc,
            col.COST: fpr + pc * (1.0 - tpr - fpr),
            # Points may come without thresholds (read_hulls adds NaN ones; a chart's do not).
            col.THRESHOLD: (
                exact_column(hulls.columns[col.THRESHOLD])[rows]  # exact past 2**53
                if col.THRESHOLD in hulls.columns
                else np.full(len(rows), np.nan)
            ),
            col.FPR: fpr,
            col.TPR: tpr,
        },
        owners=list(hulls.owners),
    )


def envelope_rows(hulls: Hulls) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The envelope's vertices of every group: hull rows, group numbers and ``pc``.

    Each hull vertex with a ``pc`` range of positive width starts a segment at ``pc_lo``;
    a last row per group closes the curve at ``pc = 1`` with the last such vertex.
    Between consecutive vertices of a group the envelope is the line of the first.
    """
    frame = hulls.columns
    group = np.repeat(np.arange(len(hulls.lengths)), hulls.lengths)
    active = np.flatnonzero(frame[col.PC_HI] > frame[col.PC_LO])
    active_group = group[active]
    last_of_group = np.append(active_group[1:] != active_group[:-1], len(active) > 0)
    closing = active[last_of_group[: len(active)]]
    rows = np.concatenate([active, closing])
    is_closing = np.concatenate([np.zeros(len(active), bool), np.ones(len(closing), bool)])
    order = np.lexsort((is_closing, group[rows]))
    rows, is_closing = rows[order], is_closing[order]
    pc = np.where(is_closing, 1.0, frame[col.PC_LO].astype(np.float64)[rows])
    return rows, group[rows], pc


@checked
def envelope_gap(points, *, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """How far the lower envelope of binned ROC points can lie above the true envelope.

    Between two consecutive points of a binned curve (``roc_points(..., bins=K)``) the
    true ROC curve is unknown but monotone, so it stays in the rectangle the two points
    span; at best it passes through its upper-left corner (the first point's ``fpr``, the
    second's ``tpr``). The envelope of the points and those corners is therefore a floor
    under the true envelope, and the largest distance from it to the envelope of the
    points bounds the binned envelope's error. The bound holds for any points table; for
    unbinned points (where consecutive points are joined by the true curve) the error is
    0 and the bound is merely loose.

    Parameters
    ----------
    points : pandas, polars or pyarrow table, or dict of arrays
        ROC points, e.g. from ``roc_points(..., bins=K)``.
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries (see the glossary).

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then one row per group: ``max_gap`` (float64, in cost
        units) and ``pc``, where the bound is largest.

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> cc.envelope_gap(points.iloc[[0, 2, 4]])  # keep (0, 0), (0.5, 0.5) and (1, 1)
       max_gap   pc
    0     0.25  0.5
    """
    table, by, groups = points_groups(points, by, cloud=True)
    parts = []
    for group in groups:
        fpr = table[col.FPR].to_numpy(np.float64)[group.positions]
        tpr = table[col.TPR].to_numpy(np.float64)[group.positions]
        order = np.lexsort((tpr, fpr))
        fpr, tpr = fpr[order], tpr[order]
        ceiling = lower_envelope(pd.DataFrame({col.FPR: fpr, col.TPR: tpr}))
        floor = lower_envelope(
            pd.DataFrame(
                {
                    col.FPR: np.concatenate([fpr, fpr[:-1]]),
                    col.TPR: np.concatenate([tpr, tpr[1:]]),
                }
            )
        )
        pc = np.union1d(ceiling[col.PC], floor[col.PC])
        gap = np.interp(pc, ceiling[col.PC], ceiling[col.COST]) - np.interp(
            pc, floor[col.PC], floor[col.COST]
        )
        worst = int(np.argmax(gap))
        parts.append(pd.DataFrame({col.GAP: [max(float(gap[worst]), 0.0)], col.PC: [pc[worst]]}))
    return combine_groups(table, by, groups, parts, [col.GAP, col.PC])


@checked
def selection_table(curve, *, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """Which threshold to use in each ``pc`` interval, as chosen by a lower envelope.

    The table carries a choice made on one data set (e.g. validation data) to another.
    The trivial classifiers get thresholds that keep their meaning on any data:
    ``+inf`` (always negative, the (0, 0) point) and ``-inf`` (always positive, (1, 1)).

    Parameters
    ----------
    curve : pandas, polars or pyarrow table, or dict of arrays
        A lower envelope (from :func:`lower_envelope`), ROC points or cost lines.
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries (see the glossary).

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then one row per interval of positive width, sorted by
        ``pc_lo``: ``pc_lo``, ``pc_hi`` (float64; the intervals tile [0, 1]) and the chosen
        classifier's ``threshold``, ``fpr``, ``tpr``. The owner columns of a pooled
        envelope (see :func:`lower_envelope`) follow the grouping columns.

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> cc.selection_table(points)
       pc_lo  pc_hi  threshold  fpr  tpr
    0    0.0    0.5        4.0  0.0  0.5
    1    0.5    1.0        2.0  0.5  1.0
    """
    table = read_table(curve, "curve")
    if table_kind(table) != "curve":
        table = envelope_of(table, by, name="curve")
        by = None
    table, by, groups = curve_groups(table, by)
    missing = [c for c in col.ENVELOPE_COLUMNS if c not in table.columns]
    if missing:
        msg = f"curve has no column {missing[0]!r}; pass a table from lower_envelope"
        raise CostchartError(msg)
    rows = groups.order
    pc = table[col.PC].to_numpy(np.float64)[rows]
    _check_envelope_orders(pc, groups)
    # Every vertex but each group's last starts an interval.
    starts_interval = np.ones(len(rows), dtype=bool)
    starts_interval[groups.stops - 1] = False
    chosen = rows[starts_interval]
    # numbers() refuses text and booleans with a message naming the column.
    threshold = threshold_values(table, "curve")[chosen].copy()  # exact past 2**53
    fpr = numbers(table, col.FPR, "curve")[chosen]
    tpr = numbers(table, col.TPR, "curve")[chosen]
    threshold[(fpr == 0) & (tpr == 0)] = np.inf
    threshold[(fpr == 1) & (tpr == 1)] = -np.inf
    missing = pd.isna(threshold)
    if missing.any():
        k = int(np.flatnonzero(missing)[0])
        group = int(np.searchsorted(groups.stops - np.arange(1, len(groups) + 1), k, "right"))
        where = f" of group {describe_group(by, groups.keys[group])}" if by else ""
        msg = (
            f"the envelope{where} selects a classifier with no threshold (NaN) at "
            f"pc={float(pc[starts_interval][k])}; a selection needs thresholds: "
            "pass ROC points from roc_points (or an envelope of them)"
        )
        raise CostchartError(msg)
    ends_interval = np.ones(len(rows), dtype=bool)
    ends_interval[groups.starts] = False
    # A curve that jumps (an honest hybrid) has two rows at the pc of each jump: the
    # interval between them has no width, and is left out (the others still tile [0, 1]).
    pc_lo, pc_hi = pc[starts_interval], pc[ends_interval]
    kept = pc_hi > pc_lo
    of_interval = np.repeat(np.arange(len(groups)), groups.sizes - 1)
    owners = [c for c in recorded_owners(table) if c in table.columns and c not in by]
    owned = {c: table[c].iloc[chosen[kept]].reset_index(drop=True) for c in owners}
    return assemble(
        groups,
        np.bincount(of_interval[kept], minlength=len(groups)),
        {
            **owned,
            col.PC_LO: pc_lo[kept],
            col.PC_HI: pc_hi[kept],
            col.THRESHOLD: threshold[kept],
            col.FPR: fpr[kept],
            col.TPR: tpr[kept],
        },
        owners=owners,
    )


def _check_envelope_orders(pc: np.ndarray, groups: Groups) -> None:
    """Each group's vertices run from pc 0 to 1 in increasing order; else name the first."""
    first, last = groups.starts, groups.stops - 1
    bad = (groups.sizes < 2) | (pc[first] != 0) | (pc[last] != 1)
    backwards = np.flatnonzero(np.diff(pc) < 0)
    backwards = backwards[~np.isin(backwards + 1, first)]  # not across a group boundary
    if len(backwards):
        bad[np.searchsorted(first, backwards, "right") - 1] = True
    if bad.any():
        g = int(np.flatnonzero(bad)[0])
        _check_envelope_order(pc[first[g] : last[g] + 1], groups.by, groups.keys[g])


def _check_envelope_order(pc: np.ndarray, by: list[str], key: tuple) -> None:
    """An envelope's vertices run from pc 0 to 1 in increasing order (as lower_envelope's)."""
    if len(pc) < 2 or pc[0] != 0 or pc[-1] != 1 or np.any(np.diff(pc) < 0):
        where = f" of group {describe_group(by, key)}" if by else ""
        msg = (
            f"the curve{where} is not a lower envelope: its pc must increase from 0 to 1 "
            f"(it runs {pc[0] if len(pc) else 'nothing'} ... "
            f"{pc[-1] if len(pc) else 'nothing'}); pass a table from lower_envelope"
        )
        raise CostchartError(msg)


@checked
def operating_range(
    points_or_lines, *, of: str = "lines", by: str | Sequence[str] | None = None
) -> pd.DataFrame:
    """Where a classifier beats both trivial classifiers, as an open ``pc`` interval.

    For a single classifier (``of="lines"``) the interval is
    ``FPR / (FPR + TPR) < pc < TNR / (TNR + FNR)``. For the lower envelope
    (``of="envelope"``) it is where the envelope lies strictly below ``min(pc, 1 - pc)``.

    Parameters
    ----------
    points_or_lines : pandas, polars or pyarrow table, or dict of arrays
        ROC points or cost lines.
    of : {"lines", "envelope"}
        One range per line, or one per group for the group's envelope.
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries (see the glossary).

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then for ``of="lines"`` one row per point in table order:
        ``threshold``, ``fpr``, ``tpr``, ``pc_lo``, ``pc_hi``; for ``of="envelope"`` one
        row per group: ``pc_lo``, ``pc_hi``. A classifier on or below the ROC diagonal
        never beats both trivial ones: its range is NaN, NaN.

    Examples
    --------
    >>> import pandas as pd, costchart as cc
    >>> cc.operating_range(pd.DataFrame({"fpr": [0.09], "tpr": [0.36]}))
       threshold   fpr   tpr  pc_lo     pc_hi
    0        NaN  0.09  0.36    0.2  0.587097
    """
    one_of(of, "of", ("lines", "envelope"))
    if of == "envelope":
        table, by, hull_groups, hulls = read_hulls(points_or_lines, by)
        return envelope_ranges(table, by, hull_groups, hulls)
    table, by, groups = points_groups(points_or_lines, by, cloud=True)
    return line_ranges(table, by, groups)


def envelope_ranges(table: pd.DataFrame, by: list[str], groups: Groups, hulls) -> pd.DataFrame:
    """The envelope's operating range of each group, from hulls already computed.

    Of each group's vertices that beat both trivial classifiers somewhere (``tpr > fpr``
    and a ``pc`` range of positive width), the lowest ``pc_lo`` and the highest ``pc_hi``;
    NaN where there are none. All groups at once, from the hulls' columns.
    """
    lengths = np.asarray(hulls.lengths, dtype=np.int64)
    fpr = np.asarray(hulls.columns[col.FPR], dtype=np.float64)
    tpr = np.asarray(hulls.columns[col.TPR], dtype=np.float64)
    pc_lo = np.asarray(hulls.columns[col.PC_LO], dtype=np.float64)
    pc_hi = np.asarray(hulls.columns[col.PC_HI], dtype=np.float64)
    useful = (tpr > fpr) & (pc_hi > pc_lo)
    owner = np.repeat(np.arange(len(lengths)), lengths)[useful]
    low = np.full(len(lengths), np.inf)
    high = np.full(len(lengths), -np.inf)
    np.minimum.at(low, owner, pc_lo[useful])
    np.maximum.at(high, owner, pc_hi[useful])
    found = np.bincount(owner, minlength=len(lengths)) > 0
    body = pd.DataFrame(
        {col.PC_LO: np.where(found, low, np.nan), col.PC_HI: np.where(found, high, np.nan)}
    )
    if not by:
        return carry_grouping(body, [])
    # One row per group, its key values read at its first row (as combine_groups does).
    keys = table[by].iloc[groups.firsts].reset_index(drop=True)
    return carry_grouping(pd.concat([keys, body], axis=1), by)


def line_ranges(table: pd.DataFrame, by: list[str], groups: Groups) -> pd.DataFrame:
    """Each line's operating range, of a table already read and split."""
    # float64 as every table's thresholds (a polars table may hold whole numbers), or
    # exact Python integers past 2**53.
    threshold = threshold_values(table, "points") if col.THRESHOLD in table else np.nan
    table = table.assign(**{col.THRESHOLD: threshold})
    order = grouped_order(groups)
    fpr = table[col.FPR].to_numpy(np.float64)[order]
    tpr = table[col.TPR].to_numpy(np.float64)[order]
    useful = tpr > fpr
    with np.errstate(divide="ignore", invalid="ignore"):
        low = np.where(useful, fpr / (fpr + tpr), np.nan)
        high = np.where(useful, (1 - fpr) / ((1 - fpr) + (1 - tpr)), np.nan)
    result = table.iloc[order][[*by, col.THRESHOLD, col.FPR, col.TPR]].reset_index(drop=True)
    result[col.PC_LO] = low
    result[col.PC_HI] = high
    return carry_grouping(result, by)
