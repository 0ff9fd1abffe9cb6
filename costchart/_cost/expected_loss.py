"""Expected loss under a threshold choice: how the threshold is set decides the cost.

A scoring classifier's cost at an operating point ``pc`` depends on which threshold is
used there. Each *threshold-choice method* is a rule for that choice, and gives its own
cost curve; its area (or its average under a density over ``pc``) is the expected loss
of the classifier used that way (Hernández-Orallo, Flach & Ferri, "A unified view of
performance metrics", JMLR 13, 2012). With ``pc`` uniform:

- ``"optimal"``: the best threshold for each ``pc``, the lower envelope; its area.
- ``"score_driven"``: positive when ``score >= 1 - pc``, the Brier curve; the Brier score
  with the two classes weighted equally.
- ``"rate_driven"``: the threshold whose share of positives, ``(TPR + FPR) / 2``, is
  ``pc``, the rate-driven curve; ``1/3 + (1 - 2·AUC) / 4``.
- ``"fixed"``: one threshold whatever ``pc``, one cost line; ``(FPR + FNR) / 2``.

``threshold_choice=`` was ``method=`` (``"score"`` also named the score column), kept
one release with a ``FutureWarning``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._cost.brier import check_probability_scores, score_driven_segments
from costchart._cost.envelope import envelope_rows
from costchart._cost.expected import segment_integrator
from costchart._cost.rate_driven import BEND, RateVertices, rate_vertices
from costchart._io import schema as col
from costchart._io.deprecation import ABSENT, deprecated_names, future_warning, take_alias
from costchart._io.errors import CostchartError
from costchart._io.exact import order_keys
from costchart._io.frames import normalize_by
from costchart._io.groups import Groups, assemble, split_groups
from costchart._io.kinds import refuse_thinned
from costchart._io.parameters import THRESHOLD_CHOICES, checked
from costchart._io.table_values import threshold_values
from costchart._io.tables import numbers, points_groups
from costchart._io.validation import one_of, raw_data, threshold_number
from costchart._roc.hull import Hulls, all_hulls
from costchart._roc.points import points_of

__all__ = [
    "THRESHOLD_CHOICES",
    "choice_losses",
    "expected_loss",
    "optimal_losses",
    "rate_losses",
]

#: The threshold choices, in the order a result lists them.
#: The deprecated ``method=`` values, as threshold choices.
_OLD_CHOICES = {
    "optimal": "optimal",
    "score": "score_driven",
    "rate": "rate_driven",
    "fixed": "fixed",
}


def _aliases(function: str, kwargs: dict) -> None:
    """``method=`` (deprecated) as ``threshold_choice=``, old values renamed."""
    method = take_alias(function, kwargs, "method", "threshold_choice")
    if method is ABSENT:
        return
    try:
        names = [method] if isinstance(method, str) else list(method)
    except TypeError:  # not a list: refused as threshold_choice= is
        names = [method]
    new = [_OLD_CHOICES.get(n, n) if isinstance(n, str) else n for n in names]
    given = new[0] if isinstance(method, str) else new
    future_warning(
        f"{function}(method={method!r}) is deprecated and will be removed in the next "
        f"release; pass threshold_choice={given!r}"
    )
    kwargs["threshold_choice"] = given


@deprecated_names(_aliases)
@checked
def expected_loss(
    data_or_points,
    *,
    threshold_choice: str | Sequence[str] = "optimal",
    score: str | None = None,
    label: str | None = None,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
    threshold: float | None = None,
    density=None,
) -> pd.DataFrame:
    """Expected loss of each group when its threshold is set by a given rule, exactly.

    How a threshold is set at each operating point ``pc`` is a *threshold choice*;
    each gives a cost curve, and the loss expected over uncertain conditions is its
    average under a density over ``pc`` (uniform by default: its area). Computed exactly
    from the ROC points, with no grid.

    ============ ================================ ==========================================
    choice       threshold at ``pc``              expected loss, ``pc`` uniform
    ============ ================================ ==========================================
    optimal      the cheapest (lower envelope)    ``expected_cost(lower_envelope(points))``
    score_driven ``1 - pc`` (Brier curve)         the class-balanced Brier score
    rate_driven  ``(TPR + FPR) / 2 = pc``         ``1/3 + (1 - 2·AUC) / 4``
    fixed        ``threshold``, always            ``(FPR + FNR) / 2`` at that threshold
    ============ ================================ ==========================================

    Parameters
    ----------
    data_or_points : pandas, polars or pyarrow table, dict of arrays, or lazy frame
        With ``score=`` and ``label=``: raw data, one row per instance. Without them: ROC
        points of one classifier per group (``fpr``, ``tpr`` and, for ``"score_driven"``
        and ``"fixed"``, ``threshold``), every threshold present, as :func:`roc_points`
        gives.
    threshold_choice : str or list of str, default "optimal"
        ``"optimal"``, ``"score_driven"``, ``"rate_driven"`` or ``"fixed"``, or a list of
        them: one row per group and choice. Was ``method=`` (with ``"score"`` and
        ``"rate"``), deprecated.
    score, label : str, optional
        The score and class columns of raw data (both or neither). ``"score_driven"``
        needs scores that are probabilities of the positive class, in [0, 1].
    by : str or list of str, optional
        Grouping columns: one loss per group (see the glossary).
    pos_label : optional
        The value of ``label`` that is the positive class (raw data only).
    weight : str, optional
        A column of non-negative instance weights (raw data only): rates and the Brier
        score become weighted ones.
    threshold : float, optional
        The fixed threshold of ``threshold_choice="fixed"`` (positive when
        ``score >= threshold``); required by it, refused by the other choices.
    density : scipy.stats frozen distribution or callable, optional
        A density over ``pc`` (see :func:`expected_cost`); uniform by default.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``threshold_choice`` and ``expected_loss`` (float64):
        one row per group and choice, choices in the order given.

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"p": [0.9, 0.6, 0.3, 0.2], "y": [1, 0, 1, 0]}
    >>> cc.expected_loss(
    ...     data,
    ...     score="p",
    ...     label="y",
    ...     threshold_choice=["optimal", "score_driven", "rate_driven", "fixed"],
    ...     threshold=0.7,
    ... )
      threshold_choice  expected_loss
    0          optimal       0.125000
    1     score_driven       0.225000
    2      rate_driven       0.208333
    3            fixed       0.250000
    """
    choices = _choices(threshold_choice)
    fixed = _fixed_threshold(threshold, choices)
    integrate = segment_integrator(density)  # refuse a bad density before any work
    table, groups = _points(data_or_points, score, label, by, pos_label, weight)
    scores = f"column {score!r}" if score is not None else "the points' 'threshold' column"
    losses = [choice_losses(table, groups, name, integrate, fixed, scores) for name in choices]
    n_choices = len(choices)
    return assemble(
        groups,
        np.full(len(groups), n_choices, dtype=np.int64),
        {
            col.THRESHOLD_CHOICE: np.tile(np.array(choices, dtype=object), len(groups)),
            col.EXPECTED_LOSS: np.column_stack(losses).ravel() if losses else np.zeros(0),
        },
    )


def _choices(choice) -> list[str]:
    listed = [choice] if isinstance(choice, str) else choice
    try:
        choices = list(listed)
    except TypeError:
        choices = [listed]
    if not choices:
        msg = (
            f"threshold_choice={choice!r} names no choice; pass one of {THRESHOLD_CHOICES} "
            "or a list"
        )
        raise CostchartError(msg)
    for name in choices:
        one_of(name, "threshold_choice", THRESHOLD_CHOICES)
    if len(set(choices)) < len(choices):
        msg = f"threshold_choice={choice!r} names a choice twice; name each once"
        raise CostchartError(msg)
    return choices


def _fixed_threshold(threshold, choices: list[str]) -> float | None:
    if "fixed" in choices:
        if threshold is None:
            msg = (
                'threshold_choice="fixed" needs threshold=: the score cut-off used at every '
                "pc (positive when score >= threshold)"
            )
            raise CostchartError(msg)
        return threshold_number(threshold)
    if threshold is not None:
        msg = (
            f'threshold={threshold!r} is used only by threshold_choice="fixed"; add "fixed" '
            "to threshold_choice=, or leave threshold out"
        )
        raise CostchartError(msg)
    return None


def _points(data, score, label, by, pos_label, weight) -> tuple[pd.DataFrame, Groups]:
    """The ROC points of every group, read once: from raw data or a points table."""
    if not raw_data(score, label, pos_label=pos_label, weight=weight):
        table, _, groups = points_groups(data, by)
        return table, groups
    points = points_of(
        data,
        score=score,
        label=label,
        by=by,
        pos_label=pos_label,
        weight=weight,
    )
    by = normalize_by(by)  # passed on as given: by=None pools with a warning, () on purpose
    return points, split_groups(points, by)  # costchart's own points: no second reading


def choice_losses(
    table: pd.DataFrame,
    groups: Groups,
    choice: str,
    integrate,
    fixed: float | None = None,
    scores: str = "the points' 'threshold' column",
) -> np.ndarray:
    """Each group's expected loss under one threshold choice (points already read).

    ``scores`` names where the thresholds came from, in messages.
    """
    if choice == "optimal":
        return _optimal(table, groups, integrate)
    if choice == "rate_driven":
        refuse_thinned(table, 'threshold_choice="rate_driven"')
        return _rate(table, groups, integrate)
    return _by_threshold(table, groups, integrate, choice, fixed, scores)


def _areas(group, lo, hi, c_lo, c_hi, n_groups: int, integrate, bend=0.0) -> np.ndarray:
    """Per group: the sum of its segments' integrals."""
    if len(group) == 0:
        return np.zeros(n_groups)
    area = np.asarray(integrate(lo, hi, c_lo, c_hi, bend), dtype=np.float64)
    return np.bincount(group, area, minlength=n_groups)


