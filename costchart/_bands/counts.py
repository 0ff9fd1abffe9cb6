"""The band of the cost from confusion counts: every ``pc`` of every group in one pass.

Rows are (group, ``pc``) pairs: the counts of the classifier used there, its class totals
and the ``pc``. The cost weighs the false negatives and false positives; its bootstrap
mean and variance are closed-form, and its quantiles come from a normal fit or from the
exact distribution (:mod:`costchart._bands.exact`), as :func:`exact_where` decides.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from costchart._bands.binomial import normal_quantile, trimmed_bounds
from costchart._bands.exact import Problems, quantiles
from costchart._bands.options import AUTO_EXACT_PAIRS, MAX_INSTANCES, Options, exact_where
from costchart._bands.score import few_errors, score_bounds, single_instance
from costchart._io.data_checks import whole_counts
from costchart._io.errors import CostchartError
from costchart._io.frames import as_pandas

#: Rows of the exact distribution worked on together (bounds the tables' memory).
EXACT_CHUNK_TERMS = 2**22


@dataclass(frozen=True)
class Counts:
    """Confusion counts of the classifier used at each row (int64 or float64 arrays)."""

    tp: np.ndarray
    fn: np.ndarray
    fp: np.ndarray
    tn: np.ndarray

    @property
    def positives(self) -> np.ndarray:
        """Positives of each row."""
        return self.tp + self.fn

    @property
    def negatives(self) -> np.ndarray:
        """Negatives of each row."""
        return self.fp + self.tn


def cost_weights(counts: Counts, pc: np.ndarray, sampling: str):
    """Weights of FN and FP counts in the cost at each row, and the cost."""
    return _weights(_Floats.of(counts), pc, sampling)


def exact_variance(counts: Counts, w_fn, w_fp, sampling: str) -> np.ndarray:
    """Bootstrap variance of the cost, closed-form."""
    return _variance(_Floats.of(counts), w_fn, w_fp, sampling)


@dataclass(frozen=True)
class _Floats:
    """The counts a row's cost and variance use, as float64, each made once."""

    positives: np.ndarray
    negatives: np.ndarray
    fn: np.ndarray
    fp: np.ndarray

    @classmethod
    def of(cls, counts: Counts) -> _Floats:
        return cls(
            counts.positives.astype(np.float64),
            counts.negatives.astype(np.float64),
            counts.fn.astype(np.float64),
            counts.fp.astype(np.float64),
        )


def _weights(f: _Floats, pc: np.ndarray, sampling: str):
    if sampling == "stratified":
        w_fn, w_fp = pc / f.positives, (1 - pc) / f.negatives
    else:
        n = f.positives + f.negatives
        pi = f.positives / n
        w_fn, w_fp = pc / pi / n, (1 - pc) / (1 - pi) / n
    # w_fn * fn + w_fp * fp, in place: rows are (group, pc) pairs, millions of them for
    # many groups, and each fresh array costs page faults.
    cost = np.multiply(w_fn, f.fn)
    cost += np.multiply(w_fp, f.fp)
    return w_fn, w_fp, cost


def _variance(f: _Floats, w_fn, w_fp, sampling: str) -> np.ndarray:
    if sampling == "stratified":
        # Var(w * Bin(m, q)) = w^2 m q (1 - q), term by term in place (the same operations,
        # in the same order, as w**2 * fn * (m - fn) / m).
        first = np.square(w_fn)
        first *= f.fn
        first *= f.positives - f.fn
        first /= f.positives
        second = np.square(w_fp)
        second *= f.fp
        second *= f.negatives - f.fp
        second /= f.negatives
        first += second
        return first
    n = f.positives + f.negatives
    # L = sum_k w_k M_k with M ~ Multinomial(n, q): Var = n (sum w^2 q - (sum w q)^2),
    # the design's (sum c^2 q - (sum c q)^2) / n with c = n w.
    q_fn, q_fp = f.fn / n, f.fp / n
    return n * (w_fn**2 * q_fn + w_fp**2 * q_fp - (w_fn * q_fn + w_fp * q_fp) ** 2)


