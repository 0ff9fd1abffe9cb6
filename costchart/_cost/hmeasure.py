"""Hand's H-measure: the expected minimum loss under a Beta density over the costs.

Hand (Machine Learning 77, 2009) weighs the two errors by a cost proportion ``c``: an
instance of class 0 (negative) wrongly called positive costs ``c``, one of class 1
(positive) wrongly called negative costs ``1 - c``. At ``c`` the best threshold loses

    L(c) = min over thresholds of  c * pi0 * FPR + (1 - c) * pi1 * FNR

with ``pi1`` the positives' share. In costchart's terms this is a cost curve: with
``K(c) = c * pi0 + (1 - c) * pi1`` and ``pc(c) = (1 - c) * pi1 / K(c)``,
``L(c) = K(c) * E(pc(c))``, where ``E`` is the lower envelope (normalized expected cost
at probability cost ``pc``). Between two neighbouring hull vertices the same vertex is
optimal, and ``L`` is linear in ``c`` there, so the expected loss under a Beta(a, b)
density ``u`` is exact: a sum over the hull's vertices of regularized incomplete Beta
functions. The H-measure is ``1 - L / L_max``, ``L_max`` being the expected loss of the
better trivial classifier at each ``c``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.frames import normalize_by
from costchart._io.groups import assemble, split_groups
from costchart._io.parameters import checked
from costchart._io.validation import finite_number
from costchart._roc.hull import all_hulls
from costchart._roc.points import points_of

__all__ = ["h_measure"]


@checked
def h_measure(
    data,
    *,
    score: str,
    label: str,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    severity_ratio: float | None = None,
    weight: str | None = None,
) -> pd.DataFrame:
    """Hand's H-measure of each group: 1 minus its expected minimum loss over the costs.

    The cost proportion ``c`` of misclassifying a negative (``1 - c`` for a positive)
    follows a Beta(a, b) density; at each ``c`` the classifier uses its best threshold
    (its ROC convex hull, i.e. its lower envelope in cost space), and the loss is
    compared with that of the better trivial classifier. 1 is a perfect classifier, 0 no
    better than the trivial ones. As R's and Python's ``hmeasure`` packages compute it
    (Hand and Anagnostopoulos 2014): ``a = 2``, ``b = 1 + 1 / severity_ratio``; a negative
    ``severity_ratio`` gives Hand's original Beta(pi1 + 1, pi0 + 1).

    Parameters
    ----------
    data : pandas, polars or pyarrow table, or dict of arrays
        One row per instance.
    score, label : str
        The score column (higher means more likely positive) and the class column.
    by : str or list of str, optional
        Grouping columns: one H-measure per group.
    pos_label : optional
        The value of ``label`` that is the positive class (see :func:`roc_points`).
    severity_ratio : float, optional
        How much worse a false alarm (a negative called positive) is than a missed
        positive, as ``hmeasure``'s ``severity.ratio``: a large ratio puts the cost
        density's weight on expensive false alarms, so it favours a classifier that
        misses positives over one that makes false alarms; a small one the reverse. By
        default each group's ``pi1 / pi0`` (its positives over its negatives). Negative:
        Hand's original Beta density. Not 0.
    weight : str, optional
        Column of non-negative instance weights, as in :func:`roc_points`: a whole
        weight ``k`` counts its instance ``k`` times (the classes' shares too), exactly
        as the row repeated ``k`` times.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``h_measure`` (float64): one row per group.

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"s": [0.9, 0.8, 0.7, 0.6, 0.4, 0.3, 0.2, 0.1], "y": [1, 1, 0, 1, 0, 1, 0, 0]}
    >>> cc.h_measure(data, score="s", label="y")
       h_measure
    0        0.5
    """
    ratio = _severity_ratio(severity_ratio)
    points = points_of(data, score=score, label=label, by=by, pos_label=pos_label, weight=weight)
    by = normalize_by(by)  # passed on as given: by=None pools with a warning, () on purpose
    groups = split_groups(points, by)  # costchart's own points: no second reading
    hulls = all_hulls(points, groups, [c for c in col.ROC_COLUMNS if c in points.columns])
    vertices, lengths = hulls.columns, hulls.lengths
    group = np.repeat(np.arange(len(groups)), lengths)
    fpr = vertices[col.FPR].astype(np.float64)
    tpr = vertices[col.TPR].astype(np.float64)
    # Class totals at each group's first vertex, (0, 0): its tn and fn.
    firsts = np.cumsum(lengths) - lengths
    positives = (vertices[col.TP] + vertices[col.FN]).astype(np.float64)[firsts]
    negatives = (vertices[col.FP] + vertices[col.TN]).astype(np.float64)[firsts]
    pi1 = positives / (positives + negatives)
    a, b = _beta_parameters(pi1, ratio)
    loss = _expected_loss(fpr, tpr, group, pi1, a, b)
    worst = _trivial_loss(pi1, a, b)
    return assemble(groups, np.ones(len(groups), dtype=np.int64), {col.H_MEASURE: 1 - loss / worst})


def _severity_ratio(value) -> float | None:
    if value is None:
        return None
    number = finite_number(value, "severity_ratio")
    if number == 0:
        msg = (
            "severity_ratio=0 has no Beta density; pass a positive ratio (how much worse "
            "a false alarm is than a missed positive), a negative one for Hand's original "
            "density, or None for the positives over the negatives"
        )
        raise CostchartError(msg)
    return number


def _beta_parameters(pi1: np.ndarray, ratio: float | None):
    """Per group: the Beta density's (a, b), as the ``hmeasure`` packages choose them."""
    pi0 = 1 - pi1
    if ratio is None:
        ratio_per_group = pi1 / pi0
        return np.full(len(pi1), 2.0), 1 + 1 / ratio_per_group
    if ratio > 0:
        return np.full(len(pi1), 2.0), np.full(len(pi1), 1 + 1 / ratio)
    return pi1 + 1, pi0 + 1


