"""Several classifiers scored on the same instances: their scores side by side, per group.

:func:`align` reads a long table (one row per classifier and instance) and gives each
group a matrix of scores, one row per instance and one column per classifier, with the
instances' classes. It refuses what cannot be read that way, naming the group, the
classifier and the instance: an instance a classifier scored twice or not at all, labels
the classifiers disagree on, a group of one classifier, of one class or of a single
instance of a class.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from costchart._io.data_checks import (
    binary_labels,
    distinct_keys,
    enough_of_each_class,
    exact_scores,
)
from costchart._io.errors import CostchartError, plain
from costchart._io.frames import describe_group
from costchart._io.groups import Groups

__all__ = ["MIN_PER_CLASS", "Aligned", "align"]

#: Instances of each class a group needs: DeLong's variance needs two (as ``auc_ci`` and
#: ``auc_test`` ask), and with one the resamples do not vary that class at all.
MIN_PER_CLASS = 2


@dataclass(frozen=True)
class Aligned:
    """One group's instances: ``scores`` (instances x classifiers) and ``positive``.

    ``names`` are the group's classifiers in order of first appearance (the columns of
    ``scores``), and ``name_rows`` a row of the frame holding each (to copy the names with
    their column's dtype). The scores are float64 ranks of the given scores, in the same order and
    with the same ties within each classifier (exact past 2**53): what a threshold choice
    and a cost depend on.
    """

    names: list
    name_rows: np.ndarray
    scores: np.ndarray
    positive: np.ndarray


def align(
    frame: pd.DataFrame,
    groups: Groups,
    *,
    classifier: str,
    instance: str,
    score: str,
    label: str,
    pos_label=None,
    function: str = "cheapest_set",
) -> list[Aligned]:
    """Every group's scores side by side, classifiers in columns; refuse unpaired data."""
    distinct_keys(frame[classifier], f"column {classifier!r} (the classifier names)")
    distinct_keys(frame[instance], f"column {instance!r} (the instance ids)")
    names = _codes(frame[classifier], classifier, "classifier names", function)
    # Instances in the order of their ids where they sort, so the rows' order cannot
    # change which instances a resample draws.
    ids = _codes(frame[instance], instance, "instance ids", function, sort=True)
    positive = binary_labels(frame[label].to_numpy(), f"column {label!r}", pos_label)
    exact, ranked = exact_scores(frame[score].to_numpy(), f"column {score!r}")
    values = exact if ranked is None else ranked[exact]
    # Ranks of all scores at once keep every classifier's order and ties, exactly.
    ranks = np.unique(values, return_inverse=True)[1].reshape(-1).astype(np.float64)
    aligned = []
    for g in range(len(groups)):
        rows = groups.order[groups.starts[g] : groups.stops[g]]
        where = f"group {describe_group(groups.by, groups.keys[g])}" if groups.by else "the data"
        aligned.append(
            _one_group(
                (names[rows], ids[rows], positive[rows], ranks[rows]),
                frame,
                rows,
                (classifier, instance, label),
                where,
                function,
            )
        )
    return aligned


def _codes(values: pd.Series, column: str, what: str, function: str, sort=False) -> np.ndarray:
    """Integer codes of a column's values; refuse missing ones.

    In order of first appearance, or with ``sort`` of the values where they sort.
    """
    try:
        try:
            codes = pd.factorize(values, use_na_sentinel=True, sort=sort)[0]
        except TypeError:  # values of kinds that do not sort together
            codes = pd.factorize(values, use_na_sentinel=True)[0]
    except TypeError:  # unhashable cells, e.g. lists
        msg = f"column {column!r} holds values that are not {what} (e.g. lists); fix it"
        raise CostchartError(msg) from None
    if (codes < 0).any():
        msg = (
            f"column {column!r} has missing values (row {int(np.argmax(codes < 0))}); "
            f"{function} needs {what} in every row: fill or drop them"
        )
        raise CostchartError(msg)
    return codes


def _one_group(codes, frame, rows, columns, where: str, function: str) -> Aligned:
    """One group's scores, instances x classifiers, checked."""
    names, ids, positive, ranks = codes
    classifier, instance, label = columns
    present, column = np.unique(names, return_inverse=True)
    seen_at = np.array([np.argmax(names == c) for c in present])
    first_seen = np.argsort(seen_at, kind="stable")
    name_rows = rows[seen_at[first_seen]]
    shown = [plain(frame[classifier].iloc[r]) for r in name_rows]
    # Columns in order of first appearance.
    place = np.empty(len(present), dtype=np.int64)
    place[first_seen] = np.arange(len(present))
    column = place[column]
    if len(present) < 2:
        msg = (
            f"{where} has one classifier ({shown[0]!r} in column {classifier!r}); "
            f"{function} compares two or more scored on the same instances: pass the other "
            "classifiers' rows, or by= columns that keep them together"
        )
        raise CostchartError(msg)
    instances, row_of = np.unique(ids, return_inverse=True)
    k, n = len(present), len(instances)
    slot = row_of * k + column
    counts = np.bincount(slot, minlength=n * k)
    if (counts > 1).any():
        bad = int(np.argmax(counts > 1))
        twice = plain(frame[instance].iloc[rows[np.argmax(slot == bad)]])
        msg = (
            f"classifier {shown[bad % k]!r} scores instance {twice!r} more than once in {where}; "
            f"each instance needs one score per classifier. If the {instance!r} ids repeat "
            "across data sets or folds, pass by= the columns that tell them apart"
        )
        raise CostchartError(msg)
    if (counts == 0).any():
        bad = int(np.argmax(counts == 0))
        lonely = plain(frame[instance].iloc[rows[np.argmax(row_of == bad // k)]])
        msg = (
            f"the classifiers do not share their instances in {where}: {shown[bad % k]!r} has "
            f"no row for {instance}={lonely!r} ({int((counts == 0).sum())} (classifier, "
            f"instance) pairs missing); {function} needs every classifier scored on the "
            "same instances: drop the instances some classifier lacks"
        )
        raise CostchartError(msg)
    scores = np.empty(n * k)
    scores[slot] = ranks
    flat = np.zeros(n * k, dtype=bool)
    flat[slot] = positive
    classes = flat.reshape(n, k)
    if (classes != classes[:, :1]).any():
        bad = int(np.argmax((classes != classes[:, :1]).any(axis=1)))
        msg = (
            f"the classifiers' rows disagree on {label!r} for {instance}="
            f"{plain(frame[instance].iloc[rows[np.argmax(row_of == bad)]])!r} in {where}; "
            "each instance has one true class: fix the labels"
        )
        raise CostchartError(msg)
    truth = classes[:, 0]
    if truth.all() or not truth.any():
        msg = f"column {label!r} has one class only in {where}; {function} needs both"
        raise CostchartError(msg)
    enough_of_each_class(
        int(truth.sum()),
        int((~truth).sum()),
        least=MIN_PER_CLASS,
        where=f" in {where}",
        purpose=f"{function}'s resampling",
        fix=(
            "with one, every resample draws that same instance and the bounds come out too "
            "narrow: add {short}"
            + (
                ""
                if where == "the data"
                else ", or pass by= columns that make fewer, larger groups"
            )
        ),
    )
    return Aligned(shown, name_rows, scores.reshape(n, k), truth)
