"""Which classifier each group uses at each ``pc``: rows of the ROC points, all groups at once.

A fixed ``threshold``: the classifier "positive when score >= t" everywhere. A selection
(thresholds per ``pc`` interval, from :func:`~costchart.selection_table`): the threshold
selected for each ``pc``. Neither: the selection of the data's own lower envelope (the
classifier to the right at a vertex). Within a group the ROC points' thresholds decrease,
so the row of threshold ``t`` is the number of rows with a threshold ``>= t``, less one.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from costchart import _schema as col
from costchart._errors import CostchartError
from costchart._frames import describe_group, plain_key
from costchart._groups import Groups, count_at_most, split_groups
from costchart._hull import all_hulls
from costchart._optimal import vertex_index
from costchart._tables import read_selection


def active_rows(points: pd.DataFrame, pc: np.ndarray, selection, threshold) -> np.ndarray:
    """Row of one group's ROC points used at each ``pc`` (see the module docstring)."""
    groups = split_groups(points, [])
    return grouped_rows(points, groups, pc, selection, threshold, []).reshape(-1)


def grouped_rows(
    points: pd.DataFrame, groups: Groups, pc: np.ndarray, selection, threshold, by: list[str]
) -> np.ndarray:
    """Frame rows of ``points`` used by each group at each ``pc``, shape (groups, pc)."""
    own = groups.take(points[col.THRESHOLD].to_numpy(np.float64))
    if threshold is not None:
        at_least = _rows_at_least(own, groups, np.float64(threshold))
        local = np.repeat(at_least[:, None], len(pc), axis=1)
    else:
        chosen = _selected_thresholds(points, groups, pc, selection, by)
        local = rows_of_thresholds(own, groups.ids, chosen)
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
    """:func:`~costchart._optimal.vertex_index` of every group's ``starts`` at once.

    ``starts`` are sorted within each group (``owner``, non-decreasing; every group has at
    least one). Returns positions in ``starts``, shape (groups, pc).
    """
    pc = np.asarray(pc, dtype=np.float64)
    asker = np.repeat(np.arange(n_groups), len(pc))
    at = np.tile(pc, n_groups)
    index = count_at_most(starts, owner, at, asker) - 1
    every = np.arange(n_groups)
    below_one = count_at_most(starts, owner, np.full(n_groups, np.nextafter(1.0, 0.0)), every) - 1
    first = np.searchsorted(owner, every)
    size = np.bincount(owner, minlength=n_groups)
    clipped = first[asker] + np.clip(index, 0, None)
    index = np.where((at >= 1) & (starts[clipped] >= 1), below_one[asker], index)
    index = np.clip(index, 0, size[asker] - 1)
    return (first[asker] + index).reshape(n_groups, len(pc))


def _rows_at_least(own: np.ndarray, groups: Groups, threshold: float) -> np.ndarray:
    """Per group: how many rows have a threshold ``>= threshold``, less one."""
    if not len(groups):
        return np.zeros(0, dtype=np.int64)
    return np.add.reduceat((own >= threshold).astype(np.int64), groups.starts) - 1


def _selected_thresholds(points, groups: Groups, pc, selection, by) -> np.ndarray:
    """The selected threshold of each group at each ``pc``, shape (groups, pc)."""
    if selection is None:
        return _envelope_thresholds(points, groups, pc)
    else:
        table, table_by, table_groups = read_selection(selection, by or None)
        if table_by != by:
            msg = (
                f"selection is grouped by {table_by} but the band by {by}; pass "
                f"by={table_by} so each group is banded with its own selection"
            )
            raise CostchartError(msg)
    starts_all = table[col.PC_LO].to_numpy(np.float64)
    thresholds_all = table[col.THRESHOLD].to_numpy(np.float64)
    where = {plain_key(group.key): group.positions for group in table_groups}
    chosen = np.empty((len(groups), len(pc)))
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


def _envelope_thresholds(points: pd.DataFrame, groups: Groups, pc) -> np.ndarray:
    """The envelope's threshold of each group at each ``pc``, from the hulls of ``points``.

    The points are costchart's own, already read and split: the hulls are computed on
    them directly (no second pass through the public readers), and the vertex used at each
    ``pc`` follows :data:`costchart._optimal.RULE`, as :func:`costchart.selection_table`.
    """
    hulls = all_hulls(points, groups, list(col.ROC_COLUMNS))
    frame = hulls.frame
    lo = frame[col.PC_LO].to_numpy(np.float64)
    hi = frame[col.PC_HI].to_numpy(np.float64)
    fpr = frame[col.FPR].to_numpy(np.float64)
    tpr = frame[col.TPR].to_numpy(np.float64)
    threshold = frame[col.THRESHOLD].to_numpy(np.float64).copy()
    threshold[(fpr == 0) & (tpr == 0)] = np.inf  # the trivial classifiers, as selections
    threshold[(fpr == 1) & (tpr == 1)] = -np.inf
    active = np.flatnonzero(hi > lo)
    owner = np.repeat(np.arange(len(groups)), hulls.lengths)[active]
    return threshold[active[grouped_vertex_index(lo[active], owner, len(groups), pc)]]
