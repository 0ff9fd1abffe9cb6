"""The pairwise merge of curves equals evaluating every curve everywhere."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._cost.pointwise import pointwise_statistics


def _random_curves(rng, folds, vertices, *, shared=0):
    """Jagged curves spanning [0, 1]; ``shared`` interior pc values common to all."""
    common = np.sort(rng.random(shared))
    curves = []
    for _ in range(folds):
        own = rng.random(int(rng.integers(0, vertices + 1)))
        pc = np.sort(np.concatenate([[0.0, 1.0], common, own]))
        curves.append((pc, rng.random(len(pc)) * 0.5))
    return curves


def _brute_force(curves, at):
    values = np.array([np.interp(at, pc, cost) for pc, cost in curves])
    sd = values.std(axis=0, ddof=1) if len(curves) > 1 else np.full(len(at), np.nan)
    return values.mean(axis=0), values.min(axis=0), values.max(axis=0), sd


def _merge(groups_of_curves):
    curve_ids, group_ids, xs, ys = [], [], [], []
    number = 0
    for g, curves in enumerate(groups_of_curves):
        for pc, cost in curves:
            curve_ids.append(np.full(len(pc), number))
            xs.append(pc)
            ys.append(cost)
            group_ids.append(g)
            number += 1
    return pointwise_statistics(
        np.concatenate(curve_ids),
        np.array(group_ids),
        np.concatenate(xs),
        np.concatenate(ys),
        len(groups_of_curves),
    )


@pytest.mark.parametrize("seed", range(40))
def test_merge_equals_brute_force_at_every_point_and_between(seed):
    rng = np.random.default_rng(seed)
    groups = [
        _random_curves(rng, int(rng.integers(1, 12)), 5, shared=int(rng.integers(0, 3)))
        for _ in range(int(rng.integers(1, 4)))
    ]
    merged = _merge(groups)
    for g, curves in enumerate(groups):
        mine = merged.node == g
        x = merged.x[mine]
        mean, lo, hi, sd = _brute_force(curves, x)
        np.testing.assert_allclose(merged.mean[mine], mean, atol=1e-13)
        np.testing.assert_allclose(merged.lo[mine], lo, atol=1e-13)
        np.testing.assert_allclose(merged.hi[mine], hi, atol=1e-13)
        n = merged.count[g]
        assert n == len(curves)
        if n > 1:
            np.testing.assert_allclose(np.sqrt(merged.m2[mine] / (n - 1)), sd, atol=1e-7)
            # Between points: the minimum and maximum are linear, the spread quadratic.
            mid = (x[1:] + x[:-1]) / 2
            _, lo_mid, hi_mid, sd_mid = _brute_force(curves, mid)
            np.testing.assert_allclose(np.interp(mid, x, merged.lo[mine]), lo_mid, atol=1e-12)
            np.testing.assert_allclose(np.interp(mid, x, merged.hi[mine]), hi_mid, atol=1e-12)
            m2 = merged.m2[mine]
            bend = merged.curvature[mine][:-1] * (mid - x[:-1]) * (mid - x[1:])
            m2_mid = (m2[1:] + m2[:-1]) / 2 + bend
            np.testing.assert_allclose(m2_mid, sd_mid**2 * (n - 1), atol=1e-12)


def test_vertex_flags_keep_every_curve_vertex():
    rng = np.random.default_rng(3)
    curves = _random_curves(rng, 9, 6)
    merged = _merge([curves])
    vertices = np.unique(np.concatenate([pc for pc, _ in curves]))
    assert np.array_equal(np.unique(merged.x[merged.vertex]), vertices)


def test_identical_curves_merge_to_no_spread_and_equal_bounds():
    pc = np.array([0.0, 0.2, 0.7, 1.0])
    cost = np.array([0.0, 0.1 + 1e-17, 0.3, 0.0])
    merged = _merge([[(pc, cost)] * 13])
    assert (merged.m2 == 0).all()
    assert (merged.lo == merged.hi).all()
    assert (merged.mean == np.interp(merged.x, pc, cost)).all()


def _curves_table(rng, keys, folds, vertices):
    frames = []
    for key in keys:
        for fold in range(folds):
            pc = np.sort(np.concatenate([[0.0, 1.0], rng.random(vertices)]))
            cost = rng.random(len(pc)) * 0.5
            frames.append(pd.DataFrame({"model": key, "fold": fold, "pc": pc, "cost": cost}))
    return pd.concat(frames, ignore_index=True).sample(frac=1, random_state=1)


def test_vertical_average_of_many_groups_equals_each_group_alone(rng):
    table = _curves_table(rng, ["a", "b", "c", None], folds=7, vertices=6)
    together = cc.vertical_average(table, over="fold", by="model")
    assert list(together.model.unique()[:3]) == list(table.model.unique()[:3])
    for key, part in together.groupby("model", sort=False, dropna=False):
        rows = table.model.isna() if pd.isna(key) else table.model == key
        alone = cc.vertical_average(table[rows].drop(columns="model"), over="fold")
        columns = ["pc", "cost", "cost_lo", "cost_hi", "cost_sd", "n_curves"]
        pd.testing.assert_frame_equal(
            part[columns].reset_index(drop=True), alone[columns].reset_index(drop=True)
        )


def test_vertical_average_of_many_folds_equals_brute_force(rng):
    table = _curves_table(rng, ["m"], folds=150, vertices=20)
    average = cc.vertical_average(table, over="fold", by="model")
    curves = [
        (part.pc.to_numpy(), part.cost.to_numpy())
        for _, part in table.sort_values(["fold", "pc"]).groupby("fold")
    ]
    mean, lo, hi, sd = _brute_force(curves, average.pc.to_numpy())
    np.testing.assert_allclose(average.cost, mean, atol=1e-13)
    np.testing.assert_allclose(average.cost_lo, lo, atol=1e-13)
    np.testing.assert_allclose(average.cost_hi, hi, atol=1e-13)
    np.testing.assert_allclose(average.cost_sd, sd, atol=1e-9)
    assert len(average) == len(np.unique(table.pc))


#: Folds whose curves coincide in part (tied scores): rounding once inserted a crossing a
#: few ulps past a vertex, and the next interval's spread came from that sliver's slope
#: (cost_sd 0.033961 instead of 0.034949 at pc = 5/17), depending on the folds' order.
TIED = pd.DataFrame(
    {
        "fold": list("aaabbbbcccddde"),
        "fpr": [
            2 / 15,
            13 / 30,
            0.9,
            0,
            1 / 15,
            0.4,
            0.8,
            0,
            7 / 15,
            0.9,
            0,
            1 / 30,
            14 / 15,
            1 / 3,
        ],
        "tpr": [0.2, 0.55, 0.95, 0.05, 0.45, 0.8, 1, 0.1, 0.8, 1, 0.1, 0.2, 1, 0.8],
    }
)


def _tied_folds(rng, folds=6, n=30):
    """ROC points of folds scored on a few distinct values, so their curves often coincide."""
    data = pd.DataFrame(
        {
            "fold": np.repeat(np.arange(folds), n),
            "s": rng.integers(0, 4, folds * n),
            "y": rng.random(folds * n) < 0.5,
        }
    )
    data["s"] = data.s + data.y * rng.integers(0, 2, folds * n)
    return cc.roc_points(data, score="s", label="y", by="fold")


def _assert_exact_at_vertices(points):
    average = cc.vertical_average(points, over="fold")
    envelopes = cc.lower_envelope(points, by="fold")
    curves = [(g.pc.to_numpy(), g.cost.to_numpy()) for _, g in envelopes.groupby("fold")]
    mean, lo, hi, sd = _brute_force(curves, average.pc.to_numpy())
    np.testing.assert_allclose(average.cost, mean, atol=1e-12)
    np.testing.assert_allclose(average.cost_lo, lo, atol=1e-12)
    np.testing.assert_allclose(average.cost_hi, hi, atol=1e-12)
    np.testing.assert_allclose(average.cost_sd, sd, atol=1e-9)
    return average


@pytest.mark.slow  # every order of the five folds: 120 averages
def test_tied_folds_average_exactly_in_every_order():
    import itertools

    folds = sorted(TIED.fold.unique())
    results = []
    for order in itertools.permutations(folds):
        renamed = TIED.assign(fold=TIED.fold.map(dict(zip(folds, order, strict=True))))
        results.append(_assert_exact_at_vertices(renamed.sort_values("fold", kind="stable")))
    at = np.isclose(results[0].pc, 5 / 17)
    assert results[0].cost_sd[at].item() == pytest.approx(0.034949, abs=1e-6)
    for result in results[1:]:
        np.testing.assert_allclose(
            result[["pc", "cost_sd"]], results[0][["pc", "cost_sd"]], atol=1e-12
        )


@pytest.mark.parametrize("seed", range(25))
def test_random_tied_score_folds_equal_brute_force_in_any_order(seed):
    rng = np.random.default_rng(seed)
    points = _tied_folds(rng)
    first = _assert_exact_at_vertices(points)
    shuffled = points.assign(fold=points.fold.map(dict(enumerate(rng.permutation(6)))))
    again = _assert_exact_at_vertices(shuffled.sort_values("fold", kind="stable"))
    np.testing.assert_allclose(again[["pc", "cost"]], first[["pc", "cost"]], atol=1e-12)
    # An sd near 0 is the square root of rounding (1e-22 -> 1e-11): 1e-9, as against brute force.
    np.testing.assert_allclose(again.cost_sd, first.cost_sd, atol=1e-9)
