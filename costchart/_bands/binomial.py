"""Trimmed binomial distributions, computed for many (n, p) at once.

Every exact band is built from binomial counts. Their supports are trimmed where a tail
holds less than :data:`TAIL`, and their probabilities are computed in log space, one row
per distribution, with no per-distribution scipy object: the log-ratio of neighbouring
probabilities, ``log((n - k) / (k + 1)) + log(p / (1 - p))``, is summed along the support
(exact to a few units in the last place over a thousand terms, where
``gammaln(n + 1) - gammaln(k + 1) - ...`` would lose ten digits to cancellation at large n)
and each row is normalized to sum to one.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

#: Probability left out of each tail when a distribution's support is trimmed.
TAIL = 1e-12


def trimmed_bounds(n, p) -> tuple[np.ndarray, np.ndarray]:
    """Lowest and highest count kept of Bin(n, p), each tail below :data:`TAIL` left out.

    Vectorized over ``n`` and ``p`` (int64 arrays out). ``p <= 0`` or ``n == 0`` keep only
    0, ``p >= 1`` only ``n``.
    """
    from scipy import stats

    n = np.asarray(n, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    n, p = np.broadcast_arrays(n, p)
    low = np.zeros(n.shape, dtype=np.int64)
    high = np.zeros(n.shape, dtype=np.int64)
    sure = p >= 1
    low[sure] = high[sure] = n[sure].astype(np.int64)
    open_ = (p > 0) & (p < 1) & (n > 0)
    if open_.any():
        m, q = n[open_], p[open_]
        # One vectorized call each for all distributions (scipy's inverse of the
        # incomplete beta function), as the per-pc code computed them.
        low[open_] = np.maximum(stats.binom.ppf(TAIL, m, q).astype(np.int64) - 1, 0)
        high[open_] = np.minimum(
            stats.binom.isf(TAIL, m, q).astype(np.int64) + 1, m.astype(np.int64)
        )
    return low, high


def pmf_table(n, p, low, width: int) -> np.ndarray:
    """Probabilities of Bin(n_i, p_i) at ``low_i + j``, row i, column j < ``width``.

    Columns beyond ``n_i`` (or past a row's own trimmed range, when the caller masks them)
    hold 0 only where the count is impossible; each row sums to one over its possible
    counts in ``[low_i, low_i + width)``. The caller zeroes columns beyond its own range.
    """
    n = np.asarray(n, dtype=np.float64)[:, None]
    p = np.asarray(p, dtype=np.float64)[:, None]
    low = np.asarray(low, dtype=np.float64)[:, None]
    k = low + np.arange(width, dtype=np.float64)[None, :]
    possible = k <= n
    inner = (p > 0) & (p < 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        step = np.log(np.maximum(n - k, 1.0)) - np.log(k + 1) + (np.log(p) - np.log1p(-p))
    step = np.where(inner, step, 0.0)
    log_pmf = np.zeros(k.shape)
    np.cumsum(step[:, :-1], axis=1, out=log_pmf[:, 1:])
    log_pmf[~possible] = -np.inf
    log_pmf -= np.max(log_pmf, axis=1, keepdims=True)
    table = np.exp(log_pmf)
    # Degenerate distributions (p = 0 or 1) sit on their one kept count, column 0.
    degenerate = ~inner[:, 0]
    table[degenerate] = 0.0
    table[degenerate, 0] = 1.0
    return table / table.sum(axis=1, keepdims=True)


def binomial_support(n: int, p: float) -> tuple[np.ndarray, np.ndarray]:
    """The values and probabilities of Bin(n, p), without tails below :data:`TAIL`."""
    bounds = trimmed_bounds(n, p)
    low, high = int(bounds[0]), int(bounds[1])
    values = np.arange(low, high + 1, dtype=np.float64)
    return values, pmf_table([n], [p], [low], high - low + 1)[0]


def conditional_pmf(totals: np.ndarray, share: float, low: int, width: int) -> np.ndarray:
    """``P(X = low + j | T = t_i)`` for ``X | T = t ~ Bin(t, share)``, one row per total.

    Rows are not trimmed: each is the plain binomial probability (0 where ``low + j > t``).
    """
    from scipy import stats

    totals = np.asarray(totals, dtype=np.int64)
    k = low + np.arange(width)[None, :]
    if share <= 0 or share >= 1:
        sure = np.zeros(totals[:, None].shape) if share <= 0 else totals[:, None]
        return (k == sure).astype(np.float64)
    return stats.binom.pmf(k, totals[:, None], share)


def multinomial_pair(m: int, q_a: float, q_b: float):
    """Joint distribution of two cells (A, B) of Multinomial(m, q), trimmed.

    Returns the values of A, the values of B and the probabilities
    ``joint[i, j] = P(A = a_i, B = b_j)``, using ``B | A = a ~ Bin(m - a, q_b / (1 - q_a))``;
    B's range is trimmed at :data:`TAIL` under every retained ``a``.
    """
    a_values, a_probs = binomial_support(m, q_a)
    conditional = min(q_b / (1 - q_a), 1.0) if q_a < 1 else 0.0
    rest = m - a_values.astype(np.int64)
    b_low, b_high = conditional_range(rest, conditional)
    b_values = np.arange(b_low, b_high + 1, dtype=float)
    joint = a_probs[:, None] * conditional_pmf(rest, conditional, b_low, b_high - b_low + 1)
    return a_values, b_values, joint


def conditional_range(rest: np.ndarray, conditional: float) -> tuple[int, int]:
    """Range of B kept under every ``B | rest ~ Bin(rest, conditional)`` (trimmed at TAIL)."""
    if 0 < conditional < 1:
        low, _ = trimmed_bounds(int(rest.min()), conditional)
        _, high = trimmed_bounds(int(rest.max()), conditional)
        return int(low), int(high)
    return (0, 0) if conditional == 0 else (int(rest.min()), int(rest.max()))


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
        x_low = int(trimmed_bounds(t_low, share)[0])
        x_high = int(trimmed_bounds(t_high, share)[1])
    x = np.arange(x_low, x_high + 1)
    d_low = 2 * x_low - t_high
    values = np.arange(d_low, 2 * x_high - t_low + 1, dtype=np.float64)
    probs = conditional_pmf(totals, share, x_low, len(x))  # 0 where x > t
    given = np.zeros((len(totals), len(values)))
    rows = np.broadcast_to(np.arange(len(totals))[:, None], probs.shape)
    columns = 2 * x[None, :] - totals[:, None] - d_low
    inside = (x[None, :] <= totals[:, None]) & (columns >= 0) & (columns < len(values))
    given[rows[inside], columns[inside]] = probs[inside]
    return values, given


def normal_quantile(level: float) -> float:
    """The standard normal quantile (a plain-float call, far cheaper than scipy's ufunc)."""
    return NormalDist().inv_cdf(level)


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
