"""Input frames in, tidy pandas frames out.

Users hand costchart pandas, polars or pyarrow frames, or plain dicts of arrays. Every
function turns its input into a pandas frame holding only the columns it needs
(:func:`as_pandas`) and splits it into groups (:func:`split_groups`), which kernels
process all at once (:class:`Groups` gives the rows group after group, with offsets).
Results are built column by column with the grouping columns leading (:func:`assemble`);
code that still computes group by group stacks its parts with :func:`combine_groups`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costchart._errors import CostchartError
from costchart._schema import FLAG_COLUMNS, INTEGER_COLUMNS, RESERVED, TEXT_COLUMNS

__all__ = [
    "Group",
    "Groups",
    "as_pandas",
    "assemble",
    "check_by_names",
    "check_unique_columns",
    "combine_groups",
    "describe_group",
    "grouped_order",
    "infer_by",
    "normalize_by",
    "plain_key",
    "require_columns",
    "split_groups",
    "table",
]


def normalize_by(by: str | Sequence[str] | None) -> list[str]:
    """Return ``by`` as a list of column names (``None`` -> no grouping)."""
    if by is None:
        return []
    if isinstance(by, str):
        return [by]
    if isinstance(by, (Mapping, pd.Series)):  # a dict, or a column of values
        msg = (
            f"by= takes column names, but got a {type(by).__name__}; pass the name of a "
            "grouping column or a list of names, e.g. by=['dataset', 'classifier']"
        )
        raise CostchartError(msg)
    try:
        by = list(by)
    except TypeError:  # a number or other non-iterable
        msg = f"by={by!r} must be a column name or a list of column names (strings)"
        raise CostchartError(msg) from None
    if not all(isinstance(column, str) for column in by):
        msg = f"by={by!r} must be a column name or a list of column names (strings)"
        raise CostchartError(msg)
    twice = [c for i, c in enumerate(by) if c in by[:i]]
    if twice:
        msg = f"by={by!r} names {twice[0]!r} twice; name each grouping column once"
        raise CostchartError(msg)
    return by


def require_columns(
    available, needed: Sequence[str], name: str, fix: str = "Pass the name of an existing column."
) -> None:
    """Raise a :class:`CostchartError` naming the first of ``needed`` not in ``available``."""
    missing = [c for c in needed if c not in set(available)]
    if missing:
        listed = ", ".join(repr(c) for c in available)
        msg = f"{name} has no column {missing[0]!r}; available columns: {listed}. {fix}"
        raise CostchartError(msg)


def as_pandas(data, columns: Sequence[str], *, name: str = "data") -> pd.DataFrame:
    """Return the given ``columns`` of ``data`` as a pandas frame, without copying when possible.

    ``data`` may be a pandas, polars or pyarrow frame (anything narwhals reads eagerly) or a
    mapping of column name to array. The caller's object is never modified.
    """
    odd = next((c for c in columns if not isinstance(c, str) and not _is_hashable(c)), None)
    if odd is not None:
        msg = (
            f"a column of {name} was given as a {type(odd).__name__}, not a column name; add "
            "the values to the data as a column and pass its name (a string)"
        )
        raise CostchartError(msg)
    if isinstance(data, pd.DataFrame):
        # Only the columns used matter: .loc would return a duplicated one twice.
        wanted = set(columns)
        check_unique_columns([c for c in data.columns if c in wanted], name)
        frame = data
    elif isinstance(data, Mapping):
        frame = _frame_from_mapping(data, columns, name)
    else:
        frame = _frame_from_native(data, columns, name)
    require_columns(frame.columns, columns, name)
    # Column by column, without copying (faster than .loc for small frames).
    return pd.DataFrame({c: frame[c] for c in dict.fromkeys(columns)}, copy=False)


def check_unique_columns(columns, name: str) -> None:
    """Refuse a table with two columns of one name (pandas and pyarrow allow them)."""
    columns = list(columns)
    try:
        if len(set(columns)) == len(columns):
            return  # the common case, without building an index
    except TypeError:  # an unhashable name: let pandas judge
        pass
    names = pd.Index(columns)
    if names.has_duplicates:
        twice = names[names.duplicated()].unique().tolist()
        listed = ", ".join(repr(c) for c in twice)
        msg = (
            f"{name} has more than one column named {listed}; rename or drop the "
            "duplicates so that every column name is unique"
        )
        raise CostchartError(msg)


def _frame_from_mapping(data: Mapping, columns: Sequence[str], name: str) -> pd.DataFrame:
    arrays = {key: np.asarray(data[key]) for key in dict.fromkeys(columns) if key in data}
    deep = next((key for key, value in arrays.items() if value.ndim > 1), None)
    if deep is not None:
        msg = (
            f"{name}[{deep!r}] is a {arrays[deep].ndim}-D array of shape "
            f"{arrays[deep].shape}; pass one 1-D array per column"
        )
        raise CostchartError(msg)
    # Scalars broadcast, as in pandas; arrays must agree in length.
    lengths = {key: len(value) for key, value in arrays.items() if value.ndim}
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"{key!r} has {n}" for key, n in lengths.items())
        msg = f"the arrays of {name} differ in length ({detail}); pass arrays of equal length"
        raise CostchartError(msg)
    require_columns(list(data), columns, name)
    if not lengths:
        msg = f"{name} holds only scalars; pass arrays (one value per row)"
        raise CostchartError(msg)
    return pd.DataFrame(arrays)


def _frame_from_native(data, columns: Sequence[str], name: str) -> pd.DataFrame:
    import narwhals.stable.v2 as nw

    names = getattr(data, "column_names", None)  # pyarrow allows duplicated names
    if isinstance(names, list):
        check_unique_columns(names, name)
    try:
        frame = nw.from_native(data, eager_only=True)
    except TypeError:
        lazy = hasattr(data, "collect") or hasattr(data, "compute")
        fix = (
            " (a lazy frame: roc_points, rociv and bootstrap_band aggregate lazy frames in "
            "their engine; for this function collect or compute it first)"
            if lazy
            else ""
        )
        msg = (
            f"{name} must be a pandas, polars or pyarrow DataFrame or a dict of arrays; "
            f"got {type(data).__name__}{fix}"
        )
        raise CostchartError(msg) from None
    require_columns(frame.columns, columns, name)
    return frame.select(list(dict.fromkeys(columns))).to_pandas()


def _plain(value):
    """A group key value as users write it: None for missing, Python scalars for numpy ones."""
    try:
        missing = bool(pd.isna(value))
    except (TypeError, ValueError):  # array-like keys have no single truth value
        missing = False
    if missing:
        return None
    if isinstance(value, np.generic):
        return value.item()
    return value


def plain_key(key: tuple) -> tuple:
    """A group key with plain Python values and every missing value as ``None``.

    Keys of two tables compare equal this way even where NaN (never equal to itself)
    stands for a missing key.
    """
    return tuple(_plain(value) for value in key)


def describe_group(by: Sequence[str], key: tuple) -> str:
    """A group's key for messages, e.g. ``{'model': 'a', 'fold': 0}``.

    Numpy scalars print as plain Python values and every missing key (``None``, NaN,
    ``pd.NA``, ``NaT``) as ``None``: pandas turns a ``None`` key into NaN in string and
    numeric columns, so the two cannot be told apart.
    """
    return repr(dict(zip(by, plain_key(key), strict=True)))


def infer_by(table: pd.DataFrame, by: str | Sequence[str] | None) -> list[str]:
    """Grouping columns of a costchart table: ``by`` if given, else every non-costchart column.

    costchart's columns are those in :data:`costchart._schema.RESERVED` and any whose name
    starts with ``costchart_`` (helper columns of chart specs).
    """
    if by is not None:
        return normalize_by(by)
    return [c for c in table.columns if c not in RESERVED and not str(c).startswith("costchart_")]


def check_by_names(by: list[str]) -> None:
    """Refuse grouping columns that would clash with the columns costchart writes."""
    clash = [c for c in by if c in RESERVED]
    if clash:
        msg = (
            f"by={by!r} includes {clash[0]!r}, a column name costchart writes itself; "
            "rename that grouping column"
        )
        raise CostchartError(msg)


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

    def take(self, values: np.ndarray) -> np.ndarray:
        """``values`` (one per frame row) group after group, as :attr:`order` takes them."""
        return np.asarray(values)[self.order]


def split_groups(frame: pd.DataFrame, by: list[str]) -> Groups:
    """Split ``frame`` into groups by ``by``, in order of first appearance.

    Row positions within each group keep their original order. Missing key values
    (None, NaN) form a group of their own.
    """
    n = len(frame)
    if not by:
        return Groups(frame, by, np.arange(n), np.array([n] if n else [], dtype=np.int64))
    require_columns(frame.columns, by, "the table", "by= must name its grouping columns.")
    try:
        codes = frame.groupby(by, sort=False, dropna=False, observed=True).ngroup().to_numpy()
    except TypeError:  # unhashable values (lists, dicts, arrays) cannot key a group
        column = next(c for c in by if not _hashable(frame[c]))
        sample = next(v for v in frame[column] if not _is_hashable(v))
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


def _is_hashable(value) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _hashable(series: pd.Series) -> bool:
    return all(_is_hashable(value) for value in series)


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
) -> pd.DataFrame:
    """Stack per-group results with the grouping columns of ``frame`` leading.

    ``parts[i]`` is the result for ``groups[i]``; its rows get that group's key values
    (with the dtype of ``frame``'s columns). An empty result still has every column.
    """
    columns = list(columns)
    lengths = np.array([len(part) for part in parts], dtype=np.intp)
    parts = [part for part in parts if len(part)]
    if parts:
        body = pd.concat(parts, ignore_index=True)[columns]
    else:
        body = pd.DataFrame({c: pd.Series(dtype=_empty_dtype(c)) for c in columns})
    if not by:
        return body
    if isinstance(groups, Groups):
        firsts = groups.firsts
    else:
        firsts = np.array([g.positions[0] for g in groups], dtype=np.intp)
    keys = frame[by].iloc[np.repeat(firsts, lengths)].reset_index(drop=True)
    return pd.concat([keys, body], axis=1)


def table(columns: Mapping[str, object]) -> pd.DataFrame:
    """A pandas frame of ``columns`` (name -> 1-D array or Series), built column by column.

    ``pd.DataFrame(dict)`` copies columns of one dtype into a single 2-D block; this keeps
    every column its own block and does not copy numpy arrays (the frame owns them: do not
    pass arrays the caller still holds).
    """
    return pd.DataFrame(columns, copy=False)


def assemble(
    groups: Groups, lengths: np.ndarray, columns: Mapping[str, np.ndarray]
) -> pd.DataFrame:
    """A result table: the grouping columns of ``groups`` leading, then ``columns``.

    ``columns`` hold the rows of all groups, group after group, ``lengths[i]`` rows for
    group ``i`` (0 leaves the group out); the key columns repeat each group's key values
    with the dtype of the input frame's columns. Built column by column (:func:`table`).
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    body = dict(columns)
    if not groups.by:
        return table(body)
    rows = np.repeat(groups.firsts, lengths)
    keys = {c: groups.frame[c].iloc[rows].reset_index(drop=True) for c in groups.by}
    return table({**keys, **body})
