"""Value sorts in place of argsorts (costchart._io.sorting) against the argsort code they replaced.

``_sums_before``, ``_rociv_before`` and ``_count_instances_before`` are the code as it was
(argsort, gather, ``reduceat``; two value sorts merged by a stable argsort): the new paths
must give the same tables, bit for bit where scores are distinct within each class.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._io import schema as col
from costchart._io import sorting as _sorting
from costchart._io.sorting import count_instances, merge_counts, run_starts, value_order


def _sums_before(scores, positive, weights):
    """weighted_sums_by_score's argsort path as it was."""
    order = np.argsort(scores)
    sorted_scores = scores[order]
    starts = run_starts(sorted_scores)
    sorted_positive = positive[order]
    distinct = len(starts) == len(order)
    sums = []
    for weight in weights:
        if weight is None:
            pos = sorted_positive.astype(np.int64)
            if not distinct:
                pos = np.add.reduceat(pos, starts)
            neg = np.diff(np.append(starts, len(order))) - pos
        else:
            sorted_weight = weight[order]
            pos = np.where(sorted_positive, sorted_weight, sorted_weight.dtype.type(0))
            neg = sorted_weight - pos
            if not distinct:
                pos, neg = np.add.reduceat(pos, starts), np.add.reduceat(neg, starts)
        sums.append((pos[::-1], neg[::-1]))
    return sorted_scores[starts][::-1], sums


def _rociv_before(scores, positive, amounts, weights=None) -> pd.DataFrame:
    """rociv of one group as it was (argsort path)."""
    counted, summed = None, amounts
    if weights is not None:
        keep = weights > 0
        scores, positive, counted = scores[keep], positive[keep], weights[keep]
        summed = counted * amounts[keep]
    values, ((pos_n, neg_n), (pos_cost, neg_cost)) = _sums_before(
        scores, positive, [counted, summed]
    )
    tp = np.concatenate([[0], np.cumsum(pos_n)])
    fp = np.concatenate([[0], np.cumsum(neg_n)])
    benefit = np.concatenate([[0.0], np.cumsum(pos_cost)])
    spent = np.concatenate([[0.0], np.cumsum(neg_cost)])
    return pd.DataFrame(
        {
            col.THRESHOLD: np.concatenate([[np.inf], values]).astype(np.float64),
            col.TP: tp,
            col.FP: fp,
            col.TN: fp[-1] - fp,
            col.FN: tp[-1] - tp,
            col.TPR: benefit / benefit[-1],
            col.FPR: spent / spent[-1],
            col.FP_COST: spent,
            col.TP_BENEFIT: benefit,
        }
    )


def _count_instances_before(scores, positive):
    """_count_instances as it was: two value sorts merged by a stable argsort."""
    pos_scores = np.sort(scores[positive])
    neg_scores = np.sort(scores[~positive])

    def distinct_counts(values):
        starts = run_starts(values)
        return values[starts], np.diff(np.append(starts, len(values)))

    pos_values, pos_counts = distinct_counts(pos_scores)
    neg_values, neg_counts = distinct_counts(neg_scores)
    merged = np.concatenate([pos_values, neg_values])
    order = np.argsort(merged, kind="stable")
    merged = merged[order]
    from_pos = order < len(pos_values)
    counts = np.concatenate([pos_counts, neg_counts])[order]
    starts = run_starts(merged)
    if len(starts) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return merged, empty, empty
    pos = np.add.reduceat(np.where(from_pos, counts, 0), starts)
    neg = np.add.reduceat(np.where(from_pos, 0, counts), starts)
    return merged[starts][::-1], pos[::-1], neg[::-1]


def _adjacent_floats(rng, n):
    """Scores a few ulps apart around a handful of values (keys collide), both signs."""
    bases = np.array([-3.5, -1e-300, 1e-300, 0.25, 1.0, 7e10])
    base = rng.choice(bases, size=n)
    steps = rng.permutation(n).astype(np.int64)  # all distinct
    return (base.view(np.int64) + steps).view(np.float64)


