"""The pf1997 gallery figures tell Provost and Fawcett's (1997) story, on their own tables.

Each test runs one script (scaled down, in a temporary directory) and checks what the
paper says its figure shows: who dominates whom, who is on the ROC convex hull, which
vertex each iso-performance line picks, which crisp classifiers extend the hull, who is
nearly optimal everywhere and over which slopes each hull vertex is optimal.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from gallery_scripts import run_figure

# Gallery tests: each runs a gallery script (the quick loop leaves them out).
pytestmark = pytest.mark.slow

TOL = 1e-9


@pytest.fixture(scope="module")
def run():
    """Run a pf1997 script once (by its figure number) and return its namespace."""
    return lambda number: run_figure("pf1997", f"fig{number}")


def tpr_at(curve: pd.DataFrame, fpr) -> np.ndarray:
    """A curve's TPR at ``fpr`` (straight between its points, sorted by fpr then tpr)."""
    curve = curve.sort_values(["fpr", "tpr"])
    return np.interp(fpr, curve["fpr"], curve["tpr"])


def upper_hull(points: pd.DataFrame) -> pd.DataFrame:
    """The ROC convex hull, computed here from scratch (monotone chain) to check against."""
    xy = sorted({(0.0, 0.0), (1.0, 1.0), *zip(points["fpr"], points["tpr"])})
    hull: list[tuple[float, float]] = []
    for p in xy:  # left to right, the upper chain turns clockwise at every corner
        while len(hull) >= 2:
            (ax, ay), (bx, by) = hull[-2], hull[-1]
            if (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) >= -TOL:
                hull.pop()  # b is not a corner of the upper chain
            else:
                break
        hull.append(p)
    return pd.DataFrame(hull, columns=["fpr", "tpr"])


def owners_of(vertices: pd.DataFrame, points: pd.DataFrame) -> list[str]:
    """Which classifier each vertex is a point of ("trivial" for the corners)."""
    inner = points[(points["fpr"] > 0) & (points["fpr"] < 1)]
    named = vertices[["fpr", "tpr"]].merge(
        inner[["classifier", "fpr", "tpr"]].drop_duplicates(["fpr", "tpr"]),
        on=["fpr", "tpr"],
        how="left",
    )
    return named["classifier"].fillna("trivial").tolist()


def test_fig01_a_dominates_d_and_no_curve_is_best_everywhere(run):
    ns = run("01")
    points = ns["points"]
    assert sorted(points["classifier"].unique()) == ["A", "B", "C", "D"]
    curves = {name: curve for name, curve in points.groupby("classifier")}
    grid = np.union1d(points["fpr"], np.linspace(0, 1, 2001))
    inside = (grid > 0) & (grid < 1)
    gap = tpr_at(curves["A"], grid) - tpr_at(curves["D"], grid)
    assert (gap[inside] > 0).all(), "A lies above D at every false positive rate"
    # the curves cross: every classifier is beaten by another somewhere
    for name, curve in curves.items():
        assert any(
            (tpr_at(other, grid) > tpr_at(curve, grid) + 0.01).any()
            for o, other in curves.items()
            if o != name
        ), f"{name} is best everywhere"
    # the script's own dominance table says the same, and A over D is its only dominance
    dominating = ns["dominance"].query("dominates")
    assert list(zip(dominating["upper"], dominating["lower"])) == [("A", "D")]


def test_fig02_only_a_and_c_are_on_the_hull(run):
    ns = run("02")
    points, hull = ns["points"], ns["hull"]
    mine = upper_hull(points)
    np.testing.assert_allclose(hull[["fpr", "tpr"]].to_numpy(), mine.to_numpy())
    assert set(owners_of(hull, points)) - {"trivial"} == {"A", "C"}
    # B and D lie strictly below the hull at every point of theirs: never optimal
    for name in "BD":
        curve = points[(points["classifier"] == name) & (points["fpr"] > 0) & (points["fpr"] < 1)]
        assert (tpr_at(hull, curve["fpr"]) > curve["tpr"] + 0.01).all(), name
    # A's vertices come first (few false positives), then C's (many)
    named = [o for o in owners_of(hull, points) if o != "trivial"]
    assert named == sorted(named)
    assert ns["closest"]["B"] > 0.01 and ns["closest"]["D"] > 0.01


