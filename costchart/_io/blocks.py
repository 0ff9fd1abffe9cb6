"""Result frames built one block per column, without pandas' checks of every column.

``pd.DataFrame(dict_of_arrays, copy=False)`` keeps each numpy column as its own block, but
checks and converts every column and builds the column index from a list of names: about
70 microseconds for the seven columns of a points table, more than counting a thousand
scores. For numeric numpy columns named by strings, which need no conversion,
:func:`numeric_frame` hands the same blocks to
``pandas.api.internals.create_dataframe_from_blocks`` (pandas 3), with the column index made
once per tuple of names; other columns, and older pandas, take ``pd.DataFrame``. The frame
is the same either way (columns, dtypes, blocks, index).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import numpy as np
import pandas as pd

try:  # pandas 3
    from pandas.api.internals import create_dataframe_from_blocks
except ImportError:  # pragma: no cover - older pandas build the frame as ever
    create_dataframe_from_blocks = None

__all__ = ["numeric_frame"]

#: Column dtypes pandas holds as numpy arrays unchanged (no inference, no conversion).
_AS_THEY_ARE = frozenset("biuf")


def numeric_frame(columns: Mapping[str, object]) -> pd.DataFrame:
    """``pd.DataFrame(columns, copy=False)``, faster for numeric numpy columns.

    Each column stays its own block, uncopied (the frame owns the arrays), as
    ``pd.DataFrame`` keeps them; the index is a ``RangeIndex``.
    """
    named = all(type(name) is str for name in columns)
    arrays = _plain(list(columns.values())) if named else None
    if create_dataframe_from_blocks is None or not arrays:
        return pd.DataFrame(columns, copy=False)
    blocks = [(a[np.newaxis, :], np.array([k], dtype=np.intp)) for k, a in enumerate(arrays)]
    return create_dataframe_from_blocks(
        blocks, index=pd.RangeIndex(len(arrays[0])), columns=_names(tuple(columns)).copy()
    )


def _plain(values: list) -> list[np.ndarray] | None:
    """``values`` if each is a 1-D numeric numpy array, all of one length; else None."""
    first = values[0] if values else None
    n = len(first) if type(first) is np.ndarray and first.ndim == 1 else -1
    plain = all(
        type(a) is np.ndarray
        and a.ndim == 1
        and len(a) == n
        and a.dtype.kind in _AS_THEY_ARE
        and a.dtype.isnative
        and (a.dtype.kind != "f" or a.dtype.itemsize >= 4)  # float16: pandas' own way
        for a in values
    )
    return values if plain else None


@functools.lru_cache(maxsize=256)
def _names(names: tuple) -> pd.Index:
    """The column index of ``names`` (strings), as ``pd.DataFrame`` makes it (copied before use)."""
    return pd.DataFrame(columns=list(names)).columns
