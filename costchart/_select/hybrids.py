"""Hybrid classifiers: thresholds chosen one way, evaluated as a cost curve.

:func:`performance_independent` builds the hybrid that uses, at each operating condition,
the classifier trained for the nearest one, and compares it with the lower envelope;
:func:`apply_selection` applies a selection table (thresholds chosen per ``pc`` interval
on one data set) to other data, giving the honest cost curve of that choice. The
selection criteria themselves live in :mod:`costchart._select.criteria`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costchart._cost.envelope import lower_envelope
from costchart._cost.expected import expected_cost
from costchart._io import schema as col
from costchart._io.data_checks import threshold_numbers
from costchart._io.errors import CostchartError
from costchart._io.frames import (
    check_by_names,
    describe_group,
    normalize_by,
    plain_key,
    require_columns,
)
from costchart._io.groups import combine_groups, split_groups
from costchart._io.parameters import checked
from costchart._io.table_values import threshold_values
from costchart._io.tables import check_rates, read_selection, read_table
from costchart._io.validation import probabilities
from costchart._roc.points import roc_points, row_of_threshold

__all__ = ["PerformanceIndependent", "apply_selection", "performance_independent"]


@dataclass(frozen=True)
class PerformanceIndependent:
    """The result of :func:`performance_independent`.

    Attributes
    ----------
    curve : pandas.DataFrame
        The hybrid's cost curve: grouping columns, ``pc`` and ``cost`` at both ends of
        every interval in which one classifier is used (so it can jump at a switch), the
        classifier's ``trained_pc``, ``fpr``, ``tpr`` and ``segment`` (its interval number).
    envelope : pandas.DataFrame
        The lower envelope of the same classifiers (and the trivial ones). Its
        ``threshold`` column holds each classifier's own threshold when ``classifiers`` has
        one, else its ``trained_pc`` (so :func:`selection_table` of it names the classifier
        to use in each ``pc`` interval).
    extra_cost : pandas.DataFrame
        Grouping columns and ``extra_cost``: the area between the hybrid and the envelope,
        the expected price of choosing by training conditions instead of by cost.
    """

    curve: pd.DataFrame
    envelope: pd.DataFrame
    extra_cost: pd.DataFrame


@checked
def performance_independent(
    classifiers, *, trained_pc: str, by: str | Sequence[str] | None = None
) -> PerformanceIndependent:
    """The hybrid that uses the classifier trained for the nearest operating condition.

    Each classifier was trained for one ``pc``; at any ``pc`` the hybrid uses the one whose
    training ``pc`` is nearest, switching halfway between neighbours. Comparing it with the
    lower envelope shows what ignoring the classifiers' measured costs loses.

    Parameters
    ----------
    classifiers : pandas, polars or pyarrow table, or dict of arrays
        One row per classifier: ``fpr``, ``tpr``, the ``trained_pc`` column and any
        grouping columns (e.g. ``dataset``).
    trained_pc : str
        Column of the ``pc`` each classifier was trained for, in [0, 1].
    by : str or list of str, optional
        Grouping columns (each group is one set of classifiers).

    Returns
    -------
    PerformanceIndependent
    """
    table = read_table(classifiers, "classifiers")
    if not isinstance(trained_pc, str) or trained_pc in col.RESERVED:
        msg = (
            f"trained_pc={trained_pc!r} must name a column of classifiers that is not one "
            "of costchart's own columns (such as 'pc'); rename that column"
        )
        raise CostchartError(msg)
    require_columns(table.columns, [trained_pc, col.FPR, col.TPR], "classifiers")
    probabilities(table[trained_pc].to_numpy(), f"column {trained_pc!r}")
    check_rates(table, "classifiers")
    by = (
        normalize_by(by)
        if by is not None
        else [c for c in table.columns if c not in col.RESERVED and c != trained_pc]
    )
    require_columns(table.columns, by, "classifiers", "by= must name its grouping columns.")
    check_by_names([c for c in by if c != trained_pc])
    if trained_pc in by:
        msg = f"by={by!r} includes trained_pc={trained_pc!r}; group by other columns"
        raise CostchartError(msg)
    groups = split_groups(table, by) if len(table) else []  # empty in, empty out
    parts, extra = [], []
    envelope_parts = []
    for group in groups:
        part = table.iloc[group.positions].sort_values(trained_pc, kind="stable")
        trained = part[trained_pc].to_numpy(float)
        if len(np.unique(trained)) != len(trained):
            shared = trained[np.argmax(np.diff(trained) == 0)]
            msg = f"two classifiers share the training pc {shared}; each needs its own"
            raise CostchartError(msg)
        switches = (trained[:-1] + trained[1:]) / 2
        lo = np.concatenate([[0.0], switches])
        hi = np.concatenate([switches, [1.0]])
        fpr = part[col.FPR].to_numpy(float)
        tpr = part[col.TPR].to_numpy(float)
        pc = np.column_stack([lo, hi]).ravel()
        rows = np.repeat(np.arange(len(part)), 2)
        curve = pd.DataFrame(
            {
                col.PC: pc,
                col.COST: fpr[rows] + pc * (1 - tpr[rows] - fpr[rows]),
                trained_pc: trained[rows],
                col.FPR: fpr[rows],
                col.TPR: tpr[rows],
                col.SEGMENT: rows,
            }
        )
        # Each vertex keeps the classifier's own threshold; without one, its trained pc
        # labels it (so a selection table of the envelope names the classifier to use).
        labels = (
            threshold_numbers(part[col.THRESHOLD].to_numpy(), "column 'threshold'")
            if col.THRESHOLD in part.columns
            else trained
        )
        envelope = lower_envelope(part[[col.FPR, col.TPR]].assign(**{col.THRESHOLD: labels}))
        hybrid_area = float(
            np.sum(
                (hi - lo)
                * (curve[col.COST].to_numpy()[0::2] + curve[col.COST].to_numpy()[1::2])
                / 2
            )
        )
        extra.append(
            pd.DataFrame(
                {col.EXTRA_COST: [hybrid_area - expected_cost(envelope)[col.EXPECTED_COST].iat[0]]}
            )
        )
        parts.append(curve)
        envelope_parts.append(envelope)
    columns = [col.PC, col.COST, trained_pc, col.FPR, col.TPR, col.SEGMENT]
    return PerformanceIndependent(
        curve=combine_groups(table, by, groups, parts, columns),
        envelope=combine_groups(table, by, groups, envelope_parts, list(col.ENVELOPE_COLUMNS)),
        extra_cost=combine_groups(table, by, groups, extra, [col.EXTRA_COST]),
    )


@checked
def apply_selection(
    data,
    selection,
    *,
    score: str,
    label: str,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
) -> pd.DataFrame:
    """Evaluate thresholds chosen on one data set on another: the unbiased hybrid curve.

    The lower envelope picks thresholds that are best *on the data that drew it*, so its
    cost is optimistic. Choosing them on validation data (:func:`selection_table`) and
    applying them here gives an honest cost curve for this data.

    Parameters
    ----------
    data : DataFrame or dict of arrays
        The new data: one row per instance (first, so ``data.pipe(apply_selection,
        selection, ...)`` works).
    selection : pandas, polars or pyarrow table, or dict of arrays
        A table from :func:`selection_table` (``pc_lo``, ``pc_hi``, ``threshold``, and its
        grouping columns). Each group's intervals must tile [0, 1]; thresholds may be
        ``+inf`` (always negative) or ``-inf`` (always positive) but not NaN.
    score, label, pos_label, weight
        As in :func:`roc_points`.
    by : str or list of str, optional
        Grouping columns, in both ``selection`` and ``data``. By default the grouping the
        selection carries, so a selection made per classifier is applied to each
        classifier's rows of ``data``.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then two rows per selection interval (its two ends), sorted
        by ``pc``: ``pc``, ``cost`` (of the chosen threshold on this data), ``threshold``,
        ``fpr``, ``tpr``. The curve may jump where the threshold changes.
    """
    selection, by, selection_groups = read_selection(selection, by)
    points = roc_points(
        data, score=score, label=label, by=by or None, pos_label=pos_label, weight=weight
    )
    point_groups = {plain_key(g.key): g for g in split_groups(points, by)}
    parts = []
    for group in selection_groups:
        if plain_key(group.key) not in point_groups:
            msg = (
                f"data has no rows for the selection's group {describe_group(by, group.key)} "
                "(or none with both classes)"
            )
            raise CostchartError(msg)
        here = points.iloc[point_groups[plain_key(group.key)].positions]
        chosen = selection.iloc[group.positions]  # sorted by pc_lo
        thresholds = threshold_values(chosen, "selection")  # exact past 2**53
        rows_here = row_of_threshold(here, thresholds)
        fpr = here[col.FPR].to_numpy(float)[rows_here]
        tpr = here[col.TPR].to_numpy(float)[rows_here]
        pc = np.column_stack([chosen[col.PC_LO], chosen[col.PC_HI]]).ravel().astype(float)
        rows = np.repeat(np.arange(len(chosen)), 2)
        parts.append(
            pd.DataFrame(
                {
                    col.PC: pc,
                    col.COST: fpr[rows] + pc * (1 - tpr[rows] - fpr[rows]),
                    col.THRESHOLD: thresholds[rows],
                    col.FPR: fpr[rows],
                    col.TPR: tpr[rows],
                }
            )
        )
    return combine_groups(selection, by, selection_groups, parts, list(col.ENVELOPE_COLUMNS))
