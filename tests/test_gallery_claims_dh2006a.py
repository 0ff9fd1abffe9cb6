"""Drummond & Holte 2006, Figs. 1-13: each gallery script's tables hold the paper's claim.

Every test runs its script once (module-scoped) and checks what the paper says the figure
shows on the tables the script binds at module level, not on printed text.
"""

from __future__ import annotations

import numpy as np
import pytest
from gallery_scripts import drawn, run_figure

import costchart as cc

# Gallery tests: each runs a gallery script (the quick loop leaves them out).
pytestmark = pytest.mark.slow


def _run(fragment):
    return run_figure("dh2006", fragment)


@pytest.fixture(scope="module")
def script():
    return lambda fragment: _run(fragment)


def test_fig02_slopes_beside_a_are_the_papers(script):
    ns = script("fig02")
    hulls, segments = ns["hulls"], ns["segments"]
    # B is the paper's point (FP 0.35, TP 0.7), alone on the solid curve.
    b = hulls[hulls["name"] == "B"]
    assert (b["fpr"].item(), b["tpr"].item()) == (0.35, 0.7)
    # The segments beside A have the paper's slopes: 2.4 on its left, 1.5 on its right.
    into_a = segments[segments["right"] == "A"]["slope"].item()
    out_of_a = segments[segments["left"] == "A"]["slope"].item()
    assert into_a == pytest.approx(2.4) and out_of_a == pytest.approx(1.5)
    # A, B and C are all hull vertices of their curves, and each curve is convex.
    assert set(hulls["name"]) >= {"A", "B", "C"}
    for _, curve in segments.groupby("curve"):
        assert np.all(np.diff(curve["slope"].to_numpy()) < 0)
    # A is the dashed curve's choice exactly for slopes in (1.5, 2.4).
    choices = ns["choices"]
    a = hulls[hulls["name"] == "A"]
    picks_a = (choices["fpr"] == a["fpr"].item()) & (choices["tpr"] == a["tpr"].item())
    slopes = 1 / choices["pc_lo"] - 1
    assert picks_a.to_numpy().tolist() == ((slopes > 1.5) & (slopes < 2.4)).to_numpy().tolist()
    assert picks_a.sum() >= 2 and (~picks_a).sum() >= 2
    # B's operating range is bounded by the pc values of its two solid segments' slopes.
    solid = segments[segments["curve"] == "solid"]["slope"].to_numpy()
    b_range = ns["b_range"]
    assert b_range["pc_lo"].item() == pytest.approx(cc.pc_from_slope(solid[0]))
    assert b_range["pc_hi"].item() == pytest.approx(cc.pc_from_slope(solid[1]))


def test_fig09_rough_roc_range_is_wider_than_the_exact_one(script):
    ns = script("fig09")
    hull, rough, exact = ns["hull"], ns["rough"], ns["exact"]
    inner = hull[np.isfinite(hull["threshold"])]
    # The rough reading: the least FP and the greatest TP among the hull's real classifiers,
    # the paper's 0.05 < PC(+) < 0.94.
    assert rough["pc_lo"].item() == inner["fpr"].min() == pytest.approx(0.05, abs=0.005)
    assert rough["pc_hi"].item() == inner["tpr"].max() == pytest.approx(0.94, abs=0.005)
    # The exact range, where the envelope is below both trivial classifiers: 0.14-0.85.
    assert exact["pc_lo"].item() == pytest.approx(0.14, abs=0.005)
    assert exact["pc_hi"].item() == pytest.approx(0.85, abs=0.005)
    # The rough estimate is wider at both ends.
    assert rough["pc_lo"].item() < exact["pc_lo"].item() - 0.05
    assert rough["pc_hi"].item() > exact["pc_hi"].item() + 0.05
    # The exact ends are the pc values of the slopes of the hull's two end edges.
    assert exact["pc_lo"].item() == pytest.approx(cc.pc_from_slope(hull["slope_lo"].iat[0]))
    assert exact["pc_hi"].item() == pytest.approx(cc.pc_from_slope(hull["slope_hi"].iat[-1]))
    # Some made-up points lie below the hull.
    assert len(ns["points"]) > len(inner)


