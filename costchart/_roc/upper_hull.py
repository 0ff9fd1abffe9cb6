"""Upper (concave) hulls of points sorted by x: of one group, or of many groups at once.

:func:`upper_hull` finds the corners of one group (pool-adjacent-violators, linear time).
:func:`upper_hulls` finds them for all groups in shared numpy passes that each drop every
point not turning clockwise (a group still changing after many passes first drops the
points under chords of far-apart points); it gives the same positions, and hands the
rare group that needs many passes even then to :func:`upper_hull`, the only code here
that imports scipy. :func:`exact_scales` says which groups' exact coordinates (counts)
scale their rates, so their hull can be taken on the counts.
"""

from __future__ import annotations

import numpy as np

__all__ = ["exact_scales", "upper_hull", "upper_hulls"]

#: Shared passes before a group whose chain still changes drops the points under far
#: chords (:func:`_far_chords`), and again before it is finished by :func:`upper_hull`.
#: ROC curves of up to 2,000 points need 6 to 14 passes (random, rounded or heavily tied
#: scores), of 10,000 points about 10; points hanging below a long edge in a concave arc
#: lose only one point per pass from each end, until the far chords drop them at once.
MAX_PASSES = 16

#: Coordinates above this (counts of large weights) are scaled down by a power of two,
#: exactly, before any turn is computed: a product of two coordinates near 1e154
#: overflows float64, and the hull came out wrong.
LARGEST = 2.0**500


