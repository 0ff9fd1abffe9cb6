"""Drummond & Holte 2000: each gallery figure holds the paper's claim on its own tables."""

import numpy as np
import pandas as pd
import pytest
from gallery_scripts import run_figure

import costchart as cc

# Gallery tests: each runs a gallery script (the quick loop leaves them out).
pytestmark = pytest.mark.slow


def run_script(name):
    return run_figure("dh2000", name)


@pytest.fixture(scope="module")
def fig08():
    return run_script("fig08")


def test_fig08_costs_are_read_off_the_classifiers_own_line(fig08):
    classifier = fig08["classifier"]
    assert classifier[["fpr", "tpr"]].to_numpy().tolist() == [[0.09, 0.36]]
    read_off = fig08["read_off"]
    pc = read_off["pc"].to_numpy()
    expected = (1 - 0.36) * pc + 0.09 * (1 - pc)
    np.testing.assert_allclose(read_off["cost"], expected, atol=1e-12)
    # The paper's example: at pc = 0.8 the line is at 0.53, not the always-positive 0.2.
    at_08 = read_off.loc[np.isclose(pc, 0.8), "cost"]
    assert len(at_08) == 1 and at_08.iat[0] == pytest.approx(0.53, abs=1e-9)
    assert at_08.iat[0] > 1 - 0.8  # above the always-positive classifier there
    operating = fig08["operating"]
    assert operating["pc_lo"].iat[0] == pytest.approx(0.2)
    assert operating["pc_hi"].iat[0] == pytest.approx(0.91 / 1.55)


@pytest.fixture(scope="module")
def fig03():
    return run_script("fig03")


def test_fig03_b_is_horizontal_with_range_03_07_and_dashed_curve_is_better(fig03):
    solid, dashed = fig03["SOLID"], fig03["DASHED"]
    b = fig03["b"]
    fpr, tpr = b["fpr"].iat[0], b["tpr"].iat[0]
    assert fpr == pytest.approx(1 - tpr)  # FP = 1 - TP: a horizontal cost line
    assert (fpr, tpr) == pytest.approx((0.3, 0.7))
    rng = fig03["b_range"]
    assert (rng["pc_lo"].iat[0], rng["pc_hi"].iat[0]) == pytest.approx((0.3, 0.7))
    # The ends of the range are the slopes of the segments from B to (0, 0) and (1, 1).
    hulls = fig03["hulls"]
    vertex = hulls[(hulls["curve"] == solid) & np.isclose(hulls["fpr"], fpr)]
    assert vertex["slope_hi"].iat[0] == pytest.approx(tpr / fpr)
    assert vertex["slope_lo"].iat[0] == pytest.approx((1 - tpr) / (1 - fpr))
    # The dashed curve is never worse; the gap is about 0.05 (0.25 vs 0.3) near pc 0.3 and
    # 0.7, and nil below 0.2 and above 0.8.
    envelopes = fig03["envelopes"]
    grid = np.linspace(0, 1, 401)
    costs = cc.cost_at(envelopes, grid, by="curve").pivot(
        index="pc", columns="curve", values="cost"
    )
    gap = costs[solid] - costs[dashed]
    assert (gap >= -1e-12).all()
    assert gap.max() == pytest.approx(0.05, abs=0.01)
    assert min(abs(gap.idxmax() - 0.3), abs(gap.idxmax() - 0.7)) < 0.05
    assert costs.loc[np.isclose(costs.index, 0.3), dashed].iat[0] == pytest.approx(0.25, abs=0.01)
    assert gap[(gap.index < 0.2) | (gap.index > 0.8)].abs().max() < 1e-9
    assert gap.loc[np.isclose(gap.index, 0.5)].iat[0] < 0.03
    # Slope 2.1 picks A on the dashed curve and B on the solid one; steep slopes pick C.
    picked = fig03["picked"].set_index("curve")
    assert picked.loc[solid, ["fpr", "tpr"]].tolist() == pytest.approx([fpr, tpr])
    points = fig03["points"]
    a = points[points["name"] == "A"]
    assert picked.loc[dashed, ["fpr", "tpr"]].tolist() == pytest.approx(
        [a["fpr"].iat[0], a["tpr"].iat[0]]
    )
    steep = cc.iso_performance(points.drop(columns="name"), slope=8.0, by="curve")
    assert steep.set_index("curve").loc[dashed, "choice"] == "always negative"


