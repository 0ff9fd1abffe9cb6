"""Counting instances by score for every group at once.

:func:`count_groups` turns rows of (group, score, label) into per-group counts per
distinct score, in decreasing score order, with one sort for all groups: rows are sorted
by score, then stably by group (a radix sort when group numbers fit in 16 bits), so the
runs of equal (group, score) are the distinct scores of each group.
:func:`cumulate_groups` turns those counts into ROC points with a (0, 0) row leading each
group. Integer counts cumulate exactly across groups (a global cumulative sum minus each
group's start); float sums (weights) are cumulated group by group, where a global sum
would lose the precision of small groups after large ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["GroupCounts", "count_groups", "cumulate_groups", "group_order"]


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
