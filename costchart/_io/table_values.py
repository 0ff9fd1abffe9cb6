"""The values of costchart's tables, read as numbers and checked.

Every column costchart reads from a table it wrote (rates, counts, thresholds, ``pc``
and costs) is read once as float64 (:func:`numbers`) and checked to hold what the
table's kind promises (:func:`check_rates`, :func:`check_curve`, :func:`check_unit`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.exact import exact_column, float_exact

__all__ = [
    "COST_ROUNDING",
    "check_curve",
    "check_rates",
    "check_unit",
    "numbers",
    "series_numbers",
    "threshold_values",
]

#: Costs computed as ``fpr + pc * (1 - tpr - fpr)`` may round a true 0 to about -1e-17.
COST_ROUNDING = 1e-12

#: What an object column may hold where costchart reads numbers (big ints, Decimals, None).
_NUMBERS = frozenset({"integer", "floating", "mixed-integer-float", "decimal", "empty"})


def numbers(table: pd.DataFrame, column: str, name: str) -> np.ndarray:
    """Column ``column`` of ``table`` as float64 (missing values as NaN), or a clear error.

    Booleans and categories are refused too: no costchart column holds them where a
    number is read.
    """
    # Read once: each read builds a Series and copies its attrs.
    return series_numbers(table[column], column, name)


def threshold_values(table: pd.DataFrame, name: str, column: str = col.THRESHOLD) -> np.ndarray:
    """Thresholds as :func:`numbers` reads them, but exact: integers past 2**53 are kept.

    float64 where that is exact; otherwise (whole numbers past 2**53, as
    :func:`~costchart.roc_points` writes them) an object array of Python numbers, which
    :func:`costchart._io.exact.order_keys` compares exactly. ``numbers`` checks them first.
    """
    series = table[column]
    floats = series_numbers(series, column, name)
    raw = series.to_numpy()
    if raw.dtype.kind in "iuO" and not float_exact(raw):
        plain = exact_column(raw)
        plain[np.isnan(floats)] = np.nan  # missing values (None, pd.NA) as NaN
        return plain
    return floats


def series_numbers(series: pd.Series, column: str, name: str) -> np.ndarray:
    """:func:`numbers` of a column already read (``series``, named ``column`` in messages)."""
    dtype = series.dtype
    try:
        if pd.api.types.is_bool_dtype(dtype) or isinstance(dtype, pd.CategoricalDtype):
            raise TypeError  # one message for every non-numeric dtype
        if isinstance(dtype, np.dtype) and dtype.kind in "iuf":
            # numpy numbers: NaN is NaN already, and integers have none to look for
            return series.to_numpy().astype(np.float64, copy=False)
        text = pd.api.types.is_object_dtype(dtype) and (
            pd.api.types.infer_dtype(series, skipna=True) not in _NUMBERS
        )
        if text:
            raise TypeError  # a string "1" is text, though numpy would read it as 1.0
        try:
            return series.to_numpy(dtype=np.float64, na_value=np.nan)
        except OverflowError:  # Python integers past float64's range (exact thresholds)
            return np.array([_saturated(v) for v in series.tolist()], dtype=np.float64)
    except (TypeError, ValueError):
        msg = (
            f"column {column!r} of {name} must hold numbers, but has dtype "
            f"{dtype}; pass the table costchart made, or convert the column"
        )
        raise CostchartError(msg) from None


def _saturated(value) -> float:
    """A number as float64, ``±inf`` past its range; a missing value as NaN."""
    if pd.isna(value):
        return np.nan
    try:
        return float(value)
    except OverflowError:
        return float("inf") if value > 0 else float("-inf")


def _refuse(values: np.ndarray, bad: np.ndarray, column: str, name: str, must: str) -> None:
    if bad.any():
        position = int(np.flatnonzero(bad)[0])
        msg = (
            f"column {column!r} of {name} must hold {must}, but has "
            f"{float(values[position])!r} at position {position}"
        )
        raise CostchartError(msg)


def check_unit(table: pd.DataFrame, columns: Sequence[str], name: str, what: str) -> None:
    """Every value of ``columns`` is a number in [0, 1] (NaN refused)."""
    for column in columns:
        values = numbers(table, column, name)
        _refuse(values, ~((values >= 0) & (values <= 1)), column, name, f"{what} in [0, 1]")


def check_rates(table: pd.DataFrame, name: str) -> dict[str, np.ndarray]:
    """``fpr``/``tpr`` in [0, 1] (NaN refused), counts finite and >= 0, thresholds numeric.

    Returns the columns it checked, each read once, as ``Series.to_numpy()`` gives them
    (dtype kept), for callers that go on computing with them.
    """
    series = {c: table[c] for c in _CHECKED if c in table.columns}
    for column in (col.FPR, col.TPR):
        values = series_numbers(series[column], column, name)
        _refuse(values, ~((values >= 0) & (values <= 1)), column, name, "rates in [0, 1]")
    for column in (col.TP, col.FP, col.TN, col.FN):
        if column in series:
            values = series_numbers(series[column], column, name)
            bad = ~(np.isfinite(values) & (values >= 0))
            _refuse(values, bad, column, name, "finite, non-negative counts")
    if col.THRESHOLD in series:
        # NaN allowed: points may come without one
        series_numbers(series[col.THRESHOLD], col.THRESHOLD, name)
    return {c: values.to_numpy() for c, values in series.items()}


#: The columns :func:`check_rates` checks, in the order its messages come.
_CHECKED = (col.FPR, col.TPR, col.TP, col.FP, col.TN, col.FN, col.THRESHOLD)


def check_curve(table: pd.DataFrame, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Refuse ``pc`` outside [0, 1] or NaN and costs that are NaN, infinite or negative.

    Returns the ``pc`` and ``cost`` columns it read, as float64.
    """
    pc = numbers(table, col.PC, name)
    _refuse(pc, ~((pc >= 0) & (pc <= 1)), col.PC, name, "operating points in [0, 1]")
    # An envelope's rates travel on to selection tables: they must be rates too.
    check_unit(table, [c for c in (col.FPR, col.TPR) if c in table.columns], name, "rates")
    cost = numbers(table, col.COST, name)
    # Normalized expected cost FNR·pc + FPR·(1 - pc) lies in [0, 1].
    bad = ~(np.isfinite(cost) & (cost >= -COST_ROUNDING) & (cost <= 1 + COST_ROUNDING))
    _refuse(cost, bad, col.COST, name, "normalized costs in [0, 1]")
    return pc, cost
