"""The paired instances of every group of a difference band, found for all groups at once.

Each group's rows are split into the two classifiers' rows and aligned by instance in
shared passes (:func:`pair_groups`). The checks are made for all groups at once too; a
group that may fail one of them is then checked on its own by :func:`check_group`, the
per-group code, which raises the message the band has always given (so the first failing
group, in group order, is the one named).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costchart._io.data_checks import binary_labels, exact_scores
from costchart._io.errors import CostchartError
from costchart._io.frames import describe_group
from costchart._io.groups import Groups, split_groups
from costchart._roc.paired import _same, instance_weights, paired


@dataclass(frozen=True)
class Columns:
    """The column names a difference band reads, and its ``a=``, ``b=`` and ``pos_label``."""

    by: list[str]
    classifier: str
    instance: str
    score: str
    label: str
    weight: str | None
    names: tuple | None
    pos_label: object


@dataclass(frozen=True)
class Pairs:
    """Every group's paired instances (weight > 0), group after group.

    ``group`` (non-decreasing), both classifiers' scores, the class and the instance
    weights (``None`` without ``weight=``); ``names`` are the two classifiers compared in
    the first group.
    """

    group: np.ndarray
    score_a: np.ndarray
    score_b: np.ndarray
    positive: np.ndarray
    copies: np.ndarray | None
    names: tuple | None

    def class_totals(self, n_groups: int) -> tuple[np.ndarray, np.ndarray]:
        """Each group's positives and negatives (sums of the instance weights)."""
        copies = np.ones(len(self.group)) if self.copies is None else self.copies
        group = self.group.astype(np.intp, copy=False)
        positives = np.bincount(group, weights=copies * self.positive, minlength=n_groups)
        negatives = np.bincount(group, weights=copies * ~self.positive, minlength=n_groups)
        return positives, negatives


def check_group(frame: pd.DataFrame, key: tuple, columns: Columns, selection) -> None:
    """The per-group checks of a difference band, in its order: raise what fails first."""
    c = columns
    _, side_a, side_b = paired(frame, c.classifier, c.instance, c.names, c.label)
    positive = binary_labels(side_a[c.label].to_numpy(), f"column {c.label!r}", c.pos_label)
    copies = instance_weights(side_a, side_b, c.weight, "difference_band's bootstrap")
    if copies is not None:
        if not copies.any():
            msg = (
                f"all weights in column {c.weight!r} are 0 (group "
                f"{describe_group(c.by, key) if c.by else 'of all rows'}); a difference "
                "band needs instances of positive weight"
            )
            raise CostchartError(msg)
        keep = copies > 0
        side_a, side_b, positive = side_a[keep], side_b[keep], positive[keep]
    if positive.all() or not positive.any():
        msg = f"column {c.label!r} has one class only; a difference band needs both"
        raise CostchartError(msg)
    if selection is not None:
        for table in selection:
            selection_rows(table, c.by, key)
    for side in (side_a, side_b):
        exact_scores(side[c.score].to_numpy(), f"column {c.score!r}")


def selection_rows(table: pd.DataFrame, by: list[str], key: tuple) -> np.ndarray:
    """Positions of one group's rows in a selection table (refused if it has none)."""
    if not by:
        return np.arange(len(table))
    mask = np.ones(len(table), dtype=bool)
    for column, value in zip(by, key, strict=True):
        mask &= (table[column] == value).to_numpy(bool)
    if not mask.any():
        msg = f"a selection table has no rows for the group {describe_group(by, key)}"
        raise CostchartError(msg)
    return np.flatnonzero(mask)


def pair_groups(frame: pd.DataFrame, groups: Groups, columns: Columns, selection) -> Pairs:
    """Pair the two classifiers' rows of every group; raise as the per-group checks would."""
    c = columns
    n_groups = len(groups)
    if n_groups == 0:
        empty = np.zeros(0)
        copies = None if c.weight is None else empty
        return Pairs(np.zeros(0, np.int64), empty, empty, empty.astype(bool), copies, c.names)
    group_of_row = groups.row_ids
    doubtful = np.zeros(n_groups, dtype=bool)
    try:
        pd.unique(frame[c.classifier])
        pd.unique(frame[c.instance])
    except TypeError:  # unhashable names or ids: the per-group checks say where
        _raise_first(frame, groups, columns, selection, np.ones(n_groups, bool))
    side = _sides(frame, groups, c, doubtful)
    instance = pd.factorize(frame[c.instance], use_na_sentinel=False)[0]
    rows_a, rows_b = _aligned(side, instance, group_of_row, doubtful)
    pair_group = group_of_row[rows_a]
    labels = frame[c.label].to_numpy()
    agree = np.asarray(labels[rows_a] == labels[rows_b], dtype=bool)
    doubtful[pair_group[~agree]] = True
    positive = _positive(labels[rows_a], pair_group, c, doubtful)
    copies = None
    keep = np.ones(len(rows_a), dtype=bool)
    if c.weight is not None:
        copies, keep = _weights(frame[c.weight].to_numpy(), rows_a, rows_b, pair_group, doubtful)
    classes = np.bincount(pair_group[keep], positive[keep], minlength=n_groups)
    kept = np.bincount(pair_group[keep], minlength=n_groups)
    doubtful |= (classes == 0) | (classes == kept)
    if selection is not None:
        _check_selection_keys(groups, c.by, selection, doubtful)
    scores = frame[c.score].to_numpy()
    try:
        # Exact: integers past 2**53 stay int64, uint64 or Python integers (object).
        score_a = _exact(scores[rows_a[keep]], f"column {c.score!r}")
        score_b = _exact(scores[rows_b[keep]], f"column {c.score!r}")
    except CostchartError:
        doubtful[:] = True
    if doubtful.any():
        _raise_first(frame, groups, columns, selection, doubtful)
    names = c.names
    if names is None and n_groups:
        first = groups.order[groups.starts[0] : groups.stops[0]]
        names = tuple(pd.unique(frame[c.classifier].iloc[first]))
    return Pairs(
        pair_group[keep],
        score_a,
        score_b,
        positive[keep],
        None if copies is None else copies[keep],
        names,
    )


