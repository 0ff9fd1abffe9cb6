"""Brier curves: the cost curve of choosing the threshold from the operating condition.

The lower envelope picks, at each ``pc``, the threshold that was cheapest on the data.
A probability score invites a simpler rule: trust the score, and at ``pc`` act when
``score >= 1 - pc`` -- the Bayes-optimal threshold if the score were the calibrated
probability of the positive class with the classes balanced (Hernandez-Orallo, Flach &
Ferri, ICML 2011). The cost curve of that rule is the *Brier curve*; it lies on or above
the lower envelope, and the gap between them is the cost of miscalibration.

Its area has a closed form: a positive with score ``s`` costs ``pc`` for ``pc < 1 - s``,
a negative costs ``1 - pc`` for ``pc >= 1 - s``, so the area is
``(mean over positives of (1 - s)^2 + mean over negatives of s^2) / 2`` -- the Brier score
with the two classes weighted equally.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.frames import normalize_by
from costchart._io.groups import Groups, assemble, count_at_most, split_groups
from costchart._io.parameters import checked
from costchart._io.validation import probabilities
from costchart._roc.points import roc_points

__all__ = [
    "ScoreDrivenSegments",
    "brier_curve",
    "brier_of_points",
    "check_probability_scores",
    "score_driven_costs_at",
    "score_driven_segments",
]


@checked
def brier_curve(
    data,
    *,
    score: str,
    label: str,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
    pc=None,
) -> pd.DataFrame:
    """The cost curve of score-driven threshold choice: positive when ``score >= 1 - pc``.

    Parameters
    ----------
    data : pandas, polars or pyarrow DataFrame, dict of arrays, or lazy frame
        One row per instance; ``score`` is a probability of the positive class, in [0, 1].
    score, label, by, pos_label
        As in :func:`roc_points`.
    weight : str, optional
        Column of non-negative instance weights; counts become sums of weights.
        Instances of weight 0 are ignored.
    pc : float or array of float, optional
        Operating points in [0, 1] at which to give the curve, exactly (one row each, in
        the order given, per group: ``pc``, ``cost``, ``threshold``); the charts draw it
        at one value a pixel. By default the two ends of every interval, as below.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then per interval of ``pc`` in which the rule uses one
        threshold, its two ends: ``pc``, ``cost``, the ``threshold`` used (the lowest score
        at least ``1 - pc``; ``inf``: nothing is positive) and ``segment``. The curve jumps
        where a score is crossed. :func:`expected_cost` of it is the class-balanced
        Brier score; :func:`lower_envelope` of the same data is the optimal choice.

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"p": [0.9, 0.6, 0.3, 0.2], "y": [1, 0, 1, 0]}
    >>> curve = cc.brier_curve(data, score="p", label="y")
    >>> round(float(cc.expected_cost(curve)["expected_cost"].iat[0]), 4)
    0.225
    >>> positives, negatives = (0.1**2 + 0.7**2) / 2, (0.6**2 + 0.2**2) / 2
    >>> round((positives + negatives) / 2, 4)  # the class-balanced Brier score
    0.225
    """
    grid = None if pc is None else np.atleast_1d(probabilities(pc, "pc"))
    if grid is not None and grid.ndim != 1:
        msg = f"pc={pc!r} must be an operating point or a list of them (one dimension)"
        raise CostchartError(msg)
    points = roc_points(
        data,
        score=score,
        label=label,
        by=by,
        pos_label=pos_label,
        weight=weight,
    )
    by = normalize_by(by)  # passed on as given: by=None pools with a warning, () on purpose
    groups = split_groups(points, by)
    if grid is not None:
        check_probability_scores(points[col.THRESHOLD].to_numpy(np.float64), f"column {score!r}")
        cost, threshold = _score_driven_at(points, groups, grid)
        columns = {col.PC: np.tile(grid, len(groups)), col.COST: cost, col.THRESHOLD: threshold}
        return assemble(groups, np.full(len(groups), len(grid), dtype=np.int64), columns)
    return brier_of_points(points, groups, score)


def brier_of_points(points: pd.DataFrame, groups: Groups, score: str) -> pd.DataFrame:
    """:func:`brier_curve` of costchart's own ROC points (``score`` named in messages)."""
    thresholds = points[col.THRESHOLD].to_numpy(np.float64)
    check_probability_scores(thresholds, f"column {score!r}")
    rows = groups.order
    segments = score_driven_segments(
        thresholds[rows],
        points[col.TPR].to_numpy(np.float64)[rows],
        points[col.FPR].to_numpy(np.float64)[rows],
        groups.stops,
    )
    used = segments.rows
    pc = np.column_stack([segments.lo, segments.hi]).ravel()
    cost = np.column_stack([segments.cost_lo, segments.cost_hi]).ravel()
    ids = groups.ids[used]
    held = np.bincount(ids, minlength=len(groups))  # intervals per group
    segment = np.arange(len(used)) - np.repeat(np.cumsum(held) - held, held)
    columns = {
        col.PC: pc,
        col.COST: cost,
        col.THRESHOLD: np.repeat(thresholds[rows][used], 2),
        col.SEGMENT: np.repeat(segment, 2),
    }
    return assemble(groups, 2 * held, columns)


