"""Thinning long ROC curves for drawing, without losing the points that matter."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart import _schema as col
from costchart._errors import CostchartError
from costchart._frames import carry_grouping
from costchart._hull import hull_of_group
from costchart._tables import points_groups
from costchart._validation import whole_number

__all__ = ["thin_points", "thinned_points"]


def thin_points(
    points, *, max_points: int = 100, by: str | Sequence[str] | None = None
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
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries (see the glossary).

    Returns
    -------
    pandas.DataFrame
        A subset of the rows of ``points`` as a pandas frame with a new index: the
        grouping (non-costchart) columns, then the ROC columns present (in
        :func:`roc_points`' order), then any other costchart columns of ``points``. A
        cost-lines table gives its ROC points.

    Examples
    --------
    >>> import numpy as np, costchart as cc
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(10_000) < 0.5
    >>> points = cc.roc_points({"s": rng.normal(size=10_000) + y, "y": y}, score="s", label="y")
    >>> thinned = cc.thin_points(points, max_points=50)
    >>> len(points), len(thinned) <= 50 + len(cc.roc_hull(points))
    (10001, True)
    """
    try:
        max_points = whole_number(max_points, "max_points", minimum=2)
    except CostchartError:  # one message for every bad value, as charts' max_points= too
        msg = f"max_points={max_points!r} must be a whole number of at least 2"
        raise CostchartError(msg) from None
    table, by, groups = points_groups(points, by)
    return thinned_points(table, by, groups, max_points)


def thinned_points(table: pd.DataFrame, by: list[str], groups, max_points: int) -> pd.DataFrame:
    """:func:`thin_points` of a table already read and split (``groups`` of ``by``)."""
    keep = np.zeros(len(table), dtype=bool)
    columns = [c for c in col.ROC_COLUMNS if c in table.columns]
    fpr_all = table[col.FPR].to_numpy(np.float64)
    tpr_all = table[col.TPR].to_numpy(np.float64)
    for group in groups:
        positions = group.positions
        if len(positions) <= max_points:
            keep[positions] = True
            continue
        order = positions[np.lexsort((tpr_all[positions], fpr_all[positions]))]
        along = fpr_all[order] + tpr_all[order]
        targets = np.linspace(0.0, 2.0, int(max_points))
        nearest = np.clip(np.searchsorted(along, targets), 0, len(order) - 1)
        keep[order[nearest]] = True
        keep[order[[0, -1]]] = True
        hull = hull_of_group(table, order, columns)
        on_hull = pd.MultiIndex.from_arrays([hull[col.FPR], hull[col.TPR]])
        here = pd.MultiIndex.from_arrays([fpr_all[order], tpr_all[order]])
        first_of_point = ~here.duplicated(keep="first")
        keep[order[here.isin(on_hull) & first_of_point]] = True
    leading = [c for c in table.columns if c not in columns and c not in col.RESERVED]
    rest = [c for c in table.columns if c not in columns and c in col.RESERVED]
    kept = table.loc[keep, [*leading, *columns, *rest]].reset_index(drop=True)
    return carry_grouping(kept, by)
