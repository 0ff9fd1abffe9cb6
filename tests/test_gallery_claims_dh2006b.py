"""The dh2006 gallery figures 14-17 and 21-25 hold what Drummond and Holte (2006) say.

Each test runs its script once and checks the paper's claim on the script's own tables.
"""

from __future__ import annotations

import numpy as np
import pytest
from gallery_scripts import drawn, run_figure

import costchart as cc

# Gallery tests: each runs a gallery script (the quick loop leaves them out).
pytestmark = pytest.mark.slow


def _run(name: str) -> dict:
    return run_figure("dh2006", name)


@pytest.fixture(scope="module")
def fig14():
    return _run("fig14")


def _below_line(table, point, slope) -> np.ndarray:
    """How far each (fpr, tpr) row lies below the line of ``slope`` through ``point``."""
    fpr0, tpr0 = point
    return tpr0 + slope * (table["fpr"].to_numpy() - fpr0) - table["tpr"].to_numpy()


def test_fig14_roc_averages_differ_and_stay_below_the_iso_line(fig14):
    vertical, horizontal = fig14["vertical"], fig14["horizontal"]
    curves = fig14["curves"]
    vertices = curves[(curves.fpr > 0) & (curves.fpr < 1)]
    assert sorted(zip(vertices.fpr, vertices.tpr)) == [(0.04, 0.4), (0.3, 0.8)]
    slope = (0.8 - 0.4) / (0.3 - 0.04)
    assert fig14["slope"] == pytest.approx(slope)
    # The two averages are different curves: vertical keeps the vertices' FPR, horizontal their TPR.
    inner_v = vertical[(vertical.fpr > 0) & (vertical.fpr < 1)]
    inner_h = horizontal[(horizontal.tpr > 0) & (horizontal.tpr < 1)]
    np.testing.assert_allclose(inner_v.fpr, [0.04, 0.3])
    np.testing.assert_allclose(inner_h.tpr, [0.4, 0.8])
    assert not np.allclose(inner_v.tpr, inner_h.tpr)
    # Both lie well below the iso-performance line through the vertices (piecewise linear:
    # the vertices decide), while the vertices' mean (0.17, 0.6) is on it.
    for average in (vertical, horizontal):
        assert _below_line(average, (0.04, 0.4), slope).min() > 0.05
    mean = fig14["mean_vertex"]
    assert (float(mean.fpr.iloc[0]), float(mean.tpr.iloc[0])) == pytest.approx((0.17, 0.6))
    assert _below_line(mean, (0.04, 0.4), slope) == pytest.approx([0.0], abs=1e-12)


@pytest.fixture(scope="module")
def fig15():
    return _run("fig15")


def test_fig15_cost_average_dual_has_the_vertices_mean(fig15):
    envelopes, average, dual = fig15["envelopes"], fig15["average"], fig15["dual"]
    # (a) At every pc the average is the mean of the two envelopes' costs.
    grid = np.linspace(0, 1, 401)
    costs = [np.interp(grid, g.pc, g.cost) for _, g in envelopes.groupby("curve")]
    assert len(costs) == 2
    np.testing.assert_allclose(
        np.interp(grid, average.pc, average.cost), np.mean(costs, axis=0), atol=1e-9
    )
    # (b) Its ROC dual's central vertex is (0.17, 0.6), on the iso-performance line through
    # (0.04, 0.4) and (0.3, 0.8), midway between them.
    inner = dual[(dual.fpr > 0) & (dual.fpr < 1)]
    central = inner.iloc[(inner.tpr - inner.tpr.median()).abs().argmin()]
    assert (central.fpr, central.tpr) == pytest.approx((0.17, 0.6), abs=1e-9)
    slope = (0.8 - 0.4) / (0.3 - 0.04)
    assert 0.4 + slope * (central.fpr - 0.04) == pytest.approx(central.tpr)
    assert np.hypot(central.fpr - 0.04, central.tpr - 0.4) == pytest.approx(
        np.hypot(0.3 - central.fpr, 0.8 - central.tpr)
    )
    # The average's expected cost is the mean of the two curves' expected costs.
    mean_of_two = fig15["expected"]["expected_cost"].mean()
    assert float(cc.expected_cost(average)["expected_cost"].iloc[0]) == pytest.approx(
        mean_of_two, abs=1e-6
    )


