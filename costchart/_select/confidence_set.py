"""The classifiers that could be the cheapest, at every ``pc`` at once: the kernel.

Each classifier uses, at each ``pc``, the threshold its own lower envelope chooses on the
data; its cost there is ``pc * FNR + (1 - pc) * FPR``. For every pair of classifiers
``(i, j)`` and every ``pc`` the cost difference ``d = cost_i - cost_j`` is a difference of
means over the same instances, so its stratified bootstrap variance is exact and
closed-form (each class's per-instance difference of errors, its population variance over
the class size). One critical value ``c`` makes the bounds ``d +- c * se`` hold for every
pair and every ``pc`` at once: the quantile at the confidence level, over paired
resamples of the instances (stratified, each class's size kept), of the largest
studentized deviation ``|d* - d| / se`` over pairs and ``pc``.

A classifier ``j`` leaves the set at a ``pc`` where some other classifier ``i`` is surely
cheaper: the upper bound of ``cost_i - cost_j`` is below 0. The truly cheapest classifier
is never surely beaten by another when every bound holds, so the set holds it at every
``pc`` at once with the bounds' joint probability (a multiple comparison with the best).

Instances are counted by pattern: an instance matters only through the side of each
classifier's chosen thresholds its score lies on, so instances sharing those sides (and a
class) are one pattern, resampled as a multinomial of the patterns' counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ZERO", "Members", "members"]

#: Cost differences within this of 0 are rounding: costs are sums of fractions of counts.
ZERO = 1e-12
#: Elements of the temporary arrays made per chunk of resamples.
CHUNK_ELEMENTS = 2**22


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
    thresholds: np.ndarray,
    pc: np.ndarray,
    *,
    confidence_level: float,
    n_resamples: int,
    rng: np.random.Generator,
) -> Members:
    """The set at each ``pc`` of one group (see the module docstring).

    ``scores`` (instances x classifiers) and ``thresholds`` (classifiers x ``pc``, each
    classifier's chosen threshold: positive when ``score >= threshold``) are comparable
    keys; ``positive`` is each instance's class.
    """
    n_classifiers = scores.shape[1]
    vertex, side = _vertices(scores, thresholds)
    classes = [_patterns(side[positive], vertex, errs_when_low=True)]
    classes.append(_patterns(side[~positive], vertex, errs_when_low=False))
    column = np.asarray(vertex.offsets)[:, None] + vertex.index  # (classifiers, pc)
    weights = (pc, 1.0 - pc)
    rates = [errors.T @ count / count.sum() for count, errors in classes]
    cost = sum(w * r[column] for w, r in zip(weights, rates, strict=True))
    se = _exact_se(classes, column, weights)
    critical = _critical_value(
        classes, column, weights, cost, se, confidence_level, n_resamples, rng
    )
    upper = cost[:, None, :] - cost[None, :, :] + critical * se  # bound of cost_i - cost_j
    beaten = (upper < -ZERO) & ~np.eye(n_classifiers, dtype=bool)[:, :, None]
    member = ~beaten.any(axis=0)  # j stays unless some i is surely cheaper
    return Members(cost, member, se, critical)


@dataclass(frozen=True)
class _Vertices:
    """Each classifier's distinct chosen thresholds: their columns and which each ``pc`` uses."""

    offsets: list[int]
    sizes: list[int]
    index: np.ndarray  # (classifiers, pc): the distinct threshold used


def _vertices(scores: np.ndarray, thresholds: np.ndarray):
    """The distinct thresholds, and per instance and classifier how many lie at or below it."""
    n, k = scores.shape
    index = np.empty(thresholds.shape, dtype=np.int64)
    side = np.empty((n, k), dtype=np.int64)
    offsets, sizes, offset = [], [], 0
    for j in range(k):
        distinct, index[j] = np.unique(thresholds[j], return_inverse=True)
        # Positive at distinct[v] exactly when score >= distinct[v], i.e. side > v.
        side[:, j] = np.searchsorted(distinct, scores[:, j], side="right")
        offsets.append(offset)
        sizes.append(len(distinct))
        offset += len(distinct)
    return _Vertices(offsets, sizes, index), side


def _patterns(side: np.ndarray, vertex: _Vertices, *, errs_when_low: bool):
    """One class's patterns: their counts, and the error of each at every distinct threshold.

    Returns ``count`` (patterns) and ``errors`` (patterns x distinct thresholds of all
    classifiers, 0/1 float64): a positive errs below a threshold, a negative at or above.
    """
    patterns, count = np.unique(side, axis=0, return_counts=True)
    blocks = []
    for j, size in enumerate(vertex.sizes):
        low = patterns[:, j][:, None] <= np.arange(size)[None, :]
        blocks.append(low if errs_when_low else ~low)
    return count.astype(np.float64), np.concatenate(blocks, axis=1).astype(np.float64)


def _exact_se(classes, column: np.ndarray, weights) -> np.ndarray:
    """The exact stratified-bootstrap standard error of every ordered pair's difference.

    Per class, the difference of two classifiers' mean errors is a mean of per-instance
    values in {-1, 0, 1}; its resampled variance is their population variance over the
    class size, found from whole-number sums (so a zero variance is exactly zero).
    """
    k, n_pc = column.shape
    variance = np.zeros((k, k, n_pc))
    for (count, errors), weight in zip(classes, weights, strict=True):
        size = count.sum()
        for i in range(k):
            for j in range(i + 1, k):
                # The distinct pairs of thresholds the pc use, each computed once.
                pairs, at = np.unique(np.stack([column[i], column[j]]), axis=1, return_inverse=True)
                delta = errors[:, pairs[0]] - errors[:, pairs[1]]
                total = count @ delta
                squares = count @ np.abs(delta)
                spread = np.maximum(size * squares - total * total, 0.0)[at.reshape(-1)]
                part = weight**2 * spread / size**3
                variance[i, j] += part
                variance[j, i] += part
    return np.sqrt(variance)


def _critical_value(classes, column, weights, cost, se, level, n_resamples, rng) -> float:
    """The ``level`` quantile of the largest studentized deviation over pairs and ``pc``."""
    k, n_pc = column.shape
    first, second = np.triu_indices(k, 1)
    pair_se = se[first, second]
    spread = pair_se > 0
    if not spread.any():  # no pair's difference can move: the bounds are the estimates
        return 0.0
    inverse = np.where(spread, 1.0 / np.where(spread, pair_se, 1.0), 0.0)
    estimate = cost[first] - cost[second]
    per_resample = len(first) * n_pc + k * n_pc + sum(len(c) for c, _ in classes)
    chunk = max(1, min(n_resamples, CHUNK_ELEMENTS // per_resample))
    largest = np.empty(n_resamples)
    for start in range(0, n_resamples, chunk):
        size = min(chunk, n_resamples - start)
        resampled = np.zeros((size, k, n_pc))
        for (count, errors), weight in zip(classes, weights, strict=True):
            total = count.sum()
            draws = rng.multinomial(int(total), count / total, size=size)
            resampled += weight * ((draws @ errors) / total)[:, column]
        deviation = resampled[:, first] - resampled[:, second] - estimate
        largest[start : start + size] = np.abs(deviation * inverse).max(axis=(1, 2))
    return float(np.quantile(largest, level, method="higher"))
