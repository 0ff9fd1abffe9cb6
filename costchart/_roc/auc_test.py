"""DeLong's paired test of two classifiers' AUCs on the same instances (:func:`auc_test`).

Each classifier's placement values are computed per instance from midranks (Sun & Xu
2014): for a positive, the share of negatives it outranks (ties half); for a negative,
the share of positives that outrank it. The covariance of the two AUCs follows from the
placements' covariances within each class (DeLong, DeLong & Clarke-Pearson 1988); the
confidence interval of one AUC is :func:`costchart.auc_ci`'s (:mod:`costchart._roc.auc_ci`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.data_checks import binary_labels, enough_of_each_class, exact_scores
from costchart._io.errors import CostchartError
from costchart._io.exact import order_keys
from costchart._io.frames import as_pandas, check_by_names, describe_group, normalize_by
from costchart._io.groups import assemble, split_groups
from costchart._io.parameters import checked
from costchart._io.validation import column_name
from costchart._roc.paired import instance_weights, is_scalar_name, paired

__all__ = ["auc_test"]


@checked
def auc_test(
    data,
    *,
    score: str,
    label: str,
    classifier: str,
    instance: str,
    a=None,
    b=None,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
) -> pd.DataFrame:
    """DeLong's paired test of two classifiers' AUCs on the same instances.

    Both classifiers' placement values are computed per instance; the covariance of the
    two AUCs follows from the placements' covariances within each class, and
    ``z = (auc_a - auc_b) / se`` is compared with the standard normal (two-sided), as in
    pROC's ``roc.test(method="delong", paired=TRUE)``.

    Parameters
    ----------
    data : pandas, polars or pyarrow DataFrame, or dict of arrays
        Long format: one row per classifier and instance. Not modified.
    score, label, pos_label
        As in :func:`roc_points`.
    classifier, instance : str
        Columns naming the classifier and the instance (each instance scored once by each).
    a, b : optional
        The two classifiers; needed when ``classifier`` holds more than two. Without them
        the two are taken in order of first appearance in ``data``.
    by : str or list of str, optional
        Further grouping columns (e.g. ``"dataset"``): one test per group.
    weight : str, optional
        Column of whole-number instance weights (frequency weights), the same in both
        classifiers' rows: a weight ``k`` gives exactly the test of the data with the
        instance repeated ``k`` times; fractional weights are refused.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``auc_a``, ``auc_b``, ``difference`` (a minus b),
        ``se`` (of the difference), ``z`` and ``p_value``.

    Examples
    --------
    >>> import pandas as pd, costchart as cc
    >>> long = pd.DataFrame({
    ...     "model": ["a"] * 6 + ["b"] * 6,
    ...     "id": list(range(6)) * 2,
    ...     "y": [1, 1, 1, 0, 0, 0] * 2,
    ...     "s": [0.9, 0.8, 0.4, 0.5, 0.2, 0.1, 0.6, 0.3, 0.7, 0.8, 0.5, 0.2],
    ... })
    >>> cc.auc_test(long, score="s", label="y", classifier="model", instance="id").round(4)
        auc_a   auc_b  difference      se       z  p_value
    0  0.8889  0.5556      0.3333  0.2722  1.2247   0.2207
    """
    from scipy import stats

    for name, column in (
        ("score", score),
        ("label", label),
        ("classifier", classifier),
        ("instance", instance),
    ):
        column_name(column, name)
    by = normalize_by(by)
    for name, value in (("a", a), ("b", b)):
        if value is not None and not is_scalar_name(value):
            msg = f"{name}= must be one classifier name (a value of column {classifier!r})"
            raise CostchartError(msg)
    if (a is None) != (b is None):
        msg = "pass both a= and b= (the two classifiers to compare), or neither"
        raise CostchartError(msg)
    names = None if a is None else (a, b)
    check_by_names(by)
    if weight is not None:
        column_name(weight, "weight")
    frame = as_pandas(
        data, [*by, classifier, instance, score, label, *([weight] if weight else [])]
    )
    if frame.empty:
        msg = "data has no rows; auc_test needs instances scored by both classifiers"
        raise CostchartError(msg)
    groups = split_groups(frame, by)
    rows = []
    for group in groups:
        part = frame.iloc[group.positions]
        _, side_a, side_b = paired(part, classifier, instance, names, label)
        positive = binary_labels(side_a[label].to_numpy(), f"column {label!r}", pos_label)
        copies = instance_weights(side_a, side_b, weight, "auc_test's paired test")
        # k copies of an instance count k times (the test of its row repeated k times),
        # computed on the counts: the rows are never repeated.
        counts = np.ones(len(positive)) if copies is None else copies
        with np.errstate(over="ignore"):  # an overflowing total is refused below
            n_pos, n_neg = float(counts[positive].sum()), float(counts[~positive].sum())
        where = f" in group {describe_group(by, group.key)}" if by else ""
        if not np.isfinite(n_pos + n_neg):
            msg = (
                f"weight= column {weight!r} sums to more than the largest float64 (about "
                f"1.8e+308){where}; DeLong's test counts instances: pass weights whose total "
                "is a count float64 holds"
            )
            raise CostchartError(msg)
        enough_of_each_class(n_pos, n_neg, least=2, where=where, purpose="DeLong's test")
        placements = [
            _instance_placements(_score_keys(side[score].to_numpy(), score), positive, counts)
            for side in (side_a, side_b)
        ]
        (auc_a, v10_a, v01_a), (auc_b, v10_b, v01_b) = placements
        s10 = _covariance(v10_a, v10_b, counts[positive])  # ddof=1, as DeLong
        s01 = _covariance(v01_a, v01_b, counts[~positive])
        covariance = s10 / n_pos + s01 / n_neg
        variance = covariance[0, 0] + covariance[1, 1] - 2 * covariance[0, 1]
        difference = auc_a - auc_b
        se = float(np.sqrt(max(variance, 0.0)))
        if se > 0:
            z = difference / se
            p_value = float(2 * stats.norm.sf(abs(z)))
        elif difference == 0:
            z, p_value = 0.0, 1.0
        else:
            msg = (
                f"the two classifiers' AUCs differ ({auc_a:.6g} against {auc_b:.6g}){where} but "
                "the DeLong variance of the difference is 0; the test is undefined"
            )
            raise CostchartError(msg)
        rows.append((auc_a, auc_b, difference, se, float(z), p_value))
    names_out = col.AUC_TEST_TABLE
    values = np.array(rows, dtype=np.float64).reshape(-1, len(names_out))
    columns = {name: values[:, i] for i, name in enumerate(names_out)}
    return assemble(groups, np.ones(len(groups)), columns)


def _score_keys(values, score: str) -> np.ndarray:
    """Checked scores as float64 keys of the same order and ties (exact past 2**53)."""
    scores, _ = exact_scores(values, f"column {score!r}")  # or their ranks
    return order_keys(scores)[0]


def _instance_placements(scores: np.ndarray, positive: np.ndarray, counts: np.ndarray):
    """The AUC and every positive's and negative's placement value (midranks, Sun & Xu).

    ``counts`` says how many copies of each instance there are (whole numbers, 0 allowed).
    """
    pos, neg = scores[positive], scores[~positive]
    count_pos, count_neg = counts[positive], counts[~positive]
    # a positive's share of negatives below it (ties half); a negative's of positives above
    v10 = _below(neg, count_neg, pos) / count_neg.sum()
    v01 = 1.0 - _below(pos, count_pos, neg) / count_pos.sum()
    return float(np.dot(count_pos, v10) / count_pos.sum()), v10, v01


def _below(values: np.ndarray, counts: np.ndarray, at: np.ndarray) -> np.ndarray:
    """How many of ``values`` (each ``counts`` times) lie below each of ``at``, ties half."""
    order = np.argsort(values, kind="stable")
    ranked = values[order]
    running = np.concatenate([[0.0], np.cumsum(counts[order])])
    lo = np.searchsorted(ranked, at, side="left")
    hi = np.searchsorted(ranked, at, side="right")
    return running[lo] + 0.5 * (running[hi] - running[lo])


def _covariance(x: np.ndarray, y: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The 2x2 covariance (ddof=1) of ``x`` and ``y`` with each value ``counts`` times."""
    total = counts.sum()
    centred = np.vstack([x - np.dot(counts, x) / total, y - np.dot(counts, y) / total])
    return (centred * counts) @ centred.T / (total - 1)