@pytest.fixture(scope="module")
def fig16():
    return _run("fig16")


def test_fig16_band_is_narrowest_near_the_class_distribution(fig16):
    counts = fig16["counts"].iloc[0]
    assert (counts.TP, counts.FN, counts.FP, counts.TN) == (16, 4, 4, 6)
    # Resampled lines meet the left axis at multiples of 1/10, the right at multiples of 1/20.
    lines = fig16["lines"]
    assert lines["draw"].nunique() == 100
    left = lines[lines.pc == 0].cost.to_numpy() * 10
    right = lines[lines.pc == 1].cost.to_numpy() * 20
    np.testing.assert_allclose(left, np.round(left), atol=1e-9)
    np.testing.assert_allclose(right, np.round(right), atol=1e-9)
    # Wide at both ends, narrowest at 0.75 (equation 8), between the class distribution 2/3
    # and the false negatives' end.
    width = fig16["width"].set_index("pc")["width"]
    narrowest = width.idxmin()
    assert narrowest == pytest.approx(0.75, abs=0.011)
    assert fig16["class_distribution"] == pytest.approx(2 / 3)
    assert 2 / 3 < narrowest < 1
    assert width.iloc[0] > 1.5 * width.min() and width.iloc[-1] > 1.1 * width.min()
    band = fig16["band"]
    assert ((band.lower <= band.cost) & (band.cost <= band.upper)).all()


@pytest.fixture(scope="module")
def fig17():
    return _run("fig17")


def test_fig17_upper_band_holds_the_lower_line_below_half_and_bands_always_overlap(fig17):
    wide = fig17["wide"]
    pc = wide.index.to_numpy()
    lower_line, upper_line = wide["cost"]["lower"].to_numpy(), wide["cost"]["upper"].to_numpy()
    # The lower line dominates the upper one.
    assert (lower_line < upper_line).all()
    # (a) The upper line's band contains the lower line for pc < 0.5 and not above it.
    upper_band = fig17["upper_band"].set_index("pc")
    inside = lower_line >= upper_band.loc[pc, "lower"].to_numpy()
    assert inside[pc < 0.49].all()
    assert not inside[pc > 0.51].any()
    # (b) The two bands overlap at every pc: the intersection is never empty, and the union
    # holds both bands.
    intersection, union = fig17["intersection"], fig17["union"]
    assert (intersection["lower"] <= intersection["upper"]).all()
    assert (union["lower"].to_numpy() <= wide["lower"].min(axis=1).to_numpy() + 1e-12).all()
    assert (union["upper"].to_numpy() >= wide["upper"].max(axis=1).to_numpy() - 1e-12).all()


@pytest.fixture(scope="module")
def fig21():
    return _run("fig21")


def _hybrid_on(curve, grid) -> np.ndarray:
    """A hybrid's cost at ``grid``: each segment evaluated over its own pc interval."""
    cost = np.full_like(grid, np.nan)
    for _, segment in curve.groupby("segment"):
        inside = (grid >= segment.pc.min()) & (grid <= segment.pc.max())
        cost[inside] = np.interp(grid[inside], segment.pc, segment.cost)
    return cost


@pytest.mark.slow
def test_fig21_performance_independent_hybrid_is_well_above_the_envelope(fig21):
    result = fig21["result"]
    grid = np.linspace(0, 1, 1001)
    gap = _hybrid_on(result.curve, grid) - np.interp(grid, result.envelope.pc, result.envelope.cost)
    assert not np.isnan(gap).any()
    assert gap.min() > -1e-9  # never below the envelope
    assert (gap > 0.01).mean() > 0.6  # well above it at most operating points
    assert float(result.extra_cost["extra_cost"].iloc[0]) > 0.03
    # (b) Each classifier's two ROC segments have the slopes of its pc range's ends.
    segments = drawn(fig21, "segments").sort_values(["segment", "end", "at"])
    for (segment, end), pair in segments.groupby(["segment", "end"]):
        pc_end = fig21["ranges"].loc[segment, end]
        dfpr, dtpr = np.diff(pair.fpr)[0], np.diff(pair.tpr)[0]
        assert dtpr * pc_end == pytest.approx(dfpr * (1 - pc_end), abs=1e-12)
    # The rule does not give the ROC convex hull: three of the seven classifiers it uses are
    # on the hull (two vertices and one on the edge between them), four are below it, and
    # the chart draws each group as such, the four with their gap below the hull.
    classifiers = fig21["classifiers"]
    assert len(classifiers) == 7 and len(fig21["on_hull"]) == 2
    on = drawn(fig21, classifiers[classifiers["on_hull"]], ["fpr", "tpr"])
    off = drawn(fig21, fig21["off"], ["fpr", "tpr", "gap"])
    assert len(on) == 3 and len(off) == 4
    hull = drawn(fig21, "hull", ["fpr", "tpr"])
    below = np.interp(off["fpr"], hull["fpr"], hull["tpr"]) - off["tpr"]
    assert (below > 0.001).all()
    assert off["gap"].tolist() == [f"{gap:.3f} below" for gap in below]
    assert np.interp(on["fpr"], hull["fpr"], hull["tpr"]) == pytest.approx(on["tpr"])
    # The hybrids drawn are the script's.
    drawn(fig21, result.curve, ["pc", "cost"])
    drawn(fig21, result.envelope, ["pc", "cost"])


