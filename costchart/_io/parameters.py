"""One declaration of the public parameter words: what each takes, checked at every use.

Each word below is declared once, as scikit-learn's ``validate_params`` constraints are:
:class:`Word` says in words what it takes (``docs/glossary.md``'s *Types and values*
table shows the same text, checked by ``tests/test_glossary.py``), checks a value with the
checks of :mod:`costchart._validation` (so the messages name the parameter, the value and
the fix), and lists values outside it, which ``tests/test_parameters.py`` passes to every
public function that takes the word.

Public functions are decorated with :func:`checked`: before a function runs, every
declared word it was passed is checked against the one declaration, so a word has one
constraint wherever it appears. ``None`` passes where it is the function's default (it
means "the default": a pooled grouping, no title, the data's prevalence...) and, for the
words marked ``none``, everywhere. A function may narrow a word further (``explorer``'s
``pc`` is one number, ``auc``'s ``max_fpr`` above 0) and checks that itself.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from costchart._io.errors import CostchartError
from costchart._io.frames import normalize_by
from costchart._io.intervals import INFERENCES, INTERVALS
from costchart._io.validation import (
    column_name,
    confidence_level,
    finite_number,
    flag,
    label_value,
    one_of,
    operating_points,
    panel_size,
    probabilities,
    probability,
    progress_option,
    random_generator,
    real_numbers,
    text,
    unit_top,
    whole_number,
)
from costchart._roc.counting import check_bins

__all__ = [
    "AVERAGINGS",
    "RESAMPLINGS",
    "RESPONSE_METHODS",
    "THRESHOLD_CHOICES",
    "WORDS",
    "Word",
    "check",
    "checked",
]

F = TypeVar("F", bound=Callable[..., Any])

#: ``roc_average(averaging=)``: what is held fixed while the rates are averaged.
AVERAGINGS = ("vertical", "horizontal", "by_threshold")
#: ``resample_classes(resampling=)``: copy the class to weight, or thin the other one.
RESAMPLINGS = ("over", "under")
#: ``expected_loss(threshold_choice=)``: how the threshold is set at each ``pc``.
THRESHOLD_CHOICES = ("optimal", "score_driven", "rate_driven", "fixed")
#: scikit-learn's ``response_method``: which scores an estimator gives.
RESPONSE_METHODS = ("auto", "predict_proba", "decision_function")


@dataclass(frozen=True)
class Word:
    """A public parameter word: what it takes, its check, and values outside it."""

    takes: str
    """What the word takes, in the glossary's words."""
    check: Callable[[Any, str], object]
    """Raises a :class:`~costchart.CostchartError` naming the parameter for a bad value."""
    bad: tuple
    """Values outside the constraint (every one is refused wherever the word appears)."""
    example: object = None
    """A value inside it, for a function where the word is required."""
    options: tuple | None = None
    """The closed set of values, for a word that is one of a few strings."""
    none: bool = False
    """``None`` is accepted everywhere, not only where it is the function's default."""


def _options(*options: str, many: bool = False) -> Word:
    """A word that takes one of ``options`` (or, if ``many``, a list of them)."""
    listed = ", ".join(f"`{json.dumps(o)}`" for o in options)
    takes = f"one of {listed}" + (", or a list of them" if many else "")
    check = _one_or_many(options) if many else functools.partial(_one_of, options=options)
    bad = ("bogus", 3, True, *(["bogus"], []) * many)
    return Word(takes, check, bad, options[0], options=options)


def _one_of(value, name: str, *, options) -> str:
    return one_of(value, name, options)


def _one_or_many(options: tuple[str, ...]) -> Callable[[Any, str], object]:
    def check(value, name: str):
        listed = [value] if isinstance(value, str) else value
        choices = list(listed) if np.iterable(listed) else [listed]
        if not choices:
            msg = f"{name}={value!r} names no choice; pass one of {options} or a list"
            raise CostchartError(msg)
        for choice in choices:
            one_of(choice, name, options)
        return value

    return check


def _by(value, name: str):
    return normalize_by(value)  # () and [] pool on purpose


def _max_points(value, name: str) -> int:
    try:
        return whole_number(value, name, minimum=2)
    except CostchartError:  # one message for every bad value
        msg = f"{name}={value!r} must be a whole number of at least 2"
        raise CostchartError(msg) from None