def _tpr_on(points, fpr):
    """An ROC curve's TPR at the given FPR values (the points joined by segments)."""
    top = points.groupby("fpr")["tpr"].max()
    return np.interp(fpr, top.index.to_numpy(), top.to_numpy())


@pytest.mark.slow
def test_fig13_tangled_roc_curves_separate_in_cost_space(script):
    ns = script("fig13")
    points, costs = ns["points"], ns["costs"]
    settings = list(points["setting"].unique())
    assert len(settings) == 4
    # ROC space: the curves are tangled, at least three of the six pairs cross.
    fpr = np.linspace(0.01, 0.99, 99)
    tpr = {s: _tpr_on(points[points["setting"] == s], fpr) for s in settings}
    crossing = [
        (a, b)
        for i, a in enumerate(settings)
        for b in settings[i + 1 :]
        if (tpr[a] - tpr[b] > 0.01).any() and (tpr[a] - tpr[b] < -0.01).any()
    ]
    assert len(crossing) >= 3, crossing
    # Cost space: one setting is the cheapest by at least 0.015 over a wide range of pc,
    # the range the chart shades.
    wide = costs.pivot(index="pc", columns="setting", values="cost")
    ordered = np.sort(wide.to_numpy(), axis=1)
    clear = (wide.idxmin(axis=1) == "entropy, depth 3") & (ordered[:, 1] - ordered[:, 0] >= 0.015)
    assert clear.any(), "the entropy tree is nowhere clearly the cheapest"
    pc = wide.index.to_numpy()
    runs = np.split(pc[clear.to_numpy()], np.where(np.diff(np.flatnonzero(clear)) > 1)[0] + 1)
    widest = max(runs, key=lambda run: run[-1] - run[0])
    assert widest[-1] - widest[0] >= 0.4, widest
    shaded = ns["clearly_lowest"]
    assert (shaded["pc_lo"].item(), shaded["pc_hi"].item()) == (widest[0], widest[-1])
    # Of two weaker settings, one (Gini at depth 4) is below the other (depth 3) over most
    # of their common operating range.
    ranges = ns["ranges"].set_index("setting")
    lo = ranges.loc[["gini, depth 3", "gini, depth 4"], "pc_lo"].max()
    hi = ranges.loc[["gini, depth 3", "gini, depth 4"], "pc_hi"].min()
    inside = wide[(wide.index > lo) & (wide.index < hi)]
    below = inside["gini, depth 4"] <= inside["gini, depth 3"] + 1e-12
    assert below.mean() >= 0.7, below.mean()


def test_fig07_both_roc_constructions_give_the_cost_line_reading(script):
    ns = script("fig07")
    segments = ns["constructions"].set_index("construction")
    fpr0, tpr0 = ns["point"]["fpr"].item(), ns["point"]["tpr"].item()
    slope, pc = ns["slope"], ns["pc"]
    assert slope == pytest.approx(1 / pc - 1)
    # The vertical reading in cost space: the cost line's height at pc.
    cost = ns["reading"]["cost"].item()
    assert cost == pytest.approx((1 - tpr0) * pc + fpr0 * (1 - pc))

    def on_iso(fpr, tpr):
        return tpr == pytest.approx(tpr0 + slope * (fpr - fpr0))

    # Flach's construction: a horizontal segment from the y axis to where the
    # iso-performance line meets TP = 1 - FP; its length is exactly the cost.
    flach = segments.loc["horizontal"]
    assert flach["fpr_start"] == 0 and flach["tpr_start"] == flach["tpr_end"]
    assert on_iso(flach["fpr_end"], flach["tpr_end"])
    assert flach["tpr_end"] == pytest.approx(1 - flach["fpr_end"])
    assert flach["length"] == pytest.approx(cost)
    # The perpendicular from (0, 1): its foot is on the iso-performance line, at a right
    # angle, and its length is the cost times (1 + slope) / sqrt(1 + slope^2).
    normal = segments.loc["perpendicular"]
    assert (normal["fpr_start"], normal["tpr_start"]) == (0.0, 1.0)
    assert on_iso(normal["fpr_end"], normal["tpr_end"])
    dx, dy = normal["fpr_end"] - normal["fpr_start"], normal["tpr_end"] - normal["tpr_start"]
    assert dx * 1 + dy * slope == pytest.approx(0, abs=1e-12)
    assert normal["length"] == pytest.approx(cost * (1 + slope) / np.hypot(1, slope))