@pytest.fixture(scope="module")
def fig05():
    return run_script("fig05")


def test_fig05_hulls_cross_and_iso_lines_pick_the_paper_s_hull(fig05):
    dotted, dashed = fig05["DOTTED"], fig05["DASHED"]
    hulls = fig05["hulls"]
    grid = np.linspace(0.001, 0.999, 999)

    def tpr_of(name):
        own = hulls[hulls["hull"] == name].sort_values("fpr")
        return np.interp(grid, own["fpr"], own["tpr"])

    above = tpr_of(dotted) - tpr_of(dashed)
    assert above.max() > 0.01 and above.min() < -0.01  # the two hulls cross in ROC space
    # Each iso line's vertex on each hull, and its cost: A favours the dotted hull, D the
    # dashed one, T touches both at equal cost.
    touches = fig05["touches"]
    best = touches.groupby(["line", "hull"])["cost"].min().unstack()
    assert best.loc["A", dotted] < best.loc["A", dashed] - 0.01
    assert best.loc["D", dashed] < best.loc["D", dotted] - 0.01
    assert best.loc["T", dotted] == pytest.approx(best.loc["T", dashed], abs=1e-9)
    # Each line touches a hull at the vertex optimal for its slope: its cost is the envelope.
    envelopes = fig05["envelopes"]
    for row in touches.itertuples():
        on_envelope = cc.cost_at(envelopes[envelopes["hull"] == row.hull], [row.pc_lo])
        assert row.cost == pytest.approx(on_envelope["cost"].iat[0], abs=1e-9)
    # In cost space the dotted envelope is lower left of the crossing, the dashed one right.
    crossing = fig05["crossing_pc"]
    pcs = np.linspace(0, 1, 501)
    costs = cc.cost_at(envelopes, pcs, by="hull").pivot(index="pc", columns="hull", values="cost")
    diff = costs[dotted] - costs[dashed]
    assert (diff[diff.index < crossing - 1e-6] <= 1e-12).all()
    assert (diff[diff.index > crossing + 1e-6] >= -1e-12).all()
    assert diff.min() < -0.02 and diff.max() > 0.02
    # The line T touching both hulls is the crossing, and the hulls' own ROC crossing lies
    # below it: equally good there, but optimal for no cost.
    t = touches[touches["line"] == "T"]
    assert t["pc_lo"].iat[0] == pytest.approx(crossing, abs=1e-9)
    f0, t0, slope = t["fpr"].iat[0], t["tpr"].iat[0], t["slope"].iat[0]
    x = fig05["roc_crossing"]
    tpr_at_crossing = np.interp(x, *hulls[hulls["hull"] == dotted][["fpr", "tpr"]].to_numpy().T)
    assert tpr_at_crossing < t0 + slope * (x - f0) - 0.01


@pytest.fixture(scope="module")
def fig09():
    return run_script("fig09")


def test_fig09_envelope_is_the_minimum_of_the_lines(fig09):
    points, lines, envelope = fig09["points"], fig09["lines"], fig09["envelope"]
    assert len(points) >= 5 and set(lines["classifier"]) == set(points["classifier"])
    pc = np.linspace(0, 1, 801)
    fpr, tpr = points["fpr"].to_numpy()[:, None], points["tpr"].to_numpy()[:, None]
    each = (1 - tpr) * pc + fpr * (1 - pc)  # every classifier's own line
    lowest = np.minimum(each.min(axis=0), np.minimum(pc, 1 - pc))
    on_envelope = cc.cost_at(envelope, pc)["cost"].to_numpy()
    np.testing.assert_allclose(on_envelope, lowest, atol=1e-12)
    # The lines that reach the envelope are exactly the ROC hull's vertices; the others
    # (at least one, as the paper's figure has) never touch it.
    touching = {
        name
        for name, row in zip(points["classifier"], each, strict=True)
        if np.isclose(row, lowest, atol=1e-12).any() and (row <= lowest + 1e-12).sum() > 1
    }
    assert touching == set(fig09["on_hull"])
    assert 0 < len(touching) < len(points)


