"""Value sorts in place of argsorts, for scores by the million.

``np.sort`` of float64 or 64-bit integers runs on SIMD sorting networks, several times
faster than ``np.argsort``. :func:`value_order` gets an argsort's row order out of one value
sort of packed keys; :func:`count_instances` counts each class per distinct score from two
value sorts merged by a binary search (:func:`merge_counts`), with no row order at all.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "PACK_FROM",
    "all_distinct",
    "blocks",
    "count_instances",
    "distinct_counts",
    "merge_counts",
    "run_starts",
    "sums_of_sorted",
    "value_order",
]

#: From this many scores on, :func:`value_order` sorts packed keys; below, it argsorts
#: (as fast at that size, and the same order as ever, ties included).
PACK_FROM = 10_000

_LOWER_63_BITS = np.int64(np.iinfo(np.int64).max)
_SIGN_BIT = np.int64(np.iinfo(np.int64).min)


def value_order(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row order that sorts ``scores`` ascending, and the sorted scores.

    As ``order = np.argsort(scores, kind="stable")`` (ties in row order) for float64 and
    64-bit integer scores from :data:`PACK_FROM` on, without an argsort: each score becomes a
    64-bit key that orders as the score does, its lowest ``b`` bits replaced by the row
    number (``2**b`` rows at least); one value sort of the keys gives the rows. Scores whose
    keys agree but for those bits (ties, or scores a few ulps apart) are then ordered
    among themselves by an argsort of just those rows. Other dtypes, and fewer scores,
    take ``np.argsort(scores)``, and so do scores holding NaN (a NaN's key would not sort
    last as ``np.sort`` puts it; costchart's callers refuse NaN scores before this).

    Returns
    -------
    order : numpy.ndarray
        Row positions (intp), ``scores[order]`` non-decreasing.
    sorted_scores : numpy.ndarray
        ``scores[order]``.
    """
    n = len(scores)
    keys = _ordered_keys(scores) if n >= PACK_FROM else None
    if keys is None:
        order = np.argsort(scores)
        return order, scores[order]
    shift = max((n - 1).bit_length(), 1)
    row_bits = np.int64((1 << shift) - 1)
    keys &= ~row_bits
    for start, stop in blocks(n):
        keys[start:stop] |= np.arange(start, stop, dtype=np.int64)
    keys.sort()
    shared = _shared_prefixes(keys, shift)
    order = keys
    order &= row_bits  # the keys become the rows, in place
    order = order.view(np.intp)
    if shared.any():
        _order_shared_prefixes(order, scores, shared)
    # A value sort gives the same array as scores[order], faster than gathering.
    return order, np.sort(scores)


#: Rows per block of :func:`blocks`: temporaries of 8 MB instead of one per row of input
#: (a fresh array of 80 MB costs page faults by the thousand).
_BLOCK = 1 << 20


def blocks(n: int):
    """``(start, stop)`` of consecutive blocks of :data:`_BLOCK` rows covering ``range(n)``."""
    return ((start, min(start + _BLOCK, n)) for start in range(0, n, _BLOCK))


def _shared_prefixes(keys: np.ndarray, shift: int) -> np.ndarray:
    """Whether each pair of neighbouring sorted ``keys`` agrees but for the last ``shift`` bits."""
    shared = np.empty(max(len(keys) - 1, 0), dtype=bool)
    for start, stop in blocks(len(shared)):
        prefix = keys[start : stop + 1] >> shift
        np.equal(prefix[1:], prefix[:-1], out=shared[start:stop])
    return shared


def _ordered_keys(scores: np.ndarray) -> np.ndarray | None:
    """A new int64 array ordered as ``scores`` (equal keys for equal scores), or None.

    float64: the bits, with the lower 63 flipped for negative numbers (and -0.0 made
    0.0); int64 as it is; uint64 with the sign bit flipped. Other dtypes give None.
    """
    if scores.dtype == np.float64:
        if np.isnan(scores).any():
            return None
        keys = (scores + 0.0).view(np.int64)  # + 0.0 turns -0.0 into 0.0
        for start, stop in blocks(len(keys)):  # a where= ufunc would buffer the whole
            part = keys[start:stop]
            flip = part >> 63  # all ones for negative numbers
            flip &= _LOWER_63_BITS
            part ^= flip
        return keys
    if scores.dtype == np.int64:
        return scores.copy()
    if scores.dtype == np.uint64:
        keys = scores.astype(np.uint64, copy=True).view(np.int64)
        keys ^= _SIGN_BIT
        return keys
    return None


def _order_shared_prefixes(order: np.ndarray, scores: np.ndarray, shared: np.ndarray) -> None:
    """Order by score, in place, the runs of ``order`` whose keys shared their prefix.

    ``shared[i]`` says rows ``i`` and ``i + 1`` of ``order`` share one. Runs of different
    prefixes hold scores in the runs' order, so one argsort of all their rows' scores
    orders every run (a SIMD argsort: a stable one is several times slower when most rows
    collide); :func:`_rows_in_order_within_ties` then puts equal scores in row order.
    """
    member = _runs_of_pairs(shared)
    where = np.flatnonzero(member)
    rows = order[where]
    sub_scores = scores[rows]
    by_score = np.argsort(sub_scores)
    rows, sub_scores = rows[by_score], sub_scores[by_score]
    _rows_in_order_within_ties(rows, sub_scores)
    order[where] = rows


def _runs_of_pairs(pairs: np.ndarray) -> np.ndarray:
    """Which elements belong to a pair flagged in ``pairs`` (element ``i`` and ``i + 1``)."""
    member = np.zeros(len(pairs) + 1, dtype=bool)
    member[1:] = pairs
    member[:-1] |= pairs
    return member


