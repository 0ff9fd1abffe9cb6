"""The classifiers that could be the cheapest, at every ``pc`` at once: the kernel.

Each classifier's cost at a ``pc`` is that of the threshold its own lower envelope
chooses there, ``pc * FNR + (1 - pc) * FPR``: its least cost on the data. For every pair
of classifiers ``(i, j)`` and every ``pc``, the difference ``d = cost_i - cost_j`` gets
bounds ``d +- c * se`` that hold for every pair and every ``pc`` at once. Both come from
paired resamples of the instances, in each of which every classifier chooses its
thresholds again, along the resample's own envelope:

* ``se`` is the standard deviation of the resampled differences, but at least
  :data:`SE_FLOOR` times its median over ``pc`` (per pair). Near ``pc`` 0 and 1 the least
  cost turns on a few extreme scores, and a resampled standard deviation there varies
  from test set to test set by a quarter; a deviation divided by so uncertain a scale is
  heavy-tailed, and those ``pc`` alone would set the critical value. With ties in the
  scores it can be near 0 where one resample in hundreds differs, and a deviation divided
  by it near the square root of the resamples.
* ``c`` is a quantile of the largest deviation ``|d* - d| / se`` over pairs and ``pc``,
  at a level calibrated by a double bootstrap (prepivoting, Beran 1987), as the
  simultaneous bands calibrate theirs: each of the first
  :data:`~costchart._bands.simultaneous.CALIBRATION_OUTER` resamples is taken as the
  sample and the sample as the truth, resampled
  :data:`~costchart._bands.simultaneous.CALIBRATION_INNER` times, and its own largest
  deviation from the truth is placed among its inner resamples' (``u``, ties counted
  half). The level is the ``confidence_level`` quantile of ``u``, never below
  ``confidence_level``. Where fewer than 10 of ``n_resamples`` would lie beyond it, the
  critical value is taken where 10 do; :func:`~costchart.cheapest_set` warns that the
  set may be too small and names the ``n_resamples`` it needs, unless the level is 1,
  which no number of resamples resolves.

Each resample draws each class's instances with replacement, as many as the class holds
(stratified). ``tests/benchmarks/bench_cheapest_set.py`` measures the set's coverage and
power; ``docs/cheapest_set.md`` shows them, with the remedies that did no better
(half-size resamples, a variance-stabilizing scale, the double bootstrap without the
floor).

A classifier ``j`` leaves the set at a ``pc`` where some other classifier ``i`` is surely
cheaper: the upper bound of ``cost_i - cost_j`` is below 0. The truly cheapest classifier
is never surely beaten when every bound holds, so the set holds it at every ``pc`` at
once with the bounds' joint probability (a multiple comparison with the best).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from costchart._bands.resampled_choice import envelope_choice
from costchart._bands.simultaneous import CALIBRATION_INNER, CALIBRATION_OUTER, placed_among

__all__ = ["SE_FLOOR", "ZERO", "Members", "members"]

#: Cost differences within this of 0 are rounding: costs are sums of fractions of counts.
ZERO = 1e-12
#: The least standard error a pair's difference is scaled by, as a share of its median
#: over ``pc``.
SE_FLOOR = 0.5
#: Elements of the temporary arrays made per chunk of resamples.
CHUNK_ELEMENTS = 2**23


@dataclass(frozen=True)
class Members:
    """One group's answer.

    ``cost`` and ``member`` (classifiers x ``pc``), ``se`` of each ordered pair's
    difference (classifiers x classifiers x ``pc``), the critical value, the level it
    was taken at, and the level the calibration asked for (above ``level`` where the
    resamples cannot resolve it: fewer than 10 would lie beyond).
    """

    cost: np.ndarray
    member: np.ndarray
    se: np.ndarray
    critical: float
    level: float
    calibrated: float

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
    resampler = _Resampler([_Curve(scores[:, j], positive) for j in range(k)], positive, pc)
    cost = resampler.costs(None, None)[0]
    pairs = np.triu_indices(k, 1)
    estimate = cost[pairs[0]] - cost[pairs[1]]  # pairs x pc
    keep = min(CALIBRATION_OUTER, n_resamples)
    chunk = resampler.chunk(n_resamples)
    resampled = np.empty((n_resamples, k, len(pc)))
    kept = []
    total = n_resamples + keep * CALIBRATION_INNER  # with the calibration's inner resamples
    told = _counter(progress, total)
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        drawn = resampler.draw(rng, size)
        resampled[start : start + size] = resampler.costs(*drawn)
        kept.append(tuple(d[: max(0, keep - start)] for d in drawn))
        told(start + size)
    se = _standard_errors(resampled, pairs)
    largest = _largest(resampled, estimate, se, pairs)
    kept_pos, kept_neg = (np.concatenate(parts) for parts in zip(*kept, strict=True))
    placed = _placed(
        resampler,
        pairs,
        (kept_pos, kept_neg),
        resampled[:keep],
        estimate,
        rng,
        lambda done: told(n_resamples + done),
    )
    calibrated = max(confidence_level, float(np.quantile(placed, confidence_level)))
    level = min(calibrated, max(confidence_level, 1 - 10 / n_resamples))
    critical = float(np.quantile(largest, level, method="higher"))
    full = np.zeros((k, k, len(pc)))
    full[pairs] = se
    full[pairs[::-1]] = se
    upper = cost[:, None, :] - cost[None, :, :] + critical * full  # bound of cost_i - cost_j
    beaten = (upper < -ZERO) & ~np.eye(k, dtype=bool)[:, :, None]
    member = ~beaten.any(axis=0)  # j stays unless some i is surely cheaper
    return Members(cost, member, full, critical, level, calibrated)


def _counter(progress, total: int) -> Callable[[int], None]:
    """Tell ``progress`` (if given) how many of ``total`` resamples are done."""

    def told(done: int) -> None:
        if progress is not None:
            progress(f"resampled {done:,} of {total:,}")

    return told


def _standard_errors(costs: np.ndarray, pairs) -> np.ndarray:
    """Each pair's standard error at each ``pc``, floored (:func:`_floored`).

    ``costs`` (..., resamples, classifiers, pc); the result is (..., pairs, pc).
    """
    spread = [
        (costs[..., i, :] - costs[..., j, :]).std(axis=-2) for i, j in zip(*pairs, strict=True)
    ]
    return _floored(np.stack(spread, axis=-2))


def _floored(spread: np.ndarray) -> np.ndarray:
    """Standard errors (..., pc) at least :data:`SE_FLOOR` times their median over ``pc``.

    A ``pc`` where every resample gives the same difference keeps 0: it has no spread to
    scale by, and it enters no maximum.
    """
    live = spread > ZERO
    some = live.any(axis=-1)
    median = np.zeros((*spread.shape[:-1], 1))
    median[some] = np.nanmedian(np.where(live, spread, np.nan)[some], axis=-1, keepdims=True)
    return np.where(live, np.maximum(spread, SE_FLOOR * median), 0.0)


def _largest(costs: np.ndarray, centre: np.ndarray, se: np.ndarray, pairs) -> np.ndarray:
    """Each resample's largest ``|cost_i - cost_j - centre| / se`` over pairs and live ``pc``.

    ``costs`` (..., resamples, classifiers, pc); ``centre`` and ``se`` (..., pairs, pc).
    One pair at a time: many classifiers make many pairs.
    """
    largest = np.zeros(costs.shape[:-2])
    for p, (i, j) in enumerate(zip(*pairs, strict=True)):
        scale = se[..., p, None, :]
        inverse = np.where(scale > 0, 1.0 / np.where(scale > 0, scale, 1.0), 0.0)
        difference = costs[..., i, :] - costs[..., j, :]
        deviation = np.abs(difference - centre[..., p, None, :]) * inverse
        np.maximum(largest, deviation.max(axis=-1, initial=0.0), out=largest)
    return largest


def _placed(resampler, pairs, kept, outer, estimate, rng, told) -> np.ndarray:
    """``u`` of each kept resample: its own deviation placed among its inner resamples'.

    Each kept resample (its draws ``kept``, its costs ``outer``) is taken as the sample
    and ``estimate`` as the truth. Its :data:`CALIBRATION_INNER` resamples give its
    standard errors and the distribution its own largest deviation from the truth is
    placed in (ties counted half). ``told`` is given the inner resamples done.
    """
    keep = len(outer)
    placed = np.empty(keep)
    chunk = max(1, resampler.chunk(keep * CALIBRATION_INNER) // CALIBRATION_INNER)
    for start in range(0, keep, chunk):
        stop = min(keep, start + chunk)
        drawn = resampler.draw_from(rng, *(d[start:stop] for d in kept), CALIBRATION_INNER)
        inner = resampler.costs(*drawn).reshape(stop - start, CALIBRATION_INNER, *outer.shape[1:])
        sample = outer[start:stop]  # (kept, classifiers, pc)
        se = _standard_errors(inner, pairs)  # (kept, pairs, pc)
        centre = sample[:, pairs[0]] - sample[:, pairs[1]]
        own = _largest(sample[:, None], estimate, se, pairs)  # (kept, 1)
        spread = _largest(inner, centre, se, pairs)  # (kept, inner)
        placed[start:stop] = placed_among(spread, own, axis=1)
        told(stop * CALIBRATION_INNER)
    return placed


class _Resampler:
    """Every classifier's least cost on paired, stratified resamples of one group."""

    def __init__(self, curves: list[_Curve], positive: np.ndarray, pc: np.ndarray):
        self.curves, self.pc = curves, pc
        self.n_pos, self.n_neg = int(positive.sum()), int((~positive).sum())
        widths = sum(c.width for c in curves)
        self.per_resample = self.n_pos + self.n_neg + 3 * widths + 4 * len(pc) * len(curves)

    def chunk(self, rows: int) -> int:
        """How many resamples to hold at once, of ``rows``."""
        return max(1, min(rows, CHUNK_ELEMENTS // self.per_resample))

    def draw(self, rng, size: int) -> tuple[np.ndarray, np.ndarray]:
        """``size`` resamples: copies of each instance drawn, per class (rows x instances)."""
        return tuple(
            rng.multinomial(n, np.full(n, 1 / n), size=size) for n in (self.n_pos, self.n_neg)
        )

    def draw_from(self, rng, drawn_pos, drawn_neg, times: int):
        """``times`` resamples of each resample given (its rows of copies), row after row."""
        return tuple(
            rng.multinomial(n, np.repeat(drawn / n, times, axis=0))
            for drawn, n in ((drawn_pos, self.n_pos), (drawn_neg, self.n_neg))
        )

    def costs(self, drawn_pos, drawn_neg) -> np.ndarray:
        """Each classifier's least cost at each ``pc`` (rows x classifiers x pc).

        One row of the data themselves when ``drawn_pos`` and ``drawn_neg`` are None.
        """
        return np.stack([c.least_cost(drawn_pos, drawn_neg, self.pc) for c in self.curves], 1)


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
