"""Checks of parameters: the options and scalar values passed to public functions.

Each check returns the normalized value (a float, an int, a numpy array or the option
itself) or raises :class:`~costchart.CostchartError` with a message that names the
parameter, the value received and the fix: probabilities and operating conditions,
numbers and whole numbers, options, flags, thresholds, seeds and column names. The checks
of the data itself (columns of scores, labels, weights, counts) live in
:mod:`costchart._io.data_checks`.
"""

from __future__ import annotations

import inspect
import math
import numbers
from collections.abc import Iterable, Mapping

import numpy as np

from costchart._io.errors import CostchartError, show
from costchart._io.exact import exact_number

__all__ = [
    "column_name",
    "confidence_level",
    "finite_number",
    "flag",
    "label_value",
    "labelled_probabilities",
    "matching_shapes",
    "one_of",
    "operating_points",
    "panel_size",
    "probabilities",
    "probability",
    "progress_option",
    "random_generator",
    "raw_data",
    "real_numbers",
    "text",
    "threshold_number",
    "threshold_pair",
    "unit_top",
    "whole_number",
]

#: Largest panel size in pixels: larger panels are no use on any screen or page.
MAX_SIZE = 10_000


def probability(value, name: str, *, low_open: bool = False, high_open: bool = False) -> float:
    """Return ``value`` as a float in [0, 1] (ends excluded when ``*_open``)."""
    return float(probabilities(value, name, low_open=low_open, high_open=high_open))


def confidence_level(value, name: str = "confidence_level") -> float:
    """Return ``value`` as a finite float strictly between 0 and 1."""
    return probability(finite_number(value, name), name, low_open=True, high_open=True)


def probabilities(value, name: str, *, low_open: bool = False, high_open: bool = False):
    """Return ``value`` (a number or array) as a float64 array (0-d for a number) in [0, 1].

    The ends are excluded when ``low_open`` / ``high_open``.
    """
    try:
        array = real_numbers(value, name)  # text such as "0.5" is a mistake, not a number
    except CostchartError as error:
        msg = f"{error}; pass a number between 0 and 1"
        raise CostchartError(msg) from None
    low_bad = array <= 0 if low_open else array < 0
    high_bad = array >= 1 if high_open else array > 1
    bad = low_bad | high_bad | np.isnan(array)
    if np.any(bad):
        first = float(array[bad].ravel()[0])
        interval = ("(" if low_open else "[") + "0, 1" + (")" if high_open else "]")
        msg = f"{name}={first!r} is outside {interval}; pass a value in {interval}"
        raise CostchartError(msg)
    return array


def one_of(value, name: str, options) -> str:
    """Return ``value`` if it is one of ``options``; else say which values are accepted.

    The one place that builds "x is not an option; pass one of ..." messages.
    """
    options = tuple(options)
    try:
        # True == 1 in Python; a bool only matches a bool option.
        accepted = any(
            bool(value == option) and isinstance(value, bool) == isinstance(option, bool)
            for option in options
        )
    except (TypeError, ValueError):  # arrays and other values without a plain ==
        accepted = False
    if not accepted:
        listed = ", ".join(repr(option) for option in options)
        msg = f"{name}={show(value)} is not an option; pass one of {listed}"
        raise CostchartError(msg)
    return value


def whole_number(value, name: str, *, minimum: int = 0, maximum: int | None = None) -> int:
    """Return ``value`` as an int, refusing non-integers, bools and values out of range.

    Floats that hold a whole number (``1000.0``) are accepted; NaN, strings and
    ``None`` are not.
    """
    whole = isinstance(value, numbers.Integral) or (
        isinstance(value, numbers.Real) and math.isfinite(value) and float(value).is_integer()
    )
    if isinstance(value, bool) or not whole:
        msg = f"{name}={show(value)} must be a whole number"
        raise CostchartError(msg)
    number = int(value)
    if number < minimum or (maximum is not None and number > maximum):
        upper = "" if maximum is None else f" and at most {maximum:,}"
        msg = f"{name}={show(value)} is out of range; pass a whole number at least {minimum}{upper}"
        raise CostchartError(msg)
    return number


def finite_number(value, name: str, *, minimum: float | None = None, positive: bool = False):
    """Return ``value`` as a finite float (``> 0`` when ``positive``, ``>= minimum`` if given)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        msg = f"{name}={show(value)} must be a number"
        raise CostchartError(msg)
    number = float(value)
    if not math.isfinite(number):
        msg = f"{name}={show(value)} must be a finite number"
        raise CostchartError(msg)
    if positive and number <= 0:
        msg = f"{name}={show(value)} must be greater than 0"
        raise CostchartError(msg)
    if minimum is not None and number < minimum:
        msg = f"{name}={show(value)} must be at least {minimum}"
        raise CostchartError(msg)
    return number


def unit_top(value, name: str = "y_max") -> float:
    """Return the top of a unit axis (``y_max``) as a float in (0, 1]."""
    number = finite_number(value, name)
    if not 0 < number <= 1:
        msg = f"{name}={number!r} is outside (0, 1]; pass a value in (0, 1]"
        raise CostchartError(msg)
    return number


def panel_size(value, name: str = "size") -> int:
    """Return a panel's size in pixels: a whole number from 50 to :data:`MAX_SIZE`."""
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, np.integer))
        or not 50 <= value <= MAX_SIZE
    ):
        msg = (
            f"{name}={show(value)} must be a whole number of pixels, at least 50 and at most "
            f"{MAX_SIZE:,}"
        )
        raise CostchartError(msg)
    return int(value)


