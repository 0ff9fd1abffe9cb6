"""Input frames in, tidy pandas frames out.

Users hand costchart pandas, polars or pyarrow frames, or plain dicts of arrays. Every
function turns its input into a pandas frame holding only the columns it needs
(:func:`as_pandas`), after checking its column names and grouping columns
(:func:`require_columns`, :func:`normalize_by`, :func:`infer_by`). Results are built
column by column (:func:`table`). Splitting frames into groups and stacking per-group
results live in :mod:`costchart._io.groups`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from costchart._io import kinds as _kinds
from costchart._io.blocks import numeric_frame
from costchart._io.errors import CostchartError, separator_hint
from costchart._io.native import native_pandas
from costchart._io.schema import RESERVED

__all__ = [
    "GROUPING",
    "as_pandas",
    "carry_grouping",
    "check_by_names",
    "check_unique_columns",
    "describe_group",
    "infer_by",
    "is_hashable",
    "is_row_index",
    "mapping_columns",
    "normalize_by",
    "own_columns",
    "pandas_columns",
    "plain_key",
    "require_columns",
    "rows_only",
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
    names = set(available)
    missing = [c for c in needed if c not in names]
    if missing:
        listed = ", ".join(repr(c) for c in available)
        msg = f"{name} has no column {missing[0]!r}; available columns: {listed}. {fix}"
        raise CostchartError(msg + separator_hint(available))


def as_pandas(data, columns: Sequence[str], *, name: str = "data") -> pd.DataFrame:
    """Return the given ``columns`` of ``data`` as a pandas frame, without copying when possible.

    ``data`` may be a pandas, polars or pyarrow frame (anything narwhals reads eagerly) or a
    mapping of column name to array. The caller's object is never modified.
    """
    if isinstance(data, pd.DataFrame):
        frame = pandas_columns(data, columns, name)
    elif isinstance(data, Mapping):
        _check_column_names(columns, name)
        # Built from the wanted columns, in order: nothing to select (one frame, not two).
        return _frame_from_mapping(data, columns, name)
    else:
        _check_column_names(columns, name)
        frame = native_pandas(data, columns, name)
        require_columns(frame.columns, columns, name)
    # Column by column, without copying (faster than .loc for small frames).
    return pd.DataFrame({c: frame[c] for c in dict.fromkeys(columns)}, copy=False)


def pandas_columns(data: pd.DataFrame, columns: Sequence[str], name: str = "data") -> pd.DataFrame:
    """``data`` itself, once its ``columns`` are checked as :func:`as_pandas` checks them.

    For readers that take a few columns of a pandas frame as arrays (``data[c].to_numpy()``,
    as they would read them from :func:`as_pandas`' frame) without building a new frame.
    """
    _check_column_names(columns, name)
    names = data.columns
    if names.is_unique and all(c in names for c in columns):  # the common case, at once
        return data
    # Only the columns used matter: .loc would return a duplicated one twice.
    wanted = set(columns)
    check_unique_columns([c for c in names if c in wanted], name)
    require_columns(names, columns, name)
    return data


def _check_column_names(columns: Sequence[str], name: str) -> None:
    odd = next((c for c in columns if not isinstance(c, str) and not is_hashable(c)), None)
    if odd is not None:
        msg = (
            f"a column of {name} was given as a {type(odd).__name__}, not a column name; add "
            "the values to the data as a column and pass its name (a string)"
        )
        raise CostchartError(msg)


def mapping_columns(
    data: Mapping, columns: Sequence[str], *, name: str = "data"
) -> dict[str, np.ndarray] | None:
    """The ``columns`` of a dict of arrays as numpy arrays, checked as :func:`as_pandas` does.

    For 1-D arrays of numbers or booleans (numpy dtypes, native byte order), which a
    pandas frame holds unchanged, no frame is built: each comes back as a copy (as a
    frame holds it, so nothing computed on it can change the caller's array). For any
    other column (text, objects, a scalar to broadcast) the answer is None: build the
    frame with :func:`as_pandas`.
    """
    _check_column_names(columns, name)
    arrays = _checked_arrays(data, columns, name)
    plain = all(
        value.ndim == 1 and value.dtype.kind in "biuf" and value.dtype.isnative
        for value in arrays.values()
    )
    return {key: np.array(value) for key, value in arrays.items()} if plain else None


def rows_only(n: int) -> pd.DataFrame:
    """A frame of ``n`` rows and no columns: the rows of ungrouped data read without a frame."""
    return pd.DataFrame({}, index=pd.RangeIndex(n))


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
    return pd.DataFrame(_checked_arrays(data, columns, name))


def _checked_arrays(data: Mapping, columns: Sequence[str], name: str) -> dict[str, np.ndarray]:
    """The ``columns`` of ``data`` as numpy arrays, 1-D or scalars of one length."""
    arrays = {key: _unmasked(data[key]) for key in dict.fromkeys(columns) if key in data}
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
    return arrays


def _unmasked(value) -> np.ndarray:
    """``value`` as a numpy array; a masked array's masked values become NaN (missing)."""
    if isinstance(value, np.ma.MaskedArray) and np.ma.is_masked(value):
        return np.ma.filled(value.astype(np.float64), np.nan)
    return np.asarray(value)


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


#: The prefix of the fields costchart adds to the data of its charts (``costchart_table``,
#: ``costchart_row``, ...): no grouping column may start with it.
INTERNAL_PREFIX = "costchart_"
#: Where a table costchart writes records its grouping columns (``DataFrame.attrs``).
GROUPING = _kinds.GROUPING
#: Set on a points table that :func:`costchart.thin_points` dropped points from: functions
#: that need every threshold (the score-driven and fixed losses) refuse it.
THINNED = _kinds.THINNED


def carry_grouping(
    frame: pd.DataFrame, by: Sequence[str], kind: str | None = None, owners: Sequence[str] = ()
) -> pd.DataFrame:
    """Record ``by`` as ``frame``'s grouping, its kind and owners (returns ``frame``).

    See :mod:`costchart._io.kinds`: pandas keeps both through filtering, sorting, copying,
    ``reset_index`` and the concatenation of tables recording the same; merges, polars
    and dicts drop them, and a later call then asks for ``by=`` (see :func:`infer_by`).
    """
    return _kinds.record(frame, by, kind, owners)


def own_columns(table: pd.DataFrame) -> list:
    """The columns of ``table`` that costchart does not write (candidate groupings)."""
    return [
        c for c in table.columns if c not in RESERVED and not str(c).startswith(INTERNAL_PREFIX)
    ]


#: Names pandas gives an index made a column (``reset_index``).
_INDEX_NAMES = frozenset({"index", "level_0"})


def is_row_index(table: pd.DataFrame, column) -> bool:
    """Whether ``column`` is an index, not a grouping: named so, or one value per row."""
    if column in _INDEX_NAMES:
        return True
    if len(table) < 2:
        return False
    try:
        return bool(table[column].nunique(dropna=False) == len(table))
    except TypeError:  # unhashable cells
        return False


def infer_by(
    table: pd.DataFrame,
    by: str | Sequence[str] | None,
    *,
    name: str = "the table",
    declared: Sequence[object] | None = None,
) -> list[str]:
    """Grouping columns of a costchart table: ``by`` if given, else the grouping it records.

    A table costchart wrote records its grouping (:func:`carry_grouping`). Columns added
    to it later (a note per classifier, a row number from ``reset_index``) never group:
    the recorded grouping is the grouping, whatever their values; grouping columns
    dropped from it are simply gone (unless other columns appeared too, as when one is
    renamed: that is refused). A table that records none (made by hand, or passed
    through polars, a dict or a merge) is ungrouped when every column is costchart's, and
    refused otherwise: which of its other columns tell curves apart is for the caller to
    say with ``by=``; columns ``declared`` as groupings by the call's roles (a chart's
    ``color=`` and ``facet=``) need no saying. costchart's columns are those in
    :data:`costchart._io.schema.RESERVED` and any whose name starts with ``costchart_``.
    Whether the groups are one curve each is checked by the readers
    (:func:`costchart._io.curves.check_curves`).
    """
    if by is not None:
        return normalize_by(by)
    own = own_columns(table)
    roles = _roles(declared)
    carried = _kinds.recorded_grouping(table)
    if carried is not None:
        kept = [c for c in carried if c in table.columns]
        added = [c for c in own if c not in kept]
        declared_here = [c for c in added if c in roles]
        others = [c for c in added if c not in declared_here and not is_row_index(table, c)]
        # All of it there, or some dropped (filtered to one data set) with nothing new:
        # the recorded grouping, and the columns a chart or layer declares (color=, facet=).
        if len(kept) == len(carried) or not others:
            return kept + declared_here
    extra = [c for c in own if c not in roles]
    if not extra:
        return [c for c in own if c in roles]
    if carried is not None:
        extra = [c for c in extra if c not in carried] or extra
        why = (
            f"carries the grouping {carried!r}, but lost some of it while these appeared "
            "(a grouping column renamed?)"
        )
    else:
        why = "carries no grouping (it was made by hand, or went through polars, a dict or a merge)"
    index = [c for c in own if is_row_index(table, c)]
    groupings = [c for c in own if c not in index]
    drop = f"; drop {index!r} (one value per row: an index, not a grouping)" if index else ""
    fix = (
        f"by={groupings!r} groups by all of them, by=[] reads one curve{drop}"
        if declared is None
        else f"by={groupings!r} names them in a chart (detail= in a layer), or drop them{drop}"
    )
    msg = (
        f"{name} has columns costchart did not write ({', '.join(map(repr, extra))}) and "
        f"{why}; say which columns tell its curves apart: {fix}"
    )
    raise CostchartError(msg)


def _roles(declared) -> set:
    """Columns declared by roles; unhashable values (a list as color=) declare nothing."""
    return {c for c in declared or () if c is not None and is_hashable(c)}


def check_by_names(by: list[str]) -> None:
    """Refuse grouping columns that would clash with the columns costchart writes."""
    clash = [c for c in by if c in RESERVED or str(c).startswith(INTERNAL_PREFIX)]
    if clash:
        msg = (
            f"by={by!r} includes {clash[0]!r}, a column name costchart writes itself; "
            "rename that grouping column"
        )
        raise CostchartError(msg)


def is_hashable(value) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def table(columns: Mapping[str, object]) -> pd.DataFrame:
    """A pandas frame of ``columns`` (name -> 1-D array or Series), built column by column.

    ``pd.DataFrame(dict)`` copies columns of one dtype into a single 2-D block; this keeps
    every column its own block and does not copy numpy arrays (the frame owns them: do not
    pass arrays the caller still holds).
    """
    return numeric_frame(columns)
