"""Confidence bands on cost curves: exact bootstrap and resampling.

At deployment the class frequencies are unknown, so the bootstrap keeps the numbers of
positives and negatives fixed (``sampling="stratified"``): a classifier's false negatives
are ``Bin(P, FNR)``, its false positives ``Bin(N, FPR)``, independently. With
``sampling="full"`` all instances are resampled together (a multinomial over the four
cells), so the class proportions vary too and the band is wider; costs then weigh errors
by the original class proportion ``pi = P / n``: ``c_FN = pc / pi``,
``c_FP = (1 - pc) / (1 - pi)``.

``method="exact"`` needs no resampling: the cost is linear in the cell counts, so its
bootstrap mean and variance are closed-form, and the whole bootstrap distribution is a
small convolution of binomial probabilities. ``distribution="normal"`` fits a normal
distribution to the exact moments (fine for large test sets); ``"exact"`` takes the
quantiles of the exact discrete distribution (right for small test sets, where the normal
fit is not); ``"auto"`` uses the exact distribution wherever it is cheap.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import narwhals.stable.v2 as nw
import numpy as np
import pandas as pd

from costchart import _schema as col
from costchart._distributions import (
    binomial_support,
    multinomial_pair,
    normal_quantile,
    refuse_large_exact,
    sample_quantiles,
    trimmed_span,
    two_scaled_sum_quantiles,
    weighted_quantiles,
)
from costchart._errors import CostchartError
from costchart._frames import (
    as_pandas,
    combine_groups,
    describe_group,
    infer_by,
    normalize_by,
    plain_key,
    require_columns,
    split_groups,
)
from costchart._tables import read_selection
from costchart._validation import (
    finite_number,
    finite_numbers,
    one_of,
    probabilities,
    probability,
    random_generator,
    threshold_number,
    whole_counts,
    whole_number,
)
from costchart.envelope import selection_table
from costchart.roc import from_confusion, roc_points, row_of_threshold

__all__ = ["Band", "band_at", "bootstrap_band", "confusion_band"]

#: Default operating points of a band.
DEFAULT_PC = np.linspace(0.0, 1.0, 501)
#: The exact distribution is used by ``distribution="auto"`` when a ``pc`` needs at most
#: this many (value, probability) pairs: test sets of up to several hundred instances per
#: class, where the normal fit is least trustworthy. Larger sets get the normal fit.
AUTO_EXACT_PAIRS = 20_000
#: Most instances a classifier's confusion counts may add up to: 2**53, beyond which
#: float64 (and scipy's binomial distribution) no longer hold whole numbers exactly.
MAX_INSTANCES = 2**53
#: Largest memory, in bytes, that ``method="resample"`` may use for one group's band.
RESAMPLE_MEMORY = 2 * 2**30
#: How many float64 arrays of resamples x operating points resampling holds at once (the
#: resampled costs, the copy the percentiles sort, and one temporary for the spread).
RESAMPLE_ARRAYS = 3
#: Elements of the temporary arrays made per chunk of resamples.
RESAMPLE_CHUNK = 2**22


@dataclass(frozen=True)
class Options:
    """Validated options shared by the band functions."""

    confidence_level: float
    method: str
    sampling: str
    distribution: str
    n_resamples: int
    rng: np.random.Generator
    pc: np.ndarray
    progress: Callable[[str], None] | None

    @property
    def levels(self) -> tuple[float, float]:
        tail = (1 - self.confidence_level) / 2
        return tail, 1 - tail


def check_options(
    *,
    confidence_level,
    method,
    sampling,
    distribution,
    n_resamples,
    rng,
    pc,
    progress,
    per_resample: int = 0,
) -> Options:
    """Validate the band options (the ``_iv`` step); raise a clear error for each.

    ``per_resample`` is how many float64 values resampling holds per resample besides
    the resampled costs (for the memory estimate).
    """
    finite_number(confidence_level, "confidence_level")
    level = probability(confidence_level, "confidence_level", low_open=True, high_open=True)
    one_of(method, "method", ("exact", "resample"))
    one_of(sampling, "sampling", ("stratified", "full"))
    one_of(distribution, "distribution", ("auto", "normal", "exact"))
    resamples = whole_number(n_resamples, "n_resamples", minimum=1)
    generator = random_generator(rng)
    grid = DEFAULT_PC if pc is None else _grid(pc)
    if method == "resample":
        minimum = math.ceil(10 / ((1 - level) / 2) - 1e-9)
        if resamples < minimum:
            msg = (
                f"n_resamples={n_resamples!r} is too few for a {level:g} band: each tail "
                f"needs at least 10 resamples, so pass n_resamples >= {minimum}"
            )
            raise CostchartError(msg)
        _check_resample_memory(resamples, RESAMPLE_ARRAYS * len(grid) + per_resample, len(grid))
    return Options(
        level,
        method,
        sampling,
        distribution,
        resamples,
        generator,
        grid,
        _progress(progress),
    )


def _grid(pc) -> np.ndarray:
    """The operating points: a number or a non-empty 1-D array of values in [0, 1]."""
    grid = probabilities(pc, "pc")
    if grid.ndim > 1:
        msg = f"pc must be a number or a 1-D array of operating points; got shape {grid.shape}"
        raise CostchartError(msg)
    grid = np.atleast_1d(grid).astype(np.float64)
    if grid.size == 0:
        msg = "pc=[] has no operating points; pass at least one value in [0, 1]"
        raise CostchartError(msg)
    return grid


def _check_resample_memory(n_resamples: int, per_resample: int, n_pc: int) -> None:
    """Refuse resampling that would hold more than :data:`RESAMPLE_MEMORY` bytes.

    It holds ``per_resample`` float64 values per resample (the resampled costs at each of
    the ``n_pc`` operating points, their copies, and any per-resample draws).
    """
    needed = 8 * n_resamples * per_resample
    if needed > RESAMPLE_MEMORY:
        fitting = RESAMPLE_MEMORY // (8 * per_resample)
        msg = (
            f"n_resamples={n_resamples:,} at {n_pc:,} operating points would need about "
            f"{needed / 2**30:,.1f} GiB of memory (at most {RESAMPLE_MEMORY / 2**30:g} GiB "
            f"is allowed); pass n_resamples <= {fitting:,}, fewer pc values, or "
            "method='exact'"
        )
        raise CostchartError(msg)


def _progress(progress) -> Callable[[str], None] | None:
    if progress is True or (isinstance(progress, np.bool_) and progress):
        return _stderr_progress
    if progress is None or progress is False or isinstance(progress, np.bool_):
        return None
    if not callable(progress):
        msg = f"progress={progress!r} must be True, False or a callable taking a message"
        raise CostchartError(msg)
    return progress


def _stderr_progress(message: str) -> None:
    print(f"costchart: {message}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Band:
    """A band at one operating point (see :func:`band_at`).

    Attributes
    ----------
    pc, cost, lower, upper, se : float
        The operating point, the estimated cost, the band's ends and the bootstrap
        standard error.
    confidence_level : float
        The band's level.
    """

    pc: float
    cost: float
    lower: float
    upper: float
    se: float
    confidence_level: float


# -- counts of the classifier used at each pc -------------------------------------------


def _active_rows(
    points: pd.DataFrame, pc: np.ndarray, selection: pd.DataFrame | None, threshold
) -> np.ndarray:
    """Row of ``points`` (a group's ROC points) used at each ``pc``.

    A fixed ``threshold``: that classifier everywhere. A selection: the row of the
    threshold selected for each ``pc``. Neither: the selection of this data's own lower
    envelope (the classifier to the right at a vertex).
    """
    if threshold is not None:
        return row_of_threshold(points, np.full(len(pc), float(threshold)))
    if selection is None:
        selection = selection_table(
            points.drop(columns=[c for c in points if c not in col.ROC_COLUMNS])
        )
    chosen = selection.sort_values(col.PC_LO, kind="stable")
    starts = chosen[col.PC_LO].to_numpy()
    interval = np.clip(np.searchsorted(starts, pc, side="right") - 1, 0, len(chosen) - 1)
    return row_of_threshold(points, chosen[col.THRESHOLD].to_numpy(float)[interval])


@dataclass(frozen=True)
class Counts:
    """Confusion counts of the classifier used at each pc (arrays, one entry per pc)."""

    tp: np.ndarray
    fn: np.ndarray
    fp: np.ndarray
    tn: np.ndarray

    @property
    def positives(self) -> int:
        return int(self.tp[0] + self.fn[0])

    @property
    def negatives(self) -> int:
        return int(self.fp[0] + self.tn[0])


def _counts(points: pd.DataFrame, rows: np.ndarray) -> Counts:
    take = {c: points[c].to_numpy()[rows] for c in (col.TP, col.FN, col.FP, col.TN)}
    return Counts(take[col.TP], take[col.FN], take[col.FP], take[col.TN])


# -- the band of one classifier (or hybrid) from its counts ------------------------------


def _costs(counts: Counts, pc: np.ndarray, sampling: str):
    """Weights of FN and FP counts in the cost, and the cost, at each pc."""
    positives, negatives = counts.positives, counts.negatives
    if sampling == "stratified":
        w_fn, w_fp = pc / positives, (1 - pc) / negatives
    else:
        n = positives + negatives
        pi = positives / n
        w_fn, w_fp = pc / pi / n, (1 - pc) / (1 - pi) / n
    return w_fn, w_fp, w_fn * counts.fn + w_fp * counts.fp


def _exact_variance(counts: Counts, w_fn, w_fp, sampling: str) -> np.ndarray:
    positives, negatives = counts.positives, counts.negatives
    if sampling == "stratified":
        # Var(w * Bin(m, q)) = w^2 m q (1 - q)
        return (
            w_fn**2 * counts.fn * (positives - counts.fn) / positives
            + w_fp**2 * counts.fp * (negatives - counts.fp) / negatives
        )
    n = positives + negatives
    # L = sum_k w_k M_k with M ~ Multinomial(n, q): Var = n (sum w^2 q - (sum w q)^2),
    # the design's (sum c^2 q - (sum c q)^2) / n with c = n w.
    q_fn, q_fp = counts.fn / n, counts.fp / n
    return n * (w_fn**2 * q_fn + w_fp**2 * q_fp - (w_fn * q_fn + w_fp * q_fp) ** 2)


def _exact_quantiles(counts: Counts, index: int, w_fn: float, w_fp: float, sampling: str, levels):
    """Quantiles of the exact bootstrap distribution of the cost at one pc."""
    positives, negatives = counts.positives, counts.negatives
    fn, fp = int(counts.fn[index]), int(counts.fp[index])
    if sampling == "stratified":
        return two_scaled_sum_quantiles(
            binomial_support(positives, fn / positives),
            binomial_support(negatives, fp / negatives),
            w_fn,
            w_fp,
            levels,
        )
    n = positives + negatives
    a_values, b_values, joint = multinomial_pair(n, fn / n, fp / n)
    values = w_fn * a_values[:, None] + w_fp * b_values[None, :]
    return weighted_quantiles(values.ravel(), joint.ravel(), levels)


def _support_size(counts: Counts, index: int, sampling: str) -> float:
    """About how many (value, probability) pairs the exact distribution at a pc needs."""
    positives, negatives = counts.positives, counts.negatives
    if sampling == "stratified":
        trials = (
            (positives, counts.fn[index] / positives),
            (negatives, counts.fp[index] / negatives),
        )
    else:
        n = positives + negatives
        trials = ((n, counts.fn[index] / n), (n, counts.fp[index] / n))
    sizes = [trimmed_span(math.sqrt(m * p * (1 - p))) for m, p in trials]
    return sizes[0] * sizes[1]


def _exact_band(counts: Counts, options: Options) -> pd.DataFrame:
    pc = options.pc
    w_fn, w_fp, cost = _costs(counts, pc, options.sampling)
    se = np.sqrt(np.maximum(_exact_variance(counts, w_fn, w_fp, options.sampling), 0.0))
    z = normal_quantile(options.levels[1])
    lower, upper = np.clip(cost - z * se, 0, None), cost + z * se
    if options.distribution != "normal":
        sizes = [_support_size(counts, i, options.sampling) for i in range(len(pc))]
        if options.distribution == "exact":
            refuse_large_exact(sizes, pc, counts.positives + counts.negatives)
        cache: dict[tuple, np.ndarray] = {}
        for i in range(len(pc)):
            if options.distribution == "auto" and sizes[i] > AUTO_EXACT_PAIRS:
                continue
            key = (int(counts.fn[i]), int(counts.fp[i]), float(w_fn[i]), float(w_fp[i]))
            if key not in cache:
                cache[key] = _exact_quantiles(
                    counts, i, w_fn[i], w_fp[i], options.sampling, options.levels
                )
            lower[i], upper[i] = cache[key]
    return pd.DataFrame(
        {col.PC: pc, col.COST: cost, col.LOWER: lower, col.UPPER: upper, col.SE: se}
    )


def _resampled_band(counts: Counts, options: Options) -> pd.DataFrame:
    """Percentile band from resampled confusion counts (vectorized over resamples)."""
    pc = options.pc
    w_fn, w_fp, cost = _costs(counts, pc, options.sampling)
    # Resample each distinct classifier once; every pc using it reads the same draws.
    pairs = np.column_stack([counts.fn, counts.fp])
    distinct, which = np.unique(pairs, axis=0, return_inverse=True)
    which = which.ravel()
    positives, negatives = counts.positives, counts.negatives
    samples = np.empty((options.n_resamples, len(pc)))
    # Chunks of resamples keep the temporaries small next to ``samples``.
    chunk = max(1, min(2000, RESAMPLE_CHUNK // len(pc)))
    for start in range(0, options.n_resamples, chunk):
        size = min(chunk, options.n_resamples - start)
        if options.sampling == "stratified":
            draws_fn = options.rng.binomial(
                positives, distinct[:, 0] / positives, size=(size, len(distinct))
            )
            draws_fp = options.rng.binomial(
                negatives, distinct[:, 1] / negatives, size=(size, len(distinct))
            )
        else:
            n = positives + negatives
            q = np.column_stack([distinct[:, 0], distinct[:, 1], n - distinct.sum(axis=1)]) / n
            cells = options.rng.multinomial(n, q, size=(size, len(distinct)))
            draws_fn, draws_fp = cells[..., 0], cells[..., 1]
        samples[start : start + size] = draws_fn[:, which] * w_fn + draws_fp[:, which] * w_fp
        if options.progress is not None:
            options.progress(f"resampled {start + size:,} of {options.n_resamples:,}")
    lower, upper = sample_quantiles(samples, options.levels, axis=0)
    return pd.DataFrame(
        {
            col.PC: pc,
            col.COST: cost,
            col.LOWER: lower,
            col.UPPER: upper,
            col.SE: samples.std(axis=0, ddof=1),
        }
    )


def band_of_counts(counts: Counts, options: Options) -> pd.DataFrame:
    """The band of the classifiers whose counts at each pc are given."""
    band = (_exact_band if options.method == "exact" else _resampled_band)(counts, options)
    return contain_estimate(band, col.COST)


def contain_estimate(band: pd.DataFrame, estimate: str) -> pd.DataFrame:
    """Widen ``lower``/``upper`` where needed so that ``lower <= estimate <= upper``.

    A percentile band can miss the estimate at low confidence levels (the middle 10 % of a
    skewed or discrete distribution need not hold its mean), and an exact quantile equal
    to the estimate can differ from it in the last bit; the documented contract is that
    the band always contains the estimate.
    """
    band[col.LOWER] = np.minimum(band[col.LOWER].to_numpy(), band[estimate].to_numpy())
    band[col.UPPER] = np.maximum(band[col.UPPER].to_numpy(), band[estimate].to_numpy())
    return band


# -- public functions ---------------------------------------------------------------------


def bootstrap_band(
    data,
    *,
    score: str,
    label: str,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    confidence_level: float = 0.9,
    method: str = "exact",
    sampling: str = "stratified",
    distribution: str = "auto",
    n_resamples: int = 2000,
    rng=None,
    selection: pd.DataFrame | None = None,
    threshold: float | None = None,
    pc=None,
    progress=False,
    bins: int | None = None,
) -> pd.DataFrame:
    """A bootstrap confidence band on the cost of a classifier at every ``pc``.

    Which classifier is banded at each ``pc``: with ``threshold=t``, the single classifier
    "positive when score >= t" (its cost line; for 0/1 predictions use ``threshold=1``);
    with ``selection=`` (a :func:`selection_table` made on validation data), the threshold
    selected for that ``pc`` -- the honest hybrid; by default the one the lower envelope of
    this data selects -- its cost is optimistic, since the envelope picks thresholds on the
    data it is measured on.

    Parameters
    ----------
    data : DataFrame, dict of arrays, or lazy frame
        One row per test instance (a lazy frame is counted in its engine, as in
        :func:`roc_points`).
    score, label, by, pos_label
        As in :func:`roc_points`.
    confidence_level : float
        In (0, 1); 0.9 gives the 5 % and 95 % percentiles.
    method : {"exact", "resample"}
        Closed-form bootstrap (no resampling) or binomial / multinomial resampling.
    sampling : {"stratified", "full"}
        Keep the class totals fixed, or resample all instances.
    distribution : {"auto", "normal", "exact"}
        For ``method="exact"``: a normal fit to the exact moments, the quantiles of the
        exact discrete distribution, or the exact one wherever it needs at most
        :data:`AUTO_EXACT_PAIRS` terms (small and medium test sets).
    n_resamples : int
        For ``method="resample"``; each tail needs at least 10 resamples.
    rng : numpy.random.Generator or int, optional
        Seed or generator for ``method="resample"``.
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
        Report resampling progress (to standard error, or to the callable).
    bins : int, optional
        Compute the ROC points at about ``bins`` score quantiles (as in
        :func:`roc_points`); the envelope then chooses among those thresholds only.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then one row per ``pc``: ``pc``, ``cost`` (the estimate),
        ``lower``, ``upper`` (the band), ``se`` (bootstrap standard error), all finite
        float64 with ``0 <= lower <= cost <= upper`` and ``se >= 0``. At low confidence
        levels, where a percentile could exclude the estimate, the band is widened to it.

    Examples
    --------
    >>> import numpy as np, costchart as cc
    >>> y = np.array([1] * 20 + [0] * 10)
    >>> predicted = np.array([1] * 16 + [0] * 4 + [1] * 4 + [0] * 6)
    >>> data = {"p": predicted, "y": y}
    >>> band = cc.bootstrap_band(data, score="p", label="y", threshold=1, pc=[0.75])
    >>> band.round(4)
         pc  cost  lower   upper      se
    0  0.75  0.25  0.125  0.3875  0.0775
    """
    options = check_options(
        confidence_level=confidence_level,
        method=method,
        sampling=sampling,
        distribution=distribution,
        n_resamples=n_resamples,
        rng=rng,
        pc=pc,
        progress=progress,
    )
    by = normalize_by(by)
    if selection is not None and threshold is not None:
        msg = "pass selection= or threshold=, not both"
        raise CostchartError(msg)
    if threshold is not None:
        threshold = threshold_number(threshold)
    points = roc_points(
        data, score=score, label=label, by=by or None, pos_label=pos_label, bins=bins
    )
    return _bands(points, by, selection, threshold, options)


def confusion_band(
    data,
    *,
    tp: str,
    fn: str,
    fp: str,
    tn: str,
    by: str | Sequence[str] | None = None,
    envelope: bool = False,
    confidence_level: float = 0.9,
    method: str = "exact",
    sampling: str = "stratified",
    distribution: str = "auto",
    n_resamples: int = 2000,
    rng=None,
    pc=None,
    progress=False,
) -> pd.DataFrame:
    """:func:`bootstrap_band` of crisp classifiers given as confusion counts.

    The band is that of each classifier's own cost line at every ``pc``; with
    ``envelope=True`` it is, at each ``pc``, that of the cheapest of the classifier and the
    two trivial ones (which have no variance). The other options are those of
    :func:`bootstrap_band`.

    Examples
    --------
    >>> import costchart as cc
    >>> counts = {"TP": [16], "FN": [4], "FP": [4], "TN": [6]}
    >>> cc.confusion_band(counts, tp="TP", fn="FN", fp="FP", tn="TN", pc=[0.75]).round(4)
         pc  cost  lower   upper      se
    0  0.75  0.25  0.125  0.3875  0.0775
    """
    options = check_options(
        confidence_level=confidence_level,
        method=method,
        sampling=sampling,
        distribution=distribution,
        n_resamples=n_resamples,
        rng=rng,
        pc=pc,
        progress=progress,
    )
    by = normalize_by(by)
    _check_counts(data, {"tp": tp, "fn": fn, "fp": fp, "tn": tn})
    points = from_confusion(data, tp=tp, fn=fn, fp=fp, tn=tn, by=by or None)
    # from_confusion gives the classifier threshold 1 (the trivial ones +inf and 0).
    return _bands(points, by, None, None if envelope else 1.0, options)


def _read_table(table, name: str, needed: list[str], fix: str) -> pd.DataFrame:
    """A non-empty pandas, polars or pyarrow table (or dict of arrays) with ``needed`` columns.

    ``fix`` ends every message, e.g. "pass the table selection_table returns".
    """
    if isinstance(table, pd.DataFrame):
        columns = list(table.columns)
    elif isinstance(table, Mapping):
        if not any(np.ndim(value) for value in table.values()):
            msg = f"{name}= is a dict of single values; {fix}"
            raise CostchartError(msg)
        columns = list(table)
    else:
        try:
            columns = list(nw.from_native(table, eager_only=True).columns)
        except TypeError:
            msg = (
                f"{name}= must be a pandas, polars or pyarrow DataFrame, got "
                f"{type(table).__name__}; {fix}"
            )
            raise CostchartError(msg) from None
    require_columns(columns, needed, name, fix=fix[0].upper() + fix[1:] + ".")
    frame = as_pandas(table, columns, name=name)
    if frame.empty:
        msg = f"{name} has no rows; {fix}"
        raise CostchartError(msg)
    return frame


def _check_counts(data, columns: dict[str, str]) -> None:
    """Refuse confusion counts that are not whole numbers or add up to too many instances."""
    for name, column in columns.items():
        if not isinstance(column, str):
            msg = f"{name}={column!r} must be the name of a column of counts (a string)"
            raise CostchartError(msg)
    frame = as_pandas(data, list(columns.values()))
    counts = [whole_counts(frame[c].to_numpy(), f"column {c!r}") for c in columns.values()]
    total = np.sum(counts, axis=0)
    if np.any(total > MAX_INSTANCES):
        row = int(np.flatnonzero(total > MAX_INSTANCES)[0])
        listed = "+".join(repr(c) for c in columns.values())
        msg = (
            f"the counts {listed} add up to {total[row]:.4g} instances at row {row}, more "
            f"than 2**53 ({MAX_INSTANCES:,}), beyond which counts are not exact in float64; "
            "a bootstrap band needs fewer instances"
        )
        raise CostchartError(msg)


def _bands(
    points: pd.DataFrame, by: list[str], selection, threshold, options: Options
) -> pd.DataFrame:
    groups = split_groups(points, by)
    selections = None
    if selection is not None:
        selection, selection_by, selection_groups = read_selection(selection, by or None)
        if selection_by != by:
            msg = (
                f"selection is grouped by {selection_by} but the band by {by}; pass "
                f"by={selection_by} so each group is banded with its own selection"
            )
            raise CostchartError(msg)
        selections = {plain_key(g.key): selection.iloc[g.positions] for g in selection_groups}
    parts = []
    for group in groups:
        part = points.iloc[group.positions].reset_index(drop=True)
        chosen = None
        if selections is not None:
            if plain_key(group.key) not in selections:
                msg = f"selection has no rows for the group {describe_group(by, group.key)}"
                raise CostchartError(msg)
            chosen = selections[plain_key(group.key)]
        rows = _active_rows(part, options.pc, chosen, threshold)
        parts.append(band_of_counts(_counts(part, rows), options))
    return combine_groups(points, by, groups, parts, col.BAND_TABLE)


def band_at(band, pc: float, *, confidence_level: float | None = None) -> Band:
    """The row of a one-group band at (the grid point nearest to) ``pc``, as a :class:`Band`.

    Parameters
    ----------
    band : pandas, polars or pyarrow DataFrame
        A band of one group, from :func:`bootstrap_band` or :func:`confusion_band`
        (filter a band of several groups first).
    pc : float
        The operating point, within the band's range of ``pc``.
    confidence_level : float, optional
        The band's level, recorded in the result (NaN when not given).

    Returns
    -------
    Band
        The row whose ``pc`` is nearest to ``pc``.

    Examples
    --------
    >>> import costchart as cc
    >>> counts = {"TP": [16], "FN": [4], "FP": [4], "TN": [6]}
    >>> band = cc.confusion_band(counts, tp="TP", fn="FN", fp="FP", tn="TN", pc=[0.5, 0.75])
    >>> cc.band_at(band, 0.7, confidence_level=0.9).cost
    0.25
    """
    fix = "pass a table from bootstrap_band or confusion_band"
    frame = _read_table(band, "band", list(col.BAND_TABLE), fix)
    groups = infer_by(frame, None)
    if groups and frame[groups].drop_duplicates().shape[0] > 1:
        count = frame[groups].drop_duplicates().shape[0]
        first = frame[groups[0]].iat[0]
        msg = (
            f"band holds {count} groups (grouping columns {groups}); band_at reads one: "
            f"filter the rows of one group first, e.g. band[band[{groups[0]!r}] == {first!r}]"
        )
        raise CostchartError(msg)
    grid = finite_numbers(frame[col.PC].to_numpy(), "column 'pc' of band")
    repeated = pd.Series(grid).duplicated().to_numpy()
    if repeated.any():
        msg = (
            f"band has several rows at pc={grid[repeated][0]:g}, as a band of several groups "
            "does; band_at reads one group: filter its rows first (keep its grouping columns)"
        )
        raise CostchartError(msg)
    point = probability(finite_number(pc, "pc"), "pc")
    low, high = float(grid.min()), float(grid.max())
    if not low - 1e-9 <= point <= high + 1e-9:
        msg = (
            f"pc={pc!r} is outside the band's range [{low:g}, {high:g}]; pass a pc in that "
            "range, or compute the band there (pc= of bootstrap_band)"
        )
        raise CostchartError(msg)
    level = (
        float("nan")
        if confidence_level is None
        else probability(
            finite_number(confidence_level, "confidence_level"),
            "confidence_level",
            low_open=True,
            high_open=True,
        )
    )
    row = frame.iloc[int(np.argmin(np.abs(grid - point)))]
    return Band(
        float(row[col.PC]),
        float(row[col.COST]),
        float(row[col.LOWER]),
        float(row[col.UPPER]),
        float(row[col.SE]),
        level,
    )
