"""Scores and thresholds compared exactly, whatever their size.

float64 holds every integer up to 2**53 exactly; beyond, it rounds distinct integers to
one value (2**53 and 2**53 + 1 both become 2**53). Integer scores past that size stay
int64, uint64 or Python integers (:func:`costchart._io.data_checks.finite_scores`), and
so do the thresholds made of them (an object column of Python integers). Wherever such
values meet -- a threshold given by the user against a table's thresholds, a selection
table against the scores -- they are compared through :func:`order_keys`, which gives
float64 keys with the same order and ties as the values themselves, and tables write
them with :func:`exact_column`, which keeps them as they are.
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from costchart._io import schema as col

__all__ = [
    "EXACT_IN_FLOAT",
    "exact_column",
    "exact_number",
    "float_exact",
    "order_keys",
    "ranked_integers",
    "values_of_ranks",
    "with_values",
]

#: Integers up to this size are exact in float64.
EXACT_IN_FLOAT = 2**53


def exact_number(value) -> int | float:
    """A number as a Python ``float``, or as an ``int`` if float64 would round it."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        if abs(int(value)) > EXACT_IN_FLOAT:
            return int(value)
    return float(value)


def _plain(values: np.ndarray) -> np.ndarray:
    """An object array whose numpy scalars are Python numbers (exact comparisons)."""
    if values.dtype != object:
        return np.array(values.tolist(), dtype=object).reshape(values.shape)
    out = np.empty(values.shape, dtype=object)
    out[...] = [v.item() if isinstance(v, np.generic) else v for v in values.ravel()]
    return out


def _too_big(value) -> bool:
    return (
        isinstance(value, numbers.Integral | np.integer)
        and not isinstance(value, bool | np.bool_)
        and abs(int(value)) > EXACT_IN_FLOAT
    )


def float_exact(values) -> bool:
    """Whether float64 keeps the order and ties of ``values`` (no integer past 2**53)."""
    array = np.asarray(values)
    if array.dtype.kind in "iu":
        return not len(array) or (
            int(array.min()) >= -EXACT_IN_FLOAT and int(array.max()) <= EXACT_IN_FLOAT
        )
    if array.dtype == object:
        return not any(_too_big(v) for v in array.ravel())
    return True


def exact_column(values) -> np.ndarray:
    """``values`` as float64 where that is exact, else an object array of Python numbers.

    Thresholds written to a table: whole numbers past 2**53 stay exact, as
    :func:`~costchart.roc_points` writes them.
    """
    array = np.asarray(values)
    if float_exact(array):
        if array.dtype == object:
            missing = np.asarray(pd.isna(array), dtype=bool)
            values = zip(array.tolist(), missing, strict=True)
            return np.array([np.nan if m else float(v) for v, m in values], np.float64)
        return array.astype(np.float64, copy=False)
    return _plain(array)


def order_keys(*arrays) -> tuple[np.ndarray, ...]:
    """float64 keys of ``arrays`` with the same order and ties across all of them.

    ``a[i] >= b[j]`` exactly when ``keys_a[i] >= keys_b[j]``; NaN (or None) stays NaN.
    Values float64 keeps exactly are their own keys; otherwise each value's key is its
    rank among the distinct values of all the arrays, found with exact comparisons of
    Python numbers (integers of any size, floats, ``±inf``).
    """
    given = [np.asarray(a) for a in arrays]
    if all(float_exact(a) for a in given):
        return tuple(exact_column(a) for a in given)
    parts = []
    for array in given:
        if array.dtype.kind in "biuf":
            distinct, inverse = np.unique(array, return_inverse=True)
            missing = np.isnan(array) if array.dtype.kind == "f" else np.zeros(len(array), bool)
        else:
            plain = _plain(array)
            missing = np.asarray(pd.isna(plain), dtype=bool)  # None, NaN, pd.NA
            inverse = np.zeros(len(plain), dtype=np.int64)
            distinct, inverse[~missing] = np.unique(plain[~missing], return_inverse=True)
        parts.append((distinct.tolist(), inverse.reshape(-1), missing))
    everything = sorted({v for distinct, _, _ in parts for v in distinct if v == v})
    rank = {v: float(i) for i, v in enumerate(everything)}
    keys = []
    for distinct, inverse, missing in parts:
        mapped = np.array([rank.get(v, np.nan) for v in distinct], dtype=np.float64)
        key = mapped[inverse] if len(inverse) else np.zeros(0)
        key[missing] = np.nan
        keys.append(key)
    return tuple(keys)


def ranked_integers(array: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Scores in an object column holding integers past 2**53, made countable exactly.

    ``array`` holds Python (or numpy) numbers, finite, some of them integers past 2**53.
    Whole numbers that fit come back as int64 or uint64 (and None); anything else --
    integers past 2**64, or integers mixed with fractions -- as the int64 rank of each
    score among the distinct scores, with those (sorted, exact Python numbers): the
    counting kernels count ranks, and :func:`values_of_ranks` gives the thresholds back.
    """
    plain = _plain(array)
    if all(isinstance(v, numbers.Integral) for v in plain):
        low, high = min(plain, default=0), max(plain, default=0)
        for dtype in (np.int64, np.uint64):
            info = np.iinfo(dtype)
            if int(info.min) <= low and high <= int(info.max):
                return np.array(plain.tolist(), dtype=dtype), None
    distinct, inverse = np.unique(plain, return_inverse=True)
    return inverse.reshape(-1).astype(np.int64), distinct


def values_of_ranks(thresholds: np.ndarray, values: np.ndarray) -> np.ndarray:
    """A ``threshold`` column counted on ranks (:func:`ranked_integers`) with the values.

    ``±inf`` (the trivial classifiers) stay; every other threshold is a rank into
    ``values``. Returns an object array of Python numbers.
    """
    thresholds = np.asarray(thresholds)
    out = np.empty(len(thresholds), dtype=object)
    ranks = thresholds.astype(np.float64)
    finite = np.isfinite(ranks)
    out[~finite] = ranks[~finite].tolist()
    out[finite] = values[ranks[finite].astype(np.int64)]
    return out


def with_values(points, values: np.ndarray | None):
    """Points (a frame, or its columns) counted on ranks of ``values``, with the values.

    The ``threshold`` column then holds the exact scores (:func:`values_of_ranks`);
    ``values`` None (scores counted as they are) leaves the points as they are.
    """
    if values is not None and points is not None:
        points[col.THRESHOLD] = values_of_ranks(np.asarray(points[col.THRESHOLD]), values)
    return points