def _expected_loss(fpr, tpr, group, pi1, a, b) -> np.ndarray:
    """Per group: the expected minimum loss, vertex by vertex of the hull, exactly.

    Each group's vertices run from (0, 0) to (1, 1). Vertex ``i`` is optimal for ``c``
    between the ties with its neighbours: ``c`` where ``c * pi0 * dFPR = (1 - c) * pi1 *
    dTPR`` along each edge (1 at the first vertex, 0 at the last).
    """
    from scipy.special import betainc

    pi0 = 1 - pi1
    p1, p0 = pi1[group], pi0[group]
    same = np.r_[group[1:] == group[:-1], False]  # an edge to the next vertex
    d_fpr = np.r_[np.diff(fpr), 0.0]
    d_tpr = np.r_[np.diff(tpr), 0.0]
    with np.errstate(invalid="ignore", divide="ignore"):
        tie = p1 * d_tpr / (p1 * d_tpr + p0 * d_fpr)
    low = np.where(same, tie, 0.0)  # c below which the next vertex is better
    high = np.r_[1.0, low[:-1]]
    high[~np.r_[False, same[:-1]]] = 1.0  # a group's first vertex holds up to c = 1
    ga, gb = a[group], b[group]
    mean_c = ga / (ga + gb) * (betainc(ga + 1, gb, high) - betainc(ga + 1, gb, low))
    mean_1_c = gb / (ga + gb) * (betainc(ga, gb + 1, high) - betainc(ga, gb + 1, low))
    per_vertex = p0 * fpr * mean_c + p1 * (1 - tpr) * mean_1_c
    return np.bincount(group, per_vertex, minlength=len(pi1))


def _trivial_loss(pi1, a, b) -> np.ndarray:
    """Per group: the expected loss of the better trivial classifier at each ``c``.

    Calling everything positive loses ``c * pi0``, everything negative ``(1 - c) * pi1``;
    the first is better below ``c = pi1``.
    """
    from scipy.special import betainc

    pi0 = 1 - pi1
    below = a / (a + b) * betainc(a + 1, b, pi1)
    above = b / (a + b) * (1 - betainc(a, b + 1, pi1))
    return pi0 * below + pi1 * above
