"""Thinning long ROC curves for drawing, without losing the points that matter."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.frames import THINNED, carry_grouping
from costchart._io.groups import Groups, complex_pairs
from costchart._io.parameters import checked
from costchart._io.tables import points_groups
from costchart._io.validation import whole_number
from costchart._roc.hull import all_hulls

__all__ = ["thin_points", "thinned_points"]


#: Points a group keeps at least when ``max_total=`` shares the points among many groups.
MIN_POINTS_PER_GROUP = 10


@checked
def thin_points(
    points,
    *,
    max_points: int = 100,
    max_total: int | None = None,
    by: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    """Keep at most about ``max_points`` ROC points per group, for charts of large data.

    The rule: every vertex of the ROC convex hull is kept (so the hull, the lower envelope
    and every optimal threshold are exact), plus the first and last point and, of the
    others, the point nearest to each of ``max_points`` evenly spaced values of
    ``fpr + tpr`` (which grows from 0 to 2 along the curve, so the kept points are spread
    evenly along it). A group with at most ``max_points`` points is kept whole.

    Parameters
    ----------
    points : pandas, polars or pyarrow table, or dict of arrays
        ROC points, e.g. from :func:`roc_points`.
    max_points : int
        Points kept per group besides the hull vertices; at least 2.
    max_total : int, optional
        Points kept in all groups together besides the hull vertices, shared evenly:
        each group keeps ``min(max_points, max(10, max_total // groups))``. The charts
        pass 3000, so a chart of hundreds of curves stays small. By default each group
        keeps ``max_points``.
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries (see the glossary).

    Returns
    -------
    pandas.DataFrame
        A subset of the rows of ``points`` as a pandas frame with a new index: the
        grouping (non-costchart) columns, then the ROC columns present (in
        :func:`roc_points`' order), then any other costchart columns of ``points``. A
        cost-lines table gives its ROC points. When points were dropped, a last column
        ``thinned`` (bool) is True in each group that lost some: the thresholds between
        the points kept are gone, so the score-driven and fixed losses of
        :func:`expected_loss` refuse such points. The mark is a column, not only
        ``attrs["costchart_thinned"]``, because ``attrs`` do not survive polars, pyarrow
        or a dict of arrays, and the thinned points of a classifier cannot be told from
        the full points of another by their counts: any thinned curve is the full curve
        of coarser scores.

    Examples
    --------
    >>> import numpy as np, costchart as cc
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(10_000) < 0.5
    >>> points = cc.roc_points({"s": rng.normal(size=10_000) + y, "y": y}, score="s", label="y")
    >>> thinned = cc.thin_points(points, max_points=50)
    >>> len(points), len(thinned) <= 50 + len(cc.roc_hull(points))
    (10001, True)
    >>> len(cc.thin_points(points, max_points=50, max_total=20)) <= 20 + len(cc.roc_hull(points))
    True
    """
    try:
        max_points = whole_number(max_points, "max_points", minimum=2)
    except CostchartError:  # one message for every bad value, as charts' max_points= too
        msg = f"max_points={max_points!r} must be a whole number of at least 2"
        raise CostchartError(msg) from None
    if max_total is not None:
        max_total = whole_number(max_total, "max_total", minimum=2)
    table, by, groups = points_groups(points, by, cloud=True)
    if max_total is not None:
        share = max(MIN_POINTS_PER_GROUP, max_total // max(len(groups), 1))
        max_points = min(max_points, share)
    return thinned_points(table, by, groups, max_points)


def thinned_points(table: pd.DataFrame, by: list[str], groups, max_points: int) -> pd.DataFrame:
    """:func:`thin_points` of a table already read and split (``groups`` of ``by``).

    All groups are thinned in shared passes (no Python loop over groups): one sort of the
    long groups' points by (group, fpr, tpr), one merge of every group's targets into its
    points, one hull computation for all of them.
    """
    keep = np.zeros(len(table), dtype=bool)
    columns = [c for c in col.ROC_COLUMNS if c in table.columns]
    fpr_all = table[col.FPR].to_numpy(np.float64)
    tpr_all = table[col.TPR].to_numpy(np.float64)
    group_of_row = groups.row_ids
    long = groups.sizes > max_points
    in_long = long[group_of_row] if len(table) else np.zeros(0, dtype=bool)
    keep[np.asarray(groups.order)[~in_long[groups.order]]] = True  # short groups: whole
    if in_long.any():
        rows = np.asarray(groups.order)[in_long[groups.order]]  # group after group
        if not _sorted_within(fpr_all[rows], tpr_all[rows], group_of_row[rows]):
            rows = rows[np.lexsort((tpr_all[rows], fpr_all[rows], group_of_row[rows]))]
        order = rows
        group = group_of_row[order]
        starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
        stops = np.r_[starts[1:], len(order)]
        along = fpr_all[order] + tpr_all[order]
        keep[order[_nearest_to_targets(along, starts, stops, max_points)]] = True
        keep[order[starts]] = True
        keep[order[stops - 1]] = True
        first = _first_hull_points(table, order, starts, stops, columns, fpr_all, tpr_all)
        keep[order[first]] = True
    leading = [c for c in table.columns if c not in columns and c not in col.RESERVED]
    rest = [c for c in table.columns if c not in columns and c in col.RESERVED]
    rest = [c for c in rest if c != col.THINNED]
    kept = carry_grouping(table.loc[keep, [*leading, *columns, *rest]].reset_index(drop=True), by)
    lost = (
        np.bincount(group_of_row[~keep], minlength=len(groups.sizes)) > 0
        if len(table)
        else np.zeros(0, dtype=bool)
    )
    if col.THINNED in table.columns:  # thinned before: still missing those thresholds
        before = table[col.THINNED].to_numpy() == True  # noqa: E712 (object columns too)
        lost = lost | (np.bincount(group_of_row[before], minlength=len(groups.sizes)) > 0)
    if lost.any():
        kept[col.THINNED] = lost[group_of_row[keep]]
        kept.attrs[THINNED] = True
    return kept


def _nearest_to_targets(along, starts, stops, max_points: int) -> np.ndarray:
    """Per group, the positions ``searchsorted(along[group], linspace(0, 2, max_points))``.

    Clipped to the group, as each group's own search. Where a group's ``along`` is sorted
    (always for ROC curves: fpr and tpr grow together), all groups are searched at once
    among (group, value) keys, with no arithmetic on the values; an unsorted group (points
    that are no curve) is searched on its own, as before.
    """
    n_groups = len(starts)
    lengths = stops - starts
    rank = np.repeat(np.arange(n_groups), lengths)
    targets = np.linspace(0.0, 2.0, int(max_points))
    unsorted = np.zeros(n_groups, dtype=bool)
    falling = np.flatnonzero((np.diff(along) < 0) & (rank[1:] == rank[:-1]))
    unsorted[rank[falling]] = True
    # Complex numbers group + 1j * value sort as (group, value) pairs, exactly: one search
    # of every group's targets among every group's values (searchsorted's "left" side).
    keys = complex_pairs(rank, along)
    query_rank = np.repeat(np.arange(n_groups), len(targets))
    queries = complex_pairs(query_rank, np.tile(targets, n_groups))
    local = np.searchsorted(keys, queries, side="left") - starts[query_rank]
    position = starts[query_rank] + np.clip(local, 0, lengths[query_rank] - 1)
    for g in np.flatnonzero(unsorted):  # not curves: each searched on its own
        segment = along[starts[g] : stops[g]]
        nearest = np.clip(np.searchsorted(segment, targets), 0, lengths[g] - 1)
        position[query_rank == g] = starts[g] + nearest
    return position


def _sorted_within(fpr: np.ndarray, tpr: np.ndarray, group: np.ndarray) -> bool:
    """Whether rows of non-decreasing ``group`` are sorted by (fpr, tpr) within each group."""
    same = group[1:] == group[:-1]
    d_fpr, d_tpr = np.diff(fpr), np.diff(tpr)
    return bool(np.all(~same | (d_fpr > 0) | ((d_fpr == 0) & (d_tpr >= 0))))


def _first_hull_points(table, order, starts, stops, columns, fpr, tpr) -> np.ndarray:
    """Positions (in ``order``) of the first point at each hull vertex of every group.

    ``order`` holds each group's rows sorted by (fpr, tpr), so points equal to a vertex
    sit next to it: the first of its run of equal points is the one kept.
    """
    lengths = stops - starts
    hulls = all_hulls(table, Groups(table, [], order, lengths), columns)
    position = np.empty(len(table), dtype=np.int64)
    position[order] = np.arange(len(order))
    at = position[hulls.rows[hulls.rows >= 0]]  # added trivial points are no rows
    x, y = fpr[order], tpr[order]
    new_run = np.ones(len(order), dtype=bool)
    new_run[1:] = (x[1:] != x[:-1]) | (y[1:] != y[:-1])
    new_run[starts] = True
    run_start = np.maximum.accumulate(np.where(new_run, np.arange(len(order)), 0))
    return np.unique(run_start[at])