def best_for_slope(points: pd.DataFrame, slope: float) -> pd.Series:
    """The point an iso-performance line of ``slope`` touches: largest ``tpr - slope*fpr``.

    The corners (0, 0) and (1, 1), which every curve has, are the trivial classifiers.
    """
    corner = ((points["fpr"] == 0) & (points["tpr"] == 0)) | (points["fpr"] == 1)
    points = points.assign(classifier=points["classifier"].where(~corner, "trivial"))
    return points.loc[(points["tpr"] - slope * points["fpr"]).idxmax()]


def test_fig03_alpha_picks_a_and_beta_picks_c(run):
    ns = run("03")
    points, touched = ns["points"], ns["touched"].set_index("line")
    # the paper's scenarios: 10 negatives per positive, FN cost 1 or 100 times FP cost
    assert touched.loc["alpha", "slope"] == pytest.approx(10)
    assert touched.loc["beta", "slope"] == pytest.approx(1 / 10)
    for line, owner in {"alpha": "A", "beta": "C"}.items():
        best = best_for_slope(points, touched.loc[line, "slope"])
        assert best["classifier"] == owner, line
        assert (touched.loc[line, "fpr"], touched.loc[line, "tpr"]) == (best["fpr"], best["tpr"])
        assert touched.loc[line, "classifier"] == owner
        # the line touches: no point lies above it, and the margin is clear (not a tie)
        margin = best["tpr"] - touched.loc[line, "slope"] * best["fpr"]
        others = points[(points["fpr"] != best["fpr"]) | (points["tpr"] != best["tpr"])]
        assert (others["tpr"] - touched.loc[line, "slope"] * others["fpr"] < margin - 0.005).all()
    # neither A nor C is close to the best over the whole hull (a loss of 0.05 or more)
    assert (ns["shortfall"][["A", "C"]] > 0.05).all()


def test_fig04_e_extends_the_hull_f_and_g_do_not(run):
    ns = run("04")
    points, crisp, before, after = ns["points"], ns["crisp"], ns["before"], ns["after"]
    crisp = crisp.set_index("classifier")
    assert sorted(crisp.index) == ["E", "F", "G"]
    every = pd.concat([points, crisp.reset_index()], ignore_index=True)
    np.testing.assert_allclose(after[["fpr", "tpr"]].to_numpy(), upper_hull(every).to_numpy())
    np.testing.assert_allclose(before[["fpr", "tpr"]].to_numpy(), upper_hull(points).to_numpy())
    # E rises above the old hull and is a vertex of the new one
    e = crisp.loc["E"]
    assert e["tpr"] > tpr_at(before, e["fpr"]) + 0.01
    assert ((after["fpr"] == e["fpr"]) & (after["tpr"] == e["tpr"])).any()
    # ... so some iso-performance slope picks E among all the classifiers
    vertex = after[(after["fpr"] == e["fpr"]) & (after["tpr"] == e["tpr"])].iloc[0]
    slope = float(np.sqrt(vertex["slope_lo"] * vertex["slope_hi"]))
    assert best_for_slope(every, slope)["classifier"] == "E"
    # F and G lie clearly beneath the new hull: no slope ever picks them
    for name in "FG":
        point = crisp.loc[name]
        assert point["tpr"] < tpr_at(after, point["fpr"]) - 0.01, name
    assert crisp["on_new_hull"].to_dict() == {"E": True, "F": False, "G": False}


def least_cost(points: pd.DataFrame, pc: np.ndarray) -> np.ndarray:
    """The least normalized expected cost of the points (and the trivial ones) at each pc."""
    fpr = np.r_[points["fpr"].to_numpy(), 0.0, 1.0][:, None]
    fnr = 1 - np.r_[points["tpr"].to_numpy(), 0.0, 1.0][:, None]
    return (fnr * pc + fpr * (1 - pc)).min(axis=0)