def _trials(counts: Counts, sampling: str):
    """The two binomials of each row: (trials, probability) of A (FN) and of B (FP).

    For ``"full"``, B's are those of B given A: ``Bin(n - a, q_fp / (1 - q_fn))``.
    """
    positives, negatives = counts.positives, counts.negatives
    fn, fp = counts.fn.astype(np.float64), counts.fp.astype(np.float64)
    if sampling == "stratified":
        return (positives, fn / positives), (negatives, fp / negatives)
    n = positives + negatives
    q_a, q_b = fn / n, fp / n
    with np.errstate(divide="ignore", invalid="ignore"):
        conditional = np.where(q_a < 1, np.minimum(q_b / (1 - q_a), 1.0), 0.0)
    return (n, q_a), (n, conditional)


def _spread(trials, p) -> np.ndarray:
    """About how many counts a binomial keeps (a quick upper estimate, for screening)."""
    sd = np.sqrt(np.maximum(trials * p * (1 - p), 0.0))
    return 2 * (14.1 * sd + 3)


def exact_sizes(counts: Counts, rows: np.ndarray, sampling: str):
    """Real pairs of each row's exact distribution, and the terms the exact path computes.

    The pairs are the product of the two counts' kept ranges (for ``"full"``, B's range is
    the one kept under every value of A). Rows clearly above :data:`AUTO_EXACT_PAIRS`
    (by a fourfold-safe estimate) are not measured and get ``inf``.
    """
    (m_a, p_a), (m_b, p_b) = _trials(counts, sampling)
    pairs = np.full(len(m_a), np.inf)
    work = np.full(len(m_a), np.inf)
    rough = _spread(m_a[rows], p_a[rows]) * _spread(m_b[rows], p_b[rows])
    measured = rows[rough <= 16 * AUTO_EXACT_PAIRS]
    return _measure(m_a, p_a, m_b, p_b, measured, sampling, pairs, work)


def _measure(m_a, p_a, m_b, p_b, rows, sampling, pairs, work):
    low_a, high_a = trimmed_bounds(m_a[rows], p_a[rows])
    if sampling == "stratified":
        low_b, high_b = trimmed_bounds(m_b[rows], p_b[rows])
    else:
        low_b, _ = trimmed_bounds(m_b[rows] - high_a, p_b[rows])
        _, high_b = trimmed_bounds(m_b[rows] - low_a, p_b[rows])
    width_a, width_b = high_a - low_a + 1, high_b - low_b + 1
    pairs[rows] = width_a * width_b
    # Tables of both counts, then two quantiles of up to 64 bisection steps over A's.
    work[rows] = width_a + width_b + 2 * 64 * np.minimum(width_a, width_b)
    return pairs, work


def band_of_counts(counts: Counts, pc: np.ndarray, options: Options):
    """Cost, lower, upper and se at each row (``inference="exact_bootstrap"``)."""
    floats = _Floats.of(counts)
    w_fn, w_fp, cost = _weights(floats, pc, options.sampling)
    se = _variance(floats, w_fn, w_fp, options.sampling)
    np.maximum(se, 0.0, out=se)
    np.sqrt(se, out=se)
    z = normal_quantile(options.levels[1])
    half = z * se  # in place below: millions of rows for many groups
    lower = np.subtract(cost, half)
    np.maximum(lower, 0.0, out=lower)
    upper = np.add(cost, half, out=half)
    if options.interval != "normal":
        candidates = np.arange(len(pc))
        # "auto": the normal fit, except with few errors (the score interval, below) and
        # where its interval leaves the costs' range [0, 1] (a skewed distribution): there
        # the exact quantiles covered better in tests/benchmarks/bench_coverage.py.
        misfits = (cost - z * se < 0) | (cost + z * se > 1)
        few = np.zeros(len(pc), dtype=bool)
        if options.interval == "auto":
            # Few errors of a class that counts: the score interval (costchart._bands.score)
            # covered there where neither bootstrap interval did (bench_fixed_coverage.py).
            # A class of one instance has no bootstrap spread (se may be 0 there): its
            # rate's width comes from the score interval, never from resampling it;
            # a classifier trivial on the data (no positive or no negative calls) stays.
            one = single_instance(floats.positives, floats.negatives, w_fn, w_fp) & ~(
                ((counts.tp + counts.fp) == 0) | ((counts.fn + counts.tn) == 0)
            )
            few = ((se > 0) | one) & few_errors(
                counts.fn, counts.fp, floats.positives, floats.negatives, w_fn, w_fp
            )
            candidates = np.flatnonzero(misfits & ~few)
            pairs, work = exact_sizes(counts, candidates, options.sampling)
        else:
            (m_a, p_a), (m_b, p_b) = _trials(counts, options.sampling)
            blank = (np.zeros(len(pc)), np.zeros(len(pc)))
            pairs, work = _measure(m_a, p_a, m_b, p_b, candidates, options.sampling, *blank)
        instances = counts.positives + counts.negatives
        exact = exact_where(pairs, work, pc, instances, options.interval, misfits)
        chosen = np.flatnonzero(exact)
        if len(chosen):
            lower[chosen], upper[chosen] = exact_quantiles(
                counts, chosen, w_fn, w_fp, options, np.minimum(work[chosen], 1e12)
            )
        rows = np.flatnonzero(few)
        lower[rows], upper[rows] = score_bounds(
            counts.fn[rows],
            counts.fp[rows],
            floats.positives[rows],
            floats.negatives[rows],
            w_fn[rows],
            w_fp[rows],
            options.sampling,
            options.levels,
        )
    np.minimum(lower, cost, out=lower)
    np.maximum(upper, cost, out=upper)
    return cost, lower, upper, se


