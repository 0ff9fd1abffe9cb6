"""Groups of rows: splitting a frame by its grouping columns and stacking results.

Functions split their input into groups (:func:`split_groups`), which kernels process
all at once (:class:`Groups` gives the rows group after group, with offsets; iterating
gives one :class:`Group` at a time). Results are built column by column with the
grouping columns leading (:func:`assemble`); code that still computes group by group
stacks its parts with :func:`combine_groups`, and :func:`grouped_order` gives the row
order a per-row result follows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costchart._io.data_checks import distinct_keys
from costchart._io.errors import CostchartError
from costchart._io.frames import carry_grouping, is_hashable, require_columns, table
from costchart._io.schema import FLAG_COLUMNS, INTEGER_COLUMNS, TEXT_COLUMNS

__all__ = [
    "Group",
    "Groups",
    "assemble",
    "combine_groups",
    "complex_pairs",
    "count_at_most",
    "grouped_order",
    "split_groups",
]


@dataclass(frozen=True)
class Group:
    """One group of rows: its key (a tuple, empty without grouping) and row positions."""

    key: tuple
    positions: np.ndarray


class Groups(Sequence[Group]):
    """All groups of a frame at once, for kernels that work on every group in one pass.

    Rows are taken group after group (:attr:`order`), keeping their original order within
    a group; group ``i`` is ``order[starts[i]:stops[i]]``. Groups come in order of first
    appearance. Iterating gives :class:`Group` objects, for code that still loops.

    Attributes
    ----------
    order : numpy.ndarray
        Row positions of the frame, group after group (intp).
    sizes : numpy.ndarray
        Rows per group (int64); every group has at least one row.
    starts, stops : numpy.ndarray
        Offsets of each group's first row and one past its last row in :attr:`order`.
    firsts : numpy.ndarray
        Frame position of each group's first row: where its key values are read.
    """

    def __init__(self, frame: pd.DataFrame, by: list[str], order: np.ndarray, sizes: np.ndarray):
        self.frame = frame
        self.by = list(by)
        self.order = order
        self.sizes = np.asarray(sizes, dtype=np.int64)
        self.stops = np.cumsum(self.sizes)
        self.starts = self.stops - self.sizes
        self.firsts = order[self.starts] if len(order) else np.zeros(0, dtype=np.intp)
        self._keys: list[tuple] | None = None

    def __len__(self) -> int:
        return len(self.sizes)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        start, stop = self.starts[index], self.stops[index]
        return Group(self.keys[index], self.order[start:stop])

    @property
    def keys(self) -> list[tuple]:
        """Each group's key: a tuple of its ``by`` values (empty without grouping)."""
        if self._keys is None:
            if not self.by:
                self._keys = [()] * len(self)
            else:
                firsts = self.frame[self.by].iloc[self.firsts]
                self._keys = list(firsts.itertuples(index=False, name=None))
        return self._keys

    @property
    def ids(self) -> np.ndarray:
        """The group number of each row of :attr:`order` (int64, non-decreasing)."""
        return np.repeat(np.arange(len(self), dtype=np.int64), self.sizes)

    @property
    def row_ids(self) -> np.ndarray:
        """The group number of each frame row, in frame order (-1 for rows in no group)."""
        ids = np.full(len(self.frame), -1, dtype=np.int64)
        ids[self.order] = self.ids
        return ids

    def take(self, values: np.ndarray) -> np.ndarray:
        """``values`` (one per frame row) group after group, as :attr:`order` takes them."""
        return np.asarray(values)[self.order]


def split_groups(frame: pd.DataFrame, by: list[str]) -> Groups:
    """Split ``frame`` into groups by ``by``, in order of first appearance.

    Row positions within each group keep their original order. Missing key values
    (None, NaN) form a group of their own. A key column holding a bool and a number equal
    to it (``True`` and ``1``), which pandas would take for one key, is refused
    (:func:`~costchart._io.data_checks.distinct_keys`; only object columns are read).
    """
    n = len(frame)
    if not by:
        return Groups(frame, by, np.arange(n), np.array([n] if n else [], dtype=np.int64))
    require_columns(frame.columns, by, "the table", "by= must name its grouping columns.")
    for column in by:  # only object columns can hold a bool beside a number
        distinct_keys(frame[column], f"column {column!r} (a grouping column)")
    runs = _contiguous_runs(frame, by)
    if runs is not None:  # each group's rows together, as costchart's own tables hold them
        return Groups(frame, by, np.arange(n), runs)
    try:
        codes = frame.groupby(by, sort=False, dropna=False, observed=True).ngroup().to_numpy()
    except TypeError:  # unhashable values (lists, dicts, arrays) cannot key a group
        column = next(c for c in by if not _hashable(frame[c]))
        sample = next(v for v in frame[column] if not is_hashable(v))
        msg = (
            f"grouping column {column!r} holds {type(sample).__name__} values such as "
            f"{sample!r}, which cannot label groups; convert them to strings or numbers "
            "(e.g. frame[column].astype(str))"
        )
        raise CostchartError(msg) from None
    if n == 0:
        return Groups(frame, by, np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.int64))
    order = np.argsort(codes, kind="stable")
    return Groups(frame, by, order, np.bincount(codes, minlength=codes.max() + 1))


