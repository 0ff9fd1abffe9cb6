"""The selection criteria: which classifier and threshold to use under a condition.

The criteria read a ROC points table and answer per group with the chosen classifiers
(``threshold``, ``fpr``, ``tpr``): :func:`iso_performance` gives the optimal hull vertices
for an operating condition or a range of them; :func:`neyman_pearson` and
:func:`workforce` give the best point under a limit on FPR or on the number predicted
positive, which may be a random mixture of two hull vertices (``weight`` of each; the
``mixture`` row is the operating point reached, whose cost line :func:`to_cost_lines`
draws) next to the best single existing classifier.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._cost.geometry import ALWAYS_NEGATIVE, ALWAYS_POSITIVE
from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.exact import exact_column
from costchart._io.groups import combine_groups
from costchart._io.parameters import checked
from costchart._io.table_values import threshold_values
from costchart._io.validation import finite_number, probabilities, probability, real_numbers
from costchart._roc.hull import group_hulls, read_hulls
from costchart._roc.optimal import optimal_vertices

__all__ = ["iso_performance", "neyman_pearson", "workforce"]


def _trivial_name(fpr: np.ndarray, tpr: np.ndarray) -> np.ndarray:
    return np.where(
        (fpr == 0) & (tpr == 0),
        ALWAYS_NEGATIVE,
        np.where((fpr == 1) & (tpr == 1), ALWAYS_POSITIVE, "threshold"),
    )


@checked
def iso_performance(
    points,
    *,
    pc: float | Sequence[float] | None = None,
    slope: float | Sequence[float] | None = None,
    pc_range: tuple[float, float] | None = None,
    slope_range: tuple[float, float] | None = None,
    by: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    """The optimal hull vertices at operating conditions, or over a range of them.

    At each condition (``pc=0.3``, ``pc=[0.2, 0.7]``, ``slope=2``) the answer is the hull
    vertex an iso-performance line of that slope touches (two when the line lies along a
    hull edge: both are optimal). Over a range (``pc_range=(0.2, 0.4)``, the sensitivity
    analysis) it is every hull vertex optimal somewhere in it, with the part of the range
    where it is. A trivial classifier among them (``choice`` = ``"always negative"`` or
    ``"always positive"``) marks where doing nothing is best.

    Parameters
    ----------
    points : pandas, polars or pyarrow table, or dict of arrays
        ROC points, e.g. from :func:`roc_points`.
    pc, slope : float or list of float
        Operating conditions, as operating points or as iso-performance slopes
        (``pc = 1 / (1 + slope)``).
    pc_range, slope_range : (float, float)
        A range of operating conditions, as operating points or as slopes.
        Give exactly one of ``pc``, ``slope``, ``pc_range`` and ``slope_range``.
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, the owner columns where ``by=`` pools several curves (whose
        vertex each row is; see :func:`lower_envelope`), then one row per optimal vertex:
        ``choice``
        (``"threshold"`` or the trivial one's name), ``threshold``, ``fpr``, ``tpr``,
        ``pc_lo``, ``pc_hi``. For conditions, ``pc_lo = pc_hi`` is the condition, in the
        order given; for a range, the rows are in ``pc`` order and ``pc_lo``, ``pc_hi``
        bound where, within the range, the vertex is optimal.

    Examples
    --------
    >>> import pandas as pd, costchart as cc
    >>> points = pd.DataFrame({"threshold": [2.0, 1.0], "fpr": [0.1, 0.4], "tpr": [0.5, 0.9]})
    >>> cc.iso_performance(points, pc=[0.3, 0.6])[["choice", "threshold", "pc_lo"]]
          choice  threshold  pc_lo
    0  threshold        2.0    0.3
    1  threshold        1.0    0.6
    >>> cc.iso_performance(points, pc_range=(0.1, 0.5))[["choice", "threshold", "pc_lo", "pc_hi"]]
                choice  threshold     pc_lo     pc_hi
    0  always negative        inf  0.100000  0.166667
    1        threshold        2.0  0.166667  0.428571
    2        threshold        1.0  0.428571  0.500000
    """
    conditions, span = _conditions(pc, slope, pc_range, slope_range)
    table, by, groups, all_hulls = read_hulls(points, by)
    hulls, owners = all_hulls.parts(), list(all_hulls.owners)
    parts = []
    for hull in hulls:
        lo = hull[col.PC_LO].to_numpy()
        hi = hull[col.PC_HI].to_numpy()
        if span is None:
            rows = [(optimal_vertices(lo, hi, at), at, at) for at in conditions]
        else:
            low, high = span
            rows = [((hi > low) & (lo < high) & (hi > lo), low, high)]
        for chosen, low, high in rows:
            pick = hull[chosen]
            fpr = pick[col.FPR].to_numpy(np.float64)
            tpr = pick[col.TPR].to_numpy(np.float64)
            parts.append(
                pd.DataFrame(
                    {
                        **{c: pick[c].reset_index(drop=True) for c in owners},
                        col.CHOICE: _trivial_name(fpr, tpr),
                        col.THRESHOLD: threshold_values(pick, "points"),
                        col.FPR: fpr,
                        col.TPR: tpr,
                        col.PC_LO: np.maximum(lo[chosen], low),
                        col.PC_HI: np.minimum(hi[chosen], high),
                    }
                )
            )
    per_group = len(parts) // max(len(hulls), 1)
    merged = [
        pd.concat(parts[k * per_group : (k + 1) * per_group], ignore_index=True)
        for k in range(len(hulls))
    ]
    return combine_groups(table, by, groups, merged, [*owners, *col.ISO_TABLE], owners)


def _conditions(pc, slope, pc_range, slope_range):
    """The asked conditions as ``pc`` values (and ``None``), or ``((), (low, high))``."""
    asked = {"pc": pc, "slope": slope, "pc_range": pc_range, "slope_range": slope_range}
    given = {k: v for k, v in asked.items() if v is not None}
    if len(given) != 1:
        msg = (
            "give the operating conditions as exactly one of pc=, slope= (values) or "
            f"pc_range=, slope_range= (a (low, high) range); got {sorted(given) or 'none'}"
        )
        raise CostchartError(msg)
    ((name, value),) = given.items()
    if name in ("pc", "slope") and isinstance(value, tuple):
        msg = (
            f"{name}={value!r} is a tuple: pass a list of conditions ({name}={list(value)!r}), "
            f"or a range as {name}_range={value!r}"
        )
        raise CostchartError(msg)
    if name.startswith("pc"):
        values = np.atleast_1d(probabilities(real_numbers(value, name), name)).astype(float)
    else:
        slopes = np.atleast_1d(real_numbers(value, name))
        if np.any(~(slopes >= 0)):
            msg = f"{name}={value!r} must be non-negative and not NaN (inf allowed)"
            raise CostchartError(msg)
        values = 1 / (1 + slopes)
    if values.ndim != 1 or values.size == 0:
        msg = f"{name}={value!r} must be a number or a flat list of numbers"
        raise CostchartError(msg)
    if name.endswith("_range"):
        if values.size != 2:
            msg = f"{name}={value!r} must be a (low, high) pair"
            raise CostchartError(msg)
        return (), (float(values.min()), float(values.max()))
    return [float(v) for v in values], None


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
    threshold = threshold_values(hull, "points")
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
    return _choice_table(rows)


def _choice_table(rows: list[tuple]) -> pd.DataFrame:
    """Rows of a choice table; thresholds exact (pandas reads big ints beside NaN as floats)."""
    table = pd.DataFrame(rows, columns=list(col.CHOICE_TABLE))
    table[col.THRESHOLD] = exact_column(np.array([row[1] for row in rows], dtype=object))
    return table


def _best_single(points: pd.DataFrame, key: np.ndarray, limit: float) -> pd.DataFrame:
    """The best existing classifier with ``key <= limit``: no randomising between two.

    Among every ROC point of the group (not only hull vertices) and the always-negative
    classifier, the highest TPR within the limit; ties go to the lowest FPR. This is the
    choice when a mixture cannot be deployed: the non-decreasing staircase of the points,
    not the hull, at the limit.
    """
    fpr = points[col.FPR].to_numpy(np.float64)
    tpr = points[col.TPR].to_numpy(np.float64)
    threshold = threshold_values(points, "points")
    feasible = np.flatnonzero(key <= limit)
    if len(feasible) == 0:  # only the always-negative classifier fits
        row = ("single", np.inf, 0.0, 0.0, 1.0)
    else:
        best = feasible[np.lexsort((fpr[feasible], -tpr[feasible]))[0]]
        row = ("single", threshold[best], fpr[best], tpr[best], 1.0)
    return _choice_table([row])


@checked
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
        Grouping columns; by default the grouping the table carries (see the glossary).

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


@checked
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
        Grouping columns; by default the grouping the table carries (see the glossary).

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
