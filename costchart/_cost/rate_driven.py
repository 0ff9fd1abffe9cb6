"""Rate-driven cost curves: the threshold set so that the share of positive calls is ``pc``.

The lower envelope assumes the best threshold is found for every operating point. A
simpler rule needs no costs on the data at all: at ``pc``, pick the threshold whose share
of positive predictions, in skew-normalized space where the two classes weigh the same,
equals ``pc``:

    (TPR + FPR) / 2 = pc.

Between two ROC points the rule mixes their thresholds (a random choice between them), so
``TPR`` and ``FPR`` move linearly with ``pc`` and the cost ``pc·(1 - TPR) + (1 - pc)·FPR``
is a quadratic: the chord between the two points' costs plus ``-2·(pc - lo)·(pc - hi)``,
whatever the two points. Each ROC point is one point of the curve (at ``pc`` equal to its
own rate), not a line: the rate-driven curve is the ROC curve's counterpart in cost space
(Hernández-Orallo, Flach & Ferri, "ROC curves in cost space", Machine Learning 93, 2013).
Its area is ``1/3 + (1 - 2·AUC)/4``: one number of the ROC curve, its AUC, decides the
expected cost of choosing thresholds by rate.

The rate-driven curve of the ROC convex hull (``rate_driven_curve(roc_hull(points))``) is
that paper's counterpart of the hull in cost space. It lies between the lower envelope,
which assumes optimal thresholds, and the curve's own rate-driven curve.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.frames import describe_group
from costchart._io.groups import Groups, assemble, count_at_most
from costchart._io.kinds import refuse_thinned
from costchart._io.parameters import checked
from costchart._io.table_values import threshold_values
from costchart._io.tables import numbers, points_groups
from costchart._io.validation import probabilities

__all__ = [
    "BEND",
    "RateVertices",
    "rate_costs_at",
    "rate_curve_rows",
    "rate_driven_curve",
    "rate_vertices",
]

#: The second-order term of every segment of a rate-driven curve: between two ROC
#: points the cost is the chord plus ``BEND * (pc - lo) * (pc - hi)``.
BEND = -2.0
#: The widest ``pc`` step the drawn curve takes within a segment; the chord of a step of
#: width ``w`` lies ``w**2 / 2`` below the curve at most (1.25e-5 here: far below a pixel).
MAX_STEP = 1 / 200


@dataclass(frozen=True)
class RateVertices:
    """The ROC points of every group in rate order, with the trivial ends added.

    Group after group (``lengths[i]`` vertices for group ``i``): each vertex's rate
    ``pc = (tpr + fpr) / 2``, its ``cost`` there, its rates and threshold. Between
    consecutive vertices of a group the curve is the chord plus :data:`BEND` times
    ``(pc - lo) * (pc - hi)``.
    """

    pc: np.ndarray
    cost: np.ndarray
    tpr: np.ndarray
    fpr: np.ndarray
    threshold: np.ndarray
    group: np.ndarray
    lengths: np.ndarray


@checked
def rate_driven_curve(points, *, by: str | Sequence[str] | None = None, pc=None) -> pd.DataFrame:
    """The rate-driven cost curve of each group: the threshold set by the rate of positives.

    At each operating point ``pc`` the classifier uses the threshold whose share of
    positive predictions in skew-normalized space, ``(TPR + FPR) / 2``, equals ``pc``,
    mixing two neighbouring thresholds between ROC points (Hernández-Orallo, Flach &
    Ferri, Machine Learning 93, 2013). It needs no knowledge of the costs when the
    threshold is set, only of the rate; its area is ``1/3 + (1 - 2·AUC) / 4``. Pass
    :func:`roc_hull` of the points for the rate-driven curve of the hull, which differs
    from the lower envelope: the envelope assumes the best threshold for every ``pc``.

    Parameters
    ----------
    points : pandas, polars or pyarrow table, or dict of arrays
        ROC points (``fpr``, ``tpr``, optionally ``threshold``) of one classifier per
        group, e.g. from :func:`roc_points` or :func:`roc_hull`, or cost lines. Each
        group must form one ROC curve: ordered by rate, ``fpr`` and ``tpr`` never fall.
        The trivial classifiers, (0, 0) and (1, 1), are added where missing.
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries (see the glossary).
    pc : float or array of float, optional
        Operating points in [0, 1] at which to give the curve, exactly (one row each, in
        the order given, per group); the charts draw it at one value a pixel. By default
        the rows described below.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``pc``, ``cost``, ``tpr``, ``fpr`` and ``threshold``
        (float64). With ``pc=``: one row per value given (``threshold`` that of the ROC
        point used there, NaN where two are mixed). By default: one row at each ROC
        point (``pc`` its rate, ``threshold`` its own) and rows between them, at most
        1/200 apart in ``pc``, where the rule mixes the two neighbouring thresholds
        (``threshold`` NaN; ``tpr`` and ``fpr`` those of the mixture). Between ROC-point
        rows the curve is exactly quadratic, so a line drawn through the rows is within
        1.25e-5 of it; :func:`expected_loss` with
        ``threshold_choice="rate_driven"`` gives its exact area, under any density.

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> curve = cc.rate_driven_curve(points)
    >>> curve[curve["threshold"].notna()]  # the ROC points, each at its own rate
           pc   cost  tpr  fpr  threshold
    0    0.00  0.000  0.0  0.0        inf
    50   0.25  0.125  0.5  0.0        4.0
    100  0.50  0.500  0.5  0.5        3.0
    150  0.75  0.125  1.0  0.5        2.0
    200  1.00  0.000  1.0  1.0        1.0
    >>> auc = cc.auc(points)["auc"].item()
    >>> round(1 / 3 + (1 - 2 * auc) / 4, 6)  # its exact area (see expected_loss)
    0.208333
    """
    grid = None if pc is None else np.atleast_1d(probabilities(pc, "pc"))
    if grid is not None and grid.ndim != 1:
        msg = f"pc={pc!r} must be an operating point or a list of them (one dimension)"
        raise CostchartError(msg)
    table, _, groups = points_groups(points, by)
    refuse_thinned(table, "rate_driven_curve")
    vertices = rate_vertices(table, groups)
    if grid is not None:
        return rate_rows_at(groups, vertices, grid)
    return rate_curve_rows(groups, vertices)


def rate_vertices(table: pd.DataFrame, groups: Groups, name: str = "points") -> RateVertices:
    """The rate-ordered ROC points of every group of a points table already read.

    The trivial points are added where a group lacks them (threshold ``+inf`` at (0, 0),
    ``-inf`` at (1, 1)); repeated points are kept once (the first in rate order, the
    table's own before an added one). A group that is not one ROC curve is refused.
    """
    n_groups = len(groups)
    fpr = numbers(table, col.FPR, name)[groups.order]
    tpr = numbers(table, col.TPR, name)[groups.order]
    if col.THRESHOLD in table.columns:
        threshold = threshold_values(table, name)[groups.order]  # exact past 2**53
    else:
        threshold = np.full(len(fpr), np.nan)
    ends = np.arange(n_groups, dtype=np.int64)
    group = np.concatenate([groups.ids, ends, ends])
    fpr = np.concatenate([fpr, np.zeros(n_groups), np.ones(n_groups)])
    tpr = np.concatenate([tpr, np.zeros(n_groups), np.ones(n_groups)])
    threshold = np.concatenate([threshold, np.full(n_groups, np.inf), np.full(n_groups, -np.inf)])
    added = np.r_[np.zeros(len(groups.order), bool), np.ones(2 * n_groups, bool)]
    rate = (tpr + fpr) / 2
    order = np.lexsort((added, tpr, fpr, rate, group))
    group, fpr, tpr, threshold, rate = (a[order] for a in (group, fpr, tpr, threshold, rate))
    same_group = group[1:] == group[:-1]
    repeated = same_group & (fpr[1:] == fpr[:-1]) & (tpr[1:] == tpr[:-1])
    keep = np.ones(len(group), dtype=bool)
    keep[1:] = ~repeated
    group, fpr, tpr, threshold, rate = (a[keep] for a in (group, fpr, tpr, threshold, rate))
    _check_one_curve(groups, group, fpr, tpr)
    cost = rate * (1 - tpr) + (1 - rate) * fpr
    lengths = np.bincount(group, minlength=n_groups).astype(np.int64)
    return RateVertices(rate, cost, tpr, fpr, threshold, group, lengths)


def rate_costs_at(v: RateVertices, pc: np.ndarray) -> np.ndarray:
    """Every group's rate-driven cost at each of ``pc`` (in [0, 1]), exactly: groups x pc."""
    return _rates_at(v, pc)[0].reshape(len(v.lengths), len(pc))


def rate_rows_at(groups: Groups, v: RateVertices, pc: np.ndarray) -> pd.DataFrame:
    """:func:`rate_driven_curve` at each of ``pc``: one row per group and value."""
    cost, fpr, tpr, threshold = _rates_at(v, pc)
    columns = {col.PC: np.tile(pc, len(v.lengths)), col.COST: cost}
    columns |= {col.TPR: tpr, col.FPR: fpr, col.THRESHOLD: threshold}
    return assemble(groups, np.full(len(v.lengths), len(pc), dtype=np.int64), columns)


def _rates_at(v: RateVertices, pc: np.ndarray):
    """Cost, ``fpr``, ``tpr`` and threshold (NaN in a mixture) per group x ``pc``, raveled."""
    n_groups = len(v.lengths)
    starts = np.cumsum(v.lengths) - v.lengths
    asker = np.repeat(np.arange(n_groups), len(pc))
    query = np.tile(pc, n_groups)
    # The vertex at or before each pc, kept one short of its group's last (the segment's start).
    below = count_at_most(v.pc, v.group, query, asker)
    at = starts[asker] + np.clip(below - 1, 0, v.lengths[asker] - 2)
    width = v.pc[at + 1] - v.pc[at]
    share = np.clip((query - v.pc[at]) / width, 0.0, 1.0)
    fpr = v.fpr[at] + share * (v.fpr[at + 1] - v.fpr[at])
    tpr = v.tpr[at] + share * (v.tpr[at + 1] - v.tpr[at])
    threshold = np.where(
        share == 0, v.threshold[at], np.where(share == 1, v.threshold[at + 1], np.nan)
    )
    return query * (1 - tpr) + (1 - query) * fpr, fpr, tpr, threshold


def _check_one_curve(groups: Groups, group, fpr, tpr) -> None:
    """Refuse a group whose points, in rate order, step back in ``fpr`` or ``tpr``."""
    same_group = group[1:] == group[:-1]
    back = same_group & ((np.diff(fpr) < 0) | (np.diff(tpr) < 0))
    if not back.any():
        return
    k = int(np.flatnonzero(back)[0])
    where = describe_group(groups.by, groups.keys[int(group[k])]) if groups.by else ""
    msg = (
        f"the points{where} are not one ROC curve: (fpr={fpr[k]:.17g}, tpr={tpr[k]:.17g}) "
        f"and (fpr={fpr[k + 1]:.17g}, tpr={tpr[k + 1]:.17g}) cannot both be on a curve that only "
        "rises; a rate-driven curve is of one classifier's points (roc_points, or "
        "roc_hull for its hull): group them with by=[...]"
    )
    raise CostchartError(msg)


def rate_curve_rows(groups: Groups, v: RateVertices) -> pd.DataFrame:
    """Each vertex's row followed by the rows within its segment to the next vertex."""
    last = np.ones(len(v.pc), dtype=bool)  # each group's last vertex ends its curve
    last[:-1] = v.group[1:] != v.group[:-1]
    width = np.zeros(len(v.pc))
    width[:-1] = np.diff(v.pc)
    width[last] = 0.0
    inside = np.ceil(width / MAX_STEP).astype(np.int64) - 1  # rows within each segment
    inside = np.maximum(inside, 0)
    block = inside + 1  # the vertex's row and the rows after it
    start = np.repeat(np.arange(len(block)), block)
    step = np.arange(block.sum()) - np.repeat(np.cumsum(block) - block, block)
    share = step / block[start]  # how far along the segment: 0 at the vertex itself
    ahead = np.minimum(start + 1, len(v.pc) - 1)  # the segment's far end (unused if last)
    pc = v.pc[start] + share * width[start]
    fpr = v.fpr[start] + share * (v.fpr[ahead] - v.fpr[start])
    tpr = v.tpr[start] + share * (v.tpr[ahead] - v.tpr[start])
    at_vertex = step == 0
    pc[at_vertex] = v.pc[start[at_vertex]]  # the vertex's own values, not re-derived
    fpr[at_vertex] = v.fpr[start[at_vertex]]
    tpr[at_vertex] = v.tpr[start[at_vertex]]
    columns = {
        col.PC: pc,
        col.COST: pc * (1 - tpr) + (1 - pc) * fpr,
        col.TPR: tpr,
        col.FPR: fpr,
        col.THRESHOLD: np.where(at_vertex, v.threshold[start], np.nan),
    }
    lengths = np.bincount(v.group[start], minlength=len(groups)).astype(np.int64)
    return assemble(groups, lengths, columns)
