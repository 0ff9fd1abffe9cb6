"""Small numerical kernels shared by the bootstrap bands.

Trimmed binomial distributions, quantiles of weighted discrete distributions, and
percentiles of resampled values, all with the same quantile definition (the smallest
value whose cumulative probability reaches the level), so exact and resampled bands agree.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

#: Probability left out of each tail when a distribution's support is trimmed.
TAIL = 1e-12


def binomial_support(n: int, p: float) -> tuple[np.ndarray, np.ndarray]:
    """The values and probabilities of Bin(n, p), without tails below :data:`TAIL`."""
    if p <= 0 or n == 0:
        return np.zeros(1), np.ones(1)
    if p >= 1:
        return np.array([float(n)]), np.ones(1)
    low = max(int(stats.binom.ppf(TAIL, n, p)) - 1, 0)
    high = min(int(stats.binom.isf(TAIL, n, p)) + 1, n)
    values = np.arange(low, high + 1, dtype=np.float64)
    return values, stats.binom.pmf(values, n, p)


def multinomial_pair(m: int, q_a: float, q_b: float):
    """Joint distribution of two cells (A, B) of Multinomial(m, q), trimmed.

    Returns the values of A, the values of B (from 0 up to B's trimmed maximum) and the
    probabilities ``joint[i, j] = P(A = a_i, B = b_j)``, using
    ``B | A = a ~ Bin(m - a, q_b / (1 - q_a))``.
    """
    a_values, a_probs = binomial_support(m, q_a)
    conditional = q_b / (1 - q_a) if q_a < 1 else 0.0
    b_values = np.arange(0, int(binomial_support(m, q_b)[0][-1]) + 1, dtype=float)
    joint = a_probs[:, None] * stats.binom.pmf(
        b_values[None, :], m - a_values[:, None], conditional
    )
    return a_values, b_values, joint


def weighted_quantiles(values: np.ndarray, weights: np.ndarray, levels) -> np.ndarray:
    """Quantiles of a discrete distribution: smallest value with cumulative weight >= level."""
    order = np.argsort(values, kind="stable")
    cumulative = np.cumsum(weights[order])
    cumulative /= cumulative[-1]
    index = np.searchsorted(cumulative, np.asarray(levels) - 1e-12, side="left")
    return values[order][np.minimum(index, len(values) - 1)]


def sample_quantiles(samples: np.ndarray, levels, axis: int = 0) -> np.ndarray:
    """The same quantile definition applied to resampled values (``inverted_cdf``)."""
    return np.quantile(samples, levels, axis=axis, method="inverted_cdf")


def two_scaled_sum_quantiles(
    x: tuple[np.ndarray, np.ndarray],
    y: tuple[np.ndarray, np.ndarray],
    scale_x: float,
    scale_y: float,
    levels,
) -> np.ndarray:
    """Quantiles of ``scale_x * X + scale_y * Y`` for independent discrete X and Y."""
    values = scale_x * x[0][:, None] + scale_y * y[0][None, :]
    weights = x[1][:, None] * y[1][None, :]
    return weighted_quantiles(values.ravel(), weights.ravel(), levels)
