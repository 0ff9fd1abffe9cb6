"""The fawcett2006 gallery figures hold the claims of Fawcett (2006), on the scripts' tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from gallery_scripts import GALLERY, drawn, run_figure

import costchart as cc
from costchart.datasets import load_credit

# Gallery tests: each runs a gallery script (the quick loop leaves them out).
pytestmark = pytest.mark.slow

FPR_IV = "Share of the negatives' cost incurred"
TPR_IV = "Share of the positives' benefit gained"


def _run(name: str) -> dict:
    return run_figure("fawcett2006", name)


def _views(spec):
    """Every unit view of a chart spec (layers of concats, recursively)."""
    if isinstance(spec, dict):
        if "mark" in spec:
            yield spec
        for key in ("layer", "hconcat", "vconcat", "concat"):
            for child in spec.get(key, []):
                yield from _views(child)
        if "spec" in spec:
            yield from _views(spec["spec"])


def _axis_titles(chart) -> list[set]:
    """Per top-level panel, the set of (x title, y title) pairs of its views."""
    spec = chart.to_dict()
    panels = spec.get("hconcat") or [spec]
    return [
        {
            (v["encoding"]["x"].get("title"), v["encoding"]["y"].get("title"))
            for v in _views(panel)
            if "x" in v.get("encoding", {}) and "y" in v.get("encoding", {})
        }
        for panel in panels
    ]


def _above(points, one, other, grid):
    """Where curve ``one`` lies above curve ``other`` on a grid of x (linear between points)."""

    def curve(name):
        p = points[points["classifier"] == name].sort_values(["fpr", "tpr"])
        return np.interp(grid, p["fpr"], p["tpr"])

    return curve(one) - curve(other)


MATRIX_AT = np.array([250.0, 1000.0, 18424.0])


# --- Fig. 3 ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fig03():
    return _run("fig03")


def test_fig03_identical_roc_curves_but_rociv_tells_a_and_b_apart(fig03):
    plain, weighted, areas = (
        fig03["plain"],
        fig03["weighted"],
        fig03["areas"].set_index("classifier"),
    )
    a = plain[plain["classifier"] == "A"][["fpr", "tpr"]].reset_index(drop=True)
    b = plain[plain["classifier"] == "B"][["fpr", "tpr"]].reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)  # (a): one ROC curve for both
    assert areas.loc["A", "auc"] == pytest.approx(areas.loc["B", "auc"])
    # (b): the ROCIV areas rank them, clearly
    assert abs(areas.loc["A", "auciv"] - areas.loc["B", "auciv"]) > 0.03
    # each has a region of dominance: A at few false positives, B beyond
    gap = _above(weighted, "A", "B", np.linspace(0, 1, 401))
    grid = np.linspace(0, 1, 401)
    assert gap[(grid > 0.01) & (grid < 0.08)].min() > 0.02
    assert gap[(grid > 0.2) & (grid < 0.8)].max() < -0.02
    # the ROCIV view's axes name amounts, the ROC view's rates
    roc_titles, rociv_titles = _axis_titles(fig03["chart"])
    assert rociv_titles == {(FPR_IV, TPR_IV)}
    assert roc_titles == {("False positive rate", "True positive rate")}
    # The chart draws these curves (their hulls' every vertex) and its legend the AUCIV.
    drawn(fig03, cc.roc_hull(weighted), ["classifier", "fpr", "tpr"])
    legend = cc.chart_tables(fig03["rociv"])["auc"].set_index("classifier")["auc"]
    np.testing.assert_allclose(legend, areas.loc[legend.index, "auciv"])


# --- Fig. 8 ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fig08():
    return _run("fig08")


def test_fig08_matrix_is_the_papers_fig7_on_german_credit_amounts(fig08):
    credit = fig08["credit"]
    loans = load_credit().drop_duplicates("instance").set_index("instance")
    assert credit["instance"].nunique() == 1000
    np.testing.assert_array_equal(credit["amount"], loans.loc[credit["instance"], "amount"])
    np.testing.assert_array_equal(credit["label"], loans.loc[credit["instance"], "label"])
    x = credit["amount"].to_numpy()
    expected = np.where(credit["label"] == 1, 0.05 * x + 20, x + 20)  # Fig. 7b
    np.testing.assert_allclose(credit["cost"], expected)


def test_fig08_curves_are_roc_and_rociv_of_the_credit_data(fig08):
    credit, plain, weighted = fig08["credit"], fig08["plain"], fig08["weighted"]
    assert set(plain["classifier"]) == set(weighted["classifier"]) == set(credit["classifier"])
    for name, group in credit.groupby("classifier"):
        ranked = group.sort_values("score", ascending=False)
        good = ranked["label"].to_numpy() == 1
        cost = ranked["cost"].to_numpy()
        at = np.r_[0, np.flatnonzero(np.diff(ranked["score"].to_numpy()) != 0) + 1, len(good)]
        fpr = np.r_[0, np.cumsum(np.where(good, 0, cost))][at] / cost[~good].sum()
        tpr = np.r_[0, np.cumsum(np.where(good, cost, 0))][at] / cost[good].sum()
        iv = weighted[weighted["classifier"] == name].sort_values(["fpr", "tpr"])
        np.testing.assert_allclose(iv["fpr"], np.sort(fpr), atol=1e-12)
        np.testing.assert_allclose(iv["tpr"], np.sort(tpr), atol=1e-12)
        roc = plain[plain["classifier"] == name]
        assert roc["fpr"].iloc[-1] == 1 and roc["tp"].max() == good.sum()
    roc_titles, rociv_titles = _axis_titles(fig08["chart"].vconcat[0])
    assert rociv_titles == {(FPR_IV, TPR_IV)}
    assert roc_titles == {("False positive rate", "True positive rate")}


def test_fig08_roc_and_rociv_rank_the_classifiers_differently(fig08):
    areas = fig08["areas"].set_index("classifier")
    by_roc = list(areas["auc"].sort_values(ascending=False).index)
    by_rociv = list(areas["auciv"].sort_values(ascending=False).index)
    assert by_roc[0] == "naive bayes" and by_roc[-1] == "tree, expected benefit"
    assert by_rociv[0] == "tree, expected benefit"
    # The section's header says what these orders show: the last by AUC first by AUCIV,
    # and "in reverse" only if the whole order is reversed.
    header = " ".join((GALLERY / "fawcett2006" / "GALLERY_HEADER.rst").read_text().split())
    assert "the last by AUC (a tree ranking loans by their expected benefit) is the first" in header
    assert ("in reverse" in header) == (by_rociv == by_roc[::-1])
    cost_aware, bayes = areas.loc["tree, expected benefit"], areas.loc["naive bayes"]
    assert bayes["auc"] - cost_aware["auc"] > 0.02
    assert cost_aware["auciv"] - bayes["auciv"] > 0.005


def test_fig08_regions_of_superiority_move(fig08):
    share = fig08["superiority"]
    # The bars drawn are these shares.
    bars = drawn(fig08, "shares", ["classifier", "graph", "share"])
    assert bars.set_index(["classifier", "graph"])["share"].sum() == pytest.approx(
        share.drop(index="trivial").sum().sum()
    )
    assert share.sum().to_numpy() == pytest.approx([1.0, 1.0])
    # ROCIV: the cost-aware tree optimal over half the conditions, far more than by ROC
    assert share.loc["tree, expected benefit", "rociv"] > 0.45
    assert (
        share.loc["tree, expected benefit", "rociv"]
        > share.loc["tree, expected benefit", "roc"] + 0.1
    )
    # the plain tree, a real region by ROC, is nearly dominated by ROCIV
    assert share.loc["tree", "roc"] > 0.15 > 0.1 > share.loc["tree", "rociv"]
    assert share.loc["naive bayes", "roc"] == share["roc"].drop("trivial").max()


# --- Fig. 2 (and 7) ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def fig02():
    return _run("fig02")


def _cell(value, x):
    return value(x) if callable(value) else np.full_like(x, value)


def test_fig02_matrix_is_the_papers_fig7(fig02):
    matrix, x = fig02["matrix"], MATRIX_AT
    paper = {  # Fig. 7a: Y approves, N refuses; p a good loan, n a bad one
        ("Y", "p"): 0.05 * x,
        ("N", "p"): np.full_like(x, -20.0),
        ("Y", "n"): -x,
        ("N", "n"): np.full_like(x, 20.0),
    }
    assert set(matrix) == set(paper)
    for key, expected in paper.items():
        np.testing.assert_allclose(_cell(matrix[key], x), expected)
    # Fig. 7b, as the script derived it and writes it in its table
    derived = fig02["transformed"].set_index("truth")
    assert derived.loc["good (p)"].tolist() == pytest.approx([20.0, 0.05])
    assert derived.loc["bad (n)"].tolist() == pytest.approx([20.0, 1.0])
    approve = fig02["cells"].query("matrix.str.startswith('(b)') and decision == 'approve (Y)'")
    assert set(approve["text"]) == {"0.05 x + $20", "x + $20"}


def test_fig02_every_loan_carries_its_fig7b_amount(fig02):
    credit = fig02["credit"]
    assert len(credit) == 1000
    x = credit["amount"].to_numpy()
    np.testing.assert_allclose(
        credit["cost"], np.where(credit["label"] == 1, 0.05 * x + 20, x + 20)
    )


# --- Fig. 5 (and 10) ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def fig05():
    return _run("fig05")


def test_fig05_alike_by_roc_apart_by_rociv(fig05):
    areas = fig05["areas"].set_index("classifier")
    gift, chance = areas.loc["expected-gift model"], areas.loc["chance-of-giving model"]
    # (a) nearly indistinguishable by ROC (docs-scale noise of the difference: about 0.008)
    assert abs(gift["auc"] - chance["auc"]) < 0.03
    # (b) far apart by ROCIV (noise about 0.02)
    assert gift["auciv"] - chance["auciv"] > 0.08
    # the chance-of-giving model below the other over most of the false positive range
    grid = np.linspace(0, 1, 401)
    gap = _above(fig05["weighted"], "expected-gift model", "chance-of-giving model", grid)
    assert np.mean(gap > 0) > 0.9
    # The chart draws both views' curves (their hulls' every vertex).
    for points in (fig05["plain"], fig05["weighted"]):
        drawn(fig05, cc.roc_hull(points), ["classifier", "fpr", "tpr"])
    roc_titles, rociv_titles = _axis_titles(fig05["chart"])
    assert rociv_titles == {(FPR_IV, TPR_IV)}
    assert roc_titles == {("False positive rate", "True positive rate")}


def test_fig05_amounts_are_the_papers_mailing(fig05):
    data = fig05["data"].query("classifier == 'chance-of-giving model'")
    donors = data[data["label"] == 1]["amount"]
    assert 0.1 < len(donors) / len(data) < 0.2  # about 15 % give
    assert (data[data["label"] == 0]["amount"] == 1).all()  # a mailing costs $1
    assert 15 < donors.mean() < 35  # net gifts: mean 24 in the paper


# --- Fig. 6 ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fig06():
    return _run("fig06")


def test_fig06_benefit_mass_lies_further_left_for_the_expected_gift_model(fig06):
    ranked, centre = fig06["ranked"], fig06["centre"]
    n = fig06["n"]
    for name, rows in ranked.groupby("classifier"):
        assert rows["rank"].tolist() == list(range(1, n + 1))
        assert rows["score"].is_monotonic_decreasing
        donors = rows[rows["label"] == 1]
        weighted = (donors["rank"] * donors["amount"]).sum() / donors["amount"].sum()
        assert centre[name] == pytest.approx(weighted)
        assert (rows.loc[rows["label"] == 0, "signed"] == -1).all()
    # the stand-in for PRIE puts its benefit mass well left of the other's
    assert centre["expected-gift model"] < 0.7 * centre["chance-of-giving model"]
    # and so it gains more of the total benefit in its first tenth
    top = ranked[ranked["rank"] <= n // 10]
    gained = top[top["label"] == 1].groupby("classifier")["amount"].sum()
    assert gained["expected-gift model"] > 1.3 * gained["chance-of-giving model"]


# --- Fig. 4 ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fig04():
    return _run("fig04")


def test_fig04_area_over_the_totals_is_the_cost_weighted_probability(fig04):
    cases = fig04["instances"].sort_values("score", ascending=False)
    good = cases["label"].to_numpy() == 1
    amount, score = cases["amount"].to_numpy(), cases["score"].to_numpy()
    # one column per negative: its cost wide, the benefit of the positives above it high
    columns = fig04["columns"]
    above = [amount[good & (score > s)].sum() for s in score[~good]]
    np.testing.assert_allclose(columns["fp_cost"] - columns["left"], amount[~good])
    np.testing.assert_allclose(columns["tp_benefit"], above)
    assert fig04["cost_p"] == amount[good].sum() and fig04["cost_n"] == amount[~good].sum()
    # the staircase ends at the totals: the axes are in money, not shares
    points = fig04["points"]
    assert points["fp_cost"].max() == fig04["cost_n"]
    assert points["tp_benefit"].max() == fig04["cost_p"]
    # area / (cost(P) cost(N)) = AUCIV = P(positive outranks negative), cost-weighted
    pairs = (score[good][:, None] > score[~good][None, :]) * np.outer(amount[good], amount[~good])
    probability = pairs.sum() / (amount[good].sum() * amount[~good].sum())
    ratio = fig04["area"] / (fig04["cost_p"] * fig04["cost_n"])
    assert ratio == pytest.approx(probability)
    assert fig04["auciv"] == pytest.approx(probability)
    assert 0.5 < probability < 1
