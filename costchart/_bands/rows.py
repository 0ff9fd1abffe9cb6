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
from costchart._groups import Groups, split_groups
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
        local = np.empty((len(groups), len(pc)), dtype=np.int64)
        for g, (start, stop) in enumerate(zip(groups.starts, groups.stops, strict=True)):
            local[g] = np.searchsorted(-own[start:stop], -chosen[g], side="right") - 1
    local = np.clip(local, 0, groups.sizes[:, None] - 1)
    return groups.order[groups.starts[:, None] + local]


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
    ends = np.cumsum(hulls.lengths)
    chosen = np.empty((len(groups), len(pc)))
    for g, (start, stop) in enumerate(zip(ends - hulls.lengths, ends, strict=True)):
        active = np.flatnonzero(hi[start:stop] > lo[start:stop]) + start
        chosen[g] = threshold[active[vertex_index(lo[active], pc)]]
    return chosen
