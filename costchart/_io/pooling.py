"""Raw data pooled without a word: the warning when ``by=None`` meets columns that group.

``by=None`` pools every row of the data into one curve. When the data also holds text or
categorical columns (``classifier``, ``dataset``), the user most likely forgot ``by=``: 12
curves with AUCs from 0.70 to 0.93 pooled into one give a single AUC of 0.81. The call
still pools, as asked, and warns naming those columns; ``by=()`` pools on purpose,
without the warning.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from costchart._io.errors import warn
from costchart._io.native import native_names

__all__ = ["text_columns_left_out", "warn_if_pooled"]


def warn_if_pooled(data, by, used: Sequence[str | None]) -> None:
    """Warn when ``by`` is None and ``data`` has text or categorical columns not ``used``.

    ``used`` are the columns the call reads (score, label, weight, ...; None skipped).
    Only the column types are read (no values), for every kind of input costchart takes.
    The warning points at the user's line, however deep in costchart it is issued.
    """
    if by is not None:
        return
    grouping = text_columns_left_out(data, used)
    if not grouping:
        return
    listed = ", ".join(repr(c) for c in grouping)
    msg = (
        f"by= was not given, so every row is pooled into one curve, but the data has text "
        f"or categorical columns ({listed}) that may tell curves apart; pass "
        f"by={grouping!r} for one curve per group, or by=() to pool on purpose"
    )
    warn(msg)


def text_columns_left_out(data, used: Sequence[str | None]) -> list:
    """The text and categorical columns of ``data`` (of several values) not in ``used``.

    The columns a grouping that reads ``used`` (score, label, the grouping itself, ...)
    would pool; the command line warns of them even when ``--by`` names some columns.
    """
    skip = {c for c in used if isinstance(c, str)}  # a bad name is refused by the reader
    if isinstance(data, pd.DataFrame) and _only(data.columns, skip):
        return []  # every column is used: none left out (no dtypes to read)
    return [c for c in _text_columns(data) if c not in skip]


def _only(names: pd.Index, used: set) -> bool:
    """Whether ``names`` (a frame's columns) are ``used`` columns and nothing else."""
    return names.is_unique and sum(c in names for c in used) == len(names)


def _text_columns(data) -> list:
    """Names of the text and categorical columns of ``data`` (any frame kind or a dict).

    A column of one value (the data filtered to one classifier) cannot tell curves apart
    and is left out; a lazy frame's values are not read (only its column types). Called
    once the data has been read, so ``data`` is a frame the readers accept.
    """
    if isinstance(data, pd.DataFrame):  # by position: a name may repeat (unread columns)
        text = [k for k, dtype in enumerate(data.dtypes) if _is_text(dtype)]
        found = [data.columns[k] for k in text if _several(data.iloc[:, k])]
        return list(dict.fromkeys(found))
    if isinstance(data, Mapping):
        listed = [name for name, values in data.items() if _is_text_values(values)]
        return [name for name in listed if _several(pd.Series(data[name]))]
    import narwhals.stable.v2 as nw

    names = native_names(data)
    if names is not None and len(set(names)) < len(names) and hasattr(data, "rename_columns"):
        # pyarrow: narwhals refuses repeated names, so the columns are read by position
        frame = nw.from_native(data.rename_columns([str(k) for k in range(len(names))]))
        return list(dict.fromkeys(names[int(k)] for k in _text_of(nw, frame)))
    return _text_of(nw, nw.from_native(data))


def _text_of(nw, frame) -> list:
    kinds = (nw.String, nw.Categorical, nw.Enum)
    schema = frame.collect_schema()
    names = [name for name, dtype in schema.items() if isinstance(dtype, kinds) or dtype in kinds]
    if isinstance(frame, nw.DataFrame):  # eager: its values are at hand, unlike a lazy frame's
        names = [name for name in names if frame[name].n_unique() > 1]
    return names


def _several(values: pd.Series) -> bool:
    try:
        return bool(values.nunique(dropna=False) > 1)
    except TypeError:  # unhashable cells: say so
        return True


def _is_text(dtype) -> bool:
    if isinstance(dtype, pd.CategoricalDtype) or pd.api.types.is_string_dtype(dtype):
        return True
    return pd.api.types.is_object_dtype(dtype)


def _is_text_values(values) -> bool:
    if isinstance(values, pd.Series):
        return _is_text(values.dtype) and not pd.api.types.is_bool_dtype(values.dtype)
    if isinstance(values, np.ndarray):
        return values.dtype.kind in "OUS"
    if isinstance(values, (list, tuple)) and values:
        return isinstance(values[0], str)
    return False
