"""Pairing two classifiers' rows on the same instances, for paired comparisons.

Long-format data (one row per classifier and instance) is split into the two
classifiers' rows aligned by instance id by :func:`paired`, which refuses what cannot be
paired: unhashable names or ids, a missing classifier, an instance scored twice by one
classifier or by only one of them, and rows that disagree on the label;
:func:`is_scalar_name` checks that ``a=`` / ``b=`` name one classifier. Both the
difference band (:mod:`costchart._bands.difference`) and DeLong's paired test of two AUCs
(:mod:`costchart._roc.auc_ci`) read their pairs this way.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from costchart._io.data_checks import distinct_keys, frequency_weights
from costchart._io.errors import CostchartError, listed, show

__all__ = ["instance_weights", "is_scalar_name", "paired"]


def is_scalar_name(value) -> bool:
    """Whether ``value`` can name one classifier (a string, number or other scalar)."""
    return bool(np.ndim(value) == 0) and not isinstance(value, (tuple, dict, set))


def paired(frame: pd.DataFrame, classifier: str, instance: str, names, label: str):
    """Split ``frame`` into the two classifiers' rows, aligned by instance; refuse unpaired."""
    for column, what in ((classifier, "classifier names"), (instance, "instance ids")):
        try:
            pd.unique(frame[column])
        except TypeError:  # unhashable cells, e.g. lists
            msg = f"column {column!r} holds values that are not {what} (e.g. lists); fix it"
            raise CostchartError(msg) from None
        distinct_keys(frame[column], f"column {column!r} (the {what})")
    present = list(pd.unique(frame[classifier]))
    if names is None:
        if len(present) < 2:
            msg = (
                f"column {classifier!r} has one classifier ({listed(present, limit=5)}); a "
                "comparison needs two: pass the rows of both classifiers"
            )
            raise CostchartError(msg)
        if len(present) > 2:
            msg = (
                f"column {classifier!r} has {len(present)} classifiers "
                f"({listed(present, limit=5)}); "
                "pass a= and b= to say which two to compare"
            )
            raise CostchartError(msg)
        names = tuple(present)
    elif _same(names[0], names[1]):
        msg = (
            f"a= and b= both name {show(names[0])}; a classifier compared with itself has no "
            "difference: pass two different classifiers"
        )
        raise CostchartError(msg)
    sides = []
    for side, name in zip(("a", "b"), names, strict=True):
        try:
            rows = frame[frame[classifier] == name]
        except (OverflowError, TypeError, NotImplementedError, ValueError):  # matches nothing
            rows = frame.iloc[:0]
        if rows.empty:
            msg = (
                f"no rows with {classifier} == {show(name)}; classifiers present: "
                f"{listed(present)}{_typed(side, name, present)}"
            )
            raise CostchartError(msg)
        duplicated = rows[instance].duplicated()
        if duplicated.any():
            msg = (
                f"classifier {show(name)} scores instance "
                f"{rows[instance][duplicated].tolist()[0]!r} "
                f"more than once; each instance needs one score per classifier. If the "
                f"{instance!r} ids repeat across data sets or folds, pass by= the columns "
                "that tell them apart (e.g. by='fold')"
            )
            raise CostchartError(msg)
        # The id column stays too: weight=, label= or score= may name it as well.
        sides.append(rows.set_index(instance, drop=False))
    a, b = sides
    only_a = a.index.difference(b.index)
    only_b = b.index.difference(a.index)
    if len(only_a) or len(only_b):
        lonely = (only_a if len(only_a) else only_b).tolist()[0]
        msg = (
            f"the classifiers do not share their instances: {len(only_a)} only in {names[0]!r}, "
            f"{len(only_b)} only in {names[1]!r} (e.g. {instance}={lonely!r}); a difference band "
            "needs both classifiers scored on the same instances"
        )
        raise CostchartError(msg)
    b = b.loc[a.index]
    if not (a[label].to_numpy() == b[label].to_numpy()).all():
        msg = f"the two classifiers' rows disagree on {label!r} for some instances; fix the labels"
        raise CostchartError(msg)
    return names, a, b


def instance_weights(side_a, side_b, weight, purpose: str) -> np.ndarray | None:
    """Each instance's whole-number weight, the same in both classifiers' rows.

    ``side_a`` and ``side_b`` are indexed by instance, aligned (from :func:`paired`);
    ``purpose`` names what resamples or pairs the instances, for the messages. Whole
    numbers only: a weight ``k`` stands for ``k`` copies of the instance.
    """
    if weight is None:
        return None
    wa = frequency_weights(side_a[weight].to_numpy(), f"weight= column {weight!r}", purpose)
    wb = frequency_weights(side_b[weight].to_numpy(), f"weight= column {weight!r}", purpose)
    differs = wa != wb
    if differs.any():
        k = int(np.flatnonzero(differs)[0])
        msg = (
            f"weight= column {weight!r} gives instance {side_a.index[k]!r} the weight "
            f"{wa[k]:g} in one classifier's row and {wb[k]:g} in the other's; an instance "
            "has one weight: make its rows agree"
        )
        raise CostchartError(msg)
    return wa


def _same(a, b) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # values that do not compare as one truth value
        return False


def _typed(side: str, name, present: list) -> str:
    """The fix when ``name`` is a present classifier of another type (``'1'`` for ``1``)."""
    alike = [value for value in present if str(value) == str(name) and not _same(value, name)]
    return f"; pass {side}={show(alike[0])}, not {name!r}" if alike else ""
