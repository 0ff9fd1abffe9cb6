"""The band of the envelope's own thresholds, with their choice resampled.

By default a band follows, at each ``pc``, the threshold the lower envelope of the test set
chooses. That threshold was chosen on the same data its cost is measured on: among many
thresholds, the envelope picks the one whose errors happened to be fewest, so its
apparent cost is below its true cost (optimism), and a band that treats it as fixed holds
the true cost less often than it says (0.73-0.79 of test sets on average over ``pc`` at
level 0.9 in ``docs/bands.md``'s settings A-D).

``inference="smoothed_bootstrap"`` resamples the choice itself. Each class's scores are
smoothed (below); each resample draws both classes from the smoothed scores, chooses its
own envelope thresholds, and records ``D = apparent cost - true cost`` of those thresholds
(true under the smoothed scores, where it is known exactly). ``D`` carries the optimism
and the noise together, and the band is the test set's envelope cost corrected by it, as
a bootstrap-t: ``cost - mean(D) - q * s``, with ``q`` the quantiles of ``(D - mean(D)) /
s*`` and ``s`` (``s*``) the cost's standard error at the Jeffreys rates of the test set's
(the resample's) chosen counts (:func:`jeffreys_se`; ``s*`` at least :data:`FLOOR` times
its median). The simultaneous band takes one ``q``, the level quantile of
``max_pc |D - mean(D)| / s*``.

Why smoothed. Resampling the test set itself (the ordinary bootstrap) resamples the choice
among the test set's own scores, of which a resample holds about 63 %: it chooses among
fewer distinct thresholds than the test set did and sees about three quarters of the
optimism (in a diagnostic run: mean ``D`` -0.0137 against the true -0.0180 at
``pc = 0.2``, 100 per class). Smoothed scores are continuous, so each resample chooses
among as many thresholds as a fresh test set would, and the mean of ``D`` matched the
optimism to within 0.001.

The smoothing does not depend on the scores' scale, since a ROC curve depends only on their
order: the pooled scores are replaced by the normal quantiles of their mid-ranks, and each
class's are a Gaussian kernel density there with Silverman's bandwidth ``0.9 sd m^(-1/5)``
(``m`` instances of the class), shrunk toward the class mean so that its variance is the
class's own. A resample is drawn as counts over :data:`CELLS` equal-probability cells of
that scale (a multinomial per class, or over both with ``sampling="full"``), so its cost
does not grow with the number of instances, and its candidate thresholds are the cells'
edges.
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtr, ndtri

from costchart._bands.counts import Counts, cost_weights
from costchart._bands.options import MAX_INSTANCES, Options, for_group
from costchart._io.errors import CostchartError
from costchart._roc.upper_hull import upper_hulls

__all__ = ["CELLS", "MAX_PC", "choice_band", "chosen_inference", "class_counts", "envelope_choice"]

#: The most cells a group's smoothed scores are drawn over: twice its instances, up to this.
CELLS = 4096
#: Groups whose scores have more distinct values are smoothed from this many weighted
#: runs of neighbouring values (each far narrower than the kernel's bandwidth).
MAX_CENTRES = 2048
#: The resampled choice is computed at most at this many ``pc`` evenly spread over the
#: requested range; the correction and quantiles between them are interpolated (they vary
#: smoothly with ``pc``).
MAX_PC = 101
#: The least standard error a resample is studentized by, as a share of their median.
FLOOR = 0.5
#: Elements of the resamples x candidates arrays of one chunk of resamples.
CHUNK = 2**23


def chosen_inference(inference, *, fixed: bool):
    """``inference="auto"``: the smoothed bootstrap for the envelope's own thresholds.

    Thresholds given by ``threshold=`` or ``selection=`` are fixed, and their band is the
    exact bootstrap's; the smoothed bootstrap has no choice to resample there.
    """
    if isinstance(inference, str) and inference == "auto":
        return "exact_bootstrap" if fixed else "smoothed_bootstrap"
    if fixed and isinstance(inference, str) and inference == "smoothed_bootstrap":
        msg = (
            "inference='smoothed_bootstrap' resamples the envelope's choice of thresholds, "
            "but threshold= or selection= fixes them; pass inference='exact_bootstrap' "
            "(or 'auto')"
        )
        raise CostchartError(msg)
    return inference


def class_counts(tp: np.ndarray, fp: np.ndarray, groups) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each group's positives and negatives at each of its scores, highest score first.

    They are the steps of its ROC points' cumulative ``tp`` and ``fp`` (in threshold order,
    as :func:`~costchart.roc_points` writes them).
    """
    steps = []
    for cumulative in (tp, fp):
        ordered = cumulative[groups.order].astype(np.float64)  # group after group
        step = np.diff(ordered, prepend=0.0)
        step[groups.starts] = ordered[groups.starts]  # each group starts from 0
        steps.append(np.split(step, groups.stops[:-1]))
    return list(zip(*steps, strict=True))


