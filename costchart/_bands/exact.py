"""Exact bootstrap quantiles of a band's cost, for every ``pc`` (and group) at once.

The cost at one ``pc`` is ``w_a * A + w_b * B`` for two counts: ``A ~ Bin(m_a, p_a)`` and
``B ~ Bin(m_b, p_b)`` independent (stratified), or ``A ~ Bin(n, q_a)`` and
``B | A = a ~ Bin(n - a, q_b / (1 - q_a))`` (two cells of one multinomial: full). Its
quantile is the smallest attainable cost whose cumulative probability reaches the level
(less 1e-12), the definition of :func:`~costchart._bands.binomial.weighted_quantiles`.

The per-``pc`` code listed every pair (a, b) -- up to a million per ``pc`` at 1e5
instances -- and sorted them. Here each distribution is a row of arrays and all rows move
together: the cumulative probability of a cost ``v`` is ``sum_a P(A = a) P(B <= b_v(a))``,
one term per value of ``A`` (the largest ``b`` with ``w_a a + w_b b <= v``, found by
division and checked with the very sum the pairs would compute, so comparisons are
bit-exact); bisection on ``v`` narrows every row to an interval holding at most one value
of ``B`` per value of ``A``, whose costs are then sorted and accumulated exactly.
"""

from __future__ import annotations

import numpy as np

from costchart._bands.binomial import pmf_table, trimmed_bounds

#: The quantile level is lowered by this much, as in ``weighted_quantiles``.
LEVEL_SLACK = 1e-12
#: Bisection steps at most (each halves every row's interval; floats have 64 bits).
MAX_STEPS = 200


