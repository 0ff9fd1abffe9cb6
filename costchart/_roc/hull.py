"""The ROC convex hull: the classifiers that are optimal for some operating condition."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.exact import exact_column
from costchart._io.frames import table as table_of
from costchart._io.groups import Groups, assemble
from costchart._io.owners import owner_values, trivial_thresholds
from costchart._io.parameters import checked
from costchart._io.tables import points_owned
from costchart._roc.upper_hull import exact_scales, upper_hulls

__all__ = ["exact_scales", "group_hulls", "roc_hull"]

#: Without counts, rates such as 1/3 carry rounding error, so a turn whose sine is below
#: this is taken as collinear (its envelope segment would be narrower than ~1e-12).
RATE_MIN_TURN = 1e-12


@checked
def roc_hull(points, *, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """Vertices of the ROC convex hull, with the conditions under which each is optimal.

    The hull is the upper concave boundary of the ROC points from (0, 0) to (1, 1); only
    its vertices can minimize expected cost. The trivial classifiers are always
    available: if a group lacks (0, 0) or (1, 1) it is added (threshold ``+inf`` or
    ``-inf``). Points on a hull edge but not at a corner are dropped.

    A vertex is optimal for iso-performance slopes ``m`` in ``[slope_lo, slope_hi]``, i.e.
    for operating points ``pc = 1 / (1 + m)`` in ``[pc_lo, pc_hi]``.

    Parameters
    ----------
    points : pandas, polars or pyarrow table, or dict of arrays
        ROC points (``fpr``, ``tpr`` and optionally ``threshold`` and counts), e.g. from
        :func:`roc_points`, or a cost-lines table from :func:`to_cost_lines`.
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries (see the glossary).

    Returns
    -------
    pandas.DataFrame
        The grouping columns; where ``by=`` pools several curves, the grouping columns
        merged away (e.g. ``classifier``), saying whose point each vertex is (missing at
        the trivial classifiers; see the glossary, "Owners"); the points' own columns
        (``threshold, tp, fp, tn, fn, tpr, fpr`` as far as present), then

        - ``slope_lo``, ``slope_hi`` (float64): slopes of the hull edges right and left of
          the vertex (``+inf`` left of the first vertex, ``0`` right of the last);
        - ``pc_lo``, ``pc_hi`` (float64): the matching operating points, ``0`` to ``1``
          across the vertices of a group.

        Sorted by ``fpr`` (and ``tpr``) within each group.

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> cc.roc_hull(points)[["threshold", "fpr", "tpr", "pc_lo", "pc_hi"]]
       threshold  fpr  tpr  pc_lo  pc_hi
    0        inf  0.0  0.0    0.0    0.0
    1        4.0  0.0  0.5    0.0    0.5
    2        2.0  0.5  1.0    0.5    1.0
    3        1.0  1.0  1.0    1.0    1.0
    """
    table, by, groups, _, owners = points_owned(points, by, cloud=True)
    return hull_table(table, groups, owners)[0]


def hull_table(
    table: pd.DataFrame, groups: Groups, owners: Sequence = ()
) -> tuple[pd.DataFrame, Hulls]:
    """:func:`roc_hull` of a table already read and split, with the hulls it is made of."""
    point_columns = [c for c in col.ROC_COLUMNS if c in table.columns]
    hulls = all_hulls(table, groups, point_columns, owners=owners)
    columns = {c: hulls.columns[c] for c in [*point_columns, *col.HULL_COLUMNS]}
    result = assemble(groups, hulls.lengths, {**hulls.owners, **columns}, owners=list(hulls.owners))
    return result, hulls


@dataclass(frozen=True)
class Hulls:
    """The hull vertices of every group, group after group, as columns of numpy arrays."""

    columns: dict[str, np.ndarray]  # the vertices' columns and their ranges
    lengths: np.ndarray  # vertices per group
    rows: np.ndarray  # each vertex's row in the table (-1: an added (0, 0), -2: (1, 1))
    #: The owner columns (see :func:`costchart._io.owners.owner_columns`): whose point
    #: each vertex is, missing at the trivial classifiers (every classifier's).
    owners: dict[str, pd.Series] = field(default_factory=dict)

    @functools.cached_property
    def frame(self) -> pd.DataFrame:
        """The vertices as one frame (built when first asked for; the columns are shared).

        The owner columns come first.
        """
        return table_of({**self.owners, **self.columns})

    def parts(self) -> list[pd.DataFrame]:
        """One frame per group (for code that still works group by group)."""
        ends = np.cumsum(self.lengths)
        return [
            self.frame.iloc[end - n : end].reset_index(drop=True)
            for end, n in zip(ends, self.lengths, strict=True)
        ]


def group_hulls(
    points, by, *, name: str = "points"
) -> tuple[pd.DataFrame, list[str], Groups, list[pd.DataFrame]]:
    """Read a points (or cost-lines) table and compute the hull of each group.

    Returns the table (with a NaN ``threshold`` column added if it had none), its grouping
    columns, its groups and one hull per group. ``name`` is the table in messages.
    """
    table, by, groups, hulls = read_hulls(points, by, name=name)
    return table, by, groups, hulls.parts()


def read_hulls(
    points, by, *, name: str = "points"
) -> tuple[pd.DataFrame, list[str], Groups, Hulls]:
    """As :func:`group_hulls`, with the hulls of all groups in one :class:`Hulls`."""
    table, by, groups, arrays, owners = points_owned(points, by, name=name, cloud=True)
    columns = [c for c in col.ROC_COLUMNS if c in table.columns]
    if col.THRESHOLD not in columns:
        table = table.assign(**{col.THRESHOLD: np.nan})
        columns = [col.THRESHOLD, *columns]
    return table, by, groups, all_hulls(table, groups, columns, arrays, owners=owners)


def hull_of_group(table: pd.DataFrame, positions: np.ndarray, columns: list[str]):
    """Hull vertices (with slope and ``pc`` ranges) of the points at ``positions``."""
    one = Groups(table, [], np.asarray(positions), np.array([len(positions)]))
    return all_hulls(table, one, columns).frame


def all_hulls(
    table: pd.DataFrame,
    groups: Groups,
    columns: list[str],
    read: Mapping | None = None,
    *,
    owners: Sequence = (),
) -> Hulls:
    """Hull vertices of every group, with their slope and ``pc`` ranges.

    The points of all groups are sorted by (group, fpr, tpr) at once and completed with
    the trivial classifiers where missing; the hulls of all groups are found together
    (:func:`~costchart._roc.upper_hull.upper_hulls`). ``read`` holds columns of ``table``
    already read (``Series.to_numpy()``, as :func:`~costchart._io.tables.check_rates`
    returns them), which are not read again. ``owners`` are columns of ``table`` taken
    along (:func:`owner_values`).

    Of several points at the same place in a group (identical rates, e.g. two
    classifiers sharing a point), the vertex is the one listed last in the table; the
    first point of a group is its (0, 0), which belongs to no classifier.
    """
    iv = [col.FP_COST, col.TP_BENEFIT]
    names = set(table.columns)
    if set(iv) <= names:
        columns = [*columns, *iv]  # ROCIV points: rates are shares of these sums
    counts = [c for c in (col.TP, col.FN, col.FP, col.TN) if c in names]
    # Each column read once: every read of a frame column builds a Series.
    read = read or {}
    arrays = {
        c: read[c] if c in read else table[c].to_numpy()
        for c in dict.fromkeys([col.FPR, col.TPR, *columns, *counts])
    }
    fpr = np.asarray(arrays[col.FPR], dtype=np.float64)
    tpr = np.asarray(arrays[col.TPR], dtype=np.float64)
    rows = groups.order  # group after group (a group may be only part of the table)
    order = rows
    if not _is_sorted_within(fpr[rows], tpr[rows], groups.starts):
        order = rows[np.lexsort((tpr[rows], fpr[rows], groups.ids))]
    sizes = groups.sizes
    first, last = groups.starts, groups.stops - 1
    x, y = fpr[order], tpr[order]
    origin = ~((x[first] == 0) & (y[first] == 0)) if len(order) else np.zeros(0, bool)
    corner = ~((x[last] == 1) & (y[last] == 1)) if len(order) else np.zeros(0, bool)
    # Each group's rows: an added (0, 0) (-1), its sorted points, an added (1, 1) (-2).
    new_sizes = sizes + origin + corner
    new_starts = np.cumsum(new_sizes) - new_sizes
    source = np.empty(int(new_sizes.sum()), dtype=np.int64)
    block = np.repeat(np.arange(len(sizes)), sizes)
    within = np.arange(len(order)) - np.repeat(groups.starts, sizes)
    source[(new_starts + origin)[block] + within] = order
    source[new_starts[origin]] = -1
    source[(new_starts + new_sizes - 1)[corner]] = -2
    group = np.repeat(np.arange(len(sizes)), new_sizes)
    firsts = order[first] if len(order) else order
    exact_columns = _exact_columns(columns)
    maxima = _group_maxima(arrays, columns, source, group, len(sizes))
    points = _Sources(source)
    coordinates = {
        c: _column_with_trivial(arrays, c, columns, points, group, firsts, maxima)
        for c in (col.FPR, col.TPR, *exact_columns)
    }
    # Fresh arrays already (gathered above): converted, never copied, where float64.
    x = coordinates[col.FPR].astype(np.float64, copy=False)
    y = coordinates[col.TPR].astype(np.float64, copy=False)
    exact = [coordinates[c].astype(np.float64, copy=False) for c in exact_columns]
    use_exact = exact_scales(exact, (x, y), group, len(sizes), sizes=new_sizes)
    # Counts are exact, so collinear points are recognized exactly; rates and ROCIV sums
    # carry rounding error.
    exact_turn = 0.0 if exact_columns == [col.FP, col.TP] else RATE_MIN_TURN
    # Each group's hull on its counts (or ROCIV sums) where they are exact, else on its rates.
    hull_x, hull_y = x, y
    if exact and use_exact.all():
        hull_x, hull_y = exact
    elif exact and use_exact.any():
        exact_point = np.repeat(use_exact, new_sizes)
        hull_x, hull_y = np.where(exact_point, exact[0], x), np.where(exact_point, exact[1], y)
    min_turn = np.where(use_exact, exact_turn, RATE_MIN_TURN)
    kept, lengths = upper_hulls(hull_x, hull_y, new_starts, new_sizes, min_turn=min_turn)
    vertices = _Sources(source[kept])
    values = {
        c: _column_with_trivial(arrays, c, columns, vertices, group[kept], firsts, maxima)
        for c in columns
    }
    rows = source[kept]
    owned = owner_values(table, list(owners), rows, x[kept], y[kept])
    if owned and col.THRESHOLD in values:  # pooled: the trivial vertices are nobody's
        values[col.THRESHOLD] = trivial_thresholds(values[col.THRESHOLD], x[kept], y[kept])
    return Hulls(_with_ranges(values, lengths), lengths, rows, owned)


def _is_sorted_within(fpr: np.ndarray, tpr: np.ndarray, starts: np.ndarray) -> bool:
    """Whether rows are sorted by (fpr, tpr) within each group (groups start at ``starts``)."""
    d_fpr, d_tpr = np.diff(fpr), np.diff(tpr)
    ok = (d_fpr > 0) | ((d_fpr == 0) & (d_tpr >= 0))
    ok[starts[1:] - 1] = True  # across a group boundary anything goes
    return bool(ok.all())


def _exact_columns(columns: list[str]) -> list[str]:
    """Exact coordinates the points carry: ROCIV sums, or counts, or none."""
    if col.FP_COST in columns:
        return [col.FP_COST, col.TP_BENEFIT]
    if {col.TP, col.FP, col.TN, col.FN} <= set(columns):
        return [col.FP, col.TP]
    return []


class _Sources:
    """Rows to take from the points (``source``; -1 an added (0, 0), -2 an added (1, 1)).

    What every column taken at these rows shares, worked out once.
    """

    def __init__(self, source: np.ndarray):
        self.source = source
        self.added = source < 0
        self.any_added = bool(self.added.any())
        self.safe = np.where(self.added, 0, source) if self.any_added else source
        self.positive = source == -2


def _column_with_trivial(
    arrays: dict, column: str, columns: list[str], rows: _Sources, group, firsts, maxima
) -> np.ndarray:
    """``arrays[column]`` at rows ``rows.source``; -1 is (0, 0), -2 is (1, 1) of ``group``.

    The trivial classifiers get threshold ``+inf`` (always negative) or ``-inf``, their
    counts from the group's totals (read at its row ``firsts[group]``) and their ROCIV
    sums 0 or the group's largest (``maxima``).
    """
    data = arrays[column]
    if column in (col.FP_COST, col.TP_BENEFIT):
        data = data.astype(np.float64)
    source, added = rows.source, rows.added
    out = data[rows.safe] if len(data) else np.zeros(len(source), data.dtype)
    if not rows.any_added:
        return out
    positive = rows.positive
    if column == col.THRESHOLD:
        fill = np.where(positive, -np.inf, np.inf)
    elif column in (col.FPR, col.TPR):
        fill = np.where(positive, 1.0, 0.0)
    elif {col.TP, col.FN, col.FP, col.TN} <= set(columns) and column in (
        col.TP,
        col.FN,
        col.FP,
        col.TN,
    ):
        first = firsts[group]
        pair = (col.TP, col.FN) if column in (col.TP, col.FN) else (col.FP, col.TN)
        total = arrays[pair[0]][first] + arrays[pair[1]][first]
        fill = np.where(positive == (column in (col.TP, col.FP)), total, 0)
    elif column in (col.FP_COST, col.TP_BENEFIT) and col.FP_COST in columns:
        fill = np.where(positive, maxima[column][group], 0.0)
    else:
        fill = np.full(len(source), np.nan)
    fits = out.dtype.kind not in "iub" or np.isfinite(fill[added]).all()
    if not fits and out.dtype.kind != "O":
        out = exact_column(out)  # float64, or exact Python integers past 2**53
    out[added] = fill[added]
    return out


def _group_maxima(arrays, columns, source, group, n_groups) -> dict[str, np.ndarray]:
    """The largest (non-NaN) ROCIV sums of each group, for its added (1, 1) point."""
    maxima = {}
    if col.FP_COST in columns:
        real = source >= 0
        for column in (col.FP_COST, col.TP_BENEFIT):
            values = arrays[column].astype(np.float64)[source[real]]
            largest = np.full(n_groups, np.nan)
            keep = ~np.isnan(values)
            np.fmax.at(largest, group[real][keep], values[keep])
            maxima[column] = largest
    return maxima


def _with_ranges(columns: dict, lengths: np.ndarray) -> dict[str, np.ndarray]:
    """Vertices with their slope and ``pc`` ranges (per group: ``+inf``/0 and 0/1 at the ends)."""
    fpr = columns[col.FPR].astype(np.float64)
    tpr = columns[col.TPR].astype(np.float64)
    return {**columns, **vertex_ranges(fpr, tpr, lengths)}


def vertex_ranges(fpr: np.ndarray, tpr: np.ndarray, lengths: np.ndarray) -> dict[str, np.ndarray]:
    """Each hull vertex's slope range and ``pc`` range, vertices group after group.

    ``lengths`` are the vertices per group. A vertex's ``pc`` range runs between the ``pc``
    of its two edges (0 at a group's first vertex, 1 at its last); its slopes are those of
    the edges right and left of it (0 and ``+inf`` at the ends).
    """
    n = len(fpr)
    ends = np.cumsum(lengths)
    is_last = np.zeros(n, dtype=bool)
    is_last[ends[lengths > 0] - 1] = True
    is_first = np.zeros(n, dtype=bool)
    is_first[(ends - lengths)[lengths > 0]] = True
    d_fpr = np.append(np.diff(fpr), 0.0)
    d_tpr = np.append(np.diff(tpr), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = d_tpr / d_fpr  # of the edge right of each vertex
        edge_pc = d_fpr / (d_fpr + d_tpr)
    return {
        col.SLOPE_LO: np.where(is_last, 0.0, slope),
        col.SLOPE_HI: np.where(is_first, np.inf, _shifted(slope)),
        col.PC_LO: np.where(is_first, 0.0, _shifted(edge_pc)),
        col.PC_HI: np.where(is_last, 1.0, edge_pc),
    }


def _shifted(values: np.ndarray) -> np.ndarray:
    """``np.roll(values, 1)`` of a 1-D array (each value one place on), without its overhead."""
    return np.concatenate((values[-1:], values[:-1]))
