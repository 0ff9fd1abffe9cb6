"""Checks of the data: the columns of values read from the user's tables.

Each check takes a column's values (or any array-like) and returns them as a numpy array
or raises :class:`~costchart.CostchartError` with a message that names the column, how
many values are wrong, the first one and the fix: finite numbers, non-negative weights and
counts, positive costs, binary class labels, scores and thresholds. The checks of
parameters (options and scalar values) live in :mod:`costchart._io.validation`.
"""

from __future__ import annotations

import numbers
from decimal import Decimal

import numpy as np
import pandas as pd

from costchart._io.errors import CostchartError, show
from costchart._io.exact import exact_column, float_exact, ranked_integers

__all__ = [
    "binary_labels",
    "distinct_keys",
    "enough_of_each_class",
    "exact_scores",
    "finite_numbers",
    "finite_scores",
    "frequency_weights",
    "nonnegative_numbers",
    "positive_costs",
    "threshold_numbers",
    "whole_counts",
]


def _first_position(bad: np.ndarray) -> int:
    return int(np.flatnonzero(bad)[0])


def finite_numbers(values, what: str, *, fix: str = "drop or impute them") -> np.ndarray:
    """Return ``values`` as a float64 array, refusing non-numeric, NaN and infinite entries.

    ``what`` names the source in messages, e.g. ``"column 'score'"``.
    """
    array = np.asarray(values)
    if array.dtype == object:
        text = next((v for v in array.ravel() if isinstance(v, (str, bytes))), None)
        if text is not None:  # "0.5" would convert, but text is not a number to rank by
            msg = (
                f"{what} must hold numbers, but holds text such as {text!r}; convert it to "
                "a numeric dtype (e.g. with pandas.to_numeric)"
            )
            raise CostchartError(msg)
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError):
            sample = next((v for v in array if not isinstance(v, numbers.Real)), array[0])
            msg = (
                f"{what} must hold numbers, but holds {sample!r} (dtype object); "
                "convert it to a numeric dtype"
            )
            raise CostchartError(msg) from None
    if array.dtype.kind not in "biuf":
        msg = (
            f"{what} must hold numbers, but has dtype {array.dtype}; convert it to a numeric dtype"
        )
        raise CostchartError(msg)
    array = array.astype(np.float64, copy=False)
    finite = np.isfinite(array)
    if not finite.all():
        nan = np.isnan(array)
        if nan.any():
            msg = (
                f"{what} has {int(nan.sum())} NaN values (first at position "
                f"{_first_position(nan)}); {fix}"
            )
        else:
            inf = ~finite
            msg = (
                f"{what} has {int(inf.sum())} infinite values (first at position "
                f"{_first_position(inf)}, {array[inf][0]}); {fix}"
            )
        raise CostchartError(msg)
    return array


def _refuse_where(bad: np.ndarray, array: np.ndarray, what: str, kind: str, fix: str) -> None:
    """Raise naming how many entries are ``bad`` (described as ``kind``) and the first one."""
    if bad.any():
        position = _first_position(bad)
        msg = (
            f"{what} has {int(bad.sum())} {kind} (first at position {position}, "
            f"{array[position]}); {fix}"
        )
        raise CostchartError(msg)


def nonnegative_numbers(values, what: str) -> np.ndarray:
    """Return finite, non-negative float64 values (weights, counts, costs)."""
    array = finite_numbers(values, what, fix="pass finite, non-negative numbers")
    _refuse_where(array < 0, array, what, "negative values", "pass non-negative numbers")
    return array


def frequency_weights(values, what: str, purpose: str) -> np.ndarray:
    """Return non-negative whole-number weights (frequency weights) as float64.

    A weight of ``k`` stands for ``k`` copies of its instance. ``purpose`` names what
    resamples instances (e.g. ``"bootstrap_band's bootstrap"``): a resampling draws
    whole instances, so a fractional weight has no meaning there and is refused.
    """
    array = nonnegative_numbers(values, what)
    fractional = array != np.floor(array)
    if fractional.any():
        row = int(np.flatnonzero(fractional)[0])
        msg = (
            f"{what} has {int(fractional.sum())} weights that are not whole numbers (first "
            f"at row {row}: {float(array[row])!r}); {purpose} resamples whole instances, so a "
            "weight must count how many times its instance occurs. Round the weights, or "
            "pass frequency weights (whole numbers)"
        )
        raise CostchartError(msg)
    return array


def positive_costs(values, what: str) -> np.ndarray:
    """Return finite, strictly positive float64 values (ROCIV's instance costs)."""
    costs = finite_numbers(values, what, fix="every instance needs a cost")
    fix = "ROCIV needs every cost and benefit > 0"
    _refuse_where(costs <= 0, costs, what, "costs that are not positive", fix)
    return costs