@pytest.fixture(scope="module")
def fig22():
    return _run("fig22")


def test_fig22_threshold_from_pc_is_worse_than_trivial_below_02_and_above_07(fig22):
    table = fig22["comparison"]
    assert not table.hybrid.isna().any()
    # The comparison is built from the script's curves.
    np.testing.assert_allclose(
        table.envelope, np.interp(table.pc, fig22["envelope"].pc, fig22["envelope"].cost)
    )
    assert (table.hybrid >= table.envelope - 1e-9).all()
    # Considerably worse than a trivial classifier throughout pc < 0.2 and pc > 0.7.
    ends = table[(table.pc < 0.2) | (table.pc > 0.7)]
    excess = ends.hybrid - ends.trivial
    assert (excess > 0).all()
    assert excess.max() > 0.15
    # Close to the envelope (within 0.01) only in a narrow range in the middle, near the
    # paper's 0.45; clearly above it elsewhere.
    near = table[table.hybrid - table.envelope < 0.01].pc
    assert 0.25 < near.min() and near.max() < 0.5
    assert near.max() - near.min() < 0.2
    far = table[(table.pc > 0.05) & (table.pc < 0.95) & ((table.pc < 0.25) | (table.pc > 0.5))]
    assert (far.hybrid - far.envelope > 0.01).all()


@pytest.fixture(scope="module")
def fig23():
    return _run("fig23")


def test_fig23_neyman_pearson_mixture_in_roc_and_cost_space(fig23):
    components, mixture, single = fig23["components"], fig23["mixture"], fig23["single"]
    hull = cc.roc_hull(fig23["points"])
    # (a) The vertical line FPR = 0.1 meets the hull between two adjacent hull vertices.
    assert float(mixture.fpr.iloc[0]) == pytest.approx(0.1)
    assert float(mixture.tpr.iloc[0]) == pytest.approx(np.interp(0.1, hull.fpr, hull.tpr))
    f1, f2 = sorted(components.fpr)
    assert f1 < 0.1 < f2
    vertices = hull.fpr.to_numpy()
    assert not ((vertices > f1 + 1e-12) & (vertices < f2 - 1e-12)).any()
    # (b) The mixture's cost line goes from (0, FP) through the components' crossing, which
    # is on the lower envelope, to 1 - TP at pc = 1.
    ends, crossing = fig23["ends"], fig23["crossing"]
    assert ends.cost.iloc[0] == pytest.approx(0.1)
    assert ends.cost.iloc[1] == pytest.approx(1 - float(mixture.tpr.iloc[0]))
    pc0, cost0 = float(crossing.pc.iloc[0]), float(crossing.cost.iloc[0])
    assert cost0 == pytest.approx((1 - pc0) * ends.cost.iloc[0] + pc0 * ends.cost.iloc[1])
    envelope = cc.lower_envelope(fig23["points"])
    assert cost0 == pytest.approx(np.interp(pc0, envelope.pc, envelope.cost), abs=1e-9)
    # The best single classifier within the limit is below the hull.
    assert float(single.fpr.iloc[0]) <= 0.1
    assert float(single.tpr.iloc[0]) < float(mixture.tpr.iloc[0]) - 0.01
    # The chart draws these points, named, and the criterion's ends and crossing.
    named = drawn(fig23, "named", ["fpr", "tpr", "name"]).set_index("name")
    assert named.loc["mixture", "tpr"] == float(mixture.tpr.iloc[0])
    assert named.loc["best single", "tpr"] == float(single.tpr.iloc[0])
    assert sorted(named.loc[["A", "B"], "fpr"]) == [f1, f2]
    drawn(fig23, "ends", ["pc", "cost"])
    drawn(fig23, "crossing", ["pc", "cost"])


