"""The upper hulls of all groups at once equal those found group by group."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._roc import hull as _hull
from costchart._roc import upper_hull as _upper_hull
from costchart._roc.hull import RATE_MIN_TURN
from costchart._roc.upper_hull import upper_hull, upper_hulls


def _upper_hulls_group_by_group(x, y, starts, sizes, *, min_turn=0.0):
    """The reference: :func:`upper_hull` on each group, as ``all_hulls`` did before."""
    turns = np.broadcast_to(np.asarray(min_turn, dtype=np.float64), (len(sizes),))
    corners = [
        start + upper_hull(x[start : start + size], y[start : start + size], min_turn=turn)
        for start, size, turn in zip(starts, sizes, turns, strict=True)
    ]
    kept = np.concatenate(corners) if corners else np.zeros(0, dtype=np.int64)
    return kept.astype(np.int64), np.array([len(c) for c in corners], dtype=np.int64)


def _brute_force_corners(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Corners of one group of integer points sorted by (x, y), in O(n^3).

    The chain starts at the first point (or, if its run of equal x holds only copies of
    it, at the run's last copy) and ends at the last point. Another point is a corner iff
    it is the last of its copies and lies strictly above every chord joining two points
    at other coordinates, one at or left of it and one at or right of it (not both at
    its x).
    """
    n = len(x)
    if n <= 2:
        return np.arange(n)
    x, y = x.astype(np.int64), y.astype(np.int64)
    top_of_first_run = np.flatnonzero(x == x[0])[-1]
    start = 0 if y[0] != y[top_of_first_run] else top_of_first_run
    corners = {start, n - 1}
    a, b = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    for i in range(start + 1, n - 1):
        if x[i + 1] == x[i] and y[i + 1] == y[i]:
            continue  # a later copy stands for this point
        other = (x != x[i]) | (y != y[i])
        chord = other[a] & other[b] & (x[a] <= x[i]) & (x[i] <= x[b]) & (x[a] < x[b])
        height = y[a] * (x[b] - x[i]) + y[b] * (x[i] - x[a])  # times x[b] - x[a]
        if np.all(y[i] * (x[b] - x[a])[chord] > height[chord]):
            corners.add(i)
    return np.array(sorted(corners), dtype=np.int64)


def _integer_groups(rng, n_groups: int, largest: int, grid: int):
    """Random integer points in groups of 0 to ``largest`` points, each sorted by (x, y).

    A small ``grid`` gives many duplicate, collinear and vertical points.
    """
    sizes = rng.integers(0, largest + 1, n_groups)
    sizes[: min(n_groups, 4)] = [1, 2, 3, 0][: min(n_groups, 4)]
    xs, ys = [], []
    for size in sizes:
        x, y = rng.integers(0, grid, size), rng.integers(0, grid, size)
        order = np.lexsort((y, x))
        xs.append(x[order])
        ys.append(y[order])
    x = np.concatenate(xs).astype(np.float64)
    y = np.concatenate(ys).astype(np.float64)
    return x, y, np.cumsum(sizes) - sizes, sizes


def _staircases(rng, n_groups: int, largest: int, ties: int | None):
    """Cumulative counts (fp, tp) of ROC curves, each from (0, 0) to its totals."""
    sizes = rng.integers(1, largest + 1, n_groups)
    group = np.repeat(np.arange(n_groups), sizes)
    label = rng.random(len(group)) < 0.4
    score = rng.normal(size=len(group)) + label
    if ties is not None:
        score = np.round(score, ties)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cc.CostchartWarning)
        points = cc.roc_points(
            pd.DataFrame({"g": group, "s": score, "y": label}), score="s", label="y", by="g"
        )
    counts = points.groupby("g", sort=False).size().to_numpy()
    fp = points["fp"].to_numpy(np.float64)
    tp = points["tp"].to_numpy(np.float64)
    negatives = points["fp"].to_numpy() + points["tn"].to_numpy()
    positives = points["tp"].to_numpy() + points["fn"].to_numpy()
    return fp, tp, np.cumsum(counts) - counts, counts, negatives, positives


def _assert_same(found, expected):
    np.testing.assert_array_equal(found[0], expected[0])
    np.testing.assert_array_equal(found[1], expected[1])
    assert found[0].dtype == np.int64 and found[1].dtype == np.int64


