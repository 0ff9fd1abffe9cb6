"""Pointwise mean, spread, minimum and maximum of many piecewise-linear curves.

Evaluating every curve at the union of all curves' vertices costs curves x vertices, which
grows as the square of the number of curves (the union grows with them). Instead the
curves of each group are merged in pairs, then pairs of pairs, and so on: a merged node
describes its curves exactly by values at its own points, and merging two nodes only
evaluates each at the other's points. Each level touches every vertex once, so the whole
costs ``vertices x log2(curves)``, for all groups at once.

A node holds, at each of its points ``x`` (sorted, spanning [0, 1]):

- ``mean``: the mean of its curves, linear between points;
- ``lo``/``hi``: their minimum and maximum, linear between points because the points
  include every crossing where the minimum or maximum switches curve;
- ``m2``: the sum of squared deviations from the mean. Between two points every curve is
  linear, so ``m2`` is a quadratic whose curvature ``c`` (stored per interval) is the sum
  of the squared deviations of the curves' slopes from the mean slope: at ``x`` inside
  ``[x0, x1]`` it is the chord of the end values plus ``c (x - x0) (x - x1)``.

Two nodes combine with Chan's pairwise update (``m2 = m2a + m2b + d**2 na nb / n`` with
``d`` the difference of the means), in which every term is non-negative, and the mean is
updated as ``ma + d nb / n``, so identical curves give a spread of exactly 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Pointwise", "pointwise_statistics"]


@dataclass
class Pointwise:
    """Per-point statistics of merged curves; nodes stored one after another.

    ``node`` is non-decreasing and, within a node, ``x`` is sorted. ``vertex`` marks the
    points that are vertices of some curve (the others are crossings).
    """

    node: np.ndarray
    x: np.ndarray
    mean: np.ndarray
    m2: np.ndarray
    curvature: np.ndarray  # of the interval from this point to the next of its node
    lo: np.ndarray
    hi: np.ndarray
    vertex: np.ndarray
    lo_bend: np.ndarray  # a crossing where ``lo`` switches curve (else droppable)
    hi_bend: np.ndarray
    count: np.ndarray  # curves per node

    def take(self, rows: np.ndarray) -> Pointwise:
        fields = {f: getattr(self, f)[rows] for f in _POINT_FIELDS}
        return Pointwise(**fields, count=self.count)


_POINT_FIELDS = ("node", "x", "mean", "m2", "curvature", "lo", "hi", "vertex", "lo_bend", "hi_bend")


def pointwise_statistics(
    curve: np.ndarray, group: np.ndarray, x: np.ndarray, y: np.ndarray, n_groups: int
) -> Pointwise:
    """Merge curves into one node per group.

    ``curve`` numbers the curves (0, 1, ...; rows of a curve contiguous and sorted by
    ``x``, every curve spanning [0, 1]); ``group[k]`` is the group of curve ``k`` (curves of
    a group numbered consecutively). Returns one node per group, numbered as the groups.
    """
    n_curves = len(group)
    zeros = np.zeros(len(x))
    state = Pointwise(
        curve.astype(np.int64),
        x,
        y.copy(),
        zeros,
        zeros.copy(),
        y.copy(),
        y.copy(),
        np.ones(len(x), dtype=bool),
        np.zeros(len(x), dtype=bool),
        np.zeros(len(x), dtype=bool),
        np.ones(n_curves, dtype=np.int64),
    )
    node_group = np.asarray(group, dtype=np.int64)
    while len(node_group) > n_groups:
        state, node_group = _merge_level(state, node_group)
    return state


def _merge_level(state: Pointwise, node_group: np.ndarray) -> tuple[Pointwise, np.ndarray]:
    """Merge nodes 2i and 2i+1 of every group (an odd last node passes through)."""
    n_nodes = len(node_group)
    first_of_group = np.flatnonzero(np.r_[True, node_group[1:] != node_group[:-1]])
    rank = np.arange(n_nodes) - np.repeat(first_of_group, np.diff(np.r_[first_of_group, n_nodes]))
    # New node number: the pair's position among all new nodes, in group order.
    starts_pair = rank % 2 == 0
    new_of_old = np.cumsum(starts_pair) - 1
    side = (rank % 2).astype(np.int8)  # 0: node a of its pair, 1: node b
    new_group = node_group[starts_pair]
    count = np.bincount(new_of_old, weights=state.count, minlength=len(new_group))
    count = count.astype(np.int64)
    node = new_of_old[state.node]
    from_b = side[state.node] == 1
    has_partner = count[node] != state.count[state.node]

    # Points of lone nodes pass through unchanged.
    lone = ~has_partner
    lone_part = state.take(np.flatnonzero(lone))
    lone_part.node = node[lone]

    paired = np.flatnonzero(has_partner)
    merged = _merge_pairs(state, paired, node[paired], from_b[paired], count, new_of_old)
    combined = _concat(lone_part, merged)
    result = combined.take(np.argsort(combined.node, kind="stable"))  # each node sorted by x
    result.count = count
    return result, new_group


def _merge_pairs(state: Pointwise, rows, node, from_b, count, new_node) -> Pointwise:
    """Combine each pair (a, b): evaluate both at the union of their points and crossings."""
    x = state.x[rows]
    order = _by_node_then_x(node, x)  # a's point first on ties: a's rows come first
    rows, x, node, from_b = rows[order], x[order], node[order], from_b[order]
    n = len(rows)
    a_left, a_right = _brackets(~from_b, node)
    b_left, b_right = _brackets(from_b, node)
    on_a = _Side(state, rows[a_left], rows[a_right], x)
    on_b = _Side(state, rows[b_left], rows[b_right], x)
    same_pair = np.r_[node[1:] == node[:-1], False]
    lo_flips, lo_where = _crossings(x, on_a.value(state.lo) - on_b.value(state.lo), same_pair)
    hi_flips, hi_where = _crossings(x, on_a.value(state.hi) - on_b.value(state.hi), same_pair)
    after = np.concatenate([lo_flips, hi_flips])  # the crossing lies after this point
    where = np.concatenate([lo_where, hi_where])
    by_place = np.lexsort((where, after))
    after, where = after[by_place], where[by_place]
    from_lo = by_place < len(lo_flips)

    # Query points: the union, then the crossings (bracketed by the points around them),
    # merged back into place.
    crossing = len(where)
    no = np.zeros(crossing, dtype=bool)
    following = np.minimum(after + 1, n - 1)
    place = np.concatenate([2 * np.arange(n), 2 * after + 1])
    sort = np.argsort(place, kind="stable")  # two sorted runs: a linear merge
    xq = np.concatenate([x, where])[sort]
    aL = rows[np.concatenate([a_left, a_left[after]])[sort]]
    bL = rows[np.concatenate([b_left, b_left[after]])[sort]]
    aR = rows[np.concatenate([a_right, a_right[following]])[sort]]
    bR = rows[np.concatenate([b_right, b_right[following]])[sort]]
    is_vertex = np.concatenate([state.vertex[rows], no])[sort]
    lo_new = np.concatenate([np.zeros(n, dtype=bool), from_lo])[sort]
    hi_new = np.concatenate([np.zeros(n, dtype=bool), ~from_lo])[sort]
    side_b = np.concatenate([from_b, no])[sort]
    lo_old = np.concatenate([state.lo_bend[rows], no])[sort]
    hi_old = np.concatenate([state.hi_bend[rows], no])[sort]

    # An old crossing stays only where its node's minimum (maximum) is still the pair's.
    on_a, on_b = _Side(state, aL, aR, xq), _Side(state, bL, bR, xq)
    lo_a, lo_b = on_a.value(state.lo), on_b.value(state.lo)
    hi_a, hi_b = on_a.value(state.hi), on_b.value(state.hi)
    lo_own = np.where(side_b, lo_b <= lo_a, lo_a <= lo_b)
    hi_own = np.where(side_b, hi_b >= hi_a, hi_a >= hi_b)
    lo_bend = lo_new | (lo_old & lo_own)
    hi_bend = hi_new | (hi_old & hi_own)
    keep = np.flatnonzero(is_vertex | lo_bend | hi_bend)
    on_a, on_b = on_a.take(keep), on_b.take(keep)
    xq, is_vertex, lo_bend, hi_bend = xq[keep], is_vertex[keep], lo_bend[keep], hi_bend[keep]
    qnode = new_node[state.node[on_a.left]]
    lo = np.minimum(lo_a[keep], lo_b[keep])
    hi = np.maximum(hi_a[keep], hi_b[keep])
    mean_a, mean_b = on_a.value(state.mean), on_b.value(state.mean)
    size_a = state.count[state.node[on_a.left]].astype(np.float64)
    size_b = state.count[state.node[on_b.left]].astype(np.float64)
    total = size_a + size_b
    delta = mean_b - mean_a
    mean = mean_a + delta * (size_b / total)
    m2 = on_a.quadratic(state) + on_b.quadratic(state) + delta * delta * (size_a * size_b / total)

    # Curvature from each point to the next greater x: both nodes' own curvatures (of
    # their intervals holding it) plus the spread of their mean slopes. Among a node's
    # points at one x, the last one's interval is the one to the right.
    run_last = _last_of_cluster(state.node, state.x)
    bend_right = state.curvature[run_last]
    slope_right = _mean_slopes(state)[run_last]
    spread = slope_right[on_b.left] - slope_right[on_a.left]
    weight = size_a * size_b / total
    curvature = bend_right[on_a.left] + bend_right[on_b.left] + spread**2 * weight
    if len(qnode):
        curvature[np.r_[qnode[1:] != qnode[:-1], True]] = 0.0
    return Pointwise(qnode, xq, mean, m2, curvature, lo, hi, is_vertex, lo_bend, hi_bend, count)


def _brackets(mine: np.ndarray, node: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every point of a pair, the nearest point of one node at or before, and after.

    ``mine`` marks that node's points. Past the node's first (last) point the other side
    is used, so values extend as constants, as :func:`numpy.interp` does.
    """
    n = len(mine)
    index = np.arange(n)
    left = np.maximum.accumulate(np.where(mine, index, -1))
    right = np.minimum.accumulate(np.where(mine, index, n)[::-1])[::-1]
    left_ok = (left >= 0) & (node[np.maximum(left, 0)] == node)
    right_ok = (right < n) & (node[np.minimum(right, n - 1)] == node)
    left = np.where(left_ok, left, right)
    right = np.where(right_ok, right, left)
    return left, right