def text(value, name: str) -> str:
    """Return ``value`` if it is a string (a title); refuse anything else."""
    if isinstance(value, str):
        return value
    msg = f"{name}={show(value)} must be a string (or None for no {name})"
    raise CostchartError(msg)


def label_value(value, name: str = "pos_label"):
    """Return ``value`` if it is one label value (hashable, not a list, tuple or dict)."""
    try:
        hash(value)
        single = np.ndim(value) == 0 and not isinstance(value, (tuple, dict))
    except (TypeError, ValueError):
        single = False
    if not single:
        msg = (
            f"{name}={show(value)} must be one label value (e.g. 1 or 'spam'): the label of the "
            "positive class, not a list"
        )
        raise CostchartError(msg)
    return value


def operating_points(value, name: str = "pc"):
    """Return ``value`` if it is a ``pc`` in [0, 1], a list or array of them, or a dict.

    A dict maps labels to ``pc`` values (chart markers).
    """
    if isinstance(value, Mapping):
        labelled_probabilities(value, name)
    elif isinstance(value, (str, bytes)):
        msg = (
            f"{name}={show(value)} must be a number or numbers, not {type(value).__name__}; pass a "
            f"pc in [0, 1], a list of them or a dict of label to pc"
        )
        raise CostchartError(msg)
    else:
        array = real_numbers(value, name)  # not text, bools or None
        if array.ndim == 0 and math.isnan(float(array)):
            msg = f"{name}=nan must be a finite number; pass a value in [0, 1]"
            raise CostchartError(msg)
        probabilities(array, name)
    return value


def random_generator(rng, name: str = "rng") -> np.random.Generator:
    """Return a numpy Generator from ``None``, a non-negative int seed or a Generator."""
    if rng is None or isinstance(rng, np.random.Generator):
        return np.random.default_rng(rng)
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool) and int(rng) >= 0:
        return np.random.default_rng(int(rng))
    msg = (
        f"{name}={rng!r} is not a seed; pass None, a non-negative whole number or a "
        "numpy.random.Generator"
    )
    raise CostchartError(msg)


def threshold_number(value, name: str = "threshold") -> float | int:
    """Return a classifier threshold ("positive when score >= t") as a number.

    ``+inf`` is the always-negative classifier and ``-inf`` the always-positive one; NaN
    (which no score reaches nor misses), strings and other non-numbers are refused. A
    whole number past 2**53, which float64 would round, comes back as an exact ``int``
    (compared with the scores by :func:`costchart._io.exact.order_keys`).
    """
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if not isinstance(value, numbers.Real):
        msg = (
            f"{name}={show(value)} must be a number (the classifier predicts positive when "
            "score >= threshold)"
        )
        raise CostchartError(msg)
    if not isinstance(value, numbers.Integral) and math.isnan(float(value)):
        msg = (
            f"{name}=nan is not a threshold; pass a number (inf for the always-negative "
            "classifier, -inf for the always-positive one)"
        )
        raise CostchartError(msg)
    return exact_number(value)


def threshold_pair(value, name: str = "threshold") -> tuple[float | int, float | int]:
    """Return a pair of thresholds ``(t_a, t_b)``, one per classifier, as numbers."""
    if not isinstance(value, tuple | list | np.ndarray) or len(value) != 2:
        msg = f"{name}={show(value)} must be a pair (t_a, t_b) of thresholds, one per classifier"
        raise CostchartError(msg)
    return threshold_number(value[0], f"{name}[0]"), threshold_number(value[1], f"{name}[1]")