@pytest.mark.parametrize("seed", range(20))
def test_integer_points_match_upper_hull_and_brute_force(seed):
    rng = np.random.default_rng(seed)
    x, y, starts, sizes = _integer_groups(rng, 60, 30, int(rng.integers(2, 12)))
    found = upper_hulls(x, y, starts, sizes, min_turn=0.0)
    _assert_same(found, _upper_hulls_group_by_group(x, y, starts, sizes))
    brute = [
        start + _brute_force_corners(x[start : start + size], y[start : start + size])
        for start, size in zip(starts, sizes, strict=True)
    ]
    np.testing.assert_array_equal(found[0], np.concatenate(brute))


@pytest.mark.parametrize("seed", range(20))
def test_min_turn_per_group_matches_upper_hull(seed):
    rng = np.random.default_rng(100 + seed)
    x, y, starts, sizes = _integer_groups(rng, 60, 30, int(rng.integers(2, 12)))
    turns = rng.choice([0.0, RATE_MIN_TURN, 0.01, 0.1, 0.5], len(sizes))
    _assert_same(
        upper_hulls(x, y, starts, sizes, min_turn=turns),
        _upper_hulls_group_by_group(x, y, starts, sizes, min_turn=turns),
    )


@pytest.mark.parametrize("seed", range(10))
def test_rates_with_the_rate_turn_match_the_hull_of_their_counts(seed):
    # Rates carry rounding error: points collinear in counts are only nearly collinear.
    rng = np.random.default_rng(200 + seed)
    x, y, starts, sizes = _integer_groups(rng, 60, 30, int(rng.integers(2, 12)))
    scale_x = np.repeat(rng.integers(7, 200, len(sizes)), sizes)
    scale_y = np.repeat(rng.integers(3, 200, len(sizes)), sizes)
    rate_x, rate_y = x / scale_x, y / scale_y
    found = upper_hulls(rate_x, rate_y, starts, sizes, min_turn=RATE_MIN_TURN)
    reference = _upper_hulls_group_by_group(rate_x, rate_y, starts, sizes, min_turn=RATE_MIN_TURN)
    _assert_same(found, reference)
    _assert_same(found, upper_hulls(x, y, starts, sizes, min_turn=0.0))


@pytest.mark.parametrize("ties", [None, 0, 1, 2])
def test_roc_staircases_in_counts_and_rates(ties):
    rng = np.random.default_rng(300 + (ties or 9))
    fp, tp, starts, sizes, negatives, positives = _staircases(rng, 300, 400, ties)
    exact = upper_hulls(fp, tp, starts, sizes, min_turn=0.0)
    _assert_same(exact, _upper_hulls_group_by_group(fp, tp, starts, sizes))
    with np.errstate(invalid="ignore", divide="ignore"):
        fpr, tpr = np.nan_to_num(fp / negatives), np.nan_to_num(tp / positives)
    _assert_same(
        upper_hulls(fpr, tpr, starts, sizes, min_turn=RATE_MIN_TURN),
        _upper_hulls_group_by_group(fpr, tpr, starts, sizes, min_turn=RATE_MIN_TURN),
    )


@pytest.mark.parametrize("mixed_turns", [False, True])
def test_long_groups_and_slow_groups(monkeypatch, mixed_turns):
    # Groups still changing after MAX_PASSES passes drop points under far chords and get
    # as many passes again; those still changing are finished one by one by upper_hull.
    rng = np.random.default_rng(400)
    x, y, starts, sizes = _integer_groups(rng, 80, 40, 9)
    turns = rng.choice([0.0, 0.05], len(sizes)) if mixed_turns else 0.0
    expected = _upper_hulls_group_by_group(x, y, starts, sizes, min_turn=turns)
    calls = []

    def counted(*args, **kwargs):
        calls.append(len(args[0]))
        return upper_hull(*args, **kwargs)

    monkeypatch.setattr(_upper_hull, "upper_hull", counted)
    for passes in [16, 2, 1, 0]:
        monkeypatch.setattr(_upper_hull, "MAX_PASSES", passes)
        calls.clear()
        _assert_same(upper_hulls(x, y, starts, sizes, min_turn=turns), expected)
        if passes in (0, 16):
            assert bool(calls) == (passes == 0)  # the fallback ran only for slow groups