def _cross_class_ties(rng, n, positive):
    """Scores distinct within each class; many shared between the classes."""
    pool = rng.normal(size=n)
    scores = np.empty(n)
    scores[positive] = rng.choice(pool, size=int(positive.sum()), replace=False)
    scores[~positive] = rng.choice(pool, size=int((~positive).sum()), replace=False)
    return scores


def _data(kind, rng, n):
    positive = rng.random(n) < rng.uniform(0.05, 0.6)
    if kind == "distinct":
        scores = rng.normal(size=n) * 10.0 ** rng.integers(-5, 5)
    elif kind == "near ties":
        scores = _adjacent_floats(rng, n)
    elif kind == "cross-class ties":
        scores = _cross_class_ties(rng, n, positive)
    else:  # a few ties within a class too
        scores = np.round(rng.normal(size=n), 4) + rng.integers(0, 3, size=n) * 1e-9
    amounts = rng.lognormal(0, 6, size=n)  # magnitudes from about 1e-8 to 1e8
    return scores, positive, amounts


KINDS = ["distinct", "near ties", "cross-class ties", "within-class ties"]


def _bits(frame: pd.DataFrame) -> dict:
    return {c: frame[c].to_numpy().view(np.int64) for c in frame.columns}


@pytest.fixture(params=[False, True], ids=["packed", "packed-always"])
def packed_always(request, monkeypatch):
    """Run small inputs through the packed keys too (from 1 score on)."""
    if request.param:
        monkeypatch.setattr(_sorting, "PACK_FROM", 1)
    return request.param


@pytest.mark.parametrize("dtype", ["float64", "int64", "uint64"])
@pytest.mark.parametrize("seed", range(4))
def test_value_order_is_a_stable_argsort(dtype, seed, packed_always):
    rng = np.random.default_rng(seed)
    n = int(rng.choice([0, 1, 2, 17, 20_000]))
    if dtype == "float64":
        scores = np.concatenate([_adjacent_floats(rng, n), rng.normal(size=n), [0.0, -0.0]])
        scores = scores[rng.permutation(len(scores))[: max(n, 1)]]
    elif dtype == "int64":
        extremes = np.array([np.iinfo(np.int64).min, np.iinfo(np.int64).max, -1, 0, 1])
        scores = np.concatenate([rng.integers(-50, 50, size=n), extremes])
    else:
        extremes = np.array([0, 1, 2**63 - 1, 2**63, 2**64 - 1], dtype=np.uint64)
        scores = np.concatenate([rng.integers(0, 2**64 - 1, size=n, dtype=np.uint64), extremes])
    scores = scores[rng.permutation(len(scores))]
    order, sorted_scores = value_order(scores)
    if len(scores) >= _sorting.PACK_FROM:  # packed keys: ties in row order, as a stable sort
        np.testing.assert_array_equal(order, np.argsort(scores, kind="stable"))
    else:
        np.testing.assert_array_equal(np.sort(order), np.arange(len(scores)))
    np.testing.assert_array_equal(sorted_scores, scores[order])
    assert order.dtype == np.intp


def test_value_order_argsorts_other_dtypes():
    scores = np.random.default_rng(0).random(20_000).astype(np.float32)
    order, sorted_scores = value_order(scores)
    np.testing.assert_array_equal(sorted_scores, np.sort(scores))
    np.testing.assert_array_equal(scores[order], sorted_scores)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(3))
def test_rociv_equals_the_argsort_code(kind, seed, packed_always):
    rng = np.random.default_rng(seed)
    n = int(rng.choice([3, 50, 30_000]))
    scores, positive, amounts = _data(kind, rng, n)
    positive[:2] = [True, False]  # both classes
    data = {"s": scores, "y": positive, "a": amounts}
    new = cc.rociv(data, score="s", label="y", amount="a")
    old = _rociv_before(scores, positive, amounts)
    if kind == "within-class ties" and n >= _sorting.PACK_FROM:
        # Tied amounts are summed in row order, not in the argsort's (any) order.
        pd.testing.assert_frame_equal(new, old, check_exact=False, rtol=1e-12)
    else:
        pd.testing.assert_frame_equal(new, old, check_exact=True)
        for name, bits in _bits(new).items():
            np.testing.assert_array_equal(bits, _bits(old)[name], err_msg=name)


