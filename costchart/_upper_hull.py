"""Upper (concave) hulls of points sorted by x: of one group, or of many groups at once.

:func:`upper_hull` finds the corners of one group (pool-adjacent-violators, linear time).
:func:`upper_hulls` finds them for all groups in shared numpy passes that each drop every
point not turning clockwise; it gives the same positions, and hands the rare group that
needs many passes to :func:`upper_hull`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["upper_hull", "upper_hulls"]

#: Groups whose chain still changes after this many shared passes are finished one by one
#: by :func:`upper_hull`. Random ROC curves need 5 to 15 passes, even with 10^6 points;
#: points hanging below a long edge in a concave arc lose one point per pass.
MAX_PASSES = 24


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
    until no group changes: first with ``min_turn`` 0 (the exact hull, as the
    pool-adjacent-violators step of :func:`upper_hull` finds it), then with each group's
    ``min_turn`` (its final pass). A group still changing after :data:`MAX_PASSES` passes
    is finished by :func:`upper_hull`.

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
    n_groups = len(sizes)
    final_turn = np.broadcast_to(np.asarray(min_turn, dtype=np.float64), (n_groups,))
    group = np.repeat(np.arange(n_groups), sizes)
    chain = np.flatnonzero(_chain_candidates(x, y, starts, sizes, group))
    kept = np.zeros(len(x), dtype=bool)
    unfinished = _shared_passes(x, y, chain, group, final_turn, kept)
    for g in unfinished:
        part = slice(starts[g], starts[g] + sizes[g])
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


def _shared_passes(x, y, chain, group, final_turn, kept) -> np.ndarray:
    """Drop non-corners of all groups' chains at once; mark finished chains in ``kept``.

    Each group runs with ``min_turn`` 0 until its chain stops changing, then with its
    ``final_turn`` until it stops again. Returns the groups still changing after
    :data:`MAX_PASSES` passes.
    """
    turn = np.zeros(len(final_turn))
    final = final_turn == 0  # groups whose exact hull is already their final chain
    owner = group[chain]
    for _ in range(MAX_PASSES):
        if not len(chain):
            break
        corner = _turns_clockwise(x[chain], y[chain], owner, turn[owner])
        changed = np.bincount(owner[~corner], minlength=len(turn)) > 0
        done = ~changed[owner] & final[owner]
        kept[chain[done]] = True
        present = np.bincount(owner, minlength=len(turn)) > 0
        starting_final = present & ~changed & ~final
        turn[starting_final] = final_turn[starting_final]
        final |= starting_final
        chain, owner = chain[corner & ~done], owner[corner & ~done]
    return np.unique(owner)


def _turns_clockwise(xs, ys, owner, turn) -> np.ndarray:
    """Per chain point: whether it is a group's end or turns clockwise by more than ``turn``.

    The same arithmetic as :func:`_drop_non_corners`, for all groups at once.
    """
    corner = np.ones(len(xs), dtype=bool)
    if len(xs) < 3:
        return corner
    inner = (owner[1:-1] == owner[:-2]) & (owner[1:-1] == owner[2:])
    left_x, left_y = xs[1:-1] - xs[:-2], ys[1:-1] - ys[:-2]
    right_x, right_y = xs[2:] - xs[1:-1], ys[2:] - ys[1:-1]
    cross = left_x * right_y - left_y * right_x
    with_turn = turn[1:-1] != 0
    if with_turn.any():
        bend = turn[1:-1] * np.hypot(left_x, left_y) * np.hypot(right_x, right_y)
        cross = np.where(with_turn, cross + bend, cross)
    corner[1:-1] = ~inner | (cross < 0)
    return corner
