"""The columns of ROC points: from counts per distinct score, or straight from scores.

:func:`count_columns` cumulates per-score counts (decreasing score) into the columns of
a points table, a (0, 0) row first; :func:`summable` makes counts safe to cumulate.
:func:`distinct_columns` makes the same columns for one curve of float scores that are
all distinct (as measured scores usually are), in one allocation that becomes the
result: each class's scores are value-sorted (no argsort) inside two of its columns, the
smaller class is placed among the larger by a binary search, and the merged scores, which
class each one is, and the running counts go straight into the columns. Beyond the
result it takes only the smaller class's positions. The general way (counts per distinct
score, then cumulated) allocates each column apart, and three more arrays of their size
and the sorted classes besides: on a fresh process every new array of tens of megabytes
costs page faults (see docs/performance.md). Scores that turn out tied take the general
way from the sorted classes.
"""

from __future__ import annotations

import numpy as np

from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.sorting import blocks, distinct_counts, merge_counts
from costchart._roc.counting import cumulated_from_zero, threshold_column

__all__ = ["DISTINCT_FROM", "count_columns", "distinct_columns", "summable"]

#: From this many scores on, :func:`distinct_columns` makes the columns (below, the
#: general way is as fast).
DISTINCT_FROM = 10_000
#: About this many scores are looked at for ties before any work (a sample of them).
_SAMPLE = 20_000


