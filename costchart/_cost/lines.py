"""Cost lines: each ROC point seen in cost space."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.frames import carry_grouping
from costchart._io.groups import grouped_order
from costchart._io.parameters import checked
from costchart._io.table_values import threshold_values
from costchart._io.tables import points_groups

__all__ = ["to_cost_lines"]


@checked
def to_cost_lines(points, *, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """The cost line of every ROC point, in long format (two rows per line).

    A classifier with rates (FPR, TPR) has normalized expected cost
    ``cost = FNR * pc + FPR * (1 - pc)`` at operating point ``pc``: a straight line from
    ``(0, FPR)`` to ``(1, FNR)``.

    Parameters
    ----------
    points : pandas, polars or pyarrow table, or dict of arrays
        ROC points with ``fpr`` and ``tpr`` (and optionally ``threshold``), e.g. from
        :func:`roc_points`, :func:`from_confusion` or :func:`roc_hull`.
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries (see the glossary).

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``line`` (int64, 0, 1, ... within a group, in the
        order of the points), ``threshold``, ``fpr``, ``tpr`` (float64), ``pc`` (0.0 then
        1.0 for each line) and ``cost`` (float64: ``fpr`` at pc 0, ``1 - tpr`` at pc 1).

    Examples
    --------
    >>> import pandas as pd, costchart as cc
    >>> cc.to_cost_lines(pd.DataFrame({"fpr": [0.09], "tpr": [0.36]}))
       line  threshold   fpr   tpr   pc  cost
    0     0        NaN  0.09  0.36  0.0  0.09
    1     0        NaN  0.09  0.36  1.0  0.64
    """
    table, by, groups = points_groups(points, by, cloud=True)
    line = np.zeros(len(table), dtype=np.int64)
    for group in groups:
        line[group.positions] = np.arange(len(group.positions))
    order = grouped_order(groups)
    rows = np.repeat(order, 2)
    fpr = table[col.FPR].to_numpy(np.float64)[rows]
    tpr = table[col.TPR].to_numpy(np.float64)[rows]
    pc = np.tile([0.0, 1.0], len(order))
    threshold = (
        threshold_values(table, "points")[rows]  # exact past 2**53
        if col.THRESHOLD in table
        else np.full(len(rows), np.nan)
    )
    body = pd.DataFrame(
        {
            col.LINE: line[rows],
            col.THRESHOLD: threshold,
            col.FPR: fpr,
            col.TPR: tpr,
            col.PC: pc,
            col.COST: np.where(pc == 0.0, fpr, 1.0 - tpr),
        }
    )
    keys = table[by].iloc[rows].reset_index(drop=True)
    return carry_grouping(pd.concat([keys, body], axis=1), by)
