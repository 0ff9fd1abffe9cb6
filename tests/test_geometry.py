import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._cost.geometry import (
    COST_TOP,
    cost_top,
    cut_curve,
    fitted_top,
    iso_performance_lines,
    repeat_for,
    trivial_lines,
    trivial_region,
)


@pytest.mark.parametrize("y_max", [0.05, 0.3, 0.5, 0.8, 1.0])
def test_trivial_lines_end_at_the_top_of_the_axis(y_max):
    table = trivial_lines(y_max)
    top = min(y_max, 1.0)
    negative = table[table.trivial == "always negative"]
    positive = table[table.trivial == "always positive"]
    # Always negative costs pc, always positive 1 - pc, and both stop at y_max.
    np.testing.assert_allclose(negative.cost, negative.pc)
    np.testing.assert_allclose(positive.cost, 1 - positive.pc)
    assert table.cost.max() == pytest.approx(top)
    assert len(repeat_for(table, pd.DataFrame({"dataset": ["x", "y"]}))) == 2 * len(table)


@pytest.mark.parametrize("y_max", [0.05, 0.2, 0.5, 1.0])
def test_trivial_region_is_cut_at_y_max(y_max):
    table = trivial_region(y_max)
    assert (table.cost <= y_max + 1e-15).all() and (table.top == y_max).all()
    # Between its vertices, its lower edge is min(pc, 1 - pc, y_max) everywhere.
    grid = np.linspace(0, 1, 1001)
    edge = np.interp(grid, table.pc, table.cost)
    np.testing.assert_allclose(edge, np.minimum(np.minimum(grid, 1 - grid), y_max), atol=1e-12)


def _brute_cut(pc, cost, y_max, samples=2001):
    """The curve sampled finely, with NaN above y_max."""
    grid = np.linspace(pc.min(), pc.max(), samples)
    values = np.interp(grid, pc, cost)
    return grid, np.where(values > y_max + 1e-12, np.nan, values)


@pytest.mark.parametrize("seed", range(5))
def test_cut_curve_matches_the_sampled_curve_under_y_max(seed):
    rng = np.random.default_rng(seed)
    pc = np.sort(np.concatenate([[0.0, 1.0], rng.random(12)]))
    cost = rng.random(len(pc)) * 0.5
    y_max = 0.2
    cut = cut_curve(pd.DataFrame({"pc": pc, "cost": cost}), y_max=y_max)
    assert np.nanmax(cut.cost) <= y_max + 1e-12
    # Where the cut curve is defined on both ends of a segment, it equals the curve there.
    grid, expected = _brute_cut(pc, cost, y_max)
    kept = cut.dropna()
    np.testing.assert_allclose(np.interp(kept.pc, pc, cost), kept.cost, atol=1e-12)
    # Every sample under y_max falls in a segment whose both ends are defined.
    defined = ~np.isnan(cut.cost.to_numpy())
    both = defined[:-1] & defined[1:]
    lo, hi = cut.pc.to_numpy()[:-1][both], cut.pc.to_numpy()[1:][both]
    inside = (grid[:, None] >= lo[None, :] - 1e-12) & (grid[:, None] <= hi[None, :] + 1e-12)
    assert inside[~np.isnan(expected)].any(axis=1).all()


def test_cut_curve_keeps_groups_apart():
    table = pd.DataFrame(
        {"m": ["a"] * 3 + ["b"] * 3, "pc": [0, 0.5, 1] * 2, "cost": [0, 0.4, 0, 0, 0.1, 0]}
    )
    cut = cut_curve(table, y_max=0.2, by=["m"])
    assert cut[cut.m == "b"].cost.tolist() == [0, 0.1, 0]  # under y_max: unchanged
    a = cut[cut.m == "a"]
    assert a.pc.tolist() == [0, 0.25, 0.5, 0.75, 1]
    assert np.isnan(a.cost.iloc[2]) and a.cost.iloc[1] == pytest.approx(0.2)