def score_driven_costs_at(points: pd.DataFrame, groups: Groups, pc: np.ndarray) -> np.ndarray:
    """Every group's Brier-curve cost at each of ``pc``: groups x pc.

    ``points`` are costchart's own (each group from threshold ``+inf`` down, as
    :func:`roc_points` gives them): at ``pc`` the point used is the last whose threshold
    is at least ``1 - pc``.
    """
    return _score_driven_at(points, groups, pc)[0].reshape(len(groups), len(pc))


def _score_driven_at(points: pd.DataFrame, groups: Groups, pc: np.ndarray):
    """Cost and threshold used per group x ``pc``, raveled (see :func:`score_driven_costs_at`)."""
    rows = groups.order
    thresholds = points[col.THRESHOLD].to_numpy(np.float64)[rows]
    tpr = points[col.TPR].to_numpy(np.float64)[rows]
    fpr = points[col.FPR].to_numpy(np.float64)[rows]
    n_groups = len(groups)
    asker = np.repeat(np.arange(n_groups), len(pc))
    query = np.tile(pc, n_groups)
    reached = count_at_most(-thresholds, groups.ids, -(1 - query), asker)  # thresholds >= 1 - pc
    used = groups.starts[asker] + np.maximum(reached, 1) - 1
    return query * (1 - tpr[used]) + (1 - query) * fpr[used], thresholds[used]


def check_probability_scores(thresholds: np.ndarray, what: str) -> None:
    """Refuse scores outside [0, 1]: the score-driven rule reads them as probabilities."""
    finite = thresholds[np.isfinite(thresholds)]
    if finite.size and (finite.min() < 0 or finite.max() > 1):
        msg = (
            f"{what} has scores outside [0, 1] (from {float(finite.min())!r} to "
            f"{float(finite.max())!r}); "
            "score-driven threshold choice (threshold 1 - pc, the Brier curve) needs "
            "probabilities of the positive class: calibrate the scores (e.g. scikit-learn's "
            "CalibratedClassifierCV) or use another method"
        )
        raise CostchartError(msg)


@dataclass(frozen=True)
class ScoreDrivenSegments:
    """The intervals of ``pc`` in which the score-driven rule uses one point.

    ``rows`` are the points used (positions in the arrays given), ``lo`` and ``hi`` the
    interval's ends, ``cost_lo`` and ``cost_hi`` the point's cost at them.
    """

    rows: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    cost_lo: np.ndarray
    cost_hi: np.ndarray


def score_driven_segments(
    threshold: np.ndarray, tpr: np.ndarray, fpr: np.ndarray, stops: np.ndarray
) -> ScoreDrivenSegments:
    """Where the rule "positive when ``score >= 1 - pc``" uses each point.

    The points come group after group (a group ends before each of ``stops``), sorted by
    ``threshold`` from the highest, each group starting with ``+inf`` (nothing positive).
    Point ``j`` is used from ``pc = 1 - threshold[j]`` up to the next point's start; a
    group's last point up to 1. Points of no width are left out.
    """
    starts = np.clip(1 - threshold, 0.0, 1.0)  # +inf: from 0; -inf: never (from 1)
    ends = np.append(starts[1:], 1.0)
    ends[stops - 1] = 1.0
    used = np.flatnonzero(ends > starts)
    lo, hi = starts[used], ends[used]
    fnr, fp_rate = 1 - tpr[used], fpr[used]
    return ScoreDrivenSegments(
        used, lo, hi, lo * fnr + (1 - lo) * fp_rate, hi * fnr + (1 - hi) * fp_rate
    )
