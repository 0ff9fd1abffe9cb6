"""Choosing a classifier and threshold under a selection criterion.

Every criterion reads a ROC points table and answers per group with the chosen classifiers
(``threshold``, ``fpr``, ``tpr``) and, when the optimum lies between two hull vertices, a
random mixture of them (``weight`` of each); the ``mixture`` row is the operating point
reached, whose cost line :func:`to_cost_lines` draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costchart import _schema as col
from costchart._envelope import lower_envelope
from costchart._errors import CostchartError
from costchart._expected import expected_cost
from costchart._frames import (
    check_by_names,
    combine_groups,
    describe_group,
    normalize_by,
    plain_key,
    require_columns,
    split_groups,
)
from costchart._hull import group_hulls
from costchart._roc import roc_points, row_of_threshold
from costchart._tables import check_rates, read_selection, read_table
from costchart._validation import (
    finite_number,
    probabilities,
    probability,
    real_numbers,
    threshold_numbers,
)

__all__ = [
    "PerformanceIndependent",
    "apply_selection",
    "iso_performance",
    "neyman_pearson",
    "performance_independent",
    "workforce",
]


def _trivial_name(fpr: np.ndarray, tpr: np.ndarray) -> np.ndarray:
    return np.where(
        (fpr == 0) & (tpr == 0),
        "always negative",
        np.where((fpr == 1) & (tpr == 1), "always positive", "threshold"),
    )


def iso_performance(
    points,
    *,
    pc: float | tuple[float, float] | None = None,
    slope: float | tuple[float, float] | None = None,
    by: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    """The optimal hull vertices for an operating condition or a range of them.

    For one condition (``pc=0.3`` or ``slope=2``) the answer is the hull vertex an
    iso-performance line of that slope touches (two when the line lies along a hull edge:
    both are optimal). For a range (``pc=(0.2, 0.4)``, the sensitivity analysis) it is
    every hull vertex optimal somewhere in it, with the part of the range where it is. A
    trivial classifier among them (``choice`` = ``"always negative"`` or ``"always
    positive"``) marks where doing nothing is best.

    Parameters
    ----------
    points : pandas, polars or pyarrow table, or dict of arrays
        ROC points, e.g. from :func:`roc_points`.
    pc, slope : float or (float, float)
        The condition(s), as operating points or as iso-performance slopes
        (``pc = 1 / (1 + slope)``); give one of the two.
    by : str or list of str, optional
        Grouping columns; by default every column that is not a costchart column.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then one row per optimal vertex in ``pc`` order:
        ``choice`` (``"threshold"`` or the trivial one's name), ``threshold``,
        ``fpr``, ``tpr``, ``pc_lo``, ``pc_hi`` (where, within the asked range, it is
        optimal).

    Examples
    --------
    >>> import pandas as pd, costchart as cc
    >>> points = pd.DataFrame({"threshold": [2.0, 1.0], "fpr": [0.1, 0.4], "tpr": [0.5, 0.9]})
    >>> cc.iso_performance(points, pc=(0.1, 0.5))[["choice", "threshold", "pc_lo", "pc_hi"]]
                choice  threshold     pc_lo     pc_hi
    0  always negative        inf  0.100000  0.166667
    1        threshold        2.0  0.166667  0.428571
    2        threshold        1.0  0.428571  0.500000
    """
    low, high = _condition_range(pc, slope)
    table, by, groups, hulls = group_hulls(points, by)
    parts = []
    for hull in hulls:
        lo = hull[col.PC_LO].to_numpy()
        hi = hull[col.PC_HI].to_numpy()
        if low == high:
            chosen = (lo <= low) & (hi >= low) & ~((lo == hi) & (lo != low))
        else:
            chosen = (hi > low) & (lo < high) & (hi > lo)
        pick = hull[chosen]
        fpr, tpr = pick[col.FPR].to_numpy(np.float64), pick[col.TPR].to_numpy(np.float64)
        parts.append(
            pd.DataFrame(
                {
                    col.CHOICE: _trivial_name(fpr, tpr),
                    col.THRESHOLD: pick[col.THRESHOLD].to_numpy(np.float64),
                    col.FPR: fpr,
                    col.TPR: tpr,
                    col.PC_LO: np.maximum(lo[chosen], low),
                    col.PC_HI: np.minimum(hi[chosen], high),
                }
            )
        )
    return combine_groups(table, by, groups, parts, col.ISO_TABLE)


def _condition_range(pc, slope) -> tuple[float, float]:
    if (pc is None) == (slope is None):
        msg = "give the operating condition as pc= or as slope= (one of them)"
        raise CostchartError(msg)
    if pc is not None:
        values = np.atleast_1d(probabilities(real_numbers(pc, "pc"), "pc")).astype(float)
    else:
        slopes = np.atleast_1d(real_numbers(slope, "slope"))
        if np.any(~(slopes >= 0)):
            msg = f"slope={slope!r} must be non-negative and not NaN (inf allowed)"
            raise CostchartError(msg)
        values = 1 / (1 + slopes)
    if values.size not in (1, 2) or values.ndim != 1:
        msg = f"pass one condition or a (low, high) pair, not an array of shape {values.shape}"
        raise CostchartError(msg)
    return float(values.min()), float(values.max())


def _mixture(hull: pd.DataFrame, key: np.ndarray, limit: float) -> pd.DataFrame:
    """The best point with ``key <= limit`` on a hull along which ``key`` grows.

    ``key`` is a linear function of (fpr, tpr) that increases along the hull (FPR for
    Neyman-Pearson, the number predicted positive for workforce limits), so the best
    feasible point is where the hull crosses ``key = limit``: a mixture of the two hull
    vertices around it.
    """
    upper = int(np.searchsorted(key, limit, side="right"))
    if upper == 0:
        msg = (
            f"the limit {limit:g} is below {key[0]:g}, the least any classifier of the table "
            "reaches (its first hull vertex should reach 0: predicting nothing); pass ROC "
            "points whose counts are consistent, e.g. from roc_points"
        )
        raise CostchartError(msg)
    fpr = hull[col.FPR].to_numpy(np.float64)
    tpr = hull[col.TPR].to_numpy(np.float64)
    threshold = hull[col.THRESHOLD].to_numpy(np.float64)
    if upper >= len(key) or key[upper - 1] == limit:
        k = min(upper, len(key)) - 1  # a vertex itself is the answer
        rows = [("component", threshold[k], fpr[k], tpr[k], 1.0)]
        mixed = (fpr[k], tpr[k])
    else:
        k = upper - 1
        weight = (limit - key[k]) / (key[k + 1] - key[k])
        rows = [
            ("component", threshold[k], fpr[k], tpr[k], 1.0 - weight),
            ("component", threshold[k + 1], fpr[k + 1], tpr[k + 1], weight),
        ]
        mixed = (fpr[k] + weight * (fpr[k + 1] - fpr[k]), tpr[k] + weight * (tpr[k + 1] - tpr[k]))
    rows.append(("mixture", np.nan, mixed[0], mixed[1], 1.0))
    return pd.DataFrame(rows, columns=list(col.CHOICE_TABLE))


def _best_single(points: pd.DataFrame, key: np.ndarray, limit: float) -> pd.DataFrame:
    """The best existing classifier with ``key <= limit``: no randomising between two.

    Among every ROC point of the group (not only hull vertices) and the always-negative
    classifier, the highest TPR within the limit; ties go to the lowest FPR. This is the
    choice when a mixture cannot be deployed: the non-decreasing staircase of the points,
    not the hull, at the limit.
    """
    fpr = points[col.FPR].to_numpy(np.float64)
    tpr = points[col.TPR].to_numpy(np.float64)
    threshold = points[col.THRESHOLD].to_numpy(np.float64)
    feasible = np.flatnonzero(key <= limit)
    if len(feasible) == 0:  # only the always-negative classifier fits
        row = ("single", np.inf, 0.0, 0.0, 1.0)
    else:
        best = feasible[np.lexsort((fpr[feasible], -tpr[feasible]))[0]]
        row = ("single", threshold[best], fpr[best], tpr[best], 1.0)
    return pd.DataFrame([row], columns=list(col.CHOICE_TABLE))


def neyman_pearson(
    points, *, max_fpr: float, by: str | Sequence[str] | None = None
) -> pd.DataFrame:
    """The highest TPR reachable with FPR at most ``max_fpr`` (Neyman-Pearson).

    Parameters
    ----------
    points : pandas, polars or pyarrow table, or dict of arrays
        ROC points, e.g. from :func:`roc_points`.
    max_fpr : float
        The largest false positive rate allowed, in [0, 1].
    by : str or list of str, optional
        Grouping columns; by default every column that is not a costchart column.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``role``, ``threshold``, ``fpr``, ``tpr``, ``weight``:

        - ``"component"`` rows: the hull vertices mixed, with their mixing ``weight``;
        - one ``"mixture"`` row: the operating point reached by randomly choosing between
          them, the best achievable (on the convex hull);
        - one ``"single"`` row: the best *existing* classifier within the limit, without
          randomising (the highest TPR of any ROC point with ``fpr <= max_fpr``; ties to
          the lowest FPR). It can be much worse than the mixture.

    Examples
    --------
    >>> import pandas as pd, costchart as cc
    >>> points = pd.DataFrame({"threshold": [3.0, 2.0, 1.0],
    ...                        "fpr": [0.1, 0.25, 0.4], "tpr": [0.5, 0.55, 0.9]})
    >>> cc.neyman_pearson(points, max_fpr=0.3).round(3)
            role  threshold   fpr    tpr  weight
    0  component        3.0  0.10  0.500   0.333
    1  component        1.0  0.40  0.900   0.667
    2    mixture        NaN  0.30  0.767   1.000
    3     single        2.0  0.25  0.550   1.000
    """
    alpha = probability(finite_number(max_fpr, "max_fpr"), "max_fpr")
    table, by, groups, hulls = group_hulls(points, by)
    parts = []
    for group, hull in zip(groups, hulls, strict=True):
        own = table.iloc[group.positions]
        parts.append(
            pd.concat(
                [
                    _mixture(hull, hull[col.FPR].to_numpy(np.float64), alpha),
                    _best_single(own, own[col.FPR].to_numpy(np.float64), alpha),
                ],
                ignore_index=True,
            )
        )
    return combine_groups(table, by, groups, parts, col.CHOICE_TABLE)


def workforce(points, *, capacity: float, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """The highest TPR when at most ``capacity`` instances can be predicted positive.

    The number predicted positive is ``tp + fp`` of the table's counts (instances, or
    summed weights), which mixes linearly between hull vertices; for ROCIV points too,
    whose rates are cost-weighted but whose counts count cases.

    Parameters
    ----------
    points : pandas, polars or pyarrow table, or dict of arrays
        ROC points with counts (``tp, fp, tn, fn``), e.g. from :func:`roc_points`.
    capacity : float
        How many instances can be acted on (non-negative).
    by : str or list of str, optional
        Grouping columns; by default every column that is not a costchart column.

    Returns
    -------
    pandas.DataFrame
        As :func:`neyman_pearson`: the hull vertices mixed, their mixture, and the best
        ``"single"`` existing classifier with ``tp + fp <= capacity``.
    """
    capacity = finite_number(capacity, "capacity", minimum=0)
    table, by, groups, hulls = group_hulls(points, by)
    if not {col.TP, col.FP, col.TN, col.FN} <= set(table.columns):
        msg = "workforce needs the counts tp, fp, tn, fn (ROC points from roc_points)"
        raise CostchartError(msg)
    parts = []
    for group, hull in zip(groups, hulls, strict=True):
        predicted = hull[col.TP].to_numpy(float) + hull[col.FP].to_numpy(float)
        own = table.iloc[group.positions]
        own_predicted = own[col.TP].to_numpy(float) + own[col.FP].to_numpy(float)
        parts.append(
            pd.concat(
                [_mixture(hull, predicted, capacity), _best_single(own, own_predicted, capacity)],
                ignore_index=True,
            )
        )
    return combine_groups(table, by, groups, parts, col.CHOICE_TABLE)


@dataclass(frozen=True)
class PerformanceIndependent:
    """The result of :func:`performance_independent`.

    Attributes
    ----------
    curve : pandas.DataFrame
        The hybrid's cost curve: grouping columns, ``pc`` and ``cost`` at both ends of
        every interval in which one classifier is used (so it can jump at a switch), the
        classifier's ``trained_pc``, ``fpr``, ``tpr`` and ``segment`` (its interval number).
    envelope : pandas.DataFrame
        The lower envelope of the same classifiers (and the trivial ones). Its
        ``threshold`` column holds each classifier's own threshold when ``classifiers`` has
        one, else its ``trained_pc`` (so :func:`selection_table` of it names the classifier
        to use in each ``pc`` interval).
    extra_cost : pandas.DataFrame
        Grouping columns and ``extra_cost``: the area between the hybrid and the envelope,
        the expected price of choosing by training conditions instead of by cost.
    """

    curve: pd.DataFrame
    envelope: pd.DataFrame
    extra_cost: pd.DataFrame


def performance_independent(
    classifiers, *, trained_pc: str, by: str | Sequence[str] | None = None
) -> PerformanceIndependent:
    """The hybrid that uses the classifier trained for the nearest operating condition.

    Each classifier was trained for one ``pc``; at any ``pc`` the hybrid uses the one whose
    training ``pc`` is nearest, switching halfway between neighbours. Comparing it with the
    lower envelope shows what ignoring the classifiers' measured costs loses.

    Parameters
    ----------
    classifiers : pandas, polars or pyarrow table, or dict of arrays
        One row per classifier: ``fpr``, ``tpr``, the ``trained_pc`` column and any
        grouping columns (e.g. ``dataset``).
    trained_pc : str
        Column of the ``pc`` each classifier was trained for, in [0, 1].
    by : str or list of str, optional
        Grouping columns (each group is one set of classifiers).

    Returns
    -------
    PerformanceIndependent
    """
    table = read_table(classifiers, "classifiers")
    if not isinstance(trained_pc, str) or trained_pc in col.RESERVED:
        msg = (
            f"trained_pc={trained_pc!r} must name a column of classifiers that is not one "
            "of costchart's own columns (such as 'pc'); rename that column"
        )
        raise CostchartError(msg)
    require_columns(table.columns, [trained_pc, col.FPR, col.TPR], "classifiers")
    probabilities(table[trained_pc].to_numpy(), f"column {trained_pc!r}")
    check_rates(table, "classifiers")
    by = (
        normalize_by(by)
        if by is not None
        else [c for c in table.columns if c not in col.RESERVED and c != trained_pc]
    )
    require_columns(table.columns, by, "classifiers", "by= must name its grouping columns.")
    check_by_names([c for c in by if c != trained_pc])
    if trained_pc in by:
        msg = f"by={by!r} includes trained_pc={trained_pc!r}; group by other columns"
        raise CostchartError(msg)
    groups = split_groups(table, by) if len(table) else []  # empty in, empty out
    parts, extra = [], []
    envelope_parts = []
    for group in groups:
        part = table.iloc[group.positions].sort_values(trained_pc, kind="stable")
        trained = part[trained_pc].to_numpy(float)
        if len(np.unique(trained)) != len(trained):
            shared = trained[np.argmax(np.diff(trained) == 0)]
            msg = f"two classifiers share the training pc {shared}; each needs its own"
            raise CostchartError(msg)
        switches = (trained[:-1] + trained[1:]) / 2
        lo = np.concatenate([[0.0], switches])
        hi = np.concatenate([switches, [1.0]])
        fpr = part[col.FPR].to_numpy(float)
        tpr = part[col.TPR].to_numpy(float)
        pc = np.column_stack([lo, hi]).ravel()
        rows = np.repeat(np.arange(len(part)), 2)
        curve = pd.DataFrame(
            {
                col.PC: pc,
                col.COST: fpr[rows] + pc * (1 - tpr[rows] - fpr[rows]),
                trained_pc: trained[rows],
                col.FPR: fpr[rows],
                col.TPR: tpr[rows],
                col.SEGMENT: rows,
            }
        )
        # Each vertex keeps the classifier's own threshold; without one, its trained pc
        # labels it (so a selection table of the envelope names the classifier to use).
        labels = (
            threshold_numbers(part[col.THRESHOLD].to_numpy(), "column 'threshold'")
            if col.THRESHOLD in part.columns
            else trained
        )
        envelope = lower_envelope(part[[col.FPR, col.TPR]].assign(**{col.THRESHOLD: labels}))
        hybrid_area = float(
            np.sum(
                (hi - lo)
                * (curve[col.COST].to_numpy()[0::2] + curve[col.COST].to_numpy()[1::2])
                / 2
            )
        )
        extra.append(
            pd.DataFrame(
                {col.EXTRA_COST: [hybrid_area - expected_cost(envelope)[col.EXPECTED_COST].iat[0]]}
            )
        )
        parts.append(curve)
        envelope_parts.append(envelope)
    columns = [col.PC, col.COST, trained_pc, col.FPR, col.TPR, col.SEGMENT]
    return PerformanceIndependent(
        curve=combine_groups(table, by, groups, parts, columns),
        envelope=combine_groups(table, by, groups, envelope_parts, list(col.ENVELOPE_COLUMNS)),
        extra_cost=combine_groups(table, by, groups, extra, [col.EXTRA_COST]),
    )


def apply_selection(
    selection,
    data,
    *,
    score: str,
    label: str,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
) -> pd.DataFrame:
    """Evaluate thresholds chosen on one data set on another: the unbiased hybrid curve.

    The lower envelope picks thresholds that are best *on the data that drew it*, so its
    cost is optimistic. Choosing them on validation data (:func:`selection_table`) and
    applying them here gives an honest cost curve for this data.

    Parameters
    ----------
    selection : pandas, polars or pyarrow table, or dict of arrays
        A table from :func:`selection_table` (``pc_lo``, ``pc_hi``, ``threshold``, and its
        grouping columns). Each group's intervals must tile [0, 1]; thresholds may be
        ``+inf`` (always negative) or ``-inf`` (always positive) but not NaN.
    data : DataFrame or dict of arrays
        The new data: one row per instance.
    score, label, pos_label, weight
        As in :func:`roc_points`.
    by : str or list of str, optional
        Grouping columns, in both ``selection`` and ``data``. By default the selection's
        own grouping columns (every column of it that is not a costchart column), so a
        selection made per classifier is applied to each classifier's rows of ``data``.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then two rows per selection interval (its two ends), sorted
        by ``pc``: ``pc``, ``cost`` (of the chosen threshold on this data), ``threshold``,
        ``fpr``, ``tpr``. The curve may jump where the threshold changes.
    """
    selection, by, selection_groups = read_selection(selection, by)
    points = roc_points(
        data, score=score, label=label, by=by or None, pos_label=pos_label, weight=weight
    )
    point_groups = {plain_key(g.key): g for g in split_groups(points, by)}
    parts = []
    for group in selection_groups:
        if plain_key(group.key) not in point_groups:
            msg = (
                f"data has no rows for the selection's group {describe_group(by, group.key)} "
                "(or none with both classes)"
            )
            raise CostchartError(msg)
        here = points.iloc[point_groups[plain_key(group.key)].positions]
        chosen = selection.iloc[group.positions]  # sorted by pc_lo
        thresholds = chosen[col.THRESHOLD].to_numpy(float)
        rows_here = row_of_threshold(here, thresholds)
        fpr = here[col.FPR].to_numpy(float)[rows_here]
        tpr = here[col.TPR].to_numpy(float)[rows_here]
        pc = np.column_stack([chosen[col.PC_LO], chosen[col.PC_HI]]).ravel().astype(float)
        rows = np.repeat(np.arange(len(chosen)), 2)
        parts.append(
            pd.DataFrame(
                {
                    col.PC: pc,
                    col.COST: fpr[rows] + pc * (1 - tpr[rows] - fpr[rows]),
                    col.THRESHOLD: thresholds[rows],
                    col.FPR: fpr[rows],
                    col.TPR: tpr[rows],
                }
            )
        )
    return combine_groups(selection, by, selection_groups, parts, list(col.ENVELOPE_COLUMNS))