def test_fig12_dashed_never_worse_gap_largest_near_03_and_07(script):
    ns = script("fig12")
    curves, choices, difference = ns["curves"], ns["choices"], ns["difference"]
    named = curves[curves["name"] != ""].set_index("name")
    # B's cost line is horizontal (FP = FN): the top of the solid cost curve.
    assert named.loc["B", "fpr"] == pytest.approx(1 - named.loc["B", "tpr"])
    assert (named.loc["C", "fpr"], named.loc["C", "tpr"]) == (0.0, 0.0)
    # Cost ratio 2.1: A (dashed) against B (solid); cost ratio 2.3: A against C.
    pick = choices.set_index(["curve", "ratio"])
    for ratio in (2.1, 2.3):
        assert (pick.loc[("dashed", ratio), "fpr"], pick.loc[("dashed", ratio), "tpr"]) == (
            named.loc["A", "fpr"],
            named.loc["A", "tpr"],
        )
    assert pick.loc[("solid", 2.1), "fpr"] == named.loc["B", "fpr"]
    assert pick.loc[("solid", 2.3), "choice"] == "always negative"
    # The dashed classifier costs less than or the same as the solid one everywhere.
    assert (difference["difference"] <= 1e-12).all()
    # The largest gap is about 0.05 (0.25 against 0.3), near pc = 0.3 and near pc = 0.7.
    gap = difference["difference"].min()
    assert -gap == pytest.approx(0.05, abs=0.01)
    where = difference.loc[difference["difference"] <= gap + 1e-9, "pc"]
    assert ((where - 0.3).abs() <= 0.05).any() and ((where - 0.7).abs() <= 0.05).any()
    at_03 = difference.loc[(difference["pc"] - 0.3).abs() <= 0.05]
    assert at_03["cost_a"].min() == pytest.approx(0.25, abs=0.01)
    assert at_03["cost_b"].max() == pytest.approx(0.3, abs=0.015)
    # Negligible near 0.5, below 0.2 and above 0.8.
    d = lambda pc: np.interp(pc, difference["pc"], difference["difference"])  # noqa: E731
    assert abs(d(0.5)) <= 0.01 + 1e-12
    assert np.abs(d(np.r_[np.linspace(0, 0.2, 11), np.linspace(0.8, 1, 11)])).max() <= 1e-12