def _in_range(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``x`` and ``y`` times one power of two that brings them to at most :data:`LARGEST`."""
    top = max(float(np.max(np.abs(x), initial=0.0)), float(np.max(np.abs(y), initial=0.0)))
    if not LARGEST < top < np.inf:
        return x, y
    shift = 500 - int(np.ceil(np.log2(top)))  # the same factor for both keeps every angle
    return np.ldexp(x, shift), np.ldexp(y, shift)


def upper_hull(x: np.ndarray, y: np.ndarray, *, min_turn: float = 0.0) -> np.ndarray:
    """Positions of the upper-hull corners of points sorted by (x, y).

    The chain starts at the first point and ends at the last; collinear points are not
    corners. Runs of equal ``x`` keep their highest point (and the very first point).
    The concave majorant is the antitonic regression of the segment slopes weighted by
    their widths (pool-adjacent-violators, linear time); a final exact pass removes any
    point that does not turn clockwise by more than ``min_turn`` (the sine of the angle).
    """
    from scipy.optimize import isotonic_regression

    n = len(x)
    if n <= 2:
        return np.arange(n)
    x, y = _in_range(x, y)
    last_of_run = np.flatnonzero(np.append(x[1:] != x[:-1], True))
    chain = last_of_run if last_of_run[0] == 0 or y[last_of_run[0]] == y[0] else None
    if chain is None:
        chain = np.insert(last_of_run, 0, 0)
    # The chain may start with a vertical edge (several points at the smallest x); the
    # remaining edges all have positive width.
    start = 1 if len(chain) > 1 and x[chain[1]] == x[chain[0]] else 0
    tail = chain[start:]
    if len(tail) > 2:
        dx, dy = np.diff(x[tail]), np.diff(y[tail])
        blocks = isotonic_regression(dy / dx, weights=dx, increasing=False).blocks
        chain = np.concatenate([chain[:start], tail[blocks]])
    return _drop_non_corners(x, y, chain, min_turn)


def _drop_non_corners(x, y, chain: np.ndarray, min_turn: float) -> np.ndarray:
    """Remove chain points that lie on or below the segment joining their neighbours."""
    while len(chain) > 2:
        xs, ys = x[chain], y[chain]
        left_x, left_y = xs[1:-1] - xs[:-2], ys[1:-1] - ys[:-2]
        right_x, right_y = xs[2:] - xs[1:-1], ys[2:] - ys[1:-1]
        cross = left_x * right_y - left_y * right_x
        if min_turn:
            cross = cross + min_turn * np.hypot(left_x, left_y) * np.hypot(right_x, right_y)
        corner = cross < 0
        if corner.all():
            break
        chain = chain[np.concatenate([[True], corner, [True]])]
    return chain


def upper_hulls(
    x: np.ndarray,
    y: np.ndarray,
    starts: np.ndarray,
    sizes: np.ndarray,
    *,
    min_turn: float | np.ndarray = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Positions of the upper-hull corners of every group, as :func:`upper_hull` gives them.

    A point on or below the chord of its neighbours is never a corner, so every such point
    of every group is dropped in one shared pass, and passes repeat on the points left
    until no chain changes: first with ``min_turn`` 0 (the exact hull, which the
    pool-adjacent-violators step of :func:`upper_hull` finds), then with each group's
    ``min_turn`` (the final step of :func:`upper_hull`, with the same arithmetic). Groups
    still changing after :data:`MAX_PASSES` passes drop the points well under chords of
    far-apart chain points (never corners) and get as many passes again; those still
    changing then are left to :func:`upper_hull`.

    The positions are those of :func:`upper_hull` wherever the turns are exact (integer
    coordinates) or ``min_turn`` exceeds their rounding error; with ``min_turn`` 0 on
    rounded coordinates the two may disagree about points collinear up to rounding.

    Parameters
    ----------
    x, y : numpy.ndarray
        Coordinates (float64) of the points of all groups, group after group, each group
        sorted by (x, y).
    starts, sizes : numpy.ndarray
        Offset of each group's first point, and its number of points (groups are
        contiguous and in order: ``starts`` is the cumulative sum of ``sizes`` shifted).
    min_turn : float or numpy.ndarray
        The sine of the smallest turn that makes a corner: one value, or one per group.

    Returns
    -------
    kept : numpy.ndarray
        Positions (int64, into ``x``) of the corners, group after group, increasing.
    counts : numpy.ndarray
        Corners per group (int64).
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    starts = np.asarray(starts, dtype=np.int64)
    x, y = _in_range(x, y)
    n_groups = len(sizes)
    final_turn = np.broadcast_to(np.asarray(min_turn, dtype=np.float64), (n_groups,))
    group = np.repeat(np.arange(n_groups), sizes)
    candidate = _chain_candidates(x, y, starts, sizes, group)
    chain = np.flatnonzero(candidate)
    chain, unsettled = _shared_passes(x, y, chain, group, np.zeros(n_groups))
    if unsettled.any():
        chain = _far_chords(x, y, chain, group, unsettled, int(sizes[unsettled].max()))
        chain, unsettled = _shared_passes(x, y, chain, group, np.zeros(n_groups))
    if final_turn.any():
        chain = chain[~unsettled[group[chain]]]
        chain, still = _shared_passes(x, y, chain, group, final_turn)
        unsettled |= still
    kept = np.zeros(len(x), dtype=bool)
    kept[chain] = True
    for g in np.flatnonzero(unsettled):
        part = slice(starts[g], starts[g] + sizes[g])
        kept[part] = False
        kept[starts[g] + upper_hull(x[part], y[part], min_turn=final_turn[g])] = True
    positions = np.flatnonzero(kept)
    return positions, np.bincount(group[positions], minlength=n_groups).astype(np.int64)


def _chain_candidates(x, y, starts, sizes, group) -> np.ndarray:
    """Per point: whether it starts a group's chain or tops a run of equal ``x``.

    A group's first point starts its chain unless its run holds only copies of it (then
    the run's last copy does); groups of one or two points keep both.
    """
    n = len(x)
    run_end = np.ones(n, dtype=bool)
    run_end[:-1] = (x[1:] != x[:-1]) | (group[1:] != group[:-1])
    firsts = starts[sizes > 0]
    ends = np.flatnonzero(run_end)
    tops = ends[np.searchsorted(ends, firsts)]  # the end of each group's first run
    candidate = run_end
    candidate[firsts] |= y[firsts] != y[tops]
    candidate[np.repeat(sizes <= 2, sizes)] = True
    return candidate


def _far_chords(x, y, chain, group, slow, longest: int) -> np.ndarray:
    """``chain`` without the points of ``slow`` groups lying well under a far chord.

    A point strictly under the chord of two points of its group, one left and one right
    of it, lies inside the hull and is no corner. For strides 2, 4, 8, ... each chain
    point of a long group is compared with the chain points that many places before and
    after it (or its chain's ends) and dropped when it lies under their chord by more
    than rounding could explain (a relative 1e-9 of the cross product's terms): the
    points dropped are never corners, whatever the arithmetic, and the shared passes
    settle what is left. Each stride keeps every point of the other groups; strides stop
    at ``longest``, the most points of a slow group.
    """
    stride = 2
    while stride < longest and len(chain) > 2:
        owner = group[chain]
        n = len(chain)
        index = np.arange(n)
        new = np.ones(n, dtype=bool)
        new[1:] = owner[1:] != owner[:-1]
        first = np.maximum.accumulate(np.where(new, index, 0))
        end = np.ones(n, dtype=bool)
        end[:-1] = new[1:]
        last = np.minimum.accumulate(np.where(end, index, n - 1)[::-1])[::-1]
        left = np.maximum(index - stride, first)
        right = np.minimum(index + stride, last)
        xs, ys = x[chain], y[chain]
        left_x, left_y = xs - xs[left], ys - ys[left]
        right_x, right_y = xs[right] - xs, ys[right] - ys
        one, two = left_x * right_y, left_y * right_x
        under = (one - two > 1e-9 * (np.abs(one) + np.abs(two))) & slow[owner]
        under &= (left < index) & (index < right)
        if under.any():
            chain = chain[~under]
        stride *= 2
    return chain


def _shared_passes(x, y, chain, group, turn) -> tuple[np.ndarray, np.ndarray]:
    """Drop the non-corners of all chains, pass after pass, until none changes.

    ``chain`` holds the positions of every group's chain, group after group; ``group``
    is the group of every point and ``turn`` the ``min_turn`` of every group.
    Returns the chains left and, per group, whether its chain still changed in the last
    of :data:`MAX_PASSES` passes.
    """
    n_groups = len(turn)
    xs, ys, owner = x[chain], y[chain], group[chain]
    end = np.ones(len(chain), dtype=bool)  # the first and last point of each chain
    end[1:-1] = (owner[1:-1] != owner[:-2]) | (owner[1:-1] != owner[2:])
    turns = turn[owner] if turn.any() else None
    for _ in range(MAX_PASSES):
        corner = _turns_clockwise(xs, ys, turns) | end
        if corner.all():
            return chain, np.zeros(n_groups, dtype=bool)
        left = np.flatnonzero(corner)
        chain, xs, ys, end = chain[left], xs[left], ys[left], end[left]
        turns = None if turns is None else turns[left]
    corner = _turns_clockwise(xs, ys, turns) | end
    return chain, np.bincount(group[chain[~corner]], minlength=n_groups) > 0


def _turns_clockwise(xs, ys, turn) -> np.ndarray:
    """Per chain point: whether it turns clockwise by more than ``turn`` (None: 0).

    The same arithmetic as :func:`_drop_non_corners`, for all chains at once; the first
    and last points, which have no turn, count as turning.
    """
    corner = np.ones(len(xs), dtype=bool)
    if len(xs) < 3:
        return corner
    left_x, left_y = xs[1:-1] - xs[:-2], ys[1:-1] - ys[:-2]
    right_x, right_y = xs[2:] - xs[1:-1], ys[2:] - ys[1:-1]
    cross = left_x * right_y - left_y * right_x
    if turn is not None:
        inner_turn = turn[1:-1]
        bend = inner_turn * np.hypot(left_x, left_y) * np.hypot(right_x, right_y)
        cross = np.where(inner_turn != 0, cross + bend, cross)
    corner[1:-1] = cross < 0
    return corner


def exact_scales(
    exact: list[np.ndarray], rates, group: np.ndarray, n_groups: int, *, sizes=None
) -> np.ndarray:
    """Per group: whether its exact coordinates are its rates times one total each.

    They are for the points of one curve. Points pooled from curves of different test
    sets (e.g. ``by=`` leaving out a grouping column) have different class totals; their
    hull is then taken on the rates. NaN sums (ROCIV columns missing in a group) also
    mean the rates. ``sizes``, where given, says that the groups are contiguous, in
    order, of these sizes (``group`` is ``np.repeat(np.arange(n_groups), sizes)``).
    """
    if not exact:
        return np.zeros(n_groups, dtype=bool)
    if sizes is not None:
        return ~_contiguous_mismatches(exact, rates, np.asarray(sizes, dtype=np.int64))
    wrong = np.zeros(len(group), dtype=bool)  # per point; a group is bad if any of its are
    for values, rate in zip(exact, rates, strict=True):
        wrong |= np.isnan(values) | ((values == 0) != (rate == 0))
        nonzero = np.flatnonzero(rate > 0)
        with np.errstate(invalid="ignore", divide="ignore"):
            totals = values[nonzero] / rate[nonzero]
        owner = group[nonzero]
        first = np.full(n_groups, np.nan)
        starts = np.flatnonzero(np.append(True, owner[1:] != owner[:-1])) if len(owner) else owner
        first[owner[starts]] = totals[starts]
        total = first[owner]
        wrong[nonzero] |= ~(np.abs(totals - total) <= 1e-9 * np.abs(total))
    return np.bincount(group, wrong, n_groups) == 0


def _contiguous_mismatches(exact: list[np.ndarray], rates, sizes: np.ndarray) -> np.ndarray:
    """Per group of contiguous points: whether :func:`exact_scales`' rule fails.

    The same rule, each group's first ratio found by one reduction, in place where it
    can: no gathers of a million points, which the first chart of a process pays for.
    """
    n_groups, n = len(sizes), int(sizes.sum())
    filled = np.flatnonzero(sizes > 0)
    starts = (np.cumsum(sizes) - sizes)[filled]
    wrong = np.zeros(n_groups, dtype=bool)
    if n == 0:
        return wrong
    index = np.arange(n)
    for values, rate in zip(exact, rates, strict=True):
        bad = np.isnan(values)
        zero = values == 0
        np.not_equal(zero, rate == 0, out=zero)
        bad |= zero
        positive = rate > 0
        with np.errstate(invalid="ignore", divide="ignore"):
            totals = values / rate
        first = np.minimum.reduceat(np.where(positive, index, n), starts)  # n: none
        reference = np.full(n_groups, np.nan)
        reference[filled] = np.where(first < n, totals[np.minimum(first, n - 1)], np.nan)
        total = np.repeat(reference, sizes)
        np.subtract(totals, total, out=totals)
        np.abs(totals, out=totals)
        np.abs(total, out=total)
        total *= 1e-9
        close = totals <= total
        bad |= positive & ~close
        wrong[filled] |= np.logical_or.reduceat(bad, starts)
    return wrong