@pytest.mark.parametrize("kind", KINDS)
def test_weighted_rociv_equals_the_argsort_code(kind, packed_always):
    rng = np.random.default_rng(7)
    scores, positive, amounts = _data(kind, rng, 20_000)
    weights = rng.exponential(size=len(scores)) * (rng.random(len(scores)) > 0.1)
    data = {"s": scores, "y": positive, "a": amounts, "w": weights}
    new = cc.rociv(data, score="s", label="y", amount="a", weight="w")
    old = _rociv_before(scores, positive, amounts, weights)
    exact = kind != "within-class ties"
    pd.testing.assert_frame_equal(new, old, check_exact=exact, rtol=1e-12)


@pytest.mark.parametrize("kind", ["distinct", "near ties"])
def test_amounts_of_any_sign_sum_as_before(kind, packed_always):
    # rociv refuses amounts <= 0 or NaN; the distinct path still sums amounts of any
    # sign as before (a 0.0 where the class differs, never the -0.0 of -a * 0).
    from costchart._io.groups import split_groups
    from costchart._roc.rociv import _distinct_points

    rng = np.random.default_rng(3)
    scores, positive, amounts = _data(kind, rng, 12_000)
    amounts *= rng.choice([-1.0, 1.0], size=len(amounts))
    top = np.argmax(scores)  # the first row a positive of negative amount: 0.0, not -0.0
    positive[top], amounts[top] = True, -1.0
    order, sorted_scores = value_order(scores)
    assert _sorting.all_distinct(sorted_scores)
    group = split_groups(pd.DataFrame({"s": scores}), [])[0]
    new = _distinct_points(
        sorted_scores, positive[order], (amounts, order), group, by=[], label="y", amount="a"
    )
    old = _rociv_before(scores, positive, amounts)
    for name, bits in _bits(new).items():
        np.testing.assert_array_equal(bits, _bits(old)[name], err_msg=name)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(3))
def test_count_instances_equals_the_stable_argsort_merge(kind, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.choice([0, 1, 5, 40_000]))
    scores, positive, _ = _data(kind, rng, n)
    if seed == 1:  # one class only
        positive[:] = seed == 1 and n % 2 == 0
    new = count_instances(scores, positive)
    old = _count_instances_before(scores, positive)
    for got, expected in zip(new, old, strict=True):
        np.testing.assert_array_equal(got, expected)
        assert got.dtype == expected.dtype


@pytest.mark.parametrize("kind", KINDS)
def test_roc_points_equal_the_argsort_merge(kind):
    rng = np.random.default_rng(11)
    scores, positive, _ = _data(kind, rng, 30_000)
    points = cc.roc_points({"s": scores, "y": positive}, score="s", label="y")
    values, pos, neg = _count_instances_before(scores, positive)
    np.testing.assert_array_equal(points.threshold.to_numpy()[1:], values)
    np.testing.assert_array_equal(np.diff(points.tp.to_numpy()), pos)
    np.testing.assert_array_equal(np.diff(points.fp.to_numpy()), neg)


@pytest.mark.parametrize("bad", [np.nan, -1.0, 0.0])
def test_rociv_still_refuses_amounts_that_are_not_positive(bad):
    rng = np.random.default_rng(5)
    scores, positive, amounts = _data("distinct", rng, 20_000)
    amounts[123] = bad
    with pytest.raises(cc.CostchartError, match="column 'a'"):
        cc.rociv({"s": scores, "y": positive, "a": amounts}, score="s", label="y", amount="a")


def test_merge_counts_with_shared_and_missing_scores():
    values, pos, neg = merge_counts(
        np.array([1.0, 2.0, 5.0]), np.array([1, 2, 1]), np.array([2.0, 3.0]), 1
    )
    np.testing.assert_array_equal(values, [5.0, 3.0, 2.0, 1.0])
    np.testing.assert_array_equal(pos, [1, 0, 2, 1])
    np.testing.assert_array_equal(neg, [0, 1, 1, 0])
    values, pos, neg = merge_counts(np.zeros(0), 1, np.array([4.0]), np.array([3]))
    np.testing.assert_array_equal(values, [4.0])
    np.testing.assert_array_equal(pos, [0])
    np.testing.assert_array_equal(neg, [3])