def test_fig11_tangent_iso_line_and_cost_crossing_agree(script):
    ns = script("fig11")
    points, hulls, result = ns["points"], ns["hulls"], ns["result"]
    # The ROC curves cross.
    fpr = np.linspace(0.01, 0.99, 99)
    gap = _tpr_on(points[points["classifier"] == "tree"], fpr) - _tpr_on(
        points[points["classifier"] == "naive bayes"], fpr
    )
    assert (gap > 0.01).any() and (gap < -0.01).any()
    # The cost curves cross once inside (0.05, 0.95), at about 0.5.
    inner = [pc for pc in result.crossovers if 0.05 < pc < 0.95]
    assert len(inner) == 1 and 0.35 < inner[0] < 0.65
    crossing = inner[0]
    # The tree (dotted) is cheaper below the crossing, naive Bayes (dashed) above it.
    better = result.better[(result.better["pc_hi"] - result.better["pc_lo"]) > 0.01]
    below = better[better["pc_hi"] <= crossing + 1e-9]
    above = better[better["pc_lo"] >= crossing - 1e-9]
    assert set(below["better"]) - {"tie"} == {"tree"}
    assert set(above["better"]) - {"tie"} == {"naive bayes"}
    assert len(below) + len(above) == len(better)
    # One iso-performance line, of the crossing's slope, touches both hulls.
    slope, contact = ns["slope"], ns["contact"]
    assert slope == pytest.approx(1 / crossing - 1)
    assert set(contact["classifier"]) == {"tree", "naive bayes"}
    assert contact["intercept"].max() - contact["intercept"].min() < 1e-9
    line = ns["intercept"] + slope * hulls["fpr"]
    assert (hulls["tpr"] <= line + 1e-9).all()


@pytest.mark.slow
def test_fig06_undersampled_trees_envelope_and_range(script):
    ns = script("fig06")
    points, hull, lines, envelope = ns["points"], ns["hull"], ns["lines"], ns["envelope"]
    # ROC space: every tree is well above the chance diagonal; some are dominated.
    assert len(points) >= 10
    assert (points["tpr"] - points["fpr"] > 0.05).all()
    assert np.isfinite(hull["threshold"]).sum() < len(points)
    # Cost space: with the right undersampling the cost never rises above about 0.25.
    assert envelope["cost"].max() == pytest.approx(0.25, abs=0.02)
    # Near pc = 0.5 several trees are close to the best one.
    best = cc.cost_at(envelope, [0.5])["cost"].item()
    near = cc.cost_at(lines, [0.5])["cost"] <= best + 0.03
    assert near.sum() >= 4
    # The envelope's operating range, about 0.17 < PC(+) < 0.84 in the paper.
    found = ns["envelope_range"]
    assert found["pc_lo"].item() == pytest.approx(0.17, abs=0.03)
    assert found["pc_hi"].item() == pytest.approx(0.84, abs=0.03)


def test_fig01_the_papers_matrix_and_its_rates(script):
    ns = script("fig01")
    cells = ns["cells"].set_index("name")
    # The paper's counts: 20 positives (16 right), 10 negatives (6 right).
    assert cells["count"].to_dict() == {"TP": 16, "FN": 4, "FP": 4, "TN": 6}
    assert ns["totals"].set_index("actual")["count"].to_dict() == {"positive": 20, "negative": 10}
    # Each row divided by its total: TP 0.8, FN 0.2, FP 0.4, TN 0.6; each row sums to one.
    assert cells["rate"].to_dict() == pytest.approx({"TP": 0.8, "FN": 0.2, "FP": 0.4, "TN": 0.6})
    assert cells.loc["TP", "rate"] + cells.loc["FN", "rate"] == pytest.approx(1)
    assert cells.loc["FP", "rate"] + cells.loc["TN", "rate"] == pytest.approx(1)
    # So the classifier is the ROC point (0.4, 0.8), the cost line from 0.4 to 0.2.
    point = ns["points"][ns["points"]["threshold"] == 1]
    line = cc.to_cost_lines(point[["threshold", "fpr", "tpr"]]).set_index("pc")["cost"]
    assert (line[0.0], line[1.0]) == pytest.approx((0.4, 0.2))