@pytest.fixture(scope="module")
def fig24():
    return _run("fig24")


def test_fig24_workforce_line_is_a_visible_point_left_of_the_usual_range(fig24):
    points, mixture, components = fig24["points"], fig24["mixture"], fig24["components"]
    positives, negatives, capacity = fig24["positives"], fig24["negatives"], fig24["capacity"]
    assert (positives, negatives) == (300, 700)
    # (a) The optimal classifier is where the negatively sloped line meets the hull.
    f, t = float(mixture.fpr.iloc[0]), float(mixture.tpr.iloc[0])
    assert positives * t + negatives * f == pytest.approx(capacity)
    hull = cc.roc_hull(points)
    assert t == pytest.approx(np.interp(f, hull.fpr, hull.tpr))
    # (b) Slope -N/P below -1: the point has a negative pc (1 / (1 - 7/3) = -0.75), and the
    # chart's pc axis reaches it.
    assert fig24["slope"] < -1
    assert fig24["virtual_pc"] == pytest.approx(-0.75)
    domain = fig24["x"].to_dict()["scale"]["domain"]
    assert domain[0] < fig24["virtual_pc"] < 0 < domain[1]
    # The two classifiers nearest the point above and below it at that pc are the mixed ones.
    at_virtual = fig24["at_virtual"].sort_values("cost")
    cost = at_virtual.cost.to_numpy()
    i = np.searchsorted(cost, fig24["virtual_cost"])
    nearest = {
        tuple(at_virtual.iloc[i - 1][["fpr", "tpr"]]),
        tuple(at_virtual.iloc[i][["fpr", "tpr"]]),
    }
    assert nearest == {tuple(r) for r in components[["fpr", "tpr"]].to_numpy()}
    # The line from the point through their crossing is the mixture's cost line, and the
    # crossing is on the lower envelope.
    pc0, cost0 = float(fig24["crossing"].pc.iloc[0]), float(fig24["crossing"].cost.iloc[0])
    assert cost0 == pytest.approx((1 - pc0) * f + pc0 * (1 - t))
    assert fig24["virtual_cost"] == pytest.approx(
        (1 - fig24["virtual_pc"]) * f + fig24["virtual_pc"] * (1 - t)
    )
    envelope = cc.lower_envelope(points)
    assert cost0 == pytest.approx(np.interp(pc0, envelope.pc, envelope.cost), abs=1e-9)


@pytest.fixture(scope="module")
def fig25():
    return _run("fig25")


def test_fig25_many_cost_lines_crowd_the_highlighted_one(fig25):
    points, highlighted = fig25["points"], fig25["highlighted"]
    # Many thresholds: as many cost lines as ROC points.
    assert len(points) >= 50
    assert len(fig25["every"]) == len(points)
    # The highlighted classifier is the threshold optimal at pc = 0.5, a ROC hull vertex.
    hull = cc.roc_hull(points)
    f, t = float(highlighted.fpr.iloc[0]), float(highlighted.tpr.iloc[0])
    assert ((hull.fpr - f).abs() < 1e-12).any() and t == pytest.approx(
        np.interp(f, hull.fpr, hull.tpr)
    )
    envelope = cc.lower_envelope(points)
    assert 0.5 * (1 - t) + 0.5 * f == pytest.approx(np.interp(0.5, envelope.pc, envelope.cost))
    # Cost space is crowded: at most pc values ten or more other lines run within 0.02 of
    # the highlighted one, so it cannot be followed without highlighting.
    crowd = fig25["crowd"]
    assert (crowd.near >= 10).mean() > 0.8
    # ROC space is not: few other points lie within 0.02 of the highlighted one.
    others = points[(points.fpr != f) | (points.tpr != t)]
    assert (np.hypot(others.fpr - f, others.tpr - t) < 0.02).sum() <= 3