def _contiguous_runs(frame: pd.DataFrame, by: list[str]) -> np.ndarray | None:
    """The sizes of the groups where every group's rows are together, else None.

    Rows are cut where any key column changes from one row to the next; when the first
    rows of these runs hold distinct keys, the runs are the groups, in order of first
    appearance, with no hashing of every row (pandas' group-by factorizes each key
    column, which for a million rows of text took most of a thinning). Missing keys
    and keys that cannot be compared row to row are left to the group-by.
    """
    n = len(frame)
    if n < 2:
        return None
    cut = np.zeros(n, dtype=bool)
    cut[0] = True
    try:
        for column in by:
            values = frame[column]
            if values.hasnans:
                return None
            array = values.array
            changes = np.asarray(array[1:] != array[:-1], dtype=bool)
            if changes.shape != (n - 1,):
                return None
            cut[1:] |= changes
        starts = np.flatnonzero(cut)
        if frame[by].iloc[starts].duplicated().any():
            return None  # a group whose rows are apart
    except (TypeError, ValueError):  # unhashable or incomparable keys: the group-by decides
        return None
    return np.diff(np.append(starts, n))


def _hashable(series: pd.Series) -> bool:
    return all(is_hashable(value) for value in series)


def grouped_order(groups: Sequence[Group]) -> np.ndarray:
    """Row positions of all groups, group after group (what a per-row result follows)."""
    if not groups:
        return np.zeros(0, dtype=np.intp)
    return np.concatenate([group.positions for group in groups])


def _empty_dtype(column: str) -> type | np.dtype:
    if column in TEXT_COLUMNS:
        return object
    if column in INTEGER_COLUMNS:
        return np.int64
    return bool if column in FLAG_COLUMNS else float


def combine_groups(
    frame: pd.DataFrame,
    by: list[str],
    groups: Sequence[Group],
    parts: Sequence[pd.DataFrame],
    columns: Sequence[str],
    owners: Sequence[str] = (),
) -> pd.DataFrame:
    """Stack per-group results with the grouping columns of ``frame`` leading.

    ``parts[i]`` is the result for ``groups[i]``; its rows get that group's key values
    (with the dtype of ``frame``'s columns). An empty result still has every column.
    ``owners`` are columns of the parts (the first of ``columns``) recorded as owners
    (see :mod:`costchart._io.kinds`).
    """
    columns = list(columns)
    lengths = np.array([len(part) for part in parts], dtype=np.intp)
    parts = [part for part in parts if len(part)]
    if parts:
        body = pd.concat(parts, ignore_index=True)[columns]
    else:
        body = pd.DataFrame({c: pd.Series(dtype=_empty_dtype(c)) for c in columns})
    if not by:
        return carry_grouping(body, [], owners=owners)
    if isinstance(groups, Groups):
        firsts = groups.firsts
    else:
        firsts = np.array([g.positions[0] for g in groups], dtype=np.intp)
    keys = frame[by].iloc[np.repeat(firsts, lengths)].reset_index(drop=True)
    return carry_grouping(pd.concat([keys, body], axis=1), by, owners=owners)


def assemble(
    groups: Groups,
    lengths: np.ndarray,
    columns: Mapping[str, object],
    *,
    kind: str | None = None,
    owners: Sequence[str] = (),
) -> pd.DataFrame:
    """A result table: the grouping columns of ``groups`` leading, then ``columns``.

    ``columns`` hold the rows of all groups, group after group, ``lengths[i]`` rows for
    group ``i`` (0 leaves the group out); the key columns repeat each group's key values
    with the dtype of the input frame's columns. Built column by column (:func:`table`).
    ``kind`` and ``owners`` (the first of ``columns``) are recorded as
    :func:`~costchart._io.frames.carry_grouping` records them.
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    body = dict(columns)
    if not groups.by:
        return carry_grouping(table(body), [], kind, owners)
    rows = np.repeat(groups.firsts, lengths)
    keys = {c: groups.frame[c].iloc[rows].reset_index(drop=True) for c in groups.by}
    return carry_grouping(table({**keys, **body}), groups.by, kind, owners)


def count_at_most(keys: np.ndarray, owner: np.ndarray, query: np.ndarray, asker: np.ndarray):
    """Per query: how many ``keys`` of its owner (``owner == asker``) are ``<= query``.

    ``keys`` must be sorted within each owner and ``owner`` non-decreasing; the answer is
    ``searchsorted(keys_of_owner, query, side="right")`` for every query, found by one
    search of (owner, value) pairs. The pairs are complex numbers (owner as the real part,
    value as the imaginary part), which numpy orders lexicographically: no arithmetic on
    the values, so ties are exact.
    """
    return np.searchsorted(
        complex_pairs(owner, keys), complex_pairs(asker, query), side="right"
    ) - (np.searchsorted(owner, asker))


def complex_pairs(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``first + second * 1j`` built part by part (``inf * 1j`` would give a NaN real part)."""
    pairs = np.empty(len(first), dtype=np.complex128)
    pairs.real = first
    pairs.imag = second
    return pairs