def test_fig05_c_is_nearly_optimal_over_the_whole_range(run):
    ns = run("05")
    points, hull = ns["points"], ns["hull"]
    assert sorted(points["classifier"].unique()) == ["A", "C"]
    # A and C are each optimal over a portion of the range: both own hull vertices
    owners = owners_of(hull, points)
    assert {"A", "C"} <= set(owners)
    np.testing.assert_allclose(hull[["fpr", "tpr"]].to_numpy(), upper_hull(points).to_numpy())
    pc = np.linspace(0, 1, 1001)
    best = least_cost(points, pc)
    loss = {name: least_cost(curve, pc) - best for name, curve in points.groupby("classifier")}
    # C alone is never more than 0.02 (normalized expected cost) from the best choice ...
    assert loss["C"].max() < 0.02
    # ... while A alone is far from it somewhere: the near-optimality is C's
    assert loss["A"].max() > 0.05
    # the script's own shortfall table says the same
    assert ns["shortfall"]["C"] == pytest.approx(loss["C"].max(), abs=2e-3)
    assert ns["shortfall"]["A"] == pytest.approx(loss["A"].max(), abs=2e-3)


def test_fig06_slope_ranges_and_the_three_scenarios(run):
    ns = run("06")
    points, hull, ranges, optimal = ns["points"], ns["hull"], ns["ranges"], ns["optimal"]
    np.testing.assert_allclose(hull[["fpr", "tpr"]].to_numpy(), upper_hull(points).to_numpy())
    # each vertex is optimal between the slopes of its two hull edges, and the ranges
    # tile (0, inf) without gaps
    edges = np.diff(hull["tpr"]) / np.diff(hull["fpr"])
    np.testing.assert_allclose(hull["slope_hi"].to_numpy(), np.r_[np.inf, edges])
    np.testing.assert_allclose(hull["slope_lo"].to_numpy(), np.r_[edges, 0.0])
    for row in hull.itertuples():
        lo, hi = max(row.slope_lo, 1e-3), min(row.slope_hi, 1e3)
        best = best_for_slope(points, float(np.sqrt(lo * hi)))
        assert (best["fpr"], best["tpr"]) == (row.fpr, row.tpr)
    # the bottom panel draws exactly those ranges (cut to its axis)
    np.testing.assert_allclose(ranges["bar_lo"], hull["slope_lo"].clip(0.01, 100))
    np.testing.assert_allclose(ranges["bar_hi"], hull["slope_hi"].clip(0.01, 100))
    assert set(owners_of(hull, points)) - {"trivial"} == {"A", "C", "E"}
    # E is Fig. 4's E
    fig04_e = run("04")["crisp"].set_index("classifier").loc["E", ["fpr", "tpr"]]
    fig06_e = points.set_index("classifier").loc["E", ["fpr", "tpr"]]
    np.testing.assert_allclose(fig06_e.to_numpy(float), fig04_e.to_numpy(float))

    def picked(lo: float, hi: float) -> set[tuple[str, float, float]]:
        return {
            (b["classifier"], b["fpr"], b["tpr"])
            for b in (best_for_slope(points, m) for m in np.geomspace(lo, hi, 400))
        }

    by_scenario = dict(iter(optimal.groupby("scenario")))
    (a, b, c) = sorted(by_scenario)
    # (a) the paper's $5-10 false alarms, $500-1000 misses, 10:1 negatives: 1/20 to 1/5;
    # both ends' lines touch one and the same point of C
    assert ns["scenarios"][a] == pytest.approx((1 / 20, 1 / 5))
    assert len(picked(1 / 20, 1 / 5)) == 1 and next(iter(picked(1 / 20, 1 / 5)))[0] == "C"
    assert by_scenario[a]["classifier"].tolist() == ["C"]
    # (b) 1/5 to 2: A, C and E are each optimal for part of it
    assert ns["scenarios"][b] == pytest.approx((1 / 5, 2))
    assert {name for name, *_ in picked(1 / 5, 2)} == {"A", "C", "E"}
    assert set(by_scenario[b]["classifier"]) == {"A", "C", "E"}
    # (c) doing nothing is best only for slopes at least as steep as the first hull edge
    first = edges[0]
    assert ns["scenarios"][c][0] == pytest.approx(first)
    assert picked(first * 1.001, 1e4) == {("trivial", 0.0, 0.0)}
    assert best_for_slope(points, first * 0.999)["classifier"] == "A"
    assert by_scenario[c]["classifier"].tolist() == ["trivial"]
    assert cc_pc(first) < 0.05  # a small range of conditions: PC(+) below 5 %


def cc_pc(slope: float) -> float:
    """The operating point ``PC(+)`` of an iso-performance slope."""
    return 1 / (1 + slope)
