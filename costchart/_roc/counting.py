"""Counting instances by score, for one group or for every group at once.

For one group, :func:`count_by_score` gives per distinct score (decreasing) the class
counts: a ``bincount`` for rounded or narrow integer scores, two value sorts merged
otherwise, hashing or a sort of packed keys for weights (:func:`weighted_sums_by_score`);
:func:`bin_by_rank` merges them into quantile bins. For all groups, :func:`count_groups`
counts with one sort (by score, then stably by group) and :func:`cumulate_groups` turns
the counts into ROC points with a (0, 0) row leading each group: integer counts exactly
across groups, float sums (weights) group by group, keeping small groups' precision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costchart._io.errors import CostchartError
from costchart._io.sorting import count_instances as _count_instances
from costchart._io.sorting import run_starts, sums_of_sorted, value_order
from costchart._io.validation import whole_number

__all__ = [
    "MAX_BINS",
    "GroupCounts",
    "as_counts",
    "bin_by_rank",
    "check_bins",
    "count_by_score",
    "count_groups",
    "cumulate_groups",
    "cumulated_from_zero",
    "group_order",
    "sums_by_codes",
    "threshold_column",
    "weighted_sums_by_score",
]


@dataclass(frozen=True)
class GroupCounts:
    """Per group, per distinct score (decreasing): the score and the class counts.

    ``group`` says which group each row belongs to (non-decreasing); ``lengths[g]`` is
    the number of distinct scores of group ``g``.
    """

    group: np.ndarray
    scores: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    lengths: np.ndarray


def group_order(group: np.ndarray, scores: np.ndarray, n_groups: int) -> np.ndarray:
    """Row order by (group, score ascending); ties of a score in any order (they count alike)."""
    by_score = np.argsort(scores)
    if n_groups <= 1:
        return by_score
    narrow = np.uint16 if n_groups <= np.iinfo(np.uint16).max else np.int64
    return by_score[np.argsort(group[by_score].astype(narrow), kind="stable")]


def count_groups(
    group: np.ndarray, scores: np.ndarray, positive: np.ndarray, n_groups: int
) -> GroupCounts:
    """Unweighted counts per (group, distinct score), scores decreasing within a group."""
    order = group_order(group, scores, n_groups)
    g, s = group[order], scores[order]
    n = len(s)
    change = np.ones(n, dtype=bool)
    if n:
        change[1:] = (g[1:] != g[:-1]) | (s[1:] != s[:-1])
    starts = np.flatnonzero(change)
    sizes = np.diff(np.append(starts, n))
    pos = np.add.reduceat(positive[order].astype(np.int64), starts) if n else sizes
    neg = sizes - pos
    run_group = g[starts]
    lengths = np.bincount(run_group, minlength=n_groups)
    # Reverse the runs within each group: decreasing scores.
    reverse = reversed_within(lengths)
    return GroupCounts(run_group[reverse], s[starts][reverse], pos[reverse], neg[reverse], lengths)


def reversed_within(lengths: np.ndarray) -> np.ndarray:
    """Positions that reverse each consecutive block of ``lengths`` rows."""
    ends = np.cumsum(lengths)
    starts = ends - lengths
    block = np.repeat(np.arange(len(lengths)), lengths)
    return (starts + ends - 1)[block] - np.arange(ends[-1] if len(ends) else 0)


def cumulate_groups(counts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Per group, 0 then the running sums of ``counts`` (blocks of ``lengths`` rows).

    Returns ``len(counts) + len(lengths)`` values: each group gets a leading 0.
    """
    n_groups = len(lengths)
    out_lengths = lengths + 1
    out = np.zeros(int(out_lengths.sum()), dtype=counts.dtype)
    out_starts = np.cumsum(out_lengths) - out_lengths
    # Where each input row lands: after its group's leading zero.
    block = np.repeat(np.arange(n_groups), lengths)
    within = np.arange(len(counts)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    target = out_starts[block] + within + 1
    if counts.dtype.kind in "iu":
        running = np.cumsum(counts)
        before = np.repeat(np.cumsum(lengths) - lengths, lengths)
        offsets = np.concatenate([[0], running])[before]
        out[target] = running - offsets
    else:
        starts = np.cumsum(lengths) - lengths
        for start, length, at in zip(starts, lengths, out_starts, strict=True):
            np.cumsum(counts[start : start + length], out=out[at + 1 : at + 1 + length])
    return out


def count_by_score(scores, positive, weights, instances=None, bins=None):
    """Per distinct score, in decreasing order: (score, positive count, negative count).

    ``instances`` (rows of a per-score aggregate) says how many instances each row stands
    for; ``bins`` merges the scores into that many quantile bins (:func:`bin_by_rank`).
    """
    if weights is None and instances is None:
        lattice = _lattice_of(scores)
        if lattice is not None:  # rounded scores: a bincount, no sort
            values, ((pos, neg),) = _sums_on_lattice(scores, positive, [None], lattice)
        else:
            values, pos, neg = _count_instances(scores, positive)
        sizes = pos + neg
    else:
        if weights is not None:
            keep = weights > 0
            if not keep.all():
                scores, positive, weights = scores[keep], positive[keep], weights[keep]
                instances = None if instances is None else instances[keep]
        # Sum per score the instance counts (None counts rows), which bins and aggregates
        # need, then the weights if any.
        counting = instances is not None or bins is not None
        summed = ([instances] if counting else []) + ([weights] if weights is not None else [])
        values, sums = weighted_sums_by_score(scores, positive, summed)
        sizes = sum(as_counts(*sums[0])) if counting else None
        pos, neg = sums[-1] if weights is not None else as_counts(*sums[0])
    if bins is None:
        return values, pos, neg
    values, (pos, neg) = bin_by_rank(values, sizes, [pos, neg], bins)
    return values, pos, neg


#: The most ``bins=`` accepted: far more than any chart shows (more bins than instances
#: keep every distinct score anyway).
MAX_BINS = 10**9


def check_bins(bins) -> int | None:
    """Validate ``bins=``: None or a whole number from 1 to :data:`MAX_BINS`."""
    if bins is None:
        return None
    try:
        return whole_number(bins, "bins", minimum=1, maximum=MAX_BINS)
    except CostchartError as error:
        msg = (
            f"{error} (how many score quantiles to keep); pass e.g. bins=1000, or None for "
            "every distinct score"
        )
        raise CostchartError(msg) from None


def bin_by_rank(values: np.ndarray, sizes: np.ndarray, sums: list[np.ndarray], bins: int):
    """Merge per-score rows (decreasing score) into at most ``bins`` quantile bins.

    A score with ``above`` instances scoring higher, out of ``n``, goes to bin
    ``floor(above * bins / n)``, so ties stay together and bins hold about ``n / bins``
    instances each. Returns each bin's lowest score and the summed ``sums``.
    """
    if len(values) == 0:
        return values, sums
    sizes = np.asarray(sizes, dtype=np.int64)
    total = max(int(sizes.sum()), 1)
    # More bins than instances put every distinct score in its own bin already; fewer
    # keep ``above * bins`` below total**2, exact in int64 for any realistic count.
    bins = min(bins, total)
    above = np.cumsum(sizes) - sizes
    if total * bins <= np.iinfo(np.int64).max:
        index = above * bins // total
    else:  # Python integers never overflow; the per-score table is small
        index = np.array([int(a) * bins // total for a in above], dtype=np.int64)
    starts = run_starts(index)
    ends = np.append(starts[1:], len(values)) - 1
    return values[ends], [np.add.reduceat(values_, starts) for values_ in sums]


#: Above this share of distinct scores (estimated on a sample), hashing the scores costs
#: more than sorting them.
_HASH_WHEN_DISTINCT_BELOW = 0.5


_MAX_DECIMALS = 6


def _lattice_codes(scores: np.ndarray):
    """Integer codes for scores that are all multiples of ``10**-d`` (rounded scores).

    Returns ``(codes, low, scale, span)`` with ``scores == (low + codes) / scale`` exactly
    (bit for bit) and ``0 <= codes < span``, or None when the scores are not on such a
    lattice or it would be too wide. Codes make summing by score a ``bincount``: no sort and
    no hash.
    """
    n = len(scores)
    if n < 10_000:
        return None
    sample = scores[:: max(n // 2_000, 1)]
    for decimals in range(_MAX_DECIMALS + 1):
        scale = 10.0**decimals
        if np.array_equal(np.rint(sample * scale) / scale, sample):
            break
    else:
        return None
    scaled = scores * scale
    np.rint(scaled, out=scaled)
    if not np.array_equal(scaled / scale, scores):
        return None
    low, high = scaled.min(), scaled.max()
    if high - low > 4 * n or high - low > 2**31:
        return None
    scaled -= low
    return scaled.astype(np.intp), low, scale, int(high - low) + 1


def _integer_codes(scores: np.ndarray):
    """Integer scores in a narrow range as codes ``scores - low``, like :func:`_lattice_codes`.

    Returns ``(codes, low, None, span)`` (``low`` of the scores' own dtype, so
    ``low + codes`` gives the scores back exactly), or None for a wide range.
    """
    n = len(scores)
    if n < 10_000:
        return None
    low, high = scores.min(), scores.max()
    span = int(high) - int(low)  # Python integers: no overflow for any int64 or uint64
    if span > 4 * n or span > 2**31:
        return None
    return (scores - low).astype(np.intp), low, None, span + 1


def _lattice_of(scores: np.ndarray):
    """Integer codes of rounded or narrow integer scores, or None (:func:`_lattice_codes`)."""
    return _integer_codes(scores) if scores.dtype.kind in "iu" else _lattice_codes(scores)


def _sums_on_lattice(scores, positive, weights, lattice):
    """:func:`weighted_sums_by_score` for scores with integer codes: one ``bincount`` each."""
    key, low, scale, span = lattice
    key *= 2  # the code's bin for negatives, the next one for positives
    key += positive
    counts = np.bincount(key, minlength=2 * span).reshape(-1, 2)
    sums: list[tuple[np.ndarray, np.ndarray]] = []
    for weight in weights:
        both = (
            counts
            if weight is None
            else np.bincount(key, weights=weight, minlength=2 * span).reshape(-1, 2)
        )
        sums.append((both[:, 1], both[:, 0]))
    present = np.flatnonzero(counts.sum(axis=1))[::-1]
    if scale is None:  # integer codes: back in the scores' own dtype (uint64 + intp is float)
        values = present.astype(scores.dtype) + low
    else:
        values = (low + present) / scale
    return values, [(p[present], q[present]) for p, q in sums]


def weighted_sums_by_score(
    scores: np.ndarray, positive: np.ndarray, weights: Sequence[np.ndarray | None]
):
    """Sum weights per distinct score, separately over positives and negatives.

    Returns the distinct scores in decreasing order and, for each weight array,
    ``(positive_sums, negative_sums)``; a weight of ``None`` counts instances (int64).

    Rounded scores (all multiples of ``10**-d``) become integer codes directly; other
    scores with many ties are hashed (pandas.factorize); either way a ``bincount`` sums
    them in linear time (:func:`sums_by_codes`). Mostly distinct scores are sorted and
    summed run by run (:mod:`costchart._io.sorting`).
    """
    by_codes = sums_by_codes(scores, positive, weights)
    if by_codes is not None:
        return by_codes
    order, sorted_scores = value_order(scores)
    return sums_of_sorted(order, sorted_scores, positive, weights)


def sums_by_codes(scores: np.ndarray, positive: np.ndarray, weights):
    """:func:`weighted_sums_by_score` for rounded or much-tied scores; None for the others.

    None says the scores are mostly distinct (judged on a sample): sort them instead.
    """
    n = len(scores)
    lattice = _lattice_of(scores)
    if lattice is not None:
        return _sums_on_lattice(scores, positive, weights, lattice)
    sample = scores[:: max(n // 20_000, 1)]
    if not (n and len(np.unique(sample)) < _HASH_WHEN_DISTINCT_BELOW * len(sample)):
        return None
    codes, distinct = pd.factorize(scores, sort=False)
    key = 2 * codes + positive
    sums = []
    for weight in weights:
        both = np.bincount(key, weights=weight, minlength=2 * len(distinct)).reshape(-1, 2)
        sums.append((both[:, 1], both[:, 0]))  # counts stay int64 without weights
    order = np.argsort(distinct)[::-1]  # not -distinct: exact for any integer dtype
    return distinct[order], [(p[order], q[order]) for p, q in sums]


def as_counts(*sums: np.ndarray) -> tuple[np.ndarray, ...]:
    """Sums of instance counts (float64 after a weighted ``bincount``) back as int64."""
    return tuple(np.rint(values).astype(np.int64) for values in sums)


#: Integers up to this size are exact in float64.
_EXACT_IN_FLOAT = 2**53


def threshold_column(thresholds: np.ndarray) -> np.ndarray:
    """The ``threshold`` column: ``+inf``, then the thresholds (decreasing).

    float64, except for integer scores beyond 2**53 in size, which float64 would round
    into false ties: those stay exact as Python integers in an object column.
    """
    exact = thresholds.dtype.kind not in "iu" or (
        len(thresholds) == 0
        or max(abs(int(thresholds.min())), abs(int(thresholds.max()))) <= _EXACT_IN_FLOAT
    )
    if exact:
        column = np.empty(len(thresholds) + 1, dtype=np.float64)
        column[0] = np.inf
        column[1:] = thresholds
        return column
    return np.array([np.inf, *thresholds.tolist()], dtype=object)


def cumulated_from_zero(values: np.ndarray) -> np.ndarray:
    """``0`` then the running sums of ``values``, written in place (no temporary copy)."""
    values = np.asarray(values)
    summed = np.cumsum(values[:0]).dtype  # as np.concatenate([[0], np.cumsum(values)])
    out = np.empty(len(values) + 1, dtype=np.result_type(summed, np.int64))
    out[0] = 0
    np.cumsum(values, out=out[1:])
    return out