def _brute_iso(hull, pc):
    """Per group: the vertex maximising tpr - m * fpr, its line cut to the unit square."""
    slope = (1 - pc) / pc
    rows = []
    for key, part in hull.groupby("m", sort=False):
        score = part.tpr - slope * part.fpr
        vertex = part.loc[score.idxmax()]
        grid = np.linspace(0, 1, 100_001)
        line = vertex.tpr + slope * (grid - vertex.fpr)
        inside = grid[(line >= -1e-12) & (line <= 1 + 1e-12)]
        rows.append((key, inside.min(), inside.max(), vertex.tpr - slope * vertex.fpr))
    return rows


@pytest.mark.parametrize("pc", [0.1, 0.3, 0.5, 0.8])
def test_iso_performance_lines_match_brute_force(pc, demo_points):
    sonar = demo_points[demo_points.dataset == "sonar"].drop(columns="dataset")
    hull = cc.roc_hull(sonar.rename(columns={"classifier": "m"}), by="m")
    lines = iso_performance_lines(hull, [pc])
    for key, low, high, intercept in _brute_iso(hull, pc):
        mine = lines[lines.m == key]
        assert mine.fpr.min() == pytest.approx(low, abs=2e-5)
        assert mine.fpr.max() == pytest.approx(high, abs=2e-5)
        # The line's height at fpr = 0 (extended) is the best vertex's tpr - m * fpr.
        fpr, tpr = mine.fpr.to_numpy(), mine.tpr.to_numpy()
        slope = (tpr[1] - tpr[0]) / (fpr[1] - fpr[0])
        assert slope == pytest.approx((1 - pc) / pc)
        assert tpr[0] - slope * fpr[0] == pytest.approx(intercept, abs=1e-9)


def test_iso_performance_lines_at_the_ends():
    points = cc.roc_points({"s": [3, 2, 1], "y": [1, 0, 1]}, score="s", label="y")
    hull = cc.roc_hull(points)
    lines = iso_performance_lines(hull, [0.0, 1.0])
    vertical, flat = lines[lines.pc == 0.0], lines[lines.pc == 1.0]
    assert vertical.fpr.nunique() == 1 and vertical.tpr.tolist() == [0.0, 1.0]
    assert flat.tpr.nunique() == 1 and flat.fpr.tolist() == [0.0, 1.0]


@pytest.mark.parametrize(
    ("highest", "top"),
    [
        (0.0, 0.05),  # a perfect classifier: the least top
        (0.03, 0.05),
        (0.0455, 0.1),  # 0.05005 is past 0.05
        (0.149, 0.2),
        (0.18, 0.2),  # 0.198
        (0.19, 0.25),  # 0.209
        (0.27, 0.3),  # 0.297: the last 0.05 step
        (0.28, 0.4),  # 0.308: 0.1 steps above 0.3
        (0.4, 0.5),
        (0.49, 0.5),  # capped at the papers' 0.5
        (0.9, 0.5),  # a band's upper edge above 0.5 is cut there
    ],
)
def test_the_fitted_top_is_the_next_readable_tick_over_the_curves(highest, top):
    assert fitted_top([0.0, highest / 2, highest]) == top


@pytest.mark.parametrize("seed", range(3))
def test_the_fitted_top_is_the_least_tick_with_a_tenth_of_headroom(seed):
    rng = np.random.default_rng(seed)
    for highest in rng.uniform(0, 0.6, 200):
        top = fitted_top([highest, np.nan, -np.inf])  # non-finite costs are not fitted
        wanted = 1.1 * highest
        step = 0.05 if top <= 0.3 else 0.1
        assert 0.05 <= top <= COST_TOP
        assert round(top / step, 9).is_integer()  # a readable tick
        if wanted <= COST_TOP:
            assert top >= wanted - 1e-12  # the highest cost has a tenth of headroom
            assert top == 0.05 or top - step < wanted  # and no tick below it has
        else:
            assert top == COST_TOP


def test_the_fitted_top_reads_every_curve_and_is_0_5_without_any():
    assert fitted_top([0.1], pd.Series([0.2, np.nan])) == 0.25  # the highest of all
    assert fitted_top() == fitted_top([]) == fitted_top([np.nan]) == COST_TOP
    assert cost_top(None, [0.1]) == 0.15 and cost_top(0.12, [0.3]) == 0.12  # given: as is
    with pytest.raises(cc.CostchartError, match=r"y_max=2\.0 is outside \(0, 1\]"):
        cost_top(2.0, [0.1])
