"""Which classifier where: the ``pc`` intervals where each classifier is the cheapest.

:func:`cheapest_regions` reads the lower envelope of a group's pooled classifiers off its
ROC convex hull (the one envelope, :func:`costchart._cost.envelope.envelope_rows`): every
hull vertex optimal over an interval of some width is an interval of the table, and
where the envelope passes from one classifier's vertex to another's, the hull edge between
them (a random mixture of the two, Provost and Fawcett's hybrid) is optimal at that
``pc`` alone: a ``"mixture"`` row of no width.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._cost.envelope import envelope_rows
from costchart._cost.geometry import ALWAYS_NEGATIVE, ALWAYS_POSITIVE
from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.exact import exact_column
from costchart._io.groups import assemble
from costchart._io.owners import masked
from costchart._io.parameters import checked
from costchart._roc.hull import read_hulls

__all__ = ["MIXTURE", "cheapest_regions", "second_name"]

#: The ``choice`` of a row where the envelope runs along a hull edge between two
#: classifiers' vertices.
MIXTURE = "mixture"
#: The kind :func:`cheapest_regions` records.
KIND = "cheapest_regions"


def second_name(column) -> str:
    """The column naming a mixture's second component: ``classifier`` -> ``classifier_2``."""
    return f"{column}_2"


