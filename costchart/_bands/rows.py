"""Which classifier each group uses at each ``pc``: rows of the ROC points, all groups at once.

A fixed ``threshold``: the classifier "positive when score >= t" everywhere. A selection
(thresholds per ``pc`` interval, from :func:`~costchart.selection_table`): the threshold
selected for each ``pc``. Neither: the selection of the data's own lower envelope (the
classifier to the right at a vertex). Within a group the ROC points' thresholds decrease,
so the row of threshold ``t`` is the number of rows with a threshold ``>= t``, less one.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.exact import exact_column, order_keys
from costchart._io.frames import describe_group, plain_key, table
from costchart._io.groups import Groups, count_at_most, split_groups
from costchart._io.tables import read_selection
from costchart._roc.hull import all_hulls, exact_scales, vertex_ranges
from costchart._roc.optimal import vertex_index
from costchart._roc.upper_hull import upper_hulls


def active_rows(points: pd.DataFrame, pc: np.ndarray, selection, threshold) -> np.ndarray:
    """Row of one group's ROC points used at each ``pc`` (see the module docstring)."""
    groups = split_groups(points, [])
    return grouped_rows(points, groups, pc, selection, threshold, []).reshape(-1)


def grouped_rows(
    points: pd.DataFrame | None,
    groups: Groups,
    pc: np.ndarray,
    selection,
    threshold,
    by: list[str],
    *,
    read: Mapping[str, np.ndarray] | None = None,
    own_points: bool = False,
) -> np.ndarray:
    """Frame rows of ``points`` used by each group at each ``pc``, shape (groups, pc).

    ``read`` holds columns of ``points`` already read (``Series.to_numpy()``), which are
    not read again. ``own_points`` says the points are :func:`~costchart.roc_points`'
    own, just made (see :func:`_envelope_rows`). Without a frame (``points`` None) every
    column is in ``read``.
    """
    columns = _Columns(points, read)
    if threshold is None and selection is None:
        rows = _envelope_rows(points, groups, pc, columns, own_points)
        if rows is not None:
            return rows
    # Thresholds compared exactly: integers past 2**53 are not rounded into ties.
    raw = columns.raw(col.THRESHOLD)
    if threshold is not None:
        own, fixed = order_keys(raw, np.array([threshold], dtype=object))
        at_least = _rows_at_least(groups.take(own), groups, fixed[0])
        local = np.repeat(at_least[:, None], len(pc), axis=1)
    else:
        chosen = _selected_thresholds(points, groups, pc, selection, by, columns)
        own, keys = order_keys(raw, chosen.reshape(-1))
        local = rows_of_thresholds(groups.take(own), groups.ids, keys.reshape(chosen.shape))
    local = np.clip(local, 0, groups.sizes[:, None] - 1)
    return groups.order[groups.starts[:, None] + local]