@pytest.fixture(scope="module")
def fig10():
    return run_script("fig10")


def test_fig10_mixture_line_is_the_convex_combination_between_the_two(fig10):
    w, pair, mixture = fig10["W"], fig10["pair"], fig10["mixture"]
    assert 0 < w < 1
    r, s = pair.iloc[0], pair.iloc[1]
    # Both classifiers are hull vertices, adjacent (nothing between them on the hull).
    hull = fig10["hull"].sort_values("fpr").reset_index(drop=True)
    idx = [hull.index[np.isclose(hull["fpr"], p["fpr"])][0] for p in (r, s)]
    assert abs(idx[0] - idx[1]) == 1
    # The mixture's ROC point lies on the segment between them.
    m = mixture.iloc[0]
    assert (m["fpr"], m["tpr"]) == pytest.approx(
        (w * r["fpr"] + (1 - w) * s["fpr"], w * r["tpr"] + (1 - w) * s["tpr"])
    )
    # Its cost line is w * R's + (1 - w) * S's at every pc, between the two lines.
    pc = np.linspace(0, 1, 201)
    cost_r = cc.cost_at(pair.iloc[[0]], pc, by="classifier")["cost"].to_numpy()
    cost_s = cc.cost_at(pair.iloc[[1]], pc, by="classifier")["cost"].to_numpy()
    mixed = cc.cost_at(fig10["mixture_line"], pc)["cost"].to_numpy()
    np.testing.assert_allclose(mixed, w * cost_r + (1 - w) * cost_s, atol=1e-12)
    assert (mixed >= np.minimum(cost_r, cost_s) - 1e-12).all()
    assert (mixed <= np.maximum(cost_r, cost_s) + 1e-12).all()
    # It goes through the envelope vertex where the two lines cross, and never below the
    # envelope.
    crossing = fig10["crossing"]
    at = cc.cost_at(fig10["mixture_line"], crossing["pc"].tolist())["cost"].iat[0]
    assert at == pytest.approx(crossing["cost"].iat[0], abs=1e-12)
    assert at == pytest.approx(
        cc.cost_at(pair.iloc[[0]], crossing["pc"].tolist(), by="classifier")["cost"].iat[0],
        abs=1e-12,
    )
    envelope = cc.cost_at(fig10["envelope"], pc)["cost"].to_numpy()
    assert (mixed >= envelope - 1e-12).all()


@pytest.fixture(scope="module")
def fig15():
    return run_script("fig15")