@checked
def cheapest_regions(points, *, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """Which classifier, at which threshold, is the cheapest in each ``pc`` interval.

    Pass the ROC points of several classifiers and group them coarser than they are
    grouped (``by="dataset"`` for points of every data set and classifier): each group's
    classifiers are pooled, and the table says where along ``pc`` each one is on the lower
    envelope of all their cost lines, with the range of costs it reaches there. The
    grouping columns merged away (``classifier``) name the owner of each interval (see the
    glossary, "Owners").

    Three kinds of row, told apart by ``choice``:

    - ``"threshold"``: one classifier at one threshold is the cheapest over
      ``[pc_lo, pc_hi]`` (an interval of some width; its hull vertex);
    - ``"always negative"`` or ``"always positive"``: a trivial classifier is, which
      every classifier can be (its owner columns are missing);
    - ``"mixture"``: at the single ``pc`` where the envelope passes from one classifier to
      another (``pc_lo == pc_hi``), the ROC hull edge between their vertices is optimal:
      the first classifier (owner columns and ``threshold``, the one cheapest just below
      ``pc``), the second (the owner columns with ``_2`` and ``threshold_2``, cheapest
      just above) and every random mixture of the two cost the same there.

    A mixture row appears only where the owner changes between two classifiers'
    vertices; between two thresholds of one classifier, and next to a trivial classifier,
    the envelope's vertex is a change of threshold, not of classifier. Where classifiers
    share a ROC point (identical rates), the interval goes to the one listed last in
    ``points`` (the hull keeps that copy); the trivial classifiers belong to none.

    Parameters
    ----------
    points : pandas, polars or pyarrow table, or dict of arrays
        ROC points of the classifiers, e.g. from :func:`roc_points` with
        ``by=["dataset", "classifier"]``, or their cost lines.
    by : str or list of str, optional
        Grouping columns: each group's classifiers are pooled. By default the grouping the
        table carries (then each group is one classifier, and the table its thresholds'
        intervals).

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then one row per interval, sorted by ``pc_lo`` (a mixture
        before the interval it starts):

        - ``pc_lo``, ``pc_hi`` (float64): the interval (closed); the rows of a group
          tile [0, 1], mixtures being single points;
        - ``choice`` (str): ``"threshold"``, ``"always negative"``, ``"always positive"``
          or ``"mixture"``;
        - the owner columns (the grouping columns of ``points`` not in ``by``, with their
          values; see :func:`roc_hull`) and ``threshold`` (float64, or exact integers past
          2**53): the classifier cheapest there (a mixture's first component);
        - the owner columns with ``_2`` and ``threshold_2``: a mixture's second component
          (missing and NaN in other rows);
        - ``cost_lo``, ``cost_hi`` (float64): the least and the greatest cost of the
          envelope over the interval (equal for a mixture).

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"s": [5, 4, 3, 2, 1] * 2, "y": [0, 1, 1, 1, 0, 1, 0, 1, 0, 1],
    ...         "model": ["a"] * 5 + ["b"] * 5}
    >>> points = cc.roc_points(data, score="s", label="y", by="model")
    >>> table = cc.cheapest_regions(points, by=[])  # pool the two models
    >>> table[["pc_lo", "pc_hi", "choice", "model", "threshold", "model_2", "threshold_2"]]
          pc_lo     pc_hi     choice model  threshold model_2  threshold_2
    0  0.000000  0.428571  threshold     b        5.0     NaN          NaN
    1  0.428571  0.428571    mixture     b        5.0       a          2.0
    2  0.428571  1.000000  threshold     a        2.0     NaN          NaN
    """
    _, by, groups, hulls = read_hulls(points, by)
    rows, group, pc = envelope_rows(hulls)
    owners = list(hulls.owners)
    _check_names(by, owners)
    # Each group's active vertices, one interval each; the closing row at pc = 1 (the last
    # of a group) ends the interval before it.
    closing = np.append(group[1:] != group[:-1], True)[: len(rows)]
    start = np.flatnonzero(~closing)
    vertex, lo, hi = rows[start], pc[start], pc[start + 1]
    fpr = hulls.columns[col.FPR].astype(np.float64)
    tpr = hulls.columns[col.TPR].astype(np.float64)
    trivial_low = (fpr == 0) & (tpr == 0)
    trivial_high = (fpr == 1) & (tpr == 1)
    # A mixture where consecutive intervals of a group have different, non-trivial owners.
    left, right = vertex[:-1], vertex[1:]
    same_group = group[start][:-1] == group[start][1:]
    real = ~(trivial_low | trivial_high)
    mixed = same_group & real[left] & real[right] & _owners_differ(hulls.owners, left, right)
    first, second, at = left[mixed], right[mixed], hi[:-1][mixed]
    n_single, n_mixed = len(vertex), len(first)
    # Rows: the intervals, then the mixtures, put in order by (group, pc_lo, mixture first).
    order = np.lexsort(
        (
            np.concatenate([np.ones(n_single), np.zeros(n_mixed)]),
            np.concatenate([lo, at]),
            np.concatenate([group[start], group[start][:-1][mixed]]),
        )
    )
    component = np.concatenate([vertex, first])[order]
    other = np.concatenate([np.full(n_single, -1), second])[order]
    is_mixture = other >= 0
    pc_lo, pc_hi = np.concatenate([lo, at])[order], np.concatenate([hi, at])[order]
    slope = 1.0 - tpr - fpr
    cost_at_lo = fpr[component] + pc_lo * slope[component]
    cost_at_hi = fpr[component] + pc_hi * slope[component]
    choice = np.where(
        is_mixture,
        MIXTURE,
        np.where(
            trivial_low[component],
            ALWAYS_NEGATIVE,
            np.where(trivial_high[component], ALWAYS_POSITIVE, "threshold"),
        ),
    )
    threshold = exact_column(hulls.columns[col.THRESHOLD])
    threshold_2 = threshold[np.where(is_mixture, other, 0)] if len(other) else threshold[:0]
    threshold_2 = np.where(is_mixture, threshold_2, np.nan)
    safe = np.where(is_mixture, other, 0)
    columns: dict[str, object] = {
        col.PC_LO: pc_lo,
        col.PC_HI: pc_hi,
        col.CHOICE: choice,
        **{c: v.iloc[component].reset_index(drop=True) for c, v in hulls.owners.items()},
        col.THRESHOLD: threshold[component],
        **{
            second_name(c): masked(v.iloc[safe].reset_index(drop=True), is_mixture)
            for c, v in hulls.owners.items()
        },
        col.THRESHOLD_2: exact_column(threshold_2),
        col.COST_LO: np.minimum(cost_at_lo, cost_at_hi),
        col.COST_HI: np.maximum(cost_at_lo, cost_at_hi),
    }
    per_group = np.bincount(
        np.concatenate([group[start], group[start][:-1][mixed]]), minlength=len(groups)
    )
    return assemble(groups, per_group, columns, kind=KIND, owners=owners)


def _owners_differ(owners: dict[str, pd.Series], left: np.ndarray, right: np.ndarray):
    """Per pair of vertices: whether any owner column differs (two missing values agree)."""
    differ = np.zeros(len(left), dtype=bool)
    for values in owners.values():
        a = values.iloc[left].reset_index(drop=True)
        b = values.iloc[right].reset_index(drop=True)
        missing_a, missing_b = a.isna().to_numpy(), b.isna().to_numpy()
        unequal = (a != b).to_numpy(dtype=bool, na_value=True) & ~(missing_a & missing_b)
        differ |= unequal | (missing_a != missing_b)
    return differ


def _check_names(by: list[str], owners: list) -> None:
    """Refuse a grouping column named as a mixture's second component would be."""
    taken = {*map(str, by), *map(str, owners)}
    clash = [c for c in owners if second_name(c) in taken]
    if clash:
        msg = (
            f"the owner column {clash[0]!r} would be written again as "
            f"{second_name(clash[0])!r} (a mixture's second classifier), which is already a "
            "column of the table; rename that column"
        )
        raise CostchartError(msg)
