"""The classifiers that could be the cheapest, at every ``pc`` at once: the kernel.

Each classifier's cost at a ``pc`` is that of the threshold its own lower envelope
chooses there, ``pc * FNR + (1 - pc) * FPR``: its least cost on the data. For every pair
of classifiers ``(i, j)`` and every ``pc``, the difference ``d = cost_i - cost_j`` gets
bounds ``d +- c * se`` that hold for every pair and every ``pc`` at once. Both come from
paired resamples of the instances, in each of which every classifier chooses its
thresholds again, along the resample's own envelope: ``se`` is the standard deviation of
the resampled differences, and ``c`` the quantile at the confidence level of the largest
deviation ``|d* - d| / se`` over pairs and ``pc``.

Each resample draws each class's instances with replacement, as many as the class holds
(stratified). Half-size resamples (an m-out-of-n bootstrap, a remedy for statistics that
are minima) covered no better in ``tests/benchmarks/bench_cheapest_set.py``: two equal
classifiers with independent scores, 50, 100 and 200 instances per class, stayed in the
set over the whole ``pc`` range in 0.861, 0.889 and 0.897 of 1,000 test sets, against
0.889, 0.872 and 0.892 with full-size resamples (``docs/cheapest_set.md``).

A classifier ``j`` leaves the set at a ``pc`` where some other classifier ``i`` is surely
cheaper: the upper bound of ``cost_i - cost_j`` is below 0. The truly cheapest classifier
is never surely beaten when every bound holds, so the set holds it at every ``pc`` at
once with the bounds' joint probability (a multiple comparison with the best).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from costchart._roc.upper_hull import upper_hulls

__all__ = ["ZERO", "Members", "members"]

#: Cost differences within this of 0 are rounding: costs are sums of fractions of counts.
ZERO = 1e-12
#: Elements of the temporary arrays made per chunk of resamples.
CHUNK_ELEMENTS = 2**23


@dataclass(frozen=True)
class Members:
    """One group's answer.

    ``cost`` and ``member`` (classifiers x ``pc``), ``se`` of each ordered pair's
    difference (classifiers x classifiers x ``pc``) and the critical value.
    """

    cost: np.ndarray
    member: np.ndarray
    se: np.ndarray
    critical: float

    def bounds(self, i: np.ndarray, j: np.ndarray, at: np.ndarray):
        """``cost_i - cost_j`` at the ``pc`` positions ``at``, with its bounds."""
        difference = self.cost[i, at] - self.cost[j, at]
        half = self.critical * self.se[i, j, at]
        return difference, difference - half, difference + half


def members(
    scores: np.ndarray,
    positive: np.ndarray,
    pc: np.ndarray,
    *,
    confidence_level: float,
    n_resamples: int,
    rng: np.random.Generator,
) -> Members:
    """The set at each ``pc`` of one group (see the module docstring).

    ``scores`` (instances x classifiers, comparable numbers: positive when ``score >=``
    a threshold) and ``positive``, each instance's class.
    """
    k = scores.shape[1]
    curves = [_Curve(scores[:, j], positive) for j in range(k)]
    cost = np.stack([c.least_cost(None, None, pc)[0] for c in curves])
    first, second = np.triu_indices(k, 1)
    estimate = cost[first] - cost[second]
    n_pos, n_neg = int(positive.sum()), int((~positive).sum())
    per_resample = n_pos + n_neg + sum(c.width for c in curves) * 3 + 4 * len(pc)
    chunk = max(1, min(n_resamples, CHUNK_ELEMENTS // per_resample))
    resampled = np.empty((n_resamples, k, len(pc)))
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        drawn_pos = rng.multinomial(n_pos, np.full(n_pos, 1 / n_pos), size=size)
        drawn_neg = rng.multinomial(n_neg, np.full(n_neg, 1 / n_neg), size=size)
        for j, curve in enumerate(curves):
            resampled[start : start + size, j] = curve.least_cost(drawn_pos, drawn_neg, pc)
    se = np.zeros((k, k, len(pc)))
    largest = np.zeros(n_resamples)
    for pair, (i, j) in enumerate(zip(first.tolist(), second.tolist(), strict=True)):
        difference = resampled[:, i] - resampled[:, j]
        spread = difference.std(axis=0)
        live = spread > ZERO
        se[i, j] = se[j, i] = np.where(live, spread, 0.0)
        inverse = np.where(live, 1.0 / np.where(live, spread, 1.0), 0.0)
        deviation = np.abs((difference - estimate[pair]) * inverse).max(axis=1)
        np.maximum(largest, deviation, out=largest)
    critical = float(np.quantile(largest, confidence_level, method="higher"))
    upper = cost[:, None, :] - cost[None, :, :] + critical * se  # bound of cost_i - cost_j
    beaten = (upper < -ZERO) & ~np.eye(k, dtype=bool)[:, :, None]
    member = ~beaten.any(axis=0)  # j stays unless some i is surely cheaper
    return Members(cost, member, se, critical)


class _Curve:
    """One classifier's ROC curve, its instances resampled by class.

    Candidates run from "all negative" through each distinct score, highest first, to the
    lowest score (all positive); each class's instances are sorted by decreasing score
    once, and a candidate's count of a class is a cumulative count up to its end there.
    """

    def __init__(self, scores: np.ndarray, positive: np.ndarray):
        distinct = np.unique(scores)[::-1]
        self.width = len(distinct) + 1
        self.sides = []
        for members_ in (positive, ~positive):
            own = scores[members_]
            order = np.argsort(-own, kind="stable")
            # Per candidate: how many of the class score at least its threshold.
            above = np.searchsorted(-own[order], -distinct, side="right")
            self.sides.append((order, np.r_[0, above], len(own)))

    def least_cost(self, drawn_pos, drawn_neg, pc: np.ndarray) -> np.ndarray:
        """The envelope's cost at each ``pc`` of each resample (rows), or of the data.

        ``drawn_pos`` and ``drawn_neg`` (resamples x the class's instances) count the
        copies of each instance a resample draws, all of one total per class; ``None``
        for the data themselves.
        """
        counts, totals = [], []
        for (order, above, total), drawn in zip(self.sides, (drawn_pos, drawn_neg), strict=True):
            if drawn is None:
                counts.append(above[None, :].astype(np.float64))
                totals.append(float(total))
                continue
            running = np.zeros((len(drawn), total + 1))
            np.cumsum(drawn[:, order], axis=1, out=running[:, 1:])
            counts.append(running[:, above])
            totals.append(float(running[0, -1]))
        (tp, fp), (n_pos, n_neg) = counts, totals
        chosen = cheapest_candidates(tp, fp, pc, n_pos, n_neg)
        tp_c, fp_c = np.take_along_axis(tp, chosen, 1), np.take_along_axis(fp, chosen, 1)
        return pc * (n_pos - tp_c) / n_pos + (1 - pc) * fp_c / n_neg


def cheapest_candidates(tp, fp, pc, n_pos: float, n_neg: float) -> np.ndarray:
    """Each row's cheapest candidate at each ``pc``: a corner of its ROC curve's upper hull.

    ``tp`` and ``fp`` (rows, candidates) are cumulative counts, candidates in decreasing
    threshold order. Along a hull, the edges' slopes fall, so each edge is worth taking
    from one ``pc`` on, ``fp P / (tp N + fp P)`` for its rises ``tp``, ``fp``: the cheapest
    corner at ``pc`` is the one after the edges worth taking there, found for all rows and
    ``pc`` by one sorted search (where a ``pc`` equals an edge's switch, the exact products
    decide, as in :func:`costchart._bands.choice._envelope_choice`). Of equal points the
    first (the highest threshold) is taken.
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
