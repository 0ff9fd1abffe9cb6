"""Test sets resampled from smoothed scores: each one's envelope choice and its optimism.

The band of the envelope's own thresholds (:mod:`costchart._bands.choice`) and its
calibration (:mod:`costchart._bands.choice_level`) draw test sets from *worlds*: smoothed
class densities (:mod:`costchart._bands.smoothing`), read as each class's share above the
edges of equal-probability cells. A drawn test set is counts over those cells; it chooses
its own envelope's thresholds at each ``pc`` (:func:`envelope_choice`) and records
``D = apparent cost - true cost`` of them, the true cost being known exactly in its world,
and ``s``, the standard error of its chosen cost at the Jeffreys rates of its counts
(:func:`jeffreys_se`). Many worlds are drawn from in one pass: the calibration draws 50
test sets from each of 200.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from costchart._roc.upper_hull import upper_hulls

__all__ = [
    "Drawn",
    "World",
    "envelope_choice",
    "jeffreys_se",
    "resampled_deviations",
    "studentized",
]

#: Elements of the resamples x candidates arrays of one chunk of resamples.
CHUNK = 2**23
#: The least standard error a resample is studentized by, as a share of their median.
FLOOR = 0.5


@dataclass(frozen=True)
class World:
    """Smoothed classes to draw test sets from, one row per world.

    ``above_pos`` and ``above_neg`` (worlds, edges) are each class's share above each of
    the cells' inner edges, in decreasing edge order; ``n_pos`` and ``n_neg`` (worlds,)
    are the class sizes of the test set each world was smoothed from.
    """

    above_pos: np.ndarray
    above_neg: np.ndarray
    n_pos: np.ndarray
    n_neg: np.ndarray


@dataclass(frozen=True)
class Drawn:
    """The first resamples' counts over the cells, kept to be smoothed again.

    ``positives`` and ``negatives`` (resamples, cells) are top cell first; ``n_pos`` and
    ``n_neg`` (resamples,) are their class totals.
    """

    positives: np.ndarray
    negatives: np.ndarray
    n_pos: np.ndarray
    n_neg: np.ndarray


def resampled_deviations(world: World, pc: np.ndarray, draws: int, options, *, keep=0, report=None):
    """``D`` and ``s`` of ``draws`` test sets from each world, world after world.

    Returns ``D`` and ``s`` (worlds x draws, pc) and the :class:`Drawn` counts of the first
    ``keep`` resamples (at most ``draws``), which are drawn the same whatever ``draws`` is.
    ``options`` gives the generator and the sampling (stratified class totals, or binomial
    ones with ``"full"``); ``report(done, total)`` is called after each chunk.
    """
    n_worlds, n_edges = world.above_pos.shape
    rows = n_worlds * draws
    n_cand = n_edges + 2
    true_tpr = np.concatenate([np.zeros((n_worlds, 1)), world.above_pos, np.ones((n_worlds, 1))], 1)
    true_fpr = np.concatenate([np.zeros((n_worlds, 1)), world.above_neg, np.ones((n_worlds, 1))], 1)
    cell_pos = np.clip(np.diff(true_tpr, axis=1), 0, None)  # each class's share of each cell
    cell_neg = np.clip(np.diff(true_fpr, axis=1), 0, None)
    chunk = max(1, CHUNK // (4 * n_cand))
    d_all, s_all = np.empty((rows, len(pc))), np.empty((rows, len(pc)))
    kept = []
    # The first ``keep`` resamples are chunks of their own: drawn alike whatever ``draws``.
    starts = [*range(0, keep, chunk), *range(keep, rows, chunk)]
    for start, stop in zip(starts, [*starts[1:], rows], strict=True):
        which = np.arange(start, stop) // draws  # each resample's world
        n_pos, n_neg = world.n_pos[which], world.n_neg[which]
        pos_total, neg_total = _class_totals(options.rng, n_pos, n_neg, options.sampling)
        drawn_pos = _multinomial(options.rng, pos_total, cell_pos, which, n_worlds)
        drawn_neg = _multinomial(options.rng, neg_total, cell_neg, which, n_worlds)
        if start < keep:
            kept.append((drawn_pos, drawn_neg, pos_total, neg_total))
        zeros = np.zeros((stop - start, 1))
        tp = np.concatenate([zeros, np.cumsum(drawn_pos, axis=1)], axis=1)
        fp = np.concatenate([zeros, np.cumsum(drawn_neg, axis=1)], axis=1)
        choice = envelope_choice(tp, fp, pc, n_pos, n_neg)  # (resamples, pc)
        tp_c, fp_c = np.take_along_axis(tp, choice, 1), np.take_along_axis(fp, choice, 1)
        fn_c = pos_total[:, None] - tp_c
        w_fn, w_fp = pc[None, :] / n_pos[:, None], (1 - pc[None, :]) / n_neg[:, None]
        true = (
            pc * (1 - true_tpr[which[:, None], choice])
            + (1 - pc) * true_fpr[which[:, None], choice]
        )
        d_all[start:stop] = w_fn * fn_c + w_fp * fp_c - true
        n = (pos_total + neg_total)[:, None]
        s_all[start:stop] = jeffreys_se(
            fn_c, fp_c, pos_total[:, None], n, w_fn, w_fp, options.sampling
        )
        if report is not None:
            report(stop, rows)
    drawn = (
        Drawn(*(np.concatenate(part)[:keep] for part in zip(*kept, strict=True))) if kept else None
    )
    return d_all, s_all, drawn


def studentized(d: np.ndarray, s: np.ndarray):
    """``mean(D)``, ``sd(D)`` and ``(D - mean(D)) / s``, over the resamples' axis (-2).

    ``s`` is floored at :data:`FLOOR` times its median at each ``pc``: a resample that
    chose a nearly trivial classifier has a tiny standard error but no noise to speak of
    (its deviation is the choice's, not the counts'), and must not dominate the quantiles.
    Where every resample deviates alike (``sd(D) = 0``) the studentized deviation is 0.
    """
    shift = d.mean(axis=-2, keepdims=True)
    spread = d.std(axis=-2, keepdims=True)
    s = np.maximum(s, FLOOR * np.median(s, axis=-2, keepdims=True))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(spread > 0, (d - shift) / s, 0.0)
    return np.squeeze(shift, -2), np.squeeze(spread, -2), ratio


def _multinomial(rng, totals: np.ndarray, cells: np.ndarray, which: np.ndarray, n_worlds: int):
    """Counts over the cells of each resample's world (one row of ``cells`` per world).

    One world's cells are shared by every row, not copied per row (up to 4,097 each).
    """
    if n_worlds == 1:
        return rng.multinomial(totals.astype(np.int64), cells[0])
    return rng.multinomial(totals.astype(np.int64), cells[which])


def _class_totals(rng, n_pos: np.ndarray, n_neg: np.ndarray, sampling: str):
    """Each resample's positives and negatives: fixed, or binomial with ``"full"``."""
    if sampling == "stratified":
        return n_pos.astype(np.float64), n_neg.astype(np.float64)
    total = n_pos + n_neg
    drawn = rng.binomial(total.astype(np.int64), n_pos / total).astype(np.float64)
    return drawn, total - drawn