def test_fig15_roc_and_cost_averages_differ_and_cost_average_is_lower(fig15):
    first, second = fig15["FIRST"], fig15["SECOND"]
    hulls, envelopes, average = fig15["hulls"], fig15["envelopes"], fig15["average"]
    pc = np.linspace(0, 1, 401)
    costs = cc.cost_at(envelopes, pc, by="curve").pivot(index="pc", columns="curve", values="cost")
    mean = cc.cost_at(average, pc)["cost"].to_numpy()
    np.testing.assert_allclose(mean, (costs[first] + costs[second]).to_numpy() / 2, atol=1e-12)
    # The dual: each ROC point's cost line is the cost average on its pc interval.
    dual = fig15["dual"]
    for row in dual.itertuples():
        mid = (row.pc_lo + row.pc_hi) / 2
        own = cc.cost_at(pd.DataFrame({"fpr": [row.fpr], "tpr": [row.tpr]}), [mid])
        on_average = cc.cost_at(average, [mid])
        assert own["cost"].iat[0] == pytest.approx(on_average["cost"].iat[0], abs=1e-9)
    # The ROC average is the mean TPR at each FPR of the two hulls.
    roc_avg = fig15["roc_avg"]

    def tpr_of(table, fpr):
        table = table.sort_values(["fpr", "tpr"])
        return np.interp(fpr, table["fpr"], table["tpr"])

    grid = np.linspace(0, 1, 201)[1:]
    halves = [tpr_of(hulls[hulls["curve"] == c], grid) for c in (first, second)]
    np.testing.assert_allclose(tpr_of(roc_avg, grid), (halves[0] + halves[1]) / 2, atol=1e-9)
    # The two averages are different curves, in either space.
    closed_dual = fig15["closed"](dual)
    assert np.abs(tpr_of(closed_dual, grid) - tpr_of(roc_avg, grid)).max() > 0.02
    roc_avg_cost = cc.cost_at(fig15["roc_avg_cost"], pc)["cost"].to_numpy()
    assert (roc_avg_cost >= mean - 1e-12).all()  # never below the cost average
    assert (roc_avg_cost - mean).max() > 0.01
    assert (roc_avg_cost > mean + 1e-6).mean() > 0.3  # higher for many pc
    # Vertex A averages a real classifier of one hull with always-positive of the other.
    a = fig15["vertex_a"]
    assert len(a) == 1
    a_rates = a[["fpr", "tpr"]].to_numpy(dtype=float)[0]
    vertices = hulls[(hulls["fpr"] > 0) & (hulls["fpr"] < 1)][["fpr", "tpr"]].to_numpy()
    assert any(np.allclose(a_rates, (v + 1.0) / 2) for v in vertices)
    assert a_rates[0] > 0.5 and a_rates[1] > 0.9  # top right


@pytest.fixture(scope="module")
def fig17():
    return run_script("fig17")


@pytest.mark.slow
def test_fig17_choosing_by_hull_is_never_worse_than_by_training_ratio(fig17):
    trees, envelope, by_ratio = fig17["trees"], fig17["envelope"], fig17["by_ratio"]
    assert len(trees) == 7
    # Every tree's test folds hold the whole sonar data: 111 mines (positive), 97 rocks,
    # the counts the docstring gives.
    counts = fig17["counts"]
    assert ((counts["TP"] + counts["FN"]) == 111).all() and (
        (counts["FP"] + counts["TN"]) == 97
    ).all()
    assert "with 111 mines and 97 rocks" in " ".join(fig17["__doc__"].split())
    # Training ratio R becomes PC(+) = 1 / (1 + R); A (11:1) is used at 1/12, B (5.1:1) at 1/6.1.
    np.testing.assert_allclose(trees["train_pc"], 1 / (1 + trees["R"]))
    for name, pc in (("11:1", 1 / 12), ("5.1:1", 1 / 6.1)):
        interval = by_ratio[by_ratio["ratio"] == name]["pc"]
        assert interval.min() <= pc <= interval.max()
    # The parameter-based curve, recomputed from its own table, is never below the envelope.
    pc = np.linspace(0, 1, 1001)
    hull_cost = cc.cost_at(envelope, pc)["cost"].to_numpy()
    param = np.full_like(pc, np.nan)
    for lo, hi in zip(by_ratio["pc"][::2], by_ratio["pc"][1::2], strict=True):
        row = by_ratio[(by_ratio["pc"] == lo)].iloc[0]
        inside = (pc >= lo) & (pc <= hi)
        param[inside] = (1 - row["tpr"]) * pc[inside] + row["fpr"] * (1 - pc[inside])
    assert not np.isnan(param).any()
    gap = param - hull_cost
    assert (gap >= -1e-12).all()
    assert np.trapezoid(gap, pc) > 0.005  # a real extra cost
    # The gap is largest at the two ends, where the envelope uses a trivial classifier.
    ends = (pc < 0.1) | (pc > 0.9)
    assert gap[ends].max() > gap[~ends].max()
    assert gap[pc < 0.05].min() > 0 and gap[pc > 0.95].min() > 0
    # The tree trained for a pc is not always the hull's choice there.
    choice = fig17["hull_choice"]
    same = np.isclose(choice["fpr"].to_numpy(), trees["fpr"].to_numpy()) & np.isclose(
        choice["tpr"].to_numpy(), trees["tpr"].to_numpy()
    )
    assert 0 < same.sum() < len(trees)
    middle = ((trees["train_pc"] > 0.1) & (trees["train_pc"] < 0.9)).to_numpy()
    assert (~same & middle).any()  # not only at the ends
    assert gap[(pc > 0.2) & (pc < 0.8)].max() > 0.005