def choice_band(
    classes: list[tuple[np.ndarray, np.ndarray]],
    counts: Counts,
    cost: np.ndarray,
    options: Options,
    simultaneous: bool,
):
    """Lower, upper and standard error of the choice-aware band, flat (group-major).

    ``classes`` holds, per group, the instances of each class at each distinct score
    in decreasing score order (positives, negatives; the differences of the ROC points'
    ``tp`` and ``fp``). ``counts`` and ``cost`` are the test set's envelope choice at each
    (group, ``pc``).
    """
    _check_totals(classes)
    pc = options.pc
    n_pc = len(pc)
    lower, upper, se = np.empty(len(cost)), np.empty(len(cost)), np.empty(len(cost))
    grid = _subgrid(pc)
    for g, (positives, negatives) in enumerate(classes):
        span = slice(g * n_pc, (g + 1) * n_pc)
        part = Counts(counts.tp[span], counts.fn[span], counts.fp[span], counts.tn[span])
        shift, low_q, high_q, spread, factor = _resampled_choice(
            positives, negatives, grid, for_group(options, g, len(classes)), simultaneous
        )
        s_hat = _jeffreys(part, pc, options.sampling)
        if len(grid) != n_pc:
            shift, low_q, high_q, spread = (
                np.interp(pc, grid, v) for v in (shift, low_q, high_q, spread)
            )
        if simultaneous:
            low_q, high_q = np.full(n_pc, -factor), np.full(n_pc, factor)
        still = spread <= 0  # every resample chose thresholds of the same true cost
        centre = cost[span] - shift
        band_lower = np.where(still, cost[span], centre - high_q * s_hat)
        band_upper = np.where(still, cost[span], centre - low_q * s_hat)
        # The apparent cost is optimistic: widen to it where the band lies above it.
        lower[span] = np.clip(np.minimum(band_lower, cost[span]), 0, None)
        upper[span] = np.maximum(band_upper, cost[span])
        se[span] = spread
    return lower, upper, se


def _check_totals(classes) -> None:
    """Refuse a group whose instances (sums of weights) exceed :data:`MAX_INSTANCES`.

    Its resamples are drawn as whole counts, exact in float64 only up to 2**53.
    """
    for positives, negatives in classes:
        total = float(positives.sum() + negatives.sum())
        if total > MAX_INSTANCES:
            msg = (
                f"the instances of a group add up to {total:.4g} (sums of weight=), more than "
                f"2**53 ({MAX_INSTANCES:,}), beyond which resampled counts are not exact; "
                "pass smaller whole weights, or inference='exact_bootstrap' with "
                "threshold= or selection="
            )
            raise CostchartError(msg)


def _subgrid(pc: np.ndarray) -> np.ndarray:
    """The ``pc`` the choice is resampled at: all of them, or :data:`MAX_PC` spread evenly."""
    if len(pc) <= MAX_PC:
        return pc
    return np.linspace(pc.min(), pc.max(), MAX_PC)