_DEFAULT_POSITIVES = ({0, 1}, {-1, 1}, {False, True})


def binary_labels(values, what: str, pos_label=None) -> np.ndarray:
    """Return a boolean array, True where the label is the positive class.

    Without ``pos_label`` the labels must be 0/1, -1/1 or False/True (positive: 1 / True),
    as in scikit-learn. Labels with one value only are allowed here (callers decide what a
    one-class group means); more than two values, or missing labels, are refused.
    """
    if pos_label is not None and (np.ndim(pos_label) != 0 or isinstance(pos_label, (tuple, dict))):
        msg = f"pos_label={show(pos_label)} must be one value: the label of the positive class"
        raise CostchartError(msg)
    array = np.asarray(values)
    if array.dtype == bool and pos_label is None:
        return array
    missing = pd.isna(array) if array.dtype.kind in "fOUSmM" else None
    if missing is not None and np.any(missing):
        msg = (
            f"{what} has {int(np.sum(missing))} missing values (first at position "
            f"{_first_position(np.asarray(missing))}); drop those rows or fill in their labels"
        )
        raise CostchartError(msg)
    if array.dtype.kind in "iu" and array.size and int(array.max()) - int(array.min()) < 4096:
        low = int(array.min())  # small integer codes: a bincount beats hashing
        found = np.flatnonzero(np.bincount((array.ravel() - low).astype(np.intp))) + low
    else:
        try:
            found = pd.unique(array.ravel())
        except TypeError:  # unhashable cells, e.g. lists or arrays
            msg = (
                f"{what} holds values that are not class labels (e.g. lists or arrays); pass "
                "one label per instance"
            )
            raise CostchartError(msg) from None
    shown = sorted(found.tolist(), key=repr)
    if len(found) > 2:
        listed = ", ".join(repr(v) for v in shown[:5]) + (", ..." if len(found) > 5 else "")
        msg = (
            f"{what} must have two classes, but has {len(found)} distinct values ({listed}); "
            "map it to two classes first"
        )
        raise CostchartError(msg)
    if pos_label is None:
        values_found = set(found.tolist())
        if not any(values_found <= allowed for allowed in _DEFAULT_POSITIVES):
            listed = ", ".join(repr(v) for v in shown)
            msg = (
                f"{what} has the values {listed}; say which one is the positive class "
                "with pos_label="
            )
            raise CostchartError(msg)
        pos_label = True if array.dtype == bool else 1
    elif pos_label not in set(found.tolist()):
        listed = ", ".join(repr(v) for v in shown)
        if len(found) == 2:
            msg = f"pos_label={show(pos_label)} is not a value of {what}; pass one of {listed}"
            raise CostchartError(msg)
    return np.asarray(array == pos_label, dtype=bool)


def enough_of_each_class(
    positives: float, negatives: float, *, least: int, where: str, purpose: str, fix: str = ""
) -> None:
    """Refuse a group with fewer than ``least`` instances of a class, naming the class.

    ``where`` places the group (e.g. " in group 'fold'=1", or ""), ``purpose`` says what
    needs them (e.g. "DeLong variance") and ``fix`` what to do, after a semicolon.
    """
    if positives >= least and negatives >= least:
        return
    short = "positives" if positives < least else "negatives"
    msg = (
        f"{_counted(positives, 'positive')} and {_counted(negatives, 'negative')}{where}: "
        f"{purpose} needs at least {least} of each class"
    )
    raise CostchartError(msg + (f"; {fix.format(short=short)}" if fix else ""))


def distinct_keys(values, what: str) -> None:
    """Refuse names or keys where a bool and a number equal to it would be one value.

    ``True == 1`` and ``False == 0`` in Python, so pandas takes them for one name (one
    classifier, one group). Only object columns can hold both kinds.
    """
    if not pd.api.types.is_object_dtype(values):  # read no other column value by value
        return
    array = values.to_numpy() if isinstance(values, pd.Series) else np.asarray(values)
    if not array.size:
        return
    if pd.api.types.infer_dtype(array, skipna=True) not in ("mixed", "mixed-integer"):
        return  # one kind of value (or bools with text), nothing equal across kinds
    flags = np.fromiter((isinstance(v, bool | np.bool_) for v in array), bool, len(array))
    bools = {bool(array[i]): int(i) for i in np.flatnonzero(flags)[::-1]}
    for i in np.flatnonzero(~flags):
        value = array[i]
        if not isinstance(value, numbers.Number) or not bools:
            continue
        for truth, at in bools.items():
            if value == truth:
                shown = show(value)
                msg = (
                    f"{what} holds {truth!r} (row {at}) and {shown} (row {int(i)}), which "
                    f"pandas takes for one value ({truth!r} == {shown} in Python); make "
                    "the column text, e.g. data[column] = data[column].astype(str)"
                )
                raise CostchartError(msg)