def _optimal(table: pd.DataFrame, groups: Groups, integrate) -> np.ndarray:
    columns = [c for c in (col.FPR, col.TPR) if c in table.columns]
    return optimal_losses(all_hulls(table, groups, columns), len(groups), integrate)


def optimal_losses(hulls: Hulls, n_groups: int, integrate) -> np.ndarray:
    """Each group's loss with the best threshold: its envelope's area, from its hull."""
    rows, group, pc = envelope_rows(hulls)
    fpr = hulls.columns[col.FPR].astype(np.float64)[rows]
    tpr = hulls.columns[col.TPR].astype(np.float64)[rows]
    # Segment k runs from vertex k to k + 1 on the line of vertex k.
    same = group[1:] == group[:-1]
    lo, hi = pc[:-1][same], pc[1:][same]
    f, t = fpr[:-1][same], tpr[:-1][same]
    return _areas(
        group[:-1][same], lo, hi, f + lo * (1 - t - f), f + hi * (1 - t - f), n_groups, integrate
    )


def _rate(table: pd.DataFrame, groups: Groups, integrate) -> np.ndarray:
    return rate_losses(rate_vertices(table, groups), len(groups), integrate)


def rate_losses(v: RateVertices, n_groups: int, integrate) -> np.ndarray:
    """Each group's loss with thresholds set by rate: its parabolas' areas, exactly."""
    same = v.group[1:] == v.group[:-1]
    return _areas(
        v.group[:-1][same],
        v.pc[:-1][same],
        v.pc[1:][same],
        v.cost[:-1][same],
        v.cost[1:][same],
        n_groups,
        integrate,
        BEND,
    )


