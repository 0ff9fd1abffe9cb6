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

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from costchart._bands.choice import envelope_choice

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
    progress: Callable[[str], None] | None = None,
) -> Members:
    """The set at each ``pc`` of one group (see the module docstring).

    ``scores`` (instances x classifiers, comparable numbers: positive when ``score >=``
    a threshold) and ``positive``, each instance's class. ``progress``, if given, is told
    how many resamples are done after each chunk of them.
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
        if progress is not None:
            progress(f"resampled {start + size:,} of {n_resamples:,}")
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
        chosen = envelope_choice(tp, fp, pc, n_pos, n_neg)
        tp_c, fp_c = np.take_along_axis(tp, chosen, 1), np.take_along_axis(fp, chosen, 1)
        return pc * (n_pos - tp_c) / n_pos + (1 - pc) * fp_c / n_neg
