"""What a band table says about itself: its level and inference, and the key entry naming them.

Band tables carry ``attrs["costchart"]``, a dict with ``confidence_level``, ``inference``,
``interval``, ``sampling`` and ``n_resamples`` (and, for a difference, ``a``, ``b``
and ``classifier``; for a compact band, ``compact``). pandas keeps ``attrs`` through
filtering and column selection; a table that went through another library, a merge or a
concatenation of different bands loses them. Where a description is needed and missing,
the reader warns and says which argument supplies it (``band_label=``, ``names=``,
``confidence_level=``).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from costchart._bands.compact import TOLERANCE
from costchart._bands.options import Options
from costchart._io.drawable import drawable_values
from costchart._io.errors import CostchartError, warn

__all__ = ["ATTRS", "band_label", "describe", "pair_of", "recorded_level", "recorded_names"]

#: The key of the band's description in ``DataFrame.attrs``.
ATTRS = "costchart"


#: What a band covers, by where its thresholds come from (``attrs["costchart"]["covers"]``).
COVERS = {
    "fixed": "the true cost of fixed thresholds (threshold= or selection=)",
    "chosen": "the true cost of the thresholds chosen on these data (the choice resampled)",
    "as_if_fixed": (
        "the cost of the thresholds chosen on these data as if they were fixed: optimistic"
    ),
    # The two choices' optimism largely cancels in a difference: docs/bands.md measures it.
    "difference_chosen": (
        "the true difference of the thresholds each classifier chose on these data (as if "
        "fixed; the two choices' optimism largely cancels)"
    ),
}


def describe(options: Options, *, fixed: bool = True, compact: bool = False, **extra) -> dict:
    """The description a band table records of the options it was made with.

    ``fixed`` says whether the thresholds were given (``threshold=``, ``selection=``) or
    chosen on the data banded (the envelope's); ``"covers"`` says which quantity the band
    covers, from :data:`COVERS`. A compact band (``compact=True``) records ``"compact"``:
    the largest difference from the full band between its rows
    (:data:`costchart._bands.compact.TOLERANCE`), which readers interpolate linearly.
    """
    if compact:
        extra["compact"] = TOLERANCE
    if fixed:
        covers = COVERS["fixed"]
    elif options.inference == "smoothed_bootstrap":
        covers = COVERS["chosen"]
    elif "a" in extra:  # a difference of two classifiers' own envelopes
        covers = COVERS["difference_chosen"]
    else:
        covers = COVERS["as_if_fixed"]
    return {
        "confidence_level": float(options.confidence_level),
        "inference": options.inference,
        "interval": options.interval,
        "sampling": options.sampling,
        "n_resamples": int(options.n_resamples),
        "covers": covers,
        **extra,
    }


def band_label(table) -> str:
    """The key entry of a band, in the papers' terms, from what the table recorded.

    Parameters
    ----------
    table : pandas.DataFrame
        A table from :func:`costchart.bootstrap_band`, :func:`costchart.confusion_band`
        or :func:`costchart.difference_band`.

    Returns
    -------
    str
        E.g. ``"90 % exact bootstrap band"``, ``"95 % bootstrap band (normal fit to the
        exact moments)"``, ``"90 % bootstrap band (2,000 resamples)"`` or, for the default
        band of the envelope's own thresholds, ``"90 % bootstrap band (choice of
        thresholds resampled; 2,000 resamples)"``; ``"confidence band"`` when the table
        carries no description.

    Examples
    --------
    >>> import costchart as cc
    >>> band = cc.bootstrap_band({"s": [3, 2, 1, 0], "y": [1, 0, 1, 0]}, score="s", label="y",
    ...                          inference="exact_bootstrap", interval="discrete", pc=[0.5])
    >>> cc.band_label(band)
    '90 % exact bootstrap band'
    >>> cc.band_label(cc.bootstrap_band({"s": [3, 2, 1, 0], "y": [1, 0, 1, 0]}, score="s",
    ...                                 label="y", pc=[0.5], rng=0))
    '90 % bootstrap band (choice of thresholds resampled; 2,000 resamples)'
    """
    recorded = getattr(table, "attrs", {}).get(ATTRS)
    if not isinstance(recorded, dict) or "confidence_level" not in recorded:
        return "confidence band"
    level = f"{100 * recorded['confidence_level']:.4g} %"
    sampling = "" if recorded.get("sampling", "stratified") == "stratified" else ", full sampling"
    chosen = recorded.get("inference") == "smoothed_bootstrap"
    choice = "choice of thresholds resampled; " if chosen else ""
    if recorded.get("simultaneous"):
        return (
            f"{level} simultaneous bootstrap band (whole curve; {choice}"
            f"{recorded['n_resamples']:,} resamples{sampling})"
        )
    if chosen:
        return f"{level} bootstrap band ({choice}{recorded['n_resamples']:,} resamples{sampling})"
    # Tables made before the interval vocabulary recorded method= and distribution=.
    inference = recorded.get("inference", _OLD_INFERENCE.get(str(recorded.get("method"))))
    interval = recorded.get("interval", _OLD_INTERVAL.get(str(recorded.get("distribution"))))
    if inference == "bootstrap":
        return f"{level} bootstrap band ({recorded['n_resamples']:,} resamples{sampling})"
    if interval == "discrete":
        return f"{level} exact bootstrap band" + (f" ({sampling[2:]})" if sampling else "")
    # "auto" is the normal fit for a difference (it records a and b).
    if interval == "normal" or "a" in recorded:
        return f"{level} bootstrap band (normal fit to the exact moments{sampling})"
    return f"{level} bootstrap band (normal fit; exact quantiles near 0{sampling})"


#: What the old recorded ``method`` and ``distribution`` are in the interval vocabulary.
_OLD_INFERENCE = {"exact": "exact_bootstrap", "resample": "bootstrap"}
_OLD_INTERVAL = {"auto": "auto", "normal": "normal", "exact": "discrete"}


def _recorded(table) -> dict:
    recorded = getattr(table, "attrs", {}).get(ATTRS)
    return recorded if isinstance(recorded, dict) else {}


def pair_of(a, b) -> tuple[str, str] | None:
    """The names ``a=`` and ``b=`` of the two classifiers compared, checked; ``None`` if neither.

    Examples
    --------
    >>> pair_of("logistic", "tree")
    ('logistic', 'tree')
    """
    if a is None and b is None:
        return None
    for name, value in (("a", a), ("b", b)):
        if not isinstance(value, str) or not value:
            msg = (
                f"{name}={value!r} must be a non-empty string, the name of a classifier "
                "compared; pass both a= and b="
            )
            raise CostchartError(msg)
    if a == b or "tie" in (a, b):
        msg = f"a={a!r} and b={b!r} must be two distinct names other than 'tie'"
        raise CostchartError(msg)
    return a, b


def recorded_names(table, names) -> tuple[str, str]:
    """The names of a difference band's ``a`` and ``b``: ``names``, else those recorded.

    Without either, warns and returns ``("a", "b")``.
    """
    if names is not None:
        if (
            isinstance(names, (str, bytes))
            or not isinstance(names, Sequence)
            or len(names) != 2
            or not all(isinstance(n, str) and n for n in names)
        ):
            msg = f"names={names!r} must be two non-empty strings: the names of a and b"
            raise CostchartError(msg)
        _refuse_swapped(table, names)
        return names[0], names[1]
    recorded = _recorded(table)
    a, b = recorded.get("a"), recorded.get("b")
    if a is None or b is None:
        warn(
            "the difference table does not record which classifiers are a and b (it went "
            "through another library, a merge or a concatenation); they are called 'a' and "
            "'b': pass a= and b= to name them"
        )
        return "a", "b"
    # As the charts draw them: a date as 2020-01-31, bytes as their text, ...
    texts = drawable_values(pd.Series([a, b], dtype=object), "the names of a and b")
    return (str(a), str(b)) if texts is None else (str(texts[0]), str(texts[1]))


def _refuse_swapped(table, names) -> None:
    """Refuse ``a=``, ``b=`` that name the band's two classifiers the other way round.

    Other names are display names (a shorter or prettier label); the recorded two swapped
    would call the wrong classifier cheaper.
    """
    recorded = _recorded(table)
    a, b = recorded.get("a"), recorded.get("b")
    if a is None or b is None or str(a) == str(b):
        return
    if (names[0], names[1]) == (str(b), str(a)):
        msg = (
            f"a={names[0]!r} and b={names[1]!r} swap the classifiers the band compares "
            f"(its difference is {str(a)!r} minus {str(b)!r}); pass a={str(a)!r}, "
            f"b={str(b)!r} (or leave them out), or make the band with a={names[0]!r}, "
            f"b={names[1]!r}"
        )
        raise CostchartError(msg)


def recorded_compact(table) -> bool | None:
    """Whether a band table records that it is compact (``compact=True``).

    ``None`` when it records nothing (it went through another library, a merge or a
    concatenation): a full band and a compact band then look alike.
    """
    recorded = _recorded(table)
    if "confidence_level" not in recorded:
        return None
    return "compact" in recorded


def recorded_level(table) -> float | None:
    """The confidence level a band table recorded, or ``None``."""
    level = _recorded(table).get("confidence_level")
    return None if level is None else float(level)