def _no_fallback(monkeypatch):
    def refused(*args, **kwargs):
        raise AssertionError("upper_hull was called")

    monkeypatch.setattr(_upper_hull, "upper_hull", refused)


@pytest.mark.parametrize("ties", [None, 3])
def test_long_roc_staircases_need_no_fallback(monkeypatch, ties):
    # Curves of 3,000 to 12,000 points, as a chart of many folds thins them: the far
    # chords leave the shared passes little to do, and upper_hull (scipy) is not called.
    rng = np.random.default_rng(600 + (ties or 0))
    fp, tp, starts, sizes, negatives, positives = _staircases(rng, 12, 12_000, ties)
    assert (sizes > 2_000).sum() >= 6
    expected_counts = _upper_hulls_group_by_group(fp, tp, starts, sizes)
    with np.errstate(invalid="ignore", divide="ignore"):
        fpr, tpr = np.nan_to_num(fp / negatives), np.nan_to_num(tp / positives)
    expected_rates = _upper_hulls_group_by_group(fpr, tpr, starts, sizes, min_turn=RATE_MIN_TURN)
    _no_fallback(monkeypatch)
    _assert_same(upper_hulls(fp, tp, starts, sizes, min_turn=0.0), expected_counts)
    _assert_same(upper_hulls(fpr, tpr, starts, sizes, min_turn=RATE_MIN_TURN), expected_rates)


def test_a_long_arc_under_a_long_edge_needs_no_fallback(monkeypatch):
    # 5,000 points hanging in a concave arc under the edge to (1, 1): without the far
    # chords each pass would drop one point from each end.
    t = np.linspace(0.05, 0.95, 5_000)
    x = np.concatenate([[0.0], t, [1.0]])
    y = np.concatenate([[0.0], 0.3 * np.sin(np.pi * t), [1.0]])
    starts, sizes = np.array([0]), np.array([len(x)])
    expected = {
        turn: _upper_hulls_group_by_group(x, y, starts, sizes, min_turn=turn)
        for turn in (0.0, RATE_MIN_TURN)
    }
    _no_fallback(monkeypatch)
    for turn, hull in expected.items():
        found = upper_hulls(x, y, starts, sizes, min_turn=turn)
        _assert_same(found, hull)
        np.testing.assert_array_equal(found[1], [2])


def test_an_arc_under_a_long_edge_needs_many_passes():
    # A concave arc hanging under the edge to the last point loses one point per pass.
    t = np.linspace(0.05, 0.95, 301)
    x = np.concatenate([[0.0], t, [1.0]])
    y = np.concatenate([[0.0], 0.3 * np.sin(np.pi * t), [1.0]])
    x, y = np.tile(x, 3), np.tile(y, 3)
    starts, sizes = np.array([0, 303, 606]), np.array([303, 303, 303])
    for turn in (0.0, RATE_MIN_TURN):
        found = upper_hulls(x, y, starts, sizes, min_turn=turn)
        _assert_same(found, _upper_hulls_group_by_group(x, y, starts, sizes, min_turn=turn))
        np.testing.assert_array_equal(found[1], [2, 2, 2])


def test_no_groups_and_empty_groups():
    none = upper_hulls(np.zeros(0), np.zeros(0), np.zeros(0, int), np.zeros(0, int))
    assert len(none[0]) == 0 and len(none[1]) == 0
    found = upper_hulls(
        np.array([0.0, 0.0, 0.0]), np.array([1.0, 1.0, 1.0]), np.array([0, 0, 3]), [0, 3, 0]
    )
    _assert_same(found, (np.array([2]), np.array([0, 1, 0])))


def test_user_arrays_are_not_changed():
    rng = np.random.default_rng(500)
    x, y, starts, sizes = _integer_groups(rng, 20, 20, 6)
    copies = [a.copy() for a in (x, y, starts, sizes)]
    upper_hulls(x, y, starts, sizes, min_turn=0.01)
    for array, copy in zip((x, y, starts, sizes), copies, strict=True):
        np.testing.assert_array_equal(array, copy)


# The public functions: all groups at once equal what the per-group loop gave.