def _jeffreys(counts: Counts, pc: np.ndarray, sampling: str) -> np.ndarray:
    """The standard error ``s`` of the test set's chosen costs (Jeffreys rates)."""
    w_fn, w_fp, _ = cost_weights(counts, pc, sampling)
    n = (counts.positives + counts.negatives).astype(np.float64)
    return jeffreys_se(counts.fn, counts.fp, counts.positives, n, w_fn, w_fp, sampling)


def _resampled_choice(positives, negatives, pc, options: Options, simultaneous: bool):
    """Mean and studentized quantiles of ``D`` at each ``pc``, its spread, and ``q``.

    Returns ``mean(D)``, the lower and upper level quantiles of ``(D - mean(D)) / s*``,
    the standard deviation of ``D``, and the simultaneous factor (or 0).
    """
    n_pos, n_neg = float(positives.sum()), float(negatives.sum())
    edges, above_pos, above_neg = _smoothed_cells(positives, negatives)
    # True rates of each candidate "positive when above edge": +inf first, -inf last.
    true_tpr = np.r_[0.0, above_pos, 1.0]
    true_fpr = np.r_[0.0, above_neg, 1.0]
    n_cand = len(edges) + 2
    true_cost = pc[:, None] * (1 - true_tpr) + (1 - pc[:, None]) * true_fpr  # (pc, cand)
    draws = options.n_resamples
    rng = options.rng
    chunk = max(1, CHUNK // (4 * n_cand))
    d_all = np.empty((draws, len(pc)))
    s_all = np.empty((draws, len(pc)))
    # Each class's share of each cell, top cell first.
    probabilities_pos = np.clip(np.diff(np.r_[0.0, above_pos, 1.0]), 0, None)
    probabilities_neg = np.clip(np.diff(np.r_[0.0, above_neg, 1.0]), 0, None)
    for start in range(0, draws, chunk):
        size = min(chunk, draws - start)
        pos_total, neg_total = _class_totals(rng, n_pos, n_neg, size, options.sampling)
        drawn_pos = rng.multinomial(pos_total.astype(np.int64), probabilities_pos)
        drawn_neg = rng.multinomial(neg_total.astype(np.int64), probabilities_neg)
        tp = np.concatenate([np.zeros((size, 1)), np.cumsum(drawn_pos, axis=1)], axis=1)
        fp = np.concatenate([np.zeros((size, 1)), np.cumsum(drawn_neg, axis=1)], axis=1)
        choice = envelope_choice(tp, fp, pc, n_pos, n_neg)  # (resamples, pc)
        tp_c, fp_c = np.take_along_axis(tp, choice, 1), np.take_along_axis(fp, choice, 1)
        chosen = pc * (pos_total[:, None] - tp_c) / n_pos + (1 - pc) * fp_c / n_neg
        rows = slice(start, start + size)
        d_all[rows] = chosen - np.take_along_axis(true_cost, choice.T, 1).T
        n = pos_total[:, None] + neg_total[:, None]
        w_fn, w_fp = pc[None, :] / n_pos, (1 - pc[None, :]) / n_neg
        s_all[rows] = jeffreys_se(
            pos_total[:, None] - tp_c, fp_c, pos_total[:, None], n, w_fn, w_fp, options.sampling
        )
        if options.progress is not None:
            options.progress(f"resampled {start + size:,} of {draws:,}")
    shift = d_all.mean(axis=0)
    spread = d_all.std(axis=0)
    # A resample that chose a nearly trivial classifier has a tiny standard error but no
    # noise to speak of: its deviation is the choice's, not the counts'. The floor keeps
    # it from dominating the quantiles (half the median standard error at that pc).
    s_all = np.maximum(s_all, FLOOR * np.median(s_all, axis=0))
    with np.errstate(divide="ignore", invalid="ignore"):
        studentized = np.where(spread > 0, (d_all - shift) / s_all, 0.0)
    low, high = options.levels
    low_q, high_q = np.quantile(studentized, [low, high], axis=0)
    factor = 0.0
    if simultaneous:
        live = spread > 0
        worst = np.abs(studentized[:, live]).max(axis=1) if live.any() else np.zeros(draws)
        factor = float(np.quantile(worst, options.confidence_level))
    return shift, low_q, high_q, spread, factor


def envelope_choice(tp, fp, pc, n_pos: float, n_neg: float) -> np.ndarray:
    """Each row's cheapest candidate at each ``pc``: a corner of its ROC curve's upper hull.

    ``tp`` and ``fp`` (rows, candidates) are cumulative counts, candidates in decreasing
    threshold order. Along a hull, the edges' slopes fall, so each edge is worth taking
    from one ``pc`` on, ``fp P / (tp N + fp P)`` for its rises ``tp``, ``fp``: the cheapest
    corner at ``pc`` is the one after the edges worth taking there, found for all rows and
    ``pc`` by one sorted search (where a ``pc`` equals an edge's switch up to rounding, the
    exact test ``tp pc N > fp (1 - pc) P`` decides). Of equal points the first (the
    highest threshold) is taken. Hulls of all rows are found in shared passes
    (:func:`~costchart._roc.upper_hull.upper_hulls`).
    """
    rows, width = tp.shape
    starts = np.arange(rows, dtype=np.int64) * width
    corners, per_row = upper_hulls(
        fp.reshape(-1), tp.reshape(-1), starts, np.full(rows, width, dtype=np.int64)
    )
    first = np.cumsum(per_row) - per_row
    d_tp, d_fp = np.diff(tp.reshape(-1)[corners]), np.diff(fp.reshape(-1)[corners])
    # Edge e runs from corner e to e + 1; the last corner of a row starts no edge of it.
    row_of_edge = np.repeat(np.arange(rows), per_row)[:-1]
    own = np.ones(len(corners), dtype=bool)
    own[first + per_row - 1] = False
    own = own[:-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        switch = d_fp * n_pos / (d_tp * n_neg + d_fp * n_pos)
    switch = np.where(own, np.nan_to_num(switch, nan=2.0), 2.0)
    # Sorted keys: row + switch (switches rise along a row's hull; 2.0 never counts).
    keys = row_of_edge + np.minimum(switch, 1.5) / 2
    queries = np.arange(rows)[:, None] + pc[None, :] / 2
    taken = np.searchsorted(keys, queries, side="left") - first[:, None]
    taken = np.clip(taken, 0, (per_row - 1)[:, None])
    # The exact test decides at a switch equal to pc up to rounding.
    taken = _exact_step(taken, first, per_row, d_tp, d_fp, pc, n_pos, n_neg)
    chosen = corners[first[:, None] + taken]
    total = tp + fp
    position = np.broadcast_to(np.arange(width), total.shape)
    new_run = np.ones(total.shape, dtype=bool)
    new_run[:, 1:] = total[:, 1:] != total[:, :-1]
    run_start = np.maximum.accumulate(np.where(new_run, position, 0), axis=1)
    return np.take_along_axis(run_start, chosen - starts[:, None], axis=1)


def _exact_step(taken, first, per_row, d_tp, d_fp, pc, n_pos, n_neg):
    """Move each count by one where the exact comparison of products disagrees."""
    n_edges = (per_row - 1)[:, None]

    def worth(edge):
        """Whether ``edge`` (global index) is steeper than the iso-cost slope at pc."""
        safe = np.clip(edge, 0, max(len(d_tp) - 1, 0))
        if not len(d_tp):
            return np.zeros(edge.shape, dtype=bool)
        return d_tp[safe] * (pc * n_neg) > d_fp[safe] * ((1 - pc) * n_pos)

    edge_next = first[:, None] + taken  # the first edge not counted
    up = (taken < n_edges) & worth(edge_next)
    edge_last = first[:, None] + taken - 1  # the last edge counted
    down = (taken > 0) & ~worth(edge_last)
    return taken + up - down


def jeffreys_se(fn, fp, positives, n, w_fn, w_fp, sampling: str) -> np.ndarray:
    """Standard error of ``w_fn * FN + w_fp * FP`` at the Jeffreys rates of the counts.

    Stratified: ``FN ~ Bin(P, (fn + 1/2) / (P + 1))`` and ``FP ~ Bin(N, (fp + 1/2) /
    (N + 1))``, independent. Full: the four cells ``~ Multinomial(n, (x + 1/2) / (n + 2))``.
    The Jeffreys rate is never 0 or 1, so neither is the error of a count of 0. The
    arguments broadcast (resamples give arrays of counts).
    """
    fn, fp = np.asarray(fn, np.float64), np.asarray(fp, np.float64)
    positives = np.asarray(positives, np.float64)
    if sampling == "stratified":
        negatives = n - positives
        rate_fn = (fn + 0.5) / (positives + 1)
        rate_fp = (fp + 0.5) / (negatives + 1)
        variance = w_fn**2 * positives * rate_fn * (1 - rate_fn) + (
            w_fp**2 * negatives * rate_fp * (1 - rate_fp)
        )
    else:
        q_fn, q_fp = (fn + 0.5) / (n + 2), (fp + 0.5) / (n + 2)
        variance = n * (w_fn**2 * q_fn + w_fp**2 * q_fp - (w_fn * q_fn + w_fp * q_fp) ** 2)
    return np.sqrt(np.maximum(variance, 0.0))


def _class_totals(rng, n_pos: float, n_neg: float, size: int, sampling: str):
    """Each resample's positives and negatives: fixed, or binomial with ``"full"``."""
    if sampling == "stratified":
        return np.full(size, n_pos), np.full(size, n_neg)
    total = n_pos + n_neg
    drawn = rng.binomial(int(total), n_pos / total, size).astype(np.float64)
    return drawn, total - drawn


def _smoothed_cells(positives: np.ndarray, negatives: np.ndarray):
    """The cells' inner edges (decreasing) and each class's share above each edge.

    Scores become the normal quantiles of their pooled mid-ranks; each class is a shrunk
    Gaussian kernel density there (see the module docstring).
    """
    weights = positives + negatives
    total = weights.sum()
    above = np.cumsum(weights) - weights  # instances with higher scores
    # Mid-ranks as shares of the total, kept inside (0, 1): where one weight dwarfs the
    # rest, float64 rounds the shares of its neighbours to 0 or 1 (normal quantile inf).
    share = (above + (weights + 1) / 2 - 0.5) / total
    tiny = np.finfo(np.float64).eps
    normal_score = -ndtri(np.clip(share, tiny, 1 - tiny))  # decreasing
    n_cells = int(min(CELLS, max(64, 2 * total)))
    edges = ndtri(np.arange(n_cells - 1, 0, -1) / n_cells)  # decreasing
    share_pos = _share_above(normal_score, positives, edges)
    share_neg = _share_above(normal_score, negatives, edges)
    return edges, share_pos, share_neg


def _share_above(centres: np.ndarray, weights: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """The share of a shrunk kernel density above each edge."""
    keep = weights > 0
    centres, weights = centres[keep], weights[keep].astype(np.float64)
    if len(centres) > MAX_CENTRES:
        centres, weights = _runs(centres, weights)
    total = weights.sum()
    mean = float(np.dot(weights, centres) / total)
    variance = float(np.dot(weights, (centres - mean) ** 2) / total)
    bandwidth = 0.9 * np.sqrt(variance) * total ** (-0.2)
    if bandwidth <= 0:  # one distinct score: a point mass
        return (centres[0] >= edges).astype(np.float64)
    shrink = np.sqrt(1 + bandwidth**2 / variance)
    centres = mean + (centres - mean) / shrink
    bandwidth /= shrink
    above = ndtr((centres[None, :] - edges[:, None]) / bandwidth) @ weights
    return above / total


def _runs(centres: np.ndarray, weights: np.ndarray):
    """:data:`MAX_CENTRES` weighted means of runs of neighbouring centres."""
    run = np.arange(len(centres)) * MAX_CENTRES // len(centres)
    mass = np.bincount(run, weights=weights)
    where = np.bincount(run, weights=weights * centres)
    keep = mass > 0
    return where[keep] / mass[keep], mass[keep]
