"""Grouping values as a chart draws them: numbers, text, booleans and missing values.

A chart's grouping values (its ``classifier=`` and ``facet=`` columns and the others that
tell curves apart) go into the page as JSON, into scale domains and legends, and into
the Vega expressions that filter and label them. JSON has no dates, decimals, bytes,
tuples, complex numbers or infinities, and a browser holds integers exactly only up to
2**53, so :func:`drawable` gives a chart a copy of its table in which every grouping
column holding such values is text:

- dates and times read as ISO dates (``2020-01-31``; with the time of day,
  ``2020-01-31 08:30:00``, when any value of the column has one), so they sort in time;
- bytes read as their UTF-8 text; ``inf`` and ``-inf`` as ``"inf"`` and ``"-inf"``;
- everything else (``Decimal``, ``Period``, ``Interval``, ``Timedelta``, tuples,
  frozensets, complex numbers, integers past 2**53) as ``str()`` gives it.

Missing values stay missing (as None in text and other object columns: JSON has no
NaN). The user's table is never changed, and a column whose
values are all plain is passed on as it is. Values that differ but read the same as
text (``1`` and ``"1"`` in a column that needs converting) would merge two curves, and
are refused, naming the column.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._io.errors import CostchartError

__all__ = ["MAX_EXACT_INTEGER", "drawable", "drawable_values"]

#: The largest integer a browser (a JavaScript number) holds exactly.
MAX_EXACT_INTEGER = 2**53


def drawable(table: pd.DataFrame, columns: Sequence, what: str) -> pd.DataFrame:
    """``table`` with its ``columns`` as a chart can draw them (see the module's notes).

    Returns ``table`` itself when no column needs converting, otherwise a copy (the
    table's recorded kind and grouping kept) with the converted columns as text.

    Examples
    --------
    >>> import datetime, decimal
    >>> import pandas as pd
    >>> t = pd.DataFrame({"day": [datetime.date(2020, 1, 31)], "n": [decimal.Decimal("1.5")]})
    >>> drawable(t, ["day", "n"], "points").to_dict("list")
    {'day': ['2020-01-31'], 'n': ['1.5']}
    """
    converted = {}
    for column in dict.fromkeys(columns):
        if column in table.columns:
            values = drawable_values(table[column], f"column {column!r} of {what}")
            if values is not None:
                converted[column] = values
    if not converted:
        return table
    copy = table.copy(deep=False)  # copy-on-write: the user's frame is never changed
    for column, values in converted.items():  # object columns: missing values stay None
        copy[column] = pd.Series(values, index=table.index, dtype=object)
    return copy


def drawable_values(series: pd.Series, where: str) -> np.ndarray | None:
    """The values of ``series`` as text (object array, missing as None), or None if plain.

    ``where`` names the column in the message refusing values that read the same.
    """
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        if _all_plain(dtype.categories.to_numpy(object)):
            return None
    elif dtype.kind in "biu":
        if not len(series) or _exact(series):
            return None
    elif dtype.kind == "f":
        numbers = series.to_numpy(np.float64, na_value=np.nan)
        if not np.isinf(numbers).any():
            return None
    elif isinstance(dtype, pd.StringDtype):
        return None
    values = series.to_numpy(object)
    try:
        codes, uniques = pd.factorize(values)
    except TypeError:  # lists or dicts in cells: the grouping's own checks refuse them
        return None
    uniques = np.asarray(uniques, dtype=object)
    if _all_plain(uniques):
        return _missing_as_none(values, codes)
    texts = _texts(uniques)
    _refuse_clashes(uniques, texts, where)
    table = np.empty(len(texts) + 1, dtype=object)  # the last entry for missing (code -1)
    table[: len(texts)] = texts
    return table[codes]


def _missing_as_none(values: np.ndarray, codes: np.ndarray) -> np.ndarray | None:
    """Plain values with every missing one as None (JSON has no NaN), or None if so already."""
    missing = codes < 0
    if all(v is None for v in values[missing]):
        return None
    values = values.copy()
    values[missing] = None
    return values


def _exact(series: pd.Series) -> bool:
    """Whether whole numbers all lie where a browser holds them exactly."""
    if series.dtype.kind == "b":
        return True
    numbers = series.dropna()
    if not len(numbers):
        return True
    largest = max(abs(int(numbers.min())), abs(int(numbers.max())))
    return largest <= MAX_EXACT_INTEGER


def _plain(value) -> bool:
    """Whether JSON and Vega take ``value`` as it is (missing values count as plain)."""
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    if isinstance(value, (bool, np.bool_, str)):
        return True
    if isinstance(value, (int, np.integer)):
        return abs(int(value)) <= MAX_EXACT_INTEGER
    if isinstance(value, (float, np.floating)):
        return not np.isinf(value)
    return False


def _all_plain(values: np.ndarray) -> bool:
    return all(_plain(v) for v in values)


def _is_date(value) -> bool:
    return isinstance(value, (datetime.date, np.datetime64))


def _texts(uniques: np.ndarray) -> list[str]:
    """Each distinct value as text; dates as ISO dates, with a time of day if any has one."""
    dates = [_timestamp(v) for v in uniques if _is_date(v)]
    with_time = any(
        isinstance(d, datetime.datetime)
        and (d.tzinfo is not None or d.time() != datetime.time(0) or _nanoseconds(d))
        for d in dates
    )
    return [_text(v, with_time) for v in uniques]


def _timestamp(value):
    """A date or time as Python's own (``np.datetime64`` through pandas, when it can)."""
    if isinstance(value, np.datetime64):
        try:
            return pd.Timestamp(value)
        except (ValueError, OverflowError):  # past pandas' range: numpy's own text
            return value
    return value


def _nanoseconds(value) -> int:
    return int(getattr(value, "nanosecond", 0))


def _text(value, with_time: bool) -> str:
    if _is_date(value):
        value = _timestamp(value)
        if isinstance(value, np.datetime64):
            return str(value)
        if isinstance(value, datetime.datetime):
            return value.isoformat(sep=" ") if with_time else value.date().isoformat()
        return value.isoformat()
    if isinstance(value, (bytes, np.bytes_)):
        return bytes(value).decode("utf-8", errors="backslashreplace")
    if isinstance(value, (float, np.floating)) and np.isinf(value):
        return "inf" if value > 0 else "-inf"
    return str(value)


def _refuse_clashes(uniques: np.ndarray, texts: list[str], where: str) -> None:
    seen: dict[str, object] = {}
    for value, text in zip(uniques, texts, strict=True):
        if text in seen:
            msg = (
                f"{where} holds {seen[text]!r} and {value!r}, which differ but read the same "
                f"as text ({text!r}); a chart draws such values as text, so the two curves "
                "would merge: give each group a distinct name, e.g. with .astype(str) after "
                "making them distinct"
            )
            raise CostchartError(msg)
        seen[text] = value