def threshold_numbers(values, what: str) -> np.ndarray:
    """Return thresholds as float64, refusing non-numbers and NaN (``±inf`` are allowed).

    Whole numbers past 2**53, which float64 would round, stay exact (an object array).

    ``what`` names the source in messages, e.g. ``"column 'threshold' of selection"``.
    """
    array = given = np.asarray(values)
    if array.dtype == object or array.dtype.kind not in "biuf":
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError):
            msg = (
                f"{what} must hold numbers (thresholds), but has dtype {array.dtype}; "
                "convert it to a numeric dtype"
            )
            raise CostchartError(msg) from None
    array = array.astype(np.float64, copy=False)
    _refuse_where(
        np.isnan(array),
        array,
        what,
        "NaN thresholds",
        "every interval needs a threshold (inf: always negative, -inf: always positive)",
    )
    return array if float_exact(given) else exact_column(given)


def whole_counts(values, what: str) -> np.ndarray:
    """Return counts of instances as float64: finite, non-negative whole numbers."""
    array = nonnegative_numbers(values, what)
    _refuse_where(
        array != np.floor(array),
        array,
        what,
        "values that are not whole numbers",
        "pass counts of instances (whole numbers)",
    )
    return array


def finite_scores(values, what: str) -> np.ndarray:
    """Return scores as an array that keeps their order and ties exactly.

    Integer scores stay int64 or uint64: beyond 2**53 float64 would round distinct
    integers to one value and make false ties. Anything else is checked and converted
    as by :func:`finite_numbers` (float64, no NaN or infinite values). Integers beyond
    64 bits, which only :func:`exact_scores` counts (by rank), are refused.
    """
    scores, ranked = exact_scores(values, what)
    if ranked is not None:
        msg = (
            f"{what} holds integers beyond 64 bits (from {ranked[0]} to {ranked[-1]}); "
            "this function ranks integer scores as 64-bit integers: subtract an offset or "
            "rescale them so that they fit"
        )
        raise CostchartError(msg)
    return scores


def exact_scores(values, what: str) -> tuple[np.ndarray, np.ndarray | None]:
    """:func:`finite_scores`, taking Python integers of any size exactly too.

    Returns the scores and None, or -- for an object column of numbers with integers
    beyond int64 and uint64, or mixed with fractions, past 2**53 -- the rank of each
    score and the sorted distinct scores (:func:`costchart._io.exact.ranked_integers`).
    """
    array = np.asarray(values)
    if array.dtype.kind == "i":
        return array.astype(np.int64, copy=False), None
    if array.dtype.kind == "u":
        return array.astype(np.uint64, copy=False), None
    if array.dtype != object:
        return finite_numbers(array, what), None
    whole = _whole_objects(array)  # Python integers or whole decimals: kept exact
    if whole is not None:
        return ranked_integers(whole)  # int64 or uint64, or ranks past 64 bits
    if array.ndim == 1 and not float_exact(array) and all(map(_real, array)):
        # Integers past 2**53 beside fractions: ranked exactly (NaN and infinite
        # values among the fractions are refused as ever).
        finite_numbers([0.0 if isinstance(v, numbers.Integral) else v for v in array], what)
        return ranked_integers(array)
    numbers_ = finite_numbers(array, what)
    if len(pd.unique(numbers_)) < len(pd.unique(array)):  # e.g. decimals of 20 digits
        msg = (
            f"{what} holds {len(pd.unique(array))} distinct numbers, but only "
            f"{len(pd.unique(numbers_))} remain distinct as float64 (the precision scores "
            "are ranked with), which would tie instances that differ; round the scores "
            "to float64 yourself, or rescale them"
        )
        raise CostchartError(msg)
    return numbers_, None


def _real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_)


def _whole_objects(array: np.ndarray) -> np.ndarray | None:
    """Python integers (or whole decimals) as Python ints; None if some are not whole."""
    values = []
    for value in array.ravel():
        if isinstance(value, (bool, np.bool_)):
            return None
        if isinstance(value, numbers.Integral):
            values.append(int(value))
        elif isinstance(value, Decimal) and value.is_finite() and value == value.to_integral():
            values.append(int(value))
        else:
            return None
    if not values:
        return None
    whole = np.empty(len(values), dtype=object)
    whole[:] = values
    return whole


def _counted(count, noun: str) -> str:
    """``1 positive``, ``0 negatives``, ``2.5 positives`` (weighted counts)."""
    return f"{count:.15g} {noun}" + ("" if count == 1 else "s")