def _old_all_hulls(monkeypatch):
    monkeypatch.setattr(_hull, "upper_hulls", _upper_hulls_group_by_group)


def _many_groups(seed: int, *, counts: bool = True) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n_groups = 400
    sizes = rng.integers(1, 60, n_groups)
    group = np.repeat(np.arange(n_groups), sizes)
    label = rng.random(len(group)) < 0.4
    score = np.round(rng.normal(size=len(group)) + label, int(rng.integers(0, 3)))
    data = pd.DataFrame(
        {
            "model": np.array(["tree", "logistic", "forest"])[group % 3],
            "fold": (group // 3).astype(np.int32),
            "cost_ratio": (group % 7) / 2,
            "s": score,
            "y": label,
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cc.CostchartWarning)
        points = cc.roc_points(data, score="s", label="y", by=["model", "fold", "cost_ratio"])
    if not counts:
        points = points[["model", "fold", "cost_ratio", "threshold", "fpr", "tpr"]]
    return points


FUNCTIONS = {
    "roc_hull": cc.roc_hull,
    "lower_envelope": cc.lower_envelope,
    "selection_table": lambda points: cc.selection_table(cc.lower_envelope(points)),
}


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("counts", [True, False])
@pytest.mark.parametrize("seed", range(3))
def test_public_functions_equal_the_per_group_loop(monkeypatch, name, counts, seed):
    points = _many_groups(seed, counts=counts)
    function = FUNCTIONS[name]
    together = function(points)
    _old_all_hulls(monkeypatch)
    pd.testing.assert_frame_equal(together, function(points), check_exact=True)


def test_pooled_groups_mix_counts_and_rates(monkeypatch):
    # Groups "key" < 0 pool four curves of different test sets each: those take their
    # hull on the rates (with RATE_MIN_TURN), the others on the counts.
    points = _many_groups(7)
    fold = points["fold"].to_numpy()
    points = points.assign(key=np.where(fold % 2 == 0, fold, -1 - fold // 8))
    together = cc.roc_hull(points, by=["model", "key"])
    _old_all_hulls(monkeypatch)
    pd.testing.assert_frame_equal(
        together, cc.roc_hull(points, by=["model", "key"]), check_exact=True
    )


# 800 calls, one per group; the quick loop checks the grouped path against the per-group
# code in test_public_functions_equal_the_per_group_loop.
@pytest.mark.slow
@pytest.mark.parametrize("name", ["roc_hull", "lower_envelope"])
def test_many_groups_equal_each_group_alone(name):
    points = _many_groups(11)
    function = FUNCTIONS[name]
    together = function(points)
    keys = ["model", "fold", "cost_ratio"]
    parts = [function(part) for _, part in points.groupby(keys, sort=False)]
    alone = pd.concat(parts, ignore_index=True)
    pd.testing.assert_frame_equal(together, alone, check_exact=True)


def test_points_collinear_up_to_rounding_are_not_corners_of_a_pooled_group():
    # (0, 1/8), (1/4, 5/12), (3/4, 1) lie on one line, but in floating point the middle
    # one turns clockwise by 3e-17. Group "pooled" mixes test sets of 8 and 12 positives,
    # so its hull is on the rates, with RATE_MIN_TURN; group "single" (24 positives) is
    # on its counts, where the three are exactly collinear.
    confusion = pd.DataFrame(
        {
            "g": ["pooled"] * 3 + ["single"] * 3,
            "tp": [1, 5, 12, 3, 10, 24],
            "fn": [7, 7, 0, 21, 14, 0],
            "fp": [0, 1, 3, 0, 1, 3],
            "tn": [4, 3, 1, 4, 3, 1],
        }
    )
    points = confusion.assign(
        tpr=confusion.tp / (confusion.tp + confusion.fn),
        fpr=confusion.fp / (confusion.fp + confusion.tn),
    )
    hull = cc.roc_hull(points, by="g")
    pooled = hull[hull.g == "pooled"]
    assert list(zip(pooled.fpr, pooled.tpr)) == [(0, 0), (0, 1 / 8), (0.75, 1), (1, 1)]
    single = hull[hull.g == "single"]
    assert list(zip(single.fpr, single.tpr)) == [(0, 0), (0, 1 / 8), (0.75, 1), (1, 1)]
