"""Frames of other libraries read as pandas: column names as given, and wide integers.

narwhals reads polars, pyarrow and lazy frames, but refuses a pyarrow table with two
columns of one name (pandas and pyarrow allow them), and polars' 128-bit integers do not
convert to pandas. Here, as for a pandas frame (:func:`costchart._io.frames.as_pandas`),
only the columns a call reads must be named once: :func:`native_names` gives a frame's
names as its library holds them, duplicates included, and :func:`select_unique` keeps
the columns read of a pyarrow table before narwhals sees it. :func:`to_pandas` converts
128-bit integer columns exactly: to 64-bit integers where the values fit, else to Python
integers (which the data checks refuse or read exactly).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from costchart._io.errors import CostchartError

__all__ = ["native_names", "native_pandas", "select_unique", "to_pandas", "unique_names"]

_INT64 = (-(2**63), 2**63 - 1)
_UINT64 = (0, 2**64 - 1)


def native_names(data) -> list | None:
    """``data``'s column names as its library holds them (duplicates kept), or None.

    pyarrow tables list theirs in ``column_names``; pandas, DuckDB, Dask and Spark
    frames in ``columns``. polars frames (which never repeat a name) give None, as does
    anything else: narwhals reads their names.
    """
    names = getattr(data, "column_names", None)  # pyarrow: .columns holds the arrays
    if isinstance(names, list):
        return names
    if hasattr(data, "collect_schema"):  # polars (eager or lazy): unique names
        return None
    names = getattr(data, "columns", None)
    if names is None or callable(names) or isinstance(names, (str, bytes)):
        return None
    try:
        return list(names)
    except TypeError:
        return None


def unique_names(names: Sequence, wanted: Sequence, name: str) -> None:
    """Refuse the first of ``wanted`` that ``names`` holds more than once."""
    seen: set = set()
    twice: set = set()
    for column in names:
        try:
            (twice if column in seen else seen).add(column)
        except TypeError:  # an unhashable name is nothing a call reads
            continue
    clash = [c for c in dict.fromkeys(wanted) if c in twice]
    if clash:
        listed = ", ".join(repr(c) for c in clash)
        msg = (
            f"{name} has more than one column named {listed}; rename or drop the "
            "duplicates so that every column name is unique"
        )
        raise CostchartError(msg)


def select_unique(data, wanted: Sequence, name: str):
    """``data`` itself, or a pyarrow table of only the ``wanted`` columns if it repeats a name.

    A name read twice is refused (:func:`unique_names`); other repeated names are
    dropped, as a pandas frame's are ignored: narwhals would refuse the whole table.
    """
    names = native_names(data)
    if names is None or len(set(names)) == len(names):
        return data
    unique_names(names, wanted, name)
    if hasattr(data, "select") and isinstance(getattr(data, "column_names", None), list):
        present = [names.index(c) for c in dict.fromkeys(wanted) if c in names]
        return data.select(present)  # pyarrow: by position, without copying
    return data


def native_pandas(data, columns: Sequence[str], name: str) -> pd.DataFrame:
    """The ``columns`` of an eager polars or pyarrow frame as a pandas frame."""
    import narwhals.stable.v2 as nw

    from costchart._io.frames import require_columns

    data = select_unique(data, columns, name)
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
    return to_pandas(frame.select(list(dict.fromkeys(columns))))


def to_pandas(frame) -> pd.DataFrame:
    """An eager narwhals frame as pandas; 128-bit integers kept exact.

    pandas has no 128-bit integers (and pyarrow cannot take polars'): a column of them
    becomes int64 or uint64 when its values fit, and Python integers (dtype object)
    otherwise.
    """
    import narwhals.stable.v2 as nw

    wide = [c for c, dtype in frame.schema.items() if dtype in (nw.Int128, nw.UInt128)]
    if not wide:
        return frame.to_pandas()
    casts, objects = [], {}
    for column in wide:
        low, high = frame[column].min(), frame[column].max()
        if low is None or (_INT64[0] <= low and high <= _INT64[1]):
            casts.append(nw.col(column).cast(nw.Int64))
        elif _UINT64[0] <= low and high <= _UINT64[1]:
            casts.append(nw.col(column).cast(nw.UInt64))
        else:
            objects[column] = pd.Series(frame[column].to_list(), dtype=object)
    order = list(frame.columns)
    result = frame.with_columns(*casts).drop(list(objects)).to_pandas()
    for column, values in objects.items():
        result[column] = values.to_numpy()
    return result[order]