def _by_threshold(
    table: pd.DataFrame, groups: Groups, integrate, choice: str, fixed, scores: str
) -> np.ndarray:
    """The score-driven or fixed-threshold loss, from the points ordered by threshold."""
    group, threshold, tpr, fpr, fixed = _threshold_order(table, groups, choice, fixed)
    n_groups = len(groups)
    if choice == "fixed":
        # The point of the lowest threshold at least `fixed`: scores >= fixed are positive.
        reached = np.bincount(group, threshold >= fixed, minlength=n_groups).astype(np.int64)
        starts = np.cumsum(np.bincount(group, minlength=n_groups)) - np.bincount(
            group, minlength=n_groups
        )
        used = starts + reached - 1  # every group starts at +inf, so reached >= 1
        f, fnr = fpr[used], 1 - tpr[used]
        ones = np.ones(n_groups)
        return _areas(np.arange(n_groups), 0 * ones, ones, f, fnr, n_groups, integrate)
    check_probability_scores(threshold, scores)
    stops = np.flatnonzero(np.r_[group[1:] != group[:-1], True]) + 1
    segments = score_driven_segments(threshold, tpr, fpr, stops)
    return _areas(
        group[segments.rows],
        segments.lo,
        segments.hi,
        segments.cost_lo,
        segments.cost_hi,
        n_groups,
        integrate,
    )