def rows_of_thresholds(own: np.ndarray, owner: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """Per group and ``pc``: how many of its rows have a threshold ``>= chosen``, less one.

    ``own`` holds the thresholds of every group's rows, group after group (``owner``),
    decreasing within a group; ``chosen`` has one row per group. All groups are searched
    at once (``searchsorted(-own, -chosen, side="right") - 1`` per group).
    """
    n_groups, n_pc = chosen.shape
    asker = np.repeat(np.arange(n_groups), n_pc)
    found = count_at_most(-own, owner, -chosen.reshape(-1), asker)
    return (found - 1).reshape(n_groups, n_pc)


def grouped_vertex_index(starts: np.ndarray, owner: np.ndarray, n_groups: int, pc) -> np.ndarray:
    """:func:`~costchart._roc.optimal.vertex_index` of every group's ``starts`` at once.

    ``starts`` are sorted within each group (``owner``, non-decreasing; every group has at
    least one). Every group shares the ``pc`` grid, so each start is placed on the sorted
    grid once (the first ``pc`` at or after it) and a running count along the grid gives,
    for every group and ``pc`` at once, the starts at or before it; at ``pc >= 1`` a last
    interval starting at 1 is passed over. Returns positions in ``starts``, shape
    (groups, pc).
    """
    pc = np.asarray(pc, dtype=np.float64)
    first = np.searchsorted(owner, np.arange(n_groups))
    size = np.bincount(owner, minlength=n_groups)
    order = np.argsort(pc, kind="stable")
    grid = pc[order]
    width = len(grid) + 1
    placed_at = np.searchsorted(grid, starts, side="left")  # start <= grid[j] from here on
    placed = np.bincount(owner * width + placed_at, minlength=n_groups * width)
    index = np.cumsum(placed.reshape(n_groups, width)[:, :-1], axis=1) - 1
    below_one = np.bincount(owner, starts < 1, minlength=n_groups).astype(np.int64) - 1
    chosen = starts[first[:, None] + np.clip(index, 0, None)]
    index = np.where((grid >= 1) & (chosen >= 1), below_one[:, None], index)
    index = np.clip(index, 0, size[:, None] - 1)
    found = np.empty((n_groups, len(grid)), dtype=np.int64)
    found[:, order] = first[:, None] + index
    return found


def _rows_at_least(own: np.ndarray, groups: Groups, threshold: float) -> np.ndarray:
    """Per group: how many rows have a threshold ``>= threshold``, less one."""
    if not len(groups):
        return np.zeros(0, dtype=np.int64)
    return np.add.reduceat((own >= threshold).astype(np.int64), groups.starts) - 1


def _selected_thresholds(points, groups: Groups, pc, selection, by, read) -> np.ndarray:
    """The selected threshold of each group at each ``pc``, shape (groups, pc)."""
    if selection is None:
        return _envelope_thresholds(points, groups, pc, read)
    else:
        table, table_by, table_groups = read_selection(selection, by or None)
        if table_by != by:
            msg = (
                f"selection is grouped by {table_by} but the band by {by}; pass "
                f"by={table_by} so each group is banded with its own selection"
            )
            raise CostchartError(msg)
    starts_all = table[col.PC_LO].to_numpy(np.float64)
    thresholds_all = exact_column(table[col.THRESHOLD].to_numpy())
    where = {plain_key(group.key): group.positions for group in table_groups}
    chosen = np.empty((len(groups), len(pc)), dtype=thresholds_all.dtype)
    for g, key in enumerate(groups.keys):
        positions = where.get(plain_key(key))
        if positions is None:
            msg = f"selection has no rows for the group {describe_group(by, key)}"
            raise CostchartError(msg)
        starts = starts_all[positions]
        order = np.argsort(starts, kind="stable")
        interval = vertex_index(starts[order], pc)
        chosen[g] = thresholds_all[positions[order[interval]]]
    return chosen


def _envelope_rows(
    points: pd.DataFrame | None,
    groups: Groups,
    pc: np.ndarray,
    read: _Columns | None = None,
    own_points: bool = False,
) -> np.ndarray | None:
    """Frame rows of the envelope's vertex of each group at each ``pc``, or None.

    For costchart's own ROC points (both trivial classifiers present, each group in
    threshold order, exact counts): the hulls of all groups' counts in shared passes,
    the vertex used at each ``pc`` as :data:`costchart._roc.optimal.RULE` says, found for all
    groups by one merge of (group, ``pc_lo``) with (group, ``pc``). None for any other
    points, which take the general way (:func:`_envelope_thresholds`). ``own_points``
    says the points were just made by :func:`~costchart.roc_points`, which gives them
    all of that by construction: they are not checked again.
    """
    found = _envelope_vertices(points, groups, read, own_points)
    if found is None:
        return None
    vertex_rows, lo, owner = found
    return vertex_rows[grouped_vertex_index(lo, owner, len(groups), pc)]


def _envelope_vertices(points, groups: Groups, read: _Columns | None, own_points: bool):
    """Frame rows, ``pc_lo`` and group of every group's active envelope vertices, or None.

    The vertices come group after group, in ``pc_lo`` order (see :func:`_envelope_rows`).
    """
    needed = (col.FP, col.TP, col.FPR, col.TPR, col.THRESHOLD)
    columns = read or _Columns(points, None)
    if not len(groups) or not set(needed) <= columns.names():
        return None
    rows = groups.order
    fp, tp, fpr, tpr = (columns.floats(c)[rows] for c in needed[:4])
    if not (own_points or _fit_for_counts(fp, tp, fpr, tpr, groups)):
        return None
    kept, lengths = upper_hulls(fp, tp, groups.starts, groups.sizes, min_turn=0.0)
    ranges = vertex_ranges(fpr[kept], tpr[kept], lengths)
    lo, hi = ranges[col.PC_LO], ranges[col.PC_HI]
    active = hi > lo
    owner = np.repeat(np.arange(len(groups)), lengths)[active]
    return rows[kept[active]], lo[active], owner


def envelope_runs(
    points: pd.DataFrame | None,
    groups: Groups,
    pc: np.ndarray,
    read: Mapping[str, np.ndarray],
    own_points: bool,
) -> tuple[np.ndarray, np.ndarray] | None:
    """Where each group's envelope vertex changes along an increasing ``pc`` grid, or None.

    The rows :func:`grouped_rows` gives at every (group, ``pc``), as runs: the flat
    position (``group * len(pc) + j``) where each run starts, and the frame row it uses,
    without the (groups, ``pc``) table. None where :func:`_envelope_rows` is (points not
    costchart's own).
    """
    found = _envelope_vertices(points, groups, _Columns(points, read), own_points)
    if found is None:
        return None
    vertex_rows, lo, owner = found
    n_groups, n_pc = len(groups), len(pc)
    is_first = np.zeros(len(lo), dtype=bool)
    is_first[np.searchsorted(owner, np.arange(n_groups))] = True
    # grouped_vertex_index: a vertex from pc_lo 1 on is passed over at pc 1 (the only pc
    # it could hold), and the first vertex holds the grid before its pc_lo.
    keep = (lo < 1) | is_first
    vertex_rows, lo, owner, is_first = vertex_rows[keep], lo[keep], owner[keep], is_first[keep]
    placed = np.searchsorted(pc, lo, side="left")
    placed[is_first] = 0
    following = np.append(placed[1:], n_pc)
    following[np.append(is_first[1:], True)] = n_pc  # a group's last vertex runs to its end
    held = placed < following  # a later vertex placed at the same pc holds it
    return owner[held] * n_pc + placed[held], vertex_rows[held]


def _fit_for_counts(fp, tp, fpr, tpr, groups: Groups) -> bool:
    """Whether points (group after group) have what :func:`_envelope_rows` needs.

    Both trivial classifiers at each group's ends, counts that never decrease within a
    group and are its rates times one total each (one test set per group).
    """
    first, last = groups.starts, groups.stops - 1
    steps = np.diff(fp) >= 0
    steps &= np.diff(tp) >= 0
    steps[groups.stops[:-1] - 1] = True  # across a group boundary anything goes
    ends = (fpr[first] == 0) & (tpr[first] == 0) & (fpr[last] == 1) & (tpr[last] == 1)
    one_test_set = exact_scales([fp, tp], (fpr, tpr), groups.ids, len(groups))
    return bool(steps.all() and ends.all() and one_test_set.all())


class _Columns:
    """Columns of a points frame, each read once (or taken from ``read``, already read).

    Without a frame (``points`` None), ``read`` holds every column.
    """

    def __init__(self, points: pd.DataFrame | None, read: Mapping[str, np.ndarray] | None):
        self.points = points
        self.read = dict(read or {})

    def names(self) -> set[str]:
        """The names of the columns."""
        return set(self.read) if self.points is None else set(self.points.columns)

    def frame(self) -> pd.DataFrame:
        """The points as a frame (made of the columns when there is none)."""
        return table(dict(self.read)) if self.points is None else self.points

    def raw(self, column: str) -> np.ndarray:
        """The column as ``Series.to_numpy()`` gives it."""
        if column not in self.read:
            assert self.points is not None  # without a frame, read holds every column
            self.read[column] = self.points[column].to_numpy()
        return self.read[column]

    def floats(self, column: str) -> np.ndarray:
        """The column as float64 (as ``Series.to_numpy(np.float64)``)."""
        return np.asarray(self.raw(column), dtype=np.float64)


def _envelope_thresholds(
    points: pd.DataFrame | None, groups: Groups, pc, read: _Columns
) -> np.ndarray:
    """The envelope's threshold of each group at each ``pc``, from the hulls of ``points``.

    The points are costchart's own, already read and split: the hulls are computed on
    them directly (no second pass through the public readers), and the vertex used at each
    ``pc`` follows :data:`costchart._roc.optimal.RULE`, as :func:`costchart.selection_table`.
    """
    hulls = all_hulls(read.frame(), groups, list(col.ROC_COLUMNS), read.read)
    frame = hulls.columns
    lo = frame[col.PC_LO].astype(np.float64)
    hi = frame[col.PC_HI].astype(np.float64)
    fpr = frame[col.FPR].astype(np.float64)
    tpr = frame[col.TPR].astype(np.float64)
    threshold = exact_column(frame[col.THRESHOLD]).copy()  # exact past 2**53
    threshold[(fpr == 0) & (tpr == 0)] = np.inf  # the trivial classifiers, as selections
    threshold[(fpr == 1) & (tpr == 1)] = -np.inf
    active = np.flatnonzero(hi > lo)
    owner = np.repeat(np.arange(len(groups)), hulls.lengths)[active]
    return threshold[active[grouped_vertex_index(lo[active], owner, len(groups), pc)]]