def flag(value, name: str) -> bool:
    """Return ``value`` if it is a bool (numpy's included); refuse anything else."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    msg = f"{name}={show(value)} must be True or False"
    raise CostchartError(msg)


def labelled_probabilities(value, name: str) -> dict[str, float]:
    """Return labelled values in [0, 1] (e.g. chart markers) as a dict of label to float.

    ``value`` is a mapping of label to value, or a sequence of values (labelled
    ``"pc = 0.25"``). Strings, scalars, nested sequences and values outside [0, 1] are
    refused.
    """
    example = "e.g. {'3:1': 0.75} or [0.25, 0.75]"
    if isinstance(value, Mapping):
        labels: list[str] | None = [str(label) for label in value]
        values = list(value.values())
    elif isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        msg = (
            f"{name}={show(value)} must be a dict of label to pc or a list of pc values in "
            f"[0, 1], {example}"
        )
        raise CostchartError(msg)
    else:
        labels, values = None, list(value)
    numbers = probabilities(values, name)
    if numbers.ndim != 1:
        msg = f"{name}={show(value)} must hold one pc value per marker, {example}"
        raise CostchartError(msg)
    if labels is None:
        labels = [f"pc = {number:g}" for number in numbers]
    return {label: float(number) for label, number in zip(labels, numbers, strict=True)}


def real_numbers(value, name: str) -> np.ndarray:
    """Return a number or array-like of numbers as float64, refusing text and booleans.

    ``np.asarray(..., dtype=float)`` would read ``"0.3"`` and ``True`` as numbers; an
    option given as text or a bool is a mistake to report, not to guess. NaN is kept (the
    caller's range check refuses it with its own message).
    """
    if isinstance(value, (str, bytes)):
        msg = f"{name}={show(value)} must be a number or numbers, not {type(value).__name__}"
        raise CostchartError(msg)
    try:
        fast = np.asarray(value)
    except (TypeError, ValueError):  # ragged nesting
        fast = np.asarray([value], dtype=object)
    if fast.dtype.kind in "iuf" and not isinstance(value, (list, tuple)):
        return fast.astype(np.float64)  # arrays: no element-wise look (lists may hide bools)
    array = np.asarray(value, dtype=object) if fast.dtype != object else fast
    flat = array.ravel()
    real = (numbers.Real, np.integer, np.floating)
    wrong = [isinstance(v, (bool, np.bool_)) or not isinstance(v, real) for v in flat]
    if any(wrong):
        odd = flat[wrong.index(True)]
        shown = f"={show(value)}" if array.ndim == 0 else ""  # a container's repr can be long
        msg = f"{name}{shown} must be a number or numbers, not {type(odd).__name__} {odd!r}"
        raise CostchartError(msg)
    return array.astype(np.float64)


def column_name(value, name: str, *, optional: bool = False):
    """Return ``value`` if it names a column (a string); ``None`` too when ``optional``.

    Arrays and Series are refused with the fix: put them in the data as a column and
    pass that column's name.
    """
    if isinstance(value, str) or (optional and value is None):
        return value
    # Frames built from arrays have integer column names; MultiIndex columns, tuples.
    if isinstance(value, (numbers.Integral, tuple)) and not isinstance(value, (bool, np.bool_)):
        return value
    if hasattr(value, "__len__") and not isinstance(value, (bytes, tuple)):
        kind = type(value).__name__
        msg = (
            f"{name}= takes a column name, but got a {kind}; add the values to the data as a "
            f"column and pass its name, e.g. {name}='my_column'"
        )
        raise CostchartError(msg)
    msg = f"{name}={show(value)} must be a column name (a string)"
    raise CostchartError(msg)


def matching_shapes(**arrays: np.ndarray) -> list[np.ndarray]:
    """Broadcast the named arrays together, or say which shapes do not match."""
    try:
        return list(np.broadcast_arrays(*arrays.values()))
    except ValueError:
        shapes = ", ".join(f"{name} {np.shape(a)}" for name, a in arrays.items())
        msg = f"the shapes of {shapes} do not match; pass numbers or arrays of one shape"
        raise CostchartError(msg) from None


def raw_data(score, label, **raw_only) -> bool:
    """Whether a ``data_or_points`` argument is raw data (``score=`` and ``label=`` given).

    Neither given: a points table, which refuses the options of raw data (``raw_only``,
    e.g. ``pos_label=``, ``weight=``) that are not None. One given without the other is
    refused.
    """
    if score is None and label is None:
        for name, value in raw_only.items():
            if value is not None:
                msg = (
                    f"{name}={show(value)} applies to raw data; a points table has its classes "
                    "counted already: pass score= and label= with the raw data, or leave "
                    f"{name}= out"
                )
                raise CostchartError(msg)
        return False
    if score is None or label is None:
        given, missing = ("score", "label") if label is None else ("label", "score")
        msg = (
            f"{given}= is given but {missing}= is not: raw data needs both (the score and "
            "class columns); a table of ROC points needs neither"
        )
        raise CostchartError(msg)
    return True


def progress_option(value, name: str = "progress"):
    """``progress=``: ``True``, ``False`` or a callable taking one message (a string)."""
    if isinstance(value, (bool, np.bool_)) or (callable(value) and _takes_one(value)):
        return value
    msg = f"{name}={value!r} must be True, False or a callable taking a message"
    raise CostchartError(msg)


def _takes_one(function) -> bool:
    """Whether ``function`` can be called with one argument (True when it cannot be told)."""
    try:
        inspect.signature(function).bind("message")
    except TypeError:
        return False
    except ValueError:  # no signature (some builtins): let the call say
        return True
    return True
