"""Many ROC curves at once, each evaluated at its group's grid (for :func:`roc_average`).

The curves of every group are laid out curve after curve (:class:`Curves`); every
(curve, grid value) pair is a query, answered for all curves in one pass by a merge of
(curve, value) keys with one lexsort (no arithmetic on the values, so ties are exact), and
the answers are reduced to one row per (group, grid value) with ``bincount`` and
``ufunc.at`` in curve order, as the per-group code reduced its (curve x grid) arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from costchart._io import schema as col
from costchart._io.groups import Groups, count_at_most, split_groups


@dataclass(frozen=True)
class Curves:
    """The rows of every curve, curve after curve, curves in their group's order.

    ``rows`` are frame positions (groups in order, their curves in order of first
    appearance, each curve's rows in frame order); ``curve`` numbers each of them;
    ``group`` gives each curve's group and ``counts`` the curves of each group.
    """

    rows: np.ndarray
    curve: np.ndarray
    group: np.ndarray
    counts: np.ndarray


def split_curves(table, groups: Groups, over: list[str]) -> Curves:
    """The curves (groups of ``over``) within each group of ``groups``."""
    member = split_groups(table, [*groups.by, *over]).row_ids
    group_of_row = groups.row_ids
    rows = np.lexsort((member, group_of_row))  # stable: a curve's rows keep frame order
    member = member[rows]
    new_curve = np.r_[True, member[1:] != member[:-1]]
    curve = np.cumsum(new_curve) - 1
    curve_group = group_of_row[rows[new_curve]]
    return Curves(rows, curve, curve_group, np.bincount(curve_group, minlength=len(groups)))


@dataclass(frozen=True)
class Grid:
    """Grid values of every group, group after group: ``value[start[g]:start[g] + size[g]]``."""

    value: np.ndarray
    group: np.ndarray
    size: np.ndarray

    @property
    def start(self) -> np.ndarray:
        return np.cumsum(self.size) - self.size


def own_grid(values: np.ndarray, group: np.ndarray, n_groups: int, *, descending: bool) -> Grid:
    """Per group, its distinct ``values`` sorted (as ``np.unique``), or reversed."""
    order = np.lexsort((values, group))
    values, group = values[order], group[order]
    first = np.r_[True, (group[1:] != group[:-1]) | (values[1:] != values[:-1])]
    values, group = values[first], group[first]
    size = np.bincount(group, minlength=n_groups)
    if descending:
        stop = np.cumsum(size)
        start = stop - size
        position = np.arange(len(values))
        values = values[start[group] + stop[group] - 1 - position]
    return Grid(values, group, size)


def given_grid(grid: np.ndarray, n_groups: int) -> Grid:
    """The same grid for every group."""
    size = np.full(n_groups, len(grid), dtype=np.int64)
    return Grid(np.tile(grid, n_groups), np.repeat(np.arange(n_groups), len(grid)), size)


@dataclass(frozen=True)
class Queries:
    """Every (curve, grid value) pair, curve after curve: the curve and the grid position."""

    curve: np.ndarray
    node: np.ndarray


def queries_of(curves: Curves, grid: Grid) -> Queries:
    """Each curve against each value of its group's grid, in grid order."""
    per_curve = grid.size[curves.group]
    curve = np.repeat(np.arange(len(curves.group)), per_curve)
    offsets = np.cumsum(per_curve) - per_curve
    within = np.arange(len(curve)) - np.repeat(offsets, per_curve)
    return Queries(curve, grid.start[curves.group][curve] + within)


def interpolate(x, y, start, size, at, curve) -> np.ndarray:
    """``np.interp(at, x[curve], y[curve])`` for every query, with numpy's own rules.

    ``x`` is strictly increasing within each curve (curve ``c`` holds positions
    ``start[c]:start[c] + size[c]``). As numpy: at a node exactly, its value; beyond the
    ends, the end values; otherwise ``slope * (at - x[j]) + y[j]``, retried from the
    right if that is NaN.
    """
    owner = np.repeat(np.arange(len(start)), size)
    j = count_at_most(x, owner, at, curve) - 1
    first, last = start[curve], start[curve] + size[curve] - 1
    left = np.clip(first + j, first, last)
    right = np.minimum(left + 1, last)
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = (y[right] - y[left]) / (x[right] - x[left])
        value = slope * (at - x[left]) + y[left]
        retry = np.isnan(value)
        if retry.any():
            again = slope * (at - x[right]) + y[right]
            again = np.where(np.isnan(again) & (y[left] == y[right]), y[left], again)
            value = np.where(retry, again, value)
    exact = (j < 0) | (left == last) | (x[left] == at)
    return np.where(exact, y[left], value)


def envelope_function(x, y, curve):
    """Per curve, one ``y`` per ``x`` (the largest), sorted by ``x``: x, y, start, size."""
    order = np.lexsort((y, x, curve))
    x, y, curve = x[order], y[order], curve[order]
    last = np.r_[(curve[1:] != curve[:-1]) | (x[1:] != x[:-1]), True]
    x, y, curve = x[last], y[last], curve[last]
    size = np.bincount(curve, minlength=int(curve[-1]) + 1 if len(curve) else 0)
    return x, y, np.cumsum(size) - size, size


def rates_at_grid(table, curves: Curves, grid: Grid, queries: Queries, method: str, keys=None):
    """FPR and TPR of every query (curve at grid value) for the given method.

    For ``"threshold"``, ``keys`` are the curves' thresholds (in ``curves.rows`` order) as
    exact order keys (:func:`~costchart._io.exact.order_keys`), the grid's values too.
    """
    fpr = table[col.FPR].to_numpy(np.float64)[curves.rows]
    tpr = table[col.TPR].to_numpy(np.float64)[curves.rows]
    at = grid.value[queries.node]
    n_curves = len(curves.group)
    if method == "threshold":
        threshold = table[col.THRESHOLD].to_numpy(np.float64)[curves.rows] if keys is None else keys
        return _at_thresholds(fpr, tpr, threshold, curves.curve, n_curves, at, queries.curve)
    # Every curve completed with the trivial classifiers (0, 0) and (1, 1).
    ends = np.arange(n_curves)
    owner = np.r_[curves.curve, ends, ends]
    fpr = np.r_[fpr, np.zeros(n_curves), np.ones(n_curves)]
    tpr = np.r_[tpr, np.zeros(n_curves), np.ones(n_curves)]
    if method == "vertical":
        x, y, start, size = envelope_function(fpr, tpr, owner)
        return at, interpolate(x, y, start, size, at, queries.curve)
    # Lowest FPR at each TPR: the upper envelope of (tpr, -fpr).
    x, y, start, size = envelope_function(tpr, -fpr, owner)
    return -interpolate(x, y, start, size, at, queries.curve), at


def _at_thresholds(fpr, tpr, threshold, curve, n_curves, at, asker):
    """Rates of the last point (by decreasing threshold) whose threshold is ``>= at``.

    Curves start at (0, 0) (threshold ``+inf``) and end at (1, 1) (``-inf``).
    """
    order = np.lexsort((-threshold, curve))  # stable: ties keep frame order
    fpr, tpr, threshold, curve = fpr[order], tpr[order], threshold[order], curve[order]
    size = np.bincount(curve, minlength=n_curves)
    start = np.cumsum(size) - size
    # Points with a threshold >= at: a prefix of the sorted curve, plus the added ends.
    index = count_at_most(-threshold, curve, -at, asker) + (at == -np.inf)
    real = np.clip(start[asker] + index - 1, 0, max(len(fpr) - 1, 0))
    beyond = index > size[asker]
    out_f = np.where(index == 0, 0.0, np.where(beyond, 1.0, fpr[real]))
    out_t = np.where(index == 0, 0.0, np.where(beyond, 1.0, tpr[real]))
    return out_f, out_t


def summary_columns(grid: Grid, curves: Curves, queries: Queries, fpr, tpr, threshold):
    """Mean, min, max and sd over curves at each grid value, sorted by (fpr, tpr) in a group.

    Sums run in curve order (``bincount``), as numpy's reduction over the curves did.
    """
    nodes = len(grid.value)
    n = curves.counts[grid.group]
    columns = {col.THRESHOLD: threshold}
    spreads = {}
    for name, values, (lo, hi, sd) in (
        (col.FPR, fpr, (col.FPR_LO, col.FPR_HI, col.FPR_SD)),
        (col.TPR, tpr, (col.TPR_LO, col.TPR_HI, col.TPR_SD)),
    ):
        mean = np.bincount(queries.node, values, minlength=nodes) / n
        low = np.full(nodes, np.inf)
        np.minimum.at(low, queries.node, values)
        high = np.full(nodes, -np.inf)
        np.maximum.at(high, queries.node, values)
        deviation = values - mean[queries.node]
        squares = np.bincount(queries.node, deviation * deviation, minlength=nodes)
        with np.errstate(divide="ignore", invalid="ignore"):
            spread = np.where(n > 1, np.sqrt(squares / (n - 1)), np.nan)
        columns[name] = mean
        spreads.update({lo: low, hi: high, sd: spread})
    columns.update(spreads)
    columns[col.N_CURVES] = n.astype(np.int64)
    order = np.lexsort((columns[col.TPR], columns[col.FPR], grid.group))
    return {name: np.asarray(values)[order] for name, values in columns.items()}
