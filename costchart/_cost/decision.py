"""Decision curves: the net benefit of acting on a score, against treating all or none.

Vickers and Elkin's decision curve analysis asks, for a threshold probability ``t`` (act
when ``score >= t``): how much good does acting do, counting a false positive as
``t / (1 - t)`` of a true positive? The net benefit per instance is
``NB(t) = TP/n - FP/n * t/(1 - t)``; treating everyone gives ``P/n - N/n * t/(1 - t)`` and
treating no one 0.

**The correspondence to cost curves.** With ``w = t / (1 - t)`` and ``pi = P / n``,
``NB(t) = pi - (FN + w FP) / n``, and the normalized expected cost of the same classifier
at ``pc_t = pi (1 - t) / (pi (1 - t) + (1 - pi) t)`` is ``cost = (FN + w FP) / (P + w N)``.
So ``NB(t) = pi - cost(pc_t) * (pi + w (1 - pi))``: an affine function of the cost curve at
``pc_t``, with a negative slope. A decision curve is a cost curve seen through the data's
prevalence; each row carries its ``pc``.

The band uses the exact bootstrap moments of the counts (class totals fixed), as the exact
bootstrap paper does for costs: ``Var(NB) = (Var(FN) + w^2 Var(FP)) / n^2`` with
``Var(FN) = FN (P - FN) / P`` and ``Var(FP) = FP (N - FP) / N``, and a normal interval.
Since ``NB`` is that affine function of the cost at ``pc_t``, its discrete and resampled
bands are the cost bands' (:mod:`costchart._bands`), mapped through it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._bands.counts import Counts, band_of_counts
from costchart._bands.options import RESAMPLE_ARRAYS, Options, check_resample_memory, for_group
from costchart._bands.resample import resampled_band
from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.frames import normalize_by
from costchart._io.groups import Groups, assemble, split_groups
from costchart._io.intervals import check_interval
from costchart._io.parameters import checked
from costchart._io.validation import confidence_level as check_confidence
from costchart._io.validation import probabilities, random_generator, whole_number
from costchart._roc.points import points_of

__all__ = ["net_benefit"]

NET_BENEFIT = "net_benefit"
STANDARDIZED = "standardized_net_benefit"
AVOIDED = "interventions_avoided"
STRATEGY = "strategy"
#: Default threshold probabilities: 0.01 to 0.99.
DEFAULT_THRESHOLDS = np.round(np.arange(1, 100) / 100, 2)


@checked
def net_benefit(
    data,
    *,
    score: str,
    label: str,
    thresholds=None,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
    confidence_level: float = 0.9,
    inference: str = "exact_bootstrap",
    interval: str = "auto",
    n_resamples: int = 2000,
    rng=None,
) -> pd.DataFrame:
    """Net benefit of the model, of treating all and of treating none, at each threshold.

    Parameters
    ----------
    data : pandas, polars or pyarrow DataFrame, dict of arrays, or lazy frame
        One row per instance; ``score`` should be a probability of the positive class.
    score, label, by, pos_label
        As in :func:`roc_points`.
    weight : str, optional
        Column of non-negative instance weights; counts become sums of weights.
        Instances of weight 0 are ignored. The band is that of the stratified
        bootstrap, which resamples whole instances, so the weights must be whole numbers
        (frequency weights): a weight ``k`` gives exactly the table of the data with its
        row repeated ``k`` times. Fractional weights are refused, and so is ``weight=``
        with a lazy frame (collect it first).
    thresholds : array-like, optional
        Threshold probabilities in (0, 1); 0.01 to 0.99 by default.
    confidence_level : float
        Level of the model's band, in (0, 1).
    inference : {"exact_bootstrap", "bootstrap"}
        How the model's band is found, as in :func:`bootstrap_band` (stratified: the
        class totals fixed): the bootstrap in closed form (no resampling), or
        ``n_resamples`` resamples.
    interval : {"auto", "normal", "discrete", "percentile"}
        The band's shape. With ``"exact_bootstrap"``: a normal fit to the exact moments
        (``"normal"``, also what ``"auto"`` is), or the quantiles of the exact discrete
        distribution (``"discrete"``). With ``"bootstrap"``: the percentiles of the
        resamples (``"percentile"``, also ``"auto"``).
    n_resamples : int
        For ``inference="bootstrap"``; each tail needs at least 10 resamples.
    rng : numpy.random.Generator or int, optional
        Seed or generator for ``inference="bootstrap"``.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then for each ``strategy`` ("model", "all", "none") and
        ``threshold``: ``net_benefit``; ``standardized_net_benefit`` (divided by the
        prevalence: 1 is a perfect model); ``interventions_avoided``, the net number of
        interventions avoided per 100 instances compared with treating all,
        ``(NB - NB_all) (1 - t) / t * 100``; ``pc``, the operating point of the cost curve
        the row corresponds to; and the band ``lower``, ``upper``, ``se`` (0 wide for
        "all" and "none", which do not depend on the scores).

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"p": [0.9, 0.8, 0.6, 0.4, 0.3, 0.2, 0.1, 0.05], "y": [1, 1, 0, 1, 0, 0, 0, 0]}
    >>> table = cc.net_benefit(data, score="p", label="y", thresholds=[0.25, 0.5])
    >>> table[["strategy", "threshold", "net_benefit"]].round(4)
      strategy  threshold  net_benefit
    0    model       0.25       0.2917
    1    model       0.50       0.1250
    2      all       0.25       0.1667
    3      all       0.50      -0.2500
    4     none       0.25       0.0000
    5     none       0.50       0.0000
    """
    from scipy import stats

    grid = DEFAULT_THRESHOLDS if thresholds is None else _thresholds(thresholds)
    level = check_confidence(confidence_level)
    inference, interval = check_interval("net_benefit", inference, interval)
    options = _options(level, inference, interval, n_resamples, rng, len(grid))
    points = points_of(
        data,
        score=score,
        label=label,
        by=by,
        pos_label=pos_label,
        weight=weight,
        frequency="net_benefit's band (the stratified bootstrap)",
    )
    by = normalize_by(by)  # passed on as given: by=None pools with a warning, () on purpose
    groups = split_groups(points, by)
    z = stats.norm.ppf(0.5 + level / 2)
    odds = grid / (1 - grid)
    rows = groups.order
    own = points[col.THRESHOLD].to_numpy(np.float64)[rows]
    tp = points[col.TP].to_numpy(np.float64)[rows]
    fp = points[col.FP].to_numpy(np.float64)[rows]
    last = groups.stops - 1
    # one row per group, one column per threshold
    positives, negatives = tp[last][:, None], fp[last][:, None]
    n = positives + negatives
    # Acting when score >= t: the row of the lowest ROC threshold at least t.
    at = _rows_at(own, groups, grid)
    true_pos, false_pos = tp[at], fp[at]
    false_neg = positives - true_pos
    model = true_pos / n - false_pos / n * odds
    everyone = positives / n - negatives / n * odds
    variance = (
        false_neg * (positives - false_neg) / positives
        + odds**2 * false_pos * (negatives - false_pos) / negatives
    ) / n**2
    se = np.sqrt(np.maximum(variance, 0.0))
    prevalence = positives / n
    pc = prevalence * (1 - grid) / (prevalence * (1 - grid) + (1 - prevalence) * grid)
    low, high = model - z * se, model + z * se
    if interval != "normal":
        counts = Counts(true_pos, false_neg, false_pos, negatives - false_pos)
        low, high, se = _cost_band(counts, pc, prevalence + odds * (1 - prevalence), options)
        low, high = np.minimum(low, model), np.maximum(high, model)  # as every band does
    zeros = np.zeros_like(model)
    # blocks of rows: group, then strategy ("model", "all", "none"), then threshold
    values = np.stack([model, np.broadcast_to(everyone, model.shape), zeros], axis=1)
    spread = np.stack([se, zeros, zeros], axis=1)
    lower = np.stack([low, values[:, 1], zeros], axis=1)
    upper = np.stack([high, values[:, 1], zeros], axis=1)
    everyone, prevalence = everyone[:, None], prevalence[:, None]
    shape = values.shape
    # the three names as pandas stores strings, taken per row (no conversion of every row)
    strategies = pd.Series(np.array(["model", "all", "none"], dtype=object)).array
    columns = {
        STRATEGY: strategies.take(np.broadcast_to(np.arange(3)[None, :, None], shape).ravel()),
        col.THRESHOLD: np.broadcast_to(grid, shape).ravel(),
        NET_BENEFIT: values.ravel(),
        STANDARDIZED: (values / prevalence).ravel(),
        AVOIDED: ((values - everyone) / odds * 100).ravel(),
        col.PC: np.broadcast_to(pc[:, None, :], shape).ravel(),
        col.LOWER: lower.ravel(),
        col.UPPER: upper.ravel(),
        col.SE: spread.ravel(),
    }
    result = assemble(groups, np.full(len(groups), 3 * len(grid)), columns)
    result.attrs["costchart"] = {
        "confidence_level": level,
        "inference": inference,
        "interval": interval,
        "sampling": "stratified",
        **({"n_resamples": options.n_resamples} if inference == "bootstrap" else {}),
    }
    return result


def _options(level, inference, interval, n_resamples, rng, n_thresholds) -> Options:
    """The band engine's options for the model's band (stratified, per threshold)."""
    resamples = whole_number(n_resamples, "n_resamples", minimum=1)
    generator = random_generator(rng)
    if inference == "bootstrap":
        least = math.ceil(10 / ((1 - level) / 2) - 1e-9)
        if resamples < least:
            msg = (
                f"n_resamples={n_resamples!r} is too few for a {level:g} band: each tail "
                f"needs at least 10 resamples, so pass n_resamples >= {least}"
            )
            raise CostchartError(msg)
        check_resample_memory(resamples, RESAMPLE_ARRAYS * n_thresholds, n_thresholds)
    return Options(
        level, inference, "stratified", interval, resamples, generator, np.zeros(0), None
    )


def _cost_band(counts: Counts, pc: np.ndarray, scale: np.ndarray, options: Options):
    """The model's lower, upper and se from the cost band at ``pc`` (group x threshold).

    ``NB = prevalence - scale * cost(pc)`` with ``scale = pi + w (1 - pi)``: the cost band's
    upper end is the net benefit's lower one.
    """
    shape = pc.shape
    flat = Counts(*(np.ravel(c) for c in (counts.tp, counts.fn, counts.fp, counts.tn)))
    if options.inference == "exact_bootstrap":
        _, low, high, se = band_of_counts(flat, pc.ravel(), options)
    else:  # one group at a time, drawing from the generator in the order groups come
        parts = []
        for g in range(shape[0]):
            row = slice(g * shape[1], (g + 1) * shape[1])
            group = Counts(flat.tp[row], flat.fn[row], flat.fp[row], flat.tn[row])
            parts.append(resampled_band(group, pc[g], for_group(options, g, shape[0]))[1:])
        low, high, se = (
            np.concatenate([part[i] for part in parts]) if parts else np.zeros(0) for i in range(3)
        )
    scale = np.broadcast_to(scale, shape)
    prevalence = (flat.tp + flat.fn).reshape(shape) / (
        flat.tp + flat.fn + flat.fp + flat.tn
    ).reshape(shape)
    return (
        prevalence - scale * high.reshape(shape),
        prevalence - scale * low.reshape(shape),
        scale * se.reshape(shape),
    )


def _thresholds(values) -> np.ndarray:
    """Threshold probabilities: a non-empty 1-D array in (0, 1)."""
    grid = np.atleast_1d(probabilities(values, "thresholds", low_open=True, high_open=True))
    if grid.ndim != 1 or grid.size == 0:
        msg = f"thresholds={values!r} must be a non-empty list of probabilities in (0, 1)"
        raise CostchartError(msg)
    return grid.astype(np.float64)


def _rows_at(own: np.ndarray, groups: Groups, grid: np.ndarray) -> np.ndarray:
    """For each group and threshold ``t`` of ``grid``, the last of its rows with ``own >= t``.

    ``own`` holds the ROC thresholds group after group, decreasing within each group, so
    a group's rows with ``own >= t`` come first: as ``np.searchsorted(-own, -grid,
    side="right") - 1`` group by group. Their number is a cumulative count of the rows by
    (group, first sorted threshold they reach). A group without such a row gets its last
    row (index -1 of the group), as the searchsorted did.
    """
    order = np.argsort(-grid, kind="stable")
    sorted_grid = -grid[order]
    # row j has own >= t_k (sorted) exactly when k >= reach[j]
    reach = np.searchsorted(sorted_grid, -own, side="left")
    width = len(grid) + 1
    rows = np.bincount(groups.ids * width + reach, minlength=len(groups) * width)
    counts = np.cumsum(rows.reshape(len(groups), width), axis=1)[:, :-1]
    at = np.empty((len(groups), len(grid)), dtype=np.int64)
    at[:, order] = groups.starts[:, None] + counts - 1
    return np.where(at < groups.starts[:, None], (groups.stops - 1)[:, None], at)