def _by_node_then_x(node: np.ndarray, x: np.ndarray) -> np.ndarray:
    """A stable order by (node, x) of rows that are runs sorted by x within each node.

    ``x + 2 node`` is monotone in (node, x) (rounding is monotone and nodes stay apart),
    and a stable sort of it merges the sorted runs in linear time. Only where rounding
    ties two different x might the order be wrong; then a full lexsort decides.
    """
    order = np.argsort(x + 2.0 * node, kind="stable")
    xs, ns = x[order], node[order]
    if np.all((ns[1:] != ns[:-1]) | (xs[1:] >= xs[:-1])):
        return order
    return np.lexsort((x, node))


class _Side:
    """One node of each pair around query points ``xq``.

    Its points at or before (``left``) and at or after (``right``) each query, as rows of
    the state, and the weights to interpolate between them.
    """

    def __init__(self, state: Pointwise, left, right, xq):
        self.left, self.right = left, right
        x0, x1 = state.x[left], state.x[right]
        width = x1 - x0
        self.before, self.beyond = xq - x0, xq - x1
        with np.errstate(invalid="ignore", divide="ignore"):
            self.t = np.where(width > 0, self.before / width, 0.0)
        self.at_right = (xq == x1) & (width > 0)

    def take(self, keep) -> _Side:
        side = object.__new__(_Side)
        for name in ("left", "right", "before", "beyond", "t", "at_right"):
            setattr(side, name, getattr(self, name)[keep])
        return side

    def value(self, values: np.ndarray) -> np.ndarray:
        """Linear interpolation; exactly the end's value at either end."""
        y0, y1 = values[self.left], values[self.right]
        out = y0 + self.t * (y1 - y0)  # t = 0 gives y0 exactly; t = 1 might miss y1
        np.copyto(out, y1, where=self.at_right)
        return out

    def quadratic(self, state: Pointwise) -> np.ndarray:
        """The node's sum of squared deviations: the chord plus the curvature term."""
        bend = state.curvature[self.left] * self.before * self.beyond
        return np.maximum(self.value(state.m2) + bend, 0.0)


