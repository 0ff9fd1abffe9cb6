"""Smoothed scores: each class as a kernel density over equal-probability cells.

The band of the envelope's own thresholds (:mod:`costchart._bands.choice`) resamples test
sets from smoothed scores, so that each resample chooses among as many thresholds as a
fresh test set would. A ROC curve depends only on the scores' order, so the smoothing
does too: the pooled scores are replaced by the normal quantiles of their mid-ranks, and
each class's are a Gaussian kernel density there with Silverman's bandwidth
``0.9 sd m^(-1/5)`` (``m`` instances of the class), shrunk toward the class mean so that
its variance is the class's own. The densities are read as each class's share above the
edges of ``cells`` equal-probability cells of the standard normal scale: a resample is
drawn as counts over those cells, so its cost does not grow with the number of
instances, and its candidate thresholds are the cells' edges.

Examples
--------
>>> import numpy as np
>>> from costchart._bands.smoothing import smoothed_cells
>>> edges, above_pos, above_neg = smoothed_cells(np.array([3.0, 1, 0]), np.array([0.0, 1, 3]))
>>> len(edges), bool(above_pos[32] > above_neg[32])
(63, True)
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtr, ndtri

__all__ = ["CELLS", "MAX_CENTRES", "smoothed_cells"]

#: The most cells a group's smoothed scores are drawn over: twice its instances, up to this.
CELLS = 4096
#: Groups whose scores have more distinct values are smoothed from this many weighted
#: runs of neighbouring values (each far narrower than the kernel's bandwidth).
MAX_CENTRES = 2048


def smoothed_cells(
    positives: np.ndarray,
    negatives: np.ndarray,
    *,
    cells: int = CELLS,
    centres: int = MAX_CENTRES,
):
    """The cells' inner edges (decreasing) and each class's share above each edge.

    ``positives`` and ``negatives`` hold the instances of each class at each distinct
    score, in decreasing score order (zeros allowed). There are ``2 n`` cells for ``n``
    instances, at least 64 and at most ``cells``; each class's density is summed from at
    most ``centres`` weighted runs of neighbouring scores.
    """
    weights = positives + negatives
    total = weights.sum()
    above = np.cumsum(weights) - weights  # instances with higher scores
    # Mid-ranks as shares of the total, kept inside (0, 1): where one weight dwarfs the
    # rest, float64 rounds the shares of its neighbours to 0 or 1 (normal quantile inf).
    share = (above + (weights + 1) / 2 - 0.5) / total
    tiny = np.finfo(np.float64).eps
    normal_score = -ndtri(np.clip(share, tiny, 1 - tiny))  # decreasing
    n_cells = int(min(cells, max(64, 2 * total)))
    edges = ndtri(np.arange(n_cells - 1, 0, -1) / n_cells)  # decreasing
    share_pos = _share_above(normal_score, positives, edges, centres)
    share_neg = _share_above(normal_score, negatives, edges, centres)
    return edges, share_pos, share_neg


def _share_above(centres, weights, edges, most: int) -> np.ndarray:
    """The share of a shrunk kernel density above each edge."""
    keep = weights > 0
    centres, weights = centres[keep], weights[keep].astype(np.float64)
    if len(centres) > most:
        centres, weights = _runs(centres, weights, most)
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


def _runs(centres: np.ndarray, weights: np.ndarray, most: int):
    """``most`` weighted means of runs of neighbouring centres."""
    run = np.arange(len(centres)) * most // len(centres)
    mass = np.bincount(run, weights=weights)
    where = np.bincount(run, weights=weights * centres)
    keep = mass > 0
    return where[keep] / mass[keep], mass[keep]