def distinct_columns(scores: np.ndarray, positive: np.ndarray) -> dict[str, np.ndarray] | None:
    """:func:`count_columns` of one curve's float64 scores (decreasing, (0, 0) first).

    None where the general way is taken: other dtypes, fewer than :data:`DISTINCT_FROM`
    scores, one class only (whose refusal or warning is the general way's), or ties in
    a sample of the scores (rounded scores are counted there without a sort). Ties found
    later are counted the general way from the classes already sorted, once the one
    allocation is given back.
    """
    n = len(scores)
    if scores.dtype != np.float64 or n < DISTINCT_FROM:
        return None
    n_pos = int(np.count_nonzero(positive))
    if n_pos in (0, n):
        return None
    sample = scores[:: max(n // _SAMPLE, 1)]
    if len(np.unique(sample)) < len(sample):  # tied: rounded scores count without a sort
        return None
    made = _in_one_allocation(scores, positive, n_pos)
    if isinstance(made, dict):
        return made
    counts = distinct_counts(made[0]), distinct_counts(made[1])
    return count_columns(*merge_counts(*counts[0], *counts[1]))


def _in_one_allocation(scores: np.ndarray, positive: np.ndarray, n_pos: int):
    """The columns of :func:`distinct_columns`, all views of one allocation.

    For tied scores, each class's scores sorted instead (copies: the allocation is given
    back). The work is done inside the allocation: the sorted classes in the ``tn`` and
    ``fn`` columns, which class each instance is in the ``tpr`` column, the smaller
    class's places in the ``fpr`` column, each column overwritten once it has served;
    what else it takes comes in blocks of a million values.
    """
    n = len(scores)
    size = n + 1
    buffer = np.empty(7 * size)  # one fresh allocation: its pages are the result's
    threshold, tpr, fpr = buffer[:size], buffer[5 * size : 6 * size], buffer[6 * size :]
    tp, fp, tn, fn = (buffer[k * size : (k + 1) * size].view(np.int64) for k in range(1, 5))
    flags = tpr.view(np.bool_)  # 8 flags per value: room for two of n each
    pos_sorted, neg_sorted = fn.view(np.float64)[:n_pos], tn.view(np.float64)[: n - n_pos]
    _split(scores, positive, pos_sorted, neg_sorted)
    pos_sorted.sort()
    neg_sorted.sort()
    if n_pos <= n - n_pos:
        small, large, small_count, large_count = pos_sorted, neg_sorted, tp, fp
    else:
        small, large, small_count, large_count = neg_sorted, pos_sorted, fp, tp
    if _tied(small) or _tied(large):
        return pos_sorted.copy(), neg_sorted.copy()
    slots = fpr.view(np.intp)[: len(small)]  # at most n / 2 of them: room enough
    for start, stop in blocks(len(small)):
        # The larger-class values below each smaller-class value, then one that equals it?
        below = np.searchsorted(large, small[start:stop])
        inside = below < len(large)
        if np.any(large[below[inside]] == small[start:stop][inside]):
            return pos_sorted.copy(), neg_sorted.copy()
        np.add(below, np.arange(start, stop), out=slots[start:stop])  # its place among all
    threshold[0] = np.inf
    ascending = threshold[:0:-1]  # threshold[1:] backwards: the scores ascend in it
    in_small, in_large = flags[:n], flags[n : 2 * n]
    in_small[:] = False
    in_small[slots] = True
    np.logical_not(in_small, out=in_large)
    ascending[slots] = small
    ascending[in_large] = large
    del slots
    # Down the distinct scores (decreasing), each step adds one instance of one class.
    _running_counts(in_small[::-1], small_count)
    _running_counts(in_large[::-1], large_count)
    total_pos, total_neg = tp[-1], fp[-1]
    np.subtract(total_neg, fp, out=tn)
    np.subtract(total_pos, tp, out=fn)
    np.divide(tp, total_pos, out=tpr)
    np.divide(fp, total_neg, out=fpr)
    return {
        col.THRESHOLD: threshold,
        col.TP: tp,
        col.FP: fp,
        col.TN: tn,
        col.FN: fn,
        col.TPR: tpr,
        col.FPR: fpr,
    }


def _split(scores: np.ndarray, positive: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> None:
    """Write the positives' scores into ``pos`` and the negatives' into ``neg``, in order."""
    at_pos = at_neg = 0
    for start, stop in blocks(len(scores)):
        flags, part = positive[start:stop], scores[start:stop]
        k = int(np.count_nonzero(flags))
        np.compress(flags, part, out=pos[at_pos : at_pos + k])
        np.compress(~flags, part, out=neg[at_neg : at_neg + len(part) - k])
        at_pos, at_neg = at_pos + k, at_neg + len(part) - k


def _running_counts(flags: np.ndarray, out: np.ndarray) -> None:
    """``out``: 0, then the running count of ``flags`` (one more value than ``flags``).

    In blocks: a cumulative sum into an int64 array cast from booleans would first make
    a copy of them all.
    """
    out[0] = 0
    for start, stop in blocks(len(flags)):
        part = out[start + 1 : stop + 1]
        np.cumsum(flags[start:stop], out=part)
        part += out[start]


def _tied(sorted_values: np.ndarray) -> bool:
    """Whether a sorted array holds some value twice (read in blocks)."""
    return any(
        np.any(sorted_values[start + 1 : stop + 1] == sorted_values[start:stop])
        for start, stop in blocks(len(sorted_values) - 1)
    )


def count_columns(thresholds, pos, neg, *, rates: bool = True) -> dict[str, np.ndarray]:
    """The columns of ROC points from per-score counts (decreasing score), (0, 0) first.

    ``threshold, tp, fp, tn, fn``, then ``tpr, fpr`` unless ``rates`` is False (for
    callers with rates of their own).
    """
    tp = cumulated_from_zero(pos)
    fp = cumulated_from_zero(neg)
    total_pos, total_neg = tp[-1], fp[-1]
    columns = {
        col.THRESHOLD: threshold_column(np.asarray(thresholds)),
        col.TP: tp,
        col.FP: fp,
        col.TN: total_neg - fp,
        col.FN: total_pos - tp,
    }
    if rates:
        columns[col.TPR] = tp / total_pos
        columns[col.FPR] = fp / total_neg
    return columns


#: Integer counts whose class totals reach this are summed as float64 instead of int64,
#: which would wrap around (and make a class look empty).
_INT64_SAFE_TOTAL = 2.0**62


def summable(pos: np.ndarray, neg: np.ndarray, what: str) -> tuple[np.ndarray, np.ndarray]:
    """Per-score counts or sums whose class totals are finite, ready to cumulate.

    Integer counts whose totals would overflow int64 become float64 (the rates stay
    right to the last bits). Float sums whose total passes the largest float64 (weights
    or costs near 1e308) are refused, naming ``what`` (e.g. ``"weights in column 'w'"``):
    their rates would be NaN.
    """
    if pos.dtype.kind in "iu" or neg.dtype.kind in "iu":
        too_big = max(pos.sum(dtype=np.float64), neg.sum(dtype=np.float64)) >= _INT64_SAFE_TOTAL
        if too_big:
            return pos.astype(np.float64), neg.astype(np.float64)
        return pos, neg
    with np.errstate(over="ignore"):
        totals = {"positives": pos.sum(), "negatives": neg.sum()}
    for kind, total in totals.items():
        if not np.isfinite(total):
            msg = (
                f"the {what} of the {kind} sum to more than the largest float64 (about "
                f"{np.finfo(np.float64).max:.1e}); divide them by a constant (the rates do "
                "not change)"
            )
            raise CostchartError(msg)
    return pos, neg
