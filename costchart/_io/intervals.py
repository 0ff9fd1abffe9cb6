"""One vocabulary for confidence intervals: how an interval is made, and its shape.

Every function that gives a confidence interval or band (:func:`~costchart.auc_ci`,
:func:`~costchart.bootstrap_band`, :func:`~costchart.confusion_band`,
:func:`~costchart.difference_band`, :func:`~costchart.net_benefit`) takes the same two
words, with the same values wherever the meaning is the same (see ``docs/glossary.md``):

- ``inference=``, how the sampling distribution of the estimate is found:
  ``"exact_bootstrap"`` (the bootstrap's moments or whole distribution computed in closed
  form, no resampling), ``"bootstrap"`` (``n_resamples`` resamples drawn with ``rng``) or
  ``"delong"`` (DeLong's variance of an AUC);
- ``interval=``, the shape of the interval taken from it, as scipy.stats.bootstrap's
  ``method=``: ``"normal"`` (estimate plus and minus a normal quantile times the standard
  error), ``"percentile"`` (quantiles of the resampled estimates), ``"discrete"`` (quantiles
  of the exact discrete bootstrap distribution), or ``"auto"``, the shape each function
  recommends for the inference.

``"exact"`` alone is no value of either: "exact" always means the closed-form bootstrap.
Each function validates both against the whole vocabulary first, then refuses a
combination it does not compute, naming one it does (:func:`check_interval`). The old
spellings stay one release, with a ``FutureWarning`` (:func:`band_aliases`,
:func:`auc_ci_aliases`, :func:`coverage_aliases`).
"""

from __future__ import annotations

from collections.abc import Mapping

from costchart._io.deprecation import ABSENT, renamed_value, take_alias
from costchart._io.errors import CostchartError
from costchart._io.validation import one_of

__all__ = [
    "INFERENCES",
    "INTERVALS",
    "SUPPORTED",
    "auc_ci_aliases",
    "band_aliases",
    "check_interval",
    "coverage_aliases",
]

#: How an interval is made, each with what it is (in messages).
INFERENCES = {
    "exact_bootstrap": "the bootstrap computed in closed form, no resampling",
    "bootstrap": "resampled bootstrap",
    "delong": "DeLong's variance",
    "smoothed_bootstrap": (
        "resampled from smoothed scores, the thresholds chosen again in each resample"
    ),
    "auto": "the function's recommended inference",
}
#: The shapes of an interval, each with what it is (in messages).
INTERVALS = {
    "auto": "the function's recommended shape",
    "normal": "a normal fit",
    "percentile": "percentiles of resamples",
    "discrete": "quantiles of the exact discrete distribution",
    "studentized": "quantiles of the resamples' studentized deviations (bootstrap-t)",
}

_BANDS = {
    "exact_bootstrap": ("auto", ("normal", "discrete")),
    "bootstrap": ("percentile", ("percentile",)),
}
#: For each interval function and each inference it computes: the shape ``"auto"`` is
#: (``"auto"`` itself where the function chooses per row) and the other shapes it takes.
SUPPORTED: Mapping[str, Mapping[str, tuple[str, tuple[str, ...]]]] = {
    "auc_ci": {
        "delong": ("normal", ("normal",)),
        "exact_bootstrap": ("normal", ("normal",)),
        "bootstrap": ("percentile", ("percentile",)),
    },
    "bootstrap_band": {
        **_BANDS,
        "smoothed_bootstrap": ("studentized", ("studentized",)),
    },
    "confusion_band": _BANDS,
    "difference_band": _BANDS,
    "net_benefit": {
        "exact_bootstrap": ("normal", ("normal", "discrete")),
        "bootstrap": ("percentile", ("percentile",)),
    },
}


def check_interval(function: str, inference, interval) -> tuple[str, str]:
    """``(inference, interval)`` checked against the vocabulary and ``function``'s support.

    ``interval="auto"`` becomes the shape the function uses for the inference (it stays
    ``"auto"`` where the function chooses at each row, as the cost bands do).
    """
    one_of(inference, "inference", INFERENCES)
    one_of(interval, "interval", INTERVALS)
    supported = SUPPORTED[function]
    if inference not in supported:
        offered = " or ".join(repr(name) for name in supported)
        msg = (
            f"inference={inference!r} ({INFERENCES[inference]}) is not available in "
            f"{function}; pass inference={offered}"
        )
        raise CostchartError(msg)
    auto, shapes = supported[inference]
    if interval == "auto":
        return inference, auto
    if interval in shapes:
        return inference, interval
    others = [name for name, (_, own) in supported.items() if interval in own]
    if others:
        fix = f"pass inference={others[0]!r} ({INFERENCES[others[0]]})"
    else:
        fix = "pass interval=" + " or ".join(repr(s) for s in ("auto", *shapes))
    msg = (
        f"interval={interval!r} ({INTERVALS[interval]}) is not available with "
        f"inference={inference!r} in {function}; {fix}"
    )
    raise CostchartError(msg)


def band_aliases(function: str, kwargs: dict) -> None:
    """The bands' ``method=`` and ``distribution=`` as ``inference=`` and ``interval=``."""
    method = take_alias(function, kwargs, "method", "inference")
    distribution = take_alias(function, kwargs, "distribution", "interval")
    if method is not ABSENT:
        kwargs["inference"] = renamed_value(
            function,
            "method",
            method,
            "inference",
            {"exact": "exact_bootstrap", "resample": "bootstrap"},
        )
    if distribution is not ABSENT:
        interval = renamed_value(
            function,
            "distribution",
            distribution,
            "interval",
            {"auto": "auto", "normal": "normal", "exact": "discrete"},
        )
        # Resampling ignored distribution= (its band is the percentiles).
        if kwargs.get("inference") != "bootstrap":
            kwargs["interval"] = interval
            # distribution= was the shape of the exact bootstrap's band, the bands' default
            # inference then (bootstrap_band's default is now "auto").
            kwargs.setdefault("inference", "exact_bootstrap")


def auc_ci_aliases(function: str, kwargs: dict) -> None:
    """``auc_ci(method=)`` as ``inference=``.

    ``method="bootstrap"`` was the exact bootstrap's variance, and with
    ``interval="percentile"`` the resampled bootstrap.
    """
    method = take_alias(function, kwargs, "method", "inference")
    if method is ABSENT:
        return
    resampled = kwargs.get("interval") == "percentile"
    kwargs["inference"] = renamed_value(
        function,
        "method",
        method,
        "inference",
        {"delong": "delong", "bootstrap": "bootstrap" if resampled else "exact_bootstrap"},
    )


def coverage_aliases(function: str, kwargs: dict) -> None:
    """The coverage experiments' ``distribution=`` as ``interval=``."""
    distribution = take_alias(function, kwargs, "distribution", "interval")
    if distribution is not ABSENT:
        kwargs["interval"] = renamed_value(
            function,
            "distribution",
            distribution,
            "interval",
            {"auto": "auto", "normal": "normal", "exact": "discrete"},
        )