#: Points of a node closer than this are one place: the same ``pc`` reached along
#: different paths differs by a few units in the last place, and a slope over such a
#: sliver is rounding noise (``costchart._cost.average.PC_TOLERANCE`` is this).
SLIVER = 16 * float(np.finfo(np.float64).eps)

#: Differences of two curves within this of 0 are 0: curves that coincide (tied scores
#: in two folds) differ only by rounding, and a sign change of rounding is no crossing.
TOUCHING = 1e-12


def _last_of_cluster(node: np.ndarray, x: np.ndarray) -> np.ndarray:
    """For every row, the last row of its run of (node, x) with gaps under :data:`SLIVER`.

    The interval to the right of that row is the first real one, whose slope is the
    node's slope to the right of the whole cluster.
    """
    n = len(x)
    ends = np.r_[(node[1:] != node[:-1]) | (np.diff(x) > SLIVER), True]
    index = np.where(ends, np.arange(n), n)
    return np.minimum.accumulate(index[::-1])[::-1]


def _mean_slopes(state: Pointwise) -> np.ndarray:
    """Slope of each node's mean from every point to the next (0 at a node's end)."""
    width = np.diff(state.x)
    rise = np.diff(state.mean)
    inside = (state.node[1:] == state.node[:-1]) & (width > 0)
    slopes = np.zeros(len(state.x))
    np.divide(rise, width, out=slopes[:-1], where=inside)
    return slopes


def _crossings(x, difference, same_pair):
    """Where a difference of two linear pieces changes sign between consecutive points."""
    apart = np.where(np.abs(difference) > TOUCHING, difference, 0.0)
    flips = np.flatnonzero(same_pair[:-1] & (apart[:-1] * apart[1:] < 0))
    d0, d1 = difference[flips], difference[flips + 1]
    where = np.clip(x[flips] + (x[flips + 1] - x[flips]) * (d0 / (d0 - d1)), x[flips], x[flips + 1])
    # A crossing a sliver from a point is that point: no new point a few ulps away.
    inside = (where - x[flips] > SLIVER) & (x[flips + 1] - where > SLIVER)
    return flips[inside], where[inside]


def _concat(a: Pointwise, b: Pointwise) -> Pointwise:
    joined = {f: np.concatenate([getattr(a, f), getattr(b, f)]) for f in _POINT_FIELDS}
    return Pointwise(**joined, count=a.count)
