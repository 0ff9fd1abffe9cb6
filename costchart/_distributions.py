"""Small numerical kernels shared by the bootstrap bands.

Trimmed binomial distributions, quantiles of weighted discrete distributions, and
percentiles of resampled values, all with the same quantile definition (the smallest
value whose cumulative probability reaches the level), so exact and resampled bands agree.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
from scipy import stats

from costchart._errors import CostchartError

#: Probability left out of each tail when a distribution's support is trimmed.
TAIL = 1e-12
#: Most (value, probability) pairs an exact distribution may hold at one ``pc``: each pair
#: costs about 50 bytes of work arrays, so this stays near half a GiB.
MAX_EXACT_PAIRS = 10_000_000


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


def trimmed_span(sd: float) -> float:
    """About how many integer values a count with standard deviation ``sd`` keeps.

    Trimming each tail at :data:`TAIL` (1e-12) keeps about 14 standard deviations.
    """
    return 14.1 * sd + 3


def refuse_large_exact(sizes, pc: np.ndarray, instances: int) -> None:
    """Refuse ``distribution="exact"`` when some ``pc`` needs more than :data:`MAX_EXACT_PAIRS`.

    ``sizes`` are the estimated numbers of pairs at each ``pc``; called before any work.
    """
    sizes = np.asarray(sizes, dtype=np.float64)
    if sizes.size and sizes.max() > MAX_EXACT_PAIRS:
        worst = int(np.argmax(sizes))
        msg = (
            f"distribution='exact' would need about {sizes[worst]:,.0f} terms at "
            f"pc={pc[worst]:g} ({instances:,} instances), more than the {MAX_EXACT_PAIRS:,} "
            "it may use; pass distribution='normal' (or 'auto', which uses the normal fit "
            "wherever the exact distribution is large)"
        )
        raise CostchartError(msg)


def multinomial_pair(m: int, q_a: float, q_b: float):
    """Joint distribution of two cells (A, B) of Multinomial(m, q), trimmed.

    Returns the values of A, the values of B and the probabilities
    ``joint[i, j] = P(A = a_i, B = b_j)``, using ``B | A = a ~ Bin(m - a, q_b / (1 - q_a))``;
    B's range is trimmed at :data:`TAIL` under every retained ``a``.
    """
    a_values, a_probs = binomial_support(m, q_a)
    conditional = min(q_b / (1 - q_a), 1.0) if q_a < 1 else 0.0
    rest = m - a_values.astype(np.int64)
    if 0 < conditional < 1:
        b_low = max(int(stats.binom.ppf(TAIL, rest.min(), conditional)) - 1, 0)
        b_high = min(int(stats.binom.isf(TAIL, rest.max(), conditional)) + 1, int(rest.max()))
    else:
        b_low, b_high = (0, 0) if conditional == 0 else (int(rest.min()), int(rest.max()))
    b_values = np.arange(b_low, b_high + 1, dtype=float)
    joint = a_probs[:, None] * stats.binom.pmf(b_values[None, :], rest[:, None], conditional)
    return a_values, b_values, joint


def normal_quantile(level: float) -> float:
    """The standard normal quantile (a plain-float call, far cheaper than scipy's ufunc)."""
    return NormalDist().inv_cdf(level)


def signed_split(totals: np.ndarray, share: float) -> tuple[np.ndarray, np.ndarray]:
    """Distribution of ``X - (T - X)`` given ``T``, where ``X | T = t ~ Bin(t, share)``.

    Returns the values ``d`` and the matrix ``given[i, j] = P(2X - t_i = d_j | T = t_i)``,
    one row per entry of ``totals``; the range of ``X`` is trimmed at :data:`TAIL`.
    """
    totals = np.asarray(totals, dtype=np.int64)
    t_low, t_high = int(totals.min()), int(totals.max())
    if share <= 0 or share >= 1 or t_high == 0:
        x_low, x_high = (0, 0) if share <= 0 or t_high == 0 else (t_low, t_high)
    else:
        x_low = max(int(stats.binom.ppf(TAIL, t_low, share)) - 1, 0)
        x_high = min(int(stats.binom.isf(TAIL, t_high, share)) + 1, t_high)
    x = np.arange(x_low, x_high + 1)
    d_low = 2 * x_low - t_high
    values = np.arange(d_low, 2 * x_high - t_low + 1, dtype=np.float64)
    probs = stats.binom.pmf(x[None, :], totals[:, None], share)  # 0 where x > t
    given = np.zeros((len(totals), len(values)))
    rows = np.broadcast_to(np.arange(len(totals))[:, None], probs.shape)
    columns = 2 * x[None, :] - totals[:, None] - d_low
    inside = (x[None, :] <= totals[:, None]) & (columns >= 0) & (columns < len(values))
    given[rows[inside], columns[inside]] = probs[inside]
    return values, given


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