def _bins(value, name: str):
    return check_bins(value)


def _positive(value, name: str):
    array = real_numbers(value, name)
    bad = ~(np.isfinite(array) & (array > 0))
    if np.any(bad):
        msg = f"{name}={float(array[bad].ravel()[0])!r} must be a positive, finite number"
        raise CostchartError(msg)
    return value


def _unit_numbers(value, name: str):
    return probabilities(value, name)


def _iso(value, name: str):
    values = np.atleast_1d(probabilities(value, name))
    if values.ndim != 1:
        msg = f"{name}={value!r} must be a list of operating points pc, one line each"
        raise CostchartError(msg)
    return value


def _max_fpr(value, name: str) -> float:
    return probability(finite_number(value, name), name)


_FLAG = Word("`True` or `False`", flag, ("yes", 1, None, 0.5))
_COLUMN = Word(
    "a column name (a string)", column_name, ([0.1, 0.9], 1.5, True, {"a": 1}), example="score"
)

#: Every declared word, by name.
WORDS: Mapping[str, Word] = {
    # grouping and data columns
    "by": Word(
        "a column name, a list of column names, `()` to pool on purpose, or `None` (a table: its "
        "recorded grouping; raw data: pooled)",
        _by,
        (3.5, True, [1, 2], ["a", "a"], {"a": 1}),
        example=(),
    ),
    **{
        name: _COLUMN
        for name in ("score", "label", "amount", "classifier", "instance", "tp", "fn", "fp", "tn")
    },
    "weight": Word(
        "a column name (a string), or `None` for no weights",
        functools.partial(column_name, optional=True),
        ([0.1, 0.9], 1.5, True),
        none=True,
    ),
    "pos_label": Word(
        'one label value (e.g. `1` or `"spam"`), not a list, or `None` (labels 0/1, -1/1 or '
        "False/True)",
        label_value,
        ([1], {"a": 1}, (1,)),
    ),
    # operating conditions and levels
    "pc": Word(
        "a number in [0, 1], a list or array of them, or `{label: number}`",
        operating_points,
        (1.5, -0.1, "0.5", float("nan"), [0.2, 2.0], True),
        example=0.5,
    ),
    "markers": Word(
        "a number in [0, 1], a list or array of them, or `{label: number}`",
        operating_points,
        (1.5, -0.1, "0.5", float("nan"), [0.2, 2.0], True),
        example=0.5,
    ),
    "iso": Word(
        "a number in [0, 1], or a list or array of them, one line each",
        _iso,
        (1.5, -0.1, "0.5", float("nan"), [0.2, 2.0], True, {"a": 0.5}),
    ),
    "p_pos": Word(
        "a number in [0, 1], or an array of them",
        _unit_numbers,
        (1.5, -0.1, "0.5", float("nan"), True),
        example=0.5,
    ),
    "cost_fn": Word(
        "a positive, finite number, or an array of them",
        _positive,
        (0, -1.0, "1", float("inf"), True),
    ),
    "cost_fp": Word(
        "a positive, finite number, or an array of them",
        _positive,
        (0, -1.0, "1", float("inf"), True),
    ),
    "max_fpr": Word(
        "a number in [0, 1]", _max_fpr, (1.5, -0.1, "0.1", float("nan"), True), example=0.1
    ),
    "confidence_level": Word(
        "a number in (0, 1)", confidence_level, (0, 1, 1.5, "0.9", float("nan"), True)
    ),
    # intervals and resampling
    "inference": _options(*INFERENCES),
    "interval": _options(*INTERVALS),
    "sampling": _options("stratified", "full"),
    "n_resamples": Word(
        "a whole number, at least 1",
        functools.partial(whole_number, minimum=1),
        (0, -5, 2.5, "100", True, None),
    ),
    "rng": Word(
        "`None`, a non-negative whole number (a seed) or a `numpy.random.Generator`",
        random_generator,
        (-1, 1.5, "seed", True),
    ),
    "progress": Word(
        "`True`, `False`, `None` or a callable taking a message",
        progress_option,
        ("yes", 1, 0.5),
        none=True,
    ),
    "simultaneous": _FLAG,
    # ways of computing
    "threshold_choice": _options(*THRESHOLD_CHOICES, many=True),
    "averaging": _options(*AVERAGINGS),
    "resampling": _options(*RESAMPLINGS),
    "spread": _options("range", "sd"),
    "of": _options("lines", "envelope"),
    "direction": _options("higher", "auto"),
    "response_method": _options(*RESPONSE_METHODS),
    "standardized": _FLAG,
    "bins": Word(
        "a whole number from 1 to 1,000,000,000, or `None` for every distinct score",
        _bins,
        (0, 2.5, "10", True),
        none=True,
    ),
    "steps": Word(
        "a whole number from 0 to 10,000",
        functools.partial(whole_number, minimum=0, maximum=10_000),
        (-1, 2.5, "20", True, 10_001),
    ),
    # what a chart draws, and how it looks
    "cost_lines": _options("all", "hull", "none"),
    "controls": _options("pc", "costs"),
    "axis": _options("tpr", "fpr"),
    "space": _options("roc", "cost"),
    "max_points": Word(
        "a whole number, at least 2, or `None` for every point",
        _max_points,
        (1, 2.5, "100", True),
        none=True,
    ),
    "max_total": Word(
        "a whole number, at least 2, or `None` for no total",
        _max_points,
        (1, 2.5, "3000", True),
        none=True,
    ),
    "y_max": Word(
        "a number in (0, 1], or `None` to fit the curves drawn",
        unit_top,
        (0, 1.5, "0.5", float("nan"), [0.5]),
        none=True,
    ),
    "size": Word(
        "a whole number of pixels, from 50 to 10,000", panel_size, (10, 10_001, 280.5, "280", True)
    ),
    "columns": Word(
        "a whole number, at least 1", functools.partial(whole_number, minimum=1), (0, 1.5, "3")
    ),
    "title": Word("a string", text, (3, ["a"])),
    "subtitle": Word("a string", text, (3, ["a"])),
    **{
        name: _FLAG
        for name in (
            "combined",
            "compact",
            "ranges",
            "show_auc",
            "show_band",
            "show_chance",
            "show_hull",
            "show_key",
            "show_owners",
            "show_roc",
        )
    },
}