def _exact(values, what: str) -> np.ndarray:
    """Scores checked and kept exact (:func:`~costchart._io.data_checks.exact_scores`)."""
    scores, ranked = exact_scores(values, what)
    return scores if ranked is None else ranked[scores]


def _raise_first(frame, groups: Groups, columns: Columns, selection, doubtful) -> None:
    """Check the doubtful groups one by one, in group order: the first failure raises."""
    for g in np.flatnonzero(doubtful):
        start, stop = groups.starts[g], groups.stops[g]
        check_group(frame.iloc[groups.order[start:stop]], groups.keys[g], columns, selection)


def _sides(frame, groups: Groups, c: Columns, doubtful) -> np.ndarray:
    """Per row: 0 for classifier a, 1 for b, -1 for others; doubtful groups marked."""
    group_of_row = groups.row_ids
    n_groups = len(groups)
    names = frame[c.classifier]
    if c.names is None:
        # A missing name is a classifier present with no rows of its own (refused).
        doubtful[group_of_row[names.isna().to_numpy()]] = True
        # a and b are each group's classifiers in order of first appearance.
        combo = split_groups(frame, [*c.by, c.classifier]).row_ids
        first = np.full(n_groups, np.iinfo(np.int64).max)
        np.minimum.at(first, group_of_row, combo)
        distinct = np.unique(combo)
        owner = np.zeros(combo.max() + 1 if len(combo) else 0, dtype=np.int64)
        owner[combo] = group_of_row
        doubtful |= np.bincount(owner[distinct], minlength=n_groups) != 2
        return np.where(combo == first[group_of_row], 0, 1)
    if _same(c.names[0], c.names[1]):
        doubtful[:] = True
    side = np.full(len(frame), -1)
    for k, name in enumerate(c.names):
        try:
            mask = np.asarray(names == name, dtype=bool)
        except (OverflowError, TypeError, NotImplementedError, ValueError):
            mask = np.zeros(len(frame), dtype=bool)
        side = np.where(mask & (side < 0), k, side)
        doubtful |= np.bincount(group_of_row[mask], minlength=n_groups) == 0
    return side


def _aligned(side, instance, group_of_row, doubtful):
    """Rows of a and the rows of b with the same instance: group after group, a's in frame order.

    Groups where an instance is scored twice by one classifier or by only one of them
    are marked doubtful (and left out).
    """
    rows = np.flatnonzero(side >= 0)
    rows = rows[np.lexsort((side[rows], instance[rows], group_of_row[rows]))]
    g, inst, s = group_of_row[rows], instance[rows], side[rows]
    start = np.r_[True, (g[1:] != g[:-1]) | (inst[1:] != inst[:-1])][: len(rows)]
    run = np.diff(np.r_[np.flatnonzero(start), len(rows)])
    first = np.flatnonzero(start)
    whole = (run == 2) & (s[first] == 0) & (s[np.minimum(first + 1, len(s) - 1)] == 1)
    doubtful[g[first[~whole]]] = True
    first = first[whole & ~doubtful[g[first]]]
    rows_a, rows_b = rows[first], rows[first + 1]
    order = np.lexsort((rows_a, group_of_row[rows_a]))  # group after group, a's row order
    return rows_a[order], rows_b[order]


def _positive(labels, pair_group, c: Columns, doubtful) -> np.ndarray:
    """The class of each pair: read for all groups at once, or group by group.

    Group by group only where the groups code their labels differently (e.g. 0/1 in one
    and -1/1 in another), which the labels of all groups together cannot be read as;
    a group whose labels cannot be read is marked doubtful.
    """
    try:
        return binary_labels(labels, f"column {c.label!r}", c.pos_label)
    except CostchartError:
        pass
    positive = np.zeros(len(labels), dtype=bool)
    bounds = np.searchsorted(pair_group, np.arange(len(doubtful) + 1))
    for g, (start, stop) in enumerate(itertools.pairwise(bounds)):
        try:
            positive[start:stop] = binary_labels(
                labels[start:stop], f"column {c.label!r}", c.pos_label
            )
        except CostchartError:
            doubtful[g] = True
    return positive


def _weights(values, rows_a, rows_b, pair_group, doubtful):
    """Whole-number weights of the pairs (as a's rows), and which are positive."""
    from costchart._io.data_checks import frequency_weights

    what = "difference_band's bootstrap"
    try:
        wa = frequency_weights(values[rows_a], "weight", what)
        wb = frequency_weights(values[rows_b], "weight", what)
    except CostchartError:
        doubtful[:] = True
        return np.ones(len(rows_a)), np.ones(len(rows_a), dtype=bool)
    doubtful[pair_group[wa != wb]] = True
    keep = wa > 0
    doubtful |= np.bincount(pair_group[keep], minlength=len(doubtful)) == 0
    return wa, keep


def _check_selection_keys(groups: Groups, by: list[str], selection, doubtful) -> None:
    """Mark groups whose key a selection table lacks (or that have a missing key value)."""
    if not by:
        return
    keys = groups.frame[by].iloc[groups.firsts]
    doubtful |= keys.isna().any(axis=1).to_numpy()  # a missing key matches no row
    index = pd.MultiIndex.from_frame(keys)
    for table in selection:
        doubtful |= ~index.isin(pd.MultiIndex.from_frame(table[by]))