def exact_quantiles(counts: Counts, rows, w_fn, w_fp, options: Options, work):
    """Lower and upper exact quantiles of the rows ``rows`` (each distinct one once)."""
    (m_a, p_a), (m_b, p_b) = _trials(counts, options.sampling)
    keys = np.column_stack(
        [m_a[rows], m_b[rows], counts.fn[rows], counts.fp[rows], w_fn[rows], w_fp[rows]]
    ).astype(np.float64)
    _, first, which = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    distinct = rows[first]
    lower, upper = np.empty(len(distinct)), np.empty(len(distinct))
    # Chunks keep the tables near EXACT_CHUNK_TERMS values.
    bounds = np.cumsum(work[first]) // EXACT_CHUNK_TERMS
    for chunk in np.unique(bounds):
        part = np.flatnonzero(bounds == chunk)
        lower[part], upper[part] = _chunk(m_a, p_a, m_b, p_b, distinct[part], w_fn, w_fp, options)
    return lower[which.ravel()], upper[which.ravel()]


def _chunk(m_a, p_a, m_b, p_b, rows, w_fn, w_fp, options: Options):
    a, b = (m_a[rows], p_a[rows]), (m_b[rows], p_b[rows])
    w_a, w_b = w_fn[rows], w_fp[rows]
    if options.sampling == "stratified":
        # The count with the larger weight goes inside: fewer bisection steps.
        swap = w_a > w_b
        a, b = (
            (np.where(swap, b[0], a[0]), np.where(swap, b[1], a[1])),
            (np.where(swap, a[0], b[0]), np.where(swap, a[1], b[1])),
        )
        w_a, w_b = np.where(swap, w_b, w_a), np.where(swap, w_a, w_b)
    problems = Problems(w_a, w_b, a, b, full=options.sampling == "full")
    low_level, high_level = options.levels
    return quantiles(problems, low_level), quantiles(problems, high_level)


def check_count_columns(data, columns: dict[str, str]) -> None:
    """Refuse confusion counts that are not whole numbers or add up to too many instances.

    ``columns`` maps each count's name (``tp``, ...) to its column of ``data``.
    """
    for name, column in columns.items():
        if not isinstance(column, str):
            msg = f"{name}={column!r} must be the name of a column of counts (a string)"
            raise CostchartError(msg)
    frame = as_pandas(data, list(columns.values()))
    counts = [whole_counts(frame[c].to_numpy(), f"column {c!r}") for c in columns.values()]
    total = np.sum(counts, axis=0)
    if np.any(total > MAX_INSTANCES):
        row = int(np.flatnonzero(total > MAX_INSTANCES)[0])
        listed = "+".join(repr(c) for c in columns.values())
        msg = (
            f"the counts {listed} add up to {total[row]:.4g} instances at row {row}, more "
            f"than 2**53 ({MAX_INSTANCES:,}), beyond which counts are not exact in float64; "
            "a bootstrap band needs fewer instances"
        )
        raise CostchartError(msg)