def check(name: str, value):
    """``value`` checked against word ``name``'s declaration.

    ``None`` passes for the words that take it everywhere; elsewhere it is checked (a
    function whose default is ``None`` accepts it, see :func:`checked`).

    Examples
    --------
    >>> from costchart._io.parameters import check
    >>> check("confidence_level", 0.95)
    0.95
    >>> check("axis", "z")
    Traceback (most recent call last):
    ...
    costchart._io.errors.CostchartError: axis='z' is not an option; pass one of 'tpr', 'fpr'
    """
    if value is None and WORDS[name].none:
        return None
    return WORDS[name].check(value, name)


def checked(function: F) -> F:
    """Check the declared words ``function`` is passed against :data:`WORDS`, then call it.

    Only the arguments given are checked (every default is valid, by test); a call that
    does not bind to the signature (a missing argument, an option passed by position) is
    refused with the signature to follow.
    """
    signature = inspect.signature(function)
    declared = {
        name: parameter.default is None or WORDS[name].none
        for name, parameter in signature.parameters.items()
        if name in WORDS
    }

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            given = signature.bind(*args, **kwargs).arguments
        except TypeError:  # an old name (@renamed) or the function's own refusal first
            try:
                return function(*args, **kwargs)
            except TypeError as error:
                if not str(error).startswith(f"{function.__name__}()"):
                    raise
                msg = (
                    f"{error}; its data go by position and every option by keyword: "
                    f"{function.__name__}{signature}"
                )
                raise CostchartError(msg) from None
        for name, none_ok in declared.items():
            if name in given and not (none_ok and given[name] is None):
                WORDS[name].check(given[name], name)
        return function(*args, **kwargs)

    #: The declared words the function takes, each with whether it passes ``None`` on.
    wrapper.costchart_words = declared  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


def bound_call(public: inspect.Signature, name: str, args, kwargs) -> inspect.BoundArguments:
    """``public.bind(*args, **kwargs)``, or a :class:`CostchartError` listing ``name``'s options.

    The wrappers that add shared options to a function (the layers' and the charts') bind
    the call to the public signature they made.
    """
    try:
        return public.bind(*args, **kwargs)
    except TypeError as error:
        msg = f"{name}(): {error}; its options are {list(public.parameters)}"
        raise CostchartError(msg) from None