def _threshold_order(table: pd.DataFrame, groups: Groups, choice: str, fixed=None):
    """Every group's points from the highest threshold, led by (0, 0) at ``+inf``.

    For the fixed choice, the thresholds and ``fixed`` come back as exact keys
    (:func:`~costchart._io.exact.order_keys`: integers past 2**53 are not rounded into
    ties); the score-driven choice reads them as float64 probabilities.
    """
    if col.THRESHOLD not in table.columns:
        msg = (
            f'threshold_choice="{choice}" reads the threshold of each ROC point, but the points '
            "have no 'threshold' column; pass raw data with score= and label=, or roc_points' table"
        )
        raise CostchartError(msg)
    refuse_thinned(table, f'threshold_choice="{choice}"')
    if col.PC_LO in table.columns or col.SLOPE_LO in table.columns:
        msg = (
            f'threshold_choice="{choice}" needs every threshold of the classifier, but these '
            "points are a hull (roc_hull): its thresholds skip the points under it. Pass raw "
            "data with score= and label=, or roc_points' table"
        )
        raise CostchartError(msg)
    floats = numbers(table, col.THRESHOLD, "points")[groups.order]
    if np.isnan(floats).any():
        msg = (
            f'threshold_choice="{choice}" reads the threshold of each ROC point, but column '
            "'threshold' has NaN; pass raw data with score= and label=, or roc_points' table"
        )
        raise CostchartError(msg)
    n_groups = len(groups)
    group = np.r_[groups.ids, np.arange(n_groups)]
    threshold = np.r_[floats, np.full(n_groups, np.inf)]
    if fixed is not None:
        exact = np.r_[threshold_values(table, "points")[groups.order], [np.inf] * n_groups]
        threshold, (fixed,) = order_keys(exact, np.array([fixed], dtype=object))
    tpr = np.r_[numbers(table, col.TPR, "points")[groups.order], np.zeros(n_groups)]
    fpr = np.r_[numbers(table, col.FPR, "points")[groups.order], np.zeros(n_groups)]
    added = np.r_[np.zeros(len(groups.order), bool), np.ones(n_groups, bool)]
    order = np.lexsort((added, -threshold, group))
    group, threshold, tpr, fpr, added = (a[order] for a in (group, threshold, tpr, fpr, added))
    repeated = (group[1:] == group[:-1]) & (threshold[1:] == threshold[:-1])
    own_inf = repeated & added[1:]  # the group has its own +inf point: drop the added one
    keep = np.ones(len(group), dtype=bool)
    keep[1:] = ~own_inf
    group, threshold, tpr, fpr = (a[keep] for a in (group, threshold, tpr, fpr))
    # One curve per group (one row per threshold, rates never falling) was checked
    # where the points were read (points_groups): the added (0, 0) keeps it one.
    return group, threshold, tpr, fpr, fixed