def _rows_in_order_within_ties(rows: np.ndarray, sorted_scores: np.ndarray) -> None:
    """Sort ``rows`` in place within each run of equal ``sorted_scores``."""
    tied = _runs_of_pairs(sorted_scores[1:] == sorted_scores[:-1])
    if not tied.any():
        return
    where = np.flatnonzero(tied)
    rows[where] = rows[where][np.lexsort((rows[where], sorted_scores[where]))]


def count_instances(scores: np.ndarray, positive: np.ndarray):
    """Per distinct score, decreasing: (score, positive count, negative count), int64 counts.

    Each class's scores are value-sorted (no argsort) and counted per distinct value;
    :func:`merge_counts` merges the two.
    """
    pos_scores = scores[positive]
    neg_scores = scores[~positive]
    pos_scores.sort()
    neg_scores.sort()
    return merge_counts(*distinct_counts(pos_scores), *distinct_counts(neg_scores))


def distinct_counts(sorted_values: np.ndarray) -> tuple[np.ndarray, np.ndarray | int]:
    """Distinct values of a sorted array and how often each occurs (1: each once)."""
    change = np.empty(len(sorted_values), dtype=bool)
    change[:1] = True
    np.not_equal(sorted_values[1:], sorted_values[:-1], out=change[1:])
    if change.all():
        return sorted_values, 1
    starts = np.flatnonzero(change)
    return sorted_values[starts], np.diff(np.append(starts, len(sorted_values)))


def merge_counts(pos_values, pos_counts, neg_values, neg_counts):
    """Merge the classes' distinct scores (each ascending) into decreasing distinct scores.

    The smaller class is placed into the larger by a binary search; a score of both
    classes makes one row. Counts are arrays or ``1`` (each value once).

    Returns
    -------
    tuple of numpy.ndarray
        The distinct scores, decreasing, and per score the positive and negative counts
        (int64, 0 where a class lacks the score).
    """
    if len(pos_values) <= len(neg_values):
        values, (pos, neg) = _place_smaller((pos_values, pos_counts), (neg_values, neg_counts))
    else:
        values, (neg, pos) = _place_smaller((neg_values, neg_counts), (pos_values, pos_counts))
    return values, pos, neg


def _place_smaller(small, large):
    """Merge ``(values, counts)`` of a smaller and a larger class, decreasing."""
    small_values, small_counts = small
    large_values, large_counts = large
    below = np.searchsorted(large_values, small_values)  # larger-class values below each
    found = below < len(large_values)
    shared = np.zeros(len(small_values), dtype=bool)
    shared[found] = large_values[below[found]] == small_values[found]
    n_shared = int(np.count_nonzero(shared))
    # Distinct scores below each small value: its own class's, the larger class's, less
    # those counted twice (the shared ones below it).
    slots = np.arange(len(small_values)) + below
    if n_shared:
        slots -= np.cumsum(shared) - shared
    size = len(small_values) + len(large_values) - n_shared
    from_large = np.ones(size, dtype=bool)
    from_large[slots[~shared] if n_shared else slots] = False
    values = np.empty(size, dtype=np.result_type(small_values, large_values))
    small_sums = np.zeros(size, dtype=np.int64)
    large_sums = np.zeros(size, dtype=np.int64)
    # Written through reversed views: the results come out decreasing, contiguous.
    values[::-1][from_large] = large_values
    values[::-1][slots] = small_values
    large_sums[::-1][from_large] = large_counts
    small_sums[::-1][slots] = small_counts
    return values, (small_sums, large_sums)


def run_starts(sorted_values: np.ndarray) -> np.ndarray:
    """Start positions of the runs of equal values in a sorted array."""
    if len(sorted_values) == 0:
        return np.zeros(0, dtype=np.intp)
    change = np.empty(len(sorted_values), dtype=bool)
    change[0] = True
    np.not_equal(sorted_values[1:], sorted_values[:-1], out=change[1:])
    return np.flatnonzero(change)


def all_distinct(sorted_values: np.ndarray) -> bool:
    """Whether a sorted array holds no value twice."""
    return bool(np.all(sorted_values[1:] != sorted_values[:-1]))


def sums_of_sorted(order, sorted_scores, positive, weights):
    """:func:`weighted_sums_by_score` of scores sorted by ``order`` (``sorted_scores``)."""
    if len(order) == 0:
        return sorted_scores, [(np.zeros(0), np.zeros(0)) for _ in weights]
    starts = None if all_distinct(sorted_scores) else run_starts(sorted_scores)
    sorted_positive = positive[order]
    sums = [
        _class_sums(sorted_positive, None if weight is None else weight[order], starts)
        for weight in weights
    ]
    values = sorted_scores if starts is None else sorted_scores[starts]
    return values[::-1], sums


def _class_sums(sorted_positive, sorted_weight, starts):
    """Per run of equal sorted scores (``starts``; None: each row its own), decreasing.

    Returns the positives' and negatives' sums of ``sorted_weight`` (None: counts, int64).
    """
    if sorted_weight is None:
        pos = sorted_positive.astype(np.int64)
        if starts is None:
            neg = 1 - pos
        else:
            pos = np.add.reduceat(pos, starts)
            neg = np.diff(np.append(starts, len(sorted_positive))) - pos
    else:
        pos = np.where(sorted_positive, sorted_weight, sorted_weight.dtype.type(0))
        neg = sorted_weight - pos  # exactly the weight or 0
        if starts is not None:
            pos, neg = np.add.reduceat(pos, starts), np.add.reduceat(neg, starts)
    return pos[::-1], neg[::-1]