@pytest.fixture(scope="module")
def fig01():
    return run_script("fig01")


def test_fig01_one_curve_dominates_and_crossing_point_does_not_set_the_range(fig01):
    grid = np.linspace(0.001, 0.999, 999)

    def tpr_of(table):
        table = table.sort_values(["fpr", "tpr"])
        return np.interp(grid, table["fpr"], table["tpr"])

    fig1, fig2, envelopes = fig01["fig1"], fig01["fig2"], fig01["envelopes"]
    # Fig. 1: A is above B everywhere; in cost space A's curve is never above B's, and the
    # gap varies: nil at the extremes, clearly positive in between.
    assert (tpr_of(fig1[fig1["curve"] == "A"]) >= tpr_of(fig1[fig1["curve"] == "B"])).all()
    pc = np.linspace(0, 1, 501)
    costs = cc.cost_at(envelopes, pc, by="curve").pivot(index="pc", columns="curve", values="cost")
    gap = (costs["B"] - costs["A"]).to_numpy()
    assert (gap >= -1e-12).all() and gap.max() > 0.05
    assert gap[0] == pytest.approx(0, abs=1e-9) and gap[-1] == pytest.approx(0, abs=1e-9)
    # Fig. 2: C and D cross in ROC space; in cost space D is better below the crossing pc and
    # C above it.
    above = tpr_of(fig2[fig2["curve"] == "C"]) - tpr_of(fig2[fig2["curve"] == "D"])
    assert above.max() > 0.02 and above.min() < -0.02
    crossing = fig01["crossing_pc"]
    diff = (costs["C"] - costs["D"]).to_numpy()
    assert (diff[pc < crossing - 1e-6] >= -1e-12).all()
    assert (diff[pc > crossing + 1e-6] <= 1e-12).all()
    assert diff.max() > 0.02 and diff.min() < -0.02
    # The iso line of the crossing pc touches both curves' hulls at equal cost, at vertices
    # other than the ROC crossing, which lies below it (optimal for no condition).
    tangent = fig01["tangent"].set_index("curve")
    cost_there = {
        name: (1 - row["tpr"]) * crossing + row["fpr"] * (1 - crossing)
        for name, row in tangent.iterrows()
    }
    assert cost_there["C"] == pytest.approx(cost_there["D"], abs=1e-6)
    x, y = fig01["roc_crossing"][["fpr", "tpr"]].to_numpy()[0]
    slope = cc.slope_from_pc(crossing)
    line_at_x = tangent.loc["D", "tpr"] + slope * (x - tangent.loc["D", "fpr"])
    assert y < line_at_x - 0.01
    assert all(abs(tangent.loc[n, "fpr"] - x) > 0.05 for n in ("C", "D"))


@pytest.fixture(scope="module")
def fig07():
    return run_script("fig07")


def test_fig07_the_four_extreme_classifiers_bound_cost_space(fig07):
    lines = fig07["lines"]
    pc = np.linspace(0, 1, 11)
    expected = {
        "always wrong": np.ones_like(pc),
        "perfect": np.zeros_like(pc),
        "always negative": pc,
        "always positive": 1 - pc,
    }
    for name, cost in expected.items():
        own = lines[lines["classifier"] == name]
        at = cc.cost_at(own.drop(columns="classifier"), pc, by=[])["cost"].to_numpy()
        np.testing.assert_allclose(at, cost, atol=1e-12)