class Problems:
    """Exact distributions of ``w_a A + w_b B``, one per row, with their tables.

    ``outer`` holds ``P(A = low_a + j)`` (rows normalized over the kept range); ``inner``
    gives ``P(low_b <= B <= b | A)`` through :meth:`inner_cdf`.
    """

    def __init__(self, w_a, w_b, a, b, full: bool):
        m_a, p_a = a
        self.w_a, self.w_b, self.full = np.asarray(w_a, float), np.asarray(w_b, float), full
        self.low_a, high_a = trimmed_bounds(m_a, p_a)
        width = int((high_a - self.low_a).max()) + 1 if len(self.low_a) else 1
        self.a_values = self.low_a[:, None] + np.arange(width)[None, :]
        self.outer = pmf_table(m_a, p_a, self.low_a, width)
        self.outer[self.a_values > high_a[:, None]] = 0.0
        self.outer /= self.outer.sum(axis=1, keepdims=True)
        self.a_scaled = self.w_a[:, None] * self.a_values.astype(np.float64)
        m_b, p_b = b
        if full:
            # B | A = a ~ Bin(n - a, c); its range is trimmed once under every kept a.
            n, c = np.asarray(m_b, np.int64), np.asarray(p_b, float)
            self.rest = n[:, None] - self.a_values
            self.cond = c
            lows, _ = trimmed_bounds(n - high_a, c)
            _, highs = trimmed_bounds(n - self.low_a, c)
            sure = c >= 1
            lows[sure], highs[sure] = (n - high_a)[sure], (n - self.low_a)[sure]
            self.low_b, self.high_b = lows, highs
            self.inner_total = self._cdf_between(self.high_b[:, None])
            self.outer = self.outer * self.inner_total
            self.outer /= self.outer.sum(axis=1, keepdims=True)
        else:
            self.low_b, self.high_b = trimmed_bounds(m_b, p_b)
            width_b = int((self.high_b - self.low_b).max()) + 1 if len(self.low_b) else 1
            table = pmf_table(m_b, p_b, self.low_b, width_b)
            table[self.low_b[:, None] + np.arange(width_b)[None, :] > self.high_b[:, None]] = 0
            cumulative = np.zeros((len(table), width_b + 1))
            np.cumsum(table, axis=1, out=cumulative[:, 1:])
            self.cumulative = cumulative / cumulative[:, -1:]

    @property
    def terms(self) -> np.ndarray:
        """Values of A and B each row tabulates (the work of one bisection step is A's)."""
        return self.outer.shape[1] + self.high_b - self.low_b + 1

    def _cdf_between(self, b: np.ndarray) -> np.ndarray:
        """``P(low_b <= B <= b | A = a)`` for the full sampling's conditional binomial."""
        from scipy import special

        c = self.cond[:, None]
        upper = np.minimum(b, self.rest)
        inside = upper >= self.low_b[:, None]
        with np.errstate(invalid="ignore"):
            top = np.where(c >= 1, (upper >= self.rest) * 1.0, special.bdtr(upper, self.rest, c))
            bottom = np.where(
                c >= 1,
                (self.low_b[:, None] - 1 >= self.rest) * 1.0,
                special.bdtr(self.low_b[:, None] - 1, self.rest, c),
            )
        top = np.where(c <= 0, 1.0, top)
        bottom = np.where(self.low_b[:, None] <= 0, 0.0, bottom)
        return np.where(inside, np.maximum(top - bottom, 0.0), 0.0)

    def inner_cdf(self, rows, b: np.ndarray) -> np.ndarray:
        """``P(B <= b | A)`` within B's kept range, per row of ``rows`` and value of A."""
        if self.full:
            total = self.inner_total[rows]
            between = _sub(self, rows)._cdf_between(b)
            return np.divide(between, total, out=np.zeros_like(between), where=total > 0)
        index = (b - self.low_b[rows, None] + 1).astype(np.intp)
        return np.take_along_axis(self.cumulative[rows], index, axis=1)

    def largest_b(self, rows, v: np.ndarray) -> np.ndarray:
        """Per value of A: the largest ``b`` with ``w_a a + w_b b <= v`` (``low_b - 1`` if none).

        Whole numbers held as float64 (exact below 2**53).
        """
        scaled = self.a_scaled[rows]
        w_b = self.w_b[rows, None]
        low, high = self.low_b[rows, None].astype(np.float64), self.high_b[rows, None]
        v = v[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            b = (v - scaled) / w_b
        np.floor(b, out=b)
        if not (w_b > 0).all():  # a zero weight: every b or none
            b = np.where(w_b > 0, b, np.where(scaled <= v, high, low - 1))
        np.clip(b, low - 1, high, out=b)
        # Division may be off by one; the sums decide, as the listed pairs would.
        up = scaled + w_b * (b + 1) <= v
        up &= b < high
        b += up
        down = scaled + w_b * b > v
        down &= b >= low
        b -= down
        return b

    def cdf(self, rows, v: np.ndarray) -> np.ndarray:
        """``P(w_a A + w_b B <= v)`` for each row."""
        inner = self.inner_cdf(rows, self.largest_b(rows, v))
        return (self.outer[rows] * inner).sum(axis=1)


def _sub(problems: Problems, rows: np.ndarray) -> Problems:
    view = object.__new__(Problems)
    view.cond = problems.cond[rows]
    view.rest = problems.rest[rows]
    view.low_b = problems.low_b[rows]
    return view


def quantiles(problems: Problems, level: float) -> np.ndarray:
    """Each row's smallest cost whose cumulative probability reaches ``level``."""
    rows = np.arange(len(problems.w_a))
    target = level - LEVEL_SLACK
    scaled_b = problems.w_b * problems.high_b
    costs_low = problems.w_a * problems.low_a + problems.w_b * problems.low_b
    lo = np.nextafter(costs_low, -np.inf)  # just below the smallest cost: P = 0 < target
    hi = (problems.a_scaled + scaled_b[:, None]).max(axis=1)  # the largest cost: P = 1
    below = np.zeros(len(rows))  # P(cost <= lo)
    step = np.where(problems.w_b > 0, problems.w_b, problems.w_a) / 2
    for _ in range(MAX_STEPS):
        active = np.flatnonzero((hi - lo >= step) & (lo < (lo + hi) / 2) & ((lo + hi) / 2 < hi))
        if not len(active):
            break
        mid = (lo[active] + hi[active]) / 2
        every = len(active) == len(rows)  # slices, not copies, while every row is active
        reached = problems.cdf(slice(None) if every else active, mid)
        enough = reached >= target
        hi[active[enough]] = mid[enough]
        lo[active[~enough]] = mid[~enough]
        below[active[~enough]] = reached[~enough]
    # (lo, hi] holds at most one value of B per value of A (or only the float hi): sort
    # the costs there and accumulate their probabilities from P(cost <= lo).
    every_row = slice(None)
    b_lo, b_hi = problems.largest_b(every_row, lo), problems.largest_b(every_row, hi)
    mass = problems.outer * (
        problems.inner_cdf(every_row, b_hi) - problems.inner_cdf(every_row, b_lo)
    )
    costs = np.where(b_hi > b_lo, problems.a_scaled + problems.w_b[:, None] * b_hi, np.inf)
    order = np.argsort(costs, axis=1, kind="stable")
    costs = np.take_along_axis(costs, order, axis=1)
    cumulative = below[:, None] + np.cumsum(np.take_along_axis(mass, order, axis=1), axis=1)
    reached = cumulative >= target
    # Rounding may leave the last sum a hair below the level P(cost <= hi) reached: then
    # the answer is the largest cost in the interval.
    last = np.maximum(np.isfinite(costs).sum(axis=1) - 1, 0)
    first = np.where(reached.any(axis=1), np.argmax(reached, axis=1), last)
    found = np.take_along_axis(costs, first[:, None], axis=1)[:, 0]
    return np.where(np.isfinite(found), found, hi)