def test_fig03_two_crisp_lines_cross_once_each_lower_on_one_side(script):
    ns = script("fig03")
    crisp, lines, crossing = ns["crisp"], ns["lines"], ns["crossing"]
    # Two ROC points, neither dominating: one has both the higher TPR and the higher FPR.
    assert len(crisp) == 2
    a, b = crisp.sort_values("fpr").itertuples()
    assert a.fpr < b.fpr and a.tpr < b.tpr
    # The cost lines cross once inside (0, 1), where the script marks it ...
    assert 0 < crossing < 1
    at = cc.cost_at(lines, [crossing], by="classifier")["cost"]
    assert at.max() - at.min() < 1e-9
    # ... and each classifier is the cheaper on one side: naive Bayes below, the tree above.
    grid = np.linspace(0, 1, 101)
    costs = cc.cost_at(lines, grid, by="classifier").pivot(
        index="pc", columns="classifier", values="cost"
    )
    below, above = costs[costs.index < crossing - 0.01], costs[costs.index > crossing + 0.01]
    assert (below["naive bayes"] < below["tree"]).all()
    assert (above["tree"] < above["naive bayes"]).all()


def test_fig04_envelope_is_the_hull_in_cost_space(script):
    ns = script("fig04")
    # The chart draws all ten points, the whole hull and the envelope.
    ten, hull = drawn(ns, "ten", ["fpr", "tpr"]), drawn(ns, "hull", ["fpr", "tpr"])
    lines, envelope = ns["lines"], drawn(ns, "envelope", ["pc", "cost"])
    # Ten ROC points, the two trivial classifiers among them, as in the paper; the hull
    # runs from (0, 0) to (1, 1).
    assert len(ten) == 10
    assert ten[["fpr", "tpr"]].iloc[[0, -1]].to_numpy().tolist() == [[0, 0], [1, 1]]
    assert hull[["fpr", "tpr"]].iloc[[0, -1]].to_numpy().tolist() == [[0, 0], [1, 1]]
    # Each envelope segment is the line of a hull vertex, and only those.
    # (The trivial classifiers aside: the envelope's ends.)
    trivial = set(ten["threshold"].iloc[[0, -1]])
    on_hull = set(hull["threshold"][np.isfinite(hull["threshold"])]) - trivial
    assert set(envelope["threshold"][np.isfinite(envelope["threshold"])]) - trivial == on_hull
    # Each envelope vertex is a hull edge, at the pc of that edge's slope.
    inner = envelope["pc"][(envelope["pc"] > 0) & (envelope["pc"] < 1)].to_numpy()
    edges = hull["pc_lo"][(hull["pc_lo"] > 0) & (hull["pc_lo"] < 1)].to_numpy()
    np.testing.assert_allclose(np.sort(inner), np.sort(edges))
    # The points below the hull (there are some) never reach the envelope.
    below = set(ten["threshold"]) - on_hull - trivial
    assert below
    pc = np.linspace(0.01, 0.99, 99)
    lowest = cc.cost_at(envelope, pc)["cost"].to_numpy()
    for threshold in below:
        line = cc.cost_at(lines[lines["threshold"] == threshold], pc)["cost"].to_numpy()
        assert (line > lowest + 1e-9).all(), threshold


@pytest.mark.slow
def test_fig10_extreme_cost_ratios_fall_outside_both_operating_ranges(script):
    ns = script("fig10")
    ranges = ns["envelope_range"].set_index("method")
    ratios = ns["cost_ratios"]
    # The pc of each cost ratio uses sonar's p(+), 111/208 (the paper's 0.5337).
    assert ns["p_pos"] == pytest.approx(0.5337, abs=1e-3)
    for method in ("oversampling", "undersampling"):
        lo, hi = ranges.loc[method, "pc_lo"], ranges.loc[method, "pc_hi"]
        # Narrow ranges that hold 1:1 and 2:1 but neither 5:1 nor 10:1.
        assert lo < ratios["1:1"] < hi and lo < ratios["2:1"] < hi
        assert ratios["5:1"] > hi and ratios["10:1"] > hi
        assert 0.1 < lo < 0.35 and 0.7 < hi < 0.85
    # Undersampling's range is the wider (0.25-0.82 against 0.28-0.75 in the paper).
    width = ranges["pc_hi"] - ranges["pc_lo"]
    assert width["undersampling"] > width["oversampling"]
