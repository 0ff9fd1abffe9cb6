"""Tables as ``costchart table`` writes them: spreadsheet-safe CSV and strict JSON.

Text cells that could start a formula get a leading ``'`` (OWASP's convention against
"CSV injection"); numbers stay numbers. JSON is strictly valid: NaN is null and the
infinities are the strings ``"Infinity"`` and ``"-Infinity"``.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

__all__ = ["guard", "json_text", "spreadsheet_safe"]


# A spreadsheet runs a cell starting with one of these as a formula (OWASP, "CSV injection").
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def guard(cell):
    """A text cell that cannot start a formula: prefixed with ``'`` (OWASP's convention)."""
    if isinstance(cell, str) and cell.startswith(_FORMULA_STARTS):
        return "'" + cell
    return cell


def spreadsheet_safe(table: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``table`` whose text cells and names are guarded; numbers stay numbers.

    Only text is guarded: a negative number is a number, not a formula.
    """
    safe = table.copy()
    for position in range(table.shape[1]):
        values = table.iloc[:, position]
        if not (
            pd.api.types.is_numeric_dtype(values.dtype)
            or pd.api.types.is_bool_dtype(values.dtype)
            or pd.api.types.is_datetime64_any_dtype(values.dtype)
            or pd.api.types.is_timedelta64_dtype(values.dtype)
        ):
            # Cell by cell into an object column: Series.map would infer a dtype, and
            # float64 rounds whole numbers past 2**53 (exact thresholds) in the CSV.
            guarded = [guard(cell) for cell in values.tolist()]
            safe.isetitem(position, pd.Series(guarded, index=values.index, dtype=object))
    safe.columns = [guard(name) for name in table.columns]
    return safe


def _json_cell(value):
    """A cell as strict JSON: NaN becomes null, infinities the strings "Infinity"/"-Infinity"."""
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
    return value


def _json_other(value):
    """What :func:`json.dumps` cannot write by itself: numpy scalars, timestamps, missing."""
    if value is pd.NaT or value is pd.NA:
        return None
    if isinstance(value, np.generic):
        return _json_cell(value.item())
    if isinstance(value, (pd.Timestamp, pd.Timedelta)):
        return value.isoformat()
    return str(value)


def json_text(table: pd.DataFrame) -> str:
    """The table as a JSON list of row objects, strictly valid (no NaN or Infinity tokens)."""
    names = [str(name) for name in table.columns]
    columns = [
        [_json_cell(value) for value in table.iloc[:, position].tolist()]
        for position in range(table.shape[1])
    ]
    rows = (
        json.dumps(dict(zip(names, row, strict=True)), allow_nan=False, default=_json_other)
        for row in zip(*columns, strict=True)
    )
    return ("[\n" + ",\n".join(rows) + "\n]\n") if len(table) else "[]\n"
