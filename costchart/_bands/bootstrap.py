"""Confidence bands on cost curves: :func:`bootstrap_band` and :func:`confusion_band`.

At deployment the class frequencies are unknown, so the bootstrap keeps the numbers of
positives and negatives fixed (``sampling="stratified"``): a classifier's false negatives
are ``Bin(P, FNR)``, its false positives ``Bin(N, FPR)``, independently. With
``sampling="full"`` all instances are resampled together (a multinomial over the four
cells), so the class proportions vary too and the band is wider; costs then weigh errors
by the original class proportion ``pi = P / n``: ``c_FN = pc / pi``,
``c_FP = (1 - pc) / (1 - pi)``.

``inference="exact_bootstrap"`` needs no resampling: the cost is linear in the cell
counts, so its bootstrap mean and variance are closed-form, and the whole bootstrap
distribution is a small convolution of binomial probabilities. ``interval="normal"`` fits
a normal distribution to the exact moments; ``"discrete"`` takes the quantiles of the exact
discrete distribution; ``"auto"`` takes the normal fit, the score interval
(:mod:`costchart._bands.score`) where a class that counts has fewer than 5 errors, and the
discrete quantiles where the normal interval otherwise leaves the costs' range: the
choices that covered best in simulation (``docs/bands.md``).
``inference="bootstrap"`` resamples, and its band is the percentiles of the resamples.
Every group and every ``pc`` is computed in one pass (:mod:`costchart._bands.counts`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._bands.choice import choice_band, chosen_inference, class_counts
from costchart._bands.compact import check_grid, computes_kept_rows_only, normal_fit, thinned
from costchart._bands.counts import Counts, band_of_counts, check_count_columns, cost_weights
from costchart._bands.describe import ATTRS, describe
from costchart._bands.options import Options, for_group, options_from
from costchart._bands.resample import resampled_band
from costchart._bands.rows import grouped_rows
from costchart._bands.score import class_totals, refuse_single_instances
from costchart._bands.simultaneous import check_simultaneous, simultaneous_bounds
from costchart._io import schema as col
from costchart._io.deprecation import ABSENT, deprecated_names, future_warning, take_alias
from costchart._io.errors import CostchartError
from costchart._io.frames import normalize_by, rows_only
from costchart._io.groups import Groups, assemble, split_groups
from costchart._io.intervals import band_aliases
from costchart._io.parameters import checked
from costchart._io.validation import flag, one_of, threshold_number
from costchart._roc.confusion import from_confusion
from costchart._roc.points import points_and_columns

__all__ = ["bootstrap_band", "confusion_band"]


@deprecated_names(band_aliases)
@checked
def bootstrap_band(
    data,
    *,
    score: str,
    label: str,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
    confidence_level: float = 0.9,
    inference: str = "auto",
    sampling: str = "stratified",
    interval: str = "auto",
    n_resamples: int = 2000,
    rng=None,
    selection: pd.DataFrame | None = None,
    threshold: float | None = None,
    pc=None,
    progress=False,
    bins: int | None = None,
    simultaneous: bool = False,
    compact: bool = False,
) -> pd.DataFrame:
    """A bootstrap confidence band on the cost of a classifier at every ``pc``.

    Which classifier is banded at each ``pc``: with ``threshold=t``, the single classifier
    "positive when score >= t" (its cost line; for 0/1 predictions use ``threshold=1``);
    with ``selection=`` (a :func:`selection_table` made on validation data), the threshold
    selected for that ``pc`` -- the honest hybrid; by default the one the lower envelope of
    this data selects. The envelope picks, on the data the cost is measured on, the
    thresholds whose errors happened to be fewest, so their apparent cost is optimistic;
    the default band (``inference="auto"``) resamples that choice and covers their *true*
    cost (the table records which quantity it covers: ``band.attrs["costchart"]["covers"]``).
    Measured (``docs/bands.md``, 1,000 binormal test sets of 50-200 per class, level 0.9):
    it held that cost in 0.893-0.913 of test sets at its worst ``pc`` in [0.2, 0.8] (0.75-0.79
    on average as if fixed), and ``simultaneous=True`` at every ``pc`` in 0.897-0.926.

    Parameters
    ----------
    data : DataFrame, dict of arrays, or lazy frame
        One row per test instance (a lazy frame is counted in its engine, as in
        :func:`roc_points`).
    score, label, by, pos_label
        As in :func:`roc_points`.
    weight : str, optional
        Column of non-negative instance weights; counts become sums of weights.
        Instances of weight 0 are ignored. The bootstrap resamples whole instances, so
        the weights must be whole numbers (frequency weights): a weight ``k`` gives
        exactly the band of the data with its row repeated ``k`` times. Fractional
        weights are refused, and so is ``weight=`` with a lazy frame (collect it first).
    confidence_level : float
        In (0, 1); 0.9 gives the 5 % and 95 % percentiles.
    inference : {"auto", "smoothed_bootstrap", "exact_bootstrap", "bootstrap"}
        How the band's distribution is found. ``"auto"`` (the default):
        ``"smoothed_bootstrap"`` where the thresholds are the envelope's own, and
        ``"exact_bootstrap"`` where ``threshold=`` or ``selection=`` fixes them.
        ``"smoothed_bootstrap"`` draws ``n_resamples`` test sets from smoothed scores of
        each class, chooses the envelope's thresholds again in each, and corrects the
        envelope's cost by the resamples' optimism at a level calibrated by a double
        bootstrap (``costchart._bands.choice``; it warns if ``n_resamples`` is too few);
        it needs only the scores' order, and is refused with fixed thresholds. In
        ``docs/bands.md``'s settings A-D (1,000 test sets, level 0.9) it held the true
        cost of its thresholds in 0.911-0.928 of test sets on average over ``pc``
        (0.893-0.913 at the worst ``pc`` in 0.2-0.8), where the exact bootstrap of the
        same thresholds held 0.75-0.79. ``"exact_bootstrap"``
        treats the thresholds as fixed and finds the bootstrap distribution of their cost
        in closed form (no resampling);
        ``"bootstrap"`` does the same by ``n_resamples`` binomial / multinomial resamples.
        With the envelope's thresholds, these two cover the cost of those thresholds *as
        if they were fixed*, which is optimistic. (``"delong"`` is ``auc_ci``'s.) Was
        ``method="exact"`` / ``"resample"``, deprecated.
    sampling : {"stratified", "full"}
        Keep the class totals fixed, or resample all instances.
    interval : {"auto", "normal", "discrete", "percentile"}
        The band's shape. With ``inference="exact_bootstrap"``: ``"normal"``, a normal fit
        to the exact moments; ``"discrete"``, the quantiles of the exact discrete
        distribution; ``"auto"`` (the default), the normal fit, except at a ``pc`` where a
        class whose errors count there has fewer than 5 errors (or fewer than 5 correct
        decisions): there the *score interval*, each error rate's Jeffreys interval
        combined for the cost by MOVER, which still reaches above a rate with no errors
        (:mod:`costchart._bands.score`), and wherever a class of one instance counts: a
        band resampling it (every other choice, or ``simultaneous=True``) is refused
        for that group, since resampling one instance gives no width from its class's
        rate; elsewhere, where the normal interval leaves
        [0, 1], the discrete quantiles if their distribution is at most
        :data:`~costchart._bands.options.AUTO_EXACT_PAIRS` pairs. At the true-optimal
        thresholds, level 0.9, 50 instances per class (positives ``N(1.5, 1)``, negatives
        ``N(0, 1)``), ``"auto"`` held the true cost at ``pc`` 0.1 and 0.9 in 0.928 and
        0.933 of 1,000 test sets (before the score interval, 0.674 and 0.634); see
        ``docs/bands.md``. With ``inference="bootstrap"``: ``"percentile"`` (also what
        ``"auto"`` is), the percentiles of the resampled costs. With
        ``inference="smoothed_bootstrap"``: ``"studentized"`` (also what ``"auto"`` is), a
        bootstrap-t, ``cost - mean(D) - q s`` with ``q`` the quantiles of the resamples'
        ``(D - mean(D)) / s*`` (``D`` the apparent minus the true cost of each resample's
        chosen thresholds). Was
        ``distribution="auto"`` / ``"normal"`` / ``"exact"``, deprecated.
    n_resamples : int
        For ``inference="bootstrap"`` and ``"smoothed_bootstrap"``; each tail needs at
        least 10 resamples.
    rng : numpy.random.Generator or int, optional
        Seed or generator of the resamples (``inference="bootstrap"``,
        ``"smoothed_bootstrap"``, ``simultaneous=True``); without it each call draws anew.
    selection : pandas.DataFrame, optional
        Thresholds per ``pc`` interval chosen on other data (:func:`selection_table`,
        with the same grouping columns).
    threshold : float, optional
        Band one classifier, "positive when score >= threshold", at every ``pc``.
        ``inf`` is the always-negative classifier (cost ``pc``) and ``-inf`` the
        always-positive one (cost ``1 - pc``); both have no variance. NaN is refused.
    pc : array-like, optional
        Operating points; 501 evenly spaced values in [0, 1] by default.
    progress : bool or callable
        Report resampling progress group by group (to standard error, or to the callable).
    bins : int, optional
        Compute the ROC points at about ``bins`` score quantiles (as in
        :func:`roc_points`); the envelope then chooses among those thresholds only.
    simultaneous : bool
        A band that holds the whole curve at once. At each ``pc`` it stretches the
        pointwise score interval (see ``interval``) by one factor per side and group:
        ``cost - q_lower * h_lower`` to ``cost + q_upper * h_upper``, ``h`` how far the
        score interval reaches below and above the cost. Each ``q`` is a quantile, over
        ``n_resamples`` joint resamples of the test set (seeded by ``rng``), of the
        largest deviation on its side studentized by the resample's own score interval
        (the bootstrap-t); the quantile's level is calibrated by a double bootstrap (200
        of the resamples, each resampled 50 times), and ``q`` is at least 1. Under the
        bootstrap approximation the chosen classifiers' costs at *every* ``pc`` of the
        grid lie inside it together with probability ``confidence_level``; the default
        pointwise band promises that only at each ``pc`` separately. At the true-optimal
        thresholds on 81 ``pc`` from 0.1 to 0.9 it held the whole true curve in 0.911,
        0.922, 0.907 and 0.902 of 1,000 test sets at level 0.9 (0.959, 0.961, 0.953,
        0.947 at 0.95) in ``docs/bands.md``'s settings A-D, bands 3-8 % narrower than
        before (1 % wider in B). Needs
        ``n_resamples >= 20 / (1 - confidence_level)``.
        With ``inference="smoothed_bootstrap"`` (the default band) the factor is one
        ``q``, the quantile of ``max_pc |D - mean(D)| / s*`` over the resampled choices,
        so the band holds the true cost of the thresholds it follows at every ``pc`` at
        once: in 0.926, 0.920, 0.925 and 0.897 of 1,000 test sets in settings A-D.
    compact : bool
        Keep only the rows linear interpolation needs (``pc`` must increase): at each
        threshold change, and where the bounds bend (``costchart._bands.compact``). Between
        kept rows, which are the full band's own, it is within 1e-4 of the full band at
        every ``pc``, the cost exactly; ``band_at`` and the charts interpolate it. With
        ``interval="normal"`` only those rows are computed, which makes many groups cheap.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then one row per ``pc``: ``pc``, ``cost`` (the estimate),
        ``lower``, ``upper`` (the band), ``se`` (bootstrap standard error), all finite
        float64 with ``0 <= lower <= cost <= upper`` and ``se >= 0``. At low confidence
        levels, where a percentile could exclude the estimate, the band is widened to it.
        ``degenerate`` (bool) marks a band of no width: every resample gives the same
        cost. It happens where the chosen classifier is trivial (its threshold beyond all
        observed scores) or makes no errors of the class that counts at that ``pc``: at
        ``pc`` 0, and at 1 but in the default band (a resample's threshold at 1, its lowest
        positive, misses some true positives). Such a band says nothing about the
        uncertainty: the exact bootstrap paper traced its coverage breaks at the extremes
        of ``pc`` to these thresholds. ``band_chart`` marks them.

    Examples
    --------
    >>> import numpy as np, costchart as cc
    >>> y = np.array([1] * 20 + [0] * 10)
    >>> predicted = np.array([1] * 16 + [0] * 4 + [1] * 4 + [0] * 6)
    >>> data = {"p": predicted, "y": y}
    >>> band = cc.bootstrap_band(data, score="p", label="y", threshold=1, pc=[0.75])
    >>> band.round(4)
         pc  cost   lower   upper      se  degenerate
    0  0.75  0.25  0.1499  0.3941  0.0775       False

    A compact band keeps the rows interpolation needs, each the full band's own:

    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.3
    >>> data = {"s": rng.normal(size=400) + y, "y": y}
    >>> options = dict(score="s", label="y", inference="exact_bootstrap", interval="normal")
    >>> full = cc.bootstrap_band(data, **options)
    >>> compact = cc.bootstrap_band(data, compact=True, **options)
    >>> len(full), len(compact), compact.merge(full).shape[0]
    (501, 28, 28)
    """
    inference = chosen_inference(inference, fixed=selection is not None or threshold is not None)
    options = options_from("bootstrap_band", locals())
    given, by = by, normalize_by(by)
    if selection is not None and threshold is not None:
        msg = "pass selection= or threshold=, not both"
        raise CostchartError(msg)
    if threshold is not None:
        threshold = threshold_number(threshold)
    simultaneous = check_simultaneous(simultaneous, options)
    points, columns = points_and_columns(
        data,
        score=score,
        label=label,
        by=given,  # as the caller gave it: None pools with a warning, () on purpose
        pos_label=pos_label,
        weight=weight,
        bins=bins,
        frequency="bootstrap_band's bootstrap",
        as_frame=False,  # ungrouped points are used as arrays: no frame needed
    )
    band = _bands(
        points,
        by,
        selection,
        threshold,
        options,
        simultaneous,
        read=columns,
        own_points=True,
        compact=compact,
    )
    fixed = selection is not None or threshold is not None
    band.attrs[ATTRS] = describe(options, fixed=fixed, simultaneous=simultaneous, compact=compact)
    return band


def _envelope_alias(function: str, kwargs: dict) -> None:
    """``envelope=True`` / ``False`` is ``of="envelope"`` / ``"lines"`` (a flag is not a layer)."""
    value = take_alias(function, kwargs, "envelope", "of")
    if value is not ABSENT:
        kwargs["of"] = "envelope" if flag(value, "envelope") else "lines"
        future_warning(
            f"{function}(envelope={value!r}) is deprecated and will be removed in the next "
            f"release; pass of={kwargs['of']!r}"
        )


@deprecated_names(_envelope_alias)
@deprecated_names(band_aliases)
@checked
def confusion_band(
    data,
    *,
    tp: str,
    fn: str,
    fp: str,
    tn: str,
    by: str | Sequence[str] | None = None,
    of: str = "lines",
    confidence_level: float = 0.9,
    inference: str = "exact_bootstrap",
    sampling: str = "stratified",
    interval: str = "auto",
    n_resamples: int = 2000,
    rng=None,
    pc=None,
    progress=False,
    simultaneous: bool = False,
    compact: bool = False,
) -> pd.DataFrame:
    """:func:`bootstrap_band` of crisp classifiers given as confusion counts.

    The band is that of each classifier's own cost line at every ``pc`` (``of="lines"``);
    with ``of="envelope"`` it is, at each ``pc``, that of the cheapest of the classifier and
    the two trivial ones (which have no variance). The other options are those of
    :func:`bootstrap_band`.

    Examples
    --------
    >>> import costchart as cc
    >>> counts = {"TP": [16], "FN": [4], "FP": [4], "TN": [6]}
    >>> cc.confusion_band(counts, tp="TP", fn="FN", fp="FP", tn="TN", pc=[0.75]).round(4)
         pc  cost   lower   upper      se  degenerate
    0  0.75  0.25  0.1499  0.3941  0.0775       False
    """
    options = options_from("confusion_band", locals())
    by = normalize_by(by)
    simultaneous = check_simultaneous(simultaneous, options)
    check_count_columns(data, {"tp": tp, "fn": fn, "fp": fp, "tn": tn})
    points = from_confusion(data, tp=tp, fn=fn, fp=fp, tn=tn, by=by or None)
    # from_confusion gives the classifier threshold 1 (the trivial ones +inf and 0).
    envelope = one_of(of, "of", ("lines", "envelope")) == "envelope"
    band = _bands(
        points, by, None, None if envelope else 1.0, options, simultaneous, compact=compact
    )
    band.attrs[ATTRS] = describe(
        options, fixed=not envelope, simultaneous=simultaneous, compact=compact
    )
    return band


def _bands(
    points: pd.DataFrame | None,
    by: list[str],
    selection,
    threshold,
    options: Options,
    simultaneous: bool = False,
    *,
    read: dict[str, np.ndarray] | None = None,
    own_points: bool = False,
    compact: bool = False,
) -> pd.DataFrame:
    """The band of every group of ``points`` (ROC points), built column by column.

    ``read`` holds columns of ``points`` already at hand (``Series.to_numpy()``), so the
    frame is not read back; ``own_points`` says :func:`~costchart.roc_points` just made
    them (:func:`~costchart._bands.rows.grouped_rows`). Ungrouped points may come as
    their columns only (``points`` None, every column in ``read``).
    """
    read = dict(read or {})
    if points is None:
        n = len(read[col.TPR])
        groups = Groups(rows_only(n), [], np.arange(n), np.array([n]))
    else:
        groups = split_groups(points, by)
        for column in (col.THRESHOLD, col.TP, col.FN, col.FP, col.TN, col.FPR, col.TPR):
            if column not in read and column in points.columns:
                read[column] = points[column].to_numpy()  # each column read once
    refuse_single_instances(*class_totals(read, groups), groups, options, simultaneous)
    pc = options.pc
    if compact:
        check_grid(pc)
        if computes_kept_rows_only(options, simultaneous):
            return normal_fit(points, groups, selection, threshold, by, options, read, own_points)
    rows = grouped_rows(
        points, groups, pc, selection, threshold, by, read=read, own_points=own_points
    ).reshape(-1)
    counts = Counts(*(read[c][rows] for c in (col.TP, col.FN, col.FP, col.TN)))
    grid = np.tile(pc, len(groups))
    if options.inference == "exact_bootstrap":
        cost, lower, upper, se = band_of_counts(counts, grid, options)
    elif options.inference == "smoothed_bootstrap":
        cost = cost_weights(counts, grid, options.sampling)[2]
        classes = class_counts(read[col.TP], read[col.FP], groups)
        lower, upper, se = choice_band(classes, counts, cost, options, simultaneous)
        simultaneous = False  # the choice band is simultaneous itself when asked
    else:
        # One group at a time, drawing from the generator in the order groups come.
        parts = []
        for g in range(len(groups)):
            span = slice(g * len(pc), (g + 1) * len(pc))
            group = Counts(counts.tp[span], counts.fn[span], counts.fp[span], counts.tn[span])
            parts.append(resampled_band(group, pc, for_group(options, g, len(groups))))
        cost, lower, upper, se = (
            np.concatenate([part[i] for part in parts]) if parts else np.zeros(0) for i in range(4)
        )
    if simultaneous:
        shaped = rows.reshape(len(groups), len(pc))
        lower, upper = simultaneous_bounds(shaped, counts, cost, options)
    columns = {col.PC: grid, col.COST: cost, col.LOWER: lower, col.UPPER: upper, col.SE: se}
    # No width: every resample gives the same cost (see the docstring's Returns).
    columns[col.DEGENERATE] = np.asarray(upper) - np.asarray(lower) <= 0
    if compact:
        return thinned(groups, columns, rows, len(pc))
    return assemble(groups, np.full(len(groups), len(pc)), columns)