def envelope_choice(tp, fp, pc, n_pos, n_neg) -> np.ndarray:
    """Each row's cheapest candidate at each ``pc``: a corner of its ROC curve's upper hull.

    ``tp`` and ``fp`` (rows, candidates) are cumulative counts, candidates in decreasing
    threshold order; ``n_pos`` and ``n_neg`` are the class sizes the rates are taken over
    (numbers, or one per row). Along a hull, the edges' slopes fall, so each edge is worth
    taking from one ``pc`` on, ``fp P / (tp N + fp P)`` for its rises ``tp``, ``fp``: the
    cheapest corner at ``pc`` is the one after the edges worth taking there, found for all
    rows and ``pc`` by one sorted search (where a ``pc`` equals an edge's switch up to
    rounding, the exact test ``tp pc N > fp (1 - pc) P`` decides). Of equal points the
    first (the highest threshold) is taken. Hulls of all rows are found in shared passes
    (:func:`~costchart._roc.upper_hull.upper_hulls`).
    """
    rows, width = tp.shape
    n_pos = np.broadcast_to(np.asarray(n_pos, dtype=np.float64), (rows,))
    n_neg = np.broadcast_to(np.asarray(n_neg, dtype=np.float64), (rows,))
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
    edge_pos, edge_neg = n_pos[row_of_edge], n_neg[row_of_edge]
    with np.errstate(divide="ignore", invalid="ignore"):
        switch = d_fp * edge_pos / (d_tp * edge_neg + d_fp * edge_pos)
    switch = np.where(own, np.nan_to_num(switch, nan=2.0), 2.0)
    # Sorted keys: row + switch (switches rise along a row's hull; 2.0 never counts).
    keys = row_of_edge + np.minimum(switch, 1.5) / 2
    queries = np.arange(rows)[:, None] + pc[None, :] / 2
    taken = np.searchsorted(keys, queries, side="left") - first[:, None]
    taken = np.clip(taken, 0, (per_row - 1)[:, None])
    # The exact test decides at a switch equal to pc up to rounding.
    taken = _exact_step(taken, first, per_row, (d_tp, d_fp), pc, n_pos, n_neg)
    chosen = corners[first[:, None] + taken]
    total = tp + fp
    position = np.broadcast_to(np.arange(width), total.shape)
    new_run = np.ones(total.shape, dtype=bool)
    new_run[:, 1:] = total[:, 1:] != total[:, :-1]
    run_start = np.maximum.accumulate(np.where(new_run, position, 0), axis=1)
    return np.take_along_axis(run_start, chosen - starts[:, None], axis=1)


def _exact_step(taken, first, per_row, rises, pc, n_pos, n_neg):
    """Move each count by one where the exact comparison of products disagrees."""
    d_tp, d_fp = rises
    n_edges = (per_row - 1)[:, None]
    worth_pos, worth_neg = pc * n_neg[:, None], (1 - pc) * n_pos[:, None]  # (rows, pc)

    def worth(edge):
        """Whether ``edge`` (global index) is steeper than the iso-cost slope at pc."""
        safe = np.clip(edge, 0, max(len(d_tp) - 1, 0))
        if not len(d_tp):
            return np.zeros(edge.shape, dtype=bool)
        return d_tp[safe] * worth_pos > d_fp[safe] * worth_neg

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
